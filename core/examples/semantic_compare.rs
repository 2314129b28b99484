//! The splitting part of semantic chunking, ours beside LangChain's
//! `SemanticChunker`, with the same vectors (`bench/semantic_compare.sh` runs
//! both).
//!
//! `cargo run --release -p chunkscope --example semantic_compare -- DIR`
//! writes `DIR/text.txt` (2 MB of generated prose), `DIR/vectors.json` (one
//! 64-dimension vector per sentence group, buffer 1) and `DIR/chunks.json`
//! (our chunk texts), then prints, as JSON, the fastest thread CPU time of
//! `semantic::langchain_chunks` given those vectors: the sentence split, the
//! groups, the distances, the threshold and the chunks, everything
//! `SemanticChunker.split_text` does around `embed_documents`.

use chunkscope::semantic::{self, Embedder, EmbedderChoice, SemanticConfig, Vector};
use chunkscope::Error;
use std::time::Duration;

#[path = "common/cpu.rs"]
mod cpu;
use cpu::thread_cpu;

include!("../benches/data/semantic_text.rs");

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

fn main() {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).expect("an output directory"));
    std::fs::create_dir_all(&dir).expect("the output directory");
    let text = semantic_text(2 << 20);
    let count = semantic::sentences(&text).len();
    let vectors = semantic_vectors(count, 64);
    std::fs::write(dir.join("text.txt"), &text).expect("writes");
    std::fs::write(
        dir.join("vectors.json"),
        serde_json::to_string(&vectors).expect("serializes"),
    )
    .expect("writes");
    let given = Given(vectors.into_iter().map(Vector::Dense).collect());
    let settings = SemanticConfig::new().with_embedder(EmbedderChoice::named("given"));
    let mut best = Duration::MAX;
    let mut chunks = Vec::new();
    for _ in 0..10 {
        let start = thread_cpu();
        let out = semantic::langchain_chunks(&text, &settings, &given).expect("splits");
        best = best.min(thread_cpu() - start);
        chunks = out
            .chunks
            .iter()
            .map(|c| c.langchain_text(&text).to_string())
            .collect();
    }
    std::fs::write(
        dir.join("chunks.json"),
        serde_json::to_string(&chunks).expect("serializes"),
    )
    .expect("writes");
    println!(
        "{{\"bytes\": {}, \"sentences\": {count}, \"chunks\": {}, \"seconds\": {}}}",
        text.len(),
        chunks.len(),
        best.as_secs_f64()
    );
}
