//! Hostile input: texts and configurations picked to break a splitter (huge,
//! degenerate, pathological). Each must give a sound result or a clear error,
//! quickly, and never panic, loop or blow the stack. Every test here runs in
//! well under two seconds in a debug build.

use chunkscope::{
    check, split, Action, Config, Error, Output, Placement, Property, Separator, Splitter,
    Strategy, Unit,
};
use std::time::{Duration, Instant};

mod tokenizer;

const MB: usize = 1 << 20;

/// A sentence of ordinary English, 45 bytes.
const SENTENCE: &str = "The quick brown fox jumps over the lazy dog. ";

fn seed_separators() -> Vec<Separator> {
    ["\n\n", "\n", ". ", " ", ""]
        .into_iter()
        .map(Separator::literal)
        .collect()
}

/// Splits twice and asserts every property the lessons list; returns the
/// first output.
fn sound(text: &str, config: &Config) -> Output {
    let out = split(text, config, &tokenizer::resources()).unwrap_or_else(|e| panic!("{e}"));
    let again = split(text, config, &tokenizer::resources()).unwrap();
    let checks = check(text, config, &out, &tokenizer::resources()).with_again(&out, &again);
    let drops = config.kind() == Strategy::Recursive && config.placement == Placement::None;
    for (property, c) in checks.iter() {
        let excused = property == Property::Coverage && drops;
        assert!(c.ok || excused, "{}: {}", property.name(), c.detail);
    }
    out
}

/// Runs `f` and fails if it took longer than `limit`: a hang would show here
/// as a slow test, not as a stuck one. The limits are a hang's, not a speed
/// target's: many times what the linear work takes on a loaded two-core
/// machine (a 1 MB backtracking blow-up would take longer than the age of
/// the universe), so a busy machine does not fail them.
fn within<T>(limit: Duration, f: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let out = f();
    let took = started.elapsed();
    assert!(took < limit, "took {took:?}, more than {limit:?}");
    out
}

#[test]
fn one_five_megabyte_line_of_words() {
    let text = SENTENCE.repeat(5 * MB / SENTENCE.len());
    let out = sound(&text, &Config::recursive(1000));
    // No blank line and no newline: the space cut it, so no word was cut.
    let root = &out.trace.nodes[0];
    assert_eq!(root.absent, [0, 1]);
    assert!(matches!(root.action, Action::Split { separator: 2, .. }));
    let (last, full) = out.chunks.split_last().unwrap();
    assert!(full.iter().all(|c| c.len > 950 && c.len <= 1000) && last.len <= 1000);
    let fixed = sound(&text, &Config::fixed(1000, 100));
    assert_eq!(fixed.chunks.len(), (text.len() - 1000).div_ceil(900) + 1);
}

#[test]
fn one_five_megabyte_line_without_a_separator_is_cut_hard() {
    let text = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=".repeat(5 * MB / 36);
    let out = split(&text, &Config::recursive(1000), &tokenizer::resources()).unwrap();
    assert_eq!(out.chunks.len(), text.len().div_ceil(1000));
    assert!(out.chunks.iter().all(|c| c.len <= 1000));
    assert_eq!(out.trace.nodes[0].absent, [0, 1, 2]);
    // Without "" in the list the size limit holds all the same.
    let no_hard_cut = Config::recursive(1000).with_separators(["\n\n", "\n", " "]);
    let again = split(&text, &no_hard_cut, &tokenizer::resources()).unwrap();
    assert_eq!(again.chunks.len(), out.chunks.len());
}

#[test]
fn only_separators() {
    // Blank lines are whitespace: trimmed away, nothing is left to chunk.
    let blank = "\n\n".repeat(MB / 2);
    for config in [
        Config::recursive(100).with_separators(seed_separators()),
        Config::fixed(100, 10),
    ] {
        assert!(sound(&blank, &config).chunks.is_empty());
    }
    // Sentence ends are not: every full stop lands in a chunk.
    let stops = ". ".repeat(MB / 4);
    for placement in [Placement::End, Placement::Start, Placement::None] {
        let config = Config::recursive(100)
            .with_separators(seed_separators())
            .with_placement(placement);
        let out = sound(&stops, &config);
        assert!(!out.chunks.is_empty());
    }
}

#[test]
fn only_whitespace() {
    let unit = " \t\n\r\u{a0}\u{3000}\u{2028}\u{85}\u{1f}";
    let text = unit.repeat(2 * MB / unit.len());
    for config in [Config::recursive(1000), Config::fixed(1000, 0)] {
        assert!(sound(&text, &config).chunks.is_empty(), "{config:?}");
    }
    // Untrimmed, whitespace is text like any other and is all kept.
    let out = sound(&text[..MB / 4], &Config::recursive(1000).with_trim(false));
    assert!(!out.chunks.is_empty());
}

#[test]
fn two_hundred_thousand_tiny_paragraphs() {
    let text: String = (0..200_000).map(|i| format!("Item {i}.\n\n")).collect();
    let out = sound(&text, &Config::recursive(1000));
    // Packed, not one chunk per paragraph: about 75 paragraphs a chunk.
    assert!(out.chunks.len() < 3_000, "{}", out.chunks.len());
    let plain = Splitter::new(Config::recursive(1000), &tokenizer::resources())
        .unwrap()
        .chunks(&text)
        .unwrap();
    assert_eq!(plain.len(), out.chunks.len());
}

#[test]
fn catastrophic_looking_regex_runs_in_linear_time() {
    // A backtracking matcher takes exponential time on this; the engine's
    // regex crate (`regex-lite`) never backtracks more than pattern × text
    // steps, and the engine searches each piece once.
    let text = format!("{}b", "a".repeat(MB));
    let config = Config::recursive(1000).with_separators([
        Separator::regex("(a+)+$"),
        Separator::regex(r"(x+x+)+y"),
        "".into(),
    ]);
    let out = within(Duration::from_secs(60), || {
        split(&text, &config, &tokenizer::resources()).unwrap()
    });
    assert_eq!(out.trace.nodes[0].absent, [0, 1]);
    assert_eq!(out.chunks.len(), text.len().div_ceil(1000));
    // Where it does match, it cuts there.
    let config = Config::recursive(10).with_separators([Separator::regex("(a+)+b"), "".into()]);
    let out = within(Duration::from_secs(60), || {
        split(&text, &config, &tokenizer::resources()).unwrap()
    });
    assert!(out.chunks.iter().all(|c| c.len <= 10));
}

#[test]
fn invalid_regexes_are_errors_that_say_which_separator() {
    for (pattern, index) in [("(", 0), ("[z-a]", 1), ("a)", 1), ("a{1000000}", 1)] {
        let mut separators = vec![Separator::literal("\n\n")];
        separators.truncate(index);
        separators.push(Separator::regex(pattern));
        let config = Config::recursive(100).with_separators(separators);
        let err = within(Duration::from_secs(5), || {
            split("some text", &config, &tokenizer::resources())
        })
        .unwrap_err();
        assert!(
            matches!(err, Error::InvalidRegex { index: i, .. } if i == index),
            "{err:?}"
        );
        assert!(
            err.to_string().starts_with(&format!(
                "separator {} is not a valid regular expression",
                index + 1
            )),
            "{err}"
        );
    }
}

#[test]
fn five_hundred_separators_that_never_occur() {
    let mut separators: Vec<Separator> = (0..500)
        .map(|k| Separator::literal(format!("<never {k}>")))
        .collect();
    separators.push(Separator::hard_cut());
    let text = SENTENCE.repeat(100_000 / SENTENCE.len());
    let out = sound(&text, &Config::recursive(1000).with_separators(separators));
    let root = &out.trace.nodes[0];
    assert_eq!(root.absent.len(), 500);
    assert!(matches!(
        root.action,
        Action::HardCut {
            separator: Some(500),
            ..
        }
    ));
}

/// A text in which separator `k` splits off one `y` from a piece that is still
/// too big, so that a list of `n` separators nests `n` levels deep.
fn nested(n: usize) -> (String, Config) {
    let separators: Vec<Separator> = (0..n)
        .map(|k| Separator::literal(format!("<{k}>")))
        .collect();
    let mut text = "x".repeat(11);
    for k in (0..n).rev() {
        text.push_str(&format!("<{k}>y"));
    }
    (text, Config::recursive(10).with_separators(separators))
}

#[test]
fn five_hundred_nested_separators_do_not_use_the_call_stack() {
    // Regression: the recursion once ran on the call stack, and 500 nested
    // separators overflowed a 2 MB thread (a crash, not a panic). Run on a
    // thread with a 64 KB stack to show the depth costs no stack at all.
    let handle = std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(|| {
            let (text, config) = nested(500);
            let out = split(&text, &config, &tokenizer::resources()).unwrap();
            (out.trace.depth(), out.chunks.len())
        })
        .unwrap();
    let (depth, chunks) = handle.join().unwrap();
    assert_eq!(depth, 501);
    assert_eq!(chunks, 502); // two hard-cut windows of x, then 500 pieces "<k>y"
    let (text, config) = nested(500);
    sound(&text, &config);
}

#[test]
fn size_one_in_bytes_with_emoji_is_an_error_not_a_panic() {
    for strategy in [Strategy::Fixed, Strategy::Recursive] {
        for (text, size, bytes, at) in [("a😀", 1, 4, 1), ("a😀", 3, 4, 1), ("é", 1, 2, 0)] {
            let config = Config {
                strategy: strategy.into(),
                size,
                unit: Unit::Bytes,
                ..Config::default()
            };
            let err = split(text, &config, &tokenizer::resources()).unwrap_err();
            assert!(
                matches!(err, Error::CharTooBig { bytes: b, at: a, .. } if b == bytes && a == at),
                "{strategy}: {err:?}"
            );
            assert!(err.to_string().contains("use a size of at least"), "{err}");
        }
    }
}

#[test]
fn the_largest_sizes_and_overlaps_do_not_overflow() {
    let text = SENTENCE.repeat(MB / SENTENCE.len());
    let trimmed = text.trim_end();
    // Token units need the tokenizers, which the `tiktoken` feature loads (as
    // in `./x test`).
    let units = Unit::ALL
        .into_iter()
        .filter(|unit| unit.is_additive() || cfg!(feature = "tiktoken"));
    for unit in units {
        for (size, overlap) in [
            (usize::MAX, 0),
            (usize::MAX, usize::MAX - 1),
            (1_000_000_000, 999_999_999),
        ] {
            for strategy in [Strategy::Fixed, Strategy::Recursive] {
                let config = Config {
                    strategy: strategy.into(),
                    size,
                    overlap,
                    unit,
                    ..Config::default()
                };
                let out = sound(&text, &config);
                assert_eq!(out.chunks.len(), 1, "{config:?}");
                let whole = if strategy == Strategy::Fixed {
                    &text[..]
                } else {
                    trimmed
                };
                assert_eq!(out.chunks[0].text(&text), whole);
            }
        }
    }
}

#[test]
fn size_one_on_a_long_text_makes_one_chunk_per_character() {
    let text = "héllo wörld ".repeat(10_000);
    let fixed = sound(&text, &Config::fixed(1, 0));
    assert_eq!(
        fixed.chunks.len(),
        text.chars().filter(|c| *c != ' ').count()
    );
    let recursive = sound(&text, &Config::recursive(1));
    assert_eq!(recursive.chunks.len(), fixed.chunks.len());
}

/// Token units on texts that are hard for a tokenizer: a quarter megabyte
/// without a newline, as much whitespace (a stack overflow in tiktoken-rs),
/// emoji that are several tokens each, and digits. Every chunk is at most
/// `size` tokens counted on its own text, and the checks hold.
#[cfg(feature = "tiktoken")]
#[test]
fn token_units_survive_hostile_texts() {
    use chunkscope::tokens::Encoding;
    let texts = [
        SENTENCE.repeat(MB / 4 / SENTENCE.len()),
        " \t".repeat(MB / 8),
        "👩‍💻😀".repeat(5_000),
        "0123456789".repeat(25_000),
    ];
    for text in &texts {
        for encoding in Encoding::ALL {
            for strategy in [Strategy::Fixed, Strategy::Recursive] {
                let config = Config {
                    strategy: strategy.into(),
                    size: 200,
                    overlap: 20,
                    unit: Unit::Tokens(encoding),
                    ..Config::default()
                };
                let out = sound(text, &config);
                assert!(out.chunks.iter().all(|c| c.len <= 200));
            }
        }
    }
}
