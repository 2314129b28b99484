//! Times the text-splitter strategies against the `text-splitter` crate
//! called directly, in-process on one file, for `bench/libraries.sh`.
//!
//! Usage: `text_splitter_crate STRATEGY UNIT FILE SECONDS SIZE...` (built
//! with the `tiktoken` feature; a token unit's tokenizer is loaded before
//! timing)
//!
//! The crate side is what a Rust user of the crate writes: `TextSplitter`
//! or `MarkdownSplitter` with `ChunkConfig::new(size)`, counting chars with
//! its `Characters`, or tokens with tiktoken-rs's `CoreBPE` (the sizer its
//! `tiktoken-rs` feature gives: `encode_ordinary(chunk).len()`), collecting
//! `chunk_indices`. Each side runs repeatedly for about SECONDS (at least
//! 3 times), in turns, and the fastest run is kept. Prints, tab-separated,
//! one line per size: `<size> <ours cpu s> <crate cpu s> <chunks>`, after
//! checking both sides gave the same chunks.

use chunkscope::{Config, Splitter, Strategy, Unit};
use std::hint::black_box;
use std::time::{Duration, Instant};
use text_splitter::{Characters, ChunkConfig, ChunkSizer, MarkdownSplitter, TextSplitter};

#[path = "common/cpu.rs"]
mod cpu;
use cpu::thread_cpu;

/// What the crate's `tiktoken-rs` feature implements for `CoreBPE`.
struct Tiktoken<'a>(&'a tiktoken_rs::CoreBPE);

impl ChunkSizer for Tiktoken<'_> {
    fn size(&self, chunk: &str) -> usize {
        self.0.encode_ordinary(chunk).len()
    }
}

fn crate_spans<S: ChunkSizer>(
    strategy: Strategy,
    config: ChunkConfig<S>,
    text: &str,
) -> Vec<(usize, usize)> {
    let span = |(at, chunk): (usize, &str)| (at, at + chunk.len());
    match strategy {
        Strategy::TextSplitter => TextSplitter::new(config)
            .chunk_indices(text)
            .map(span)
            .collect(),
        _ => MarkdownSplitter::new(config)
            .chunk_indices(text)
            .map(span)
            .collect(),
    }
}

fn main() {
    let usage = "usage: text_splitter_crate STRATEGY UNIT FILE SECONDS SIZE...";
    let mut args = std::env::args().skip(1);
    let strategy: Strategy = args.next().expect(usage).parse().expect("a strategy");
    let unit: Unit = args.next().expect(usage).parse().expect("a unit");
    let text = std::fs::read_to_string(args.next().expect(usage)).expect("a UTF-8 file");
    let budget: f64 = args.next().and_then(|s| s.parse().ok()).expect(usage);
    let budget = Duration::from_secs_f64(budget);
    let bpe = match unit {
        Unit::Tokens(chunkscope::tokens::Encoding::Cl100k) => {
            Some(tiktoken_rs::cl100k_base().unwrap())
        }
        Unit::Tokens(chunkscope::tokens::Encoding::O200k) => {
            Some(tiktoken_rs::o200k_base().unwrap())
        }
        _ => None,
    };
    for size in args.map(|s| s.parse::<usize>().expect(usage)) {
        let config = Config {
            size,
            unit,
            ..Config::for_strategy(strategy)
        };
        let splitter = Splitter::new(config, &chunkscope::Resources::tiktoken())
            .expect("a valid configuration");
        let run_crate = || match &bpe {
            Some(bpe) => crate_spans(
                strategy,
                ChunkConfig::new(size).with_sizer(Tiktoken(bpe)),
                &text,
            ),
            None => crate_spans(
                strategy,
                ChunkConfig::new(size).with_sizer(Characters),
                &text,
            ),
        };
        let ours: Vec<(usize, usize)> = splitter
            .split(&text)
            .expect("a split")
            .chunks
            .iter()
            .map(|c| (c.span.start, c.span.end))
            .collect();
        assert_eq!(
            ours,
            run_crate(),
            "the strategy and the crate differ at size {size}"
        );
        let (mut best_ours, mut best_crate) = (f64::INFINITY, f64::INFINITY);
        let started = Instant::now();
        let mut runs = 0;
        while runs < 3 || started.elapsed() < budget {
            let c = thread_cpu();
            black_box(splitter.chunks(black_box(&text)).expect("a split").len());
            best_ours = f64::min(best_ours, (thread_cpu() - c).as_secs_f64());
            let c = thread_cpu();
            black_box(run_crate().len());
            best_crate = f64::min(best_crate, (thread_cpu() - c).as_secs_f64());
            runs += 1;
        }
        println!("{size}\t{best_ours:.6}\t{best_crate:.6}\t{}", ours.len());
    }
}
