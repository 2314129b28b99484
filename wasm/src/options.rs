//! The configuration object JavaScript passes to `split`, and its conversion to
//! the engine's [`Config`].
//!
//! The object is read field by field rather than with `#[derive(Deserialize)]`
//! for two reasons:
//!
//! - serde-wasm-bindgen reads a derived struct by looking up only the fields it
//!   knows, so a misspelt field (`{ sise: 40 }`) would be silently ignored and the
//!   default used. Reading the object as a map sees every key, so an unknown one
//!   is an error that lists the real ones.
//! - A wrong type is reported with the field's name (`config.size: …`), which a
//!   derived struct does not do.
//!
//! Names (`strategy`, `unit`, `placement`) are not checked here: they are parsed
//! by core's `FromStr`, the same as the CLI's flags, so both give the same
//! message for the same mistake.

use chunkscope::{Config, Separator};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Unexpected, Visitor};
use std::fmt;

/// `split`'s configuration as JavaScript gives it. Every field may be left out
/// (or be `undefined`/`null`) to keep the default, which is the CLI's default.
///
/// ```text
/// { strategy?: "fixed" | "recursive" | "sentence" | "markdown" | "langchain"
///             | "langchain-character" | "langchain-markdown" | "semantic",
///   size?: number, overlap?: number,
///   unit?: "chars" | "bytes",
///   separators?: (string | { pattern: string, regex?: boolean } | { level: "sentence" })[],
///   placement?: "end" | "start" | "none", trim?: boolean,
///   each_line?: boolean,                   // langchain-markdown's return_each_line
///   then_recursive?: (string | { pattern: string, regex?: boolean })[] | null,
///                                          // langchain-markdown: the docs' recipe, each
///                                          // section split again by RecursiveCharacterTextSplitter
///                                          // on these separators ([]: LangChain's)
///   heading_prefix?: boolean,              // markdown's heading path before each chunk
///   semantic?: { breakpoint?: "percentile" | "standard_deviation" | "interquartile"
///                             | "gradient",
///                amount?: number, buffer?: number, number_of_chunks?: number,
///                min_chunk_size?: number, embedder?: "lexical" } }
/// ```
///
/// The configuration echo of a report (`report.config`) has this shape, so it
/// can be passed back in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SplitOptions {
    /// A [`chunkscope::Strategy`] name. A field
    /// left out takes this strategy's default ([`Config::for_strategy`]).
    pub strategy: Option<String>,
    /// The most units in a chunk.
    pub size: Option<usize>,
    /// The most units a chunk repeats from the one before.
    pub overlap: Option<usize>,
    /// `chars` or `bytes`.
    pub unit: Option<String>,
    /// Strongest first; a plain string is a literal separator, `""` the hard cut.
    pub separators: Option<Vec<Separator>>,
    /// `end`, `start` or `none`.
    pub placement: Option<String>,
    /// Whether whitespace is trimmed off the ends of pieces.
    pub trim: Option<bool>,
    /// `langchain-markdown`: one chunk per paragraph (`return_each_line`).
    pub each_line: Option<bool>,
    /// `langchain-markdown`: split each section again with
    /// `RecursiveCharacterTextSplitter` on these separators (empty:
    /// LangChain's default); absent or `null`: the header splitter alone.
    pub then_recursive: Option<Vec<Separator>>,
    /// Markdown: whether each chunk gets its heading path as a prefix,
    /// counted in the size.
    pub heading_prefix: Option<bool>,
    /// The semantic strategy's settings (LangChain's names).
    pub semantic: Option<Box<SemanticOptions>>,
}

/// `config.semantic`: `SemanticChunker`'s arguments. The JavaScript API has
/// the lexical embedder only.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SemanticOptions {
    /// `breakpoint_threshold_type`.
    pub breakpoint: Option<String>,
    /// `breakpoint_threshold_amount`.
    pub amount: Option<f64>,
    /// `buffer_size`.
    pub buffer: Option<usize>,
    /// `number_of_chunks`.
    pub number_of_chunks: Option<usize>,
    /// `min_chunk_size`.
    pub min_chunk_size: Option<usize>,
    /// `lexical` (the only one a configuration object can name).
    pub embedder: Option<String>,
}

// JSON and JavaScript numbers read here are never NaN: the amount is checked
// to be finite before a split.
impl Eq for SemanticOptions {}

/// A configuration object that cannot be used: the message, and the field
/// it is about (`config` when it is about the object as a whole).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    /// The field to change: `strategy`, `size`, …, or `config`.
    pub field: &'static str,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl OptionError {
    /// The error of a message from this module's reader: those about one
    /// field start with `config.<field>:` (see [`field`]).
    pub(crate) fn from_message(message: String) -> OptionError {
        let named = message
            .strip_prefix("config.")
            .and_then(|rest| rest.split_once(':'))
            .and_then(|(name, _)| FIELD_NAMES.iter().find(|&&f| f == name));
        OptionError {
            field: named.copied().unwrap_or("config"),
            message,
        }
    }
}

/// The fields of the configuration object, as error messages list them and
/// [`OptionError::field`] names them.
const FIELD_NAMES: [&str; 11] = [
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
    "semantic",
];

/// The fields of `config.semantic`.
const SEMANTIC_FIELDS: [&str; 6] = [
    "breakpoint",
    "amount",
    "buffer",
    "number_of_chunks",
    "min_chunk_size",
    "embedder",
];

impl SplitOptions {
    /// The engine configuration: the defaults, overridden by every field given.
    /// Only names are checked here; the engine checks the rest when it splits.
    pub fn into_config(self) -> Result<Config, OptionError> {
        let named = |field: &'static str| move |message: String| OptionError { field, message };
        let strategy = match self.strategy {
            Some(name) => name.parse().map_err(named("strategy"))?,
            None => Config::default().strategy,
        };
        let mut config = Config::for_strategy(strategy);
        if let Some(unit) = self.unit {
            config.unit = unit.parse().map_err(named("unit"))?;
        }
        if let Some(placement) = self.placement {
            config.placement = placement.parse().map_err(named("placement"))?;
        }
        if let Some(size) = self.size {
            config.size = size;
        }
        if let Some(overlap) = self.overlap {
            config.overlap = overlap;
        }
        if let Some(separators) = self.separators {
            config.separators = separators;
        }
        if let Some(trim) = self.trim {
            config.trim = trim;
        }
        if let Some(each_line) = self.each_line {
            config.each_line = each_line;
        }
        if self.then_recursive.is_some() {
            config.then_recursive = self.then_recursive;
        }
        if let Some(on) = self.heading_prefix {
            config.heading_prefix = on;
        }
        if let Some(s) = self.semantic {
            let s = *s;
            let c = &mut config.semantic;
            if let Some(kind) = s.breakpoint {
                c.breakpoint = kind.parse().map_err(named("semantic"))?;
            }
            c.amount = s.amount;
            if let Some(buffer) = s.buffer {
                c.buffer = buffer;
            }
            c.number_of_chunks = s.number_of_chunks;
            c.min_chunk_size = s.min_chunk_size;
            match s.embedder.as_deref() {
                None | Some("lexical") => {}
                Some(name) if crate::loaded::generation_of(name).is_some() => {
                    let generation = crate::loaded::generation_of(name).unwrap_or_default();
                    c.embedder = crate::loaded::model_of(generation).map_err(|message| OptionError {
                        field: "semantic",
                        message,
                    })?;
                }
                Some(other) => {
                    return Err(OptionError {
                        field: "semantic",
                        message: format!(
                            "config.semantic.embedder is {other:?}: a configuration object can \
                             name only \"lexical\", or \"model:N\" for the model a worker loaded (a model is loaded from its files)"
                        ),
                    })
                }
            }
        }
        Ok(config)
    }
}

/// Reads the value of `config.<name>`, naming the field in the message when
/// its type is wrong. `null` and `undefined` read as "not given".
fn field<'de, A, T>(map: &mut A, name: &str) -> Result<Option<T>, A::Error>
where
    A: MapAccess<'de>,
    T: Deserialize<'de>,
{
    map.next_value::<Option<T>>()
        .map_err(|e| de::Error::custom(format!("config.{name}: {}", message(&e))))
}

/// The text of a deserialization error. serde-wasm-bindgen's errors are JS
/// `Error` objects whose string form starts with `Error: `; that prefix would be
/// repeated at every level of a nested message, so it is dropped.
pub(crate) fn message(e: &impl fmt::Display) -> String {
    let text = e.to_string();
    match text.strip_prefix("Error: ") {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

impl<'de> Deserialize<'de> for SplitOptions {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(OptionsVisitor)
    }
}

struct OptionsVisitor;

impl<'de> Visitor<'de> for OptionsVisitor {
    type Value = SplitOptions;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a configuration object such as {{ size: 400, overlap: 40 }}"
        )
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SplitOptions, A::Error> {
        let mut o = SplitOptions::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "strategy" => o.strategy = field(&mut map, "strategy")?,
                "size" => o.size = field::<_, Count>(&mut map, "size")?.map(|c| c.0),
                "overlap" => o.overlap = field::<_, Count>(&mut map, "overlap")?.map(|c| c.0),
                "unit" => o.unit = field(&mut map, "unit")?,
                "separators" => {
                    o.separators = field::<_, SeparatorList>(&mut map, "separators")?.map(|l| l.0)
                }
                "placement" => o.placement = field(&mut map, "placement")?,
                "trim" => o.trim = field(&mut map, "trim")?,
                "each_line" => o.each_line = field(&mut map, "each_line")?,
                "then_recursive" => {
                    o.then_recursive =
                        field::<_, SeparatorList>(&mut map, "then_recursive")?.map(|l| l.0)
                }
                "heading_prefix" => o.heading_prefix = field(&mut map, "heading_prefix")?,
                "semantic" => {
                    o.semantic =
                        field::<_, SemanticMap>(&mut map, "semantic")?.map(|m| Box::new(m.0))
                }
                other => {
                    return Err(de::Error::custom(format!(
                        "config has no field {other:?}; the fields are {}",
                        FIELD_NAMES.join(", ")
                    )))
                }
            }
        }
        Ok(o)
    }
}

/// `config.semantic`, read key by key like the configuration itself.
struct SemanticMap(SemanticOptions);

impl<'de> Deserialize<'de> for SemanticMap {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(SemanticVisitor)
    }
}

struct SemanticVisitor;

impl<'de> Visitor<'de> for SemanticVisitor {
    type Value = SemanticMap;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object such as { breakpoint: \"percentile\", amount: 90, buffer: 1 }")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SemanticMap, A::Error> {
        let mut o = SemanticOptions::default();
        let count = |c: Option<Count>| c.map(|c| c.0);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "breakpoint" => o.breakpoint = sub_field(&mut map, "breakpoint")?,
                "amount" => o.amount = sub_field(&mut map, "amount")?,
                "buffer" => o.buffer = count(sub_field(&mut map, "buffer")?),
                "number_of_chunks" => {
                    o.number_of_chunks = count(sub_field(&mut map, "number_of_chunks")?)
                }
                "min_chunk_size" => {
                    o.min_chunk_size = count(sub_field(&mut map, "min_chunk_size")?)
                }
                "embedder" => o.embedder = sub_field(&mut map, "embedder")?,
                other => {
                    return Err(de::Error::custom(format!(
                        "it has no field {other:?}; the fields are {}",
                        SEMANTIC_FIELDS.join(", ")
                    )))
                }
            }
        }
        Ok(SemanticMap(o))
    }
}

/// [`field`] inside `config.semantic`: the outer read names `config.semantic`,
/// this names the field within it.
fn sub_field<'de, A, T>(map: &mut A, name: &str) -> Result<Option<T>, A::Error>
where
    A: MapAccess<'de>,
    T: Deserialize<'de>,
{
    map.next_value::<Option<T>>()
        .map_err(|e| de::Error::custom(format!("{name}: {}", message(&e))))
}

/// A size or overlap: a whole number of units. JavaScript has only floating
/// point numbers, so `40.0` is accepted and `2.5` or `-1` is not.
struct Count(usize);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_u64(CountVisitor)
    }
}

struct CountVisitor;

impl Visitor<'_> for CountVisitor {
    type Value = Count;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a whole number (0, 1, 2, …)")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Count, E> {
        usize::try_from(v)
            .map(Count)
            .map_err(|_| E::invalid_value(Unexpected::Unsigned(v), &self))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Count, E> {
        u64::try_from(v)
            .map_err(|_| E::invalid_value(Unexpected::Signed(v), &self))
            .and_then(|v| self.visit_u64(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Count, E> {
        // Below 2^53 every whole f64 converts exactly.
        if v.fract() == 0.0 && (0.0..9_007_199_254_740_992.0).contains(&v) {
            self.visit_u64(v as u64)
        } else {
            Err(E::invalid_value(Unexpected::Float(v), &self))
        }
    }
}

/// The separator list, reporting which entry is wrong.
struct SeparatorList(Vec<Separator>);

impl<'de> Deserialize<'de> for SeparatorList {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_seq(SeparatorListVisitor)
    }
}

struct SeparatorListVisitor;

impl<'de> Visitor<'de> for SeparatorListVisitor {
    type Value = SeparatorList;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of separators such as [\"\\n\\n\", \"\\n\", \" \", \"\"]")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<SeparatorList, A::Error> {
        let mut list = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        loop {
            let entry = seq
                .next_element::<SeparatorEntry>()
                .map_err(|e| de::Error::custom(format!("[{}]: {}", list.len(), message(&e))))?;
            match entry {
                Some(SeparatorEntry(sep)) => list.push(sep),
                None => return Ok(SeparatorList(list)),
            }
        }
    }
}

/// One separator: a string (a literal), or `{ pattern, regex? }`.
struct SeparatorEntry(Separator);

impl<'de> Deserialize<'de> for SeparatorEntry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(SeparatorVisitor)
    }
}

struct SeparatorVisitor;

impl<'de> Visitor<'de> for SeparatorVisitor {
    type Value = SeparatorEntry;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "a string, or an object { pattern: string, regex?: boolean } or { level: \"sentence\" }",
        )
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<SeparatorEntry, E> {
        Ok(SeparatorEntry(Separator::literal(v)))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<SeparatorEntry, E> {
        Ok(SeparatorEntry(Separator::literal(v)))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SeparatorEntry, A::Error> {
        let (mut pattern, mut regex) = (None::<String>, None::<bool>);
        let mut level = None::<String>;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "pattern" => pattern = Some(map.next_value()?),
                "regex" => regex = map.next_value()?,
                "level" => level = Some(map.next_value()?),
                other => {
                    return Err(de::Error::custom(format!(
                        "a separator has no field {other:?}; the fields are pattern, regex, level"
                    )))
                }
            }
        }
        if let Some(name) = level {
            let Some(level) = chunkscope::SeparatorLevel::from_name(&name) else {
                return Err(de::Error::custom(format!(
                    "unknown separator level {name:?}: the level is \"sentence\""
                )));
            };
            // The report's echo writes the level with an empty pattern, and
            // reads back; anything else beside a level is a mistake.
            if pattern.as_deref().is_some_and(|p| !p.is_empty()) || regex == Some(true) {
                return Err(de::Error::custom(
                    "a separator is a pattern or a level, not both: { level: \"sentence\" } alone",
                ));
            }
            let mut sep = Separator::sentence();
            sep.level = Some(level);
            return Ok(SeparatorEntry(sep));
        }
        let pattern = pattern.ok_or_else(|| {
            de::Error::custom("a separator object needs a pattern, e.g. { pattern: \"\\n\\n\" }")
        })?;
        Ok(SeparatorEntry(Separator {
            pattern,
            regex: regex.unwrap_or(false),
            level: None,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkscope::{Placement, Strategy, Unit};
    use serde_json::json;

    fn options(value: serde_json::Value) -> Result<SplitOptions, String> {
        serde_json::from_value(value).map_err(|e| message(&e))
    }

    fn config(value: serde_json::Value) -> Result<Config, String> {
        options(value)?.into_config().map_err(|e| e.message)
    }

    #[test]
    fn the_sentence_strategy_and_level() {
        let c = config(json!({ "strategy": "sentence" })).unwrap();
        assert_eq!(c.strategy, Strategy::Sentence);
        assert_eq!(c.separators[0], chunkscope::Separator::sentence());
        let c = config(json!({ "separators": ["\n\n", { "level": "sentence" }, " "] })).unwrap();
        assert_eq!(c.separators[1], chunkscope::Separator::sentence());
        // A string is always a literal: the JS way to the level is the object.
        let c = config(json!({ "separators": ["\\p{sentence}"] })).unwrap();
        assert_eq!(
            c.separators[0],
            chunkscope::Separator::literal("\\p{sentence}")
        );
        let e = config(json!({ "separators": [{ "level": "paragraph" }] })).unwrap_err();
        assert!(e.contains("unknown separator level"), "{e}");
        let e =
            config(json!({ "separators": [{ "level": "sentence", "pattern": "x" }] })).unwrap_err();
        assert!(e.contains("not both"), "{e}");
        // The report's configuration echo reads back.
        let echo =
            json!({ "separators": [{ "pattern": "", "regex": false, "level": "sentence" }] });
        assert_eq!(
            config(echo).unwrap().separators,
            [chunkscope::Separator::sentence()]
        );
    }

    #[test]
    fn then_recursive_turns_on_the_markdown_recipe() {
        let c = config(json!({
            "strategy": "langchain-markdown", "size": 30,
            "then_recursive": [", ", {"pattern": "\\s+", "regex": true}]
        }))
        .unwrap();
        assert_eq!(
            c.then_recursive,
            Some(vec![
                chunkscope::Separator::literal(", "),
                chunkscope::Separator::regex("\\s+")
            ])
        );
        let c = config(json!({"strategy": "langchain-markdown", "then_recursive": []})).unwrap();
        assert_eq!(c.then_recursive, Some(Vec::new()));
        let c = config(json!({"strategy": "langchain-markdown", "then_recursive": null})).unwrap();
        assert_eq!(c.then_recursive, None);
        let e = config(json!({"then_recursive": 3})).unwrap_err();
        assert!(e.starts_with("config.then_recursive:"), "{e}");
    }

    #[test]
    fn an_empty_object_gives_the_cli_defaults() {
        assert_eq!(config(json!({})).unwrap(), Config::default());
        let nulls = json!({"size": null, "strategy": null, "separators": null, "trim": null});
        assert_eq!(config(nulls).unwrap(), Config::default());
    }

    #[test]
    fn every_field_reaches_the_config() {
        let c = config(json!({
            "strategy": "fixed", "size": 40, "overlap": 4.0, "unit": "bytes",
            "separators": ["\n\n", {"pattern": "\\d+", "regex": true}, {"pattern": ""}],
            "placement": "start", "trim": false
        }))
        .unwrap();
        assert_eq!(c.strategy, Strategy::Fixed);
        assert_eq!((c.size, c.overlap), (40, 4));
        assert_eq!(c.unit, Unit::Bytes);
        assert_eq!(
            c.separators,
            [
                Separator::literal("\n\n"),
                Separator::regex("\\d+"),
                Separator::hard_cut()
            ]
        );
        assert_eq!(c.placement, Placement::Start);
        assert!(!c.trim);
    }

    #[test]
    fn unknown_fields_are_named_with_the_real_ones() {
        let e = config(json!({"sise": 40})).unwrap_err();
        assert!(
            e.contains("\"sise\"") && e.contains(&FIELD_NAMES.join(", ")),
            "{e}"
        );
        let e = config(json!({"separators": [{"pattern": "x", "regexp": true}]})).unwrap_err();
        assert!(
            e.contains("separators: [0]") && e.contains("\"regexp\""),
            "{e}"
        );
    }

    #[test]
    fn wrong_types_name_the_field() {
        let e = config(json!({"size": "big"})).unwrap_err();
        assert!(
            e.starts_with("config.size: invalid type: string \"big\""),
            "{e}"
        );
        assert!(e.contains("whole number"), "{e}");
        for bad in [json!(-1), json!(2.5), json!(true)] {
            let e = config(json!({ "overlap": bad })).unwrap_err();
            assert!(
                e.starts_with("config.overlap:") && e.contains("whole number"),
                "{e}"
            );
        }
        let e = config(json!({"trim": "yes"})).unwrap_err();
        assert!(e.starts_with("config.trim:"), "{e}");
        let e = config(json!({"separators": "\n"})).unwrap_err();
        assert!(
            e.contains("config.separators") && e.contains("array"),
            "{e}"
        );
        let e = config(json!({"separators": ["a", 7]})).unwrap_err();
        assert!(
            e.contains("[1]") && e.contains("a string, or an object"),
            "{e}"
        );
        let e = config(json!({"separators": [{"regex": true}]})).unwrap_err();
        assert!(e.contains("needs a pattern"), "{e}");
        let e = config(json!(40)).unwrap_err();
        assert!(e.contains("configuration object"), "{e}");
    }

    #[test]
    fn errors_name_their_field() {
        let field = |value| {
            let e = options(value).map_err(OptionError::from_message);
            e.map(|o| o.into_config().unwrap_err().field)
                .unwrap_or_else(|e| e.field)
        };
        assert_eq!(field(json!({"size": "big"})), "size");
        assert_eq!(field(json!({"separators": ["a", 7]})), "separators");
        assert_eq!(field(json!({"sise": 40})), "config");
        assert_eq!(field(json!({"strategy": "late"})), "strategy");
        assert_eq!(field(json!({"unit": "words"})), "unit");
        assert_eq!(field(json!({"placement": "left"})), "placement");
    }

    #[test]
    fn names_are_read_by_core() {
        let e = config(json!({"strategy": "late"})).unwrap_err();
        assert_eq!(e, "late".parse::<Strategy>().unwrap_err());
        assert!(config(json!({"unit": "tokens"}))
            .unwrap_err()
            .contains("chars"));
        assert!(config(json!({"placement": "left"}))
            .unwrap_err()
            .contains("\"end\""));
    }

    #[test]
    fn the_report_echo_reads_back_as_the_same_config() {
        let original = Config::recursive(40)
            .with_overlap(5)
            .with_separators([
                Separator::literal("\n\n"),
                Separator::regex("[.!?] "),
                "".into(),
            ])
            .with_placement(Placement::None)
            .with_trim(false);
        let splitter = chunkscope::Splitter::new(original.clone()).unwrap();
        let report = splitter.report("a", chunkscope::Detail::FULL).unwrap();
        let echo = serde_json::to_value(report.config).unwrap();
        assert_eq!(config(echo).unwrap(), original);
    }

    #[test]
    fn semantic_settings_read_back_from_the_echo() {
        let mut original = Config::for_strategy(Strategy::Semantic);
        original.semantic = chunkscope::semantic::SemanticConfig::new()
            .with_breakpoint(chunkscope::semantic::Breakpoint::Gradient, Some(80.0));
        original.semantic.buffer = 2;
        original.semantic.min_chunk_size = Some(10);
        let splitter = chunkscope::Splitter::new(original.clone()).unwrap();
        let report = splitter.report("a", chunkscope::Detail::FULL).unwrap();
        let echo = serde_json::to_value(report.config).unwrap();
        assert_eq!(config(echo).unwrap(), original);
        let e = config(json!({"semantic": {"buffr": 1}})).unwrap_err();
        assert!(e.contains("the fields are breakpoint"), "{e}");
        let e = config(json!({"semantic": {"embedder": "model"}})).unwrap_err();
        assert!(e.contains("only \"lexical\""), "{e}");
    }
}
