//! Offsets in UTF-16 code units, the ones JavaScript strings are indexed by.
//!
//! The reports count chars (Unicode scalar values, as Python's `len` and the
//! CLI do). A JavaScript string counts a character outside the Basic
//! Multilingual Plane (an emoji, `𝒳`) as two code units, a surrogate pair,
//! so `text.slice(start, end)` with char offsets drifts by one after each
//! such character. The JavaScript API therefore gives each chunk its
//! UTF-16 offsets as well (`utf16_start`, `utf16_end`).

/// Converts char offsets of one text to UTF-16 offsets.
///
/// A char takes two UTF-16 units exactly when it takes four UTF-8 bytes, and
/// a four-byte char is the only one whose lead byte is `0xF0` or above, so the
/// UTF-16 offset of a position is its char offset plus the number of such
/// lead bytes before it. The index keeps their byte positions (none for text
/// within the Basic Multilingual Plane).
#[derive(Clone, Debug)]
pub struct Utf16Index {
    astral: Vec<usize>,
}

impl Utf16Index {
    /// Builds the index in one pass over `text`.
    pub fn new(text: &str) -> Utf16Index {
        let astral = text
            .bytes()
            .enumerate()
            .filter(|&(_, b)| b >= 0xF0)
            .map(|(at, _)| at)
            .collect();
        Utf16Index { astral }
    }

    /// The UTF-16 offset of the position at byte `byte` and char `chars`
    /// (both offsets of the same char boundary).
    pub fn offset(&self, byte: usize, chars: usize) -> usize {
        chars + self.astral.partition_point(|&at| at < byte)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_boundary_is_the_length_of_the_utf16_text_before_it() {
        let text = "a😀b𝒳c é中\u{10FFFF}\u{FFFF}z";
        let index = Utf16Index::new(text);
        let mut compared = 0;
        for (chars, (byte, _)) in text.char_indices().chain([(text.len(), ' ')]).enumerate() {
            let want = text[..byte].encode_utf16().count();
            assert_eq!(index.offset(byte, chars), want, "at byte {byte}");
            compared += 1;
        }
        assert_eq!(compared, text.chars().count() + 1);
        assert_eq!(index.offset(text.len(), text.chars().count()), 14);
    }

    #[test]
    fn text_within_the_basic_plane_keeps_its_char_offsets() {
        let index = Utf16Index::new("Crème brûlée 中文 \u{FFFF}");
        assert!(index.astral.is_empty());
        assert_eq!(index.offset(7, 6), 6);
    }
}
