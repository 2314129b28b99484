//! Ways through a long page: a skip link to the chunks (the first thing a
//! keyboard reaches) and a row of links to each view below them.

use wasm_bindgen::JsCast;
use yew::prelude::*;

/// A view a jump link leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The chunks over the text (both panes in a compare view).
    Chunks,
    /// The compare views' side-by-side numbers.
    CompareStats,
    /// The recursion tree.
    Tree,
    /// The chunk table.
    Table,
    /// Lengths, histogram and cuts.
    Stats,
    /// Code and downloads.
    Code,
    /// The interview cards.
    Cards,
}

impl Target {
    /// The element id of the view's wrapper.
    pub const fn id(self) -> &'static str {
        match self {
            Target::Chunks => "view-chunks",
            Target::CompareStats => "view-compare-stats",
            Target::Tree => "view-tree",
            Target::Table => "view-table",
            Target::Stats => "view-stats",
            Target::Code => "view-code",
            Target::Cards => "view-cards",
        }
    }

    /// The link's `data-target`.
    pub const fn name(self) -> &'static str {
        match self {
            Target::Chunks => "chunks",
            Target::CompareStats => "compare-stats",
            Target::Tree => "tree",
            Target::Table => "table",
            Target::Stats => "stats",
            Target::Code => "code",
            Target::Cards => "cards",
        }
    }

    /// The link's words.
    const fn title(self) -> &'static str {
        match self {
            Target::Chunks => "Chunks",
            Target::CompareStats => "Side by side",
            Target::Tree => "Tree",
            Target::Table => "Table",
            Target::Stats => "Lengths",
            Target::Code => "Code & downloads",
            Target::Cards => "Interview questions",
        }
    }
}

/// Scrolls the element with this id to the top of the window and moves the
/// keyboard focus to it (without scrolling again).
pub fn reveal(id: &str) {
    let Some(element) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    else {
        return;
    };
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(web_sys::ScrollLogicalPosition::Start);
    element.scroll_into_view_with_scroll_into_view_options(&options);
    if let Ok(element) = element.dyn_into::<web_sys::HtmlElement>() {
        let focus = web_sys::FocusOptions::new();
        focus.set_prevent_scroll(true);
        let _ = element.focus_with_options(&focus);
    }
}

/// The link to the chunks, first in the page's tab order: shown only while
/// it has the focus. It moves the focus to the first chunk, so the next Tab
/// goes on from there.
pub fn skip_link() -> Html {
    let onclick = Callback::from(|e: MouseEvent| {
        e.prevent_default();
        let first = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| {
                d.query_selector("#view-chunks [data-testid=chunk]")
                    .ok()
                    .flatten()
            })
            .and_then(|c| c.dyn_into::<web_sys::HtmlElement>().ok());
        match first {
            Some(chunk) => {
                let options = web_sys::ScrollIntoViewOptions::new();
                options.set_block(web_sys::ScrollLogicalPosition::Center);
                chunk.scroll_into_view_with_scroll_into_view_options(&options);
                let _ = chunk.focus();
            }
            None => reveal(Target::Chunks.id()),
        }
    });
    html! {
        <a class="skip-link" href={format!("#{}", Target::Chunks.id())} data-testid="skip-link" {onclick}>
            {"Skip to the chunks"}
        </a>
    }
}

/// The row of links to the views on the page (`compare` adds the
/// side-by-side numbers; `details` the views drawn from one split).
pub fn jump_links(compare: bool, details: bool) -> Html {
    let mut targets = vec![Target::Chunks];
    if compare {
        targets.push(Target::CompareStats);
    }
    if details {
        targets.extend([Target::Tree, Target::Table, Target::Stats, Target::Code]);
    }
    targets.push(Target::Cards);
    html! {
        <nav class="jump-links" data-testid="jump-links" aria-label="Jump to a view">
            <span class="muted">{"Jump to:"}</span>
            { for targets.into_iter().map(|t| {
                let onclick = Callback::from(move |e: MouseEvent| {
                    e.prevent_default();
                    reveal(t.id());
                });
                html! {
                    <a href={format!("#{}", t.id())} data-testid="jump-link" data-target={t.name()} {onclick}>{t.title()}</a>
                }
            })}
        </nav>
    }
}
