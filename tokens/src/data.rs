//! The `.tokens` file: a rank table in as few bytes as a simple format allows,
//! for the browser to fetch (`cl100k.tokens`, `o200k.tokens`).
//!
//! # Format, version 1
//!
//! | bytes | content |
//! | --- | --- |
//! | 8 | magic `CSTOKENS` (ASCII) |
//! | 1 | version, `1` |
//! | 1 | length `n` of the encoding name |
//! | n | the encoding name, ASCII: `cl100k` or `o200k` ([`Encoding::name`]) |
//! | 4 | the number of tokens, unsigned little-endian |
//! | … | each token in rank order: its length as an unsigned LEB128 varint (1 byte below 128), then its bytes |
//!
//! Nothing follows the last token. A token's rank is its position, so no ranks
//! are stored. Why this and not tiktoken's own `.tiktoken` text (base64 + rank
//! per line): it is less than half the size (cl100k: 744 107 bytes against
//! 1.68 MB; o200k: 1 597 688 against 3.6 MB; gzip takes them to 456 KB and
//! 1.05 MB) and needs no base64 decoder. Reading never panics: any byte string
//! is either a valid table or a [`TokenizerError`] that says what is wrong and
//! where.

use super::{Encoding, TokenizerError};

/// The first bytes of every `.tokens` file.
pub(crate) const MAGIC: [u8; 8] = *b"CSTOKENS";

/// The format version this code writes and reads.
pub(crate) const VERSION: u8 = 1;

/// Serializes a rank table (`tokens` in rank order).
pub(crate) fn write<'a>(
    encoding: Encoding,
    count: usize,
    tokens: impl Iterator<Item = &'a [u8]>,
) -> Vec<u8> {
    let name = encoding.name().as_bytes();
    let mut out = Vec::new();
    out.extend_from_slice(&MAGIC);
    out.push(VERSION);
    out.push(name.len() as u8);
    out.extend_from_slice(name);
    out.extend_from_slice(&(count as u32).to_le_bytes());
    for token in tokens {
        let mut len = token.len() as u32;
        while len >= 0x80 {
            out.push((len as u8 & 0x7F) | 0x80);
            len >>= 7;
        }
        out.push(len as u8);
        out.extend_from_slice(token);
    }
    out
}

/// A parsed `.tokens` file: the encoding and its tokens as one buffer plus
/// start offsets (token `r` is `bytes[starts[r]..starts[r + 1]]`).
pub(crate) struct Table {
    pub(crate) encoding: Encoding,
    pub(crate) bytes: Vec<u8>,
    pub(crate) starts: Vec<u32>,
}

/// Parses a `.tokens` file. Checks the framing only; the vocabulary's own
/// invariants (no empty or duplicate token, every byte present) are checked
/// when the vocabulary is built.
pub(crate) fn read(data: &[u8]) -> Result<Table, TokenizerError> {
    let mut reader = Reader { data, at: 0 };
    if reader.take(MAGIC.len(), "the magic bytes")? != MAGIC {
        return Err(TokenizerError::NotTokenData);
    }
    let version = reader.take(1, "the version")?[0];
    if version != VERSION {
        return Err(TokenizerError::UnsupportedVersion(version));
    }
    let name_len = reader.take(1, "the encoding name's length")?[0] as usize;
    let name = reader.take(name_len, "the encoding name")?;
    let name = String::from_utf8_lossy(name);
    let encoding: Encoding = name.parse()?;
    if name != encoding.name() {
        // Only the short names are written; accept nothing else, so that one
        // table has one byte representation.
        return Err(TokenizerError::UnknownEncoding(name.into_owned()));
    }
    let count_bytes = reader.take(4, "the token count")?;
    let count = u32::from_le_bytes([
        count_bytes[0],
        count_bytes[1],
        count_bytes[2],
        count_bytes[3],
    ]);
    let count = count as usize;
    if count >= u32::MAX as usize {
        return Err(TokenizerError::TooManyTokens(count));
    }

    // Each token takes at least one byte, so a count larger than what is left
    // is caught below; cap the allocation by the input so a corrupt count
    // cannot ask for gigabytes.
    let remaining = data.len() - reader.at;
    let mut starts = Vec::with_capacity(count.min(remaining) + 1);
    let mut bytes = Vec::with_capacity(remaining);
    starts.push(0);
    for _ in 0..count {
        let len = reader.varint()?;
        bytes.extend_from_slice(reader.take(len, "a token's bytes")?);
        let end = u32::try_from(bytes.len()).map_err(|_| TokenizerError::TooLarge)?;
        starts.push(end);
    }
    if reader.at != data.len() {
        return Err(TokenizerError::TrailingBytes { offset: reader.at });
    }
    Ok(Table {
        encoding,
        bytes,
        starts,
    })
}

/// A cursor over the input that reports where it ran out.
struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, len: usize, what: &'static str) -> Result<&'a [u8], TokenizerError> {
        if self.data.len() - self.at < len {
            return Err(TokenizerError::Truncated {
                what,
                offset: self.at,
            });
        }
        let taken = &self.data[self.at..self.at + len];
        self.at += len;
        Ok(taken)
    }

    /// An unsigned LEB128 length of at most 32 bits.
    fn varint(&mut self) -> Result<usize, TokenizerError> {
        let start = self.at;
        let mut value: u64 = 0;
        for shift in (0..35).step_by(7) {
            let byte = self.take(1, "a token's length")?[0];
            value |= ((byte & 0x7F) as u64) << shift;
            if byte & 0x80 == 0 {
                return u32::try_from(value)
                    .map(|v| v as usize)
                    .map_err(|_| TokenizerError::BadLength { offset: start });
            }
        }
        Err(TokenizerError::BadLength { offset: start })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        let long = [b'x'; 300];
        let tokens: [&[u8]; 3] = [b"a", b"", &long];
        write(Encoding::O200k, tokens.len(), tokens.into_iter())
    }

    #[test]
    fn layout_is_as_documented() {
        let data = sample();
        assert_eq!(&data[..8], b"CSTOKENS");
        assert_eq!(data[8], 1);
        assert_eq!(data[9], 5);
        assert_eq!(&data[10..15], b"o200k");
        assert_eq!(&data[15..19], &3u32.to_le_bytes());
        assert_eq!(&data[19..21], &[1, b'a']);
        assert_eq!(data[21], 0);
        // 300 = 0b10_0101100 → 0xAC 0x02
        assert_eq!(&data[22..24], &[0xAC, 0x02]);
        assert_eq!(data.len(), 24 + 300);
    }

    #[test]
    fn reads_what_it_writes() {
        let table = read(&sample()).unwrap();
        assert_eq!(table.encoding, Encoding::O200k);
        assert_eq!(table.starts, [0, 1, 1, 301]);
    }

    #[test]
    fn framing_errors() {
        let data = sample();
        assert_eq!(
            read(b"").err(),
            Some(TokenizerError::Truncated {
                what: "the magic bytes",
                offset: 0
            })
        );
        assert_eq!(
            read(b"NOTATOKENFILE").err(),
            Some(TokenizerError::NotTokenData)
        );
        let mut newer = data.clone();
        newer[8] = 2;
        assert_eq!(
            read(&newer).err(),
            Some(TokenizerError::UnsupportedVersion(2))
        );
        let mut renamed = data.clone();
        renamed[10] = b'x';
        assert_eq!(
            read(&renamed).err(),
            Some(TokenizerError::UnknownEncoding("x200k".into()))
        );
        assert_eq!(
            read(&data[..data.len() - 1]).err(),
            Some(TokenizerError::Truncated {
                what: "a token's bytes",
                offset: 24
            })
        );
        let mut longer = data.clone();
        longer.push(0);
        assert_eq!(
            read(&longer).err(),
            Some(TokenizerError::TrailingBytes { offset: 324 })
        );
        let mut huge = data[..22].to_vec();
        huge.extend_from_slice(&[0xFF, 0xFF, 0xFF, 0xFF, 0x7F]);
        assert_eq!(
            read(&huge).err(),
            Some(TokenizerError::BadLength { offset: 22 })
        );
        for len in 0..data.len() {
            assert!(read(&data[..len]).is_err(), "prefix of {len} bytes");
        }
    }
}
