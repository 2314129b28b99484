//! LangChain's `RecursiveCharacterTextSplitter` and `CharacterTextSplitter`,
//! reproduced exactly (`langchain-text-splitters` 1.1.3), and traced.
//!
//! Most people meet chunking through LangChain, so the playground shows what
//! LangChain *really* returns, quirks included, next to where each chunk comes
//! from in the source:
//!
//! - a chunk's [`text`](LangChainChunk::text) is exactly LangChain's string. It
//!   is usually a slice of the source, but not always: with
//!   `keep_separator=False` and a regex separator, LangChain joins the pieces
//!   with the *pattern text* (`"a\\s+b"`), and empty pieces it dropped are not
//!   put back. [`is_slice`](LangChainChunk::is_slice) says which case it is;
//!   [`span`](LangChainChunk::span) is where the chunk's text really comes
//!   from either way;
//! - [`start_index`](LangChainChunk::start_index) is what `add_start_index=True`
//!   stores: LangChain *searches* for the chunk text with `str.find`, from a
//!   guessed offset, so on repeated text it can land on the wrong repeat (or
//!   give -1). Shown beside the exact span, the difference is visible;
//! - lengths are measured before stripping, a piece is split further only when
//!   it is not *strictly* shorter than `chunk_size`, overlap is carried only
//!   within one merge run, and oversized pieces pass through (with LangChain's
//!   warning, recorded in [`warnings`](LangChainOutput::warnings)).
//!
//! Regex separators use Python's `re` syntax and semantics (see
//! [`PythonRegex`]), so lookbehind separators and the `from_language` lists
//! work as they do in Python.
//!
//! # Example
//!
//! ```
//! use chunkscope::langchain::{self, LangChainConfig};
//!
//! // LangChain's own first test: CharacterTextSplitter(separator=" ",
//! // chunk_size=7, chunk_overlap=3).
//! let config = LangChainConfig::character(7, 3).with_separators([" "]);
//! let out = langchain::split("foo bar baz 123", &config, &chunkscope::Resources::new())?;
//! let texts: Vec<&str> = out.chunks.iter().map(|c| c.text.as_str()).collect();
//! assert_eq!(texts, ["foo bar", "bar baz", "baz 123"]);
//! let starts: Vec<Option<i64>> = out.chunks.iter().map(|c| c.start_index).collect();
//! assert_eq!(starts, [Some(0), Some(4), Some(8)]);
//!
//! // On repeated text, LangChain's start_index can find an earlier copy:
//! // the second "ab" starts at 3, but LangChain searches from 0 + 2 - 2.
//! let out = langchain::split("ab ab", &LangChainConfig::recursive(4, 2), &chunkscope::Resources::new())?;
//! let got: Vec<(&str, usize, Option<i64>)> = out
//!     .chunks
//!     .iter()
//!     .map(|c| (c.text.as_str(), c.span.start, c.start_index))
//!     .collect();
//! assert_eq!(got, [("ab", 0, Some(0)), ("ab", 3, Some(0))]);
//!
//! // A regex separator with keep_separator=False: LangChain glues the pieces
//! // back together with the pattern text, so the chunk is not in the source.
//! let config = LangChainConfig::recursive(20, 0)
//!     .with_separators([r"\s+"])
//!     .with_regex(true)
//!     .with_keep(langchain::Keep::None);
//! let out = langchain::split("one  two", &config, &chunkscope::Resources::new())?;
//! assert_eq!(out.chunks[0].text, r"one\s+two");
//! assert!(!out.chunks[0].is_slice);
//! assert_eq!(out.chunks[0].not_slice, Some(langchain::NotSlice::PatternJoined { separator: 0 }));
//! assert_eq!(out.chunks[0].span.text("one  two"), "one  two");
//!
//! // CharacterTextSplitter joins a lookaround pattern back with nothing instead.
//! let config = LangChainConfig::character(12, 0)
//!     .with_separators([r"(?<=\.) "])
//!     .with_regex(true);
//! let out = langchain::split("One. Two.", &config, &chunkscope::Resources::new())?;
//! assert_eq!(out.chunks[0].text, "One.Two.");
//! assert_eq!(out.chunks[0].not_slice, Some(langchain::NotSlice::JoinedWithNothing { separator: 0 }));
//! # Ok::<(), chunkscope::langchain::LangChainError>(())
//! ```

mod engine;
mod markdown;
mod recipe;

pub use crate::error::langchain::LangChainError;
pub use crate::presets::languages::{language_separators, LANGUAGES};
pub use crate::strategy::Kind;
pub use crate::trace::NotSlice;
pub use chunkscope_pyre::{PythonRegex, PythonRegexError, UNICODE_VERSION};
pub(crate) use markdown::run as run_markdown;
pub use markdown::{header_name, MarkdownHeaderConfig};
pub(crate) use recipe::run as run_recipe;
pub use recipe::MarkdownRecipe;

use crate::config::Config;
use crate::engine::EngineOutput;
use crate::resources::Resources;
use crate::separator::Placement;
use crate::span::Span;
use crate::trace::{Chunk, Cut, LangChainFacts, LibraryFact, NodeId, Output, Trace};
use crate::unit::{Counter, Unit};

/// LangChain's `keep_separator`: where a separator goes when the text is cut
/// at it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Keep {
    /// `False`: dropped, and put back as text between merged pieces.
    None,
    /// `True` or `"start"`: at the start of the piece after the cut
    /// (`RecursiveCharacterTextSplitter`'s default).
    #[default]
    Start,
    /// `"end"`: at the end of the piece before the cut.
    End,
}

impl Keep {
    /// The Python value.
    pub const fn python(self) -> &'static str {
        match self {
            Keep::None => "False",
            Keep::Start => "\"start\"",
            Keep::End => "\"end\"",
        }
    }
}

impl From<Placement> for Keep {
    fn from(p: Placement) -> Keep {
        match p {
            Placement::None => Keep::None,
            Placement::Start => Keep::Start,
            Placement::End => Keep::End,
        }
    }
}

/// LangChain's separators when none are given
/// (`RecursiveCharacterTextSplitter`'s `separators or [...]`).
pub const DEFAULT_SEPARATORS: [&str; 4] = ["\n\n", "\n", " ", ""];

/// `CharacterTextSplitter`'s default separator.
pub const DEFAULT_CHARACTER_SEPARATOR: &str = "\n\n";

/// A LangChain splitter's arguments. Plain data, checked when a split is made.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LangChainConfig {
    /// Which class.
    pub kind: Kind,
    /// `chunk_size`, in `unit`.
    pub chunk_size: usize,
    /// `chunk_overlap`, in `unit`. LangChain allows it to equal `chunk_size`.
    pub chunk_overlap: usize,
    /// `separators` for [`Kind::Recursive`] (an empty list means LangChain's
    /// default, as `separators or [...]` does); for [`Kind::Character`] the
    /// first entry is `separator` (empty list: `"\n\n"`), the rest is unused.
    pub separators: Vec<String>,
    /// `keep_separator`.
    pub keep_separator: Keep,
    /// `is_separator_regex`: the separators are Python regular expressions.
    pub is_separator_regex: bool,
    /// `strip_whitespace`: merged chunks are `str.strip()`ped.
    pub strip_whitespace: bool,
    /// The `length_function`: chars is Python's `len`, bytes is
    /// `len(s.encode("utf-8"))`.
    pub unit: Unit,
}

impl LangChainConfig {
    /// `RecursiveCharacterTextSplitter(chunk_size=…, chunk_overlap=…)` with
    /// LangChain's defaults (default separators, `keep_separator=True`).
    pub fn recursive(chunk_size: usize, chunk_overlap: usize) -> LangChainConfig {
        LangChainConfig {
            kind: Kind::Recursive,
            chunk_size,
            chunk_overlap,
            separators: Vec::new(),
            keep_separator: Keep::Start,
            is_separator_regex: false,
            strip_whitespace: true,
            unit: Unit::Chars,
        }
    }

    /// `CharacterTextSplitter(chunk_size=…, chunk_overlap=…)` with LangChain's
    /// defaults (`separator="\n\n"`, `keep_separator=False`).
    pub fn character(chunk_size: usize, chunk_overlap: usize) -> LangChainConfig {
        LangChainConfig {
            kind: Kind::Character,
            separators: vec![DEFAULT_CHARACTER_SEPARATOR.to_string()],
            keep_separator: Keep::None,
            ..LangChainConfig::recursive(chunk_size, chunk_overlap)
        }
    }

    /// `RecursiveCharacterTextSplitter.from_language(language, …)`: the
    /// language's separators, as regular expressions. `None` for a language
    /// LangChain does not implement.
    pub fn from_language(
        language: &str,
        chunk_size: usize,
        chunk_overlap: usize,
    ) -> Option<LangChainConfig> {
        let (separators, regex) = language_separators(language)?;
        Some(LangChainConfig {
            separators,
            is_separator_regex: regex,
            ..LangChainConfig::recursive(chunk_size, chunk_overlap)
        })
    }

    /// Maps the playground's [`Config`] onto LangChain's arguments: size,
    /// overlap, unit, separators (their patterns), placement (as
    /// `keep_separator`) and trim (as `strip_whitespace`). LangChain has one
    /// `is_separator_regex` flag for the whole list, so the separators must
    /// be all regexes or all literals (`""` goes with either).
    pub fn from_config(kind: Kind, config: &Config) -> Result<LangChainConfig, LangChainError> {
        let regex = config
            .separators
            .iter()
            .filter(|s| !s.is_hard_cut())
            .any(|s| s.regex);
        if config
            .separators
            .iter()
            .any(|s| !s.is_hard_cut() && s.regex != regex)
        {
            return Err(LangChainError::MixedSeparators);
        }
        Ok(LangChainConfig {
            kind,
            chunk_size: config.size,
            chunk_overlap: config.overlap,
            separators: config
                .separators
                .iter()
                .map(|s| s.pattern.clone())
                .collect(),
            keep_separator: config.placement.into(),
            is_separator_regex: regex,
            strip_whitespace: config.trim,
            unit: config.unit,
        })
    }

    /// The same configuration with these separators.
    pub fn with_separators<I, S>(mut self, separators: I) -> LangChainConfig
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.separators = separators.into_iter().map(Into::into).collect();
        self
    }

    /// The same configuration with this `keep_separator`.
    pub fn with_keep(mut self, keep: Keep) -> LangChainConfig {
        self.keep_separator = keep;
        self
    }

    /// The same configuration with `is_separator_regex` set.
    pub fn with_regex(mut self, regex: bool) -> LangChainConfig {
        self.is_separator_regex = regex;
        self
    }

    /// The same configuration with `strip_whitespace` set.
    pub fn with_strip(mut self, strip: bool) -> LangChainConfig {
        self.strip_whitespace = strip;
        self
    }

    /// The same configuration counting in `unit`.
    pub fn with_unit(mut self, unit: Unit) -> LangChainConfig {
        self.unit = unit;
        self
    }

    /// The separators LangChain will actually use, which the indices in
    /// [`Cut::Separator`] and in the trace refer to: the default list when
    /// `separators` is empty ([`Kind::Recursive`]), or the one separator
    /// ([`Kind::Character`]).
    pub fn effective_separators(&self) -> Vec<String> {
        match self.kind {
            Kind::Recursive if self.separators.is_empty() => {
                DEFAULT_SEPARATORS.iter().map(|s| s.to_string()).collect()
            }
            Kind::Recursive => self.separators.clone(),
            Kind::Character => vec![self
                .separators
                .first()
                .cloned()
                .unwrap_or_else(|| DEFAULT_CHARACTER_SEPARATOR.to_string())],
        }
    }

    /// LangChain's constructor checks: `chunk_size > 0` and
    /// `chunk_overlap <= chunk_size`. Regex separators are checked when they
    /// are used, as in Python (a bad pattern that is never reached is no
    /// error there either).
    pub fn validate(&self) -> Result<(), LangChainError> {
        if self.chunk_size == 0 {
            return Err(LangChainError::ZeroSize);
        }
        if self.chunk_overlap > self.chunk_size {
            return Err(LangChainError::OverlapLargerThanSize {
                overlap: self.chunk_overlap,
                size: self.chunk_size,
            });
        }
        Ok(())
    }

    /// Python code that builds this splitter and splits `text` with it,
    /// giving the same chunks and start indices.
    pub fn to_python(&self) -> String {
        let mut out = String::from("from langchain_text_splitters import ");
        out.push_str(self.kind.class_name());
        out.push_str("\n\nsplitter = ");
        out.push_str(self.kind.class_name());
        match self.unit {
            // LangChain's own way to count tokens: len(encoding.encode(text)).
            Unit::Tokens(encoding) => out.push_str(&format!(
                ".from_tiktoken_encoder(\n    encoding_name=\"{}\",\n",
                encoding.python_name()
            )),
            Unit::Chars | Unit::Bytes => out.push_str("(\n"),
        }
        match self.kind {
            Kind::Recursive => {
                let list: Vec<String> = self.separators.iter().map(|s| python_str(s)).collect();
                out.push_str(&format!("    separators=[{}],\n", list.join(", ")));
            }
            Kind::Character => {
                let sep = self.effective_separators().remove(0);
                out.push_str(&format!("    separator={},\n", python_str(&sep)));
            }
        }
        out.push_str(&format!(
            "    keep_separator={},\n    is_separator_regex={},\n    chunk_size={},\n    chunk_overlap={},\n    strip_whitespace={},\n    add_start_index=True,\n",
            self.keep_separator.python(),
            if self.is_separator_regex { "True" } else { "False" },
            self.chunk_size,
            self.chunk_overlap,
            if self.strip_whitespace { "True" } else { "False" },
        ));
        if self.unit == Unit::Bytes {
            out.push_str("    length_function=lambda s: len(s.encode(\"utf-8\")),\n");
        }
        out.push_str(")\ndocs = splitter.create_documents([text])\n");
        out.push_str("chunks = [(d.page_content, d.metadata[\"start_index\"]) for d in docs]\n");
        out
    }
}

/// Whether a regex separator starts with a lookaround (`(?=`, `(?!`, `(?<=`,
/// `(?<!`). `CharacterTextSplitter` with `keep_separator=False` then merges
/// its pieces with `""` instead of the pattern text, so the text a lookaround
/// pattern matched is missing from the chunk.
pub fn starts_with_lookaround(pattern: &str) -> bool {
    ["(?=", "(?<!", "(?<=", "(?!"]
        .iter()
        .any(|p| pattern.starts_with(p))
}

/// A Python string literal for `s` (double quotes; backslash escapes for
/// quotes, backslashes and control characters).
pub fn python_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One chunk as LangChain returns it, with where it comes from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LangChainChunk {
    /// Position in the output, from 0.
    pub index: usize,
    /// Exactly LangChain's chunk string.
    pub text: String,
    /// Where the text comes from in the source: from the first to the last
    /// source character it was made of (after stripping). When `is_slice`,
    /// `text == &source[span]`; otherwise the span still covers what the
    /// chunk was made from (including separators LangChain replaced or
    /// dropped).
    pub span: Span,
    /// Whether `text` is exactly `&source[span]`.
    pub is_slice: bool,
    /// Why `text` is not `&source[span]`, when it is not.
    pub not_slice: Option<NotSlice>,
    /// LangChain's `add_start_index` value: a char offset found by
    /// `text.find(chunk, max(0, previous_index + len(previous_chunk) -
    /// chunk_overlap))`, or -1 when not found. It can differ from the span.
    /// `None` for `MarkdownHeaderTextSplitter`, which has no such option.
    pub start_index: Option<i64>,
    /// The `Document`'s metadata, in LangChain's order: the enclosing
    /// headers (`"Header 1"` → its text, …) for `MarkdownHeaderTextSplitter`;
    /// `None` for the character splitters, which add none.
    pub metadata: Option<Vec<(String, String)>>,
    /// The length of `text` in the configured unit (LangChain's
    /// `length_function`).
    pub len: usize,
    /// What separates this chunk from the next: the separator (index into
    /// [`LangChainOutput::separators`]) of the deepest split between them,
    /// [`Cut::Hard`] for the `""` separator (single characters), and
    /// [`Cut::End`] for the last chunk.
    pub cut: Cut,
    /// The part of the span shared with the previous chunk's span.
    pub overlap: Option<Span>,
    /// The trace node of this chunk (`None` without a trace).
    pub node: Option<NodeId>,
}

/// The result of a LangChain split.
///
/// # The trace
///
/// One node per `_split_text` call (the root, and each piece that was split
/// again), with `absent` = separators searched for and not found, and
/// `action` = [`Action::Split`](crate::Action::Split) on the chosen separator
/// (LangChain falls back to the *last* separator when none is found, so that
/// one can be both absent and chosen), or
/// [`Action::HardCut`](crate::Action::HardCut) for `""` (single characters,
/// merged back up). Below it, one leaf per chunk: `Fits` for a merged chunk
/// (`parts` = the pieces merged, `close` = why the merge closed it), `Fits`
/// with `too_big: true` for a piece passed through longer than `chunk_size`,
/// and `Empty` for a merge that stripped to nothing (no chunk).
///
/// `too_big` is LangChain's own verdict: on a node that was split, "not
/// strictly shorter than `chunk_size`" (so a piece of exactly `chunk_size` is
/// split again, as LangChain does); on a chunk, "longer than `chunk_size`".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LangChainOutput {
    /// The chunks in LangChain's order.
    pub chunks: Vec<LangChainChunk>,
    /// The recursion tree (empty for an empty text or without a trace).
    pub trace: Trace,
    /// What LangChain logs: "Created a chunk of size N, which is longer than
    /// the specified M", once per occurrence.
    pub warnings: Vec<String>,
    /// The separators the indices refer to
    /// ([`LangChainConfig::effective_separators`]).
    pub separators: Vec<String>,
    /// Whether they are regexes (`is_separator_regex`).
    pub regex: bool,
}

impl LangChainOutput {
    /// The chunks as the crate's [`Output`], for the shared report, checks
    /// and drawing. `Chunk::text(source)` is the chunk's *span*; where
    /// `is_slice` is false, LangChain's text differs and must be shown from
    /// [`LangChainChunk::text`].
    pub fn to_output(&self) -> Output {
        self.output_with(self.trace.clone())
    }

    /// Like [`to_output`](Self::to_output), taking the trace instead of
    /// copying it.
    ///
    /// The chunks are moved, not copied: for a large text their list is the
    /// biggest allocation of the split, so the facts are collected into its
    /// own memory (Rust reuses a `Vec`'s buffer for a `map` to a smaller
    /// element) and only the plain chunks are a new list. That buffer is
    /// then shrunk to the facts' size, so the records' memory does not stay
    /// behind them. (The LangChain strategy of [`Splitter`](crate::Splitter)
    /// makes no records at all: its engine collects chunks and facts as it
    /// runs.)
    pub fn into_output(self) -> Output {
        let chunks = self
            .chunks
            .iter()
            .map(|c| Chunk {
                index: c.index,
                span: c.span,
                len: c.len,
                cut: c.cut,
                overlap: c.overlap,
                node: c.node,
            })
            .collect();
        let mut facts = self
            .chunks
            .into_iter()
            .map(|c| {
                LibraryFact::new(
                    (!c.is_slice).then_some(c.text),
                    c.not_slice,
                    c.start_index,
                    c.metadata,
                )
            })
            .collect::<Vec<_>>();
        facts.shrink_to_fit();
        Output {
            sentences: None,
            separators: None,
            chunks,
            trace: self.trace,
            library: Some(facts),
            langchain: Some(LangChainFacts {
                warnings: self.warnings,
                separators: self.separators,
                regex: self.regex,
            }),
            markdown: None,
        }
    }

    fn output_with(&self, trace: Trace) -> Output {
        Output {
            sentences: None,
            separators: None,
            chunks: self
                .chunks
                .iter()
                .map(|c| Chunk {
                    index: c.index,
                    span: c.span,
                    len: c.len,
                    cut: c.cut,
                    overlap: c.overlap,
                    node: c.node,
                })
                .collect(),
            trace,
            library: Some(
                self.chunks
                    .iter()
                    .map(|c| {
                        LibraryFact::new(
                            (!c.is_slice).then(|| c.text.clone()),
                            c.not_slice,
                            c.start_index,
                            c.metadata.clone(),
                        )
                    })
                    .collect(),
            ),
            langchain: Some(LangChainFacts {
                warnings: self.warnings.clone(),
                separators: self.separators.clone(),
                regex: self.regex,
            }),
            markdown: None,
        }
    }

    /// The chunk texts, as `split_text` returns them.
    pub fn texts(&self) -> Vec<&str> {
        self.chunks.iter().map(|c| c.text.as_str()).collect()
    }
}

/// Splits `text` as LangChain does, with or without the trace, into the
/// crate's [`Output`] for [`Splitter`](crate::Splitter): LangChain's text is
/// kept only where it is not a slice of the source.
pub(crate) fn run(
    text: &str,
    config: &LangChainConfig,
    counter: Counter,
    record: bool,
) -> Result<EngineOutput, LangChainError> {
    engine::output(text, config, counter, record)
}

/// The counter of LangChain's `length_function`: `len`, or tiktoken's count
/// for `from_tiktoken_encoder`, which needs the encoding's tokenizer.
pub(crate) fn counter(resources: &Resources, unit: Unit) -> Result<Counter, LangChainError> {
    resources.counter(unit).map_err(|e| match e {
        crate::Error::TokenizerNotLoaded { encoding } => {
            LangChainError::TokenizerNotLoaded { encoding }
        }
        _ => unreachable!("only a token unit can fail to resolve"),
    })
}

/// Splits `text` as LangChain does, recording the trace.
pub fn split(
    text: &str,
    config: &LangChainConfig,
    resources: &Resources,
) -> Result<LangChainOutput, LangChainError> {
    config.validate()?;
    engine::run(text, config, counter(resources, config.unit)?, true)
}

/// Splits `text` as `MarkdownHeaderTextSplitter(...).split_text(text)` does,
/// recording the trace; `len` counts chars.
///
/// ```
/// use chunkscope::langchain::{self, MarkdownHeaderConfig};
///
/// let text = "# Refunds\nWithin 5 days.\n\n## UPI\nInstant.";
/// let out = langchain::split_markdown(text, &MarkdownHeaderConfig::new(["#", "##"]));
/// let got: Vec<(&str, &[(String, String)])> = out
///     .chunks
///     .iter()
///     .map(|c| (c.text.as_str(), c.metadata.as_deref().unwrap()))
///     .collect();
/// let path = |p: &[(&str, &str)]| -> Vec<(String, String)> {
///     p.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
/// };
/// assert_eq!(got[0], ("Within 5 days.", &path(&[("Header 1", "Refunds")])[..]));
/// assert_eq!(
///     got[1],
///     ("Instant.", &path(&[("Header 1", "Refunds"), ("Header 2", "UPI")])[..])
/// );
/// ```
pub fn split_markdown(text: &str, config: &MarkdownHeaderConfig) -> LangChainOutput {
    let counter = Counter::CHARS;
    markdown::run(text, config, counter, true)
}

/// The recipe of LangChain's docs: `MarkdownHeaderTextSplitter` (`headers`)
/// on `text`, then `RecursiveCharacterTextSplitter` (`recursive`)
/// `.split_documents(...)` on what it returns. Each chunk keeps its header
/// chunk's metadata, in the same order, as `split_documents` copies it.
///
/// A chunk's span is where its text is in the source: shifted within its
/// section when the section is a slice of `text`, and otherwise mapped
/// through the source lines the section was rebuilt from; it is a slice when
/// the source there is its text. No trace; `node` is `None`.
///
/// ```
/// use chunkscope::langchain::{self, LangChainConfig, MarkdownHeaderConfig};
///
/// let text = "# Refunds\nWithin 5 days of approval.\n\n## UPI\nInstant, to the same UPI id.";
/// let out = langchain::split_markdown_then(
///     text,
///     &MarkdownHeaderConfig::new(["#", "##"]),
///     &LangChainConfig::recursive(20, 0),
///     &chunkscope::Resources::new(),
/// )
/// .unwrap();
/// let texts: Vec<&str> = out.iter().map(|c| c.text.as_str()).collect();
/// assert_eq!(texts, ["Within 5 days of", "approval.", "Instant, to the same", "UPI id."]);
/// assert!(out.iter().all(|c| c.is_slice && &text[c.span.start..c.span.end] == c.text));
/// assert_eq!(out[3].metadata.as_ref().unwrap().len(), 2);
/// ```
pub fn split_markdown_then(
    text: &str,
    headers: &MarkdownHeaderConfig,
    recursive: &LangChainConfig,
    resources: &Resources,
) -> Result<Vec<LangChainChunk>, LangChainError> {
    let recipe = MarkdownRecipe {
        headers: headers.clone(),
        recursive: recursive.clone(),
    };
    Ok(recipe::run(text, &recipe, counter(resources, recursive.unit)?, false)?.chunks)
}

/// The recipe of LangChain's docs ([`split_markdown_then`]) with its trace
/// and LangChain's warnings: the header splitter's sections, then the
/// recursive splitter's levels inside each (see [`MarkdownRecipe`]).
pub fn split_recipe(
    text: &str,
    recipe: &MarkdownRecipe,
    resources: &Resources,
) -> Result<LangChainOutput, LangChainError> {
    recipe::run(
        text,
        recipe,
        counter(resources, recipe.recursive.unit)?,
        true,
    )
}

/// `split_text(text)`: LangChain's chunk strings (borrowed from `text` where
/// they are slices of it) and the warnings it logs, and nothing else (no
/// trace, no `start_index`, no spans): the least work that answers it.
///
/// ```
/// use chunkscope::langchain::{self, LangChainConfig};
/// let config = LangChainConfig::character(7, 3).with_separators([" "]);
/// let (texts, warnings) = langchain::split_texts("foo bar baz 123", &config, &chunkscope::Resources::new())?;
/// assert_eq!(texts, ["foo bar", "bar baz", "baz 123"]);
/// assert!(warnings.is_empty());
/// # Ok::<(), chunkscope::langchain::LangChainError>(())
/// ```
pub fn split_texts<'t>(
    text: &'t str,
    config: &LangChainConfig,
    resources: &Resources,
) -> Result<(Vec<std::borrow::Cow<'t, str>>, Vec<String>), LangChainError> {
    config.validate()?;
    engine::strings(text, config, counter(resources, config.unit)?)
}

/// Splits `text` as `MarkdownHeaderTextSplitter(...).split_text(text)` does,
/// without a trace (faster; `node` is `None`); `len` counts chars.
pub fn markdown_chunks(text: &str, config: &MarkdownHeaderConfig) -> Vec<LangChainChunk> {
    let counter = Counter::CHARS;
    markdown::run(text, config, counter, false).chunks
}

/// Splits `text` as LangChain does, without a trace (faster; `node` is
/// `None`).
pub fn chunks(
    text: &str,
    config: &LangChainConfig,
    resources: &Resources,
) -> Result<Vec<LangChainChunk>, LangChainError> {
    config.validate()?;
    engine::run(text, config, counter(resources, config.unit)?, false).map(|o| o.chunks)
}
