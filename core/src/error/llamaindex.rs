//! What the llamaindex-sentence and llamaindex-token strategies refuse,
//! and what LlamaIndex raises on the same input.

use super::Setting;
use std::fmt;

/// The message of LlamaIndex's `ValueError` for a split over the size.
pub const SPLIT_TOO_BIG: &str = "Single token exceeded chunk size";

/// Why a split of LlamaIndex's `SentenceSplitter` or `TokenTextSplitter`
/// could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LlamaIndexError {
    /// `SentenceSplitter` and `TokenTextSplitter` refuse an overlap larger
    /// than the size (an overlap equal to it is taken), in the same words.
    Overlap {
        /// The class that refuses it (`SentenceSplitter`, …), which the
        /// message names.
        class: &'static str,
        /// The configured overlap.
        overlap: usize,
        /// The configured size.
        size: usize,
    },
    /// A character (or a piece no split function divides) counts more
    /// than the size: `SentenceSplitter` raises `ValueError("Single token
    /// exceeded chunk size")` (`TokenTextSplitter` keeps it as a chunk).
    SplitTooBig {
        /// The piece's text (one character, or a run of them).
        text: String,
        /// Its char offset in the text.
        at: usize,
        /// Its length in the unit.
        len: usize,
        /// The unit's name (`bytes`, `tokens`).
        unit: String,
        /// The configured size.
        size: usize,
    },
    /// In o200k, called as `tokenizer=encoding.encode` with tiktoken's
    /// defaults, a special token's text makes `encode` raise.
    SpecialToken {
        /// The special token, the leftmost in the text.
        token: &'static str,
    },
    /// The text needs more levels of `_split` than this engine allows
    /// (below Python's recursion limit).
    TooDeep {
        /// The levels allowed.
        levels: usize,
    },
    /// Punkt peels one sentence off a piece at a time (a long run of `!`),
    /// so `_split` reads nearly the whole piece again at every level: the
    /// engine stops once it has read its budget rather than run that long.
    TooMuchWork {
        /// How deep the split had gone.
        levels: usize,
    },
}

impl LlamaIndexError {
    /// The setting to change to get past this error.
    pub fn setting(&self) -> Setting {
        match self {
            LlamaIndexError::Overlap { .. } => Setting::Overlap,
            LlamaIndexError::SplitTooBig { .. }
            | LlamaIndexError::TooDeep { .. }
            | LlamaIndexError::TooMuchWork { .. } => Setting::Size,
            LlamaIndexError::SpecialToken { .. } => Setting::Unit,
        }
    }

    /// What LlamaIndex raises on the same input, class and message word for
    /// word, where it raises.
    pub fn library_exception(&self) -> Option<(&'static str, String)> {
        match self {
            LlamaIndexError::Overlap { overlap, size, .. } => Some((
                "ValueError",
                format!(
                    "Got a larger chunk overlap ({overlap}) than chunk size ({size}), should be smaller."
                ),
            )),
            LlamaIndexError::SplitTooBig { .. } => Some(("ValueError", SPLIT_TOO_BIG.to_string())),
            LlamaIndexError::SpecialToken { token } => Some((
                "ValueError",
                super::langchain::disallowed_special_message(token),
            )),
            LlamaIndexError::TooDeep { .. } | LlamaIndexError::TooMuchWork { .. } => None,
        }
    }
}

impl fmt::Display for LlamaIndexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LlamaIndexError::Overlap {
                class,
                overlap,
                size,
            } => write!(
                f,
                "overlap ({overlap}) is larger than size ({size}), which LlamaIndex's {class} refuses: use an overlap of at most {size}"
            ),
            LlamaIndexError::SplitTooBig { text, at, len, unit, size } => write!(
                f,
                "size is {size} {unit} but {text:?} at position {at} is {len} {unit} and cannot be split further, so LlamaIndex raises \"{SPLIT_TOO_BIG}\": use a size of at least {len}, or count in chars"
            ),
            LlamaIndexError::SpecialToken { token } => write!(
                f,
                "the text holds {token:?}, a special token's text, and LlamaIndex given an o200k encoding's encode counts with tiktoken's defaults, which raise ValueError on it: remove it, or count in cl100k (LlamaIndex's default allows special tokens)"
            ),
            LlamaIndexError::TooDeep { levels } => write!(
                f,
                "this text needs more than {levels} levels of splitting, past what Python's recursion limit lets LlamaIndex take: raise the size"
            ),
            LlamaIndexError::TooMuchWork { levels } => write!(
                f,
                "LlamaIndex would split this text again and again, each time one sentence shorter (as a long run of \"!\" makes Punkt do), {levels} levels deep so far and reading the text anew at each: refused here rather than run that long (Python takes as long, and past about 1 000 levels raises RecursionError); raise the size, or break up the run"
            ),
        }
    }
}
