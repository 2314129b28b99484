//! The library's packing of a text into chunks (its `TextChunks`),
//! reproduced step for step over the levels [`Levels::parse`] found, so
//! that the one parse that labels the cuts also gives the chunks.
//!
//! For each chunk the library tries the levels left in the text, weakest
//! first, each by its first section, and packs at the strongest whose first
//! section fits; when none does, at the strongest Unicode level (sentences,
//! words, grapheme clusters, chars) that does. It then binary-searches the
//! run of sections that fits, measuring candidates trimmed. Every step is
//! kept: the same levels tried in the same order, the same sizes asked for,
//! the memo of sizes keyed as the crate keys it (which matters where its key
//! names a slice other than the one measured), the same probes of long
//! sections, the same overlap search. The differential tests against the
//! crate hold the chunks identical.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::ops::Range;

use super::levels::{Left, Levels, GRAPHEMES, SENTENCES, WORDS};

/// How the library trims a chunk, and so every candidate it measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Trim {
    /// `TextSplitter`'s `Trim::All`: leading and trailing whitespace.
    All,
    /// `MarkdownSplitter`'s `Trim::PreserveIndentation`: where the trimmed
    /// chunk holds a line break, only leading line breaks and trailing
    /// whitespace go, so the first line keeps its indentation; otherwise
    /// all of it.
    Indentation,
    /// `trim=False`.
    None,
}

/// The settings [`chunks`] reads: the library's `ChunkConfig` with the
/// capacity's desired and maximum size both the size.
pub(super) struct Settings {
    pub(super) size: usize,
    pub(super) overlap: usize,
    pub(super) trim: Trim,
}

/// The library's chunks of `text`, whose levels are `levels`, as byte
/// ranges; `measure(start, end)` is the size of `text[start..end]`.
pub(super) fn chunks(
    text: &str,
    levels: &Levels,
    settings: &Settings,
    measure: impl Fn(usize, usize) -> usize,
) -> Vec<(usize, usize)> {
    let mut packer = Packer {
        text,
        levels,
        settings,
        measure,
        newlines: if settings.trim == Trim::Indentation {
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| matches!(b, b'\n' | b'\r'))
                .map(|(i, _)| i)
                .collect()
        } else {
            Vec::new()
        },
        memo: HashMap::new(),
        left: Left::new(levels),
        first: 0,
        cursor: 0,
        sections: Vec::new(),
        longest: None,
    };
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut last_end = 0;
    while packer.cursor < text.len() {
        let (start, end) = packer.next_chunk();
        // An empty chunk (all whitespace, trimmed) is not one, and neither
        // is one that ends where an earlier one did or before.
        if start == end || end <= last_end {
            continue;
        }
        last_end = end;
        out.push((start, end));
    }
    out
}

/// The state of the library's `TextChunks` between chunks.
struct Packer<'a, F> {
    text: &'a str,
    levels: &'a Levels,
    settings: &'a Settings,
    measure: F,
    /// Where the text has `\n` or `\r`, ascending, for the trim that keeps
    /// indentation (empty for the others): whether a trimmed chunk holds a
    /// line break is two lookups, not a scan.
    newlines: Vec<usize>,
    /// The sizes asked for while finding this chunk, by the library's key.
    memo: HashMap<(usize, usize), usize>,
    /// The levels with a range at or after `first`.
    left: Left,
    /// The first range that starts at or after the cursor.
    first: usize,
    /// Where the next chunk starts, before trimming.
    cursor: usize,
    /// The sections at the level chosen for this chunk, as ranges.
    sections: Vec<(usize, usize)>,
    /// The longest chunk so far, in bytes, untrimmed: where the search for
    /// the next one first looks.
    longest: Option<usize>,
}

impl<'a, F: Fn(usize, usize) -> usize> Packer<'a, F> {
    /// `text[start..end]` trimmed, as a range: where the library's trim
    /// puts the start (all of a run of whitespace, for a chunk that is
    /// nothing else) and what it keeps.
    fn trim(&self, start: usize, end: usize) -> (usize, usize) {
        if self.settings.trim == Trim::None {
            return (start, end);
        }
        let chunk = &self.text[start..end];
        let lead = start + chunk.len() - chunk.trim_start().len();
        let kept = chunk.trim().len();
        if self.settings.trim == Trim::Indentation && self.holds_line_break(lead, lead + kept) {
            let from = start + chunk.len() - chunk.trim_start_matches(['\n', '\r']).len();
            (from, lead + kept)
        } else {
            (lead, lead + kept)
        }
    }

    fn holds_line_break(&self, start: usize, end: usize) -> bool {
        let i = self.newlines.partition_point(|&at| at < start);
        self.newlines.get(i).is_some_and(|&at| at < end)
    }

    /// The size of `text[start..end]` trimmed, through the memo. The
    /// library keys the memo by `offset` (which it passes beside the slice,
    /// and which is not always where the slice starts) plus what trimming
    /// took from the front, and the trimmed length; a key met again gives
    /// the size stored under it, whatever slice it was measured for.
    fn size(&mut self, offset: usize, start: usize, end: usize) -> usize {
        let (from, to) = self.trim(start, end);
        let key = (
            offset + (from - start),
            offset + (from - start) + (to - from),
        );
        if let Some(&size) = self.memo.get(&key) {
            return size;
        }
        let size = (self.measure)(from, to);
        self.memo.insert(key, size);
        size
    }

    /// The capacity's verdict on a size: under it, at it, over it.
    fn fits(&self, size: usize) -> Ordering {
        size.cmp(&self.settings.size)
    }

    /// The next chunk, trimmed (possibly empty), and the cursor moved past
    /// it (back over the overlap, if any).
    fn next_chunk(&mut self) -> (usize, usize) {
        self.first +=
            self.levels.ranges()[self.first..].partition_point(|(_, r)| r.start < self.cursor);
        let low = self.fill_sections();
        let (start, mut end) = self.search(low);
        if end == start {
            // Unreachable: the section at `low` fitted under the size, so
            // the search takes it or more. Were it reached, the library
            // would try this chunk forever; one section is taken instead.
            end = self.sections[0].1;
        }
        self.longest = Some(self.longest.map_or(end - start, |l| l.max(end - start)));
        self.memo.clear();
        self.move_cursor(end);
        let (from, to) = self.trim(start, end);
        if from >= to {
            (start, start)
        } else {
            (from, to)
        }
    }

    /// The largest run of `sections` from the cursor that fits, by binary
    /// search from `low`, then extended over following sections while the
    /// size does not grow.
    fn search(&mut self, mut low: usize) -> (usize, usize) {
        let start = self.cursor;
        let mut end = start;
        let mut equal_found = false;
        let mut high = self.sections.len().saturating_sub(1);
        let mut found: Option<(usize, usize)> = None;
        while low <= high {
            let mid = low + (high - low) / 2;
            let to = self.sections[mid].1;
            let size = self.size(start, start, to);
            let fits = self.fits(size);
            match fits {
                Ordering::Less => {
                    if to > end {
                        end = to;
                        found = Some((mid, size));
                    }
                }
                Ordering::Equal => {
                    if to < end || !equal_found {
                        end = to;
                        found = Some((mid, size));
                    }
                    equal_found = true;
                }
                Ordering::Greater => {
                    // The first section alone is taken, whatever its size.
                    if mid == 0 && start == end {
                        end = to;
                        found = Some((mid, size));
                    }
                }
            }
            if fits.is_lt() {
                low = mid + 1;
            } else if mid > 0 {
                high = mid - 1;
            } else {
                break;
            }
        }
        if let Some((index, best)) = found {
            for i in index + 1..self.sections.len() {
                let to = self.sections[i].1;
                if self.size(start, start, to) > best {
                    break;
                }
                end = end.max(to);
            }
        }
        (start, end)
    }

    /// Moves the cursor to `end`, or back from it to the earliest section
    /// start the overlap's binary search finds whose run to `end` fits the
    /// overlap, if it is after the chunk's start.
    fn move_cursor(&mut self, end: usize) {
        let overlap = self.settings.overlap;
        if overlap == 0 {
            self.cursor = end;
            return;
        }
        let mut start = end;
        let mut low = 0;
        let mut high = match self.sections.binary_search_by_key(&end, |&(_, to)| to) {
            Ok(i) | Err(i) => i,
        };
        while low <= high {
            let mid = low + (high - low) / 2;
            let from = self.sections[mid].0;
            let fits = self.size(from, from, end).cmp(&overlap);
            if fits.is_le() && from < start && from > self.cursor {
                start = from;
            }
            if fits.is_lt() && mid > 0 {
                high = mid - 1;
            } else {
                low = mid + 1;
            }
        }
        self.cursor = start;
    }

    /// Chooses this chunk's level and fills `sections` with its sections
    /// from the cursor, as far as the search needs; returns the index the
    /// binary search may start from.
    fn fill_sections(&mut self) -> usize {
        self.sections.clear();
        let (level, mut max_offset) = self.choose_text_level();
        let sections: Box<dyn Iterator<Item = (usize, usize)> + 'a> = match level {
            Some(rank) => Box::new(Sections::new(
                self.text,
                self.levels,
                self.first,
                self.cursor,
                rank,
            )),
            None => {
                let (level, fallback_max) = self.choose_fallback_level();
                max_offset = match (fallback_max, max_offset) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                Box::new(fallback_sections(
                    self.text,
                    self.cursor,
                    level.unwrap_or(Fallback::Char),
                ))
            }
        };
        let mut sections = sections.take_while(|&(from, _)| max_offset.is_none_or(|m| from <= m));
        let cursor = self.cursor;
        let mut low = 0;
        let mut prev_equal: Option<usize> = None;
        let max = self.settings.size;
        let mut target = self.longest.unwrap_or(max);
        loop {
            let before = self.sections.len();
            for (from, to) in sections.by_ref() {
                self.sections.push((from, to));
                if to > cursor.saturating_add(target) {
                    break;
                }
            }
            if self.sections.len() == before {
                break;
            }
            let (from, to) = self.sections[self.sections.len() - 1];
            if to - cursor < target {
                break;
            }
            let size = self.size(from, cursor, to);
            let fits = self.fits(size);
            if fits.is_le() {
                let reach = to - cursor;
                let size = size.max(1);
                let room = (max - size).max(1);
                let bytes_per_unit = reach.div_ceil(size);
                target = reach
                    .saturating_add(room.saturating_mul(bytes_per_unit))
                    .saturating_add(reach.div_ceil(10));
            }
            match fits {
                Ordering::Less => low = self.sections.len().saturating_sub(1),
                Ordering::Equal => {
                    if prev_equal.is_some_and(|prev| prev < size) {
                        break;
                    }
                    prev_equal = Some(size);
                }
                Ordering::Greater => break,
            }
        }
        low
    }

    /// The strongest of the text's own levels (Markdown elements, or runs
    /// of line breaks) to pack at: the levels left in the text, weakest
    /// first, each with its first section (a level whose first section is
    /// not shorter than the next level's is passed over); the last one
    /// whose first section fits, stopping at the first that does not. Also
    /// where that first section ended, if one did not fit.
    fn choose_text_level(&mut self) -> (Option<usize>, Option<usize>) {
        let (text, levels, first, cursor) = (self.text, self.levels, self.first, self.cursor);
        let mut lower = None;
        let mut left = std::mem::take(&mut self.left);
        let candidates = left.at(first).filter_map(move |rank| {
            let found = Sections::new(text, levels, first, cursor, rank)
                .next()
                .map(|(_, to)| (rank, to - cursor, lower));
            lower = Some(rank);
            found
        });
        let chosen = self.choose(candidates, |packer, end, lower| match lower {
            Some(lower) => {
                let mut boundaries = Sections::new(text, levels, first, cursor, lower)
                    .map(|(_, to)| to)
                    .take_while(move |&to| to <= end);
                packer.fits_by_probes(end, &mut boundaries)
            }
            None => packer.fits_by_probes(end, &mut std::iter::empty()),
        });
        self.left = left;
        chosen
    }

    /// [`Self::choose_text_level`] for the Unicode levels the library
    /// falls back to when none of the text's own levels fits.
    fn choose_fallback_level(&mut self) -> (Option<Fallback>, Option<usize>) {
        let (text, cursor) = (self.text, self.cursor);
        let candidates = Fallback::ALL.into_iter().filter_map(move |level| {
            let lower = (level == Fallback::Sentence).then_some(Fallback::Word);
            fallback_sections(text, cursor, level)
                .next()
                .map(|(_, to)| (level, to - cursor, lower))
        });
        self.choose(candidates, |packer, end, lower| match lower {
            Some(lower) => {
                let mut boundaries = fallback_sections(text, cursor, lower)
                    .map(|(_, to)| to)
                    .take_while(move |&to| to <= end);
                packer.fits_by_probes(end, &mut boundaries)
            }
            None => packer.fits_by_probes(end, &mut std::iter::empty()),
        })
    }

    /// Walks `candidates` (each level, the length of its first section,
    /// and the level below it, weakest first), passing over a level whose
    /// first section is no shorter than the next one's, as the library
    /// does; returns the last level whose first section fits (`fits`
    /// judges one over the size in bytes, given where it ends and the
    /// level below), and where the first that does not fit ends. Lazy as
    /// the library is: a level's first section is found only when the walk
    /// reaches it, so a text with many levels costs only those tried.
    fn choose<L: Copy>(
        &mut self,
        mut candidates: impl Iterator<Item = (L, usize, Option<L>)>,
        mut fits: impl FnMut(&mut Self, usize, Option<L>) -> Ordering,
    ) -> (Option<L>, Option<usize>) {
        let mut chosen = None;
        let mut next = candidates.next();
        while let Some(mut candidate) = next {
            next = candidates.next();
            while let Some(after) = next.filter(|after| candidate.1 >= after.1) {
                candidate = after;
                next = candidates.next();
            }
            let (level, len, lower) = candidate;
            if len > self.settings.size {
                let end = self.cursor + len;
                if fits(self, end, lower).is_gt() {
                    return (chosen, Some(end));
                }
            }
            chosen = Some(level);
        }
        (chosen, None)
    }

    /// Whether `text[cursor..end]` fits, measured first on prefixes that
    /// end at `boundaries` from eight bytes per unit of size on, each step
    /// twice as many boundaries as the one before, stopping as soon as a
    /// prefix is a quarter over the size: so a very long section is not
    /// measured whole when a prefix already shows it is too long.
    fn fits_by_probes(
        &mut self,
        end: usize,
        mut boundaries: &mut dyn Iterator<Item = usize>,
    ) -> Ordering {
        let offset = self.cursor;
        let max = self.settings.size;
        let probe_max = max.saturating_add((max / 4).max(1));
        let probe_start = offset.saturating_add(max.saturating_mul(8).max(1)).min(end);
        if probe_start == end {
            let size = self.size(offset, offset, end);
            return self.fits(size);
        }
        let mut step: usize = 1;
        let mut next = Iterator::find(&mut boundaries, |&b| b > offset && b >= probe_start);
        while let Some(boundary) = next {
            if boundary > end {
                break;
            }
            let size = self.size(offset, offset, boundary);
            if size > probe_max || boundary == end {
                return self.fits(size);
            }
            let skip = step.saturating_sub(1);
            step = step.saturating_mul(2);
            next = boundaries.nth(skip);
        }
        let size = self.size(offset, offset, end);
        self.fits(size)
    }
}

/// The sections of the text from `cursor` at one level: the text between
/// ranges of that level or stronger, and the ranges themselves; in
/// Markdown, a heading starts the section after it rather than being one,
/// and a block after only whitespace takes the whitespace in.
struct Sections<'a> {
    text: &'a str,
    levels: &'a Levels,
    rank: usize,
    /// The next range to read.
    next: usize,
    /// The first range of this rank, while the ranges read so far are ones
    /// that enclose it (skipped, so that a level's first section is not the
    /// stronger element around it).
    first_of_rank: Option<Range<usize>>,
    cursor: usize,
    /// An element's own section, due after the text before it.
    due: Option<(usize, usize)>,
    done: bool,
}

impl<'a> Sections<'a> {
    /// The sections from `cursor`, where `first` is the first range that
    /// starts at or after it.
    fn new(
        text: &'a str,
        levels: &'a Levels,
        first: usize,
        cursor: usize,
        rank: usize,
    ) -> Sections<'a> {
        let ranges = levels.ranges();
        // The first range of the rank; when it is the very first range, the
        // shortest of the ranges of its rank that start with it.
        let first_of_rank = levels.first_of(first, rank).map(|i| {
            let mut j = i;
            if i == first {
                let start = ranges[i].1.start;
                while ranges
                    .get(j + 1)
                    .is_some_and(|(r, range)| *r == rank && range.start == start)
                {
                    j += 1;
                }
            }
            ranges[j].1.clone()
        });
        Sections {
            text,
            levels,
            rank,
            next: first,
            first_of_rank,
            cursor,
            due: None,
            done: false,
        }
    }

    /// The next range of this rank or stronger that is not skipped as
    /// enclosing the first of the rank.
    fn next_range(&mut self) -> Option<(usize, Range<usize>)> {
        loop {
            let i = self.levels.first_at_least(self.next, self.rank)?;
            let (rank, range) = &self.levels.ranges()[i];
            if self.first_of_rank.is_none() && range.start < self.cursor {
                // Inside the last element taken whole: every element that
                // starts before the cursor is passed over, so jump past them.
                self.next =
                    i + self.levels.ranges()[i..].partition_point(|(_, r)| r.start < self.cursor);
                continue;
            }
            self.next = i + 1;
            if let Some(first) = &self.first_of_rank {
                let rank = *rank;
                let encloses =
                    rank > self.rank && range.start <= first.start && first.start < range.end;
                let longer =
                    rank == self.rank && range.start == first.start && range.end > first.end;
                if encloses || longer {
                    continue;
                }
                self.first_of_rank = None;
            }
            return Some((*rank, range.clone()));
        }
    }
}

impl Iterator for Sections<'_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<(usize, usize)> {
        loop {
            if let Some(due) = self.due.take() {
                if due.0 < due.1 {
                    return Some(due);
                }
            }
            if self.done {
                return None;
            }
            let Some((rank, range)) = self.next_range() else {
                self.done = true;
                let rest = (self.cursor, self.text.len());
                return (rest.0 < rest.1).then_some(rest);
            };
            if range.start < self.cursor {
                continue;
            }
            let before = (self.cursor, range.start);
            if self.levels.opens_next(rank) {
                self.cursor = range.start;
            } else if self.levels.takes_whitespace_before(rank)
                && self.text[before.0..before.1]
                    .chars()
                    .all(char::is_whitespace)
            {
                // The whitespace before a block is the block's.
                self.cursor = range.end;
                self.due = Some((before.0, range.end));
                continue;
            } else {
                self.cursor = range.end;
                self.due = Some((range.start, range.end));
            }
            if before.0 < before.1 {
                return Some(before);
            }
        }
    }
}

/// The Unicode levels below Markdown's, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fallback {
    Char,
    Grapheme,
    Word,
    Sentence,
}

impl Fallback {
    const ALL: [Fallback; 4] = [
        Fallback::Char,
        Fallback::Grapheme,
        Fallback::Word,
        Fallback::Sentence,
    ];
}

/// The sections of `text[cursor..]` at a Unicode level, as absolute
/// ranges, by the library's segmenters.
fn fallback_sections(
    text: &str,
    cursor: usize,
    level: Fallback,
) -> Box<dyn Iterator<Item = (usize, usize)> + '_> {
    let rest = &text[cursor..];
    match level {
        Fallback::Char => Box::new(
            rest.char_indices()
                .map(move |(i, c)| (cursor + i, cursor + i + c.len_utf8())),
        ),
        Fallback::Grapheme => Box::new(between(cursor, GRAPHEMES.segment_str(rest))),
        Fallback::Word => Box::new(between(cursor, WORDS.segment_str(rest))),
        Fallback::Sentence => Box::new(between(cursor, SENTENCES.segment_str(rest))),
    }
}

/// The ranges between consecutive boundaries (offsets from `cursor`).
fn between(
    cursor: usize,
    mut boundaries: impl Iterator<Item = usize>,
) -> impl Iterator<Item = (usize, usize)> {
    let mut from = boundaries.next();
    std::iter::from_fn(move || {
        let a = from?;
        let b = boundaries.next()?;
        from = Some(b);
        Some((cursor + a, cursor + b))
    })
}

#[cfg(test)]
mod tests {
    use super::super::Kind;
    use super::*;
    use crate::span::Span;
    use crate::unit::{Counter, Measure};
    use proptest::prelude::*;
    use proptest::test_runner::{Config as Runner, TestRunner};
    use text_splitter::{ChunkConfig, ChunkSizer, MarkdownSplitter, TextSplitter};

    /// The crate's sizer over a [`Measure`] of the text, as the engine's.
    struct Sized<'a>(&'a str, &'a Measure<'a>);

    impl ChunkSizer for Sized<'_> {
        fn size(&self, chunk: &str) -> usize {
            let at = chunk.as_ptr() as usize - self.0.as_ptr() as usize;
            self.1.len(Span::new(at, at + chunk.len()))
        }
    }

    type Chunks = Vec<(usize, usize)>;

    /// The crate's chunks and ours, as byte ranges.
    fn both(
        kind: Kind,
        text: &str,
        measure: &Measure<'_>,
        size: usize,
        overlap: usize,
        trim: bool,
    ) -> (Chunks, Chunks) {
        let config = ChunkConfig::new(size)
            .with_sizer(Sized(text, measure))
            .with_overlap(overlap)
            .unwrap()
            .with_trim(trim);
        let span = |(at, chunk): (usize, &str)| (at, at + chunk.len());
        let library = match kind {
            Kind::Markdown => MarkdownSplitter::new(config)
                .chunk_indices(text)
                .map(span)
                .collect(),
            Kind::Text => TextSplitter::new(config)
                .chunk_indices(text)
                .map(span)
                .collect(),
        };
        let settings = Settings {
            size,
            overlap,
            trim: match (trim, kind) {
                (false, _) => Trim::None,
                (true, Kind::Text) => Trim::All,
                (true, Kind::Markdown) => Trim::Indentation,
            },
        };
        let ours = chunks(text, &Levels::parse(kind, text), &settings, |a, b| {
            measure.len(Span::new(a, b))
        });
        (library, ours)
    }

    /// Chars, and cl100k tokens where the build has the tables.
    fn counters() -> Vec<Counter> {
        #[cfg(feature = "tiktoken")]
        let cl100k = crate::Resources::tiktoken()
            .counter(crate::Unit::Tokens(crate::tokens::Encoding::Cl100k))
            .ok();
        #[cfg(not(feature = "tiktoken"))]
        let cl100k = None;
        std::iter::once(Counter::CHARS).chain(cl100k).collect()
    }

    /// Generated Markdown of every kind the parser knows, with the text
    /// that trips segmenters and trimming: indentation, tabs, `\r\n`, runs
    /// of line breaks, lines of only whitespace, words longer than any
    /// size, scripts without spaces, emoji sequences.
    fn markdown() -> impl Strategy<Value = String> {
        let word = prop_oneof![
            "[a-z]{1,9}",
            "[A-Z][a-z]{0,6}[.!?]",
            "\\*[a-z ]{1,8}\\*",
            "_[a-z]{1,6}_",
            "`[a-z( )]{1,8}`",
            "\\[[a-z]{1,5}\\]\\(http://[a-z]{1,4}\\)",
            "\\$[a-z+]{1,4}\\$",
            "[a-z]{12,40}",
            "[日本語の文です。]{1,12}",
            "(😀|👩\u{200d}💻|é|e\u{301}){1,4}",
            "<b>[a-z]{1,4}</b>",
            "\\[\\^[a-z]\\]",
        ];
        let line = proptest::collection::vec(word, 1..8).prop_map(|w| w.join(" "));
        let block = prop_oneof![
            ("#{1,6}", line.clone()).prop_map(|(h, l)| format!("{h} {l}\n\n")),
            (line.clone(), "[=-]{1,4}").prop_map(|(l, u)| format!("{l}\n{u}\n\n")),
            proptest::collection::vec(line.clone(), 1..4).prop_map(|l| l.join("\n") + "\n\n"),
            (line.clone(), line.clone()).prop_map(|(a, b)| format!("{a}  \n{b}\r\n\r\n")),
            proptest::collection::vec(("( {2,4})?[-*+] |[0-9]\\. ", line.clone()), 1..5)
                .prop_map(|items| items
                    .into_iter()
                    .map(|(m, l)| format!("{m}{l}\n"))
                    .collect::<String>()
                    + "\n"),
            (line.clone(), line.clone()).prop_map(|(a, b)| format!("> {a}\n> > {b}\n\n")),
            "```[a-z]{0,4}\n([ \t]{0,4}[a-z(){};]{0,12}\n){0,4}```\n\n",
            "    [a-z ]{1,20}\n\t[a-z]{1,8}\n\n",
            "\\| [a-z]{1,4} \\| [a-z]{1,4} \\|\n\\|---\\|:-:\\|\n\\| [a-z ]{1,6} \\| [0-9]{1,3} \\|\n\n",
            "(---|\\*\\*\\*|___)\n\n",
            "<div>\n[a-z ]{0,10}\n</div>\n\n",
            "[ \t]{1,6}\n\n\n",
            "[\n\r]{1,7}",
            "\\[\\^[a-z]\\]: [a-z ]{1,12}\n\n",
            "- \\[[x ]\\] [a-z ]{1,10}\n\n",
            "\\$\\$\n[a-z+=]{1,10}\n\\$\\$\n\n",
            "---\ntitle: [a-z]{1,6}\n---\n\n",
        ];
        (proptest::collection::vec(block, 1..10), "[ \n\t]{0,3}")
            .prop_map(|(blocks, tail)| blocks.concat() + &tail)
    }

    /// Ours against the crate, `TextSplitter` and `MarkdownSplitter`, on
    /// generated Markdown at sizes from 1 up, with and without overlap and
    /// trimming, in chars and in cl100k tokens. A planted bug, the size one
    /// smaller, must be seen.
    #[test]
    fn the_crates_chunks_on_generated_text() {
        let counters = counters();
        let mut runner = TestRunner::new(Runner {
            cases: 2000,
            ..Runner::default()
        });
        let compared = std::cell::RefCell::new([[0usize; 2]; 2]);
        let planted = std::cell::Cell::new(0);
        runner
            .run(
                &(
                    markdown(),
                    any::<bool>(),
                    1usize..120,
                    0usize..4,
                    any::<bool>(),
                    0..counters.len(),
                ),
                |(text, markdown, size, overlap_kind, trim, c)| {
                    let kind = if markdown { Kind::Markdown } else { Kind::Text };
                    let measure = Measure::new(counters[c], &text);
                    let overlap = match overlap_kind {
                        0 | 1 => 0,
                        2 => size / 3,
                        _ => size - 1,
                    };
                    let (library, ours) = both(kind, &text, &measure, size, overlap, trim);
                    prop_assert_eq!(
                        &library,
                        &ours,
                        "{:?} size {} overlap {} trim {}",
                        kind,
                        size,
                        overlap,
                        trim
                    );
                    compared.borrow_mut()[usize::from(markdown)][c] += 1;
                    if size > 1 {
                        let planted_overlap = overlap.min(size - 2);
                        let (_, smaller) =
                            both(kind, &text, &measure, size - 1, planted_overlap, trim);
                        if smaller != library {
                            planted.set(planted.get() + 1);
                        }
                    }
                    Ok(())
                },
            )
            .unwrap();
        let compared = compared.into_inner();
        for (kind, by_unit) in ["TextSplitter", "MarkdownSplitter"].iter().zip(compared) {
            for (unit, n) in ["chars", "cl100k"].iter().zip(&by_unit[..counters.len()]) {
                assert!(*n >= 300, "{kind} in {unit}: {n} cases");
            }
        }
        assert!(
            planted.get() > 400,
            "the planted bug seen {} times",
            planted.get()
        );
    }

    /// Ours against the crate on this repository's own long Markdown, the
    /// shape the benchmark splits: many chunks, each level in play.
    #[test]
    fn the_crates_chunks_on_long_documents() {
        let mut compared = 0;
        for kind in [Kind::Text, Kind::Markdown] {
            for text in [
                include_str!("../../../README.md"),
                include_str!("../../../ARCHITECTURE.md"),
                include_str!("../../../docs/performance.md"),
            ] {
                for counter in counters() {
                    let measure = Measure::new(counter, text);
                    for (size, overlap, trim) in [
                        (40, 0, true),
                        (256, 0, true),
                        (1000, 100, true),
                        (4000, 0, false),
                        (97, 30, false),
                    ] {
                        let (library, ours) = both(kind, text, &measure, size, overlap, trim);
                        assert!(!library.is_empty());
                        assert_eq!(
                            library, ours,
                            "{kind:?} size {size} overlap {overlap} trim {trim}"
                        );
                        compared += library.len();
                    }
                }
            }
        }
        assert!(compared > 4000, "{compared} chunks compared");
    }

    /// Ours against the crate on plain text with a level for every run
    /// length of line breaks from 1 to 60, growing, then shrinking, then
    /// shuffled: levels leave the rest of the text one by one as the cursor
    /// passes their last run.
    #[test]
    fn the_crates_chunks_with_sixty_levels() {
        let mut lengths: Vec<usize> = (1..=60).chain((1..=60).rev()).collect();
        lengths.extend((1..=60).map(|i| i * 37 % 60 + 1));
        let text: String = lengths
            .iter()
            .enumerate()
            .map(|(i, &n)| format!("w{i} x{}{}", "\r\n".repeat(n % 3), "\n".repeat(n)))
            .collect();
        let measure = Measure::new(Counter::CHARS, &text);
        let mut compared = 0;
        for size in [1, 3, 8, 40, 300, 5000] {
            for (overlap, trim) in [(0, true), (size / 2, false)] {
                let (library, ours) = both(Kind::Text, &text, &measure, size, overlap, trim);
                assert_eq!(library, ours, "size {size} overlap {overlap} trim {trim}");
                compared += library.len();
            }
        }
        assert!(compared > 500, "{compared} chunks compared");
    }
}
