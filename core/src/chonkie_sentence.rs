//! Chonkie's `SentenceChunker` (chonkie 1.7.0, chonkie-core 0.10.2) with its
//! defaults, reproduced exactly: `SentenceChunker(tokenizer="character",
//! chunk_size=size, chunk_overlap=overlap)`, or with a tiktoken encoding as
//! the tokenizer.
//!
//! Chonkie cuts the text into sentences with the same
//! `split_text_by_delimiters` as its `RecursiveChunker` ([`chonkie::delimit`]):
//! after each `". "`, `"! "`, `"? "` and `"\n"`, the delimiter kept at the
//! end of its sentence, a sentence shorter than `min_characters_per_sentence`
//! (12, measured in UTF-8 bytes) joined to a neighbour. The sentences tile
//! the text, so every chunk is a slice and its offsets are its true char
//! offsets. Each sentence is counted alone (`count_tokens_batch`).
//!
//! Chunks are packed from sentence `pos` on by chonkie-core's
//! `find_merge_indices` ([`chonkie::group_end`]): the longest run of whole
//! sentences whose counts sum to at most the size, and at least one, so a
//! sentence over the size is a chunk alone and `min_sentences_per_chunk=1`
//! never changes a chunk. With an overlap, the next chunk starts back at
//! the chunk's last sentences: walking back from its last sentence, each
//! sentence costs its count *plus one* (chonkie's "+1 for space"), the walk
//! stops before the cost passes the overlap, and it never reaches the
//! chunk's first sentence, so every chunk starts at least one sentence
//! after the one before. A text that Python's `str.strip` empties gives no
//! chunk.
//!
//! A size of 0 and an overlap of at least the size raise chonkie's own
//! `ValueError`s
//! ([`ChonkieError::library_exception`](crate::chonkie::ChonkieError::library_exception));
//! in tokens, a special token's text raises tiktoken's.
//!
//! Each chunk's cut is the delimiter that ends its last sentence; the cuts
//! index the delimiters that cut, in chonkie's order. The trace is one node
//! ([`Action::Sentences`]) every chunk points at.

use crate::chonkie;
use crate::engine::Run;
use crate::error::Error;
use crate::separator::Separator;
use crate::span::Span;
use crate::trace::{Action, Cut, Node};
use crate::unit::Unit;

/// `SentenceChunker`'s default `delim`, in its order.
pub const DELIMITERS: [&str; 4] = [". ", "! ", "? ", "\n"];

/// `SentenceChunker`'s default `min_characters_per_sentence`, which
/// chonkie-core measures in UTF-8 bytes.
pub const MIN_CHARACTERS_PER_SENTENCE: usize = 12;

/// The chunker's class, as its `ValueError`s are reported.
pub(crate) const CLASS: &str = "SentenceChunker";

/// `SentenceChunker.chunk(run.source)`.
///
/// Termination: every chunk holds at least one sentence
/// ([`chonkie::group_end`]), and the next starts after the chunk's first
/// sentence (the overlap's walk back stops there), so `pos` grows each
/// turn; the last chunk is the one that reaches the last sentence.
pub(crate) fn split(run: &mut Run<'_>) -> Result<(), Error> {
    let source = run.source;
    // `if not text.strip(): return []`.
    if source.chars().all(chunkscope_pyre::is_space) {
        return Ok(());
    }
    chonkie::refuse_special_tokens(run.counter, source)?;
    let (size, overlap) = (run.config.size, run.config.overlap);
    let whole = Span::new(0, source.len());
    let sentences = chonkie::delimit(source, whole, &DELIMITERS, MIN_CHARACTERS_PER_SENTENCE);
    let counts: Vec<usize> = sentences.iter().map(|s| run.measure.len(s.span)).collect();
    let sums = chonkie::running_sums(&counts);
    let len = run.measure.len(whole);
    let root = run.node(Node::whole(
        source.len(),
        len,
        size,
        Action::Sentences {
            parts: sentences.len(),
        },
    ));
    let mut pos = 0;
    while pos < sentences.len() {
        let end = chonkie::group_end(&sums, pos, size);
        let span = Span::new(sentences[pos].span.start, sentences[end - 1].span.end);
        // `_create_chunk` counts the joined text again; in chars it is the sum.
        let len = run.measure.len(span);
        run.emit(span, len, root);
        // Every sentence but the text's last ends with a delimiter.
        run.pending = sentences[end - 1].end.map_or(Cut::End, Cut::Separator);
        if overlap == 0 || end == sentences.len() {
            pos = end;
            continue;
        }
        let (mut held, mut back) = (0, end - 1);
        while back > pos && held < overlap {
            let next = held + counts[back] + 1;
            if next > overlap {
                break;
            }
            held = next;
            back -= 1;
        }
        pos = back + 1;
    }
    let all: Vec<Separator> = DELIMITERS.iter().map(|d| Separator::literal(*d)).collect();
    run.separators = Some(crate::engine::used_separators(&mut run.chunks, &all));
    Ok(())
}

/// Python that gives these chunks with chonkie itself.
pub fn to_python(size: usize, overlap: usize, unit: Unit) -> String {
    chonkie::python_call(
        CLASS,
        &format!("chunk_size={size}, chunk_overlap={overlap}"),
        unit,
    )
}
