//! semchunk's `chunkerify(counter, chunk_size)` (semchunk 4.1.1),
//! reproduced exactly: its chunks and the offsets it reports with
//! `offsets=True`, with the splitter it chose for each piece recorded.
//!
//! semchunk splits a piece at the most meaningful splitter in it:
//!
//! 1. the longest run of `\r`/`\n` (the first of the longest), or the first
//!    `\r` or `\n` when no run is longer than one;
//! 2. else the longest run of tabs, or a tab;
//! 3. else the longest run of whitespace; when none is longer than one
//!    character, the whitespace character after the first of
//!    `. ? ! ; , ( ) [ ] “ ” ‘ ’ ' " ` * : — … / \ – & -` (in that order) that
//!    has one, cut only where it follows that mark (`(?<=\.) `), or else the
//!    first whitespace character;
//! 4. else the first of those marks present (not whitespace);
//! 5. else between every two characters.
//!
//! It then merges consecutive splits (with the splitter between them) into
//! the longest run that counts at most the size, found by a binary search
//! whose probes follow the characters per unit seen so far; a split over the
//! size is chunked again the same way, alone. A splitter that is not
//! whitespace goes at the end of the chunk before it when that still fits,
//! and else becomes a chunk of its own. Empty chunks and chunks of whitespace
//! alone are dropped at the end. Nothing is stripped, so a chunk can start or
//! end with whitespace that was not a splitter.
//!
//! With an overlap, chunks are made at a smaller size,
//! `min(overlap, size − overlap)`, then joined `size / that` at a time every
//! `(size − overlap) / that` of them; what lies between them is joined too,
//! so a chunk can be longer than the size (the checks say so). In tokens,
//! `chunkerify` with a tiktoken encoding counts a text of more than
//! `6 × size` characters as `size + 1` when its first
//! `6 × size + longest token − 1` characters already count more than `size`.
//!
//! Every chunk is a slice of the text; semchunk's offsets are its chunks'
//! char offsets. Where semchunk never returns (a character it cannot split
//! that counts more than a chunk holds: it recurses until Python's
//! `RecursionError`), the split is a [`SemchunkError`].

pub use crate::error::semchunk::SemchunkError;

use crate::config::Config;
use crate::engine::{Engine, EngineOutput};
use crate::error::Error;
use crate::separator::Separator;
use crate::span::Span;
use crate::trace::{Action, Chunk, Close, Cut, Node, NodeId, Output, Recorder, Trace};
use crate::unit::{Counter, Measure};

/// semchunk's punctuation splitters, most meaningful first
/// (`_NON_WHITESPACE_STRUCTURAL_SPLITTERS`): sentence ends, clause marks,
/// sentence interrupters, word joiners.
pub const MARKS: [char; 25] = [
    '.', '?', '!', ';', ',', '(', ')', '[', ']', '“', '”', '‘', '’', '\'', '"', '`', '*', ':', '—',
    '…', '/', '\\', '–', '&', '-',
];

/// How deep this engine lets the splitting go. semchunk calls itself once
/// per level, and Python raises `RecursionError` at 1000 frames (less the
/// caller's); a text needing more levels than this is refused.
pub const MAX_LEVELS: usize = 900;

/// The engine: semchunk has no setting beyond the size, the overlap and the
/// counter, so there is nothing to compile.
#[derive(Clone, Debug)]
pub(crate) struct Semchunk;

impl Engine for Semchunk {
    fn split(
        &self,
        text: &str,
        config: &Config,
        counter: Counter,
        record: bool,
    ) -> Result<EngineOutput, Error> {
        let output = run(text, config.size, config.overlap, counter, record)?;
        Ok(output.into())
    }

    fn boxed(&self) -> Box<dyn Engine> {
        Box::new(self.clone())
    }
}

/// The splitter semchunk chose for a piece.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Splitter {
    /// A run (or one character) of newlines, tabs or whitespace, or a
    /// punctuation mark: `text.split(splitter)`.
    Literal {
        text: String,
        /// Whether it is whitespace (dropped between chunks) or a mark (kept
        /// at the end of the chunk before it).
        whitespace: bool,
    },
    /// A whitespace character, only where it follows `mark`.
    After { mark: char, space: char },
    /// Every character is a split.
    Chars,
}

impl Splitter {
    fn separator(&self) -> Separator {
        match self {
            Splitter::Literal { text, .. } => Separator::literal(text.clone()),
            Splitter::After { mark, space } => {
                Separator::regex(format!("(?<={}){}", escape(*mark), escape(*space)))
            }
            Splitter::Chars => Separator::hard_cut(),
        }
    }

    /// The splitter's length in bytes (0 for characters).
    fn bytes(&self) -> usize {
        match self {
            Splitter::Literal { text, .. } => text.len(),
            Splitter::After { space, .. } => space.len_utf8(),
            Splitter::Chars => 0,
        }
    }

    /// Its length in chars, as Python's `len` gives it.
    fn chars(&self) -> usize {
        match self {
            Splitter::Literal { text, .. } => text.chars().count(),
            Splitter::After { .. } => 1,
            Splitter::Chars => 0,
        }
    }

    fn is_whitespace(&self) -> bool {
        !matches!(
            self,
            Splitter::Literal {
                whitespace: false,
                ..
            }
        )
    }
}

/// A character as a Python regex writes it: `re.escape` for the marks, and
/// an escape for whitespace other than a space, so the label is readable.
fn escape(c: char) -> String {
    match c {
        ' ' => " ".into(),
        '.' | '(' | ')' | '[' | ']' | '?' | '*' | '\\' | '&' | '-' => format!("\\{c}"),
        c if (c as u32) < 0x100 && chunkscope_pyre::is_space(c) => format!("\\x{:02x}", c as u32),
        c if chunkscope_pyre::is_space(c) => format!("\\u{:04x}", c as u32),
        c => c.to_string(),
    }
}

fn is_space(c: char) -> bool {
    chunkscope_pyre::is_space(c)
}

/// The longest run of at least two characters matching `in_run` in `text`
/// (the first of the longest), as `max(re.findall(…{2,}), key=len)`.
fn longest_run(text: &str, in_run: impl Fn(char) -> bool) -> Option<&str> {
    // The best run so far as (chars, start, end), and the open run as
    // (start, chars).
    let mut best: Option<(usize, usize, usize)> = None;
    let mut open: Option<(usize, usize)> = None;
    let ends = text
        .char_indices()
        .map(|(i, c)| (i, Some(c)))
        .chain([(text.len(), None)]);
    for (i, c) in ends {
        if c.is_some_and(&in_run) {
            match &mut open {
                Some((_, chars)) => *chars += 1,
                None => open = Some((i, 1)),
            }
        } else if let Some((start, chars)) = open.take() {
            if chars >= 2 && best.is_none_or(|(n, _, _)| chars > n) {
                best = Some((chars, start, i));
            }
        }
    }
    best.map(|(_, start, end)| &text[start..end])
}

/// [`longest_run`] of ASCII bytes, read a byte at a time.
fn longest_ascii_run(text: &str, in_run: impl Fn(u8) -> bool) -> Option<&str> {
    let bytes = text.as_bytes();
    let (mut best, mut at) = (None::<(usize, usize)>, 0);
    while at < bytes.len() {
        if !in_run(bytes[at]) {
            at += 1;
            continue;
        }
        let start = at;
        while at < bytes.len() && in_run(bytes[at]) {
            at += 1;
        }
        if at - start >= 2 && best.is_none_or(|(s, e)| at - start > e - s) {
            best = Some((start, at));
        }
    }
    best.map(|(s, e)| &text[s..e])
}

/// `_split_text`: the splitter for `text` and the splits it makes, as spans
/// of `text` (from 0).
fn split_text(text: &str) -> (Splitter, Vec<Span>) {
    let literal = |s: &str, whitespace: bool| {
        let splits = split_literal(text, s);
        (
            Splitter::Literal {
                text: s.to_string(),
                whitespace,
            },
            splits,
        )
    };
    if let Some(first) = text.bytes().position(|b| b == b'\n' || b == b'\r') {
        let run = longest_ascii_run(&text[first..], |b| b == b'\n' || b == b'\r');
        return literal(run.unwrap_or(&text[first..first + 1]), true);
    }
    if let Some(first) = text.bytes().position(|b| b == b'\t') {
        return literal(
            longest_ascii_run(&text[first..], |b| b == b'\t').unwrap_or("\t"),
            true,
        );
    }
    if let Some((at, space)) = text.char_indices().find(|&(_, c)| is_space(c)) {
        if let Some(run) = longest_run(text, is_space) {
            return literal(run, true);
        }
        // The first mark of the list that has whitespace after it, and the
        // whitespace character after its first such place: one pass.
        let mut best: Option<(usize, char)> = None;
        let mut prev = None;
        for c in text.chars() {
            if let Some(p) = prev.filter(|_| is_space(c)) {
                if let Some(rank) = MARKS.iter().position(|&m| m == p) {
                    if best.is_none_or(|(r, _)| rank < r) {
                        best = Some((rank, c));
                    }
                }
            }
            prev = Some(c);
        }
        if let Some((rank, space)) = best {
            let mark = MARKS[rank];
            return (
                Splitter::After { mark, space },
                split_after(text, mark, space),
            );
        }
        return literal(&text[at..at + space.len_utf8()], true);
    }
    for mark in MARKS {
        if text.contains(mark) {
            return literal(mark.encode_utf8(&mut [0; 4]), false);
        }
    }
    let splits = text
        .char_indices()
        .map(|(i, c)| Span::new(i, i + c.len_utf8()))
        .collect();
    (Splitter::Chars, splits)
}

/// `text.split(sep)`.
fn split_literal(text: &str, sep: &str) -> Vec<Span> {
    let mut splits = Vec::new();
    let mut start = 0;
    for (at, _) in text.match_indices(sep) {
        splits.push(Span::new(start, at));
        start = at + sep.len();
    }
    splits.push(Span::new(start, text.len()));
    splits
}

/// `re.split(rf"(?<={mark}){space}", text)`.
fn split_after(text: &str, mark: char, space: char) -> Vec<Span> {
    let mut splits = Vec::new();
    let mut start = 0;
    let mut prev = None;
    for (at, c) in text.char_indices() {
        if c == space && prev == Some(mark) {
            splits.push(Span::new(start, at));
            start = at + c.len_utf8();
        }
        prev = Some(c);
    }
    splits.push(Span::new(start, text.len()));
    splits
}

/// A chunk as semchunk makes it, before empty and whitespace chunks are
/// dropped.
struct Raw {
    span: Span,
    /// The shallowest splitter crossed since the chunk before: `(separator,
    /// depth)`. It is the cut between them.
    before: Option<(usize, usize)>,
    node: Option<NodeId>,
}

struct State<'a> {
    source: &'a str,
    size: usize,
    measure: Measure<'a>,
    /// For a token unit: the longest token's bytes less one
    /// (`max_token_chars - 1`), for `chunkerify`'s shortcut.
    longest_token: Option<usize>,
    separators: Vec<Separator>,
    raw: Vec<Raw>,
    pending: Option<(usize, usize)>,
    tree: Recorder,
}

/// Splits `text` as `semchunk.chunkerify(counter, size)(text, offsets=True,
/// overlap=overlap or None)` does.
pub(crate) fn run(
    text: &str,
    size: usize,
    overlap: usize,
    counter: Counter,
    record: bool,
) -> Result<Output, Error> {
    // `chunkerify`'s shortcut needs the longest token only for a text of
    // more than `6 × size` chars.
    let long = text.len() > size.saturating_mul(6);
    let longest_token = counter.tokenizer().filter(|_| long).map(|t| {
        (0..t.vocabulary_size() as u32)
            .filter_map(|token| t.token_bytes(token).map(<[u8]>::len))
            .max()
            .unwrap_or(1)
            .saturating_sub(1)
    });
    let mut state = State {
        source: text,
        size,
        measure: Measure::new(counter, text),
        longest_token,
        separators: Vec::new(),
        raw: Vec::new(),
        pending: None,
        tree: Recorder::new(record, 16),
    };
    // `overlap = min(overlap, chunk_size - 1)`; the configuration already
    // keeps it below the size.
    let overlap = overlap.min(size.saturating_sub(1));
    let room = if overlap > 0 {
        overlap.min(size - overlap)
    } else {
        size
    };
    if !text.is_empty() {
        state.level(Span::new(0, text.len()), room, 1, None, None)?;
    }
    let kept = state.kept();
    let mut chunks: Vec<Chunk> = Vec::with_capacity(kept.len());
    let cut = |before: Option<(usize, usize)>| before.map_or(Cut::End, |(s, _)| Cut::Separator(s));
    if overlap > 0 && !kept.is_empty() {
        // Clamped to the count of chunks, which changes nothing (with
        // `per >= n` there is one window whatever the stride) but keeps a
        // huge size from overflowing.
        let per = (size / room).min(kept.len());
        let stride = ((size - overlap) / room).min(kept.len());
        let n = kept.len() as i64;
        let over = n - per as i64;
        let windows =
            (over.div_euclid(stride as i64) + i64::from(over.rem_euclid(stride as i64) != 0) + 1)
                .max(1) as usize;
        for i in 0..windows {
            let first = i * stride;
            let last = (first + per).min(kept.len()) - 1;
            let span = Span::new(kept[first].span.start, kept[last].span.end);
            let len = state.measure.len(span);
            let before = if i == 0 {
                None
            } else {
                // The cut that ended the previous window's last chunk.
                let prev_last = ((i - 1) * stride + per).min(kept.len()) - 1;
                kept.get(prev_last + 1).and_then(|k| k.before)
            };
            Chunk::push_next(&mut chunks, cut(before), span, len, kept[first].node);
        }
    } else {
        for k in &kept {
            let len = state.measure.len(k.span);
            let index = Chunk::push_next(&mut chunks, cut(k.before), k.span, len, k.node);
            state.tree.with_node(k.node, |n| n.chunk = Some(index));
        }
    }
    let State {
        tree, separators, ..
    } = state;
    Ok(Output {
        chunks,
        trace: Trace {
            nodes: tree.finish().nodes,
            semantic: None,
        },
        separators: Some(separators),
        ..Output::default()
    })
}

impl State<'_> {
    /// What semchunk's counter says of `span`: the unit's count, except for
    /// `chunkerify`'s shortcut in tokens.
    fn count(&self, span: Span) -> usize {
        if let Some(longest) = self.longest_token {
            let heuristic = self.size.saturating_mul(6);
            if span.len() > heuristic && self.measure.chars(span) > heuristic {
                let limit = heuristic.saturating_add(longest);
                let end = span
                    .text(self.source)
                    .char_indices()
                    .nth(limit)
                    .map_or(span.end, |(i, _)| span.start + i);
                if self.measure.len(Span::new(span.start, end)) > self.size {
                    return self.size.saturating_add(1);
                }
            }
        }
        self.measure.len(span)
    }

    fn separator(&mut self, splitter: &Splitter) -> usize {
        let separator = splitter.separator();
        match self.separators.iter().position(|s| *s == separator) {
            Some(i) => i,
            None => {
                self.separators.push(separator);
                self.separators.len() - 1
            }
        }
    }

    /// Notes that the split crossed `separator` at `depth`: the cut before
    /// the next chunk is the shallowest one crossed.
    fn cross(&mut self, separator: usize, depth: usize) {
        if self.pending.is_none_or(|(_, d)| depth < d) {
            self.pending = Some((separator, depth));
        }
    }

    fn push(&mut self, span: Span, node: Option<NodeId>) {
        let before = self.pending.take();
        self.raw.push(Raw { span, before, node });
    }

    /// One call of semchunk's `chunk` on `piece`, with `room` the size it
    /// chunks at.
    fn level(
        &mut self,
        piece: Span,
        room: usize,
        depth: usize,
        parent: Option<NodeId>,
        parts: Option<(usize, usize)>,
    ) -> Result<(), Error> {
        if depth > MAX_LEVELS {
            return Err(SemchunkError::TooDeep { levels: MAX_LEVELS }.into());
        }
        let text = piece.text(self.source);
        let (splitter, splits) = split_text(text);
        let splits: Vec<Span> = splits
            .into_iter()
            .map(|s| Span::new(piece.start + s.start, piece.start + s.end))
            .collect();
        let separator = self.separator(&splitter);
        let (sep_bytes, sep_chars) = (splitter.bytes(), splitter.chars());
        let n = splits.len();
        // `split_starts`: where each split starts, and one splitter past the
        // end, in chars (semchunk's `cum_lens`) and in bytes.
        let mut starts: Vec<usize> = splits.iter().map(|s| s.start).collect();
        starts.push(piece.end + sep_bytes);
        let cum: Vec<usize> = splits
            .iter()
            .map(|s| self.measure.chars(Span::new(piece.start, s.start)))
            .chain([self.measure.chars(piece) + sep_chars])
            .collect();
        let node = if self.tree.is_on() {
            let count = self.count(piece);
            self.tree.node(Node {
                span: piece,
                len: self.measure.len(piece),
                depth,
                parent,
                children: Vec::new(),
                absent: Vec::new(),
                action: Action::Split {
                    separator,
                    parts: n,
                },
                too_big: count > room,
                parts,
                close: None,
                chunk: None,
            })
        } else {
            None
        };
        let mut i = 0;
        while i < n {
            let next = if self.count(splits[i]) > room {
                if splitter == Splitter::Chars {
                    let span = splits[i];
                    let ch = span.text(self.source).chars().next().expect("a char");
                    return Err(SemchunkError::CharTooBig {
                        ch,
                        at: self.measure.chars(Span::new(0, span.start)),
                        len: self.measure.len(span),
                        unit: self.measure.counter().unit().words(),
                        room,
                        size: self.size,
                    }
                    .into());
                }
                self.level(splits[i], room, depth + 1, node, Some((i, i + 1)))?;
                i + 1
            } else {
                let end = self.merge(&cum, &starts, sep_bytes, room, i, n + 1);
                let span = Span::new(starts[i], starts[end] - sep_bytes);
                let child = if self.tree.is_on() {
                    let close = (end < n).then(|| {
                        let with_next = Span::new(starts[i], starts[end + 1] - sep_bytes);
                        let gap = Span::new(starts[end] - sep_bytes, starts[end]);
                        Close::NextWouldExceed {
                            group_len: self.count(span),
                            gap_len: self.count(gap),
                            next_len: self.count(splits[end]),
                            would_be: self.count(with_next),
                        }
                    });
                    self.fits(span, depth + 1, node, Some((i, end)), close)
                } else {
                    None
                };
                self.push(span, child);
                end
            };
            if !splitter.is_whitespace() && next < n {
                let last = self.raw.last().expect("a chunk was just made");
                let (last_span, last_node) = (last.span, last.node);
                let with_splitter = Span::new(last_span.start, last_span.end + sep_bytes);
                if self.count(with_splitter) <= room {
                    self.raw.last_mut().expect("a chunk").span = with_splitter;
                    let len = self.measure.len(with_splitter);
                    self.tree.with_node(last_node, |n| {
                        n.span = with_splitter;
                        n.len = len;
                    });
                } else {
                    self.cross(separator, depth);
                    let alone = Span::new(last_span.end, last_span.end + sep_bytes);
                    let child = self.fits(alone, depth + 1, node, None, None);
                    self.push(alone, child);
                }
            }
            if next < n {
                self.cross(separator, depth);
            }
            i = next;
        }
        Ok(())
    }

    /// A node for a chunk as it was made.
    fn fits(
        &mut self,
        span: Span,
        depth: usize,
        parent: Option<NodeId>,
        parts: Option<(usize, usize)>,
        close: Option<Close>,
    ) -> Option<NodeId> {
        if !self.tree.is_on() {
            return None;
        }
        let len = self.measure.len(span);
        let too_big = self.count(span) > self.size;
        let close = close.or(Some(Close::ParentEnded));
        self.tree
            .node(Node::fits(span, len, depth, parent, too_big, parts, close))
    }

    /// `merge_splits`: the index of the first split after the longest run
    /// from `start` that fits in `room`, found as semchunk's binary search
    /// finds it (the probes matter in tokens, where counts of longer text
    /// can be smaller).
    fn merge(
        &self,
        cum: &[usize],
        starts: &[usize],
        sep_bytes: usize,
        room: usize,
        start: usize,
        mut high: usize,
    ) -> usize {
        let mut average = 0.2_f64;
        let mut low = start;
        let offset = cum[start];
        let mut target = offset as f64 + room as f64 * average;
        while low < high {
            // `bisect_left(cum_lens, target, lo=low, hi=high)`.
            let i = low + cum[low..high].partition_point(|&c| (c as f64) < target);
            let midpoint = i.min(high - 1);
            let end = starts[midpoint]
                .saturating_sub(sep_bytes)
                .max(starts[start]);
            let tokens = self.count(Span::new(starts[start], end));
            let local = cum[midpoint] - offset;
            if local != 0 && tokens > 0 {
                average = local as f64 / tokens as f64;
                target = offset as f64 + room as f64 * average;
            }
            if tokens > room {
                high = midpoint;
            } else {
                low = midpoint + 1;
            }
        }
        low - 1
    }

    /// The chunks semchunk returns: without the empty ones and those of
    /// whitespace alone, each with the shallowest cut since the chunk kept
    /// before it.
    fn kept(&mut self) -> Vec<Raw> {
        let mut kept = Vec::with_capacity(self.raw.len());
        let mut before: Option<(usize, usize)> = None;
        for raw in std::mem::take(&mut self.raw) {
            before = match (before, raw.before) {
                (Some(a), Some(b)) => Some(if b.1 < a.1 { b } else { a }),
                (a, b) => a.or(b),
            };
            if raw.span.text(self.source).chars().all(is_space) {
                continue;
            }
            kept.push(Raw {
                before: if kept.is_empty() { None } else { before },
                ..raw
            });
            before = None;
        }
        kept
    }
}

/// Python that gives these chunks with semchunk itself: `chunkerify` with
/// the unit's counter, called with `offsets=True` (and the overlap).
pub fn to_python(size: usize, overlap: usize, unit: crate::Unit) -> String {
    let counter = match unit {
        crate::Unit::Chars => "len".to_string(),
        crate::Unit::Bytes => "lambda text: len(text.encode(\"utf-8\"))".to_string(),
        crate::Unit::Tokens(encoding) => format!("\"{}\"", encoding.python_name()),
    };
    let overlap = if overlap > 0 {
        format!(", overlap={overlap}")
    } else {
        String::new()
    };
    format!(
        "import semchunk  # pip install semchunk==4.1.1\n\n\
         chunker = semchunk.chunkerify({counter}, {size})\n\
         chunks, offsets = chunker(text, offsets=True{overlap})\n"
    )
}
