//! The `chonkie-recursive` strategy against the real chonkie 1.7.0
//! (`RecursiveChunker` with its default rules and minimum, chonkie-core
//! 0.10.2): for generated texts, sizes and units (chars with chonkie's
//! character tokenizer, cl100k and o200k with a tiktoken encoding), the same
//! chunk texts and the same `start_index`/`end_index`, and where chonkie
//! raises, the same exception, class and message.
//!
//! The texts mix every delimiter of chonkie's levels (newlines of each
//! kind, sentence ends, every pause mark, spaces), long words that reach its
//! last level, short and long splits around its 24-byte minimum, multi-byte
//! and multi-token characters, and tiktoken's special-token strings.
//!
//! `cargo test` replays `tests/vectors/chonkie.jsonl.gz`; the ignored live
//! test asks the driver (`tests/reference/chonkie/driver.py`) now; `./x
//! vectors` records them again.

mod oracle;
mod tokenizer;

use chunkscope::{Config, Error, Splitter, Strategy, Unit};
use oracle::Vectors;
use serde_json::{json, Value};
use std::collections::BTreeMap;

const VECTORS: &str = "chonkie";
const SEED: u64 = 0x0C40_4C1E;
/// Cases per unit.
const CASES: [(&str, usize); 3] = [("chars", 1800), ("cl100k", 500), ("o200k", 400)];
/// tiktoken's special tokens, which chonkie's counter raises on: in a tenth
/// of the texts.
const SPECIAL: &[&str] = &["<|endoftext|>", "<|fim_prefix|>", "<|endofprompt|>"];
/// Refusals of this engine's own, at most these many: a size of 0 (chonkie
/// raises its own ValueError) and, in tokens, a run of tokens at chonkie's
/// last level that ends inside a character (chonkie's chunk then holds
/// U+FFFD, and its offsets drift: not reproduced).
/// Today: 27 of size 0, 197 of a character cut between runs (a fifth of the
/// token cases: emoji and CJK words reach the last level often).
const REFUSAL_CEILING: usize = 224;

/// SplitMix64, so the cases are the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

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
            requests.push(json!({"text": text, "size": size, "unit": unit}));
        }
    }
    requests
}

/// Our answer to a request, as the driver writes chonkie's: the chunks and
/// their char offsets, or the exception chonkie raises where this engine
/// refuses; `Err` for a refusal of this engine's own.
fn ours(request: &Value) -> Result<Value, Error> {
    let unit: Unit = request["unit"].as_str().unwrap().parse().unwrap();
    if let Unit::Tokens(_) = unit {
        tokenizer::counter(unit);
    }
    let config = Config {
        size: request["size"].as_u64().unwrap() as usize,
        unit,
        ..Config::for_strategy(Strategy::ChonkieRecursive)
    };
    let text = request["text"].as_str().unwrap();
    let analysis = match Splitter::new(config).and_then(|s| s.analyze(text, Default::default())) {
        Ok(analysis) => analysis,
        Err(Error::Chonkie(e)) => match e.library_exception() {
            Some((class, message)) => return Ok(json!({"error": class, "message": message})),
            None => return Err(Error::Chonkie(e)),
        },
        Err(e) => return Err(e),
    };
    let chunks: Vec<&str> = analysis
        .output
        .chunks
        .iter()
        .map(|c| c.text(text))
        .collect();
    Ok(json!({"chunks": chunks, "offsets": analysis.chunk_chars}))
}

/// What a comparison counted.
#[derive(Default)]
struct Comparison {
    counts: BTreeMap<String, usize>,
    refused: Vec<String>,
}

impl Comparison {
    fn count(&mut self, what: impl Into<String>) {
        *self.counts.entry(what.into()).or_default() += 1;
    }

    fn get(&self, what: &str) -> usize {
        self.counts.get(what).copied().unwrap_or(0)
    }

    /// Compares one case; `Err` says how it differs.
    fn case(
        &mut self,
        request: &Value,
        theirs: &Value,
        ours: Result<Value, Error>,
    ) -> Result<(), String> {
        let unit = request["unit"].as_str().unwrap();
        let ours = match ours {
            Ok(ours) => ours,
            Err(e) => {
                self.refused
                    .push(format!("{request}: chonkie gives {theirs}, we refuse: {e}"));
                return Ok(());
            }
        };
        match (ours.get("error"), theirs.get("error")) {
            (Some(class), Some(their_class)) => {
                if class != their_class || ours["message"] != theirs["message"] {
                    return Err(format!("{request}: chonkie raises {theirs}, we say {ours}"));
                }
                self.count(format!("errors in {unit}"));
                self.count("errors");
            }
            (None, None) => {
                let theirs = &json!({"chunks": theirs["chunks"], "offsets": theirs["offsets"]});
                if ours != *theirs {
                    return Err(format!("{request}:\n chonkie {theirs}\n      ours {ours}"));
                }
                self.count(format!("chunks in {unit}"));
                self.count("chunks");
                let chunks = theirs["chunks"].as_array().unwrap();
                let size = request["size"].as_u64().unwrap() as usize;
                if chunks.len() > 1 {
                    self.count("more than one chunk");
                }
                if chunks.iter().any(|c| c.as_str().unwrap().len() > size) {
                    self.count("a chunk longer in bytes than the size");
                }
            }
            _ => return Err(format!("{request}:\n chonkie {theirs}\n      ours {ours}")),
        }
        Ok(())
    }

    fn finish(&self, against: &str) {
        eprintln!(
            "chonkie against {against}: {:?}, {} refusals of our own",
            self.counts,
            self.refused.len()
        );
        assert!(
            self.refused.len() <= REFUSAL_CEILING,
            "{} refusals of our own, over the ceiling of {REFUSAL_CEILING}:\n{}",
            self.refused.len(),
            self.refused.join("\n")
        );
    }
}

fn compare_all(cases: &[(Value, Value)]) -> Comparison {
    let mut comparison = Comparison::default();
    let mut failures = Vec::new();
    for (request, theirs) in cases {
        if let Err(e) = comparison.case(request, theirs, ours(request)) {
            failures.push(e);
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from chonkie; the first ones:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    comparison
}

#[test]
fn identical_to_the_recorded_chonkie() {
    let vectors = Vectors::read(VECTORS);
    let comparison = compare_all(&vectors.cases);
    comparison.finish(&format!(
        "the recorded chonkie {}",
        vectors.header["packages"]["chonkie"]
            .as_str()
            .unwrap_or("?")
    ));
    assert_eq!(
        comparison.get("chunks") + comparison.get("errors") + comparison.refused.len(),
        vectors.cases.len()
    );
    assert!(
        comparison.get("chunks") >= 2_000,
        "{}",
        comparison.get("chunks")
    );
    assert!(
        comparison.get("chunks in cl100k") + comparison.get("chunks in o200k") >= 400,
        "too few token cases"
    );
    for what in [
        "chunks in chars",
        "chunks in cl100k",
        "chunks in o200k",
        "errors",
        "more than one chunk",
        "a chunk longer in bytes than the size",
    ] {
        assert!(
            comparison.get(what) >= 20,
            "{what}: only {}",
            comparison.get(what)
        );
    }
}

/// Every wrong answer planted into a recorded case is caught.
#[test]
fn a_planted_wrong_answer_is_caught() {
    let vectors = Vectors::read(VECTORS);
    let find = |f: &dyn Fn(&Value) -> bool| {
        vectors
            .cases
            .iter()
            .find(|(request, answer)| f(answer) && ours(request).is_ok())
            .cloned()
            .expect("a case to plant into")
    };
    let chunked = find(&|a| {
        a.get("chunks")
            .is_some_and(|c| c.as_array().unwrap().len() > 1)
    });
    let raising = find(&|a| a.get("error").is_some());
    let plant = |(request, answer): &(Value, Value), f: &dyn Fn(&mut Value)| {
        let mut wrong = answer.clone();
        f(&mut wrong);
        let mut comparison = Comparison::default();
        comparison.case(request, &wrong, ours(request)).is_err()
    };
    assert!(
        plant(&chunked, &|a| {
            let first = a["chunks"][0].as_str().unwrap().to_string();
            a["chunks"][0] = json!(format!("{first} "));
        }),
        "a chunk's text"
    );
    assert!(
        plant(&chunked, &|a| {
            a["chunks"].as_array_mut().unwrap().pop();
            a["offsets"].as_array_mut().unwrap().pop();
        }),
        "one chunk fewer"
    );
    assert!(
        plant(&chunked, &|a| {
            let end = a["offsets"][0][1].as_u64().unwrap();
            a["offsets"][0][1] = json!(end + 1);
        }),
        "an offset"
    );
    assert!(
        plant(
            &chunked,
            &|a| *a =
                json!({"error": "ValueError", "message": "chunk_size must be greater than 0"})
        ),
        "an exception where there are chunks"
    );
    assert!(
        plant(&raising, &|a| *a = json!({"chunks": [], "offsets": []})),
        "chunks where it raises"
    );
    assert!(
        plant(&raising, &|a| a["error"] = json!("TypeError")),
        "another exception class"
    );
    assert!(
        plant(&raising, &|a| a["message"] =
            json!("Encountered text corresponding to a special token")),
        "another message"
    );
    // One refusal over the ceiling.
    let comparison = Comparison {
        refused: vec![String::new(); REFUSAL_CEILING + 1],
        ..Comparison::default()
    };
    assert!(std::panic::catch_unwind(|| comparison.finish("a planted refusal")).is_err());
}

fn ask_chonkie(requests: &[Value]) -> (Value, Vec<Value>) {
    let python = std::env::var("CHUNKSCOPE_LANGCHAIN_PYTHON").unwrap_or_else(|_| {
        panic!(
            "CHUNKSCOPE_LANGCHAIN_PYTHON is not set. Comparing with the real chonkie needs \
             it; `./x test` and `./x vectors` create the pinned virtualenv \
             (tests/reference/langchain/requirements.txt) and set it to its python"
        )
    });
    let driver = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/reference/chonkie/driver.py"
    );
    let mut sent = vec![json!({"op": "versions"})];
    sent.extend_from_slice(requests);
    let mut answers = oracle::ask(&python, driver, &sent);
    let versions = answers.remove(0);
    (versions, answers)
}

#[test]
#[ignore = "asks the pinned chonkie (CHUNKSCOPE_LANGCHAIN_PYTHON); `./x test` runs it: cargo test -- --ignored live"]
fn identical_to_the_live_chonkie() {
    let requests = requests(SEED);
    let (versions, answers) = ask_chonkie(&requests);
    let cases: Vec<(Value, Value)> = requests
        .iter()
        .cloned()
        .zip(answers.iter().cloned())
        .collect();
    compare_all(&cases).finish("the live chonkie");
    let pins = json!({"packages": versions["packages"]});
    Vectors::read(VECTORS).check_current(VECTORS, &pins, true, &requests, &answers);
}

#[test]
#[ignore = "writes tests/vectors/chonkie.jsonl.gz with the pinned chonkie; run by `./x vectors`"]
fn record_vectors() {
    let requests = requests(SEED);
    let (versions, answers) = ask_chonkie(&requests);
    let mut header = json!({
        "oracle": "tests/reference/chonkie/driver.py: chonkie RecursiveChunker",
        "generator": "core/tests/chonkie.rs",
        "seed": SEED,
    });
    for (key, value) in versions.as_object().unwrap() {
        header[key] = value.clone();
    }
    Vectors::write(VECTORS, header, &requests, &answers);
}
