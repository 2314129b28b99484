//! Loading a static model from local files: a model2vec pair
//! (`model.safetensors` with `tokenizer.json`, and `config.json`) or one
//! GloVe / fastText text file. The bytes go to the worker untouched (the
//! page neither reads nor keeps them) and nothing is fetched.

use crate::engine;
use crate::state::model_file::{ModelEvent, ModelState};
use crate::state::Action;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ModelFileProps {
    pub model: ModelState,
    pub dispatch: Callback<Action>,
}

/// Sends the chosen files to the worker and reports what it said.
fn load(files: web_sys::FileList, dispatch: Callback<Action>) {
    let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
    if files.is_empty() {
        return;
    }
    let names: Vec<String> = files.iter().map(web_sys::File::name).collect();
    let name = names
        .iter()
        .find(|n| n.ends_with(".safetensors"))
        .unwrap_or(&names[0])
        .clone();
    dispatch.emit(Action::Model(ModelEvent::Loading(names.join(", "))));
    wasm_bindgen_futures::spawn_local(async move {
        let list = js_sys::Array::new();
        for file in &files {
            match JsFuture::from(file.array_buffer()).await {
                Ok(bytes) => {
                    list.push(&chunkscope_wasm::message::model_file(&file.name(), &bytes));
                }
                Err(_) => {
                    dispatch.emit(Action::Model(ModelEvent::Failed(format!(
                        "{} could not be read",
                        file.name()
                    ))));
                    return;
                }
            }
        }
        engine::model(&name, Some(&list), move |answer| {
            dispatch.emit(Action::Model(match answer {
                Ok(Some(model)) => ModelEvent::Loaded(model),
                Ok(None) => ModelEvent::Failed("the worker sent no summary of the model".into()),
                Err(refusal) => ModelEvent::Failed(refusal.message),
            }));
        });
    });
}

/// The file input, what is loaded, and the button that drops it.
#[function_component]
pub fn ModelFile(props: &ModelFileProps) -> Html {
    let on_change = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
            else {
                return;
            };
            if let Some(files) = input.files() {
                load(files, dispatch.clone());
            }
            input.set_value("");
        })
    };
    let on_clear = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_| {
            let dispatch = dispatch.clone();
            engine::model("", None, move |_| {
                dispatch.emit(Action::Model(ModelEvent::Cleared))
            });
        })
    };
    let m = &props.model;
    html! {
        <section class="card model-file" data-testid="model-panel" aria-label="Embedding model">
            <h2>{"Embedding model"}</h2>
            <label class="file-button">
                {"Load a static model…"}
                <input data-testid="model-file" type="file" multiple=true
                    accept=".safetensors,.json,.txt,.vec" onchange={on_change} />
            </label>
            <span class="note">{" model2vec: choose model.safetensors, tokenizer.json and config.json together; or one GloVe / fastText text file. Read here, never uploaded."}</span>
            if let Some(name) = &m.loading {
                <p class="note" data-testid="model-loading">{format!("Reading {name}…")}</p>
            }
            if let Some(loaded) = &m.loaded {
                <p class="note" data-testid="model-summary" data-name={loaded.name.clone()}
                    data-format={loaded.format.clone()} data-dims={loaded.dims.to_string()}
                    data-vocab={loaded.words.to_string()}>
                    {format!("Loaded: {} ({}), {} {} × {} dimensions. The semantic strategy embeds with it instead of lexical similarity. ",
                        loaded.name, loaded.format, loaded.words,
                        if loaded.format == "model2vec" { "tokens" } else { "words" }, loaded.dims)}
                    <button type="button" data-testid="model-clear" onclick={on_clear}>{"Unload the model"}</button>
                </p>
            }
            if let Some(why) = &m.problem {
                <p class="problem" data-testid="model-error" role="alert">{why.clone()}</p>
            }
        </section>
    }
}
