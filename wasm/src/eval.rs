//! The worker's evaluation messages: which configuration retrieves best,
//! measured by `chunkscope-eval` off the page's main thread.
//!
//! ```text
//! caller → { id, questions: "…JSONL…", docs: [{ name, text }] }   read a questions file
//! worker → { id, parsed: [{ question, doc, answers: [{ start, end }] }] }
//!        | { id, error: { message: "line 3: …", field: "questions" } }
//! caller → { id, evaluate: { docs: [{ name, text }], questions: [{ question, doc, answers }],
//!                            config, top_k, retriever? } }
//! worker → { id, evaluation: { mean: { recall, precision, iou, whole, fragments },
//!                              index: { chunks, units, longest }, top_k, retriever: { k1, b }, model?,
//!                              questions: [{ question, doc, recall, precision, iou, whole,
//!                                            fragments, retrieved: [{ doc, chunk, start, end, score }] }] } }
//!        | { id, error: { message, field, separator } }
//! ```
//!
//! `retriever` is absent for BM25, or `"model:N"` to retrieve with the
//! static model the worker loaded (see [`crate::loaded`]): chunks ranked by
//! the cosine of their vector with the question's; the evaluation then
//! names the model in `model`.
//!
//! Offsets are char offsets, as in the questions file and the reports. An
//! evaluation is of one configuration: a caller comparing many (a table, a
//! sweep) asks once per configuration, so it can show progress and stop
//! between two of them. Every number is the eval crate's; the caller only
//! reads them back ([`read_evaluation`]), with the same functions on both
//! sides.

use crate::message::config_object;
use chunkscope::Config;
use chunkscope_eval::{
    Bm25, Evaluation, IndexCost, Means, Question, QuestionResult, Retrieved, Scores,
};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn set(target: &Object, key: &str, value: &JsValue) {
    // Setting a property of a plain object made here cannot fail.
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

fn count(value: usize) -> JsValue {
    JsValue::from_f64(value as f64)
}

/// The documents of a corpus: `[{ name, text }]`, each text a JS string the
/// caller already holds.
fn docs_array(docs: &[(String, JsValue)]) -> Array {
    let list = Array::new();
    for (name, text) in docs {
        let doc = Object::new();
        set(&doc, "name", &name.as_str().into());
        set(&doc, "text", text);
        list.push(&doc);
    }
    list
}

/// A question as its JSONL line has it.
pub fn question_object(q: &Question) -> Object {
    let object = Object::new();
    set(&object, "question", &q.question.as_str().into());
    set(&object, "doc", &q.doc.as_str().into());
    let answers = Array::new();
    for &(start, end) in &q.answers {
        let a = Object::new();
        set(&a, "start", &count(start));
        set(&a, "end", &count(end));
        answers.push(&a);
    }
    set(&object, "answers", &answers);
    object
}

/// The questions as the worker's `parsed` answer lists them.
pub fn questions_array(questions: &[Question]) -> Array {
    questions.iter().map(question_object).collect()
}

/// A request to read a questions file against the documents it is about.
pub fn questions_request(id: &JsValue, docs: &[(String, JsValue)], jsonl: &str) -> Object {
    let request = Object::new();
    set(&request, "id", id);
    set(&request, "questions", &jsonl.into());
    set(&request, "docs", &docs_array(docs));
    request
}

/// A request to evaluate one configuration on the documents with the questions.
pub fn eval_request(
    id: &JsValue,
    docs: &[(String, JsValue)],
    questions: &[Question],
    config: &Config,
    top_k: usize,
) -> Object {
    let body = Object::new();
    set(&body, "docs", &docs_array(docs));
    set(&body, "questions", &questions_array(questions));
    set(&body, "config", &config_object(config));
    set(&body, "top_k", &count(top_k));
    let request = Object::new();
    set(&request, "id", id);
    set(&request, "evaluate", &body);
    request
}

/// Makes an [`eval_request`] retrieve with the worker's loaded model of
/// generation `generation` (`retriever: "model:N"`) instead of BM25.
pub fn by_model(request: &Object, generation: u32) {
    let body = get(request, "evaluate");
    if let Some(body) = body.dyn_ref::<Object>() {
        set(
            body,
            "retriever",
            &crate::loaded::model_name(generation).as_str().into(),
        );
    }
}

fn read_count(value: &JsValue, what: &str) -> Result<usize, String> {
    value
        .as_f64()
        .filter(|n| n.fract() == 0.0 && *n >= 0.0 && *n <= u32::MAX as f64)
        .map(|n| n as usize)
        .ok_or_else(|| format!("{what} must be a whole number ≥ 0"))
}

fn read_number(value: &JsValue, what: &str) -> Result<f64, String> {
    value
        .as_f64()
        .ok_or_else(|| format!("{what} must be a number"))
}

fn read_string(value: &JsValue, what: &str) -> Result<String, String> {
    value
        .as_string()
        .ok_or_else(|| format!("{what} must be a string"))
}

fn read_list(value: &JsValue, what: &str) -> Result<Array, String> {
    if Array::is_array(value) {
        Ok(Array::from(value))
    } else {
        Err(format!("{what} must be a list"))
    }
}

/// Reads `[{ question, doc, answers: [{ start, end }] }]`.
pub fn read_questions(value: &JsValue) -> Result<Vec<Question>, String> {
    read_list(value, "questions")?
        .iter()
        .enumerate()
        .map(|(i, q)| {
            let answers = read_list(&get(&q, "answers"), "answers")?
                .iter()
                .map(|a| {
                    Ok((
                        read_count(&get(&a, "start"), "an answer's start")?,
                        read_count(&get(&a, "end"), "an answer's end")?,
                    ))
                })
                .collect::<Result<Vec<_>, String>>()
                .map_err(|e| format!("question {i}: {e}"))?;
            Ok(Question {
                question: read_string(&get(&q, "question"), "question")?,
                doc: read_string(&get(&q, "doc"), "doc")?,
                answers,
            })
        })
        .collect()
}

/// Reads the documents of a request: `(name, text)` pairs.
#[cfg(feature = "api")]
fn read_docs(value: &JsValue) -> Result<Vec<(String, String)>, String> {
    read_list(value, "docs")?
        .iter()
        .map(|d| {
            Ok((
                read_string(&get(&d, "name"), "a document's name")?,
                read_string(&get(&d, "text"), "a document's text")?,
            ))
        })
        .collect()
}

/// The evaluation as the worker sends it: the eval crate's serde form, the
/// one `chunkscope eval` prints.
pub fn evaluation_object(e: &Evaluation) -> JsValue {
    use serde::Serialize;
    // Cannot fail: counts that fit 32 bits, finite or NaN numbers, strings.
    e.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

fn read_scores(value: &JsValue) -> Result<Scores, String> {
    Ok(Scores {
        recall: read_number(&get(value, "recall"), "recall")?,
        precision: read_number(&get(value, "precision"), "precision")?,
        iou: read_number(&get(value, "iou"), "iou")?,
    })
}

/// Reads an evaluation the worker sent: a missing or mistyped number is an
/// error that names it, never a zero. Read field by field rather than by
/// serde: a derived reader of this shape (its flattened scores) would add
/// about 17 KB gzipped to the page's wasm.
pub fn read_evaluation(value: &JsValue) -> Result<Evaluation, String> {
    let mean = get(value, "mean");
    let scores = read_scores(&mean)?;
    let index = get(value, "index");
    let retriever = get(value, "retriever");
    let questions = read_list(&get(value, "questions"), "questions")?
        .iter()
        .map(|q| {
            let retrieved = read_list(&get(&q, "retrieved"), "retrieved")?
                .iter()
                .map(|r| {
                    Ok(Retrieved {
                        doc: read_count(&get(&r, "doc"), "doc")?,
                        chunk: read_count(&get(&r, "chunk"), "chunk")?,
                        start: read_count(&get(&r, "start"), "start")?,
                        end: read_count(&get(&r, "end"), "end")?,
                        score: read_number(&get(&r, "score"), "score")?,
                    })
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(QuestionResult {
                question: read_string(&get(&q, "question"), "question")?,
                doc: read_string(&get(&q, "doc"), "doc")?,
                retrieved,
                scores: read_scores(&q)?,
                whole: read_number(&get(&q, "whole"), "whole")?,
                fragments: read_number(&get(&q, "fragments"), "fragments")?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Evaluation {
        questions,
        mean: Means {
            recall: scores.recall,
            precision: scores.precision,
            iou: scores.iou,
            whole: read_number(&get(&mean, "whole"), "whole")?,
            fragments: read_number(&get(&mean, "fragments"), "fragments")?,
        },
        index: IndexCost {
            chunks: read_count(&get(&index, "chunks"), "chunks")?,
            units: read_count(&get(&index, "units"), "units")?,
            longest: read_count(&get(&index, "longest"), "longest")?,
        },
        top_k: read_count(&get(value, "top_k"), "top_k")?,
        retriever: Bm25 {
            k1: read_number(&get(&retriever, "k1"), "k1")?,
            b: read_number(&get(&retriever, "b"), "b")?,
        },
        model: get(value, "model").as_string(),
    })
}

/// The worker's side: reading the two evaluation requests and answering
/// them.
#[cfg(feature = "api")]
mod worker {
    use super::*;
    use crate::contract::{analyze, Detail, Refusal};
    use crate::message::answer::Request;
    use chunkscope_eval::questions::{check_texts, parse_questions};
    use chunkscope_eval::{Corpus, Document};

    fn refuse(field: &str) -> impl Fn(String) -> Refusal + '_ {
        move |message| Refusal::new(Some(field), message)
    }

    /// Reads `{ questions, docs }`.
    pub fn read_questions_request(data: &JsValue) -> Result<Request, Refusal> {
        let jsonl =
            read_string(&get(data, "questions"), "questions").map_err(refuse("questions"))?;
        let docs = read_docs(&get(data, "docs")).map_err(refuse("docs"))?;
        Ok(Request::Questions { jsonl, docs })
    }

    /// Reads the body of `{ evaluate: { docs, questions, config, top_k,
    /// retriever? } }`.
    pub fn read_evaluate_request(body: &JsValue) -> Result<Request, Refusal> {
        let docs = read_docs(&get(body, "docs")).map_err(refuse("docs"))?;
        let questions = read_questions(&get(body, "questions")).map_err(refuse("questions"))?;
        let top_k = read_count(&get(body, "top_k"), "top_k").map_err(refuse("top_k"))?;
        let config = crate::config_from_js(get(body, "config"))
            .map_err(|e| Refusal::new(Some(e.field), e.message))?;
        Ok(Request::Evaluate {
            docs,
            questions,
            config,
            top_k,
            retriever: get(body, "retriever").as_string(),
        })
    }

    /// Reads a questions file and checks each answer against its document.
    pub fn parse(jsonl: &str, docs: Vec<(String, String)>) -> Result<Vec<Question>, Refusal> {
        let parsed = parse_questions(jsonl).map_err(|e| refuse("questions")(e.to_string()))?;
        let corpus = Corpus {
            documents: docs
                .into_iter()
                .map(|(name, text)| Document {
                    name,
                    text,
                    chunks: Vec::new(),
                    units: Vec::new(),
                })
                .collect(),
        };
        for (q, question) in parsed.questions.iter().enumerate() {
            let line = parsed.lines[q];
            let doc = corpus
                .find(&question.doc)
                .map_err(|e| refuse("questions")(format!("line {line}: {e}")))?;
            check_texts(&parsed, q, &corpus.documents[doc].text)
                .map_err(|e| refuse("questions")(e.to_string()))?;
        }
        Ok(parsed.questions)
    }

    /// Splits every document under `config` and evaluates it, retrieving
    /// with BM25, or with the loaded model `retriever` names (`model:N`).
    pub fn evaluate(
        docs: Vec<(String, String)>,
        questions: &[Question],
        config: &Config,
        top_k: usize,
        retriever: Option<&str>,
    ) -> Result<Evaluation, Refusal> {
        let mut corpus = Corpus::default();
        for (name, text) in docs {
            let analysis = analyze(&text, config.clone(), Detail::Chunks).map_err(Refusal::from)?;
            let units = analysis.output.chunks.iter().map(|c| c.len).collect();
            let chunks = analysis.engine.chunk_chars;
            corpus.documents.push(Document {
                name,
                text,
                chunks,
                units,
            });
        }
        let Some(name) = retriever else {
            return chunkscope_eval::evaluate(&corpus, questions, top_k)
                .map_err(refuse("questions"));
        };
        let embedder = crate::loaded::held()
            .embedder(&chunkscope::semantic::EmbedderChoice::named(name))
            .map_err(|e| Refusal::new(Some("retriever"), e.to_string()))?;
        let embed = |texts: &[&str]| -> Result<Vec<Vec<f64>>, String> {
            let owned: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
            embedder
                .embed(&owned)
                .map_err(|e| e.to_string())?
                .into_iter()
                .map(|v| match v {
                    chunkscope::semantic::Vector::Dense(d) => Ok(d),
                    chunkscope::semantic::Vector::Sparse(_) => {
                        Err("a static model gives dense vectors".to_string())
                    }
                })
                .collect()
        };
        chunkscope_eval::evaluate_dense(&corpus, questions, top_k, &embedder.name(), &embed)
            .map_err(refuse("questions"))
    }
}

#[cfg(feature = "api")]
pub use worker::{evaluate, parse, read_evaluate_request, read_questions_request};
