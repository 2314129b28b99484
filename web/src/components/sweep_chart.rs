//! The sweep: sizes 128 … 2048 × overlap 0 / 10 / 20 % × the configurations
//! in the table (each with its own strategy, unit and separators), each point
//! evaluated by the worker one at a time (so the bar moves and a cancel
//! stops it between two points), drawn as recall and IoU against size, one
//! line per configuration.

use super::eval_page::{fixed, js_number, now};
use crate::state::eval::{EvalAction, EvalConfig, EvalState, Point, SWEEP_OVERLAPS, SWEEP_SIZES};
use chunkscope_eval::Means;
use std::rc::Rc;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct SweepPanelProps {
    pub state: Rc<EvalState>,
    pub dispatch: Callback<EvalAction>,
}

/// Asks for the sweep's next point whenever the last one is in.
#[hook]
fn use_sweep(state: &EvalState, dispatch: &Callback<EvalAction>) {
    let next = state
        .sweep
        .as_ref()
        .and_then(|s| s.next().map(|p| (s.id, s.results.len(), s.config(p))));
    let (corpus, questions, top_k) = (state.corpus.clone(), state.questions.clone(), state.top_k);
    let dispatch = dispatch.clone();
    use_effect_with(next, move |next| {
        if let Some((sweep, index, config)) = next.clone() {
            let config = match config {
                Ok(config) => config,
                // A configuration that cannot be read fails its points.
                Err(why) => {
                    dispatch.emit(EvalAction::SweepPoint {
                        sweep,
                        index,
                        result: Err(why),
                        now: now(),
                    });
                    return;
                }
            };
            crate::engine::evaluate(&corpus, &questions, &config, top_k, move |answer| {
                dispatch.emit(EvalAction::SweepPoint {
                    sweep,
                    index,
                    result: answer.map(|e| e.mean).map_err(|r| r.message),
                    now: now(),
                })
            });
        }
    });
}

const WIDTH: f64 = 300.0;
const HEIGHT: f64 = 170.0;
const LEFT: f64 = 34.0;
const BOTTOM: f64 = 24.0;
const TOP: f64 = 18.0;
const RIGHT: f64 = 16.0;

/// A coordinate in tenths of a unit, written without Rust's float printing.
fn at(x: f64) -> String {
    fixed(x, 1)
}

fn x_of(size: usize) -> f64 {
    let lo = (SWEEP_SIZES[0] as f64).log2();
    let hi = (SWEEP_SIZES[SWEEP_SIZES.len() - 1] as f64).log2();
    LEFT + ((size as f64).log2() - lo) / (hi - lo) * (WIDTH - LEFT - RIGHT)
}

fn y_of(value: f64, top: f64) -> f64 {
    TOP + (1.0 - (value / top).clamp(0.0, 1.0)) * (HEIGHT - TOP - BOTTOM)
}

/// The top of a panel's axis: the smallest of a few round values that the
/// largest value reaches, so that values under 0.15 do not lie flat on an
/// axis that runs to 1.
fn axis_top(largest: f64) -> f64 {
    [0.05, 0.1, 0.2, 0.25, 0.5, 1.0]
        .into_iter()
        .find(|&top| largest <= top)
        .unwrap_or(1.0)
}

/// A configuration as its line is named: what the sweep keeps of it (its
/// separators only for a strategy that reads them).
fn line_label(c: &EvalConfig) -> String {
    let named = format!("{} in {}", c.strategy.name(), c.unit.name());
    if c.strategy.uses_separators() {
        format!("{named}, {}", super::separators::preset_title(c.separators))
    } else {
        named
    }
}

/// One panel: `metric` against size for every configuration at `overlap` %.
fn panel(
    title: &'static str,
    metric: fn(&Means) -> f64,
    points: &[(Point, Means)],
    lines: &[EvalConfig],
    overlap: usize,
) -> Html {
    let top = axis_top(
        points
            .iter()
            .filter(|(p, _)| p.overlap_pct == overlap)
            .map(|(_, m)| metric(m))
            .fold(0.0, f64::max),
    );
    let lines = lines.iter().enumerate().map(|(i, line)| {
        let strategy = line.strategy;
        let label = line_label(line);
        let mine: Vec<&(Point, Means)> = points
            .iter()
            .filter(|(p, _)| p.line == i && p.overlap_pct == overlap)
            .collect();
        let path: String = mine
            .iter()
            .map(|(p, m)| format!("{},{}", at(x_of(p.size)), at(y_of(metric(m), top))))
            .collect::<Vec<_>>()
            .join(" ");
        // Six colours, then they repeat (each line keeps its label).
        let class = format!("series s{}", i % 6);
        html! {
            <g class={class} data-strategy={strategy.name()} data-line={i.to_string()}>
                <polyline points={path} fill="none" />
                { for mine.iter().map(|(p, m)| html! {
                    <circle data-testid="sweep-point" data-metric={title} data-strategy={strategy.name()}
                        data-line={i.to_string()} data-unit={line.unit.name()}
                        data-size={p.size.to_string()} data-overlap={p.overlap_pct.to_string()}
                        data-value={js_number(metric(m))}
                        cx={at(x_of(p.size))} cy={at(y_of(metric(m), top))} r="3">
                        <title>{format!("{label} size {} overlap {} %: {title} {}", p.size, p.overlap_pct, fixed(metric(m), 3))}</title>
                    </circle>
                })}
            </g>
        }
    });
    html! {
        <g class="sweep-panel" data-testid="sweep-panel" data-metric={title} data-top={js_number(top)}>
            <text x={at(LEFT)} y="12" class="axis-title">{title}</text>
            <text x={at(WIDTH - RIGHT)} y="12" class="tick" text-anchor="end">{"size, in each line's unit (log) →"}</text>
            { for [0.0, top / 2.0, top].into_iter().map(|v| html! {
                <>
                    <line class="grid" x1={at(LEFT)} x2={at(WIDTH - RIGHT)}
                        y1={at(y_of(v, top))} y2={at(y_of(v, top))} />
                    <text class="tick" x={at(LEFT - 4.0)} y={at(y_of(v, top) + 3.0)} text-anchor="end">{js_number(v)}</text>
                </>
            })}
            { for SWEEP_SIZES.into_iter().map(|s| html! {
                <text class="tick" x={at(x_of(s))} y={at(HEIGHT - 8.0)} text-anchor="middle">{s}</text>
            })}
            { for lines }
        </g>
    }
}

/// The sweep's controls, progress and chart.
#[function_component]
pub fn SweepPanel(props: &SweepPanelProps) -> Html {
    use_sweep(&props.state, &props.dispatch);
    let overlap = use_state(|| 0usize);
    let sweep = props.state.sweep.as_ref();
    let running = sweep.is_some_and(|s| s.running());
    let start = props
        .dispatch
        .reform(|_: MouseEvent| EvalAction::StartSweep(now()));
    let cancel = props
        .dispatch
        .reform(|_: MouseEvent| EvalAction::CancelSweep(now()));
    let on_overlap = {
        let overlap = overlap.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            overlap.set(v.parse().unwrap_or(0));
        })
    };
    let total = sweep.map_or(0, |s| s.points.len());
    let done = sweep.map_or(0, |s| s.results.len());
    let points: Vec<(Point, Means)> = sweep.map_or(Vec::new(), |s| {
        s.points
            .iter()
            .zip(&s.results)
            .filter_map(|(p, r)| r.as_ref().ok().map(|m| (*p, *m)))
            .collect()
    });
    let failed = sweep.map_or(0, |s| s.results.iter().filter(|r| r.is_err()).count());
    // The configurations a sweep would take now, or the ones it took.
    let lines: Rc<Vec<EvalConfig>> =
        sweep.map_or_else(|| Rc::new(props.state.configs.clone()), |s| s.lines.clone());
    let status = match sweep {
        None => "idle",
        Some(s) if s.running() => "running",
        Some(s) if s.cancelled => "cancelled",
        Some(_) => "done",
    };
    let elapsed = sweep.and_then(|s| s.ended.map(|e| (e - s.started).round() as u64));
    html! {
        <section class="eval-sweep" aria-label="Sweep">
            <h3>{"Sweep: size × overlap × your configurations"}</h3>
            <p class="hint">
                {format!(
                    "Each configuration in the table above (its strategy, unit and separators) at sizes {}, overlap {} % of the size; the corpus, questions and top-k above. {} evaluations, one at a time in the worker.",
                    SWEEP_SIZES.map(|s| s.to_string()).join(", "),
                    SWEEP_OVERLAPS.map(|s| s.to_string()).join(" / "),
                    SWEEP_SIZES.len() * SWEEP_OVERLAPS.len() * props.state.configs.len(),
                )}
            </p>
            <div class="eval-bar">
                <button type="button" data-testid="sweep-start" onclick={start} disabled={running || props.state.questions.is_empty()}>
                    {if sweep.is_some() { "sweep again" } else { "run the sweep" }}
                </button>
                if running {
                    <button type="button" data-testid="sweep-cancel" onclick={cancel}>{"cancel"}</button>
                }
                if sweep.is_some() {
                    <progress data-testid="sweep-progress" data-done={done.to_string()} data-total={total.to_string()}
                        max={total.to_string()} value={done.to_string()}>{format!("{done} / {total}")}</progress>
                    <span class="sweep-count">{format!("{done} / {total}")}</span>
                }
                if let Some(ms) = elapsed {
                    <span data-testid="sweep-time" data-ms={ms.to_string()}>
                        {format!("{} in {} s", if status == "cancelled" { "stopped" } else { "done" }, fixed(ms as f64 / 1000.0, 1))}
                    </span>
                }
                <label>
                    <span>{"overlap drawn"}</span>
                    <select data-testid="sweep-overlap" onchange={on_overlap}>
                        { for SWEEP_OVERLAPS.into_iter().map(|o| html! {
                            <option value={o.to_string()} selected={*overlap == o}>{format!("{o} %")}</option>
                        })}
                    </select>
                </label>
            </div>
            if failed > 0 {
                <p class="hint">{format!("{} could not be evaluated (the engine refused the configuration).", crate::model::count(failed, "point", "points"))}</p>
            }
            if sweep.is_some() {
                // Two panes, each its own viewBox: the stylesheet places them
                // side by side, or one above the other on a narrow screen.
                <div class="sweep-chart" data-testid="sweep-chart" data-state={status} data-points={points.len().to_string()}
                    role="img" aria-label="Recall and IoU against chunk size, one line per configuration">
                    { for [("recall", (|m: &Means| m.recall) as fn(&Means) -> f64), ("iou", |m: &Means| m.iou)].map(|(title, metric)| html! {
                        <svg class="sweep-pane" viewBox={format!("0 0 {} {}", at(WIDTH), at(HEIGHT))}>
                            {panel(title, metric, &points, &lines, *overlap)}
                        </svg>
                    })}
                </div>
                <p class="sweep-legend">
                    { for lines.iter().enumerate().map(|(i, c)| html! {
                        <span class={format!("key s{}", i % 6)} data-testid="sweep-key">{line_label(c)}</span>
                    })}
                </p>
            }
        </section>
    }
}
