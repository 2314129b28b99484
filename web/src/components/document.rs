//! The document with its chunks drawn over it, straight from the chunk spans.

use crate::model::{cut_attr, cut_marker, segments, Segment};
use crate::state::{Pointed, Shared};
use chunkscope::Span;
use wasm_bindgen::JsCast;
use web_sys::{Element, ScrollIntoViewOptions, ScrollLogicalPosition};
use yew::prelude::*;

/// Chunks drawn at first. A long document gets the rest as the learner scrolls
/// (or all at once on request), so loading it never freezes the page.
const FIRST_CHUNKS: usize = 800;
/// Chunks added each time the view is scrolled near its end.
const MORE_CHUNKS: usize = 800;

#[derive(Properties, PartialEq)]
pub struct DocumentViewProps {
    pub split: Shared,
    /// A tree node's span to highlight; chunks outside it are dimmed.
    pub highlight: Option<Span>,
    /// Called with the chunk under the pointer or the keyboard focus.
    pub on_point: Callback<Option<Pointed>>,
    /// Called when a chunk is clicked (or Enter is pressed on it).
    pub on_reveal: Callback<Pointed>,
    /// In the compare view, the `data-testid` of the other pane, kept scrolled
    /// to the same place in the text.
    #[prop_or_default]
    pub partner: Option<AttrValue>,
}

/// The chunk index of the `data-testid="chunk"` element an event happened in.
fn chunk_index(target: Option<web_sys::EventTarget>) -> Option<usize> {
    let element = target?.dyn_into::<Element>().ok()?;
    let chunk = element.closest("[data-testid=chunk]").ok()??;
    chunk.get_attribute("data-index")?.parse().ok()
}

/// Every chunk as an element with its offsets and cut, the marker of each cut
/// after it, and the text in no chunk faded. One listener on the container
/// serves all chunks, so a long document does not get thousands of closures.
#[function_component]
pub fn DocumentView(props: &DocumentViewProps) -> Html {
    let container = use_node_ref();
    let split = &props.split;
    let strategy = split.strategy();
    let total = split.output.chunks.len();
    // How many chunks to draw, remembered per split: a new split starts again.
    let drawn = use_state(|| (split.clone(), FIRST_CHUNKS));
    let mut limit = if drawn.0 == *split {
        drawn.1
    } else {
        FIRST_CHUNKS
    };
    if let Some(h) = props.highlight {
        // A highlighted tree node must be on screen, however far down it is.
        if let Some(first) = split
            .output
            .chunks
            .iter()
            .position(|c| c.span.intersect(h).is_some())
        {
            limit = limit.max(first + MORE_CHUNKS);
        }
    }
    let limit = limit.min(total);
    let grow = {
        let (drawn, split) = (drawn.clone(), split.clone());
        move |to: usize| drawn.set((split.clone(), to))
    };
    let onscroll = {
        let grow = grow.clone();
        let container = container.clone();
        let partner = props.partner.clone();
        Callback::from(move |_: Event| {
            let Some(el) = container.cast::<Element>() else {
                return;
            };
            if let Some(partner) = &partner {
                super::scroll_sync::follow(&el, partner);
            }
            if limit < total && el.scroll_top() + 2 * el.client_height() >= el.scroll_height() {
                grow(limit + MORE_CHUNKS);
            }
        })
    };
    let show_all = Callback::from(move |_: MouseEvent| grow(total));

    {
        // Bring the highlighted node's first chunk into view.
        let container = container.clone();
        use_effect_with(props.highlight, move |highlight| {
            if highlight.is_some() {
                let first = container
                    .cast::<Element>()
                    .and_then(|c| c.query_selector(".in-node").ok().flatten());
                if let Some(first) = first {
                    let options = ScrollIntoViewOptions::new();
                    options.set_block(ScrollLogicalPosition::Nearest);
                    first.scroll_into_view_with_scroll_into_view_options(&options);
                }
            }
        });
    }

    let point = {
        let on_point = props.on_point.clone();
        move |target: Option<web_sys::EventTarget>| {
            if let Some(index) = chunk_index(target) {
                on_point.emit(Some(Pointed { strategy, index }));
            }
        }
    };
    let onmouseover = {
        let point = point.clone();
        Callback::from(move |e: MouseEvent| point(e.target()))
    };
    let onfocusin = {
        let point = point.clone();
        Callback::from(move |e: FocusEvent| point(e.target()))
    };
    let onclick = {
        let on_reveal = props.on_reveal.clone();
        Callback::from(move |e: MouseEvent| {
            if let Some(index) = chunk_index(e.target()) {
                on_reveal.emit(Pointed { strategy, index });
            }
        })
    };
    let onkeydown = {
        let on_reveal = props.on_reveal.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" {
                if let Some(index) = chunk_index(e.target()) {
                    on_reveal.emit(Pointed { strategy, index });
                }
            }
        })
    };

    let text = &*split.text;
    let output = &split.output;
    let separators = &split.config.separators;
    let highlight = props.highlight;
    let shown = segments(output, text.len())
        .into_iter()
        .take_while(|s| match s {
            Segment::Chunk(i) | Segment::Cut(i) => *i < limit,
            Segment::Gap(_) => true,
        });
    let nodes = shown.map(|segment| match segment {
        Segment::Gap(span) => {
            let gap = span.text(text);
            let dropped = !gap.chars().all(chunkscope::is_space);
            html! { <span class={classes!("gap", dropped.then_some("dropped"))}>{gap}</span> }
        }
        Segment::Cut(i) => match cut_marker(output.chunks[i].cut, separators) {
            Some((glyph, class)) => html! {
                <span class={classes!("cut", class)} aria-hidden="true">{glyph}</span>
            },
            None => html! {},
        },
        Segment::Chunk(i) => {
            let chunk = &output.chunks[i];
            let (start, end) = split.chunk_chars[i];
            let lit = highlight.map(|h| h.intersect(chunk.span).is_some());
            let class = classes!(
                "chunk",
                if i % 2 == 0 { "even" } else { "odd" },
                match lit {
                    Some(true) => Some("in-node"),
                    Some(false) => Some("out-node"),
                    None => None,
                }
            );
            // The repeated start (overlap) is drawn hatched inside the chunk.
            let body = match chunk.overlap {
                Some(o) if o.start == chunk.span.start => html! {
                    <>
                        <span class="overlap" title="repeated from the chunk before">{o.text(text)}</span>
                        {&text[o.end..chunk.span.end]}
                    </>
                },
                _ => html! { {chunk.text(text)} },
            };
            html! {
                <span
                    {class}
                    data-testid="chunk"
                    data-index={i.to_string()}
                    data-start={start.to_string()}
                    data-end={end.to_string()}
                    data-cut={cut_attr(chunk.cut, separators)}
                    tabindex="0">
                    {body}
                </span>
            }
        }
    });

    html! {
        <>
            <div
                class={classes!("doc", highlight.is_some().then_some("focused"))}
                data-testid="document-view"
                data-drawn={limit.to_string()}
                data-total={total.to_string()}
                ref={container}
                {onmouseover}
                {onfocusin}
                {onscroll}
                {onclick}
                {onkeydown}
                aria-label="Chunks over the document; focus a chunk to see its details">
                { for nodes }
                if output.chunks.is_empty() {
                    <p class="empty">{"No chunks: the text is empty or only whitespace."}</p>
                }
            </div>
            if limit < total {
                <div class="doc-more" data-testid="doc-more">
                    <span>{format!("Showing chunks 0–{} of {total}; more appear as you scroll.", limit - 1)}</span>
                    <button type="button" onclick={show_all}>{format!("Show all {total}")}</button>
                </div>
            }
        </>
    }
}
