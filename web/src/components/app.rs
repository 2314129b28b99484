//! The whole page: inputs on the left, what the splitter did on the right.

use super::badges::Badges;
use super::chunk_details::ChunkDetails;
use super::chunk_table::ChunkTable;
use super::code_view::CodeView;
use super::controls::Controls;
use super::doc_input::DocInput;
use super::document::{overlap_toggle, token_toggle, tokenizer_of, DocumentView};
use super::jump::{jump_links, skip_link, Target};
use super::langchain::{LangChainDifferences, LangChainNotes};
use super::legend::Legend;
use super::modes_host::{
    exercises_host, use_compare_stats_host, use_meaning_host, use_modes_host, use_outline_host,
};
use super::separators::SeparatorEditor;
use super::share_button::ShareButton;
use super::stats::{StatsLine, StatsView};
use super::tokenizer::use_tokenizer;
use super::tree::Tree;
use crate::state::{reduce, Action, Checked, Libraries, Pointed, Shared, State, View};
use crate::teach::cards::Cards;
use crate::teach::lessons::Lessons;
use crate::teach::stepper::{revealed, Stepper};
use crate::teach::{mode_select, Mode};
use chunkscope::Span;
use std::rc::Rc;
use yew::prelude::*;

/// Lets Yew's reducer hook drive the pure [`reduce`].
impl Reducible for State {
    type Action = Action;
    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(reduce(&self, action))
    }
}

/// The first state: the one a shared link describes, or the lesson's page. A link
/// that cannot be read is reported, never trusted.
fn first_state() -> State {
    match crate::share::opened() {
        Ok(Some(snapshot)) => State::from_snapshot(snapshot),
        Ok(None) => State::default(),
        Err(why) => State {
            notice: Some(format!(
                "This link could not be opened ({why}), so the lesson's example is shown instead."
            )),
            ..State::default()
        },
    }
}

/// Splits with more chunks and tree nodes than this draw the panels below the
/// chunks (step-through, tree, table, stats, code) in a task of their own.
const DRAW_LATER_FROM: usize = 4000;

/// `false` while the page draws itself for the first time, `true` from the
/// next task on. What is below the fold (the interview cards, the exercises
/// and the mastery list, over half of the first render's elements) is drawn
/// then, so no one task builds the whole page as its wasm arrives.
#[hook]
fn use_first_render_done() -> bool {
    let done = use_state(|| false);
    {
        let done = done.clone();
        use_effect_with((), move |_| {
            let next = gloo_timers::callback::Timeout::new(0, move || done.set(true));
            move || drop(next)
        });
    }
    *done
}

/// `value` as it was one task ago when `later` (then a change is drawn by a
/// second render, in a task of its own), else `value` itself.
#[hook]
fn use_later(value: Option<Shared>, later: bool) -> Option<Shared> {
    let shown = use_mut_ref(|| value.clone());
    let redraw = use_force_update();
    {
        let shown = shown.clone();
        use_effect_with((value.clone(), later), move |(value, later)| {
            let timer = later.then(|| {
                let (value, shown) = (value.clone(), shown.clone());
                gloo_timers::callback::Timeout::new(0, move || {
                    *shown.borrow_mut() = value;
                    redraw.force_update();
                })
            });
            // A newer value cancels the older one's turn.
            move || drop(timer)
        });
    }
    if !later {
        *shown.borrow_mut() = value;
    }
    let now = shown.borrow().clone();
    now
}

/// The document's name in the chunk exports: the file it was opened from,
/// the example it is, or `document` once edited.
fn doc_name(state: &State) -> AttrValue {
    match (&state.file, state.document) {
        (Some(file), _) => AttrValue::from(file.to_string()),
        (None, Some(preset)) => AttrValue::from(preset),
        (None, None) => AttrValue::from("document"),
    }
}

/// What the results say before there are any.
fn no_result(state: &State) -> &'static str {
    if state.error.is_some() {
        "No result yet: fix the setting."
    } else {
        "Splitting…"
    }
}

/// Connects the splitting worker (started before the page was drawn) to the
/// reducer, and posts each request the reducer makes.
#[hook]
fn use_engine(state: &State, dispatch: &Callback<Action>) {
    {
        let dispatch = dispatch.clone();
        use_effect_with((), move |_| {
            crate::history::listen(dispatch.clone());
            crate::engine::connect(dispatch)
        });
    }
    let requests = state.requests();
    let ids: Vec<u32> = requests.iter().map(|r| r.id).collect();
    use_effect_with(ids, move |_| crate::engine::send(&requests));
}

/// The page's handlers for a file dragged onto it.
struct DropZone {
    over: Callback<DragEvent>,
    leave: Callback<DragEvent>,
    drop: Callback<DragEvent>,
}

/// Dropping a file anywhere on the page opens it as the document.
fn drop_handlers(
    dragging: &UseStateHandle<bool>,
    dispatch: &Callback<Action>,
    corpus: &super::corpus::Corpus,
) -> DropZone {
    let over = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            // Only files: text dragged within the page keeps its usual meaning.
            let files = e
                .data_transfer()
                .is_some_and(|d| d.types().includes(&"Files".into(), 0));
            if files {
                e.prevent_default();
                if !*dragging {
                    dragging.set(true);
                }
            }
        })
    };
    let leave = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            // Leaving a child for another child is not leaving the page.
            if e.related_target().is_none() {
                dragging.set(false);
            }
        })
    };
    let drop = {
        let (dragging, dispatch, corpus) = (dragging.clone(), dispatch.clone(), corpus.clone());
        Callback::from(move |e: DragEvent| {
            let Some(list) = e.data_transfer().and_then(|d| d.files()) else {
                return;
            };
            if list.length() == 0 {
                return;
            }
            e.prevent_default();
            dragging.set(false);
            // Many files are a corpus; one is the document, as before.
            super::corpus::open_files(list, &corpus.dispatcher(), &dispatch);
        })
    };
    DropZone { over, leave, drop }
}

/// The page.
#[function_component]
pub fn App() -> Html {
    let state = use_reducer(first_state);
    let below_the_fold = use_first_render_done();
    let mode = use_state(|| {
        if crate::eval_share::opened_on_link() {
            Mode::Evaluate
        } else {
            Mode::Explore
        }
    });
    let on_mode = {
        let mode = mode.clone();
        use_callback((), move |m: Mode, _| mode.set(m))
    };
    // The module waits for the worker's first answer (see modes_host.rs).
    let answered = state.primary().is_some() || state.error.is_some();
    let (modes_host, module) = use_modes_host(*mode, answered, on_mode.clone());
    // One callback for the page's lifetime, so components whose other props did
    // not change are not drawn again.
    let dispatch = {
        let dispatcher = state.dispatcher();
        use_callback((), move |action: Action, _| dispatcher.dispatch(action))
    };
    use_tokenizer(state.settings.unit, dispatch.clone());
    // The sentence and semantic views: drawn by the modes module.
    let meaning_host = use_meaning_host(&state, dispatch.clone(), module);
    let on_point = {
        let dispatch = dispatch.clone();
        use_callback((), move |p: Option<Pointed>, _| {
            dispatch.emit(Action::Point(p))
        })
    };
    let on_reveal = {
        let dispatch = dispatch.clone();
        use_callback((), move |p: Pointed, _| {
            dispatch.emit(Action::RevealChunk(p))
        })
    };
    let primary = state.primary().cloned();
    let highlight: Option<Span> = match (&primary, state.selected_node) {
        (Some(split), Some(id)) => split.output.trace.nodes.get(id).map(|n| n.span),
        _ => None,
    };
    // While stepping, only what the steps so far made is drawn. The events
    // are made once per split, not on every step.
    let events = use_memo(primary.clone(), |split| {
        split
            .as_ref()
            .map(|s| s.output.events())
            .unwrap_or_default()
    });
    let revealed = primary
        .as_ref()
        .and(state.step)
        .map(|k| revealed(&events, k));
    let emitted = revealed.map(|r| r.chunks);
    let stale = state.error.is_some();
    let splits: Vec<Checked> = state
        .view
        .strategies()
        .iter()
        .filter_map(|&s| state.slots.get(s).checked())
        .collect();
    use_engine(&state, &dispatch);
    let invalid = state.error.as_ref().and_then(|p| p.field);
    let bad_separator = state.error.as_ref().and_then(|p| p.separator);
    {
        // A card's setup is a history entry of its own (Back returns to the
        // page before it), and the page scrolls to its result.
        let visit = (
            state.visit,
            state.shown.as_ref().map(|s| s.before.clone()),
            state.snapshot(),
        );
        use_effect_with(visit.0, move |_| {
            if let (v, Some(before), after) = visit {
                if v > 0 {
                    crate::history::push(&before, &after);
                    super::jump::reveal("card-shown");
                }
            }
        });
    }
    let dragging = use_state(|| false);
    let corpus = use_reducer(crate::state::corpus::CorpusState::<web_sys::File>::default);
    let drop_zone = drop_handlers(&dragging, &dispatch, &corpus);
    // Both stable while the corpus is unchanged: the document input and the
    // code view are not drawn again for nothing (a text area drawn again
    // while the learner types would lose the keys since the last pause).
    let on_files = {
        let (corpus, dispatch) = (corpus.dispatcher(), dispatch.clone());
        use_callback((), move |list, _| {
            super::corpus::open_files(list, &corpus, &dispatch)
        })
    };
    let corpus_export = use_callback(corpus.clone(), |csv, corpus| {
        super::corpus::export_corpus(corpus, csv)
    });
    let corpus_export = (!corpus.docs.is_empty()).then_some(corpus_export);
    let primary_strategy = state.view.primary();
    // The token overlay is offered once the chosen token unit's tables are in.
    let token_toggle =
        tokenizer_of(state.settings.unit).map(|_| token_toggle(state.token_overlay, &dispatch));
    let tokens = token_toggle.is_some() && state.token_overlay;
    // The overlap's drawing is a choice only while a chunk on screen has one.
    let repeat_overlap = state.overlap_repeated;
    let has_overlap = state
        .view
        .strategies()
        .iter()
        .filter_map(|&s| state.split(s))
        .any(|split| split.output.chunks.iter().any(|c| c.overlap.is_some()));
    let view_toggles = (token_toggle.is_some() || has_overlap).then(|| {
        html! {
            <div class="view-toggles">
                {token_toggle}
                if has_overlap {
                    {overlap_toggle(repeat_overlap, &dispatch)}
                }
            </div>
        }
    });

    let shown_banner = state.shown.as_ref().map(|shown| {
        let undo = dispatch.reform(|_: MouseEvent| Action::UndoCard);
        let close = dispatch.reform(|_: MouseEvent| Action::DismissCard);
        html! {
            <div class="card-shown flash" id="card-shown" data-testid="card-shown" data-card={shown.card}
                data-kept-text={shown.kept_text.to_string()} role="status" tabindex="-1">
                <span>
                    <strong>{"Showing: "}</strong>{crate::teach::cards::question(shown.card).unwrap_or_default()}
                    {if shown.kept_text { " (your text, the card's settings)" } else { "" }}
                </span>
                <button type="button" data-testid="card-undo" onclick={undo}
                    title="Back to the text and settings before this card (the browser's Back does the same)">
                    {"Undo"}
                </button>
                <button type="button" class="icon" aria-label="close" onclick={close}>{"✕"}</button>
            </div>
        }
    });
    let documents = if state.view.is_compare() {
        let strategies = state.view.strategies();
        html! {
            <>
            if let View::Libraries(shown) = state.view {
                {library_choice(shown, &dispatch)}
            }
            {view_toggles}
            <div class={classes!("panes", (strategies.len() > 2).then_some("many"))}>
                { for strategies.iter().enumerate().map(|(i, &strategy)| {
                    let split = state.split(strategy).cloned();
                    let libraries = state.view.library_defaults();
                    let test_id = if libraries { "library-pane".to_string() } else { format!("pane-{}", strategy.name()) };
                    // The other pane, kept scrolled to the same place in the
                    // text (a pair only: three panes have no one partner).
                    let partner = (strategies.len() == 2)
                        .then(|| strategies.get(1 - i.min(1)))
                        .flatten()
                        .map(|other| AttrValue::from(format!("pane-{}", other.name())));
                    let title = View::title_of(strategy);
                    let library = libraries.then(|| strategy.library()).flatten();
                    let (highlight, emitted) = if strategy == primary_strategy { (highlight, emitted) } else { (None, None) };
                    html! {
                        <section class="card pane" data-testid={test_id} data-strategy={strategy.name()} aria-label={title}>
                            <h2>{title}</h2>
                            if let Some(library) = library {
                                <p class="pane-library">{library}{", its defaults"}</p>
                            }
                            { match split {
                                Some(split) => html! {
                                    <>
                                        <StatsLine split={split.clone()} />
                                        <Legend split={split.clone()} {repeat_overlap} />
                                        <DocumentView split={split.clone()} highlight={highlight} on_point={on_point.clone()} on_reveal={on_reveal.clone()}
                                            {partner} {tokens} {repeat_overlap} {emitted} />
                                        <LangChainNotes {split} />
                                    </>
                                },
                                None => html! { <p class="empty">{no_result(&state)}</p> },
                            }}
                        </section>
                    }
                })}
            </div>
            </>
        }
    } else {
        match &primary {
            Some(split) => html! {
                <section class="card" aria-label="The document, cut into chunks">
                    <div class="card-head">
                        <h2>{"Chunks over the text"}</h2>
                        <StatsLine split={split.clone()} />
                    </div>
                    <Legend split={split.clone()} {repeat_overlap} />
                    {view_toggles}
                    <DocumentView split={split.clone()} highlight={highlight} on_point={on_point.clone()} on_reveal={on_reveal.clone()} {tokens} {repeat_overlap} {emitted} />
                    <LangChainNotes split={split.clone()} />
                </section>
            },
            None => html! { <p class="empty">{no_result(&state)}</p> },
        }
    };

    let pointed_split = state.pointed.and_then(|p| state.split(p.strategy).cloned());
    // The panels below the chunks follow a long split one task later, so that
    // drawing it is two shorter stretches of the main thread, the chunks first.
    let long = primary
        .as_ref()
        .is_some_and(|s| s.output.chunks.len() + s.output.trace.nodes.len() > DRAW_LATER_FROM);
    let details = use_later(primary.clone(), long);
    // A Markdown split's outline: drawn by the modes module.
    let outline_host = use_outline_host(details.clone());
    let compare = state.view.is_compare();
    // The compare views' numbers: drawn by the modes module.
    let panes = compare.then(|| {
        state
            .view
            .strategies()
            .iter()
            .map(|&s| (s, state.split(s).cloned()))
            .collect::<Vec<_>>()
    });
    let compare_stats = use_compare_stats_host(panes, primary_strategy);
    html! {
        <div class={classes!("app", dragging.then_some("dropping"))}
            ondragover={drop_zone.over} ondragleave={drop_zone.leave} ondrop={drop_zone.drop}>
            {skip_link()}
            <header class="top">
                <h1><span class="logo" aria-hidden="true">{"¶"}</span>{"chunkscope"}</h1>
                <p class="tagline">
                    {"Paste a document, pick a size, and see exactly where a splitter cuts it into chunks for retrieval, and why."}
                </p>
                {mode_select(*mode, &on_mode)}
                <ShareButton snapshot={state.snapshot()} />
            </header>
            if let Some(notice) = &state.notice {
                <div class="notice" data-testid="share-error" role="alert">
                    {notice.clone()}
                    <button type="button" class="icon" aria-label="close"
                        onclick={dispatch.reform(|_: MouseEvent| Action::DismissNotice)}>{"✕"}</button>
                </div>
            }
            // Practice, the gallery, code and evaluate mode: a second module, loaded when first chosen.
            {modes_host}
            <div class="layout" hidden={*mode != Mode::Explore}>
                <aside class="inputs" aria-label="Document and settings">
                    <DocInput text={state.text.clone()} document={state.document} file={state.file.clone()}
                        problem={state.file_problem.clone()} dispatch={dispatch.clone()} on_files={on_files} />
                    <super::corpus::CorpusPanel corpus={corpus.clone()} config={primary.as_ref().map(|s| s.config.clone())}
                        dispatch={dispatch.clone()} />
                    <Controls view={state.view} settings={state.settings.clone()} dispatch={dispatch.clone()} {invalid}
                        tokenizer={state.tokenizer.clone()} />
                    <SeparatorEditor
                        settings={state.settings.clone()}
                        view={state.view}
                        dispatch={dispatch.clone()}
                        {invalid} {bad_separator} />
                </aside>
                <main class="results">
                    if let Some(error) = &state.error {
                        <div class="config-error" data-testid="config-error" role="alert">
                            <strong>{"This setting cannot split: "}</strong>{error.message.clone()}
                            <span class="still">{if splits.is_empty() {
                                " Fix it to see the chunks."
                            } else {
                                " The last good result is shown dimmed until it is fixed."
                            }}</span>
                        </div>
                    }
                    if state.splitting() {
                        // Shown only when an answer takes a while (the
                        // stylesheet delays it), so quick re-splits do not flicker.
                        <p class="splitting" data-testid="splitting" role="status">{"Splitting…"}</p>
                    }
                    <div class={classes!("result-body", stale.then_some("stale"))}
                        aria-busy={(stale || state.splitting()).to_string()}>
                        // Explore mode's lessons: one compact picker, so the
                        // chunks stay near the top of the page.
                        <Lessons state={(*state).clone()} dispatch={dispatch.clone()} />
                        <Badges splits={splits.clone()} open={state.open_badge} dispatch={dispatch.clone()} {stale} />
                        {jump_links(compare, details.is_some())}
                        // An absent `Option<Html>` child is no node at all, and Yew
                        // matches unkeyed children from the end: a count that
                        // changes would remount everything before it (the lesson
                        // picker would forget its lesson). Empty nodes keep it.
                        {shown_banner.unwrap_or_default()}
                        <div id={Target::Chunks.id()} class="jump-target" tabindex="-1">{documents}</div>
                        <ChunkDetails split={pointed_split} pointed={state.pointed} />
                        {compare_stats}
                        // The semantic strategy's model loader (the page's
                        // worker holds the model), then the module's views.
                        if state.view == View::One(chunkscope::Strategy::Semantic) {
                            <super::model_file::ModelFile model={state.model.clone()} dispatch={dispatch.clone()} />
                        }
                        {meaning_host}
                        if state.view.shows_langchain() {
                            <LangChainDifferences view={state.view} />
                        }
                        if let Some(split) = &details {
                            <Stepper split={split.clone()} selected={state.selected_node} step={state.step} dispatch={dispatch.clone()} />
                        }
                        {outline_host}
                        if let Some(split) = details {
                            <div id={Target::Tree.id()} class="jump-target" tabindex="-1">
                            <Tree
                                split={split.clone()}
                                upto={revealed.map(|r| r.nodes)}
                                selected={state.selected_node}
                                toggled={state.toggled.clone()}
                                all_children={state.all_children.clone()}
                                dispatch={dispatch.clone()} />
                            </div>
                            <div class="two">
                                <div id={Target::Table.id()} class="jump-target" tabindex="-1">
                                    <ChunkTable split={split.clone()} all_rows={state.all_rows} dispatch={dispatch.clone()} />
                                </div>
                                <div id={Target::Stats.id()} class="jump-target" tabindex="-1">
                                    <StatsView split={split.clone()} />
                                </div>
                            </div>
                            <div id={Target::Code.id()} class="jump-target" tabindex="-1">
                                <CodeView split={split} doc={doc_name(&state)} {corpus_export} />
                            </div>
                        }
                        // The interview cards come after the results: a learner
                        // sees the chunks first, then the questions about them.
                        <div id={Target::Cards.id()} class="jump-target" tabindex="-1">
                            if below_the_fold {
                                <Cards state={(*state).clone()} dispatch={dispatch.clone()} offer={state.offer.as_ref().map(|o| o.card)} />
                                {exercises_host()}
                                <crate::teach::mastery::Mastery dispatch={dispatch.clone()} on_mode={on_mode.clone()} />
                            }
                        </div>
                    </div>
                </main>
            </div>
            <footer class="foot">
                {"Every chunk, cut and tree node on this page is drawn from what the splitter recorded while it ran; nothing is guessed afterwards."}
            </footer>
        </div>
    }
}

/// The libraries view's choice of panes: a box per library, one to
/// [`Libraries::MAX`] ticked (a box that would break that is disabled).
fn library_choice(shown: Libraries, dispatch: &Callback<Action>) -> Html {
    let count = shown.strategies().len();
    html! {
        <fieldset class="library-choice" data-testid="library-choice">
            <legend>{format!("Libraries side by side (up to {})", Libraries::MAX)}</legend>
            { for View::LIBRARIES.into_iter().map(|strategy| {
                let on = shown.contains(strategy);
                let stuck = if on { count == 1 } else { count == Libraries::MAX };
                let onchange = dispatch.reform(move |e: Event| {
                    let checked = e.target_unchecked_into::<web_sys::HtmlInputElement>().checked();
                    Action::SetView(View::Libraries(shown.with(strategy, checked).unwrap_or(shown)))
                });
                html! {
                    <label title={View::title_of(strategy)}>
                        <input type="checkbox" data-testid="library-toggle" data-strategy={strategy.name()}
                            checked={on} disabled={stuck} {onchange} />
                        {" "}{View::short_title_of(strategy)}
                    </label>
                }
            })}
        </fieldset>
    }
}
