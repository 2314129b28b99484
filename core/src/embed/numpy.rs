//! The few NumPy reductions `SemanticChunker` computes its threshold with,
//! written to give NumPy's bits, not only its values.
//!
//! Breakpoints are `distance > threshold`, and a threshold often lands exactly
//! on one of the distances (a percentile at a whole index, a mean of equal
//! values), so a last-bit difference would move a cut. Each function follows
//! NumPy 2's operation order: `np.add.reduce` sums pairwise in blocks of 8
//! (checked against NumPy on arrays of 1 to 20 000 values); `np.percentile`'s
//! default `linear` method computes the virtual index as `(n - 1) * q` with
//! `q = amount / 100`, and interpolates from whichever neighbour is nearer
//! (`_lerp`).

/// The float types NumPy's pairwise sum is reproduced for: float64 (the
/// distances) and float32 (model2vec's rows).
pub(crate) trait Float: Copy + std::ops::Add<Output = Self> + std::ops::AddAssign {
    /// `-0.0`, the start of NumPy's plain loop (so an empty sum is `-0.0`).
    const NEG_ZERO: Self;
}

impl Float for f64 {
    const NEG_ZERO: Self = -0.0;
}

impl Float for f32 {
    const NEG_ZERO: Self = -0.0;
}

/// `np.add.reduce` over a contiguous array (float64, or float32 as for
/// model2vec's norms: `np.linalg.norm(out32, axis=1)`): plain sums below 8
/// values, eight running sums up to 128, halves (cut at a multiple of 8) above.
pub(crate) fn sum<T: Float>(a: &[T]) -> T {
    let n = a.len();
    if n < 8 {
        let mut res = T::NEG_ZERO;
        for &x in a {
            res += x;
        }
        res
    } else if n <= 128 {
        let mut r = [a[0]; 8];
        r.copy_from_slice(&a[..8]);
        let whole = n - n % 8;
        let mut i = 8;
        while i < whole {
            for (j, acc) in r.iter_mut().enumerate() {
                *acc += a[i + j];
            }
            i += 8;
        }
        let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for &x in &a[whole..] {
            res += x;
        }
        res
    } else {
        let mut half = n / 2;
        half -= half % 8;
        sum(&a[..half]) + sum(&a[half..])
    }
}

/// `np.mean`: the pairwise sum divided by the count.
pub(crate) fn mean(a: &[f64]) -> f64 {
    sum(a) / a.len() as f64
}

/// `np.std` (population, `ddof=0`): the root of the mean squared deviation,
/// each sum pairwise.
pub(crate) fn std(a: &[f64]) -> f64 {
    let m = mean(a);
    let squares: Vec<f64> = a
        .iter()
        .map(|&x| {
            let d = x - m;
            d * d
        })
        .collect();
    (sum(&squares) / a.len() as f64).sqrt()
}

/// `np.percentile(a, amount)` with the default `linear` method. `a` must not
/// be empty and `amount` must be in `0..=100` (NumPy raises otherwise; the
/// caller refuses such an amount up front).
pub(crate) fn percentile(a: &[f64], amount: f64) -> f64 {
    let mut sorted = a.to_vec();
    sorted.sort_by(f64::total_cmp);
    percentile_sorted(&sorted, amount)
}

/// [`percentile`] of an already sorted array.
pub(crate) fn percentile_sorted(sorted: &[f64], amount: f64) -> f64 {
    let n = sorted.len();
    let q = amount / 100.0;
    let virtual_index = (n - 1) as f64 * q;
    let last = n - 1;
    let (previous, next, gamma) = if virtual_index >= last as f64 {
        // NumPy points both neighbours at the last value; the weight is then
        // irrelevant (the difference is 0).
        (last, last, virtual_index + 1.0)
    } else {
        let floor = virtual_index.floor();
        let previous = floor as usize;
        (previous, previous + 1, virtual_index - floor)
    };
    lerp(sorted[previous], sorted[next], gamma)
}

/// NumPy's `_lerp`: from `a` when the weight is below one half, from `b`
/// otherwise, so that the ends are exact.
fn lerp(a: f64, b: f64, t: f64) -> f64 {
    let diff = b - a;
    if t >= 0.5 {
        b - diff * (1.0 - t)
    } else {
        a + diff * t
    }
}

/// `np.gradient(f, range(len(f)))` with the default `edge_order=1`: central
/// differences inside, one-sided at the ends. `f` has at least 2 values.
pub(crate) fn gradient(f: &[f64]) -> Vec<f64> {
    let n = f.len();
    let mut out = Vec::with_capacity(n);
    out.push(f[1] - f[0]);
    for i in 1..n - 1 {
        out.push((f[i + 1] - f[i - 1]) / 2.0);
    }
    out.push(f[n - 1] - f[n - 2]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_interpolate_as_numpy() {
        // np.percentile([1, 2, 3, 4], 95) == 3.8499999999999996
        assert_eq!(percentile(&[4.0, 1.0, 3.0, 2.0], 95.0), 3.8499999999999996);
        // A whole virtual index gives that value exactly.
        assert_eq!(percentile(&[0.1, 0.7, 0.3], 50.0), 0.3);
        assert_eq!(percentile(&[0.1, 0.7, 0.3], 100.0), 0.7);
        assert_eq!(percentile(&[0.1, 0.7, 0.3], 0.0), 0.1);
        // np.percentile([0.1, 0.2, 0.7], 25) == 0.15000000000000002
        assert_eq!(percentile(&[0.1, 0.2, 0.7], 25.0), 0.15000000000000002);
    }

    #[test]
    fn sums_pair_up_as_numpy() {
        let a: Vec<f64> = (0..300).map(|i| 0.1 * i as f64 + 1e-3).collect();
        // np.add.reduce(np.arange(300) * 0.1 + 1e-3) == 4485.3
        assert_eq!(sum(&a), 4485.3);
        assert_eq!(gradient(&[1.0, 2.0, 4.0]), vec![1.0, 1.5, 2.0]);
        assert_eq!(std(&[1.0, 1.0]), 0.0);
    }
}
