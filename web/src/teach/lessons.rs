//! The lessons' worked examples: each loads into the playground with one pick,
//! and the page says whether what the engine produced is what the lesson says,
//! with the lesson's expected output quoted next to ours.

use crate::share::Snapshot;
use crate::state::{Action, Settings, State, View};
use chunkscope::stats::{Place, Places};
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
    /// A claim about fixed windows that the page checks against the windows
    /// the engine really cut (see [`claim`]); the chunks are not the point.
    Claim(&'static str),
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
pub const LESSONS: [Lesson; 6] = [
    Lesson {
        name: "refund",
        title: "Refund page at size 40 (from the lesson)",
        about: "Blank lines give 3 pieces, the middle one 81 chars; a newline splits it, and its 52-char first line is split at the sentence end into 20 and 31. Space and hard cut are never needed. The lesson then says what a fixed 40-char cut of the page would do: the next example checks it.",
        view: View::Recursive,
        size: 40,
        overlap: 0,
        separators: SEED,
        expected: Expected::Texts(REFUND_CHUNKS),
        tree: true,
    },
    Lesson {
        name: "refund-fixed",
        title: "Refund page, fixed 40-char windows (the lesson's remark checked)",
        about: "The same page cut by fixed windows of 40 chars, beside the recursive chunks. The lesson's remark about where the second window starts is checked against the windows the engine cut.",
        view: View::Compare,
        size: 40,
        overlap: 0,
        separators: SEED,
        expected: Expected::Claim("Refunds"),
        tree: false,
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
            "refund" | "refund-fixed" => crate::presets::refund().to_string(),
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
                then_recursive: None,
                heading_prefix: false,
                table_header: chunkscope::TableHeader::Once,
                min_characters: crate::state::settings::default_min_characters(),
            },
            semantic: crate::state::SemanticSettings::default(),
        }
    }

    /// The expected output as the learner reads it.
    pub fn expected_lines(&self) -> Vec<String> {
        match self.expected {
            Expected::Texts(t) | Expected::WithoutMerge(t) => t.iter().map(|t| show(t)).collect(),
            Expected::Spans(s) => s.iter().map(|(a, b)| format!("[{a}, {b})")).collect(),
            Expected::Claim(word) => vec![format!(
                "the second window starts in the middle of “{word}”"
            )],
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
        Expected::Claim(word) => {
            let c = claim(split, word);
            let ok = c.holds;
            // The summary is drawn as `lesson-claim`.
            return Verdict {
                ok,
                ours: c.boundaries,
                notes: vec![],
            };
        }
        Expected::Spans(_) => split
            .chunk_chars
            .iter()
            .map(|(a, b)| format!("[{a}, {b})"))
            .collect(),
        Expected::WithoutMerge(_) => {
            let run = bugs::run(
                Bug::NoMerge,
                text,
                &split.config,
                &chunkscope_wasm::loaded::held(),
            );
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

/// What the fixed windows of a split really do at their boundaries, against
/// the claim that one of them starts inside `word`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Whether some window starts strictly inside an occurrence of `word`.
    pub holds: bool,
    /// Each window after the first: where it starts and what it cuts.
    pub boundaries: Vec<String>,
    /// The verdict in one sentence.
    pub summary: String,
}

/// Reads the boundaries of `split`'s windows, placed as
/// [`chunkscope::stats::Places`] places a cut: between two letters it cuts a
/// word (`g|et`); inside a sentence it starts mid-sentence.
pub fn claim(split: &crate::state::Split, word: &str) -> Claim {
    let text = &*split.text;
    let places = Places::new(text);
    let mut boundaries = Vec::new();
    for (k, c) in split.output.chunks.iter().enumerate().skip(1) {
        let at = c.span.start;
        let start = split.chunk_chars[k].0;
        let left = text[..at]
            .rsplit(|ch: char| ch.is_whitespace())
            .next()
            .unwrap_or("");
        let right = text[at..]
            .split(|ch: char| ch.is_whitespace())
            .next()
            .unwrap_or("");
        let what = match places.of(at) {
            Place::InsideWord => format!("inside the word “{left}|{right}”"),
            Place::BetweenSentences => "at the start of a sentence or line".to_string(),
            Place::InsideSentence => {
                let last = text[..at]
                    .trim_end()
                    .rsplit(char::is_whitespace)
                    .next()
                    .unwrap_or("");
                let next = text[at..]
                    .trim_start()
                    .split(char::is_whitespace)
                    .next()
                    .unwrap_or("");
                format!("in the middle of a sentence (“…{last}| {next}…”)")
            }
        };
        boundaries.push(format!("window {} starts at char {start}, {what}", k + 1));
    }
    let holds = text.match_indices(word).any(|(i, w)| {
        split
            .output
            .chunks
            .iter()
            .skip(1)
            .any(|c| c.span.start > i && c.span.start < i + w.len())
    });
    let summary = if holds {
        format!("As the lesson says, a window starts inside “{word}”.")
    } else {
        format!(
            "The lesson is wrong here: it says a window starts inside “{word}”, and none does. {}.",
            {
                let all = boundaries.join("; ");
                let mut first = all.chars();
                first
                    .next()
                    .map(|c| c.to_ascii_uppercase().to_string() + first.as_str())
                    .unwrap_or_default()
            }
        )
    };
    Claim {
        holds,
        boundaries,
        summary,
    }
}

/// The window count N = 1 + ⌈(L − S)/(S − O)⌉ for a fixed split, with the
/// numbers filled in, and the count the engine really made.
pub fn formula(split: &crate::state::Split) -> Option<(usize, String)> {
    let config = &split.config;
    if config.kind() != chunkscope::Strategy::Fixed || config.unit != Unit::Chars {
        return None;
    }
    let (s, o) = (config.size, config.overlap);
    let l = split.text.chars().count();
    let n = if l == 0 {
        0
    } else if l <= s {
        1
    } else {
        1 + (l - s).div_ceil(s - o)
    };
    let made = split.output.chunks.len();
    let worked = if l > s {
        format!(" = 1 + ⌈({l} − {s})/({s} − {o})⌉ = {n}")
    } else {
        format!(": L = {l} ≤ S = {s}, so N = {n}")
    };
    Some((
        n,
        format!("N = 1 + ⌈(L − S)/(S − O)⌉{worked} windows; the engine cut {made}."),
    ))
}

/// What the split costs, in the lessons' terms.
pub fn cost(split: &crate::state::Split) -> String {
    if split.config.kind() == chunkscope::Strategy::Fixed {
        "Cost: O(n) time: one pass, each window sliced once; O(n) space for the output (plus the overlap's copies).".into()
    } else {
        let depth = split
            .output
            .trace
            .nodes
            .iter()
            .map(|n| n.depth)
            .max()
            .unwrap_or(0);
        format!(
            "Cost: O(n·s) time for s separators: each level scans its pieces once (here s = {}, and the tree went {depth} levels deep); O(n) space.",
            split.separators.len()
        )
    }
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
        let split = props.state.split(lesson.view.strategies()[0]).filter(|_| !waiting);
        let claim_html = match (lesson.expected, split) {
            (Expected::Claim(word), Some(s)) => {
                let c = claim(s, word);
                html! { <p class="hint" data-testid="lesson-claim" data-holds={c.holds.to_string()}>{c.summary}</p> }
            }
            _ => html! {},
        };
        let costs = split.map(|s| {
            let formula = formula(s).map(|(n, line)| html! {
                <p class="hint" data-testid="lesson-formula" data-n={n.to_string()}
                    data-chunks={s.output.chunks.len().to_string()}>{line}</p>
            });
            html! {
                <>
                    {formula.unwrap_or_default()}
                    <p class="hint" data-testid="lesson-cost">{cost(s)}</p>
                </>
            }
        });
        html! {
            <div class="lesson">
                <p class="muted">{lesson.about}</p>
                <div class="lesson-match" data-testid="lesson-match" data-ok={(v.ok && !waiting).to_string()}
                    data-pending={waiting.then_some("true")}>
                    <strong>{match (waiting, v.ok) {
                        (true, _) => "… splitting",
                        (false, true) => "✓ matches the lesson",
                        (false, false) => match lesson.expected {
                            // The engine's windows are exact; the lesson's
                            // sentence about them is what is wrong.
                            Expected::Claim(_) => "✗ The lesson's sentence is wrong; the windows below are what a fixed cut really gives",
                            _ => "✗ differs from the lesson",
                        },
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
                {claim_html}
                {costs.unwrap_or_default()}
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

    /// Seed 000 says a fixed 40-char cut of the refund page starts its second
    /// chunk inside "Refunds". The engine's windows say otherwise, and the page
    /// says what they do; the engine is not bent toward the claim.
    #[test]
    fn the_fixed_cut_of_the_refund_page_is_not_what_the_lesson_says() {
        let lesson = Lesson::find("refund-fixed").unwrap();
        let state = act(&start(), Action::Restore(lesson.snapshot()));
        let split = state.split(chunkscope::Strategy::Fixed).unwrap();
        let texts: Vec<&str> = split
            .output
            .chunks
            .iter()
            .map(|c| c.text(&split.text))
            .collect();
        assert_eq!(
            texts,
            [
                "Refund policy\n\nRefunds take 5 days. They",
                " go to the original UPI id.\nCOD orders g",
                "et store credit.\n\nContact us 24x7."
            ]
        );
        let c = claim(split, "Refunds");
        assert!(!c.holds);
        assert_eq!(
            c.summary,
            "The lesson is wrong here: it says a window starts inside “Refunds”, and none does. Window 2 starts at char 40, in the middle of a sentence (“…They| go…”); window 3 starts at char 80, inside the word “g|et”."
        );
        let v = verdict(lesson, &state);
        assert!(!v.ok);
        assert_eq!(v.ours, c.boundaries);
        // The recursive pane beside it is the lesson's five chunks.
        let rec = state.split(chunkscope::Strategy::Recursive).unwrap();
        assert_eq!(rec.output.chunks.len(), 5);
    }

    #[test]
    fn the_window_count_formula_agrees_with_the_engine() {
        let mut compared = 0;
        for (name, line) in [
            ("fixed", "N = 1 + ⌈(L − S)/(S − O)⌉ = 1 + ⌈(10 − 4)/(4 − 1)⌉ = 3 windows; the engine cut 3."),
            ("windows", "N = 1 + ⌈(L − S)/(S − O)⌉ = 1 + ⌈(250 − 100)/(100 − 20)⌉ = 3 windows; the engine cut 3."),
            ("refund-fixed", "N = 1 + ⌈(L − S)/(S − O)⌉ = 1 + ⌈(114 − 40)/(40 − 0)⌉ = 3 windows; the engine cut 3."),
        ] {
            let lesson = Lesson::find(name).unwrap();
            let state = act(&start(), Action::Restore(lesson.snapshot()));
            let split = state.split(chunkscope::Strategy::Fixed).unwrap();
            let (n, said) = formula(split).unwrap();
            assert_eq!(said, line);
            assert_eq!(n, split.output.chunks.len());
            compared += 1;
        }
        // Every size and overlap on texts of 0 to 60 chars.
        for l in 0..60usize {
            for s in 1..12usize {
                for o in 0..s {
                    let text: crate::text::Text = "x".repeat(l).into();
                    let config = chunkscope::Config {
                        strategy: chunkscope::StrategyConfig::Fixed,
                        size: s,
                        overlap: o,
                        ..Default::default()
                    };
                    let split = crate::state::Split::now(text, config).unwrap();
                    assert_eq!(
                        formula(&split).unwrap().0,
                        split.output.chunks.len(),
                        "L={l} S={s} O={o}"
                    );
                    compared += 1;
                }
            }
        }
        assert_eq!(compared, 3 + 60 * 66);
        let refund = act(
            &start(),
            Action::Restore(Lesson::find("refund").unwrap().snapshot()),
        );
        assert_eq!(
            cost(refund.primary().unwrap()),
            "Cost: O(n·s) time for s separators: each level scans its pieces once (here s = 5, and the tree went 4 levels deep); O(n) space."
        );
    }

    #[test]
    fn every_lesson_matches_once_loaded() {
        for lesson in LESSONS
            .iter()
            .filter(|l| !matches!(l.expected, Expected::Claim(_)))
        {
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
