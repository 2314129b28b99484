//! The lessons' worked examples: each loads into the playground with one pick,
//! and the page says whether what the engine produced is what the lesson says,
//! with the lesson's expected output quoted next to ours.

use crate::share::Snapshot;
use crate::state::{Action, Settings, State, View};
use chunkscope::{Action as Step, Placement, Separator, Unit};
use chunkscope_teach::bugs::{self, Bug};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// What a lesson says the output is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// These chunk texts, in order.
    Texts(&'static [&'static str]),
    /// Chunks at these char spans (half-open).
    Spans(&'static [(usize, usize)]),
    /// These chunk texts from seed 002's eleven lines, which have no merge pass
    /// (run by the bug gallery's variant, since the engine always merges).
    WithoutMerge(&'static [&'static str]),
}

/// One worked example of the seeds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lesson {
    /// The option value of `lesson-select`.
    pub name: &'static str,
    /// What the menu shows.
    pub title: &'static str,
    /// Where it comes from and what it shows.
    pub about: &'static str,
    /// Fixed or recursive.
    pub view: View,
    pub size: usize,
    pub overlap: usize,
    pub separators: &'static [&'static str],
    /// What the lesson says comes out.
    pub expected: Expected,
    /// Whether the refund page's recursion tree must match too.
    pub tree: bool,
}

const REFUND_CHUNKS: &[&str] = &[
    "Refund policy",
    "Refunds take 5 days.",
    "They go to the original UPI id.",
    "COD orders get store credit.",
    "Contact us 24x7.",
];
const SEED: &[&str] = &["\n\n", "\n", ". ", " ", ""];
const SEED_002: &[&str] = &["\n\n", "\n", ""];

/// Every worked example, in the order the lessons give them.
pub const LESSONS: [Lesson; 5] = [
    Lesson {
        name: "refund",
        title: "Refund page at size 40 (from the lesson)",
        about: "Blank lines give 3 pieces, the middle one 81 chars; a newline splits it, and its 52-char first line is split at the sentence end into 20 and 31. Space and hard cut are never needed.",
        view: View::Recursive,
        size: 40,
        overlap: 0,
        separators: SEED,
        expected: Expected::Texts(REFUND_CHUNKS),
        tree: true,
    },
    Lesson {
        name: "fixed",
        title: "fixed(\"abcdefghij\", 4, 1) (from the lesson)",
        about: "Windows of 4 stepping 3. The loop stops once a window reaches the end, so there is no lone \"j\".",
        view: View::Fixed,
        size: 4,
        overlap: 1,
        separators: SEED,
        expected: Expected::Texts(&["abcd", "defg", "ghij"]),
        tree: false,
    },
    Lesson {
        name: "windows",
        title: "L=250, S=100, O=20 (from the lesson on windows)",
        about: "The stride is 80, so windows start at 0, 80 and 160, and the last one ends at the end of the text.",
        view: View::Fixed,
        size: 100,
        overlap: 20,
        separators: SEED,
        expected: Expected::Spans(&[(0, 100), (80, 180), (160, 250)]),
        tree: false,
    },
    Lesson {
        name: "seed002-merge",
        title: "The lesson's recursion example, with a merge pass",
        about: "split(\"aa\\n\\nbbb\\ncccccc\", 3, [\"\\n\\n\", \"\\n\", \"\"]) with small pieces packed back up to the size.",
        view: View::Recursive,
        size: 3,
        overlap: 0,
        separators: SEED_002,
        expected: Expected::Texts(&["aa", "bbb", "ccc", "ccc"]),
        tree: false,
    },
    Lesson {
        name: "seed002-no-merge",
        title: "The lesson's recursion example, its 11 lines as written (no merge)",
        about: "The same call without a merge pass: every character of \"cccccc\" becomes a chunk of its own. That is why splitters merge.",
        view: View::Recursive,
        size: 3,
        overlap: 0,
        separators: SEED_002,
        expected: Expected::WithoutMerge(&["aa", "bbb", "c", "c", "c", "c", "c", "c"]),
        tree: false,
    },
];

impl Lesson {
    /// The lesson with this option value.
    pub fn find(name: &str) -> Option<&'static Lesson> {
        LESSONS.iter().find(|l| l.name == name)
    }

    /// The lesson's text.
    pub fn text(&self) -> String {
        match self.name {
            "refund" => crate::presets::refund().to_string(),
            "fixed" => "abcdefghij".into(),
            "windows" => "abcdefghijklmnopqrstuvwxy".repeat(10),
            _ => "aa\n\nbbb\ncccccc".into(),
        }
    }

    /// The playground set up for it.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            text: self.text().into(),
            view: self.view,
            settings: Settings {
                size: self.size.to_string(),
                overlap: self.overlap.to_string(),
                unit: Unit::Chars,
                separators: self
                    .separators
                    .iter()
                    .map(|&s| Separator::literal(s))
                    .collect(),
                placement: Placement::End,
                trim: true,
                each_line: false,
                heading_prefix: false,
            },
        }
    }

    /// The expected output as the learner reads it.
    pub fn expected_lines(&self) -> Vec<String> {
        match self.expected {
            Expected::Texts(t) | Expected::WithoutMerge(t) => t.iter().map(|t| show(t)).collect(),
            Expected::Spans(s) => s.iter().map(|(a, b)| format!("[{a}, {b})")).collect(),
        }
    }
}

fn show(text: &str) -> String {
    format!("“{}”", text.replace('\n', "↵"))
}

/// How the playground's result compares with the lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether everything the lesson states holds.
    pub ok: bool,
    /// Our output, written like the expected one.
    pub ours: Vec<String>,
    /// What differs, or what was checked.
    pub notes: Vec<String>,
}

/// Compares the playground's current result with `lesson`. Pure: reads the
/// split the page shows (and, without a merge pass, the bug gallery's variant).
pub fn verdict(lesson: &Lesson, state: &State) -> Verdict {
    let Some(split) = state
        .split(lesson.view.strategies()[0])
        .filter(|_| state.error.is_none())
    else {
        return Verdict {
            ok: false,
            ours: vec![],
            notes: vec!["no result: the settings cannot split".into()],
        };
    };
    let text = &*split.text;
    let mut notes = Vec::new();
    let ours: Vec<String> = match lesson.expected {
        Expected::Texts(_) => split
            .output
            .chunks
            .iter()
            .map(|c| show(c.text(text)))
            .collect(),
        Expected::Spans(_) => split
            .chunk_chars
            .iter()
            .map(|(a, b)| format!("[{a}, {b})"))
            .collect(),
        Expected::WithoutMerge(_) => {
            let run = bugs::run(Bug::NoMerge, text, &split.config);
            notes.push("run by the lesson's eleven lines (the bug gallery's no-merge variant); the playground below merges".into());
            run.chunks
                .iter()
                .map(|c| show(&c.rope.text(text)))
                .collect()
        }
    };
    let mut ok = ours == lesson.expected_lines();
    if !ok {
        notes.push("the chunks differ from the lesson's".into());
    }
    if lesson.tree {
        match refund_tree(split) {
            Ok(n) => notes.push(n),
            Err(n) => {
                ok = false;
                notes.push(n);
            }
        }
    }
    Verdict { ok, ours, notes }
}

/// The refund page's tree as seed 000's table gives it.
fn refund_tree(split: &crate::state::Split) -> Result<String, String> {
    let nodes = &split.output.trace.nodes;
    let seps = &split.separators;
    let by = |n: &chunkscope::Node| match n.action {
        Step::Split { separator, .. } => seps.get(separator).map(|s| s.pattern.as_str()),
        _ => None,
    };
    let root = nodes.first().ok_or("no tree")?;
    if by(root) != Some("\n\n") || root.children.len() != 3 {
        return Err("level 1 should split on the blank line into 3 pieces".into());
    }
    let middle = &nodes[root.children[1]];
    if middle.len != 81 || !middle.too_big || by(middle) != Some("\n") {
        return Err(
            "level 2: the middle piece should be 81 chars, too big, split by the newline".into(),
        );
    }
    let line = middle
        .children
        .first()
        .map(|&c| &nodes[c])
        .ok_or("no level 3")?;
    if line.len != 52 || by(line) != Some(". ") {
        return Err("level 3: the 52-char line should be split at the sentence end".into());
    }
    let leaves: Vec<usize> = line.children.iter().map(|&c| nodes[c].len).collect();
    if leaves != [20, 31] {
        return Err(format!(
            "level 3 should give chunks of 20 and 31, gives {leaves:?}"
        ));
    }
    let deeper = nodes
        .iter()
        .any(|n| matches!(by(n), Some(" ") | Some("")) || matches!(n.action, Step::HardCut { .. }));
    if deeper {
        return Err("space or the hard cut was used, and the lesson needs neither".into());
    }
    Ok("tree: \\n\\n → 3 pieces (middle 81) · \\n on 81 → 52 too long · \". \" on 52 → 20 + 31 · space and hard cut unused".into())
}

#[derive(Properties, PartialEq)]
pub struct LessonsProps {
    pub state: State,
    pub dispatch: Callback<Action>,
}

/// The lesson picker and the comparison with the lesson.
#[function_component]
pub fn Lessons(props: &LessonsProps) -> Html {
    let picked = use_state(|| None::<&'static Lesson>);
    let onchange = {
        let (picked, dispatch) = (picked.clone(), props.dispatch.clone());
        Callback::from(move |e: Event| {
            let name = e.target_unchecked_into::<HtmlSelectElement>().value();
            let lesson = Lesson::find(&name);
            if let Some(l) = lesson {
                dispatch.emit(Action::Restore(l.snapshot()));
            }
            picked.set(lesson);
        })
    };
    let body = picked.map(|lesson| {
        let v = verdict(lesson, &props.state);
        // Until the worker answers, the split on screen is the one before the
        // lesson loaded: no verdict on it.
        let waiting = props
            .state
            .slots
            .get(lesson.view.strategies()[0])
            .pending
            .is_some();
        html! {
            <div class="lesson">
                <p class="muted">{lesson.about}</p>
                <div class="lesson-match" data-testid="lesson-match" data-ok={(v.ok && !waiting).to_string()}
                    data-pending={waiting.then_some("true")}>
                    <strong>{match (waiting, v.ok) {
                        (true, _) => "… splitting",
                        (false, true) => "✓ matches the lesson",
                        (false, false) => "✗ differs from the lesson",
                    }}</strong>
                </div>
                <div class="two-col">
                    <div>
                        <h4>{"The lesson says"}</h4>
                        <ol class="quoted" data-testid="lesson-expected">
                            { for lesson.expected_lines().into_iter().map(|l| html! { <li>{l}</li> }) }
                        </ol>
                    </div>
                    <div>
                        <h4>{"We get"}</h4>
                        <ol class="quoted" data-testid="lesson-ours">
                            { for v.ours.into_iter().map(|l| html! { <li>{l}</li> }) }
                        </ol>
                    </div>
                </div>
                { for v.notes.into_iter().map(|n| html! { <p class="hint">{n}</p> }) }
            </div>
        }
    });
    html! {
        <section class="card teach lessons" aria-label="The lessons' examples">
            <div class="teach-head">
                <label for="lesson-select"><strong>{"Lesson example"}</strong></label>
                <select id="lesson-select" data-testid="lesson-select" {onchange}>
                    <option value="" selected={picked.is_none()}>{"Load a worked example…"}</option>
                    { for LESSONS.iter().map(|l| html! {
                        <option value={l.name} selected={*picked == Some(l)}>{l.title}</option>
                    })}
                </select>
            </div>
            {body.unwrap_or_default()}
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::testing::{act, start};

    #[test]
    fn every_lesson_matches_once_loaded() {
        for lesson in &LESSONS {
            let state = act(&start(), Action::Restore(lesson.snapshot()));
            let v = verdict(lesson, &state);
            assert!(
                v.ok,
                "{}: {:?} vs {:?} ({:?})",
                lesson.name,
                v.ours,
                lesson.expected_lines(),
                v.notes
            );
        }
    }

    #[test]
    fn a_changed_setting_no_longer_matches() {
        let lesson = Lesson::find("refund").unwrap();
        let state = act(&start(), Action::Restore(lesson.snapshot()));
        let state = act(&state, Action::SetSize("30".into()));
        assert!(!verdict(lesson, &state).ok);
    }
}
