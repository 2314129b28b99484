//! The question sets shipped for the playground's example documents: every
//! answer is where its text says, and an evaluation over them gives what
//! arithmetic on the answers alone predicts.

use chunkscope_eval::questions::{check_texts, parse_questions};
use chunkscope_eval::{evaluate, Corpus, Document};

const SETS: [(&str, &str, &str); 3] = [
    (
        "refund.txt",
        include_str!("../../web/src/presets/refund.txt"),
        include_str!("../questions/refund.jsonl"),
    ),
    (
        "markdown.md",
        include_str!("../../web/src/presets/markdown.md"),
        include_str!("../questions/markdown.jsonl"),
    ),
    (
        "article.txt",
        include_str!("../../web/src/presets/article.txt"),
        include_str!("../questions/article.jsonl"),
    ),
];

#[test]
fn every_answer_is_where_its_text_says() {
    let mut checked = 0;
    for (name, text, qa) in SETS {
        let parsed = parse_questions(qa).unwrap();
        assert!(
            parsed.questions.len() >= 8,
            "{name}: {}",
            parsed.questions.len()
        );
        for (q, question) in parsed.questions.iter().enumerate() {
            assert_eq!(question.doc, name);
            assert!(
                parsed.texts[q].iter().all(Option::is_some),
                "{name}: line {}",
                parsed.lines[q]
            );
            check_texts(&parsed, q, text).unwrap();
            checked += question.answers.len();
        }
    }
    assert_eq!(checked, 8 + 11 + 13);
}

/// With each document as one chunk, retrieving the answer's document
/// recalls every answer, and precision is the answer's chars over all the
/// chars retrieved (its own document and any other that shares a term).
#[test]
fn one_chunk_per_document_scores_by_arithmetic() {
    let corpus = Corpus {
        documents: SETS
            .iter()
            .map(|&(name, text, _)| {
                let len = text.chars().count();
                Document {
                    name: name.into(),
                    text: text.into(),
                    chunks: vec![(0, len)],
                    units: vec![len],
                }
            })
            .collect(),
    };
    let mut compared = 0;
    for (d, &(_, text, qa)) in SETS.iter().enumerate() {
        let parsed = parse_questions(qa).unwrap();
        // Top-k 3 retrieves every document that shares a term with the
        // question; the answer's own document is among them.
        let result = evaluate(&corpus, &parsed.questions, 3).unwrap();
        let len = text.chars().count() as f64;
        for (q, r) in parsed.questions.iter().zip(&result.questions) {
            let answer: usize = q.answers.iter().map(|&(s, e)| e - s).sum();
            // Every shipped question shares a word with its own document.
            assert!(r.retrieved.iter().any(|h| h.doc == d), "{}", q.question);
            let retrieved: usize = r.retrieved.iter().map(|h| h.end - h.start).sum();
            assert_eq!(r.scores.recall, 1.0, "{}", q.question);
            assert_eq!(r.scores.precision, answer as f64 / retrieved as f64);
            assert_eq!(r.scores.iou, r.scores.precision);
            assert_eq!((r.whole, r.fragments), (1.0, 1.0));
            assert!(retrieved as f64 >= len);
            compared += 1;
        }
        assert_eq!(result.index.chunks, 3);
    }
    assert_eq!(compared, 32);
}
