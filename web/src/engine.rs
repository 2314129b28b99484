//! The page's side of the splitting worker: it posts the reducer's requests
//! and turns the worker's answers into actions. The messages are the ones any
//! caller of the JS API's worker sends (`chunkscope_wasm::message`), with
//! reports in the binary encoding, so that reading the report of a 10 MB
//! document back costs the main thread a few milliseconds.
//!
//! Which answer to take is the reducer's business (it knows each slot's
//! latest request); here a binary report is only read when a request in the
//! reducer's latest list awaits it, and handed over in a task of its own. The
//! worker is started once, when the page mounts; requests made before it is
//! ready wait in order.
//!
//! There are two workers, with the same messages: the first runs every
//! strategy but the text-splitter ones, and is started at once; the second
//! is the same worker built with them, whose segmenters carry ICU4X's
//! dictionaries (3 MB of wasm, seven times the first), so it is
//! started only when a text-splitter strategy is first asked for. Each
//! request goes to the worker its strategy needs ([`Which::of`]); the token
//! tables handed to one are handed to the other when it starts.
//!
//! A worker answers one message at a time, and a split cannot be stopped
//! half way. So while it works, new requests wait here, and when it is free
//! only the reducer's latest ones are posted: typing a size on a long
//! document costs the worker the split in progress and the last one, not one
//! per key.

use crate::state::model_file::LoadedModel;
use crate::state::{Action, Request, Shared, Split};
use crate::text::Text;
use chunkscope::{Config, Strategy};
use chunkscope_wasm::contract::{Detail, Refusal};
use chunkscope_wasm::corpus::Numbers;
use chunkscope_wasm::message::{self, Caller, Encoding, Reply, ReportBody, Response};
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Worker};
use yew::prelude::{hook, use_effect_with, use_mut_ref, use_state};
use yew::Callback;

/// Which of the two workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Which {
    /// Every strategy but the text-splitter ones; started with the page.
    First,
    /// The same worker with the text-splitter strategies; started when needed.
    TextSplitter,
}

impl Which {
    const ALL: [Which; 2] = [Which::First, Which::TextSplitter];

    /// The worker that runs `strategy`.
    fn of(strategy: Strategy) -> Which {
        if strategy.is_text_splitter() {
            Which::TextSplitter
        } else {
            Which::First
        }
    }

    const fn index(self) -> usize {
        self as usize
    }

    /// The script that starts it (`static/splitter-worker.js`, copied next
    /// to the page with the `chunkscope-worker` and
    /// `chunkscope-text-splitter-worker` binaries; see `index.html`).
    const fn url(self) -> &'static str {
        match self {
            Which::First => "./splitter-worker.js",
            Which::TextSplitter => "./splitter-worker.js?text-splitter",
        }
    }

    /// What the page calls it when it fails.
    const fn name(self) -> &'static str {
        match self {
            Which::First => "The splitter",
            Which::TextSplitter => "The text-splitter worker",
        }
    }
}

/// An errand's answer: for requests the reducer does not track (an export).
type Errand = Box<dyn FnOnce(Answer)>;

/// A worker's answer as the page reads it.
type Answer = Response<Caller>;

/// What an errand takes from its answer (`pick` gives `None` for an answer
/// of another kind), or the worker's refusal.
fn expect<T>(answer: Answer, pick: impl FnOnce(Answer) -> Option<T>) -> Result<T, Refusal> {
    match answer {
        Response::Error(refusal) => Err(refusal),
        other => pick(other).ok_or_else(|| Refusal::new(None, "the splitter sent something else")),
    }
}

/// One worker and what is waiting on it.
struct Engine {
    /// The worker (none when it could not be made).
    worker: Option<Worker>,
    /// Whether the worker said it takes requests.
    ready: bool,
    /// Messages posted before it did, in order.
    queue: Vec<JsValue>,
    /// Messages posted and not answered yet.
    busy: usize,
    /// The reducer's requests waiting for an answer (its latest list).
    outbox: Vec<Request>,
    /// The highest reducer request id posted.
    posted: u32,
    /// One-off requests, by their (negative) id.
    errands: Vec<(i64, Errand)>,
    last_errand: i64,
    _on_message: Closure<dyn Fn(MessageEvent)>,
    _on_error: Closure<dyn Fn(web_sys::Event)>,
}

/// What the two workers share.
#[derive(Default)]
struct Page {
    /// Where answers go, once the page has mounted.
    dispatch: Option<Callback<Action>>,
    /// Why a worker cannot answer, said when the page connects.
    failure: Option<String>,
    /// The JS string of the last text sent, so a long document is converted
    /// once, not for every request about it (either worker takes it).
    text: Option<(Text, JsValue)>,
    /// The token units' tables handed to the workers, in order, for a
    /// worker that starts later.
    tables: Vec<Rc<[u8]>>,
}

thread_local! {
    static ENGINES: RefCell<[Option<Engine>; 2]> = const { RefCell::new([None, None]) };
    static PAGE: RefCell<Page> = RefCell::new(Page::default());
}

/// Starts the first worker (once), before the page is first drawn, so that
/// it loads while the page does. Its answers go to the reducer once
/// [`connect`]ed.
pub fn start() {
    start_worker(Which::First);
}

/// Starts `which` (once), and hands it the token tables the other has.
fn start_worker(which: Which) {
    if ENGINES.with(|e| e.borrow()[which.index()].is_some()) {
        return;
    }
    let (worker, failure) = match Worker::new(which.url()) {
        Ok(worker) => (Some(worker), None),
        Err(e) => (
            None,
            Some(format!(
                "{} could not start ({}), so nothing can be split with it on this page.",
                which.name(),
                describe(&e)
            )),
        ),
    };
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        receive(which, Reply::read(&event.data()));
    });
    let on_error = Closure::<dyn Fn(web_sys::Event)>::new(move |event: web_sys::Event| {
        let detail = event
            .dyn_ref::<web_sys::ErrorEvent>()
            .map(|e| e.message())
            .filter(|m| !m.is_empty())
            .unwrap_or_else(|| "it could not be loaded".into());
        fail(format!(
            "{} stopped ({detail}); reload the page to start it again.",
            which.name()
        ));
    });
    if let Some(worker) = &worker {
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    }
    ENGINES.with(|e| {
        e.borrow_mut()[which.index()] = Some(Engine {
            worker,
            ready: false,
            queue: Vec::new(),
            busy: 0,
            outbox: Vec::new(),
            posted: 0,
            errands: Vec::new(),
            last_errand: 0,
            _on_message: on_message,
            _on_error: on_error,
        })
    });
    if let Some(why) = failure {
        fail(why);
    }
    // Posted first, so installed before any split that counts with them.
    let tables = PAGE.with(|p| p.borrow().tables.clone());
    for data in tables {
        post_tokenizer(which, &data);
    }
}

/// Sends the worker's answers to `dispatch` from now on. A failure to start
/// that came before is said now, so the page never waits forever.
pub fn connect(dispatch: Callback<Action>) {
    start();
    let failure = PAGE.with(|p| {
        let mut page = p.borrow_mut();
        page.dispatch = Some(dispatch.clone());
        page.failure.take()
    });
    if let Some(why) = failure {
        dispatch.emit(Action::EngineFailed(why));
    }
}

/// Says that the worker cannot answer: to the reducer, or once it connects.
fn fail(why: String) {
    let dispatch = PAGE.with(|p| {
        let mut page = p.borrow_mut();
        if page.dispatch.is_none() {
            page.failure = Some(why.clone());
        }
        page.dispatch.clone()
    });
    if let Some(dispatch) = dispatch {
        dispatch.emit(Action::EngineFailed(why));
    }
}

/// Takes the reducer's requests waiting for an answer; those not posted yet
/// are posted as soon as their worker is free. The text-splitter worker is
/// started by the first request it has to answer.
pub fn send(requests: &[Request]) {
    for which in Which::ALL {
        let mine: Vec<Request> = requests
            .iter()
            .filter(|r| Which::of(r.config.kind()) == which)
            .cloned()
            .collect();
        let started = ENGINES.with(|e| e.borrow()[which.index()].is_some());
        if mine.is_empty() && !started {
            continue;
        }
        with_engine(which, |engine| {
            engine.outbox = mine;
            engine.pump();
        });
    }
}

/// Hands a token unit's tables to the workers, which split with their own
/// copies (and to the text-splitter worker when it starts). Posted before
/// the split requests that need them, so they are installed first.
pub fn install_tokenizer(data: &[u8]) {
    let data: Rc<[u8]> = data.into();
    let known = PAGE.with(|p| {
        let mut page = p.borrow_mut();
        let known = page.tables.iter().any(|t| **t == *data);
        if !known {
            page.tables.push(data.clone());
        }
        known
    });
    if known {
        // The workers have these tables already (a unit chosen again).
        return;
    }
    for which in Which::ALL {
        if ENGINES.with(|e| e.borrow()[which.index()].is_some()) {
            post_tokenizer(which, &data);
        }
    }
}

fn post_tokenizer(which: Which, data: &[u8]) {
    with_engine(which, |engine| {
        let id = engine.errand(Box::new(|answer| {
            if let Response::Error(refusal) = answer {
                web_sys::console::error_1(&refusal.message.into());
            }
        }));
        engine.post(message::tokenizer_request(&id, data).into());
    });
}

/// Hands a static model's files to the worker (each `(name, ArrayBuffer)`,
/// not copied by the page), or with `None` drops the worker's model. `done`
/// gets the worker's summary (or `None` once dropped), or why not.
pub fn model(
    name: &str,
    files: Option<&js_sys::Array>,
    done: impl FnOnce(Result<Option<LoadedModel>, Refusal>) + 'static,
) {
    // Only the semantic strategy reads a model, and it is the first's.
    with_engine(Which::First, |engine| {
        let id = engine.errand(Box::new(move |answer| {
            done(expect(answer, |a| match a {
                Response::Loaded(model) => Some(model),
                _ => None,
            }))
        }));
        engine.post(message::model_request(&id, name, files).into());
    });
}

/// Asks for the full report of `text` under `config` as a plain object (the
/// JS API's `split()` result), for the JSON export.
pub fn full_report(
    text: &Text,
    config: &Config,
    done: impl FnOnce(Result<JsValue, Refusal>) + 'static,
) {
    with_engine(Which::of(config.kind()), |engine| {
        let id = engine.errand(Box::new(move |answer| {
            done(expect(answer, |a| match a {
                Response::Report {
                    report: ReportBody::Object(report),
                    ..
                } => Some(report),
                _ => None,
            }))
        }));
        let text = js_text_of(text);
        let message = message::split_request(&id, &text, config, Detail::Full, Encoding::Object);
        engine.post(message.into());
    });
}

/// Asks the worker to evaluate `config` on the documents `docs` (name and
/// text) with `questions`, retrieving `top_k` chunks per question.
pub fn evaluate(
    docs: &[(String, Text)],
    questions: &[chunkscope_eval::Question],
    config: &Config,
    top_k: usize,
    done: impl FnOnce(Result<chunkscope_eval::Evaluation, Refusal>) + 'static,
) {
    evaluate_by(docs, questions, config, top_k, None, done);
}

/// [`evaluate`], retrieving with the worker's static model of generation
/// `model` when there is one, else by BM25.
pub fn evaluate_by(
    docs: &[(String, Text)],
    questions: &[chunkscope_eval::Question],
    config: &Config,
    top_k: usize,
    model: Option<u32>,
    done: impl FnOnce(Result<chunkscope_eval::Evaluation, Refusal>) + 'static,
) {
    with_engine(Which::of(config.kind()), |engine| {
        let id = engine.errand(Box::new(move |answer| {
            done(
                expect(answer, |a| match a {
                    Response::Evaluation(evaluation) => Some(evaluation),
                    _ => None,
                })
                .and_then(|evaluation| evaluation.read()),
            )
        }));
        let docs: Vec<(String, JsValue)> = docs
            .iter()
            .map(|(name, text)| (name.clone(), js_text_of(text)))
            .collect();
        let message = chunkscope_wasm::eval::eval_request(&id, &docs, questions, config, top_k);
        if let Some(generation) = model {
            chunkscope_wasm::eval::by_model(&message, generation);
        }
        engine.post(message.into());
    });
}

/// Asks the worker to split every document of `docs` (`File`s, which it
/// reads itself) alone under `config`: their numbers, and with `export`
/// (`"jsonl"`, `"csv"`) every chunk's row naming its document.
pub fn corpus(
    docs: &js_sys::Array,
    config: &Config,
    export: Option<&str>,
    done: impl FnOnce(Result<(Numbers, Option<String>), Refusal>) + 'static,
) {
    with_engine(Which::of(config.kind()), |engine| {
        let id = engine.errand(Box::new(move |answer| {
            done(
                expect(answer, |a| match a {
                    Response::Corpus { numbers, export } => Some((numbers, export)),
                    _ => None,
                })
                .and_then(|(numbers, export)| Ok((numbers.read()?, export))),
            )
        }));
        let message = chunkscope_wasm::corpus::corpus_request(&id, docs, config, export);
        engine.post(message.into());
    });
}

/// Asks the worker to read a questions file (JSON Lines) about `docs`: the
/// questions, or what is wrong and on which line.
pub fn read_questions(
    docs: &[(String, Text)],
    jsonl: &str,
    done: impl FnOnce(Result<Vec<chunkscope_eval::Question>, Refusal>) + 'static,
) {
    with_engine(Which::First, |engine| {
        let id = engine.errand(Box::new(move |answer| {
            done(
                expect(answer, |a| match a {
                    Response::Parsed(questions) => Some(questions),
                    _ => None,
                })
                .and_then(|questions| questions.read()),
            )
        }));
        let docs: Vec<(String, JsValue)> = docs
            .iter()
            .map(|(name, text)| (name.clone(), js_text_of(text)))
            .collect();
        let message = chunkscope_wasm::eval::questions_request(&id, &docs, jsonl);
        engine.post(message.into());
    });
}

/// Asks for the full analysis of `text` under `config`, for a view that
/// keeps its own split (the teaching views) rather than the reducer's.
pub fn analyze(text: Text, config: &Config, done: impl FnOnce(Result<Split, Refusal>) + 'static) {
    with_engine(Which::of(config.kind()), |engine| {
        let held = text.clone();
        let id = engine.errand(Box::new(move |answer| {
            let report = expect(answer, |a| match a {
                Response::Report { report, ms } => Some((report.bytes(), ms)),
                _ => None,
            });
            done(report.and_then(|(bytes, ms)| {
                bytes
                    .ok_or_else(|| "the splitter sent a report this page cannot read".to_string())
                    .and_then(|bytes| Split::decode(held, &bytes))
                    .map(|split| split.with_worker_ms(ms))
                    .map_err(|why| Refusal::new(None, why))
            }))
        }));
        let js = js_text_of(&text);
        let message = message::split_request(&id, &js, config, Detail::Full, Encoding::Binary);
        engine.post(message.into());
    });
}

/// A view's own split of `text` under `config` (none while `config` is
/// `None`): `None` until the worker answers. When either changes, the
/// answer to the older request is ignored.
#[hook]
pub fn use_split(text: Text, config: Option<Config>) -> Option<Result<Shared, Refusal>> {
    let answer = use_state(|| None);
    let asked = use_mut_ref(|| 0u32);
    {
        let answer = answer.clone();
        use_effect_with((text, config), move |(text, config)| {
            *asked.borrow_mut() += 1;
            let mine = *asked.borrow();
            answer.set(None);
            if let Some(config) = config {
                analyze(text.clone(), config, move |result| {
                    if *asked.borrow() == mine {
                        answer.set(Some(result.map(|split| Shared(Rc::new(split)))));
                    }
                });
            }
        });
    }
    (*answer).clone()
}

/// Keeps `js`, the JS string a long document was read from, as the one sent
/// for `text`: it need not be made again from the Rust copy.
pub fn adopt_text(text: &Text, js: JsValue) {
    PAGE.with(|p| p.borrow_mut().text = Some((text.clone(), js)));
}

/// Runs `f` on `which`'s engine, started first if it is not yet.
fn with_engine(which: Which, f: impl FnOnce(&mut Engine)) {
    start_worker(which);
    ENGINES.with(|e| {
        if let Some(engine) = e.borrow_mut()[which.index()].as_mut() {
            f(engine);
        }
    });
}

impl Engine {
    /// Posts the reducer's requests not posted yet (ids only grow), once the
    /// worker has answered everything before them.
    fn pump(&mut self) {
        if !self.ready || self.busy > 0 {
            return;
        }
        let (outbox, posted) = (std::mem::take(&mut self.outbox), self.posted);
        for request in outbox.iter().filter(|r| r.id > posted) {
            let text = js_text_of(&request.text);
            let message = message::split_request(
                &JsValue::from(request.id),
                &text,
                &request.config,
                request.detail,
                Encoding::Binary,
            );
            self.post(message.into());
            self.posted = request.id;
        }
        self.outbox = outbox;
    }

    /// Posts `message`, which the worker will answer once.
    fn post(&mut self, message: JsValue) {
        self.busy += 1;
        if self.ready {
            self.deliver(&message);
        } else {
            self.queue.push(message);
        }
    }

    fn deliver(&self, message: &JsValue) {
        let sent = self.worker.as_ref().map(|w| w.post_message(message));
        if let Some(Err(e)) = sent {
            web_sys::console::error_2(&"a request could not be posted".into(), &e);
        }
    }

    fn errand(&mut self, answer: Errand) -> JsValue {
        self.last_errand -= 1;
        self.errands.push((self.last_errand, answer));
        JsValue::from(self.last_errand as f64)
    }
}

/// What to do with one message from `which`.
fn receive(which: Which, reply: Reply) {
    if let Response::Ready { .. } = reply.response {
        with_engine(which, |engine| {
            engine.ready = true;
            for message in std::mem::take(&mut engine.queue) {
                engine.deliver(&message);
            }
            engine.pump();
        });
        return;
    }
    with_engine(which, |engine| engine.busy = engine.busy.saturating_sub(1));
    take(which, reply.id_number(), reply.response);
    // The answer may have been to an older request than the reducer's
    // latest: those wait here and go now.
    with_engine(which, Engine::pump);
}

/// Hands the answer to request `id`, from `which`, to whoever asked.
fn take(which: Which, id: Option<f64>, answer: Answer) {
    let Some(id) = id else {
        // An error that answers no request: the worker could not start.
        if let Response::Error(refusal) = answer {
            fail(format!(
                "{} could not start ({}), so nothing can be split with it on this page.",
                which.name(),
                refusal.message
            ));
        }
        return;
    };
    if id < 0.0 {
        let errand = ENGINES.with(|e| {
            let mut engines = e.borrow_mut();
            let errands = &mut engines[which.index()].as_mut()?.errands;
            let at = errands.iter().position(|(key, _)| *key == id as i64)?;
            Some(errands.swap_remove(at).1)
        });
        if let Some(errand) = errand {
            errand(answer);
        }
        return;
    }
    let id = id as u32;
    let action = match answer {
        Response::Report { report, ms } => {
            // Only a report the reducer still awaits is read: one of a long
            // document takes a while to decode. A long one is handed over in
            // a task of its own, so that reading it and drawing it are two
            // shorter stretches of the main thread instead of one long one;
            // a short one is drawn at once.
            let awaited = ENGINES.with(|e| {
                let engines = e.borrow();
                let engine = engines[which.index()].as_ref()?;
                let request = engine.outbox.iter().find(|r| r.id == id)?;
                Some(request.text.clone())
            });
            let Some(text) = awaited else {
                return;
            };
            let bytes = report.bytes();
            let long = bytes.as_ref().is_some_and(|b| b.len() > DRAW_AT_ONCE_BYTES);
            let split = timed(DECODE, || {
                bytes
                    .ok_or_else(|| "it is not a binary report".to_string())
                    .and_then(|bytes| Split::decode(text, &bytes))
                    .map(|split| Shared(Rc::new(split.with_worker_ms(ms))))
            });
            if let (Ok(shared), ReportBody::Binary(buffer)) = (&split, report) {
                keep_report(shared, buffer);
            }
            let action = Action::SplitArrived { id, split };
            if long {
                gloo_timers::callback::Timeout::new(0, move || dispatch(action)).forget();
                return;
            }
            action
        }
        Response::Determinism(check) => Action::Rechecked { id, check },
        Response::Error(refusal) => Action::SplitFailed { id, refusal },
        Response::Installed(_)
        | Response::Loaded(_)
        | Response::Ready { .. }
        | Response::Evaluation(_)
        | Response::Parsed(_)
        | Response::Corpus { .. } => return,
    };
    dispatch(action);
}

thread_local! {
    /// The worker's binary reports of the splits the reducer took, kept
    /// (while their splits live) for the modes module, which draws the
    /// sentence and semantic views from the same answers (`crate::modes`).
    static REPORTS: RefCell<Vec<(Weak<Split>, JsValue)>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `report`, the buffer `split` was read from.
fn keep_report(split: &Shared, report: JsValue) {
    REPORTS.with(|r| {
        let mut reports = r.borrow_mut();
        reports.retain(|(kept, _)| kept.strong_count() > 0);
        reports.push((Rc::downgrade(&split.0), report));
    });
}

/// The worker's report `split` was read from, while the page holds it.
pub fn report_of(split: &Shared) -> Option<JsValue> {
    REPORTS.with(|r| {
        r.borrow()
            .iter()
            .find(|(kept, _)| std::ptr::eq(kept.as_ptr(), Rc::as_ptr(&split.0)))
            .map(|(_, report)| report.clone())
    })
}

/// The JavaScript string of `text`, made once for the worker's requests.
pub fn js_text_of(text: &Text) -> JsValue {
    PAGE.with(|p| {
        let mut page = p.borrow_mut();
        if let Some((held, js)) = &page.text {
            if held == text {
                return js.clone();
            }
        }
        let js = JsValue::from_str(text);
        page.text = Some((text.clone(), js.clone()));
        js
    })
}

/// Hands `action` to the reducer.
fn dispatch(action: Action) {
    // The dispatcher is cloned out first: the reducer may ask for more
    // requests, which borrow the engine again.
    let dispatch = PAGE.with(|p| p.borrow().dispatch.clone());
    if let Some(dispatch) = dispatch {
        dispatch.emit(action);
    }
}

/// Binary reports up to this size (a few thousand chunks) are read and drawn
/// in one task; longer ones in two.
const DRAW_AT_ONCE_BYTES: usize = 64 * 1024;

/// The name, in the browser's performance timeline, of the main thread's
/// reading of one binary report (`tests/e2e/timing.mjs` reads it: the
/// decoding budget).
const DECODE: &str = "chunkscope: decode a report";

/// Runs `f`, recorded in the performance timeline as `name`.
fn timed<T>(name: &str, f: impl FnOnce() -> T) -> T {
    let performance = web_sys::window().and_then(|w| w.performance());
    let start = format!("{name} (start)");
    if let Some(p) = &performance {
        let _ = p.mark(&start);
    }
    let value = f();
    if let Some(p) = &performance {
        let _ = p.measure_with_start_mark(name, &start);
        p.clear_marks_with_mark_name(&start);
    }
    value
}

fn describe(value: &JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| "no reason given".into())
}
