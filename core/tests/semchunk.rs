//! The `semchunk` strategy against the real semchunk 4.1.1: for generated
//! texts, sizes, overlaps and units (chars, bytes, cl100k and o200k tokens),
//! the same chunk texts and the same offsets, and where semchunk raises, the
//! same exception.
//!
//! The texts are built to reach every branch of semchunk's splitter choice:
//! runs of `\n`, `\r\n` and `\r` of several lengths, tabs, runs of spaces and
//! of other whitespace (no-break, ideographic, line separator, `\x1c`), a
//! single space after each of its punctuation marks, every mark alone,
//! words with no whitespace at all, multi-byte and multi-token characters,
//! and tiktoken's special-token strings (plain text to semchunk's counter).
//!
//! `cargo test` replays `tests/vectors/semchunk.jsonl.gz`; the ignored live
//! test asks the driver (`tests/reference/semchunk/driver.py`) now; `./x
//! vectors` records them again.

mod library;
mod oracle;
mod tokenizer;

use chunkscope::tokens::Encoding;
use chunkscope::Unit;
use chunkscope::{Error, Strategy};
use library::{Library, Rng};
use serde_json::{json, Value};
const VECTORS: &str = "semchunk";
const SEED: u64 = 0x5E3C_4A11;
/// Cases per unit: chars and bytes 1 000 each, each token unit 300.
const CASES: [(&str, usize); 4] = [
    ("chars", 1000),
    ("bytes", 1000),
    ("cl100k", 300),
    ("o200k", 300),
];
/// Refusals of this engine's own, at most these many: a size of 0 (where
/// semchunk mostly recurses until `RecursionError`, and returns chunks over
/// the size for a text of punctuation alone) and an overlap not below the
/// size (which semchunk lowers to `size − 1` without a word).
const REFUSAL_CEILING: usize = 60;

const WORDS: &[&str] = &[
    "refunds",
    "take",
    "five",
    "days",
    "UPI",
    "id",
    "COD",
    "store",
    "credit",
    "café",
    "naïve",
    "東京",
    "日本語の文",
    "😀",
    "👩‍👩‍👧",
    "x",
    "ab",
    "supercalifragilistic",
    "24x7",
    "über",
    "<|endoftext|>",
    "<|fim_prefix|>",
    "http://a.b/c?d=e",
    "3.14",
    "e.g.",
    "don't",
];
const MARKS: &[&str] = &[
    ".", "?", "!", ";", ",", "(", ")", "[", "]", "“", "”", "‘", "’", "'", "\"", "`", "*", ":", "—",
    "…", "/", "\\", "–", "&", "-",
];
const GAPS: &[&str] = &[
    " ", " ", " ", " ", "  ", "   ", "\n", "\n\n", "\n\n\n", "\r\n", "\r\n\r\n", "\r", "\t",
    "\t\t", "\u{a0}", "\u{3000}", "\u{2028}", "\x1c", "\x0b", " \n ", "",
];

/// A text of words, marks and gaps; some texts use only a few of the kinds,
/// so that the later branches of semchunk's choice (no newline, no tab, no
/// whitespace at all) are reached.
fn text(rng: &mut Rng) -> String {
    let words = 1 + rng.below(40);
    let gaps: Vec<&str> = match rng.below(6) {
        0 => vec![""],
        1 => vec![" ", "\u{a0}", "\u{3000}"],
        2 => vec![" ", "  ", "\t"],
        _ => GAPS.to_vec(),
    };
    let mark_rate = rng.below(4);
    let mut out = String::new();
    for _ in 0..words {
        out.push_str(rng.pick(WORDS));
        if rng.below(4) < mark_rate {
            out.push_str(rng.pick(MARKS));
        }
        out.push_str(rng.pick(&gaps));
    }
    if rng.below(8) == 0 {
        out = out.trim_end().to_string();
    }
    out
}

fn requests(seed: u64) -> Vec<Value> {
    let mut rng = Rng(seed);
    let mut requests = Vec::new();
    for (unit, cases) in CASES {
        for _ in 0..cases {
            let text = text(&mut rng);
            let size = match rng.below(100) {
                0 => 0,
                1..=9 => 1 + rng.below(3),
                _ if unit == "chars" || unit == "bytes" => 1 + rng.below(80),
                _ => 1 + rng.below(30),
            };
            let overlap = match rng.below(100) {
                0 if size > 0 => json!(size + rng.below(3)),
                60.. if size > 1 => json!(1 + rng.below(size - 1)),
                _ => Value::Null,
            };
            requests.push(json!({"text": text, "size": size, "overlap": overlap, "unit": unit}));
        }
    }
    requests
}

/// semchunk's harness: its strategy, its driver and its recorded answers.
const LIBRARY: Library = Library {
    name: "semchunk",
    strategy: Strategy::Semchunk,
    vectors: VECTORS,
    driver: "tests/reference/semchunk/driver.py",
    ceiling: REFUSAL_CEILING,
    exception: |e| match e {
        Error::Semchunk(e) => {
            let (class, message) = e.library_exception();
            Some((class, message.to_string()))
        }
        _ => None,
    },
    message_prefix: true,
    raises: true,
};

#[test]
fn identical_to_the_recorded_semchunk() {
    LIBRARY.compare_recorded(&[
        "chunks in chars",
        "chunks in bytes",
        "chunks in cl100k",
        "chunks in o200k",
        "errors",
        "with an overlap",
        "more than one chunk",
        "a chunk over the size",
    ]);
}

/// The shortcut `chunkerify` takes on long texts in tokens needs the longest
/// token, which the engine reads from its tokenizer: it must be tiktoken's.
#[test]
fn the_longest_token_is_tiktokens() {
    let vectors = oracle::Vectors::read(VECTORS);
    for encoding in Encoding::ALL {
        let counter = tokenizer::counter(Unit::Tokens(encoding));
        let t = counter.tokenizer().unwrap();
        let longest = (0..t.vocabulary_size() as u32)
            .filter_map(|token| t.token_bytes(token).map(<[u8]>::len))
            .max();
        let unit = Unit::Tokens(encoding).to_string();
        assert_eq!(
            longest.map(|n| n as u64),
            vectors.header["max_token_chars"][&unit].as_u64(),
            "{unit}"
        );
    }
}

#[test]
fn a_planted_wrong_answer_is_caught() {
    LIBRARY.assert_planted_answers_fail();
}

#[test]
#[ignore = "asks the pinned semchunk (CHUNKSCOPE_LANGCHAIN_PYTHON); `./x test` runs it: cargo test -- --ignored live"]
fn identical_to_the_live_semchunk() {
    LIBRARY.compare_live(&requests(SEED), &["packages", "max_token_chars"]);
}

#[test]
#[ignore = "writes tests/vectors/semchunk.jsonl.gz with the pinned semchunk; run by `./x vectors`"]
fn record_vectors() {
    LIBRARY.record(&requests(SEED), SEED, "core/tests/semchunk.rs");
}

/// With a size far past the text and an overlap, semchunk makes one window
/// of all its small chunks (it joins `size / min(overlap, size − overlap)`
/// of them at a time). The engine clamps that count to the chunks it has,
/// which the fuzzer showed a huge size overflowed.
#[test]
fn a_huge_size_with_an_overlap_is_one_window() {
    let config = chunkscope::Config {
        size: usize::MAX,
        overlap: 1,
        ..chunkscope::Config::for_strategy(Strategy::Semchunk)
    };
    let text = "ab cd ef";
    let chunks = chunkscope::Splitter::new(config, &tokenizer::resources())
        .unwrap()
        .chunks(text)
        .unwrap();
    let spans: Vec<(usize, usize)> = chunks.iter().map(|c| (c.span.start, c.span.end)).collect();
    assert_eq!(spans, [(0, 8)]);
}
