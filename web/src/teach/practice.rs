//! Practice mode: predict where the cuts fall, then compare with the engine.
//!
//! The answer always comes from running the real engine on the exercise, so an
//! exercise can never disagree with the playground. Scoring is a pure function
//! of the answer's cut ranges and the learner's marks, tested natively.

use super::drills::{self, generated_at, Difficulty};
use crate::engine::use_split;
use crate::model::{preview, visible_label};
use crate::state::Split;
use crate::text::Text;
use chunkscope::{Config, Cut, Placement, Separator, Strategy, StrategyConfig, Unit};
use std::collections::BTreeSet;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// A graded exercise: id, what it drills, text, recursive?, size, overlap,
/// separators, placement of the separator at a cut.
type Exercise = (
    &'static str,
    &'static str,
    &'static str,
    bool,
    usize,
    usize,
    &'static [&'static str],
    Placement,
);

const SEED: &[&str] = &["\n\n", "\n", ". ", " ", ""];

/// The graded exercises, easiest first.
pub const EXERCISES: [Exercise; 12] = [
    ("stride", "Fixed windows, size 4, overlap 1: where does each window end, and is there a tail?",
     "abcdefghij", false, 4, 1, &[], Placement::End),
    ("overlap", "Fixed windows, size 8, overlap 2: the stride is 6.",
     "0123456789abcdefghij", false, 8, 2, &[], Placement::End),
    ("tail", "Fixed windows, size 5, overlap 2, on 11 characters: does a short tail window follow the one that reaches the end?",
     "hello world", false, 5, 2, &[], Placement::End),
    ("blank", "The blank line is the strongest separator: where does size 30 cut?",
     "Title\n\nFirst paragraph is here.\n\nSecond one.", true, 30, 0, SEED, Placement::End),
    ("absent", "No blank line and no newline: which separator does the work?",
     "One two three. Four five six seven. Eight nine.", true, 20, 0, SEED, Placement::End),
    ("packing", "Lines are packed together while they fit in 12.",
     "Hi.\nOk.\nSure thing.\nSee you.", true, 12, 0, &["\n", " ", ""], Placement::End),
    ("hard", "A long URL has no space in it: what happens at size 16?",
     "see https://example.com/aVeryLongPath ok", true, 16, 0, &["\n\n", "\n", " ", ""], Placement::End),
    ("fallthrough", "No newline and no space: the list runs out, so where does the hard cut fall at size 6?",
     "abcdefghijklmnop", true, 6, 0, &["\n", " ", ""], Placement::End),
    ("dropped", "The separator \", \" is left out at a cut but kept inside a chunk: where are the cuts at size 11?",
     "red, green, blue, yellow", true, 11, 0, &[", ", ""], Placement::None),
    ("placement", "The separator \". \" goes to the start of the next piece.",
     "A cat. A dog. A bird. A fish.", true, 14, 0, &[". ", ""], Placement::Start),
    ("cjk", "No spaces in Chinese: the full stop 。 is the sentence separator.",
     "今天下雨了。我们在家看书。明天去公园。", true, 8, 0, &["。", ""], Placement::End),
    ("refund", "The lesson's refund page at size 40.",
     "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\nCOD orders get store credit.\n\nContact us 24x7.",
     true, 40, 0, SEED, Placement::End),
];

/// An exercise made from a seed number, so a learner can keep going. A small
/// linear congruential generator is enough: it only has to be repeatable.
pub fn generated(seed: u32) -> (String, Config) {
    const WORDS: [&str; 12] = [
        "refunds", "take", "five", "days", "orders", "ship", "fast", "we", "reply", "soon",
        "cards", "work",
    ];
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(12_345);
    let mut next = |n: u32| {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        (x >> 16) % n
    };
    let mut text = String::new();
    for i in 0..(8 + next(6)) {
        if i > 0 {
            text.push_str(match next(7) {
                0 => "\n\n",
                1 | 2 => ". ",
                3 => "\n",
                _ => " ",
            });
        }
        text.push_str(WORDS[next(12) as usize]);
    }
    let config = Config {
        strategy: StrategyConfig::Recursive,
        size: 12 + next(20) as usize,
        separators: SEED.iter().map(|&s| Separator::literal(s)).collect(),
        ..Config::default()
    };
    (text, config)
}

/// The text and configuration of a graded exercise.
pub fn graded(e: &Exercise) -> (String, Config) {
    let &(_, _, text, recursive, size, overlap, seps, placement) = e;
    let config = Config {
        size,
        overlap,
        unit: Unit::Chars,
        separators: seps.iter().map(|&s| Separator::literal(s)).collect(),
        placement,
        trim: true,
        ..Config::default()
    }
    .with_strategy(if recursive {
        Strategy::Recursive
    } else {
        Strategy::Fixed
    });
    (text.into(), config)
}

/// The practice text in runs that may not wrap inside: each word (a run
/// of non-space characters, up to 24 of them, so a long URL can still
/// wrap) and each space on its own, as char ranges. A line that broke inside
/// a word would look like a cut, in an exercise about cuts.
fn words(chars: &[char]) -> Vec<(usize, usize)> {
    const LONGEST: usize = 24;
    let mut runs = Vec::new();
    let mut from = 0;
    for (i, c) in chars.iter().enumerate() {
        let starts =
            i == from || c.is_whitespace() || chars[i - 1].is_whitespace() || i - from >= LONGEST;
        if i > from && starts {
            runs.push((from, i));
            from = i;
        }
    }
    if from < chars.len() {
        runs.push((from, chars.len()));
    }
    runs
}

/// The cuts of the answer as char ranges: a mark anywhere from the end of one
/// chunk to the start of the next (the whitespace trimmed between them) counts.
/// With overlap the next chunk starts earlier, so only the end itself counts.
pub fn cut_ranges(chunks: &[(usize, usize)]) -> Vec<(usize, usize)> {
    chunks
        .windows(2)
        .map(|w| (w[0].1, w[0].1.max(w[1].0)))
        .collect()
}

/// How a prediction went.
#[derive(Debug, PartialEq, Eq)]
pub struct Score {
    /// For each answer cut, whether it was marked.
    pub hit: Vec<bool>,
    /// Marks that match no cut.
    pub extra: Vec<usize>,
    /// 0–100: hits over (cuts + extra marks), so guessing everywhere does not pay.
    pub percent: u8,
}

/// Scores marks (char positions between characters) against the answer's cuts.
pub fn score(cuts: &[(usize, usize)], marks: &BTreeSet<usize>) -> Score {
    let hit: Vec<bool> = cuts
        .iter()
        .map(|&(a, b)| marks.range(a..=b).next().is_some())
        .collect();
    let extra: Vec<usize> = marks
        .iter()
        .copied()
        .filter(|&m| !cuts.iter().any(|&(a, b)| (a..=b).contains(&m)))
        .collect();
    let hits = hit.iter().filter(|&&h| h).count();
    let total = cuts.len() + extra.len();
    // Nothing to cut and nothing marked is a perfect answer.
    let percent = (100 * hits).checked_div(total).unwrap_or(100) as u8;
    Score {
        hit,
        extra,
        percent,
    }
}

/// What an exercise is called in the menu: what it drills, in words.
pub fn title(id: &str) -> &'static str {
    match id {
        "stride" => "Fixed windows: where each one ends",
        "overlap" => "Fixed windows with an overlap",
        "tail" => "Fixed windows: is there a tail?",
        "blank" => "Blank lines first",
        "absent" => "No blank line, no newline",
        "packing" => "Short lines packed together",
        "hard" => "A long URL: the hard cut",
        "fallthrough" => "The list runs out",
        "dropped" => "A separator dropped at the cut",
        "placement" => "The separator starts the next piece",
        "cjk" => "Chinese: no spaces",
        "refund" => "The lesson's refund page",
        _ => "A generated exercise",
    }
}

/// The exercise after `id` in the menu; after the last graded one come the
/// generated ones.
pub fn next_exercise(id: &str) -> &'static str {
    let at = EXERCISES.iter().position(|e| e.0 == id);
    match at.and_then(|k| EXERCISES.get(k + 1)) {
        Some(e) => e.0,
        None => "seed",
    }
}

/// The exercise's settings in words: only what its strategy uses.
pub fn settings_line(config: &Config) -> String {
    if config.kind() == Strategy::Fixed {
        return format!(
            "fixed windows · size {} · overlap {} (separators are not used)",
            config.size, config.overlap
        );
    }
    let seps: Vec<String> = config.separators.iter().map(visible_label).collect();
    let placement = match config.placement {
        Placement::End => "a separator stays at the end of the chunk before the cut",
        Placement::Start => "a separator starts the chunk after the cut",
        Placement::None => "a separator at a cut is left out of both chunks",
    };
    format!(
        "recursive · size {} · overlap {} · separators, strongest first: {} · {placement}",
        config.size,
        config.overlap,
        seps.join("  ")
    )
}

/// Why the engine cut after chunk `k`, from the trace: which separator, and
/// why that one (the piece it cut was over the size, and the separators
/// before it in the list do not occur in that piece).
pub fn reason(split: &Split, k: usize) -> String {
    let output = &split.output;
    let nodes = &output.trace.nodes;
    let (size, unit) = (split.config.size, split.config.unit);
    let Some(chunk) = output.chunks.get(k) else {
        return String::new();
    };
    let label = |i: usize| {
        split
            .separators
            .get(i)
            .map(|s| format!("“{}”", visible_label(s)))
            .unwrap_or_default()
    };
    match chunk.cut {
        Cut::Separator(i) => {
            // The split that set the two chunks apart: the nearest node above
            // chunk k's that also holds chunk k + 1.
            let next = output.chunks.get(k + 1).map(|c| c.span);
            let mut at = chunk.node;
            let apart = loop {
                let Some(id) = at else { break None };
                let n = &nodes[id];
                if next.is_some_and(|s| n.span.start <= s.start && s.end <= n.span.end) {
                    break Some(n);
                }
                at = n.parent;
            };
            match apart {
                Some(n) => {
                    let skipped: Vec<String> = n.absent.iter().map(|&a| label(a)).collect();
                    let why = if skipped.is_empty() {
                        "the strongest separator left for it".to_string()
                    } else {
                        format!(
                            "the first in the list that occurs in it ({} {} not)",
                            skipped.join(" "),
                            if skipped.len() == 1 { "does" } else { "do" }
                        )
                    };
                    format!(
                        "at {}: the piece around it was {} {unit}, over {size}, and {} is {why}",
                        label(i),
                        n.len,
                        label(i)
                    )
                }
                None => format!("at {}", label(i)),
            }
        }
        Cut::Hard => {
            let len = chunk.node.and_then(|id| nodes.get(id)).map_or(0, |n| n.len);
            format!("a hard cut after {size} {unit}: the piece of {len} {unit} had no separator left to cut at")
        }
        Cut::Window => format!(
            "a fixed window of {size} ended; the next starts {} later, whatever the text",
            size - split.config.overlap
        ),
        Cut::Breakpoint => {
            "a semantic breakpoint: the sentences after it were far from these".into()
        }
        Cut::End => "the text ended".into(),
        Cut::Structure(level) => format!("at a {}: the document's structure", level.name()),
    }
}

const STORE: &str = "chunkscope-practice";

/// Best scores by exercise id, as kept in localStorage (`id=score;…`).
fn load_best() -> Vec<(String, u8)> {
    let raw = web_sys::window()
        .and_then(|w| w.local_storage().ok().flatten())
        .and_then(|s| s.get_item(STORE).ok().flatten())
        .unwrap_or_default();
    raw.split(';')
        .filter_map(|p| p.split_once('='))
        .filter_map(|(k, v)| Some((k.to_string(), v.parse().ok()?)))
        .collect()
}

fn save_best(id: &str, percent: u8) {
    let mut best = load_best();
    match best.iter_mut().find(|(k, _)| k == id) {
        Some((_, v)) => *v = (*v).max(percent),
        None => best.push((id.into(), percent)),
    }
    let raw: Vec<String> = best.iter().map(|(k, v)| format!("{k}={v}")).collect();
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item(STORE, &raw.join(";"));
    }
}

/// The practice view.
#[function_component]
pub fn Practice() -> Html {
    let pick = use_state(|| "stride".to_string());
    let seed = use_state(|| 1u32);
    // The seed as typed: the exercise's split arrives from the worker while
    // the learner may be typing, and drawing it must not reset the field.
    let seed_typed = use_state(|| "1".to_string());
    let marks = use_state(BTreeSet::<usize>::new);
    let shown = use_state(|| false);
    // The answer was shown rather than found: it is drawn, not scored.
    let revealed = use_state(|| false);
    let best = use_state(load_best);
    let level = Difficulty::parse(&pick);
    let (id, (text, config)) = match (EXERCISES.iter().find(|e| e.0 == *pick), level) {
        (Some(e), _) => (e.0.to_string(), graded(e)),
        (None, Some(d)) => (format!("{}-{}", d.name(), *seed), generated_at(d, *seed)),
        (None, None) => (format!("seed-{}", *seed), generated(*seed)),
    };
    let about = EXERCISES.iter().find(|e| e.0 == *pick).map_or(
        match level {
            Some(d) => d.title(),
            None => "A generated exercise: recursive, the lesson's separators.",
        },
        |e| e.1,
    );
    let split = use_split(Text::from(text.as_str()), Some(config.clone())).and_then(Result::ok);
    let answer = split
        .as_ref()
        .map(|s| cut_ranges(&s.chunk_chars))
        .unwrap_or_default();
    let result = score(&answer, &marks);
    let reset = {
        let (marks, shown, revealed) = (marks.clone(), shown.clone(), revealed.clone());
        move || {
            marks.set(BTreeSet::new());
            shown.set(false);
            revealed.set(false);
        }
    };
    let on_pick = {
        let (pick, reset) = (pick.clone(), reset.clone());
        Callback::from(move |e: Event| {
            pick.set(e.target_unchecked_into::<HtmlSelectElement>().value());
            reset();
        })
    };
    let on_seed = {
        let (seed, pick, reset) = (seed.clone(), pick.clone(), reset.clone());
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlInputElement>().value();
            seed.set(v.trim().parse().unwrap_or(1));
            if Difficulty::parse(&pick).is_none() {
                pick.set("seed".into());
            }
            reset();
        })
    };
    let on_seed_typed = {
        let seed_typed = seed_typed.clone();
        Callback::from(move |e: InputEvent| {
            seed_typed.set(e.target_unchecked_into::<HtmlInputElement>().value());
        })
    };
    let submit = {
        let (shown, best, id, p) = (shown.clone(), best.clone(), id.clone(), result.percent);
        Callback::from(move |_: MouseEvent| {
            shown.set(true);
            save_best(&id, p);
            best.set(load_best());
        })
    };
    // Try again: the marks stay, to be moved; the result goes.
    let retry = {
        let (shown, revealed, marks) = (shown.clone(), revealed.clone(), marks.clone());
        Callback::from(move |_: MouseEvent| {
            if *revealed {
                marks.set(BTreeSet::new());
            }
            shown.set(false);
            revealed.set(false);
        })
    };
    let reveal = {
        let (shown, revealed, marks) = (shown.clone(), revealed.clone(), marks.clone());
        let cuts: BTreeSet<usize> = answer.iter().map(|&(a, _)| a).collect();
        Callback::from(move |_: MouseEvent| {
            marks.set(cuts.clone());
            shown.set(true);
            revealed.set(true);
        })
    };
    let next = {
        let (pick, seed, seed_typed, reset) = (
            pick.clone(),
            seed.clone(),
            seed_typed.clone(),
            reset.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            if *pick == "seed" || Difficulty::parse(&pick).is_some() {
                let n = seed.saturating_add(1);
                seed.set(n);
                seed_typed.set(n.to_string());
            } else {
                pick.set(next_exercise(&pick).into());
            }
            reset();
        })
    };
    let best_of = |k: &str| {
        best.iter()
            .find(|(b, _)| b == k)
            .map(|(_, v)| format!(" · best {v}"))
            .unwrap_or_default()
    };
    let chars: Vec<char> = text.chars().collect();
    let chunk_chars: Vec<(usize, usize)> = split
        .as_ref()
        .map(|s| s.chunk_chars.clone())
        .unwrap_or_default();
    let slot = |i: usize| {
        let on = marks.contains(&i);
        let class = if !*shown {
            on.then_some("marked")
        } else if let Some(k) = answer.iter().position(|&(a, b)| (a..=b).contains(&i)) {
            match (on, result.hit[k], answer[k].0 == i) {
                (true, _, _) => Some("hit"),
                (false, false, true) => Some("missed"),
                _ => None,
            }
        } else {
            on.then_some("extra")
        };
        let toggle = {
            let marks = marks.clone();
            Callback::from(move |_: MouseEvent| {
                let mut m = (*marks).clone();
                if !m.remove(&i) {
                    m.insert(i);
                }
                marks.set(m);
            })
        };
        let before = chars
            .get(i - 1)
            .map_or(String::new(), |c| preview(&c.to_string(), 1));
        let after = chars
            .get(i)
            .map_or(String::new(), |c| preview(&c.to_string(), 1));
        html! {
            <button type="button" class={classes!("slot", class)} data-testid="practice-slot"
                data-pos={i.to_string()} aria-pressed={on.to_string()} disabled={*shown}
                data-mark={(*shown).then_some(class).flatten()}
                aria-label={format!("cut after character {i}, between “{before}” and “{after}”")} onclick={toggle} />
        }
    };
    let missed = result.hit.iter().filter(|h| !**h).count();
    html! {
        <section class="card teach" data-testid="practice" aria-label="Practice">
            <h2>{"Practice: predict the cuts"}</h2>
            <div class="practice-row">
                <select data-testid="practice-select" aria-label="exercise" onchange={on_pick}>
                    { for EXERCISES.iter().enumerate().map(|(n, e)| html! {
                        <option value={e.0} selected={*pick == e.0}>{format!("{}. {}{}", n + 1, title(e.0), best_of(e.0))}</option>
                    })}
                    <option value="seed" selected={*pick == "seed"}>{"More: generated exercises"}</option>
                    { for Difficulty::ALL.into_iter().map(|d| html! {
                        <option value={d.name()} selected={*pick == d.name()}>{d.title()}</option>
                    })}
                </select>
                <label>{"exercise number "}
                    <input type="number" min="1" data-testid="practice-seed" value={(*seed_typed).clone()}
                        oninput={on_seed_typed} onchange={on_seed} />
                </label>
            </div>
            <p>{about}</p>
            <p class="muted" data-testid="practice-config">{settings_line(&config)}</p>
            <p class="muted">{"Click between two characters to mark a cut (where one chunk ends); click again to remove it."}</p>
            <div class={classes!("practice-text", shown.then_some("scored"))} data-testid="practice-text">
                { for words(&chars).into_iter().map(|(from, to)| html! {
                    <span class={if chars[from].is_whitespace() { "pspace" } else { "pword" }}>
                        { for (from..to).map(|i| {
                            let c = chars[i];
                            // Once scored, the engine's chunks are drawn under the
                            // text, so the marks read against what they made.
                            let chunk = shown
                                .then(|| chunk_chars.iter().position(|&(a, b)| a <= i && i < b))
                                .flatten();
                            html! {
                                <>
                                    if i > 0 { {slot(i)} }
                                    <span class={classes!("pch", chunk.map(|k| format!("in-chunk c{}", k % 2)))}
                                        data-chunk={chunk.map(|k| k.to_string())}>
                                        {if c == '\n' { "↵\n".to_string() } else { c.to_string() }}
                                    </span>
                                </>
                            }
                        })}
                    </span>
                })}
            </div>
            if *shown {
                <p class="legend-marks">
                    <span><span class="m hit" />{"a cut you marked"}</span>
                    <span><span class="m missed" />{"+ a cut you missed"}</span>
                    <span><span class="m extra" />{"✕ a mark where there is no cut"}</span>
                </p>
            }
            <div class="practice-row">
                <button type="button" data-testid="practice-submit" onclick={submit} disabled={*shown || split.is_none()}>{"Check my cuts"}</button>
                if *shown {
                    <button type="button" data-testid="practice-retry" onclick={retry}>{"Try again"}</button>
                }
                if !*revealed {
                    <button type="button" data-testid="practice-reveal" onclick={reveal} disabled={split.is_none()}>{"Show the answer"}</button>
                }
                <button type="button" data-testid="practice-next" onclick={next}>{"Next exercise"}</button>
                if *shown && !*revealed {
                    <span class="practice-score" data-testid="practice-score" data-score={result.percent.to_string()}>
                        {format!("{} / 100 · {missed} missed · {} extra", result.percent, result.extra.len())}
                    </span>
                }
            </div>
            if *shown {
                if let Some(s) = &split {
                    <ol class="reasons" data-testid="practice-reasons">
                        { for (0..answer.len()).map(|k| html! {
                            <li data-hit={result.hit[k].to_string()}>
                                {format!("{} after char {}: {}",
                                    if *revealed { "•" } else if result.hit[k] { "✓" } else { "+ missed" },
                                    answer[k].0, reason(s, k))}
                            </li>
                        })}
                        if !*revealed {
                            { for result.extra.iter().map(|&m| html! {
                                <li data-extra="true">{format!("✕ extra mark after char {m}: the engine does not cut there")}</li>
                            })}
                        }
                    </ol>
                }
            }
            if let Some(s) = &split {
                // Keyed by the answer itself: a new answer starts the drills afresh.
                <drills::Drills key={format!("{id}@{:p}", std::rc::Rc::as_ptr(&s.0))} split={s.clone()} />
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs that may not wrap tile the text; none mixes a space with a
    /// word or is longer than 24 characters.
    #[test]
    fn words_tile_the_text_and_never_hold_a_space_and_a_letter() {
        let text: Vec<char> = "Refund policy\n\nRefunds  take 5 days. https://shop.example.com/orders/track?id=10231 ok"
            .chars()
            .collect();
        let runs = words(&text);
        assert_eq!(runs.first().map(|r| r.0), Some(0));
        assert_eq!(runs.last().map(|r| r.1), Some(text.len()));
        for w in runs.windows(2) {
            assert_eq!(w[0].1, w[1].0);
        }
        for &(a, b) in &runs {
            let run = &text[a..b];
            assert!(b > a && b - a <= 24, "{run:?}");
            assert!(
                run.iter().all(|c| c.is_whitespace()) && run.len() == 1
                    || run.iter().all(|c| !c.is_whitespace()),
                "{run:?}"
            );
        }
        let shown: Vec<String> = runs[..4]
            .iter()
            .map(|&(a, b)| text[a..b].iter().collect())
            .collect();
        assert_eq!(shown, ["Refund", " ", "policy", "\n"]);
        assert!(words(&[]).is_empty());
    }

    fn exercise(id: &str) -> &'static Exercise {
        EXERCISES.iter().find(|e| e.0 == id).unwrap()
    }

    fn answer(e: &Exercise) -> Vec<(usize, usize)> {
        let (text, config) = graded(e);
        cut_ranges(&Split::now(text.into(), config).unwrap().chunk_chars)
    }

    fn reasons(id: &str) -> Vec<String> {
        let (text, config) = graded(exercise(id));
        let split = Split::now(text.into(), config).unwrap();
        (0..split.output.chunks.len() - 1)
            .map(|k| reason(&split, k))
            .collect()
    }

    #[test]
    fn each_cut_is_explained_by_its_separator_and_why_that_one() {
        let refund = reasons("refund");
        assert_eq!(
            refund[0],
            "at “\\n\\n”: the piece around it was 114 chars, over 40, and “\\n\\n” is the strongest separator left for it"
        );
        assert_eq!(
            refund[1],
            "at “.␣”: the piece around it was 52 chars, over 40, and “.␣” is the strongest separator left for it"
        );
        let absent = reasons("absent");
        assert!(
            absent[0].contains("(“\\n\\n” “\\n” do not)"),
            "{}",
            absent[0]
        );
        assert!(reasons("fallthrough")[0].starts_with("a hard cut after 6 chars"));
        assert!(reasons("stride")[0].contains("the next starts 3 later"));
    }

    #[test]
    fn settings_lines_name_only_what_is_used() {
        let (_, fixed) = graded(exercise("stride"));
        assert_eq!(
            settings_line(&fixed),
            "fixed windows · size 4 · overlap 1 (separators are not used)"
        );
        let (_, start) = graded(exercise("placement"));
        assert_eq!(
            settings_line(&start),
            "recursive · size 14 · overlap 0 · separators, strongest first: .␣  \"\" · a separator starts the chunk after the cut"
        );
        assert_eq!(title("refund"), "The lesson's refund page");
        assert_eq!(next_exercise("stride"), "overlap");
        assert_eq!(next_exercise("refund"), "seed");
    }

    #[test]
    fn stride_and_tail_has_two_cuts() {
        assert_eq!(answer(exercise("stride")), [(4, 4), (7, 7)]);
    }

    #[test]
    fn refund_cuts_accept_the_trimmed_gap() {
        let cuts = answer(exercise("refund"));
        assert_eq!(cuts[0], (13, 15));
        let marks: BTreeSet<usize> = [14, 35, 67, 96].into();
        assert_eq!(score(&cuts, &marks).percent, 100);
    }

    #[test]
    fn scoring_counts_missed_and_extra() {
        let cuts = [(4, 4), (7, 7)];
        let s = score(&cuts, &[4, 5].into());
        assert_eq!(s.hit, [true, false]);
        assert_eq!(s.extra, [5]);
        assert_eq!(s.percent, 33);
        assert_eq!(score(&cuts, &BTreeSet::new()).percent, 0);
        assert_eq!(score(&[], &BTreeSet::new()).percent, 100);
    }

    #[test]
    fn every_exercise_has_cuts_and_generated_ones_repeat() {
        for e in &EXERCISES {
            assert!(!answer(e).is_empty(), "{}", e.0);
        }
        assert!(answer(exercise("packing")).len() >= 2);
        // The window that reaches the end is the last: no tail of overlap only.
        assert_eq!(answer(exercise("tail")), [(5, 5), (8, 8)]);
        // Dropped separators: the cut spans the ", " left out of both chunks.
        assert_eq!(answer(exercise("dropped")), [(10, 12), (16, 18)]);
        assert_eq!(generated(7), generated(7));
        for seed in 1..50 {
            let (t, c) = generated(seed);
            assert!(Split::now(t.into(), c).is_ok());
        }
    }
}
