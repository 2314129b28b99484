//! Chonkie's `TokenChunker` (chonkie 1.7.0), reproduced exactly:
//! `TokenChunker(tokenizer="character", chunk_size=size,
//! chunk_overlap=overlap)`, or with a tiktoken encoding as the tokenizer.
//!
//! Chonkie encodes the whole text once and cuts the tokens into windows of
//! `chunk_size`, one starting every `chunk_size − chunk_overlap` tokens
//! (`range(0, len(tokens), step)`), stopping after the first window that
//! reaches the last token, so there is no tail made only of overlap. Each
//! window is decoded alone. A text that Python's `str.strip` empties gives
//! no chunk at all; any other text keeps all its whitespace.
//!
//! Its offsets are arithmetic on the decoded texts: a chunk's `start_index`
//! is the last one's `end_index` less the length of its last
//! `chunk_overlap` tokens decoded alone, and `end_index` is `start_index`
//! plus the chunk's length in characters. Where every window starts and
//! ends between characters, those are the chunks' true char offsets, which
//! is what this engine reports. In tokens a window can start or end inside a
//! character (a character of several tokens): chonkie then decodes its
//! bytes to U+FFFD, so the chunk is not the text, and every offset after it
//! counts the replacement characters instead of the text's. Such a split is
//! a [`ChonkieError::WindowInsideChar`] that says so.
//!
//! `chunk_overlap` may be a fraction in chonkie (`int(chunk_overlap *
//! chunk_size)` tokens, never checked against the size: 1.0 makes
//! `range()` raise on a step of 0, more gives no chunk at all); the overlap
//! setting is a count, chonkie's int form, which it checks: an overlap of
//! at least the size raises, as does a size of 0, with chonkie's own
//! `ValueError`s ([`ChonkieError::library_exception`]).
//!
//! Chonkie's `token_count` is the window's tokens (`size` for every window
//! but the last); a chunk's [`len`](crate::Chunk::len) here is its text
//! counted alone, what the checks and the page count, which in tokens can
//! differ from it (a word cut in two encodes differently on its own).

use crate::chonkie::ChonkieError;
use crate::config::Config;
use crate::engine::Run;
use crate::error::Error;
use crate::span::Span;
use crate::trace::{Cut, Node};
use crate::unit::{Counter, Unit};

/// `TokenChunker.__init__`'s checks, in its order (the tokenizer first:
/// chonkie has none for bytes).
pub(crate) fn check(config: &Config) -> Result<(), ChonkieError> {
    if config.unit == Unit::Bytes {
        return Err(ChonkieError::Bytes);
    }
    if config.size == 0 {
        return Err(ChonkieError::SizeNotPositive);
    }
    if config.overlap >= config.size {
        return Err(ChonkieError::OverlapNotLess {
            overlap: config.overlap,
            size: config.size,
        });
    }
    Ok(())
}

/// A byte offset `n` chars into the text, asked for in increasing `n`: a
/// cursor that walks the text once (a table of every char's offset would
/// cost eight bytes a char).
struct Chars<'a> {
    text: &'a str,
    /// The last count asked for, and its byte offset.
    at: (usize, usize),
}

impl Chars<'_> {
    fn seek(&mut self, n: usize) -> usize {
        let byte = Counter::CHARS.forward(self.text, self.at.1, n - self.at.0);
        self.at = (n, byte);
        byte
    }
}

/// Cuts `run.source` into chonkie's windows.
///
/// Termination: each window starts `size − overlap ≥ 1` tokens after the
/// one before ([`check`] holds it), and the loop stops at the window that
/// reaches the last token.
pub(crate) fn split(run: &mut Run<'_>) -> Result<(), Error> {
    let source = run.source;
    // `if not text.strip(): return []`.
    if source.chars().all(chunkscope_pyre::is_space) {
        return Ok(());
    }
    let (size, overlap) = (run.config.size, run.config.overlap);
    let stride = size - overlap;
    // For tokens, where each of the whole text's tokens ends (its one
    // encoding); for chars, `None`: two cursors find the windows' edges.
    let ends: Option<Vec<usize>> = match run.counter.tokenizer() {
        None => None,
        Some(tokenizer) => {
            // tiktoken's `encode` raises on a special token's text before
            // anything is cut.
            if let Some(token) =
                crate::error::langchain::leftmost_special_token(tokenizer.encoding(), source)
            {
                return Err(ChonkieError::SpecialToken { token }.into());
            }
            let mut end = 0;
            Some(
                tokenizer
                    .encode(source)
                    .into_iter()
                    .map(|t| {
                        end += tokenizer.token_bytes(t).map_or(0, <[u8]>::len);
                        end
                    })
                    .collect(),
            )
        }
    };
    let count = ends
        .as_ref()
        .map_or_else(|| source.chars().count(), Vec::len);
    let offset = |ends: &[usize], i: usize| i.checked_sub(1).map_or(0, |i| ends[i]);
    let (mut starts, mut finishes) = (
        Chars {
            text: source,
            at: (0, 0),
        },
        Chars {
            text: source,
            at: (0, 0),
        },
    );
    let root = run.node(Node::windows(source.len(), count, size, stride));
    run.pending = Cut::Window;
    let mut first = 0;
    loop {
        let last = (first + size).min(count);
        let window = match &ends {
            None => Span::new(starts.seek(first), finishes.seek(last)),
            Some(ends) => Span::new(offset(ends, first), offset(ends, last)),
        };
        for (at, start) in [(window.start, true), (window.end, false)] {
            if !source.is_char_boundary(at) {
                return Err(inside_char(source, at, start, size, overlap));
            }
        }
        let len = match run.counter.unit() {
            Unit::Chars => last - first,
            _ => run.measure.len(window),
        };
        run.emit(window, len, root);
        if last == count {
            return Ok(());
        }
        first += stride;
    }
}

/// The refusal for a window edge at byte `at`, inside a character.
fn inside_char(source: &str, at: usize, starts: bool, size: usize, overlap: usize) -> Error {
    let start = crate::unit::floor_boundary(source, at);
    ChonkieError::WindowInsideChar {
        ch: source[start..].chars().next().unwrap_or('\u{fffd}'),
        at: source[..start].chars().count(),
        starts,
        size,
        overlap,
    }
    .into()
}

/// Python that gives these chunks with chonkie itself.
pub fn to_python(size: usize, overlap: usize, unit: Unit) -> String {
    crate::chonkie::python_call(
        "TokenChunker",
        &format!("chunk_size={size}, chunk_overlap={overlap}"),
        unit,
    )
}
