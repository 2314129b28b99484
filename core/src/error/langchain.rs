//! What LangChain's splitters refuse, and what this engine refuses rather
//! than guess: each with LangChain's own exception where it raises one.

use super::Setting;
use crate::tokens::Encoding;
use std::fmt;

/// Why a split was not made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LangChainError {
    /// `chunk_size` is 0 (LangChain: "chunk_size must be > 0").
    ZeroSize,
    /// `chunk_overlap > chunk_size` (LangChain: "Got a larger chunk overlap …").
    OverlapLargerThanSize {
        /// `chunk_overlap`.
        overlap: usize,
        /// `chunk_size`.
        size: usize,
    },
    /// [`LangChainConfig::from_config`]: some separators are regexes and some
    /// are not, but LangChain has one `is_separator_regex` for the list.
    MixedSeparators,
    /// A regex separator Python's `re` rejects; LangChain raises `re.error`
    /// when it reaches it.
    InvalidRegex {
        /// Position in the separator list.
        index: usize,
        /// The pattern.
        pattern: String,
        /// Python's reason.
        reason: String,
        /// Where in the pattern (chars), when Python says.
        position: Option<usize>,
        /// The pattern is only invalid once LangChain wraps it in `( … )` to
        /// keep the separator (for instance global flags like `(?i)` must
        /// come first).
        wrapped: bool,
        /// The exception LangChain raises: `re.error`, or `ValueError` and
        /// `OverflowError` for two checks CPython makes outside its parser.
        exception: &'static str,
        /// Its message, exactly as Python words it (its position counts in
        /// the pattern as LangChain compiles it, wrapped or not).
        message: String,
    },
    /// A regex separator that Python accepts but this engine cannot reproduce
    /// exactly; it is refused rather than split differently.
    UnsupportedRegex {
        /// Position in the separator list.
        index: usize,
        /// The pattern.
        pattern: String,
        /// What is not supported, and what to write instead.
        feature: String,
    },
    /// A regex separator that backtracks too much on this text.
    RegexTooComplex {
        /// Position in the separator list.
        index: usize,
        /// The pattern.
        pattern: String,
    },
    /// The length function counts tokens, but the splitter's
    /// [`Resources`](crate::Resources) hold no tokenizer of that encoding.
    TokenizerNotLoaded {
        /// The encoding.
        encoding: Encoding,
    },
    /// With token units (`from_tiktoken_encoder`), a piece LangChain measures
    /// holds a special token such as `<|endoftext|>`: tiktoken refuses to
    /// encode it (`disallowed_special="all"`), so LangChain raises ValueError.
    DisallowedSpecialToken {
        /// The special token.
        token: &'static str,
    },
    /// `_split_text` would recurse deeper than this engine follows (one
    /// level per separator used, with hundreds of separators). Python itself
    /// stops a little below 1000 levels with a RecursionError.
    TooDeep {
        /// The depth reached.
        depth: usize,
    },
    /// `MarkdownHeaderTextSplitter` from the playground's settings: a
    /// separator is not a header marker.
    BadHeaderMarker {
        /// Position in the separator list.
        index: usize,
        /// The separator.
        marker: String,
        /// What a marker must be.
        why: String,
    },
    /// `MarkdownHeaderTextSplitter` from the playground's settings: no header
    /// markers, so nothing would be split.
    NoHeaderMarkers,
    /// `MarkdownHeaderTextSplitter` from the playground's settings: a header
    /// can be kept at the start of its section or stripped, not put at the
    /// end of the section before.
    HeaderAtTheEnd,
    /// LangChain itself crashes on this input: with `keep_separator` and a
    /// pattern that has its own capturing groups, its pairing of `re.split`'s
    /// results goes wrong.
    LangChainCrash {
        /// Position in the separator list.
        index: usize,
        /// The pattern.
        pattern: String,
        /// The Python exception (`TypeError`, `IndexError`).
        exception: &'static str,
        /// Its message.
        message: String,
    },
}

/// The special token tiktoken's `encode` raises on with its defaults: the
/// leftmost special token's text in `text` (no two can start at one place:
/// each is `<|`, a name, `|>`).
pub(crate) fn leftmost_special_token(encoding: Encoding, text: &str) -> Option<&'static str> {
    // Each opens with "<|": one pass over the places that could start one
    // finds the leftmost, where searching for each token apart read the
    // text once per token.
    let tokens = encoding.special_tokens();
    text.match_indices("<|")
        .find_map(|(at, _)| tokens.iter().find(|t| text[at..].starts_with(*t)))
        .copied()
}

/// tiktoken's message for a special token in text it is asked to encode
/// with its defaults (`disallowed_special="all"`), word for word.
pub(crate) fn disallowed_special_message(token: &str) -> String {
    format!(
        "Encountered text corresponding to disallowed special token '{token}'.\n\
         If you want this text to be encoded as a special token, pass it to `allowed_special`, e.g. `allowed_special={{'{token}', ...}}`.\n\
         If you want this text to be encoded as normal text, disable the check for this token by passing `disallowed_special=(enc.special_tokens_set - {{'{token}'}})`.\n\
         To disable this check for all special tokens, pass `disallowed_special=()`.\n"
    )
}

impl LangChainError {
    /// The exception LangChain raises on the same input, as Python spells
    /// its class (`ValueError`, `re.error`, …), and its message word for
    /// word. This engine's own messages say more (which setting, what to
    /// change); this is the mapping from them to LangChain's, and the
    /// differential tests compare it with the real library's exactly.
    ///
    /// `None` for this engine's own refusals, on input LangChain splits
    /// ([`UnsupportedRegex`](Self::UnsupportedRegex),
    /// [`RegexTooComplex`](Self::RegexTooComplex), [`TooDeep`](Self::TooDeep),
    /// [`TokenizerNotLoaded`](Self::TokenizerNotLoaded)), and for the
    /// playground's mapping of its settings onto LangChain's arguments
    /// ([`MixedSeparators`](Self::MixedSeparators) and the header markers'
    /// errors), which LangChain never sees.
    pub fn langchain_exception(&self) -> Option<(&'static str, String)> {
        match self {
            LangChainError::ZeroSize => {
                Some(("ValueError", "chunk_size must be > 0, got 0".to_string()))
            }
            LangChainError::OverlapLargerThanSize { overlap, size } => Some((
                "ValueError",
                format!(
                    "Got a larger chunk overlap ({overlap}) than chunk size ({size}), should be smaller."
                ),
            )),
            LangChainError::InvalidRegex {
                exception, message, ..
            } => Some((exception, message.clone())),
            LangChainError::DisallowedSpecialToken { token } => {
                Some(("ValueError", disallowed_special_message(token)))
            }
            LangChainError::LangChainCrash {
                exception, message, ..
            } => Some((exception, message.clone())),
            LangChainError::UnsupportedRegex { .. }
            | LangChainError::RegexTooComplex { .. }
            | LangChainError::TooDeep { .. }
            | LangChainError::TokenizerNotLoaded { .. }
            | LangChainError::MixedSeparators
            | LangChainError::BadHeaderMarker { .. }
            | LangChainError::NoHeaderMarkers
            | LangChainError::HeaderAtTheEnd => None,
        }
    }

    /// The setting to change to get past this error.
    pub fn setting(&self) -> Setting {
        match self {
            LangChainError::ZeroSize => Setting::Size,
            LangChainError::OverlapLargerThanSize { .. } => Setting::Overlap,
            // Counting in chars is the fix the message offers for a
            // special token.
            LangChainError::TokenizerNotLoaded { .. }
            | LangChainError::DisallowedSpecialToken { .. } => Setting::Unit,
            LangChainError::InvalidRegex { index, .. }
            | LangChainError::UnsupportedRegex { index, .. }
            | LangChainError::RegexTooComplex { index, .. }
            | LangChainError::LangChainCrash { index, .. }
            | LangChainError::BadHeaderMarker { index, .. } => Setting::Separator(*index),
            LangChainError::NoHeaderMarkers => Setting::Separators,
            LangChainError::HeaderAtTheEnd => Setting::Placement,
            LangChainError::MixedSeparators | LangChainError::TooDeep { .. } => Setting::Separators,
        }
    }

    /// Whether LangChain raises on the same input too (as opposed to a
    /// refusal of this engine, or of the playground's settings mapping: see
    /// [`langchain_exception`](Self::langchain_exception)).
    pub fn langchain_raises(&self) -> bool {
        self.langchain_exception().is_some()
    }
}

impl fmt::Display for LangChainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LangChainError::ZeroSize => write!(
                f,
                "chunk_size must be at least 1: LangChain refuses 0 (\"chunk_size must be > 0\"), since no chunk could hold anything"
            ),
            LangChainError::OverlapLargerThanSize { overlap, size } => write!(
                f,
                "chunk_overlap ({overlap}) is larger than chunk_size ({size}): LangChain refuses this; an overlap may be as large as the size, never larger"
            ),
            LangChainError::MixedSeparators => write!(
                f,
                "some separators are regular expressions and some are not, but LangChain has one is_separator_regex switch for the whole list: make them all regexes (escape the literal ones) or all literals"
            ),
            LangChainError::InvalidRegex {
                index,
                pattern,
                reason,
                position,
                wrapped,
                exception,
                ..
            } => {
                write!(f, "separator {} (/{pattern}/) is not a valid Python regular expression: {reason}", index + 1)?;
                if let Some(p) = position {
                    write!(f, " (position {p})")?;
                }
                if *wrapped {
                    write!(f, "; LangChain wraps it in ( ) to keep the separator, and the wrapped pattern is what fails")?;
                }
                write!(f, ", so LangChain raises {exception} here too")
            }
            LangChainError::UnsupportedRegex {
                index,
                pattern,
                feature,
            } => write!(
                f,
                "separator {} (/{pattern}/) uses {feature}; Python accepts it, but this playground cannot promise LangChain's exact result, so it does not guess",
                index + 1
            ),
            LangChainError::RegexTooComplex { index, pattern } => write!(
                f,
                "separator {} (/{pattern}/) backtracks too much on this text (Python would be extremely slow too): avoid nested repeats such as (a+)+",
                index + 1
            ),
            LangChainError::DisallowedSpecialToken { token } => write!(
                f,
                "LangChain raises here (ValueError from tiktoken): the text holds {token}, a special token that from_tiktoken_encoder refuses to encode; remove it, or count in chars"
            ),
            LangChainError::TokenizerNotLoaded { encoding } => write!(
                f,
                "the {} tokenizer is not loaded yet: load it, or count in chars or bytes",
                encoding.name()
            ),
            LangChainError::TooDeep { depth } => write!(
                f,
                "the separators make LangChain recurse more than {} levels deep (one level per separator used); Python gives up near 1000 with a RecursionError: use fewer separators",
                depth - 1
            ),
            LangChainError::BadHeaderMarker { index, marker, why } => write!(
                f,
                "separator {} ({marker:?}) is not a header marker: {why}, such as \"##\" for level-2 headers",
                index + 1
            ),
            LangChainError::NoHeaderMarkers => write!(
                f,
                "MarkdownHeaderTextSplitter needs at least one header marker to split on: add \"#\", \"##\", …"
            ),
            LangChainError::HeaderAtTheEnd => write!(
                f,
                "MarkdownHeaderTextSplitter either strips a header line (placement none: strip_headers=True) or keeps it at the start of its section (placement start: strip_headers=False); it cannot go at the end of the section before"
            ),
            LangChainError::LangChainCrash {
                index,
                pattern,
                exception,
                message,
            } => write!(
                f,
                "LangChain itself crashes here ({exception}: {message}): separator {} (/{pattern}/) has its own capturing groups, and with keep_separator LangChain pairs up re.split's results wrongly; use non-capturing groups (?:…)",
                index + 1
            ),
        }
    }
}

impl std::error::Error for LangChainError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_leftmost_special_token_is_found_where_one_opens() {
        for encoding in Encoding::ALL {
            assert!(encoding
                .special_tokens()
                .iter()
                .all(|t| t.starts_with("<|")));
            assert_eq!(leftmost_special_token(encoding, "a <| b |> <|x|>"), None);
            assert_eq!(
                leftmost_special_token(encoding, "a <|<|endofprompt|> then <|endoftext|>"),
                Some("<|endofprompt|>")
            );
        }
        assert_eq!(
            leftmost_special_token(Encoding::Cl100k, "<|fim_suffix|><|endoftext|>"),
            Some("<|fim_suffix|>")
        );
    }
}
