//! The semantic levels the library finds in a text before it chunks it, as
//! it finds and orders them, indexed so that [`super::chunks`] can ask for
//! them quickly: for `MarkdownSplitter`, the Markdown elements
//! pulldown-cmark reports; for `TextSplitter`, the runs of line breaks.
//!
//! The library asks two questions for every chunk: which levels are left in
//! the rest of the text, and where the next range of a level (or of a
//! stronger one) starts. It answers both by scanning every range after the
//! cursor. Here each level's ranges are listed in order, and where each
//! level last occurs is kept, so each answer is a lookup.

use pulldown_cmark::{Event, Options, Parser, Tag};
use std::collections::BTreeSet;
use std::ops::Range;

use super::Kind;
use icu_segmenter::options::{SentenceBreakInvariantOptions, WordBreakInvariantOptions};
use icu_segmenter::{GraphemeClusterSegmenter, SentenceSegmenter, WordSegmenter};
use std::sync::LazyLock;

/// The library's segmenters, made as it makes them (its word segmenter
/// uses the dictionaries for scripts without spaces).
pub(super) static SENTENCES: LazyLock<icu_segmenter::SentenceSegmenterBorrowed<'static>> =
    LazyLock::new(|| SentenceSegmenter::new(SentenceBreakInvariantOptions::default()));
pub(super) static WORDS: LazyLock<icu_segmenter::WordSegmenterBorrowed<'static>> =
    LazyLock::new(|| WordSegmenter::new_dictionary(WordBreakInvariantOptions::default()));
pub(super) const GRAPHEMES: icu_segmenter::GraphemeClusterSegmenterBorrowed<'static> =
    GraphemeClusterSegmenter::new();

/// `MarkdownSplitter`'s levels, weakest first; a heading is stronger the
/// shallower it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Element {
    SoftBreak,
    Inline,
    Block,
    Rule,
    /// `7 - depth`, so that `#` is the strongest.
    Heading(u8),
}

impl Element {
    /// The element an event opens or is, as the library ranks its levels;
    /// `None` for an element's end (its range is its start's).
    fn of(event: &Event<'_>) -> Option<Element> {
        Some(match event {
            Event::Start(
                Tag::Emphasis
                | Tag::Strong
                | Tag::Strikethrough
                | Tag::Link { .. }
                | Tag::Image { .. }
                | Tag::Subscript
                | Tag::Superscript
                | Tag::TableCell,
            )
            | Event::Text(_)
            | Event::HardBreak
            | Event::Code(_)
            | Event::InlineHtml(_)
            | Event::InlineMath(_)
            | Event::FootnoteReference(_)
            | Event::TaskListMarker(_) => Element::Inline,
            Event::SoftBreak => Element::SoftBreak,
            Event::Html(_) | Event::DisplayMath(_) => Element::Block,
            Event::Start(Tag::Heading { level, .. }) => Element::Heading(7 - *level as u8),
            Event::Start(_) => Element::Block,
            Event::Rule => Element::Rule,
            Event::End(_) => return None,
        })
    }

    /// Its rank, 0 (a soft break) to 9 (`#`), in the order of the enum.
    fn rank(self) -> usize {
        match self {
            Element::SoftBreak => 0,
            Element::Inline => 1,
            Element::Block => 2,
            Element::Rule => 3,
            Element::Heading(strength) => 3 + usize::from(strength),
        }
    }

    fn of_rank(rank: usize) -> Element {
        match rank {
            0 => Element::SoftBreak,
            1 => Element::Inline,
            2 => Element::Block,
            3 => Element::Rule,
            _ => Element::Heading((rank - 3) as u8),
        }
    }
}

/// A text's levels, as the library ranks and orders them, indexed.
pub(super) struct Levels {
    kind: Kind,
    /// Every range with its level's rank (0 the weakest), sorted by start
    /// and, at one start, longest first, by the same unstable sort the
    /// library uses, so that ranges with the same extent keep the library's
    /// order among themselves.
    ranges: Vec<(usize, Range<usize>)>,
    /// For each rank, the indices in `ranges` of its ranges, ascending.
    by_rank: Vec<Vec<usize>>,
    /// For plain text, each rank's run length in line breaks.
    line_breaks: Vec<usize>,
}

impl Levels {
    /// The one parse of `text`, as the library's splitter of this kind
    /// parses it.
    pub(super) fn parse(kind: Kind, text: &str) -> Levels {
        let mut line_breaks = Vec::new();
        let ranges = match kind {
            Kind::Markdown => {
                let mut ranges: Vec<(Element, Range<usize>)> =
                    Parser::new_ext(text, Options::all())
                        .into_offset_iter()
                        .filter_map(|(event, range)| Some((Element::of(&event)?, range)))
                        .collect();
                sort(&mut ranges);
                ranges.into_iter().map(|(e, r)| (e.rank(), r)).collect()
            }
            Kind::Text => {
                let (runs, lengths) = line_break_runs(text);
                line_breaks = lengths;
                runs
            }
        };
        let mut by_rank: Vec<Vec<usize>> = Vec::new();
        for (i, (rank, _)) in ranges.iter().enumerate() {
            if by_rank.len() <= *rank {
                by_rank.resize(rank + 1, Vec::new());
            }
            by_rank[*rank].push(i);
        }
        Levels {
            kind,
            ranges,
            by_rank,
            line_breaks,
        }
    }

    pub(super) fn kind(&self) -> Kind {
        self.kind
    }

    /// Every range with its rank, ordered by where it starts.
    pub(super) fn ranges(&self) -> &[(usize, Range<usize>)] {
        &self.ranges
    }

    /// The Markdown elements, ordered by where they start.
    pub(super) fn elements(&self) -> impl Iterator<Item = (Element, Range<usize>)> + '_ {
        self.ranges
            .iter()
            .map(|(rank, range)| (Element::of_rank(*rank), range.clone()))
    }

    /// The first index at or after `from` of a range of rank `rank` or
    /// stronger.
    pub(super) fn first_at_least(&self, from: usize, rank: usize) -> Option<usize> {
        let (r, _) = self.ranges.get(from)?;
        if *r >= rank {
            return Some(from);
        }
        (rank..self.by_rank.len())
            .filter_map(|r| self.first_of(from, r))
            .min()
    }

    /// The first index at or after `from` of a range of rank `rank`.
    pub(super) fn first_of(&self, from: usize, rank: usize) -> Option<usize> {
        let at = self.by_rank.get(rank)?;
        at.get(at.partition_point(|&i| i < from)).copied()
    }

    /// How many line breaks the run of `\n` and `\r` at `start..end` is,
    /// when it is one of plain text's runs, as the parse counted them.
    pub(super) fn line_breaks(&self, start: usize, end: usize) -> Option<usize> {
        let i = self.ranges.partition_point(|(_, r)| r.start < start);
        let (rank, range) = self.ranges.get(i)?;
        (self.kind == Kind::Text && range.end == end).then(|| self.line_breaks[*rank])
    }

    /// Whether a range of this rank is a heading, whose section is the
    /// text after it (it is not one of its own).
    pub(super) fn opens_next(&self, rank: usize) -> bool {
        self.kind == Kind::Markdown && matches!(Element::of_rank(rank), Element::Heading(_))
    }

    /// Whether a range of this rank is a block, which takes in only
    /// whitespace before it as part of its section.
    pub(super) fn takes_whitespace_before(&self, rank: usize) -> bool {
        self.kind == Kind::Markdown && Element::of_rank(rank) == Element::Block
    }
}

/// The library's order of its ranges: by start, then longest first. The
/// sort is the library's unstable one, on ranges paired with levels of the
/// same size as its own, so ties fall as they fall there.
fn sort<L>(ranges: &mut [(L, Range<usize>)]) {
    ranges.sort_unstable_by(|(_, a), (_, b)| a.start.cmp(&b.start).then_with(|| b.end.cmp(&a.end)));
}

/// `TextSplitter`'s levels: each run of `\n` and `\r`, ranked by its
/// length in grapheme clusters (so `\r\n` is one line break), the longer
/// the stronger; the ranks are the distinct lengths in order, which come
/// with the runs.
fn line_break_runs(text: &str) -> (Vec<(usize, Range<usize>)>, Vec<usize>) {
    let bytes = text.as_bytes();
    let mut runs: Vec<(usize, Range<usize>)> = Vec::new();
    let mut i = 0;
    while let Some(at) = bytes[i..].iter().position(|b| matches!(b, b'\n' | b'\r')) {
        let start = i + at;
        let mut end = start;
        while end < bytes.len() && matches!(bytes[end], b'\n' | b'\r') {
            end += 1;
        }
        runs.push((line_breaks_in(&text[start..end]), start..end));
        i = end;
    }
    sort(&mut runs);
    let mut lengths: Vec<usize> = runs.iter().map(|(n, _)| *n).collect();
    lengths.sort_unstable();
    lengths.dedup();
    for (n, _) in &mut runs {
        *n = lengths.partition_point(|&m| m < *n);
    }
    (runs, lengths)
}

/// The levels with a range at or after a position in the ranges that only
/// moves forward, as the cursor does: each level leaves once the position
/// passes its last range. A text can have as many levels as run lengths of
/// line breaks, so they are not looked through for every chunk.
#[derive(Default)]
pub(super) struct Left {
    /// Each rank with the index of its last range, by that index.
    by_last: Vec<(usize, usize)>,
    /// How many of `by_last` have left.
    gone: usize,
    ranks: BTreeSet<usize>,
}

impl Left {
    pub(super) fn new(levels: &Levels) -> Left {
        let mut by_last: Vec<(usize, usize)> = levels
            .by_rank
            .iter()
            .enumerate()
            .filter_map(|(rank, at)| Some((*at.last()?, rank)))
            .collect();
        by_last.sort_unstable();
        let ranks = by_last.iter().map(|&(_, rank)| rank).collect();
        Left {
            by_last,
            gone: 0,
            ranks,
        }
    }

    /// The ranks with a range at or after index `from` (at or after the
    /// last `from` asked for), weakest first.
    pub(super) fn at(&mut self, from: usize) -> impl Iterator<Item = usize> + '_ {
        while let Some(&(_, rank)) = self.by_last.get(self.gone).filter(|(last, _)| *last < from) {
            self.ranks.remove(&rank);
            self.gone += 1;
        }
        self.ranks.iter().copied()
    }
}

/// How many line breaks a run of `\n` and `\r` is, as the library counts
/// them: in grapheme clusters, so `\r\n` is one.
pub(super) fn line_breaks_in(run: &str) -> usize {
    GRAPHEMES.segment_str(run).count() - 1
}
