//! Keeps the two compare panes on the same place in the text. Aligning by scroll
//! fraction would drift (the panes wrap differently), so the pane that scrolled
//! names the char at its top, and the other pane brings the chunk holding that
//! char to the same height.

use std::cell::Cell;
use wasm_bindgen::JsCast;
use web_sys::Element;

thread_local! {
    /// Until when scroll events are echoes of our own scrolling (ms, page clock).
    static QUIET_UNTIL: Cell<f64> = const { Cell::new(0.0) };
}

/// The page clock, in milliseconds.
pub(crate) fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

fn char_attr(el: &Element, name: &str) -> Option<usize> {
    el.get_attribute(name)?.parse().ok()
}

/// The chunk at the top of `doc` and how far below the top its first line is.
fn top_chunk(doc: &Element) -> Option<(usize, f64)> {
    let document = web_sys::window()?.document()?;
    let rect = doc.get_bounding_client_rect();
    (0..6).find_map(|k| {
        let hit = document.element_from_point(
            (rect.left() + 14.0) as f32,
            (rect.top() + 6.0 + 14.0 * k as f64) as f32,
        )?;
        let chunk = hit.closest("[data-testid=chunk]").ok()??;
        let top = chunk.get_bounding_client_rect().top() - rect.top();
        Some((char_attr(&chunk, "data-start")?, top))
    })
}

/// Scrolls the document view inside the pane `partner` so that the chunk holding
/// the char at the top of `doc` sits at the same height.
pub fn follow(doc: &Element, partner: &str) {
    let t = now();
    if t < QUIET_UNTIL.with(Cell::get) {
        return;
    }
    let Some((anchor, offset)) = top_chunk(doc) else {
        return;
    };
    let other = web_sys::window().and_then(|w| w.document()).and_then(|d| {
        d.query_selector(&format!("[data-testid={partner}] .doc"))
            .ok()
            .flatten()
    });
    let Some(other) = other else { return };
    let Ok(chunks) = other.query_selector_all("[data-testid=chunk]") else {
        return;
    };
    // Chunks are in source order: binary search for the last one starting at or
    // before the anchor.
    let (mut lo, mut hi) = (0u32, chunks.length());
    while lo < hi {
        let mid = (lo + hi) / 2;
        let start = chunks
            .item(mid)
            .and_then(|n| n.dyn_into::<Element>().ok())
            .and_then(|e| char_attr(&e, "data-start"))
            .unwrap_or(usize::MAX);
        if start <= anchor {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    let Some(target) = lo
        .checked_sub(1)
        .and_then(|i| chunks.item(i))
        .and_then(|n| n.dyn_into::<Element>().ok())
    else {
        return;
    };
    let delta =
        target.get_bounding_client_rect().top() - other.get_bounding_client_rect().top() - offset;
    if delta.abs() < 1.0 {
        return;
    }
    QUIET_UNTIL.with(|q| q.set(t + 120.0));
    other.set_scroll_top(other.scroll_top() + delta.round() as i32);
}
