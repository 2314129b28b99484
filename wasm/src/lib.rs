//! The JavaScript API of chunkscope, and the worker that runs it off the
//! page's main thread.
//!
//! ```js
//! import init, { split, separatorPresets, version } from "./chunkscope_wasm.js";
//! await init();
//! const { chunks, trace, checks, config } = split(text, { size: 40, separators: ["\n\n", "\n", ". ", " ", ""] });
//! ```
//!
//! A thin binding: JavaScript values are converted to plain Rust data at the
//! boundary ([`SplitOptions`] in, [`chunkscope::report::Report`] out) and all the
//! work is the core crate's, called in one place ([`contract::analyze`]). The
//! report is the one the CLI prints with `--trace`, so a JSON dump of either
//! can be compared with the other.
//!
//! # In a worker
//!
//! Splitting a long document takes longer than a frame, so a page should
//! split off its main thread. `worker.js` (next to this crate's
//! `Cargo.toml`; copy it beside the module that wasm-bindgen writes) is a
//! module worker that answers the messages of [`message`]:
//!
//! ```js
//! const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
//! worker.onmessage = ({ data }) => {
//!   if (data.id !== latest) return;               // an answer to an older request
//!   if (data.error) show(data.error.message, data.error.field);
//!   else draw(data.report);                       // the same report split() returns
//! };
//! worker.postMessage({ id: ++latest, text, config: { size: 400 }, detail: "full" });
//! ```
//!
//! The playground uses exactly this contract, through the same Rust
//! functions ([`message::split_request`], [`message::Reply`]), with
//! `encoding: "binary"` so that its main thread reads the report of a 10 MB
//! document in a few milliseconds ([`wire`]).
//!
//! Everything below the `#[wasm_bindgen]` functions is plain Rust, tested
//! natively. Without the default `api` feature the crate is only the
//! contract ([`contract`], [`wire`], [`message`]): what the playground
//! links, without serde.

#![forbid(unsafe_code)]

pub mod contract;
pub mod corpus;
pub mod eval;
pub mod loaded;
pub mod message;
pub mod options;
pub mod utf16;
pub mod wire;

#[cfg(feature = "api")]
pub use api::*;

#[cfg(feature = "api")]
mod api {
    use crate::contract::{analyze, Analysis, Detail};
    use crate::message;
    pub use crate::options::{OptionError, SplitOptions};
    use chunkscope::presets;
    use chunkscope::report::Report;
    #[cfg(feature = "model")]
    use chunkscope::semantic::{EmbedderChoice, StaticModel};
    use serde::Serialize;
    use serde_wasm_bindgen::Serializer;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;

    /// Splits `text` and returns `{ chunks, trace, checks, config }`.
    ///
    /// `config` is an object such as `{ strategy: "recursive", size: 400, overlap: 40 }`
    /// (see [`SplitOptions`]); it may be left out for the defaults. A bad
    /// configuration throws an `Error` whose message says what to change.
    ///
    /// Offsets are the CLI's: `start` and `end` count chars (Unicode scalar
    /// values). Each chunk also has `utf16_start` and `utf16_end`, the same
    /// positions in UTF-16 code units, so that `text.slice(utf16_start,
    /// utf16_end)` is the chunk's source in JavaScript even past an emoji
    /// (see [`crate::utf16`]).
    #[wasm_bindgen(unchecked_return_type = "Report")]
    pub fn split(
        text: &str,
        #[wasm_bindgen(unchecked_param_type = "Settings | null")] config: JsValue,
    ) -> Result<JsValue, JsError> {
        let options = options_from_js(config).map_err(|e| JsError::new(&e.message))?;
        let report = split_report(text, options).map_err(|e| JsError::new(&e))?;
        report_to_js(&report, text)
    }

    /// A static embedding model for the semantic strategy, read once from
    /// the user's file: word vectors in the GloVe text format (`word v1 … vD`
    /// a line) or fastText's `.vec`. Never fetched: the caller hands over
    /// the bytes (a `Uint8Array`). A malformed, truncated, huge or
    /// inconsistent file throws an `Error` that says what is wrong and where.
    #[cfg(feature = "model")]
    #[wasm_bindgen(js_name = EmbeddingModel)]
    pub struct JsModel {
        /// How a configuration split with it names it: `embeddingModel:N`,
        /// `N` counting the models made, so no two share a name.
        name: String,
        model: std::sync::Arc<StaticModel>,
    }

    #[cfg(feature = "model")]
    impl JsModel {
        fn from_model(model: StaticModel) -> JsModel {
            thread_local! {
                static MADE: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
            }
            let n = MADE.with(|m| {
                m.set(m.get() + 1);
                m.get()
            });
            JsModel {
                name: format!("embeddingModel:{n}"),
                model: std::sync::Arc::new(model),
            }
        }
    }

    #[cfg(feature = "model")]
    #[wasm_bindgen(js_class = EmbeddingModel)]
    impl JsModel {
        /// Reads `bytes`; `name` is what reports call the embedder.
        #[wasm_bindgen(constructor)]
        pub fn new(name: &str, bytes: &[u8]) -> Result<JsModel, JsError> {
            read_model(name, bytes).map_err(|e| JsError::new(&e))
        }

        /// Reads a model2vec model from its files' bytes: `model.safetensors`,
        /// `tokenizer.json` and, if there is one, `config.json`.
        #[wasm_bindgen(js_name = fromModel2Vec)]
        pub fn from_model2vec(
            name: &str,
            safetensors: &[u8],
            tokenizer: &[u8],
            config: Option<Vec<u8>>,
        ) -> Result<JsModel, JsError> {
            StaticModel::from_model2vec(name, safetensors, tokenizer, config.as_deref())
                .map(JsModel::from_model)
                .map_err(|e| JsError::new(&e.to_string()))
        }

        /// The vectors' dimension.
        #[wasm_bindgen(getter)]
        pub fn dims(&self) -> usize {
            self.model.dims()
        }

        /// How many words have a vector.
        #[wasm_bindgen(getter)]
        pub fn words(&self) -> usize {
            self.model.words()
        }
    }

    /// [`JsModel::new`] without JavaScript, for tests.
    #[cfg(feature = "model")]
    pub fn read_model(name: &str, bytes: &[u8]) -> Result<JsModel, String> {
        StaticModel::from_text(name, bytes)
            .map(JsModel::from_model)
            .map_err(|e| e.to_string())
    }

    /// Splits `text` as [`split`] does, with `strategy: "semantic"` and its
    /// vectors from `model` (an `EmbeddingModel`) instead of the lexical
    /// embedder. Any other strategy throws: it would not use the model.
    #[cfg(feature = "model")]
    #[wasm_bindgen(js_name = splitWithModel, unchecked_return_type = "Report")]
    pub fn split_with_model(
        text: &str,
        #[wasm_bindgen(unchecked_param_type = "Settings | null")] config: JsValue,
        model: &JsModel,
    ) -> Result<JsValue, JsError> {
        let options = options_from_js(config).map_err(|e| JsError::new(&e.message))?;
        let report = split_report_with_model(text, options, model).map_err(|e| JsError::new(&e))?;
        report_to_js(&report, text)
    }

    /// The report of `text` split by the semantic strategy with `model`'s
    /// vectors, or the message of what is wrong.
    #[cfg(feature = "model")]
    pub fn split_report_with_model(
        text: &str,
        options: SplitOptions,
        model: &JsModel,
    ) -> Result<Report, String> {
        let mut config = crate::options::resolve(options).map_err(|e| e.message)?;
        let kind = config.kind();
        let Some(own) = config.semantic_config_mut() else {
            return Err(format!(
                "splitWithModel is for strategy \"semantic\" (the only one that embeds), not {:?}",
                kind.name()
            ));
        };
        own.embedder = EmbedderChoice::named(model.name.clone());
        let resources = crate::loaded::held()
            .with_embedder(model.name.clone(), model.model.clone())
            .map_err(|e| e.to_string())?;
        let analysis = crate::contract::analyze_with(text, config, Detail::Full, &resources)
            .map_err(|e| e.to_string())?;
        Ok(report_of(&analysis, text))
    }

    /// Installs a tokenizer from a `.tokens` file (`cl100k.tokens` or
    /// `o200k.tokens`, as the playground serves them; a `Uint8Array`), so that
    /// `unit: "cl100k"` or `"o200k"` can be used. Returns the encoding's name.
    /// Installing is once per encoding and page; a file that is not tokenizer
    /// data throws an `Error` that says what is wrong with it.
    #[wasm_bindgen(js_name = installTokenizer)]
    pub fn install_tokenizer(data: &[u8]) -> Result<String, JsError> {
        crate::loaded::install_data(data)
            .map(|encoding| encoding.name().to_string())
            .map_err(|message| JsError::new(&message))
    }

    /// The separator presets, in the order the playground lists them:
    /// `[{ name, description, separators: string[] }]`.
    #[wasm_bindgen(js_name = separatorPresets)]
    pub fn separator_presets() -> Result<JsValue, JsError> {
        to_js(&preset_list())
    }

    /// The version of chunkscope.
    #[wasm_bindgen]
    pub fn version() -> String {
        env!("CARGO_PKG_VERSION").to_string()
    }

    /// The full report of `text` under `options`, or the message of what is wrong.
    pub fn split_report(text: &str, options: SplitOptions) -> Result<Report, String> {
        let config = crate::options::resolve(options).map_err(|e| e.message)?;
        let analysis = analyze(text, config, Detail::Full).map_err(|e| e.to_string())?;
        Ok(report_of(&analysis, text))
    }

    /// The report of an analysis of `text`: the full report, or for a
    /// [`Detail::Chunks`] analysis (the one without checks) the chunks alone, as
    /// `Splitter::report` gives them for that detail.
    pub fn report_of(analysis: &Analysis, text: &str) -> Report {
        Report::new(text, &analysis.config, &analysis.engine, analysis.asked)
    }

    /// Reads a report sent with `encoding: "binary"` back into the object
    /// `split()` returns. `text` is the text the request sent (the buffer leaves
    /// out the chunks' text where it is the source between their offsets).
    #[wasm_bindgen(js_name = decodeReport, unchecked_return_type = "Report")]
    pub fn decode_report(report: JsValue, text: &str) -> Result<JsValue, JsError> {
        let bytes = message::report_bytes(&report)
            .ok_or_else(|| JsError::new("the report must be an ArrayBuffer or a Uint8Array"))?;
        let analysis = crate::wire::decode(&bytes, text).map_err(|e| JsError::new(&e))?;
        report_to_js(&report_of(&analysis, text), text)
    }

    /// What the JS API adds to each chunk of core's report (`ChunkReport`,
    /// declared with the report in `npm/report.d.ts`): its TypeScript,
    /// merged into that interface.
    #[wasm_bindgen(typescript_custom_section)]
    const UTF16_OFFSETS: &str = r#"
export interface ChunkReport {
  /** First position in UTF-16 code units: `text.slice(utf16_start, utf16_end)` is the chunk's source. */
  utf16_start: number;
  /** One past the last, in UTF-16 code units. */
  utf16_end: number;
}
"#;

    /// A report of `text` as the JavaScript object `split()` returns: the
    /// report's fields, and each chunk's `utf16_start` and `utf16_end`.
    pub(crate) fn report_to_js(report: &Report, text: &str) -> Result<JsValue, JsError> {
        let value = to_js(report)?;
        let chunks: js_sys::Array = js_sys::Reflect::get(&value, &"chunks".into())
            .map_err(|_| JsError::new("a report without chunks"))?
            .unchecked_into();
        let index = crate::utf16::Utf16Index::new(text);
        for (i, chunk) in report.chunks.iter().enumerate() {
            let object = chunks.get(i as u32);
            let start = index.offset(chunk.byte_start, chunk.start);
            let end = index.offset(chunk.byte_end, chunk.end);
            for (field, at) in [("utf16_start", start), ("utf16_end", end)] {
                js_sys::Reflect::set(&object, &field.into(), &(at as f64).into())
                    .map_err(|_| JsError::new("a chunk that is not an object"))?;
            }
        }
        Ok(value)
    }

    /// Answers one request from inside a worker (posts the reply to the
    /// worker's global scope). `worker.js` calls it for every message.
    #[wasm_bindgen(js_name = answer)]
    pub fn answer(request: JsValue) {
        message::answer::post(&request);
    }

    /// The `{ ready }` message a worker posts once it takes requests.
    #[wasm_bindgen(js_name = readyMessage)]
    pub fn ready_message() -> JsValue {
        message::answer::ready()
    }

    /// One separator preset, as `separatorPresets()` returns it.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize)]
    pub struct Preset {
        /// The name (`default`, `seed`, `markdown`, …).
        pub name: &'static str,
        /// A one-line description.
        pub description: &'static str,
        /// The separators' raw text, strongest first; `""` is the hard cut.
        pub separators: Vec<String>,
    }

    /// Every separator preset, in the playground's order.
    pub fn preset_list() -> Vec<Preset> {
        presets::SEPARATOR_PRESETS
            .iter()
            .map(|&name| Preset {
                name,
                description: presets::describe(name).unwrap_or_default(),
                separators: presets::separators(name)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|s| s.pattern)
                    .collect(),
            })
            .collect()
    }

    /// Reads the configuration object. `undefined` and `null` mean all defaults.
    /// Anything else that is not a plain object is refused here, because
    /// serde-wasm-bindgen would read a string or an array as a list of entries and
    /// give a confusing message.
    pub(crate) fn options_from_js(config: JsValue) -> Result<SplitOptions, OptionError> {
        if config.is_null_or_undefined() {
            return Ok(SplitOptions::default());
        }
        if !config.is_object() || config.is_array() {
            return Err(OptionError {
                field: "config",
                message: format!(
                    "config must be an object such as {{ size: 400, overlap: 40 }}, not {}",
                    describe_js(&config)
                ),
            });
        }
        serde_wasm_bindgen::from_value(config).map_err(|e| OptionError::from_message(e.to_string()))
    }

    /// The engine configuration of a request's `config` (see
    /// [`options_from_js`] and [`crate::options::resolve`]).
    pub(crate) fn config_from_js(config: JsValue) -> Result<chunkscope::Config, OptionError> {
        crate::options::resolve(options_from_js(config)?)
    }

    fn describe_js(value: &JsValue) -> String {
        if value.is_array() {
            "an array".to_string()
        } else if let Some(s) = value.as_string() {
            format!("the string {s:?}")
        } else {
            value.js_typeof().as_string().unwrap_or_default()
        }
    }

    /// Converts to plain JS objects and numbers (not `Map`s or `BigInt`s), so the
    /// result can be used like parsed JSON and passed to `JSON.stringify`.
    pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
        value
            .serialize(&Serializer::json_compatible())
            .map_err(|e| JsError::new(&OptionError::from_message(e.to_string()).message))
    }

    /// The message of a `JsError` made here.
    pub(crate) fn js_error_message(e: JsError) -> String {
        let value: JsValue = e.into();
        value
            .dyn_ref::<js_sys::Error>()
            .and_then(|e| e.message().as_string())
            .unwrap_or_else(|| "an error without a message".into())
    }
}

#[cfg(all(test, feature = "api"))]
mod tests {
    use super::*;
    use crate::contract::{analyze, Detail};
    use chunkscope::{presets, Config, Splitter};

    const PAGE: &str = "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n\
                        COD orders get store credit.\n\nContact us 24x7.";

    fn options(value: serde_json::Value) -> SplitOptions {
        serde_json::from_value(value).unwrap()
    }

    #[cfg(feature = "model")]
    #[test]
    fn a_model_file_gives_the_semantic_strategy_its_vectors() {
        // Two words per topic, each topic on its own axis: the distances are
        // exactly 0, 1, 0, and the 95th percentile of them is 0.9.
        let model = read_model("toy", b"cat 1 0\ndog 1 0\ntax 0 1\nfee 0 1\n").unwrap();
        let text = "Cat cat. Dog dog. Tax tax. Fee fee.";
        let opts = options(serde_json::json!({"strategy": "semantic", "size": 100,
            "semantic": {"buffer": 0}}));
        let report = split_report_with_model(text, opts, &model).unwrap();
        let spans: Vec<(usize, usize)> = report.chunks.iter().map(|c| (c.start, c.end)).collect();
        assert_eq!(spans, [(0, 17), (18, 35)]);
        let json = serde_json::to_value(&report).unwrap();
        let semantic = &json["trace"]["semantic"];
        assert_eq!(semantic["distances"], serde_json::json!([0.0, 1.0, 0.0]));
        assert_eq!(semantic["breakpoints"], serde_json::json!([1]));
        assert_eq!(
            semantic["embedder"],
            "static model toy (4 words, 2 dimensions)"
        );
        // Another strategy would not use the model; a bad file says why.
        let opts = options(serde_json::json!({"strategy": "recursive"}));
        let e = split_report_with_model(text, opts, &model).err().unwrap();
        assert!(e.contains("only one that embeds"), "{e}");
        let e = read_model("bad", b"cat 1 0\ndog 1\n").err().unwrap();
        assert!(e.contains("line 2"), "{e}");
    }

    #[test]
    fn refund_page_through_the_options() {
        let opts =
            options(serde_json::json!({"size": 40, "separators": ["\n\n", "\n", ". ", " ", ""]}));
        let report = split_report(PAGE, opts).unwrap();
        let got: Vec<(usize, usize, &str)> = report
            .chunks
            .iter()
            .map(|c| (c.start, c.end, &*c.cut))
            .collect();
        assert_eq!(
            got,
            [
                (0, 13, "\n\n"),
                (15, 35, ". "),
                (36, 67, "\n"),
                (68, 96, "\n\n"),
                (98, 114, "end")
            ]
        );
        assert!(report.trace.is_some() && report.checks.unwrap().ok);
    }

    #[test]
    fn engine_errors_are_messages() {
        let e =
            split_report("abc", options(serde_json::json!({"size": 4, "overlap": 4}))).unwrap_err();
        assert!(
            e.starts_with("overlap (4) must be smaller than size (4)"),
            "{e}"
        );
        let e = split_report("abc", options(serde_json::json!({"separators": []}))).unwrap_err();
        assert!(e.contains("separator list is empty"), "{e}");
    }

    #[test]
    fn langchain_strategies_start_from_langchains_defaults() {
        let report = split_report(
            "ab ab",
            options(serde_json::json!({"strategy": "langchain", "size": 4, "overlap": 2})),
        )
        .unwrap();
        let got: Vec<(&str, usize, Option<i64>)> = report
            .chunks
            .iter()
            .map(|c| (&*c.text, c.start, c.start_index))
            .collect();
        assert_eq!(got, [("ab", 0, Some(0)), ("ab", 3, Some(0))]);
        let config = report.config.unwrap();
        assert_eq!(
            (config.placement, config.separators),
            (Some(chunkscope::Placement::Start), Some(Vec::new()))
        );
        assert_eq!(report.langchain.unwrap().separators.len(), 4);
    }

    #[test]
    fn reports_are_the_cores_at_both_of_its_details() {
        let mut cases = 0;
        for strategy in chunkscope::Strategy::ALL {
            let mut config = Config::recursive(40)
                .with_separators(["\n\n", "\n", ". ", " ", ""])
                .with_strategy(strategy);
            if strategy.separators_are_header_markers() {
                config.separators = Config::for_strategy(strategy).separators;
                config.placement = strategy.default_placement();
            }
            if strategy == chunkscope::Strategy::Sentence {
                config
                    .separators
                    .insert(0, chunkscope::Separator::sentence());
            }
            let splitter = Splitter::new(config.clone(), &chunkscope::Resources::new()).unwrap();
            for (ours, core) in [
                (
                    Detail::Full,
                    chunkscope::Detail::FULL.with_determinism(true),
                ),
                (Detail::Chunks, chunkscope::Detail::CHUNKS),
            ] {
                let analysis = analyze(PAGE, config.clone(), ours).unwrap();
                assert_eq!(
                    report_of(&analysis, PAGE),
                    splitter.report(PAGE, core).unwrap(),
                    "{strategy} at {ours}"
                );
                cases += 1;
            }
        }
        assert_eq!(cases, 2 * chunkscope::Strategy::ALL.len());
    }

    #[test]
    fn presets_are_listed_in_order_with_raw_separators() {
        let list = preset_list();
        let names: Vec<&str> = list.iter().map(|p| p.name).collect();
        assert_eq!(names, presets::SEPARATOR_PRESETS);
        assert_eq!(list[0].separators, ["\n\n", "\n", " ", ""]);
        assert!(list.iter().all(|p| !p.description.is_empty()));
    }
}
