//! Evaluate mode's questions: each with, per configuration, whether and
//! where its answer was retrieved; the selected one drawn over its document
//! with the answer and the focused configuration's retrieved chunks; writing
//! a question for an answer selected in the text; import and export as JSON
//! Lines.

use super::eval_page::{download, fixed, js_number};
use crate::state::eval::{EvalAction, EvalState, Outcome, Source};
use crate::text::Text;
use chunkscope_eval::{Question, QuestionResult};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EvalQuestionsProps {
    pub state: Rc<EvalState>,
    pub dispatch: Callback<EvalAction>,
    /// The configuration whose retrieved chunks are drawn over the text.
    pub focus: u32,
}

/// At most this many chars of a document are drawn around an answer (or
/// from the start, with no question selected).
const WINDOW_CHARS: usize = 3000;

/// The rank (from 1) of the first retrieved chunk holding part of an answer
/// of the question, as the evaluation recorded it.
fn rank_of(result: &QuestionResult, question: &Question, doc: usize) -> Option<usize> {
    result
        .retrieved
        .iter()
        .position(|r| {
            r.doc == doc
                && question
                    .answers
                    .iter()
                    .any(|&(s, e)| r.start < e && s < r.end)
        })
        .map(|i| i + 1)
}

/// One question's row: for each configuration, hit or miss and where.
fn question_row(props: &EvalQuestionsProps, i: usize, q: &Question) -> Html {
    let state = &props.state;
    let doc = state
        .corpus
        .iter()
        .position(|(n, _)| *n == q.doc)
        .unwrap_or(0);
    let selected = state.selected == Some(i);
    let marks = state.configs.iter().map(|c| {
        let result = match state.outcome(c.id) {
            Some(Outcome::Done(e)) => e.questions.get(i).cloned(),
            _ => None,
        };
        match result {
            Some(r) => {
                let rank = rank_of(&r, q, doc);
                let hit = r.scores.recall > 0.0;
                let title = match rank {
                    Some(k) => format!("{}: retrieved as #{k}, recall {}, IoU {}", c.label(), fixed(r.scores.recall, 2), fixed(r.scores.iou, 2)),
                    None => format!("{}: not retrieved in the top {}", c.label(), state.top_k),
                };
                html! {
                    <span data-testid="eval-hit" data-config={c.id.to_string()} data-hit={hit.to_string()}
                        data-rank={rank.map(|k| k.to_string())} data-recall={js_number(r.scores.recall)}
                        class={classes!("eval-hit", if hit { "hit" } else { "miss" })} {title}>
                        {match rank { Some(k) => format!("#{k}"), None => "✗".into() }}
                    </span>
                }
            }
            None => html! { <span class="eval-hit pending" data-config={c.id.to_string()}>{"…"}</span> },
        }
    });
    let dispatch = props.dispatch.clone();
    let answer = q.answers.first().copied().unwrap_or((0, 0));
    html! {
        <li data-testid="eval-question" data-index={i.to_string()} data-doc={q.doc.clone()}
            data-start={answer.0.to_string()} data-end={answer.1.to_string()}
            class={classes!(selected.then_some("selected"))}>
            <button type="button" class="link eval-q" aria-pressed={selected.to_string()}
                onclick={dispatch.reform(move |_: MouseEvent| EvalAction::SelectQuestion(i))}>
                {q.question.clone()}
            </button>
            <span class="eval-marks">{ for marks }</span>
            <button type="button" class="icon" data-testid="eval-question-remove" aria-label="remove this question"
                onclick={dispatch.reform(move |_: MouseEvent| EvalAction::RemoveQuestion(i))}>{"✕"}</button>
        </li>
    }
}

/// `text` from char `from` to char `to`, with the byte offset of each char
/// boundary in that window.
fn window(text: &str, from: usize, to: usize) -> Vec<usize> {
    let mut bytes: Vec<usize> = text
        .char_indices()
        .skip(from)
        .take(to - from)
        .map(|(b, _)| b)
        .collect();
    bytes.push(text.char_indices().nth(to).map_or(text.len(), |(b, _)| b));
    bytes
}

/// The document drawn with the selected question's answers and the focused
/// configuration's retrieved chunks; a selection in it is an answer to
/// write a question for.
fn text_view(props: &EvalQuestionsProps, on_select: Callback<MouseEvent>) -> Html {
    let state = &props.state;
    let question = state
        .selected
        .and_then(|i| state.questions.get(i).map(|q| (i, q)));
    let doc = question
        .and_then(|(_, q)| state.corpus.iter().position(|(n, _)| *n == q.doc))
        .unwrap_or(0);
    let Some((name, text)) = state.corpus.get(doc) else {
        return html! {};
    };
    let answers: Vec<(usize, usize)> = question.map(|(_, q)| q.answers.clone()).unwrap_or_default();
    let retrieved: Vec<(usize, usize, usize)> = match (question, state.outcome(props.focus)) {
        (Some((i, _)), Some(Outcome::Done(e))) => e.questions.get(i).map_or(Vec::new(), |r| {
            r.retrieved
                .iter()
                .enumerate()
                .filter(|(_, h)| h.doc == doc)
                .map(|(k, h)| (k + 1, h.start, h.end))
                .collect()
        }),
        _ => Vec::new(),
    };
    let total = text.chars().count();
    let centre = answers.first().map_or(0, |a| a.0);
    let from = centre.saturating_sub(WINDOW_CHARS / 2).min(total);
    let from = if answers.is_empty() { 0 } else { from };
    let to = (from + WINDOW_CHARS).min(total);
    let bytes = window(text, from, to);
    // Every point where what is drawn changes.
    let mut points: Vec<usize> = vec![from, to];
    for &(s, e) in &answers {
        points.extend([s, e]);
    }
    for &(_, s, e) in &retrieved {
        points.extend([s, e]);
    }
    points.retain(|&p| p >= from && p <= to);
    points.sort_unstable();
    points.dedup();
    let segments = points.windows(2).map(|w| {
        let (s, e) = (w[0], w[1]);
        let answer = answers.iter().any(|&(a, b)| a <= s && e <= b);
        let ranks: Vec<String> = retrieved
            .iter()
            .filter(|&&(_, a, b)| a <= s && e <= b)
            .map(|(k, _, _)| k.to_string())
            .collect();
        let piece = &text[bytes[s - from]..bytes[e - from]];
        html! {
            <span data-start={s.to_string()} data-end={e.to_string()}
                data-answer={answer.then_some("true")}
                data-retrieved={(!ranks.is_empty()).then(|| ranks.join(","))}
                class={classes!(answer.then_some("answer"), (!ranks.is_empty()).then_some("retrieved"))}>
                {piece.to_string()}
            </span>
        }
    });
    let focus_label = state
        .configs
        .iter()
        .find(|c| c.id == props.focus)
        .map(|c| c.label())
        .unwrap_or_default();
    html! {
        <div class="eval-doc">
            <p class="hint">
                {match question {
                    Some(_) => format!("{name}: the answer (underlined) and the chunks {focus_label} retrieved (shaded, numbered by rank)."),
                    None => format!("{name}: select an answer in the text, then write its question below."),
                }}
                if to - from < total {
                    {format!(" Chars {from} to {to} of {total} are drawn.")}
                }
            </p>
            <ol class="eval-retrieved-list">
                { for retrieved.iter().map(|&(k, s, e)| html! {
                    <li data-testid="eval-retrieved" data-config={props.focus.to_string()} data-rank={k.to_string()}
                        data-start={s.to_string()} data-end={e.to_string()}>
                        {format!("#{k}: chars {s}..{e}")}
                    </li>
                })}
            </ol>
            <div class="eval-text" data-testid="eval-text" data-doc={name.clone()} data-from={from.to_string()}
                onmouseup={on_select}>
                { for segments }
            </div>
        </div>
    }
}

/// The char offset of a point of the DOM selection inside `eval-text`: its
/// segment's `data-start` plus the chars before it in the segment.
fn char_offset(node: Option<web_sys::Node>, utf16: u32) -> Option<usize> {
    let node = node?;
    let element = match node.dyn_ref::<web_sys::Element>() {
        Some(e) => e.clone(),
        None => node.parent_element()?,
    };
    let segment = element.closest("[data-start]").ok()??;
    segment.closest("[data-testid=eval-text]").ok()??;
    let start: usize = segment.get_attribute("data-start")?.parse().ok()?;
    if node.dyn_ref::<web_sys::Element>().is_some() {
        return Some(start);
    }
    let text = node.text_content()?;
    let mut units = 0u32;
    let mut chars = 0usize;
    for c in text.chars() {
        if units >= utf16 {
            break;
        }
        units += c.len_utf16() as u32;
        chars += 1;
    }
    Some(start + chars)
}

/// The questions panel.
#[function_component]
pub fn EvalQuestions(props: &EvalQuestionsProps) -> Html {
    let draft = use_state(|| None::<(String, usize, usize)>);
    let typed = use_state(String::new);
    let state = &props.state;
    let on_select = {
        let draft = draft.clone();
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(selection) = web_sys::window().and_then(|w| w.get_selection().ok().flatten())
            else {
                return;
            };
            let a = char_offset(selection.anchor_node(), selection.anchor_offset());
            let b = char_offset(selection.focus_node(), selection.focus_offset());
            if let (Some(a), Some(b)) = (a, b) {
                if a != b {
                    let doc = state
                        .selected
                        .and_then(|i| state.questions.get(i))
                        .map(|q| q.doc.clone())
                        .or_else(|| state.corpus.first().map(|(n, _)| n.clone()))
                        .unwrap_or_default();
                    draft.set(Some((doc, a.min(b), a.max(b))));
                }
            }
        })
    };
    let on_type = {
        let typed = typed.clone();
        Callback::from(move |e: InputEvent| {
            typed.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let add = {
        let (draft, typed, dispatch) = (draft.clone(), typed.clone(), props.dispatch.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            if let Some((doc, s, end)) = (*draft).clone() {
                if !typed.trim().is_empty() {
                    dispatch.emit(EvalAction::AddQuestion(Question {
                        question: typed.trim().to_string(),
                        doc,
                        answers: vec![(s, end)],
                    }));
                    typed.set(String::new());
                    draft.set(None);
                }
            }
        })
    };
    let import = {
        let (dispatch, corpus) = (props.dispatch.clone(), state.corpus.clone());
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            input.set_value("");
            import_file(file, corpus.clone(), dispatch.clone());
        })
    };
    let export = {
        let state = state.clone();
        Callback::from(move |_: MouseEvent| {
            download(
                "questions.jsonl",
                "application/jsonl",
                &state.questions_jsonl(),
            );
        })
    };
    let source = match &state.source {
        Source::Shipped(name) => format!("the questions shipped for {name}"),
        Source::File(name) => format!("imported from {name}"),
        Source::Edited => "edited here".into(),
    };
    let draft_view = (*draft).clone().map(|(doc, s, e)| {
        let text = state
            .corpus
            .iter()
            .find(|(n, _)| *n == doc)
            .map(|(_, t)| t.chars().skip(s).take(e - s).collect::<String>())
            .unwrap_or_default();
        html! {
            <p class="eval-draft" data-testid="eval-draft" data-doc={doc.clone()} data-start={s.to_string()} data-end={e.to_string()}>
                {format!("Answer: {doc}, chars {s}..{e}: “{text}”")}
            </p>
        }
    });
    html! {
        <section class="eval-questions" aria-label="Questions">
            <h3>{format!("Questions ({}, {source})", state.questions.len())}</h3>
            <div class="eval-bar">
                <label class="file">
                    <span>{"Import questions (JSON Lines)"}</span>
                    <input type="file" data-testid="eval-import" accept=".jsonl,.json,.txt" onchange={import} />
                </label>
                <button type="button" data-testid="eval-export-questions" onclick={export}
                    disabled={state.questions.is_empty()}>{"export questions"}</button>
            </div>
            if let Some(why) = &state.import_error {
                <p class="file-error" data-testid="eval-import-error" role="alert">{format!("That file was not imported: {why}. The questions before it are kept.")}</p>
            }
            <ol class="eval-question-list">
                { for state.questions.iter().enumerate().map(|(i, q)| question_row(props, i, q)) }
            </ol>
            {text_view(props, on_select)}
            <form class="eval-author" onsubmit={add}>
                {draft_view.unwrap_or_else(|| html! { <p class="hint">{"Select the answer in the text above to write a question for it."}</p> })}
                <input type="text" data-testid="eval-new-question" placeholder="The question a user would ask"
                    value={(*typed).clone()} oninput={on_type} aria-label="new question" />
                <button type="submit" data-testid="eval-add-question" disabled={draft.is_none()}>{"add question"}</button>
            </form>
        </section>
    }
}

/// Reads a questions file and has the worker check it against the corpus.
fn import_file(
    file: web_sys::File,
    corpus: Rc<Vec<(String, Text)>>,
    dispatch: Callback<EvalAction>,
) {
    let name = file.name();
    wasm_bindgen_futures::spawn_local(async move {
        let Ok(js) = wasm_bindgen_futures::JsFuture::from(file.text()).await else {
            dispatch.emit(EvalAction::ImportFailed(format!(
                "{name} could not be read"
            )));
            return;
        };
        let jsonl = js.as_string().unwrap_or_default();
        crate::engine::read_questions(&corpus, &jsonl, move |answer| {
            dispatch.emit(match answer {
                Ok(questions) => EvalAction::QuestionsRead {
                    questions,
                    source: Source::File(name),
                },
                Err(refusal) => EvalAction::ImportFailed(format!("{name}: {}", refusal.message)),
            })
        });
    });
}
