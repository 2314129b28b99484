//! Times chunkscope on one file, in-process, for `bench/compare.sh`.
//!
//! Usage: `throughput [--unit UNIT | --markdown] FILE SECONDS SIZE...`
//!
//! With `--markdown` it times the Markdown strategy instead
//! (`chunkscope-markdown`, `+trace`, `+prefix` with the heading prefix
//! counted in the size), and LangChain's recipe through our exact LangChain
//! engines: `MarkdownHeaderTextSplitter` on `#`, `##`, `###` alone
//! (`chunkscope-lc-headers`, recorded with its trace, the only way it runs), then
//! `RecursiveCharacterTextSplitter` on each of its chunks' text
//! (`chunkscope-lc-headers+recursive`), as the LangChain docs chain them.
//!
//! With `--unit cl100k` (or `o200k`) sizes count tokens, as LangChain's
//! `from_tiktoken_encoder` does (the tokenizer is built from tiktoken-rs's
//! tables once, before timing).
//!
//! The settings are LangChain's `RecursiveCharacterTextSplitter` defaults, so
//! the comparison is like for like: separators `["\n\n", "\n", " ", ""]`, the
//! separator kept at the start of the piece after the cut, whitespace trimmed,
//! characters, no overlap. The file is read once; each size is then split
//! repeatedly for about SECONDS (at least 3 times) and the fastest run is kept,
//! so start-up and I/O are excluded.
//!
//! Prints, tab-separated, one line per engine and size:
//! `<engine> <size> <best wall s> <best cpu s> <chunks> <bytes>`, where the
//! engine is `chunkscope` (no trace, [`Splitter::chunks`]) or
//! `chunkscope+trace` ([`Splitter::split`]). CPU time is the thread's own, which
//! other processes on a busy machine do not inflate.

use chunkscope::langchain::{self, LangChainConfig, MarkdownHeaderConfig};
use chunkscope::{Config, Placement, Splitter, Unit};
use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "common/cpu.rs"]
mod cpu;
use cpu::thread_cpu;

/// Runs `f` for about `budget` (at least 3 times); the fastest wall and CPU
/// times, and what the last run returned.
fn best_of(budget: Duration, mut f: impl FnMut() -> usize) -> (f64, f64, usize) {
    let (mut wall, mut cpu, mut result) = (f64::INFINITY, f64::INFINITY, 0);
    let started = Instant::now();
    let mut runs = 0;
    while runs < 3 || started.elapsed() < budget {
        let (w, c) = (Instant::now(), thread_cpu());
        result = black_box(f());
        cpu = cpu.min((thread_cpu() - c).as_secs_f64());
        wall = wall.min(w.elapsed().as_secs_f64());
        runs += 1;
    }
    (wall, cpu, result)
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let usage = "usage: throughput [--unit UNIT | --markdown] FILE SECONDS SIZE...";
    let mut unit = Unit::Chars;
    let markdown = args.next_if(|a| a == "--markdown").is_some();
    if args.peek().is_some_and(|a| a == "--unit") {
        args.next();
        unit = args.next().expect(usage).parse().expect("a unit");
    }
    let path = args.next().expect(usage);
    let budget: f64 = args.next().and_then(|s| s.parse().ok()).expect(usage);
    let budget = Duration::from_secs_f64(budget);
    let text = std::fs::read_to_string(&path).expect("a readable UTF-8 file");
    let sizes: Vec<usize> = args.map(|s| s.parse().expect(usage)).collect();
    if markdown {
        return time_markdown(&text, budget, &sizes);
    }
    for size in sizes {
        let config = Config::recursive(size)
            .with_separators(["\n\n", "\n", " ", ""])
            .with_placement(Placement::Start)
            .with_unit(unit);
        let splitter = Splitter::new(config, &chunkscope::Resources::tiktoken())
            .expect("a valid configuration");
        let plain = best_of(budget, || splitter.chunks(black_box(&text)).unwrap().len());
        let traced = best_of(budget, || {
            splitter.split(black_box(&text)).unwrap().chunks.len()
        });
        let suffix = if unit == Unit::Chars {
            String::new()
        } else {
            format!("@{unit}")
        };
        for (engine, (wall, cpu, chunks)) in [("chunkscope", plain), ("chunkscope+trace", traced)] {
            let engine = format!("{engine}{suffix}");
            println!(
                "{engine}\t{size}\t{wall:.6}\t{cpu:.6}\t{chunks}\t{}",
                text.len()
            );
        }
    }
}

/// The Markdown strategy and LangChain's header + recursive recipe, per size.
fn time_markdown(text: &str, budget: Duration, sizes: &[usize]) {
    let print = |engine: &str, size: usize, (wall, cpu, chunks): (f64, f64, usize)| {
        println!(
            "{engine}\t{size}\t{wall:.6}\t{cpu:.6}\t{chunks}\t{}",
            text.len()
        );
    };
    let headers = MarkdownHeaderConfig::new(["#", "##", "###"]);
    for &size in sizes {
        let plain = Splitter::new(Config::markdown(size), &chunkscope::Resources::tiktoken())
            .expect("a valid configuration");
        let prefixed = Splitter::new(
            Config::markdown(size).with_heading_prefix(true),
            &chunkscope::Resources::tiktoken(),
        )
        .expect("a valid configuration");
        print(
            "chunkscope-markdown",
            size,
            best_of(budget, || plain.chunks(black_box(text)).unwrap().len()),
        );
        print(
            "chunkscope-markdown+trace",
            size,
            best_of(budget, || {
                plain.split(black_box(text)).unwrap().chunks.len()
            }),
        );
        print(
            "chunkscope-markdown+prefix",
            size,
            best_of(budget, || prefixed.chunks(black_box(text)).unwrap().len()),
        );
        print(
            "chunkscope-lc-headers",
            size,
            best_of(budget, || {
                langchain::split_markdown(black_box(text), &headers)
                    .chunks
                    .len()
            }),
        );
        let recipe = Splitter::new(
            Config {
                size,
                strategy: chunkscope::StrategyConfig::LangChainMarkdown(
                    chunkscope::HeaderSplitConfig {
                        each_line: false,
                        then_recursive: Some(Vec::new()),
                    },
                ),
                ..Config::for_strategy(chunkscope::Strategy::LangChainMarkdown)
            },
            &chunkscope::Resources::tiktoken(),
        )
        .expect("a valid configuration");
        print(
            "chunkscope-lc-recipe-strategy",
            size,
            best_of(budget, || recipe.chunks(black_box(text)).unwrap().len()),
        );
        print(
            "chunkscope-lc-recipe-strategy+trace",
            size,
            best_of(budget, || {
                recipe.split(black_box(text)).unwrap().chunks.len()
            }),
        );
        let recursive = LangChainConfig::recursive(size, 0);
        print(
            "chunkscope-lc-headers+recursive",
            size,
            best_of(budget, || {
                langchain::split_markdown(black_box(text), &headers)
                    .chunks
                    .iter()
                    .map(|c| {
                        langchain::chunks(&c.text, &recursive, &chunkscope::Resources::tiktoken())
                            .unwrap()
                            .len()
                    })
                    .sum()
            }),
        );
    }
}
