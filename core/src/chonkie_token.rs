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
//! ends between characters, those are the chunks' true char offsets. In
//! tokens a window can start or end inside a character (a character of
//! several tokens): chonkie then decodes its bytes to U+FFFD, so the chunk
//! is not the text, and every offset after it counts the replacement
//! characters instead of the text's. The split then carries chonkie's own
//! text for each such chunk ([`NotSlice::TokensDecodedApart`]) and chonkie's
//! `start_index` for every chunk ([`Output::library`](crate::Output)); a
//! chunk's span holds the characters whose first byte is in its window.
//!
//! `chunk_overlap` may be a fraction in chonkie (`int(chunk_overlap *
//! chunk_size)` tokens, never checked against the size: 1.0 makes
//! `range()` raise on a step of 0, more gives no chunk at all); the overlap
//! setting is a count, chonkie's int form, which it checks: an overlap of
//! at least the size raises, as does a size of 0, with chonkie's own
//! `ValueError`s
//! ([`ChonkieError::library_exception`](crate::chonkie::ChonkieError::library_exception)).
//!
//! Chonkie's `token_count` is the window's tokens (`size` for every window
//! but the last); a chunk's [`len`](crate::Chunk::len) here is its text
//! counted alone, what the checks and the page count, which in tokens can
//! differ from it (a word cut in two encodes differently on its own).

use crate::chonkie;
use crate::engine::Run;
use crate::error::Error;
use crate::span::Span;
use crate::trace::{Cut, LibraryFact, Node, NotSlice};
use crate::unit::{Counter, Unit};

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

/// The chunker's class, as its `ValueError`s are reported.
pub(crate) const CLASS: &str = "TokenChunker";

/// Cuts `run.source` into chonkie's windows.
///
/// Termination: each window starts `size − overlap ≥ 1` tokens after the
/// one before ([`chonkie::check_size_and_overlap`] holds it), and the loop
/// stops at the window that reaches the last token.
pub(crate) fn split(run: &mut Run<'_>) -> Result<(), Error> {
    let source = run.source;
    // `if not text.strip(): return []`.
    if source.chars().all(chunkscope_pyre::is_space) {
        return Ok(());
    }
    let (size, overlap) = (run.config.size, run.config.overlap);
    let stride = size - overlap;
    // For tokens, where each of the whole text's tokens ends (its one
    // encoding, which the windows' counts read too); for chars, `None`: two
    // cursors find the windows' edges.
    let ends: Option<Vec<usize>> = match run.counter.tokenizer() {
        None => None,
        Some(_) => {
            chonkie::refuse_special_tokens(run.counter, source)?;
            run.measure.source_token_ends().map(|e| e.iter().collect())
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
    // A window's bytes, from its first token to its last; in tokens its
    // edges can fall inside a character.
    let window = |first: usize, starts: &mut Chars, finishes: &mut Chars| {
        let last = (first + size).min(count);
        match &ends {
            None => Span::new(starts.seek(first), finishes.seek(last)),
            Some(ends) => Span::new(offset(ends, first), offset(ends, last)),
        }
    };
    let mut apart = false;
    let mut first = 0;
    loop {
        let last = (first + size).min(count);
        let raw = window(first, &mut starts, &mut finishes);
        let span = chonkie::held(source, raw);
        apart |= span != raw;
        let len = match run.counter.unit() {
            Unit::Chars => last - first,
            _ => run.measure.len(span),
        };
        run.emit(span, len, root);
        if last == count {
            break;
        }
        first += stride;
    }
    if let (true, Some(ends)) = (apart, &ends) {
        run.library = Some(offsets(source, ends, size, overlap));
    }
    Ok(())
}

/// What chonkie says of each window when one of them starts or ends inside
/// a character: its text where the window's bytes decoded alone are not its
/// span's text, and its `start_index`, which `_create_chunks` computes from
/// the decoded texts (each window starts where the last one ended, less the
/// length of the last one's final `chunk_overlap` tokens decoded alone).
/// From the first U+FFFD on, that count is not the text's.
fn offsets(source: &str, ends: &[usize], size: usize, overlap: usize) -> Vec<LibraryFact> {
    let count = ends.len();
    let stride = size - overlap;
    let bytes = |from: usize, to: usize| {
        Span::new(
            from.checked_sub(1).map_or(0, |i| ends[i]),
            to.checked_sub(1).map_or(0, |i| ends[i]),
        )
    };
    let mut facts = Vec::new();
    let mut at: i64 = 0;
    let mut first = 0;
    loop {
        let last = (first + size).min(count);
        let raw = bytes(first, last);
        let text = chonkie::decoded(source, raw);
        let own = (text != chonkie::held(source, raw).text(source)).then(|| text.to_string());
        let start = at;
        let end = start + text.chars().count() as i64;
        let tail = if last - first > overlap {
            bytes(last - overlap, last)
        } else {
            raw
        };
        // Decoded alone, the tail can come back longer than the window
        // did (its first character's bytes each a U+FFFD), so the next
        // start can fall below 0, as Python's ints let it.
        let kept = if overlap > 0 {
            chonkie::decoded(source, tail).chars().count() as i64
        } else {
            0
        };
        facts.push(LibraryFact::new(
            own.clone(),
            own.map(|_| NotSlice::TokensDecodedApart),
            Some(start),
            None,
        ));
        if last == count {
            return facts;
        }
        at = end - kept;
        first += stride;
    }
}

/// Python that gives these chunks with chonkie itself.
pub fn to_python(size: usize, overlap: usize, unit: Unit) -> String {
    crate::chonkie::python_call(
        CLASS,
        &format!("chunk_size={size}, chunk_overlap={overlap}"),
        unit,
    )
}
