//! The settings on screen as code to paste into a project.

use crate::code::{python, rust};
use crate::state::Shared;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CodeViewProps {
    pub split: Shared,
    /// The document's name in the chunk exports (`doc`): its file name, or
    /// the example's name.
    #[prop_or_else(|| AttrValue::from("document"))]
    pub doc: AttrValue,
    /// While a corpus is open: the JSONL and CSV downloads are of every
    /// document's chunks, made by this (`true` for CSV) instead.
    #[prop_or_default]
    pub corpus_export: Option<Callback<bool>>,
}

/// Copies `text` to the clipboard; the browser may refuse, which is harmless
/// because the code is on screen to select by hand.
fn copy(text: &str) {
    if let Some(window) = web_sys::window() {
        let _ = window.navigator().clipboard().write_text(text);
    }
}

/// Offers `json` (a JS string) as a file download named `name`.
fn download(name: &str, json: &wasm_bindgen::JsValue) -> Option<()> {
    download_as(name, "application/json", json)
}

/// Offers `body` (a JS string) as a file download named `name` of type `mime`.
pub(crate) fn download_as(name: &str, mime: &str, body: &wasm_bindgen::JsValue) -> Option<()> {
    let document = web_sys::window()?.document()?;
    let parts = js_sys::Array::of1(body);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).ok()?;
    let link: web_sys::HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    web_sys::Url::revoke_object_url(&url).ok()
}

/// The report as the JSON the command-line tool prints: two-space indents.
fn pretty(report: &wasm_bindgen::JsValue) -> Option<wasm_bindgen::JsValue> {
    let indent = wasm_bindgen::JsValue::from(2);
    js_sys::JSON::stringify_with_replacer_and_space(report, &wasm_bindgen::JsValue::NULL, &indent)
        .ok()
        .map(Into::into)
}

/// Rust and Python versions of the current settings.
#[function_component]
pub fn CodeView(props: &CodeViewProps) -> Html {
    let config = &props.split.config;
    let rust = rust(config);
    let (python, notes) = python(config);
    let exact = config.kind().langchain().is_some();
    let copy_rust = {
        let code = rust.clone();
        Callback::from(move |_: MouseEvent| copy(&code))
    };
    let export = {
        let split = props.split.clone();
        Callback::from(move |_: MouseEvent| {
            // The same report the command-line tool prints, with the checks,
            // made by the worker (as the JS API's split() makes it).
            crate::engine::full_report(&split.text, &split.config, |answer| match answer {
                Ok(report) => {
                    if let Some(json) = pretty(&report) {
                        download("chunkscope.json", &json);
                    }
                }
                Err(refusal) => web_sys::console::error_1(&refusal.message.into()),
            });
        })
    };
    // The chunks alone, for a pipeline: written by the worker (its corpus
    // export over this one document) with the same functions as the
    // command-line tool's (chunkscope::export), so the page carries no SHA-256.
    let export_rows = |csv: bool| {
        let split = props.split.clone();
        let doc = props.doc.clone();
        let corpus = props.corpus_export.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(corpus) = &corpus {
                corpus.emit(csv);
                return;
            }
            let (format, name, mime) = if csv {
                ("csv", "chunks.csv", "text/csv")
            } else {
                ("jsonl", "chunks.jsonl", "application/jsonl")
            };
            let one = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&one, &"name".into(), &doc.as_str().into());
            let _ = js_sys::Reflect::set(
                &one,
                &"text".into(),
                &wasm_bindgen::JsValue::from_str(&split.text),
            );
            let docs = js_sys::Array::of1(&one);
            crate::engine::corpus(
                &docs,
                &split.config,
                Some(format),
                move |answer| match answer {
                    Ok((_, Some(body))) => {
                        download_as(name, mime, &body.into());
                    }
                    Ok(_) => {}
                    Err(refusal) => web_sys::console::error_1(&refusal.message.into()),
                },
            );
        })
    };
    let export_jsonl = export_rows(false);
    let export_csv = export_rows(true);
    let export_trace = {
        let split = props.split.clone();
        Callback::from(move |_: MouseEvent| {
            // The report's `trace` (the tree, every node with its span, what
            // was done and why it closed), as `chunkscope --trace` prints it.
            crate::engine::full_report(&split.text, &split.config, |answer| match answer {
                Ok(report) => {
                    let trace = js_sys::Reflect::get(&report, &"trace".into()).ok();
                    if let Some(json) = trace.as_ref().and_then(pretty) {
                        download("chunkscope-trace.json", &json);
                    }
                }
                Err(refusal) => web_sys::console::error_1(&refusal.message.into()),
            });
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
            <p class="downloads">
                <span class="muted">{"Chunks only, for a pipeline (char offsets, length, unit, cut, SHA-256 of the text):"}</span>
                <button type="button" data-testid="export-jsonl" onclick={export_jsonl}>{"JSONL"}</button>
                <button type="button" data-testid="export-csv" onclick={export_csv}>{"CSV"}</button>
                <button type="button" data-testid="export-trace" onclick={export_trace}
                    title="The recursion tree: every piece, the separator that split it, why each chunk closed">
                    {"The tree alone (JSON)"}
                </button>
            </p>
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
