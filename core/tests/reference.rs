//! Differential test: the span-based engine against an independent string-based
//! model of the lessons' algorithms (`tests/reference/lesson_model.py`), on
//! every configuration both describe: fixed windows and recursive separators
//! (literal ones), in chars and bytes, each placement, trimming on and off,
//! with and without overlap. Configurations are valid by construction, so
//! every case is compared: each chunk's char offset, text and cut, or the
//! refusal of a character longer than the size in bytes.
//!
//! `cargo test` replays the model's answers recorded in
//! `tests/vectors/lesson-model.jsonl.gz`; the ignored live test runs the model
//! (`python3`) now (see `oracle/mod.rs`).

use chunkscope::{
    split, CharIndex, Config, Cut, Error, Output, Placement, Separator, Strategy as Engine, Unit,
};
use oracle::Vectors;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde_json::{json, Value};
use std::collections::BTreeMap;
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

/// A size for `unit`: in bytes mostly 4 or more, so that every character
/// fits, and sometimes less, so that the refusal is compared too.
fn size(unit: Unit) -> BoxedStrategy<usize> {
    match unit {
        Unit::Bytes => prop_oneof![19 => 4usize..40, 1 => 1usize..4].boxed(),
        _ => (1usize..25).boxed(),
    }
}

/// One case, in the model's protocol (see lesson_model.py).
fn case() -> impl Strategy<Value = Value> {
    let sized = prop::sample::select(&[Unit::Chars, Unit::Bytes][..])
        .prop_flat_map(|unit| (Just(unit), size(unit)))
        .prop_flat_map(|(unit, size)| {
            let overlap = prop_oneof![2 => Just(0), 3 => 0..size];
            (Just(unit), Just(size), overlap)
        });
    (
        prop::sample::select(&[Engine::Fixed, Engine::Recursive][..]),
        prop::collection::vec(prop::sample::select(ATOMS), 0..60).prop_map(|v| v.concat()),
        sized,
        prop::collection::vec(prop::sample::select(SEPARATORS), 1..6),
        prop::sample::select(&[Placement::End, Placement::Start, Placement::None][..]),
        prop::bool::weighted(0.75),
    )
        .prop_map(
            |(engine, text, (unit, size, overlap), seps, placement, trim)| {
                json!({
                    "strategy": engine.name(), "text": text, "size": size,
                    "overlap": overlap, "unit": unit.name(), "separators": seps,
                    "placement": placement.name(), "trim": trim,
                })
            },
        )
}

/// The cases: the same every run (proptest's deterministic runner).
fn requests() -> Vec<Value> {
    let mut runner = TestRunner::deterministic();
    let case = case();
    (0..CASES)
        .map(|_| case.new_tree(&mut runner).unwrap().current())
        .collect()
}

/// Runs the model (`python3`) on `requests`; returns the Python version and
/// the answers.
fn ask_model(requests: &[Value]) -> (Value, Vec<Value>) {
    let version = Command::new("python3")
        .args(["-c", "import platform; print(platform.python_version())"])
        .output()
        .expect("python3 runs the lesson model");
    let version = String::from_utf8(version.stdout)
        .unwrap()
        .trim()
        .to_string();
    (
        json!({ "python": version }),
        oracle::ask("python3", MODEL, requests),
    )
}

/// The configuration a request describes.
fn config_of(request: &Value) -> Config {
    let number = |key: &str| request[key].as_u64().unwrap() as usize;
    let name = |key: &str| request[key].as_str().unwrap();
    let seps: Vec<String> = serde_json::from_value(request["separators"].clone()).unwrap();
    // The model draws separators and a placement for fixed windows too,
    // which read neither.
    Config {
        size: number("size"),
        overlap: number("overlap"),
        unit: name("unit").parse().unwrap(),
        separators: seps.iter().map(Separator::literal).collect(),
        placement: name("placement").parse().unwrap(),
        trim: request["trim"].as_bool().unwrap(),
        ..Config::default()
    }
    .with_strategy(name("strategy").parse::<Engine>().unwrap())
}

/// The engine's answer in the model's terms: each chunk's char offset, text
/// and cut, or the refused character's offset.
fn answer_of(text: &str, out: Result<Output, Error>) -> Value {
    match out {
        Ok(out) => {
            let chars = CharIndex::new(text);
            let chunks: Vec<Value> = out
                .chunks
                .iter()
                .map(|c| {
                    let cut = match c.cut {
                        Cut::Separator(i) => json!(i),
                        Cut::Hard => json!("hard"),
                        Cut::Window => json!("window"),
                        Cut::Breakpoint => json!("breakpoint"),
                        Cut::End => json!("end"),
                        Cut::Structure(level) => json!(level.name()),
                    };
                    json!([chars.char_offset(c.span.start), c.text(text), cut])
                })
                .collect();
            json!({ "chunks": chunks })
        }
        Err(Error::CharTooBig { at, .. }) => json!({"error": "char_too_big", "at": at}),
        Err(e) => panic!("a valid configuration was refused: {e}"),
    }
}

/// What the compared cases exercised, to show that every branch is reached.
#[derive(Default, Debug)]
struct Reached(BTreeMap<String, usize>);

impl Reached {
    fn add(&mut self, key: impl Into<String>) {
        *self.0.entry(key.into()).or_default() += 1;
    }
    fn at_least(&self, key: &str, n: usize) {
        let got = self.0.get(key).copied().unwrap_or(0);
        assert!(
            got >= n,
            "only {got} cases reached {key:?} (at least {n} expected): {self:?}"
        );
    }
}

/// Compares the engine with the model's answers to its requests; returns how
/// many cases were compared, every one of them.
fn compare<'a>(cases: impl IntoIterator<Item = (&'a Value, &'a Value)>) -> usize {
    let mut reached = Reached::default();
    let mut compared = 0;
    for (request, expected) in cases {
        if let Err(problem) = compare_case(request, expected, &mut reached) {
            panic!("{problem}");
        }
        compared += 1;
    }
    eprintln!("{reached:#?}");
    // The cases must reach every branch of both models.
    for engine in ["fixed", "recursive"] {
        for unit in ["chars", "bytes"] {
            reached.at_least(&format!("{engine} in {unit}"), 2_000);
            reached.at_least(&format!("{engine} in {unit}, no trim"), 400);
        }
        reached.at_least(&format!("{engine}: overlap repeated text"), 1_000);
    }
    for placement in ["end", "start", "none"] {
        reached.at_least(&format!("recursive split, placement {placement}"), 800);
    }
    reached.at_least("recursive: a chunk cut by the hard cut", 500);
    reached.at_least("refused: a char longer than the size", 50);
    compared
}

/// Compares one case, counting what it exercised; what differs, if it does.
fn compare_case(request: &Value, expected: &Value, reached: &mut Reached) -> Result<(), String> {
    let config = config_of(request);
    let text = request["text"].as_str().unwrap();
    let out = split(text, &config, &chunkscope::Resources::new());
    if let Ok(out) = &out {
        note(reached, &config, out);
    }
    let got = answer_of(text, out);
    if &got != expected {
        return Err(format!(
            "{} {} size {} overlap {} placement {} trim {} separators {:?} on {text:?}:\n  ours   {got}\n  model's {expected}",
            config.kind(),
            config.unit,
            config.size,
            config.overlap,
            config.placement,
            config.trim,
            request["separators"]
        ));
    }
    if got.get("error").is_some() {
        reached.add("refused: a char longer than the size");
    }
    Ok(())
}

/// A wrong answer to plant: what it changes, and how.
type Plant = (&'static str, fn(&mut Value));

/// A wrong answer planted into a recorded case the engine agrees with is
/// caught: one chunk's text, one chunk's offset, one cut, and a refusal
/// where the model answered.
#[test]
fn a_planted_wrong_answer_is_caught() {
    let vectors = Vectors::read(VECTORS);
    let (request, answer) = vectors
        .cases
        .iter()
        .find(|(_, a)| a["chunks"].as_array().is_some_and(|c| c.len() >= 2))
        .expect("a recorded case with two chunks");
    compare_case(request, answer, &mut Reached::default()).expect("the recorded answer agrees");
    let plants: [Plant; 4] = [
        ("one chunk's text", |a| {
            a["chunks"][1][1] = json!(format!("{}x", a["chunks"][1][1].as_str().unwrap()))
        }),
        ("one chunk's offset", |a| {
            a["chunks"][1][0] = json!(a["chunks"][1][0].as_u64().unwrap() + 1)
        }),
        ("one cut", |a| {
            let cut = &mut a["chunks"][0][2];
            *cut = if *cut == json!("hard") {
                json!(0)
            } else {
                json!("hard")
            };
        }),
        ("a refusal", |a| {
            *a = json!({"error": "char_too_big", "at": 0})
        }),
    ];
    for (what, plant) in plants {
        let mut wrong = answer.clone();
        plant(&mut wrong);
        assert!(
            compare_case(request, &wrong, &mut Reached::default()).is_err(),
            "{what}: planted into {request}, not caught"
        );
    }
}

/// Counts what one split exercised.
fn note(reached: &mut Reached, config: &Config, out: &Output) {
    let engine = config.kind();
    reached.add(format!("{engine} in {}", config.unit));
    if !config.trim {
        reached.add(format!("{engine} in {}, no trim", config.unit));
    }
    if out.chunks.iter().any(|c| c.overlap.is_some()) {
        reached.add(format!("{engine}: overlap repeated text"));
    }
    if engine == Engine::Recursive {
        if out
            .chunks
            .iter()
            .any(|c| matches!(c.cut, Cut::Separator(_)))
        {
            reached.add(format!("recursive split, placement {}", config.placement));
        }
        if out.chunks.iter().any(|c| c.cut == Cut::Hard) {
            reached.add("recursive: a chunk cut by the hard cut");
        }
    }
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

/// The model run now (`./x test` runs it); the vectors
/// must also hold exactly what it answers.
#[test]
#[ignore = "runs the lesson model in python3; `./x test` runs it: cargo test -- --ignored live"]
fn engine_agrees_with_the_live_string_model() {
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
