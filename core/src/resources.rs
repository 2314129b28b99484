//! What a configuration names but does not contain: tokenizers and
//! embedding models.
//!
//! A [`Config`](crate::Config) is plain data: its unit names an encoding
//! (`cl100k`), its semantic settings name an embedder (`lexical`, `model:3`).
//! The megabytes behind those names are [`Resources`], a value the caller
//! builds and hands to [`Splitter::new`](crate::Splitter::new), which resolves
//! each name once. Nothing is looked up in a process-wide registry, so two
//! splitters in one process can count with different tables, and a missing
//! name is an error that says which.

use crate::embed::{Embedder, EmbedderChoice, Lexical};
use crate::error::semantic::SemanticError;
use crate::error::Error;
use crate::tokens::{Encoding, Tokenizer};
use crate::unit::{Counter, Unit};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// The tokenizers and embedders a [`Splitter`](crate::Splitter) may resolve
/// a configuration's names to.
///
/// Invariants: at most one tokenizer per encoding, and it is that
/// encoding's (so a counter is known by its unit alone); no embedder is
/// named `lexical` (that name is the built-in [`Lexical`]).
///
/// ```
/// use chunkscope::{Config, Resources, Splitter, Unit};
/// use chunkscope::tokens::Encoding;
///
/// let tokens = Config::recursive(8).with_unit(Unit::Tokens(Encoding::Cl100k));
/// let none = Resources::new();
/// let error = Splitter::new(tokens, &none).unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "the cl100k tokenizer is not loaded yet: load it, or count in chars or bytes"
/// );
/// // Chars and bytes, and the lexical embedder, need nothing.
/// assert!(Splitter::new(Config::recursive(8), &none).is_ok());
/// ```
#[derive(Clone, Default)]
pub struct Resources {
    tokenizers: [Option<&'static Tokenizer>; 2],
    embedders: BTreeMap<String, Arc<dyn Embedder>>,
    /// Natively with the `tiktoken` feature: an encoding not given is built
    /// from tiktoken-rs's tables when first asked for.
    #[cfg(all(feature = "tiktoken", not(target_arch = "wasm32")))]
    tiktoken: bool,
}

impl Resources {
    /// No tokenizer and no model: chars, bytes and the lexical embedder.
    pub fn new() -> Resources {
        Resources::default()
    }

    /// Every OpenAI encoding, each built from tiktoken-rs's embedded tables
    /// the first time a splitter counts in it (once per process:
    /// [`Tokenizer::shared`]). What native tools use.
    #[cfg(all(feature = "tiktoken", not(target_arch = "wasm32")))]
    pub fn tiktoken() -> Resources {
        Resources {
            tiktoken: true,
            ..Resources::default()
        }
    }

    /// These resources with `tokenizer` for its encoding (replacing the one
    /// held).
    pub fn with_tokenizer(mut self, tokenizer: &'static Tokenizer) -> Resources {
        self.add_tokenizer(tokenizer);
        self
    }

    /// Holds `tokenizer` for its encoding, replacing the one held.
    pub fn add_tokenizer(&mut self, tokenizer: &'static Tokenizer) {
        self.tokenizers[tokenizer.encoding() as usize] = Some(tokenizer);
    }

    /// Whether `encoding`'s tokenizer is held (natively with tiktoken, it
    /// can always be had: see [`Resources::tiktoken`]).
    pub fn has_tokenizer(&self, encoding: Encoding) -> bool {
        self.tokenizers[encoding as usize].is_some() || self.loads_tiktoken()
    }

    /// `encoding`'s tokenizer, or [`Error::TokenizerNotLoaded`].
    pub fn tokenizer(&self, encoding: Encoding) -> Result<&'static Tokenizer, Error> {
        if let Some(tokenizer) = self.tokenizers[encoding as usize] {
            return Ok(tokenizer);
        }
        #[cfg(all(feature = "tiktoken", not(target_arch = "wasm32")))]
        if self.tiktoken {
            return Tokenizer::shared(encoding).map_err(|_| Error::TokenizerNotLoaded { encoding });
        }
        Err(Error::TokenizerNotLoaded { encoding })
    }

    /// The counter of `unit`: chars and bytes need nothing, a token unit
    /// its encoding's tokenizer.
    pub fn counter(&self, unit: Unit) -> Result<Counter, Error> {
        Ok(match unit {
            Unit::Chars => Counter::CHARS,
            Unit::Bytes => Counter::BYTES,
            Unit::Tokens(encoding) => Counter::with_tokenizer(self.tokenizer(encoding)?),
        })
    }

    /// These resources with `embedder` under `name` (see
    /// [`Resources::add_embedder`]).
    pub fn with_embedder(
        mut self,
        name: impl Into<String>,
        embedder: Arc<dyn Embedder>,
    ) -> Result<Resources, Error> {
        self.add_embedder(name, embedder)?;
        Ok(self)
    }

    /// Holds `embedder` under `name`, replacing the one held there; a
    /// configuration names it with [`EmbedderChoice::named`]. The name
    /// `lexical` is the built-in embedder's and is refused: nothing is held,
    /// and the error says so.
    pub fn add_embedder(
        &mut self,
        name: impl Into<String>,
        embedder: Arc<dyn Embedder>,
    ) -> Result<(), Error> {
        match EmbedderChoice::named(name) {
            EmbedderChoice::Lexical => Err(SemanticError::Embedder {
                reason: "\"lexical\" is the built-in embedder's name: hold a model under another"
                    .into(),
            }
            .into()),
            EmbedderChoice::Named(name) => {
                self.embedders.insert(name, embedder);
                Ok(())
            }
        }
    }

    /// Drops the embedder held under `name`, if any.
    pub fn remove_embedder(&mut self, name: &str) {
        self.embedders.remove(name);
    }

    /// The names of the embedders held, in order.
    pub fn embedder_names(&self) -> impl Iterator<Item = &str> {
        self.embedders.keys().map(String::as_str)
    }

    /// Whether `choice` names an embedder these resources can give (the
    /// lexical one always).
    pub fn holds(&self, choice: &EmbedderChoice) -> bool {
        match choice {
            EmbedderChoice::Lexical => true,
            EmbedderChoice::Named(name) => self.embedders.contains_key(name),
        }
    }

    /// The embedder `choice` names, or [`SemanticError::NoEmbedder`].
    pub fn embedder(&self, choice: &EmbedderChoice) -> Result<Arc<dyn Embedder>, Error> {
        match choice {
            EmbedderChoice::Lexical => Ok(Arc::new(Lexical)),
            EmbedderChoice::Named(name) => self.embedders.get(name).cloned().ok_or_else(|| {
                SemanticError::NoEmbedder {
                    name: name.clone(),
                    held: self.embedders.keys().cloned().collect(),
                }
                .into()
            }),
        }
    }

    fn loads_tiktoken(&self) -> bool {
        #[cfg(all(feature = "tiktoken", not(target_arch = "wasm32")))]
        {
            self.tiktoken
        }
        #[cfg(not(all(feature = "tiktoken", not(target_arch = "wasm32"))))]
        {
            false
        }
    }
}

impl fmt::Debug for Resources {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tokenizers: Vec<&str> = Encoding::ALL
            .into_iter()
            .filter(|&e| self.tokenizers[e as usize].is_some())
            .map(Encoding::name)
            .collect();
        f.debug_struct("Resources")
            .field("tokenizers", &tokenizers)
            .field("embedders", &self.embedders.keys().collect::<Vec<_>>())
            .field("tiktoken", &self.loads_tiktoken())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::Vector;

    #[derive(Debug)]
    struct Ones;

    impl Embedder for Ones {
        fn name(&self) -> String {
            "ones".into()
        }
        fn embed(&self, texts: &[String]) -> Result<Vec<Vector>, Error> {
            Ok(texts.iter().map(|_| Vector::Dense(vec![1.0])).collect())
        }
    }

    #[test]
    fn an_embedder_is_found_by_its_name_or_the_error_lists_those_held() {
        let mut resources = Resources::new();
        let model_1 = EmbedderChoice::named("model:1");
        let missing = resources.embedder(&model_1).unwrap_err();
        assert!(!resources.holds(&model_1) && resources.holds(&EmbedderChoice::Lexical));
        assert_eq!(
            missing.to_string(),
            "the embedder \"model:1\" is not loaded (no model is): load it first, or use \"lexical\""
        );
        resources.add_embedder("model:2", Arc::new(Ones)).unwrap();
        resources.add_embedder("b", Arc::new(Ones)).unwrap();
        let missing = resources.embedder(&model_1).unwrap_err();
        assert_eq!(
            missing.to_string(),
            "the embedder \"model:1\" is not loaded (loaded: \"b\", \"model:2\"): name one of those, or use \"lexical\""
        );
        assert_eq!(missing.setting(), crate::Setting::Embedder);
        assert!(resources.holds(&EmbedderChoice::named("model:2")));
        let found = resources
            .embedder(&EmbedderChoice::named("model:2"))
            .unwrap();
        assert_eq!(found.name(), "ones");
        let lexical = resources
            .embedder(&EmbedderChoice::named("lexical"))
            .unwrap();
        assert_eq!(lexical.name(), Lexical.name());
        let refused = resources
            .add_embedder("lexical", Arc::new(Ones))
            .unwrap_err();
        assert!(refused.to_string().contains("built-in"), "{refused}");
        assert_eq!(
            resources.embedder_names().collect::<Vec<_>>(),
            ["b", "model:2"]
        );
        resources.remove_embedder("b");
        assert_eq!(resources.embedder_names().collect::<Vec<_>>(), ["model:2"]);
    }

    #[test]
    fn a_tokenizer_is_found_by_its_encoding() {
        let resources = Resources::new();
        for encoding in Encoding::ALL {
            assert!(!resources.has_tokenizer(encoding));
            assert_eq!(
                resources.counter(Unit::Tokens(encoding)).unwrap_err(),
                Error::TokenizerNotLoaded { encoding }
            );
        }
        let ranks: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        let toy = Tokenizer::from_ranks(Encoding::O200k, ranks)
            .unwrap()
            .leak();
        let resources = resources.with_tokenizer(toy);
        assert!(resources.has_tokenizer(Encoding::O200k));
        let counter = resources.counter(Unit::Tokens(Encoding::O200k)).unwrap();
        assert!(std::ptr::eq(counter.tokenizer().unwrap(), toy));
        // One byte a token with this toy table.
        assert_eq!(counter.len("héllo"), 6);
        assert_eq!(resources.counter(Unit::Chars).unwrap().len("héllo"), 5);
        assert_eq!(resources.counter(Unit::Bytes).unwrap().len("héllo"), 6);
    }
}
