//! A long document, read-only, drawn a window at a time.
//!
//! A text area holding megabytes takes the browser seconds to lay out, on
//! every change. This view draws only a few blocks of the text around the
//! scroll position, between two empty spacers whose heights are estimated
//! from the drawn part (as the document view does with chunks), so a 10 MB
//! document costs what one screen of it costs.

use crate::text::Text;
use std::ops::Range;
use web_sys::Element;
use yew::prelude::*;

/// Bytes per block; a block ends on a char boundary at or before this.
const BLOCK: usize = 4096;
/// Blocks drawn at once: several screens.
const WINDOW_BLOCKS: usize = 8;
/// A first guess at the height of one byte of text in pixels, corrected from
/// the drawn window.
const FIRST_PX_PER_BYTE: f64 = 0.25;

/// Where block `i` starts in `text`: `i × BLOCK`, moved back to a char
/// boundary (or the text's end).
fn block_start(text: &str, i: usize) -> usize {
    let mut at = (i * BLOCK).min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The blocks drawn when block `centre` is in the middle of the view.
fn window(blocks: usize, centre: usize) -> Range<usize> {
    let first = centre
        .saturating_sub(WINDOW_BLOCKS / 2)
        .min(blocks.saturating_sub(WINDOW_BLOCKS));
    first..(first + WINDOW_BLOCKS).min(blocks)
}

#[derive(Properties, PartialEq)]
pub struct LargeTextProps {
    /// The document.
    pub text: Text,
}

struct Memory {
    centre: usize,
    px_per_byte: f64,
}

/// The document in a scroll box, drawn a window of blocks at a time.
#[function_component]
pub fn LargeText(props: &LargeTextProps) -> Html {
    let container = use_node_ref();
    let drawn_ref = use_node_ref();
    let redraw = use_force_update();
    let memory = use_mut_ref(|| Memory {
        centre: 0,
        px_per_byte: FIRST_PX_PER_BYTE,
    });
    let text = &*props.text;
    let blocks = text.len().div_ceil(BLOCK).max(1);
    let (centre, px_per_byte) = {
        let m = memory.borrow();
        (m.centre.min(blocks - 1), m.px_per_byte)
    };
    let range = window(blocks, centre);
    let (lo, hi) = (block_start(text, range.start), block_start(text, range.end));
    // Whole pixels: printing a float would pull float formatting into the bundle.
    let above = (lo as f64 * px_per_byte) as u64;
    let below = ((text.len() - hi) as f64 * px_per_byte) as u64;

    {
        // Measured when the window moves (measuring makes the browser lay
        // the page out at once), not on every draw.
        let (memory, drawn_ref) = (memory.clone(), drawn_ref.clone());
        use_effect_with((lo, hi), move |&(lo, hi)| {
            if let Some(drawn) = drawn_ref.cast::<Element>() {
                let height = drawn.get_bounding_client_rect().height();
                if hi > lo && height > 0.0 {
                    memory.borrow_mut().px_per_byte = height / (hi - lo) as f64;
                }
            }
        });
    }

    let onscroll = {
        let (container, drawn_ref, memory, redraw) = (
            container.clone(),
            drawn_ref.clone(),
            memory.clone(),
            redraw.clone(),
        );
        let (len, range) = (text.len(), range.clone());
        Callback::from(move |_: Event| {
            let (Some(el), Some(drawn)) =
                (container.cast::<Element>(), drawn_ref.cast::<Element>())
            else {
                return;
            };
            let scroll = f64::from(el.scroll_top());
            let view = f64::from(el.client_height());
            let origin = el.get_bounding_client_rect().top() - scroll;
            let rect = drawn.get_bounding_client_rect();
            let (top, bottom) = (rect.top() - origin, rect.bottom() - origin);
            // The byte at the middle of the view, read off the drawn part or
            // estimated from the spacers.
            let y = scroll + view / 2.0;
            // The height of a byte the spacers were drawn with (not a newer
            // measurement), so that a position in a spacer maps to the byte
            // it stands for.
            let per_byte = px_per_byte;
            let byte = if y < top {
                y / per_byte
            } else if y > bottom {
                hi as f64 + (y - bottom) / per_byte
            } else {
                lo as f64 + (y - top) / (bottom - top).max(1.0) * (hi - lo) as f64
            };
            let at = (byte.max(0.0) as usize).min(len) / BLOCK;
            if window(blocks, at) != range {
                memory.borrow_mut().centre = at;
                redraw.force_update();
            }
        })
    };

    html! {
        <div class="large-text" ref={container} {onscroll} tabindex="0"
            data-testid="doc-readonly" role="document" aria-label="The document (read-only)"
            data-bytes={text.len().to_string()}>
            <div class="spacer" style={format!("height:{above}px")}></div>
            // Keyed blocks: when the window slides, the blocks on screen stay
            // the same elements, so the browser's scroll anchoring keeps them
            // still while the spacers change.
            <pre ref={drawn_ref}>
                { for range.clone().map(|i| html! {
                    <span key={i}>{&text[block_start(text, i)..block_start(text, i + 1)]}</span>
                })}
            </pre>
            <div class="spacer" style={format!("height:{below}px")}></div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_start_on_char_boundaries_and_windows_stay_inside() {
        let text = "é".repeat(BLOCK); // 2 bytes each: block 1 starts at byte 4096
        assert_eq!(block_start(&text, 1), 4096);
        let odd = format!("a{text}");
        assert_eq!(block_start(&odd, 1), 4095, "moved back off the middle of é");
        assert_eq!(block_start(&odd, 99), odd.len());
        assert_eq!(window(3, 0), 0..3);
        assert_eq!(window(100, 0), 0..8);
        assert_eq!(window(100, 50), 46..54);
        assert_eq!(window(100, 99), 92..100);
    }
}
