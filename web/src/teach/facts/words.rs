//! Every sentence a card's finding is said in, made from the values of
//! [`super::finding`] alone: rewording a card touches this file and no other,
//! and no number is worked out here.

use super::finding::{Absent, Chunks, CutBy, CutCounts, Finding, Sides, TokenRatio};
use crate::model::{count, preview};
use crate::state::View;
use std::fmt;

/// The line under the tokens card when the text is too long to count.
pub const TOO_LONG_TO_COUNT: &str = "The text is too long to count its tokens here.";

/// `text` quoted as a learner reads it: newlines as ↵, long text shortened.
fn quote(text: &str) -> String {
    format!("“{}”", preview(&text.replace('\r', "\\r"), 40))
}

/// A separator's label, quoted, with invisible characters spelled out (a
/// zero-width space drawn as itself would be an empty pair of quotes).
fn label(label: &str) -> String {
    let shown: String = (label.chars())
        .map(|c| match c {
            '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => format!("\\u{{{:X}}}", c as u32),
            c => c.to_string(),
        })
        .collect();
    format!("“{shown}”")
}

/// `items` said one after another.
fn list<T>(items: &[T], say: impl Fn(&T) -> String, between: &str) -> String {
    items.iter().map(say).collect::<Vec<_>>().join(between)
}

/// `items` said one after another, or `none` when there are none.
fn list_or<T>(items: &[T], say: impl Fn(&T) -> String, none: &str) -> String {
    if items.is_empty() {
        none.into()
    } else {
        list(items, say, ", ")
    }
}

/// A char's code point, as `U+0301`.
fn code_point(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// `chars / tokens` with one decimal.
fn ratio(chars: usize, tokens: usize) -> String {
    if tokens == 0 {
        return "no".into();
    }
    let tenths = (chars * 10 + tokens / 2) / tokens;
    format!("{}.{}", tenths / 10, tenths % 10)
}

impl fmt::Display for CutBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CutBy::Separator(l) => f.write_str(&label(l)),
            CutBy::Hard => f.write_str("a hard cut"),
            CutBy::Window => f.write_str("a window's end"),
        }
    }
}

impl fmt::Display for CutCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("no cut");
        }
        f.write_str(&list(&self.0, |(by, n)| format!("{n} by {by}"), ", "))
    }
}

impl fmt::Display for Chunks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} chunks, cut {}", self.count, self.cuts)
    }
}

impl fmt::Display for Absent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0[..] {
            [] => f.write_str("every separator occurs"),
            [one] => write!(f, "{} never occurs", label(one)),
            many => write!(f, "{} never occur", list(many, |l| label(l), " and ")),
        }
    }
}

impl fmt::Display for TokenRatio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let chars = self.chars;
        if self.counts.is_empty() {
            return write!(
                f,
                "This text is {chars} chars; choose cl100k or o200k to count its tokens."
            );
        }
        let each = |&(enc, n): &(chunkscope::tokens::Encoding, usize)| {
            format!(
                "{n} {} tokens ({} chars a token)",
                enc.name(),
                ratio(chars, n)
            )
        };
        write!(
            f,
            "This text is {chars} chars: {}.",
            list(&self.counts, each, ", ")
        )
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finding::NotInTokens { unit } => write!(
                f,
                "Counting in {}: choose cl100k or o200k to count in tokens.",
                unit.name()
            ),
            Finding::Tokens {
                unit,
                chunks,
                size,
                longest_chars,
            } => write!(
                f,
                "In {}, {chunks} chunks of at most {size} tokens; the longest is {longest_chars} chars.",
                unit.name()
            ),
            Finding::Overlap {
                chunks,
                repeating,
                most,
                overlap,
                longest,
                size,
            } => write!(
                f,
                "{repeating} of {chunks} chunks start by repeating the end of the one before (at most {most} chars, the overlap is {overlap}); the longest chunk is {longest}, within the size {size}."
            ),
            Finding::NoHeadings => {
                f.write_str("No heading paths: this is not the Markdown strategy.")
            }
            Finding::Markdown {
                chunks,
                with_path,
                last_path,
                ..
            } => write!(
                f,
                "{with_path} of {chunks} chunks carry a heading path; the last one's is “{}”, put before it as its prefix and counted in its size.",
                last_path.join(" > ")
            ),
            Finding::MdHeading(Sides {
                recursive,
                markdown,
            }) => {
                let (s, verb) = if *recursive == 1 { ("", "s") } else { ("s", "") };
                write!(
                    f,
                    "Recursive: {recursive} chunk{s} end{verb} in a heading whose body starts the next chunk; Markdown: {markdown}."
                )
            }
            Finding::MdTable { rows_alone, headed } => write!(
                f,
                "Recursive: {rows_alone} chunk{} of rows with no header row; Markdown: {headed} with the header row recorded as context.",
                if *rows_alone == 1 { "" } else { "s" }
            ),
            Finding::MdFence(Sides {
                recursive,
                markdown,
            }) => write!(
                f,
                "Chunks holding half a code fence: recursive {recursive}, Markdown {markdown}."
            ),
            Finding::TooSmall {
                size,
                chunks,
                dangling,
            } => write!(
                f,
                "At size {size}: {}; {} open with a pronoun whose subject is in another chunk: {}.",
                count(*chunks, "chunk", "chunks"),
                dangling.len(),
                list(dangling, |(k, t)| format!("chunk {k} {}", quote(t)), ", ")
            ),
            Finding::TooBig {
                size,
                chunks,
                biggest,
                len,
                paragraphs,
            } => write!(
                f,
                "At size {size}: {}; chunk {biggest} is {len} chars and holds {paragraphs} paragraphs on different topics, so one vector has to stand for all of them.",
                count(*chunks, "chunk", "chunks")
            ),
            Finding::Typical {
                size,
                overlap,
                percent,
                chunks,
                median,
                shortest,
                longest,
            } => write!(
                f,
                "Size {size} chars with overlap {overlap} ({percent} % of the size): {chunks} chunks, median {median} chars, shortest {shortest}, longest {longest}."
            ),
            Finding::Headline {
                windows,
                mid_word,
                cut_words,
                recursive,
            } => write!(
                f,
                "Fixed: {windows} windows, {mid_word} of them cut inside a word ({}). Recursive: {recursive}.",
                list(cut_words, |(l, r)| format!("“{l}|{r}”"), ", ")
            ),
            Finding::Libraries {
                chunks,
                alike,
                common,
            } => {
                let name = |s: &chunkscope::Strategy| View::short_title_of(*s);
                let counts = (chunks.iter().enumerate())
                    .map(|(i, (s, n))| match (i, n) {
                        (0, 1) => format!("{} 1 chunk", name(s)),
                        (0, n) => format!("{} {n} chunks", name(s)),
                        (_, n) => format!("{} {n}", name(s)),
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                let same = if alike.is_empty() {
                    "no two libraries give the same chunks".to_string()
                } else {
                    let pairs = list(alike, |(a, b)| format!("{} and {}", name(a), name(b)), ", ");
                    format!("the same chunks from {pairs}")
                };
                let common = match common {
                    0 => "no chunk is the same in all of them".to_string(),
                    1 => "1 chunk is the same in all of them".to_string(),
                    n => format!("{n} chunks are the same in all of them"),
                };
                write!(f, "Same page, same size: {counts}; {same}, and {common}.")
            }
            Finding::EqualSized {
                size,
                lengths,
                shortest,
                longest,
            } => write!(
                f,
                "Chunk lengths at size {size}: {}: from {shortest} to {longest}, and none has to reach the size.",
                list(lengths, usize::to_string, ", ")
            ),
            Finding::AllAtOnce {
                used,
                unused,
                hard_cut,
                ..
            } => {
                let name = |by: &CutBy| match by {
                    CutBy::Hard => "the hard cut".to_string(),
                    by => by.to_string(),
                };
                let said = list(
                    used,
                    |(by, lens)| {
                        format!(
                            "{} split {} of {} chars",
                            name(by),
                            count(lens.len(), "piece", "pieces"),
                            list(lens, usize::to_string, ", ")
                        )
                    },
                    "; ",
                );
                let never = if unused.is_empty() {
                    "nothing else".to_string()
                } else {
                    list(unused, name, " and ")
                };
                write!(
                    f,
                    "{said}; {never} never ran{}. Each finer separator was tried only on a piece still too big.",
                    if *hard_cut { " (a piece was cut hard)" } else { "" }
                )
            }
            Finding::Fallback {
                chunks,
                longest,
                size,
            } => write!(
                f,
                "{chunks}. The longest is {longest}, within the size {size}: without the hard cut the blob would stay one oversized piece."
            ),
            Finding::Meaning { mixed: Some((k, t)) } => write!(
                f,
                "Chunk {k} {} is about refunds and about shipping: the cut fell where the length ran out, not where the topic changed.",
                quote(t)
            ),
            Finding::Meaning { mixed: None } => {
                f.write_str("No chunk mixes refunds and shipping at these settings.")
            }
            Finding::Merge {
                merged,
                unmerged,
                shortest,
            } => write!(
                f,
                "With the merge: {merged} chunks. Without it (the lesson's eleven lines): {unmerged} pieces, the shortest {shortest} chars."
            ),
            Finding::Slack {
                absent,
                chunks,
            } => write!(f, "{absent}; {chunks}."),
            Finding::DoingWork {
                chunks,
                total,
                mid_word,
            } => write!(
                f,
                "{}, cut {}: {} of {total} cuts by a named separator, {mid_word} inside a word.",
                count(chunks.count, "chunk", "chunks"),
                chunks.cuts,
                chunks.cuts.named()
            ),
            Finding::Pdf {
                absent,
                chunks,
                hard_cut,
                ..
            } => write!(
                f,
                "{absent}; {chunks}. Hard-cut: {}.",
                list_or(hard_cut, |t| quote(t), "nothing")
            ),
            Finding::Csv {
                absent,
                chunks,
                at_row,
            } => write!(
                f,
                "{absent}; {chunks}; {at_row} of the {} chunks after the first start where a row starts.",
                chunks.count.saturating_sub(1)
            ),
            Finding::Json {
                absent,
                chunks,
                mid_word_starts,
            } => write!(
                f,
                "{absent}; {chunks}. Chunks starting inside a key or a value: {}.",
                list_or(mid_word_starts, |t| quote(&preview(t, 12)), "none")
            ),
            Finding::Crlf {
                crlf,
                lf,
                absent,
                with_break,
            } => write!(
                f,
                "The text has {crlf} “\\r\\n\\r\\n” and {lf} “\\n\\n”, so {absent}. {} chunks hold a paragraph break inside them: {}.",
                with_break.len(),
                list(with_break, |t| quote(t), ", ")
            ),
            Finding::Nfd { lines, torn } => write!(
                f,
                "The two lines look the same but are {} chars long (one é is one char in NFC, two in NFD). Chunks starting with an accent cut from its letter: {}.",
                list(lines, usize::to_string, " and "),
                list(torn, |&(k, c)| format!("chunk {k} ({})", code_point(c)), ", ")
            ),
            Finding::Abbreviations { after, shortest } => write!(
                f,
                "“. ” cut after {}. The shortest chunk is {}.",
                list(after, |w| format!("“{w}”"), ", "),
                quote(shortest)
            ),
            Finding::NoSentences => {
                f.write_str("This split has no sentences: choose the sentence strategy.")
            }
            Finding::Sentences { sentences, kept } => write!(
                f,
                "{sentences} sentences. Not sentence ends: {}.",
                list(
                    kept,
                    |(w, why)| format!("“{w}” ({})", why.name().replace('_', " ")),
                    ", "
                )
            ),
            Finding::CjkQuote {
                chunks,
                opened,
            } => write!(
                f,
                "{chunks}. Chunks that start with the closing quote of the sentence before: {}.",
                list_or(opened, |(k, t)| format!("chunk {k}: {t}"), "none")
            ),
            Finding::Thai {
                chunks,
                torn,
                zero_width,
            } => write!(
                f,
                "No space to cut at: {chunks}. {} chunks start with a vowel or tone mark torn from its consonant ({}). The text has {zero_width} zero-width spaces (U+200B) between words; the list does not use them.",
                torn.len(),
                list(torn, |&(_, c)| code_point(c), ", ")
            ),
            Finding::Zwsp {
                chunks,
                torn,
            } => write!(
                f,
                "{chunks}; {torn} chunks start with a mark torn from its letter."
            ),
        }
    }
}
