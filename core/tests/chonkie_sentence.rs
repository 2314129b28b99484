//! The `chonkie-sentence` strategy against the real chonkie 1.7.0
//! (`SentenceChunker` with its defaults): for generated texts, sizes,
//! overlaps and units (chars with chonkie's character tokenizer, cl100k and
//! o200k with a tiktoken encoding), the same chunk texts and the same
//! `start_index`/`end_index`, and where chonkie raises, the same exception,
//! class and message.
//!
//! The texts are sentences of words ended by each of chonkie's delimiters
//! (`. `, `! `, `? `, a newline) and by near misses (a stop with no space,
//! `\r`, a stop at the very end), short ones (under the 12 bytes chonkie
//! joins) among long ones (over the size), with characters of several bytes
//! and of several tokens, special tokens' texts in tokens, and texts of
//! whitespace alone (some of it whitespace to Python's `str.strip` but not
//! to Rust). The overlaps reach every edge: none, one below the size (which
//! walks back several sentences), the size and past it (chonkie's
//! `ValueError`), and a size of 0 (its other one).
//!
//! `cargo test` replays `tests/vectors/chonkie_sentence.jsonl.gz`; the
//! ignored live test asks the driver (`tests/reference/chonkie/driver.py`)
//! now; `./x vectors` records them again.

mod library;
mod oracle;
mod tokenizer;

use chunkscope::Strategy;
use library::{Library, Rng, SPACES, WORDS};
use serde_json::Value;

const VECTORS: &str = "chonkie_sentence";
const SEED: u64 = 0x5E47_E4CE;
/// Cases per unit.
const CASES: [(&str, usize); 3] = [("chars", 1700), ("cl100k", 700), ("o200k", 600)];
/// Refusals of this engine's own: none. Every chunk is whole sentences of
/// the text, so chonkie's texts are slices and its offsets true.
const REFUSAL_CEILING: usize = 0;

/// What ends a sentence: chonkie's delimiters, often, and near misses.
const ENDS: &[&str] = &[
    ". ", ". ", "! ", "? ", "\n", "\n", ".\n", "\n\n", "\r\n", "?  ", ".", "!", "\r", ". \u{a0}",
    "。", "\t",
];
/// Between words.
const GAPS: &[&str] = &[
    " ", " ", " ", " ", "  ", ", ", "\u{a0}", "\u{3000}", "\u{85}",
];
/// tiktoken's special tokens, which its `encode` raises on.
const SPECIAL: &[&str] = &["<|endoftext|>", "<|fim_middle|>", "<|endofprompt|>"];

/// A text of sentences: most of one to three words (so chonkie joins many),
/// some long; ASCII alone in a third of the token cases; sometimes
/// whitespace alone or nothing.
fn text(rng: &mut Rng, unit: &str) -> String {
    if rng.below(30) == 0 {
        return (0..rng.below(5))
            .map(|_| rng.pick(SPACES))
            .collect::<String>();
    }
    let ascii = rng.below(3) == 0;
    let special = unit != "chars" && rng.below(12) == 0;
    let mut out = String::new();
    if rng.below(8) == 0 {
        out.push_str(rng.pick(SPACES));
    }
    for _ in 0..1 + rng.below(14) {
        let words = match rng.below(10) {
            0..=5 => 1 + rng.below(3),
            6..=8 => 3 + rng.below(6),
            _ => 8 + rng.below(20),
        };
        for w in 0..words {
            if w > 0 {
                out.push_str(rng.pick(GAPS));
            }
            if special && rng.below(8) == 0 {
                out.push_str(rng.pick(SPECIAL));
            }
            out.push_str(loop {
                let word = rng.pick(WORDS);
                if !ascii || word.is_ascii() {
                    break word;
                }
            });
        }
        out.push_str(rng.pick(ENDS));
    }
    if rng.below(4) == 0 {
        out.push_str(rng.pick(SPACES));
    }
    out
}

fn requests(seed: u64) -> Vec<Value> {
    library::overlapping_requests(seed, "sentence", &CASES, (120, 40), text)
}

/// chonkie's `SentenceChunker` harness: its strategy, its driver and its
/// recorded answers.
const LIBRARY: Library = Library::chonkie(Strategy::ChonkieSentence, VECTORS, REFUSAL_CEILING);

#[test]
fn identical_to_the_recorded_chonkie() {
    LIBRARY.compare_recorded(&[
        "chunks in chars",
        "chunks in cl100k",
        "chunks in o200k",
        "errors in chars",
        "errors in cl100k",
        "errors in o200k",
        "more than one chunk",
        "a chunk over the size",
        "a chunk longer in bytes than the size",
    ]);
}

/// The recorded cases reach what `SentenceChunker` does that a plain packer
/// would not: each delimiter cutting, a sentence under 12 bytes joined to
/// the next, a chunk of one sentence over the size, chunks that repeat one
/// sentence and several, texts of whitespace alone, characters of several
/// bytes and of several tokens in agreed chunks, and tiktoken's error on a
/// special token. Read from the library's answers, not from our engine.
#[test]
fn the_recorded_cases_reach_every_quirk() {
    let quirks = [
        "a special token's error",
        "a text of whitespace alone",
        "a cut at \". \"",
        "a cut at \"! \"",
        "a cut at \"? \"",
        "a cut at a newline",
        "a sentence under 12 bytes joined",
        "one sentence over the size",
        "characters of several bytes in tokens",
        "characters of several tokens",
        "an overlap",
        "an overlap of several sentences",
    ];
    library::assert_quirks_reached(VECTORS, &quirks, |request, answer, saw| {
        let text = request["text"].as_str().unwrap();
        let unit = request["unit"].as_str().unwrap();
        let Some(chunks) = answer["chunks"].as_array() else {
            return;
        };
        let offsets = answer["offsets"].as_array().unwrap();
        let chunks: Vec<&str> = chunks.iter().map(|c| c.as_str().unwrap()).collect();
        let size = request["size"].as_u64().unwrap() as usize;
        if chunks.is_empty() && !text.is_empty() {
            saw("a text of whitespace alone");
        }
        for (i, chunk) in chunks.iter().enumerate() {
            // The delimiter that ends a chunk other than the last.
            if i + 1 < chunks.len() {
                for (delimiter, what) in [
                    (". ", "a cut at \". \""),
                    ("! ", "a cut at \"! \""),
                    ("? ", "a cut at \"? \""),
                    ("\n", "a cut at a newline"),
                ] {
                    if chunk.ends_with(delimiter) {
                        saw(what);
                    }
                }
            }
            // How many delimiters end a sentence in the chunk.
            let ends = chunk
                .match_indices(['.', '!', '?', '\n'])
                .filter(|&(at, m)| m == "\n" || chunk[at + 1..].starts_with(' '))
                .count();
            // Two sentences together never pass the size: a chunk over it
            // that holds two delimiters is one sentence of chonkie's, made
            // of a short one joined to its neighbour.
            if unit == "chars" && chunk.chars().count() > size {
                saw(match ends {
                    0 | 1 => "one sentence over the size",
                    _ => "a sentence under 12 bytes joined",
                });
            }
            if chunk.chars().any(|c| c.len_utf8() > 1) && unit != "chars" {
                saw("characters of several bytes in tokens");
            }
            if chunk.contains('😀') || chunk.contains("ਪੰਜਾਬੀ") {
                saw("characters of several tokens");
            }
            if i > 0 {
                let end_before = offsets[i - 1][1].as_u64().unwrap();
                let start = offsets[i][0].as_u64().unwrap();
                if start < end_before {
                    saw("an overlap");
                    let repeated = &chunk[..chunk
                        .char_indices()
                        .nth((end_before - start) as usize)
                        .map_or(chunk.len(), |(at, _)| at)];
                    if repeated.matches(['\n', '.', '!', '?']).count() > 1 {
                        saw("an overlap of several sentences");
                    }
                }
            }
        }
    });
}

#[test]
fn a_planted_wrong_answer_is_caught() {
    LIBRARY.assert_planted_answers_fail();
}

#[test]
#[ignore = "asks the pinned chonkie (CHUNKSCOPE_LANGCHAIN_PYTHON); `./x test` runs it: cargo test -- --ignored live"]
fn identical_to_the_live_chonkie() {
    LIBRARY.compare_live(&requests(SEED), &["packages"]);
}

#[test]
#[ignore = "writes tests/vectors/chonkie_sentence.jsonl.gz with the pinned chonkie; run by `./x vectors`"]
fn record_vectors() {
    LIBRARY.record(&requests(SEED), SEED, "core/tests/chonkie_sentence.rs");
}
