//! The trace tells the truth, on any input.
//!
//! The page draws only what the engine recorded, so every claim of the trace
//! is checked here against the text itself, for every strategy, in chars,
//! bytes and tokens, on random text and random valid configurations. For
//! the separator engines (ours and LangChain's character splitters):
//!
//! - every cut names the separator of the deepest split between the two
//!   chunks, and that separator really matches at their boundary, on the side
//!   the placement puts it;
//! - every separator recorded absent from a piece is absent from it, and the
//!   one that split a piece occurs in it and is the first of its list that
//!   does;
//! - a split's parts are the separator's matches, each packed group is the
//!   parts it names (trimmed), and each close reason is true: the next part
//!   really has `next_len` units and would really have made the group
//!   `would_be > size` (for LangChain, by LangChain's own sum);
//! - hard cuts are whole windows, overlap only ever extends a chunk backwards,
//!   and no character is lost: with placement `none` the only text in no
//!   chunk is whitespace and the separator matches the splits dropped.
//!
//! For `markdown`, the same below a block, and above it the structure: each
//! heading by its line, heading paths, prefixes, table headers, the level
//! each cut names, code-line parts. For `semantic`, LangChain's algorithm
//! run again on the embedder's vectors. For `langchain-markdown`, the lines
//! read as the class reads them: metadata, the marker each cut names, the
//! tree. For `semchunk`, each piece's splitter against semchunk's rule,
//! written again here, and the cuts, groups and close reasons it makes.
//!
//! Configurations are valid by construction, so nearly every case is checked;
//! each engine must check at least [`MIN_CHECKED`] cases, some of them in
//! every unit.
//!
//! The checks themselves are in `trace_truth/mod.rs`, which the fuzz targets
//! (`fuzz/`) run too, on the inputs libFuzzer finds.

use chunkscope::semantic::{Breakpoint, SemanticConfig};
use chunkscope::tokens::Encoding;
use chunkscope::{
    split, Action, Close, Config, Counter, Cut, Detail, Error, HeaderSplitConfig, Level,
    MarkdownConfig, Output, Placement, Separator, Span, Splitter, Strategy as Engine,
    StrategyConfig, TableHeader, Unit,
};
use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, RngSeed, TestCaseError, TestRunner};
use std::cell::RefCell;
use std::collections::BTreeMap;

mod atoms;
mod tokenizer;
mod trace_truth;

use atoms::ATOMS;
use trace_truth::{family, nothing_lost, ours, recursive, Seen};

/// Cases per engine.
const CASES: u32 = 2_500;
/// Cases each engine must check (the rest may be refused: a character
/// longer than a tiny size in bytes or tokens).
const MIN_CHECKED: usize = 2_300;
/// Of which, in each unit family.
const MIN_PER_UNIT: usize = 400;

// ---------------------------------------------------------------------------
// The cases.
// ---------------------------------------------------------------------------

const LITERALS: &[&str] = &[
    "\n\n", "\n", ". ", " ", "。", "，", "\r\n", "😀", "a", "ab", "aa", ", ", "",
];
/// Regexes both our engines' crate and Python accept, without capturing
/// groups (LangChain pairs those up wrongly).
const OUR_REGEXES: &[&str] = &[r"\s+", r"[.!?]\s", r"\n{2,}", "x*", r"\b", r"a|\n"];
const PYTHON_REGEXES: &[&str] = &[
    r"\s+",
    r"\n+",
    r"[.!?]\s*",
    "a|b",
    r"\b",
    r"(?<=\.)",
    "(?=a)",
    r"\.",
    r"\W",
    "x*",
    r"\s*",
];

/// Markdown's line starts and marks, mixed into the Markdown strategy's
/// texts so that headings (ATX and Setext), fences, tables, lists and quotes
/// are frequent, well formed or not.
const MARKDOWN_ATOMS: &[&str] = &[
    "\n# ",
    "\n## ",
    "\n### ",
    "\n#### ",
    "\n####### ",
    "\n===\n",
    "\n---\n",
    "\n```\n",
    "\n~~~\n",
    "\n    code\n",
    "\n| a | b |\n|---|---|\n",
    "| c | d |\n",
    "\n- ",
    "\n  - ",
    "\n1. ",
    "\n> ",
    "\n<div>\n",
    "\n\n",
    "  # ",
    "\r## ",
    "\r-\r",
];

fn text(strategy: Engine) -> impl Strategy<Value = String> {
    let atom = if strategy == Engine::LlamaIndexMarkdown {
        // Headers whose whitespace after the `#`s MarkdownNodeParser
        // rebuilds as a space, and a header-like line in a fence.
        prop_oneof![
            3 => prop::sample::select(ATOMS),
            2 => prop::sample::select(MARKDOWN_ATOMS),
            1 => prop::sample::select(&["\n##\t", "\n#\u{a0}", "\n```\n# ", "\n#\r\n"][..]),
        ]
        .boxed()
    } else if matches!(strategy, Engine::Markdown | Engine::LangChainMarkdown) {
        prop_oneof![
            3 => prop::sample::select(ATOMS),
            2 => prop::sample::select(MARKDOWN_ATOMS),
        ]
        .boxed()
    } else {
        prop::sample::select(ATOMS).boxed()
    };
    prop_oneof![
        6 => prop::collection::vec(atom, 0..80).prop_map(|v| v.concat()),
        1 => any::<String>(),
    ]
}

fn unit() -> impl Strategy<Value = Unit> {
    prop_oneof![
        4 => Just(Unit::Chars),
        3 => Just(Unit::Bytes),
        2 => Just(Unit::Tokens(Encoding::Cl100k)),
        1 => Just(Unit::Tokens(Encoding::O200k)),
    ]
}

/// Semantic settings (used by the semantic strategy alone): every threshold
/// kind with its default or a random amount, buffers, `number_of_chunks`,
/// `min_chunk_size`; the lexical embedder.
fn semantic_settings() -> impl Strategy<Value = SemanticConfig> {
    (
        prop::sample::select(&Breakpoint::ALL[..]),
        prop::option::of(0.0..=100.0f64),
        0usize..4,
        prop::option::weighted(0.2, 0usize..12),
        prop::option::weighted(0.2, 0usize..60),
    )
        .prop_map(
            |(breakpoint, amount, buffer, number_of_chunks, min_chunk_size)| {
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
                    number_of_chunks,
                    min_chunk_size,
                    embedder: Default::default(),
                }
            },
        )
}

/// A valid configuration of `strategy`.
fn config(strategy: Engine) -> impl Strategy<Value = Config> {
    let langchain = strategy.langchain().is_some();
    let sized = unit().prop_flat_map(move |unit| {
        // Chonkie's chunkers count chars or tokens, never bytes.
        let unit = match (strategy, unit) {
            (
                Engine::ChonkieRecursive | Engine::ChonkieToken | Engine::ChonkieSentence,
                Unit::Bytes,
            ) => Unit::Chars,
            (_, unit) => unit,
        };
        let size = match unit {
            Unit::Chars => (1usize..30).boxed(),
            Unit::Bytes => prop_oneof![9 => 4usize..40, 1 => 1usize..4].boxed(),
            Unit::Tokens(_) => prop_oneof![9 => 4usize..20, 1 => 1usize..4].boxed(),
        };
        (Just(unit), size).prop_flat_map(move |(unit, size)| {
            // The semantic strategy has no overlap.
            let most = match strategy {
                Engine::Semantic | Engine::ChonkieRecursive => 1,
                // LlamaIndex takes an overlap equal to the size.
                _ if langchain || strategy.is_llamaindex() => size + 1,
                _ => size,
            };
            // semchunk chunks at `min(overlap, size − overlap)` with an
            // overlap, where many characters no longer fit in bytes and
            // tokens: an eighth of its cases overlap.
            let none = if strategy == Engine::Semchunk { 7 } else { 1 };
            (
                Just(unit),
                Just(size),
                prop_oneof![none => Just(0), 1 => 0..most],
            )
        })
    });
    let separators = any::<bool>().prop_flat_map(move |regex| {
        let pool = match (regex, langchain) {
            (false, _) => LITERALS,
            (true, false) => OUR_REGEXES,
            (true, true) => PYTHON_REGEXES,
        };
        let pattern = prop::sample::select(pool).prop_map(move |p| {
            if regex {
                Separator::regex(p)
            } else {
                Separator::literal(p)
            }
        });
        let one = if langchain {
            prop_oneof![8 => pattern, 1 => Just(Separator::hard_cut())].boxed()
        } else {
            // The sentence level too, for our engines.
            prop_oneof![
                8 => pattern,
                1 => Just(Separator::hard_cut()),
                1 => Just(Separator::sentence()),
            ]
            .boxed()
        };
        prop::collection::vec(one, if langchain { 0..5 } else { 1..6 }).prop_map(move |mut list| {
            if strategy == Engine::Sentence {
                list.insert(0, Separator::sentence());
            }
            list
        })
    });
    (
        sized,
        separators,
        prop::sample::select(&[Placement::End, Placement::Start, Placement::None][..]),
        prop::bool::weighted(0.7),
        prop::bool::weighted(if strategy == Engine::Markdown {
            0.1
        } else {
            0.0
        }),
        semantic_settings(),
        header_settings(),
        // A repeated table header, in a third of the cases large enough.
        prop::bool::weighted(if strategy == Engine::Markdown {
            0.35
        } else {
            0.0
        }),
    )
        .prop_map(
            move |(
                (unit, size, overlap),
                separators,
                placement,
                trim,
                heading_prefix,
                semantic,
                headers,
                repeat,
            )| {
                let strategy = match (strategy, &headers) {
                    (Engine::Markdown, _) => StrategyConfig::Markdown(MarkdownConfig {
                        heading_prefix,
                        // Below about 24 units the header rows of the tables
                        // here leave no room, and the case would only be
                        // refused.
                        table_header: if repeat && size >= 24 {
                            TableHeader::Repeat
                        } else {
                            TableHeader::Once
                        },
                    }),
                    (Engine::LangChainMarkdown, &(_, _, each_line)) => {
                        StrategyConfig::LangChainMarkdown(HeaderSplitConfig {
                            each_line,
                            then_recursive: None,
                        })
                    }
                    (Engine::Semantic, _) => StrategyConfig::Semantic(semantic),
                    (other, _) => other.into(),
                };
                // What the strategy does not read at its defaults (the
                // engine refuses anything else); the overlap as drawn, so a
                // strategy without one refuses it.
                let common = Config {
                    size,
                    unit,
                    separators,
                    placement,
                    trim,
                    ..Config::default()
                }
                .with_strategy(strategy);
                let config = Config { overlap, ..common };
                match (config.kind(), headers) {
                    (Engine::LangChainMarkdown, (markers, placement, _)) => Config {
                        separators: markers,
                        placement,
                        ..config
                    },
                    _ => config,
                }
            },
        )
}

/// `MarkdownHeaderTextSplitter`'s settings (used by `langchain-markdown`
/// alone): one to four distinct header markers in any order, headers
/// stripped (placement none) or kept (start), `return_each_line` or not.
fn header_settings() -> impl Strategy<Value = (Vec<Separator>, Placement, bool)> {
    (
        prop::sample::subsequence(vec!["#", "##", "###", "####", "#####", "######"], 1..=4)
            .prop_shuffle(),
        prop::sample::select(&[Placement::None, Placement::Start][..]),
        any::<bool>(),
    )
        .prop_map(|(markers, placement, each_line)| {
            (
                markers.into_iter().map(Separator::literal).collect(),
                placement,
                each_line,
            )
        })
}

/// What a run of cases checked.
#[derive(Debug, Default)]
struct Tally {
    checked: usize,
    refused: usize,
    by_unit: BTreeMap<&'static str, usize>,
    seen: Seen,
}

/// Splits and checks one case; a refusal must be a character longer than
/// the size.
fn one(text: &str, config: &Config, tally: &RefCell<Tally>) -> Result<(), TestCaseError> {
    let counter = tokenizer::counter(config.unit);
    let analysis = Splitter::with_counter(config.clone(), counter, &tokenizer::resources())
        .and_then(|s| s.analyze(text, Detail::FULL));
    let analysis = match analysis {
        Ok(a) => a,
        Err(Error::CharTooBig { bytes, .. }) if bytes > config.size => {
            tally.borrow_mut().refused += 1;
            return Ok(());
        }
        Err(Error::CharTooManyTokens { tokens, .. }) if tokens > config.size => {
            tally.borrow_mut().refused += 1;
            return Ok(());
        }
        // A heading path as long as the size leaves a section's chunks no
        // room; a character longer than the room it leaves fits nowhere.
        Err(Error::PrefixTooLong { len, size, .. })
            if config.markdown_config().is_some_and(|m| m.heading_prefix) && len >= size =>
        {
            tally.borrow_mut().refused += 1;
            return Ok(());
        }
        // The same for a table's repeated header rows.
        Err(Error::TableHeaderTooLong { len, size, .. })
            if config
                .markdown_config()
                .is_some_and(|m| m.table_header == TableHeader::Repeat)
                && len >= size =>
        {
            tally.borrow_mut().refused += 1;
            return Ok(());
        }
        Err(Error::CharTooBigAfterPrefix { len, room, .. }) if len > room => {
            tally.borrow_mut().refused += 1;
            return Ok(());
        }
        // A character semchunk cannot split, longer than what its chunks hold.
        Err(Error::Semchunk(chunkscope::semchunk::SemchunkError::CharTooBig {
            len, room, ..
        })) if len > room => {
            tally.borrow_mut().refused += 1;
            return Ok(());
        }
        // text-splitter's chunk that starts before the one ahead of it, on
        // which its Python package panics.
        Err(Error::TextSplitter(chunkscope::text_splitter::TextSplitterError::StartsBefore {
            ..
        })) => {
            tally.borrow_mut().refused += 1;
            return Ok(());
        }
        // tiktoken's special tokens, which chonkie's counter raises on.
        Err(Error::Chonkie(chunkscope::chonkie::ChonkieError::SpecialToken { .. })) => {
            tally.borrow_mut().refused += 1;
            return Ok(());
        }
        // A character over the size, which LlamaIndex raises on, and
        // tiktoken's special tokens in o200k.
        Err(Error::LlamaIndex(
            chunkscope::llamaindex::LlamaIndexError::SplitTooBig { .. }
            | chunkscope::llamaindex::LlamaIndexError::SpecialToken { .. },
        )) => {
            tally.borrow_mut().refused += 1;
            return Ok(());
        }
        Err(e) => {
            return Err(TestCaseError::fail(format!(
                "a valid configuration was refused: {e}"
            )))
        }
    };
    let mut tally = tally.borrow_mut();
    if let Err(lie) = trace_truth::verify(text, config, counter, &analysis, &mut tally.seen) {
        return Err(TestCaseError::fail(lie));
    }
    tally.checked += 1;
    *tally.by_unit.entry(family(config.unit)).or_default() += 1;
    Ok(())
}

/// The seed of the cases every engine's trace is checked on.
const SEED: u64 = 20_261_204;

/// Runs the cases of one engine; each kind of claim in `verified` must have
/// been checked at least that many times.
fn run_engine(strategy: Engine, verified: &[(&str, usize)]) {
    assert!(
        trace_truth::models(strategy),
        "the checks do not model {strategy}"
    );
    let tally = RefCell::new(Tally::default());
    // The same cases on every run, so that the counts of what was verified
    // (below) are a fact of the test and not of the draw: with a random seed
    // a rare case (a repeated table header) fell under its minimum now and
    // then. PROPTEST_RNG_SEED=random (or a number) draws others.
    let defaults = RunnerConfig::default();
    let rng_seed = match std::env::var("PROPTEST_RNG_SEED") {
        Ok(_) => defaults.rng_seed,
        Err(_) => RngSeed::Fixed(SEED),
    };
    let mut runner = TestRunner::new(RunnerConfig {
        rng_seed,
        // Chonkie's cases in tokens that cut a character between runs or
        // windows are the rarer shape its checks must see, so it runs more.
        cases: match strategy {
            Engine::ChonkieRecursive => CASES + 300,
            Engine::ChonkieToken => CASES + 500,
            _ => CASES,
        },
        failure_persistence: None,
        ..RunnerConfig::default()
    });
    let result = runner.run(&(text(strategy), config(strategy)), |(text, config)| {
        one(&text, &config, &tally)
    });
    if let Err(e) = result {
        panic!("{strategy}: {e}");
    }
    let tally = tally.into_inner();
    eprintln!("{strategy}: {tally:?}");
    assert!(
        tally.checked >= MIN_CHECKED,
        "{strategy}: only {} cases checked",
        tally.checked
    );
    for unit in ["chars", "bytes", "tokens"] {
        if unit == "bytes"
            && matches!(
                strategy,
                Engine::ChonkieRecursive | Engine::ChonkieToken | Engine::ChonkieSentence
            )
        {
            continue;
        }
        let n = tally.by_unit.get(unit).copied().unwrap_or(0);
        assert!(
            n >= MIN_PER_UNIT,
            "{strategy}: only {n} cases checked in {unit}"
        );
    }
    for &(what, least) in verified {
        let n = tally.seen.get(what).copied().unwrap_or(0);
        assert!(
            n >= least,
            "{strategy}: only {n} times {what:?}, expected {least}"
        );
    }
}

#[test]
fn fixed_windows_trace_tells_the_truth() {
    run_engine(
        Engine::Fixed,
        &[
            ("a window in chars", 3_000),
            ("a window in bytes", 3_000),
            ("a window in tokens", 3_000),
        ],
    );
}

#[test]
fn recursive_trace_tells_the_truth() {
    run_engine(
        Engine::Recursive,
        &[
            ("a cut at a separator, placement end", 600),
            ("a cut at a separator, placement start", 600),
            ("a cut at a separator, placement none", 600),
            ("a close reason measured", 2_000),
            ("a separator recorded absent", 1_000),
            ("a hard cut", 1_000),
            ("a character only in a dropped separator", 300),
        ],
    );
}

#[test]
fn sentence_trace_tells_the_truth() {
    run_engine(
        Engine::Sentence,
        &[
            ("a cut at a separator, placement end", 300),
            ("a cut at a separator, placement start", 300),
            ("a cut at a separator, placement none", 300),
            ("a close reason measured", 1_000),
            ("a hard cut", 300),
        ],
    );
}

#[test]
fn markdown_trace_tells_the_truth() {
    run_engine(
        Engine::Markdown,
        &[
            ("a heading path", 10_000),
            ("a heading prefix", 300),
            ("a table header recorded", 200),
            ("a repeated table header", 12),
            ("a section level checked", 700),
            ("a cut at a heading", 1_000),
            ("a cut at a block", 2_000),
            ("a cut at a table", 200),
            ("a cut at a fence", 3_000),
            ("fence line parts rebuilt", 400),
            ("block groups at line breaks", 1_000),
            ("table row groups at line breaks", 150),
            ("a cut at a separator, placement end", 300),
            ("a cut at a separator, placement none", 200),
            ("a close reason measured", 4_000),
            ("a hard cut", 1_500),
        ],
    );
}

#[test]
fn semantic_trace_tells_the_truth() {
    run_engine(
        Engine::Semantic,
        &[
            ("a sentence split rebuilt", 2_300),
            ("a distance recomputed", 3_000),
            ("a percentile threshold recomputed", 150),
            ("a standard_deviation threshold recomputed", 150),
            ("a interquartile threshold recomputed", 150),
            ("a gradient threshold recomputed", 150),
            ("a semantic chunk kept whole", 600),
            ("a semantic chunk cut again by size", 1_500),
        ],
    );
}

#[test]
fn langchain_markdown_trace_tells_the_truth() {
    run_engine(
        Engine::LangChainMarkdown,
        &[
            ("a header metadata rebuilt", 3_000),
            ("a cut at a header line", 700),
            ("a cut at a blank line", 1_000),
        ],
    );
}

#[test]
fn langchain_trace_tells_the_truth() {
    run_engine(
        Engine::LangChain,
        &[
            ("a LangChain cut at a separator, keep End", 1_000),
            ("a LangChain cut at a separator, keep Start", 1_000),
            ("a LangChain cut at a separator, keep None", 1_000),
            ("a LangChain close reason summed", 4_000),
            ("a LangChain merge rebuilt from its splits", 5_000),
            ("a LangChain fallback to the last separator", 300),
            ("a separator recorded absent", 400),
        ],
    );
}

#[test]
fn langchain_character_trace_tells_the_truth() {
    run_engine(
        Engine::LangChainCharacter,
        &[
            ("a LangChain cut at a separator, keep End", 600),
            ("a LangChain cut at a separator, keep Start", 600),
            ("a LangChain cut at a separator, keep None", 600),
            ("a LangChain close reason summed", 3_000),
            ("a LangChain merge rebuilt from its splits", 4_000),
        ],
    );
}

#[test]
fn semchunk_trace_tells_the_truth() {
    run_engine(
        Engine::Semchunk,
        &[
            ("a semchunk split, newlines", 300),
            ("a semchunk split, whitespace", 300),
            ("a semchunk split, a space after a mark", 100),
            ("a semchunk split, a mark", 100),
            ("a semchunk split, every character", 300),
            ("a semchunk cut at its splitter", 3_000),
            ("a close reason measured", 1_000),
        ],
    );
}

#[test]
fn chonkie_token_trace_tells_the_truth() {
    run_engine(
        Engine::ChonkieToken,
        &[
            ("a chonkie window in chars", 3_000),
            ("a chonkie window in tokens", 1_000),
            ("a chonkie window with an overlap", 1_000),
            ("a chonkie window decoded apart", 50),
            ("a chonkie text of whitespace alone", 20),
        ],
    );
}

#[test]
fn chonkie_sentence_trace_tells_the_truth() {
    run_engine(
        Engine::ChonkieSentence,
        &[
            ("a chonkie sentence chunk in chars", 3_000),
            ("a chonkie sentence chunk in tokens", 1_000),
            ("a chonkie sentence cut at \". \"", 500),
            ("a chonkie sentence cut at \"! \"", 500),
            ("a chonkie sentence cut at \"\\n\"", 1_500),
            ("a chonkie sentence over the size", 2_500),
            ("a chonkie chunk starting back in the one before", 20),
            ("a chonkie text of whitespace alone", 20),
        ],
    );
}

#[test]
fn chonkie_trace_tells_the_truth() {
    run_engine(
        Engine::ChonkieRecursive,
        &[
            ("a chonkie cut at a paragraph", 300),
            ("a chonkie cut at a sentence end", 100),
            ("a chonkie cut at a pause", 300),
            ("a chonkie cut at a word", 200),
            ("a chonkie cut at runs of tokens", 300),
            ("a chonkie split at a paragraph", 300),
            ("a chonkie split at a sentence end", 100),
            ("a chonkie split at a pause", 100),
            ("a chonkie split at a word", 100),
            ("a chonkie node down a level", 300),
            ("a chonkie node cut into runs of tokens", 100),
        ],
    );
}

#[test]
fn llamaindex_trace_tells_the_truth() {
    run_engine(
        Engine::LlamaIndexSentence,
        &[
            ("a llamaindex cut at a paragraph", 60),
            ("a llamaindex cut at a sentence", 900),
            ("a llamaindex cut at a clause", 1_900),
            ("a llamaindex cut at a space", 1_000),
            ("a llamaindex cut at a character", 4_000),
        ],
    );
}

#[test]
fn llamaindex_markdown_trace_tells_the_truth() {
    run_engine(
        Engine::LlamaIndexMarkdown,
        &[
            ("a llamaindex-markdown cut at a header", 8_000),
            ("a llamaindex-markdown header rebuilt", 3_000),
            ("a llamaindex-markdown start found", 6_000),
            ("a llamaindex-markdown start not found", 3_000),
        ],
    );
}

#[test]
fn llamaindex_token_trace_tells_the_truth() {
    run_engine(
        Engine::LlamaIndexToken,
        &[
            ("a llamaindex-token cut at a space", 1_000),
            ("a llamaindex-token cut at a newline", 300),
            ("a llamaindex-token cut at a character", 1_000),
        ],
    );
}

/// LlamaIndex's `SentenceSplitter` at 9 bytes on `text`: each chunk's
/// text and cut, once the trace-truth check has found nothing false in the
/// split. For the fuzzer's findings below.
fn llamaindex_at_nine_bytes(text: &str) -> Vec<(&str, Cut)> {
    let config = Config {
        size: 9,
        overlap: 0,
        ..Config::for_strategy(Engine::LlamaIndexSentence)
    }
    .with_unit(Unit::Bytes);
    let counter = tokenizer::counter(Unit::Bytes);
    let analysis = Splitter::with_counter(config.clone(), counter, &tokenizer::resources())
        .unwrap()
        .analyze(text, Detail::FULL)
        .unwrap();
    assert_eq!(
        trace_truth::llamaindex(text, &config, counter, &analysis, &mut Seen::new()),
        Ok(())
    );
    (analysis.output.chunks.iter())
        .map(|c| (c.text(text), c.cut))
        .collect()
}

/// Found by the `truth` fuzz target: Punkt (NLTK 3.9, as LlamaIndex runs
/// it) gives `"\t\t!\t\t"` as the first sentence, its closing quote moved
/// across the tabs after the stop. The check must take that as a sentence
/// end, as it is.
#[test]
fn a_closing_quote_after_whitespace_ends_a_llamaindex_sentence() {
    let chunks = llamaindex_at_nine_bytes("\"\t\t!\t\t\"\t*\t");
    let texts: Vec<&str> = chunks.iter().map(|c| c.0).collect();
    assert_eq!(texts, ["\"\t\t!\t\t\"", "*"]);
    assert_eq!(chunks[0].1, Cut::Separator(1));
}

/// Found by the `truth` fuzz target: a sentence over the size (9 bytes) is
/// cut hard, and its last piece is its closing `)` alone, the `!` before it
/// in the piece before. The cut after the `)` is a sentence end all the
/// same, and the check must say so.
#[test]
fn a_sentences_closer_cut_from_its_stop_still_ends_it() {
    let chunks = llamaindex_at_nine_bytes(
        "\u{FFFD}!)\x0c\u{FFFD}|\0\u{FFFD}\u{FFFD}?\u{FFFD}\r\0\u{FFFD}!)\x0c\u{FFFD}|\x01=\u{FFFD}",
    );
    assert_eq!(chunks[2], ("\u{FFFD}\r\0\u{FFFD}!", Cut::Separator(4)));
    assert_eq!(chunks[3], (")", Cut::Separator(1)));
}

#[test]
fn text_splitter_trace_tells_the_truth() {
    run_engine(
        Engine::TextSplitter,
        &[
            ("a text-splitter cut at a run of line breaks", 300),
            ("a text-splitter cut at sentence", 300),
            ("a text-splitter cut at word", 300),
            ("a text-splitter cut between chars", 50),
        ],
    );
}

#[test]
fn text_splitter_markdown_trace_tells_the_truth() {
    run_engine(
        Engine::TextSplitterMarkdown,
        &[
            ("a text-splitter cut at block", 100),
            ("a text-splitter cut at inline", 100),
            ("a text-splitter cut at word", 100),
        ],
    );
}

#[test]
fn every_strategy_is_checked() {
    for strategy in Engine::ALL {
        assert!(trace_truth::models(strategy), "{strategy} is not checked");
    }
}

// ---------------------------------------------------------------------------
// The checks catch lies.
// ---------------------------------------------------------------------------

const REFUND: &str = "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n\
                      COD orders get store credit.\n\nContact us 24x7.";

fn refund() -> (Config, Counter, Output) {
    let config = Config::recursive(40).with_separators(["\n\n", "\n", ". ", " ", ""]);
    let counter = tokenizer::counter(Unit::Chars);
    let out = Splitter::with_counter(config.clone(), counter, &tokenizer::resources())
        .unwrap()
        .split(REFUND)
        .unwrap();
    (config, counter, out)
}

#[test]
fn the_refund_page_trace_is_true() {
    let (config, counter, out) = refund();
    assert_eq!(
        ours(REFUND, &config, counter, &out, &mut Seen::new()),
        Ok(())
    );
    assert_eq!(
        recursive(REFUND, &config, counter, &out, &mut Seen::new()),
        Ok(())
    );
}

/// MarkdownNodeParser's checks catch a cut named by another header, a
/// start_index that is not where `str.find` puts the text, and a text of
/// its own where the header was not rebuilt.
#[test]
fn llamaindex_markdown_lies_are_caught() {
    let text = "# Refunds\nsee # UPI\n##\tCards\nx\n# UPI";
    let config = Config::for_strategy(Engine::LlamaIndexMarkdown);
    let counter = tokenizer::counter(Unit::Chars);
    let analysis = Splitter::with_counter(config, counter, &tokenizer::resources())
        .unwrap()
        .analyze(text, Detail::FULL)
        .unwrap();
    let check = |a: &chunkscope::Analysis| {
        trace_truth::llamaindex_markdown(text, counter, a, &mut Seen::new())
    };
    assert_eq!(check(&analysis), Ok(()));
    // The two cuts' headers swapped ("#" and "##" each still cut somewhere).
    let mut lie = analysis.clone();
    lie.output.chunks[0].cut = Cut::Separator(0);
    lie.output.chunks[1].cut = Cut::Separator(1);
    assert!(check(&lie).unwrap_err().contains("its header has 2 #s"));
    // A marker listed that cuts nowhere.
    let mut lie = analysis.clone();
    lie.separators.push(chunkscope::Separator::literal("###"));
    assert!(check(&lie).unwrap_err().contains("cuts nowhere"));
    let mut lie = analysis.clone();
    // The last "# UPI" is found early, at 14, inside the first section.
    lie.output.library.as_mut().unwrap()[2].start_index = Some(31);
    assert!(check(&lie).unwrap_err().contains("str.find gives"));
    let mut lie = analysis.clone();
    let facts = lie.output.library.as_mut().unwrap();
    facts[0] = chunkscope::LibraryFact::new(
        Some("# Refunds\nsee # UPI".into()),
        Some(chunkscope::NotSlice::HeaderRebuilt),
        facts[0].start_index,
        facts[0].metadata().map(<[_]>::to_vec),
    );
    assert!(check(&lie).unwrap_err().contains("with its header rebuilt"));
}

#[test]
fn a_wrong_cut_label_is_caught() {
    let (config, counter, mut out) = refund();
    // "Refunds take 5 days." ends at the sentence end (separator 2), not at
    // the newline.
    out.chunks[1].cut = Cut::Separator(1);
    let lie = recursive(REFUND, &config, counter, &out, &mut Seen::new()).unwrap_err();
    assert!(lie.contains("chunk 1 ends with Separator(1)"), "{lie}");
}

#[test]
fn a_separator_recorded_absent_that_occurs_is_caught() {
    let (config, counter, mut out) = refund();
    out.trace.nodes[0].absent.push(0);
    let lie = recursive(REFUND, &config, counter, &out, &mut Seen::new()).unwrap_err();
    assert!(lie.contains("node 0 records [0] absent"), "{lie}");
}

#[test]
fn a_wrong_close_reason_is_caught() {
    let (config, counter, mut out) = refund();
    let close = out.trace.nodes.iter_mut().find_map(|n| match &mut n.close {
        Some(Close::NextWouldExceed { would_be, .. }) => Some(would_be),
        _ => None,
    });
    *close.unwrap() += 1;
    let lie = recursive(REFUND, &config, counter, &out, &mut Seen::new()).unwrap_err();
    assert!(lie.contains("measuring gives"), "{lie}");
}

#[test]
fn a_chunk_that_lost_a_character_is_caught() {
    let (config, counter, mut out) = refund();
    // "Refunds take 5 days." without its "R", in the chunk and its node.
    let chunk = &mut out.chunks[1];
    (chunk.span.start, chunk.len) = (16, 19);
    let node = &mut out.trace.nodes[chunk.node.unwrap()];
    (node.span.start, node.len) = (16, 19);
    let lie = recursive(REFUND, &config, counter, &out, &mut Seen::new()).unwrap_err();
    assert_eq!(
        lie,
        "node 4 is Span { start: 16, end: 35 }, its parts 0..1 make Span { start: 15, end: 35 }"
    );
}

/// A guide with a section per level of the Markdown strategy: an intro, a
/// table too big for the size, a fence too big for it, a heading of each
/// depth.
const GUIDE: &str = "# Guide\n\nRead this first.\n\n## Install\n\n| key | value |\n|---|---|\n\
                     | name | ada |\n| size | 40 |\n\n```sh\nmake build\nmake test\n```\n\n\
                     ## Use\n\nRun it.\n\nThen stop.\n";

fn guide(prefix: bool) -> (Config, Counter, Output) {
    let config = Config::markdown(24).with_heading_prefix(prefix);
    let counter = tokenizer::counter(Unit::Chars);
    let out = Splitter::with_counter(config.clone(), counter, &tokenizer::resources())
        .unwrap()
        .split(GUIDE)
        .unwrap();
    (config, counter, out)
}

/// Checks a planted Markdown split and returns the lie it tells.
fn markdown_lie(config: &Config, counter: Counter, out: &Output) -> String {
    trace_truth::markdown(GUIDE, config, counter, out, None, &mut Seen::new()).unwrap_err()
}

#[test]
fn the_guide_trace_is_true_and_uses_every_level() {
    for prefix in [false, true] {
        let (config, counter, out) = guide(prefix);
        let mut seen = Seen::new();
        assert_eq!(
            trace_truth::markdown(GUIDE, &config, counter, &out, None, &mut seen),
            Ok(())
        );
        for what in [
            "a cut at a heading",
            "a cut at a block",
            "a cut at a table",
            "a cut at a fence",
            "a table header recorded",
        ] {
            assert!(seen.contains_key(what), "{what}: {seen:?}");
        }
    }
}

/// The first chunk whose cut is `cut`.
fn first_cut(out: &Output, cut: Cut) -> usize {
    out.chunks.iter().position(|c| c.cut == cut).unwrap()
}

#[test]
fn a_wrong_markdown_cut_label_is_caught() {
    let (config, counter, mut out) = guide(false);
    let i = first_cut(&out, Cut::Structure(Level::Heading(2)));
    out.chunks[i].cut = Cut::Structure(Level::Heading(1));
    let lie = markdown_lie(&config, counter, &out);
    assert!(
        lie.starts_with(&format!("chunk {i} ends with Structure(Heading(1))")),
        "{lie}"
    );

    let (config, counter, mut out) = guide(false);
    let i = first_cut(&out, Cut::Structure(Level::Block));
    out.chunks[i].cut = Cut::Structure(Level::FenceLine);
    let lie = markdown_lie(&config, counter, &out);
    assert!(
        lie.starts_with(&format!("chunk {i} ends with Structure(FenceLine)")),
        "{lie}"
    );
}

#[test]
fn a_wrong_heading_path_prefix_or_table_header_is_caught() {
    let (config, counter, mut out) = guide(true);
    let md = out.markdown.as_mut().unwrap();
    let i = md.chunks.iter().position(|c| c.path.len() == 2).unwrap();
    md.chunks[i].path.remove(0);
    let lie = markdown_lie(&config, counter, &out);
    assert!(
        lie.starts_with(&format!("chunk {i} has the path [")),
        "{lie}"
    );

    let (config, counter, mut out) = guide(true);
    let md = out.markdown.as_mut().unwrap();
    md.chunks[0].prefix = Some("Guide > Use\n\n".into());
    let lie = markdown_lie(&config, counter, &out);
    assert!(
        lie.starts_with("chunk 0's prefix is \"Guide > Use\\n\\n\""),
        "{lie}"
    );

    let (config, counter, mut out) = guide(false);
    let md = out.markdown.as_mut().unwrap();
    let i = md
        .chunks
        .iter()
        .position(|c| c.table_header.is_some())
        .unwrap();
    // The section's heading line instead of the table's header.
    md.chunks[i].table_header = Some(md.headings[1].span);
    let lie = markdown_lie(&config, counter, &out);
    assert!(lie.contains("is no header row and delimiter row"), "{lie}");
}

#[test]
fn a_wrong_count_of_code_lines_is_caught() {
    let (config, counter, mut out) = guide(false);
    let node = out
        .trace
        .nodes
        .iter_mut()
        .find(|n| {
            matches!(
                n.action,
                Action::Structure {
                    level: Level::FenceLine,
                    ..
                }
            )
        })
        .unwrap();
    if let Action::Structure { parts, .. } = &mut node.action {
        *parts += 1;
    }
    let lie = markdown_lie(&config, counter, &out);
    assert!(lie.contains("fence line parts, the document has"), "{lie}");
}

/// Sentences on three topics, for the semantic plants.
const TOPICS: &str = "Refunds take five days. Refunds go to the card. \
                      The cat sat on the mat. The cat slept. \
                      Rust compiles to wasm. Rust is fast.";

/// A semantic split of [`TOPICS`], changed by `plant`: the lie it tells.
fn semantic_lie(plant: impl FnOnce(&mut chunkscope::semantic::SemanticTrace)) -> String {
    let config = Config {
        size: 1_000,
        ..Config::for_strategy(Engine::Semantic)
    };
    let counter = tokenizer::counter(Unit::Chars);
    let mut out = split(TOPICS, &config, &tokenizer::resources()).unwrap();
    let mut seen = Seen::new();
    assert_eq!(
        trace_truth::semantic(TOPICS, &config, counter, &out, &mut seen),
        Ok(())
    );
    assert_eq!(seen["a distance recomputed"], 5);
    let mut trace = out.trace.semantic.take().unwrap();
    plant(&mut trace);
    out.trace.semantic = Some(trace);
    trace_truth::semantic(TOPICS, &config, counter, &out, &mut seen).unwrap_err()
}

#[test]
fn a_wrong_semantic_trace_is_caught() {
    let lie = semantic_lie(|t| t.distances[2] += 1e-6);
    assert!(lie.starts_with("the distances are"), "{lie}");
    let lie = semantic_lie(|t| *t.threshold.as_mut().unwrap() *= 1.001);
    assert!(lie.starts_with("the threshold is"), "{lie}");
    let lie = semantic_lie(|t| t.breakpoints.push(0));
    assert!(lie.starts_with("the breakpoints are"), "{lie}");
    let lie = semantic_lie(|t| t.sentences[1].start += 1);
    assert!(lie.starts_with("the sentences are"), "{lie}");
    let lie = semantic_lie(|t| t.chunks[1].start_index += 1);
    assert!(lie.starts_with("semantic chunk 1: "), "{lie}");
}

/// The refund page as Markdown, split by LangChain's header splitter with
/// its headers kept, then changed by `plant`: the lie it tells.
fn header_lie(plant: impl FnOnce(&mut Output)) -> String {
    let text = "# Refunds\n\nFive days.\n\n## UPI\n\nTo the UPI id.\n\n# Contact\n\n24x7.";
    let config = Config {
        separators: vec![Separator::literal("#"), Separator::literal("##")],
        placement: Placement::Start,
        ..Config::for_strategy(Engine::LangChainMarkdown)
    };
    let counter = tokenizer::counter(Unit::Chars);
    let mut analysis = Splitter::with_counter(config.clone(), counter, &tokenizer::resources())
        .unwrap()
        .analyze(text, Detail::FULL)
        .unwrap();
    let mut seen = Seen::new();
    assert_eq!(
        trace_truth::verify(text, &config, counter, &analysis, &mut seen),
        Ok(())
    );
    assert_eq!(analysis.output.chunks.len(), 3);
    plant(&mut analysis.output);
    trace_truth::verify(text, &config, counter, &analysis, &mut seen).unwrap_err()
}

#[test]
fn a_wrong_header_split_is_caught() {
    // The UPI section's chunk said to be opened by "#", not "##".
    let lie = header_lie(|out| out.chunks[0].cut = Cut::Separator(0));
    assert!(lie.starts_with("chunk 0 ends with Separator(0)"), "{lie}");
    // A leaf recorded twice under the root.
    let lie = header_lie(|out| {
        let leaf = out.trace.nodes[0].children[0];
        out.trace.nodes[0].children.push(leaf);
    });
    assert_eq!(
        lie,
        "the root's children are not one fitting leaf per chunk"
    );
    // The UPI chunk without its "Header 2".
    let lie = header_lie(|out| {
        let facts = out.library.as_mut().unwrap();
        let fact = &facts[1];
        let mut metadata = fact.metadata().unwrap().to_vec();
        metadata.pop();
        facts[1] = chunkscope::LibraryFact::new(
            fact.text().map(String::from),
            fact.not_slice(),
            None,
            Some(metadata),
        );
    });
    assert!(lie.starts_with("chunk 1 has the metadata"), "{lie}");
}

#[test]
fn a_character_in_no_chunk_is_caught() {
    // Placement none drops the ", " match; a chunk that also lost its last
    // character loses text no separator accounts for.
    let text = "ab, cd";
    let config = Config::recursive(2)
        .with_separators([", "])
        .with_placement(Placement::None);
    let mut chunks = split(text, &config, &tokenizer::resources())
        .unwrap()
        .chunks;
    let dropped = [Span::new(2, 4)];
    let mut seen = Seen::new();
    assert_eq!(
        nothing_lost(text, true, &chunks, &dropped, &mut seen),
        Ok(())
    );
    chunks[1].span.end -= 1;
    let lie = nothing_lost(text, true, &chunks, &dropped, &mut seen);
    assert_eq!(
        lie.unwrap_err(),
        "'d' at byte 5 is in no chunk and no dropped separator"
    );
    // Nor may a separator account for text it does not hold (whitespace
    // included, without trimming).
    let lie = nothing_lost(text, false, &chunks, &[Span::new(2, 3)], &mut seen);
    assert_eq!(
        lie.unwrap_err(),
        "' ' at byte 3 is in no chunk and no dropped separator"
    );
}
