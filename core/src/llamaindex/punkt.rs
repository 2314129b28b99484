//! NLTK's `PunktSentenceTokenizer()` (nltk 3.10.4) as LlamaIndex builds it:
//! with no trained parameters, so its abbreviation, collocation,
//! sentence-starter and orthographic tables are all empty. Only
//! `span_tokenize` with its realignment is reproduced, written without
//! regular expressions so that it runs in one pass.
//!
//! With empty tables Punkt's decisions reduce to these:
//!
//! - a candidate is every `.`, `?` or `!` followed by a character that
//!   cannot be in a word (`)";}]*:@'({[`, curly quotes, guillemets, `?`,
//!   `!`), or by whitespace and then a token;
//! - the candidate breaks when, in its context (the word before it, the
//!   stop, and what follows it), a token other than the last is a sentence
//!   break: `.`, `?`, `!`, or a word ending in one period, except an initial
//!   (`J.`) or a number (`5.`) followed by a lowercase word or by one of
//!   `;:,.!?`, and an initial followed by an uppercase word;
//! - closing quotes and brackets after a break move to the sentence before.
//!
//! Character classes are those of the `regex` module Punkt matches with
//! (`\s` is Unicode `White_Space`; letters and digits come from
//! [`super::tables`]), while `str.strip`, `str.isupper` and `str.islower`
//! are Python's own.

use super::tables;
use crate::span::Span;
use chunkscope_pyre::in_table;

/// `\s` of the `regex` module: Unicode `White_Space`.
fn is_ws(c: char) -> bool {
    c.is_whitespace()
}

/// `_re_non_word_chars`: characters that cannot appear within words.
fn is_non_word(c: char) -> bool {
    matches!(
        c,
        ')' | '"'
            | ';'
            | '}'
            | ']'
            | '*'
            | ':'
            | '@'
            | '\''
            | '('
            | '{'
            | '['
            | '\u{2018}'
            | '\u{2019}'
            | '\u{201c}'
            | '\u{201d}'
            | '\u{ab}'
            | '\u{bb}'
            | '?'
            | '!'
    )
}

/// `_re_word_start`: what a word token may start with.
fn is_word_start(c: char) -> bool {
    !matches!(
        c,
        '(' | '"'
            | '`'
            | '{'
            | '['
            | ':'
            | ';'
            | '&'
            | '#'
            | '*'
            | '@'
            | ')'
            | '}'
            | ']'
            | '-'
            | ','
    )
}

/// `re_boundary_realignment`'s closing punctuation.
fn is_closer(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | ')'
            | ']'
            | '}'
            | '\u{2018}'
            | '\u{2019}'
            | '\u{201c}'
            | '\u{201d}'
            | '\u{ab}'
            | '\u{bb}'
    )
}

/// The char at byte `at` of `s`, if any.
fn char_at(s: &str, at: usize) -> Option<char> {
    s[at..].chars().next()
}

/// Whether `_re_multi_char_punct` (`--+`, `..+`, or `. . .`) matches at
/// byte `at`.
fn multi_char_here(s: &str, at: usize) -> bool {
    let b = &s.as_bytes()[at..];
    if b.starts_with(b"--") || b.starts_with(b"..") {
        return true;
    }
    multi_char_len(s, at).is_some()
}

/// The length in bytes of `_re_multi_char_punct`'s match at `at`, if it
/// matches: a run of two or more hyphens or periods, or `(?:\.\s){2,}\.`
/// taken greedily.
fn multi_char_len(s: &str, at: usize) -> Option<usize> {
    let b = s.as_bytes();
    let run = |byte: u8| b[at..].iter().take_while(|&&x| x == byte).count();
    if b.get(at) == Some(&b'-') && run(b'-') >= 2 {
        return Some(run(b'-'));
    }
    if b.get(at) == Some(&b'.') && run(b'.') >= 2 {
        return Some(run(b'.'));
    }
    // `(?:\.\s){2,}\.`: the ends of the pairs `.` + whitespace.
    let mut pair_ends = Vec::new();
    let mut p = at;
    while b.get(p) == Some(&b'.') {
        match char_at(s, p + 1) {
            Some(w) if is_ws(w) => {
                p += 1 + w.len_utf8();
                pair_ends.push(p);
            }
            _ => break,
        }
    }
    let k = pair_ends.len();
    if k >= 2 && b.get(pair_ends[k - 1]) == Some(&b'.') {
        return Some(pair_ends[k - 1] + 1 - at);
    }
    // Backtracking one pair: its own period ends the match.
    if k >= 3 {
        return Some(pair_ends[k - 2] + 1 - at);
    }
    None
}

/// The word tokenizer's lookahead after a word: whitespace, the end, a
/// character that cannot be in a word, multi-character punctuation, or a
/// comma followed by one of those.
fn word_ends_at(s: &str, at: usize) -> bool {
    let Some(c) = char_at(s, at) else {
        return true;
    };
    if is_ws(c) || is_non_word(c) || multi_char_here(s, at) {
        return true;
    }
    if c == ',' {
        let after = at + 1;
        return match char_at(s, after) {
            None => true,
            Some(n) => is_ws(n) || is_non_word(n) || multi_char_here(s, after),
        };
    }
    false
}

/// `PunktLanguageVars.word_tokenize` of one line (no `\n` in it): the
/// tokens as byte ranges of `line`.
fn word_tokenize(line: &str, out: &mut Vec<Span>) {
    let mut at = 0;
    while let Some(c) = char_at(line, at) {
        if is_ws(c) {
            at += c.len_utf8();
            continue;
        }
        let end = if let Some(len) = multi_char_len(line, at) {
            at + len
        } else if is_word_start(c) {
            // `\S+?` up to the first place the lookahead holds.
            let mut end = at + c.len_utf8();
            while !word_ends_at(line, end) {
                end += char_at(line, end).map_or(0, char::len_utf8);
            }
            end
        } else {
            at + c.len_utf8()
        };
        out.push(Span::new(at, end));
        at = end;
    }
}

/// `_tokenize_words`: the tokens of every line of `text` that is not
/// blank, in order, as slices of `text`.
fn tokens(text: &str) -> Vec<&str> {
    let mut spans = Vec::new();
    let mut out = Vec::new();
    for line in text.split('\n') {
        if line.chars().all(chunkscope_pyre::is_space) {
            continue;
        }
        spans.clear();
        word_tokenize(line, &mut spans);
        out.extend(spans.iter().map(|s| s.text(line)));
    }
    out
}

/// `PunktToken.is_initial`: a letter and a period.
fn is_initial(tok: &str) -> bool {
    let mut chars = tok.chars();
    matches!(
        (chars.next(), chars.next(), chars.next()),
        (Some(l), Some('.'), None) if in_table(tables::LETTER, l)
    )
}

/// Whether the token's type is `##number##`: the whole token matches
/// `-?[\.,]?\d[\d,\.-]*\.?`.
fn is_number(tok: &str) -> bool {
    let rest = tok.strip_prefix('-').unwrap_or(tok);
    let rest = rest
        .strip_prefix('.')
        .or_else(|| rest.strip_prefix(','))
        .unwrap_or(rest);
    let mut chars = rest.chars();
    chars.next().is_some_and(|d| in_table(tables::DIGIT, d))
        && chars.all(|c| matches!(c, ',' | '.' | '-') || in_table(tables::DIGIT, c))
}

/// Whether token `tok`, followed by `next`, is a sentence break after both
/// of Punkt's annotation passes with empty parameters.
fn breaks(tok: &str, next: &str) -> bool {
    let first_pass = if matches!(tok, "." | "?" | "!") {
        true
    } else if tok.len() >= 2 && tok.bytes().all(|b| b == b'.') {
        // An ellipsis.
        false
    } else {
        tok.ends_with('.') && !tok.ends_with("..")
    };
    if !tok.ends_with('.') {
        return first_pass;
    }
    let initial = is_initial(tok);
    if initial || is_number(tok) {
        let first = next.chars().next().expect("a token is not empty");
        // The orthographic heuristic with no context: punctuation and a
        // lowercase word do not start a sentence.
        if matches!(next, ";" | ":" | "," | "." | "!" | "?") || in_table(tables::LOWER, first) {
            return false;
        }
        if initial && in_table(tables::UPPER, first) {
            return false;
        }
    }
    first_pass
}

/// `text_contains_sentbreak`: whether a token other than the last is a
/// sentence break.
fn contains_sentbreak(context: &str) -> bool {
    tokens(context).windows(2).any(|w| breaks(w[0], w[1]))
}

/// A candidate stop: the byte of the `.`, `?` or `!`, the end of what
/// follows it (`after_tok`), and where the next token starts when
/// whitespace follows.
struct Candidate {
    at: usize,
    after_end: usize,
    next_tok: Option<usize>,
}

/// `period_context_re().finditer(text)`.
fn candidates(text: &str) -> Vec<Candidate> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    for (at, &byte) in b.iter().enumerate() {
        if !matches!(byte, b'.' | b'?' | b'!') {
            continue;
        }
        let Some(c) = char_at(text, at + 1) else {
            continue;
        };
        if is_non_word(c) {
            out.push(Candidate {
                at,
                after_end: at + 1 + c.len_utf8(),
                next_tok: None,
            });
            continue;
        }
        let mut p = at + 1;
        while let Some(w) = char_at(text, p).filter(|&w| is_ws(w)) {
            p += w.len_utf8();
        }
        if p == at + 1 || p == text.len() {
            continue;
        }
        let mut end = p;
        while let Some(t) = char_at(text, end).filter(|&t| !is_ws(t)) {
            end += t.len_utf8();
        }
        out.push(Candidate {
            at,
            after_end: end,
            next_tok: Some(p),
        });
    }
    out
}

/// A slice as Python's `slice(start, stop)`: empty when `start >= stop`.
#[derive(Clone, Copy, Debug)]
struct Slice {
    start: usize,
    stop: usize,
}

impl Slice {
    fn text(self, text: &str) -> &str {
        if self.start >= self.stop {
            ""
        } else {
            &text[self.start..self.stop]
        }
    }
}

/// `_slices_from_text`, with `_match_potential_end_contexts` choosing each
/// candidate's context.
fn slices(text: &str) -> Vec<Slice> {
    let mut out = Vec::new();
    let mut last_break = 0;
    let mut decide = |c: &Candidate, word_start: usize, out: &mut Vec<Slice>| {
        if contains_sentbreak(&text[word_start..c.after_end]) {
            out.push(Slice {
                start: last_break,
                stop: c.at + 1,
            });
            last_break = c.next_tok.unwrap_or(c.at + 1);
        }
    };
    // The word before the previous candidate (its slice), and the candidate.
    let mut previous: Option<(Slice, &Candidate)> = None;
    let mut previous_slice = Slice { start: 0, stop: 0 };
    let all = candidates(text);
    for c in &all {
        let before = &text.as_bytes()[previous_slice.stop..c.at];
        // `_get_last_whitespace_index`: ASCII whitespace only, and 0 when
        // there is none (or only at 0).
        let last_ws = before
            .iter()
            .rposition(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c'))
            .unwrap_or(0);
        let start = if last_ws != 0 {
            previous_slice.stop + last_ws + 1
        } else {
            previous_slice.start
        };
        let word = Slice { start, stop: c.at };
        if let Some((slice, candidate)) = previous {
            if slice.stop <= word.start {
                decide(candidate, slice.start, &mut out);
            }
        }
        previous = Some((word, c));
        previous_slice = word;
    }
    if let Some((slice, candidate)) = previous {
        decide(candidate, slice.start, &mut out);
    }
    let trimmed = text.trim_end_matches(chunkscope_pyre::is_space).len();
    out.push(Slice {
        start: last_break,
        stop: trimmed,
    });
    out
}

/// `re_boundary_realignment.match(s)`: the closing punctuation at the
/// start of `s` (its length) and the match's end, when it matches.
fn realignment(s: &str) -> Option<(usize, usize)> {
    let mut p = 0;
    while let Some(c) = char_at(s, p).filter(|&c| is_closer(c)) {
        p += c.len_utf8();
        // Lazily: whitespace, `--` ahead, or the end of a line.
        let mut end = p;
        while let Some(w) = char_at(s, end).filter(|&w| is_ws(w)) {
            end += w.len_utf8();
        }
        if end > p || s[p..].starts_with("--") || p == s.len() || s.as_bytes()[p] == b'\n' {
            return Some((p, end));
        }
    }
    None
}

/// `span_tokenize(text)`: the sentences' byte spans, closing punctuation
/// realigned onto the sentence before.
pub(super) fn span_tokenize(text: &str) -> Vec<Span> {
    let slices = slices(text);
    let mut out = Vec::with_capacity(slices.len());
    let mut realign = 0;
    for (i, &s1) in slices.iter().enumerate() {
        let s1 = Slice {
            start: s1.start + realign,
            stop: s1.stop,
        };
        let Some(&s2) = slices.get(i + 1) else {
            if !s1.text(text).is_empty() {
                out.push(Span::new(s1.start, s1.stop));
            }
            continue;
        };
        match realignment(s2.text(text)) {
            Some((closers, end)) => {
                out.push(Span::new(s1.start, s2.start + closers));
                realign = end;
            }
            None => {
                realign = 0;
                if !s1.text(text).is_empty() {
                    out.push(Span::new(s1.start, s1.stop));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sentences(text: &str) -> Vec<&str> {
        span_tokenize(text).iter().map(|s| s.text(text)).collect()
    }

    /// NLTK's own answers (`PunktSentenceTokenizer().tokenize`).
    #[test]
    fn untrained_punkt_splits_as_nltk() {
        assert_eq!(
            sentences("Very bad acting!!! I promise."),
            ["Very bad acting!!!", "I promise."]
        );
        assert_eq!(sentences("(Sent1.) Sent2."), ["(Sent1.)", "Sent2."]);
        assert_eq!(
            sentences("Dr. Smith is here. He is."),
            ["Dr.", "Smith is here.", "He is."]
        );
        assert_eq!(
            sentences("J. R. R. Tolkien wrote."),
            ["J. R. R. Tolkien wrote."]
        );
        assert_eq!(
            sentences("I have 5. apples. Then"),
            ["I have 5. apples.", "Then"]
        );
        assert_eq!(sentences("   "), Vec::<&str>::new());
    }
}
