//! `chunkscope._native`: the engine behind the `chunkscope` Python package.
//!
//! The module is deliberately thin: a [`Splitter`] holds a configuration
//! checked and compiled once, and each call hands one `str` to the engine and
//! builds the Python objects of the answer. Everything a Python user sees
//! beyond that (LangChain's classes, `Document`s, argument names and checks)
//! lives in the pure-Python package around it.
//!
//! Invariants:
//! - The text is borrowed, never copied, on the way in (CPython caches a
//!   `str`'s UTF-8 form), and the GIL is released while the engine runs, so
//!   other Python threads (a Dask worker's, say) split at the same time.
//! - Every refusal becomes an exception of `chunkscope.errors`, all
//!   `ValueError`s, with the engine's own message; a refusal that LangChain
//!   raises as another kind (`re.error`, `TypeError`, …) also subclasses that
//!   kind, so `except re.error` around LangChain code keeps working.

#![forbid(unsafe_code)]

use chunkscope::langchain::{
    language_separators, LangChainConfig, LangChainError, MarkdownHeaderConfig, LANGUAGES,
};
use chunkscope::semantic::{
    Breakpoint, Embedder, EmbedderChoice, SemanticConfig, SemanticError, StaticModel, Vector,
};
use chunkscope::tokens::Encoding;
use chunkscope::{
    Detail, Error, Output, Placement, Resources, SemanticSettings, Separator, Settings, Strategy,
    TableHeader, Unit,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyList, PyString, PyTuple};

/// A splitting configuration, checked and compiled once; immutable, so one
/// splitter serves any number of threads.
#[pyclass(frozen, module = "chunkscope._native")]
struct Splitter {
    inner: chunkscope::Splitter,
    /// LangChain's arguments, for a LangChain character strategy:
    /// `split_text` then asks the engine for the strings alone.
    langchain: Option<LangChainConfig>,
    /// The `embedder` argument as given (`None`, `"lexical"` or a file),
    /// for pickling: a loaded model is rebuilt from its file.
    embedder: Option<String>,
}

/// The semantic strategy's arguments as the constructor takes them.
#[derive(Default)]
struct SemanticArgs {
    breakpoint: Option<String>,
    amount: Option<f64>,
    buffer: Option<i64>,
    number_of_chunks: Option<i64>,
    min_chunk_size: Option<i64>,
    embedder: Option<String>,
}

impl SemanticArgs {
    /// The settings given, if any (core refuses them for another strategy,
    /// where they would be ignored without a word).
    fn settings(&self, py: Python<'_>) -> PyResult<Option<SemanticSettings>> {
        let counted = |name, n: Option<i64>| n.map(|n| count(py, name, n)).transpose();
        Ok(SemanticSettings {
            breakpoint: self
                .breakpoint
                .as_deref()
                .map(str::parse::<Breakpoint>)
                .transpose()
                .map_err(|m| config_error(py, m))?,
            amount: self.amount,
            buffer: counted("buffer", self.buffer)?,
            number_of_chunks: counted("number_of_chunks", self.number_of_chunks)?,
            min_chunk_size: counted("min_chunk_size", self.min_chunk_size)?,
            embedder: self.embedder.clone(),
        }
        .given())
    }
}

/// A static model read from a GloVe/fastText text file, outside the GIL.
fn load_model(py: Python<'_>, path: &str) -> Result<StaticModel, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("embedder: cannot read the model {path}: {e}"))?;
    let name = std::path::Path::new(path)
        .file_name()
        .map_or(path.into(), |n| n.to_string_lossy());
    let model = py
        .detach(|| StaticModel::from_text(&name, &bytes))
        .map_err(|e| format!("embedder {path}: {e}"))?;
    Ok(model)
}

/// What `config`'s names resolve to: every tokenizer (built from tiktoken's
/// tables when first counted in), and the `embedder` file read from disk,
/// held under the path it was named by.
fn resources(py: Python<'_>, config: &chunkscope::Config) -> Result<Resources, String> {
    let mut resources = Resources::tiktoken();
    if let Some(EmbedderChoice::Named(path)) = config.semantic_config().map(|s| &s.embedder) {
        let model = load_model(py, path)?;
        resources
            .add_embedder(path.clone(), std::sync::Arc::new(model))
            .map_err(|e| e.to_string())?;
    }
    Ok(resources)
}

#[pymethods]
impl Splitter {
    /// Checks the configuration (names, numbers, regexes, the token tables) and
    /// compiles it. `separators=None` and `placement=None` take the
    /// strategy's defaults: ours for `fixed`/`recursive`, LangChain's for its
    /// two classes (an empty list stands for LangChain's default separators).
    ///
    /// `each_line` is `return_each_line` and `then_recursive` the separators
    /// of the `RecursiveCharacterTextSplitter` that LangChain's docs run on
    /// each section (an empty list: its default list; regexes when `regex`)
    /// (`langchain-markdown` only),
    /// `heading_prefix` starts each chunk's count with its heading path and
    /// `table_header` (`"once"` or `"repeat"`) says whether each chunk of a
    /// cut table's rows starts with its header rows (`markdown` only), and `breakpoint`, `amount`, `buffer`,
    /// `number_of_chunks`, `min_chunk_size` and `embedder` (`"lexical"`, or
    /// a GloVe/fastText text file) are `SemanticChunker`'s (`semantic` only),
    /// and `min_characters_per_chunk` is `RecursiveChunker`'s
    /// (`chonkie-recursive` only: splits shorter than this many UTF-8 bytes
    /// are joined to a neighbour; `None` is chonkie's 24, and 0 is refused
    /// with chonkie's own `ValueError` message).
    #[new]
    #[pyo3(signature = (
        strategy="recursive", size=1000, overlap=0, separators=None, unit="chars",
        placement=None, trim=true, regex=false, each_line=false, heading_prefix=false,
        breakpoint=None, amount=None, buffer=None, number_of_chunks=None,
        min_chunk_size=None, embedder=None, then_recursive=None, table_header=None,
        min_characters_per_chunk=None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        strategy: &str,
        size: i64,
        overlap: i64,
        separators: Option<Vec<String>>,
        unit: &str,
        placement: Option<&str>,
        trim: bool,
        regex: bool,
        each_line: bool,
        heading_prefix: bool,
        breakpoint: Option<String>,
        amount: Option<f64>,
        buffer: Option<i64>,
        number_of_chunks: Option<i64>,
        min_chunk_size: Option<i64>,
        embedder: Option<String>,
        then_recursive: Option<Vec<String>>,
        table_header: Option<&str>,
        min_characters_per_chunk: Option<i64>,
    ) -> PyResult<Splitter> {
        let strategy: Strategy = strategy.parse().map_err(|m| config_error(py, m))?;
        // With the recipe, `regex` is about the recursive splitter's
        // separators; header markers are never regexes.
        let then_regex = regex && then_recursive.is_some();
        let then_recursive = then_recursive.map(|list| {
            list.into_iter()
                .map(|s| {
                    if then_regex {
                        Separator::regex(s)
                    } else {
                        Separator::literal(s)
                    }
                })
                .collect()
        });
        let semantic = SemanticArgs {
            breakpoint,
            amount,
            buffer,
            number_of_chunks,
            min_chunk_size,
            embedder: embedder.clone(),
        }
        .settings(py)?;
        let settings = Settings {
            strategy: Some(strategy),
            size: Some(count(py, "size", size)?),
            overlap: Some(count(py, "overlap", overlap)?),
            unit: Some(unit.parse::<Unit>().map_err(|m| config_error(py, m))?),
            separators: separators.map(|list| {
                list.into_iter()
                    .map(|s| {
                        if regex && !then_regex {
                            Separator::regex(s)
                        } else {
                            Separator::literal(s)
                        }
                    })
                    .collect()
            }),
            placement: placement
                .map(str::parse::<Placement>)
                .transpose()
                .map_err(|m| config_error(py, m))?,
            trim: Some(trim),
            each_line: each_line.then_some(true),
            then_recursive,
            heading_prefix: heading_prefix.then_some(true),
            table_header: table_header
                .map(str::parse::<TableHeader>)
                .transpose()
                .map_err(|m| config_error(py, m))?,
            semantic,
            min_characters_per_chunk: min_characters_per_chunk
                .map(|n| count(py, "min_characters_per_chunk", n))
                .transpose()?,
        };
        let config = settings
            .resolve()
            .map_err(|e| config_error(py, e.message))?;
        let resources = resources(py, &config).map_err(|m| config_error(py, m))?;
        // Token tables load here, once per process, outside the GIL.
        let inner = py
            .detach(|| chunkscope::Splitter::new(config, &resources))
            .map_err(|e| engine_error(py, &e))?;
        let langchain = match strategy.langchain() {
            Some(kind) => Some(
                LangChainConfig::from_config(kind, inner.config())
                    .map_err(|e| engine_error(py, &Error::LangChain(e)))?,
            ),
            None => None,
        };
        Ok(Splitter {
            inner,
            langchain,
            embedder,
        })
    }

    /// The chunks' texts, as LangChain's `split_text` returns them (for a
    /// LangChain strategy, exactly LangChain's strings), and its warnings.
    fn split_text<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
    ) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyList>)> {
        if let Some(config) = &self.langchain {
            let source = utf8(py, text)?;
            let (texts, warnings) = py
                .detach(|| {
                    chunkscope::langchain::split_texts(source, config, &Resources::tiktoken())
                })
                .map_err(|e| engine_error(py, &Error::LangChain(e)))?;
            let texts = PyList::new(py, texts.iter().map(|t| t.as_ref()))?;
            return Ok((texts, PyList::new(py, warnings)?));
        }
        let (output, source) = self.untraced(py, text)?;
        let texts = PyList::new(py, chunk_texts(source, &output))?;
        Ok((texts, warnings(py, &output)?))
    }

    /// The chunks' texts, the library's own `start_index` of each (what
    /// LangChain's `add_start_index=True` stores, Chonkie's `start_index`),
    /// and LangChain's warnings. Where the library gives none, or the
    /// strategy is ours, the start index is the chunk's real char offset.
    fn split_indexed<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let (output, source) = self.untraced(py, text)?;
        let texts = PyList::new(py, chunk_texts(source, &output))?;
        let mut index = chunkscope::CharCursor::new(source);
        let facts = output.library.as_ref();
        let starts: Vec<i64> = output
            .chunks
            .iter()
            .enumerate()
            .map(|(i, c)| {
                facts
                    .and_then(|f| f.get(i)?.start_index)
                    .unwrap_or_else(|| index.char_offset(c.span.start) as i64)
            })
            .collect();
        (texts, PyList::new(py, starts)?, warnings(py, &output)?).into_pyobject(py)
    }

    /// The report the CLI prints as JSON, as Python dicts and lists:
    /// `{"chunks": [...]}`, and with `trace=True` also `trace`, `checks`
    /// (the determinism re-run included), `config` and, for a LangChain
    /// strategy, `langchain`.
    #[pyo3(signature = (text, trace=false))]
    fn split<'py>(
        &self,
        py: Python<'py>,
        text: &Bound<'py, PyString>,
        trace: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let source = utf8(py, text)?;
        let detail = if trace {
            Detail::FULL.with_determinism(true)
        } else {
            Detail::CHUNKS
        };
        let report = py
            .detach(|| self.inner.report(source, detail))
            .map_err(|e| engine_error(py, &e))?;
        Ok(pythonize::pythonize(py, &report)?)
    }

    /// The configuration, in the names the constructor takes.
    #[getter]
    fn config<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let c = self.inner.config();
        let separators: Vec<&str> = c.separators.iter().map(|s| s.pattern.as_str()).collect();
        let dict = pyo3::types::PyDict::new(py);
        dict.set_item("strategy", c.kind().name())?;
        dict.set_item("size", c.size)?;
        dict.set_item("overlap", c.overlap)?;
        dict.set_item("separators", separators)?;
        dict.set_item("unit", c.unit.name())?;
        dict.set_item("placement", c.placement.name())?;
        dict.set_item("trim", c.trim)?;
        let then_recursive = c.header_split_config().map(|h| &h.then_recursive);
        let regex = c
            .separators
            .iter()
            .chain(then_recursive.into_iter().flatten().flatten())
            .any(|s| s.regex);
        dict.set_item("regex", regex)?;
        // The settings of one strategy only with that strategy.
        if let Some(own) = c.header_split_config() {
            let then: Option<Vec<&str>> = own
                .then_recursive
                .as_ref()
                .map(|list| list.iter().map(|s| s.pattern.as_str()).collect());
            dict.set_item("each_line", own.each_line)?;
            dict.set_item("then_recursive", then)?;
        }
        if let Some(own) = c.markdown_config() {
            dict.set_item("heading_prefix", own.heading_prefix)?;
            dict.set_item("table_header", own.table_header.name())?;
        }
        if let Some(s) = c.semantic_config() {
            dict.set_item("breakpoint", s.breakpoint.name())?;
            dict.set_item("amount", s.amount)?;
            dict.set_item("buffer", s.buffer)?;
            dict.set_item("number_of_chunks", s.number_of_chunks)?;
            dict.set_item("min_chunk_size", s.min_chunk_size)?;
            dict.set_item("embedder", self.embedder.as_deref())?;
        }
        if let Some(own) = c.chonkie_config() {
            dict.set_item("min_characters_per_chunk", own.min_characters_per_chunk)?;
        }
        Ok(dict.into_any())
    }

    /// Pickles as its configuration, so a splitter can be sent to other
    /// processes (a Dask cluster's workers) and rebuilt there.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let config = slf.get().config(py)?;
        // A setting the configuration does not list takes its default.
        let get = |name: &str| -> PyResult<Bound<'py, PyAny>> {
            match config.get_item(name) {
                Ok(value) => Ok(value),
                Err(_) if name == "each_line" || name == "heading_prefix" => {
                    Ok(false.into_pyobject(py)?.to_owned().into_any())
                }
                Err(_) => Ok(py.None().into_bound(py)),
            }
        };
        let args = PyTuple::new(
            py,
            [
                "strategy",
                "size",
                "overlap",
                "separators",
                "unit",
                "placement",
                "trim",
                "regex",
                "each_line",
                "heading_prefix",
                "breakpoint",
                "amount",
                "buffer",
                "number_of_chunks",
                "min_chunk_size",
                "embedder",
                "then_recursive",
                "table_header",
                "min_characters_per_chunk",
            ]
            .map(get)
            .into_iter()
            .collect::<PyResult<Vec<_>>>()?,
        )?;
        (slf.get_type(), args).into_pyobject(py)
    }

    fn __repr__(&self) -> String {
        let c = self.inner.config();
        let separators: Vec<String> = c
            .separators
            .iter()
            .map(|s| chunkscope::langchain::python_str(&s.pattern))
            .collect();
        format!(
            "Splitter(strategy={:?}, size={}, overlap={}, separators=[{}], unit={:?}, placement={:?}, trim={}, regex={})",
            c.kind().name(),
            c.size,
            c.overlap,
            separators.join(", "),
            c.unit.name(),
            c.placement.name(),
            if c.trim { "True" } else { "False" },
            if c.separators.iter().any(|s| s.regex) { "True" } else { "False" },
        )
    }
}

impl Splitter {
    /// Splits without a trace, outside the GIL; the `&str` borrows the
    /// Python string, which the caller keeps alive.
    fn untraced<'a>(
        &self,
        py: Python<'_>,
        text: &'a Bound<'_, PyString>,
    ) -> PyResult<(Output, &'a str)> {
        let source = utf8(py, text)?;
        let output = py
            .detach(|| self.inner.split_untraced(source))
            .map_err(|e| engine_error(py, &e))?;
        Ok((output, source))
    }
}

/// Each chunk's text: the source slice, or the library's own string where it
/// is not one.
fn chunk_texts<'a>(source: &'a str, output: &'a Output) -> impl ExactSizeIterator<Item = &'a str> {
    (0..output.chunks.len()).map(move |i| output.chunk_text(i, source))
}

fn warnings<'py>(py: Python<'py>, output: &Output) -> PyResult<Bound<'py, PyList>> {
    let empty: &[String] = &[];
    let list = output.langchain.as_ref().map_or(empty, |l| &l.warnings);
    PyList::new(py, list)
}

/// `MarkdownHeaderTextSplitter(headers_to_split_on, return_each_line,
/// strip_headers).split_text(text)`: each chunk's text (LangChain's string)
/// and its metadata as a dict in LangChain's key order.
#[pyfunction]
#[pyo3(signature = (text, headers, return_each_line=false, strip_headers=true))]
fn markdown_header_split<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyString>,
    headers: Vec<(String, String)>,
    return_each_line: bool,
    strip_headers: bool,
) -> PyResult<Bound<'py, PyList>> {
    let source = utf8(py, text)?;
    let config = MarkdownHeaderConfig {
        headers,
        return_each_line,
        strip_headers,
    };
    let chunks = py.detach(|| chunkscope::langchain::markdown_chunks(source, &config));
    let list = PyList::empty(py);
    for chunk in &chunks {
        let metadata = pyo3::types::PyDict::new(py);
        for (key, value) in chunk.metadata.iter().flatten() {
            metadata.set_item(key, value)?;
        }
        list.append((PyString::new(py, &chunk.text), metadata))?;
    }
    Ok(list)
}

/// The `embeddings.embed_documents` of a LangChain `SemanticChunker`, as
/// the engine's embedder: called once per split, with the GIL, and any
/// exception it raises kept to be raised again as it was.
struct PythonEmbedder {
    embed: Py<PyAny>,
    raised: std::sync::Mutex<Option<PyErr>>,
}

impl std::fmt::Debug for PythonEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PythonEmbedder")
    }
}

impl Embedder for PythonEmbedder {
    fn name(&self) -> String {
        "embed_documents".into()
    }

    fn embed(&self, texts: &[String]) -> Result<Vec<Vector>, Error> {
        Python::attach(|py| {
            let answer = self
                .embed
                .bind(py)
                .call1((PyList::new(py, texts)?,))
                .and_then(|v| v.extract::<Vec<Vec<f64>>>());
            answer.map(|rows| rows.into_iter().map(Vector::Dense).collect())
        })
        .map_err(|e: PyErr| {
            let reason = e.to_string();
            if let Ok(mut slot) = self.raised.lock() {
                *slot = Some(e);
            }
            Error::Semantic(SemanticError::Embedder { reason })
        })
    }
}

/// `SemanticChunker(embeddings, ...).split_text(text)` (langchain-experimental
/// 0.4.2): LangChain's chunk strings, with `embed` (the chunker's
/// `embeddings.embed_documents`) called once with the sentence groups, or
/// not at all where LangChain does not call it (one sentence; two with the
/// gradient threshold). An exception `embed` raises comes out unchanged.
#[pyfunction]
#[pyo3(signature = (text, embed, breakpoint="percentile", amount=None, buffer=1, number_of_chunks=None, min_chunk_size=None))]
#[allow(clippy::too_many_arguments)]
fn semantic_split_text<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyString>,
    embed: Py<PyAny>,
    breakpoint: &str,
    amount: Option<f64>,
    buffer: i64,
    number_of_chunks: Option<i64>,
    min_chunk_size: Option<i64>,
) -> PyResult<Bound<'py, PyList>> {
    let source = utf8(py, text)?;
    let embedder = std::sync::Arc::new(PythonEmbedder {
        embed,
        raised: std::sync::Mutex::new(None),
    });
    let mut settings = SemanticConfig::new();
    settings.breakpoint = breakpoint
        .parse::<Breakpoint>()
        .map_err(|m| config_error(py, m))?;
    settings.amount = amount;
    settings.buffer = count(py, "buffer_size", buffer)?;
    settings.number_of_chunks = number_of_chunks
        .map(|n| count(py, "number_of_chunks", n))
        .transpose()?;
    settings.min_chunk_size = min_chunk_size
        .map(|n| count(py, "min_chunk_size", n))
        .transpose()?;
    settings.embedder = EmbedderChoice::named("embed_documents");
    match chunkscope::semantic::langchain_chunks(source, &settings, embedder.as_ref()) {
        Ok(trace) => PyList::new(py, trace.chunks.iter().map(|c| c.langchain_text(source))),
        Err(e) => {
            let raised = embedder.raised.lock().ok().and_then(|mut r| r.take());
            Err(raised.unwrap_or_else(|| engine_error(py, &e)))
        }
    }
}

/// How many tokens `text` takes in `encoding` (`"cl100k_base"`,
/// `"o200k_base"`, or the short names), as tiktoken's `encode` counts them
/// with its defaults: a special token such as `<|endoftext|>` is refused, as
/// tiktoken refuses it.
#[pyfunction]
fn count_tokens(py: Python<'_>, encoding: &str, text: &Bound<'_, PyString>) -> PyResult<usize> {
    let encoding = encoding_named(py, encoding)?;
    let source = utf8(py, text)?;
    if let Some(token) = encoding
        .special_tokens()
        .iter()
        .find(|t| source.contains(**t))
    {
        let e = Error::LangChain(LangChainError::DisallowedSpecialToken { token });
        return Err(engine_error(py, &e));
    }
    let tokenizer = py
        .detach(|| chunkscope::tokens::Tokenizer::shared(encoding))
        .map_err(|e| config_error(py, e.to_string()))?;
    Ok(py.detach(|| tokenizer.count(source)))
}

/// The short name of a tiktoken encoding (`"cl100k_base"` -> `"cl100k"`), or
/// an error naming the ones chunkscope has.
#[pyfunction]
fn encoding_unit(py: Python<'_>, name: &str) -> PyResult<&'static str> {
    encoding_named(py, name).map(Encoding::name)
}

fn encoding_named(py: Python<'_>, name: &str) -> PyResult<Encoding> {
    Encoding::ALL
        .into_iter()
        .find(|e| e.python_name() == name || e.name() == name)
        .ok_or_else(|| {
            config_error(
                py,
                format!(
                    "encoding {name:?} is not one chunkscope counts in: use \"cl100k_base\" (GPT-4, GPT-3.5) or \"o200k_base\" (GPT-4o and later)"
                ),
            )
        })
}

/// LangChain's separators for a language (`RecursiveCharacterTextSplitter.
/// get_separators_for_language`), or `None` for a language LangChain does not
/// implement.
#[pyfunction]
fn separators_for_language(name: &str) -> Option<Vec<String>> {
    language_separators(name).map(|(separators, _regex)| separators)
}

/// The text as UTF-8. A Python `str` may hold lone surrogates, which are not
/// Unicode text and have no UTF-8 form; they are refused with their position.
fn utf8<'a>(py: Python<'_>, text: &'a Bound<'_, PyString>) -> PyResult<&'a str> {
    text.to_str().map_err(|e| {
        // The UnicodeEncodeError says where, in code points.
        let at: usize = e
            .value(py)
            .getattr("start")
            .and_then(|v| v.extract())
            .unwrap_or_default();
        config_error(
            py,
            format!(
                "the text holds a lone surrogate at position {at}, which is not Unicode text (it has no UTF-8 form): decode the source with errors=\"replace\" or fix it first"
            ),
        )
    })
}

/// A count of units: at least 0, and within the machine's reach.
fn count(py: Python<'_>, name: &str, value: i64) -> PyResult<usize> {
    usize::try_from(value).map_err(|_| {
        config_error(
            py,
            format!("{name} must be a whole number of units from 0 up, got {value}"),
        )
    })
}

/// The kinds of `chunkscope.errors`, named as `errors._make` takes them.
enum Kind {
    Config,
    Regex {
        pattern: String,
        position: Option<usize>,
    },
    Unsupported,
    TooDeep,
    Crash(&'static str),
}

fn kind_of(e: &Error) -> Kind {
    match e {
        Error::InvalidRegex { pattern, .. } => Kind::Regex {
            pattern: pattern.clone(),
            position: None,
        },
        Error::LangChain(LangChainError::InvalidRegex {
            pattern, position, ..
        }) => Kind::Regex {
            pattern: pattern.clone(),
            position: *position,
        },
        Error::LangChain(
            LangChainError::UnsupportedRegex { .. } | LangChainError::RegexTooComplex { .. },
        ) => Kind::Unsupported,
        Error::LangChain(LangChainError::TooDeep { .. }) => Kind::TooDeep,
        Error::LangChain(LangChainError::LangChainCrash { exception, .. }) => {
            Kind::Crash(exception)
        }
        _ => Kind::Config,
    }
}

fn config_error(py: Python<'_>, message: impl Into<String>) -> PyErr {
    make_error(py, Kind::Config, message.into(), None)
}

fn engine_error(py: Python<'_>, e: &Error) -> PyErr {
    let langchain = match e {
        Error::LangChain(e) => e.langchain_exception(),
        _ => None,
    };
    make_error(py, kind_of(e), e.to_string(), langchain)
}

/// Builds the exception through `chunkscope.errors._make`, where the classes
/// live (they subclass Python classes such as `re.error`). Should that module
/// be missing, the message still arrives, as a plain `ValueError`.
/// `langchain` is what LangChain raises on the same input (the exception's
/// `langchain` attribute), when it does.
fn make_error(
    py: Python<'_>,
    kind: Kind,
    message: String,
    langchain: Option<(&'static str, String)>,
) -> PyErr {
    static MAKE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let made = MAKE
        .get_or_try_init(py, || {
            py.import("chunkscope.errors")
                .and_then(|m| m.getattr("_make"))
                .map(Bound::unbind)
        })
        .and_then(|make| {
            let make = make.bind(py);
            match kind {
                Kind::Config => make.call1(("config", message.clone(), langchain.clone())),
                Kind::Unsupported => {
                    make.call1(("unsupported", message.clone(), langchain.clone()))
                }
                Kind::TooDeep => make.call1(("too_deep", message.clone(), langchain.clone())),
                Kind::Crash(exception) => {
                    make.call1(("crash", message.clone(), langchain.clone(), exception))
                }
                Kind::Regex { pattern, position } => make.call1((
                    "regex",
                    message.clone(),
                    langchain.clone(),
                    pattern,
                    position,
                )),
            }
        });
    match made {
        Ok(exception) => PyErr::from_value(exception),
        Err(_) => PyValueError::new_err(message),
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Splitter>()?;
    m.add_function(wrap_pyfunction!(count_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(markdown_header_split, m)?)?;
    m.add_function(wrap_pyfunction!(semantic_split_text, m)?)?;
    m.add_function(wrap_pyfunction!(encoding_unit, m)?)?;
    m.add_function(wrap_pyfunction!(separators_for_language, m)?)?;
    m.add("LANGUAGES", LANGUAGES.to_vec())?;
    m.add("STRATEGIES", Strategy::ALL.map(Strategy::name).to_vec())?;
    m.add("UNITS", Unit::ALL.map(Unit::name).to_vec())?;
    m.add(
        "PLACEMENTS",
        [Placement::End, Placement::Start, Placement::None]
            .map(Placement::name)
            .to_vec(),
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
