//! The Markdown strategy: worked examples with exact chunks, properties over
//! random Markdown against a line-based model of its headings, and hostile
//! documents.

use chunkscope::{check, split, Config, Cut, Level, Output, Property, Splitter, TableHeader, Unit};
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, TestCaseError, TestRunner};
use std::cell::Cell;

mod tokenizer;
/// The trace-truth checks of `truth.rs`, here given the line model.
#[allow(dead_code)]
mod trace_truth;

const PRESET: &str = include_str!("../../web/src/presets/markdown.md");

fn texts<'a>(text: &'a str, out: &Output) -> Vec<&'a str> {
    out.chunks.iter().map(|c| c.text(text)).collect()
}

fn paths<'a>(text: &'a str, out: &Output) -> Vec<Vec<&'a str>> {
    let md = out.markdown.as_ref().expect("markdown facts");
    (0..out.chunks.len())
        .map(|i| md.path_texts(text, i))
        .collect()
}

#[test]
fn the_preset_splits_into_whole_sections_and_blocks() {
    let out = split(PRESET, &Config::markdown(400), &tokenizer::resources()).unwrap();
    let got: Vec<(&str, &str)> = out
        .chunks
        .iter()
        .map(|c| {
            let text = c.text(PRESET);
            (
                &text[..text.len().min(24)],
                &text[text.len().saturating_sub(12)..],
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("# Returns and refunds\n\nT", " on its own."),
            ("## Who can return an ite", " the parcel."),
            ("## How long a refund tak", "days       |"),
            ("The clock starts when th", "s collected."),
            ("## Checking a refund fro", "s like this:"),
            ("```python\nimport request", " `rejected`."),
            ("---", "---"),
            ("## Frequently asked ques", "ed questions"),
            ("### Can I return part of", "ny discount."),
            ("### What if I paid with ", "your UPI id."),
            ("### Who do I contact if ", "hin an hour."),
        ]
    );
    let cuts: Vec<Cut> = out.chunks.iter().map(|c| c.cut).collect();
    let (h2, h3, block) = (
        Cut::Structure(Level::Heading(2)),
        Cut::Structure(Level::Heading(3)),
        Cut::Structure(Level::Block),
    );
    assert_eq!(
        cuts,
        [h2, h2, block, h2, block, block, h2, h3, h3, h3, Cut::End]
    );
    let top = "Returns and refunds";
    let faq = "Frequently asked questions";
    assert_eq!(
        paths(PRESET, &out),
        [
            vec![top],
            vec![top, "Who can return an item"],
            vec![top, "How long a refund takes"],
            vec![top, "How long a refund takes"],
            vec![top, "Checking a refund from the API"],
            vec![top, "Checking a refund from the API"],
            vec![top, "Checking a refund from the API"],
            vec![top, faq],
            vec![top, faq, "Can I return part of an order?"],
            vec![top, faq, "What if I paid with two methods?"],
            vec![top, faq, "Who do I contact if something goes wrong?"],
        ]
    );
    // The table (357 chars with its heading) and the code block are whole.
    assert!(out.chunks[2]
        .text(PRESET)
        .ends_with("| Net banking    | the same account   | 5 days       |"));
    assert!(out.chunks[5]
        .text(PRESET)
        .contains("return reply.json()[\"status\"]\n```"));
    assert!(check(
        PRESET,
        &Config::markdown(400),
        &out,
        &tokenizer::resources()
    )
    .all_ok());
}

#[test]
fn the_preset_with_prefixes_keeps_every_chunk_and_prefix_within_the_size() {
    let config = Config::markdown(120).with_heading_prefix(true);
    let out = split(PRESET, &config, &tokenizer::resources()).unwrap();
    let md = out.markdown.as_ref().unwrap();
    for (i, c) in out.chunks.iter().enumerate() {
        let prefix = md.chunks[i].prefix.as_deref().unwrap();
        let path = md.path_texts(PRESET, i);
        assert_eq!(prefix, format!("{}\n\n", path.join(" > ")));
        assert!(prefix.chars().count() + c.text(PRESET).chars().count() <= 120);
    }
    // The table is over the room, so it is cut by rows; rows after the
    // first chunk carry the header as context.
    let rows: Vec<&str> = out
        .chunks
        .iter()
        .filter(|c| md.chunks[c.index].table_header.is_some())
        .map(|c| c.text(PRESET))
        .collect();
    assert_eq!(
        rows,
        [
            "| UPI            | the same UPI id    | 5 days       |",
            "| Card           | the same card      | 7 days       |",
            "| Cash on delivery | store credit     | instant      |",
            "| Net banking    | the same account   | 5 days       |",
        ]
    );
    let header = md.chunks.iter().find_map(|c| c.table_header).unwrap();
    assert_eq!(
        header.text(PRESET),
        "| Payment method | Refund goes to     | Typical time |\n\
         |----------------|--------------------|--------------|"
    );
    assert!(out
        .chunks
        .iter()
        .any(|c| c.cut == Cut::Structure(Level::FenceLine)));
    let checks = check(PRESET, &config, &out, &tokenizer::resources());
    assert!(checks.all_ok(), "{checks:?}");
}

/// CRLF, a Setext heading, a fence with a `#` line and a blank line inside,
/// a table, a list and an HTML block.
const SMALL: &str = "Intro line.\r\n\r\n# Fees\r\n\r\nCards cost 2%.\r\n\r\n```sh\r\n# not a heading\r\n\r\necho hi\r\n```\r\n\r\nSetext title\r\n---\r\n\r\n- one\r\n- two\r\n\r\n<div>\r\n# inside html\r\n</div>\r\n";

#[test]
fn a_small_document_splits_exactly() {
    let out = split(SMALL, &Config::markdown(40), &tokenizer::resources()).unwrap();
    assert_eq!(
        texts(SMALL, &out),
        [
            "Intro line.",
            "# Fees\r\n\r\nCards cost 2%.",
            "```sh\r\n# not a heading\r\n\r\necho hi\r\n```",
            "Setext title\r\n---\r\n\r\n- one\r\n- two",
            "<div>\r\n# inside html\r\n</div>",
        ]
    );
    assert_eq!(
        paths(SMALL, &out),
        [
            vec![],
            vec!["Fees"],
            vec!["Fees"],
            vec!["Fees", "Setext title"],
            vec!["Fees", "Setext title"],
        ]
    );
    let cuts: Vec<Cut> = out.chunks.iter().map(|c| c.cut).collect();
    assert_eq!(
        cuts,
        [
            Cut::Structure(Level::Heading(1)),
            Cut::Structure(Level::Block),
            Cut::Structure(Level::Heading(2)),
            Cut::Structure(Level::Block),
            Cut::End,
        ]
    );
    let md = out.markdown.as_ref().unwrap();
    let levels: Vec<u8> = md.headings.iter().map(|h| h.level).collect();
    assert_eq!(levels, [1, 2]);
    assert!(check(SMALL, &Config::markdown(40), &out, &tokenizer::resources()).all_ok());
}

/// A price table cut between rows, with its header given once and repeated.
/// Worked by hand: the header rows are 16 + 1 + 16 = 33 chars, so a
/// repeated header is 34 chars with its line break; the table's chunks
/// after the first have 50 − 34 = 16 chars of room, so `| Pro | 10 |` (12)
/// and `| Team | 20 |` (13), 26 together, no longer share one.
#[test]
fn a_table_header_repeated_in_each_chunk_of_its_rows_counts_in_the_size() {
    const DOC: &str =
        "# Prices\n\n| Plan | Price |\n| ---- | ----- |\n| Basic | 5 |\n| Pro | 10 |\n| Team | 20 |\n";
    const HEADER: &str = "| Plan | Price |\n| ---- | ----- |\n";
    let prefixes = |out: &Output| -> Vec<Option<String>> {
        let md = out.markdown.as_ref().expect("markdown facts");
        md.chunks.iter().map(|c| c.prefix.clone()).collect()
    };
    let once = split(DOC, &Config::markdown(50), &tokenizer::resources()).unwrap();
    assert_eq!(
        texts(DOC, &once),
        [
            "# Prices",
            "| Plan | Price |\n| ---- | ----- |\n| Basic | 5 |",
            "| Pro | 10 |\n| Team | 20 |"
        ]
    );
    assert_eq!(prefixes(&once), [None, None, None]);
    let table = once.markdown.as_ref().unwrap().chunks[2].table_header;
    assert_eq!(table.map(|h| h.text(DOC)), Some(HEADER.trim_end()));

    let repeat = Config::markdown(50).with_table_header(TableHeader::Repeat);
    let out = split(DOC, &repeat, &tokenizer::resources()).unwrap();
    assert_eq!(
        texts(DOC, &out),
        [
            "# Prices",
            "| Plan | Price |\n| ---- | ----- |\n| Basic | 5 |",
            "| Pro | 10 |",
            "| Team | 20 |"
        ]
    );
    let header = Some(HEADER.to_string());
    assert_eq!(prefixes(&out), [None, None, header.clone(), header]);
    assert!(
        check(DOC, &repeat, &out, &tokenizer::resources())
            .get(Property::MaxSize)
            .unwrap()
            .ok
    );
    // With the heading path too: "Prices\n\n" (8) + 34 leaves 60 − 42 = 18.
    let both = Config::markdown(60)
        .with_table_header(TableHeader::Repeat)
        .with_heading_prefix(true);
    let out = split(DOC, &both, &tokenizer::resources()).unwrap();
    let header = Some(format!("Prices\n\n{HEADER}"));
    assert_eq!(
        prefixes(&out),
        [
            Some("Prices\n\n".to_string()),
            Some("Prices\n\n".to_string()),
            header.clone(),
            header
        ]
    );
    // A header that leaves no room is refused, with the table's position.
    let e = split(
        DOC,
        &Config::markdown(34).with_table_header(TableHeader::Repeat),
        &tokenizer::resources(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "every chunk of the rows of the table at position 10 would start with its header rows, \
         34 chars with what comes before them, and size is 34: nothing fits after them; raise \
         the size above 34, or give the header once (table_header \"once\")"
    );
    assert_eq!(e.setting(), chunkscope::Setting::Size);
    // At 35 the header rows fill the table's first chunk alone (33 + 1 +
    // 13 is over 35), and after the header a chunk has room for 1 char: the
    // rows are cut to their 26 non-space chars, each carrying the header.
    let tight = Config::markdown(35).with_table_header(TableHeader::Repeat);
    let out = split(DOC, &tight, &tokenizer::resources()).unwrap();
    let checks = check(DOC, &tight, &out, &tokenizer::resources());
    assert!(checks.all_ok(), "{checks:?}");
    let got = texts(DOC, &out);
    assert_eq!(got[..2], ["# Prices", HEADER.trim_end()]);
    assert_eq!(got[2..].concat(), "|Basic|5||Pro|10||Team|20|");
    assert!(prefixes(&out)[2..]
        .iter()
        .all(|p| p.as_deref() == Some(HEADER)));
}

#[test]
fn a_prefix_that_takes_the_whole_size_is_refused_with_the_section() {
    let doc = "# A very long heading indeed\n\nbody text";
    let e = split(
        doc,
        &Config::markdown(20).with_heading_prefix(true),
        &tokenizer::resources(),
    )
    .unwrap_err();
    assert_eq!(e.setting(), chunkscope::Setting::Size);
    assert!(
        e.to_string()
            .contains("\"A very long heading indeed\\n\\n\""),
        "{e}"
    );
    assert!(e.to_string().contains("position 0"), "{e}");
    // Without the prefix the same size is fine.
    assert!(split(doc, &Config::markdown(20), &tokenizer::resources()).is_ok());
}

#[test]
fn a_character_too_big_for_the_room_a_prefix_leaves_names_that_room() {
    // The prefix "Ab\n\n" takes 4 of 7 bytes; the emoji needs 4.
    let doc = "# Ab\n\n😀";
    let config = Config::markdown(7)
        .with_unit(Unit::Bytes)
        .with_heading_prefix(true);
    let e = split(doc, &config, &tokenizer::resources()).unwrap_err();
    assert_eq!(e.setting(), chunkscope::Setting::Size);
    assert_eq!(
        e.to_string(),
        "the heading prefix leaves a chunk of this section 3 of the 7 bytes, but the character '😀' at position 6 is 4 bytes, and a chunk is never cut inside a character: raise the size to at least 8, or turn the heading prefix off"
    );
    // The size it names is enough, and without the prefix 7 already was.
    let out = split(
        doc,
        &Config {
            size: 8,
            ..config.clone()
        },
        &tokenizer::resources(),
    )
    .unwrap();
    assert_eq!(texts(doc, &out), ["# Ab", "😀"]);
    assert!(split(
        doc,
        &config.with_heading_prefix(false),
        &tokenizer::resources()
    )
    .is_ok());
    // In tokens: "A" "\n\n" is 2 of 4 cl100k tokens, and the crab takes 3.
    let cl100k = Unit::Tokens(chunkscope::tokens::Encoding::Cl100k);
    let config = Config::markdown(4)
        .with_unit(cl100k)
        .with_heading_prefix(true);
    let e = Splitter::with_counter(config, tokenizer::counter(cl100k), &tokenizer::resources())
        .unwrap()
        .chunks("# A\n\n🦀")
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the heading prefix leaves a chunk of this section 2 of the 4 cl100k tokens, but the character '🦀' at position 5 is 3 cl100k tokens, and a chunk is never cut inside a character: raise the size to at least 5, or turn the heading prefix off"
    );
}

/// The shipped Markdown page at 60 cl100k tokens with the prefix: each
/// chunk's prefix, text and prefix + text, counted by tiktoken-rs.
const EXPECTED_TOKENS: &[(usize, usize, usize)] = &[
    (4, 43, 47),
    (10, 40, 50),
    (10, 23, 33),
    (10, 6, 16),
    (10, 37, 47),
    (10, 41, 51),
    (10, 17, 27),
    (11, 23, 34),
    (11, 42, 53),
    (11, 32, 43),
    (11, 24, 35),
    (8, 4, 12),
    (16, 33, 49),
    (16, 9, 25),
    (16, 9, 25),
    (16, 39, 55),
    (17, 31, 48),
];

#[test]
fn token_units_count_the_prefix_and_the_text_together() {
    let cl100k = Unit::Tokens(chunkscope::tokens::Encoding::Cl100k);
    let bpe = tiktoken_rs::cl100k_base().unwrap();
    let count = |s: &str| bpe.encode_ordinary(s).len();
    let config = Config::markdown(60)
        .with_unit(cl100k)
        .with_heading_prefix(true);
    let splitter = Splitter::with_counter(
        config.clone(),
        tokenizer::counter(cl100k),
        &tokenizer::resources(),
    )
    .unwrap();
    let out = splitter.split(PRESET).unwrap();
    let md = out.markdown.as_ref().unwrap();
    let mut got = Vec::new();
    for (i, c) in out.chunks.iter().enumerate() {
        let prefix = md.chunks[i].prefix.as_deref().unwrap();
        let text = c.text(PRESET);
        // Counted by tiktoken itself, on the text an embedder is given.
        let joined = count(&format!("{prefix}{text}"));
        assert!(joined <= 60, "chunk {i}: {joined} tokens with {prefix:?}");
        got.push((count(prefix), count(text), joined));
    }
    assert_eq!(got, EXPECTED_TOKENS, "{got:?}");
    let checks = check(PRESET, &config, &out, &tokenizer::resources());
    assert!(checks.all_ok(), "{checks:?}");
}

/// In o200k, `"?\n\n/"` is one pre-tokenizer piece: the prefix `"Where?\n\n"`
/// (2 tokens) and a chunk starting with `/` are tokenized together, and
/// `"/usr/local/bin holds the tools."` (7 tokens alone) takes 8 after the
/// prefix, 10 in all. At size 9 it is cut at the space before "tools.", whose
/// chunk with its prefix is 8 tokens; counting 2 + 7 would have let it through.
#[test]
fn a_chunk_tokenized_together_with_its_prefix_is_sized_with_it() {
    let o200k = Unit::Tokens(chunkscope::tokens::Encoding::O200k);
    let bpe = tiktoken_rs::o200k_base().unwrap();
    let count = |s: &str| bpe.encode_ordinary(s).len();
    let doc =
        "# Where?\n\n/usr/local/bin holds the tools.\n\n/etc holds the settings of every program.";
    assert_eq!(count("Where?\n\n/usr/local/bin holds the tools."), 10);
    assert_eq!(
        count("Where?\n\n") + count("/usr/local/bin holds the tools."),
        9
    );
    let config = Config::markdown(9)
        .with_unit(o200k)
        .with_heading_prefix(true);
    let out = Splitter::with_counter(config, tokenizer::counter(o200k), &tokenizer::resources())
        .unwrap()
        .split(doc)
        .unwrap();
    let md = out.markdown.as_ref().unwrap();
    let got: Vec<(&str, usize, usize)> = out
        .chunks
        .iter()
        .map(|c| {
            let prefix = md.chunks[c.index].prefix.as_deref().unwrap();
            (
                c.text(doc),
                c.len,
                count(&format!("{prefix}{}", c.text(doc))),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("# Where?", 3, 5),
            ("/usr/local/bin holds the", 5, 8),
            ("tools.", 2, 4),
            ("/etc holds the settings of", 5, 8),
            ("every program.", 3, 5),
        ]
    );
    // The fuzzer's case: a Setext heading ending in a control character,
    // untrimmed chunks, one starting with `/`.
    let doc = "/e\u{fffd}\u{fffd}\u{fffd}\0\0U\u{fffd};\u{19}\u{8}\n-";
    let config = Config::markdown(13)
        .with_separators(["\u{3000}", "\n\n"])
        .with_placement(chunkscope::Placement::Start)
        .with_unit(o200k)
        .with_heading_prefix(true)
        .with_trim(false);
    let out = Splitter::with_counter(config, tokenizer::counter(o200k), &tokenizer::resources())
        .unwrap()
        .split(doc)
        .unwrap();
    let md = out.markdown.as_ref().unwrap();
    for c in &out.chunks {
        let prefix = md.chunks[c.index].prefix.as_deref().unwrap();
        assert!(
            count(&format!("{prefix}{}", c.text(doc))) <= 13,
            "{:?}",
            c.text(doc)
        );
    }
}

// ---------------------------------------------------------------------------
// Properties over random Markdown.

/// A block of a random document, as its lines.
fn block() -> impl Strategy<Value = Vec<String>> {
    let word = "[a-zé日]{1,7}";
    let words = prop::collection::vec(word, 1..12).prop_map(|w| w.join(" "));
    prop_oneof![
        // An ATX heading, maybe ending in punctuation (which the o200k
        // tokenizer joins with the newlines after it, and with a `/` after those).
        (
            1..=6usize,
            words.clone(),
            prop::sample::select(&["", "?", ":"][..])
        )
            .prop_map(|(l, t, end)| vec![format!("{} {t}{end}", "#".repeat(l))]),
        // A Setext heading.
        (any::<bool>(), words.clone())
            .prop_map(|(one, t)| vec![t, if one { "===" } else { "---" }.to_string()]),
        // A paragraph of one to three lines, with sentences.
        prop::collection::vec(words.clone().prop_map(|w| format!("{w}. {w}")), 1..4),
        // A paragraph starting with a path.
        words.clone().prop_map(|w| vec![format!("/{w}")]),
        // A fence with `#` lines and blank lines inside.
        prop::collection::vec(
            prop_oneof![
                words.clone(),
                words.clone().prop_map(|w| format!("# {w}")),
                Just(String::new())
            ],
            0..6
        )
        .prop_map(|body| {
            let mut lines = vec!["```text".to_string()];
            lines.extend(body);
            lines.push("```".into());
            lines
        }),
        // A table.
        (1..4usize, prop::collection::vec(words.clone(), 1..6)).prop_map(|(cols, cells)| {
            let row = |c: &str| format!("| {} |", vec![c; cols].join(" | "));
            let mut lines = vec![row("h"), format!("|{}", "---|".repeat(cols))];
            lines.extend(cells.iter().map(|c| row(c)));
            lines
        }),
        // A list, nested.
        prop::collection::vec((0..3usize, words.clone()), 1..5).prop_map(|items| {
            let mut depth = 0;
            items
                .into_iter()
                .map(|(d, w)| {
                    depth = d.min(depth + 1);
                    format!("{}- {w}", "  ".repeat(depth))
                })
                .collect()
        }),
        // An HTML block.
        words.prop_map(|w| vec!["<div>".into(), w, "</div>".into()]),
    ]
}

/// A random document: blocks apart by blank lines, LF or CRLF.
fn document() -> impl Strategy<Value = String> {
    (prop::collection::vec(block(), 0..14), any::<bool>()).prop_map(|(blocks, crlf)| {
        let nl = if crlf { "\r\n" } else { "\n" };
        let lines: Vec<String> = blocks.into_iter().map(|b| b.join(nl)).collect();
        lines.join(&format!("{nl}{nl}"))
    })
}

/// A heading as the line model sees it: where its line starts, its level,
/// its text.
struct ModelHeading {
    start: usize,
    level: u8,
    text: String,
}

/// The section headings of a generated document, line by line: `#` lines and
/// Setext underlines outside fences (the generator puts headings nowhere
/// else a parser would skip them).
fn model_headings(doc: &str) -> Vec<ModelHeading> {
    let mut out = Vec::new();
    let mut in_fence = false;
    let mut at = 0;
    let mut prev: Option<(usize, &str)> = None;
    for raw in doc.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        let start = at;
        at += raw.len();
        if line.starts_with("```") {
            in_fence = !in_fence;
            prev = None;
            continue;
        }
        if in_fence {
            continue;
        }
        let hashes = line.len() - line.trim_start_matches('#').len();
        if (1..=6).contains(&hashes) && line[hashes..].starts_with(' ') {
            out.push(ModelHeading {
                start,
                level: hashes as u8,
                text: line[hashes..].trim().to_string(),
            });
            prev = None;
            continue;
        }
        if let Some((p_start, p_line)) = prev {
            if line == "===" || line == "---" {
                out.push(ModelHeading {
                    start: p_start,
                    level: if line == "===" { 1 } else { 2 },
                    text: p_line.trim().to_string(),
                });
                prev = None;
                continue;
            }
        }
        let plain = !line.trim().is_empty()
            && !line.starts_with(['|', '-', '<', ' '])
            && !line.starts_with("  ");
        prev = plain.then_some((start, line));
    }
    out
}

/// The heading path of a range: every heading whose section (its line to
/// the next heading of its level or shallower) holds the whole range.
fn model_path(doc: &str, headings: &[ModelHeading], start: usize, end: usize) -> Vec<String> {
    let mut path = Vec::new();
    for (i, h) in headings.iter().enumerate() {
        let until = headings[i + 1..]
            .iter()
            .find(|n| n.level <= h.level)
            .map_or(doc.len(), |n| n.start);
        if h.start <= start && end <= until {
            path.push(h.text.clone());
        }
    }
    path
}

/// Spans that must not be cut when they fit: each fence, each table, each
/// table row (byte ranges of their lines, without the last line end).
fn atomic_spans(doc: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut fence: Option<usize> = None;
    let mut table: Option<(usize, usize)> = None;
    for raw in doc.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        let (start, end) = (at, at + line.len());
        at += raw.len();
        if line.starts_with("```") {
            match fence.take() {
                Some(open) => out.push((open, end)),
                None => fence = Some(start),
            }
            continue;
        }
        if fence.is_some() {
            continue;
        }
        if line.starts_with('|') {
            out.push((start, end));
            table = Some((table.map_or(start, |t| t.0), end));
        } else if let Some(t) = table.take() {
            out.push(t);
        }
    }
    if let Some(t) = table {
        out.push(t);
    }
    out
}

/// Where each top-level block of a generated document starts: the first
/// line of each generated block (they are apart by blank lines outside
/// fences) and each item of a list, nested ones not; and where each table's
/// delimiter row and body rows start. Read from the lines, as [`model_headings`].
fn model_blocks_and_rows(doc: &str) -> (Vec<usize>, Vec<usize>) {
    let (mut blocks, mut rows) = (Vec::new(), Vec::new());
    let mut at = 0;
    let mut in_fence = false;
    let mut after_blank = true;
    let mut in_table = false;
    // The marker column of the list's last own item, inside a list.
    let mut list: Option<usize> = None;
    for raw in doc.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        let start = at;
        at += raw.len();
        if in_fence {
            in_fence = !line.starts_with("```");
            continue;
        }
        if line.is_empty() {
            after_blank = true;
            in_table = false;
            continue;
        }
        // A list item is the list's own (a block) unless it is indented to
        // the content of the item before (two columns past its marker),
        // which nests it, after a blank line too.
        let indent = line.len() - line.trim_start_matches(' ').len();
        let item = line[indent..].starts_with("- ");
        let nested = item && list.is_some_and(|l| indent >= l + 2);
        let own = item && list.is_some() && !nested;
        if (after_blank && !nested) || own {
            blocks.push(start);
            list = item.then_some(indent);
        }
        if in_table {
            rows.push(start);
        }
        in_table = line.starts_with('|');
        in_fence = line.starts_with("```");
        after_blank = false;
    }
    (blocks, rows)
}

/// The line model of a generated document, as the trace-truth checks take it.
fn line_model(doc: &str) -> trace_truth::MarkdownModel {
    let (blocks, rows) = model_blocks_and_rows(doc);
    trace_truth::MarkdownModel {
        headings: model_headings(doc)
            .iter()
            .map(|h| (h.start, h.level))
            .collect(),
        blocks,
        rows,
    }
}

fn markdown_config() -> impl Strategy<Value = Config> {
    (
        8..300usize,
        prop::sample::select(&[Unit::Chars, Unit::Bytes][..]),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(size, unit, prefix, trim, repeat)| {
            Config::markdown(size)
                .with_unit(unit)
                .with_heading_prefix(prefix)
                .with_trim(trim)
                .with_table_header(if repeat {
                    TableHeader::Repeat
                } else {
                    TableHeader::Once
                })
        })
}

fn units(unit: Unit, text: &str) -> usize {
    match unit {
        Unit::Bytes => text.len(),
        _ => text.chars().count(),
    }
}

/// Checks one split; `Ok(false)` when the configuration was refused as it
/// should be (a prefix or a character bigger than the size).
fn check_one(
    doc: &str,
    config: &Config,
    seen: &mut trace_truth::Seen,
) -> Result<bool, TestCaseError> {
    let out = match split(doc, config, &tokenizer::resources()) {
        Ok(out) => out,
        Err(chunkscope::Error::PrefixTooLong { len, size, .. }) => {
            prop_assert!(trace_truth::heading_prefix(config) && len >= size);
            return Ok(false);
        }
        Err(chunkscope::Error::TableHeaderTooLong { len, size, .. }) => {
            prop_assert!(trace_truth::table_header(config) == TableHeader::Repeat && len >= size);
            return Ok(false);
        }
        Err(chunkscope::Error::CharTooBig { bytes, size, .. }) => {
            prop_assert!(config.unit == Unit::Bytes && bytes > size);
            return Ok(false);
        }
        Err(chunkscope::Error::CharTooBigAfterPrefix {
            ch,
            len,
            room,
            size,
            ..
        }) => {
            // With a prefix, the room left after it is what a character
            // must fit in, and the refusal names that room.
            let prefixed = trace_truth::heading_prefix(config)
                || trace_truth::table_header(config) == TableHeader::Repeat;
            prop_assert!(prefixed && config.unit == Unit::Bytes);
            prop_assert_eq!(size, config.size);
            prop_assert_eq!(len, ch.len_utf8());
            prop_assert!(room < size && len > room);
            return Ok(false);
        }
        Err(e) => return Err(TestCaseError::fail(format!("refused: {e}"))),
    };
    // Every claim of the trace, structure cuts against the line model.
    let model = line_model(doc);
    let counter = tokenizer::counter(config.unit);
    let analysis = Splitter::with_counter(config.clone(), counter, &tokenizer::resources())
        .and_then(|s| s.analyze(doc, chunkscope::Detail::FULL))
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    if let Err(lie) = trace_truth::verify_with(doc, config, counter, &analysis, Some(&model), seen)
    {
        return Err(TestCaseError::fail(format!("the trace lies: {lie}")));
    }
    let checks = check(doc, config, &out, &tokenizer::resources());
    for property in [
        Property::Coverage,
        Property::MaxSize,
        Property::Order,
        Property::Overlap,
    ] {
        let c = &checks[property];
        prop_assert!(c.ok, "{}: {}", property.name(), c.detail);
    }
    let md = out.markdown.as_ref().unwrap();
    prop_assert_eq!(md.chunks.len(), out.chunks.len());
    let headings = model_headings(doc);
    let found: Vec<(usize, u8, &str)> = md
        .headings
        .iter()
        .map(|h| (h.span.start, h.level, h.text.text(doc)))
        .collect();
    let expected: Vec<(usize, u8, &str)> = headings
        .iter()
        .map(|h| (h.start, h.level, h.text.as_str()))
        .collect();
    prop_assert_eq!(found, expected);
    for (i, c) in out.chunks.iter().enumerate() {
        let want = model_path(doc, &headings, c.span.start, c.span.end);
        prop_assert_eq!(md.path_texts(doc, i), want, "chunk {}", i);
        // Size with the prefix, counted independently.
        let prefix = md.chunks[i].prefix.clone().unwrap_or_default();
        let repeated = trace_truth::table_header(config) == TableHeader::Repeat
            && md.chunks[i].table_header.is_some();
        prop_assert_eq!(
            md.chunks[i].prefix.is_some(),
            trace_truth::heading_prefix(config) || repeated
        );
        prop_assert!(units(config.unit, &prefix) + units(config.unit, c.text(doc)) <= config.size);
    }
    // No cut inside a fence, a table or a table row that fits with the
    // longest prefix of the document.
    let longest = (0..out.chunks.len())
        .map(|i| {
            md.chunks[i]
                .prefix
                .as_deref()
                .map_or(0, |p| units(config.unit, p))
        })
        .max()
        .unwrap_or(0);
    for (start, end) in atomic_spans(doc) {
        // Untrimmed, a block's part holds the blank lines after it.
        let text = if config.trim {
            doc[start..end].trim()
        } else {
            let rest = &doc[end..];
            &doc[start..end + rest.len() - rest.trim_start().len()]
        };
        if units(config.unit, text) + longest > config.size {
            continue;
        }
        for c in &out.chunks {
            for edge in [c.span.start, c.span.end] {
                prop_assert!(
                    !(start < edge && edge < end)
                        || doc[start..edge].trim().is_empty()
                        || doc[edge..end].trim().is_empty(),
                    "a cut at {} inside {:?}",
                    edge,
                    &doc[start..end]
                );
            }
        }
    }
    // The trace: children inside their parent, every chunk from a node.
    let nodes = &out.trace.nodes;
    for (id, n) in nodes.iter().enumerate() {
        for &k in &n.children {
            prop_assert_eq!(nodes[k].parent, Some(id));
            prop_assert!(n.span.start <= nodes[k].span.start && nodes[k].span.end <= n.span.end);
        }
    }
    prop_assert!(out
        .chunks
        .iter()
        .all(|c| c.node.is_some_and(|n| n < nodes.len())));
    // Determinism, and the untraced run gives the same chunks.
    let again = Splitter::new(config.clone(), &tokenizer::resources())
        .unwrap()
        .chunks(doc)
        .unwrap();
    let spans: Vec<_> = again.iter().map(|c| c.span).collect();
    let first: Vec<_> = out.chunks.iter().map(|c| c.span).collect();
    prop_assert_eq!(spans, first);
    Ok(true)
}

#[test]
fn random_markdown_keeps_every_property_and_heading_path() {
    let mut runner = TestRunner::new(ProptestConfig {
        cases: 1_500,
        ..ProptestConfig::default()
    });
    let checked = Cell::new(0);
    let with_headings = Cell::new(0);
    let seen = std::cell::RefCell::new(trace_truth::Seen::new());
    runner
        .run(&(document(), markdown_config()), |(doc, config)| {
            if check_one(&doc, &config, &mut seen.borrow_mut())? {
                checked.set(checked.get() + 1);
                if doc.contains('#') || doc.contains("\n=") {
                    with_headings.set(with_headings.get() + 1);
                }
            }
            Ok(())
        })
        .unwrap();
    assert!(checked.get() >= 1_000, "only {} checked", checked.get());
    assert!(with_headings.get() >= 500, "{}", with_headings.get());
    // The structure cuts, each rebuilt from the line model.
    let seen = seen.into_inner();
    eprintln!("{seen:?}");
    for (what, least) in [
        ("block parts rebuilt", 1_000),
        ("table row parts rebuilt", 100),
        ("fence line parts rebuilt", 100),
        ("a section level checked", 300),
        ("a cut at a heading", 1_000),
        ("a cut at a block", 2_000),
        ("a cut at a table", 300),
        ("a cut at a fence", 300),
        ("a table header recorded", 100),
        ("a heading prefix", 1_000),
    ] {
        let n = seen.get(what).copied().unwrap_or(0);
        assert!(n >= least, "only {n} times {what:?}, expected {least}");
    }
}

#[test]
fn the_line_model_and_the_structure_cuts_must_agree() {
    let doc = "# Top\n\nOne line here.\n\n- first item\n- second item\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n";
    let config = Config::markdown(16);
    let model = line_model(doc);
    assert_eq!((model.blocks.len(), model.rows.len()), (5, 3));
    let counter = tokenizer::counter(config.unit);
    let analysis = Splitter::with_counter(config.clone(), counter, &tokenizer::resources())
        .unwrap()
        .analyze(doc, chunkscope::Detail::FULL)
        .unwrap();
    let verify = |model: &trace_truth::MarkdownModel| {
        let mut seen = trace_truth::Seen::new();
        trace_truth::verify_with(doc, &config, counter, &analysis, Some(model), &mut seen)
    };
    assert_eq!(verify(&model), Ok(()));
    // A model that misses a block, a table row or a heading: the trace no
    // longer agrees with it.
    let mut planted = model.clone();
    planted.blocks.remove(2);
    assert!(verify(&planted)
        .unwrap_err()
        .contains("block parts, the document has"));
    let mut planted = model.clone();
    planted.rows.pop();
    assert!(verify(&planted)
        .unwrap_err()
        .contains("table row parts, the document has"));
    let mut planted = model.clone();
    planted.headings[0].1 = 2;
    assert!(verify(&planted).unwrap_err().contains("the document's are"));
}

#[test]
fn overlap_stays_inside_a_section() {
    let config = Config::markdown(30).with_overlap(10);
    let out = split(PRESET, &config, &tokenizer::resources()).unwrap();
    assert!(check(PRESET, &config, &out, &tokenizer::resources()).all_ok());
    let md = out.markdown.as_ref().unwrap();
    let mut overlapped = 0;
    for pair in out.chunks.windows(2) {
        if pair[1].overlap.is_some() {
            overlapped += 1;
            assert_eq!(md.chunks[pair[0].index].path, md.chunks[pair[1].index].path);
        }
    }
    assert!(overlapped > 10, "{overlapped}");
}

// ---------------------------------------------------------------------------
// Hostile documents.

#[test]
fn five_megabytes_of_one_table_row() {
    let cell = "word ".repeat(20);
    let mut doc = String::from("| a | b |\n|---|---|\n|");
    while doc.len() < 5 << 20 {
        doc.push_str(&cell);
        doc.push('|');
    }
    doc.push('\n');
    let config = Config::markdown(1000);
    let out = split(&doc, &config, &tokenizer::resources()).unwrap();
    assert!(check(&doc, &config, &out, &tokenizer::resources()).all_ok());
    assert!(out.chunks.len() > 5000);
}

#[test]
fn ten_thousand_nested_list_levels() {
    let doc = format!("{}item\n", "- ".repeat(10_000));
    let config = Config::markdown(200);
    let out = split(&doc, &config, &tokenizer::resources()).unwrap();
    assert!(check(&doc, &config, &out, &tokenizer::resources()).all_ok());
    // Block quotes nested as deep.
    let quotes = format!("{} deep\n", ">".repeat(10_000));
    let out = split(&quotes, &config, &tokenizer::resources()).unwrap();
    assert!(check(&quotes, &config, &out, &tokenizer::resources()).all_ok());
}

#[test]
fn an_unterminated_fence_runs_to_the_end_and_hides_headings() {
    let doc = "# Top\n\ntext\n\n```\n# not a heading\n\nmore code\n";
    let out = split(doc, &Config::markdown(12), &tokenizer::resources()).unwrap();
    let md = out.markdown.as_ref().unwrap();
    assert_eq!(md.headings.len(), 1);
    assert!(check(doc, &Config::markdown(12), &out, &tokenizer::resources()).all_ok());
    assert!(out
        .chunks
        .iter()
        .all(|c| md.path_texts(doc, c.index) == ["Top"]));
    assert!(out
        .chunks
        .iter()
        .any(|c| c.cut == Cut::Structure(Level::FenceLine)));
}

/// Random Markdown in tokens with the heading prefix: no chunk plus its
/// prefix is over the size, counted by tiktoken-rs on the text an embedder is
/// given (`prefix + text`). Sizes start low enough that some prefixes or emoji
/// do not fit, and those refusals must name a prefix or a character too big.
#[test]
fn random_markdown_in_cl100k_tokens_keeps_prefix_and_text_within_the_size() {
    prefix_and_text_within_the_size(
        chunkscope::tokens::Encoding::Cl100k,
        tiktoken_rs::cl100k_base().unwrap(),
    );
}

/// The same in o200k, whose pre-tokenizer joins a heading's closing
/// punctuation, the prefix's blank line and a chunk's leading `/` in one
/// piece: such a chunk is sized by what it adds after the prefix.
#[test]
fn random_markdown_in_o200k_tokens_keeps_prefix_and_text_within_the_size() {
    prefix_and_text_within_the_size(
        chunkscope::tokens::Encoding::O200k,
        tiktoken_rs::o200k_base().unwrap(),
    );
}

fn prefix_and_text_within_the_size(
    encoding: chunkscope::tokens::Encoding,
    bpe: tiktoken_rs::CoreBPE,
) {
    let unit = Unit::Tokens(encoding);
    let count = |s: &str| bpe.encode_ordinary(s).len();
    let mut runner = TestRunner::new(ProptestConfig {
        cases: 400,
        ..ProptestConfig::default()
    });
    let (compared, refused, chunks) = (Cell::new(0), Cell::new(0), Cell::new(0));
    runner
        .run(
            &(document(), 6..120usize, any::<bool>()),
            |(doc, size, trim)| {
                let config = Config::markdown(size)
                    .with_unit(unit)
                    .with_heading_prefix(true)
                    .with_trim(trim);
                let splitter = Splitter::with_counter(
                    config.clone(),
                    tokenizer::counter(unit),
                    &tokenizer::resources(),
                )
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
                let out = match splitter.split(&doc) {
                    Ok(out) => out,
                    Err(
                        chunkscope::Error::PrefixTooLong { .. }
                        | chunkscope::Error::CharTooBigAfterPrefix { .. },
                    ) => {
                        refused.set(refused.get() + 1);
                        return Ok(());
                    }
                    Err(e) => return Err(TestCaseError::fail(format!("refused: {e}"))),
                };
                let md = out.markdown.as_ref().unwrap();
                for (i, c) in out.chunks.iter().enumerate() {
                    let prefix = md.chunks[i].prefix.as_deref().unwrap();
                    let text = c.text(&doc);
                    let joined = count(&format!("{prefix}{text}"));
                    prop_assert!(
                        joined <= size,
                        "chunk {i}: {joined} > {size} tokens: {prefix:?} + {text:?}"
                    );
                    prop_assert_eq!(c.len, count(text), "chunk {}", i);
                    chunks.set(chunks.get() + 1);
                }
                compared.set(compared.get() + 1);
                Ok(())
            },
        )
        .unwrap();
    assert!(compared.get() >= 300, "only {} compared", compared.get());
    assert!(chunks.get() >= 1_000, "only {} chunks", chunks.get());
    eprintln!(
        "{} documents compared ({} chunks), {} refused",
        compared.get(),
        chunks.get(),
        refused.get()
    );
}
