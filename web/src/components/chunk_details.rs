//! The details of the chunk under the pointer or the keyboard focus.

use crate::model::{library_chunk, story, LibraryChunk};
use crate::state::{Pointed, Shared};
use yew::prelude::*;

/// Most characters of a chunk's text shown in the side-by-side comparison; the
/// difference LangChain makes is visible well before that.
const SHOWN_CHARS: usize = 600;

#[derive(Properties, PartialEq)]
pub struct ChunkDetailsProps {
    /// The split the pointed chunk belongs to.
    pub split: Option<Shared>,
    pub pointed: Option<Pointed>,
}

/// `text` cut to [`SHOWN_CHARS`], with … when cut.
fn shortened(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// The library's facts about the chunk: its start_index beside the real
/// start, and its text beside the source span when they differ.
fn library_rows(split: &Shared, index: usize, lc: LibraryChunk) -> Html {
    let (start, end) = split.chunk_chars[index];
    let span_text = split
        .output
        .chunks
        .get(index)
        .map_or("", |c| c.text(&split.text));
    html! {
        <>
            if let Some(metadata) = lc.metadata_line() {
                <dt>{"metadata"}</dt>
                <dd data-testid="chunk-metadata">{metadata}</dd>
            }
            if let Some(start_index) = lc.start_index {
                <dt>{"start_index"}</dt>
                <dd class={classes!(lc.start_differs().then_some("warn-text"))}>
                    if let Some(why) = &lc.start_why {
                        <strong>{format!("{start_index} in {}, but the chunk starts at {}. ", lc.library, lc.start)}</strong>
                        {why.clone()}
                    } else {
                        {format!("{start_index}, where the chunk starts")}
                    }
                </dd>
            }
            if let (Some(text), Some(why)) = (&lc.text, &lc.not_slice_why) {
                <dt>{"not a slice"}</dt>
                <dd>
                    <p class="lc-why">{why.clone()}</p>
                    <div class="lc-compare">
                        <figure>
                            <figcaption>{format!("source, chars {start}–{end}")}</figcaption>
                            <pre>{shortened(span_text)}</pre>
                        </figure>
                        <figure class="theirs">
                            <figcaption>{format!("{}'s text ≠", lc.library)}</figcaption>
                            <pre data-testid="langchain-text">{shortened(text)}</pre>
                        </figure>
                    </div>
                </dd>
            }
        </>
    }
}

/// The Markdown strategy's facts about the chunk, as the engine recorded
/// them: its heading path (outermost first, its own section last) and, for
/// rows cut from an oversized table, the header they are read with.
fn markdown_rows(split: &Shared, index: usize) -> Html {
    let Some(md) = split.output.markdown.as_ref() else {
        return Html::default();
    };
    let path = md.path_texts(&split.text, index);
    let header = md
        .chunks
        .get(index)
        .and_then(|c| c.table_header)
        .map(|h| h.text(&split.text));
    let prefix = md.chunks.get(index).and_then(|c| c.prefix.as_deref());
    // The size counted the prefix with the text (the engine adds the two
    // counts); counted here with the unit's counter, as the overlap is. With
    // a token unit whose tables are not installed, the sum is left out.
    let sum = prefix
        .zip(split.output.chunks.get(index))
        .and_then(|(p, c)| {
            let unit = split.config.unit;
            let n = chunkscope_wasm::loaded::counter(unit).ok()?.len(p);
            Some(format!(
                "prefix {n} + text {} = {} {unit} of {}",
                c.len,
                n + c.len,
                split.config.size
            ))
        });
    html! {
        <>
            <dt>{"heading path"}</dt>
            <dd data-testid="heading-path" data-depth={path.len().to_string()}>
                if path.is_empty() {
                    <span class="muted">{"none: the chunk comes before the first heading"}</span>
                } else {
                    {path.join(" > ")}
                }
            </dd>
            if let Some(prefix) = prefix {
                <dt>{"prefix"}</dt>
                <dd>
                    <pre class="prefix" data-testid="chunk-prefix">{prefix.trim_end()}</pre>
                    if let Some(sum) = sum {
                        <span data-testid="prefix-sum">{sum}</span><br />
                    }
                    <span class="muted">{"put before the chunk for embedding, not part of its text; the size counted the two together"}</span>
                </dd>
            }
            if let Some(header) = header {
                <dt>{"table header"}</dt>
                <dd><pre data-testid="table-header">{shortened(header)}</pre></dd>
            }
        </>
    }
}

/// A panel of steady height for short stories, so pointing at chunks rarely
/// moves the page; a LangChain chunk whose text differs adds the comparison.
#[function_component]
pub fn ChunkDetails(props: &ChunkDetailsProps) -> Html {
    let found = props
        .split
        .as_ref()
        .zip(props.pointed)
        .and_then(|(split, p)| story(split, p.index).map(|s| (split, p, s)));
    let body = match found {
        Some((split, p, s)) => html! {
            <>
                <p class="title">
                    <strong>{format!("Chunk {}", p.index)}</strong>
                    <span class="muted">{format!(" ({})", p.strategy)}</span>
                    {format!(" · {} · {}", s.span, s.length)}
                </p>
                <dl>
                    <dt>{"starts after"}</dt><dd>{s.before}</dd>
                    <dt>{"ends at"}</dt><dd>{s.after}</dd>
                    // A split with no tree (a library that reports only its
                    // chunks) has no reason beyond the cuts above.
                    if !s.why.is_empty() {
                        <dt>{"why"}</dt><dd>{s.why}</dd>
                    }
                    if let Some(o) = s.overlap {
                        <dt>{"overlap"}</dt><dd>{o}</dd>
                    }
                    if let Some(lc) = library_chunk(split, p.index) {
                        {library_rows(split, p.index, lc)}
                    }
                    {markdown_rows(split, p.index)}
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
