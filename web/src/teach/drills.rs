//! Two more ways to answer a practice exercise, both checked against the
//! engine's answer (the worker's split of the exercise): type the chunks'
//! lengths, and predict which separator cuts each piece of the recursion tree
//! that is too big. Also the generated exercises, one kind per difficulty.
//!
//! The checking is pure (tested natively); the component only draws it.

use crate::model::visible_label;
use crate::state::{Shared, Split};
use chunkscope::{Action, Config, Placement, Separator, Strategy};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// How hard a generated exercise is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difficulty {
    /// Fixed windows, sometimes with an overlap.
    Easy,
    /// Recursive on paragraphs, lines and words, short texts, no overlap.
    Medium,
    /// The lesson's separators with sentence ends, a long token that needs a
    /// hard cut, and where the separator goes at a cut.
    Hard,
}

impl Difficulty {
    /// Every level, easiest first.
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    /// The `practice-select` option value of its generated exercises.
    pub const fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "generated-easy",
            Difficulty::Medium => "generated-medium",
            Difficulty::Hard => "generated-hard",
        }
    }

    /// What the menu shows.
    pub const fn title(self) -> &'static str {
        match self {
            Difficulty::Easy => "Generated, easy: fixed windows",
            Difficulty::Medium => "Generated, medium: paragraphs, lines, words",
            Difficulty::Hard => "Generated, hard: sentences, hard cuts, placement",
        }
    }

    /// The level with this option value.
    pub fn parse(name: &str) -> Option<Difficulty> {
        Difficulty::ALL.into_iter().find(|d| d.name() == name)
    }
}

/// A repeatable stream of small numbers from a seed (a linear congruential
/// generator: it only has to give the same exercise for the same seed).
struct Dice(u32);

impl Dice {
    fn new(seed: u32, level: Difficulty) -> Dice {
        Dice(
            seed.wrapping_mul(2_654_435_761)
                .wrapping_add(level as u32 * 7_919 + 1),
        )
    }

    /// A number in `0..n`.
    fn roll(&mut self, n: u32) -> u32 {
        self.0 = self.0.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        (self.0 >> 16) % n
    }
}

const WORDS: [&str; 16] = [
    "refunds", "take", "five", "days", "orders", "ship", "fast", "we", "reply", "soon", "cards",
    "work", "cash", "is", "instant", "ok",
];

/// The exercise number `seed` at `level`: the same seed always gives the same
/// text and settings. Its answer is whatever the engine makes of them.
pub fn generated_at(level: Difficulty, seed: u32) -> (String, Config) {
    let mut dice = Dice::new(seed, level);
    let literal = |seps: &[&str]| seps.iter().map(|&s| Separator::literal(s)).collect();
    match level {
        Difficulty::Easy => {
            let len = 12 + dice.roll(14) as usize;
            let text: String = (0..len)
                .map(|i| char::from(b'a' + (i % 26) as u8))
                .collect();
            let size = 4 + dice.roll(5) as usize;
            let overlap = dice.roll(3).min(size as u32 - 1) as usize;
            (text, Config::fixed(size, overlap))
        }
        Difficulty::Medium => {
            let mut text = String::new();
            for i in 0..(6 + dice.roll(5)) {
                if i > 0 {
                    text.push_str(match dice.roll(6) {
                        0 => "\n\n",
                        1 | 2 => "\n",
                        _ => " ",
                    });
                }
                text.push_str(WORDS[dice.roll(16) as usize]);
            }
            let config = Config {
                strategy: Strategy::Recursive.into(),
                size: 12 + dice.roll(12) as usize,
                separators: literal(&["\n\n", "\n", " ", ""]),
                ..Config::default()
            };
            (text, config)
        }
        Difficulty::Hard => {
            let mut text = String::new();
            let words = 8 + dice.roll(6);
            let long = dice.roll(words);
            for i in 0..words {
                if i > 0 {
                    text.push_str(match dice.roll(8) {
                        0 => "\n\n",
                        1 => "\n",
                        2 | 3 => ". ",
                        _ => " ",
                    });
                }
                if i == long {
                    text.push_str("https://pay.example.com/r/4411");
                } else {
                    text.push_str(WORDS[dice.roll(16) as usize]);
                }
            }
            let placement = match dice.roll(3) {
                0 => Placement::Start,
                _ => Placement::End,
            };
            let config = Config {
                strategy: Strategy::Recursive.into(),
                size: 14 + dice.roll(16) as usize,
                separators: literal(&["\n\n", "\n", ". ", " ", ""]),
                placement,
                ..Config::default()
            };
            (text, config)
        }
    }
}

/// Reads typed lengths: whole numbers separated by spaces, commas or
/// semicolons. An empty answer or anything else is refused with a message.
pub fn parse_lengths(typed: &str) -> Result<Vec<usize>, String> {
    let words: Vec<&str> = typed
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        return Err("type the length of every chunk, in order, e.g. 13 20 31".into());
    }
    words
        .iter()
        .map(|w| {
            w.parse::<usize>()
                .map_err(|_| format!("“{w}” is not a length: type whole numbers like 13 20 31"))
        })
        .collect()
}

/// How typed lengths compare with the engine's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LengthCheck {
    /// All lengths right, and as many as there are chunks.
    pub ok: bool,
    /// What to tell the learner.
    pub message: String,
}

/// Compares `typed` with the engine's chunk lengths `expected`.
pub fn check_lengths(expected: &[usize], typed: &[usize]) -> LengthCheck {
    let wrong = expected.iter().zip(typed).position(|(e, t)| e != t);
    let (ok, message) = match wrong {
        Some(k) => (
            false,
            format!(
                "chunk {} is {} chars, not {}; the lengths before it are right",
                k + 1,
                expected[k],
                typed[k]
            ),
        ),
        None if typed.len() < expected.len() => (
            false,
            format!(
                "the first {} are right, but there are {} chunks",
                typed.len(),
                expected.len()
            ),
        ),
        None if typed.len() > expected.len() => (
            false,
            format!(
                "all {} chunks are right, but there are only {}: {} too many",
                expected.len(),
                expected.len(),
                typed.len() - expected.len()
            ),
        ),
        None => (
            true,
            format!("right: {} chunks of {}", expected.len(), join(expected)),
        ),
    };
    LengthCheck { ok, message }
}

fn join(lens: &[usize]) -> String {
    lens.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// One piece of the recursion tree that was too big: which separator cut it?
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// Its level in the tree (the trace's depth: 1 is the whole text).
    pub level: usize,
    /// Its length in chars.
    pub len: usize,
    /// The start of its text.
    pub preview: String,
    /// The answer: the index of the separator that cut it, or `None` when the
    /// list ran out and it was cut hard.
    pub answer: Option<usize>,
}

/// The questions of a split, in the order the engine met the pieces, from its
/// trace (recursive strategies only; a fixed split has no tree to ask about).
pub fn questions(split: &Split) -> Vec<Question> {
    let text = &*split.text;
    split
        .output
        .trace
        .nodes
        .iter()
        .filter_map(|n| {
            let answer = match n.action {
                Action::Split { separator, .. } => Some(separator),
                Action::HardCut { separator, .. } => separator,
                _ => return None,
            };
            let piece = n.span.text(text);
            Some(Question {
                level: n.depth,
                len: piece.chars().count(),
                preview: crate::model::preview(piece, 28),
                answer,
            })
        })
        .collect()
}

/// A guess's option value: a separator's index, or `none` for "the list ran
/// out: hard cut".
fn value(answer: Option<usize>) -> String {
    answer.map_or("none".into(), |i| i.to_string())
}

/// Counts right guesses (option values; `""` = not answered).
pub fn check_levels(questions: &[Question], guesses: &[String]) -> usize {
    questions
        .iter()
        .zip(guesses)
        .filter(|(q, g)| value(q.answer) == **g)
        .count()
}

/// The drills' properties: the engine's answer to the exercise on screen.
#[derive(Properties, PartialEq)]
pub struct DrillsProps {
    /// The worker's split of the exercise.
    pub split: Shared,
}

/// Typing the lengths, and predicting the separator at each level.
#[function_component]
pub fn Drills(props: &DrillsProps) -> Html {
    let split = &props.split.0;
    let typed = use_state(String::new);
    let length_result = use_state(|| None::<Result<LengthCheck, String>>);
    let qs = questions(split);
    let guesses = use_state(|| vec![String::new(); qs.len()]);
    let levels_checked = use_state(|| false);
    let expected: Vec<usize> = split.chunk_chars.iter().map(|&(a, b)| b - a).collect();
    let on_typed = {
        let (typed, length_result) = (typed.clone(), length_result.clone());
        Callback::from(move |e: InputEvent| {
            typed.set(e.target_unchecked_into::<HtmlInputElement>().value());
            length_result.set(None);
        })
    };
    let check = {
        let (typed, length_result) = (typed.clone(), length_result.clone());
        Callback::from(move |_: MouseEvent| {
            length_result.set(Some(
                parse_lengths(&typed).map(|t| check_lengths(&expected, &t)),
            ));
        })
    };
    let options: Vec<(String, String)> = split
        .separators
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.is_hard_cut())
        .map(|(i, s)| (i.to_string(), format!("“{}”", visible_label(s))))
        .chain(
            split
                .separators
                .iter()
                .position(Separator::is_hard_cut)
                .map(|i| {
                    (
                        i.to_string(),
                        "\"\" (a hard cut, as the list says)".to_string(),
                    )
                }),
        )
        .chain(std::iter::once((
            "none".to_string(),
            "none left: a hard cut".to_string(),
        )))
        .collect();
    let guess = |k: usize| {
        let (guesses, levels_checked) = (guesses.clone(), levels_checked.clone());
        Callback::from(move |e: Event| {
            let mut g = (*guesses).clone();
            if let Some(slot) = g.get_mut(k) {
                *slot = e.target_unchecked_into::<HtmlSelectElement>().value();
            }
            guesses.set(g);
            levels_checked.set(false);
        })
    };
    let check_tree = {
        let levels_checked = levels_checked.clone();
        Callback::from(move |_: MouseEvent| levels_checked.set(true))
    };
    let right = check_levels(&qs, &guesses);
    let label_of = |answer: Option<usize>| {
        options
            .iter()
            .find(|(v, _)| *v == value(answer))
            .map_or(String::new(), |(_, l)| l.clone())
    };
    html! {
        <div class="drills">
            <h3>{"Or answer with the lengths"}</h3>
            <div class="practice-row">
                <label class="grow">{"Length of each chunk, in order (chars)"}
                    <input type="text" data-testid="practice-lengths" inputmode="numeric"
                        placeholder="e.g. 13 20 31" value={(*typed).clone()} oninput={on_typed} />
                </label>
                <button type="button" data-testid="practice-lengths-check" onclick={check}>{"Check the lengths"}</button>
            </div>
            if let Some(r) = &*length_result {
                { match r {
                    Ok(c) => html! {
                        <p class={classes!("drill-result", if c.ok { "ok-line" } else { "bad-line" })}
                            data-testid="practice-lengths-result" data-ok={c.ok.to_string()} role="status">
                            {format!("{} {}", if c.ok { "✓" } else { "✗" }, c.message)}
                        </p>
                    },
                    Err(e) => html! {
                        <p class="drill-result bad-line" data-testid="practice-lengths-result" data-ok="false" role="status">{e.clone()}</p>
                    },
                }}
            }
            if !qs.is_empty() {
                <h3>{"Which separator fires at each level?"}</h3>
                <p class="muted">{"Each piece that is too big is cut with the first separator in the list that occurs in it (among those its level may still use)."}</p>
                <ol class="drill-levels">
                    { for qs.iter().enumerate().map(|(k, q)| {
                        let g = guesses.get(k).cloned().unwrap_or_default();
                        let verdict = (*levels_checked).then(|| g == value(q.answer));
                        html! {
                            <li data-testid="practice-level" data-level={q.level.to_string()} data-len={q.len.to_string()}
                                data-ok={verdict.map(|v| v.to_string())}>
                                <span>{format!("Level {}: the piece of {} chars “{}”", q.level, q.len, q.preview)}</span>
                                <select data-testid="practice-level-guess" aria-label={format!("separator at level {}", q.level)}
                                    onchange={guess(k)}>
                                    <option value="" selected={g.is_empty()}>{"which separator?"}</option>
                                    { for options.iter().map(|(v, l)| html! {
                                        <option value={v.clone()} selected={*v == g}>{l.clone()}</option>
                                    })}
                                </select>
                                if verdict == Some(false) {
                                    <span class="bad-line">{format!(" ✗ it is {}", label_of(q.answer))}</span>
                                } else if verdict == Some(true) {
                                    <span class="ok-line">{" ✓"}</span>
                                }
                            </li>
                        }
                    })}
                </ol>
                <div class="practice-row">
                    <button type="button" data-testid="practice-levels-check" onclick={check_tree}>{"Check the levels"}</button>
                    if *levels_checked {
                        <span class="practice-score" data-testid="practice-levels-score"
                            data-right={right.to_string()} data-total={qs.len().to_string()}>
                            {format!("{right} of {} right", qs.len())}
                        </span>
                    }
                </div>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text: &str, config: Config) -> Split {
        Split::now(text.into(), config).unwrap()
    }

    const REFUND: &str = "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\nCOD orders get store credit.\n\nContact us 24x7.";

    fn seed_config(size: usize) -> Config {
        Config::recursive(size).with_separators(["\n\n", "\n", ". ", " ", ""])
    }

    #[test]
    fn lengths_are_read_and_checked_against_the_engine() {
        let s = split(REFUND, seed_config(40));
        let expected: Vec<usize> = s.chunk_chars.iter().map(|&(a, b)| b - a).collect();
        assert_eq!(expected, [13, 20, 31, 28, 16]);
        let typed = parse_lengths("13, 20 31;28 16").unwrap();
        assert_eq!(
            check_lengths(&expected, &typed),
            LengthCheck {
                ok: true,
                message: "right: 5 chunks of 13, 20, 31, 28, 16".into()
            }
        );
        let c = check_lengths(&expected, &[13, 20, 30, 28, 16]);
        assert_eq!(
            c.message,
            "chunk 3 is 31 chars, not 30; the lengths before it are right"
        );
        assert!(!c.ok);
        assert_eq!(
            check_lengths(&expected, &[13, 20]).message,
            "the first 2 are right, but there are 5 chunks"
        );
        assert_eq!(
            check_lengths(&expected, &[13, 20, 31, 28, 16, 1]).message,
            "all 5 chunks are right, but there are only 5: 1 too many"
        );
        assert_eq!(
            parse_lengths("13 x").unwrap_err(),
            "“x” is not a length: type whole numbers like 13 20 31"
        );
        assert!(parse_lengths("  ").is_err());
        assert!(parse_lengths("-3").is_err());
    }

    #[test]
    fn the_refund_tree_asks_for_the_blank_line_the_newline_and_the_sentence_end() {
        let s = split(REFUND, seed_config(40));
        let qs = questions(&s);
        let asked: Vec<(usize, usize, Option<usize>)> =
            qs.iter().map(|q| (q.level, q.len, q.answer)).collect();
        // The lesson's table: level 1 the blank line (the whole page), level 2
        // the newline (the 81-char paragraph), level 3 ". " (its 52-char line).
        assert_eq!(
            asked,
            [(1, 114, Some(0)), (2, 81, Some(1)), (3, 52, Some(2))]
        );
        let guesses: Vec<String> = ["0", "1", "3"].map(String::from).to_vec();
        assert_eq!(check_levels(&qs, &guesses), 2);
        assert_eq!(check_levels(&qs, &[]), 0);
    }

    #[test]
    fn a_hard_cut_when_the_list_runs_out_is_answered_none() {
        let config = Config::recursive(6).with_separators(["\n", " "]);
        let s = split("abcdefghijklmnop", config);
        let qs = questions(&s);
        assert_eq!(qs.len(), 1);
        assert_eq!(qs[0].answer, None);
        assert_eq!(check_levels(&qs, &["none".to_string()]), 1);
        // A fixed split has no tree to ask about.
        assert!(questions(&split("abcdefghij", Config::fixed(4, 1))).is_empty());
    }

    #[test]
    fn generated_exercises_repeat_and_differ_by_level() {
        let mut compared = 0;
        for level in Difficulty::ALL {
            assert_eq!(Difficulty::parse(level.name()), Some(level));
            for seed in 1..60 {
                let (text, config) = generated_at(level, seed);
                assert_eq!(generated_at(level, seed), (text.clone(), config.clone()));
                let s = split(&text, config.clone());
                assert!(!s.output.chunks.is_empty());
                let qs = questions(&s);
                match level {
                    Difficulty::Easy => {
                        assert_eq!(config.kind(), Strategy::Fixed);
                        assert!(qs.is_empty());
                    }
                    Difficulty::Medium | Difficulty::Hard => {
                        assert_eq!(config.kind(), Strategy::Recursive);
                        assert!(!qs.is_empty(), "{level:?} {seed}: {text:?} fits whole");
                    }
                }
                compared += 1;
            }
        }
        assert_eq!(compared, 177);
        // Exact values for one seed per level.
        let (text, config) = generated_at(Difficulty::Easy, 1);
        assert_eq!(text, "abcdefghijklmnopqrstu");
        assert_eq!((config.size, config.overlap), (6, 0));
        let (text, config) = generated_at(Difficulty::Medium, 1);
        assert_eq!(text, "cash\norders\nis\nsoon\nfive five\ntake fast we");
        assert_eq!(config.size, 22);
        let (text, config) = generated_at(Difficulty::Hard, 1);
        assert_eq!(
            text,
            "https://pay.example.com/r/4411 reply\nfive five\n\nfive take. orders. refunds. fast"
        );
        assert_eq!((config.size, config.placement), (16, Placement::End));
    }
}
