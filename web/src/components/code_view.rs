//! The settings on screen as code to paste into a project.

use crate::code::{python, rust};
use crate::state::Shared;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CodeViewProps {
    pub split: Shared,
}

/// Copies `text` to the clipboard; the browser may refuse, which is harmless
/// because the code is on screen to select by hand.
fn copy(text: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.navigator().clipboard().write_text(text);
    }
}

/// Offers `json` as a file download named `name`.
fn download(name: &str, json: &str) -> Option<()> {
    let document = web_sys::window()?.document()?;
    let parts = js_parts(json);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let link: web_sys::HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    web_sys::Url::revoke_object_url(&url).ok()
}

/// A one-element JS array holding `text`, as `Blob` wants its parts.
fn js_parts(text: &str) -> wasm_bindgen::JsValue {
    let array = js_sys::Array::new();
    array.push(&wasm_bindgen::JsValue::from_str(text));
    array.into()
}

/// Rust and Python versions of the current settings.
#[function_component]
pub fn CodeView(props: &CodeViewProps) -> Html {
    let config = &props.split.config;
    let rust = rust(config);
    let (python, notes) = python(config);
    let exact = config.strategy.langchain().is_some();
    let copy_rust = {
        let code = rust.clone();
        Callback::from(move |_: MouseEvent| copy(&code))
    };
    let export = {
        let split = props.split.clone();
        Callback::from(move |_: MouseEvent| {
            // The same report `chunkscope --trace` prints for this text and configuration.
            let detail = chunkscope::Detail::FULL.with_determinism(true);
            let json = chunkscope::Splitter::new(split.config.clone())
                .and_then(|s| chunkscope::report::run(&s, &split.text, detail))
                .ok()
                .and_then(|report| serde_json::to_string_pretty(&report).ok());
            if let Some(json) = json {
                download("chunkscope.json", &json);
            }
        })
    };
    let copy_python = {
        let code = python.clone();
        Callback::from(move |_: MouseEvent| copy(&code))
    };
    html! {
        <section class="card code" aria-label="These settings as code" data-testid="code-view">
            <div class="card-head">
                <h2>{"Take it with you"}</h2>
                <button type="button" data-testid="export-json" onclick={export}
                    title="The chunks with char and byte offsets, the whole tree and the checks, as the command-line tool prints them">
                    {"Download chunks + tree (JSON)"}
                </button>
            </div>
            <details>
                <summary>{"Rust, with chunkscope (the same chunks as on this page)"}</summary>
                <button type="button" class="copy" onclick={copy_rust}>{"Copy"}</button>
                <pre data-testid="code-rust"><code>{rust}</code></pre>
            </details>
            <details>
                <summary>
                    if exact {
                        {"Python, with LangChain (the same chunks and start indices as on this page)"}
                    } else {
                        {"Python, with LangChain (closest equivalent)"}
                    }
                </summary>
                <button type="button" class="copy" onclick={copy_python}>{"Copy"}</button>
                <pre data-testid="code-python"><code>{python}</code></pre>
                if !notes.is_empty() {
                    <p class="hint">{"Where LangChain's chunks would differ from the ones on this page:"}</p>
                    <ul class="notes-list">
                        { for notes.iter().map(|n| html! { <li>{*n}</li> }) }
                    </ul>
                }
            </details>
        </section>
    }
}
