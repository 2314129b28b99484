//! The `llamaindex-sentence` strategy against the real LlamaIndex
//! `SentenceSplitter` (llama-index-core 0.14.25, NLTK 3.10.4's Punkt): for
//! generated texts, sizes, overlaps and units (cl100k as LlamaIndex's
//! default tokenizer, o200k as `tokenizer=encode`, chars as `list`, bytes),
//! the same chunk texts at the same places, and where LlamaIndex raises, the
//! same exception, class and message.
//!
//! The texts are built to reach Punkt's decisions and every split function:
//! abbreviations and initials (`Dr. Smith`, `e.g. this`, `J. R. R.
//! Tolkien`), numbers before a period (`5. apples`, `3.14`), ellipses,
//! quotes and brackets after a stop (realigned onto the sentence before),
//! `?!`, lowercase after a period, CJK sentence marks, emoji, runs of
//! spaces and of newlines (LlamaIndex's paragraph separator is three),
//! leading marks the clause regex takes alone, long words that reach the
//! character split, characters over a small size (LlamaIndex's "Single
//! token exceeded chunk size"), overlaps up to and past the size,
//! tiktoken's special-token strings (one token each in cl100k, an error in
//! o200k), and runs of marks that Punkt peels one sentence at a time, so
//! that LlamaIndex recurses hundreds of levels deep.
//!
//! `cargo test` replays `tests/vectors/llamaindex.jsonl.gz`; the ignored
//! live test asks the driver (`tests/reference/llamaindex/driver.py`) now;
//! `./x vectors` records them again.

mod library;
mod oracle;
mod tokenizer;

use chunkscope::Strategy;
use library::{Library, Rng};
use serde_json::{json, Value};

const VECTORS: &str = "llamaindex";
const SEED: u64 = 0x11A3_A1DE;
/// Cases per unit.
const CASES: [(&str, usize); 4] = [
    ("chars", 1600),
    ("bytes", 300),
    ("cl100k", 500),
    ("o200k", 300),
];
/// Refusals of this engine's own, at most these many: none are expected
/// (the generator gives no size of 0 and no empty text, LlamaIndex's
/// `[""]`).
const REFUSAL_CEILING: usize = 0;

const WORDS: &[&str] = &[
    "refunds",
    "take",
    "five",
    "days",
    "UPI",
    "id",
    "Dr.",
    "Mr.",
    "Smith",
    "e.g.",
    "i.e.",
    "etc.",
    "J.",
    "R.",
    "Tolkien",
    "5.",
    "3.14",
    "1,000",
    "-2.",
    "apples",
    "It",
    "the",
    "café",
    "naïve",
    "Über",
    "東京",
    "日本語の文",
    "😀",
    "👩‍👩‍👧",
    "x",
    "A",
    "b.",
    "supercalifragilisticexpialidocious",
    "http://a.b/c?d=e",
    "don't",
    "(see",
    "this)",
    "\"quoted",
    "word\"",
    "‘single’",
    "«guillemets»",
    "--",
    "...",
    "…",
    "#tag",
    "@user",
    "a-b",
];
/// What follows a word: nothing, a mark, a stop with closers, or a gap.
const MARKS: &[&str] = &[
    ".", ".", "?", "!", "?!", "!!!", ",", ";", ":", "。", "？", "！", "...", ". . .", ".)", ".\"",
    ".’", "?)", ".]", "', ", ",,", ";.", "--", ".--", "）", "、",
];
const GAPS: &[&str] = &[
    " ", " ", " ", " ", " ", "  ", "   ", "\n", "\n\n", "\n\n\n", "\n\n\n\n", "\n \n\n", "\t",
    "\r\n", "\u{a0}", "\u{3000}", "\u{2028}", "\x1c", " \n ", "",
];
/// tiktoken's special tokens: plain text to chars and bytes, one token each
/// in cl100k (`allowed_special="all"`), an error in o200k.
const SPECIAL: &[&str] = &["<|endoftext|>", "<|fim_prefix|>", "<|endofprompt|>"];

fn text(rng: &mut Rng) -> String {
    let words = 1 + rng.below(60);
    let gaps: Vec<&str> = match rng.below(6) {
        0 => vec![" "],
        1 => vec![" ", "  ", "\n"],
        2 => vec![" ", "\n\n\n", " "],
        _ => GAPS.to_vec(),
    };
    let mark_rate = rng.below(5);
    let mut out = String::new();
    if rng.below(6) == 0 {
        out.push_str(rng.pick(&[",", ", ", ". ", "...", ";", " ", "\n\n\n", "。"]));
    }
    let special = rng.below(12) == 0;
    for _ in 0..words {
        if special && rng.below(6) == 0 {
            out.push_str(rng.pick(SPECIAL));
        }
        out.push_str(rng.pick(WORDS));
        if rng.below(5) < mark_rate {
            out.push_str(rng.pick(MARKS));
        }
        out.push_str(rng.pick(&gaps));
    }
    if rng.below(5) == 0 {
        out = out.trim_end().to_string();
    }
    if out.is_empty() {
        out.push('x');
    }
    out
}

/// Runs Punkt splits one sentence shorter at each level ("!!!", "a.(a.("),
/// so LlamaIndex recurses once per mark: up to about 300 levels, under Python's
/// recursion limit.
fn peeled(rng: &mut Rng) -> String {
    let run = rng
        .pick(&["!", "?", "a.(", "x!"])
        .repeat(20 + rng.below(830) / 3);
    match rng.below(3) {
        0 => run,
        1 => format!("Refunds take five days. {run}"),
        _ => format!("{run} Then it ends."),
    }
}

fn requests(seed: u64) -> Vec<Value> {
    let mut rng = Rng(seed);
    let mut requests = Vec::new();
    for (unit, cases) in CASES {
        for _ in 0..cases {
            let text = if rng.below(60) == 0 {
                peeled(&mut rng)
            } else {
                text(&mut rng)
            };
            let size = match rng.below(100) {
                0..=9 => 1 + rng.below(3),
                10..=19 => 100 + rng.below(400),
                _ if unit == "chars" || unit == "bytes" => 4 + rng.below(120),
                _ => 2 + rng.below(40),
            };
            let mut request = json!({"text": text, "size": size, "unit": unit});
            match rng.below(10) {
                0..=3 => {}
                4 => request["overlap"] = json!(size + 1 + rng.below(3)),
                5 => request["overlap"] = json!(size),
                _ => request["overlap"] = json!(rng.below(size / 2 + 1)),
            }
            requests.push(request);
        }
    }
    requests
}

/// LlamaIndex's harness: its strategy, its driver and its recorded answers.
const LIBRARY: Library =
    Library::llamaindex(Strategy::LlamaIndexSentence, VECTORS, REFUSAL_CEILING);

#[test]
fn identical_to_the_recorded_llamaindex() {
    LIBRARY.compare_recorded(&[
        "chunks in chars",
        "chunks in bytes",
        "chunks in cl100k",
        "chunks in o200k",
        "errors",
        "errors in cl100k",
        "with an overlap",
        "more than one chunk",
    ]);
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
#[ignore = "writes tests/vectors/llamaindex.jsonl.gz with the pinned LlamaIndex; run by `./x vectors`"]
fn record_vectors() {
    LIBRARY.record(&requests(SEED), SEED, "core/tests/llamaindex.rs");
}
