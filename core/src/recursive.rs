//! Recursive splitting with the lessons' semantics.
//!
//! For a piece (trimmed when trimming is on): if it fits, it is a chunk. If not,
//! take the first separator that occurs in it, cut it into parts (the separator
//! placed by [`Placement`]), pack consecutive parts greedily while they fit, and
//! treat each packed group as a new piece that may only use the separators
//! *after* the one that cut it. When no separator is left, cut hard every `size`
//! units. Each level has strictly fewer separators, so the recursion ends; its
//! depth is at most the length of the list plus one.
//!
//! The recursion is run on an explicit stack of [`Frame`]s on the heap, not on
//! the call stack: a list of a few hundred separators can nest that deep, and
//! the call stack is small (1 MB in wasm, 2 MB for a test thread).

use crate::engine::Run;
use crate::error::Error;
use crate::separator::Placement;
use crate::separator::Searcher;
use crate::span::{is_space, trim, Span};
use crate::trace::{Action, Close, Cut, Node, NodeId};
use crate::unit::{ceil_boundary, floor_boundary, Lead, Measure, Unit};

/// Splits the whole source.
pub(crate) fn split(run: &mut Run<'_>) -> Result<(), Error> {
    let source = run.source;
    let whole = Span::new(0, source.len());
    if whole.is_empty() {
        return Ok(());
    }
    let gaps = run.gaps;
    let searchers: Vec<Searcher<'_>> = run
        .matchers
        .iter()
        .map(|m| Searcher::new(m, gaps))
        .collect();
    let root = Measured::new(&run.measure, whole, false);
    let top = Visit {
        group: root,
        first_sep: 0,
        depth: 1,
        parent: None,
        parts: None,
        close: None,
        limit: run.config.size,
    };
    if let Some((id, this)) = open(run, top.clone()) {
        split_open(run, &searchers, this, id, &top)?;
    }
    if run.config.overlap > 0 {
        let size = run.config.size;
        add_overlap(run, |_| Some((size, None)));
    }
    Ok(())
}

/// Splits a piece [`open`] found too big with the separators `v.first_sep..`
/// (a hard cut when none is left), to the end: every chunk inside it is
/// emitted before this returns. The Markdown strategy calls it for a block,
/// a table row or a line that alone is over its room.
pub(crate) fn split_open<'a: 's, 's>(
    run: &mut Run<'a>,
    searchers: &'s [Searcher<'a>],
    this: Measured,
    id: Option<NodeId>,
    v: &Visit,
) -> Result<(), Error> {
    let source: &'s str = run.source;
    let mut stack: Vec<Frame<'s>> = Vec::new();
    separate(run, source, searchers, this, id, v, &mut stack)?;
    while let Some(frame) = stack.last_mut() {
        match frame.next_group(run) {
            Some(Group {
                group,
                first,
                last,
                close,
            }) => {
                // The groups of one piece are split in order, each to the end
                // before the next is packed: the trace is stored in this order.
                if frame.groups > 0 && run.chunks.len() > frame.first_chunk {
                    run.pending = Cut::Separator(frame.separator);
                }
                frame.groups += 1;
                let child = Visit {
                    group,
                    first_sep: frame.separator + 1,
                    depth: frame.depth + 1,
                    parent: frame.id,
                    parts: Some((first, last)),
                    close: Some(close),
                    limit: frame.packer.limit,
                };
                if let Some((id, this)) = open(run, child.clone()) {
                    separate(run, source, searchers, this, id, &child, &mut stack)?;
                }
            }
            None => {
                let (id, separator, parts) = (frame.id, frame.separator, frame.packer.count);
                run.with_node(id, |n| n.action = Action::Split { separator, parts });
                stack.pop();
            }
        }
    }
    Ok(())
}

/// A span whose length in the configured unit is already known.
///
/// Every byte used to be counted three times per level (the piece, its parts
/// while packing, each packed group again); now each is counted at most once
/// per level, and usually only once in all: `plain` records that the length in
/// units equals the length in bytes (always for bytes; for chars, exactly when
/// the text is ASCII), which then holds for every part of the span, so the
/// parts of a plain span are measured by subtraction.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Measured {
    pub span: Span,
    pub len: usize,
    pub plain: bool,
}

impl Measured {
    /// Measures `span`; `within_plain` says it lies inside a plain span.
    /// Tokens are never plain: their lengths do not add up.
    pub fn new(measure: &Measure<'_>, span: Span, within_plain: bool) -> Measured {
        let unit = measure.counter().unit();
        if within_plain || unit == Unit::Bytes || span.is_empty() {
            return Measured {
                span,
                len: span.len(),
                plain: true,
            };
        }
        let len = measure.len(span);
        Measured {
            span,
            len,
            plain: unit.is_additive() && len == span.len(),
        }
    }

    /// The span with whitespace trimmed off its ends; only the trimmed-off
    /// text is counted.
    fn trimmed(self, measure: &Measure<'_>, source: &str) -> Measured {
        let unit = measure.counter();
        let t = trim(source, self.span);
        if t == self.span {
            return self;
        }
        if self.plain {
            return Measured {
                span: t,
                len: t.len(),
                plain: true,
            };
        }
        if !unit.is_additive() {
            return Measured::new(measure, t, false);
        }
        let removed =
            unit.len(&source[self.span.start..t.start]) + unit.len(&source[t.end..self.span.end]);
        let len = self.len - removed;
        Measured {
            span: t,
            len,
            plain: len == t.len(),
        }
    }
}

/// A piece to visit: a packed group (untrimmed, measured) that may use
/// separators `first_sep..`, where it came from, and the most units a chunk
/// of it may hold (`size`, less the room a Markdown heading prefix takes).
#[derive(Clone)]
pub(crate) struct Visit {
    pub group: Measured,
    pub first_sep: usize,
    pub depth: usize,
    pub parent: Option<NodeId>,
    pub parts: Option<(usize, usize)>,
    pub close: Option<Close>,
    pub limit: usize,
}

/// Records a piece's node (trimmed when trimming is on) and emits it if it
/// fits; returns the node and the trimmed piece when it is too big, for the
/// caller to split.
pub(crate) fn open(run: &mut Run<'_>, v: Visit) -> Option<(Option<NodeId>, Measured)> {
    let this = if run.config.trim {
        v.group.trimmed(&run.measure, run.source)
    } else {
        v.group
    };
    let (span, len) = (this.span, this.len);
    let too_big = run.len_after_lead(span, len) > v.limit;
    let action = if span.is_empty() {
        Action::Empty
    } else {
        Action::Fits
    };
    let id = run.node(Node {
        span,
        len,
        depth: v.depth,
        parent: v.parent,
        children: Vec::new(),
        absent: Vec::new(),
        action,
        too_big,
        parts: v.parts,
        close: v.close,
        chunk: None,
    });
    if !too_big {
        if !span.is_empty() {
            run.emit(span, len, id);
        }
        return None;
    }
    Some((id, this))
}

/// Splits a piece too big to be a chunk: cuts it hard if no separator is
/// left, and otherwise pushes the [`Frame`] that goes on to split it (in
/// place: a frame is too big to return by value cheaply).
fn separate<'s>(
    run: &mut Run<'_>,
    source: &'s str,
    searchers: &'s [Searcher<'_>],
    this: Measured,
    id: Option<NodeId>,
    v: &Visit,
    stack: &mut Vec<Frame<'s>>,
) -> Result<(), Error> {
    let span = this.span;
    for (index, searcher) in searchers.iter().enumerate().skip(v.first_sep) {
        if let Searcher::HardCut = searcher {
            return hard_cut(run, this, id, Some(index), v.limit);
        }
        // The first match says the separator occurs; the frame then goes on
        // with the same iterator, so the piece is searched once.
        let mut matches = searcher.find_iter(source, span);
        let Some(first) = matches.next() else {
            run.with_node(id, |n| n.absent.push(index));
            continue;
        };
        run.with_node(id, |n| {
            n.action = Action::Split {
                separator: index,
                parts: 0,
            }
        });
        stack.push(Frame {
            id,
            separator: index,
            depth: v.depth,
            first_chunk: run.chunks.len(),
            groups: 0,
            matches,
            peeked: Some(first),
            start: span.start,
            end: span.end,
            done: false,
            packer: Packer::new(this.plain, v.limit),
        });
        return Ok(());
    }
    hard_cut(run, this, id, None, v.limit)
}

/// A piece being cut by a separator and packed.
///
/// The parts a separator cuts a piece into are contiguous unless the
/// placement is [`Placement::None`], where the matches fall between them.
/// Parts are made one at a time, straight from the separator's matches, and a
/// group is handed out as soon as it closes: no list of matches, parts or
/// groups is ever built.
struct Frame<'s> {
    /// The piece's node, and the separator cutting it.
    id: Option<NodeId>,
    separator: usize,
    depth: usize,
    /// How many chunks existed before this piece: a cut between two of its
    /// groups ends a chunk only if a chunk came before it.
    first_chunk: usize,
    /// How many groups were handed out.
    groups: usize,
    matches: crate::separator::Matches<'s>,
    /// The match found first, not yet turned into a part.
    peeked: Option<Span>,
    /// Where the next part starts, and where the piece ends.
    start: usize,
    end: usize,
    /// Whether the last part (up to `end`) was made.
    done: bool,
    packer: Packer,
}

impl Frame<'_> {
    /// The next part of the piece.
    fn next_part(&mut self, placement: Placement) -> Option<Span> {
        if self.done {
            return None;
        }
        match self.peeked.take().or_else(|| self.matches.next()) {
            Some(m) => {
                let (end, next) = match placement {
                    Placement::End => (m.end, m.end),
                    Placement::Start => (m.start, m.start),
                    Placement::None => (m.start, m.end),
                };
                let part = Span::new(self.start, end);
                self.start = next;
                Some(part)
            }
            None => {
                self.done = true;
                Some(Span::new(self.start, self.end))
            }
        }
    }

    /// Packs parts until a group closes; `None` once the piece is used up.
    fn next_group(&mut self, run: &Run<'_>) -> Option<Group> {
        loop {
            let Some(part) = self.next_part(run.config.placement) else {
                return self.packer.finish();
            };
            if let Some(group) = self.packer.push(run, part) {
                return Some(group);
            }
        }
    }
}

/// A group of consecutive parts the [`Packer`] closed: parts `first..last`.
pub(crate) struct Group {
    pub group: Measured,
    pub first: usize,
    pub last: usize,
    pub close: Close,
}

/// Greedy packing, as in the lessons: add parts to the current group until
/// the next one would take it over `limit`; an empty group always takes the
/// next part (so a single oversized part stands alone and is split further,
/// and no empty group is ever closed). Lengths are those of the spans, so
/// whatever lies between two packed parts counts too. A group of two parts
/// or more is never over `limit`.
///
/// The recursive engine packs a separator's parts with it; the Markdown
/// strategy packs blocks, table rows and fence lines.
pub(crate) struct Packer {
    /// Whether the piece is plain (see [`Measured`]).
    plain: bool,
    /// The most units a group may hold.
    pub limit: usize,
    /// How many parts were pushed.
    pub count: usize,
    /// The group being filled, and the index of its first part.
    open: Option<(Measured, usize)>,
}

impl Packer {
    /// A packer for parts of a piece (`plain` if the piece is, see
    /// [`Measured`]) into groups of at most `limit` units.
    pub fn new(plain: bool, limit: usize) -> Packer {
        Packer {
            plain,
            limit,
            count: 0,
            open: None,
        }
    }

    /// Adds the next part (after the last one pushed); returns the group it
    /// closed, if it did not fit in it.
    pub fn push(&mut self, run: &Run<'_>, part: Span) -> Option<Group> {
        let unit = run.counter;
        let k = self.count;
        self.count += 1;
        let part = Measured::new(&run.measure, part, self.plain);
        match self.open.take() {
            None => self.open = Some((part, k)),
            Some((group, first)) if group.len == 0 => self.open = Some((part, first)),
            Some((group, first)) => {
                let gap = Span::new(group.span.end, part.span.start);
                let gap = Measured::new(&run.measure, gap, self.plain);
                let would_be = if unit.is_additive() {
                    group.len + gap.len + part.len
                } else {
                    // Tokens do not add up: count the joined span.
                    run.measure.len(Span::new(group.span.start, part.span.end))
                };
                // What the limit is compared with: the same but after a
                // heading prefix that tokenizes together with the group.
                let after_lead =
                    run.len_after_lead(Span::new(group.span.start, part.span.end), would_be);
                if after_lead > self.limit {
                    self.open = Some((part, k));
                    let close = Close::NextWouldExceed {
                        group_len: group.len,
                        gap_len: gap.len,
                        next_len: part.len,
                        would_be: after_lead,
                    };
                    return Some(Group {
                        group,
                        first,
                        last: k,
                        close,
                    });
                }
                let joined = Measured {
                    span: Span::new(group.span.start, part.span.end),
                    len: would_be,
                    plain: group.plain && gap.plain && part.plain,
                };
                self.open = Some((joined, first));
            }
        }
        None
    }

    /// The last group, once every part is pushed.
    pub fn finish(&mut self) -> Option<Group> {
        let (group, first) = self.open.take()?;
        Some(Group {
            group,
            first,
            last: self.count,
            close: Close::ParentEnded,
        })
    }
}

/// Cuts `piece` into windows of `size` units (`limit`: less with a heading
/// prefix) with no overlap. The windows are not trimmed (the lessons'
/// `text[j:j + size]`).
fn hard_cut(
    run: &mut Run<'_>,
    piece: Measured,
    id: Option<NodeId>,
    separator: Option<usize>,
    size: usize,
) -> Result<(), Error> {
    let unit = run.counter;
    let span = piece.span;
    let within = &run.source[..span.end];
    // In plain text of chars (ASCII) a window of `size` chars is `size` bytes.
    let ascii = piece.plain && unit.unit() == Unit::Chars;
    let mut start = span.start;
    let mut windows = 0;
    run.with_node(id, |n| n.action = Action::HardCut { separator, windows });
    while start < span.end {
        let mut end = if ascii {
            start.saturating_add(size).min(span.end)
        } else {
            unit.forward(within, start, size)
        };
        let mut len = if piece.plain {
            end - start
        } else {
            unit.len(&within[start..end])
        };
        // A window tokenized together with the heading prefix before it may
        // hold fewer tokens than `size` allows alone: give back a character
        // at a time (only such a window ever does this).
        while end > start && run.len_after_lead(Span::new(start, end), len) > size {
            end = floor_boundary(within, end - 1);
            len = unit.len(&within[start..end]);
        }
        if end == start {
            return Err(run.char_too_big(start, size));
        }
        if windows > 0 {
            run.pending = Cut::Hard;
        }
        run.emit(Span::new(start, end), len, id);
        windows += 1;
        start = end;
    }
    run.with_node(id, |n| n.action = Action::HardCut { separator, windows });
    Ok(())
}

/// Extends each chunk back into the one before it by at most `overlap` units, and
/// never so far that the chunk would exceed its room (`room(i)`: `size`, or
/// less; `None` when chunk `i` may not reach into chunk `i − 1` at all, as
/// across Markdown sections). The overlap starts at a word boundary when the
/// region holds one, and never on whitespace when trimming.
pub(crate) fn add_overlap<'l>(
    run: &mut Run<'_>,
    room: impl Fn(usize) -> Option<(usize, Option<&'l Lead>)>,
) {
    let (source, config, counter) = (run.source, run.config, run.counter);
    let originals: Vec<Span> = run.chunks.iter().map(|c| c.span).collect();
    for i in 1..run.chunks.len() {
        let Some((size, lead)) = room(i) else {
            continue;
        };
        let chunk = &mut run.chunks[i];
        let budget = config.overlap.min(size.saturating_sub(chunk.len));
        if budget == 0 {
            continue;
        }
        let floor = originals[i - 1].start;
        let mut start = counter.backward(source, chunk.span.start, budget, floor);
        let mid_word = source[..start]
            .chars()
            .next_back()
            .is_some_and(|c| !is_space(c));
        let region = &source[start..chunk.span.start];
        if mid_word {
            if let Some(ws) = region.find(is_space) {
                start += ws;
            }
        }
        if config.trim || mid_word {
            let region = &source[start..chunk.span.start];
            start += region.len() - region.trim_start_matches(is_space).len();
        }
        if !counter.is_additive() {
            // Fewer chars can hold more tokens (a word cut in two), so the
            // text shared with the previous chunk is counted as it ends up.
            let shared_end = originals[i - 1].end.min(chunk.span.start);
            while start < shared_end && counter.len(&source[start..shared_end]) > config.overlap {
                start = ceil_boundary(source, start + 1);
            }
        }
        if start >= chunk.span.start {
            continue;
        }
        let len = if counter.is_additive() {
            chunk.len + counter.len(&source[start..chunk.span.start])
        } else {
            // Tokens counted apart need not add up: count the chunk as it
            // would be, and keep it without overlap if that breaks the size.
            run.measure.len(Span::new(start, chunk.span.end))
        };
        if counter.len_after(lead, &source[start..chunk.span.end], len) > size {
            continue;
        }
        chunk.len = len;
        chunk.span.start = start;
        chunk.overlap = chunk.span.intersect(originals[i - 1]);
    }
}
