//! GitHub code scanning's limits on an uploaded SARIF file: over the first
//! two the whole upload is rejected; past the display limits only the first
//! entries are shown. racewit stays within them, keeping what matters most.

/// Results per run (more and the upload is rejected).
pub const MAX_RESULTS: usize = 25_000;
/// Thread flow locations GitHub shows per result (it accepts 10,000).
pub const MAX_THREAD_FLOW_LOCATIONS: usize = 1_000;
/// Related locations per result kept (GitHub shows 100 locations).
pub const MAX_RELATED_LOCATIONS: usize = 100;

/// Keeps at most `max` items: those of lowest `rank` first, ties by position,
/// and returns them in their original order with the number dropped.
pub fn keep_within<T, R: Ord>(
    items: Vec<T>,
    max: usize,
    rank: impl Fn(&T) -> R,
) -> (Vec<T>, usize) {
    if items.len() <= max {
        return (items, 0);
    }
    let dropped = items.len() - max;
    let mut order: Vec<(R, usize)> = items
        .iter()
        .enumerate()
        .map(|(i, t)| (rank(t), i))
        .collect();
    order.sort();
    let mut keep = vec![false; items.len()];
    for &(_, i) in order.iter().take(max) {
        keep[i] = true;
    }
    let kept = items
        .into_iter()
        .zip(keep)
        .filter_map(|(t, k)| k.then_some(t))
        .collect();
    (kept, dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_everything_under_the_limit() {
        assert_eq!(keep_within(vec![3, 1, 2], 3, |&x| x), (vec![3, 1, 2], 0));
    }

    #[test]
    fn keeps_the_lowest_rank_in_original_order() {
        // rank: 0 for the essential (even) items, 1 for the rest.
        let (kept, dropped) = keep_within(vec![1, 2, 3, 4, 5, 6], 4, |&x| x % 2);
        assert_eq!(kept, vec![1, 2, 4, 6]);
        assert_eq!(dropped, 2);
        let (kept, dropped) = keep_within(vec![5, 4, 3], 0, |&x| x);
        assert!(kept.is_empty());
        assert_eq!(dropped, 3);
    }
}
