//! How a strategy plugs into the engine.
//!
//! A strategy is two things: a [`Strategy`] value (its name, defaults and
//! which LangChain class it reproduces, if any: plain data the CLI, the JS API
//! and the page list and parse) and an [`Engine`] (the configuration compiled
//! for it, ready to split any number of texts). [`Splitter`](crate::Splitter)
//! holds the engine and calls it; checks, reports and views read only the
//! [`Output`] it returns.
//!
//! Adding a strategy touches this file (a variant, its name, its engine in
//! [`Strategy::engine`]), the strategy's own module, and the views that draw
//! what is new in its output. Nothing else matches on strategies.

use crate::config::{Config, Placement};
use crate::engine::Run;
use crate::error::Error;
use crate::langchain::{Kind, LangChainConfig, MarkdownHeaderConfig, MarkdownRecipe};
use crate::semantic::SemanticEngine;
use crate::separator::{Matcher, SeparatorLevel};
use crate::trace::Output;
use crate::unit::{CharTable, Counter};
use crate::{fixed, langchain, markdown, recursive};
use std::fmt;
use std::str::FromStr;

/// Which engine splits the text. More are coming (every lesson's strategy),
/// so outside this crate a `match` needs a `_` arm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Strategy {
    /// Windows of `size` units every `size − overlap` units, stopping once a window
    /// reaches the end (so there is no overlap-only tail).
    Fixed,
    /// Split on the first separator present, pack the pieces greedily up to `size`,
    /// and split what is still too big with the separators after it.
    #[default]
    Recursive,
    /// LangChain's `RecursiveCharacterTextSplitter`, reproduced exactly, quirks
    /// included: lengths measured before stripping, a piece of exactly `size`
    /// split again, oversized pieces passed through. See [`crate::langchain`].
    LangChain,
    /// LangChain's `CharacterTextSplitter`: one separator (the first), then
    /// merging; pieces that are too big stay too big.
    LangChainCharacter,
    /// LangChain's `MarkdownHeaderTextSplitter`: a section per header, the
    /// enclosing headers as metadata, no size limit. The separators are the
    /// header markers (`#`, `##`, …); placement none strips header lines,
    /// start keeps them. See [`crate::langchain::MarkdownHeaderConfig`].
    LangChainMarkdown,
    /// Markdown by its structure: sections by heading depth, then blocks
    /// (packed, never across a section), then table rows or fence lines of a
    /// block that alone is over the size, then the separators. Every chunk
    /// has a heading path. See [`crate::markdown`].
    Markdown,
    /// Pack whole sentences ([`crate::sentence`]) up to `size`; only a
    /// sentence longer than `size` is cut, by the separators after the
    /// sentence level (`" "`, then the hard cut, by default). The recursive
    /// engine with a list that starts with the sentence level.
    Sentence,
    /// LangChain's `SemanticChunker`: sentences, embedded in groups, cut
    /// where neighbouring groups are far apart; exact given the same vectors,
    /// with the size limit kept by splitting a chunk that is too long with
    /// the recursive engine. See [`crate::semantic`].
    Semantic,
}

impl Strategy {
    /// Every strategy, in the order the UI lists them.
    pub const ALL: [Strategy; 8] = [
        Strategy::Fixed,
        Strategy::Recursive,
        Strategy::Sentence,
        Strategy::Markdown,
        Strategy::LangChain,
        Strategy::LangChainCharacter,
        Strategy::LangChainMarkdown,
        Strategy::Semantic,
    ];

    /// The name used in the CLI, the JS API and the UI.
    pub const fn name(self) -> &'static str {
        match self {
            Strategy::Fixed => "fixed",
            Strategy::Recursive => "recursive",
            Strategy::LangChain => "langchain",
            Strategy::LangChainCharacter => "langchain-character",
            Strategy::LangChainMarkdown => "langchain-markdown",
            Strategy::Markdown => "markdown",
            Strategy::Sentence => "sentence",
            Strategy::Semantic => "semantic",
        }
    }

    /// Which LangChain class this strategy reproduces, if it is one.
    pub const fn langchain(self) -> Option<Kind> {
        match self {
            Strategy::LangChain => Some(Kind::Recursive),
            Strategy::LangChainCharacter => Some(Kind::Character),
            _ => None,
        }
    }

    /// The placement a strategy starts with: LangChain's own defaults
    /// (`keep_separator=True` for the recursive class, `False` for the
    /// character one), and the lessons' `p + sep` for ours.
    pub const fn default_placement(self) -> Placement {
        match self {
            Strategy::LangChain => Placement::Start,
            Strategy::LangChainCharacter | Strategy::LangChainMarkdown => Placement::None,
            _ => Placement::End,
        }
    }

    /// Whether the separator list holds header markers (`#`, `##`, …)
    /// rather than patterns to cut at, so a UI keeps a list of each kind.
    pub const fn separators_are_header_markers(self) -> bool {
        matches!(self, Strategy::LangChainMarkdown)
    }

    /// Whether the separator list is read: a fixed window never looks at it,
    /// so the UI can grey it out.
    pub const fn uses_separators(self) -> bool {
        !matches!(self, Strategy::Fixed)
    }

    /// Whether a chunk can repeat the end of the one before. Semantic chunks
    /// never do (`SemanticChunker` has no overlap, and the engine refuses one),
    /// so a UI that keeps one overlap for every strategy leaves it out there
    /// rather than refuse the split.
    pub const fn uses_overlap(self) -> bool {
        !matches!(self, Strategy::Semantic)
    }

    /// The LangChain class this strategy runs and Python code that builds it
    /// from `config` and splits `text` the same way; `None` for our own
    /// strategies and for a configuration LangChain's class cannot take.
    pub fn langchain_python(self, config: &Config) -> Option<(&'static str, String)> {
        match self {
            Strategy::LangChainMarkdown => match MarkdownRecipe::from_config(config).ok()? {
                Some(recipe) => Some(("MarkdownHeaderTextSplitter", recipe.to_python())),
                None => Some((
                    "MarkdownHeaderTextSplitter",
                    MarkdownHeaderConfig::from_config(config).ok()?.to_python(),
                )),
            },
            _ => {
                let kind = self.langchain()?;
                let python = LangChainConfig::from_config(kind, config).ok()?.to_python();
                Some((kind.class_name(), python))
            }
        }
    }

    /// Builds the engine for a configuration whose size and overlap are
    /// already checked ([`Config::compile`] does that first).
    pub(crate) fn engine(self, config: &Config) -> Result<Box<dyn Engine>, Error> {
        Ok(match self {
            Strategy::Fixed => Box::new(Native {
                matchers: Vec::new(),
                split: fixed::split,
            }),
            Strategy::Recursive => Box::new(Native {
                matchers: config.matchers()?,
                split: recursive::split,
            }),
            Strategy::Markdown => Box::new(markdown::Markdown {
                matchers: config.matchers()?,
            }),
            Strategy::Sentence => {
                if config.separators.first().map(|s| s.level)
                    != Some(Some(SeparatorLevel::Sentence))
                {
                    return Err(Error::SentenceLevel {
                        index: 0,
                        strategy: self,
                    });
                }
                Box::new(Native {
                    matchers: config.matchers()?,
                    split: recursive::split,
                })
            }
            Strategy::LangChain | Strategy::LangChainCharacter => {
                if let Some(index) = config.separators.iter().position(|s| s.level.is_some()) {
                    return Err(Error::SentenceLevel {
                        index,
                        strategy: self,
                    });
                }
                let kind = self.langchain().expect("a LangChain strategy");
                let config = LangChainConfig::from_config(kind, config)?;
                config.validate()?;
                Box::new(config)
            }
            Strategy::LangChainMarkdown => {
                if let Some(index) = config
                    .then_recursive
                    .iter()
                    .flatten()
                    .position(|s| s.level.is_some())
                {
                    return Err(Error::SentenceLevel {
                        index,
                        strategy: self,
                    });
                }
                match MarkdownRecipe::from_config(config)? {
                    Some(recipe) => {
                        recipe.recursive.validate()?;
                        Box::new(recipe)
                    }
                    None => Box::new(MarkdownHeaderConfig::from_config(config)?),
                }
            }
            Strategy::Semantic => Box::new(SemanticEngine::new(config)?),
        })
    }

    /// What a token unit counts with for this strategy: LangChain's classes
    /// report a missing tokenizer as LangChain would.
    pub(crate) fn counter(self, config: &Config) -> Result<Counter, Error> {
        match self.langchain() {
            Some(_) => Ok(langchain::counter(config.unit)?),
            None => Counter::new(config.unit),
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

/// Our engines: they share [`Run`] (emitting chunks, recording nodes, cuts)
/// and differ in the function that walks the text.
#[derive(Clone)]
struct Native {
    matchers: Vec<Matcher>,
    split: fn(&mut Run<'_>) -> Result<(), Error>,
}

impl fmt::Debug for Native {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Native")
            .field("matchers", &self.matchers)
            .finish_non_exhaustive()
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

impl Engine for Native {
    fn split(
        &self,
        text: &str,
        config: &Config,
        counter: Counter,
        record: bool,
    ) -> Result<EngineOutput, Error> {
        let (sentences, gaps) = sentences_for(&self.matchers, text, record);
        let mut run = Run::new(text, config, counter, &self.matchers, &gaps, record);
        (self.split)(&mut run)?;
        let output = Output {
            chunks: run.chunks,
            trace: run.tree.finish(),
            langchain: None,
            markdown: None,
            sentences,
        };
        Ok(EngineOutput {
            output,
            chars: run.measure.into_char_table(),
        })
    }

    fn boxed(&self) -> Box<dyn Engine> {
        Box::new(self.clone())
    }
}

impl Engine for LangChainConfig {
    fn split(
        &self,
        text: &str,
        _config: &Config,
        counter: Counter,
        record: bool,
    ) -> Result<EngineOutput, Error> {
        Ok(langchain::run(text, self, counter, record)?)
    }

    fn boxed(&self) -> Box<dyn Engine> {
        Box::new(self.clone())
    }
}

impl Engine for MarkdownHeaderConfig {
    fn split(
        &self,
        text: &str,
        _config: &Config,
        counter: Counter,
        record: bool,
    ) -> Result<EngineOutput, Error> {
        Ok(langchain::run_markdown(text, self, counter, record)
            .into_output()
            .into())
    }

    fn boxed(&self) -> Box<dyn Engine> {
        Box::new(self.clone())
    }
}

impl Engine for MarkdownRecipe {
    fn split(
        &self,
        text: &str,
        _config: &Config,
        counter: Counter,
        record: bool,
    ) -> Result<EngineOutput, Error> {
        Ok(langchain::run_recipe(text, self, counter, record)?
            .into_output()
            .into())
    }

    fn boxed(&self) -> Box<dyn Engine> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn Engine> {
    fn clone(&self) -> Self {
        self.boxed()
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = String;
    fn from_str(s: &str) -> Result<Strategy, String> {
        Strategy::ALL
            .into_iter()
            .find(|strategy| strategy.name() == s)
            .ok_or_else(|| {
                let names: Vec<String> = Strategy::ALL
                    .iter()
                    .map(|s| format!("{:?}", s.name()))
                    .collect();
                let (last, rest) = names.split_last().expect("strategies exist");
                format!("unknown strategy {s:?}: use {} or {last}", rest.join(", "))
            })
    }
}
