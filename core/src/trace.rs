//! What the engine did, recorded as it did it. The UI draws only from this.

mod events;
pub(crate) mod semantic;

pub use events::TraceEvent;

use crate::separator::Separator;
use crate::span::Span;

/// An index into [`Trace::nodes`].
pub type NodeId = usize;

/// What ended a chunk: the cut between it and the next chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cut {
    /// The separator at this index of the list made the cut. For two chunks packed
    /// from different pieces it is the separator of the deepest split that put
    /// them apart.
    Separator(usize),
    /// A hard cut: no separator was left (or the list said `""`), so the text was
    /// cut after `size` units.
    Hard,
    /// A fixed window ended here.
    Window,
    /// A boundary of the document's structure (the Markdown strategy): a
    /// heading that starts the next section, the end of a block, a table row,
    /// a line of a fenced block.
    Structure(Level),
    /// A semantic breakpoint: the distance between this chunk's last
    /// sentence group and the next one's was above the threshold.
    Breakpoint,
    /// The last chunk: the text ended.
    End,
}

/// What the engine did with one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The node fits within `size`: it is a chunk as it is.
    Fits,
    /// The node is whitespace only (or empty): it becomes no chunk.
    Empty,
    /// Split on the separator at this index into `parts` parts, then packed.
    Split {
        /// Index of the separator in the list.
        separator: usize,
        /// How many parts the split made (before packing).
        parts: usize,
    },
    /// Cut into windows of `size` units, because the list says `""` here
    /// (`separator` is its index) or because the list ran out (`None`).
    HardCut {
        /// Index of the `""` entry, or `None` when the list was exhausted.
        separator: Option<usize>,
        /// How many windows were cut.
        windows: usize,
    },
    /// The fixed engine: windows every `stride` units.
    Windows {
        /// `size − overlap`.
        stride: usize,
    },
    /// Chonkie's `SentenceChunker`: the text split at its sentence ends
    /// into `parts` sentences (short ones joined), packed greedily by their
    /// counts, each next chunk starting back at the sentences its overlap
    /// holds.
    Sentences {
        /// How many sentences the split made (after joining short ones).
        parts: usize,
    },
    /// Cut at a level of the document's structure into `parts` parts (the
    /// Markdown strategy). Sections are never packed together; blocks, table
    /// rows and fence lines are packed greedily, as separator parts are.
    Structure {
        /// The level: for sections, the shallowest heading among the parts.
        level: Level,
        /// How many parts the cut made (before packing).
        parts: usize,
    },
    /// Chonkie's `RecursiveChunker`: split at every delimiter of one level of
    /// its rules at once ([`crate::chonkie::LEVELS`]: paragraphs, sentence
    /// ends, pauses, words) into `parts` parts, short parts joined to their
    /// neighbour, then packed by the sum of their counts. Each child's `len`
    /// is that sum, what chonkie compares with the size (in tokens it can
    /// differ from the joined text's own count).
    ChonkieLevel {
        /// The level, from 0 ([`CHONKIE_LEVEL_NAMES`]).
        level: usize,
        /// How many parts the level made (after joining short ones).
        parts: usize,
    },
}

/// What each level of Chonkie's rules cuts at ([`Action::ChonkieLevel`]'s
/// `level`), as the tree and the report name it; each level's delimiters
/// are [`crate::chonkie::LEVELS`]. Here, below the engines, so a report can
/// name a level without reaching up to the engine.
pub const CHONKIE_LEVEL_NAMES: [&str; 4] = ["paragraphs", "sentence ends", "pauses", "words"];

/// A level of a Markdown document's structure, from the strongest.
///
/// The order is the order of the levels: a section boundary is stronger than a
/// block boundary, which is stronger than a table row or a fence line. Inside
/// one oversized block the separators of the configuration come next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// A heading of this depth (1 to 6) starts a section here.
    Heading(u8),
    /// A block ends: a paragraph, a list item, a block quote, a code block, a
    /// table, an HTML block, a heading.
    Block,
    /// A table row ends (the table alone was over the size).
    TableRow,
    /// A line of a fenced or indented code block ends (the block alone was
    /// over the size).
    FenceLine,
}

impl Level {
    /// How a person reads the level: `heading 2`, `block`, `table row`,
    /// `fence line`. The report's `cut` for a structure cut.
    pub fn name(self) -> String {
        match self {
            Level::Heading(n) => format!("heading {n}"),
            Level::Block => "block".into(),
            Level::TableRow => "table row".into(),
            Level::FenceLine => "fence line".into(),
        }
    }

    /// The level a [`Level::name`] names.
    pub fn parse(name: &str) -> Option<Level> {
        match name {
            "block" => Some(Level::Block),
            "table row" => Some(Level::TableRow),
            "fence line" => Some(Level::FenceLine),
            _ => {
                let n: u8 = name.strip_prefix("heading ")?.parse().ok()?;
                (1..=6).contains(&n).then_some(Level::Heading(n))
            }
        }
    }
}

/// Why the packer closed a chunk (or a group that was then split further).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Close {
    /// Adding the next part (`next_len` units) would have made the group
    /// `would_be` units, over the size limit.
    ///
    /// The packer measures parts as cut, before trimming, so `group_len` can be
    /// longer than the node's trimmed `len` (it still holds the separator that
    /// ends it, or the whitespace trimming removes). In chars and bytes
    /// `would_be == group_len + gap_len + next_len`: these are the numbers a
    /// learner can add up. Tokens are counted on the joined text, where a
    /// token may span the join, so their sum can differ from `would_be`.
    NextWouldExceed {
        /// Length of the group as packed so far, before trimming.
        group_len: usize,
        /// Length of what lies between the group and the next part and is
        /// counted with them: the separator when it is dropped from both sides
        /// (placement `none`), LangChain's joining separator; 0 otherwise.
        gap_len: usize,
        /// Length of the part that did not fit.
        next_len: usize,
        /// Length the group would have had with it.
        would_be: usize,
    },
    /// The parent piece had no parts left.
    ParentEnded,
}

/// One step of the recursion: a piece of the text and what happened to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// The piece, after trimming.
    pub span: Span,
    /// Its length in the configured unit.
    pub len: usize,
    /// 1 for the whole text; a node split at level `d` has children at `d + 1`.
    pub depth: usize,
    /// The node this piece came from.
    pub parent: Option<NodeId>,
    /// The pieces this node was packed into (in order).
    pub children: Vec<NodeId>,
    /// Separators tried on this node and not found in it, in the order tried.
    pub absent: Vec<usize>,
    /// What was done with the node.
    pub action: Action,
    /// Whether the node was longer than `size`.
    pub too_big: bool,
    /// Which parts of the parent's split were packed into this node
    /// (`first..last`, half-open); `None` for the root.
    pub parts: Option<(usize, usize)>,
    /// Why the packer closed this group; `None` for the root and for a part
    /// that is never packed with another (a Markdown section, or the blocks
    /// before a section's first subsection).
    pub close: Option<Close>,
    /// The chunk this node became, if it fit.
    pub chunk: Option<usize>,
}

impl Node {
    /// A node that is a chunk as it is (as far as is known when it is made):
    /// no children, nothing searched, no chunk yet.
    pub(crate) fn fits(
        span: Span,
        len: usize,
        depth: usize,
        parent: Option<NodeId>,
        too_big: bool,
        parts: Option<(usize, usize)>,
        close: Option<Close>,
    ) -> Node {
        Node {
            span,
            len,
            depth,
            parent,
            children: Vec::new(),
            absent: Vec::new(),
            action: Action::Fits,
            too_big,
            parts,
            close,
            chunk: None,
        }
    }

    /// The one node of a split into windows (the fixed engine's, Chonkie's
    /// `TokenChunker`'s): the whole text of `len` units, cut every `stride`.
    pub(crate) fn windows(text_len: usize, len: usize, size: usize, stride: usize) -> Node {
        Node::whole(text_len, len, size, Action::Windows { stride })
    }

    /// The one node of an engine that cuts the whole text (of `len` units)
    /// in one pass, every chunk pointing at it: windows, or Chonkie's
    /// sentences.
    pub(crate) fn whole(text_len: usize, len: usize, size: usize, action: Action) -> Node {
        Node {
            span: Span::new(0, text_len),
            len,
            depth: 1,
            parent: None,
            children: Vec::new(),
            absent: Vec::new(),
            action,
            too_big: len > size,
            parts: None,
            close: None,
            chunk: None,
        }
    }
}

/// The record of one split.
///
/// # Invariants
///
/// - `nodes[0]` is the root (the whole text, trimmed) whenever the text is not
///   empty; nodes are stored in the order the engine visited them (pre-order).
/// - Every chunk made from a node that fit has `chunk.node == Some(id)` and
///   `nodes[id].chunk == Some(chunk.index)`; hard-cut windows point at the node
///   that was cut.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The recursion tree, flattened. The semantic engine records here only
    /// the recursive splits of its chunks that were too long, each a tree of
    /// its own (a root with no parent).
    pub nodes: Vec<Node>,
    /// What the semantic engine did (sentences, distances, threshold,
    /// breakpoints, LangChain's chunks), recorded even when the tree is not,
    /// since it holds LangChain's chunk texts; `None` for the other engines.
    pub semantic: Option<Box<semantic::SemanticTrace>>,
}

impl Trace {
    /// The root node, if the text was not empty.
    pub fn root(&self) -> Option<&Node> {
        self.nodes.first()
    }

    /// The deepest level reached.
    pub fn depth(&self) -> usize {
        self.nodes.iter().map(|n| n.depth).max().unwrap_or(0)
    }
}

/// Builds a [`Trace`] while an engine runs, or records nothing when tracing is
/// off (the fast path). Every engine records its nodes through this, so the
/// tree is linked the same way whichever engine made it.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    on: bool,
    nodes: Vec<Node>,
}

impl Recorder {
    /// A recorder that keeps nodes when `on`, with room reserved for `capacity`.
    pub fn new(on: bool, capacity: usize) -> Recorder {
        Recorder {
            on,
            nodes: Vec::with_capacity(if on { capacity } else { 0 }),
        }
    }

    /// Whether nodes are kept: what a node's own fields cost to compute is
    /// wasted when they are not.
    pub fn is_on(&self) -> bool {
        self.on
    }

    /// Appends `node` and links it to its parent; `None` when tracing is off.
    pub fn node(&mut self, node: Node) -> Option<NodeId> {
        if !self.on {
            return None;
        }
        let id = self.nodes.len();
        if let Some(parent) = node.parent {
            self.nodes[parent].children.push(id);
        }
        self.nodes.push(node);
        Some(id)
    }

    /// Changes a recorded node (nothing when `id` is `None`).
    pub fn with_node(&mut self, id: Option<NodeId>, f: impl FnOnce(&mut Node)) {
        if let Some(id) = id {
            f(&mut self.nodes[id]);
        }
    }

    /// The finished trace.
    pub fn finish(self) -> Trace {
        Trace {
            nodes: self.nodes,
            semantic: None,
        }
    }
}

/// One chunk of the output.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chunk {
    /// Position in the output, from 0, without gaps.
    pub index: usize,
    /// Where the chunk is in the source. Its text is `&source[span]`.
    pub span: Span,
    /// Its length in the configured unit (never more than `size`, except where
    /// a chunk could not be cut any smaller, which is reported as an error).
    pub len: usize,
    /// The cut that ended this chunk.
    pub cut: Cut,
    /// The part of this chunk that repeats the previous chunk, if any.
    pub overlap: Option<Span>,
    /// The trace node the chunk came from (`None` when no trace was recorded).
    pub node: Option<NodeId>,
}

impl Output {
    /// The separators `Cut::Separator` and the trace index: `configured` (the
    /// configuration's list) for our engines, the list a LangChain strategy
    /// really used for it (its default list, or only the first separator).
    pub fn cut_separators(&self, configured: &[Separator]) -> Vec<Separator> {
        if let Some(chosen) = &self.separators {
            return chosen.clone();
        }
        match &self.langchain {
            Some(facts) => facts
                .separators
                .iter()
                .map(|pattern| Separator {
                    pattern: pattern.clone(),
                    regex: facts.regex && !pattern.is_empty(),
                    level: None,
                })
                .collect(),
            None => configured.to_vec(),
        }
    }
}

impl Output {
    /// Chunk `index`'s text as its library returns it: the library's own
    /// string where it is not the span's text, else `&source[span]`.
    ///
    /// # Panics
    ///
    /// If `index` is not below the number of chunks.
    pub fn chunk_text<'a>(&'a self, index: usize, source: &'a str) -> &'a str {
        self.library
            .as_ref()
            .and_then(|l| l.get(index))
            .and_then(LibraryFact::text)
            .unwrap_or_else(|| self.chunks[index].text(source))
    }

    /// How many chunks are not slices of the source ([`Output::chunk_text`]
    /// is not their span's text).
    pub fn not_slices(&self) -> usize {
        self.library
            .as_ref()
            .map_or(0, |l| l.iter().filter(|f| f.text().is_some()).count())
    }
}

impl Chunk {
    /// The chunk's text.
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        self.span.text(source)
    }

    /// Appends the next chunk of a split to `chunks`: the one before it gets
    /// `cut` (what separates the two), and the new chunk's overlap is the
    /// part of its span the one before already holds. Returns its index.
    pub(crate) fn push_next(
        chunks: &mut Vec<Chunk>,
        cut: Cut,
        span: Span,
        len: usize,
        node: Option<NodeId>,
    ) -> usize {
        let overlap = chunks.last_mut().and_then(|prev| {
            prev.cut = cut;
            prev.span.intersect(span)
        });
        let index = chunks.len();
        chunks.push(Chunk {
            index,
            span,
            len,
            cut: Cut::End,
            overlap,
            node,
        });
        index
    }
}

/// What a library returns for one chunk beyond its span: its own string
/// where that is not the span's text, why, its own start offset, and its
/// metadata.
///
/// One exists for every chunk of a LangChain split, so it is kept small
/// (24 bytes): `start_index` inline, and the rest, which most chunks of the
/// character splitters do not have, behind one pointer. On a large text the
/// list of facts is as long as the list of chunks, and a fact the size of all
/// its fields would alone take a third of the input's size at a small
/// `chunk_size`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibraryFact {
    /// The library's own start offset for the chunk, in chars: LangChain's
    /// `add_start_index` (where its `str.find` put the chunk, or -1),
    /// Chonkie's `start_index` (a running sum of its decoded texts'
    /// lengths). It can differ from the span's start. `None` for a class
    /// without one (`MarkdownHeaderTextSplitter`).
    pub start_index: Option<i64>,
    /// `None` when the chunk has neither its own text nor metadata.
    rest: Option<Box<FactRest>>,
}

/// The rarer parts of a [`LibraryFact`].
#[derive(Clone, Debug, PartialEq, Eq)]
struct FactRest {
    text: Option<String>,
    not_slice: Option<NotSlice>,
    metadata: Option<Vec<(String, String)>>,
}

impl LibraryFact {
    /// A chunk's facts: its own `text` and why (`not_slice`) when it is not
    /// the span's text, its `start_index`, and its `Document`'s metadata.
    pub fn new(
        text: Option<String>,
        not_slice: Option<NotSlice>,
        start_index: Option<i64>,
        metadata: Option<Vec<(String, String)>>,
    ) -> LibraryFact {
        let rest = (text.is_some() || not_slice.is_some() || metadata.is_some()).then(|| {
            Box::new(FactRest {
                text,
                not_slice,
                metadata,
            })
        });
        LibraryFact { start_index, rest }
    }

    /// The library's chunk text when it is *not* `&source[span]` (for
    /// LangChain a regex separator joined back as its pattern, or dropped
    /// empty pieces; for Chonkie tokens decoded apart); `None` when the
    /// span's text is exactly the library's.
    pub fn text(&self) -> Option<&str> {
        self.rest.as_ref()?.text.as_deref()
    }

    /// Why [`text`](Self::text) is not the span's text, when it is not.
    pub fn not_slice(&self) -> Option<NotSlice> {
        self.rest.as_ref()?.not_slice
    }

    /// The `Document`'s metadata in LangChain's order (the enclosing headers
    /// for `MarkdownHeaderTextSplitter`; `None` for the other classes).
    pub fn metadata(&self) -> Option<&[(String, String)]> {
        self.rest.as_ref()?.metadata.as_deref()
    }
}

/// What a LangChain split says beyond the chunks' spans and their
/// [`LibraryFact`]s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LangChainFacts {
    /// LangChain's log lines ("Created a chunk of size …").
    pub warnings: Vec<String>,
    /// The separators `Cut::Separator` and the trace index: LangChain's
    /// default list when none was given, only the first for
    /// `CharacterTextSplitter`.
    pub separators: Vec<String>,
    /// Whether the separators are regexes (`is_separator_regex`).
    pub regex: bool,
}

/// The result of a split: the chunks, and how they came to be.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// The chunks in source order.
    pub chunks: Vec<Chunk>,
    /// The trace (empty when split without one).
    pub trace: Trace,
    /// What the library says of each chunk beyond its span: its own text
    /// where that is not a slice, and its own start offset. `Some` for every
    /// LangChain split, and for a Chonkie split with a chunk that is not a
    /// slice; `None` where the spans say everything.
    ///
    /// # Invariant
    ///
    /// When `Some`, `library[i]` belongs to `chunks[i]`.
    pub library: Option<Vec<LibraryFact>>,
    /// What a LangChain strategy says beyond the chunks: its warnings, and
    /// the separators the cuts refer to. `None` for the others.
    pub langchain: Option<LangChainFacts>,
    /// What the Markdown strategy says beyond the spans: the headings, each
    /// chunk's heading path, prefix and table header. `None` for the others.
    pub markdown: Option<MarkdownFacts>,
    /// The text's sentences and the judgments on doubtful stops, when the
    /// separator list has the sentence level and the trace was recorded.
    pub sentences: Option<crate::sentence::Sentences>,
    /// The separators `Cut::Separator` and the trace index when the engine
    /// chose them as it went (semchunk picks a splitter for each piece), in
    /// the order first used; `None` when they are the configured list or
    /// LangChain's.
    pub separators: Option<Vec<Separator>>,
}

/// A heading of a Markdown document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Heading {
    /// 1 for `#` (or a `===` underline) to 6.
    pub level: u8,
    /// The whole heading: its marks, its text and its line end (a Setext
    /// heading's underline included).
    pub span: Span,
    /// Its text as written (inline marks kept, `#`s and spaces around it
    /// left out); empty for a heading with no text.
    pub text: Span,
}

/// What the Markdown strategy adds to one chunk.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MarkdownChunk {
    /// The headings whose sections enclose the chunk, outermost first, the
    /// chunk's own section last: indices into [`MarkdownFacts::headings`].
    /// Empty before the first heading.
    pub path: Vec<usize>,
    /// The text put before the chunk for embedding, when the configuration
    /// asks for it ([`MarkdownConfig::heading_prefix`](crate::MarkdownConfig::heading_prefix)):
    /// `size` counted it with the chunk. Never part of the chunk's text.
    pub prefix: Option<String>,
    /// For a chunk of table rows cut from an oversized table, after its
    /// first: the table's header (its first row and the delimiter row), the
    /// context the rows are read in. Recorded, never copied into the chunk.
    pub table_header: Option<Span>,
}

/// What a Markdown split says beyond the chunks' spans.
///
/// # Invariant
///
/// `chunks[i]` belongs to `Output::chunks[i]`, and every index in a path is
/// an index of `headings`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MarkdownFacts {
    /// Every section heading of the document, in order (headings inside
    /// fences, quotes or list items are not section headings).
    pub headings: Vec<Heading>,
    /// One per chunk, in order.
    pub chunks: Vec<MarkdownChunk>,
}

impl MarkdownFacts {
    /// The heading path of chunk `index` as texts of `source`.
    pub fn path_texts<'a>(&self, source: &'a str, index: usize) -> Vec<&'a str> {
        self.chunks.get(index).map_or_else(Vec::new, |c| {
            c.path
                .iter()
                .filter_map(|&h| self.headings.get(h))
                .map(|h| h.text.text(source))
                .collect()
        })
    }
}

/// Why a library's text for a chunk is not the source between its offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NotSlice {
    /// With `keep_separator=False`, LangChain dropped what the regex separator
    /// (an index into the separators used) matched and joined the pieces back
    /// with the pattern text itself, which the source does not have there.
    PatternJoined {
        /// The separator.
        separator: usize,
    },
    /// With `keep_separator=False` and a pattern that starts with a
    /// lookaround, LangChain joined the pieces back with `""`, so the matched
    /// text is missing.
    JoinedWithNothing {
        /// The separator.
        separator: usize,
    },
    /// LangChain dropped empty pieces (two separators in a row leave one
    /// between them) and joined the rest with a single separator.
    EmptyPiecesDropped,
    /// `MarkdownHeaderTextSplitter` stripped every line, dropped blank lines
    /// and characters that are not printable (tabs among them), and joined
    /// the paragraphs of one section with `"  \n"`.
    LinesRejoined,
    /// Chonkie decoded a run of tokens on its own that starts or ends inside
    /// a character (one of several tokens), so that character's bytes came
    /// back as U+FFFD. The span holds the characters whose first byte is in
    /// the run.
    TokensDecodedApart,
    /// LlamaIndex's `MarkdownNodeParser` rebuilt the section's header line
    /// as its `#`s, one space and the header's text, where the source has
    /// another whitespace character (a tab, a no-break space) after the
    /// `#`s.
    HeaderRebuilt,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::langchain::NotSlice;

    /// The memory bound of a LangChain split in the CLI rests on this size.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn a_fact_is_small() {
        assert_eq!(std::mem::size_of::<LibraryFact>(), 24);
    }

    #[test]
    fn a_fact_keeps_what_it_was_given() {
        let plain = LibraryFact::new(None, None, Some(-1), None);
        assert_eq!(
            (plain.text(), plain.not_slice(), plain.metadata()),
            (None, None, None)
        );
        assert_eq!(plain.start_index, Some(-1));
        let meta = vec![("Header 1".to_string(), "Refunds".to_string())];
        let full = LibraryFact::new(
            Some("a b".into()),
            Some(NotSlice::EmptyPiecesDropped),
            None,
            Some(meta.clone()),
        );
        assert_eq!(full.text(), Some("a b"));
        assert_eq!(full.not_slice(), Some(NotSlice::EmptyPiecesDropped));
        assert_eq!(full.metadata(), Some(&meta[..]));
        assert_eq!(full.start_index, None);
    }
}
