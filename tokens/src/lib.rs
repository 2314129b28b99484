//! Exact token counts for OpenAI's `cl100k_base` and `o200k_base` encodings, so
//! chunk sizes can be measured in tokens, natively and in the browser.
//!
//! # What "exact" means
//!
//! [`Tokenizer::encode`] returns the same token ids as tiktoken's
//! `encode_ordinary` (tiktoken-rs 0.12.1, the Rust core of Python tiktoken):
//! special-token text such as `<|endoftext|>` is ordinary text here. The
//! differential tests in `tests/tokens.rs` compare the two — token ids and the
//! pre-tokenizer's pieces — on thousands of random and real texts.
//!
//! The one place they part: on a run of about a million white-space
//! characters, tiktoken-rs's regex engine overflows its backtracking stack and
//! `encode_ordinary` panics; here the text is encoded like any other.
//!
//! # How
//!
//! 1. The pre-tokenizer ([`Encoding::pieces`]) cuts the text into pieces the
//!    way tiktoken's regex does — written out as code in `tokens/pretokenize.rs`
//!    rather than pulled in as `fancy-regex` + `regex` (well over 100 KB of wasm),
//!    with Unicode tables generated from, and checked against, the regex crate
//!    (`tokens/unicode.rs`, `tokens/tables.rs`).
//! 2. Each piece is byte-pair encoded over the rank table (`tokens/bpe.rs`),
//!    with tiktoken's merge rule and a compact hash table of its own.
//!
//! # Where the rank table comes from
//!
//! The table is data (a `.tokens` file is 0.7 MB for cl100k, 1.6 MB for
//! o200k; a built tokenizer takes about 3.6 MB and 7 MB of memory), not code,
//! so it is never compiled in:
//!
//! - natively, with the `tiktoken` feature, `Tokenizer::load` takes it from
//!   tiktoken-rs's embedded files;
//! - in the browser, the page fetches [`Encoding::data_file`] (written by
//!   `cargo run -p chunkscope-tokdata --release -- OUT_DIR`) and passes the
//!   bytes to [`Tokenizer::from_data`]. The format is documented in
//!   `tokens/data.rs`.
//!
//! There is no registry: whoever loads a tokenizer holds it and passes it on
//! (core's `Resources`). Natively, [`Tokenizer::shared`] builds each
//! encoding's table once per process, as tiktoken itself caches its
//! encodings.
//!
//! # Example
//!
//! ```
//! use chunkscope_tokens::{Encoding, Tokenizer};
//!
//! // A toy vocabulary: the 256 bytes, then "ab" (rank 256) and "abc" (257).
//! let mut ranks: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
//! ranks.push(b"ab".to_vec());
//! ranks.push(b"abc".to_vec());
//! let tokenizer = Tokenizer::from_ranks(Encoding::Cl100k, ranks)?;
//!
//! // The pre-tokenizer makes "abc" and " abd" two pieces; "abd" is not a token,
//! // so BPE merges "ab" and leaves "d".
//! assert_eq!(tokenizer.encode("abc abd"), [257, 32, 256, 100]);
//! assert_eq!(tokenizer.count("abc abd"), 4);
//! assert_eq!(tokenizer.token_ends("abc abd"), [3, 4, 6, 7]);
//!
//! let again = Tokenizer::from_data(&tokenizer.to_data())?;
//! assert_eq!(again.encode("abc abd"), tokenizer.encode("abc abd"));
//! # Ok::<(), chunkscope_tokens::TokenizerError>(())
//! ```

#![forbid(unsafe_code)]

mod bpe;
mod data;
mod ends;
mod memo;

pub use ends::TokenEnds;
pub use memo::PieceMemo;
mod pretokenize;
mod tables;
mod unicode;

pub use pretokenize::Pieces;

use bpe::Vocabulary;
use std::fmt;
use std::str::FromStr;
#[cfg(all(feature = "tiktoken", not(target_arch = "wasm32")))]
use std::sync::OnceLock;

/// One of the supported OpenAI encodings. Its [`name`](Encoding::name) is how
/// it is written everywhere in chunkscope (CLI, JS API, file names).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Encoding {
    /// `cl100k_base`: GPT-4, GPT-3.5-turbo, text-embedding-3-*, ada-002.
    Cl100k,
    /// `o200k_base`: GPT-4o, GPT-4.1, o1/o3/o4, GPT-5.
    O200k,
}

impl Encoding {
    /// Every encoding, in a fixed order.
    pub const ALL: [Encoding; 2] = [Encoding::Cl100k, Encoding::O200k];

    /// The short name: `"cl100k"` or `"o200k"`.
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Cl100k => "cl100k",
            Encoding::O200k => "o200k",
        }
    }

    /// The name tiktoken uses: `"cl100k_base"` or `"o200k_base"`.
    pub const fn python_name(self) -> &'static str {
        match self {
            Encoding::Cl100k => "cl100k_base",
            Encoding::O200k => "o200k_base",
        }
    }

    /// The file the browser fetches for this encoding's rank table:
    /// `"cl100k.tokens"` or `"o200k.tokens"`.
    pub const fn data_file(self) -> &'static str {
        match self {
            Encoding::Cl100k => "cl100k.tokens",
            Encoding::O200k => "o200k.tokens",
        }
    }

    /// The size in bytes of [`data_file`](Encoding::data_file) for the pinned
    /// tables (tiktoken-rs 0.12.1), so a page can say how much it is about to
    /// download before it does. A test holds it to the real file.
    pub const fn data_bytes(self) -> usize {
        match self {
            Encoding::Cl100k => 744_107,
            Encoding::O200k => 1_597_688,
        }
    }

    /// The encoding's special tokens. Ordinary encoding (ours, and tiktoken's
    /// `encode_ordinary`) reads them as plain text; tiktoken's `encode`, which
    /// LangChain's `from_tiktoken_encoder` uses, refuses text that holds one.
    pub const fn special_tokens(self) -> &'static [&'static str] {
        match self {
            Encoding::Cl100k => &[
                "<|endoftext|>",
                "<|fim_prefix|>",
                "<|fim_middle|>",
                "<|fim_suffix|>",
                "<|endofprompt|>",
            ],
            Encoding::O200k => &["<|endoftext|>", "<|endofprompt|>"],
        }
    }

    /// Who uses the encoding, in a few words, for a menu.
    pub const fn models(self) -> &'static str {
        match self {
            Encoding::Cl100k => "GPT-4, GPT-3.5, text-embedding-3",
            Encoding::O200k => "GPT-4o, GPT-4.1, o-series, GPT-5",
        }
    }

    /// The pre-tokenizer alone: the byte ranges of the pieces that BPE encodes
    /// separately. They tile `text` in order; each ends on a char boundary.
    pub fn pieces(self, text: &str) -> Pieces<'_> {
        Pieces::new(self, text)
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Encoding {
    type Err = TokenizerError;

    /// Accepts the short and the tiktoken names: `cl100k`, `cl100k_base`,
    /// `o200k`, `o200k_base`.
    fn from_str(name: &str) -> Result<Encoding, TokenizerError> {
        Encoding::ALL
            .into_iter()
            .find(|e| name == e.name() || name == e.python_name())
            .ok_or_else(|| TokenizerError::UnknownEncoding(name.to_owned()))
    }
}

/// Why a tokenizer could not be built or loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenizerError {
    /// Not the name of a supported encoding.
    UnknownEncoding(String),
    /// The data does not start with the `.tokens` magic bytes.
    NotTokenData,
    /// A `.tokens` file of a format version this build cannot read.
    UnsupportedVersion(u8),
    /// The data ends in the middle of `what`, which starts at byte `offset`.
    Truncated { what: &'static str, offset: usize },
    /// A token length at byte `offset` that is not a valid 32-bit varint.
    BadLength { offset: usize },
    /// Bytes after the last token, from byte `offset`.
    TrailingBytes { offset: usize },
    /// The token of this rank has no bytes.
    EmptyToken { rank: u32 },
    /// The token of rank `rank` has the same bytes as the one of rank `first`.
    DuplicateToken { rank: u32, first: u32 },
    /// No token is this single byte, so some texts could not be encoded.
    MissingByte(u8),
    /// More tokens than ranks fit in a `u32`.
    TooManyTokens(usize),
    /// More than 4 GiB of token bytes.
    TooLarge,
    /// tiktoken-rs could not build the encoding (feature `tiktoken`).
    Load(String),
}

impl fmt::Display for TokenizerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenizerError::UnknownEncoding(name) => write!(
                f,
                "unknown encoding {name:?}: expected one of cl100k, o200k (or cl100k_base, o200k_base)"
            ),
            TokenizerError::NotTokenData => {
                f.write_str("not a tokenizer data file: it does not start with \"CSTOKENS\"")
            }
            TokenizerError::UnsupportedVersion(v) => write!(
                f,
                "tokenizer data file version {v} is not supported (this build reads version {})",
                data::VERSION
            ),
            TokenizerError::Truncated { what, offset } => write!(
                f,
                "tokenizer data file is truncated: it ends in {what} at byte {offset}"
            ),
            TokenizerError::BadLength { offset } => write!(
                f,
                "tokenizer data file is corrupt: bad token length at byte {offset}"
            ),
            TokenizerError::TrailingBytes { offset } => write!(
                f,
                "tokenizer data file is corrupt: unexpected bytes after the last token, at byte {offset}"
            ),
            TokenizerError::EmptyToken { rank } => write!(f, "token {rank} is empty"),
            TokenizerError::DuplicateToken { rank, first } => {
                write!(f, "token {rank} has the same bytes as token {first}")
            }
            TokenizerError::MissingByte(byte) => write!(
                f,
                "no token for the single byte 0x{byte:02X}: every byte must be a token"
            ),
            TokenizerError::TooManyTokens(n) => {
                write!(f, "{n} tokens is too many: ranks must fit in 32 bits")
            }
            TokenizerError::TooLarge => f.write_str("more than 4 GiB of token bytes"),
            TokenizerError::Load(message) => write!(f, "cannot load the encoding: {message}"),
        }
    }
}

impl std::error::Error for TokenizerError {}

/// A byte-pair-encoding tokenizer for one [`Encoding`]: its pre-tokenizer and
/// rank table.
///
/// Immutable once built, so one instance can be shared by every thread (see
/// [`Tokenizer::shared`]). Encoding allocates only the result and one scratch buffer per
/// call.
#[derive(Clone)]
pub struct Tokenizer {
    encoding: Encoding,
    vocabulary: Vocabulary,
}

impl fmt::Debug for Tokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tokenizer")
            .field("encoding", &self.encoding)
            .field("tokens", &self.vocabulary.len())
            .finish()
    }
}

impl Tokenizer {
    /// Builds a tokenizer from its rank table: `ranks[r]` is the bytes of token
    /// `r`. Special tokens are not part of it.
    ///
    /// Fails if a token is empty or repeated, or a single byte is not a token
    /// (byte-level BPE needs all 256).
    pub fn from_ranks(
        encoding: Encoding,
        ranks: Vec<Vec<u8>>,
    ) -> Result<Tokenizer, TokenizerError> {
        let total: usize = ranks.iter().map(Vec::len).sum();
        if u32::try_from(total).is_err() {
            return Err(TokenizerError::TooLarge);
        }
        let mut bytes = Vec::with_capacity(total);
        let mut starts = Vec::with_capacity(ranks.len() + 1);
        starts.push(0);
        for token in &ranks {
            bytes.extend_from_slice(token);
            starts.push(bytes.len() as u32);
        }
        Ok(Tokenizer {
            encoding,
            vocabulary: Vocabulary::new(bytes, starts)?,
        })
    }

    /// Reads a `.tokens` file (see [`Tokenizer::to_data`]). Any input is either
    /// a tokenizer or an error naming what is wrong; none panics.
    pub fn from_data(data: &[u8]) -> Result<Tokenizer, TokenizerError> {
        let table = data::read(data)?;
        Ok(Tokenizer {
            encoding: table.encoding,
            vocabulary: Vocabulary::new(table.bytes, table.starts)?,
        })
    }

    /// The `.tokens` file for this tokenizer: magic `CSTOKENS`, version 1,
    /// the encoding name, the token count, then each token as a varint length
    /// and its bytes, in rank order (details in `tokens/data.rs`).
    pub fn to_data(&self) -> Vec<u8> {
        let vocabulary = &self.vocabulary;
        let tokens = (0..vocabulary.len() as u32).map(|rank| vocabulary.token(rank));
        data::write(self.encoding, vocabulary.len(), tokens)
    }

    /// A tokenizer that lives as long as the program: `self`, kept for good.
    /// For tables read from a file (the browser's), which a counter holds by
    /// reference and which are never unloaded.
    pub fn leak(self) -> &'static Tokenizer {
        Box::leak(Box::new(self))
    }

    /// Builds the rank table from tiktoken-rs's embedded data (0.2 s for cl100k,
    /// 0.4 s for o200k in a release build; [`Tokenizer::shared`] does it once per process).
    ///
    /// The table is read back one rank at a time with `decode_bytes`, from 0
    /// up to the first rank that is not an ordinary token.
    #[cfg(all(feature = "tiktoken", not(target_arch = "wasm32")))]
    pub fn load(encoding: Encoding) -> Result<Tokenizer, TokenizerError> {
        let bpe = match encoding {
            Encoding::Cl100k => tiktoken_rs::cl100k_base(),
            Encoding::O200k => tiktoken_rs::o200k_base(),
        }
        .map_err(|e| TokenizerError::Load(e.to_string()))?;
        let special = bpe.special_tokens();
        let mut ranks = Vec::new();
        while let Ok(bytes) = bpe.decode_bytes(&[ranks.len() as u32]) {
            if std::str::from_utf8(&bytes).is_ok_and(|s| special.contains(s)) {
                break;
            }
            ranks.push(bytes);
        }
        Tokenizer::from_ranks(encoding, ranks)
    }

    /// Which encoding this is.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The number of ordinary tokens (100 256 for cl100k, 199 998 for o200k).
    pub fn vocabulary_size(&self) -> usize {
        self.vocabulary.len()
    }

    /// The bytes of one token, or `None` if `token` is not a rank of this
    /// vocabulary. A token is bytes, not text: it may be part of a UTF-8
    /// character.
    pub fn token_bytes(&self, token: u32) -> Option<&[u8]> {
        ((token as usize) < self.vocabulary.len()).then(|| self.vocabulary.token(token))
    }

    /// The bytes of a sequence of tokens, or `None` if one is not a rank of
    /// this vocabulary. `decode_bytes(&encode(text)) == text.as_bytes()`.
    pub fn decode_bytes(&self, tokens: &[u32]) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(tokens.len() * 4);
        for &token in tokens {
            out.extend_from_slice(self.token_bytes(token)?);
        }
        Some(out)
    }

    /// The token ids of `text`, as tiktoken's `encode_ordinary`.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut tokens = Vec::with_capacity(text.len() / 3 + 1);
        let mut parts = Vec::new();
        self.for_each_piece(text, |piece, _| {
            self.vocabulary
                .encode_piece(piece, &mut parts, |rank, _| tokens.push(rank));
        });
        tokens
    }

    /// The number of tokens of `text`: `encode(text).len()`, without building
    /// the list.
    pub fn count(&self, text: &str) -> usize {
        let mut count = 0;
        let mut parts = Vec::new();
        if text.len() >= memo::MIN_TEXT {
            return self.count_with(text, &mut PieceMemo::new());
        }
        self.for_each_piece(text, |piece, _| {
            count += self.vocabulary.count_piece(piece, &mut parts);
        });
        count
    }

    /// [`count`](Self::count), remembering pieces in `memo` (and answering
    /// from it): for many texts of one document, whose words recur.
    pub fn count_with(&self, text: &str, memo: &mut PieceMemo) -> usize {
        let mut count = 0;
        let mut parts = Vec::new();
        let bytes = text.as_bytes();
        for piece in self.encoding.pieces(text) {
            count += match memo.ends(bytes, piece.clone(), &self.vocabulary, &mut parts) {
                Some(ends) => ends.len(),
                None => self.vocabulary.count_piece(&bytes[piece], &mut parts),
            };
        }
        count
    }

    /// The byte offset in `text` where each token of `encode(text)` ends: a
    /// strictly increasing list whose last entry is `text.len()` (empty for an
    /// empty text). Token `i` covers `ends[i - 1]..ends[i]` (from 0 for the
    /// first).
    ///
    /// Tokens are bytes, so an end may fall *inside* a multi-byte UTF-8
    /// character (an emoji or a CJK character is often two or three tokens);
    /// such an offset is not a `str` char boundary. Piece boundaries always
    /// are, so at least the last token of every piece ends on one.
    pub fn token_ends(&self, text: &str) -> Vec<usize> {
        let mut ends = Vec::with_capacity(text.len() / 3 + 1);
        let mut memo = (text.len() >= memo::MIN_TEXT).then(memo::PieceMemo::new);
        self.each_token_end(text, memo.as_mut(), |end| ends.push(end));
        ends
    }

    /// [`token_ends`](Self::token_ends) as a set of offsets that answers
    /// "how many tokens end before this offset" in constant time, in about a
    /// sixth of the text's size (see [`TokenEnds`]): a long document has
    /// about one token per 4 bytes, so its ends as a list would take as much
    /// memory as the text or more.
    pub fn token_end_set(&self, text: &str) -> TokenEnds {
        let mut memo = (text.len() >= memo::MIN_TEXT).then(memo::PieceMemo::new);
        self.end_set(text, memo.as_mut())
    }

    /// [`token_end_set`](Self::token_end_set) through `memo`, which is left
    /// holding the text's pieces: counting the text's spans afterwards with
    /// [`count_with`](Self::count_with) and the same memo finds most of
    /// their words there.
    pub fn token_end_set_with(&self, text: &str, memo: &mut PieceMemo) -> TokenEnds {
        self.end_set(text, Some(memo))
    }

    fn end_set(&self, text: &str, memo: Option<&mut PieceMemo>) -> TokenEnds {
        let mut set = TokenEnds::empty(text.len());
        self.each_token_end(text, memo, |end| set.insert(end));
        set.finish();
        set
    }

    fn each_token_end(
        &self,
        text: &str,
        mut memo: Option<&mut PieceMemo>,
        mut push: impl FnMut(usize),
    ) {
        let mut parts = Vec::new();
        let bytes = text.as_bytes();
        for range in self.encoding.pieces(text) {
            let start = range.start;
            if let Some(known) = memo
                .as_mut()
                .and_then(|m| m.ends(bytes, range.clone(), &self.vocabulary, &mut parts))
            {
                for &e in known {
                    push(start + e as usize);
                }
                continue;
            }
            let mut end = start;
            self.vocabulary
                .encode_piece(&bytes[range], &mut parts, |_, len| {
                    end += len;
                    push(end);
                });
        }
    }

    /// Calls `visit(piece_bytes, piece_start)` for each pre-tokenizer piece.
    #[inline]
    fn for_each_piece(&self, text: &str, mut visit: impl FnMut(&[u8], usize)) {
        let bytes = text.as_bytes();
        for range in self.encoding.pieces(text) {
            let start = range.start;
            visit(&bytes[range], start);
        }
    }
}

/// Natively, each encoding's table built at most once per process (see
/// [`Tokenizer::shared`]).
#[cfg(all(feature = "tiktoken", not(target_arch = "wasm32")))]
static SHARED: [OnceLock<Tokenizer>; 2] = [OnceLock::new(), OnceLock::new()];

#[cfg(all(feature = "tiktoken", not(target_arch = "wasm32")))]
impl Tokenizer {
    /// `encoding`'s tokenizer from tiktoken-rs's embedded data, built the
    /// first time it is asked for and shared for the rest of the process (the
    /// tables never change, and building one takes tenths of a second).
    pub fn shared(encoding: Encoding) -> Result<&'static Tokenizer, TokenizerError> {
        let slot = &SHARED[encoding as usize];
        if let Some(tokenizer) = slot.get() {
            return Ok(tokenizer);
        }
        let tokenizer = Tokenizer::load(encoding)?;
        Ok(slot.get_or_init(|| tokenizer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 256 single bytes, then `extra`.
    fn toy(encoding: Encoding, extra: &[&str]) -> Tokenizer {
        let mut ranks: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        ranks.extend(extra.iter().map(|t| t.as_bytes().to_vec()));
        Tokenizer::from_ranks(encoding, ranks).unwrap()
    }

    #[test]
    fn names_round_trip() {
        for encoding in Encoding::ALL {
            assert_eq!(encoding.name().parse::<Encoding>(), Ok(encoding));
            assert_eq!(encoding.python_name().parse::<Encoding>(), Ok(encoding));
            assert_eq!(encoding.to_string(), encoding.name());
            assert_eq!(encoding.data_file(), format!("{}.tokens", encoding.name()));
        }
        let error = "p50k".parse::<Encoding>().unwrap_err();
        assert!(
            error.to_string().contains("unknown encoding \"p50k\""),
            "{error}"
        );
    }

    #[test]
    fn encode_count_and_ends_agree() {
        let tokenizer = toy(
            Encoding::O200k,
            &["he", "hel", "hell", "hello", " w", " wo"],
        );
        let text = "hello world, héllo 😀";
        let tokens = tokenizer.encode(text);
        assert_eq!(tokenizer.count(text), tokens.len());
        let ends = tokenizer.token_ends(text);
        assert_eq!(ends.len(), tokens.len());
        assert_eq!(ends.last(), Some(&text.len()));
        assert_eq!(tokenizer.decode_bytes(&tokens).unwrap(), text.as_bytes());
        let mut start = 0;
        for (token, end) in tokens.iter().zip(&ends) {
            assert_eq!(
                tokenizer.token_bytes(*token).unwrap(),
                &text.as_bytes()[start..*end]
            );
            start = *end;
        }
        // The emoji is four single-byte tokens: three ends inside it.
        assert!(ends.iter().any(|&end| !text.is_char_boundary(end)));
        assert!(tokenizer.encode("").is_empty());
        assert!(tokenizer.token_ends("").is_empty());
        assert_eq!(tokenizer.token_bytes(100_000), None);
        assert_eq!(tokenizer.decode_bytes(&[1, 100_000]), None);
    }

    #[test]
    fn data_round_trip() {
        let tokenizer = toy(Encoding::Cl100k, &["ab", "abc", &"z".repeat(200)]);
        let data = tokenizer.to_data();
        let again = Tokenizer::from_data(&data).unwrap();
        assert_eq!(again.encoding(), Encoding::Cl100k);
        assert_eq!(again.vocabulary_size(), 259);
        assert_eq!(again.to_data(), data);
        let text = format!("abc {} ab", "z".repeat(450));
        assert_eq!(again.encode(&text), tokenizer.encode(&text));
    }

    #[test]
    fn debug_is_short() {
        let tokenizer = toy(Encoding::Cl100k, &[]);
        assert_eq!(
            format!("{tokenizer:?}"),
            "Tokenizer { encoding: Cl100k, tokens: 256 }"
        );
    }
}
