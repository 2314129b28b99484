//! JSON string escaping for chunk texts, the bulk of a JSON Lines output.
//!
//! serde_json looks up every byte in a table; chunk texts are mostly bytes
//! that need no escape, so here eight bytes at a time are checked for one
//! that does (a control character, `"` or `\`) and clean runs are written
//! whole. The escapes are serde_json's own, byte for byte (`\n`, `\t`, `\r`,
//! `\b`, `\f`, `\"`, `\\`, and `\u00xx` with lower-case hex for the other
//! control characters; everything else, non-ASCII included, as it is), so
//! a line reads the same either way.

/// Appends `text`'s JSON escape (without the quotes) to `out`.
pub fn push_escaped(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    out.reserve(bytes.len() + 2);
    let mut run = 0;
    let mut i = 0;
    while let Some(word) = bytes.get(i..i + 8) {
        let found = escapes_in(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        if found == 0 {
            i += 8;
            continue;
        }
        // The lowest marked byte is a real one (a false mark can only
        // follow a real one); go on from just after it.
        let at = i + (found.trailing_zeros() / 8) as usize;
        run = escape_byte(out, bytes, run, at);
        i = at + 1;
    }
    for j in i..bytes.len() {
        run = escape_byte(out, bytes, run, j);
    }
    out.extend_from_slice(&bytes[run..]);
}

/// Escapes `bytes[at]` if it must be: the clean run before it goes out
/// first. Returns where the next clean run starts.
#[inline]
fn escape_byte(out: &mut Vec<u8>, bytes: &[u8], run: usize, at: usize) -> usize {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let b = bytes[at];
    let short: &[u8] = match b {
        b'"' => b"\\\"",
        b'\\' => b"\\\\",
        b'\n' => b"\\n",
        b'\t' => b"\\t",
        b'\r' => b"\\r",
        0x08 => b"\\b",
        0x0c => b"\\f",
        0x00..=0x1f => &[],
        _ => return run,
    };
    out.extend_from_slice(&bytes[run..at]);
    if short.is_empty() {
        out.extend_from_slice(&[
            b'\\',
            b'u',
            b'0',
            b'0',
            HEX[(b >> 4) as usize],
            HEX[(b & 0xf) as usize],
        ]);
    } else {
        out.extend_from_slice(short);
    }
    at + 1
}

/// The high bit of each of the eight bytes in `w` (little-endian) that is
/// below 0x20, `"` or `\`; a borrow may also mark a byte above a marked one,
/// never the lowest. Zero when none is.
#[inline]
fn escapes_in(w: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // A byte below 0x20 (bytes of 0x80 and up are excluded by `!w`).
    let below = w.wrapping_sub(ONES * 0x20) & !w & HIGH;
    let zero_in = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    below | zero_in(w ^ (ONES * b'"' as u64)) | zero_in(w ^ (ONES * b'\\' as u64))
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
        // Every byte value below 0x80 at every position of a word.
        for c in 0u8..0x80 {
            for pad in 0..9 {
                cases.push(format!(
                    "{}{}{}",
                    "a".repeat(pad),
                    c as char,
                    "é".repeat(pad)
                ));
            }
        }
        for case in &cases {
            let expected = serde_json::to_string(case).unwrap();
            assert_eq!(format!("\"{}\"", ours(case)), expected, "{case:?}");
        }
    }
}
