//! [`Settings`]: the one written form of a configuration.
//!
//! Every caller that writes a configuration down or reads one in uses this
//! form: the report's configuration echo, the JS API's options object, the
//! worker's split requests, the CLI's flags and the Python keywords (each
//! builds a `Settings` and [`Settings::resolve`]s it). Its JSON (with the
//! `serde` feature) is:
//!
//! ```text
//! { strategy?: "fixed" | "recursive" | "sentence" | "markdown" | "langchain"
//!             | "langchain-character" | "langchain-markdown" | "semantic"
//!             | "semchunk" | "chonkie-recursive" | "chonkie-token" | "chonkie-sentence"
//!             | "llamaindex-sentence" | "llamaindex-token" | "llamaindex-markdown"
//!             | "text-splitter" | "text-splitter-markdown",
//!   size?: number, overlap?: number, unit?: "chars" | "bytes" | "cl100k" | "o200k",
//!   separators?: (string | { pattern: string, regex?: boolean } | { level: "sentence" })[],
//!   placement?: "end" | "start" | "none", trim?: boolean,
//!   each_line?: boolean,             // langchain-markdown: return_each_line
//!   then_recursive?: separators | null,  // langchain-markdown: the docs' recipe
//!   heading_prefix?: boolean,        // markdown: the heading path before each chunk
//!   table_header?: "once" | "repeat",  // markdown: a table's header in each chunk of its rows
//!   semantic?: { breakpoint?, amount?, buffer?, number_of_chunks?,
//!                min_chunk_size?, embedder? },   // semantic: SemanticChunker's
//!   min_characters_per_chunk?: number }  // chonkie-recursive: shorter splits joined
//! ```
//!
//! A field left out (or `null`) takes the strategy's default
//! ([`Config::for_strategy`]). Which strategy reads which of the last six is
//! decided here alone ([`StrategySetting`]): one given to a strategy that
//! would ignore it is refused, with the setting and the strategy named.
//!
//! Invariant: for any configuration `c`, `Settings::from(&c).resolve() == c`,
//! so an echo reads back as the configuration that made it. (A
//! [`Config`] cannot hold a setting its strategy ignores: those live in its
//! [`StrategyConfig`] variant.)

use super::semantic::SemanticConfig;
use super::{ChonkieConfig, Config, StrategyConfig};
use crate::embed::EmbedderChoice;
use crate::separator::{Placement, Separator};
use crate::strategy::{Breakpoint, Strategy, TableHeader};
use crate::unit::Unit;
use std::fmt;

#[cfg(feature = "serde")]
mod form;
#[cfg(feature = "serde")]
pub(crate) use form::separators;

/// A configuration as it is written down: every field optional, so a caller
/// gives only what differs from the strategy's defaults.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    /// The engine; the default is `recursive`.
    pub strategy: Option<Strategy>,
    /// The most units a chunk may hold.
    pub size: Option<usize>,
    /// The most units a chunk may repeat from the one before.
    pub overlap: Option<usize>,
    /// What size and overlap count.
    pub unit: Option<Unit>,
    /// Strongest first.
    pub separators: Option<Vec<Separator>>,
    /// Where a separator goes at a cut.
    pub placement: Option<Placement>,
    /// Whether whitespace at the ends of pieces is trimmed off.
    pub trim: Option<bool>,
    /// `langchain-markdown`: one chunk per paragraph (`return_each_line`).
    pub each_line: Option<bool>,
    /// `langchain-markdown`: split each section again with
    /// `RecursiveCharacterTextSplitter` on these separators (empty:
    /// LangChain's default list).
    pub then_recursive: Option<Vec<Separator>>,
    /// `markdown`: put each chunk's heading path before it, counted in the
    /// size.
    pub heading_prefix: Option<bool>,
    /// `markdown`: whether each chunk of a table's rows repeats its header.
    pub table_header: Option<TableHeader>,
    /// `semantic`: `SemanticChunker`'s arguments and the embedder.
    pub semantic: Option<SemanticSettings>,
    /// `chonkie-recursive`: `min_characters_per_chunk`, the UTF-8 bytes
    /// under which a split is joined to its neighbour.
    pub min_characters_per_chunk: Option<usize>,
}

// `Eq` for the report that holds an echo: an echo's amount is one a split
// was made with, which is checked to be finite first.
impl Eq for Settings {}

/// `settings.semantic`, with LangChain's names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SemanticSettings {
    /// `breakpoint_threshold_type`.
    pub breakpoint: Option<Breakpoint>,
    /// `breakpoint_threshold_amount`; absent: the kind's default.
    pub amount: Option<f64>,
    /// `buffer_size`.
    pub buffer: Option<usize>,
    /// `number_of_chunks`.
    pub number_of_chunks: Option<usize>,
    /// `min_chunk_size`.
    pub min_chunk_size: Option<usize>,
    /// The embedder by name: `lexical`, or a name the caller's resolver
    /// knows (a model file, a loaded model).
    pub embedder: Option<String>,
}

impl Eq for SemanticSettings {}

/// A setting that only one strategy reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrategySetting {
    /// `each_line`: `langchain-markdown`'s `return_each_line`.
    EachLine,
    /// `then_recursive`: `langchain-markdown`'s recipe.
    ThenRecursive,
    /// `heading_prefix`: the Markdown strategy's heading path.
    HeadingPrefix,
    /// `table_header`: the Markdown strategy's repeated table header.
    TableHeader,
    /// `semantic`: the semantic strategy's arguments.
    Semantic,
    /// `min_characters_per_chunk`: `chonkie-recursive`'s minimum split.
    MinCharactersPerChunk,
}

impl StrategySetting {
    /// All of them, in the order the written form lists them.
    pub const ALL: [StrategySetting; 6] = [
        StrategySetting::EachLine,
        StrategySetting::ThenRecursive,
        StrategySetting::HeadingPrefix,
        StrategySetting::TableHeader,
        StrategySetting::Semantic,
        StrategySetting::MinCharactersPerChunk,
    ];

    /// The field's name in the written form.
    pub const fn name(self) -> &'static str {
        match self {
            StrategySetting::EachLine => "each_line",
            StrategySetting::ThenRecursive => "then_recursive",
            StrategySetting::HeadingPrefix => "heading_prefix",
            StrategySetting::TableHeader => "table_header",
            StrategySetting::Semantic => "semantic",
            StrategySetting::MinCharactersPerChunk => "min_characters_per_chunk",
        }
    }

    /// The one strategy that reads it.
    pub const fn strategy(self) -> Strategy {
        match self {
            StrategySetting::EachLine | StrategySetting::ThenRecursive => {
                Strategy::LangChainMarkdown
            }
            StrategySetting::HeadingPrefix | StrategySetting::TableHeader => Strategy::Markdown,
            StrategySetting::Semantic => Strategy::Semantic,
            StrategySetting::MinCharactersPerChunk => Strategy::ChonkieRecursive,
        }
    }
}

/// Settings that cannot be used: the field to change, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsError {
    /// The field of the written form to change (`strategy`, `size`, …,
    /// `semantic`), or `config` when it is about the form as a whole.
    pub field: &'static str,
    /// What is wrong, in words a user acts on.
    pub message: String,
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SettingsError {}

impl SettingsError {
    /// An error about `field`.
    pub fn new(field: &'static str, message: impl Into<String>) -> SettingsError {
        SettingsError {
            field,
            message: message.into(),
        }
    }
}

impl Settings {
    /// The fields of the written form, in order.
    pub const FIELDS: [&'static str; 13] = [
        "strategy",
        "size",
        "overlap",
        "unit",
        "separators",
        "placement",
        "trim",
        "each_line",
        "then_recursive",
        "heading_prefix",
        "table_header",
        "semantic",
        "min_characters_per_chunk",
    ];

    /// The configuration: the strategy's defaults, overridden by every field
    /// given. Only the form is checked here: the engine checks the values
    /// (size 0, a bad regex, …) and a [`Splitter`](crate::Splitter) resolves
    /// the names (an embedder, a tokenizer) in its resources.
    pub fn resolve(self) -> Result<Config, SettingsError> {
        self.resolve_spelt(|name| name.to_string())
    }

    /// [`Settings::resolve`], with a setting named in an error as `spell`
    /// writes it (the CLI's `--heading-prefix` for `heading_prefix`).
    pub fn resolve_spelt(
        self,
        spell: impl Fn(&'static str) -> String,
    ) -> Result<Config, SettingsError> {
        let strategy = self.strategy.unwrap_or_default();
        if let Some((setting, given)) = self.foreign(strategy) {
            return Err(SettingsError::new(
                setting.name(),
                format!(
                    "{} applies to the {:?} strategy only (the strategy is {:?}), which would ignore it",
                    spell(given),
                    setting.strategy().name(),
                    strategy.name()
                ),
            ));
        }
        let mut config = Config::for_strategy(strategy);
        config.size = self.size.unwrap_or(config.size);
        config.overlap = self.overlap.unwrap_or(config.overlap);
        config.unit = self.unit.unwrap_or(config.unit);
        if let Some(separators) = self.separators {
            config.separators = separators;
        }
        config.placement = self.placement.unwrap_or(config.placement);
        config.trim = self.trim.unwrap_or(config.trim);
        match &mut config.strategy {
            StrategyConfig::LangChainMarkdown(own) => {
                own.each_line = self.each_line.unwrap_or(own.each_line);
                own.then_recursive = self.then_recursive;
            }
            StrategyConfig::Markdown(own) => {
                own.heading_prefix = self.heading_prefix.unwrap_or(own.heading_prefix);
                own.table_header = self.table_header.unwrap_or(own.table_header);
            }
            StrategyConfig::Semantic(own) => {
                if let Some(s) = self.semantic {
                    own.breakpoint = s.breakpoint.unwrap_or(own.breakpoint);
                    own.amount = s.amount;
                    own.buffer = s.buffer.unwrap_or(own.buffer);
                    own.number_of_chunks = s.number_of_chunks;
                    own.min_chunk_size = s.min_chunk_size;
                    own.embedder = s
                        .embedder
                        .map_or(EmbedderChoice::Lexical, EmbedderChoice::named);
                }
            }
            StrategyConfig::ChonkieRecursive(own) => {
                own.min_characters_per_chunk = self
                    .min_characters_per_chunk
                    .unwrap_or(own.min_characters_per_chunk);
            }
            _ => {}
        }
        Ok(config)
    }

    /// The first strategy-only setting given that `strategy` does not read,
    /// and how to name it (a semantic setting by its own name). A setting
    /// at its off value (`false`, the default) is not "given".
    fn foreign(&self, strategy: Strategy) -> Option<(StrategySetting, &'static str)> {
        StrategySetting::ALL
            .into_iter()
            .filter(|s| s.strategy() != strategy)
            .find_map(|setting| {
                let given = match setting {
                    StrategySetting::EachLine => self.each_line == Some(true),
                    StrategySetting::ThenRecursive => self.then_recursive.is_some(),
                    StrategySetting::HeadingPrefix => self.heading_prefix == Some(true),
                    StrategySetting::TableHeader => self.table_header == Some(TableHeader::Repeat),
                    StrategySetting::Semantic => self.semantic.is_some(),
                    StrategySetting::MinCharactersPerChunk => self
                        .min_characters_per_chunk
                        .is_some_and(|m| m != ChonkieConfig::DEFAULT_MIN_CHARACTERS_PER_CHUNK),
                };
                let name = match (&self.semantic, setting) {
                    (Some(s), StrategySetting::Semantic) => s.first_given().unwrap_or("semantic"),
                    _ => setting.name(),
                };
                given.then_some((setting, name))
            })
    }

    /// The configuration echo of a report: [`Settings::from`] with the
    /// semantic amount in effect written out (the kind's default when none
    /// was set), so a reader sees the threshold the split used.
    pub fn echo(config: &Config) -> Settings {
        let mut settings = Settings::from(config);
        if let (Some(semantic), Some(own)) = (&mut settings.semantic, config.semantic_config()) {
            semantic.amount = Some(own.amount());
        }
        settings
    }
}

/// The TypeScript of each field of [`Settings`], in [`Settings::FIELDS`]
/// order: its type (a `{name}` is filled in by [`Settings::typescript`])
/// and what it is.
const FIELD_TYPES: [(&str, &str); Settings::FIELDS.len()] = [
    ("{strategies}", "The engine; `recursive` when left out."),
    ("number", "The most units a chunk may hold (a whole number)."),
    ("number", "The most units a chunk may repeat from the one before."),
    ("{units}", "What size and overlap count."),
    ("Separator[]", "Strongest first; `\"\"` is the hard cut."),
    ("{placements}", "Which chunk keeps a separator at a cut."),
    ("boolean", "Whether whitespace at the ends of pieces is trimmed off."),
    ("boolean", "`langchain-markdown` only: one chunk per paragraph (`return_each_line`)."),
    (
        "Separator[]",
        "`langchain-markdown` only: split each section again with `RecursiveCharacterTextSplitter` on these (`[]`: LangChain's default list).",
    ),
    ("boolean", "`markdown` only: each chunk's heading path before it, counted in the size."),
    (
        "{table_headers}",
        "`markdown` only: a cut table's header rows in each chunk of its rows (`\"repeat\"`, counted in the size) or in its first chunk only (`\"once\"`).",
    ),
    ("SemanticSettings", "`semantic` only: `SemanticChunker`'s arguments."),
    (
        "number",
        "`chonkie-recursive` only: `min_characters_per_chunk`, splits shorter than this many UTF-8 bytes joined to a neighbour (24; at least 1).",
    ),
];

/// The same for [`SemanticSettings`].
const SEMANTIC_TYPES: [(&str, &str); SemanticSettings::FIELDS.len()] = [
    ("{breakpoints}", "`breakpoint_threshold_type`."),
    (
        "number",
        "`breakpoint_threshold_amount`; the kind's default when left out.",
    ),
    ("number", "`buffer_size`: sentences either side in a group."),
    ("number", "`number_of_chunks`."),
    ("number", "`min_chunk_size`."),
    (
        "string",
        "`\"lexical\"`, or `\"model:N\"` for a model a worker loaded.",
    ),
];

impl Settings {
    /// The TypeScript declarations of the written form: `Settings`,
    /// `SemanticSettings` and `Separator`, every field optional (and
    /// `null` allowed, as the reader takes it), with the names the reader
    /// accepts listed from the same enums it parses. The npm package ships
    /// them (`npm/settings.d.ts`, checked to be this text).
    pub fn typescript() -> String {
        use crate::typescript::union;
        let fill = |ty: &str| {
            ty.replace("{strategies}", &union(Strategy::ALL.map(Strategy::name)))
                .replace("{units}", &union(Unit::ALL.map(Unit::name)))
                .replace(
                    "{placements}",
                    &union(
                        [Placement::End, Placement::Start, Placement::None].map(Placement::name),
                    ),
                )
                .replace(
                    "{breakpoints}",
                    &union(Breakpoint::ALL.map(Breakpoint::name)),
                )
                .replace(
                    "{table_headers}",
                    &union(TableHeader::ALL.map(TableHeader::name)),
                )
        };
        let interface = |name: &str, doc: &str, fields: &[&str], types: &[(&str, &str)]| {
            let mut out = format!("/** {doc} */\nexport interface {name} {{\n");
            for (field, (ty, doc)) in fields.iter().zip(types) {
                out.push_str(&format!(
                    "  /** {doc} */\n  {field}?: {} | null;\n",
                    fill(ty)
                ));
            }
            out.push_str("}\n");
            out
        };
        let level = crate::separator::SeparatorLevel::Sentence.name();
        let mut out = String::from(
            "// The written form of a chunkscope configuration: what `split` takes as its\n\
             // config and a report echoes as `config`. Generated from the Rust types\n\
             // (`chunkscope::Settings::typescript`); do not edit.\n\n",
        );
        out.push_str(&format!(
            "/** A separator: a literal string, a pattern that may be a regular expression, or a named level. */\n\
             export type Separator = string | {{ pattern: string; regex?: boolean }} | {{ level: {level:?}; pattern?: \"\"; regex?: false }};\n\n"
        ));
        out.push_str(&interface(
            "SemanticSettings",
            "The semantic strategy's settings, with LangChain's names.",
            &SemanticSettings::FIELDS,
            &SEMANTIC_TYPES,
        ));
        out.push('\n');
        out.push_str(&interface(
            "Settings",
            "A configuration: every field may be left out for the strategy's default. A field of one strategy given to another is refused.",
            &Settings::FIELDS,
            &FIELD_TYPES,
        ));
        out
    }
}

impl SemanticSettings {
    /// The fields of `semantic`, in order.
    pub const FIELDS: [&'static str; 6] = [
        "breakpoint",
        "amount",
        "buffer",
        "number_of_chunks",
        "min_chunk_size",
        "embedder",
    ];

    /// These settings when any is given, else `None` (the form's "not
    /// given", which another strategy accepts).
    pub fn given(self) -> Option<SemanticSettings> {
        self.first_given().is_some().then_some(self)
    }

    fn first_given(&self) -> Option<&'static str> {
        let given = [
            self.breakpoint.is_some(),
            self.amount.is_some(),
            self.buffer.is_some(),
            self.number_of_chunks.is_some(),
            self.min_chunk_size.is_some(),
            self.embedder.is_some(),
        ];
        Self::FIELDS
            .into_iter()
            .zip(given)
            .find_map(|(name, given)| given.then_some(name))
    }
}

/// Everything written, except a strategy's own settings at their off value.
/// The embedder is written by its name.
impl From<&Config> for Settings {
    fn from(config: &Config) -> Settings {
        let markdown = config.markdown_config();
        let header_split = config.header_split_config();
        Settings {
            strategy: Some(config.kind()),
            size: Some(config.size),
            overlap: Some(config.overlap),
            unit: Some(config.unit),
            separators: Some(config.separators.clone()),
            placement: Some(config.placement),
            trim: Some(config.trim),
            each_line: header_split.is_some_and(|h| h.each_line).then_some(true),
            then_recursive: header_split.and_then(|h| h.then_recursive.clone()),
            heading_prefix: markdown.is_some_and(|m| m.heading_prefix).then_some(true),
            table_header: markdown
                .map(|m| m.table_header)
                .filter(|&t| t != TableHeader::Once),
            semantic: config.semantic_config().map(semantic_settings),
            min_characters_per_chunk: config
                .chonkie_config()
                .map(|c| c.min_characters_per_chunk)
                .filter(|&m| m != ChonkieConfig::DEFAULT_MIN_CHARACTERS_PER_CHUNK),
        }
    }
}

fn semantic_settings(s: &SemanticConfig) -> SemanticSettings {
    SemanticSettings {
        breakpoint: Some(s.breakpoint),
        amount: s.amount,
        buffer: Some(s.buffer),
        number_of_chunks: s.number_of_chunks,
        min_chunk_size: s.min_chunk_size,
        embedder: Some(s.embedder.name().to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_given_is_the_defaults() {
        assert_eq!(Settings::default().resolve().unwrap(), Config::default());
        for strategy in Strategy::ALL {
            let given = Settings {
                strategy: Some(strategy),
                ..Settings::default()
            };
            assert_eq!(given.resolve().unwrap(), Config::for_strategy(strategy));
        }
    }

    #[test]
    fn a_setting_of_another_strategy_is_refused_with_both_named() {
        let e = Settings {
            strategy: Some(Strategy::Recursive),
            heading_prefix: Some(true),
            ..Settings::default()
        }
        .resolve()
        .unwrap_err();
        assert_eq!(e.field, "heading_prefix");
        assert_eq!(
            e.message,
            "heading_prefix applies to the \"markdown\" strategy only (the strategy is \"recursive\"), which would ignore it"
        );
        let e = Settings {
            strategy: Some(Strategy::Markdown),
            semantic: Some(SemanticSettings {
                amount: Some(80.0),
                ..SemanticSettings::default()
            }),
            ..Settings::default()
        }
        .resolve()
        .unwrap_err();
        assert_eq!(e.field, "semantic");
        assert!(
            e.message.starts_with("amount applies to the \"semantic\""),
            "{e}"
        );
        for (settings, field) in [
            (
                Settings {
                    each_line: Some(true),
                    ..Settings::default()
                },
                "each_line",
            ),
            (
                Settings {
                    then_recursive: Some(Vec::new()),
                    ..Settings::default()
                },
                "then_recursive",
            ),
        ] {
            assert_eq!(settings.resolve().unwrap_err().field, field);
        }
        // Semantic settings with nothing set are not given.
        assert_eq!(SemanticSettings::default().given(), None);
        let amount = SemanticSettings {
            amount: Some(80.0),
            ..SemanticSettings::default()
        };
        assert_eq!(amount.clone().given(), Some(amount));
        // Off is not given: `false` is accepted anywhere.
        let off = Settings {
            each_line: Some(false),
            heading_prefix: Some(false),
            ..Settings::default()
        };
        assert_eq!(off.resolve().unwrap(), Config::default());
    }

    #[test]
    fn each_strategy_setting_is_taken_by_its_strategy_and_refused_by_every_other() {
        let given = |setting: StrategySetting, strategy: Strategy| {
            let mut s = Settings {
                strategy: Some(strategy),
                ..Settings::default()
            };
            match setting {
                StrategySetting::EachLine => s.each_line = Some(true),
                StrategySetting::ThenRecursive => s.then_recursive = Some(Vec::new()),
                StrategySetting::HeadingPrefix => s.heading_prefix = Some(true),
                StrategySetting::TableHeader => s.table_header = Some(TableHeader::Repeat),
                StrategySetting::Semantic => s.semantic = Some(SemanticSettings::default()),
                StrategySetting::MinCharactersPerChunk => s.min_characters_per_chunk = Some(1),
            }
            s.resolve()
        };
        let mut refused = 0;
        for setting in StrategySetting::ALL {
            for strategy in Strategy::ALL {
                match given(setting, strategy) {
                    Ok(_) => assert_eq!(strategy, setting.strategy(), "{setting:?}"),
                    Err(e) => {
                        assert_ne!(strategy, setting.strategy(), "{setting:?}: {e}");
                        assert_eq!(e.field, setting.name());
                        refused += 1;
                    }
                }
            }
        }
        assert_eq!(
            refused,
            StrategySetting::ALL.len() * (Strategy::ALL.len() - 1)
        );
    }

    #[test]
    fn the_written_form_reads_back_as_the_configuration() {
        let semantic = Config {
            strategy: StrategyConfig::Semantic(SemanticConfig {
                buffer: 2,
                min_chunk_size: Some(10),
                ..SemanticConfig::new().with_breakpoint(Breakpoint::Gradient, Some(80.0))
            }),
            ..Config::for_strategy(Strategy::Semantic)
        };
        let recipe = Config {
            strategy: StrategyConfig::LangChainMarkdown(super::super::HeaderSplitConfig {
                each_line: true,
                then_recursive: Some(vec![Separator::regex(r"\s+")]),
            }),
            ..Config::for_strategy(Strategy::LangChainMarkdown)
        };
        let chonkie = |min_characters_per_chunk| Config {
            strategy: StrategyConfig::ChonkieRecursive(ChonkieConfig {
                min_characters_per_chunk,
            }),
            ..Config::for_strategy(Strategy::ChonkieRecursive)
        };
        let configs = [
            Config::recursive(40)
                .with_overlap(5)
                .with_separators([
                    Separator::literal("\n\n"),
                    Separator::regex("[.!?] "),
                    "".into(),
                ])
                .with_placement(Placement::None)
                .with_trim(false),
            Config::fixed(7, 2).with_unit(Unit::Bytes),
            Config::markdown(300).with_heading_prefix(true),
            Config::markdown(300).with_table_header(TableHeader::Repeat),
            Config::for_strategy(Strategy::Sentence),
            semantic,
            recipe,
            chonkie(1),
            chonkie(0),
            chonkie(usize::MAX),
        ];
        for config in configs {
            let read = Settings::from(&config).resolve().unwrap();
            assert_eq!(read, config);
        }
        // Every strategy's defaults, written and read back.
        for strategy in Strategy::ALL {
            let config = Config::for_strategy(strategy);
            assert_eq!(Settings::from(&config).resolve().unwrap(), config);
        }
    }

    #[test]
    fn a_strategy_setting_at_its_off_value_is_not_written() {
        let written = Settings::from(&Config::markdown(40));
        assert_eq!((written.heading_prefix, written.table_header), (None, None));
        let written = Settings::from(&Config::for_strategy(Strategy::LangChainMarkdown));
        assert_eq!((written.each_line, &written.then_recursive), (None, &None));
        assert!(Settings::from(&Config::recursive(40)).semantic.is_none());
        let written = Settings::from(&Config::for_strategy(Strategy::ChonkieRecursive));
        assert_eq!(written.min_characters_per_chunk, None);
    }

    /// Chonkie's default given to another strategy is "not given", like
    /// `table_header: "once"`; any other value, 0 included, is refused
    /// there, and 0 reaches chonkie-recursive's engine, which refuses it as
    /// chonkie does.
    #[test]
    fn min_characters_per_chunk_is_chonkies_alone() {
        let given = |strategy, min| Settings {
            strategy: Some(strategy),
            min_characters_per_chunk: Some(min),
            ..Settings::default()
        };
        assert_eq!(
            given(Strategy::Recursive, 24).resolve().unwrap(),
            Config::default()
        );
        let e = given(Strategy::Semchunk, 0).resolve().unwrap_err();
        assert_eq!(e.field, "min_characters_per_chunk");
        assert_eq!(
            e.message,
            "min_characters_per_chunk applies to the \"chonkie-recursive\" strategy only (the strategy is \"semchunk\"), which would ignore it"
        );
        let zero = given(Strategy::ChonkieRecursive, 0).resolve().unwrap();
        assert_eq!(zero.chonkie_config().unwrap().min_characters_per_chunk, 0);
        let e = zero.validate().unwrap_err();
        assert_eq!(e.setting(), crate::Setting::MinCharacters);
        assert_eq!(e.setting().field(), "min_characters_per_chunk");
    }

    #[test]
    #[should_panic(
        expected = "with_heading_prefix sets a Markdown strategy's setting, on a \"recursive\" configuration"
    )]
    fn a_markdown_builder_on_another_strategy_says_which() {
        let _ = Config::recursive(40).with_heading_prefix(true);
    }

    #[test]
    fn the_shipped_typescript_is_the_one_the_types_make() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../npm/settings.d.ts");
        let made = Settings::typescript();
        crate::typescript::assert_shipped(
            path,
            &made,
            "cargo test -p chunkscope --features serde --lib typescript",
        );
        for field in Settings::FIELDS.iter().chain(&SemanticSettings::FIELDS) {
            assert!(made.contains(&format!("  {field}?: ")), "{field}");
        }
        for name in Strategy::ALL.map(Strategy::name) {
            assert!(made.contains(&format!("{name:?}")), "{name}");
        }
    }

    #[test]
    fn the_echo_writes_the_amount_in_effect() {
        let config = Config::for_strategy(Strategy::Semantic);
        assert_eq!(Settings::from(&config).semantic.unwrap().amount, None);
        assert_eq!(Settings::echo(&config).semantic.unwrap().amount, Some(95.0));
    }

    #[test]
    fn an_embedder_is_a_name_read_and_written_as_given() {
        let named = |name: &str| Settings {
            strategy: Some(Strategy::Semantic),
            semantic: Some(SemanticSettings {
                embedder: Some(name.into()),
                ..SemanticSettings::default()
            }),
            ..Settings::default()
        };
        let config = named("model:3").resolve().unwrap();
        assert_eq!(
            config.semantic_config().unwrap().embedder,
            EmbedderChoice::Named("model:3".into())
        );
        let written = Settings::from(&config);
        assert_eq!(
            written.semantic.as_ref().unwrap().embedder.as_deref(),
            Some("model:3")
        );
        assert_eq!(written.resolve().unwrap(), config);
        let lexical = named("lexical").resolve().unwrap();
        assert_eq!(
            lexical.semantic_config().unwrap().embedder,
            EmbedderChoice::Lexical
        );
        assert_eq!(lexical, Config::for_strategy(Strategy::Semantic));
    }
}
