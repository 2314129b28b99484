//! Retrieval by a model's vectors (`evaluate_dense`), worked by hand.

use chunkscope_eval::{evaluate, evaluate_dense, Corpus, Document, Question};

/// A two-word "model": a text's vector counts its "cat"s and its "tax"es.
fn embed(texts: &[&str]) -> Result<Vec<Vec<f64>>, String> {
    Ok(texts
        .iter()
        .map(|t| {
            let count = |w: &str| t.matches(w).count() as f64;
            vec![count("cat"), count("tax")]
        })
        .collect())
}

fn corpus() -> Corpus {
    // "cat cat." is 0..8, "tax tax." is 9..17.
    Corpus {
        documents: vec![Document {
            name: "d.txt".into(),
            text: "cat cat. tax tax.".into(),
            chunks: vec![(0, 8), (9, 17)],
            units: vec![8, 8],
        }],
    }
}

#[test]
fn chunks_are_ranked_by_cosine_and_scored_as_for_bm25() {
    let q = Question {
        question: "which cat?".into(),
        doc: "d.txt".into(),
        answers: vec![(0, 3)],
    };
    // q = (1, 0); chunk 0 = (2, 0): cosine 1; chunk 1 = (0, 2): cosine 0.
    let one = evaluate_dense(&corpus(), std::slice::from_ref(&q), 1, "counts", &embed).unwrap();
    let r = &one.questions[0];
    assert_eq!(r.retrieved.len(), 1);
    assert_eq!((r.retrieved[0].chunk, r.retrieved[0].score), (0, 1.0));
    // The answer's 3 chars inside the 8 retrieved.
    assert_eq!(
        (r.scores.recall, r.scores.precision, r.scores.iou),
        (1.0, 3.0 / 8.0, 3.0 / 8.0)
    );
    assert_eq!(one.model.as_deref(), Some("counts"));
    assert_eq!((one.index.chunks, one.index.units), (2, 16));

    // Top 2: chunk 1 comes second with cosine 0 (it has a direction), and
    // its 8 chars dilute precision and IoU: 3 of 16.
    let two = evaluate_dense(&corpus(), std::slice::from_ref(&q), 2, "counts", &embed).unwrap();
    let r = &two.questions[0];
    let ranked: Vec<(usize, f64)> = r.retrieved.iter().map(|h| (h.chunk, h.score)).collect();
    assert_eq!(ranked, [(0, 1.0), (1, 0.0)]);
    assert_eq!(
        (r.scores.recall, r.scores.precision, r.scores.iou),
        (1.0, 3.0 / 16.0, 3.0 / 16.0)
    );

    // A question with no word the model knows retrieves nothing: all 0.
    let lost = Question {
        question: "which dog?".into(),
        ..q.clone()
    };
    let none = evaluate_dense(&corpus(), &[lost], 2, "counts", &embed).unwrap();
    assert!(none.questions[0].retrieved.is_empty());
    assert_eq!(none.mean.recall, 0.0);

    // BM25 on the same corpus reports no model.
    assert_eq!(evaluate(&corpus(), &[q], 1).unwrap().model, None);
}

#[test]
fn a_model_that_fails_or_miscounts_is_an_error() {
    let q = Question {
        question: "cat".into(),
        doc: "d.txt".into(),
        answers: vec![(0, 3)],
    };
    let failing = |_: &[&str]| -> Result<Vec<Vec<f64>>, String> { Err("no".into()) };
    assert_eq!(
        evaluate_dense(&corpus(), std::slice::from_ref(&q), 1, "m", &failing).unwrap_err(),
        "no"
    );
    let short = |_: &[&str]| -> Result<Vec<Vec<f64>>, String> { Ok(vec![vec![1.0]]) };
    assert!(evaluate_dense(&corpus(), &[q], 1, "m", &short).is_err());
}
