//! Exact, traced text splitting for retrieval (RAG).
//!
//! `chunkscope` splits a document into chunks the way the two classic strategies
//! do — **fixed windows** and **recursive separators** — and records *why* every
//! chunk starts and ends where it does, so that a person can see it.
//!
//! # The model
//!
//! - A [`Span`] is a half-open byte range into the source. A chunk's text is
//!   always `&source[span]`; nothing is ever rebuilt by joining strings, so offsets
//!   cannot drift.
//! - A [`Unit`] is what `size` and `overlap` count (chars or bytes).
//! - A [`Separator`] is a literal, a regex, or `""` (the hard cut). Its index in
//!   the list is its priority.
//! - A [`Placement`] says which chunk keeps the separator at a cut.
//! - The [`Trace`] is the recursion tree: every piece, the separators tried and
//!   found absent, the one that split it, which pieces were too big, how they
//!   were packed, and the [`Cut`] that ends each chunk.
//!
//! # Example: the refund page
//!
//! ```
//! use chunkscope::{split, Config, Cut, Resources};
//!
//! let page = "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n\
//!             COD orders get store credit.\n\nContact us 24x7.";
//! let config = Config::recursive(40).with_separators(["\n\n", "\n", ". ", " ", ""]);
//! // Chars need no tokenizer and no model: empty resources will do.
//! let out = split(page, &config, &Resources::new())?;
//!
//! let texts: Vec<&str> = out.chunks.iter().map(|c| c.text(page)).collect();
//! assert_eq!(texts, [
//!     "Refund policy",
//!     "Refunds take 5 days.",
//!     "They go to the original UPI id.",
//!     "COD orders get store credit.",
//!     "Contact us 24x7.",
//! ]);
//! // The first cut is the blank line (separator 0), the second the sentence end.
//! assert_eq!(out.chunks[0].cut, Cut::Separator(0));
//! assert_eq!(out.chunks[1].cut, Cut::Separator(2));
//! // The middle paragraph (81 chars) was too big, so `\n` split it.
//! let middle = &out.trace.nodes[out.trace.nodes[0].children[1]];
//! assert_eq!((middle.len, middle.too_big), (81, true));
//! # Ok::<(), chunkscope::Error>(())
//! ```
//!
//! # Example: fixed windows
//!
//! ```
//! use chunkscope::{split, Config, Resources};
//!
//! let out = split("abcdefghij", &Config::fixed(4, 1), &Resources::new())?;
//! let texts: Vec<&str> = out.chunks.iter().map(|c| c.text("abcdefghij")).collect();
//! assert_eq!(texts, ["abcd", "defg", "ghij"]); // no overlap-only "j" tail
//! # Ok::<(), chunkscope::Error>(())
//! ```
//!
//! # Guarantees
//!
//! No input and no configuration panics or loops. A configuration that could not
//! make progress (size 0, overlap ≥ size, no separators, a bad regex) is an
//! [`Error`] with a message that says what to change. With trimming on and a
//! placement that keeps separators, every non-whitespace character is in a chunk,
//! and no chunk is longer than `size`; [`check()`] verifies both, and more, on any
//! output.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod analysis;
mod check;
pub mod chonkie;
pub mod chonkie_sentence;
pub mod chonkie_token;
mod compile;
mod config;
mod embed;
mod engine;
mod error;
pub mod export;
mod fixed;
pub mod langchain;
pub mod llamaindex;
pub mod markdown;
pub mod presets;
mod recursive;
#[cfg(feature = "serde")]
pub mod report;
mod resources;
pub mod semantic;
pub mod semchunk;
pub mod sentence;
mod separator;
mod span;
pub mod stats;
mod strategy;
pub mod text_splitter;
mod trace;
pub mod typescript;
mod unit;

/// The cl100k/o200k tokenizer token units count with (crate `chunkscope-tokens`).
pub use chunkscope_tokens as tokens;

pub use analysis::{Analysis, Detail};
pub use check::{check, Check, Checks, Property};
pub use config::settings::{SemanticSettings, Settings, SettingsError, StrategySetting};
pub use config::{ChonkieConfig, Config, HeaderSplitConfig, MarkdownConfig, StrategyConfig};
pub use error::{Error, Setting};
pub use resources::Resources;
pub use separator::{escape, unescape, Placement, Separator, SeparatorLevel};
pub use span::{is_space, trim, CharCursor, CharIndex, Span};
pub use strategy::{Strategy, TableHeader};
pub use trace::{
    Action, Chunk, Close, Cut, Heading, LangChainFacts, Level, LibraryFact, MarkdownChunk,
    MarkdownFacts, Node, NodeId, NotSlice, Output, Trace, TraceEvent,
};
pub use unit::{Counter, Unit};

use engine::Engine;

/// A configuration checked and compiled once, for splitting many texts.
#[derive(Clone, Debug)]
pub struct Splitter {
    config: Config,
    engine: Box<dyn Engine>,
    counter: Counter,
}

impl Splitter {
    /// Checks and compiles `config` (regexes are compiled here) and resolves
    /// the names it gives in `resources`: a token unit's tokenizer (or
    /// [`Error::TokenizerNotLoaded`]) and the semantic strategy's embedder
    /// (or [`SemanticError::NoEmbedder`](semantic::SemanticError::NoEmbedder)).
    /// The splitter keeps what it resolved; `resources` can go.
    pub fn new(config: Config, resources: &Resources) -> Result<Splitter, Error> {
        let engine = config.compile(Some(resources))?;
        // Last, so every mistake in the settings is reported first.
        let counter = config.kind().counter(&config, resources)?;
        Ok(Splitter {
            config,
            engine,
            counter,
        })
    }

    /// Like [`Splitter::new`], counting with `counter` (for instance a
    /// tokenizer built from a file with [`tokens::Tokenizer::from_data`]),
    /// whose unit replaces the configuration's.
    pub fn with_counter(
        config: Config,
        counter: Counter,
        resources: &Resources,
    ) -> Result<Splitter, Error> {
        let config = config.with_unit(counter.unit());
        let engine = config.compile(Some(resources))?;
        Ok(Splitter {
            config,
            engine,
            counter,
        })
    }

    /// What lengths are counted with.
    pub fn counter(&self) -> Counter {
        self.counter
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Splits `text` and records the trace.
    pub fn split(&self, text: &str) -> Result<Output, Error> {
        self.run(text, true)
    }

    /// Splits `text` without recording a trace (faster; `Chunk::node` is `None`).
    pub fn chunks(&self, text: &str) -> Result<Vec<Chunk>, Error> {
        self.run(text, false).map(|o| o.chunks)
    }

    /// Splits `text` without recording a trace, keeping the rest of the
    /// output (a LangChain strategy's texts and start indices).
    pub fn split_untraced(&self, text: &str) -> Result<Output, Error> {
        self.run(text, false)
    }

    /// Splits `text` and records what `detail` asks for: the one entry the
    /// CLI, the JS API and the page all use.
    ///
    /// ```
    /// use chunkscope::{Config, Detail, Property, Resources, Splitter};
    /// let splitter = Splitter::new(Config::fixed(4, 1), &Resources::new())?;
    /// let analysis = splitter.analyze("abcdefghij", Detail::FULL)?;
    /// assert_eq!(analysis.chunk_chars, [(0, 4), (3, 7), (6, 10)]);
    /// let checks = analysis.checks.unwrap();
    /// assert!(checks.all_ok());
    /// // The determinism re-run is opt-in.
    /// assert!(checks.get(Property::Determinism).is_none());
    /// # Ok::<(), chunkscope::Error>(())
    /// ```
    pub fn analyze(&self, text: &str, detail: Detail) -> Result<Analysis, Error> {
        let engine::EngineOutput { output, chars } =
            self.engine
                .split(text, &self.config, self.counter, detail.trace)?;
        let checks = if detail.checks {
            let checks = check::check_with(text, &self.config, self.counter, &output);
            Some(if detail.determinism {
                checks.with_again(&output, &self.run(text, detail.trace)?)
            } else {
                checks
            })
        } else {
            None
        };
        let token_ends = match self.counter.tokenizer() {
            Some(t) if detail.tokens => Some(
                output
                    .chunks
                    .iter()
                    .map(|c| t.token_ends(c.text(text)))
                    .collect(),
            ),
            _ => None,
        };
        let separators = output.cut_separators(&self.config.separators);
        Ok(Analysis::new(
            text, chars, separators, output, checks, token_ends,
        ))
    }

    /// Analyses `text` at `detail` and reports it: the one path from a text
    /// to the JSON the CLI prints and the JS API returns.
    #[cfg(feature = "serde")]
    pub fn report(&self, text: &str, detail: Detail) -> Result<report::Report, Error> {
        let analysis = self.analyze(text, detail)?;
        Ok(report::Report::new(text, &self.config, &analysis, detail))
    }

    fn run(&self, text: &str, record: bool) -> Result<Output, Error> {
        Ok(self
            .engine
            .split(text, &self.config, self.counter, record)?
            .output)
    }
}

/// Splits `text` under `config`, recording the trace, with the names it
/// gives resolved in `resources`.
pub fn split(text: &str, config: &Config, resources: &Resources) -> Result<Output, Error> {
    Splitter::new(config.clone(), resources)?.split(text)
}

/// The README's example, compiled and run as a doctest so it cannot go stale.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
