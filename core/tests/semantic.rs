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
//! Some cases carry a fault on which `SemanticChunker` raises or goes on
//! (`Fault`: an amount NumPy's percentile refuses, fewer or more vectors than
//! groups, neighbours of different lengths, a component that is not
//! finite). Where it raises, the engine must err too, and [`ERROR_MAP`] says
//! which of our errors is which of its exceptions, class and message word for
//! word; where only the engine errs, the error must be one of the refusals the
//! map names, each under a ceiling ([`REFUSAL_CEILINGS`]). Every other
//! difference, one side raising alone included, fails.
//!
//! `cargo test` replays `tests/vectors/semantic.jsonl.gz`; the ignored
//! live test asks the driver now; `./x vectors` records them again.

use chunkscope::semantic::{
    self, Breakpoint, Embedder, EmbedderChoice, Lexical, SemanticConfig, SemanticError, Vector,
};
use chunkscope::{Config, Error, Setting, Splitter, Strategy, StrategyConfig};
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
/// Texts generated after those, for the fault cases: each is sent with
/// every threshold kind and buffer, each case with one [`Fault`].
const FAULT_TEXTS: usize = 60;
/// At least this many cases must be compared exception by exception (both
/// raised, the same class and message), and at least [`MIN_EACH_ERROR`] of
/// each exception [`ERROR_MAP`] maps.
const MIN_ERROR_CASES: usize = 300;
const MIN_EACH_ERROR: usize = 50;

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

/// A real as the requests and answers write it: a JSON number when finite,
/// else `"nan"`, `"inf"` or `"-inf"` (JSON has no such numbers).
fn real_json(x: f64) -> Value {
    match x {
        x if x.is_finite() => json!(x),
        x if x.is_nan() => json!("nan"),
        x if x > 0.0 => json!("inf"),
        _ => json!("-inf"),
    }
}

/// A real written by [`real_json`]; `None` for anything else.
fn real_of(value: &Value) -> Option<f64> {
    match value.as_str() {
        Some("nan") => Some(f64::NAN),
        Some("inf") => Some(f64::INFINITY),
        Some("-inf") => Some(f64::NEG_INFINITY),
        Some(_) => None,
        None => value.as_f64(),
    }
}

fn sparse_json(vectors: &[Vector]) -> Value {
    Value::Array(
        vectors
            .iter()
            .map(|v| match v {
                Vector::Sparse(pairs) => json!(pairs),
                Vector::Dense(values) => Value::Array(
                    values
                        .iter()
                        .enumerate()
                        .filter(|(_, x)| **x != 0.0)
                        .map(|(i, x)| json!([i, real_json(*x)]))
                        .collect(),
                ),
            })
            .collect(),
    )
}

/// The vectors a request gives: sparse, or dense where it gives each
/// vector's length (`lengths`), so that lengths can differ.
fn vectors_of(request: &Value) -> Vec<Vector> {
    let sparse = sparse_of(&request["vectors"]);
    let Some(lengths) = request["lengths"].as_array() else {
        return sparse;
    };
    sparse
        .into_iter()
        .zip(lengths)
        .map(|(v, len)| {
            let Vector::Sparse(pairs) = v else {
                unreachable!("sparse_of makes sparse vectors")
            };
            let mut dense = vec![0.0; len.as_u64().unwrap() as usize];
            for (i, x) in pairs {
                dense[i as usize] = x;
            }
            Vector::Dense(dense)
        })
        .collect()
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
                    .map(|p| (p[0].as_u64().unwrap() as u32, real_of(&p[1]).unwrap()))
                    .collect(),
            )
        })
        .collect()
}

fn settings_of(request: &Value) -> SemanticConfig {
    SemanticConfig {
        breakpoint: request["breakpoint"].as_str().unwrap().parse().unwrap(),
        amount: real_of(&request["amount"]),
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
                let amount = amount(&mut rng, breakpoint);
                let number_of_chunks = number_of_chunks(&mut rng, sentences.len());
                let min_chunk_size = min_chunk_size(&mut rng);
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
    // Then the fault cases, from the same generator: the cases above stay
    // what they were.
    for _ in 0..FAULT_TEXTS {
        let text = random_text(&mut rng);
        let dims = 1 + rng.below(4);
        for buffer in BUFFERS {
            let sentences = semantic::sentences(&text);
            let groups = semantic::groups(&text, &sentences, buffer).len();
            for breakpoint in Breakpoint::ALL {
                requests.push(fault_case(
                    &mut rng,
                    &text,
                    sentences.len(),
                    groups,
                    dims,
                    buffer,
                    breakpoint,
                ));
            }
        }
    }
    requests
}

/// A threshold amount: the kind's default (`null`), or one of a few that
/// NumPy accepts for the kind.
fn amount(rng: &mut Rng, breakpoint: Breakpoint) -> Value {
    match rng.below(3) {
        0 => Value::Null,
        _ if breakpoint.is_percentile() => {
            json!(rng.pick(&[0.0, 10.0, 25.0, 50.0, 62.5, 80.0, 95.0, 99.0, 100.0]))
        }
        _ => json!(rng.pick(&[-1.0, -0.5, 0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0])),
    }
}

/// An amount the engine refuses: for the percentile kinds one NumPy's
/// percentile refuses (outside 0 to 100, or not a number), for the others
/// one that is not finite (NumPy computes on with it).
fn bad_amount(rng: &mut Rng, breakpoint: Breakpoint) -> Value {
    let (nan, inf) = (f64::NAN, f64::INFINITY);
    real_json(if breakpoint.is_percentile() {
        rng.pick(&[-5.0, -0.5, 100.5, 101.0, 150.0, 1000.0, nan, inf, -inf])
    } else {
        rng.pick(&[nan, inf, -inf])
    })
}

fn number_of_chunks(rng: &mut Rng, sentences: usize) -> Value {
    match rng.below(6) {
        0 => json!(rng.below(sentences + 3)),
        _ => Value::Null,
    }
}

fn min_chunk_size(rng: &mut Rng) -> Value {
    match rng.below(4) {
        0 => json!(rng.below(120)),
        _ => Value::Null,
    }
}

/// What a fault case gets wrong. `SemanticChunker` raises on the first
/// three wherever it reaches them; it goes on past the last two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    /// An amount from [`bad_amount`].
    Amount,
    /// Fewer vectors than groups.
    Fewer,
    /// A vector whose length differs from the others'.
    Dimensions,
    /// More vectors than groups.
    More,
    /// A component that is not finite.
    NotFinite,
}

impl Fault {
    /// Drawn with these weights: most faults make `SemanticChunker` raise.
    const DRAWN: [Fault; 11] = [
        Fault::Amount,
        Fault::Amount,
        Fault::Amount,
        Fault::Fewer,
        Fault::Fewer,
        Fault::Fewer,
        Fault::Dimensions,
        Fault::Dimensions,
        Fault::Dimensions,
        Fault::More,
        Fault::NotFinite,
    ];

    fn name(self) -> &'static str {
        match self {
            Fault::Amount => "amount",
            Fault::Fewer => "fewer vectors",
            Fault::Dimensions => "dimensions",
            Fault::More => "more vectors",
            Fault::NotFinite => "not finite",
        }
    }
}

/// One fault case: integer vectors for the text's `groups` groups, then one
/// [`Fault`]. A fifth of the cases whose fault is in the vectors also get a
/// bad amount, which `SemanticChunker` reads only after the vectors.
fn fault_case(
    rng: &mut Rng,
    text: &str,
    sentences: usize,
    groups: usize,
    dims: usize,
    buffer: usize,
    breakpoint: Breakpoint,
) -> Value {
    let fault = rng.pick(&Fault::DRAWN);
    let integers = |rng: &mut Rng, dims: usize| -> Vec<f64> {
        (0..dims).map(|_| rng.below(5) as f64 - 2.0).collect()
    };
    let mut vectors: Vec<Vec<f64>> = (0..groups).map(|_| integers(rng, dims)).collect();
    let mut amount = amount(rng, breakpoint);
    if fault == Fault::Amount || rng.below(5) == 0 {
        amount = bad_amount(rng, breakpoint);
    }
    let mut lengths = None;
    match fault {
        Fault::Amount => {}
        Fault::Fewer => vectors.truncate(rng.below(groups)),
        Fault::More => {
            for _ in 0..1 + rng.below(3) {
                vectors.push(integers(rng, dims));
            }
        }
        Fault::Dimensions => {
            // Another length from 0 to 5.
            let j = rng.below(groups);
            let other = (dims + 1 + rng.below(5)) % 6;
            vectors[j] = integers(rng, other);
            lengths = Some(vectors.iter().map(Vec::len).collect::<Vec<_>>());
        }
        Fault::NotFinite => {
            let j = rng.below(groups);
            let c = rng.below(dims);
            vectors[j][c] = rng.pick(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY]);
        }
    }
    let vectors: Vec<Vector> = vectors.into_iter().map(Vector::Dense).collect();
    let mut request = json!({
        "text": text,
        "kind": "integers",
        "fault": fault.name(),
        "breakpoint": breakpoint.name(),
        "amount": amount,
        "buffer": buffer,
        "number_of_chunks": number_of_chunks(rng, sentences),
        "min_chunk_size": min_chunk_size(rng),
        "dims": dims,
        "vectors": sparse_json(&vectors),
    });
    if let Some(lengths) = lengths {
        request["lengths"] = json!(lengths);
    }
    request
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

/// What `SemanticChunker` does on a case where this engine errs.
#[derive(Clone, Copy, Debug)]
enum Theirs {
    /// Raises this exception class with this message, each `{name}` the
    /// value our message gives it.
    Raises(&'static str, &'static str),
    /// Goes on to chunks: a refusal of this engine's own.
    Chunks,
    /// Raises on the vectors before it reads the amount ([`vectors_exception`]),
    /// where this engine checks the amount first: a refusal of its own.
    RaisesOnTheVectors,
}

/// Where a row of [`ERROR_MAP`] applies, besides its message; decided from
/// the request alone ([`Reach`]), not from what either side did.
#[derive(Clone, Copy, Debug)]
enum When {
    Always,
    /// Our message's `{got}` is below its `{texts}`.
    FewerVectors,
    /// Our message's `{got}` is above its `{texts}`.
    MoreVectors,
    /// `SemanticChunker` raises on the vectors before it reads the amount.
    VectorsRaise,
    /// It does not: it goes on to `np.percentile` of the amount.
    PercentileComputed,
    /// It never reads the amount: one sentence (two with `gradient`), or
    /// `number_of_chunks` set (and the vectors do not raise).
    AmountUnread,
    /// The vectors do not raise.
    VectorsRead,
}

/// One of this engine's errors and what `SemanticChunker` does on the same
/// case.
struct Row {
    /// How the case is counted.
    name: &'static str,
    /// Our `SemanticError` variant, and the setting it names.
    variant: &'static str,
    setting: Setting,
    /// Our message; `{name}` stands for a number or word.
    ours: &'static str,
    when: When,
    theirs: Theirs,
}

/// How this engine's errors map to `SemanticChunker`'s exceptions. Our
/// messages say which setting to change, so they are not LangChain's; a case
/// where both raise compares LangChain's class and message word for word with
/// what this table makes of ours. Exactly one row applies to each of our
/// errors; an error no row maps fails. The last five are refusals: the engine
/// errs on its own (an amount is checked before the text is read, as a
/// setting; an embedder's answer must be one finite vector per group), and
/// `SemanticChunker` does what the row says instead; each is counted under
/// [`REFUSAL_CEILINGS`].
///
/// | ours (`SemanticError`, setting) | where | `SemanticChunker` |
/// | --- | --- | --- |
/// | `Amount` (breakpoint), a percentile outside 0 to 100 | it computes the percentile | `ValueError: Percentiles must be in the range [0, 100]` |
/// | `Embedder` (embedder), fewer vectors than texts | always | `IndexError: list index out of range` |
/// | `Embedder` (embedder), a vector's length differs | always | `ValueError: Number of columns in X and Y must be the same. X has shape (1, A) and Y has shape (1, B).` |
/// | `Amount` (breakpoint), any | the vectors raise first | that exception (refused) |
/// | `Amount` (breakpoint), a bad percentile | it never reads the amount | chunks (refused) |
/// | `Amount` (breakpoint), not finite (standard deviation, interquartile) | the vectors do not raise | chunks: NumPy computes on (refused) |
/// | `Embedder` (embedder), more vectors than texts | always | chunks: it reads the first ones (refused) |
/// | `Embedder` (embedder), a value not finite | always | chunks: the similarity counts as 0 (refused) |
const ERROR_MAP: [Row; 8] = [
    Row {
        name: "both raised ValueError: a percentile outside 0 to 100",
        variant: "Amount",
        setting: Setting::Breakpoint,
        ours: "the {kind} amount is {amount}: a percentile is a number from 0 to 100",
        when: When::PercentileComputed,
        theirs: Theirs::Raises("ValueError", "Percentiles must be in the range [0, 100]"),
    },
    Row {
        name: "both raised IndexError: fewer vectors than groups",
        variant: "Embedder",
        setting: Setting::Embedder,
        ours: "the embedder failed: it gave {got} vectors for {texts} texts",
        when: When::FewerVectors,
        theirs: Theirs::Raises("IndexError", "list index out of range"),
    },
    Row {
        name: "both raised ValueError: vectors of different lengths",
        variant: "Embedder",
        setting: Setting::Embedder,
        ours: "the embedder failed: vector {i} has {b} dimensions where vector 0 has {a}",
        when: When::Always,
        theirs: Theirs::Raises(
            "ValueError",
            "Number of columns in X and Y must be the same. X has shape (1, {a}) and Y has shape (1, {b}).",
        ),
    },
    Row {
        name: "refused: a bad amount, checked before the vectors LangChain raises on",
        variant: "Amount",
        setting: Setting::Breakpoint,
        ours: "the {kind} amount is {amount}: {why}",
        when: When::VectorsRaise,
        theirs: Theirs::RaisesOnTheVectors,
    },
    Row {
        name: "refused: a bad percentile LangChain never reads",
        variant: "Amount",
        setting: Setting::Breakpoint,
        ours: "the {kind} amount is {amount}: a percentile is a number from 0 to 100",
        when: When::AmountUnread,
        theirs: Theirs::Chunks,
    },
    Row {
        name: "refused: a threshold amount that is not finite",
        variant: "Amount",
        setting: Setting::Breakpoint,
        ours: "the {kind} amount is {amount}: it must be a finite number",
        when: When::VectorsRead,
        theirs: Theirs::Chunks,
    },
    Row {
        name: "refused: more vectors than groups",
        variant: "Embedder",
        setting: Setting::Embedder,
        ours: "the embedder failed: it gave {got} vectors for {texts} texts",
        when: When::MoreVectors,
        theirs: Theirs::Chunks,
    },
    Row {
        name: "refused: a vector value that is not finite",
        variant: "Embedder",
        setting: Setting::Embedder,
        ours: "the embedder failed: vector {i} has a value that is not a finite number",
        when: When::Always,
        theirs: Theirs::Chunks,
    },
];

/// Ceilings on the refusals of [`ERROR_MAP`]: today's counts over the
/// recorded cases (the live run sends the same ones), so a change that turns
/// compared cases into refusals fails.
const REFUSAL_CEILINGS: [(&str, usize); 5] = [
    (ERROR_MAP[3].name, 72),
    (ERROR_MAP[4].name, 37),
    (ERROR_MAP[5].name, 116),
    (ERROR_MAP[6].name, 41),
    (ERROR_MAP[7].name, 58),
];

/// How far `SemanticChunker` gets on a case, decided from the request alone.
struct Reach {
    /// It embeds: two sentences or more, three with `gradient`.
    embeds: bool,
    /// What it raises on the vectors, if it does.
    vectors: Option<(&'static str, String)>,
    /// `number_of_chunks` is set, so the amount is never read.
    by_count: bool,
}

impl Reach {
    fn of(request: &Value) -> Reach {
        let text = request["text"].as_str().unwrap();
        let n = semantic::sentences(text).len();
        let gradient = request["breakpoint"] == "gradient";
        let embeds = n > 1 && !(gradient && n == 2);
        Reach {
            embeds,
            vectors: if embeds {
                vectors_exception(request, n)
            } else {
                None
            },
            by_count: !request["number_of_chunks"].is_null(),
        }
    }

    fn holds(&self, when: When, captured: &[(&str, String)]) -> bool {
        let number = |name: &str| -> u64 {
            let (_, value) = captured.iter().find(|(n, _)| *n == name).unwrap();
            value.parse().unwrap()
        };
        match when {
            When::Always => true,
            When::FewerVectors => number("got") < number("texts"),
            When::MoreVectors => number("got") > number("texts"),
            When::VectorsRaise => self.vectors.is_some(),
            When::PercentileComputed => self.embeds && self.vectors.is_none() && !self.by_count,
            When::AmountUnread => !self.embeds || (self.by_count && self.vectors.is_none()),
            When::VectorsRead => self.vectors.is_none(),
        }
    }
}

/// What `SemanticChunker` raises on the vectors a request gives for its
/// `groups` groups, read from the request as LangChain reads them: a vector
/// for each group in turn (an `IndexError` past the last one), then
/// `cosine_similarity` of each pair of neighbours, which refuses two lengths.
fn vectors_exception(request: &Value, groups: usize) -> Option<(&'static str, String)> {
    let given = request["vectors"].as_array().unwrap().len();
    if given < groups {
        return Some(("IndexError", "list index out of range".to_string()));
    }
    let length = |i: usize| match request["lengths"].as_array() {
        Some(lengths) => lengths[i].as_u64().unwrap(),
        None => request["dims"].as_u64().unwrap(),
    };
    (1..groups)
        .find(|&i| length(i - 1) != length(i))
        .map(|i| {
            (
                "ValueError",
                format!(
                    "Number of columns in X and Y must be the same. X has shape (1, {}) and Y has shape (1, {}).",
                    length(i - 1),
                    length(i)
                ),
            )
        })
}

/// The `{name}`s of `pattern` as they are in `text`, in order, when `text`
/// is `pattern` with each filled in (each the shortest text up to the
/// literal after it); `None` when it is not.
fn captures<'p>(pattern: &'p str, text: &str) -> Option<Vec<(&'p str, String)>> {
    let mut out = Vec::new();
    let (mut pattern, mut text) = (pattern, text);
    while let Some(open) = pattern.find('{') {
        text = text.strip_prefix(&pattern[..open])?;
        let close = open + pattern[open..].find('}')?;
        let name = &pattern[open + 1..close];
        pattern = &pattern[close + 1..];
        let literal = &pattern[..pattern.find('{').unwrap_or(pattern.len())];
        let end = if literal.is_empty() {
            text.len()
        } else {
            text.find(literal)?
        };
        out.push((name, text[..end].to_string()));
        text = &text[end..];
    }
    (text == pattern).then_some(out)
}

/// `pattern` with each `{name}` replaced by its captured value.
fn fill(pattern: &str, captured: &[(&str, String)]) -> String {
    captured
        .iter()
        .fold(pattern.to_string(), |out, (name, value)| {
            out.replace(&format!("{{{name}}}"), value)
        })
}

fn variant(e: &SemanticError) -> &'static str {
    match e {
        SemanticError::Amount { .. } => "Amount",
        SemanticError::Overlap { .. } => "Overlap",
        SemanticError::Model(_) => "Model",
        SemanticError::Embedder { .. } => "Embedder",
        SemanticError::NoEmbedder { .. } => "NoEmbedder",
    }
}

/// The row of [`ERROR_MAP`] that maps our error `e` on `request`, with the
/// values its message gives; fails unless exactly one does.
fn mapped(e: &Error, request: &Value) -> (&'static Row, Vec<(&'static str, String)>) {
    let Error::Semantic(semantic) = e else {
        panic!("{request}: not a semantic error: {e}")
    };
    let message = semantic.to_string();
    let reach = Reach::of(request);
    let rows: Vec<_> = ERROR_MAP
        .iter()
        .filter(|row| row.variant == variant(semantic))
        .filter_map(|row| captures(row.ours, &message).map(|c| (row, c)))
        .filter(|(row, c)| reach.holds(row.when, c))
        .collect();
    let [(row, captured)] = <[_; 1]>::try_from(rows).unwrap_or_else(|rows| {
        let names: Vec<_> = rows.iter().map(|(row, _)| row.name).collect();
        panic!("{request}: our error {e:?} ({message}) is mapped by {names:?}, not by one row")
    });
    assert_eq!(e.setting(), row.setting, "{request}: {message}");
    (row, captured)
}

/// What was compared, counted by what it exercised.
#[derive(Default)]
struct Comparison {
    counts: BTreeMap<String, usize>,
    /// Cases compared chunk by chunk.
    compared: usize,
    /// Cases where both raised, compared exception by exception.
    errors: usize,
    /// Cases this engine refused on its own ([`ERROR_MAP`]'s refusals).
    refused: usize,
}

impl Comparison {
    fn count(&mut self, what: impl Into<String>) {
        *self.counts.entry(what.into()).or_default() += 1;
    }

    fn case(&mut self, request: &Value, answer: &Value) {
        let text = request["text"].as_str().unwrap();
        let settings = settings_of(request);
        let exact = request["kind"] == "integers";
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
            embedder: EmbedderChoice::named("given"),
            ..settings
        };
        let result = semantic::langchain_chunks(text, &settings, given.as_ref());
        if let Some(fault) = request["fault"].as_str() {
            self.count(format!("fault: {fault}"));
        }
        let ours = match (result, answer.get("error")) {
            (Ok(ours), None) => ours,
            (Ok(ours), Some(error)) => panic!(
                "SemanticChunker raised {error}: {}, we give {} chunks, on {request}",
                answer["message"],
                ours.chunks.len()
            ),
            (Err(e), _) => return self.error(request, answer, &settings, &given, e),
        };
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
        let out = strategy_split(text, settings, &given)
            .unwrap_or_else(|e| panic!("{request}: the strategy refused: {e}"));
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

    /// A case where this engine errs: [`ERROR_MAP`] says what
    /// `SemanticChunker` does instead, and it must be what it did; the
    /// strategy must give the same error.
    fn error(
        &mut self,
        request: &Value,
        answer: &Value,
        settings: &SemanticConfig,
        given: &Arc<Given>,
        e: Error,
    ) {
        let (row, captured) = mapped(&e, request);
        let theirs = answer.get("error").map(|class| {
            (
                class.as_str().unwrap(),
                answer["message"].as_str().unwrap().to_string(),
            )
        });
        match (row.theirs, theirs) {
            (Theirs::Raises(class, message), Some(theirs)) => {
                assert_eq!(
                    (class, fill(message, &captured)),
                    theirs,
                    "{request}: our error ({e}) is this exception, SemanticChunker raised another"
                );
                self.errors += 1;
            }
            (Theirs::Raises(class, _), None) => panic!(
                "{request}: we raise ({e}, LangChain's {class}), SemanticChunker gives chunks: {answer}"
            ),
            (Theirs::Chunks, None) => self.refused += 1,
            (Theirs::Chunks, Some(_)) => panic!(
                "{request}: we refuse ({e}) where SemanticChunker goes on, but it raised: {answer}"
            ),
            (Theirs::RaisesOnTheVectors, theirs) => {
                let expected = Reach::of(request).vectors;
                assert_eq!(
                    theirs, expected,
                    "{request}: we refuse the amount ({e}) where SemanticChunker raises on the vectors first"
                );
                self.refused += 1;
            }
        }
        self.count(row.name);
        let split = strategy_split(request["text"].as_str().unwrap(), settings.clone(), given);
        assert_eq!(
            split.err(),
            Some(e),
            "{request}: the strategy does not give the same error"
        );
    }

    /// Whether no refusal of [`ERROR_MAP`] is counted more often than
    /// [`REFUSAL_CEILINGS`] allows; the first that is, if one is.
    fn within_refusal_ceilings(&self) -> Result<(), String> {
        for (what, ceiling) in REFUSAL_CEILINGS {
            let now = self.get(what);
            if now > ceiling {
                return Err(format!("{what}: {now} cases, more than {ceiling}"));
            }
        }
        Ok(())
    }

    fn finish(&self, oracle: &str) {
        eprintln!(
            "{} cases compared with {oracle}, chunk texts exactly; {} where both raised, \
             the same exception and message; {} refused by this engine:",
            self.compared, self.errors, self.refused
        );
        for (what, n) in &self.counts {
            eprintln!("  {what}: {n}");
        }
        assert!(
            self.compared >= MIN_CASES,
            "only {} cases compared",
            self.compared
        );
        assert!(
            self.errors >= MIN_ERROR_CASES,
            "only {} cases where both raised",
            self.errors
        );
        for row in &ERROR_MAP {
            if let Theirs::Raises(..) = row.theirs {
                let n = self.get(row.name);
                assert!(n >= MIN_EACH_ERROR, "{}: only {n} cases", row.name);
            }
        }
        if let Err(problem) = self.within_refusal_ceilings() {
            panic!("{problem}");
        }
    }

    fn get(&self, what: &str) -> usize {
        self.counts.get(what).copied().unwrap_or(0)
    }
}

/// The semantic strategy with these settings and a size no chunk reaches,
/// on `text`: LangChain's chunks as spans, or the error.
/// The semantic strategy on `text`, its settings naming `given` ("given").
fn strategy_split(
    text: &str,
    settings: SemanticConfig,
    given: &Arc<Given>,
) -> Result<chunkscope::Output, Error> {
    let config = Config {
        strategy: StrategyConfig::Semantic(settings),
        size: usize::MAX / 2,
        ..Config::for_strategy(Strategy::Semantic)
    };
    let resources = chunkscope::Resources::new().with_embedder("given", given.clone())?;
    Splitter::new(config, &resources).and_then(|s| s.split(text))
}

/// A wrong answer to plant: what it changes, and how.
type Plant = (&'static str, fn(&mut Value));

/// A wrong answer planted into a recorded case fails the comparison: one
/// changed chunk, start index, breakpoint, distance or threshold, and an
/// exception where SemanticChunker answered (one it really raises
/// elsewhere, too).
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
    let plants: [Plant; 7] = [
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
        (
            "an exception the map knows",
            |a| *a = json!({"error": "IndexError", "message": "list index out of range"}),
        ),
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

/// Whether comparing `answer` to `request` fails.
fn caught(request: &Value, answer: &Value) -> bool {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        Comparison::default().case(request, answer)
    }))
    .is_err()
}

/// The recorded cases compared, and the first case counted under each key.
struct Recorded {
    comparison: Comparison,
    first: BTreeMap<String, usize>,
    vectors: Vectors,
}

impl Recorded {
    fn compare() -> Recorded {
        let vectors = Vectors::read(VECTORS);
        let mut comparison = Comparison::default();
        let mut first = BTreeMap::new();
        for (i, (request, answer)) in vectors.cases.iter().enumerate() {
            let mut one = Comparison::default();
            one.case(request, answer);
            for (what, n) in one.counts {
                first.entry(what.clone()).or_insert(i);
                *comparison.counts.entry(what).or_default() += n;
            }
        }
        Recorded {
            comparison,
            first,
            vectors,
        }
    }

    /// The first recorded case counted under `what`.
    fn case(&self, what: &str) -> &(Value, Value) {
        let i = self
            .first
            .get(what)
            .unwrap_or_else(|| panic!("no recorded case counted under {what:?}"));
        &self.vectors.cases[*i]
    }
}

/// A wrong exception planted into a recorded case fails the comparison:
/// for each exception the map knows, a message changed by one character, the
/// other class, and chunks where SemanticChunker raised; an exception where
/// we refuse because it goes on to chunks; another message where it raises
/// on the vectors before the amount we refuse; and one refusal more than its
/// ceiling.
#[test]
fn a_planted_wrong_exception_is_caught() {
    let recorded = Recorded::compare();
    let other_class = |class: &str| match class {
        "IndexError" => "ValueError",
        _ => "IndexError",
    };
    for row in &ERROR_MAP {
        let Theirs::Raises(class, _) = row.theirs else {
            continue;
        };
        let (request, answer) = recorded.case(row.name);
        assert_eq!(answer["error"], class, "{request}");
        let message = answer["message"].as_str().unwrap();
        let plants = [
            (
                "a message with a character more",
                json!({"error": class, "message": format!("{message}.")}),
            ),
            (
                "a message with a character less",
                json!({"error": class, "message": &message[..message.len() - 1]}),
            ),
            (
                "another class",
                json!({"error": other_class(class), "message": message}),
            ),
            (
                "chunks where it raised",
                json!({
                    "chunks": [request["text"]],
                    "start_indices": [0],
                    "embedded": null,
                    "distances": [],
                    "threshold": null,
                    "breakpoints": [],
                }),
            ),
        ];
        for (what, wrong) in plants {
            assert!(
                caught(request, &wrong),
                "{}: {what} planted into {request}, not caught",
                row.name
            );
        }
    }
    // Where we refuse because SemanticChunker goes on to chunks, its raising
    // is a difference, not one more refusal.
    for row in ERROR_MAP
        .iter()
        .filter(|row| matches!(row.theirs, Theirs::Chunks))
    {
        let (request, answer) = recorded.case(row.name);
        assert!(answer.get("error").is_none(), "{request}");
        for wrong in [
            json!({"error": "ValueError", "message": "Percentiles must be in the range [0, 100]"}),
            json!({"error": "IndexError", "message": "list index out of range"}),
        ] {
            assert!(
                caught(request, &wrong),
                "{}: {wrong} planted into {request}, not caught",
                row.name
            );
        }
    }
    // Where we refuse the amount and SemanticChunker raises on the vectors
    // first, it must raise exactly that.
    let row = &ERROR_MAP[3];
    assert!(matches!(row.theirs, Theirs::RaisesOnTheVectors));
    let (request, answer) = recorded.case(row.name);
    let message = answer["message"].as_str().unwrap();
    for wrong in [
        json!({"error": answer["error"], "message": format!("{message}.")}),
        json!({"error": other_class(answer["error"].as_str().unwrap()), "message": message}),
        json!({"error": "ValueError", "message": "Percentiles must be in the range [0, 100]"}),
        json!({"chunks": [request["text"]], "start_indices": [0], "embedded": null,
               "distances": [], "threshold": null, "breakpoints": []}),
    ] {
        assert!(
            caught(request, &wrong),
            "{}: {wrong} planted into {request}, not caught",
            row.name
        );
    }
    // One refusal more than today's, of any kind, breaks its ceiling.
    let comparison = &recorded.comparison;
    assert_eq!(comparison.within_refusal_ceilings(), Ok(()));
    for (what, ceiling) in REFUSAL_CEILINGS {
        // Today's count exactly: the ceiling is not loose.
        assert_eq!(comparison.get(what), ceiling, "{what}");
        let mut planted = Comparison {
            counts: comparison.counts.clone(),
            ..Comparison::default()
        };
        planted.count(what);
        assert!(
            planted.within_refusal_ceilings().is_err(),
            "{what}: one more refusal went unnoticed"
        );
    }
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
    assert_eq!(
        comparison.compared + comparison.errors + comparison.refused,
        vectors.cases.len()
    );
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
