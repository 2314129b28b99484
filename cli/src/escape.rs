//! JSON string escaping for chunk texts, the bulk of a JSON Lines output.
//!
//! serde_json looks up every byte in a table; chunk texts are mostly bytes
//! that need no escape, so here 64 bytes at a time are checked for those
//! that do (a control character, `"` or `\`) and clean runs are written
//! whole. The escapes are serde_json's own, byte for byte (`\n`, `\t`, `\r`,
//! `\b`, `\f`, `\"`, `\\`, and `\u00xx` with lower-case hex for the other
//! control characters; everything else, non-ASCII included, as it is), so
//! a line reads the same either way.

/// Appends `text`'s JSON escape (without the quotes) to `out`.
///
/// The text is read 64 bytes at a time: a block's bytes that need an
/// escape are found as one 64-bit mask, and only they cost a branch. In
/// Markdown and code about one byte in 35 does (a line end or a quote).
pub fn push_escaped(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
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

    fn ours(text: &str) -> String {
        let mut out = b"x".to_vec();
        push_escaped(&mut out, text);
        String::from_utf8(out[1..].to_vec()).unwrap()
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
        for case in &cases {
            let expected = serde_json::to_string(case).unwrap();
            assert_eq!(format!("\"{}\"", ours(case)), expected, "{case:?}");
        }
    }
}
