//! The chunkscope playground: a page that splits a document the way a retrieval
//! pipeline would and draws every chunk, cut and recursion step the engine
//! recorded.

#![forbid(unsafe_code)]

mod bridge;
mod code;
mod components;
mod deflate;
mod engine;
mod eval_share;
mod history;
mod invalid;
mod model;
mod modes;
mod panic;
mod presets;
mod semantic_model;
mod share;
mod state;
mod teach;
mod text;

/// Whether this build is the modes module (`chunkscope-modes`, the same
/// sources as the page): its `main` mounts the modes, and the page's code it
/// does not reach is left out of its wasm, as the modes are out of the page's.
const MODES_MODULE: bool = matches!(env!("CARGO_BIN_NAME").as_bytes(), b"chunkscope-modes");

fn main() {
    if MODES_MODULE {
        modes::start();
        return;
    }
    panic::install();
    // The worker loads its wasm while the page draws itself, in a task of
    // its own: starting a worker takes the main thread about 30 ms, and with
    // the first render in the same task the page's arrival was one task of
    // 70 to 140 ms (tests/e2e/coldload.mjs).
    engine::start();
    gloo_timers::callback::Timeout::new(0, || {
        share::open(mount);
        panic::crash_test();
    })
    .forget();
}

/// Renders the app into `#app` (or the body when the page has no such element).
fn mount() {
    let root = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("app"));
    match root {
        Some(root) => yew::Renderer::<components::app::App>::with_root(root).render(),
        None => yew::Renderer::<components::app::App>::new().render(),
    };
}
