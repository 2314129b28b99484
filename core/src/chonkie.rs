//! Chonkie's `RecursiveChunker` (chonkie 1.7.0, chonkie-core 0.10.2) with
//! its default rules, reproduced exactly: `RecursiveChunker(tokenizer=
//! "character", chunk_size=size, min_characters_per_chunk=m)`, or with a
//! tiktoken encoding as the tokenizer.
//!
//! Chonkie splits a piece at every match of its level's delimiters
//! (leftmost first, the earlier delimiter of the list winning at one
//! position), keeping each delimiter at the end of the split before it, and
//! then joins neighbouring splits while either is shorter than
//! `min_characters_per_chunk` ([`ChonkieConfig`], 24 by default), a length
//! it measures in UTF-8 *bytes*, and which it refuses at 0. It
//! packs the splits greedily by the sum of their counts (in tokens a sum,
//! not the count of the joined text), and a group whose sum is over the size
//! goes to the next level. The levels: paragraphs (`\n\n`, `\r\n`, `\n`,
//! `\r`), sentences (`. `, `! `, `? `), pauses (brackets, quotes, `:`, `;`,
//! `,`, `—`, `|`, `~`, `-`, `...`, backticks), words (a space), then runs of
//! `size` tokens. Nothing is stripped and nothing is dropped: the chunks
//! tile the text, so a chunk can run across a blank line when the blank
//! line's split was too short to stand alone.
//!
//! Its last level decodes each run of tokens alone, so in tokens a run that
//! starts or ends inside a character (one of several tokens) comes back
//! with U+FFFD for that character's bytes, and chonkie's offsets for the
//! runs after it in the piece count the replacement characters. Such a
//! split carries chonkie's own text for those chunks
//! ([`NotSlice::TokensDecodedApart`]) and its `start_index` for every chunk
//! ([`Output::library`]); a chunk's span holds the characters whose first
//! byte is in its run ([`held`]).

pub use crate::config::ChonkieConfig;
pub use crate::error::chonkie::ChonkieError;

use crate::config::Config;
use crate::engine::{Engine, EngineOutput};
use crate::error::Error;
use crate::separator::Separator;
use crate::span::{CharCursor, Span};
use crate::trace::{
    Action, Chunk, Close, Cut, LibraryFact, Node, NodeId, NotSlice, Output, Recorder,
};
use crate::unit::{ceil_boundary, Counter, Measure, Unit};
use std::borrow::Cow;

/// `RecursiveRules()`'s delimiters, level by level; a fifth level cuts runs
/// of `size` tokens.
pub const LEVELS: [&[&str]; 4] = [
    &["\n\n", "\r\n", "\n", "\r"],
    &[". ", "! ", "? "],
    &[
        "{", "}", "\"", "[", "]", "<", ">", "(", ")", ":", ";", ",", "—", "|", "~", "-", "...",
        "`", "'",
    ],
    &[" "],
];

pub use crate::trace::CHONKIE_LEVEL_NAMES as LEVEL_NAMES;

/// The level that cuts runs of tokens (after the four of [`LEVELS`]).
const TOKEN_LEVEL: usize = LEVELS.len();

/// Every delimiter, level by level, then `""` for a cut between runs of
/// tokens. A split's cuts index the ones that cut, in this order.
pub fn separators() -> Vec<Separator> {
    LEVELS
        .iter()
        .flat_map(|level| level.iter().map(|d| Separator::literal(*d)))
        .chain([Separator::hard_cut()])
        .collect()
}

/// The index in [`separators`] of delimiter `i` of level `level`.
fn index(level: usize, i: usize) -> usize {
    LEVELS[..level].iter().map(|l| l.len()).sum::<usize>() + i
}

/// The engine: chonkie's rules are fixed, so there is nothing to compile
/// beyond the checks; it keeps the one number of its own.
#[derive(Clone, Debug)]
pub(crate) struct Chonkie {
    /// `min_characters_per_chunk`, at least 1.
    min_chars: usize,
}

impl Chonkie {
    /// Checks what `RecursiveChunker` cannot take: a minimum of 0 (which
    /// chonkie refuses itself, after the size), an overlap, or bytes.
    pub(crate) fn new(config: &Config, own: &ChonkieConfig) -> Result<Chonkie, Error> {
        if own.min_characters_per_chunk == 0 {
            return Err(ChonkieError::MinCharacters.into());
        }
        if config.overlap > 0 {
            return Err(ChonkieError::Overlap {
                overlap: config.overlap,
            }
            .into());
        }
        if config.unit == Unit::Bytes {
            return Err(ChonkieError::Bytes.into());
        }
        Ok(Chonkie {
            min_chars: own.min_characters_per_chunk,
        })
    }
}

impl Engine for Chonkie {
    fn split(
        &self,
        text: &str,
        config: &Config,
        counter: Counter,
        record: bool,
    ) -> Result<EngineOutput, Error> {
        Ok(run(text, config.size, self.min_chars, counter, record)?.into())
    }

    fn boxed(&self) -> Box<dyn Engine> {
        Box::new(self.clone())
    }
}

/// A split of [`delimit`]: its span, and the delimiter (an index into the
/// delimiters it was split by) that ends it, `None` for the last.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Split {
    pub span: Span,
    pub end: Option<usize>,
}

struct State<'a> {
    source: &'a str,
    size: usize,
    /// `min_characters_per_chunk`, in bytes.
    min_chars: usize,
    measure: Measure<'a>,
    chunks: Vec<Chunk>,
    tree: Recorder,
    /// The shallowest delimiter crossed since the last chunk, with its level.
    pending: Option<(usize, usize)>,
    /// For each chunk made of a run of tokens decoded in a piece where one
    /// run's edge is inside a character: the chunk, chonkie's text where it
    /// is not the span's, and chonkie's `start_index`.
    apart: Vec<(usize, Option<String>, usize)>,
}

/// The checks `TokenChunker.__init__` and `SentenceChunker.__init__` make
/// of what this configuration sets, in their order (the tokenizer first:
/// chonkie has none for bytes), `class` naming the chunker in the message.
pub(crate) fn check_size_and_overlap(
    config: &Config,
    class: &'static str,
) -> Result<(), ChonkieError> {
    if config.unit == Unit::Bytes {
        return Err(ChonkieError::Bytes);
    }
    if config.size == 0 {
        return Err(ChonkieError::SizeNotPositive { class });
    }
    if config.overlap >= config.size {
        return Err(ChonkieError::OverlapNotLess {
            class,
            overlap: config.overlap,
            size: config.size,
        });
    }
    Ok(())
}

/// tiktoken's `encode` raises on a special token's text, and each chonkie
/// chunker encodes all of a text's pieces, in order, before it cuts
/// anything: in tokens, the leftmost special token of `text` is what it
/// raises on. Callers hold that every piece is encoded and that no piece
/// boundary can fall inside a special token's text (none holds a
/// delimiter).
pub(crate) fn refuse_special_tokens(counter: Counter, text: &str) -> Result<(), ChonkieError> {
    if let Unit::Tokens(encoding) = counter.unit() {
        if let Some(token) = crate::error::langchain::leftmost_special_token(encoding, text) {
            return Err(ChonkieError::SpecialToken { token });
        }
    }
    Ok(())
}

/// Splits `text` as `RecursiveChunker(tokenizer, chunk_size=size,
/// min_characters_per_chunk=min_chars).chunk(text)`; `min_chars` is at least 1.
/// With `record`, the trace is chonkie's recursion: a node per level a piece
/// went through, a child per group it packed.
pub(crate) fn run(
    text: &str,
    size: usize,
    min_chars: usize,
    counter: Counter,
    record: bool,
) -> Result<Output, Error> {
    // Chonkie counts every split of the first level before anything else,
    // and the splits tile the text.
    refuse_special_tokens(counter, text)?;
    let mut state = State {
        source: text,
        size,
        min_chars,
        measure: Measure::new(counter, text),
        chunks: Vec::new(),
        tree: Recorder::new(record, 16),
        pending: None,
        apart: Vec::new(),
    };
    let whole = Span::new(0, text.len());
    if !whole.is_empty() {
        let len = state.measure.len(whole);
        let root = state.node(whole, len, 1, None, None, None);
        state.level(whole, 0, 1, root)?;
    }
    let library = (!state.apart.is_empty()).then(|| library(text, &state.chunks, state.apart));
    let trace = state.tree.finish();
    // Its lists hold 46 delimiters, of which a text uses a few.
    let separators = crate::engine::used_separators(&mut state.chunks, &separators());
    Ok(Output {
        chunks: state.chunks,
        trace,
        separators: Some(separators),
        library,
        ..Output::default()
    })
}

/// Chonkie's word on every chunk once some run of tokens was decoded apart:
/// the chunks of such a run as recorded, every other chunk at its true start
/// (the offsets of the levels above are sums of slices' lengths).
fn library(
    source: &str,
    chunks: &[Chunk],
    apart: Vec<(usize, Option<String>, usize)>,
) -> Vec<LibraryFact> {
    let mut chars = CharCursor::new(source);
    let mut facts: Vec<LibraryFact> = chunks
        .iter()
        .map(|c| {
            LibraryFact::new(
                None,
                None,
                Some(chars.char_offset(c.span.start) as i64),
                None,
            )
        })
        .collect();
    for (i, text, start) in apart {
        let why = text.as_ref().map(|_| NotSlice::TokensDecodedApart);
        facts[i] = LibraryFact::new(text, why, Some(start as i64), None);
    }
    facts
}

/// The text chonkie gets for the bytes `raw` of `source` decoded alone:
/// tiktoken's `decode(errors="replace")`, Python's `bytes.decode("utf-8",
/// "replace")`, which puts one U+FFFD for each maximal invalid sequence, as
/// `from_utf8_lossy` does. Only a run's edges can cut a character.
pub(crate) fn decoded(source: &str, raw: Span) -> Cow<'_, str> {
    String::from_utf8_lossy(&source.as_bytes()[raw.start..raw.end])
}

/// The span a run of bytes `raw` stands for: the characters whose first byte
/// is in it. Consecutive runs give spans that tile the text; a run inside
/// one character gives an empty span.
pub(crate) fn held(source: &str, raw: Span) -> Span {
    Span::new(
        ceil_boundary(source, raw.start),
        ceil_boundary(source, raw.end),
    )
}

impl State<'_> {
    /// Makes `span` (`len` units, its text counted alone) a chunk.
    fn push(&mut self, span: Span, len: usize, node: Option<NodeId>) {
        let cut = self
            .pending
            .take()
            .map_or(Cut::End, |(s, _)| Cut::Separator(s));
        let index = Chunk::push_next(&mut self.chunks, cut, span, len, node);
        self.tree.with_node(node, |n| n.chunk = Some(index));
    }

    /// A node for `span` (when recording), `Fits` until the level it goes
    /// through says otherwise.
    fn node(
        &mut self,
        span: Span,
        len: usize,
        depth: usize,
        parent: Option<NodeId>,
        parts: Option<(usize, usize)>,
        close: Option<Close>,
    ) -> Option<NodeId> {
        if !self.tree.is_on() {
            return None;
        }
        let too_big = len > self.size;
        self.tree
            .node(Node::fits(span, len, depth, parent, too_big, parts, close))
    }

    fn cross(&mut self, separator: Option<usize>, level: usize) {
        if let Some(separator) = separator {
            if self.pending.is_none_or(|(_, l)| level < l) {
                self.pending = Some((separator, level));
            }
        }
    }

    /// `_recursive_chunk(text, level)` on `piece`, whose node is `node`.
    fn level(
        &mut self,
        piece: Span,
        level: usize,
        depth: usize,
        node: Option<NodeId>,
    ) -> Result<(), Error> {
        if level == TOKEN_LEVEL {
            self.token_runs(piece, depth, node);
            return Ok(());
        }
        let splits = delimit(self.source, piece, LEVELS[level], self.min_chars);
        let counts: Vec<usize> = splits.iter().map(|s| self.measure.len(s.span)).collect();
        let groups = merge_indices(&counts, self.size);
        self.tree.with_node(node, |n| {
            n.action = Action::ChonkieLevel {
                level,
                parts: splits.len(),
            }
        });
        let last = groups.len().saturating_sub(1);
        for (g, &(first, end)) in groups.iter().enumerate() {
            let span = Span::new(splits[first].span.start, splits[end - 1].span.end);
            let sum: usize = counts[first..end].iter().sum();
            let close = Some(match counts.get(end) {
                Some(&next) => Close::NextWouldExceed {
                    group_len: sum,
                    gap_len: 0,
                    next_len: next,
                    would_be: sum + next,
                },
                None => Close::ParentEnded,
            });
            let child = self.node(span, sum, depth + 1, node, Some((first, end)), close);
            // Chonkie's `if not text: return []`: a group is never empty
            // (no split is), so every group is a chunk or goes down a level.
            if sum > self.size {
                self.level(span, level + 1, depth + 1, child)?;
            } else {
                let len = self.measure.len(span);
                self.push(span, len, child);
            }
            if g < last {
                self.cross(splits[end - 1].end.map(|i| index(level, i)), level);
            }
        }
        Ok(())
    }

    /// The last level: runs of `size` tokens (characters, for chonkie's
    /// character tokenizer), each decoded alone and each a chunk (a run
    /// over the size, by its decoded text's count, goes past the last level
    /// and is kept whole). A hard cut between runs.
    fn token_runs(&mut self, piece: Span, depth: usize, node: Option<NodeId>) {
        let text = piece.text(self.source);
        let mut ends = Vec::new();
        match self.measure.counter().tokenizer() {
            None => {
                let mut n = 0;
                for (i, _) in text.char_indices().skip(1) {
                    n += 1;
                    if n % self.size == 0 {
                        ends.push(piece.start + i);
                    }
                }
            }
            Some(tokenizer) => {
                let mut at = piece.start;
                for run in tokenizer.encode(text).chunks(self.size) {
                    at += run
                        .iter()
                        .map(|&t| tokenizer.token_bytes(t).map_or(0, <[u8]>::len))
                        .sum::<usize>();
                    if at < piece.end {
                        ends.push(at);
                    }
                }
            }
        }
        ends.push(piece.end);
        let apart = ends.iter().any(|&at| !self.source.is_char_boundary(at));
        // `_recursive_chunk`'s offset for the piece: a sum of slices' lengths.
        let mut offset = if apart {
            self.measure.chars(Span::new(0, piece.start))
        } else {
            0
        };
        let hard = separators().len() - 1;
        // Its delimiter levels ran out: the node names no separator.
        self.tree.with_node(node, |n| {
            n.action = Action::HardCut {
                separator: None,
                windows: ends.len(),
            }
        });
        let mut start = piece.start;
        for (i, &end) in ends.iter().enumerate() {
            if i > 0 {
                self.cross(Some(hard), TOKEN_LEVEL);
            }
            let raw = Span::new(start, end);
            let span = held(self.source, raw);
            let len = self.measure.len(span);
            let child = self.node(span, len, depth + 1, node, Some((i, i + 1)), None);
            self.push(span, len, child);
            if apart {
                let text = decoded(self.source, raw);
                let own = (text != span.text(self.source)).then(|| text.to_string());
                self.apart.push((self.chunks.len() - 1, own, offset));
                offset += text.chars().count();
            }
            start = end;
        }
    }
}

/// `split_text_by_delimiters(text, patterns, include_delim="prev",
/// min_chars=min_chars)`: chonkie-core's split at the leftmost-first
/// matches, each delimiter kept at the end of its split, then short splits
/// joined. At 1 nothing is joined (no split is empty). The splits tile
/// `piece`; each one's `end` is the index in `patterns` of the delimiter
/// that ends it (`None` for a last split that ends without one).
pub(crate) fn delimit(
    source: &str,
    piece: Span,
    patterns: &[&str],
    min_chars: usize,
) -> Vec<Split> {
    let text = piece.text(source);
    // One pass: at each byte that can start a delimiter, the first of the
    // level's delimiters that starts there (leftmost first). A delimiter is
    // valid UTF-8, so none starts at a continuation byte.
    let bytes = text.as_bytes();
    let first = FirstBytes::new(patterns);
    let mut segments: Vec<Split> = Vec::new();
    let (mut pos, mut start) = (0, 0);
    while pos < bytes.len() {
        let Some(off) = first.find(&bytes[pos..]) else {
            break;
        };
        let at = pos + off;
        let Some(i) = patterns
            .iter()
            .position(|p| bytes[at..].starts_with(p.as_bytes()))
        else {
            pos = at + 1;
            continue;
        };
        let end = at + patterns[i].len();
        segments.push(Split {
            span: Span::new(start, end),
            end: Some(i),
        });
        start = end;
        pos = end;
    }
    if start < text.len() {
        segments.push(Split {
            span: Span::new(start, text.len()),
            end: None,
        });
    }
    // Join a split with the one before while either is shorter than the
    // minimum (in bytes): the joined split is measured again, so a run of
    // short splits grows until it reaches the minimum.
    let mut splits: Vec<Split> = Vec::with_capacity(segments.len());
    for segment in segments {
        match splits.last_mut() {
            Some(last) if last.span.len() < min_chars || segment.span.len() < min_chars => {
                last.span.end = segment.span.end;
                last.end = segment.end;
            }
            _ => splits.push(segment),
        }
    }
    for s in &mut splits {
        s.span = Span::new(piece.start + s.span.start, piece.start + s.span.end);
    }
    splits
}

/// The bytes a level's delimiters start with, to find the next place one
/// may start. Natively, one to three distinct bytes (paragraphs, sentence
/// ends, words) are found with `memchr`'s vector search; otherwise, and in
/// the browser build, a byte table is read a byte at a time.
struct FirstBytes {
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    distinct: Vec<u8>,
    table: [bool; 256],
}

impl FirstBytes {
    fn new(patterns: &[&str]) -> FirstBytes {
        let mut table = [false; 256];
        let mut distinct = Vec::new();
        for p in patterns {
            let b = p.as_bytes()[0];
            if !table[usize::from(b)] {
                table[usize::from(b)] = true;
                distinct.push(b);
            }
        }
        FirstBytes { distinct, table }
    }

    fn find(&self, bytes: &[u8]) -> Option<usize> {
        #[cfg(not(target_arch = "wasm32"))]
        match self.distinct[..] {
            [a] => return memchr::memchr(a, bytes),
            [a, b] => return memchr::memchr2(a, b, bytes),
            [a, b, c] => return memchr::memchr3(a, b, c, bytes),
            _ => {}
        }
        bytes.iter().position(|&b| self.table[usize::from(b)])
    }
}

/// chonkie-core's `find_merge_indices`: from each split, the longest run
/// whose counts sum to at most `size` (at least one split). Returns
/// `(first, end)` of each group.
fn merge_indices(counts: &[usize], size: usize) -> Vec<(usize, usize)> {
    let sums = running_sums(counts);
    let mut groups = Vec::new();
    let mut pos = 0;
    while pos < counts.len() {
        let end = group_end(&sums, pos, size);
        groups.push((pos, end));
        pos = end;
    }
    groups
}

/// `sums[i]`, the sum of `counts[..i]`, for `i` from 0 to `counts.len()`.
pub(crate) fn running_sums(counts: &[usize]) -> Vec<usize> {
    let mut sums = Vec::with_capacity(counts.len() + 1);
    sums.push(0usize);
    for &c in counts {
        sums.push(sums.last().copied().unwrap_or(0) + c);
    }
    sums
}

/// The end of the group `find_merge_indices` makes from split `pos` on
/// (its first index for the splits from `pos`, plus `pos`): the longest
/// run whose counts sum to at most `size`, at least one split, found by
/// binary search over the running sums ([`running_sums`]). `pos` is below
/// the number of splits.
pub(crate) fn group_end(sums: &[usize], pos: usize, size: usize) -> usize {
    let n = sums.len() - 1;
    let (mut left, mut right) = (pos + 1, n + 1);
    while left < right {
        let mid = (left + right) / 2;
        if sums[mid] - sums[pos] <= size {
            left = mid + 1;
        } else {
            right = mid;
        }
    }
    left.saturating_sub(1).max(pos + 1).min(n)
}

/// Python that gives these chunks with chonkie itself; the minimum is
/// written only when it is not chonkie's default.
pub fn to_python(size: usize, unit: Unit, own: &ChonkieConfig) -> String {
    let min = match own.min_characters_per_chunk {
        ChonkieConfig::DEFAULT_MIN_CHARACTERS_PER_CHUNK => String::new(),
        m => format!(", min_characters_per_chunk={m}"),
    };
    python_call("RecursiveChunker", &format!("chunk_size={size}{min}"), unit)
}

/// Python that builds chonkie's `class` with the unit's tokenizer and
/// `args`, and chunks `text` with it.
pub(crate) fn python_call(class: &str, args: &str, unit: Unit) -> String {
    let tokenizer = match unit {
        Unit::Tokens(encoding) => format!("tiktoken.get_encoding(\"{}\")", encoding.python_name()),
        _ => "\"character\"".to_string(),
    };
    let import = if matches!(unit, Unit::Tokens(_)) {
        "import tiktoken\n"
    } else {
        ""
    };
    format!(
        "{import}from chonkie import {class}  # pip install chonkie==1.7.0\n\n\
         chunker = {class}(tokenizer={tokenizer}, {args})\n\
         chunks = [c.text for c in chunker.chunk(text)]\n"
    )
}
