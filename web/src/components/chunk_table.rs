//! Every chunk as a row: index, span, length and the cut that ended it.

use crate::model::{cut_label, cut_marker, preview};
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
    let seps = &split.config.separators;
    let unit = split.config.unit;
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
                            <th scope="col" class="num" title={format!("length in {unit}")}>{unit.name()}</th>
                            <th scope="col">{"ended by"}</th>
                            <th scope="col">{"text"}</th>
                        </tr>
                    </thead>
                    <tbody>
                        { for chunks[..shown].iter().map(|c| {
                            let (start, end) = split.chunk_chars[c.index];
                            let marker = cut_marker(c.cut, seps);
                            html! {
                                <tr data-testid="chunk-row" data-index={c.index.to_string()}>
                                    <td class="num">{c.index}</td>
                                    <td class="mono">{format!("{start}–{end}")}</td>
                                    <td class="num">{c.len}</td>
                                    <td>
                                        if let Some((glyph, class)) = marker {
                                            <span class={classes!("cut", class)} aria-hidden="true">{glyph}</span>
                                        }
                                        <code>{cut_label(c.cut, seps)}</code>
                                    </td>
                                    <td class="preview">{preview(c.text(&split.text), 60)}</td>
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
