//! Whether one configuration retrieves better than another, or only seems to.
//!
//! Two evaluations over the same questions are compared question by
//! question: on how many the first scores higher, lower, or the same. With
//! the ties left out, the two-sided sign test asks how likely a split at
//! least this uneven would be if each configuration were as likely as the
//! other to win a question. It assumes nothing about how the scores are
//! distributed, which suits a few dozen questions with scores piled up at 0
//! and 1; and it is exact (a sum of binomial terms), not an approximation.
//!
//! ```
//! use chunkscope_eval::compare::SignTest;
//! // Better on 9 questions, worse on 1: p = 2 × (1 + 10) / 2^10.
//! let first = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0];
//! let test = SignTest::of(&first, &[0.5; 10]);
//! assert_eq!((test.better, test.worse, test.equal), (9, 1, 0));
//! assert_eq!(test.p_value(), 22.0 / 1024.0);
//! ```

/// The per-question comparison of two configurations' scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SignTest {
    /// Questions on which the first configuration scores higher.
    pub better: usize,
    /// Questions on which it scores lower.
    pub worse: usize,
    /// Questions on which both score the same.
    pub equal: usize,
}

impl SignTest {
    /// Compares the scores `a[i]` and `b[i]` of the same questions. Only
    /// the common length is compared.
    pub fn of(a: &[f64], b: &[f64]) -> SignTest {
        let mut test = SignTest {
            better: 0,
            worse: 0,
            equal: 0,
        };
        for (x, y) in a.iter().zip(b) {
            match x.total_cmp(y) {
                std::cmp::Ordering::Greater => test.better += 1,
                std::cmp::Ordering::Less => test.worse += 1,
                std::cmp::Ordering::Equal => test.equal += 1,
            }
        }
        test
    }

    /// The two-sided p-value: the chance, were each configuration as likely
    /// to win a question as the other, of a split of the questions that
    /// differ at least as uneven as this one. 1 when none differ.
    pub fn p_value(&self) -> f64 {
        let n = self.better + self.worse;
        let k = self.better.min(self.worse);
        // P(X ≤ k) for X ~ Binomial(n, 1/2), doubled; the terms are built
        // by C(n, i+1) = C(n, i) (n − i) / (i + 1), scaled by 2^-n up front
        // so that no term overflows.
        let mut term = 0.5f64.powi(n as i32);
        let mut tail = 0.0;
        for i in 0..=k {
            tail += term;
            term = term * (n - i) as f64 / (i + 1) as f64;
        }
        (2.0 * tail).min(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_values_written_out_from_the_binomial() {
        // (better, worse, p): 2 × Σ_{i≤k} C(n, i) / 2^n, worked by hand.
        let cases = [
            (0, 0, 1.0),
            (1, 0, 1.0),                        // 2 × 1/2
            (3, 0, 0.25),                       // 2 × 1/8
            (5, 0, 0.0625),                     // 2 × 1/32
            (4, 1, 0.375),                      // 2 × 6/32
            (7, 2, 2.0 * 46.0 / 512.0),         // 1 + 9 + 36
            (2, 7, 2.0 * 46.0 / 512.0),         // the same split, the other way
            (10, 10, 1.0),                      // capped at 1
            (15, 5, 2.0 * 21700.0 / 1048576.0), // 1 + 20 + 190 + 1140 + 4845 + 15504
        ];
        for (better, worse, p) in cases {
            let test = SignTest {
                better,
                worse,
                equal: 3,
            };
            assert!(
                (test.p_value() - p).abs() < 1e-12,
                "{better}/{worse}: {} ≠ {p}",
                test.p_value()
            );
        }
        // A thousand questions do not overflow: 600 against 400 is far
        // from chance.
        let big = SignTest {
            better: 600,
            worse: 400,
            equal: 0,
        };
        assert!(
            big.p_value() > 0.0 && big.p_value() < 1e-9,
            "{}",
            big.p_value()
        );
    }

    #[test]
    fn scores_are_compared_question_by_question() {
        let test = SignTest::of(&[1.0, 0.5, 0.0, 0.25], &[0.5, 0.5, 1.0, 0.0]);
        assert_eq!(
            test,
            SignTest {
                better: 2,
                worse: 1,
                equal: 1
            }
        );
    }
}
