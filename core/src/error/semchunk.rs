//! What the semchunk strategy refuses: the texts on which semchunk itself
//! never returns.

use super::Setting;
use std::fmt;

/// Why a semchunk split could not be made. On both, semchunk recurses until
/// Python raises `RecursionError`; this engine stops at once and says why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SemchunkError {
    /// A character that is neither whitespace nor one of semchunk's
    /// punctuation splitters counts more than a chunk may hold, so semchunk
    /// chunks it again, alone, for ever.
    CharTooBig {
        /// The character.
        ch: char,
        /// Its char offset in the text.
        at: usize,
        /// Its length in the unit.
        len: usize,
        /// The unit's name (`bytes`, `tokens`).
        unit: String,
        /// What a chunk may hold: the size, or with an overlap the smaller
        /// size semchunk chunks at before it joins chunks,
        /// `min(overlap, size − overlap)`.
        room: usize,
        /// The configured size.
        size: usize,
    },
    /// The text needs more levels of splitting than Python's recursion
    /// limit lets semchunk take (each distinct length of a run of newlines,
    /// tabs or spaces is a level).
    TooDeep {
        /// The levels this engine allows, fewer than Python's limit of 1000
        /// frames leaves semchunk.
        levels: usize,
    },
}

impl SemchunkError {
    /// The setting to change to get past this error.
    pub fn setting(&self) -> Setting {
        match self {
            SemchunkError::CharTooBig { room, size, .. } if room < size => Setting::Overlap,
            SemchunkError::CharTooBig { .. } => Setting::Size,
            SemchunkError::TooDeep { .. } => Setting::Size,
        }
    }

    /// What semchunk raises on the same input: the exception's class and the
    /// start of its message (Python names the call it was in after it).
    pub fn library_exception(&self) -> (&'static str, &'static str) {
        ("RecursionError", "maximum recursion depth exceeded")
    }
}

impl fmt::Display for SemchunkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SemchunkError::CharTooBig { ch, at, len, unit, room, size } if room < size => write!(
                f,
                "the character {ch:?} at position {at} is {len} {unit}, and with this overlap semchunk first makes chunks of {room} {unit} (the smaller of the overlap and size minus overlap): it would split that character again on its own for ever, until Python's RecursionError; lower the overlap, raise the size, or count in chars"
            ),
            SemchunkError::CharTooBig { ch, at, len, unit, size, .. } => write!(
                f,
                "size is {size} {unit} but the character {ch:?} at position {at} is {len} {unit}: semchunk would split it again on its own for ever, until Python's RecursionError; use a size of at least {len}, or count in chars"
            ),
            SemchunkError::TooDeep { levels } => write!(
                f,
                "this text needs more than {levels} levels of splitting (every distinct length of a run of newlines, tabs or spaces is one), past what Python's recursion limit lets semchunk take: it raises RecursionError; raise the size, or shorten the runs"
            ),
        }
    }
}
