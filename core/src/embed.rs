//! Embedders: what turns the sentence groups into vectors. All offline: the
//! built-in lexical one needs nothing, a static model is bytes the user gives.

mod hf_tokenizer;
mod json;
mod model2vec;
pub(crate) mod numpy;

use crate::error::semantic::{ModelError, MAX_DIMS, MAX_MODEL_BYTES};
use crate::error::Error;
use model2vec::TokenModel;
use std::collections::HashMap;
use std::fmt;

/// One embedding. Sparse vectors (the lexical embedder's: a document has
/// thousands of words, a group a handful) are `(dimension, value)` pairs in
/// increasing dimension order.
#[derive(Clone, Debug, PartialEq)]
pub enum Vector {
    /// Every dimension.
    Dense(Vec<f64>),
    /// Only the dimensions that are not 0, increasing.
    Sparse(Vec<(u32, f64)>),
}

impl Vector {
    /// The vector with every dimension written out (`dims` of them).
    pub fn to_dense(&self, dims: usize) -> Vec<f64> {
        match self {
            Vector::Dense(v) => v.clone(),
            Vector::Sparse(pairs) => {
                let mut v = vec![0.0; dims];
                for &(i, x) in pairs {
                    if let Some(slot) = v.get_mut(i as usize) {
                        *slot = x;
                    }
                }
                v
            }
        }
    }
}

/// Turns texts into vectors, one per text, all of one dimension.
///
/// The semantic engine calls it once per split, with every sentence group
/// (`SemanticChunker` calls `embed_documents` once the same way), and checks
/// what comes back: as many vectors as texts, finite, of one dimension.
pub trait Embedder: fmt::Debug + Send + Sync {
    /// What the page and the report call it ("lexical (TF-IDF)", a model's
    /// name and dimension).
    fn name(&self) -> String;
    /// The vectors of `texts`, in order.
    fn embed(&self, texts: &[String]) -> Result<Vec<Vector>, Error>;
}

/// Which embedder a configuration uses: plain data, a name. The embedder
/// itself is a value the caller holds in its [`Resources`](crate::Resources),
/// found by this name when a [`Splitter`](crate::Splitter) is built, so two
/// configurations are equal exactly when they name the same embedder.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum EmbedderChoice {
    /// [`Lexical`]: TF-IDF over the document's own sentence groups. Always
    /// there; written `lexical`.
    #[default]
    Lexical,
    /// The embedder the resources hold under this name (never `lexical`).
    Named(String),
}

impl EmbedderChoice {
    /// The choice written `name`: `lexical` is the built-in embedder, any
    /// other name one the resources must hold.
    pub fn named(name: impl Into<String>) -> EmbedderChoice {
        let name = name.into();
        if name == "lexical" {
            EmbedderChoice::Lexical
        } else {
            EmbedderChoice::Named(name)
        }
    }

    /// How it is written: `lexical`, or the name.
    pub fn name(&self) -> &str {
        match self {
            EmbedderChoice::Lexical => "lexical",
            EmbedderChoice::Named(name) => name,
        }
    }
}

/// Words as both embedders see them: maximal runs of alphanumeric chars,
/// and each other non-space char on its own (GloVe and fastText vocabularies
/// hold punctuation as tokens).
fn words(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let start = rest.find(|c: char| !c.is_whitespace())?;
        rest = &rest[start..];
        let first = rest.chars().next()?;
        let end = if first.is_alphanumeric() {
            rest.find(|c: char| !c.is_alphanumeric())
                .unwrap_or(rest.len())
        } else {
            first.len_utf8()
        };
        let (word, tail) = rest.split_at(end);
        rest = tail;
        Some(word)
    })
}

/// Lexical similarity, not meaning: each group is a TF-IDF vector over the
/// document's own words (alphanumeric runs, lowercased), with scikit-learn's
/// smoothed IDF `ln((1 + n) / (1 + df)) + 1`, where `n` is the number of
/// groups and `df` how many contain the word. Two groups are close when they
/// share rare words: the idea of TextTiling. Deterministic, and no model.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lexical;

impl Embedder for Lexical {
    fn name(&self) -> String {
        "lexical (TF-IDF over the document's sentence groups)".into()
    }

    fn embed(&self, texts: &[String]) -> Result<Vec<Vector>, Error> {
        let mut ids: HashMap<String, u32> = HashMap::new();
        let mut df: Vec<u32> = Vec::new();
        let mut counts: Vec<Vec<(u32, u32)>> = Vec::with_capacity(texts.len());
        let mut lower = String::new();
        for text in texts {
            let mut bag: Vec<u32> = Vec::new();
            for word in words(text) {
                if !word.chars().next().is_some_and(char::is_alphanumeric) {
                    continue;
                }
                lower.clear();
                lower.extend(word.chars().flat_map(char::to_lowercase));
                let id = match ids.get(lower.as_str()) {
                    Some(&id) => id,
                    None => {
                        let id = df.len() as u32;
                        ids.insert(lower.clone(), id);
                        df.push(0);
                        id
                    }
                };
                bag.push(id);
            }
            bag.sort_unstable();
            let mut tf: Vec<(u32, u32)> = Vec::new();
            for id in bag {
                match tf.last_mut() {
                    Some((last, n)) if *last == id => *n += 1,
                    _ => {
                        tf.push((id, 1));
                        df[id as usize] += 1;
                    }
                }
            }
            counts.push(tf);
        }
        let n = texts.len() as f64;
        let idf: Vec<f64> = df
            .iter()
            .map(|&d| ((1.0 + n) / (1.0 + d as f64)).ln() + 1.0)
            .collect();
        Ok(counts
            .into_iter()
            .map(|tf| {
                Vector::Sparse(
                    tf.into_iter()
                        .map(|(id, count)| (id, count as f64 * idf[id as usize]))
                        .collect(),
                )
            })
            .collect())
    }
}

/// A static embedding model: one vector per word, a text's vector the mean of
/// its known words' vectors (exactly, or else lowercased). No context, so a
/// word means the same everywhere. A text with no known word gets the zero
/// vector, whose cosine similarity `SemanticChunker` takes as 0.
#[derive(Clone)]
pub struct StaticModel {
    name: String,
    dims: usize,
    index: HashMap<String, u32>,
    values: Vec<f32>,
    /// Set for a model2vec model: its tokenizer replaces `index`.
    tokens: Option<Box<TokenModel>>,
}

impl fmt::Debug for StaticModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StaticModel")
            .field("name", &self.name)
            .field("dims", &self.dims)
            .field("words", &self.words())
            .finish()
    }
}

impl StaticModel {
    /// Reads word vectors in the GloVe text format (`word v1 … vD` a line) or
    /// fastText's `.vec` (the same, after a `count dims` header). A word seen
    /// twice keeps its first vector. `name` is what the report calls it.
    pub fn from_text(name: &str, bytes: &[u8]) -> Result<StaticModel, ModelError> {
        if bytes.len() > MAX_MODEL_BYTES {
            return Err(ModelError::TooBig { bytes: bytes.len() });
        }
        let text = std::str::from_utf8(bytes).map_err(|e| ModelError::NotText {
            line: 1 + bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count(),
        })?;
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty());
        let mut dims = 0;
        let mut promised = None;
        let mut model = StaticModel {
            name: name.to_string(),
            dims: 0,
            index: HashMap::new(),
            values: Vec::new(),
            tokens: None,
        };
        let mut first = lines.next();
        if let Some((_, line)) = first {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if let [count, d] = fields[..] {
                if let (Ok(count), Ok(d)) = (count.parse::<usize>(), d.parse::<usize>()) {
                    check_dims(d)?;
                    dims = d;
                    promised = Some(count);
                    first = lines.next();
                }
            }
        }
        let mut found = 0;
        for (i, line) in first.into_iter().chain(lines) {
            let line_no = i + 1;
            let mut fields = line.split_whitespace();
            let word = fields.next().unwrap_or_default();
            let start = model.values.len();
            for value in fields {
                let x: f32 = value
                    .parse()
                    .ok()
                    .filter(|x: &f32| x.is_finite())
                    .ok_or_else(|| ModelError::BadNumber {
                        line: line_no,
                        value: value.chars().take(40).collect(),
                    })?;
                model.values.push(x);
            }
            let got = model.values.len() - start;
            if dims == 0 {
                check_dims(got)?;
                dims = got;
            }
            if got != dims {
                return Err(ModelError::WrongDimension {
                    line: line_no,
                    expected: dims,
                    found: got,
                });
            }
            if model.index.contains_key(word) {
                model.values.truncate(start);
            } else {
                model.index.insert(word.to_string(), found as u32);
                found += 1;
            }
        }
        if let Some(expected) = promised {
            if found < expected {
                return Err(ModelError::Truncated { expected, found });
            }
        }
        if found == 0 {
            return Err(ModelError::Empty);
        }
        model.dims = dims;
        Ok(model)
    }

    /// Reads a model2vec model: `model.safetensors` (its `embeddings`
    /// tensor, float32 or float16), `tokenizer.json` and, when there is one,
    /// `config.json` (whose `normalize` and `max_length` it honours as
    /// model2vec does). Each file is checked before the next is read, and
    /// the two must agree on the vocabulary.
    pub fn from_model2vec(
        name: &str,
        safetensors: &[u8],
        tokenizer: &[u8],
        config: Option<&[u8]>,
    ) -> Result<StaticModel, ModelError> {
        for bytes in [safetensors, tokenizer, config.unwrap_or_default()] {
            if bytes.len() > MAX_MODEL_BYTES {
                return Err(ModelError::TooBig { bytes: bytes.len() });
            }
        }
        let (rows, dims, values, dtype) = model2vec::read_safetensors(safetensors)?;
        let tokens = model2vec::read_tokens(rows, dtype, tokenizer, config)?;
        Ok(StaticModel {
            name: name.to_string(),
            dims,
            index: HashMap::new(),
            values,
            tokens: Some(Box::new(tokens)),
        })
    }

    /// `model2vec` (a tokenizer and a token table) or `word vectors` (a
    /// GloVe or fastText text file).
    pub fn format(&self) -> &'static str {
        if self.tokens.is_some() {
            "model2vec"
        } else {
            "word vectors"
        }
    }

    /// For a model2vec model, the token ids a text's vector averages: after
    /// the cut to `max_length` tokens, unknown tokens dropped (what
    /// `StaticModel.tokenize` gives for the text `encode` reads). `None` for
    /// word vectors.
    pub fn token_ids(&self, text: &str) -> Option<Vec<u32>> {
        let t = self.tokens.as_ref()?;
        let mut ids = Vec::new();
        t.ids(text, &mut ids);
        Some(ids)
    }

    /// How many dimensions its vectors have.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// How many words (or, for a model2vec model, tokens) it knows.
    pub fn words(&self) -> usize {
        match &self.tokens {
            Some(t) => t.tokenizer.tokens().len(),
            None => self.index.len(),
        }
    }

    fn vector(&self, word: &str) -> Option<&[f32]> {
        let id = match self.index.get(word) {
            Some(&id) => id,
            None => *self.index.get(word.to_lowercase().as_str())?,
        } as usize;
        Some(&self.values[id * self.dims..(id + 1) * self.dims])
    }
}

fn check_dims(dims: usize) -> Result<(), ModelError> {
    if dims == 0 || dims > MAX_DIMS {
        return Err(ModelError::BadDimension { dims });
    }
    Ok(())
}

impl Embedder for StaticModel {
    fn name(&self) -> String {
        match &self.tokens {
            Some(t) => format!(
                "static model {} (model2vec, {} {} tokens, {} dimensions)",
                self.name,
                t.tokenizer.tokens().len(),
                t.tokenizer.kind,
                self.dims
            ),
            None => format!(
                "static model {} ({} words, {} dimensions)",
                self.name,
                self.index.len(),
                self.dims
            ),
        }
    }

    fn embed(&self, texts: &[String]) -> Result<Vec<Vector>, Error> {
        if let Some(t) = &self.tokens {
            let mut ids = Vec::new();
            let mut out = vec![0f32; self.dims];
            return Ok(texts
                .iter()
                .map(|text| {
                    t.encode(&self.values, self.dims, text, &mut ids, &mut out);
                    Vector::Dense(out.iter().map(|&x| f64::from(x)).collect())
                })
                .collect());
        }
        Ok(texts
            .iter()
            .map(|text| {
                let mut sum = vec![0.0f64; self.dims];
                let mut known = 0usize;
                for word in words(text) {
                    if let Some(v) = self.vector(word) {
                        known += 1;
                        for (s, &x) in sum.iter_mut().zip(v) {
                            *s += f64::from(x);
                        }
                    }
                }
                if known > 0 {
                    for s in &mut sum {
                        *s /= known as f64;
                    }
                }
                Vector::Dense(sum)
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_alphanumeric_runs_and_single_marks() {
        let w: Vec<&str> = words("Hi, Dr. Ünal — 3.14!").collect();
        assert_eq!(w, ["Hi", ",", "Dr", ".", "Ünal", "—", "3", ".", "14", "!"]);
    }

    #[test]
    fn lexical_vectors_weigh_rare_words() {
        let texts = ["a cat".to_string(), "a dog".to_string()];
        let v = Lexical.embed(&texts).unwrap();
        // "a" is in both groups: idf 1; "cat" and "dog" in one: ln(3/2) + 1.
        let rare = (3.0f64 / 2.0).ln() + 1.0;
        assert_eq!(v[0], Vector::Sparse(vec![(0, 1.0), (1, rare)]));
        assert_eq!(v[1], Vector::Sparse(vec![(0, 1.0), (2, rare)]));
    }

    #[test]
    fn models_load_from_glove_and_fasttext_text() {
        let glove = StaticModel::from_text("g", b"cat 1 0\ndog 0.5 0.5\n").unwrap();
        assert_eq!((glove.dims(), glove.words()), (2, 2));
        let v = glove.embed(&["Cat dog unknown".into()]).unwrap();
        assert_eq!(v[0], Vector::Dense(vec![0.75, 0.25]));
        let vec = StaticModel::from_text("f", b"2 3\nthe 1 2 3\nThe 4 5 6\n").unwrap();
        assert_eq!((vec.dims(), vec.words()), (3, 2));
    }

    #[test]
    fn bad_models_are_refused_with_where_and_what() {
        let e = |b: &[u8]| StaticModel::from_text("m", b).unwrap_err();
        assert_eq!(e(b""), ModelError::Empty);
        assert_eq!(e(b"\n\n"), ModelError::Empty);
        assert_eq!(
            e(b"a 1 2\nb 1\n"),
            ModelError::WrongDimension {
                line: 2,
                expected: 2,
                found: 1
            }
        );
        assert_eq!(
            e(b"3 2\na 1 2\nb 1 2\n"),
            ModelError::Truncated {
                expected: 3,
                found: 2
            }
        );
        assert!(matches!(
            e(b"a 1 x\n"),
            ModelError::BadNumber { line: 1, .. }
        ));
        assert!(matches!(e(b"a 1 inf\n"), ModelError::BadNumber { .. }));
        assert!(matches!(
            e(b"a 1\nb \xff\n"),
            ModelError::NotText { line: 2 }
        ));
        assert_eq!(e(b"word\n"), ModelError::BadDimension { dims: 0 });
        assert_eq!(e(b"2 0\n"), ModelError::BadDimension { dims: 0 });
        for err in [e(b""), e(b"a 1 2\nb 1\n")] {
            assert!(!err.to_string().is_empty());
        }
    }
}
