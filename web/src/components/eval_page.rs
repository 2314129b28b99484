//! Evaluate mode: which configuration retrieves best on a corpus, measured.
//! Every number on it is the eval crate's, computed in the worker; the page
//! only lays them out and says which is best.

use super::eval_questions::EvalQuestions;
use super::sweep_chart::SweepPanel;
use crate::model::count;
use crate::state::eval::{
    reduce, strategies, ConfigEdit, EvalAction, EvalConfig, EvalState, Outcome, Source, SETS,
};
use chunkscope::tokens::Encoding;
use chunkscope::{presets, Strategy, Unit};
use chunkscope_eval::compare::SignTest;
use chunkscope_eval::Evaluation;
use std::rc::Rc;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

impl Reducible for EvalState {
    type Action = EvalAction;
    fn reduce(self: Rc<Self>, action: EvalAction) -> Rc<Self> {
        Rc::new(reduce(&self, action))
    }
}

/// The page's clock, in milliseconds.
pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// A metric of the table: its hook name, heading, how to read it from an
/// evaluation, and whether more is better.
pub struct Metric {
    /// `data-metric`.
    pub name: &'static str,
    /// The column heading.
    pub title: &'static str,
    /// The value.
    pub value: fn(&Evaluation) -> f64,
    /// More is better (else less is).
    pub more_is_better: bool,
    /// A cost of the index (fewer is cheaper), marked best only among the
    /// configurations whose chunks keep within their size: a strategy with
    /// no size limit makes few chunks by making them huge.
    pub cost: bool,
}

/// The table's columns, in order.
pub const METRICS: [Metric; 7] = [
    Metric {
        name: "recall",
        title: "recall",
        value: |e| e.mean.recall,
        more_is_better: true,
        cost: false,
    },
    Metric {
        name: "precision",
        title: "precision",
        value: |e| e.mean.precision,
        more_is_better: true,
        cost: false,
    },
    Metric {
        name: "iou",
        title: "IoU",
        value: |e| e.mean.iou,
        more_is_better: true,
        cost: false,
    },
    Metric {
        name: "whole",
        title: "whole",
        value: |e| e.mean.whole,
        more_is_better: true,
        cost: false,
    },
    Metric {
        name: "fragments",
        title: "fragments",
        value: |e| e.mean.fragments,
        more_is_better: false,
        cost: false,
    },
    Metric {
        name: "chunks",
        title: "chunks",
        value: |e| e.index.chunks as f64,
        more_is_better: false,
        cost: true,
    },
    Metric {
        name: "units",
        title: "units embedded",
        value: |e| e.index.units as f64,
        more_is_better: false,
        cost: true,
    },
];

/// Whether configuration `id`'s chunks all keep within its size (a cost
/// metric's best is looked for among these only).
fn keeps_size(state: &EvalState, id: u32, e: &Evaluation) -> bool {
    state
        .configs
        .iter()
        .find(|c| c.id == id)
        .and_then(|c| c.size.trim().parse::<usize>().ok())
        .is_some_and(|size| e.index.longest <= size)
}

/// Whether configuration `id`'s evaluation competes for `metric`'s best.
fn competes(state: &EvalState, metric: &Metric, id: u32, e: &Evaluation) -> bool {
    !metric.cost || keeps_size(state, id, e)
}

/// The best value of `metric` among the evaluations done that compete for
/// it (none while fewer than two are done).
fn best(state: &EvalState, metric: &Metric) -> Option<f64> {
    let done = || {
        state.outcomes.iter().filter_map(|(id, o)| match o {
            Outcome::Done(e) => Some((*id, e)),
            _ => None,
        })
    };
    if done().count() < 2 {
        return None;
    }
    done()
        .filter(|&(id, e)| competes(state, metric, id, e))
        .map(|(_, e)| (metric.value)(e))
        .reduce(|a, b| {
            if metric.more_is_better == (b > a) {
                b
            } else {
                a
            }
        })
}

/// The decision the table supports: the configuration with the best recall
/// against the runner-up, question by question, and whether the difference
/// is more than the few questions can tell apart from chance (the exact sign
/// test of `chunkscope_eval::compare`).
fn verdict(state: &EvalState) -> Html {
    let mut done: Vec<(&EvalConfig, &Evaluation)> = state
        .configs
        .iter()
        .filter_map(|c| match state.outcome(c.id) {
            Some(Outcome::Done(e)) => Some((c, &**e)),
            _ => None,
        })
        .collect();
    if done.len() < 2 {
        return html! {};
    }
    // Best recall first; among equals, the row above.
    done.sort_by(|a, b| b.1.mean.recall.total_cmp(&a.1.mean.recall));
    let ((best, e), (next, f)) = (done[0], done[1]);
    let recalls = |e: &Evaluation| {
        e.questions
            .iter()
            .map(|q| q.scores.recall)
            .collect::<Vec<_>>()
    };
    let test = SignTest::of(&recalls(e), &recalls(f));
    let p = test.p_value();
    let n = e.questions.len();
    let reading = if test.better + test.worse == 0 {
        "they retrieve alike on every question: nothing to choose between them on recall"
            .to_string()
    } else if p < 0.05 {
        format!("a split this uneven would come by chance less than 1 time in 20 (p = {}): the difference is unlikely to be noise", fixed(p, 3))
    } else {
        format!("a split this uneven comes by chance {} % of the time (p = {}): with {} this may be noise; add questions before deciding", fixed(p * 100.0, 0), fixed(p, 3), count(n, "question", "questions"))
    };
    html! {
        <p class="eval-verdict" data-testid="eval-verdict" role="status"
            data-best={best.id.to_string()} data-next={next.id.to_string()}
            data-better={test.better.to_string()} data-worse={test.worse.to_string()}
            data-equal={test.equal.to_string()} data-p={js_number(p)}>
            <strong>{"Best recall: "}</strong>
            <code>{best.label()}</code>{format!(" ({}). ", fixed(e.mean.recall, 3))}
            {"Against the next, "}<code>{next.label()}</code>{format!(" ({}): ", fixed(f.mean.recall, 3))}
            {format!("more of the answer on {}, less on {}, the same on {}; {reading}.",
                count(test.better, "question", "questions"), test.worse, test.equal)}
        </p>
    }
}

fn shown(metric: &Metric, value: f64) -> String {
    match metric.name {
        "chunks" | "units" => fixed(value, 0),
        "fragments" => fixed(value, 2),
        _ => fixed(value, 3),
    }
}

/// `x` rounded to `decimals` places, from integers: Rust's float printing
/// would add its machinery to the page's wasm (see `model::tenths`).
pub fn fixed(x: f64, decimals: u32) -> String {
    let scale = 10u64.pow(decimals);
    let t = (x * scale as f64).round();
    let sign = if t < 0.0 { "-" } else { "" };
    let t = t.abs() as u64;
    if decimals == 0 {
        return format!("{sign}{t}");
    }
    let width = decimals as usize;
    format!("{sign}{}.{:0width$}", t / scale, t % scale)
}

/// `x` in full, as JavaScript writes a number (the shortest digits that read
/// back as `x`), without Rust's float printing.
pub fn js_number(x: f64) -> String {
    js_sys::Number::from(x)
        .to_string_with_radix(10)
        .map(String::from)
        .unwrap_or_default()
}

/// The metrics of every configuration as CSV, one row per configuration.
pub fn metrics_csv(state: &EvalState) -> String {
    let mut out = String::from(
        "strategy,size,overlap,unit,separators,top_k,recall,precision,iou,whole,fragments,chunks,units_embedded,error\n",
    );
    for c in &state.configs {
        let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
        // A size or overlap as typed: a number stays a number, anything else
        // (the row then holds its error) is quoted text.
        let typed = |s: &str| match s.trim() {
            t if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => t.to_string(),
            t => quote(t),
        };
        let head = format!(
            "{},{},{},{},{},{}",
            c.strategy.name(),
            typed(&c.size),
            typed(&c.overlap),
            c.unit.name(),
            c.separators,
            state.top_k
        );
        let tail = match state.outcome(c.id) {
            Some(Outcome::Done(e)) => format!(
                "{},{},{},{},{},{},{},",
                js_number(e.mean.recall),
                js_number(e.mean.precision),
                js_number(e.mean.iou),
                js_number(e.mean.whole),
                js_number(e.mean.fragments),
                e.index.chunks,
                e.index.units
            ),
            Some(Outcome::Failed(why)) => format!(",,,,,,,{}", quote(why)),
            _ => ",,,,,,,".into(),
        };
        out.push_str(&format!("{head},{tail}\n"));
    }
    out
}

/// Offers `text` as a file download named `name` (the page's one download
/// helper, in `code_view.rs`).
pub fn download(name: &str, mime: &str, text: &str) -> Option<()> {
    super::code_view::download_as(name, mime, &text.into())
}

/// Reads every file chosen as a document of the corpus (each named by its
/// file name), then evaluates on them. A file that is not text is left out
/// and said.
fn open_corpus(files: web_sys::FileList, dispatch: Callback<EvalAction>) {
    let files: Vec<web_sys::File> = (0..files.length()).filter_map(|i| files.get(i)).collect();
    wasm_bindgen_futures::spawn_local(async move {
        let mut docs = Vec::new();
        let mut refused = Vec::new();
        for file in files {
            let name = file.name();
            match wasm_bindgen_futures::JsFuture::from(file.text()).await {
                Ok(js) => {
                    let text = js.as_string().unwrap_or_default();
                    if text.contains('\0') {
                        refused.push(name);
                    } else {
                        docs.push((name, crate::text::Text::from(text)));
                    }
                }
                Err(_) => refused.push(name),
            }
        }
        if !docs.is_empty() {
            dispatch.emit(EvalAction::SetCorpus(docs));
        }
        if !refused.is_empty() {
            dispatch.emit(EvalAction::ImportFailed(format!(
                "not text, so left out of the corpus: {}",
                refused.join(", ")
            )));
        }
    });
}

/// Asks the worker for every evaluation of this round, and for the shipped
/// set's questions when a set is chosen.
#[hook]
fn use_evaluations(state: &UseReducerHandle<EvalState>, model: Option<u32>) {
    {
        let dispatch = state.dispatcher();
        let (set, corpus, empty) = (
            state.set,
            state.corpus.clone(),
            state.questions.is_empty()
                && state.source == state.set.map_or(Source::Edited, Source::Shipped),
        );
        use_effect_with(set, move |set| {
            if let (Some(name), true) = (set, empty) {
                if let Some((_, _, jsonl)) = crate::state::eval::set(name) {
                    let name = *name;
                    crate::engine::read_questions(&corpus, jsonl, move |answer| {
                        dispatch.dispatch(match answer {
                            Ok(questions) => EvalAction::QuestionsRead {
                                questions,
                                source: Source::Shipped(name),
                            },
                            Err(refusal) => EvalAction::ImportFailed(refusal.message),
                        })
                    });
                }
            }
        });
    }
    let dispatch = state.dispatcher();
    let requests = state.requests();
    let (round, corpus, questions, top_k) = (
        state.round,
        state.corpus.clone(),
        state.questions.clone(),
        state.top_k,
    );
    let by_model = state.by_model;
    use_effect_with(round, move |_| {
        // Results by the model need the model: without one, nothing is asked.
        if by_model && model.is_none() {
            return;
        }
        // A token unit's tables are installed in this module's worker first
        // (fetched once, when a configuration first counts in them); a
        // configuration whose tables cannot be had fails with why.
        wasm_bindgen_futures::spawn_local(async move {
            let mut missing: Vec<(Encoding, Result<(), String>)> = Vec::new();
            for (_, config) in &requests {
                if let Unit::Tokens(encoding) = config.unit {
                    if chunkscope_wasm::loaded::tokenizer_of(encoding).is_none()
                        && !missing.iter().any(|m| m.0 == encoding)
                    {
                        let got = super::tokenizer::install(encoding).await.map(drop);
                        missing.push((encoding, got));
                    }
                }
            }
            for (id, config) in requests {
                let failed = missing.iter().find_map(|(encoding, got)| match got {
                    Err(why) if config.unit == Unit::Tokens(*encoding) => Some(why.clone()),
                    _ => None,
                });
                let dispatch = dispatch.clone();
                if let Some(why) = failed {
                    dispatch.dispatch(EvalAction::Evaluated {
                        round,
                        config: id,
                        result: Err(format!(
                            "the {} tables could not be loaded: {why}",
                            config.unit
                        )),
                    });
                    continue;
                }
                crate::engine::evaluate_by(
                    &corpus,
                    &questions,
                    &config,
                    top_k,
                    model,
                    move |answer| {
                        dispatch.dispatch(EvalAction::Evaluated {
                            round,
                            config: id,
                            result: answer.map_err(|r| r.message),
                        })
                    },
                );
            }
        });
    });
}

/// One configuration's controls.
fn config_controls(c: &EvalConfig, dispatch: &Callback<EvalAction>) -> Html {
    let id = c.id;
    let select = |f: fn(&str) -> Option<ConfigEdit>| {
        dispatch.reform(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            f(&value).map_or(EvalAction::SetTopK(0), |edit| {
                EvalAction::EditConfig(id, edit)
            })
        })
    };
    let input = |f: fn(String) -> ConfigEdit| {
        dispatch.reform(move |e: Event| {
            EvalAction::EditConfig(id, f(e.target_unchecked_into::<HtmlInputElement>().value()))
        })
    };
    // Typing is kept as typed (so a redraw never undoes it) and evaluated
    // once the field is left.
    let typing = |f: fn(String) -> ConfigEdit| {
        dispatch.reform(move |e: InputEvent| {
            EvalAction::TypeConfig(id, f(e.target_unchecked_into::<HtmlInputElement>().value()))
        })
    };
    // Each control has its word above it: a row of bare fields reads as
    // numbers without a meaning.
    html! {
        <div class="eval-config">
            <label class="eval-field eval-field-strategy">
                <span>{"strategy"}</span>
                <select data-testid="eval-strategy"
                    onchange={select(|v| v.parse::<Strategy>().ok().map(ConfigEdit::Strategy))}>
                    { for strategies().map(|s| html! {
                        <option value={s.name()} selected={s == c.strategy}>{crate::state::View::title_of(s)}</option>
                    })}
                </select>
            </label>
            <label class="eval-field">
                <span>{"size"}</span>
                <input data-testid="eval-size" type="number" min="1"
                    value={c.size.clone()} oninput={typing(ConfigEdit::Size)} onchange={input(ConfigEdit::Size)} />
            </label>
            <label class="eval-field">
                <span>{"overlap"}</span>
                <input data-testid="eval-overlap" type="number" min="0"
                    value={c.overlap.clone()} oninput={typing(ConfigEdit::Overlap)} onchange={input(ConfigEdit::Overlap)} />
            </label>
            <label class="eval-field">
                <span>{"unit"}</span>
                <select data-testid="eval-unit"
                    onchange={select(|v| v.parse::<Unit>().ok().map(ConfigEdit::Unit))}>
                    { for Unit::ALL.into_iter().map(|u| html! {
                        <option value={u.name()} selected={u == c.unit}>{u.name()}</option>
                    })}
                </select>
            </label>
            <label class="eval-field">
                <span>{"separators"}</span>
                <select data-testid="eval-separators"
                    disabled={!c.strategy.uses_separators()}
                    onchange={select(|v| presets::SEPARATOR_PRESETS.into_iter().find(|p| *p == v).map(ConfigEdit::Separators))}>
                    { for presets::SEPARATOR_PRESETS.into_iter().map(|p| html! {
                        <option value={p} selected={p == c.separators}>{super::separators::preset_title(p)}</option>
                    })}
                </select>
            </label>
        </div>
    }
}

/// The table of configurations.
fn table(
    state: &EvalState,
    dispatch: &Callback<EvalAction>,
    focus: u32,
    on_focus: &Callback<u32>,
) -> Html {
    let bests: Vec<Option<f64>> = METRICS.iter().map(|m| best(state, m)).collect();
    html! {
        <div class="eval-scroll">
        <table class="eval-table" data-testid="eval-table">
            <thead>
                <tr>
                    <th scope="col">{"configuration"}</th>
                    { for METRICS.iter().map(|m| html! { <th scope="col">{m.title}</th> }) }
                    <th scope="col"><span class="sr-only">{"remove"}</span></th>
                </tr>
            </thead>
            <tbody>
            { for state.configs.iter().map(|c| {
                let outcome = state.outcome(c.id).cloned().unwrap_or(Outcome::Waiting);
                let state_name = match &outcome {
                    Outcome::Waiting => "waiting",
                    Outcome::Done(_) => "done",
                    Outcome::Failed(_) => "failed",
                };
                let id = c.id;
                let cells = match &outcome {
                    Outcome::Done(e) => METRICS.iter().zip(&bests).map(|(m, best)| {
                        let v = (m.value)(e);
                        let is_best = *best == Some(v) && competes(state, m, id, e);
                        html! {
                            <td data-metric={m.name} data-value={js_number(v)}
                                data-best={is_best.then_some("true")}
                                class={classes!("num", is_best.then_some("best"))}>
                                {shown(m, v)}
                            </td>
                        }
                    }).collect::<Html>(),
                    // One cell per metric while waiting too, so the page
                    // below does not move under the pointer.
                    Outcome::Waiting => METRICS.iter().map(|m| html! {
                        <td class="num pending" aria-label={format!("{}: evaluating", m.title)}>{"…"}</td>
                    }).collect::<Html>(),
                    Outcome::Failed(why) => html! {
                        <td class="eval-error" data-testid="eval-row-error" colspan={METRICS.len().to_string()} role="alert">{why.clone()}</td>
                    },
                };
                html! {
                    <tr data-testid="eval-row" data-config={id.to_string()} data-state={state_name}
                        class={classes!((focus == id).then_some("focus"))}>
                        <td>
                            {config_controls(c, dispatch)}
                            <button type="button" class="link" data-testid="eval-focus"
                                aria-pressed={(focus == id).to_string()}
                                onclick={on_focus.reform(move |_: MouseEvent| id)}>{"show over the text"}</button>
                        </td>
                        {cells}
                        <td>
                            <button type="button" class="icon" data-testid="eval-remove" aria-label="remove this configuration"
                                onclick={dispatch.reform(move |_: MouseEvent| EvalAction::RemoveConfig(id))}>{"✕"}</button>
                        </td>
                    </tr>
                }
            })}
            </tbody>
        </table>
        </div>
    }
}

/// The retriever's parameters, as the evaluations report them.
fn retriever(state: &EvalState) -> Html {
    let params = state.outcomes.iter().find_map(|(_, o)| match o {
        Outcome::Done(e) => Some(e.retriever),
        _ => None,
    });
    match params {
        Some(p) => html! {
            <p class="eval-bm25" data-testid="eval-bm25" data-k1={js_number(p.k1)} data-b={js_number(p.b)}>
                {format!("Retrieval: BM25 (lexical, no model), k1 = {}, b = {}; terms are lowercased runs of letters and digits, no stemming.", js_number(p.k1), js_number(p.b))}
            </p>
        },
        None => html! {},
    }
}

#[derive(Properties, PartialEq)]
pub struct EvalPageProps {
    /// The static model evaluate mode's worker holds, if any (loaded by
    /// the loader shown here: the modes module has its own worker).
    #[prop_or_default]
    pub model: crate::state::model_file::ModelState,
    /// Where the loader reports loading and dropping the model.
    pub app_dispatch: Callback<crate::state::Action>,
}

/// How chunks are retrieved: by BM25, or by the loaded static model.
fn retriever_select(
    state: &EvalState,
    model: &crate::state::model_file::ModelState,
    dispatch: &Callback<EvalAction>,
) -> Html {
    let on_change = dispatch.reform(|e: Event| {
        EvalAction::SetByModel(e.target_unchecked_into::<HtmlSelectElement>().value() == "model")
    });
    let model_label = match &model.loaded {
        Some(m) => format!("static model {} (cosine)", m.name),
        None => "static model (load one below)".to_string(),
    };
    html! {
        <label>
            <span>{"retrieval"}</span>
            <select data-testid="eval-retriever" onchange={on_change}>
                <option value="bm25" selected={!state.by_model}>{"BM25 (lexical)"}</option>
                <option value="model" selected={state.by_model}>{model_label}</option>
            </select>
        </label>
    }
}

/// What retrieves, said under the table: the model's name, or that the
/// results need a model (a shared link never carries one).
fn model_retrieval(state: &EvalState, model: &crate::state::model_file::ModelState) -> Html {
    if !state.by_model {
        return html! {};
    }
    match &model.loaded {
        Some(m) => html! {
            <p class="eval-bm25" data-testid="eval-model-retrieval" data-model={m.name.clone()}>
                {format!("Retrieval: static model {} ({}, {} dimensions): each chunk and each question is the mean of its tokens' vectors; chunks are ranked by cosine similarity with the question.", m.name, m.format, m.dims)}
            </p>
        },
        None => html! {
            <p class="problem" data-testid="eval-needs-model" role="status">
                {"These results need the model: retrieval by a static model was chosen (or came with a link), and models are never put in links. Load the model's files above to evaluate, or choose BM25."}
            </p>
        },
    }
}

/// Evaluate mode.
#[function_component]
pub fn EvalPage(props: &EvalPageProps) -> Html {
    let state = use_reducer(crate::eval_share::start);
    let generation = props.model.loaded.as_ref().map(|m| m.generation);
    {
        // Another model (or none) means other results by the model.
        let dispatch = state.dispatcher();
        use_effect_with(generation, move |_| {
            dispatch.dispatch(EvalAction::ModelChanged)
        });
    }
    use_evaluations(&state, generation);
    let dispatch = {
        let d = state.dispatcher();
        use_callback((), move |a: EvalAction, _| d.dispatch(a))
    };
    let focus = use_state(|| None::<u32>);
    let focused = (*focus)
        .filter(|id| state.configs.iter().any(|c| c.id == *id))
        .or_else(|| state.configs.first().map(|c| c.id))
        .unwrap_or(0);
    let on_focus = {
        let focus = focus.clone();
        Callback::from(move |id: u32| focus.set(Some(id)))
    };
    let on_set = dispatch.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        SETS.iter()
            .find(|s| s.0 == value)
            .map_or(EvalAction::SetTopK(0), |s| EvalAction::ChooseSet(s.0))
    });
    let on_top_k = dispatch.reform(|e: Event| {
        let value = e.target_unchecked_into::<HtmlSelectElement>().value();
        EvalAction::SetTopK(value.parse().unwrap_or(0))
    });
    let on_files = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            if let Some(files) = input.files() {
                open_corpus(files, dispatch.clone());
            }
        })
    };
    let csv = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            download("chunkscope-metrics.csv", "text/csv", &metrics_csv(&state));
        })
    };
    let said = use_state(|| None::<String>);
    let share = {
        let (state, said) = (state.clone(), said.clone());
        Callback::from(move |_: MouseEvent| said.set(Some(crate::eval_share::share(&state))))
    };
    let docs = state.corpus.len();
    html! {
        <section class="card eval-page" data-testid="eval-page" aria-label="Evaluate configurations">
            <div class="card-head">
                <h2>{"Which configuration retrieves best?"}</h2>
            </div>
            <p class="hint">
                {"Each configuration splits the corpus; for every question the top-k chunks are retrieved and scored by characters against the answer excerpts (recall, precision and IoU as Chroma's chunking report defines them). "}
                {"“whole” is the share of answers inside one chunk, “fragments” how many chunks an answer is cut into; chunks and units embedded are what the index costs (overlap counted each time it is repeated)."}
            </p>
            <div class="eval-bar">
                <label>
                    <span>{"Corpus and questions"}</span>
                    <select data-testid="eval-set" onchange={on_set}>
                        { for SETS.iter().map(|s| html! {
                            <option value={s.0} selected={state.set == Some(s.0)}>{format!("{} (shipped questions)", s.1)}</option>
                        })}
                        if state.set.is_none() {
                            <option value="own" selected=true disabled=true>{format!("your corpus: {}", crate::model::count(docs, "document", "documents"))}</option>
                        }
                    </select>
                </label>
                <label class="file">
                    <span>{"or open your corpus (many files)"}</span>
                    <input type="file" multiple=true data-testid="eval-files" onchange={on_files} />
                </label>
                <label>
                    <span>{"top-k"}</span>
                    <select data-testid="eval-top-k" onchange={on_top_k}>
                        { for (1..=10).map(|k: usize| html! {
                            <option value={k.to_string()} selected={state.top_k == k}>{k}</option>
                        })}
                    </select>
                </label>
                {retriever_select(&state, &props.model, &dispatch)}
                <button type="button" data-testid="eval-add-config" onclick={dispatch.reform(|_: MouseEvent| EvalAction::AddConfig)}>{"+ configuration"}</button>
                <button type="button" data-testid="eval-export-csv" onclick={csv}>{"metrics as CSV"}</button>
                <button type="button" data-testid="eval-share" onclick={share}>{"share this evaluation"}</button>
            </div>
            if let Some(message) = &*said {
                <p class="muted" data-testid="eval-share-note" role="status">{message.clone()}</p>
            }
            if state.by_model {
                <super::model_file::ModelFile model={props.model.clone()} dispatch={props.app_dispatch.clone()} />
            }
            <details class="eval-corpus">
                <summary>{format!("Corpus: {}, {}; each is split alone, so no chunk spans two", crate::model::count(docs, "document", "documents"), crate::model::count(state.corpus.iter().map(|(_, t)| t.chars().count()).sum::<usize>(), "char", "chars"))}</summary>
                <ul>
                    { for state.corpus.iter().take(200).map(|(name, text)| html! {
                        <li data-testid="eval-doc" data-name={name.clone()} data-chars={text.chars().count().to_string()}>
                            {format!("{name}: {}", crate::model::count(text.chars().count(), "char", "chars"))}
                        </li>
                    })}
                </ul>
            </details>
            if state.by_model {
                {model_retrieval(&state, &props.model)}
            } else {
                {retriever(&state)}
            }
            {table(&state, &dispatch, focused, &on_focus)}
            {verdict(&state)}
            <EvalQuestions state={Rc::new((*state).clone())} dispatch={dispatch.clone()} focus={focused} />
            <SweepPanel state={Rc::new((*state).clone())} dispatch={dispatch.clone()} />
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::fixed;

    #[test]
    fn fixed_rounds_to_the_places_asked() {
        assert_eq!(fixed(0.8197367995602549, 3), "0.820");
        assert_eq!(fixed(1.2307692307692308, 2), "1.23");
        assert_eq!(fixed(0.05, 3), "0.050");
        assert_eq!(fixed(10083.0, 0), "10083");
        assert_eq!(fixed(-0.25, 1), "-0.3");
        assert_eq!(fixed(1.0, 3), "1.000");
    }
}
