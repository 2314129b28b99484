//! A small "?" that explains the idea behind a control, on hover or focus.

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct HelpProps {
    /// The explanation, in plain words.
    pub text: AttrValue,
}

/// A focusable "?" with a tooltip. The text is also its accessible label, so a
/// screen reader announces it without hovering.
#[function_component]
pub fn Help(props: &HelpProps) -> Html {
    html! {
        <span class="help" tabindex="0" role="note" aria-label={props.text.clone()}>
            {"?"}
            <span class="tip" aria-hidden="true">{props.text.clone()}</span>
        </span>
    }
}
