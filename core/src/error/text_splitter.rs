//! What the text-splitter strategies refuse: what the library's
//! `ChunkConfig` refuses.

use super::Setting;
use std::fmt;

/// Why a text-splitter split could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TextSplitterError {
    /// `ChunkConfig::with_overlap` refuses an overlap that is not below the
    /// capacity; a size of 0 is refused this way too (the overlap, 0, is not
    /// below it), which is what the Python package raises on `TextSplitter(0)`.
    Overlap {
        /// The configured overlap.
        overlap: usize,
        /// The configured size (the capacity).
        size: usize,
        /// The library's own message.
        message: String,
    },
    /// With an overlap, trimming can start a chunk before the one before it
    /// (Markdown keeps a line's indentation). The crate's `chunk_indices`
    /// gives that chunk; its `chunk_char_indices`, which the Python package
    /// reports offsets with, panics on it, and the package raises
    /// `PanicException`. Not reproduced: this engine refuses.
    StartsBefore {
        /// The chunk's index.
        chunk: usize,
        /// Its char offset.
        at: usize,
        /// The char offset of the chunk before.
        before: usize,
    },
}

impl TextSplitterError {
    /// The setting to change to get past this error.
    pub fn setting(&self) -> Setting {
        match self {
            TextSplitterError::Overlap { size: 0, .. } => Setting::Size,
            TextSplitterError::Overlap { .. } | TextSplitterError::StartsBefore { .. } => {
                Setting::Overlap
            }
        }
    }

    /// What the Python package raises on the same input, class and message:
    /// the library's configuration error as `ValueError`, its panic as
    /// `PanicException`.
    pub fn library_exception(&self) -> (&'static str, String) {
        match self {
            TextSplitterError::Overlap { message, .. } => ("ValueError", message.clone()),
            TextSplitterError::StartsBefore { .. } => {
                ("PanicException", "Invalid byte sequence".into())
            }
        }
    }
}

impl fmt::Display for TextSplitterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TextSplitterError::Overlap { size: 0, message, .. } => write!(
                f,
                "size is 0, and text-splitter needs the overlap below the size (it refuses with \"{message}\"): use a size of at least 1"
            ),
            TextSplitterError::Overlap { overlap, size, message } => write!(
                f,
                "overlap is {overlap} and size is {size}, and text-splitter needs the overlap below the size (it refuses with \"{message}\"): lower the overlap below {size}"
            ),
            TextSplitterError::StartsBefore { chunk, at, before } => write!(
                f,
                "text-splitter's chunk {chunk} starts at position {at}, before the chunk ahead of it (at {before}): with this overlap its trimming moved the start back, and the Python package panics on it while counting offsets (PanicException: Invalid byte sequence), a bug of the library's, not reproduced here: change the overlap or the size"
            ),
        }
    }
}
