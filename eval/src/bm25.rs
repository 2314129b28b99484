//! BM25, the lexical retriever: no model, deterministic, and the baseline
//! every retrieval paper reports.
//!
//! Terms are lowercased runs of letters and digits; a CJK ideograph, kana
//! or Thai letter is a term on its own (those scripts do not put spaces
//! between words). No stemming and no stop words: what is retrieved follows
//! from the words alone, so a learner can check it by hand.
//!
//! A chunk's score for a question is, over the question's distinct terms
//! `t` the chunk contains,
//! `idf(t) · tf·(k1 + 1) / (tf + k1·(1 − b + b·len/avglen))`, with
//! `idf(t) = ln(1 + (N − n(t) + 0.5) / (n(t) + 0.5))` (never negative),
//! `tf` the term's count in the chunk, `len` the chunk's term count, `N`
//! the number of chunks and `n(t)` how many contain `t`.

use serde::Serialize;
use std::collections::HashMap;

/// The retriever's two parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Bm25 {
    /// Term-frequency saturation.
    pub k1: f64,
    /// Length normalisation (0: none, 1: full).
    pub b: f64,
}

impl Default for Bm25 {
    /// The usual values (Lucene's, Elasticsearch's): k1 = 1.2, b = 0.75.
    fn default() -> Bm25 {
        Bm25 { k1: 1.2, b: 0.75 }
    }
}

/// Whether `c` is a word on its own (scripts written without spaces).
fn stands_alone(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}'   // Hiragana, Katakana
        | '\u{3400}'..='\u{4DBF}' // CJK Extension A
        | '\u{4E00}'..='\u{9FFF}' // CJK Unified Ideographs
        | '\u{F900}'..='\u{FAFF}' // CJK Compatibility Ideographs
        | '\u{0E00}'..='\u{0E7F}' // Thai
        | '\u{20000}'..='\u{2FA1F}')
}

/// The terms of `text`, in order.
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    each_term(text, |t| out.push(t.to_string()));
    out
}

/// Calls `f` with each term of `text`, in order (the terms of [`terms`]),
/// from one reused buffer: indexing a corpus then allocates nothing per word.
fn each_term(text: &str, mut f: impl FnMut(&str)) {
    let mut word = String::new();
    let mut one = [0u8; 4];
    for c in text.chars() {
        if stands_alone(c) {
            if !word.is_empty() {
                f(&word);
                word.clear();
            }
            f(c.encode_utf8(&mut one));
        } else if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        } else if !word.is_empty() {
            f(&word);
            word.clear();
        }
    }
    if !word.is_empty() {
        f(&word);
    }
}

/// An index of chunk texts.
#[derive(Clone, Debug)]
pub struct Index {
    params: Bm25,
    /// For each term, the chunks containing it with its count there.
    postings: HashMap<String, Vec<(usize, u32)>>,
    /// Each chunk's term count.
    lengths: Vec<usize>,
    average: f64,
}

impl Index {
    /// Indexes `chunks` (their position is their number).
    pub fn new(chunks: impl IntoIterator<Item = String>, params: Bm25) -> Index {
        let mut postings: HashMap<String, Vec<(usize, u32)>> = HashMap::new();
        let mut lengths = Vec::new();
        for (i, chunk) in chunks.into_iter().enumerate() {
            let words = terms(&chunk);
            lengths.push(words.len());
            let mut counts: HashMap<String, u32> = HashMap::new();
            for w in words {
                *counts.entry(w).or_default() += 1;
            }
            for (w, n) in counts {
                postings.entry(w).or_default().push((i, n));
            }
        }
        let average = if lengths.is_empty() {
            0.0
        } else {
            lengths.iter().sum::<usize>() as f64 / lengths.len() as f64
        };
        Index {
            params,
            postings,
            lengths,
            average,
        }
    }

    /// Indexes `chunks` for the terms of `queries` only. Every score of
    /// those queries is the one [`Index::new`] gives, bit for bit (the same
    /// lengths, document frequencies and order of addition), without
    /// postings for the words no query has: what an evaluation needs, whose
    /// questions are known before the corpus is indexed.
    pub fn for_queries<'a>(
        chunks: impl IntoIterator<Item = &'a str>,
        queries: &[&str],
        params: Bm25,
    ) -> Index {
        let mut vocabulary: HashMap<String, usize> = HashMap::new();
        for q in queries {
            each_term(q, |t| {
                let next = vocabulary.len();
                vocabulary.entry(t.to_string()).or_insert(next);
            });
        }
        let mut lists: Vec<Vec<(usize, u32)>> = vec![Vec::new(); vocabulary.len()];
        let mut counts = vec![0u32; vocabulary.len()];
        let mut touched: Vec<usize> = Vec::new();
        let mut lengths = Vec::new();
        for (i, chunk) in chunks.into_iter().enumerate() {
            let mut length = 0;
            each_term(chunk, |t| {
                length += 1;
                if let Some(&v) = vocabulary.get(t) {
                    if counts[v] == 0 {
                        touched.push(v);
                    }
                    counts[v] += 1;
                }
            });
            lengths.push(length);
            for v in touched.drain(..) {
                lists[v].push((i, counts[v]));
                counts[v] = 0;
            }
        }
        let postings = vocabulary
            .into_iter()
            .map(|(t, v)| (t, std::mem::take(&mut lists[v])))
            .filter(|(_, list)| !list.is_empty())
            .collect();
        let average = if lengths.is_empty() {
            0.0
        } else {
            lengths.iter().sum::<usize>() as f64 / lengths.len() as f64
        };
        Index {
            params,
            postings,
            lengths,
            average,
        }
    }

    /// The number of chunks indexed.
    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    /// Whether no chunk is indexed.
    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// Every chunk's score for `query` (0 for a chunk sharing no term).
    pub fn scores(&self, query: &str) -> Vec<f64> {
        let mut scores = vec![0.0; self.lengths.len()];
        let mut seen: Vec<String> = terms(query);
        seen.sort_unstable();
        seen.dedup();
        let n = self.lengths.len() as f64;
        let Bm25 { k1, b } = self.params;
        for term in &seen {
            let Some(list) = self.postings.get(term) else {
                continue;
            };
            let df = list.len() as f64;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for &(chunk, tf) in list {
                let tf = f64::from(tf);
                let norm = if self.average > 0.0 {
                    1.0 - b + b * self.lengths[chunk] as f64 / self.average
                } else {
                    1.0
                };
                scores[chunk] += idf * tf * (k1 + 1.0) / (tf + k1 * norm);
            }
        }
        scores
    }

    /// The `k` best chunks for `query`, best first, as `(chunk, score)`;
    /// ties go to the earlier chunk. A chunk sharing no term with the query
    /// is never retrieved, so fewer than `k` may come back.
    pub fn search(&self, query: &str, k: usize) -> Vec<(usize, f64)> {
        crate::top_k(
            self.scores(query)
                .into_iter()
                .enumerate()
                .filter(|&(_, s)| s > 0.0),
            k,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_lowercased_words_and_lone_ideographs() {
        assert_eq!(
            terms("Refunds take 5 days; COD-orders 退款需要五天."),
            [
                "refunds", "take", "5", "days", "cod", "orders", "退", "款", "需", "要", "五", "天"
            ]
        );
        assert_eq!(terms("  ...  "), Vec::<String>::new());
    }

    /// Worked by hand. Chunks (terms): 0 "refunds take five days" (4),
    /// 1 "store credit for cod" (4), 2 "refunds refunds" (2); average 10/3.
    /// Query "refunds": n = 2 of N = 3, idf = ln(1 + 1.5/2.5) = ln 1.6.
    /// Chunk 0: tf 1, norm = 0.25 + 0.75·4/(10/3) = 1.15,
    ///   score = ln1.6 · 2.2 / (1 + 1.38) = ln1.6 · 0.924369…
    /// Chunk 2: tf 2, norm = 0.25 + 0.75·2/(10/3) = 0.7,
    ///   score = ln1.6 · 4.4 / (2 + 0.84) = ln1.6 · 1.549295…
    #[test]
    fn hand_computed_scores() {
        let index = Index::new(
            [
                "Refunds take five days.",
                "Store credit for COD.",
                "Refunds, refunds!",
            ]
            .map(String::from),
            Bm25::default(),
        );
        let s = index.scores("refunds?");
        let idf = 1.6f64.ln();
        assert!((s[0] - idf * 2.2 / 2.38).abs() < 1e-12, "{s:?}");
        assert_eq!(s[1], 0.0);
        assert!((s[2] - idf * 4.4 / 2.84).abs() < 1e-12, "{s:?}");
        assert_eq!(
            index
                .search("refunds", 5)
                .iter()
                .map(|r| r.0)
                .collect::<Vec<_>>(),
            [2, 0]
        );
        // A repeated query word counts once; ties go to the earlier chunk.
        assert_eq!(index.scores("refunds refunds"), s);
        let tie = Index::new(["a b".to_string(), "b a".to_string()], Bm25::default());
        assert_eq!(tie.search("a", 1)[0].0, 0);
        assert!(Index::new(Vec::<String>::new(), Bm25::default())
            .search("a", 3)
            .is_empty());
    }

    proptest::proptest! {
        /// Indexing for the queries alone scores them exactly as the full index.
        #[test]
        fn an_index_for_the_queries_scores_them_as_the_full_one(
            chunks in proptest::collection::vec("[a-c 退款A-C.]{0,12}", 0..8),
            queries in proptest::collection::vec("[a-d 退款D?]{0,8}", 1..4),
        ) {
            let full = Index::new(chunks.clone(), Bm25::default());
            let qs: Vec<&str> = queries.iter().map(String::as_str).collect();
            let some = Index::for_queries(chunks.iter().map(String::as_str), &qs, Bm25::default());
            for q in &qs {
                proptest::prop_assert_eq!(full.scores(q), some.scores(q));
                proptest::prop_assert_eq!(full.search(q, 3), some.search(q, 3));
            }
        }
    }
}
