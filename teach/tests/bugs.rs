//! The bug gallery: every variant breaks the property it is there to show, on
//! the text chosen to expose it, and the correct engine on the same input keeps
//! every property.

use chunkscope::{split, Config, Property};
use chunkscope_teach::bugs::{self, Bug, BugChunk, BugRun, Finding, Findings, Piece, Rope};
use chunkscope_teach::documents::split_documents;

const ALL: [Finding; 11] = [
    Finding::Property(Property::Coverage),
    Finding::Property(Property::MaxSize),
    Finding::Property(Property::Order),
    Finding::Property(Property::Overlap),
    Finding::Packing,
    Finding::Slices,
    Finding::OverlapDelivered,
    Finding::Advances,
    Finding::Hash,
    Finding::TokenSpans,
    Finding::Boundaries,
];

fn buggy(bug: Bug, text: &str, config: &Config) -> (bugs::BugRun, Findings) {
    let run = bugs::run(bug, text, config, &chunkscope::Resources::tiktoken());
    let again = bugs::run(bug, text, config, &chunkscope::Resources::tiktoken());
    let found = bugs::findings(
        text,
        config,
        &run,
        &again,
        &chunkscope::Resources::tiktoken(),
    );
    (run, found)
}

/// The correct engine's findings: a corpus split document by document.
fn correct(text: &str, config: &Config) -> Findings {
    let out = split_documents(text, config, &chunkscope::Resources::tiktoken()).unwrap();
    let again = split_documents(text, config, &chunkscope::Resources::tiktoken()).unwrap();
    bugs::findings_of(
        text,
        config,
        &out,
        &again,
        &chunkscope::Resources::tiktoken(),
    )
}

fn texts(text: &str, run: &bugs::BugRun) -> Vec<String> {
    run.chunks.iter().map(|c| c.rope.text(text)).collect()
}

#[test]
fn every_bug_breaks_what_it_should_and_the_engine_does_not() {
    for bug in Bug::ALL {
        let demo = bug.demo();
        let (_, found) = buggy(bug, demo.text, &demo.config);
        for p in ALL {
            let broken = bug.breaks().contains(&p);
            assert_eq!(
                found.of(p).ok,
                !broken,
                "{bug:?} / {p:?}: {}",
                found.of(p).detail
            );
        }
        assert!(found.of(Finding::Property(Property::Determinism)).ok);
        if bug == Bug::UncheckedOverlap {
            // Its point: the engine refuses what the variant runs with.
            assert!(split(demo.text, &demo.config, &chunkscope::Resources::tiktoken()).is_err());
            continue;
        }
        let good = correct(demo.text, &demo.config);
        for p in ALL {
            assert!(
                good.of(p).ok,
                "correct engine on {bug:?}'s demo breaks {p:?}: {}",
                good.of(p).detail
            );
        }
        assert!(good.of(Finding::Property(Property::Determinism)).ok);
    }
}

#[test]
fn seed_002_with_and_without_the_merge_pass() {
    let demo = Bug::NoMerge.demo();
    let (run, found) = buggy(Bug::NoMerge, demo.text, &demo.config);
    assert_eq!(
        texts(demo.text, &run),
        ["aa", "bbb", "c", "c", "c", "c", "c", "c"]
    );
    assert!(
        found.checks.all_ok(),
        "no-merge breaks no invariant, only packing"
    );
    let out = split(demo.text, &demo.config, &chunkscope::Resources::tiktoken()).unwrap();
    let good: Vec<&str> = out.chunks.iter().map(|c| c.text(demo.text)).collect();
    assert_eq!(good, ["aa", "bbb", "ccc", "ccc"]);
}

#[test]
fn the_range_loop_adds_an_overlap_only_tail() {
    let (run, found) = buggy(Bug::TailWindow, "abcdefghij", &Config::fixed(4, 1));
    assert_eq!(texts("abcdefghij", &run), ["abcd", "defg", "ghij", "j"]);
    assert!(found
        .of(Finding::Property(Property::Order))
        .detail
        .contains("lies inside chunk 2"));
    assert_eq!(
        found.of(Finding::Advances).detail,
        "chunk 3 ends at position 10, not after chunk 2, which ends at 10: by the positions \
         given, that step did not move on"
    );
}

#[test]
fn a_window_count_rounded_down_loses_the_end() {
    let demo = Bug::MissingTail.demo();
    let (run, found) = buggy(Bug::MissingTail, demo.text, &demo.config);
    // Python: count = (37 - 10) // 8 + 1 = 4.
    assert_eq!(
        texts(demo.text, &run),
        ["Refunds ta", "take 5 day", "ays. Cash ", "h is insta"]
    );
    assert_eq!(
        found.of(Finding::Property(Property::Coverage)).detail,
        "'n' at position 34 is in no chunk: text was lost"
    );
    let out = split(demo.text, &demo.config, &chunkscope::Resources::tiktoken()).unwrap();
    let good: Vec<&str> = out.chunks.iter().map(|c| c.text(demo.text)).collect();
    assert_eq!(
        good,
        [
            "Refunds ta",
            "take 5 day",
            "ays. Cash ",
            "h is insta",
            "tant."
        ]
    );
    // A text shorter than one window gives a negative count: no chunk at all.
    let (run, found) = buggy(Bug::MissingTail, "Refunds.", &Config::fixed(10, 2));
    assert!(run.chunks.is_empty());
    assert!(!found.of(Finding::Property(Property::Coverage)).ok);
    // The stride 8 divides 42 - 10: then the count is right.
    let text = "Refunds take 5 days. Cash is instant here.";
    let (_, found) = buggy(Bug::MissingTail, text, &Config::fixed(10, 2));
    assert!(found.of(Finding::Property(Property::Coverage)).ok);
}

#[test]
fn the_dropped_separator_loses_the_full_stops_and_glues_sentences() {
    let demo = Bug::DroppedSeparator.demo();
    let (run, found) = buggy(Bug::DroppedSeparator, demo.text, &demo.config);
    assert_eq!(
        texts(demo.text, &run),
        ["It rainsTake a coat", "The bus is lateWalk."]
    );
    assert!(found
        .of(Finding::Property(Property::Coverage))
        .detail
        .contains("'.'"));
    assert!(found
        .of(Finding::Property(Property::Order))
        .detail
        .contains("leaves out \". \""));
}

#[test]
fn no_progress_is_stopped_by_its_budget_even_on_a_long_text() {
    let text = "word ".repeat(20_000) + "\n\n" + &"x".repeat(5_000);
    let config = Config::recursive(40).with_separators(["\n\n", " ", ""]);
    let (run, found) = buggy(Bug::NoProgress, &text, &config);
    let note = run.note.expect("the budget stops it");
    assert!(
        note.starts_with(&format!(
            "stopped after {} levels without progress",
            bugs::STALL_BUDGET
        )),
        "{note}"
    );
    assert!(!found.of(Finding::Property(Property::MaxSize)).ok);
    // The stalled piece is the first one "\n\n" gives: the words, which
    // hold no "\n\n" to split on again.
    assert_eq!(run.stalled.map(|s| (s.start, s.end)), Some((0, 100_000)));
    assert_eq!(
        found.of(Finding::Advances).detail,
        format!(
            "the piece at chars 0–100000 was split into itself level after level: the \
             recursion never advanced (stopped after {} levels)",
            bugs::STALL_BUDGET
        )
    );
    // The same list made shorter at each level (seed 002 as written) advances.
    let (run, found) = buggy(Bug::NoMerge, &text, &config);
    assert_eq!((run.stalled, found.of(Finding::Advances).ok), (None, true));
}

/// Seed 001, one bug at a time.
mod seed_001 {
    use super::*;

    fn chunks(
        text: &str,
        size: usize,
        overlap: usize,
        seps: &[&str],
    ) -> (Vec<String>, Findings, Option<String>) {
        let config = Config::recursive(size)
            .with_overlap(overlap)
            .with_separators(seps.iter().copied());
        let (run, found) = buggy(Bug::Seed001, text, &config);
        (texts(text, &run), found, run.note)
    }

    #[test]
    fn appends_the_separator_after_the_last_piece_too() {
        // "bbbb" is the last piece of its split: the "," after it is made up
        // (and the blank line that really followed it is gone).
        let (out, found, _) = chunks("aaaa,bbbb\n\ncc", 8, 0, &["\n\n", ","]);
        assert_eq!(out[1], "aaaa,bbbb,");
        assert!(
            found
                .of(Finding::Property(Property::Order))
                .detail
                .contains("does not have there"),
            "{}",
            found.of(Finding::Property(Property::Order)).detail
        );
    }

    #[test]
    fn drops_the_separator_of_a_piece_it_recurses_into() {
        let (out, found, _) = chunks("one two three four. End.", 12, 1, &[". ", " "]);
        assert!(out.iter().all(|c| !c.contains("four.")), "{out:?}");
        assert!(!found.of(Finding::Property(Property::Coverage)).ok);
    }

    #[test]
    fn has_no_reachable_hard_cut() {
        let (out, found, _) = chunks("see aaaaaaaaaaaaaaaaaaaa", 10, 1, &["\n\n", " "]);
        assert!(out.iter().any(|c| c == "aaaaaaaaaaaaaaaaaaaa"), "{out:?}");
        assert!(!found.of(Finding::Property(Property::MaxSize)).ok);
    }

    #[test]
    fn overlap_is_added_without_checking_the_size() {
        let (out, found, _) = chunks("aaaa bbbb cccc dddddddd", 10, 5, &[" "]);
        assert!(out.iter().any(|c| c.chars().count() > 10), "{out:?}");
        assert!(!found.of(Finding::Property(Property::MaxSize)).ok);
    }

    #[test]
    fn overlap_zero_repeats_everything_before() {
        let (out, found, _) = chunks("aa bb cc dd ee", 5, 0, &[" "]);
        assert_eq!(out.last().unwrap(), "aa bb cc dd ee", "{out:?}");
        assert!(!found.of(Finding::Property(Property::Overlap)).ok);
    }

    #[test]
    fn strip_can_leave_an_empty_chunk() {
        let (out, found, _) = chunks("a\n\n\n\n\n\nb", 3, 1, &["\n\n"]);
        assert!(out.iter().any(String::is_empty), "{out:?}");
        assert!(
            found
                .of(Finding::Property(Property::Order))
                .detail
                .contains("is empty"),
            "{}",
            found.of(Finding::Property(Property::Order)).detail
        );
    }

    #[test]
    fn the_empty_separator_would_crash_it() {
        let (out, _, note) = chunks("aaaaaaaaaaaaaaaa", 5, 0, &["\n", ""]);
        assert!(out.is_empty());
        assert!(note.unwrap().contains("ValueError"));
    }

    #[test]
    fn its_snowball_is_stopped_by_the_output_budget() {
        let text = "ab ".repeat(5_000);
        let (_, _, note) = chunks(&text, 10, 0, &[" "]);
        assert!(note.unwrap().starts_with("stopped after"));
    }
}

/// "Overlap delivered" is a property of the correct engine, not a verdict
/// fitted to the demos: on generated texts, lists, placements and units,
/// every recursive split with an overlap keeps it. (The gallery's three
/// overlap variants are its planted failures.)
#[test]
fn the_correct_engine_delivers_the_overlap() {
    use chunkscope::{Placement, Unit};
    let mut seed: u64 = 0x005e_ed0f_0ae7;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % n
    };
    const WORDS: [&str; 9] = [
        "a",
        "to",
        "refund",
        "days",
        "é",
        "😀😀",
        "UPI",
        "instantaneous",
        "x1",
    ];
    const GAPS: [&str; 6] = [" ", " ", "  ", "\n", "\n\n", ". "];
    const SEPS: [&str; 5] = ["\n\n", "\n", ". ", " ", ""];
    let (mut compared, mut delivered) = (0, 0);
    for _ in 0..3000 {
        let mut text = String::new();
        for w in 0..1 + next(30) {
            if w > 0 {
                text.push_str(GAPS[next(GAPS.len())]);
            }
            text.push_str(WORDS[next(WORDS.len())]);
        }
        let size = 2 + next(40);
        let mut seps: Vec<&str> = SEPS.iter().copied().filter(|_| next(3) > 0).collect();
        if next(2) == 0 {
            seps.push("");
        }
        let mut config = Config::recursive(size)
            .with_separators(seps)
            .with_overlap(1 + next(size - 1))
            .with_unit(if next(4) == 0 {
                Unit::Bytes
            } else {
                Unit::Chars
            })
            .with_trim(next(3) > 0);
        config.placement = [Placement::End, Placement::Start, Placement::None][next(3)];
        let Ok(out) = split(&text, &config, &chunkscope::Resources::tiktoken()) else {
            continue; // a word too long without the hard cut, in bytes: refused
        };
        let spans: Vec<chunkscope::Span> = out.chunks.iter().map(|c| c.span).collect();
        let counter = chunkscope::Resources::tiktoken()
            .counter(config.unit)
            .unwrap();
        let check = bugs::overlap_delivered(&text, &config, counter, &spans);
        assert!(check.ok, "{text:?} {config:?}: {}", check.detail);
        compared += 1;
        delivered += out.chunks.iter().filter(|c| c.overlap.is_some()).count();
    }
    assert!(compared > 2500, "{compared} splits compared");
    assert!(delivered > 5000, "{delivered} overlaps delivered");
}

#[test]
fn a_size_check_keeps_the_old_revision_and_the_hash_says_so() {
    let demo = Bug::StaleIndex.demo();
    let (run, found) = buggy(Bug::StaleIndex, demo.text, &demo.config);
    assert_eq!(
        texts(demo.text, &run),
        [
            "Card refunds take ten working days.",
            "Cash refunds are instant.",
            "Disputes: help@pay.example"
        ]
    );
    assert_eq!(
        found.of(Finding::Hash).detail,
        "chunk 0 holds “Card refunds take ten working days.” (SHA-256 ec43a9580059…), but the \
         text at its position, chars 0–35, reads “Card refunds take six working days.” (SHA-256 \
         37cf99d531dc…): its vector and its citation are of text the document does not have there"
    );
    assert_eq!(
        run.note.as_deref(),
        Some("the text is still 90 bytes, as when it was indexed, so this pipeline kept the chunks it made then")
    );
    // Only the chunk the edit is in is stale: an edit in the last one.
    let late = bugs::STALE_INDEXED.replace("help@", "halp@");
    let (_, found) = buggy(Bug::StaleIndex, &late, &demo.config);
    assert!(found.of(Finding::Hash).detail.starts_with("chunk 2 holds"));
    // A change of size is noticed: split again, every hash current.
    let longer = demo.text.replace("six", "sixty");
    let (run, found) = buggy(Bug::StaleIndex, &longer, &demo.config);
    assert!(
        found.of(Finding::Hash).ok,
        "{}",
        found.of(Finding::Hash).detail
    );
    assert!(run.note.unwrap().contains("the size changed"));
    let (_, found) = buggy(Bug::StaleIndex, bugs::STALE_INDEXED, &demo.config);
    assert_eq!(
        found.of(Finding::Hash).detail,
        "the SHA-256 of each of the 3 chunks is the hash of the text at its position"
    );
}

/// A run of one chunk made of `pieces`, said to be `tokens`.
fn one_chunk(pieces: Vec<Piece>, tokens: Option<(usize, usize)>) -> BugRun {
    BugRun {
        chunks: vec![BugChunk {
            rope: Rope { pieces },
            parent: None,
            tokens,
        }],
        ..BugRun::default()
    }
}

#[test]
fn the_hash_check_catches_a_chunk_one_character_off() {
    let text = "Refunds take 5 days. Cash is instant.";
    let config = Config::recursive(20);
    let run = |pieces| one_chunk(pieces, None);
    let whole = chunkscope::Span::new(0, text.len());
    let right = run(vec![Piece::Source(whole)]);
    assert!(judged_once(text, &config, &right).hash.ok);
    // A planted bug: the chunk's text has one character the text has not.
    let wrong = run(vec![Piece::Source(whole), Piece::Added("!".into())]);
    let found = judged_once(text, &config, &wrong);
    assert!(
        found
            .hash
            .detail
            .starts_with("chunk 0 holds “Refunds take 5 days. Cash is instant.!”"),
        "{}",
        found.hash.detail
    );
}

fn cl100k() -> chunkscope::Unit {
    chunkscope::Unit::Tokens(chunkscope::tokens::Encoding::Cl100k)
}

#[test]
fn token_spans_guessed_from_strings_drift_from_the_documents_tokens() {
    let demo = Bug::SplitBeforeTokens.demo();
    let (run, found) = buggy(Bug::SplitBeforeTokens, demo.text, &demo.config);
    // The listing, run in CPython with tiktoken's cl100k_base, returns these
    // strings and spans: 12, 11 and 11 tokens counted alone, where tiktoken
    // has the page as 33, its token 22 “ get” at bytes 78–82.
    let spans: Vec<Option<(usize, usize)>> = run.chunks.iter().map(|c| c.tokens).collect();
    assert_eq!(spans, [Some((0, 12)), Some((12, 23)), Some((23, 34))]);
    assert_eq!(
        texts(demo.text, &run),
        [
            "Refund policy\n\nRefunds take 5 days. They",
            " go to the original UPI id.\nCOD orders g",
            "et store credit.\n\nContact us 24x7."
        ]
    );
    assert_eq!(
        found.of(Finding::TokenSpans).detail,
        "chunk 1 ends at char 80 inside the document's token “ get” (token 22): no span of \
         document tokens is this chunk, and counting it alone makes tokens the document does not \
         have (counted alone, the chunks add up to 34 tokens; the document is 33)"
    );
    assert_eq!(
        found.of(Finding::Property(Property::MaxSize)).detail,
        "chunk 0 at position 0 holds 12 cl100k, over the size of 10"
    );
    // The engine in tokens: every chunk is document tokens.
    let good = correct(demo.text, &demo.config);
    assert_eq!(
        good.of(Finding::TokenSpans).detail,
        "each chunk starts and ends where document tokens do, and its count is theirs (33 tokens in all)"
    );
}

#[test]
fn the_token_span_check_catches_a_span_that_is_off_by_one() {
    let text = "Refunds take five days.";
    let config = Config::fixed(10, 0).with_unit(cl100k());
    let whole = Piece::Source(chunkscope::Span::new(0, text.len()));
    let chunk = |tokens| one_chunk(vec![whole.clone()], Some(tokens));
    let n = chunkscope::Resources::tiktoken()
        .counter(config.unit)
        .unwrap()
        .len(text);
    let right = chunk((0, n));
    assert!(judged_once(text, &config, &right).tokens.ok);
    // A planted bug: one token too many.
    let wrong = chunk((0, n + 1));
    assert_eq!(
        judged_once(text, &config, &wrong).tokens.detail,
        format!(
            "chunk 0 is said to be tokens 0–{}, but its text is the document's tokens 0–{n}: a \
             citation by token position points elsewhere (counted alone, the chunks add up to {} \
             tokens; the document is {n})",
            n + 1,
            n + 1
        )
    );
    // And in the engine's own output: a count that is not the tokens spanned.
    let mut out = split(text, &config, &chunkscope::Resources::tiktoken()).unwrap();
    out.chunks[0].len += 1;
    assert!(
        !bugs::findings_of(
            text,
            &config,
            &out,
            &out,
            &chunkscope::Resources::tiktoken()
        )
        .tokens
        .ok
    );
}

#[test]
fn a_joined_corpus_mixes_a_public_and_an_internal_document() {
    let demo = Bug::JoinedDocuments.demo();
    let (run, found) = buggy(Bug::JoinedDocuments, demo.text, &demo.config);
    assert_eq!(
        texts(demo.text, &run),
        [
            "Card refunds take ten working days.\n\n\nRefunds over 50,000 go to a second approver.",
            "Cash refunds are instant."
        ]
    );
    assert_eq!(
        found.of(Finding::Boundaries).detail,
        "chunk 0 runs from refunds.md (public) into fraud-rules.md (internal), whose text starts \
         at char 134: a reader allowed only public text is shown internal text"
    );
    let good = correct(demo.text, &demo.config);
    assert_eq!(
        good.of(Finding::Boundaries).detail,
        "each chunk lies inside one of the 3 documents and keeps its labels"
    );
    // Two sources under one label still cannot share a citation.
    let same = demo.text.replace("internal", "public");
    let (_, found) = buggy(Bug::JoinedDocuments, &same, &demo.config);
    assert!(found
        .of(Finding::Boundaries)
        .detail
        .ends_with("its citation can name only one of them"));
    // One document: nothing to cross.
    let (_, found) = buggy(Bug::JoinedDocuments, "Just one text.", &demo.config);
    assert_eq!(
        found.of(Finding::Boundaries).detail,
        "one document: no boundary to cross"
    );
}

#[test]
fn no_variant_panics_on_the_largest_size_or_overlap() {
    for bug in Bug::ALL {
        let demo = bug.demo();
        for (size, overlap) in [
            (usize::MAX, 0),
            (usize::MAX, usize::MAX - 1),
            (1, usize::MAX),
        ] {
            let config = Config {
                size,
                overlap,
                ..demo.config.clone()
            };
            let run = bugs::run(bug, demo.text, &config, &chunkscope::Resources::tiktoken());
            let found = bugs::findings(
                demo.text,
                &config,
                &run,
                &run,
                &chunkscope::Resources::tiktoken(),
            );
            assert!(found.of(Finding::Boundaries).detail.len() > 10, "{bug:?}");
        }
    }
}

/// The findings of one run judged against itself (so determinism holds).
fn judged_once(text: &str, config: &Config, run: &BugRun) -> Findings {
    bugs::findings(text, config, run, run, &chunkscope::Resources::tiktoken())
}
