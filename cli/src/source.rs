//! Reading an input: a file mapped into memory, or standard input read
//! whole, and checked once to be UTF-8.
//!
//! A regular file is mapped rather than read: reading copies every byte
//! from the page cache into a fresh buffer whose pages the kernel must
//! first zero, which on a 10 MB file cost about as much as splitting it.
//! The engine needs the whole text at once either way.

use crate::args::Input;
use crate::{cannot_read, Failure};
use std::fs::File;
use std::io::{self, Read};

/// Files smaller than this are read: mapping one costs more than copying it.
const MAP_FROM: u64 = 64 << 10;

/// An input's bytes, not yet known to be text, and how messages name it.
pub struct Source {
    bytes: Bytes,
    name: String,
}

enum Bytes {
    Read(Vec<u8>),
    Mapped(memmap2::Mmap),
}

impl Source {
    /// Opens and reads, or maps, `input`.
    pub fn open(input: &Input) -> Result<Source, Failure> {
        let path = match input {
            Input::Stdin => {
                let mut bytes = Vec::new();
                io::stdin()
                    .lock()
                    .read_to_end(&mut bytes)
                    .map_err(|e| Failure::Io(format!("cannot read standard input: {e}")))?;
                return Ok(Source {
                    bytes: Bytes::Read(bytes),
                    name: "standard input".to_string(),
                });
            }
            Input::File(path) => path,
        };
        let name = path.display().to_string();
        let mut file = File::open(path).map_err(|e| cannot_read(path, &e))?;
        let meta = file.metadata().map_err(|e| cannot_read(path, &e))?;
        if meta.is_file() && meta.len() >= MAP_FROM {
            // SAFETY: the map is private and read-only, and lives as long as
            // the `Source`. Like every program that maps its input (ripgrep
            // does by default), this assumes no other process truncates or
            // rewrites the file while it is being split; if one does, the
            // text can change under the engine, or reading a page past the
            // new end stops the process. docs/cli.md says so.
            let map = unsafe { memmap2::MmapOptions::new().populate().map(&file) }
                .map_err(|e| cannot_read(path, &e))?;
            return Ok(Source {
                bytes: Bytes::Mapped(map),
                name,
            });
        }
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| cannot_read(path, &e))?;
        Ok(Source {
            bytes: Bytes::Read(bytes),
            name,
        })
    }

    /// The text, checked to be UTF-8. Offsets are reported in chars and
    /// bytes of the text as given, so it is never repaired or re-encoded: a
    /// file in another encoding is refused with the position of its first
    /// bad byte.
    pub fn text(&self) -> Result<&str, Failure> {
        let bytes: &[u8] = match &self.bytes {
            Bytes::Read(bytes) => bytes,
            Bytes::Mapped(map) => map,
        };
        // simdutf8 checks text several times faster than the standard
        // library; on a refusal the standard library says where.
        if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
            return Ok(text);
        }
        std::str::from_utf8(bytes).map_err(|e| {
            let at = e.valid_up_to();
            let byte = bytes.get(at).copied().unwrap_or_default();
            Failure::Usage(format!(
                "{} is not UTF-8 text: the byte at offset {at} (0x{byte:02X}) is not valid \
                 UTF-8; convert the text first, e.g. `iconv -f latin1 -t utf-8`",
                self.name
            ))
        })
    }
}
