//! Where the practice, bug-gallery, code and evaluate modes and explore mode's
//! exercises and late-chunking explainer are drawn: the page's side of [`crate::modes`]. Once the page has
//! drawn itself (or a mode is chosen), it adds the modes module's loader
//! (`modes-loader.js`, next to the page); until the module has drawn itself,
//! the mode's host says it is loading.

use crate::modes::{ASK, EXERCISES_HOST, FAILED, HOST, READY, SHOW};
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
#[hook]
pub fn use_modes_host(mode: Mode, on_mode: Callback<Mode>) -> Html {
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
    {
        let host = host.clone();
        use_effect_with(mode, move |_| {
            load();
            if let Some(el) = host.cast::<web_sys::Element>() {
                if let Ok(event) = web_sys::Event::new(SHOW) {
                    let _ = el.dispatch_event(&event);
                }
            }
        });
    }
    let waiting = mode != Mode::Explore;
    html! {
        <div id={HOST} ref={host} class="modes-host" data-mode={mode.name()}>
            if waiting && loaded.is_none() {
                <p class="loading">{"Loading this mode…"}</p>
            }
            if waiting && matches!(*loaded, Some(Err(()))) {
                <p class="notice" role="alert">{"This mode could not be loaded; reload the page to try again."}</p>
            }
        </div>
    }
}

/// Where explore mode's exercises go: the module draws them here once it has
/// loaded, which [`use_modes_host`] starts as soon as the page has drawn itself.
pub fn exercises_host() -> Html {
    html! { <div id={EXERCISES_HOST}></div> }
}
