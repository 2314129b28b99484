//! The pre-tokenizer: tiktoken cuts text into pieces with a regex before BPE,
//! and BPE never merges across two pieces. This file is that regex, written out
//! as code, for the two patterns of tiktoken-rs 0.12.1
//! (`tiktoken_ext/openai_public.rs`).
//!
//! # Why not a regex crate
//!
//! The patterns need possessive quantifiers and a lookahead, so tiktoken uses
//! `fancy-regex`; that plus `regex` would add well over 100 KB to the browser
//! build. Each pattern is a list of alternatives tried in order at the current
//! position (leftmost-first), and every character is matched by at least one
//! of them, so the pieces tile the text with no gaps. A piece therefore always
//! starts where the previous one ended, and all that is needed is "where does
//! the piece starting here end" — one function per pattern, below, with one
//! block per alternative, in the pattern's order.
//!
//! # The semantics reproduced
//!
//! - Alternatives are tried in order; the first that matches wins, even if a
//!   later one would match more.
//! - Greedy quantifiers take as much as they can and give back one character at
//!   a time when what follows fails; possessive ones (`?+`, `++`, `*+`) never
//!   give back. Where giving back cannot change the outcome the code does not
//!   try; where it can (`\s*[\r\n]`, `\s+(?!\S)`, o200k's `[…]*[…]+`) the
//!   comments say what the backtracking finds.
//! - `$` is the end of the text (not "before a final newline"), `(?!\S)` means
//!   "followed by white space or the end".
//! - `(?i:…)` uses Unicode simple case folding, as the `regex` crate does:
//!   `'ſ` (U+017F) is a contraction like `'s`. No other character folds to one
//!   of `s t d m l v e r` (tested against the regex crate below).
//! - `\s` is White_Space, `\p{…}` the general categories (see `unicode.rs`).
//!
//! These are the semantics of `fancy-regex`, which runs the patterns in
//! tiktoken-rs: it backtracks through the hard parts and hands the rest to the
//! `regex` crate, whose leftmost-first matches are the ones a backtracker
//! finds. `tests/tokens.rs` compares the pieces with `fancy-regex`'s matches
//! of the very same pattern strings.

use super::unicode::{class_at, skip_letters, skip_while, Class};
use super::Encoding;
use std::ops::Range;

/// The pieces of a text, as byte ranges that tile it in order. Made by
/// [`Encoding::pieces`](super::Encoding::pieces).
#[derive(Clone, Debug)]
pub struct Pieces<'a> {
    text: &'a [u8],
    at: usize,
    encoding: Encoding,
}

impl<'a> Pieces<'a> {
    pub(crate) fn new(encoding: Encoding, text: &'a str) -> Pieces<'a> {
        Pieces {
            text: text.as_bytes(),
            at: 0,
            encoding,
        }
    }
}

impl Iterator for Pieces<'_> {
    type Item = Range<usize>;

    #[inline]
    fn next(&mut self) -> Option<Range<usize>> {
        if self.at >= self.text.len() {
            return None;
        }
        let start = self.at;
        let end = match self.encoding {
            Encoding::Cl100k => cl100k_piece_end(self.text, start),
            Encoding::O200k => o200k_piece_end(self.text, start),
        };
        self.at = end;
        Some(start..end)
    }
}

/// Where the piece that starts at `start` ends, for cl100k:
///
/// ```text
/// '(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s
/// ```
///
/// `start` < `text.len()` is a char boundary; the result is a later one.
fn cl100k_piece_end(text: &[u8], start: usize) -> usize {
    let first = text[start];
    let (class, len) = class_at(text, start);

    // '(?i:[sdmt]|ll|ve|re)
    if first == b'\'' {
        if let Some(end) = contraction_end(text, start) {
            return end;
        }
    }

    // [^\r\n\p{L}\p{N}]?+\p{L}++ — one optional non-letter prefix (a space, a
    // punctuation mark, a tab…), then all the letters. Possessive, but giving
    // back the prefix could not help: it is not a letter.
    let letters_from = if takes_word_prefix(first, class) {
        start + len
    } else {
        start
    };
    let letters_end = skip_letters(text, letters_from);
    if letters_end > letters_from {
        return letters_end;
    }

    // \p{N}{1,3}+
    if class == Class::Number {
        return numbers_end(text, start + len);
    }

    // ` ?[^\s\p{L}\p{N}]++[\r\n]*+` — punctuation, optionally after one space,
    // then any CR/LF. (If the space were given back, the run would have to
    // start with the space, which is not punctuation.)
    if let Some(end) = punctuation_end(text, start, first, b"\r\n") {
        return end;
    }

    // Only white space is left: every other class matched above.
    let run = SpaceRun::at(text, start);
    if run.end == start {
        debug_assert!(false, "no cl100k alternative matched at {start}");
        return start + len;
    }
    // \s++$
    if run.end == text.len() {
        return run.end;
    }
    // \s*[\r\n] — the greedy \s* gives back until a CR or LF follows: up to
    // and including the run's last CR/LF.
    if let Some(end) = run.last_line_break_end {
        return end;
    }
    // \s+(?!\S) — the run is followed by a non-space, so \s+ gives back its
    // last character (which then is the white space the lookahead sees).
    if run.last_char_start > start {
        return run.last_char_start;
    }
    // \s
    start + len
}

/// Where the piece that starts at `start` ends, for o200k:
///
/// ```text
/// [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
/// |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
/// |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
/// ```
///
/// `start` < `text.len()` is a char boundary; the result is a later one.
fn o200k_piece_end(text: &[u8], start: usize) -> usize {
    let first = text[start];
    let (class, len) = class_at(text, start);

    // The two word alternatives. Their optional prefix is greedy, not
    // possessive, and a mark is both a possible prefix and a word character,
    // so each alternative is tried with the prefix and, failing that, without.
    let prefix_end = takes_word_prefix(first, class).then_some(start + len);
    let word_end = prefix_end
        .and_then(|from| lower_word_end(text, from))
        .or_else(|| lower_word_end(text, start))
        .or_else(|| prefix_end.and_then(|from| upper_word_end(text, from)))
        .or_else(|| upper_word_end(text, start));
    if let Some(end) = word_end {
        // (?i:'s|'t|'re|'ve|'m|'ll|'d)?
        if text.get(end) == Some(&b'\'') {
            if let Some(contraction) = contraction_end(text, end) {
                return contraction;
            }
        }
        return end;
    }

    // \p{N}{1,3}
    if class == Class::Number {
        return numbers_end(text, start + len);
    }

    // ` ?[^\s\p{L}\p{N}]+[\r\n/]*` — greedy, not possessive, but nothing after
    // the punctuation run can fail, so nothing is ever given back.
    if let Some(end) = punctuation_end(text, start, first, b"\r\n/") {
        return end;
    }

    // Only white space is left.
    let run = SpaceRun::at(text, start);
    if run.end == start {
        debug_assert!(false, "no o200k alternative matched at {start}");
        return start + len;
    }
    // \s*[\r\n]+ — up to and including the run's last CR/LF (the greedy \s*
    // gives back until one follows; after the last one, [\r\n]+ stops).
    if let Some(end) = run.last_line_break_end {
        return end;
    }
    // \s+(?!\S) — all of a run that ends the text; otherwise all but the last
    // character, if that leaves any.
    if run.end == text.len() {
        return run.end;
    }
    if run.last_char_start > start {
        return run.last_char_start;
    }
    // \s+ (a single white-space character before a non-space)
    run.end
}

/// Whether `[^\r\n\p{L}\p{N}]` matches the character (lead byte `first`, class
/// `class`): the optional one-character prefix of a word.
#[inline]
fn takes_word_prefix(first: u8, class: Class) -> bool {
    !class.is_letter() && class != Class::Number && first != b'\r' && first != b'\n'
}

/// o200k's `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+` from
/// `from`: a word that contains a lowercase-or-caseless character.
///
/// The greedy `*` takes the whole upper-or-caseless run, then gives back one
/// character at a time until the `+` can start: at the run's end if the next
/// character is lower-or-caseless (a lowercase letter), else at the run's last
/// caseless character (modifier, other letter, mark), which then is the whole
/// `+` (what follows it is uppercase or titlecase or outside the run).
fn lower_word_end(text: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    let mut last_caseless = None;
    let lower_from = loop {
        if at == text.len() {
            break last_caseless?;
        }
        let (class, len) = class_at(text, at);
        if !class.is_upper_or_caseless() {
            // Outside the run, only a lowercase letter is lower-or-caseless.
            break if class == Class::Lowercase {
                at
            } else {
                last_caseless?
            };
        }
        if class.is_lower_or_caseless() {
            last_caseless = Some(at);
        }
        at += len;
    };
    Some(skip_while(text, lower_from, Class::is_lower_or_caseless))
}

/// o200k's `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*` from
/// `from`. Both greedy, and what follows cannot fail, so no backtracking.
fn upper_word_end(text: &[u8], from: usize) -> Option<usize> {
    let upper_end = skip_while(text, from, Class::is_upper_or_caseless);
    (upper_end > from).then(|| skip_while(text, upper_end, Class::is_lower_or_caseless))
}

/// `\p{N}{1,3}` after the first number, which ends at `at`.
fn numbers_end(text: &[u8], mut at: usize) -> usize {
    for _ in 0..2 {
        if at >= text.len() {
            break;
        }
        let (class, len) = class_at(text, at);
        if class != Class::Number {
            break;
        }
        at += len;
    }
    at
}

/// ` ?[^\s\p{L}\p{N}]+[TAIL]*` at `start` (lead byte `first`), where TAIL is
/// the set of ASCII bytes `tail`; `None` when there is no punctuation.
fn punctuation_end(text: &[u8], start: usize, first: u8, tail: &[u8]) -> Option<usize> {
    let from = if first == b' ' { start + 1 } else { start };
    let end = skip_while(text, from, Class::is_punctuation);
    if end == from {
        return None;
    }
    let tail_len = text[end..].iter().take_while(|b| tail.contains(b)).count();
    Some(end + tail_len)
}

/// The maximal run of white space that starts at `start`, and the positions
/// the white-space alternatives need.
struct SpaceRun {
    /// Where the run ends (== start if the text there is not white space).
    end: usize,
    /// Just after the run's last `\r` or `\n`, if it has one.
    last_line_break_end: Option<usize>,
    /// Where the run's last character starts.
    last_char_start: usize,
}

impl SpaceRun {
    fn at(text: &[u8], start: usize) -> SpaceRun {
        let mut run = SpaceRun {
            end: start,
            last_line_break_end: None,
            last_char_start: start,
        };
        while run.end < text.len() {
            let (class, len) = class_at(text, run.end);
            if class != Class::Space {
                break;
            }
            if matches!(text[run.end], b'\r' | b'\n') {
                run.last_line_break_end = Some(run.end + 1);
            }
            run.last_char_start = run.end;
            run.end += len;
        }
        run
    }
}

/// The contraction `'(?i:s|t|re|ve|m|ll|d)` starting with the apostrophe at
/// `apostrophe`: where it ends, or `None`. Both patterns have this same set of
/// suffixes (cl100k spells it `[sdmt]|ll|ve|re`); they start with different
/// letters, so the order of the alternatives does not matter.
fn contraction_end(text: &[u8], apostrophe: usize) -> Option<usize> {
    let at = apostrophe + 1;
    for letter in [b's', b't', b'd', b'm'] {
        if let Some(len) = folds_to(text, at, letter) {
            return Some(at + len);
        }
    }
    for [a, b] in [*b"re", *b"ve", *b"ll"] {
        if let Some(first) = folds_to(text, at, a) {
            if let Some(second) = folds_to(text, at + first, b) {
                return Some(at + first + second);
            }
        }
    }
    None
}

/// The length of the character at `at` if it is `letter` (an ASCII lowercase
/// letter) under Unicode simple case folding: the letter, its uppercase, and
/// for `s` the long s `ſ` (U+017F, UTF-8 `C5 BF`).
#[inline]
fn folds_to(text: &[u8], at: usize, letter: u8) -> Option<usize> {
    let byte = *text.get(at)?;
    if byte | 0x20 == letter {
        Some(1)
    } else if letter == b's' && byte == 0xC5 && text.get(at + 1) == Some(&0xBF) {
        Some(2)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(encoding: Encoding, text: &str) -> Vec<&str> {
        Pieces::new(encoding, text).map(|r| &text[r]).collect()
    }

    #[test]
    fn cl100k_hand_picked() {
        let cases: &[(&str, &[&str])] = &[
            ("Hello world", &["Hello", " world"]),
            (
                "I'm here, they'LL go",
                &["I", "'m", " here", ",", " they", "'LL", " go"],
            ),
            ("it'ſ", &["it", "'ſ"]),
            ("'sup", &["'s", "up"]),
            ("don't", &["don", "'t"]),
            ("12345 678", &["123", "45", " ", "678"]),
            ("a  b", &["a", " ", " b"]),
            ("a   \n\n  b", &["a", "   \n\n", " ", " b"]),
            ("x \r\n", &["x", " \r\n"]),
            ("end  ", &["end", "  "]),
            ("end\n \n ", &["end", "\n \n "]),
            ("...!!\n\nx", &["...!!\n\n", "x"]),
            (" ...x", &[" ...", "x"]),
            ("\tfoo", &["\tfoo"]),
            ("\u{a0}foo", &["\u{a0}foo"]),
            ("e\u{301}t\u{301}", &["e", "\u{301}t", "\u{301}"]),
            ("中文字", &["中文字"]),
            ("👩‍💻!", &["👩‍💻!"]),
            ("<|endoftext|>", &["<|", "endoftext", "|>"]),
            ("\r\n\r\nA", &["\r\n\r\n", "A"]),
            ("\n", &["\n"]),
        ];
        for (text, expected) in cases {
            assert_eq!(pieces(Encoding::Cl100k, text), *expected, "{text:?}");
        }
    }

    #[test]
    fn o200k_hand_picked() {
        let cases: &[(&str, &[&str])] = &[
            ("Hello world", &["Hello", " world"]),
            ("HelloWorld", &["Hello", "World"]),
            ("HTMLParser", &["HTMLParser"]),
            ("camelCaseWord", &["camel", "Case", "Word"]),
            ("I'm HERE'S", &["I'm", " HERE'S"]),
            ("it'ſ", &["it'ſ"]),
            ("'sup", &["'sup"]),
            ("12345", &["123", "45"]),
            ("a  b", &["a", " ", " b"]),
            ("end\n \n ", &["end", "\n \n", " "]),
            ("a/b//\nc", &["a", "/b", "//\n", "c"]),
            ("e\u{301}t\u{301}", &["e\u{301}t\u{301}"]),
            ("\u{301}'s", &["\u{301}'s"]),
            ("中文字", &["中文字"]),
            ("ǅemal", &["ǅemal"]),
            ("ABCdef", &["ABCdef"]),
            ("x \r\n", &["x", " \r\n"]),
            ("  x", &[" ", " x"]),
        ];
        for (text, expected) in cases {
            assert_eq!(pieces(Encoding::O200k, text), *expected, "{text:?}");
        }
    }

    #[test]
    fn pieces_tile_the_text() {
        let text = "Mixed: café, 東京, 123456, \r\n\t  tabs\u{2028}and\u{3000}more!! 'LL ";
        for encoding in Encoding::ALL {
            let mut at = 0;
            for range in Pieces::new(encoding, text) {
                assert_eq!(range.start, at);
                assert!(range.end > range.start);
                assert!(text.is_char_boundary(range.end));
                at = range.end;
            }
            assert_eq!(at, text.len());
        }
        assert_eq!(Pieces::new(Encoding::O200k, "").count(), 0);
    }

    /// The case folding of the contraction letters is exactly the regex
    /// crate's `(?i)`, over every code point.
    #[test]
    fn folding_matches_regex_case_insensitivity() {
        for letter in *b"stdmrvel" {
            let regex = regex::Regex::new(&format!("^(?i){}$", letter as char)).unwrap();
            let mut buf = [0; 4];
            for c in (0..=0x10FFFF_u32).filter_map(char::from_u32) {
                let text = c.encode_utf8(&mut buf);
                let ours = folds_to(text.as_bytes(), 0, letter) == Some(text.len());
                assert_eq!(ours, regex.is_match(text), "{c:?} vs {}", letter as char);
            }
        }
    }
}
