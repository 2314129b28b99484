//! The configuration object JavaScript passes to `split` and the worker's
//! requests carry: core's one written form of a configuration
//! ([`chunkscope::Settings`], whose serde form names every wrong field and
//! refuses unknown ones), resolved here with what only a worker holds, the
//! model it loaded.
//!
//! ```text
//! { strategy?, size?, overlap?, unit?, separators?, placement?, trim?,
//!   each_line?, then_recursive?, heading_prefix?, table_header?,
//!   semantic?: { breakpoint?, amount?, buffer?, number_of_chunks?,
//!                min_chunk_size?, embedder?: "lexical" | "model:N" },
//!   min_characters_per_chunk? }
//! ```
//!
//! The configuration echo of a report (`report.config`) has this shape, so it
//! can be passed back in.

use chunkscope::Config;
pub use chunkscope::{Settings as SplitOptions, SettingsError as OptionError};

/// The engine configuration of `options`: the strategy's defaults,
/// overridden by every field given. Only the form is checked here; the
/// engine checks the values, and the names (an embedder `lexical` or
/// `model:N`, a tokenizer) are resolved in what the module holds, when it
/// splits.
pub fn resolve(options: SplitOptions) -> Result<Config, OptionError> {
    options.resolve()
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
    fn an_embedder_is_a_name_resolved_when_a_split_is_made() {
        let named = serde_json::json!({"strategy": "semantic", "semantic": {"embedder": "model"}});
        let named = config(named).unwrap();
        assert_eq!(
            named.semantic_config().unwrap().embedder,
            chunkscope::semantic::EmbedderChoice::named("model")
        );
        let e =
            crate::contract::analyze("A. B.", named, crate::contract::Detail::Chunks).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the embedder \"model\" is not loaded (no model is): load it first, or use \"lexical\""
        );
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
        let written = serde_json::to_value(SplitOptions::from(&original)).unwrap();
        assert_eq!(config(written).unwrap(), original);
        let mut semantic = Config::for_strategy(Strategy::Semantic);
        semantic.semantic_config_mut().unwrap().buffer = 2;
        let written = serde_json::to_value(SplitOptions::from(&semantic)).unwrap();
        assert_eq!(written["semantic"]["embedder"], "lexical");
        assert_eq!(config(written).unwrap(), semantic);
    }

    #[test]
    fn the_report_echo_reads_back_as_the_same_config() {
        let mut original = Config::for_strategy(Strategy::Semantic);
        original.strategy =
            chunkscope::StrategyConfig::Semantic(chunkscope::semantic::SemanticConfig {
                min_chunk_size: Some(10),
                ..chunkscope::semantic::SemanticConfig::new()
                    .with_breakpoint(chunkscope::semantic::Breakpoint::Gradient, Some(80.0))
            });
        let splitter =
            chunkscope::Splitter::new(original.clone(), &chunkscope::Resources::new()).unwrap();
        let report = splitter.report("a", chunkscope::Detail::FULL).unwrap();
        let echo = serde_json::to_value(report.config).unwrap();
        assert_eq!(config(echo).unwrap(), original);
    }
}
