//! What every fuzz target does: read a configuration and a text from the
//! fuzzer's bytes, split, and assert the lessons' properties (for the LangChain
//! engine, which copies LangChain's quirks, the ones LangChain keeps).
//!
//! # Input layout
//!
//! The configuration is read from the front of the input, one byte per
//! choice, through `arbitrary::Unstructured` (a byte that is missing reads as
//! 0), and the text is whatever is left, as lossy UTF-8. So a seed file is a
//! few configuration bytes followed by a readable text, and a mutation of the
//! text keeps the configuration. Byte by byte:
//!
//! 1. size: `0..=199` is itself (0 is the refused size), `200..=239` reads two
//!    more bytes as a `u16`, `240..` picks one of [`HUGE_SIZES`].
//! 2. overlap: `0..=127` none, `128..=223` 0 to 95, `224..=239` size − 1,
//!    `240..` size or more (refused).
//! 3. flags: bit 0 counts bytes (else chars), bit 1 turns trimming off, bits
//!    2–3 pick the placement (end, start, none, end), bit 2 also turns the
//!    Markdown heading prefix on and bit 4 repeats a table's header, bits 6–7
//!    count tokens instead: 1 cl100k, 2 o200k (0 and 3 leave bit 0's unit).
//! 4. separator count: the byte mod 8 (0 is refused by the recursive engine);
//!    for chonkie-recursive, which reads no list, it picks the
//!    `min_characters_per_chunk` from [`MIN_CHARACTERS`] instead.
//! 5. each separator: `0..=159` one of [`LITERALS`], `160..=209` one of
//!    [`REGEXES`], `210..` reads a length byte (1–4) and that many bytes as a
//!    literal (a regex when the first byte is odd).
//!
//! The targets themselves (`fuzz_targets/`) cannot forbid unsafe code:
//! libFuzzer's entry point is an exported `#[no_mangle]` function.

#![forbid(unsafe_code)]

use arbitrary::{Arbitrary, Unstructured};
use chunkscope::langchain::{self, Keep, Kind, LangChainConfig, LangChainError};
use chunkscope::tokens::Encoding;
use chunkscope::{
    check, split, ChonkieConfig, Config, Detail, Error, HeaderSplitConfig, MarkdownConfig, Output,
    Placement, Property, Resources, Separator, Splitter, Strategy, StrategyConfig, TableHeader,
    Unit,
};

/// The trace-truth checks of `core/tests/truth.rs`, the same file: every
/// claim of a trace (cut labels, absent and splitting separators, packing
/// reasons, nothing lost) checked against the text.
#[path = "../../core/tests/trace_truth/mod.rs"]
#[allow(dead_code)]
mod truth;

/// Sizes at the edges of the integer range: nothing may overflow near them.
pub const HUGE_SIZES: [usize; 6] = [
    usize::MAX,
    usize::MAX - 1,
    1_000_000_000,
    u32::MAX as usize,
    u32::MAX as usize + 1,
    1 << 20,
];

/// chonkie-recursive's minimums worth trying: 0 (refused, as chonkie
/// refuses it), 1 (nothing joined), small ones, its default, one past most
/// splits and one past any fuzzed text.
pub const MIN_CHARACTERS: [usize; 8] = [0, 1, 2, 5, 24, 24, 100, usize::MAX];

/// Literal separators worth trying: the usual ones, multi-byte and CJK ones,
/// ones that overlap themselves (`aa`, `\n\n`), and the hard cut.
pub const LITERALS: [&str; 20] = [
    "\n\n", "\n", ". ", " ", "", "。", "，", "\r\n", "😀", "a", "ab", "aa", "\t", "\u{3000}", "--",
    "\u{301}", "é", "\u{fffd}", "!", "\n\n\n",
];

/// The nested repeat among [`REGEXES`]: linear for the engine's regex crate
/// (`regex-lite`), exponential for a backtracking matcher.
pub const CATASTROPHIC: &str = "(a+)+$";

/// Regex separators: useful ones, ones that match the empty string, a
/// catastrophic-looking one, and ones that do not compile.
pub const REGEXES: [&str; 14] = [
    r"\s+",
    r"[.!?]\s",
    r"\n{2,}",
    "x*",
    r"\b",
    "[",
    "(?P<",
    "a|",
    CATASTROPHIC,
    r"\w+",
    "",
    "^",
    "$",
    r"(?m)^#+ ",
];

fn byte(u: &mut Unstructured<'_>) -> u8 {
    u8::arbitrary(u).unwrap_or(0)
}

/// The text and configuration encoded in `data` (see the module docs).
pub fn decode(data: &[u8], strategy: Strategy) -> (String, Config) {
    let mut u = Unstructured::new(data);
    let size = match byte(&mut u) {
        b @ 0..=199 => b as usize,
        200..=239 => u16::from_le_bytes([byte(&mut u), byte(&mut u)]) as usize,
        b => HUGE_SIZES[(b - 240) as usize % HUGE_SIZES.len()],
    };
    let overlap = match byte(&mut u) {
        0..=127 => 0,
        b @ 128..=223 => (b - 128) as usize,
        224..=239 => size.saturating_sub(1),
        b => size.saturating_add((b - 240) as usize),
    };
    let flags = byte(&mut u);
    let unit = match (flags >> 6, flags & 1) {
        (1, _) => Unit::Tokens(Encoding::Cl100k),
        (2, _) => Unit::Tokens(Encoding::O200k),
        (_, 1) => Unit::Bytes,
        _ => Unit::Chars,
    };
    let trim = flags & 2 == 0;
    let placement = [
        Placement::End,
        Placement::Start,
        Placement::None,
        Placement::End,
    ][(flags >> 2) as usize & 3];
    let count = byte(&mut u) % 8;
    let mut separators = Vec::new();
    for _ in 0..count {
        separators.push(match byte(&mut u) {
            b @ 0..=159 => Separator::literal(LITERALS[b as usize % LITERALS.len()]),
            b @ 160..=209 => Separator::regex(REGEXES[(b - 160) as usize % REGEXES.len()]),
            _ => {
                let len = 1 + byte(&mut u) as usize % 4;
                let raw: Vec<u8> = (0..len).map(|_| byte(&mut u)).collect();
                let pattern = String::from_utf8_lossy(&raw).into_owned();
                if raw[0] % 2 == 1 {
                    Separator::regex(pattern)
                } else {
                    Separator::literal(pattern)
                }
            }
        });
    }
    let text = String::from_utf8_lossy(u.take_rest()).into_owned();
    let strategy = match StrategyConfig::from(strategy) {
        StrategyConfig::Markdown(_) => StrategyConfig::Markdown(MarkdownConfig {
            heading_prefix: flags & 4 != 0,
            table_header: if flags & 16 != 0 {
                TableHeader::Repeat
            } else {
                TableHeader::Once
            },
        }),
        StrategyConfig::ChonkieRecursive(_) => StrategyConfig::ChonkieRecursive(ChonkieConfig {
            min_characters_per_chunk: MIN_CHARACTERS[count as usize],
        }),
        other => other,
    };
    // What the strategy does not read at its defaults (anything else is
    // refused before it splits); the overlap as decoded, so a strategy
    // without one refuses it.
    let common = Config {
        size,
        unit,
        separators,
        placement,
        trim,
        ..Config::default()
    }
    .with_strategy(strategy);
    let config = Config { overlap, ..common };
    (text, config)
}

/// Whether `err` is a refusal this configuration and text deserve.
fn allowed(text: &str, config: &Config, err: &Error) -> bool {
    match err {
        Error::ZeroSize => config.size == 0,
        Error::OverlapTooLarge { overlap, size } => {
            config.size > 0
                && config.overlap >= config.size
                && (*overlap, *size) == (config.overlap, config.size)
        }
        Error::NoSeparators => {
            matches!(config.kind(), Strategy::Recursive | Strategy::Markdown)
                && config.separators.is_empty()
        }
        Error::PrefixTooLong { len, size, .. } => {
            config.markdown_config().is_some_and(|m| m.heading_prefix)
                && *size == config.size
                && *len >= config.size
        }
        Error::TableHeaderTooLong { len, size, .. } => {
            config
                .markdown_config()
                .is_some_and(|m| m.table_header == TableHeader::Repeat)
                && *size == config.size
                && *len >= config.size
        }
        Error::InvalidRegex { index, .. } => config.separators.get(*index).is_some_and(|s| s.regex),
        Error::CharTooBig { ch, bytes, .. } => {
            config.unit == Unit::Bytes && *bytes > config.size && text.contains(*ch)
        }
        Error::CharTooManyTokens { ch, tokens, .. } => {
            matches!(config.unit, Unit::Tokens(_))
                && *tokens > config.size
                && text.contains(*ch)
                && units(config.unit, ch.encode_utf8(&mut [0; 4])) == *tokens
        }
        // With the heading prefix, a chunk has only the room the prefix
        // leaves, so a character may be too big for it and not for the size;
        // the refusal names that room.
        Error::CharTooBigAfterPrefix {
            ch,
            len,
            room,
            size,
            ..
        } => {
            prefixed(config)
                && config.unit != Unit::Chars
                && *size == config.size
                && *room < config.size
                && *len > *room
                && text.contains(*ch)
                // A `/` or whitespace may be tokenized together with the
                // prefix, and then counts what it adds after it.
                && (units(config.unit, ch.encode_utf8(&mut [0; 4])) == *len
                    || *ch == '/'
                    || ch.is_whitespace())
        }
        // Errors of engines this harness does not drive.
        #[allow(unreachable_patterns)]
        _ => false,
    }
}

/// Whether chunks may get a prefix counted in their size: the heading path,
/// or a table's repeated header.
fn prefixed(config: &Config) -> bool {
    config
        .markdown_config()
        .is_some_and(|m| m.heading_prefix || m.table_header == TableHeader::Repeat)
}

/// The length of `text` in `unit`. Token units load their tokenizer from
/// tiktoken-rs's tables the first time (the `tiktoken` feature).
fn units(unit: Unit, text: &str) -> usize {
    Resources::tiktoken()
        .counter(unit)
        .expect("the tiktoken feature loads the tokenizers")
        .len(text)
}

/// Splits the text in `data` as configured there and panics (a crash for the
/// fuzzer) if an error is not deserved or a property does not hold.
pub fn split_and_check(data: &[u8], strategy: Strategy) {
    let (text, config) = decode(data, strategy);
    let out = match split(&text, &config, &Resources::tiktoken()) {
        Ok(out) => out,
        Err(e) => {
            assert!(
                allowed(&text, &config, &e),
                "undeserved error {e:?} for {config:?}"
            );
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let again = split(&text, &config, &Resources::tiktoken())
        .expect("the same split failed the second time");
    properties(&text, &config, &out, &again);
    trace_tells_the_truth(&text, &config);
}

/// Splits the text in `data` with a strategy the first byte picks from
/// [`Strategy::ALL`] (so a strategy is fuzzed from the day it is added) and
/// the configuration the rest encodes (see [`decode`]), and panics if the
/// trace of a split says anything the text contradicts. A refusal is fine
/// here (the per-engine targets judge whether it was deserved).
pub fn split_and_check_the_trace(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let strategy = Strategy::ALL[pick as usize % Strategy::ALL.len()];
    let (text, mut config) = decode(rest, strategy);
    if strategy == Strategy::LangChainMarkdown {
        // The header splitter takes header markers: each separator is read
        // as one of `#` to `######` by its length, headers kept (`start`,
        // also for `end`, which the class has no way to do) or stripped
        // (`none`), one chunk per paragraph with flag bit 4.
        let flags = rest.get(flag_offset(rest)).copied().unwrap_or(0);
        let mut markers: Vec<Separator> = Vec::new();
        for s in &config.separators {
            let marker = Separator::literal("#".repeat(1 + s.pattern.len() % 6));
            if !markers.contains(&marker) {
                markers.push(marker);
            }
        }
        config.separators = markers;
        if config.placement == Placement::End {
            config.placement = Placement::Start;
        }
        config.strategy = StrategyConfig::LangChainMarkdown(HeaderSplitConfig {
            each_line: flags & 16 != 0,
            then_recursive: None,
        });
    }
    // LangChain pairs a regex's capturing groups up with its pieces wrongly
    // (a quirk the engine reproduces and the differential test compares);
    // the checks model LangChain's splits with exactly the one group that
    // LangChain wraps around the pattern to keep it, as truth.rs draws them.
    // A pattern starting with `?` has none once wrapped: `(` + `?!x` + `)`
    // is a lookahead, which captures nothing.
    if strategy.langchain().is_some()
        && config
            .separators
            .iter()
            .any(|s| s.regex && (capturing_group(&s.pattern) || s.pattern.starts_with('?')))
    {
        return;
    }
    match Splitter::new(config.clone(), &Resources::tiktoken()).and_then(|s| s.split(&text)) {
        Ok(_) => trace_tells_the_truth(&text, &config),
        Err(e) => assert!(!e.to_string().is_empty(), "a refusal without a message"),
    }
}

/// Whether `pattern` may hold a capturing group: an unescaped `(` not
/// followed by `?` (a character class holding one counts too, which only
/// skips an input more).
fn capturing_group(pattern: &str) -> bool {
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '(' if chars.peek() != Some(&'?') => return true,
            _ => {}
        }
    }
    false
}

/// Runs the trace-truth checks on the full analysis of a text that `config`
/// splits, for a strategy they model (the others' own tests check their
/// traces).
fn trace_tells_the_truth(text: &str, config: &Config) {
    if !truth::models(config.kind()) {
        return;
    }
    let resources = Resources::tiktoken();
    let counter = resources
        .counter(config.unit)
        .expect("the tiktoken feature loads the tokenizers");
    let analysis = Splitter::with_counter(config.clone(), counter, &resources)
        .and_then(|s| s.analyze(text, Detail::FULL))
        .expect("the split succeeded once already");
    let mut seen = truth::Seen::new();
    if let Err(lie) = truth::verify(text, config, counter, &analysis, &mut seen) {
        panic!("the trace lies: {lie}\nconfig: {config:?}\ntext: {text:?}");
    }
}

fn properties(text: &str, config: &Config, out: &Output, again: &Output) {
    let checks = check(text, config, out, &Resources::tiktoken()).with_again(out, again);
    // Separators left out of both chunks are lost by design (the Markdown
    // strategy's too, inside a block that alone is over the size).
    let drops = config.kind().uses_separators() && config.placement == Placement::None;
    assert!(
        checks[Property::Coverage].ok || drops,
        "coverage: {}",
        checks[Property::Coverage].detail
    );
    assert!(
        checks[Property::MaxSize].ok,
        "max size: {}",
        checks[Property::MaxSize].detail
    );
    assert!(
        checks[Property::Order].ok,
        "order: {}",
        checks[Property::Order].detail
    );
    assert!(
        checks[Property::Overlap].ok,
        "overlap: {}",
        checks[Property::Overlap].detail
    );
    assert!(
        checks[Property::Determinism].ok,
        "determinism: {}",
        checks[Property::Determinism].detail
    );
    for c in &out.chunks {
        assert_eq!(
            c.len,
            units(config.unit, c.text(text)),
            "chunk {} length",
            c.index
        );
    }
    if config.overlap == 0 {
        assert!(
            out.chunks.iter().all(|c| c.overlap.is_none()),
            "overlap without overlap"
        );
    }
    // The fast path without a trace cuts exactly the same chunks.
    let plain = Splitter::new(config.clone(), &Resources::tiktoken())
        .expect("validated once already")
        .chunks(text)
        .expect("the traced split succeeded");
    assert_eq!(
        plain.len(),
        out.chunks.len(),
        "chunks() and split() disagree"
    );
    for (a, b) in plain.iter().zip(&out.chunks) {
        assert_eq!(
            (a.span, a.cut, a.len, a.overlap),
            (b.span, b.cut, b.len, b.overlap)
        );
    }
    // Every traced chunk points at a node of the trace.
    for c in &out.chunks {
        let node = c.node.expect("a traced chunk without a node");
        assert!(
            node < out.trace.nodes.len(),
            "chunk {} points past the trace",
            c.index
        );
    }
}

/// The LangChain arguments encoded in `data`: the same layout as [`decode`],
/// where flag bit 4 picks `CharacterTextSplitter` (else the recursive one), bit
/// 5 makes every separator a (Python) regex, and the placement bits give
/// `keep_separator` (end, start, false, start). An overlap equal to the size is
/// allowed, as LangChain allows it.
pub fn decode_langchain(data: &[u8]) -> (String, LangChainConfig) {
    let (text, config) = decode(data, Strategy::Recursive);
    let flags = data.get(flag_offset(data)).copied().unwrap_or(0);
    let config = LangChainConfig {
        kind: if flags & 16 == 0 {
            Kind::Recursive
        } else {
            Kind::Character
        },
        chunk_size: config.size,
        chunk_overlap: config.overlap,
        separators: config
            .separators
            .iter()
            .map(|s| match s.pattern.as_str() {
                // This engine matches Python regexes by backtracking, as
                // Python does, and refuses a pattern once it has backtracked
                // too much: about half a second natively, several seconds in
                // the instrumented fuzz build, spent again on every input
                // that holds it. Its own tests cover that budget; here it
                // would only eat the fuzzing time.
                CATASTROPHIC => r"\s+".to_string(),
                p => p.to_string(),
            })
            .collect(),
        keep_separator: Keep::from(config.placement),
        is_separator_regex: flags & 32 != 0 || config.separators.iter().any(|s| s.regex),
        strip_whitespace: config.trim,
        unit: config.unit,
    };
    (text, config)
}

/// Where the flags byte is: after the size (one byte, or three for a `u16`)
/// and the overlap.
fn flag_offset(data: &[u8]) -> usize {
    match data.first() {
        Some(200..=239) => 4,
        _ => 2,
    }
}

/// Splits as LangChain does and panics if the engine panics, refuses what it
/// should not, or is not self-consistent. (What LangChain returns is checked
/// against the real library elsewhere; here: no crash, no hang, and a sound
/// record of where every chunk comes from.)
pub fn langchain_split_and_check(data: &[u8]) {
    let (text, config) = decode_langchain(data);
    let out = match langchain::split(&text, &config, &Resources::tiktoken()) {
        Ok(out) => out,
        Err(e) => {
            let deserved = match &e {
                LangChainError::ZeroSize => config.chunk_size == 0,
                LangChainError::OverlapLargerThanSize { .. } => {
                    config.chunk_overlap > config.chunk_size
                }
                // tiktoken refuses to count a special token.
                LangChainError::DisallowedSpecialToken { token } => {
                    matches!(config.unit, Unit::Tokens(_)) && text.contains(token)
                }
                // Refusals about a regex need a regex.
                _ => config.is_separator_regex,
            };
            assert!(deserved, "undeserved error {e:?} for {config:?}");
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    assert!(config.chunk_size > 0 && config.chunk_overlap <= config.chunk_size);
    let again = langchain::split(&text, &config, &Resources::tiktoken())
        .expect("the same split failed the second time");
    assert_eq!(out, again, "not deterministic");
    let plain = langchain::chunks(&text, &config, &Resources::tiktoken())
        .expect("the traced split succeeded");
    assert_eq!(
        plain.len(),
        out.chunks.len(),
        "chunks() and split() disagree"
    );
    for (a, b) in plain.iter().zip(&out.chunks) {
        assert_eq!(
            (&a.text, a.span, a.is_slice, a.start_index),
            (&b.text, b.span, b.is_slice, b.start_index)
        );
    }
    for (i, c) in out.chunks.iter().enumerate() {
        assert_eq!(c.index, i);
        assert!(
            c.span.start <= c.span.end && c.span.end <= text.len(),
            "chunk {i}: span out of the text"
        );
        assert!(
            text.is_char_boundary(c.span.start) && text.is_char_boundary(c.span.end),
            "chunk {i}: span inside a char"
        );
        if c.is_slice {
            assert_eq!(
                c.text,
                c.span.text(&text),
                "chunk {i}: is_slice but not the span's text"
            );
        }
        assert_eq!(c.len, units(config.unit, &c.text), "chunk {i}: length");
        if let Some(node) = c.node {
            assert!(
                node < out.trace.nodes.len(),
                "chunk {i} points past the trace"
            );
        }
    }
}

/// The evaluation of a questions file on one document: the first byte is
/// `top_k` (its value mod 9, so 0, which is refused, comes up too), the rest
/// is lossy UTF-8, the questions file up to the first U+0001 and the
/// document after it (named `doc.txt`), chunked by the recursive engine at
/// 40 chars. A malformed file or a question about another document must be
/// refused with a message; an evaluation must give shares in [0, 1] and at
/// most `top_k` chunks per question.
pub fn evaluate_and_check(data: &[u8]) {
    use chunkscope_eval::{evaluate, parse_questions, Corpus, Document};
    let Some((&k, rest)) = data.split_first() else {
        return;
    };
    let top_k = usize::from(k % 9);
    let input = String::from_utf8_lossy(rest);
    let (jsonl, text) = input.split_once('\u{1}').unwrap_or((&input, ""));
    let parsed = match parse_questions(jsonl) {
        Ok(parsed) => parsed,
        Err(e) => {
            assert!(
                e.line >= 1 && !e.message.is_empty(),
                "a refusal without its line: {e:?}"
            );
            return;
        }
    };
    for q in 0..parsed.questions.len() {
        if let Err(e) = chunkscope_eval::questions::check_texts(&parsed, q, text) {
            assert!(!e.message.is_empty(), "a refusal without a message");
        }
    }
    let splitter = Splitter::new(Config::recursive(40), &Resources::tiktoken())
        .expect("a valid configuration");
    let analysis = splitter
        .analyze(text, Detail::CHUNKS)
        .expect("chars never refuse a text");
    let corpus = Corpus {
        documents: vec![Document {
            name: "doc.txt".into(),
            text: text.to_string(),
            chunks: analysis.chunk_chars.clone(),
            units: analysis.output.chunks.iter().map(|c| c.len).collect(),
        }],
    };
    match evaluate(&corpus, &parsed.questions, top_k) {
        Ok(evaluation) => {
            let share = |x: f64| (0.0..=1.0).contains(&x);
            for q in &evaluation.questions {
                assert!(q.retrieved.len() <= top_k, "more than top_k retrieved");
                assert!(
                    share(q.scores.recall) && share(q.scores.precision) && share(q.scores.iou),
                    "a score outside [0, 1]: {q:?}"
                );
                assert!(share(q.whole) && q.fragments >= 0.0, "{q:?}");
            }
            let m = evaluation.mean;
            assert!(share(m.recall) && share(m.precision) && share(m.iou) && share(m.whole));
        }
        Err(message) => assert!(!message.is_empty(), "a refusal without a message"),
    }
}
