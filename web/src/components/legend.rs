//! What each cut glyph, colour and mark means, for the split on screen.

use crate::model::{glyph, separator_class};
use crate::state::Shared;
use chunkscope::Strategy;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LegendProps {
    pub split: Shared,
    /// Whether the view repeats each chunk's overlap inside it
    /// (`DocumentView`'s own prop): the overlap's swatch says which drawing.
    #[prop_or_default]
    pub repeat_overlap: bool,
}

/// The legend under a document view's heading.
#[function_component]
pub fn Legend(props: &LegendProps) -> Html {
    let split = &props.split;
    let seps = &split.separators;
    let separators = html! {
        { for seps.iter().enumerate().filter(|(_, s)| !s.is_hard_cut()).map(|(i, sep)| html! {
            <li>
                <span class={classes!("cut", separator_class(seps, i))}>{glyph(sep)}</span>
                {" "}{sep.describe()}
            </li>
        })}
    };
    let entries = match split.strategy() {
        Strategy::Fixed => html! {
            <li><span class="cut cut-window">{"│"}</span>{" window full"}</li>
        },
        Strategy::Recursive => html! {
            <>
                {separators}
                <li><span class="cut cut-hard">{"✂"}</span>{" hard cut"}</li>
            </>
        },
        // LangChain cuts only where its list says: "" splits into single
        // characters, and without it nothing is cut at the size.
        Strategy::LangChain | Strategy::LangChainCharacter => html! {
            <>
                {separators}
                if seps.iter().any(|s| s.is_hard_cut()) {
                    <li><span class="cut cut-hard">{"✂"}</span>{" \"\" (between characters)"}</li>
                }
                <li><span class="start-flag">{"⚑"}</span>{" start_index is not where the chunk starts"}</li>
                <li><span class="ne-mark">{"≠"}</span>{" LangChain's text is not this slice"}</li>
            </>
        },
        // A strategy with no legend of its own: its separators, and the
        // hard cut when it cut there.
        _ => html! {
            <>
                {separators}
                if seps.iter().any(|s| s.is_hard_cut()) {
                    <li><span class="cut cut-hard">{"✂"}</span>{" hard cut"}</li>
                }
            </>
        },
    };
    html! {
        <ul class="legend" aria-label="What the cut marks mean">
            {entries}
            <li><span class="swatch even" />{"/"}<span class="swatch odd" />{" chunks alternate"}</li>
            if props.repeat_overlap {
                <li><span class="swatch overlap" />{" repeated (overlap)"}</li>
            } else {
                <li><span class="swatch shared" />{" in two chunks (overlap)"}</li>
            }
            <li><span class="swatch gap">{"·"}</span>{" in no chunk"}</li>
        </ul>
    }
}
