//! Step-through: the trace replayed one event at a time, so a learner can follow
//! the recursion in the order the engine did it instead of reading the finished
//! tree all at once. The events are derived from `Output` alone (a pure
//! function, tested natively); the component only walks the list and selects the
//! current node, which reuses the tree's own highlight in the text and the tree.

use crate::model::visible_label;
use crate::state::{Action, Shared};
use chunkscope::{Action as Step, Close, NodeId, Output, Separator, Unit};
use gloo_timers::callback::Timeout;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// One thing the engine did, in the order it did it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepEvent {
    /// The packer closed this group because the next part would not fit.
    Closed(NodeId),
    /// The piece was measured against the size.
    Check(NodeId),
    /// The piece was split on a separator (a recursion step).
    Split(NodeId),
    /// The piece was cut into windows (hard cut, or fixed windows).
    Cut(NodeId),
    /// A chunk was emitted from this node.
    Emit(NodeId, usize),
}

impl StepEvent {
    /// The node the event is about: the one highlighted while it is current.
    pub fn node(self) -> NodeId {
        match self {
            StepEvent::Closed(n)
            | StepEvent::Check(n)
            | StepEvent::Split(n)
            | StepEvent::Cut(n) => n,
            StepEvent::Emit(n, _) => n,
        }
    }
}

/// The events of a split, in engine order. Pre-order over the tree, so chunks
/// are emitted in source order; windows of a cut node are emitted right after
/// the cut, since the trace points each window at the node that was cut.
pub fn events(output: &Output) -> Vec<StepEvent> {
    let mut out = Vec::new();
    if !output.trace.nodes.is_empty() {
        // The windows of each cut node, found in one pass over the chunks
        // (looking them up per node would be quadratic in a long text cut
        // into small windows).
        let mut windows = vec![Vec::new(); output.trace.nodes.len()];
        for chunk in &output.chunks {
            if let Some(w) = chunk.node.and_then(|id| windows.get_mut(id)) {
                w.push(chunk.index);
            }
        }
        visit(output, &windows, 0, &mut out);
    }
    out
}

fn visit(output: &Output, windows: &[Vec<usize>], id: NodeId, out: &mut Vec<StepEvent>) {
    let n = &output.trace.nodes[id];
    if matches!(n.close, Some(Close::NextWouldExceed { .. })) {
        out.push(StepEvent::Closed(id));
    }
    if matches!(n.action, Step::Empty) {
        return;
    }
    out.push(StepEvent::Check(id));
    match n.action {
        Step::Split { .. } => {
            out.push(StepEvent::Split(id));
            for &c in &n.children {
                visit(output, windows, c, out);
            }
        }
        Step::HardCut { .. } | Step::Windows { .. } => {
            out.push(StepEvent::Cut(id));
            out.extend(windows[id].iter().map(|&k| StepEvent::Emit(id, k)));
        }
        _ => {
            if let Some(k) = n.chunk {
                out.push(StepEvent::Emit(id, k));
            }
        }
    }
}

/// The sentence for one event: what happened and why, in numbers from the trace.
pub fn say(output: &Output, seps: &[Separator], unit: Unit, size: usize, ev: StepEvent) -> String {
    let nodes = &output.trace.nodes;
    let n = &nodes[ev.node()];
    let label = |i: usize| seps.get(i).map(visible_label).unwrap_or_default();
    match ev {
        StepEvent::Closed(_) => match n.close {
            Some(Close::NextWouldExceed { next_len, would_be }) => format!(
                "Packing closed this piece at {} {unit}: adding the next part ({next_len} {unit}) would make it {would_be}, over the size of {size}.",
                n.len
            ),
            _ => String::new(),
        },
        // Only LangChain keeps a piece over the size: it had nothing left to
        // split it with.
        StepEvent::Check(_) if n.too_big && matches!(n.action, Step::Fits) => format!(
            "Level {}: this piece is {} {unit}, over {size}, but no separator is left to split it, so LangChain keeps it whole as an oversized chunk (and logs a warning).",
            n.depth, n.len
        ),
        StepEvent::Check(_) if n.too_big => {
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
        StepEvent::Check(_) => format!(
            "Level {}: this piece is {} {unit}, within {size}: it fits and needs no more splitting.",
            n.depth, n.len
        ),
        StepEvent::Split(_) => {
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
        StepEvent::Cut(_) => match n.action {
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
        StepEvent::Emit(_, k) => {
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
    pub dispatch: Callback<Action>,
}

/// The step controls and the sentence. Position `0` is "before the first event".
#[function_component]
pub fn Stepper(props: &StepperProps) -> Html {
    let list = use_memo(props.split.clone(), |s| events(&s.output));
    let pos = use_state(|| 0usize);
    let playing = use_state(|| false);
    let speed = use_state(|| 700u32);
    {
        let (pos, playing) = (pos.clone(), playing.clone());
        use_effect_with(props.split.clone(), move |_| {
            pos.set(0);
            playing.set(false);
        });
    }
    {
        // Selecting the current node puts the tree's highlight on its piece.
        let (dispatch, selected) = (props.dispatch.clone(), props.selected);
        let target = (*pos > 0)
            .then(|| list.get(*pos - 1).map(|e| e.node()))
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
        let (pos, playing, total) = (pos.clone(), playing.clone(), list.len());
        use_effect_with((*playing, *speed, *pos), move |&(on, ms, at)| {
            let timer = (on && at < total).then(|| Timeout::new(ms, move || pos.set(at + 1)));
            if on && at >= total {
                playing.set(false);
            }
            move || drop(timer)
        });
    }
    let total = list.len();
    let step = |d: isize| {
        let pos = pos.clone();
        Callback::from(move |_: MouseEvent| {
            pos.set((*pos as isize + d).clamp(0, total as isize) as usize)
        })
    };
    let play = {
        let (playing, pos) = (playing.clone(), pos.clone());
        Callback::from(move |_: MouseEvent| {
            if !*playing && *pos >= total {
                pos.set(0);
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
    let text = if *pos == 0 {
        format!("{total} steps. Press next to watch the splitter work through the text one decision at a time.")
    } else {
        say(
            &s.output,
            &s.separators,
            s.config.unit,
            s.config.size,
            list[*pos - 1],
        )
    };
    html! {
        <section class="card stepper" aria-label="Step through">
            <h2>{"Step through"}</h2>
            <div class="practice-row">
                <button type="button" data-testid="step-prev" onclick={step(-1)} disabled={*pos == 0}>{"◀"}</button>
                <button type="button" data-testid="step-play" onclick={play}>{if *playing { "❚❚" } else { "▶ play" }}</button>
                <button type="button" data-testid="step-next" onclick={step(1)} disabled={*pos >= total}>{"▶"}</button>
                <select data-testid="step-speed" aria-label="speed" onchange={on_speed}>
                    { for [("1400", "slow"), ("700", "normal"), ("250", "fast")].into_iter().map(|(v, t)| html! {
                        <option value={v} selected={v == speed.to_string()}>{t}</option>
                    })}
                </select>
                <span class="muted" data-testid="step-pos">{format!("{} / {total}", *pos)}</span>
            </div>
            <p class="step-say" data-testid="step-text" aria-live="polite">{text}</p>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::testing::start;

    fn code(e: StepEvent) -> String {
        match e {
            StepEvent::Closed(_) => "P".into(),
            StepEvent::Check(n) => format!("C{n}"),
            StepEvent::Split(_) => "S".into(),
            StepEvent::Cut(_) => "H".into(),
            StepEvent::Emit(_, k) => format!("E{k}"),
        }
    }

    #[test]
    fn refund_page_follows_the_lesson_table() {
        let state = start();
        let split = state.primary().unwrap();
        let evs = events(&split.output);
        let seq: Vec<String> = evs.iter().map(|&e| code(e)).collect();
        assert_eq!(
            seq.join(" "),
            "C0 S P C1 E0 P C2 S P C3 S P C4 E1 C5 E2 C6 E3 C7 E4"
        );
        let sc = &split.config;
        let all: Vec<String> = evs
            .iter()
            .map(|&e| say(&split.output, &sc.separators, sc.unit, sc.size, e))
            .collect();
        // Level 1 blank line, level 2 newline on the 81-char piece, level 3 ". "
        // on the 52-char line; never a hard cut.
        let splits: Vec<&String> = all.iter().filter(|t| t.contains(": split on")).collect();
        assert_eq!(splits.len(), 3);
        assert!(splits[0].contains("“\\n\\n”"));
        assert!(splits[1].contains("“\\n”"));
        assert!(splits[2].contains("“.␣”"));
        assert!(!evs.iter().any(|e| matches!(e, StepEvent::Cut(_))));
        assert!(all.iter().any(|t| t.contains("81 chars, over 40")));
        assert!(all.iter().any(|t| t.contains("52 chars, over 40")));
        let emits: Vec<usize> = evs
            .iter()
            .filter_map(|e| match e {
                StepEvent::Emit(_, k) => Some(*k),
                _ => None,
            })
            .collect();
        assert_eq!(emits, [0, 1, 2, 3, 4]);
        assert!(all.last().unwrap().contains("last chunk"));
        assert!(all[2].contains("(83 chars) would make it 98, over the size of 40"));
    }

    #[test]
    fn a_separatorless_blob_ends_in_a_hard_cut() {
        let card = crate::teach::cards::CARDS
            .iter()
            .find(|c| c.0 == "empty")
            .unwrap();
        let state = crate::state::testing::act(
            &start(),
            Action::Restore(crate::teach::cards::snapshot(card)),
        );
        let split = state.primary().unwrap();
        let evs = events(&split.output);
        assert!(evs.iter().any(|e| matches!(e, StepEvent::Cut(_))));
        let emitted = evs
            .iter()
            .filter(|e| matches!(e, StepEvent::Emit(..)))
            .count();
        assert_eq!(emitted, split.output.chunks.len());
        let sc = &split.config;
        let cut = evs.iter().find(|e| matches!(e, StepEvent::Cut(_))).unwrap();
        assert!(say(&split.output, &sc.separators, sc.unit, sc.size, *cut).contains("Hard cut"));
    }
}
