//! Times a strategy that reproduces another library on one file, in-process,
//! for `bench/libraries.sh`.
//!
//! Usage: `libraries STRATEGY UNIT FILE SECONDS SIZE...` (built with the
//! `tiktoken` feature, a token unit's tokenizer is loaded before timing)
//!
//! The file is read once; each size is split repeatedly for about SECONDS
//! (at least 3 times) and the fastest run is kept, so start-up and I/O are
//! excluded. Prints, tab-separated, one line per size:
//! `<size> <best wall s> <best cpu s> <chunks>`, CPU time being the thread's
//! own (other processes on a busy machine do not inflate it).

use chunkscope::{Config, Splitter, Unit};
use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "common/cpu.rs"]
mod cpu;
use cpu::thread_cpu;

fn main() {
    let usage = "usage: libraries STRATEGY UNIT FILE SECONDS SIZE...";
    let mut args = std::env::args().skip(1);
    let strategy = args.next().expect(usage).parse().expect("a strategy");
    let unit: Unit = args.next().expect(usage).parse().expect("a unit");
    let text = std::fs::read_to_string(args.next().expect(usage)).expect("a UTF-8 file");
    let budget: f64 = args.next().and_then(|s| s.parse().ok()).expect(usage);
    let budget = Duration::from_secs_f64(budget);
    for size in args.map(|s| s.parse::<usize>().expect(usage)) {
        let config = Config {
            size,
            unit,
            ..Config::for_strategy(strategy)
        };
        let splitter = Splitter::new(config, &chunkscope::Resources::tiktoken())
            .expect("a valid configuration");
        let (mut wall, mut cpu, mut chunks) = (f64::INFINITY, f64::INFINITY, 0);
        let started = Instant::now();
        let mut runs = 0;
        while runs < 3 || started.elapsed() < budget {
            let (w, c) = (Instant::now(), thread_cpu());
            chunks = black_box(splitter.chunks(black_box(&text)).expect("a split").len());
            cpu = f64::min(cpu, (thread_cpu() - c).as_secs_f64());
            wall = f64::min(wall, w.elapsed().as_secs_f64());
            runs += 1;
        }
        println!("{size}\t{wall:.6}\t{cpu:.6}\t{chunks}");
    }
}
