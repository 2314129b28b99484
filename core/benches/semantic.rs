//! Semantic chunking on 2 MB of generated prose, in MB/s of source text.
//!
//! `cargo bench -p chunkscope --bench semantic`. Three measurements:
//!
//! - `lexical_split`: the whole `semantic` strategy with the lexical
//!   embedder, trace included (sentences, groups, TF-IDF, distances,
//!   threshold, chunks);
//! - `lexical_embed`: the TF-IDF vectors alone;
//! - `given_vectors`: the splitting part alone, with 64-dimension vectors
//!   already made (what `SemanticChunker` does around `embed_documents`):
//!   the number to set beside LangChain's (`bench/semantic_compare.sh`).

use chunkscope::semantic::{self, Embedder, EmbedderChoice, Lexical, SemanticConfig, Vector};
use chunkscope::{Config, Error, Splitter, Strategy};
use divan::counter::BytesCount;
use divan::{black_box, Bencher};
use std::sync::{Arc, OnceLock};

include!("data/semantic_text.rs");

const BYTES: usize = 2 << 20;

fn text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| semantic_text(BYTES))
}

fn config(embedder: EmbedderChoice) -> Config {
    Config {
        size: 4000,
        semantic: SemanticConfig::new().with_embedder(embedder),
        ..Config::for_strategy(Strategy::Semantic)
    }
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn lexical_split(bencher: Bencher) {
    let text = text();
    let splitter = Splitter::new(config(EmbedderChoice::Lexical)).expect("valid");
    bencher.counter(BytesCount::of_str(text)).bench(|| {
        splitter
            .split(black_box(text))
            .expect("splits")
            .chunks
            .len()
    });
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn lexical_embed(bencher: Bencher) {
    let text = text();
    let sentences = semantic::sentences(text);
    let groups = semantic::groups(text, &sentences, 1);
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| Lexical.embed(black_box(&groups)).expect("embeds").len());
}

/// Answers with vectors made beforehand.
#[derive(Debug)]
struct Given(Vec<Vector>);

impl Embedder for Given {
    fn name(&self) -> String {
        "given".into()
    }
    fn embed(&self, _: &[String]) -> Result<Vec<Vector>, Error> {
        Ok(self.0.clone())
    }
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn given_vectors(bencher: Bencher) {
    let text = text();
    let count = semantic::sentences(text).len();
    let vectors = semantic_vectors(count, 64)
        .into_iter()
        .map(Vector::Dense)
        .collect();
    let given = EmbedderChoice::Custom(Arc::new(Given(vectors)));
    let splitter = Splitter::new(config(given)).expect("valid");
    bencher.counter(BytesCount::of_str(text)).bench(|| {
        splitter
            .split(black_box(text))
            .expect("splits")
            .chunks
            .len()
    });
}

fn main() {
    divan::main();
}
