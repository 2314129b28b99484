//! What `size` and `overlap` count.

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
}

impl Unit {
    /// Every unit, in the order the UI lists them.
    pub const ALL: [Unit; 2] = [Unit::Chars, Unit::Bytes];

    /// The length of `text` in this unit.
    pub fn len(self, text: &str) -> usize {
        match self {
            Unit::Chars => text.chars().count(),
            Unit::Bytes => text.len(),
        }
    }

    /// The byte offset `n` units after `from` in `text`, or the end of `text`.
    /// For bytes the result is rounded down to a char boundary, so the text from
    /// `from` to the result never holds more than `n` units.
    pub(crate) fn forward(self, text: &str, from: usize, n: usize) -> usize {
        match self {
            Unit::Chars => text[from..]
                .char_indices()
                .nth(n)
                .map_or(text.len(), |(i, _)| from + i),
            Unit::Bytes => floor_boundary(text, from.saturating_add(n).min(text.len())),
        }
    }

    /// The byte offset at most `n` units before `to`, but not before `floor`.
    /// For bytes the result is rounded up to a char boundary, so the text from the
    /// result to `to` never holds more than `n` units.
    pub(crate) fn backward(self, text: &str, to: usize, n: usize, floor: usize) -> usize {
        match self {
            Unit::Chars => text[floor..to]
                .char_indices()
                .rev()
                .nth(n.saturating_sub(1))
                .map_or(floor, |(i, _)| if n == 0 { to } else { floor + i }),
            Unit::Bytes => ceil_boundary(text, to.saturating_sub(n).max(floor)),
        }
    }

    /// The name used in the CLI, the JS API and the UI's `unit-select`.
    pub const fn name(self) -> &'static str {
        match self {
            Unit::Chars => "chars",
            Unit::Bytes => "bytes",
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
        match s {
            "chars" => Ok(Unit::Chars),
            "bytes" => Ok(Unit::Bytes),
            other => Err(format!(
                "unknown unit {other:?}: use \"chars\" (Unicode characters) or \"bytes\" (UTF-8 bytes)"
            )),
        }
    }
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
    fn forward_counts_chars_and_floors_bytes() {
        let s = "aé😀b";
        assert_eq!(Unit::Chars.forward(s, 0, 2), 3);
        assert_eq!(Unit::Chars.forward(s, 0, 10), s.len());
        assert_eq!(Unit::Bytes.forward(s, 0, 2), 1);
        assert_eq!(Unit::Bytes.forward(s, 0, 3), 3);
    }

    #[test]
    fn backward_counts_chars_and_ceils_bytes() {
        let s = "aé😀b";
        assert_eq!(Unit::Chars.backward(s, s.len(), 2, 0), 3);
        assert_eq!(Unit::Chars.backward(s, s.len(), 9, 1), 1);
        assert_eq!(Unit::Chars.backward(s, s.len(), 0, 0), s.len());
        assert_eq!(Unit::Bytes.backward(s, s.len(), 3, 0), 7);
    }
}
