//! LlamaIndex's `TokenTextSplitter` (llama-index-core 0.14.25) with its
//! defaults, reproduced exactly: `TokenTextSplitter(chunk_size=size,
//! chunk_overlap=overlap)`, with `separator=" "`, `backup_separators=["\n"]`
//! and `keep_whitespaces=False`, counting cl100k tokens as its default
//! tokenizer does (tiktoken with `allowed_special="all"`, as
//! `SentenceSplitter`'s), or with `tokenizer=` an o200k encoding's `encode`,
//! `list` (chars) or UTF-8 bytes.
//!
//! `_split` returns a piece that counts at most the size whole; else it
//! cuts it with the first of its split functions that makes more than one
//! split: a space (kept at the start of the split after it, empty splits
//! dropped), a newline (the same), then every character. Each split that
//! still counts more is split again the same way, but a piece that no
//! function divides (one character over the size: an emoji of several
//! tokens at a small size, a character of several bytes) is kept whole, and
//! `_merge` takes it with only a logged warning (whose two arguments
//! `logging` cannot format: it prints its own error on stderr and goes on).
//!
//! `_merge` adds splits to the chunk while the sum of their counts (not the
//! count of their joined text) stays within the size; a split that would
//! pass it closes the chunk, and the next chunk keeps the last splits of
//! the one before, dropped from the front while they count more than the
//! overlap or leave no room for that split (so a split over the size
//! starts a chunk alone). Each chunk is `str.strip`ped and a blank one
//! dropped: a text of whitespace alone gives no chunk.
//!
//! The splits tile the text, so a chunk is a run of them, stripped: always
//! a slice of the text, its span where its splits lie. A piece is counted
//! as `SentenceSplitter`'s pieces are (each special token's text one token
//! in cl100k). `_split` recurses at most three levels deep (a split at
//! spaces holds none past its first character, one at newlines none at
//! all), so no text nears Python's recursion limit, and nothing here is
//! refused. The one answer not reproduced is the empty text's:
//! `split_text("")` returns `[""]` (and a `Document` of no text gives one
//! node of no text), this strategy, as every one here, no chunk.

use super::SEPARATOR;
use super::{chars, offset_in, split_keep_separator, Counts};
use crate::error::Error;
use crate::separator::Separator;
use crate::span::Span;
use crate::trace::{Chunk, Output};
use crate::unit::Counter;
use std::collections::VecDeque;

/// The default `backup_separators`' one separator, between lines.
pub const BACKUP_SEPARATOR: &str = "\n";

/// `TokenTextSplitter`'s split functions, in the order it tries them; the
/// value is the index in [`separators`] that the cuts use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SplitFn {
    Space = 0,
    Newline = 1,
    Char = 2,
}

/// The split functions as separators, in LlamaIndex's order: a space, a
/// newline, and between characters. A cut is labelled with the function
/// that made the split it falls on.
pub fn separators() -> Vec<Separator> {
    vec![
        Separator::literal(SEPARATOR),
        Separator::literal(BACKUP_SEPARATOR),
        Separator::hard_cut(),
    ]
}

/// A split of `_split`: its span, its count, and the function that cut
/// after it (`None` for the text's last).
#[derive(Clone, Copy, Debug)]
struct Split {
    span: Span,
    len: usize,
    after: Option<SplitFn>,
}

/// Splits `text` as `TokenTextSplitter(chunk_size=size,
/// chunk_overlap=overlap, tokenizer=…).split_text(text)`.
pub(crate) fn run(
    text: &str,
    size: usize,
    overlap: usize,
    counter: Counter,
) -> Result<Output, Error> {
    let counts = Counts::new(text, counter)?;
    let mut splits = Vec::new();
    if !text.is_empty() {
        split(text, &counts, size, Span::new(0, text.len()), &mut splits);
    }
    Ok(Output {
        chunks: merge(text, &counts, &splits, size, overlap),
        separators: Some(separators()),
        ..Output::default()
    })
}

/// `_split(piece)`, its splits appended to `out`. It recurses at most
/// three levels: a piece cut at spaces holds none past its first character,
/// one cut at newlines none at all.
fn split(source: &str, counts: &Counts, size: usize, piece: Span, out: &mut Vec<Split>) {
    let len = counts.count(piece);
    if len <= size {
        out.push(Split {
            span: piece,
            len,
            after: None,
        });
        return;
    }
    let (function, parts) = split_by_fns(source, piece);
    let last = parts.len() - 1;
    for (i, &part) in parts.iter().enumerate() {
        let len = counts.count(part);
        if len <= size || parts.len() == 1 {
            // One character over the size stays whole: `_merge` warns and
            // takes it.
            out.push(Split {
                span: part,
                len,
                after: None,
            });
        } else {
            split(source, counts, size, part, out);
        }
        if i < last {
            out.last_mut().expect("a split was made").after = Some(function);
        }
    }
}

/// The first split function that makes more than one split, else the last
/// one tried (a piece of one character, whole).
fn split_by_fns(source: &str, piece: Span) -> (SplitFn, Vec<Span>) {
    let text = piece.text(source);
    for (function, sep) in [
        (SplitFn::Space, SEPARATOR),
        (SplitFn::Newline, BACKUP_SEPARATOR),
    ] {
        let parts = split_keep_separator(text, sep);
        if parts.len() > 1 {
            return (function, offset_in(piece, parts));
        }
    }
    (SplitFn::Char, offset_in(piece, chars(text)))
}

/// `_merge`: the splits packed into chunks by the sum of their counts,
/// each next chunk starting with the last splits of the one before that
/// fit in the overlap and leave room for the split that closed it;
/// stripped, the blank ones dropped.
fn merge(
    source: &str,
    counts: &Counts,
    splits: &[Split],
    size: usize,
    overlap: usize,
) -> Vec<Chunk> {
    // Runs of splits, as the first and one past the last index.
    let mut raw: Vec<(usize, usize)> = Vec::new();
    let mut cur: VecDeque<usize> = VecDeque::new();
    let mut cur_len = 0;
    for (i, split) in splits.iter().enumerate() {
        if cur_len + split.len > size {
            raw.extend(super::run_of(&cur));
            while !cur.is_empty() && (cur_len > overlap || cur_len + split.len > size) {
                let first = cur.pop_front().expect("not empty");
                cur_len -= splits[first].len;
            }
        }
        cur.push_back(i);
        cur_len += split.len;
    }
    raw.extend(super::run_of(&cur));
    super::stripped_chunks(source, counts, &raw, |i| {
        (splits[i].span, splits[i].after.map(|f| f as usize))
    })
}

/// Python that gives these chunks with LlamaIndex itself.
pub fn to_python(size: usize, overlap: usize, unit: crate::unit::Unit) -> String {
    super::python_call(super::Class::Token, size, overlap, unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(text: &str, size: usize, overlap: usize) -> Vec<&str> {
        let out = run(text, size, overlap, Counter::CHARS).unwrap();
        out.chunks.iter().map(|c| c.span.text(text)).collect()
    }

    /// Checked against `TokenTextSplitter(…, tokenizer=list)`: the overlap
    /// keeps whole words, popped from the front, and a chunk of spaces
    /// alone is dropped.
    #[test]
    fn words_pack_with_whole_words_of_overlap() {
        assert_eq!(
            chunks("refunds take five days", 12, 6),
            ["refunds take", "take five", "five days"]
        );
        assert_eq!(chunks("a\nbb\nccc dd", 4, 0), ["a\nbb", "ccc", "dd"]);
        assert_eq!(chunks("   ", 1, 0), Vec::<&str>::new());
    }
}
