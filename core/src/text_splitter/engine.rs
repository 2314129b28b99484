//! The engine of the text-splitter strategies: the crate's chunks from one
//! parse of the text, and the label of each cut from the same parse (see
//! the parent module for how they are found).

use super::chunks::{self, Settings, Trim};
use super::levels::{line_breaks_in, Element, Levels, GRAPHEMES, SENTENCES, WORDS};
use super::{Kind, TextSplitterError};
use crate::config::Config;
use crate::engine::{Engine, EngineOutput};
use crate::error::Error;
use crate::separator::{Separator, SeparatorLevel};
use crate::span::Span;
use crate::trace::{Chunk, Cut, Output};
use crate::unit::{Counter, Measure};
use std::ops::Range;

/// The engine: the splitter kind and the checked overlap.
#[derive(Clone, Debug)]
pub(crate) struct TextSplitterEngine {
    kind: Kind,
}

impl TextSplitterEngine {
    /// Checks the configuration as the library's `ChunkConfig` does.
    pub(crate) fn new(kind: Kind, config: &Config) -> Result<TextSplitterEngine, Error> {
        if config.overlap >= config.size {
            return Err(TextSplitterError::Overlap {
                overlap: config.overlap,
                size: config.size,
                message: OVERLAP_NOT_BELOW_CAPACITY.into(),
            }
            .into());
        }
        Ok(TextSplitterEngine { kind })
    }
}

/// What `ChunkConfig::with_overlap` says of an overlap not below the
/// capacity (and the Python package raises as `ValueError`).
const OVERLAP_NOT_BELOW_CAPACITY: &str =
    "The overlap is larger than or equal to the desired chunk capacity";

impl Engine for TextSplitterEngine {
    fn split(
        &self,
        text: &str,
        config: &Config,
        counter: Counter,
        _record: bool,
    ) -> Result<EngineOutput, Error> {
        let measure = Measure::new(counter, text);
        let levels = Levels::parse(self.kind, text);
        let settings = Settings {
            size: config.size,
            overlap: config.overlap,
            trim: match (config.trim, self.kind) {
                (false, _) => Trim::None,
                (true, Kind::Text) => Trim::All,
                (true, Kind::Markdown) => Trim::Indentation,
            },
        };
        let spans: Vec<Span> = chunks::chunks(text, &levels, &settings, |start, end| {
            measure.len(Span::new(start, end))
        })
        .into_iter()
        .map(|(start, end)| Span::new(start, end))
        .collect();
        if let Some(i) = spans
            .windows(2)
            .position(|pair| pair[1].start < pair[0].start)
        {
            let chars = |at: usize| text[..at].chars().count();
            return Err(TextSplitterError::StartsBefore {
                chunk: i + 1,
                at: chars(spans[i + 1].start),
                before: chars(spans[i].start),
            }
            .into());
        }
        Ok(output(text, &spans, &levels, &measure).into())
    }

    fn boxed(&self) -> Box<dyn Engine> {
        Box::new(self.clone())
    }
}

/// The chunks, each cut labelled (see the module's documentation), from
/// the levels the chunks were found from.
fn output(text: &str, spans: &[Span], levels: &Levels, measure: &Measure<'_>) -> Output {
    let kind = levels.kind();
    let windows: Vec<(usize, usize)> = spans
        .windows(2)
        .map(|pair| cut_window(text, pair[0]))
        .collect();
    let elements = match kind {
        Kind::Markdown => strongest_elements(levels.elements(), &windows),
        Kind::Text => Vec::new(),
    };
    let mut labels: Vec<Label> = Vec::new();
    // For each chunk but the last, the index in `labels` of its cut.
    let cuts: Vec<usize> = spans
        .windows(2)
        .enumerate()
        .map(|(i, pair)| {
            let element = elements.get(i).copied().flatten();
            let label = label(text, levels, pair[0], pair[1], windows[i], element);
            labels.iter().position(|l| *l == label).unwrap_or_else(|| {
                labels.push(label);
                labels.len() - 1
            })
        })
        .collect();
    // The legend lists the boundaries that cut this text, strongest first.
    let mut order: Vec<usize> = (0..labels.len()).collect();
    order.sort_by(|&a, &b| labels[b].cmp(&labels[a]));
    let mut rank = vec![0; labels.len()];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    let mut chunks = Vec::with_capacity(spans.len());
    for (i, span) in spans.iter().enumerate() {
        let cut = i
            .checked_sub(1)
            .map_or(Cut::End, |before| Cut::Separator(rank[cuts[before]]));
        Chunk::push_next(&mut chunks, cut, *span, measure.len(*span), None);
    }
    Output {
        chunks,
        separators: Some(order.iter().map(|&i| labels[i].separator()).collect()),
        ..Output::default()
    }
}

/// What is at a cut, weakest first, so the derived order ranks them.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Label {
    /// Between two chars that are not a grapheme cluster boundary.
    Char,
    Grapheme,
    Word,
    Sentence,
    /// A Markdown element's boundary, by the library's order of its levels.
    Element(Element),
    /// A run of this many line breaks (`\r\n` is one), with its text.
    LineBreaks(usize, String),
}

impl Label {
    fn separator(&self) -> Separator {
        match self {
            Label::Char => Separator::hard_cut(),
            Label::Grapheme => Separator::level(SeparatorLevel::Grapheme),
            Label::Word => Separator::level(SeparatorLevel::Word),
            Label::Sentence => Separator::sentence(),
            Label::Element(Element::SoftBreak) => Separator::level(SeparatorLevel::SoftBreak),
            Label::Element(Element::Inline) => Separator::level(SeparatorLevel::Inline),
            Label::Element(Element::Block) => Separator::level(SeparatorLevel::Block),
            Label::Element(Element::Rule) => Separator::level(SeparatorLevel::Rule),
            Label::Element(Element::Heading(strength)) => {
                Separator::level(SeparatorLevel::Heading(7 - strength))
            }
            Label::LineBreaks(_, run) => Separator::literal(run.clone()),
        }
    }
}

/// The whitespace around the cut after `chunk`: from where its trailing
/// whitespace starts to where the next text starts. A boundary anywhere in
/// it is a boundary at the cut.
fn cut_window(text: &str, chunk: Span) -> (usize, usize) {
    let end = chunk.end;
    let a = text[..end].trim_end().len().max(chunk.start);
    let b = end + (text[end..].len() - text[end..].trim_start().len());
    (a, b)
}

/// For each cut window, the strongest of the text's Markdown `elements`
/// (ordered by start) with a boundary (its start or end) inside it, or
/// `None`.
///
/// Where both ends of the windows are in order (chunks that end in order),
/// the events stream past them, nothing collected or sorted. Otherwise the
/// boundaries are collected and sorted, and each window looks its range up.
fn strongest_elements(
    elements: impl Iterator<Item = (Element, Range<usize>)>,
    windows: &[(usize, usize)],
) -> Vec<Option<Element>> {
    if windows.is_empty() {
        return Vec::new();
    }
    let in_order = windows
        .windows(2)
        .all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1);
    if in_order {
        streamed(elements, windows)
    } else {
        sorted(elements, windows)
    }
}

/// [`strongest_elements`] for windows in order: each boundary finds the
/// first window that does not end before it ([`first_not_before`]), searching
/// on from where the previous element's start was found, since the elements
/// come in the order they start.
fn streamed(
    elements: impl Iterator<Item = (Element, Range<usize>)>,
    windows: &[(usize, usize)],
) -> Vec<Option<Element>> {
    let mut strongest = vec![None; windows.len()];
    let mut hint = 0;
    for (element, range) in elements {
        hint = first_not_before(windows, hint, range.start);
        // An element ends at or after its start, so its end is searched for
        // on from there too.
        let end = first_not_before(windows, hint, range.end);
        for (at, first) in [(range.start, hint), (range.end, end)] {
            let inside = windows[first..]
                .iter()
                .take_while(|&&(a, _)| a <= at)
                .count();
            for best in &mut strongest[first..first + inside] {
                if best.is_none_or(|e| element > e) {
                    *best = Some(element);
                }
            }
        }
    }
    strongest
}

/// The index of the first of `windows` (whose ends are in order) that ends
/// at or after `at`, or their number when none does: what
/// `windows.partition_point(|&(_, b)| b < at)` gives.
///
/// When every window before `hint` ends before `at` (an offset at or after
/// the one `hint` was found for), the search goes on from `hint` in steps
/// that double, so an offset near the last one costs a comparison or two
/// rather than a search of all the windows; otherwise it is a binary search
/// of the windows before `hint`.
fn first_not_before(windows: &[(usize, usize)], hint: usize, at: usize) -> usize {
    if hint > 0 && windows[hint - 1].1 >= at {
        return windows[..hint].partition_point(|&(_, b)| b < at);
    }
    // Every window before `lo` ends before `at`.
    let (mut lo, mut hi, mut step) = (hint, hint, 1);
    while hi < windows.len() && windows[hi].1 < at {
        lo = hi + 1;
        hi += step;
        step *= 2;
    }
    let hi = hi.min(windows.len());
    lo + windows[lo..hi].partition_point(|&(_, b)| b < at)
}

/// [`strongest_elements`] for any windows: the boundaries sorted, and each
/// window's range looked up.
fn sorted(
    elements: impl Iterator<Item = (Element, Range<usize>)>,
    windows: &[(usize, usize)],
) -> Vec<Option<Element>> {
    let mut boundaries: Vec<(usize, Element)> = elements
        .flat_map(|(e, range)| [(range.start, e), (range.end, e)])
        .collect();
    boundaries.sort_unstable_by_key(|&(at, _)| at);
    windows
        .iter()
        .map(|&(a, b)| {
            let first = boundaries.partition_point(|&(at, _)| at < a);
            boundaries[first..]
                .iter()
                .take_while(|&&(at, _)| at <= b)
                .map(|&(_, e)| e)
                .max()
        })
        .collect()
}

/// The label of the cut between `chunk` and `next`, whose whitespace is
/// `window` ([`cut_window`]); `element` is the strongest Markdown element
/// with a boundary in it.
fn label(
    text: &str,
    levels: &Levels,
    chunk: Span,
    next: Span,
    (a, b): (usize, usize),
    element: Option<Element>,
) -> Label {
    let end = chunk.end;
    if levels.kind() == Kind::Text {
        if let Some(run) = longest_line_break_run(text, a, b, levels) {
            return run;
        }
    }
    if let Some(strongest) = element {
        return Label::Element(strongest);
    }
    // Sentence and word boundaries after a line break are those of the text
    // from there (both segmenters break after one and start again), so the
    // window starts at the cut's line, or at the chunk when that is later.
    let line = text[..a].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let from = line.max(chunk.start);
    let window = &text[from..next.end.max(end)];
    if any_within(SENTENCES.segment_str(window), from, a, b) {
        return Label::Sentence;
    }
    if any_within(WORDS.segment_str(window), from, a, b) {
        return Label::Word;
    }
    if any_within(GRAPHEMES.segment_str(window), from, end, end) {
        return Label::Grapheme;
    }
    Label::Char
}

/// Whether a segmenter's boundaries (offsets from `from`) hold one in
/// `lo..=hi`. The segmenters are lazy, so nothing past `hi` is read beyond
/// the context a boundary there needs.
fn any_within(boundaries: impl Iterator<Item = usize>, from: usize, lo: usize, hi: usize) -> bool {
    boundaries
        .map(|at| from + at)
        .take_while(|&at| at <= hi)
        .any(|at| at >= lo)
}

/// The longest run of `\n`/`\r` in `text[a..b]` (the first of the
/// longest), counted as the library counts it: in grapheme clusters, so
/// `\r\n` is one. A run that is one of the parse's is not counted again.
fn longest_line_break_run(text: &str, a: usize, b: usize, levels: &Levels) -> Option<Label> {
    let mut best: Option<(usize, &str)> = None;
    let bytes = &text.as_bytes()[..b];
    let mut i = a;
    while i < bytes.len() {
        if !matches!(bytes[i], b'\n' | b'\r') {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && matches!(bytes[i], b'\n' | b'\r') {
            i += 1;
        }
        let run = &text[start..i];
        let n = levels
            .line_breaks(start, i)
            .unwrap_or_else(|| line_breaks_in(run));
        if best.is_none_or(|(m, _)| n > m) {
            best = Some((n, run));
        }
    }
    best.map(|(n, run)| Label::LineBreaks(n, run.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text_splitter::to_python;
    use crate::{Splitter, Strategy, Unit};

    fn split(strategy: Strategy, size: usize, text: &str) -> (Vec<&str>, Vec<String>) {
        let config = Config {
            size,
            ..Config::for_strategy(strategy)
        };
        let out = Splitter::new(config, &crate::Resources::new())
            .unwrap()
            .split(text)
            .unwrap();
        let labels = out.separators.clone().unwrap_or_default();
        let cuts = out
            .chunks
            .iter()
            .map(|c| match c.cut {
                Cut::Separator(i) => labels[i].describe(),
                other => format!("{other:?}"),
            })
            .collect();
        (out.chunks.iter().map(|c| c.text(text)).collect(), cuts)
    }

    #[test]
    fn the_crates_own_example_with_its_cuts_named() {
        let (chunks, cuts) = split(Strategy::TextSplitter, 10, "Some text\n\nfrom a\ndocument");
        assert_eq!(chunks, ["Some text", "from a", "document"]);
        assert_eq!(cuts, ["blank line", "newline", "End"]);
    }

    #[test]
    fn sentences_words_and_a_cut_inside_a_word() {
        let (chunks, cuts) = split(
            Strategy::TextSplitter,
            12,
            "One two. Three four five. Abcdefghijklmnop",
        );
        assert_eq!(
            chunks,
            ["One two.", "Three four", "five.", "Abcdefghijkl", "mnop"]
        );
        assert_eq!(
            cuts,
            [
                "between sentences",
                "between words",
                "between sentences",
                "between graphemes",
                "End"
            ]
        );
    }

    #[test]
    fn markdown_cuts_name_its_elements() {
        let (chunks, cuts) = split(
            Strategy::TextSplitterMarkdown,
            20,
            "# Title\n\nA paragraph here.\n\n## Next\n\n- one\n- two",
        );
        assert_eq!(
            chunks,
            ["# Title", "A paragraph here.", "## Next\n\n- one\n- two"]
        );
        assert_eq!(
            cuts,
            ["at a level-1 heading", "at a level-2 heading", "End"]
        );
    }

    /// The streamed lookup of the cuts' elements is the sorted one, on the
    /// windows of real splits of generated Markdown; a window moved off its
    /// cut (a planted bug) is seen to change the answer.
    #[test]
    fn streamed_elements_are_the_sorted_ones() {
        use proptest::prelude::*;
        use proptest::test_runner::{Config as Runner, TestRunner};
        let block = prop_oneof![
            "#{1,3} [a-z ]{1,12}\n\n",
            "[a-z]{1,6}( [a-z*_`]{1,8}){0,6}\n\n",
            "- [a-z *]{1,10}\n- [a-z]{1,8}\n\n",
            "```\n[a-z\n]{0,20}\n```\n\n",
            "\\| a \\| b \\|\n\\|---\\|---\\|\n\\| [a-z]{1,4} \\| c \\|\n\n",
            "---\n\n",
        ];
        let mut runner = TestRunner::new(Runner {
            cases: 300,
            ..Runner::default()
        });
        let compared = std::cell::Cell::new(0);
        let differed = std::cell::Cell::new(0);
        runner
            .run(
                &(proptest::collection::vec(block, 1..12), 8usize..60),
                |(blocks, size)| {
                    let text = blocks.concat();
                    let config = Config {
                        size,
                        ..Config::for_strategy(crate::Strategy::TextSplitterMarkdown)
                    };
                    let out = Splitter::new(config, &crate::Resources::new())
                        .unwrap()
                        .split(&text)
                        .unwrap();
                    let windows: Vec<(usize, usize)> = out
                        .chunks
                        .windows(2)
                        .map(|pair| cut_window(&text, pair[0].span))
                        .collect();
                    prop_assert!(windows
                        .windows(2)
                        .all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1));
                    let levels = Levels::parse(Kind::Markdown, &text);
                    let elements = || levels.elements();
                    prop_assert_eq!(streamed(elements(), &windows), sorted(elements(), &windows));
                    compared.set(compared.get() + windows.len());
                    if let Some(&(a, b)) = windows.first() {
                        let moved = [(a.saturating_sub(1), b.saturating_sub(1))];
                        if sorted(elements(), &moved) != sorted(elements(), &windows[..1]) {
                            differed.set(differed.get() + 1);
                            prop_assert_ne!(
                                streamed(elements(), &moved),
                                streamed(elements(), &windows[..1])
                            );
                        }
                    }
                    Ok(())
                },
            )
            .unwrap();
        assert!(compared.get() > 1000, "{} cuts compared", compared.get());
        assert!(differed.get() > 10, "{} planted moves seen", differed.get());
    }

    /// The search from a hint is the plain binary search, for any hint and
    /// any offset (before, at, between and after the windows).
    #[test]
    fn the_search_from_a_hint_is_the_binary_search() {
        let windows = [
            (2, 3),
            (3, 5),
            (8, 8),
            (9, 12),
            (12, 12),
            (20, 26),
            (27, 30),
        ];
        for n in 0..=windows.len() {
            let windows = &windows[..n];
            for hint in 0..=n {
                for at in 0..=32 {
                    assert_eq!(
                        first_not_before(windows, hint, at),
                        windows.partition_point(|&(_, b)| b < at),
                        "{n} windows, hint {hint}, offset {at}"
                    );
                }
            }
        }
    }

    #[test]
    fn an_overlap_not_below_the_size_is_the_librarys_value_error() {
        for (size, overlap) in [(0, 0), (5, 5), (5, 9)] {
            let config = Config {
                size,
                overlap,
                ..Config::for_strategy(Strategy::TextSplitter)
            };
            let Err(Error::TextSplitter(e)) = config.validate() else {
                panic!("{size} {overlap} is accepted");
            };
            assert_eq!(
                e.library_exception(),
                (
                    "ValueError",
                    "The overlap is larger than or equal to the desired chunk capacity".into()
                )
            );
        }
    }

    #[test]
    fn a_chunk_that_starts_before_the_one_ahead_is_the_packages_panic() {
        // Trimming that keeps indentation moves the third chunk's start back
        // past the second's; the package panics there.
        let text =
            "the wordaword. . a \n \u{3000}。the 😀\u{1f}\r\n. Ünïcödé😀😀a😀a👩\u{200d}💻。";
        let config = Config {
            size: 28,
            overlap: 7,
            ..Config::for_strategy(Strategy::TextSplitterMarkdown)
        };
        let Err(Error::TextSplitter(e)) = Splitter::new(config, &crate::Resources::new())
            .unwrap()
            .split(text)
        else {
            panic!("the split is made");
        };
        assert_eq!(
            e.library_exception(),
            ("PanicException", "Invalid byte sequence".into())
        );
    }

    #[test]
    fn python_to_copy() {
        assert_eq!(
            to_python(Kind::Markdown, 300, 20, true, Unit::Tokens(crate::tokens::Encoding::O200k)),
            "from semantic_text_splitter import MarkdownSplitter  # pip install semantic-text-splitter==0.33.1\n\n\
             splitter = MarkdownSplitter.from_tiktoken_model(\"gpt-4o\", 300, overlap=20)\n\
             chunks = splitter.chunks(text)\n"
        );
        assert_eq!(
            to_python(Kind::Text, 100, 0, false, Unit::Chars),
            "from semantic_text_splitter import TextSplitter  # pip install semantic-text-splitter==0.33.1\n\n\
             splitter = TextSplitter(100, trim=False)\n\
             chunks = splitter.chunks(text)\n"
        );
    }
}
