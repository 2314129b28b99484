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
            Unit::Chars => forward_chars(text.as_bytes(), from, n),
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
    fn forward_counts_chars_and_floors_bytes() {
        let s = "aé😀b";
        assert_eq!(Unit::Chars.forward(s, 0, 2), 3);
        assert_eq!(Unit::Chars.forward(s, 0, 10), s.len());
        assert_eq!(Unit::Bytes.forward(s, 0, 2), 1);
        assert_eq!(Unit::Bytes.forward(s, 0, 3), 3);
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
                    assert_eq!(Unit::Chars.forward(text, from, n), expected, "{from} {n}");
                }
            }
        }
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
