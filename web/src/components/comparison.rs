//! Seed 001's table, live: fixed, recursive, sentence and semantic on the
//! current document and settings, each from its own split, and late
//! chunking, described (the page has no long-context model to run it).

use crate::model::amount;
use crate::semantic_model::comparison;
use crate::state::Shared;
use chunkscope::{Strategy, Unit};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ComparisonProps {
    /// The splits of `crate::state::semantic::COMPARED`, as far as they are in.
    pub splits: Vec<Shared>,
    /// What the lengths count.
    pub unit: Unit,
}

/// The interview answer on one screen: every strategy's chunks, sizes and
/// embedding calls, what it guarantees and what it costs.
#[function_component]
pub fn StrategyComparison(props: &ComparisonProps) -> Html {
    let find = |s: Strategy| {
        props
            .splits
            .iter()
            .find(|x| x.strategy() == s)
            .map(|x| &**x)
    };
    let rows = comparison(find);
    let unit = props.unit;
    html! {
        <section class="card comparison-card" aria-label="Four strategies on this document">
            <h2>{"Four strategies on this document"}</h2>
            <p class="note">{"The same text, size and separators, split by each strategy. Embedding calls to cut count what a strategy embeds before it can decide where to cut; every strategy then embeds each chunk once to index it."}</p>
            <div class="table-scroll">
                <table class="comparison" data-testid="strategy-comparison">
                    <thead><tr>
                        <th scope="col">{"strategy"}</th>
                        <th scope="col">{"chunks"}</th>
                        <th scope="col">{"shortest / median / longest"}</th>
                        <th scope="col">{"embedding to cut"}</th>
                        <th scope="col">{"guarantees"}</th>
                        <th scope="col">{"costs and needs"}</th>
                        <th scope="col">{"ideal for"}</th>
                    </tr></thead>
                    <tbody>
                        { for rows.iter().map(|r| {
                            let (chunks, lengths) = match r.lengths {
                                Some((n, min, median, max)) => (n.to_string(), format!("{min} / {median} / {}", amount(max, unit))),
                                None if r.name == "late" => ("as the boundaries used".into(), "as the boundaries used".into()),
                                None => ("…".into(), "…".into()),
                            };
                            let cut = match (r.cut_calls, r.cut_vectors) {
                                (Some(0), _) => "none".to_string(),
                                (Some(calls), Some(v)) => format!("{calls} {} ({v} vectors)", if calls == 1 { "call" } else { "calls" }),
                                _ if r.name == "late" => "1 pass of a long-context model over the whole document".into(),
                                _ => "…".into(),
                            };
                            let n = |x: Option<usize>| x.map(|x| x.to_string()).unwrap_or_default();
                            let (count, min, median, max) = match r.lengths {
                                Some((a, b, c, d)) => (Some(a), Some(b), Some(c), Some(d)),
                                None => (None, None, None, None),
                            };
                            html! {
                                <tr data-testid="comparison-row" data-strategy={r.name} data-chunks={n(count)}
                                    data-min={n(min)} data-median={n(median)} data-max={n(max)}
                                    data-cut-calls={n(r.cut_calls)} data-cut-vectors={n(r.cut_vectors)}>
                                    <th scope="row">{r.title}</th>
                                    <td>{chunks}</td>
                                    <td>{lengths}</td>
                                    <td>{cut}</td>
                                    <td>{r.guarantee}</td>
                                    <td>{r.cost}</td>
                                    <td>{r.ideal}</td>
                                </tr>
                            }
                        })}
                    </tbody>
                </table>
            </div>
            <p class="note" data-testid="comparison-choose">
                {"Which to choose: start with recursive separators, and measure retrieval on your own questions (evaluate mode). Try semantic only if that measurement improves, since every document then costs a vector per sentence group before it is indexed. Late chunking pays off when chunks lean on context elsewhere in the document, and it needs a long-context embedding model that returns a vector per token."}
            </p>
            <p class="hint lesson-correction" data-testid="lesson-correction" data-seed="001">
                <strong>{"The lesson's table is wrong here: "}</strong>
                {"it says recursive splitting goes by paragraph (\\n\\n), then sentence (\\n), then space. A \\n is a line break, not a sentence end: a line can hold several sentences, and a sentence can run over several lines. The default separators cut sentences at \". \", after paragraphs and lines, and the sentence strategy finds sentence ends with a segmenter."}
            </p>
        </section>
    }
}
