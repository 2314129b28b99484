//! The document with its chunks drawn over it, straight from the chunk spans.
//!
//! A long document is drawn a window at a time: the chunks around the scroll
//! position are real elements, and the text above and below them is an empty
//! spacer whose height is estimated from the drawn part. Drawing a megabyte as
//! elements would take the browser far longer than splitting it, and a learner
//! only ever reads one screen of it. Chunk groups are keyed by index, so when
//! the window slides the chunks on screen stay the same elements and the
//! browser's scroll anchoring keeps them still.

use super::help::help;
use crate::model::{cut_attr, cut_marker, library_chunk, only_markup, segments_in, Segment};
use crate::state::{Action, Pointed, Shared};
use chunkscope::tokens::Tokenizer;
use chunkscope::{Chunk, Span, Unit};
use std::ops::Range;
use wasm_bindgen::JsCast;
use web_sys::{Element, ScrollIntoViewOptions, ScrollLogicalPosition};
use yew::prelude::*;

/// Most text drawn at once, in bytes: many screens, few enough to lay out fast.
const WINDOW_BYTES: usize = 24 * 1024;
/// Most text drawn at once with the token overlay on: every token is an
/// element of its own (about one per four bytes of prose), and creating them
/// is what a redraw costs.
const TOKEN_WINDOW_BYTES: usize = 8 * 1024;
/// Most chunks drawn at once (a long text cut into small chunks): each is
/// several elements with backgrounds and borders, and drawing more than a few
/// hundred of them takes the browser longer than a frame.
const WINDOW_CHUNKS: usize = 300;
/// A first guess at the height of one byte of text in pixels (monospace, line
/// height 2, about 80 characters a line); the drawn window corrects it.
const FIRST_PX_PER_BYTE: f64 = 0.36;
/// Text drawn before the height estimate is trusted, in bytes.
const MEASURE_FROM_BYTES: usize = 2048;

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
    /// Whether each drawn chunk shows its tokens (when the split counts tokens).
    #[prop_or_default]
    pub tokens: bool,
    /// Whether each chunk shows the start it repeats from the one before
    /// (the overlap), rather than the document drawn once.
    #[prop_or_default]
    pub repeat_overlap: bool,
    /// While stepping: how many chunks the steps so far emitted. The rest
    /// are drawn as plain text, not yet chunks.
    #[prop_or_default]
    pub emitted: Option<usize>,
}

/// The chunks to draw around chunk `centre`: grown on both sides while the
/// window stays within [`WINDOW_CHUNKS`] and `bytes` (always at least
/// the centre chunk). Near either end of the text it grows the other way, so
/// the window is as full as it can be.
pub fn window_around(chunks: &[Chunk], centre: usize, bytes: usize) -> Range<usize> {
    if chunks.is_empty() {
        return 0..0;
    }
    let centre = centre.min(chunks.len() - 1);
    let fits = |a: usize, b: usize| {
        b - a <= WINDOW_CHUNKS
            && chunks[b - 1].span.end.saturating_sub(chunks[a].span.start) <= bytes
    };
    let (mut first, mut last) = (centre, centre + 1);
    loop {
        let mut grew = false;
        if last < chunks.len() && fits(first, last + 1) {
            last += 1;
            grew = true;
        }
        if first > 0 && fits(first - 1, last) {
            first -= 1;
            grew = true;
        }
        if !grew {
            return first..last;
        }
    }
}

/// The first chunk that ends after byte `at` (the one holding it, or the next).
fn chunk_at(chunks: &[Chunk], at: usize) -> usize {
    chunks.partition_point(|c| c.span.end <= at)
}

/// The chunk index of the `data-testid="chunk"` element an event happened in.
fn chunk_index(target: Option<web_sys::EventTarget>) -> Option<usize> {
    let element = target?.dyn_into::<Element>().ok()?;
    let chunk = element.closest("[data-testid=chunk]").ok()??;
    chunk.get_attribute("data-index")?.parse().ok()
}

/// What the view remembers between draws.
struct Memory {
    /// The byte the window is centred on. A byte, not a chunk index, so a
    /// re-split (new size) keeps showing the same part of the text.
    centre: usize,
    /// Pixels per byte of drawn text, for the spacers.
    px_per_byte: f64,
    /// The last highlight the window was moved for.
    highlight: Option<Span>,
    /// Whether the highlighted chunk still has to be scrolled into view.
    reveal: bool,
}

/// The title of a chunk's repeated start, in both drawings of it.
const REPEATED: &str = "repeated from the chunk before";
/// The title of a chunk's tail that the next chunk repeats, drawn once.
const SHARED: &str = "in this chunk and the next: the next one repeats it (overlap)";

/// The page's tokenizer that `unit` counts with, if it is a token unit whose
/// tables are here.
pub fn tokenizer_of(unit: Unit) -> Option<&'static Tokenizer> {
    match unit {
        Unit::Tokens(encoding) => chunkscope_wasm::loaded::tokenizer_of(encoding),
        _ => None,
    }
}

/// The pieces a text's tokens are drawn as, given where its tokens end: each
/// as (start, end, tokens). A token that ends inside a character (part of an
/// emoji's bytes) cannot be drawn alone, so it is merged with the ones after
/// it up to the next character boundary, and the piece counts them all.
fn token_pieces(text: &str, ends: &[usize]) -> Vec<(usize, usize, usize)> {
    let mut pieces = Vec::with_capacity(ends.len());
    let (mut from, mut merged) = (0, 0);
    for &end in ends {
        merged += 1;
        if text.is_char_boundary(end) {
            pieces.push((from, end, merged));
            from = end;
            merged = 0;
        }
    }
    pieces
}

/// How the parts of one chunk's text are drawn. Offsets are into the chunk's
/// text, on char boundaries (they come from the engine's spans).
///
/// With the overlap drawn once, the document reads as a document: the start a
/// chunk repeats is drawn by the chunk before it (its `again` part stays in the
/// element's text, for the chunk's hooks and its copy, but is not shown), and
/// that chunk marks the tail it gives away (`shared`). Drawn repeated, each
/// chunk shows its whole text and its repeated start hatched.
#[derive(Default)]
struct Marks {
    /// The start the chunk before already draws.
    again: usize,
    /// The start the engine recorded as repeated (the chunk's overlap).
    repeated: usize,
    /// The tail the next chunk repeats, and whether that chunk is odd.
    shared: Option<(Range<usize>, bool)>,
}

impl Marks {
    /// `text[from..to]` as text and marked spans.
    fn draw(&self, text: &str, from: usize, to: usize) -> Html {
        let mut at = vec![
            from,
            to,
            self.again.clamp(from, to),
            self.repeated.clamp(from, to),
        ];
        if let Some((shared, _)) = &self.shared {
            at.extend([shared.start.clamp(from, to), shared.end.clamp(from, to)]);
        }
        at.sort_unstable();
        at.dedup();
        at.windows(2)
            .map(|w| {
                let (a, piece) = (w[0], &text[w[0]..w[1]]);
                match &self.shared {
                    _ if a < self.again => html! { <span class="overlap again">{piece}</span> },
                    Some((shared, odd)) if shared.contains(&a) => html! {
                        <span class={classes!("shared", if *odd { "into-odd" } else { "into-even" })}
                            title={SHARED}>{piece}</span>
                    },
                    _ if a < self.repeated => html! { <span class="overlap" title={REPEATED}>{piece}</span> },
                    _ => html! { <>{piece}</> },
                }
            })
            .collect()
    }
}

/// A chunk's text as one element per token piece ([`token_pieces`]), marking
/// the pieces that stand for several tokens. The overlap's marks stay inside
/// the tokens they fall in.
fn token_spans(text: &str, ends: &[usize], marks: &Marks) -> Html {
    let pieces = token_pieces(text, ends);
    let spans = pieces
        .into_iter()
        .enumerate()
        .map(|(k, (from, end, merged))| {
            let piece = &text[from..end];
            let title = (merged > 1).then(|| {
                let split: String = piece
                    .char_indices()
                    .filter(|&(i, c)| {
                        let (lo, hi) = (from + i, from + i + c.len_utf8());
                        ends.iter().any(|&e| lo < e && e < hi)
                    })
                    .map(|(_, c)| c)
                    .collect();
                format!("{split} spans {merged} tokens: a token ends inside the character")
            });
            html! {
                <span class={if k.is_multiple_of(2) { "tok-a" } else { "tok-b" }} data-testid="token"
                    data-partial={title.is_some().then_some("true")}
                    data-tokens={title.is_some().then(|| merged.to_string())}
                    {title}>
                    {marks.draw(text, from, end)}
                </span>
            }
        });
    spans.collect()
}

/// Every chunk in the window as an element with its offsets and cut, the
/// marker of each cut after it, and the text in no chunk faded. One listener on
/// the container serves all chunks, so a long document does not get thousands
/// of closures.
#[function_component]
pub fn DocumentView(props: &DocumentViewProps) -> Html {
    let container = use_node_ref();
    let drawn_ref = use_node_ref();
    let redraw = use_force_update();
    let memory = use_mut_ref(|| Memory {
        centre: 0,
        px_per_byte: FIRST_PX_PER_BYTE,
        highlight: None,
        reveal: false,
    });
    let split = &props.split;
    let strategy = split.strategy();
    let text = &*split.text;
    let output = &split.output;
    let chunks = &output.chunks;
    let total = chunks.len();

    // A newly highlighted tree node moves the window to it, in this same draw.
    if props.highlight != memory.borrow().highlight {
        let mut m = memory.borrow_mut();
        m.highlight = props.highlight;
        if let Some(h) = props.highlight {
            let first = chunk_at(chunks, h.start);
            if let Some(c) = chunks.get(first) {
                m.centre = c.span.start;
                m.reveal = true;
            }
        }
    }
    let (centre, px_per_byte) = {
        let m = memory.borrow();
        (m.centre, m.px_per_byte)
    };
    // Each drawn chunk's own tokens, as the engine counted its length.
    let token_ends = props.tokens.then_some(split.token_ends.as_ref()).flatten();
    let window_bytes = if token_ends.is_some() {
        TOKEN_WINDOW_BYTES
    } else {
        WINDOW_BYTES
    };
    let range = window_around(chunks, chunk_at(chunks, centre), window_bytes);
    let (first, last) = (range.start, range.end);
    // The bytes the drawn part covers, and so the heights of the spacers.
    let lo = match first.checked_sub(1) {
        Some(before) => chunks[before].span.end.min(chunks[first].span.start),
        None => 0,
    };
    let hi = if last >= total {
        text.len()
    } else {
        chunks[last - 1].span.end
    };
    // Whole pixels: printing a float would pull float formatting into the bundle.
    let above = (lo as f64 * px_per_byte) as u64;
    let below = (text.len().saturating_sub(hi) as f64 * px_per_byte) as u64;

    {
        // After each draw: learn the height of a byte from what was drawn, and
        // bring a newly highlighted chunk into view.
        let (memory, drawn_ref, container, redraw) = (
            memory.clone(),
            drawn_ref.clone(),
            container.clone(),
            redraw.clone(),
        );
        use_effect(move || {
            let mut m = memory.borrow_mut();
            if let Some(drawn) = drawn_ref.cast::<Element>() {
                let bytes = hi.saturating_sub(lo);
                let height = drawn.get_bounding_client_rect().height();
                if bytes >= MEASURE_FROM_BYTES && height > 0.0 {
                    let measured = height / bytes as f64;
                    let off = (measured - m.px_per_byte).abs() / m.px_per_byte;
                    m.px_per_byte = measured;
                    // Only a clearly wrong guess is worth a second draw.
                    if off > 0.25 && (first > 0 || last < total) {
                        redraw.force_update();
                    }
                }
            }
            if std::mem::take(&mut m.reveal) {
                let target = container
                    .cast::<Element>()
                    .and_then(|c| c.query_selector(".in-node").ok().flatten());
                if let Some(target) = target {
                    let options = ScrollIntoViewOptions::new();
                    options.set_block(ScrollLogicalPosition::Nearest);
                    target.scroll_into_view_with_scroll_into_view_options(&options);
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
        let partner = props.partner.clone();
        let split = split.clone();
        Callback::from(move |_: Event| {
            let Some(el) = container.cast::<Element>() else {
                return;
            };
            if let Some(partner) = &partner {
                super::scroll_sync::follow(&el, partner);
            }
            if first == 0 && last >= total {
                return;
            }
            let Some(drawn) = drawn_ref.cast::<Element>() else {
                return;
            };
            // Everything in the scroll box's own coordinates.
            let scroll = f64::from(el.scroll_top());
            let view = f64::from(el.client_height());
            let origin = el.get_bounding_client_rect().top() - scroll;
            let rect = drawn.get_bounding_client_rect();
            let (top, bottom) = (rect.top() - origin, rect.bottom() - origin);
            let near_top = first > 0 && scroll < top + view / 2.0;
            let near_bottom = last < total && scroll + view > bottom - view / 2.0;
            if !near_top && !near_bottom {
                return;
            }
            // The byte at the middle of the view: read off the drawn part when
            // the view is on it, estimated from the spacers when it is not.
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
            let chunks = &split.output.chunks;
            let centre = chunk_at(chunks, byte.max(0.0) as usize).min(total - 1);
            if window_around(chunks, centre, window_bytes) != (first..last) {
                memory.borrow_mut().centre = chunks[centre].span.start;
                redraw.force_update();
            }
        })
    };

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
                    e.prevent_default();
                    on_reveal.emit(Pointed { strategy, index });
                }
            }
        })
    };

    let separators = &split.separators;
    let highlight = props.highlight;
    let gap = |span: Span| {
        let gap = span.text(text);
        let dropped = !gap.chars().all(chunkscope::is_space);
        html! { <span class={classes!("gap", dropped.then_some("dropped"))}>{gap}</span> }
    };
    // Each chunk with the gap before it and the cut after it, keyed by index.
    // A gap waits for the chunk after it; one left at the end closes the text.
    let repeated_of = |k: usize| {
        let chunk: &Chunk = &chunks[k];
        chunk
            .overlap
            .filter(|o| o.start == chunk.span.start)
            .map_or(0, |o| o.end - o.start)
    };
    let emitted = |k: usize| props.emitted.is_none_or(|e| k < e);
    let mut groups: Vec<(usize, Vec<Html>)> = Vec::with_capacity(range.len());
    let mut pending = None;
    for segment in segments_in(output, text.len(), range.clone()) {
        match segment {
            Segment::Gap(span) => pending = Some(gap(span)),
            Segment::Chunk(i) => {
                let chunk = &chunks[i];
                let (start, end) = split.chunk_chars[i];
                let lit = highlight.map(|h| h.intersect(chunk.span).is_some());
                let markup = only_markup(chunk.text(text), separators);
                let not_yet = props.emitted.is_some_and(|e| i >= e);
                let class = classes!(
                    "chunk",
                    not_yet.then_some("not-yet"),
                    if i.is_multiple_of(2) { "even" } else { "odd" },
                    markup.then_some("only-markup"),
                    match lit {
                        Some(true) => Some("in-node"),
                        Some(false) => Some("out-node"),
                        None => None,
                    }
                );
                // The overlap, drawn once or repeated (see `Marks`). Drawn once,
                // a start is left to the chunk before only when that chunk is
                // drawn too (not above the window, not still a step ahead).
                let once = !props.repeat_overlap;
                let marks = Marks {
                    again: if once && i > first && emitted(i) {
                        repeated_of(i).min(chunks[i - 1].span.end.saturating_sub(chunk.span.start))
                    } else {
                        0
                    },
                    repeated: repeated_of(i),
                    shared: (once && i + 1 < last && emitted(i + 1))
                        .then(|| {
                            let next = chunks[i + 1].span.start;
                            let from = next.max(chunk.span.start);
                            let to = (next + repeated_of(i + 1)).min(chunk.span.end);
                            (from < to).then(|| {
                                let base = chunk.span.start;
                                (from - base..to - base, (i + 1) % 2 == 1)
                            })
                        })
                        .flatten(),
                };
                let own = chunk.text(text);
                let body = match token_ends.and_then(|ends| ends.get(i)) {
                    Some(ends) => token_spans(own, ends, &marks),
                    None => marks.draw(own, 0, own.len()),
                };
                // The library's own answer where it differs from the span: a
                // chunk whose text is not a slice is marked by its `data-slice`
                // (the stylesheet draws ≠ without touching the chunk's text),
                // and a start_index that points elsewhere gets a flag before
                // the chunk.
                let theirs = library_chunk(split, i);
                let slice = theirs.as_ref().is_none_or(|l| l.text.is_none());
                let library = theirs.as_ref().map_or("LangChain", |l| l.library);
                let flag = theirs.filter(|l| l.start_differs()).map(|l| {
                    html! {
                        <span class="start-flag" data-testid="start-index-mismatch"
                            data-index={i.to_string()}
                            data-start={start.to_string()}
                            data-start-index={l.start_index.unwrap_or(-1).to_string()}
                            title={format!("chunk {i} starts at {start}, {}'s start_index is {}", l.library, l.start_index.unwrap_or(-1))}>
                            {"⚑"}<span class="sr">{format!(" start_index {} ", l.start_index.unwrap_or(-1))}</span>
                        </span>
                    }
                });
                let element = html! {
                    <span
                        {class}
                        data-testid="chunk"
                        data-index={i.to_string()}
                        data-start={start.to_string()}
                        data-end={end.to_string()}
                        data-cut={cut_attr(chunk.cut, separators)}
                        data-slice={slice.to_string()}
                        data-only-markup={markup.then_some("true")}
                        data-step-pending={not_yet.then_some("true")}
                        title={(!slice).then(|| format!("{library}'s text for this chunk is not this slice of the source: point at it to compare"))}
                        tabindex="0">
                        {body}
                    </span>
                };
                let mut parts: Vec<Html> = pending.take().into_iter().collect();
                parts.extend(flag);
                parts.push(element);
                groups.push((i, parts));
            }
            Segment::Cut(i) if props.emitted.is_some_and(|e| i >= e) => {}
            Segment::Cut(i) => {
                if let (Some((glyph, class)), Some((_, parts))) =
                    (cut_marker(chunks[i].cut, separators), groups.last_mut())
                {
                    parts.push(html! {
                        <span class={classes!("cut", class)} aria-hidden="true">{glyph}</span>
                    });
                }
            }
        }
    }

    let windowed = first > 0 || last < total;
    html! {
        <>
            <div
                class={classes!("doc", highlight.is_some().then_some("focused"))}
                data-testid="document-view"
                data-first={first.to_string()}
                data-drawn={range.len().to_string()}
                data-total={total.to_string()}
                ref={container}
                {onmouseover}
                {onfocusin}
                {onscroll}
                {onclick}
                {onkeydown}
                aria-label="Chunks over the document; focus a chunk to see its details">
                if above > 0 {
                    <div class="doc-spacer" style={format!("height:{above}px")} aria-hidden="true" />
                }
                <span class="drawn" ref={drawn_ref}>
                    { for groups.into_iter().map(|(key, parts)| html! {
                        <span class="seg" key={key}>{ for parts }</span>
                    })}
                    {pending.unwrap_or_default()}
                </span>
                if below > 0 {
                    <div class="doc-spacer" style={format!("height:{below}px")} aria-hidden="true" />
                }
                if chunks.is_empty() {
                    <p class="empty">{"No chunks: the text is empty or only whitespace."}</p>
                }
            </div>
            if windowed {
                <p class="doc-more" data-testid="doc-more">
                    {format!("Chunks {first}–{} of {total} are drawn; the rest are drawn as you scroll.", last - 1)}
                </p>
            }
        </>
    }
}

/// A checkbox that changes how the chunks are drawn, never what they are.
/// A plain function, not a component: it has no state of its own, and a
/// component costs the bundle far more.
fn view_toggle(
    test_id: &'static str,
    label: &'static str,
    explain: &'static str,
    on: bool,
    action: fn(bool) -> Action,
    dispatch: &Callback<Action>,
) -> Html {
    let onchange = dispatch.reform(move |e: Event| {
        action(
            e.target_unchecked_into::<web_sys::HtmlInputElement>()
                .checked(),
        )
    });
    html! {
        <p class="view-toggle">
            <label>
                <input type="checkbox" data-testid={test_id} checked={on} {onchange} />
                {" "}{label}
            </label>
            {help(explain)}
        </p>
    }
}

/// The checkbox that draws the tokens inside the chunks, offered while the
/// size counts tokens: a learner sees what a model would see, and why a chunk
/// of a few words can be "long".
pub fn token_toggle(on: bool, dispatch: &Callback<Action>) -> Html {
    view_toggle(
        "token-overlay",
        "Show token boundaries",
        "Each chunk cut into the tokens its length counts; bands alternate from token to token. A dotted underline marks a character whose bytes are split across tokens (an emoji, a Chinese character): it is drawn whole, and its title says how many tokens it spans.",
        on,
        Action::ShowTokens,
        dispatch,
    )
}

/// The checkbox that repeats each chunk's overlap inside it, offered while a
/// chunk has one. Off, the document reads once and the shared text is marked
/// as in two chunks; on, every chunk shows all it holds, as an embedder sees it.
pub fn overlap_toggle(on: bool, dispatch: &Callback<Action>) -> Html {
    view_toggle(
        "overlap-repeat",
        "Repeat the overlap in each chunk",
        "Off: the document is drawn once, and the text two chunks share is hatched and over-lined in the next chunk's colour. On: each chunk shows its whole text, so the shared text appears twice, hatched where it is repeated, as the embedder sees it.",
        on,
        Action::RepeatOverlap,
        dispatch,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkscope::{Config, Splitter};

    fn chunks(text: &str, size: usize) -> Vec<Chunk> {
        Splitter::new(Config::recursive(size), &chunkscope::Resources::new())
            .unwrap()
            .split(text)
            .unwrap()
            .chunks
    }

    #[test]
    fn a_short_text_is_drawn_whole() {
        let c = chunks(&"A few words here. ".repeat(40), 30);
        assert_eq!(window_around(&c, 0, WINDOW_BYTES), 0..c.len());
        assert_eq!(window_around(&c, c.len() + 5, WINDOW_BYTES), 0..c.len());
        assert_eq!(window_around(&[], 3, WINDOW_BYTES), 0..0);
    }

    #[test]
    fn a_long_text_is_drawn_around_the_centre_within_the_limits() {
        let text = "Some words to split. ".repeat(20_000);
        let c = chunks(&text, 100);
        let middle = c.len() / 2;
        let w = window_around(&c, middle, WINDOW_BYTES);
        assert!(w.contains(&middle));
        assert!(w.len() <= WINDOW_CHUNKS);
        let bytes = c[w.end - 1].span.end - c[w.start].span.start;
        assert!(
            bytes <= WINDOW_BYTES && bytes > WINDOW_BYTES - 200,
            "{bytes}"
        );
        // At the ends the window fills the other way.
        assert_eq!(window_around(&c, 0, WINDOW_BYTES).start, 0);
        assert_eq!(window_around(&c, 0, WINDOW_BYTES).len(), w.len());
        assert_eq!(window_around(&c, c.len() - 1, WINDOW_BYTES).end, c.len());
        assert_eq!(chunk_at(&c, c[10].span.start), 10);
    }

    #[test]
    fn a_token_ending_inside_a_character_is_drawn_with_the_next() {
        // "a😀b" as [a][😀's first byte][its other three and b]: the emoji
        // and b are one piece that stands for two tokens.
        assert_eq!(token_pieces("a😀b", &[1, 2, 6]), [(0, 1, 1), (1, 6, 2)]);
        assert_eq!(
            token_pieces("a😀b", &[1, 3, 5, 6]),
            [(0, 1, 1), (1, 5, 2), (5, 6, 1)]
        );
        assert_eq!(token_pieces("ab", &[1, 2]), [(0, 1, 1), (1, 2, 1)]);
        assert!(token_pieces("", &[]).is_empty());
    }
}
