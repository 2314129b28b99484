//! Where the practice, bug-gallery, code and evaluate modes and explore mode's
//! exercises and sentence and semantic views are drawn: the page's side of [`crate::modes`]. Once the worker
//! has answered the page's first split (or a mode is chosen, or after
//! [`FALLBACK_MS`] whatever happens), it adds the modes module's loader
//! (`modes-loader.js`, next to the page); until the module has drawn itself,
//! the mode's host says it is loading. Waiting for the first answer leaves the
//! link to the worker's wasm on a first visit: fetched together, the two
//! shared the bandwidth and the lesson's chunks came later
//! (`tests/e2e/coldload.mjs`, docs/performance.md).

use crate::modes::{
    model_handoff, split_handoff, MeaningInputs, ASK, COMPARE_STATS_HOST, EXERCISES_HOST, FAILED,
    HANDOFF, HOST, MEANING, MEANING_ASK, MEANING_HOST, OUTLINE_HOST, READY, SHOW,
};
use crate::state::{Action, Pointed, Shared, State, View};
use crate::teach::Mode;
use chunkscope::Strategy;
use js_sys::Reflect;
use std::cell::Cell;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use wasm_bindgen::JsValue;
use yew::prelude::*;

/// The loader of the modes module, beside the page.
const LOADER: &str = "./modes-loader.js";

/// When the module is loaded in explore mode if the first split never comes
/// (an empty text, a worker that cannot start).
const FALLBACK_MS: i32 = 3000;

thread_local! {
    static REQUESTED: Cell<bool> = const { Cell::new(false) };
}

/// Adds the module's loader to the page, once. If it cannot be fetched, the
/// modes' host is told as when the module cannot start.
fn load() {
    if REQUESTED.with(|r| r.replace(true)) {
        return;
    }
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(script) = document.create_element("script") else {
        return;
    };
    let _ = script.set_attribute("type", "module");
    let _ = script.set_attribute("src", LOADER);
    let on_error = Closure::<dyn Fn()>::new(move || {
        let host = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(HOST));
        if let (Some(host), Ok(event)) = (host, web_sys::Event::new(FAILED)) {
            let _ = host.dispatch_event(&event);
        }
    });
    let _ = script.add_event_listener_with_callback("error", on_error.as_ref().unchecked_ref());
    on_error.forget();
    if let Some(head) = document.head() {
        let _ = head.append_child(&script);
    }
}

/// The element the modes module draws into, told the mode on every change; the
/// module's links to another mode (code mode's to the gallery) go to `on_mode`.
/// A hook of the page's rather than a component: one component fewer in the
/// page's wasm.
///
/// Also returns whether the module has drawn itself (`None` while it loads,
/// `Some(false)` when it could not start).
#[hook]
pub fn use_modes_host(mode: Mode, answered: bool, on_mode: Callback<Mode>) -> (Html, Option<bool>) {
    let host = use_node_ref();
    // None while the module loads, then Ok once it has drawn, Err if it failed.
    let loaded = use_state(|| None::<Result<(), ()>>);
    {
        let (host, loaded) = (host.clone(), loaded.clone());
        use_effect_with((), move |_| {
            if let Some(el) = host.cast::<web_sys::Element>() {
                let asker = el.clone();
                let on_event = Closure::<dyn Fn(web_sys::Event)>::new(move |e: web_sys::Event| {
                    match e.type_().as_str() {
                        READY => loaded.set(Some(Ok(()))),
                        FAILED => loaded.set(Some(Err(()))),
                        _ => {
                            let asked = asker.get_attribute("data-ask");
                            if let Some(m) = asked.and_then(|m| Mode::parse(&m)) {
                                on_mode.emit(m);
                            }
                        }
                    }
                });
                for name in [READY, FAILED, ASK] {
                    let _ = el
                        .add_event_listener_with_callback(name, on_event.as_ref().unchecked_ref());
                }
                // The host lives as long as the page.
                on_event.forget();
            }
        });
    }
    use_effect_with((), |_| {
        let later = Closure::once_into_js(load);
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                later.unchecked_ref(),
                FALLBACK_MS,
            );
        }
    });
    {
        let host = host.clone();
        use_effect_with((mode, answered), move |&(mode, answered)| {
            if mode != Mode::Explore || answered {
                load();
            }
            if let Some(el) = host.cast::<web_sys::Element>() {
                if let Ok(event) = web_sys::Event::new(SHOW) {
                    let _ = el.dispatch_event(&event);
                }
            }
        });
    }
    let waiting = mode != Mode::Explore;
    let module = (*loaded).map(|l| l.is_ok());
    let host = html! {
        <div id={HOST} ref={host} class="modes-host" data-mode={mode.name()}>
            if waiting && loaded.is_none() {
                <p class="loading">{"Loading this mode…"}</p>
            }
            if waiting && matches!(*loaded, Some(Err(()))) {
                <p class="notice" role="alert">{"This mode could not be loaded; reload the page to try again."}</p>
            }
        </div>
    };
    (host, module)
}

/// Where explore mode's exercises go: the module draws them here once it has
/// loaded, which [`use_modes_host`] starts once the worker has answered the first split.
pub fn exercises_host() -> Html {
    html! { <div id={EXERCISES_HOST}></div> }
}

impl MeaningInputs {
    /// The views' inputs in `state`: the sentences of a single split with
    /// the sentence level; with the semantic strategy shown, its split, the
    /// four strategies compared and the model.
    fn of(state: &State) -> MeaningInputs {
        let primary = state.primary();
        let semantic_shown = state.view == View::One(Strategy::Semantic);
        MeaningInputs {
            sentence: primary
                .filter(|s| s.output.sentences.is_some() && !state.view.is_compare())
                .cloned(),
            semantic_shown,
            semantic: semantic_shown.then(|| primary.cloned()).flatten(),
            compared: if semantic_shown {
                crate::state::semantic::COMPARED
                    .iter()
                    .filter_map(|&s| state.split(s).cloned())
                    .collect()
            } else {
                Vec::new()
            },
            settings: state.semantic.clone(),
            unit: state.settings.unit,
            model: state.model.loaded.clone(),
        }
    }

    /// The handoff object (see [`crate::modes`]).
    fn handoff(&self) -> JsValue {
        let object = js_sys::Object::new();
        let set = |key: &str, value: &JsValue| {
            let _ = Reflect::set(&object, &key.into(), value);
        };
        let split = |s: &Option<Shared>| s.as_ref().map_or(JsValue::NULL, split_handoff);
        set("sentence", &split(&self.sentence));
        set("semanticShown", &self.semantic_shown.into());
        set("semantic", &split(&self.semantic));
        let compared: js_sys::Array = self.compared.iter().map(split_handoff).collect();
        set("compared", &compared);
        set("breakpoint", &self.settings.breakpoint.name().into());
        set("amount", &self.settings.amount.as_str().into());
        set("buffer", &self.settings.buffer.as_str().into());
        set("unit", &self.unit.name().into());
        set("model", &model_handoff(&self.model));
        object.into()
    }
}

/// What the module's views ask for, as the page's action.
fn asked(what: &str) -> Option<Action> {
    let (kind, value) = what.split_once(':')?;
    Some(match kind {
        "breakpoint" => Action::SetBreakpoint(value.parse().ok()?),
        "amount" => Action::SetAmount(value.to_string()),
        "buffer" => Action::SetBuffer(value.to_string()),
        "point" => Action::Point(value.parse().ok().map(|index| Pointed {
            strategy: Strategy::Semantic,
            index,
        })),
        _ => return None,
    })
}

/// The element the modes module draws explore mode's sentence and semantic
/// views into: handed the page's splits and settings on every change, its
/// controls' changes come back as the page's actions. Until the module has
/// drawn itself (`module`, from [`use_modes_host`]) the host says the views
/// are loading, or that they could not be.
#[hook]
pub fn use_meaning_host(state: &State, dispatch: Callback<Action>, module: Option<bool>) -> Html {
    let host = use_node_ref();
    {
        let host = host.clone();
        use_effect_with((), move |_| {
            if let Some(el) = host.cast::<web_sys::Element>() {
                let asker = el.clone();
                let on_ask = Closure::<dyn Fn()>::new(move || {
                    if let Some(action) = asker.get_attribute("data-ask").as_deref().and_then(asked)
                    {
                        dispatch.emit(action);
                    }
                });
                let _ = el
                    .add_event_listener_with_callback(MEANING_ASK, on_ask.as_ref().unchecked_ref());
                // The host lives as long as the page.
                on_ask.forget();
            }
        });
    }
    let meaning = MeaningInputs::of(state);
    let shown = meaning.sentence.is_some() || meaning.semantic_shown;
    {
        let host = host.clone();
        use_effect_with(meaning, move |meaning| {
            hand_off(&host, &meaning.handoff());
        });
    }
    html! {
        <div id={MEANING_HOST} ref={host} class="meaning-host">
            if shown && module.is_none() {
                <p class="loading">{"Loading the sentence and semantic views…"}</p>
            }
            if shown && module == Some(false) {
                <p class="notice" role="alert">{"The sentence and semantic views could not be loaded; reload the page to try again."}</p>
            }
        </div>
    }
}

/// Puts `handoff` in the host's `handoff` property and tells the module
/// (which reads it again once it is listening; see [`crate::modes`]).
fn hand_off(host: &NodeRef, handoff: &JsValue) {
    if let Some(el) = host.cast::<web_sys::Element>() {
        let _ = Reflect::set(&el, &HANDOFF.into(), handoff);
        if let Ok(event) = web_sys::Event::new(MEANING) {
            let _ = el.dispatch_event(&event);
        }
    }
}

/// The element the modes module draws a Markdown split's outline into,
/// handed `split` (when it is a Markdown split) on every change.
#[hook]
pub fn use_outline_host(split: Option<Shared>) -> Html {
    let host = use_node_ref();
    {
        let host = host.clone();
        let split = split.filter(|s| s.output.markdown.is_some());
        use_effect_with(split, move |split| {
            let object = js_sys::Object::new();
            let outline = split.as_ref().map_or(JsValue::NULL, split_handoff);
            let _ = Reflect::set(&object, &"outline".into(), &outline);
            hand_off(&host, &object);
        });
    }
    html! { <div id={OUTLINE_HOST} ref={host} class="meaning-host"></div> }
}

/// The element the modes module draws the compare views' numbers into,
/// handed each pane's split (`panes`, `None` outside a compare view) and the
/// primary pane on every change.
#[hook]
pub fn use_compare_stats_host(
    panes: Option<Vec<(Strategy, Option<Shared>)>>,
    primary: Strategy,
) -> Html {
    let host = use_node_ref();
    {
        let host = host.clone();
        use_effect_with((panes, primary), move |(panes, primary)| {
            let handoff = panes.as_ref().map_or(JsValue::NULL, |panes| {
                let list: js_sys::Array = panes
                    .iter()
                    .map(|(strategy, split)| {
                        let pane = js_sys::Object::new();
                        let _ = Reflect::set(&pane, &"strategy".into(), &strategy.name().into());
                        let split = split.as_ref().map_or(JsValue::NULL, split_handoff);
                        let _ = Reflect::set(&pane, &"split".into(), &split);
                        JsValue::from(pane)
                    })
                    .collect();
                let object = js_sys::Object::new();
                let _ = Reflect::set(&object, &"panes".into(), &list);
                let _ = Reflect::set(&object, &"primary".into(), &primary.name().into());
                object.into()
            });
            hand_off(&host, &handoff);
        });
    }
    html! { <div id={COMPARE_STATS_HOST} ref={host} class="meaning-host"></div> }
}
