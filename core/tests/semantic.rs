//! The semantic strategy against the real `SemanticChunker`
//! (`langchain-experimental`, pinned in tests/reference/langchain/requirements.txt).
//!
//! Each case is a random text, a threshold kind, an amount, a buffer, maybe
//! `number_of_chunks` and `min_chunk_size`, and the vectors our engine used
//! for its sentence groups: small integer vectors (every sum in them is exact,
//! so distances must agree to the last bit however NumPy orders its sums, and
//! ties between distances are frequent, which is where a threshold rule is
//! tested) or the lexical embedder's TF-IDF vectors (real values; distances
//! must agree to 1e-12). `tests/reference/langchain/semantic_driver.py` gives
//! them to `SemanticChunker` through an `Embeddings` class that answers with
//! exactly those vectors, and reports the texts it was asked to embed, the
//! distances, the threshold, the breakpoints and the chunks with their start
//! indices. Every one must be equal, chunk texts exactly.
//!
//! `cargo test` replays `tests/vectors/semantic.jsonl.gz`; the ignored
//! live test asks the driver now; `./x vectors` records them again.

use chunkscope::semantic::{
    self, Breakpoint, Embedder, EmbedderChoice, Lexical, SemanticConfig, Vector,
};
use chunkscope::{Config, Error, Splitter, Strategy};
use oracle::Vectors;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

mod oracle;

const VECTORS: &str = "semantic";
const SEED: u64 = 0x5e3a_17c5;
/// Texts generated; each is sent with every threshold kind and several
/// buffers.
const TEXTS: usize = 300;
const BUFFERS: [usize; 3] = [0, 1, 3];
/// At least this many cases must be compared chunk by chunk.
const MIN_CASES: usize = 3000;

/// A small deterministic generator (SplitMix64), so that the cases are the
/// same on every machine and the recorded file can be checked.
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
    "the",
    "cat",
    "sat",
    "on",
    "mat",
    "refund",
    "policy",
    "takes",
    "five",
    "days",
    "rust",
    "python",
    "chunk",
    "vector",
    "café",
    "naïve",
    "日本語",
    "данные",
    "e.g",
    "3.14",
    "Dr",
    "ok",
];
const ENDS: &[&str] = &[".", ".", ".", "?", "!", "", "...", "?!"];
const GAPS: &[&str] = &[
    " ", " ", " ", "  ", "\n", "\n\n", "\t", "\u{3000}", "\u{1f}", "",
];

fn random_text(rng: &mut Rng) -> String {
    let mut text = String::new();
    if rng.below(8) == 0 {
        text.push_str(rng.pick(&[" ", "\n", "  "]));
    }
    let sentences = match rng.below(10) {
        0 => rng.below(3),
        1..=6 => 2 + rng.below(10),
        _ => 10 + rng.below(30),
    };
    for s in 0..sentences {
        if s > 0 {
            text.push_str(rng.pick(GAPS));
        }
        let words = 1 + rng.below(8);
        for w in 0..words {
            if w > 0 {
                text.push(' ');
            }
            text.push_str(rng.pick(WORDS));
        }
        text.push_str(rng.pick(ENDS));
    }
    if rng.below(6) == 0 {
        text.push_str(rng.pick(&[" ", "\n", ". ", "  "]));
    }
    text
}

/// Which vectors a case uses.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Integer components from -2 to 2, 1 to 4 dimensions.
    Integers,
    /// The lexical embedder's.
    Lexical,
}

/// An embedder that answers with given vectors and keeps the texts it was
/// asked to embed.
#[derive(Debug)]
struct Given {
    vectors: Vec<Vector>,
    asked: Mutex<Vec<String>>,
}

impl Embedder for Given {
    fn name(&self) -> String {
        "given".into()
    }
    fn embed(&self, texts: &[String]) -> Result<Vec<Vector>, Error> {
        *self.asked.lock().unwrap() = texts.to_vec();
        Ok(self.vectors.clone())
    }
}

fn sparse_json(vectors: &[Vector]) -> Value {
    Value::Array(
        vectors
            .iter()
            .map(|v| match v {
                Vector::Sparse(pairs) => json!(pairs),
                Vector::Dense(values) => json!(values
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| **x != 0.0)
                    .map(|(i, x)| (i, *x))
                    .collect::<Vec<_>>()),
            })
            .collect(),
    )
}

fn vectors_of(request: &Value) -> Vec<Vector> {
    sparse_of(&request["vectors"])
}

/// Sparse vectors as the drivers write them: `[[index, value], …]` each.
fn sparse_of(vectors: &Value) -> Vec<Vector> {
    vectors
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            Vector::Sparse(
                v.as_array()
                    .unwrap()
                    .iter()
                    .map(|p| (p[0].as_u64().unwrap() as u32, p[1].as_f64().unwrap()))
                    .collect(),
            )
        })
        .collect()
}

fn settings_of(request: &Value) -> SemanticConfig {
    SemanticConfig {
        breakpoint: request["breakpoint"].as_str().unwrap().parse().unwrap(),
        amount: request["amount"].as_f64(),
        buffer: request["buffer"].as_u64().unwrap() as usize,
        number_of_chunks: request["number_of_chunks"].as_u64().map(|n| n as usize),
        min_chunk_size: request["min_chunk_size"].as_u64().map(|n| n as usize),
        embedder: EmbedderChoice::Lexical,
    }
}

fn requests(seed: u64) -> Vec<Value> {
    let mut rng = Rng(seed);
    let mut requests = Vec::new();
    for t in 0..TEXTS {
        let text = random_text(&mut rng);
        let kind = if t % 4 == 3 {
            Kind::Lexical
        } else {
            Kind::Integers
        };
        let dims = 1 + rng.below(4);
        for buffer in BUFFERS {
            let sentences = semantic::sentences(&text);
            let groups = semantic::groups(&text, &sentences, buffer);
            let (vectors, dims) = match kind {
                Kind::Lexical => {
                    let v = Lexical.embed(&groups).unwrap();
                    let dims = v
                        .iter()
                        .filter_map(|v| match v {
                            Vector::Sparse(p) => p.last().map(|&(i, _)| i as usize + 1),
                            Vector::Dense(d) => Some(d.len()),
                        })
                        .max()
                        .unwrap_or(1);
                    (v, dims)
                }
                Kind::Integers => {
                    let v = (0..groups.len())
                        .map(|_| {
                            Vector::Dense((0..dims).map(|_| rng.below(5) as f64 - 2.0).collect())
                        })
                        .collect();
                    (v, dims)
                }
            };
            for breakpoint in Breakpoint::ALL {
                let amount = match rng.below(3) {
                    0 => Value::Null,
                    _ if breakpoint.is_percentile() => {
                        json!(rng.pick(&[0.0, 10.0, 25.0, 50.0, 62.5, 80.0, 95.0, 99.0, 100.0]))
                    }
                    _ => json!(rng.pick(&[-1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0])),
                };
                let number_of_chunks = match rng.below(6) {
                    0 => json!(rng.below(sentences.len() + 3)),
                    _ => Value::Null,
                };
                let min_chunk_size = match rng.below(4) {
                    0 => json!(rng.below(120)),
                    _ => Value::Null,
                };
                requests.push(json!({
                    "text": text,
                    "kind": if kind == Kind::Lexical { "lexical" } else { "integers" },
                    "breakpoint": breakpoint.name(),
                    "amount": amount,
                    "buffer": buffer,
                    "number_of_chunks": number_of_chunks,
                    "min_chunk_size": min_chunk_size,
                    "dims": dims,
                    "vectors": sparse_json(&vectors),
                }));
            }
        }
    }
    requests
}

fn ask_langchain(requests: &[Value]) -> (Value, Vec<Value>) {
    let python = std::env::var("CHUNKSCOPE_LANGCHAIN_PYTHON").unwrap_or_else(|_| {
        panic!(
            "CHUNKSCOPE_LANGCHAIN_PYTHON is not set. Comparing with the real \
             langchain-experimental needs it; `./x test` and `./x vectors` create the pinned \
             virtualenv (tests/reference/langchain/requirements.txt) and set it to its python"
        )
    });
    let driver = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/reference/langchain/semantic_driver.py"
    );
    let mut sent = vec![json!({"op": "versions"})];
    sent.extend_from_slice(requests);
    let mut answers = oracle::ask(&python, driver, &sent);
    let versions = answers.remove(0);
    (versions, answers)
}

/// What was compared, counted by what it exercised.
#[derive(Default)]
struct Comparison {
    counts: BTreeMap<String, usize>,
    compared: usize,
}

impl Comparison {
    fn count(&mut self, what: impl Into<String>) {
        *self.counts.entry(what.into()).or_default() += 1;
    }

    fn case(&mut self, request: &Value, answer: &Value) {
        let text = request["text"].as_str().unwrap();
        let settings = settings_of(request);
        let exact = request["kind"] == "integers";
        if let Some(error) = answer.get("error") {
            panic!("SemanticChunker raised {error} on {request}: {answer}");
        }
        // Replaying: our lexical embedder still makes the recorded vectors.
        let vectors = vectors_of(request);
        if !exact {
            let sentences = semantic::sentences(text);
            let groups = semantic::groups(text, &sentences, settings.buffer);
            let ours = Lexical.embed(&groups).unwrap();
            assert_eq!(ours.len(), vectors.len(), "{request}");
            for (a, b) in ours.iter().zip(&vectors) {
                let (Vector::Sparse(a), Vector::Sparse(b)) = (a, b) else {
                    panic!("lexical vectors are sparse")
                };
                assert_eq!(a.len(), b.len(), "{request}");
                for (x, y) in a.iter().zip(b) {
                    assert!(x.0 == y.0 && (x.1 - y.1).abs() <= 1e-12, "{request}");
                }
            }
        }
        // The lexical embedder against its reference, written again from
        // its definition in Python (tests/reference/langchain/lexical.py).
        if let Some(reference) = answer.get("lexical") {
            let sentences = semantic::sentences(text);
            let groups = semantic::groups(text, &sentences, settings.buffer);
            let ours = Lexical.embed(&groups).unwrap();
            let theirs = sparse_of(reference);
            assert_eq!(ours.len(), theirs.len(), "lexical vectors of {request}");
            for (a, b) in ours.iter().zip(&theirs) {
                let (Vector::Sparse(a), Vector::Sparse(b)) = (a, b) else {
                    panic!("lexical vectors are sparse")
                };
                let same = a.len() == b.len()
                    && a.iter().zip(b).all(|(x, y)| {
                        x.0 == y.0 && (x.1 - y.1).abs() <= 1e-12 * y.1.abs().max(1.0)
                    });
                assert!(
                    same,
                    "lexical vector {a:?}, the reference's {b:?}, in {request}"
                );
            }
            self.count("  lexical vectors as the reference computes them");
        }
        let given = Arc::new(Given {
            vectors,
            asked: Mutex::new(Vec::new()),
        });
        let settings = SemanticConfig {
            embedder: EmbedderChoice::Custom(given.clone()),
            ..settings
        };
        let ours = semantic::langchain_chunks(text, &settings)
            .unwrap_or_else(|e| panic!("{request}: we refused: {e}"));
        let texts: Vec<&str> = ours.chunks.iter().map(|c| c.langchain_text(text)).collect();
        let theirs: Vec<&str> = answer["chunks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert_eq!(texts, theirs, "chunks of {request}");
        let starts: Vec<u64> = ours.chunks.iter().map(|c| c.start_index as u64).collect();
        let their_starts: Vec<u64> = answer["start_indices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(starts, their_starts, "start indices of {request}");
        let asked = given.asked.lock().unwrap().clone();
        match answer["embedded"].as_array() {
            Some(embedded) => {
                let embedded: Vec<&str> = embedded.iter().map(|v| v.as_str().unwrap()).collect();
                assert_eq!(asked, embedded, "embedded texts of {request}");
                self.count("  embedded the same group texts");
            }
            None => assert!(
                asked.is_empty(),
                "we embedded, LangChain did not: {request}"
            ),
        }
        let theirs: Vec<f64> = answer["distances"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(ours.distances.len(), theirs.len(), "{request}");
        for (a, b) in ours.distances.iter().zip(&theirs) {
            if exact {
                assert_eq!(a.to_bits(), b.to_bits(), "distance {a} vs {b} in {request}");
            } else {
                assert!((a - b).abs() <= 1e-12, "distance {a} vs {b} in {request}");
            }
        }
        match (ours.threshold, answer["threshold"].as_f64()) {
            (None, None) => {}
            (Some(a), Some(b)) if exact => {
                assert_eq!(
                    a.to_bits(),
                    b.to_bits(),
                    "threshold {a} vs {b} in {request}"
                )
            }
            (Some(a), Some(b)) => assert!((a - b).abs() <= 1e-12, "threshold {a} vs {b}"),
            (a, b) => panic!("threshold {a:?} vs {b:?} in {request}"),
        }
        let breakpoints: Vec<usize> = answer["breakpoints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(ours.breakpoints, breakpoints, "breakpoints of {request}");

        // The engine with a size no chunk reaches gives exactly these chunks.
        let config = Config {
            strategy: Strategy::Semantic,
            size: usize::MAX / 2,
            semantic: settings,
            ..Config::for_strategy(Strategy::Semantic)
        };
        let out = Splitter::new(config).unwrap().split(text).unwrap();
        let spans: Vec<_> = out.chunks.iter().map(|c| c.span).collect();
        // Empty chunks ("" after trailing whitespace) are not emitted.
        let expected: Vec<_> = ours
            .chunks
            .iter()
            .map(|c| c.span)
            .filter(|s| !s.is_empty())
            .collect();
        assert_eq!(spans, expected, "{request}");

        self.compared += 1;
        self.count(format!("{} vectors", request["kind"].as_str().unwrap()));
        self.count(format!(
            "threshold {}",
            request["breakpoint"].as_str().unwrap()
        ));
        self.count(format!("buffer {}", request["buffer"]));
        if !request["number_of_chunks"].is_null() {
            self.count("with number_of_chunks");
        }
        if !request["min_chunk_size"].is_null() {
            self.count("with min_chunk_size");
            if theirs.len() > 1 && ours.chunks.len() < ours.breakpoints.len() + 1 {
                self.count("  a breakpoint passed over for min_chunk_size");
            }
        }
        if !ours.breakpoints.is_empty() {
            self.count("  at least one breakpoint");
        }
        if ours.chunks.iter().any(|c| c.text.is_some()) {
            self.count("  a chunk that is not a slice");
        }
        if ours
            .distances
            .iter()
            .any(|d| ours.threshold.is_some_and(|t| t == *d))
        {
            self.count("  a distance equal to the threshold");
        }
        self.count(match texts.len() {
            n @ 0..=4 => format!("  {n} chunks"),
            _ => "  5 chunks or more".to_string(),
        });
    }

    fn finish(&self, oracle: &str) {
        eprintln!(
            "{} cases compared with {oracle}, chunk texts exactly:",
            self.compared
        );
        for (what, n) in &self.counts {
            eprintln!("  {what}: {n}");
        }
        assert!(
            self.compared >= MIN_CASES,
            "only {} cases compared",
            self.compared
        );
    }

    fn get(&self, what: &str) -> usize {
        self.counts.get(what).copied().unwrap_or(0)
    }
}

/// A wrong answer to plant: what it changes, and how.
type Plant = (&'static str, fn(&mut Value));

/// A wrong answer planted into a recorded case fails the comparison: one
/// changed chunk, start index, breakpoint, distance or threshold, and an
/// exception where SemanticChunker answered.
#[test]
fn a_planted_wrong_answer_is_caught() {
    let vectors = Vectors::read(VECTORS);
    let (request, answer) = vectors
        .cases
        .iter()
        .find(|(_, a)| {
            a["chunks"].as_array().is_some_and(|c| c.len() >= 2) && a["threshold"].is_f64()
        })
        .expect("a recorded case with a breakpoint");
    Comparison::default().case(request, answer);
    let plants: [Plant; 6] = [
        ("one chunk", |a| {
            a["chunks"][0] = json!(format!("{}x", a["chunks"][0].as_str().unwrap()))
        }),
        ("one start index", |a| {
            a["start_indices"][1] = json!(a["start_indices"][1].as_u64().unwrap() + 1)
        }),
        ("one breakpoint", |a| {
            a["breakpoints"][0] = json!(a["breakpoints"][0].as_u64().unwrap() + 1)
        }),
        ("one distance", |a| {
            a["distances"][0] = json!(a["distances"][0].as_f64().unwrap() + 1e-9)
        }),
        ("the threshold", |a| {
            a["threshold"] = json!(a["threshold"].as_f64().unwrap() + 1e-9)
        }),
        ("an exception", |a| {
            *a = json!({"error": "ValueError", "message": "planted"})
        }),
    ];
    for (what, plant) in plants {
        let mut wrong = answer.clone();
        plant(&mut wrong);
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            Comparison::default().case(request, &wrong)
        }));
        assert!(
            caught.is_err(),
            "{what}: planted into {request}, not caught"
        );
    }
    // One weight of the lexical reference's vectors changed.
    let (request, answer) = vectors
        .cases
        .iter()
        .find(|(_, a)| a["lexical"][0].as_array().is_some_and(|v| !v.is_empty()))
        .expect("a recorded case with the lexical reference's vectors");
    Comparison::default().case(request, answer);
    let mut wrong = answer.clone();
    let weight = wrong["lexical"][0][0][1].as_f64().unwrap();
    wrong["lexical"][0][0][1] = json!(weight * (1.0 + 1e-9));
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        Comparison::default().case(request, &wrong)
    }));
    assert!(
        caught.is_err(),
        "a lexical weight planted into {request}, not caught"
    );
}

#[test]
fn identical_to_the_recorded_semantic_chunker() {
    let vectors = Vectors::read(VECTORS);
    let mut comparison = Comparison::default();
    for (request, answer) in &vectors.cases {
        comparison.case(request, answer);
    }
    comparison.finish(&format!(
        "the recorded langchain-experimental {}",
        vectors.header["packages"]["langchain-experimental"]
            .as_str()
            .unwrap_or("?")
    ));
    assert_eq!(comparison.compared, vectors.cases.len());
    for b in Breakpoint::ALL {
        let n = comparison.get(&format!("threshold {}", b.name()));
        assert!(n >= MIN_CASES / 5, "{b}: only {n} cases");
    }
    for what in [
        "  at least one breakpoint",
        "  a breakpoint passed over for min_chunk_size",
        "  a chunk that is not a slice",
        "  a distance equal to the threshold",
        "with number_of_chunks",
        "lexical vectors",
        "  lexical vectors as the reference computes them",
    ] {
        let n = comparison.get(what);
        assert!(n >= 20, "{what}: only {n} cases");
    }
}

#[test]
#[ignore = "asks the pinned SemanticChunker (CHUNKSCOPE_LANGCHAIN_PYTHON); `./x test` runs it: cargo test -- --ignored live"]
fn identical_to_the_live_semantic_chunker() {
    let requests = requests(SEED);
    let (versions, answers) = ask_langchain(&requests);
    let mut comparison = Comparison::default();
    for (request, answer) in requests.iter().zip(&answers) {
        comparison.case(request, answer);
    }
    comparison.finish("langchain-experimental");
    Vectors::read(VECTORS).check_current(VECTORS, &versions, true, &requests, &answers);
}

#[test]
#[ignore = "writes tests/vectors/semantic.jsonl.gz with the pinned langchain-experimental; run by `./x vectors`"]
fn record_vectors() {
    let requests = requests(SEED);
    let (versions, answers) = ask_langchain(&requests);
    let mut header = json!({
        "oracle": "tests/reference/langchain/semantic_driver.py: langchain-experimental SemanticChunker",
        "generator": "core/tests/semantic.rs",
        "seed": SEED,
    });
    for (key, value) in versions.as_object().unwrap() {
        header[key] = value.clone();
    }
    Vectors::write(VECTORS, header, &requests, &answers);
}
