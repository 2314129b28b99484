//! What the chonkie-recursive strategy refuses.

use super::Setting;
use std::fmt;

/// Why a chonkie-recursive split could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChonkieError {
    /// The text holds a special token's text: chonkie counts tokens with
    /// tiktoken's `encode`, which raises on it.
    SpecialToken {
        /// The special token, the leftmost in the text.
        token: &'static str,
    },
    /// At its last level chonkie cuts a word into runs of `size` tokens and
    /// decodes each run alone; here a run ends inside a character, so
    /// chonkie's chunk would hold U+FFFD instead of it and every offset
    /// after it would point elsewhere. This engine does not make that text.
    CharAcrossTokens {
        /// The character.
        ch: char,
        /// Its char offset in the text.
        at: usize,
        /// The configured size.
        size: usize,
    },
    /// RecursiveChunker has no overlap.
    Overlap {
        /// The configured overlap.
        overlap: usize,
    },
    /// RecursiveChunker counts characters or a tokenizer's tokens, not bytes.
    Bytes,
}

impl ChonkieError {
    /// The setting to change to get past this error.
    pub fn setting(&self) -> Setting {
        match self {
            ChonkieError::SpecialToken { .. } | ChonkieError::Bytes => Setting::Unit,
            ChonkieError::CharAcrossTokens { .. } => Setting::Size,
            ChonkieError::Overlap { .. } => Setting::Overlap,
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
            _ => None,
        }
    }
}

impl fmt::Display for ChonkieError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChonkieError::SpecialToken { token } => write!(
                f,
                "the text holds {token:?}, a special token's text, and chonkie counts tokens with tiktoken's encode, which raises ValueError on it: remove it, or count in chars"
            ),
            ChonkieError::CharAcrossTokens { ch, at, size } => write!(
                f,
                "chonkie cuts a word longer than {size} tokens into runs of {size} tokens and decodes each run alone; one run ends inside the character {ch:?} at position {at}, so chonkie's chunk would hold U+FFFD in its place and every offset after it would point elsewhere (a bug of chonkie's, not reproduced here): raise the size, or count in chars"
            ),
            ChonkieError::Overlap { overlap } => write!(
                f,
                "chonkie's RecursiveChunker has no overlap, and overlap is {overlap}: set it to 0"
            ),
            ChonkieError::Bytes => write!(
                f,
                "chonkie's RecursiveChunker counts characters (its \"character\" tokenizer) or a tokenizer's tokens, not bytes: count in chars, cl100k or o200k"
            ),
        }
    }
}
