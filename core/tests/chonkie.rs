//! The `chonkie-recursive` strategy against the real chonkie 1.7.0
//! (`RecursiveChunker` with its default rules, chonkie-core 0.10.2): for
//! generated texts, sizes, units (chars with chonkie's character tokenizer,
//! cl100k and o200k with a tiktoken encoding) and, in a share of the cases,
//! a `min_characters_per_chunk` (0, which chonkie refuses, 1, small values,
//! its default 24 given explicitly, values past most splits and past whole
//! texts), the same chunk texts and the same `start_index`/`end_index`, and
//! where chonkie raises, the same exception, class and message.
//!
//! The texts mix every delimiter of chonkie's levels (newlines of each
//! kind, sentence ends, every pause mark, spaces), long words that reach its
//! last level, short and long splits around the minimum, multi-byte and
//! multi-token characters, and tiktoken's special-token strings.
//!
//! `cargo test` replays `tests/vectors/chonkie.jsonl.gz`; the ignored live
//! test asks the driver (`tests/reference/chonkie/driver.py`) now; `./x
//! vectors` records them again.

mod library;
mod oracle;
mod tokenizer;

use chunkscope::{ChonkieConfig, Strategy};
use library::{Library, Rng};
use serde_json::{json, Value};

const VECTORS: &str = "chonkie";
const SEED: u64 = 0x0C40_4C1E;
/// Cases per unit.
const CASES: [(&str, usize); 3] = [("chars", 2000), ("cl100k", 560), ("o200k", 440)];
/// tiktoken's special tokens, which chonkie's counter raises on: in a tenth
/// of the texts.
const SPECIAL: &[&str] = &["<|endoftext|>", "<|fim_prefix|>", "<|endofprompt|>"];
/// Refusals of this engine's own, at most these many: a size of 0 (chonkie
/// raises its own ValueError). A run of tokens at chonkie's last level that
/// starts or ends inside a character (chonkie's chunk then holds U+FFFD, and
/// its offsets in that piece drift) is reproduced, text and offsets: "a
/// chunk that is not in the text" counts those cases, many since emoji and
/// CJK words reach the last level often, and a minimum past the text sends
/// every piece over the size there.
const REFUSAL_CEILING: usize = 30;

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
    "http://a.b/c?d=e",
    "3.14",
    "e.g.",
    "don't",
    "a-long-hyphenated-word-of-many-parts",
    "Donaudampfschifffahrtsgesellschaft",
];
const MARKS: &[&str] = &[
    ". ", "! ", "? ", "{", "}", "\"", "[", "]", "<", ">", "(", ")", ":", ";", ",", "—", "|", "~",
    "-", "...", "`", "'", ".", "…",
];
const GAPS: &[&str] = &[
    " ", " ", " ", " ", "  ", "   ", "\n", "\n\n", "\n\n\n", "\r\n", "\r\n\r\n", "\r", "\t",
    "\t\t", "\u{a0}", "\u{3000}", "\u{2028}", "\x1c", "\x0b", " \n ", "",
];

/// A text of words, marks and gaps; some texts use only a few of the kinds,
/// so that the later branches of chonkie's choice (no newline, no tab, no
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
    let special = rng.below(10) == 0;
    for _ in 0..words {
        if special && rng.below(8) == 0 {
            out.push_str(rng.pick(SPECIAL));
        }
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

/// A `min_characters_per_chunk` for two cases in five (the others leave it
/// out, for chonkie's default): 0, which chonkie refuses with a
/// `ValueError`; 1, which joins nothing; small values; the default given
/// explicitly; values past most splits; and values past any text here, which
/// make each piece one split, so every piece over the size reaches the last
/// level.
fn min_characters(rng: &mut Rng) -> Option<usize> {
    if rng.below(5) >= 2 {
        return None;
    }
    Some(match rng.below(12) {
        0 | 1 => 0,
        2 | 3 => 1,
        4..=6 => 2 + rng.below(10),
        7 => ChonkieConfig::DEFAULT_MIN_CHARACTERS_PER_CHUNK,
        8 | 9 => 25 + rng.below(100),
        10 => 1_000 + rng.below(1_000),
        _ => 1 << 40,
    })
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
                _ if unit == "chars" => 1 + rng.below(120),
                _ => 1 + rng.below(40),
            };
            let mut request = json!({"text": text, "size": size, "unit": unit});
            if let Some(min) = min_characters(&mut rng) {
                request["min_characters_per_chunk"] = json!(min);
            }
            requests.push(request);
        }
    }
    requests
}

/// chonkie's harness: its strategy, its driver and its recorded answers.
const LIBRARY: Library = Library::chonkie(Strategy::ChonkieRecursive, VECTORS, REFUSAL_CEILING);

#[test]
fn identical_to_the_recorded_chonkie() {
    LIBRARY.compare_recorded(&[
        "chunks in chars",
        "chunks in cl100k",
        "chunks in o200k",
        "errors",
        "more than one chunk",
        "a chunk longer in bytes than the size",
        "a chunk that is not in the text",
    ]);
}

#[test]
fn a_planted_wrong_answer_is_caught() {
    LIBRARY.assert_planted_answers_fail();
}

/// The recorded minimums matter: of the cases with a minimum other than
/// chonkie's default, enough give other chunks at the default that an
/// engine reading the default instead would fail many cases, and chonkie's
/// refusal of 0 is among the recorded errors.
#[test]
fn the_recorded_minimums_change_the_chunks() {
    let vectors = oracle::Vectors::read(VECTORS);
    let default = ChonkieConfig::DEFAULT_MIN_CHARACTERS_PER_CHUNK as u64;
    let (mut other, mut differ, mut refused) = (0, 0, 0);
    for (request, theirs) in &vectors.cases {
        let Some(min) = request["min_characters_per_chunk"].as_u64() else {
            continue;
        };
        if theirs["message"] == "min_characters_per_chunk must be greater than 0" {
            assert_eq!(min, 0, "{request}");
            refused += 1;
        }
        if min == default || theirs.get("chunks").is_none() {
            continue;
        }
        other += 1;
        let mut at_default = request.clone();
        at_default["min_characters_per_chunk"] = json!(default);
        match LIBRARY.ours(&at_default) {
            Ok(ours) if ours["chunks"] == theirs["chunks"] => {}
            _ => differ += 1,
        }
    }
    eprintln!("{differ} of {other} cases at another minimum differ at the default; {refused} refusals of 0");
    assert!(differ >= 100, "{differ} of {other} differ at the default");
    assert!(refused >= 20, "only {refused} refusals of 0");
}

#[test]
#[ignore = "asks the pinned chonkie (CHUNKSCOPE_LANGCHAIN_PYTHON); `./x test` runs it: cargo test -- --ignored live"]
fn identical_to_the_live_chonkie() {
    LIBRARY.compare_live(&requests(SEED), &["packages"]);
}

#[test]
#[ignore = "writes tests/vectors/chonkie.jsonl.gz with the pinned chonkie; run by `./x vectors`"]
fn record_vectors() {
    LIBRARY.record(&requests(SEED), SEED, "core/tests/chonkie.rs");
}
