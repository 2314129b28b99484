//! Recursive splitting with the lessons' semantics.
//!
//! For a piece (trimmed when trimming is on): if it fits, it is a chunk. If not,
//! take the first separator that occurs in it, cut it into parts (the separator
//! placed by [`Placement`]), pack consecutive parts greedily while they fit, and
//! treat each packed group as a new piece that may only use the separators
//! *after* the one that cut it. When no separator is left, cut hard every `size`
//! units. Each level has strictly fewer separators, so the recursion ends; its
//! depth is at most the length of the list plus one.

use crate::config::Placement;
use crate::engine::Run;
use crate::error::Error;
use crate::separator::Matcher;
use crate::span::{is_space, trim, Span};
use crate::trace::{Action, Close, Cut, Node, NodeId};

/// Splits the whole source.
pub(crate) fn split(run: &mut Run<'_>) -> Result<(), Error> {
    let whole = Span::new(0, run.source.len());
    if whole.is_empty() {
        return Ok(());
    }
    piece(run, whole, 0, 1, None, None, None)?;
    if run.config.overlap > 0 {
        add_overlap(run);
    }
    Ok(())
}

/// One call of the recursion: `span` may use separators `first_sep..`.
fn piece(
    run: &mut Run<'_>,
    span: Span,
    first_sep: usize,
    depth: usize,
    parent: Option<NodeId>,
    parts: Option<(usize, usize)>,
    close: Option<Close>,
) -> Result<(), Error> {
    let source = run.source;
    let config = run.config;
    let span = if config.trim {
        trim(source, span)
    } else {
        span
    };
    let len = config.unit.len(span.text(source));
    let too_big = len > config.size;
    let action = if span.is_empty() {
        Action::Empty
    } else {
        Action::Fits
    };
    let id = run.node(Node {
        span,
        len,
        depth,
        parent,
        children: Vec::new(),
        absent: Vec::new(),
        action,
        too_big,
        parts,
        close,
        chunk: None,
    });
    if !too_big {
        if !span.is_empty() {
            run.emit(span, len, id);
        }
        return Ok(());
    }
    for index in first_sep..run.matchers.len() {
        let matches = match &run.matchers[index] {
            Matcher::HardCut => return hard_cut(run, span, id, Some(index)),
            m if !m.occurs(source, span) => {
                run.with_node(id, |n| n.absent.push(index));
                continue;
            }
            m => m.find(source, span),
        };
        let parts = cut_into_parts(span, &matches, config.placement);
        run.with_node(id, |n| {
            n.action = Action::Split {
                separator: index,
                parts: parts.len(),
            }
        });
        let first_chunk = run.chunks.len();
        for (g, group) in pack(run, &parts).into_iter().enumerate() {
            if g > 0 && run.chunks.len() > first_chunk {
                run.pending = Cut::Separator(index);
            }
            let range = Some((group.first, group.last));
            piece(
                run,
                group.span,
                index + 1,
                depth + 1,
                id,
                range,
                Some(group.close),
            )?;
        }
        return Ok(());
    }
    hard_cut(run, span, id, None)
}

/// The parts a separator's matches cut `span` into. Parts are contiguous unless
/// the placement is [`Placement::None`], where the matches fall between them.
fn cut_into_parts(span: Span, matches: &[Span], placement: Placement) -> Vec<Span> {
    let mut parts = Vec::with_capacity(matches.len() + 1);
    let mut start = span.start;
    for m in matches {
        let (end, next) = match placement {
            Placement::End => (m.end, m.end),
            Placement::Start => (m.start, m.start),
            Placement::None => (m.start, m.end),
        };
        parts.push(Span::new(start, end));
        start = next;
    }
    parts.push(Span::new(start, span.end));
    parts
}

/// A run of consecutive parts packed together.
struct Group {
    span: Span,
    first: usize,
    last: usize,
    close: Close,
}

/// Greedy packing, as in the lessons: add parts to the current group until the
/// next one would take it over `size`; an empty group always takes the next part
/// (so a single oversized part stands alone and is split further, and no empty
/// group is ever closed). Lengths are those of the spans, so in
/// [`Placement::None`] the separators between packed parts count too.
fn pack(run: &Run<'_>, parts: &[Span]) -> Vec<Group> {
    let (source, unit, size) = (run.source, run.config.unit, run.config.size);
    let mut groups = Vec::new();
    let mut current: Option<(Span, usize, usize)> = None;
    for (k, part) in parts.iter().enumerate() {
        let part_len = unit.len(part.text(source));
        current = Some(match current {
            Some((_, 0, first)) => (*part, part_len, first),
            Some((span, len, first)) => {
                let gap = unit.len(&source[span.end..part.start]);
                let would_be = len + gap + part_len;
                if would_be > size {
                    groups.push(Group {
                        span,
                        first,
                        last: k,
                        close: Close::NextWouldExceed {
                            next_len: part_len,
                            would_be,
                        },
                    });
                    (*part, part_len, k)
                } else {
                    (Span::new(span.start, part.end), would_be, first)
                }
            }
            None => (*part, part_len, k),
        });
    }
    if let Some((span, _, first)) = current {
        groups.push(Group {
            span,
            first,
            last: parts.len(),
            close: Close::ParentEnded,
        });
    }
    groups
}

/// Cuts `span` into windows of `size` units with no overlap. The windows are not
/// trimmed (the lessons' `text[j:j + size]`).
fn hard_cut(
    run: &mut Run<'_>,
    span: Span,
    id: Option<NodeId>,
    separator: Option<usize>,
) -> Result<(), Error> {
    let (unit, size) = (run.config.unit, run.config.size);
    let within = &run.source[..span.end];
    let mut start = span.start;
    let mut windows = 0;
    run.with_node(id, |n| n.action = Action::HardCut { separator, windows });
    while start < span.end {
        let end = unit.forward(within, start, size);
        if end == start {
            return Err(run.char_too_big(start));
        }
        if windows > 0 {
            run.pending = Cut::Hard;
        }
        let len = unit.len(&within[start..end]);
        run.emit(Span::new(start, end), len, id);
        windows += 1;
        start = end;
    }
    run.with_node(id, |n| n.action = Action::HardCut { separator, windows });
    Ok(())
}

/// Extends each chunk back into the one before it by at most `overlap` units, and
/// never so far that the chunk would exceed `size`. The overlap starts at a word
/// boundary when the region holds one, and never on whitespace when trimming.
fn add_overlap(run: &mut Run<'_>) {
    let (source, config) = (run.source, run.config);
    let originals: Vec<Span> = run.chunks.iter().map(|c| c.span).collect();
    for i in 1..run.chunks.len() {
        let chunk = &mut run.chunks[i];
        let budget = config.overlap.min(config.size.saturating_sub(chunk.len));
        if budget == 0 {
            continue;
        }
        let floor = originals[i - 1].start;
        let mut start = config
            .unit
            .backward(source, chunk.span.start, budget, floor);
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
        if start >= chunk.span.start {
            continue;
        }
        chunk.len += config.unit.len(&source[start..chunk.span.start]);
        chunk.span.start = start;
        chunk.overlap = chunk.span.intersect(originals[i - 1]);
    }
}
