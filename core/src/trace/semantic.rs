//! What the semantic engine records: the sentences, the distances, the
//! threshold and breakpoints, and LangChain's chunks.

use crate::span::Span;

/// One of `SemanticChunker`'s chunks, and what became of it here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SemanticChunk {
    /// Its sentences, `first..last` (half-open) into
    /// [`SemanticTrace::sentences`].
    pub sentences: (usize, usize),
    /// From its first sentence's start to its last's end.
    pub span: Span,
    /// LangChain's text when it is not `&source[span]` (the sentences were
    /// apart by whitespace other than one space).
    pub text: Option<String>,
    /// The length of LangChain's text in chars (what `min_chunk_size` is
    /// compared with).
    pub chars: usize,
    /// `add_start_index`: the sum of the lengths of LangChain's chunks
    /// before it (`SemanticChunker.create_documents` counts, it does not
    /// search).
    pub start_index: usize,
    /// The chunks of the output it became, `first..last` (half-open): one,
    /// several when it was too long, none when it is empty.
    pub chunks: (usize, usize),
    /// Whether it was longer than `size` and split by the recursive engine.
    pub fallback: bool,
}

impl SemanticChunk {
    /// LangChain's text of this chunk.
    pub fn langchain_text<'a>(&'a self, source: &'a str) -> &'a str {
        self.text.as_deref().unwrap_or(self.span.text(source))
    }
}

/// What the semantic engine did: the sentences, the distances, the threshold
/// and breakpoints, LangChain's chunks, and the cost.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SemanticTrace {
    /// The embedder's name.
    pub embedder: String,
    /// The sentences, as spans (the whitespace between them is in none).
    pub sentences: Vec<Span>,
    /// Calls to the embedder (0 or 1).
    pub embedding_calls: usize,
    /// Vectors computed (one per sentence group).
    pub vectors: usize,
    /// Their dimension (for sparse vectors, the vocabulary's size).
    pub dims: usize,
    /// `1 − cosine similarity` between group `i` and group `i + 1`.
    pub distances: Vec<f64>,
    /// With the `gradient` threshold (and no `number_of_chunks`), the
    /// gradient of the distances: what the threshold is compared with.
    pub gradient: Option<Vec<f64>>,
    /// The threshold (`None` when there were too few sentences to compute
    /// one).
    pub threshold: Option<f64>,
    /// Indices strictly above the threshold (`indices_above_thresh`).
    pub breakpoints: Vec<usize>,
    /// LangChain's chunks, in order.
    pub chunks: Vec<SemanticChunk>,
}

// Distances are never NaN: a similarity that is not finite counts as 0.
impl Eq for SemanticTrace {}
