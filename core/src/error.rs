//! Everything that can go wrong, in words a learner understands.

pub(crate) mod chonkie;
pub(crate) mod langchain;
pub(crate) mod llamaindex;
pub(crate) mod semantic;
pub(crate) mod semchunk;
pub(crate) mod text_splitter;

use crate::tokens::Encoding;
use chonkie::ChonkieError;
use langchain::LangChainError;
use llamaindex::LlamaIndexError;
use semantic::SemanticError;
use semchunk::SemchunkError;
use std::fmt;
use text_splitter::TextSplitterError;

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
    /// The unit counts tokens, but the splitter's
    /// [`Resources`](crate::Resources) hold no tokenizer of that encoding
    /// (the page loads it when the unit is chosen).
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
    /// With the Markdown strategy's heading prefix on, a section's heading
    /// path takes the whole size, so no chunk of the section could follow it.
    PrefixTooLong {
        /// The prefix (the heading path and the blank line after it).
        prefix: String,
        /// Char offset of the section's heading.
        at: usize,
        /// The prefix's length in the unit.
        len: usize,
        /// The unit, as a person reads it (`chars`, `cl100k tokens`).
        unit: String,
        /// The configured size.
        size: usize,
    },
    /// With the Markdown strategy's table header repeated, a table's header
    /// rows (after the heading path, when that is on) take the whole size,
    /// so no chunk of its rows could follow them.
    TableHeaderTooLong {
        /// Char offset of the table.
        at: usize,
        /// The length of what every chunk of its rows starts with.
        len: usize,
        /// The unit, as a person reads it (`chars`, `cl100k tokens`).
        unit: String,
        /// The configured size.
        size: usize,
    },
    /// With the Markdown strategy's heading prefix on, a character is longer
    /// (in bytes or tokens) than the room the section's prefix leaves a
    /// chunk, though it may fit the size alone. The message names that room,
    /// not the size, since the room is what the character did not fit.
    CharTooBigAfterPrefix {
        /// The character.
        ch: char,
        /// Its char offset in the text.
        at: usize,
        /// What it adds in the unit after the prefix: its own length, but in
        /// tokens a `/` or a whitespace character may be tokenized together
        /// with the prefix's end.
        len: usize,
        /// The unit, as a person reads it (`bytes`, `cl100k tokens`).
        unit: String,
        /// What the size leaves a chunk of this section after its prefix.
        room: usize,
        /// The configured size.
        size: usize,
        /// Whether the prefix ends with a table's repeated header rows.
        table: bool,
    },
    /// A LangChain strategy refused the configuration or the text, as
    /// LangChain would (or where this engine will not guess what it does).
    LangChain(LangChainError),
    /// The sentence level is where the strategy cannot take it: the
    /// `sentence` strategy's list must start with it (it packs whole
    /// sentences), and LangChain's classes have no such level.
    SentenceLevel {
        /// The position in the list the message is about.
        index: usize,
        /// The strategy.
        strategy: crate::strategy::Strategy,
    },
    /// The semantic strategy's settings, model or embedder.
    Semantic(SemanticError),
    /// A text on which semchunk itself never returns.
    Semchunk(SemchunkError),
    /// What the chonkie-recursive strategy refuses.
    Chonkie(ChonkieError),
    /// What LlamaIndex's `SentenceSplitter` refuses or raises on.
    LlamaIndex(LlamaIndexError),
    /// What the text-splitter strategies refuse (the library's own refusal).
    TextSplitter(TextSplitterError),
    /// A setting the strategy does not read, given a value other than the
    /// strategy's default: it would be ignored, so it is refused.
    NotRead {
        /// The setting: [`Setting::Separators`], [`Setting::Placement`] or
        /// [`Setting::Trim`].
        setting: Setting,
        /// The strategy, which does not read it.
        strategy: crate::strategy::Strategy,
    },
    /// A strategy this build of the library was made without: its engine is
    /// behind a Cargo feature that was off.
    NotBuilt {
        /// The strategy asked for.
        strategy: crate::strategy::Strategy,
        /// The feature that brings its engine.
        feature: &'static str,
    },
}

/// The setting an [`Error`] is about: what a person has to change. A page marks
/// that control; a CLI could name the flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Setting {
    /// The size.
    Size,
    /// The overlap.
    Overlap,
    /// The unit (a character longer than the size, a tokenizer not loaded, a
    /// special token tiktoken refuses).
    Unit,
    /// The separator list as a whole (empty; regexes mixed with literals for
    /// LangChain).
    Separators,
    /// One separator, by its position in the list (a regex that does not
    /// compile, is not supported, backtracks too much, or crashes LangChain).
    Separator(usize),
    /// Where a separator goes at a cut.
    Placement,
    /// Whether whitespace at the ends of pieces is trimmed off.
    Trim,
    /// The semantic strategy's breakpoint threshold (its kind or amount).
    Breakpoint,
    /// The semantic strategy's embedder (a model file, or its vectors).
    Embedder,
    /// The strategy itself (one this build cannot run).
    Strategy,
    /// `chonkie-recursive`'s `min_characters_per_chunk`.
    MinCharacters,
}

impl Setting {
    /// The setting's name as the JS API and the worker's messages write it
    /// (an error's `field`): `size`, `overlap`, `unit`, `separators` or `placement` (one
    /// separator is about the list).
    pub const fn field(self) -> &'static str {
        match self {
            Setting::Size => "size",
            Setting::Overlap => "overlap",
            Setting::Unit => "unit",
            Setting::Separators | Setting::Separator(_) => "separators",
            Setting::Placement => "placement",
            Setting::Trim => "trim",
            Setting::Breakpoint => "breakpoint",
            Setting::Embedder => "embedder",
            Setting::Strategy => "strategy",
            Setting::MinCharacters => "min_characters_per_chunk",
        }
    }
}

impl Error {
    /// The setting to change to get past this error.
    pub fn setting(&self) -> Setting {
        match self {
            Error::ZeroSize
            | Error::PrefixTooLong { .. }
            | Error::TableHeaderTooLong { .. }
            | Error::CharTooBigAfterPrefix { .. } => Setting::Size,
            Error::OverlapTooLarge { .. } => Setting::Overlap,
            Error::NoSeparators => Setting::Separators,
            Error::InvalidRegex { index, .. } | Error::SentenceLevel { index, .. } => {
                Setting::Separator(*index)
            }
            Error::CharTooBig { .. }
            | Error::TokenizerNotLoaded { .. }
            | Error::CharTooManyTokens { .. } => Setting::Unit,
            Error::Semantic(e) => e.setting(),
            Error::Semchunk(e) => e.setting(),
            Error::Chonkie(e) => e.setting(),
            Error::LlamaIndex(e) => e.setting(),
            Error::TextSplitter(e) => e.setting(),
            Error::LangChain(e) => e.setting(),
            Error::NotRead { setting, .. } => *setting,
            Error::NotBuilt { .. } => Setting::Strategy,
        }
    }
}

impl From<LlamaIndexError> for Error {
    fn from(e: LlamaIndexError) -> Error {
        Error::LlamaIndex(e)
    }
}

impl From<TextSplitterError> for Error {
    fn from(e: TextSplitterError) -> Error {
        Error::TextSplitter(e)
    }
}

impl From<ChonkieError> for Error {
    fn from(e: ChonkieError) -> Error {
        Error::Chonkie(e)
    }
}

impl From<SemchunkError> for Error {
    fn from(e: SemchunkError) -> Error {
        Error::Semchunk(e)
    }
}

impl From<LangChainError> for Error {
    fn from(e: LangChainError) -> Error {
        Error::LangChain(e)
    }
}

/// The overlap the refusal suggests: an eighth of the size, rounded, in line
/// with the 10–15 % the lessons give as typical. It is always smaller than the
/// size (0 for sizes up to 3), so following the suggestion cannot be refused.
fn suggested_overlap(size: usize) -> usize {
    size.saturating_add(4) / 8
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
                "overlap ({overlap}) must be smaller than size ({size}): a chunk that repeats {overlap} units of the one before has no room left for new text, so the splitter would never move forward (try overlap {}: 10–15 % of the size is typical)",
                suggested_overlap(*size)
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
            Error::PrefixTooLong { prefix, at, len, unit, size } => write!(
                f,
                "the heading path {prefix:?} of the section at position {at} is {len} {unit}, and size is {size}: no chunk of the section fits after it; raise the size above {len}, or turn the heading prefix off"
            ),
            Error::TableHeaderTooLong { at, len, unit, size } => write!(
                f,
                "every chunk of the rows of the table at position {at} would start with its header rows, {len} {unit} with what comes before them, and size is {size}: nothing fits after them; raise the size above {len}, or give the header once (table_header \"once\")"
            ),
            Error::CharTooBigAfterPrefix { ch, at, len, unit, room, size, table: false } => write!(
                f,
                "the heading prefix leaves a chunk of this section {room} of the {size} {unit}, but the character {ch:?} at position {at} is {len} {unit}, and a chunk is never cut inside a character: raise the size to at least {}, or turn the heading prefix off",
                size - room + len
            ),
            Error::CharTooBigAfterPrefix { ch, at, len, unit, room, size, table: true } => write!(
                f,
                "the table's repeated header leaves a chunk of its rows {room} of the {size} {unit}, but the character {ch:?} at position {at} is {len} {unit}, and a chunk is never cut inside a character: raise the size to at least {}, or give the table header once",
                size - room + len
            ),
            Error::LangChain(e) => e.fmt(f),
            Error::SentenceLevel { index, strategy } => match strategy {
                crate::strategy::Strategy::Sentence => write!(
                    f,
                    "the sentence strategy packs whole sentences, so its separator list starts with the sentence level {} and goes on with what cuts a sentence that is too long (e.g. {} \" \" \"\"); for another list, use the recursive strategy",
                    crate::separator::SeparatorLevel::Sentence.spelling(),
                    crate::separator::SeparatorLevel::Sentence.spelling(),
                ),
                _ => write!(
                    f,
                    "separator {} is the sentence level {}, which {strategy} does not have (LangChain splits at patterns only): remove it, or use the sentence or recursive strategy",
                    index + 1,
                    crate::separator::SeparatorLevel::Sentence.spelling(),
                ),
            },
            Error::Semantic(e) => e.fmt(f),
            Error::Semchunk(e) => e.fmt(f),
            Error::Chonkie(e) => e.fmt(f),
            Error::LlamaIndex(e) => e.fmt(f),
            Error::TextSplitter(e) => e.fmt(f),
            Error::NotRead { setting, strategy } => {
                let why = match strategy.library() {
                    _ if *strategy == crate::strategy::Strategy::Fixed => {
                        "its windows are cut every `size` units, wherever they fall".to_string()
                    }
                    Some(library) => format!("it follows the rules of {library}"),
                    None => "it has rules of its own".to_string(),
                };
                write!(
                    f,
                    "the {:?} strategy does not read {} ({why}), so it would be ignored: leave it out, or choose a strategy that reads it",
                    strategy.name(),
                    setting.field()
                )
            }
            Error::NotBuilt { strategy, feature } => write!(
                f,
                "{strategy} is not in this build of chunkscope: it is built with the `{feature}` feature"
            ),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Config, Separator, Unit};

    #[test]
    fn the_suggested_overlap_is_an_eighth_of_the_size_and_always_allowed() {
        let pairs: Vec<(usize, usize)> = [1, 3, 4, 40, 100, 500, 1000]
            .into_iter()
            .map(|s| (s, suggested_overlap(s)))
            .collect();
        assert_eq!(
            pairs,
            [
                (1, 0),
                (3, 0),
                (4, 1),
                (40, 5),
                (100, 13),
                (500, 63),
                (1000, 125)
            ]
        );
        for size in 1..=10_000 {
            let o = suggested_overlap(size);
            assert!(o < size, "size {size}");
            if size >= 40 {
                let percent = 100.0 * o as f64 / size as f64;
                assert!((10.0..=15.0).contains(&percent), "size {size}: {percent}");
            }
        }
        assert_eq!(
            Error::OverlapTooLarge { overlap: 40, size: 40 }.to_string(),
            "overlap (40) must be smaller than size (40): a chunk that repeats 40 units of the one before has no room left for new text, so the splitter would never move forward (try overlap 5: 10–15 % of the size is typical)"
        );
    }

    fn setting_of(config: Config) -> Setting {
        config.validate().unwrap_err().setting()
    }

    #[test]
    fn every_refusal_names_the_setting_to_change() {
        assert_eq!(setting_of(Config::fixed(0, 0)), Setting::Size);
        assert_eq!(setting_of(Config::fixed(4, 4)), Setting::Overlap);
        let none = Config::recursive(10).with_separators(Vec::<Separator>::new());
        assert_eq!(setting_of(none), Setting::Separators);
        let bad =
            Config::recursive(10).with_separators([Separator::literal("x"), Separator::regex("(")]);
        assert_eq!(setting_of(bad), Setting::Separator(1));
        let lc = |c: Config| Config {
            strategy: crate::StrategyConfig::LangChain,
            ..c
        };
        assert_eq!(
            setting_of(lc(Config::recursive(4).with_overlap(5))),
            Setting::Overlap
        );
        let mixed = lc(Config::recursive(10))
            .with_separators([Separator::regex(r"\s"), Separator::literal("x")]);
        assert_eq!(setting_of(mixed), Setting::Separators);
        let bytes = Config::recursive(1).with_unit(Unit::Bytes);
        let e = crate::split("é", &bytes, &crate::Resources::new()).unwrap_err();
        assert_eq!(e.setting(), Setting::Unit);
    }
}
