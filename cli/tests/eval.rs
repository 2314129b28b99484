//! `chunkscope eval`, checked against the built binary: exact scores worked
//! out by hand on the lesson's refund page, and clear refusals.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_chunkscope");

const REFUND: &str = "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n\
                      COD orders get store credit.\n\nContact us 24x7.";

/// A scratch directory of this test's own, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chunkscope-eval-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn run(dir: &PathBuf, questions: &str, args: &[&str]) -> Output {
    std::fs::write(dir.join("refund.txt"), REFUND).unwrap();
    std::fs::write(dir.join("qa.jsonl"), questions).unwrap();
    Command::new(BIN)
        .current_dir(dir)
        .args(["eval", "--questions", "qa.jsonl"])
        .args(args)
        .output()
        .unwrap()
}

const SEED: [&str; 12] = [
    "--size", "40", "--sep", r"\n\n", "--sep", r"\n", "--sep", ". ", "--sep", " ", "--sep", "",
];

/// The lesson's chunks are 0..13 "Refund policy", 15..35 "Refunds take 5
/// days.", 36..67, 68..96 and 98..114. "How long do refunds take?" shares
/// "refunds" and "take" with chunk 1 only, so BM25 ranks it alone. Its
/// answer "5 days" (28..34) lies inside it: recall 1, precision 6/20.
/// "Who gets store credit?" shares "store" and "credit" with chunk 3
/// (68..96), which holds the answer 68..96 exactly: all three scores 1.
#[test]
fn scores_worked_out_by_hand() {
    let dir = scratch("exact");
    let qa = "{\"question\": \"How long do refunds take?\", \"doc\": \"refund.txt\", \"answers\": [{\"start\": 28, \"end\": 34, \"text\": \"5 days\"}]}\n\
              {\"question\": \"Who gets store credit?\", \"doc\": \"refund.txt\", \"answers\": [{\"start\": 68, \"end\": 96}]}\n";
    let mut args = SEED.to_vec();
    args.extend(["--top-k", "3", "refund.txt"]);
    let out = run(&dir, qa, &args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let q = &v["questions"];
    let chunks = |i: usize| -> Vec<(u64, u64)> {
        q[i]["retrieved"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["start"].as_u64().unwrap(), r["end"].as_u64().unwrap()))
            .collect()
    };
    assert_eq!(chunks(0), [(15, 35)]);
    assert_eq!(q[0]["recall"], 1.0);
    assert_eq!(q[0]["precision"], 6.0 / 20.0);
    assert_eq!(q[0]["iou"], 6.0 / 20.0);
    assert_eq!(chunks(1), [(68, 96)]);
    assert_eq!(
        (&q[1]["recall"], &q[1]["precision"], &q[1]["iou"]),
        (&1.0.into(), &1.0.into(), &1.0.into())
    );
    assert_eq!(v["mean"]["recall"], 1.0);
    assert_eq!(v["mean"]["precision"], (0.3 + 1.0) / 2.0);
    assert_eq!(v["mean"]["whole"], 1.0);
    assert_eq!(v["index"]["chunks"], 5);
    // 13 + 20 + 31 + 28 + 16 chars embedded.
    assert_eq!(v["index"]["units"], 108);
    assert_eq!(v["index"]["longest"], 31);
    assert_eq!(v["top_k"], 3);
    assert_eq!(v["retriever"]["k1"], 1.2);
    assert_eq!(v["config"]["size"], 40);
}

/// At size 10 the answer "Refunds take 5 days." (15..35) is cut in two:
/// "Refunds" 15..22 and "take 5" 23..29 and "days." 30..35.
#[test]
fn a_cut_answer_is_fragmented() {
    let dir = scratch("fragments");
    let qa = "{\"question\": \"How long do refunds take?\", \"doc\": \"refund.txt\", \"answers\": [{\"start\": 15, \"end\": 35}]}\n";
    let out = run(&dir, qa, &["--size", "10", "refund.txt"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["questions"][0]["whole"], 0.0);
    assert_eq!(v["questions"][0]["fragments"], 3.0);
}

#[test]
fn bad_input_is_refused_with_where_and_why() {
    let dir = scratch("bad");
    let refused = |qa: &str, args: &[&str]| {
        let out = run(&dir, qa, args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(out.stdout.is_empty());
        String::from_utf8(out.stderr).unwrap()
    };
    let good = "{\"question\": \"q\", \"doc\": \"refund.txt\", \"answers\": [{\"start\": 0, \"end\": 6}]}\n";
    assert_eq!(
        refused(
            &format!("{good}{{\"question\": \"q\", \"doc\": \"refund.txt\"}}\n"),
            &["refund.txt"]
        ),
        "chunkscope: qa.jsonl: line 2: \"answers\" must be a list of {\"start\", \"end\"}\n"
    );
    assert_eq!(
        refused(
            "{\"question\": \"q\", \"doc\": \"refund.txt\", \"answers\": [{\"start\": 100, \"end\": 200}]}\n",
            &["refund.txt"]
        ),
        "chunkscope: qa.jsonl: line 1: the answer 100..200 to \"q\" is outside refund.txt (114 chars)\n"
    );
    assert_eq!(
        refused(
            "{\"question\": \"q\", \"doc\": \"refund.txt\", \"answers\": [{\"start\": 0, \"end\": 6, \"text\": \"Refund\"}]}\n\
             {\"question\": \"q\", \"doc\": \"other.txt\", \"answers\": [{\"start\": 0, \"end\": 6}]}\n",
            &["refund.txt"]
        ),
        "chunkscope: qa.jsonl: line 2: a question names the document \"other.txt\", which is not among the 1 given\n"
    );
    assert_eq!(
        refused(good, &["--top-k", "0", "refund.txt"]),
        "chunkscope: top-k must be at least 1: no chunk retrieved scores 0 on every question\n"
    );
    assert_eq!(
        refused(good, &["--trace", "refund.txt"]),
        "chunkscope: eval prints one JSON object: --trace and --format do not apply\n"
    );
    assert_eq!(
        refused(good, &["--size", "4", "--overlap", "4", "refund.txt"])
            .lines()
            .count(),
        1
    );
}
