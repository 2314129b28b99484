//! Time per MB of every strategy on inputs built to be slow, at 1×, 4× and
//! 16× their size, and how that time grows: a strategy that is linear keeps
//! the same time per MB (growth 1.0); a quadratic one quadruples it with each
//! step.
//!
//! Usage: `adversarial [BASE_KB] [SECONDS] [ONLY]` (defaults 64 KB, 0.5 s;
//! ONLY keeps the families and strategies whose name contains it). Each
//! family is built at BASE_KB, 4 × BASE_KB and 16 × BASE_KB; each
//! (family, strategy, scale) is split repeatedly for about SECONDS (at least
//! twice) and the fastest CPU time is kept. Sizes count chars, 200 per chunk,
//! no overlap; the Markdown strategies read the text as Markdown.
//!
//! Prints one tab-separated line per (family, strategy):
//! `<family> <strategy> <µs/MB at 1×> <4×> <16×> <growth> <chunks at 16×>`,
//! where growth is the time per MB at 16× over the time per MB at 1×, or
//! `refused: <message>` when the strategy refuses the input (a pathological
//! regex whose search runs out of its step budget is refused, not slow).
//! `docs/performance.md` has the table and what it says.

use chunkscope::{Config, Separator, Strategy};
use std::hint::black_box;
use std::time::{Duration, Instant};

#[path = "common/cpu.rs"]
mod cpu;
use cpu::thread_cpu;

/// An input family: a name, and the text of about `bytes` bytes.
struct Family {
    name: &'static str,
    build: fn(usize) -> String,
    /// Separators for the strategies that take a list (`None`: their defaults).
    separators: Option<fn() -> Vec<Separator>>,
}

/// `unit` repeated until the text has `bytes` bytes (whole units).
fn repeat(unit: &str, bytes: usize) -> String {
    unit.repeat(bytes.div_ceil(unit.len()).max(1))
}

const FAMILIES: [Family; 9] = [
    Family {
        name: "one run, no separator",
        build: |n| repeat("a", n),
        separators: None,
    },
    Family {
        name: "a space every char",
        build: |n| repeat("a ", n),
        separators: None,
    },
    Family {
        name: "a blank line every char",
        build: |n| repeat("a\n\n", n),
        separators: None,
    },
    Family {
        name: "100k tiny sentences per MB",
        build: |n| repeat("It is. ", n),
        separators: None,
    },
    Family {
        name: "Markdown nested 100 deep",
        build: |n| {
            let mut block = String::new();
            for depth in 0..100 {
                block.push_str(&"  ".repeat(depth));
                block.push_str("- item\n");
            }
            block.push_str(&"> ".repeat(100));
            block.push_str("quote\n\n");
            repeat(&block, n)
        },
        separators: None,
    },
    Family {
        name: "Markdown headings every line",
        build: |n| repeat("# H\n## H\n### H\n", n),
        separators: None,
    },
    Family {
        name: "one table row of the whole text",
        build: |n| format!("| a | b |\n| --- | --- |\n|{}\n", repeat(" cell |", n)),
        separators: None,
    },
    Family {
        name: "one fence of the whole text",
        build: |n| format!("```\n{}```\n", repeat("x = 1\n", n)),
        separators: None,
    },
    Family {
        name: "regex (a+)+b on a run of a",
        build: |n| repeat("a", n),
        separators: Some(|| vec![Separator::regex("(a+)+b"), Separator::hard_cut()]),
    },
];

/// The configuration of `strategy` for `family`: 200 chars, no overlap.
fn config(strategy: Strategy, family: &Family) -> Config {
    let mut config = Config::for_strategy(strategy);
    config.size = 200;
    config.overlap = 0;
    let takes_list = matches!(
        strategy,
        Strategy::Recursive | Strategy::LangChain | Strategy::LangChainCharacter
    );
    if let (Some(separators), true) = (family.separators, takes_list) {
        config.separators = separators();
    }
    config
}

/// The best CPU time of splitting `text` for about `budget` (at least twice),
/// and the number of chunks, or the refusal.
fn time(config: &Config, text: &str, budget: Duration) -> Result<(f64, usize), String> {
    let splitter = chunkscope::Splitter::new(config.clone(), &chunkscope::Resources::tiktoken())
        .map_err(|e| e.to_string())?;
    let (mut best, mut chunks, mut runs) = (f64::INFINITY, 0, 0);
    let started = Instant::now();
    while runs < 2 || started.elapsed() < budget {
        let cpu = thread_cpu();
        chunks = black_box(splitter.chunks(text).map_err(|e| e.to_string())?).len();
        best = best.min((thread_cpu() - cpu).as_secs_f64());
        runs += 1;
    }
    Ok((best, chunks))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let base_kb: usize = args
        .next()
        .map_or(64, |a| a.parse().expect("BASE_KB: a number"));
    let seconds: f64 = args
        .next()
        .map_or(0.5, |a| a.parse().expect("SECONDS: a number"));
    let only = args.next().unwrap_or_default();
    let budget = Duration::from_secs_f64(seconds);
    println!("family\tstrategy\tus/MB 1x\tus/MB 4x\tus/MB 16x\tgrowth\tchunks 16x");
    for family in &FAMILIES {
        let texts: Vec<String> = [1, 4, 16]
            .map(|k| (family.build)(base_kb * 1024 * k))
            .into();
        for strategy in Strategy::ALL {
            // The regex family is about the list's regex: only the strategies
            // that take a list run it.
            if !family.name.contains(&only) && !strategy.name().contains(&only) {
                continue;
            }
            let config = config(strategy, family);
            if family.separators.is_some() && !config.separators.iter().any(|s| s.regex) {
                continue;
            }
            let mut per_mb = Vec::new();
            let mut last = 0;
            let mut refused = None;
            for text in &texts {
                match time(&config, text, budget) {
                    Ok((secs, chunks)) => {
                        per_mb.push(secs * 1e6 / (text.len() as f64 / 1e6));
                        last = chunks;
                    }
                    Err(why) => {
                        refused = Some(why);
                        break;
                    }
                }
            }
            match refused {
                Some(why) => println!("{}\t{}\trefused: {why}", family.name, strategy.name()),
                None => println!(
                    "{}\t{}\t{:.0}\t{:.0}\t{:.0}\t{:.2}\t{last}",
                    family.name,
                    strategy.name(),
                    per_mb[0],
                    per_mb[1],
                    per_mb[2],
                    per_mb[2] / per_mb[0]
                ),
            }
        }
    }
}
