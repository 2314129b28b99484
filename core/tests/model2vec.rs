//! Static models in model2vec's format against the real `model2vec`
//! (`StaticModel`, pinned in tests/reference/langchain/requirements.txt).
//!
//! Each case describes a tiny model (a WordPiece, WordLevel or Unigram
//! vocabulary of random pieces, a normalizer and pre-tokenizer, special
//! tokens, a float32 or float16 table of random values, `normalize`,
//! `max_length`) and a dozen random texts. `tests/reference/langchain/
//! model2vec_driver.py` builds the model with the `tokenizers` library,
//! saves it with `save_pretrained`, loads it with `from_pretrained` and
//! answers with the saved files, the token ids and `encode`'s vectors. We
//! read the same files and must give the same ids exactly and the same
//! vectors to 1e-6.
//!
//! `cargo test` replays `tests/vectors/model2vec.jsonl.gz`;
//! the ignored live test asks the driver now; `./x vectors` records them
//! again.

use chunkscope::semantic::{Embedder, StaticModel, Vector};
use oracle::Vectors;
use serde_json::{json, Value};
use std::collections::BTreeMap;

mod oracle;

const VECTORS: &str = "model2vec";
const SEED: u64 = 0x6d32_7665;
const MODELS: usize = 150;
const TEXTS: usize = 12;
/// At least this many texts must be compared vector by vector.
const MIN_TEXTS: usize = 1500;

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
    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
}

/// Letters (with accents, a capital, a CJK ideograph and kana), digits and
/// punctuation: what the normalizers and pre-tokenizers treat differently.
const CHARS: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'o', 'r', 's', 't', 'A', 'B', 'É', 'é', 'ü', 'ß', '中', '文', 'の',
    '1', '2', ',', '.', '!', '-', '\'', '_', 'ﬁ', '\u{301}',
];
const SPACES: &[&str] = &[" ", " ", " ", "  ", "\n", "\t", "\u{a0}", ""];

fn word(rng: &mut Rng, max: usize) -> String {
    (0..1 + rng.below(max)).map(|_| rng.pick(CHARS)).collect()
}

fn text(rng: &mut Rng, pool: &[String], specials: &[&str]) -> String {
    let mut t = String::new();
    for _ in 0..rng.below(14) {
        if !specials.is_empty() && rng.below(12) == 0 {
            t.push_str(rng.pick(specials));
        } else if rng.below(3) > 0 {
            t.push_str(&pool[rng.below(pool.len())]);
        } else {
            t.push_str(&word(rng, 6));
        }
        t.push_str(rng.pick(SPACES));
    }
    t
}

fn requests(seed: u64) -> Vec<Value> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for m in 0..MODELS {
        let kind = ["WordPiece", "WordLevel", "Unigram"][m % 3];
        let pool: Vec<String> = (0..20).map(|_| word(&mut rng, 5)).collect();
        let lower = |s: &str| s.to_lowercase();
        let mut vocab: Vec<String> = Vec::new();
        let push = |t: String, vocab: &mut Vec<String>| {
            if !t.is_empty() && !vocab.contains(&t) {
                vocab.push(t);
            }
        };
        let unk = match kind {
            "Unigram" => "<unk>",
            _ => "[UNK]",
        };
        let with_unk = true;
        if with_unk {
            push(unk.to_string(), &mut vocab);
        }
        for _ in 0..25 + rng.below(30) {
            let base = if rng.below(2) == 0 {
                pool[rng.below(pool.len())].clone()
            } else {
                word(&mut rng, 3)
            };
            let base = if rng.below(3) > 0 { lower(&base) } else { base };
            let cut: String = base.chars().take(1 + rng.below(4)).collect();
            let token = match (kind, rng.below(3)) {
                ("WordPiece", 0) => format!("##{cut}"),
                ("WordLevel", _) => base,
                ("Unigram", 0) => format!("▁{cut}"),
                _ => cut,
            };
            push(token, &mut vocab);
        }
        for c in CHARS.iter().filter(|_| rng.below(2) == 0) {
            push(c.to_string(), &mut vocab);
            if kind == "WordPiece" {
                push(format!("##{c}"), &mut vocab);
            }
        }
        let normalizer = rng.pick(&[
            Value::Null,
            json!("bert"),
            json!("bert-cased"),
            json!("nfd-lower-strip"),
            json!("nfkc"),
        ]);
        let pre = match kind {
            "Unigram" => "metaspace",
            _ => rng.pick(&["bert", "whitespace", "whitespace-split"]),
        };
        let added: Vec<&str> = ["[CLS]", "[SEP]"]
            .into_iter()
            .filter(|_| rng.below(2) == 0)
            .collect();
        // 130: NumPy's norm sums a row of more than 128 in two halves.
        let dims = if rng.below(15) == 0 {
            130
        } else {
            rng.pick(&[2, 3, 4, 5, 8, 12, 17])
        };
        let dtype = rng.pick(&["F32", "F32", "F16"]);
        let rows = vocab.len() + added.len();
        let bits: Vec<u64> = (0..rows * dims)
            .map(|_| {
                if dtype == "F32" {
                    let x = (rng.next() % (1 << 24)) as f32 / (1 << 23) as f32 - 1.0;
                    u64::from(x.to_bits())
                } else {
                    (rng.next() & 0x8000)
                        | ((10 + rng.below(7) as u64) << 10)
                        | (rng.next() & 0x3ff)
                }
            })
            .collect();
        let scores: Value = if kind == "Unigram" {
            json!(vocab
                .iter()
                .map(|_| -((1 + rng.below(2000)) as f64) / 100.0)
                .collect::<Vec<_>>())
        } else {
            Value::Null
        };
        let max_length = rng.pick(&[json!(512), json!(512), Value::Null, json!(3), json!(7)]);
        let texts: Vec<String> = (0..TEXTS).map(|_| text(&mut rng, &pool, &added)).collect();
        out.push(json!({
            "model": kind,
            "vocab": vocab,
            "scores": scores,
            "unk": if kind != "Unigram" && with_unk { json!(unk) } else { Value::Null },
            "unk_id": if kind == "Unigram" { json!(0) } else { Value::Null },
            "max_chars": if kind == "WordPiece" { rng.pick(&[Value::Null, json!(4)]) } else { Value::Null },
            "normalizer": normalizer,
            "pre_tokenizer": pre,
            "added": added,
            "dtype": dtype,
            "bits": bits,
            "dims": dims,
            "normalize": rng.below(2) == 0,
            "max_length": max_length,
            "texts": texts,
        }));
    }
    out
}

fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let mut out = Vec::new();
    let (mut acc, mut bits) = (0u32, 0);
    for &c in text.as_bytes().iter().filter(|&&c| c != b'=') {
        acc = acc << 6 | u32::from(value(c));
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    out
}

/// What was compared, counted by what it exercised.
#[derive(Default)]
struct Comparison {
    texts: usize,
    counts: BTreeMap<String, usize>,
}

impl Comparison {
    fn count(&mut self, what: impl Into<String>) {
        *self.counts.entry(what.into()).or_default() += 1;
    }

    fn case(&mut self, request: &Value, answer: &Value) {
        let files = &answer["files"];
        let model = StaticModel::from_model2vec(
            "case",
            &base64(files["model.safetensors"].as_str().unwrap()),
            files["tokenizer.json"].as_str().unwrap().as_bytes(),
            Some(files["config.json"].as_str().unwrap().as_bytes()),
        )
        .unwrap_or_else(|e| panic!("{e} for {request}"));
        let texts: Vec<String> = request["texts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().to_string())
            .collect();
        let ours = model.embed(&texts).unwrap();
        for (i, text) in texts.iter().enumerate() {
            let ids: Vec<u32> = answer["ids"][i]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap() as u32)
                .collect();
            let tokenizer = files["tokenizer.json"].as_str().unwrap();
            assert_eq!(
                model.token_ids(text).unwrap(),
                ids,
                "ids of {text:?} with {tokenizer}"
            );
            let theirs: Vec<f64> = answer["vectors"][i]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            let Vector::Dense(v) = &ours[i] else {
                panic!("a static model's vectors are dense")
            };
            assert_eq!(v.len(), theirs.len());
            for (d, (a, b)) in v.iter().zip(&theirs).enumerate() {
                assert!(
                    (a - b).abs() <= 1e-6,
                    "dimension {d} of {text:?}: ours {a}, model2vec {b} ({request})"
                );
            }
            self.texts += 1;
            if ids.len() >= 5 {
                self.count("  a text of 5 tokens or more");
            }
            if ids.is_empty() {
                self.count("  a text with no known token (zero vector)");
            }
            if request["added"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| text.contains(t.as_str().unwrap()))
            {
                self.count("  a text with a special token");
            }
            if request["max_length"]
                .as_u64()
                .is_some_and(|m| ids.len() as u64 == m)
            {
                self.count("  a text cut at max_length");
            }
        }
        for key in ["model", "dtype", "normalizer", "pre_tokenizer"] {
            self.count(format!("{key} {}", request[key]));
        }
        if request["dims"] == json!(130) {
            self.count("dims 130");
        }
        if request["normalize"] == json!(true) {
            self.count("normalize");
        }
    }

    fn finish(&self, oracle: &str) {
        eprintln!(
            "{} texts compared with {oracle}, vectors to 1e-6, ids exactly:",
            self.texts
        );
        for (what, n) in &self.counts {
            eprintln!("  {what}: {n}");
        }
        assert!(
            self.texts >= MIN_TEXTS,
            "only {} texts compared",
            self.texts
        );
        for what in [
            "model \"WordPiece\"",
            "model \"Unigram\"",
            "model \"WordLevel\"",
            "dtype \"F16\"",
            "normalize",
            "  a text with a special token",
            "  a text cut at max_length",
            "  a text of 5 tokens or more",
            "dims 130",
        ] {
            let n = self.counts.get(what).copied().unwrap_or(0);
            assert!(n >= 5, "{what}: only {n} cases");
        }
    }
}

fn ask_model2vec(requests: &[Value]) -> (Value, Vec<Value>) {
    let python = std::env::var("CHUNKSCOPE_LANGCHAIN_PYTHON").unwrap_or_else(|_| {
        panic!(
            "CHUNKSCOPE_LANGCHAIN_PYTHON is not set. Comparing with the real model2vec needs it; \
             `./x test` and `./x vectors` create the pinned virtualenv \
             (tests/reference/langchain/requirements.txt) and set it to its python"
        )
    });
    let driver = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/reference/langchain/model2vec_driver.py"
    );
    let mut sent = vec![json!({"op": "versions"})];
    sent.extend_from_slice(requests);
    let mut answers = oracle::ask(&python, driver, &sent);
    let versions = answers.remove(0);
    (versions, answers)
}

#[test]
fn identical_to_the_recorded_model2vec() {
    let vectors = Vectors::read(VECTORS);
    let mut comparison = Comparison::default();
    for (request, answer) in &vectors.cases {
        comparison.case(request, answer);
    }
    comparison.finish(&format!(
        "the recorded model2vec {}",
        vectors.header["packages"]["model2vec"]
            .as_str()
            .unwrap_or("?")
    ));
}

#[test]
#[ignore = "asks the pinned model2vec (CHUNKSCOPE_LANGCHAIN_PYTHON); `./x test` runs it: cargo test -- --ignored live"]
fn identical_to_the_live_model2vec() {
    let requests = requests(SEED);
    let (versions, answers) = ask_model2vec(&requests);
    let mut comparison = Comparison::default();
    for (request, answer) in requests.iter().zip(&answers) {
        comparison.case(request, answer);
    }
    comparison.finish("model2vec");
    Vectors::read(VECTORS).check_current(VECTORS, &versions, true, &requests, &answers);
}

#[test]
#[ignore = "writes tests/vectors/model2vec.jsonl.gz with the pinned model2vec; run by `./x vectors`"]
fn record_vectors() {
    let requests = requests(SEED);
    let (versions, answers) = ask_model2vec(&requests);
    let mut header = json!({
        "oracle": "tests/reference/langchain/model2vec_driver.py: model2vec StaticModel",
        "generator": "core/tests/model2vec.rs",
        "seed": SEED,
    });
    for (key, value) in versions.as_object().unwrap() {
        header[key] = value.clone();
    }
    Vectors::write(VECTORS, header, &requests, &answers);
}
