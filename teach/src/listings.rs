//! The lessons' code, line for line, with the bugs known to be in it.
//!
//! "Spot the bugs in this class" is an interview format: a learner reads a
//! listing, marks the lines they suspect, and then sees where the known bugs
//! are. Each known bug sits on one line of the listing as the lesson prints it
//! and names the gallery variant (with a text and settings) that reproduces
//! it, so the claim can be run rather than believed.
//!
//! The listings are the lessons' own code. Where the lesson's page lost the
//! line breaks or the indentation, they are put back; the tests check that
//! taking them out again gives the lesson's text exactly, and that each bug's
//! line holds the code the bug is about.

use crate::bugs::{Bug, Demo};
use chunkscope::Config;

/// A lesson's listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listing {
    /// The option value of `listing-select`.
    pub name: &'static str,
    /// What the menu shows.
    pub title: &'static str,
    /// Which lesson prints it, and what the lesson says it is.
    pub about: &'static str,
    /// The code, one line per line of the listing.
    pub code: &'static str,
    /// The bugs known to be in it, in line order.
    pub bugs: &'static [Known],
    /// Said after the reveal when the listing has no known bug (or to add
    /// what the bugs leave out).
    pub note: &'static str,
}

/// A bug known to be in a listing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Known {
    /// The line it sits on, counted from 1.
    pub line: usize,
    /// The code on that line the bug is about (a test checks it is there).
    pub code: &'static str,
    /// A short name.
    pub title: &'static str,
    /// What it does.
    pub what: &'static str,
    /// The gallery variant that reproduces it.
    pub bug: Bug,
    /// The text and settings to run the variant on; `None` runs its own demo.
    pub repro: Option<Repro>,
}

/// A text and settings that make a variant show one bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repro {
    /// The text.
    pub text: &'static str,
    /// `chunk_size`.
    pub size: usize,
    /// `chunk_overlap`.
    pub overlap: usize,
    /// The separator list passed to the class.
    pub separators: &'static [&'static str],
}

impl Known {
    /// What the gallery runs to show this bug.
    pub fn demo(&self) -> Demo {
        match self.repro {
            None => self.bug.demo(),
            Some(r) => Demo {
                text: r.text,
                config: Config::recursive(r.size)
                    .with_overlap(r.overlap)
                    .with_separators(r.separators.iter().copied()),
            },
        }
    }
}

impl Listing {
    /// The listing's lines.
    pub fn lines(&self) -> impl Iterator<Item = &'static str> {
        self.code.lines()
    }

    /// The lines that hold at least one known bug, in order, without repeats.
    pub fn bug_lines(&self) -> Vec<usize> {
        let mut lines: Vec<usize> = self.bugs.iter().map(|b| b.line).collect();
        lines.sort_unstable();
        lines.dedup();
        lines
    }

    /// The listing with this option value.
    pub fn parse(name: &str) -> Option<&'static Listing> {
        LISTINGS.iter().find(|l| l.name == name)
    }
}

/// How a learner's marks compare with the known bugs, counted in lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Marked lines that hold a known bug.
    pub hits: usize,
    /// Lines with a known bug that were not marked.
    pub misses: usize,
    /// Marked lines with no known bug.
    pub false_marks: usize,
}

/// Scores `marks` (line numbers counted from 1) against `listing`'s bugs.
pub fn score(listing: &Listing, marks: impl IntoIterator<Item = usize>) -> Score {
    let bugs = listing.bug_lines();
    let mut marks: Vec<usize> = marks.into_iter().collect();
    marks.sort_unstable();
    marks.dedup();
    let hits = marks.iter().filter(|m| bugs.contains(m)).count();
    Score {
        hits,
        misses: bugs.len() - hits,
        false_marks: marks.len() - hits,
    }
}

/// Every listing, in menu order.
pub const LISTINGS: [Listing; 5] = [
    Listing {
        name: "fixed_chunks",
        title: "fixed_chunks (lesson 000)",
        about: "Lesson 000's fixed-size windows, given as the correct answer.",
        code: include_str!("../listings/fixed_chunks.py"),
        bugs: &[],
        note: "No known bug. The stop test on line 10 (start + size >= len(text)) is what the \
               range(0, len(text), step) loop gets wrong: that loop starts one more window \
               inside the last one.",
    },
    Listing {
        name: "recursive_split",
        title: "recursive_split (lesson 000)",
        about: "Lesson 000's recursive splitter, given as the correct answer. It keeps the \
                separator (p + sep), falls back to a hard cut and recurses with fewer separators.",
        code: include_str!("../listings/recursive_split.py"),
        bugs: &[Known {
            line: 5,
            code: "text = text.strip()",
            title: "Positions are lost",
            what: "It returns stripped strings, not where they were. A caller that needs \
                   positions (to highlight a source or cite a page) must search the text for \
                   each chunk, and text that occurs twice is found at its first place. The \
                   gallery shows the same mistake in lesson 001's class.",
            bug: Bug::LostOffsets,
            repro: None,
        }],
        note: "The rest holds: every chunk fits, nothing is lost, and each level has fewer \
               separators, so the recursion ends.",
    },
    Listing {
        name: "split",
        title: "split, 11 lines (lesson 002)",
        about: "Lesson 002's eleven-line recursion, shown to explain the idea.",
        code: include_str!("../listings/split_002.py"),
        bugs: &[
            Known {
                line: 2,
                code: "or not seps",
                title: "No hard cut of its own",
                what: "When the list runs out the piece comes back whole, however long. Only a \
                       \"\" at the end of the caller's list cuts it; without one a long URL \
                       comes out oversized.",
                bug: Bug::NoHardCut,
                repro: None,
            },
            Known {
                line: 5,
                code: "text.split(sep)",
                title: "The separator is thrown away",
                what: "str.split removes the separator and nothing puts it back: the blank \
                       lines, newlines and full stops are gone from the chunks, so no chunk is \
                       a slice of the text.",
                bug: Bug::DroppedSeparator,
                repro: None,
            },
            Known {
                line: 9,
                code: "return out",
                title: "No merge pass",
                what: "Every piece that fits is its own chunk: the example prints six chunks of \
                       one c each, where aa, bbb, ccc, ccc would do.",
                bug: Bug::NoMerge,
                repro: None,
            },
        ],
        note: "",
    },
    Listing {
        name: "RecursiveTextChunker",
        title: "RecursiveTextChunker (lesson 001)",
        about: "Lesson 001's \"production\" recursive chunker. Read it closely.",
        code: include_str!("../listings/recursive_text_chunker.py"),
        bugs: &[
            Known {
                line: 6,
                code: "self.chunk_overlap = chunk_overlap",
                title: "No check that overlap < size",
                what: "Any overlap is stored. With an overlap as big as the size no chunk ever \
                       gets one, and nothing says so; the engine refuses the setting with a \
                       message.",
                bug: Bug::UncheckedOverlap,
                repro: None,
            },
            Known {
                line: 20,
                code: "final_chunks.append(current_chunk.strip())",
                title: "An empty chunk",
                what: "It checks that the chunk is non-empty before strip(), not after: a chunk \
                       of only whitespace (blank lines carried over by the overlap) comes out \
                       as \"\".",
                bug: Bug::Seed001,
                repro: Some(Repro {
                    text: "Fees.\n\n\n\n\n\nNone.",
                    size: 6,
                    overlap: 1,
                    separators: &["\n\n"],
                }),
            },
            Known {
                line: 22,
                code: "current_chunk[-self.chunk_overlap:] + s",
                title: "Overlap breaks the size",
                what: "The overlap is put in front of the next piece without measuring again: \
                       the chunk grows past chunk_size.",
                bug: Bug::Seed001,
                repro: Some(Repro {
                    text: "aaaa bbbb cccc dddddddd",
                    size: 10,
                    overlap: 5,
                    separators: &[" "],
                }),
            },
            Known {
                line: 22,
                code: "current_chunk[-self.chunk_overlap:]",
                title: "Overlap 0 repeats everything",
                what: "For an overlap of 0, current_chunk[-0:] is the whole string, not an empty \
                       one: every chunk repeats all the chunks before it.",
                bug: Bug::Seed001,
                repro: Some(Repro {
                    text: "aa bb cc dd ee",
                    size: 5,
                    overlap: 0,
                    separators: &[" "],
                }),
            },
            Known {
                line: 22,
                code: "if self.chunk_overlap < len(current_chunk) else s",
                title: "No overlap after a short chunk",
                what: "When the chunk just closed is not longer than the overlap, the next chunk \
                       gets no overlap at all, where part of it would fit.",
                bug: Bug::OverlapSkipped,
                repro: None,
            },
            Known {
                line: 22,
                code: "current_chunk[-self.chunk_overlap:]",
                title: "Overlap starts mid-word",
                what: "The last chunk_overlap characters are taken wherever they start, so a \
                       chunk opens with the tail of a word.",
                bug: Bug::MidWordOverlap,
                repro: None,
            },
            Known {
                line: 25,
                code: "final_chunks.append(current_chunk.strip())",
                title: "Positions lost after strip()",
                what: "It returns stripped strings: where each chunk was is gone, and searching \
                       for it finds repeated text at its first place.",
                bug: Bug::LostOffsets,
                repro: None,
            },
            Known {
                line: 32,
                code: "text.split(sep)",
                title: "\"\" in the list crashes it",
                what: "str.split(\"\") raises ValueError, so a list ending in the empty \
                       separator (the usual hard cut) makes the class fail on any long text.",
                bug: Bug::Seed001,
                repro: Some(Repro {
                    text: "aaaaaaaaaaaaaaaa",
                    size: 5,
                    overlap: 0,
                    separators: &["\n", ""],
                }),
            },
            Known {
                line: 35,
                code: "and len(separators) > 1",
                title: "The hard cut is never reached",
                what: "A piece is split again only while more than one separator is left, so \
                       list(text) on line 30 never runs: a long URL comes out oversized.",
                bug: Bug::Seed001,
                repro: Some(Repro {
                    text: "Logo: https://cdn.example.com/logo.svg",
                    size: 20,
                    overlap: 1,
                    separators: &["\n\n", " "],
                }),
            },
            Known {
                line: 36,
                code: "result.extend(self._split(s, separators[1:]))",
                title: "The separator is dropped on recursion",
                what: "A piece that is split again loses the separator that followed it: \
                       \"days. Cash\" becomes \"days Cash\".",
                bug: Bug::Seed001,
                repro: Some(Repro {
                    text: "Refunds take five days. Cash is instant.",
                    size: 12,
                    overlap: 1,
                    separators: &[". ", " "],
                }),
            },
            Known {
                line: 38,
                code: "result.append(s + sep)",
                title: "A separator after the last piece",
                what: "s + sep is added even after the last piece, where the text had none: \
                       \"Or cash\" comes out as \"Or cash.\".",
                bug: Bug::Seed001,
                repro: Some(Repro {
                    text: "Pay by card. Or cash",
                    size: 14,
                    overlap: 1,
                    separators: &[". ", " "],
                }),
            },
        ],
        note: "",
    },
    Listing {
        name: "fixed_windows",
        title: "fixed_windows (lesson 004)",
        about:
            "Lesson 004's fixed windows over any sequence of units, with their half-open \
                [start, end) spans, given as the careful version. Exercise 2 writes its unit tests.",
        code: include_str!("../listings/fixed_windows.py"),
        bugs: &[],
        note: "No known bug. It refuses a size that is not a positive integer and an overlap \
               outside 0 <= overlap < size (bools too, since bool is an int), so every step \
               advances; each window carries its [start, end) span, so positions are never \
               searched for; and it stops once a window reaches the end (line 27), so there \
               is no overlap-only tail.",
    },
];
