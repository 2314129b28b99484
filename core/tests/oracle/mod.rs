//! What the differential tests (`langchain.rs`, `reference.rs`) share: asking
//! a Python oracle, and the test vectors that record its answers.
//!
//! A vector file (`tests/vectors/*.jsonl.gz`) is gzip'd JSON Lines: a header
//! object (which oracle, at which versions, from which generator, how many
//! cases), then one `{"in": request, "out": answer}` per case, where `request`
//! is exactly what the oracle was sent and `answer` exactly what it wrote back.
//! `cargo test` replays them without Python; the live tests, ignored by
//! plain `cargo test` (so they show as ignored, not passed), ask the oracle
//! itself and check that the file still holds its answers: `./x test` runs
//! them with `cargo test -- --ignored live`. `./x vectors` rewrites the files; the same generator, seed and
//! pins give the same bytes (serde_json writes object keys sorted, the gzip
//! header holds no time or name).

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Whether a recorded answer is what the oracle answers now: the same JSON,
/// except that two real numbers (not integers) may differ in their last few
/// bits (relatively, by 1e-12). NumPy chooses its SIMD kernels by the CPU it
/// runs on, so its sums round differently on a machine with AVX-512 than on
/// one without; the oracle is still the same oracle. Texts, integers, counts
/// and the order of everything must be equal.
pub fn same_answer(recorded: &Value, now: &Value) -> bool {
    match (recorded, now) {
        (Value::Number(a), Value::Number(b)) => {
            if a.is_f64() && b.is_f64() {
                let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
                a == b || (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
            } else {
                a == b
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_answer(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(key, a)| b.get(key).is_some_and(|b| same_answer(a, b)))
        }
        _ => recorded == now,
    }
}

/// The path of a vector file, `tests/vectors/<name>.jsonl.gz`.
fn path(name: &str) -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "..", "tests", "vectors"]
        .iter()
        .collect::<PathBuf>()
        .join(format!("{name}.jsonl.gz"))
}

/// Runs `python script` once on all requests (one JSON value a line on stdin)
/// and returns its answers (one a line on stdout), checking there is one per
/// request.
pub fn ask(python: &str, script: &str, requests: &[Value]) -> Vec<Value> {
    let mut input = String::new();
    for r in requests {
        input.push_str(&r.to_string());
        input.push('\n');
    }
    let mut child = Command::new(python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        output.status.success(),
        "{script} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answers: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), requests.len(), "one answer per request");
    answers
}

/// A vector file: its header and its cases, `(request, answer)`.
pub struct Vectors {
    pub header: Value,
    pub cases: Vec<(Value, Value)>,
}

impl Vectors {
    /// Reads `tests/vectors/<name>.jsonl.gz`, checking that it holds as many
    /// cases as its header says (a truncated file is an error, not fewer
    /// cases).
    pub fn read(name: &str) -> Vectors {
        let path = path(name);
        let mut text = String::new();
        std::fs::File::open(&path)
            .and_then(|file| GzDecoder::new(file).read_to_string(&mut text))
            .unwrap_or_else(|e| {
                panic!(
                    "cannot read {}: {e}; `./x vectors` records it",
                    path.display()
                )
            });
        let mut lines = text.lines().enumerate();
        let header: Value = serde_json::from_str(lines.next().expect("a header line").1)
            .unwrap_or_else(|e| panic!("{}: header: {e}", path.display()));
        let cases: Vec<(Value, Value)> = lines
            .map(|(i, line)| {
                let mut case: Value = serde_json::from_str(line)
                    .unwrap_or_else(|e| panic!("{} line {}: {e}", path.display(), i + 1));
                (case["in"].take(), case["out"].take())
            })
            .collect();
        assert_eq!(
            Some(cases.len() as u64),
            header["cases"].as_u64(),
            "{}: the header's case count is not the number of cases",
            path.display()
        );
        Vectors { header, cases }
    }

    /// Writes `tests/vectors/<name>.jsonl.gz`; the header gets the case count.
    pub fn write(name: &str, mut header: Value, requests: &[Value], answers: &[Value]) {
        assert_eq!(requests.len(), answers.len());
        header["cases"] = json!(requests.len());
        let mut out = header.to_string();
        out.push('\n');
        for (request, answer) in requests.iter().zip(answers) {
            out.push_str(&json!({"in": request, "out": answer}).to_string());
            out.push('\n');
        }
        let path = path(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let mut gzip = GzEncoder::new(Vec::new(), Compression::best());
        gzip.write_all(out.as_bytes()).unwrap();
        std::fs::write(&path, gzip.finish().unwrap()).unwrap();
        eprintln!(
            "wrote {} cases to {}",
            requests.len(),
            path.canonicalize().unwrap().display()
        );
    }

    /// In live mode: checks that this file still holds what the oracle
    /// answers now. Only when the live run sent the recorded generator's
    /// cases (`same_cases`) to an oracle of the recorded versions (each key
    /// of `versions` as in the header); otherwise says why not.
    pub fn check_current(
        &self,
        name: &str,
        versions: &Value,
        same_cases: bool,
        requests: &[Value],
        answers: &[Value],
    ) {
        let versions = versions.as_object().unwrap();
        let recorded: serde_json::Map<String, Value> = versions
            .keys()
            .map(|key| (key.clone(), self.header[key].clone()))
            .collect();
        if !same_cases || recorded != *versions {
            eprintln!(
                "note: tests/vectors/{name}.jsonl.gz is not checked against this oracle: \
                 {}",
                if same_cases {
                    format!("recorded with {recorded:?}, this is {versions:?}")
                } else {
                    "it holds other cases (seed, scale)".to_string()
                }
            );
            return;
        }
        let problem = if self.cases.len() != requests.len() {
            Some(format!(
                "it holds {} cases, the generator makes {}",
                self.cases.len(),
                requests.len()
            ))
        } else {
            (0..requests.len()).find_map(|i| {
                let (sent, answer) = &self.cases[i];
                if *sent != requests[i] {
                    Some(format!(
                        "case {i} is {sent}, the generator now makes {}",
                        requests[i]
                    ))
                } else {
                    (!same_answer(answer, &answers[i])).then(|| {
                        format!("case {i} {sent} was answered {answer}, now {}", answers[i])
                    })
                }
            })
        };
        if let Some(problem) = problem {
            panic!(
                "tests/vectors/{name}.jsonl.gz is stale ({problem}); `./x vectors` records it again"
            );
        }
        eprintln!(
            "tests/vectors/{name}.jsonl.gz holds what the oracle answers now ({} cases)",
            requests.len()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_differ_only_in_the_last_bits_of_reals() {
        let recorded = json!({"d": [0.07913873853822917, 1.5], "n": 3, "t": "a"});
        let rounded = json!({"d": [0.07913873853822895, 1.5], "n": 3, "t": "a"});
        assert!(same_answer(&recorded, &rounded));
        for other in [
            json!({"d": [0.0791387385, 1.5], "n": 3, "t": "a"}),
            json!({"d": [0.07913873853822917, 1.5], "n": 4, "t": "a"}),
            json!({"d": [0.07913873853822917, 1.5], "n": 3, "t": "b"}),
            json!({"d": [0.07913873853822917], "n": 3, "t": "a"}),
            json!({"d": [0.07913873853822917, 1.5], "n": 3}),
        ] {
            assert!(!same_answer(&recorded, &other), "{other}");
        }
    }
}
