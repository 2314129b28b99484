//! Every chunk as a row: index, span, length and the cut that ended it; for a
//! LangChain split also its start_index and, where it differs, its own text.

use crate::model::{cut_label, cut_marker, library_chunk, preview};
use crate::state::{Action, Shared};
use yew::prelude::*;

/// Rows listed before "show all": enough to read, few enough to stay fast.
const FIRST_ROWS: usize = 100;

#[derive(Properties, PartialEq)]
pub struct ChunkTableProps {
    pub split: Shared,
    pub all_rows: bool,
    pub dispatch: Callback<Action>,
}

/// The chunk table.
#[function_component]
pub fn ChunkTable(props: &ChunkTableProps) -> Html {
    let split = &props.split;
    let chunks = &split.output.chunks;
    let seps = &split.separators;
    let unit = split.config.unit;
    let facts = split.output.library.as_deref().unwrap_or_default();
    let langchain = facts.iter().any(|c| c.start_index.is_some());
    let metadata = facts.iter().any(|c| c.metadata().is_some());
    let shown = if props.all_rows {
        chunks.len()
    } else {
        chunks.len().min(FIRST_ROWS)
    };
    let show_all = props.dispatch.reform(|_: MouseEvent| Action::ShowAllRows);
    html! {
        <section class="card table-card" aria-label="Chunk table">
            <h2>{format!("{} chunks", chunks.len())}</h2>
            <div class="table-scroll">
                <table class="chunks" data-testid="chunk-table">
                    <thead>
                        <tr>
                            <th scope="col">{"#"}</th>
                            <th scope="col" title="in chars, half-open: from the first char up to, not including, the end">{"span"}</th>
                            if langchain {
                                <th scope="col" class="num" title="add_start_index: where LangChain's str.find put the chunk (−1: not found)">{"start_index"}</th>
                            }
                            if metadata {
                                <th scope="col" title="the Document's metadata: the headers the chunk is under">{"metadata"}</th>
                            }
                            <th scope="col" class="num" title={format!("length in {unit}")}>{unit.name()}</th>
                            <th scope="col">{"ended by"}</th>
                            <th scope="col">{"text"}</th>
                        </tr>
                    </thead>
                    <tbody>
                        { for chunks[..shown].iter().enumerate().map(|(i, c)| {
                            let (start, end) = split.chunk_chars[i];
                            let marker = cut_marker(c.cut, seps);
                            let lc = library_chunk(split, i);
                            let over = c.len > split.config.size;
                            html! {
                                <tr data-testid="chunk-row" data-index={i.to_string()}>
                                    <td class="num">{i}</td>
                                    <td class="mono">{format!("{start}–{end}")}</td>
                                    if langchain {
                                        <td class={classes!("num", lc.as_ref().is_some_and(|l| l.start_differs()).then_some("mismatch"))}
                                            title={lc.as_ref().and_then(|l| l.start_why.clone())}>
                                            if lc.as_ref().is_some_and(|l| l.start_differs()) { {"⚑ "} }
                                            {lc.as_ref().and_then(|l| l.start_index).map(|s| s.to_string())}
                                        </td>
                                    }
                                    if metadata {
                                        <td data-testid="chunk-row-metadata">{lc.as_ref().and_then(|l| l.metadata_line())}</td>
                                    }
                                    <td class={classes!("num", over.then_some("warn-text"))}>{c.len}</td>
                                    <td>
                                        if let Some((glyph, class)) = marker {
                                            <span class={classes!("cut", class)} aria-hidden="true">{glyph}</span>
                                        }
                                        <code>{cut_label(c.cut, seps)}</code>
                                    </td>
                                    <td class="preview">
                                        {preview(c.text(&split.text), 60)}
                                        if let Some((library, text)) = lc.and_then(|lc| Some((lc.library, lc.text?))) {
                                            <span class="theirs" title={format!("{library}'s text, which is not this slice of the source")}>
                                                <span class="ne">{format!("≠ {library}: ")}</span>{preview(&text, 60)}
                                            </span>
                                        }
                                    </td>
                                </tr>
                            }
                        })}
                    </tbody>
                </table>
            </div>
            if shown < chunks.len() {
                <button type="button" class="more" onclick={show_all}>
                    {format!("Show all {} rows", chunks.len())}
                </button>
            }
        </section>
    }
}
