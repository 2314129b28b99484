//! The lessons' properties, over random Unicode text and random configurations,
//! mostly valid (some not, to check the refusals), in every unit (chars, bytes,
//! cl100k and o200k tokens). Each engine gets 10 000 cases, and must split and
//! check at least [`MIN_CHECKED`] of them rather than refuse them.

use chunkscope::{
    check, split, trim, Action, Config, Cut, Error, Placement, Property, Separator, Span, Splitter,
    Strategy as Engine, Unit,
};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use std::cell::Cell;

mod atoms;
mod tokenizer;

use atoms::ATOMS;

/// Cases per engine, and how many must be split and checked (not refused).
const CASES: u32 = 10_000;
const MIN_CHECKED: usize = 8_300;

/// Pieces of text that put sentence punctuation where the sentence
/// segmenter's refinements look: abbreviations, numbers, addresses, quotes,
/// CJK stops, ellipses, zero-width spaces.
const SENTENCE_ATOMS: &[&str] = &[
    ". ",
    "? ",
    "!",
    ".",
    "。",
    "！",
    "？",
    "」",
    "「",
    "『",
    "』",
    "“",
    "”",
    "\"",
    "(",
    ")",
    "…",
    "...",
    "\u{200B}",
    "Dr.",
    "e.g.",
    "p.m.",
    "J.",
    "3.14",
    "2.0.1",
    "https://a.b/C.D?e=1",
    "a.b@c.de",
    "と",
    "Word",
    "word",
    "the",
    " ",
    "  ",
    "\n",
    "\n\n",
    "é",
    "😀",
    "中文",
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::collection::vec(prop::sample::select(ATOMS), 0..80).prop_map(|v| v.concat()),
        2 => prop::collection::vec(prop::sample::select(SENTENCE_ATOMS), 0..60).prop_map(|v| v.concat()),
        1 => any::<String>(),
        1 => "[ \\n\\t]{0,12}",
    ]
}

fn separator() -> impl Strategy<Value = Separator> {
    prop_oneof![
        6 => prop::sample::select(&["\n\n", "\n", ". ", " ", "。", "，", "\r\n", "😀", "a", "ab"][..])
            .prop_map(Separator::literal),
        2 => Just(Separator::hard_cut()),
        1 => prop::sample::select(&[r"\s+", r"[.!?]\s", r"\n{2,}", "x*", r"\b", "a|"][..])
            .prop_map(Separator::regex),
        1 => Just(Separator::sentence()),
    ]
}

/// A separator list, rarely empty or holding a regex that does not compile.
fn separators() -> impl Strategy<Value = Vec<Separator>> {
    prop_oneof![
        60 => prop::collection::vec(separator(), 1..6),
        1 => Just(Vec::new()),
        1 => prop::sample::select(&["[", "(?P<"][..]).prop_map(|p| vec![Separator::regex(p)]),
    ]
}

fn config(strategy: Engine) -> impl Strategy<Value = Config> {
    // Small overlaps are the interesting ones; keep a few invalid ones (and
    // size 0) too.
    let overlap = |size: usize| prop_oneof![19 => 0..size.min(6), 1 => size..size + 20];
    let sized = prop_oneof![
        1 => Just((0, 0)),
        60 => (1usize..30).prop_flat_map(move |size| (Just(size), overlap(size))),
    ];
    (
        sized,
        prop::sample::select(&Unit::ALL[..]),
        separators(),
        prop::sample::select(&[Placement::End, Placement::Start, Placement::None][..]),
        any::<bool>(),
    )
        .prop_map(
            move |((size, overlap), unit, mut separators, placement, trim)| {
                // The sentence strategy's list starts with the sentence level
                // (the rare empty list stays empty, and is refused: see
                // `allowed_error`).
                if strategy == Engine::Sentence && !separators.is_empty() {
                    separators.insert(0, Separator::sentence());
                }
                Config {
                    size,
                    overlap,
                    unit,
                    separators,
                    placement,
                    trim,
                    ..Config::default()
                }
                .with_strategy(strategy)
            },
        )
}

/// What a valid configuration may still be refused for: with bytes as the unit, a
/// character longer than `size` cannot be put in any chunk.
fn allowed_error(text: &str, config: &Config, err: &Error) -> bool {
    let expected = if config.size == 0 {
        Some(Error::ZeroSize)
    } else if config.overlap >= config.size {
        Some(Error::OverlapTooLarge {
            overlap: config.overlap,
            size: config.size,
        })
    } else if config.kind() == Engine::Sentence
        && config.separators.first() != Some(&Separator::sentence())
    {
        Some(Error::SentenceLevel {
            index: 0,
            strategy: Engine::Sentence,
        })
    } else if config.kind() == Engine::Recursive && config.separators.is_empty() {
        Some(Error::NoSeparators)
    } else {
        None
    };
    match (expected, err) {
        (Some(e), got) => &e == got,
        (None, Error::InvalidRegex { index, .. }) => config.separators[*index].regex,
        (None, Error::CharTooBig { bytes, .. }) => {
            config.unit == Unit::Bytes
                && *bytes > config.size
                && text.chars().any(|c| c.len_utf8() > config.size)
        }
        (None, Error::CharTooManyTokens { ch, tokens, .. }) => {
            matches!(config.unit, Unit::Tokens(_))
                && *tokens > config.size
                && units(config.unit, ch.encode_utf8(&mut [0; 4])) == *tokens
        }
        (None, _) => false,
    }
}

/// The length of `text` in `unit`: the one place this file counts.
fn units(unit: Unit, text: &str) -> usize {
    tokenizer::counter(unit).len(text)
}

/// Checks one case; `Ok(false)` when the configuration was (rightly) refused.
fn properties(text: &str, config: &Config) -> Result<bool, TestCaseError> {
    let out = match split(text, config, &tokenizer::resources()) {
        Ok(out) => out,
        Err(e) => {
            prop_assert!(allowed_error(text, config, &e), "unexpected error: {e}");
            prop_assert!(!e.to_string().is_empty());
            return Ok(false);
        }
    };
    let again = split(text, config, &tokenizer::resources()).unwrap();
    let checks = check(text, config, &out, &tokenizer::resources()).with_again(&out, &again);
    // Coverage holds unless separators are deliberately left out of both
    // chunks; truth.rs checks that only they are.
    let recursive = matches!(config.kind(), Engine::Recursive | Engine::Sentence);
    let drops = recursive && config.placement == Placement::None;
    for (property, c) in checks.iter() {
        let excused = property == Property::Coverage && drops;
        prop_assert!(c.ok || excused, "{}: {}", property.name(), c.detail);
    }
    prop_assert_eq!(checks.iter().count(), Property::ALL.len());
    sentences_are_sound(text, config, &out)?;

    // Lengths are measured on the span, and the chunk text is the span's text.
    for c in &out.chunks {
        prop_assert_eq!(c.len, units(config.unit, c.text(text)));
        prop_assert!(!c.text(text).is_empty());
        if config.trim && recursive && c.overlap.is_none() {
            let hard = matches!(
                out.trace.nodes[c.node.unwrap()].action,
                Action::HardCut { .. }
            );
            prop_assert!(hard || trim(text, c.span) == c.span, "untrimmed chunk");
        }
    }
    // Only the last chunk ends with `End`; fixed windows end with `Window`.
    for (i, c) in out.chunks.iter().enumerate() {
        let last = i + 1 == out.chunks.len();
        prop_assert_eq!(c.cut == Cut::End, last);
        if config.kind() == Engine::Fixed && !last {
            prop_assert_eq!(c.cut, Cut::Window);
        }
        if let Cut::Separator(s) = c.cut {
            prop_assert!(s < config.separators.len() && !config.separators[s].is_hard_cut());
        }
    }
    // Overlap only where configured.
    if config.overlap == 0 {
        prop_assert!(out.chunks.iter().all(|c| c.overlap.is_none()));
    }
    // The fast path without a trace gives the same chunks.
    let plain = Splitter::new(config.clone(), &tokenizer::resources())
        .unwrap()
        .chunks(text)
        .unwrap();
    let strip = |v: &[chunkscope::Chunk]| -> Vec<(Span, Cut, usize)> {
        v.iter().map(|c| (c.span, c.cut, c.len)).collect()
    };
    prop_assert_eq!(strip(&plain), strip(&out.chunks));
    // The char offsets an analysis reports (from the engine's table of
    // continuation bytes, when it built one) are the counted ones.
    let analysis = Splitter::new(config.clone(), &tokenizer::resources())
        .unwrap()
        .analyze(text, chunkscope::Detail::CHUNKS)
        .unwrap();
    let chars = |b: usize| text[..b].chars().count();
    let counted: Vec<(usize, usize)> = (analysis.output.chunks.iter())
        .map(|c| (chars(c.span.start), chars(c.span.end)))
        .collect();
    prop_assert_eq!(&analysis.chunk_chars, &counted);
    trace_is_consistent(text, config, &out)?;
    Ok(true)
}

fn trace_is_consistent(
    text: &str,
    config: &Config,
    out: &chunkscope::Output,
) -> Result<(), TestCaseError> {
    let nodes = &out.trace.nodes;
    prop_assert_eq!(nodes.is_empty(), text.is_empty());
    for (id, n) in nodes.iter().enumerate() {
        prop_assert_eq!(n.len, units(config.unit, n.span.text(text)));
        prop_assert_eq!(n.too_big, n.len > config.size);
        for &c in &n.children {
            let child = &nodes[c];
            prop_assert_eq!(child.parent, Some(id));
            prop_assert_eq!(child.depth, n.depth + 1);
            prop_assert!(n.span.start <= child.span.start && child.span.end <= n.span.end);
        }
        match n.action {
            Action::Fits => prop_assert!(!n.too_big && n.chunk.is_some()),
            Action::Empty => prop_assert!(n.span.text(text).trim().is_empty() || !config.trim),
            Action::Split { separator, parts } => {
                prop_assert!(n.too_big && parts >= 2 && !n.children.is_empty());
                prop_assert!(!n.absent.contains(&separator));
            }
            Action::HardCut { windows, .. } => prop_assert!(n.too_big && windows >= 2),
            Action::Windows { stride } => prop_assert_eq!(stride, config.size - config.overlap),
            Action::Structure { parts, .. } => {
                prop_assert!(n.too_big && parts >= 1 && !n.children.is_empty())
            }
            Action::ChonkieLevel { .. } => prop_assert!(false, "a Chonkie level in our engine"),
            // Chonkie's sentences: a root whose chunks point at it.
            Action::Sentences { parts } => {
                prop_assert!(parts >= 1 && n.children.is_empty() && n.parent.is_none())
            }
        }
    }
    for c in &out.chunks {
        let node = c.node.expect("traced chunk without node");
        prop_assert!(node < nodes.len());
    }
    Ok(())
}

/// Runs [`CASES`] cases of `strategy`; fails on a broken property, or when
/// fewer than [`MIN_CHECKED`] were split and checked.
fn run(strategy: Engine) {
    // Token units count with tokenizers built from tiktoken-rs's tables, so
    // they are split here whether or not the `tiktoken` feature is on.
    for unit in Unit::ALL {
        tokenizer::counter(unit);
    }
    let checked = Cell::new(0);
    let mut runner = TestRunner::new(ProptestConfig {
        cases: CASES,
        source_file: Some(file!()),
        ..ProptestConfig::default()
    });
    let result = runner.run(&(text(), config(strategy)), |(text, config)| {
        checked.set(checked.get() + usize::from(properties(&text, &config)?));
        Ok(())
    });
    if let Err(e) = result {
        panic!("{strategy}: {e}");
    }
    let checked = checked.get();
    eprintln!("{strategy}: {checked} of {CASES} cases split and checked, the rest refused");
    assert!(
        checked >= MIN_CHECKED,
        "{strategy}: only {checked} cases checked"
    );
}

#[test]
fn fixed_engine_properties() {
    run(Engine::Fixed);
}

#[test]
fn recursive_engine_properties() {
    run(Engine::Recursive);
}

#[test]
fn sentence_engine_properties() {
    run(Engine::Sentence);
}

/// With the sentence level in the list, the trace lists the sentences:
/// they tile the text, each cut at the sentence level is at the end of one
/// of them (after its whitespace with `Start` placement, before it with
/// `End` and `None`), and the same text segmented alone gives them.
fn sentences_are_sound(
    text: &str,
    config: &Config,
    out: &chunkscope::Output,
) -> Result<(), TestCaseError> {
    let Some(found) = &out.sentences else {
        prop_assert!(!config.uses_sentences());
        return Ok(());
    };
    prop_assert!(config.uses_sentences());
    prop_assert_eq!(found, &chunkscope::sentence::segment(text, true));
    let mut at = 0;
    for s in &found.spans {
        prop_assert_eq!(s.start, at);
        prop_assert!(s.end > s.start);
        at = s.end;
    }
    prop_assert_eq!(at, text.len());
    let level = config.separators.iter().position(|s| s.level.is_some());
    for pair in out.chunks.windows(2) {
        // (An overlap hides where the next chunk began: it may reach back
        // over a dropped separator without sharing text with the chunk before.)
        if config.overlap > 0 || pair[0].cut != Cut::Separator(level.unwrap_or(usize::MAX)) {
            continue;
        }
        // Where the two chunks meet (their content apart, whitespace
        // aside) touches the whitespace after some sentence: the cut is
        // between two sentences.
        let from = trim(text, pair[0].span).end.min(pair[0].span.end);
        let next = pair[1].span.start;
        let to = trim(text, pair[1].span).start.max(next);
        let gaps = found.spans.iter().rev().skip(1).map(|s| {
            let content = s.text(text).trim_end_matches(chunkscope::is_space).len();
            (s.start + content, s.end)
        });
        prop_assert!(
            gaps.into_iter().any(|(g0, g1)| from <= g1 && g0 <= to),
            "a sentence cut between {from} and {to} where no sentence ends"
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    /// Fixed windows cover the text exactly: consecutive windows overlap by at
    /// most `overlap`, and the stride is exact in chars.
    #[test]
    fn fixed_windows_stride_exactly_in_chars(
        text in text(),
        (size, overlap) in (1usize..20).prop_flat_map(|s| (Just(s), 0..s)),
    ) {
        let config = Config::fixed(size, overlap).with_trim(false);
        let out = split(&text, &config, &tokenizer::resources()).unwrap();
        let chars = chunkscope::CharIndex::new(&text);
        for (i, c) in out.chunks.iter().enumerate() {
            prop_assert_eq!(chars.char_offset(c.span.start), i * (size - overlap));
        }
        if let Some(last) = out.chunks.last() {
            prop_assert_eq!(last.span.end, text.len());
        }
        let n = text.chars().count();
        let expected = if n == 0 { 0 } else if n <= size { 1 } else { 1 + (n - size).div_ceil(size - overlap) };
        prop_assert_eq!(out.chunks.len(), expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    /// The LangChain strategies, run through `Splitter` like the other
    /// engines, give exactly `langchain::split`'s chunks (which the
    /// differential test holds to the real library), and their facts line up
    /// with the chunks: one per chunk, a text only where the span's text is
    /// not LangChain's.
    #[test]
    fn langchain_strategies_are_langchain_through_the_splitter(
        text in text(),
        config in config(Engine::Recursive),
        character in any::<bool>(),
    ) {
        use chunkscope::langchain::{self, LangChainConfig};
        let strategy = if character { Engine::LangChainCharacter } else { Engine::LangChain };
        let mut config = Config { strategy: strategy.into(), ..config };
        // LangChain has no sentence level (its refusal is tested apart).
        config.separators.retain(|s| s.level.is_none());
        let kind = strategy.langchain().unwrap();
        let direct = LangChainConfig::from_config(kind, &config)
            .map_err(Error::from)
            .and_then(|lc| langchain::split(&text, &lc, &tokenizer::resources()).map_err(Error::from));
        match (split(&text, &config, &tokenizer::resources()), direct) {
            (Ok(out), Ok(lc)) => {
                let langchain = out.langchain.as_ref().unwrap();
                prop_assert_eq!(out.chunks.len(), lc.chunks.len());
                let facts = out.library.as_deref().unwrap();
                prop_assert_eq!(facts.len(), lc.chunks.len());
                prop_assert_eq!(&out.trace, &lc.trace);
                for ((chunk, fact), want) in out.chunks.iter().zip(facts).zip(&lc.chunks) {
                    // The splitter's run collects plain chunks and facts,
                    // the public API's run records: every field must agree.
                    prop_assert_eq!(
                        (chunk.index, chunk.span, chunk.len, chunk.cut, chunk.overlap, chunk.node),
                        (want.index, want.span, want.len, want.cut, want.overlap, want.node)
                    );
                    prop_assert_eq!(fact.start_index, want.start_index);
                    prop_assert_eq!(fact.not_slice(), want.not_slice);
                    prop_assert_eq!(fact.metadata(), None);
                    let text_shown = fact.text().unwrap_or(chunk.text(&text));
                    prop_assert_eq!(text_shown, want.text.as_str());
                    prop_assert_eq!(fact.text().is_none(), want.is_slice);
                }
                prop_assert_eq!(&langchain.warnings, &lc.warnings);
            }
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "splitter {:?} but langchain {:?}", a.map(|o| o.chunks.len()), b.map(|o| o.chunks.len())),
        }
    }
}
