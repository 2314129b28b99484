//! The `text-splitter` crate (0.33.1, the library behind the PyPI package
//! `semantic-text-splitter` 0.33.1), reproduced: `TextSplitter` and
//! `MarkdownSplitter` with the capacity as the size, its overlap and its
//! trimming, counting chars, bytes or our own cl100k/o200k tokens (the
//! count tiktoken's `encode_ordinary` gives, which is what the package's
//! `from_tiktoken_model` counts).
//!
//! The chunks are the library's own, byte for byte. The crate parses the
//! text (runs of line breaks, or Markdown), packs it, and keeps nothing of
//! the parse; labelling the cuts needs it. So here one parse
//! (`levels`) serves both: `chunks` packs from it step for step as the
//! crate does, and the engine labels the cuts from it. The differential
//! tests run the crate itself (a dev-dependency) beside the reproduction.
//! What the library does not report is why it cut where it did, and that
//! is what this module adds.
//!
//! How the library cuts: it finds the text's semantic levels (for plain
//! text, runs of line breaks, each length its own level, a longer run
//! stronger; for Markdown, headings by depth, thematic breaks, blocks,
//! inline elements, soft breaks), and below them Unicode sentences, words,
//! grapheme clusters and chars. For each chunk it takes the strongest level
//! whose first unit fits, and packs units of that level or stronger as far
//! as the capacity allows. So a cut lies on a boundary of the level it
//! packed, or of a stronger one that happened to end there.
//!
//! Each cut is labelled with the strongest boundary in the whitespace
//! around it (from the last non-whitespace character of the chunk to the
//! next one after it; the cut point itself when there is none), as the
//! library's own segmenters and Markdown parser find boundaries: a run of
//! line breaks (labelled with its text, the longest run there), a Markdown
//! element's start or end, a sentence, a word, a grapheme cluster, and else
//! a char (the hard cut). Sentence and word boundaries are found in the
//! text from the chunk's start (or the start of the cut's line, after which
//! both segmenters start again) to the next chunk's end, as the library
//! finds them from the chunk it is filling. The label is exact about the
//! text; the level the library was packing at (which can be weaker, when a
//! stronger boundary is where its units ran out) is internal to it and not
//! reported.
//!
//! Errors ([`TextSplitterError`]): the library's `ChunkConfig` refuses an
//! overlap not below the capacity (a size of 0 included, with overlap 0),
//! which the package raises as `ValueError`; and where, with an overlap,
//! a chunk starts before the one ahead of it, the package panics while
//! counting char offsets (`PanicException`), so this engine refuses.
//!
//! The engine itself is behind the `text-splitter` feature (on by default):
//! the library's word segmenter, which the reproduction must use too,
//! brings ICU4X's dictionaries and models for scripts written without
//! spaces, 3 MB of wasm, so the playground's first
//! worker is built without it and a second one, started only when a
//! text-splitter strategy is asked for, with it. [`Kind`], [`to_python`] and
//! the errors are here either way.

pub use crate::error::text_splitter::TextSplitterError;

use crate::unit::Unit;

#[cfg(feature = "text-splitter")]
mod chunks;
#[cfg(feature = "text-splitter")]
mod engine;
#[cfg(feature = "text-splitter")]
mod levels;
#[cfg(feature = "text-splitter")]
pub(crate) use engine::TextSplitterEngine;

/// Which of the library's splitters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `TextSplitter`: line breaks, then Unicode segmentation.
    Text,
    /// `MarkdownSplitter`: Markdown's structure, then Unicode segmentation.
    Markdown,
}

impl Kind {
    /// The class name, the same in Rust and Python.
    pub const fn class_name(self) -> &'static str {
        match self {
            Kind::Text => "TextSplitter",
            Kind::Markdown => "MarkdownSplitter",
        }
    }
}

/// Python that gives these chunks with the `semantic-text-splitter` package.
pub fn to_python(kind: Kind, size: usize, overlap: usize, trim: bool, unit: Unit) -> String {
    let class = kind.class_name();
    let mut args = format!("{size}");
    if overlap > 0 {
        args.push_str(&format!(", overlap={overlap}"));
    }
    if !trim {
        args.push_str(", trim=False");
    }
    let splitter = match unit {
        Unit::Chars => format!("{class}({args})"),
        Unit::Bytes => format!("{class}.from_callback(lambda s: len(s.encode()), {args})"),
        Unit::Tokens(encoding) => format!(
            "{class}.from_tiktoken_model(\"{}\", {args})",
            tiktoken_model(encoding)
        ),
    };
    format!(
        "from semantic_text_splitter import {class}  # pip install semantic-text-splitter==0.33.1\n\n\
         splitter = {splitter}\n\
         chunks = splitter.chunks(text)\n"
    )
}

/// The OpenAI model whose encoding `from_tiktoken_model` loads.
pub fn tiktoken_model(encoding: crate::tokens::Encoding) -> &'static str {
    match encoding {
        crate::tokens::Encoding::Cl100k => "gpt-3.5-turbo",
        crate::tokens::Encoding::O200k => "gpt-4o",
    }
}
