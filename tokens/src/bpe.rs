//! The vocabulary (token bytes ↔ rank) and byte-pair encoding of one piece.
//!
//! # BPE as tiktoken does it
//!
//! A piece starts as single bytes. Repeatedly, of all adjacent pairs whose
//! concatenated bytes are a token, the one with the lowest rank is merged
//! (the leftmost if the same token occurs twice); this stops when no adjacent
//! pair is a token. tiktoken looks the *bytes* of the pair up, not the pair of
//! tokens, and so does this file. Before any of that, a piece that is itself a
//! token is that one token — even where merging would not have reached it.
//!
//! Two implementations of the same rule, as in tiktoken: a scan of all parts
//! per merge (O(n·m), fastest for the short pieces of real text) and a heap
//! (O(n log n), for long pieces such as a base64 blob or a run of `=`).
//!
//! # Why a hand-written hash table
//!
//! Every merge step is a hash lookup of a byte slice, so the lookup is the hot
//! path, and most lookups are misses (the pair is not a token). A
//! `HashMap<Vec<u8>, u32>` costs one allocation per token. Here all token
//! bytes live in one buffer, and the table is split the way SwissTable splits
//! it: a dense array of 16-bit tags (the key's length and 8 hash bits; 512 KB
//! for o200k, so it stays in cache) answers almost every miss alone, and only
//! a tag match reads the entry, which holds the token's first 8 bytes so that
//! short tokens (most of them) are confirmed without touching the byte buffer.
//! Nothing here needs a crate, which keeps the browser build small.

use super::TokenizerError;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A token id: its position in the vocabulary.
pub(crate) type Rank = u32;

/// "No token": never a valid rank (a vocabulary has fewer than `u32::MAX`).
const NO_RANK: Rank = Rank::MAX;

/// The tag of an empty slot (a real tag has the key length ≥ 1 in its high byte).
const EMPTY_TAG: u16 = 0;

/// Pieces at least this long are merged with the heap.
const LARGE_PIECE: usize = 100;

/// Token bytes by rank, and the reverse lookup.
///
/// Invariants (checked by [`Vocabulary::new`]): no token is empty, no two
/// tokens have the same bytes, every single byte is a token (so every piece
/// can be encoded), and there are fewer than `u32::MAX` tokens.
#[derive(Clone)]
pub(crate) struct Vocabulary {
    /// All tokens' bytes, concatenated in rank order.
    bytes: Vec<u8>,
    /// Token `r` is `bytes[starts[r]..starts[r + 1]]`; one more entry than tokens.
    starts: Vec<u32>,
    /// Open addressing with linear probing, one tag per slot: `EMPTY_TAG` or
    /// [`tag`]`(hash, len)` of the token in the slot.
    tags: Vec<u16>,
    /// The token in each slot whose tag is not empty.
    entries: Vec<Entry>,
    /// `tags.len() - 1` (the length is a power of two).
    mask: usize,
    /// The longest token's length: longer keys are not looked up.
    longest: usize,
    /// The rank of each single byte.
    byte_ranks: [Rank; 256],
    /// The rank of each two-byte token, indexed by `first << 8 | second`, or
    /// `NO_RANK`. Every merge starts by looking up all adjacent byte pairs of
    /// a piece; this makes those lookups one load from a 256 KB table.
    pair_ranks: Vec<Rank>,
}

/// A token in the hash table.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// Its first (up to) 8 bytes, as [`head`] makes them.
    head: u64,
    /// Its rank.
    rank: Rank,
    /// Where its bytes start in `Vocabulary::bytes`.
    start: u32,
}

/// One part of a piece during the scanning merge.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Part {
    /// Where the part starts in the piece.
    start: u32,
    /// The rank of this part's bytes followed by the next part's, or `NO_RANK`.
    pair_rank: Rank,
    /// The rank of this part's own bytes.
    rank: Rank,
}

impl Vocabulary {
    /// Builds the lookup for tokens given as one buffer plus start offsets
    /// (`starts.len()` = number of tokens + 1, `starts[0] == 0`, non-decreasing,
    /// last == `bytes.len()`; the callers construct it that way).
    pub(crate) fn new(bytes: Vec<u8>, starts: Vec<u32>) -> Result<Vocabulary, TokenizerError> {
        let count = starts.len().saturating_sub(1);
        if count >= NO_RANK as usize {
            return Err(TokenizerError::TooManyTokens(count));
        }
        // A load factor of at most 0.8: probing runs over 2-byte tags, so a
        // long run costs little, and a smaller table stays in cache.
        let capacity = (count + count / 4 + 1).next_power_of_two().max(16);
        let mut vocabulary = Vocabulary {
            bytes,
            starts,
            tags: vec![EMPTY_TAG; capacity],
            entries: vec![Entry::default(); capacity],
            mask: capacity - 1,
            longest: 0,
            byte_ranks: [NO_RANK; 256],
            pair_ranks: vec![NO_RANK; 1 << 16],
        };
        for rank in 0..count as Rank {
            let start = vocabulary.starts[rank as usize];
            let end = vocabulary.starts[rank as usize + 1];
            let token = &vocabulary.bytes[start as usize..end as usize];
            if token.is_empty() {
                return Err(TokenizerError::EmptyToken { rank });
            }
            if let Some(first) = vocabulary.rank(token) {
                return Err(TokenizerError::DuplicateToken { rank, first });
            }
            let (hash, head) = digest(token);
            let mut index = hash as usize & vocabulary.mask;
            while vocabulary.tags[index] != EMPTY_TAG {
                index = (index + 1) & vocabulary.mask;
            }
            vocabulary.tags[index] = tag(hash, token.len());
            vocabulary.entries[index] = Entry { head, rank, start };
            vocabulary.longest = vocabulary.longest.max(token.len());
            match *token {
                [byte] => vocabulary.byte_ranks[byte as usize] = rank,
                [first, second] => {
                    vocabulary.pair_ranks[(first as usize) << 8 | second as usize] = rank
                }
                _ => {}
            }
        }
        if let Some(byte) = (0..=255u8).find(|&b| vocabulary.byte_ranks[b as usize] == NO_RANK) {
            return Err(TokenizerError::MissingByte(byte));
        }
        Ok(vocabulary)
    }

    /// The number of tokens.
    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// The bytes of token `rank` (which must be `< len()`).
    #[inline]
    pub(crate) fn token(&self, rank: Rank) -> &[u8] {
        let rank = rank as usize;
        &self.bytes[self.starts[rank] as usize..self.starts[rank + 1] as usize]
    }

    /// The rank of the token with exactly these bytes.
    #[inline]
    pub(crate) fn rank(&self, key: &[u8]) -> Option<Rank> {
        if key.len() > self.longest {
            return None;
        }
        let (hash, head) = digest(key);
        let tag = tag(hash, key.len());
        let mut index = hash as usize & self.mask;
        loop {
            let slot_tag = self.tags[index];
            if slot_tag == EMPTY_TAG {
                return None;
            }
            if slot_tag == tag {
                let entry = self.entries[index];
                // Equal tags mean equal lengths (below 255); equal heads mean
                // equal first 8 bytes, so only longer keys compare the rest.
                let start = entry.start as usize;
                let same = entry.head == head
                    && match key.len() {
                        0..=8 => true,
                        9..=254 => self.bytes[start + 8..start + key.len()] == key[8..],
                        _ => self.token(entry.rank) == key,
                    };
                if same {
                    return Some(entry.rank);
                }
            }
            index = (index + 1) & self.mask;
        }
    }

    #[inline]
    fn rank_or_none(&self, key: &[u8]) -> Rank {
        self.rank(key).unwrap_or(NO_RANK)
    }

    /// The rank of the two-byte token `pair`, or `NO_RANK`.
    #[inline]
    fn pair_rank(&self, pair: &[u8]) -> Rank {
        self.pair_ranks[(pair[0] as usize) << 8 | pair[1] as usize]
    }

    /// Encodes one piece, calling `emit(rank, byte_len)` for each token in
    /// order. `parts` is scratch space reused across pieces (no allocation per
    /// piece once it has grown).
    #[inline]
    pub(crate) fn encode_piece(
        &self,
        piece: &[u8],
        parts: &mut Vec<Part>,
        mut emit: impl FnMut(Rank, usize),
    ) {
        if let Some(rank) = self.rank(piece) {
            emit(rank, piece.len());
        } else if piece.len() < LARGE_PIECE {
            self.merge_by_scanning(piece, parts);
            for pair in parts.windows(2) {
                emit(pair[0].rank, (pair[1].start - pair[0].start) as usize);
            }
        } else {
            self.merge_with_heap(piece, emit);
        }
    }

    /// How many tokens one piece has (the same merges, nothing emitted).
    #[inline]
    pub(crate) fn count_piece(&self, piece: &[u8], parts: &mut Vec<Part>) -> usize {
        if self.rank(piece).is_some() {
            1
        } else if piece.len() < LARGE_PIECE {
            self.merge_by_scanning(piece, parts);
            parts.len() - 1
        } else {
            let mut count = 0;
            self.merge_with_heap(piece, |_, _| count += 1);
            count
        }
    }

    /// tiktoken's `_byte_pair_merge`: leaves in `parts` the final tokens'
    /// starts and ranks, followed by an end marker at `piece.len()`.
    /// `piece` has at least 2 bytes (a single byte is always a token).
    fn merge_by_scanning(&self, piece: &[u8], parts: &mut Vec<Part>) {
        parts.clear();
        let mut min = (NO_RANK, usize::MAX);
        for (i, pair) in piece.windows(2).enumerate() {
            let pair_rank = self.pair_rank(pair);
            if pair_rank < min.0 {
                min = (pair_rank, i);
            }
            parts.push(Part {
                start: i as u32,
                pair_rank,
                rank: self.byte_ranks[pair[0] as usize],
            });
        }
        let last = piece.len() - 1;
        parts.push(Part {
            start: last as u32,
            pair_rank: NO_RANK,
            rank: self.byte_ranks[piece[last] as usize],
        });
        parts.push(Part {
            start: piece.len() as u32,
            pair_rank: NO_RANK,
            rank: NO_RANK,
        });

        // The rank of part i merged with part i + 1, computed *before* the part
        // after i is removed (hence i + 3: the end of the part after next).
        let pair_rank = |parts: &[Part], i: usize| {
            if i + 3 < parts.len() {
                let start = parts[i].start as usize;
                let end = parts[i + 3].start as usize;
                self.rank_or_none(&piece[start..end])
            } else {
                NO_RANK
            }
        };

        while min.0 != NO_RANK {
            let i = min.1;
            if i > 0 {
                parts[i - 1].pair_rank = pair_rank(parts, i - 1);
            }
            parts[i].rank = min.0;
            parts[i].pair_rank = pair_rank(parts, i);
            parts.remove(i + 1);

            min = (NO_RANK, usize::MAX);
            for (i, part) in parts[..parts.len() - 1].iter().enumerate() {
                if part.pair_rank < min.0 {
                    min = (part.pair_rank, i);
                }
            }
        }
    }

    /// tiktoken's `_byte_pair_merge_large`: the same merges, found with a heap
    /// of candidate pairs ordered by (rank, start). A candidate is stale when
    /// its start's current right-hand pair no longer has that rank (a rank
    /// names one byte string, so equal rank means the same pair).
    fn merge_with_heap(&self, piece: &[u8], mut emit: impl FnMut(Rank, usize)) {
        /// The part that starts at this byte (meaningful while it is a start).
        #[derive(Clone, Copy)]
        struct Node {
            /// Start of the previous part.
            prev: usize,
            /// End of this part (start of the next).
            end: usize,
            /// End of the next part.
            next_end: usize,
            /// Rank of this part merged with the next, or `NO_RANK`.
            next_rank: Rank,
            /// Rank of this part if it is a merged token, else `NO_RANK`.
            own_rank: Rank,
        }
        let len = piece.len();
        let mut nodes: Vec<Node> = (0..len)
            .map(|i| Node {
                prev: i.wrapping_sub(1),
                end: i + 1,
                next_end: i + 2,
                next_rank: NO_RANK,
                own_rank: NO_RANK,
            })
            .collect();
        let mut heap = BinaryHeap::with_capacity(len);
        for i in 0..len - 1 {
            let rank = self.pair_rank(&piece[i..i + 2]);
            if rank != NO_RANK {
                heap.push(Reverse((rank, i)));
                nodes[i].next_rank = rank;
            }
        }

        // Records the pair starting at `start` and ending at `next_end`.
        let candidate = |nodes: &mut [Node], heap: &mut BinaryHeap<_>, start: usize, next_end| {
            nodes[start].next_end = next_end;
            nodes[start].next_rank = NO_RANK;
            if next_end <= len {
                if let Some(rank) = self.rank(&piece[start..next_end]) {
                    heap.push(Reverse((rank, start)));
                    nodes[start].next_rank = rank;
                }
            }
        };

        while let Some(Reverse((rank, left))) = heap.pop() {
            if rank != nodes[left].next_rank {
                continue;
            }
            let right = nodes[left].end;
            let right_end = nodes[left].next_end;
            let right_next_end = nodes[right].next_end;

            nodes[left].own_rank = rank;
            nodes[left].end = right_end;
            candidate(&mut nodes, &mut heap, left, right_next_end);
            if right_end < len {
                nodes[right_end].prev = left;
            }
            if left > 0 {
                let prev = nodes[left].prev;
                candidate(&mut nodes, &mut heap, prev, right_end);
            }
            nodes[right].next_rank = NO_RANK;
        }

        let mut start = 0;
        while start < len {
            let node = nodes[start];
            let rank = if node.own_rank != NO_RANK {
                node.own_rank
            } else {
                self.byte_ranks[piece[start] as usize]
            };
            emit(rank, node.end - start);
            start = node.end;
        }
    }
}

/// A slot's tag: the key's length (capped at 255) and 8 bits of its hash
/// that the slot index does not use. Never `EMPTY_TAG`, as keys are not empty.
#[inline]
fn tag(hash: u64, len: usize) -> u16 {
    (len.min(255) as u16) << 8 | (hash >> 56) as u16
}

/// The first (up to) 8 bytes of `key`, zero-padded, as a little-endian word.
///
/// Built from fixed-size loads (overlapping where the key is shorter than the
/// load) rather than a variable-length copy into a buffer: the copy is a
/// `memcpy` call whose bytes then reach the register through a stalled
/// store-to-load forward, on every lookup.
#[inline]
fn head(key: &[u8]) -> u64 {
    let n = key.len();
    if n >= 8 {
        u64::from_le_bytes([
            key[0], key[1], key[2], key[3], key[4], key[5], key[6], key[7],
        ])
    } else if n >= 4 {
        let low = u32::from_le_bytes([key[0], key[1], key[2], key[3]]) as u64;
        let high = u32::from_le_bytes([key[n - 4], key[n - 3], key[n - 2], key[n - 1]]) as u64;
        low | high << ((n - 4) * 8)
    } else if n > 0 {
        // n = 1, 2 or 3: bytes 0, n/2 and n-1 cover every byte (some twice).
        key[0] as u64 | (key[n / 2] as u64) << (n / 2 * 8) | (key[n - 1] as u64) << ((n - 1) * 8)
    } else {
        0
    }
}

/// The hash of `key` and its [`head`]: FxHash-style mixing of 8-byte words
/// (one multiply each) and a final avalanche, so that both the low bits (the
/// slot index) and the high bits (the tag) depend on every input bit.
#[inline]
fn digest(key: &[u8]) -> (u64, u64) {
    const K: u64 = 0xF135_7AEA_2E62_A9C5;
    let head = head(key);
    let mut h = ((key.len() as u64).wrapping_mul(K) ^ head).wrapping_mul(K);
    let mut rest = key.get(8..).unwrap_or_default();
    while !rest.is_empty() {
        h = (h ^ self::head(rest)).wrapping_mul(K);
        rest = rest.get(8..).unwrap_or_default();
    }
    h = (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    (h ^ (h >> 32), head)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 256 bytes (ranks 0..256) followed by `merges`.
    fn vocabulary(merges: &[&str]) -> Vocabulary {
        let mut bytes: Vec<u8> = (0..=255).collect();
        let mut starts: Vec<u32> = (0..=256).collect();
        for token in merges {
            bytes.extend_from_slice(token.as_bytes());
            starts.push(bytes.len() as u32);
        }
        Vocabulary::new(bytes, starts).unwrap()
    }

    fn encode(vocabulary: &Vocabulary, piece: &str) -> Vec<Rank> {
        let mut out = Vec::new();
        vocabulary.encode_piece(piece.as_bytes(), &mut Vec::new(), |rank, _| out.push(rank));
        out
    }

    #[test]
    fn merges_lowest_rank_first_leftmost_on_ties() {
        // 256 = "ab", 257 = "bc", 258 = "abc", 259 = "aa"
        let v = vocabulary(&["ab", "bc", "abc", "aa"]);
        assert_eq!(encode(&v, "abc"), [258]); // whole piece
        assert_eq!(encode(&v, "abcx"), [258, b'x' as Rank]);
        assert_eq!(encode(&v, "xbc"), [b'x' as Rank, 257]);
        // "aaa": the leftmost "aa" merges first.
        assert_eq!(encode(&v, "aaa"), [259, b'a' as Rank]);
        assert_eq!(encode(&v, "q"), [b'q' as Rank]);
    }

    #[test]
    fn a_whole_piece_token_wins_over_the_merge_path() {
        // "abc" is a token but no merge reaches it ("ab" and "bc" are absent).
        let v = vocabulary(&["abc"]);
        assert_eq!(encode(&v, "abc"), [256]);
        assert_eq!(encode(&v, "abcd"), [97, 98, 99, 100]);
    }

    #[test]
    fn heap_and_scan_agree() {
        let v = vocabulary(&["ab", "ba", "aba", "abab", "bb", "aa", "aab", "bab"]);
        let mut state = 12345_u32;
        for len in [2, 3, 7, 50, 99, 100, 101, 300] {
            for _ in 0..20 {
                let piece: Vec<u8> = (0..len)
                    .map(|_| {
                        state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
                        if state >> 16 & 1 == 0 {
                            b'a'
                        } else {
                            b'b'
                        }
                    })
                    .collect();
                let mut scan = Vec::new();
                let mut parts = Vec::new();
                if v.rank(&piece).is_none() {
                    v.merge_by_scanning(&piece, &mut parts);
                    scan.extend(
                        parts
                            .windows(2)
                            .map(|p| (p[0].rank, p[1].start - p[0].start)),
                    );
                    let mut heap = Vec::new();
                    v.merge_with_heap(&piece, |rank, len| heap.push((rank, len as u32)));
                    assert_eq!(scan, heap, "{:?}", String::from_utf8_lossy(&piece));
                    assert_eq!(v.count_piece(&piece, &mut parts), scan.len());
                }
            }
        }
    }

    #[test]
    fn invalid_vocabularies_are_errors() {
        let empty = Vocabulary::new(b"ab".to_vec(), vec![0, 1, 1, 2]);
        assert_eq!(empty.err(), Some(TokenizerError::EmptyToken { rank: 1 }));
        let mut bytes: Vec<u8> = (0..=255).collect();
        bytes.push(b'a');
        let duplicate = Vocabulary::new(bytes, (0..=257).collect());
        assert_eq!(
            duplicate.err(),
            Some(TokenizerError::DuplicateToken {
                rank: 256,
                first: 97
            })
        );
        let missing = Vocabulary::new((0..=254).collect(), (0..=255).collect());
        assert_eq!(missing.err(), Some(TokenizerError::MissingByte(255)));
    }

    #[test]
    fn head_is_the_zero_padded_prefix() {
        let bytes = b"abcdefghij";
        for len in 0..=10 {
            let mut buf = [0; 8];
            let n = len.min(8);
            buf[..n].copy_from_slice(&bytes[..n]);
            assert_eq!(head(&bytes[..len]), u64::from_le_bytes(buf), "{len}");
        }
    }

    #[test]
    fn lookup_finds_every_token_and_nothing_else() {
        let v = vocabulary(&["hello", " world", "a longer token than eight bytes"]);
        for rank in 0..v.len() as Rank {
            assert_eq!(v.rank(v.token(rank)), Some(rank));
        }
        assert_eq!(v.rank(b"hell"), None);
        assert_eq!(v.rank(b""), None);
        assert_eq!(v.rank(b"a longer token than eight bytes!"), None);
    }
}
