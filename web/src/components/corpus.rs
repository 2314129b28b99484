//! The corpus panel: many files opened at once, each a document, listed with
//! the worker's numbers for each and for the whole corpus. The page holds
//! only the files' handles; the worker reads and splits each alone.

use super::doc_input::open_file;
use super::tokenizer::size_label;
use crate::model::{count, cut_attr, cut_label};
use crate::state::corpus::{reduce, CorpusAction, CorpusState, Doc, Report};
use crate::state::Action;
use chunkscope::stats::Cuts;
use chunkscope::{Config, Cut, Separator};
use chunkscope_wasm::corpus::Stats;
use std::rc::Rc;
use web_sys::File;
use yew::prelude::*;

impl Reducible for CorpusState<File> {
    type Action = CorpusAction<File>;
    fn reduce(self: Rc<Self>, action: CorpusAction<File>) -> Rc<Self> {
        Rc::new(reduce(&self, action))
    }
}

/// The corpus's state handle, owned by the page.
pub type Corpus = UseReducerHandle<CorpusState<File>>;

/// Opens the files of `list`: one is the document, as before (and closes a
/// corpus); several become the corpus. Nothing of them is read here, not
/// even their sizes (each asks the file system): the worker reads them.
pub fn open_files(
    list: web_sys::FileList,
    corpus: &UseReducerDispatcher<CorpusState<File>>,
    dispatch: &Callback<Action>,
) {
    let files: Vec<File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
    if files.len() > 1 {
        let docs = files
            .into_iter()
            .map(|f| Doc {
                name: f.name(),
                file: f,
            })
            .collect();
        corpus.dispatch(CorpusAction::Open(docs));
        return;
    }
    corpus.dispatch(CorpusAction::Close);
    if let Some(first) = files.into_iter().next() {
        open_file(first, dispatch.clone());
    }
}

fn files_of(docs: &[Doc<File>]) -> js_sys::Array {
    docs.iter()
        .map(|d| wasm_bindgen::JsValue::from(&d.file))
        .collect()
}

/// Downloads every document's chunks (`csv` or JSON Lines), each naming its
/// document: made by the worker from the files, under the corpus's settings.
pub fn export_corpus(corpus: &CorpusState<File>, csv: bool) {
    let Some(config) = corpus.config.clone() else {
        return;
    };
    let (format, name, mime) = if csv {
        ("csv", "chunks.csv", "text/csv")
    } else {
        ("jsonl", "chunks.jsonl", "application/jsonl")
    };
    crate::engine::corpus(
        &files_of(&corpus.docs),
        &config,
        Some(format),
        move |answer| match answer {
            Ok((_, Some(text))) => {
                super::code_view::download_as(name, mime, &text.into());
            }
            Ok(_) => {}
            Err(refusal) => web_sys::console::error_1(&refusal.message.into()),
        },
    );
}

#[derive(Properties, PartialEq)]
pub struct CorpusProps {
    /// The corpus.
    pub corpus: Corpus,
    /// The settings of the split on screen.
    pub config: Option<Config>,
    /// The page's reducer, for showing a document.
    pub dispatch: Callback<Action>,
}

fn stats_attrs(s: &Stats) -> [(&'static str, String); 7] {
    [
        ("data-chars", s.chars.to_string()),
        ("data-bytes", s.bytes.to_string()),
        ("data-chunks", s.chunks.to_string()),
        ("data-min", s.min.to_string()),
        ("data-median", s.median.to_string()),
        ("data-max", s.max.to_string()),
        ("data-over", s.over.to_string()),
    ]
}

fn with_attrs(mut tag: yew::virtual_dom::VTag, attrs: &[(&'static str, String)]) -> Html {
    for (key, value) in attrs {
        tag.add_attribute(key, value.clone());
    }
    tag.into()
}

/// The numbers of one document or of all, in words.
fn numbers(s: &Stats, unit: &str) -> String {
    format!(
        "{} chunks · length {} / {} / {} {unit} (min / median / max){}",
        s.chunks,
        s.min,
        s.median,
        s.max,
        if s.over > 0 {
            format!(" · {} over the size", s.over)
        } else {
            String::new()
        }
    )
}

/// The corpus's cuts by what made them, one `corpus-cut` per kind that cut
/// (`data-cut` as a chunk's, `data-count`), then the cuts inside a word: over
/// a corpus, whether the separator hierarchy does the work or hard cuts do.
fn cuts_line(cuts: &Cuts, separators: &[Separator]) -> Html {
    // (data-cut, words, count) for every kind of cut, in the order shown.
    let by_separator = cuts.by_separator.iter().enumerate().map(|(i, &n)| {
        let cut = Cut::Separator(i);
        let words = match separators.get(i) {
            Some(_) => format!("at {}", cut_label(cut, separators)),
            None => format!("at separator {}", i + 1),
        };
        (cut_attr(cut, separators), words, n)
    });
    let others = [
        ("hard", "hard", cuts.hard),
        ("window", "at a window's end", cuts.windows),
        ("breakpoint", "at a breakpoint", cuts.breakpoints),
        ("structure", "at the structure", cuts.structure),
    ]
    .map(|(attr, words, n)| (attr.to_string(), words.to_string(), n));
    let parts: Vec<Html> = by_separator
        .chain(others)
        .filter(|(_, _, n)| *n > 0)
        .map(|(attr, words, n)| {
            html! {
                <span data-testid="corpus-cut" data-cut={attr} data-count={n.to_string()}>
                    {format!("{n} {words}")}
                </span>
            }
        })
        .collect();
    let total = cuts.total();
    html! {
        <p class="corpus-cuts" data-testid="corpus-cuts" data-total={total.to_string()}
            data-mid-word={cuts.mid_word.to_string()}>
            {format!("{}: ", count(total, "cut between chunks", "cuts between chunks"))}
            { for parts.into_iter().enumerate().map(|(k, part)| html! {
                <>{if k > 0 { " · " } else { "" }}{part}</>
            })}
            {format!(" — {} inside a word", cuts.mid_word)}
        </p>
    }
}

/// The corpus's documents and numbers. Absent without a corpus.
#[function_component]
pub fn CorpusPanel(props: &CorpusProps) -> Html {
    let corpus = props.corpus.clone();
    {
        // Only while a corpus is open: the page is not drawn again for it
        // otherwise.
        let dispatcher = corpus.dispatcher();
        let open = !corpus.docs.is_empty();
        use_effect_with((props.config.clone(), open), move |(config, open)| {
            if *open {
                dispatcher.dispatch(CorpusAction::SetConfig(config.clone()))
            }
        });
    }
    {
        let request = corpus.request();
        let dispatcher = corpus.dispatcher();
        use_effect_with(request.as_ref().map(|r| r.0), move |_| {
            if let Some((round, docs, config)) = request {
                crate::engine::corpus(&files_of(&docs), &config, None, move |answer| {
                    let result = answer.map_err(|r| r.message).map(|(numbers, _)| Report {
                        total: numbers.total,
                        documents: numbers
                            .documents
                            .into_iter()
                            .map(|d| (d.name, d.stats))
                            .collect(),
                    });
                    dispatcher.dispatch(CorpusAction::Reported { round, result });
                });
            }
        });
    }
    {
        // The first document is opened once the corpus is answered: the
        // worker splits the corpus first, then the document shown.
        let (docs, dispatch) = (corpus.docs.clone(), props.dispatch.clone());
        let first = corpus.shown == Some(0) && corpus.answered();
        // Held, not only its address: a later corpus cannot reuse it.
        let opened = use_mut_ref(|| None::<Rc<Vec<Doc<File>>>>);
        use_effect_with((Rc::as_ptr(&docs), first), move |&(_, first)| {
            let done = opened
                .borrow()
                .as_ref()
                .is_some_and(|o| Rc::ptr_eq(o, &docs));
            if first && !done {
                if let Some(doc) = docs.first() {
                    open_file(doc.file.clone(), dispatch);
                }
                *opened.borrow_mut() = Some(docs);
            }
        });
    }
    if corpus.docs.is_empty() {
        return html! {};
    }
    let unit = props.config.as_ref().map_or("", |c| c.unit.name());
    let state = if corpus.error().is_some() {
        "failed"
    } else if corpus.answered() {
        "done"
    } else {
        "waiting"
    };
    let report = corpus.numbers();
    let total = report.map(|r| r.total.clone()).unwrap_or_default();
    let mut stats = yew::virtual_dom::VTag::new("p");
    stats.add_attribute("class", "corpus-stats");
    stats.add_attribute("data-testid", "corpus-stats");
    stats.add_attribute("data-state", state);
    stats.add_attribute("data-documents", corpus.docs.len().to_string());
    stats.add_attribute("role", "status");
    stats.add_child(html! {
        <>
            <strong>{format!("{} documents", corpus.docs.len())}</strong>
            {format!(
                " · {} chars · {}",
                total.chars,
                if report.is_some() { numbers(&total, unit) } else { "splitting…".into() }
            )}
        </>
    });
    let stats = with_attrs(stats, &stats_attrs(&total));
    let close = {
        let corpus = corpus.clone();
        Callback::from(move |_: MouseEvent| corpus.dispatch(CorpusAction::Close))
    };
    html! {
        <section class="card corpus" aria-label="Corpus">
            <div class="card-head">
                <h2>{"Corpus"}</h2>
                <button type="button" class="link" data-testid="corpus-close" onclick={close}>{"Close"}</button>
            </div>
            <p class="hint">{"Each file is a document, split alone by the worker with the settings on screen: no chunk spans two."}</p>
            {stats}
            if let (Some(report), Some(config)) = (report, props.config.as_ref()) {
                {cuts_line(&report.total.cuts, &config.separators)}
            }
            if let Some(why) = corpus.error() {
                <p class="warn" data-testid="corpus-error" role="alert">{why.to_string()}</p>
            }
            <ol class="corpus-docs">
                { for corpus.docs.iter().enumerate().map(|(i, doc)| {
                    let numbers_of = report.and_then(|r| r.documents.get(i)).map(|(_, s)| s);
                    let shown = corpus.shown == Some(i);
                    let show = {
                        let (corpus, dispatch, file) = (corpus.clone(), props.dispatch.clone(), doc.file.clone());
                        Callback::from(move |_: MouseEvent| {
                            corpus.dispatch(CorpusAction::Show(i));
                            open_file(file.clone(), dispatch.clone());
                        })
                    };
                    let mut li = yew::virtual_dom::VTag::new("li");
                    li.add_attribute("data-testid", "corpus-doc");
                    li.add_attribute("data-name", doc.name.clone());
                    li.add_attribute("data-index", i.to_string());
                    li.add_attribute("data-shown", shown.to_string());
                    if shown {
                        li.add_attribute("class", "shown");
                    }
                    li.add_child(html! {
                        <>
                            <button type="button" class="link corpus-name" data-testid="corpus-show"
                                aria-pressed={shown.to_string()} onclick={show}
                                title="Show this document's chunks">{doc.name.clone()}</button>
                            <span class="muted">{match numbers_of {
                                Some(s) => format!(" {} · {}", size_label(s.bytes), numbers(s, unit)),
                                None => " …".into(),
                            }}</span>
                        </>
                    });
                    match numbers_of {
                        Some(s) => with_attrs(li, &stats_attrs(s)),
                        None => li.into(),
                    }
                })}
            </ol>
        </section>
    }
}
