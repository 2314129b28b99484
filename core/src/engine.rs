//! What every engine is: the [`Engine`] trait, and the bookkeeping our own
//! engines share ([`Run`]: emitting chunks, recording nodes, and the cut
//! between consecutive chunks).

use crate::config::Config;
use crate::error::Error;
use crate::separator::{Matcher, Separator};
use crate::span::Span;
use crate::trace::{
    Action, Chunk, Cut, LibraryFact, MarkdownFacts, Node, NodeId, Output, Recorder,
};
use crate::unit::{CharTable, Counter, Lead, Measure, Unit};
use std::fmt;

/// One split in progress.
pub(crate) struct Run<'a> {
    pub source: &'a str,
    pub config: &'a Config,
    pub matchers: &'a [Matcher],
    /// The whitespace after each sentence, for the sentence level (empty
    /// when the list has none).
    pub gaps: &'a [Span],
    pub chunks: Vec<Chunk>,
    pub tree: Recorder,
    /// Counts in the configured unit.
    pub counter: Counter,
    /// Lengths of spans of `source` in the configured unit.
    pub measure: Measure<'a>,
    /// The cut that ends the previous chunk once another chunk is emitted. Engines
    /// set it at each boundary they make; the deepest boundary set last wins, which
    /// is exactly the separator of the deepest split between the two chunks.
    pub pending: Cut,
    /// What every chunk made now will be embedded behind (a section's heading
    /// prefix), whose room the limits already leave: chunks are sized by
    /// what they add after it ([`Run::len_after_lead`]).
    pub lead: Option<Lead>,
    /// What the library says of each chunk beyond its span, for an engine
    /// whose library's text is not always a slice ([`Output::library`]).
    pub library: Option<Vec<LibraryFact>>,
    /// The list the chunks' [`Cut::Separator`]s index, for an engine whose
    /// delimiters are its library's rather than the configuration's
    /// ([`Output::separators`]).
    pub separators: Option<Vec<Separator>>,
}

impl<'a> Run<'a> {
    pub fn new(
        source: &'a str,
        config: &'a Config,
        counter: Counter,
        matchers: &'a [Matcher],
        gaps: &'a [Span],
        record: bool,
    ) -> Self {
        // About one chunk per `size` bytes (exact for full ASCII chunks), and
        // about two nodes per chunk. Reserving it saves most of the copying a
        // growing vector does; the cap keeps a tiny size on a huge text (or
        // text that is mostly whitespace) from reserving memory it never uses.
        const CAP: usize = 1 << 16;
        let chunks = (source.len() / config.size.max(1))
            .saturating_add(1)
            .min(CAP);
        Run {
            source,
            config,
            matchers,
            gaps,
            chunks: Vec::with_capacity(chunks),
            tree: Recorder::new(record, 2 * chunks),
            counter,
            measure: Measure::new(counter, source),
            pending: Cut::End,
            lead: None,
            library: None,
            separators: None,
        }
    }

    /// Appends a chunk. The previous chunk's cut becomes [`Run::pending`].
    pub fn emit(&mut self, span: Span, len: usize, node: Option<NodeId>) {
        let index = Chunk::push_next(&mut self.chunks, self.pending, span, len, node);
        self.tree.with_node(node, |n| {
            if n.action == Action::Fits {
                n.chunk = Some(index);
            }
        });
    }

    /// How many units `span` (`own` units alone) adds after the lead: what
    /// limits are compared with. `own` unless tokenizing runs on from the
    /// lead into the span (see [`Lead`]).
    pub fn len_after_lead(&self, span: Span, own: usize) -> usize {
        match &self.lead {
            None => own,
            lead => self
                .counter
                .len_after(lead.as_ref(), span.text(self.source), own),
        }
    }

    /// Records a node when tracing; returns its id.
    pub fn node(&mut self, node: Node) -> Option<NodeId> {
        self.tree.node(node)
    }

    /// Mutable access to a recorded node.
    pub fn with_node(&mut self, id: Option<NodeId>, f: impl FnOnce(&mut Node)) {
        self.tree.with_node(id, f)
    }

    /// The error for a character that no chunk of `room` units can hold
    /// (bytes or tokens). A room below the size is what a heading prefix
    /// leaves, and the message names it.
    pub fn char_too_big(&self, at_byte: usize, room: usize) -> Error {
        let ch = self.source[at_byte..].chars().next().unwrap_or('\0');
        if room < self.config.size {
            let span = Span::new(at_byte, at_byte + ch.len_utf8());
            return Error::CharTooBigAfterPrefix {
                ch,
                at: self.source[..at_byte].chars().count(),
                len: self.len_after_lead(span, self.counter.len(span.text(self.source))),
                unit: self.config.unit.words(),
                room,
                size: self.config.size,
                table: self.lead.as_ref().is_some_and(|l| l.table),
            };
        }
        if let Unit::Tokens(_) = self.config.unit {
            return Error::CharTooManyTokens {
                ch,
                at: self.source[..at_byte].chars().count(),
                tokens: self.counter.len(ch.encode_utf8(&mut [0; 4])),
                size: self.config.size,
            };
        }
        Error::CharTooBig {
            ch,
            at: self.source[..at_byte].chars().count(),
            bytes: ch.len_utf8(),
            size: self.config.size,
        }
    }
}

/// A configuration compiled for one strategy.
///
/// Invariant: `split` never fails for a reason [`Config::validate`] could have
/// found; its errors are about the text (a character no chunk can hold, a
/// regex LangChain refuses when it is reached).
pub(crate) trait Engine: fmt::Debug + Send + Sync {
    /// Splits `text` under `config` (the one this engine was built from),
    /// counting with `counter`, recording the trace when `record`.
    fn split(
        &self,
        text: &str,
        config: &Config,
        counter: Counter,
        record: bool,
    ) -> Result<EngineOutput, Error>;

    /// A copy behind a new box, so a [`Splitter`](crate::Splitter) can be cloned.
    fn boxed(&self) -> Box<dyn Engine>;
}

/// What an engine gives: the output, and the table of the text's
/// continuation bytes when the engine built one to count chars, from which
/// the chunks' char offsets are read rather than counted again.
pub(crate) struct EngineOutput {
    pub output: Output,
    pub chars: Option<CharTable>,
}

impl From<Output> for EngineOutput {
    fn from(output: Output) -> EngineOutput {
        EngineOutput {
            output,
            chars: None,
        }
    }
}

/// The sentences of `text` and the gaps between them, found once per split
/// before any piece needs them, when a separator list has the sentence level;
/// the judgments on doubtful stops only for a trace (`record`).
pub(crate) fn sentences_for(
    matchers: &[Matcher],
    text: &str,
    record: bool,
) -> (Option<crate::sentence::Sentences>, Vec<crate::Span>) {
    let sentences = matchers
        .iter()
        .any(|m| matches!(m, Matcher::Sentence))
        .then(|| crate::sentence::segment(text, record));
    let gaps = sentences
        .as_ref()
        .map(|s| crate::sentence::gaps(text, &s.spans))
        .unwrap_or_default();
    (sentences.filter(|_| record), gaps)
}

/// Runs one of our separator engines over `text`: the sentences its list
/// needs, a [`Run`], `split`, and the output with what `split` adds beside
/// the chunks (the Markdown strategy's facts). The fixed, recursive, sentence
/// and Markdown strategies all go through here, so a run is set up and
/// finished one way.
pub(crate) fn run_ours(
    matchers: &[Matcher],
    text: &str,
    config: &Config,
    counter: Counter,
    record: bool,
    split: impl FnOnce(&mut Run<'_>) -> Result<Option<MarkdownFacts>, Error>,
) -> Result<EngineOutput, Error> {
    let (sentences, gaps) = sentences_for(matchers, text, record);
    let mut run = Run::new(text, config, counter, matchers, &gaps, record);
    let markdown = split(&mut run)?;
    let output = Output {
        chunks: run.chunks,
        trace: run.tree.finish(),
        library: run.library,
        langchain: None,
        markdown,
        sentences,
        separators: run.separators,
    };
    Ok(EngineOutput {
        output,
        chars: run.measure.into_char_table(),
    })
}

/// The delimiters of `all` that cut some chunk, in `all`'s order, with each
/// chunk's [`Cut::Separator`] renumbered from an index into `all` to one
/// into them: a legend of delimiters that cut nowhere would say nothing
/// (Chonkie's lists hold 46, LlamaIndex's header markers any run of `#`).
pub(crate) fn used_separators(chunks: &mut [Chunk], all: &[Separator]) -> Vec<Separator> {
    let mut used: Vec<usize> = chunks
        .iter()
        .filter_map(|c| match c.cut {
            Cut::Separator(i) => Some(i),
            _ => None,
        })
        .collect();
    used.sort_unstable();
    used.dedup();
    for chunk in chunks {
        if let Cut::Separator(i) = chunk.cut {
            chunk.cut = Cut::Separator(used.binary_search(&i).expect("a used delimiter"));
        }
    }
    used.into_iter().map(|i| all[i].clone()).collect()
}

impl Clone for Box<dyn Engine> {
    fn clone(&self) -> Self {
        self.boxed()
    }
}
