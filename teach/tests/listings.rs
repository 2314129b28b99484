//! The lessons' listings against the lessons' own text, each known bug against
//! its line, and each bug's run against what the Python code returns.
//!
//! `seeds/` holds the listings exactly as the lessons' pages give them: lesson
//! 000's two functions lost their line breaks (one line), lesson 002's eleven
//! lines lost their indentation, lesson 001's class is intact.

use chunkscope::{split, Error};
use chunkscope_teach::bugs::{self, Bug};
use chunkscope_teach::listings::{score, Listing, Score, LISTINGS};

const SEED_000: &str = include_str!("seeds/000.txt");
const SEED_001: &str = include_str!("seeds/001.txt");
const SEED_002: &str = include_str!("seeds/002.txt");
const SEED_004: &str = include_str!("seeds/004.txt");

fn listing(name: &str) -> &'static Listing {
    Listing::parse(name).unwrap()
}

/// The lesson's text a listing was taken from, and whether a listing line
/// (as the lesson's page would show it) is in it.
fn in_seed(name: &str, line: &str) -> bool {
    match name {
        "fixed_chunks" | "recursive_split" => SEED_000.contains(line),
        "split" => SEED_002.lines().any(|l| l == line.trim_start()),
        "RecursiveTextChunker" => SEED_001.lines().any(|l| l == line),
        "fixed_windows" => SEED_004.lines().any(|l| l == line),
        other => panic!("no lesson text for {other}"),
    }
}

#[test]
fn the_listings_are_the_lessons_code_with_only_line_breaks_and_indents_restored() {
    let names: Vec<&str> = LISTINGS.iter().map(|l| l.name).collect();
    assert_eq!(
        names,
        [
            "fixed_chunks",
            "recursive_split",
            "split",
            "RecursiveTextChunker",
            "fixed_windows"
        ]
    );
    // Lesson 000: both functions, line breaks taken out, are its one line.
    let joined: String = [listing("fixed_chunks"), listing("recursive_split")]
        .iter()
        .flat_map(|l| l.lines())
        .collect();
    assert_eq!(joined, SEED_000.trim_end_matches('\n'));
    assert_eq!(listing("fixed_chunks").lines().count(), 13);
    assert_eq!(listing("recursive_split").lines().count(), 27);
    // Lesson 002: "python · 11 lines"; without indentation and the blank line,
    // line for line the lesson's ten.
    let split = listing("split");
    assert_eq!(split.lines().count(), 11);
    let bare: Vec<&str> = split
        .lines()
        .map(str::trim_start)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(bare, SEED_002.lines().collect::<Vec<_>>());
    // Lesson 001: exactly as printed, the whitespace-only lines included.
    assert_eq!(listing("RecursiveTextChunker").code, SEED_001);
    assert_eq!(listing("RecursiveTextChunker").lines().count(), 39);
    // Lesson 004: exactly as printed, from its imports to `return result`.
    assert_eq!(listing("fixed_windows").code, SEED_004);
    assert_eq!(listing("fixed_windows").lines().count(), 30);
}

#[test]
fn every_known_bug_sits_on_a_line_of_the_lesson_that_holds_its_code() {
    let mut checked = 0;
    for l in &LISTINGS {
        let lines: Vec<&str> = l.lines().collect();
        let mut last = 0;
        for b in l.bugs {
            assert!(b.line >= last, "{}: bugs in line order", l.name);
            last = b.line;
            let line = lines
                .get(b.line - 1)
                .unwrap_or_else(|| panic!("{}: no line {}", l.name, b.line));
            assert!(
                line.contains(b.code),
                "{} line {}: {line:?} does not hold {:?}",
                l.name,
                b.line,
                b.code
            );
            assert!(
                in_seed(l.name, line),
                "{} line {}: {line:?} is not the lesson's",
                l.name,
                b.line
            );
            assert!(!b.what.is_empty() && !b.title.is_empty());
            checked += 1;
        }
    }
    assert_eq!(checked, 15);
    // The lines, as a learner would count them.
    let lines = |name: &str| listing(name).bug_lines();
    assert_eq!(lines("fixed_chunks"), Vec::<usize>::new());
    assert_eq!(lines("recursive_split"), [5]);
    assert_eq!(lines("split"), [2, 5, 9]);
    assert_eq!(
        lines("RecursiveTextChunker"),
        [6, 20, 22, 25, 32, 35, 36, 38]
    );
    // Seed 001: the seven the gallery reproduced before, the four added with
    // their own gallery entries, and the empty chunk.
    let class = listing("RecursiveTextChunker");
    assert_eq!(class.bugs.len(), 11);
    for bug in [
        Bug::OverlapSkipped,
        Bug::MidWordOverlap,
        Bug::UncheckedOverlap,
        Bug::LostOffsets,
    ] {
        assert_eq!(class.bugs.iter().filter(|b| b.bug == bug).count(), 1);
    }
}

/// What each bug's run returns, as CPython returns it on the same text and
/// settings (`None`: the Python raises) from the code the variant models:
/// lesson 001's class, lesson 002's eleven lines, and for `split`'s lines 2
/// and 5 lesson 000's `recursive_split` with the same mistake put in (its
/// hard cut replaced by `return [text]`, its `p + sep` by the bare pieces).
/// The positions mistake is lesson 001's class with `text.find(chunk)`.
fn python_says(name: &str, line: usize, title: &str) -> Option<&'static [&'static str]> {
    Some(match (name, line, title) {
        ("recursive_split", 5, _) | ("RecursiveTextChunker", 25, _) => {
            &["Status: open.", "Notes: none.", "Status: open."]
        }
        ("split", 2, _) => &[
            "Logo at",
            "https://cdn.example.com/assets/2024/brand/logo-final-final-v7.svg",
            "today.",
        ],
        ("split", 5, _) => &["It rainsTake a coat", "The bus is lateWalk."],
        ("split", 9, _) => &["aa", "bbb", "c", "c", "c", "c", "c", "c"],
        ("RecursiveTextChunker", 6, _) => &["one two", "three", "four five", "six"],
        ("RecursiveTextChunker", 20, _) => &["Fees.", "", "None."],
        ("RecursiveTextChunker", 22, "Overlap breaks the size") => {
            &["aaaa bbbb", "bbbb cccc", "cccc dddddddd"]
        }
        ("RecursiveTextChunker", 22, "Overlap 0 repeats everything") => {
            &["aa", "aa bb", "aa bb cc", "aa bb cc dd", "aa bb cc dd ee"]
        }
        ("RecursiveTextChunker", 22, "No overlap after a short chunk") => &[
            "Hi all.",
            "Refunds take five days.",
            "e days.\n\nCash is instant.",
        ],
        ("RecursiveTextChunker", 22, "Overlap starts mid-word") => &[
            "Refunds take five days.",
            "ays. Cash refunds are",
            "are instant.",
        ],
        ("RecursiveTextChunker", 32, _) => return None,
        ("RecursiveTextChunker", 35, _) => &["Logo:", "https://cdn.example.com/logo.svg"],
        ("RecursiveTextChunker", 36, _) => &["Refunds", "take five", "days Cash", "is", "instant."],
        ("RecursiveTextChunker", 38, _) => &["Pay by card.", "Or cash."],
        other => panic!("no expected output for {other:?}"),
    })
}

#[test]
fn every_known_bug_runs_in_the_gallery_as_the_python_does_and_the_engine_differs() {
    let mut compared = 0;
    for l in &LISTINGS {
        for b in l.bugs {
            let demo = b.demo();
            let run = bugs::run(
                b.bug,
                demo.text,
                &demo.config,
                &chunkscope::Resources::tiktoken(),
            );
            let texts: Vec<String> = run.chunks.iter().map(|c| c.rope.text(demo.text)).collect();
            let good = split(demo.text, &demo.config, &chunkscope::Resources::tiktoken());
            match python_says(l.name, b.line, b.title) {
                Some(expected) => {
                    assert_eq!(texts, expected, "{} line {}: {}", l.name, b.line, b.title);
                    assert_eq!(run.note, None);
                }
                None => {
                    assert!(texts.is_empty());
                    assert!(run.note.as_deref().unwrap().contains("ValueError"));
                }
            }
            // The engine either refuses the setting or splits differently
            // (different texts, or the same texts at other places).
            match good {
                Err(e) => {
                    assert_eq!(b.bug, Bug::UncheckedOverlap, "{e}");
                    assert!(matches!(e, Error::OverlapTooLarge { .. }));
                }
                Ok(out) => {
                    let ours: Vec<(usize, usize)> = out
                        .chunks
                        .iter()
                        .map(|c| (c.span.start, c.span.end))
                        .collect();
                    let theirs: Vec<(usize, usize)> = run
                        .chunks
                        .iter()
                        .map(|c| c.rope.slice().map_or((0, 0), |s| (s.start, s.end)))
                        .collect();
                    assert_ne!(ours, theirs, "{} line {}", l.name, b.line);
                }
            }
            compared += 1;
        }
    }
    assert_eq!(compared, 15);
}

#[test]
fn marks_are_scored_in_lines() {
    let class = listing("RecursiveTextChunker");
    assert_eq!(
        score(class, [22, 38, 3, 22]),
        Score {
            hits: 2,
            misses: 6,
            false_marks: 1
        }
    );
    assert_eq!(
        score(class, class.bug_lines()),
        Score {
            hits: 8,
            misses: 0,
            false_marks: 0
        }
    );
    assert_eq!(
        score(listing("fixed_chunks"), [10]),
        Score {
            hits: 0,
            misses: 0,
            false_marks: 1
        }
    );
    assert_eq!(
        score(listing("split"), []),
        Score {
            hits: 0,
            misses: 3,
            false_marks: 0
        }
    );
}
