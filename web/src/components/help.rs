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

/// A labelled whole-number input whose id is also its `data-testid`: the
/// label with its help, and `aria-invalid` when an error is about it. The
/// value is the text as typed, so a half-typed number stays on screen and is
/// reported rather than clamped.
pub fn count_field(
    id: &'static str,
    (label, text): (&'static str, &'static str),
    min: &'static str,
    value: &str,
    oninput: Callback<InputEvent>,
    invalid: Option<&'static str>,
) -> Html {
    html! {
        <div class="field">
            <label for={id}>
                {label}
                {help(text)}
            </label>
            <input {id} data-testid={id} type="number" {min} inputmode="numeric"
                value={value.to_string()} {oninput} aria-invalid={invalid} />
        </div>
    }
}
