//! The trace-truth checks: every claim a trace makes, checked against the
//! text. Shared by the property test (`core/tests/truth.rs`, random cases
//! from proptest) and the fuzz targets (`fuzz/`, inputs from libFuzzer), which
//! include this file as a module of their own; it uses nothing but the
//! `chunkscope` crate and its Python character tables (`chunkscope-pyre`),
//! so it compiles in both.
//!
//! [`verify`] is the entry point: given a text, a valid configuration, the
//! counter it was split with and the full analysis, it returns the first lie
//! the trace tells, in words, or `Ok`. [`Seen`] tallies what was checked.

use chunkscope::langchain::{starts_with_lookaround, Keep, Kind, LangChainConfig, PythonRegex};
use chunkscope::{
    is_space, trim, Action, Analysis, Chunk, Close, Config, Counter, Cut, Level, Node, Output,
    Placement, Property, Separator, Span, Splitter, Strategy as Engine, TableHeader, Unit,
};
use std::collections::BTreeMap;
/// The Markdown strategy's heading prefix (off for another strategy).
pub fn heading_prefix(config: &Config) -> bool {
    config.markdown_config().is_some_and(|m| m.heading_prefix)
}

/// The Markdown strategy's table header rule (`once` for another strategy).
pub fn table_header(config: &Config) -> TableHeader {
    config
        .markdown_config()
        .map_or(TableHeader::Once, |m| m.table_header)
}

/// The length of `text` in the counter's unit: the one place this file counts.
fn units(counter: Counter, text: &str) -> usize {
    counter.len(text)
}

/// The family of a unit, as the tallies name it.
pub fn family(unit: Unit) -> &'static str {
    match unit {
        Unit::Chars => "chars",
        Unit::Bytes => "bytes",
        Unit::Tokens(_) => "tokens",
    }
}

/// What the checks verified, by kind: each kind must be verified often.
pub type Seen = BTreeMap<String, usize>;

fn saw(seen: &mut Seen, what: impl Into<String>, times: usize) {
    *seen.entry(what.into()).or_default() += times;
}

fn blank(text: &str) -> bool {
    text.chars().all(is_space)
}

/// Fails the case with a message naming what the trace got wrong.
macro_rules! truth {
    ($cond:expr, $($msg:tt)+) => {
        if !$cond {
            return Err(format!($($msg)+));
        }
    };
}

// ---------------------------------------------------------------------------
// Our engines.
// ---------------------------------------------------------------------------

/// The non-empty matches of `separator` in `span`, left to right, not
/// overlapping, searched in the span's own text as the engine searches it.
fn matches(separator: &Separator, source: &str, span: Span) -> Vec<Span> {
    let text = span.text(source);
    let at = |start: usize, end: usize| Span::new(span.start + start, span.start + end);
    if separator.level.is_some() {
        // The sentence level: the whitespace after each sentence of the
        // whole source but the last, where text is left on both sides
        // inside the span.
        let spans = chunkscope::sentence::sentences(source);
        spans
            .iter()
            .take(spans.len().saturating_sub(1))
            .map(|s| {
                let content = s.text(source).trim_end_matches(chunkscope::is_space).len();
                Span::new(s.start + content, s.end)
            })
            .filter(|g| span.start < g.start && g.end < span.end)
            .collect()
    } else if separator.is_hard_cut() {
        Vec::new()
    } else if separator.regex {
        regex_lite::Regex::new(&separator.pattern)
            .expect("the engine compiled it")
            .find_iter(text)
            .filter(|m| !m.is_empty())
            .map(|m| at(m.start(), m.end()))
            .collect()
    } else {
        text.match_indices(separator.pattern.as_str())
            .map(|(i, m)| at(i, i + m.len()))
            .collect()
    }
}

/// The parts a piece is cut into at `matches`, with the separator placed.
fn parts(piece: Span, matches: &[Span], placement: Placement) -> Vec<Span> {
    let mut parts = Vec::with_capacity(matches.len() + 1);
    let mut start = piece.start;
    for m in matches {
        let (end, next) = match placement {
            Placement::End => (m.end, m.end),
            Placement::Start => (m.start, m.start),
            Placement::None => (m.start, m.end),
        };
        parts.push(Span::new(start, end));
        start = next;
    }
    parts.push(Span::new(start, piece.end));
    parts
}

/// The separator index a child's allowed list starts at: after the one that
/// split its parent.
fn first_separator(nodes: &[Node], node: &Node) -> Result<usize, String> {
    match node.parent.map(|p| nodes[p].action) {
        None => Ok(0),
        Some(Action::Split { separator, .. }) => Ok(separator + 1),
        // Below a Markdown structure level (a section, a block, a table row,
        // a code line) the whole list is allowed again.
        Some(Action::Structure { .. }) => Ok(0),
        Some(other) => Err(format!("a node's parent was not split but {other:?}")),
    }
}

/// The lowest common ancestor of two nodes.
fn common_ancestor(nodes: &[Node], a: usize, b: usize) -> Option<usize> {
    let mut above_a = vec![a];
    while let Some(p) = nodes[*above_a.last().unwrap()].parent {
        above_a.push(p);
    }
    let mut at = Some(b);
    while let Some(n) = at {
        if above_a.contains(&n) {
            return Some(n);
        }
        at = nodes[n].parent;
    }
    None
}

/// Whether the separator is at `p`, between a chunk ending at `e` and the
/// next starting at `s`: with trimming, only whitespace on either side of it;
/// without, right at both.
fn at_boundary(source: &str, trim: bool, e: usize, p: usize, s: usize) -> bool {
    e <= p
        && p <= s
        && if trim {
            blank(&source[e..p]) && blank(&source[p..s])
        } else {
            e == p && p == s
        }
}

/// Everything the trace of the fixed or recursive engine claims, checked
/// against the text.
pub fn ours(
    source: &str,
    config: &Config,
    counter: Counter,
    out: &Output,
    seen: &mut Seen,
) -> Result<(), String> {
    ours_with(source, config, counter, out, None, seen)
}

/// [`ours`], with an independent reading of a Markdown document's structure
/// when the caller has one.
fn ours_with(
    source: &str,
    config: &Config,
    counter: Counter,
    out: &Output,
    model: Option<&MarkdownModel>,
    seen: &mut Seen,
) -> Result<(), String> {
    for c in &out.chunks {
        truth!(
            c.len == units(counter, c.text(source)),
            "chunk {} is not {} long",
            c.index,
            c.len
        );
    }
    match config.kind() {
        Engine::Fixed => fixed(source, config, counter, out, seen),
        Engine::Semantic => semantic(source, config, counter, out, seen),
        _ => {
            // Overlap only extends chunks backwards: without it the same
            // chunks end at the same places, with the same cuts and trace.
            let base = Splitter::with_counter(
                config.clone().with_overlap(0),
                counter,
                &chunkscope::Resources::new(),
            )
            .and_then(|s| s.split(source))
            .map_err(|e| format!("without overlap: {e}"))?;
            truth!(out.trace == base.trace, "overlap changed the trace");
            truth!(
                out.chunks.len() == base.chunks.len(),
                "overlap changed the chunk count"
            );
            for (c, b) in out.chunks.iter().zip(&base.chunks) {
                truth!(
                    c.span.end == b.span.end
                        && c.span.start <= b.span.start
                        && c.cut == b.cut
                        && c.node == b.node,
                    "overlap did more than extend chunk {} backwards: {:?} from {:?}",
                    c.index,
                    c.span,
                    b.span
                );
                truth!(
                    config.overlap > 0 || c.span == b.span,
                    "chunk {} moved without overlap",
                    c.index
                );
            }
            if config.kind() == Engine::Markdown {
                markdown(source, config, counter, &base, model, seen)
            } else {
                recursive(source, config, counter, &base, seen)
            }
        }
    }
}

fn fixed(
    source: &str,
    config: &Config,
    counter: Counter,
    out: &Output,
    seen: &mut Seen,
) -> Result<(), String> {
    let nodes = &out.trace.nodes;
    if source.is_empty() {
        truth!(
            nodes.is_empty() && out.chunks.is_empty(),
            "an empty text made something"
        );
        return Ok(());
    }
    let root = &nodes[0];
    truth!(
        nodes.len() == 1
            && root.action
                == (Action::Windows {
                    stride: config.size - config.overlap
                })
            && root.span == Span::new(0, source.len())
            && root.absent.is_empty(),
        "the fixed engine's root is {root:?}"
    );
    let last = out.chunks.len().saturating_sub(1);
    for (i, c) in out.chunks.iter().enumerate() {
        truth!(c.node == Some(0), "window {i} does not point at the root");
        truth!(
            c.cut == if i == last { Cut::End } else { Cut::Window },
            "window {i} ends with {:?}",
            c.cut
        );
        truth!(
            !config.trim || !blank(c.text(source)),
            "window {i} is whitespace only"
        );
        saw(seen, format!("a window in {}", family(config.unit)), 1);
        // A window holds as much as fits (tokens end where a token ends).
        if c.span.end < source.len() && counter.is_additive() {
            let next = source[c.span.end..].chars().next().unwrap().len_utf8();
            truth!(
                units(counter, &source[c.span.start..c.span.end + next]) > config.size,
                "window {i} {:?} stops short",
                c.span
            );
        }
    }
    for pair in out.chunks.windows(2) {
        let (a, b) = (pair[0].span, pair[1].span);
        truth!(
            b.start > a.start && b.end > a.end,
            "window {} does not move on",
            pair[1].index
        );
        // Only whitespace-only windows are left out.
        truth!(
            b.start <= a.end || blank(&source[a.end..b.start]),
            "text lost between windows {} and {}",
            pair[0].index,
            pair[1].index
        );
        truth!(
            config.trim || b.start <= a.end,
            "a gap between windows without trimming"
        );
    }
    if !config.trim {
        let (first, end) = (out.chunks[0].span.start, out.chunks[last].span.end);
        truth!(
            first == 0 && end == source.len(),
            "the windows do not span the text"
        );
    }
    Ok(())
}

/// The recursive engine's trace, on its chunks before overlap.
pub fn recursive(
    source: &str,
    config: &Config,
    counter: Counter,
    out: &Output,
    seen: &mut Seen,
) -> Result<(), String> {
    tree(source, config, counter, out, None, seen)
}

/// A recursion tree's claims: the recursive engine's, or the Markdown
/// strategy's (`md`), whose structure levels sit above the separators and
/// whose chunks may have less room than the size.
fn tree(
    source: &str,
    config: &Config,
    counter: Counter,
    out: &Output,
    md: Option<&Md<'_>>,
    seen: &mut Seen,
) -> Result<(), String> {
    let (size, seps) = (config.size, &config.separators);
    // The most units a node may hold, where it can be measured here.
    let limit = |id: usize| match md {
        Some(md) => md.limits[id],
        None => Some(size),
    };
    let nodes = &out.trace.nodes;
    let chunks = &out.chunks;
    if let Some(root) = nodes.first() {
        let whole = Span::new(0, source.len());
        let expected = if config.trim {
            trim(source, whole)
        } else {
            whole
        };
        truth!(
            root.span == expected,
            "the root is {:?}, not {expected:?}",
            root.span
        );
    }
    // Matches dropped from every chunk: placement none, between a split's groups.
    let mut dropped: Vec<Span> = Vec::new();
    for (id, n) in nodes.iter().enumerate() {
        let first = first_separator(nodes, n)?;
        let absent_ok = |upto: usize| -> Result<(), String> {
            truth!(
                n.absent == (first..upto).collect::<Vec<_>>(),
                "node {id} records {:?} absent, tried {first}..{upto}",
                n.absent
            );
            for &i in &n.absent {
                truth!(
                    !seps[i].is_hard_cut() && matches(&seps[i], source, n.span).is_empty(),
                    "node {id}: separator {i} is recorded absent but occurs"
                );
            }
            Ok(())
        };
        match n.action {
            Action::Structure { level, parts } => match md {
                Some(md) => {
                    truth!(n.too_big, "node {id} fits, yet was cut by the structure");
                    truth!(n.absent.is_empty(), "node {id} searched separators");
                    structure(source, config, counter, nodes, id, (level, parts), md, seen)?;
                }
                None => truth!(false, "node {id} was cut by the document's structure"),
            },
            Action::ChonkieLevel { .. } => truth!(false, "node {id} was split by Chonkie's rules"),
            Action::Fits => {
                truth!(
                    limit(id).is_none_or(|l| n.len <= l) && n.children.is_empty(),
                    "node {id} fits but is {} long",
                    n.len
                );
                let c = n.chunk.ok_or(format!("node {id} fits but is no chunk"))?;
                truth!(
                    chunks[c].span == n.span && chunks[c].node == Some(id),
                    "node {id} is not chunk {c}"
                );
                truth!(n.absent.is_empty(), "node {id} fits yet searched");
            }
            Action::Empty => {
                let text = n.span.text(source);
                truth!(
                    text.is_empty() || (config.trim && blank(text)),
                    "node {id} is not empty: {text:?}"
                );
                truth!(
                    n.chunk.is_none() && n.children.is_empty(),
                    "empty node {id} made something"
                );
            }
            Action::Split {
                separator: j,
                parts: count,
            } => {
                truth!(n.too_big, "node {id} fits, yet was split");
                absent_ok(j)?;
                saw(seen, "a separator recorded absent", n.absent.len());
                let found = matches(&seps[j], source, n.span);
                truth!(
                    !found.is_empty(),
                    "node {id} was split on separator {j}, which does not occur in it"
                );
                truth!(
                    count == found.len() + 1,
                    "node {id}: {} matches, {count} parts",
                    found.len()
                );
                let ps = parts(n.span, &found, config.placement);
                groups(source, config, counter, nodes, id, &ps, |_| limit(id), seen)?;
                if config.placement == Placement::None {
                    let inside = |m: &Span| {
                        n.children
                            .iter()
                            .any(|&c| nodes[c].span.start <= m.start && m.end <= nodes[c].span.end)
                    };
                    dropped.extend(found.iter().filter(|m| !inside(m)));
                }
            }
            Action::HardCut { separator, windows } => {
                truth!(n.too_big, "node {id} fits, yet was cut hard");
                match separator {
                    Some(k) => {
                        truth!(
                            seps[k].is_hard_cut(),
                            "node {id} was cut hard at separator {k}, which is not \"\""
                        );
                        absent_ok(k)?;
                    }
                    None => absent_ok(seps.len())?,
                }
                saw(seen, "a separator recorded absent", n.absent.len());
                saw(seen, "a hard cut", 1);
                let own: Vec<Span> = chunks
                    .iter()
                    .filter(|c| c.node == Some(id))
                    .map(|c| c.span)
                    .collect();
                truth!(
                    own.len() == windows && windows >= 2,
                    "node {id} claims {windows} windows, has {}",
                    own.len()
                );
                truth!(
                    own[0].start == n.span.start && own[windows - 1].end == n.span.end,
                    "node {id}'s windows do not span it"
                );
                for (w, pair) in own.windows(2).enumerate() {
                    truth!(
                        pair[0].end == pair[1].start,
                        "node {id}: a gap after window {w}"
                    );
                    if let (true, Some(size)) = (counter.is_additive(), limit(id)) {
                        let next = source[pair[0].end..].chars().next().unwrap().len_utf8();
                        truth!(
                            units(counter, &source[pair[0].start..pair[0].end + next]) > size,
                            "node {id}: window {w} stops short"
                        );
                    }
                }
            }
            Action::Windows { .. } => {
                return Err(format!("node {id}: fixed windows in the recursive engine"))
            }
            Action::Sentences { .. } => {
                return Err(format!(
                    "node {id}: chonkie's sentences in the recursive engine"
                ))
            }
        }
    }
    // Each cut names the deepest split between its chunks, whose separator
    // is at their boundary.
    for pair in chunks.windows(2) {
        let (i, a, b) = (pair[0].index, pair[0].node.unwrap(), pair[1].node.unwrap());
        if a == b {
            truth!(
                matches!(nodes[a].action, Action::HardCut { .. }) && pair[0].cut == Cut::Hard,
                "chunks {i} and {} share a node but are cut by {:?}",
                i + 1,
                pair[0].cut
            );
            continue;
        }
        let l = common_ancestor(nodes, a, b).ok_or("two chunks in different trees")?;
        if let (Action::Structure { level, .. }, Some(_)) = (nodes[l].action, md) {
            let headings = md.map_or(&[][..], |md| md.headings);
            structure_cut(source, nodes, headings, (l, b), level, pair[0].cut, i, seen)?;
            continue;
        }
        let Action::Split { separator: j, .. } = nodes[l].action else {
            return Err(format!(
                "chunks {i} and {} part at node {l}, which was not split",
                i + 1
            ));
        };
        truth!(
            pair[0].cut == Cut::Separator(j),
            "chunk {i} ends with {:?}, but separator {j} put it apart from the next",
            pair[0].cut
        );
        let (e, s) = (pair[0].span.end, pair[1].span.start);
        let here =
            matches(&seps[j], source, nodes[l].span)
                .iter()
                .any(|m| match config.placement {
                    Placement::End => at_boundary(source, config.trim, e, m.end, s),
                    Placement::Start => at_boundary(source, config.trim, e, m.start, s),
                    Placement::None => e <= m.start && m.end <= s,
                });
        truth!(
            here,
            "separator {j} ({:?}) is not at the boundary of chunks {i} and {} ({e}..{s})",
            seps[j].pattern,
            i + 1
        );
        saw(
            seen,
            format!("a cut at a separator, placement {}", config.placement),
            1,
        );
    }
    nothing_lost(source, config.trim, chunks, &dropped, seen)
}

/// No character is lost: what no chunk holds is whitespace (when trimming)
/// or in a separator match a split dropped (placement none).
pub fn nothing_lost(
    source: &str,
    trim: bool,
    chunks: &[Chunk],
    dropped: &[Span],
    seen: &mut Seen,
) -> Result<(), String> {
    let mut covered = 0;
    let mut gaps = Vec::new();
    for c in chunks {
        if c.span.start > covered {
            gaps.push(Span::new(covered, c.span.start));
        }
        covered = covered.max(c.span.end);
    }
    gaps.push(Span::new(covered, source.len()));
    for gap in gaps {
        for (i, ch) in gap.text(source).char_indices() {
            let at = gap.start + i;
            let kept =
                (trim && is_space(ch)) || dropped.iter().any(|m| m.start <= at && at < m.end);
            truth!(
                kept,
                "{ch:?} at byte {at} is in no chunk and no dropped separator"
            );
            if !is_space(ch) {
                saw(seen, "a character only in a dropped separator", 1);
            }
        }
    }
    Ok(())
}

/// The groups a split node packed its parts into: their spans, fit and
/// close reasons. `limit(g)` is the room of group `g` (the first group of a
/// table with a repeated header has more than the groups after it).
#[allow(clippy::too_many_arguments)]
fn groups(
    source: &str,
    config: &Config,
    counter: Counter,
    nodes: &[Node],
    id: usize,
    ps: &[Span],
    limit: impl Fn(usize) -> Option<usize>,
    seen: &mut Seen,
) -> Result<(), String> {
    let n = &nodes[id];
    let mut next = 0;
    for (g, &c) in n.children.iter().enumerate() {
        let limit = limit(g);
        let child = &nodes[c];
        let (a, b) = child.parts.ok_or(format!("node {c} names no parts"))?;
        truth!(
            a == next && a < b && b <= ps.len(),
            "node {c} packs parts {a}..{b}, after {next} of {}",
            ps.len()
        );
        next = b;
        // A group still empty takes the next part instead of growing.
        let from = (a..b).find(|&k| !ps[k].is_empty()).unwrap_or(b - 1);
        let group = Span::new(ps[from].start, ps[b - 1].end);
        let expected = if config.trim {
            trim(source, group)
        } else {
            group
        };
        truth!(
            child.span == expected,
            "node {c} is {:?}, its parts {a}..{b} make {expected:?}",
            child.span
        );
        let len = units(counter, group.text(source));
        truth!(
            limit.is_none_or(|l| len <= l) || b - from == 1,
            "node {c} packed parts {a}..{b} into {len} units"
        );
        let close = child.close.ok_or(format!("node {c} records no close"))?;
        if g + 1 == n.children.len() {
            truth!(
                close == Close::ParentEnded && b == ps.len(),
                "the last group, node {c}, closed with {close:?} at part {b}"
            );
        } else if let Some(limit) = limit {
            let would_be = units(counter, &source[group.start..ps[b].end]);
            let expect = Close::NextWouldExceed {
                group_len: len,
                gap_len: units(counter, &source[ps[b - 1].end..ps[b].start]),
                next_len: units(counter, ps[b].text(source)),
                would_be,
            };
            truth!(
                close == expect && would_be > limit,
                "node {c} closed with {close:?}; measuring gives {expect:?}"
            );
            saw(seen, "a close reason measured", 1);
        } else {
            truth!(
                matches!(close, Close::NextWouldExceed { .. }),
                "node {c} closed with {close:?} before the last part"
            );
        }
    }
    truth!(
        next == ps.len(),
        "node {id}'s groups pack {next} of {} parts",
        ps.len()
    );
    Ok(())
}

// ---------------------------------------------------------------------------
// The Markdown strategy.
// ---------------------------------------------------------------------------

/// An independent reading of a Markdown document's structure, from a
/// caller that knows it (the property test of `markdown.rs` reads its
/// generated documents line by line). Without one, structure cuts are
/// checked against the text's lines alone.
#[derive(Clone, Debug, Default)]
pub struct MarkdownModel {
    /// Each section heading: where its line starts, and its level.
    pub headings: Vec<(usize, u8)>,
    /// Where each top-level block starts (a list's items each count).
    pub blocks: Vec<usize>,
    /// Where each table's delimiter row and each body row starts.
    pub rows: Vec<usize>,
}

/// What the tree checks need to know of a Markdown split.
pub struct Md<'a> {
    model: Option<&'a MarkdownModel>,
    /// The section headings it recorded (each checked against its line).
    headings: &'a [chunkscope::Heading],
    /// The room of each node (its section's chunks' room: the size less the
    /// heading prefix), where it is measured here: not in tokens with a
    /// prefix, whose length depends on how the tokenizer joins the two.
    limits: Vec<Option<usize>>,
}

/// What the Markdown parser takes for whitespace within a line: spaces,
/// tabs, vertical tabs and form feeds.
const MD_SPACE: [char; 4] = [' ', '\t', '\u{b}', '\u{c}'];

/// The level a recorded heading has by its own text: `#` to `######` then
/// whitespace or the line's end on its first line (after at most three
/// spaces), or, for a Setext heading, its last line an underline of `=` (1)
/// or `-` (2). `None` when its text is no heading. A necessary condition
/// only: whether the parser reads it as a section heading (outside fences,
/// quotes and lists) is what a [`MarkdownModel`] decides.
fn heading_level(source: &str, span: Span) -> Option<u8> {
    let line_start = source[..span.start]
        .rfind(['\n', '\r'])
        .map_or(0, |i| i + 1);
    if !source[line_start..span.start]
        .chars()
        .all(|c| MD_SPACE.contains(&c))
    {
        return None;
    }
    let text = &source[line_start..span.end];
    let mut lines = commonmark_lines(text);
    let first = lines.next().unwrap_or("");
    let body = first.trim_start_matches(' ');
    let hashes = body.len() - body.trim_start_matches('#').len();
    if first.len() - body.len() <= 3
        && (1..=6).contains(&hashes)
        && (body.len() == hashes || body[hashes..].starts_with(MD_SPACE))
    {
        return Some(hashes as u8);
    }
    let under = commonmark_lines(text)
        .filter(|l| !l.trim_matches(MD_SPACE).is_empty())
        .last()?
        .trim_matches(MD_SPACE);
    [('=', 1), ('-', 2)]
        .into_iter()
        .find(|&(c, _)| under.chars().all(|m| m == c))
        .map(|(_, level)| level)
}

/// The lines of `text` without their ends, as CommonMark ends lines: at a
/// line feed, a carriage return, or the two together.
fn commonmark_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let t = rest?;
        match t.find(['\n', '\r']) {
            Some(i) => {
                let skip = if t[i..].starts_with("\r\n") { 2 } else { 1 };
                rest = Some(&t[i + skip..]);
                Some(&t[..i])
            }
            None => {
                rest = None;
                Some(t)
            }
        }
    })
}

/// The level of the recorded heading that a part starting at `at` opens
/// with: the heading starting there, or before it with only whitespace
/// between (a trimmed part starts after the blank first line of a Setext
/// heading's text).
fn opens_with(source: &str, headings: &[chunkscope::Heading], at: usize) -> Option<u8> {
    let i = headings
        .partition_point(|h| h.span.start <= at)
        .checked_sub(1)?;
    let h = &headings[i];
    source[h.span.start..at]
        .chars()
        .all(is_space)
        .then_some(h.level)
}

/// Whether `at` is at a line break: nothing but whitespace before it on its
/// line (a trimmed part starts after it), or a line end right after it.
fn at_line_break(source: &str, at: usize) -> bool {
    let before = source[..at].trim_end_matches(|c| is_space(c) && c != '\n' && c != '\r');
    before.is_empty() || before.ends_with(['\n', '\r']) || source[at..].starts_with(['\n', '\r'])
}

/// The parts of `span` cut at `cuts` (those strictly inside it, rising).
fn cut_into(span: Span, cuts: impl IntoIterator<Item = usize>) -> Vec<Span> {
    let mut ps = Vec::new();
    let mut from = span.start;
    for c in cuts {
        if span.start < c && c < span.end && c > from {
            ps.push(Span::new(from, c));
            from = c;
        }
    }
    ps.push(Span::new(from, span.end));
    ps
}

/// Everything a Markdown split claims (its chunks before overlap): the
/// headings and heading paths it recorded, its prefixes and table headers,
/// and its tree, structure levels included.
pub fn markdown(
    source: &str,
    config: &Config,
    counter: Counter,
    out: &Output,
    model: Option<&MarkdownModel>,
    seen: &mut Seen,
) -> Result<(), String> {
    let facts = out
        .markdown
        .as_ref()
        .ok_or("a Markdown split without its facts")?;
    let chunks = &out.chunks;
    truth!(
        facts.chunks.len() == chunks.len(),
        "{} chunk facts for {} chunks",
        facts.chunks.len(),
        chunks.len()
    );
    let headings = &facts.headings;
    for (h, heading) in headings.iter().enumerate() {
        truth!(
            heading_level(source, heading.span) == Some(heading.level),
            "heading {h} at {} is no heading of level {} by its text",
            heading.span.start,
            heading.level
        );
        truth!(
            heading.span.start <= heading.text.start && heading.text.end <= heading.span.end,
            "heading {h}'s text lies outside it"
        );
        truth!(
            h == 0 || headings[h - 1].span.end <= heading.span.start,
            "heading {h} is out of order"
        );
    }
    if let Some(model) = model {
        let found: Vec<(usize, u8)> = headings
            .iter()
            .map(|h| {
                let line = source[..h.span.start].rfind('\n').map_or(0, |i| i + 1);
                (line, h.level)
            })
            .collect();
        truth!(
            found == model.headings,
            "the headings are {found:?}, the document's are {:?}",
            model.headings
        );
    }
    // The room each chunk had, and so each node.
    let mut limits: Vec<Option<usize>> = vec![None; out.trace.nodes.len()];
    let mut known = vec![false; out.trace.nodes.len()];
    for (c, chunk) in chunks.iter().enumerate() {
        let fact = &facts.chunks[c];
        let start = chunk.span.start;
        // The path: exactly the headings whose sections (a heading's line
        // to the next heading of its level or shallower) enclose the chunk.
        let end = chunk.span.end;
        let enclosing: Vec<usize> = (0..headings.len())
            .filter(|&h| {
                let until = headings[h + 1..]
                    .iter()
                    .find(|n| n.level <= headings[h].level)
                    .map_or(source.len(), |n| n.span.start);
                headings[h].span.start <= start && end <= until
            })
            .collect();
        truth!(
            fact.path == enclosing,
            "chunk {c} has the path {:?}, the sections enclosing it are {enclosing:?}",
            fact.path
        );
        let texts: Vec<&str> = fact
            .path
            .iter()
            .map(|&h| headings[h].text.text(source))
            .collect();
        let expected = if texts.is_empty() {
            String::new()
        } else {
            format!("{}\n\n", texts.join(" > "))
        };
        // With the table header repeated, a chunk of a table's rows after
        // the first starts with the heading prefix (when on and not empty),
        // then the header rows and a line break.
        let repeated = fact
            .table_header
            .filter(|_| table_header(config) == TableHeader::Repeat)
            .map(|header| {
                let before = if heading_prefix(config) {
                    expected.as_str()
                } else {
                    ""
                };
                format!("{before}{}\n", header.text(source))
            });
        let expected = repeated.clone().unwrap_or(expected);
        match &fact.prefix {
            Some(p) => {
                truth!(
                    (heading_prefix(config) || repeated.is_some()) && *p == expected,
                    "chunk {c}'s prefix is {p:?}, its path and table make {expected:?}"
                );
                saw(
                    seen,
                    "a heading prefix",
                    usize::from(!p.is_empty() && repeated.is_none()),
                );
                saw(
                    seen,
                    "a repeated table header",
                    usize::from(repeated.is_some()),
                );
            }
            None => truth!(
                !heading_prefix(config) && repeated.is_none(),
                "chunk {c} has no prefix"
            ),
        }
        if let Some(header) = fact.table_header {
            // The header row and the delimiter row; or the header row alone
            // before a chunk of the delimiter row (a table without a body).
            let delimiter = |line: &str| {
                line.contains('-')
                    && line
                        .trim_matches(is_space)
                        .chars()
                        .all(|ch| "|-: \t".contains(ch))
            };
            let text = header.text(source);
            let lines: Vec<&str> = commonmark_lines(text).collect();
            let ok = match lines[..] {
                [row] => {
                    // Only the delimiter row (and whitespace) lies between
                    // the header and the chunk.
                    let mut after = commonmark_lines(&source[header.end..]).filter(|l| !blank(l));
                    let before = commonmark_lines(&source[header.end..start])
                        .filter(|l| !blank(l))
                        .count();
                    row.contains('|') && after.next().is_some_and(delimiter) && before <= 1
                }
                [row, .., last] => row.contains('|') && delimiter(last),
                [] => false,
            };
            truth!(
                ok && header.end <= start,
                "chunk {c} ({:?})'s table header {text:?} is no header row and delimiter row before it",
                chunk.text(source)
            );
            saw(seen, "a table header recorded", 1);
        }
        let prefix_len = units(counter, &expected);
        let room = if !(heading_prefix(config) || repeated.is_some()) || expected.is_empty() {
            Some(config.size)
        } else if counter.is_additive() {
            Some(config.size - prefix_len)
        } else {
            None
        };
        let mut at = chunk.node;
        while let Some(n) = at.filter(|&n| !known[n]) {
            (limits[n], known[n]) = (room, true);
            at = out.trace.nodes[n].parent;
        }
    }
    // A node without a chunk (whitespace only) has its parent's room; nodes
    // come in pre-order, so the parent's is known first.
    for id in 0..limits.len() {
        if let (false, Some(p)) = (known[id], out.trace.nodes[id].parent) {
            (limits[id], known[id]) = (limits[p], true);
        }
    }
    saw(seen, "a heading path", chunks.len());
    let md = Md {
        model,
        headings,
        limits,
    };
    tree(source, config, counter, out, Some(&md), seen)
}

/// A structure node's claims: its parts are the document's sections,
/// blocks, table rows or code lines inside it, packed as it says.
#[allow(clippy::too_many_arguments)]
fn structure(
    source: &str,
    config: &Config,
    counter: Counter,
    nodes: &[Node],
    id: usize,
    (level, parts): (Level, usize),
    md: &Md<'_>,
    seen: &mut Seen,
) -> Result<(), String> {
    let n = &nodes[id];
    let span = n.span;
    let exact = match level {
        Level::Heading(shallowest) => {
            // Sections are never packed: one child per part.
            truth!(
                n.children.len() == parts,
                "node {id}: {parts} sections, {} children",
                n.children.len()
            );
            let mut least = u8::MAX;
            for (k, &c) in n.children.iter().enumerate() {
                truth!(
                    nodes[c].parts == Some((k, k + 1)),
                    "section part {k} of node {id} is {:?}",
                    nodes[c].parts
                );
                let start = nodes[c].span.start;
                match opens_with(source, md.headings, start) {
                    Some(l) if l >= shallowest => least = least.min(l),
                    // The intro: the section's own heading (shallower than
                    // its subsections) or the text before the first heading.
                    _ => truth!(
                        k == 0,
                        "section part {k} of node {id} starts with no heading"
                    ),
                }
            }
            truth!(
                least == shallowest,
                "node {id} names level {shallowest}, its shallowest subsection is {least}"
            );
            saw(seen, "a section level checked", 1);
            return Ok(());
        }
        Level::FenceLine => {
            let text = span.text(source);
            let cuts = text.match_indices('\n').map(|(i, _)| span.start + i + 1);
            Some(cut_into(span, cuts))
        }
        Level::TableRow => md.model.map(|m| cut_into(span, m.rows.iter().copied())),
        Level::Block => md.model.map(|m| {
            // An intro's blocks are cut from the intro as the section has
            // it, untrimmed: the blank lines after its last block (and
            // before the document's first) belong to its parts.
            let rest = &source[span.end..];
            let end = span.end + rest.len() - rest.trim_start_matches(is_space).len();
            let start = if blank(&source[..span.start]) {
                0
            } else {
                span.start
            };
            cut_into(Span::new(start, end), m.blocks.iter().copied())
        }),
    };
    match exact {
        Some(ps) => {
            truth!(
                ps.len() == parts,
                "node {id} claims {parts} {} parts, the document has {}",
                level.name(),
                ps.len()
            );
            // With the table header repeated, the groups after the first
            // have the room the header rows and their line break leave
            // (after the heading prefix, which the node's room already
            // takes off); measured where lengths add up.
            let header = (level == Level::TableRow
                && table_header(config) == TableHeader::Repeat
                && ps.len() > 2)
                .then(|| trim(source, Span::new(ps[0].start, ps[2].start)));
            let later = match header {
                Some(h) if counter.is_additive() => md.limits[id]
                    .map(|room| room.saturating_sub(units(counter, h.text(source)) + 1)),
                Some(_) => None,
                None => md.limits[id],
            };
            let room = md.limits[id];
            groups(
                source,
                config,
                counter,
                nodes,
                id,
                &ps,
                |g| if g == 0 { room } else { later },
                seen,
            )?;
            saw(seen, format!("{} parts rebuilt", level.name()), 1);
        }
        None => {
            // Without a model, each group after the first starts at a line
            // break, and the groups take the parts in order.
            let mut next = 0;
            for (k, &c) in n.children.iter().enumerate() {
                let (a, b) = nodes[c].parts.ok_or(format!("node {c} names no parts"))?;
                truth!(
                    a == next && a < b,
                    "node {c} packs parts {a}..{b} after {next}"
                );
                next = b;
                truth!(
                    k == 0 || at_line_break(source, nodes[c].span.start),
                    "node {c}, a {} group, starts inside a line",
                    level.name()
                );
            }
            truth!(
                next == parts,
                "node {id}'s groups pack {next} of {parts} parts"
            );
            saw(seen, format!("{} groups at line breaks", level.name()), 1);
        }
    }
    Ok(())
}

/// The cut between chunks `i` (in the tree at `b`'s common ancestor `l`,
/// a structure node) and `i + 1` (at node `b`): it names `l`'s level, and
/// for sections the level of the heading that opens the next one.
#[allow(clippy::too_many_arguments)]
fn structure_cut(
    source: &str,
    nodes: &[Node],
    headings: &[chunkscope::Heading],
    (l, b): (usize, usize),
    level: Level,
    cut: Cut,
    i: usize,
    seen: &mut Seen,
) -> Result<(), String> {
    // The child of `l` that holds chunk `i + 1`.
    let mut child = b;
    while nodes[child].parent != Some(l) {
        child = nodes[child].parent.ok_or("a chunk outside its ancestor")?;
    }
    let expected = match level {
        Level::Heading(_) => {
            let opens = opens_with(source, headings, nodes[child].span.start).ok_or(format!(
                "chunk {} starts a section without a heading",
                i + 1
            ))?;
            Cut::Structure(Level::Heading(opens))
        }
        other => Cut::Structure(other),
    };
    truth!(
        cut == expected,
        "chunk {i} ends with {cut:?}, but {expected:?} put it apart from the next"
    );
    saw(
        seen,
        format!(
            "a cut at a {}",
            level.name().split(' ').next().unwrap_or("")
        ),
        1,
    );
    Ok(())
}

// ---------------------------------------------------------------------------
// The semantic strategy: LangChain's SemanticChunker, written again here from
// its algorithm (langchain_experimental/text_splitter.py), NumPy's
// definitions taken as documented rather than as the engine reproduces them.
// ---------------------------------------------------------------------------

/// Python's `str.isspace()`, which its `re` module's `\s` follows: the
/// characters of bidirectional class WS, B or S, or of category Zs.
const PYTHON_SPACE: &[char] = &[
    '\t', '\n', '\u{b}', '\u{c}', '\r', '\u{1c}', '\u{1d}', '\u{1e}', '\u{1f}', ' ', '\u{85}',
    '\u{a0}', '\u{1680}', '\u{2000}', '\u{2001}', '\u{2002}', '\u{2003}', '\u{2004}', '\u{2005}',
    '\u{2006}', '\u{2007}', '\u{2008}', '\u{2009}', '\u{200a}', '\u{2028}', '\u{2029}', '\u{202f}',
    '\u{205f}', '\u{3000}',
];

/// `re.split(r"(?<=[.?!])\s+", text)` as spans: each match is a run of
/// whitespace right after a stop, taken whole, left to right.
fn python_sentences(text: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let (mut start, mut at) = (0, 0);
    while let Some(stop) = text[at..].find(['.', '?', '!']).map(|i| at + i + 1) {
        let run = text[stop..].len() - text[stop..].trim_start_matches(PYTHON_SPACE).len();
        if run > 0 {
            out.push(Span::new(start, stop));
            start = stop + run;
        }
        at = stop + run;
    }
    out.push(Span::new(start, text.len()));
    out
}

/// NumPy's `percentile` (linear interpolation between the closest ranks).
fn percentile(values: &[f64], q: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = q / 100.0 * (sorted.len() - 1) as f64;
    let (lo, hi) = (rank.floor() as usize, rank.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo as f64)
}

fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// Whether two computations of one number agree but for rounding.
fn close_to(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// Everything a semantic split claims, checked against LangChain's
/// algorithm run again here on the embedder's vectors: the sentences, the
/// groups' distances, the threshold, the breakpoints, LangChain's chunks
/// (texts, lengths, start indices), and which of them the size cut again.
pub fn semantic(
    source: &str,
    config: &Config,
    counter: Counter,
    out: &Output,
    seen: &mut Seen,
) -> Result<(), String> {
    let trace = out
        .trace
        .semantic
        .as_deref()
        .ok_or("a semantic split without its trace")?;
    let settings = config.semantic_config().expect("the semantic strategy");
    let sentences = python_sentences(source);
    truth!(
        trace.sentences == sentences,
        "the sentences are {:?}, re.split gives {sentences:?}",
        trace.sentences
    );
    saw(seen, "a sentence split rebuilt", 1);
    let n = sentences.len();
    let text = |s: Span| s.text(source);
    let join = |range: &[Span]| range.iter().map(|&s| text(s)).collect::<Vec<_>>().join(" ");
    // Which sentences each of LangChain's chunks holds.
    let ranges: Vec<(usize, usize)> = if n == 1 {
        vec![(0, 1)]
    } else if n == 2 && settings.breakpoint == chunkscope::semantic::Breakpoint::Gradient {
        vec![(0, 1), (1, 2)]
    } else {
        let groups: Vec<String> = (0..n)
            .map(|i| {
                join(
                    &sentences
                        [i.saturating_sub(settings.buffer)..=(i + settings.buffer).min(n - 1)],
                )
            })
            .collect();
        // The lexical embedder, the only one the random cases name.
        let vectors = chunkscope::Resources::new()
            .embedder(&settings.embedder)
            .map_err(|e| e.to_string())?
            .embed(&groups)
            .map_err(|e| e.to_string())?;
        truth!(
            trace.embedding_calls == 1 && trace.vectors == n && vectors.len() == n,
            "{} calls and {} vectors for {n} sentence groups",
            trace.embedding_calls,
            trace.vectors
        );
        let dense: Vec<Vec<f64>> = vectors.iter().map(|v| v.to_dense(trace.dims)).collect();
        let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
        let distances: Vec<f64> = dense
            .windows(2)
            .map(|w| {
                let similarity =
                    dot(&w[0], &w[1]) / (dot(&w[0], &w[0]).sqrt() * dot(&w[1], &w[1]).sqrt());
                1.0 - if similarity.is_finite() {
                    similarity
                } else {
                    0.0
                }
            })
            .collect();
        truth!(
            trace.distances.len() == distances.len()
                && trace
                    .distances
                    .iter()
                    .zip(&distances)
                    .all(|(&a, &b)| close_to(a, b)),
            "the distances are {:?}, the vectors give {distances:?}",
            trace.distances
        );
        saw(seen, "a distance recomputed", distances.len());
        use chunkscope::semantic::Breakpoint as Kind;
        let amount = settings.amount.unwrap_or(match settings.breakpoint {
            Kind::Percentile | Kind::Gradient => 95.0,
            Kind::StandardDeviation => 3.0,
            Kind::Interquartile => 1.5,
        });
        let d = &distances;
        let mut gradient = None;
        let threshold = match settings.number_of_chunks {
            // `_threshold_from_clusters`: the line through (count, 0) and
            // (1, 100), at k kept between 1 and count, clamped to 0..100.
            Some(k) => {
                let count = d.len() as f64;
                let x = (k as f64).min(count).max(1.0);
                let y = if count == 1.0 {
                    100.0
                } else {
                    (100.0 / (1.0 - count)) * (x - count)
                };
                percentile(d, y.clamp(0.0, 100.0))
            }
            None => match settings.breakpoint {
                Kind::Percentile => percentile(d, amount),
                Kind::StandardDeviation => {
                    let m = mean(d);
                    m + amount
                        * mean(&d.iter().map(|x| (x - m) * (x - m)).collect::<Vec<_>>()).sqrt()
                }
                Kind::Interquartile => {
                    mean(d) + amount * (percentile(d, 75.0) - percentile(d, 25.0))
                }
                Kind::Gradient => {
                    // `np.gradient`: one-sided at the ends, central inside.
                    let last = d.len() - 1;
                    let g: Vec<f64> = (0..d.len())
                        .map(|i| match i {
                            0 => d[1] - d[0],
                            i if i == last => d[last] - d[last - 1],
                            i => (d[i + 1] - d[i - 1]) / 2.0,
                        })
                        .collect();
                    let t = percentile(&g, amount);
                    gradient = Some(g);
                    t
                }
            },
        };
        let recorded = trace.threshold.ok_or("no threshold recorded")?;
        truth!(
            close_to(recorded, threshold),
            "the threshold is {recorded}, the distances give {threshold}"
        );
        match (&trace.gradient, &gradient) {
            (Some(a), Some(b)) => truth!(
                a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| close_to(x, y)),
                "the gradient is {a:?}, the distances give {b:?}"
            ),
            (None, None) => {}
            (a, _) => truth!(false, "a gradient recorded as {a:?}, expected {gradient:?}"),
        }
        saw(
            seen,
            format!("a {} threshold recomputed", settings.breakpoint),
            1,
        );
        // The breakpoints: exactly the recorded values strictly above the
        // recorded threshold (compared with each other, so rounding cannot
        // move one).
        let values = trace.gradient.as_deref().unwrap_or(&trace.distances);
        let above: Vec<usize> = (0..values.len())
            .filter(|&i| values[i] > recorded)
            .collect();
        truth!(
            trace.breakpoints == above,
            "the breakpoints are {:?}, the values above the threshold {above:?}",
            trace.breakpoints
        );
        // A chunk closes at each breakpoint, unless it would be shorter than
        // `min_chunk_size` (its sentences joined, in chars).
        let mut ranges = Vec::new();
        let mut first = 0;
        for &b in &above {
            let len = join(&sentences[first..=b]).chars().count();
            if settings.min_chunk_size.is_some_and(|m| len < m) {
                continue;
            }
            ranges.push((first, b + 1));
            first = b + 1;
        }
        if first < n {
            ranges.push((first, n));
        }
        ranges
    };
    truth!(
        trace.chunks.len() == ranges.len(),
        "{} semantic chunks, the breakpoints make {}",
        trace.chunks.len(),
        ranges.len()
    );
    let mut start_index = 0;
    let mut next = 0;
    for (k, (c, &(a, b))) in trace.chunks.iter().zip(&ranges).enumerate() {
        let joined = join(&sentences[a..b]);
        let span = Span::new(sentences[a].start, sentences[b - 1].end);
        truth!(
            c.sentences == (a, b) && c.span == span,
            "semantic chunk {k} holds sentences {:?} at {:?}, expected {a}..{b} at {span:?}",
            c.sentences,
            c.span
        );
        truth!(
            c.langchain_text(source) == joined
                && c.text.is_some() == (text(span) != joined)
                && c.chars == joined.chars().count()
                && c.start_index == start_index,
            "semantic chunk {k}: {:?} ({} chars, start index {}), LangChain's is {joined:?} at {start_index}",
            c.langchain_text(source),
            c.chars,
            c.start_index
        );
        start_index += c.chars;
        // What the size did to it: nothing, or the recursive engine's cuts,
        // which end where it ends.
        let too_long = units(counter, text(span)) > config.size;
        let (first, last) = c.chunks;
        truth!(
            c.fallback == too_long && first == next && first <= last && last <= out.chunks.len(),
            "semantic chunk {k} became chunks {first}..{last} (fallback {}), expected from {next}, fallback {too_long}",
            c.fallback
        );
        next = last;
        let own = &out.chunks[first..last];
        if !too_long {
            truth!(
                own.len() == usize::from(!span.is_empty()) && own.iter().all(|o| o.span == span),
                "semantic chunk {k} that fits became {own:?}"
            );
        }
        for (j, o) in own.iter().enumerate() {
            let closing = j + 1 == own.len();
            let expected_cut = if last == out.chunks.len() {
                Cut::End
            } else {
                Cut::Breakpoint
            };
            truth!(
                span.start <= o.span.start
                    && o.span.end <= span.end
                    && o.len <= config.size
                    && (closing == (o.cut == expected_cut)),
                "chunk {} of semantic chunk {k} is {:?}, cut {:?}",
                o.index,
                o.span,
                o.cut
            );
        }
        saw(
            seen,
            if too_long {
                "a semantic chunk cut again by size"
            } else {
                "a semantic chunk kept whole"
            },
            1,
        );
    }
    truth!(
        next == out.chunks.len(),
        "the semantic chunks became {next} of {} chunks",
        out.chunks.len()
    );
    Ok(())
}

// ---------------------------------------------------------------------------
// LangChain's engines.
// ---------------------------------------------------------------------------

/// The length of the global flags group (`(?m)`, `(?is)`, …) that leads
/// `pattern`, or 0.
fn global_flags(pattern: &str) -> usize {
    let Some(rest) = pattern.strip_prefix("(?") else {
        return 0;
    };
    match rest.find(')') {
        Some(end) if end > 0 && rest[..end].chars().all(|c| "aiLmsux".contains(c)) => end + 3,
        _ => 0,
    }
}

/// LangChain's `_split_text_with_regex` on `piece`: its non-empty splits (as
/// spans; all slices, as the separators here have no capturing groups) and
/// the separator's matches.
fn langchain_splits(
    source: &str,
    piece: Span,
    sep: &str,
    regex: bool,
    keep: Keep,
) -> (Vec<Span>, Vec<Span>) {
    let text = piece.text(source);
    let at = |r: std::ops::Range<usize>| Span::new(piece.start + r.start, piece.start + r.end);
    if sep.is_empty() {
        let chars = text
            .char_indices()
            .map(|(i, c)| at(i..i + c.len_utf8()))
            .collect();
        return (chars, Vec::new());
    }
    // The pieces between matches and the matches, alternating.
    let items: Vec<Span> = if regex {
        // A group around the pattern keeps its matches in the split, as
        // LangChain does when it keeps the separator. Without keeping it,
        // LangChain splits on the bare pattern, whose global flags (`(?m)`)
        // may then lead it; the group goes after them.
        let flags = global_flags(sep);
        PythonRegex::new(&format!("{}({})", &sep[..flags], &sep[flags..]))
            .and_then(|re| re.split(text))
            .expect("the engine ran it")
            .into_iter()
            .map(|r| at(r.expect("no optional groups")))
            .collect()
    } else {
        let mut items = Vec::new();
        let mut last = 0;
        for (i, m) in text.match_indices(sep) {
            items.push(at(last..i));
            items.push(at(i..i + m.len()));
            last = i + m.len();
        }
        items.push(at(last..text.len()));
        items
    };
    let between: Vec<Span> = items.iter().step_by(2).copied().collect();
    let found: Vec<Span> = items.iter().skip(1).step_by(2).copied().collect();
    let joined = |a: Span, b: Span| Span::new(a.start, b.end);
    let splits: Vec<Span> = match keep {
        Keep::None => between,
        Keep::Start => std::iter::once(between[0])
            .chain(found.iter().zip(&between[1..]).map(|(m, p)| joined(*m, *p)))
            .collect(),
        Keep::End => between
            .iter()
            .zip(&found)
            .map(|(p, m)| joined(*p, *m))
            .chain(std::iter::once(*between.last().unwrap()))
            .collect(),
    };
    (
        splits.into_iter().filter(|s| !s.is_empty()).collect(),
        found,
    )
}

/// Everything the trace of a LangChain strategy claims, checked against the
/// text and LangChain's algorithm.
pub fn langchain(
    source: &str,
    config: &Config,
    counter: Counter,
    out: &Output,
    seen: &mut Seen,
) -> Result<(), String> {
    let facts = out
        .langchain
        .as_ref()
        .ok_or("a LangChain split without its facts")?;
    let kind = config.kind().langchain().unwrap();
    let seps = &facts.separators;
    let (keep, regex, size) = (Keep::from(config.placement), facts.regex, config.size);
    let strip = config.trim;
    let nodes = &out.trace.nodes;
    let text_of = |c: usize| out.chunk_text(c, source).to_string();
    for c in &out.chunks {
        truth!(
            c.len == units(counter, &text_of(c.index)),
            "chunk {} is not {} long",
            c.index,
            c.len
        );
    }
    let occurs = |i: usize, span: Span| -> bool {
        let text = span.text(source);
        if regex {
            PythonRegex::new(&seps[i])
                .and_then(|re| re.search(text))
                .expect("the engine ran it")
        } else {
            text.contains(seps[i].as_str())
        }
    };
    // Each split node: the separator LangChain chose, its splits, and what
    // was made of them.
    let mut matches_at: BTreeMap<usize, Vec<Span>> = BTreeMap::new();
    for (id, n) in nodes.iter().enumerate() {
        let chosen = match n.action {
            Action::Split { separator, .. } => separator,
            Action::HardCut {
                separator: Some(k), ..
            } => k,
            _ => continue,
        };
        let offset = match n.parent {
            None => 0,
            Some(p) => match nodes[p].action {
                Action::Split { separator, .. } => separator + 1,
                other => return Err(format!("node {id}'s parent was {other:?}")),
            },
        };
        // The recursive splitter searches for each separator in turn with
        // the bare pattern; the character splitter never searches, it splits
        // at once with the pattern as it compiles it (in a group when it
        // keeps the separator, which may turn an invalid bare pattern such
        // as `?!x` into a valid lookahead).
        let first_present =
            || (offset..seps.len()).find(|&i| seps[i].is_empty() || occurs(i, n.span));
        // Whether a big split is split again (separators are left after the
        // chosen one, which was found), or passed through.
        let again = match kind {
            Kind::Character => {
                let found = seps[0].is_empty()
                    || !langchain_splits(source, n.span, &seps[0], regex, keep)
                        .1
                        .is_empty();
                truth!(
                    chosen == 0 && n.absent == if found { vec![] } else { vec![0] },
                    "the character splitter's root records {:?} absent",
                    n.absent
                );
                false
            }
            Kind::Recursive => match first_present() {
                Some(i) => {
                    truth!(
                    chosen == i && n.absent == (offset..i).collect::<Vec<_>>(),
                    "node {id} chose {chosen} with {:?} absent; the first present from {offset} is {i}",
                    n.absent
                );
                    saw(seen, "a separator recorded absent", n.absent.len());
                    !seps[i].is_empty() && i + 1 < seps.len()
                }
                None => {
                    // LangChain falls back to the last separator, absent too.
                    truth!(
                        chosen == seps.len() - 1
                            && n.absent == (offset..seps.len()).collect::<Vec<_>>(),
                        "node {id}: none present, yet {chosen} chosen with {:?} absent",
                        n.absent
                    );
                    saw(seen, "a LangChain fallback to the last separator", 1);
                    false
                }
            },
        };
        truth!(
            matches!(n.action, Action::HardCut { .. }) == seps[chosen].is_empty(),
            "node {id} is {:?} on separator {chosen:?}",
            n.action
        );
        let (splits, found) = langchain_splits(source, n.span, &seps[chosen], regex, keep);
        if let Action::Split { parts, .. } = n.action {
            truth!(
                parts == splits.len(),
                "node {id} claims {parts} splits, LangChain makes {}",
                splits.len()
            );
        }
        matches_at.insert(id, found);
        let lookaround = regex && starts_with_lookaround(&seps[0]);
        let joiner = match kind {
            Kind::Character if keep != Keep::None || lookaround => "",
            _ if keep != Keep::None => "",
            _ => seps[chosen].as_str(),
        };
        let len = |k: usize| units(counter, splits[k].text(source));
        let good = |k: usize| kind == Kind::Character || len(k) < size;
        let mut covered = vec![false; splits.len()];
        for &c in &n.children {
            let child = &nodes[c];
            let (a, b) = child.parts.ok_or(format!("node {c} names no splits"))?;
            truth!(
                a < b && b <= splits.len(),
                "node {c} names splits {a}..{b} of {}",
                splits.len()
            );
            covered[a..b].iter_mut().for_each(|k| *k = true);
            match (child.action, child.close) {
                (Action::Fits | Action::Empty, Some(close)) => {
                    truth!(
                        (a..b).all(good),
                        "node {c} merged a split of {size} units or more"
                    );
                    let pieces: Vec<&str> = (a..b).map(|k| splits[k].text(source)).collect();
                    let joined = pieces.join(joiner);
                    let expect = if strip {
                        joined.trim_matches(is_space)
                    } else {
                        joined.as_str()
                    };
                    match child.chunk {
                        Some(k) => truth!(
                            text_of(k) == expect,
                            "chunk {k} is {:?}, its splits {a}..{b} join to {expect:?}",
                            text_of(k)
                        ),
                        None => truth!(expect.is_empty(), "node {c} made no chunk of {expect:?}"),
                    }
                    saw(seen, "a LangChain merge rebuilt from its splits", 1);
                    match close {
                        Close::NextWouldExceed {
                            group_len,
                            gap_len,
                            next_len,
                            would_be,
                        } => {
                            truth!(
                                b < splits.len() && good(b),
                                "node {c} closed before split {b}, which is not merged"
                            );
                            let sum: usize =
                                (a..=b).map(len).sum::<usize>() + units(counter, joiner) * (b - a);
                            let group: usize = (a..b).map(len).sum::<usize>()
                                + units(counter, joiner) * (b - a - 1);
                            truth!(
                                next_len == len(b)
                                    && would_be == sum
                                    && group_len == group
                                    && gap_len == units(counter, joiner)
                                    && would_be > size,
                                "node {c} closed with {close:?}; split {b} is {} units, the sum {sum}",
                                len(b)
                            );
                            saw(seen, "a LangChain close reason summed", 1);
                        }
                        Close::ParentEnded => truth!(
                            b == splits.len() || !good(b),
                            "node {c} ended its merge before split {b}"
                        ),
                    }
                }
                (_, None) => {
                    truth!(
                        b == a + 1 && len(a) >= size,
                        "node {c} took split {a} ({} units) alone",
                        len(a)
                    );
                    match child.action {
                        Action::Fits => {
                            truth!(
                                !again,
                                "node {c} passed split {a} through with separators left"
                            );
                            let k = child.chunk.ok_or("a passed-through piece is no chunk")?;
                            truth!(
                                text_of(k) == splits[a].text(source),
                                "chunk {k} is not split {a} passed through"
                            );
                        }
                        _ => truth!(
                            again && child.span == splits[a],
                            "node {c} split again {:?}, not split {a}",
                            child.span
                        ),
                    }
                }
                (action, close) => return Err(format!("node {c}: {action:?} closed by {close:?}")),
            }
        }
        truth!(covered.iter().all(|&k| k), "node {id} left splits unused");
    }
    // Cuts: the deepest split between two chunks, its separator at the first
    // one's end.
    for pair in out.chunks.windows(2) {
        let (i, a, b) = (pair[0].index, pair[0].node.unwrap(), pair[1].node.unwrap());
        let l = common_ancestor(nodes, a, b).ok_or("two chunks in different trees")?;
        let (cut, j) = match nodes[l].action {
            Action::Split { separator, .. } => (Cut::Separator(separator), separator),
            Action::HardCut {
                separator: Some(k), ..
            } => (Cut::Hard, k),
            other => {
                return Err(format!(
                    "chunks {i} and {} part at node {l}, {other:?}",
                    i + 1
                ))
            }
        };
        truth!(
            pair[0].cut == cut,
            "chunk {i} ends with {:?}; node {l} ({:?}) put it apart from the next",
            pair[0].cut,
            nodes[l].action
        );
        if cut == Cut::Hard {
            continue;
        }
        // The next chunk may repeat the end of this one (overlap), so the
        // separator is looked for after this chunk's end only.
        let e = pair[0].span.end;
        let here = matches_at[&l].iter().any(|m| {
            let p = match keep {
                // The piece before may end in a deeper separator it dropped.
                Keep::None => return e <= m.start,
                Keep::Start => m.start,
                Keep::End => m.end,
            };
            e <= p && if strip { blank(&source[e..p]) } else { e == p }
        });
        truth!(
            here,
            "separator {j} ({:?}) is not at the end of chunk {i} ({e})",
            seps[j]
        );
        saw(
            seen,
            format!("a LangChain cut at a separator, keep {keep:?}"),
            1,
        );
    }
    Ok(())
}

/// `MarkdownHeaderTextSplitter`'s split (no recipe after it), checked
/// against the document's lines read as the class documents it: each line
/// stripped (Python's `str.strip`) and rid of what `str.isprintable` rejects;
/// a fence opened by a line starting with three backticks (holding no other
/// three) or `~~~`, closed by the next line starting with the same; outside
/// fences, a line starting with a marker (longest first) then a space or its
/// end is a header, which closes every open header as deep or deeper.
///
/// Checked: each chunk's metadata is the open headers at its last line, in
/// order; each cut names the marker of the last header line between the
/// two chunks (with headers kept, the next chunk's own first line), or the
/// blank line; the spans start and end on kept characters and `is_slice`
/// says whether the text is the span's; the tree is one split of the
/// trimmed text into one fitting leaf per chunk, with exactly the markers no
/// header line uses recorded absent.
pub fn langchain_markdown(
    source: &str,
    config: &Config,
    counter: Counter,
    out: &Output,
    seen: &mut Seen,
) -> Result<(), String> {
    let facts = out
        .langchain
        .as_ref()
        .ok_or("a LangChain split without its facts")?;
    let library = out
        .library
        .as_deref()
        .ok_or("a LangChain split without its chunks' facts")?;
    let markers: Vec<&str> = config
        .separators
        .iter()
        .map(|s| s.pattern.as_str())
        .collect();
    truth!(
        facts.separators.len() == markers.len() + 1
            && facts.separators[..markers.len()] == markers[..],
        "the cuts index {:?}, the markers are {markers:?}",
        facts.separators
    );
    let blank = markers.len();
    // Each line: its span, and the header it is (marker index, level, text).
    struct Line {
        start: usize,
        /// The line stripped, before its non-printable characters go.
        kept: Span,
        header: Option<(usize, usize, String)>,
    }
    let mut lines = Vec::new();
    let (mut at, mut fence) = (0, None::<&str>);
    let mut by_length: Vec<usize> = (0..markers.len()).collect();
    by_length.sort_by_key(|&i| std::cmp::Reverse(markers[i].len()));
    for raw in source.split('\n') {
        let start = at;
        at += raw.len() + 1;
        let lead = raw.len() - raw.trim_start_matches(PYTHON_SPACE).len();
        let stripped = Span::new(
            start + lead,
            start + lead + raw.trim_matches(PYTHON_SPACE).len(),
        );
        let kept: String = raw
            .trim_matches(PYTHON_SPACE)
            .chars()
            .filter(|&c| chunkscope_pyre::is_printable(c))
            .collect();
        match fence {
            None if kept.starts_with("```") && kept.matches("```").count() == 1 => {
                fence = Some("```")
            }
            None if kept.starts_with("~~~") => fence = Some("~~~"),
            Some(f) if kept.starts_with(f) => {
                fence = None;
                lines.push(Line {
                    start,
                    kept: stripped,
                    header: None,
                });
                continue;
            }
            _ => {}
        }
        let header = if fence.is_some() {
            None
        } else {
            by_length.iter().copied().find_map(|i| {
                let m = markers[i];
                let rest = kept.strip_prefix(m)?;
                (rest.is_empty() || rest.starts_with(' '))
                    .then(|| (i, m.len(), rest.trim_matches(PYTHON_SPACE).to_string()))
            })
        };
        lines.push(Line {
            start,
            kept: stripped,
            header,
        });
    }
    let line_of = |pos: usize| lines.partition_point(|l| l.start <= pos).saturating_sub(1);
    // The open headers after each line.
    let mut open: Vec<(usize, String, String)> = Vec::new();
    let mut after: Vec<Vec<(String, String)>> = Vec::with_capacity(lines.len());
    let mut used = vec![false; markers.len()];
    for l in &lines {
        if let Some((i, level, text)) = &l.header {
            used[*i] = true;
            open.retain(|(lv, _, _)| lv < level);
            open.push((*level, format!("Header {level}"), text.clone()));
        }
        after.push(
            open.iter()
                .map(|(_, k, v)| (k.clone(), v.clone()))
                .collect(),
        );
    }
    let chunks = &out.chunks;
    truth!(
        library.len() == chunks.len(),
        "{} facts for {} chunks",
        library.len(),
        chunks.len()
    );
    for (k, c) in chunks.iter().enumerate() {
        let fact = &library[k];
        let text = fact.text().unwrap_or_else(|| c.text(source));
        truth!(
            c.len == units(counter, text),
            "chunk {k} is not {} long",
            c.len
        );
        truth!(
            fact.not_slice().is_some() == fact.text().is_some()
                && fact.text() != Some(c.text(source)),
            "chunk {k} has its own text {:?} for the reason {:?}",
            fact.text(),
            fact.not_slice()
        );
        // The span runs from where its first line's stripped text starts to
        // where its last line's ends.
        let first = line_of(c.span.start);
        let last = lines
            .iter()
            .rposition(|l| l.kept.end == c.span.end && l.kept.start <= c.span.end);
        let Some(last) = last.filter(|_| lines[first].kept.start == c.span.start) else {
            return Err(format!(
                "chunk {k}'s span {:?} is not from a line's start to a line's end",
                c.span
            ));
        };
        let metadata = fact
            .metadata()
            .ok_or(format!("chunk {k} has no metadata"))?;
        truth!(
            metadata == after[last],
            "chunk {k} has the metadata {metadata:?}, the open headers are {:?}",
            after[last]
        );
        saw(seen, "a header metadata rebuilt", 1);
        if let Some(next) = chunks.get(k + 1) {
            let from = last + 1;
            let to = line_of(next.span.start);
            let opened = (from..=to)
                .rev()
                .find_map(|l| lines[l].header.as_ref().map(|h| h.0));
            let expected = Cut::Separator(opened.unwrap_or(blank));
            truth!(
                c.cut == expected,
                "chunk {k} ends with {:?}, but {expected:?} opened the next",
                c.cut
            );
            saw(
                seen,
                if opened.is_some() {
                    "a cut at a header line"
                } else {
                    "a cut at a blank line"
                },
                1,
            );
        } else {
            truth!(c.cut == Cut::End, "the last chunk ends with {:?}", c.cut);
        }
    }
    // The tree: the trimmed text, split once into the chunks.
    let nodes = &out.trace.nodes;
    if let Some(root) = nodes.first() {
        truth!(
            root.span == trim(source, Span::new(0, source.len())),
            "the root is {:?}",
            root.span
        );
        let absent: Vec<usize> = (0..markers.len()).filter(|&i| !used[i]).collect();
        truth!(
            root.absent == absent,
            "the root records {:?} absent, unused are {absent:?}",
            root.absent
        );
        if chunks.len() > 1 || matches!(root.action, Action::Split { .. }) {
            truth!(
                root.children.len() == chunks.len()
                    && root.children.iter().enumerate().all(|(k, &n)| {
                        nodes[n].span == chunks[k].span
                            && nodes[n].chunk == Some(k)
                            && nodes[n].parts == Some((k, k + 1))
                            && nodes[n].action == Action::Fits
                    }),
                "the root's children are not one fitting leaf per chunk"
            );
        }
    }
    Ok(())
}

/// Whether these checks model `strategy`'s trace. Every strategy of
/// [`Engine::ALL`] is; a strategy added without its checks is caught by
/// `every_strategy_is_checked` in truth.rs.
pub fn models(strategy: Engine) -> bool {
    matches!(
        strategy,
        Engine::Fixed
            | Engine::Recursive
            | Engine::Sentence
            | Engine::Markdown
            | Engine::Semantic
            | Engine::LangChain
            | Engine::LangChainCharacter
            | Engine::LangChainMarkdown
            | Engine::Semchunk
            | Engine::ChonkieRecursive
            | Engine::ChonkieToken
            | Engine::ChonkieSentence
            | Engine::LlamaIndexSentence
            | Engine::LlamaIndexToken
            | Engine::LlamaIndexMarkdown
            | Engine::TextSplitter
            | Engine::TextSplitterMarkdown
    )
}

/// Checks everything an analysis of `text` at `Detail::FULL` claims: the list
/// its cuts index, its checks (those the engine promises: LangChain may break
/// the lessons' properties, and placement none loses the separators, which the
/// trace checks account for exactly), and every claim of its trace.
pub fn verify(
    text: &str,
    config: &Config,
    counter: Counter,
    analysis: &Analysis,
    seen: &mut Seen,
) -> Result<(), String> {
    verify_with(text, config, counter, analysis, None, seen)
}

/// [`verify`], with an independent reading of a Markdown document's
/// structure to check its structure cuts against exactly.
pub fn verify_with(
    text: &str,
    config: &Config,
    counter: Counter,
    analysis: &Analysis,
    model: Option<&MarkdownModel>,
    seen: &mut Seen,
) -> Result<(), String> {
    // LangChain's header splitter never counts (no property of size holds)
    // and indexes its markers and the blank line.
    if config.kind() == Engine::LangChainMarkdown {
        return langchain_markdown(text, config, counter, &analysis.output, seen);
    }
    // semchunk chooses its splitters as it goes, and may break the lessons'
    // size limit (with an overlap); its own claims are checked.
    if config.kind() == Engine::Semchunk {
        return semchunk(text, config, counter, analysis, seen);
    }
    if config.kind() == Engine::ChonkieRecursive {
        return chonkie(text, config, counter, analysis, seen);
    }
    if config.kind() == Engine::ChonkieToken {
        return chonkie_token(text, config, counter, &analysis.output, seen);
    }
    if config.kind() == Engine::ChonkieSentence {
        return chonkie_sentence(text, config, counter, analysis, seen);
    }
    if config.kind() == Engine::LlamaIndexSentence {
        return llamaindex(text, config, counter, analysis, seen);
    }
    if config.kind() == Engine::LlamaIndexToken {
        return llamaindex_token(text, config, counter, analysis, seen);
    }
    // MarkdownNodeParser never counts either, and indexes header levels.
    if config.kind() == Engine::LlamaIndexMarkdown {
        return llamaindex_markdown(text, counter, analysis, seen);
    }
    if config.kind().is_text_splitter() {
        return text_splitter(text, config, counter, analysis, seen);
    }
    // The list the cuts' indices refer to.
    let separators: Vec<Separator> = match config.kind().langchain() {
        Some(kind) => {
            let lc = LangChainConfig::from_config(kind, config).map_err(|e| e.to_string())?;
            let regex = lc.is_separator_regex;
            lc.effective_separators()
                .into_iter()
                .map(|pattern| Separator {
                    regex: regex && !pattern.is_empty(),
                    pattern,
                    level: None,
                })
                .collect()
        }
        None => config.separators.clone(),
    };
    truth!(
        analysis.separators == separators,
        "the cuts index {:?}, the configuration has {:?}",
        analysis.separators,
        separators
    );
    let checks = analysis
        .checks
        .as_ref()
        .ok_or("an analysis without its checks")?;
    let ours = config.kind().langchain().is_none();
    let coverage_holds = !ours || config.placement != Placement::None;
    for (property, check) in checks.iter() {
        let expected = ours && (coverage_holds || property != Property::Coverage);
        truth!(
            check.ok || !expected,
            "{}: {}",
            property.name(),
            check.detail
        );
    }
    if ours {
        self::ours_with(text, config, counter, &analysis.output, model, seen)
    } else {
        langchain(text, config, counter, &analysis.output, seen)
    }
}

// ---------------------------------------------------------------------------
// semchunk.
// ---------------------------------------------------------------------------

/// semchunk's punctuation splitters, most meaningful first, as its source
/// lists them (written here again, not read from the engine).
const SEMCHUNK_MARKS: &str = ".?!;,()[]“”‘’'\"`*:—…/\\–&-";

/// The splitter semchunk's rule picks for `piece`, as a pattern of the
/// engine's labels: the longest run of `\r`/`\n` (the first of the longest),
/// of tabs, or of whitespace (at least two chars); a single whitespace char
/// after the first mark that has one, as `(?<=m)w`; the first whitespace
/// char; the first mark present; or `""`.
fn semchunk_choice(piece: &str) -> (String, bool) {
    let longest = |in_run: &dyn Fn(char) -> bool, least: usize| -> Option<String> {
        let mut best = String::new();
        let mut run = String::new();
        for c in piece.chars().chain(['\u{0}']) {
            if c != '\u{0}' && in_run(c) {
                run.push(c);
            } else {
                if run.chars().count() > best.chars().count() {
                    best = run.clone();
                }
                run.clear();
            }
        }
        (best.chars().count() >= least).then_some(best)
    };
    let newline = |c: char| c == '\n' || c == '\r';
    if piece.contains(newline) {
        return (longest(&newline, 1).unwrap(), false);
    }
    if piece.contains('\t') {
        return (longest(&|c| c == '\t', 1).unwrap(), false);
    }
    if piece.chars().any(is_space) {
        if let Some(run) = longest(&is_space, 2) {
            return (run, false);
        }
        let chars: Vec<char> = piece.chars().collect();
        for mark in SEMCHUNK_MARKS.chars() {
            if let Some(w) = chars.windows(2).find(|w| w[0] == mark && is_space(w[1])) {
                return (format!("{mark}{}", w[1]), true);
            }
        }
        return (
            piece.chars().find(|&c| is_space(c)).unwrap().to_string(),
            false,
        );
    }
    match SEMCHUNK_MARKS.chars().find(|&m| piece.contains(m)) {
        Some(mark) => (mark.to_string(), false),
        None => (String::new(), false),
    }
}

/// The text a separator of a semchunk split stands for, and whether it is a
/// whitespace char after a mark (`(?<=m)w`: the mark is kept).
fn semchunk_separator(separator: &Separator) -> Result<(String, bool), String> {
    if !separator.regex {
        return Ok((separator.pattern.clone(), false));
    }
    let rest = separator
        .pattern
        .strip_prefix("(?<=")
        .ok_or_else(|| format!("unexpected regex {:?}", separator.pattern))?;
    let unescape = |s: &str| -> Result<char, String> {
        let s = s.strip_prefix('\\').unwrap_or(s);
        if let Some(hex) = s
            .strip_prefix('x')
            .or_else(|| s.strip_prefix('u'))
            .filter(|h| h.len() >= 2 && h.chars().all(|c| c.is_ascii_hexdigit()))
        {
            return char::from_u32(u32::from_str_radix(hex, 16).unwrap())
                .ok_or("a bad escape".into());
        }
        s.chars().next().ok_or_else(|| "an empty char".into())
    };
    // The mark is one char, escaped or not; `)` closes the lookbehind.
    let mark_len = match rest.chars().next() {
        Some('\\') => 1 + rest[1..].chars().next().map_or(0, char::len_utf8),
        Some(c) => c.len_utf8(),
        None => 0,
    };
    let (mark, space) = (&rest[..mark_len], &rest[mark_len..]);
    let space = space
        .strip_prefix(')')
        .ok_or_else(|| format!("unexpected regex {:?}", separator.pattern))?;
    Ok((format!("{}{}", unescape(mark)?, unescape(space)?), true))
}

/// The semchunk strategy: every split node's splitter is the one semchunk's
/// rule picks for its piece, and its parts are that splitter's matches; each
/// packed group is the parts it names joined (with the splitter after it
/// when it is a mark that fit), its close reason true; each cut names a
/// splitter that really lies between the two chunks; every chunk's length
/// is its text's; and nothing but whitespace and whitespace splitters is in
/// no chunk.
pub fn semchunk(
    text: &str,
    config: &Config,
    counter: Counter,
    analysis: &Analysis,
    seen: &mut Seen,
) -> Result<(), String> {
    let output = &analysis.output;
    let chosen = output
        .separators
        .as_ref()
        .ok_or("a semchunk split without its chosen splitters")?;
    truth!(
        analysis.separators == *chosen,
        "the cuts index {:?}, the engine chose {:?}",
        analysis.separators,
        chosen
    );
    let room = if config.overlap > 0 {
        config.overlap.min(config.size - config.overlap)
    } else {
        config.size
    };
    let nodes = &output.trace.nodes;
    for (id, node) in nodes.iter().enumerate() {
        let piece = node.span.text(text);
        match node.action {
            Action::Split { separator, parts } => {
                let (want, after) = semchunk_choice(piece);
                let (got, got_after) = semchunk_separator(&chosen[separator])?;
                truth!(
                    (want.as_str(), after) == (got.as_str(), got_after),
                    "node {id} {piece:?} is split at {:?}; semchunk's rule picks {want:?}",
                    chosen[separator]
                );
                // `text.split(s)` makes one more part than `s` has
                // matches; every character is a part of its own.
                let made = if want.is_empty() {
                    piece.chars().count()
                } else {
                    piece.matches(want.as_str()).count() + 1
                };
                truth!(
                    parts == made,
                    "node {id} {piece:?}: {parts} parts, the splitter {want:?} makes {made}"
                );
                saw(
                    seen,
                    format!("a semchunk split, {}", semchunk_kind(&want, after)),
                    1,
                );
            }
            Action::Fits => {
                truth!(
                    node.len == units(counter, piece),
                    "node {id} {piece:?} says {} units, it has {}",
                    node.len,
                    units(counter, piece)
                );
                if let Some(Close::NextWouldExceed {
                    would_be,
                    next_len,
                    gap_len,
                    group_len,
                }) = node.close
                {
                    if counter.is_additive() {
                        truth!(
                            would_be > room && would_be == group_len + gap_len + next_len,
                            "node {id} {piece:?} closed as {would_be} = {group_len} + {gap_len} + {next_len} over {room}"
                        );
                        saw(seen, "a close reason measured", 1);
                    }
                }
            }
            other => {
                return Err(format!(
                    "node {id} has an action semchunk never takes: {other:?}"
                ))
            }
        }
    }
    for pair in output.chunks.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        let Cut::Separator(i) = a.cut else {
            return Err(format!(
                "chunk {} ends with {:?}, not a splitter",
                a.index, a.cut
            ));
        };
        let (s, after) = semchunk_separator(&chosen[i])?;
        let (from, to) = if b.span.start >= a.span.end {
            (a.span.end, b.span.start)
        } else {
            // Overlapping chunks: the splitter lies where `a` ends, in the
            // whitespace after it.
            let blank = text[a.span.end..]
                .char_indices()
                .find(|&(_, c)| !is_space(c))
                .map_or(text.len(), |(i, _)| a.span.end + i);
            (a.span.end, blank)
        };
        let mut lo = from.saturating_sub(s.len());
        while !text.is_char_boundary(lo) {
            lo -= 1;
        }
        let mut hi = (to + s.len()).min(text.len());
        while !text.is_char_boundary(hi) {
            hi += 1;
        }
        let window = &text[lo..hi];
        truth!(
            s.is_empty()
                || window.contains(s.as_str())
                || (after && window.contains(s.chars().nth(1).unwrap())),
            "the cut after chunk {} names {s:?}, which is not at {from}..{to} ({window:?})",
            a.index
        );
        saw(seen, "a semchunk cut at its splitter", 1);
    }
    let mut covered = vec![false; text.len()];
    for chunk in &output.chunks {
        truth!(
            chunk.len == units(counter, chunk.text(text)),
            "chunk {} says {} units, it has {}",
            chunk.index,
            chunk.len,
            units(counter, chunk.text(text))
        );
        covered[chunk.span.start..chunk.span.end].fill(true);
    }
    for (i, c) in text.char_indices() {
        if !covered[i] && !is_space(c) {
            truth!(
                chosen.iter().any(|s| !s.regex && s.pattern.contains(c)),
                "{c:?} at byte {i} is in no chunk and in no splitter"
            );
        }
    }
    saw(seen, "a semchunk split checked", 1);
    Ok(())
}

fn semchunk_kind(splitter: &str, after: bool) -> &'static str {
    if after {
        "a space after a mark"
    } else if splitter.is_empty() {
        "every character"
    } else if splitter.contains(['\n', '\r']) {
        "newlines"
    } else if splitter.contains('\t') {
        "tabs"
    } else if splitter.chars().all(is_space) {
        "whitespace"
    } else {
        "a mark"
    }
}

// ---------------------------------------------------------------------------
// Chonkie's RecursiveChunker.
// ---------------------------------------------------------------------------

/// `RecursiveRules()`'s delimiters, level by level, as chonkie's source
/// lists them (written here again, not read from the engine); a fifth level
/// cuts runs of tokens (`""`).
const CHONKIE_LEVELS: [(&str, &[&str]); 5] = [
    ("a paragraph", &["\n\n", "\r\n", "\n", "\r"]),
    ("a sentence end", &[". ", "! ", "? "]),
    (
        "a pause",
        &[
            "{", "}", "\"", "[", "]", "<", ">", "(", ")", ":", ";", ",", "—", "|", "~", "-", "...",
            "`", "'",
        ],
    ),
    ("a word", &[" "]),
    ("runs of tokens", &[""]),
];

/// Chonkie's RecursiveChunker: the cuts index its delimiters in its order;
/// the chunks tile the text (nothing stripped, nothing dropped); where a
/// delimiter cuts, the text up to the cut ends with it (it is kept with the
/// split before it); each length is its text's; in chars no chunk is over the
/// size (every level packs by the sum of its splits' lengths, and the last
/// cuts runs of `size` chars).
pub fn chonkie(
    text: &str,
    config: &Config,
    counter: Counter,
    analysis: &Analysis,
    seen: &mut Seen,
) -> Result<(), String> {
    let listed: Vec<Separator> = CHONKIE_LEVELS
        .iter()
        .flat_map(|(_, level)| level.iter().map(|d| Separator::literal(*d)))
        .collect();
    // The cuts index the delimiters that cut, in chonkie's order.
    let mut rest = listed.iter();
    truth!(
        analysis
            .separators
            .iter()
            .all(|s| rest.by_ref().any(|l| l == s)),
        "the cuts index {:?}, not chonkie's delimiters in its order {:?}",
        analysis.separators,
        listed
    );
    for (i, s) in analysis.separators.iter().enumerate() {
        truth!(
            analysis
                .output
                .chunks
                .iter()
                .any(|c| c.cut == Cut::Separator(i)),
            "{s:?} is listed but cuts nowhere"
        );
    }
    let listed = &analysis.separators;
    let chunks = &analysis.output.chunks;
    let mut at = 0;
    for chunk in chunks {
        truth!(
            chunk.span.start == at,
            "chunk {} starts at {}, the chunk before ended at {at}",
            chunk.index,
            chunk.span.start
        );
        at = chunk.span.end;
        let own = units(counter, chunk.text(text));
        truth!(
            chunk.len == own,
            "chunk {} says {} units, it has {own}",
            chunk.index,
            chunk.len
        );
        if config.unit == Unit::Chars {
            truth!(
                own <= config.size,
                "chunk {} is {own} chars, over the size {}",
                chunk.index,
                config.size
            );
        }
        match chunk.cut {
            Cut::End => truth!(
                chunk.index + 1 == chunks.len(),
                "chunk {} ends the split but is not the last",
                chunk.index
            ),
            Cut::Separator(i) => {
                let delimiter = listed
                    .get(i)
                    .map(|s| s.pattern.as_str())
                    .ok_or_else(|| format!("cut {i} is past the listed delimiters"))?;
                let name = CHONKIE_LEVELS
                    .iter()
                    .find(|(_, level)| level.contains(&delimiter))
                    .map(|(name, _)| *name)
                    .ok_or_else(|| format!("{delimiter:?} is not chonkie's"))?;
                // The delimiter ends the split; a deeper level may have put
                // the start of it in the chunk before.
                truth!(
                    text[..chunk.span.end].ends_with(delimiter),
                    "chunk {} {:?} is cut at {delimiter:?}, which is not where it ends",
                    chunk.index,
                    chunk.text(text)
                );
                saw(seen, format!("a chonkie cut at {name}"), 1);
            }
            other => return Err(format!("chunk {} ends with {other:?}", chunk.index)),
        }
    }
    truth!(
        at == text.len(),
        "the chunks end at {at}, the text at {}",
        text.len()
    );
    chonkie_tree(text, config, counter, &analysis.output, seen)
}

/// Chonkie's recursion as a tree: the root is the whole text at level 1;
/// a node split at a level of delimiters has children that tile it, in
/// order, each a run of that level's parts ending right after one of the
/// level's delimiters (the last ends with the node), closed because the next
/// part would pass the size (by the sum of counts, which is the child's
/// length) or because the node ended; a child over the size went down to
/// the next level, any other is a chunk; the level after words cuts runs of
/// tokens, each a chunk. Every chunk is one node's.
fn chonkie_tree(
    text: &str,
    config: &Config,
    counter: Counter,
    out: &Output,
    seen: &mut Seen,
) -> Result<(), String> {
    let nodes = &out.trace.nodes;
    if text.is_empty() {
        truth!(nodes.is_empty(), "an empty text has a tree");
        return Ok(());
    }
    let root = nodes.first().ok_or("no root")?;
    truth!(
        root.span == Span::new(0, text.len()) && root.depth == 1 && root.parent.is_none(),
        "the root is {root:?}"
    );
    // Each node's level: the root's is 0, a child's one more.
    let mut levels = vec![0; nodes.len()];
    for (id, n) in nodes.iter().enumerate() {
        for &c in &n.children {
            truth!(
                c > id && nodes[c].parent == Some(id) && nodes[c].depth == n.depth + 1,
                "node {c} is not node {id}'s child"
            );
            levels[c] = levels[id] + 1;
        }
        let level = levels[id];
        match n.action {
            Action::ChonkieLevel { level: l, parts } => {
                truth!(l == level, "node {id} says level {l}, it is at {level}");
                truth!(!n.children.is_empty(), "node {id} was split into nothing");
                let delimiters = CHONKIE_LEVELS[level].1;
                let mut at = (n.span.start, 0);
                for (k, &c) in n.children.iter().enumerate() {
                    let child = &nodes[c];
                    let (first, end) = child.parts.ok_or(format!("node {c} has no parts"))?;
                    truth!(
                        child.span.start == at.0 && first == at.1 && end > first,
                        "node {c} does not follow its sibling: {:?} parts {first}..{end}",
                        child.span
                    );
                    at = (child.span.end, end);
                    let last = k + 1 == n.children.len();
                    truth!(
                        last || delimiters
                            .iter()
                            .any(|d| text[..child.span.end].ends_with(d)),
                        "node {c} ends at {}, after none of level {level}'s delimiters",
                        child.span.end
                    );
                    if config.unit == Unit::Chars {
                        let own = units(counter, child.span.text(text));
                        truth!(
                            child.len == own,
                            "node {c} is {own} chars, says {}",
                            child.len
                        );
                    }
                    truth!(
                        child.too_big == (child.len > config.size),
                        "node {c} of {} says too big: {}",
                        child.len,
                        child.too_big
                    );
                    let closed = match child.close {
                        Some(Close::NextWouldExceed {
                            group_len,
                            gap_len: 0,
                            next_len,
                            would_be,
                        }) => {
                            !last
                                && group_len == child.len
                                && would_be == group_len + next_len
                                && would_be > config.size
                        }
                        Some(Close::ParentEnded) => last,
                        _ => false,
                    };
                    truth!(closed, "node {c} was closed by {:?}", child.close);
                    match (child.too_big, child.action) {
                        (false, Action::Fits) => {}
                        (true, Action::ChonkieLevel { .. } | Action::HardCut { .. }) => {
                            saw(seen, "a chonkie node down a level", 1)
                        }
                        (too_big, action) => {
                            return Err(format!("node {c} (too big: {too_big}) did {action:?}"))
                        }
                    }
                }
                truth!(
                    at == (n.span.end, parts),
                    "node {id}'s children end at {at:?}, not {:?}",
                    (n.span.end, parts)
                );
                saw(
                    seen,
                    format!("a chonkie split at {}", CHONKIE_LEVELS[level].0),
                    1,
                );
            }
            Action::HardCut {
                separator: None,
                windows,
            } => {
                truth!(level == 4, "node {id} cut runs of tokens at level {level}");
                truth!(
                    windows == n.children.len(),
                    "node {id} says {windows} runs, has {}",
                    n.children.len()
                );
                let mut at = n.span.start;
                for &c in &n.children {
                    let child = &nodes[c];
                    truth!(
                        child.span.start == at && child.action == Action::Fits,
                        "run {c} does not follow its sibling"
                    );
                    at = child.span.end;
                }
                truth!(at == n.span.end, "node {id}'s runs end at {at}");
                saw(seen, "a chonkie node cut into runs of tokens", 1);
            }
            Action::Fits => {
                let c = n.chunk.ok_or(format!("node {id} fits but is no chunk"))?;
                truth!(
                    out.chunks[c].span == n.span && out.chunks[c].node == Some(id),
                    "node {id} is not chunk {c}"
                );
                truth!(n.children.is_empty(), "node {id} fits yet has children");
            }
            other => return Err(format!("node {id} did {other:?}")),
        }
    }
    for c in &out.chunks {
        let id = c.node.ok_or(format!("chunk {} has no node", c.index))?;
        truth!(
            nodes[id].chunk == Some(c.index),
            "chunk {} names node {id}, which is not it",
            c.index
        );
    }
    Ok(())
}

/// Whether `text` is one Python's `str.strip` empties, for which chonkie's
/// `TokenChunker` and `SentenceChunker` give nothing (and `Err` if
/// something was made of it).
fn chonkie_whitespace_alone(text: &str, out: &Output, seen: &mut Seen) -> Result<bool, String> {
    if !text.chars().all(chunkscope_pyre::is_space) {
        return Ok(false);
    }
    truth!(
        out.chunks.is_empty() && out.trace.nodes.is_empty(),
        "a text str.strip empties made something"
    );
    saw(seen, "a chonkie text of whitespace alone", 1);
    Ok(true)
}

/// Chonkie's TokenChunker: nothing for a text Python's `str.strip`
/// empties; otherwise one `Windows` root over the whole text, its length the
/// text's units, and each chunk the units `i · stride` to `i · stride +
/// size` of the whole text's units (chars, or the tokens of its one
/// encoding), the last reaching the end, cut `Window` but the last; each
/// length is its text's.
pub fn chonkie_token(
    text: &str,
    config: &Config,
    counter: Counter,
    out: &Output,
    seen: &mut Seen,
) -> Result<(), String> {
    if chonkie_whitespace_alone(text, out, seen)? {
        return Ok(());
    }
    let (chunks, nodes) = (&out.chunks, &out.trace.nodes);
    // Where each of the text's units ends.
    let ends: Vec<usize> = match counter.tokenizer() {
        None => text.char_indices().map(|(i, c)| i + c.len_utf8()).collect(),
        Some(tokenizer) => {
            let mut at = 0;
            tokenizer
                .encode(text)
                .iter()
                .map(|&t| {
                    at += tokenizer.token_bytes(t).map_or(0, <[u8]>::len);
                    at
                })
                .collect()
        }
    };
    let stride = config.size - config.overlap;
    let root = nodes.first().ok_or("no root")?;
    truth!(
        nodes.len() == 1
            && root.action == (Action::Windows { stride })
            && root.span == Span::new(0, text.len())
            && root.len == ends.len(),
        "chonkie's root is {root:?}"
    );
    let offset = |i: usize| if i == 0 { 0 } else { ends[i - 1] };
    // A window's span holds the characters whose first byte is in it.
    let first_byte_on = |at: usize| (at..=text.len()).find(|&i| text.is_char_boundary(i));
    for (i, c) in chunks.iter().enumerate() {
        let first = i * stride;
        let last = (first + config.size).min(ends.len());
        let (from, to) = (offset(first), offset(last));
        truth!(
            Some(c.span.start) == first_byte_on(from) && Some(c.span.end) == first_byte_on(to),
            "window {i} is {:?}, not units {first} to {last}",
            c.span
        );
        // Where the window's bytes do not start and end between characters,
        // the chunk is chonkie's decoding of those bytes alone.
        let decoded = String::from_utf8_lossy(&text.as_bytes()[from..to]);
        truth!(
            out.chunk_text(i, text) == decoded,
            "window {i}'s text is {:?}, its bytes decode to {decoded:?}",
            out.chunk_text(i, text)
        );
        if c.span != Span::new(from, to) {
            saw(seen, "a chonkie window decoded apart", 1);
        }
        let at_end = last == ends.len();
        truth!(
            at_end == (i + 1 == chunks.len()),
            "window {i} of {} reaches the end: {at_end}",
            chunks.len()
        );
        truth!(
            c.cut == if at_end { Cut::End } else { Cut::Window } && c.node == Some(0),
            "window {i} ends with {:?}, node {:?}",
            c.cut,
            c.node
        );
        let own = units(counter, c.text(text));
        truth!(
            c.len == own,
            "window {i} says {} units, it has {own}",
            c.len
        );
        saw(
            seen,
            format!("a chonkie window in {}", family(config.unit)),
            1,
        );
        if config.overlap > 0 && i > 0 {
            saw(seen, "a chonkie window with an overlap", 1);
        }
    }
    Ok(())
}

/// `SentenceChunker`'s default delimiters and its minimum sentence length
/// in bytes, as chonkie's source gives them (written here again).
const CHONKIE_SENTENCE_ENDS: [&str; 4] = [". ", "! ", "? ", "\n"];
const CHONKIE_MIN_SENTENCE_BYTES: usize = 12;

/// Chonkie's SentenceChunker: nothing for a text Python's `str.strip`
/// empties; otherwise one `Sentences` root over the whole text, its length
/// the text's units and its parts chonkie's sentences (cut after each
/// delimiter, leftmost first, then joined while either neighbour is under
/// 12 bytes, read here again); each chunk is whole sentences, the first
/// starting the text and the last ending it, packed as far as the sum of
/// their counts allows (at least one), the next starting back where the
/// overlap's walk (each sentence its count plus one, never the chunk's
/// first) stops; each cut the delimiter the chunk ends with, indexing the
/// delimiters that cut in chonkie's order; each length its text's.
pub fn chonkie_sentence(
    text: &str,
    config: &Config,
    counter: Counter,
    analysis: &Analysis,
    seen: &mut Seen,
) -> Result<(), String> {
    let out = &analysis.output;
    if chonkie_whitespace_alone(text, out, seen)? {
        return Ok(());
    }
    let (chunks, nodes) = (&out.chunks, &out.trace.nodes);
    // The sentences' ends, and the delimiter that ends each.
    let mut raw: Vec<(usize, Option<&str>)> = Vec::new();
    let mut at = 0;
    while at < text.len() {
        match CHONKIE_SENTENCE_ENDS
            .iter()
            .filter_map(|d| text[at..].find(d).map(|i| (at + i, *d)))
            .min_by_key(|&(i, _)| i)
        {
            Some((i, d)) => {
                at = i + d.len();
                raw.push((at, Some(d)));
            }
            None => {
                raw.push((text.len(), None));
                at = text.len();
            }
        }
    }
    let mut sentences: Vec<(usize, usize, Option<&str>)> = Vec::new();
    for (end, d) in raw {
        let start = sentences.last().map_or(0, |s| s.1);
        match sentences.last_mut() {
            Some(last)
                if last.1 - last.0 < CHONKIE_MIN_SENTENCE_BYTES
                    || end - start < CHONKIE_MIN_SENTENCE_BYTES =>
            {
                last.1 = end;
                last.2 = d;
            }
            _ => sentences.push((start, end, d)),
        }
    }
    let counts: Vec<usize> = sentences
        .iter()
        .map(|&(s, e, _)| units(counter, &text[s..e]))
        .collect();
    let root = nodes.first().ok_or("no root")?;
    truth!(
        nodes.len() == 1
            && root.action
                == (Action::Sentences {
                    parts: sentences.len()
                })
            && root.span == Span::new(0, text.len())
            && root.len == units(counter, text),
        "chonkie's root is {root:?}, its sentences {sentences:?}"
    );
    let (size, overlap) = (config.size, config.overlap);
    let mut pos = 0;
    for (i, c) in chunks.iter().enumerate() {
        truth!(pos < sentences.len(), "chunk {i} is past the last sentence");
        let mut end = pos + 1;
        let mut sum = counts[pos];
        while end < sentences.len() && sum + counts[end] <= size {
            sum += counts[end];
            end += 1;
        }
        truth!(
            c.span == Span::new(sentences[pos].0, sentences[end - 1].1),
            "chunk {i} is {:?}, not sentences {pos} to {end} of {sentences:?}",
            c.span
        );
        truth!(
            c.node == Some(0) && c.len == units(counter, c.text(text)),
            "chunk {i} points at {:?} and says {} units",
            c.node,
            c.len
        );
        let last = end == sentences.len();
        truth!(
            last == (i + 1 == chunks.len()),
            "chunk {i} of {} reaches the end: {last}",
            chunks.len()
        );
        match (c.cut, sentences[end - 1].2) {
            (Cut::End, _) if last => {}
            (Cut::Separator(s), Some(d)) if !last => {
                let listed = analysis.separators.get(s).map(|s| s.pattern.as_str());
                truth!(
                    listed == Some(d) && c.text(text).ends_with(d),
                    "chunk {i} is cut at {listed:?}, its last sentence ends with {d:?}"
                );
                saw(seen, format!("a chonkie sentence cut at {d:?}"), 1);
            }
            (cut, d) => {
                return Err(format!(
                    "chunk {i} ends with {cut:?}, its sentence with {d:?}"
                ))
            }
        }
        if sum > size {
            saw(seen, "a chonkie sentence over the size", 1);
        }
        saw(
            seen,
            format!("a chonkie sentence chunk in {}", family(config.unit)),
            1,
        );
        if overlap == 0 || last {
            pos = end;
            continue;
        }
        let (mut held, mut back) = (0, end - 1);
        while back > pos {
            // Each sentence costs its count plus one.
            let cost = counts[back] + 1;
            if held + cost > overlap {
                break;
            }
            held += cost;
            back -= 1;
        }
        if back + 1 < end {
            saw(seen, "a chonkie chunk starting back in the one before", 1);
        }
        pos = back + 1;
    }
    truth!(pos == sentences.len(), "the chunks stop at sentence {pos}");
    // The cuts index the delimiters that cut, in chonkie's order.
    let mut order = CHONKIE_SENTENCE_ENDS.iter();
    truth!(
        analysis
            .separators
            .iter()
            .all(|s| order.by_ref().any(|d| *d == s.pattern))
            && (0..analysis.separators.len())
                .all(|s| chunks.iter().any(|c| c.cut == Cut::Separator(s))),
        "the cuts index {:?}",
        analysis.separators
    );
    Ok(())
}

// ---------------------------------------------------------------------------
// LlamaIndex's SentenceSplitter.
// ---------------------------------------------------------------------------

/// LlamaIndex's clause marks (`CHUNKING_REGEX`, written here again).
const LLAMAINDEX_MARKS: [char; 6] = [',', '.', ';', '。', '？', '！'];
/// NLTK's closing punctuation that Punkt realigns onto the sentence before.
const PUNKT_CLOSERS: [char; 11] = [
    '"', '\'', ')', ']', '}', '\u{2018}', '\u{2019}', '\u{201c}', '\u{201d}', '\u{ab}', '\u{bb}',
];

/// LlamaIndex's SentenceSplitter: the cuts index its five split functions
/// in its order, the chunks hold what [`llamaindex_chunks`] checks, and
/// each cut is where its function cuts: three newlines or a space in the
/// whitespace after the chunk, a stop (and its closing quotes, after
/// whitespace too) ending the chunk for a sentence, a clause mark ending it
/// or starting the text after it.
pub fn llamaindex(
    text: &str,
    config: &Config,
    counter: Counter,
    analysis: &Analysis,
    seen: &mut Seen,
) -> Result<(), String> {
    let listed = vec![
        Separator::literal("\n\n\n"),
        Separator::sentence(),
        Separator::regex("[^,.;。？！]+[,.;。？！]?|[,.;。？！]"),
        Separator::literal(" "),
        Separator::literal(""),
    ];
    let cut = |i: usize, chunk: &Chunk, own: &str, gap: &str, next: Option<char>| {
        Ok(match chunk.cut {
            Cut::Separator(0) => {
                truth!(
                    gap.contains("\n\n\n"),
                    "chunk {i} is cut at three newlines, not there"
                );
                "a paragraph"
            }
            Cut::Separator(1) => {
                // Punkt's realignment moves the closers that open the next
                // sentence onto this one, with the whitespace before them:
                // `!\t"` ends a sentence as much as `!"` does. The stop may
                // be in an earlier chunk: a sentence over the size is cut
                // hard, and its last piece may be only its closer.
                let end = text[..chunk.span.end]
                    .trim_end_matches(PUNKT_CLOSERS)
                    .trim_end_matches(is_space)
                    .trim_end_matches(PUNKT_CLOSERS);
                truth!(
                    end.ends_with(['.', '?', '!']),
                    "chunk {i} {own:?} is cut between sentences but ends with no stop"
                );
                "a sentence"
            }
            Cut::Separator(2) => {
                truth!(
                    own.ends_with(LLAMAINDEX_MARKS)
                        || next.is_some_and(|c| LLAMAINDEX_MARKS.contains(&c)),
                    "chunk {i} {own:?} is cut at a clause but no mark is there"
                );
                "a clause"
            }
            Cut::Separator(3) => cut_in_gap(i, gap, " ", "a space")?,
            Cut::Separator(4) => "a character",
            other => return Err(format!("chunk {i} ends with {other:?}")),
        })
    };
    let class = LlamaIndexClass {
        listed,
        name: "llamaindex",
        one_char_may_pass: false,
    };
    llamaindex_chunks(text, config, counter, analysis, &class, cut, seen)
}

/// LlamaIndex's TokenTextSplitter: the cuts index its three split
/// functions in its order (a space, a newline, between characters), the
/// chunks hold what [`llamaindex_chunks`] checks (a chunk of one character
/// may pass the size: `_split` keeps it whole), and a cut at a space or a
/// newline has one in the whitespace after the chunk (the split after it
/// starts with its separator, and only whitespace was stripped before it).
pub fn llamaindex_token(
    text: &str,
    config: &Config,
    counter: Counter,
    analysis: &Analysis,
    seen: &mut Seen,
) -> Result<(), String> {
    let listed = vec![
        Separator::literal(" "),
        Separator::literal("\n"),
        Separator::literal(""),
    ];
    let cut = |i: usize, chunk: &Chunk, _own: &str, gap: &str, _next: Option<char>| {
        Ok(match chunk.cut {
            Cut::Separator(0) => cut_in_gap(i, gap, " ", "a space")?,
            Cut::Separator(1) => cut_in_gap(i, gap, "\n", "a newline")?,
            Cut::Separator(2) => "a character",
            other => return Err(format!("chunk {i} ends with {other:?}")),
        })
    };
    let class = LlamaIndexClass {
        listed,
        name: "llamaindex-token",
        one_char_may_pass: true,
    };
    llamaindex_chunks(text, config, counter, analysis, &class, cut, seen)
}

/// LlamaIndex's MarkdownNodeParser: no tree; the cuts index runs of `#`
/// from one to at least six; the chunks are stripped, in order, apart, and
/// leave out only whitespace (its sections tile the text); each chunk after
/// the first starts with a header line (its `#`s, then whitespace), whose
/// level the cut before it names; a chunk's own text is its span's, or the
/// span's with the whitespace after the `#`s rebuilt as a space (and then
/// said to be); its length is its own text's; its `header_path` is wrapped
/// in `/`; and its `start_index` is where `str.find` finds its own text from
/// one character past the last start found, or -1 where it is not there.
pub fn llamaindex_markdown(
    text: &str,
    counter: Counter,
    analysis: &Analysis,
    seen: &mut Seen,
) -> Result<(), String> {
    let out = &analysis.output;
    truth!(
        out.trace.nodes.is_empty(),
        "MarkdownNodeParser draws no tree"
    );
    // The cuts index the runs of `#` that open a section, shortest first,
    // each one cutting somewhere.
    let levels: Vec<usize> = analysis
        .separators
        .iter()
        .map(|s| s.pattern.len())
        .collect();
    truth!(
        analysis
            .separators
            .iter()
            .all(|s| !s.regex && !s.pattern.is_empty() && s.pattern.bytes().all(|b| b == b'#'))
            && levels.windows(2).all(|w| w[0] < w[1]),
        "the cuts index {:?}, not runs of # shortest first",
        analysis.separators
    );
    for (i, s) in analysis.separators.iter().enumerate() {
        truth!(
            out.chunks.iter().any(|c| c.cut == Cut::Separator(i)),
            "{s:?} is listed but cuts nowhere"
        );
    }
    let facts = out
        .library
        .as_deref()
        .ok_or("a LlamaIndex split without its facts")?;
    truth!(facts.len() == out.chunks.len(), "a fact is missing");
    // `str.find`'s start, in bytes, and the char count up to it.
    let mut from = 0;
    let mut covered = 0;
    for (i, (chunk, fact)) in out.chunks.iter().zip(facts).enumerate() {
        let span = chunk.span.text(text);
        truth!(
            !span.is_empty() && span.trim_matches(is_space) == span,
            "chunk {i} {span:?} is blank or not stripped"
        );
        truth!(
            blank(&text[covered..chunk.span.start]),
            "text before chunk {i} at {} is in no chunk",
            chunk.span.start
        );
        covered = chunk.span.end;
        let level = span.len() - span.trim_start_matches('#').len();
        // A header of no text is stripped down to its `#`s.
        let header = level > 0 && (level == span.len() || span[level..].starts_with(is_space));
        if i > 0 {
            truth!(
                header,
                "chunk {i} {span:?} does not start with a header line"
            );
            let cut = match out.chunks[i - 1].cut {
                Cut::Separator(k) => levels.get(k).copied(),
                _ => None,
            };
            truth!(
                cut == Some(level),
                "the cut before chunk {i} is {:?}, its header has {level} #s",
                out.chunks[i - 1].cut
            );
            saw(seen, "a llamaindex-markdown cut at a header", 1);
        }
        truth!(
            (chunk.cut == Cut::End) == (i + 1 == out.chunks.len()),
            "chunk {i} ends with {:?}",
            chunk.cut
        );
        let own = out.chunk_text(i, text);
        if let Some(rebuilt) = fact.text() {
            let after = span[level..].chars().next().unwrap_or(' ');
            let expected = format!("{} {}", &span[..level], &span[level + after.len_utf8()..]);
            truth!(
                header && after != ' ' && rebuilt == expected,
                "chunk {i}'s text {rebuilt:?} is not its span {span:?} with its header rebuilt"
            );
            truth!(
                fact.not_slice() == Some(chunkscope::NotSlice::HeaderRebuilt),
                "chunk {i} is not a slice for {:?}",
                fact.not_slice()
            );
            saw(seen, "a llamaindex-markdown header rebuilt", 1);
        }
        truth!(
            chunk.len == units(counter, own),
            "chunk {i} says {} units, its text has {}",
            chunk.len,
            units(counter, own)
        );
        let path = match fact.metadata() {
            Some([(key, path)]) if key == "header_path" => path,
            other => return Err(format!("chunk {i}'s metadata is {other:?}")),
        };
        truth!(
            path.starts_with('/') && path.ends_with('/'),
            "chunk {i}'s header_path {path:?} is not wrapped in /"
        );
        let found = text[from..].find(own).map(|at| from + at);
        match (fact.start_index, found) {
            (Some(-1), None) => saw(seen, "a llamaindex-markdown start not found", 1),
            (Some(start), Some(at)) if start == text[..at].chars().count() as i64 => {
                from = at + text[at..].chars().next().map_or(0, char::len_utf8);
                saw(seen, "a llamaindex-markdown start found", 1);
            }
            (start, at) => {
                return Err(format!(
                    "chunk {i}'s start_index is {start:?}, str.find gives {at:?} (bytes)"
                ))
            }
        }
    }
    truth!(
        blank(&text[covered..]),
        "the text after the last chunk, at {covered}, is in no chunk"
    );
    Ok(())
}

/// A cut of chunk `i` at a literal separator, `name`d: the whitespace
/// after the chunk holds it (the split after it starts with it, and only
/// whitespace was stripped before it).
fn cut_in_gap(i: usize, gap: &str, sep: &str, name: &'static str) -> Result<&'static str, String> {
    truth!(gap.contains(sep), "chunk {i} is cut at {name}, not there");
    Ok(name)
}

/// What [`llamaindex_chunks`] checks of one of LlamaIndex's classes.
struct LlamaIndexClass {
    /// Its split functions, in its order: what the cuts must index.
    listed: Vec<Separator>,
    /// The strategy's name in what was seen.
    name: &'static str,
    /// Whether a chunk of one character may pass the size.
    one_char_may_pass: bool,
}

/// What LlamaIndex's splitters share: the cuts index the class's list; the chunks
/// are in order, stripped and not blank; only whitespace is left out of
/// every chunk; each length is its text's (a special token's text counts
/// one cl100k token, which this does not recount); in chars and bytes no
/// chunk is over the size (a chunk is a sum of splits that fit), but for
/// one character where the class allows it; and `cut` names each cut but
/// the last, or says why it is false (given the chunk's index, the chunk,
/// its text, the whitespace after it and the character after that).
fn llamaindex_chunks(
    text: &str,
    config: &Config,
    counter: Counter,
    analysis: &Analysis,
    class: &LlamaIndexClass,
    cut: impl Fn(usize, &Chunk, &str, &str, Option<char>) -> Result<&'static str, String>,
    seen: &mut Seen,
) -> Result<(), String> {
    truth!(
        analysis.separators == class.listed,
        "the cuts index {:?}, not LlamaIndex's split functions {:?}",
        analysis.separators,
        class.listed
    );
    let chunks = &analysis.output.chunks;
    let mut covered = 0;
    for (i, chunk) in chunks.iter().enumerate() {
        let own = chunk.text(text);
        truth!(
            !own.is_empty() && own.trim_matches(is_space) == own,
            "chunk {i} {own:?} is blank or not stripped"
        );
        if let Some(prev) = i.checked_sub(1).map(|p| &chunks[p]) {
            truth!(
                chunk.span.start >= prev.span.start,
                "chunk {i} starts before the chunk before"
            );
        }
        truth!(
            blank(&text[covered.min(chunk.span.start)..chunk.span.start]),
            "text before chunk {i} at {} is in no chunk",
            chunk.span.start
        );
        covered = covered.max(chunk.span.end);
        let special =
            config.unit == Unit::Tokens(chunkscope::tokens::Encoding::Cl100k) && own.contains("<|");
        if !special {
            let units = units(counter, own);
            truth!(
                chunk.len == units,
                "chunk {i} says {} units, it has {units}",
                chunk.len
            );
        }
        if matches!(config.unit, Unit::Chars | Unit::Bytes) {
            truth!(
                chunk.len <= config.size || class.one_char_may_pass && own.chars().count() == 1,
                "chunk {i} is {} units, over the size {}",
                chunk.len,
                config.size
            );
        }
        if chunk.cut == Cut::End {
            truth!(
                i + 1 == chunks.len(),
                "chunk {i} ends the split but is not the last"
            );
            continue;
        }
        let after = &text[chunk.span.end..];
        let gap = &after[..after.find(|c: char| !is_space(c)).unwrap_or(after.len())];
        let next = after[gap.len()..].chars().next();
        let name = cut(i, chunk, own, gap, next)?;
        saw(seen, format!("a {} cut at {name}", class.name), 1);
    }
    truth!(
        blank(&text[covered..]),
        "the text after the last chunk, at {covered}, is in no chunk"
    );
    Ok(())
}

// ---------------------------------------------------------------------------
// The text-splitter crate's TextSplitter and MarkdownSplitter.
// ---------------------------------------------------------------------------

/// The rank of a text-splitter cut's label, strongest first, as the
/// library orders its levels (written again here): Markdown headings by
/// depth, thematic breaks, blocks, inline elements, soft breaks, runs of
/// line breaks (a longer run first), sentences, words, graphemes, chars.
fn text_splitter_rank(separator: &Separator) -> (u8, usize) {
    use chunkscope::SeparatorLevel as L;
    match separator.level {
        Some(L::Heading(depth)) => (depth, 0),
        Some(L::Rule) => (7, 0),
        Some(L::Block) => (8, 0),
        Some(L::Inline) => (9, 0),
        Some(L::SoftBreak) => (10, 0),
        Some(L::Sentence) => (12, 0),
        Some(L::Word) => (13, 0),
        Some(L::Grapheme) => (14, 0),
        None if separator.is_hard_cut() => (15, 0),
        None => (11, usize::MAX - line_breaks(&separator.pattern)),
        Some(_) => (16, 0),
    }
}

/// How many line breaks a run of `\r`/`\n` is, `\r\n` counting one.
fn line_breaks(run: &str) -> usize {
    run.len() - run.matches("\r\n").count()
}

/// The text-splitter strategies: the cuts index the labels that cut, each
/// once, strongest first; chunks are trimmed as the library trims (all
/// whitespace, or for Markdown leading line breaks and trailing whitespace),
/// end further on each time (the library drops a chunk that does not; two
/// can start at one place when trimming moved both there), are no longer than the size in chars, and lose no
/// non-whitespace character; with trimming off and no overlap they tile the
/// text. Each cut's label is true of the whitespace around it: a run of line
/// breaks is there and none longer, a Unicode level has no line break there
/// (it would have been labelled by it), and a char cut has no whitespace
/// there at all (whitespace beside a char is a word boundary).
pub fn text_splitter(
    text: &str,
    config: &Config,
    counter: Counter,
    analysis: &Analysis,
    seen: &mut Seen,
) -> Result<(), String> {
    let listed = &analysis.separators;
    for (i, s) in listed.iter().enumerate() {
        truth!(
            analysis
                .output
                .chunks
                .iter()
                .any(|c| c.cut == Cut::Separator(i)),
            "{s:?} is listed but cuts nowhere"
        );
        truth!(
            listed[..i]
                .iter()
                .all(|before| before != s && text_splitter_rank(before) <= text_splitter_rank(s)),
            "{s:?} is listed after a weaker or equal label: {listed:?}"
        );
    }
    let markdown = config.kind() == Engine::TextSplitterMarkdown;
    let chunks = &analysis.output.chunks;
    let mut covered = 0;
    for (i, chunk) in chunks.iter().enumerate() {
        let own_text = chunk.text(text);
        truth!(!own_text.is_empty(), "chunk {i} is empty");
        if config.trim {
            let trimmed = if markdown {
                own_text.trim_start_matches(['\n', '\r']).trim_end()
            } else {
                own_text.trim()
            };
            truth!(
                trimmed == own_text || (markdown && own_text.trim() == trimmed),
                "chunk {i} {own_text:?} is not trimmed"
            );
        }
        let own = units(counter, own_text);
        truth!(
            chunk.len == own,
            "chunk {i} says {} units, it has {own}",
            chunk.len
        );
        if config.unit == Unit::Chars {
            truth!(
                own <= config.size,
                "chunk {i} is {own} chars, over the size {}",
                config.size
            );
        }
        // Nothing but whitespace is skipped.
        truth!(
            text[covered.min(chunk.span.start)..chunk.span.start]
                .chars()
                .all(char::is_whitespace),
            "the text before chunk {i} is lost"
        );
        covered = covered.max(chunk.span.end);
        let Some(next) = chunks.get(i + 1) else {
            truth!(
                chunk.cut == Cut::End,
                "the last chunk is cut by {:?}",
                chunk.cut
            );
            truth!(
                text[chunk.span.end..].chars().all(char::is_whitespace),
                "the text after the last chunk is lost"
            );
            break;
        };
        truth!(
            next.span.start >= chunk.span.start && next.span.end > chunk.span.end,
            "chunk {} does not move forward from chunk {i}",
            i + 1
        );
        if config.overlap == 0 {
            truth!(
                next.span.start >= chunk.span.end,
                "chunks {i} and {} overlap",
                i + 1
            );
            if !config.trim {
                truth!(
                    next.span.start == chunk.span.end,
                    "chunks {i} and {} do not meet",
                    i + 1
                );
            }
        }
        let Cut::Separator(index) = chunk.cut else {
            return Err(format!("chunk {i} ends with {:?}", chunk.cut));
        };
        let label = listed
            .get(index)
            .ok_or_else(|| format!("cut {index} is past the listed labels"))?;
        let end = chunk.span.end;
        let a = end - (own_text.len() - own_text.trim_end().len());
        let b = end + (text[end..].len() - text[end..].trim_start().len());
        let region = &text[a..b];
        let longest = region
            .split(|c| c != '\n' && c != '\r')
            .filter(|run| !run.is_empty())
            .max_by_key(|run| line_breaks(run));
        match (label.level, label.is_hard_cut()) {
            (None, false) => {
                truth!(!markdown, "a Markdown cut is labelled {label:?}");
                truth!(
                    longest.is_some_and(|run| line_breaks(run) == line_breaks(&label.pattern))
                        && region.contains(label.pattern.as_str()),
                    "cut {i} is labelled {label:?}, the whitespace there is {region:?}"
                );
                saw(seen, "a text-splitter cut at a run of line breaks", 1);
            }
            (None, true) => {
                truth!(
                    region.is_empty(),
                    "cut {i} is labelled a char cut beside whitespace {region:?}"
                );
                saw(seen, "a text-splitter cut between chars", 1);
            }
            (Some(level), _) => {
                truth!(
                    markdown || longest.is_none(),
                    "cut {i} is labelled {label:?} at line breaks {region:?}"
                );
                saw(seen, format!("a text-splitter cut at {}", level.name()), 1);
            }
        }
    }
    Ok(())
}
