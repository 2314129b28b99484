//! The bookkeeping both engines share: emitting chunks, recording nodes, and the
//! cut between consecutive chunks.

use crate::config::Config;
use crate::error::Error;
use crate::separator::Matcher;
use crate::span::Span;
use crate::trace::{Chunk, Cut, Node, NodeId};

/// One split in progress.
pub(crate) struct Run<'a> {
    pub source: &'a str,
    pub config: &'a Config,
    pub matchers: &'a [Matcher],
    record: bool,
    pub chunks: Vec<Chunk>,
    pub nodes: Vec<Node>,
    /// The cut that ends the previous chunk once another chunk is emitted. Engines
    /// set it at each boundary they make; the deepest boundary set last wins, which
    /// is exactly the separator of the deepest split between the two chunks.
    pub pending: Cut,
}

impl<'a> Run<'a> {
    pub fn new(source: &'a str, config: &'a Config, matchers: &'a [Matcher], record: bool) -> Self {
        // About one chunk per `size` bytes (exact for full ASCII chunks), and
        // about two nodes per chunk. Reserving it saves most of the copying a
        // growing vector does; the cap keeps a tiny size on a huge text (or
        // text that is mostly whitespace) from reserving memory it never uses.
        const CAP: usize = 1 << 16;
        let chunks = (source.len() / config.size.max(1))
            .saturating_add(1)
            .min(CAP);
        let nodes = if record { 2 * chunks } else { 0 };
        Run {
            source,
            config,
            matchers,
            record,
            chunks: Vec::with_capacity(chunks),
            nodes: Vec::with_capacity(nodes),
            pending: Cut::End,
        }
    }

    /// Appends a chunk. The previous chunk's cut becomes [`Run::pending`].
    pub fn emit(&mut self, span: Span, len: usize, node: Option<NodeId>) {
        if let Some(prev) = self.chunks.last_mut() {
            prev.cut = self.pending;
        }
        let index = self.chunks.len();
        let overlap = self.chunks.last().and_then(|p| p.span.intersect(span));
        self.chunks.push(Chunk {
            index,
            span,
            len,
            cut: Cut::End,
            overlap,
            node,
        });
        if let Some(id) = node {
            if self.nodes[id].action == crate::trace::Action::Fits {
                self.nodes[id].chunk = Some(index);
            }
        }
    }

    /// Records a node when tracing; returns its id.
    pub fn node(&mut self, node: Node) -> Option<NodeId> {
        if !self.record {
            return None;
        }
        let id = self.nodes.len();
        if let Some(parent) = node.parent {
            self.nodes[parent].children.push(id);
        }
        self.nodes.push(node);
        Some(id)
    }

    /// Mutable access to a recorded node.
    pub fn with_node(&mut self, id: Option<NodeId>, f: impl FnOnce(&mut Node)) {
        if let Some(id) = id {
            f(&mut self.nodes[id]);
        }
    }

    /// The error for a character that no chunk of `size` bytes can hold.
    pub fn char_too_big(&self, at_byte: usize) -> Error {
        let ch = self.source[at_byte..].chars().next().unwrap_or('\0');
        Error::CharTooBig {
            ch,
            at: self.source[..at_byte].chars().count(),
            bytes: ch.len_utf8(),
            size: self.config.size,
        }
    }
}
