//! The messages a chunkscope worker takes and sends: one contract for outside
//! callers and for the playground, which speaks it through the same functions.
//!
//! ```text
//! worker → { ready: "0.1.0" }                        once, when it takes requests
//! caller → { id, text, config?, detail?, encoding? }  a split
//! worker → { id, report }                             the report (detail chunks, trace, full)
//!        | { id, determinism: { ok, detail } }        the check (detail "determinism")
//!        | { id, error: { message, field, separator } }  what to change; field may be
//!                                                     null, separator is the index
//!                                                     of the one to blame, or null
//! caller → { id, tokenizer: Uint8Array }              a `.tokens` file, for token units
//! worker → { id, installed: "cl100k" }                | { id, error }
//! caller → { id, model: { name, files: [{ name, bytes }] } }  a static model's files
//!        | { id, model: null }                        drop it
//! worker → { id, loaded: { generation, name, format, dims, words } | null } | { id, error }
//! ```
//!
//! The evaluation requests (`questions`, `evaluate`) and the corpus request
//! (`corpus`) have their forms in [`crate::eval`] and [`crate::corpus`].
//!
//! Each message is one [`answer::Request`], read in one place: the key it
//! carries (`text`, `tokenizer`, `model`, `questions`, `evaluate`,
//! `corpus`) says which, and a message with two of them is refused. The
//! worker answers it in plain Rust ([`answer::answer`], tested natively)
//! with a [`Response`], which one writer puts into a message and
//! [`Reply::read`] reads back on the caller's side (the larger payloads
//! [`Unread`] until whoever asked reads them).
//!
//! `id` is any value, sent back as it came, so a caller can drop answers to
//! requests it no longer wants. `config` is `split()`'s options object and
//! `report` is `split()`'s report (as a plain object; with `encoding:
//! "binary"`, the [`crate::wire`] buffer of the same fields, transferred, for
//! callers that read it with `decodeReport`). An error's `field` names the
//! setting to change (`size`, `overlap`, `unit`, `separators`, `strategy`,
//! `placement`, `config`, `detail`, `encoding`, `text`, `tokenizer`, `model`), or is
//! null when no one setting is to blame.

use crate::contract::Detail;
pub use crate::contract::Refusal;
use chunkscope::{Check, Config};
use js_sys::{Array, Object, Reflect};
use std::fmt;
use std::str::FromStr;
use wasm_bindgen::{JsCast, JsValue};

mod typescript;
pub use typescript::typescript;

/// How a report travels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    /// A plain object, as `split()` returns it.
    #[default]
    Object,
    /// The [`crate::wire`] buffer of the same fields, as a transferred
    /// `ArrayBuffer`: what a page reads back without a pause.
    Binary,
}

impl Encoding {
    /// The value of a request's `encoding` field.
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Object => "object",
            Encoding::Binary => "binary",
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Encoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Encoding, String> {
        match s {
            "object" => Ok(Encoding::Object),
            "binary" => Ok(Encoding::Binary),
            other => Err(format!(
                "unknown encoding {other:?}: use \"object\" or \"binary\""
            )),
        }
    }
}

/// What one side of the protocol holds of an answer's larger payloads: the
/// worker the values it made ([`answer::Worker`]), a caller what arrived
/// ([`Caller`]), read only where it is wanted.
pub trait Side {
    /// A report.
    type Report: Clone + fmt::Debug + PartialEq;
    /// A questions file, read.
    type Questions: Clone + fmt::Debug + PartialEq;
    /// An evaluation.
    type Evaluation: Clone + fmt::Debug + PartialEq;
    /// A corpus's numbers.
    type Numbers: Clone + fmt::Debug + PartialEq;
}

/// A caller's side: a report as the [`ReportBody`] that arrived (one of a
/// long document is large, and read only when still wanted), and the other
/// payloads [`Unread`] until the one who asked reads them (so each reader is
/// linked only into the code that asks: the page's wasm carries no
/// evaluation reader).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Caller;

impl Side for Caller {
    type Report = ReportBody;
    type Questions = Unread<Vec<chunkscope_eval::Question>>;
    type Evaluation = Unread<chunkscope_eval::Evaluation>;
    type Numbers = Unread<crate::corpus::Numbers>;
}

/// A payload as it arrived, of a known type, read with [`Unread::read`].
pub struct Unread<T> {
    value: JsValue,
    kind: std::marker::PhantomData<fn() -> T>,
}

impl<T> Unread<T> {
    /// The payload `value`, to be read as a `T`.
    pub fn new(value: JsValue) -> Unread<T> {
        Unread {
            value,
            kind: std::marker::PhantomData,
        }
    }
}

impl<T> Clone for Unread<T> {
    fn clone(&self) -> Unread<T> {
        Unread::new(self.value.clone())
    }
}

impl<T> fmt::Debug for Unread<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Unread").field(&self.value).finish()
    }
}

impl<T> PartialEq for Unread<T> {
    fn eq(&self, other: &Unread<T>) -> bool {
        self.value == other.value
    }
}

/// A payload a caller reads: its name in a refusal, and its reader (which
/// names a missing or mistyped field, never reading it as a zero).
pub trait Payload: Sized {
    /// What it is, for "the worker's … cannot be read".
    const WHAT: &'static str;
    /// Reads it.
    fn read_from(value: &JsValue) -> Result<Self, String>;
}

impl Payload for chunkscope_eval::Evaluation {
    const WHAT: &'static str = "evaluation";
    fn read_from(value: &JsValue) -> Result<Self, String> {
        crate::eval::read_evaluation(value)
    }
}

impl Payload for Vec<chunkscope_eval::Question> {
    const WHAT: &'static str = "questions";
    fn read_from(value: &JsValue) -> Result<Self, String> {
        crate::eval::read_questions(value)
    }
}

impl Payload for crate::corpus::Numbers {
    const WHAT: &'static str = "corpus answer";
    fn read_from(value: &JsValue) -> Result<Self, String> {
        crate::corpus::read_numbers(value)
    }
}

impl<T: Payload> Unread<T> {
    /// The payload, or a refusal saying why it cannot be read.
    pub fn read(&self) -> Result<T, Refusal> {
        T::read_from(&self.value).map_err(|why| {
            Refusal::new(
                None,
                format!("the worker's {} cannot be read: {why}", T::WHAT),
            )
        })
    }
}

/// One answer of a worker, as Rust values: what the worker makes
/// ([`answer::answer`]) and what a caller reads back ([`Reply::read`]), so
/// both sides of every message are one type; `S` says how each side holds
/// the larger payloads ([`Side`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Response<S: Side> {
    /// The worker takes requests: `{ ready }`, once.
    Ready {
        /// chunkscope's version.
        version: String,
    },
    /// A report: `{ id, report, ms }`.
    Report {
        /// The report.
        report: S::Report,
        /// How long the worker took to make it, in milliseconds (the engine's
        /// run, embedding included; not the message's travel).
        ms: Option<f64>,
    },
    /// The determinism check: `{ id, determinism: { ok, detail } }`.
    Determinism(Check),
    /// A tokenizer was installed: `{ id, installed }`, the encoding's name.
    Installed(String),
    /// A static model was loaded (its summary) or dropped (`None`):
    /// `{ id, loaded }`.
    Loaded(Option<crate::loaded::Summary>),
    /// A questions file, read: `{ id, parsed }` (see [`crate::eval`]).
    Parsed(S::Questions),
    /// One configuration evaluated: `{ id, evaluation }` (see [`crate::eval`]).
    Evaluation(S::Evaluation),
    /// A corpus split: `{ id, corpus, export? }` (see [`crate::corpus`]).
    Corpus {
        /// The numbers of the whole corpus and of each document.
        numbers: S::Numbers,
        /// The export's text, when one was asked.
        export: Option<String>,
    },
    /// The request was refused: `{ id, error: { message, field, separator } }`.
    Error(Refusal),
}

/// A report as a caller receives it.
#[derive(Clone, Debug, PartialEq)]
pub enum ReportBody {
    /// The [`crate::wire`] buffer (`encoding: "binary"`): an `ArrayBuffer`,
    /// or a view of one; [`ReportBody::bytes`] copies it out.
    Binary(JsValue),
    /// The plain object `split()` returns (`encoding: "object"`), for a
    /// caller that passes it on as it is (the page's JSON download).
    Object(JsValue),
}

impl ReportBody {
    /// The bytes of a binary report; `None` for an object.
    pub fn bytes(&self) -> Option<Vec<u8>> {
        match self {
            ReportBody::Binary(buffer) => report_bytes(buffer),
            ReportBody::Object(_) => None,
        }
    }
}

/// One message from a worker, as a caller reads it: the request's `id`
/// (any value, sent back as it came; null when the request had none) and
/// the answer.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The request's id.
    pub id: JsValue,
    /// The answer.
    pub response: Response<Caller>,
}

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn set(target: &Object, key: &str, value: &JsValue) {
    // Setting a property of a plain object made here cannot fail.
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

impl Reply {
    /// Reads a message a worker posted. Anything else, or an answer whose
    /// payload does not have its shape, reads as an error that says so, so a
    /// caller always has something to show and never a default.
    pub fn read(data: &JsValue) -> Reply {
        let id = get(data, "id");
        let response = Reply::response(data).unwrap_or_else(Response::Error);
        Reply { id, response }
    }

    /// The id as a number, the only kind the playground sends.
    pub fn id_number(&self) -> Option<f64> {
        self.id.as_f64()
    }

    fn response(data: &JsValue) -> Result<Response<Caller>, Refusal> {
        if let Some(version) = get(data, "ready").as_string() {
            return Ok(Response::Ready { version });
        }
        let report = get(data, "report");
        if !report.is_undefined() {
            let ms = get(data, "ms").as_f64();
            let report = if report_bytes_of(&report) {
                ReportBody::Binary(report)
            } else {
                ReportBody::Object(report)
            };
            return Ok(Response::Report { report, ms });
        }
        let determinism = get(data, "determinism");
        if let Some(ok) = get(&determinism, "ok").as_bool() {
            let detail = get(&determinism, "detail").as_string().unwrap_or_default();
            return Ok(Response::Determinism(Check { ok, detail }));
        }
        if let Some(encoding) = get(data, "installed").as_string() {
            return Ok(Response::Installed(encoding));
        }
        let loaded = get(data, "loaded");
        if !loaded.is_undefined() {
            return read_summary(&loaded).map(Response::Loaded).map_err(|why| {
                Refusal::new(
                    Some("model"),
                    format!("the worker's summary of the model cannot be read: {why}"),
                )
            });
        }
        let evaluation = get(data, "evaluation");
        if !evaluation.is_undefined() {
            return Ok(Response::Evaluation(Unread::new(evaluation)));
        }
        let parsed = get(data, "parsed");
        if !parsed.is_undefined() {
            return Ok(Response::Parsed(Unread::new(parsed)));
        }
        let corpus = get(data, "corpus");
        if !corpus.is_undefined() {
            let export = get(data, "export").as_string();
            return Ok(Response::Corpus {
                numbers: Unread::new(corpus),
                export,
            });
        }
        let error = get(data, "error");
        Err(match get(&error, "message").as_string() {
            Some(message) => Refusal {
                message,
                field: get(&error, "field").as_string(),
                separator: get(&error, "separator").as_f64().map(|i| i as usize),
            },
            None => Refusal::new(None, "the worker sent a message this page cannot read"),
        })
    }
}

/// Whether a report is binary (an `ArrayBuffer` or a view of one).
fn report_bytes_of(report: &JsValue) -> bool {
    report.is_instance_of::<js_sys::ArrayBuffer>() || report.is_instance_of::<js_sys::Uint8Array>()
}

/// A model's summary as the worker's `loaded` answer carries it.
pub fn summary_to_js(summary: &crate::loaded::Summary) -> JsValue {
    use serde::Serialize;
    // Cannot fail: two numbers that fit 32 bits and two strings.
    summary
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

/// A `loaded` answer read back: a summary, or `None` for `null` (dropped)
/// or nothing at all.
/// Read as JSON text, so a missing field is an error that names it (a
/// derived struct read from the object itself would look up only its own
/// fields).
pub fn read_summary(value: &JsValue) -> Result<Option<crate::loaded::Summary>, String> {
    if value.is_null() || value.is_undefined() {
        return Ok(None);
    }
    let text = js_sys::JSON::stringify(value)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or("it is not JSON")?;
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| e.to_string())
}

/// `split()`'s options object for `config`: core's written form
/// ([`chunkscope::Settings`]), which the worker reads as the JS API does.
pub fn config_object(config: &Config) -> JsValue {
    use serde::Serialize;
    // Cannot fail: every number in the form is a `usize` (32 bits here) or a
    // finite `f64`. Were it to, the worker would refuse the string with
    // "config must be an object", not split with defaults.
    crate::options::SplitOptions::from(config)
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or_else(|e| JsValue::from_str(&e.to_string()))
}

/// A split request: `{ id, text, config, detail, encoding }`. `text` is a JS
/// string, so a caller that already holds one (a long document) does not
/// convert it again for every request.
pub fn split_request(
    id: &JsValue,
    text: &JsValue,
    config: &Config,
    detail: Detail,
    encoding: Encoding,
) -> Object {
    let request = Object::new();
    set(&request, "id", id);
    set(&request, "text", text);
    set(&request, "config", &config_object(config));
    set(&request, "detail", &detail.name().into());
    set(&request, "encoding", &encoding.name().into());
    request
}

/// A tokenizer request: `{ id, tokenizer }` with a `.tokens` file's bytes.
pub fn tokenizer_request(id: &JsValue, data: &[u8]) -> Object {
    let request = Object::new();
    set(&request, "id", id);
    set(&request, "tokenizer", &js_sys::Uint8Array::from(data));
    request
}

/// A model request: `{ id, model: { name, files } }` where `files` is an
/// array of `{ name, bytes }` (`bytes` an `ArrayBuffer`, not copied here), or
/// `{ id, model: null }` to drop the worker's model.
pub fn model_request(id: &JsValue, name: &str, files: Option<&Array>) -> Object {
    let request = Object::new();
    set(&request, "id", id);
    match files {
        Some(files) => {
            let model = Object::new();
            set(&model, "name", &name.into());
            set(&model, "files", files);
            set(&request, "model", &model);
        }
        None => set(&request, "model", &JsValue::NULL),
    }
    request
}

/// One file of a model request.
pub fn model_file(name: &str, bytes: &JsValue) -> Object {
    let file = Object::new();
    set(&file, "name", &name.into());
    set(&file, "bytes", bytes);
    file
}

/// The bytes of a binary report (an `ArrayBuffer`, or a view of one).
pub fn report_bytes(report: &JsValue) -> Option<Vec<u8>> {
    if let Some(buffer) = report.dyn_ref::<js_sys::ArrayBuffer>() {
        return Some(js_sys::Uint8Array::new(buffer).to_vec());
    }
    report
        .dyn_ref::<js_sys::Uint8Array>()
        .map(js_sys::Uint8Array::to_vec)
}

#[cfg(feature = "api")]
pub mod answer {
    //! The worker's side: a request read into one [`Request`], answered by
    //! [`answer`] (plain Rust, tested natively), and the answer written by
    //! [`write()`].

    use super::{get, set, Encoding, Refusal, Response, Side};
    use crate::contract::{Analysis, Answer, Detail};
    use crate::corpus::Export;
    use chunkscope::Config;
    use chunkscope_eval::Question;
    use js_sys::{Object, Uint8Array};
    use wasm_bindgen::{JsCast, JsValue};

    /// One request, read: every message a worker takes.
    pub enum Request {
        /// Split `text`: `{ text, config?, detail?, encoding? }`.
        Split {
            /// The document.
            text: String,
            /// The configuration it is split under.
            config: Config,
            /// How much to record.
            detail: Detail,
            /// How the report travels.
            encoding: Encoding,
        },
        /// Install the tokenizer in these bytes: `{ tokenizer }`.
        Tokenizer(Vec<u8>),
        /// Load a static model from its files, or drop the loaded one
        /// (`None`): `{ model }`.
        Model(Option<ModelFiles>),
        /// Read a questions file against the documents it is about:
        /// `{ questions, docs }`.
        Questions {
            /// The file's text (JSON Lines).
            jsonl: String,
            /// Each document's name and text.
            docs: Vec<(String, String)>,
        },
        /// Evaluate one configuration: `{ evaluate: { docs, questions,
        /// config, top_k, retriever? } }`.
        Evaluate {
            /// Each document's name and text.
            docs: Vec<(String, String)>,
            /// The questions, each answer checked against its document.
            questions: Vec<Question>,
            /// The configuration evaluated.
            config: Config,
            /// Chunks retrieved per question.
            top_k: usize,
            /// `None` for BM25, or the name of the loaded model to retrieve
            /// with (`model:N`).
            retriever: Option<String>,
        },
        /// Split every document of a corpus: `{ corpus: { docs, config,
        /// export? } }`.
        Corpus {
            /// Each document's name and text, or why it cannot be read, read
            /// one at a time as they are split (a `File` is read then), so a
            /// large corpus is never held whole.
            docs: Box<dyn Iterator<Item = Result<(String, String), Refusal>>>,
            /// The configuration.
            config: Config,
            /// The export asked for.
            export: Option<Export>,
        },
    }

    /// A model's name, then each file's name and bytes.
    pub type ModelFiles = (String, Vec<(String, Vec<u8>)>);

    /// What a worker holds of a report before it writes it: the analysis,
    /// the text (an object report's offsets are counted in it) and the form
    /// asked for.
    #[derive(Clone, Debug, PartialEq)]
    pub struct Made {
        /// The analysis.
        pub analysis: Box<Analysis>,
        /// The text split.
        pub text: String,
        /// How it travels.
        pub encoding: Encoding,
    }

    /// The worker's side: the values it made.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub struct Worker;

    impl Side for Worker {
        type Report = Made;
        type Questions = Vec<Question>;
        type Evaluation = Box<chunkscope_eval::Evaluation>;
        type Numbers = crate::corpus::Numbers;
    }

    /// The keys that say what a request asks, each alone.
    const KINDS: [&str; 6] = [
        "model",
        "tokenizer",
        "questions",
        "evaluate",
        "corpus",
        "text",
    ];

    impl Request {
        /// Reads a request message, or says which field is wrong. A message
        /// asks one thing: one with two of `model`, `tokenizer`,
        /// `questions`, `evaluate`, `corpus` and `text` is refused, not
        /// answered for one of them.
        pub fn read(data: &JsValue) -> Result<Request, Refusal> {
            if !data.is_object() || data.is_array() {
                return Err(Refusal::new(
                    None,
                    "a request is an object such as { id: 1, text: \"…\", config: { size: 400 } }",
                ));
            }
            let asked: Vec<&str> = KINDS
                .into_iter()
                .filter(|key| !get(data, key).is_undefined())
                .collect();
            let kind = match asked.as_slice() {
                [] => "text",
                [kind] => kind,
                [first, second, ..] => {
                    return Err(Refusal::new(
                        None,
                        format!(
                            "a request asks one thing: this one has both `{first}` and `{second}`"
                        ),
                    ))
                }
            };
            match kind {
                "model" => read_model(&get(data, "model")),
                "tokenizer" => {
                    let bytes = super::report_bytes(&get(data, "tokenizer")).ok_or_else(|| {
                        Refusal::new(
                            Some("tokenizer"),
                            "tokenizer must be the bytes of a .tokens file (a Uint8Array or an ArrayBuffer)",
                        )
                    })?;
                    Ok(Request::Tokenizer(bytes))
                }
                "questions" => crate::eval::read_questions_request(data),
                "evaluate" => crate::eval::read_evaluate_request(&get(data, "evaluate")),
                "corpus" => crate::corpus::read_request(&get(data, "corpus")),
                _ => read_split(data),
            }
        }
    }

    fn read_model(model: &JsValue) -> Result<Request, Refusal> {
        if model.is_null() {
            return Ok(Request::Model(None));
        }
        let bad = || {
            Refusal::new(
                Some("model"),
                "model must be { name, files: [{ name, bytes }] } with each file's bytes an ArrayBuffer or Uint8Array, or null",
            )
        };
        let name = get(model, "name").as_string().ok_or_else(bad)?;
        let list = get(model, "files");
        let list = list.dyn_ref::<js_sys::Array>().ok_or_else(bad)?;
        let mut files = Vec::new();
        for file in list.iter() {
            let file_name = get(&file, "name").as_string().ok_or_else(bad)?;
            let bytes = super::report_bytes(&get(&file, "bytes")).ok_or_else(bad)?;
            files.push((file_name, bytes));
        }
        Ok(Request::Model(Some((name, files))))
    }

    fn read_split(data: &JsValue) -> Result<Request, Refusal> {
        let text = get(data, "text").as_string().ok_or_else(|| {
            Refusal::new(Some("text"), "text must be a string: the document to split")
        })?;
        let options = crate::options_from_js(get(data, "config"))
            .map_err(|e| Refusal::new(Some(e.field), e.message))?;
        let detail = read_name(data, "detail", "detail must be a string such as \"full\"")?;
        let encoding = read_name(
            data,
            "encoding",
            "encoding must be \"object\" or \"binary\"",
        )?;
        let config =
            crate::options::resolve(options).map_err(|e| Refusal::new(Some(e.field), e.message))?;
        Ok(Request::Split {
            text,
            config,
            detail,
            encoding,
        })
    }

    /// A field naming one of a few values (`detail`, `encoding`): its
    /// default when absent or null.
    fn read_name<T>(data: &JsValue, key: &str, not_a_string: &str) -> Result<T, Refusal>
    where
        T: std::str::FromStr<Err = String> + Default,
    {
        let value = get(data, key);
        match value.as_string() {
            Some(s) => s.parse().map_err(|e| Refusal::new(Some(key), e)),
            None if value.is_null_or_undefined() => Ok(T::default()),
            None => Err(Refusal::new(Some(key), not_a_string)),
        }
    }

    /// Answers one request. Everything the worker does is here, in plain
    /// Rust: the message's form is read before ([`Request::read`]) and
    /// written after ([`write()`]).
    pub fn answer(request: Request) -> Response<Worker> {
        run(request).unwrap_or_else(Response::Error)
    }

    fn run(request: Request) -> Result<Response<Worker>, Refusal> {
        match request {
            Request::Model(None) => {
                crate::loaded::clear();
                Ok(Response::Loaded(None))
            }
            Request::Model(Some((name, files))) => crate::loaded::load(&name, &files)
                .map(|summary| Response::Loaded(Some(summary)))
                .map_err(|message| Refusal::new(Some("model"), message)),
            Request::Tokenizer(bytes) => crate::loaded::install_data(&bytes)
                .map(|encoding| Response::Installed(encoding.name().to_string()))
                .map_err(|message| Refusal::new(Some("tokenizer"), message)),
            Request::Questions { jsonl, docs } => {
                crate::eval::parse(&jsonl, docs).map(Response::Parsed)
            }
            Request::Evaluate {
                docs,
                questions,
                config,
                top_k,
                retriever,
            } => crate::eval::evaluate(docs, &questions, &config, top_k, retriever.as_deref())
                .map(|e| Response::Evaluation(Box::new(e))),
            Request::Corpus {
                docs,
                config,
                export,
            } => crate::corpus::build(docs, &config, export).map(|report| Response::Corpus {
                numbers: crate::corpus::Numbers::of(&report),
                export: report.export,
            }),
            Request::Split {
                text,
                config,
                detail,
                encoding,
            } => match crate::contract::answer(&text, config, detail) {
                Answer::Refused(refusal) => Err(refusal),
                Answer::Determinism(check) => Ok(Response::Determinism(check)),
                Answer::Report(analysis) => Ok(Response::Report {
                    report: Made {
                        analysis,
                        text,
                        encoding,
                    },
                    ms: None,
                }),
            },
        }
    }

    /// The answer to one request message, and the buffer to transfer with it.
    pub fn respond(data: &JsValue) -> (JsValue, Option<js_sys::ArrayBuffer>) {
        let id = get(data, "id");
        let request = match Request::read(data) {
            Ok(request) => request,
            Err(refusal) => return write(&id, Response::Error(refusal)),
        };
        // `ms` is the engine's time: the clock starts once the request
        // (a long text among it) has been read.
        let started = js_sys::Date::now();
        let mut response = answer(request);
        if let Response::Report { ms, .. } = &mut response {
            *ms = Some(js_sys::Date::now() - started);
        }
        write(&id, response)
    }

    /// Writes an answer as its message: the one writer of every answer
    /// ([`super::Reply::read`] is the one reader), and the buffer to
    /// transfer with it.
    pub fn write(
        id: &JsValue,
        response: Response<Worker>,
    ) -> (JsValue, Option<js_sys::ArrayBuffer>) {
        let reply = Object::new();
        if !matches!(response, Response::Ready { .. }) {
            set(&reply, "id", id);
        }
        let mut transfer = None;
        match response {
            Response::Ready { version } => set(&reply, "ready", &version.into()),
            Response::Report { report, ms } => {
                match write_report(&report) {
                    Ok((value, buffer)) => {
                        set(&reply, "report", &value);
                        transfer = buffer;
                    }
                    Err(refusal) => return write(id, Response::Error(refusal)),
                }
                if let Some(ms) = ms {
                    set(&reply, "ms", &ms.into());
                }
            }
            Response::Determinism(check) => {
                let object = Object::new();
                set(&object, "ok", &check.ok.into());
                set(&object, "detail", &check.detail.as_str().into());
                set(&reply, "determinism", &object);
            }
            Response::Installed(encoding) => set(&reply, "installed", &encoding.into()),
            Response::Loaded(summary) => set(
                &reply,
                "loaded",
                &summary.as_ref().map_or(JsValue::NULL, super::summary_to_js),
            ),
            Response::Parsed(questions) => {
                set(&reply, "parsed", &crate::eval::questions_array(&questions))
            }
            Response::Evaluation(evaluation) => set(
                &reply,
                "evaluation",
                &crate::eval::evaluation_object(&evaluation),
            ),
            Response::Corpus { numbers, export } => {
                set(&reply, "corpus", &crate::corpus::numbers_object(&numbers));
                if let Some(text) = export {
                    set(&reply, "export", &text.into());
                }
            }
            Response::Error(refusal) => {
                let error = Object::new();
                set(&error, "message", &refusal.message.as_str().into());
                set(
                    &error,
                    "field",
                    &refusal
                        .field
                        .as_deref()
                        .map_or(JsValue::NULL, JsValue::from_str),
                );
                set(
                    &error,
                    "separator",
                    &refusal
                        .separator
                        .map_or(JsValue::NULL, |i| JsValue::from_f64(i as f64)),
                );
                set(&reply, "error", &error);
            }
        }
        (reply.into(), transfer)
    }

    fn write_report(made: &Made) -> Result<(JsValue, Option<js_sys::ArrayBuffer>), Refusal> {
        match made.encoding {
            Encoding::Binary => {
                let bytes = crate::wire::encode(&made.analysis);
                let buffer = Uint8Array::from(bytes.as_slice()).buffer();
                Ok((buffer.clone().into(), Some(buffer)))
            }
            Encoding::Object => {
                let report = crate::report_of(&made.analysis, &made.text);
                crate::report_to_js(&report, &made.text)
                    .map(|value| (value, None))
                    .map_err(|e| Refusal::new(None, crate::js_error_message(e)))
            }
        }
    }

    /// Posts the answer to `data` from inside a worker.
    pub fn post(data: &JsValue) {
        let (reply, transfer) = respond(data);
        let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let sent = match transfer {
            Some(buffer) => scope.post_message_with_transfer(&reply, &js_sys::Array::of1(&buffer)),
            None => scope.post_message(&reply),
        };
        if let Err(e) = sent {
            web_sys::console::error_2(&"chunkscope worker: an answer could not be sent".into(), &e);
        }
    }

    /// The message that says the worker takes requests.
    pub fn ready() -> JsValue {
        let version = env!("CARGO_PKG_VERSION").to_string();
        write(&JsValue::UNDEFINED, Response::Ready { version }).0
    }
}

/// The worker's answers, natively: every request kind through
/// [`answer::answer`], with the values and refusals pinned. (How a message
/// is read and written is in the browser tests, `tests/web.rs`.)
#[cfg(all(test, feature = "api", not(target_arch = "wasm32")))]
mod tests {
    use super::answer::{answer, Request, Worker};
    use super::*;
    use crate::corpus::Export;

    const PAGE: &str = "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n\
                        COD orders get store credit.\n\nContact us 24x7.";

    fn lesson() -> Config {
        Config::recursive(40).with_separators(["\n\n", "\n", ". ", " ", ""])
    }

    fn split(config: Config, detail: Detail) -> Response<Worker> {
        answer(Request::Split {
            text: PAGE.to_string(),
            config,
            detail,
            encoding: Encoding::Binary,
        })
    }

    fn refused(response: Response<Worker>) -> (Option<String>, String) {
        match response {
            Response::Error(r) => (r.field, r.message),
            other => panic!("not a refusal: {other:?}"),
        }
    }

    fn docs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(n, t)| (n.to_string(), t.to_string()))
            .collect()
    }

    #[test]
    fn a_split_is_answered_with_the_analysis_of_the_lessons_five_chunks() {
        let Response::Report { report, ms } = split(lesson(), Detail::Chunks) else {
            panic!("not a report")
        };
        // The worker's clock is read around the answer, not inside it.
        assert_eq!(ms, None);
        assert_eq!(report.encoding, Encoding::Binary);
        assert_eq!(report.text, PAGE);
        let chunks: Vec<&str> = report
            .analysis
            .output
            .chunks
            .iter()
            .map(|c| &PAGE[c.span.start..c.span.end])
            .collect();
        assert_eq!(
            chunks,
            [
                "Refund policy",
                "Refunds take 5 days.",
                "They go to the original UPI id.",
                "COD orders get store credit.",
                "Contact us 24x7."
            ]
        );
        assert_eq!(
            split(lesson(), Detail::Determinism),
            Response::Determinism(Check {
                ok: true,
                detail: "a second run gave the same chunks".into()
            })
        );
        assert_eq!(
            refused(split(lesson().with_overlap(40), Detail::Full)),
            (
                Some("overlap".into()),
                "overlap (40) must be smaller than size (40): a chunk that repeats 40 units \
                 of the one before has no room left for new text, so the splitter would never \
                 move forward (try overlap 5: 10–15 % of the size is typical)"
                    .into()
            )
        );
    }

    #[test]
    fn a_tokenizer_is_installed_or_the_file_is_named_wrong() {
        let (field, message) = refused(answer(Request::Tokenizer(b"not tokens".to_vec())));
        assert_eq!(field.as_deref(), Some("tokenizer"));
        assert_eq!(
            message,
            chunkscope::tokens::Tokenizer::from_data(b"not tokens")
                .unwrap_err()
                .to_string()
        );
        let mut ranks: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        ranks.push(b"ab".to_vec());
        let data =
            chunkscope::tokens::Tokenizer::from_ranks(chunkscope::tokens::Encoding::O200k, ranks)
                .unwrap()
                .to_data();
        assert_eq!(
            answer(Request::Tokenizer(data)),
            Response::Installed("o200k".into())
        );
        // Held: "abab" is two tokens of that toy table.
        let mut config = Config::fixed(2, 0).with_unit(chunkscope::Unit::Tokens(
            chunkscope::tokens::Encoding::O200k,
        ));
        config.trim = false;
        let Response::Report { report, .. } = answer(Request::Split {
            text: "abab".into(),
            config,
            detail: Detail::Chunks,
            encoding: Encoding::Object,
        }) else {
            panic!("not split in tokens")
        };
        assert_eq!(report.analysis.output.chunks.len(), 1);
    }

    #[test]
    fn a_model_is_loaded_named_and_dropped() {
        let files = vec![("w.txt".to_string(), b"cat 1 0\ndog 0 1\n".to_vec())];
        let Response::Loaded(Some(summary)) = answer(Request::Model(Some(("w.txt".into(), files))))
        else {
            panic!("not loaded")
        };
        assert_eq!(
            (summary.format.as_str(), summary.dims, summary.words),
            ("word vectors", 2, 2)
        );
        let name = crate::loaded::model_name(summary.generation);
        assert_eq!(answer(Request::Model(None)), Response::Loaded(None));
        let (field, message) = refused(answer(Request::Evaluate {
            docs: docs(&[("refund.txt", PAGE)]),
            questions: Vec::new(),
            config: lesson(),
            top_k: 1,
            retriever: Some(name.clone()),
        }));
        assert_eq!(field.as_deref(), Some("retriever"));
        assert_eq!(
            message,
            format!("the embedder \"{name}\" is not loaded (no model is): load it first, or use \"lexical\"")
        );
    }

    #[test]
    fn questions_are_read_against_their_documents() {
        let line = r#"{"question": "How long do refunds take?", "doc": "refund.txt", "answers": [{"start": 28, "end": 34, "text": "5 days"}]}"#;
        let Response::Parsed(questions) = answer(Request::Questions {
            jsonl: format!("\n{line}\n"),
            docs: docs(&[("refund.txt", PAGE)]),
        }) else {
            panic!("not read")
        };
        assert_eq!(questions.len(), 1);
        assert_eq!(questions[0].answers, [(28, 34)]);
        let (field, message) = refused(answer(Request::Questions {
            jsonl: format!("{line}\n{{\"question\": \"?\"}}"),
            docs: docs(&[("refund.txt", PAGE)]),
        }));
        assert_eq!(field.as_deref(), Some("questions"));
        assert_eq!(message, "line 2: \"doc\" is missing");
        // BM25 ranks the lesson's second chunk first for the question:
        // "5 days" (6 chars) of "Refunds take 5 days." (20), whole, in one
        // fragment.
        let Response::Evaluation(e) = answer(Request::Evaluate {
            docs: docs(&[("refund.txt", PAGE)]),
            questions,
            config: lesson(),
            top_k: 1,
            retriever: None,
        }) else {
            panic!("not evaluated")
        };
        let q = &e.questions[0];
        assert_eq!((q.retrieved[0].start, q.retrieved[0].end), (15, 35));
        assert_eq!(
            (q.scores.recall, q.scores.precision, q.scores.iou),
            (1.0, 6.0 / 20.0, 6.0 / 20.0)
        );
        assert_eq!((q.whole, q.fragments), (1.0, 1.0));
        assert_eq!((e.index.chunks, e.top_k, e.model.as_deref()), (5, 1, None));
    }

    #[test]
    fn a_corpus_is_answered_with_its_numbers_and_export() {
        let request = |list: Vec<Result<(String, String), Refusal>>| Request::Corpus {
            docs: Box::new(list.into_iter()),
            config: lesson(),
            export: Some(Export::Jsonl),
        };
        let Response::Corpus { numbers, export } = answer(request(vec![
            Ok(("refund.txt".into(), PAGE.into())),
            Ok(("note.txt".into(), "A short note".into())),
        ])) else {
            panic!("not a corpus")
        };
        let names: Vec<&str> = numbers.documents.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["refund.txt", "note.txt"]);
        assert_eq!((numbers.total.documents, numbers.total.chunks), (2, 6));
        assert_eq!(export.unwrap().lines().count(), 6);
        // A document that cannot be read refuses the corpus, by its name.
        let unreadable = Refusal::new(Some("docs"), "b.bin does not look like text");
        assert_eq!(
            answer(request(vec![
                Ok(("a.txt".into(), "a".into())),
                Err(unreadable.clone())
            ])),
            Response::Error(unreadable)
        );
    }
}
