//! The `text-splitter` and `text-splitter-markdown` strategies against the
//! real `semantic-text-splitter` 0.33.1 (the Python package of the crate
//! the engine runs): for generated texts, sizes, overlaps, trimming and
//! units (chars with the classes themselves, cl100k and o200k through
//! `from_tiktoken_model`), the same chunk texts and the same char offsets,
//! and where the package raises, the same exception, class and message.
//!
//! The chunks are the crate's own, so what this holds is the rest of the
//! way to the package's answer: our sizer (our tokenizer's ordinary count
//! against tiktoken's `encode_ordinary`), our spans and char offsets, the
//! configuration the strategy hands the crate (the package's defaults), and
//! its errors mapped to the package's.
//!
//! Plain texts mix paragraphs and runs of line breaks of every kind,
//! sentences, words, CJK, emoji, combining marks and other whitespace;
//! Markdown texts add headings of every depth, both heading styles, lists,
//! fences, tables, quotes, rules and emphasis. Sizes run from 0 (which the
//! package refuses) to past the text's length, overlaps from 0 to past the
//! size.
//!
//! `cargo test` replays `tests/vectors/text_splitter.jsonl.gz` and
//! `tests/vectors/text_splitter_markdown.jsonl.gz`; the ignored live tests
//! ask the driver (`tests/reference/text_splitter/driver.py`) now; `./x
//! vectors` records them again.

mod library;
mod oracle;
mod tokenizer;

use chunkscope::{Error, Strategy};
use library::{Library, Rng};
use serde_json::{json, Value};

const SEED: u64 = 0x7E47_5917;
/// Cases per unit, for each strategy.
const CASES: [(&str, usize); 3] = [("chars", 1700), ("cl100k", 300), ("o200k", 300)];
/// This engine refuses nothing the package does not: every refusal is the
/// package's own `ValueError`.
const REFUSAL_CEILING: usize = 0;

const WORDS: &[&str] = &[
    "refunds",
    "take",
    "five",
    "days",
    "UPI",
    "id",
    "store",
    "credit",
    "café",
    "naïve",
    "e\u{301}te\u{301}",
    "東京",
    "日本語の文です",
    "ภาษาไทย",
    "😀",
    "👩‍👩‍👧",
    "🇮🇳",
    "x",
    "ab",
    "supercalifragilistic",
    "3.14",
    "e.g.",
    "don't",
    "well-known",
    "http://a.b/c?d=e",
    "<|endoftext|>",
];
const ENDS: &[&str] = &[".", "!", "?", "。", "…", ",", ";", ":", ""];
const GAPS: &[&str] = &[
    " ", " ", " ", " ", " ", "  ", "\t", "\u{a0}", "\u{3000}", "\n", "\n", "\n\n", "\n\n\n",
    "\r\n", "\r\n\r\n", "\r", " \n ", "\n \n", "\u{2028}",
];

/// A sentence of a few words.
fn sentence(rng: &mut Rng, out: &mut String) {
    let words = 1 + rng.below(12);
    for w in 0..words {
        if w > 0 {
            out.push_str(if rng.below(10) == 0 { "  " } else { " " });
        }
        let word = rng.pick(WORDS);
        if rng.below(6) == 0 {
            let mark = rng.pick(&["*", "**", "`", "_", "~~"]);
            out.push_str(&format!("{mark}{word}{mark}"));
        } else {
            out.push_str(word);
        }
    }
    out.push_str(rng.pick(ENDS));
}

/// Plain text: sentences joined by gaps of every kind.
fn plain(rng: &mut Rng) -> String {
    let mut out = String::new();
    if rng.below(8) == 0 {
        out.push_str(rng.pick(&[" ", "\n", "\n\n  "]));
    }
    for _ in 0..1 + rng.below(14) {
        sentence(rng, &mut out);
        out.push_str(rng.pick(GAPS));
    }
    if rng.below(3) == 0 {
        out = out.trim_end().to_string();
    }
    out
}

/// Markdown: blocks of every kind, separated as Markdown writes them (and
/// sometimes not).
fn markdown(rng: &mut Rng) -> String {
    let mut out = String::new();
    let newline = if rng.below(6) == 0 { "\r\n" } else { "\n" };
    for _ in 0..1 + rng.below(10) {
        match rng.below(11) {
            0 | 1 => {
                out.push_str(&"#".repeat(1 + rng.below(6)));
                out.push(' ');
                sentence(rng, &mut out);
            }
            2 => {
                sentence(rng, &mut out);
                out.push_str(newline);
                out.push_str(rng.pick(&["===", "---"]));
            }
            3 => {
                for i in 0..1 + rng.below(4) {
                    let marker = match rng.below(3) {
                        0 => "- ".to_string(),
                        1 => format!("{}. ", i + 1),
                        _ => "  - ".to_string(),
                    };
                    out.push_str(&marker);
                    if rng.below(4) == 0 {
                        out.push_str("[ ] ");
                    }
                    sentence(rng, &mut out);
                    out.push_str(newline);
                }
            }
            4 => {
                out.push_str("```");
                out.push_str(rng.pick(&["", "rust", "python"]));
                out.push_str(newline);
                for _ in 0..1 + rng.below(4) {
                    out.push_str(rng.pick(&[
                        "fn main() {}",
                        "    let x = 1;",
                        "print(\"hi\")",
                        "",
                    ]));
                    out.push_str(newline);
                }
                out.push_str("```");
            }
            5 => {
                out.push_str("| a | b |");
                out.push_str(newline);
                out.push_str("|---|---|");
                for _ in 0..1 + rng.below(4) {
                    out.push_str(newline);
                    out.push_str(&format!("| {} | {} |", rng.pick(WORDS), rng.pick(WORDS)));
                }
            }
            6 => {
                out.push_str("> ");
                sentence(rng, &mut out);
            }
            7 => out.push_str(rng.pick(&["---", "***", "___"])),
            8 => {
                sentence(rng, &mut out);
                out.push_str(newline);
                sentence(rng, &mut out);
            }
            _ => {
                sentence(rng, &mut out);
                if rng.below(3) == 0 {
                    out.push_str(" [link](http://a.b) ");
                    sentence(rng, &mut out);
                }
            }
        }
        out.push_str(match rng.below(8) {
            0 => newline,
            1 => " ",
            _ if newline == "\n" => "\n\n",
            _ => "\r\n\r\n",
        });
    }
    out
}

fn requests(seed: u64, splitter: &str) -> Vec<Value> {
    let mut rng = Rng(seed);
    let mut requests = Vec::new();
    for (unit, cases) in CASES {
        for _ in 0..cases {
            let text = if splitter == "markdown" {
                markdown(&mut rng)
            } else {
                plain(&mut rng)
            };
            let size = match rng.below(100) {
                0 => 0,
                1..=9 => 1 + rng.below(3),
                10..=14 => 200 + rng.below(800),
                _ if unit == "chars" => 1 + rng.below(120),
                _ => 1 + rng.below(40),
            };
            let mut request =
                json!({"splitter": splitter, "text": text, "size": size, "unit": unit});
            match rng.below(10) {
                0..=2 => request["overlap"] = json!(rng.below(size / 2 + 1)),
                3 => request["overlap"] = json!(size + rng.below(3) - rng.below(2).min(size)),
                _ => {}
            }
            if rng.below(8) == 0 {
                request["trim"] = json!(false);
            }
            requests.push(request);
        }
    }
    requests
}

fn exception(e: &Error) -> Option<(&'static str, String)> {
    match e {
        Error::TextSplitter(e) => Some(e.library_exception()),
        _ => None,
    }
}

const TEXT: Library = Library {
    name: "semantic-text-splitter",
    strategy: Strategy::TextSplitter,
    vectors: "text_splitter",
    driver: "tests/reference/text_splitter/driver.py",
    ceiling: REFUSAL_CEILING,
    exception,
    message_prefix: false,
    raises: true,
};

const MARKDOWN: Library = Library {
    strategy: Strategy::TextSplitterMarkdown,
    vectors: "text_splitter_markdown",
    ..TEXT
};

const KINDS: [&str; 7] = [
    "chunks in chars",
    "chunks in cl100k",
    "chunks in o200k",
    "errors",
    "with an overlap",
    "more than one chunk",
    "a chunk longer in bytes than the size",
];

#[test]
fn identical_to_the_recorded_text_splitter() {
    TEXT.compare_recorded(&KINDS);
}

#[test]
fn identical_to_the_recorded_markdown_splitter() {
    MARKDOWN.compare_recorded(&KINDS);
}

#[test]
fn a_planted_wrong_answer_is_caught() {
    TEXT.assert_planted_answers_fail();
    MARKDOWN.assert_planted_answers_fail();
}

#[test]
#[ignore = "asks the pinned semantic-text-splitter (CHUNKSCOPE_LANGCHAIN_PYTHON); `./x test` runs it: cargo test -- --ignored live"]
fn identical_to_the_live_text_splitter() {
    TEXT.compare_live(&requests(SEED, "text"), &["packages"]);
    MARKDOWN.compare_live(&requests(SEED + 1, "markdown"), &["packages"]);
}

#[test]
#[ignore = "writes tests/vectors/text_splitter*.jsonl.gz with the pinned semantic-text-splitter; run by `./x vectors`"]
fn record_vectors() {
    TEXT.record(&requests(SEED, "text"), SEED, "core/tests/text_splitter.rs");
    MARKDOWN.record(
        &requests(SEED + 1, "markdown"),
        SEED + 1,
        "core/tests/text_splitter.rs",
    );
}
