//! `--placement`, `--no-trim` and the units' strides, output for output.
//!
//! Every expected report here is written out in full and was worked out by
//! hand from the rules in ARCHITECTURE.md ("The recursive engine, precisely")
//! and docs/cli.md, not read off the engine: the comments show the working.
//! The chars and bytes cases also agree with the independent lesson model
//! (core/tests/reference/lesson_model.py); the token cases follow cl100k's
//! and o200k's split of the words, as tiktoken gives it.
//! The LangChain cases are what the pinned `langchain-text-splitters` (1.1.3) returns for the
//! same arguments. Each test counts the reports it compares.

use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_chunkscope");

/// The JSON report of a run that must succeed, with nothing on stderr.
fn report(args: &[&str], stdin: &str) -> Value {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.is_empty(),
        "{args:?}: {stderr}"
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A chunk as the plain report prints it (no overlap).
fn chunk(
    index: usize,
    chars: (usize, usize),
    bytes: (usize, usize),
    len: usize,
    cut: &str,
    text: &str,
) -> Value {
    json!({"index": index, "start": chars.0, "end": chars.1, "byte_start": bytes.0,
           "byte_end": bytes.1, "len": len, "cut": cut, "text": text})
}

/// The same chunk with the part it repeats from the one before.
fn overlapping(base: Value, chars: (usize, usize), bytes: (usize, usize)) -> Value {
    let mut c = base;
    c["overlap"] =
        json!({"start": chars.0, "end": chars.1, "byte_start": bytes.0, "byte_end": bytes.1});
    c
}

const SENTENCES: &str = "One. Two. Three.";

#[test]
fn placement_puts_the_separator_before_after_or_nowhere() {
    // O0 n1 e2 .3 ␣4 T5 w6 o7 .8 ␣9 T10 h11 r12 e13 e14 .15: 16 chars, too big
    // for 8, so it is cut at ". " (matches at 3 and 8).
    let args = |placement: &'static str| {
        vec![
            "--size",
            "8",
            "--sep",
            ". ",
            "--sep",
            "",
            "--placement",
            placement,
        ]
    };
    let mut compared = 0;

    // end: parts "One. " "Two. " "Three."; 5 + 5 > 8, so none pack; trimming
    // takes the spaces off.
    assert_eq!(
        report(&args("end"), SENTENCES)["chunks"],
        json!([
            chunk(0, (0, 4), (0, 4), 4, ". ", "One."),
            chunk(1, (5, 9), (5, 9), 4, ". ", "Two."),
            chunk(2, (10, 16), (10, 16), 6, "end", "Three."),
        ])
    );
    compared += 1;

    // start: parts "One" ". Two" ". Three."; 3 + 5 = 8 packs, + 8 does not.
    assert_eq!(
        report(&args("start"), SENTENCES)["chunks"],
        json!([
            chunk(0, (0, 8), (0, 8), 8, ". ", "One. Two"),
            chunk(1, (8, 16), (8, 16), 8, "end", ". Three."),
        ])
    );
    compared += 1;

    // none: parts "One" "Two" "Three."; packing counts the ". " between packed
    // parts (3 + 2 + 3 = 8), and the ". " at the cut is in neither chunk.
    let v = report(&[args("none").as_slice(), &["--trace"]].concat(), SENTENCES);
    let plain: Vec<Value> = v["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let mut c = c.clone();
            let o = c.as_object_mut().unwrap();
            for traced in ["cut_separator", "cut_label", "node"] {
                o.remove(traced);
            }
            c
        })
        .collect();
    assert_eq!(
        plain,
        [
            chunk(0, (0, 8), (0, 8), 8, ". ", "One. Two"),
            chunk(1, (10, 16), (10, 16), 6, "end", "Three."),
        ]
    );
    assert_eq!(v["chunks"][0]["cut_separator"], 0);
    assert_eq!(v["config"]["placement"], "none");
    assert_eq!(
        v["checks"]["coverage"],
        json!({"ok": false, "detail": "'.' at position 8 is in no chunk: text was lost"})
    );
    assert_eq!(v["checks"]["ok"], false);
    compared += 1;
    assert_eq!(compared, 3);
}

// ␣0 ␣1 Ç2 a3 ␣4 v5 a6 .7 ⏎8 ⏎9 T10 r11 è12 s13 ␣14 b15 i16 e17 n18 .19 ␣20 ␣21:
// 22 chars, 24 bytes (Ç and è are two bytes each).
const UNTRIMMED: &str = "  Ça va.\n\nTrès bien.  ";

#[test]
fn no_trim_keeps_the_whitespace_at_the_ends_of_pieces() {
    let seps = [
        "--size", "10", "--sep", r"\n\n", "--sep", r"\n", "--sep", " ", "--sep", "",
    ];
    let mut compared = 0;

    // Trimmed: the root is chars 2..20 (18 > 10), cut at the blank line into
    // "Ça va.\n\n" (8) and "Très bien." (10), which do not pack (18); the
    // first is trimmed to "Ça va.".
    assert_eq!(
        report(&seps, UNTRIMMED)["chunks"],
        json!([
            chunk(0, (2, 8), (2, 9), 6, "\n\n", "Ça va."),
            chunk(1, (10, 20), (11, 22), 10, "end", "Très bien."),
        ])
    );
    compared += 1;

    // Untrimmed: the root is all 22 chars, cut at the blank line into
    // "  Ça va.\n\n" (10, fits) and "Très bien.  " (12, too big). That has no
    // "\n"; at " " its parts are "Très " (5), "bien. " (6), " " (1) and the
    // empty rest: 5 + 6 > 10, then 6 + 1 + 0 = 7.
    let v = report(
        &[seps.as_slice(), &["--no-trim", "--trace"]].concat(),
        UNTRIMMED,
    );
    let chunks: Vec<(u64, u64, u64, u64, u64, &str, &str)> = v["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["start"].as_u64().unwrap(),
                c["end"].as_u64().unwrap(),
                c["byte_start"].as_u64().unwrap(),
                c["byte_end"].as_u64().unwrap(),
                c["len"].as_u64().unwrap(),
                c["cut"].as_str().unwrap(),
                c["text"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        chunks,
        [
            (0, 10, 0, 11, 10, "\n\n", "  Ça va.\n\n"),
            (10, 15, 11, 17, 5, " ", "Très "),
            (15, 22, 17, 24, 7, "end", "bien.  "),
        ]
    );
    assert_eq!(v["config"]["trim"], false);
    let nodes: Vec<(u64, u64, &str, bool)> = v["trace"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["start"].as_u64().unwrap(),
                n["end"].as_u64().unwrap(),
                n["action"].as_str().unwrap(),
                n["too_big"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        nodes,
        [
            (0, 22, "split", true),
            (0, 10, "fits", false),
            (10, 22, "split", true),
            (10, 15, "fits", false),
            (15, 22, "fits", false),
        ]
    );
    assert_eq!(v["trace"]["nodes"][2]["absent"], json!([1]));
    compared += 1;

    // Untrimmed and placed nowhere: "  Ça va." (8) and "Très bien.  " (12)
    // do not pack (8 + 2 + 12); the second, at " ", gives "Très" (4),
    // "bien." (5) and two empty parts after the last two spaces. "Très bien."
    // is 4 + 1 + 5 = 10; the empty part after it would make 11, so the
    // group closes, and the empty rest is no chunk.
    assert_eq!(
        report(
            &[seps.as_slice(), &["--no-trim", "--placement", "none"]].concat(),
            UNTRIMMED
        )["chunks"],
        json!([
            chunk(0, (0, 8), (0, 9), 8, "\n\n", "  Ça va."),
            chunk(1, (10, 20), (11, 22), 10, "end", "Très bien."),
        ])
    );
    compared += 1;

    // Placed at the start, untrimmed: "  Ça va." (8) and "\n\nTrès bien.  "
    // (14); the second has a "\n" (at its start) and splits into "" (0),
    // "\n" (1) and "\nTrès bien.  " (13), which packs as "\n" (1) and then
    // goes on at " ": "\nTrès" (5), " bien." (6), " " (1), " " (1).
    assert_eq!(
        report(
            &[seps.as_slice(), &["--no-trim", "--placement", "start"]].concat(),
            UNTRIMMED
        )["chunks"],
        json!([
            chunk(0, (0, 8), (0, 9), 8, "\n\n", "  Ça va."),
            chunk(1, (8, 9), (9, 10), 1, "\n", "\n"),
            chunk(2, (9, 14), (10, 16), 5, " ", "\nTrès"),
            chunk(3, (14, 22), (16, 24), 8, "end", " bien.  "),
        ])
    );
    compared += 1;
    assert_eq!(compared, 4);
}

#[test]
fn fixed_windows_drop_whitespace_only_windows_only_when_trimming() {
    let args = ["--strategy", "fixed", "--size", "2"];
    assert_eq!(
        report(&args, "ab    cd")["chunks"],
        json!([
            chunk(0, (0, 2), (0, 2), 2, "window", "ab"),
            chunk(1, (6, 8), (6, 8), 2, "end", "cd"),
        ])
    );
    assert_eq!(
        report(&[args.as_slice(), &["--no-trim"]].concat(), "ab    cd")["chunks"],
        json!([
            chunk(0, (0, 2), (0, 2), 2, "window", "ab"),
            chunk(1, (2, 4), (2, 4), 2, "window", "  "),
            chunk(2, (4, 6), (4, 6), 2, "window", "  "),
            chunk(3, (6, 8), (6, 8), 2, "end", "cd"),
        ])
    );
}

#[test]
fn langchain_placement_and_no_trim_are_keep_separator_and_strip_whitespace() {
    // RecursiveCharacterTextSplitter(chunk_size=8, chunk_overlap=0,
    //   separators=[". ", ""], keep_separator=…, strip_whitespace=…)
    //   .split_text("One. Two. Three.")
    let args = |placement: &'static str, trim: bool| {
        let mut a = vec![
            "--strategy",
            "langchain",
            "--size",
            "8",
            "--sep",
            ". ",
            "--sep",
            "",
            "--placement",
            placement,
        ];
        if !trim {
            a.push("--no-trim");
        }
        a
    };
    let texts = |v: Value| -> Vec<String> {
        v["chunks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["text"].as_str().unwrap().to_string())
            .collect()
    };
    let cases: [(&str, bool, &[&str]); 6] = [
        ("start", true, &["One. Two", ". Three."]),
        ("start", false, &["One. Two", ". Three."]),
        ("end", true, &["One.", "Two.", "Three."]),
        ("end", false, &["One. ", "Two. ", "Three."]),
        // keep_separator=False glues packed splits back with ". " itself.
        ("none", true, &["One. Two", "Three."]),
        ("none", false, &["One. Two", "Three."]),
    ];
    let mut compared = 0;
    for (placement, trim, want) in cases {
        assert_eq!(
            texts(report(&args(placement, trim), SENTENCES)),
            want,
            "keep_separator={placement} strip_whitespace={trim}"
        );
        compared += 1;
    }
    assert_eq!(compared, 6);
}

#[test]
fn fixed_windows_in_bytes_step_to_the_next_character_boundary() {
    // a0 ñ1-2 b3 😀4-7 c8 d9: 10 bytes, 6 chars. Windows of 5 bytes every 3:
    // the first stops before the emoji (byte 5 is inside it); the second
    // starts 3 bytes on and holds "b😀"; 3 bytes on from it is inside the
    // emoji, so the third starts after it, sharing nothing.
    let v = report(
        &[
            "--strategy",
            "fixed",
            "--unit",
            "bytes",
            "--size",
            "5",
            "--overlap",
            "2",
            "--trace",
        ],
        "añb😀cd",
    );
    let plain: Vec<Value> = v["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let mut c = c.clone();
            let o = c.as_object_mut().unwrap();
            for traced in ["cut_label", "node"] {
                o.remove(traced);
            }
            c
        })
        .collect();
    assert_eq!(
        plain,
        [
            chunk(0, (0, 3), (0, 4), 4, "window", "añb"),
            overlapping(chunk(1, (2, 4), (3, 8), 5, "window", "b😀"), (2, 3), (3, 4)),
            chunk(2, (4, 6), (8, 10), 2, "end", "cd"),
        ]
    );
    let root = &v["trace"]["nodes"][0];
    assert_eq!(
        (
            &root["action"],
            &root["stride"],
            &root["len"],
            &root["too_big"]
        ),
        (&json!("windows"), &json!(3), &json!(10), &json!(true))
    );
}

#[test]
fn fixed_windows_in_tokens_step_by_whole_tokens() {
    // cl100k: "Hello| world|,| hello| again|." Windows of 3 tokens sharing 1:
    // the next window starts at the last token of the one before and holds
    // 3 tokens of its own text; the last one reaches the end with 2.
    let text = "Hello world, hello again.";
    let mut compared = 0;
    for unit in ["cl100k", "o200k"] {
        let v = report(
            &[
                "--strategy",
                "fixed",
                "--unit",
                unit,
                "--size",
                "3",
                "--overlap",
                "1",
                "--trace",
            ],
            text,
        );
        let got: Vec<(u64, u64, u64, &str, &Value)> = v["chunks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["start"].as_u64().unwrap(),
                    c["end"].as_u64().unwrap(),
                    c["len"].as_u64().unwrap(),
                    c["text"].as_str().unwrap(),
                    &c["overlap"],
                )
            })
            .collect();
        let shared = |a: u64, b: u64| json!({"start": a, "end": b, "byte_start": a, "byte_end": b});
        assert_eq!(
            got,
            [
                (0, 12, 3, "Hello world,", &Value::Null),
                (11, 24, 3, ", hello again", &shared(11, 12)),
                (18, 25, 2, " again.", &shared(18, 24)),
            ],
            "{unit}"
        );
        assert_eq!(v["trace"]["nodes"][0]["stride"], 2, "{unit}");
        assert_eq!(v["trace"]["nodes"][0]["len"], 6, "{unit}");
        compared += 1;
    }
    assert_eq!(compared, 2);
}
