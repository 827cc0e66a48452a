//! The measures of Section 6.1 of the paper.
//!
//! **Template detection** is scored per word, with the template as the positive class:
//! precision is the fraction of words the detector puts in the template that people put there
//! too, recall the fraction of the people's template words the detector finds (the setting of
//! Vieira et al. that the paper follows). [`Counts`] add up over pages; the micro average is the
//! score of the summed counts, the macro average ([`MacroAverage`]) the mean of the per-page
//! scores.
//!
//! **Segmentation** is scored by the adjusted Rand index (Hubert & Arabie 1985) between the
//! grouping of a page's leaves (here: words) induced by the detected sections and the grouping
//! induced by the labelled blocks.

use std::collections::HashMap;
use std::hash::Hash;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

/// Word counts of the template class on one page or summed over pages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Template words detected as template.
    pub tp: u64,
    /// Non-template words detected as template.
    pub fp: u64,
    /// Template words not detected.
    pub fn_: u64,
}

/// Precision, recall and F1 of the template class. A measure is `None` when its denominator is
/// zero (no word detected, or no template word in the gold), so that callers can tell "perfect"
/// from "not applicable".
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scores {
    /// tp / (tp + fp), 0–1; `None` when nothing was detected.
    pub precision: Option<f64>,
    /// tp / (tp + fn), 0–1; `None` when the gold has no positive word.
    pub recall: Option<f64>,
    /// 2tp / (2tp + fp + fn), 0–1; `None` only when there is neither a detection nor a gold
    /// positive.
    pub f1: Option<f64>,
}

impl Counts {
    /// Counts from `(detected as template, template in the gold)` pairs, one per scored word.
    pub fn tally(pairs: impl IntoIterator<Item = (bool, bool)>) -> Counts {
        let mut counts = Counts::default();
        for (detected, gold) in pairs {
            match (detected, gold) {
                (true, true) => counts.tp += 1,
                (true, false) => counts.fp += 1,
                (false, true) => counts.fn_ += 1,
                (false, false) => {}
            }
        }
        counts
    }

    /// Precision, recall and F1 of these counts (the micro average, when they are summed over
    /// pages).
    pub fn scores(&self) -> Scores {
        let ratio = |numerator: u64, denominator: u64| {
            (denominator > 0).then(|| numerator as f64 / denominator as f64)
        };
        Scores {
            precision: ratio(self.tp, self.tp + self.fp),
            recall: ratio(self.tp, self.tp + self.fn_),
            // 2tp / (2tp + fp + fn): the harmonic mean of P and R, and 0 (not undefined) when
            // one of them is 0 or undefined while the other side has errors.
            f1: ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn_),
        }
    }
}

impl Add for Counts {
    type Output = Counts;
    fn add(self, other: Counts) -> Counts {
        Counts {
            tp: self.tp + other.tp,
            fp: self.fp + other.fp,
            fn_: self.fn_ + other.fn_,
        }
    }
}

impl AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        *self = *self + other;
    }
}

impl Sum for Counts {
    fn sum<I: Iterator<Item = Counts>>(pages: I) -> Counts {
        pages.fold(Counts::default(), Add::add)
    }
}

/// Mean of per-page scores. A page where a measure is undefined (see [`Scores`]) does not take
/// part in that measure's mean, so each measure keeps its own page count.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MacroAverage {
    sums: [f64; 3],
    pages: [u64; 3],
}

impl MacroAverage {
    /// Adds one page's precision, recall and F1 to the measures where they are defined.
    pub fn add_page(&mut self, page: Counts) {
        let scores = page.scores();
        for (slot, value) in [scores.precision, scores.recall, scores.f1]
            .into_iter()
            .enumerate()
        {
            if let Some(value) = value {
                self.sums[slot] += value;
                self.pages[slot] += 1;
            }
        }
    }

    /// The mean of each measure over the pages where it was defined; `None` if it never was.
    pub fn scores(&self) -> Scores {
        let mean =
            |slot: usize| (self.pages[slot] > 0).then(|| self.sums[slot] / self.pages[slot] as f64);
        Scores {
            precision: mean(0),
            recall: mean(1),
            f1: mean(2),
        }
    }

    /// Pages that contributed an F1 value.
    pub fn pages_with_f1(&self) -> u64 {
        self.pages[2]
    }
}

impl FromIterator<Counts> for MacroAverage {
    fn from_iter<I: IntoIterator<Item = Counts>>(pages: I) -> MacroAverage {
        let mut average = MacroAverage::default();
        pages.into_iter().for_each(|page| average.add_page(page));
        average
    }
}

/// Adjusted Rand index between two flat clusterings of the same items, given as one label per
/// item (`left[k]` and `right[k]` label item `k`; label values are only compared for equality).
///
/// Computed from the pair confusion counts, which equals Hubert & Arabie's
/// `(index − expected) / (max − expected)` wherever that is defined, and defines the rest as
/// scikit-learn does: when no pair of items is split differently by the two clusterings
/// (identical partitions, including both all-in-one, both all-singletons, and fewer than two
/// items) the index is 1; one all-in-one clustering against any other partition scores 0.
///
/// # Panics
/// If the two label vectors differ in length (a caller bug, not an input property).
pub fn adjusted_rand_index<A: Eq + Hash, B: Eq + Hash>(left: &[A], right: &[B]) -> f64 {
    assert_eq!(
        left.len(),
        right.len(),
        "both clusterings must label the same items"
    );
    let pairs = |n: u64| n * n.saturating_sub(1) / 2;
    let mut left_sizes: HashMap<&A, u64> = HashMap::new();
    let mut right_sizes: HashMap<&B, u64> = HashMap::new();
    let mut cell_sizes: HashMap<(&A, &B), u64> = HashMap::new();
    for (a, b) in left.iter().zip(right) {
        *left_sizes.entry(a).or_default() += 1;
        *right_sizes.entry(b).or_default() += 1;
        *cell_sizes.entry((a, b)).or_default() += 1;
    }
    let together_in_both: u64 = cell_sizes.values().map(|&n| pairs(n)).sum();
    let together_in_left: u64 = left_sizes.values().map(|&n| pairs(n)).sum();
    let together_in_right: u64 = right_sizes.values().map(|&n| pairs(n)).sum();
    let all_pairs = pairs(left.len() as u64);
    // Pair confusion matrix: together in both, only in left, only in right, apart in both.
    let tp = together_in_both as f64;
    let only_left = (together_in_left - together_in_both) as f64;
    let only_right = (together_in_right - together_in_both) as f64;
    let tn = (all_pairs + together_in_both - together_in_left - together_in_right) as f64;
    if only_left == 0.0 && only_right == 0.0 {
        return 1.0;
    }
    2.0 * (tp * tn - only_left * only_right)
        / ((tp + only_left) * (only_left + tn) + (tp + only_right) * (only_right + tn))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Hubert & Arabie's formula over all item pairs, the quadratic way.
    fn reference_ari(left: &[u8], right: &[u8]) -> f64 {
        let n = left.len();
        let (mut both, mut only_left, mut only_right) = (0.0, 0.0, 0.0);
        for i in 0..n {
            for j in i + 1..n {
                let (l, r) = (left[i] == left[j], right[i] == right[j]);
                both += f64::from(u8::from(l && r));
                only_left += f64::from(u8::from(l && !r));
                only_right += f64::from(u8::from(!l && r));
            }
        }
        let all = (n * (n - 1) / 2) as f64;
        let (in_left, in_right) = (both + only_left, both + only_right);
        let expected = in_left * in_right / all;
        let max = (in_left + in_right) / 2.0;
        (both - expected) / (max - expected)
    }

    fn assert_close(actual: f64, expected: f64) {
        assert!((actual - expected).abs() < 1e-9, "{actual} != {expected}");
    }

    #[test]
    fn template_scores_follow_the_textbook_definitions() {
        let counts = Counts {
            tp: 6,
            fp: 2,
            fn_: 4,
        };
        let scores = counts.scores();
        assert_close(scores.precision.unwrap(), 0.75);
        assert_close(scores.recall.unwrap(), 0.6);
        assert_close(scores.f1.unwrap(), 2.0 * 0.75 * 0.6 / 1.35);
    }

    #[test]
    fn tally_counts_only_template_relevant_pairs() {
        let counts = Counts::tally([(true, true), (true, false), (false, true), (false, false)]);
        assert_eq!(
            counts,
            Counts {
                tp: 1,
                fp: 1,
                fn_: 1
            }
        );
    }

    #[test]
    fn a_page_without_template_or_detections_has_no_scores_rather_than_perfect_ones() {
        let scores = Counts::default().scores();
        assert_eq!(
            (scores.precision, scores.recall, scores.f1),
            (None, None, None)
        );
    }

    #[test]
    fn micro_average_weights_pages_by_words_and_macro_average_weights_them_equally() {
        let big = Counts {
            tp: 90,
            fp: 10,
            fn_: 0,
        };
        let small = Counts {
            tp: 0,
            fp: 1,
            fn_: 1,
        };
        let micro: Counts = [big, small].into_iter().sum();
        assert_eq!(
            micro,
            Counts {
                tp: 90,
                fp: 11,
                fn_: 1
            }
        );
        assert_close(micro.scores().precision.unwrap(), 90.0 / 101.0);
        let macro_average: MacroAverage = [big, small].into_iter().collect();
        assert_close(macro_average.scores().precision.unwrap(), 0.45);
        assert_close(macro_average.scores().f1.unwrap(), (180.0 / 190.0) / 2.0);
        assert_eq!(macro_average.pages_with_f1(), 2);
    }

    #[test]
    fn macro_average_skips_pages_where_a_measure_is_undefined() {
        let no_detections = Counts {
            tp: 0,
            fp: 0,
            fn_: 5,
        };
        let perfect = Counts {
            tp: 5,
            fp: 0,
            fn_: 0,
        };
        let scores: Scores = [no_detections, perfect]
            .into_iter()
            .collect::<MacroAverage>()
            .scores();
        assert_close(scores.precision.unwrap(), 1.0);
        assert_close(scores.recall.unwrap(), 0.5);
    }

    #[test]
    fn identical_partitions_score_one_whatever_the_label_names() {
        assert_close(adjusted_rand_index(&[0, 0, 1, 1], &[1, 1, 0, 0]), 1.0);
        assert_close(adjusted_rand_index(&["a", "b", "b"], &[7, 8, 8]), 1.0);
    }

    #[test]
    fn splitting_one_cluster_of_two_scores_four_sevenths_as_in_scikit_learn() {
        assert_close(
            adjusted_rand_index(&[0, 0, 1, 1], &[0, 0, 1, 2]),
            0.571_428_571_428_571_4,
        );
    }

    #[test]
    fn crossing_partitions_score_below_chance() {
        assert_close(adjusted_rand_index(&[0, 0, 1, 1], &[0, 1, 0, 1]), -0.5);
    }

    #[test]
    fn hand_computed_three_cluster_example() {
        // Contingency [[2,1,0],[0,2,1],[0,0,3]]: Σ C(n_ij,2) = 1+1+3 = 5; rows (3,3,3) give 9,
        // columns (2,3,4) give 1+3+6 = 10; C(9,2) = 36; expected 90/36 = 2.5; max 9.5.
        let left = [0, 0, 0, 1, 1, 1, 2, 2, 2];
        let right = [0, 0, 1, 1, 1, 2, 2, 2, 2];
        assert_close(
            adjusted_rand_index(&left, &right),
            (5.0 - 2.5) / (9.5 - 2.5),
        );
    }

    #[test]
    fn degenerate_clusterings_are_defined() {
        let empty: [u8; 0] = [];
        assert_close(adjusted_rand_index(&empty, &empty), 1.0);
        assert_close(adjusted_rand_index(&[3], &[4]), 1.0);
        assert_close(adjusted_rand_index(&[0, 0, 0, 0], &[1, 1, 1, 1]), 1.0);
        assert_close(adjusted_rand_index(&[0, 1, 2, 3], &[3, 2, 1, 0]), 1.0);
        assert_close(adjusted_rand_index(&[0, 0, 0, 0], &[0, 0, 1, 1]), 0.0);
        assert_close(adjusted_rand_index(&[0, 0, 0, 0], &[0, 1, 2, 3]), 0.0);
    }

    proptest! {
        #[test]
        fn ari_equals_hubert_arabie_over_all_pairs_where_that_is_defined(
            labels in prop::collection::vec((0u8..4, 0u8..4), 2..60),
        ) {
            let (left, right): (Vec<u8>, Vec<u8>) = labels.into_iter().unzip();
            let reference = reference_ari(&left, &right);
            prop_assume!(reference.is_finite());
            prop_assert!((adjusted_rand_index(&left, &right) - reference).abs() < 1e-9);
        }

        #[test]
        fn ari_is_symmetric_and_at_most_one(
            labels in prop::collection::vec((0u8..5, 0u8..3), 0..80),
        ) {
            let (left, right): (Vec<u8>, Vec<u8>) = labels.into_iter().unzip();
            let forward = adjusted_rand_index(&left, &right);
            prop_assert!((forward - adjusted_rand_index(&right, &left)).abs() < 1e-12);
            prop_assert!(forward <= 1.0 + 1e-12);
        }
    }
}
