//! Token units: their tables are fetched from the page's own origin when a
//! token unit is chosen (never before, so they cost the first paint nothing),
//! read into a `Tokenizer` and held for the page's engines
//! (`chunkscope_wasm::loaded`) and the worker's. The status line
//! says how big the download is before it starts and how long it took.

use super::scroll_sync::now;
use crate::state::{Action, TokenizerStatus};
use chunkscope::tokens::{Encoding, Tokenizer};
use chunkscope::Unit;
use chunkscope_wasm::loaded;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

/// Where the page serves an encoding's tables: `tokens/` next to the page
/// (copied there by the build; see `index.html`).
fn url(encoding: Encoding) -> String {
    format!("tokens/{}", encoding.data_file())
}

/// A size in KB or MB, as a person reads it.
pub fn size_label(bytes: usize) -> String {
    if bytes >= 1_000_000 {
        format!("{}.{} MB", bytes / 1_000_000, bytes % 1_000_000 / 100_000)
    } else {
        format!("{} KB", bytes.div_ceil(1000))
    }
}

/// What a unit is called in the unit menu.
pub fn unit_title(unit: Unit) -> String {
    match unit {
        Unit::Chars => "chars".into(),
        Unit::Bytes => "bytes".into(),
        Unit::Tokens(Encoding::Cl100k) => "cl100k tokens (GPT-4)".into(),
        Unit::Tokens(Encoding::O200k) => "o200k tokens (GPT-4o)".into(),
    }
}

fn describe(value: JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| "the request failed".into())
}

/// Fetches an encoding's data file.
async fn fetch(encoding: Encoding) -> Result<Vec<u8>, String> {
    let window = web_sys::window().ok_or("the page has no window")?;
    let url = url(encoding);
    let response = JsFuture::from(window.fetch_with_str(&url))
        .await
        .map_err(describe)?
        .dyn_into::<web_sys::Response>()
        .map_err(describe)?;
    if !response.ok() {
        return Err(format!(
            "the page's server answered {} for {url}",
            response.status()
        ));
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(describe)?)
        .await
        .map_err(describe)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

/// Fetches, reads and installs `encoding`'s tokenizer, here and in this
/// module's worker (the page's and the modes module's each have their
/// own): its size in bytes, or why not. The worker splits with its own copy;
/// it is posted before the requests that need it, so it is installed first.
pub async fn install(encoding: Encoding) -> Result<usize, String> {
    let data = fetch(encoding).await?;
    let bytes = data.len();
    let tokenizer = Tokenizer::from_data(&data).map_err(|e| e.to_string())?;
    if tokenizer.encoding() != encoding {
        return Err(format!(
            "{} holds the {} tables",
            url(encoding),
            tokenizer.encoding()
        ));
    }
    loaded::install_tokenizer(tokenizer);
    crate::engine::install_tokenizer(&data);
    Ok(bytes)
}

/// Fetches, reads and installs `encoding`'s tokenizer.
async fn load(encoding: Encoding) -> TokenizerStatus {
    let started = now();
    let result = install(encoding).await;
    match result {
        Ok(bytes) => TokenizerStatus::Loaded {
            encoding,
            bytes,
            millis: (now() - started).max(0.0) as u32,
        },
        Err(message) => TokenizerStatus::Failed { encoding, message },
    }
}

/// Loads the tokenizer of the chosen unit when it is a token unit that is not
/// installed yet. Choosing the unit again after a failure tries again.
#[hook]
pub fn use_tokenizer(unit: Unit, dispatch: Callback<Action>) {
    use_effect_with(unit, move |&unit| {
        if let Unit::Tokens(encoding) = unit {
            if loaded::tokenizer_of(encoding).is_none() {
                dispatch.emit(Action::Tokenizer(TokenizerStatus::Loading(encoding)));
                wasm_bindgen_futures::spawn_local(async move {
                    let status = load(encoding).await;
                    dispatch.emit(Action::Tokenizer(status));
                });
            }
        }
    });
}

/// Whether a unit's tokenizer is here to count with (always, for chars and
/// bytes).
#[derive(Clone, Debug, PartialEq)]
pub enum Tables {
    /// Installed, or the unit needs none.
    Ready,
    /// Being fetched.
    Loading,
    /// They could not be had: why.
    Failed(String),
}

/// The tables of `unit`, fetched and installed (here and in the workers) the
/// first time a view of its own counts in it, for views that keep their own
/// settings (the bug gallery's demos); the page's settings use
/// [`use_tokenizer`], which reports to the page's state.
#[hook]
pub fn use_tables(unit: Unit) -> Tables {
    let installed = |unit| match unit {
        Unit::Tokens(encoding) => loaded::tokenizer_of(encoding).is_some(),
        Unit::Chars | Unit::Bytes => true,
    };
    let failed = use_state(|| None::<(Unit, String)>);
    let done = use_state(|| 0u32);
    {
        let (failed, done) = (failed.clone(), done.clone());
        use_effect_with(unit, move |&unit| {
            if let (Unit::Tokens(encoding), false) = (unit, installed(unit)) {
                wasm_bindgen_futures::spawn_local(async move {
                    match install(encoding).await {
                        Ok(_) => done.set(*done + 1),
                        Err(why) => failed.set(Some((
                            unit,
                            format!("the {unit} tables could not be loaded: {why}"),
                        ))),
                    }
                });
            }
        });
    }
    match &*failed {
        _ if installed(unit) => Tables::Ready,
        Some((u, why)) if *u == unit => Tables::Failed(why.clone()),
        _ => Tables::Loading,
    }
}

#[derive(Properties, PartialEq)]
pub struct TokenizerLineProps {
    pub unit: Unit,
    pub status: Option<TokenizerStatus>,
}

/// Under the unit menu: what a token unit counts, and where its download is.
#[function_component]
pub fn TokenizerLine(props: &TokenizerLineProps) -> Html {
    let Unit::Tokens(encoding) = props.unit else {
        return Html::default();
    };
    let name = encoding.name();
    let status = props.status.as_ref().filter(|s| match s {
        TokenizerStatus::Loading(e)
        | TokenizerStatus::Loaded { encoding: e, .. }
        | TokenizerStatus::Failed { encoding: e, .. } => *e == encoding,
    });
    let (state, text) = match status {
        Some(TokenizerStatus::Loading(_)) => (
            "loading",
            format!(
                "Loading the {name} tokenizer ({}, once)…",
                size_label(encoding.data_bytes())
            ),
        ),
        Some(TokenizerStatus::Failed { message, .. }) => (
            "failed",
            format!("The {name} tokenizer could not be loaded: {message}. Choose the unit again to retry."),
        ),
        Some(TokenizerStatus::Loaded { bytes, millis, .. }) => (
            "loaded",
            format!(
                "{name} tokenizer loaded ({} in {millis} ms): sizes count tokens as {} do.",
                size_label(*bytes),
                encoding.models()
            ),
        ),
        None => (
            "loaded",
            format!("Sizes count {name} tokens, as {} do.", encoding.models()),
        ),
    };
    html! {
        <p class={classes!("tokenizer-status", state)} data-testid="tokenizer-status" data-state={state}
            role={(state == "failed").then_some("alert")}>
            { text }
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_read_them() {
        assert_eq!(size_label(Encoding::Cl100k.data_bytes()), "745 KB");
        assert_eq!(size_label(Encoding::O200k.data_bytes()), "1.5 MB");
        assert_eq!(size_label(999), "1 KB");
    }
}
