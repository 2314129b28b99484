//! The engine of the text-splitter strategies: the crate's chunks, and
//! the label of each cut (see the parent module for how they are found).

use super::{Kind, TextSplitterError};
use crate::config::Config;
use crate::engine::{Engine, EngineOutput};
use crate::error::Error;
use crate::separator::{Separator, SeparatorLevel};
use crate::span::Span;
use crate::trace::{Chunk, Cut, Output};
use crate::unit::{Counter, Measure, Unit};
use icu_segmenter::options::{SentenceBreakInvariantOptions, WordBreakInvariantOptions};
use icu_segmenter::{GraphemeClusterSegmenter, SentenceSegmenter, WordSegmenter};
use pulldown_cmark::{Event, Options, Parser, Tag};
use std::sync::LazyLock;
use text_splitter::{ChunkConfig, ChunkSizer, MarkdownSplitter, TextSplitter};

/// The library's segmenters, made as it makes them (its word segmenter
/// uses the dictionaries for scripts without spaces).
static SENTENCES: LazyLock<icu_segmenter::SentenceSegmenterBorrowed<'static>> =
    LazyLock::new(|| SentenceSegmenter::new(SentenceBreakInvariantOptions::default()));
static WORDS: LazyLock<icu_segmenter::WordSegmenterBorrowed<'static>> =
    LazyLock::new(|| WordSegmenter::new_dictionary(WordBreakInvariantOptions::default()));
const GRAPHEMES: icu_segmenter::GraphemeClusterSegmenterBorrowed<'static> =
    GraphemeClusterSegmenter::new();

/// The library's `ChunkSizer` over our counting.
#[derive(Clone, Copy, Debug)]
struct Sizer(Counter);

impl ChunkSizer for Sizer {
    fn size(&self, chunk: &str) -> usize {
        self.0.len(chunk)
    }
}

/// The engine: the splitter kind and the checked overlap.
#[derive(Clone, Debug)]
pub(crate) struct TextSplitterEngine {
    kind: Kind,
}

impl TextSplitterEngine {
    /// Checks the configuration as the library's `ChunkConfig` does.
    pub(crate) fn new(kind: Kind, config: &Config) -> Result<TextSplitterEngine, Error> {
        chunk_config(config, Counter::new(Unit::Chars)?)?;
        Ok(TextSplitterEngine { kind })
    }
}

/// `ChunkConfig::new(size).with_overlap(overlap)?.with_trim(trim)` with our
/// sizer; its error as [`TextSplitterError`].
fn chunk_config(config: &Config, counter: Counter) -> Result<ChunkConfig<Sizer>, Error> {
    Ok(ChunkConfig::new(config.size)
        .with_sizer(Sizer(counter))
        .with_overlap(config.overlap)
        .map_err(|e| TextSplitterError::Overlap {
            overlap: config.overlap,
            size: config.size,
            message: e.to_string(),
        })?
        .with_trim(config.trim))
}

impl Engine for TextSplitterEngine {
    fn split(
        &self,
        text: &str,
        config: &Config,
        counter: Counter,
        _record: bool,
    ) -> Result<EngineOutput, Error> {
        let chunk_config = chunk_config(config, counter)?;
        let spans: Vec<Span> = match self.kind {
            Kind::Text => TextSplitter::new(chunk_config)
                .chunk_indices(text)
                .map(|(at, chunk)| Span::new(at, at + chunk.len()))
                .collect(),
            Kind::Markdown => MarkdownSplitter::new(chunk_config)
                .chunk_indices(text)
                .map(|(at, chunk)| Span::new(at, at + chunk.len()))
                .collect(),
        };
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
        Ok(output(text, &spans, self.kind, counter).into())
    }

    fn boxed(&self) -> Box<dyn Engine> {
        Box::new(self.clone())
    }
}

/// The chunks, each cut labelled (see the module's documentation).
fn output(text: &str, spans: &[Span], kind: Kind, counter: Counter) -> Output {
    let measure = Measure::new(counter, text);
    let elements = match kind {
        Kind::Markdown if spans.len() > 1 => markdown_boundaries(text),
        _ => Vec::new(),
    };
    let mut labels: Vec<Label> = Vec::new();
    // For each chunk but the last, the index in `labels` of its cut.
    let cuts: Vec<usize> = spans
        .windows(2)
        .map(|pair| {
            let label = label(text, kind, pair[0], pair[1], &elements);
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

/// `MarkdownSplitter`'s levels, weakest first; a heading is stronger the
/// shallower it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Element {
    SoftBreak,
    Inline,
    Block,
    Rule,
    /// `7 - depth`, so that `#` is the strongest.
    Heading(u8),
}

/// Every element boundary (its start and end) with its element, sorted by
/// offset: the events the library's `MarkdownSplitter` makes its levels of,
/// from the same parser with the same options.
fn markdown_boundaries(text: &str) -> Vec<(usize, Element)> {
    let mut out = Vec::new();
    for (event, range) in Parser::new_ext(text, Options::all()).into_offset_iter() {
        let element = match event {
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
            Event::Start(Tag::Heading { level, .. }) => Element::Heading(7 - level as u8),
            Event::Start(_) => Element::Block,
            Event::Rule => Element::Rule,
            Event::End(_) => continue,
        };
        out.push((range.start, element));
        out.push((range.end, element));
    }
    out.sort_unstable_by_key(|&(at, _)| at);
    out
}

/// The label of the cut between `chunk` and `next`.
fn label(text: &str, kind: Kind, chunk: Span, next: Span, elements: &[(usize, Element)]) -> Label {
    let end = chunk.end;
    let a = end - (chunk.text(text).len() - chunk.text(text).trim_end().len());
    let b = end + (text[end..].len() - text[end..].trim_start().len());
    if kind == Kind::Text {
        if let Some(run) = longest_line_break_run(&text[a..b]) {
            return run;
        }
    }
    let first = elements.partition_point(|(at, _)| *at < a);
    if let Some(strongest) = elements[first..]
        .iter()
        .take_while(|(at, _)| *at <= b)
        .map(|(_, e)| *e)
        .max()
    {
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

/// The longest run of `\n`/`\r` in `gap` (the first of the longest), counted
/// as the library counts it: in grapheme clusters, so `\r\n` is one.
fn longest_line_break_run(gap: &str) -> Option<Label> {
    let mut best: Option<(usize, &str)> = None;
    let bytes = gap.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !matches!(bytes[i], b'\n' | b'\r') {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && matches!(bytes[i], b'\n' | b'\r') {
            i += 1;
        }
        let run = &gap[start..i];
        let n = GRAPHEMES.segment_str(run).count() - 1;
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
    use crate::{Splitter, Strategy};

    fn split(strategy: Strategy, size: usize, text: &str) -> (Vec<&str>, Vec<String>) {
        let config = Config {
            size,
            ..Config::for_strategy(strategy)
        };
        let out = Splitter::new(config).unwrap().split(text).unwrap();
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
        let Err(Error::TextSplitter(e)) = Splitter::new(config).unwrap().split(text) else {
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
