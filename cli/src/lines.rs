//! Chunks written straight from the source: `--format jsonl`, one chunk a
//! line, and the `chunks` of the JSON report, one element each.
//!
//! A line is `{"file":…,` followed by the fields of the chunk's
//! [`ChunkReport`] (an element, `{` followed by them), byte for byte what
//! serde_json writes for the same record (the tests below compare the two
//! over every kind of field). It
//! is written here rather than by serde because a 10 MB file at size 256
//! makes some 50 000 lines: serializing each through serde (its keys
//! escaped byte by byte, its text looked up in a table byte by byte) cost
//! more than the split. The rarer structured fields (metadata, heading
//! paths) still go through serde.
//!
//! Lines are gathered in a buffer of [`FLUSH`] bytes and written whole, so
//! the memory is the source, the analysis and one buffer, however many
//! chunks there are.

use crate::escape::push_escaped;
use chunkscope::report::{ChunkReport, SpanReport};
use serde::Serialize;
use std::io::{self, Write};

/// Lines are written out once the buffer holds this much.
const FLUSH: usize = 64 << 10;

/// Writes chunks as JSON Lines to `out`.
pub struct Lines<W: Write> {
    out: W,
    buf: Vec<u8>,
    /// `{"file":"…",` for the current file, escaped once.
    head: Vec<u8>,
}

impl<W: Write> Lines<W> {
    pub fn new(out: W) -> Lines<W> {
        Lines {
            out,
            buf: Vec::with_capacity(FLUSH + (FLUSH >> 2)),
            head: b"{".to_vec(),
        }
    }

    /// Tags the chunks written next with `file`.
    pub fn file(&mut self, file: &str) {
        self.head.clear();
        push_file(&mut self.head, file);
    }

    /// Writes one chunk's line.
    pub fn chunk(&mut self, chunk: &ChunkReport) -> io::Result<()> {
        object(&mut self.buf, &self.head, chunk)?;
        self.buf.push(b'\n');
        self.flush_if_full()
    }

    /// Writes a chunk as an element of a JSON array (after a comma unless
    /// it is the first), with no line end.
    pub fn element(&mut self, first: bool, chunk: &ChunkReport) -> io::Result<()> {
        if !first {
            self.buf.push(b',');
        }
        object(&mut self.buf, b"{", chunk)?;
        self.flush_if_full()
    }

    /// Writes `bytes` as they are (JSON already made).
    pub fn raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.buf.extend_from_slice(bytes);
        self.flush_if_full()
    }

    fn flush_if_full(&mut self) -> io::Result<()> {
        if self.buf.len() >= FLUSH {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    /// Writes what is buffered and flushes `out`.
    pub fn finish(mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.out.flush()
    }
}

/// Appends `{"file":"…",`: the start of an object tagged with its file.
pub fn push_file(b: &mut Vec<u8>, file: &str) {
    b.extend_from_slice(b"{\"file\":\"");
    push_escaped(b, file);
    b.extend_from_slice(b"\",");
}

/// Appends a chunk's JSON object, after `head` (`{`, or `{` and fields
/// ending in a comma): byte for byte what serde_json writes for it.
fn object(b: &mut Vec<u8>, head: &[u8], chunk: &ChunkReport) -> io::Result<()> {
    b.extend_from_slice(head);
    number(b, b"\"index\":", chunk.index);
    number(b, b",\"start\":", chunk.start);
    number(b, b",\"end\":", chunk.end);
    number(b, b",\"byte_start\":", chunk.byte_start);
    number(b, b",\"byte_end\":", chunk.byte_end);
    number(b, b",\"len\":", chunk.len);
    string(b, b",\"cut\":", &chunk.cut);
    string(b, b",\"text\":", &chunk.text);
    if let Some(is_slice) = chunk.is_slice {
        b.extend_from_slice(b",\"is_slice\":");
        b.extend_from_slice(if is_slice { b"true" } else { b"false" });
    }
    if let Some(at) = chunk.start_index {
        number(b, b",\"start_index\":", at);
    }
    if let Some(metadata) = &chunk.metadata {
        value(b, b",\"metadata\":", metadata)?;
    }
    if let Some(overlap) = &chunk.overlap {
        span(b, b",\"overlap\":", overlap);
    }
    if let Some(separator) = chunk.cut_separator {
        number(b, b",\"cut_separator\":", separator);
    }
    if let Some(label) = &chunk.cut_label {
        string(b, b",\"cut_label\":", label);
    }
    if let Some(node) = chunk.node {
        number(b, b",\"node\":", node);
    }
    if let Some(path) = &chunk.heading_path {
        value(b, b",\"heading_path\":", path)?;
    }
    if let Some(prefix) = &chunk.prefix {
        string(b, b",\"prefix\":", prefix);
    }
    if let Some(header) = &chunk.table_header {
        span(b, b",\"table_header\":", header);
    }
    b.push(b'}');
    Ok(())
}

fn number(b: &mut Vec<u8>, key: &[u8], n: impl itoa::Integer) {
    b.extend_from_slice(key);
    b.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

fn string(b: &mut Vec<u8>, key: &[u8], s: &str) {
    b.extend_from_slice(key);
    b.push(b'"');
    push_escaped(b, s);
    b.push(b'"');
}

fn span(b: &mut Vec<u8>, key: &[u8], s: &SpanReport) {
    b.extend_from_slice(key);
    number(b, b"{\"start\":", s.start);
    number(b, b",\"end\":", s.end);
    number(b, b",\"byte_start\":", s.byte_start);
    number(b, b",\"byte_end\":", s.byte_end);
    b.push(b'}');
}

fn value(b: &mut Vec<u8>, key: &[u8], v: &impl Serialize) -> io::Result<()> {
    b.extend_from_slice(key);
    serde_json::to_writer(&mut *b, v).map_err(io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkscope::report::ChunkReports;
    use chunkscope::{Config, Detail, Splitter, Strategy};

    /// The line serde_json writes for a chunk tagged with its file.
    fn serde_line(file: &str, chunk: &ChunkReport) -> String {
        #[derive(Serialize)]
        struct Tagged<'a, T: Serialize> {
            file: &'a str,
            #[serde(flatten)]
            inner: &'a T,
        }
        let mut line = serde_json::to_string(&Tagged { file, inner: chunk }).unwrap();
        line.push('\n');
        line
    }

    /// Our lines and serde_json's for every chunk of `text`, tagged with
    /// `file`, and each chunk's field names. The lines are ours only once
    /// `Lines::finish` has written the buffer's rest, which is also checked
    /// to be under a flush.
    fn both(
        text: &str,
        splitter: &Splitter,
        detail: Detail,
        file: &str,
    ) -> (String, String, Vec<Vec<String>>) {
        let analysis = splitter.analyze(text, detail).unwrap();
        let reports = ChunkReports::new(text, &analysis, detail.trace);
        let mut out = Vec::new();
        let mut lines = Lines::new(&mut out);
        lines.file(file);
        let (mut expected, mut fields) = (String::new(), Vec::new());
        for i in 0..reports.len() {
            let chunk = reports.get(i);
            lines.chunk(&chunk).unwrap();
            expected.push_str(&serde_line(file, &chunk));
            let value = serde_json::to_value(&chunk).unwrap();
            fields.push(value.as_object().unwrap().keys().cloned().collect());
        }
        assert!(lines.buf.len() < FLUSH);
        lines.finish().unwrap();
        (String::from_utf8(out).unwrap(), expected, fields)
    }

    fn config(strategy: Strategy, size: usize, overlap: usize) -> Config {
        let mut config = Config::for_strategy(strategy);
        config.size = size;
        config.overlap = overlap;
        config
    }

    #[test]
    fn lines_are_serde_json_lines_byte_for_byte() {
        let text = "# Refunds \"policy\"\n\nRefunds go back\tto the card in 5 days.\r\n\
                    ## UPI é中😀\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |\n\n\
                    Ask support\\help. Then wait!  Really?\u{1}\n"
            .repeat(3);
        let prefixed = config(Strategy::Markdown, 40, 0).with_heading_prefix(true);
        let configs = [
            config(Strategy::Recursive, 30, 8),
            config(Strategy::Fixed, 25, 5),
            config(Strategy::LangChain, 40, 10),
            config(Strategy::LangChainMarkdown, 60, 0),
            config(Strategy::Markdown, 30, 0),
            prefixed,
            config(Strategy::Sentence, 50, 0),
            config(Strategy::Semantic, 80, 0),
        ];
        let (mut compared, mut seen) = (0, std::collections::BTreeSet::new());
        for config in configs {
            let splitter =
                Splitter::new(config.clone(), &chunkscope::Resources::tiktoken()).unwrap();
            for detail in [Detail::CHUNKS, Detail::FULL] {
                let (ours, expected, fields) = both(&text, &splitter, detail, "docs/\"a\".md");
                assert_eq!(ours, expected, "{config:?}");
                compared += fields.len();
                seen.extend(fields.into_iter().flatten());
            }
        }
        assert!(compared > 100, "{compared} chunks compared");
        // Every field a chunk can have was written at least once.
        let all = [
            "index",
            "start",
            "end",
            "byte_start",
            "byte_end",
            "len",
            "cut",
            "text",
            "is_slice",
            "start_index",
            "metadata",
            "overlap",
            "cut_separator",
            "cut_label",
            "node",
            "heading_path",
            "prefix",
            "table_header",
        ];
        let missing: Vec<_> = all.iter().filter(|k| !seen.contains(**k)).collect();
        assert!(missing.is_empty(), "never written: {missing:?}");
        assert_eq!(seen.len(), all.len(), "fields: {seen:?}");
    }

    #[test]
    fn a_full_buffer_is_written_out_and_the_rest_at_the_end() {
        let text = "word ".repeat(40_000);
        let splitter = Splitter::new(
            config(Strategy::Recursive, 10, 0),
            &chunkscope::Resources::tiktoken(),
        )
        .unwrap();
        let (ours, expected, _) = both(&text, &splitter, Detail::CHUNKS, "-");
        assert!(expected.len() > 2 * FLUSH);
        assert_eq!(ours, expected);
    }
}
