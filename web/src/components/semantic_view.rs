//! The semantic strategy's own view: its threshold controls, the distance
//! curve between neighbouring sentence groups with the threshold line and the
//! breakpoints (each linked to the chunk it ends), and what the split cost.
//! Every number is the engine's, from the trace's `semantic` record.

use super::help::{count_field, help};
use crate::model::tenths;
use crate::semantic_model::{bits, curve, decimals, Curve};
use crate::state::semantic::slider;
use crate::state::{Action, Pointed, SemanticSettings, Shared};
use chunkscope::semantic::Breakpoint;
use chunkscope::Strategy;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Each value is drawn as its own point (hoverable, with the sentence it
/// follows) up to this many; above it, the line alone.
const POINTS_UP_TO: usize = 300;
/// Breakpoints drawn as marks (a long document at a low threshold has
/// thousands); the rest are counted in the curve's `data-breakpoints`.
const MARKS_UP_TO: usize = 500;
/// The curve's drawing box, in SVG units.
const W: f64 = 640.0;
const H: f64 = 180.0;
/// Room for the value labels on the left, and the sentence labels below.
const LEFT: f64 = 44.0;
const TOP: f64 = 8.0;
const BOTTOM: f64 = 22.0;

#[derive(Properties, PartialEq)]
pub struct SemanticViewProps {
    pub split: Shared,
    pub settings: SemanticSettings,
    pub dispatch: Callback<Action>,
    pub on_point: Callback<Option<Pointed>>,
}

/// What LangChain calls each kind, and how the amount reads for it.
fn kind_title(kind: Breakpoint) -> &'static str {
    match kind {
        Breakpoint::Percentile => "percentile of the distances",
        Breakpoint::StandardDeviation => "mean + N standard deviations",
        Breakpoint::Interquartile => "mean + N interquartile ranges",
        Breakpoint::Gradient => "percentile of the distances' gradient",
    }
}

/// A value's height in the box.
fn y_of(c: &Curve, v: f64) -> f64 {
    TOP + (H - TOP - BOTTOM) * (1.0 - (v - c.low) / (c.high - c.low))
}

/// Value `i`'s place along the box.
fn x_of(c: &Curve, i: usize) -> f64 {
    let n = c.values.len();
    if n < 2 {
        return LEFT + (W - LEFT) / 2.0;
    }
    LEFT + 6.0 + (W - LEFT - 12.0) * i as f64 / (n - 1) as f64
}

/// The curve, its threshold and its breakpoints as SVG.
fn chart(c: &Curve, on_point: &Callback<Option<Pointed>>) -> Html {
    let points: String = c
        .values
        .iter()
        .enumerate()
        .map(|(i, &v)| format!("{},{} ", tenths(x_of(c, i)), tenths(y_of(c, v))))
        .collect();
    let what = if c.gradient {
        "gradient of the distance"
    } else {
        "distance"
    };
    let label = format!(
        "The {what} between neighbouring sentence groups, {} values, with the threshold and {} breakpoints",
        c.values.len(),
        c.marks.len()
    );
    html! {
        <svg class="curve" data-testid="similarity-curve" viewBox={format!("0 0 {} {}", tenths(W), tenths(H))}
            role="img" aria-label={label} data-count={c.values.len().to_string()}
            data-kind={if c.gradient { "gradient" } else { "distance" }}
            data-breakpoints={c.marks.len().to_string()}>
            <line class="axis" x1={tenths(LEFT)} y1={tenths(H - BOTTOM)} x2={tenths(W)} y2={tenths(H - BOTTOM)} />
            <text class="tick top" x={tenths(LEFT - 4.0)} y={tenths(TOP)} text-anchor="end">{decimals(c.high, 2)}</text>
            <text class="tick" x={tenths(LEFT - 4.0)} y={tenths(H - BOTTOM)} text-anchor="end">{decimals(c.low, 2)}</text>
            <text class="tick" x={tenths(LEFT)} y={tenths(H - 6.0)}>{"sentence 1"}</text>
            <text class="tick" x={tenths(W)} y={tenths(H - 6.0)} text-anchor="end">{format!("sentence {}", c.sentences.len())}</text>
            <polyline class="line" points={points} />
            if let Some(t) = c.threshold {
                <line class="threshold" data-testid="threshold-line" data-value={decimals(t, 6)} data-bits={bits(t)}
                    x1={tenths(LEFT)} x2={tenths(W)} y1={tenths(y_of(c, t))} y2={tenths(y_of(c, t))}>
                    <title>{format!("threshold {}", decimals(t, 4))}</title>
                </line>
            }
            if c.values.len() <= POINTS_UP_TO {
                { for c.values.iter().enumerate().map(|(i, &v)| html! {
                    <circle class="point" data-testid="curve-point" data-index={i.to_string()} data-value={decimals(v, 6)} data-bits={bits(v)}
                        cx={tenths(x_of(c, i))} cy={tenths(y_of(c, v))} r="2.5">
                        <title>{format!("{what} {} between the groups of sentences {} and {}", decimals(v, 4), i + 1, i + 2)}</title>
                    </circle>
                })}
            }
            { for c.marks.iter().take(MARKS_UP_TO).map(|m| {
                let chunk = m.chunk;
                let onclick = on_point.reform(move |_: MouseEvent| chunk.map(|index| Pointed { strategy: Strategy::Semantic, index }));
                html! {
                    <g class="breakpoint" data-testid="breakpoint" data-index={m.index.to_string()} data-value={decimals(m.value, 6)} data-bits={bits(m.value)}
                        data-chunk={m.chunk.map(|c| c.to_string()).unwrap_or_default()} tabindex="0" {onclick}>
                        <line class="cut-line" x1={tenths(x_of(c, m.index))} x2={tenths(x_of(c, m.index))}
                            y1={tenths(TOP)} y2={tenths(H - BOTTOM)} />
                        <line class="hit" x1={tenths(x_of(c, m.index))} x2={tenths(x_of(c, m.index))}
                            y1={tenths(TOP)} y2={tenths(H - BOTTOM)} />
                        <circle cx={tenths(x_of(c, m.index))} cy={tenths(y_of(c, m.value))} r="5" />
                        <title>{match m.chunk {
                            Some(k) => format!("breakpoint after sentence {}: {what} {} is above the threshold; chunk {k} ends here (click to see it)", m.index + 1, decimals(m.value, 4)),
                            None => format!("breakpoint after sentence {}: above the threshold, but the chunk was too short to end here", m.index + 1),
                        }}</title>
                    </g>
                }
            })}
        </svg>
    }
}

/// The semantic strategy's controls, curve and cost.
#[function_component]
pub fn SemanticView(props: &SemanticViewProps) -> Html {
    let c = use_memo(props.split.clone(), |split| curve(split));
    let d = &props.dispatch;
    let s = &props.settings;
    let on_kind = d.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        Action::SetBreakpoint(value.parse().unwrap_or_default())
    });
    let on_amount = d.reform(|e: InputEvent| {
        Action::SetAmount(e.target_unchecked_into::<HtmlInputElement>().value())
    });
    let on_buffer = d.reform(|e: InputEvent| {
        Action::SetBuffer(e.target_unchecked_into::<HtmlInputElement>().value())
    });
    let (min, max, step) = slider(s.breakpoint);
    html! {
        <section class="card semantic-card" data-testid="semantic-view" aria-label="Semantic breakpoints">
            <h2>{"Where neighbouring sentences drift apart"}</h2>
            <div class="semantic-controls">
                <div class="field">
                    <label for="breakpoint-select">
                        {"Threshold"}
                        {help("SemanticChunker's breakpoint_threshold_type: how the cut-off is computed from the distances. A distance strictly above it is a breakpoint: the chunk ends after that sentence.")}
                    </label>
                    <select id="breakpoint-select" data-testid="breakpoint-select" onchange={on_kind}>
                        { for Breakpoint::ALL.into_iter().map(|k| html! {
                            <option value={k.name()} selected={s.breakpoint == k}>{format!("{} ({})", k.name(), kind_title(k))}</option>
                        })}
                    </select>
                </div>
                <div class="field slider-field">
                    <label for="threshold-slider">
                        {"Amount"}
                        {help("SemanticChunker's breakpoint_threshold_amount: the percentile (0 to 100), or how many standard deviations or interquartile ranges above the mean. Moving it splits again at once; a lower amount means more breakpoints.")}
                    </label>
                    <input id="threshold-slider" data-testid="threshold-slider" type="range"
                        min={min} max={max} step={step}
                        value={s.amount.clone()} oninput={on_amount.clone()} />
                    <input data-testid="threshold-amount" type="number" aria-label="amount"
                        step={step} value={s.amount.clone()} oninput={on_amount} />
                </div>
                {count_field(
                    "buffer-input",
                    ("Buffer", "SemanticChunker's buffer_size: each sentence is embedded together with this many sentences either side, which smooths the curve."),
                    "0", &s.buffer, on_buffer, None,
                )}
            </div>
            { match c.as_ref() {
                Some(c) => html! {
                    <>
                        {chart(c, &props.on_point)}
                        <p class="note" data-testid="semantic-cost" data-calls={c.calls.to_string()}
                            data-vectors={c.vectors.to_string()} data-dims={c.dims.to_string()}>
                            {format!("{} sentences, {} {}; {} embedding {} for {} vectors of {} dimensions. Embedder: {}. ",
                                c.sentences.len(), c.marks.len(), if c.marks.len() == 1 { "breakpoint" } else { "breakpoints" },
                                c.calls, if c.calls == 1 { "call" } else { "calls" }, c.vectors, c.dims, c.embedder)}
                            if c.embedder.starts_with("static model") {
                                <span data-testid="semantic-embedder" data-kind="model">
                                    {"This is the loaded static model's similarity: each sentence group is the mean of its tokens' fixed vectors (no context)."}
                                </span>
                            } else {
                                <span data-testid="semantic-embedder" data-kind="lexical">
                                    {"This is lexical similarity (shared words, weighted by rarity), not meaning: no model is loaded."}
                                </span>
                            }
                            if c.fallbacks > 0 {
                                {format!(" {} of LangChain's chunks {} over the size and split again by the separators.", c.fallbacks, if c.fallbacks == 1 { "was" } else { "were" })}
                            }
                            if c.threshold.is_none() {
                                {" Too few sentences to compute a threshold: the whole text is one chunk."}
                            }
                            if let Some(ms) = props.split.worker_ms {
                                // Whole milliseconds: the clock the worker reads has no finer grain.
                                <span data-testid="semantic-time" data-ms={(ms.max(0.0).round() as u64).to_string()}>
                                    {format!(" Time: {} ms in the worker, embedding and splitting together.", ms.max(0.0).round() as u64)}
                                </span>
                            }
                        </p>
                    </>
                },
                None => html! {},
            }}
        </section>
    }
}
