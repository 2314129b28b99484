//! The compare views' numbers side by side: one column per pane, so neither
//! side's statistics hide below the other's.

use crate::model::{tenths, visible_label, Stats};
use crate::state::{Shared, View};
use chunkscope::stats::Agreement;
use chunkscope::Strategy;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct CompareStatsProps {
    /// Each pane's split, in pane order (a pane still waiting is `None`).
    pub splits: Vec<(Strategy, Option<Shared>)>,
    /// The pane the tree, table and histogram below describe.
    pub primary: Strategy,
}

/// One row of the table: its `data-stat`, its words, and each pane's value.
struct Row {
    stat: String,
    label: Html,
    values: Vec<Option<String>>,
}

/// The rows for these panes' statistics. A separator row is there when some
/// pane's list has the separator; a pane without it shows nothing.
fn rows(splits: &[(Strategy, Option<(Shared, Stats)>)]) -> Vec<Row> {
    let each = |f: &dyn Fn(&Shared, &Stats) -> Option<String>| -> Vec<Option<String>> {
        splits
            .iter()
            .map(|(_, s)| s.as_ref().and_then(|(split, st)| f(split, st)))
            .collect()
    };
    let row = |stat: &str, label: &str, values| Row {
        stat: stat.into(),
        label: html! { {label.to_string()} },
        values,
    };
    let mut out = vec![
        row("chunks", "chunks", each(&|_, s| Some(s.count.to_string()))),
        row("min", "shortest", each(&|_, s| Some(s.min.to_string()))),
        row("median", "median", each(&|_, s| Some(s.median.to_string()))),
        row("mean", "mean", each(&|_, s| Some(tenths(s.mean)))),
        row("max", "longest", each(&|_, s| Some(s.max.to_string()))),
        row(
            "over",
            "over the size",
            each(&|_, s| Some(s.over.to_string())),
        ),
        row(
            "mid-word",
            "cuts inside a word",
            each(&|_, s| Some(s.mid_word.to_string())),
        ),
        row(
            "mid-sentence",
            "cuts mid-sentence",
            each(&|_, s| Some(s.mid_sentence.to_string())),
        ),
        row(
            "only-markup",
            "chunks of markup alone",
            each(&|_, s| Some(s.only_markup.to_string())),
        ),
        row(
            "lost",
            "text lost (chars no chunk holds)",
            each(&|_, s| Some(s.tiling.lost.to_string())),
        ),
        row(
            "repeated",
            "text repeated (chars)",
            each(&|_, s| Some(s.tiling.repeated.to_string())),
        ),
        row(
            "not-slices",
            "chunks not slices of the text",
            each(&|_, s| Some(s.tiling.not_slices.to_string())),
        ),
    ];
    out.push(same_chunks(splits));
    // Cuts by separator label, in the order the panes list them.
    let mut labels: Vec<(String, String)> = Vec::new();
    for (split, _) in splits.iter().filter_map(|(_, s)| s.as_ref()) {
        for sep in split.separators.iter().filter(|s| !s.is_hard_cut()) {
            if !labels.iter().any(|(l, _)| *l == sep.label()) {
                labels.push((sep.label(), visible_label(sep)));
            }
        }
    }
    for (label, visible) in labels {
        let values = each(&|split, s| {
            let i = split
                .separators
                .iter()
                .position(|sep| !sep.is_hard_cut() && sep.label() == label)?;
            Some(s.fired[i].to_string())
        });
        out.push(Row {
            stat: format!("cut:{label}"),
            label: html! { <>{"cuts at "}<code>{visible}</code></> },
            values,
        });
    }
    out.push(row(
        "hard",
        "hard cuts",
        each(&|split, s| Some(s.hard_cuts(&split.separators).to_string())),
    ));
    out.push(row(
        "window",
        "window cuts",
        each(&|_, s| Some(s.windows.to_string())),
    ));
    out
}

/// Where the panes agree, once every pane has split the same text.
fn agreement(splits: &[(Strategy, Option<(Shared, Stats)>)]) -> Option<Agreement> {
    let done: Vec<&Shared> = splits
        .iter()
        .map(|(_, s)| s.as_ref().map(|(split, _)| split))
        .collect::<Option<_>>()?;
    let text = &done.first()?.text;
    if done.iter().any(|s| s.text != *text) {
        return None;
    }
    let outputs: Vec<&chunkscope::Output> = done.iter().map(|s| &s.output).collect();
    Some(Agreement::of(text, &outputs))
}

/// The row that says which panes give exactly the same chunks (every pane
/// in, or the row is blank).
fn same_chunks(splits: &[(Strategy, Option<(Shared, Stats)>)]) -> Row {
    let values = match agreement(splits) {
        None => vec![None; splits.len()],
        Some(agreement) => agreement
            .same_as
            .iter()
            .map(|others| {
                Some(if others.is_empty() {
                    "none".to_string()
                } else {
                    let names: Vec<&str> = others.iter().map(|&j| splits[j].0.name()).collect();
                    names.join(", ")
                })
            })
            .collect(),
    };
    Row {
        stat: "same-chunks".into(),
        label: html! { {"the same chunks as"} },
        values,
    }
}

/// Both panes' numbers in one table (`compare-stats`).
#[function_component]
pub fn CompareStats(props: &CompareStatsProps) -> Html {
    let splits: Vec<(Strategy, Option<(Shared, Stats)>)> = props
        .splits
        .iter()
        .map(|(s, split)| {
            (
                *s,
                split.clone().map(|sp| {
                    let st = sp.stats().clone();
                    (sp, st)
                }),
            )
        })
        .collect();
    let unit = splits
        .iter()
        .find_map(|(_, s)| s.as_ref().map(|(split, _)| split.config.unit));
    // The panes are the libraries' splitters: the interview cards follow.
    let libraries = splits
        .iter()
        .all(|(s, _)| View::recursive_means(*s).is_some());
    let common = agreement(&splits).map(|a| a.common);
    html! {
        <>
        <section class="card compare-stats" aria-label="Every pane's numbers">
            <h2>{"Side by side: where they agree and differ"}</h2>
            <table data-testid="compare-stats">
                <thead>
                    <tr>
                        <th scope="col">{unit.map(|u| format!("lengths in {u}")).unwrap_or_default()}</th>
                        { for splits.iter().map(|(s, _)| html! {
                            <th scope="col" data-pane={s.name()} title={View::title_of(*s)}>{View::short_title_of(*s)}</th>
                        })}
                    </tr>
                </thead>
                <tbody>
                    { for rows(&splits).into_iter().map(|r| html! {
                        <tr data-testid="compare-stat" data-stat={r.stat}>
                            <th scope="row">{r.label}</th>
                            { for splits.iter().zip(r.values).map(|((s, _), v)| html! {
                                <td data-pane={s.name()} data-value={v.clone()}>{v.unwrap_or_else(|| "–".into())}</td>
                            })}
                        </tr>
                    })}
                </tbody>
            </table>
            if let Some(common) = common {
                <p class="note" data-testid="compare-common" data-common={common.to_string()}>
                    {match common {
                        0 => "No chunk is the same in every pane.".to_string(),
                        1 => "One chunk is the same in every pane (whitespace at its ends aside).".to_string(),
                        n => format!("{n} chunks are the same in every pane (whitespace at their ends aside)."),
                    }}
                </p>
            }
            <p class="hint" data-testid="compare-primary" data-pane={props.primary.name()}>
                {format!("The tree, the chunk table and the histogram below are of the {} pane.", View::title_of(props.primary))}
            </p>
        </section>
        if libraries {
            <super::library_cards::LibraryCards splits={splits.clone()} />
        }
        </>
    }
}
