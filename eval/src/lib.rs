//! Which chunking retrieves best, measured.
//!
//! A configuration is judged by what a retriever finds with its chunks: for
//! each question with highlighted answer excerpts, the top-k chunks are
//! retrieved ([`bm25`]) and scored by characters against the excerpts
//! ([`metrics`]), as Chroma's report "Evaluating Chunking Strategies for
//! Retrieval" defines recall, precision and IoU. Two measures of the chunking
//! alone come with them: whether each answer lies whole inside one chunk, and
//! how many chunks it is cut into.
//!
//! Everything here works on char offsets (Unicode scalar values, as the
//! engine's reports and the questions files count them), knows nothing of
//! how the chunks were made, and needs no model and no server.
//!
//! ```
//! use chunkscope_eval::{evaluate, Corpus, Document, Question};
//! let text = "Refunds take 5 days. COD orders get store credit.";
//! let corpus = Corpus {
//!     documents: vec![Document {
//!         name: "refund.txt".into(),
//!         text: text.into(),
//!         chunks: vec![(0, 20), (21, 49)],
//!         units: vec![20, 28],
//!     }],
//! };
//! let question = Question {
//!     question: "How long do refunds take?".into(),
//!     doc: "refund.txt".into(),
//!     answers: vec![(13, 19)], // "5 days"
//! };
//! let result = evaluate(&corpus, &[question], 1).unwrap();
//! assert_eq!(result.questions[0].retrieved[0].chunk, 0);
//! assert_eq!(result.mean.recall, 1.0);
//! assert_eq!(result.mean.precision, 6.0 / 20.0);
//! # Ok::<(), String>(())
//! ```

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod bm25;
pub mod compare;
pub mod dense;
pub mod metrics;
pub mod questions;
pub mod ranges;

pub use bm25::Bm25;
pub use metrics::Scores;
pub use questions::{parse_questions, Question, QuestionsError};

use serde::Serialize;

/// The `k` best of `scored` (chunk, score) pairs, best first; ties go to the
/// earlier chunk, so a ranking never depends on the order of a sort.
pub(crate) fn top_k(scored: impl Iterator<Item = (usize, f64)>, k: usize) -> Vec<(usize, f64)> {
    let mut ranked: Vec<(usize, f64)> = scored.collect();
    ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    ranked.truncate(k);
    ranked
}

/// One document of a corpus with the chunks a configuration made of it.
///
/// Invariant: every chunk is a half-open char range inside `text`, and
/// `units[i]` is chunk `i`'s length in the configuration's unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// The name questions refer to it by (a file name).
    pub name: String,
    /// The text.
    pub text: String,
    /// The chunks, as char ranges of `text`.
    pub chunks: Vec<(usize, usize)>,
    /// Each chunk's length in the configuration's unit.
    pub units: Vec<usize>,
}

/// The documents, each with its chunks. No chunk spans two documents: each
/// belongs to exactly one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Corpus {
    /// The documents, in the order given.
    pub documents: Vec<Document>,
}

impl Corpus {
    /// The document a question names: by its exact name, else by the last
    /// component of a path (`docs/refund.txt` answers to `refund.txt`) when
    /// that is unambiguous.
    pub fn find(&self, name: &str) -> Result<usize, String> {
        find_document(self, name)
    }
}

/// A chunk of the corpus, by its document and its index there.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Retrieved {
    /// The document's index in the corpus.
    pub doc: usize,
    /// The chunk's index in its document.
    pub chunk: usize,
    /// Its char range in the document.
    pub start: usize,
    /// End of the char range (exclusive).
    pub end: usize,
    /// The retriever's score.
    pub score: f64,
}

/// One question's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QuestionResult {
    /// The question.
    pub question: String,
    /// Its document's name.
    pub doc: String,
    /// The chunks retrieved, best first (at most k).
    pub retrieved: Vec<Retrieved>,
    /// Recall, precision and IoU of the retrieved chunks.
    #[serde(flatten)]
    pub scores: Scores,
    /// Share of the question's answers that lie inside one chunk of their
    /// document (any chunk, retrieved or not): a property of the chunking.
    pub whole: f64,
    /// How many chunks of the document each answer intersects, on average
    /// (1 for an answer inside one chunk with no overlap).
    pub fragments: f64,
}

/// Means over the questions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Means {
    /// Mean recall.
    pub recall: f64,
    /// Mean precision.
    pub precision: f64,
    /// Mean IoU.
    pub iou: f64,
    /// Mean share of answers whole inside one chunk.
    pub whole: f64,
    /// Mean number of chunks an answer is cut into.
    pub fragments: f64,
}

/// What indexing the corpus costs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct IndexCost {
    /// Chunks to embed.
    pub chunks: usize,
    /// Units embedded: the chunks' lengths summed, overlap counted as often
    /// as it is repeated.
    pub units: usize,
    /// The longest chunk's length in units: with it, a configuration whose
    /// chunks outgrow its size does not pass for a cheap index.
    pub longest: usize,
}

/// A configuration's evaluation on a corpus.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Evaluation {
    /// Per question, in the order given.
    pub questions: Vec<QuestionResult>,
    /// Means over the questions (all 0 without questions).
    pub mean: Means,
    /// The index's cost.
    pub index: IndexCost,
    /// How many chunks were retrieved per question at most.
    pub top_k: usize,
    /// The retriever's parameters.
    pub retriever: Bm25,
    /// The static model that retrieved instead of BM25 (by cosine of the
    /// question's vector with each chunk's), by name; absent for BM25.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// Retrieves the top `top_k` chunks of `corpus` for every question with
/// [`Bm25::default`] and scores them.
///
/// Errors (a message saying what to change): `top_k` of 0, a question naming
/// no document of the corpus, an answer outside its document, or a document
/// whose chunks are not inside it.
pub fn evaluate(
    corpus: &Corpus,
    questions: &[Question],
    top_k: usize,
) -> Result<Evaluation, String> {
    evaluate_with(corpus, questions, top_k, Bm25::default())
}

/// [`evaluate`] with a retriever's parameters of one's own.
pub fn evaluate_with(
    corpus: &Corpus,
    questions: &[Question],
    top_k: usize,
    retriever: Bm25,
) -> Result<Evaluation, String> {
    run(corpus, questions, top_k, retriever, None)
}

/// [`evaluate`], retrieving by vectors instead of BM25: `embed` gives the
/// vectors of texts (all of one dimension), and is called twice, once with
/// every chunk's text (the corpus's chunks in order) and once with every
/// question. Chunks are ranked by cosine similarity ([`dense::search`]).
/// `model` is the embedder's name, reported in [`Evaluation::model`].
pub fn evaluate_dense(
    corpus: &Corpus,
    questions: &[Question],
    top_k: usize,
    model: &str,
    embed: &Embed<'_>,
) -> Result<Evaluation, String> {
    run(
        corpus,
        questions,
        top_k,
        Bm25::default(),
        Some((model, embed)),
    )
}

/// What [`evaluate_dense`] embeds with: texts in, one vector each out.
pub type Embed<'a> = dyn Fn(&[&str]) -> Result<Vec<Vec<f64>>, String> + 'a;

/// The embedder of [`evaluate_dense`], by name.
type Dense<'a> = (&'a str, &'a Embed<'a>);

fn run(
    corpus: &Corpus,
    questions: &[Question],
    top_k: usize,
    retriever: Bm25,
    dense: Option<Dense>,
) -> Result<Evaluation, String> {
    if top_k == 0 {
        return Err(
            "top-k must be at least 1: no chunk retrieved scores 0 on every question".into(),
        );
    }
    let lengths: Vec<usize> = corpus
        .documents
        .iter()
        .map(|d| d.text.chars().count())
        .collect();
    for (d, &len) in corpus.documents.iter().zip(&lengths) {
        if d.units.len() != d.chunks.len() {
            return Err(format!(
                "{}: {} chunks but {} lengths",
                d.name,
                d.chunks.len(),
                d.units.len()
            ));
        }
        if let Some(&(s, e)) = d.chunks.iter().find(|&&(s, e)| s > e || e > len) {
            return Err(format!(
                "{}: chunk {s}..{e} is outside the document ({len} chars)",
                d.name
            ));
        }
    }
    let docs: Vec<usize> = questions
        .iter()
        .map(|q| {
            let doc = find_document(corpus, &q.doc)?;
            questions::check_answers(q, lengths[doc])?;
            Ok(doc)
        })
        .collect::<Result<_, String>>()?;

    // Indexed for the questions' terms only: the same scores for them as a
    // full index, for a fraction of the work (a sweep indexes the corpus 45 times).
    let texts: Vec<&str> = corpus
        .documents
        .iter()
        .flat_map(|d| {
            let chars = CharSlicer::new(&d.text);
            d.chunks
                .iter()
                .map(move |&(s, e)| chars.slice(s, e))
                .collect::<Vec<_>>()
        })
        .collect();
    let queries: Vec<&str> = questions.iter().map(|q| q.question.as_str()).collect();
    let model_name = dense.map(|(name, _)| name.to_string());
    let search: Box<dyn Fn(usize) -> Vec<(usize, f64)>> = match dense {
        None => {
            let index = bm25::Index::for_queries(texts, &queries, retriever);
            Box::new(move |q| index.search(queries[q], top_k))
        }
        Some((_, embed)) => {
            let chunk_vectors = embed(&texts)?;
            let question_vectors = embed(&queries)?;
            if chunk_vectors.len() != texts.len() || question_vectors.len() != queries.len() {
                return Err("the model gave a vector count that is not the text count".into());
            }
            Box::new(move |q| dense::search(&chunk_vectors, &question_vectors[q], top_k))
        }
    };
    // The flat chunk number of each document's first chunk.
    let firsts: Vec<usize> = corpus
        .documents
        .iter()
        .scan(0, |n, d| {
            let first = *n;
            *n += d.chunks.len();
            Some(first)
        })
        .collect();
    let locate = |flat: usize| {
        let doc = firsts.partition_point(|&f| f <= flat) - 1;
        (doc, flat - firsts[doc])
    };

    let results: Vec<QuestionResult> = questions
        .iter()
        .zip(&docs)
        .enumerate()
        .map(|(i, (q, &doc))| {
            let retrieved: Vec<Retrieved> = search(i)
                .into_iter()
                .map(|(flat, score)| {
                    let (d, c) = locate(flat);
                    let (start, end) = corpus.documents[d].chunks[c];
                    Retrieved {
                        doc: d,
                        chunk: c,
                        start,
                        end,
                        score,
                    }
                })
                .collect();
            let spans: Vec<metrics::Hit> = retrieved
                .iter()
                .map(|r| metrics::Hit {
                    same_document: r.doc == doc,
                    span: (r.start, r.end),
                })
                .collect();
            let chunks = &corpus.documents[doc].chunks;
            QuestionResult {
                question: q.question.clone(),
                doc: corpus.documents[doc].name.clone(),
                scores: metrics::score(&spans, &q.answers),
                whole: mean(
                    q.answers
                        .iter()
                        .map(|&a| f64::from(u8::from(metrics::whole(chunks, a)))),
                ),
                fragments: mean(
                    q.answers
                        .iter()
                        .map(|&a| metrics::fragments(chunks, a) as f64),
                ),
                retrieved,
            }
        })
        .collect();
    let mean_of = |f: fn(&QuestionResult) -> f64| mean(results.iter().map(f));
    Ok(Evaluation {
        mean: Means {
            recall: mean_of(|r| r.scores.recall),
            precision: mean_of(|r| r.scores.precision),
            iou: mean_of(|r| r.scores.iou),
            whole: mean_of(|r| r.whole),
            fragments: mean_of(|r| r.fragments),
        },
        questions: results,
        index: IndexCost {
            chunks: corpus.documents.iter().map(|d| d.chunks.len()).sum(),
            units: corpus.documents.iter().flat_map(|d| &d.units).sum(),
            longest: corpus
                .documents
                .iter()
                .flat_map(|d| &d.units)
                .copied()
                .max()
                .unwrap_or(0),
        },
        top_k,
        retriever,
        model: model_name,
    })
}

fn find_document(corpus: &Corpus, name: &str) -> Result<usize, String> {
    let docs = &corpus.documents;
    if let Some(i) = docs.iter().position(|d| d.name == name) {
        return Ok(i);
    }
    let base = |s: &str| s.rsplit(['/', '\\']).next().unwrap_or(s).to_string();
    let wanted = base(name);
    let matches: Vec<usize> = (0..docs.len())
        .filter(|&i| base(&docs[i].name) == wanted)
        .collect();
    match matches[..] {
        [i] => Ok(i),
        [] => Err(format!(
            "a question names the document {name:?}, which is not among the {} given",
            docs.len()
        )),
        _ => Err(format!(
            "a question names the document {name:?}, and {} documents have that name: give its path",
            matches.len()
        )),
    }
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 {
        0.0
    } else {
        sum / n as f64
    }
}

/// Slices a string by char offsets in one pass over it.
struct CharSlicer<'a> {
    text: &'a str,
    /// Byte offset of every char, and the text's length last.
    bytes: Vec<usize>,
}

impl<'a> CharSlicer<'a> {
    fn new(text: &'a str) -> Self {
        let mut bytes: Vec<usize> = text.char_indices().map(|(b, _)| b).collect();
        bytes.push(text.len());
        CharSlicer { text, bytes }
    }

    fn slice(&self, start: usize, end: usize) -> &'a str {
        &self.text[self.bytes[start]..self.bytes[end]]
    }
}
