//! The trace as a stream of events: what the engine did, one thing at a
//! time, in the order it did it. The tree ([`Trace::nodes`]) is the finished
//! record; the events replay it, so a learner can follow the recursion step
//! by step (the page's stepper) and a program can read it as a log (the
//! report's `trace.events`, for the CLI, Python and the JS API).

use super::{Action, Close, NodeId, Output, Trace};

/// One thing the engine did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceEvent {
    /// The packer closed this group because the next part would not fit.
    Closed(NodeId),
    /// The piece was measured against the size.
    Measured(NodeId),
    /// The piece was split on a separator, or at a level of the document's
    /// structure: a recursion step.
    Split(NodeId),
    /// The piece was cut into windows (a hard cut, or fixed windows).
    Cut(NodeId),
    /// A chunk was emitted from this node.
    Emitted {
        /// The node.
        node: NodeId,
        /// The chunk's index.
        chunk: usize,
    },
}

impl TraceEvent {
    /// The node the event is about.
    pub fn node(self) -> NodeId {
        match self {
            TraceEvent::Closed(n)
            | TraceEvent::Measured(n)
            | TraceEvent::Split(n)
            | TraceEvent::Cut(n) => n,
            TraceEvent::Emitted { node, .. } => node,
        }
    }

    /// The event's name in a report: `closed`, `measured`, `split`, `cut`,
    /// `emitted`.
    pub const fn name(self) -> &'static str {
        match self {
            TraceEvent::Closed(_) => "closed",
            TraceEvent::Measured(_) => "measured",
            TraceEvent::Split(_) => "split",
            TraceEvent::Cut(_) => "cut",
            TraceEvent::Emitted { .. } => "emitted",
        }
    }
}

impl Output {
    /// The events of this split, in engine order.
    ///
    /// # Invariants
    ///
    /// Each tree of the trace (one root, or for the semantic strategy one
    /// per chunk it split again) is walked in pre-order, the order its nodes
    /// are stored in, so node ids first appear in increasing order and chunks
    /// are emitted in source order. A cut node's windows are emitted right
    /// after its cut, since the trace points each window at the node that
    /// was cut. A whitespace-only piece has no event; a piece over the size
    /// has no `Closed` (it stood alone whatever came next).
    pub fn events(&self) -> Vec<TraceEvent> {
        let nodes = &self.trace.nodes;
        let mut out = Vec::new();
        // The windows of each cut node, found in one pass over the chunks
        // (looking them up per node would be quadratic in a long text cut
        // into small windows).
        let mut windows = vec![Vec::new(); nodes.len()];
        for chunk in &self.chunks {
            if let Some(w) = chunk.node.and_then(|id| windows.get_mut(id)) {
                w.push(chunk.index);
            }
        }
        for (id, node) in nodes.iter().enumerate() {
            if node.parent.is_none() {
                visit(&self.trace, &windows, id, &mut out);
            }
        }
        out
    }
}

fn visit(trace: &Trace, windows: &[Vec<usize>], id: NodeId, out: &mut Vec<TraceEvent>) {
    let n = &trace.nodes[id];
    if matches!(n.close, Some(Close::NextWouldExceed { .. })) && !n.too_big {
        out.push(TraceEvent::Closed(id));
    }
    if matches!(n.action, Action::Empty) {
        return;
    }
    out.push(TraceEvent::Measured(id));
    match n.action {
        Action::Split { .. } | Action::Structure { .. } | Action::ChonkieLevel { .. } => {
            out.push(TraceEvent::Split(id));
            for &c in &n.children {
                visit(trace, windows, c, out);
            }
        }
        Action::HardCut { .. } | Action::Windows { .. } | Action::Sentences { .. } => {
            out.push(if matches!(n.action, Action::Sentences { .. }) {
                TraceEvent::Split(id)
            } else {
                TraceEvent::Cut(id)
            });
            // The chunks point at the node itself: it has no children.
            out.extend(
                windows[id]
                    .iter()
                    .map(|&chunk| TraceEvent::Emitted { node: id, chunk }),
            );
        }
        Action::Fits | Action::Empty => {
            if let Some(chunk) = n.chunk {
                out.push(TraceEvent::Emitted { node: id, chunk });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TraceEvent::{self, *};
    use crate::{Config, Resources, Splitter, Strategy};

    const PAGE: &str = "Refund policy\n\nRefunds take 5 days. They go to the original UPI id.\n\
                        COD orders get store credit.\n\nContact us 24x7.";

    fn events(config: Config, text: &str) -> Vec<TraceEvent> {
        Splitter::new(config, &Resources::new())
            .unwrap()
            .split(text)
            .unwrap()
            .events()
    }

    /// The lesson's table, step by step: the page is measured and split on
    /// the blank line; "Refund policy" closes its group (the next part would
    /// not fit) and fits; the 81-char middle is split on the newline, its
    /// 52-char first line on ". ", and so on to "Contact us 24x7.".
    #[test]
    fn the_refund_page_replays_the_lessons_table() {
        let config = Config::recursive(40).with_separators(["\n\n", "\n", ". ", " ", ""]);
        assert_eq!(
            events(config, PAGE),
            [
                Measured(0),
                Split(0),
                Closed(1),
                Measured(1),
                Emitted { node: 1, chunk: 0 },
                Measured(2),
                Split(2),
                Measured(3),
                Split(3),
                Closed(4),
                Measured(4),
                Emitted { node: 4, chunk: 1 },
                Measured(5),
                Emitted { node: 5, chunk: 2 },
                Measured(6),
                Emitted { node: 6, chunk: 3 },
                Measured(7),
                Emitted { node: 7, chunk: 4 },
            ]
        );
    }

    /// Fixed windows are one cut of the root, each window emitted after it,
    /// in order; a text without a trace has no events.
    #[test]
    fn windows_follow_their_cut_and_an_empty_text_has_none() {
        assert_eq!(
            events(Config::fixed(4, 0), "abcdefghij"),
            [
                Measured(0),
                Cut(0),
                Emitted { node: 0, chunk: 0 },
                Emitted { node: 0, chunk: 1 },
                Emitted { node: 0, chunk: 2 },
            ]
        );
        assert_eq!(events(Config::for_strategy(Strategy::Recursive), ""), []);
    }
}
