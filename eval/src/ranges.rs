//! Half-open char ranges `(start, end)` and the set operations the metrics
//! need. A range with `start >= end` is empty and takes part in nothing.

/// The ranges merged into disjoint, sorted ranges covering the same chars.
pub fn union(ranges: impl IntoIterator<Item = (usize, usize)>) -> Vec<(usize, usize)> {
    let mut sorted: Vec<(usize, usize)> = ranges.into_iter().filter(|&(s, e)| s < e).collect();
    sorted.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(sorted.len());
    for (s, e) in sorted {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    merged
}

/// The ranges' lengths added up: chars in two ranges count twice.
pub fn total(ranges: impl IntoIterator<Item = (usize, usize)>) -> usize {
    ranges.into_iter().map(|(s, e)| e.saturating_sub(s)).sum()
}

/// The chars in both ranges, if any.
pub fn intersect(a: (usize, usize), b: (usize, usize)) -> Option<(usize, usize)> {
    let (s, e) = (a.0.max(b.0), a.1.min(b.1));
    (s < e).then_some((s, e))
}

/// The chars of `range` outside every one of `cover` (disjoint and sorted,
/// as [`union`] gives them).
pub fn minus(range: (usize, usize), cover: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut left = Vec::new();
    let mut at = range.0;
    for &(s, e) in cover {
        if e <= at || s >= range.1 {
            continue;
        }
        if s > at {
            left.push((at, s));
        }
        at = at.max(e);
    }
    if at < range.1 {
        left.push((at, range.1));
    }
    left
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_merges_overlapping_and_touching_ranges() {
        assert_eq!(
            union([(5, 9), (0, 3), (3, 4), (8, 12), (20, 20)]),
            [(0, 4), (5, 12)]
        );
        assert_eq!(total([(0, 4), (2, 6)]), 8);
    }

    #[test]
    fn minus_leaves_what_no_cover_holds() {
        assert_eq!(minus((0, 10), &[(2, 4), (6, 7)]), [(0, 2), (4, 6), (7, 10)]);
        assert_eq!(minus((3, 5), &[(0, 10)]), []);
        assert_eq!(minus((3, 5), &[]), [(3, 5)]);
        assert_eq!(intersect((0, 3), (3, 6)), None);
        assert_eq!(intersect((0, 4), (3, 6)), Some((3, 4)));
    }
}
