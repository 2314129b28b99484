//! The recursion tree: each piece the splitter looked at, the separators it
//! tried and did not find, whether the piece was too big, and what it did.

use super::help::help;
use crate::model::{
    amount, close_words, count, glyph, node_separator, node_step, preview, separator_class,
    visible_label,
};
use crate::state::{tree_open, Action, Shared, FIRST_CHILDREN, OPEN_ALL_UP_TO};
use chunkscope::{Action as Step, NodeId};
use std::collections::BTreeSet;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TreeProps {
    pub split: Shared,
    pub selected: Option<NodeId>,
    pub toggled: Rc<BTreeSet<NodeId>>,
    pub all_children: Rc<BTreeSet<NodeId>>,
    /// While stepping: only nodes `0..upto` are drawn (the ones visited so far).
    #[prop_or_default]
    pub upto: Option<usize>,
    pub dispatch: Callback<Action>,
}

/// Trees with more nodes than this are not opened whole at once.
const MAX_OPEN_ALL: usize = 5000;

/// The tree, drawn from `Trace::nodes`.
#[function_component]
pub fn Tree(props: &TreeProps) -> Html {
    let container = use_node_ref();
    {
        // A node chosen from the document is brought into view here.
        let container = container.clone();
        use_effect_with(props.selected, move |selected| {
            if selected.is_some() {
                let row = container
                    .cast::<web_sys::Element>()
                    .and_then(|c| c.query_selector(".node-row.selected").ok().flatten());
                if let Some(row) = row {
                    let options = web_sys::ScrollIntoViewOptions::new();
                    options.set_block(web_sys::ScrollLogicalPosition::Nearest);
                    row.scroll_into_view_with_scroll_into_view_options(&options);
                }
            }
        });
    }
    let nodes = &props.split.output.trace.nodes;
    let shown = props.upto.unwrap_or(nodes.len()).min(nodes.len());
    let body = if nodes.is_empty() {
        let why = if props.split.output.chunks.is_empty() {
            "Nothing to split: the text is empty."
        } else {
            crate::state::View::no_tree(props.split.strategy())
        };
        html! { <p class="empty" data-testid="tree-empty">{why}</p> }
    } else if shown == 0 {
        html! { <p class="empty">{"Step through to watch the tree grow."}</p> }
    } else {
        html! { <ul class="tree" role="tree">{node(props, 0)}</ul> }
    };
    // A long document's tree starts two levels deep; the whole of it can be
    // opened or closed at once (too many pieces to draw at once are not offered).
    let long = nodes.len() > OPEN_ALL_UP_TO;
    let branches = nodes.iter().any(|n| n.depth >= 2 && !n.children.is_empty());
    let open_all = props
        .dispatch
        .reform(|_: MouseEvent| Action::OpenTree(true));
    let close_all = props
        .dispatch
        .reform(|_: MouseEvent| Action::OpenTree(false));
    let tools = (props.upto.is_none() && branches).then(|| html! {
        <p class="tree-tools">
            if long {
                <span class="muted" data-testid="tree-collapsed" data-nodes={nodes.len().to_string()}>
                    {format!("A long tree ({}): shown two levels deep. Open a piece with its ▸, or ", count(nodes.len(), "piece", "pieces"))}
                </span>
            }
            <button type="button" class="more" data-testid="tree-expand-all" onclick={open_all}
                disabled={nodes.len() > MAX_OPEN_ALL}
                title={if nodes.len() > MAX_OPEN_ALL { "Too many pieces to draw at once: open the branches you need" } else { "Open every piece" }}>
                {"open all"}
            </button>
            <button type="button" class="more" data-testid="tree-collapse-all" onclick={close_all}>{"close to two levels"}</button>
        </p>
    });
    html! {
        <section class="card" aria-label="Recursion tree" ref={container}>
            <div class="card-head">
                <h2>
                    {if props.split.output.langchain.is_some() { "How LangChain got there" } else { "How the splitter got there" }}
                    {help("Read from the top: the whole text is a piece. A piece that fits becomes a chunk. A piece that is too big is split at the first separator it contains (the ones it lacks are listed as absent), the parts are packed back together while they fit, and each packed piece is checked again one level down with only the weaker separators.")}
                </h2>
                <span class="muted">
                    {match props.upto {
                        Some(_) => format!("{} of {} · stepping", count(shown, "piece", "pieces"), nodes.len()),
                        None => format!("{} · {} · click a piece to find it in the text, or a chunk to find it here",
                            count(nodes.len(), "piece", "pieces"), count(props.split.output.trace.depth(), "level", "levels")),
                    }}
                </span>
            </div>
            {tools}
            {body}
        </section>
    }
}

fn node(props: &TreeProps, id: NodeId) -> Html {
    let split = &props.split;
    let n = &split.output.trace.nodes[id];
    let seps = &split.separators;
    let unit = split.config.unit;
    let open = tree_open(&props.split, &props.toggled, id);
    let upto = props.upto.unwrap_or(usize::MAX);
    let visible: Vec<NodeId> = n.children.iter().copied().filter(|&c| c < upto).collect();
    let has_children = !visible.is_empty();
    let d = &props.dispatch;
    let select = d.reform(move |_: MouseEvent| Action::SelectNode(id));
    let on_key = d.reform(move |_: KeyboardEvent| Action::SelectNode(id));
    let on_key = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Enter" || e.key() == " " {
            e.prevent_default();
            on_key.emit(e);
        }
    });
    let toggle = {
        let d = d.clone();
        Callback::from(move |e: MouseEvent| {
            e.stop_propagation();
            d.emit(Action::ToggleNode(id));
        })
    };
    let splitter = match n.action {
        Step::Split { separator, .. }
        | Step::HardCut {
            separator: Some(separator),
            ..
        } => seps
            .get(separator)
            .map(|s| (glyph(s), separator_class(seps, separator))),
        Step::HardCut {
            separator: None, ..
        } => Some(("✂".into(), "cut-hard".into())),
        _ => None,
    };
    let absent: Vec<String> = n
        .absent
        .iter()
        .filter_map(|&i| seps.get(i))
        .map(visible_label)
        .collect();
    let step = node_step(n, seps, unit);
    let (chars_start, chars_end) = split.node_chars[id];
    // "Its parent ended" is true of every last piece, and a piece over the
    // size stood alone whatever came next: only a size stop says something.
    let stopped = close_words(split, id);
    let row = html! {
        <div
            class={classes!("node-row", (props.selected == Some(id)).then_some("selected"), n.too_big.then_some("big"))}
            data-testid="tree-node"
            data-node={id.to_string()}
            data-depth={n.depth.to_string()}
            data-len={n.len.to_string()}
            data-separator={node_separator(n, seps)}
            data-too-big={n.too_big.to_string()}
            role="treeitem"
            aria-selected={(props.selected == Some(id)).to_string()}
            aria-expanded={has_children.then(|| open.to_string())}
            tabindex="0"
            onclick={select}
            onkeydown={on_key}
            title={format!("chars {chars_start}–{chars_end}: {}", preview(n.span.text(&split.text), 600))}>
            if has_children {
                <button type="button" class="twisty" onclick={toggle}
                    aria-label={if open { "hide the pieces" } else { "show the pieces" }}>
                    {if open { "▾" } else { "▸" }}
                </button>
            } else {
                <span class="twisty" />
            }
            <span class="level" title="level">{format!("L{}", n.depth)}</span>
            <span class="piece">{format!("“{}”", preview(n.span.text(&split.text), 48))}</span>
            <span class={classes!("len", if n.too_big { "big" } else { "ok" })}>
                <span>{amount(n.len, unit)}</span>
                {" "}
                <span>{if n.too_big { "✗ too big" } else { "✓" }}</span>
            </span>
            <span class="what">
                if let Some((g, class)) = splitter {
                    <span class={classes!("cut", class)} aria-hidden="true">{g}</span>
                }
                {step.lead}
                if let Some(label) = step.separator {
                    <code class="q">{label}</code>
                }
                {step.tail}
            </span>
            if !absent.is_empty() || stopped.is_some() {
                <span class="notes">
                    if !absent.is_empty() {
                        <span class="absent">{format!("tried, not in it: {}", absent.join("  "))}</span>
                    }
                    if let Some(words) = stopped {
                        <span class="packing" data-testid="packing-sum">{words}</span>
                    }
                </span>
            }
        </div>
    };
    let children = if has_children && open {
        let limit = if props.all_children.contains(&id) {
            visible.len()
        } else {
            visible.len().min(FIRST_CHILDREN)
        };
        let more = visible.len() - limit;
        let show_all = d.reform(move |_: MouseEvent| Action::ShowAllChildren(id));
        html! {
            <ul role="group">
                { for visible[..limit].iter().map(|&c| node(props, c)) }
                if more > 0 {
                    <li><button type="button" class="more" onclick={show_all}>
                        {format!("Show {} more", count(more, "piece", "pieces"))}
                    </button></li>
                }
            </ul>
        }
    } else {
        html! {}
    };
    html! {
        <li key={id} class="node">
            {row}
            {children}
        </li>
    }
}
