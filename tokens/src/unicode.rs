//! The Unicode facts the pre-tokenizer asks about a character: its general
//! category (as far as the OpenAI patterns distinguish them) and whether it is
//! white space.
//!
//! # Why one class per character
//!
//! The patterns use `\p{L}`, `\p{Lu}`, `\p{Ll}`, `\p{Lt}`, `\p{Lm}`, `\p{Lo}`,
//! `\p{M}`, `\p{N}` and `\s`. The five letter categories, marks and numbers are
//! disjoint general categories, and every White_Space character is a separator
//! or a control (never a letter, mark or number), so each code point belongs to
//! exactly one [`Class`], stored in 4 bits. `tables.rs` holds them twice:
//!
//! - as a two-level table for the Basic Multilingual Plane (every script in
//!   everyday use): the class of `c` is nibble `c % 64` of block
//!   `BMP_BLOCK_OF[c / 64]` of `BMP_BLOCKS` — two loads, and identical blocks
//!   are stored once, so it is 7 KB;
//! - as sorted runs (`CLASS_RUNS`, from U+10000 on) for the other planes
//!   (emoji, historic scripts, rare CJK), found by binary search.
//!
//! ASCII is one load from a 128-entry array computed from the BMP table at
//! compile time.
//!
//! # Where the table comes from
//!
//! `tables.rs` is generated from the `regex` crate — the same `regex-syntax`
//! tables that tiktoken-rs's `fancy-regex` delegates character classes to — by
//! the ignored test `generate_tables` at the bottom of this file:
//!
//! ```text
//! cargo test -p chunkscope --lib tokens::unicode -- --ignored generate_tables
//! ```
//!
//! The test `classes_match_regex_for_every_code_point` then checks all
//! 1 114 112 code points against the regex classes, so an update of
//! `regex-syntax` (a new Unicode version) that is not followed by regenerating
//! the table fails the build's tests instead of silently miscounting tokens.

use super::tables::{BMP_BLOCKS, BMP_BLOCK_OF, CLASS_RUNS};

/// What the pre-tokenizer needs to know about one character.
///
/// The discriminants are the values stored in `tables.rs`; do not reorder.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub(crate) enum Class {
    /// Anything else: punctuation, symbols, controls that are not white space,
    /// unassigned and private-use code points.
    Other = 0,
    /// `\s`: the Unicode White_Space property.
    Space = 1,
    /// `\p{N}`: Nd, Nl and No (so `²`, `½` and `Ⅻ` are numbers).
    Number = 2,
    /// `\p{M}`: Mn, Mc and Me (combining marks). Not a letter.
    Mark = 3,
    /// `\p{Lu}`.
    Uppercase = 4,
    /// `\p{Ll}`.
    Lowercase = 5,
    /// `\p{Lt}` (e.g. `ǅ`).
    Titlecase = 6,
    /// `\p{Lm}` (e.g. `ʰ`, `ー`).
    Modifier = 7,
    /// `\p{Lo}` (e.g. CJK ideographs, kana, Arabic and Hebrew letters).
    OtherLetter = 8,
}

impl Class {
    /// The class stored as `value` in the table (`value` < 9 by construction).
    const fn from_table(value: u32) -> Class {
        match value {
            1 => Class::Space,
            2 => Class::Number,
            3 => Class::Mark,
            4 => Class::Uppercase,
            5 => Class::Lowercase,
            6 => Class::Titlecase,
            7 => Class::Modifier,
            8 => Class::OtherLetter,
            _ => Class::Other,
        }
    }

    /// `\p{L}`.
    #[inline]
    pub(crate) fn is_letter(self) -> bool {
        self as u8 >= Class::Uppercase as u8
    }

    /// `[^\s\p{L}\p{N}]`: what both patterns call punctuation.
    #[inline]
    pub(crate) fn is_punctuation(self) -> bool {
        matches!(self, Class::Other | Class::Mark)
    }

    /// o200k's `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`: what may start a word
    /// ("upper-ish"; modifier letters, other letters and marks count as both).
    #[inline]
    pub(crate) fn is_upper_or_caseless(self) -> bool {
        matches!(
            self,
            Class::Uppercase
                | Class::Titlecase
                | Class::Modifier
                | Class::OtherLetter
                | Class::Mark
        )
    }

    /// o200k's `[\p{Ll}\p{Lm}\p{Lo}\p{M}]` ("lower-ish").
    #[inline]
    pub(crate) fn is_lower_or_caseless(self) -> bool {
        matches!(
            self,
            Class::Lowercase | Class::Modifier | Class::OtherLetter | Class::Mark
        )
    }
}

/// Each table entry is `first_code_point << 4 | class`; a run lasts until the
/// next entry's first code point.
const CLASS_SHIFT: u32 = 4;

/// Code points per block of the BMP table; a block is 32 bytes of nibbles.
const BLOCK: u32 = 64;

/// The class of a code point.
#[inline]
pub(crate) fn class_of(code_point: u32) -> Class {
    if code_point < 0x10000 {
        let block = BMP_BLOCK_OF[(code_point / BLOCK) as usize] as usize;
        let offset = (code_point % BLOCK) as usize;
        let byte = BMP_BLOCKS[block * (BLOCK as usize / 2) + offset / 2];
        return Class::from_table(((byte >> (offset % 2 * 4)) & 0xF) as u32);
    }
    class_by_search(code_point)
}

/// The class of a code point from U+10000 on, by binary search over the runs.
fn class_by_search(code_point: u32) -> Class {
    // The last run that starts at or before `code_point`. The first run starts
    // at U+10000, so there is one for every code point this is called with.
    let key = (code_point << CLASS_SHIFT) | ((1 << CLASS_SHIFT) - 1);
    let index = CLASS_RUNS.partition_point(|&run| run <= key);
    match index.checked_sub(1) {
        Some(i) => Class::from_table(CLASS_RUNS[i] & ((1 << CLASS_SHIFT) - 1)),
        None => Class::Other,
    }
}

/// The classes of the 128 ASCII characters, read from the BMP table at
/// compile time: most text is mostly ASCII, and this saves a load.
static ASCII_CLASSES: [Class; 128] = {
    let mut classes = [Class::Other; 128];
    let mut code_point = 0;
    while code_point < 128 {
        let block = BMP_BLOCK_OF[code_point / BLOCK as usize] as usize;
        let offset = code_point % BLOCK as usize;
        let byte = BMP_BLOCKS[block * (BLOCK as usize / 2) + offset / 2];
        classes[code_point] = Class::from_table(((byte >> (offset % 2 * 4)) & 0xF) as u32);
        code_point += 1;
    }
    classes
};

/// The class and UTF-8 length of the character that starts at byte `at` of
/// `text`.
///
/// `text` must be valid UTF-8 (it always comes from a `&str`) and `at` a char
/// boundary; the decoding therefore trusts the lead byte for the length and
/// does not re-validate continuation bytes. Always inlined: the ASCII case is
/// two instructions, and the pre-tokenizer calls this once per character.
#[inline(always)]
pub(crate) fn class_at(text: &[u8], at: usize) -> (Class, usize) {
    let lead = text[at];
    if lead < 0x80 {
        return (ASCII_CLASSES[lead as usize], 1);
    }
    multibyte_class_at(text, at, lead)
}

/// [`class_at`] for a character of two to four bytes.
fn multibyte_class_at(text: &[u8], at: usize, lead: u8) -> (Class, usize) {
    let (code_point, len) = decode_multibyte(text, at, lead);
    (class_of(code_point), len)
}

/// Decodes the multi-byte character whose lead byte `lead` is at `text[at]`.
#[inline]
fn decode_multibyte(text: &[u8], at: usize, lead: u8) -> (u32, usize) {
    let continuation = |i: usize| (text[at + i] & 0x3F) as u32;
    if lead < 0xE0 {
        (((lead & 0x1F) as u32) << 6 | continuation(1), 2)
    } else if lead < 0xF0 {
        (
            ((lead & 0x0F) as u32) << 12 | continuation(1) << 6 | continuation(2),
            3,
        )
    } else {
        (
            ((lead & 0x07) as u32) << 18
                | continuation(1) << 12
                | continuation(2) << 6
                | continuation(3),
            4,
        )
    }
}

/// Where the run of characters satisfying `keep` that starts at `from` ends.
#[inline]
pub(crate) fn skip_while(text: &[u8], mut from: usize, keep: impl Fn(Class) -> bool) -> usize {
    while from < text.len() {
        let (class, len) = class_at(text, from);
        if !keep(class) {
            break;
        }
        from += len;
    }
    from
}

/// `skip_while(text, from, Class::is_letter)`, eight ASCII bytes at a time.
///
/// Most pieces of real text are a word, and the byte-at-a-time loop pays a
/// mispredicted branch where each word ends, at an unpredictable length.
/// Here a word is read a word (u64) at a time: the ASCII letters among its
/// eight bytes are found with a few arithmetic steps, and the first byte
/// that is not one ends the run. A non-ASCII byte hands over to the general
/// loop, which decodes it (it may be a letter).
#[inline]
pub(crate) fn skip_letters(text: &[u8], mut from: usize) -> usize {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    while let Some(bytes) = text.get(from..from + 8) {
        let w = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
        // Each byte folded to lower case, with its high bit cleared so that
        // the additions below never carry into the next byte.
        let folded = (w | 0x2020_2020_2020_2020) & LOW7;
        let at_least_a = folded + 0x1F1F_1F1F_1F1F_1F1F; // high bit: ≥ b'a'
        let past_z = folded + 0x0505_0505_0505_0505; // high bit: > b'z'
        let letters = at_least_a & !past_z & !w & HIGH;
        let others = !letters & HIGH;
        if others == 0 {
            from += 8;
            continue;
        }
        from += (others.trailing_zeros() / 8) as usize;
        if text[from] < 0x80 {
            return from;
        }
        break;
    }
    skip_while(text, from, Class::is_letter)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path agrees with the general loop from every offset of texts
    /// that mix ASCII letters, the bytes just around them, and multi-byte
    /// letters and non-letters, at every alignment.
    #[test]
    fn skip_letters_is_skip_while_is_letter() {
        let texts = [
            "hello world",
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "@AZ[`az{ 09_",
            "word\u{7f}more",
            "naïve café Übermensch straße",
            "données😀x日本語テキストabc",
            "aaaaaaaaé",
            "aaaaaaaa1",
            "ΑΒΓδεζ abcdefgh",
            "abc\tdef\nghi\r\njkl",
        ];
        let mut compared = 0usize;
        for text in texts {
            let bytes = text.as_bytes();
            for from in (0..=bytes.len()).filter(|&i| text.is_char_boundary(i)) {
                assert_eq!(
                    skip_letters(bytes, from),
                    skip_while(bytes, from, Class::is_letter),
                    "{text:?} from {from}"
                );
                compared += 1;
            }
        }
        // Every ASCII byte, each in the eight positions of a word.
        for b in 0u8..0x80 {
            for at in 0..8 {
                let mut bytes = *b"abcdefghijk";
                bytes[at] = b;
                assert_eq!(
                    skip_letters(&bytes, 0),
                    skip_while(&bytes, 0, Class::is_letter),
                    "byte {b:#x} at {at}"
                );
                compared += 1;
            }
        }
        // 1 024 single-byte cases and every char boundary of the texts.
        assert_eq!(compared, 1024 + 190);
    }
    use regex::Regex;

    /// Every code point that is a `char` (surrogates are not).
    fn all_chars() -> impl Iterator<Item = char> {
        (0..=0x10FFFF_u32).filter_map(char::from_u32)
    }

    /// The class the regex crate gives `c`, or a panic if the assumption that
    /// the classes are disjoint is wrong.
    fn regex_class(c: char, regexes: &[(Class, Regex)]) -> Class {
        let mut buf = [0; 4];
        let text = c.encode_utf8(&mut buf);
        let mut found = Class::Other;
        for (class, regex) in regexes {
            if regex.is_match(text) {
                assert_eq!(found, Class::Other, "{c:?} is in two classes");
                found = *class;
            }
        }
        found
    }

    fn class_regexes() -> Vec<(Class, Regex)> {
        [
            (Class::Space, r"^\s$"),
            (Class::Number, r"^\p{N}$"),
            (Class::Mark, r"^\p{M}$"),
            (Class::Uppercase, r"^\p{Lu}$"),
            (Class::Lowercase, r"^\p{Ll}$"),
            (Class::Titlecase, r"^\p{Lt}$"),
            (Class::Modifier, r"^\p{Lm}$"),
            (Class::OtherLetter, r"^\p{Lo}$"),
        ]
        .into_iter()
        .map(|(class, pattern)| (class, Regex::new(pattern).unwrap()))
        .collect()
    }

    /// Regenerates `tables.rs` from the regex crate's Unicode classes.
    #[test]
    #[ignore = "writes src/tables.rs; run by hand after a regex-syntax update"]
    fn generate_tables() {
        let regexes = class_regexes();
        let mut runs: Vec<u32> = Vec::new();
        let mut previous = None;
        for code_point in 0x10000..=0x10FFFF_u32 {
            // Above the BMP every code point is a char (no surrogates).
            let c = char::from_u32(code_point).unwrap();
            let class = regex_class(c, &regexes);
            if previous != Some(class) {
                runs.push(code_point << CLASS_SHIFT | class as u32);
                previous = Some(class);
            }
        }
        // The BMP as blocks of 64 classes, two per byte (low nibble first),
        // identical blocks stored once.
        let mut blocks: Vec<Vec<u8>> = Vec::new();
        let mut block_of: Vec<u8> = Vec::new();
        for block in 0..0x10000 / BLOCK {
            let bytes: Vec<u8> = (0..BLOCK / 2)
                .map(|pair| {
                    // Surrogates are not chars and never occur in a &str.
                    let nibble =
                        |cp: u32| char::from_u32(cp).map_or(0, |c| regex_class(c, &regexes) as u8);
                    let first = block * BLOCK + pair * 2;
                    nibble(first) | nibble(first + 1) << 4
                })
                .collect();
            let index = blocks.iter().position(|b| *b == bytes).unwrap_or_else(|| {
                blocks.push(bytes);
                blocks.len() - 1
            });
            block_of.push(
                u8::try_from(index).expect("over 256 distinct blocks: widen BMP_BLOCK_OF to u16"),
            );
        }
        let mut out = String::new();
        out.push_str(
            "//! Generated by `cargo test -p chunkscope --lib tokens::unicode -- --ignored \
             generate_tables`\n\
             //! from the regex crate's `\\s`, `\\p{N}`, `\\p{M}` and `\\p{Lu|Ll|Lt|Lm|Lo}`. \
             Do not edit.\n\n",
        );
        out.push_str(
            "/// Runs of code points from U+10000 on with one [`Class`](super::unicode::Class):\n\
             /// `first_code_point << 4 | class`, sorted. A run lasts until the next one starts.\n",
        );
        out.push_str("#[rustfmt::skip]\n");
        out.push_str(&format!(
            "pub(crate) static CLASS_RUNS: [u32; {}] = [\n",
            runs.len()
        ));
        for line in runs.chunks(8) {
            let cells: Vec<String> = line.iter().map(|r| format!("0x{r:07X}")).collect();
            out.push_str(&format!("    {},\n", cells.join(", ")));
        }
        out.push_str("];\n\n");
        out.push_str("/// For each block of 64 BMP code points, its index in [`BMP_BLOCKS`].\n");
        out.push_str("#[rustfmt::skip]\n");
        out.push_str(&format!(
            "pub(crate) static BMP_BLOCK_OF: [u8; {}] = [\n",
            block_of.len()
        ));
        for line in block_of.chunks(16) {
            let cells: Vec<String> = line.iter().map(|b| b.to_string()).collect();
            out.push_str(&format!("    {},\n", cells.join(", ")));
        }
        out.push_str("];\n\n");
        out.push_str(
            "/// Distinct blocks of 64 classes, 32 bytes each, two classes per byte \
             (low nibble first).\n",
        );
        out.push_str("#[rustfmt::skip]\n");
        out.push_str(&format!(
            "pub(crate) static BMP_BLOCKS: [u8; {}] = [\n",
            blocks.len() * 32
        ));
        for block in &blocks {
            for line in block.chunks(16) {
                let cells: Vec<String> = line.iter().map(|b| format!("0x{b:02X}")).collect();
                out.push_str(&format!("    {},\n", cells.join(", ")));
            }
        }
        out.push_str("];\n");
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/tables.rs");
        std::fs::write(path, out).unwrap();
        eprintln!(
            "wrote {} runs and {} BMP blocks to {path}",
            runs.len(),
            blocks.len()
        );
    }

    #[test]
    fn classes_match_regex_for_every_code_point() {
        let regexes = class_regexes();
        let letter = Regex::new(r"^\p{L}$").unwrap();
        let punctuation = Regex::new(r"^[^\s\p{L}\p{N}]$").unwrap();
        let upper = Regex::new(r"^[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]$").unwrap();
        let lower = Regex::new(r"^[\p{Ll}\p{Lm}\p{Lo}\p{M}]$").unwrap();
        let mut buf = [0; 4];
        for c in all_chars() {
            let expected = regex_class(c, &regexes);
            let text = c.encode_utf8(&mut buf);
            let (class, len) = class_at(text.as_bytes(), 0);
            assert_eq!(class, expected, "U+{:04X}", c as u32);
            assert_eq!(class_of(c as u32), expected, "U+{:04X}", c as u32);
            if c as u32 >= 0x10000 {
                assert_eq!(class_by_search(c as u32), expected, "U+{:04X}", c as u32);
            }
            assert_eq!(len, c.len_utf8());
            assert_eq!(class.is_letter(), letter.is_match(text), "{c:?}");
            assert_eq!(class.is_punctuation(), punctuation.is_match(text), "{c:?}");
            assert_eq!(class.is_upper_or_caseless(), upper.is_match(text), "{c:?}");
            assert_eq!(class.is_lower_or_caseless(), lower.is_match(text), "{c:?}");
        }
    }

    #[test]
    fn hand_picked_classes() {
        let cases = [
            ('a', Class::Lowercase),
            ('Z', Class::Uppercase),
            ('ǅ', Class::Titlecase),
            ('ʰ', Class::Modifier),
            ('中', Class::OtherLetter),
            ('\u{301}', Class::Mark),
            ('7', Class::Number),
            ('½', Class::Number),
            (' ', Class::Space),
            ('\u{A0}', Class::Space),
            ('\u{2028}', Class::Space),
            ('\u{3000}', Class::Space),
            ('\u{85}', Class::Space),
            ('\u{200B}', Class::Other), // zero-width space is not White_Space
            ('!', Class::Other),
            ('😀', Class::Other),
            ('\u{10FFFF}', Class::Other),
        ];
        for (c, class) in cases {
            assert_eq!(class_of(c as u32), class, "{c:?}");
        }
    }

    #[test]
    fn skip_while_stops_at_the_first_other_class() {
        let text = "héllo wörld".as_bytes();
        assert_eq!(skip_while(text, 0, Class::is_letter), "héllo".len());
        assert_eq!(skip_while(text, 6, Class::is_letter), 6);
        assert_eq!(skip_while(text, text.len(), Class::is_letter), text.len());
    }
}
