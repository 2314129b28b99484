//! Everything that can go wrong, in words a learner understands.

use crate::langchain::LangChainError;
use crate::tokens::Encoding;
use std::fmt;

/// Why a split could not be made. Every variant's message says what to change.
///
/// A split never panics and never loops: a configuration that could not make
/// progress is rejected here instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// `size` is 0: no chunk could hold anything, so the split would never advance.
    ZeroSize,
    /// `overlap >= size`: the window would step forward by zero (or less) units.
    OverlapTooLarge {
        /// The configured overlap.
        overlap: usize,
        /// The configured size.
        size: usize,
    },
    /// The recursive engine was given no separators.
    NoSeparators,
    /// A regex separator does not compile.
    InvalidRegex {
        /// Position in the separator list.
        index: usize,
        /// The pattern as written.
        pattern: String,
        /// What the regex parser said.
        reason: String,
    },
    /// With bytes as the unit, a character is longer than `size`, so no chunk can
    /// hold it without cutting it in half.
    CharTooBig {
        /// The character.
        ch: char,
        /// Its char offset in the text.
        at: usize,
        /// Its length in UTF-8 bytes.
        bytes: usize,
        /// The configured size.
        size: usize,
    },
    /// The unit counts tokens, but that encoding's tokenizer has not been
    /// [installed](crate::tokens::install) (the page loads it when the unit is
    /// chosen).
    TokenizerNotLoaded {
        /// The encoding.
        encoding: Encoding,
    },
    /// With tokens as the unit, a character takes more tokens than `size`
    /// (an emoji can take three), so no chunk can hold it without cutting it.
    CharTooManyTokens {
        /// The character.
        ch: char,
        /// Its char offset in the text.
        at: usize,
        /// How many tokens it takes on its own.
        tokens: usize,
        /// The configured size.
        size: usize,
    },
    /// A LangChain strategy refused the configuration or the text, as
    /// LangChain would (or where this engine will not guess what it does).
    LangChain(LangChainError),
}

impl From<LangChainError> for Error {
    fn from(e: LangChainError) -> Error {
        Error::LangChain(e)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::ZeroSize => write!(
                f,
                "size must be at least 1: a chunk of size 0 can hold nothing, so the splitter would never move forward"
            ),
            Error::OverlapTooLarge { overlap, size } => write!(
                f,
                "overlap ({overlap}) must be smaller than size ({size}): a chunk that repeats {overlap} units of the one before has no room left for new text, so the splitter would never move forward (try overlap {})",
                size.saturating_sub(1).min(size / 5)
            ),
            Error::NoSeparators => write!(
                f,
                "the separator list is empty: add at least one separator (end the list with \"\" for a hard cut)"
            ),
            Error::InvalidRegex { index, pattern, reason } => write!(
                f,
                "separator {} is not a valid regular expression (/{pattern}/): {}",
                index + 1,
                reason.lines().last().unwrap_or(reason).trim_start_matches("error: ")
            ),
            Error::CharTooBig { ch, at, bytes, size } => write!(
                f,
                "size is {size} bytes but the character {ch:?} at position {at} is {bytes} bytes long, and a chunk is never cut inside a character: use a size of at least {bytes}, or count in chars"
            ),
            Error::TokenizerNotLoaded { encoding } => write!(
                f,
                "the {} tokenizer is not loaded yet: load it, or count in chars or bytes",
                encoding.name()
            ),
            Error::CharTooManyTokens { ch, at, tokens, size } => write!(
                f,
                "size is {size} tokens but the character {ch:?} at position {at} takes {tokens} tokens, and a chunk is never cut inside a character: use a size of at least {tokens}, or count in chars"
            ),
            Error::LangChain(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {}
