//! The static model the learner loaded from local files: it lives in the
//! worker (sent once); the page keeps only what it shows (name, format,
//! dimensions, vocabulary) and the generation that names it in requests.
//! While one is loaded, the semantic strategy embeds with it instead of
//! the lexical embedder; a failed load keeps the model loaded before.

use chunkscope::semantic::EmbedderChoice;
use chunkscope::Config;

/// A model the worker holds: the worker's summary of it, as its `loaded`
/// answer carries it.
pub use chunkscope_wasm::loaded::Summary as LoadedModel;

/// The model part of the page's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModelState {
    /// The model in the worker, if any.
    pub loaded: Option<LoadedModel>,
    /// The files being read, by name, while the worker reads them.
    pub loading: Option<String>,
    /// Why the last load failed.
    pub problem: Option<String>,
}

/// What happened to the model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelEvent {
    /// Files were chosen and sent to the worker.
    Loading(String),
    /// The worker read them.
    Loaded(LoadedModel),
    /// It could not: why. The model before stays.
    Failed(String),
    /// The learner dropped the model.
    Cleared,
}

impl ModelState {
    /// The state after `event`; true when the splits must be asked for again.
    pub fn on(&mut self, event: ModelEvent) -> bool {
        match event {
            ModelEvent::Loading(name) => {
                self.loading = Some(name);
                self.problem = None;
                false
            }
            ModelEvent::Loaded(model) => {
                self.loading = None;
                self.loaded = Some(model);
                true
            }
            ModelEvent::Failed(why) => {
                self.loading = None;
                self.problem = Some(why);
                false
            }
            ModelEvent::Cleared => {
                self.loading = None;
                self.problem = None;
                self.loaded.take().is_some()
            }
        }
    }

    /// `config`, embedding with the loaded model when it is the semantic
    /// strategy's and a model is loaded.
    pub fn apply(&self, mut config: Config) -> Config {
        if let (Some(own), Some(m)) = (config.semantic_config_mut(), &self.loaded) {
            own.embedder = EmbedderChoice::named(chunkscope_wasm::loaded::model_name(m.generation));
        }
        config
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkscope::Strategy;

    fn model(generation: u32) -> LoadedModel {
        LoadedModel {
            generation,
            name: "m".into(),
            format: "model2vec".into(),
            dims: 8,
            words: 40,
        }
    }

    #[test]
    fn a_loaded_model_embeds_the_semantic_strategy_only() {
        let mut state = ModelState::default();
        let semantic = Config::for_strategy(Strategy::Semantic);
        assert_eq!(state.apply(semantic.clone()), semantic);
        assert!(!state.on(ModelEvent::Loading("m".into())));
        assert!(state.on(ModelEvent::Loaded(model(1))));
        let with = state.apply(semantic.clone());
        assert_eq!(
            with.semantic_config().unwrap().embedder,
            EmbedderChoice::Named("model:1".into())
        );
        assert_ne!(with, semantic);
        let fixed = Config::for_strategy(Strategy::Fixed);
        assert_eq!(state.apply(fixed.clone()), fixed);
        // A failed load keeps the model; a new one makes older splits stale.
        assert!(!state.on(ModelEvent::Failed("bad".into())));
        assert_eq!(state.loaded, Some(model(1)));
        state.on(ModelEvent::Loaded(model(2)));
        assert_ne!(state.apply(semantic.clone()), with);
        assert!(state.on(ModelEvent::Cleared));
        assert_eq!(state.apply(semantic.clone()), semantic);
        assert!(!state.on(ModelEvent::Cleared));
    }
}
