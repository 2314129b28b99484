//! The semantic strategy's settings: `SemanticChunker`'s arguments and the
//! embedder.

use crate::embed::EmbedderChoice;
use crate::error::semantic::SemanticError;
use crate::strategy::Breakpoint;
use std::hash::{Hash, Hasher};

/// The semantic strategy's settings: `SemanticChunker`'s arguments, and the
/// embedder. Ignored by the other strategies. The default is LangChain's.
#[derive(Clone, Debug)]
pub struct SemanticConfig {
    /// `breakpoint_threshold_type`.
    pub breakpoint: Breakpoint,
    /// `breakpoint_threshold_amount`; `None` is the kind's default.
    pub amount: Option<f64>,
    /// `buffer_size`: how many sentences either side join a sentence's group.
    pub buffer: usize,
    /// `number_of_chunks`: when set, the threshold is the percentile that
    /// aims at about this many chunks, whatever `breakpoint` says.
    pub number_of_chunks: Option<usize>,
    /// `min_chunk_size`, in chars of LangChain's joined text.
    pub min_chunk_size: Option<usize>,
    /// What makes the vectors.
    pub embedder: EmbedderChoice,
}

impl SemanticConfig {
    /// LangChain's defaults: percentile 95, a buffer of 1, the lexical
    /// embedder.
    pub fn new() -> SemanticConfig {
        SemanticConfig {
            breakpoint: Breakpoint::Percentile,
            amount: None,
            buffer: 1,
            number_of_chunks: None,
            min_chunk_size: None,
            embedder: EmbedderChoice::Lexical,
        }
    }

    /// The amount in effect: the one set, or the kind's default.
    pub fn amount(&self) -> f64 {
        self.amount.unwrap_or(self.breakpoint.default_amount())
    }

    /// The same settings with this threshold.
    pub fn with_breakpoint(mut self, breakpoint: Breakpoint, amount: Option<f64>) -> Self {
        self.breakpoint = breakpoint;
        self.amount = amount;
        self
    }

    /// The same settings with this embedder.
    pub fn with_embedder(mut self, embedder: EmbedderChoice) -> Self {
        self.embedder = embedder;
        self
    }

    /// Checks the amount as NumPy would, and refuses what is not a number.
    pub fn validate(&self) -> Result<(), SemanticError> {
        let amount = self.amount();
        let bad = !amount.is_finite()
            || (self.breakpoint.is_percentile() && !(0.0..=1.0).contains(&(amount / 100.0)));
        if bad {
            return Err(SemanticError::Amount {
                breakpoint: self.breakpoint,
                amount: amount.to_string(),
            });
        }
        Ok(())
    }
}

impl Default for SemanticConfig {
    fn default() -> SemanticConfig {
        SemanticConfig::new()
    }
}

impl PartialEq for SemanticConfig {
    fn eq(&self, other: &SemanticConfig) -> bool {
        self.breakpoint == other.breakpoint
            && self.amount.map(f64::to_bits) == other.amount.map(f64::to_bits)
            && self.buffer == other.buffer
            && self.number_of_chunks == other.number_of_chunks
            && self.min_chunk_size == other.min_chunk_size
            && self.embedder == other.embedder
    }
}

impl Eq for SemanticConfig {}

impl Hash for SemanticConfig {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.breakpoint.hash(state);
        self.amount.map(f64::to_bits).hash(state);
        self.buffer.hash(state);
        self.number_of_chunks.hash(state);
        self.min_chunk_size.hash(state);
        self.embedder.hash(state);
    }
}
