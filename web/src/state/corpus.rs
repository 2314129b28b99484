//! Explore mode's corpus: many files opened at once, each a document, split
//! by the worker under the settings on screen. A pure reducer over a file
//! handle `F` (the browser's `File` on the page, a name in the tests): the
//! page never reads the files to count them; the worker reads and splits
//! each alone, so no chunk spans two documents, and sends back the numbers.
//!
//! Answers are matched by `round`: opening files or changing the settings
//! starts a new one, and an answer to an older round is dropped.

use chunkscope::Config;
use chunkscope_wasm::corpus::Stats;
use std::rc::Rc;

/// One document of the corpus.
#[derive(Clone, Debug, PartialEq)]
pub struct Doc<F> {
    /// Its name (the file's).
    pub name: String,
    /// The file, for the worker to read and for showing it.
    pub file: F,
}

/// The documents, shared by the state and the requests.
pub type Docs<F> = Rc<Vec<Doc<F>>>;

/// The worker's numbers: the whole corpus, then each document's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The whole corpus.
    pub total: Stats,
    /// Each document's name and numbers, in the corpus's order.
    pub documents: Vec<(String, Stats)>,
}

/// The corpus on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct CorpusState<F> {
    /// The documents, in the order opened.
    pub docs: Docs<F>,
    /// The settings they are split with (the split on screen's).
    pub config: Option<Config>,
    /// Answers belong to this round.
    pub round: u32,
    /// The latest answer and the round it answered.
    pub report: Option<(u32, Result<Rc<Report>, String>)>,
    /// The document shown in the explore view, by index.
    pub shown: Option<usize>,
}

impl<F> Default for CorpusState<F> {
    fn default() -> Self {
        CorpusState {
            docs: Rc::new(Vec::new()),
            config: None,
            round: 0,
            report: None,
            shown: None,
        }
    }
}

/// What can happen to the corpus.
#[derive(Clone, Debug, PartialEq)]
pub enum CorpusAction<F> {
    /// Files were opened together: they become the corpus; the first is
    /// shown once the worker has answered (it splits the corpus first).
    Open(Vec<Doc<F>>),
    /// The corpus was closed (one file or an example opened instead).
    Close,
    /// The settings on screen are now these.
    SetConfig(Option<Config>),
    /// The worker's answer for `round`.
    Reported {
        /// The round asked in.
        round: u32,
        /// The numbers, or why the corpus could not be split.
        result: Result<Report, String>,
    },
    /// The document at this index is shown.
    Show(usize),
}

impl<F: Clone> CorpusState<F> {
    /// What to ask the worker for this round: the documents and settings,
    /// or nothing while there is no corpus, no settings, or an answer.
    pub fn request(&self) -> Option<(u32, Docs<F>, Config)> {
        if self.docs.is_empty() || self.answered() {
            return None;
        }
        Some((self.round, self.docs.clone(), self.config.clone()?))
    }

    /// Whether this round is answered.
    pub fn answered(&self) -> bool {
        self.report.as_ref().is_some_and(|(r, _)| *r == self.round)
    }

    /// The latest numbers, stale or not.
    pub fn numbers(&self) -> Option<&Report> {
        match &self.report {
            Some((_, Ok(report))) => Some(report),
            _ => None,
        }
    }

    /// Why this round's corpus could not be split.
    pub fn error(&self) -> Option<&str> {
        match &self.report {
            Some((round, Err(why))) if *round == self.round => Some(why),
            _ => None,
        }
    }
}

/// The state after `action`.
pub fn reduce<F: Clone>(state: &CorpusState<F>, action: CorpusAction<F>) -> CorpusState<F> {
    let mut next = state.clone();
    match action {
        CorpusAction::Open(docs) => {
            next.shown = (!docs.is_empty()).then_some(0);
            next.docs = Rc::new(docs);
            next.report = None;
            next.round += 1;
        }
        CorpusAction::Close if state.docs.is_empty() => return state.clone(),
        CorpusAction::Close => {
            next.docs = Rc::new(Vec::new());
            next.report = None;
            next.shown = None;
            next.round += 1;
        }
        CorpusAction::SetConfig(config) => {
            if config != next.config {
                next.config = config;
                next.round += 1;
            }
        }
        CorpusAction::Reported { round, result } => {
            if round == next.round {
                next.report = Some((round, result.map(Rc::new)));
            }
        }
        CorpusAction::Show(index) => {
            if index < next.docs.len() {
                next.shown = Some(index);
            }
        }
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkscope::Strategy;

    fn docs(names: &[&str]) -> Vec<Doc<String>> {
        names
            .iter()
            .map(|n| Doc {
                name: n.to_string(),
                file: n.to_string(),
            })
            .collect()
    }

    fn report(chunks: usize) -> Report {
        Report {
            total: Stats {
                chunks,
                ..Stats::default()
            },
            documents: Vec::new(),
        }
    }

    fn config(size: usize) -> Option<Config> {
        let mut c = Config::for_strategy(Strategy::Recursive);
        c.size = size;
        Some(c)
    }

    #[test]
    fn opening_files_asks_once_the_settings_are_known_and_shows_the_first() {
        let s = reduce(
            &CorpusState::default(),
            CorpusAction::Open(docs(&["a.md", "b.txt"])),
        );
        assert_eq!(s.shown, Some(0));
        assert_eq!(s.request(), None);
        let s = reduce(&s, CorpusAction::SetConfig(config(400)));
        let (round, asked, c) = s.request().unwrap();
        assert_eq!((asked.len(), c.size), (2, 400));
        let s = reduce(
            &s,
            CorpusAction::Reported {
                round,
                result: Ok(report(7)),
            },
        );
        assert_eq!(s.request(), None);
        assert_eq!(s.numbers().unwrap().total.chunks, 7);
    }

    #[test]
    fn an_answer_to_older_settings_is_dropped_and_the_last_numbers_stay() {
        let s = reduce(
            &CorpusState::default(),
            CorpusAction::SetConfig(config(400)),
        );
        let s = reduce(&s, CorpusAction::Open(docs(&["a.md"])));
        let old = s.request().unwrap().0;
        let s = reduce(
            &s,
            CorpusAction::Reported {
                round: old,
                result: Ok(report(3)),
            },
        );
        let s = reduce(&s, CorpusAction::SetConfig(config(200)));
        let s2 = reduce(
            &s,
            CorpusAction::Reported {
                round: old,
                result: Ok(report(9)),
            },
        );
        assert_eq!(s2.numbers().unwrap().total.chunks, 3);
        assert!(s2.request().is_some());
        // The same settings again start no round.
        assert_eq!(
            reduce(&s2, CorpusAction::SetConfig(config(200))).round,
            s2.round
        );
    }

    #[test]
    fn a_refusal_is_this_rounds_error_and_closing_forgets_everything() {
        let s = reduce(&CorpusState::default(), CorpusAction::SetConfig(config(4)));
        let s = reduce(&s, CorpusAction::Open(docs(&["a.md", "b.md"])));
        let round = s.round;
        let s = reduce(
            &s,
            CorpusAction::Reported {
                round,
                result: Err("b.md: no".into()),
            },
        );
        assert_eq!(s.error(), Some("b.md: no"));
        let s = reduce(&s, CorpusAction::Show(1));
        assert_eq!(s.shown, Some(1));
        assert_eq!(reduce(&s, CorpusAction::Show(5)).shown, Some(1));
        let s = reduce(&s, CorpusAction::Close);
        assert!(s.docs.is_empty() && s.report.is_none() && s.shown.is_none());
        assert_eq!(s.request(), None);
        // Closing no corpus changes nothing (the page is not drawn again).
        assert_eq!(reduce(&s, CorpusAction::Close), s);
    }
}
