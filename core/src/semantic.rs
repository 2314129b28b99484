//! Semantic chunking: LangChain's `SemanticChunker` (`langchain-experimental`
//! 0.4.2), reproduced exactly given the same vectors, with our size limit on
//! top.
//!
//! # The algorithm, as `SemanticChunker.split_text` runs it
//!
//! 1. **Sentences**: `re.split(r"(?<=[.?!])\s+", text)`: a cut at every run of
//!    whitespace (Python's `\s`, [`crate::is_space`]'s rule) that follows `.`,
//!    `?` or `!`. The whitespace is dropped; whitespace before the first
//!    sentence stays in it, and trailing whitespace after a full stop leaves
//!    an empty last sentence. One sentence: that is the only chunk. Two with
//!    the `gradient` threshold: each is a chunk (NumPy's gradient needs two
//!    distances).
//! 2. **Groups**: sentence `i` with `buffer` sentences either side, joined
//!    with `" "`; one group per sentence, all embedded in one call.
//! 3. **Distances**: `1 − cosine similarity` between neighbouring groups (a
//!    similarity that is not finite, as with a zero vector, counts as 0).
//! 4. **Threshold** ([`Breakpoint`]): the `amount`-th percentile of the
//!    distances; their mean plus `amount` standard deviations; their mean
//!    plus `amount` interquartile ranges; or the `amount`-th percentile of
//!    the distances' gradient, which is then what is compared. With
//!    `number_of_chunks`, the percentile `100 · (count − k) / (count − 1)`
//!    of the distances instead, whatever the kind. NumPy's arithmetic is
//!    reproduced bit for bit (see `numpy.rs`).
//! 5. **Breakpoints**: every index whose value is strictly above the
//!    threshold (`indices_above_thresh`). A chunk is the sentences up to and
//!    including a breakpoint, joined with `" "`; with `min_chunk_size`, a
//!    chunk shorter than that (in chars) is not closed there and runs on to
//!    the next breakpoint. The sentences after the last one are the last
//!    chunk.
//!
//! # What we add
//!
//! - **Spans.** A chunk is sentences joined with one space, so its text is
//!   not a slice wherever the source had other whitespace between them. Each
//!   chunk's span runs from its first sentence's start to its last's end;
//!   [`SemanticChunk::text`] holds LangChain's string where it differs.
//! - **The size limit.** A semantic chunk whose span is longer than `size`
//!   is split by the recursive engine (the configuration's separators,
//!   placement and trim), and the trace says so ([`SemanticChunk::fallback`],
//!   and the recursive nodes). With a large enough `size` the chunks are
//!   exactly LangChain's.
//! - **The empty text** gives no chunks, as every engine here; LangChain
//!   returns `[""]`.
//!
//! # Embedders
//!
//! [`Lexical`] (TF-IDF over the document's own groups) needs no model and is
//! lexical similarity, not meaning. [`StaticModel`] reads word vectors the
//! user provides. Any [`Embedder`] can be held in the caller's
//! [`Resources`](crate::Resources) under a name the configuration gives
//! ([`EmbedderChoice::Named`]).

pub use crate::config::semantic::SemanticConfig;
pub use crate::embed::{Embedder, EmbedderChoice, Lexical, StaticModel, Vector};
pub use crate::error::semantic::{ModelError, SemanticError, MAX_DIMS, MAX_MODEL_BYTES};
pub use crate::strategy::Breakpoint;
pub use crate::trace::semantic::{SemanticChunk, SemanticTrace};

use crate::config::Config;
use crate::embed::numpy;
use crate::engine::Run;
use crate::error::Error;
use crate::recursive;
use crate::separator::Matcher;
use crate::span::{is_space, Span};
use crate::trace::{Chunk, Cut, Output, Trace};
use crate::unit::{Counter, Measure};
use std::sync::Arc;

/// Splits `text` into sentences as `re.split(r"(?<=[.?!])\s+", text)` does.
pub fn sentences(text: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut prev = None;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if is_space(c) && matches!(prev, Some('.' | '?' | '!')) {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if !is_space(d) {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            out.push(Span::new(start, i));
            start = end;
            prev = None;
            continue;
        }
        prev = Some(c);
    }
    out.push(Span::new(start, text.len()));
    out
}

/// The texts `SemanticChunker` embeds: sentence `i` with `buffer` sentences
/// either side, joined with one space.
pub fn groups(text: &str, sentences: &[Span], buffer: usize) -> Vec<String> {
    let n = sentences.len();
    (0..n)
        .map(|i| {
            let lo = i.saturating_sub(buffer);
            let hi = i.saturating_add(buffer).min(n - 1);
            join(text, &sentences[lo..=hi])
        })
        .collect()
}

fn join(text: &str, sentences: &[Span]) -> String {
    let mut out = String::new();
    for (k, s) in sentences.iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        out.push_str(s.text(text));
    }
    out
}

/// `‖v‖` as `np.linalg.norm` computes it: the root of the pairwise sum of
/// the squares (`scratch` is reused between calls).
fn norm(v: &Vector, scratch: &mut Vec<f64>) -> f64 {
    scratch.clear();
    match v {
        Vector::Dense(v) => scratch.extend(v.iter().map(|x| x * x)),
        Vector::Sparse(v) => scratch.extend(v.iter().map(|(_, x)| x * x)),
    }
    numpy::sum(scratch).sqrt()
}

/// `1 − cosine similarity`, as `langchain_community`'s NumPy fallback
/// computes it: `dot / (‖a‖ · ‖b‖)`, a result that is not finite taken as 0.
fn distance(a: &Vector, b: &Vector, norm_a: f64, norm_b: f64) -> f64 {
    let dot = match (a, b) {
        (Vector::Dense(a), Vector::Dense(b)) => a.iter().zip(b).fold(0.0, |s, (x, y)| s + x * y),
        (Vector::Sparse(a), Vector::Sparse(b)) => {
            let (mut i, mut j, mut s) = (0, 0, 0.0);
            while i < a.len() && j < b.len() {
                match a[i].0.cmp(&b[j].0) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => {
                        s += a[i].1 * b[j].1;
                        i += 1;
                        j += 1;
                    }
                }
            }
            s
        }
        (Vector::Sparse(s), Vector::Dense(d)) | (Vector::Dense(d), Vector::Sparse(s)) => s
            .iter()
            .map(|&(i, x)| x * d.get(i as usize).copied().unwrap_or(0.0))
            .sum(),
    };
    let similarity = dot / (norm_a * norm_b);
    1.0 - if similarity.is_finite() {
        similarity
    } else {
        0.0
    }
}

/// Checks the embedder's answer: one finite vector per text, one dimension.
fn check_vectors(vectors: &[Vector], texts: usize) -> Result<usize, SemanticError> {
    let bad = |reason: String| Err(SemanticError::Embedder { reason });
    if vectors.len() != texts {
        return bad(format!(
            "it gave {} vectors for {texts} texts",
            vectors.len()
        ));
    }
    let mut dims = None;
    for (i, v) in vectors.iter().enumerate() {
        let (len, finite) = match v {
            Vector::Dense(v) => (Some(v.len()), v.iter().all(|x| x.is_finite())),
            Vector::Sparse(v) => (None, v.iter().all(|(_, x)| x.is_finite())),
        };
        if !finite {
            return bad(format!(
                "vector {i} has a value that is not a finite number"
            ));
        }
        if let Some(len) = len {
            match dims {
                None => dims = Some(len),
                Some(d) if d != len => {
                    return bad(format!(
                        "vector {i} has {len} dimensions where vector 0 has {d}"
                    ))
                }
                _ => {}
            }
        }
    }
    let sparse_dims = vectors
        .iter()
        .filter_map(|v| match v {
            Vector::Sparse(v) => v.last().map(|&(i, _)| i as usize + 1),
            Vector::Dense(_) => None,
        })
        .max();
    Ok(dims.or(sparse_dims).unwrap_or(0))
}

/// `SemanticChunker.split_text` on `text`: LangChain's chunks (spans and
/// texts) with everything that led to them. No size limit; `chunks` in each
/// [`SemanticChunk`] is left `(0, 0)`.
///
/// `embedder` makes the vectors; `settings.embedder` only names it.
pub fn langchain_chunks(
    text: &str,
    settings: &SemanticConfig,
    embedder: &dyn Embedder,
) -> Result<SemanticTrace, Error> {
    settings.validate()?;
    let sentences = sentences(text);
    let n = sentences.len();
    let mut trace = SemanticTrace {
        embedder: embedder.name(),
        ..SemanticTrace::default()
    };
    let whole = |range: (usize, usize), start_index| {
        let span = Span::new(sentences[range.0].start, sentences[range.1 - 1].end);
        SemanticChunk {
            sentences: range,
            span,
            text: None,
            chars: span.text(text).chars().count(),
            start_index,
            chunks: (0, 0),
            fallback: false,
        }
    };
    if n == 1 {
        trace.chunks.push(whole((0, 1), 0));
        trace.sentences = sentences;
        return Ok(trace);
    }
    if n == 2 && settings.breakpoint == Breakpoint::Gradient {
        let first = whole((0, 1), 0);
        let start = first.chars;
        trace.chunks = vec![first, whole((1, 2), start)];
        trace.sentences = sentences;
        return Ok(trace);
    }
    let texts = groups(text, &sentences, settings.buffer);
    let vectors = embedder.embed(&texts)?;
    trace.dims = check_vectors(&vectors, texts.len())?;
    trace.embedding_calls = 1;
    trace.vectors = vectors.len();
    drop(texts);
    let mut scratch = Vec::new();
    let norms: Vec<f64> = vectors.iter().map(|v| norm(v, &mut scratch)).collect();
    let distances: Vec<f64> = (1..vectors.len())
        .map(|i| distance(&vectors[i - 1], &vectors[i], norms[i - 1], norms[i]))
        .collect();
    drop(vectors);
    let amount = settings.amount();
    let threshold = match settings.number_of_chunks {
        Some(k) => {
            let count = distances.len();
            let x = k.min(count).max(1);
            let y = if count == 1 {
                100.0
            } else {
                0.0 + (100.0 / (1.0 - count as f64)) * (x as f64 - count as f64)
            };
            numpy::percentile(&distances, y.clamp(0.0, 100.0))
        }
        None => match settings.breakpoint {
            Breakpoint::Percentile => numpy::percentile(&distances, amount),
            Breakpoint::StandardDeviation => {
                numpy::mean(&distances) + amount * numpy::std(&distances)
            }
            Breakpoint::Interquartile => {
                let mut sorted = distances.clone();
                sorted.sort_by(f64::total_cmp);
                let q1 = numpy::percentile_sorted(&sorted, 25.0);
                let q3 = numpy::percentile_sorted(&sorted, 75.0);
                numpy::mean(&distances) + amount * (q3 - q1)
            }
            Breakpoint::Gradient => {
                let gradient = numpy::gradient(&distances);
                let threshold = numpy::percentile(&gradient, amount);
                trace.gradient = Some(gradient);
                threshold
            }
        },
    };
    let compared = trace.gradient.as_deref().unwrap_or(&distances);
    trace.breakpoints = compared
        .iter()
        .enumerate()
        .filter(|&(_, &x)| x > threshold)
        .map(|(i, _)| i)
        .collect();
    trace.threshold = Some(threshold);
    trace.distances = distances;

    let chars: Vec<usize> = sentences
        .iter()
        .map(|s| s.text(text).chars().count())
        .collect();
    let mut start = 0;
    let mut start_index = 0;
    let mut close = |first: usize, last: usize, chunks: &mut Vec<SemanticChunk>| {
        let range = &sentences[first..last];
        let span = Span::new(range[0].start, range[range.len() - 1].end);
        let joined_len = chars[first..last].iter().sum::<usize>() + (last - first - 1);
        let is_slice = range.windows(2).all(|w| &text[w[0].end..w[1].start] == " ");
        chunks.push(SemanticChunk {
            sentences: (first, last),
            span,
            text: (!is_slice).then(|| join(text, range)),
            chars: joined_len,
            start_index,
            chunks: (0, 0),
            fallback: false,
        });
        start_index += joined_len;
    };
    let mut chunks = Vec::new();
    for &index in &trace.breakpoints {
        let joined_len = chars[start..=index].iter().sum::<usize>() + (index - start);
        if settings.min_chunk_size.is_some_and(|m| joined_len < m) {
            continue;
        }
        close(start, index + 1, &mut chunks);
        start = index + 1;
    }
    if start < n {
        close(start, n, &mut chunks);
    }
    trace.chunks = chunks;
    trace.sentences = sentences;
    Ok(trace)
}

/// The semantic strategy compiled: the embedder its configuration names, and
/// the separators its size fallback splits with.
#[derive(Clone, Debug)]
pub(crate) struct SemanticEngine {
    matchers: Vec<Matcher>,
    /// `SemanticChunker`'s arguments and the embedder's name.
    pub(crate) settings: SemanticConfig,
    /// `None` only for a configuration being checked, never split (see
    /// `Config::compile`).
    pub(crate) embedder: Option<Arc<dyn Embedder>>,
}

impl SemanticEngine {
    /// The engine for `config`'s checked settings, its embedder not yet
    /// resolved.
    pub(crate) fn new(config: &Config, settings: &SemanticConfig) -> Result<SemanticEngine, Error> {
        settings.validate()?;
        if config.overlap > 0 {
            return Err(SemanticError::Overlap {
                overlap: config.overlap,
            }
            .into());
        }
        Ok(SemanticEngine {
            matchers: config.matchers()?,
            settings: settings.clone(),
            embedder: None,
        })
    }
}

impl crate::engine::Engine for SemanticEngine {
    fn split(
        &self,
        text: &str,
        config: &Config,
        counter: Counter,
        record: bool,
    ) -> Result<crate::engine::EngineOutput, Error> {
        let embedder = self
            .embedder
            .as_deref()
            .expect("a splitter's engine is compiled with its resources");
        let mut semantic = langchain_chunks(text, &self.settings, embedder)?;
        let mut output = Output::default();
        let measure = Measure::new(counter, text);
        let last = semantic.chunks.len().saturating_sub(1);
        for (g, group) in semantic.chunks.iter_mut().enumerate() {
            let first = output.chunks.len();
            let len = measure.len(group.span);
            if group.span.is_empty() {
                // LangChain's "" after trailing whitespace: no chunk, as an
                // empty piece is none in every engine.
            } else if len <= config.size {
                output.chunks.push(Chunk {
                    index: first,
                    span: group.span,
                    len,
                    cut: Cut::Breakpoint,
                    overlap: None,
                    node: None,
                });
            } else {
                group.fallback = true;
                fallback(
                    text,
                    group.span,
                    config,
                    counter,
                    &self.matchers,
                    record,
                    &mut output,
                )?;
            }
            if g == last {
                if let Some(c) = output.chunks.last_mut() {
                    c.cut = Cut::End;
                }
            } else if output.chunks.len() > first {
                if let Some(c) = output.chunks.last_mut() {
                    c.cut = Cut::Breakpoint;
                }
            }
            group.chunks = (first, output.chunks.len());
        }
        // Kept without a trace too: it holds LangChain's chunk texts, which
        // every report gives.
        output.trace.semantic = Some(Box::new(semantic));
        Ok(output.into())
    }

    fn boxed(&self) -> Box<dyn crate::engine::Engine> {
        Box::new(self.clone())
    }
}

/// Splits the too-long chunk at `span` with the recursive engine, and appends
/// its chunks and trace nodes (moved to the source's offsets) to `output`.
fn fallback(
    text: &str,
    span: Span,
    config: &Config,
    counter: Counter,
    matchers: &[Matcher],
    record: bool,
    output: &mut Output,
) -> Result<(), Error> {
    let piece = span.text(text);
    let (_, gaps) = crate::engine::sentences_for(matchers, piece, false);
    let mut run = Run::new(piece, config, counter, matchers, &gaps, record);
    recursive::split(&mut run).map_err(|e| match e {
        // A character too big for the size: say where it is in the source.
        Error::CharTooBig { .. } | Error::CharTooManyTokens { .. } => {
            let at = piece
                .char_indices()
                .map(|(i, _)| i)
                .find(|&i| {
                    let ch_len = piece[i..].chars().next().map_or(0, char::len_utf8);
                    counter.len(&piece[i..i + ch_len]) > config.size
                })
                .unwrap_or(0);
            Run::new(text, config, counter, matchers, &[], false)
                .char_too_big(span.start + at, config.size)
        }
        other => other,
    })?;
    let (chunk_base, node_base) = (output.chunks.len(), output.trace.nodes.len());
    let shift = |s: Span| Span::new(s.start + span.start, s.end + span.start);
    for mut chunk in run.chunks {
        chunk.index += chunk_base;
        chunk.span = shift(chunk.span);
        chunk.overlap = chunk.overlap.map(shift);
        chunk.node = chunk.node.map(|n| n + node_base);
        output.chunks.push(chunk);
    }
    let Trace { nodes, .. } = run.tree.finish();
    for mut node in nodes {
        node.span = shift(node.span);
        node.parent = node.parent.map(|p| p + node_base);
        for c in &mut node.children {
            *c += node_base;
        }
        node.chunk = node.chunk.map(|c| c + chunk_base);
        output.trace.nodes.push(node);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str, spans: &[Span]) -> Vec<String> {
        spans.iter().map(|s| s.text(text).to_string()).collect()
    }

    #[test]
    fn sentences_split_as_python_re_split() {
        let t = " One. Two?\n\nThree!Four.  ";
        assert_eq!(
            texts(t, &sentences(t)),
            [" One.", "Two?", "Three!Four.", ""]
        );
        assert_eq!(texts("", &sentences("")), [""]);
        assert_eq!(texts("a.\u{2003}b", &sentences("a.\u{2003}b")), ["a.", "b"]);
        assert_eq!(texts("no end", &sentences("no end")), ["no end"]);
        assert_eq!(texts("...", &sentences("...")), ["..."]);
    }

    #[test]
    fn groups_join_neighbours_with_one_space() {
        let t = "A. B.\nC. D.";
        let s = sentences(t);
        assert_eq!(groups(t, &s, 1), ["A. B.", "A. B. C.", "B. C. D.", "C. D."]);
        assert_eq!(groups(t, &s, 0), ["A.", "B.", "C.", "D."]);
        assert_eq!(groups(t, &s, usize::MAX).len(), 4);
    }

    #[test]
    fn amounts_are_checked_as_numpy_checks_percentiles() {
        let c = |b, a| SemanticConfig::new().with_breakpoint(b, Some(a)).validate();
        assert!(c(Breakpoint::Percentile, 100.0).is_ok());
        assert!(c(Breakpoint::Percentile, 100.5).is_err());
        assert!(c(Breakpoint::Gradient, -1.0).is_err());
        assert!(c(Breakpoint::StandardDeviation, -1.0).is_ok());
        assert!(c(Breakpoint::Interquartile, f64::NAN).is_err());
        let e = c(Breakpoint::Percentile, 120.0).unwrap_err();
        assert!(e.to_string().contains("0 to 100"), "{e}");
    }
}
