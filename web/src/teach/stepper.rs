//! Step-through: the trace replayed one event at a time, so a learner can follow
//! the recursion in the order the engine did it instead of reading the finished
//! tree all at once. The events are core's ([`chunkscope::Output::events`]); this module
//! says each in words, and the component only walks the list and selects the
//! current node, which reuses the tree's own highlight in the text and the tree.

use crate::model::{count, node_step, packing, visible_label, Packing};
use crate::state::{Action, Shared, Split};
use chunkscope::{Action as Step, NodeId, TraceEvent, Unit};
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

/// What one step shows, in the trace's numbers and names: the stepper's view
/// model, said in words by [`Decision::words`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The packer closed a group: the sum that did not fit.
    Closed(Packing),
    /// A piece over the size with no separator left, kept whole (LangChain).
    KeptOversized {
        /// Its level.
        depth: usize,
        /// Its length.
        len: usize,
    },
    /// A piece over the size, split further.
    TooBig {
        /// Its level.
        depth: usize,
        /// Its length.
        len: usize,
        /// The label of the separator that made it, whose successors split
        /// it now (`None` for the whole text).
        after: Option<String>,
    },
    /// A piece within the size.
    Fits {
        /// Its level.
        depth: usize,
        /// Its length.
        len: usize,
    },
    /// A cut at the document's structure (Markdown).
    Structure {
        /// Its level.
        depth: usize,
        /// The node's step, in the tree's own words.
        step: crate::model::Step,
    },
    /// A split at every delimiter of one level of Chonkie's rules.
    ChonkieLevel {
        /// Its level in the tree.
        depth: usize,
        /// The node's step, in the tree's own words.
        step: crate::model::Step,
    },
    /// Chonkie's `SentenceChunker`: the text split into sentences.
    Sentences {
        /// The node's step, in the tree's own words.
        step: crate::model::Step,
    },
    /// A split on a separator, then packed.
    Split {
        /// Its level.
        depth: usize,
        /// The separator's label.
        separator: String,
        /// The labels of the separators before it that do not occur.
        absent: Vec<String>,
        /// The parts the split made.
        parts: usize,
        /// The pieces they were packed into.
        pieces: usize,
    },
    /// Fixed windows every `stride` units.
    Windows {
        /// Size minus overlap.
        stride: usize,
    },
    /// A hard cut into windows.
    HardCut {
        /// How many.
        windows: usize,
        /// Whether the list asked for it (`""`), rather than running out.
        listed: bool,
    },
    /// A chunk emitted.
    Emitted {
        /// Its index.
        chunk: usize,
        /// Its length.
        len: usize,
        /// Whether its start repeats the previous chunk's end.
        overlap: bool,
        /// Whether it is the last.
        last: bool,
    },
}

/// The decision behind one event, from the trace; `None` where the trace
/// has nothing to say (a group closed by a part that was over the size).
pub fn decide(split: &Split, ev: TraceEvent) -> Option<Decision> {
    let (output, seps) = (&split.output, &split.separators[..]);
    let nodes = &output.trace.nodes;
    let n = nodes.get(ev.node())?;
    let label = |i: usize| seps.get(i).map(visible_label).unwrap_or_default();
    let (depth, len) = (n.depth, n.len);
    Some(match ev {
        TraceEvent::Closed(id) => Decision::Closed(packing(split, id)?),
        // Only LangChain keeps a piece over the size: it had nothing left to
        // split it with.
        TraceEvent::Measured(_) if n.too_big && matches!(n.action, Step::Fits) => {
            Decision::KeptOversized { depth, len }
        }
        TraceEvent::Measured(_) if n.too_big => Decision::TooBig {
            depth,
            len,
            after: n.parent.and_then(|p| match nodes[p].action {
                Step::Split { separator, .. } => Some(label(separator)),
                _ => None,
            }),
        },
        TraceEvent::Measured(_) => Decision::Fits { depth, len },
        TraceEvent::Split(_) => match n.action {
            Step::Structure { .. } => Decision::Structure {
                depth,
                step: node_step(n, seps, split.config.unit),
            },
            Step::ChonkieLevel { .. } => Decision::ChonkieLevel {
                depth,
                step: node_step(n, seps, split.config.unit),
            },
            Step::Sentences { .. } => Decision::Sentences {
                step: node_step(n, seps, split.config.unit),
            },
            Step::Split { separator, parts } => Decision::Split {
                depth,
                separator: label(separator),
                absent: n.absent.iter().map(|&i| label(i)).collect(),
                parts,
                pieces: n.children.len(),
            },
            _ => return None,
        },
        TraceEvent::Cut(_) => match n.action {
            Step::Windows { stride } => Decision::Windows { stride },
            Step::HardCut { separator, windows } => Decision::HardCut {
                windows,
                listed: separator.is_some(),
            },
            _ => return None,
        },
        TraceEvent::Emitted { chunk, .. } => {
            let c = output.chunks.get(chunk)?;
            Decision::Emitted {
                chunk,
                len: c.len,
                overlap: c.overlap.is_some(),
                last: chunk + 1 == output.chunks.len(),
            }
        }
    })
}

impl Decision {
    /// The decision in words, for a split in `unit` at `size`.
    pub fn words(&self, unit: Unit, size: usize) -> String {
        match self {
            Decision::Closed(packing) => format!(
                "Packing: parts are added while they fit, and the next one does not: {} {unit}. So this piece ends before it.",
                packing.words(unit, size)
            ),
            Decision::KeptOversized { depth, len } => format!(
                "Level {depth}: this piece is {len} {unit}, over {size}, but no separator is left to split it, so LangChain keeps it whole as an oversized chunk (and logs a warning)."
            ),
            Decision::TooBig { depth, len, after } => {
                let next = match after {
                    Some(l) => format!("recurse into it with only the separators after “{l}”"),
                    None => "split it".into(),
                };
                format!("Level {depth}: this piece is {len} {unit}, over {size}: too big, so {next}.")
            }
            Decision::Fits { depth, len } => format!(
                "Level {depth}: this piece is {len} {unit}, within {size}: it fits and needs no more splitting."
            ),
            Decision::Structure { depth, step } => format!(
                "Level {depth}: {}{}. The document's structure decides these cuts, before any separator in the list.",
                step.lead, step.tail
            ),
            Decision::ChonkieLevel { depth, step } => format!(
                "Level {depth}: {}{}. Chonkie's rules cut here: every delimiter of this level at once, each kept at the end of its part, parts shorter than min_characters_per_chunk joined to a neighbour, then packed while the sum of their lengths fits.",
                step.lead, step.tail
            ),
            Decision::Sentences { step } => format!(
                "The whole text: {}{}. Chonkie's SentenceChunker cuts after every \". \", \"! \", \"? \" and line break, joins a sentence shorter than 12 characters to the next, then packs whole sentences while the sum of their lengths fits; with an overlap, the next chunk starts back at the last sentences that fit in it.",
                step.lead, step.tail
            ),
            Decision::Split {
                depth,
                separator,
                absent,
                parts,
                pieces,
            } => {
                let tried = if absent.is_empty() {
                    "the strongest separator left in the list, and it occurs here".to_string()
                } else {
                    format!("{} came first in the list but do not occur in this piece", absent.join(" "))
                };
                format!(
                    "Level {depth}: split on “{separator}” ({tried}) into {parts} parts, then packed greedily into {pieces} pieces."
                )
            }
            Decision::Windows { stride } => format!(
                "Fixed windows: a window every {stride} {unit} (size minus overlap), stopping once one reaches the end."
            ),
            Decision::HardCut { windows, listed } => format!(
                "Hard cut into {windows} windows of up to {size} {unit}: {}.",
                if *listed {
                    "the list says \"\" here, cut anywhere"
                } else {
                    "no separator is left to try, so the size cap is enforced by force"
                }
            ),
            Decision::Emitted {
                chunk,
                len,
                overlap,
                last,
            } => format!(
                "Emit chunk {chunk}: {len} {unit}.{}{}",
                if *overlap {
                    " Its start repeats the end of the previous chunk (overlap)."
                } else {
                    ""
                },
                if *last { " That was the last chunk." } else { "" }
            ),
        }
    }
}

/// The sentence for one event: what happened and why, in numbers from the
/// trace (empty where the trace has nothing to say).
pub fn say(split: &Split, ev: TraceEvent) -> String {
    decide(split, ev).map_or_else(String::new, |d| {
        d.words(split.config.unit, split.config.size)
    })
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
        let decisions: Vec<Decision> = evs.iter().filter_map(|&e| decide(split, e)).collect();
        // Level 1 blank line (3 parts), level 2 newline on the 81-char piece,
        // level 3 ". " on the 52-char line; never a hard cut.
        let splits: Vec<(usize, &str, usize, usize)> = decisions
            .iter()
            .filter_map(|d| match d {
                Decision::Split {
                    depth,
                    separator,
                    parts,
                    pieces,
                    ..
                } => Some((*depth, separator.as_str(), *parts, *pieces)),
                _ => None,
            })
            .collect();
        assert_eq!(
            splits,
            [(1, "\\n\\n", 3, 3), (2, "\\n", 2, 2), (3, ".␣", 2, 2)]
        );
        assert!(!evs.iter().any(|e| matches!(e, TraceEvent::Cut(_))));
        let too_big: Vec<(usize, usize, Option<&str>)> = decisions
            .iter()
            .filter_map(|d| match d {
                Decision::TooBig { depth, len, after } => Some((*depth, *len, after.as_deref())),
                _ => None,
            })
            .collect();
        assert_eq!(
            too_big,
            [
                (1, 114, None),
                (2, 81, Some("\\n\\n")),
                (3, 52, Some("\\n"))
            ]
        );
        let emits = emitted(&evs);
        assert_eq!(emits, [0, 1, 2, 3, 4]);
        assert!(matches!(
            decisions.last(),
            Some(Decision::Emitted {
                chunk: 4,
                len: 16,
                overlap: false,
                last: true
            })
        ));
        // Only the pieces that fit are said to be closed by packing, with the
        // sums the packer computed.
        let packed: Vec<(usize, usize, usize)> = decisions
            .iter()
            .filter_map(|d| match d {
                Decision::Closed(p) => Some((p.group.0, p.next.0, p.would_be)),
                _ => None,
            })
            .collect();
        assert_eq!(packed, [(15, 83, 98), (21, 31, 52)]);
        // The words carry the same numbers.
        assert_eq!(
            say(split, evs[2]),
            "Packing: parts are added while they fit, and the next one does not: \
             15 with “\\n\\n” + 83 with “\\n\\n” = 98 > 40 chars. So this piece ends before it."
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
        let Some(Decision::Structure { depth: 1, step }) = decide(split, *first) else {
            panic!("the first split is not the structure's")
        };
        assert!(
            step.lead
                .starts_with("split at each heading of level 2 or deeper"),
            "{}",
            step.lead
        );
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
        let Some(Decision::HardCut { windows, listed }) = decide(split, *cut) else {
            panic!("the cut is not a hard cut")
        };
        let from_cut = evs
            .iter()
            .filter(|e| matches!(e, TraceEvent::Emitted { node, .. } if *node == cut.node()))
            .count();
        assert_eq!(
            windows, from_cut,
            "each window of the cut is emitted after it"
        );
        // The lesson's list ends in "": the cut is the one it asks for.
        assert!(listed);
    }
}
