//! The bug gallery: a classic mistake, run as a real engine variant next to the
//! correct engine on a text chosen to expose it, with the same checks on both.

use super::verdict;
use crate::components::tokenizer::{use_tables, Tables};
use crate::engine::use_split;
use crate::model::preview;
use crate::state::{Badge, Shared};
use crate::text::Text;
use chunkscope::{CharIndex, Config, Separator, Span, Unit};
use chunkscope_teach::bugs::{self, Bug, BugChunk, BugRun, Demo, Finding, Findings, Piece};
use chunkscope_teach::documents::{documents, held_by, split_documents, Document};
use std::cell::RefCell;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

/// The gallery runs on short texts: a buggy variant may repeat text quadratically.
const MAX_CHARS: usize = 20_000;

/// The learner's edits to a bug's demo.
#[derive(Clone, Debug, PartialEq)]
struct Setup {
    bug: Bug,
    text: Text,
    size: String,
    overlap: String,
    /// The separators (and unit) the run uses: the bug's demo's, or those of
    /// the run another view asked for.
    base: Config,
}

thread_local! {
    /// A run another view asked the gallery to open with (the code mode's
    /// links to the variant that reproduces a bug). The gallery is drawn anew
    /// when its mode is chosen, and takes it then.
    static REQUESTED: RefCell<Option<Setup>> = const { RefCell::new(None) };
}

/// Makes the gallery open on `bug` run on `demo`, the next time it is shown.
pub fn request(bug: Bug, demo: Demo) {
    REQUESTED.with(|r| *r.borrow_mut() = Some(Setup::with(bug, demo)));
}

impl Setup {
    fn demo(bug: Bug) -> Setup {
        Setup::with(bug, bug.demo())
    }

    fn with(bug: Bug, demo: Demo) -> Setup {
        Setup {
            bug,
            text: demo.text.into(),
            size: demo.config.size.to_string(),
            overlap: demo.config.overlap.to_string(),
            base: demo.config,
        }
    }

    /// The requested run if there is one, else the first bug's demo.
    fn first() -> Setup {
        REQUESTED
            .with(|r| r.borrow_mut().take())
            .unwrap_or_else(|| Setup::demo(Bug::ALL[0]))
    }

    /// The demo's configuration with the typed size and overlap. The engine
    /// (in the worker) checks the rest before any variant runs.
    fn config(&self) -> Result<Config, String> {
        let count =
            |field: &str, raw: &str| crate::state::parse_count(field, raw, chunkscope::Unit::Chars);
        let config = Config {
            size: count("size", &self.size)?,
            overlap: count("overlap", &self.overlap)?,
            ..self.base.clone()
        };
        if self.text.chars().count() > MAX_CHARS {
            return Err(format!(
                "the gallery runs on texts of up to {MAX_CHARS} chars: a buggy splitter can repeat text many times over"
            ));
        }
        Ok(config)
    }
}

/// Both sides of one gallery run.
struct Result2 {
    config: Config,
    counter: chunkscope::Counter,
    correct: Vec<Shown>,
    correct_found: Findings,
    buggy: BugRun,
    buggy_found: Findings,
}

/// One chunk as the gallery draws it: where it is, and what it holds.
struct Shown {
    start: usize,
    end: usize,
    len: usize,
    slice: bool,
    parts: Vec<Part>,
    /// The labels of the documents it holds text of, when the text is a
    /// corpus: one document's, or the several it mixes.
    from: Option<String>,
    /// The document tokens it is said to be, where the run says.
    tokens: Option<(usize, usize)>,
}

/// The labels of the documents `pieces` hold text of, for a corpus text.
fn labels(docs: &[Document], pieces: &[Span]) -> Option<String> {
    (docs.len() > 1).then(|| {
        held_by(docs, pieces)
            .into_iter()
            .map(|d| docs[d].label())
            .collect::<Vec<_>>()
            .join(" + ")
    })
}

/// A run of a chunk's text: kept, dropped between two kept pieces, or made up.
enum Part {
    Kept(String),
    Dropped(String),
    Added(String),
}

/// Both sides of a run: the correct engine's split (made by the worker, which
/// also refused any configuration it cannot split) and the variant's, run here.
fn run(setup: &Setup, correct: &Shared) -> Result<Result2, String> {
    let config = correct.config.clone();
    // The page installs a tokenizer before asking the worker to count with
    // it, so this holds whenever the worker answered.
    let resources = chunkscope_wasm::loaded::held();
    let counter = resources.counter(config.unit).map_err(|e| e.to_string())?;
    let text = &*setup.text;
    // A corpus is split document by document (the worker split it as one
    // text, which is the mistake the gallery shows).
    let docs = documents(text);
    let corpus = docs.len() > 1;
    let per_document;
    let out = if corpus {
        per_document = split_documents(text, &config, &resources).map_err(|e| e.to_string())?;
        &per_document
    } else {
        &correct.output
    };
    // The worker's checks compared two runs; findings_of would compare the
    // output with itself, so its determinism check is replaced by the real one.
    let again = if corpus {
        split_documents(text, &config, &resources).map_err(|e| e.to_string())?
    } else {
        out.clone()
    };
    let mut correct_found = bugs::findings_of(text, &config, out, &again, &resources);
    if let (Some(checks), false) = (&correct.checks, corpus) {
        correct_found.checks = checks.clone();
    }
    let index = CharIndex::new(text);
    let buggy = bugs::run(setup.bug, text, &config, &resources);
    let again = bugs::run(setup.bug, text, &config, &resources);
    let buggy_found = bugs::findings(text, &config, &buggy, &again, &resources);
    let shown = out
        .chunks
        .iter()
        .map(|c| (c, index.char_span(c.span)))
        .map(|(c, (start, end))| Shown {
            start,
            end,
            len: c.len,
            slice: true,
            parts: vec![Part::Kept(c.text(text).to_string())],
            from: labels(&docs, &[c.span]),
            tokens: None,
        })
        .collect();
    Ok(Result2 {
        config,
        counter,
        correct: shown,
        correct_found,
        buggy,
        buggy_found,
    })
}

/// A buggy chunk's pieces, with the source skipped between two of them shown
/// as dropped.
fn shown(
    text: &str,
    docs: &[Document],
    index: &CharIndex<'_>,
    chunk: &BugChunk,
    counter: chunkscope::Counter,
) -> Shown {
    let rope = &chunk.rope;
    let mut parts = Vec::new();
    let mut last_end: Option<usize> = None;
    for piece in &rope.pieces {
        match piece {
            Piece::Source(s) => {
                if let Some(end) = last_end.filter(|&e| e < s.start) {
                    parts.push(Part::Dropped(text[end..s.start].to_string()));
                }
                parts.push(Part::Kept(s.text(text).to_string()));
                last_end = Some(s.end);
            }
            Piece::Added(t) => parts.push(Part::Added(t.clone())),
        }
    }
    let (start, end) = rope.hull().map_or((0, 0), |h| index.char_span(h));
    let pieces: Vec<Span> = rope.sources().collect();
    Shown {
        start,
        end,
        len: rope.len(text, counter),
        slice: rope.slice().is_some(),
        parts,
        from: labels(docs, &pieces),
        tokens: chunk.tokens,
    }
}

/// Makes whitespace that a separator is made of visible.
fn visible(text: &str) -> String {
    Separator::literal(text).label().replace(' ', "␣")
}

fn chunk_list(chunks: &[Shown], size: usize, unit: Unit) -> Html {
    if chunks.is_empty() {
        return html! { <p class="empty">{"No chunks."}</p> };
    }
    html! {
        <ol class="bug-chunks">
            { for chunks.iter().enumerate().map(|(i, c)| {
                let over = c.len > size;
                html! {
                    <li class={classes!("bug-chunk", (!c.slice).then_some("not-slice"), over.then_some("over"))}
                        data-testid="chunk" data-index={i.to_string()}
                        data-start={c.start.to_string()} data-end={c.end.to_string()}
                        data-len={c.len.to_string()} data-slice={c.slice.to_string()}>
                        <span class="bug-meta">
                            {format!("#{i} · {}", crate::model::amount(c.len, unit))}
                            if let Some((a, b)) = c.tokens {
                                <span data-testid="chunk-tokens">{format!(" · said to be tokens {a}–{b}")}</span>
                            }
                            if over { <strong class="flag">{" · over the size"}</strong> }
                            if !c.slice { <strong class="flag">{" · not a slice of the text"}</strong> }
                            if let Some(from) = &c.from {
                                <span class="bug-from" data-testid="chunk-documents">{format!(" · {from}")}</span>
                            }
                        </span>
                        <span class="bug-text">
                            { for c.parts.iter().map(|p| match p {
                                Part::Kept(t) => html! { <span>{t.clone()}</span> },
                                Part::Dropped(t) => html! {
                                    <del title="in the text, but left out of this chunk">{visible(t)}</del>
                                },
                                Part::Added(t) => html! {
                                    <ins title="not in the text here: the code made it up">{visible(t)}</ins>
                                },
                            })}
                            if c.parts.is_empty() { <em class="muted">{"(empty)"}</em> }
                        </span>
                    </li>
                }
            })}
        </ol>
    }
}

/// The gallery's findings beyond the engine's properties (whose badges are
/// the page's own), in the order shown, each with its badge's `data-testid`.
const EXTRAS: [(Finding, &str); 7] = [
    (Finding::Slices, "badge-slices"),
    (Finding::Packing, "badge-packing"),
    (Finding::OverlapDelivered, "badge-overlap-delivered"),
    (Finding::Advances, "badge-advances"),
    (Finding::Hash, "badge-hash"),
    (Finding::TokenSpans, "badge-token-spans"),
    (Finding::Boundaries, "badge-boundaries"),
];

fn badges(found: &Findings) -> Html {
    html! {
        <div class="badge-row">
            { for Badge::ALL.into_iter().filter_map(|b| {
                let c = b.of(&found.checks)?;
                Some(verdict(b.test_id(), c.ok, b.title(), &c.detail))
            })}
            { for EXTRAS.into_iter().map(|(f, test_id)| {
                let c = found.of(f);
                verdict(test_id, c.ok, f.title(), &c.detail)
            })}
        </div>
    }
}

/// The failed checks of one side, in words.
fn failures(found: &Findings) -> Html {
    let mut rows: Vec<(&str, &str)> = Badge::ALL
        .into_iter()
        .filter_map(|b| Some((b.title(), b.of(&found.checks)?)))
        .filter(|(_, c)| !c.ok)
        .map(|(t, c)| (t, c.detail.as_str()))
        .collect();
    rows.extend(
        EXTRAS
            .into_iter()
            .map(|(f, _)| (f.title(), found.of(f)))
            .filter(|(_, c)| !c.ok)
            .map(|(t, c)| (t, c.detail.as_str())),
    );
    if rows.is_empty() {
        return html! { <p class="ok-line">{"✓ every check holds"}</p> };
    }
    html! {
        <ul class="fails">
            { for rows.into_iter().map(|(t, d)| html! { <li><strong>{format!("✗ {t}: ")}</strong>{d.to_string()}</li> }) }
        </ul>
    }
}

/// The buggy side alone, for a setting the engine refused: its findings, its
/// run, its chunks as drawn, and the size. `None` when the unit cannot be
/// counted here.
fn refused(setup: &Setup, config: &Config) -> Option<(Findings, BugRun, Vec<Shown>, Config)> {
    let resources = chunkscope_wasm::loaded::held();
    let counter = resources.counter(config.unit).ok()?;
    let text = &*setup.text;
    let run = bugs::run(setup.bug, text, config, &resources);
    let again = bugs::run(setup.bug, text, config, &resources);
    let found = bugs::findings(text, config, &run, &again, &resources);
    let index = CharIndex::new(text);
    let docs = documents(text);
    let shown = run
        .chunks
        .iter()
        .map(|c| shown(text, &docs, &index, c, counter))
        .collect();
    Some((found, run, shown, config.clone()))
}

fn buggy_pane(found: &Findings, run: &BugRun, chunks: &[Shown], config: &Config) -> Html {
    html! {
        <section class="card pane buggy" data-testid="pane-buggy" aria-label="The buggy variant">
            <h3>{"With the bug"}</h3>
            {badges(found)}
            if let Some(note) = &run.note {
                <p class="bug-note" data-testid="bug-note" role="status">{format!("⚠ {note}")}</p>
            }
            {failures(found)}
            {chunk_list(chunks, config.size, config.unit)}
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct BugGalleryProps {
    /// Switches the page's mode (a lesson mistake's code links to code mode).
    #[prop_or_default]
    pub on_mode: Callback<super::Mode>,
}

/// The gallery.
#[function_component]
pub fn BugGallery(props: &BugGalleryProps) -> Html {
    let setup = use_state(Setup::first);
    let tables = use_tables(setup.base.unit);
    let config = setup.config().and_then(|c| match &tables {
        Tables::Failed(why) => Err(why.clone()),
        _ => Ok(c),
    });
    let counting = matches!(tables, Tables::Ready);
    let correct = use_split(setup.text.clone(), config.clone().ok().filter(|_| counting));
    // An answer for the text and settings before the last edit is not drawn
    // over the new text.
    let ready = correct
        .clone()
        .and_then(Result::ok)
        .filter(|split| config.as_ref().is_ok_and(|c| split.is_of(&setup.text, c)));
    let ran = use_memo(((*setup).clone(), ready), |(setup, ready)| {
        ready.as_ref().map(|correct| run(setup, correct))
    });
    let result: Option<Result<&Result2, String>> = match (&config, &correct) {
        (Err(e), _) => Some(Err(e.clone())),
        (Ok(_), Some(Err(refusal))) => Some(Err(refusal.message.clone())),
        (Ok(_), _) => (*ran).as_ref().map(|r| r.as_ref().map_err(Clone::clone)),
    };
    // A setting the engine refuses may still be one the buggy code runs with
    // (seed 001 never checks its overlap): then both sides are shown.
    let refused_run = match (&config, &result) {
        (Ok(config), Some(Err(refusal))) => refused(&setup, config).map(|r| (refusal.clone(), r)),
        _ => None,
    };
    let on_bug = {
        let setup = setup.clone();
        Callback::from(move |e: Event| {
            let name = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Some(bug) = Bug::parse(&name) {
                setup.set(Setup::demo(bug));
            }
        })
    };
    let edit = |f: fn(&mut Setup, String)| {
        let setup = setup.clone();
        move |value: String| {
            let mut next = (*setup).clone();
            f(&mut next, value);
            setup.set(next);
        }
    };
    let on_text = {
        let set = edit(|s, v| s.text = v.into());
        Callback::from(move |e: InputEvent| {
            set(e.target_unchecked_into::<HtmlTextAreaElement>().value())
        })
    };
    let on_size = {
        let set = edit(|s, v| s.size = v);
        Callback::from(move |e: InputEvent| {
            set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let on_overlap = {
        let set = edit(|s, v| s.overlap = v);
        Callback::from(move |e: InputEvent| {
            set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let reset = {
        let setup = setup.clone();
        Callback::from(move |_: MouseEvent| setup.set(Setup::demo(setup.bug)))
    };
    let bug = setup.bug;
    let base = &setup.base;
    // The gallery's variants are built on our engines; a LangChain strategy
    // would be named by its own name the same way.
    let engine = match base.kind() {
        chunkscope::Strategy::Fixed => format!("fixed windows in {}", base.unit),
        strategy => format!(
            "{strategy}, separators {}",
            base.separators
                .iter()
                .map(|s| format!("\"{}\"", visible(&s.pattern)))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    };
    let body = match result {
        _ if refused_run.is_some() => {
            let (refusal, (found, run, shown, config)) = refused_run.expect("matched");
            html! {
                <div class="panes">
                    <section class="card pane" data-testid="pane-correct" aria-label="The correct engine">
                        <h3>{"Correct engine"}</h3>
                        <div class="config-error" data-testid="config-error" role="alert">{refusal}</div>
                        <p class="hint">{"The engine refuses this setting and says what to change."}</p>
                    </section>
                    {buggy_pane(&found, &run, &shown, &config)}
                </div>
            }
        }
        None if !counting => html! {
            <p class="empty">{format!("Loading the {} tokenizer…", setup.base.unit)}</p>
        },
        None => html! { <p class="empty">{"Splitting…"}</p> },
        Some(Err(e)) => {
            html! { <div class="config-error" data-testid="config-error" role="alert">{e.clone()}</div> }
        }
        Some(Ok(r)) => {
            let text = &*setup.text;
            let index = CharIndex::new(text);
            let docs = documents(text);
            let buggy: Vec<Shown> = r
                .buggy
                .chunks
                .iter()
                .map(|c| shown(text, &docs, &index, c, r.counter))
                .collect();
            html! {
                <div class="panes">
                    <section class="card pane" data-testid="pane-correct" aria-label="The correct engine">
                        <h3>{"Correct engine"}</h3>
                        {badges(&r.correct_found)}
                        {failures(&r.correct_found)}
                        {chunk_list(&r.correct, r.config.size, r.config.unit)}
                    </section>
                    {buggy_pane(&r.buggy_found, &r.buggy, &buggy, &r.config)}
                </div>
            }
        }
    };
    html! {
        <section class="teach bug-gallery" data-testid="bug-gallery" aria-label="Bug gallery">
            <div class="card">
                <div class="teach-head">
                    <label for="bug-select"><strong>{"Mistake"}</strong></label>
                    <select id="bug-select" data-testid="bug-select" onchange={on_bug}>
                        { for Bug::ALL.into_iter().map(|b| html! {
                            <option value={b.name()} selected={b == bug}>{b.title()}</option>
                        })}
                    </select>
                </div>
                <h2 data-testid="bug-title">{bug.title()}</h2>
                <p data-testid="bug-explain"><strong>{"The bug. "}</strong>{bug.mistake()}</p>
                <p data-testid="bug-fix"><strong>{"The fix. "}</strong>{bug.fix()}</p>
                <p class="muted">
                    {if bug.breaks().is_empty() {
                        format!("No check catches it here: compare the two sides' chunks. Engine: {engine}.")
                    } else {
                        format!("Breaks: {}. Engine: {engine}.", bug.breaks().iter().map(|p| p.title()).collect::<Vec<_>>().join(", "))
                    }}
                </p>
                <div class="bug-inputs">
                    <label class="field grow">{"Text (chosen to expose the bug; edit it)"}
                        <textarea data-testid="bug-text" rows="3" spellcheck="false"
                            value={AttrValue::from(setup.text.shared())} oninput={on_text} />
                    </label>
                    <label class="field">{"Size"}
                        <input data-testid="bug-size" type="number" min="1" value={setup.size.clone()} oninput={on_size} />
                    </label>
                    <label class="field">{"Overlap"}
                        <input data-testid="bug-overlap" type="number" min="0" value={setup.overlap.clone()} oninput={on_overlap} />
                    </label>
                    <button type="button" class="more" onclick={reset}>{"Back to the demo"}</button>
                </div>
                <p class="hint">{format!("The text: “{}”", preview(&setup.text, 90))}</p>
                {super::bug_code::bug_code(bug, &props.on_mode)}
            </div>
            {body}
        </section>
    }
}
