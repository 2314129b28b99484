//! The JavaScript API in a browser: what goes in and comes out are real JS values.
#![cfg(target_arch = "wasm32")]

use chunkscope_wasm::{separator_presets, split, version};
use js_sys::JSON;
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const PAGE: &str = "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n\
                    COD orders get store credit.\n\nContact us 24x7.";

/// A JS value made from JSON text, as a page would write it.
fn js(json: &str) -> JsValue {
    JSON::parse(json).expect("valid JSON")
}

/// A JS result read back through `JSON.stringify`, which also proves it is made
/// of plain objects (a `Map` would stringify as `{}`).
fn json_of(value: &JsValue) -> Value {
    let text = JSON::stringify(value).unwrap().as_string().unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The message of the `Error` a call threw.
fn error_message(result: Result<JsValue, wasm_bindgen::JsError>) -> String {
    let err: JsValue = result.expect_err("the call should throw").into();
    let err: js_sys::Error = err.dyn_into().expect("an Error object");
    err.message().as_string().unwrap()
}

#[wasm_bindgen_test]
fn refund_page_gives_the_five_chunks() {
    let config = js(r#"{"size": 40, "separators": ["\n\n", "\n", ". ", " ", ""]}"#);
    let out = json_of(&split(PAGE, config).unwrap());
    let chunks: Vec<(&str, u64, u64, &str)> = out["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["text"].as_str().unwrap(),
                c["start"].as_u64().unwrap(),
                c["end"].as_u64().unwrap(),
                c["cut"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        chunks,
        [
            ("Refund policy", 0, 13, "\n\n"),
            ("Refunds take 5 days.", 15, 35, ". "),
            ("They go to the original UPI id.", 36, 67, "\n"),
            ("COD orders get store credit.", 68, 96, "\n\n"),
            ("Contact us 24x7.", 98, 114, "end"),
        ]
    );
    assert_eq!(out["chunks"][0]["cut_label"], "\\n\\n");
    let root = &out["trace"]["nodes"][0];
    assert_eq!(root["action"], "split");
    assert_eq!(root["separator"]["index"], 0);
    assert_eq!(out["checks"]["ok"], true);
    assert_eq!(out["config"]["size"], 40);
}

#[wasm_bindgen_test]
fn offsets_are_js_string_offsets_for_bmp_text() {
    let text = "Crème brûlée. Très bon.";
    let out = json_of(&split(text, js(r#"{"size": 14, "separators": [". ", ""]}"#)).unwrap());
    let second = &out["chunks"][1];
    assert_eq!(second["text"], "Très bon.");
    let (start, end) = (
        second["start"].as_u64().unwrap(),
        second["end"].as_u64().unwrap(),
    );
    let js_text = JsValue::from_str(text).unchecked_into::<js_sys::JsString>();
    assert_eq!(
        js_text.slice(start as u32, end as u32).as_string().unwrap(),
        "Très bon."
    );
    assert_ne!(second["start"], second["byte_start"]);
}

#[wasm_bindgen_test]
fn fixed_windows() {
    let config = js(r#"{"strategy": "fixed", "size": 4, "overlap": 1}"#);
    let out = json_of(&split("abcdefghij", config).unwrap());
    let got: Vec<(&str, &str)> = out["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["text"].as_str().unwrap(), c["cut"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        [("abcd", "window"), ("defg", "window"), ("ghij", "end")]
    );
    assert_eq!(out["trace"]["nodes"][0]["stride"], 3);
}

#[wasm_bindgen_test]
fn no_config_means_the_defaults() {
    let out = json_of(&split("one two", JsValue::UNDEFINED).unwrap());
    assert_eq!(out["chunks"][0]["text"], "one two");
    assert_eq!(out["config"]["size"], 1000);
    assert_eq!(out["config"]["strategy"], "recursive");
    let out = json_of(&split("one two", JsValue::NULL).unwrap());
    assert_eq!(out["chunks"].as_array().unwrap().len(), 1);
}

#[wasm_bindgen_test]
fn an_invalid_config_throws_an_error_about_overlap() {
    let message = error_message(split("abc", js(r#"{"size": 10, "overlap": 10}"#)));
    assert!(message.contains("overlap"), "{message}");
    assert!(
        message.starts_with("overlap (10) must be smaller than size (10)"),
        "{message}"
    );
}

#[wasm_bindgen_test]
fn a_wrong_type_names_the_field() {
    let message = error_message(split("abc", js(r#"{"size": "forty"}"#)));
    assert!(
        message.starts_with("config.size: invalid type"),
        "{message}"
    );
    assert!(message.contains("whole number"), "{message}");
    let message = error_message(split("abc", js(r#"{"overlap": 2.5}"#)));
    assert!(message.starts_with("config.overlap:"), "{message}");
    let message = error_message(split("abc", js(r#"{"separators": ["\n", 3]}"#)));
    assert!(message.contains("separators: [1]"), "{message}");
    let message = error_message(split("abc", js("\"size=40\"")));
    assert!(message.starts_with("config must be an object"), "{message}");
    let message = error_message(split("abc", js("[40]")));
    assert!(message.contains("an array"), "{message}");
}

#[wasm_bindgen_test]
fn an_unknown_field_is_not_ignored() {
    let message = error_message(split("abc", js(r#"{"sise": 40}"#)));
    assert!(
        message.contains("\"sise\"") && message.contains("size"),
        "{message}"
    );
    let message = error_message(split("abc", js(r#"{"strategy": "late"}"#)));
    assert!(message.contains("\"langchain-character\""), "{message}");
}

#[wasm_bindgen_test]
fn regex_separators_and_the_echo_replay() {
    let config = js(r#"{"size": 10, "separators": [{"pattern": "[.!?] ", "regex": true}, ""]}"#);
    let first = split("One. Two! Three? Four.", config).unwrap();
    let out = json_of(&first);
    assert_eq!(out["chunks"][0]["text"], "One. Two!");
    assert_eq!(out["chunks"][0]["cut_label"], "/[.!?] /");
    // The config echo is itself a valid config, giving the same split.
    let echo = js(&out["config"].to_string());
    let again = json_of(&split("One. Two! Three? Four.", echo).unwrap());
    assert_eq!(again, out);
}

#[wasm_bindgen_test]
fn presets_and_version() {
    let presets = json_of(&separator_presets().unwrap());
    let list = presets.as_array().unwrap();
    assert_eq!(list[0]["name"], "default");
    assert_eq!(list[0]["separators"], json!(["\n\n", "\n", " ", ""]));
    let seed = list.iter().find(|p| p["name"] == "seed").unwrap();
    assert_eq!(seed["separators"], json!(["\n\n", "\n", ". ", " ", ""]));
    assert_eq!(version(), env!("CARGO_PKG_VERSION"));
}

#[wasm_bindgen_test]
fn langchain_in_the_browser_gives_langchains_text_and_refuses_catastrophic_regexes() {
    // A Python lookbehind separator, as CharacterTextSplitter's docs use. With
    // a lookaround separator LangChain merges with "" (a quirk it really has),
    // so the first chunk is not in the source and LangChain's find gives -1.
    let config = js(
        r#"{"strategy": "langchain-character", "separators": [{"pattern": "(?<=\\.) ", "regex": true}], "size": 12}"#,
    );
    let out = json_of(&split("One. Two. Three.", config).unwrap());
    let texts: Vec<&str> = out["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["One.Two.", "Three."]);
    assert_eq!(out["chunks"][0]["is_slice"], false);
    assert_eq!(out["chunks"][0]["start_index"], -1);
    assert_eq!(out["langchain"]["class"], "CharacterTextSplitter");

    // Catastrophic backtracking is refused with a message, quickly.
    let text = format!("{}b", "a".repeat(40));
    let config = js(
        r#"{"strategy": "langchain", "separators": [{"pattern": "(a+)+$", "regex": true}], "size": 10}"#,
    );
    let message = error_message(split(&text, config));
    assert!(message.contains("backtrack"), "{message}");
}

#[wasm_bindgen_test]
fn token_units_work_once_a_tokenizer_is_installed() {
    use chunkscope::tokens::{Encoding, Tokenizer};
    let config = || js(r#"{"strategy": "fixed", "unit": "o200k", "size": 2}"#);
    let message = error_message(split("abcd", config()));
    assert!(
        message.contains("o200k tokenizer is not loaded"),
        "{message}"
    );

    // A small table (the 256 bytes and "ab") stands in for the real file.
    let mut ranks: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    ranks.push(b"ab".to_vec());
    let data = Tokenizer::from_ranks(Encoding::O200k, ranks)
        .unwrap()
        .to_data();
    assert!(chunkscope_wasm::install_tokenizer(b"not tokens").is_err());
    assert_eq!(chunkscope_wasm::install_tokenizer(&data).unwrap(), "o200k");
    let out = json_of(&split("abcd", config()).unwrap());
    let texts: Vec<&str> = out["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["abc", "d"]);
}

// ---------------------------------------------------------------------------
// The worker's messages (the handler worker.js and the playground's worker run).

use chunkscope::{Config, Placement, Separator, Strategy, Unit};
use chunkscope_wasm::contract::{analyze, Detail};
use chunkscope_wasm::message::answer::{respond, write, Made, Worker};
use chunkscope_wasm::message::{self, Encoding, Refusal, Reply, ReportBody, Response};
use chunkscope_wasm::{decode_report, ready_message, wire};

const SEED_CONFIG: &str = r#"{"size": 40, "separators": ["\n\n", "\n", ". ", " ", ""]}"#;

/// A request object with these fields (JSON) and the refund page as its text.
fn request(fields: &str) -> JsValue {
    let value = js(fields);
    js_sys::Reflect::set(&value, &"text".into(), &PAGE.into()).unwrap();
    value
}

/// The refusal in a reply, as the page reads it.
fn refusal(reply: &JsValue) -> (String, Option<String>) {
    match Reply::read(reply).response {
        Response::Error(refusal) => (refusal.message, refusal.field),
        other => panic!("not a refusal: {other:?}"),
    }
}

#[wasm_bindgen_test]
fn a_split_request_is_answered_with_the_report_split_returns() {
    let (reply, transfer) = respond(&request(&format!(
        r#"{{"id": 7, "config": {SEED_CONFIG}, "detail": "full"}}"#
    )));
    assert!(transfer.is_none(), "a plain object is not transferred");
    let out = json_of(&reply);
    assert_eq!(out["id"], 7);
    assert_eq!(
        out["report"],
        json_of(&split(PAGE, js(SEED_CONFIG)).unwrap())
    );
    // Without detail and encoding: the full report as an object.
    let (reply, _) = respond(&request(&format!(
        r#"{{"id": 8, "config": {SEED_CONFIG}}}"#
    )));
    assert_eq!(json_of(&reply)["report"]["checks"]["ok"], true);
    // Chunks only: the CLI's plain shape.
    let (reply, _) = respond(&request(&format!(
        r#"{{"id": 9, "config": {SEED_CONFIG}, "detail": "chunks"}}"#
    )));
    let out = json_of(&reply);
    assert_eq!(out["report"]["chunks"].as_array().unwrap().len(), 5);
    assert!(out["report"].get("trace").is_none() && out["report"].get("checks").is_none());
    assert!(out["report"]["chunks"][0].get("cut_label").is_none());
}

#[wasm_bindgen_test]
fn a_binary_report_is_transferred_and_reads_back_as_the_same_report() {
    let (reply, transfer) = respond(&request(&format!(
        r#"{{"id": 1, "config": {SEED_CONFIG}, "encoding": "binary"}}"#
    )));
    let buffer = transfer.expect("the buffer is transferred");
    let Reply {
        id,
        response:
            Response::Report {
                report: ReportBody::Binary(report),
                ms,
            },
    } = Reply::read(&reply)
    else {
        panic!("not a binary report")
    };
    assert_eq!(id.as_f64(), Some(1.0));
    let ms = ms.expect("the worker says how long it took");
    assert!(ms >= 0.0 && ms.is_finite(), "{ms}");
    assert!(
        js_sys::Object::is(&report, &buffer),
        "the report is the transferred buffer"
    );
    assert_eq!(
        json_of(&decode_report(report.clone(), PAGE).unwrap()),
        json_of(&split(PAGE, js(SEED_CONFIG)).unwrap())
    );
    let bytes = message::report_bytes(&report).unwrap();
    let config = Config::recursive(40).with_separators(["\n\n", "\n", ". ", " ", ""]);
    assert_eq!(
        wire::decode(&bytes, PAGE).unwrap(),
        analyze(PAGE, config, Detail::Full).unwrap()
    );
    let message = error_message(decode_report(JsValue::from_str("CSA1"), PAGE));
    assert!(message.contains("ArrayBuffer"), "{message}");
}

#[wasm_bindgen_test]
fn the_pages_requests_read_as_the_configurations_they_were_made_from() {
    let mut langchain = Config::for_strategy(Strategy::LangChain);
    langchain.size = 30;
    let configs = [
        Config::recursive(40).with_separators(["\n\n", "\n", ". ", " ", ""]),
        Config::fixed(7, 2).with_unit(Unit::Bytes),
        Config::recursive(25)
            .with_separators([Separator::regex("[.!?] "), Separator::hard_cut()])
            .with_placement(Placement::None)
            .with_trim(false),
        langchain,
    ];
    let mut cases = 0;
    for config in configs {
        let request = message::split_request(
            &JsValue::from(3),
            &JsValue::from_str(PAGE),
            &config,
            Detail::Trace,
            Encoding::Binary,
        );
        let (reply, _) = respond(&request);
        let Response::Report { report, .. } = Reply::read(&reply).response else {
            panic!("{config:?}: {:?}", json_of(&reply))
        };
        let got = wire::decode(&report.bytes().unwrap(), PAGE).unwrap();
        assert_eq!(got, analyze(PAGE, config, Detail::Trace).unwrap());
        cases += 1;
    }
    assert_eq!(cases, 4);
}

#[wasm_bindgen_test]
fn refusals_keep_the_id_and_name_the_setting() {
    let cases = [
        (
            r#"{"id": "a", "config": {"size": 10, "overlap": 10}}"#,
            "overlap",
            "overlap (10) must be smaller",
        ),
        (
            r#"{"id": 2, "config": {"size": 0}}"#,
            "size",
            "size must be at least 1",
        ),
        (
            r#"{"id": 3, "config": {"separators": []}}"#,
            "separators",
            "the separator list is empty",
        ),
        (
            r#"{"id": 4, "config": {"sise": 1}}"#,
            "config",
            "config has no field \"sise\"",
        ),
        (
            r#"{"id": 5, "config": {"strategy": "late"}}"#,
            "strategy",
            "config.strategy: unknown strategy",
        ),
        (
            r#"{"id": 6, "config": {"size": "big"}}"#,
            "size",
            "config.size: invalid type",
        ),
        (
            r#"{"id": 7, "detail": "everything"}"#,
            "detail",
            "unknown detail \"everything\"",
        ),
        (
            r#"{"id": 8, "encoding": "xml"}"#,
            "encoding",
            "unknown encoding \"xml\"",
        ),
    ];
    for (fields, field, start) in cases {
        let (reply, transfer) = respond(&request(fields));
        assert!(transfer.is_none());
        let out = json_of(&reply);
        assert_eq!(
            out["id"],
            json_of(&js(fields))["id"],
            "the id comes back as it was"
        );
        let (message, named) = refusal(&reply);
        assert_eq!(named.as_deref(), Some(field), "{fields}: {message}");
        assert!(message.starts_with(start), "{fields}: {message}");
    }
    // The first worker is built without the text-splitter crate (the page
    // sends those strategies to a second worker); asked anyway, it says so
    // and names the feature, rather than splitting some other way.
    #[cfg(not(feature = "text-splitter"))]
    for strategy in ["text-splitter", "text-splitter-markdown"] {
        let (reply, _) = respond(&request(&format!(
            r#"{{"id": 10, "config": {{"strategy": "{strategy}", "size": 40}}}}"#
        )));
        assert_eq!(
            refusal(&reply),
            (
                format!(
                    "{strategy} is not in this build of chunkscope: it is built with the `text-splitter` feature"
                ),
                Some("strategy".to_string())
            )
        );
    }
    let (reply, _) = respond(&js(r#"{"id": 9, "text": 40}"#));
    assert_eq!(refusal(&reply).1.as_deref(), Some("text"));
    let (reply, _) = respond(&js("\"split this\""));
    let out = json_of(&reply);
    assert_eq!(
        (out["id"].clone(), out["error"]["field"].clone()),
        (Value::Null, Value::Null)
    );
    assert!(refusal(&reply).0.starts_with("a request is an object"));
}

#[wasm_bindgen_test]
fn determinism_is_asked_for_alone_and_ready_says_the_version() {
    let (reply, _) = respond(&request(&format!(
        r#"{{"id": 4, "config": {SEED_CONFIG}, "detail": "determinism"}}"#
    )));
    let out = json_of(&reply);
    assert_eq!(
        out["determinism"],
        json!({"ok": true, "detail": "a second run gave the same chunks"})
    );
    assert!(out.get("report").is_none());
    match Reply::read(&reply).response {
        Response::Determinism(check) => assert!(check.ok),
        other => panic!("{other:?}"),
    }
    match Reply::read(&ready_message()).response {
        Response::Ready { version } => assert_eq!(version, env!("CARGO_PKG_VERSION")),
        other => panic!("{other:?}"),
    }
}

#[wasm_bindgen_test]
fn a_tokenizer_request_installs_it_or_says_why_not() {
    use chunkscope::tokens::{Encoding as Tokens, Tokenizer};
    let mut ranks: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    ranks.push(b"ab".to_vec());
    let data = Tokenizer::from_ranks(Tokens::Cl100k, ranks)
        .unwrap()
        .to_data();
    let (reply, _) = respond(&message::tokenizer_request(
        &JsValue::from(5),
        b"not tokens",
    ));
    assert_eq!(refusal(&reply).1.as_deref(), Some("tokenizer"));
    let (reply, _) = respond(&message::tokenizer_request(&JsValue::from(6), &data));
    match Reply::read(&reply).response {
        Response::Installed(encoding) => assert_eq!(encoding, "cl100k"),
        other => panic!("{other:?}"),
    }
}

#[wasm_bindgen_test]
fn the_corpus_answer_is_written_and_read_as_one_typed_shape() {
    use chunkscope_wasm::corpus::{build, numbers_object, read_numbers, Numbers};
    // Two documents at 40 chars with the lesson's list: the refund page's
    // five chunks (worked in the lesson), and a 12-char note in one chunk.
    let config = chunkscope::Config::recursive(40).with_separators(["\n\n", "\n", ". ", " ", ""]);
    let docs = [
        Ok(("refund.txt".to_string(), PAGE.to_string())),
        Ok(("note.txt".to_string(), "A short note".to_string())),
    ];
    let report = build(docs, &config, None).unwrap();
    let sent = numbers_object(&Numbers::of(&report));
    let out = json_of(&sent);
    assert_eq!(out["documents"][0]["name"], "refund.txt");
    assert_eq!(out["documents"][0]["chunks"], 5);
    assert_eq!(out["total"]["documents"], 2);
    assert_eq!(out["total"]["chunks"], 6);
    // Cuts: the blank line twice, the newline once, ". " once (the lesson's split).
    assert_eq!(out["total"]["cuts"]["by_separator"], json!([2, 1, 1, 0, 0]));
    let numbers = read_numbers(&sent).unwrap();
    assert_eq!(numbers, Numbers::of(&report));
    assert_eq!(numbers.documents[1].stats, report.documents[1].stats);
    // A field missing or misspelt is an error that names it, not a zero.
    let mut broken = out.clone();
    broken["total"].as_object_mut().unwrap().remove("over");
    let e = read_numbers(&js(&broken.to_string())).unwrap_err();
    assert!(e.contains("missing field `over`"), "{e}");
    let mut broken = out;
    broken["total"]["cuts"]["hrad"] = json!(1);
    let e = read_numbers(&js(&broken.to_string())).unwrap_err();
    assert!(e.contains("unknown field `hrad`"), "{e}");
}

/// A model request is answered with the summary in its one form, read back
/// as the same value; a summary missing a field reads as an error that
/// names it, not as a model with 0 dimensions.
#[wasm_bindgen_test]
fn a_model_summary_reads_back_or_names_what_is_missing() {
    let bytes: JsValue = js_sys::Uint8Array::from(&b"cat 1 0\ndog 0 1\n"[..])
        .buffer()
        .into();
    let file = message::model_file("w.txt", &bytes);
    let (reply, _) = respond(&message::model_request(
        &JsValue::from(8),
        "w.txt",
        Some(&js_sys::Array::of1(&file)),
    ));
    let Response::Loaded(Some(summary)) = Reply::read(&reply).response else {
        panic!("{:?}", json_of(&reply));
    };
    assert_eq!(
        (
            summary.name.as_str(),
            summary.format.as_str(),
            summary.dims,
            summary.words
        ),
        ("w.txt", "word vectors", 2, 2)
    );
    let written = message::summary_to_js(&summary);
    assert_eq!(message::read_summary(&written), Ok(Some(summary)));
    assert_eq!(message::read_summary(&JsValue::NULL), Ok(None));
    js_sys::Reflect::delete_property(written.unchecked_ref::<js_sys::Object>(), &"dims".into())
        .unwrap();
    let e = message::read_summary(&written).unwrap_err();
    assert!(e.starts_with("missing field `dims`"), "{e}");
    let answer = js_sys::Object::new();
    js_sys::Reflect::set(&answer, &"id".into(), &JsValue::from(9)).unwrap();
    js_sys::Reflect::set(&answer, &"loaded".into(), &written).unwrap();
    match Reply::read(&answer).response {
        Response::Error(refusal) => {
            assert_eq!(refusal.field.as_deref(), Some("model"));
            assert!(
                refusal.message.contains("missing field `dims`"),
                "{}",
                refusal.message
            );
        }
        other => panic!("{other:?}"),
    }
}

/// Every kind of answer, written by the worker's one writer, reads back
/// through the page's one reader as the value written: the two sides of the
/// protocol are one type.
#[wasm_bindgen_test]
fn every_answer_reads_back_as_the_value_written() {
    use chunkscope::Check;
    use chunkscope_wasm::message::answer::{answer, Request};
    let id = JsValue::from_str("q-7");
    let read = |response: Response<Worker>| {
        let (value, _) = write(&id, response);
        let reply = Reply::read(&value);
        assert_eq!(reply.id, id, "the id comes back as it was");
        reply.response
    };
    let docs = vec![("refund.txt".to_string(), PAGE.to_string())];
    let jsonl = r#"{"question": "How long do refunds take?", "doc": "refund.txt", "answers": [{"start": 28, "end": 34}]}"#;
    let Response::Parsed(questions) = answer(Request::Questions {
        jsonl: jsonl.into(),
        docs: docs.clone(),
    }) else {
        panic!("not read")
    };
    let evaluation = answer(Request::Evaluate {
        docs: docs.clone(),
        questions: questions.clone(),
        config: Config::recursive(40),
        top_k: 2,
        retriever: None,
    });
    let corpus = answer(Request::Corpus {
        docs: Box::new(docs.into_iter().map(Ok)),
        config: Config::recursive(40),
        export: Some(chunkscope_wasm::corpus::Export::Csv),
    });
    assert!(matches!(evaluation, Response::Evaluation(_)));
    assert!(matches!(corpus, Response::Corpus { .. }));
    let summary = chunkscope_wasm::loaded::Summary {
        generation: 4,
        name: "m".into(),
        format: "model2vec".into(),
        dims: 256,
        words: 29_528,
    };
    let mut bad_separator = Refusal::new(Some("separators"), "the separator 2 does not compile");
    bad_separator.separator = Some(2);
    let cases: Vec<Response<Worker>> = vec![
        Response::Determinism(Check {
            ok: false,
            detail: "the runs differ".into(),
        }),
        Response::Installed("cl100k".into()),
        Response::Loaded(None),
        Response::Loaded(Some(summary)),
        Response::Parsed(questions.clone()),
        evaluation,
        corpus,
        Response::Error(bad_separator),
        Response::Error(Refusal::new(None, "no one setting")),
    ];
    let mut compared = 0;
    for case in cases {
        let written = format!("{case:?}");
        // A payload the caller reads when it wants it is read here.
        let same = match (&case, read(case.clone())) {
            (Response::Parsed(q), Response::Parsed(unread)) => unread.read().unwrap() == *q,
            (Response::Evaluation(e), Response::Evaluation(unread)) => {
                unread.read().unwrap() == **e
            }
            (
                Response::Corpus { numbers, export },
                Response::Corpus {
                    numbers: unread,
                    export: back,
                },
            ) => unread.read().unwrap() == *numbers && back == *export,
            (Response::Determinism(c), Response::Determinism(back)) => *c == back,
            (Response::Installed(e), Response::Installed(back)) => *e == back,
            (Response::Loaded(s), Response::Loaded(back)) => *s == back,
            (Response::Error(r), Response::Error(back)) => *r == back,
            _ => false,
        };
        assert!(same, "{written}");
        compared += 1;
    }
    assert_eq!(compared, 9);
    // Reports: the binary one as the bytes of the analysis, the object one
    // as split() returns it; the time travels with either.
    let config = Config::recursive(40).with_separators(["\n\n", "\n", ". ", " ", ""]);
    let analysis = analyze(PAGE, config, Detail::Full).unwrap();
    for encoding in [Encoding::Binary, Encoding::Object] {
        let made = Made {
            analysis: Box::new(analysis.clone()),
            text: PAGE.into(),
            encoding,
        };
        let Response::Report { report, ms } = read(Response::Report {
            report: made,
            ms: Some(1.5),
        }) else {
            panic!("{encoding}: not a report")
        };
        assert_eq!(ms, Some(1.5));
        match report {
            ReportBody::Binary(_) => {
                assert_eq!(encoding, Encoding::Binary);
                assert_eq!(
                    wire::decode(&report.bytes().unwrap(), PAGE).unwrap(),
                    analysis
                );
            }
            ReportBody::Object(object) => {
                assert_eq!(encoding, Encoding::Object);
                assert_eq!(
                    json_of(&object),
                    json_of(&split(PAGE, js(SEED_CONFIG)).unwrap())
                );
            }
        }
    }
    // An evaluation missing a number is refused by name, not read as 0.
    let (value, _) = write(
        &id,
        answer(Request::Evaluate {
            docs: vec![("refund.txt".to_string(), PAGE.to_string())],
            questions,
            config: Config::recursive(40),
            top_k: 1,
            retriever: None,
        }),
    );
    let evaluation = js_sys::Reflect::get(&value, &"evaluation".into()).unwrap();
    if evaluation.is_object() {
        let index = js_sys::Reflect::get(&evaluation, &"index".into()).unwrap();
        js_sys::Reflect::delete_property(index.unchecked_ref::<js_sys::Object>(), &"units".into())
            .unwrap();
        let Response::Evaluation(unread) = Reply::read(&value).response else {
            panic!("not an evaluation")
        };
        assert_eq!(
            unread.read(),
            Err(Refusal::new(
                None,
                "the worker's evaluation cannot be read: units must be a whole number ≥ 0"
            ))
        );
    } else {
        panic!("{:?}", json_of(&value));
    }
}

/// A message asks one thing: one that both splits and installs a tokenizer
/// is refused, naming the two, not answered for either.
#[wasm_bindgen_test]
fn a_request_with_two_kinds_is_refused() {
    let message = request(r#"{"id": 1, "tokenizer": null}"#);
    let (reply, _) = respond(&message);
    assert_eq!(
        refusal(&reply),
        (
            "a request asks one thing: this one has both `tokenizer` and `text`".to_string(),
            None
        )
    );
}

/// Each request the page builds reads, on the worker's side, as the
/// request it means: the two sides of every request kind agree.
#[wasm_bindgen_test]
fn every_request_the_page_builds_reads_as_what_it_asks() {
    use chunkscope_wasm::corpus::Export;
    use chunkscope_wasm::message::answer::Request;
    let id = JsValue::from(2);
    let config = Config::fixed(7, 2).with_unit(Unit::Bytes);
    let mut kinds = 0;

    let built =
        message::split_request(&id, &PAGE.into(), &config, Detail::Chunks, Encoding::Object);
    let Ok(Request::Split {
        text,
        config: read,
        detail,
        encoding,
    }) = Request::read(&built)
    else {
        panic!("not a split: {:?}", json_of(&built))
    };
    assert_eq!(
        (text.as_str(), &read, detail, encoding),
        (PAGE, &config, Detail::Chunks, Encoding::Object)
    );
    kinds += 1;

    let Ok(Request::Tokenizer(bytes)) =
        Request::read(&message::tokenizer_request(&id, b"CSTOKENS"))
    else {
        panic!("not a tokenizer")
    };
    assert_eq!(bytes, b"CSTOKENS");
    kinds += 1;

    let buffer: JsValue = js_sys::Uint8Array::from(&b"cat 1 0\n"[..]).buffer().into();
    let files = js_sys::Array::of1(&message::model_file("w.txt", &buffer));
    let Ok(Request::Model(Some((name, files)))) =
        Request::read(&message::model_request(&id, "vectors", Some(&files)))
    else {
        panic!("not a model")
    };
    assert_eq!(
        (name.as_str(), files),
        (
            "vectors",
            vec![("w.txt".to_string(), b"cat 1 0\n".to_vec())]
        )
    );
    assert!(matches!(
        Request::read(&message::model_request(&id, "", None)),
        Ok(Request::Model(None))
    ));
    kinds += 1;

    let docs = [("refund.txt".to_string(), JsValue::from_str(PAGE))];
    let jsonl =
        r#"{"question": "How long?", "doc": "refund.txt", "answers": [{"start": 28, "end": 34}]}"#;
    let Ok(Request::Questions {
        jsonl: read,
        docs: read_docs,
    }) = Request::read(&chunkscope_wasm::eval::questions_request(&id, &docs, jsonl))
    else {
        panic!("not questions")
    };
    assert_eq!(read, jsonl);
    assert_eq!(read_docs, [("refund.txt".to_string(), PAGE.to_string())]);
    kinds += 1;

    let questions = vec![chunkscope_eval::Question {
        question: "How long?".into(),
        doc: "refund.txt".into(),
        answers: vec![(28, 34)],
    }];
    let built = chunkscope_wasm::eval::eval_request(&id, &docs, &questions, &config, 3);
    chunkscope_wasm::eval::by_model(&built, 5);
    let Ok(Request::Evaluate {
        docs: read_docs,
        questions: read_questions,
        config: read_config,
        top_k,
        retriever,
    }) = Request::read(&built)
    else {
        panic!("not an evaluation: {:?}", json_of(&built))
    };
    assert_eq!(read_docs, [("refund.txt".to_string(), PAGE.to_string())]);
    assert_eq!(
        (read_questions, read_config, top_k, retriever.as_deref()),
        (questions, config.clone(), 3, Some("model:5"))
    );
    kinds += 1;

    let doc = js(r#"{"name": "a.txt", "text": "one two"}"#);
    let built = chunkscope_wasm::corpus::corpus_request(
        &id,
        &js_sys::Array::of1(&doc),
        &config,
        Some("csv"),
    );
    let Ok(Request::Corpus {
        docs,
        config: read_config,
        export,
    }) = Request::read(&built)
    else {
        panic!("not a corpus: {:?}", json_of(&built))
    };
    let docs: Vec<_> = docs.collect();
    assert_eq!(docs, [Ok(("a.txt".to_string(), "one two".to_string()))]);
    assert_eq!((read_config, export), (config, Some(Export::Csv)));
    kinds += 1;

    assert_eq!(kinds, 6, "every kind of request");
}
