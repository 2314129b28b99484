//! Retrieval by vectors: a question's vector against each chunk's, ranked by
//! cosine similarity, as a vector store does with a static embedding model.
//!
//! The vectors come from the caller (the worker's loaded model); this module
//! only ranks. A zero vector (a text with no token the model knows) has no
//! direction: such a chunk is never retrieved, and such a question
//! retrieves nothing.

/// Cosine similarity of `a` and `b`: their dot product over the product of
/// their norms, each sum taken in order. `None` when a norm is 0 or the
/// lengths differ.
pub fn cosine(a: &[f64], b: &[f64]) -> Option<f64> {
    if a.len() != b.len() {
        return None;
    }
    let (mut dot, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        dot += x * y;
        aa += x * x;
        bb += y * y;
    }
    if aa == 0.0 || bb == 0.0 {
        return None;
    }
    Some(dot / (aa.sqrt() * bb.sqrt()))
}

/// The `k` chunks most similar to `query`, best first, as `(chunk,
/// cosine)`; ties go to the earlier chunk. Chunks without a direction are
/// left out, so fewer than `k` may come back.
pub fn search(chunks: &[Vec<f64>], query: &[f64], k: usize) -> Vec<(usize, f64)> {
    crate::top_k(
        chunks
            .iter()
            .enumerate()
            .filter_map(|(i, c)| cosine(c, query).map(|s| (i, s))),
        k,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked by hand: q = (1, 1). c0 = (1, 0): 1/√2. c1 = (2, 2): 1.
    /// c2 = (0, 0): no direction. c3 = (0, 3): 1/√2, a tie with c0 (c0 first).
    /// c4 = (-1, 0): −1/√2.
    #[test]
    fn hand_computed_ranking() {
        let chunks = vec![
            vec![1.0, 0.0],
            vec![2.0, 2.0],
            vec![0.0, 0.0],
            vec![0.0, 3.0],
            vec![-1.0, 0.0],
        ];
        let half = 1.0 / 2f64.sqrt();
        assert_eq!(
            cosine(&[1.0, 1.0], &[1.0, 0.0]),
            Some(1.0 / (2f64.sqrt() * 1.0))
        );
        let got = search(&chunks, &[1.0, 1.0], 10);
        let ids: Vec<usize> = got.iter().map(|r| r.0).collect();
        assert_eq!(ids, [1, 0, 3, 4]);
        assert!((got[0].1 - 1.0).abs() < 1e-15);
        assert_eq!(got[1].1, got[2].1);
        assert!((got[1].1 - half).abs() < 1e-15);
        assert!((got[3].1 + half).abs() < 1e-15);
        assert_eq!(search(&chunks, &[1.0, 1.0], 2).len(), 2);
        assert!(search(&chunks, &[0.0, 0.0], 3).is_empty());
        assert_eq!(cosine(&[1.0], &[1.0, 0.0]), None);
    }
}
