//! The JavaScript API's `placement`, `trim` and `unit` options, its offsets
//! past the Basic Multilingual Plane, and fixed-window strides in bytes and
//! tokens, each against output worked out by hand (the comments show the
//! working; the CLI's `cli/tests/settings.rs` has the same rules at work).
#![cfg(target_arch = "wasm32")]

use js_sys::{JsString, JSON};
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// `split(text, config)` with the config written as JSON, read back as JSON.
fn split(text: &str, config: &str) -> Value {
    let out = chunkscope_wasm::split(text, JSON::parse(config).unwrap()).unwrap();
    serde_json::from_str(&JSON::stringify(&out).unwrap().as_string().unwrap()).unwrap()
}

/// Each chunk's char offsets, UTF-8 byte offsets, UTF-16 offsets, length and text.
type Row = ((u64, u64), (u64, u64), (u64, u64), u64, String);

fn rows(report: &Value) -> Vec<Row> {
    let n = |c: &Value, f: &str| c[f].as_u64().unwrap_or_else(|| panic!("{f} in {c}"));
    report["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                (n(c, "start"), n(c, "end")),
                (n(c, "byte_start"), n(c, "byte_end")),
                (n(c, "utf16_start"), n(c, "utf16_end")),
                n(c, "len"),
                c["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn row(chars: (u64, u64), bytes: (u64, u64), utf16: (u64, u64), len: u64, text: &str) -> Row {
    (chars, bytes, utf16, len, text.to_string())
}

/// The JS string's `slice` between each chunk's UTF-16 offsets, which is
/// what a page highlighting the chunk in its text does.
fn js_slices(text: &str, report: &Value) -> Vec<String> {
    let js_text: JsString = JsValue::from_str(text).unchecked_into();
    report["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let (a, b) = (
                c["utf16_start"].as_u64().unwrap(),
                c["utf16_end"].as_u64().unwrap(),
            );
            js_text.slice(a as u32, b as u32).as_string().unwrap()
        })
        .collect()
}

#[wasm_bindgen_test]
fn offsets_past_the_basic_plane_come_in_chars_bytes_and_utf16_units() {
    // 😀0 ␣1 o2 n3 e4 .5 ␣6 𝒳7 ␣8 t9 w10 o11 .12 ␣13 😀14 😀15 ␣16 t17 … .22:
    // 23 chars, at ". " into 7 + 7 + 9 chars, which do not pack at 9.
    // 😀 and 𝒳 are 4 bytes and 2 UTF-16 units each.
    let text = "😀 one. 𝒳 two. 😀😀 three.";
    let out = split(text, r#"{"size": 9, "separators": [". ", ""]}"#);
    assert_eq!(
        rows(&out),
        [
            row((0, 6), (0, 9), (0, 7), 6, "😀 one."),
            row((7, 13), (10, 19), (8, 15), 6, "𝒳 two."),
            row((14, 23), (20, 35), (16, 27), 9, "😀😀 three."),
        ]
    );
    assert_eq!(js_slices(text, &out), ["😀 one.", "𝒳 two.", "😀😀 three."]);
    // Char offsets are not JS string offsets past an emoji: slicing the JS
    // string with the second chunk's char offsets is one unit early at both
    // ends.
    let js_text: JsString = JsValue::from_str(text).unchecked_into();
    assert_eq!(js_text.slice(7, 13).as_string().unwrap(), " 𝒳 tw");
}

#[wasm_bindgen_test]
fn within_the_basic_plane_utf16_offsets_are_the_char_offsets() {
    let text = "Crème brûlée. Très bon.";
    let out = split(text, r#"{"size": 14, "separators": [". ", ""]}"#);
    assert_eq!(
        rows(&out),
        [
            row((0, 13), (0, 16), (0, 13), 13, "Crème brûlée."),
            row((14, 23), (17, 27), (14, 23), 9, "Très bon."),
        ]
    );
    assert_eq!(js_slices(text, &out), ["Crème brûlée.", "Très bon."]);
}

// ␣0 ␣1 Ç2 a3 ␣4 v5 a6 .7 ⏎8 ⏎9 T10 r11 è12 s13 ␣14 b15 i16 e17 n18 .19 ␣20 ␣21
const UNTRIMMED: &str = "  Ça va.\n\nTrès bien.  ";
const SEPARATORS: &str = r#"["\n\n", "\n", " ", ""]"#;

#[wasm_bindgen_test]
fn trim_false_keeps_whitespace_and_placement_start_moves_the_separator() {
    let mut compared = 0;
    // Trimmed (the default): "Ça va." and "Très bien.", the blank line and
    // the outer spaces in no chunk.
    let out = split(
        UNTRIMMED,
        &format!(r#"{{"size": 10, "separators": {SEPARATORS}}}"#),
    );
    assert_eq!(
        rows(&out),
        [
            row((2, 8), (2, 9), (2, 8), 6, "Ça va."),
            row((10, 20), (11, 22), (10, 20), 10, "Très bien."),
        ]
    );
    compared += 1;
    // Untrimmed, separator at the end: "  Ça va.\n\n" (10) fits; "Très
    // bien.  " (12) is cut at " " into "Très " and "bien.  " (6 + 1 + 0).
    let out = split(
        UNTRIMMED,
        &format!(r#"{{"size": 10, "separators": {SEPARATORS}, "trim": false}}"#),
    );
    assert_eq!(
        rows(&out),
        [
            row((0, 10), (0, 11), (0, 10), 10, "  Ça va.\n\n"),
            row((10, 15), (11, 17), (10, 15), 5, "Très "),
            row((15, 22), (17, 24), (15, 22), 7, "bien.  "),
        ]
    );
    assert_eq!(out["config"]["trim"], false);
    compared += 1;
    // Untrimmed, separator at the start: "\n\nTrès bien.  " (14) is cut at
    // "\n" into "", "\n" and "\nTrès bien.  " (13), which goes on at " ".
    let out = split(
        UNTRIMMED,
        &format!(
            r#"{{"size": 10, "separators": {SEPARATORS}, "trim": false, "placement": "start"}}"#
        ),
    );
    assert_eq!(
        rows(&out),
        [
            row((0, 8), (0, 9), (0, 8), 8, "  Ça va."),
            row((8, 9), (9, 10), (8, 9), 1, "\n"),
            row((9, 14), (10, 16), (9, 14), 5, "\nTrès"),
            row((14, 22), (16, 24), (14, 22), 8, " bien.  "),
        ]
    );
    let cuts: Vec<&str> = out["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["cut_label"].as_str().unwrap())
        .collect();
    assert_eq!(cuts, ["\\n\\n", "\\n", " ", "end"]);
    assert_eq!(out["config"]["placement"], "start");
    compared += 1;
    assert_eq!(compared, 3);
}

#[wasm_bindgen_test]
fn placement_none_leaves_the_separator_out_and_the_check_says_so() {
    // "One" "Two" "Three.": 3 + 2 + 3 packs; the ". " at the cut is lost.
    let out = split(
        "One. Two. Three.",
        r#"{"size": 8, "separators": [". ", ""], "placement": "none"}"#,
    );
    assert_eq!(
        rows(&out),
        [
            row((0, 8), (0, 8), (0, 8), 8, "One. Two"),
            row((10, 16), (10, 16), (10, 16), 6, "Three."),
        ]
    );
    assert_eq!(
        out["checks"]["coverage"],
        json!({"ok": false, "detail": "'.' at position 8 is in no chunk: text was lost"})
    );
}

#[wasm_bindgen_test]
fn unit_bytes_counts_utf8_bytes() {
    // h0 é1-2 l3 l4 o5 ␣6 w7 ö8-9 r10 l11 d12: 13 bytes, cut at " " into
    // "héllo " (7) and "wörld" (6), which do not pack at 6.
    let out = split(
        "héllo wörld",
        r#"{"size": 6, "unit": "bytes", "separators": [" ", ""]}"#,
    );
    assert_eq!(
        rows(&out),
        [
            row((0, 5), (0, 6), (0, 5), 6, "héllo"),
            row((6, 11), (7, 13), (6, 11), 6, "wörld"),
        ]
    );
    assert_eq!(out["config"]["unit"], "bytes");
}

#[wasm_bindgen_test]
fn fixed_windows_in_bytes_step_to_the_next_character_boundary() {
    // a0 ñ1-2 b3 😀4-7 c8 d9, windows of 5 bytes every 3: "añb" stops before
    // the emoji; 3 bytes on is "b😀"; 3 bytes on from there is inside the
    // emoji, so the last window starts after it.
    let out = split(
        "añb😀cd",
        r#"{"strategy": "fixed", "unit": "bytes", "size": 5, "overlap": 2}"#,
    );
    assert_eq!(
        rows(&out),
        [
            row((0, 3), (0, 4), (0, 3), 4, "añb"),
            row((2, 4), (3, 8), (2, 5), 5, "b😀"),
            row((4, 6), (8, 10), (5, 7), 2, "cd"),
        ]
    );
    assert_eq!(
        out["chunks"][1]["overlap"],
        json!({"start": 2, "end": 3, "byte_start": 3, "byte_end": 4})
    );
    assert_eq!(out["trace"]["nodes"][0]["stride"], 3);
}

#[wasm_bindgen_test]
fn fixed_windows_in_tokens_step_by_whole_tokens() {
    use chunkscope::tokens::{Encoding, Tokenizer};
    // A table of the 256 bytes, "ab" and "cd" stands in for cl100k: the one
    // word "abcdabcd" is ab|cd|ab|cd. Windows of 3 tokens sharing 1: "abcdab"
    // (one more char would be a 4th token); the next starts at its last
    // token, "ab", and reaches the end with 2.
    let mut ranks: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    ranks.push(b"ab".to_vec());
    ranks.push(b"cd".to_vec());
    let data = Tokenizer::from_ranks(Encoding::Cl100k, ranks)
        .unwrap()
        .to_data();
    assert_eq!(chunkscope_wasm::install_tokenizer(&data).unwrap(), "cl100k");
    let out = split(
        "abcdabcd",
        r#"{"strategy": "fixed", "unit": "cl100k", "size": 3, "overlap": 1}"#,
    );
    assert_eq!(
        rows(&out),
        [
            row((0, 6), (0, 6), (0, 6), 3, "abcdab"),
            row((4, 8), (4, 8), (4, 8), 2, "abcd"),
        ]
    );
    assert_eq!(
        out["chunks"][1]["overlap"],
        json!({"start": 4, "end": 6, "byte_start": 4, "byte_end": 6})
    );
    assert_eq!(out["trace"]["nodes"][0]["stride"], 2);
    assert_eq!(out["config"]["unit"], "cl100k");
}
