//! LlamaIndex's `SentenceSplitter` (llama-index-core 0.14.25) with its
//! defaults, reproduced exactly: `SentenceSplitter(chunk_size=size,
//! chunk_overlap=overlap)`, counting cl100k tokens as its default tokenizer
//! does (tiktoken with `allowed_special="all"`), or with `tokenizer=` an
//! o200k encoding's `encode`, `list` (chars) or UTF-8 bytes.
//!
//! `_split` cuts a piece that counts more than the size with the first of
//! its split functions that makes more than one split: the paragraph
//! separator `"\n\n\n"` (kept at the start of the split after it), NLTK's
//! untrained Punkt sentence tokenizer ([`punkt`]; each sentence runs to the
//! start of the next), then, for pieces that are no longer whole sentences,
//! the clause regex [`CHUNKING_REGEX`] (`re.findall`), a space (kept at the
//! start), and every character. Each split that still counts more is split
//! again the same way. `_merge` packs the splits in order: a split that does
//! not fit closes the chunk (a sentence is added while it fits, and any
//! split opens a chunk), and each new chunk starts with the last splits of
//! the one before that fit in the overlap, dropped from the front while the
//! next split does not fit beside them. Chunks are stripped of whitespace and
//! blank ones dropped; a split over the size (one character) is LlamaIndex's
//! `ValueError("Single token exceeded chunk size")`.
//!
//! The splits tile the text: Punkt's first sentence starts at 0 and
//! LlamaIndex ends each sentence where the next starts, and the regex's
//! second branch takes a lone mark, so `findall` skips nothing. A chunk is
//! therefore a run of splits, stripped: always a slice of the text, and its
//! span is where its splits lie. The one answer not reproduced is the empty
//! text's: LlamaIndex returns `[""]`, this strategy no chunk.

pub use crate::error::llamaindex::LlamaIndexError;

pub mod markdown;
mod punkt;
mod tables;
pub mod token;

use crate::config::Config;
use crate::engine::{Engine, EngineOutput};
use crate::error::Error;
use crate::separator::Separator;
use crate::span::Span;
use crate::trace::{Chunk, Cut, Output};
use crate::unit::{Counter, Measure, Unit};
use std::collections::VecDeque;

/// `CHUNKING_REGEX`, the secondary split of a piece that is one sentence:
/// a run without a mark and the mark after it, or a mark alone.
pub const CHUNKING_REGEX: &str = "[^,.;。？！]+[,.;。？！]?|[,.;。？！]";

/// The marks of [`CHUNKING_REGEX`].
const CLAUSE_MARKS: [char; 6] = [',', '.', ';', '。', '？', '！'];

/// `DEFAULT_PARAGRAPH_SEP`.
pub const PARAGRAPH_SEPARATOR: &str = "\n\n\n";

/// The default `separator`, between words.
pub const SEPARATOR: &str = " ";

/// How deep this engine lets `_split` recurse. Each level's splits are
/// shorter than its piece, and a text needs a handful; Python would raise
/// `RecursionError` near 1000 frames.
pub const MAX_DEPTH: usize = 900;

/// The bytes the split functions may read in all, at least: a text's
/// bytes are read once per level, a handful of times. A piece Punkt splits
/// into a sentence of all but its end (a run of `!`, or of `a.(`) is split
/// again one sentence shorter, level after level, and reading it again
/// each time is quadratic; past this budget (or 16 times the text's bytes,
/// whichever is more) the split is refused rather than left to run.
pub const WORK_BUDGET: usize = 32 << 20;

/// LlamaIndex's split functions, in the order it tries them. Their
/// [`separators`] are what the cuts index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SplitFn {
    Paragraph = 0,
    Sentence = 1,
    Clause = 2,
    Space = 3,
    Char = 4,
}

/// The split functions as separators, in LlamaIndex's order: the paragraph
/// separator, sentences, the clause regex, a space, and between characters.
/// A cut is labelled with the function that made the split it falls on.
pub fn separators() -> Vec<Separator> {
    vec![
        Separator::literal(PARAGRAPH_SEPARATOR),
        Separator::sentence(),
        Separator::regex(CHUNKING_REGEX),
        Separator::literal(SEPARATOR),
        Separator::hard_cut(),
    ]
}

/// Which of LlamaIndex's splitters an engine reproduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// `SentenceSplitter`: this module.
    Sentence,
    /// `TokenTextSplitter`: [`token`].
    Token,
}

impl Class {
    /// The class's name, as its messages and its Python name it.
    pub const fn name(self) -> &'static str {
        match self {
            Class::Sentence => "SentenceSplitter",
            Class::Token => "TokenTextSplitter",
        }
    }
}

/// The engine: each class's settings are its defaults, so there is nothing
/// to compile beyond its constructor's check.
#[derive(Clone, Debug)]
pub(crate) struct LlamaIndex {
    class: Class,
}

impl LlamaIndex {
    /// The check both classes' `__init__` make, in the same words: an
    /// overlap may equal the size, not exceed it.
    pub(crate) fn new(config: &Config, class: Class) -> Result<LlamaIndex, Error> {
        if config.overlap > config.size {
            return Err(LlamaIndexError::Overlap {
                class: class.name(),
                overlap: config.overlap,
                size: config.size,
            }
            .into());
        }
        Ok(LlamaIndex { class })
    }
}

impl Engine for LlamaIndex {
    fn split(
        &self,
        text: &str,
        config: &Config,
        counter: Counter,
        _record: bool,
    ) -> Result<EngineOutput, Error> {
        let output = match self.class {
            Class::Sentence => run(text, config.size, config.overlap, counter)?,
            Class::Token => token::run(text, config.size, config.overlap, counter)?,
        };
        Ok(output.into())
    }

    fn boxed(&self) -> Box<dyn Engine> {
        Box::new(self.clone())
    }
}

/// A split of `_split`: its span, its count, whether it is whole sentences,
/// and the function that cut after it (`None` for the text's last).
#[derive(Clone, Copy, Debug)]
struct Split {
    span: Span,
    len: usize,
    is_sentence: bool,
    after: Option<SplitFn>,
}

/// How LlamaIndex's tokenizer counts a piece of one text: the unit's
/// count, where in cl100k each special token's text counts one token.
struct Counts<'a> {
    measure: Measure<'a>,
    /// In cl100k, where the special tokens' texts are: each counts as one
    /// token (`allowed_special="all"`).
    specials: Vec<Span>,
}

impl<'a> Counts<'a> {
    /// The counts of `text`'s pieces; in o200k, tiktoken's `ValueError` for
    /// a special token's text, which the first count of the whole text
    /// raises in either class.
    fn new(text: &'a str, counter: Counter) -> Result<Counts<'a>, Error> {
        Ok(Counts {
            measure: Measure::new(counter, text),
            specials: special_tokens(text, counter)?,
        })
    }

    /// `len(tokenizer(piece))`: the unit's count, a special token's text
    /// counting one token where it is allowed and lies whole in `span`.
    fn count(&self, span: Span) -> usize {
        let first = self.specials.partition_point(|s| s.start < span.start);
        let mut at = span.start;
        let mut n = 0;
        for special in self.specials[first..]
            .iter()
            .take_while(|s| s.end <= span.end)
        {
            n += self.measure.len(Span::new(at, special.start)) + 1;
            at = special.end;
        }
        n + self.measure.len(Span::new(at, span.end))
    }
}

struct State<'a> {
    source: &'a str,
    size: usize,
    counts: Counts<'a>,
    splits: Vec<Split>,
    /// The bytes the split functions have read, and what they may read.
    work: usize,
    budget: usize,
}

/// Splits `text` as `SentenceSplitter(chunk_size=size,
/// chunk_overlap=overlap, tokenizer=…).split_text(text)`.
pub(crate) fn run(
    text: &str,
    size: usize,
    overlap: usize,
    counter: Counter,
) -> Result<Output, Error> {
    let mut state = State {
        source: text,
        size,
        counts: Counts::new(text, counter)?,
        splits: Vec::new(),
        work: 0,
        budget: WORK_BUDGET.max(text.len().saturating_mul(16)),
    };
    if !text.is_empty() {
        state.split(Span::new(0, text.len()), 0)?;
    }
    let chunks = state.merge(overlap)?;
    Ok(Output {
        chunks,
        separators: Some(separators()),
        ..Output::default()
    })
}

/// The special tokens' texts in `text` where they count as one token each
/// (cl100k, LlamaIndex's default tokenizer with `allowed_special="all"`);
/// in o200k, called as `encode` with tiktoken's defaults, the first one
/// raises tiktoken's `ValueError`.
fn special_tokens(text: &str, counter: Counter) -> Result<Vec<Span>, Error> {
    let Unit::Tokens(encoding) = counter.unit() else {
        return Ok(Vec::new());
    };
    if encoding != crate::tokens::Encoding::Cl100k {
        return match crate::error::langchain::leftmost_special_token(encoding, text) {
            Some(token) => Err(LlamaIndexError::SpecialToken { token }.into()),
            None => Ok(Vec::new()),
        };
    }
    // tiktoken finds them leftmost first; their texts cannot overlap (each
    // starts with `<|` and ends with `|>`, neither inside).
    let mut found: Vec<Span> = encoding
        .special_tokens()
        .iter()
        .flat_map(|t| {
            text.match_indices(t)
                .map(|(at, t)| Span::new(at, at + t.len()))
        })
        .collect();
    found.sort_unstable_by_key(|s| s.start);
    Ok(found)
}

impl State<'_> {
    /// `_token_size`.
    fn count(&self, span: Span) -> usize {
        self.counts.count(span)
    }

    fn push(&mut self, span: Span, len: usize, is_sentence: bool) {
        self.splits.push(Split {
            span,
            len,
            is_sentence,
            after: None,
        });
    }

    /// `_split(piece)`, its splits appended to `self.splits`.
    fn split(&mut self, piece: Span, depth: usize) -> Result<(), Error> {
        if depth > MAX_DEPTH {
            return Err(LlamaIndexError::TooDeep { levels: MAX_DEPTH }.into());
        }
        let len = self.count(piece);
        if len <= self.size {
            self.push(piece, len, true);
            return Ok(());
        }
        self.work = self.work.saturating_add(piece.len());
        if self.work > self.budget {
            return Err(LlamaIndexError::TooMuchWork { levels: depth }.into());
        }
        let (function, parts) = split_by_fns(self.source, piece);
        let is_sentence = matches!(function, SplitFn::Paragraph | SplitFn::Sentence);
        let last = parts.len() - 1;
        for (i, &part) in parts.iter().enumerate() {
            let len = self.count(part);
            if len <= self.size || parts.len() == 1 {
                // A piece that no function divides stays whole, over the
                // size: `_merge` raises on it.
                self.push(part, len, is_sentence);
            } else {
                self.split(part, depth + 1)?;
            }
            if i < last {
                self.splits.last_mut().expect("a split was made").after = Some(function);
            }
        }
        Ok(())
    }

    /// `_merge` and `_postprocess_chunks`: the splits packed into chunks,
    /// stripped, the blank ones dropped.
    fn merge(&self, overlap: usize) -> Result<Vec<Chunk>, Error> {
        let size = self.size;
        // Runs of splits, as the first and one past the last index.
        let mut raw: Vec<(usize, usize)> = Vec::new();
        // The current chunk's splits, and its count.
        let mut cur: VecDeque<usize> = VecDeque::new();
        let mut cur_len = 0;
        let mut new_chunk = true;
        let mut i = 0;
        while i < self.splits.len() {
            let split = self.splits[i];
            if split.len > size {
                let at = self.counts.measure.chars(Span::new(0, split.span.start));
                return Err(LlamaIndexError::SplitTooBig {
                    text: split.span.text(self.source).to_string(),
                    at,
                    len: split.len,
                    unit: self.counts.measure.counter().unit().words(),
                    size,
                }
                .into());
            }
            if cur_len + split.len > size && !new_chunk {
                self.close(&mut cur, &mut cur_len, &mut raw, overlap);
                new_chunk = true;
                continue;
            }
            if new_chunk {
                // The overlap gives way, from its start, to the next split.
                while cur_len + split.len > size {
                    let Some(first) = cur.pop_front() else { break };
                    cur_len -= self.splits[first].len;
                }
            }
            if split.is_sentence || cur_len + split.len <= size || new_chunk {
                cur_len += split.len;
                cur.push_back(i);
                i += 1;
                new_chunk = false;
            } else {
                self.close(&mut cur, &mut cur_len, &mut raw, overlap);
                new_chunk = true;
            }
        }
        if !new_chunk {
            raw.extend(run_of(&cur));
        }
        Ok(stripped_chunks(self.source, &self.counts, &raw, |i| {
            let split = self.splits[i];
            (split.span, split.after.map(|f| f as usize))
        }))
    }

    /// `close_chunk`: the current run becomes a chunk, and the next starts
    /// with its last splits that fit in the overlap.
    fn close(
        &self,
        cur: &mut VecDeque<usize>,
        cur_len: &mut usize,
        raw: &mut Vec<(usize, usize)>,
        overlap: usize,
    ) {
        raw.extend(run_of(cur));
        let last: Vec<usize> = cur.drain(..).collect();
        *cur_len = 0;
        for &j in last.iter().rev() {
            let len = self.splits[j].len;
            if *cur_len + len > overlap {
                break;
            }
            *cur_len += len;
            cur.push_front(j);
        }
    }
}

/// The runs of splits `raw` (each `(first, one past the last)`) as the
/// chunks both classes return: `"".join(run).strip()`, a blank one dropped.
/// `split(i)` gives split `i`'s span and the index of the split function
/// that cut after it (`None` at the end of the text), which labels the cut
/// after the chunk that the split ends.
fn stripped_chunks(
    source: &str,
    counts: &Counts,
    raw: &[(usize, usize)],
    split: impl Fn(usize) -> (Span, Option<usize>),
) -> Vec<Chunk> {
    let mut chunks: Vec<Chunk> = Vec::with_capacity(raw.len());
    // `push_next` gives a chunk its cut once the next is known.
    let mut cut = Cut::End;
    for &(first, end) in raw {
        let (last, after) = split(end - 1);
        let span = py_strip(source, Span::new(split(first).0.start, last.end));
        if span.is_empty() {
            continue;
        }
        Chunk::push_next(&mut chunks, cut, span, counts.count(span), None);
        cut = after.map_or(Cut::End, Cut::Separator);
    }
    chunks
}

/// `str.strip()` of the text at `span`: its span without the whitespace
/// (Python's) at either end.
fn py_strip(source: &str, span: Span) -> Span {
    let text = span.text(source);
    let trimmed = text.trim_start_matches(chunkscope_pyre::is_space);
    let start = span.start + (text.len() - trimmed.len());
    Span::new(
        start,
        start + trimmed.trim_end_matches(chunkscope_pyre::is_space).len(),
    )
}

/// A chunk's splits as `(first, one past the last)`; they are consecutive.
/// `None` for no split (a chunk is closed only once it holds one).
fn run_of(cur: &VecDeque<usize>) -> Option<(usize, usize)> {
    Some((*cur.front()?, *cur.back()? + 1))
}

/// `_get_splits_by_fns(piece)`: the first function that makes more than
/// one split (the sentence-level ones first), else the last one tried.
fn split_by_fns(source: &str, piece: Span) -> (SplitFn, Vec<Span>) {
    let text = piece.text(source);
    let offset = |spans| offset_in(piece, spans);
    let paragraphs = split_keep_separator(text, PARAGRAPH_SEPARATOR);
    if paragraphs.len() > 1 {
        return (SplitFn::Paragraph, offset(paragraphs));
    }
    let sentences = sentences(text);
    if sentences.len() > 1 {
        return (SplitFn::Sentence, offset(sentences));
    }
    let clauses = clauses(text);
    if clauses.len() > 1 {
        return (SplitFn::Clause, offset(clauses));
    }
    let words = split_keep_separator(text, SEPARATOR);
    if words.len() > 1 {
        return (SplitFn::Space, offset(words));
    }
    (SplitFn::Char, offset(chars(text)))
}

/// The spans of `piece`'s parts, given within its text, within the source.
fn offset_in(piece: Span, spans: Vec<Span>) -> Vec<Span> {
    spans
        .into_iter()
        .map(|s| Span::new(piece.start + s.start, piece.start + s.end))
        .collect()
}

/// `split_by_char`'s `list(text)`: every character alone.
fn chars(text: &str) -> Vec<Span> {
    text.char_indices()
        .map(|(i, c)| Span::new(i, i + c.len_utf8()))
        .collect()
}

/// `split_text_keep_separator`: `text.split(sep)`, the separator put back
/// at the start of every part after the first, empty parts dropped.
fn split_keep_separator(text: &str, sep: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut start = 0;
    for (at, _) in text.match_indices(sep) {
        if at > start {
            out.push(Span::new(start, at));
        }
        start = at;
    }
    if text.len() > start {
        out.push(Span::new(start, text.len()));
    }
    out
}

/// `split_by_sentence_tokenizer_internal`: Punkt's sentences, each running
/// to the start of the next, the last to the end of the text.
fn sentences(text: &str) -> Vec<Span> {
    let spans = punkt::span_tokenize(text);
    let mut out = Vec::with_capacity(spans.len());
    for (i, s) in spans.iter().enumerate() {
        let end = spans.get(i + 1).map_or(text.len(), |n| n.start);
        out.push(Span::new(s.start, end.max(s.start)));
    }
    out
}

/// `re.findall(CHUNKING_REGEX, text)`: runs without a mark, each with the
/// mark after it, and lone marks.
fn clauses(text: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_run = false;
    for (i, c) in text.char_indices() {
        if CLAUSE_MARKS.contains(&c) {
            out.push(Span::new(start, i + c.len_utf8()));
            start = i + c.len_utf8();
            in_run = false;
        } else {
            in_run = true;
        }
    }
    if in_run {
        out.push(Span::new(start, text.len()));
    }
    out
}

/// Python that gives these chunks with LlamaIndex itself.
pub fn to_python(size: usize, overlap: usize, unit: Unit) -> String {
    python_call(Class::Sentence, size, overlap, unit)
}

/// `class(chunk_size=size, chunk_overlap=overlap, tokenizer=…)` and its
/// `split_text`: the tokenizer left out for cl100k, the classes' default.
fn python_call(class: Class, size: usize, overlap: usize, unit: Unit) -> String {
    let (import, tokenizer) = match unit {
        Unit::Tokens(crate::tokens::Encoding::Cl100k) => (String::new(), String::new()),
        Unit::Tokens(encoding) => (
            "import tiktoken\n".to_string(),
            format!(
                ",\n    tokenizer=tiktoken.get_encoding(\"{}\").encode",
                encoding.python_name()
            ),
        ),
        Unit::Chars => (String::new(), ",\n    tokenizer=list".to_string()),
        Unit::Bytes => (
            String::new(),
            ",\n    tokenizer=lambda text: text.encode(\"utf-8\")".to_string(),
        ),
    };
    let class = class.name();
    format!(
        "{import}from llama_index.core.node_parser import {class}  # pip install llama-index-core==0.14.25\n\n\
         splitter = {class}(\n    chunk_size={size},\n    chunk_overlap={overlap}{tokenizer},\n)\n\
         chunks = splitter.split_text(text)\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(v: Vec<Span>, text: &str) -> Vec<&str> {
        v.iter().map(|s| s.text(text)).collect()
    }

    #[test]
    fn the_split_functions_keep_every_character() {
        let t = "a\n\n\nb\n\n\n\n\n\nc";
        assert_eq!(
            spans(split_keep_separator(t, PARAGRAPH_SEPARATOR), t),
            ["a", "\n\n\nb", "\n\n\n", "\n\n\nc"]
        );
        assert_eq!(
            spans(split_keep_separator(" a b", " "), " a b"),
            [" a", " b"]
        );
        let t = ",a,b;。c？！d";
        assert_eq!(
            spans(clauses(t), t),
            [",", "a,", "b;", "。", "c？", "！", "d"]
        );
    }
}
