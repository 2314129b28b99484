//! Splits one file through the library and prints a one-line summary: for
//! measuring what a large input costs in time and memory without the CLI's JSON
//! (see `bench/memory.sh`).
//!
//! Usage: `split_file FILE [SIZE] [--trace] [--fixed]`

use chunkscope::{Config, Splitter};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: split_file FILE [SIZE] [--trace] [--fixed]";
    let path = args.first().expect(usage);
    let size = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let trace = args.iter().any(|a| a == "--trace");
    let config = if args.iter().any(|a| a == "--fixed") {
        Config::fixed(size, 0)
    } else {
        Config::recursive(size)
    };
    let text = std::fs::read_to_string(path).expect("a readable UTF-8 file");
    let splitter =
        Splitter::new(config, &chunkscope::Resources::tiktoken()).expect("a valid configuration");
    let started = Instant::now();
    let (chunks, nodes) = if trace {
        let out = splitter.split(&text).expect("splits");
        (out.chunks.len(), out.trace.nodes.len())
    } else {
        (splitter.chunks(&text).expect("splits").len(), 0)
    };
    let took = started.elapsed().as_secs_f64();
    println!(
        "{} bytes, {chunks} chunks, {nodes} trace nodes, {:.3} s, {:.0} MB/s",
        text.len(),
        took,
        text.len() as f64 / took / 1e6
    );
}
