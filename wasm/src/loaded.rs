//! The static model a worker holds for the page: loaded once from the
//! user's files (`{ id, model: { name, files } }`), then named in split
//! requests by its generation (`config.semantic.embedder: "model:3"`), so
//! its megabytes cross the worker boundary once and never travel in a
//! report.
//!
//! The page never holds the model. Its configurations name it with
//! [`worker_model`], a stand-in whose identity is the generation: a report
//! of a split made with generation 3 reads back ([`crate::wire`]) with the
//! same stand-in, so it is matched to the request that asked for it, and a
//! newly loaded model (generation 4) makes every earlier split stale.

use chunkscope::semantic::{Embedder, EmbedderChoice, SemanticError, StaticModel, Vector};
use chunkscope::Error;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The stand-in for the worker's model of one generation, on the page's
/// side. It cannot embed: the page splits nothing itself.
#[derive(Debug)]
pub struct WorkerModel {
    /// Which load of the worker's model it stands for.
    pub generation: u32,
}

impl Embedder for WorkerModel {
    fn name(&self) -> String {
        format!("the model loaded in the worker (load {})", self.generation)
    }

    fn embed(&self, _: &[String]) -> Result<Vec<Vector>, Error> {
        Err(SemanticError::Embedder {
            reason: "the loaded model lives in the worker: split there".into(),
        }
        .into())
    }
}

thread_local! {
    static STAND_INS: RefCell<BTreeMap<u32, Arc<WorkerModel>>> = const { RefCell::new(BTreeMap::new()) };
    static LOADED: RefCell<Option<(u32, Arc<StaticModel>)>> = const { RefCell::new(None) };
    static LOADS: RefCell<u32> = const { RefCell::new(0) };
}

/// The embedder choice that names generation `generation` of the worker's
/// model: the same value (by identity) every time it is asked for.
pub fn worker_model(generation: u32) -> EmbedderChoice {
    let arc = STAND_INS.with(|s| {
        s.borrow_mut()
            .entry(generation)
            .or_insert_with(|| Arc::new(WorkerModel { generation }))
            .clone()
    });
    EmbedderChoice::Custom(arc)
}

/// How a configuration's embedder is written in a request or a report:
/// `lexical`, or `model:N` for the worker's model (loaded or stood in for).
pub fn embedder_name(choice: &EmbedderChoice) -> String {
    match choice {
        EmbedderChoice::Model(m) => LOADED.with(|l| match &*l.borrow() {
            Some((generation, loaded)) if Arc::ptr_eq(loaded, m) => format!("model:{generation}"),
            _ => "model".into(),
        }),
        EmbedderChoice::Custom(e) => match e
            .name()
            .strip_prefix("the model loaded in the worker (load ")
        {
            Some(rest) => format!("model:{}", rest.trim_end_matches(')')),
            None => choice.kind().into(),
        },
        EmbedderChoice::Lexical => "lexical".into(),
    }
}

/// The generation in `model:N`.
pub fn generation_of(name: &str) -> Option<u32> {
    name.strip_prefix("model:")?.parse().ok()
}

/// The worker's side: the model of generation `generation`, or why not.
pub fn model_of(generation: u32) -> Result<EmbedderChoice, String> {
    LOADED.with(|l| match &*l.borrow() {
        Some((g, m)) if *g == generation => Ok(EmbedderChoice::Model(m.clone())),
        Some((g, _)) => Err(format!(
            "the request names model load {generation}, but the worker holds load {g}: load the model again"
        )),
        None => Err("no model is loaded in the worker: load one from its files first".into()),
    })
}

/// What the page shows of a loaded model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Its generation (see the module's doc).
    pub generation: u32,
    /// The file or folder name.
    pub name: String,
    /// `model2vec` or `word vectors`.
    pub format: &'static str,
    /// Dimensions.
    pub dims: usize,
    /// Tokens or words it has a vector for.
    pub words: usize,
}

/// Reads a model from the user's files and keeps it: a model2vec pair
/// (a `.safetensors` file and `tokenizer.json`, maybe `config.json`) or one
/// word-vector text file. The model held before is dropped either way only
/// when this one loads.
pub fn load(name: &str, files: &[(String, Vec<u8>)]) -> Result<Summary, String> {
    let find = |pred: &dyn Fn(&str) -> bool| {
        files
            .iter()
            .find(|(n, _)| pred(n))
            .map(|(_, b)| b.as_slice())
    };
    let safetensors = find(&|n| n.ends_with(".safetensors"));
    let tokenizer = find(&|n| n.ends_with("tokenizer.json"));
    let config = find(&|n| n.ends_with("config.json"));
    let model = match (safetensors, tokenizer, files) {
        (Some(st), Some(tok), _) => StaticModel::from_model2vec(name, st, tok, config).map_err(|e| e.to_string())?,
        (Some(_), None, _) => {
            return Err("a model2vec model needs its tokenizer.json beside model.safetensors: choose both files (and config.json)".into())
        }
        (None, Some(_), _) => {
            return Err("a model2vec model needs its model.safetensors beside tokenizer.json: choose both files (and config.json)".into())
        }
        (None, None, [(_, bytes)]) => StaticModel::from_text(name, bytes).map_err(|e| e.to_string())?,
        (None, None, _) => {
            return Err("choose a model2vec model (model.safetensors with tokenizer.json, and config.json) or one word-vector text file (GloVe or fastText)".into())
        }
    };
    let generation = LOADS.with(|n| {
        *n.borrow_mut() += 1;
        *n.borrow()
    });
    let summary = Summary {
        generation,
        name: name.to_string(),
        format: model.format(),
        dims: model.dims(),
        words: model.words(),
    };
    LOADED.with(|l| *l.borrow_mut() = Some((generation, Arc::new(model))));
    Ok(summary)
}

/// Drops the worker's model.
pub fn clear() {
    LOADED.with(|l| *l.borrow_mut() = None);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loaded_model_is_named_by_its_generation_both_sides() {
        let summary = load("w.txt", &[("w.txt".into(), b"cat 1 0\ndog 0 1\n".to_vec())]).unwrap();
        assert_eq!(
            (summary.format, summary.dims, summary.words),
            ("word vectors", 2, 2)
        );
        let g = summary.generation;
        let worker_side = model_of(g).unwrap();
        assert_eq!(embedder_name(&worker_side), format!("model:{g}"));
        assert_eq!(embedder_name(&worker_model(g)), format!("model:{g}"));
        assert_eq!(worker_model(g), worker_model(g));
        assert_ne!(worker_model(g), worker_model(g + 1));
        assert!(model_of(g + 1)
            .unwrap_err()
            .contains("load the model again"));
        // A report made with the model reads back, on the page's side, with
        // the stand-in the page's request named it by.
        let text = "Cats purr. Dogs bark. Cats sleep.";
        let mut config = chunkscope::Config::for_strategy(chunkscope::Strategy::Semantic);
        config.semantic.embedder = worker_side;
        let analysis =
            crate::contract::analyze(text, config, crate::contract::Detail::Full).unwrap();
        let trace = analysis.output.trace.semantic.as_ref().unwrap();
        assert!(
            trace.embedder.starts_with("static model w.txt"),
            "{}",
            trace.embedder
        );
        let back = crate::wire::decode(&crate::wire::encode(&analysis), text).unwrap();
        assert_eq!(back.config.semantic.embedder, worker_model(g));
        clear();
        assert!(model_of(g).unwrap_err().contains("no model is loaded"));
        let e = load("x", &[("model.safetensors".into(), vec![])]).unwrap_err();
        assert!(e.contains("tokenizer.json"), "{e}");
    }
}
