//! What the differential tests of other libraries' splitters share
//! (`semchunk.rs`, `chonkie.rs`, `chonkie_token.rs`, `chonkie_sentence.rs`,
//! `llamaindex.rs`, `llamaindex_token.rs`, `llamaindex_markdown.rs`,
//! `text_splitter.rs`): the cases'
//! random numbers, our answer to
//! a case in the driver's shape, the comparison with its counts and its
//! ceiling on refusals of our own, the planted wrong answers every harness
//! must catch, and asking the driver.
//!
//! A driver (`tests/reference/<library>/driver.py`) answers a case
//! `{"text", "size", "unit", "overlap"?, "trim"?,
//! "min_characters_per_chunk"?}` with `{"chunks": [str],
//! "offsets": [[start, end]]}` (char offsets; `null` where the library
//! found none), with `"metadata": [{key: value}]` for a library that gives
//! each chunk some, or with `{"error": class, "message": str}` where the
//! library raises; anything else it adds is not compared.

use super::oracle::{self, Vectors};
use super::tokenizer;
use chunkscope::{Error, Settings, Splitter, Strategy, Unit};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Words of one byte a char, of several, and of several tokens a char.
#[allow(dead_code, reason = "only some test binaries draw from it")]
pub const WORDS: &[&str] = &[
    "refunds",
    "take",
    "five",
    "business",
    "days",
    "UPI",
    "x",
    "a",
    "café",
    "naïve",
    "東京",
    "日本語の文章",
    "😀",
    "👩‍👩‍👧",
    "ਪੰਜਾਬੀ",
    "Ελληνικά",
    "supercalifragilistic",
    "3.14",
    "don't",
    "\u{200b}",
    "e.g.",
];
/// Whitespace to Python's `str.strip`, some of it not to Rust's: texts of
/// it alone give no chunk in the libraries that strip.
#[allow(dead_code, reason = "only some test binaries draw from it")]
pub const SPACES: &[&str] = &[
    " ", "\n", "\t", "\u{a0}", "\u{3000}", "\x1c", "\x1f", "\u{2028}", "\r\n",
];

/// SplitMix64, so the cases are the same on every machine.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// The cases of a chunker with a size and an overlap (chonkie's
/// `TokenChunker`, `"chunker": "token"`, and `SentenceChunker`,
/// `"sentence"`): for each unit, its count of texts from `text`, each with a
/// size (0, chonkie's first `ValueError`, in one case of fifty; 1 to 3 in
/// one of ten; else up to `most.0` chars or `most.1` tokens) and an overlap
/// (none, one below the size, the size and past it, chonkie's second
/// `ValueError`, or in between). The same seed gives the same cases.
#[allow(dead_code, reason = "only the chonkie test binaries ask for these")]
pub fn overlapping_requests(
    seed: u64,
    chunker: &str,
    cases: &[(&str, usize)],
    most: (usize, usize),
    text: fn(&mut Rng, &str) -> String,
) -> Vec<Value> {
    let mut rng = Rng(seed);
    let mut requests = Vec::new();
    for &(unit, count) in cases {
        for _ in 0..count {
            let text = text(&mut rng, unit);
            let size = match rng.below(100) {
                0..=1 => 0,
                2..=11 => 1 + rng.below(3),
                _ if unit == "chars" => 1 + rng.below(most.0),
                _ => 1 + rng.below(most.1),
            };
            let overlap = match rng.below(20) {
                0..=5 => 0,
                6..=8 => size.saturating_sub(1),
                9 => size,
                10 => size + 1 + rng.below(5),
                _ => rng.below(size.max(1)),
            };
            requests.push(json!({
                "chunker": chunker,
                "text": text,
                "size": size,
                "overlap": overlap,
                "unit": unit,
            }));
        }
    }
    requests
}

/// What the recorded answers in `tests/vectors/<vectors>.jsonl.gz` reach,
/// read from the library's answers alone: `look` sees each case (its
/// request and answer) and names each quirk it finds to `saw`; tiktoken's
/// error on a special token (`"a special token's error"`) is found here
/// by its message. Each of `quirks` must be reached at least 20 times.
#[allow(dead_code, reason = "only the test binaries that count quirks ask")]
pub fn assert_quirks_reached(
    vectors: &str,
    quirks: &[&str],
    mut look: impl FnMut(&Value, &Value, &mut dyn FnMut(&'static str)),
) {
    let vectors = Vectors::read(vectors);
    let mut seen = BTreeMap::<&str, usize>::new();
    for (request, answer) in &vectors.cases {
        let mut saw = |what: &'static str| *seen.entry(what).or_default() += 1;
        if answer["message"]
            .as_str()
            .is_some_and(|m| m.contains("disallowed special token"))
        {
            saw("a special token's error");
        }
        look(request, answer, &mut saw);
    }
    eprintln!("{seen:?}");
    for what in quirks {
        let n = seen.get(what).copied().unwrap_or(0);
        assert!(n >= 20, "{what}: only {n}");
    }
}

/// A recorded case: the request and the library's answer.
type Case = (Value, Value);
/// A change planted into an answer.
type Plant = dyn Fn(&mut Value);

/// One library's harness.
pub struct Library {
    /// Its name in messages.
    pub name: &'static str,
    /// The strategy that reproduces it.
    pub strategy: Strategy,
    /// `tests/vectors/<vectors>.jsonl.gz`.
    pub vectors: &'static str,
    /// Its driver, from the repository's root.
    pub driver: &'static str,
    /// Refusals of our own allowed.
    pub ceiling: usize,
    /// What the library raises where the engine refuses, for the errors
    /// that have an equivalent: `(class, message)`.
    pub exception: fn(&Error) -> Option<(&'static str, String)>,
    /// Whether the library's message may go on past ours (Python's
    /// `RecursionError` names the call it was in after the words we give).
    pub message_prefix: bool,
    /// Whether the library raises on some recorded case, so that wrong
    /// errors can be planted (`MarkdownNodeParser` raises on none).
    pub raises: bool,
}

impl Library {
    /// One of chonkie's chunkers (`strategy`), through its driver: its
    /// `ValueError`s are compared word for word.
    #[allow(dead_code, reason = "only the chonkie test binaries build one")]
    pub const fn chonkie(strategy: Strategy, vectors: &'static str, ceiling: usize) -> Library {
        Library {
            name: "chonkie",
            strategy,
            vectors,
            driver: "tests/reference/chonkie/driver.py",
            ceiling,
            exception: |e| match e {
                Error::Chonkie(e) => e.library_exception(),
                _ => None,
            },
            message_prefix: false,
            raises: true,
        }
    }

    /// One of LlamaIndex's splitters (`strategy`), through its driver: its
    /// `ValueError`s are compared word for word.
    #[allow(dead_code, reason = "only the llamaindex test binaries build one")]
    pub const fn llamaindex(strategy: Strategy, vectors: &'static str, ceiling: usize) -> Library {
        let raises = !matches!(strategy, Strategy::LlamaIndexMarkdown);
        Library {
            name: "llama-index-core",
            strategy,
            vectors,
            driver: "tests/reference/llamaindex/driver.py",
            ceiling,
            exception: |e| match e {
                Error::LlamaIndex(e) => e.library_exception(),
                _ => None,
            },
            message_prefix: false,
            raises,
        }
    }

    /// Our answer to a request, in the driver's shape: the chunks and their
    /// char offsets, or the exception the library raises where this engine
    /// refuses; `Err` for a refusal of this engine's own. The request's
    /// settings are read as the written form ([`Settings`]) reads them, so
    /// a strategy's own setting reaches its engine as any caller's would.
    pub fn ours(&self, request: &Value) -> Result<Value, Error> {
        let unit: Unit = request["unit"].as_str().unwrap().parse().unwrap();
        if let Unit::Tokens(_) = unit {
            tokenizer::counter(unit);
        }
        let count = |field: &str| {
            let value = &request[field];
            // A field given as anything but a count is a mistake of the
            // generator, not a default.
            assert!(value.is_null() || value.is_u64(), "{field}: {value}");
            value.as_u64().map(|n| n as usize)
        };
        let config = Settings {
            strategy: Some(self.strategy),
            size: count("size"),
            overlap: count("overlap"),
            trim: request["trim"].as_bool(),
            unit: Some(unit),
            min_characters_per_chunk: count("min_characters_per_chunk"),
            ..Settings::default()
        }
        .resolve()
        .unwrap_or_else(|e| panic!("{request}: {e}"));
        let text = request["text"].as_str().unwrap();
        match Splitter::new(config, &crate::tokenizer::resources())
            .and_then(|s| s.analyze(text, Default::default()))
        {
            Ok(analysis) => {
                let output = &analysis.output;
                let chunks: Vec<&str> = (0..output.chunks.len())
                    .map(|i| output.chunk_text(i, text))
                    .collect();
                // The library's own offsets where it gives them (they drift
                // where its text is not a slice, and a start of -1 is one
                // it did not find: LlamaIndex's None), else the chunk's.
                let offsets: Vec<Value> = analysis
                    .chunk_chars
                    .iter()
                    .zip(&chunks)
                    .enumerate()
                    .map(|(i, (&(start, end), chunk))| {
                        match output.library.as_ref().and_then(|l| l[i].start_index) {
                            Some(start) if start < 0 => json!([null, null]),
                            Some(start) => json!([start, start + chunk.chars().count() as i64]),
                            None => json!([start, end]),
                        }
                    })
                    .collect();
                let metadata: Option<Vec<Value>> = output.library.as_ref().and_then(|facts| {
                    facts
                        .iter()
                        .map(|f| {
                            f.metadata()
                                .map(|m| m.iter().map(|(k, v)| (k.clone(), json!(v))).collect())
                        })
                        .collect()
                });
                Ok(match metadata {
                    Some(metadata) => {
                        json!({"chunks": chunks, "offsets": offsets, "metadata": metadata})
                    }
                    None => json!({"chunks": chunks, "offsets": offsets}),
                })
            }
            Err(e) => match (self.exception)(&e) {
                Some((class, message)) => Ok(json!({"error": class, "message": message})),
                None => Err(e),
            },
        }
    }

    /// Compares every case; fails on the first few that differ.
    pub fn compare_all(&self, cases: &[(Value, Value)]) -> Comparison {
        let mut comparison = Comparison::default();
        let mut failures = Vec::new();
        for (request, theirs) in cases {
            if let Err(e) = comparison.case(self, request, theirs, self.ours(request)) {
                failures.push(e);
            }
        }
        assert!(
            failures.is_empty(),
            "{} of {} cases differ from {}; the first ones:\n{}",
            failures.len(),
            cases.len(),
            self.name,
            failures
                .iter()
                .take(5)
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
        comparison
    }

    /// The recorded cases: every one compared or counted, at least 2 000
    /// with identical chunks, 400 of them in tokens, and at least 20 of
    /// each kind in `kinds` (the counts [`Comparison::case`] keeps).
    #[allow(
        dead_code,
        reason = "a splitter with no size asks for no cases in tokens"
    )]
    pub fn compare_recorded(&self, kinds: &[&str]) {
        self.compare_recorded_in_tokens(kinds, 400);
    }

    /// [`compare_recorded`](Self::compare_recorded) with `tokens` cases in
    /// tokens at least: none for a splitter with no size, whose unit only
    /// measures the chunks it gives.
    pub fn compare_recorded_in_tokens(&self, kinds: &[&str], tokens: usize) {
        let vectors = Vectors::read(self.vectors);
        let comparison = self.compare_all(&vectors.cases);
        let version = vectors.header["packages"][self.name]
            .as_str()
            .unwrap_or("?");
        comparison.finish(self, &format!("the recorded {} {version}", self.name));
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
            comparison.get("chunks in cl100k") + comparison.get("chunks in o200k") >= tokens,
            "too few token cases"
        );
        for what in kinds {
            let n = comparison.get(what);
            assert!(n >= 20, "{what}: only {n}");
        }
    }

    /// Every wrong answer planted into a recorded case is caught: a chunk's
    /// text, one chunk fewer, an offset, an exception where there are
    /// chunks, a chunk's metadata where the library gives some, and where
    /// it raises ([`Library::raises`]) chunks instead, another class,
    /// another message; and one refusal over the ceiling.
    pub fn assert_planted_answers_fail(&self) {
        let vectors = Vectors::read(self.vectors);
        let find = |f: &dyn Fn(&Value) -> bool| {
            vectors
                .cases
                .iter()
                .find(|(request, answer)| f(answer) && self.ours(request).is_ok())
                .cloned()
                .expect("a case to plant into")
        };
        let chunked = find(&|a| {
            a.get("chunks")
                .is_some_and(|c| c.as_array().unwrap().len() > 1)
        });
        let caught = |(request, answer): &(Value, Value), f: &dyn Fn(&mut Value)| {
            let mut wrong = answer.clone();
            f(&mut wrong);
            Comparison::default()
                .case(self, request, &wrong, self.ours(request))
                .is_err()
        };
        let mut plants: Vec<(&str, &Case, &Plant)> = vec![
            ("a chunk's text", &chunked, &|a| {
                let first = a["chunks"][0].as_str().unwrap().to_string();
                a["chunks"][0] = json!(format!("{first} "));
            }),
            ("one chunk fewer", &chunked, &|a| {
                a["chunks"].as_array_mut().unwrap().pop();
                a["offsets"].as_array_mut().unwrap().pop();
            }),
            ("an offset", &chunked, &|a| {
                // `null` where the library found no offset.
                let end = a["offsets"][0][1].as_u64().unwrap_or(0);
                a["offsets"][0][1] = json!(end + 1);
            }),
            (
                "an exception where there are chunks",
                &chunked,
                &|a| {
                    *a = json!({"error": "ValueError", "message": "chunk_size must be greater than 0"})
                },
            ),
        ];
        let metadata: &Plant = &|a| a["metadata"][0] = json!({"header_path": "/planted/"});
        if chunked.1.get("metadata").is_some() {
            plants.push(("a chunk's metadata", &chunked, metadata));
        }
        let raising = self.raises.then(|| find(&|a| a.get("error").is_some()));
        let errors: [(&str, &Plant); 3] = [
            ("chunks where it raises", &|a| {
                *a = json!({"chunks": [], "offsets": []})
            }),
            ("another exception class", &|a| {
                a["error"] = json!("TypeError")
            }),
            ("another message", &|a| {
                a["message"] = json!("maximum depth exceeded")
            }),
        ];
        if let Some(raising) = &raising {
            plants.extend(errors.map(|(what, plant)| (what, raising, plant)));
        }
        for (what, case, plant) in plants {
            assert!(caught(case, plant), "{}: {what} went unnoticed", self.name);
        }
        let over = Comparison {
            refused: vec![String::new(); self.ceiling + 1],
            ..Comparison::default()
        };
        assert!(std::panic::catch_unwind(|| over.finish(self, "a planted refusal")).is_err());
    }

    /// Sends `requests` to the pinned library's driver: its versions, and
    /// one answer per request.
    pub fn ask(&self, requests: &[Value]) -> (Value, Vec<Value>) {
        let python = std::env::var("CHUNKSCOPE_LANGCHAIN_PYTHON").unwrap_or_else(|_| {
            panic!(
                "CHUNKSCOPE_LANGCHAIN_PYTHON is not set. Comparing with the real {} needs \
                 it; `./x test` and `./x vectors` create the pinned virtualenv \
                 (tests/reference/langchain/requirements.txt) and set it to its python",
                self.name
            )
        });
        let driver = format!("{}/../{}", env!("CARGO_MANIFEST_DIR"), self.driver);
        let mut sent = vec![json!({"op": "versions"})];
        sent.extend_from_slice(requests);
        let mut answers = oracle::ask(&python, &driver, &sent);
        let versions = answers.remove(0);
        (versions, answers)
    }

    /// The live comparison: the generator's cases sent to the library now,
    /// and the recorded file checked to hold its answers (`pins`: the
    /// header keys that must match).
    pub fn compare_live(&self, requests: &[Value], pins: &[&str]) {
        let (versions, answers) = self.ask(requests);
        let cases: Vec<(Value, Value)> = requests
            .iter()
            .cloned()
            .zip(answers.iter().cloned())
            .collect();
        self.compare_all(&cases).finish(self, "the live library");
        let pins: serde_json::Map<String, Value> = pins
            .iter()
            .map(|key| (key.to_string(), versions[key].clone()))
            .collect();
        Vectors::read(self.vectors).check_current(
            self.vectors,
            &Value::Object(pins),
            true,
            requests,
            &answers,
        );
    }

    /// Writes the recorded file from the library's answers now.
    pub fn record(&self, requests: &[Value], seed: u64, generator: &str) {
        let (versions, answers) = self.ask(requests);
        let mut header = json!({
            "oracle": self.driver,
            "generator": generator,
            "seed": seed,
        });
        for (key, value) in versions.as_object().unwrap() {
            header[key] = value.clone();
        }
        Vectors::write(self.vectors, header, requests, &answers);
    }
}

/// What a comparison counted.
#[derive(Default)]
pub struct Comparison {
    counts: BTreeMap<String, usize>,
    pub refused: Vec<String>,
}

impl Comparison {
    fn count(&mut self, what: impl Into<String>) {
        *self.counts.entry(what.into()).or_default() += 1;
    }

    pub fn get(&self, what: &str) -> usize {
        self.counts.get(what).copied().unwrap_or(0)
    }

    /// Compares one case; `Err` says how it differs.
    pub fn case(
        &mut self,
        library: &Library,
        request: &Value,
        theirs: &Value,
        ours: Result<Value, Error>,
    ) -> Result<(), String> {
        let name = library.name;
        let unit = request["unit"].as_str().unwrap();
        let answer_metadata = theirs.get("metadata");
        let ours = match ours {
            Ok(ours) => ours,
            Err(e) => {
                self.refused
                    .push(format!("{request}: {name} gives {theirs}, we refuse: {e}"));
                return Ok(());
            }
        };
        match (ours.get("error"), theirs.get("error")) {
            (Some(class), Some(their_class)) => {
                let message = ours["message"].as_str().unwrap();
                let their_message = theirs["message"].as_str().unwrap_or_default();
                let same = match library.message_prefix {
                    true => their_message.starts_with(message),
                    false => their_message == message,
                };
                if class != their_class || !same {
                    return Err(format!("{request}: {name} raises {theirs}, we say {ours}"));
                }
                self.count(format!("errors in {unit}"));
                self.count("errors");
            }
            (None, None) => {
                let mut theirs = json!({"chunks": theirs["chunks"], "offsets": theirs["offsets"]});
                if let Some(metadata) = answer_metadata {
                    theirs["metadata"] = metadata.clone();
                }
                if ours != theirs {
                    return Err(format!("{request}:\n {name} {theirs}\n ours {ours}"));
                }
                self.count(format!("chunks in {unit}"));
                self.count("chunks");
                if request["overlap"].as_u64().is_some() {
                    self.count("with an overlap");
                }
                let chunks = theirs["chunks"].as_array().unwrap();
                let size = request["size"].as_u64().unwrap() as usize;
                if chunks.len() > 1 {
                    self.count("more than one chunk");
                }
                let texts = || chunks.iter().map(|c| c.as_str().unwrap());
                if unit == "chars" && texts().any(|c| c.chars().count() > size) {
                    self.count("a chunk over the size");
                }
                if texts().any(|c| c.len() > size) {
                    self.count("a chunk longer in bytes than the size");
                }
                let source = request["text"].as_str().unwrap();
                if texts().any(|c| !source.contains(c)) {
                    self.count("a chunk that is not in the text");
                }
            }
            _ => return Err(format!("{request}:\n {name} {theirs}\n ours {ours}")),
        }
        Ok(())
    }

    /// Prints the counts and holds the refusals under the ceiling.
    pub fn finish(&self, library: &Library, against: &str) {
        eprintln!(
            "{} against {against}: {:?}, {} refusals of our own",
            library.name,
            self.counts,
            self.refused.len()
        );
        assert!(
            self.refused.len() <= library.ceiling,
            "{} refusals of our own, over the ceiling of {}:\n{}",
            self.refused.len(),
            library.ceiling,
            self.refused.join("\n")
        );
    }
}
