//! Step-through: the trace replayed one event at a time, so a learner can follow
//! the recursion in the order the engine did it instead of reading the finished
//! tree all at once. The events are core's ([`chunkscope::Output::events`]); this module
//! says each in words, and the component only walks the list and selects the
//! current node, which reuses the tree's own highlight in the text and the tree.

use crate::model::{count, node_step, packing_sum, visible_label};
use crate::state::{Action, Shared, Split};
use chunkscope::{Action as Step, NodeId, TraceEvent};
use gloo_timers::callback::Timeout;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// What the first `shown` events have brought on screen: the tree nodes
/// `0..nodes` and the chunks `0..chunks`. Events follow the engine's
/// pre-order, the order node ids and chunk indices are stored in, so two
/// counts say it all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Revealed {
    /// How many tree nodes (by id) have been visited.
    pub nodes: usize,
    /// How many chunks have been emitted.
    pub chunks: usize,
}

/// What the first `shown` of `events` reveal; after the last event,
/// everything (a whitespace-only piece has no event of its own).
pub fn revealed(events: &[TraceEvent], shown: usize) -> Revealed {
    if shown >= events.len() {
        return Revealed {
            nodes: usize::MAX,
            chunks: usize::MAX,
        };
    }
    events
        .iter()
        .take(shown)
        .fold(Revealed::default(), |r, &e| Revealed {
            nodes: r.nodes.max(e.node() + 1),
            chunks: match e {
                TraceEvent::Emitted { chunk: k, .. } => r.chunks.max(k + 1),
                _ => r.chunks,
            },
        })
}

/// The sentence for one event: what happened and why, in numbers from the trace.
pub fn say(split: &Split, ev: TraceEvent) -> String {
    let (output, seps) = (&split.output, &split.separators[..]);
    let (unit, size) = (split.config.unit, split.config.size);
    let nodes = &output.trace.nodes;
    let n = &nodes[ev.node()];
    let label = |i: usize| seps.get(i).map(visible_label).unwrap_or_default();
    match ev {
        TraceEvent::Closed(id) => match packing_sum(split, id) {
            Some(sum) => format!(
                "Packing: parts are added while they fit, and the next one does not: {sum} {unit}. So this piece ends before it."
            ),
            None => String::new(),
        },
        // Only LangChain keeps a piece over the size: it had nothing left to
        // split it with.
        TraceEvent::Measured(_) if n.too_big && matches!(n.action, Step::Fits) => format!(
            "Level {}: this piece is {} {unit}, over {size}, but no separator is left to split it, so LangChain keeps it whole as an oversized chunk (and logs a warning).",
            n.depth, n.len
        ),
        TraceEvent::Measured(_) if n.too_big => {
            let parent_sep = n.parent.and_then(|p| match nodes[p].action {
                Step::Split { separator, .. } => Some(label(separator)),
                _ => None,
            });
            let next = match parent_sep {
                Some(l) => format!("recurse into it with only the separators after “{l}”"),
                None => "split it".into(),
            };
            format!(
                "Level {}: this piece is {} {unit}, over {size}: too big, so {next}.",
                n.depth, n.len
            )
        }
        TraceEvent::Measured(_) => format!(
            "Level {}: this piece is {} {unit}, within {size}: it fits and needs no more splitting.",
            n.depth, n.len
        ),
        TraceEvent::Split(_) if matches!(n.action, Step::Structure { .. }) => {
            let words = node_step(n, seps, unit);
            format!(
                "Level {}: {}{}. The document's structure decides these cuts, before any separator in the list.",
                n.depth, words.lead, words.tail
            )
        }
        TraceEvent::Split(_) => {
            let Step::Split { separator, parts } = n.action else {
                return String::new();
            };
            let absent: Vec<String> = n.absent.iter().map(|&i| label(i)).collect();
            let tried = if absent.is_empty() {
                "the strongest separator left in the list, and it occurs here".to_string()
            } else {
                format!("{} came first in the list but do not occur in this piece", absent.join(" "))
            };
            format!(
                "Level {}: split on “{}” ({tried}) into {parts} parts, then packed greedily into {} pieces.",
                n.depth,
                label(separator),
                n.children.len()
            )
        }
        TraceEvent::Cut(_) => match n.action {
            Step::Windows { stride } => format!(
                "Fixed windows: a window every {stride} {unit} (size minus overlap), stopping once one reaches the end."
            ),
            Step::HardCut { separator, windows } => format!(
                "Hard cut into {windows} windows of up to {size} {unit}: {}.",
                match separator {
                    Some(_) => "the list says \"\" here, cut anywhere",
                    None => "no separator is left to try, so the size cap is enforced by force",
                }
            ),
            _ => String::new(),
        },
        TraceEvent::Emitted { chunk: k, .. } => {
            let Some(c) = output.chunks.get(k) else {
                return String::new();
            };
            let last = if k + 1 == output.chunks.len() {
                " That was the last chunk."
            } else {
                ""
            };
            let overlap = if c.overlap.is_some() {
                " Its start repeats the end of the previous chunk (overlap)."
            } else {
                ""
            };
            format!("Emit chunk {k}: {} {unit}.{overlap}{last}", c.len)
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct StepperProps {
    pub split: Shared,
    pub selected: Option<NodeId>,
    /// How many events are shown (`None`: not stepping).
    pub step: Option<usize>,
    pub dispatch: Callback<Action>,
}

/// The step controls and the sentence. Position `0` is "before the first
/// event": the finished split is drawn whole. From the first step on, the
/// page draws only what the steps so far have made (see [`revealed`]).
#[function_component]
pub fn Stepper(props: &StepperProps) -> Html {
    let list = use_memo(props.split.clone(), |s| s.output.events());
    let pos = props.step.unwrap_or(0).min(list.len());
    let playing = use_state(|| false);
    let speed = use_state(|| 700u32);
    {
        let playing = playing.clone();
        use_effect_with(props.split.clone(), move |_| {
            playing.set(false);
        });
    }
    {
        // Selecting the current node puts the tree's highlight on its piece.
        let (dispatch, selected) = (props.dispatch.clone(), props.selected);
        let target = (pos > 0)
            .then(|| list.get(pos - 1).map(|e| e.node()))
            .flatten();
        use_effect_with(target, move |t| {
            if let Some(id) = *t {
                if selected != Some(id) {
                    dispatch.emit(Action::SelectNode(id));
                }
            }
        });
    }
    {
        let (dispatch, playing, total) = (props.dispatch.clone(), playing.clone(), list.len());
        use_effect_with((*playing, *speed, pos), move |&(on, ms, at)| {
            let timer = (on && at < total)
                .then(|| Timeout::new(ms, move || dispatch.emit(Action::Step(Some(at + 1)))));
            if on && at >= total {
                playing.set(false);
            }
            move || drop(timer)
        });
    }
    let total = list.len();
    let step = |d: isize| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            let to = (pos as isize + d).clamp(0, total as isize) as usize;
            dispatch.emit(Action::Step(Some(to)))
        })
    };
    let play = {
        let (playing, dispatch) = (playing.clone(), props.dispatch.clone());
        Callback::from(move |_: MouseEvent| {
            if !*playing && pos >= total {
                dispatch.emit(Action::Step(None));
            }
            playing.set(!*playing)
        })
    };
    let on_speed = {
        let speed = speed.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<HtmlSelectElement>().value();
            speed.set(v.parse().unwrap_or(700));
        })
    };
    let s = &props.split;
    if total == 0 && !s.output.chunks.is_empty() {
        // Stepping replays the tree; a split that recorded none has no steps.
        return html! {
            <section class="card stepper" aria-label="Step through">
                <h2>{"Step through"}</h2>
                <p class="step-say muted" data-testid="step-text">
                    {"Stepping replays the splitter's tree, and this split recorded none (see below)."}
                </p>
            </section>
        };
    }
    let text = if pos == 0 {
        format!("{}. Press next to watch the splitter work through the text one decision at a time: the tree and the chunks grow as it goes.", count(total, "step", "steps"))
    } else {
        say(s, list[pos - 1])
    };
    html! {
        <section class="card stepper" aria-label="Step through">
            <h2>{"Step through"}</h2>
            <div class="practice-row">
                <button type="button" data-testid="step-prev" onclick={step(-1)} disabled={pos == 0}
                    aria-label="previous step">{"◀"}</button>
                <button type="button" data-testid="step-play" onclick={play}>{if *playing { "❚❚" } else { "▶ play" }}</button>
                <button type="button" data-testid="step-next" onclick={step(1)} disabled={pos >= total}
                    aria-label="next step">{"▶"}</button>
                <select data-testid="step-speed" aria-label="speed" onchange={on_speed}>
                    { for [("1400", "slow"), ("700", "normal"), ("250", "fast")].into_iter().map(|(v, t)| html! {
                        <option value={v} selected={v == speed.to_string()}>{t}</option>
                    })}
                </select>
                <span class="muted" data-testid="step-pos">{format!("{pos} / {total}")}</span>
                if pos > 0 {
                    <button type="button" data-testid="step-reset" class="link"
                        onclick={props.dispatch.reform(|_: MouseEvent| Action::Step(None))}>{"show all"}</button>
                }
            </div>
            <p class="step-say" data-testid="step-text" aria-live="polite">{text}</p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::testing::{act, start};

    /// The chunk indices the events emit, in order.
    fn emitted(evs: &[TraceEvent]) -> Vec<usize> {
        evs.iter()
            .filter_map(|e| match e {
                TraceEvent::Emitted { chunk: k, .. } => Some(*k),
                _ => None,
            })
            .collect()
    }

    fn code(e: TraceEvent) -> String {
        match e {
            TraceEvent::Closed(_) => "P".into(),
            TraceEvent::Measured(n) => format!("C{n}"),
            TraceEvent::Split(_) => "S".into(),
            TraceEvent::Cut(_) => "H".into(),
            TraceEvent::Emitted { chunk: k, .. } => format!("E{k}"),
        }
    }

    #[test]
    fn refund_page_follows_the_lesson_table() {
        let state = start();
        let split = state.primary().unwrap();
        let evs = split.output.events();
        let seq: Vec<String> = evs.iter().map(|&e| code(e)).collect();
        assert_eq!(
            seq.join(" "),
            "C0 S P C1 E0 C2 S C3 S P C4 E1 C5 E2 C6 E3 C7 E4"
        );
        let all: Vec<String> = evs.iter().map(|&e| say(split, e)).collect();
        // Level 1 blank line, level 2 newline on the 81-char piece, level 3 ". "
        // on the 52-char line; never a hard cut.
        let splits: Vec<&String> = all.iter().filter(|t| t.contains(": split on")).collect();
        assert_eq!(splits.len(), 3);
        assert!(splits[0].contains("“\\n\\n”"));
        assert!(splits[1].contains("“\\n”"));
        assert!(splits[2].contains("“.␣”"));
        assert!(!evs.iter().any(|e| matches!(e, TraceEvent::Cut(_))));
        assert!(all.iter().any(|t| t.contains("81 chars, over 40")));
        assert!(all.iter().any(|t| t.contains("52 chars, over 40")));
        let emits = emitted(&evs);
        assert_eq!(emits, [0, 1, 2, 3, 4]);
        assert!(all.last().unwrap().contains("last chunk"));
        // The sums add up as shown, and no oversized piece is said to be
        // closed by packing.
        assert!(
            all[2].contains("15 with “\\n\\n” + 83 with “\\n\\n” = 98 > 40 chars"),
            "{}",
            all[2]
        );
        let packed: Vec<&String> = all.iter().filter(|t| t.starts_with("Packing")).collect();
        assert_eq!(packed.len(), 2);
        assert!(
            packed[1].contains("21 with “.␣” + 31 = 52 > 40 chars"),
            "{}",
            packed[1]
        );
    }

    #[test]
    fn the_tree_and_the_chunks_grow_with_the_steps() {
        let state = start();
        let split = state.primary().unwrap();
        let evs = split.output.events();
        let grown: Vec<(usize, usize)> = (0..=evs.len())
            .map(|k| {
                let r = revealed(&evs, k);
                (r.nodes, r.chunks)
            })
            .collect();
        assert_eq!(grown[0], (0, 0));
        assert_eq!(grown[1], (1, 0), "the root is checked first");
        assert_eq!(*grown.last().unwrap(), (usize::MAX, usize::MAX));
        let before_last = grown[evs.len() - 1];
        assert_eq!(
            before_last,
            (
                split.output.trace.nodes.len(),
                split.output.chunks.len() - 1
            ),
            "the last step emits the last chunk"
        );
        assert!(grown
            .windows(2)
            .all(|w| w[0].0 <= w[1].0 && w[0].1 <= w[1].1));
        // Chunk 0 is emitted at step 5 ("C0 S P C1 E0").
        assert_eq!(grown[4].1, 0);
        assert_eq!(grown[5], (2, 1));
    }

    #[test]
    fn a_markdown_split_is_stepped_through_section_by_section() {
        let state = act(
            &act(
                &start(),
                Action::SetText(crate::presets::text("markdown").unwrap()),
            ),
            Action::SetView(crate::state::View::Markdown),
        );
        let split = state.primary().unwrap();
        assert!(split.output.markdown.is_some());
        let evs = split.output.events();
        let emits = emitted(&evs);
        assert_eq!(emits, (0..split.output.chunks.len()).collect::<Vec<_>>());
        // Nodes are visited in the order of their ids, which is what lets
        // `revealed` grow the tree by a count.
        let checked: Vec<NodeId> = evs
            .iter()
            .filter_map(|e| match e {
                TraceEvent::Measured(n) => Some(*n),
                _ => None,
            })
            .collect();
        assert!(checked.windows(2).all(|w| w[0] < w[1]), "{checked:?}");
        // The first decision is the cut into sections, said as such.
        let first = evs
            .iter()
            .find(|e| matches!(e, TraceEvent::Split(_)))
            .unwrap();
        let said = say(split, *first);
        assert!(
            said.starts_with("Level 1: split at each heading of level 2 or deeper into "),
            "{said}"
        );
        assert!(said.contains("document's structure"), "{said}");
    }

    #[test]
    fn a_separatorless_blob_ends_in_a_hard_cut() {
        let card = crate::teach::cards::CARDS
            .iter()
            .find(|c| c.id == "empty")
            .unwrap();
        let state = crate::state::testing::act(
            &start(),
            Action::Restore(crate::teach::cards::snapshot(card)),
        );
        let split = state.primary().unwrap();
        let evs = split.output.events();
        assert!(evs.iter().any(|e| matches!(e, TraceEvent::Cut(_))));
        let emitted = evs
            .iter()
            .filter(|e| matches!(e, TraceEvent::Emitted { .. }))
            .count();
        assert_eq!(emitted, split.output.chunks.len());
        let cut = evs
            .iter()
            .find(|e| matches!(e, TraceEvent::Cut(_)))
            .unwrap();
        assert!(say(split, *cut).contains("Hard cut"));
    }
}
