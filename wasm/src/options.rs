//! The configuration object JavaScript passes to `split` and the worker's
//! requests carry: core's one written form of a configuration
//! ([`chunkscope::Settings`], whose serde form names every wrong field and
//! refuses unknown ones), resolved here with what only a worker holds, the
//! model it loaded.
//!
//! ```text
//! { strategy?, size?, overlap?, unit?, separators?, placement?, trim?,
//!   each_line?, then_recursive?, heading_prefix?,
//!   semantic?: { breakpoint?, amount?, buffer?, number_of_chunks?,
//!                min_chunk_size?, embedder?: "lexical" | "model:N" } }
//! ```
//!
//! The configuration echo of a report (`report.config`) has this shape, so it
//! can be passed back in.

use chunkscope::Config;
pub use chunkscope::{Settings as SplitOptions, SettingsError as OptionError};

/// The engine configuration of `options`: the strategy's defaults,
/// overridden by every field given. Only the form is checked here; the
/// engine checks the values when it splits. An embedder is `lexical`, or
/// `model:N`, the model this worker loaded as its `N`th.
pub fn resolve(options: SplitOptions) -> Result<Config, OptionError> {
    options.resolve(|name| match crate::loaded::generation_of(name) {
        Some(generation) => crate::loaded::model_of(generation),
        None => Err(format!(
            "config.semantic.embedder is {name:?}: a configuration object can \
             name only \"lexical\", or \"model:N\" for the model a worker loaded (a model is loaded from its files)"
        )),
    })
}

/// The written form of `config` for a worker: core's, with a loaded model
/// named as the worker knows it (`model:N`).
pub fn written(config: &Config) -> SplitOptions {
    let mut settings = SplitOptions::from(config);
    if let Some(semantic) = &mut settings.semantic {
        semantic.embedder = match config.semantic.embedder.kind() {
            "lexical" => None,
            _ => Some(crate::loaded::embedder_name(&config.semantic.embedder)),
        };
    }
    settings
}

#[cfg(test)]
mod tests {
    use super::*;
    use chunkscope::{Placement, Separator, Strategy};

    fn config(value: serde_json::Value) -> Result<Config, String> {
        let options: SplitOptions = serde_json::from_value(value).map_err(|e| e.to_string())?;
        resolve(options).map_err(|e| e.message)
    }

    #[test]
    fn an_embedder_is_lexical_or_a_loaded_model() {
        let e =
            config(serde_json::json!({"strategy": "semantic", "semantic": {"embedder": "model"}}))
                .unwrap_err();
        assert!(e.contains("only \"lexical\""), "{e}");
        let lexical = config(
            serde_json::json!({"strategy": "semantic", "semantic": {"embedder": "lexical"}}),
        );
        assert_eq!(lexical.unwrap(), Config::for_strategy(Strategy::Semantic));
    }

    #[test]
    fn the_written_form_reads_back_as_the_same_config() {
        let original = Config::recursive(40)
            .with_overlap(5)
            .with_separators([
                Separator::literal("\n\n"),
                Separator::regex("[.!?] "),
                "".into(),
            ])
            .with_placement(Placement::None)
            .with_trim(false);
        let written = serde_json::to_value(written(&original)).unwrap();
        assert_eq!(config(written).unwrap(), original);
        let mut semantic = Config::for_strategy(Strategy::Semantic);
        semantic.semantic.buffer = 2;
        let written = serde_json::to_value(super::written(&semantic)).unwrap();
        assert_eq!(
            written["semantic"].get("embedder"),
            None,
            "lexical is the default"
        );
        assert_eq!(config(written).unwrap(), semantic);
    }

    #[test]
    fn the_report_echo_reads_back_as_the_same_config() {
        let mut original = Config::for_strategy(Strategy::Semantic);
        original.semantic = chunkscope::semantic::SemanticConfig::new()
            .with_breakpoint(chunkscope::semantic::Breakpoint::Gradient, Some(80.0));
        original.semantic.min_chunk_size = Some(10);
        let splitter = chunkscope::Splitter::new(original.clone()).unwrap();
        let report = splitter.report("a", chunkscope::Detail::FULL).unwrap();
        let echo = serde_json::to_value(report.config).unwrap();
        assert_eq!(config(echo).unwrap(), original);
    }
}
