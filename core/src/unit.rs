//! What `size` and `overlap` count.

use crate::span::{is_space, Span};
use crate::tokens::{Encoding, Tokenizer};
use std::cell::{OnceCell, RefCell};
use std::fmt;
use std::str::FromStr;

/// The unit lengths are measured in. A length is always measured on a span of the
/// source, never on a rebuilt string.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Unicode scalar values: what Python's `len` counts.
    #[default]
    Chars,
    /// UTF-8 bytes. A chunk never ends inside a character, so a chunk may hold
    /// fewer bytes than `size` allows.
    Bytes,
    /// Tokens of an OpenAI encoding, as `len(encoding.encode(text))` counts
    /// them: a span's length is the number of tokens of *its own text*, so it
    /// is exact for the chunk a model will see, but not additive (two spans
    /// side by side may hold fewer tokens together than apart). A chunk never
    /// ends inside a character, even where a token does.
    ///
    /// Counting needs the encoding's tokenizer: a [`Counter`] holds it,
    /// resolved once when a [`Splitter`](crate::Splitter) is built.
    Tokens(Encoding),
}

impl Unit {
    /// Every unit, in the order the UI lists them.
    pub const ALL: [Unit; 4] = [
        Unit::Chars,
        Unit::Bytes,
        Unit::Tokens(Encoding::Cl100k),
        Unit::Tokens(Encoding::O200k),
    ];

    /// Whether the length of two adjacent spans is the sum of their lengths
    /// (true for chars and bytes, not for tokens), so that lengths can be
    /// added and subtracted instead of measured again.
    pub const fn is_additive(self) -> bool {
        !matches!(self, Unit::Tokens(_))
    }

    /// The name used in the CLI, the JS API and the UI's `unit-select`.
    pub const fn name(self) -> &'static str {
        match self {
            Unit::Chars => "chars",
            Unit::Bytes => "bytes",
            Unit::Tokens(encoding) => encoding.name(),
        }
    }

    /// The unit as a sentence says it: `chars`, `bytes`, `cl100k tokens`.
    pub(crate) fn words(self) -> String {
        match self {
            Unit::Tokens(encoding) => format!("{} tokens", encoding.name()),
            other => other.name().to_string(),
        }
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Unit {
    type Err = String;
    fn from_str(s: &str) -> Result<Unit, String> {
        Unit::ALL
            .into_iter()
            .find(|unit| unit.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown unit {s:?}: use \"chars\" (Unicode characters), \"bytes\" (UTF-8 bytes), \"cl100k\" or \"o200k\" (OpenAI tokens)"
                )
            })
    }
}

/// A unit made ready to count: for tokens, with its tokenizer.
///
/// A [`Unit`] is only a name; counting tokens needs rank tables. The tokenizer
/// is resolved once, from the caller's [`Resources`](crate::Resources), when a
/// [`Splitter`](crate::Splitter) is built, and travels with the splitter from
/// then on, so no engine looks anything up while it splits and no length is
/// ever a silent 0.
#[derive(Clone, Copy, Debug)]
pub struct Counter {
    unit: Unit,
    tokenizer: Option<&'static Tokenizer>,
}

impl Counter {
    /// Counts Unicode scalar values.
    pub const CHARS: Counter = Counter {
        unit: Unit::Chars,
        tokenizer: None,
    };

    /// Counts UTF-8 bytes.
    pub const BYTES: Counter = Counter {
        unit: Unit::Bytes,
        tokenizer: None,
    };

    /// The counter of `tokenizer`'s encoding, with that tokenizer.
    pub fn with_tokenizer(tokenizer: &'static Tokenizer) -> Counter {
        Counter {
            unit: Unit::Tokens(tokenizer.encoding()),
            tokenizer: Some(tokenizer),
        }
    }

    /// The unit counted.
    pub const fn unit(self) -> Unit {
        self.unit
    }

    /// The tokenizer, for a token unit.
    pub const fn tokenizer(self) -> Option<&'static Tokenizer> {
        self.tokenizer
    }

    /// Whether lengths add up (see [`Unit::is_additive`]).
    pub const fn is_additive(self) -> bool {
        self.unit.is_additive()
    }

    /// The length of `text` in this unit.
    pub fn len(self, text: &str) -> usize {
        match (self.unit, self.tokenizer) {
            (Unit::Chars, _) => text.chars().count(),
            (Unit::Bytes, _) => text.len(),
            (Unit::Tokens(_), Some(t)) => t.count(text),
            (Unit::Tokens(_), None) => unreachable!("a token counter is made with its tokenizer"),
        }
    }

    /// The byte offset `n` units after `from` in `text`, or the end of `text`.
    /// For bytes the result is rounded down to a char boundary, so the text from
    /// `from` to the result never holds more than `n` units.
    ///
    /// For tokens, the text from `from` to the result holds at most `n` tokens
    /// counted on its own, and ends at the last char boundary at or before the
    /// end of the `n`-th token (or one token earlier where that would count
    /// more): as far as `n` tokens reach, never inside a character.
    pub(crate) fn forward(self, text: &str, from: usize, n: usize) -> usize {
        match (self.unit, self.tokenizer) {
            (Unit::Bytes, _) => floor_boundary(text, from.saturating_add(n).min(text.len())),
            (Unit::Tokens(_), Some(t)) => forward_tokens(t, text, from, n),
            _ => forward_chars(text.as_bytes(), from, n),
        }
    }

    /// The byte offset at most `n` units before `to`, but not before `floor`.
    /// For bytes the result is rounded up to a char boundary, so the text from the
    /// result to `to` never holds more than `n` units.
    pub(crate) fn backward(self, text: &str, to: usize, n: usize, floor: usize) -> usize {
        match (self.unit, self.tokenizer) {
            (Unit::Bytes, _) => ceil_boundary(text, to.saturating_sub(n).max(floor)),
            (Unit::Tokens(_), Some(t)) => backward_tokens(t, text, to, n, floor),
            _ => text[floor..to]
                .char_indices()
                .rev()
                .nth(n.saturating_sub(1))
                .map_or(floor, |(i, _)| if n == 0 { to } else { floor + i }),
        }
    }
}

/// Text put before every chunk of a section when it is embedded (the
/// Markdown heading prefix, and a table's repeated header), and its length
/// in the unit.
///
/// Lengths add up across it except in tokens where the tokenizer does not
/// restart between its last character and a chunk's first: the prefix ends
/// in a newline, and a chunk starting with whitespace (when not trimmed) or,
/// in o200k, with `/` is tokenized together with it (`"?\n\n/"` is one
/// pre-tokenizer piece). [`Counter::len_after`] counts those together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Lead {
    pub text: String,
    pub len: usize,
    /// Whether it ends with a table's header rows ([`crate::TableHeader::Repeat`]),
    /// which an error about the room it leaves names.
    pub table: bool,
}

impl Counter {
    /// How many units `text` (`own` units counted alone) adds after `lead`:
    /// the length of the lead followed by the text, less the lead's. That is
    /// `own` except where tokenizing runs on from the lead into the text;
    /// only then is the joined text counted.
    pub(crate) fn len_after(self, lead: Option<&Lead>, text: &str, own: usize) -> usize {
        let Some(lead) = lead else {
            return own;
        };
        let (Some(before), Some(after)) = (lead.text.chars().next_back(), text.chars().next())
        else {
            return own;
        };
        if self.tokenizer.is_none() || restarts_between(before, after) {
            return own;
        }
        let mut joined = String::with_capacity(lead.text.len() + text.len());
        joined.push_str(&lead.text);
        joined.push_str(text);
        self.len(&joined).saturating_sub(lead.len)
    }
}

/// Lengths of spans of one source, in one unit.
///
/// For chars and bytes this is [`Unit::len`]. For tokens, counting every span
/// afresh would tokenize the text once per level and again for every group
/// packing tries; instead the whole source is tokenized once (on first use),
/// and a span is counted as: its head up to the first point inside it where
/// tokenizing restarts ([`token_restart`]), the source's own tokens between
/// that point and the last one, and its tail after the last. Both points cut
/// no piece in the source or in the span's own text, so the sum is exactly the
/// span's own count; head and tail are usually a word or a line.
pub(crate) struct Measure<'a> {
    counter: Counter,
    source: &'a str,
    /// The end of every token of the whole source.
    token_ends: OnceCell<chunkscope_tokens::TokenEnds>,
    /// The source's continuation bytes counted per block (see
    /// [`Measure::chars`]); `None` inside for a source over 4 GiB.
    continuations: OnceCell<Option<CharTable>>,
    /// The tokens of the pieces of heads and tails counted so far: a
    /// document's words recur (made on first use, for long sources only).
    memo: RefCell<Option<chunkscope_tokens::PieceMemo>>,
}

/// Sources at least this long get a [`chunkscope_tokens::PieceMemo`].
const MEMO_SOURCE: usize = 16 << 10;

impl<'a> Measure<'a> {
    pub fn new(counter: Counter, source: &'a str) -> Measure<'a> {
        Measure {
            counter,
            source,
            token_ends: OnceCell::new(),
            continuations: OnceCell::new(),
            memo: RefCell::new(None),
        }
    }

    /// The number of chars in `source[span]`, whatever the unit.
    ///
    /// Engines count many short spans (a word each, deep in a split), where
    /// counting has a cost per call. So the source's continuation bytes
    /// are counted once per block (on first use, see [`CharTable`]), and a
    /// span's chars are its bytes less the continuation bytes inside it:
    /// two lookups, which in ASCII blocks count nothing.
    pub fn chars(&self, span: Span) -> usize {
        match self.table() {
            Some(table) => {
                let bytes = self.source.as_bytes();
                span.len() - (table.before(bytes, span.end) - table.before(bytes, span.start))
            }
            None => span.text(self.source).chars().count(),
        }
    }

    fn table(&self) -> Option<&CharTable> {
        self.continuations
            .get_or_init(|| CharTable::new(self.source))
            .as_ref()
    }

    /// The byte offset where char `target` of the source starts (the
    /// source's length for its char count), found in the table of
    /// continuation bytes when [`Measure::chars`] built one; `None` without
    /// a table.
    pub fn char_start(&self, target: usize) -> Option<usize> {
        let table = self.continuations.get()?.as_ref()?;
        Some(table.char_start(self.source.as_bytes(), target))
    }

    /// The table of continuation bytes, when counting chars built one: the
    /// char offsets of the chunks are then read from it rather than
    /// counted again over the whole text.
    pub fn into_char_table(self) -> Option<CharTable> {
        self.continuations.into_inner().flatten()
    }

    /// The counter.
    pub fn counter(&self) -> Counter {
        self.counter
    }

    /// The length of `source[span]`: exactly `counter.len(span.text(source))`.
    pub fn len(&self, span: Span) -> usize {
        // Chars are counted without slicing the text: a slice's check of
        // its end reads a byte that, in a long source, has mostly left the
        // cache since the split found it.
        let Some(t) = self.counter.tokenizer else {
            return match self.counter.unit {
                Unit::Chars => self.chars(span),
                _ => self.counter.len(span.text(self.source)),
            };
        };
        // A span from one point where the source's tokenizing restarts to
        // another (a paragraph after a blank line, say) is the source's own
        // tokens between them: nothing to count afresh.
        if self.restarts_at(span.start) && self.restarts_at(span.end) {
            let ends = self.token_ends(t);
            return ends.before(span.end + 1) - ends.before(span.start + 1);
        }
        let text = span.text(self.source);
        let Some(first) = first_token_restart(self.source, span.start, span.end) else {
            return self.count(t, text);
        };
        let last = token_restart(self.source, first, span.end).unwrap_or(first);
        let ends = self.token_ends(t);
        // Tokens of the source ending in (first, last]: both are token ends.
        let upto_first = ends.before(first + 1);
        let upto_last = ends.before(last + 1);
        let between = upto_last - upto_first;
        self.count(t, &self.source[span.start..first])
            + between
            + self.count(t, &self.source[last..span.end])
    }

    /// Whether the source's tokenizing restarts at byte `at` (see
    /// [`token_restart`]): at either end of the source, or between two
    /// characters where it restarts.
    fn restarts_at(&self, at: usize) -> bool {
        let (before, after) = (&self.source[..at], &self.source[at..]);
        match (before.chars().next_back(), after.chars().next()) {
            (Some(b), Some(a)) => restarts_between(b, a),
            _ => true,
        }
    }

    /// The end of every token of the whole source, tokenized on first use.
    /// Where each of the whole source's tokens ends, for a token unit: the
    /// one tokenization every span's count reads, so an engine that needs
    /// the tokens' edges (Chonkie's windows) does not encode the text again.
    pub fn source_token_ends(&self) -> Option<&chunkscope_tokens::TokenEnds> {
        Some(self.token_ends(self.counter.tokenizer?))
    }

    fn token_ends(&self, t: &chunkscope_tokens::Tokenizer) -> &chunkscope_tokens::TokenEnds {
        self.token_ends.get_or_init(|| {
            // The heads and tails counted next share the memo of the whole
            // text's pass, which has seen their words.
            if self.source.len() < MEMO_SOURCE {
                return t.token_end_set(self.source);
            }
            let mut memo = self.memo.borrow_mut();
            t.token_end_set_with(
                self.source,
                memo.get_or_insert_with(chunkscope_tokens::PieceMemo::new),
            )
        })
    }

    /// `t.count(text)`, through the memo for a long source.
    fn count(&self, t: &chunkscope_tokens::Tokenizer, text: &str) -> usize {
        if self.source.len() < MEMO_SOURCE {
            return t.count(text);
        }
        let mut memo = self.memo.borrow_mut();
        t.count_with(
            text,
            memo.get_or_insert_with(chunkscope_tokens::PieceMemo::new),
        )
    }
}

/// How many bytes of a source [`CharTable`] counts together.
const BLOCK: usize = 64;

/// A source's UTF-8 continuation bytes (`0b10xx_xxxx`, the bytes that start
/// no char), counted per block of [`BLOCK`] bytes: the char offset of a
/// byte offset is the offset less the continuation bytes before it, which
/// are the count before its block plus those of its block before it.
///
/// # Invariant
///
/// For a source of `len` bytes, `before` has `len.div_ceil(BLOCK) + 1`
/// entries, and `before[k]` is the number of continuation bytes in
/// `source[..min(k * BLOCK, len)]`. The table takes a 16th of the source
/// in memory.
#[derive(Debug)]
pub(crate) struct CharTable {
    before: Vec<u32>,
}

impl CharTable {
    /// The table of `text`, or `None` when its offsets do not fit 32 bits.
    /// ASCII blocks are passed over whole; the others' continuation bytes
    /// are counted eight at a time ([`continuations_in`]).
    fn new(text: &str) -> Option<CharTable> {
        let bytes = text.as_bytes();
        u32::try_from(bytes.len()).ok()?;
        let mut before = Vec::with_capacity(bytes.len().div_ceil(BLOCK) + 1);
        let mut count = 0u32;
        before.push(count);
        for block in bytes.chunks(BLOCK) {
            if !block.is_ascii() {
                count += continuations_in(block) as u32;
            }
            before.push(count);
        }
        Some(CharTable { before })
    }

    /// The continuation bytes in `bytes[..pos]`; `bytes` is the source the
    /// table was made from, `pos` at most its length.
    #[inline]
    fn before(&self, bytes: &[u8], pos: usize) -> usize {
        let k = pos / BLOCK;
        let upto = self.before[k] as usize;
        // In an ASCII block (most blocks of most texts) there is nothing
        // to count.
        match self.before.get(k + 1) {
            Some(&next) if next as usize != upto => upto + continuations_in(&bytes[k * BLOCK..pos]),
            _ => upto,
        }
    }

    /// The number of chars before byte `offset` of `source` (a char
    /// boundary, or the source's length): what
    /// [`crate::CharCursor::char_offset`] gives. `source` is the text the
    /// table was made from.
    pub fn char_offset(&self, source: &str, offset: usize) -> usize {
        offset - self.before(source.as_bytes(), offset)
    }

    /// The byte offset where char `target` of `bytes` starts, or the
    /// length of `bytes` when `target` is its char count.
    fn char_start(&self, bytes: &[u8], target: usize) -> usize {
        // Chars before block k: its start less the continuation bytes
        // before it, which grows by at least 16 a block. The char is in
        // the last block whose count is at most `target`.
        let chars_before = |k: usize| (k * BLOCK).min(bytes.len()) - self.before[k] as usize;
        let (mut lo, mut hi) = (0, self.before.len());
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if chars_before(mid) <= target {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let mut chars = chars_before(lo);
        if self.before.get(lo + 1) == Some(&self.before[lo]) {
            // An ASCII block: a byte a char.
            return lo * BLOCK + (target - chars);
        }
        for (i, &b) in bytes.iter().enumerate().skip(lo * BLOCK) {
            if starts_char(b) {
                if chars == target {
                    return i;
                }
                chars += 1;
            }
        }
        bytes.len()
    }
}

/// The continuation bytes in `bytes` (at most a [`BLOCK`]), eight at a
/// time: each word's are marked by their high bit (a continuation byte is
/// 0b10xx_xxxx: its high bit set, and the next one, shifted up into the
/// high bit's place, clear), the marks of all words added up bytewise (at
/// most 8 a byte and 64 in all, so nothing carries) and the bytes of the
/// sum added up by one multiplication.
fn continuations_in(bytes: &[u8]) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    let mut words = bytes.chunks_exact(8);
    let marks = words.by_ref().fold(0, |sum, w| {
        let w = u64::from_le_bytes(w.try_into().expect("8 bytes"));
        sum + ((w & !(w << 1) & HIGH) >> 7)
    });
    let rest = words
        .remainder()
        .iter()
        .filter(|&&b| !starts_char(b))
        .count();
    (marks.wrapping_mul(ONES) >> 56) as usize + rest
}

/// The end of the text `n` tokens after `from` (see [`Unit::forward`]).
///
/// Tokenizes a prefix of the rest that grows until it holds more than `n`
/// tokens (a token is at least one byte, so the prefix stays near the
/// answer), takes the end of the `n`-th token, rounds it down to a char
/// boundary, and checks the count of the text so cut on its own: a cut can
/// change how the last word is tokenized, and the count is what is promised.
fn forward_tokens(t: &Tokenizer, text: &str, from: usize, n: usize) -> usize {
    let rest = &text[from..];
    if n == 0 || rest.is_empty() {
        return from;
    }
    let mut reach = n.saturating_mul(4).saturating_add(16);
    loop {
        let limit = floor_boundary(rest, reach.min(rest.len()));
        let ends = t.token_ends(&rest[..limit]);
        if ends.len() > n || limit == rest.len() {
            let mut k = n.min(ends.len());
            while k > 0 {
                let cut = if k == ends.len() {
                    limit
                } else {
                    floor_boundary(rest, ends[k - 1])
                };
                if cut > 0 && t.count(&rest[..cut]) <= n {
                    return from + cut;
                }
                k -= 1;
            }
            return from;
        }
        reach = reach.saturating_mul(2);
    }
}

/// The start of the text at most `n` tokens before `to`, not before `floor`
/// (see [`Unit::backward`]): the latest token start that leaves `n` tokens,
/// rounded up to a char boundary, moved on while the text counted on its own
/// holds more.
fn backward_tokens(t: &Tokenizer, text: &str, to: usize, n: usize, floor: usize) -> usize {
    let region = &text[floor..to];
    if n == 0 || region.is_empty() {
        return to;
    }
    let ends = t.token_ends(region);
    if ends.len() <= n {
        return floor;
    }
    for skip in ends.len() - n..ends.len() {
        let start = ceil_boundary(region, ends[skip - 1]);
        if start >= region.len() {
            break;
        }
        if t.count(&region[start..]) <= n {
            return floor + start;
        }
    }
    to
}

/// A point in `text[start..end]` where tokenizing may restart, the last one
/// if any: no token, and no piece of either encoding's pre-tokenizer, spans
/// it, and what comes before it is tokenized the same whether or not text
/// follows. So the tokens of `text[start..end]` are the tokens of the two
/// sides, counted apart. Two kinds of point qualify:
///
/// - right after a newline, before a character that is neither whitespace nor
///   `/`: the patterns only continue past a newline into more whitespace (or,
///   in o200k, into `/`);
/// - between a character that is not whitespace and a whitespace character
///   that is not `\r` or `\n` (a space between words): the only pieces that
///   hold a non-space followed by whitespace are punctuation followed by
///   newlines, and whitespace only ever starts a piece.
///
/// Both hold for cl100k and o200k; a test checks every such point against the
/// tokenizer itself.
pub(crate) fn token_restart(text: &str, start: usize, end: usize) -> Option<usize> {
    let mut after = text[..end].chars().next_back()?;
    let mut at = end - after.len_utf8();
    for before in text[start..at].chars().rev() {
        if restarts_between(before, after) {
            return Some(at);
        }
        at -= before.len_utf8();
        after = before;
    }
    None
}

/// The first point in `text[start..end]` where tokenizing may restart (see
/// [`token_restart`]).
fn first_token_restart(text: &str, start: usize, end: usize) -> Option<usize> {
    let mut chars = text[start..end].char_indices();
    let (_, mut before) = chars.next()?;
    for (i, after) in chars {
        if restarts_between(before, after) {
            return Some(start + i);
        }
        before = after;
    }
    None
}

/// Whether tokenizing restarts between two adjacent characters (see
/// [`token_restart`]).
#[inline]
fn restarts_between(before: char, after: char) -> bool {
    if before == '\n' || before == '\r' {
        !is_space(after) && after != '/'
    } else {
        !is_space(before) && after.is_whitespace() && after != '\n' && after != '\r'
    }
}

/// Whether `b` starts a char in UTF-8 (is not a continuation byte).
#[inline]
fn starts_char(b: u8) -> bool {
    (b as i8) >= -0x40
}

/// The offset `n` chars after `from` (a char boundary) in `bytes` (UTF-8), or
/// the end. Decoding char by char costs a few instructions per byte; instead,
/// an ASCII stretch is skipped whole, and otherwise 64-byte blocks whose char
/// starts are all to be skipped are counted with a branch-free filter.
fn forward_chars(bytes: &[u8], from: usize, n: usize) -> usize {
    let rest = &bytes[from..];
    match rest.get(..n) {
        Some(window) if window.is_ascii() => return from + n,
        None if rest.is_ascii() => return bytes.len(),
        _ => {}
    }
    const BLOCK: usize = 64;
    let (mut i, mut remaining) = (0, n);
    while let Some(block) = rest.get(i..i + BLOCK) {
        let starts = block.iter().filter(|&&b| starts_char(b)).count();
        if starts > remaining {
            break;
        }
        remaining -= starts;
        i += BLOCK;
    }
    for (j, &b) in rest[i..].iter().enumerate() {
        if starts_char(b) {
            if remaining == 0 {
                return from + i + j;
            }
            remaining -= 1;
        }
    }
    bytes.len()
}

pub(crate) fn floor_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

pub(crate) fn ceil_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chars_of_spans_are_counted_exactly_with_or_without_the_table() {
        let chars = Counter::CHARS;
        // Few non-ASCII characters (the table), then many (counting).
        let few = format!(
            "{}é{}😀 中\n{}",
            "a".repeat(90),
            "b ".repeat(40),
            "c".repeat(33)
        );
        let many = "é中😀a".repeat(9);
        for text in [few.as_str(), many.as_str(), "", "x"] {
            let measure = Measure::new(chars, text);
            let points: Vec<usize> = (0..=text.len())
                .filter(|&i| text.is_char_boundary(i))
                .collect();
            for &a in &points {
                for &b in points.iter().filter(|&&b| b >= a) {
                    let span = Span::new(a, b);
                    assert_eq!(measure.chars(span), span.text(text).chars().count());
                    assert_eq!(measure.len(span), measure.chars(span));
                }
            }
        }
    }

    #[test]
    fn continuation_bytes_are_counted_at_every_offset_of_a_block() {
        // One or two non-ASCII characters at every position around the
        // 64-byte blocks and in the tail after the last whole block (the
        // text's end moves within the block with `p`); the count before
        // every offset is compared with one made byte by byte.
        let mut compared = 0;
        for len in [0, 7, 63, 64, 65, 130, 200] {
            for p in 0..len {
                for extra in [None, Some("中"), Some("😀")] {
                    let mut text = format!("{}é{}", "a".repeat(p), "b".repeat(len - p));
                    if let Some(c) = extra {
                        text.push_str(c);
                    }
                    text.push_str(&"c".repeat(p % 70));
                    let table = CharTable::new(&text).unwrap();
                    let bytes = text.as_bytes();
                    for pos in 0..=bytes.len() {
                        let want = bytes[..pos].iter().filter(|&&b| !starts_char(b)).count();
                        assert_eq!(table.before(bytes, pos), want, "{text:?} at {pos}");
                        compared += 1;
                    }
                }
            }
        }
        assert_eq!(compared, 266_746);
    }

    #[test]
    fn char_start_is_where_each_char_starts() {
        let text = format!(
            "{}é{}中😀b{}",
            "a".repeat(70),
            "c".repeat(40),
            "d".repeat(90)
        );
        let measure = Measure::new(Counter::CHARS, &text);
        assert_eq!(measure.char_start(0), None, "no table before counting");
        let total = measure.chars(Span::new(0, text.len()));
        let starts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        for (target, &want) in starts.iter().enumerate() {
            assert_eq!(measure.char_start(target), Some(want), "char {target}");
        }
        assert_eq!(measure.char_start(total), Some(text.len()));
    }

    #[test]
    fn forward_counts_chars_and_floors_bytes() {
        let s = "aé😀b";
        assert_eq!(Counter::CHARS.forward(s, 0, 2), 3);
        assert_eq!(Counter::CHARS.forward(s, 0, 10), s.len());
        assert_eq!(Counter::BYTES.forward(s, 0, 2), 1);
        assert_eq!(Counter::BYTES.forward(s, 0, 3), 3);
    }

    #[test]
    fn forward_agrees_with_decoding_char_by_char() {
        let texts = [
            "plain ascii text".repeat(10),
            "a😀é\u{301}中文 ".repeat(40),
            format!("{}é{}", "x".repeat(100), "y".repeat(100)),
            "é".repeat(150),
            String::new(),
        ];
        for text in &texts {
            let starts: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
            for &from in starts.iter().chain([&text.len()]) {
                for n in [0, 1, 2, 3, 7, 63, 64, 65, 100, 200, 1000, usize::MAX] {
                    let expected = text[from..]
                        .char_indices()
                        .nth(n)
                        .map_or(text.len(), |(i, _)| from + i);
                    assert_eq!(
                        Counter::CHARS.forward(text, from, n),
                        expected,
                        "{from} {n}"
                    );
                }
            }
        }
    }

    #[test]
    fn backward_counts_chars_and_ceils_bytes() {
        let s = "aé😀b";
        assert_eq!(Counter::CHARS.backward(s, s.len(), 2, 0), 3);
        assert_eq!(Counter::CHARS.backward(s, s.len(), 9, 1), 1);
        assert_eq!(Counter::CHARS.backward(s, s.len(), 0, 0), s.len());
        assert_eq!(Counter::BYTES.backward(s, s.len(), 3, 0), 7);
    }

    /// Random-ish texts full of the places where tokenizing could restart:
    /// newlines before letters, digits, punctuation, `/`, whitespace, CJK and
    /// emoji, in every mix.
    #[cfg(feature = "tiktoken")]
    fn restart_texts() -> Vec<String> {
        const ATOMS: [&str; 34] = [
            "\n",
            "\r\n",
            "\n\n",
            " \n",
            "\t\n",
            "word",
            "Word",
            "'s",
            "123",
            "4567",
            "!",
            "//",
            "/",
            " ",
            "  ",
            "\u{a0}",
            "\u{3000}",
            "中文",
            "😀",
            "e\u{301}",
            "\u{1f}",
            ".\n",
            "don't",
            "'LL",
            "ſ",
            "Ⅻ",
            "\u{301}",
            "\u{85}",
            "\u{2028}",
            "x/",
            "/ ",
            "!\n/",
            "\t",
            "camelCase",
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..2000)
            .map(|_| {
                let n = (next() % 40) as usize;
                (0..n)
                    .map(|_| ATOMS[(next() % ATOMS.len() as u64) as usize])
                    .collect()
            })
            .collect()
    }

    #[cfg(feature = "tiktoken")]
    #[test]
    fn tokens_restart_after_a_newline_before_a_word() {
        for encoding in Encoding::ALL {
            let t = Tokenizer::shared(encoding).unwrap();
            for text in restart_texts() {
                let mut end = text.len();
                while let Some(at) = token_restart(&text, 0, end) {
                    assert_eq!(
                        t.count(&text[..end]),
                        t.count(&text[..at]) + t.count(&text[at..end]),
                        "{encoding}: {:?} | {:?}",
                        &text[..at],
                        &text[at..end]
                    );
                    end = at;
                }
            }
        }
    }

    #[cfg(feature = "tiktoken")]
    #[test]
    fn token_windows_hold_at_most_n_tokens_and_end_on_chars() {
        let unit = Counter::with_tokenizer(Tokenizer::shared(Encoding::Cl100k).unwrap());
        for text in restart_texts() {
            for n in [1, 2, 3, 7] {
                let mut from = 0;
                while from < text.len() {
                    let end = unit.forward(&text, from, n);
                    assert!(text.is_char_boundary(end));
                    if end == from {
                        // Only a character that is more than n tokens stops it.
                        let ch = text[from..].chars().next().unwrap();
                        assert!(unit.len(ch.encode_utf8(&mut [0; 4])) > n);
                        break;
                    }
                    assert!(unit.len(&text[from..end]) <= n);
                    let start = unit.backward(&text, end, n, from);
                    assert!(text.is_char_boundary(start) && start >= from);
                    assert!(unit.len(&text[start..end]) <= n);
                    from = end;
                }
            }
        }
        assert_eq!(unit.forward("hello world", 0, 1), 5);
        assert_eq!(unit.backward("hello world", 11, 1, 0), 5);
        assert_eq!(unit.len("hello world"), 2);
    }

    #[cfg(feature = "tiktoken")]
    #[test]
    fn measured_token_spans_count_their_own_text() {
        for encoding in Encoding::ALL {
            let unit = Counter::with_tokenizer(Tokenizer::shared(encoding).unwrap());
            let short: String = restart_texts().concat();
            // Long enough for the memos (the whole text's pass and the spans'
            // heads and tails share one), with pieces over 16 and over 64
            // bytes that recur.
            let long = format!(
                "{short}\n{}",
                [
                    "fn main() {\n",
                    &" ".repeat(40),
                    "let asyncLocalStorageCreateReadStream = 1;\n",
                    &"=".repeat(70),
                    "\n",
                    &short,
                ]
                .concat()
                .repeat(MEMO_SOURCE / short.len() + 1)
            );
            assert!(long.len() > MEMO_SOURCE);
            // Spans from one point where the source's tokenizing restarts
            // to another, which are counted from the source's tokens alone.
            let measure = Measure::new(unit, &short);
            let restarts: Vec<usize> = (0..=short.len())
                .filter(|&p| short.is_char_boundary(p) && measure.restarts_at(p))
                .collect();
            assert!(restarts.len() > 100, "{} restart points", restarts.len());
            for (k, &a) in restarts.iter().enumerate() {
                for &b in &restarts[k..(k + 12).min(restarts.len())] {
                    assert_eq!(
                        measure.len(Span::new(a, b)),
                        unit.len(&short[a..b]),
                        "{encoding} {a}..{b}: {:?}",
                        &short[a..b]
                    );
                }
            }
            // (source, bounds every `step` chars, spans over every `stride`-th
            // bound after the start): the long source's spans stay short, as
            // a split's are, or the test tokenizes megabytes.
            for (source, step, stride) in [(short, 7, 13), (long, 211, 1)] {
                let measure = Measure::new(unit, &source);
                let bounds: Vec<usize> = source
                    .char_indices()
                    .map(|(i, _)| i)
                    .step_by(step)
                    .chain([source.len()])
                    .collect();
                for (k, &a) in bounds.iter().enumerate() {
                    for &b in bounds[k..].iter().step_by(stride).take(12) {
                        assert_eq!(
                            measure.len(Span::new(a, b)),
                            unit.len(&source[a..b]),
                            "{encoding} {a}..{b}: {:?}",
                            &source[a..b]
                        );
                    }
                }
            }
        }
    }
}
