//! Throughput of the engines on real corpora, in MB/s of source text.
//!
//! Run with `bench/corpus.sh` first (it builds `target/corpus/`), then
//! `cargo bench -p chunkscope --bench split`. Names read
//! `<engine>_<trace|plain>  <corpus>/<unit>/<size>`; filter with a substring,
//! e.g. `cargo bench -p chunkscope --bench split -- recursive_plain`.
//!
//! Why divan and not criterion: it measures the same thing (many samples,
//! median and spread, bytes-per-second counters) with a fraction of the
//! dependencies (no plotting, no rayon, no serde), so it builds in seconds on a
//! small shared machine, and one `args` list gives the corpus × unit × size
//! matrix without a macro per case.
//!
//! `sentence_*` is the sentence strategy; `sentences_only` and
//! `sentences_recorded` find the sentences alone (corpus 0 markdown, 1 code,
//! 2 prose), without and with the decisions a trace shows.
//!
//! `langchain_texts` is LangChain's `split_text` as the Python package's
//! classes run it, on the Markdown corpus in chars.
//!
//! `trace` is [`Splitter::split`] (the recursion tree is recorded, as the UI
//! needs it); `plain` is [`Splitter::chunks`] (no tree). The target is
//! trace ≤ 2× plain.

use chunkscope::{Config, Output, Splitter, Unit};
use divan::counter::BytesCount;
use divan::{black_box, Bencher};
use std::fmt;
use std::path::PathBuf;
use std::sync::OnceLock;

const SIZES: [usize; 3] = [256, 1000, 4000];
const CORPORA: [&str; 3] = ["markdown.md", "code.rs", "prose.txt"];

fn corpus_dir() -> PathBuf {
    std::env::var_os("CHUNKSCOPE_CORPUS").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target/corpus")),
        PathBuf::from,
    )
}

/// The corpora, read once. In test mode (`cargo test --benches`: no `--bench`
/// argument, or `--test`), a missing corpus is replaced by a small generated
/// text so that every benchmark still runs once; a real run refuses to
/// measure nothing.
fn corpora() -> &'static [String; 3] {
    static TEXTS: OnceLock<[String; 3]> = OnceLock::new();
    TEXTS.get_or_init(|| {
        CORPORA.map(|name| {
            let path = corpus_dir().join(name);
            match std::fs::read_to_string(&path) {
                Ok(text) => text,
                Err(_) if test_mode() => {
                    "A short paragraph. With two sentences.\n\n# Heading\n\nfn main() {}\n"
                        .repeat(200)
                }
                Err(e) => {
                    eprintln!(
                        "cannot read the benchmark corpus {}: {e}\n\
                         run bench/corpus.sh first (it assembles target/corpus/ from pinned packages)",
                        path.display()
                    );
                    std::process::exit(2)
                }
            }
        })
    })
}

/// Whether divan only checks that the benchmarks run (its own rule).
fn test_mode() -> bool {
    let args: Vec<String> = std::env::args().collect();
    args.iter().any(|a| a == "--test") || !args.iter().any(|a| a == "--bench")
}

/// One point of the matrix: which corpus, what `size` counts, and the size.
#[derive(Clone, Copy)]
struct Case {
    corpus: usize,
    unit: Unit,
    size: usize,
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = CORPORA[self.corpus].split('.').next().unwrap_or("");
        write!(f, "{name}/{}/{}", self.unit, self.size)
    }
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for corpus in 0..CORPORA.len() {
        for unit in Unit::ALL {
            for size in SIZES {
                out.push(Case { corpus, unit, size });
            }
        }
    }
    out
}

fn fixed(case: &Case) -> Config {
    Config::fixed(case.size, 0).with_unit(case.unit)
}

/// The default separators (`\n\n`, `\n`, space, hard cut), as a user who
/// changes nothing but the size gets.
fn recursive(case: &Case) -> Config {
    Config::recursive(case.size).with_unit(case.unit)
}

fn run(bencher: Bencher, case: &Case, config: Config, trace: bool) {
    let text = corpora()[case.corpus].as_str();
    let splitter = Splitter::new(config, &chunkscope::Resources::tiktoken())
        .expect("a valid benchmark configuration");
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| -> usize {
            if trace {
                let out: Output = splitter.split(black_box(text)).expect("splits");
                out.chunks.len() + out.trace.nodes.len()
            } else {
                splitter.chunks(black_box(text)).expect("splits").len()
            }
        });
}

#[divan::bench(args = cases(), sample_count = 20, sample_size = 1)]
fn fixed_trace(bencher: Bencher, case: &Case) {
    run(bencher, case, fixed(case), true);
}

#[divan::bench(args = cases(), sample_count = 20, sample_size = 1)]
fn fixed_plain(bencher: Bencher, case: &Case) {
    run(bencher, case, fixed(case), false);
}

#[divan::bench(args = cases(), sample_count = 20, sample_size = 1)]
fn recursive_trace(bencher: Bencher, case: &Case) {
    run(bencher, case, recursive(case), true);
}

#[divan::bench(args = cases(), sample_count = 20, sample_size = 1)]
fn recursive_plain(bencher: Bencher, case: &Case) {
    run(bencher, case, recursive(case), false);
}

/// LangChain's `split_text` as the Python classes run it
/// (`langchain::split_texts`: the strings alone), in chars, on the Markdown
/// corpus, with LangChain's defaults otherwise.
#[divan::bench(args = SIZES, sample_count = 20, sample_size = 1)]
fn langchain_texts(bencher: Bencher, size: usize) {
    let text = corpora()[0].as_str();
    let config = chunkscope::langchain::LangChainConfig::recursive(size, 0);
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| -> usize {
            let (texts, _) = chunkscope::langchain::split_texts(
                black_box(text),
                &config,
                &chunkscope::Resources::tiktoken(),
            )
            .expect("splits");
            texts.len()
        });
}

/// The Markdown strategy on the Markdown corpus, in chars and bytes.
fn markdown_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for unit in [Unit::Chars, Unit::Bytes] {
        for size in SIZES {
            out.push(Case {
                corpus: 0,
                unit,
                size,
            });
        }
    }
    out
}

fn markdown(case: &Case) -> Config {
    Config::markdown(case.size).with_unit(case.unit)
}

#[divan::bench(args = markdown_cases(), sample_count = 20, sample_size = 1)]
fn markdown_trace(bencher: Bencher, case: &Case) {
    run(bencher, case, markdown(case), true);
}

#[divan::bench(args = markdown_cases(), sample_count = 20, sample_size = 1)]
fn markdown_plain(bencher: Bencher, case: &Case) {
    run(bencher, case, markdown(case), false);
}

/// The same with the heading prefix counted in the size.
#[divan::bench(args = markdown_cases(), sample_count = 20, sample_size = 1)]
fn markdown_prefix_plain(bencher: Bencher, case: &Case) {
    run(
        bencher,
        case,
        markdown(case).with_heading_prefix(true),
        false,
    );
}

/// The sentence strategy's cases: every corpus and size, in chars (the
/// segmenter's cost does not depend on the unit; the packing's is that of
/// the recursive engine).
fn sentence_cases() -> Vec<Case> {
    cases()
        .into_iter()
        .filter(|c| c.unit == Unit::Chars)
        .collect()
}

fn sentence(case: &Case) -> Config {
    Config {
        size: case.size,
        ..Config::for_strategy(chunkscope::Strategy::Sentence)
    }
    .with_unit(case.unit)
}

#[divan::bench(args = sentence_cases(), sample_count = 20, sample_size = 1)]
fn sentence_trace(bencher: Bencher, case: &Case) {
    run(bencher, case, sentence(case), true);
}

#[divan::bench(args = sentence_cases(), sample_count = 20, sample_size = 1)]
fn sentence_plain(bencher: Bencher, case: &Case) {
    run(bencher, case, sentence(case), false);
}

/// Finding the sentences alone (`sentence::sentences`), and with every
/// doubtful stop's decision recorded (`segment(text, true)`, as a trace does).
#[divan::bench(args = [0, 1, 2], sample_count = 20, sample_size = 1)]
fn sentences_only(bencher: Bencher, corpus: usize) {
    let text = corpora()[corpus].as_str();
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| chunkscope::sentence::sentences(black_box(text)).len());
}

#[divan::bench(args = [0, 1, 2], sample_count = 20, sample_size = 1)]
fn sentences_recorded(bencher: Bencher, corpus: usize) {
    let text = corpora()[corpus].as_str();
    bencher.counter(BytesCount::of_str(text)).bench(|| {
        let s = chunkscope::sentence::segment(black_box(text), true);
        s.spans.len() + s.decisions.len()
    });
}

/// A million tiny paragraphs (`"Item 123456.\n\n"`, 14–16 MB): the most
/// nodes per byte any real text makes, so the cost of bookkeeping shows.
#[divan::bench(args = [false, true], sample_count = 5, sample_size = 1)]
fn million_paragraphs(bencher: Bencher, trace: bool) {
    static TEXT: OnceLock<String> = OnceLock::new();
    let text = TEXT.get_or_init(|| (0..1_000_000).map(|i| format!("Item {i}.\n\n")).collect());
    let splitter =
        Splitter::new(Config::recursive(1000), &chunkscope::Resources::tiktoken()).expect("valid");
    bencher.counter(BytesCount::of_str(text)).bench(|| {
        if trace {
            splitter
                .split(black_box(text))
                .expect("splits")
                .chunks
                .len()
        } else {
            splitter.chunks(black_box(text)).expect("splits").len()
        }
    });
}

fn main() {
    corpora();
    divan::main();
}
