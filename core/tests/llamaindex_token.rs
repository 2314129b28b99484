//! The `llamaindex-token` strategy against the real LlamaIndex
//! `TokenTextSplitter` (llama-index-core 0.14.25) with its defaults: for
//! generated texts, sizes, overlaps and units (cl100k as LlamaIndex's
//! default tokenizer, o200k as `tokenizer=encode`, chars as `list`, bytes),
//! the same chunk texts at the same places, and where LlamaIndex raises, the
//! same exception, class and message.
//!
//! The texts are built to reach every split function and every turn of
//! `_merge`: words between spaces (and runs of them), lines with no space
//! (the backup separator), long words and URLs cut between characters,
//! characters of several bytes and of several tokens over a small size
//! (kept whole), runs of whitespace long enough that a whole chunk of them
//! is stripped to nothing, texts of whitespace alone, tiktoken's special
//! tokens (one token each in cl100k, an error in o200k), and overlaps of
//! none, below the size, the size itself and past it (LlamaIndex's
//! `ValueError`). No size is 0 (pydantic's `ValidationError`, which the
//! engine answers with chunkscope's own refusal of a size of 0) and no text
//! is empty (LlamaIndex's `[""]`, no chunk here).
//!
//! `cargo test` replays `tests/vectors/llamaindex_token.jsonl.gz`; the
//! ignored live test asks the driver (`tests/reference/llamaindex/driver.py`)
//! now; `./x vectors` records them again.

mod library;
mod oracle;
mod tokenizer;

use chunkscope::Strategy;
use library::{Library, Rng, SPACES, WORDS};
use serde_json::{json, Value};

const VECTORS: &str = "llamaindex_token";
const SEED: u64 = 0x70CE_7E47;
/// Cases per unit.
const CASES: [(&str, usize); 4] = [
    ("chars", 1100),
    ("bytes", 300),
    ("cl100k", 600),
    ("o200k", 300),
];
/// Refusals of this engine's own: none. The splits tile the text, so every
/// chunk is a slice and its offsets are where its splits lie.
const REFUSAL_CEILING: usize = 0;

/// Words that only the character split divides at most sizes (besides
/// [`WORDS`], of one byte a char, of several, and of several tokens a char).
const LONG_WORDS: &[&str] = &["supercalifragilisticexpialidocious", "http://a.b/c?d=e&f=g"];
/// Between words: spaces most often, newlines, whitespace that is neither,
/// and nothing (a longer word).
const GAPS: &[&str] = &[
    " ", " ", " ", " ", "  ", "\n", "\n", "\n\n", " \n", "\n ", "\t", "\r\n", "\u{a0}", "\u{3000}",
    "\x1c", "",
];
/// Runs of whitespace that can fill a chunk alone.
const RUNS: &[&str] = &[
    "          ",
    "\n\n\n\n\n\n\n\n",
    " \n \n \n \n \n \n",
    "\t\t\t\t\t\t",
    "\u{3000}\u{3000}\u{3000}\u{3000}",
];
/// tiktoken's special tokens: plain text to chars and bytes, one token each
/// in cl100k (`allowed_special="all"`), an error in o200k.
const SPECIAL: &[&str] = &["<|endoftext|>", "<|fim_prefix|>", "<|endofprompt|>"];

fn text(rng: &mut Rng) -> String {
    if rng.below(30) == 0 {
        return (0..1 + rng.below(6))
            .map(|_| rng.pick(SPACES))
            .collect::<String>();
    }
    // Lines of words with no space between (the backup separator's turn),
    // spaces alone, or any gap.
    let gaps: Vec<&str> = match rng.below(6) {
        0 => vec!["\n", "\n", "\n\n", ""],
        1 => vec![" "],
        _ => GAPS.to_vec(),
    };
    let ascii = rng.below(3) == 0;
    let special = rng.below(7) == 0;
    let runs = rng.below(5) == 0;
    let mut out = String::new();
    if rng.below(8) == 0 {
        out.push_str(rng.pick(SPACES));
    }
    for _ in 0..1 + rng.below(50) {
        if special && rng.below(6) == 0 {
            out.push_str(rng.pick(SPECIAL));
        }
        out.push_str(loop {
            let word = match rng.below(12) {
                0 => rng.pick(LONG_WORDS),
                _ => rng.pick(WORDS),
            };
            if !ascii || word.is_ascii() {
                break word;
            }
        });
        out.push_str(if runs && rng.below(6) == 0 {
            rng.pick(RUNS)
        } else {
            rng.pick(&gaps)
        });
    }
    if out.is_empty() {
        out.push('x');
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
                0..=11 => 1 + rng.below(3),
                12..=19 => 100 + rng.below(300),
                _ if unit == "chars" || unit == "bytes" => 4 + rng.below(80),
                _ => 2 + rng.below(30),
            };
            let overlap = match rng.below(20) {
                0..=6 => 0,
                7..=8 => size - 1,
                9 => size,
                10 => size + 1 + rng.below(3),
                _ => rng.below(size / 2 + 1) + rng.below(size / 2 + 1),
            };
            requests.push(json!({
                "splitter": "token",
                "text": text,
                "size": size,
                "overlap": overlap,
                "unit": unit,
            }));
        }
    }
    requests
}

/// `TokenTextSplitter`'s harness: its strategy, its driver and its recorded
/// answers.
const LIBRARY: Library = Library::llamaindex(Strategy::LlamaIndexToken, VECTORS, REFUSAL_CEILING);

#[test]
fn identical_to_the_recorded_llamaindex() {
    LIBRARY.compare_recorded(&[
        "chunks in chars",
        "chunks in bytes",
        "chunks in cl100k",
        "chunks in o200k",
        "errors in chars",
        "errors in cl100k",
        "errors in o200k",
        "more than one chunk",
        "a chunk longer in bytes than the size",
    ]);
}

/// The recorded cases reach what `TokenTextSplitter` does that a plain
/// packer would not: cuts at spaces, at newlines (its backup separator) and
/// between characters, a character over the size kept whole (and logged,
/// not raised), overlaps that drop several splits from the front and carry
/// several over, runs of splits that `strip` empties (dropped), texts of
/// whitespace alone, characters of several bytes and of several tokens in
/// agreed chunks, special tokens' texts counted in cl100k and refused in
/// o200k. Read from the library's answers (and what its driver saw its
/// `_split` and `_merge` do), not from our engine.
#[test]
fn the_recorded_cases_reach_every_quirk() {
    let quirks = [
        "a special token's error",
        "a special token's text counted",
        "a text of whitespace alone",
        "a cut at a space",
        "a cut at a newline",
        "a cut between characters",
        "a character over the size kept whole",
        "a run of splits emptied by strip",
        "an overlap that drops several splits",
        "an overlap of several splits",
        "characters of several bytes in units of more",
        "characters of several tokens",
    ];
    library::assert_quirks_reached(VECTORS, &quirks, |request, answer, saw| {
        let text = request["text"].as_str().unwrap();
        let unit = request["unit"].as_str().unwrap();
        let Some(chunks) = answer["chunks"].as_array() else {
            return;
        };
        let quirks = &answer["quirks"];
        let count = |what: &str| quirks[what].as_u64().unwrap();
        if count("over") > 0 {
            saw("a character over the size kept whole");
        }
        if count("blank") > 0 {
            saw("a run of splits emptied by strip");
        }
        if count("popped") > 1 {
            saw("an overlap that drops several splits");
        }
        if count("kept") > 1 {
            saw("an overlap of several splits");
        }
        let offsets = answer["offsets"].as_array().unwrap();
        let chunks: Vec<&str> = chunks.iter().map(|c| c.as_str().unwrap()).collect();
        if chunks.is_empty() {
            saw("a text of whitespace alone");
        }
        if unit == "cl100k" && chunks.iter().any(|c| c.contains("<|")) {
            saw("a special token's text counted");
        }
        let chars: Vec<char> = text.chars().collect();
        for (i, chunk) in chunks.iter().enumerate() {
            if chunk.chars().any(|c| c.len_utf8() > 1) && unit != "chars" {
                saw("characters of several bytes in units of more");
            }
            if chunk.contains('😀') || chunk.contains("ਪੰਜਾਬੀ") {
                saw("characters of several tokens");
            }
            // Where two chunks do not overlap, what lies between them says
            // which split parted them.
            let Some(next) = offsets.get(i + 1) else {
                continue;
            };
            let end = offsets[i][1].as_u64().unwrap() as usize;
            let start = next[0].as_u64().unwrap() as usize;
            if start < end {
                continue;
            }
            let gap: String = chars[end..start].iter().collect();
            if gap.contains(' ') {
                saw("a cut at a space");
            } else if gap.contains('\n') {
                saw("a cut at a newline");
            } else if gap.is_empty() {
                saw("a cut between characters");
            }
        }
    });
}

#[test]
fn a_planted_wrong_answer_is_caught() {
    LIBRARY.assert_planted_answers_fail();
}

#[test]
#[ignore = "asks the pinned LlamaIndex (CHUNKSCOPE_LANGCHAIN_PYTHON); `./x test` runs it: cargo test -- --ignored live"]
fn identical_to_the_live_llamaindex() {
    LIBRARY.compare_live(&requests(SEED), &["packages"]);
}

#[test]
#[ignore = "writes tests/vectors/llamaindex_token.jsonl.gz with the pinned LlamaIndex; run by `./x vectors`"]
fn record_vectors() {
    LIBRARY.record(&requests(SEED), SEED, "core/tests/llamaindex_token.rs");
}
