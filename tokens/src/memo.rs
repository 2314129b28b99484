//! The tokens of pieces seen recently, for long texts.
//!
//! Real text repeats its words, and each word is a piece. Encoding a piece
//! looks its bytes up in the rank table (a few megabytes, so mostly cache
//! misses), once for the whole piece and once per merge when it is not a
//! token. A small direct-mapped table of the last pieces seen (320 KB, which
//! stays in the core's cache) answers a repeated piece with one probe and two
//! word compares. A piece's tokens depend on its bytes alone, so an answer
//! from the memo is exactly the encoding's.
//!
//! Pieces of 17 to 64 bytes are rare (under one in 200 in prose, Markdown or
//! code) but costly: merging is quadratic in a piece's length, and they
//! recur (indentation, rules of `-` or `=`, long identifiers). Merging them
//! was a tenth of a whole text's tokenization, so a second, smaller table
//! (512 slots, 66 KB) remembers them, compared byte for byte.

use crate::bpe::{Part, Vocabulary};
use std::ops::Range;

/// Pieces up to this many bytes are remembered (most words, with their
/// leading space).
const LONGEST: usize = 16;

/// log2 of the number of slots.
const BITS: u32 = 13;

/// Pieces up to this many bytes go to the table of long pieces.
const LONG: usize = 64;

/// log2 of the number of slots for long pieces.
const LONG_BITS: u32 = 9;

/// Texts shorter than this are not worth the table's setup.
pub(crate) const MIN_TEXT: usize = 16 << 10;

/// One remembered piece. `len == 0` marks an empty slot (pieces are never
/// empty).
#[derive(Clone, Copy, Default)]
struct Slot {
    /// The piece's bytes, zero-padded; with `len`, they name it exactly.
    key: [u64; 2],
    /// The piece's length in bytes.
    len: u8,
    /// How many tokens it has (at most its length).
    count: u8,
    /// The end of each token within the piece.
    ends: [u8; LONGEST],
}

/// One remembered piece of `LONGEST + 1..=LONG` bytes; `len == 0` marks an
/// empty slot.
#[derive(Clone, Copy)]
struct LongSlot {
    key: [u8; LONG],
    len: u8,
    count: u8,
    ends: [u8; LONG],
}

const EMPTY_LONG: LongSlot = LongSlot {
    key: [0; LONG],
    len: 0,
    count: 0,
    ends: [0; LONG],
};

/// The tokens of the pieces seen last (see the module's notes): pass
/// one to [`Tokenizer::count_with`](crate::Tokenizer::count_with) when
/// counting many texts that share their words, such as the spans of one
/// document.
pub struct PieceMemo {
    slots: Vec<Slot>,
    long: Vec<LongSlot>,
}

impl Default for PieceMemo {
    fn default() -> PieceMemo {
        PieceMemo::new()
    }
}

impl PieceMemo {
    /// An empty memo (386 KB).
    pub fn new() -> PieceMemo {
        PieceMemo {
            slots: vec![Slot::default(); 1 << BITS],
            long: vec![EMPTY_LONG; 1 << LONG_BITS],
        }
    }

    /// The end of each token of the piece `text[piece]` within it, from the
    /// memo or encoded now and remembered; `None` for a piece too long to
    /// remember.
    #[inline]
    pub(crate) fn ends(
        &mut self,
        text: &[u8],
        piece: Range<usize>,
        vocabulary: &Vocabulary,
        parts: &mut Vec<Part>,
    ) -> Option<&[u8]> {
        let n = piece.len();
        if n > LONGEST {
            return self.long_ends(&text[piece], vocabulary, parts);
        }
        if n == 0 {
            return None;
        }
        let (start, piece) = (piece.start, &text[piece]);
        let key = match text.get(start..start + LONGEST) {
            // Two fixed loads, masked to the piece's length: the same
            // zero-padded key as `padded` makes, without a branch on the
            // length (which varies from piece to piece, unpredictably).
            Some(window) => {
                let word =
                    |at: usize| u64::from_le_bytes(window[at..at + 8].try_into().expect("8 bytes"));
                [
                    word(0) & LOW_BYTES[n.min(8)],
                    word(8) & LOW_BYTES[n.saturating_sub(8)],
                ]
            }
            None => {
                if n > 8 {
                    [padded(&piece[..8]), padded(&piece[8..])]
                } else {
                    [padded(piece), 0]
                }
            }
        };
        let hash = (key[0] ^ key[1].rotate_left(29) ^ n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let slot = &mut self.slots[(hash >> (64 - BITS)) as usize];
        if slot.len as usize != n || slot.key != key {
            slot.count = encode_ends(vocabulary, piece, parts, &mut slot.ends);
            slot.key = key;
            slot.len = n as u8;
        }
        Some(&slot.ends[..slot.count as usize])
    }

    /// [`ends`](Self::ends) for a piece longer than `LONGEST`: from the
    /// table of long pieces, or `None` past `LONG` bytes.
    fn long_ends(
        &mut self,
        piece: &[u8],
        vocabulary: &Vocabulary,
        parts: &mut Vec<Part>,
    ) -> Option<&[u8]> {
        let n = piece.len();
        if n > LONG {
            return None;
        }
        let hash = piece.chunks(8).fold(n as u64, |hash, word| {
            let mut bytes = [0; 8];
            bytes[..word.len()].copy_from_slice(word);
            (hash.rotate_left(23) ^ u64::from_le_bytes(bytes)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        });
        let slot = &mut self.long[(hash >> (64 - LONG_BITS)) as usize];
        if slot.len as usize != n || slot.key[..n] != *piece {
            slot.count = encode_ends(vocabulary, piece, parts, &mut slot.ends);
            slot.key[..n].copy_from_slice(piece);
            slot.len = n as u8;
        }
        Some(&slot.ends[..slot.count as usize])
    }
}

/// Encodes `piece` (at most `ends.len()` bytes, at most 255) into the end of
/// each of its tokens within it; returns how many there are.
#[inline]
fn encode_ends(
    vocabulary: &Vocabulary,
    piece: &[u8],
    parts: &mut Vec<Part>,
    ends: &mut [u8],
) -> u8 {
    let mut count = 0;
    let mut end = 0;
    vocabulary.encode_piece(piece, parts, |_, len| {
        end += len;
        ends[count] = end as u8;
        count += 1;
    });
    count as u8
}

/// `LOW_BYTES[k]` keeps the low `k` bytes of a word (`k` ≤ 8).
const LOW_BYTES: [u64; 9] = {
    let mut masks = [0u64; 9];
    let mut k = 1;
    while k < 9 {
        masks[k] = u64::MAX >> (64 - 8 * k);
        k += 1;
    }
    masks
};

/// `bytes` (at most 8) as a little-endian word, zero-padded: fixed-size
/// loads rather than a copy of a variable length (a `memcpy` call).
#[inline]
fn padded(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    match n {
        8 => u64::from_le_bytes(bytes.try_into().expect("8 bytes")),
        4..=7 => {
            let low = u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes")) as u64;
            let high = u32::from_le_bytes(bytes[n - 4..].try_into().expect("4 bytes")) as u64;
            low | high << ((n - 4) * 8)
        }
        1..=3 => {
            bytes[0] as u64
                | (bytes[n / 2] as u64) << (n / 2 * 8)
                | (bytes[n - 1] as u64) << ((n - 1) * 8)
        }
        _ => 0,
    }
}
