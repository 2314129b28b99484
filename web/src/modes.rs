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
//! draws and talk through one typed protocol, [`crate::bridge`]: the page
//! hands each host a [`Handoff`] (the mode shown; the sentence and semantic
//! views' splits and settings; a Markdown split for the outline; the compare
//! views' panes), its splits as the worker's binary reports, decoded here
//! by the same `Split::decode`; the module hands back what the learner does
//! as an [`Ask`].
//!
//! The module starts its own worker (`engine::start`), as the page does: every
//! split it shows is still a worker's answer through the same contract (the
//! handed-over ones the page's worker's, which alone may hold the page's
//! token tables and model). A
//! static model lives in one worker, so evaluate mode loads its own (its
//! loader is shown when retrieval by a model is chosen) into the module's.

use crate::bridge::dom::{self, element};
use crate::bridge::{Ask, Handed, Handoff, Host, READY};
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
use std::rc::Rc;
use wasm_bindgen::JsValue;
use web_sys::Element;
use yew::prelude::*;

/// The mode the page shows, as it last handed it.
fn shown() -> Mode {
    match dom::handed(Host::Modes) {
        Ok(Some((Handoff::Mode(mode), _, _))) => mode,
        Ok(_) => Mode::Explore,
        Err(why) => {
            web_sys::console::error_1(&format!("the page's mode: {why}").into());
            Mode::Explore
        }
    }
}

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
    let (Some(host), Some(document)) = (
        element(Host::Modes),
        web_sys::window().and_then(|w| w.document()),
    ) else {
        return;
    };
    if let Ok(spare) = document.create_element("div") {
        let _ = yew::Renderer::<Nothing>::with_root(spare).render();
    }
    if let Some(root) = child_of(&document, Host::Exercises) {
        yew::Renderer::<Exercises>::with_root(root).render();
    }
    if let Some(root) = child_of(&document, Host::Meaning) {
        yew::Renderer::<Meaning>::with_root(root).render();
    }
    if let Some(root) = child_of(&document, Host::Outline) {
        yew::Renderer::<OutlineOf>::with_root(root).render();
    }
    if let Some(root) = child_of(&document, Host::CompareStats) {
        yew::Renderer::<CompareStatsOf>::with_root(root).render();
    }
    let Ok(root) = document.create_element("div") else {
        return;
    };
    let _ = host.append_child(&root);
    yew::Renderer::<Modes>::with_root(root).render();
    dom::signal(&host, READY);
}

/// A new element in the page's element for `host`, for one of this module's roots.
fn child_of(document: &web_sys::Document, host: Host) -> Option<Element> {
    let host = document.get_element_by_id(host.id())?;
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
    let mode = use_state(shown);
    {
        let mode = mode.clone();
        use_effect_with((), move |_| {
            let heard = mode.clone();
            dom::on_handoff(Host::Modes, move || heard.set(shown()));
            // A mode chosen after the first render read the host and
            // before this listener was there went unheard: read it again.
            mode.set(shown());
        });
    }
    // Evaluate mode is mounted when first chosen, then kept (hidden) so its
    // results survive a visit to another mode.
    let evaluated = use_mut_ref(|| false);
    if *mode == Mode::Evaluate {
        *evaluated.borrow_mut() = true;
    }
    let evaluate = *evaluated.borrow();
    let on_mode = use_callback((), |m: Mode, _| dom::ask(Host::Modes, &Ask::Mode(m)));
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

/// The reports of the splits a handoff names, gathered as the page hands
/// them over.
#[derive(Default)]
pub struct Handing {
    reports: js_sys::Array,
}

impl Handing {
    /// Hands `split` over: its worker's report joins the list, and the
    /// handoff names it by its place there (`None` for a split with no
    /// report kept).
    pub fn hand(&mut self, split: &Shared) -> Option<Handed> {
        let report = crate::engine::report_of(split)?;
        let text = crate::engine::js_text_of(&split.text);
        let index = self.reports.push(&dom::report_pair(&report, &text)) - 1;
        Some(Handed {
            report: index as usize,
            ms: split.worker_ms,
        })
    }

    /// Puts `handoff` on `el` with the reports it names and `model`.
    pub fn hand_off(self, el: &Element, handoff: &Handoff, model: JsValue) {
        dom::hand_off(el, handoff, self.reports, model);
    }
}

/// The page's static model, for the late-chunking explainer: the worker's
/// summary in its one written form (`null` when none is loaded).
pub fn model_handoff(model: &Option<LoadedModel>) -> JsValue {
    model
        .as_ref()
        .map_or(JsValue::NULL, chunkscope_wasm::message::summary_to_js)
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
    /// The split `handed` names in `reports`, decoded once.
    fn split(
        &mut self,
        handed: Option<Handed>,
        reports: &js_sys::Array,
        fresh: &mut Vec<(JsValue, Shared)>,
    ) -> Option<Shared> {
        let handed = handed?;
        let (report, js_text) = dom::report(reports, handed.report);
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
        let text = match &self.text {
            Some((js, text)) if js_sys::Object::is(js, &js_text) => text.clone(),
            _ => {
                let Some(string) = js_text.as_string() else {
                    web_sys::console::error_1(&"a report handed over without its text".into());
                    return None;
                };
                let text = Text::from(string);
                self.text = Some((js_text, text.clone()));
                text
            }
        };
        let bytes = chunkscope_wasm::message::report_bytes(&report)?;
        match Split::decode(text, &bytes) {
            Ok(split) => {
                let split = Shared(Rc::new(split.with_worker_ms(handed.ms)));
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

/// What the page last handed `host`, or `None` (what does not read is said
/// on the console).
fn handed(host: Host) -> Option<(Handoff, js_sys::Array, JsValue)> {
    dom::handed(host).unwrap_or_else(|why| {
        web_sys::console::error_1(&format!("the page's handoff to {}: {why}", host.id()).into());
        None
    })
}

/// Calls `on_change` whenever the page hands `host` new inputs, in a task of
/// its own: reading a long document's report again is not added to the
/// page's drawing of it.
///
/// Called from an effect, which may run a browser task after the first
/// render read the handoff: a handoff made in between is read once more.
fn on_handoff(host: Host, on_change: impl Fn() + 'static) {
    let on_change = Rc::new(on_change);
    let later = move || {
        let on_change = on_change.clone();
        gloo_timers::callback::Timeout::new(0, move || on_change()).forget();
    };
    later();
    dom::on_handoff(host, later);
}

/// What `host` was handed, as `read` makes it of the handoff: read on the
/// first render and again on every new handoff.
#[hook]
fn use_handoff<T: 'static>(
    host: Host,
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
            on_handoff(host, move || value.set(read(&mut decoded.borrow_mut())));
        });
    }
    value
}

/// The split the outline host was handed, if any.
fn read_outline(decoded: &mut Decoded) -> Option<Shared> {
    let (Handoff::Outline(split), reports, _) = handed(Host::Outline)? else {
        return None;
    };
    let mut fresh = Vec::new();
    let split = decoded.split(split, &reports, &mut fresh);
    decoded.splits = fresh;
    split
}

/// A Markdown split's outline, from the split the page hands over.
#[function_component]
fn OutlineOf() -> Html {
    let split = use_handoff(Host::Outline, read_outline);
    match &*split {
        Some(split) => html! { <Outline split={split.clone()} /> },
        None => html! {},
    }
}

/// The panes the compare-stats host was handed, and the primary one.
type PaneSplits = (Vec<(Strategy, Option<Shared>)>, Strategy);

/// Reads the compare-stats host's handoff.
fn read_panes(decoded: &mut Decoded) -> Option<PaneSplits> {
    let (Handoff::CompareStats(Some(handed)), reports, _) = handed(Host::CompareStats)? else {
        return None;
    };
    let mut fresh = Vec::new();
    let panes = (handed.panes.iter())
        .map(|&(strategy, split)| (strategy, decoded.split(split, &reports, &mut fresh)))
        .collect();
    decoded.splits = fresh;
    Some((panes, handed.primary))
}

/// The compare views' numbers, from the panes' splits the page hands over.
#[function_component]
fn CompareStatsOf() -> Html {
    let panes = use_handoff(Host::CompareStats, read_panes);
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
    let (Handoff::Meaning(m), reports, model) = handed(Host::Meaning)? else {
        return None;
    };
    let mut fresh = Vec::new();
    let sentence = decoded.split(m.sentence, &reports, &mut fresh);
    let semantic = decoded.split(m.semantic, &reports, &mut fresh);
    let compared = (m.compared.iter())
        .filter_map(|&handed| decoded.split(Some(handed), &reports, &mut fresh))
        .collect();
    decoded.splits = fresh;
    // Read strictly: a summary the page wrote wrong is said, not defaulted.
    let model = match chunkscope_wasm::message::read_summary(&model) {
        Ok(model) => model,
        Err(why) => {
            web_sys::console::error_1(&format!("the page's model summary: {why}").into());
            None
        }
    };
    Some(MeaningInputs {
        sentence,
        semantic_shown: m.semantic_shown,
        semantic,
        compared,
        settings: m.settings,
        unit: m.unit,
        model,
    })
}

/// Explore mode's sentence and semantic views, drawn from the splits the page
/// hands over; their controls ask the page, whose state holds the settings.
#[function_component]
fn Meaning() -> Html {
    let inputs = use_handoff(Host::Meaning, read_meaning);
    let dispatch = use_callback((), |action: Action, _| {
        let ask = match action {
            Action::SetBreakpoint(kind) => Ask::Breakpoint(kind),
            Action::SetAmount(amount) => Ask::Amount(amount),
            Action::SetBuffer(buffer) => Ask::Buffer(buffer),
            _ => return,
        };
        dom::ask(Host::Meaning, &ask);
    });
    let on_point = use_callback((), |pointed: Option<Pointed>, _| {
        dom::ask(Host::Meaning, &Ask::Point(pointed.map(|p| p.index)));
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
