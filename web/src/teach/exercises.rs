//! The exercises of the lesson on fixed windows and recursive splitting
//! (seed 004), answered by the learner and checked against the engine: every
//! expected value comes from a split the worker made, never from a table here.

use crate::engine::use_split;
use crate::state::Split;
use crate::text::Text;
use chunkscope::{Config, Separator, Strategy};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Exercise 1's text: L = 250 chars.
pub fn windows_text() -> Text {
    "abcdefghijklmnopqrstuvwxy".repeat(10).into()
}

/// Fixed windows of `size` with `overlap`, in chars.
pub fn fixed(size: usize, overlap: usize) -> Config {
    Config {
        strategy: Strategy::Fixed.into(),
        size,
        overlap,
        ..Config::default()
    }
}

/// Units repeated from the window before, summed, and units embedded in all.
pub fn duplication(split: &Split) -> (usize, usize) {
    let repeated = split
        .output
        .chunks
        .iter()
        .filter_map(|c| c.overlap.map(|o| o.text(&split.text).chars().count()))
        .sum();
    let embedded = split.output.chunks.iter().map(|c| c.len).sum();
    (repeated, embedded)
}

/// Exercise 2: the six unit tests of `fixed_windows` (id, what it tests,
/// text, size, overlap).
pub const UNIT_TESTS: [(&str, &str, &str, usize, usize); 6] = [
    ("empty", "empty input", "", 4, 1),
    ("one", "exactly one window", "abcd", 4, 1),
    ("tail", "a tail window", "abcdefghij", 4, 0),
    ("overlap", "overlap", "abcdefgh", 4, 2),
    ("invalid", "an invalid configuration", "abcdefgh", 4, 4),
    (
        "determinism",
        "determinism (run it twice)",
        "abcdefghij",
        4,
        1,
    ),
];

/// What the learner predicts for a unit test: windows, or a refusal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prediction {
    /// These char windows, half-open.
    Windows(Vec<(usize, usize)>),
    /// The configuration is refused.
    Refused,
}

/// Reads a typed prediction: `error` (or anything with "err" or "refuse"),
/// else the numbers in pairs (`[0,4) [3,7)`, `0-4 3-7`, or nothing for none).
pub fn parse(typed: &str) -> Option<Prediction> {
    let t = typed.to_ascii_lowercase();
    if t.contains("err") || t.contains("refuse") || t.contains("invalid") {
        return Some(Prediction::Refused);
    }
    let nums: Vec<usize> = t
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().ok())
        .collect::<Option<_>>()?;
    if nums.len() % 2 == 1 {
        return None;
    }
    Some(Prediction::Windows(
        nums.chunks(2).map(|p| (p[0], p[1])).collect(),
    ))
}

/// The engine's answer to a unit test.
pub fn answer(
    result: &Result<crate::state::Shared, chunkscope_wasm::contract::Refusal>,
) -> Prediction {
    match result {
        Ok(s) => Prediction::Windows(s.chunk_chars.clone()),
        Err(_) => Prediction::Refused,
    }
}

/// A prediction written the way the learner types it.
pub fn show(p: &Prediction) -> String {
    match p {
        Prediction::Refused => "refused".into(),
        Prediction::Windows(w) if w.is_empty() => "no windows".into(),
        Prediction::Windows(w) => w
            .iter()
            .map(|(a, b)| format!("[{a}, {b})"))
            .collect::<Vec<_>>()
            .join(" "),
    }
}

/// Exercise 3's document: two sections, a code fence with a blank line in it.
pub const PRIORITY_TEXT: &str = "# Refunds\n\nRefunds take 5 days.\n\n```python\nrefund(order)\n\nnotify(user)\n```\n\n# Shipping\n\nOrders ship from Pune. Delivery takes 3 days.";

/// The four boundaries of exercise 3 (id, name); their separators are
/// [`boundary`]'s.
pub const BOUNDARIES: [(&str, &str); 4] = [
    ("heading", "Markdown heading"),
    ("fence", "code fence"),
    ("paragraph", "blank line (paragraph)"),
    ("sentence", "sentence end"),
];

/// The separator of a boundary. Each cuts *before* what it finds (the
/// separator starts the next piece), so a heading's `#` and a fence's
/// backticks stay with what they open; the sentence level's match is the
/// whitespace after a sentence, which trimming drops.
pub fn boundary(i: usize) -> Separator {
    match i {
        0 => Separator::literal("\n# "),
        1 => Separator::literal("\n```"),
        2 => Separator::literal("\n\n"),
        _ => Separator::sentence(),
    }
}

/// The recursive configuration for an order of the boundaries (indices into
/// [`BOUNDARIES`]), then newline, space and the hard cut.
pub fn priority_config(order: &[usize]) -> Config {
    let mut separators: Vec<Separator> = order.iter().map(|&i| boundary(i)).collect();
    separators.extend(["\n", " ", ""].map(Separator::literal));
    Config {
        strategy: Strategy::Recursive.into(),
        size: 60,
        separators,
        placement: chunkscope::Placement::Start,
        ..Config::default()
    }
}

/// Judges a split of [`PRIORITY_TEXT`]: does every heading start a chunk, and
/// does no cut fall inside the code fence (at its blank line)?
pub fn judge_priority(split: &Split) -> (bool, bool) {
    let t = &*split.text;
    let starts: Vec<usize> = split.output.chunks.iter().map(|c| c.span.start).collect();
    let headings = t
        .match_indices("# ")
        .filter(|&(i, _)| i == 0 || t[..i].ends_with('\n'))
        .all(|(i, _)| starts.contains(&i));
    let open = t.find("```").unwrap_or(0);
    let close = t[open + 3..].find("```").map_or(t.len(), |j| open + 3 + j);
    // A cut inside the fence: a chunk that ends strictly between the end of
    // the fence's first line and its closing line.
    let first_line = t[open..].find('\n').map_or(close, |j| open + j);
    let cut_inside = split
        .output
        .chunks
        .windows(2)
        .any(|w| w[0].span.end > first_line && w[0].span.end < close);
    (headings, !cut_inside)
}

/// Why an order of exercise 3 fails, from what the engine did: the heading
/// that does not start a chunk and the chunk it is in, and the cut inside
/// the fence with the separator that made it. Empty when the order works.
pub fn priority_problems(split: &Split) -> Vec<String> {
    let t = &*split.text;
    let chunks = &split.output.chunks;
    let mut problems = Vec::new();
    for (i, _) in t
        .match_indices("# ")
        .filter(|&(i, _)| i == 0 || t[..i].ends_with('\n'))
    {
        if let Some(k) = chunks
            .iter()
            .position(|c| c.span.start < i && i < c.span.end)
        {
            let heading = t[i..].lines().next().unwrap_or("");
            problems.push(format!(
                "“{heading}” does not start a chunk: packing put it inside chunk {k}, after the text before it"
            ));
        }
    }
    let open = t.find("```").unwrap_or(0);
    let close = t[open + 3..].find("```").map_or(t.len(), |j| open + 3 + j);
    let first_line = t[open..].find('\n').map_or(close, |j| open + j);
    for (k, c) in chunks
        .iter()
        .enumerate()
        .take(chunks.len().saturating_sub(1))
    {
        if !(c.span.end > first_line && c.span.end < close) {
            continue;
        }
        let why = match c.cut {
            chunkscope::Cut::Separator(i) => match split.config.separators.get(i) {
                Some(sep) if *sep == boundary(1) => "the fence's separator “\\n```” matches the closing fence line too, so the closing ``` starts a piece of its own and goes to the next chunk".to_string(),
                Some(sep) if *sep == boundary(2) => "the blank line inside the fence is a paragraph break to “\\n\\n”, which ran before the fence's separator could keep the fence in one piece".to_string(),
                Some(sep) => format!("the separator “{}” cut there", sep.label()),
                None => "a separator cut there".to_string(),
            },
            _ => "the hard cut ended it there".to_string(),
        };
        problems.push(format!("chunk {k} ends inside the code fence: {why}"));
    }
    problems
}

/// Exercise 4: whether the chunks joined give the text back, and whether they
/// do once each chunk's overlap with the one before is dropped.
pub fn rejoin(split: &Split) -> (bool, bool, usize) {
    let t = &*split.text;
    let joined: String = split.output.chunks.iter().map(|c| c.text(t)).collect();
    let deduplicated: String = split
        .output
        .chunks
        .iter()
        .map(|c| {
            let from = c.overlap.map_or(c.span.start, |o| o.end);
            &t[from..c.span.end]
        })
        .collect();
    (joined == t, deduplicated == t, joined.chars().count())
}

fn result(ok: bool, text: String) -> Html {
    html! {
        <p class={classes!("exercise-result", if ok { "ok" } else { "bad" })} data-testid="exercise-result"
            data-ok={ok.to_string()} aria-live="polite">{if ok { "✓ " } else { "✗ " }}{text}</p>
    }
}

fn number(field: &'static str, label: &'static str, value: &UseStateHandle<String>) -> Html {
    let oninput = {
        let value = value.clone();
        Callback::from(move |e: InputEvent| {
            value.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    html! {
        <label class="ex-field">{label}
            <input type="text" inputmode="numeric" data-testid="exercise-input" data-field={field}
                value={(**value).clone()} {oninput} />
        </label>
    }
}

/// The four exercises, each checked by the engine.
#[function_component]
pub fn Exercises() -> Html {
    html! {
        <section class="card exercises" data-testid="exercises" aria-label="Exercises from the lesson on windows">
            <h2>{"Exercises (the lesson on fixed windows and recursive splitting)"}</h2>
            <Duplication />
            <UnitTests />
            <Priority />
            <Rejoin />
        </section>
    }
}

#[function_component]
fn Duplication() -> Html {
    let split = use_split(windows_text(), Some(fixed(100, 20)));
    let repeated = use_state(String::new);
    let embedded = use_state(String::new);
    let checked = use_state(|| false);
    let check = {
        let checked = checked.clone();
        Callback::from(move |_: MouseEvent| checked.set(true))
    };
    let verdict = match (&split, *checked) {
        (Some(Ok(s)), true) => {
            let (r, e) = duplication(s);
            let ok = repeated.trim().parse() == Ok(r) && embedded.trim().parse() == Ok(e);
            let spans: Vec<String> = s
                .chunk_chars
                .iter()
                .map(|(a, b)| format!("[{a}, {b})"))
                .collect();
            result(ok, format!(
                "The engine's windows: {}. {} overlaps of 20 repeat {r} units, so {e} units are embedded for 250.",
                spans.join(" "),
                s.output.chunks.iter().filter(|c| c.overlap.is_some()).count()
            ))
        }
        (None, true) => html! { <p class="hint">{"… splitting"}</p> },
        _ => html! {},
    };
    html! {
        <div class="exercise" data-testid="exercise" data-exercise="duplication">
            <h4>{"1. L = 250, S = 100, O = 20: list the windows [start, end). How many units are repeated, and how many are embedded in all?"}</h4>
            <div class="ex-row">
                {number("repeated", "repeated", &repeated)}
                {number("embedded", "embedded", &embedded)}
                <button type="button" data-testid="exercise-check" onclick={check}>{"Check"}</button>
            </div>
            {verdict}
        </div>
    }
}

#[function_component]
fn UnitTests() -> Html {
    // One split per case; the hooks are called in the same order every time.
    let answers = [
        use_split(
            UNIT_TESTS[0].2.into(),
            Some(fixed(UNIT_TESTS[0].3, UNIT_TESTS[0].4)),
        ),
        use_split(
            UNIT_TESTS[1].2.into(),
            Some(fixed(UNIT_TESTS[1].3, UNIT_TESTS[1].4)),
        ),
        use_split(
            UNIT_TESTS[2].2.into(),
            Some(fixed(UNIT_TESTS[2].3, UNIT_TESTS[2].4)),
        ),
        use_split(
            UNIT_TESTS[3].2.into(),
            Some(fixed(UNIT_TESTS[3].3, UNIT_TESTS[3].4)),
        ),
        use_split(
            UNIT_TESTS[4].2.into(),
            Some(fixed(UNIT_TESTS[4].3, UNIT_TESTS[4].4)),
        ),
        use_split(
            UNIT_TESTS[5].2.into(),
            Some(fixed(UNIT_TESTS[5].3, UNIT_TESTS[5].4)),
        ),
    ];
    // The determinism case is split a second time, as its own request.
    let again = use_split(
        UNIT_TESTS[5].2.into(),
        Some(fixed(UNIT_TESTS[5].3, UNIT_TESTS[5].4)),
    );
    let typed = use_state(|| vec![String::new(); 6]);
    let checked = use_state(|| false);
    let check = {
        let checked = checked.clone();
        Callback::from(move |_: MouseEvent| checked.set(true))
    };
    let rows = UNIT_TESTS.iter().enumerate().map(|(k, &(id, what, text, size, overlap))| {
        let oninput = {
            let typed = typed.clone();
            Callback::from(move |e: InputEvent| {
                let mut v = (*typed).clone();
                v[k] = e.target_unchecked_into::<HtmlInputElement>().value();
                typed.set(v);
            })
        };
        let verdict = match (&answers[k], *checked) {
            (Some(a), true) => {
                let engine = answer(a);
                let mut ok = parse(&typed[k]).as_ref() == Some(&engine);
                let mut said = format!("engine: {}", show(&engine));
                if id == "determinism" {
                    let same = again.as_ref().map(|b| answer(b) == engine);
                    ok &= same == Some(true);
                    said.push_str(match same {
                        Some(true) => "; a second run gave the same windows",
                        Some(false) => "; a second run differed",
                        None => "; not re-run",
                    });
                }
                html! { <span class={classes!("ex-verdict", if ok { "ok" } else { "bad" })} data-testid="exercise-case-result" data-ok={ok.to_string()}>{if ok { "✓ " } else { "✗ " }}{said}</span> }
            }
            _ => html! {},
        };
        html! {
            <li data-testid="exercise-case" data-case={id}>
                <span>{format!("{what}: fixed_windows({text:?}, size={size}, overlap={overlap}) → ")}</span>
                <input type="text" data-testid="exercise-input" data-field={id} placeholder="[0, 4) [3, 7) or error"
                    value={typed[k].clone()} {oninput} />
                {verdict}
            </li>
        }
    });
    let all_ok = *checked
        && answers.iter().enumerate().all(|(k, a)| {
            a.as_ref()
                .is_some_and(|a| parse(&typed[k]).as_ref() == Some(&answer(a)))
        });
    html! {
        <div class="exercise" data-testid="exercise" data-exercise="unit-tests">
            <h4>{"2. The six unit tests of fixed_windows: write what each call returns (windows as [start, end), or \"error\")."}</h4>
            <ol class="ex-cases">{ for rows }</ol>
            <button type="button" data-testid="exercise-check" onclick={check}>{"Check against the engine"}</button>
            if *checked {
                {result(all_ok, if all_ok { "All six agree with the engine.".into() } else { "Some differ: the engine's answer is beside each.".into() })}
            }
        </div>
    }
}

#[function_component]
fn Priority() -> Html {
    let order = use_state(|| vec![2usize, 0, 1, 3]);
    let asked = use_state(|| None::<Vec<usize>>);
    let split = use_split(
        PRIORITY_TEXT.into(),
        asked.as_ref().map(|o| priority_config(o)),
    );
    let selects = (0..4).map(|pos| {
        let onchange = {
            let order = order.clone();
            Callback::from(move |e: Event| {
                let v: usize = e
                    .target_unchecked_into::<HtmlSelectElement>()
                    .value()
                    .parse()
                    .unwrap_or(0);
                let mut o = (*order).clone();
                // Swap, so the order stays a permutation.
                if let Some(j) = o.iter().position(|&x| x == v) {
                    o.swap(pos, j);
                }
                order.set(o);
            })
        };
        html! {
            <label class="ex-field">{format!("{}.", pos + 1)}
                <select data-testid="exercise-order" data-pos={pos.to_string()} {onchange}>
                    { for BOUNDARIES.iter().enumerate().map(|(i, b)| html! {
                        <option value={i.to_string()} selected={order[pos] == i}>{b.1}</option>
                    })}
                </select>
            </label>
        }
    });
    let check = {
        let (order, asked) = (order.clone(), asked.clone());
        Callback::from(move |_: MouseEvent| asked.set(Some((*order).clone())))
    };
    let verdict = match (&split, asked.is_some()) {
        (Some(Ok(s)), true) => {
            let (headings, fence) = judge_priority(s);
            let ok = headings && fence;
            let problems = priority_problems(s);
            let why = if problems.is_empty() {
                "This order keeps every section and the whole fence together.".to_string()
            } else {
                format!("{}.", problems.join("; "))
            };
            result(ok, format!(
                "At size 60: {} chunks. Every heading starts a chunk: {}. The code fence stays whole: {}. {why}",
                s.output.chunks.len(),
                if headings { "yes" } else { "no" },
                if fence { "yes" } else { "no" }
            ))
        }
        (Some(Err(e)), true) => result(false, e.message.clone()),
        (None, true) => html! { <p class="hint">{"… splitting"}</p> },
        _ => html! {},
    };
    html! {
        <div class="exercise" data-testid="exercise" data-exercise="priority">
            <h4>{"3. Order the boundaries from strong to weak for Markdown with code (newline, space and the hard cut follow). What happens to the blank line inside the code fence?"}</h4>
            <pre class="ex-doc">{PRIORITY_TEXT}</pre>
            <div class="ex-row">{ for selects }
                <button type="button" data-testid="exercise-check" onclick={check}>{"Split with this order"}</button>
            </div>
            {verdict}
        </div>
    }
}

#[function_component]
fn Rejoin() -> Html {
    let split = use_split(windows_text(), Some(fixed(100, 20)));
    let checked = use_state(|| false);
    let check = {
        let checked = checked.clone();
        Callback::from(move |_: MouseEvent| checked.set(true))
    };
    let verdict = match (&split, *checked) {
        (Some(Ok(s)), true) => {
            let (equal, dedup, joined) = rejoin(s);
            html! {
                <p class="exercise-result" data-testid="exercise-rejoin" data-equal={equal.to_string()} data-dedup={dedup.to_string()}>
                    {format!(
                        "Joined as they are, the chunks give {joined} chars for a text of 250: equal {}. Dropping each chunk's overlap with the one before (its recorded overlap span) first, they give the text back: {}. So check coverage with the spans: every chunk's text is the source at its span, the spans start in order, and each starts no later than the one before ends.",
                        if equal { "yes" } else { "no" },
                        if dedup { "yes" } else { "no" }
                    )}
                </p>
            }
        }
        (None, true) => html! { <p class="hint">{"… splitting"}</p> },
        _ => html! {},
    };
    html! {
        <div class="exercise" data-testid="exercise" data-exercise="rejoin">
            <h4>{"4. Why can \"rejoining the chunks gives the original text\" not be checked directly when there is overlap, and what can be checked instead?"}</h4>
            <button type="button" data-testid="exercise-check" onclick={check}>{"Run both checks on L = 250, S = 100, O = 20"}</button>
            {verdict}
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now(text: &str, config: Config) -> Result<Split, chunkscope::Error> {
        Split::now(text.into(), config)
    }

    #[test]
    fn exercise_1_repeats_40_and_embeds_290() {
        let s = now(&windows_text(), fixed(100, 20)).unwrap();
        assert_eq!(s.chunk_chars, [(0, 100), (80, 180), (160, 250)]);
        assert_eq!(duplication(&s), (40, 290));
    }

    #[test]
    fn exercise_2_the_six_cases_as_the_engine_answers_them() {
        let answers: Vec<String> = UNIT_TESTS
            .iter()
            .map(
                |&(_, _, text, size, overlap)| match now(text, fixed(size, overlap)) {
                    Ok(s) => show(&Prediction::Windows(s.chunk_chars.clone())),
                    Err(_) => show(&Prediction::Refused),
                },
            )
            .collect();
        assert_eq!(
            answers,
            [
                "no windows",
                "[0, 4)",
                "[0, 4) [4, 8) [8, 10)",
                "[0, 4) [2, 6) [4, 8)",
                "refused",
                "[0, 4) [3, 7) [6, 10)"
            ]
        );
        let (a, b) = (
            now("abcdefghij", fixed(4, 1)).unwrap(),
            now("abcdefghij", fixed(4, 1)).unwrap(),
        );
        assert_eq!(a.chunk_chars, b.chunk_chars);
        assert_eq!(
            parse("[0, 4) [3,7)"),
            Some(Prediction::Windows(vec![(0, 4), (3, 7)]))
        );
        assert_eq!(parse(""), Some(Prediction::Windows(vec![])));
        assert_eq!(parse("error"), Some(Prediction::Refused));
        assert_eq!(parse("0 4 3"), None);
    }

    #[test]
    fn exercise_3_headings_and_fences_before_paragraphs_keep_the_fence_whole() {
        let mut judged = Vec::new();
        for order in [
            [0, 1, 2, 3],
            [1, 0, 2, 3],
            [2, 0, 1, 3],
            [2, 3, 0, 1],
            [3, 2, 1, 0],
        ] {
            let s = now(PRIORITY_TEXT, priority_config(&order)).unwrap();
            // The reasons agree with the verdict: none exactly when it holds.
            let (headings, fence) = judge_priority(&s);
            assert_eq!(
                priority_problems(&s).is_empty(),
                headings && fence,
                "{order:?}"
            );
            judged.push((order, (headings, fence)));
        }
        // Fence first fails for the reason the engine shows: its separator
        // also matches the closing fence.
        let fence_first = now(PRIORITY_TEXT, priority_config(&[1, 0, 2, 3])).unwrap();
        let problems = priority_problems(&fence_first);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].contains("matches the closing fence line too"),
            "{problems:?}"
        );
        // Every one of the 24 orders: the fence stays whole exactly when the
        // engine made no cut inside it, whatever the reason given.
        let mut whole = Vec::new();
        let mut orders = 0;
        for n in 0..256usize {
            let order = [n & 3, (n >> 2) & 3, (n >> 4) & 3, (n >> 6) & 3];
            let mut sorted = order;
            sorted.sort_unstable();
            if sorted != [0, 1, 2, 3] {
                continue;
            }
            orders += 1;
            let s = now(PRIORITY_TEXT, priority_config(&order)).unwrap();
            assert_eq!(
                priority_problems(&s).is_empty(),
                judge_priority(&s) == (true, true),
                "{order:?}"
            );
            if judge_priority(&s) == (true, true) {
                whole.push(order);
            }
        }
        assert_eq!(orders, 24);
        assert!(whole.contains(&[0, 1, 2, 3]), "{whole:?}");
        assert_eq!(
            judged,
            [
                ([0, 1, 2, 3], (true, true)),
                // A fence split off before the headings leaves its closing
                // line in the next section.
                ([1, 0, 2, 3], (true, false)),
                // Paragraphs first: the blank line inside the fence is a cut,
                // and packing glues the second heading to the code.
                ([2, 0, 1, 3], (false, false)),
                ([2, 3, 0, 1], (false, false)),
                ([3, 2, 1, 0], (false, false)),
            ]
        );
    }

    #[test]
    fn exercise_4_rejoining_fails_with_overlap_and_the_deduplicated_check_holds() {
        let s = now(&windows_text(), fixed(100, 20)).unwrap();
        assert_eq!(rejoin(&s), (false, true, 290));
        let no_overlap = now(&windows_text(), fixed(100, 0)).unwrap();
        assert_eq!(rejoin(&no_overlap), (true, true, 250));
    }
}
