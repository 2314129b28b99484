//! A small "?" that explains the idea behind a control, on hover or focus.

use yew::prelude::*;

/// A focusable "?" with a tooltip. The text is also its accessible label, so a
/// screen reader announces it without hovering. A function rather than a
/// component: it has no state, and every component costs the bundle its own
/// copy of Yew's component machinery.
pub fn help(text: &'static str) -> Html {
    html! {
        <span class="help" tabindex="0" role="note" aria-label={text}>
            {"?"}
            <span class="tip" aria-hidden="true">{text}</span>
        </span>
    }
}
