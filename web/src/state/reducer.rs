//! The playground's state and the one pure function that changes it.
//!
//! Every user gesture, and every answer from the worker, becomes an
//! [`Action`]; [`reduce`] turns the old [`State`] and the action into the new
//! state. When the text or the settings change it does not split: it writes a
//! [`Request`] into the engine's slot, which the page posts to the worker, and
//! takes the answer when [`Action::SplitArrived`] brings it, if it answers the
//! slot's latest request. Keeping this free of the DOM and of the worker
//! means it is tested natively (with the worker's part played by the same
//! contract functions, see `testing`), and the components only draw what is
//! here.

use super::semantic::{compared_with, SemanticSettings};
use super::settings::Settings;
use super::slots::{Badge, Recheck, Request, Shared, Slot, Slots, Split};
use super::view::View;
use crate::invalid::{Field, Problem};
use crate::presets;
use crate::share::Snapshot;
use crate::text::Text;
use chunkscope::tokens::Encoding;
use chunkscope::{Check, Config, NodeId, Placement, Separator, Strategy, Unit};
use chunkscope_wasm::contract::{Detail, Refusal};
use std::collections::BTreeSet;
use std::rc::Rc;

/// Trees with at most this many nodes open fully; larger ones (a long
/// document's) open the first level only, showing two levels, so the tree
/// stays short and fast until a node, or "open all", asks for more.
pub const OPEN_ALL_UP_TO: usize = 120;
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
    /// The document (the last committed text of `doc-input`, or an opened file).
    pub text: Text,
    /// The document preset the text came from, while it is unedited.
    pub document: Option<&'static str>,
    /// The name of the file the text was opened from, while it is unedited.
    pub file: Option<Text>,
    /// Which strategy, or both.
    pub view: View,
    /// The settings as typed.
    pub settings: Settings,
    /// The engine whose default the placement started from: choosing an
    /// engine with another default resets the placement to that default.
    pub placement_from: Strategy,
    /// The separator list of the other kind (header markers while patterns
    /// are shown, or patterns while markers are), kept for when the learner
    /// switches back.
    pub other_separators: Option<Vec<Separator>>,
    /// Each engine's last good split and the request waiting for an answer.
    pub slots: Slots,
    /// The id of the last request made; ids only grow, for the page's life.
    pub last_id: u32,
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
    /// Why the last file chosen or dropped could not be opened.
    pub file_problem: Option<String>,
    /// Where the tokenizer of a token unit is: fetched only when such a unit
    /// is chosen, so its tables never delay the first paint.
    pub tokenizer: Option<TokenizerStatus>,
    /// Whether the document view draws each chunk's tokens (token units only).
    pub token_overlay: bool,
    /// Whether each chunk shows the overlap it repeats (else the document is
    /// drawn once, and the shared text marked as in two chunks).
    pub overlap_repeated: bool,
    /// How many of the trace's events the step-through has shown; `None`
    /// while it is not stepping (the finished split is drawn whole). While
    /// stepping, the tree and the chunks grow with the steps.
    pub step: Option<usize>,
    /// An interview card's setup waiting for the learner to say whether it
    /// may replace their own document.
    pub offer: Option<super::shown::Offer>,
    /// The interview card whose setup is on screen, and the page before it.
    pub shown: Option<super::shown::Shown>,
    /// How many setups cards have made: each is an entry of the browser
    /// history, so Back returns to the page before it.
    pub visit: u32,
    /// The semantic strategy's threshold and buffer.
    pub semantic: SemanticSettings,
    /// The static model loaded in the worker, if any.
    pub model: super::model_file::ModelState,
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
    /// five chunks of the lesson are asked for at once.
    fn default() -> State {
        let mut state = State {
            text: presets::refund(),
            document: Some("refund"),
            file: None,
            view: View::Recursive,
            settings: Settings {
                size: "40".into(),
                overlap: "0".into(),
                unit: Unit::Chars,
                separators: chunkscope::presets::separators("seed").unwrap_or_default(),
                placement: Placement::End,
                trim: true,
                each_line: false,
                then_recursive: None,
                heading_prefix: false,
                table_header: chunkscope::TableHeader::Once,
                min_characters: crate::state::settings::default_min_characters(),
            },
            placement_from: Strategy::Recursive,
            other_separators: None,
            slots: Slots::default(),
            last_id: 0,
            error: None,
            selected_node: None,
            step: None,
            toggled: Rc::default(),
            all_children: Rc::default(),
            open_badge: None,
            pointed: None,
            all_rows: false,
            notice: None,
            file_problem: None,
            tokenizer: None,
            token_overlay: false,
            overlap_repeated: false,
            offer: None,
            shown: None,
            visit: 0,
            semantic: SemanticSettings::default(),
            model: Default::default(),
        };
        refresh(&mut state);
        state
    }
}

impl State {
    /// The state a shared link describes.
    pub fn from_snapshot(snapshot: Snapshot) -> State {
        State::default().restored(snapshot)
    }

    /// This state set up as `snapshot` says: its text, view and settings. The
    /// slots and request ids carry on, so answers still find their requests
    /// and a split whose settings come back is reused.
    pub(super) fn restored(mut self, snapshot: Snapshot) -> State {
        self.document = presets::DOCUMENT_PRESETS
            .iter()
            .map(|p| p.name)
            .find(|&name| {
                name != "article" && presets::text(name).as_ref() == Some(&snapshot.text)
            });
        self.file = None;
        self.text = snapshot.text;
        self.view = snapshot.view;
        self.settings = snapshot.settings;
        self.semantic = snapshot.semantic;
        self.placement_from = snapshot.view.primary();
        self.pointed = None;
        refresh(&mut self);
        self
    }

    /// What a shared link of this state carries.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            text: self.text.clone(),
            view: self.view,
            settings: self.settings.clone(),
            semantic: self.semantic.clone(),
        }
    }

    /// The split for `strategy`, if one was ever made.
    pub fn split(&self, strategy: Strategy) -> Option<&Shared> {
        self.slots.get(strategy).split.as_ref()
    }

    /// The split the single-result views (tree, table, stats) describe
    /// ([`View::primary`]).
    pub fn primary(&self) -> Option<&Shared> {
        self.split(self.view.primary())
    }

    /// Whether an engine on screen waits for the worker's answer.
    pub fn splitting(&self) -> bool {
        self.view
            .strategies()
            .iter()
            .any(|&s| self.slots.get(s).pending.is_some())
    }

    /// Every request waiting for the worker, oldest first. The page posts
    /// those it has not posted yet.
    pub fn requests(&self) -> Vec<Request> {
        self.slots.requests()
    }

    fn next_id(&mut self) -> u32 {
        self.last_id += 1;
        self.last_id
    }
}

/// A user gesture, or an answer from the worker.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// The document text was edited (already debounced).
    SetText(Text),
    /// A file was opened (chosen, or dropped on the page): its name and text.
    OpenFile {
        /// The file's name.
        name: Text,
        /// Its text.
        text: Text,
    },
    /// A file could not be opened: why.
    FileRefused(String),
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
    /// The step-through moved to this many events shown (`None` or `0`: not
    /// stepping).
    Step(Option<usize>),
    /// The trim checkbox changed.
    SetTrim(bool),
    /// The each-line checkbox (`langchain-markdown`) changed.
    SetEachLine(bool),
    /// The recipe's switch or separator list (`langchain-markdown`) changed.
    SetThenRecursive(Option<crate::state::RecipeList>),
    /// The heading-prefix checkbox (`markdown`) changed.
    SetHeadingPrefix(bool),
    /// chonkie-recursive's minimum, as typed.
    SetMinCharacters(String),
    /// The repeated-table-header checkbox (`markdown`) changed.
    SetTableHeader(chunkscope::TableHeader),
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
    /// "Show me" on an interview card: its setup, asked about first when it
    /// would replace the learner's own document.
    ShowCard {
        /// The card (`data-card`).
        card: &'static str,
        /// Its setup.
        snapshot: Snapshot,
    },
    /// The learner's answer to the question a card asked.
    AnswerCard(super::shown::Choice),
    /// Back to the page before the card on screen, text included.
    UndoCard,
    /// The note saying which card is shown was closed.
    DismissCard,
    /// The browser went Back or Forward to this page state.
    History(Snapshot),
    /// Every tree node opened (`true`), or the tree closed to two levels.
    OpenTree(bool),
    /// The worker's report for request `id`, read (or why it could not be).
    SplitArrived {
        /// The request it answers.
        id: u32,
        /// The split its binary report (`chunkscope_wasm::wire`) describes.
        split: Result<Shared, String>,
    },
    /// The worker refused request `id` (a split or a determinism check).
    SplitFailed {
        /// The request it answers.
        id: u32,
        /// Why, and the setting to change.
        refusal: Refusal,
    },
    /// The determinism check asked for with request `id`.
    Rechecked {
        /// The request it answers.
        id: u32,
        /// The check.
        check: Check,
    },
    /// The worker could not be started or stopped working: nothing waiting
    /// will be answered.
    EngineFailed(String),
    /// A token unit's tables started downloading, were installed, or failed.
    /// Once installed (for good: see `chunkscope_wasm::loaded`), the
    /// settings are split again.
    Tokenizer(TokenizerStatus),
    /// The token-boundary checkbox changed. Only the drawing changes: the
    /// chunks were counted on the same tokens either way.
    ShowTokens(bool),
    /// Draw each chunk's overlap inside it again (true), or the document once.
    RepeatOverlap(bool),
    /// The semantic threshold's kind changed: its amount starts at the
    /// kind's default, as in LangChain.
    SetBreakpoint(chunkscope::semantic::Breakpoint),
    /// The semantic threshold's amount changed (typed or slid).
    SetAmount(String),
    /// The semantic buffer (sentences either side of each group) changed.
    SetBuffer(String),
    /// A static model was chosen, loaded, refused or dropped.
    Model(super::model_file::ModelEvent),
}

/// The next state. Pure: the same state and action always give the same result.
pub fn reduce(state: &State, action: Action) -> State {
    let mut next = state.clone();
    let resplit = match action {
        Action::SetText(text) => {
            if text != next.text {
                next.shown = None;
                next.text = text;
                next.document = None;
                next.file = None;
                next.file_problem = None;
            }
            true
        }
        Action::OpenFile { name, text } => {
            next.shown = None;
            next.text = text;
            next.document = None;
            next.file = Some(name);
            next.file_problem = None;
            true
        }
        Action::FileRefused(why) => {
            next.file_problem = Some(why);
            false
        }
        Action::LoadDocument(name) => match presets::text(&name) {
            Some(text) => {
                next.text = text;
                next.file = None;
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
                // Header markers and cut patterns are different lists: each
                // kind is kept while the other is in use.
                if engine.separators_are_header_markers()
                    != next.placement_from.separators_are_header_markers()
                {
                    let list = next
                        .other_separators
                        .take()
                        .unwrap_or_else(|| Config::for_strategy(engine).separators);
                    next.other_separators =
                        Some(std::mem::replace(&mut next.settings.separators, list));
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
                // A preset carries the placement it needs (markup and code:
                // the separator starts the next piece); a prose preset goes
                // back to the engine's own default.
                next.settings.placement = chunkscope::presets::placement(&name)
                    .unwrap_or_else(|| next.placement_from.default_placement());
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
        Action::Step(step) => {
            next.step = step.filter(|&k| k > 0);
            false
        }
        Action::SetEachLine(each_line) => {
            next.settings.each_line = each_line;
            true
        }
        Action::SetThenRecursive(list) => {
            next.settings.then_recursive = list;
            true
        }
        Action::SetHeadingPrefix(on) => {
            next.settings.heading_prefix = on;
            true
        }
        Action::SetTableHeader(table_header) => {
            next.settings.table_header = table_header;
            true
        }
        Action::SetMinCharacters(typed) => {
            next.settings.min_characters = typed;
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
            reveal(&mut next, p);
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
            if loaded {
                // Requests made before the tables were in would be refused:
                // ask again.
                for slot in next.slots.iter_mut() {
                    slot.pending = None;
                }
            }
            loaded
        }
        Action::ShowTokens(on) => {
            next.token_overlay = on;
            false
        }
        Action::RepeatOverlap(on) => {
            next.overlap_repeated = on;
            false
        }
        Action::Restore(snapshot) => return next.restored(snapshot),
        Action::ShowCard { card, snapshot } => return super::shown::show(next, card, snapshot),
        Action::AnswerCard(choice) => return super::shown::answer(next, choice),
        Action::UndoCard => return super::shown::undo(next),
        Action::DismissCard => {
            next.shown = None;
            false
        }
        Action::History(snapshot) => {
            next.offer = None;
            next.shown = None;
            return next.restored(snapshot);
        }
        Action::OpenTree(open) => return super::shown::open_tree(next, open),
        Action::SplitArrived { id, split } => {
            arrived(&mut next, id, split);
            false
        }
        Action::SplitFailed { id, refusal } => {
            let Some(slot) = next.slots.awaiting(id) else {
                return next;
            };
            if slot.pending.as_ref().is_some_and(|r| r.id == id) {
                slot.pending = None;
                next.error = Some(Problem::from(refusal));
            } else {
                slot.recheck = Some(Recheck::Done(Check {
                    ok: false,
                    detail: format!("the second run failed: {}", refusal.message),
                }));
            }
            false
        }
        Action::Rechecked { id, check } => {
            if let Some(slot) = next.slots.awaiting(id) {
                if matches!(&slot.recheck, Some(Recheck::Waiting(r)) if r.id == id) {
                    slot.recheck = Some(Recheck::Done(check));
                }
            }
            false
        }
        Action::SetBreakpoint(kind) => {
            next.semantic = SemanticSettings {
                buffer: next.semantic.buffer.clone(),
                ..SemanticSettings::of(kind)
            };
            true
        }
        Action::SetAmount(amount) => {
            next.semantic.amount = amount;
            true
        }
        Action::SetBuffer(buffer) => {
            next.semantic.buffer = buffer;
            true
        }
        Action::Model(event) => next.model.on(event),
        Action::EngineFailed(why) => {
            for slot in next.slots.iter_mut() {
                slot.pending = None;
                if matches!(slot.recheck, Some(Recheck::Waiting(_))) {
                    slot.recheck = None;
                }
            }
            next.error = Some(Problem {
                message: why,
                field: None,
                separator: None,
            });
            false
        }
    };
    if resplit {
        refresh(&mut next);
    }
    next
}

/// Takes the answer to request `id` if it is a slot's latest request: the
/// split replaces the slot's last one, and a long text's determinism check is
/// asked for. An answer to an older request is dropped.
fn arrived(state: &mut State, id: u32, split: Result<Shared, String>) {
    let Some(slot) = state.slots.awaiting(id) else {
        return;
    };
    let Some(request) = slot.pending.take_if(|r| r.id == id) else {
        return;
    };
    let split = split.and_then(|split| {
        if split.is_of(&request.text, &request.config) {
            Ok(split)
        } else {
            Err("it is about another text or other settings".into())
        }
    });
    match split {
        Ok(split) => {
            let recheck = (request.detail == Detail::Trace).then(|| {
                let id = state.next_id();
                Recheck::Waiting(Request {
                    id,
                    detail: Detail::Determinism,
                    ..request
                })
            });
            let slot = state.slots.get_mut(split.strategy());
            slot.split = Some(split);
            slot.recheck = recheck;
            // Node ids and chunk indices refer to the old split.
            state.selected_node = None;
            state.step = None;
            state.toggled = Rc::default();
            state.all_children = Rc::default();
            state.pointed = None;
            state.all_rows = false;
        }
        Err(why) => {
            state.error = Some(Problem {
                message: format!("the splitter's answer could not be read: {why}"),
                field: None,
                separator: None,
            });
        }
    }
}

/// Selects the node chunk `p` came from and opens the branches above it.
fn reveal(state: &mut State, p: Pointed) {
    let Some(split) = state
        .split(p.strategy)
        .filter(|_| state.primary().map(|s| s.strategy()) == Some(p.strategy))
        .cloned()
    else {
        return;
    };
    let Some(id) = split.output.chunks.get(p.index).and_then(|c| c.node) else {
        return;
    };
    if state.selected_node == Some(id) {
        state.selected_node = None;
        return;
    }
    state.selected_node = Some(id);
    let nodes = &split.output.trace.nodes;
    let (mut toggled, mut all) = ((*state.toggled).clone(), (*state.all_children).clone());
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
    state.toggled = Rc::new(toggled);
    state.all_children = Rc::new(all);
}

/// The most chunks' worth of text (its length in the unit over the size) the
/// page asks the worker to split. A 10 MB document at size 3 would be three
/// million chunks and a trace several times that: gigabytes, and seconds of
/// work that cannot be stopped half way while the learner is still typing
/// "300".
pub const MAX_CHUNKS: usize = 500_000;

/// `config`, unless it would cut `text` into more than [`MAX_CHUNKS`] chunks'
/// worth: then what size to use instead. Token units are not estimated.
fn within_reach(text: &str, config: Config) -> Result<Config, Problem> {
    let size = config.size.max(1);
    // Bytes are never fewer than chars: most texts need no count.
    if text.len() / size <= MAX_CHUNKS {
        return Ok(config);
    }
    let (length, unit) = match config.unit {
        Unit::Chars => (text.chars().count(), "chars"),
        Unit::Bytes => (text.len(), "bytes"),
        Unit::Tokens(_) => return Ok(config),
    };
    if length.div_ceil(size) <= MAX_CHUNKS {
        return Ok(config);
    }
    Err(Problem::new(
        Field::Size,
        format!(
            "size {} is too small for this document of {length} {unit}: the playground splits at most {MAX_CHUNKS} chunks' worth at once, so use a size of at least {}, or a shorter document",
            config.size,
            length.div_ceil(MAX_CHUNKS)
        ),
    ))
}

/// Asks for what the view needs: a split whose text and configuration did
/// not change is kept, and one already asked for is not asked for again. On
/// an error the last good splits stay, `error` says why, and no answer to a
/// request for older settings is taken any more.
fn refresh(state: &mut State) {
    state.error = None;
    let mut strategies = state.view.strategies();
    strategies.extend(compared_with(state.view));
    for (at, &strategy) in strategies.iter().enumerate() {
        let config = match state
            .settings
            .config_in(state.view, strategy)
            .and_then(|config| state.semantic.apply(config))
            .map(|config| state.model.apply(config))
            .and_then(|config| within_reach(&state.text, config))
        {
            Ok(config) => config,
            Err(problem) => {
                state.error = Some(problem);
                for &later in &strategies[at..] {
                    state.slots.get_mut(later).pending = None;
                }
                return;
            }
        };
        let text = state.text.clone();
        let slot: &Slot = state.slots.get(strategy);
        if slot.split.as_ref().is_some_and(|s| s.is_of(&text, &config)) {
            state.slots.get_mut(strategy).pending = None;
            continue;
        }
        if slot
            .pending
            .as_ref()
            .is_some_and(|r| r.config == config && r.text == text)
        {
            continue;
        }
        let id = state.next_id();
        state.slots.get_mut(strategy).pending = Some(Request {
            id,
            detail: Request::detail_for(&text),
            text,
            config,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::slots::RECHECK_LATER_BYTES;
    use crate::state::testing::{act, answer_to, settled, start};
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
        let state = start();
        assert_eq!(state.error, None);
        assert!(state.requests().is_empty());
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
        assert!(split.checks.as_ref().unwrap().all_ok());
        assert_eq!(state.settings.separator_preset(), Some("seed"));
    }

    #[test]
    fn a_bad_setting_keeps_the_last_good_split_and_says_why() {
        let state = start();
        let good = state.split(Strategy::Recursive).cloned();
        for (action, words) in [
            (Action::SetSize("0".into()), "at least 1"),
            (Action::SetSize("".into()), "size is empty"),
            (Action::SetSize("4.5".into()), "whole number"),
            (Action::SetSize("-3".into()), "negative"),
            (Action::SetOverlap("40".into()), "smaller than size"),
            (Action::SetOverlap("".into()), "overlap is empty"),
        ] {
            let next = act(&state, action.clone());
            let error = next.error.clone().map(|p| p.message).unwrap_or_default();
            assert!(error.contains(words), "{action:?}: {error}");
            assert_eq!(
                next.split(Strategy::Recursive).cloned(),
                good,
                "{action:?} replaced the split"
            );
        }
    }

    /// The minimum reaches chonkie-recursive's split, is kept while the
    /// learner looks at other strategies, and a bad value is reported with
    /// chonkie's own words where the engine refuses it, the page's where it
    /// does not parse, never clamped.
    #[test]
    fn chonkies_minimum_is_kept_across_strategies() {
        let chonkie = Action::SetView(View::One(Strategy::ChonkieRecursive));
        let minimum = |state: &State| {
            let split = state.split(Strategy::ChonkieRecursive).unwrap();
            split
                .config
                .chonkie_config()
                .unwrap()
                .min_characters_per_chunk
        };
        let state = act(&start(), chonkie.clone());
        assert_eq!(minimum(&state), 24);
        let default_chunks = texts(state.split(Strategy::ChonkieRecursive).unwrap()).len();
        let state = act(&state, Action::SetMinCharacters("1".into()));
        assert_eq!(minimum(&state), 1);
        assert_ne!(
            texts(state.split(Strategy::ChonkieRecursive).unwrap()).len(),
            default_chunks,
            "a minimum of 1 joins no short line of the refund page"
        );
        let state = act(&state, Action::SetView(View::Markdown));
        assert_eq!(state.error, None);
        let state = act(&state, chonkie.clone());
        assert_eq!(state.settings.min_characters, "1");
        assert_eq!(minimum(&state), 1);
        for (typed, words) in [
            ("0", "min_characters_per_chunk must be greater than 0"),
            ("", "min_characters_per_chunk is empty"),
            ("1.5", "whole number of bytes"),
            ("-2", "cannot be negative"),
        ] {
            let next = act(&state, Action::SetMinCharacters(typed.into()));
            let error = next.error.clone().map(|p| p.message).unwrap_or_default();
            assert!(error.contains(words), "{typed:?}: {error}");
            assert_eq!(minimum(&next), 1, "{typed:?} replaced the split");
        }
    }

    #[test]
    fn an_empty_list_and_a_bad_regex_are_errors() {
        let mut state = start();
        for _ in 0..5 {
            state = act(&state, Action::RemoveSeparator(0));
        }
        assert!(state
            .error
            .unwrap()
            .message
            .contains("separator list is empty"));
        let state = act(&start(), Action::AddSeparator(Separator::regex("(")));
        assert!(state.error.unwrap().message.contains("regular expression"));
    }

    #[test]
    fn bytes_with_a_char_too_big_is_an_error() {
        let mut state = act(&start(), Action::SetText("ab😀cd".into()));
        state = act(&state, Action::SetSize("2".into()));
        state = act(&state, Action::SetUnit(Unit::Bytes));
        assert!(
            state.error.as_ref().unwrap().message.contains("4 bytes"),
            "{:?}",
            state.error
        );
        assert_eq!(state.primary().unwrap().config.unit, Unit::Chars);
    }

    #[test]
    fn loading_a_document_changes_only_the_text() {
        let state = act(&start(), Action::SetSize("120".into()));
        let next = act(&state, Action::LoadDocument("markdown".into()));
        assert_eq!(next.settings, state.settings);
        assert_eq!(next.document, Some("markdown"));
        assert!(next.text.starts_with("# Returns"));
        let edited = act(&next, Action::SetText("hello".into()));
        assert_eq!(edited.document, None);
    }

    #[test]
    fn compare_splits_both_and_a_fixed_error_is_reported() {
        let state = act(&start(), Action::SetView(View::Compare));
        assert!(
            state.split(Strategy::Fixed).is_some() && state.split(Strategy::Recursive).is_some()
        );
        let fixed = state.split(Strategy::Fixed).unwrap();
        assert!(fixed.output.chunks.iter().all(|c| c.cut != Cut::Hard));
        assert_eq!(fixed.chunk_chars[1], (40, 80));
    }

    #[test]
    fn unchanged_settings_reuse_the_split() {
        let state = start();
        let next = act(&state, Action::SetSize(" 40 ".into()));
        assert_eq!(
            next.split(Strategy::Recursive),
            state.split(Strategy::Recursive)
        );
        let next = act(&state, Action::SetSize("41".into()));
        assert_ne!(
            next.split(Strategy::Recursive),
            state.split(Strategy::Recursive)
        );
    }

    #[test]
    fn added_separators_go_before_the_hard_cut_and_can_be_raised() {
        let state = act(&start(), Action::AddSeparator(Separator::literal(",")));
        let labels: Vec<String> = state
            .settings
            .separators
            .iter()
            .map(|s| s.label())
            .collect();
        assert_eq!(labels, ["\\n\\n", "\\n", ". ", " ", ",", "\"\""]);
        let state = act(&state, Action::RaiseSeparator(4));
        assert_eq!(state.settings.separators[3].pattern, ",");
        assert_eq!(state.settings.separator_preset(), None);
    }

    #[test]
    fn a_markup_preset_puts_its_separators_at_the_start_of_the_next_piece() {
        let state = act(&start(), Action::LoadSeparators("markdown".into()));
        assert_eq!(state.settings.placement, Placement::Start);
        assert_eq!(state.settings.separator_preset(), Some("markdown"));
        let state = act(&state, Action::LoadSeparators("seed".into()));
        assert_eq!(state.settings.placement, Placement::End);
        // Under LangChain a prose preset goes back to its keep_separator.
        let state = act(&state, Action::SetView(View::LangChain));
        let state = act(&state, Action::LoadSeparators("python".into()));
        assert_eq!(state.settings.placement, Placement::Start);
        let state = act(&state, Action::SetView(View::LangChainCharacter));
        let state = act(&state, Action::LoadSeparators("default".into()));
        assert_eq!(state.settings.placement, Placement::None);
    }

    #[test]
    fn the_markdown_preset_leaves_no_chunk_ending_in_heading_marks() {
        let state = act(&start(), Action::LoadDocument("markdown".into()));
        let state = act(&state, Action::LoadSeparators("markdown".into()));
        let state = act(&state, Action::SetSize("120".into()));
        let split = state.primary().unwrap();
        let texts: Vec<&str> = split
            .output
            .chunks
            .iter()
            .map(|c| c.text(&split.text))
            .collect();
        assert!(texts.len() > 3, "{texts:?}");
        for t in &texts {
            assert!(!t.ends_with('#'), "{t:?} ends in heading marks");
        }
        assert_eq!(crate::model::stats(split).only_markup, 0);
    }

    #[test]
    fn tree_selection_toggles_and_resets_on_a_new_split() {
        let state = act(&start(), Action::SelectNode(2));
        assert_eq!(state.selected_node, Some(2));
        assert_eq!(act(&state, Action::SelectNode(2)).selected_node, None);
        let state = act(&state, Action::ToggleNode(1));
        assert!(state.toggled.contains(&1));
        let state = act(&state, Action::SetSize("30".into()));
        assert_eq!(state.selected_node, None);
        assert!(state.toggled.is_empty());
    }

    #[test]
    fn a_snapshot_restores_the_page() {
        let state = act(&start(), Action::SetView(View::Compare));
        let state = act(&state, Action::SetSize("25".into()));
        let restored = settled(State::from_snapshot(state.snapshot()));
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
        let state = act(&start(), Action::LoadDocument("article".into()));
        let split = state.split(Strategy::Recursive).cloned().unwrap();
        assert!(split.output.trace.nodes.len() > OPEN_ALL_UP_TO);
        let index = split.output.chunks.len() - 1;
        let pointed = Pointed {
            strategy: Strategy::Recursive,
            index,
        };
        let next = act(&state, Action::RevealChunk(pointed));
        let id = split.output.chunks[index].node.unwrap();
        assert_eq!(next.selected_node, Some(id));
        let mut at = id;
        while let Some(parent) = split.output.trace.nodes[at].parent {
            assert!(tree_open(&split, &next.toggled, parent));
            at = parent;
        }
        assert!(!next.all_children.is_empty());
        assert_eq!(act(&next, Action::RevealChunk(pointed)).selected_node, None);
    }

    #[test]
    fn a_langchain_view_starts_from_langchains_keep_separator() {
        let state = act(&start(), Action::SetView(View::LangChain));
        assert_eq!(state.settings.placement, Placement::Start);
        let state = act(&state, Action::SetView(View::LangChainCharacter));
        assert_eq!(state.settings.placement, Placement::None);
        // A choice made for an engine stays while the views keep its default.
        let state = act(&state, Action::SetView(View::LangChain));
        let state = act(&state, Action::SetPlacement(Placement::End));
        let state = act(&state, Action::SetView(View::CompareLangChain));
        assert_eq!(state.settings.placement, Placement::End);
        let split = state.split(Strategy::LangChain).unwrap();
        assert_eq!(split.config.placement, Placement::End);
        let state = act(&state, Action::SetView(View::LangChain));
        assert_eq!(state.settings.placement, Placement::End);
        // Back to ours: the lessons' p + sep again, and fixed windows share it.
        let state = act(&state, Action::SetView(View::Recursive));
        assert_eq!(state.settings.placement, Placement::End);
        let state = act(&state, Action::SetPlacement(Placement::None));
        let state = act(&state, Action::SetView(View::Fixed));
        let state = act(&state, Action::SetView(View::Recursive));
        assert_eq!(state.settings.placement, Placement::None);
        let state = act(&state, Action::SetView(View::LangChain));
        assert_eq!(state.settings.placement, Placement::Start);
    }

    #[test]
    fn compare_langchain_splits_ours_and_langchains_with_the_same_settings() {
        let before = start();
        let state = act(&before, Action::SetView(View::CompareLangChain));
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
        let state = act(&start(), Action::SetView(View::LangChain));
        let state = act(&state, Action::SetView(View::CompareLangChain));
        let ours = state.split(Strategy::Recursive).unwrap();
        assert_eq!(ours.config.placement, Placement::Start);
        assert_eq!(texts(ours)[2], ". They go to the original UPI id.");
    }

    #[test]
    fn langchain_separators_are_the_ones_it_used() {
        let mut state = act(&start(), Action::SetView(View::LangChain));
        for _ in 0..5 {
            state = act(&state, Action::RemoveSeparator(0));
        }
        assert_eq!(state.error, None, "an empty list is LangChain's default");
        let split = state.primary().unwrap();
        let labels: Vec<String> = split.separators.iter().map(Separator::label).collect();
        assert_eq!(labels, ["\\n\\n", "\\n", " ", "\"\""]);
        let state = act(&state, Action::SetView(View::LangChainCharacter));
        let split = state.primary().unwrap();
        assert_eq!(split.separators.len(), 1, "CharacterTextSplitter uses one");
    }

    #[test]
    fn a_token_unit_splits_once_its_tokenizer_is_installed() {
        let unit = Unit::Tokens(Encoding::O200k);
        let state = act(&start(), Action::SetUnit(unit));
        let state = act(
            &state,
            Action::Tokenizer(TokenizerStatus::Loading(Encoding::O200k)),
        );
        assert_eq!(
            state.tokenizer,
            Some(TokenizerStatus::Loading(Encoding::O200k))
        );
        // Not held yet: the split waits and says so.
        assert!(state.error.is_some());
        let tables = chunkscope::tokens::Tokenizer::shared(Encoding::O200k).unwrap();
        chunkscope_wasm::loaded::hold_tokenizer(tables);
        let state = act(
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
    fn the_view_toggles_change_the_drawing_only() {
        type Toggle = (fn(bool) -> Action, fn(&State) -> bool);
        let toggles: [Toggle; 2] = [
            (Action::ShowTokens, |s| s.token_overlay),
            (Action::RepeatOverlap, |s| s.overlap_repeated),
        ];
        let state = act(&start(), Action::SetOverlap("12".into()));
        for (toggle, read) in toggles {
            assert!(!read(&state), "off until asked for");
            let on = act(&state, toggle(true));
            assert!(read(&on));
            assert_eq!(on.primary(), state.primary(), "nothing is split again");
            let resized = act(&on, Action::SetSize("30".into()));
            assert!(read(&resized), "new settings keep it");
            assert!(!read(&act(&resized, toggle(false))));
        }
    }

    #[test]
    fn the_first_page_asks_once_and_draws_the_answer() {
        let state = State::default();
        assert_eq!(state.primary(), None, "nothing is split on the main thread");
        let requests = state.requests();
        assert_eq!(requests.len(), 1);
        assert_eq!((requests[0].id, requests[0].detail), (1, Detail::Full));
        assert!(state.splitting());
        // Asking again for what is already asked for makes no new request.
        let again = reduce(&state, Action::SetSize(" 40".into()));
        assert_eq!(again.requests(), requests);
        let done = reduce(&state, answer_to(&requests[0]));
        assert!(!done.splitting() && done.requests().is_empty());
        assert_eq!(done.primary().unwrap().chunk_chars.len(), 5);
    }

    #[test]
    fn only_the_answer_to_the_latest_request_is_taken() {
        let state = start();
        let first = reduce(&state, Action::SetSize("30".into()));
        let second = reduce(&first, Action::SetSize("25".into()));
        let (old, new) = (first.requests()[0].clone(), second.requests()[0].clone());
        assert!(old.id < new.id);
        assert_eq!(
            second.requests(),
            std::slice::from_ref(&new),
            "the older request is given up"
        );
        // The older answer comes first: dropped, the last good split stays.
        let late = reduce(&second, answer_to(&old));
        assert_eq!(late, second);
        let done = reduce(&late, answer_to(&new));
        assert_eq!(done.primary().unwrap().config.size, 25);
        // And after it, still nothing.
        assert_eq!(reduce(&done, answer_to(&old)), done);
    }

    #[test]
    fn typing_quickly_ends_with_the_chunks_of_the_last_text() {
        let mut state = start();
        let mut asked = Vec::new();
        for text in [
            "a b",
            "a b c",
            "a b c d. e",
            "The final text. Two sentences.",
        ] {
            state = reduce(&state, Action::SetText(text.into()));
            asked.extend(state.requests());
        }
        assert_eq!(asked.len(), 4);
        // Answers arrive late and out of order.
        for request in asked.iter().rev() {
            state = reduce(&state, answer_to(request));
        }
        let split = state.primary().unwrap();
        assert_eq!(&*split.text, "The final text. Two sentences.");
        assert_eq!(texts(split), ["The final text. Two sentences."]);
    }

    #[test]
    fn a_refusal_from_the_worker_is_shown_and_a_bad_field_asks_nothing() {
        let state = reduce(&start(), Action::SetText("ab😀cd".into()));
        let state = settled(state);
        let state = reduce(&state, Action::SetUnit(Unit::Bytes));
        let state = reduce(&state, Action::SetSize("2".into()));
        assert_eq!(
            state.error, None,
            "only the worker finds a character too big"
        );
        let state = settled(state);
        let problem = state.error.clone().unwrap();
        assert_eq!(problem.field, Some(Field::Unit));
        // A field that does not parse is reported at once, and an answer to
        // the request made before it is no longer taken.
        let asked = reduce(&state, Action::SetSize("4".into()));
        let request = asked.requests()[0].clone();
        let bad = reduce(&asked, Action::SetSize("x".into()));
        assert!(bad.requests().is_empty());
        assert_eq!(bad.error.as_ref().unwrap().field, Some(Field::Size));
        assert_eq!(reduce(&bad, answer_to(&request)), bad);
    }

    #[test]
    fn a_long_text_is_checked_for_determinism_later_without_copying_its_split() {
        let long: Text = "Some words. ".repeat(RECHECK_LATER_BYTES / 10).into();
        let state = reduce(&start(), Action::SetText(long));
        let first = state.requests()[0].clone();
        assert_eq!(first.detail, Detail::Trace);
        let state = reduce(&state, answer_to(&first));
        let slot = state.slots.get(Strategy::Recursive);
        let checked = slot.checked().unwrap();
        assert_eq!(checked.determinism, None, "a check not yet made is no pass");
        assert!(checked.check(Badge::Coverage).unwrap().ok);
        let recheck = state.requests()[0].clone();
        assert_eq!(recheck.detail, Detail::Determinism);
        assert!(
            Text::ptr_eq(&recheck.text, &first.text),
            "the text is shared, not copied"
        );

        let done = reduce(&state, answer_to(&recheck));
        let after = done.slots.get(Strategy::Recursive).checked().unwrap();
        assert_eq!(after.determinism.as_ref().map(|c| c.ok), Some(true));
        assert!(
            Rc::ptr_eq(&after.split.0, &checked.split.0),
            "the split is not copied"
        );
        assert!(done.requests().is_empty());

        // A late check for a split no longer shown changes nothing.
        let moved = reduce(&state, Action::SetSize("30".into()));
        let moved = reduce(&moved, answer_to(&moved.requests()[1]));
        let late = reduce(&moved, answer_to(&recheck));
        assert_eq!(late, moved);
        assert_eq!(
            late.slots
                .get(Strategy::Recursive)
                .checked()
                .unwrap()
                .determinism,
            None
        );
    }

    #[test]
    fn a_refused_recheck_fails_the_badge_and_a_dead_worker_ends_every_wait() {
        let long: Text = "Some words. ".repeat(RECHECK_LATER_BYTES / 10).into();
        let state = reduce(&start(), Action::SetText(long));
        let state = reduce(&state, answer_to(&state.requests()[0]));
        let id = state.requests()[0].id;
        let refusal = Refusal::new(None, "out of memory");
        let failed = reduce(&state, Action::SplitFailed { id, refusal });
        let check = failed
            .slots
            .get(Strategy::Recursive)
            .checked()
            .unwrap()
            .determinism
            .unwrap();
        assert_eq!(
            (check.ok, check.detail.as_str()),
            (false, "the second run failed: out of memory")
        );
        assert_eq!(failed.error, None);

        let waiting = reduce(&start(), Action::SetSize("30".into()));
        let dead = reduce(&waiting, Action::EngineFailed("the worker stopped".into()));
        assert!(dead.requests().is_empty() && !dead.splitting());
        assert_eq!(dead.error.as_ref().unwrap().message, "the worker stopped");
        assert_eq!(
            dead.primary(),
            waiting.primary(),
            "the last good split stays"
        );
    }

    #[test]
    fn a_size_too_small_for_a_long_document_is_refused_before_asking() {
        let long: Text = "abcd ".repeat(MAX_CHUNKS / 2).into(); // 1.25 M chars
        let state = settled(reduce(&start(), Action::SetText(long)));
        let state = reduce(&state, Action::SetSize("2".into()));
        assert!(state.requests().is_empty(), "nothing is asked");
        let problem = state.error.clone().unwrap();
        assert_eq!(problem.field, Some(Field::Size));
        assert_eq!(
            problem.message,
            "size 2 is too small for this document of 1250000 chars: the playground splits at \
             most 500000 chunks' worth at once, so use a size of at least 3, or a shorter document"
        );
        let ok = reduce(&state, Action::SetSize("3".into()));
        assert_eq!((ok.error.clone(), ok.requests().len()), (None, 1));
    }

    #[test]
    fn an_opened_file_is_the_document_until_edited() {
        let state = act(
            &start(),
            Action::OpenFile {
                name: "notes.md".into(),
                text: "One. Two.".into(),
            },
        );
        assert_eq!(state.file.as_deref(), Some("notes.md"));
        assert_eq!((&*state.text, state.document), ("One. Two.", None));
        assert_eq!(texts(state.primary().unwrap()), ["One. Two."]);
        let refused = act(&state, Action::FileRefused("too big".into()));
        assert_eq!(refused.file_problem.as_deref(), Some("too big"));
        assert_eq!(
            (refused.notice.clone(), refused.text.clone()),
            (None, state.text.clone())
        );
        let edited = act(&refused, Action::SetText("One.".into()));
        assert_eq!((edited.file, edited.file_problem), (None, None));
    }
}
