//! Where the practice, bug-gallery, code and evaluate modes and explore mode's
//! exercises and sentence and semantic views are drawn: the page's side of [`crate::modes`]. Once the worker
//! has answered the page's first split (or a mode is chosen, or after
//! [`FALLBACK_MS`] whatever happens), it adds the modes module's loader
//! (`modes-loader.js`, next to the page); until the module has drawn itself,
//! the mode's host says it is loading. Waiting for the first answer leaves the
//! link to the worker's wasm on a first visit: fetched together, the two
//! shared the bandwidth and the lesson's chunks came later
//! (`tests/e2e/coldload.mjs`, docs/performance.md).

use crate::bridge::{dom, Ask, Handoff, Host, MeaningManifest, Panes, FAILED, READY};
use crate::modes::{model_handoff, Handing, MeaningInputs};
use crate::state::{Action, Pointed, Shared, State, View};
use crate::teach::Mode;
use chunkscope::Strategy;
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
        if let Some(host) = dom::element(Host::Modes) {
            dom::signal(&host, FAILED);
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
                let on_event = Closure::<dyn Fn(web_sys::Event)>::new(move |e: web_sys::Event| {
                    loaded.set(Some(if e.type_() == READY { Ok(()) } else { Err(()) }));
                });
                for name in [READY, FAILED] {
                    let _ = el
                        .add_event_listener_with_callback(name, on_event.as_ref().unchecked_ref());
                }
                // The host lives as long as the page.
                on_event.forget();
                // Of the module's asks, this host takes the mode to go to.
                dom::on_ask(&el, move |ask| {
                    if let Ask::Mode(m) = ask {
                        on_mode.emit(m);
                    }
                });
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
                Handing::default().hand_off(&el, &Handoff::Mode(mode), JsValue::NULL);
            }
        });
    }
    let waiting = mode != Mode::Explore;
    let module = (*loaded).map(|l| l.is_ok());
    let host = html! {
        <div id={Host::Modes.id()} ref={host} class="modes-host">
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
    html! { <div id={Host::Exercises.id()}></div> }
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

    /// Hands these inputs to the meaning host `el`.
    fn hand_off(&self, el: &web_sys::Element) {
        let mut handing = Handing::default();
        let manifest = MeaningManifest {
            sentence: self.sentence.as_ref().and_then(|s| handing.hand(s)),
            semantic_shown: self.semantic_shown,
            semantic: self.semantic.as_ref().and_then(|s| handing.hand(s)),
            compared: self
                .compared
                .iter()
                .filter_map(|s| handing.hand(s))
                .collect(),
            settings: self.settings.clone(),
            unit: self.unit,
        };
        handing.hand_off(el, &Handoff::Meaning(manifest), model_handoff(&self.model));
    }
}

/// What the module's views ask for, as the page's action (a mode to go to
/// is the modes host's).
fn action(ask: Ask) -> Option<Action> {
    Some(match ask {
        Ask::Breakpoint(kind) => Action::SetBreakpoint(kind),
        Ask::Amount(amount) => Action::SetAmount(amount),
        Ask::Buffer(buffer) => Action::SetBuffer(buffer),
        Ask::Point(index) => Action::Point(index.map(|index| Pointed {
            strategy: Strategy::Semantic,
            index,
        })),
        Ask::Mode(_) => return None,
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
                dom::on_ask(&el, move |ask| {
                    if let Some(action) = action(ask) {
                        dispatch.emit(action);
                    }
                });
            }
        });
    }
    let meaning = MeaningInputs::of(state);
    let shown = meaning.sentence.is_some() || meaning.semantic_shown;
    {
        let host = host.clone();
        use_effect_with(meaning, move |meaning| {
            if let Some(el) = host.cast::<web_sys::Element>() {
                meaning.hand_off(&el);
            }
        });
    }
    html! {
        <div id={Host::Meaning.id()} ref={host} class="meaning-host">
            if shown && module.is_none() {
                <p class="loading">{"Loading the sentence and semantic views…"}</p>
            }
            if shown && module == Some(false) {
                <p class="notice" role="alert">{"The sentence and semantic views could not be loaded; reload the page to try again."}</p>
            }
        </div>
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
            if let Some(el) = host.cast::<web_sys::Element>() {
                let mut handing = Handing::default();
                let outline = split.as_ref().and_then(|s| handing.hand(s));
                handing.hand_off(&el, &Handoff::Outline(outline), JsValue::NULL);
            }
        });
    }
    html! { <div id={Host::Outline.id()} ref={host} class="meaning-host"></div> }
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
            if let Some(el) = host.cast::<web_sys::Element>() {
                let mut handing = Handing::default();
                let handoff = Handoff::CompareStats(panes.as_ref().map(|panes| {
                    Panes {
                        panes: (panes.iter())
                            .map(|(strategy, split)| {
                                (*strategy, split.as_ref().and_then(|s| handing.hand(s)))
                            })
                            .collect(),
                        primary: *primary,
                    }
                }));
                handing.hand_off(&el, &handoff, JsValue::NULL);
            }
        });
    }
    html! { <div id={Host::CompareStats.id()} ref={host} class="meaning-host"></div> }
}
