//! The details of the chunk under the pointer or the keyboard focus.

use crate::model::story;
use crate::state::{Pointed, Shared};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ChunkDetailsProps {
    /// The split the pointed chunk belongs to.
    pub split: Option<Shared>,
    pub pointed: Option<Pointed>,
}

/// A fixed-height panel, so pointing at chunks never moves the page.
#[function_component]
pub fn ChunkDetails(props: &ChunkDetailsProps) -> Html {
    let found = props
        .split
        .as_ref()
        .zip(props.pointed)
        .and_then(|(split, p)| story(split, p.index).map(|s| (p, s)));
    let body = match found {
        Some((p, s)) => html! {
            <>
                <p class="title">
                    <strong>{format!("Chunk {}", p.index)}</strong>
                    <span class="muted">{format!(" ({})", p.strategy)}</span>
                    {format!(" · {} · {}", s.span, s.length)}
                </p>
                <dl>
                    <dt>{"starts after"}</dt><dd>{s.before}</dd>
                    <dt>{"ends at"}</dt><dd>{s.after}</dd>
                    <dt>{"why"}</dt><dd>{s.why}</dd>
                    if let Some(o) = s.overlap {
                        <dt>{"overlap"}</dt><dd>{o}</dd>
                    }
                </dl>
            </>
        },
        None => html! {
            <p class="muted">{"Point at a chunk (or Tab to it) to see where it is, how long it is, which cuts bound it, and why the splitter made it. Click it to find it in the tree below."}</p>
        },
    };
    html! {
        <section class="card details" data-testid="chunk-details" aria-live="polite" aria-label="Chunk details">
            {body}
        </section>
    }
}
