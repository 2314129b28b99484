//! The token ends of a whole text, as a rank structure.
//!
//! Counting a span's tokens from one tokenization of the whole text needs one
//! question answered many times: how many of the text's tokens end before
//! offset `pos`. A sorted list of the ends answers it with a search, and takes
//! 4 bytes a token, about as much memory as the text itself. Here each byte
//! offset is one bit (set where a token ends); every 512 bits the number of
//! ends before them is kept, and every 64 bits the number since the last 512:
//! 1/8 + 1/64 + 1/32 of the text's size, and an answer is two stored counts
//! plus one population count (which a portable build, without the `popcnt`
//! instruction, computes in a dozen instructions: it is worth saving).

/// Bits per word of the set.
const WORD: usize = 64;

/// Words per block that has its own running count.
const BLOCK: usize = 8;

/// The offsets where a text's tokens end (see the module's notes).
///
/// Invariant, once [`finish`](TokenEnds::finish) has run: `counts[b]` is the
/// number of set bits in `bits[..b * BLOCK]`, and `within[w]` the number in
/// `bits[w / BLOCK * BLOCK..w]`.
#[derive(Clone, Debug)]
pub struct TokenEnds {
    /// Bit `i % 64` of word `i / 64` is set when a token ends at offset `i`.
    bits: Vec<u64>,
    counts: Vec<usize>,
    within: Vec<u16>,
    /// How many tokens end anywhere.
    total: usize,
}

impl TokenEnds {
    /// No ends, for a text of `len` bytes (offsets `0..=len`).
    pub(crate) fn empty(len: usize) -> TokenEnds {
        let words = len / WORD + 1;
        TokenEnds {
            bits: vec![0; words],
            counts: Vec::new(),
            within: Vec::new(),
            total: 0,
        }
    }

    /// Marks `end` (at most the text's length) as a token end.
    #[inline]
    pub(crate) fn insert(&mut self, end: usize) {
        self.bits[end / WORD] |= 1 << (end % WORD);
    }

    /// Makes the running counts, after the last [`insert`](Self::insert).
    pub(crate) fn finish(&mut self) {
        let mut total = 0usize;
        self.counts = self
            .bits
            .chunks(BLOCK)
            .map(|block| {
                let before = total;
                total += block.iter().map(|w| w.count_ones() as usize).sum::<usize>();
                before
            })
            .collect();
        self.total = total;
        self.within = self
            .bits
            .chunks(BLOCK)
            .flat_map(|block| {
                block.iter().scan(0u16, |sum, w| {
                    let before = *sum;
                    *sum += w.count_ones() as u16;
                    Some(before)
                })
            })
            .collect();
    }

    /// How many tokens end at an offset below `pos` (all of them for `pos`
    /// past the text's end).
    #[inline]
    pub fn before(&self, pos: usize) -> usize {
        let word = pos / WORD;
        if word >= self.bits.len() {
            return self.total;
        }
        let part = (self.bits[word] & ((1u64 << (pos % WORD)) - 1)).count_ones();
        self.counts[word / BLOCK] + self.within[word] as usize + part as usize
    }

    /// Every token end, in increasing order: the tokens' byte ends, as the
    /// text's encoding gives them.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    w * WORD + bit
                })
            })
        })
    }

    /// How many tokens the text has.
    pub fn len(&self) -> usize {
        self.total
    }

    /// Whether the text has no tokens (it is empty).
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a sorted list, at every offset, for ends that fill whole
    /// blocks, skip blocks, and end on a word's last bit; and the ends
    /// listed back in order.
    #[test]
    fn before_counts_the_ends_below() {
        for len in [0usize, 1, 63, 64, 65, 511, 512, 513, 2000] {
            for stride in [1usize, 3, 64, 700] {
                let ends: Vec<usize> = (1..=len)
                    .filter(|e| e.is_multiple_of(stride) || *e == len)
                    .collect();
                let mut set = TokenEnds::empty(len);
                for &e in &ends {
                    set.insert(e);
                }
                set.finish();
                assert_eq!(set.len(), ends.len());
                assert_eq!(
                    set.iter().collect::<Vec<_>>(),
                    ends,
                    "len {len} stride {stride}"
                );
                for pos in 0..=len + 70 {
                    let want = ends.partition_point(|&e| e < pos);
                    assert_eq!(set.before(pos), want, "len {len} stride {stride} pos {pos}");
                }
            }
        }
    }
}
