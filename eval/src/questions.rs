//! Questions with answer excerpts: the ground truth, as JSON Lines.
//!
//! One question per line:
//! `{"question": "…", "doc": "refund.txt", "answers": [{"start": 15, "end": 35}]}`
//! with char offsets into the document (half-open). An answer may also carry
//! its `text`, which is then checked against the document. Blank lines are
//! skipped; anything else that is not such an object is an error naming its
//! line.

use crate::CharSlicer;
use serde_json::{Map, Value};
use std::fmt;

/// A question and where its answer is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// The question, as a user would ask it.
    pub question: String,
    /// The name of the document the answer is in.
    pub doc: String,
    /// The answer excerpts: char ranges of the document, each non-empty.
    pub answers: Vec<(usize, usize)>,
}

/// What is wrong with a questions file, and on which line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuestionsError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for QuestionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for QuestionsError {}

/// Expected answer texts, kept aside until the documents are known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// The questions.
    pub questions: Vec<Question>,
    /// For each question, each answer's `text` if the line gave one.
    pub texts: Vec<Vec<Option<String>>>,
    /// Each question's line number.
    pub lines: Vec<usize>,
}

/// Reads a questions file.
pub fn parse_questions(jsonl: &str) -> Result<Parsed, QuestionsError> {
    let mut parsed = Parsed::default();
    for (i, line) in jsonl.lines().enumerate() {
        let number = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        let fail = |message: String| QuestionsError {
            line: number,
            message,
        };
        let value: Value =
            serde_json::from_str(line).map_err(|e| fail(format!("not JSON: {e}")))?;
        let Value::Object(object) = value else {
            return Err(fail(
                "expected an object {\"question\", \"doc\", \"answers\"}".into(),
            ));
        };
        let text_field = |name: &str| match object.get(name) {
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.clone()),
            Some(Value::String(_)) => Err(fail(format!("\"{name}\" is empty"))),
            Some(_) => Err(fail(format!("\"{name}\" must be a string"))),
            None => Err(fail(format!("\"{name}\" is missing"))),
        };
        let question = text_field("question")?;
        let doc = text_field("doc")?;
        let Some(Value::Array(list)) = object.get("answers") else {
            return Err(fail(
                "\"answers\" must be a list of {\"start\", \"end\"}".into(),
            ));
        };
        if list.is_empty() {
            return Err(fail(
                "\"answers\" is empty: a question needs at least one excerpt".into(),
            ));
        }
        let mut answers = Vec::with_capacity(list.len());
        let mut texts = Vec::with_capacity(list.len());
        for (j, answer) in list.iter().enumerate() {
            let Value::Object(a) = answer else {
                return Err(fail(format!(
                    "answer {j} must be an object {{\"start\", \"end\"}}"
                )));
            };
            let offset = |name: &str, a: &Map<String, Value>| {
                a.get(name)
                    .and_then(Value::as_u64)
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| {
                        fail(format!(
                            "answer {j}: \"{name}\" must be a char offset (a whole number ≥ 0)"
                        ))
                    })
            };
            let (start, end) = (offset("start", a)?, offset("end", a)?);
            if start >= end {
                return Err(fail(format!(
                    "answer {j}: start {start} is not before end {end} (offsets are half-open)"
                )));
            }
            answers.push((start, end));
            texts.push(match a.get("text") {
                None => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(_) => return Err(fail(format!("answer {j}: \"text\" must be a string"))),
            });
        }
        parsed.questions.push(Question {
            question,
            doc,
            answers,
        });
        parsed.texts.push(texts);
        parsed.lines.push(number);
    }
    Ok(parsed)
}

/// Checks `question`'s answers lie inside a document of `len` chars.
pub fn check_answers(question: &Question, len: usize) -> Result<(), String> {
    match question.answers.iter().find(|&&(_, e)| e > len) {
        Some(&(s, e)) => Err(format!(
            "the answer {s}..{e} to {:?} is outside {} ({len} chars)",
            question.question, question.doc
        )),
        None => Ok(()),
    }
}

/// Checks the answer texts a file gave against `text`, the document of
/// question `q`; the message names the line.
pub fn check_texts(parsed: &Parsed, q: usize, text: &str) -> Result<(), QuestionsError> {
    let chars = CharSlicer::new(text);
    let len = chars.bytes.len() - 1;
    let question = &parsed.questions[q];
    let line = parsed.lines[q];
    check_answers(question, len).map_err(|message| QuestionsError { line, message })?;
    for (&(s, e), want) in question.answers.iter().zip(&parsed.texts[q]) {
        if let Some(want) = want {
            let got = chars.slice(s, e);
            if got != want {
                return Err(QuestionsError {
                    line,
                    message: format!(
                        "the answer {s}..{e} reads {got:?} in {}, not {want:?}",
                        question.doc
                    ),
                });
            }
        }
    }
    Ok(())
}

/// Writes questions as JSON Lines, each answer with its text from `text_of`
/// (the document's text by name, when known).
pub fn to_jsonl<'a>(questions: &[Question], text_of: impl Fn(&str) -> Option<&'a str>) -> String {
    let mut out = String::new();
    for q in questions {
        let doc = text_of(&q.doc).map(CharSlicer::new);
        let answers: Vec<Value> = q
            .answers
            .iter()
            .map(|&(start, end)| {
                let mut a = Map::new();
                a.insert("start".into(), start.into());
                a.insert("end".into(), end.into());
                if let Some(d) = doc.as_ref().filter(|d| end < d.bytes.len()) {
                    a.insert("text".into(), d.slice(start, end).into());
                }
                Value::Object(a)
            })
            .collect();
        let mut line = Map::new();
        line.insert("question".into(), q.question.clone().into());
        line.insert("doc".into(), q.doc.clone().into());
        line.insert("answers".into(), Value::Array(answers));
        out.push_str(&Value::Object(line).to_string());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_questions_and_names_the_bad_line() {
        let file = "{\"question\": \"How long?\", \"doc\": \"refund.txt\", \"answers\": [{\"start\": 13, \"end\": 19, \"text\": \"5 days\"}]}\n\n\
                    {\"question\": \"Who?\", \"doc\": \"a.md\", \"answers\": [{\"start\": 0, \"end\": 2}, {\"start\": 4, \"end\": 9}]}\n";
        let parsed = parse_questions(file).unwrap();
        assert_eq!(parsed.questions.len(), 2);
        assert_eq!(parsed.questions[1].answers, [(0, 2), (4, 9)]);
        assert_eq!(parsed.lines, [1, 3]);
        assert_eq!(parsed.texts[0], [Some("5 days".to_string())]);

        let bad = |s: &str| parse_questions(s).unwrap_err().to_string();
        assert_eq!(
            bad("\n{\"question\": \"q\", \"doc\": \"d\", \"answers\": [{\"start\": 5, \"end\": 5}]}"),
            "line 2: answer 0: start 5 is not before end 5 (offsets are half-open)"
        );
        assert!(bad("{\"question\": \"q\"}").starts_with("line 1: \"doc\" is missing"));
        assert!(bad("[1]").contains("expected an object"));
        assert!(bad("{oops").starts_with("line 1: not JSON"));
        assert!(bad(
            "{\"question\": \"q\", \"doc\": \"d\", \"answers\": [{\"start\": -1, \"end\": 2}]}"
        )
        .contains("\"start\" must be a char offset"));
        assert!(
            bad("{\"question\": \"q\", \"doc\": \"d\", \"answers\": []}").contains("at least one")
        );
    }

    #[test]
    fn answer_texts_are_checked_against_the_document() {
        let text = "Refunds take 5 days. 退款需要五天。";
        let line = |s: usize, e: usize, t: &str| {
            format!("{{\"question\": \"q\", \"doc\": \"d\", \"answers\": [{{\"start\": {s}, \"end\": {e}, \"text\": {t:?}}}]}}")
        };
        let ok = parse_questions(&line(21, 27, "退款需要五天")).unwrap();
        assert_eq!(check_texts(&ok, 0, text), Ok(()));
        let wrong = parse_questions(&line(13, 19, "6 days")).unwrap();
        assert_eq!(
            check_texts(&wrong, 0, text).unwrap_err().to_string(),
            "line 1: the answer 13..19 reads \"5 days\" in d, not \"6 days\""
        );
        let outside = parse_questions(&line(20, 40, "x")).unwrap();
        assert!(check_texts(&outside, 0, text)
            .unwrap_err()
            .to_string()
            .contains("outside d (28 chars)"));
    }

    #[test]
    fn written_questions_read_back() {
        let questions = vec![Question {
            question: "How long?".into(),
            doc: "d".into(),
            answers: vec![(13, 19)],
        }];
        let text = "Refunds take 5 days.";
        let jsonl = to_jsonl(&questions, |_| Some(text));
        assert_eq!(
            jsonl,
            "{\"answers\":[{\"end\":19,\"start\":13,\"text\":\"5 days\"}],\"doc\":\"d\",\"question\":\"How long?\"}\n"
        );
        let back = parse_questions(&jsonl).unwrap();
        assert_eq!(back.questions, questions);
        assert_eq!(check_texts(&back, 0, text), Ok(()));
    }
}
