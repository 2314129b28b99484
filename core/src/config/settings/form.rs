//! The serde form of [`Settings`]: written by the report's echo and the
//! worker's requests, read by the JS API, the worker and anyone holding a
//! report's `config`.
//!
//! The reader is written by hand rather than derived, for two reasons:
//!
//! - serde-wasm-bindgen reads a derived struct by looking up only the fields
//!   it knows, so a misspelt field (`{ sise: 40 }`) would be ignored and the
//!   default used. Reading the object as a map sees every key, so an unknown
//!   one is an error that lists the real ones.
//! - A wrong value is reported with its field's name (`config.size: …`),
//!   which a derived struct does not do; [`SettingsError::from_message`]
//!   reads that name back.
//!
//! Names (`strategy`, `unit`, `placement`, `breakpoint`) are read by core's
//! `FromStr`, the same as the CLI's flags, so both give the same message for
//! the same mistake.

use super::{SemanticSettings, Settings, SettingsError};
use crate::separator::{Placement, Separator, SeparatorLevel};
use crate::strategy::{Breakpoint, Strategy, TableHeader};
use crate::unit::Unit;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Unexpected, Visitor};
use serde::ser::{Serialize, SerializeStruct, Serializer};
use std::fmt;
use std::str::FromStr;

impl SettingsError {
    /// The error of a message from this form's reader: those about one
    /// field start with `config.<field>:`; the others are about the form as
    /// a whole (`config`). A JS `Error`'s `Error: ` prefix is dropped.
    pub fn from_message(message: String) -> SettingsError {
        let message = match message.strip_prefix("Error: ") {
            Some(rest) => rest.to_string(),
            None => message,
        };
        let named = message
            .strip_prefix("config.")
            .and_then(|rest| rest.split_once(':'))
            .and_then(|(name, _)| Settings::FIELDS.iter().find(|&&f| f == name));
        SettingsError {
            field: named.copied().unwrap_or("config"),
            message,
        }
    }
}

impl Serialize for Settings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Settings", Settings::FIELDS.len())?;
        let names = Settings::FIELDS;
        field(&mut s, names[0], &self.strategy.map(Strategy::name))?;
        field(&mut s, names[1], &self.size)?;
        field(&mut s, names[2], &self.overlap)?;
        field(&mut s, names[3], &self.unit.map(Unit::name))?;
        field(&mut s, names[4], &self.separators.as_deref().map(List))?;
        field(&mut s, names[5], &self.placement.map(Placement::name))?;
        field(&mut s, names[6], &self.trim)?;
        field(&mut s, names[7], &self.each_line)?;
        field(&mut s, names[8], &self.then_recursive.as_deref().map(List))?;
        field(&mut s, names[9], &self.heading_prefix)?;
        field(&mut s, names[10], &self.table_header.map(TableHeader::name))?;
        field(&mut s, names[11], &self.semantic)?;
        field(&mut s, names[12], &self.min_characters_per_chunk)?;
        s.end()
    }
}

/// Writes a field that is given; skips one that is not.
fn field<S: SerializeStruct, T: Serialize>(
    s: &mut S,
    name: &'static str,
    value: &Option<T>,
) -> Result<(), S::Error> {
    match value {
        Some(value) => s.serialize_field(name, value),
        None => s.skip_field(name),
    }
}

impl Serialize for SemanticSettings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("SemanticSettings", 6)?;
        let names = SemanticSettings::FIELDS;
        field(&mut s, names[0], &self.breakpoint.map(Breakpoint::name))?;
        field(&mut s, names[1], &self.amount)?;
        field(&mut s, names[2], &self.buffer)?;
        // The two optional counts are written as `null` when unset, so the
        // echo shows that they exist (and reads back as unset).
        s.serialize_field(names[3], &self.number_of_chunks)?;
        s.serialize_field(names[4], &self.min_chunk_size)?;
        field(&mut s, names[5], &self.embedder)?;
        s.end()
    }
}

/// Writes a separator list as the form does, for other reports that list
/// separators (`#[serde(serialize_with)]`).
pub(crate) fn separators<S: Serializer>(
    list: &[Separator],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    List(list).serialize(serializer)
}

/// A separator list as written: `{ pattern, regex, level? }` each.
struct List<'a>(&'a [Separator]);

impl Serialize for List<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Written))
    }
}

struct Written<'a>(&'a Separator);

impl Serialize for Written<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let sep = self.0;
        let mut s = serializer.serialize_struct("Separator", 3)?;
        s.serialize_field("pattern", &sep.pattern)?;
        s.serialize_field("regex", &sep.regex)?;
        field(&mut s, "level", &sep.level.map(SeparatorLevel::name))?;
        s.end()
    }
}

/// Reads the value of `config.<name>`, naming the field in the message when
/// it cannot be read. `null` (and JavaScript's `undefined`) read as "not
/// given".
fn read<'de, A, T>(map: &mut A, name: &str) -> Result<Option<T>, A::Error>
where
    A: MapAccess<'de>,
    T: Deserialize<'de>,
{
    map.next_value::<Option<T>>()
        .map_err(|e| de::Error::custom(format!("config.{name}: {}", message(&e))))
}

/// [`read`] for a name core parses (a strategy, a unit, …).
fn read_name<'de, A, T>(map: &mut A, name: &str) -> Result<Option<T>, A::Error>
where
    A: MapAccess<'de>,
    T: FromStr<Err = String>,
{
    read::<A, String>(map, name)?
        .map(|text| {
            text.parse()
                .map_err(|why| de::Error::custom(format!("config.{name}: {why}")))
        })
        .transpose()
}

/// The text of a deserialization error. serde-wasm-bindgen's errors are JS
/// `Error` objects whose string form starts with `Error: `; that prefix would be
/// repeated at every level of a nested message, so it is dropped.
fn message(e: &impl fmt::Display) -> String {
    let text = e.to_string();
    match text.strip_prefix("Error: ") {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

impl<'de> Deserialize<'de> for Settings {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(SettingsVisitor)
    }
}

struct SettingsVisitor;

impl<'de> Visitor<'de> for SettingsVisitor {
    type Value = Settings;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a configuration object such as {{ size: 400, overlap: 40 }}"
        )
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Settings, A::Error> {
        let mut o = Settings::default();
        let count = |c: Option<Count>| c.map(|c| c.0);
        let list = |l: Option<SeparatorList>| l.map(|l| l.0);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "strategy" => o.strategy = read_name(&mut map, "strategy")?,
                "size" => o.size = count(read(&mut map, "size")?),
                "overlap" => o.overlap = count(read(&mut map, "overlap")?),
                "unit" => o.unit = read_name(&mut map, "unit")?,
                "separators" => o.separators = list(read(&mut map, "separators")?),
                "placement" => o.placement = read_name(&mut map, "placement")?,
                "trim" => o.trim = read(&mut map, "trim")?,
                "each_line" => o.each_line = read(&mut map, "each_line")?,
                "then_recursive" => o.then_recursive = list(read(&mut map, "then_recursive")?),
                "heading_prefix" => o.heading_prefix = read(&mut map, "heading_prefix")?,
                "table_header" => o.table_header = read_name(&mut map, "table_header")?,
                "semantic" => o.semantic = read(&mut map, "semantic")?,
                "min_characters_per_chunk" => {
                    o.min_characters_per_chunk = count(read(&mut map, "min_characters_per_chunk")?)
                }
                other => {
                    return Err(de::Error::custom(format!(
                        "config has no field {other:?}; the fields are {}",
                        Settings::FIELDS.join(", ")
                    )))
                }
            }
        }
        Ok(o)
    }
}

impl<'de> Deserialize<'de> for SemanticSettings {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(SemanticVisitor)
    }
}

struct SemanticVisitor;

impl<'de> Visitor<'de> for SemanticVisitor {
    type Value = SemanticSettings;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object such as { breakpoint: \"percentile\", amount: 90, buffer: 1 }")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SemanticSettings, A::Error> {
        let mut o = SemanticSettings::default();
        let count = |c: Option<Count>| c.map(|c| c.0);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "breakpoint" => {
                    o.breakpoint = sub_read::<_, String>(&mut map, "breakpoint")?
                        .map(|name| name.parse().map_err(de::Error::custom))
                        .transpose()?
                }
                "amount" => o.amount = sub_read(&mut map, "amount")?,
                "buffer" => o.buffer = count(sub_read(&mut map, "buffer")?),
                "number_of_chunks" => {
                    o.number_of_chunks = count(sub_read(&mut map, "number_of_chunks")?)
                }
                "min_chunk_size" => o.min_chunk_size = count(sub_read(&mut map, "min_chunk_size")?),
                "embedder" => o.embedder = sub_read(&mut map, "embedder")?,
                other => {
                    return Err(de::Error::custom(format!(
                        "it has no field {other:?}; the fields are {}",
                        SemanticSettings::FIELDS.join(", ")
                    )))
                }
            }
        }
        Ok(o)
    }
}

/// [`read`] inside `config.semantic`: the outer read names `config.semantic`,
/// this names the field within it.
fn sub_read<'de, A, T>(map: &mut A, name: &str) -> Result<Option<T>, A::Error>
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
        let mut list = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
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

/// One separator: a string (a literal), or `{ pattern, regex? }`, or
/// `{ level: "sentence" }`.
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
            let Some(level) = SeparatorLevel::from_name(&name) else {
                return Err(de::Error::custom(format!(
                    "unknown separator level {name:?}: the level is \"sentence\""
                )));
            };
            // The echo writes the level with an empty pattern, and reads
            // back; anything else beside a level is a mistake.
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
    use crate::config::Config;
    use serde_json::json;

    fn settings(value: serde_json::Value) -> Result<Settings, String> {
        serde_json::from_value(value).map_err(|e| message(&e))
    }

    fn config(value: serde_json::Value) -> Result<Config, String> {
        settings(value)?.resolve().map_err(|e| e.message)
    }

    #[test]
    fn the_sentence_strategy_and_level() {
        let c = config(json!({ "strategy": "sentence" })).unwrap();
        assert_eq!(c.kind(), Strategy::Sentence);
        assert_eq!(c.separators[0], Separator::sentence());
        let c = config(json!({ "separators": ["\n\n", { "level": "sentence" }, " "] })).unwrap();
        assert_eq!(c.separators[1], Separator::sentence());
        // A string is always a literal: the way to the level is the object.
        let c = config(json!({ "separators": ["\\p{sentence}"] })).unwrap();
        assert_eq!(c.separators[0], Separator::literal("\\p{sentence}"));
        let e = config(json!({ "separators": [{ "level": "paragraph" }] })).unwrap_err();
        assert!(e.contains("unknown separator level"), "{e}");
        let e =
            config(json!({ "separators": [{ "level": "sentence", "pattern": "x" }] })).unwrap_err();
        assert!(e.contains("not both"), "{e}");
        let echo =
            json!({ "separators": [{ "pattern": "", "regex": false, "level": "sentence" }] });
        assert_eq!(config(echo).unwrap().separators, [Separator::sentence()]);
    }

    #[test]
    fn then_recursive_turns_on_the_markdown_recipe() {
        let c = config(json!({
            "strategy": "langchain-markdown", "size": 30,
            "then_recursive": [", ", {"pattern": "\\s+", "regex": true}]
        }))
        .unwrap();
        assert_eq!(
            c.header_split_config().unwrap().then_recursive,
            Some(vec![Separator::literal(", "), Separator::regex("\\s+")])
        );
        let c = config(json!({"strategy": "langchain-markdown", "then_recursive": []})).unwrap();
        assert_eq!(
            c.header_split_config().unwrap().then_recursive,
            Some(Vec::new())
        );
        let c = config(json!({"strategy": "langchain-markdown", "then_recursive": null})).unwrap();
        assert_eq!(c.header_split_config().unwrap().then_recursive, None);
        let e = config(json!({"then_recursive": 3})).unwrap_err();
        assert!(e.starts_with("config.then_recursive:"), "{e}");
    }

    #[test]
    fn an_empty_object_gives_the_defaults() {
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
        assert_eq!(c.kind(), Strategy::Fixed);
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
        assert_eq!(
            e,
            "config has no field \"sise\"; the fields are strategy, size, overlap, unit, \
             separators, placement, trim, each_line, then_recursive, heading_prefix, \
             table_header, semantic, min_characters_per_chunk"
        );
        let e = config(json!({"separators": [{"pattern": "x", "regexp": true}]})).unwrap_err();
        assert!(
            e.contains("separators: [0]") && e.contains("\"regexp\""),
            "{e}"
        );
        let e = config(json!({"strategy": "semantic", "semantic": {"buffr": 1}})).unwrap_err();
        assert!(e.contains("the fields are breakpoint"), "{e}");
    }

    #[test]
    fn wrong_values_name_the_field() {
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
        // A name is read by core's parser, whose words follow the field.
        let e = config(json!({"strategy": "late"})).unwrap_err();
        assert_eq!(
            e,
            format!(
                "config.strategy: {}",
                "late".parse::<Strategy>().unwrap_err()
            )
        );
        let e = config(json!({"strategy": "semantic", "semantic": {"breakpoint": "mean"}}))
            .unwrap_err();
        assert!(e.contains("unknown breakpoint \"mean\""), "{e}");
    }

    #[test]
    fn errors_name_their_field() {
        let field = |value| match settings(value) {
            Err(message) => SettingsError::from_message(message).field,
            Ok(s) => s.resolve().unwrap_err().field,
        };
        assert_eq!(field(json!({"size": "big"})), "size");
        assert_eq!(field(json!({"separators": ["a", 7]})), "separators");
        assert_eq!(field(json!({"sise": 40})), "config");
        assert_eq!(field(json!({"strategy": "late"})), "strategy");
        assert_eq!(field(json!({"unit": "words"})), "unit");
        assert_eq!(field(json!({"placement": "left"})), "placement");
        assert_eq!(field(json!({"heading_prefix": true})), "heading_prefix");
        assert_eq!(field(json!({"semantic": {}})), "semantic");
        assert_eq!(
            field(json!({"min_characters_per_chunk": -1})),
            "min_characters_per_chunk"
        );
        assert_eq!(
            field(json!({"min_characters_per_chunk": 5})),
            "min_characters_per_chunk"
        );
    }

    #[test]
    fn min_characters_per_chunk_is_read_and_echoed_for_chonkie() {
        let c = config(json!({"strategy": "chonkie-recursive", "min_characters_per_chunk": 3.0}))
            .unwrap();
        assert_eq!(c.chonkie_config().unwrap().min_characters_per_chunk, 3);
        let echo = serde_json::to_value(Settings::echo(&c)).unwrap();
        assert_eq!(echo["min_characters_per_chunk"], json!(3));
        assert_eq!(config(echo).unwrap(), c);
        // At chonkie's default it is left out of the echo.
        let c = config(json!({"strategy": "chonkie-recursive"})).unwrap();
        let echo = serde_json::to_value(Settings::echo(&c)).unwrap();
        assert!(echo.get("min_characters_per_chunk").is_none(), "{echo}");
        for bad in [json!(-1), json!(2.5), json!("24")] {
            let e =
                config(json!({"strategy": "chonkie-recursive", "min_characters_per_chunk": bad}))
                    .unwrap_err();
            assert!(
                e.starts_with("config.min_characters_per_chunk:") && e.contains("whole number"),
                "{e}"
            );
        }
    }

    #[test]
    fn the_echo_is_written_as_the_report_has_always_written_it_and_reads_back() {
        let mut c = Config::for_strategy(Strategy::Semantic);
        c.size = 60;
        c.semantic_config_mut().unwrap().min_chunk_size = Some(10);
        let echo = serde_json::to_value(Settings::echo(&c)).unwrap();
        assert_eq!(
            echo,
            json!({
                "strategy": "semantic", "size": 60, "overlap": 0, "unit": "chars",
                "separators": [
                    {"pattern": "\n\n", "regex": false}, {"pattern": "\n", "regex": false},
                    {"pattern": " ", "regex": false}, {"pattern": "", "regex": false}
                ],
                "placement": "end", "trim": true,
                "semantic": {
                    "breakpoint": "percentile", "amount": 95.0, "buffer": 1,
                    "number_of_chunks": null, "min_chunk_size": 10, "embedder": "lexical"
                }
            })
        );
        let mut back = config(echo).unwrap();
        let own = back.semantic_config_mut().unwrap();
        assert_eq!(own.amount, Some(95.0));
        own.amount = None;
        assert_eq!(back, c);
    }
}
