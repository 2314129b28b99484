//! Compiling a configuration: the one place a [`Strategy`] becomes its
//! engine.
//!
//! A strategy is two things: a [`Strategy`] value (plain data, in
//! `strategy.rs`) and an [`Engine`] (the configuration compiled for it, ready
//! to split any number of texts). [`Splitter`](crate::Splitter) holds the
//! engine and calls it; checks, reports and views read only the
//! [`Output`](crate::Output) it returns.
//!
//! The methods of the data types that need an engine
//! ([`Config::validate`], [`Strategy::langchain_python`]) are defined here,
//! so the data types' own files import no engine.
//!
//! Adding a strategy touches `strategy.rs` (a variant and its name),
//! `config.rs` (its [`StrategyConfig`] variant, with what only it reads),
//! this file (its engine in `StrategyConfig::engine`), the strategy's own
//! module, and the views that draw what is new in its output.

use crate::chonkie::Chonkie;
use crate::config::{Config, StrategyConfig};
use crate::engine::{run_ours, Engine, EngineOutput, Run};
use crate::error::{Error, Setting};
use crate::langchain::{LangChainConfig, MarkdownHeaderConfig, MarkdownRecipe};
use crate::llamaindex::{self, LlamaIndex};
use crate::resources::Resources;
use crate::semantic::SemanticEngine;
use crate::semchunk::Semchunk;
use crate::separator::{Matcher, SeparatorLevel};
use crate::strategy::Strategy;
#[cfg(feature = "text-splitter")]
use crate::text_splitter::{self, TextSplitterEngine};
use crate::unit::Counter;
use crate::{chonkie, chonkie_sentence, chonkie_token, fixed, langchain, markdown, recursive};
use std::fmt;

impl Strategy {
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

    /// What a token unit counts with for this strategy: LangChain's classes
    /// report a missing tokenizer as LangChain would.
    pub(crate) fn counter(self, config: &Config, resources: &Resources) -> Result<Counter, Error> {
        match self.langchain() {
            Some(_) => Ok(langchain::counter(resources, config.unit)?),
            None => resources.counter(config.unit),
        }
    }
}

impl StrategyConfig {
    /// Builds the engine for a configuration whose size and overlap are
    /// already checked ([`Config::compile`] does that first).
    pub(crate) fn engine(
        &self,
        config: &Config,
        resources: Option<&Resources>,
    ) -> Result<Box<dyn Engine>, Error> {
        Ok(match self {
            StrategyConfig::Fixed => Box::new(Native {
                matchers: Vec::new(),
                split: fixed::split,
            }),
            StrategyConfig::Recursive => Box::new(Native {
                matchers: config.matchers()?,
                split: recursive::split,
            }),
            StrategyConfig::Markdown(_) => Box::new(markdown::Markdown {
                matchers: config.matchers()?,
            }),
            StrategyConfig::Sentence => {
                if config.separators.first().map(|s| s.level)
                    != Some(Some(SeparatorLevel::Sentence))
                {
                    return Err(Error::SentenceLevel {
                        index: 0,
                        strategy: self.kind(),
                    });
                }
                Box::new(Native {
                    matchers: config.matchers()?,
                    split: recursive::split,
                })
            }
            StrategyConfig::LangChain | StrategyConfig::LangChainCharacter => {
                if let Some(index) = config.separators.iter().position(|s| s.level.is_some()) {
                    return Err(Error::SentenceLevel {
                        index,
                        strategy: self.kind(),
                    });
                }
                let kind = self.kind().langchain().expect("a LangChain strategy");
                let config = LangChainConfig::from_config(kind, config)?;
                config.validate()?;
                Box::new(config)
            }
            StrategyConfig::LangChainMarkdown(own) => {
                if let Some(index) = own
                    .then_recursive
                    .iter()
                    .flatten()
                    .position(|s| s.level.is_some())
                {
                    return Err(Error::SentenceLevel {
                        index,
                        strategy: self.kind(),
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
            StrategyConfig::Semantic(own) => {
                let mut engine = SemanticEngine::new(config, own)?;
                // After the settings are checked, so their mistakes come first.
                if let Some(resources) = resources {
                    engine.embedder = Some(resources.embedder(&engine.settings.embedder)?);
                }
                Box::new(engine)
            }
            StrategyConfig::Semchunk => Box::new(Semchunk),
            StrategyConfig::ChonkieRecursive(own) => Box::new(Chonkie::new(config, own)?),
            StrategyConfig::ChonkieToken => {
                chonkie::check_size_and_overlap(config, chonkie_token::CLASS)?;
                Box::new(Native {
                    matchers: Vec::new(),
                    split: chonkie_token::split,
                })
            }
            StrategyConfig::ChonkieSentence => {
                chonkie::check_size_and_overlap(config, chonkie_sentence::CLASS)?;
                Box::new(Native {
                    matchers: Vec::new(),
                    split: chonkie_sentence::split,
                })
            }
            StrategyConfig::LlamaIndexSentence => {
                Box::new(LlamaIndex::new(config, llamaindex::Class::Sentence)?)
            }
            StrategyConfig::LlamaIndexToken => {
                Box::new(LlamaIndex::new(config, llamaindex::Class::Token)?)
            }
            // No setting of the parser's is read: the size and unit only
            // measure the sections, as for `langchain-markdown`.
            StrategyConfig::LlamaIndexMarkdown => {
                Box::new(llamaindex::markdown::MarkdownNodeParser)
            }
            #[cfg(feature = "text-splitter")]
            StrategyConfig::TextSplitter => {
                Box::new(TextSplitterEngine::new(text_splitter::Kind::Text, config)?)
            }
            #[cfg(feature = "text-splitter")]
            StrategyConfig::TextSplitterMarkdown => Box::new(TextSplitterEngine::new(
                text_splitter::Kind::Markdown,
                config,
            )?),
            #[cfg(not(feature = "text-splitter"))]
            StrategyConfig::TextSplitter | StrategyConfig::TextSplitterMarkdown => {
                return Err(Error::NotBuilt {
                    strategy: self.kind(),
                    feature: "text-splitter",
                });
            }
        })
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

impl Engine for Native {
    fn split(
        &self,
        text: &str,
        config: &Config,
        counter: Counter,
        record: bool,
    ) -> Result<EngineOutput, Error> {
        run_ours(&self.matchers, text, config, counter, record, |run| {
            (self.split)(run).map(|()| None)
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

impl Config {
    /// Checks the configuration without splitting anything.
    /// The names it gives (a tokenizer, an embedder) are not looked up:
    /// [`Splitter::new`](crate::Splitter::new) resolves them in its
    /// [`Resources`].
    pub fn validate(&self) -> Result<(), Error> {
        self.compile(None).map(|_| ())
    }

    /// Checks the settings and builds the strategy's engine: the one place
    /// a configuration is compiled (regexes included). With `resources`,
    /// the engine is ready to split: the names it reads are resolved there;
    /// without, the configuration is only checked.
    pub(crate) fn compile(&self, resources: Option<&Resources>) -> Result<Box<dyn Engine>, Error> {
        // LangChain's classes, text-splitter and Chonkie's TokenChunker and
        // SentenceChunker check these themselves, and their engines refuse
        // as the library does.
        let strategy = self.kind();
        if strategy.langchain().is_none()
            && !strategy.is_text_splitter()
            && !matches!(strategy, Strategy::ChonkieToken | Strategy::ChonkieSentence)
        {
            if self.size == 0 {
                return Err(Error::ZeroSize);
            }
            // LlamaIndex takes an overlap equal to the size; its engine
            // refuses a larger one with LlamaIndex's own words.
            if self.overlap >= self.size && !strategy.is_llamaindex() {
                return Err(Error::OverlapTooLarge {
                    overlap: self.overlap,
                    size: self.size,
                });
            }
        }
        self.check_read(strategy)?;
        self.strategy.engine(self, resources)
    }

    /// Refuses a common setting `strategy` does not read, unless it is at
    /// the strategy's default (which every caller writes down anyway).
    fn check_read(&self, strategy: Strategy) -> Result<(), Error> {
        let defaults = Config::for_strategy(strategy);
        let unread = [
            (
                Setting::Separators,
                strategy.uses_separators() || self.separators == defaults.separators,
            ),
            (
                Setting::Placement,
                strategy.uses_placement() || self.placement == defaults.placement,
            ),
            (
                Setting::Trim,
                strategy.uses_trim() || self.trim == defaults.trim,
            ),
        ]
        .into_iter()
        .find_map(|(setting, fine)| (!fine).then_some(setting));
        match unread {
            Some(setting) => Err(Error::NotRead { setting, strategy }),
            None => Ok(()),
        }
    }
}
