//! Evaluate mode's state: the corpus, the questions, the configurations
//! compared, their evaluations and the sweep. A pure reducer: the worker
//! computes every number (`chunkscope-eval` through `chunkscope_wasm::eval`);
//! this module only keeps which answer belongs to which question asked.
//!
//! Answers are matched by `round`: every change that makes the results on
//! screen out of date (the corpus, the questions, top-k, a configuration)
//! starts a new round, and an answer to an older round is dropped.

use super::settings::Settings;
use crate::text::Text;
use chunkscope::{presets, Config, Strategy, Unit};
use chunkscope_eval::{Evaluation, Means, Question};
use std::rc::Rc;

/// The shipped question sets: option value, document name, document text,
/// questions file (JSON Lines).
pub const SETS: [(&str, &str, &str, &str); 3] = [
    (
        "refund",
        "refund.txt",
        include_str!("../presets/refund.txt"),
        include_str!("../../../eval/questions/refund.jsonl"),
    ),
    (
        "markdown",
        "markdown.md",
        include_str!("../presets/markdown.md"),
        include_str!("../../../eval/questions/markdown.jsonl"),
    ),
    (
        "article",
        "article.txt",
        include_str!("../presets/article.txt"),
        include_str!("../../../eval/questions/article.jsonl"),
    ),
];

/// The strategies a configuration may use: every one the engine has.
/// `langchain-markdown` takes header markers, not patterns, so it splits with
/// its own default markers (`#`, `##`, `###`) whatever the separator preset.
pub fn strategies() -> impl Iterator<Item = Strategy> {
    Strategy::ALL.into_iter()
}

/// One configuration compared, as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalConfig {
    /// Its id, for the page's life (rows keep it when others are removed).
    pub id: u32,
    /// The strategy.
    pub strategy: Strategy,
    /// The size, as typed.
    pub size: String,
    /// The overlap, as typed.
    pub overlap: String,
    /// What size and overlap count.
    pub unit: Unit,
    /// The separator preset (one of `chunkscope::presets::SEPARATOR_PRESETS`).
    pub separators: &'static str,
}

impl EvalConfig {
    /// The engine configuration, or what to fix.
    pub fn config(&self) -> Result<Config, String> {
        let mut separators = presets::separators(self.separators)
            .ok_or_else(|| format!("no separator preset {:?}", self.separators))?;
        let mut placement =
            presets::placement(self.separators).unwrap_or(self.strategy.default_placement());
        if self.strategy.separators_are_header_markers() {
            separators = Config::for_strategy(self.strategy).separators;
            placement = self.strategy.default_placement();
        }
        let settings = Settings {
            size: self.size.clone(),
            overlap: self.overlap.clone(),
            unit: self.unit,
            separators,
            placement,
            trim: true,
            each_line: false,
            then_recursive: None,
            heading_prefix: false,
            table_header: chunkscope::TableHeader::Once,
            min_characters: crate::state::settings::default_min_characters(),
        };
        settings.config(self.strategy).map_err(|p| p.message)
    }

    /// A short name: `recursive 200/20 chars default`.
    pub fn label(&self) -> String {
        format!(
            "{} {}/{} {} {}",
            self.strategy.name(),
            self.size.trim(),
            self.overlap.trim(),
            self.unit.name(),
            self.separators
        )
    }
}

/// A field of a configuration, edited.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigEdit {
    /// The strategy.
    Strategy(Strategy),
    /// The size, as typed.
    Size(String),
    /// The overlap, as typed.
    Overlap(String),
    /// The unit.
    Unit(Unit),
    /// The separator preset.
    Separators(&'static str),
}

/// One configuration's evaluation.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// Asked, not answered yet.
    Waiting,
    /// The eval crate's evaluation.
    Done(Rc<Evaluation>),
    /// Why it could not be evaluated.
    Failed(String),
}

/// Where the questions came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A shipped set, by its option value.
    Shipped(&'static str),
    /// A file imported, by its name.
    File(String),
    /// Edited in the page.
    Edited,
}

/// A point of the sweep: one of its configurations (a line of the chart),
/// a size, and an overlap in percent of the size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    /// Which configuration of the sweep ([`Sweep::lines`]).
    pub line: usize,
    /// The size, in that configuration's unit.
    pub size: usize,
    /// The overlap, in percent of the size (rounded down).
    pub overlap_pct: usize,
}

/// The sweep's sizes.
pub const SWEEP_SIZES: [usize; 5] = [128, 256, 512, 1024, 2048];
/// The sweep's overlaps, in percent of the size.
pub const SWEEP_OVERLAPS: [usize; 3] = [0, 10, 20];

/// Every point of a sweep of `lines` configurations, configuration by
/// configuration, size by size.
pub fn sweep_points(lines: usize) -> Vec<Point> {
    let mut points = Vec::new();
    for line in 0..lines {
        for size in SWEEP_SIZES {
            for overlap_pct in SWEEP_OVERLAPS {
                points.push(Point {
                    line,
                    size,
                    overlap_pct,
                });
            }
        }
    }
    points
}

/// A sweep: its points, asked one at a time so it can show progress and stop.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// Its number; answers to another sweep are dropped.
    pub id: u32,
    /// The configurations swept, as the table had them when it started: each
    /// one's strategy, unit and separators, at every size and overlap.
    pub lines: Rc<Vec<EvalConfig>>,
    /// The points, in the order asked.
    pub points: Rc<Vec<Point>>,
    /// The means of each point answered, in order (an error as its message).
    pub results: Vec<Result<Means, String>>,
    /// Whether it was stopped before the end.
    pub cancelled: bool,
    /// When it started and, once over, when it ended (ms, the page's clock).
    pub started: f64,
    /// When the last point arrived or it was stopped.
    pub ended: Option<f64>,
}

impl Sweep {
    /// Whether more points are to be asked.
    pub fn running(&self) -> bool {
        !self.cancelled && self.results.len() < self.points.len()
    }

    /// The next point to ask, while running.
    pub fn next(&self) -> Option<Point> {
        self.running().then(|| self.points[self.results.len()])
    }

    /// The engine configuration of `point`: its line's, at its size and
    /// overlap (none for a strategy without overlap), or what is wrong.
    pub fn config(&self, point: Point) -> Result<Config, String> {
        let mut line = self
            .lines
            .get(point.line)
            .ok_or_else(|| format!("the sweep has no configuration {}", point.line))?
            .clone();
        line.size = point.size.to_string();
        line.overlap = (point.size * point.overlap_pct / 100).to_string();
        line.config()
    }
}

/// Evaluate mode's state.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalState {
    /// The shipped set shown, or `None` for a corpus of one's own.
    pub set: Option<&'static str>,
    /// The documents: name and text. No chunk spans two: each is split alone.
    pub corpus: Rc<Vec<(String, Text)>>,
    /// The questions.
    pub questions: Rc<Vec<Question>>,
    /// Where they came from.
    pub source: Source,
    /// The configurations, in table order.
    pub configs: Vec<EvalConfig>,
    /// The next configuration's id.
    pub next_id: u32,
    /// Chunks retrieved per question.
    pub top_k: usize,
    /// Results belong to this round (see the module docs).
    pub round: u32,
    /// Each configuration's outcome in this round, by id.
    pub outcomes: Vec<(u32, Outcome)>,
    /// The question whose answers and retrieved chunks are drawn.
    pub selected: Option<usize>,
    /// The last import's error (with its line number), while not replaced.
    pub import_error: Option<String>,
    /// The sweep, once started.
    pub sweep: Option<Sweep>,
    /// The configurations as they were when this round started: an edit
    /// that leaves them so (a field typed, then left) starts no new round.
    pub asked: Vec<EvalConfig>,
    /// Whether chunks are retrieved by the loaded static model (cosine of
    /// the question's vector with each chunk's) instead of BM25. Without a
    /// model loaded nothing is evaluated: the results need the model.
    pub by_model: bool,
}

/// The shipped set `name`: its document and questions file.
pub fn set(name: &str) -> Option<(&'static str, &'static str, &'static str)> {
    SETS.iter()
        .find(|s| s.0 == name)
        .map(|&(_, doc, text, qa)| (doc, text, qa))
}

impl Default for EvalState {
    /// The refund page's set (its questions still to be read by the worker),
    /// with the lesson's recursive configuration beside fixed windows.
    fn default() -> EvalState {
        let (doc, text, _) = set("refund").expect("the refund set is shipped");
        let config = |id, strategy, separators| EvalConfig {
            id,
            strategy,
            size: "40".into(),
            overlap: "0".into(),
            unit: Unit::Chars,
            separators,
        };
        EvalState {
            set: Some("refund"),
            corpus: Rc::new(vec![(doc.to_string(), text.into())]),
            questions: Rc::new(Vec::new()),
            source: Source::Shipped("refund"),
            configs: vec![
                config(0, Strategy::Recursive, "seed"),
                config(1, Strategy::Fixed, "default"),
            ],
            next_id: 2,
            top_k: 1,
            round: 0,
            outcomes: Vec::new(),
            selected: None,
            import_error: None,
            sweep: None,
            asked: Vec::new(),
            by_model: false,
        }
    }
}

/// What can happen in evaluate mode.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalAction {
    /// A shipped set was chosen: its document becomes the corpus; its
    /// questions follow with [`EvalAction::QuestionsRead`].
    ChooseSet(&'static str),
    /// The corpus was replaced by documents of one's own (no questions).
    SetCorpus(Vec<(String, Text)>),
    /// Questions were read (a shipped set or an imported file).
    QuestionsRead {
        /// The questions.
        questions: Vec<Question>,
        /// Where from.
        source: Source,
    },
    /// An imported file could not be read: why, with its line.
    ImportFailed(String),
    /// A question was written in the page for an answer selected in the text.
    AddQuestion(Question),
    /// The question at this index was removed.
    RemoveQuestion(usize),
    /// A question was selected (again to clear).
    SelectQuestion(usize),
    /// A configuration was added (a copy of the last one).
    AddConfig,
    /// The configuration with this id was removed.
    RemoveConfig(u32),
    /// A configuration was edited (a field left, a menu changed).
    EditConfig(u32, ConfigEdit),
    /// A configuration's field is being typed: kept, evaluated once left
    /// ([`EvalAction::EditConfig`]).
    TypeConfig(u32, ConfigEdit),
    /// Top-k changed.
    SetTopK(usize),
    /// BM25 (false) or the loaded static model (true) retrieves.
    SetByModel(bool),
    /// Another static model was loaded, or it was dropped: results by the
    /// model are asked for again.
    ModelChanged,
    /// The configurations were replaced (a shared link).
    SetConfigs(Vec<EvalConfig>),
    /// The worker's answer for configuration `config` in round `round`.
    Evaluated {
        /// The round asked in.
        round: u32,
        /// The configuration.
        config: u32,
        /// The evaluation, or why not.
        result: Result<Evaluation, String>,
    },
    /// A sweep was started at `now` (ms).
    StartSweep(f64),
    /// A point of sweep `sweep` was answered at `now`.
    SweepPoint {
        /// The sweep.
        sweep: u32,
        /// Which point.
        index: usize,
        /// Its means, or why not.
        result: Result<Means, String>,
        /// When (ms).
        now: f64,
    },
    /// The sweep was stopped at `now` (ms).
    CancelSweep(f64),
}

impl EvalState {
    /// The outcome of configuration `id` in this round.
    pub fn outcome(&self, id: u32) -> Option<&Outcome> {
        self.outcomes.iter().find(|(c, _)| *c == id).map(|(_, o)| o)
    }

    /// Each configuration to ask about in this round, with its engine
    /// configuration (those that cannot be read are failed already).
    pub fn requests(&self) -> Vec<(u32, Config)> {
        self.configs
            .iter()
            .filter(|c| self.outcome(c.id) == Some(&Outcome::Waiting))
            .filter_map(|c| c.config().ok().map(|config| (c.id, config)))
            .collect()
    }

    /// A new round: every configuration waits for its evaluation again.
    fn restart(&mut self) {
        self.round += 1;
        self.asked = self.configs.clone();
        self.outcomes = self
            .configs
            .iter()
            .map(|c| {
                let outcome = if self.questions.is_empty() {
                    Outcome::Failed("no questions: import a file or write one".into())
                } else {
                    match c.config() {
                        Ok(_) => Outcome::Waiting,
                        Err(why) => Outcome::Failed(why),
                    }
                };
                (c.id, outcome)
            })
            .collect();
    }

    /// The questions as JSON Lines (the questions file's format, each
    /// answer with its text), written here rather than with a JSON library,
    /// which would cost the page's wasm more than the whole mode.
    pub fn questions_jsonl(&self) -> String {
        let mut out = String::new();
        for q in self.questions.iter() {
            let text = self
                .corpus
                .iter()
                .find(|(n, _)| *n == q.doc)
                .map(|(_, t)| t.clone());
            let answers: Vec<String> = q
                .answers
                .iter()
                .map(|&(s, e)| {
                    let excerpt = text
                        .as_ref()
                        .map(|t| t.chars().skip(s).take(e - s).collect::<String>())
                        .filter(|x| x.chars().count() == e - s);
                    match excerpt {
                        Some(x) => format!(
                            "{{\"start\": {s}, \"end\": {e}, \"text\": {}}}",
                            json_string(&x)
                        ),
                        None => format!("{{\"start\": {s}, \"end\": {e}}}"),
                    }
                })
                .collect();
            out.push_str(&format!(
                "{{\"question\": {}, \"doc\": {}, \"answers\": [{}]}}\n",
                json_string(&q.question),
                json_string(&q.doc),
                answers.join(", ")
            ));
        }
        out
    }
}

/// Sets a field of configuration `id`.
fn apply(state: &mut EvalState, id: u32, edit: ConfigEdit) {
    if let Some(c) = state.configs.iter_mut().find(|c| c.id == id) {
        match edit {
            ConfigEdit::Strategy(s) => c.strategy = s,
            ConfigEdit::Size(s) => c.size = s,
            ConfigEdit::Overlap(s) => c.overlap = s,
            ConfigEdit::Unit(u) => c.unit = u,
            ConfigEdit::Separators(p) => c.separators = p,
        }
    }
}

/// `s` as a JSON string literal (the exports' own escaping).
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    chunkscope::export::json_string(&mut out, s);
    out
}

/// The state after `action`.
pub fn reduce(state: &EvalState, action: EvalAction) -> EvalState {
    let mut next = state.clone();
    let restart = match action {
        EvalAction::ChooseSet(name) => {
            let Some((doc, text, _)) = set(name) else {
                return next;
            };
            next.set = Some(name);
            next.corpus = Rc::new(vec![(doc.to_string(), text.into())]);
            next.questions = Rc::new(Vec::new());
            next.source = Source::Shipped(name);
            next.selected = None;
            true
        }
        EvalAction::SetCorpus(docs) => {
            next.set = None;
            next.corpus = Rc::new(docs);
            next.questions = Rc::new(Vec::new());
            next.source = Source::Edited;
            next.selected = None;
            true
        }
        EvalAction::QuestionsRead { questions, source } => {
            // A shipped set's questions that come after another set was
            // chosen are not about the corpus on screen.
            if matches!(source, Source::Shipped(name) if next.set != Some(name)) {
                return next;
            }
            next.questions = Rc::new(questions);
            next.source = source;
            next.import_error = None;
            next.selected = None;
            true
        }
        EvalAction::ImportFailed(why) => {
            // Nothing is lost: the questions before the import stay.
            next.import_error = Some(why);
            false
        }
        EvalAction::AddQuestion(q) => {
            Rc::make_mut(&mut next.questions).push(q);
            next.source = Source::Edited;
            next.selected = Some(next.questions.len() - 1);
            true
        }
        EvalAction::RemoveQuestion(i) => {
            if i >= next.questions.len() {
                return next;
            }
            Rc::make_mut(&mut next.questions).remove(i);
            next.source = Source::Edited;
            next.selected = None;
            true
        }
        EvalAction::SelectQuestion(i) => {
            next.selected = (next.selected != Some(i) && i < next.questions.len()).then_some(i);
            false
        }
        EvalAction::AddConfig => {
            let mut config = next
                .configs
                .last()
                .cloned()
                .unwrap_or_else(|| EvalState::default().configs[0].clone());
            config.id = next.next_id;
            next.next_id += 1;
            next.configs.push(config);
            true
        }
        EvalAction::RemoveConfig(id) => {
            next.configs.retain(|c| c.id != id);
            true
        }
        EvalAction::EditConfig(id, edit) | EvalAction::TypeConfig(id, edit)
            if !next.configs.iter().any(|c| c.id == id) =>
        {
            let _ = edit;
            return next;
        }
        EvalAction::EditConfig(id, edit) => {
            apply(&mut next, id, edit);
            next.configs != next.asked
        }
        EvalAction::TypeConfig(id, edit) => {
            apply(&mut next, id, edit);
            false
        }
        EvalAction::SetTopK(k) => {
            if k == 0 || k == next.top_k {
                return next;
            }
            next.top_k = k;
            true
        }
        EvalAction::SetByModel(by_model) => {
            if by_model == next.by_model {
                return next;
            }
            next.by_model = by_model;
            true
        }
        EvalAction::ModelChanged => next.by_model,
        EvalAction::SetConfigs(configs) => {
            next.next_id = configs.iter().map(|c| c.id + 1).max().unwrap_or(0);
            next.configs = configs;
            true
        }
        EvalAction::Evaluated {
            round,
            config,
            result,
        } => {
            if round != next.round {
                return next;
            }
            if let Some((_, outcome)) = next.outcomes.iter_mut().find(|(c, _)| *c == config) {
                *outcome = match result {
                    Ok(e) => Outcome::Done(Rc::new(e)),
                    Err(why) => Outcome::Failed(why),
                };
            }
            false
        }
        EvalAction::StartSweep(now) => {
            let id = next.sweep.as_ref().map_or(0, |s| s.id + 1);
            next.sweep = Some(Sweep {
                id,
                lines: Rc::new(next.configs.clone()),
                points: Rc::new(sweep_points(next.configs.len())),
                results: Vec::new(),
                cancelled: false,
                started: now,
                ended: None,
            });
            false
        }
        EvalAction::SweepPoint {
            sweep,
            index,
            result,
            now,
        } => {
            if let Some(s) = next.sweep.as_mut() {
                if s.id == sweep && s.running() && index == s.results.len() {
                    s.results.push(result);
                    if !s.running() {
                        s.ended = Some(now);
                    }
                }
            }
            false
        }
        EvalAction::CancelSweep(now) => {
            if let Some(s) = next.sweep.as_mut().filter(|s| s.running()) {
                s.cancelled = true;
                s.ended = Some(now);
            }
            false
        }
    };
    if restart {
        next.restart();
        // A sweep measures the corpus and questions it started with.
        if let Some(s) = next.sweep.as_mut().filter(|s| s.running()) {
            s.cancelled = true;
        }
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkscope_eval::{Bm25, IndexCost};

    fn question() -> Question {
        Question {
            question: "How long do refunds take?".into(),
            doc: "refund.txt".into(),
            answers: vec![(15, 35)],
        }
    }

    fn evaluation(recall: f64) -> Evaluation {
        Evaluation {
            questions: Vec::new(),
            mean: Means {
                recall,
                ..Means::default()
            },
            index: IndexCost {
                chunks: 5,
                units: 100,
                longest: 20,
            },
            top_k: 1,
            retriever: Bm25::default(),
            model: None,
        }
    }

    fn loaded() -> EvalState {
        reduce(
            &EvalState::default(),
            EvalAction::QuestionsRead {
                questions: vec![question()],
                source: Source::Shipped("refund"),
            },
        )
    }

    #[test]
    fn every_strategy_of_the_engine_is_offered_and_configured() {
        let offered: Vec<Strategy> = strategies().collect();
        assert_eq!(offered, Strategy::ALL);
        for strategy in [
            Strategy::LangChainMarkdown,
            Strategy::LlamaIndexMarkdown,
            Strategy::Markdown,
            Strategy::Sentence,
            Strategy::Semantic,
        ] {
            let c = EvalConfig {
                id: 0,
                strategy,
                size: "200".into(),
                overlap: "0".into(),
                unit: Unit::Chars,
                separators: "default",
            };
            let config = c.config().unwrap();
            assert_eq!(config.kind(), strategy);
            assert!(
                chunkscope::Splitter::new(config.clone(), &chunkscope::Resources::new()).is_ok(),
                "{strategy:?}"
            );
            if strategy == Strategy::LangChainMarkdown {
                assert_eq!(config.separators, Config::for_strategy(strategy).separators);
            }
        }
    }

    #[test]
    fn questions_start_a_round_in_which_every_configuration_waits() {
        let start = EvalState::default();
        assert_eq!(start.requests(), []);
        let s = loaded();
        assert_eq!(s.round, 1);
        assert_eq!(s.outcomes, [(0, Outcome::Waiting), (1, Outcome::Waiting)]);
        let asked: Vec<u32> = s.requests().into_iter().map(|(id, _)| id).collect();
        assert_eq!(asked, [0, 1]);
        let config = &s.requests()[0].1;
        assert_eq!(
            (config.kind(), config.size, config.overlap),
            (Strategy::Recursive, 40, 0)
        );
        assert_eq!(config.separators, presets::separators("seed").unwrap());
    }

    #[test]
    fn an_answer_to_an_older_round_is_dropped() {
        let s = loaded();
        let old = s.round;
        let s = reduce(&s, EvalAction::SetTopK(3));
        assert_eq!(s.round, old + 1);
        let s = reduce(
            &s,
            EvalAction::Evaluated {
                round: old,
                config: 0,
                result: Ok(evaluation(0.5)),
            },
        );
        assert_eq!(s.outcome(0), Some(&Outcome::Waiting));
        let s = reduce(
            &s,
            EvalAction::Evaluated {
                round: old + 1,
                config: 0,
                result: Ok(evaluation(0.5)),
            },
        );
        assert_eq!(s.outcome(0), Some(&Outcome::Done(Rc::new(evaluation(0.5)))));
        assert_eq!(s.requests().len(), 1);
    }

    #[test]
    fn configurations_are_added_removed_and_edited_by_id() {
        let s = reduce(&loaded(), EvalAction::AddConfig);
        assert_eq!(
            s.configs.iter().map(|c| c.id).collect::<Vec<_>>(),
            [0, 1, 2]
        );
        assert_eq!(s.configs[2].strategy, Strategy::Fixed);
        let s = reduce(&s, EvalAction::RemoveConfig(1));
        let s = reduce(&s, EvalAction::EditConfig(2, ConfigEdit::Size("x".into())));
        assert_eq!(s.configs.iter().map(|c| c.id).collect::<Vec<_>>(), [0, 2]);
        // A size that does not read fails that row only, with the reason.
        assert_eq!(s.outcome(0), Some(&Outcome::Waiting));
        assert!(matches!(s.outcome(2), Some(Outcome::Failed(why)) if why.contains("whole number")));
        let s = reduce(&s, EvalAction::AddConfig);
        assert_eq!(s.configs.last().unwrap().id, 3);
    }

    #[test]
    fn a_field_typed_is_evaluated_once_left_and_only_if_changed() {
        let s = loaded();
        let round = s.round;
        let s = reduce(&s, EvalAction::TypeConfig(1, ConfigEdit::Size("2".into())));
        let s = reduce(&s, EvalAction::TypeConfig(1, ConfigEdit::Size("20".into())));
        assert_eq!((s.round, s.configs[1].size.as_str()), (round, "20"));
        let s = reduce(&s, EvalAction::EditConfig(1, ConfigEdit::Size("20".into())));
        assert_eq!(s.round, round + 1);
        // Leaving the field again (a second change event) asks nothing new.
        let s = reduce(&s, EvalAction::EditConfig(1, ConfigEdit::Size("20".into())));
        assert_eq!(s.round, round + 1);
        let s = reduce(&s, EvalAction::TypeConfig(9, ConfigEdit::Size("1".into())));
        assert_eq!(s.configs.len(), 2);
    }

    #[test]
    fn a_failed_import_keeps_the_questions() {
        let s = loaded();
        let s = reduce(&s, EvalAction::ImportFailed("line 2: not JSON".into()));
        assert_eq!(s.questions.len(), 1);
        assert_eq!(s.import_error.as_deref(), Some("line 2: not JSON"));
        assert_eq!(s.round, 1, "nothing to evaluate again");
    }

    #[test]
    fn authored_questions_are_evaluated_and_exported() {
        let s = reduce(
            &EvalState::default(),
            EvalAction::AddQuestion(Question {
                question: "When is support open?".into(),
                doc: "refund.txt".into(),
                answers: vec![(98, 114)],
            }),
        );
        assert_eq!(s.source, Source::Edited);
        assert_eq!(s.selected, Some(0));
        assert_eq!(s.requests().len(), 2);
        assert_eq!(
            s.questions_jsonl(),
            "{\"question\": \"When is support open?\", \"doc\": \"refund.txt\", \"answers\": [{\"start\": 98, \"end\": 114, \"text\": \"Contact us 24x7.\"}]}\n"
        );
        assert_eq!(
            json_string("a\"b\\c\nd\u{1}é"),
            "\"a\\\"b\\\\c\\nd\\u0001é\""
        );
        let s = reduce(&s, EvalAction::RemoveQuestion(0));
        assert!(s.questions.is_empty());
        assert!(matches!(s.outcome(0), Some(Outcome::Failed(_))));
    }

    #[test]
    fn the_sweep_asks_point_by_point_and_stops_when_cancelled() {
        let s = reduce(&loaded(), EvalAction::StartSweep(100.0));
        let sweep = s.sweep.clone().unwrap();
        // The table's two configurations, each at 5 sizes and 3 overlaps.
        let points = sweep_points(2);
        assert_eq!(*sweep.points, points);
        assert_eq!(points.len(), 2 * 5 * 3);
        let lines: Vec<Strategy> = sweep.lines.iter().map(|c| c.strategy).collect();
        assert_eq!(lines, [Strategy::Recursive, Strategy::Fixed]);
        let config = sweep.config(points[1]).unwrap();
        assert_eq!(config.overlap, 12, "10 % of 128, rounded down");
        assert_eq!(config.kind(), Strategy::Recursive);
        assert_eq!(config.separators, presets::separators("seed").unwrap());
        let last = sweep.config(points[29]).unwrap();
        assert_eq!(
            (last.kind(), last.size, last.overlap),
            (Strategy::Fixed, 2048, 409)
        );
        assert_eq!(sweep.next(), Some(points[0]));
        let point = |s: &EvalState, index| {
            reduce(
                s,
                EvalAction::SweepPoint {
                    sweep: 0,
                    index,
                    result: Ok(Means::default()),
                    now: 150.0,
                },
            )
        };
        let s = point(&s, 0);
        // A repeated answer is not counted twice.
        let s = point(&s, 0);
        assert_eq!(s.sweep.as_ref().unwrap().results.len(), 1);
        let s = reduce(&s, EvalAction::CancelSweep(160.0));
        let sweep = s.sweep.clone().unwrap();
        assert!(sweep.cancelled && !sweep.running());
        assert_eq!((sweep.next(), sweep.ended), (None, Some(160.0)));
        // An answer in flight when it was stopped is dropped.
        let s = point(&s, 1);
        assert_eq!(s.sweep.as_ref().unwrap().results.len(), 1);
        // A new sweep starts over with its own id.
        let s = reduce(&s, EvalAction::StartSweep(200.0));
        assert_eq!(s.sweep.as_ref().unwrap().id, 1);
        assert!(s.sweep.as_ref().unwrap().results.is_empty());
    }
}
