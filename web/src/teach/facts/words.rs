//! Every sentence a card's finding is said in, made from the values of
//! [`super::finding`] alone: rewording a card touches this file and no other.
//! The numbers said are the values' own, or how many items a list of them
//! holds; none is worked out here.

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
        let chunks = count(self.count, "chunk", "chunks");
        if self.cuts.0.is_empty() {
            return write!(f, "{chunks}, no cut");
        }
        write!(f, "{chunks}, cut {}", self.cuts)
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
                match self.tenths_a_token(n) {
                    Some(t) => format!("{}.{}", t / 10, t % 10),
                    None => "no".into(),
                }
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
                    "every separator ran".to_string()
                } else {
                    format!("{} never ran", list(unused, name, " and "))
                };
                write!(
                    f,
                    "{said}; {never}{}. Each finer separator was tried only on a piece still too big.",
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
                after_first,
                at_row,
            } => write!(
                f,
                "{absent}; {chunks}; {at_row} of the {after_first} chunks after the first start where a row starts."
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
                "The text has {crlf} “\\r\\n\\r\\n” and {lf} “\\n\\n”, so {absent}. {}: {}.",
                count(
                    with_break.len(),
                    "chunk holds a paragraph break inside it",
                    "chunks hold a paragraph break inside them"
                ),
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
                "{}. Not sentence ends: {}.",
                count(*sentences, "sentence", "sentences"),
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
                "No space to cut at: {chunks}. {} with a vowel or tone mark torn from its consonant ({}). The text has {} (U+200B) between words; the list does not use them.",
                count(torn.len(), "chunk starts", "chunks start"),
                list(torn, |&(_, c)| code_point(c), ", "),
                count(*zero_width, "zero-width space", "zero-width spaces")
            ),
            Finding::Zwsp {
                chunks,
                torn,
            } => write!(
                f,
                "{chunks}; {} with a mark torn from its letter.",
                count(*torn, "chunk starts", "chunks start")
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teach::facts::written::{chunks, sep, strings};
    use chunkscope::sentence::Reason;
    use chunkscope::tokens::Encoding;
    use chunkscope::{Strategy, Unit};

    /// One sentence of each shape the cards use, written out by hand: the
    /// cuts and the absent separators, quoted chunks, plurals, lists that
    /// may be empty, code points, the libraries' agreement.
    #[test]
    fn each_shape_of_sentence_reads_as_written() {
        let long = "Refunds take 5 days and go to the original UPI id. Shipping is free.";
        let cases: Vec<(Finding, &str)> = vec![
            (
                Finding::Slack {
                    absent: Absent(strings(&["\\n\\n"])),
                    chunks: chunks(29, vec![sep("\\n", 24), sep(" ", 4)]),
                },
                "“\\n\\n” never occurs; 29 chunks, cut 24 by “\\n”, 4 by “ ”.",
            ),
            (
                Finding::Slack {
                    absent: Absent::default(),
                    chunks: chunks(3, vec![(CutBy::Window, 2)]),
                },
                "every separator occurs; 3 chunks, cut 2 by a window's end.",
            ),
            (
                Finding::Json {
                    absent: Absent(strings(&["\\n\\n", "\\n"])),
                    chunks: chunks(4, vec![(CutBy::Hard, 3)]),
                    mid_word_starts: strings(&["efunded\",\"total\":286.29}"]),
                },
                "“\\n\\n” and “\\n” never occur; 4 chunks, cut 3 by a hard cut. Chunks starting inside a key or a value: “efunded\",\"to…”.",
            ),
            (
                Finding::Zwsp {
                    chunks: chunks(5, vec![sep("\u{200b}", 4)]),
                    torn: 0,
                },
                "5 chunks, cut 4 by “\\u{200B}”; 0 chunks start with a mark torn from its letter.",
            ),
            (
                Finding::Crlf {
                    crlf: 2,
                    lf: 0,
                    absent: Absent(strings(&["\\n\\n"])),
                    with_break: strings(&["Refund policy\r\n\r\nRefunds take 5 days.", "Hi\r\n\r\nBye"]),
                },
                "The text has 2 “\\r\\n\\r\\n” and 0 “\\n\\n”, so “\\n\\n” never occurs. 2 chunks hold a paragraph break inside them: “Refund policy\\r↵\\r↵Refunds take 5 days.”, “Hi\\r↵\\r↵Bye”.",
            ),
            // One of each counted thing reads in the singular.
            (
                Finding::Zwsp {
                    chunks: chunks(1, vec![]),
                    torn: 1,
                },
                "1 chunk, no cut; 1 chunk starts with a mark torn from its letter.",
            ),
            (
                Finding::Crlf {
                    crlf: 1,
                    lf: 0,
                    absent: Absent(strings(&["\\n\\n"])),
                    with_break: strings(&["Hi\r\n\r\nBye"]),
                },
                "The text has 1 “\\r\\n\\r\\n” and 0 “\\n\\n”, so “\\n\\n” never occurs. 1 chunk holds a paragraph break inside it: “Hi\\r↵\\r↵Bye”.",
            ),
            (
                Finding::Meaning {
                    mixed: Some((0, long.into())),
                },
                "Chunk 0 “Refunds take 5 days and go to the origin…” is about refunds and about shipping: the cut fell where the length ran out, not where the topic changed.",
            ),
            (
                Finding::Meaning { mixed: None },
                "No chunk mixes refunds and shipping at these settings.",
            ),
            (
                Finding::TooSmall {
                    size: 40,
                    chunks: 1,
                    dangling: vec![(0, "It takes 5 days.".into())],
                },
                "At size 40: 1 chunk; 1 open with a pronoun whose subject is in another chunk: chunk 0 “It takes 5 days.”.",
            ),
            (
                Finding::MdHeading(Sides {
                    recursive: 1,
                    markdown: 0,
                }),
                "Recursive: 1 chunk ends in a heading whose body starts the next chunk; Markdown: 0.",
            ),
            (
                Finding::MdHeading(Sides {
                    recursive: 2,
                    markdown: 1,
                }),
                "Recursive: 2 chunks end in a heading whose body starts the next chunk; Markdown: 1.",
            ),
            (
                Finding::Libraries {
                    chunks: vec![
                        (Strategy::LangChain, 5),
                        (Strategy::TextSplitter, 5),
                        (Strategy::Semchunk, 5),
                    ],
                    alike: vec![(Strategy::TextSplitter, Strategy::Semchunk)],
                    common: 0,
                },
                "Same page, same size: LangChain 5 chunks, text-splitter 5, semchunk 5; the same chunks from text-splitter and semchunk, and no chunk is the same in all of them.",
            ),
            (
                Finding::Libraries {
                    chunks: vec![(Strategy::LangChain, 1), (Strategy::Semchunk, 2)],
                    alike: vec![],
                    common: 1,
                },
                "Same page, same size: LangChain 1 chunk, semchunk 2; no two libraries give the same chunks, and 1 chunk is the same in all of them.",
            ),
            (
                Finding::AllAtOnce {
                    used: vec![
                        (CutBy::Separator("\\n\\n".into()), vec![114]),
                        (CutBy::Separator(". ".into()), vec![52, 47]),
                    ],
                    unused: vec![CutBy::Separator(" ".into()), CutBy::Hard],
                    hard_cut: false,
                    pieces: 6,
                    split: 3,
                },
                "“\\n\\n” split 1 piece of 114 chars; “. ” split 2 pieces of 52, 47 chars; “ ” and the hard cut never ran. Each finer separator was tried only on a piece still too big.",
            ),
            (
                Finding::AllAtOnce {
                    used: vec![(CutBy::Separator(" ".into()), vec![50])],
                    unused: vec![],
                    hard_cut: true,
                    pieces: 3,
                    split: 1,
                },
                "“ ” split 1 piece of 50 chars; every separator ran (a piece was cut hard). Each finer separator was tried only on a piece still too big.",
            ),
            (
                Finding::Headline {
                    windows: 3,
                    mid_word: 1,
                    cut_words: vec![("g".into(), "et".into())],
                    recursive: chunks(5, vec![sep("\\n\\n", 2), sep(". ", 1)]),
                },
                "Fixed: 3 windows, 1 of them cut inside a word (“g|et”). Recursive: 5 chunks, cut 2 by “\\n\\n”, 1 by “. ”.",
            ),
            (
                Finding::DoingWork {
                    chunks: chunks(3, vec![sep("\\n", 1), (CutBy::Hard, 1)]),
                    total: 2,
                    mid_word: 1,
                },
                "3 chunks, cut 1 by “\\n”, 1 by a hard cut: 1 of 2 cuts by a named separator, 1 inside a word.",
            ),
            (
                Finding::Nfd {
                    lines: vec![27, 33],
                    torn: vec![(4, '\u{301}'), (7, '\u{300}')],
                },
                "The two lines look the same but are 27 and 33 chars long (one é is one char in NFC, two in NFD). Chunks starting with an accent cut from its letter: chunk 4 (U+0301), chunk 7 (U+0300).",
            ),
            (
                Finding::Sentences {
                    sentences: 3,
                    kept: vec![
                        ("Dr.".into(), Reason::Abbreviation),
                        ("shop.example.com".into(), Reason::NoSpace),
                    ],
                },
                "3 sentences. Not sentence ends: “Dr.” (abbreviation), “shop.example.com” (no space).",
            ),
            (
                Finding::NotInTokens { unit: Unit::Chars },
                "Counting in chars: choose cl100k or o200k to count in tokens.",
            ),
            (
                Finding::NoHeadings,
                "No heading paths: this is not the Markdown strategy.",
            ),
            (
                Finding::NoSentences,
                "This split has no sentences: choose the sentence strategy.",
            ),
        ];
        for (finding, want) in cases {
            assert_eq!(finding.to_string(), want, "{finding:?}");
        }
        assert_eq!(CutCounts::default().to_string(), "no cut");
    }

    /// The tokens card's line: chars a token with one decimal, rounded.
    #[test]
    fn the_ratio_line_says_chars_a_token() {
        let counted = TokenRatio {
            chars: 541,
            counts: vec![(Encoding::Cl100k, 564), (Encoding::O200k, 400)],
        };
        assert_eq!(
            counted.to_string(),
            "This text is 541 chars: 564 cl100k tokens (1.0 chars a token), 400 o200k tokens (1.4 chars a token)."
        );
        let none = TokenRatio {
            chars: 4,
            counts: vec![],
        };
        assert_eq!(
            none.to_string(),
            "This text is 4 chars; choose cl100k or o200k to count its tokens."
        );
        let empty = TokenRatio {
            chars: 0,
            counts: vec![(Encoding::Cl100k, 0)],
        };
        assert_eq!(
            empty.to_string(),
            "This text is 0 chars: 0 cl100k tokens (no chars a token)."
        );
    }
}
