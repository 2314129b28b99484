//! Separators: where the recursive engine may cut, strongest first.

use crate::span::Span;
use regex_lite::Regex;
use std::fmt;
use std::str::FromStr;

/// One entry of the separator list. Its position in the list is its priority and
/// its colour in the UI.
///
/// The empty pattern is the *hard cut*: it matches nowhere and cuts the text into
/// windows of `size` units. It is the only separator that always makes progress,
/// which is why a list usually ends with it.
///
/// A separator may instead be a named [`SeparatorLevel`] (the sentence level: cut
/// between sentences as [`crate::sentence`] finds them), which no literal or
/// regex can spell; its `pattern` is then empty and `regex` false.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Separator {
    /// The literal text, or the regular expression (syntax of the `regex` crate).
    pub pattern: String,
    /// Whether `pattern` is a regular expression.
    pub regex: bool,
    /// A named level instead of a pattern.
    pub level: Option<SeparatorLevel>,
}

/// A separator that is not a pattern but a kind of boundary found by analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SeparatorLevel {
    /// Between two sentences ([`crate::sentence`]): the cut is at the
    /// whitespace after a sentence (empty after `。`), which placement puts
    /// on either side like any separator's text.
    Sentence,
    /// Between two Unicode words (UAX #29). This and the levels after it
    /// only label the cuts of a library that cuts there
    /// ([`crate::text_splitter`]); no separator list holds them
    /// ([`SeparatorLevel::from_name`] refuses them).
    Word,
    /// Between two grapheme clusters (what a reader sees as one character).
    Grapheme,
    /// Where a Markdown heading (1 for `#` to 6) starts or ends.
    Heading(u8),
    /// At a Markdown thematic break (`---`).
    Rule,
    /// Where a Markdown block starts or ends: a paragraph, list, list item,
    /// code block, table, row, quote.
    Block,
    /// Where a Markdown inline element starts or ends: a run of text,
    /// emphasis, a link, inline code.
    Inline,
    /// At a line break inside a Markdown paragraph.
    SoftBreak,
}

impl SeparatorLevel {
    /// The level's name, as the JSON's `level` and a chunk's `cut` say it.
    pub const fn name(self) -> &'static str {
        match self {
            SeparatorLevel::Sentence => "sentence",
            SeparatorLevel::Word => "word",
            SeparatorLevel::Grapheme => "grapheme",
            SeparatorLevel::Heading(1) => "heading 1",
            SeparatorLevel::Heading(2) => "heading 2",
            SeparatorLevel::Heading(3) => "heading 3",
            SeparatorLevel::Heading(4) => "heading 4",
            SeparatorLevel::Heading(5) => "heading 5",
            SeparatorLevel::Heading(_) => "heading 6",
            SeparatorLevel::Rule => "rule",
            SeparatorLevel::Block => "block",
            SeparatorLevel::Inline => "inline",
            SeparatorLevel::SoftBreak => "soft break",
        }
    }

    /// Every level, as [`SeparatorLevel::named`] reads them.
    const NAMED: [SeparatorLevel; 13] = [
        SeparatorLevel::Sentence,
        SeparatorLevel::Word,
        SeparatorLevel::Grapheme,
        SeparatorLevel::Heading(1),
        SeparatorLevel::Heading(2),
        SeparatorLevel::Heading(3),
        SeparatorLevel::Heading(4),
        SeparatorLevel::Heading(5),
        SeparatorLevel::Heading(6),
        SeparatorLevel::Rule,
        SeparatorLevel::Block,
        SeparatorLevel::Inline,
        SeparatorLevel::SoftBreak,
    ];

    /// Any level by its name, the labels of a library's cuts included: for
    /// reading back an output, never a separator list.
    pub fn named(name: &str) -> Option<SeparatorLevel> {
        SeparatorLevel::NAMED.into_iter().find(|l| l.name() == name)
    }

    /// How the level is written in a separator list (the CLI's `--sep`, the
    /// page's separator editor, share links, a label): an escape that
    /// [`unescape`] refuses and no regex engine here accepts, so it can mean
    /// nothing else.
    pub const fn spelling(self) -> &'static str {
        match self {
            SeparatorLevel::Sentence => "\\p{sentence}",
            SeparatorLevel::Word => "\\p{word}",
            SeparatorLevel::Grapheme => "\\p{grapheme}",
            SeparatorLevel::Heading(1) => "\\p{heading 1}",
            SeparatorLevel::Heading(2) => "\\p{heading 2}",
            SeparatorLevel::Heading(3) => "\\p{heading 3}",
            SeparatorLevel::Heading(4) => "\\p{heading 4}",
            SeparatorLevel::Heading(5) => "\\p{heading 5}",
            SeparatorLevel::Heading(_) => "\\p{heading 6}",
            SeparatorLevel::Rule => "\\p{rule}",
            SeparatorLevel::Block => "\\p{block}",
            SeparatorLevel::Inline => "\\p{inline}",
            SeparatorLevel::SoftBreak => "\\p{soft break}",
        }
    }

    /// The level a separator list may hold by this name (`"sentence"`).
    pub fn from_name(name: &str) -> Option<SeparatorLevel> {
        (name == "sentence").then_some(SeparatorLevel::Sentence)
    }
}

impl Separator {
    /// A literal separator. `""` is the hard cut.
    pub fn literal(pattern: impl Into<String>) -> Separator {
        Separator {
            pattern: pattern.into(),
            regex: false,
            level: None,
        }
    }

    /// A regular-expression separator. Matches of the empty string are ignored.
    pub fn regex(pattern: impl Into<String>) -> Separator {
        Separator {
            pattern: pattern.into(),
            regex: true,
            level: None,
        }
    }

    /// The sentence level: cut between sentences.
    pub fn sentence() -> Separator {
        Separator::level(SeparatorLevel::Sentence)
    }

    /// A named level.
    pub fn level(level: SeparatorLevel) -> Separator {
        Separator {
            pattern: String::new(),
            regex: false,
            level: Some(level),
        }
    }

    /// A separator as a list spells it: a level's spelling (`\p{sentence}`),
    /// else a regex as written when `regex`, else a literal with its
    /// backslash escapes read ([`unescape`]).
    pub fn parse(text: &str, regex: bool) -> Result<Separator, String> {
        if text == SeparatorLevel::Sentence.spelling() {
            return Ok(Separator::sentence());
        }
        if regex {
            return Ok(Separator::regex(text));
        }
        unescape(text).map(Separator::literal)
    }

    /// The hard cut.
    pub fn hard_cut() -> Separator {
        Separator::literal("")
    }

    /// True for the hard cut (the empty pattern).
    pub fn is_hard_cut(&self) -> bool {
        self.pattern.is_empty() && self.level.is_none()
    }

    /// The label a person reads: backslash escapes for invisible characters
    /// (a blank line is the four characters `\n\n`), `/…/` around a regex, and
    /// `""` for the hard cut.
    pub fn label(&self) -> String {
        if let Some(level) = self.level {
            return level.spelling().to_string();
        }
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
        match self.level {
            Some(SeparatorLevel::Sentence) => return "between sentences".into(),
            Some(SeparatorLevel::Word) => return "between words".into(),
            Some(SeparatorLevel::Grapheme) => return "between graphemes".into(),
            Some(SeparatorLevel::Heading(depth)) => return format!("at a level-{depth} heading"),
            Some(SeparatorLevel::Rule) => return "at a thematic break".into(),
            Some(SeparatorLevel::Block) => return "between blocks".into(),
            Some(SeparatorLevel::Inline) => return "at an inline element".into(),
            Some(SeparatorLevel::SoftBreak) => return "at a soft line break".into(),
            None => {}
        }
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
    /// The sentence level: its matches are the whitespace after each
    /// sentence, found once per split ([`crate::sentence::gaps`]).
    Sentence,
}

impl Matcher {
    /// The non-empty matches inside `span`, left to right, not overlapping (the
    /// same matches Python's `str.split` and `re.split` cut at). The engines
    /// search through a [`Searcher`] instead, built once per split.
    #[cfg(test)]
    pub(crate) fn find(&self, source: &str, span: Span) -> Vec<Span> {
        Searcher::new(self, &[]).find_iter(source, span).collect()
    }

    /// Whether the separator occurs in `span` at all.
    #[cfg(test)]
    pub(crate) fn occurs(&self, source: &str, span: Span) -> bool {
        Searcher::new(self, &[])
            .find_iter(source, span)
            .next()
            .is_some()
    }
}

/// A [`Matcher`] made ready for one split.
///
/// Natively, literals get a prebuilt `memmem` searcher, which finds the needle
/// with vector instructions (`str::match_indices` runs the scalar Two-Way
/// algorithm), and single bytes such as `\n` or a space go straight to
/// `memchr`. The browser build searches with the standard library instead:
/// there `memchr` would be new code in a download with a size budget, for
/// little gain without vector instructions. Every way reports the same
/// leftmost, non-overlapping matches, and a UTF-8 needle in UTF-8 text only
/// matches on char boundaries.
///
/// Built once per split (not per piece), because a `memmem` searcher costs
/// more to build than a short piece costs to search.
// A few of these exist per split, so their size does not matter; boxing the
// large variant would only add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub(crate) enum Searcher<'p> {
    #[cfg(not(target_arch = "wasm32"))]
    Byte(u8),
    #[cfg(not(target_arch = "wasm32"))]
    Literal(memchr::memmem::Finder<'p>),
    Str(&'p str),
    Regex(&'p Regex),
    HardCut,
    /// The whitespace after each sentence but the last, in order.
    Gaps(&'p [Span]),
}

impl<'p> Searcher<'p> {
    /// `gaps` are the sentence gaps of the source, for the sentence level.
    pub(crate) fn new(matcher: &'p Matcher, gaps: &'p [Span]) -> Searcher<'p> {
        if let Matcher::Sentence = matcher {
            return Searcher::Gaps(gaps);
        }
        #[cfg(not(target_arch = "wasm32"))]
        if let Matcher::Literal(p) = matcher {
            match p.as_bytes() {
                [] => {}
                [b] => return Searcher::Byte(*b),
                bytes => return Searcher::Literal(memchr::memmem::Finder::new(bytes)),
            }
        }
        Searcher::portable(matcher)
    }

    /// The searcher that needs nothing but the standard library (what the
    /// browser build uses for literals).
    fn portable(matcher: &'p Matcher) -> Searcher<'p> {
        match matcher {
            Matcher::Literal(p) if p.is_empty() => Searcher::HardCut,
            Matcher::Literal(p) => Searcher::Str(p),
            Matcher::Regex(re) => Searcher::Regex(re),
            Matcher::HardCut => Searcher::HardCut,
            // Only `new` is given the gaps.
            Matcher::Sentence => Searcher::Gaps(&[]),
        }
    }

    /// The non-empty matches inside `span`, left to right, not overlapping,
    /// found lazily: a split takes the first to know the separator occurs, then
    /// goes on with the same iterator, so the text is searched once.
    pub(crate) fn find_iter<'t>(&'t self, source: &'t str, span: Span) -> Matches<'t> {
        let text = span.text(source);
        let base = span.start;
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Searcher::Byte(b) => Matches::Byte {
                iter: memchr::memchr_iter(*b, text.as_bytes()),
                base,
            },
            #[cfg(not(target_arch = "wasm32"))]
            Searcher::Literal(finder) => Matches::Literal {
                iter: finder.find_iter(text.as_bytes()),
                len: finder.needle().len(),
                base,
            },
            Searcher::Str(p) => Matches::Str {
                iter: text.match_indices(*p),
                base,
            },
            Searcher::Regex(re) => Matches::Regex {
                iter: re.find_iter(text),
                base,
            },
            Searcher::HardCut => Matches::None,
            Searcher::Gaps(gaps) => {
                // The gaps with text before and after them inside the span:
                // a cut there leaves no empty part.
                let from = gaps.partition_point(|g| g.start <= span.start);
                let to = gaps.partition_point(|g| g.end < span.end);
                Matches::Gaps {
                    iter: gaps[from..to.max(from)].iter(),
                }
            }
        }
    }
}

/// The matches of one separator in one span, as spans of the source.
// One lives in each frame of the recursion; boxing the large variant would put
// an allocation on that path.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Matches<'t> {
    #[cfg(not(target_arch = "wasm32"))]
    Byte {
        iter: memchr::Memchr<'t>,
        base: usize,
    },
    #[cfg(not(target_arch = "wasm32"))]
    Literal {
        iter: memchr::memmem::FindIter<'t, 't>,
        len: usize,
        base: usize,
    },
    Str {
        iter: std::str::MatchIndices<'t, &'t str>,
        base: usize,
    },
    Regex {
        iter: regex_lite::Matches<'t, 't>,
        base: usize,
    },
    Gaps {
        iter: std::slice::Iter<'t, Span>,
    },
    None,
}

impl Iterator for Matches<'_> {
    type Item = Span;

    #[inline]
    fn next(&mut self) -> Option<Span> {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Matches::Byte { iter, base } => {
                let at = *base + iter.next()?;
                Some(Span::new(at, at + 1))
            }
            #[cfg(not(target_arch = "wasm32"))]
            Matches::Literal { iter, len, base } => {
                let at = *base + iter.next()?;
                Some(Span::new(at, at + *len))
            }
            Matches::Str { iter, base } => {
                let (at, m) = iter.next()?;
                Some(Span::new(*base + at, *base + at + m.len()))
            }
            // An empty match cuts nothing (`re.split` ignores it too).
            Matches::Regex { iter, base } => iter
                .find(|m| !m.is_empty())
                .map(|m| Span::new(*base + m.start(), *base + m.end())),
            Matches::Gaps { iter } => iter.next().copied(),
            Matches::None => None,
        }
    }
}

/// Where a separator goes when the text is cut at it. Inside a chunk the source
/// text is always whole; placement only decides the two chunks' ends at a cut.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Placement {
    /// At the end of the piece before the cut (the lessons' `p + sep`).
    #[default]
    End,
    /// At the start of the piece after the cut (LangChain's default).
    Start,
    /// In neither chunk. A separator that is more than whitespace is then lost,
    /// and the coverage check says so.
    None,
}

impl Placement {
    /// The name used in the CLI, the JS API and the UI.
    pub const fn name(self) -> &'static str {
        match self {
            Placement::End => "end",
            Placement::Start => "start",
            Placement::None => "none",
        }
    }
}

impl fmt::Display for Placement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Placement {
    type Err = String;
    fn from_str(s: &str) -> Result<Placement, String> {
        match s {
            "end" => Ok(Placement::End),
            "start" => Ok(Placement::Start),
            "none" => Ok(Placement::None),
            other => Err(format!(
                "unknown placement {other:?}: use \"end\", \"start\" or \"none\""
            )),
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
    fn searchers_find_what_match_indices_finds() {
        let text = "a\n\n\nb.  c\u{3000}d\n\ne😀😀f. . g";
        for p in [
            "\n", "\n\n", " ", ". ", "😀", "😀😀", "\u{3000}", "x", "é", "aa",
        ] {
            let m = Matcher::Literal(p.to_string());
            let whole = Span::new(0, text.len());
            let expected: Vec<Span> = text
                .match_indices(p)
                .map(|(i, s)| Span::new(i, i + s.len()))
                .collect();
            assert_eq!(m.find(text, whole), expected, "{p:?}");
            // Inside a sub-span, offsets are still offsets of the source.
            let inner = Span::new(1, text.len() - 1);
            let expected: Vec<Span> = inner
                .text(text)
                .match_indices(p)
                .map(|(i, s)| Span::new(1 + i, 1 + i + s.len()))
                .collect();
            assert_eq!(m.find(text, inner), expected, "{p:?} inside");
            // The browser's searcher finds the same.
            let portable: Vec<Span> = Searcher::portable(&m).find_iter(text, inner).collect();
            assert_eq!(portable, expected, "{p:?} portable");
        }
        assert!(Matcher::HardCut
            .find(text, Span::new(0, text.len()))
            .is_empty());
    }

    #[test]
    fn regex_ignores_empty_matches() {
        let m = Matcher::Regex(Regex::new("x*").unwrap());
        let s = "abxxc";
        assert_eq!(m.find(s, Span::new(0, s.len())), vec![Span::new(2, 4)]);
        assert!(!m.occurs("abc", Span::new(0, 3)));
    }
}
