//! The playground's state and the one pure function that changes it.
//!
//! Every user gesture becomes an [`Action`]; [`reduce`] turns the old [`State`]
//! and the action into the new state, and re-splits when the text or the
//! settings changed. Keeping this free of the DOM means it is tested natively,
//! and the components only draw what is here.

use crate::invalid::{Field, Problem};
use crate::presets;
use crate::share::Snapshot;
use chunkscope::tokens::Encoding;
use chunkscope::{
    check, Analysis, Check, Checks, Config, Counter, Detail, Error, NodeId, Output, Placement,
    Property, Separator, Splitter, Strategy, Unit,
};
use std::collections::BTreeSet;
use std::ops::Deref;
use std::rc::Rc;

/// What the page shows: one strategy, or two side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Fixed windows only.
    Fixed,
    /// Recursive splitting only.
    Recursive,
    /// LangChain's `RecursiveCharacterTextSplitter`, exactly.
    LangChain,
    /// LangChain's `CharacterTextSplitter`, exactly.
    LangChainCharacter,
    /// Fixed and recursive on the same text and settings, side by side.
    Compare,
    /// Our recursive splitter and LangChain's on the same text and settings.
    CompareLangChain,
}

impl View {
    /// Every view, in menu order.
    pub const ALL: [View; 6] = [
        View::Fixed,
        View::Recursive,
        View::LangChain,
        View::LangChainCharacter,
        View::Compare,
        View::CompareLangChain,
    ];

    /// The option value in `strategy-select`: a strategy's own name for a
    /// single view.
    pub const fn name(self) -> &'static str {
        match self {
            View::Fixed => Strategy::Fixed.name(),
            View::Recursive => Strategy::Recursive.name(),
            View::LangChain => Strategy::LangChain.name(),
            View::LangChainCharacter => Strategy::LangChainCharacter.name(),
            View::Compare => "compare",
            View::CompareLangChain => "compare-langchain",
        }
    }

    /// What the learner reads in the menu.
    pub const fn title(self) -> &'static str {
        match self {
            View::Fixed => "Fixed windows",
            View::Recursive => "Recursive separators",
            View::LangChain => "LangChain RecursiveCharacterTextSplitter",
            View::LangChainCharacter => "LangChain CharacterTextSplitter",
            View::Compare => "Compare fixed and recursive side by side",
            View::CompareLangChain => "Compare recursive and LangChain side by side",
        }
    }

    /// What one engine is called on the page: the title of the view that
    /// shows it alone.
    pub fn title_of(strategy: Strategy) -> &'static str {
        View::ALL
            .into_iter()
            .find(|v| v.strategies() == [strategy])
            .map_or(strategy.name(), View::title)
    }

    /// The view with this option value.
    pub fn parse(name: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The engines this view needs, in the order their panes are drawn.
    pub const fn strategies(self) -> &'static [Strategy] {
        match self {
            View::Fixed => &[Strategy::Fixed],
            View::Recursive => &[Strategy::Recursive],
            View::LangChain => &[Strategy::LangChain],
            View::LangChainCharacter => &[Strategy::LangChainCharacter],
            View::Compare => &[Strategy::Fixed, Strategy::Recursive],
            View::CompareLangChain => &[Strategy::Recursive, Strategy::LangChain],
        }
    }

    /// The engine the single-result views (tree, table, stats, code) describe:
    /// the right-hand pane when two are shown, since that is the one the
    /// comparison is about (recursive against fixed, LangChain against ours).
    pub const fn primary(self) -> Strategy {
        match self {
            View::Fixed => Strategy::Fixed,
            View::Recursive | View::Compare => Strategy::Recursive,
            View::LangChain | View::CompareLangChain => Strategy::LangChain,
            View::LangChainCharacter => Strategy::LangChainCharacter,
        }
    }

    /// Whether two engines are shown side by side.
    pub const fn is_compare(self) -> bool {
        self.strategies().len() > 1
    }

    /// Whether one of the engines shown is a LangChain class, so the controls
    /// speak LangChain's words (`keep_separator`, `strip_whitespace`).
    pub fn shows_langchain(self) -> bool {
        self.strategies().iter().any(|s| s.langchain().is_some())
    }
}

/// Texts at least this long (bytes) get their determinism check after the
/// chunks are on screen: the check splits the whole text a second time, which
/// for megabytes would double the wait before anything is drawn.
pub const RECHECK_LATER_BYTES: usize = 512 * 1024;

/// One finished split of one text, with what the page derives from it once.
#[derive(Clone, Debug)]
pub struct Split {
    /// The text that was split. A split keeps its own text so that an old result
    /// stays drawable (dimmed) while the learner fixes a bad setting.
    pub text: Rc<str>,
    /// The configuration it was split with.
    pub config: Config,
    /// What its lengths are counted with.
    pub counter: Counter,
    /// The chunks and the trace.
    pub output: Output,
    /// The separators `Cut::Separator` and the trace's indices refer to: the
    /// configured list, or the one a LangChain strategy really used (its
    /// default list when none is given, only the first for
    /// `CharacterTextSplitter`). Labels, colours and counts read this list.
    pub separators: Vec<Separator>,
    /// The invariant checks (the determinism check splits a second time).
    pub checks: Checks,
    /// True while the determinism check waits for its second run (long texts,
    /// see [`RECHECK_LATER_BYTES`]); `checks.determinism` then says so and is
    /// not a pass. [`Action::Rechecked`] brings the result.
    pub rechecking: bool,
    /// Each chunk's span in chars (half-open), for `data-start`/`data-end`.
    pub chunk_chars: Vec<(usize, usize)>,
    /// Each trace node's span in chars.
    pub node_chars: Vec<(usize, usize)>,
}

impl Split {
    /// Analyses `text` under `config`: the trace, the checks and char
    /// offsets, with the determinism re-run unless the text is long enough
    /// to leave it for after the first paint.
    pub fn run(text: Rc<str>, config: Config) -> Result<Split, Error> {
        let splitter = Splitter::new(config)?;
        let rechecking = text.len() >= RECHECK_LATER_BYTES;
        let analysis = splitter.analyze(&text, Detail::FULL.with_determinism(!rechecking))?;
        let Analysis {
            output,
            checks,
            chunk_chars,
            node_chars,
            separators,
            ..
        } = analysis;
        let mut checks = checks.expect("asked for");
        if rechecking {
            checks.set(
                Property::Determinism,
                Check {
                    ok: false,
                    detail: "checking: the second run starts once the chunks are drawn".into(),
                },
            );
        }
        Ok(Split {
            text,
            config: splitter.config().clone(),
            counter: splitter.counter(),
            output,
            separators,
            checks,
            rechecking,
            chunk_chars,
            node_chars,
        })
    }

    /// The determinism check, made now: splits the text a second time and
    /// compares. For a split whose check was left for later.
    pub fn recheck(&self) -> Check {
        match Splitter::new(self.config.clone()).and_then(|s| s.split(&self.text)) {
            Ok(again) => check(&self.text, &self.config, &self.output)
                .with_again(&self.output, &again)[Property::Determinism]
                .clone(),
            Err(e) => Check {
                ok: false,
                detail: format!("the second run failed: {e}"),
            },
        }
    }

    /// The engine that made it.
    pub fn strategy(&self) -> Strategy {
        self.config.strategy
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

/// The last good split of every engine, one slot per strategy (in the order
/// of `Strategy::ALL`). Switching views keeps the other engines' splits, so
/// coming back to one whose settings did not change costs nothing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Splits([Option<Shared>; Strategy::ALL.len()]);

impl Splits {
    fn slot(strategy: Strategy) -> Option<usize> {
        Strategy::ALL.iter().position(|&s| s == strategy)
    }

    /// The split of `strategy`, if one was made.
    pub fn get(&self, strategy: Strategy) -> Option<&Shared> {
        Splits::slot(strategy).and_then(|i| self.0[i].as_ref())
    }

    /// Replaces the split of `strategy`.
    pub fn set(&mut self, strategy: Strategy, split: Shared) {
        if let Some(i) = Splits::slot(strategy) {
            self.0[i] = Some(split);
        }
    }
}

/// The settings as the learner typed them. Numbers stay text until a split is
/// made, so that an empty or half-typed field is reported, never clamped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The size field, as typed.
    pub size: String,
    /// The overlap field, as typed.
    pub overlap: String,
    /// What size and overlap count.
    pub unit: Unit,
    /// The recursive engine's separators, strongest first.
    pub separators: Vec<Separator>,
    /// Where a separator goes at a cut.
    pub placement: Placement,
    /// Whether whitespace at the ends of pieces is trimmed.
    pub trim: bool,
}

impl Settings {
    /// The engine configuration for `strategy`, or what to fix. The engine
    /// checks the rest (size 0, overlap ≥ size, …).
    pub fn config(&self, strategy: Strategy) -> Result<Config, Problem> {
        let config = self.parsed(strategy)?;
        config.validate()?;
        Ok(config)
    }

    /// The configuration as typed, with its numbers read but not yet validated.
    pub fn parsed(&self, strategy: Strategy) -> Result<Config, Problem> {
        let count = |field, name, raw: &str| {
            parse_count(name, raw, self.unit).map_err(|message| Problem::new(field, message))
        };
        Ok(Config {
            strategy,
            size: count(Field::Size, "size", &self.size)?,
            overlap: count(Field::Overlap, "overlap", &self.overlap)?,
            unit: self.unit,
            separators: self.separators.clone(),
            placement: self.placement,
            trim: self.trim,
        })
    }

    /// The separator preset whose list this is, if any.
    pub fn separator_preset(&self) -> Option<&'static str> {
        chunkscope::presets::SEPARATOR_PRESETS
            .into_iter()
            .find(|name| chunkscope::presets::separators(name).as_ref() == Some(&self.separators))
    }
}

/// Reads a whole number typed into the `field` input. Anything else is an error
/// that says what to type: a learner should see why nothing changed.
pub fn parse_count(field: &str, raw: &str, unit: Unit) -> Result<usize, String> {
    let typed = raw.trim();
    if typed.is_empty() {
        let example = if field == "overlap" { "0" } else { "40" };
        return Err(format!(
            "{field} is empty: type a whole number of {unit}, such as {example}"
        ));
    }
    if typed.starts_with('-') && typed[1..].bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{field} cannot be negative ({typed}): it counts {unit}, so use 0 or more"
        ));
    }
    typed.parse::<usize>().map_err(|_| {
        if typed.bytes().all(|b| b.is_ascii_digit()) {
            format!("{field} ({typed}) is too large to count with")
        } else {
            format!("{field} must be a whole number of {unit}, such as 40, not {typed:?}")
        }
    })
}

/// One of the five invariant badges.
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

    /// The badge's `data-testid`.
    pub const fn test_id(self) -> &'static str {
        match self {
            Badge::Coverage => "badge-coverage",
            Badge::MaxSize => "badge-max-size",
            Badge::Order => "badge-order",
            Badge::Overlap => "badge-overlap",
            Badge::Determinism => "badge-determinism",
        }
    }

    /// Its short title.
    pub const fn title(self) -> &'static str {
        match self {
            Badge::Coverage => "no text lost",
            Badge::MaxSize => "size cap held",
            Badge::Order => "in order",
            Badge::Overlap => "overlap as set",
            Badge::Determinism => "repeatable",
        }
    }

    /// What the property promises, and what breaking it would do to retrieval.
    pub const fn meaning(self) -> &'static str {
        match self {
            Badge::Coverage => {
                "Every character that is not whitespace ends up in some chunk. If this failed, \
                 part of the document would never be embedded, so no question could ever find it \
                 (dropping a separator such as \". \" loses the full stops, for example)."
            }
            Badge::MaxSize => {
                "No chunk is longer than the size, counted in the chosen unit. If this failed, a \
                 chunk could overflow the embedding model's input and be silently truncated, or \
                 blow the prompt budget when it is retrieved."
            }
            Badge::Order => {
                "Chunks follow the text from start to end, numbered 0, 1, 2… without gaps, each one \
                 ending after the one before, and each chunk's text is exactly the source between \
                 its offsets. If this failed, neighbours and positions stored next to the vectors \
                 would point at the wrong text."
            }
            Badge::Overlap => {
                "Neighbouring chunks repeat text only when overlap is set, and never more than the \
                 overlap. If this failed, the index would hold duplicated text you did not ask for, \
                 and searches would return the same passage twice."
            }
            Badge::Determinism => {
                "Splitting the same text with the same settings a second time gave the same chunks. \
                 If this failed, re-indexing would change chunk ids and invalidate every stored \
                 vector and cached answer."
            }
        }
    }

    /// What a LangChain strategy does differently here, for a badge that can
    /// go red because LangChain works that way.
    pub const fn langchain_note(self) -> Option<&'static str> {
        match self {
            Badge::MaxSize => Some(
                "LangChain passes a piece that it cannot split any further through whole, even \
                 when it is longer than chunk_size, and only logs a warning (listed under the \
                 chunks). Our splitter cuts such a piece at the size instead.",
            ),
            Badge::Coverage => Some(
                "With keep_separator=False LangChain drops every separator, so one that is more \
                 than whitespace (a full stop, a comma) is lost from the chunks.",
            ),
            Badge::Order | Badge::Overlap | Badge::Determinism => None,
        }
    }

    /// The check behind the badge.
    pub fn of(self, checks: &Checks) -> &Check {
        &checks[self.property()]
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

/// Trees with at most this many nodes open fully; larger ones open the first
/// level only, so a long document's tree stays fast until asked for more.
pub const OPEN_ALL_UP_TO: usize = 400;
/// Children listed under one tree node before "show all".
pub const FIRST_CHILDREN: usize = 50;

/// Whether tree node `id` of `split` shows its children: open by default in a
/// small tree or near the root, unless the learner flipped it.
pub fn tree_open(split: &Split, toggled: &BTreeSet<NodeId>, id: NodeId) -> bool {
    let nodes = &split.output.trace.nodes;
    let depth = nodes.get(id).map_or(1, |n| n.depth);
    let by_default = nodes.len() <= OPEN_ALL_UP_TO || depth < 2;
    by_default != toggled.contains(&id)
}

/// The chunk the learner is pointing at (hover or keyboard focus).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pointed {
    /// Which engine's chunk (in the compare view both are on screen).
    pub strategy: Strategy,
    /// Its index.
    pub index: usize,
}

/// Everything the page shows.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The document (the last committed text of `doc-input`).
    pub text: Rc<str>,
    /// The document preset the text came from, while it is unedited.
    pub document: Option<&'static str>,
    /// Which strategy, or both.
    pub view: View,
    /// The settings as typed.
    pub settings: Settings,
    /// The engine whose default the placement started from: choosing an
    /// engine with another default resets the placement to that default.
    pub placement_from: Strategy,
    /// The last good split of each engine.
    pub splits: Splits,
    /// Why the current settings cannot split, when they cannot, and the
    /// control to fix. The last good splits stay on screen, dimmed.
    pub error: Option<Problem>,
    /// The tree node whose span is highlighted in the document.
    pub selected_node: Option<NodeId>,
    /// Tree nodes whose default open/closed state the learner flipped.
    pub toggled: Rc<BTreeSet<NodeId>>,
    /// Tree nodes whose every child is listed (long lists are cut short).
    pub all_children: Rc<BTreeSet<NodeId>>,
    /// The badge whose explanation is open.
    pub open_badge: Option<Badge>,
    /// The chunk whose details are shown.
    pub pointed: Option<Pointed>,
    /// Whether the chunk table lists every row.
    pub all_rows: bool,
    /// A message about the page itself (a shared link that could not be read).
    pub notice: Option<String>,
    /// Where the tokenizer of a token unit is: fetched only when such a unit
    /// is chosen, so its tables never delay the first paint.
    pub tokenizer: Option<TokenizerStatus>,
    /// Whether the document view draws each chunk's tokens (token units only).
    pub token_overlay: bool,
}

/// The download of a token unit's tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenizerStatus {
    /// Being fetched.
    Loading(Encoding),
    /// Installed: `bytes` fetched and read in `millis`.
    Loaded {
        /// The encoding.
        encoding: Encoding,
        /// The size of its data file.
        bytes: usize,
        /// From the request to the installed tokenizer.
        millis: u32,
    },
    /// The file could not be fetched or read.
    Failed {
        /// The encoding.
        encoding: Encoding,
        /// What went wrong.
        message: String,
    },
}

impl Default for State {
    /// The lesson's refund page at size 40 with the lesson's separators: the
    /// five chunks of the lesson are on screen from the first paint.
    fn default() -> State {
        let mut state = State {
            text: presets::refund(),
            document: Some("refund"),
            view: View::Recursive,
            settings: Settings {
                size: "40".into(),
                overlap: "0".into(),
                unit: Unit::Chars,
                separators: chunkscope::presets::separators("seed").unwrap_or_default(),
                placement: Placement::End,
                trim: true,
            },
            placement_from: Strategy::Recursive,
            splits: Splits::default(),
            error: None,
            selected_node: None,
            toggled: Rc::default(),
            all_children: Rc::default(),
            open_badge: None,
            pointed: None,
            all_rows: false,
            notice: None,
            tokenizer: None,
            token_overlay: false,
        };
        refresh(&mut state);
        state
    }
}

impl State {
    /// The state a shared link describes.
    pub fn from_snapshot(snapshot: Snapshot) -> State {
        let document = presets::DOCUMENT_PRESETS
            .iter()
            .map(|p| p.name)
            .find(|&name| {
                name != "article" && presets::text(name).as_ref() == Some(&snapshot.text)
            });
        let mut state = State {
            text: snapshot.text,
            document,
            view: snapshot.view,
            settings: snapshot.settings,
            placement_from: snapshot.view.primary(),
            splits: Splits::default(),
            ..State::default()
        };
        refresh(&mut state);
        state
    }

    /// What a shared link of this state carries.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            text: self.text.clone(),
            view: self.view,
            settings: self.settings.clone(),
        }
    }

    /// The split for `strategy`, if one was ever made.
    pub fn split(&self, strategy: Strategy) -> Option<&Shared> {
        self.splits.get(strategy)
    }

    /// The split the single-result views (tree, table, stats) describe
    /// ([`View::primary`]).
    pub fn primary(&self) -> Option<&Shared> {
        self.split(self.view.primary())
    }
}

/// A user gesture.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// The document text was edited (already debounced).
    SetText(Rc<str>),
    /// A document preset was picked: only the text changes.
    LoadDocument(String),
    /// The strategy select changed.
    SetView(View),
    /// The size field changed.
    SetSize(String),
    /// The overlap field changed.
    SetOverlap(String),
    /// The unit select changed.
    SetUnit(Unit),
    /// A separator preset was picked.
    LoadSeparators(String),
    /// A separator was added at the end of the list (before a trailing hard cut,
    /// so the fallback stays last).
    AddSeparator(Separator),
    /// The separator at this index was removed.
    RemoveSeparator(usize),
    /// The separator at `index` swapped places with the one above it.
    RaiseSeparator(usize),
    /// The placement select changed.
    SetPlacement(Placement),
    /// The trim checkbox changed.
    SetTrim(bool),
    /// A tree node was clicked (again to clear).
    SelectNode(NodeId),
    /// A chunk was clicked: select the tree node it came from, opening the
    /// branches above it (again to clear).
    RevealChunk(Pointed),
    /// A tree node's children were opened or closed.
    ToggleNode(NodeId),
    /// A tree node's long child list was opened in full.
    ShowAllChildren(NodeId),
    /// A badge's explanation was opened or closed.
    ToggleBadge(Badge),
    /// A chunk was pointed at, or the pointer left.
    Point(Option<Pointed>),
    /// The chunk table was asked to list every row.
    ShowAllRows,
    /// The page notice was closed.
    DismissNotice,
    /// The whole playground was set up at once (a lesson's example, an
    /// interview card): text, view and settings.
    Restore(Snapshot),
    /// The determinism check left for later (see [`Split::rechecking`]) came
    /// back for this split.
    Rechecked(Shared, Check),
    /// A token unit's tables started downloading, were installed, or failed.
    /// Once installed (for good: see `chunkscope::tokens::install`), the
    /// settings are split again.
    Tokenizer(TokenizerStatus),
    /// The token-boundary checkbox changed. Only the drawing changes: the
    /// chunks were counted on the same tokens either way.
    ShowTokens(bool),
}

/// The next state. Pure: the same state and action always give the same result.
pub fn reduce(state: &State, action: Action) -> State {
    let mut next = state.clone();
    let resplit = match action {
        Action::SetText(text) => {
            if *text != *next.text {
                next.text = text;
                next.document = None;
            }
            true
        }
        Action::LoadDocument(name) => match presets::text(&name) {
            Some(text) => {
                next.text = text;
                next.document = presets::DOCUMENT_PRESETS
                    .iter()
                    .map(|p| p.name)
                    .find(|&n| n == name);
                true
            }
            None => false,
        },
        Action::SetView(view) => {
            // Choosing one engine starts it from its own default placement
            // (LangChain's keep_separator: "start" for the recursive class,
            // False for the character one) unless the placement already
            // started from an engine with the same default, so a choice made
            // for that engine stays. A comparison keeps the placement as it
            // is: both panes split with the same settings.
            if !view.is_compare() {
                let engine = view.primary();
                if engine.default_placement() != next.placement_from.default_placement() {
                    next.settings.placement = engine.default_placement();
                }
                next.placement_from = engine;
            }
            next.view = view;
            next.pointed = None;
            true
        }
        Action::SetSize(size) => {
            next.settings.size = size;
            true
        }
        Action::SetOverlap(overlap) => {
            next.settings.overlap = overlap;
            true
        }
        Action::SetUnit(unit) => {
            next.settings.unit = unit;
            true
        }
        Action::LoadSeparators(name) => match chunkscope::presets::separators(&name) {
            Some(list) => {
                next.settings.separators = list;
                true
            }
            None => false,
        },
        Action::AddSeparator(sep) => {
            let list = &mut next.settings.separators;
            let at = if !sep.is_hard_cut() && list.last().is_some_and(Separator::is_hard_cut) {
                list.len() - 1
            } else {
                list.len()
            };
            list.insert(at, sep);
            true
        }
        Action::RemoveSeparator(index) => {
            if index < next.settings.separators.len() {
                next.settings.separators.remove(index);
            }
            true
        }
        Action::RaiseSeparator(index) => {
            if index > 0 && index < next.settings.separators.len() {
                next.settings.separators.swap(index - 1, index);
            }
            true
        }
        Action::SetPlacement(placement) => {
            next.settings.placement = placement;
            true
        }
        Action::SetTrim(trim) => {
            next.settings.trim = trim;
            true
        }
        Action::SelectNode(id) => {
            next.selected_node = (next.selected_node != Some(id)).then_some(id);
            false
        }
        Action::RevealChunk(p) => {
            let Some(split) = next
                .split(p.strategy)
                .filter(|_| next.primary().map(|s| s.strategy()) == Some(p.strategy))
                .cloned()
            else {
                return next;
            };
            let Some(id) = split.output.chunks.get(p.index).and_then(|c| c.node) else {
                return next;
            };
            if next.selected_node == Some(id) {
                next.selected_node = None;
                return next;
            }
            next.selected_node = Some(id);
            let nodes = &split.output.trace.nodes;
            let (mut toggled, mut all) = ((*next.toggled).clone(), (*next.all_children).clone());
            let mut child = id;
            while let Some(parent) = nodes[child].parent {
                if !tree_open(&split, &toggled, parent) {
                    toggled.insert(parent);
                }
                let position = nodes[parent].children.iter().position(|&c| c == child);
                if position.is_some_and(|at| at >= FIRST_CHILDREN) {
                    all.insert(parent);
                }
                child = parent;
            }
            next.toggled = Rc::new(toggled);
            next.all_children = Rc::new(all);
            false
        }
        Action::ToggleNode(id) => {
            let mut set = (*next.toggled).clone();
            if !set.remove(&id) {
                set.insert(id);
            }
            next.toggled = Rc::new(set);
            false
        }
        Action::ShowAllChildren(id) => {
            let mut set = (*next.all_children).clone();
            set.insert(id);
            next.all_children = Rc::new(set);
            false
        }
        Action::ToggleBadge(badge) => {
            next.open_badge = (next.open_badge != Some(badge)).then_some(badge);
            false
        }
        Action::Point(pointed) => {
            next.pointed = pointed;
            false
        }
        Action::ShowAllRows => {
            next.all_rows = true;
            false
        }
        Action::DismissNotice => {
            next.notice = None;
            false
        }
        Action::Tokenizer(status) => {
            let loaded = matches!(status, TokenizerStatus::Loaded { .. });
            next.tokenizer = Some(status);
            loaded
        }
        Action::ShowTokens(on) => {
            next.token_overlay = on;
            false
        }
        Action::Restore(snapshot) => return State::from_snapshot(snapshot),
        Action::Rechecked(split, determinism) => {
            // A result for a split that is no longer shown is dropped.
            if next.splits.get(split.strategy()) == Some(&split) {
                let mut checked = Split::clone(&split);
                checked.checks.set(Property::Determinism, determinism);
                checked.rechecking = false;
                next.splits.set(split.strategy(), Shared(Rc::new(checked)));
            }
            false
        }
    };
    if resplit {
        refresh(&mut next);
    }
    next
}

/// Re-splits what the view needs, reusing a split whose text and configuration
/// did not change. On an error the last good splits stay and `error` says why.
fn refresh(state: &mut State) {
    state.error = None;
    for &strategy in state.view.strategies() {
        let made = state.settings.config(strategy).and_then(|config| {
            let current = state.split(strategy);
            if current.is_some_and(|s| s.config == config && *s.text == *state.text) {
                return Ok(None);
            }
            Split::run(state.text.clone(), config)
                .map(Some)
                .map_err(Problem::from)
        });
        match made {
            Ok(None) => {}
            Ok(Some(split)) => {
                state.splits.set(strategy, Shared(Rc::new(split)));
                // Node ids and chunk indices refer to the old split.
                state.selected_node = None;
                state.toggled = Rc::default();
                state.all_children = Rc::default();
                state.pointed = None;
                state.all_rows = false;
            }
            Err(problem) => {
                state.error = Some(problem);
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkscope::Cut;

    fn texts(split: &Split) -> Vec<&str> {
        split
            .output
            .chunks
            .iter()
            .map(|c| c.text(&split.text))
            .collect()
    }

    #[test]
    fn first_load_shows_the_five_lesson_chunks() {
        let state = State::default();
        assert_eq!(state.error, None);
        let split = state.primary().unwrap();
        assert_eq!(
            texts(split),
            [
                "Refund policy",
                "Refunds take 5 days.",
                "They go to the original UPI id.",
                "COD orders get store credit.",
                "Contact us 24x7."
            ]
        );
        assert_eq!(split.chunk_chars[0], (0, 13));
        assert_eq!(split.output.chunks[1].cut, Cut::Separator(2));
        assert!(split.checks.all_ok());
        assert_eq!(state.settings.separator_preset(), Some("seed"));
    }

    #[test]
    fn a_bad_setting_keeps_the_last_good_split_and_says_why() {
        let state = State::default();
        let good = state.split(Strategy::Recursive).cloned();
        for (action, words) in [
            (Action::SetSize("0".into()), "at least 1"),
            (Action::SetSize("".into()), "size is empty"),
            (Action::SetSize("4.5".into()), "whole number"),
            (Action::SetSize("-3".into()), "negative"),
            (Action::SetOverlap("40".into()), "smaller than size"),
            (Action::SetOverlap("".into()), "overlap is empty"),
        ] {
            let next = reduce(&state, action.clone());
            let error = next.error.clone().map(|p| p.message).unwrap_or_default();
            assert!(error.contains(words), "{action:?}: {error}");
            assert_eq!(
                next.split(Strategy::Recursive).cloned(),
                good,
                "{action:?} replaced the split"
            );
        }
    }

    #[test]
    fn an_empty_list_and_a_bad_regex_are_errors() {
        let mut state = State::default();
        for _ in 0..5 {
            state = reduce(&state, Action::RemoveSeparator(0));
        }
        assert!(state
            .error
            .unwrap()
            .message
            .contains("separator list is empty"));
        let state = reduce(
            &State::default(),
            Action::AddSeparator(Separator::regex("(")),
        );
        assert!(state.error.unwrap().message.contains("regular expression"));
    }

    #[test]
    fn bytes_with_a_char_too_big_is_an_error() {
        let mut state = reduce(&State::default(), Action::SetText("ab😀cd".into()));
        state = reduce(&state, Action::SetSize("2".into()));
        state = reduce(&state, Action::SetUnit(Unit::Bytes));
        assert!(
            state.error.as_ref().unwrap().message.contains("4 bytes"),
            "{:?}",
            state.error
        );
        assert_eq!(state.primary().unwrap().config.unit, Unit::Chars);
    }

    #[test]
    fn loading_a_document_changes_only_the_text() {
        let state = reduce(&State::default(), Action::SetSize("120".into()));
        let next = reduce(&state, Action::LoadDocument("markdown".into()));
        assert_eq!(next.settings, state.settings);
        assert_eq!(next.document, Some("markdown"));
        assert!(next.text.starts_with("# Returns"));
        let edited = reduce(&next, Action::SetText("hello".into()));
        assert_eq!(edited.document, None);
    }

    #[test]
    fn compare_splits_both_and_a_fixed_error_is_reported() {
        let state = reduce(&State::default(), Action::SetView(View::Compare));
        assert!(
            state.split(Strategy::Fixed).is_some() && state.split(Strategy::Recursive).is_some()
        );
        let fixed = state.split(Strategy::Fixed).unwrap();
        assert!(fixed.output.chunks.iter().all(|c| c.cut != Cut::Hard));
        assert_eq!(fixed.chunk_chars[1], (40, 80));
    }

    #[test]
    fn unchanged_settings_reuse_the_split() {
        let state = State::default();
        let next = reduce(&state, Action::SetSize(" 40 ".into()));
        assert_eq!(
            next.split(Strategy::Recursive),
            state.split(Strategy::Recursive)
        );
        let next = reduce(&state, Action::SetSize("41".into()));
        assert_ne!(
            next.split(Strategy::Recursive),
            state.split(Strategy::Recursive)
        );
    }

    #[test]
    fn added_separators_go_before_the_hard_cut_and_can_be_raised() {
        let state = reduce(
            &State::default(),
            Action::AddSeparator(Separator::literal(",")),
        );
        let labels: Vec<String> = state
            .settings
            .separators
            .iter()
            .map(|s| s.label())
            .collect();
        assert_eq!(labels, ["\\n\\n", "\\n", ". ", " ", ",", "\"\""]);
        let state = reduce(&state, Action::RaiseSeparator(4));
        assert_eq!(state.settings.separators[3].pattern, ",");
        assert_eq!(state.settings.separator_preset(), None);
    }

    #[test]
    fn tree_selection_toggles_and_resets_on_a_new_split() {
        let state = reduce(&State::default(), Action::SelectNode(2));
        assert_eq!(state.selected_node, Some(2));
        assert_eq!(reduce(&state, Action::SelectNode(2)).selected_node, None);
        let state = reduce(&state, Action::ToggleNode(1));
        assert!(state.toggled.contains(&1));
        let state = reduce(&state, Action::SetSize("30".into()));
        assert_eq!(state.selected_node, None);
        assert!(state.toggled.is_empty());
    }

    #[test]
    fn a_snapshot_restores_the_page() {
        let state = reduce(&State::default(), Action::SetView(View::Compare));
        let state = reduce(&state, Action::SetSize("25".into()));
        let restored = State::from_snapshot(state.snapshot());
        assert_eq!(restored.settings, state.settings);
        assert_eq!(restored.view, View::Compare);
        assert_eq!(restored.document, Some("refund"));
        assert_eq!(
            restored.split(Strategy::Recursive).unwrap().output,
            state.split(Strategy::Recursive).unwrap().output
        );
    }

    #[test]
    fn clicking_a_chunk_reveals_its_node() {
        let state = reduce(&State::default(), Action::LoadDocument("article".into()));
        let split = state.split(Strategy::Recursive).cloned().unwrap();
        assert!(split.output.trace.nodes.len() > OPEN_ALL_UP_TO);
        let index = split.output.chunks.len() - 1;
        let pointed = Pointed {
            strategy: Strategy::Recursive,
            index,
        };
        let next = reduce(&state, Action::RevealChunk(pointed));
        let id = split.output.chunks[index].node.unwrap();
        assert_eq!(next.selected_node, Some(id));
        let mut at = id;
        while let Some(parent) = split.output.trace.nodes[at].parent {
            assert!(tree_open(&split, &next.toggled, parent));
            at = parent;
        }
        assert!(!next.all_children.is_empty());
        assert_eq!(
            reduce(&next, Action::RevealChunk(pointed)).selected_node,
            None
        );
    }

    #[test]
    fn a_long_text_is_checked_for_determinism_later() {
        let long: Rc<str> = "Some words. ".repeat(RECHECK_LATER_BYTES / 10).into();
        let state = reduce(&State::default(), Action::SetText(long));
        let split = state.split(Strategy::Recursive).cloned().unwrap();
        assert!(split.rechecking);
        assert!(
            !split.checks[Property::Determinism].ok,
            "a check not yet made is no pass"
        );
        let check = split.recheck();
        assert!(check.ok);
        let next = reduce(&state, Action::Rechecked(split.clone(), check));
        let done = next.split(Strategy::Recursive).cloned().unwrap();
        assert!(!done.rechecking && done.checks.all_ok());
        assert_eq!(done.output, split.output);
        // A late result for a split no longer shown changes nothing.
        let moved = reduce(&next, Action::SetSize("30".into()));
        let after = reduce(&moved, Action::Rechecked(split.clone(), split.recheck()));
        assert_eq!(
            after.split(Strategy::Recursive),
            moved.split(Strategy::Recursive)
        );
    }

    #[test]
    fn every_view_has_its_own_option_value() {
        for view in View::ALL {
            assert_eq!(View::parse(view.name()), Some(view));
            assert!(view.strategies().contains(&view.primary()));
        }
        for strategy in Strategy::ALL {
            assert_eq!(
                View::parse(strategy.name()).map(View::primary),
                Some(strategy)
            );
        }
        assert_eq!(
            View::parse("compare-langchain"),
            Some(View::CompareLangChain)
        );
        assert_eq!(
            View::title_of(Strategy::LangChain),
            "LangChain RecursiveCharacterTextSplitter"
        );
    }

    #[test]
    fn a_langchain_view_starts_from_langchains_keep_separator() {
        let state = reduce(&State::default(), Action::SetView(View::LangChain));
        assert_eq!(state.settings.placement, Placement::Start);
        let state = reduce(&state, Action::SetView(View::LangChainCharacter));
        assert_eq!(state.settings.placement, Placement::None);
        // A choice made for an engine stays while the views keep its default.
        let state = reduce(&state, Action::SetView(View::LangChain));
        let state = reduce(&state, Action::SetPlacement(Placement::End));
        let state = reduce(&state, Action::SetView(View::CompareLangChain));
        assert_eq!(state.settings.placement, Placement::End);
        let split = state.split(Strategy::LangChain).unwrap();
        assert_eq!(split.config.placement, Placement::End);
        let state = reduce(&state, Action::SetView(View::LangChain));
        assert_eq!(state.settings.placement, Placement::End);
        // Back to ours: the lessons' p + sep again, and fixed windows share it.
        let state = reduce(&state, Action::SetView(View::Recursive));
        assert_eq!(state.settings.placement, Placement::End);
        let state = reduce(&state, Action::SetPlacement(Placement::None));
        let state = reduce(&state, Action::SetView(View::Fixed));
        let state = reduce(&state, Action::SetView(View::Recursive));
        assert_eq!(state.settings.placement, Placement::None);
        let state = reduce(&state, Action::SetView(View::LangChain));
        assert_eq!(state.settings.placement, Placement::Start);
    }

    #[test]
    fn compare_langchain_splits_ours_and_langchains_with_the_same_settings() {
        let before = State::default();
        let state = reduce(&before, Action::SetView(View::CompareLangChain));
        assert_eq!(state.error, None);
        let ours = state.split(Strategy::Recursive).unwrap();
        let theirs = state.split(Strategy::LangChain).unwrap();
        assert!(ours.output.langchain.is_none());
        assert!(theirs.output.langchain.is_some());
        assert_eq!(state.primary(), Some(theirs));
        // The placement stays the recursive view's, for both panes: on the
        // refund page LangChain then gives the lesson's five chunks too.
        assert_eq!(theirs.config.placement, Placement::End);
        assert_eq!(texts(theirs), texts(ours));
        assert_eq!(
            Some(ours),
            before.primary(),
            "the recursive split is reused"
        );
        // Coming from LangChain's own view, both panes use its default.
        let state = reduce(&State::default(), Action::SetView(View::LangChain));
        let state = reduce(&state, Action::SetView(View::CompareLangChain));
        let ours = state.split(Strategy::Recursive).unwrap();
        assert_eq!(ours.config.placement, Placement::Start);
        assert_eq!(texts(ours)[2], ". They go to the original UPI id.");
    }

    #[test]
    fn langchain_separators_are_the_ones_it_used() {
        let mut state = reduce(&State::default(), Action::SetView(View::LangChain));
        for _ in 0..5 {
            state = reduce(&state, Action::RemoveSeparator(0));
        }
        assert_eq!(state.error, None, "an empty list is LangChain's default");
        let split = state.primary().unwrap();
        let labels: Vec<String> = split.separators.iter().map(Separator::label).collect();
        assert_eq!(labels, ["\\n\\n", "\\n", " ", "\"\""]);
        let state = reduce(&state, Action::SetView(View::LangChainCharacter));
        let split = state.primary().unwrap();
        assert_eq!(split.separators.len(), 1, "CharacterTextSplitter uses one");
    }

    #[test]
    fn counts_parse_strictly() {
        assert_eq!(parse_count("size", " 12 ", Unit::Chars), Ok(12));
        assert!(parse_count("size", "12abc", Unit::Chars).is_err());
        assert!(parse_count("size", "99999999999999999999999", Unit::Chars)
            .unwrap_err()
            .contains("too large"));
    }

    #[test]
    fn a_token_unit_splits_once_its_tokenizer_is_installed() {
        let unit = Unit::Tokens(Encoding::O200k);
        let state = reduce(&State::default(), Action::SetUnit(unit));
        let state = reduce(
            &state,
            Action::Tokenizer(TokenizerStatus::Loading(Encoding::O200k)),
        );
        assert_eq!(
            state.tokenizer,
            Some(TokenizerStatus::Loading(Encoding::O200k))
        );
        if chunkscope::tokens::get(Encoding::O200k).is_none() {
            // Natively without the tiktoken feature nothing installs it.
            assert!(state.error.is_some());
            return;
        }
        let state = reduce(
            &state,
            Action::Tokenizer(TokenizerStatus::Loaded {
                encoding: Encoding::O200k,
                bytes: Encoding::O200k.data_bytes(),
                millis: 5,
            }),
        );
        assert!(state.error.is_none());
        let split = state.primary().unwrap();
        assert_eq!(split.config.unit, unit);
        assert!(split.output.chunks.iter().all(|c| c.len <= 40));
    }

    #[test]
    fn the_token_overlay_changes_the_drawing_only() {
        let state = State::default();
        assert!(!state.token_overlay, "off until asked for");
        let on = reduce(&state, Action::ShowTokens(true));
        assert!(on.token_overlay);
        assert_eq!(on.primary(), state.primary(), "nothing is split again");
        let resized = reduce(&on, Action::SetSize("30".into()));
        assert!(resized.token_overlay, "new settings keep it");
        assert!(!reduce(&resized, Action::ShowTokens(false)).token_overlay);
    }
}
