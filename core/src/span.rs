//! Byte spans into the source text, and the char offsets a person sees.

use std::ops::Range;

/// A half-open byte range `[start, end)` into the source text.
///
/// # Invariant
///
/// `start <= end`, and both offsets are char boundaries of the text the span was
/// made for. Every chunk's text is `&source[span]`: a span is never turned into a
/// copy and joined back, so offsets cannot drift. Trimming moves a span's ends; it
/// never changes the text in between.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte of the span.
    pub start: usize,
    /// One past the last byte of the span.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (bytes). Panics in debug builds if `start > end`.
    pub const fn new(start: usize, end: usize) -> Span {
        debug_assert!(start <= end);
        Span { start, end }
    }

    /// Length in bytes.
    pub const fn len(&self) -> usize {
        self.end - self.start
    }

    /// True when the span covers no text.
    pub const fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// The text the span covers.
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        &source[self.start..self.end]
    }

    /// The part both spans cover, if they share at least one byte.
    pub fn intersect(&self, other: Span) -> Option<Span> {
        let start = self.start.max(other.start);
        let end = self.end.min(other.end);
        (start < end).then_some(Span { start, end })
    }

    /// The span as a `Range`, for slicing.
    pub const fn range(&self) -> Range<usize> {
        self.start..self.end
    }
}

impl From<Range<usize>> for Span {
    fn from(r: Range<usize>) -> Span {
        Span::new(r.start, r.end)
    }
}

/// Whitespace as trimming sees it: Python's, so that trimming agrees with
/// `str.strip()`, the reference the lessons (and LangChain) are written in.
pub use chunkscope_pyre::is_space;

/// `span` with leading and trailing whitespace ([`is_space`]) moved out of it.
pub fn trim(source: &str, span: Span) -> Span {
    let text = span.text(source);
    let start = span.start + (text.len() - text.trim_start_matches(is_space).len());
    let end = span.start + text.trim_end_matches(is_space).len();
    if start >= end {
        Span::new(start.min(end), start.min(end))
    } else {
        Span::new(start, end)
    }
}

/// Converts byte offsets of one text into char offsets (what a person counts, what
/// the browser's string offsets are for BMP text, and what Python's `len` gives).
///
/// Keeps one checkpoint per 256 bytes, so a lookup counts at most 256 bytes and the
/// table is about 3% of the text's size.
#[derive(Clone, Debug)]
pub struct CharIndex<'a> {
    text: &'a str,
    checkpoints: Vec<usize>,
}

const CHECKPOINT: usize = 256;

impl<'a> CharIndex<'a> {
    /// Builds the index in one pass over `text`.
    pub fn new(text: &'a str) -> CharIndex<'a> {
        let bytes = text.as_bytes();
        let mut checkpoints = Vec::with_capacity(bytes.len() / CHECKPOINT + 1);
        let mut count = 0;
        for block in bytes.chunks(CHECKPOINT) {
            checkpoints.push(count);
            count += block.iter().filter(|&&b| (b as i8) >= -0x40).count();
        }
        checkpoints.push(count);
        CharIndex { text, checkpoints }
    }

    /// The number of chars before byte `offset` (which must be a char boundary, or
    /// the text's length).
    pub fn char_offset(&self, offset: usize) -> usize {
        let block = offset / CHECKPOINT;
        let base = self.checkpoints[block];
        let from = block * CHECKPOINT;
        base + self.text.as_bytes()[from..offset]
            .iter()
            .filter(|&&b| (b as i8) >= -0x40)
            .count()
    }

    /// The char offsets of a span's ends.
    pub fn char_span(&self, span: Span) -> (usize, usize) {
        (self.char_offset(span.start), self.char_offset(span.end))
    }

    /// The total number of chars in the text.
    pub fn char_len(&self) -> usize {
        *self.checkpoints.last().unwrap_or(&0)
    }
}

/// Byte → char offsets for positions that mostly move forward (the chunks of
/// a split, in order): each lookup counts the chars between the previous
/// position and this one, so a whole pass costs one count of the text and no
/// table. A position behind the previous one is counted backwards.
#[derive(Clone, Debug)]
pub struct CharCursor<'a> {
    text: &'a str,
    byte: usize,
    char: usize,
}

impl<'a> CharCursor<'a> {
    /// A cursor at the start of `text`.
    pub fn new(text: &'a str) -> CharCursor<'a> {
        CharCursor {
            text,
            byte: 0,
            char: 0,
        }
    }

    /// The number of chars before byte `offset` (a char boundary, or the
    /// text's length); the cursor moves there.
    pub fn char_offset(&mut self, offset: usize) -> usize {
        if offset >= self.byte {
            self.char += self.text[self.byte..offset].chars().count();
        } else {
            self.char -= self.text[offset..self.byte].chars().count();
        }
        self.byte = offset;
        self.char
    }

    /// The char offsets of a span's ends.
    pub fn char_span(&mut self, span: Span) -> (usize, usize) {
        let start = self.char_offset(span.start);
        (start, self.char_offset(span.end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trim_moves_the_span_not_the_text() {
        let s = "  héllo \n";
        let t = trim(s, Span::new(0, s.len()));
        assert_eq!(t.text(s), "héllo");
        assert_eq!(t, Span::new(2, 8));
    }

    #[test]
    fn the_cursor_counts_as_the_index_does() {
        let s = "aé中😀 b\nç";
        let index = CharIndex::new(s);
        let mut cursor = CharCursor::new(s);
        let points: Vec<usize> = (0..=s.len()).filter(|&i| s.is_char_boundary(i)).collect();
        // Forward, backward, and jumping about.
        let order = points
            .iter()
            .chain(points.iter().rev())
            .chain(points.iter().step_by(3).rev());
        for &p in order {
            assert_eq!(cursor.char_offset(p), index.char_offset(p), "at byte {p}");
        }
    }

    #[test]
    fn trim_of_whitespace_is_empty() {
        let s = " \t\u{3000} ";
        assert!(trim(s, Span::new(0, s.len())).is_empty());
    }

    #[test]
    fn information_separators_are_space_like_python() {
        assert!(is_space('\u{1f}'));
        assert!(!is_space('\u{200b}'));
    }

    #[test]
    fn char_index_matches_counting() {
        let s = "a😀é\u{301}".repeat(200);
        let idx = CharIndex::new(&s);
        for (i, (b, _)) in s.char_indices().enumerate() {
            assert_eq!(idx.char_offset(b), i);
        }
        assert_eq!(idx.char_offset(s.len()), s.chars().count());
        assert_eq!(idx.char_len(), s.chars().count());
    }
}
