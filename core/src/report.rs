//! A serializable report of one split, the one format the CLI prints and the JS
//! API returns, so neither builds its own.
//!
//! The engine's types speak in byte spans and indices into the configuration;
//! this module turns them into plain records a program outside Rust can read
//! without the configuration at hand:
//!
//! - every offset is given twice, in chars (`start`/`end`: what a person and
//!   Python count, and what the page shows) and in UTF-8 bytes
//!   (`byte_start`/`byte_end`: what slices a file). Both are half-open;
//! - a chunk's `cut` is the separator *text* that ended it (a blank line is a
//!   real `"\n\n"`), or `"hard"`, `"end"` or `"window"`;
//! - a trace node names its separator by index, raw text and escaped label.
//!
//! Char offsets come from one [`CharIndex`] per report, so a report costs one
//! pass over the text plus a short count per offset, not a count from the start
//! of the text for every chunk.

use crate::trace::semantic::{SemanticChunk, SemanticTrace};
use crate::{
    Action, Analysis, CharIndex, Check, Checks, Close, Config, Cut, Detail, LangChainFacts, Node,
    Property, Separator, Span,
};
use serde::Serialize;
use std::borrow::Cow;

mod typescript;

/// One split, ready to serialize.
///
/// Fields that a [`Detail::CHUNKS`] report leaves out are absent from the JSON
/// rather than `null`, so the plain output is exactly the documented one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The chunks in source order.
    pub chunks: Vec<ChunkReport<'static>>,
    /// The recursion tree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<TraceReport>,
    /// The invariants of the split, as the live badges show them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checks: Option<ChecksReport>,
    /// The configuration that made the split, in the same shape the JS API
    /// accepts, so a report can be replayed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub config: Option<crate::Settings>,
    /// What a LangChain strategy adds: its warnings, the separators it really
    /// used, and Python code that gives the same chunks. Absent for our own
    /// engines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub langchain: Option<LangChainReport>,
    /// The text's sentences, in order, tiling the text: present in a full
    /// report when the separator list has the sentence level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sentences: Option<Vec<SpanReport>>,
    /// Every doubtful stop judged while finding the sentences (rejected,
    /// added, or doubtful and kept), with its reason; present with
    /// `sentences`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sentence_candidates: Option<Vec<CandidateReport>>,
}

/// One judgment on a candidate sentence end (see [`crate::sentence::Decision`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CandidateReport {
    /// Where the next sentence would start, in chars.
    pub at: usize,
    /// The same, in bytes.
    pub byte_at: usize,
    /// The stop that was judged (`.`, `?!`, `。`, `…` …).
    pub stop: SpanReport,
    /// Whether a sentence ends there.
    pub end: bool,
    /// The reason, as one word ([`crate::sentence::Reason::name`]).
    pub reason: &'static str,
    /// The judgment in words: "not a sentence end: abbreviation".
    pub why: &'static str,
    /// Whether a refinement of UAX #29 made the judgment (rather than
    /// UAX #29's own rules, explained).
    pub refinement: bool,
}

/// What a LangChain split adds to a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LangChainReport {
    /// The Python class reproduced.
    pub class: &'static str,
    /// LangChain's log lines ("Created a chunk of size 12, which is longer
    /// than the specified 10"), in order.
    pub warnings: Vec<String>,
    /// The separators LangChain used, which `cut_separator` and the trace
    /// index: its default list when none was given, and only the first for
    /// `CharacterTextSplitter`. Written as the configuration writes its
    /// separators.
    #[serde(serialize_with = "crate::config::settings::separators")]
    pub separators: Vec<Separator>,
    /// Python that builds the same splitter and gives the same chunks and
    /// start indices.
    pub python: String,
}

/// A stretch of the source in chars and in bytes (both half-open).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SpanReport {
    /// First char.
    pub start: usize,
    /// One past the last char.
    pub end: usize,
    /// First byte.
    pub byte_start: usize,
    /// One past the last byte.
    pub byte_end: usize,
}

/// One chunk.
///
/// # Invariants
///
/// `text` is the source from `byte_start` to `byte_end` (equivalently, chars
/// `start..end`) unless `is_slice` is `Some(false)`; `len` is its length in
/// the configured unit.
///
/// A [`Report`] owns its chunks' texts (`ChunkReport<'static>`); the
/// [`ChunkReports`] of a caller that writes chunks as it goes borrow them
/// from the source and the configuration.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChunkReport<'a> {
    /// Position in the output, from 0.
    pub index: usize,
    /// First char.
    pub start: usize,
    /// One past the last char.
    pub end: usize,
    /// First byte.
    pub byte_start: usize,
    /// One past the last byte.
    pub byte_end: usize,
    /// Length in the configured unit.
    pub len: usize,
    /// What ended the chunk: the separator's raw text (the pattern, for a
    /// regex), or `"hard"`, `"end"` (the last chunk) or `"window"` (fixed).
    /// A separator whose text is one of those words is told apart by
    /// `cut_separator`.
    pub cut: Cow<'a, str>,
    /// The chunk's text: exactly the source between its offsets, except for
    /// a library's chunk whose `is_slice` is false, where it is the library's
    /// string.
    pub text: Cow<'a, str>,
    /// Whether `text` is exactly the source between the offsets, for
    /// LangChain strategies, a semantic split, and a Chonkie split with a
    /// chunk that is not a slice. When false (for LangChain a regex
    /// separator put back as its pattern, or empty pieces it dropped; for
    /// Chonkie tokens decoded apart, with U+FFFD; for `llamaindex-markdown`
    /// a header line rebuilt with a space), the offsets say what the chunk
    /// was made from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub is_slice: Option<bool>,
    /// The library's own start offset, in chars, where `is_slice` is given:
    /// `add_start_index` as LangChain computes it (a `str.find` from a
    /// guessed offset, or -1), Chonkie's `start_index` (the lengths of the
    /// texts before it, added up), or LlamaIndex's `start_char_idx` (a
    /// `str.find` from one past the last start found; -1 where it found
    /// none and left `None`). It can differ from `start`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_index: Option<i64>,
    /// `langchain-markdown`: the `Document`'s metadata as LangChain gives
    /// it, an object of the enclosing headers in LangChain's order
    /// (`{"Header 1": "Refunds", "Header 2": "UPI"}`); `llamaindex-markdown`:
    /// the node's, `{"header_path": "/Refunds/"}` (its ancestors' headers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metadata: Option<MetadataReport>,
    /// The part that repeats the previous chunk; absent when nothing repeats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overlap: Option<SpanReport>,
    /// Index in `config.separators` of the separator that made the cut, for its
    /// colour. Only in a full report, and only for separator cuts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut_separator: Option<usize>,
    /// The cut as a person reads it: the escaped label (a blank line is the
    /// four characters `\n\n`), or `hard`/`end`/`window`. Only in a full report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut_label: Option<String>,
    /// The trace node the chunk came from. Only in a full report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<usize>,
    /// Markdown strategy only: the headings whose sections enclose the
    /// chunk, outermost first, the chunk's own section last (empty before
    /// the first heading).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heading_path: Option<Vec<HeadingReport>>,
    /// Markdown strategy with `heading_prefix` on: the text to put before
    /// the chunk for embedding (the heading path's texts joined by `" > "`,
    /// then a blank line; `""` before the first heading). `len` counts only
    /// `text`; `size` counted both.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
    /// Markdown strategy only: for a chunk of rows cut from a table that
    /// alone was over the size (after the first such chunk), where the
    /// table's header and delimiter rows are: the context the rows are read
    /// in. Not part of `text`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_header: Option<SpanReport>,
}

/// A heading on a chunk's heading path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeadingReport {
    /// 1 (`#`, or a `===` underline) to 6.
    pub level: u8,
    /// The heading's text as written (inline marks kept).
    pub text: String,
    /// First char of the text.
    pub start: usize,
    /// One past its last char.
    pub end: usize,
    /// First byte of the text.
    pub byte_start: usize,
    /// One past its last byte.
    pub byte_end: usize,
}

/// The recursion tree, flattened in the order the engine visited it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TraceReport {
    /// The deepest level reached (0 for an empty text).
    pub depth: usize,
    /// Node `i` has `id == i`; node 0 is the root unless the text was empty
    /// (for the semantic strategy, the nodes are the recursive splits of its
    /// chunks that were too long, each a root of its own).
    pub nodes: Vec<NodeReport>,
    /// What the engine did, one event at a time, in the order it did it
    /// ([`crate::Output::events`]): the tree replayed.
    pub events: Vec<EventReport>,
    /// The semantic strategy only: sentences, distances, threshold,
    /// breakpoints and LangChain's chunks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub semantic: Option<SemanticReport>,
}

/// One event of the trace, written `{"kind": "measured", "node": 3}`, with
/// the chunk for `emitted`: `{"kind": "emitted", "node": 4, "chunk": 2}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventReport(pub crate::TraceEvent);

impl Serialize for EventReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let chunk = match self.0 {
            crate::TraceEvent::Emitted { chunk, .. } => Some(chunk),
            _ => None,
        };
        let mut map = serializer.serialize_map(Some(2 + usize::from(chunk.is_some())))?;
        map.serialize_entry("kind", self.0.name())?;
        map.serialize_entry("node", &self.0.node())?;
        if let Some(chunk) = chunk {
            map.serialize_entry("chunk", &chunk)?;
        }
        map.end()
    }
}

/// What the semantic engine did, with char offsets.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SemanticReport {
    /// The embedder's name.
    pub embedder: String,
    /// Calls to the embedder (0 or 1).
    pub embedding_calls: usize,
    /// Vectors computed (one per sentence group).
    pub vectors: usize,
    /// Their dimension (the vocabulary's size for the lexical embedder).
    pub dims: usize,
    /// The sentences, in order.
    pub sentences: Vec<SpanReport>,
    /// `1 − cosine similarity` between sentence group `i` and `i + 1`.
    pub distances: Vec<f64>,
    /// The distances' gradient, with the `gradient` threshold: what the
    /// threshold is compared with then.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gradient: Option<Vec<f64>>,
    /// The threshold; `null` when there were too few sentences for one.
    pub threshold: Option<f64>,
    /// Indices of `distances` (or `gradient`) above the threshold: LangChain's
    /// `indices_above_thresh`.
    pub breakpoints: Vec<usize>,
    /// LangChain's chunks and what became of each.
    pub chunks: Vec<SemanticChunkReport>,
}

// Distances are never NaN (a similarity that is not finite counts as 0).
impl Eq for SemanticReport {}

/// One of `SemanticChunker`'s chunks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SemanticChunkReport {
    /// Its sentences, `first..last` (half-open).
    pub sentences: PartsReport,
    /// From its first sentence's start to its last's end.
    #[serde(flatten)]
    pub at: SpanReport,
    /// LangChain's text (its sentences joined with one space).
    pub text: String,
    /// Whether `text` is exactly the source between the offsets.
    pub is_slice: bool,
    /// `add_start_index` as `SemanticChunker` computes it.
    pub start_index: usize,
    /// The output chunks it became, `first..last` (half-open).
    pub output: PartsReport,
    /// Whether it was longer than `size` and split by the recursive engine.
    pub fallback: bool,
}

/// What the engine did with a node, as one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionName {
    /// Short enough: the node is a chunk.
    Fits,
    /// Whitespace only: no chunk.
    Empty,
    /// Split on a separator, then packed.
    Split,
    /// Cut into windows of `size` units.
    HardCut,
    /// The fixed engine's windows.
    Windows,
    /// Cut at a level of the document's structure (Markdown); `level` says
    /// which.
    Structure,
    /// Split at every delimiter of one level of Chonkie's rules; `level`
    /// names it (`sentence ends`).
    ChonkieLevel,
    /// Chonkie's `SentenceChunker`: split into `split_into` sentences,
    /// packed whole.
    Sentences,
}

impl ActionName {
    /// Every action, in the order the docs list them.
    pub const ALL: [ActionName; 8] = [
        ActionName::Fits,
        ActionName::Empty,
        ActionName::Split,
        ActionName::HardCut,
        ActionName::Windows,
        ActionName::Structure,
        ActionName::ChonkieLevel,
        ActionName::Sentences,
    ];

    /// The action's name in the report (`hard_cut`, …).
    pub const fn name(self) -> &'static str {
        match self {
            ActionName::Fits => "fits",
            ActionName::Empty => "empty",
            ActionName::Split => "split",
            ActionName::HardCut => "hard_cut",
            ActionName::Windows => "windows",
            ActionName::Structure => "structure",
            ActionName::ChonkieLevel => "chonkie_level",
            ActionName::Sentences => "sentences",
        }
    }
}

impl Serialize for ActionName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// A separator as a node refers to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeparatorRef {
    /// Index in `config.separators` (its priority and colour).
    pub index: usize,
    /// The raw text or regex.
    pub pattern: String,
    /// The escaped label a person reads (`\n\n`, `/…/`, `""`).
    pub label: String,
    /// Whether `pattern` is a regular expression.
    pub regex: bool,
    /// A named level instead of a pattern (`"sentence"`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<&'static str>,
}

/// Which parts of the parent's split were packed into a node (half-open).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PartsReport {
    /// First part.
    pub first: usize,
    /// One past the last part.
    pub last: usize,
}

/// Why the packer closed a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CloseReport {
    /// The next part (`next_len` units) would have made the group `would_be`
    /// units, over the size.
    NextWouldExceed {
        /// Length of the group as packed so far, before trimming.
        group_len: usize,
        /// Length counted between the group and the next part (a dropped or
        /// joining separator), 0 when there is none.
        gap_len: usize,
        /// Length of the part that did not fit.
        next_len: usize,
        /// Length the group would have had.
        would_be: usize,
    },
    /// The parent had no parts left.
    ParentEnded,
}

/// One node of the recursion tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NodeReport {
    /// Its index in `trace.nodes`.
    pub id: usize,
    /// 1 for the root.
    pub depth: usize,
    /// The node it was split from; `null` for the root.
    pub parent: Option<usize>,
    /// The nodes it was packed into, in order.
    pub children: Vec<usize>,
    /// First char (after trimming).
    pub start: usize,
    /// One past the last char.
    pub end: usize,
    /// First byte.
    pub byte_start: usize,
    /// One past the last byte.
    pub byte_end: usize,
    /// Length in the configured unit.
    pub len: usize,
    /// Whether it was longer than `size`.
    pub too_big: bool,
    /// What was done with it.
    pub action: ActionName,
    /// The separator that split it, or the `""` entry that hard-cut it; `null`
    /// when it fit, was empty, was cut because the list ran out, or is the fixed
    /// engine's root.
    pub separator: Option<SeparatorRef>,
    /// Separators tried on it and not found, in the order tried.
    pub absent: Vec<usize>,
    /// Which parts of the parent's split it was packed from; `null` for the root.
    pub parts: Option<PartsReport>,
    /// How many parts its split made (before packing), for `split`,
    /// `structure` and `chonkie_level` nodes.
    pub split_into: Option<usize>,
    /// How many windows a `hard_cut` made.
    pub windows: Option<usize>,
    /// The fixed engine's step, `size − overlap`.
    pub stride: Option<usize>,
    /// For `structure` nodes: the level that cut it (`heading 2`, `block`,
    /// `table row`, `fence line`); for `chonkie_level` nodes, the level of
    /// Chonkie's rules (`paragraphs`, `sentence ends`, `pauses`, `words`).
    /// Absent for other nodes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// Why the packer closed it; `null` for the root.
    pub close: Option<CloseReport>,
    /// The chunk it became, when it fit.
    pub chunk: Option<usize>,
}

/// One invariant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckReport {
    /// Whether it holds.
    pub ok: bool,
    /// The first violation, or a one-line confirmation.
    pub detail: String,
}

/// The properties of the split (see [`Property`]), serialized as
/// `{"ok": bool, "coverage": {...}, "max_size": {...}, ...}`: one entry per
/// property checked, named by [`Property::name`], in [`Property::ALL`] order.
/// `determinism` is present only when the second run was asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChecksReport {
    /// True when every property checked holds.
    pub ok: bool,
    /// Each property checked, with its outcome.
    pub properties: Vec<(Property, CheckReport)>,
}

impl ChecksReport {
    /// The outcome of `property`, if it was checked.
    pub fn get(&self, property: Property) -> Option<&CheckReport> {
        self.properties
            .iter()
            .find(|(p, _)| *p == property)
            .map(|(_, c)| c)
    }
}

impl Serialize for ChecksReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(1 + self.properties.len()))?;
        map.serialize_entry("ok", &self.ok)?;
        for (property, check) in &self.properties {
            map.serialize_entry(property.name(), check)?;
        }
        map.end()
    }
}

impl Report {
    /// The report of an analysis of `source` under `config`. With
    /// `detail.trace` off, the chunks carry only the CLI contract's fields and
    /// there is no trace, configuration echo or LangChain section.
    pub fn new(source: &str, config: &Config, analysis: &Analysis, detail: Detail) -> Report {
        let reports = ChunkReports::new(source, analysis, detail.trace);
        Report {
            chunks: (0..reports.len())
                .map(|i| reports.get(i).into_owned())
                .collect(),
            ..Report::without_chunks(source, config, analysis, detail)
        }
    }

    /// [`Report::new`] with its chunks left out (empty): for a writer that
    /// streams them from [`ChunkReports`] instead, one at a time, and the
    /// rest of the report from here. The chunks come first in the report.
    pub fn without_chunks(
        source: &str,
        config: &Config,
        analysis: &Analysis,
        detail: Detail,
    ) -> Report {
        let chunks = Vec::new();
        let checks = analysis.checks.as_ref().map(checks_report);
        if !detail.trace {
            return Report {
                chunks,
                trace: None,
                checks,
                config: None,
                langchain: None,
                sentences: None,
                sentence_candidates: None,
            };
        }
        let (sentences, sentence_candidates) = match &analysis.output.sentences {
            Some(found) => {
                let (spans, candidates) = sentence_reports(source, found);
                (Some(spans), Some(candidates))
            }
            None => (None, None),
        };
        let output = &analysis.output;
        let nodes = output
            .trace
            .nodes
            .iter()
            .zip(&analysis.node_chars)
            .enumerate()
            .map(|(id, (node, &chars))| node_report(&analysis.separators, chars, id, node))
            .collect();
        Report {
            chunks,
            trace: Some(TraceReport {
                depth: output.trace.depth(),
                nodes,
                events: output.events().into_iter().map(EventReport).collect(),
                semantic: output
                    .trace
                    .semantic
                    .as_deref()
                    .map(|s| semantic_report(source, s)),
            }),
            checks,
            config: Some(crate::Settings::echo(config)),
            langchain: output
                .langchain
                .as_ref()
                .and_then(|facts| langchain_report(config, facts, &analysis.separators)),
            sentences,
            sentence_candidates,
        }
    }
}

fn sentence_reports(
    source: &str,
    found: &crate::sentence::Sentences,
) -> (Vec<SpanReport>, Vec<CandidateReport>) {
    let chars = CharIndex::new(source);
    let spans = found
        .spans
        .iter()
        .map(|&s| span_report(chars.char_span(s), s))
        .collect();
    let candidates = found
        .decisions
        .iter()
        .map(|d| CandidateReport {
            at: chars.char_offset(d.at),
            byte_at: d.at,
            stop: span_report(chars.char_span(d.stop), d.stop),
            end: d.end,
            reason: d.reason.name(),
            why: d.reason.describe(),
            refinement: d.reason.refinement(),
        })
        .collect();
    (spans, candidates)
}

fn langchain_report(
    config: &Config,
    facts: &LangChainFacts,
    separators: &[Separator],
) -> Option<LangChainReport> {
    let (class, python) = config.kind().langchain_python(config)?;
    Some(LangChainReport {
        class,
        warnings: facts.warnings.clone(),
        separators: separators.to_vec(),
        python,
    })
}

fn semantic_report(source: &str, s: &SemanticTrace) -> SemanticReport {
    let chars = CharIndex::new(source);
    let at = |span: Span| span_report(chars.char_span(span), span);
    SemanticReport {
        embedder: s.embedder.clone(),
        embedding_calls: s.embedding_calls,
        vectors: s.vectors,
        dims: s.dims,
        sentences: s.sentences.iter().map(|&span| at(span)).collect(),
        distances: s.distances.clone(),
        gradient: s.gradient.clone(),
        threshold: s.threshold,
        breakpoints: s.breakpoints.clone(),
        chunks: s
            .chunks
            .iter()
            .map(|c| SemanticChunkReport {
                sentences: PartsReport {
                    first: c.sentences.0,
                    last: c.sentences.1,
                },
                at: at(c.span),
                text: c.langchain_text(source).to_string(),
                is_slice: c.text.is_none(),
                start_index: c.start_index,
                output: PartsReport {
                    first: c.chunks.0,
                    last: c.chunks.1,
                },
                fallback: c.fallback,
            })
            .collect(),
    }
}

fn span_report(chars: (usize, usize), span: Span) -> SpanReport {
    SpanReport {
        start: chars.0,
        end: chars.1,
        byte_start: span.start,
        byte_end: span.end,
    }
}

impl ChunkReport<'_> {
    /// The same report, owning its texts.
    pub fn into_owned(self) -> ChunkReport<'static> {
        ChunkReport {
            cut: Cow::Owned(self.cut.into_owned()),
            text: Cow::Owned(self.text.into_owned()),
            ..self
        }
    }
}

/// The chunk reports of one analysis, made one at a time and borrowing
/// their texts, for a caller that writes each chunk as it goes (the CLI's
/// JSON Lines and JSON report) and so never holds every chunk's text at
/// once.
///
/// What several chunks need is made once, here: the char index for
/// overlaps and Markdown offsets (only when there are such), the headings,
/// and which semantic group each chunk is.
pub struct ChunkReports<'a> {
    source: &'a str,
    analysis: &'a Analysis,
    full: bool,
    facts: Option<&'a [crate::LibraryFact]>,
    /// For each chunk, the semantic group it is, when it was not split again.
    semantic: Option<Vec<Option<&'a SemanticChunk>>>,
    /// Char offsets for overlaps and Markdown spans, when any chunk has them.
    chars: Option<CharIndex<'a>>,
    headings: Vec<HeadingReport>,
}

impl<'a> ChunkReports<'a> {
    /// The reports of `analysis`'s chunks of `source`; `full` adds the
    /// fields only a full report has (the cut's separator index and label,
    /// the trace node).
    pub fn new(source: &'a str, analysis: &'a Analysis, full: bool) -> ChunkReports<'a> {
        let output = &analysis.output;
        // A semantic chunk that was not split again is one of LangChain's:
        // its text and start index are LangChain's.
        let semantic = output.trace.semantic.as_deref().map(|s| {
            let mut of = vec![None; output.chunks.len()];
            for c in s.chunks.iter().filter(|c| !c.fallback) {
                if let Some(slot) = of.get_mut(c.chunks.0) {
                    *slot = Some(c);
                }
            }
            of
        });
        let markdown = output.markdown.as_ref();
        // Overlaps and Markdown spans are rare beside chunks; their char
        // offsets need an index of their own.
        let chars = (markdown.is_some() || output.chunks.iter().any(|c| c.overlap.is_some()))
            .then(|| CharIndex::new(source));
        let headings = match (markdown, &chars) {
            (Some(facts), Some(index)) => facts
                .headings
                .iter()
                .map(|h| {
                    let (start, end) = index.char_span(h.text);
                    HeadingReport {
                        level: h.level,
                        text: h.text.text(source).to_string(),
                        start,
                        end,
                        byte_start: h.text.start,
                        byte_end: h.text.end,
                    }
                })
                .collect(),
            _ => Vec::new(),
        };
        ChunkReports {
            source,
            analysis,
            full,
            facts: output.library.as_deref(),
            semantic,
            chars,
            headings,
        }
    }

    /// How many chunks there are.
    pub fn len(&self) -> usize {
        self.analysis.output.chunks.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The report of the `i`th chunk of the analysis.
    ///
    /// # Panics
    ///
    /// If `i` is not below [`ChunkReports::len`].
    pub fn get(&self, i: usize) -> ChunkReport<'a> {
        let (source, analysis) = (self.source, self.analysis);
        let chunk = &analysis.output.chunks[i];
        let at = span_report(analysis.chunk_chars[i], chunk.span);
        let (cut, cut_separator, labelled) = describe_cut(&analysis.separators, chunk.cut);
        let fact = self.facts.and_then(|f| f.get(chunk.index));
        let md = (analysis.output.markdown.as_ref()).and_then(|m| m.chunks.get(chunk.index));
        let group = (self.semantic.as_ref()).and_then(|of| of.get(chunk.index).copied().flatten());
        let text = match (
            fact.and_then(|f| f.text()),
            group.and_then(|g| g.text.as_deref()),
        ) {
            (Some(own), _) | (None, Some(own)) => own,
            (None, None) => chunk.text(source),
        };
        let char_span = |span: Span| {
            let index = self
                .chars
                .as_ref()
                .expect("an index wherever there are spans");
            span_report(index.char_span(span), span)
        };
        ChunkReport {
            index: chunk.index,
            start: at.start,
            end: at.end,
            byte_start: at.byte_start,
            byte_end: at.byte_end,
            len: chunk.len,
            // A separator reads as its escaped label, any other cut as its word.
            cut_label: self
                .full
                .then(|| labelled.map_or_else(|| cut.to_string(), Separator::label)),
            cut,
            text: Cow::Borrowed(text),
            is_slice: fact.map(|f| f.text().is_none()).or(self
                .semantic
                .as_ref()
                .map(|_| group.is_none_or(|g| g.text.is_none()))),
            start_index: fact
                .and_then(|f| f.start_index)
                .or(group.map(|g| g.start_index as i64)),
            metadata: fact
                .and_then(|f| f.metadata().map(<[_]>::to_vec))
                .map(MetadataReport),
            overlap: chunk.overlap.map(char_span),
            cut_separator: cut_separator.filter(|_| self.full),
            node: chunk.node.filter(|_| self.full),
            heading_path: md.map(|m| {
                m.path
                    .iter()
                    .filter_map(|&h| self.headings.get(h).cloned())
                    .collect()
            }),
            prefix: md.and_then(|m| m.prefix.clone()),
            table_header: md.and_then(|m| m.table_header).map(char_span),
        }
    }
}

/// A chunk's metadata: written as a JSON object whose keys keep their order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetadataReport(pub Vec<(String, String)>);

impl Serialize for MetadataReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The raw text and separator index of a cut, and the separator whose
/// label names it when one does. An index outside the list (which the
/// engine never produces) and the `""` entry both read as a hard cut, since
/// that is what cutting without a separator is.
fn describe_cut(
    separators: &[Separator],
    cut: Cut,
) -> (Cow<'_, str>, Option<usize>, Option<&Separator>) {
    match cut {
        Cut::Separator(i) => match separators.get(i) {
            Some(
                sep @ Separator {
                    level: Some(level), ..
                },
            ) => (level.name().into(), Some(i), Some(sep)),
            Some(sep) if !sep.is_hard_cut() => (Cow::Borrowed(&sep.pattern), Some(i), Some(sep)),
            Some(_) => ("hard".into(), Some(i), None),
            None => ("hard".into(), None, None),
        },
        Cut::Hard => ("hard".into(), None, None),
        Cut::Window => ("window".into(), None, None),
        Cut::Breakpoint => ("breakpoint".into(), None, None),
        Cut::End => ("end".into(), None, None),
        Cut::Structure(level) => (level.name().into(), None, None),
    }
}

fn separator_ref(separators: &[Separator], index: usize) -> Option<SeparatorRef> {
    separators.get(index).map(|sep| SeparatorRef {
        index,
        pattern: sep.pattern.clone(),
        label: sep.label(),
        regex: sep.regex,
        level: sep.level.map(|l| l.name()),
    })
}

fn node_report(
    separators: &[Separator],
    chars: (usize, usize),
    id: usize,
    node: &Node,
) -> NodeReport {
    let at = span_report(chars, node.span);
    let (action, separator, split_into, windows, stride) = match node.action {
        Action::Fits => (ActionName::Fits, None, None, None, None),
        Action::Empty => (ActionName::Empty, None, None, None, None),
        Action::Split { separator, parts } => (
            ActionName::Split,
            separator_ref(separators, separator),
            Some(parts),
            None,
            None,
        ),
        Action::HardCut { separator, windows } => (
            ActionName::HardCut,
            separator.and_then(|i| separator_ref(separators, i)),
            None,
            Some(windows),
            None,
        ),
        Action::Windows { stride } => (ActionName::Windows, None, None, None, Some(stride)),
        Action::Structure { parts, .. } => (ActionName::Structure, None, Some(parts), None, None),
        Action::ChonkieLevel { parts, .. } => {
            (ActionName::ChonkieLevel, None, Some(parts), None, None)
        }
        Action::Sentences { parts } => (ActionName::Sentences, None, Some(parts), None, None),
    };
    let level = match node.action {
        Action::Structure { level, .. } => Some(level.name()),
        Action::ChonkieLevel { level, .. } => {
            Some(crate::trace::CHONKIE_LEVEL_NAMES[level].to_string())
        }
        _ => None,
    };
    NodeReport {
        id,
        depth: node.depth,
        parent: node.parent,
        children: node.children.clone(),
        start: at.start,
        end: at.end,
        byte_start: at.byte_start,
        byte_end: at.byte_end,
        len: node.len,
        too_big: node.too_big,
        action,
        separator,
        absent: node.absent.clone(),
        parts: node.parts.map(|(first, last)| PartsReport { first, last }),
        split_into,
        windows,
        stride,
        level,
        close: node.close.map(|close| match close {
            Close::NextWouldExceed {
                group_len,
                gap_len,
                next_len,
                would_be,
            } => CloseReport::NextWouldExceed {
                group_len,
                gap_len,
                next_len,
                would_be,
            },
            Close::ParentEnded => CloseReport::ParentEnded,
        }),
        chunk: node.chunk,
    }
}

fn check_report(check: &Check) -> CheckReport {
    CheckReport {
        ok: check.ok,
        detail: check.detail.clone(),
    }
}

fn checks_report(checks: &Checks) -> ChecksReport {
    ChecksReport {
        ok: checks.all_ok(),
        properties: checks
            .iter()
            .map(|(property, check)| (property, check_report(check)))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Splitter, Unit};
    use serde_json::{json, Value};

    const PAGE: &str = "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n\
                        COD orders get store credit.\n\nContact us 24x7.";

    fn seed_config() -> Config {
        Config::recursive(40).with_separators(["\n\n", "\n", ". ", " ", ""])
    }

    fn full(text: &str, config: &Config) -> Report {
        Splitter::new(config.clone(), &crate::Resources::new())
            .unwrap()
            .report(text, Detail::FULL.with_determinism(true))
            .unwrap()
    }

    #[test]
    fn refund_page_chunks_carry_char_offsets_and_raw_cuts() {
        let r = full(PAGE, &seed_config());
        let got: Vec<(&str, usize, usize, &str)> = r
            .chunks
            .iter()
            .map(|c| (&*c.text, c.start, c.end, &*c.cut))
            .collect();
        assert_eq!(
            got,
            [
                ("Refund policy", 0, 13, "\n\n"),
                ("Refunds take 5 days.", 15, 35, ". "),
                ("They go to the original UPI id.", 36, 67, "\n"),
                ("COD orders get store credit.", 68, 96, "\n\n"),
                ("Contact us 24x7.", 98, 114, "end"),
            ]
        );
        let seps: Vec<Option<usize>> = r.chunks.iter().map(|c| c.cut_separator).collect();
        assert_eq!(seps, [Some(0), Some(2), Some(1), Some(0), None]);
        assert_eq!(r.chunks[0].cut_label.as_deref(), Some("\\n\\n"));
        assert!(r.checks.as_ref().unwrap().ok);
    }

    #[test]
    fn refund_page_tree_matches_the_lesson_table() {
        let r = full(PAGE, &seed_config());
        let trace = r.trace.unwrap();
        let root = &trace.nodes[0];
        assert_eq!(
            (root.action, root.len, root.too_big),
            (ActionName::Split, 114, true)
        );
        let sep = root.separator.as_ref().unwrap();
        assert_eq!(
            (sep.index, sep.pattern.as_str(), sep.label.as_str()),
            (0, "\n\n", "\\n\\n")
        );
        assert_eq!(root.split_into, Some(3));
        let middle = &trace.nodes[root.children[1]];
        assert_eq!((middle.len, middle.too_big, middle.depth), (81, true, 2));
        assert_eq!(middle.separator.as_ref().unwrap().pattern, "\n");
        let line = &trace.nodes[middle.children[0]];
        assert_eq!((line.len, line.too_big), (52, true));
        assert_eq!(line.separator.as_ref().unwrap().pattern, ". ");
        let sentences: Vec<usize> = line.children.iter().map(|&c| trace.nodes[c].len).collect();
        assert_eq!(sentences, [20, 31]);
        assert_eq!(
            trace.nodes[line.children[0]].close,
            Some(CloseReport::NextWouldExceed {
                group_len: 21,
                gap_len: 0,
                next_len: 31,
                would_be: 52
            })
        );
        assert!(trace.nodes.iter().all(|n| n.action != ActionName::HardCut));
        // Level 3 split the line; its two sentences sit at depth 4.
        assert_eq!(trace.depth, 4);
    }

    #[test]
    fn chunks_detail_is_exactly_the_cli_contract() {
        let splitter = Splitter::new(seed_config(), &crate::Resources::new()).unwrap();
        let r = splitter.report(PAGE, Detail::CHUNKS).unwrap();
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v.as_object().unwrap().len(), 1, "{v}");
        assert_eq!(
            v["chunks"][0],
            json!({"index":0,"start":0,"end":13,"byte_start":0,"byte_end":13,"len":13,
                   "cut":"\n\n","text":"Refund policy"})
        );
    }

    #[test]
    fn full_report_serializes_trace_checks_and_a_replayable_config() {
        let v = serde_json::to_value(full(PAGE, &seed_config())).unwrap();
        let root = &v["trace"]["nodes"][0];
        assert_eq!(root["action"], "split");
        assert_eq!(root["parent"], Value::Null);
        assert_eq!(root["separator"]["label"], "\\n\\n");
        // Packing measures parts before trimming: "Refund policy\n\n" is 15 and
        // the middle paragraph with its blank line 83.
        let second = &v["trace"]["nodes"][1];
        assert_eq!(second["parts"], json!({"first":0,"last":1}));
        assert_eq!(
            second["close"],
            json!({"kind":"next_would_exceed","group_len":15,"gap_len":0,"next_len":83,"would_be":98})
        );
        let last = v["trace"]["nodes"]
            .as_array()
            .unwrap()
            .last()
            .unwrap()
            .clone();
        assert_eq!(last["close"], json!({"kind":"parent_ended"}));
        assert_eq!(last["chunk"], 4);
        assert_eq!(v["checks"]["coverage"]["ok"], true);
        assert_eq!(v["checks"]["ok"], true);
        assert_eq!(
            v["config"],
            json!({"strategy":"recursive","size":40,"overlap":0,"unit":"chars",
                   "separators":[{"pattern":"\n\n","regex":false},{"pattern":"\n","regex":false},
                                 {"pattern":". ","regex":false},{"pattern":" ","regex":false},
                                 {"pattern":"","regex":false}],
                   "placement":"end","trim":true})
        );
    }

    #[test]
    fn fixed_windows_cut_as_window_then_end_with_overlap() {
        let r = full("abcdefghij", &Config::fixed(4, 1));
        let got: Vec<(&str, &str)> = r.chunks.iter().map(|c| (&*c.text, &*c.cut)).collect();
        assert_eq!(
            got,
            [("abcd", "window"), ("defg", "window"), ("ghij", "end")]
        );
        assert_eq!(r.chunks[0].overlap, None);
        assert_eq!(
            r.chunks[1].overlap,
            Some(SpanReport {
                start: 3,
                end: 4,
                byte_start: 3,
                byte_end: 4
            })
        );
        let root = &r.trace.unwrap().nodes[0];
        assert_eq!((root.action, root.stride), (ActionName::Windows, Some(3)));
        assert!(root.separator.is_none());
    }

    #[test]
    fn multibyte_text_has_char_offsets_apart_from_byte_offsets() {
        let text = "héllo wörld 😀 ok";
        let config = Config::recursive(6).with_separators([" ", ""]);
        let r = full(text, &config);
        for c in &r.chunks {
            assert_eq!(&text[c.byte_start..c.byte_end], c.text);
            let by_chars: String = text.chars().skip(c.start).take(c.end - c.start).collect();
            assert_eq!(by_chars, c.text);
        }
        let world = r.chunks.iter().find(|c| c.text == "wörld").unwrap();
        assert_eq!((world.start, world.end), (6, 11));
        assert_eq!((world.byte_start, world.byte_end), (7, 13));
    }

    #[test]
    fn hard_cuts_name_the_empty_entry_or_nothing() {
        let config = Config::recursive(4).with_separators([" ", ""]);
        let r = full("abcdefgh", &config);
        assert_eq!(r.chunks[0].cut, "hard");
        assert_eq!(r.chunks[0].cut_separator, None);
        let root = &r.trace.as_ref().unwrap().nodes[0];
        assert_eq!(root.action, ActionName::HardCut);
        assert_eq!(root.absent, [0]);
        assert_eq!(root.windows, Some(2));
        assert_eq!(root.separator.as_ref().unwrap().label, "\"\"");

        let no_hard = Config::recursive(4).with_separators([" "]);
        let r = full("abcdefgh", &no_hard);
        let root = &r.trace.unwrap().nodes[0];
        assert_eq!(
            (root.action, root.separator.is_none()),
            (ActionName::HardCut, true)
        );
    }

    #[test]
    fn byte_unit_lengths_and_failed_checks_are_reported() {
        let config = Config::recursive(8)
            .with_unit(Unit::Bytes)
            .with_separators([". "])
            .with_placement(crate::Placement::None);
        let r = full("Ça va. Très bien.", &config);
        assert!(r.chunks.iter().all(|c| c.len == c.text.len()));
        let checks = r.checks.unwrap();
        // Placement "none" drops the full stop between the sentences.
        assert!(
            !checks.get(Property::Coverage).unwrap().ok,
            "{}",
            checks.get(Property::Coverage).unwrap().detail
        );
        assert!(!checks.ok);
        assert_eq!(r.config.unwrap().unit, Some(crate::Unit::Bytes));
    }

    #[test]
    fn empty_text_gives_an_empty_report() {
        let r = full("", &seed_config());
        assert!(r.chunks.is_empty());
        assert_eq!(r.trace, Some(TraceReport::default()));
    }

    #[test]
    fn determinism_is_reported_only_when_asked_for() {
        let splitter = Splitter::new(seed_config(), &crate::Resources::new()).unwrap();
        let v = serde_json::to_value(splitter.report(PAGE, Detail::FULL).unwrap()).unwrap();
        let mut names: Vec<&String> = v["checks"].as_object().unwrap().keys().collect();
        names.sort();
        assert_eq!(names, ["coverage", "max_size", "ok", "order", "overlap"]);
        let v = serde_json::to_value(full(PAGE, &seed_config())).unwrap();
        assert_eq!(v["checks"]["determinism"]["ok"], true);
    }

    fn langchain(strategy: crate::Strategy, size: usize, overlap: usize) -> Config {
        Config {
            strategy: strategy.into(),
            placement: strategy.default_placement(),
            ..Config::recursive(size).with_overlap(overlap)
        }
    }

    #[test]
    fn langchain_chunks_carry_its_text_start_index_and_warnings() {
        // The second "ab" starts at char 3, but LangChain's find lands on 0.
        let config = langchain(crate::Strategy::LangChain, 4, 2).with_separators([" "]);
        let r = full("ab ab", &config);
        let got: Vec<_> = r
            .chunks
            .iter()
            .map(|c| (&*c.text, c.start, c.start_index, c.is_slice))
            .collect();
        assert_eq!(
            got,
            [
                ("ab", 0, Some(0), Some(true)),
                ("ab", 3, Some(0), Some(true))
            ]
        );
        let lc = r.langchain.unwrap();
        assert_eq!(lc.class, "RecursiveCharacterTextSplitter");
        assert!(lc.python.contains("chunk_overlap=2"));

        // keep_separator=False with a regex: the pattern is put back as text.
        let config = Config {
            placement: crate::Placement::None,
            ..langchain(crate::Strategy::LangChain, 20, 0)
                .with_separators([crate::Separator::regex(r"\s+")])
        };
        let r = full("one  two", &config);
        assert_eq!(r.chunks[0].text, r"one\s+two");
        assert_eq!(r.chunks[0].is_slice, Some(false));
        assert_eq!((r.chunks[0].start, r.chunks[0].end), (0, 8));

        // CharacterTextSplitter passes an oversized piece through, and says so.
        let config = langchain(crate::Strategy::LangChainCharacter, 5, 0).with_separators([" "]);
        let r = full("abcdefgh ij", &config);
        let texts: Vec<&str> = r.chunks.iter().map(|c| &*c.text).collect();
        assert_eq!(texts, ["abcdefgh", "ij"]);
        let lc = r.langchain.unwrap();
        assert_eq!(
            lc.warnings,
            ["Created a chunk of size 8, which is longer than the specified 5"]
        );
        assert!(!r.checks.unwrap().get(Property::MaxSize).unwrap().ok);
    }

    #[test]
    fn langchain_cuts_name_the_separators_it_really_used() {
        // No separators: LangChain's default list, and the cut is its "\n\n".
        let config =
            langchain(crate::Strategy::LangChain, 6, 0).with_separators(Vec::<String>::new());
        let r = full("aaaa\n\nbbbb", &config);
        assert_eq!(r.chunks[0].cut, "\n\n");
        assert_eq!(r.chunks[0].cut_separator, Some(0));
        assert_eq!(r.chunks[1].text, "\n\nbbbb".trim());
        let specs = r.langchain.unwrap().separators;
        assert_eq!(specs.len(), 4);
        // The plain report carries the LangChain fields too.
        let plain = Splitter::new(config, &crate::Resources::new())
            .unwrap()
            .report("aaaa\n\nbbbb", Detail::CHUNKS)
            .unwrap();
        assert_eq!(plain.chunks[1].start_index, Some(6));
        assert!(plain.langchain.is_none());
    }

    #[test]
    fn sentence_strategies_list_the_sentences_and_the_doubted_stops() {
        let text = "Dr. Smith left. Then 3.14 rained. 他说。";
        let config = Config {
            size: 20,
            ..Config::for_strategy(crate::Strategy::Sentence)
        };
        let json = serde_json::to_value(full(text, &config)).unwrap();
        assert_eq!(
            json["sentences"],
            json!([
                {"start": 0, "end": 16, "byte_start": 0, "byte_end": 16},
                {"start": 16, "end": 34, "byte_start": 16, "byte_end": 34},
                {"start": 34, "end": 37, "byte_start": 34, "byte_end": 43},
            ])
        );
        assert_eq!(
            json["sentence_candidates"],
            json!([
                {"at": 4, "byte_at": 4, "stop": {"start": 2, "end": 3, "byte_start": 2, "byte_end": 3},
                 "end": false, "reason": "abbreviation", "why": "not a sentence end: abbreviation", "refinement": true},
                {"at": 23, "byte_at": 23, "stop": {"start": 22, "end": 23, "byte_start": 22, "byte_end": 23},
                 "end": false, "reason": "number", "why": "not a sentence end: decimal or version number", "refinement": false},
            ])
        );
        let cuts: Vec<&Value> = json["chunks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| &c["cut"])
            .collect();
        assert_eq!(
            cuts,
            [&json!("sentence"), &json!("sentence"), &json!("end")]
        );
        assert_eq!(json["chunks"][0]["cut_label"], json!("\\p{sentence}"));
        assert_eq!(json["chunks"][0]["cut_separator"], json!(0));
        assert_eq!(
            json["trace"]["nodes"][0]["separator"],
            json!({"index": 0, "pattern": "", "label": "\\p{sentence}", "regex": false, "level": "sentence"})
        );
        assert_eq!(
            json["config"]["separators"],
            json!([
                {"pattern": "", "regex": false, "level": "sentence"},
                {"pattern": " ", "regex": false},
                {"pattern": "", "regex": false},
            ])
        );
        assert_eq!(json["config"]["strategy"], json!("sentence"));
        // Without the sentence level, or without a trace, neither field.
        let plain = serde_json::to_value(full(text, &Config::recursive(20))).unwrap();
        assert!(plain.get("sentences").is_none() && plain.get("sentence_candidates").is_none());
    }
}
