//! The CLI contract of DESIGN.md, checked against the built binary.

use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_chunkscope");

const REFUND: &str = "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n\
                      COD orders get store credit.\n\nContact us 24x7.";

const SEED_SEPS: [&str; 10] = [
    "--sep", r"\n\n", "--sep", r"\n", "--sep", ". ", "--sep", " ", "--sep", "",
];

/// Runs the binary with `args`, feeding `stdin`.
fn chunkscope(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // A run that fails before reading closes stdin early; that is not a test failure.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

/// Runs a command that must succeed and returns its JSON.
fn json_of(args: &[&str], stdin: &str) -> Value {
    let out = chunkscope(args, stdin.as_bytes());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.ends_with('\n') && stdout.lines().count() == 1);
    serde_json::from_str(&stdout).unwrap()
}

/// Runs a command that must fail with `code` and returns its message.
fn failure(args: &[&str], stdin: &[u8], code: i32) -> String {
    let out = chunkscope(args, stdin);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    assert!(stderr.starts_with("chunkscope: "), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chunkscope-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn seed_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["--size", "40"];
    args.extend(SEED_SEPS);
    args.extend(extra);
    args
}

#[test]
fn refund_page_gives_the_five_chunks_of_the_lesson() {
    let v = json_of(&seed_args(&[]), REFUND);
    assert_eq!(
        v,
        json!({"chunks": [
            {"index":0,"start":0,"end":13,"byte_start":0,"byte_end":13,"len":13,"cut":"\n\n",
             "text":"Refund policy"},
            {"index":1,"start":15,"end":35,"byte_start":15,"byte_end":35,"len":20,"cut":". ",
             "text":"Refunds take 5 days."},
            {"index":2,"start":36,"end":67,"byte_start":36,"byte_end":67,"len":31,"cut":"\n",
             "text":"They go to the original UPI id."},
            {"index":3,"start":68,"end":96,"byte_start":68,"byte_end":96,"len":28,"cut":"\n\n",
             "text":"COD orders get store credit."},
            {"index":4,"start":98,"end":114,"byte_start":98,"byte_end":114,"len":16,"cut":"end",
             "text":"Contact us 24x7."},
        ]})
    );
}

#[test]
fn a_file_argument_and_dash_read_the_same_text() {
    let path = temp_file("refund.txt", REFUND.as_bytes());
    let from_file = json_of(&seed_args(&[path.to_str().unwrap()]), "");
    let from_dash = json_of(&seed_args(&["-"]), REFUND);
    let from_stdin = json_of(&seed_args(&[]), REFUND);
    assert_eq!(from_file, from_stdin);
    assert_eq!(from_dash, from_stdin);
}

#[test]
fn fixed_windows_stop_at_the_end_without_a_tail() {
    let v = json_of(
        &["--strategy", "fixed", "--size", "4", "--overlap", "1"],
        "abcdefghij",
    );
    let got: Vec<(&str, &str)> = v["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["text"].as_str().unwrap(), c["cut"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        [("abcd", "window"), ("defg", "window"), ("ghij", "end")]
    );
    assert_eq!(
        v["chunks"][1]["overlap"],
        json!({"start":3,"end":4,"byte_start":3,"byte_end":4})
    );
}

#[test]
fn equals_forms_and_defaults() {
    let v = json_of(
        &["--strategy=fixed", "--size=4", "--overlap=1"],
        "abcdefghij",
    );
    assert_eq!(v["chunks"].as_array().unwrap().len(), 3);
    // Defaults: recursive, size 1000, so a short text is one chunk.
    let v = json_of(&[], "  short text\n");
    assert_eq!(
        v["chunks"],
        json!([{"index":0,"start":2,"end":12,"byte_start":2,"byte_end":12,"len":10,"cut":"end",
                "text":"short text"}])
    );
    assert_eq!(json_of(&[], ""), json!({"chunks": []}));
}

#[test]
fn multibyte_text_has_char_offsets_unlike_byte_offsets() {
    let text = "Ünïcödé text 😀 here";
    let v = json_of(&["--size", "8", "--sep", " ", "--sep", ""], text);
    let chunks = v["chunks"].as_array().unwrap();
    let first = &chunks[0];
    assert_eq!(first["text"], "Ünïcödé");
    assert_eq!(
        (first["start"].as_u64(), first["end"].as_u64()),
        (Some(0), Some(7))
    );
    assert_eq!(first["byte_end"].as_u64(), Some("Ünïcödé".len() as u64));
    assert_ne!(first["end"], first["byte_end"]);
    for c in chunks {
        let (b0, b1) = (
            c["byte_start"].as_u64().unwrap(),
            c["byte_end"].as_u64().unwrap(),
        );
        assert_eq!(&text[b0 as usize..b1 as usize], c["text"].as_str().unwrap());
        let (s, e) = (c["start"].as_u64().unwrap(), c["end"].as_u64().unwrap());
        let by_chars: String = text
            .chars()
            .skip(s as usize)
            .take((e - s) as usize)
            .collect();
        assert_eq!(by_chars, c["text"].as_str().unwrap());
    }
    // In bytes, the same size holds fewer characters.
    let v = json_of(
        &["--size", "8", "--unit", "bytes", "--sep", " ", "--sep", ""],
        text,
    );
    assert!(v["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .all(|c| c["len"] == c["byte_end"].as_u64().unwrap() - c["byte_start"].as_u64().unwrap()));
}

#[test]
fn trace_adds_the_tree_the_checks_and_the_config() {
    let v = json_of(&seed_args(&["--trace"]), REFUND);
    let nodes = v["trace"]["nodes"].as_array().unwrap();
    let root = &nodes[0];
    assert_eq!(root["action"], "split");
    assert_eq!(root["separator"]["pattern"], "\n\n");
    assert_eq!(root["separator"]["label"], "\\n\\n");
    assert_eq!(root["depth"], 1);
    let middle = &nodes[root["children"][1].as_u64().unwrap() as usize];
    assert_eq!(
        (&middle["len"], &middle["too_big"]),
        (&json!(81), &json!(true))
    );
    assert_eq!(middle["separator"]["pattern"], "\n");
    let line = &nodes[middle["children"][0].as_u64().unwrap() as usize];
    assert_eq!((&line["len"], &line["too_big"]), (&json!(52), &json!(true)));
    assert_eq!(line["separator"]["pattern"], ". ");
    assert!(nodes.iter().all(|n| n["action"] != "hard_cut"));
    for name in ["coverage", "max_size", "order", "overlap", "determinism"] {
        assert_eq!(v["checks"][name]["ok"], true, "{name}");
    }
    assert_eq!(v["config"]["size"], 40);
    assert_eq!(
        v["config"]["separators"][4],
        json!({"pattern":"","regex":false})
    );
    // Chunks are the same as without --trace, plus the cut's separator index.
    assert_eq!(v["chunks"][1]["cut_separator"], 2);
    assert_eq!(v["chunks"][0]["cut_label"], "\\n\\n");
    // The events replay the tree: the root measured and split, "Refund
    // policy" closing its group and emitted as chunk 0, …, chunk 4 last.
    let events = v["trace"]["events"].as_array().unwrap();
    assert_eq!(
        events[..5],
        [
            json!({"kind": "measured", "node": 0}),
            json!({"kind": "split", "node": 0}),
            json!({"kind": "closed", "node": 1}),
            json!({"kind": "measured", "node": 1}),
            json!({"kind": "emitted", "node": 1, "chunk": 0}),
        ]
    );
    assert_eq!(
        (events.len(), &events[17]),
        (18, &json!({"kind": "emitted", "node": 7, "chunk": 4}))
    );
}

#[test]
fn regex_separators_cut_at_their_matches() {
    let v = json_of(
        &["--size", "10", "--regex", "--sep", "[.!?] ", "--sep", ""],
        "One. Two! Three? Four.",
    );
    let got: Vec<(&str, &str)> = v["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["text"].as_str().unwrap(), c["cut"].as_str().unwrap()))
        .collect();
    // The cut names the pattern, not the text it matched.
    assert_eq!(
        got,
        [
            ("One. Two!", "[.!?] "),
            ("Three?", "[.!?] "),
            ("Four.", "end")
        ]
    );
}

#[test]
fn bad_configurations_exit_2_with_a_message() {
    let cases: [(&[&str], &str); 14] = [
        (
            &["--size", "4", "--overlap", "4"],
            "overlap (4) must be smaller than size (4)",
        ),
        (&["--size", "0"], "size must be at least 1"),
        (&["--size", "big"], "--size expects a whole number"),
        (&["--overlap", "-1"], "--overlap expects a whole number"),
        (&["--size"], "--size needs a value"),
        (&["--frobnicate"], "unknown option --frobnicate"),
        (&["--strategy", "late"], "unknown strategy"),
        (
            &["--strategy", "semantic", "--amount", "101"],
            "a percentile is a number from 0 to 100",
        ),
        (
            &["--breakpoint", "gradient"],
            "--breakpoint applies to the \"semantic\" strategy only (the strategy is \"recursive\")",
        ),
        (
            &["--strategy", "semantic", "--embedder", "no-such-model.vec"],
            "cannot read the model",
        ),
        (
            &["--strategy", "semantic", "--overlap", "1"],
            "semantic chunks do not overlap",
        ),
        (&["--sep", r"\x"], "unknown escape"),
        (&["--regex", "--sep", "("], "not a valid regular expression"),
        (&["--size", "1", "--unit", "bytes"], "bytes long"),
    ];
    for (args, expected) in cases {
        let message = failure(args, "é".as_bytes(), 2);
        assert!(message.contains(expected), "{args:?}: {message}");
    }
}

/// The parser's refusals, whole: one line on stderr, nothing on stdout, exit 2,
/// before any input is read.
#[test]
fn bad_arguments_exit_2_with_one_exact_line() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["--frobnicate"],
            "unknown option --frobnicate (did you mean --format?): run `chunkscope --help` for the options",
        ),
        (
            &["--overlab", "2"],
            "unknown option --overlab (did you mean --overlap?): run `chunkscope --help` for the options",
        ),
        (
            &["--size", "40", "--overlap"],
            "--overlap needs a value: run `chunkscope --help` for its form",
        ),
        (
            &["--size", "forty"],
            "--size expects a whole number of units (0, 1, 2, …), got \"forty\"",
        ),
        (
            &["--overlap", "-1"],
            "--overlap expects a whole number of units (0, 1, 2, …), got \"-1\"",
        ),
        (
            &["--size", "18446744073709551616"],
            "--size 18446744073709551616 is too large",
        ),
        (&["--trace=yes"], "--trace takes no value (got --trace=yes)"),
        (
            &["one.txt", "-", "-"],
            "standard input (-) is given more than once: it can be read only once",
        ),
    ];
    for (args, expected) in cases {
        // Stdin is never read: an empty one would not show it, text that is
        // not UTF-8 would (exit 2 with another message).
        let message = failure(args, b"\xff", 2);
        assert_eq!(message, format!("chunkscope: {expected}\n"), "{args:?}");
    }
}

/// A flag the strategy would ignore is refused, naming the setting and the
/// strategy, where it used to be dropped without a word.
#[test]
fn a_flag_the_strategy_does_not_read_is_refused() {
    let cases: [(&[&str], &str, &str); 8] = [
        (
            &["--strategy", "chonkie-recursive", "--sep", "x"],
            "chonkie-recursive",
            "separators (it follows the rules of chonkie 1.7.0)",
        ),
        (
            &["--strategy", "chonkie-token", "--no-trim"],
            "chonkie-token",
            "trim (it follows the rules of chonkie 1.7.0)",
        ),
        (
            &["--strategy", "chonkie-sentence", "--sep", ". "],
            "chonkie-sentence",
            "separators (it follows the rules of chonkie 1.7.0)",
        ),
        (
            &["--strategy", "fixed", "--placement", "start"],
            "fixed",
            "placement (its windows are cut every `size` units, wherever they fall)",
        ),
        (
            &["--strategy", "semchunk", "--no-trim"],
            "semchunk",
            "trim (it follows the rules of semchunk 4.1.1)",
        ),
        (
            &["--strategy", "llamaindex-sentence", "--sep", ". "],
            "llamaindex-sentence",
            "separators (it follows the rules of llama-index-core 0.14.25)",
        ),
        (
            &["--strategy", "llamaindex-token", "--no-trim"],
            "llamaindex-token",
            "trim (it follows the rules of llama-index-core 0.14.25)",
        ),
        (
            &["--strategy", "llamaindex-markdown", "--sep", "#"],
            "llamaindex-markdown",
            "separators (it follows the rules of llama-index-core 0.14.25)",
        ),
    ];
    for (args, strategy, what) in cases {
        let message = failure(args, b"Some text.", 2);
        assert_eq!(
            message,
            format!(
                "chunkscope: the {strategy:?} strategy does not read {what}, so it would be ignored: \
                 leave it out, or choose a strategy that reads it\n"
            ),
            "{args:?}"
        );
    }
    // The same strategies with what they do read.
    for strategy in [
        "fixed",
        "chonkie-recursive",
        "chonkie-token",
        "chonkie-sentence",
        "semchunk",
        "llamaindex-sentence",
        "llamaindex-token",
        "llamaindex-markdown",
    ] {
        json_of(
            &["--strategy", strategy, "--size", "8"],
            "Some text. More text.",
        );
    }
}

/// `--min-characters-per-chunk` is chonkie's `min_characters_per_chunk`:
/// the chunks are chonkie 1.7.0's at each value (at 24, the 15-byte last
/// paragraph is joined to the first, and the joined text is cut at its last
/// level), the echo carries it, and 0 is refused with chonkie's words.
#[test]
fn min_characters_per_chunk_is_chonkies() {
    let text = "Refunds take five days.\n\nUPI is instant.";
    let chunks = |min: &str| {
        let report = json_of(
            &[
                "--strategy",
                "chonkie-recursive",
                "--size",
                "30",
                "--min-characters-per-chunk",
                min,
                "--trace",
            ],
            text,
        );
        let texts: Vec<String> = report["chunks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["text"].as_str().unwrap().to_string())
            .collect();
        (texts, report["config"]["min_characters_per_chunk"].clone())
    };
    assert_eq!(
        chunks("1"),
        (
            vec![
                "Refunds take five days.\n\n".to_string(),
                "UPI is instant.".to_string()
            ],
            Value::from(1)
        )
    );
    assert_eq!(
        chunks("24"),
        (
            vec![
                "Refunds take five days.\n\nUPI i".to_string(),
                "s instant.".to_string()
            ],
            Value::Null
        )
    );
    let message = failure(
        &[
            "--strategy",
            "chonkie-recursive",
            "--min-characters-per-chunk",
            "0",
        ],
        text.as_bytes(),
        2,
    );
    assert!(
        message.contains("ValueError: min_characters_per_chunk must be greater than 0"),
        "{message}"
    );
}

#[test]
fn input_that_is_not_utf8_is_refused_with_its_offset() {
    let message = failure(&[], b"caf\xe9 au lait", 2);
    assert!(message.contains("not UTF-8"), "{message}");
    assert!(message.contains("offset 3"), "{message}");
    let path = temp_file("latin1.txt", b"ok\n\xff");
    let message = failure(&[path.to_str().unwrap()], b"", 2);
    assert!(
        message.contains("latin1.txt") && message.contains("offset 3"),
        "{message}"
    );
}

#[test]
fn a_large_file_is_read_as_standard_input_is() {
    // Files of 64 KiB and more are mapped rather than read: the same text
    // gives the same lines either way, and a bad byte far in is found.
    let text = "Refunds take five days. \"Quoted\"\tand tabbed.\n\nÉté 中文 😀\n".repeat(2_000);
    assert!(text.len() > 64 << 10);
    let path = temp_file("large.txt", text.as_bytes());
    let args = ["--format", "jsonl", "--size", "100"];
    let mut with_file = args.to_vec();
    with_file.push(path.to_str().unwrap());
    let from_file = lines_of(&with_file, "");
    let from_stdin: Vec<Value> = lines_of(&args, &text)
        .into_iter()
        .map(|mut line| {
            line["file"] = Value::from(path.to_str().unwrap());
            line
        })
        .collect();
    assert!(from_file.len() > 1_000, "{} lines", from_file.len());
    assert!(from_file == from_stdin, "a mapped file gives other lines");
    let mut bad = text.into_bytes();
    let at = bad.len() - 1;
    bad[at] = 0xff;
    let path = temp_file("large-latin1.txt", &bad);
    let message = failure(&[path.to_str().unwrap()], b"", 2);
    assert!(
        message.contains(&format!("offset {at} (0xFF)")),
        "{message}"
    );
}

#[test]
fn a_missing_file_is_an_io_error() {
    let message = failure(&["/nonexistent/chunkscope/input.txt"], b"", 1);
    assert!(message.contains("cannot read"), "{message}");
}

#[test]
fn help_and_version_print_to_stdout() {
    let out = chunkscope(&["--help"], b"");
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for flag in [
        "--strategy",
        "--size",
        "--overlap",
        "--sep",
        "--unit",
        "--placement",
        "--no-trim",
        "--regex",
        "--trace",
    ] {
        assert!(help.contains(flag), "help lacks {flag}");
    }
    for name in [
        "fixed",
        "recursive",
        "langchain-character",
        "cl100k",
        "o200k",
        "none",
    ] {
        assert!(help.contains(name), "help lacks {name}");
    }
    let short = chunkscope(&["-h"], b"");
    assert_eq!(String::from_utf8(short.stdout).unwrap(), help);
    for flag in ["--version", "-V"] {
        let out = chunkscope(&[flag], b"");
        assert!(out.status.success() && out.stderr.is_empty());
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            format!("chunkscope {}\n", env!("CARGO_PKG_VERSION"))
        );
    }
}

#[test]
fn a_closed_stdout_is_not_a_crash() {
    let mut child = Command::new(BIN)
        .args(["--size", "10"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end before the output is written.
    drop(child.stdout.take());
    let text = "hello world\n".repeat(20_000);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn langchain_strategies_give_langchains_own_chunks() {
    // LangChain's first test: CharacterTextSplitter(separator=" ",
    // chunk_size=7, chunk_overlap=3) with add_start_index.
    let args = [
        "--strategy",
        "langchain-character",
        "--sep",
        " ",
        "--size",
        "7",
        "--overlap",
        "3",
    ];
    let v = json_of(&args, "foo bar baz 123");
    let got: Vec<(&str, i64, bool)> = v["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["text"].as_str().unwrap(),
                c["start_index"].as_i64().unwrap(),
                c["is_slice"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("foo bar", 0, true),
            ("bar baz", 4, true),
            ("baz 123", 8, true)
        ]
    );

    // keep_separator=False and a regex: LangChain's text is not in the source.
    let args = [
        "--strategy",
        "langchain",
        "--regex",
        "--sep",
        r"\s+",
        "--placement",
        "none",
        "--size",
        "20",
    ];
    let v = json_of(&args, "one  two");
    assert_eq!(v["chunks"][0]["text"], r"one\s+two");
    assert_eq!(v["chunks"][0]["is_slice"], false);
    assert_eq!(
        (
            v["chunks"][0]["start"].clone(),
            v["chunks"][0]["end"].clone()
        ),
        (json!(0), json!(8))
    );
}

#[test]
fn langchain_uses_its_defaults_and_reports_warnings_with_trace() {
    // No --sep: LangChain's ["\n\n", "\n", " ", ""], keep_separator=True.
    let v = json_of(
        &["--strategy", "langchain", "--size", "6", "--trace"],
        "aaaa\n\nbbbb",
    );
    assert_eq!(v["config"]["placement"], "start");
    assert_eq!(v["chunks"][0]["cut"], "\n\n");
    assert_eq!(v["langchain"]["separators"].as_array().unwrap().len(), 4);
    assert!(v["langchain"]["python"]
        .as_str()
        .unwrap()
        .contains("RecursiveCharacterTextSplitter("));

    let v = json_of(
        &[
            "--strategy=langchain-character",
            "--sep= ",
            "--size=3",
            "--trace",
        ],
        "abcdef gh",
    );
    assert_eq!(
        v["langchain"]["warnings"],
        json!(["Created a chunk of size 6, which is longer than the specified 3"])
    );
    assert_eq!(v["checks"]["max_size"]["ok"], false);

    // LangChain's own refusals, in its words.
    let msg = failure(
        &["--strategy", "langchain", "--size", "4", "--overlap", "5"],
        b"x",
        2,
    );
    assert!(msg.contains("overlap"), "{msg}");
}

#[test]
fn langchain_markdown_gives_sections_with_their_headers_as_metadata() {
    let doc = "# Refunds\nRefunds take 5 days.\n\n## UPI\nInstant.\n# Shipping\nFree.";
    let v = json_of(
        &[
            "--strategy",
            "langchain-markdown",
            "--header",
            "#",
            "--header=##",
        ],
        doc,
    );
    let got: Vec<(&str, Value, u64, u64, &str)> = v["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["text"].as_str().unwrap(),
                c["metadata"].clone(),
                c["start"].as_u64().unwrap(),
                c["end"].as_u64().unwrap(),
                c["cut"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                "Refunds take 5 days.",
                json!({"Header 1": "Refunds"}),
                10,
                30,
                "##"
            ),
            (
                "Instant.",
                json!({"Header 1": "Refunds", "Header 2": "UPI"}),
                39,
                47,
                "#"
            ),
            ("Free.", json!({"Header 1": "Shipping"}), 59, 64, "end"),
        ]
    );
    // The metadata keeps LangChain's key order.
    let line = String::from_utf8(
        chunkscope(
            &[
                "--strategy",
                "langchain-markdown",
                "--header",
                "#",
                "--header",
                "##",
            ],
            doc.as_bytes(),
        )
        .stdout,
    )
    .unwrap();
    assert!(
        line.contains(r#""metadata":{"Header 1":"Refunds","Header 2":"UPI"}"#),
        "{line}"
    );

    // strip_headers=False keeps each header at the start of its chunk.
    let v = json_of(
        &[
            "--strategy",
            "langchain-markdown",
            "--no-strip-headers",
            "--trace",
        ],
        doc,
    );
    let texts: Vec<&str> = v["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "# Refunds\nRefunds take 5 days.",
            "## UPI\nInstant.",
            "# Shipping\nFree."
        ]
    );
    assert_eq!(v["chunks"][0]["is_slice"], true);
    assert_eq!(v["config"]["placement"], "start");
    assert_eq!(v["langchain"]["class"], "MarkdownHeaderTextSplitter");
    assert!(v["langchain"]["python"]
        .as_str()
        .unwrap()
        .contains("strip_headers=False"));

    // Paragraphs of one section are joined with "  \n", or kept apart.
    let doc = "# A\none\n\ntwo";
    let v = json_of(&["--strategy", "langchain-markdown"], doc);
    assert_eq!(v["chunks"][0]["text"], "one  \ntwo");
    assert_eq!(v["chunks"][0]["is_slice"], false);
    assert_eq!(
        (&v["chunks"][0]["start"], &v["chunks"][0]["end"]),
        (&json!(4), &json!(12))
    );
    let v = json_of(&["--strategy", "langchain-markdown", "--each-line"], doc);
    assert_eq!(v["chunks"][1]["text"], "two");
    assert_eq!(v["chunks"][1]["cut"], "end");
    assert_eq!(v["chunks"][0]["cut"], "\n\n");

    // Options of this class only, and markers only.
    assert_eq!(
        failure(&["--header", "#"], b"x", 2),
        "chunkscope: --header is an option of --strategy langchain-markdown (MarkdownHeaderTextSplitter)\n"
    );
    assert_eq!(
        failure(&["--strategy", "langchain-markdown", "--sep", "#"], b"x", 2),
        "chunkscope: langchain-markdown splits on header markers: give them with --header, not --sep \
         (--sep is for the RecursiveCharacterTextSplitter of --then-recursive)\n"
    );
    let msg = failure(
        &["--strategy", "langchain-markdown", "--header", "H1"],
        b"x",
        2,
    );
    assert!(
        msg.contains("separator 1 (\"H1\") is not a header marker"),
        "{msg}"
    );
    let msg = failure(
        &["--strategy", "langchain-markdown", "--placement", "end"],
        b"x",
        2,
    );
    assert!(msg.contains("strip_headers"), "{msg}");
}

/// LangChain's docs' recipe: the header splitter, then
/// RecursiveCharacterTextSplitter(chunk_size=30, chunk_overlap=5) on each
/// section; the chunks are the ones the real library gives (checked with
/// langchain-text-splitters 1.1.3), each with its section's metadata.
#[test]
fn langchain_markdown_then_recursive_is_langchains_recipe() {
    let doc = "# Refunds\nWithin 5 days of approval, to the original method.\n\n## UPI\nInstant, to the same UPI id. Ask support if late.\n";
    let v = json_of(
        &[
            "--strategy",
            "langchain-markdown",
            "--then-recursive",
            "--size",
            "30",
            "--overlap",
            "5",
            "--trace",
        ],
        doc,
    );
    let got: Vec<(&str, &str, usize)> = v["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["text"].as_str().unwrap(),
                c["metadata"]
                    .as_object()
                    .unwrap()
                    .values()
                    .next_back()
                    .unwrap()
                    .as_str()
                    .unwrap(),
                c["start"].as_u64().unwrap() as usize,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("Within 5 days of approval, to", "Refunds", 10),
            ("to the original method.", "Refunds", 37),
            ("Instant, to the same UPI id.", "UPI", 69),
            ("id. Ask support if late.", "UPI", 94),
        ]
    );
    assert_eq!(v["config"]["then_recursive"], json!([]));
    // The tree: the root split at "##" into two sections, each split again
    // at " " (the recursive splitter's separators follow the markers and
    // the header splitter's "\n\n").
    let nodes = v["trace"]["nodes"].as_array().unwrap();
    assert_eq!(nodes[0]["separator"]["pattern"], "##");
    assert_eq!(nodes[0]["children"], json!([1, 4]));
    assert_eq!(nodes[1]["separator"]["pattern"], " ");
    assert_eq!(nodes[1]["depth"], 2);
    assert_eq!(nodes[2]["depth"], 3);
    let python = v["langchain"]["python"].as_str().unwrap();
    assert!(
        python.contains("splitter.split_documents(headers.split_text(text))"),
        "{python}"
    );
    // --sep names the recursive splitter's separators.
    let v = json_of(
        &[
            "--strategy",
            "langchain-markdown",
            "--then-recursive",
            "--sep",
            ", ",
            "--sep",
            "",
            "--size",
            "30",
        ],
        doc,
    );
    assert_eq!(v["chunks"][0]["text"], "Within 5 days of approval");
    assert_eq!(v["chunks"][0]["cut"], ", ");
    assert_eq!(
        failure(&["--then-recursive"], b"x", 2),
        "chunkscope: --then-recursive applies to the \"langchain-markdown\" strategy only \
         (the strategy is \"recursive\"), which would ignore it\n"
    );
}

#[test]
fn token_units_count_openai_tokens() {
    // "hello world" is two cl100k tokens; one token per chunk cuts it in two,
    // at the token boundary, which is a char boundary here.
    let v = json_of(
        &["--strategy", "fixed", "--unit", "cl100k", "--size", "1"],
        "hello world",
    );
    let got: Vec<(&str, u64)> = v["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["text"].as_str().unwrap(), c["len"].as_u64().unwrap()))
        .collect();
    assert_eq!(got, [("hello", 1), (" world", 1)]);

    // Recursive and LangChain's splitter in o200k: every chunk within size.
    let text = "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n\
                COD orders get store credit.\n\nContact us 24x7.";
    for strategy in ["recursive", "langchain"] {
        let v = json_of(
            &[
                "--strategy",
                strategy,
                "--unit",
                "o200k",
                "--size",
                "8",
                "--trace",
            ],
            text,
        );
        assert_eq!(v["config"]["unit"], "o200k");
        assert_eq!(v["checks"]["max_size"]["ok"], true, "{strategy}");
        assert!(v["chunks"].as_array().unwrap().len() > 3);
    }

    // An emoji is more than one token: a size of 1 cannot hold it.
    let msg = failure(
        &["--unit", "cl100k", "--size", "1", "--strategy", "fixed"],
        "😀".as_bytes(),
        2,
    );
    assert!(msg.contains("takes") && msg.contains("tokens"), "{msg}");
    let msg = failure(&["--unit", "tokens"], b"x", 2);
    assert!(msg.contains("cl100k"), "{msg}");
}

/// Runs a command that must succeed and returns its JSON Lines.
fn lines_of(args: &[&str], stdin: &str) -> Vec<Value> {
    let out = chunkscope(args, stdin.as_bytes());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.is_empty() || stdout.ends_with('\n'));
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// A chunk of JSON with `"file"` in front, as both formats tag them.
fn tagged(file: &str, chunk: &Value) -> Value {
    let mut out = serde_json::Map::new();
    out.insert("file".into(), json!(file));
    out.extend(chunk.as_object().unwrap().clone());
    Value::Object(out)
}

#[test]
fn several_files_give_one_report_each_tagged_with_its_file() {
    let a = temp_file("several-a.txt", REFUND.as_bytes());
    let b = temp_file("several-b.txt", "ab ab ab".as_bytes());
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let v = json_of(&seed_args(&[a, "-", b]), "stdin text");
    let files = v["files"].as_array().unwrap();
    let alone = |file: &str, stdin: &str| json_of(&seed_args(&[file]), stdin);
    assert_eq!(
        files
            .iter()
            .map(|f| f["file"].as_str().unwrap())
            .collect::<Vec<_>>(),
        [a, "-", b]
    );
    // Each is the report the file gives alone, with its name in front.
    assert_eq!(files[0], tagged(a, &alone(a, "")));
    assert_eq!(files[1], tagged("-", &alone("-", "stdin text")));
    assert_eq!(files[2], tagged(b, &alone(b, "")));
    assert_eq!(v.as_object().unwrap().len(), 1);
    // With --trace every file carries its own tree and checks.
    let v = json_of(&seed_args(&["--trace", a, b]), "");
    assert_eq!(v["files"][1]["trace"]["nodes"][0]["action"], "fits");
    assert_eq!(v["files"][0]["checks"]["ok"], true);
}

#[test]
fn jsonl_prints_each_chunk_on_its_own_line_with_its_file() {
    let a = temp_file("lines-a.txt", REFUND.as_bytes());
    let a = a.to_str().unwrap();
    let lines = lines_of(&seed_args(&["--format", "jsonl", a, "-"]), "one two");
    let json = json_of(&seed_args(&[a]), "");
    let mut expected: Vec<Value> = json["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| tagged(a, c))
        .collect();
    expected.push(tagged(
        "-",
        &json!({"index":0,"start":0,"end":7,"byte_start":0,"byte_end":7,"len":7,"cut":"end","text":"one two"}),
    ));
    assert_eq!(lines, expected);
    // Standard input alone is named "-"; an empty text prints nothing.
    assert_eq!(lines_of(&["--format=jsonl"], "x")[0]["file"], "-");
    assert!(lines_of(&["--format=jsonl"], " \n ").is_empty());
}

#[test]
fn jsonl_gives_the_json_chunks_whatever_the_strategy_and_count() {
    // More chunk text than a batch of reports (256 KiB), with overlap and
    // LangChain's start indices, which are computed over the whole text.
    let text = "alpha beta gamma delta. ".repeat(50_000);
    for args in [
        &[
            "--size",
            "200",
            "--overlap",
            "50",
            "--sep",
            " ",
            "--sep",
            "",
        ][..],
        &[
            "--strategy",
            "langchain",
            "--size",
            "300",
            "--overlap",
            "60",
        ][..],
        &["--strategy", "fixed", "--size", "250", "--overlap", "20"][..],
    ] {
        let json = json_of(args, &text);
        let chunks = json["chunks"].as_array().unwrap();
        let bytes: u64 = chunks
            .iter()
            .map(|c| c["byte_end"].as_u64().unwrap() - c["byte_start"].as_u64().unwrap())
            .sum();
        assert!(bytes > 1 << 20, "{args:?}: {bytes}");
        let mut with_format = args.to_vec();
        with_format.extend(["--format", "jsonl"]);
        let lines = lines_of(&with_format, &text);
        let expected: Vec<Value> = chunks.iter().map(|c| tagged("-", c)).collect();
        assert!(
            lines == expected,
            "{args:?}: JSON Lines differ from the JSON"
        );
    }
}

#[test]
fn jsonl_gives_the_json_semantic_chunks_past_the_first_batch() {
    // Sentences apart by more than one space: LangChain's chunk texts are
    // not slices of the source, and must survive batching (256 KiB each).
    let text: String = (0..24_000)
        .map(|i| {
            format!(
                "topic{} word{} and more{}.  Then{}!\n",
                i / 40,
                i % 7,
                i / 40,
                i % 5
            )
        })
        .collect();
    let args = ["--strategy", "semantic", "--size", "100000"];
    let json = json_of(&args, &text);
    let chunks = json["chunks"].as_array().unwrap();
    let joined = chunks
        .iter()
        .filter(|c| !c["text"].as_str().unwrap().contains(".  "))
        .count();
    assert!(chunks.len() > 20, "{} chunks", chunks.len());
    assert!(joined > 20, "{joined} chunks with LangChain's joined text");
    let last = chunks.last().unwrap();
    assert!(last["byte_start"].as_u64().unwrap() > 1 << 19);
    let mut with_format = args.to_vec();
    with_format.extend(["--format", "jsonl"]);
    let lines = lines_of(&with_format, &text);
    let expected: Vec<Value> = chunks.iter().map(|c| tagged("-", c)).collect();
    assert!(lines == expected, "JSON Lines differ from the JSON");
}

#[test]
fn a_missing_file_among_several_fails_before_any_output() {
    let a = temp_file("present.txt", b"some text");
    let message = failure(
        &[a.to_str().unwrap(), "/nonexistent/chunkscope/second.txt"],
        b"",
        1,
    );
    assert!(
        message.contains("cannot read /nonexistent/chunkscope/second.txt"),
        "{message}"
    );
    let message = failure(
        &["--format", "jsonl", a.to_str().unwrap(), "/nonexistent/x"],
        b"",
        1,
    );
    assert!(message.contains("/nonexistent/x"), "{message}");
}

#[test]
fn a_closed_stdout_ends_jsonl_quietly() {
    let mut child = Command::new(BIN)
        .args(["--size", "10", "--format", "jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let text = "hello world\n".repeat(20_000);
    let _ = child.stdin.take().unwrap().write_all(text.as_bytes());
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(out.stderr.is_empty());
}

/// JSON Lines keep the memory near one copy of the input: the peak resident
/// size of the process stays under twice the input's size.
#[cfg(target_os = "linux")]
#[test]
fn jsonl_memory_stays_under_twice_the_input() {
    // Paragraphs, as real documents have them: the engine's own bookkeeping
    // is per piece of the level it splits at, so a text of one 24 MB
    // paragraph would hold a span per word.
    let paragraph =
        "The refund goes to the original payment method within 5 days. ".repeat(8) + "\n\n";
    let text = paragraph.repeat(24_000_000 / paragraph.len());
    let path = temp_file("big.txt", text.as_bytes());
    let peak = |args: &[&str]| {
        let child = Command::new(BIN)
            .args(args)
            .arg(&path)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        peak_rss(child)
    };
    let lines = peak(&["--size", "1000", "--format", "jsonl"]);
    assert!(
        lines < 2 * text.len(),
        "peak {lines} bytes for {} bytes of input",
        text.len()
    );
}

/// Waits for `child` and returns its peak resident size in bytes: the
/// highest `VmHWM` /proc shows for it once it runs chunkscope (before its
/// exec the process still shares the test's memory, which `wait4` would
/// count), read every millisecond until it exits. A peak in its last
/// millisecond could be missed; this run's peak comes while splitting.
#[cfg(target_os = "linux")]
fn peak_rss(mut child: std::process::Child) -> usize {
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(status) = std::fs::read_to_string(&status_file) {
            let field = |name: &str| {
                status
                    .lines()
                    .find_map(|l| l.strip_prefix(name))
                    .map(str::trim)
            };
            let hwm =
                field("VmHWM:").and_then(|v| v.trim_end_matches("kB").trim().parse::<usize>().ok());
            if let (Some("chunkscope"), Some(kb)) = (field("Name:"), hwm) {
                peak = peak.max(kb * 1024);
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success());
            assert!(peak > 0, "the run ended before it could be measured");
            return peak;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

#[test]
fn the_sentence_strategy_and_the_sentence_level() {
    let text = "Dr. Rao paid 3.14 euros. He left. 他说：「好。」然后走了。";
    let json = json_of(&["--strategy", "sentence", "--size", "30", "--trace"], text);
    let texts: Vec<&str> = json["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "Dr. Rao paid 3.14 euros.",
            "He left. 他说：「好。」然后走了。"
        ]
    );
    assert_eq!(json["chunks"][0]["cut"], json!("sentence"));
    assert_eq!(json["chunks"][0]["cut_label"], json!(r"\p{sentence}"));
    let sentences: Vec<(u64, u64)> = json["sentences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["start"].as_u64().unwrap(), s["end"].as_u64().unwrap()))
        .collect();
    assert_eq!(sentences, [(0, 25), (25, 34), (34, 41), (41, 46)]);
    let reasons: Vec<&str> = json["sentence_candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["reason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons, ["abbreviation", "number"]);
    // The level in a recursive list, spelled in --sep.
    let json = json_of(
        &[
            "--size",
            "30",
            "--sep",
            r"\n\n",
            "--sep",
            r"\p{sentence}",
            "--sep",
            " ",
            "--trace",
        ],
        text,
    );
    assert_eq!(
        json["config"]["separators"][1],
        json!({"pattern": "", "regex": false, "level": "sentence"})
    );
    assert_eq!(json["chunks"][0]["cut"], json!("sentence"));
    // Plain output carries no sentences.
    let plain = json_of(&["--strategy", "sentence"], text);
    assert!(plain.get("sentences").is_none());
    // A sentence strategy without the level first is refused, saying how to write it.
    let message = failure(&["--strategy", "sentence", "--sep", " "], b"", 2);
    assert!(message.contains(r"\p{sentence}"), "{message}");
}

#[test]
fn semantic_splits_with_the_lexical_embedder_or_a_model_file() {
    let text = "Refunds take five days. Refunds go to the card. The weather is sunny today!\n\n\
                Sunny weather all week? Cats sleep a lot. Cats purr.";
    let args = ["--strategy", "semantic", "--buffer", "0", "--amount", "50"];
    let out = json_of(&args, text);
    let chunks: Vec<(&str, bool, &str)> = out["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["text"].as_str().unwrap(),
                c["is_slice"].as_bool().unwrap(),
                c["cut"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        chunks,
        [
            (
                "Refunds take five days. Refunds go to the card.",
                true,
                "breakpoint"
            ),
            (
                "The weather is sunny today! Sunny weather all week?",
                false,
                "breakpoint"
            ),
            ("Cats sleep a lot. Cats purr.", true, "end"),
        ]
    );
    let traced = json_of(&[&args[..], &["--trace"]].concat(), text);
    let semantic = &traced["trace"]["semantic"];
    assert_eq!(semantic["breakpoints"], json!([1, 3]));
    assert_eq!(semantic["distances"].as_array().unwrap().len(), 5);
    assert_eq!(traced["config"]["semantic"]["breakpoint"], "percentile");

    // Word vectors in the GloVe text format: refunds one way, weather another.
    let model = temp_file(
        "words.txt",
        b"refunds 1 0 0\ncard 1 0 0\nweather 0 1 0\nsunny 0 1 0\ncats 0 0 1\npurr 0 0 1\n",
    );
    let model = model.to_str().unwrap();
    let out = json_of(
        &[&args[..], &["--embedder", model, "--trace"]].concat(),
        text,
    );
    assert!(out["trace"]["semantic"]["embedder"]
        .as_str()
        .unwrap()
        .contains("3 dimensions"));
    let truncated = temp_file("truncated.vec", b"5 3\nrefunds 1 0 0\ncard 1 0\n");
    let message = failure(
        &[
            "--strategy",
            "semantic",
            "--embedder",
            truncated.to_str().unwrap(),
        ],
        text.as_bytes(),
        2,
    );
    assert!(
        message.contains("line 3 of the model file has 2 values"),
        "{message}"
    );
}

#[test]
fn a_character_too_big_for_the_room_a_heading_prefix_leaves_names_that_room() {
    let args = [
        "--strategy",
        "markdown",
        "--unit",
        "bytes",
        "--size",
        "7",
        "--heading-prefix",
    ];
    assert_eq!(
        failure(&args, "# Ab\n\n😀".as_bytes(), 2),
        "chunkscope: the heading prefix leaves a chunk of this section 3 of the 7 bytes, but the character '😀' at position 6 is 4 bytes, and a chunk is never cut inside a character: raise the size to at least 8, or turn the heading prefix off\n"
    );
    // At the size it names, it fits; without the prefix, 7 was enough.
    let fits = [
        "--size",
        "8",
        "--strategy",
        "markdown",
        "--unit",
        "bytes",
        "--heading-prefix",
    ];
    assert_eq!(
        json_of(&fits, "# Ab\n\n😀")["chunks"][1]["prefix"],
        "Ab\n\n"
    );
    assert!(chunkscope(&args[..6], "# Ab\n\n😀".as_bytes())
        .status
        .success());
}

#[test]
fn csv_prints_the_page_s_chunk_export_under_one_header() {
    let a = temp_file("csv-a.txt", REFUND.as_bytes());
    let a = a.to_str().unwrap();
    let out = chunkscope(&seed_args(&["--format", "csv", a, "-"]), b"one, \"two\"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let sha = chunkscope::export::sha256_hex;
    let mut expected = String::from("doc,index,text,start,end,len,unit,cut,sha256\r\n");
    for (i, (text, start, end, cut)) in [
        ("Refund policy", 0, 13, "\\n\\n"),
        ("Refunds take 5 days.", 15, 35, ". "),
        ("They go to the original UPI id.", 36, 67, "\\n"),
        ("COD orders get store credit.", 68, 96, "\\n\\n"),
        ("Contact us 24x7.", 98, 114, "end"),
    ]
    .into_iter()
    .enumerate()
    {
        let len = end - start;
        expected.push_str(&format!(
            "{a},{i},{text},{start},{end},{len},chars,{cut},{}\r\n",
            sha(text)
        ));
    }
    expected.push_str(&format!(
        "-,0,\"one, \"\"two\"\"\",0,10,10,chars,end,{}\r\n",
        sha("one, \"two\"")
    ));
    assert_eq!(stdout, expected);
}

/// A model2vec folder (`model.safetensors`, `tokenizer.json`, `config.json`)
/// with a WordPiece vocabulary: refund words one way, weather another.
fn model2vec_folder(name: &str, rows: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chunkscope-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let vocab = [
        "[UNK]", "refunds", "card", "weather", "sunny", "cats", "purr",
    ];
    let values: Vec<f32> = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, 1.0],
    ][..rows]
        .concat();
    let header = format!(
        r#"{{"embeddings":{{"dtype":"F32","shape":[{rows},3],"data_offsets":[0,{}]}}}}"#,
        rows * 12
    );
    let mut st = (header.len() as u64).to_le_bytes().to_vec();
    st.extend_from_slice(header.as_bytes());
    st.extend(values.iter().flat_map(|x| x.to_le_bytes()));
    std::fs::write(dir.join("model.safetensors"), st).unwrap();
    let vocab: Vec<String> = vocab
        .iter()
        .enumerate()
        .map(|(i, t)| format!("\"{t}\":{i}"))
        .collect();
    let tokenizer = format!(
        r#"{{"normalizer":{{"type":"BertNormalizer","lowercase":true}},"pre_tokenizer":{{"type":"BertPreTokenizer"}},"model":{{"type":"WordPiece","unk_token":"[UNK]","vocab":{{{}}}}}}}"#,
        vocab.join(",")
    );
    std::fs::write(dir.join("tokenizer.json"), tokenizer).unwrap();
    std::fs::write(dir.join("config.json"), r#"{"normalize": true}"#).unwrap();
    dir
}

#[test]
fn semantic_splits_with_a_model2vec_folder_or_its_files() {
    let text = "Refunds take five days. Refunds go to the card. The weather is sunny today!\n\n\
                Sunny weather all week? Cats sleep a lot. Cats purr.";
    let args = [
        "--strategy",
        "semantic",
        "--buffer",
        "0",
        "--amount",
        "50",
        "--trace",
    ];
    let dir = model2vec_folder("good", 7);
    let by_folder = json_of(
        &[&args[..], &["--embedder", dir.to_str().unwrap()]].concat(),
        text,
    );
    let embedder = by_folder["trace"]["semantic"]["embedder"].as_str().unwrap();
    assert!(
        embedder.contains("model2vec, 7 WordPiece tokens, 3 dimensions"),
        "{embedder}"
    );
    assert_eq!(by_folder["trace"]["semantic"]["breakpoints"], json!([1, 3]));
    let st = dir.join("model.safetensors");
    let by_file = json_of(
        &[&args[..], &["--embedder", st.to_str().unwrap()]].concat(),
        text,
    );
    assert_eq!(by_file["chunks"], by_folder["chunks"]);
    let files = format!("{},{}", st.display(), dir.join("tokenizer.json").display());
    let by_files = json_of(&[&args[..], &["--embedder", &files]].concat(), text);
    assert_eq!(by_files["chunks"], by_folder["chunks"]);

    // The tokenizer knows 7 tokens, the table holds 6 vectors.
    let bad = model2vec_folder("mismatch", 6);
    let message = failure(
        &[
            "--strategy",
            "semantic",
            "--embedder",
            bad.to_str().unwrap(),
        ],
        text.as_bytes(),
        2,
    );
    assert!(
        message.contains("tokenizer.json has 7 tokens but model.safetensors has 6 vectors"),
        "{message}"
    );
    let empty = std::env::temp_dir().join(format!("chunkscope-cli-{}-empty", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let message = failure(
        &[
            "--strategy",
            "semantic",
            "--embedder",
            empty.to_str().unwrap(),
        ],
        text.as_bytes(),
        2,
    );
    assert!(message.contains("holds no model.safetensors"), "{message}");
}

#[test]
fn a_table_header_repeated_is_each_row_chunks_prefix_and_counted_in_the_size() {
    // The header rows are 33 chars, 34 with their line break: at 50 the rows
    // after the table's first chunk have 16 chars each, so Pro (12) and
    // Team (13) are a chunk each (core/tests/markdown.rs works it through).
    let doc = "# Prices\n\n| Plan | Price |\n| ---- | ----- |\n| Basic | 5 |\n| Pro | 10 |\n| Team | 20 |\n";
    let header = "| Plan | Price |\n| ---- | ----- |\n";
    let args = [
        "--strategy",
        "markdown",
        "--size",
        "50",
        "--table-header",
        "repeat",
        "--trace",
    ];
    let v = json_of(&args, doc);
    let chunks = v["chunks"].as_array().unwrap();
    let got: Vec<(&str, Option<&str>)> = chunks
        .iter()
        .map(|c| (c["text"].as_str().unwrap(), c["prefix"].as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("# Prices", None),
            ("| Plan | Price |\n| ---- | ----- |\n| Basic | 5 |", None),
            ("| Pro | 10 |", Some(header)),
            ("| Team | 20 |", Some(header)),
        ]
    );
    assert_eq!(v["config"]["table_header"], "repeat");
    assert_eq!(v["checks"]["ok"], true);
    // The echo replays: the same run from its own configuration.
    let once = json_of(&["--strategy", "markdown", "--size", "50", "--trace"], doc);
    assert_eq!(
        once["config"].get("table_header"),
        None,
        "once is the default"
    );
    assert_eq!(once["chunks"].as_array().unwrap().len(), 3);
    assert_eq!(
        failure(&["--strategy", "markdown", "--size", "34", "--table-header", "repeat"], doc.as_bytes(), 2),
        "chunkscope: every chunk of the rows of the table at position 10 would start with its header \
         rows, 34 chars with what comes before them, and size is 34: nothing fits after them; raise \
         the size above 34, or give the header once (table_header \"once\")\n"
    );
}
