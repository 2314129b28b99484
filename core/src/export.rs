//! Chunks as files for a pipeline: JSON Lines and CSV, one row per chunk.
//!
//! These are the chunks alone, without the trace or the checks: what a
//! pipeline ingests. Every row has the same fields, in this order:
//!
//! | field | meaning |
//! | --- | --- |
//! | `doc` | the document's name (a file name, or the example's name) |
//! | `index` | the chunk's position, from 0 |
//! | `text` | the chunk's text (LangChain's string where it is not a slice) |
//! | `start`, `end` | **char** offsets into the document, half-open (Unicode scalar values, as Python's `len` counts; the same offsets as the JSON report's `start`/`end`) |
//! | `len` | the chunk's length in `unit` |
//! | `unit` | `chars`, `bytes`, `cl100k` or `o200k` |
//! | `cut` | what ended the chunk, as the report's `cut_label` spells it: the separator's escaped label (a blank line is the four characters `\n\n`), or `hard`, `window`, `end`, `breakpoint`, `heading N`, `block`, … |
//! | `heading_path` | Markdown strategy only: the headings enclosing the chunk, outermost first (a list in JSON; joined by `" > "` in CSV) |
//! | `sha256` | SHA-256 of the UTF-8 bytes of `text`, 64 lowercase hex digits |
//!
//! The functions are pure: the CLI and the page build the same bytes.
//!
//! ```
//! use chunkscope::{export, Config, Detail, Splitter, Unit};
//! let text = "One. Two.";
//! let analysis = Splitter::new(Config::recursive(5), &chunkscope::Resources::new()).unwrap().analyze(text, Detail::CHUNKS).unwrap();
//! let rows = export::rows(text, &analysis);
//! let jsonl = export::jsonl("a.txt", Unit::Chars, &rows);
//! assert!(jsonl.starts_with(r#"{"doc":"a.txt","index":0,"text":"One.","start":0,"end":4,"len":4,"unit":"chars","cut":" ","sha256":""#));
//! assert_eq!(jsonl.lines().count(), 2);
//! ```

use crate::analysis::Analysis;
use crate::separator::Separator;
use crate::trace::Cut;
use crate::unit::Unit;
use sha2::{Digest, Sha256};
use std::fmt::Write;

/// One chunk as it is exported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row<'a> {
    /// Position in the output, from 0.
    pub index: usize,
    /// The chunk's text.
    pub text: &'a str,
    /// First char.
    pub start: usize,
    /// One past the last char.
    pub end: usize,
    /// Length in the configured unit.
    pub len: usize,
    /// What ended the chunk ([`cut_label`]).
    pub cut: String,
    /// The enclosing headings' texts, outermost first; `None` when the
    /// strategy records no headings.
    pub heading_path: Option<Vec<&'a str>>,
}

/// The rows of one analysis of `source`.
pub fn rows<'a>(source: &'a str, analysis: &'a Analysis) -> Vec<Row<'a>> {
    let output = &analysis.output;
    output
        .chunks
        .iter()
        .zip(&analysis.chunk_chars)
        .map(|(chunk, &(start, end))| Row {
            index: chunk.index,
            text: output.chunk_text(chunk.index, source),
            start,
            end,
            len: chunk.len,
            cut: cut_label(&analysis.separators, chunk.cut),
            heading_path: output
                .markdown
                .as_ref()
                .map(|m| m.path_texts(source, chunk.index)),
        })
        .collect()
}

/// A cut as a person reads it, the report's `cut_label`: the separator's
/// escaped label, `hard` for the `""` entry or a list that ran out,
/// `window`, `breakpoint`, `end`, or the structure level's name.
pub fn cut_label(separators: &[Separator], cut: Cut) -> String {
    match cut {
        Cut::Separator(i) => match separators.get(i) {
            Some(sep) if !sep.is_hard_cut() => sep.label(),
            _ => "hard".into(),
        },
        Cut::Hard => "hard".into(),
        Cut::Window => "window".into(),
        Cut::Breakpoint => "breakpoint".into(),
        Cut::End => "end".into(),
        Cut::Structure(level) => level.name(),
    }
}

/// SHA-256 of the UTF-8 bytes of `text`, as 64 lowercase hex digits.
pub fn sha256_hex(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    let mut hex = String::with_capacity(64);
    for byte in digest {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// The rows as JSON Lines: one object per chunk, each line ended by `\n`,
/// the fields in the order of the module's table (`heading_path` only when
/// the strategy records headings).
pub fn jsonl(doc: &str, unit: Unit, rows: &[Row<'_>]) -> String {
    let mut out = String::new();
    for row in rows {
        out.push_str("{\"doc\":");
        json_string(&mut out, doc);
        let _ = write!(out, ",\"index\":{},\"text\":", row.index);
        json_string(&mut out, row.text);
        let _ = write!(
            out,
            ",\"start\":{},\"end\":{},\"len\":{},\"unit\":",
            row.start, row.end, row.len
        );
        json_string(&mut out, unit.name());
        out.push_str(",\"cut\":");
        json_string(&mut out, &row.cut);
        if let Some(path) = &row.heading_path {
            out.push_str(",\"heading_path\":[");
            for (i, heading) in path.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_string(&mut out, heading);
            }
            out.push(']');
        }
        let _ = writeln!(out, ",\"sha256\":\"{}\"}}", sha256_hex(row.text));
    }
    out
}

/// The rows as CSV (RFC 4180): a header line, then one record per chunk,
/// every line ended by CRLF. A field holding a comma, a double quote, CR or
/// LF is quoted, its quotes doubled; nothing else is changed. The
/// `heading_path` column is there only when the strategy records headings,
/// its headings joined by `" > "`.
pub fn csv(doc: &str, unit: Unit, rows: &[Row<'_>]) -> String {
    let headings = rows.iter().any(|r| r.heading_path.is_some());
    let mut out = csv_header(headings);
    out.push_str(&csv_records(doc, unit, rows, headings));
    out
}

/// The CSV header line, with the `heading_path` column when `headings`.
pub fn csv_header(headings: bool) -> String {
    let mut out = String::from("doc,index,text,start,end,len,unit,cut");
    if headings {
        out.push_str(",heading_path");
    }
    out.push_str(",sha256\r\n");
    out
}

/// The CSV records of `rows` without a header (for several documents under
/// one header), with the `heading_path` column when `headings`.
pub fn csv_records(doc: &str, unit: Unit, rows: &[Row<'_>], headings: bool) -> String {
    let mut out = String::new();
    for row in rows {
        csv_field(&mut out, doc);
        let _ = write!(out, ",{},", row.index);
        csv_field(&mut out, row.text);
        let _ = write!(out, ",{},{},{},", row.start, row.end, row.len);
        csv_field(&mut out, unit.name());
        out.push(',');
        csv_field(&mut out, &row.cut);
        if headings {
            out.push(',');
            let path = row.heading_path.as_deref().unwrap_or_default();
            csv_field(&mut out, &path.join(" > "));
        }
        let _ = write!(out, ",{}\r\n", sha256_hex(row.text));
    }
    out
}

/// Appends `s` to `out` as a JSON string: quotes, backslashes and control
/// characters escaped (RFC 8259), everything else as it is. Public so that
/// the page writes its other JSON Lines (questions) without serde.
pub fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `s` as one CSV field.
fn csv_field(out: &mut String, s: &str) {
    if s.contains([',', '"', '\r', '\n']) {
        out.push('"');
        out.push_str(&s.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Detail, Splitter, Strategy};

    fn analysis(text: &str, config: Config) -> Analysis {
        Splitter::new(config, &crate::Resources::new())
            .unwrap()
            .analyze(text, Detail::CHUNKS)
            .unwrap()
    }

    /// The NIST / FIPS 180-2 examples.
    #[test]
    fn sha256_matches_the_published_vectors() {
        assert_eq!(
            sha256_hex(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
    }

    #[test]
    fn json_lines_read_back_as_the_chunks() {
        let text = "Tab\there, \"quoted\"\n\nnew line, é 😀 \u{1} end. More text follows.";
        let a = analysis(text, Config::recursive(20));
        let rows = rows(text, &a);
        let out = jsonl("dir/a \"b\".txt", Unit::Chars, &rows);
        let lines: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), a.output.chunks.len());
        assert!(out.ends_with('\n'));
        for (line, (chunk, &(start, end))) in
            lines.iter().zip(a.output.chunks.iter().zip(&a.chunk_chars))
        {
            let keys: Vec<&str> = line
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .collect();
            let mut sorted = vec![
                "doc", "index", "text", "start", "end", "len", "unit", "cut", "sha256",
            ];
            sorted.sort_unstable();
            assert_eq!(keys, sorted);
            assert_eq!(line["doc"], "dir/a \"b\".txt");
            assert_eq!(line["index"], chunk.index);
            assert_eq!(line["text"], chunk.text(text));
            assert_eq!(line["start"], start);
            assert_eq!(line["end"], end);
            let chars: String = text.chars().skip(start).take(end - start).collect();
            assert_eq!(line["text"], chars.as_str());
            assert_eq!(line["len"], chunk.len);
            assert_eq!(line["unit"], "chars");
            assert_eq!(line["sha256"], sha256_hex(chunk.text(text)));
        }
        assert_eq!(lines.last().unwrap()["cut"], "end");
    }

    #[test]
    fn the_lessons_refund_page_gives_exact_rows() {
        let text = "Refund policy\n\nRefunds take 5 days. UPI refunds are instant.";
        let config = Config::recursive(40).with_separators(["\n\n", "\n", ". ", " ", ""]);
        let a = analysis(text, config);
        let out = jsonl("refund", Unit::Chars, &rows(text, &a));
        let expected = format!(
            "{{\"doc\":\"refund\",\"index\":0,\"text\":\"Refund policy\",\"start\":0,\"end\":13,\"len\":13,\"unit\":\"chars\",\"cut\":\"\\\\n\\\\n\",\"sha256\":\"{}\"}}\n\
             {{\"doc\":\"refund\",\"index\":1,\"text\":\"Refunds take 5 days.\",\"start\":15,\"end\":35,\"len\":20,\"unit\":\"chars\",\"cut\":\". \",\"sha256\":\"{}\"}}\n\
             {{\"doc\":\"refund\",\"index\":2,\"text\":\"UPI refunds are instant.\",\"start\":36,\"end\":60,\"len\":24,\"unit\":\"chars\",\"cut\":\"end\",\"sha256\":\"{}\"}}\n",
            sha256_hex("Refund policy"),
            sha256_hex("Refunds take 5 days."),
            sha256_hex("UPI refunds are instant."),
        );
        assert_eq!(out, expected);
        let csv = csv("refund", Unit::Chars, &rows(text, &a));
        let expected = format!(
            "doc,index,text,start,end,len,unit,cut,sha256\r\n\
             refund,0,Refund policy,0,13,13,chars,\\n\\n,{}\r\n\
             refund,1,Refunds take 5 days.,15,35,20,chars,. ,{}\r\n\
             refund,2,UPI refunds are instant.,36,60,24,chars,end,{}\r\n",
            sha256_hex("Refund policy"),
            sha256_hex("Refunds take 5 days."),
            sha256_hex("UPI refunds are instant."),
        );
        assert_eq!(csv, expected);
    }

    /// A reader of RFC 4180 written for this test: quoted fields with
    /// doubled quotes, CRLF between records.
    fn parse_csv(s: &str) -> Vec<Vec<String>> {
        let mut records = vec![];
        let mut record = vec![];
        let mut field = String::new();
        let mut chars = s.chars().peekable();
        let mut quoted = false;
        while let Some(c) = chars.next() {
            if quoted {
                match c {
                    '"' if chars.peek() == Some(&'"') => {
                        chars.next();
                        field.push('"');
                    }
                    '"' => quoted = false,
                    c => field.push(c),
                }
                continue;
            }
            match c {
                '"' => quoted = true,
                ',' => record.push(std::mem::take(&mut field)),
                '\r' => {
                    assert_eq!(chars.next(), Some('\n'), "a bare CR outside quotes");
                    record.push(std::mem::take(&mut field));
                    records.push(std::mem::take(&mut record));
                }
                c => field.push(c),
            }
        }
        assert!(
            field.is_empty() && record.is_empty(),
            "the last record has no CRLF"
        );
        records
    }

    #[test]
    fn csv_quotes_what_needs_it_and_reads_back() {
        let text = "a, \"b\"\r\nc\n\nd,e \"f\"\n\n\"g\"\ntail";
        let config = Config::recursive(8).with_separators(["\n\n", "\n", " ", ""]);
        let a = analysis(text, config);
        let rows = rows(text, &a);
        let records = parse_csv(&csv("x,y.txt", Unit::Bytes, &rows));
        assert_eq!(
            records[0],
            ["doc", "index", "text", "start", "end", "len", "unit", "cut", "sha256"]
        );
        assert_eq!(records.len(), rows.len() + 1);
        for (record, row) in records[1..].iter().zip(&rows) {
            assert_eq!(record[0], "x,y.txt");
            assert_eq!(record[1], row.index.to_string());
            assert_eq!(record[2], row.text);
            assert_eq!(record[3], row.start.to_string());
            assert_eq!(record[4], row.end.to_string());
            assert_eq!(record[5], row.len.to_string());
            assert_eq!(record[6], "bytes");
            assert_eq!(record[7], row.cut);
            assert_eq!(record[8], sha256_hex(row.text));
        }
    }

    #[test]
    fn markdown_rows_carry_their_heading_path() {
        let text = "# Refunds\n\nIntro text here.\n\n## UPI\n\nInstant refunds.\n";
        let config = Config {
            size: 20,
            ..Config::for_strategy(Strategy::Markdown)
        };
        let a = analysis(text, config);
        let rows = rows(text, &a);
        let paths: Vec<Vec<&str>> = rows
            .iter()
            .map(|r| r.heading_path.clone().unwrap())
            .collect();
        assert!(paths.contains(&vec!["Refunds", "UPI"]), "{paths:?}");
        let out = jsonl("m.md", Unit::Chars, &rows);
        let last: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        assert_eq!(last["heading_path"], serde_json::json!(["Refunds", "UPI"]));
        let records = parse_csv(&csv("m.md", Unit::Chars, &rows));
        assert_eq!(records[0][8], "heading_path");
        assert_eq!(records.last().unwrap()[8], "Refunds > UPI");
    }
}
