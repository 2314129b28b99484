//! The four seed-001 mistakes that have gallery entries of their own: what the
//! class returns on each demo (the outputs were run in CPython against the
//! class as the lesson prints it) next to what the correct engine returns.

use chunkscope::{split, CharIndex, Error, Property};
use chunkscope_teach::bugs::{self, Bug, Finding};

fn buggy(bug: Bug) -> (Vec<String>, Vec<(usize, usize)>, bugs::Findings) {
    let demo = bug.demo();
    let run = bugs::run(
        bug,
        demo.text,
        &demo.config,
        &chunkscope::Resources::tiktoken(),
    );
    let again = bugs::run(
        bug,
        demo.text,
        &demo.config,
        &chunkscope::Resources::tiktoken(),
    );
    let found = bugs::findings(
        demo.text,
        &demo.config,
        &run,
        &again,
        &chunkscope::Resources::tiktoken(),
    );
    let chars = CharIndex::new(demo.text);
    let texts = run.chunks.iter().map(|c| c.rope.text(demo.text)).collect();
    let at = run
        .chunks
        .iter()
        .map(|c| chars.char_span(c.rope.hull().unwrap_or_default()))
        .collect();
    (texts, at, found)
}

fn correct(bug: Bug) -> Vec<String> {
    let demo = bug.demo();
    let out = split(demo.text, &demo.config, &chunkscope::Resources::tiktoken()).unwrap();
    out.chunks
        .iter()
        .map(|c| c.text(demo.text).to_string())
        .collect()
}

#[test]
fn after_a_short_chunk_the_class_takes_no_overlap() {
    let (texts, _, found) = buggy(Bug::OverlapSkipped);
    // "Hi all.\n\n" is 9 chars, not more than the overlap of 9: chunk 1 starts
    // bare, while chunk 2 gets its 9 chars (from mid-word, "e days.").
    assert_eq!(
        texts,
        [
            "Hi all.",
            "Refunds take five days.",
            "e days.\n\nCash is instant."
        ]
    );
    assert!(found.checks.all_ok());
    // The engine repeats "all.\n\n", as much of the short chunk as fits.
    assert_eq!(
        correct(Bug::OverlapSkipped),
        [
            "Hi all.",
            "all.\n\nRefunds take five days.",
            "days.\n\nCash is instant."
        ]
    );
}

#[test]
fn the_class_starts_its_overlap_mid_word() {
    let (texts, _, found) = buggy(Bug::MidWordOverlap);
    assert_eq!(
        texts,
        [
            "Refunds take five days.",
            "ays. Cash refunds are",
            "are instant."
        ]
    );
    assert!(found.checks.all_ok());
    // The engine takes less rather than half a word: "days. " is 6 chars, over
    // the overlap of 5, so chunk 1 has none; chunk 2 repeats the whole "are ".
    assert_eq!(
        correct(Bug::MidWordOverlap),
        [
            "Refunds take five days.",
            "Cash refunds are",
            "are instant."
        ]
    );
}

#[test]
fn an_overlap_as_big_as_the_size_is_silently_no_overlap() {
    let (texts, _, found) = buggy(Bug::UncheckedOverlap);
    assert_eq!(texts, ["one two", "three", "four five", "six"]);
    assert!(found.checks.all_ok());
    let demo = Bug::UncheckedOverlap.demo();
    let err = split(demo.text, &demo.config, &chunkscope::Resources::tiktoken()).unwrap_err();
    assert!(matches!(err, Error::OverlapTooLarge { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "overlap (10) must be smaller than size (10): a chunk that repeats 10 units of the \
         one before has no room left for new text, so the splitter would never move forward \
         (try overlap 1: 10–15 % of the size is typical)"
    );
}

#[test]
fn searching_for_a_stripped_chunk_finds_its_first_copy() {
    let (texts, at, found) = buggy(Bug::LostOffsets);
    assert_eq!(texts, ["Status: open.", "Notes: none.", "Status: open."]);
    // The last chunk is really at chars 29..42; the search puts it at 0.
    assert_eq!(at, [(0, 13), (15, 27), (0, 13)]);
    assert!(!found.of(Finding::Property(Property::Order)).ok);
    assert_eq!(
        correct(Bug::LostOffsets),
        ["Status: open.", "Notes: none.", "Status: open."]
    );
    // The engine keeps positions: the same texts, the last one where it is.
    let demo = Bug::LostOffsets.demo();
    let out = split(demo.text, &demo.config, &chunkscope::Resources::tiktoken()).unwrap();
    let chars = CharIndex::new(demo.text);
    let spans: Vec<_> = out.chunks.iter().map(|c| chars.char_span(c.span)).collect();
    assert_eq!(spans, [(0, 13), (15, 27), (29, 42)]);
}
