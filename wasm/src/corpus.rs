//! A corpus in the worker: many documents split under one configuration,
//! each alone, so no chunk ever spans two of them (seed 004's boundary
//! property), summed up as per-document and whole-corpus numbers.
//!
//! ```text
//! caller → { id, corpus: { docs: [File | { name, text }], config, export? } }
//! worker → { id, corpus: { total: Stats, documents: [Stats & { name }] }, export? }
//!        | { id, error: { message: "notes.md: …", field } }
//! Stats  = { documents, bytes, chars, chunks, min, median, max, over, cuts }
//! cuts   = { by_separator: [n, …], hard, windows, structure, breakpoints, mid_word }
//! ```
//!
//! A document may be a `File` (or any `Blob` with a `name`): the worker reads
//! it itself, so the page hands over a few hundred files without reading a
//! byte of them on its main thread. `export` (`"jsonl"` or `"csv"`) asks for
//! every document's chunks as one download, each row naming its `doc`
//! (`chunkscope::export`, as `chunkscope --format csv FILE…` writes them).
//! Lengths are in the configuration's unit; `over` counts chunks longer than
//! its size (a strategy that may exceed it, such as `semantic` or a LangChain
//! one, shows it here). `cuts` counts the cuts between chunks by what made
//! them (`chunkscope::stats::Cuts`; `by_separator` in the list's order): over
//! a corpus it says whether the separator hierarchy does the work or hard
//! cuts do.

use crate::contract::{analyze, Detail, Refusal};
use chunkscope::stats::{Cuts, Lengths};
use chunkscope::{export, Config, Strategy};
use js_sys::{Array, Object, Reflect};
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;

/// The numbers of one document, or of the whole corpus.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    /// Documents counted (1 for a document).
    pub documents: usize,
    /// UTF-8 bytes.
    pub bytes: usize,
    /// Chars (Unicode scalar values).
    pub chars: usize,
    /// Chunks.
    pub chunks: usize,
    /// The shortest chunk's length in the unit (0 without chunks).
    pub min: usize,
    /// The lower median of the chunk lengths: the length at index
    /// `(chunks - 1) / 2` once sorted (0 without chunks).
    pub median: usize,
    /// The longest chunk's length (0 without chunks).
    pub max: usize,
    /// Chunks longer than the configured size.
    pub over: usize,
    /// The cuts between chunks by what made them, summed over documents (a
    /// document's last chunk ends the document, not at a cut).
    pub cuts: Cuts,
}

impl Stats {
    /// The numbers of a text of `bytes` and `chars` cut into chunks of these
    /// `lengths` (min, median and max as [`Lengths`] defines them) at these
    /// `cuts`, for a configured `size`.
    pub fn of(bytes: usize, chars: usize, lengths: &[usize], size: usize, cuts: Cuts) -> Stats {
        let summary = Lengths::of(lengths.iter().copied());
        Stats {
            documents: 1,
            bytes,
            chars,
            chunks: summary.count,
            min: summary.min,
            median: summary.median,
            max: summary.max,
            over: lengths.iter().filter(|&&l| l > size).count(),
            cuts,
        }
    }
}

/// One document's chunks as char ranges into it, its lengths and numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocReport {
    /// Its name (the file's).
    pub name: String,
    /// Its numbers.
    pub stats: Stats,
    /// Each chunk's char range, into this document alone.
    pub chunks: Vec<(usize, usize)>,
}

/// A corpus split under one configuration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CorpusReport {
    /// The documents, in the order given.
    pub documents: Vec<DocReport>,
    /// The whole corpus: sums, and min / median / max over every chunk.
    pub total: Stats,
    /// The export asked for, if any.
    pub export: Option<String>,
}

/// What to write of the chunks besides the numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    /// JSON Lines (`chunkscope::export::jsonl`).
    Jsonl,
    /// CSV under one header (`chunkscope::export::csv_records`).
    Csv,
}

/// Splits every document alone under `config` and sums them up, writing the
/// `export` of every chunk when asked. `docs` yields `(name, text)`: text is
/// read one document at a time, so a large corpus is never held whole. A
/// document the configuration cannot split refuses the corpus, naming it.
pub fn build<I>(docs: I, config: &Config, export: Option<Export>) -> Result<CorpusReport, Refusal>
where
    I: IntoIterator<Item = Result<(String, String), Refusal>>,
{
    let headings = config.kind() == Strategy::Markdown;
    let mut out = export.map(|e| match e {
        Export::Jsonl => String::new(),
        Export::Csv => export::csv_header(headings),
    });
    let mut report = CorpusReport::default();
    let mut all = Vec::new();
    let mut cuts = Cuts::default();
    for doc in docs {
        let (name, text) = doc?;
        let analysis = analyze(&text, config.clone(), Detail::Chunks).map_err(|e| {
            Refusal::new(Some(crate::contract::field_of(&e)), format!("{name}: {e}"))
        })?;
        let lengths: Vec<usize> = analysis.output.chunks.iter().map(|c| c.len).collect();
        all.extend_from_slice(&lengths);
        let chars = text.chars().count();
        let doc_cuts = Cuts::of(
            &text,
            &analysis.output.chunks,
            analysis.engine.separators.len(),
        );
        cuts.add(&doc_cuts);
        let stats = Stats::of(text.len(), chars, &lengths, config.size, doc_cuts);
        if let Some(out) = out.as_mut() {
            let rows = export::rows(&text, &analysis.engine);
            out.push_str(&match export {
                Some(Export::Csv) => export::csv_records(&name, config.unit, &rows, headings),
                _ => export::jsonl(&name, config.unit, &rows),
            });
        }
        report.documents.push(DocReport {
            name,
            stats,
            chunks: analysis.engine.chunk_chars.clone(),
        });
    }
    let (bytes, chars) = report
        .documents
        .iter()
        .fold((0, 0), |(b, c), d| (b + d.stats.bytes, c + d.stats.chars));
    report.total = Stats {
        documents: report.documents.len(),
        ..Stats::of(bytes, chars, &all, config.size, cuts)
    };
    report.export = out;
    Ok(report)
}

fn set(target: &Object, key: &str, value: &JsValue) {
    // Setting a property of a plain object made here cannot fail.
    let _ = Reflect::set(target, &JsValue::from_str(key), value);
}

/// One document's numbers as the worker sends them (serde cannot refuse
/// unknown fields beside a flattened struct; the missing ones it can).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Named {
    /// The document's name.
    pub name: String,
    /// Its numbers.
    #[serde(flatten)]
    pub stats: Stats,
}

/// The corpus answer: the whole corpus, then each document (without the
/// chunks' ranges: the page shows numbers, and a document is split again
/// when shown).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Numbers {
    /// The whole corpus.
    pub total: Stats,
    /// Each document, in the request's order.
    pub documents: Vec<Named>,
}

impl Numbers {
    /// The numbers of a corpus report.
    pub fn of(report: &CorpusReport) -> Numbers {
        Numbers {
            total: report.total.clone(),
            documents: report
                .documents
                .iter()
                .map(|d| Named {
                    name: d.name.clone(),
                    stats: d.stats.clone(),
                })
                .collect(),
        }
    }
}

/// The numbers as the worker sends them.
pub fn numbers_object(numbers: &Numbers) -> JsValue {
    // Cannot fail: every field is a string, a list or a count (`usize`,
    // 32 bits here); were it to, the page says the answer cannot be read.
    numbers
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}

/// Reads the numbers the worker sent; what does not have their shape is an
/// error that says which field, never a zero. It is read as JSON text, so an
/// unknown field is refused too (serde-wasm-bindgen looks up only the fields
/// a struct declares).
pub fn read_numbers(value: &JsValue) -> Result<Numbers, String> {
    let text = js_sys::JSON::stringify(value)
        .ok()
        .and_then(|t| t.as_string())
        .ok_or("it is not JSON data")?;
    serde_json::from_str(&text).map_err(|e| e.to_string())
}

/// A request to split `docs` (Files, or `{ name, text }`) under `config`,
/// with an export when `export` is `"jsonl"` or `"csv"`.
pub fn corpus_request(id: &JsValue, docs: &Array, config: &Config, export: Option<&str>) -> Object {
    let body = Object::new();
    set(&body, "docs", docs);
    set(&body, "config", &crate::message::config_object(config));
    if let Some(format) = export {
        set(&body, "export", &format.into());
    }
    let request = Object::new();
    set(&request, "id", id);
    set(&request, "corpus", &body);
    request
}

/// The worker's side of the corpus request.
#[cfg(feature = "api")]
mod worker {
    use super::*;
    use crate::message::answer::Request;
    use wasm_bindgen::JsCast;

    fn get(target: &JsValue, key: &str) -> JsValue {
        Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    }

    /// Reads the body of `{ corpus: { docs, config, export? } }`. The
    /// documents are read later, one at a time, as they are split.
    pub fn read_request(body: &JsValue) -> Result<Request, Refusal> {
        let config = crate::config_from_js(get(body, "config"))
            .map_err(|e| Refusal::new(Some(e.field), e.message))?;
        let export = match get(body, "export").as_string().as_deref() {
            None => None,
            Some("jsonl") => Some(Export::Jsonl),
            Some("csv") => Some(Export::Csv),
            Some(other) => {
                return Err(Refusal::new(
                    Some("export"),
                    format!("export must be \"jsonl\" or \"csv\", not {other:?}"),
                ))
            }
        };
        let docs = get(body, "docs");
        if !Array::is_array(&docs) {
            return Err(Refusal::new(Some("docs"), "docs must be a list"));
        }
        let docs = Array::from(&docs);
        Ok(Request::Corpus {
            docs: Box::new(docs.into_iter().map(|d| read_doc(&d))),
            config,
            export,
        })
    }

    /// A document's name and text: `{ name, text }`, or a `File` read here.
    fn read_doc(doc: &JsValue) -> Result<(String, String), Refusal> {
        let name = get(doc, "name")
            .as_string()
            .ok_or_else(|| Refusal::new(Some("docs"), "a document's name must be a string"))?;
        if let Some(text) = get(doc, "text").as_string() {
            return Ok((name, text));
        }
        let blob = doc.dyn_ref::<web_sys::Blob>().ok_or_else(|| {
            Refusal::new(Some("docs"), format!("{name}: neither a text nor a file"))
        })?;
        let text = web_sys::FileReaderSync::new()
            .and_then(|r| r.read_as_text(blob))
            .map_err(|_| Refusal::new(Some("docs"), format!("{name} could not be read")))?;
        if text.contains('\0') {
            return Err(Refusal::new(
                Some("docs"),
                format!("{name} does not look like text (it holds NUL bytes)"),
            ));
        }
        Ok((name, text))
    }
}

#[cfg(feature = "api")]
pub use worker::read_request;

// Native only, like proptest (see Cargo.toml); the wasm tests run in the browser.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::{prop, prop_assert, prop_assert_eq, proptest, ProptestConfig};

    fn docs(list: &[(&str, &str)]) -> Vec<Result<(String, String), Refusal>> {
        list.iter()
            .map(|(n, t)| Ok((n.to_string(), t.to_string())))
            .collect()
    }

    #[test]
    fn the_numbers_of_two_documents_and_of_the_corpus() {
        let mut config = Config::for_strategy(Strategy::Fixed);
        config.size = 4;
        config.overlap = 1;
        // "abcdefghij" → abcd defg ghij; "xyz" → xyz.
        let report = build(
            docs(&[("a.txt", "abcdefghij"), ("b.txt", "xyz")]),
            &config,
            None,
        )
        .unwrap();
        assert_eq!(report.documents[0].chunks, vec![(0, 4), (3, 7), (6, 10)]);
        assert_eq!(report.documents[1].chunks, vec![(0, 3)]);
        assert_eq!(
            report.total,
            Stats {
                documents: 2,
                bytes: 13,
                chars: 13,
                chunks: 4,
                min: 3,
                median: 4,
                max: 4,
                over: 0,
                // Four windows, three of them in two documents: two cuts,
                // both inside a word ("d|e", "g|h").
                // (The default list of four separators stays in a fixed
                // configuration, unused.)
                cuts: Cuts {
                    by_separator: vec![0; 4],
                    windows: 2,
                    mid_word: 2,
                    ..Cuts::default()
                },
            }
        );
        assert_eq!(report.documents[1].stats.median, 3);
    }

    #[test]
    fn the_export_names_each_chunks_document() {
        let mut config = Config::for_strategy(Strategy::Fixed);
        config.size = 4;
        config.overlap = 0;
        let list = docs(&[("a.txt", "abcdef"), ("b,c.txt", "xy")]);
        let jsonl = build(list.clone(), &config, Some(Export::Jsonl))
            .unwrap()
            .export
            .unwrap();
        let docs_of: Vec<&str> = jsonl
            .lines()
            .map(|l| &l[8..l[8..].find('"').unwrap() + 8])
            .collect();
        assert_eq!(docs_of, ["a.txt", "a.txt", "b,c.txt"]);
        let csv = build(list, &config, Some(Export::Csv))
            .unwrap()
            .export
            .unwrap();
        let lines: Vec<&str> = csv.split("\r\n").collect();
        assert_eq!(lines[0], "doc,index,text,start,end,len,unit,cut,sha256");
        assert!(lines[1].starts_with("a.txt,0,abcd,0,4,4,chars,"));
        assert!(lines[2].starts_with("a.txt,1,ef,4,6,2,chars,"));
        assert!(lines[3].starts_with("\"b,c.txt\",0,xy,0,2,2,chars,"));
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn a_document_that_cannot_be_split_is_named() {
        let mut config = Config::for_strategy(Strategy::Recursive);
        config.size = 2;
        config.overlap = 0;
        config.unit = chunkscope::Unit::Bytes;
        let refusal = build(
            docs(&[("ok.txt", "ab"), ("emoji.txt", "😀")]),
            &config,
            None,
        )
        .unwrap_err();
        assert!(
            refusal.message.starts_with("emoji.txt: "),
            "{}",
            refusal.message
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// No chunk spans two documents: each document's chunks lie inside
        /// it and are exactly its chunks when split alone, whatever the
        /// documents around it; the corpus numbers are the documents' summed.
        #[test]
        fn no_chunk_spans_two_documents(
            texts in prop::collection::vec("\\PC{0,120}", 1..6),
            strategy in prop::sample::select(vec![Strategy::Fixed, Strategy::Recursive, Strategy::Sentence, Strategy::Markdown]),
            size in 1usize..40,
            overlap_pct in 0usize..50,
        ) {
            let mut config = Config::for_strategy(strategy);
            config.size = size;
            config.overlap = size * overlap_pct / 100;
            let list: Vec<_> = texts
                .iter()
                .enumerate()
                .map(|(i, t)| Ok((format!("d{i}"), t.clone())))
                .collect();
            let Ok(report) = build(list, &config, None) else {
                // Refused only when one document alone is refused.
                prop_assert!(texts.iter().any(|t| analyze(t, config.clone(), Detail::Chunks).is_err()));
                return Ok(());
            };
            prop_assert_eq!(report.documents.len(), texts.len());
            let mut chunks = 0;
            for (doc, text) in report.documents.iter().zip(&texts) {
                let chars = text.chars().count();
                prop_assert_eq!(doc.stats.chars, chars);
                for &(start, end) in &doc.chunks {
                    prop_assert!(start <= end && end <= chars);
                }
                let alone = analyze(text, config.clone(), Detail::Chunks).unwrap();
                prop_assert_eq!(&doc.chunks, &alone.engine.chunk_chars);
                chunks += doc.chunks.len();
            }
            prop_assert_eq!(report.total.chunks, chunks);
            prop_assert_eq!(report.total.chars, texts.iter().map(|t| t.chars().count()).sum::<usize>());
        }
    }
}
