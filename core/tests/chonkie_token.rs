//! The `chonkie-token` strategy against the real chonkie 1.7.0
//! (`TokenChunker`): for generated texts, sizes, overlaps and units (chars
//! with chonkie's character tokenizer, cl100k and o200k with a tiktoken
//! encoding), the same chunk texts and the same `start_index`/`end_index`,
//! and where chonkie raises, the same exception, class and message.
//!
//! The overlaps reach every edge: none, one below the size, the size and
//! past it (chonkie's `ValueError`), and a size of 0 (its other one). The
//! texts mix ASCII words with characters of several bytes and several
//! tokens (accents, CJK, emoji and their joined sequences), so that windows
//! fall inside characters, and whitespace Python strips but Rust does not
//! call whitespace (the information separators U+001C–U+001F), alone too,
//! since a text `str.strip` empties gives no chunk.
//!
//! `cargo test` replays `tests/vectors/chonkie_token.jsonl.gz`; the ignored
//! live test asks the driver (`tests/reference/chonkie/driver.py`) now;
//! `./x vectors` records them again.

mod library;
mod oracle;
mod tokenizer;

use chunkscope::Strategy;
use library::{Library, Rng};
use serde_json::Value;

const VECTORS: &str = "chonkie_token";
const SEED: u64 = 0x70C3_4E11;
/// Cases per unit.
const CASES: [(&str, usize); 3] = [("chars", 1900), ("cl100k", 600), ("o200k", 500)];
/// Refusals of this engine's own: none. A window that starts or ends inside
/// a character (chonkie's chunk then holds U+FFFD, and its offsets from
/// there on count it) is reproduced, text and offsets: "a chunk that is not
/// in the text" counts those cases. Half the token texts hold characters of
/// several tokens (accents, CJK, emoji, U+0085), and with small sizes such a
/// text has many windows, one of which is enough.
const REFUSAL_CEILING: usize = 0;

/// Words of one byte a char, of several, and of several tokens a char.
const WORDS: &[&str] = &[
    "refunds",
    "take",
    "five",
    "business",
    "days",
    "UPI",
    "x",
    "a",
    "café",
    "über",
    "naïve",
    "東京",
    "日本語の文章",
    "😀",
    "👩‍👩‍👧",
    "🇮🇳",
    "ਪੰਜਾਬੀ",
    "Ελληνικά",
    "supercalifragilistic",
    "3.14",
    "don't",
    "\u{200b}",
    "http://a.b/c?d=e",
];
const GAPS: &[&str] = &[
    " ", " ", " ", "  ", "\n", "\n\n", "\r\n", "\t", "\u{a0}", "\u{3000}", "\u{85}", "\x1c", "",
    ". ", ", ",
];
/// Whitespace to Python's `str.strip`, some of it not to Rust's.
const SPACES: &[&str] = &[
    " ", "\n", "\t", "\u{a0}", "\u{3000}", "\x1c", "\x1f", "\u{2028}",
];
/// tiktoken's special tokens, which its `encode` raises on.
const SPECIAL: &[&str] = &["<|endoftext|>", "<|fim_middle|>", "<|endofprompt|>"];

/// A text: mostly words and gaps (ASCII alone in half of the token cases,
/// so that most windows fall between characters), sometimes whitespace
/// alone or nothing.
fn text(rng: &mut Rng, unit: &str) -> String {
    if rng.below(40) == 0 {
        return (0..rng.below(4))
            .map(|_| rng.pick(SPACES))
            .collect::<String>();
    }
    let ascii = unit != "chars" && rng.below(2) == 0;
    let special = unit != "chars" && rng.below(12) == 0;
    let mut out = String::new();
    for _ in 0..1 + rng.below(30) {
        let word = loop {
            let w = rng.pick(WORDS);
            if !ascii || w.is_ascii() {
                break w;
            }
        };
        if special && rng.below(6) == 0 {
            out.push_str(rng.pick(SPECIAL));
        }
        out.push_str(word);
        out.push_str(rng.pick(GAPS));
    }
    out
}

fn requests(seed: u64) -> Vec<Value> {
    library::overlapping_requests(seed, "token", &CASES, (80, 30), text)
}

/// chonkie's `TokenChunker` harness: its strategy, its driver and its
/// recorded answers.
const LIBRARY: Library = Library::chonkie(Strategy::ChonkieToken, VECTORS, REFUSAL_CEILING);

#[test]
fn identical_to_the_recorded_chonkie() {
    LIBRARY.compare_recorded(&[
        "chunks in chars",
        "chunks in cl100k",
        "chunks in o200k",
        "errors in chars",
        "errors in cl100k",
        "errors in o200k",
        "with an overlap",
        "more than one chunk",
        "a chunk longer in bytes than the size",
        "a chunk that is not in the text",
    ]);
}

#[test]
fn a_planted_wrong_answer_is_caught() {
    LIBRARY.assert_planted_answers_fail();
}

#[test]
#[ignore = "asks the pinned chonkie (CHUNKSCOPE_LANGCHAIN_PYTHON); `./x test` runs it: cargo test -- --ignored live"]
fn identical_to_the_live_chonkie() {
    LIBRARY.compare_live(&requests(SEED), &["packages"]);
}

#[test]
#[ignore = "writes tests/vectors/chonkie_token.jsonl.gz with the pinned chonkie; run by `./x vectors`"]
fn record_vectors() {
    LIBRARY.record(&requests(SEED), SEED, "core/tests/chonkie_token.rs");
}

/// A window edge inside a character, as chonkie 1.7.0 gives it (its texts
/// and `start_index`es pinned from the library): chonkie's U+FFFD texts, its
/// offsets counting them (the second window starts at 0 again: the tail it
/// keeps decodes to two U+FFFD), and beside them our spans, each the
/// characters whose first byte is in the window (none, for a window inside
/// one character).
#[test]
fn windows_inside_a_character_are_chonkies_text_beside_our_spans() {
    fn split(text: &str, size: usize, overlap: usize) -> Vec<(String, i64, &str, bool)> {
        let mut config = chunkscope::Config::for_strategy(Strategy::ChonkieToken)
            .with_overlap(overlap)
            .with_unit("cl100k".parse().unwrap());
        config.size = size;
        let out = chunkscope::split(text, &config, &tokenizer::resources()).unwrap();
        let library = out.library.as_deref().expect("chonkie's own facts");
        (0..out.chunks.len())
            .map(|i| {
                (
                    out.chunk_text(i, text).to_string(),
                    library[i].start_index.unwrap(),
                    out.chunks[i].text(text),
                    library[i].not_slice() == Some(chunkscope::NotSlice::TokensDecodedApart),
                )
            })
            .collect()
    }
    let rows = split("😀😀😀", 3, 2);
    let expected = [
        ("😀\u{fffd}", 0, "😀😀", true),
        ("\u{fffd}😀", 0, "😀", true),
        ("😀\u{fffd}", 1, "😀😀", true),
        ("\u{fffd}😀", 1, "😀", true),
    ];
    assert_eq!(rows.len(), expected.len());
    for (row, want) in rows.iter().zip(expected) {
        assert_eq!((row.0.as_str(), row.1, row.2, row.3), want);
    }
    let rows = split("日本語の文", 1, 0);
    let texts: Vec<(&str, i64, &str)> = rows.iter().map(|r| (r.0.as_str(), r.1, r.2)).collect();
    assert_eq!(
        texts,
        [
            ("日", 0, "日"),
            ("本", 1, "本"),
            ("\u{fffd}", 2, "語"),
            ("\u{fffd}", 3, ""),
            ("の", 4, "の"),
            ("文", 5, "文"),
        ]
    );
    // The chunk of a character's last byte alone is said for what it is.
    let mut config = chunkscope::Config::for_strategy(Strategy::ChonkieToken)
        .with_unit("cl100k".parse().unwrap());
    config.size = 1;
    let resources = tokenizer::resources();
    let out = chunkscope::split("日本語の文", &config, &resources).unwrap();
    let checks = chunkscope::check("日本語の文", &config, &out, &resources);
    let order = checks.get(chunkscope::Property::Order).unwrap();
    assert!(!order.ok);
    assert_eq!(
        order.detail,
        "chunk 3 at position 3 holds no character of the source: it is the library's \"\u{fffd}\", bytes of a character its run cut on both sides"
    );
}
