//! Recall, precision and IoU by characters, as Chroma's chunking report
//! defines them, and two measures of the chunking alone.
//!
//! For one question with answer excerpts `A` and retrieved chunks `C`:
//!
//! - the *found* chars are the union of every `c ∩ a` (chunks of the
//!   question's document only);
//! - **recall** = found / Σ|a|;
//! - **precision** = found / Σ|c| (every retrieved chunk, of any document;
//!   chars of overlapping chunks count once per chunk, so repeating text
//!   costs precision, as embedding it costs storage);
//! - **IoU** = found / (Σ|c| + the answer chars no retrieved chunk holds).
//!
//! All three are 0 when nothing is retrieved, and lie in `[0, 1]`.

use crate::ranges;
use serde::Serialize;

/// A retrieved chunk as the metrics see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Whether it is a chunk of the question's document (a chunk of another
    /// document holds none of the answer, whatever its offsets).
    pub same_document: bool,
    /// Its char range in its document.
    pub span: (usize, usize),
}

/// The three scores of one question.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Scores {
    /// Share of the answer chars retrieved.
    pub recall: f64,
    /// Share of the retrieved chars that are answer.
    pub precision: f64,
    /// Answer chars retrieved over everything retrieved or missed.
    pub iou: f64,
}

/// Scores `hits` against `answers` (char ranges of the question's document).
pub fn score(hits: &[Hit], answers: &[(usize, usize)]) -> Scores {
    let same: Vec<(usize, usize)> = hits
        .iter()
        .filter(|h| h.same_document)
        .map(|h| h.span)
        .collect();
    let found =
        ranges::total(ranges::union(same.iter().flat_map(|&c| {
            answers.iter().filter_map(move |&a| ranges::intersect(c, a))
        })));
    let cover = ranges::union(same.iter().copied());
    let missed: usize = answers
        .iter()
        .map(|&a| ranges::total(ranges::minus(a, &cover)))
        .sum();
    let retrieved = ranges::total(hits.iter().map(|h| h.span));
    let answer = ranges::total(answers.iter().copied());
    let ratio = |n: usize, d: usize| if d == 0 { 0.0 } else { n as f64 / d as f64 };
    Scores {
        recall: ratio(found, answer),
        precision: ratio(found, retrieved),
        iou: ratio(found, retrieved + missed),
    }
}

/// Whether `answer` lies inside one of `chunks`.
pub fn whole(chunks: &[(usize, usize)], answer: (usize, usize)) -> bool {
    chunks.iter().any(|&(s, e)| s <= answer.0 && answer.1 <= e)
}

/// How many of `chunks` hold part of `answer`.
pub fn fragments(chunks: &[(usize, usize)], answer: (usize, usize)) -> usize {
    chunks
        .iter()
        .filter(|&&c| ranges::intersect(c, answer).is_some())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn hits(spans: &[(usize, usize)]) -> Vec<Hit> {
        spans
            .iter()
            .map(|&span| Hit {
                same_document: true,
                span,
            })
            .collect()
    }

    /// Worked by hand: answer 10..20; chunks 0..15 and 12..30 retrieved.
    /// Found = 10..20 = 10 chars; Σ|c| = 15 + 18 = 33; nothing missed.
    #[test]
    fn hand_computed_overlapping_chunks() {
        let s = score(&hits(&[(0, 15), (12, 30)]), &[(10, 20)]);
        assert_eq!(s.recall, 1.0);
        assert_eq!(s.precision, 10.0 / 33.0);
        assert_eq!(s.iou, 10.0 / 33.0);
    }

    /// Answer 10..20 and 40..44; one chunk 15..42 retrieved.
    /// Found = 15..20 (5) + 40..42 (2) = 7; Σ|a| = 14; Σ|c| = 27;
    /// missed = 10..15 (5) + 42..44 (2) = 7; IoU = 7 / 34.
    #[test]
    fn hand_computed_partial_answers() {
        let s = score(&hits(&[(15, 42)]), &[(10, 20), (40, 44)]);
        assert_eq!(s.recall, 0.5);
        assert_eq!(s.precision, 7.0 / 27.0);
        assert_eq!(s.iou, 7.0 / 34.0);
    }

    /// A chunk of another document with the same offsets finds nothing but
    /// costs precision.
    #[test]
    fn another_documents_chunk_costs_precision_only() {
        let mut h = hits(&[(0, 10)]);
        h.push(Hit {
            same_document: false,
            span: (0, 10),
        });
        let s = score(&h, &[(0, 5)]);
        assert_eq!((s.recall, s.precision, s.iou), (1.0, 0.25, 0.25));
        assert_eq!(score(&[], &[(0, 5)]), Scores::default());
    }

    #[test]
    fn whole_and_fragments() {
        let chunks = [(0, 10), (8, 20), (20, 30)];
        assert!(whole(&chunks, (8, 10)));
        assert_eq!(fragments(&chunks, (8, 10)), 2);
        assert!(!whole(&chunks, (15, 25)));
        assert_eq!(fragments(&chunks, (15, 25)), 2);
        assert_eq!(fragments(&chunks, (30, 31)), 0);
    }

    fn span() -> impl Strategy<Value = (usize, usize)> {
        (0usize..200, 1usize..60).prop_map(|(s, l)| (s, s + l))
    }

    proptest! {
        #[test]
        fn scores_are_shares(chunks in prop::collection::vec(span(), 0..6),
                             answers in prop::collection::vec(span(), 1..4)) {
            let s = score(&hits(&chunks), &answers);
            for v in [s.recall, s.precision, s.iou] {
                prop_assert!((0.0..=1.0).contains(&v), "{s:?}");
            }
            prop_assert!(s.iou <= s.precision, "{s:?}");
        }

        #[test]
        fn a_chunk_holding_the_answer_recalls_it(answer in span(), before in 0usize..30, after in 0usize..30) {
            let chunk = (answer.0.saturating_sub(before), answer.1 + after);
            let s = score(&hits(&[chunk]), &[answer]);
            prop_assert_eq!(s.recall, 1.0);
            prop_assert_eq!(s.precision, (answer.1 - answer.0) as f64 / (chunk.1 - chunk.0) as f64);
            prop_assert_eq!(s.iou, s.precision);
        }

        #[test]
        fn chunks_inside_answers_are_precise(answer in span(), cuts in prop::collection::vec(0usize..60, 1..4)) {
            // Disjoint chunks cut from inside the answer.
            let len = answer.1 - answer.0;
            let mut points: Vec<usize> = cuts.into_iter().map(|c| answer.0 + c % len).collect();
            points.push(answer.0);
            points.push(answer.1);
            points.sort_unstable();
            points.dedup();
            let chunks: Vec<(usize, usize)> = points.windows(2).map(|w| (w[0], w[1])).collect();
            let s = score(&hits(&chunks), &[answer]);
            prop_assert_eq!(s.precision, 1.0);
            prop_assert_eq!(s.recall, 1.0);
        }
    }
}
