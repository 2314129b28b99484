//! The practice, bug-gallery, code and evaluate modes, and explore mode's
//! exercises, as a second wasm module
//! (`chunkscope-modes`: the page's own sources, built as a second binary
//! whose `main` calls [`start`]), which the
//! page adds once it has drawn itself, so its first load carries what explore
//! mode shows first.
//!
//! The page and the module share no memory; they meet at two elements the page
//! draws: `#exercises-host` (explore mode's exercises, which need nothing
//! from the page) and `#modes-host`, where a mode's body goes:
//!
//! ```text
//! page   → host[data-mode] = the mode shown; event `chunkscope-mode` when it changes
//! module → host[data-ask]  = a mode to go to;  event `chunkscope-ask`
//! module → event `chunkscope-ready` once it is drawn; its loader: `chunkscope-failed`
//! ```
//!
//! The module starts its own worker (`engine::start`), as the page does: every
//! split it shows is still the worker's answer through the same contract. A
//! static model lives in one worker, so evaluate mode loads its own (its
//! loader is shown when retrieval by a model is chosen) into the module's.

use crate::components::eval_page::EvalPage;
use crate::state::model_file::{ModelEvent, ModelState};
use crate::state::Action;
use crate::teach::exercises::Exercises;
use crate::teach::{teach_panel, Mode};
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
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

fn host() -> Option<Element> {
    web_sys::window()?.document()?.get_element_by_id(HOST)
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
