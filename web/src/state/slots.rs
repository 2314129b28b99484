//! One slot per engine: its last good split, the request waiting for the
//! worker's answer, and the determinism check asked for after the split.
//!
//! The reducer never splits. It writes a [`Request`] into the slot; the page
//! posts it to the worker (`crate::engine`) and the answer comes back as an
//! action naming the request's id. Only the answer to a slot's latest request
//! is taken: an older one (the learner typed on) is dropped unread.

use crate::text::Text;
use chunkscope::{Check, Checks, Config, Property, Separator, Strategy};
use chunkscope_wasm::contract::{Analysis, Detail};
use std::ops::Deref;
use std::rc::Rc;

/// Texts at least this long (bytes) get their determinism check after the
/// chunks are on screen: the check splits the whole text a second time, which
/// for megabytes would double the wait before anything is drawn.
pub const RECHECK_LATER_BYTES: usize = 512 * 1024;

/// A split for the worker to make: what `chunkscope_wasm::message` sends.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// Increases with every request the page makes, so an answer names the
    /// request it answers.
    pub id: u32,
    /// The text, shared with the state (never copied per request).
    pub text: Text,
    /// The configuration.
    pub config: Config,
    /// How much to send back.
    pub detail: Detail,
}

impl Request {
    /// The detail a first split of `text` asks for: everything, except that a
    /// long text's second run (the determinism check) is asked for once its
    /// chunks are drawn.
    pub fn detail_for(text: &str) -> Detail {
        if text.len() >= RECHECK_LATER_BYTES {
            Detail::Trace
        } else {
            Detail::Full
        }
    }
}

/// One finished split of one text, with what the page derives from it once.
#[derive(Clone, Debug)]
pub struct Split {
    /// The text that was split. A split keeps its own text so that an old result
    /// stays drawable (dimmed) while the learner fixes a bad setting.
    pub text: Text,
    /// The worker's analysis: configuration, chunks, trace, checks, char offsets.
    pub analysis: Analysis,
    /// The separators `Cut::Separator` and the trace's indices refer to: the
    /// configured list, or the one a LangChain strategy really used (its
    /// default list when none is given, only the first for
    /// `CharacterTextSplitter`). Labels, colours and counts read this list.
    pub separators: Vec<Separator>,
    /// How long the worker took to make it, in milliseconds, when it said.
    pub worker_ms: Option<f64>,
    /// Its numbers, computed the first time they are drawn: placing its
    /// cuts reads the sentences of the whole text, once per split however
    /// many views show them.
    stats: std::cell::OnceCell<crate::model::Stats>,
}

impl Deref for Split {
    type Target = Analysis;
    fn deref(&self) -> &Analysis {
        &self.analysis
    }
}

impl Split {
    /// The split of `text` that `analysis` describes.
    pub fn new(text: Text, analysis: Analysis) -> Split {
        let separators = analysis.separators();
        Split {
            text,
            analysis,
            separators,
            worker_ms: None,
            stats: std::cell::OnceCell::new(),
        }
    }

    /// The same split, saying how long the worker took.
    pub fn with_worker_ms(self, ms: Option<f64>) -> Split {
        Split {
            worker_ms: ms,
            ..self
        }
    }

    /// Its lengths and cuts ([`crate::model::stats`]).
    pub fn stats(&self) -> &crate::model::Stats {
        self.stats.get_or_init(|| crate::model::stats(self))
    }

    /// Reads a worker's binary report of `text`.
    pub fn decode(text: Text, report: &[u8]) -> Result<Split, String> {
        let analysis = chunkscope_wasm::wire::decode(report, &text)?;
        Ok(Split::new(text, analysis))
    }

    /// Splits `text` here, as the worker would: for tests, which play the
    /// worker's part natively (the page itself carries no engine).
    #[cfg(test)]
    pub fn now(text: Text, config: Config) -> Result<Split, chunkscope::Error> {
        let analysis = chunkscope_wasm::contract::analyze(&text, config, Detail::Full)?;
        Ok(Split::new(text, analysis))
    }

    /// The engine that made it.
    pub fn strategy(&self) -> Strategy {
        self.config.kind()
    }

    /// Whether this split is of `text` under `config`.
    pub fn is_of(&self, text: &Text, config: &Config) -> bool {
        self.config == *config && self.text == *text
    }
}

/// A split shared between the state and the components. Two handles are equal
/// only when they point at the same split, so a component whose split did not
/// change is not drawn again (comparing the chunks themselves would cost as much
/// as drawing them).
#[derive(Clone, Debug)]
pub struct Shared(pub Rc<Split>);

impl PartialEq for Shared {
    fn eq(&self, other: &Shared) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for Shared {
    type Target = Split;
    fn deref(&self) -> &Split {
        &self.0
    }
}

/// The determinism check of a long text's split, asked for after it arrived.
#[derive(Clone, Debug, PartialEq)]
pub enum Recheck {
    /// Asked for; the worker has not answered yet.
    Waiting(Request),
    /// The answer.
    Done(Check),
}

/// One engine's results.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Slot {
    /// The last good split.
    pub split: Option<Shared>,
    /// The latest request, while its answer is awaited. Only its answer is
    /// taken.
    pub pending: Option<Request>,
    /// The determinism check of `split` when it was left for later.
    pub recheck: Option<Recheck>,
}

impl Slot {
    /// The split and its checks, as the badges judge them.
    pub fn checked(&self) -> Option<Checked> {
        let split = self.split.clone()?;
        let determinism = if split.determinism_checked() {
            split
                .checks
                .as_ref()
                .and_then(|c| c.get(Property::Determinism).cloned())
        } else {
            match &self.recheck {
                Some(Recheck::Done(check)) => Some(check.clone()),
                Some(Recheck::Waiting(_)) | None => None,
            }
        };
        Some(Checked { split, determinism })
    }
}

/// A split with its determinism check, which for a long text arrives after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// The split.
    pub split: Shared,
    /// The determinism check; `None` while the second run is awaited.
    pub determinism: Option<Check>,
}

impl Checked {
    /// The check behind `badge`; `None` while it is awaited.
    pub fn check(&self, badge: Badge) -> Option<&Check> {
        match badge {
            Badge::Determinism => self.determinism.as_ref(),
            other => self.split.checks.as_ref().and_then(|c| other.of(c)),
        }
    }
}

/// One of the five invariant badges: which property of a split it shows.
/// What each is called and means is the badges' own business
/// (`components::badges`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Badge {
    /// No text lost.
    Coverage,
    /// No chunk over the size.
    MaxSize,
    /// Chunks in source order.
    Order,
    /// Overlap only as configured.
    Overlap,
    /// Same input, same output.
    Determinism,
}

impl Badge {
    /// Every badge, in the order they are drawn.
    pub const ALL: [Badge; 5] = [
        Badge::Coverage,
        Badge::MaxSize,
        Badge::Order,
        Badge::Overlap,
        Badge::Determinism,
    ];

    /// The check behind the badge; `None` for determinism when no second
    /// run was compared.
    pub fn of(self, checks: &Checks) -> Option<&Check> {
        checks.get(self.property())
    }

    /// The property the badge shows.
    pub const fn property(self) -> Property {
        match self {
            Badge::Coverage => Property::Coverage,
            Badge::MaxSize => Property::MaxSize,
            Badge::Order => Property::Order,
            Badge::Overlap => Property::Overlap,
            Badge::Determinism => Property::Determinism,
        }
    }
}

/// Every engine's slot (in the order of `Strategy::ALL`). Switching views keeps
/// the other engines' splits, so coming back to one whose settings did not
/// change costs nothing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Slots([Slot; Strategy::ALL.len()]);

impl Slots {
    fn index(strategy: Strategy) -> usize {
        Strategy::ALL
            .iter()
            .position(|&s| s == strategy)
            .unwrap_or_default()
    }

    /// The slot of `strategy`.
    pub fn get(&self, strategy: Strategy) -> &Slot {
        &self.0[Slots::index(strategy)]
    }

    /// The slot of `strategy`, to change.
    pub fn get_mut(&mut self, strategy: Strategy) -> &mut Slot {
        &mut self.0[Slots::index(strategy)]
    }

    /// Every slot.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Slot> {
        self.0.iter_mut()
    }

    /// The slot whose latest request (a split or a determinism check) is `id`.
    pub fn awaiting(&mut self, id: u32) -> Option<&mut Slot> {
        self.0.iter_mut().find(|slot| {
            slot.pending.as_ref().is_some_and(|r| r.id == id)
                || matches!(&slot.recheck, Some(Recheck::Waiting(r)) if r.id == id)
        })
    }

    /// Every request waiting for an answer, oldest first.
    pub fn requests(&self) -> Vec<Request> {
        let mut all: Vec<Request> = self
            .0
            .iter()
            .flat_map(|slot| {
                let recheck = match &slot.recheck {
                    Some(Recheck::Waiting(r)) => Some(r.clone()),
                    _ => None,
                };
                slot.pending.clone().into_iter().chain(recheck)
            })
            .collect();
        all.sort_by_key(|r| r.id);
        all
    }
}
