//! LangChain's `MarkdownHeaderTextSplitter`, reproduced exactly
//! (`langchain-text-splitters` 1.1.3), with where each chunk comes from.
//!
//! The class reads a Markdown document line by line: a line that starts with
//! one of the configured header markers (`#`, `##`, …, then a space or the end
//! of the line) opens a section and sets the chunk's metadata (`{"Header 1":
//! "Refunds", "Header 2": "UPI"}`); every other line is content. It never
//! counts lengths: a section is one chunk however long it is, which is why
//! LangChain's docs follow it with a `RecursiveCharacterTextSplitter`.
//!
//! What it really returns, quirks included:
//!
//! - every line is `str.strip()`ped and loses its non-printable characters
//!   (tabs included), so code keeps no indentation;
//! - a blank line ends a paragraph; with `return_each_line=False` the
//!   paragraphs of one section are joined again with `"  \n"`, so chunks are
//!   rarely slices of the source (see [`NotSlice::LinesRejoined`]);
//! - inside a fence (a line starting with three backticks that holds no
//!   other three, or with `~~~`) nothing is a header; the fence ends at the
//!   next line that starts with the same marker;
//! - a repeated header with the same text leaves the metadata unchanged, so
//!   the two sections become one chunk;
//! - with `strip_headers=False`, a header line directly followed by a deeper
//!   header joins that deeper section's chunk.
//!
//! A chunk's span covers the source lines it was made from: from the first
//! character of its first line to the last of its last (after stripping).

use super::{LangChainChunk, LangChainError, LangChainOutput, NotSlice};
use crate::config::Config;
use crate::separator::Placement;
use crate::span::{is_space, Span};
use crate::trace::{Action, Close, Cut, Node, Recorder};
use crate::unit::Counter;
use chunkscope_pyre::is_printable;

/// `MarkdownHeaderTextSplitter`'s arguments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MarkdownHeaderConfig {
    /// `headers_to_split_on`: `(marker, metadata name)` pairs, in the order
    /// given (LangChain tries the longest marker first).
    pub headers: Vec<(String, String)>,
    /// `return_each_line`: one chunk per paragraph (lines up to a blank line
    /// or a header) instead of one per section.
    pub return_each_line: bool,
    /// `strip_headers`: header lines are left out of the chunks (they are in
    /// the metadata).
    pub strip_headers: bool,
}

impl MarkdownHeaderConfig {
    /// The class with LangChain's documented naming: each marker `#…#` of
    /// `n` hashes is named `"Header n"`; `return_each_line=False`,
    /// `strip_headers=True`.
    pub fn new<I, S>(markers: I) -> MarkdownHeaderConfig
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        MarkdownHeaderConfig {
            headers: markers
                .into_iter()
                .map(|m| {
                    let m = m.into();
                    let name = header_name(&m);
                    (m, name)
                })
                .collect(),
            return_each_line: false,
            strip_headers: true,
        }
    }

    /// Maps the playground's [`Config`]: the separators are the header
    /// markers (literal runs of one to six `#`), placement `None` strips the
    /// header lines and `Start` keeps each at the start of its section, and
    /// [`HeaderSplitConfig::each_line`](crate::HeaderSplitConfig::each_line) is `return_each_line`.
    pub fn from_config(config: &Config) -> Result<MarkdownHeaderConfig, LangChainError> {
        let bad = |index: usize, why: &str| LangChainError::BadHeaderMarker {
            index,
            marker: config.separators[index].pattern.clone(),
            why: why.to_string(),
        };
        for (index, sep) in config.separators.iter().enumerate() {
            if sep.regex {
                return Err(bad(index, "header markers are literal text, not regexes"));
            }
            let p = &sep.pattern;
            if p.is_empty() || p.len() > 6 || p.chars().any(|c| c != '#') {
                return Err(bad(index, "a header marker is one to six '#'"));
            }
        }
        if config.separators.is_empty() {
            return Err(LangChainError::NoHeaderMarkers);
        }
        let strip_headers = match config.placement {
            Placement::None => true,
            Placement::Start => false,
            Placement::End => return Err(LangChainError::HeaderAtTheEnd),
        };
        Ok(MarkdownHeaderConfig {
            return_each_line: config.header_split_config().is_some_and(|h| h.each_line),
            strip_headers,
            ..MarkdownHeaderConfig::new(config.separators.iter().map(|s| s.pattern.clone()))
        })
    }

    /// The same configuration with `return_each_line` set.
    pub fn with_each_line(mut self, each_line: bool) -> MarkdownHeaderConfig {
        self.return_each_line = each_line;
        self
    }

    /// The same configuration with `strip_headers` set.
    pub fn with_strip_headers(mut self, strip: bool) -> MarkdownHeaderConfig {
        self.strip_headers = strip;
        self
    }

    /// The separators the cuts index: the markers in the order given, then
    /// `"\n\n"` for a cut at a blank line (`return_each_line` only).
    pub fn separators(&self) -> Vec<String> {
        let mut out: Vec<String> = self.headers.iter().map(|(m, _)| m.clone()).collect();
        out.push(BLANK_LINE.to_string());
        out
    }

    /// Python code that builds this splitter and splits `text` with it,
    /// giving the same chunks and metadata.
    pub fn to_python(&self) -> String {
        let pairs: Vec<String> = self
            .headers
            .iter()
            .map(|(m, n)| format!("({}, {})", super::python_str(m), super::python_str(n)))
            .collect();
        let flag = |b: bool| if b { "True" } else { "False" };
        format!(
            "from langchain_text_splitters import MarkdownHeaderTextSplitter\n\n\
             splitter = MarkdownHeaderTextSplitter(\n    headers_to_split_on=[{}],\n    \
             return_each_line={},\n    strip_headers={},\n)\n\
             docs = splitter.split_text(text)\n\
             chunks = [(d.page_content, d.metadata) for d in docs]\n",
            pairs.join(", "),
            flag(self.return_each_line),
            flag(self.strip_headers),
        )
    }
}

/// LangChain's documented name for a marker: `"Header n"` for `n` hashes.
pub fn header_name(marker: &str) -> String {
    format!("Header {}", marker.matches('#').count())
}

/// How a cut at a blank line is labelled among the separators.
const BLANK_LINE: &str = "\n\n";

/// A Python `dict[str, str]` as the class builds it: insertion order kept,
/// assignment to a present key keeps its place, removal closes the gap.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Metadata(Vec<(String, String)>);

impl Metadata {
    fn set(&mut self, key: &str, value: String) {
        match self.0.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => self.0.push((key.to_string(), value)),
        }
    }

    fn remove(&mut self, key: &str) {
        self.0.retain(|(k, _)| k != key);
    }

    /// `==` of two dicts: the same keys with the same values, in any order.
    fn same(&self, other: &Metadata) -> bool {
        self.0.len() == other.0.len()
            && self
                .0
                .iter()
                .all(|(k, v)| other.0.iter().any(|(k2, v2)| k == k2 && v == v2))
    }
}

/// What ended the paragraph before a chunk, so its cut can be labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opened {
    /// The start of the text.
    Start,
    /// A header line (index into the markers as given).
    Header(usize),
    /// A blank line.
    Blank,
}

/// One of the class's `LineType` entries (a paragraph, or a section once
/// aggregated), with where it comes from.
#[derive(Clone, Debug)]
struct Entry {
    content: String,
    metadata: Metadata,
    /// First and last source line spans (stripped) it was made of.
    span: Span,
    /// Where each of its lines starts in `content`, and the line's source
    /// span before non-printable characters were dropped: what maps a
    /// position in `content` back to the source ([`Lines`]).
    lines: Vec<(usize, Span, bool)>,
    opened: Opened,
}

/// A header line being read: its marker's index in the order given, the
/// marker's level (its `#` count) and metadata name.
struct Marker<'c> {
    index: usize,
    text: &'c str,
    name: &'c str,
    level: usize,
}

/// Splits `text` as `MarkdownHeaderTextSplitter(...).split_text(text)` does;
/// `counter` measures each chunk's `len`, `record` keeps the trace.
pub(crate) fn run(
    text: &str,
    config: &MarkdownHeaderConfig,
    counter: Counter,
    record: bool,
) -> LangChainOutput {
    run_with_lines(text, config, counter, record).0
}

/// [`run`], and for each chunk where its text's lines are in the source.
pub(crate) fn run_with_lines(
    text: &str,
    config: &MarkdownHeaderConfig,
    counter: Counter,
    record: bool,
) -> (LangChainOutput, Vec<Lines>) {
    let mut markers: Vec<Marker<'_>> = config
        .headers
        .iter()
        .enumerate()
        .map(|(index, (m, n))| Marker {
            index,
            text: m,
            name: n,
            level: m.matches('#').count(),
        })
        .collect();
    // Python's `sorted(..., key=len, reverse=True)`: stable, by chars.
    markers.sort_by_key(|m| std::cmp::Reverse(m.text.chars().count()));

    let mut entries: Vec<Entry> = Vec::new();
    let mut content: Vec<(String, Span)> = Vec::new();
    let mut current = Metadata::default();
    let mut initial = Metadata::default();
    let mut stack: Vec<(usize, &str)> = Vec::new();
    let mut in_code = false;
    let mut fence = "";
    let mut opened = Opened::Start;
    let mut used = vec![false; config.headers.len()];

    let flush = |content: &mut Vec<(String, Span)>,
                 entries: &mut Vec<Entry>,
                 metadata: &Metadata,
                 opened: Opened| {
        let texts: Vec<&str> = content.iter().map(|(t, _)| t.as_str()).collect();
        let mut at = 0;
        let lines = content
            .iter()
            .map(|(t, span)| {
                let line = (at, *span, t.len() == span.len());
                at += t.len() + 1;
                line
            })
            .collect();
        entries.push(Entry {
            content: texts.join("\n"),
            metadata: metadata.clone(),
            span: Span::new(content[0].1.start, content[content.len() - 1].1.end),
            lines,
            opened,
        });
        content.clear();
    };

    let mut at = 0;
    for line in text.split('\n') {
        let line_start = at;
        at += line.len() + 1;
        let lead = line.len() - line.trim_start_matches(is_space).len();
        let kept = line.trim_matches(is_space);
        let span = Span::new(line_start + lead, line_start + lead + kept.len());
        let stripped: String = kept.chars().filter(|&c| is_printable(c)).collect();

        if !in_code {
            if stripped.starts_with("```") && stripped.matches("```").count() == 1 {
                in_code = true;
                fence = "```";
            } else if stripped.starts_with("~~~") {
                in_code = true;
                fence = "~~~";
            }
        } else if stripped.starts_with(fence) {
            in_code = false;
            fence = "";
        }
        if in_code {
            content.push((stripped, span));
            continue;
        }

        let header = markers.iter().find(|m| {
            stripped.starts_with(m.text)
                && (stripped.len() == m.text.len() || stripped[m.text.len()..].starts_with(' '))
        });
        match header {
            Some(m) => {
                used[m.index] = true;
                while stack.last().is_some_and(|&(level, _)| level >= m.level) {
                    let (_, name) = stack.pop().expect("not empty");
                    initial.remove(name);
                }
                let data = stripped[m.text.len()..].trim_matches(is_space).to_string();
                stack.push((m.level, m.name));
                initial.set(m.name, data);
                if !content.is_empty() {
                    flush(&mut content, &mut entries, &current, opened);
                }
                opened = Opened::Header(m.index);
                if !config.strip_headers {
                    content.push((stripped, span));
                }
            }
            None if !stripped.is_empty() => content.push((stripped, span)),
            None => {
                if !content.is_empty() {
                    flush(&mut content, &mut entries, &current, opened);
                    opened = Opened::Blank;
                }
            }
        }
        current = initial.clone();
    }
    if !content.is_empty() {
        flush(&mut content, &mut entries, &current, opened);
    }

    if !config.return_each_line {
        entries = aggregate(entries, config.strip_headers);
    }
    let lines = entries
        .iter_mut()
        .map(|e| Lines(std::mem::take(&mut e.lines)))
        .collect();
    (output(text, config, entries, &used, counter, record), lines)
}

/// Where the lines of one header chunk are: each line's start in the chunk's
/// text and its source span (stripped, before non-printable characters were
/// dropped), in order. Between two lines the chunk has a joiner (`"\n"`, or
/// `"  \n"` between paragraphs) that is not the source's text there.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lines(Vec<(usize, Span, bool)>);

impl Lines {
    /// The source span of `text[range]`, where `text` is the chunk's text:
    /// from the first source character at or after `range.start` that is in
    /// a line to the end of the last one before `range.end`. A range of
    /// joiners alone maps to the empty span where the next line starts.
    pub(crate) fn source_span(&self, source: &str, range: Span) -> Span {
        let start = self.source_at(source, range.start, true);
        let end = self.source_at(source, range.end, false);
        Span::new(start, end.max(start))
    }

    /// The source offset of the chunk-text offset `at`: inside a line, the
    /// character's own offset; in a joiner, where the next line starts
    /// (`forward`) or where the line before ends.
    fn source_at(&self, source: &str, at: usize, forward: bool) -> usize {
        let i = self.0.partition_point(|&(start, _, _)| start <= at);
        let Some(&(start, span, whole)) = i.checked_sub(1).and_then(|i| self.0.get(i)) else {
            return self.0.first().map_or(0, |&(_, span, _)| span.start);
        };
        // A line that lost no character maps by its offset, so a long line
        // cut into many chunks costs no walk per chunk.
        if whole && at - start < span.len() && (at > start || forward) {
            return span.start + (at - start);
        }
        if at == start && !forward && i >= 2 {
            return self.0[i - 2].1.end;
        }
        // Walk the line's printable characters up to `at`.
        let mut kept = start;
        for (offset, c) in span.text(source).char_indices() {
            if kept == at {
                return span.start + offset;
            }
            if is_printable(c) {
                kept += c.len_utf8();
            }
        }
        if kept == at && !forward {
            return span.end;
        }
        match (forward, self.0.get(i)) {
            (true, Some(&(_, next, _))) => next.start,
            _ => span.end,
        }
    }
}

/// `aggregate_lines_to_chunks`: consecutive entries with equal metadata are
/// joined with `"  \n"`; so is an entry onto a shallower one that ends in a
/// header line when headers are kept.
fn aggregate(entries: Vec<Entry>, strip_headers: bool) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for entry in entries {
        if let Some(last) = out.last_mut() {
            let same = last.metadata.same(&entry.metadata);
            // LangChain indexes the last line's first character; that line is
            // never empty here (only the text's final entry can end with an
            // empty line, and nothing is aggregated onto it afterwards).
            let onto_header = !same
                && last.metadata.0.len() < entry.metadata.0.len()
                && last
                    .content
                    .rsplit('\n')
                    .next()
                    .is_some_and(|l| l.starts_with('#'))
                && !strip_headers;
            if same || onto_header {
                last.content.push_str("  \n");
                let shift = last.content.len();
                last.lines.extend(
                    entry
                        .lines
                        .iter()
                        .map(|&(at, span, whole)| (at + shift, span, whole)),
                );
                last.content.push_str(&entry.content);
                last.span = Span::new(last.span.start, entry.span.end);
                if onto_header {
                    last.metadata = entry.metadata;
                }
                continue;
            }
        }
        out.push(entry);
    }
    out
}

/// The entries as LangChain's chunks, each with its span and the cut after
/// it, and the trace: the whole text split at the header (or blank-line)
/// cuts, one leaf per chunk.
fn output(
    source: &str,
    config: &MarkdownHeaderConfig,
    entries: Vec<Entry>,
    used: &[bool],
    counter: Counter,
    record: bool,
) -> LangChainOutput {
    let separators = config.separators();
    let blank = separators.len() - 1;
    let cut_before = |e: &Entry| match e.opened {
        Opened::Header(i) => Cut::Separator(i),
        Opened::Blank | Opened::Start => Cut::Separator(blank),
    };
    let cuts: Vec<Cut> = entries
        .iter()
        .skip(1)
        .map(cut_before)
        .chain(std::iter::once(Cut::End))
        .collect();

    let mut tree = Recorder::new(
        record && !source.trim_matches(is_space).is_empty(),
        1 + entries.len(),
    );
    let lead = source.len() - source.trim_start_matches(is_space).len();
    let whole = Span::new(lead, lead + source.trim_matches(is_space).len());
    let first_cut = cuts.iter().find_map(|c| match c {
        Cut::Separator(i) => Some(*i),
        _ => None,
    });
    let root = tree.node(Node {
        span: whole,
        len: counter.len(whole.text(source)),
        depth: 1,
        parent: None,
        children: Vec::new(),
        absent: (0..config.headers.len()).filter(|&i| !used[i]).collect(),
        action: match first_cut {
            Some(separator) => Action::Split {
                separator,
                parts: entries.len(),
            },
            None => Action::Fits,
        },
        too_big: false,
        parts: None,
        close: None,
        chunk: (entries.len() == 1 && first_cut.is_none()).then_some(0),
    });

    let mut chunks = Vec::with_capacity(entries.len());
    for (index, (entry, cut)) in entries.into_iter().zip(cuts).enumerate() {
        let is_slice = entry.content == entry.span.text(source);
        let node = if first_cut.is_none() {
            root
        } else {
            // The recorder lists the leaf among the root's children.
            tree.node(Node {
                span: entry.span,
                len: counter.len(&entry.content),
                depth: 2,
                parent: root,
                children: Vec::new(),
                absent: Vec::new(),
                action: Action::Fits,
                too_big: false,
                parts: Some((index, index + 1)),
                close: Some(Close::ParentEnded),
                chunk: Some(index),
            })
        };
        chunks.push(LangChainChunk {
            index,
            len: counter.len(&entry.content),
            text: entry.content,
            span: entry.span,
            is_slice,
            not_slice: (!is_slice).then_some(NotSlice::LinesRejoined),
            start_index: None,
            metadata: Some(entry.metadata.0),
            cut,
            overlap: None,
            node,
        });
    }
    LangChainOutput {
        chunks,
        trace: tree.finish(),
        warnings: Vec::new(),
        separators,
        regex: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str, config: &MarkdownHeaderConfig) -> Vec<(String, Vec<(String, String)>)> {
        let counter = Counter::CHARS;
        run(text, config, counter, true)
            .chunks
            .into_iter()
            .map(|c| (c.text, c.metadata.unwrap()))
            .collect()
    }

    fn meta(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    const DOC: &str = "# Foo\n\n    ## Bar\n\nHi this is Jim\n\nHi this is Joe\n\n ### Boo \n\n Hi this is Lance \n\n ## Baz\n\n Hi this is Molly";

    #[test]
    fn langchains_docs_example() {
        let config = MarkdownHeaderConfig::new(["#", "##", "###"]);
        assert_eq!(
            split(DOC, &config),
            [
                (
                    "Hi this is Jim  \nHi this is Joe".to_string(),
                    meta(&[("Header 1", "Foo"), ("Header 2", "Bar")])
                ),
                (
                    "Hi this is Lance".to_string(),
                    meta(&[
                        ("Header 1", "Foo"),
                        ("Header 2", "Bar"),
                        ("Header 3", "Boo")
                    ])
                ),
                (
                    "Hi this is Molly".to_string(),
                    meta(&[("Header 1", "Foo"), ("Header 2", "Baz")])
                ),
            ]
        );
    }

    #[test]
    fn kept_headers_join_the_deeper_section_below_them() {
        let config = MarkdownHeaderConfig::new(["#", "##", "###"]).with_strip_headers(false);
        let got = split(DOC, &config);
        assert_eq!(
            got[0].0,
            "# Foo  \n## Bar  \nHi this is Jim  \nHi this is Joe"
        );
        assert_eq!(got[0].1, meta(&[("Header 1", "Foo"), ("Header 2", "Bar")]));
        assert_eq!(got[1].0, "### Boo  \nHi this is Lance");
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn each_line_gives_paragraphs() {
        let config = MarkdownHeaderConfig::new(["#", "##"]).with_each_line(true);
        let got = split("# A\none\ntwo\n\nthree\n## B\nfour", &config);
        let texts: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(texts, ["one\ntwo", "three", "four"]);
    }

    #[test]
    fn fences_hide_headers_and_lose_indentation() {
        let config = MarkdownHeaderConfig::new(["#"]);
        let text = "# A\n```py\n# not a header\n\n    x = 1\n```\n# B\nend";
        let got = split(text, &config);
        assert_eq!(got[0].0, "```py\n# not a header\n\nx = 1\n```");
        assert_eq!(got[1], ("end".to_string(), meta(&[("Header 1", "B")])));
    }

    #[test]
    fn spans_cover_the_lines_and_say_when_text_differs() {
        let counter = Counter::CHARS;
        let text = "# A\n  one  \n\ntwo\n# B\nthree";
        let out = run(text, &MarkdownHeaderConfig::new(["#"]), counter, true);
        let c = &out.chunks[0];
        assert_eq!(
            (c.text.as_str(), c.span.text(text)),
            ("one  \ntwo", "one  \n\ntwo")
        );
        assert_eq!(c.not_slice, Some(NotSlice::LinesRejoined));
        assert_eq!(c.cut, Cut::Separator(0));
        assert!(out.chunks[1].is_slice);
        assert_eq!(out.chunks[1].cut, Cut::End);
        assert_eq!(out.trace.nodes.len(), 3);
    }

    #[test]
    fn the_same_header_twice_is_one_section() {
        let config = MarkdownHeaderConfig::new(["#"]);
        let got = split("# A\none\n# A\ntwo", &config);
        assert_eq!(
            got,
            [("one  \ntwo".to_string(), meta(&[("Header 1", "A")]))]
        );
    }

    #[test]
    fn tabs_and_controls_are_dropped_from_lines() {
        let config = MarkdownHeaderConfig::new(["#"]);
        let got = split("#\tnot a header\na\tb\u{200b}c", &config);
        assert_eq!(got[0].0, "#not a header\nabc");
        assert!(got[0].1.is_empty());
    }
}
