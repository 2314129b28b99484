//! What this module holds for the configurations it splits: the
//! tokenizers installed (`installTokenizer`, the worker's tokenizer
//! message) and the static model a worker loaded from the user's files
//! (`{ id, model: { name, files } }`).
//!
//! A configuration names them, as plain data: a token unit its encoding,
//! the semantic strategy's `embedder` the model as `model:N`, where `N` counts the
//! loads (its generation). So the model's megabytes cross the worker
//! boundary once and never travel in a request or a report, the page names
//! the model without holding it, and a newly loaded model (generation 4)
//! makes every earlier split (named `model:3`) stale by name alone.
//!
//! This is the binding's state, in one place; core has none
//! ([`Resources`] is a value every split is given).

use chunkscope::semantic::StaticModel;
use chunkscope::tokens::{Encoding, Tokenizer};
use chunkscope::{Counter, Resources, Unit};
use std::cell::RefCell;
use std::sync::Arc;

thread_local! {
    static HELD: RefCell<Resources> = RefCell::new(Resources::new());
    static LOADS: RefCell<u32> = const { RefCell::new(0) };
}

/// What the module holds now, for a split to resolve its names in.
pub fn held() -> Resources {
    HELD.with(|h| h.borrow().clone())
}

/// Holds `tokenizer` for its encoding (read from a file, it is kept for the
/// rest of the page's life). The tables of an encoding never change, so one
/// held already is kept and `tokenizer` dropped: a page that installs twice
/// keeps one copy.
pub fn install_tokenizer(tokenizer: Tokenizer) -> Encoding {
    let encoding = tokenizer.encoding();
    if tokenizer_of(encoding).is_none() {
        hold_tokenizer(tokenizer.leak());
    }
    encoding
}

/// Reads a `.tokens` file and holds its tokenizer ([`install_tokenizer`]):
/// its encoding, or what is wrong with the file.
pub fn install_data(data: &[u8]) -> Result<Encoding, String> {
    let tokenizer = Tokenizer::from_data(data).map_err(|e| e.to_string())?;
    Ok(install_tokenizer(tokenizer))
}

/// Holds `tokenizer` for its encoding.
pub fn hold_tokenizer(tokenizer: &'static Tokenizer) {
    HELD.with(|h| h.borrow_mut().add_tokenizer(tokenizer));
}

/// The tokenizer held for `encoding`, if its tables are here.
pub fn tokenizer_of(encoding: Encoding) -> Option<&'static Tokenizer> {
    HELD.with(|h| h.borrow().tokenizer(encoding).ok())
}

/// The counter of `unit`, with the tokenizer held for it.
pub fn counter(unit: Unit) -> Result<Counter, chunkscope::Error> {
    HELD.with(|h| h.borrow().counter(unit))
}

/// How a configuration names the model of generation `generation`.
pub fn model_name(generation: u32) -> String {
    format!("model:{generation}")
}

/// What the page shows of a loaded model: the worker's `loaded` answer, one
/// serde form both sides (a missing or unknown field is an error that names
/// it, never a default).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// Its generation (see the module's doc).
    pub generation: u32,
    /// The file or folder name.
    pub name: String,
    /// `model2vec` or `word vectors`.
    pub format: String,
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
        format: model.format().to_string(),
        dims: model.dims(),
        words: model.words(),
    };
    HELD.with(|h| {
        let mut held = h.borrow_mut();
        drop_models(&mut held);
        held.add_embedder(model_name(generation), Arc::new(model))
    })
    .map_err(|e| e.to_string())?;
    Ok(summary)
}

/// Drops the worker's model.
pub fn clear() {
    HELD.with(|h| drop_models(&mut h.borrow_mut()));
}

fn drop_models(held: &mut Resources) {
    let names: Vec<String> = held.embedder_names().map(str::to_string).collect();
    for name in names {
        held.remove_embedder(&name);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkscope::semantic::EmbedderChoice;

    #[test]
    fn a_loaded_model_is_named_by_its_generation() {
        let summary = load("w.txt", &[("w.txt".into(), b"cat 1 0\ndog 0 1\n".to_vec())]).unwrap();
        assert_eq!(
            (summary.format.as_str(), summary.dims, summary.words),
            ("word vectors", 2, 2)
        );
        let g = summary.generation;
        let names = |r: &Resources| r.embedder_names().map(str::to_string).collect::<Vec<_>>();
        assert_eq!(names(&held()), [model_name(g)]);
        // A report made with the model names it, and reads back as the
        // configuration that asked for it.
        let text = "Cats purr. Dogs bark. Cats sleep.";
        let mut config = chunkscope::Config::for_strategy(chunkscope::Strategy::Semantic);
        config.semantic_config_mut().unwrap().embedder = EmbedderChoice::named(model_name(g));
        let analysis =
            crate::contract::analyze(text, config.clone(), crate::contract::Detail::Full).unwrap();
        let trace = analysis.output.trace.semantic.as_ref().unwrap();
        assert!(
            trace.embedder.starts_with("static model w.txt"),
            "{}",
            trace.embedder
        );
        let back = crate::wire::decode(&crate::wire::encode(&analysis), text).unwrap();
        assert_eq!(back.config, config);
        // The next load replaces it: the old name is no longer held.
        let next = load("v.txt", &[("v.txt".into(), b"cat 1 0\n".to_vec())]).unwrap();
        assert_eq!(names(&held()), [model_name(next.generation)]);
        let stale = crate::contract::analyze(text, config, crate::contract::Detail::Full)
            .unwrap_err()
            .to_string();
        assert_eq!(
            stale,
            format!(
                "the embedder \"model:{g}\" is not loaded (loaded: \"model:{}\"): name one of \
                 those, or use \"lexical\"",
                next.generation
            )
        );
        clear();
        assert!(names(&held()).is_empty());
        let e = load("x", &[("model.safetensors".into(), vec![])]).unwrap_err();
        assert!(e.contains("tokenizer.json"), "{e}");
    }

    #[test]
    fn a_summary_has_one_written_form_and_refuses_a_missing_field() {
        let summary = Summary {
            generation: 3,
            name: "w.txt".into(),
            format: "word vectors".into(),
            dims: 2,
            words: 40,
        };
        let json = serde_json::to_string(&summary).unwrap();
        assert_eq!(
            json,
            r#"{"generation":3,"name":"w.txt","format":"word vectors","dims":2,"words":40}"#
        );
        assert_eq!(serde_json::from_str::<Summary>(&json).unwrap(), summary);
        let missing = json.replace(r#","words":40"#, "");
        let e = serde_json::from_str::<Summary>(&missing).unwrap_err();
        assert!(e.to_string().starts_with("missing field `words`"), "{e}");
        let unknown = json.replace(r#""dims""#, r#""dim""#);
        let e = serde_json::from_str::<Summary>(&unknown).unwrap_err();
        assert!(e.to_string().starts_with("unknown field `dim`"), "{e}");
    }
}
