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
//!   the number to set beside LangChain's (`bench/semantic_compare.sh`);
//! - `model2vec_load`, `model2vec_embed`, `model2vec_split`: a generated
//!   model2vec model of realistic size (30 000 WordPiece tokens × 256
//!   float32 dimensions, a BERT normalizer and pre-tokenizer) read from its
//!   bytes, the sentence groups' vectors alone, and the whole strategy with it.

use chunkscope::semantic::{
    self, Embedder, EmbedderChoice, Lexical, SemanticConfig, StaticModel, Vector,
};
use chunkscope::{Config, Error, Resources, Splitter, Strategy, StrategyConfig};
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
        strategy: StrategyConfig::Semantic(SemanticConfig::new().with_embedder(embedder)),
        ..Config::for_strategy(Strategy::Semantic)
    }
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn lexical_split(bencher: Bencher) {
    let text = text();
    let splitter =
        Splitter::new(config(EmbedderChoice::Lexical), &Resources::new()).expect("valid");
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
    let resources = Resources::new()
        .with_embedder("given", Arc::new(Given(vectors)))
        .expect("not the built-in name");
    let splitter =
        Splitter::new(config(EmbedderChoice::named("given")), &resources).expect("valid");
    bencher.counter(BytesCount::of_str(text)).bench(|| {
        splitter
            .split(black_box(text))
            .expect("splits")
            .chunks
            .len()
    });
}

const TOKENS: usize = 30_000;
const DIMS: usize = 256;

/// The files of a model2vec model: the text's own words first (the ones a
/// real vocabulary would hold), their `##` continuations, then filler
/// pieces up to [`TOKENS`]; vectors from a fixed generator.
fn model_files() -> &'static (Vec<u8>, String) {
    static FILES: OnceLock<(Vec<u8>, String)> = OnceLock::new();
    FILES.get_or_init(|| {
        let mut vocab: Vec<String> = vec!["[UNK]".into(), "[CLS]".into(), "[SEP]".into()];
        let mut seen = std::collections::HashSet::new();
        for w in text().split(|c: char| !c.is_alphanumeric()) {
            let w = w.to_lowercase();
            if !w.is_empty() && vocab.len() < TOKENS / 2 && seen.insert(w.clone()) {
                vocab.push(w);
            }
        }
        for c in ['.', ',', '!', '?', ';', ':', '\'', '"', '-', '(', ')'] {
            vocab.push(c.to_string());
        }
        // Filler: n written in base 26, every other one a continuation.
        let mut n = 0u64;
        while vocab.len() < TOKENS {
            n += 1;
            let mut piece = String::new();
            let mut m = n;
            while m > 0 {
                piece.push(char::from(b'a' + (m % 26) as u8));
                m /= 26;
            }
            let token = if n.is_multiple_of(2) { format!("##{piece}") } else { piece };
            if seen.insert(token.clone()) {
                vocab.push(token);
            }
        }
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut values = Vec::with_capacity(TOKENS * DIMS * 4);
        for _ in 0..TOKENS * DIMS {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5;
            values.extend_from_slice(&x.to_le_bytes());
        }
        let header = format!(
            r#"{{"embeddings":{{"dtype":"F32","shape":[{TOKENS},{DIMS}],"data_offsets":[0,{}]}}}}"#,
            values.len()
        );
        let mut st = (header.len() as u64).to_le_bytes().to_vec();
        st.extend_from_slice(header.as_bytes());
        st.extend_from_slice(&values);
        let entries: Vec<String> = vocab
            .iter()
            .enumerate()
            .map(|(i, t)| format!("{}:{i}", serde_json::to_string(t).expect("a string")))
            .collect();
        let tokenizer = format!(
            r#"{{"normalizer":{{"type":"BertNormalizer","lowercase":true}},"pre_tokenizer":{{"type":"BertPreTokenizer"}},"model":{{"type":"WordPiece","unk_token":"[UNK]","vocab":{{{}}}}}}}"#,
            entries.join(",")
        );
        (st, tokenizer)
    })
}

fn model() -> Arc<StaticModel> {
    let (st, tok) = model_files();
    Arc::new(StaticModel::from_model2vec("bench", st, tok.as_bytes(), None).expect("a model"))
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn model2vec_load(bencher: Bencher) {
    let (st, tok) = model_files();
    bencher
        .counter(BytesCount::new(st.len() + tok.len()))
        .bench(|| {
            StaticModel::from_model2vec("bench", black_box(st), tok.as_bytes(), None)
                .expect("a model")
                .words()
        });
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn model2vec_embed(bencher: Bencher) {
    let text = text();
    let sentences = semantic::sentences(text);
    let groups = semantic::groups(text, &sentences, 1);
    let model = model();
    bencher
        .counter(BytesCount::of_str(text))
        .bench(|| model.embed(black_box(&groups)).expect("embeds").len());
}

#[divan::bench(sample_count = 10, sample_size = 1)]
fn model2vec_split(bencher: Bencher) {
    let text = text();
    let resources = Resources::new()
        .with_embedder("model", model())
        .expect("not the built-in name");
    let splitter =
        Splitter::new(config(EmbedderChoice::named("model")), &resources).expect("valid");
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
