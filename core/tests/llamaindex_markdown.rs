//! The `llamaindex-markdown` strategy against the real LlamaIndex
//! `MarkdownNodeParser` (llama-index-core 0.14.25) with its defaults,
//! through `get_nodes_from_documents([Document(text=text)])`: for generated
//! Markdown texts, the same node texts, the same `start_char_idx` and
//! `end_char_idx` as LlamaIndex sets them (`null` where its `str.find` found
//! nothing, other places where it found the text earlier), and the same
//! `header_path` metadata.
//!
//! The texts are built to reach every turn of the parser: headers of every
//! level and deeper than six, nested and sibling headers that pop the stack,
//! header-like lines inside backtick fences (and `~~~`, which is no fence to
//! it), `#` with no space after it, a tab, a no-break space or several
//! spaces after the `#`s (a header rebuilt, or not), `"\r\n"` line ends,
//! whitespace before the first header that `strip` empties, text before the
//! first header, lines that repeat a header's text so that `find` lands
//! early, empty texts, texts of whitespace alone and non-ASCII words.
//!
//! The parser has no size: every chunk is a section however long, and the
//! size and the unit only measure the chunks. So the harness's rule of 400
//! cases in tokens does not apply (a unit changes no chunk); a few cases in
//! bytes and tokens still check that every unit is accepted, and the size
//! is drawn from 1 up, a size of 0 or an overlap of at least the size being
//! chunkscope's own refusal as for `langchain-markdown`.
//!
//! `cargo test` replays `tests/vectors/llamaindex_markdown.jsonl.gz`; the
//! ignored live test asks the driver (`tests/reference/llamaindex/driver.py`)
//! now; `./x vectors` records them again.

mod library;
mod oracle;
mod tokenizer;

use chunkscope::Strategy;
use library::{Library, Rng, SPACES, WORDS};
use serde_json::{json, Value};

const VECTORS: &str = "llamaindex_markdown";
const SEED: u64 = 0x3D_4E4D;
/// Cases per unit: the unit changes no chunk, so most are in chars.
const CASES: [(&str, usize); 4] = [
    ("chars", 1900),
    ("bytes", 200),
    ("cl100k", 200),
    ("o200k", 100),
];
/// Refusals of this engine's own: none. Every node is reproduced, its text
/// where a header was rebuilt and its offsets where `find` put them.
const REFUSAL_CEILING: usize = 0;

/// What follows a header's `#`s: `\s` is one whitespace character of
/// Python's, a space most often; the rest starts the header's text.
const AFTER_HASHES: &[&str] = &[
    " ", " ", " ", " ", "  ", "   ", "\t", "\u{a0}", "\u{3000}", "\x1f",
];
/// Headers' texts, some repeated on purpose so that `find` meets them.
const TITLES: &[&str] = &[
    "Refunds", "UPI", "A", "Notes", "東京", "café", "", " Spaced",
];

/// A line of prose: words, sometimes a header's text after a `#` inside it.
fn prose(rng: &mut Rng) -> String {
    let mut line = String::new();
    for i in 0..1 + rng.below(8) {
        if i > 0 {
            line.push(' ');
        }
        match rng.below(10) {
            0 => {
                line.push_str("# ");
                line.push_str(rng.pick(TITLES));
            }
            _ => line.push_str(rng.pick(WORDS)),
        }
    }
    line
}

fn header(rng: &mut Rng) -> String {
    let level = match rng.below(20) {
        0 => 7 + rng.below(2),
        _ => 1 + rng.below(6),
    };
    format!(
        "{}{}{}",
        "#".repeat(level),
        rng.pick(AFTER_HASHES),
        rng.pick(TITLES)
    )
}

fn text(rng: &mut Rng) -> String {
    match rng.below(60) {
        0 => return String::new(),
        1 => {
            return (0..1 + rng.below(6))
                .map(|_| rng.pick(SPACES))
                .collect::<String>()
        }
        _ => {}
    }
    let mut lines: Vec<String> = Vec::new();
    if rng.below(4) == 0 {
        lines.push(rng.pick(&[" ", "", "\t", "\u{3000}"]).to_string());
    }
    for _ in 0..1 + rng.below(25) {
        let line = match rng.below(20) {
            0..=5 => header(rng),
            6..=7 => String::new(),
            8 => rng.pick(&["#tag", "##nope", "#", "#\u{200b}x"]).to_string(),
            9 => rng
                .pick(&["```", "```rust", "  ```", "~~~", "``"])
                .to_string(),
            10 => rng.pick(SPACES).replace('\n', ""),
            _ => prose(rng),
        };
        lines.push(line);
    }
    let end = if rng.below(5) == 0 { "\r\n" } else { "\n" };
    let mut out = lines.join(end);
    if rng.below(3) == 0 {
        out.push_str(end);
    }
    out
}

fn requests(seed: u64) -> Vec<Value> {
    let mut rng = Rng(seed);
    let mut requests = Vec::new();
    for (unit, cases) in CASES {
        for _ in 0..cases {
            let text = text(&mut rng);
            requests.push(json!({
                "splitter": "markdown",
                "text": text,
                "size": 1 + rng.below(400),
                "overlap": 0,
                "unit": unit,
            }));
        }
    }
    requests
}

/// `MarkdownNodeParser`'s harness: its strategy, its driver and its
/// recorded answers.
const LIBRARY: Library =
    Library::llamaindex(Strategy::LlamaIndexMarkdown, VECTORS, REFUSAL_CEILING);

#[test]
fn identical_to_the_recorded_llamaindex() {
    LIBRARY.compare_recorded_in_tokens(
        &[
            "chunks in chars",
            "chunks in bytes",
            "chunks in cl100k",
            "chunks in o200k",
            "more than one chunk",
            "a chunk over the size",
            "a chunk that is not in the text",
        ],
        0,
    );
}

/// The number of `#` a chunk's first line starts with when it is a header
/// as LlamaIndex rebuilds it (`#`s and a space).
fn header_level(line: &str) -> Option<usize> {
    let level = line.len() - line.trim_start_matches('#').len();
    (level > 0 && line[level..].starts_with(' ')).then_some(level)
}

/// The recorded cases reach every turn of `MarkdownNodeParser`, read from
/// the library's answers (and the texts asked), not from our engine.
#[test]
fn the_recorded_cases_reach_every_quirk() {
    let quirks = [
        "a header of level 1",
        "a header of level 2",
        "a header of level 3",
        "a header of level 4",
        "a header of level 5",
        "a header of level 6",
        "a header deeper than six",
        "a header-like line inside a fence",
        "a # with no space after it",
        "a header rebuilt, not in the text",
        "a header with several spaces after its #s",
        "\\r\\n line ends",
        "whitespace before the first header emptied by strip",
        "text before the first header",
        "a nested header's path",
        "a sibling or shallower header popping the stack",
        "a start found early",
        "a start not found",
        "an empty text",
        "a text of whitespace alone",
        "non-ASCII text",
    ];
    library::assert_quirks_reached(VECTORS, &quirks, |request, answer, saw| {
        let text = request["text"].as_str().unwrap();
        let Some(chunks) = answer["chunks"].as_array() else {
            return;
        };
        let chunks: Vec<&str> = chunks.iter().map(|c| c.as_str().unwrap()).collect();
        let offsets = answer["offsets"].as_array().unwrap();
        let paths: Vec<&str> = answer["metadata"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["header_path"].as_str().unwrap())
            .collect();
        if text.is_empty() {
            saw("an empty text");
        } else if chunks.is_empty() {
            saw("a text of whitespace alone");
        }
        if text.contains("\r\n") && chunks.len() > 1 {
            saw("\\r\\n line ends");
        }
        let Some(first) = chunks.first() else {
            return;
        };
        let lead = text.len() - text.trim_start().len();
        match header_level(first.lines().next().unwrap_or_default()) {
            Some(_) if lead > 0 => saw("whitespace before the first header emptied by strip"),
            Some(_) => {}
            None => saw("text before the first header"),
        }
        for (i, chunk) in chunks.iter().enumerate() {
            let mut lines = chunk.lines();
            if let Some(level) = lines.next().and_then(header_level) {
                match level {
                    1 => saw("a header of level 1"),
                    2 => saw("a header of level 2"),
                    3 => saw("a header of level 3"),
                    4 => saw("a header of level 4"),
                    5 => saw("a header of level 5"),
                    6 => saw("a header of level 6"),
                    _ => saw("a header deeper than six"),
                }
                if chunk[level..].starts_with("  ") {
                    saw("a header with several spaces after its #s");
                }
                if !text.contains(chunk) {
                    saw("a header rebuilt, not in the text");
                }
            }
            // Any later line that reads as a header was inside a fence.
            if lines.any(|l| header_level(l).is_some()) {
                saw("a header-like line inside a fence");
            }
            if chunk.lines().any(|l| {
                l.starts_with('#') && !l.trim_start_matches('#').starts_with(char::is_whitespace)
            }) {
                saw("a # with no space after it");
            }
            if !chunk.is_ascii() {
                saw("non-ASCII text");
            }
            if paths[i].matches('/').count() > 2 {
                saw("a nested header's path");
            }
            if i > 0 && paths[i].matches('/').count() < paths[i - 1].matches('/').count() {
                saw("a sibling or shallower header popping the stack");
            }
            if offsets[i][0].is_null() {
                saw("a start not found");
            } else if i > 0 && offsets[i][0].as_u64() < offsets[i - 1][1].as_u64() {
                saw("a start found early");
            }
        }
    });
}

#[test]
fn a_planted_wrong_answer_is_caught() {
    LIBRARY.assert_planted_answers_fail();
}

#[test]
#[ignore = "asks the pinned LlamaIndex (CHUNKSCOPE_LANGCHAIN_PYTHON); `./x test` runs it: cargo test -- --ignored live"]
fn identical_to_the_live_llamaindex() {
    LIBRARY.compare_live(&requests(SEED), &["packages"]);
}

#[test]
#[ignore = "writes tests/vectors/llamaindex_markdown.jsonl.gz with the pinned LlamaIndex; run by `./x vectors`"]
fn record_vectors() {
    LIBRARY.record(&requests(SEED), SEED, "core/tests/llamaindex_markdown.rs");
}
