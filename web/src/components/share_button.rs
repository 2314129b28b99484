//! "Copy link": puts the whole state in the address and on the clipboard.

use crate::share::{encode, Snapshot};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ShareButtonProps {
    pub snapshot: Snapshot,
}

/// Writes the link into the address bar (without reloading) and copies it.
#[function_component]
pub fn ShareButton(props: &ShareButtonProps) -> Html {
    let said = use_state(|| None::<String>);
    let onclick = {
        let (snapshot, said) = (props.snapshot.clone(), said.clone());
        Callback::from(move |_: MouseEvent| {
            let (snapshot, said) = (snapshot.clone(), said.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let Some(fragment) = encode(&snapshot).await else {
                    said.set(Some("This browser could not make the link.".into()));
                    return;
                };
                let Some(window) = web_sys::window() else {
                    return;
                };
                let hash = format!("#{fragment}");
                if let Ok(history) = window.history() {
                    let _ = history.replace_state_with_url(
                        &wasm_bindgen::JsValue::NULL,
                        "",
                        Some(&hash),
                    );
                }
                let url = window.location().href().unwrap_or(hash);
                let _ = window.navigator().clipboard().write_text(&url);
                said.set(Some(format!(
                    "Link copied ({} KB). It holds the text and every setting.",
                    url.len().div_ceil(1024)
                )));
            });
        })
    };
    html! {
        <div class="share">
            <button type="button" data-testid="share-link" {onclick}
                title="Put the text and all settings in the page address, and copy it">
                {"Copy link to this view"}
            </button>
            if let Some(message) = &*said {
                <span class="muted" role="status">{message.clone()}</span>
            }
        </div>
    }
}
