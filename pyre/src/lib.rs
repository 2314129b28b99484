//! Regular expressions with the syntax and the semantics of Python's `re`
//! module (CPython 3.11), for LangChain's regex separators.
//!
//! LangChain hands every regex separator to Python's `re.search` and
//! `re.split`. The `regex` crate differs from them in ways that change where a
//! text is cut: it has no lookaround and no backreferences (CharacterTextSplitter
//! is documented with lookbehind separators such as `(?<=\.)`), it reports
//! empty matches by other rules, `$` does not match before a final newline,
//! `\s` leaves out U+001C..U+001F, and it accepts patterns Python rejects
//! (`\p{L}`, `(?<name>…)`) and rejects patterns Python accepts (`a{`,
//! `\chapter{`). So this module reads Python's syntax with Python's parser
//! rules ([`parse`]) and runs it on a backtracking machine with `_sre`'s rules
//! ([`vm`]). It does not use the `regex` crate at all.
//!
//! What it refuses instead of guessing (Python accepts these): case-insensitive
//! matching of letters (the `i` flag), `\N{NAME}` escapes, and groups nested
//! more than 200 deep. A search that needs more than a budget of steps
//! (catastrophic backtracking, which would also stall Python) is refused too,
//! so no pattern can hang the page.
//!
//! Character classes (`\w`, `\d`, `\b`, group names) come from tables
//! generated from CPython 3.11's own `str` methods (Unicode 14.0), so they
//! agree with it character for character; later Pythons know a few hundred
//! newer letters and digits that these tables (and 3.11) do not.

#![forbid(unsafe_code)]

pub(crate) mod parse;
mod tables;
pub(crate) mod vm;

/// Whitespace as Python's `str.isspace()` and `str.strip()` see it: Unicode
/// `White_Space` plus the four ASCII information separators (U+001C..U+001F).
/// What `\s` matches in a `str` pattern, and what LangChain strips.
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

use std::fmt;
use std::ops::Range;

/// Steps the searches over `text` may take before they are refused as too
/// complex: a public call gets this many, and one LangChain split shares them
/// among all its searches. Sane separators need a few steps per character
/// (every searched text is part of the source, and a split searches each
/// part once per level), so the budget grows with the text; the base keeps a
/// catastrophic pattern on a short text from running for more than a few
/// milliseconds (in the browser too) before it is refused.
pub fn budget_for(text: &str) -> u64 {
    const BASE: u64 = 1_000_000;
    const PER_BYTE: u64 = 200;
    BASE.saturating_add(PER_BYTE.saturating_mul(text.len() as u64))
}

/// `repr()` of a Python `str`, as CPython writes it in its messages: in
/// single quotes (double ones if the text holds a single quote and no
/// double one), with `\\`, the quote, `\t`, `\n` and `\r` escaped, and
/// what Python does not print as itself written as `\x`, `\u` or `\U`
/// escapes. "Printable" follows `str.isprintable`: not a control, format,
/// separator (other than the space) or private-use character; characters
/// unassigned in Unicode, which it also escapes, are not known here.
pub(crate) fn repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_ascii() && (c < ' ' || c == '\u{7f}') => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_ascii() || printable(c) => out.push(c),
            c if (c as u32) <= 0xff => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) <= 0xffff => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push(quote);
    out
}

/// Whether Python prints a non-ASCII character as itself in a `repr`.
fn printable(c: char) -> bool {
    !matches!(c as u32,
        0x80..=0xa0 | 0xad | 0x600..=0x605 | 0x61c | 0x6dd | 0x70f | 0x890 | 0x891 | 0x8e2
        | 0x1680 | 0x180e | 0x2000..=0x200f | 0x2028..=0x202f | 0x205f..=0x2064
        | 0x2066..=0x206f | 0x3000 | 0xe000..=0xf8ff | 0xfeff | 0xfff9..=0xfffb
        | 0x110bd | 0x110cd | 0x13430..=0x1343f | 0x1bca0..=0x1bca3 | 0x1d173..=0x1d17a
        | 0xe0001 | 0xe0020..=0xe007f | 0xf0000..)
}

/// Why a pattern cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PythonRegexError {
    /// Python's `re` rejects the pattern as well: LangChain would raise.
    Invalid {
        /// Python's reason, in its words.
        reason: String,
        /// The char offset Python reports, when it reports one.
        position: Option<usize>,
    },
    /// Python accepts the pattern, but it uses a feature this engine does not
    /// reproduce exactly, so it is refused rather than run differently.
    Unsupported {
        /// The feature, and what to write instead.
        feature: String,
    },
    /// The search backtracked past the step budget. Python would be extremely
    /// slow on it too (catastrophic backtracking).
    TooComplex,
}

impl PythonRegexError {
    /// The exception CPython raises for a pattern it rejects, as it is spelt
    /// in Python: `re.error` from its parser, except for two checks made
    /// elsewhere. `None` for this engine's own refusals, which Python runs.
    pub fn python_exception(&self) -> Option<&'static str> {
        match self {
            PythonRegexError::Invalid { reason, .. } => Some(match reason.as_str() {
                "ASCII and UNICODE flags are incompatible" => "ValueError",
                "the repetition number is too large" => "OverflowError",
                _ => "re.error",
            }),
            PythonRegexError::Unsupported { .. } | PythonRegexError::TooComplex => None,
        }
    }

    /// `str()` of that exception when `pattern` is the string Python
    /// compiled, exactly: `re.error` appends the position, and the line and
    /// column when the pattern spans lines (both in chars, the column
    /// 1-based).
    pub fn python_message(&self, pattern: &str) -> Option<String> {
        let PythonRegexError::Invalid { reason, position } = self else {
            return None;
        };
        let Some(pos) = *position else {
            return Some(reason.clone());
        };
        let mut message = format!("{reason} at position {pos}");
        if pattern.contains('\n') {
            let before: Vec<char> = pattern.chars().take(pos).collect();
            let line = before.iter().filter(|&&c| c == '\n').count() + 1;
            let column = match before.iter().rposition(|&c| c == '\n') {
                Some(newline) => pos - newline,
                None => pos + 1,
            };
            message.push_str(&format!(" (line {line}, column {column})"));
        }
        Some(message)
    }
}

impl fmt::Display for PythonRegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PythonRegexError::Invalid {
                reason,
                position: Some(p),
            } => write!(f, "Python's re module rejects it: {reason} at position {p}"),
            PythonRegexError::Invalid {
                reason,
                position: None,
            } => write!(f, "Python's re module rejects it: {reason}"),
            PythonRegexError::Unsupported { feature } => {
                write!(f, "it uses {feature}, which this playground cannot reproduce exactly")
            }
            PythonRegexError::TooComplex => write!(
                f,
                "matching it backtracks too much (Python would take extremely long as well): simplify nested repeats such as (a+)+"
            ),
        }
    }
}

impl std::error::Error for PythonRegexError {}

/// Whether `c` is in a table of inclusive code point ranges, sorted and
/// disjoint (the generated tables here, and core's for LlamaIndex's Punkt).
pub fn in_table(table: &[(u32, u32)], c: char) -> bool {
    let c = c as u32;
    table
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Python's `str.isprintable()` for one character: false for control,
/// format, surrogate, private-use and unassigned code points and for every
/// separator but the ASCII space (Unicode 14.0, as CPython 3.11 sees it).
/// What `MarkdownHeaderTextSplitter` keeps of a line.
pub fn is_printable(c: char) -> bool {
    if c.is_ascii() {
        (' '..='~').contains(&c)
    } else {
        in_table(tables::PRINTABLE, c)
    }
}

/// Python's `str.isalnum()` for one character.
pub(crate) fn is_alnum(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric()
    } else {
        in_table(tables::ALNUM, c)
    }
}

/// Python's `str.isdecimal()` for one character.
pub(crate) fn is_decimal(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_digit()
    } else {
        in_table(tables::DECIMAL, c)
    }
}

/// Python's `str.isidentifier()`.
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c == '_' || in_table(tables::ID_START, c))
        && chars.all(|c| in_table(tables::ID_CONTINUE, c))
}

/// The Unicode version of the regex character classes (that of the CPython
/// the tables were generated from).
pub const UNICODE_VERSION: &str = tables::UNICODE_VERSION;

impl From<parse::ParseError> for PythonRegexError {
    fn from(e: parse::ParseError) -> Self {
        match e {
            parse::ParseError::Invalid { msg, pos } => PythonRegexError::Invalid {
                reason: msg,
                position: pos,
            },
            parse::ParseError::Unsupported(feature) => PythonRegexError::Unsupported { feature },
        }
    }
}

/// A compiled Python regular expression.
///
/// ```
/// use chunkscope_pyre::PythonRegex;
///
/// // A lookbehind keeps the full stop with the sentence before it.
/// let re = PythonRegex::new(r"(?<=\.) ")?;
/// assert_eq!(re.split_strings("One. Two. Three")?, [Some("One.".into()), Some("Two.".into()), Some("Three".into())]);
/// // Python's `re.split` also splits on empty matches, by its own rules.
/// let empty = PythonRegex::new("x*")?;
/// let parts: Vec<_> = empty.split_strings("axb")?.into_iter().flatten().collect();
/// assert_eq!(parts, ["", "a", "", "b", ""]);
/// # Ok::<(), chunkscope_pyre::PythonRegexError>(())
/// ```
#[derive(Clone, Debug)]
pub struct PythonRegex {
    pattern: String,
    program: vm::Program,
}

impl PythonRegex {
    /// Compiles `pattern` as `re.compile(pattern)` would.
    pub fn new(pattern: &str) -> Result<PythonRegex, PythonRegexError> {
        let parsed = parse::parse(pattern)?;
        let program = vm::compile(&parsed)?;
        Ok(PythonRegex {
            pattern: pattern.to_string(),
            program,
        })
    }

    /// The pattern as written.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// The number of capturing groups (each adds an item per match to
    /// [`split`](Self::split), as in Python).
    pub fn groups(&self) -> usize {
        self.program.groups
    }

    /// `re.search(pattern, text) is not None`.
    pub fn search(&self, text: &str) -> Result<bool, PythonRegexError> {
        self.search_with(text, &mut budget_for(text))
    }

    /// `re.split(pattern, text)` as byte ranges into `text`: the text before
    /// each match, then each group's text (`None` when the group did not take
    /// part), and finally the text after the last match.
    pub fn split(&self, text: &str) -> Result<Vec<Option<Range<usize>>>, PythonRegexError> {
        self.split_with(text, &mut budget_for(text))
    }

    /// [`split`](Self::split) with the texts copied out, like Python's list.
    pub fn split_strings(&self, text: &str) -> Result<Vec<Option<String>>, PythonRegexError> {
        Ok(self
            .split(text)?
            .into_iter()
            .map(|r| r.map(|r| text[r].to_string()))
            .collect())
    }

    pub fn search_with(&self, text: &str, budget: &mut u64) -> Result<bool, PythonRegexError> {
        self.program
            .search(text, 0, false, budget)
            .map(|m| m.is_some())
            .map_err(|_| PythonRegexError::TooComplex)
    }

    /// CPython's `pattern_split`: after an empty match the next search must
    /// advance, and the text after the last match is always added.
    pub fn split_with(
        &self,
        text: &str,
        budget: &mut u64,
    ) -> Result<Vec<Option<Range<usize>>>, PythonRegexError> {
        let mut out = Vec::new();
        let mut last = 0;
        let mut must_advance = false;
        while let Some(m) = self
            .program
            .search(text, last, must_advance, budget)
            .map_err(|_| PythonRegexError::TooComplex)?
        {
            out.push(Some(last..m.start));
            out.extend(m.groups.iter().map(|g| g.map(|(s, e)| s..e)));
            must_advance = m.end == m.start;
            last = m.end;
        }
        out.push(Some(last..text.len()));
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Python's `repr` of these, from CPython 3.11.
    #[test]
    fn repr_is_pythons() {
        for (text, python) in [
            ("s", "'s'"),
            ("it's", "\"it's\""),
            ("it's \"", "'it\\'s \"'"),
            ("\\x4.", "'\\\\x4.'"),
            ("a\tb\n\r\u{1}\u{7f}", "'a\\tb\\n\\r\\x01\\x7f'"),
            ("é中😀", "'é中😀'"),
            (
                "\u{a0}\u{85}\u{3000}\u{200b}\u{feff}\u{e000}\u{f0000}",
                "'\\xa0\\x85\\u3000\\u200b\\ufeff\\ue000\\U000f0000'",
            ),
        ] {
            assert_eq!(repr(text), python, "{text:?}");
        }
    }

    fn split(pattern: &str, text: &str) -> Vec<Option<String>> {
        PythonRegex::new(pattern)
            .unwrap()
            .split_strings(text)
            .unwrap()
    }

    fn s(items: &[&str]) -> Vec<Option<String>> {
        items.iter().map(|i| Some(i.to_string())).collect()
    }

    #[test]
    fn empty_matches_follow_cpythons_split() {
        // After an empty match the search must advance; an empty match right
        // after a non-empty one still counts.
        assert_eq!(split("x*", "ab"), s(&["", "a", "b", ""]));
        assert_eq!(split("x*", "axb"), s(&["", "a", "", "b", ""]));
        // Where the empty alternative comes first, must-advance backtracks
        // into the other one at the same position.
        assert_eq!(split("|a", "ab"), s(&["", "", "", "b", ""]));
    }

    #[test]
    fn dollar_also_matches_before_a_final_newline() {
        assert_eq!(split("$$", "abc\n"), s(&["abc", "\n", ""]));
        assert_eq!(split(r"\Z", "abc\n"), s(&["abc\n", ""]));
    }

    #[test]
    fn groups_are_returned_and_unmatched_ones_are_none() {
        assert_eq!(
            split("(a)|b", "xbay"),
            vec![
                Some("x".into()),
                None,
                Some("".into()),
                Some("a".into()),
                Some("y".into())
            ]
        );
    }

    #[test]
    fn lookbehind_must_be_fixed_width_and_may_not_see_past_the_start() {
        assert_eq!(split(r"(?<=\.)", "a.b."), s(&["a.", "b.", ""]));
        let e = PythonRegex::new("(?<=a|bc)").unwrap_err();
        assert!(e.to_string().contains("fixed-width"), "{e}");
    }

    #[test]
    fn python_syntax_not_rust_syntax() {
        // A brace that starts no repeat is a literal in Python.
        assert_eq!(split(r"\\chapter{", "x\\chapter{y"), s(&["x", "y"]));
        assert_eq!(split("a{,2}b", "caab"), s(&["c", ""]));
        // Rust-only syntax is an error, as in Python.
        for bad in [r"\p{L}", "(?<n>a)", r"\z"] {
            assert!(PythonRegex::new(bad).is_err(), "{bad}");
        }
        // And a POSIX class is just a set of characters ending at the first ].
        assert_eq!(split("[[:alpha:]", "x:y"), s(&["x", "y"]));
        // \s includes the information separators U+001C..U+001F.
        assert_eq!(split(r"\s", "a\u{1c}b"), s(&["a", "b"]));
        // \B never matches in an empty string (CPython 3.11).
        assert!(!PythonRegex::new(r"\B").unwrap().search("").unwrap());
    }
}
