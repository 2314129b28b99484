//! What the chonkie strategies (`chonkie-recursive`, `chonkie-token`,
//! `chonkie-sentence`) refuse.

use super::Setting;
use std::fmt;

/// Why a chonkie split could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChonkieError {
    /// The text holds a special token's text: chonkie counts tokens with
    /// tiktoken's `encode`, which raises on it.
    SpecialToken {
        /// The special token, the leftmost in the text.
        token: &'static str,
    },
    /// RecursiveChunker has no overlap.
    Overlap {
        /// The configured overlap.
        overlap: usize,
    },
    /// Chonkie's chunkers count characters or a tokenizer's tokens, not
    /// bytes.
    Bytes,
    /// The first check of `TokenChunker` and `SentenceChunker`:
    /// `chunk_size <= 0` raises.
    SizeNotPositive {
        /// The chunker that raises (`TokenChunker`, `SentenceChunker`).
        class: &'static str,
    },
    /// The second check of `TokenChunker` and `SentenceChunker`: an int
    /// `chunk_overlap` of at least `chunk_size` raises.
    OverlapNotLess {
        /// The chunker that raises.
        class: &'static str,
        /// The configured overlap.
        overlap: usize,
        /// The configured size.
        size: usize,
    },
    /// `min_characters_per_chunk` is 0, which `RecursiveChunker` refuses
    /// with a `ValueError` (every split is at least one byte, so 1 is the
    /// least that means anything).
    MinCharacters,
}

impl ChonkieError {
    /// The setting to change to get past this error.
    pub fn setting(&self) -> Setting {
        match self {
            ChonkieError::SpecialToken { .. } | ChonkieError::Bytes => Setting::Unit,
            ChonkieError::SizeNotPositive { .. } => Setting::Size,
            ChonkieError::Overlap { .. } | ChonkieError::OverlapNotLess { .. } => Setting::Overlap,
            ChonkieError::MinCharacters => Setting::MinCharacters,
        }
    }

    /// What chonkie raises on the same input, class and message, where it
    /// raises.
    pub fn library_exception(&self) -> Option<(&'static str, String)> {
        match self {
            ChonkieError::SpecialToken { token } => Some((
                "ValueError",
                super::langchain::disallowed_special_message(token),
            )),
            ChonkieError::SizeNotPositive { .. } => {
                Some(("ValueError", "chunk_size must be positive".to_string()))
            }
            ChonkieError::OverlapNotLess { .. } => Some((
                "ValueError",
                "chunk_overlap must be less than chunk_size".to_string(),
            )),
            ChonkieError::MinCharacters => Some(("ValueError", MIN_CHARACTERS_MESSAGE.into())),
            _ => None,
        }
    }
}

/// `RecursiveChunker.__init__`'s words for a minimum of 0 or less.
const MIN_CHARACTERS_MESSAGE: &str = "min_characters_per_chunk must be greater than 0";

impl fmt::Display for ChonkieError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChonkieError::SpecialToken { token } => write!(
                f,
                "the text holds {token:?}, a special token's text, and chonkie counts tokens with tiktoken's encode, which raises ValueError on it: remove it, or count in chars"
            ),
            ChonkieError::Overlap { overlap } => write!(
                f,
                "chonkie's RecursiveChunker has no overlap, and overlap is {overlap}: set it to 0"
            ),
            ChonkieError::Bytes => write!(
                f,
                "chonkie counts characters (its \"character\" tokenizer) or a tokenizer's tokens, not bytes: count in chars, cl100k or o200k"
            ),
            ChonkieError::SizeNotPositive { class } => write!(
                f,
                "size is 0, and chonkie's {class} raises ValueError (chunk_size must be positive): use a size of at least 1"
            ),
            ChonkieError::OverlapNotLess {
                class,
                overlap,
                size,
            } => write!(
                f,
                "overlap is {overlap} and size is {size}, and chonkie's {class} raises ValueError (chunk_overlap must be less than chunk_size): use an overlap below the size"
            ),
            ChonkieError::MinCharacters => write!(
                f,
                "chonkie's RecursiveChunker raises ValueError: {MIN_CHARACTERS_MESSAGE}: set min_characters_per_chunk to 1 or more (1 joins no split; chonkie's default is 24)"
            ),
        }
    }
}
