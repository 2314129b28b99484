//! LlamaIndex's `MarkdownNodeParser` (llama-index-core 0.14.25) with its
//! defaults, reproduced exactly: `MarkdownNodeParser()` (metadata included,
//! `header_path_separator="/"`) through
//! `get_nodes_from_documents([Document(text=text)])`, each node's text, its
//! `start_char_idx` and its `header_path`.
//!
//! The parser reads the text's lines (`text.split("\n")`, so a `"\r"` stays
//! at the end of its line) and builds each section by appending every line
//! and `"\n"`:
//!
//! - a line whose `lstrip()` starts with three backticks toggles a code
//!   block (only backticks: `~~~` is plain text), and inside one no line is
//!   a header;
//! - elsewhere a line matched by `^(#+)\s(.*)` (its whole run of `#`, one
//!   whitespace character of Python's, the rest) closes the section before
//!   it, which is kept if `strip()` leaves anything, and opens a new one
//!   that starts with the header line *rebuilt*: `"#" * level + " " + rest`.
//!   A header whose whitespace after the `#`s is not a space (`"##\tA"`,
//!   `"#\u{a0}A"`) is therefore not a slice of the source
//!   ([`NotSlice::HeaderRebuilt`]); one with several spaces is (the first is
//!   the match's `\s`, the others start the rest);
//! - a header pops the headers of its level and deeper off the stack, then
//!   is pushed; a section's `header_path` is the stack below its own header
//!   (`header_stack[:-1]`, taken when the section closes) joined and wrapped
//!   in `"/"`, or `"/"` alone; the headers' texts are taken as they are
//!   (with a `"\r"`, and empty for `"# "`);
//! - each section is `strip()`ped. A section opened by a header always
//!   holds its `#`s, so only the text before the first header can be
//!   emptied and dropped: a text of whitespace alone, or the empty text,
//!   gives no node.
//!
//! There is no size: a section is one node however long. The size and the
//! unit only measure the chunks (as for `langchain-markdown`).
//!
//! `start_char_idx` is not where the section came from: after parsing,
//! LlamaIndex looks each node's text up in the document with
//! `text.find(node_text, search_start)`, `search_start` one character past
//! the last start it found. A rebuilt header's text is usually nowhere in
//! the source, so `find` gives -1 and the node keeps `start_char_idx=None`
//! (reported here as a `start_index` of -1); a text that also appears
//! earlier, inside the section before (`"see # A"` then `"# A"`), is found
//! there. The chunk's span is where its section really lies: its lines,
//! stripped as the section is.

use super::py_strip;
use crate::config::Config;
use crate::engine::{Engine, EngineOutput};
use crate::error::Error;
use crate::separator::Separator;
use crate::span::Span;
use crate::trace::{Chunk, Cut, LibraryFact, NotSlice, Output};
use crate::unit::Counter;
use chunkscope_pyre::is_space;

/// `header_path_separator`'s default.
pub const HEADER_PATH_SEPARATOR: &str = "/";

/// The metadata key the parser sets on every node.
pub const HEADER_PATH: &str = "header_path";

/// The engine: `MarkdownNodeParser()` takes no setting this strategy reads,
/// so there is nothing to compile.
#[derive(Clone, Debug)]
pub(crate) struct MarkdownNodeParser;

impl Engine for MarkdownNodeParser {
    fn split(
        &self,
        text: &str,
        _config: &Config,
        counter: Counter,
        _record: bool,
    ) -> Result<EngineOutput, Error> {
        Ok(run(text, counter).into())
    }

    fn boxed(&self) -> Box<dyn Engine> {
        Box::new(self.clone())
    }
}

/// A header line as `^(#+)\s(.*)` matches it: its level (the whole run of
/// `#`: the regex backtracks, but a shorter run leaves a `#` for `\s`), the
/// whitespace character after the run, and the rest of the line (group 2).
#[derive(Clone, Copy, Debug)]
struct Header {
    level: usize,
    space: Span,
    text: Span,
}

/// `re.match(r"^(#+)\s(.*)", line)`; `line` holds no `"\n"`, so `.*` takes
/// the rest of it.
fn header(source: &str, line: Span) -> Option<Header> {
    let text = line.text(source);
    let level = text.len() - text.trim_start_matches('#').len();
    let after = text[level..].chars().next()?;
    (level > 0 && is_space(after)).then(|| {
        let space = Span::new(line.start + level, line.start + level + after.len_utf8());
        Header {
            level,
            space,
            text: Span::new(space.end, line.end),
        }
    })
}

/// A section being read: where its first line starts, and the header that
/// opened it (`None` before the first header).
struct Section {
    start: usize,
    header: Option<Header>,
}

/// What `get_nodes_from_documents` gives for `text`: each node as a chunk
/// at its section's place, with its text where that was rebuilt, its
/// `start_char_idx` and its `header_path`; each cut labelled with the level
/// of the header that opened the next section: the runs of `#` that open
/// one, shortest first.
pub(crate) fn run(text: &str, counter: Counter) -> Output {
    let mut stack: Vec<Header> = Vec::new();
    let mut sections: Vec<(Span, Option<Header>, String)> = Vec::new();
    let mut section = Section {
        start: 0,
        header: None,
    };
    let mut code_block = false;
    let path = |stack: &[Header]| -> String {
        let below = stack.split_last().map_or(&[][..], |(_, below)| below);
        let joined = below
            .iter()
            .map(|h| h.text.text(text))
            .collect::<Vec<_>>()
            .join(HEADER_PATH_SEPARATOR);
        match joined.is_empty() {
            true => HEADER_PATH_SEPARATOR.to_string(),
            false => format!("{HEADER_PATH_SEPARATOR}{joined}{HEADER_PATH_SEPARATOR}"),
        }
    };
    let mut at = 0;
    for line in text.split('\n') {
        let span = Span::new(at, at + line.len());
        at = span.end + 1;
        if line.trim_start_matches(is_space).starts_with("```") {
            code_block = !code_block;
            continue;
        }
        let Some(found) = (!code_block).then(|| header(text, span)).flatten() else {
            continue;
        };
        let whole = py_strip(text, Span::new(section.start, span.start));
        if !whole.is_empty() {
            sections.push((whole, section.header, path(&stack)));
        }
        while stack.last().is_some_and(|h| h.level >= found.level) {
            stack.pop();
        }
        stack.push(found);
        section = Section {
            start: span.start,
            header: Some(found),
        };
    }
    let whole = py_strip(text, Span::new(section.start, text.len()));
    if !whole.is_empty() {
        sections.push((whole, section.header, path(&stack)));
    }
    output(text, sections, counter)
}

/// The sections as chunks: their own texts (a rebuilt header's), LlamaIndex's
/// `start_char_idx` found by `str.find` after the last one found, and their
/// metadata.
fn output(source: &str, sections: Vec<(Span, Option<Header>, String)>, counter: Counter) -> Output {
    let deepest = sections
        .iter()
        .filter_map(|(_, h, _)| h.map(|h| h.level))
        .max()
        .unwrap_or(0);
    let mut chunks = Vec::with_capacity(sections.len());
    let mut facts = Vec::with_capacity(sections.len());
    let mut find = Find::new(source);
    for (span, header, path) in sections {
        let rebuilt = header.and_then(|h| rebuilt(source, span, h));
        let own = rebuilt.as_deref().unwrap_or_else(|| span.text(source));
        let start_index = find.next(own);
        // The cut before a section is its header's (every section but the
        // first has one); `push_next` gives it to the chunk before.
        let cut = header.map_or(Cut::End, |h| Cut::Separator(h.level - 1));
        Chunk::push_next(&mut chunks, cut, span, counter.len(own), None);
        facts.push(LibraryFact::new(
            rebuilt.is_some().then(|| own.to_string()),
            rebuilt.is_some().then_some(NotSlice::HeaderRebuilt),
            Some(start_index),
            Some(vec![(HEADER_PATH.to_string(), path)]),
        ));
    }
    let separators = crate::engine::used_separators(&mut chunks, &separators(deepest));
    Output {
        chunks,
        library: Some(facts),
        separators: Some(separators),
        ..Output::default()
    }
}

/// The section's stripped text with its header line rebuilt, where that
/// differs from the source: the whitespace after the `#`s was not a space
/// and the stripped section goes past it (a header of whitespace alone is
/// stripped down to its `#`s either way).
fn rebuilt(source: &str, span: Span, header: Header) -> Option<String> {
    if source[header.space.start..header.space.end] == *" " || span.end <= header.space.end {
        return None;
    }
    let mut text = String::with_capacity(span.len() + 1);
    text.push_str(&source[span.start..header.space.start]);
    text.push(' ');
    text.push_str(&source[header.space.end..span.end]);
    Some(text)
}

/// Every header marker a split of this text can cut at: `#` to the deepest
/// level met (LlamaIndex takes any run of `#`), at least `######`; the cuts
/// index the ones that open a section.
pub fn separators(deepest: usize) -> Vec<Separator> {
    (1..=deepest.max(6))
        .map(|level| Separator::literal("#".repeat(level)))
        .collect()
}

/// `_postprocess_parsed_nodes`' search: each node's text looked up with
/// `str.find` from one character past the last start found (from 0 at
/// first, and unmoved by a text not found). The starts it finds only grow,
/// so the characters before them are counted once.
///
/// A text that opens with `#`s and a space (every section a header opened,
/// its line rebuilt or not) can only start where the source has a run of
/// `#` ending in `"# "`, so it is looked for only there: a rebuilt header is
/// usually nowhere in the source, and `str.find` would read all the rest of
/// the text for each one (seconds on a megabyte of headers after tabs).
struct Find<'a> {
    source: &'a str,
    /// `search_start`, in bytes.
    from: usize,
    /// A byte offset and the characters before it, the last start found.
    counted: (usize, usize),
    /// Where the source has `"# "`, in order: found on first need.
    hash_spaces: Option<Vec<usize>>,
}

impl<'a> Find<'a> {
    fn new(source: &'a str) -> Find<'a> {
        Find {
            source,
            from: 0,
            counted: (0, 0),
            hash_spaces: None,
        }
    }

    /// `start_char_idx` for the next node's text: its start in chars, or -1
    /// where `find` finds nothing (LlamaIndex leaves `None`).
    fn next(&mut self, text: &str) -> i64 {
        let Some(found) = self.locate(text) else {
            return -1;
        };
        let (byte, chars) = self.counted;
        let chars = chars + self.source[byte..found].chars().count();
        self.counted = (found, chars);
        self.from = found
            + self.source[found..]
                .chars()
                .next()
                .map_or(0, char::len_utf8);
        chars as i64
    }

    /// `source.find(text, from)`, in bytes: the first place at or after
    /// `from` where `text` starts.
    fn locate(&mut self, text: &str) -> Option<usize> {
        let (source, from) = (self.source, self.from);
        let level = text.len() - text.trim_start_matches('#').len();
        if level == 0 || !text[level..].starts_with(' ') {
            return source[from..].find(text).map(|i| from + i);
        }
        let marks = self
            .hash_spaces
            .get_or_insert_with(|| source.match_indices("# ").map(|(i, _)| i).collect());
        // A start `q` has its last `#` at `q + level - 1`. The bytes are
        // compared: a match starts with `#`, so on a character's edge.
        let first = marks.partition_point(|&mark| mark + 1 < from + level);
        marks[first..]
            .iter()
            .map(|&mark| mark + 1 - level)
            .find(|&q| source.as_bytes()[q..].starts_with(text.as_bytes()))
    }
}

/// Python that gives these nodes with LlamaIndex itself.
pub fn to_python() -> String {
    "from llama_index.core import Document  # pip install llama-index-core==0.14.25\n\
     from llama_index.core.node_parser import MarkdownNodeParser\n\n\
     parser = MarkdownNodeParser()\n\
     nodes = parser.get_nodes_from_documents([Document(text=text)])\n\
     chunks = [(n.text, n.start_char_idx, n.metadata[\"header_path\"]) for n in nodes]\n"
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(text, start_char_idx, header_path)` of each node.
    fn nodes(text: &str) -> Vec<(String, i64, String)> {
        let out = run(text, Counter::CHARS);
        let facts = out.library.unwrap();
        out.chunks
            .iter()
            .zip(facts)
            .map(|(c, f)| {
                let own = f.text().unwrap_or_else(|| c.span.text(text)).to_string();
                (
                    own,
                    f.start_index.unwrap(),
                    f.metadata().unwrap()[0].1.clone(),
                )
            })
            .collect()
    }

    fn node(text: &str, start: i64, path: &str) -> (String, i64, String) {
        (text.to_string(), start, path.to_string())
    }

    #[test]
    fn sections_carry_their_ancestors_only() {
        let text = "intro\n# A\na\n## B\nb\n### C\nc\n## D\nd";
        assert_eq!(
            nodes(text),
            [
                node("intro", 0, "/"),
                node("# A\na", 6, "/"),
                node("## B\nb", 12, "/A/"),
                node("### C\nc", 19, "/A/B/"),
                node("## D\nd", 27, "/A/"),
            ]
        );
        let cuts: Vec<Cut> = run(text, Counter::CHARS)
            .chunks
            .iter()
            .map(|c| c.cut)
            .collect();
        assert_eq!(
            cuts,
            [
                Cut::Separator(0),
                Cut::Separator(1),
                Cut::Separator(2),
                Cut::Separator(1),
                Cut::End
            ]
        );
    }

    #[test]
    fn a_header_after_a_tab_is_rebuilt_and_not_found() {
        let text = "##\tTitle\nbody\n##   Spaced";
        let out = run(text, Counter::CHARS);
        let facts = out.library.as_ref().unwrap();
        assert_eq!(facts[0].text(), Some("## Title\nbody"));
        assert_eq!(facts[0].not_slice(), Some(NotSlice::HeaderRebuilt));
        assert_eq!(out.chunks[0].span.text(text), "##\tTitle\nbody");
        // Several spaces: the first is `\s`, the rest start the header's
        // text, so the line is its own rebuilding.
        assert_eq!(facts[1].text(), None);
        assert_eq!(
            nodes(text),
            [
                node("## Title\nbody", -1, "/"),
                node("##   Spaced", 14, "/")
            ]
        );
    }

    #[test]
    fn fences_hide_headers_and_find_can_land_early() {
        assert_eq!(
            nodes("```\n# not\n```\nsee # A\n# A"),
            [
                node("```\n# not\n```\nsee # A", 0, "/"),
                node("# A", 18, "/")
            ]
        );
        assert_eq!(
            nodes("#no\n#\t\n \n"),
            [node("#no", 0, "/"), node("#", 4, "/")]
        );
        // A rebuilt header found inside a longer run of `#`, after a
        // character of two bytes: where `str.find` finds it.
        assert_eq!(
            nodes("é### A\n##\tA"),
            [node("é### A", 0, "/"), node("## A", 2, "/")]
        );
        assert!(nodes(" \n\t").is_empty());
        assert!(nodes("").is_empty());
        assert_eq!(
            nodes("# A\r\n## B\r\nx"),
            [node("# A", 0, "/"), node("## B\r\nx", 5, "/A\r/")]
        );
    }
}
