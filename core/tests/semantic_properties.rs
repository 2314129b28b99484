//! The semantic strategy's properties over random Unicode text and random
//! settings (every threshold kind, buffers, `number_of_chunks`,
//! `min_chunk_size`, sizes small enough that the recursive fallback runs),
//! with the lexical embedder and a generated static model; and hostile input.

use chunkscope::semantic::{
    self, Breakpoint, EmbedderChoice, ModelError, SemanticConfig, StaticModel,
};
use chunkscope::{
    check, split, Config, Cut, Output, Placement, Resources, Separator, Strategy as Engine,
    StrategyConfig, Unit,
};
use proptest::prelude::*;
use std::sync::Arc;

mod atoms;

use atoms::ATOMS;

fn text() -> impl Strategy<Value = String> {
    let sentence_atoms: Vec<&'static str> = ATOMS
        .iter()
        .copied()
        .chain([
            ". ", "? ", "! ", ".\n\n", "the cat", "a dog", "rust", "e.g. ",
        ])
        .collect();
    prop_oneof![
        5 => prop::collection::vec(prop::sample::select(sentence_atoms), 0..120)
            .prop_map(|v| v.concat()),
        1 => any::<String>(),
        1 => "[ .!?\\n]{0,20}",
    ]
}

/// A small model over the words the texts use, with integer vectors.
fn model() -> Arc<StaticModel> {
    let mut file = String::new();
    for (i, word) in [
        "a", "b", "word", "the", "cat", "dog", "rust", "中文", "e", "g",
    ]
    .iter()
    .enumerate()
    {
        file.push_str(&format!("{word} {} {} {}\n", i % 3, (i * 7) % 5, 1 + i % 2));
    }
    Arc::new(StaticModel::from_text("test", file.as_bytes()).unwrap())
}

/// The test model, held as `model`, for the configurations that name it.
fn resources() -> Resources {
    Resources::new().with_embedder("model", model()).unwrap()
}

fn settings() -> impl Strategy<Value = SemanticConfig> {
    (
        prop::sample::select(&Breakpoint::ALL[..]),
        prop::option::of(0.0..=100.0f64),
        0usize..4,
        prop::option::of(0usize..12),
        prop::option::of(0usize..80),
        any::<bool>(),
    )
        .prop_map(|(breakpoint, amount, buffer, k, min, lexical)| {
            let amount = amount.map(|a| {
                if breakpoint.is_percentile() {
                    a
                } else {
                    a / 25.0 - 1.0
                }
            });
            SemanticConfig {
                breakpoint,
                amount,
                buffer,
                number_of_chunks: k,
                min_chunk_size: min,
                embedder: if lexical {
                    EmbedderChoice::Lexical
                } else {
                    EmbedderChoice::named("model")
                },
            }
        })
}

fn config() -> impl Strategy<Value = Config> {
    (
        settings(),
        prop_oneof![1..40usize, 40..400usize, Just(1_000_000usize)],
        prop::sample::select(&[Unit::Chars, Unit::Bytes][..]),
        prop::sample::select(&[Placement::End, Placement::Start][..]),
        any::<bool>(),
    )
        .prop_map(|(semantic, size, unit, placement, trim)| Config {
            size: size.max(4),
            unit,
            placement,
            trim,
            strategy: StrategyConfig::Semantic(semantic),
            ..Config::for_strategy(Engine::Semantic)
        })
}

/// Everything that must hold of a semantic split.
fn assert_sound(text: &str, config: &Config, out: &Output) {
    let checks = check(text, config, out, &resources());
    for (property, c) in checks.iter() {
        assert!(c.ok, "{}: {} ({config:?})", property.name(), c.detail);
    }
    let trace = out.trace.semantic.as_deref().expect("a semantic trace");
    let settings = config.semantic_config().expect("the semantic strategy");
    let langchain = semantic::langchain_chunks(
        text,
        settings,
        &*resources().embedder(&settings.embedder).unwrap(),
    )
    .unwrap();
    assert_eq!(trace.breakpoints, langchain.breakpoints);
    // LangChain's chunks, in order, each becoming a run of output chunks that
    // together are the whole output.
    let mut next = 0;
    for (ours, theirs) in trace.chunks.iter().zip(&langchain.chunks) {
        assert_eq!((ours.span, &ours.text), (theirs.span, &theirs.text));
        let (first, last) = ours.chunks;
        assert_eq!(first, next);
        next = last;
        let chunks = &out.chunks[first..last];
        let counter = resources().counter(config.unit).unwrap();
        assert_eq!(
            ours.fallback,
            counter.len(ours.span.text(text)) > config.size
        );
        if ours.fallback {
            for c in chunks {
                assert!(c.span.start >= ours.span.start && c.span.end <= ours.span.end);
            }
        } else if ours.span.is_empty() {
            assert!(chunks.is_empty());
        } else {
            assert_eq!(chunks.len(), 1);
            assert_eq!(chunks[0].span, ours.span);
        }
        // A breakpoint (or the end) closes the last chunk of each.
        if let Some(c) = chunks.last() {
            let end = if last == out.chunks.len() {
                Cut::End
            } else {
                Cut::Breakpoint
            };
            assert_eq!(c.cut, end);
        }
    }
    assert_eq!(trace.chunks.len(), langchain.chunks.len());
    assert_eq!(next, out.chunks.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn semantic_splits_are_sound(text in text(), config in config()) {
        match split(&text, &config, &resources()) {
            Ok(out) => assert_sound(&text, &config, &out),
            // A character longer than a byte size: the error every engine gives.
            Err(chunkscope::Error::CharTooBig { .. }) => prop_assume!(false),
            Err(e) => panic!("{e} ({config:?})"),
        }
    }

    #[test]
    fn model_files_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = StaticModel::from_text("random", &bytes);
    }

    #[test]
    fn model_text_never_panics(text in "[a-z0-9 .e+\\-\\n]{0,200}") {
        let _ = StaticModel::from_text("random", text.as_bytes());
    }
}

fn semantic(size: usize) -> Config {
    Config {
        size,
        ..Config::for_strategy(Engine::Semantic)
    }
}

fn sound(text: &str, config: &Config) -> Output {
    let out = split(text, config, &resources()).unwrap_or_else(|e| panic!("{e}"));
    assert_sound(text, config, &out);
    out
}

#[test]
fn a_hundred_thousand_sentences() {
    let text: String = (0..100_000)
        .map(|i| format!("Sentence {i} is about topic {}. ", i / 500))
        .collect();
    let out = sound(&text, &semantic(1000));
    let trace = out.trace.semantic.unwrap();
    assert_eq!(trace.sentences.len(), 100_001); // the trailing space leaves ""
    assert_eq!((trace.embedding_calls, trace.vectors), (1, 100_001));
    assert_eq!(trace.distances.len(), 100_000);
    assert!(out.chunks.len() > 100);
}

#[test]
fn a_text_with_no_sentence_end_is_one_sentence_split_by_size() {
    let text = "word ".repeat(200_000);
    let out = sound(&text, &semantic(1000));
    let trace = out.trace.semantic.unwrap();
    assert_eq!(trace.sentences.len(), 1);
    assert_eq!(trace.embedding_calls, 0);
    assert!(trace.chunks[0].fallback);
    assert!(out.chunks.len() >= 1000);
    assert!(out.chunks.iter().all(|c| c.len <= 1000));
}

#[test]
fn one_five_megabyte_sentence() {
    let text = format!("{}.", "a".repeat(5 << 20));
    let out = sound(&text, &semantic(4096));
    assert_eq!(out.chunks.len(), (5 << 20) / 4096 + 1);
}

#[test]
fn only_punctuation() {
    for text in ["...", ". . . . .", "?! ?! ?!", "。。。", " . ", "\n.\n.\n"] {
        let out = sound(text, &semantic(1000));
        let trace = out.trace.semantic.unwrap();
        // Groups with no word get the zero vector: similarity 0, distance 1.
        assert!(trace.distances.iter().all(|&d| d == 1.0), "{text:?}");
        assert!(trace.breakpoints.is_empty(), "{text:?}");
    }
    let out = sound(". . .", &semantic(1000));
    let texts: Vec<&str> = out.chunks.iter().map(|c| c.text(". . .")).collect();
    assert_eq!(texts, [". . ."]);
}

#[test]
fn a_chunk_over_the_size_falls_back_to_the_separators() {
    let text = "Cats purr. Cats sleep. Cats purr and sleep all day long. \
                Rust compiles. Rust borrows. Rust checks every borrow.";
    let config = Config {
        strategy: StrategyConfig::Semantic(
            SemanticConfig::new().with_breakpoint(Breakpoint::Percentile, Some(50.0)),
        ),
        separators: vec![Separator::literal(" "), Separator::hard_cut()],
        ..semantic(30)
    };
    let out = sound(text, &config);
    let trace = out.trace.semantic.as_deref().unwrap();
    assert!(trace.chunks.iter().any(|c| c.fallback));
    // The fallback's recursion is in the trace, one root per chunk split.
    assert!(!out.trace.nodes.is_empty());
    assert!(out.trace.nodes.iter().any(|n| n.parent.is_none()));
    for c in &out.chunks {
        if let Some(node) = c.node {
            assert!(out.trace.nodes[node].span.start <= c.span.start);
        }
    }
}

#[test]
fn bad_model_files_are_errors_with_where_and_what() {
    let e = |b: &[u8]| StaticModel::from_text("m", b).unwrap_err().to_string();
    assert!(e(b"").contains("holds no word vectors"));
    assert!(e(b"cat 1 2 3\ndog 1 2\n").contains("line 2"));
    assert!(e(b"10 3\ncat 1 2 3\n").contains("truncated"));
    assert!(e(b"cat 1 NaN\n").contains("not a finite number"));
    assert!(e(b"\x89PNG\r\n\x1a\n\0\0").contains("not UTF-8"));
    let huge = format!("cat {}\n", "1 ".repeat(semantic::MAX_DIMS + 1));
    assert!(e(huge.as_bytes()).contains("dimensions"));
    let err = StaticModel::from_text("m", b"").unwrap_err();
    assert_eq!(err, ModelError::Empty);
    let as_error: chunkscope::Error = err.into();
    assert_eq!(as_error.setting(), chunkscope::Setting::Embedder);
}

#[test]
fn settings_refused_up_front() {
    let bad = Config {
        strategy: StrategyConfig::Semantic(
            SemanticConfig::new().with_breakpoint(Breakpoint::Gradient, Some(101.0)),
        ),
        ..semantic(100)
    };
    let e = split("A. B.", &bad, &resources()).unwrap_err();
    assert_eq!(e.setting(), chunkscope::Setting::Breakpoint);
    let overlap = Config {
        overlap: 5,
        ..semantic(100)
    };
    assert_eq!(
        split("A. B.", &overlap, &resources())
            .unwrap_err()
            .setting(),
        chunkscope::Setting::Overlap
    );
}
