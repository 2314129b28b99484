//! What the sentence and semantic views draw, read from the engine's trace:
//! the sentences and every doubtful stop (`Output::sentences`), the distance
//! curve, threshold and breakpoints (`Trace::semantic`), and the comparison
//! table's numbers (each strategy's own split). Nothing here finds a sentence
//! or computes a distance: it only turns byte spans into char offsets and
//! picks what to draw.

use crate::state::Split;
use chunkscope::{CharIndex, Strategy};

/// At most this many sentences are drawn over the text; the rest are counted.
pub const SENTENCES_DRAWN: usize = 400;
/// At most this many doubtful stops are listed in words.
pub const STOPS_LISTED: usize = 200;

/// One doubtful stop the segmenter judged, as the trace recorded it.
#[derive(Clone, Debug, PartialEq)]
pub struct Stop {
    /// The stop's chars (the run of `.`, `!`, `?`, `。`, `…`), half-open.
    pub start: usize,
    /// See `start`.
    pub end: usize,
    /// Where the next sentence would start (char offset).
    pub at: usize,
    /// Whether a sentence ends there.
    pub ends: bool,
    /// The reason's name (`abbreviation`, `number`, …).
    pub reason: &'static str,
    /// The judgment in words ("not a sentence end: abbreviation").
    pub words: &'static str,
    /// The word the stop ends, for the list ("e.g.", "3.14").
    pub word: String,
}

/// A part of a drawn sentence: plain text, or a doubtful stop.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    /// Text between stops.
    Text(String),
    /// The stop at this index of [`Sentences::stops`], and its text.
    Stop(usize, String),
}

/// One sentence over the text.
#[derive(Clone, Debug, PartialEq)]
pub struct Sentence {
    /// Its char offsets, half-open (it keeps the whitespace after it).
    pub start: usize,
    /// See `start`.
    pub end: usize,
    /// Its text, with its doubtful stops marked.
    pub parts: Vec<Part>,
}

/// The sentences of a split whose list has the sentence level.
#[derive(Clone, Debug, PartialEq)]
pub struct Sentences {
    /// The first [`SENTENCES_DRAWN`] sentences.
    pub drawn: Vec<Sentence>,
    /// How many sentences there are.
    pub total: usize,
    /// Every doubtful stop inside the drawn sentences, in text order.
    pub stops: Vec<Stop>,
    /// How many doubtful stops there are in the whole text.
    pub all_stops: usize,
}

/// The sentences and doubtful stops `split`'s trace recorded, if it has any.
pub fn sentences(split: &Split) -> Option<Sentences> {
    let found = split.output.sentences.as_ref()?;
    let text: &str = &split.text;
    let index = CharIndex::new(text);
    let drawn_spans = &found.spans[..found.spans.len().min(SENTENCES_DRAWN)];
    let drawn_end = drawn_spans.last().map_or(0, |s| s.end);
    let mut stops = Vec::new();
    let mut drawn = Vec::with_capacity(drawn_spans.len());
    let mut decisions = found
        .decisions
        .iter()
        .filter(|d| d.stop.end <= drawn_end)
        .peekable();
    for span in drawn_spans {
        let mut parts = Vec::new();
        let mut at = span.start;
        while let Some(d) = decisions.next_if(|d| d.stop.start < span.end) {
            if d.stop.start < at {
                continue;
            }
            if d.stop.start > at {
                parts.push(Part::Text(text[at..d.stop.start].to_string()));
            }
            let (start, end) = index.char_span(d.stop);
            let word_start = text[..d.stop.start]
                .rfind(char::is_whitespace)
                .map_or(0, |i| {
                    i + text[i..].chars().next().map_or(1, char::len_utf8)
                });
            parts.push(Part::Stop(stops.len(), d.stop.text(text).to_string()));
            stops.push(Stop {
                start,
                end,
                at: index.char_offset(d.at),
                ends: d.end,
                reason: d.reason.name(),
                words: d.reason.describe(),
                word: text[word_start.max(span.start)..d.stop.end].to_string(),
            });
            at = d.stop.end;
        }
        if at < span.end {
            parts.push(Part::Text(text[at..span.end].to_string()));
        }
        let (start, end) = index.char_span(*span);
        drawn.push(Sentence { start, end, parts });
    }
    Some(Sentences {
        drawn,
        total: found.spans.len(),
        stops,
        all_stops: found.decisions.len(),
    })
}

/// `x` with `places` decimals (at most 9), from integers: formatting a float
/// with `{:.N}` would pull the float printing machinery into the page's wasm.
pub fn decimals(x: f64, places: u32) -> String {
    let scale = 10u64.pow(places.min(9));
    let t = (x * scale as f64).round();
    let sign = if t < 0.0 { "-" } else { "" };
    let t = t.abs() as u64;
    if places == 0 {
        return format!("{sign}{t}");
    }
    let width = places.min(9) as usize;
    format!("{sign}{}.{:0width$}", t / scale, t % scale)
}

/// `x`'s IEEE 754 bits as 16 hex digits: the exact value, for tests to
/// compare with the CLI's without the page printing floats.
pub fn bits(x: f64) -> String {
    format!("{:016x}", x.to_bits())
}

/// One breakpoint on the curve.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// Its index among the values (`indices_above_thresh`): the cut is after
    /// sentence `index`.
    pub index: usize,
    /// The value there.
    pub value: f64,
    /// The chunk of the output that ends at this breakpoint; `None` when no
    /// chunk ends there (`min_chunk_size` ran the chunk on).
    pub chunk: Option<usize>,
}

/// The semantic view's curve, threshold and breakpoints, and the cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// What the threshold is compared with: the distances between
    /// neighbouring groups, or their gradient.
    pub values: Vec<f64>,
    /// Whether `values` is the gradient of the distances.
    pub gradient: bool,
    /// The threshold, when there were enough sentences to compute one.
    pub threshold: Option<f64>,
    /// The range drawn: the values and the threshold, and 0.
    pub low: f64,
    /// See `low`.
    pub high: f64,
    /// The breakpoints.
    pub marks: Vec<Mark>,
    /// Each sentence's char offsets (value `i` is between groups `i` and
    /// `i + 1`).
    pub sentences: Vec<(usize, usize)>,
    /// The embedder's name.
    pub embedder: String,
    /// Calls to the embedder.
    pub calls: usize,
    /// Vectors computed.
    pub vectors: usize,
    /// Their dimension.
    pub dims: usize,
    /// LangChain's chunks that were over the size and split again.
    pub fallbacks: usize,
}

/// The curve of a semantic split, from its trace.
pub fn curve(split: &Split) -> Option<Curve> {
    let t = split.output.trace.semantic.as_deref()?;
    let gradient = t.gradient.is_some();
    let values = t.gradient.clone().unwrap_or_else(|| t.distances.clone());
    let (mut low, mut high) = (0.0f64, 0.0f64);
    for &v in values.iter().chain(t.threshold.as_ref()) {
        low = low.min(v);
        high = high.max(v);
    }
    if high - low < 1e-9 {
        high = low + 1.0;
    }
    let marks = t
        .breakpoints
        .iter()
        .filter_map(|&index| {
            let value = *values.get(index)?;
            // The chunk whose last sentence is sentence `index`.
            let chunk = t
                .chunks
                .iter()
                .find(|c| c.sentences.1 == index + 1)
                .filter(|c| c.chunks.1 > c.chunks.0)
                .map(|c| c.chunks.1 - 1);
            Some(Mark {
                index,
                value,
                chunk,
            })
        })
        .collect();
    let index = CharIndex::new(&split.text);
    Some(Curve {
        values,
        gradient,
        threshold: t.threshold,
        low,
        high,
        marks,
        sentences: t.sentences.iter().map(|&s| index.char_span(s)).collect(),
        embedder: t.embedder.clone(),
        calls: t.embedding_calls,
        vectors: t.vectors,
        dims: t.dims,
        fallbacks: t.chunks.iter().filter(|c| c.fallback).count(),
    })
}

/// One row of seed 001's table, with the current document's numbers.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The strategy's option value (`late` for late chunking).
    pub name: &'static str,
    /// What it is called.
    pub title: &'static str,
    /// Its chunks' count and shortest, median and longest length, in the
    /// unit; `None` when it was not split (late chunking, or not yet).
    pub lengths: Option<(usize, usize, usize, usize)>,
    /// Vectors computed to decide where to cut (the semantic strategy's
    /// sentence groups; none for the others).
    pub cut_vectors: Option<usize>,
    /// Calls to the embedder to decide where to cut.
    pub cut_calls: Option<usize>,
    /// What it guarantees.
    pub guarantee: &'static str,
    /// What it costs, and what it needs.
    pub cost: &'static str,
    /// Where it is the right choice (seed 001's "ideal use case" column).
    pub ideal: &'static str,
}

/// The comparison: the four strategies of [`crate::state::semantic::COMPARED`]
/// from their splits (`split(strategy)`), then late chunking, described.
pub fn comparison<'a>(split: impl Fn(Strategy) -> Option<&'a Split>) -> Vec<Row> {
    let row = |strategy: Strategy, title, guarantee, cost, ideal| {
        let s = split(strategy);
        let lengths = s.map(|s| {
            let l = s.stats();
            (l.count, l.min, l.median, l.max)
        });
        let trace = s.map(|s| s.output.trace.semantic.as_deref());
        Row {
            name: strategy.name(),
            title,
            lengths,
            cut_vectors: trace.map(|t| t.map_or(0, |t| t.vectors)),
            cut_calls: trace.map(|t| t.map_or(0, |t| t.embedding_calls)),
            guarantee,
            cost,
            ideal,
        }
    };
    vec![
        row(
            Strategy::Fixed,
            "Fixed-size windows",
            "Every chunk the same size (the last may be shorter); nothing else.",
            "Nothing to compute; cuts words and sentences anywhere.",
            "A baseline to beat, and uniform text with no structure, such as logs.",
        ),
        row(
            Strategy::Recursive,
            "Recursive separators",
            "No chunk over the size; cuts at the strongest separator that makes pieces fit.",
            "One pass over the text; does not see where the topic changes.",
            "General prose and documentation: the default to start from.",
        ),
        row(
            Strategy::Sentence,
            "Whole sentences, packed",
            "No chunk over the size; no sentence cut unless it alone is too long.",
            "A sentence segmenter's pass; abbreviations and decimals need its care.",
            "Answers that must not be cut mid-sentence: FAQs, support pages, policies.",
        ),
        row(
            Strategy::Semantic,
            "Semantic (SemanticChunker)",
            "Cuts where neighbouring sentence groups drift apart; here also no chunk over the size.",
            "One vector per sentence group at ingestion, before the chunks are embedded.",
            "Long text that changes topic without headings: transcripts, multi-topic reports.",
        ),
        Row {
            name: "late",
            title: "Late chunking",
            lengths: None,
            cut_vectors: None,
            cut_calls: None,
            guarantee: "Every chunk's vector has seen the whole document through attention.",
            cost: "A long-context embedding model (e.g. 8k tokens) run over the whole document; not run on this page.",
            ideal: "Chunks that lean on text far away: contracts and reports whose definitions and names are set pages earlier.",
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::semantic::tests::TOPICS;
    use crate::state::testing::{act, start};
    use crate::state::{Action, View};

    #[test]
    fn numbers_are_written_without_float_printing() {
        assert_eq!(decimals(0.2750077968023539, 4), "0.2750");
        assert_eq!(decimals(-0.05, 2), "-0.05");
        assert_eq!(decimals(1.0, 2), "1.00");
        assert_eq!(decimals(12.5, 0), "13");
        assert_eq!(bits(1.0), "3ff0000000000000");
        assert_eq!(
            bits(0.2750077968023539),
            format!("{:016x}", 0.2750077968023539f64.to_bits())
        );
    }

    #[test]
    fn doubtful_stops_are_drawn_where_the_trace_put_them() {
        let text = "Dr. Smith paid 3.14 euros, e.g. coins. Then he left.";
        let state = act(&start(), Action::SetText(text.into()));
        let state = act(&state, Action::SetView(View::One(Strategy::Sentence)));
        let s = sentences(state.primary().unwrap()).unwrap();
        assert_eq!(s.total, 2);
        assert_eq!((s.drawn[0].start, s.drawn[0].end), (0, 39));
        assert_eq!((s.drawn[1].start, s.drawn[1].end), (39, 52));
        let got: Vec<(&str, &str, usize, bool)> = s
            .stops
            .iter()
            .map(|d| (d.word.as_str(), d.reason, d.start, d.ends))
            .collect();
        assert_eq!(
            got,
            [
                ("Dr.", "abbreviation", 2, false),
                ("3.", "number", 16, false),
                ("e.", "abbreviation", 28, false),
                ("e.g.", "abbreviation", 30, false),
            ]
        );
        assert_eq!(s.stops[0].words, "not a sentence end: abbreviation");
        // The parts put the text back together, the stops marked.
        let joined: String = s.drawn[0]
            .parts
            .iter()
            .map(|p| match p {
                Part::Text(t) | Part::Stop(_, t) => t.as_str(),
            })
            .collect();
        assert_eq!(joined, &text[..39]);
    }

    #[test]
    fn the_curve_links_each_breakpoint_to_the_chunk_it_ends() {
        let state = act(&start(), Action::SetText(TOPICS.into()));
        let state = act(&state, Action::SetSize("200".into()));
        let state = act(&state, Action::SetView(View::One(Strategy::Semantic)));
        let c = curve(state.primary().unwrap()).unwrap();
        // As `chunkscope --strategy semantic --size 200 --trace` gives.
        assert_eq!(
            c.values,
            [
                0.2163990958290184,
                0.25443531790198015,
                0.21797345766950804,
                0.2801509165274473,
                0.11883288152655358
            ]
        );
        assert_eq!(c.threshold, Some(0.2750077968023539));
        assert_eq!(
            c.marks,
            [Mark {
                index: 3,
                value: 0.2801509165274473,
                chunk: Some(0)
            }]
        );
        assert_eq!((c.calls, c.vectors, c.dims), (1, 6, 22));
        assert_eq!(c.sentences[3], (52, 79));
        assert!(!c.gradient);
        let rows = comparison(|s| state.split(s).map(|s| &**s));
        let names: Vec<&str> = rows.iter().map(|r| r.name).collect();
        assert_eq!(
            names,
            ["fixed", "recursive", "sentence", "semantic", "late"]
        );
        assert_eq!(rows[3].lengths, Some((2, 52, 52, 79)));
        assert_eq!((rows[3].cut_calls, rows[3].cut_vectors), (Some(1), Some(6)));
        assert_eq!((rows[0].cut_calls, rows[0].cut_vectors), (Some(0), Some(0)));
        assert_eq!(rows[0].lengths, Some((1, 132, 132, 132)));
        assert_eq!(rows[4].lengths, None);
    }

    #[test]
    fn long_texts_draw_the_first_sentences_and_count_the_rest() {
        // 1000 sentences, each with a doubtful stop ("Dr.").
        let text: String = (0..1000)
            .map(|i| format!("Dr. Lee saw case {i}. "))
            .collect();
        let state = act(&start(), Action::SetText(text.as_str().into()));
        let state = act(&state, Action::SetSize("200".into()));
        let sentence = act(&state, Action::SetView(View::One(Strategy::Sentence)));
        let s = sentences(sentence.primary().unwrap()).unwrap();
        assert_eq!((s.total, s.drawn.len()), (1000, SENTENCES_DRAWN));
        assert_eq!(s.all_stops, 1000);
        assert_eq!(s.stops.len(), SENTENCES_DRAWN);
        assert!(s
            .stops
            .iter()
            .all(|d| d.reason == "abbreviation" && d.word == "Dr."));
        let last = s.drawn.last().unwrap();
        let chars = "Dr. Lee saw case 399. ".chars().count();
        assert_eq!(last.end - last.start, chars);
        let semantic = act(&state, Action::SetView(View::One(Strategy::Semantic)));
        let c = curve(semantic.primary().unwrap()).unwrap();
        // LangChain's own sentence rule cuts after "Dr." too, and the
        // trailing space leaves an empty last sentence: 2 × 1000 + 1.
        assert_eq!(c.sentences.len(), 2001);
        assert_eq!(c.values.len(), 2000);
        assert!(c
            .marks
            .iter()
            .all(|m| c.threshold.is_some_and(|t| m.value > t)));
        let rows = comparison(|s| semantic.split(s).map(|s| &**s));
        assert!(rows[..4].iter().all(|r| r.lengths.is_some()));
    }
}
