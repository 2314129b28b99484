//! The one place the engine is called for the JavaScript API, the worker and
//! the playground, and what a call gives back.
//!
//! [`analyze`] splits a text at a chosen [`Detail`] and returns an
//! [`Analysis`]: the engine's own output plus what every consumer derives from
//! it (the checks, char offsets). The worker sends it on as a report (a plain
//! object, or the compact [`crate::wire`] encoding of the same fields); the
//! playground draws from it. Nothing here depends on a browser, so it is
//! tested natively.

use chunkscope::{Check, Config, Error, Property, Resources, Separator, Splitter};
use std::fmt;
use std::str::FromStr;

/// How much a request asks for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Detail {
    /// Only the chunks: no trace, no checks (the fast path for pipelines).
    Chunks,
    /// Chunks, trace, configuration, and the checks of this one run. The
    /// determinism check needs a second run, so it is left out: it reads
    /// [`NOT_CHECKED`] and does not pass until asked for with
    /// [`Detail::Determinism`]. For long texts whose chunks should be on
    /// screen before a second run. With a token unit, each chunk's token ends.
    Trace,
    /// Everything: chunks, trace, configuration and every check (the text is
    /// split twice, the second run for the determinism check), and with a
    /// token unit each chunk's token ends.
    #[default]
    Full,
    /// Only the determinism check: the text is split twice and the runs are
    /// compared.
    Determinism,
}

impl Detail {
    /// Every level, in the order the docs list them.
    pub const ALL: [Detail; 4] = [
        Detail::Chunks,
        Detail::Trace,
        Detail::Full,
        Detail::Determinism,
    ];

    /// The value of a request's `detail` field.
    pub const fn name(self) -> &'static str {
        match self {
            Detail::Chunks => "chunks",
            Detail::Trace => "trace",
            Detail::Full => "full",
            Detail::Determinism => "determinism",
        }
    }
}

impl fmt::Display for Detail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Detail {
    type Err = String;
    fn from_str(s: &str) -> Result<Detail, String> {
        Detail::ALL
            .into_iter()
            .find(|d| d.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown detail {s:?}: use \"full\", \"trace\", \"chunks\" or \"determinism\""
                )
            })
    }
}

/// What the determinism check says in a [`Detail::Trace`] analysis, where the
/// second run was not made. Not a pass: a check not made proves nothing.
pub const NOT_CHECKED: &str = "not checked yet: the second run is asked for separately";

/// One split of one text: the engine's [`chunkscope::Analysis`] (read
/// through it: `analysis.output`, `analysis.chunk_chars`, …) with the
/// configuration it was made under and what was asked for.
///
/// # Invariants
///
/// `checks` is `None` exactly for [`Detail::Chunks`]; for [`Detail::Trace`]
/// the determinism check reads [`NOT_CHECKED`] and does not pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The configuration the text was split with.
    pub config: Config,
    /// What the engine was asked to record.
    pub asked: chunkscope::Detail,
    /// The engine's analysis.
    pub engine: chunkscope::Analysis,
}

impl std::ops::Deref for Analysis {
    type Target = chunkscope::Analysis;
    fn deref(&self) -> &chunkscope::Analysis {
        &self.engine
    }
}

impl Analysis {
    /// The separators `Cut::Separator` and the trace's indices refer to: the
    /// configured list, or the one a LangChain strategy really used.
    pub fn separators(&self) -> Vec<Separator> {
        self.engine.separators.clone()
    }

    /// Whether the determinism check was made.
    pub fn determinism_checked(&self) -> bool {
        self.checks
            .as_ref()
            .and_then(|c| c.get(Property::Determinism))
            .is_some_and(|d| d.detail != NOT_CHECKED)
    }
}

/// Splits `text` under `config` at `detail`, with the names it gives
/// resolved in what this module holds ([`crate::loaded::held`]). The only
/// call into the engine for the JavaScript API, the worker and the
/// playground.
pub fn analyze(text: &str, config: Config, detail: Detail) -> Result<Analysis, Error> {
    analyze_with(text, config, detail, &crate::loaded::held())
}

/// [`analyze`] with the names resolved in `resources`.
pub fn analyze_with(
    text: &str,
    config: Config,
    detail: Detail,
    resources: &Resources,
) -> Result<Analysis, Error> {
    let splitter = splitter_for(config, resources)?;
    let asked = match detail {
        Detail::Chunks => chunkscope::Detail::CHUNKS,
        // With a token unit the page draws each chunk's tokens as the engine
        // counted them.
        Detail::Trace => chunkscope::Detail::FULL.with_tokens(true),
        Detail::Full => chunkscope::Detail::FULL
            .with_determinism(true)
            .with_tokens(true),
        Detail::Determinism => chunkscope::Detail::FULL.with_determinism(true),
    };
    let mut engine = splitter.analyze(text, asked)?;
    if let (Detail::Trace, Some(checks)) = (detail, engine.checks.as_mut()) {
        checks.set(
            Property::Determinism,
            Check {
                ok: false,
                detail: NOT_CHECKED.into(),
            },
        );
    }
    Ok(Analysis {
        config: splitter.config().clone(),
        asked,
        engine,
    })
}

thread_local! {
    /// The last configuration compiled, so that a caller splitting text
    /// after text under the same settings (a worker answering keystrokes, a
    /// pipeline calling `split()` in a loop) compiles its regexes once.
    static LAST: std::cell::RefCell<Option<std::rc::Rc<Splitter>>> = const { std::cell::RefCell::new(None) };
}

/// The splitter for `config`: the last one when the configuration is the
/// same, else a new one (which is kept). Names resolve to the same things
/// for as long as they are held: a tokenizer's tables never change, a model
/// loaded again gets a new name, and a configuration naming something not
/// held is refused, so it is never kept.
fn splitter_for(config: Config, resources: &Resources) -> Result<std::rc::Rc<Splitter>, Error> {
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        let same = |s: &&std::rc::Rc<Splitter>| {
            *s.config() == config
                && config
                    .semantic_config()
                    .is_none_or(|own| resources.holds(&own.embedder))
        };
        if let Some(splitter) = last.as_ref().filter(same) {
            return Ok(splitter.clone());
        }
        let splitter = std::rc::Rc::new(Splitter::new(config, resources)?);
        *last = Some(splitter.clone());
        Ok(splitter)
    })
}

/// A refusal: what to change, and the setting it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// What to change.
    pub message: String,
    /// The setting to change (`size`, `overlap`, `unit`, `separators`, …),
    /// if one is to blame.
    pub field: Option<String>,
    /// When one separator is to blame (a regex that does not compile, a
    /// header marker that is not one), its index in the list.
    pub separator: Option<usize>,
}

impl Refusal {
    /// A refusal about `field`.
    pub fn new(field: Option<&str>, message: impl Into<String>) -> Refusal {
        Refusal {
            message: message.into(),
            field: field.map(str::to_string),
            separator: None,
        }
    }
}

impl From<Error> for Refusal {
    fn from(error: Error) -> Refusal {
        let separator = match error.setting() {
            chunkscope::Setting::Separator(index) => Some(index),
            _ => None,
        };
        Refusal {
            separator,
            ..Refusal::new(Some(field_of(&error)), error.to_string())
        }
    }
}

/// The answer to a split request, before it is put into a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The analysis, for [`Detail::Chunks`], [`Detail::Trace`] and
    /// [`Detail::Full`].
    Report(Box<Analysis>),
    /// The determinism check, for [`Detail::Determinism`].
    Determinism(Check),
    /// The engine refused the configuration or the text.
    Refused(Refusal),
}

/// Answers a split request: what a worker sends back, whichever way it is
/// encoded.
pub fn answer(text: &str, config: Config, detail: Detail) -> Answer {
    match analyze(text, config, detail) {
        Err(e) => Answer::Refused(e.into()),
        Ok(a) if detail == Detail::Determinism => Answer::Determinism(match a.engine.checks {
            Some(checks) => checks[Property::Determinism].clone(),
            // A determinism analysis always carries its checks; were it ever
            // without, the answer is a failed check rather than a silent pass.
            None => Check {
                ok: false,
                detail: "the second run was not made".into(),
            },
        }),
        Ok(a) => Answer::Report(Box::new(a)),
    }
}

/// The setting a refusal is about, as an error's `field` names it: `size`,
/// `overlap`, `unit` or `separators`. The engine says which
/// ([`Error::setting`]); nothing is matched by message.
pub fn field_of(error: &Error) -> &'static str {
    error.setting().field()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkscope::Cut;

    const PAGE: &str = "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n\
                        COD orders get store credit.\n\nContact us 24x7.";

    fn seed() -> Config {
        Config::recursive(40).with_separators(["\n\n", "\n", ". ", " ", ""])
    }

    #[test]
    fn full_gives_the_lessons_chunks_checked_twice() {
        let a = analyze(PAGE, seed(), Detail::Full).unwrap();
        assert_eq!(
            a.chunk_chars,
            [(0, 13), (15, 35), (36, 67), (68, 96), (98, 114)]
        );
        assert_eq!(a.output.chunks[1].cut, Cut::Separator(2));
        assert_eq!(a.node_chars[0], (0, 114));
        let checks = a.checks.as_ref().unwrap();
        assert!(checks.all_ok());
        assert!(a.determinism_checked());
        assert_eq!(a.separators().len(), 5);
    }

    #[test]
    fn trace_leaves_determinism_unchecked_and_chunks_leave_out_the_rest() {
        let a = analyze(PAGE, seed(), Detail::Trace).unwrap();
        let checks = a.checks.as_ref().unwrap();
        assert!(
            checks[Property::Coverage].ok
                && checks[Property::MaxSize].ok
                && checks[Property::Order].ok
        );
        let determinism = &checks[Property::Determinism];
        assert_eq!(
            (determinism.ok, determinism.detail.as_str()),
            (false, NOT_CHECKED)
        );
        assert!(!a.determinism_checked());
        assert_eq!(
            a.output,
            analyze(PAGE, seed(), Detail::Full).unwrap().output
        );

        let c = analyze(PAGE, seed(), Detail::Chunks).unwrap();
        assert_eq!(c.checks, None);
        assert!(c.output.trace.nodes.is_empty() && c.node_chars.is_empty());
        assert_eq!(c.chunk_chars, a.chunk_chars);
        assert!(c.output.chunks.iter().all(|ch| ch.node.is_none()));
    }

    #[test]
    fn refusals_name_their_setting() {
        let refused = |config: Config, text: &str| {
            let e = analyze(text, config, Detail::Full).unwrap_err();
            (field_of(&e), e.to_string())
        };
        assert_eq!(refused(Config::recursive(0), "a").0, "size");
        assert_eq!(refused(Config::fixed(4, 4), "a").0, "overlap");
        assert_eq!(
            refused(
                Config::recursive(4).with_separators(Vec::<&str>::new()),
                "a"
            )
            .0,
            "separators"
        );
        let (field, message) = refused(
            Config::recursive(2).with_unit(chunkscope::Unit::Bytes),
            "ab😀",
        );
        assert_eq!(field, "unit");
        assert!(message.contains("4 bytes"), "{message}");
        let mut lc = Config::for_strategy(chunkscope::Strategy::LangChain);
        lc.size = 10;
        lc.overlap = 11;
        assert_eq!(refused(lc, "a").0, "overlap");
    }

    #[test]
    fn a_configuration_is_compiled_once_for_text_after_text() {
        let first = splitter_for(seed(), &Resources::new()).unwrap();
        let again = splitter_for(seed(), &Resources::new()).unwrap();
        assert!(std::rc::Rc::ptr_eq(&first, &again));
        let other = splitter_for(seed().with_overlap(2), &Resources::new()).unwrap();
        assert!(!std::rc::Rc::ptr_eq(&first, &other));
        assert_eq!(other.config().overlap, 2);
        // A refusal is not kept: the settings before it are still compiled.
        assert!(splitter_for(Config::recursive(0), &Resources::new()).is_err());
        assert!(std::rc::Rc::ptr_eq(
            &other,
            &splitter_for(seed().with_overlap(2), &Resources::new()).unwrap()
        ));
    }

    #[test]
    fn details_read_back_from_their_names() {
        for d in Detail::ALL {
            assert_eq!(d.name().parse::<Detail>(), Ok(d));
        }
        assert!("everything"
            .parse::<Detail>()
            .unwrap_err()
            .contains("\"trace\""));
        assert_eq!(Detail::default(), Detail::Full);
    }
}
