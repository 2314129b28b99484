//! Times `text_splitter::TextSplitter` on one file, in-process, for
//! `bench/compare.sh`: characters (its default sizer), trimming on (its
//! default), no overlap.
//!
//! With `--markdown` first, times `text_splitter::MarkdownSplitter` instead
//! (its CommonMark levels: headings, blocks, then the text levels), printed
//! as `text-splitter-markdown`.
//!
//! Usage: `peer-text-splitter [--markdown] FILE SECONDS SIZE...`. The file is read once;
//! each size is then split repeatedly for about SECONDS (at least once: one
//! run can take seconds) and the fastest run is kept, so start-up and I/O are
//! excluded. Prints, tab-separated, one line per size:
//! `text-splitter <size> <best wall s> <best cpu s> <chunks> <bytes>`.

use std::hint::black_box;
use std::time::{Duration, Instant};
use text_splitter::{ChunkConfig, MarkdownSplitter, TextSplitter};

/// The calling thread's CPU time (other processes' load does not inflate it).
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec and the clock id a constant.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let usage = "usage: peer-text-splitter [--markdown] FILE SECONDS SIZE...";
    let markdown = args.next_if(|a| a == "--markdown").is_some();
    let engine = if markdown {
        "text-splitter-markdown"
    } else {
        "text-splitter"
    };
    let path = args.next().expect(usage);
    let budget: f64 = args.next().and_then(|s| s.parse().ok()).expect(usage);
    let budget = Duration::from_secs_f64(budget);
    let text = std::fs::read_to_string(&path).expect("a readable UTF-8 file");
    for size in args.map(|s| s.parse::<usize>().expect(usage)) {
        let text_splitter = TextSplitter::new(ChunkConfig::new(size));
        let markdown_splitter = MarkdownSplitter::new(ChunkConfig::new(size));
        let (mut wall, mut cpu, mut chunks) = (f64::INFINITY, f64::INFINITY, 0);
        let started = Instant::now();
        while chunks == 0 || started.elapsed() < budget {
            let (w, c) = (Instant::now(), thread_cpu());
            chunks = if markdown {
                black_box(markdown_splitter.chunks(black_box(&text)).count())
            } else {
                black_box(text_splitter.chunks(black_box(&text)).count())
            };
            cpu = cpu.min((thread_cpu() - c).as_secs_f64());
            wall = wall.min(w.elapsed().as_secs_f64());
        }
        println!(
            "{engine}\t{size}\t{wall:.6}\t{cpu:.6}\t{chunks}\t{}",
            text.len()
        );
    }
}
