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
//! The evaluation requests (`questions`, `evaluate`) are in [`crate::eval`].
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

/// One message from a worker, as a caller reads it.
#[derive(Clone, Debug)]
pub enum Reply {
    /// The worker takes requests.
    Ready {
        /// chunkscope's version.
        version: String,
    },
    /// A report: a plain object, or an `ArrayBuffer` for `encoding: "binary"`.
    Report {
        /// The request's id.
        id: JsValue,
        /// The report.
        report: JsValue,
        /// How long the worker took to make it, in milliseconds (the engine's
        /// run, embedding included; not the message's travel).
        ms: Option<f64>,
    },
    /// The determinism check.
    Determinism {
        /// The request's id.
        id: JsValue,
        /// Whether a second run gave the same chunks.
        check: Check,
    },
    /// A tokenizer was installed.
    Installed {
        /// The request's id.
        id: JsValue,
        /// The encoding's name.
        encoding: String,
    },
    /// An evaluation (see [`crate::eval`]), to read with
    /// [`crate::eval::read_evaluation`].
    Evaluation {
        /// The request's id.
        id: JsValue,
        /// The evaluation object.
        evaluation: JsValue,
    },
    /// A static model was loaded (its summary) or dropped (`None`).
    Loaded {
        /// The request's id.
        id: JsValue,
        /// The summary, or `None`.
        model: Option<crate::loaded::Summary>,
    },
    /// A questions file, read (see [`crate::eval`]), to read with
    /// [`crate::eval::read_questions`].
    Parsed {
        /// The request's id.
        id: JsValue,
        /// The questions.
        questions: JsValue,
    },
    /// A corpus split (see [`crate::corpus`]), to read with
    /// [`crate::corpus::read_report`], and its export when one was asked.
    Corpus {
        /// The request's id.
        id: JsValue,
        /// The report object.
        report: JsValue,
        /// The export's text.
        export: Option<String>,
    },
    /// The request was refused.
    Error {
        /// The request's id (null when the request had none).
        id: JsValue,
        /// Why.
        refusal: Refusal,
    },
}

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn set(target: &Object, key: &str, value: &JsValue) {
    // Setting a property of a plain object made here cannot fail.
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

impl Reply {
    /// Reads a message a worker posted. Anything else reads as an error, so
    /// a caller always has something to show.
    pub fn read(data: &JsValue) -> Reply {
        let id = get(data, "id");
        if let Some(version) = get(data, "ready").as_string() {
            return Reply::Ready { version };
        }
        let report = get(data, "report");
        if !report.is_undefined() {
            let ms = get(data, "ms").as_f64();
            return Reply::Report { id, report, ms };
        }
        let determinism = get(data, "determinism");
        if let Some(ok) = get(&determinism, "ok").as_bool() {
            let detail = get(&determinism, "detail").as_string().unwrap_or_default();
            return Reply::Determinism {
                id,
                check: Check { ok, detail },
            };
        }
        if let Some(encoding) = get(data, "installed").as_string() {
            return Reply::Installed { id, encoding };
        }
        let loaded = get(data, "loaded");
        if !loaded.is_undefined() {
            return match read_summary(&loaded) {
                Ok(model) => Reply::Loaded { id, model },
                Err(why) => Reply::Error {
                    id,
                    refusal: Refusal::new(
                        Some("model"),
                        format!("the worker's summary of the model cannot be read: {why}"),
                    ),
                },
            };
        }
        let evaluation = get(data, "evaluation");
        if !evaluation.is_undefined() {
            return Reply::Evaluation { id, evaluation };
        }
        let questions = get(data, "parsed");
        if !questions.is_undefined() {
            return Reply::Parsed { id, questions };
        }
        let corpus = get(data, "corpus");
        if !corpus.is_undefined() {
            let export = get(data, "export").as_string();
            return Reply::Corpus {
                id,
                report: corpus,
                export,
            };
        }
        let error = get(data, "error");
        let refusal = match get(&error, "message").as_string() {
            Some(message) => Refusal {
                message,
                field: get(&error, "field").as_string(),
                separator: get(&error, "separator").as_f64().map(|i| i as usize),
            },
            None => Refusal::new(None, "the worker sent a message this page cannot read"),
        };
        Reply::Error { id, refusal }
    }
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
    //! The worker's side: reading a request and making its answer.

    use super::{get, set, Encoding, Refusal};
    use crate::contract::{answer, Answer, Detail};
    use crate::SplitOptions;
    use js_sys::{Object, Uint8Array};
    use wasm_bindgen::{JsCast, JsValue};

    /// A request, read.
    pub enum Request {
        /// Split `text`.
        Split {
            text: String,
            options: SplitOptions,
            detail: Detail,
            encoding: Encoding,
        },
        /// Install the tokenizer in these bytes.
        Tokenizer(Vec<u8>),
        /// Load a static model from its files, or drop the loaded one
        /// (`None`).
        Model(Option<ModelFiles>),
    }

    /// A model's name, then each file's name and bytes.
    pub type ModelFiles = (String, Vec<(String, Vec<u8>)>);

    /// Reads the fields of a request, or says which one is wrong.
    pub fn read(data: &JsValue) -> Result<Request, Refusal> {
        if !data.is_object() || data.is_array() {
            return Err(Refusal::new(
                None,
                "a request is an object such as { id: 1, text: \"…\", config: { size: 400 } }",
            ));
        }
        let model = get(data, "model");
        if model.is_null() {
            return Ok(Request::Model(None));
        }
        if !model.is_undefined() {
            let bad = || {
                Refusal::new(
                    Some("model"),
                    "model must be { name, files: [{ name, bytes }] } with each file's bytes an ArrayBuffer or Uint8Array, or null",
                )
            };
            let name = get(&model, "name").as_string().ok_or_else(bad)?;
            let list = get(&model, "files");
            let list = list.dyn_ref::<js_sys::Array>().ok_or_else(bad)?;
            let mut files = Vec::new();
            for file in list.iter() {
                let file_name = get(&file, "name").as_string().ok_or_else(bad)?;
                let bytes = super::report_bytes(&get(&file, "bytes")).ok_or_else(bad)?;
                files.push((file_name, bytes));
            }
            return Ok(Request::Model(Some((name, files))));
        }
        let tokenizer = get(data, "tokenizer");
        if !tokenizer.is_undefined() {
            let bytes = super::report_bytes(&tokenizer).ok_or_else(|| {
                Refusal::new(
                    Some("tokenizer"),
                    "tokenizer must be the bytes of a .tokens file (a Uint8Array or an ArrayBuffer)",
                )
            })?;
            return Ok(Request::Tokenizer(bytes));
        }
        let text = get(data, "text").as_string().ok_or_else(|| {
            Refusal::new(Some("text"), "text must be a string: the document to split")
        })?;
        let options = crate::options_from_js(get(data, "config"))
            .map_err(|e| Refusal::new(Some(e.field), e.message))?;
        let name = |key: &str| get(data, key).as_string();
        let detail = match name("detail") {
            Some(s) => s
                .parse()
                .map_err(|e: String| Refusal::new(Some("detail"), e))?,
            None if get(data, "detail").is_null_or_undefined() => Detail::default(),
            None => {
                return Err(Refusal::new(
                    Some("detail"),
                    "detail must be a string such as \"full\"",
                ))
            }
        };
        let encoding = match name("encoding") {
            Some(s) => s
                .parse()
                .map_err(|e: String| Refusal::new(Some("encoding"), e))?,
            None if get(data, "encoding").is_null_or_undefined() => Encoding::default(),
            None => {
                return Err(Refusal::new(
                    Some("encoding"),
                    "encoding must be \"object\" or \"binary\"",
                ))
            }
        };
        Ok(Request::Split {
            text,
            options,
            detail,
            encoding,
        })
    }

    /// The answer to one request message, and the buffer to transfer with it.
    pub fn respond(data: &JsValue) -> (JsValue, Option<js_sys::ArrayBuffer>) {
        let id = get(data, "id");
        let reply = Object::new();
        set(&reply, "id", &id);
        let answered = match crate::eval::answer::respond(data, &reply)
            .or_else(|| crate::corpus::answer::respond(data, &reply))
        {
            Some(evaluated) => evaluated.map(|()| None),
            None => read(data).and_then(|request| run(request, &reply)),
        };
        match answered {
            Ok(transfer) => (reply.into(), transfer),
            Err(refusal) => {
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
                (reply.into(), None)
            }
        }
    }

    fn run(request: Request, reply: &Object) -> Result<Option<js_sys::ArrayBuffer>, Refusal> {
        let (text, options, detail, encoding) = match request {
            Request::Model(None) => {
                crate::loaded::clear();
                set(reply, "loaded", &JsValue::NULL);
                return Ok(None);
            }
            Request::Model(Some((name, files))) => {
                let summary = crate::loaded::load(&name, &files)
                    .map_err(|message| Refusal::new(Some("model"), message))?;
                set(reply, "loaded", &super::summary_to_js(&summary));
                return Ok(None);
            }
            Request::Tokenizer(bytes) => {
                let name = crate::install_tokenizer(&bytes)
                    .map_err(|e| Refusal::new(Some("tokenizer"), crate::js_error_message(e)))?;
                set(reply, "installed", &name.into());
                return Ok(None);
            }
            Request::Split {
                text,
                options,
                detail,
                encoding,
            } => (text, options, detail, encoding),
        };
        let config =
            crate::options::resolve(options).map_err(|e| Refusal::new(Some(e.field), e.message))?;
        let started = js_sys::Date::now();
        let answered = answer(&text, config, detail);
        set(reply, "ms", &(js_sys::Date::now() - started).into());
        let analysis = match answered {
            Answer::Refused(refusal) => return Err(refusal),
            Answer::Determinism(check) => {
                let object = Object::new();
                set(&object, "ok", &check.ok.into());
                set(&object, "detail", &check.detail.as_str().into());
                set(reply, "determinism", &object);
                return Ok(None);
            }
            Answer::Report(analysis) => analysis,
        };
        match encoding {
            Encoding::Binary => {
                let bytes = crate::wire::encode(&analysis);
                let buffer = Uint8Array::from(bytes.as_slice()).buffer();
                set(reply, "report", &buffer);
                Ok(Some(buffer))
            }
            Encoding::Object => {
                let report = crate::report_of(&analysis, &text);
                let value = crate::report_to_js(&report, &text)
                    .map_err(|e| Refusal::new(None, crate::js_error_message(e)))?;
                set(reply, "report", &value);
                Ok(None)
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
        let ready = Object::new();
        set(&ready, "ready", &env!("CARGO_PKG_VERSION").into());
        ready.into()
    }
}
