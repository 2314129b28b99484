//! The numbers of a split, defined once: its chunk lengths summarised, its
//! cuts counted by what made them, and where each cut falls in the text's
//! words and sentences.
//!
//! The page, its corpus view and its teaching cards all report these; they
//! read them from here, so a median or a count means the same everywhere.
//!
//! ```
//! use chunkscope::stats::{Cuts, Lengths, Place, Places};
//! use chunkscope::{Config, Separator, Splitter};
//!
//! let text = "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\nCOD orders get store credit.\n\nContact us 24x7.";
//! let mut config = Config::recursive(40);
//! config.separators = ["\n\n", "\n", ". ", " ", ""].map(Separator::literal).to_vec();
//! let output = Splitter::new(config.clone(), &chunkscope::Resources::new()).unwrap().split(text).unwrap();
//!
//! let lengths = Lengths::of(output.chunks.iter().map(|c| c.len));
//! assert_eq!((lengths.count, lengths.min, lengths.median, lengths.max), (5, 13, 20, 31));
//!
//! let cuts = Cuts::of(text, &output.chunks, config.separators.len());
//! // Two cuts by the blank line, one by the newline, one by ". ": the
//! // hierarchy did the work, and no cut fell inside a word.
//! assert_eq!(cuts.by_separator, [2, 1, 1, 0, 0]);
//! assert_eq!((cuts.total(), cuts.hard, cuts.mid_word), (4, 0, 0));
//! assert_eq!(Places::new(text).mid_sentence(&output.chunks), 0);
//!
//! // Fixed windows of 40 cut "They| go", between two words of one
//! // sentence, and "g|et", inside a word.
//! let fixed = Splitter::new(Config::fixed(40, 0), &chunkscope::Resources::new()).unwrap().split(text).unwrap();
//! let places = Places::new(text);
//! let at: Vec<Place> = fixed.chunks[..2].iter().map(|c| places.of(c.span.end)).collect();
//! assert_eq!(at, [Place::InsideSentence, Place::InsideWord]);
//! let cuts = Cuts::of(text, &fixed.chunks, 0);
//! assert_eq!((cuts.windows, cuts.mid_word), (2, 1));
//! assert_eq!(places.mid_sentence(&fixed.chunks), 2);
//! ```

use crate::sentence;
use crate::span::Span;
use crate::trace::{Chunk, Cut, Output};

/// Chunk lengths summarised, in the split's unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lengths {
    /// How many chunks.
    pub count: usize,
    /// The shortest length (0 without chunks).
    pub min: usize,
    /// The lower median: the length at index `(count - 1) / 2` once sorted,
    /// so it is always a length some chunk has (0 without chunks).
    pub median: usize,
    /// The longest length (0 without chunks).
    pub max: usize,
    /// All lengths added up.
    pub total: usize,
}

impl Lengths {
    /// The summary of `lengths`, in any order.
    pub fn of(lengths: impl IntoIterator<Item = usize>) -> Lengths {
        let mut sorted: Vec<usize> = lengths.into_iter().collect();
        sorted.sort_unstable();
        let count = sorted.len();
        Lengths {
            count,
            min: sorted.first().copied().unwrap_or(0),
            median: sorted
                .get(count.saturating_sub(1) / 2)
                .copied()
                .unwrap_or(0),
            max: sorted.last().copied().unwrap_or(0),
            total: sorted.iter().sum(),
        }
    }

    /// The mean length (0 without chunks).
    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.total as f64 / self.count as f64
        }
    }
}

/// The cuts between chunks, counted by what made each one. The last chunk's
/// [`Cut::End`] is not a cut.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct Cuts {
    /// Cuts each separator made, by its index in the list.
    pub by_separator: Vec<usize>,
    /// Hard cuts: no separator was left, or the list said `""`.
    pub hard: usize,
    /// Ends of fixed windows.
    pub windows: usize,
    /// Boundaries of the document's structure (the Markdown strategy).
    pub structure: usize,
    /// Semantic breakpoints.
    pub breakpoints: usize,
    /// Cuts with a letter or digit on both sides ([`inside_word`]): a word
    /// cut in two.
    pub mid_word: usize,
}

impl Cuts {
    /// The cuts between `chunks` of `text`, for a list of `separators`
    /// separators. A cut by a separator past the list (which no engine
    /// makes) is counted in no column but still in `mid_word`.
    pub fn of(text: &str, chunks: &[Chunk], separators: usize) -> Cuts {
        let mut cuts = Cuts {
            by_separator: vec![0; separators],
            ..Cuts::default()
        };
        for chunk in chunks {
            match chunk.cut {
                Cut::Separator(i) => {
                    if let Some(n) = cuts.by_separator.get_mut(i) {
                        *n += 1;
                    }
                }
                Cut::Hard => cuts.hard += 1,
                Cut::Window => cuts.windows += 1,
                Cut::Structure(_) => cuts.structure += 1,
                Cut::Breakpoint => cuts.breakpoints += 1,
                Cut::End => continue,
            }
            if inside_word(text, chunk.span.end) {
                cuts.mid_word += 1;
            }
        }
        cuts
    }

    /// All cuts between chunks.
    pub fn total(&self) -> usize {
        self.by_separator.iter().sum::<usize>()
            + self.hard
            + self.windows
            + self.structure
            + self.breakpoints
    }

    /// Adds another split's cuts under the same list of separators (a corpus
    /// of documents split under one configuration).
    pub fn add(&mut self, other: &Cuts) {
        if self.by_separator.len() < other.by_separator.len() {
            self.by_separator.resize(other.by_separator.len(), 0);
        }
        for (n, m) in self.by_separator.iter_mut().zip(&other.by_separator) {
            *n += m;
        }
        self.hard += other.hard;
        self.windows += other.windows;
        self.structure += other.structure;
        self.breakpoints += other.breakpoints;
        self.mid_word += other.mid_word;
    }
}

/// How a split's chunks cover its text: what no chunk holds, what a chunk
/// repeats of the chunks before it, and which chunks are not slices of it.
///
/// Counted in chars whatever the split's unit, so that splits in different
/// units (or of different libraries) compare. Where chunks overlap, text is
/// repeated once for each extra chunk that holds it.
///
/// ```
/// use chunkscope::stats::Tiling;
/// use chunkscope::{Config, Splitter};
///
/// let text = "one two three four five";
/// let fixed = Splitter::new(Config::fixed(10, 3), &chunkscope::Resources::new()).unwrap().split(text).unwrap();
/// let tiling = Tiling::of(text, &fixed);
/// // Windows of 10 that step by 7: [0, 10), [7, 17), [14, 23), each
/// // repeating 3 chars of the one before.
/// assert_eq!((tiling.lost, tiling.repeated, tiling.not_slices), (0, 6, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tiling {
    /// Chars of the text that no chunk holds and that are not whitespace:
    /// text a retriever can never return.
    pub lost: usize,
    /// Chars a chunk holds that a chunk before it already holds (overlap,
    /// or a library that repeats text).
    pub repeated: usize,
    /// Chunks whose text, as the library returns it, is not the text of
    /// their span (LangChain joining regex separators back as patterns).
    pub not_slices: usize,
}

impl Tiling {
    /// How the chunks of `output` cover `text`, the text it split. Linear in
    /// the text and the chunks.
    pub fn of(text: &str, output: &Output) -> Tiling {
        let mut spans: Vec<Span> = output.chunks.iter().map(|c| c.span).collect();
        spans.sort_unstable_by_key(|s| (s.start, s.end));
        let chars = |from: usize, to: usize| text[from..to].chars().count();
        let lost_in = |from: usize, to: usize| {
            text[from..to]
                .chars()
                .filter(|&c| !crate::span::is_space(c))
                .count()
        };
        let mut tiling = Tiling {
            not_slices: output.not_slices(),
            ..Tiling::default()
        };
        // Everything before `covered` is in some chunk or counted as lost.
        let mut covered = 0;
        for span in spans {
            if span.start > covered {
                tiling.lost += lost_in(covered, span.start);
            } else {
                tiling.repeated += chars(span.start, span.end.min(covered));
            }
            covered = covered.max(span.end);
        }
        tiling.lost += lost_in(covered, text.len());
        tiling
    }
}

/// Where splits of one text agree: which of them give the same chunks, and
/// how many chunks every one of them gives.
///
/// Two splits give the same chunks when their chunk texts, as each library
/// returns them, are equal in order. A chunk is common to all when every
/// split has a chunk over the same text once whitespace at its ends is left
/// out (libraries trim differently, and a chunk that keeps its trailing
/// newline holds the same words).
///
/// ```
/// use chunkscope::stats::Agreement;
/// use chunkscope::{Config, Splitter};
///
/// let text = "Refunds take 5 days.\n\nContact us 24x7.";
/// let split = |c: Config| Splitter::new(c, &chunkscope::Resources::new()).unwrap().split(text).unwrap();
/// let (a, b, c) = (split(Config::recursive(24)), split(Config::recursive(30)), split(Config::fixed(24, 0)));
/// let agreement = Agreement::of(text, &[&a, &b, &c]);
/// assert_eq!(agreement.same_as, [vec![1], vec![0], vec![]]);
/// // Fixed windows cut "Contact" in two: no chunk is in all three.
/// assert_eq!(agreement.common, 0);
/// assert_eq!(Agreement::of(text, &[&a, &b]).common, 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    /// For each split, the others (by index) that give the same chunks.
    pub same_as: Vec<Vec<usize>>,
    /// How many chunks of the first split every other split has too.
    pub common: usize,
}

impl Agreement {
    /// How `outputs`, splits of `text`, agree.
    pub fn of(text: &str, outputs: &[&Output]) -> Agreement {
        let texts: Vec<Vec<&str>> = outputs
            .iter()
            .map(|o| (0..o.chunks.len()).map(|i| o.chunk_text(i, text)).collect())
            .collect();
        let same_as = (0..outputs.len())
            .map(|i| {
                (0..outputs.len())
                    .filter(|&j| j != i && texts[j] == texts[i])
                    .collect()
            })
            .collect();
        let trimmed = |o: &Output| -> std::collections::HashSet<Span> {
            o.chunks
                .iter()
                .map(|c| crate::span::trim(text, c.span))
                .collect()
        };
        let common = match outputs.split_first() {
            Some((first, rest)) => {
                let others: Vec<_> = rest.iter().map(|o| trimmed(o)).collect();
                trimmed(first)
                    .iter()
                    .filter(|span| others.iter().all(|o| o.contains(span)))
                    .count()
            }
            None => 0,
        };
        Agreement { same_as, common }
    }
}

/// Where a cut at one offset of a text falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A letter or digit on both sides ([`inside_word`]): a word cut in two.
    InsideWord,
    /// Inside a sentence, not inside a word.
    InsideSentence,
    /// At a sentence's end or in the whitespace after it (the crate's
    /// sentence rules, [`sentence::sentences`]: a line end always ends one),
    /// or at either end of the text.
    BetweenSentences,
}

/// Whether a cut at byte `at` of `text` falls inside a word: a letter or
/// digit on both sides. The one definition the report, the page and the
/// teaching cards count by.
pub fn inside_word(text: &str, at: usize) -> bool {
    text[..at]
        .chars()
        .next_back()
        .is_some_and(char::is_alphanumeric)
        && text[at..].chars().next().is_some_and(char::is_alphanumeric)
}

/// A text's sentences, found once, to place any number of cuts in it.
#[derive(Clone, Debug)]
pub struct Places<'t> {
    text: &'t str,
    /// The whitespace after each sentence but the last, in order: where the
    /// sentence level of a separator list cuts ([`sentence::gaps`]).
    gaps: Vec<Span>,
}

impl<'t> Places<'t> {
    /// Finds the sentences of `text` (linear in it).
    pub fn new(text: &'t str) -> Places<'t> {
        Places {
            text,
            gaps: sentence::gaps(text, &sentence::sentences(text)),
        }
    }

    /// Where a cut at byte `at` falls. `at` must be a char boundary of the
    /// text, as every chunk's end is.
    pub fn of(&self, at: usize) -> Place {
        if inside_word(self.text, at) {
            return Place::InsideWord;
        }
        // A cut at either end of the text, or anywhere from a sentence's end
        // through the whitespace after it, is between sentences.
        let first_ending_at_or_after = self.gaps.partition_point(|g| g.end < at);
        let in_gap = self
            .gaps
            .get(first_ending_at_or_after)
            .is_some_and(|g| g.start <= at);
        if at == 0 || at >= self.text.len() || in_gap {
            Place::BetweenSentences
        } else {
            Place::InsideSentence
        }
    }

    /// How many of the cuts between `chunks` (of this text) fall inside a
    /// sentence ([`Place::InsideWord`] or [`Place::InsideSentence`]): the
    /// chunk before ends mid-thought. Apart from [`Cuts`], which is cheap,
    /// since it needs the sentences of the whole text.
    pub fn mid_sentence(&self, chunks: &[Chunk]) -> usize {
        chunks
            .iter()
            .filter(|c| c.cut != Cut::End && self.of(c.span.end) != Place::BetweenSentences)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Separator, Splitter, Strategy};

    /// Written out by hand: what each split covers of its text.
    #[test]
    fn tiling_counts_what_is_lost_repeated_and_not_a_slice() {
        let split = |config: Config, text: &str| {
            Splitter::new(config, &crate::Resources::new())
                .unwrap()
                .split(text)
                .unwrap()
        };
        // LangChain without its separators (keep_separator=False) drops the
        // full stops: two chars no chunk holds.
        let text = "aa.bb.cc";
        let mut config = Config::for_strategy(Strategy::LangChain).with_separators(["."]);
        config.size = 2;
        config.placement = crate::Placement::None;
        let output = split(config, text);
        let texts: Vec<&str> = (0..output.chunks.len())
            .map(|i| output.chunk_text(i, text))
            .collect();
        assert_eq!(texts, ["aa", "bb", "cc"]);
        assert_eq!(
            Tiling::of(text, &output),
            Tiling {
                lost: 2,
                repeated: 0,
                not_slices: 0
            }
        );
        // A regex separator merged back is joined as its pattern: "a\.b" is
        // LangChain's text, not a slice of "a.b".
        let text = "a.b";
        let mut config = Config::for_strategy(Strategy::LangChain);
        config.separators = vec![Separator::regex(r"\.")];
        config.size = 10;
        config.placement = crate::Placement::None;
        let output = split(config, text);
        assert_eq!(output.chunk_text(0, text), r"a\.b");
        assert_eq!(
            Tiling::of(text, &output),
            Tiling {
                lost: 0,
                repeated: 0,
                not_slices: 1
            }
        );
        // Chars, not bytes: a window overlap of 2 chars over 4-byte emoji.
        let text = "😀😀😀😀😀😀";
        let output = split(Config::fixed(4, 2), text);
        assert_eq!(output.chunks.len(), 2);
        assert_eq!(Tiling::of(text, &output).repeated, 2);
        assert_eq!(
            Tiling::of("", &split(Config::recursive(4), "")),
            Tiling::default()
        );
        // Whitespace no chunk holds is not lost: trimmed chunks leave it out.
        let text = "  ab  \n\n  cd  ";
        let output = split(Config::recursive(4).with_separators(["\n\n"]), text);
        assert_eq!(output.chunks.len(), 2);
        assert_eq!(Tiling::of(text, &output), Tiling::default());
    }

    #[test]
    fn the_median_is_a_length_some_chunk_has() {
        // Written out, not computed: the lower middle of the sorted lengths.
        // (lengths, (count, min, median, max, total))
        type Case = (&'static [usize], (usize, usize, usize, usize, usize));
        let cases: [Case; 5] = [
            (&[], (0, 0, 0, 0, 0)),
            (&[7], (1, 7, 7, 7, 7)),
            (&[9, 3], (2, 3, 3, 9, 12)),
            (&[5, 1, 4, 2], (4, 1, 2, 5, 12)),
            (&[31, 13, 20, 28, 16], (5, 13, 20, 31, 108)),
        ];
        for (lengths, want) in cases {
            let l = Lengths::of(lengths.iter().copied());
            assert_eq!(
                (l.count, l.min, l.median, l.max, l.total),
                want,
                "{lengths:?}"
            );
        }
        assert_eq!(Lengths::of([13, 31]).mean(), 22.0);
        assert_eq!(Lengths::default().mean(), 0.0);
    }

    #[test]
    fn every_kind_of_cut_is_counted_in_its_own_column() {
        // Fixed windows of 4 over "abcdefghij": two window ends, both inside
        // the word.
        let text = "abcdefghij";
        let fixed = Splitter::new(Config::fixed(4, 1), &crate::Resources::new())
            .unwrap()
            .split(text)
            .unwrap();
        let cuts = Cuts::of(text, &fixed.chunks, 0);
        assert_eq!((cuts.windows, cuts.mid_word, cuts.total()), (2, 2, 2));
        assert_eq!(Places::new(text).mid_sentence(&fixed.chunks), 2);

        // A word longer than the size: hard cuts inside it, a space cut
        // between words.
        let text = "abcdefgh ij";
        let mut config = Config::recursive(4);
        config.separators = [" ", ""].map(Separator::literal).to_vec();
        assert_eq!(config.kind(), Strategy::Recursive);
        let output = Splitter::new(config, &crate::Resources::new())
            .unwrap()
            .split(text)
            .unwrap();
        let spans: Vec<&str> = output.chunks.iter().map(|c| c.text(text)).collect();
        assert_eq!(spans, ["abcd", "efgh", "ij"]);
        let cuts = Cuts::of(text, &output.chunks, 2);
        assert_eq!(cuts.by_separator, [1, 0]);
        assert_eq!((cuts.hard, cuts.mid_word, cuts.total()), (1, 1, 2));
        // "abcd|efgh" inside the word; "efgh |ij" between words of the one
        // sentence the text is.
        assert_eq!(Places::new(text).mid_sentence(&output.chunks), 2);

        let mut sum = cuts.clone();
        sum.add(&cuts);
        assert_eq!(sum.by_separator, [2, 0]);
        assert_eq!((sum.hard, sum.mid_word, sum.total()), (2, 2, 4));
    }

    #[test]
    fn a_cut_is_placed_by_words_and_sentences() {
        // Written out by hand: (text, cut offset, place).
        let cases: [(&str, usize, Place); 12] = [
            ("Hello world.", 0, Place::BetweenSentences),
            ("Hello world.", 12, Place::BetweenSentences),
            ("Hello world.", 3, Place::InsideWord),
            ("Hello world.", 5, Place::InsideSentence),
            ("Hello world.", 6, Place::InsideSentence),
            // After the stop, before or after the space: between.
            ("One. Two.", 4, Place::BetweenSentences),
            ("One. Two.", 5, Place::BetweenSentences),
            // "e.g." and "3.14" end no sentence.
            ("Use e.g. this one.", 9, Place::InsideSentence),
            ("Pi is 3.14 or so.", 8, Place::InsideSentence),
            // A line end ends one; a heading line is a sentence of its own.
            ("# Title\nBody text", 7, Place::BetweenSentences),
            ("# Title\nBody text", 8, Place::BetweenSentences),
            // 。 needs no space after it.
            ("好。不好", "好。".len(), Place::BetweenSentences),
        ];
        for (text, at, place) in cases {
            assert_eq!(Places::new(text).of(at), place, "{text:?} at {at}");
        }
        assert!(inside_word("g|et".replace('|', "").as_str(), 1));
        assert!(!inside_word("a b", 1) && !inside_word("a b", 2));
    }
}
