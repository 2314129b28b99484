//! Differential test: the span-based engine against an independent string-based
//! model of the lessons' algorithms (`tests/reference/lesson_model.py`), on the
//! configurations both describe: chars, trimming on, separators kept at the end
//! of the piece before the cut, no overlap in the recursive engine.
//!
//! `cargo test` replays the model's answers recorded in
//! `tests/vectors/lesson-model.jsonl.gz`; `CHUNKSCOPE_LIVE=1` also runs the model
//! (`python3`) now (see `oracle/mod.rs`).

use chunkscope::{split, Config, Separator, Strategy as Engine};
use oracle::Vectors;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde_json::{json, Value};
use std::process::Command;

mod oracle;

const ATOMS: &[&str] = &[
    "a", "bc", "word", "Ünï", "😀", "e\u{301}", "中文", "。", " ", "  ", "\n", "\n\n", "\r\n",
    "\t", "\u{3000}", "\u{85}", "\u{1c}", ". ", "! ", ",", "x.y", "..",
];
const SEPARATORS: &[&str] = &["\n\n", "\n", ". ", " ", "。", ",", "..", "a", ""];
const CASES: usize = 10_000;
/// The recorded answers: `tests/vectors/lesson-model.jsonl.gz`.
const VECTORS: &str = "lesson-model";
const MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/reference/lesson_model.py"
);

fn case() -> impl Strategy<Value = (Engine, String, usize, usize, Vec<String>)> {
    (
        prop::sample::select(&[Engine::Fixed, Engine::Recursive][..]),
        prop::collection::vec(prop::sample::select(ATOMS), 0..60).prop_map(|v| v.concat()),
        (1usize..25).prop_flat_map(|s| (Just(s), 0..s)),
        prop::collection::vec(prop::sample::select(SEPARATORS), 1..6),
    )
        .prop_map(|(engine, text, (size, overlap), seps)| {
            let overlap = if engine == Engine::Fixed { overlap } else { 0 };
            (
                engine,
                text,
                size,
                overlap,
                seps.iter().map(|s| s.to_string()).collect(),
            )
        })
}

/// The cases, in the model's protocol (see lesson_model.py): the same every
/// run (proptest's deterministic runner).
fn requests() -> Vec<Value> {
    let mut runner = TestRunner::deterministic();
    (0..CASES)
        .map(|_| {
            let (engine, text, size, overlap, seps) =
                case().new_tree(&mut runner).unwrap().current();
            json!({
                "strategy": engine.name(), "text": text, "size": size,
                "overlap": overlap, "separators": seps,
            })
        })
        .collect()
}

/// Runs the model (`python3`) on `requests`; returns the Python version and
/// the answers.
fn ask_model(requests: &[Value]) -> (Value, Vec<Value>) {
    let version = Command::new("python3")
        .args(["-c", "import platform; print(platform.python_version())"])
        .output()
        .expect("python3 runs the lesson model (CHUNKSCOPE_LIVE=1)");
    let version = String::from_utf8(version.stdout)
        .unwrap()
        .trim()
        .to_string();
    (
        json!({ "python": version }),
        oracle::ask("python3", MODEL, requests),
    )
}

/// Compares the engine with the model's answers to its requests; returns how
/// many cases were compared.
fn compare<'a>(cases: impl IntoIterator<Item = (&'a Value, &'a Value)>) -> usize {
    let (mut hard_cuts, mut compared) = (0, 0);
    for (request, expected) in cases {
        let number = |key: &str| request[key].as_u64().unwrap() as usize;
        let engine: Engine = request["strategy"].as_str().unwrap().parse().unwrap();
        let (size, overlap) = (number("size"), number("overlap"));
        let text = request["text"].as_str().unwrap();
        let seps: Vec<String> = serde_json::from_value(request["separators"].clone()).unwrap();
        let expected: Vec<String> = serde_json::from_value(expected.clone()).unwrap();
        let config = Config {
            strategy: engine,
            size,
            overlap,
            separators: seps.iter().map(Separator::literal).collect(),
            ..Config::default()
        };
        let out = split(text, &config).unwrap();
        let got: Vec<&str> = out.chunks.iter().map(|c| c.text(text)).collect();
        assert_eq!(
            got, expected,
            "{engine} size {size} overlap {overlap} separators {seps:?} on {text:?}"
        );
        compared += 1;
        hard_cuts += out
            .chunks
            .iter()
            .filter(|c| c.cut == chunkscope::Cut::Hard)
            .count();
    }
    // The cases must reach every branch, the hard cut included.
    assert!(
        hard_cuts > 100,
        "only {hard_cuts} hard cuts: the cases are too easy"
    );
    compared
}

#[test]
fn engine_agrees_with_the_recorded_string_model() {
    let vectors = Vectors::read(VECTORS);
    let compared = compare(
        vectors
            .cases
            .iter()
            .map(|(request, answer)| (request, answer)),
    );
    eprintln!(
        "compared {compared} cases with the lesson model's answers recorded on Python {}",
        vectors.header["python"].as_str().unwrap_or("?")
    );
    assert_eq!(compared, vectors.cases.len());
    assert_eq!(compared, CASES);
}

/// The model run now (`CHUNKSCOPE_LIVE=1`, which `./x test` sets); the vectors
/// must also hold exactly what it answers.
#[test]
fn engine_agrees_with_the_live_string_model() {
    if !oracle::live() {
        eprintln!("not running the lesson model: CHUNKSCOPE_LIVE=1 does");
        return;
    }
    let requests = requests();
    let (version, answers) = ask_model(&requests);
    let compared = compare(requests.iter().zip(&answers));
    eprintln!(
        "compared {compared} cases with the lesson model on Python {}",
        version["python"].as_str().unwrap_or("?")
    );
    Vectors::read(VECTORS).check_current(VECTORS, &version, true, &requests, &answers);
}

#[test]
#[ignore = "writes tests/vectors/lesson-model.jsonl.gz with python3; run by `./x vectors`"]
fn record_vectors() {
    let requests = requests();
    let (version, answers) = ask_model(&requests);
    let mut header = json!({
        "oracle": "core/tests/reference/lesson_model.py",
        "generator": "core/tests/reference.rs, proptest's deterministic runner",
    });
    header["python"] = version["python"].clone();
    Vectors::write(VECTORS, header, &requests, &answers);
}
