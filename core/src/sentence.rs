//! Sentences: where a text's sentences end, and why each doubtful full stop
//! was or was not taken as an end.
//!
//! The base is Unicode's sentence boundaries (UAX #29, from the
//! `unicode-segmentation` crate), which already know a lot that a "cut at
//! `. `" rule gets wrong: a full stop before a lowercase word or a digit is no
//! end ("3.14", "e.g. this"), `。` needs no space after it, and a closing
//! quote or bracket stays with the sentence it closes (`「好。」`, `"Stop."`).
//! UAX #29 is deliberately language-neutral, so a few refinements fix what it
//! cannot know:
//!
//! - a title or a Latin abbreviation before a capital is no end ("Dr. Smith",
//!   "e.g. Python"), nor is a single capital's initial ("J. Smith");
//! - a URL or an e-mail address is never cut inside (`…/A.B?x=1`);
//! - a Japanese quotation that goes on with the particle `と`
//!   (`『行く！』と言った。`) ends no sentence;
//! - an opening bracket or quote right after a stop starts the next
//!   sentence (`。「はい。」`), where UAX #29 keeps it with the stop;
//! - a zero-width space after a stop is the space between two sentences
//!   (`End.\u{200B}Next`), where UAX #29 ignores it as a format character;
//! - an ellipsis `…` before a space and a capital ends a sentence, as `...`
//!   does under UAX #29;
//! - a quoted question or exclamation followed by a lowercase word is one
//!   sentence with its attribution (`"Is it done?" she asked.`), where UAX
//!   #29 ends one after `?"` whatever follows;
//! - a closing guillemet spaced off its sentence, as French sets it
//!   (`« Non ! »`), closes that sentence, where UAX #29 starts the next one
//!   with it.
//!
//! # Invariants
//!
//! [`Sentences::spans`] tile the text: the first starts at 0, each starts where
//! the one before ends, the last ends at the text's end, none is empty, and
//! every offset is a char boundary. So no text is ever lost, and a sentence
//! keeps the whitespace after it. Only a text of whitespace alone has a
//! sentence of whitespace alone. An empty text has no sentences.
//!
//! Every candidate end (a UAX #29 boundary after a stop, and every run of
//! stops that UAX #29 did not end a sentence at) is judged once; when asked,
//! each one that is not taken as is (rejected, added, or doubtful and kept) is
//! recorded as a [`Decision`] with its [`Reason`].
//!
//! The work is linear in the text: a token (a run without whitespace) is
//! looked at once however many stops it holds, so a text of nothing but
//! full stops costs no more than prose.

use crate::span::{is_space, Span};
use unicode_segmentation::UnicodeSegmentation;

/// A text's sentences, and the judgments that made them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sentences {
    /// The sentences in order; they tile the text (see the module's invariants).
    pub spans: Vec<Span>,
    /// The candidate ends that were not taken as UAX #29 gives them, in text
    /// order; empty unless recording was asked for.
    pub decisions: Vec<Decision>,
}

/// One judgment on a candidate sentence end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decision {
    /// Where the candidate boundary is: a byte offset, after the stop, its
    /// closing quotes and the whitespace after them (where the next sentence
    /// would start).
    pub at: usize,
    /// The stop itself (the run of `.`, `!`, `?`, `。`, `…` …), so a view can
    /// mark the character that was doubted.
    pub stop: Span,
    /// Whether a sentence ends at `at`.
    pub end: bool,
    /// Why.
    pub reason: Reason,
}

/// Why a candidate end was judged as it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reason {
    /// Not an end: a title or Latin abbreviation ("Dr.", "Mr.", "e.g.",
    /// "i.e.", "cf.", "vs.", …); UAX #29 ends a sentence there before a
    /// capital, or it would have without the lowercase word after.
    Abbreviation,
    /// Not an end: a single capital letter's initial ("J. Smith").
    Initial,
    /// Not an end: a decimal number or a version ("3.14", "2.0.1").
    Number,
    /// Not an end: inside a URL or an e-mail address.
    Address,
    /// Not an end: an ellipsis inside a sentence (a lowercase word follows).
    Ellipsis,
    /// Not an end: a lowercase word follows ("Stop." he said).
    LowercaseFollows,
    /// Not an end: a letter or digit follows with no space ("main.rs").
    NoSpace,
    /// Not an end: more sentence punctuation follows ("Really?!" … "?! ?").
    PunctuationFollows,
    /// An end UAX #29 puts too late: after the opening bracket or quote of
    /// the next sentence (`。「はい`); the end is moved before it.
    BeforeOpeningQuote,
    /// Not an end: a quoted sentence goes on in the one around it, as
    /// Japanese `『行く！』と言った` does with the particle `と`.
    QuoteContinues,
    /// An end UAX #29 does not make: a zero-width space after the stop is the
    /// space between two sentences.
    ZeroWidthSpace,
    /// An end UAX #29 does not make: `…` before a space and a capital.
    EllipsisBeforeCapital,
    /// An end kept although doubtful: an abbreviation that often ends a
    /// sentence ("etc.", "p.m.", "Inc.") before a capital.
    AbbreviationBeforeCapital,
    /// Not an end: a quoted question or exclamation, then who said it in a
    /// lowercase word (`"Is it done?" she asked.`, `« Non ! » dit-elle.`).
    Attribution,
}

impl Reason {
    /// Every reason.
    pub const ALL: [Reason; 14] = [
        Reason::Abbreviation,
        Reason::Initial,
        Reason::Number,
        Reason::Address,
        Reason::Ellipsis,
        Reason::LowercaseFollows,
        Reason::NoSpace,
        Reason::PunctuationFollows,
        Reason::QuoteContinues,
        Reason::ZeroWidthSpace,
        Reason::EllipsisBeforeCapital,
        Reason::BeforeOpeningQuote,
        Reason::AbbreviationBeforeCapital,
        Reason::Attribution,
    ];

    /// The reason [`Reason::name`] names.
    pub fn from_name(name: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.name() == name)
    }

    /// A stable one-word name, for the JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Reason::Abbreviation => "abbreviation",
            Reason::Initial => "initial",
            Reason::Number => "number",
            Reason::Address => "address",
            Reason::Ellipsis => "ellipsis",
            Reason::LowercaseFollows => "lowercase_follows",
            Reason::NoSpace => "no_space",
            Reason::PunctuationFollows => "punctuation_follows",
            Reason::QuoteContinues => "quote_continues",
            Reason::BeforeOpeningQuote => "before_opening_quote",
            Reason::ZeroWidthSpace => "zero_width_space",
            Reason::EllipsisBeforeCapital => "ellipsis_before_capital",
            Reason::AbbreviationBeforeCapital => "abbreviation_before_capital",
            Reason::Attribution => "attribution",
        }
    }

    /// Whether a candidate with this reason ends a sentence.
    pub const fn ends(self) -> bool {
        matches!(
            self,
            Reason::ZeroWidthSpace
                | Reason::EllipsisBeforeCapital
                | Reason::AbbreviationBeforeCapital
                | Reason::BeforeOpeningQuote
        )
    }

    /// Whether the judgment is one of our refinements of UAX #29 (rather
    /// than UAX #29's own, explained).
    pub const fn refinement(self) -> bool {
        matches!(
            self,
            Reason::Abbreviation
                | Reason::Initial
                | Reason::Address
                | Reason::QuoteContinues
                | Reason::BeforeOpeningQuote
                | Reason::ZeroWidthSpace
                | Reason::EllipsisBeforeCapital
                | Reason::AbbreviationBeforeCapital
                | Reason::Attribution
        )
    }

    /// The judgment in words, as the trace shows it.
    pub const fn describe(self) -> &'static str {
        match self {
            Reason::Abbreviation => "not a sentence end: abbreviation",
            Reason::Initial => "not a sentence end: an initial",
            Reason::Number => "not a sentence end: decimal or version number",
            Reason::Address => "not a sentence end: inside a URL or e-mail address",
            Reason::Ellipsis => "not a sentence end: ellipsis inside a sentence",
            Reason::LowercaseFollows => "not a sentence end: a lowercase word follows",
            Reason::NoSpace => "not a sentence end: no space follows",
            Reason::PunctuationFollows => "not a sentence end: more punctuation follows",
            Reason::QuoteContinues => "not a sentence end: the quotation goes on (と)",
            Reason::BeforeOpeningQuote => "sentence end: before the next sentence's opening quote",
            Reason::ZeroWidthSpace => "sentence end: a zero-width space follows the stop",
            Reason::EllipsisBeforeCapital => "sentence end: an ellipsis before a capital",
            Reason::AbbreviationBeforeCapital => {
                "sentence end: an abbreviation that often ends a sentence, before a capital"
            }
            Reason::Attribution => {
                "not a sentence end: a quoted question or exclamation, then who said it"
            }
        }
    }
}

/// The sentences of `text`, without recording decisions (the fast path).
pub fn sentences(text: &str) -> Vec<Span> {
    segment(text, false).spans
}

/// The sentences of `text`, and, when `record`, every decision on a doubtful
/// candidate end.
///
/// ```
/// use chunkscope::sentence::{segment, Reason};
/// let text = "Dr. Smith paid 3.14 euros, e.g. coins. Then he left.";
/// let s = segment(text, true);
/// let got: Vec<&str> = s.spans.iter().map(|sp| sp.text(text)).collect();
/// assert_eq!(got, ["Dr. Smith paid 3.14 euros, e.g. coins. ", "Then he left."]);
/// let reasons: Vec<Reason> = s.decisions.iter().map(|d| d.reason).collect();
/// // "Dr." before a capital, "3.14", and both full stops of "e.g.".
/// assert_eq!(reasons, [Reason::Abbreviation, Reason::Number, Reason::Abbreviation, Reason::Abbreviation]);
/// ```
pub fn segment(text: &str, record: bool) -> Sentences {
    let mut judge = Judge {
        text,
        record,
        decisions: Vec::new(),
        tokens: Tokens::default(),
    };
    let mut uax: Vec<usize> = Vec::new();
    for at in uax_boundaries(text) {
        let after = uax.last().copied().unwrap_or(0);
        let at = after_spaced_closers(text, at);
        if at < text.len() && at > after {
            uax.push(judge.before_openers(after, at));
        }
    }
    // UAX #29's boundaries, each kept or rejected.
    let mut ends: Vec<usize> = Vec::with_capacity(uax.len());
    let mut start = 0;
    for &at in &uax {
        if judge.keep_boundary(start, at) {
            ends.push(at);
            start = at;
        }
    }
    // Stops UAX #29 made no boundary after: explained, or turned into ends.
    let added = judge.stops_within(&uax);
    if !added.is_empty() {
        ends.extend(added);
        ends.sort_unstable();
        ends.dedup();
    }
    if record {
        judge.decisions.sort_by_key(|d| d.at);
    }
    let mut spans: Vec<Span> = Vec::with_capacity(ends.len() + 1);
    let mut from = 0;
    for end in ends
        .into_iter()
        .chain((!text.is_empty()).then_some(text.len()))
    {
        if end <= from {
            continue;
        }
        // Whitespace alone (the lines of a paragraph break) is no sentence:
        // it joins the sentence before, or the first one.
        if text[from..end].chars().all(is_gap) {
            if let Some(last) = spans.last_mut() {
                last.end = end;
                from = end;
                continue;
            }
            if end < text.len() {
                continue;
            }
        }
        spans.push(Span::new(from, end));
        from = end;
    }
    Sentences {
        spans,
        decisions: judge.decisions,
    }
}

/// UAX #29's sentence boundaries inside `text` (not at its start or end), in
/// order: exactly `split_sentence_bound_indices`, without running it over
/// text that cannot hold a boundary.
///
/// A boundary only comes after a sentence terminator (`.`, `!`, `?`, and
/// non-ASCII ones) or a paragraph separator (`\r`, `\n`, and non-ASCII
/// ones), so a stretch of ASCII without `.!?\r\n` holds none. And between two
/// ASCII lowercase letters the rules neither break nor look across: a
/// lowercase letter ends every look-ahead (SB8 stops at `Lower`) and every
/// look-behind (`SATerm Close* Sp*`, `Upper ATerm`). So the text is cut
/// there into pieces, and only pieces holding a terminator, a separator or
/// any non-ASCII byte are segmented, each on its own. English prose is
/// mostly skipped; a text without such letter pairs (CJK) is segmented
/// whole, as before.
fn uax_boundaries(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let lower_pair = |p: usize| {
        p > 0
            && p < bytes.len()
            && bytes[p - 1].is_ascii_lowercase()
            && bytes[p].is_ascii_lowercase()
    };
    let interesting = |b: u8| matches!(b, b'.' | b'!' | b'?' | b'\r' | b'\n') || b >= 0x80;
    let mut out = Vec::new();
    let mut done = 0;
    let mut i = 0;
    while i < bytes.len() {
        if !interesting(bytes[i]) {
            i += 1;
            continue;
        }
        // The piece: from the last safe cut before `i` (or where the last
        // piece ended) to the first safe cut after the last interesting
        // byte it holds.
        let mut start = i;
        while start > done && !lower_pair(start) {
            start -= 1;
        }
        let mut end = i + 1;
        while end < bytes.len() && !lower_pair(end) {
            end += 1;
        }
        // Both ends are char boundaries: a safe cut is between two ASCII
        // bytes, `done` was an end, and `i` moved back only over bytes.
        let piece = &text[start..end];
        out.extend(
            piece
                .split_sentence_bound_indices()
                .skip(1)
                .map(|(at, _)| start + at),
        );
        done = end;
        i = end;
    }
    out
}

/// The whitespace after each sentence but the last: where the sentence level
/// of a separator list cuts (empty where a sentence ends with no space, as
/// after `。`), in order. Every sentence but the last has more than
/// whitespace, so no part between two gaps is blank.
pub(crate) fn gaps(source: &str, sentences: &[Span]) -> Vec<Span> {
    let mut gaps = Vec::with_capacity(sentences.len());
    for s in sentences.iter().take(sentences.len().saturating_sub(1)) {
        let text = s.text(source);
        let content = text.trim_end_matches(is_space).len();
        gaps.push(Span::new(s.start + content, s.end));
    }
    gaps
}

/// Stops: the characters a sentence may end with.
fn is_stop(c: char) -> bool {
    matches!(
        c,
        '.' | '!'
            | '?'
            | '…'
            | '‥'
            | '。'
            | '！'
            | '？'
            | '｡'
            | '．'
            | '‼'
            | '⁇'
            | '⁈'
            | '⁉'
            | '؟'
            | '।'
            | '॥'
    )
}

/// Closing quotes and brackets, which stay with the sentence they close.
fn is_closer(c: char) -> bool {
    matches!(
        c,
        '"' | '\''
            | ')'
            | ']'
            | '}'
            | '»'
            | '›'
            | '”'
            | '’'
            | '」'
            | '』'
            | '）'
            | '］'
            | '｝'
            | '】'
            | '〕'
            | '〉'
            | '》'
            | '〗'
            | '〙'
    )
}

/// Opening brackets and quotes that cannot close anything (not `"` or `'`):
/// they start the next sentence.
fn is_opening(c: char) -> bool {
    matches!(
        c,
        '(' | '[' | '{' | '«' | '“' | '‘' | '「' | '『' | '（' | '［' | '【' | '〔' | '〈' | '《'
    )
}

/// Opening quotes and brackets, which a word may start with.
fn is_opener(c: char) -> bool {
    matches!(
        c,
        '"' | '\'' | '(' | '[' | '{' | '«' | '‹' | '“' | '‘' | '「' | '『' | '（' | '［' | '【'
    )
}

const ZWSP: char = '\u{200B}';

/// Spaces between sentences, zero-width ones included.
fn is_gap(c: char) -> bool {
    is_space(c) || c == ZWSP
}

/// Closing guillemets, which French sets off from the sentence they close
/// with a space (`« Non ! »`).
fn is_spaced_closer(c: char) -> bool {
    matches!(c, '»' | '›')
}

/// The spaces French puts inside guillemets: ordinary, no-break and narrow
/// no-break ones, on the same line.
fn is_inner_space(c: char) -> bool {
    matches!(c, ' ' | '\u{A0}' | '\u{202F}' | '\u{2009}')
}

/// After the spaced closing guillemets that follow a stop at `end` (and the
/// spaces before them), or `end` itself when none do.
fn spaced_closers_after(text: &str, end: usize) -> usize {
    let rest = &text[end..];
    let inner = rest.len() - rest.trim_start_matches(is_inner_space).len();
    let closers = rest[inner..].len() - rest[inner..].trim_start_matches(is_spaced_closer).len();
    if inner > 0 && closers > 0 {
        end + inner + closers
    } else {
        end
    }
}

/// A UAX #29 boundary at `at` moved past the spaced closing guillemets that
/// close the sentence before it, and the gap after them: UAX #29 ends the
/// sentence at `! »` before the `»`, since a closer after a space is no
/// longer its sentence's (SB11).
fn after_spaced_closers(text: &str, at: usize) -> usize {
    let head = &text[..at];
    let spaces = head.trim_end_matches(is_inner_space);
    if spaces.len() == head.len() || !spaces.ends_with(is_stop) {
        return at;
    }
    let closed = spaced_closers_after(text, spaces.len());
    if closed == spaces.len() {
        return at;
    }
    closed + text[closed..].len() - text[closed..].trim_start_matches(is_gap).len()
}

/// Abbreviations that almost never end a sentence: a capital after them
/// starts a name or an example, not a sentence. Lowercase, with their dots.
const NEVER_END: &[&str] = &[
    "mr.", "mrs.", "ms.", "mx.", "dr.", "prof.", "st.", "mt.", "sr.", "jr.", "gen.", "col.",
    "capt.", "lt.", "sgt.", "rev.", "hon.", "gov.", "sen.", "rep.", "e.g.", "i.e.", "cf.", "vs.",
    "viz.", "approx.", "ca.", "fig.", "figs.", "eq.", "no.", "nos.", "vol.", "pp.", "ch.", "sec.",
    "z.b.", "d.h.", "bzw.", "u.a.",
];

/// Abbreviations that often end a sentence: the UAX #29 boundary after them
/// before a capital is kept, and said to be doubtful.
const MAY_END: &[&str] = &[
    "etc.", "a.m.", "p.m.", "inc.", "ltd.", "co.", "corp.", "al.", "u.s.", "u.k.", "usw.",
];

/// One run of text without whitespace, looked at once.
#[derive(Clone, Copy, Debug, Default)]
struct Tokens {
    /// The current token, `start..end`, and whether it is a URL or e-mail.
    start: usize,
    end: usize,
    address: bool,
}

/// How far back a URL's scheme or an e-mail's `@` is looked for: a token is
/// classified once, from its first this many bytes, so a megabyte without a
/// space costs one short look.
const ADDRESS_LOOK: usize = 2048;

impl Tokens {
    /// The token that holds the byte at `at` (callers ask in increasing
    /// order per cursor, so each token is scanned once).
    fn at(&mut self, text: &str, at: usize) -> (usize, usize, bool) {
        if !(self.start <= at && at < self.end) {
            let from = if at >= self.end { self.end } else { 0 };
            let start = text[from..at]
                .rfind(is_gap)
                .map(|i| {
                    let i = from + i;
                    i + text[i..].chars().next().map_or(1, char::len_utf8)
                })
                .unwrap_or(from);
            let end = text[at..].find(is_gap).map_or(text.len(), |i| at + i);
            let head = &text[start..end.min(floor(text, start + ADDRESS_LOOK))];
            let address = head.contains("://")
                || head.starts_with("www.")
                || head.contains('@') && head.contains('.');
            *self = Tokens {
                start,
                end,
                address,
            };
        }
        (self.start, self.end, self.address)
    }
}

/// The largest char boundary of `text` at or below `at`.
fn floor(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

struct Judge<'a> {
    text: &'a str,
    record: bool,
    decisions: Vec<Decision>,
    tokens: Tokens,
}

/// What a stop looks like in its place.
#[derive(Clone, Copy)]
struct Stop {
    /// The run of stops.
    span: Span,
    /// After the stops and the closers after them.
    closed: usize,
    /// After the whitespace after that: where a next sentence would start.
    next: usize,
}

/// The word around the byte at `at`: its token without opening quotes
/// before it and closers or `,;:` after it.
fn word<'t>(text: &'t str, tokens: &mut Tokens, at: usize) -> &'t str {
    let (start, end, _) = tokens.at(text, at);
    text[start..end]
        .trim_start_matches(is_opener)
        .trim_end_matches(|c: char| is_closer(c) || matches!(c, ',' | ';' | ':'))
}

/// Whether `word` (ending with a full stop) is an abbreviation, and which kind.
fn abbreviation(word: &str) -> Option<Reason> {
    if word.len() > 8 || !word.ends_with('.') {
        return None;
    }
    let mut chars = word.chars();
    if let (Some(c), Some('.'), None) = (chars.next(), chars.next(), chars.next()) {
        if c.is_uppercase() {
            return Some(Reason::Initial);
        }
    }
    let lower = word.to_lowercase();
    if NEVER_END.contains(&lower.as_str()) {
        return Some(Reason::Abbreviation);
    }
    if MAY_END.contains(&lower.as_str()) {
        return Some(Reason::AbbreviationBeforeCapital);
    }
    None
}

impl Judge<'_> {
    /// Judges the UAX #29 boundary at `at` ending the sentence that began at
    /// `start`: true to keep it.
    fn keep_boundary(&mut self, start: usize, at: usize) -> bool {
        let text = self.text;
        let Some(stop) = stop_before(text, start, at) else {
            // A paragraph break, or the end of a run of text: no stop to doubt.
            return true;
        };
        if stop.closed == at && stop.closed > stop.span.end && text[at..].starts_with('と') {
            return self.decide(stop, Reason::QuoteContinues);
        }
        if stop.closed == at {
            // No space at the boundary: inside a token.
            let (_, _, address) = self.tokens.at(text, stop.span.start);
            if address {
                return self.decide(stop, Reason::Address);
            }
            return true;
        }
        let run = &text[stop.span.range()];
        if stop.closed > stop.span.end
            && (run.contains('?') || run.contains('!'))
            && text[at..].chars().next().is_some_and(char::is_lowercase)
        {
            return self.decide(stop, Reason::Attribution);
        }
        if stop.closed == stop.span.end && run == "." {
            let word = word(text, &mut self.tokens, stop.span.start);
            if let Some(reason) = abbreviation(word) {
                return self.decide(stop, reason);
            }
        }
        true
    }

    /// A UAX #29 boundary at `at` moved back before the opening brackets and
    /// quotes that end the sentence before it (UAX #29 keeps `「` of
    /// `。「はい` with the stop), when that leaves the sentence more than
    /// them (it began at `after`).
    fn before_openers(&mut self, after: usize, at: usize) -> usize {
        let text = self.text;
        let head = &text[after..at];
        let bare = head.trim_end_matches(is_opening);
        if bare.len() == head.len() || bare.is_empty() {
            return at;
        }
        let moved = after + bare.len();
        match stop_before(text, after, moved) {
            Some(mut stop) if stop.closed == moved => {
                stop.next = moved;
                self.decide(stop, Reason::BeforeOpeningQuote);
                moved
            }
            _ => at,
        }
    }

    /// Records `reason` for the candidate after `stop` if recording; returns
    /// whether it ends a sentence.
    fn decide(&mut self, stop: Stop, reason: Reason) -> bool {
        if self.record {
            self.decisions.push(Decision {
                at: stop.next,
                stop: stop.span,
                end: reason.ends(),
                reason,
            });
        }
        reason.ends()
    }

    /// Goes through every run of stops that is not at one of UAX #29's
    /// boundaries (`uax`, kept or not) and not at the text's end: records
    /// why it is not an end, or returns it as an end UAX #29 missed.
    fn stops_within(&mut self, uax: &[usize]) -> Vec<usize> {
        let text = self.text;
        let mut added = Vec::new();
        let mut boundaries = uax.iter().copied().peekable();
        let mut tokens = Tokens::default();
        let mut i = 0;
        // Runs of stops are found by their first byte: every stop but the
        // ASCII three starts with a byte ≥ 0xC2, so plain text is skipped a
        // byte at a time without decoding.
        let bytes = text.as_bytes();
        while i < bytes.len() {
            let b = bytes[i];
            if !(b == b'.' || b == b'!' || b == b'?' || b >= 0xC2) {
                i += 1;
                continue;
            }
            let c = text[i..].chars().next().expect("a char boundary");
            if !is_stop(c) {
                i += c.len_utf8();
                continue;
            }
            let stop = stop_at(text, i);
            i = stop.span.end;
            if stop.next >= text.len() {
                continue;
            }
            // Judged already as a UAX #29 boundary?
            while boundaries.peek().is_some_and(|&e| e < stop.span.end) {
                boundaries.next();
            }
            if boundaries.peek().is_some_and(|&e| e <= stop.next) {
                continue;
            }
            let following = text[stop.next..].chars().next().expect("not at the end");
            let run = &text[stop.span.range()];
            let spaced = stop.next > stop.closed;
            if text[stop.closed..stop.next].contains(ZWSP) && !following.is_lowercase() {
                added.push(stop.next);
                self.decide(stop, Reason::ZeroWidthSpace);
                continue;
            }
            if spaced && following.is_uppercase() && (run.contains('…') || run.contains('‥')) {
                added.push(stop.next);
                self.decide(stop, Reason::EllipsisBeforeCapital);
                continue;
            }
            if self.record {
                let reason = explain(text, &mut tokens, stop, following);
                self.decide(stop, reason);
            }
        }
        added
    }
}

/// The stop that ends `start..at` before its trailing whitespace and
/// closers, if that stretch ends with one.
fn stop_before(text: &str, start: usize, at: usize) -> Option<Stop> {
    let part = &text[start..at];
    let trimmed = part.trim_end_matches(is_gap);
    let mut unclosed = trimmed.trim_end_matches(is_closer);
    // A closing guillemet spaced off its stop (`non ! »`) still closes it.
    let inner = unclosed.trim_end_matches(is_inner_space);
    if inner.len() < unclosed.len()
        && trimmed[inner.len()..]
            .trim_start_matches(is_inner_space)
            .starts_with(is_spaced_closer)
        && inner.ends_with(is_stop)
    {
        unclosed = inner;
    }
    let before = unclosed.trim_end_matches(is_stop);
    if before.len() == unclosed.len() {
        return None;
    }
    Some(Stop {
        span: Span::new(start + before.len(), start + unclosed.len()),
        closed: start + trimmed.len(),
        next: at,
    })
}

/// The run of stops starting at byte `i`, the closers and the gap after it.
fn stop_at(text: &str, i: usize) -> Stop {
    let skip = |from: usize, f: fn(char) -> bool| {
        from + text[from..]
            .find(|c: char| !f(c))
            .unwrap_or(text.len() - from)
    };
    let end = skip(i, is_stop);
    let closed = skip(spaced_closers_after(text, end), is_closer);
    let next = skip(closed, is_gap);
    Stop {
        span: Span::new(i, end),
        closed,
        next,
    }
}

/// Why no sentence ends after `stop`, which UAX #29 made no boundary after.
fn explain(text: &str, tokens: &mut Tokens, stop: Stop, following: char) -> Reason {
    let spaced = stop.next > stop.closed;
    let (_, _, address) = tokens.at(text, stop.span.start);
    if address && !spaced {
        return Reason::Address;
    }
    let run = &text[stop.span.range()];
    let before = text[..stop.span.start].chars().next_back();
    if run == "."
        && !spaced
        && before.is_some_and(|c| c.is_ascii_digit())
        && following.is_ascii_digit()
    {
        return Reason::Number;
    }
    if run == "." && stop.closed == stop.span.end {
        if let Some(kind) = abbreviation(word(text, tokens, stop.span.start)) {
            return match kind {
                Reason::Initial => Reason::Initial,
                _ => Reason::Abbreviation,
            };
        }
    }
    if run.contains('…') || run.contains('‥') || run.contains("..") {
        return Reason::Ellipsis;
    }
    if is_stop(following) {
        return Reason::PunctuationFollows;
    }
    if !spaced {
        return Reason::NoSpace;
    }
    if following.is_lowercase() {
        return Reason::LowercaseFollows;
    }
    Reason::PunctuationFollows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str) -> Vec<&str> {
        segment(text, true)
            .spans
            .iter()
            .map(|s| s.text(text))
            .collect()
    }

    #[test]
    fn uax_boundaries_are_unicode_segmentations() {
        for text in [
            "Hello. World",
            "a.b. C d... e? F!\n\ng\r\nh",
            "他说：「好。」然后走了。",
            "Mr. X. Y z. 3.14 e.g. Foo",
            "abc",
            "",
            ". ",
            "ab.\u{200B}Cd ef.\u{301} Gh",
            "x\u{2029}y\u{85}z. ab",
        ] {
            let whole: Vec<usize> = text
                .split_sentence_bound_indices()
                .skip(1)
                .map(|(at, _)| at)
                .collect();
            assert_eq!(uax_boundaries(text), whole, "{text:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 3_000, ..Default::default() })]

        /// Skipping the text that holds no boundary changes no boundary.
        #[test]
        fn skipping_quiet_text_is_exact(
            parts in proptest::collection::vec(
                proptest::sample::select(&[
                    "a", "ab", "Word", "x", ".", "!", "?", " ", "  ", "\n", "\r", "\r\n",
                    "。", "」", "「", "\"", ")", "(", "\u{200B}", "\u{301}", "3", ".5", "é",
                    "\u{2029}", "\u{85}", "…", "Ω", "ω", "中", "\t", ",", ":", "-",
                ][..]),
                0..40,
            ),
        ) {
            let text = parts.concat();
            let whole: Vec<usize> = text
                .split_sentence_bound_indices()
                .skip(1)
                .map(|(at, _)| at)
                .collect();
            proptest::prop_assert_eq!(uax_boundaries(&text), whole);
        }
    }

    #[test]
    fn reasons_are_named_once_and_read_back() {
        for r in Reason::ALL {
            assert_eq!(Reason::from_name(r.name()), Some(r));
            assert_eq!(r.describe().starts_with("sentence end"), r.ends());
        }
        assert_eq!(Reason::from_name("nothing"), None);
    }

    #[test]
    fn sentences_tile_the_text() {
        for text in [
            "",
            "a",
            "One. Two.",
            "  ",
            "。",
            "x\u{200B}. y",
            "....",
            "a.\n\nB.",
        ] {
            let s = segment(text, true);
            let mut at = 0;
            for span in &s.spans {
                assert_eq!(span.start, at, "{text:?}");
                assert!(span.end > span.start);
                at = span.end;
            }
            assert_eq!(at, text.len(), "{text:?}");
        }
    }

    #[test]
    fn the_pitfalls_in_brief() {
        assert_eq!(
            split("Use e.g. Python here. Then stop."),
            ["Use e.g. Python here. ", "Then stop."]
        );
        assert_eq!(
            split("Dr. Smith came. Mr. Jones left."),
            ["Dr. Smith came. ", "Mr. Jones left."]
        );
        assert_eq!(
            split("See https://example.com/A.B?x=1. Next."),
            ["See https://example.com/A.B?x=1. ", "Next."]
        );
        assert_eq!(split("Wait… So it goes."), ["Wait… ", "So it goes."]);
        assert_eq!(
            split("End.\u{200B}Next one."),
            ["End.\u{200B}", "Next one."]
        );
        assert_eq!(
            split("他说：「好。」然后走了。"),
            ["他说：「好。」", "然后走了。"]
        );
    }

    #[test]
    fn every_doubt_is_recorded_with_its_reason() {
        let text = "Dr. Smith ran v2.0.1 at 3 p.m. on day 3.14 (see https://x.org/A.B?q=1). He said \"Stop.\" he said. Wait... what? Hm… So. End.\u{200B}Next one, e.g. Python. Mail a.b@c.de now.";
        let s = segment(text, true);
        let got: Vec<(String, &str, bool)> = s
            .decisions
            .iter()
            .map(|d| (d.stop.text(text).to_string(), d.reason.name(), d.end))
            .collect();
        let want: Vec<(String, &str, bool)> = [
            (".", "abbreviation", false),
            (".", "number", false),
            (".", "number", false),
            (".", "abbreviation", false),
            (".", "abbreviation", false),
            (".", "number", false),
            (".", "address", false),
            (".", "address", false),
            ("?", "address", false),
            (".", "lowercase_follows", false),
            ("...", "ellipsis", false),
            ("…", "ellipsis_before_capital", true),
            (".", "zero_width_space", true),
            (".", "abbreviation", false),
            (".", "abbreviation", false),
            (".", "address", false),
            (".", "address", false),
        ]
        .into_iter()
        .map(|(a, b, c)| (a.to_string(), b, c))
        .collect();
        assert_eq!(got, want);
        let sentences: Vec<&str> = s.spans.iter().map(|sp| sp.text(text)).collect();
        assert_eq!(
            sentences,
            [
                "Dr. Smith ran v2.0.1 at 3 p.m. on day 3.14 (see https://x.org/A.B?q=1). ",
                "He said \"Stop.\" he said. ",
                "Wait... what? ",
                "Hm… ",
                "So. ",
                "End.\u{200B}",
                "Next one, e.g. Python. ",
                "Mail a.b@c.de now.",
            ]
        );
    }
}
