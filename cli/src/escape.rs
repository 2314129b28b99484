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
//!
//! The wide way is tested on every processor: its algorithm is written
//! over its instructions, which the tests also run on an emulator of them.

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
///
/// The algorithm ([`push_escaped_with`]) is written once over the
/// instructions it is made of ([`Lanes`]). The processor runs them
/// ([`avx512::Avx512`]) only behind [`available`]; in the tests an
/// emulator of those instructions ([`Emulated`]) runs the algorithm too,
/// so it is compared with serde_json on every processor, and where
/// AVX-512 is present the emulator is compared with the processor.
#[cfg(any(target_arch = "x86_64", test))]
mod wide {
    #[cfg(all(target_arch = "x86_64", test))]
    pub use avx512::Avx512;
    #[cfg(target_arch = "x86_64")]
    pub use avx512::{available, push_escaped};
    #[cfg(test)]
    pub use emulated::Emulated;

    /// The instructions the wide escape is made of, one method each, named
    /// after its AVX-512 intrinsic (less `_mm512_`), its arguments in the
    /// intrinsic's order. A vector `V` is 64 bytes; a mask has bit `i` for
    /// byte `i`.
    ///
    /// An implementation either is those instructions or computes exactly
    /// what they do: the algorithm may rely on anything Intel's
    /// definitions state.
    pub trait Lanes: Copy {
        type V: Copy;
        fn loadu_si512(self, bytes: &[u8; 64]) -> Self::V;
        fn set1_epi8(self, b: u8) -> Self::V;
        fn cmple_epu8_mask(self, a: Self::V, b: Self::V) -> u64;
        fn permutexvar_epi8(self, idx: Self::V, a: Self::V) -> Self::V;
        fn testn_epi8_mask(self, a: Self::V, b: Self::V) -> u64;
        fn cmpeq_epi8_mask(self, a: Self::V, b: Self::V) -> u64;
        fn mask_blend_epi8(self, k: u64, a: Self::V, b: Self::V) -> Self::V;
        fn permutex2var_epi8(self, a: Self::V, idx: Self::V, b: Self::V) -> Self::V;
        fn maskz_compress_epi8(self, k: u64, a: Self::V) -> Self::V;
        /// `_pdep_u64` (BMI2).
        fn pdep_u64(self, a: u64, mask: u64) -> u64;

        /// Writes `v` to `out`'s bytes `at..at + 64`, which may lie past
        /// its length (`_mm512_storeu_si512`).
        ///
        /// # Safety
        /// `out` has capacity for 64 bytes at `at`, and `at` is not past
        /// the bytes already written: `out`'s own, and those of the stores
        /// since its length was last set.
        unsafe fn storeu_si512(self, out: &mut Vec<u8>, at: usize, v: Self::V);

        /// Sets `out`'s length to `len`, taking in bytes the stores wrote.
        ///
        /// # Safety
        /// `len` is not past the bytes written: `out`'s own, and those of
        /// the stores since its length was last set.
        unsafe fn set_len(self, out: &mut Vec<u8>, len: usize);
    }

    /// The letter of each two-byte escape, by the low six bits of its
    /// byte (`\\` is 0x5c, at 0x1c; the control character 0x1c itself
    /// is told apart by [`push_block`]). Zero for bytes without one.
    pub const LETTERS: [u8; 64] = {
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

    /// Appends the escape of `bytes` to `out`, computed with `lanes`.
    /// Inlined into its caller, so that with [`avx512::Avx512`] it is compiled
    /// for the caller's target features.
    #[inline(always)]
    pub fn push_escaped_with<L: Lanes>(lanes: L, out: &mut Vec<u8>, bytes: &[u8]) {
        let mut blocks = bytes.chunks_exact(64);
        for block in blocks.by_ref() {
            let v = lanes.loadu_si512(block.try_into().expect("64 bytes"));
            if !push_block(lanes, out, v, 64) {
                super::push_escaped_blocks(out, block);
            }
        }
        let tail = blocks.remainder();
        if !tail.is_empty() {
            // Padded with bytes that need no escape; only the tail's own
            // bytes are counted into `out`.
            let mut padded = [b' '; 64];
            padded[..tail.len()].copy_from_slice(tail);
            if !push_block(lanes, out, lanes.loadu_si512(&padded), tail.len()) {
                super::push_escaped_blocks(out, tail);
            }
        }
    }

    /// Appends the escape of the first `real` bytes of the block `v`, or
    /// returns false (having appended nothing) when one of them is a
    /// control character escaped as `\u00xx`.
    #[inline(always)]
    fn push_block<L: Lanes>(l: L, out: &mut Vec<u8>, v: L::V, real: usize) -> bool {
        let control = l.cmple_epu8_mask(v, l.set1_epi8(0x1f));
        let letters = l.permutexvar_epi8(v, l.loadu_si512(&LETTERS));
        let long = control
            & (l.testn_epi8_mask(letters, letters) | l.cmpeq_epi8_mask(v, l.set1_epi8(0x1c)));
        if long != 0 {
            return false;
        }
        let escaped = control
            | l.cmpeq_epi8_mask(v, l.set1_epi8(b'"'))
            | l.cmpeq_epi8_mask(v, l.set1_epi8(b'\\'));
        let data = l.mask_blend_epi8(escaped, v, letters);
        let backslashes = l.set1_epi8(b'\\');
        // Each half's 32 bytes become at most 64; the stores are whole
        // vectors, so room for 64 more bytes than are kept.
        out.reserve(real + escaped.count_ones() as usize + 64);
        let mut len = out.len();
        for (h, slots) in HALVES.iter().enumerate().take(real.div_ceil(32)) {
            let mine = (escaped >> (32 * h)) & 0xffff_ffff;
            let spread = l.permutex2var_epi8(data, l.loadu_si512(slots), backslashes);
            // Keep every byte slot, and the `\` slot of each escaped byte.
            let keep = l.pdep_u64(mine, 0x5555_5555_5555_5555) | 0xaaaa_aaaa_aaaa_aaaa;
            // SAFETY: `out` has room for 64 bytes at `len`: `len` is past
            // the length `out` had at the reserve above by at most the
            // block's escape, and the reserve made room for all of that
            // escape plus 64 bytes. `len` is not past the bytes written:
            // it starts at `out`'s length, and each store writes 64 bytes
            // where `len` then moves on by at most 64.
            unsafe { l.storeu_si512(out, len, l.maskz_compress_epi8(keep, spread)) };
            len += (real - 32 * h).min(32) + mine.count_ones() as usize;
        }
        // SAFETY: the bytes up to `len` were all written, by `out` or by
        // the stores.
        unsafe { l.set_len(out, len) };
        true
    }

    #[cfg(target_arch = "x86_64")]
    mod avx512 {
        use super::Lanes;
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

        /// The processor's own instructions, each op a call of its
        /// intrinsic. One is made only where the processor has the
        /// features of [`available`], which is what makes the intrinsics
        /// safe to run: holding an `Avx512` is the proof.
        #[derive(Clone, Copy)]
        pub struct Avx512(());

        /// Appends the escape of `bytes` to `out`.
        ///
        /// # Safety
        /// The processor has the features of [`available`].
        #[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vbmi2,bmi2,popcnt")]
        pub unsafe fn push_escaped(out: &mut Vec<u8>, bytes: &[u8]) {
            // The caller vouches for the features an `Avx512` stands for.
            super::push_escaped_with(Avx512(()), out, bytes)
        }

        #[cfg(test)]
        impl Avx512 {
            /// One, if this processor has the features.
            pub fn detect() -> Option<Self> {
                available().then_some(Self(()))
            }

            /// The bytes of `v`, for comparing with the emulator.
            pub fn to_bytes(self, v: __m512i) -> [u8; 64] {
                let mut bytes = [0; 64];
                // SAFETY: `bytes` is 64 bytes; `self` exists, so the
                // processor has the features.
                unsafe { _mm512_storeu_si512(bytes.as_mut_ptr().cast(), v) };
                bytes
            }
        }

        impl Lanes for Avx512 {
            type V = __m512i;

            #[inline(always)]
            fn loadu_si512(self, bytes: &[u8; 64]) -> __m512i {
                // SAFETY: `bytes` is 64 bytes; `self` exists, so the
                // processor has the features.
                unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) }
            }

            #[inline(always)]
            fn set1_epi8(self, b: u8) -> __m512i {
                // SAFETY: `self` exists, so the processor has the features.
                unsafe { _mm512_set1_epi8(b as i8) }
            }

            #[inline(always)]
            fn cmple_epu8_mask(self, a: __m512i, b: __m512i) -> u64 {
                // SAFETY: `self` exists, so the processor has the features.
                unsafe { _mm512_cmple_epu8_mask(a, b) }
            }

            #[inline(always)]
            fn permutexvar_epi8(self, idx: __m512i, a: __m512i) -> __m512i {
                // SAFETY: `self` exists, so the processor has the features.
                unsafe { _mm512_permutexvar_epi8(idx, a) }
            }

            #[inline(always)]
            fn testn_epi8_mask(self, a: __m512i, b: __m512i) -> u64 {
                // SAFETY: `self` exists, so the processor has the features.
                unsafe { _mm512_testn_epi8_mask(a, b) }
            }

            #[inline(always)]
            fn cmpeq_epi8_mask(self, a: __m512i, b: __m512i) -> u64 {
                // SAFETY: `self` exists, so the processor has the features.
                unsafe { _mm512_cmpeq_epi8_mask(a, b) }
            }

            #[inline(always)]
            fn mask_blend_epi8(self, k: u64, a: __m512i, b: __m512i) -> __m512i {
                // SAFETY: `self` exists, so the processor has the features.
                unsafe { _mm512_mask_blend_epi8(k, a, b) }
            }

            #[inline(always)]
            fn permutex2var_epi8(self, a: __m512i, idx: __m512i, b: __m512i) -> __m512i {
                // SAFETY: `self` exists, so the processor has the features.
                unsafe { _mm512_permutex2var_epi8(a, idx, b) }
            }

            #[inline(always)]
            fn maskz_compress_epi8(self, k: u64, a: __m512i) -> __m512i {
                // SAFETY: `self` exists, so the processor has the features.
                unsafe { _mm512_maskz_compress_epi8(k, a) }
            }

            #[inline(always)]
            fn pdep_u64(self, a: u64, mask: u64) -> u64 {
                // SAFETY: `self` exists, so the processor has the features.
                unsafe { _pdep_u64(a, mask) }
            }

            #[inline(always)]
            unsafe fn storeu_si512(self, out: &mut Vec<u8>, at: usize, v: __m512i) {
                // SAFETY: `out` has room for 64 bytes at `at` (the
                // caller's); `self` exists, so the processor has the
                // features.
                unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(at).cast(), v) }
            }

            #[inline(always)]
            unsafe fn set_len(self, out: &mut Vec<u8>, len: usize) {
                // SAFETY: `len` is within `out`'s capacity and its bytes
                // were all written (the caller's).
                unsafe { out.set_len(len) }
            }
        }
    }

    /// An emulator of exactly the instructions [`Lanes`] names, each
    /// computed in safe Rust over `[u8; 64]` and `u64` masks from Intel's
    /// definition of its intrinsic, stated on each. It runs the wide
    /// escape on any processor; where AVX-512 is present, the tests check
    /// it against the processor on random inputs.
    #[cfg(test)]
    mod emulated {
        use super::Lanes;

        #[derive(Clone, Copy)]
        pub struct Emulated;

        /// Bit `i` set for each `i` (of 64) for which `f(i)` holds.
        fn mask(f: impl Fn(usize) -> bool) -> u64 {
            (0..64).filter(|&i| f(i)).fold(0, |k, i| k | 1 << i)
        }

        fn has(k: u64, i: usize) -> bool {
            (k >> i) & 1 == 1
        }

        impl Emulated {
            /// The store, written through a safe `Vec`: `out` grows to
            /// `at + 64` if it is shorter, then bytes `at..at + 64` are
            /// overwritten; bytes past them are left as they were, as the
            /// processor leaves them. The store's contract is checked, so
            /// that running the escape here also checks that the
            /// algorithm keeps it.
            pub fn store(out: &mut Vec<u8>, at: usize, v: [u8; 64]) {
                assert!(
                    at <= out.len() && at + 64 <= out.capacity(),
                    "a store at {at} with {} bytes written and room for {}",
                    out.len(),
                    out.capacity()
                );
                if out.len() < at + 64 {
                    out.resize(at + 64, 0);
                }
                out[at..at + 64].copy_from_slice(&v);
            }

            /// Setting the length, checked: only bytes written are taken.
            pub fn set_len(out: &mut Vec<u8>, len: usize) {
                assert!(
                    len <= out.len(),
                    "length {len} with {} bytes written",
                    out.len()
                );
                out.truncate(len);
            }
        }

        impl Lanes for Emulated {
            type V = [u8; 64];

            fn loadu_si512(self, bytes: &[u8; 64]) -> [u8; 64] {
                *bytes
            }

            fn set1_epi8(self, b: u8) -> [u8; 64] {
                [b; 64]
            }

            /// Bit `j` set where `a[j] <= b[j]`, unsigned.
            fn cmple_epu8_mask(self, a: [u8; 64], b: [u8; 64]) -> u64 {
                mask(|j| a[j] <= b[j])
            }

            /// Byte `j` is `a[idx[j] & 63]`: only the low six bits of an
            /// index count.
            fn permutexvar_epi8(self, idx: [u8; 64], a: [u8; 64]) -> [u8; 64] {
                std::array::from_fn(|j| a[usize::from(idx[j] & 63)])
            }

            /// Bit `j` set where `a[j] & b[j]` is zero.
            fn testn_epi8_mask(self, a: [u8; 64], b: [u8; 64]) -> u64 {
                mask(|j| a[j] & b[j] == 0)
            }

            /// Bit `j` set where `a[j] == b[j]`.
            fn cmpeq_epi8_mask(self, a: [u8; 64], b: [u8; 64]) -> u64 {
                mask(|j| a[j] == b[j])
            }

            /// Byte `j` is `b[j]` where `k` has bit `j`, else `a[j]`.
            fn mask_blend_epi8(self, k: u64, a: [u8; 64], b: [u8; 64]) -> [u8; 64] {
                std::array::from_fn(|j| if has(k, j) { b[j] } else { a[j] })
            }

            /// Byte `j` is byte `idx[j] & 63` of `b` where bit 6 of
            /// `idx[j]` is set, else of `a`; bit 7 does not count.
            fn permutex2var_epi8(self, a: [u8; 64], idx: [u8; 64], b: [u8; 64]) -> [u8; 64] {
                std::array::from_fn(|j| {
                    let table = if idx[j] & 64 != 0 { &b } else { &a };
                    table[usize::from(idx[j] & 63)]
                })
            }

            /// The bytes `a[j]` whose bit `j` is set in `k`, in order,
            /// packed from byte 0; the bytes after them zero.
            fn maskz_compress_epi8(self, k: u64, a: [u8; 64]) -> [u8; 64] {
                let mut dst = [0; 64];
                for (m, j) in (0..64).filter(|&j| has(k, j)).enumerate() {
                    dst[m] = a[j];
                }
                dst
            }

            /// The low bits of `a`, in order, deposited at the set bits of
            /// `mask`, lowest first; the other bits zero.
            fn pdep_u64(self, a: u64, mask: u64) -> u64 {
                (0..64)
                    .filter(|&m| has(mask, m))
                    .enumerate()
                    .fold(0, |dst, (k, m)| dst | ((a >> k) & 1) << m)
            }

            unsafe fn storeu_si512(self, out: &mut Vec<u8>, at: usize, v: [u8; 64]) {
                Emulated::store(out, at, v)
            }

            unsafe fn set_len(self, out: &mut Vec<u8>, len: usize) {
                Emulated::set_len(out, len)
            }
        }
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
    use wide::Lanes;

    /// A way of escaping: appends a text's escape.
    type Escape = fn(&mut Vec<u8>, &str);

    /// Each way of escaping that this processor can run, by name: the wide
    /// one's algorithm on the emulator always, and on the processor where
    /// it has the features.
    fn ways() -> Vec<(&'static str, Escape)> {
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut ways: Vec<(&'static str, Escape)> = vec![
            ("blocks", |out, text| {
                push_escaped_blocks(out, text.as_bytes())
            }),
            ("wide (emulated)", |out, text| {
                wide::push_escaped_with(wide::Emulated, out, text.as_bytes())
            }),
        ];
        #[cfg(target_arch = "x86_64")]
        if wide::available() {
            // SAFETY: checked just now.
            ways.push(("wide", |out, text| unsafe {
                wide::push_escaped(out, text.as_bytes())
            }));
        }
        ways
    }

    /// Texts with every byte below 0x80 at every position of a block and
    /// of a tail, and non-ASCII chars at every alignment.
    fn cases() -> Vec<String> {
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
        cases
    }

    /// The first case that `escape` does not escape as serde_json does,
    /// and what it wrote. The escape is appended to a byte already there,
    /// which must stay.
    fn first_mismatch(escape: &dyn Fn(&mut Vec<u8>, &str), cases: &[String]) -> Option<String> {
        cases.iter().find_map(|case| {
            let mut out = b"x".to_vec();
            escape(&mut out, case);
            let quoted = serde_json::to_string(case).unwrap();
            let expected = [b"x", &quoted.as_bytes()[1..quoted.len() - 1]].concat();
            (out != expected).then(|| {
                format!(
                    "{case:?}: wrote {:?}, serde_json {quoted}",
                    String::from_utf8_lossy(&out)
                )
            })
        })
    }

    #[test]
    fn escapes_as_serde_json_does() {
        let cases = cases();
        // The two ways of marking a block agree.
        #[cfg(target_arch = "x86_64")]
        for case in &cases {
            for block in case.as_bytes().chunks_exact(64) {
                assert_eq!(block_mask(block), block_escapes_swar(block), "{case:?}");
            }
        }
        let ways = ways();
        if !ways.iter().any(|&(name, _)| name == "wide") {
            eprintln!(
                "escapes_as_serde_json_does: \"wide\" skipped, this processor lacks \
                 AVX-512 VBMI2; its algorithm ran as \"wide (emulated)\""
            );
        }
        for (name, escape) in ways {
            if let Some(mismatch) = first_mismatch(&escape, &cases) {
                panic!("{name}: {mismatch}");
            }
        }
    }

    /// An implementation of [`Lanes`] whose vectors can be read back, to
    /// be compared with another.
    trait Bytes: Lanes {
        fn bytes(self, v: Self::V) -> [u8; 64];
    }

    impl Bytes for wide::Emulated {
        fn bytes(self, v: [u8; 64]) -> [u8; 64] {
            v
        }
    }

    #[cfg(target_arch = "x86_64")]
    impl Bytes for wide::Avx512 {
        fn bytes(self, v: Self::V) -> [u8; 64] {
            self.to_bytes(v)
        }
    }

    /// xorshift64*: a fixed seed, so a failure repeats.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        /// Half the bytes from a few that the escape tests for or that
        /// border them, so that equal bytes and zero ANDs come up.
        fn vector(&mut self) -> [u8; 64] {
            const OFTEN: [u8; 10] = [0, 0x08, 0x1c, 0x1f, 0x20, b'"', b'\\', 0x40, 0x7f, 0xff];
            std::array::from_fn(|_| match self.next() {
                r if r & 1 == 0 => OFTEN[(r >> 8) as usize % OFTEN.len()],
                r => (r >> 32) as u8,
            })
        }

        /// A mask: none, all, sparse, dense, or even.
        fn mask(&mut self) -> u64 {
            match self.next() % 8 {
                0 => 0,
                1 => u64::MAX,
                2 | 3 => self.next() & self.next() & self.next(),
                4 | 5 => self.next() | self.next() | self.next(),
                _ => self.next(),
            }
        }
    }

    const VECTOR_OPS: [&str; 6] = [
        "loadu_si512",
        "set1_epi8",
        "permutexvar_epi8",
        "mask_blend_epi8",
        "permutex2var_epi8",
        "maskz_compress_epi8",
    ];
    const MASK_OPS: [&str; 4] = [
        "cmple_epu8_mask",
        "testn_epi8_mask",
        "cmpeq_epi8_mask",
        "pdep_u64",
    ];

    /// The results of every op of `l` but the store on the same inputs,
    /// in the order of [`VECTOR_OPS`] and [`MASK_OPS`].
    fn run_ops<L: Bytes>(
        l: L,
        [x, y, z]: &[[u8; 64]; 3],
        k: u64,
        m: u64,
    ) -> ([[u8; 64]; 6], [u64; 4]) {
        let (vx, vy, vz) = (l.loadu_si512(x), l.loadu_si512(y), l.loadu_si512(z));
        (
            [
                l.bytes(vx),
                l.bytes(l.set1_epi8(z[0])),
                l.bytes(l.permutexvar_epi8(vx, vy)),
                l.bytes(l.mask_blend_epi8(k, vx, vy)),
                l.bytes(l.permutex2var_epi8(vx, vy, vz)),
                l.bytes(l.maskz_compress_epi8(k, vx)),
            ],
            [
                l.cmple_epu8_mask(vx, vy),
                l.testn_epi8_mask(vx, vy),
                l.cmpeq_epi8_mask(vx, vy),
                l.pdep_u64(k, m),
            ],
        )
    }

    /// The first op on which `a` and `b` differ over `rounds` of random
    /// inputs, with the inputs and both results.
    fn disagreement(a: impl Bytes, b: impl Bytes, rounds: usize) -> Option<String> {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        (0..rounds).find_map(|_| {
            let vectors = [rng.vector(), rng.vector(), rng.vector()];
            let (k, m) = (rng.mask(), rng.mask());
            let ((av, am), (bv, bm)) = (run_ops(a, &vectors, k, m), run_ops(b, &vectors, k, m));
            let inputs = format!("{vectors:?}, k {k:#x}, m {m:#x}");
            let vector = (0..6).find(|&i| av[i] != bv[i]);
            let mask = (0..4).find(|&i| am[i] != bm[i]);
            vector
                .map(|i| {
                    format!(
                        "{}: {:?} and {:?} from {inputs}",
                        VECTOR_OPS[i], av[i], bv[i]
                    )
                })
                .or(mask.map(|i| {
                    format!(
                        "{}: {:#x} and {:#x} from {inputs}",
                        MASK_OPS[i], am[i], bm[i]
                    )
                }))
        })
    }

    /// The store and the length are left out: the escape itself, run on
    /// the processor in [`escapes_as_serde_json_does`], checks those.
    ///
    /// Ignored, so that a plain `cargo test` reports it as not run rather
    /// than passed on the many processors without the features; on one that
    /// has them, `cargo test -p chunkscope-cli -- --ignored` runs it, and on
    /// one that lacks them it fails saying so.
    #[test]
    #[ignore = "needs a processor with AVX-512 VBMI2"]
    fn emulated_ops_agree_with_the_processor() {
        #[cfg(target_arch = "x86_64")]
        if let Some(avx512) = wide::Avx512::detect() {
            if let Some(d) = disagreement(avx512, wide::Emulated, 20_000) {
                panic!("the emulator is not the processor: {d}");
            }
            return;
        }
        panic!("this processor lacks AVX-512 VBMI2: the emulator cannot be compared with it");
    }

    /// A bug to plant in the emulated escape: in one op, or in one step of
    /// the algorithm, planted in the op that step goes through.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Bug {
        /// A step: `LETTERS` with the letters of `\b` and `\f` swapped.
        SwappedLetters,
        /// A step: the mask of the kept `\` slots one bit off, each on the
        /// byte's own slot rather than the one before it.
        KeptSlotsOffByOne,
        /// An op: `cmple` as less than.
        CmpleStrict,
        /// An op: `permutexvar` reading five bits of an index, not six.
        PermutexvarFiveBits,
        /// An op: `permutex2var` choosing its table by bit 7, not bit 6.
        Permutex2varBitSeven,
    }

    const BUGS: [Bug; 5] = [
        Bug::SwappedLetters,
        Bug::KeptSlotsOffByOne,
        Bug::CmpleStrict,
        Bug::PermutexvarFiveBits,
        Bug::Permutex2varBitSeven,
    ];

    /// The emulator, with a bug planted or none.
    #[derive(Clone, Copy)]
    struct Planted(Option<Bug>);

    impl Lanes for Planted {
        type V = [u8; 64];

        fn loadu_si512(self, bytes: &[u8; 64]) -> [u8; 64] {
            let mut v = *bytes;
            if self.0 == Some(Bug::SwappedLetters) && v == wide::LETTERS {
                v.swap(0x08, 0x0c);
            }
            v
        }

        fn set1_epi8(self, b: u8) -> [u8; 64] {
            wide::Emulated.set1_epi8(b)
        }

        fn cmple_epu8_mask(self, a: [u8; 64], b: [u8; 64]) -> u64 {
            let equal = match self.0 {
                Some(Bug::CmpleStrict) => wide::Emulated.cmpeq_epi8_mask(a, b),
                _ => 0,
            };
            wide::Emulated.cmple_epu8_mask(a, b) & !equal
        }

        fn permutexvar_epi8(self, idx: [u8; 64], a: [u8; 64]) -> [u8; 64] {
            let idx = match self.0 {
                Some(Bug::PermutexvarFiveBits) => idx.map(|i| i & 31),
                _ => idx,
            };
            wide::Emulated.permutexvar_epi8(idx, a)
        }

        fn testn_epi8_mask(self, a: [u8; 64], b: [u8; 64]) -> u64 {
            wide::Emulated.testn_epi8_mask(a, b)
        }

        fn cmpeq_epi8_mask(self, a: [u8; 64], b: [u8; 64]) -> u64 {
            wide::Emulated.cmpeq_epi8_mask(a, b)
        }

        fn mask_blend_epi8(self, k: u64, a: [u8; 64], b: [u8; 64]) -> [u8; 64] {
            wide::Emulated.mask_blend_epi8(k, a, b)
        }

        fn permutex2var_epi8(self, a: [u8; 64], idx: [u8; 64], b: [u8; 64]) -> [u8; 64] {
            let idx = match self.0 {
                Some(Bug::Permutex2varBitSeven) => idx.map(|i| (i & 63) | (i >> 1 & 64)),
                _ => idx,
            };
            wide::Emulated.permutex2var_epi8(a, idx, b)
        }

        fn maskz_compress_epi8(self, k: u64, a: [u8; 64]) -> [u8; 64] {
            wide::Emulated.maskz_compress_epi8(k, a)
        }

        fn pdep_u64(self, a: u64, mask: u64) -> u64 {
            let mask = match self.0 {
                Some(Bug::KeptSlotsOffByOne) if mask == 0x5555_5555_5555_5555 => mask << 1,
                _ => mask,
            };
            wide::Emulated.pdep_u64(a, mask)
        }

        unsafe fn storeu_si512(self, out: &mut Vec<u8>, at: usize, v: [u8; 64]) {
            wide::Emulated::store(out, at, v)
        }

        unsafe fn set_len(self, out: &mut Vec<u8>, len: usize) {
            wide::Emulated::set_len(out, len)
        }
    }

    impl Bytes for Planted {
        fn bytes(self, v: [u8; 64]) -> [u8; 64] {
            v
        }
    }

    /// The comparisons catch a wrong op or a wrong step: each planted bug
    /// makes the escape differ from serde_json, and each wrong op makes
    /// the emulator differ from a right one on random inputs.
    #[test]
    fn planted_bugs_are_caught() {
        let cases = cases();
        let escape = |bug| {
            move |out: &mut Vec<u8>, text: &str| {
                wide::push_escaped_with(Planted(bug), out, text.as_bytes())
            }
        };
        assert_eq!(
            first_mismatch(&escape(None), &cases),
            None,
            "planting nothing"
        );
        assert_eq!(
            disagreement(wide::Emulated, Planted(None), 1000),
            None,
            "planting nothing"
        );
        for bug in BUGS {
            let Some(mismatch) = first_mismatch(&escape(Some(bug)), &cases) else {
                panic!("{bug:?} went unnoticed by the comparison with serde_json");
            };
            eprintln!("{bug:?}: {mismatch}");
            if !matches!(bug, Bug::SwappedLetters | Bug::KeptSlotsOffByOne) {
                let Some(d) = disagreement(wide::Emulated, Planted(Some(bug)), 1000) else {
                    panic!("{bug:?} went unnoticed by the comparison of ops");
                };
                eprintln!(
                    "{bug:?}: the ops differ at {}",
                    d.split(':').next().unwrap_or(&d)
                );
            }
        }
    }
}
