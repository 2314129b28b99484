//! The document outline of a Markdown split: its sections as the engine cut
//! them, nested by heading, each with what was cut inside it (blocks, table
//! rows, fence lines, then separators and hard cuts) and the chunks it
//! became. Drawn from the trace's nodes and the recorded headings; the text
//! is never parsed again here.

use crate::state::Shared;
use chunkscope::{Action as Step, Level, Node, NodeId, Separator};
use yew::prelude::*;

/// The most sections drawn: a long manual has thousands, and the tree and
/// the table show the rest.
const MAX_SECTIONS: usize = 200;

#[derive(Properties, PartialEq)]
pub struct OutlineProps {
    pub split: Shared,
}

/// One section of the outline: a node of the trace that is the whole text or
/// a part of a section cut.
struct Section {
    /// The node.
    id: NodeId,
    /// Its heading's level and text, when it starts with a section heading.
    heading: Option<(u8, String)>,
    /// The first and last chunk made from it.
    chunks: Option<(usize, usize)>,
    /// The levels cut inside it (not counting its subsections), strongest
    /// first, as a learner reads them.
    cuts: Vec<String>,
    /// Its subsections, when it was cut into sections.
    children: Vec<Section>,
}

/// How a node was cut, as the outline says it; `None` when it was not cut.
fn cut_name(node: &Node, separators: &[Separator]) -> Option<String> {
    match node.action {
        Step::Structure { level, .. } => Some(match level {
            Level::Heading(_) => return None,
            Level::Block => "blocks".into(),
            Level::TableRow => "table rows".into(),
            Level::FenceLine => "fence lines".into(),
        }),
        Step::Split { separator, .. } => separators
            .get(separator)
            .map(|s| format!("separator {}", crate::model::visible_label(s))),
        Step::HardCut { .. } => Some("hard cut".into()),
        _ => None,
    }
}

fn is_section_cut(node: &Node) -> bool {
    matches!(
        node.action,
        Step::Structure {
            level: Level::Heading(_),
            ..
        }
    )
}

/// The heading every chunk of `a..=b` is under, deepest first: the last
/// heading their recorded paths share, as an index of the headings.
fn common_heading(split: &Shared, (a, b): (usize, usize)) -> Option<usize> {
    let md = split.output.markdown.as_ref()?;
    let first = &md.chunks.get(a)?.path;
    let shared = md.chunks.get(a..=b)?.iter().fold(first.len(), |n, c| {
        n.min(
            first
                .iter()
                .zip(&c.path)
                .take_while(|(x, y)| x == y)
                .count(),
        )
    });
    shared.checked_sub(1).map(|i| first[i])
}

/// Builds the section at `id` (whose parent section is under `parent`),
/// counting the sections built in `budget`.
fn section(split: &Shared, id: NodeId, parent: Option<usize>, budget: &mut usize) -> Section {
    let nodes = &split.output.trace.nodes;
    *budget = budget.saturating_sub(1);
    let mut cuts: Vec<String> = Vec::new();
    let mut chunks: Option<(usize, usize)> = None;
    let mut subsections = Vec::new();
    // Depth-first over the node's subtree, stopping at subsections.
    let mut stack = vec![id];
    while let Some(k) = stack.pop() {
        let n = &nodes[k];
        if let Some(c) = n.chunk {
            chunks = Some(chunks.map_or((c, c), |(a, b)| (a.min(c), b.max(c))));
        }
        if is_section_cut(n) {
            subsections.extend(n.children.iter().copied());
            continue;
        }
        if let Some(name) = cut_name(n, &split.separators) {
            if !cuts.contains(&name) {
                cuts.push(name);
            }
        }
        stack.extend(n.children.iter().rev());
    }
    // The chunks of the subsections are the section's too, and say which
    // heading the section is under: the text of a section before its first
    // subsection is under the same heading as the section.
    let own = {
        let mut range = chunks;
        for &child in &subsections {
            let mut stack = vec![child];
            while let Some(k) = stack.pop() {
                if let Some(c) = nodes[k].chunk {
                    range = Some(range.map_or((c, c), |(a, b)| (a.min(c), b.max(c))));
                }
                stack.extend(nodes[k].children.iter());
            }
        }
        range
    };
    let under = own.and_then(|r| common_heading(split, r));
    let mut children = Vec::new();
    for child in subsections {
        if *budget == 0 {
            break;
        }
        children.push(section(split, child, under, budget));
    }
    let heading = under.filter(|_| under != parent).and_then(|h| {
        let h = split.output.markdown.as_ref()?.headings.get(h)?;
        Some((h.level, h.text.text(&split.text).to_string()))
    });
    Section {
        id,
        heading,
        chunks: own,
        cuts,
        children,
    }
}

fn draw(s: &Section) -> Html {
    let (level, title) = match &s.heading {
        Some((level, text)) => (
            level.to_string(),
            html! { <span class="heading">{text.clone()}</span> },
        ),
        None if s.id == 0 => (
            "0".into(),
            html! { <span class="heading">{"the whole document"}</span> },
        ),
        None => (
            "0".into(),
            html! { <span class="heading muted">{"the section's own text, before its subsections"}</span> },
        ),
    };
    let chunks = match s.chunks {
        Some((a, b)) if a == b => format!("chunk {a}"),
        Some((a, b)) => format!("chunks {a}–{b}"),
        None => "no chunk".into(),
    };
    let cuts = if s.cuts.is_empty() {
        if s.children.is_empty() {
            "whole".to_string()
        } else {
            String::new()
        }
    } else {
        format!("cut at {}", s.cuts.join(", then "))
    };
    html! {
        <li data-testid="outline-section" data-level={level.clone()} data-node={s.id.to_string()}
            data-chunks={s.chunks.map(|(a, b)| format!("{a}-{b}")).unwrap_or_default()}>
            <span class="outline-row">
                if level != "0" {
                    <span class="badge-level">{format!("H{level}")}</span>
                }
                {title}
                <span class="muted">{format!(" · {chunks}")}{if cuts.is_empty() { String::new() } else { format!(" · {cuts}") }}</span>
            </span>
            if !s.children.is_empty() {
                <ul>{ for s.children.iter().map(draw) }</ul>
            }
        </li>
    }
}

/// The outline, for a Markdown split only.
#[function_component]
pub fn Outline(props: &OutlineProps) -> Html {
    let split = &props.split;
    if split.output.markdown.is_none() || split.output.trace.nodes.is_empty() {
        return Html::default();
    }
    let mut budget = MAX_SECTIONS;
    let root = section(split, 0, None, &mut budget);
    html! {
        <section class="card outline" data-testid="outline" aria-label="Document outline">
            <div class="card-head">
                <h2>{"Outline: sections, then blocks, then separators"}</h2>
            </div>
            <ul class="outline-list">{draw(&root)}</ul>
            if budget == 0 {
                <p class="muted">{format!("The first {MAX_SECTIONS} sections; the tree below has them all.")}</p>
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::testing::{act, start};
    use crate::state::{Action, View};

    /// A section as the test reads it: depth, heading, chunks, cuts.
    type Row = (usize, String, Option<(usize, usize)>, String);

    /// Headings and chunk ranges of every section, depth first.
    fn flatten(s: &Section, depth: usize, out: &mut Vec<Row>) {
        let title = s
            .heading
            .as_ref()
            .map_or(String::new(), |(l, t)| format!("H{l} {t}"));
        out.push((depth, title, s.chunks, s.cuts.join(", ")));
        for c in &s.children {
            flatten(c, depth + 1, out);
        }
    }

    #[test]
    fn the_markdown_page_outlines_its_sections_from_the_trace() {
        let state = act(&start(), Action::LoadDocument("markdown".into()));
        let state = act(&state, Action::SetView(View::Markdown));
        let state = act(&state, Action::SetSize("400".into()));
        let split = state.primary().expect("a markdown split").clone();
        let mut budget = MAX_SECTIONS;
        let root = section(&split, 0, None, &mut budget);
        let mut got = Vec::new();
        flatten(&root, 0, &mut got);
        // Every section's chunks are contiguous, inside its parent's, and the
        // sections' headings are the recorded ones, in order.
        let md = split.output.markdown.as_ref().unwrap();
        let titles: Vec<String> = got
            .iter()
            .filter(|g| !g.1.is_empty())
            .map(|g| g.1.clone())
            .collect();
        let recorded: Vec<String> = md
            .headings
            .iter()
            .map(|h| format!("H{} {}", h.level, h.text.text(&split.text)))
            .collect();
        assert_eq!(titles, recorded);
        assert_eq!(got[0].2, Some((0, split.output.chunks.len() - 1)));
        assert_eq!(got[0].0, 0);
        let expected = [
            (0, "H1 Returns and refunds", (0, 10), ""),
            (1, "", (0, 0), ""),
            (1, "H2 Who can return an item", (1, 1), ""),
            (1, "H2 How long a refund takes", (2, 3), "blocks"),
            (1, "H2 Checking a refund from the API", (4, 6), "blocks"),
            (1, "H2 Frequently asked questions", (7, 10), ""),
            (2, "", (7, 7), ""),
            (2, "H3 Can I return part of an order?", (8, 8), ""),
            (2, "H3 What if I paid with two methods?", (9, 9), ""),
            (
                2,
                "H3 Who do I contact if something goes wrong?",
                (10, 10),
                "",
            ),
        ];
        let expected: Vec<_> = expected
            .into_iter()
            .map(|(d, t, c, k)| (d, t.to_string(), Some(c), k.to_string()))
            .collect();
        assert_eq!(got, expected);
    }
}
