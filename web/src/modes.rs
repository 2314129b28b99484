//! The practice, bug-gallery, code and evaluate modes, explore mode's
//! exercises, and explore's views below the first screen that only read a
//! split (sentences, the semantic curve, the four-strategy comparison, late
//! chunking, the outline, the compare numbers), as a second wasm module
//! (`chunkscope-modes`: the page's own sources, built as a second binary
//! whose `main` calls [`start`]), which the
//! page adds once it has drawn itself, so its first load carries what explore
//! mode shows first.
//!
//! The page and the module share no memory; they meet at elements the page
//! draws: `#exercises-host` (explore mode's exercises, which need nothing
//! from the page) and `#modes-host`, where a mode's body goes:
//!
//! ```text
//! page   → host[data-mode] = the mode shown; event `chunkscope-mode` when it changes
//! module → host[data-ask]  = a mode to go to;  event `chunkscope-ask`
//! module → event `chunkscope-ready` once it is drawn; its loader: `chunkscope-failed`
//! ```
//!
//! A third element, `#meaning-host`, holds explore mode's sentence and
//! semantic views (the sentences and doubtful stops, the semantic curve with
//! its controls, the four-strategy comparison, the late-chunking explainer).
//! They draw the page's own splits: the page hands the module the worker's
//! binary reports it read them from (the same bytes, decoded by the same
//! `Split::decode`), and the module hands back what the learner does:
//!
//! ```text
//! page   → host.handoff = { sentence, semanticShown, semantic, compared: [ … ],
//!                           breakpoint, amount, buffer, unit, model }; event `chunkscope-meaning`
//!          (each split a { report, text, ms } of the worker's answer)
//! module → host[data-ask] = "breakpoint:KIND" | "amount:A" | "buffer:B" | "point:N" | "point:";
//!          event `chunkscope-meaning-ask`
//! ```
//!
//! A Markdown split's outline is drawn the same way, into `#outline-host`
//! (its `handoff` is `{ outline }`, one split, with the same event), and the
//! compare views' numbers side by side into `#compare-stats-host` (`{ panes:
//! [{ strategy, split }], primary }`, or `null` outside a compare view).
//!
//! The module starts its own worker (`engine::start`), as the page does: every
//! split it shows is still a worker's answer through the same contract (the
//! handed-over ones the page's worker's, which alone may hold the page's
//! token tables and model). A
//! static model lives in one worker, so evaluate mode loads its own (its
//! loader is shown when retrieval by a model is chosen) into the module's.

use crate::components::compare_stats::CompareStats;
use crate::components::comparison::StrategyComparison;
use crate::components::eval_page::EvalPage;
use crate::components::jump::Target;
use crate::components::late_chunking::LateChunking;
use crate::components::outline::Outline;
use crate::components::semantic_view::SemanticView;
use crate::components::sentence_view::SentenceView;
use crate::state::model_file::LoadedModel;
use crate::state::model_file::{ModelEvent, ModelState};
use crate::state::Action;
use crate::state::{Pointed, SemanticSettings, Shared, Split};
use crate::teach::exercises::Exercises;
use crate::teach::{teach_panel, Mode};
use crate::text::Text;
use chunkscope::{Strategy, Unit};
use js_sys::Reflect;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use web_sys::Element;
use yew::prelude::*;

/// The id of the element the page draws for the modes.
pub const HOST: &str = "modes-host";
/// The id of the element the page draws for the exercises.
pub const EXERCISES_HOST: &str = "exercises-host";
/// The page says which mode is shown (the host's `data-mode` holds it).
pub const SHOW: &str = "chunkscope-mode";
/// The module asks the page for another mode (the host's `data-ask` holds it).
pub const ASK: &str = "chunkscope-ask";
/// The module has drawn itself.
pub const READY: &str = "chunkscope-ready";
/// The module could not start (its loader says so).
pub const FAILED: &str = "chunkscope-failed";

/// The page's element `id`.
fn element(id: &str) -> Option<Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

fn host() -> Option<Element> {
    element(HOST)
}

fn shown(host: &Element) -> Mode {
    host.get_attribute("data-mode")
        .and_then(|m| Mode::parse(&m))
        .unwrap_or(Mode::Explore)
}

fn signal(host: &Element, name: &str) {
    if let Ok(event) = web_sys::Event::new(name) {
        let _ = host.dispatch_event(&event);
    }
}

/// The id of the element the page draws for the sentence and semantic views.
pub const MEANING_HOST: &str = "meaning-host";
/// The page has put new inputs for those views in the host's `handoff`.
pub const MEANING: &str = "chunkscope-meaning";
/// Those views ask the page for a change (the host's `data-ask` holds it).
pub const MEANING_ASK: &str = "chunkscope-meaning-ask";
/// The id of the element the page draws for a Markdown split's outline.
pub const OUTLINE_HOST: &str = "outline-host";
/// The id of the element the page draws for the compare views' numbers.
pub const COMPARE_STATS_HOST: &str = "compare-stats-host";
/// The property of the meaning, outline and compare-stats hosts that holds the page's handoff.
pub const HANDOFF: &str = "handoff";

/// The module's entry point: mounts the modes and the exercises, each into a
/// child of its host.
///
/// The page's Yew app and this one each number their roots from 1, and the
/// page's event delegation, which sees every event under `#app` first, takes an
/// element branded with its own number for one of its own. So a throwaway
/// root takes number 1 here first, and this module's roots are numbered 2 and
/// up: the page then leaves their events to this app.
pub fn start() {
    crate::panic::install();
    crate::engine::start();
    let (Some(host), Some(document)) = (host(), web_sys::window().and_then(|w| w.document()))
    else {
        return;
    };
    if let Ok(spare) = document.create_element("div") {
        let _ = yew::Renderer::<Nothing>::with_root(spare).render();
    }
    if let Some(root) = child_of(&document, EXERCISES_HOST) {
        yew::Renderer::<Exercises>::with_root(root).render();
    }
    if let Some(root) = child_of(&document, MEANING_HOST) {
        yew::Renderer::<Meaning>::with_root(root).render();
    }
    if let Some(root) = child_of(&document, OUTLINE_HOST) {
        yew::Renderer::<OutlineOf>::with_root(root).render();
    }
    if let Some(root) = child_of(&document, COMPARE_STATS_HOST) {
        yew::Renderer::<CompareStatsOf>::with_root(root).render();
    }
    let Ok(root) = document.create_element("div") else {
        return;
    };
    let _ = host.append_child(&root);
    yew::Renderer::<Modes>::with_root(root).render();
    signal(&host, READY);
}

/// A new element in the page's element `id`, for one of this module's roots.
fn child_of(document: &web_sys::Document, id: &str) -> Option<Element> {
    let host = document.get_element_by_id(id)?;
    let root = document.create_element("div").ok()?;
    host.append_child(&root).ok()?;
    Some(root)
}

#[function_component]
fn Nothing() -> Html {
    html! {}
}

#[function_component]
fn Modes() -> Html {
    let mode = use_state(|| host().map_or(Mode::Explore, |h| shown(&h)));
    {
        let mode = mode.clone();
        use_effect_with((), move |_| {
            let heard = mode.clone();
            let listener = Closure::<dyn Fn()>::new(move || {
                if let Some(h) = host() {
                    heard.set(shown(&h));
                }
            });
            if let Some(h) = host() {
                let _ = h.add_event_listener_with_callback(SHOW, listener.as_ref().unchecked_ref());
                // A mode chosen after the first render read the host and
                // before this listener was there went unheard: read it again.
                mode.set(shown(&h));
            }
            // The host lives as long as the page.
            listener.forget();
        });
    }
    // Evaluate mode is mounted when first chosen, then kept (hidden) so its
    // results survive a visit to another mode.
    let evaluated = use_mut_ref(|| false);
    if *mode == Mode::Evaluate {
        *evaluated.borrow_mut() = true;
    }
    let evaluate = *evaluated.borrow();
    let on_mode = use_callback((), |m: Mode, _| {
        if let Some(h) = host() {
            let _ = h.set_attribute("data-ask", m.name());
            signal(&h, ASK);
        }
    });
    html! {
        <>
            {teach_panel(*mode, &on_mode)}
            if evaluate {
                <div class="eval-mode" hidden={*mode != Mode::Evaluate}><Evaluate /></div>
            }
        </>
    }
}

/// The module's static model: evaluate mode's loader reports to it as the
/// page's loader reports to the page's state.
#[derive(Default, PartialEq)]
struct HeldModel(ModelState);

impl Reducible for HeldModel {
    type Action = ModelEvent;

    fn reduce(self: Rc<Self>, event: ModelEvent) -> Rc<Self> {
        let mut next = self.0.clone();
        next.on(event);
        Rc::new(Self(next))
    }
}

/// Evaluate mode with the model its worker holds.
#[function_component]
fn Evaluate() -> Html {
    let model = use_reducer(HeldModel::default);
    let app_dispatch = {
        let model = model.dispatcher();
        use_callback((), move |action: Action, _| {
            if let Action::Model(event) = action {
                model.dispatch(event);
            }
        })
    };
    html! { <EvalPage model={model.0.clone()} {app_dispatch} /> }
}

/// One split the page hands over, as the worker answered it.
pub fn split_handoff(split: &Shared) -> JsValue {
    let Some(report) = crate::engine::report_of(split) else {
        return JsValue::NULL;
    };
    let object = js_sys::Object::new();
    let _ = Reflect::set(&object, &"report".into(), &report);
    let _ = Reflect::set(
        &object,
        &"text".into(),
        &crate::engine::js_text_of(&split.text),
    );
    if let Some(ms) = split.worker_ms {
        let _ = Reflect::set(&object, &"ms".into(), &ms.into());
    }
    object.into()
}

/// The page's static model, for the late-chunking explainer.
/// The page's static model, for the late-chunking explainer: the worker's
/// summary in its one written form (`null` when none is loaded).
pub fn model_handoff(model: &Option<LoadedModel>) -> JsValue {
    model
        .as_ref()
        .map_or(JsValue::NULL, chunkscope_wasm::message::summary_to_js)
}

fn field(object: &JsValue, key: &str) -> JsValue {
    Reflect::get(object, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

fn text_field(object: &JsValue, key: &str) -> String {
    field(object, key).as_string().unwrap_or_default()
}

/// Splits read from the page's reports, kept while the page hands over the
/// same report (so a view whose split did not change is not drawn again),
/// and the text they share.
#[derive(Default)]
struct Decoded {
    splits: Vec<(JsValue, Shared)>,
    text: Option<(JsValue, Text)>,
}

impl Decoded {
    /// The split of one `{ report, text, ms }`, decoded once.
    fn split(&mut self, handed: &JsValue, fresh: &mut Vec<(JsValue, Shared)>) -> Option<Shared> {
        if handed.is_null() || handed.is_undefined() {
            return None;
        }
        let report = field(handed, "report");
        let known = self
            .splits
            .iter()
            .chain(fresh.iter())
            .find(|(r, _)| js_sys::Object::is(r, &report))
            .map(|(_, s)| s.clone());
        if let Some(split) = known {
            fresh.push((report, split.clone()));
            return Some(split);
        }
        let js_text = field(handed, "text");
        let text = match &self.text {
            Some((js, text)) if js_sys::Object::is(js, &js_text) => text.clone(),
            _ => {
                let text = Text::from(js_text.as_string().unwrap_or_default());
                self.text = Some((js_text, text.clone()));
                text
            }
        };
        let bytes = chunkscope_wasm::message::report_bytes(&report)?;
        let ms = field(handed, "ms").as_f64();
        match Split::decode(text, &bytes) {
            Ok(split) => {
                let split = Shared(Rc::new(split.with_worker_ms(ms)));
                fresh.push((report, split.clone()));
                Some(split)
            }
            Err(why) => {
                web_sys::console::error_1(&format!("a report the page handed over: {why}").into());
                None
            }
        }
    }
}

/// What the sentence and semantic views draw: the page's own splits (as the
/// worker's reports), the semantic settings, the unit and the page's static
/// model. The page makes it from its state and hands it over
/// (`modes_host`); the module reads it back from the handoff.
#[derive(Clone, PartialEq)]
pub(crate) struct MeaningInputs {
    pub sentence: Option<Shared>,
    /// Whether the semantic strategy is shown (its views are, before its split).
    pub semantic_shown: bool,
    pub semantic: Option<Shared>,
    pub compared: Vec<Shared>,
    pub settings: SemanticSettings,
    pub unit: Unit,
    pub model: Option<LoadedModel>,
}

/// What the page last put in host `id`'s `handoff`.
fn handoff_of(id: &str) -> Option<JsValue> {
    Some(field(&element(id)?.into(), HANDOFF))
}

/// Calls `on_change` whenever the page hands the host `id` new inputs, in a
/// task of its own: reading a long document's report again is not added to
/// the page's drawing of it.
///
/// Called from an effect, which may run a browser task after the first
/// render read the handoff: a handoff made in between is read once more.
fn on_handoff(id: &str, on_change: impl Fn() + 'static) {
    let on_change = Rc::new(on_change);
    let later = move || {
        let on_change = on_change.clone();
        gloo_timers::callback::Timeout::new(0, move || on_change()).forget();
    };
    later();
    let listener = Closure::<dyn Fn()>::new(later);
    if let Some(h) = element(id) {
        let _ = h.add_event_listener_with_callback(MEANING, listener.as_ref().unchecked_ref());
    }
    // The host lives as long as the page.
    listener.forget();
}

/// What the host `id` was handed, as `read` makes it of the handoff: read
/// on the first render and again on every new handoff.
#[hook]
fn use_handoff<T: 'static>(
    id: &'static str,
    read: fn(&mut Decoded) -> Option<T>,
) -> UseStateHandle<Option<T>> {
    let decoded = use_mut_ref(Decoded::default);
    let value = {
        let decoded = decoded.clone();
        use_state(move || read(&mut decoded.borrow_mut()))
    };
    {
        let value = value.clone();
        use_effect_with((), move |_| {
            on_handoff(id, move || value.set(read(&mut decoded.borrow_mut())));
        });
    }
    value
}

/// The split the outline host was handed, if any.
fn read_outline(decoded: &mut Decoded) -> Option<Shared> {
    let handoff = handoff_of(OUTLINE_HOST)?;
    let mut fresh = Vec::new();
    let split = decoded.split(&field(&handoff, "outline"), &mut fresh);
    decoded.splits = fresh;
    split
}

/// A Markdown split's outline, from the split the page hands over.
#[function_component]
fn OutlineOf() -> Html {
    let split = use_handoff(OUTLINE_HOST, read_outline);
    match &*split {
        Some(split) => html! { <Outline split={split.clone()} /> },
        None => html! {},
    }
}

/// The panes the compare-stats host was handed, and the primary one.
type Panes = (Vec<(Strategy, Option<Shared>)>, Strategy);

/// Reads the compare-stats host's handoff.
fn read_panes(decoded: &mut Decoded) -> Option<Panes> {
    let handoff = handoff_of(COMPARE_STATS_HOST)?;
    if handoff.is_null() || handoff.is_undefined() {
        return None;
    }
    let mut fresh = Vec::new();
    let panes = js_sys::Array::from(&field(&handoff, "panes"))
        .iter()
        .filter_map(|pane| {
            let strategy = text_field(&pane, "strategy").parse().ok()?;
            Some((strategy, decoded.split(&field(&pane, "split"), &mut fresh)))
        })
        .collect();
    decoded.splits = fresh;
    let primary = text_field(&handoff, "primary").parse().ok()?;
    Some((panes, primary))
}

/// The compare views' numbers, from the panes' splits the page hands over.
#[function_component]
fn CompareStatsOf() -> Html {
    let panes = use_handoff(COMPARE_STATS_HOST, read_panes);
    match &*panes {
        Some((splits, primary)) => html! {
            <div id={Target::CompareStats.id()}>
                <CompareStats splits={splits.clone()} primary={*primary} />
            </div>
        },
        None => html! {},
    }
}

/// Reads the handoff the meaning host holds.
fn read_meaning(decoded: &mut Decoded) -> Option<MeaningInputs> {
    let handoff = handoff_of(MEANING_HOST)?;
    if handoff.is_null() || handoff.is_undefined() {
        return None;
    }
    let mut fresh = Vec::new();
    let sentence = decoded.split(&field(&handoff, "sentence"), &mut fresh);
    let semantic = decoded.split(&field(&handoff, "semantic"), &mut fresh);
    let compared = js_sys::Array::from(&field(&handoff, "compared"))
        .iter()
        .filter_map(|handed| decoded.split(&handed, &mut fresh))
        .collect();
    decoded.splits = fresh;
    let breakpoint = text_field(&handoff, "breakpoint")
        .parse()
        .unwrap_or_default();
    let settings = SemanticSettings {
        breakpoint,
        amount: text_field(&handoff, "amount"),
        buffer: text_field(&handoff, "buffer"),
    };
    let unit = text_field(&handoff, "unit").parse().unwrap_or(Unit::Chars);
    // Read strictly: a summary the page wrote wrong is said, not defaulted.
    let model = match chunkscope_wasm::message::read_summary(&field(&handoff, "model")) {
        Ok(model) => model,
        Err(why) => {
            web_sys::console::error_1(&format!("the page's model summary: {why}").into());
            None
        }
    };
    Some(MeaningInputs {
        sentence,
        semantic_shown: field(&handoff, "semanticShown").is_truthy(),
        semantic,
        compared,
        settings,
        unit,
        model,
    })
}

/// Asks the page for a change (`kind:value`).
fn ask_page(what: String) {
    if let Some(h) = element(MEANING_HOST) {
        let _ = h.set_attribute("data-ask", &what);
        signal(&h, MEANING_ASK);
    }
}

/// Explore mode's sentence and semantic views, drawn from the splits the page
/// hands over; their controls ask the page, whose state holds the settings.
#[function_component]
fn Meaning() -> Html {
    let inputs = use_handoff(MEANING_HOST, read_meaning);
    let dispatch = use_callback((), |action: Action, _| {
        let what = match action {
            Action::SetBreakpoint(kind) => format!("breakpoint:{}", kind.name()),
            Action::SetAmount(amount) => format!("amount:{amount}"),
            Action::SetBuffer(buffer) => format!("buffer:{buffer}"),
            _ => return,
        };
        ask_page(what);
    });
    let on_point = use_callback((), |pointed: Option<Pointed>, _| {
        ask_page(format!(
            "point:{}",
            pointed.map(|p| p.index.to_string()).unwrap_or_default()
        ));
    });
    let Some(m) = &*inputs else {
        return html! {};
    };
    let sentences = m
        .sentence
        .as_ref()
        .map(|split| html! { <SentenceView split={split.clone()} /> });
    let semantic = m.semantic_shown.then(|| {
        html! {
            <>
                if let Some(split) = &m.semantic {
                    <SemanticView split={split.clone()} settings={m.settings.clone()}
                        dispatch={dispatch.clone()} on_point={on_point.clone()} />
                }
                <StrategyComparison splits={m.compared.clone()} unit={m.unit} />
                <LateChunking model={m.model.clone()}
                    chunks={m.semantic.as_ref().map(|s| s.output.chunks.len())} />
            </>
        }
    });
    html! { <>{sentences}{semantic}</> }
}
