//! The tokenizer against its reference, tiktoken-rs 0.12.1 (`encode_ordinary`):
//! identical token ids for cl100k and o200k on random text biased to the hard
//! parts of the pre-tokenizer patterns and on real-ish documents; token ends
//! that agree with the tokens' bytes; and `.tokens` data that round-trips and
//! that, corrupted in any way, is an error and never a panic.
//!
//! The tokenizers are built from tiktoken-rs's rank tables with
//! `Tokenizer::from_ranks`, so these tests need no cargo feature.

#![cfg(not(target_arch = "wasm32"))]

use chunkscope::tokens::{Encoding, Tokenizer, TokenizerError};
use proptest::prelude::*;
use std::sync::OnceLock;
use tiktoken_rs::CoreBPE;

/// cl100k's pre-tokenizer pattern, as in tiktoken-rs 0.12.1's
/// `tiktoken_ext/openai_public.rs` (o200k's is exported as
/// `O200K_BASE_PAT_STR`).
const CL100K_PATTERN: &str = "'(?i:[sdmt]|ll|ve|re)|[^\\r\\n\\p{L}\\p{N}]?+\\p{L}++|\\p{N}{1,3}+| ?[^\\s\\p{L}\\p{N}]++[\\r\\n]*+|\\s++$|\\s*[\\r\\n]|\\s+(?!\\S)|\\s";

/// Our tokenizer and the reference, built once per encoding.
struct Pair {
    ours: Tokenizer,
    reference: CoreBPE,
    /// The reference's pre-tokenizer regex.
    pattern: fancy_regex::Regex,
}

fn pair(encoding: Encoding) -> &'static Pair {
    static PAIRS: [OnceLock<Pair>; 2] = [OnceLock::new(), OnceLock::new()];
    PAIRS[encoding as usize].get_or_init(|| {
        let reference = match encoding {
            Encoding::Cl100k => tiktoken_rs::cl100k_base(),
            Encoding::O200k => tiktoken_rs::o200k_base(),
        }
        .unwrap();
        let ours = Tokenizer::from_ranks(encoding, rank_table(&reference)).unwrap();
        let pattern = match encoding {
            Encoding::Cl100k => CL100K_PATTERN,
            Encoding::O200k => tiktoken_rs::O200K_BASE_PAT_STR,
        };
        let pattern = fancy_regex::Regex::new(pattern).unwrap();
        Pair {
            ours,
            reference,
            pattern,
        }
    })
}

/// The ordinary tokens of `bpe`, by rank: ranks 0, 1, … until the first that
/// does not decode or is a special token.
fn rank_table(bpe: &CoreBPE) -> Vec<Vec<u8>> {
    let special = bpe.special_tokens();
    let mut ranks = Vec::new();
    while let Ok(bytes) = bpe.decode_bytes(&[ranks.len() as u32]) {
        if std::str::from_utf8(&bytes).is_ok_and(|s| special.contains(s)) {
            break;
        }
        ranks.push(bytes);
    }
    ranks
}

/// Everything the tokenizer promises about `text`, against the reference.
fn check(encoding: Encoding, text: &str) -> Result<(), TestCaseError> {
    let Pair {
        ours,
        reference,
        pattern,
    } = pair(encoding);
    let expected = reference.encode_ordinary(text);
    let tokens = ours.encode(text);
    prop_assert_eq!(&tokens, &expected, "{} on {:?}", encoding, text);
    prop_assert_eq!(ours.count(text), expected.len());
    let ends = ours.token_ends(text);
    prop_assert_eq!(ends.len(), tokens.len());
    // The set of ends answers "how many end below" at every offset.
    let set = ours.token_end_set(text);
    prop_assert_eq!(set.len(), ends.len());
    for pos in 0..=text.len() + 1 {
        prop_assert_eq!(set.before(pos), ends.partition_point(|&e| e < pos));
    }
    let mut start = 0;
    for (&token, &end) in tokens.iter().zip(&ends) {
        prop_assert!(end > start, "token ends must increase: {:?}", ends);
        prop_assert_eq!(ours.token_bytes(token), Some(&text.as_bytes()[start..end]));
        start = end;
    }
    prop_assert_eq!(start, text.len());
    // The pieces are the regex's matches (some differences in pieces would
    // not show in the tokens), and they tile the text.
    let pieces: Vec<&str> = encoding.pieces(text).map(|r| &text[r]).collect();
    let matches: Vec<&str> = pattern
        .find_iter(text)
        .map(|m| m.unwrap().as_str())
        .collect();
    prop_assert_eq!(&pieces, &matches, "{} pieces of {:?}", encoding, text);
    prop_assert_eq!(pieces.concat(), text);
    Ok(())
}

/// Fragments aimed at every alternative of both patterns: contractions in
/// every case (with the long s `ſ` that folds to `s`, and the Kelvin sign that
/// folds to `k`, which is no contraction), numbers of every kind, CR/LF and
/// every kind of white space, letters with combining marks, case transitions
/// (o200k splits `camelCase`), titlecase and modifier letters, CJK, emoji with
/// ZWJ and modifiers, punctuation runs and slashes, special-token text.
const ATOMS: &[&str] = &[
    "'",
    "'s",
    "'S",
    "'ſ",
    "'t",
    "'T",
    "'d",
    "'D",
    "'m",
    "'M",
    "'re",
    "'RE",
    "'rE",
    "'ve",
    "'Ve",
    "'ll",
    "'LL",
    "'lL",
    "'k",
    "'K",
    "'x",
    "''",
    "ſ",
    "K",
    "0",
    "7",
    "42",
    "123",
    "2024",
    "²",
    "½",
    "٣",
    "Ⅻ",
    "①",
    " ",
    "  ",
    "   ",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "\n\n",
    " \n",
    "\n ",
    "\u{a0}",
    "\u{2028}",
    "\u{2029}",
    "\u{3000}",
    "\u{85}",
    "\u{b}",
    "\u{c}",
    "\u{1680}",
    "\u{2009}",
    "\u{200b}",
    "\u{feff}",
    "a",
    "b",
    "s",
    "t",
    "hello",
    "World",
    "WORLD",
    "HTML",
    "Parser",
    "camelCase",
    "iPhone",
    "ǅ",
    "ǈungla",
    "ʰ",
    "ー",
    "e\u{301}",
    "\u{301}",
    "\u{20dd}",
    "\u{93f}",
    "ä",
    "Ä",
    "ß",
    "ẞ",
    "İ",
    "ı",
    "Σσς",
    "中文",
    "日本語",
    "カタカナ",
    "한국어",
    "ไทย",
    "العربية",
    "עברית",
    "हिन्दी",
    "Ελληνικά",
    "Русский",
    "😀",
    "👩\u{200d}💻",
    "👍🏽",
    "🇺🇸",
    "\u{200d}",
    "\u{fe0f}",
    ".",
    ",",
    "!",
    "?",
    "...",
    "/",
    "//",
    "/\n",
    "<|endoftext|>",
    "<|fim_prefix|>",
    "-",
    "--",
    "—",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "`",
    "```",
    "#",
    "##",
    "*",
    "**",
    "_",
    "=",
    "==",
    "+",
    "@",
    "$",
    "%",
    "^",
    "&",
    "~",
    "\\",
    ";",
    ":",
    "->",
    "=>",
    "::",
    "\u{e000}",
    "\u{10ffff}",
];

/// Random text: mostly atoms, some arbitrary characters.
fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        8 => proptest::sample::select(ATOMS).prop_map(str::to_owned),
        1 => any::<char>().prop_map(String::from),
    ];
    proptest::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

/// One character of each kind the patterns tell apart (letter categories,
/// marks, numbers, the white space that matters, the apostrophe and the
/// contraction letters, slash, punctuation, symbols), so that short strings
/// meet every pair and triple of kinds often.
const DENSE: &[char] = &[
    'a', 's', 't', 'l', 'e', 'r', 'v', 'd', 'm', 'S', 'L', 'E', 'B', 'ſ', 'K', 'ǅ', 'ʰ', '中',
    'ー', '\u{301}', '\u{93f}', '1', '½', '٣', ' ', ' ', '\n', '\r', '\t', '\u{a0}', '\u{3000}',
    '\'', '\'', '/', '!', '.', '😀', '\u{200d}',
];

fn dense_text() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(DENSE), 0..16)
        .prop_map(|chars| chars.into_iter().collect())
}

/// Long runs without a piece boundary (the heap merge: pieces of 100+ bytes),
/// and long runs of white space, digits and punctuation.
fn long_runs() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-z0-9+/]{90,400}={0,2}",
        "[a-z]{90,300}",
        "[ \t\n]{50,200}x?",
        "[0-9]{50,200}",
        "[-=*#_.!]{90,300}",
        "[ぁ-んァ-ン一-龥]{40,150}",
        "(\u{301}|e|E){60,200}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn cl100k_matches_tiktoken(text in text()) {
        check(Encoding::Cl100k, &text)?;
    }

    #[test]
    fn o200k_matches_tiktoken(text in text()) {
        check(Encoding::O200k, &text)?;
    }

    #[test]
    fn cl100k_matches_tiktoken_on_dense_text(text in dense_text()) {
        check(Encoding::Cl100k, &text)?;
    }

    #[test]
    fn o200k_matches_tiktoken_on_dense_text(text in dense_text()) {
        check(Encoding::O200k, &text)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn long_pieces_match_tiktoken(text in long_runs(), before in text(), after in text()) {
        let text = format!("{before}{text}{after}");
        check(Encoding::Cl100k, &text)?;
        check(Encoding::O200k, &text)?;
    }
}

const MARKDOWN: &str = "# Refund policy\n\n\
Refunds take **5–7 business days**. They go back to the original payment method \
(UPI, card, or wallet); COD orders get store credit.\n\n\
## FAQ\n\n\
- *Can I cancel?* Yes — until it's shipped. We'll email you.\n\
- Won't the fee be refunded? It's non-refundable (see [terms](https://example.com/terms?x=1&y=2)).\n\
   \n\
| Plan | Price | Tokens |\n|---|---:|---|\n| Free | $0.00 | 1,000 |\n| Pro | $12.50 | 1,000,000 |\n\n\
> Note: Don't reply to this e-mail.\r\n\r\n    indented code\t\ttabs\n\n\n";

const CODE: &str = r#"use std::collections::HashMap;

/// Counts words. It's O(n) — isn't it?
fn count_words(text: &str) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for word in text.split_whitespace() {
        *counts.entry(word.to_lowercase()).or_insert(0) += 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    #[test]
    fn it_works() { assert_eq!(super::count_words("a A b")["a"], 2); }
}
def parse_HTTPResponse(self, rawBytes: bytes) -> "Response":
    if not rawBytes: raise ValueError(f"empty: {rawBytes!r}")  # 0x1F, 1e-9, 3.14159
    return Response(status=200, body=rawBytes[4096:])
const fetchJSON = async (url) => (await fetch(url)).json(); // ES2017+
SELECT id, COUNT(*) FROM users WHERE created_at >= '2024-01-01' GROUP BY id;
"#;

const MULTILINGUAL: &str = "Le cœur a ses raisons que la raison ne connaît point. L'été dernier, j'ai vu l'Hôtel-Dieu.\n\
Ich weiß nicht, was soll es bedeuten. STRASSE und Straße; Ärger über Öl.\n\
Съешь же ещё этих мягких французских булок, да выпей чаю.\n\
Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. ΣΊΣΥΦΟΣ.\n\
כל עוד בלבב פנימה נפש יהודי הומייה. العربية لغة جميلة جداً ١٢٣٤٥.\n\
हिन्दी भाषा में लिखा गया वाक्य। ภาษาไทยเขียนโดยไม่มีช่องว่าง\n\
我能吞下玻璃而不伤身体。私はガラスを食べられます。それは私を傷つけません。\n\
나는 유리를 먹을 수 있어요. 그래도 아프지 않아요.\u{3000}全角スペース\n\
Emoji: 👩‍💻👨‍👩‍👧‍👦 🇯🇵 👍🏽 ❤️‍🔥 — and ǅemal's Ǉubljana, ʰaspirated, ﬁ ligature, x² + y³ = ½.\n\
Tiếng Việt có dấu: Người ta thường nói. Zażółć gęślą jaźń. Ḿ̧̊ꞌ combining-heavy: a\u{301}\u{302}\u{303}b.\u{2028}End\u{2029}";

#[test]
fn real_texts_match_tiktoken() {
    let all = [MARKDOWN, CODE, MULTILINGUAL].concat();
    for encoding in Encoding::ALL {
        for text in [MARKDOWN, CODE, MULTILINGUAL, all.as_str()] {
            check(encoding, text).unwrap();
        }
        // Every suffix of the mixed text: each starts the patterns at a
        // different place (and ends at the end of the text, which `\s++$`
        // and `\s+(?!\S)` care about).
        for (i, _) in MULTILINGUAL.char_indices().step_by(3) {
            check(encoding, &MULTILINGUAL[i..]).unwrap();
        }
        for (i, _) in MARKDOWN.char_indices().step_by(5) {
            check(encoding, &MARKDOWN[..i]).unwrap();
        }
    }
}

#[test]
fn hand_picked_edge_cases_match_tiktoken() {
    let cases = [
        "",
        " ",
        "\n",
        "   ",
        "a   ",
        "a \n",
        "a\n \n ",
        " \u{a0}\u{a0}x",
        "don't DON'T Don'T we'ſ it'K",
        "HELLO'S Hello's hello'S",
        "'s's's",
        "1234567890",
        "٣٤٥٦",
        "<|endoftext|>hello<|endofprompt|>",
        "a/b//c///\n\n/",
        "\u{301}\u{301}a",
        " \u{301}'s",
        "x\u{301}'LL",
        "ABCdefGHI",
        "ǅǅǅa",
        "\r\n\r\n\r\n",
        "  \r\n  ",
        "tab\tseparated\tvalues\t",
        &"word ".repeat(200),
        &"🙂".repeat(60),
        &"\u{3000}".repeat(10),
    ];
    for encoding in Encoding::ALL {
        for text in cases {
            check(encoding, text).unwrap();
        }
    }
}

/// Pieces of 30 000 bytes: the heap merge, and white-space runs that need
/// the regex to backtrack over the whole run.
#[test]
fn very_long_pieces_match_tiktoken() {
    let texts = [
        format!("a{}b", " ".repeat(30_000)),
        format!("a{}b", " \t\u{3000}".repeat(6_000)),
        format!("{} x", "ab".repeat(15_000)),
        "=".repeat(30_000),
    ];
    for encoding in Encoding::ALL {
        for text in &texts {
            check(encoding, text).unwrap();
        }
    }
}

#[test]
fn special_tokens_are_tiktokens() {
    for encoding in Encoding::ALL {
        let mut theirs: Vec<String> = pair(encoding)
            .reference
            .special_tokens()
            .into_iter()
            .map(|t| t.to_string())
            .collect();
        theirs.sort();
        let mut ours: Vec<String> = encoding
            .special_tokens()
            .iter()
            .map(|t| t.to_string())
            .collect();
        ours.sort();
        assert_eq!(ours, theirs, "{encoding}");
    }
}

#[test]
fn vocabulary_sizes() {
    assert_eq!(pair(Encoding::Cl100k).ours.vocabulary_size(), 100_256);
    assert_eq!(pair(Encoding::O200k).ours.vocabulary_size(), 199_998);
}

#[test]
fn data_round_trips() {
    for encoding in Encoding::ALL {
        let ours = &pair(encoding).ours;
        let data = ours.to_data();
        // The size the page announces before it downloads the file.
        assert_eq!(data.len(), encoding.data_bytes(), "{encoding}");
        let again = Tokenizer::from_data(&data).unwrap();
        assert_eq!(again.encoding(), encoding);
        assert_eq!(again.vocabulary_size(), ours.vocabulary_size());
        assert_eq!(again.to_data(), data);
        for text in [MARKDOWN, CODE, MULTILINGUAL] {
            assert_eq!(again.encode(text), ours.encode(text));
        }
    }
}

#[test]
fn truncated_data_is_an_error() {
    let data = pair(Encoding::Cl100k).ours.to_data();
    let mut lengths: Vec<usize> = (0..2000).collect();
    lengths.extend((2000..data.len()).step_by(7919));
    lengths.push(data.len() - 1);
    for len in lengths {
        let error = Tokenizer::from_data(&data[..len]).unwrap_err();
        assert!(
            matches!(error, TokenizerError::Truncated { .. }),
            "{len} bytes: {error}"
        );
    }
}

#[test]
fn error_messages_say_what_is_wrong() {
    let data = pair(Encoding::O200k).ours.to_data();
    let message = |bytes: &[u8]| Tokenizer::from_data(bytes).unwrap_err().to_string();
    assert_eq!(
        message(b"<!DOCTYPE html>"),
        "not a tokenizer data file: it does not start with \"CSTOKENS\""
    );
    assert!(
        message(&data[..100]).starts_with("tokenizer data file is truncated: it ends in a token's")
    );
    let mut newer = data.clone();
    newer[8] = 9;
    assert_eq!(
        message(&newer),
        "tokenizer data file version 9 is not supported (this build reads version 1)"
    );
    let mut extra = data.clone();
    extra.extend_from_slice(b"junk");
    assert!(message(&extra).contains("unexpected bytes after the last token"));
    // Making token 1 a copy of token 0 (both are one byte long).
    let mut duplicate = data;
    duplicate[22] = duplicate[20];
    assert_eq!(message(&duplicate), "token 1 has the same bytes as token 0");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// Arbitrary bytes, and real data with bytes overwritten, inserted or
    /// removed: the result is a tokenizer or an error, never a panic.
    #[test]
    fn corrupt_data_never_panics(
        noise in proptest::collection::vec(any::<u8>(), 0..64),
        at in 0usize..4000,
        how in 0u8..3,
    ) {
        prop_assert!(Tokenizer::from_data(&noise).is_err());
        static DATA: OnceLock<Vec<u8>> = OnceLock::new();
        let full = DATA.get_or_init(|| pair(Encoding::Cl100k).ours.to_data());
        let mut data = full[..4000 + noise.len()].to_vec();
        let at = at.min(data.len());
        match how {
            0 => {
                for (i, byte) in noise.iter().enumerate() {
                    if let Some(slot) = data.get_mut(at + i) {
                        *slot = *byte;
                    }
                }
            }
            1 => {
                data.splice(at..at, noise.iter().copied());
            }
            _ => {
                data.drain(at..(at + noise.len()).min(data.len()));
            }
        }
        // Cut short, so it is an error unless the count was corrupted to match.
        let _ = Tokenizer::from_data(&data);
        let mut header = data[..19.min(data.len())].to_vec();
        header.extend_from_slice(&noise);
        let _ = Tokenizer::from_data(&header);
    }
}

/// A splitter counts with the tokenizer its resources hold, not with one
/// found elsewhere: two splitters of one encoding, one process, two tables.
#[test]
fn a_splitter_counts_with_its_own_resources() {
    let encoding = Encoding::Cl100k;
    let real = pair(encoding).ours.clone().leak();
    let bytes: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    let toy = Tokenizer::from_ranks(encoding, bytes).unwrap().leak();
    let config = chunkscope::Config::recursive(3).with_unit(chunkscope::Unit::Tokens(encoding));
    let split = |tokenizer| {
        let resources = chunkscope::Resources::new().with_tokenizer(tokenizer);
        let splitter = chunkscope::Splitter::new(config.clone(), &resources).unwrap();
        splitter.chunks("hello world").unwrap().len()
    };
    // "hello world" is 2 cl100k tokens: one chunk. In one-byte tokens it is
    // 11, and the recursive split at 3 is "hel", "lo", "wor", "ld".
    assert_eq!((split(real), split(toy)), (1, 4));
}

/// With the `tiktoken` feature, `load` reads the same table as the tests do.
#[cfg(feature = "tiktoken")]
#[test]
fn load_builds_the_same_tables() {
    for encoding in Encoding::ALL {
        let loaded = Tokenizer::load(encoding).unwrap();
        assert_eq!(loaded.to_data(), pair(encoding).ours.to_data());
    }
    let o200k = Tokenizer::shared(Encoding::O200k).unwrap();
    assert!(std::ptr::eq(
        o200k,
        Tokenizer::shared(Encoding::O200k).unwrap()
    ));
    assert_eq!(o200k.encode("hello world"), [24912, 2375]);
}

/// Long texts (16 KB and more) and many counts through one memo answer
/// repeated pieces from the memo: the same tokens, ends and counts as the
/// reference, with the memo's slots reused by colliding pieces.
#[test]
fn the_piece_memo_gives_the_references_tokens() {
    let all = [MARKDOWN, CODE, MULTILINGUAL].concat();
    // Distinct words too, so slots are taken over by other pieces.
    let numbered: String = (0..6_000)
        .map(|i| format!(" w{i}x{} Word{}", i * 7919 % 1000, i % 97))
        .collect();
    let long = format!("{}{numbered}{}", all.repeat(4), all);
    assert!(long.len() > 64 << 10);
    for encoding in Encoding::ALL {
        check(encoding, &long).unwrap();
        let Pair {
            ours, reference, ..
        } = pair(encoding);
        let mut memo = chunkscope::tokens::PieceMemo::new();
        let mut compared = 0;
        for (start, _) in long.char_indices().step_by(97) {
            let mut end = (start + 1 + start % 300).min(long.len());
            while !long.is_char_boundary(end) {
                end += 1;
            }
            let text = &long[start..end];
            assert_eq!(
                ours.count_with(text, &mut memo),
                reference.encode_ordinary(text).len(),
                "{encoding} on {text:?}"
            );
            compared += 1;
        }
        assert!(compared > 1_000, "{compared}");
    }
}
