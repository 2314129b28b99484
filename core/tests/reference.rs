//! Differential test: the span-based engine against an independent string-based
//! model of the lessons' algorithms (`tests/reference/lesson_model.py`), on the
//! configurations both describe: chars, trimming on, separators kept at the end
//! of the piece before the cut, no overlap in the recursive engine.

use chunkscope::{split, Config, Separator, Strategy as Engine};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use std::io::Write;
use std::process::{Command, Stdio};

const ATOMS: &[&str] = &[
    "a", "bc", "word", "Ünï", "😀", "e\u{301}", "中文", "。", " ", "  ", "\n", "\n\n", "\r\n",
    "\t", "\u{3000}", "\u{85}", "\u{1c}", ". ", "! ", ",", "x.y", "..",
];
const SEPARATORS: &[&str] = &["\n\n", "\n", ". ", " ", "。", ",", "..", "a", ""];
const CASES: usize = 10_000;

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

#[test]
fn engine_agrees_with_the_string_model_of_the_lessons() {
    let mut runner = TestRunner::deterministic();
    let cases: Vec<_> = (0..CASES)
        .map(|_| case().new_tree(&mut runner).unwrap().current())
        .collect();
    let mut input = String::new();
    for (engine, text, size, overlap, seps) in &cases {
        let line = serde_json::json!({
            "strategy": engine.name(), "text": text, "size": size,
            "overlap": overlap, "separators": seps,
        });
        input.push_str(&line.to_string());
        input.push('\n');
    }
    let model = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/reference/lesson_model.py"
    );
    let mut child = Command::new("python3")
        .arg(model)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect(
            "python3 is needed for the reference model (it is on every machine of this project)",
        );
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(output.status.success(), "the model failed");
    let answers: Vec<Vec<String>> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), cases.len());

    let mut hard_cuts = 0;
    for ((engine, text, size, overlap, seps), expected) in cases.iter().zip(&answers) {
        let config = Config {
            strategy: *engine,
            size: *size,
            overlap: *overlap,
            separators: seps.iter().map(Separator::literal).collect(),
            ..Config::default()
        };
        let out = split(text, &config).unwrap();
        let got: Vec<&str> = out.chunks.iter().map(|c| c.text(text)).collect();
        assert_eq!(
            &got, expected,
            "{engine} size {size} overlap {overlap} separators {seps:?} on {text:?}"
        );
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
}
