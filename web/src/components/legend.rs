//! What each cut glyph and colour means, for the list on screen.

use crate::model::{glyph, separator_class};
use chunkscope::{Separator, Strategy};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct LegendProps {
    pub separators: Vec<Separator>,
    pub strategy: Strategy,
}

/// The legend under a document view's heading.
#[function_component]
pub fn Legend(props: &LegendProps) -> Html {
    let seps = &props.separators;
    let entries = match props.strategy {
        Strategy::Fixed => html! {
            <li><span class="cut cut-window">{"│"}</span>{" window full"}</li>
        },
        Strategy::Recursive => html! {
            <>
                { for seps.iter().enumerate().filter(|(_, s)| !s.is_hard_cut()).map(|(i, sep)| html! {
                    <li>
                        <span class={classes!("cut", separator_class(seps, i))}>{glyph(sep)}</span>
                        {" "}{sep.describe()}
                    </li>
                })}
                <li><span class="cut cut-hard">{"✂"}</span>{" hard cut"}</li>
            </>
        },
    };
    html! {
        <ul class="legend" aria-label="What the cut marks mean">
            {entries}
            <li><span class="swatch even" />{"/"}<span class="swatch odd" />{" chunks alternate"}</li>
            <li><span class="swatch overlap" />{" repeated (overlap)"}</li>
            <li><span class="swatch gap">{"·"}</span>{" in no chunk"}</li>
        </ul>
    }
}
