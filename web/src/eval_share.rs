//! Evaluate mode in a link: the shipped set, top-k, the configurations and
//! (when they were imported or written here, and small enough) the
//! questions, compressed after `#e=` like the explore link. The documents of
//! a corpus of one's own are not put in a link (a link is not a way to
//! upload a corpus): such a link carries the configurations and questions,
//! and opens on the refund set, saying so.

use crate::share::{base64url, from_base64url};
use crate::state::eval::{reduce, set, EvalAction, EvalConfig, EvalState, Source, SETS};
use chunkscope::{escape, presets, unescape, Strategy, Unit};
use chunkscope_eval::Question;

const MAGIC: &str = "chunkscope eval 1";
/// The most a link may inflate to.
const MAX_BYTES: usize = 1 << 20;
/// Questions whose lines add up to more than this stay out of a link (it
/// would be too long to paste); the link says to import them from a file.
pub const MAX_QUESTION_BYTES: usize = 16 * 1024;

/// What a link carries, read.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalLink {
    /// The shipped set.
    pub set: &'static str,
    /// Top-k.
    pub top_k: usize,
    /// The configurations.
    pub configs: Vec<EvalConfig>,
    /// The questions, when the link carries them (else the set's).
    pub questions: Option<Vec<Question>>,
    /// Whether the results were retrieved by a static model. The model is
    /// never in a link: the page says the results need it.
    pub by_model: bool,
}

/// The link fragment (`e=…`, without `#`) for `state`, and whether the
/// questions had to be left out.
pub fn encode(state: &EvalState) -> (String, bool) {
    let mut plain = format!(
        "{MAGIC}\nset={}\ntop_k={}\n",
        state.set.unwrap_or("refund"),
        state.top_k
    );
    if state.by_model {
        plain.push_str("retriever=model\n");
    }
    for c in &state.configs {
        plain.push_str(&format!(
            "config={},{},{},{},{}\n",
            c.strategy.name(),
            escape(c.size.trim()),
            escape(c.overlap.trim()),
            c.unit.name(),
            c.separators
        ));
    }
    let mut left_out = false;
    if !matches!(state.source, Source::Shipped(_)) {
        let mut lines = String::new();
        for q in state.questions.iter() {
            let answers: Vec<String> = q.answers.iter().map(|(s, e)| format!("{s}-{e}")).collect();
            lines.push_str(&format!(
                "q={}\t{}\t{}\n",
                answers.join(","),
                escape(&q.doc),
                escape(&q.question)
            ));
        }
        if lines.len() <= MAX_QUESTION_BYTES {
            plain.push_str("questions\n");
            plain.push_str(&lines);
        } else {
            left_out = true;
        }
    }
    let packed = miniz_oxide::deflate::compress_to_vec(plain.as_bytes(), 9);
    (format!("e={}", base64url(&packed)), left_out)
}

/// Reads a fragment made by [`encode`]; `Ok(None)` when it is not one.
pub fn decode(fragment: &str) -> Result<Option<EvalLink>, String> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let Some(data) = fragment.strip_prefix("e=") else {
        return Ok(None);
    };
    let packed = from_base64url(data).ok_or("the link is not valid base64")?;
    let plain = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_BYTES)
        .map_err(|_| "the link is damaged or too large to open")?;
    let plain = String::from_utf8(plain).map_err(|_| "the link is not UTF-8")?;
    let mut lines = plain.lines();
    if lines.next() != Some(MAGIC) {
        return Err("the link is not an evaluation of this version".into());
    }
    let mut link = EvalLink {
        set: "refund",
        top_k: 1,
        configs: Vec::new(),
        questions: None,
        by_model: false,
    };
    for line in lines {
        if line == "questions" {
            link.questions = Some(Vec::new());
            continue;
        }
        let (key, value) = line
            .split_once('=')
            .ok_or(format!("unreadable line {line:?}"))?;
        match key {
            "set" => {
                link.set = SETS
                    .iter()
                    .find(|s| s.0 == value)
                    .map(|s| s.0)
                    .ok_or(format!("no question set {value:?}"))?
            }
            "retriever" if value == "model" => link.by_model = true,
            "top_k" => {
                link.top_k = value
                    .parse()
                    .ok()
                    .filter(|k| (1..=10).contains(k))
                    .ok_or(format!("top-k {value:?} is not 1 to 10"))?
            }
            "config" => {
                let parts: Vec<&str> = value.split(',').collect();
                let [strategy, size, overlap, unit, separators] = parts[..] else {
                    return Err(format!("unreadable configuration {value:?}"));
                };
                link.configs.push(EvalConfig {
                    id: link.configs.len() as u32,
                    strategy: strategy.parse::<Strategy>()?,
                    size: unescape(size)?,
                    overlap: unescape(overlap)?,
                    unit: unit.parse::<Unit>()?,
                    separators: presets::SEPARATOR_PRESETS
                        .into_iter()
                        .find(|p| *p == separators)
                        .ok_or(format!("no separator preset {separators:?}"))?,
                });
            }
            "q" => {
                let mut fields = value.splitn(3, '\t');
                let (Some(spans), Some(doc), Some(question)) =
                    (fields.next(), fields.next(), fields.next())
                else {
                    return Err(format!("unreadable question {value:?}"));
                };
                let answers = spans
                    .split(',')
                    .map(|a| {
                        let (s, e) = a.split_once('-')?;
                        let (s, e) = (s.parse().ok()?, e.parse().ok()?);
                        (s < e).then_some((s, e))
                    })
                    .collect::<Option<Vec<(usize, usize)>>>()
                    .ok_or(format!("unreadable answer spans {spans:?}"))?;
                link.questions.get_or_insert_with(Vec::new).push(Question {
                    question: unescape(question)?,
                    doc: unescape(doc)?,
                    answers,
                });
            }
            _ => return Err(format!("unknown field {key:?}")),
        }
    }
    Ok(Some(link))
}

/// The state a link describes.
pub fn from_link(link: EvalLink) -> EvalState {
    let mut state = reduce(&EvalState::default(), EvalAction::ChooseSet(link.set));
    state = reduce(&state, EvalAction::SetConfigs(link.configs));
    state = reduce(&state, EvalAction::SetTopK(link.top_k));
    state = reduce(&state, EvalAction::SetByModel(link.by_model));
    if let Some(questions) = link.questions {
        // Answers are checked against the set's document: one outside it
        // is an error in that configuration's row, never a panic.
        let (doc, text, _) = set(link.set).expect("a link's set is shipped");
        let len = text.chars().count();
        if questions
            .iter()
            .all(|q| q.doc == doc && q.answers.iter().all(|&(_, e)| e <= len))
        {
            state = reduce(
                &state,
                EvalAction::QuestionsRead {
                    questions,
                    source: Source::Edited,
                },
            );
        } else {
            state.import_error = Some(format!("the link's questions are not about {doc}"));
        }
    }
    state
}

/// Evaluate mode's first state: a link's, or the refund set.
pub fn start() -> EvalState {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    match decode(&hash) {
        Ok(Some(link)) => from_link(link),
        Ok(None) => EvalState::default(),
        Err(why) => EvalState {
            import_error: Some(format!("the link could not be opened ({why})")),
            ..EvalState::default()
        },
    }
}

/// Whether the page was opened on an evaluation link.
pub fn opened_on_link() -> bool {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .is_some_and(|h| h.starts_with("#e="))
}

/// Puts the evaluation in the address bar and copies the link; says what
/// it holds.
pub fn share(state: &EvalState) -> String {
    let (fragment, left_out) = encode(state);
    let Some(window) = web_sys::window() else {
        return String::new();
    };
    let hash = format!("#{fragment}");
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&hash));
    }
    let url = window.location().href().unwrap_or(hash);
    let _ = window.navigator().clipboard().write_text(&url);
    let mut said = format!(
        "Link copied ({} KB): the question set, top-k and {} configuration(s).",
        url.len().div_ceil(1024),
        state.configs.len()
    );
    if left_out {
        said.push_str(" The questions are over 16 KB, so the link leaves them out: export them and share the file.");
    } else if state.set.is_none() {
        said.push_str(" Your documents are not in the link: it opens on the refund set.");
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_gives_back_the_configurations_top_k_and_written_questions() {
        let mut state = reduce(&EvalState::default(), EvalAction::ChooseSet("article"));
        state = reduce(&state, EvalAction::AddConfig);
        state = reduce(
            &state,
            EvalAction::EditConfig(2, crate::state::eval::ConfigEdit::Size("200".into())),
        );
        state = reduce(&state, EvalAction::SetTopK(3));
        state = reduce(
            &state,
            EvalAction::AddQuestion(Question {
                question: "What is chunking?\tTabs, too".into(),
                doc: "article.txt".into(),
                answers: vec![(323, 401), (500, 510)],
            }),
        );
        let (fragment, left_out) = encode(&state);
        assert!(!left_out);
        let link = decode(&fragment).unwrap().unwrap();
        assert_eq!(link.set, "article");
        assert_eq!(link.top_k, 3);
        assert_eq!(link.configs, state.configs);
        assert_eq!(link.questions.as_deref(), Some(&state.questions[..]));
        let opened = from_link(link);
        assert_eq!(opened.configs, state.configs);
        assert_eq!(opened.questions, state.questions);
        assert_eq!(opened.requests().len(), 3);
        assert!(!opened.by_model);
    }

    #[test]
    fn a_link_says_the_model_retrieved_but_never_carries_it() {
        let state = reduce(&EvalState::default(), EvalAction::SetByModel(true));
        let (fragment, _) = encode(&state);
        let packed = from_base64url(&fragment[2..]).unwrap();
        let plain =
            String::from_utf8(miniz_oxide::inflate::decompress_to_vec(&packed).unwrap()).unwrap();
        assert!(plain.contains("retriever=model\n"), "{plain}");
        let link = decode(&fragment).unwrap().unwrap();
        assert!(link.by_model);
        assert!(from_link(link).by_model);
    }

    #[test]
    fn shipped_questions_stay_out_and_big_ones_are_left_out() {
        let state = EvalState::default();
        let (fragment, left_out) = encode(&state);
        assert!(!left_out);
        assert_eq!(decode(&fragment).unwrap().unwrap().questions, None);
        let many = (0..400)
            .map(|i| Question {
                question: format!("question number {i} about the refund page"),
                doc: "refund.txt".into(),
                answers: vec![(0, 10)],
            })
            .collect();
        let state = reduce(
            &state,
            EvalAction::QuestionsRead {
                questions: many,
                source: Source::File("big.jsonl".into()),
            },
        );
        let (fragment, left_out) = encode(&state);
        assert!(left_out);
        assert_eq!(decode(&fragment).unwrap().unwrap().questions, None);
    }

    #[test]
    fn bad_links_are_messages() {
        assert_eq!(decode("#s=abc"), Ok(None));
        assert!(decode("#e=!!").is_err());
        let packed = miniz_oxide::deflate::compress_to_vec(b"chunkscope eval 1\ntop_k=99\n", 9);
        let err = decode(&format!("e={}", base64url(&packed))).unwrap_err();
        assert!(err.contains("top-k"), "{err}");
    }
}
