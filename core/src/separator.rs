//! Separators: where the recursive engine may cut, strongest first.

use crate::span::Span;
use regex::Regex;
use std::fmt;

/// One entry of the separator list. Its position in the list is its priority and
/// its colour in the UI.
///
/// The empty pattern is the *hard cut*: it matches nowhere and cuts the text into
/// windows of `size` units. It is the only separator that always makes progress,
/// which is why a list usually ends with it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Separator {
    /// The literal text, or the regular expression (syntax of the `regex` crate).
    pub pattern: String,
    /// Whether `pattern` is a regular expression.
    pub regex: bool,
}

impl Separator {
    /// A literal separator. `""` is the hard cut.
    pub fn literal(pattern: impl Into<String>) -> Separator {
        Separator {
            pattern: pattern.into(),
            regex: false,
        }
    }

    /// A regular-expression separator. Matches of the empty string are ignored.
    pub fn regex(pattern: impl Into<String>) -> Separator {
        Separator {
            pattern: pattern.into(),
            regex: true,
        }
    }

    /// The hard cut.
    pub fn hard_cut() -> Separator {
        Separator::literal("")
    }

    /// True for the hard cut (the empty pattern).
    pub fn is_hard_cut(&self) -> bool {
        self.pattern.is_empty()
    }

    /// The label a person reads: backslash escapes for invisible characters
    /// (a blank line is the four characters `\n\n`), `/…/` around a regex, and
    /// `""` for the hard cut.
    pub fn label(&self) -> String {
        if self.is_hard_cut() {
            return "\"\"".to_string();
        }
        if self.regex {
            format!("/{}/", escape_invisible(&self.pattern))
        } else {
            escape(&self.pattern)
        }
    }

    /// A short name for a learner: "blank line", "newline", "sentence end", …
    pub fn describe(&self) -> String {
        if self.regex {
            return format!("pattern {}", self.label());
        }
        match self.pattern.as_str() {
            "" => "hard cut".into(),
            "\n\n" => "blank line".into(),
            "\n" => "newline".into(),
            "\r\n" => "CRLF newline".into(),
            ". " => "sentence end".into(),
            " " => "space".into(),
            "\t" => "tab".into(),
            "," | "，" | "、" => "comma".into(),
            "。" | "！" | "？" | "." | "!" | "?" => "sentence end".into(),
            _ => format!("\"{}\"", self.label()),
        }
    }
}

impl fmt::Display for Separator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label())
    }
}

/// Escapes `\`, newline, carriage return and tab as two-character sequences, so
/// that [`unescape`] gives the original back.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            _ => push_invisible(&mut out, c),
        }
    }
    out
}

fn escape_invisible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    s.chars().for_each(|c| push_invisible(&mut out, c));
    out
}

fn push_invisible(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c => out.push(c),
    }
}

/// Reads backslash escapes: `\n`, `\r`, `\t`, `\\`, and `\u{…}`. Anything else
/// after a backslash is an error (it is more likely a typo than intended).
pub fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some('u') => {
                let rest: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let hex = rest.strip_prefix('{').ok_or_else(|| {
                    format!("in {s:?}: write a code point as \\u{{…}}, e.g. \\u{{3002}}")
                })?;
                let ch = u32::from_str_radix(hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| format!("in {s:?}: \\u{{{hex}}} is not a character"))?;
                out.push(ch);
            }
            Some(other) => {
                return Err(format!(
                    "in {s:?}: unknown escape \\{other}; use \\n, \\r, \\t, \\\\ or \\u{{…}}"
                ))
            }
            None => return Err(format!("in {s:?}: a lone backslash at the end; write \\\\")),
        }
    }
    Ok(out)
}

/// A separator ready to search with.
#[derive(Clone, Debug)]
pub(crate) enum Matcher {
    Literal(String),
    Regex(Regex),
    HardCut,
}

impl Matcher {
    /// The non-empty matches inside `span`, left to right, not overlapping (the
    /// same matches Python's `str.split` and `re.split` cut at).
    pub(crate) fn find(&self, source: &str, span: Span) -> Vec<Span> {
        let text = span.text(source);
        match self {
            Matcher::Literal(p) => text
                .match_indices(p.as_str())
                .map(|(i, m)| Span::new(span.start + i, span.start + i + m.len()))
                .collect(),
            Matcher::Regex(re) => re
                .find_iter(text)
                .filter(|m| !m.is_empty())
                .map(|m| Span::new(span.start + m.start(), span.start + m.end()))
                .collect(),
            Matcher::HardCut => Vec::new(),
        }
    }

    /// Whether the separator occurs in `span` at all (cheaper than [`find`]).
    pub(crate) fn occurs(&self, source: &str, span: Span) -> bool {
        let text = span.text(source);
        match self {
            Matcher::Literal(p) => text.contains(p.as_str()),
            Matcher::Regex(re) => re.find_iter(text).any(|m| !m.is_empty()),
            Matcher::HardCut => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_escape_invisible_characters() {
        assert_eq!(Separator::literal("\n\n").label(), "\\n\\n");
        assert_eq!(Separator::literal(". ").label(), ". ");
        assert_eq!(Separator::literal("").label(), "\"\"");
        assert_eq!(Separator::regex(r"\n#+ ").label(), r"/\n#+ /");
        assert_eq!(Separator::regex("\n").label(), r"/\n/");
    }

    #[test]
    fn escape_round_trips() {
        for s in ["\n\n", "a\\nb", "\t", "。", "\\", "\r\n"] {
            assert_eq!(unescape(&escape(s)).unwrap(), s);
        }
    }

    #[test]
    fn unescape_reads_code_points_and_rejects_typos() {
        assert_eq!(unescape(r"\u{3002}").unwrap(), "。");
        assert!(unescape(r"\q").unwrap_err().contains("unknown escape"));
        assert!(unescape("a\\").is_err());
        assert!(unescape(r"\u{110000}").is_err());
    }

    #[test]
    fn regex_ignores_empty_matches() {
        let m = Matcher::Regex(Regex::new("x*").unwrap());
        let s = "abxxc";
        assert_eq!(m.find(s, Span::new(0, s.len())), vec![Span::new(2, 4)]);
        assert!(!m.occurs("abc", Span::new(0, 3)));
    }
}
