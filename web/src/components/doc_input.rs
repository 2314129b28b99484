//! The document: a preset menu and the text area the learner edits.

use super::help::help;
use crate::presets::DOCUMENT_PRESETS;
use crate::state::Action;
use gloo_timers::callback::Timeout;
use std::rc::Rc;
use web_sys::{HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// How long typing must pause before the text is split again. Short enough to
/// feel live, long enough that a fast typist does not re-split every key.
const DEBOUNCE_MS: u32 = 150;

#[derive(Properties, PartialEq)]
pub struct DocInputProps {
    /// The committed text.
    pub text: Rc<str>,
    /// The preset it came from, while unedited.
    pub document: Option<&'static str>,
    pub dispatch: Callback<Action>,
}

/// The document preset menu and the debounced text area.
#[function_component]
pub fn DocInput(props: &DocInputProps) -> Html {
    let pending = use_mut_ref(|| None::<Timeout>);
    let area = use_node_ref();
    let oninput = {
        let dispatch = props.dispatch.clone();
        let (pending, area) = (pending.clone(), area.clone());
        Callback::from(move |_: InputEvent| {
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
    let chars = props.text.chars().count();
    let bytes = props.text.len();
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
            <div class="field">
                <label for="doc-input">
                    {"Text to split"}
                    {help("Type or paste anything. It is split again a moment after you stop typing. Nothing leaves your browser.")}
                </label>
                <textarea
                    id="doc-input"
                    data-testid="doc-input"
                    spellcheck="false"
                    rows="10"
                    ref={area}
                    value={AttrValue::from(props.text.clone())}
                    {oninput} />
                <p class="hint">{format!("{chars} chars · {bytes} bytes (UTF-8)")}</p>
            </div>
        </section>
    }
}
