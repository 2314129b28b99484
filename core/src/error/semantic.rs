//! What the semantic engine refuses: its settings, a model file, or what
//! an embedder gave back.

use super::{Error, Setting};
use crate::strategy::Breakpoint;
use std::fmt;

/// Why a semantic split could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SemanticError {
    /// The amount is not a finite number, or a percentile outside 0..=100.
    Amount {
        /// The kind it is for.
        breakpoint: Breakpoint,
        /// The amount, as written.
        amount: String,
    },
    /// Semantic chunks do not overlap (`SemanticChunker` has no overlap).
    Overlap {
        /// The configured overlap.
        overlap: usize,
    },
    /// A model file was refused.
    Model(ModelError),
    /// The embedder gave something other than one finite vector per group,
    /// all of one dimension.
    Embedder {
        /// What was wrong.
        reason: String,
    },
    /// The configuration names an embedder the splitter's
    /// [`Resources`](crate::Resources) do not hold.
    NoEmbedder {
        /// The name asked for.
        name: String,
        /// The names the resources hold.
        held: Vec<String>,
    },
}

impl SemanticError {
    /// The setting to change to get past this error.
    pub fn setting(&self) -> Setting {
        match self {
            SemanticError::Amount { .. } => Setting::Breakpoint,
            SemanticError::Overlap { .. } => Setting::Overlap,
            SemanticError::Model(_)
            | SemanticError::Embedder { .. }
            | SemanticError::NoEmbedder { .. } => Setting::Embedder,
        }
    }
}

impl fmt::Display for SemanticError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SemanticError::Amount { breakpoint, amount } if breakpoint.is_percentile() => write!(
                f,
                "the {breakpoint} amount is {amount}: a percentile is a number from 0 to 100"
            ),
            SemanticError::Amount { breakpoint, amount } => write!(
                f,
                "the {breakpoint} amount is {amount}: it must be a finite number"
            ),
            SemanticError::Overlap { overlap } => write!(
                f,
                "overlap is {overlap}, but semantic chunks do not overlap: set it to 0"
            ),
            SemanticError::Model(e) => e.fmt(f),
            SemanticError::Embedder { reason } => write!(f, "the embedder failed: {reason}"),
            SemanticError::NoEmbedder { name, held } if held.is_empty() => write!(
                f,
                "the embedder {name:?} is not loaded (no model is): load it first, or use \"lexical\""
            ),
            SemanticError::NoEmbedder { name, held } => write!(
                f,
                "the embedder {name:?} is not loaded (loaded: {}): name one of those, or use \"lexical\"",
                held.iter().map(|h| format!("{h:?}")).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}

impl std::error::Error for SemanticError {}

impl From<ModelError> for Error {
    fn from(e: ModelError) -> Error {
        Error::Semantic(SemanticError::Model(e))
    }
}

impl From<SemanticError> for Error {
    fn from(e: SemanticError) -> Error {
        Error::Semantic(e)
    }
}

/// The most bytes a model file may have: a static model a browser can hold.
pub const MAX_MODEL_BYTES: usize = 1 << 30;
/// The most dimensions a vector may have.
pub const MAX_DIMS: usize = 4096;

/// Why a model file was refused. Every message says where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// The file is empty, or holds no vectors.
    Empty,
    /// Over [`MAX_MODEL_BYTES`].
    TooBig {
        /// Its size.
        bytes: usize,
    },
    /// Not UTF-8 text (a binary `.bin` model is not the text format).
    NotText {
        /// The line the bad byte is on (from 1).
        line: usize,
    },
    /// A value is not a number, or not a finite one.
    BadNumber {
        /// The line (from 1).
        line: usize,
        /// The text that is not a finite number.
        value: String,
    },
    /// A vector's dimension differs from the first one's (or the header's).
    WrongDimension {
        /// The line (from 1).
        line: usize,
        /// The dimension expected.
        expected: usize,
        /// How many values the line has.
        found: usize,
    },
    /// A dimension of 0, or over [`MAX_DIMS`].
    BadDimension {
        /// The dimension.
        dims: usize,
    },
    /// The header promised more vectors than the file has.
    Truncated {
        /// The header's count.
        expected: usize,
        /// The vectors found.
        found: usize,
    },
    /// `model.safetensors` is not a safetensors file, or its header does not
    /// describe its bytes.
    BadSafetensors {
        /// What is wrong.
        reason: String,
    },
    /// `model.safetensors` has no `embeddings` tensor.
    NoEmbeddings,
    /// The `embeddings` tensor is not float32 or float16.
    UnsupportedDtype {
        /// The header's dtype.
        dtype: String,
    },
    /// `tokenizer.json` cannot be read.
    BadTokenizer {
        /// What is wrong.
        reason: String,
    },
    /// `config.json` cannot be read.
    BadConfig {
        /// What is wrong.
        reason: String,
    },
    /// A model, tokenizer or part of one that this reader does not run.
    Unsupported {
        /// What it is.
        what: String,
    },
    /// The tokenizer and the embeddings disagree on the vocabulary's size.
    VocabMismatch {
        /// Tokens in `tokenizer.json`.
        tokens: usize,
        /// Rows of the `embeddings` tensor.
        rows: usize,
    },
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::Empty => write!(f, "the model file holds no word vectors: give a file in the GloVe or fastText text format (`word v1 v2 …` a line)"),
            ModelError::TooBig { bytes } => write!(f, "the model file is {bytes} bytes, over the limit of {MAX_MODEL_BYTES}: use a smaller model"),
            ModelError::NotText { line } => write!(f, "the model file is not UTF-8 text (line {line}): give word vectors in the GloVe or fastText text format, not a binary model"),
            ModelError::BadNumber { line, value } => write!(f, "line {line} of the model file: {value:?} is not a finite number"),
            ModelError::WrongDimension { line, expected, found } => write!(f, "line {line} of the model file has {found} values where every vector has {expected}: the file is damaged or mixes models"),
            ModelError::BadDimension { dims } => write!(f, "the model's vectors have {dims} dimensions: it must be 1 to {MAX_DIMS}"),
            ModelError::Truncated { expected, found } => write!(f, "the model file's header promises {expected} vectors but it holds {found}: the file is truncated"),
            ModelError::BadSafetensors { reason } => write!(f, "model.safetensors: {reason}"),
            ModelError::NoEmbeddings => write!(f, "model.safetensors has no \"embeddings\" tensor: is it a model2vec model?"),
            ModelError::UnsupportedDtype { dtype } => write!(f, "model.safetensors: the embeddings are {dtype}; only F32 and F16 are read"),
            ModelError::BadTokenizer { reason } => write!(f, "tokenizer.json: {reason}"),
            ModelError::BadConfig { reason } => write!(f, "config.json: {reason}"),
            ModelError::Unsupported { what } => write!(f, "{what}"),
            ModelError::VocabMismatch { tokens, rows } => write!(f, "tokenizer.json has {tokens} tokens but model.safetensors has {rows} vectors: the files are from different models"),
        }
    }
}

impl std::error::Error for ModelError {}
