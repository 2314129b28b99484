//! JSON string escaping for chunk texts, the bulk of a JSON Lines output.
//!
//! serde_json looks up every byte in a table; chunk texts are mostly bytes
//! that need no escape, so here 64 bytes at a time are checked for those
//! that do (a control character, `"` or `\`). The escapes are serde_json's
//! own, byte for byte (`\n`, `\t`, `\r`, `\b`, `\f`, `\"`, `\\`, and
//! `\u00xx` with lower-case hex for the other control characters;
//! everything else, non-ASCII included, as it is), so a line reads the same
//! either way.
//!
//! Two ways, the same bytes (the tests compare both with serde_json):
//! - on processors with AVX-512 VBMI2 ([`wide`]), a block is escaped
//!   without a branch per escape: its bytes are spread out with a `\`
//!   slot before each, and the slots that are not needed are squeezed out;
//! - elsewhere ([`push_escaped_blocks`]), clean runs between escapes are
//!   copied whole, each escape costing a branch.

/// Appends `text`'s JSON escape (without the quotes) to `out`.
pub fn push_escaped(out: &mut Vec<u8>, text: &str) {
    #[cfg(target_arch = "x86_64")]
    if wide::available() {
        // SAFETY: the processor has the features `wide::push_escaped` is
        // compiled for, checked just now.
        return unsafe { wide::push_escaped(out, text.as_bytes()) };
    }
    push_escaped_blocks(out, text.as_bytes())
}

/// [`push_escaped`] for any processor: the text is read 64 bytes at a time,
/// a block's bytes that need an escape are found as one 64-bit mask, and
/// only they cost a branch. In Markdown and code about one byte in 35 does
/// (a line end or a quote).
fn push_escaped_blocks(out: &mut Vec<u8>, bytes: &[u8]) {
    out.reserve(bytes.len() + 2);
    let mut run = 0;
    let mut blocks = bytes.chunks_exact(64);
    let mut base = 0;
    let mut escape_block = |out: &mut Vec<u8>, mut found: u64, base: usize| {
        while found != 0 {
            run = escape_byte(out, bytes, run, base + found.trailing_zeros() as usize);
            found &= found - 1;
        }
    };
    for block in blocks.by_ref() {
        escape_block(out, block_mask(block), base);
        base += 64;
    }
    // The tail (most of a short chunk) is marked the same way, padded
    // with bytes that need no escape.
    let tail = blocks.remainder();
    if !tail.is_empty() {
        let mut padded = [b' '; 64];
        padded[..tail.len()].copy_from_slice(tail);
        escape_block(out, block_mask(&padded), base);
    }
    push_run(out, bytes, run, bytes.len());
}

/// Escaping with AVX-512: no branch per escape.
///
/// A block of 64 bytes is marked as in [`block_escapes`]. Each half of it
/// (32 bytes) is spread over 64 byte slots, every byte preceded by a `\`
/// slot, and the escaped bytes replaced by their letter (`n` for a line
/// end). Then the `\` slots of the bytes that need no escape are squeezed
/// out (`vpcompressb`), leaving the half's escape, which is stored whole
/// and counted by its length: 32 plus the half's escapes. A block holding
/// a control character escaped as `\u00xx` (rare in text) goes the
/// portable way.
#[cfg(target_arch = "x86_64")]
mod wide {
    use std::arch::x86_64::*;

    /// Whether this processor can run [`push_escaped`].
    #[inline]
    pub fn available() -> bool {
        is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vbmi")
            && is_x86_feature_detected!("avx512vbmi2")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("popcnt")
    }

    /// The letter of each two-byte escape, by the low six bits of its
    /// byte (`\\` is 0x5c, at 0x1c; the control character 0x1c itself
    /// is told apart by [`push_block`]). Zero for bytes without one.
    const LETTERS: [u8; 64] = {
        let mut t = [0; 64];
        t[0x08] = b'b';
        t[0x09] = b't';
        t[0x0a] = b'n';
        t[0x0c] = b'f';
        t[0x0d] = b'r';
        t[0x22] = b'"';
        t[0x1c] = b'\\';
        t
    };

    /// Slot `2i` takes a `\` (from the second table), slot `2i + 1` byte
    /// `i` of the half (`HALVES[0]`) or `32 + i` (`HALVES[1]`).
    const HALVES: [[u8; 64]; 2] = {
        let mut t = [[0; 64]; 2];
        let mut i = 0;
        while i < 32 {
            t[0][2 * i] = 64;
            t[0][2 * i + 1] = i as u8;
            t[1][2 * i] = 64;
            t[1][2 * i + 1] = 32 + i as u8;
            i += 1;
        }
        t
    };

    /// Appends the escape of `bytes` to `out`.
    ///
    /// # Safety
    /// The processor has the features of [`available`].
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    pub unsafe fn push_escaped(out: &mut Vec<u8>, bytes: &[u8]) {
        let mut blocks = bytes.chunks_exact(64);
        for block in blocks.by_ref() {
            // SAFETY: a block is 64 bytes.
            let v = unsafe { _mm512_loadu_si512(block.as_ptr().cast()) };
            // SAFETY: the caller's.
            if !unsafe { push_block(out, v, 64) } {
                super::push_escaped_blocks(out, block);
            }
        }
        let tail = blocks.remainder();
        if !tail.is_empty() {
            // Padded with bytes that need no escape; only the tail's own
            // bytes are counted into `out`.
            let mut padded = [b' '; 64];
            padded[..tail.len()].copy_from_slice(tail);
            // SAFETY: `padded` is 64 bytes.
            let v = unsafe { _mm512_loadu_si512(padded.as_ptr().cast()) };
            // SAFETY: the caller's.
            if !unsafe { push_block(out, v, tail.len()) } {
                super::push_escaped_blocks(out, tail);
            }
        }
    }

    /// Appends the escape of the first `real` bytes of the block `v`, or
    /// returns false (having appended nothing) when one of them is a
    /// control character escaped as `\u00xx`.
    ///
    /// # Safety
    /// The processor has the features of [`available`].
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
    unsafe fn push_block(out: &mut Vec<u8>, v: __m512i, real: usize) -> bool {
        let control = _mm512_cmple_epu8_mask(v, _mm512_set1_epi8(0x1f));
        // SAFETY: LETTERS is 64 bytes.
        let table = unsafe { _mm512_loadu_si512(LETTERS.as_ptr().cast()) };
        let letters = _mm512_permutexvar_epi8(v, table);
        let long = control
            & (_mm512_testn_epi8_mask(letters, letters)
                | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(0x1c)));
        if long != 0 {
            return false;
        }
        let escaped = control
            | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'"' as i8))
            | _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(b'\\' as i8));
        let data = _mm512_mask_blend_epi8(escaped, v, letters);
        let backslashes = _mm512_set1_epi8(b'\\' as i8);
        // Each half's 32 bytes become at most 64; the stores are whole
        // vectors, so room for 64 more bytes than are kept.
        out.reserve(real + escaped.count_ones() as usize + 64);
        let mut len = out.len();
        for (h, slots) in HALVES.iter().enumerate().take(real.div_ceil(32)) {
            let mine = (escaped >> (32 * h)) & 0xffff_ffff;
            // SAFETY: HALVES' rows are 64 bytes.
            let slots = unsafe { _mm512_loadu_si512(slots.as_ptr().cast()) };
            let spread = _mm512_permutex2var_epi8(data, slots, backslashes);
            // Keep every byte slot, and the `\` slot of each escaped byte.
            let keep = _pdep_u64(mine, 0x5555_5555_5555_5555) | 0xaaaa_aaaa_aaaa_aaaa;
            // SAFETY: `out` has room for 64 bytes at `len`: `len` is past
            // the length `out` had at the reserve above by at most the
            // block's escape, and the reserve made room for all of that
            // escape plus 64 bytes.
            unsafe {
                _mm512_storeu_si512(
                    out.as_mut_ptr().add(len).cast(),
                    _mm512_maskz_compress_epi8(keep, spread),
                )
            };
            len += (real - 32 * h).min(32) + mine.count_ones() as usize;
        }
        // SAFETY: the bytes up to `len` were all written by the stores.
        unsafe { out.set_len(len) };
        true
    }
}

#[inline(always)]
fn block_mask(block: &[u8]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of every x86_64 processor.
    return unsafe { block_escapes(block) };
    #[cfg(not(target_arch = "x86_64"))]
    block_escapes_swar(block)
}

/// Bit `i` set for each byte `block[i]` (of 64) that needs an escape.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "sse2")]
#[inline]
fn block_escapes(block: &[u8]) -> u64 {
    use std::arch::x86_64::*;
    let (quote, backslash, control) = (
        _mm_set1_epi8(b'"' as i8),
        _mm_set1_epi8(b'\\' as i8),
        _mm_set1_epi8(0x1f),
    );
    block
        .chunks_exact(16)
        .enumerate()
        .fold(0, |mask, (k, piece)| {
            let half = |i: usize| i64::from_le_bytes(piece[i..i + 8].try_into().expect("8 bytes"));
            let v = _mm_set_epi64x(half(8), half(0));
            // A byte is at most 0x1f exactly where its unsigned max with 0x1f is 0x1f.
            let marked = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                _mm_cmpeq_epi8(_mm_max_epu8(v, control), control),
            );
            mask | (u64::from(_mm_movemask_epi8(marked) as u16) << (16 * k))
        })
}

/// [`block_escapes`] eight bytes at a time, for other processors.
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn block_escapes_swar(block: &[u8]) -> u64 {
    // Byte j's high bit, moved to bit 0 of its byte, lands in bit 56 + j of
    // the product; no two bytes' products overlap, so nothing carries.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    block
        .chunks_exact(8)
        .enumerate()
        .fold(0, |mask, (k, word)| {
            let high = escapes_in(u64::from_le_bytes(word.try_into().expect("8 bytes")));
            mask | (((high >> 7).wrapping_mul(GATHER) >> 56) << (8 * k))
        })
}

/// A two-byte escape, `\` and `c`, as an [`ESCAPES`] entry.
const fn short(c: u8) -> [u8; 8] {
    [b'\\', c, 0, 0, 0, 0, 0, 2]
}

/// The escape of each byte that needs one, padded with zeros, and its
/// length in the last byte: serde_json's escapes.
const ESCAPES: [[u8; 8]; 0x60] = {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut table = [[0u8; 8]; 0x60];
    let mut b = 0;
    while b < 0x20 {
        table[b] = [b'\\', b'u', b'0', b'0', HEX[b >> 4], HEX[b & 0xf], 0, 6];
        b += 1;
    }
    table[b'\n' as usize] = short(b'n');
    table[b'\t' as usize] = short(b't');
    table[b'\r' as usize] = short(b'r');
    table[0x08] = short(b'b');
    table[0x0c] = short(b'f');
    table[b'"' as usize] = short(b'"');
    table[b'\\' as usize] = short(b'\\');
    table
};

/// Writes the clean run `bytes[run..at]`, then the escape of `bytes[at]`
/// (which needs one). Returns where the next clean run starts.
#[inline(always)]
fn escape_byte(out: &mut Vec<u8>, bytes: &[u8], run: usize, at: usize) -> usize {
    push_run(out, bytes, run, at);
    // A copy of a fixed eight bytes, cut back to the escape's length,
    // instead of a call to copy a length known only now.
    let escape = &ESCAPES[bytes[at] as usize];
    let len = out.len();
    out.extend_from_slice(escape);
    out.truncate(len + escape[7] as usize);
    at + 1
}

/// Appends `bytes[from..to]`. Most runs between escapes are a few dozen
/// bytes: such a run is copied as a fixed 64 bytes, cut back to its
/// length, which costs neither a call nor a branch on its length; longer
/// runs, and runs near the end of `bytes`, are copied as they are.
#[inline(always)]
fn push_run(out: &mut Vec<u8>, bytes: &[u8], from: usize, to: usize) {
    match bytes.get(from..from + 64) {
        Some(block) if to - from <= 64 => {
            let len = out.len();
            out.extend_from_slice(block);
            out.truncate(len + (to - from));
        }
        _ => out.extend_from_slice(&bytes[from..to]),
    }
}

/// The high bit of exactly each of the eight bytes in `w` (little-endian)
/// that is below 0x20, `"` or `\`. No byte's test carries into another's:
/// each adds at most 0x7f to a byte's low seven bits.
#[inline]
fn escapes_in(w: u64) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;
    let low = w & LOW;
    // High bit set where a byte's low seven bits are at least 0x20.
    let at_least_space = low + ONES * 0x60;
    // High bit set where a byte differs from `c`.
    let differs = |c: u8| {
        let x = w ^ (ONES * c as u64);
        ((x & LOW) + LOW) | x
    };
    // A byte needs an escape when it is below 0x80 and below 0x20, or is
    // `"` or `\`.
    !((at_least_space | w) & differs(b'"') & differs(b'\\')) & HIGH
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A way of escaping: appends a text's escape.
    type Escape = fn(&mut Vec<u8>, &str);

    /// Each way of escaping that this processor can run, by name.
    fn ways() -> Vec<(&'static str, Escape)> {
        let mut ways: Vec<(&'static str, Escape)> = vec![("blocks", |out, text| {
            push_escaped_blocks(out, text.as_bytes())
        })];
        #[cfg(target_arch = "x86_64")]
        if wide::available() {
            // SAFETY: checked just now.
            ways.push(("wide", |out, text| unsafe {
                wide::push_escaped(out, text.as_bytes())
            }));
        }
        ways
    }

    #[test]
    fn escapes_as_serde_json_does() {
        let mut cases: Vec<String> = vec![
            String::new(),
            "plain text, long enough to fill a few words".into(),
            "quote \" and backslash \\ and\nnew\tlines\r\u{8}\u{c}".into(),
            "é中😀\u{7f}\u{1f}\u{0}\u{1b}[0m".into(),
        ];
        // Every byte value below 0x80 at every position of a 64-byte block
        // and of the tail after the last whole block.
        for c in 0u8..0x80 {
            for pad in 0..130 {
                cases.push(format!(
                    "{}{}{}",
                    "a".repeat(pad),
                    c as char,
                    "é".repeat(pad % 9)
                ));
            }
        }
        // Every two-byte char, and three- and four-byte ones, at every
        // alignment: their bytes are 0x80 and up, whose low seven bits
        // look like `"`, `\\` or a control character.
        let wide: String = (0x80..0x800)
            .chain((0x800..0x10000).step_by(97))
            .chain((0x10000..0x110000).step_by(4099))
            .filter_map(char::from_u32)
            .collect();
        for pad in 0..8 {
            cases.push(format!("{}{wide}\"", "a".repeat(pad)));
        }
        // The two ways of marking a block agree.
        #[cfg(target_arch = "x86_64")]
        for case in &cases {
            for block in case.as_bytes().chunks_exact(64) {
                assert_eq!(block_mask(block), block_escapes_swar(block), "{case:?}");
            }
        }
        let mut compared = 0;
        for (name, escape) in ways() {
            for case in &cases {
                let mut out = b"x".to_vec();
                escape(&mut out, case);
                let ours = String::from_utf8(out[1..].to_vec()).unwrap();
                let expected = serde_json::to_string(case).unwrap();
                assert_eq!(format!("\"{ours}\""), expected, "{name}: {case:?}");
                compared += 1;
            }
        }
        assert!(compared >= cases.len(), "{compared} compared");
    }
}
