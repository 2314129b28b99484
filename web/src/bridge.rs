//! The one protocol between the page and the modes module.
//!
//! The two are separate wasm apps (the page's first load carries only what
//! explore mode shows first; see [`crate::modes`]) and share no memory. They
//! meet at elements the page draws, the [`Host`]s, and talk by events on them:
//!
//! ```text
//! page   → host.handoff = { manifest, reports: [{ report, text }], model }
//!          event `chunkscope-handoff`
//! module → event `chunkscope-ask`, its detail an encoded Ask
//! module → event `chunkscope-ready` once it is drawn; its loader: `chunkscope-failed`
//! ```
//!
//! What a host is handed is a [`Handoff`]: plain, typed data, written by
//! [`Handoff::encode`] and read by [`Handoff::decode`] alone, both tested
//! natively. The splits it names are the page's worker's binary reports,
//! handed over as they are, with the text's JS string (so a long document
//! is not copied again): the manifest names each by its place in `reports`
//! ([`Handed`]). What the module asks the page is an [`Ask`], likewise one
//! encoder and one decoder. Either side refuses what does not read, with
//! what is wrong, rather than default it.

use crate::state::SemanticSettings;
use crate::teach::Mode;
use chunkscope::semantic::Breakpoint;
use chunkscope::{Strategy, Unit};

/// The elements the page draws for the module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    /// Where a mode's body goes (practice, the gallery, code, evaluate).
    Modes,
    /// Explore mode's exercises, which need nothing from the page.
    Exercises,
    /// Explore mode's sentence and semantic views.
    Meaning,
    /// A Markdown split's outline.
    Outline,
    /// The compare views' numbers side by side.
    CompareStats,
}

impl Host {
    /// The element's `id`.
    pub const fn id(self) -> &'static str {
        match self {
            Host::Modes => "modes-host",
            Host::Exercises => "exercises-host",
            Host::Meaning => "meaning-host",
            Host::Outline => "outline-host",
            Host::CompareStats => "compare-stats-host",
        }
    }
}

/// The page has put a new handoff on a host.
pub const HANDOFF: &str = "chunkscope-handoff";
/// The module asks the page for something (an encoded [`Ask`] in the detail).
pub const ASK: &str = "chunkscope-ask";
/// The module has drawn itself.
pub const READY: &str = "chunkscope-ready";
/// The module could not start (its loader says so).
pub const FAILED: &str = "chunkscope-failed";
/// The host's property that holds the handoff.
pub const PROPERTY: &str = "handoff";

/// One split handed over: its report's place in the handoff's `reports`,
/// and how long the worker took for it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Handed {
    /// The index in `reports`.
    pub report: usize,
    /// The worker's milliseconds, when it said.
    pub ms: Option<f64>,
}

/// What the compare-stats host draws: each pane's strategy and split, and
/// the primary pane's strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct Panes {
    pub panes: Vec<(Strategy, Option<Handed>)>,
    pub primary: Strategy,
}

/// What the meaning host draws.
#[derive(Clone, Debug, PartialEq)]
pub struct MeaningManifest {
    /// The split whose sentences are shown.
    pub sentence: Option<Handed>,
    /// Whether the semantic strategy is shown (its views are, before its
    /// split comes).
    pub semantic_shown: bool,
    pub semantic: Option<Handed>,
    /// The strategies compared beside the semantic one.
    pub compared: Vec<Handed>,
    pub settings: SemanticSettings,
    pub unit: Unit,
}

/// What the page hands one host.
#[derive(Clone, Debug, PartialEq)]
pub enum Handoff {
    /// The modes host: the mode shown.
    Mode(Mode),
    /// The meaning host (the page's static model travels beside it, in the
    /// worker's own written form of it).
    Meaning(MeaningManifest),
    /// The outline host: a Markdown split, or none.
    Outline(Option<Handed>),
    /// The compare-stats host: the panes, or none outside a compare view.
    CompareStats(Option<Panes>),
}

/// What the module asks of the page, whose state holds what it changes.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask {
    /// Show another mode (code mode's links to the gallery).
    Mode(Mode),
    /// The semantic threshold's kind.
    Breakpoint(Breakpoint),
    /// The threshold's amount, as typed or slid.
    Amount(String),
    /// The buffer, as typed.
    Buffer(String),
    /// Point at a semantic chunk, or at none.
    Point(Option<usize>),
}

/// A line of space-separated words, a text as its byte length, `:` and
/// itself (so it may hold spaces), `-` for nothing.
#[derive(Default)]
struct Out(String);

impl Out {
    fn word(&mut self, word: &str) {
        self.0.push_str(word);
        self.0.push(' ');
    }

    fn text(&mut self, text: &str) {
        self.0.push_str(&format!("{}:{text} ", text.len()));
    }

    fn num(&mut self, n: u64) {
        self.word(&n.to_string());
    }

    fn handed(&mut self, handed: &Option<Handed>) {
        match handed {
            None => self.word("-"),
            Some(h) => {
                self.num(h.report as u64);
                // The float's bits, exactly, with no float formatting.
                match h.ms {
                    Some(ms) => self.num(ms.to_bits()),
                    None => self.word("-"),
                }
            }
        }
    }
}

struct In<'a> {
    rest: &'a str,
}

impl<'a> In<'a> {
    fn word(&mut self) -> Result<&'a str, String> {
        let (word, rest) = self
            .rest
            .split_once(' ')
            .ok_or_else(|| format!("it ends early, at {:?}", self.rest))?;
        self.rest = rest;
        Ok(word)
    }

    fn text(&mut self) -> Result<&'a str, String> {
        let (len, rest) = self
            .rest
            .split_once(':')
            .ok_or_else(|| format!("a text was expected at {:?}", self.rest))?;
        let len: usize = len.parse().map_err(|_| format!("{len:?} is no length"))?;
        let text = rest
            .get(..len)
            .ok_or_else(|| format!("a text of {len} bytes runs past the end"))?;
        self.rest = rest[len..]
            .strip_prefix(' ')
            .ok_or_else(|| format!("a text of {len} bytes is not followed by a space"))?;
        Ok(text)
    }

    fn num(&mut self) -> Result<u64, String> {
        let word = self.word()?;
        word.parse()
            .map_err(|_| format!("{word:?} is not a number"))
    }

    fn name<T>(&mut self, parse: impl Fn(&str) -> Option<T>, what: &str) -> Result<T, String> {
        let word = self.word()?;
        parse(word).ok_or_else(|| format!("{word:?} is not a {what}"))
    }

    fn flag(&mut self) -> Result<bool, String> {
        match self.word()? {
            "1" => Ok(true),
            "0" => Ok(false),
            other => Err(format!("{other:?} is not 0 or 1")),
        }
    }

    fn handed(&mut self) -> Result<Option<Handed>, String> {
        let word = self.word()?;
        if word == "-" {
            return Ok(None);
        }
        let report = word
            .parse()
            .map_err(|_| format!("{word:?} is not a report's place"))?;
        let ms = match self.word()? {
            "-" => None,
            bits => Some(f64::from_bits(
                bits.parse()
                    .map_err(|_| format!("{bits:?} is not a float's bits"))?,
            )),
        };
        Ok(Some(Handed { report, ms }))
    }

    fn count(&mut self) -> Result<usize, String> {
        let n = self.num()?;
        // Every item takes at least two bytes, so a count past that is a lie.
        usize::try_from(n)
            .ok()
            .filter(|&n| n <= self.rest.len() / 2)
            .ok_or_else(|| format!("a count of {n} is more than the rest holds"))
    }

    fn end(self) -> Result<(), String> {
        match self.rest {
            "" => Ok(()),
            rest => Err(format!("{rest:?} is left over")),
        }
    }
}

fn strategy(name: &str) -> Option<Strategy> {
    name.parse().ok()
}

impl Handoff {
    /// The handoff as one line of text.
    pub fn encode(&self) -> String {
        let mut out = Out::default();
        match self {
            Handoff::Mode(mode) => {
                out.word("mode");
                out.word(mode.name());
            }
            Handoff::Meaning(m) => {
                out.word("meaning");
                out.handed(&m.sentence);
                out.word(if m.semantic_shown { "1" } else { "0" });
                out.handed(&m.semantic);
                out.num(m.compared.len() as u64);
                for handed in &m.compared {
                    out.handed(&Some(*handed));
                }
                out.word(m.settings.breakpoint.name());
                out.text(&m.settings.amount);
                out.text(&m.settings.buffer);
                out.word(m.unit.name());
            }
            Handoff::Outline(split) => {
                out.word("outline");
                out.handed(split);
            }
            Handoff::CompareStats(None) => out.word("compare -"),
            Handoff::CompareStats(Some(p)) => {
                out.word("compare");
                out.word(p.primary.name());
                out.num(p.panes.len() as u64);
                for (strategy, split) in &p.panes {
                    out.word(strategy.name());
                    out.handed(split);
                }
            }
        }
        out.0
    }

    /// Reads what [`Handoff::encode`] wrote, or says what is wrong.
    pub fn decode(line: &str) -> Result<Handoff, String> {
        let mut r = In { rest: line };
        let handoff = match r.word()? {
            "mode" => Handoff::Mode(r.name(Mode::parse, "mode")?),
            "meaning" => {
                let sentence = r.handed()?;
                let semantic_shown = r.flag()?;
                let semantic = r.handed()?;
                let compared = (0..r.count()?)
                    .map(|_| {
                        r.handed()?
                            .ok_or_else(|| "a compared split is missing".into())
                    })
                    .collect::<Result<Vec<_>, String>>()?;
                let settings = SemanticSettings {
                    breakpoint: r.name(|n| n.parse().ok(), "breakpoint")?,
                    amount: r.text()?.to_string(),
                    buffer: r.text()?.to_string(),
                };
                let unit = r.name(|n| n.parse().ok(), "unit")?;
                Handoff::Meaning(MeaningManifest {
                    sentence,
                    semantic_shown,
                    semantic,
                    compared,
                    settings,
                    unit,
                })
            }
            "outline" => Handoff::Outline(r.handed()?),
            "compare" => match r.word()? {
                "-" => Handoff::CompareStats(None),
                primary => {
                    let primary =
                        strategy(primary).ok_or_else(|| format!("{primary:?} is no strategy"))?;
                    let panes = (0..r.count()?)
                        .map(|_| Ok((r.name(strategy, "strategy")?, r.handed()?)))
                        .collect::<Result<Vec<_>, String>>()?;
                    Handoff::CompareStats(Some(Panes { panes, primary }))
                }
            },
            other => return Err(format!("{other:?} is not a handoff")),
        };
        r.end()?;
        Ok(handoff)
    }

    /// The splits it names, in order.
    pub fn handed(&self) -> Vec<Handed> {
        match self {
            Handoff::Mode(_) | Handoff::CompareStats(None) => Vec::new(),
            Handoff::Meaning(m) => (m.sentence.iter())
                .chain(&m.semantic)
                .chain(&m.compared)
                .copied()
                .collect(),
            Handoff::Outline(split) => split.iter().copied().collect(),
            Handoff::CompareStats(Some(p)) => p.panes.iter().filter_map(|(_, h)| *h).collect(),
        }
    }

    /// Checks that every split it names is one of the `reports` handed with it.
    pub fn check_reports(&self, reports: usize) -> Result<(), String> {
        match self.handed().iter().find(|h| h.report >= reports) {
            Some(h) => Err(format!(
                "it names report {} of {reports} handed over",
                h.report
            )),
            None => Ok(()),
        }
    }
}

impl Ask {
    /// The ask as one line of text.
    pub fn encode(&self) -> String {
        let mut out = Out::default();
        match self {
            Ask::Mode(mode) => {
                out.word("mode");
                out.word(mode.name());
            }
            Ask::Breakpoint(kind) => {
                out.word("breakpoint");
                out.word(kind.name());
            }
            Ask::Amount(amount) => {
                out.word("amount");
                out.text(amount);
            }
            Ask::Buffer(buffer) => {
                out.word("buffer");
                out.text(buffer);
            }
            Ask::Point(index) => {
                out.word("point");
                match index {
                    Some(i) => out.num(*i as u64),
                    None => out.word("-"),
                }
            }
        }
        out.0
    }

    /// Reads what [`Ask::encode`] wrote, or says what is wrong.
    pub fn decode(line: &str) -> Result<Ask, String> {
        let mut r = In { rest: line };
        let ask = match r.word()? {
            "mode" => Ask::Mode(r.name(Mode::parse, "mode")?),
            "breakpoint" => Ask::Breakpoint(r.name(|n| n.parse().ok(), "breakpoint")?),
            "amount" => Ask::Amount(r.text()?.to_string()),
            "buffer" => Ask::Buffer(r.text()?.to_string()),
            "point" => Ask::Point(match r.word()? {
                "-" => None,
                n => Some(n.parse().map_err(|_| format!("{n:?} is no chunk"))?),
            }),
            other => return Err(format!("{other:?} is not an ask")),
        };
        r.end()?;
        Ok(ask)
    }
}

/// The browser's side: putting a handoff on a host, reading it back, and
/// the asks. Only these touch the hosts' properties and events.
pub mod dom {
    use super::{Ask, Handoff, Host, ASK, HANDOFF, PROPERTY};
    use js_sys::Reflect;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};
    use web_sys::Element;

    /// The page's element for `host`.
    pub fn element(host: Host) -> Option<Element> {
        web_sys::window()?.document()?.get_element_by_id(host.id())
    }

    fn set(object: &JsValue, key: &str, value: &JsValue) {
        let _ = Reflect::set(object, &key.into(), value);
    }

    fn get(object: &JsValue, key: &str) -> JsValue {
        Reflect::get(object, &key.into()).unwrap_or(JsValue::UNDEFINED)
    }

    /// Puts `handoff` and the reports it names on `el`, with `model` (the
    /// page's static model in the worker's written form, or `null`), and
    /// tells the module.
    pub fn hand_off(el: &Element, handoff: &Handoff, reports: js_sys::Array, model: JsValue) {
        let object = js_sys::Object::new();
        set(&object, "manifest", &handoff.encode().into());
        set(&object, "reports", &reports);
        set(&object, "model", &model);
        set(el, PROPERTY, &object);
        signal(el, HANDOFF);
    }

    /// What the page last handed `host`: the handoff, its reports and its
    /// model, or what is wrong with it (`Ok(None)` before the first).
    pub fn handed(host: Host) -> Result<Option<(Handoff, js_sys::Array, JsValue)>, String> {
        let Some(el) = element(host) else {
            return Ok(None);
        };
        let object = get(&el, PROPERTY);
        if object.is_undefined() {
            return Ok(None);
        }
        let manifest = get(&object, "manifest")
            .as_string()
            .ok_or("the handoff has no manifest")?;
        let handoff = Handoff::decode(&manifest)?;
        let reports: js_sys::Array = get(&object, "reports")
            .dyn_into()
            .map_err(|_| "the handoff's reports are not a list")?;
        handoff.check_reports(reports.length() as usize)?;
        Ok(Some((handoff, reports, get(&object, "model"))))
    }

    /// A report handed over: the worker's buffer and the text's JS string.
    pub fn report(reports: &js_sys::Array, index: usize) -> (JsValue, JsValue) {
        let pair = reports.get(index as u32);
        (get(&pair, "report"), get(&pair, "text"))
    }

    /// `{ report, text }` for the list of reports a handoff names.
    pub fn report_pair(report: &JsValue, text: &JsValue) -> JsValue {
        let object = js_sys::Object::new();
        set(&object, "report", report);
        set(&object, "text", text);
        object.into()
    }

    /// Fires the bare event `name` on `el`.
    pub fn signal(el: &Element, name: &str) {
        if let Ok(event) = web_sys::Event::new(name) {
            let _ = el.dispatch_event(&event);
        }
    }

    /// The module asks the page, on `host`.
    pub fn ask(host: Host, ask: &Ask) {
        let Some(el) = element(host) else {
            return;
        };
        let init = web_sys::CustomEventInit::new();
        init.set_detail(&ask.encode().into());
        if let Ok(event) = web_sys::CustomEvent::new_with_event_init_dict(super::ASK, &init) {
            let _ = el.dispatch_event(&event);
        }
    }

    /// Calls `on_ask` with each ask the module makes on `el`, for as long
    /// as the page lives. An ask that does not read is said on the console.
    pub fn on_ask(el: &Element, on_ask: impl Fn(Ask) + 'static) {
        let listener =
            Closure::<dyn Fn(web_sys::CustomEvent)>::new(move |e: web_sys::CustomEvent| {
                let read = match e.detail().as_string() {
                    Some(line) => Ask::decode(&line).map_err(|why| format!("{line:?}: {why}")),
                    None => Err("the event carries no ask".to_string()),
                };
                match read {
                    Ok(ask) => on_ask(ask),
                    Err(why) => {
                        web_sys::console::error_1(&format!("an ask of the modes: {why}").into())
                    }
                }
            });
        let _ = el.add_event_listener_with_callback(ASK, listener.as_ref().unchecked_ref());
        listener.forget();
    }

    /// Calls `on_change` whenever the page hands `host` something new, for
    /// as long as the page lives.
    pub fn on_handoff(host: Host, on_change: impl Fn() + 'static) {
        let listener = Closure::<dyn Fn()>::new(on_change);
        if let Some(el) = element(host) {
            let _ = el.add_event_listener_with_callback(HANDOFF, listener.as_ref().unchecked_ref());
        }
        listener.forget();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn handed(report: usize, ms: Option<f64>) -> Option<Handed> {
        Some(Handed { report, ms })
    }

    /// Every kind of handoff reads back as written, texts with spaces,
    /// colons and non-ASCII included, and a float's every bit.
    #[test]
    fn every_handoff_reads_back_as_written() {
        let cases = [
            Handoff::Mode(Mode::Evaluate),
            Handoff::Mode(Mode::Explore),
            Handoff::Meaning(MeaningManifest {
                sentence: handed(0, Some(12.5)),
                semantic_shown: true,
                semantic: handed(1, Some(0.1 + 0.2)),
                compared: vec![
                    Handed {
                        report: 2,
                        ms: None,
                    },
                    Handed {
                        report: 3,
                        ms: Some(f64::MIN_POSITIVE),
                    },
                ],
                settings: SemanticSettings {
                    breakpoint: Breakpoint::Interquartile,
                    amount: " 1.5: ü ".into(),
                    buffer: String::new(),
                },
                unit: Unit::Tokens(chunkscope::tokens::Encoding::O200k),
            }),
            Handoff::Meaning(MeaningManifest {
                sentence: None,
                semantic_shown: false,
                semantic: None,
                compared: Vec::new(),
                settings: SemanticSettings::default(),
                unit: Unit::Chars,
            }),
            Handoff::Outline(handed(0, None)),
            Handoff::Outline(None),
            Handoff::CompareStats(None),
            Handoff::CompareStats(Some(Panes {
                panes: vec![
                    (Strategy::Fixed, handed(0, Some(3.0))),
                    (Strategy::LangChain, None),
                ],
                primary: Strategy::LangChain,
            })),
        ];
        for handoff in &cases {
            let line = handoff.encode();
            assert_eq!(Handoff::decode(&line).as_ref(), Ok(handoff), "{line:?}");
        }
        let Handoff::Meaning(m) = Handoff::decode(&cases[2].encode()).unwrap() else {
            unreachable!()
        };
        assert_eq!(
            m.semantic.unwrap().ms.unwrap().to_bits(),
            (0.1f64 + 0.2).to_bits()
        );
        assert_eq!(cases[2].handed().len(), 4);
        assert_eq!(cases[2].check_reports(4), Ok(()));
        assert_eq!(
            cases[2].check_reports(3),
            Err("it names report 3 of 3 handed over".into())
        );
    }

    #[test]
    fn every_ask_reads_back_as_written() {
        let cases = [
            Ask::Mode(Mode::Bugs),
            Ask::Breakpoint(Breakpoint::StandardDeviation),
            Ask::Amount("9 5".into()),
            Ask::Amount(String::new()),
            Ask::Buffer("2:x".into()),
            Ask::Point(Some(7)),
            Ask::Point(None),
        ];
        for ask in &cases {
            let line = ask.encode();
            assert_eq!(Ask::decode(&line).as_ref(), Ok(ask), "{line:?}");
        }
    }

    /// What does not read is refused with what is wrong, never defaulted.
    #[test]
    fn what_does_not_read_is_refused() {
        let refused = [
            ("", "it ends early, at \"\""),
            ("mode  ", "\"\" is not a mode"),
            ("mode lessons ", "\"lessons\" is not a mode"),
            ("breakpoint median ", "\"median\" is not a breakpoint"),
            ("amount 9:95 ", "a text of 9 bytes runs past the end"),
            (
                "amount 2:95x",
                "a text of 2 bytes is not followed by a space",
            ),
            ("amount x:95 ", "\"x\" is no length"),
            ("point 3 4 ", "\"4 \" is left over"),
            ("point three ", "\"three\" is no chunk"),
            ("zoom 2 ", "\"zoom\" is not an ask"),
        ];
        for (line, why) in refused {
            assert_eq!(Ask::decode(line), Err(why.to_string()), "{line:?}");
        }
        let refused = [
            ("outline 0 x ", "\"x\" is not a float's bits"),
            (
                "compare fixed 9 ",
                "a count of 9 is more than the rest holds",
            ),
            ("compare gzip 0 ", "\"gzip\" is no strategy"),
            (
                "meaning - 2 - 0 percentile 2:95 1:1 chars ",
                "\"2\" is not 0 or 1",
            ),
            (
                "meaning - 0 - 0 percentile 2:95 1:1 lines ",
                "\"lines\" is not a unit",
            ),
            ("mode explore", "it ends early, at \"explore\""),
            ("split 0 ", "\"split\" is not a handoff"),
        ];
        for (line, why) in refused {
            assert_eq!(Handoff::decode(line), Err(why.to_string()), "{line:?}");
        }
    }
}
