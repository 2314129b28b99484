//! The document: a preset menu, a file to open, and the text area the learner
//! edits (or, for a document too long to edit comfortably, a read-only view).

use super::help::help;
use super::large_text::LargeText;
use super::tokenizer::size_label;
use crate::presets::DOCUMENT_PRESETS;
use crate::state::Action;
use crate::text::Text;
use gloo_timers::callback::Timeout;
use wasm_bindgen::JsValue;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// How long typing must pause before the text is split again. Short enough to
/// feel live, long enough that a fast typist does not re-split every key.
const DEBOUNCE_MS: u32 = 150;

/// Longer documents (bytes) are shown read-only and drawn a window at a time:
/// a text area holding them takes the browser seconds to lay out.
pub const EDIT_UP_TO_BYTES: usize = 1 << 20;

/// What "edit a smaller part" keeps of a long document (bytes).
const EDIT_PART_BYTES: usize = 250_000;

/// The largest file the page opens. Splitting it keeps a few copies of it
/// (the page's, the worker's, the trace): more would strain a browser tab.
pub const MAX_FILE_BYTES: f64 = 32.0 * 1024.0 * 1024.0;

#[derive(Properties, PartialEq)]
pub struct DocInputProps {
    /// The committed text.
    pub text: Text,
    /// The preset it came from, while unedited.
    pub document: Option<&'static str>,
    /// The file it was opened from, while unedited.
    #[prop_or_default]
    pub file: Option<Text>,
    /// Why the last file could not be opened.
    #[prop_or_default]
    pub problem: Option<String>,
    pub dispatch: Callback<Action>,
    /// Takes every file list chosen (one file or many) instead of opening
    /// its first file here.
    #[prop_or_default]
    pub on_files: Option<Callback<web_sys::FileList>>,
}

/// The text of a JS string value, kept with it for the worker (see
/// `crate::engine::adopt_text`), so a long document is converted once.
fn adopt(js: JsValue) -> Text {
    let text: Text = js.as_string().unwrap_or_default().into();
    crate::engine::adopt_text(&text, js);
    text
}

/// Reads `file` and opens it as the document, or says why it cannot.
pub fn open_file(file: web_sys::File, dispatch: Callback<Action>) {
    let name = file.name();
    if file.size() > MAX_FILE_BYTES {
        dispatch.emit(Action::FileRefused(format!(
            "{name} is {}: the playground opens files of up to {}. Open a part of it instead.",
            size_label(file.size() as usize),
            size_label(MAX_FILE_BYTES as usize)
        )));
        return;
    }
    wasm_bindgen_futures::spawn_local(async move {
        let action = match wasm_bindgen_futures::JsFuture::from(file.text()).await {
            Ok(js) => {
                let text = adopt(js);
                if text.contains('\0') {
                    Action::FileRefused(format!(
                        "{name} does not look like text (it holds NUL bytes): open a plain-text file, such as .txt, .md, .csv or source code."
                    ))
                } else {
                    Action::OpenFile {
                        name: name.into(),
                        text,
                    }
                }
            }
            Err(_) => Action::FileRefused(format!("{name} could not be read.")),
        };
        dispatch.emit(action);
    });
}

/// The first file of a file list, if any.
pub fn first_file(files: Option<web_sys::FileList>) -> Option<web_sys::File> {
    files.and_then(|f| f.get(0))
}

/// The document preset menu, the file input, and the debounced text area (or
/// the read-only view of a long document).
#[function_component]
pub fn DocInput(props: &DocInputProps) -> Html {
    let pending = use_mut_ref(|| None::<Timeout>);
    let area = use_node_ref();
    let oninput = {
        let dispatch = props.dispatch.clone();
        let (pending, area) = (pending.clone(), area.clone());
        Callback::from(move |_: InputEvent| {
            let Some(element) = area.cast::<HtmlTextAreaElement>() else {
                return;
            };
            // A paste that makes the text too long to edit is taken at once:
            // the read-only view replaces the text area before the browser
            // lays out megabytes in it.
            if element.text_length() as usize > EDIT_UP_TO_BYTES {
                pending.borrow_mut().take();
                let js = js_sys::Reflect::get(&element, &"value".into()).unwrap_or_default();
                dispatch.emit(Action::SetText(adopt(js)));
                return;
            }
            let (dispatch, area) = (dispatch.clone(), area.clone());
            // The text is read once, when typing pauses: copying a long
            // document out of the text area on every key would slow typing.
            // Replacing the timeout drops (cancels) the one still waiting.
            *pending.borrow_mut() = Some(Timeout::new(DEBOUNCE_MS, move || {
                if let Some(area) = area.cast::<HtmlTextAreaElement>() {
                    dispatch.emit(Action::SetText(area.value().into()));
                }
            }));
        })
    };
    let onchange = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let name = e.target_unchecked_into::<HtmlSelectElement>().value();
            dispatch.emit(Action::LoadDocument(name));
        })
    };
    let on_file = {
        let dispatch = props.dispatch.clone();
        let on_files = props.on_files.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            if let (Some(on_files), Some(list)) = (&on_files, input.files()) {
                on_files.emit(list);
            } else if let Some(file) = first_file(input.files()) {
                open_file(file, dispatch.clone());
            }
            // Choosing the same file again should open it again.
            input.set_value("");
        })
    };
    let bytes = props.text.len();
    let large = bytes > EDIT_UP_TO_BYTES;
    let edit_part = {
        let (dispatch, text) = (props.dispatch.clone(), props.text.clone());
        Callback::from(move |_: MouseEvent| {
            let mut end = EDIT_PART_BYTES.min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            dispatch.emit(Action::SetText(text[..end].into()));
        })
    };
    let size = if large {
        format!("{} (UTF-8)", size_label(bytes))
    } else {
        format!(
            "{} chars · {bytes} bytes (UTF-8)",
            props.text.chars().count()
        )
    };
    html! {
        <section class="card" aria-label="Document">
            <div class="field">
                <label for="preset-select">
                    {"Example document"}
                    {help("Each example stresses the splitter differently. Loading one replaces only the text; your size, overlap and separators stay as they are.")}
                </label>
                <select id="preset-select" data-testid="preset-select" {onchange}>
                    { for DOCUMENT_PRESETS.iter().map(|p| html! {
                        <option value={p.name} selected={props.document == Some(p.name)} title={p.lesson}>
                            {p.title}
                        </option>
                    })}
                    <option value="custom" disabled=true selected={props.document.is_none()}>
                        {"Your own text"}
                    </option>
                </select>
            </div>
            <div class="field file-field">
                <label class="file-button">
                    {"Open files…"}
                    <input type="file" data-testid="doc-file" onchange={on_file} multiple=true
                        accept="text/*,.md,.markdown,.txt,.csv,.tsv,.json,.jsonl,.xml,.html,.py,.rs,.js,.ts,.java,.go,.c,.h,.cpp,.rb,.php,.sh,.yaml,.yml,.toml,.log" />
                </label>
                <span class="hint">{"or drop one (or many, as a corpus) on the page. It is read here and never leaves your browser."}</span>
                if let Some(problem) = &props.problem {
                    <p class="warn" data-testid="file-error" role="alert">{problem.clone()}</p>
                }
            </div>
            <div class="field">
                <label for="doc-input">
                    {"Text to split"}
                    {help("Type or paste anything. It is split again a moment after you stop typing, off the page's main thread, so the page stays responsive. Nothing leaves your browser.")}
                </label>
                if large {
                    <p class="hint large-note" data-testid="doc-large-note">
                        {format!(
                            "{} is too long to edit here, so it is shown read-only. Open another file, pick an example, or ",
                            props.file.as_deref().map_or("This document".to_string(), |f| format!("{f} ({})", size_label(bytes)))
                        )}
                        <button type="button" class="link" data-testid="doc-edit-part" onclick={edit_part}>
                            {format!("edit its first {}", size_label(EDIT_PART_BYTES))}
                        </button>
                        {"."}
                    </p>
                    <LargeText text={props.text.clone()} />
                } else {
                    <textarea
                        id="doc-input"
                        data-testid="doc-input"
                        spellcheck="false"
                        rows="10"
                        ref={area}
                        value={AttrValue::from(props.text.shared())}
                        {oninput} />
                }
                <p class="hint">
                    if let Some(file) = props.file.as_ref().filter(|_| !large) {
                        {format!("From {file}: ")}
                    }
                    {size}
                </p>
            </div>
        </section>
    }
}
