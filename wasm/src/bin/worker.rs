//! The worker the playground starts: answers the messages of
//! `chunkscope_wasm::message` off the page's main thread.
//!
//! It says `{ ready }` once its handler is in place: a message posted to a
//! worker before its wasm has loaded finds no handler and is lost, so the page
//! holds its requests until then.

#![forbid(unsafe_code)]

#[cfg(target_arch = "wasm32")]
fn main() {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;

    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(|event: web_sys::MessageEvent| {
            chunkscope_wasm::answer(event.data());
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    if scope
        .post_message(&chunkscope_wasm::ready_message())
        .is_err()
    {
        web_sys::console::error_1(&"chunkscope worker: could not say it is ready".into());
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("chunkscope-worker runs in a browser: build it for wasm32-unknown-unknown");
    std::process::exit(2);
}
