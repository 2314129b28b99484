//! Where the practice, bug-gallery, code and evaluate modes are drawn: the
//! page's side of [`crate::modes`]. The first time a learner picks one, the
//! page adds the modes module's loader (`modes-loader.js`, next to the page);
//! until it has drawn itself, the host says it is loading.

use crate::modes::{ASK, FAILED, HOST, READY, SHOW};
use crate::teach::Mode;
use std::cell::Cell;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The loader of the modes module, beside the page.
const LOADER: &str = "./modes-loader.js";

thread_local! {
    static REQUESTED: Cell<bool> = const { Cell::new(false) };
}

/// Adds the module's loader to the page, once; `failed` is called if it
/// cannot be fetched.
fn load(failed: Callback<()>) {
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
    let on_error = Closure::<dyn Fn()>::new(move || failed.emit(()));
    let _ = script.add_event_listener_with_callback("error", on_error.as_ref().unchecked_ref());
    on_error.forget();
    if let Some(head) = document.head() {
        let _ = head.append_child(&script);
    }
}

/// Props of [`ModesHost`].
#[derive(Properties, PartialEq)]
pub struct ModesHostProps {
    /// The mode the page shows.
    pub mode: Mode,
    /// Where the modes' own links send the learner (code mode's to the gallery).
    pub on_mode: Callback<Mode>,
}

/// The element the modes module draws into, told the mode on every change.
#[function_component]
pub fn ModesHost(props: &ModesHostProps) -> Html {
    let host = use_node_ref();
    // None while the module loads, then Ok once it has drawn, Err if it failed.
    let loaded = use_state(|| None::<Result<(), ()>>);
    {
        let (host, loaded, on_mode) = (host.clone(), loaded.clone(), props.on_mode.clone());
        use_effect_with((), move |_| {
            if let Some(el) = host.cast::<web_sys::Element>() {
                let ready = loaded.clone();
                let on_ready = Closure::<dyn Fn()>::new(move || ready.set(Some(Ok(()))));
                let asker = el.clone();
                let on_ask = Closure::<dyn Fn()>::new(move || {
                    if let Some(m) = asker
                        .get_attribute("data-ask")
                        .and_then(|m| Mode::parse(&m))
                    {
                        on_mode.emit(m);
                    }
                });
                let failed = loaded.clone();
                let on_failed = Closure::<dyn Fn()>::new(move || failed.set(Some(Err(()))));
                let _ =
                    el.add_event_listener_with_callback(READY, on_ready.as_ref().unchecked_ref());
                let _ =
                    el.add_event_listener_with_callback(FAILED, on_failed.as_ref().unchecked_ref());
                on_failed.forget();
                let _ = el.add_event_listener_with_callback(ASK, on_ask.as_ref().unchecked_ref());
                // The host lives as long as the page.
                on_ready.forget();
                on_ask.forget();
            }
        });
    }
    {
        let (host, loaded) = (host.clone(), loaded.clone());
        use_effect_with(props.mode, move |mode| {
            if *mode != Mode::Explore {
                load(Callback::from(move |()| loaded.set(Some(Err(())))));
            }
            if let Some(el) = host.cast::<web_sys::Element>() {
                if let Ok(event) = web_sys::Event::new(SHOW) {
                    let _ = el.dispatch_event(&event);
                }
            }
        });
    }
    let waiting = props.mode != Mode::Explore;
    html! {
        <div id={HOST} ref={host} class="modes-host" data-mode={props.mode.name()}>
            if waiting && loaded.is_none() {
                <p class="loading">{"Loading this mode…"}</p>
            }
            if waiting && matches!(*loaded, Some(Err(()))) {
                <p class="notice" role="alert">{"This mode could not be loaded; reload the page to try again."}</p>
            }
        </div>
    }
}
