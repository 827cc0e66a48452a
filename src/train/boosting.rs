//! Gradient boosting of regression trees on a yes/no label, starting from a given logit (the
//! logistic regression's): each tree is a Newton step on the weighted log-loss, grown level by
//! level from histograms of each feature's values cut at (at most `thresholds`) quantiles, as
//! LightGBM and scikit-learn's `HistGradientBoosting` grow theirs. Deterministic: the same rows
//! give the same trees.

use crate::extract::{BoostedTrees, BoostingSettings, RegressionTree, TreeNode};

/// What the trees are fitted on: one row per paragraph.
pub struct BoostingRows<'a> {
    /// Each row's feature values, in the model's feature order.
    pub values: &'a [Vec<f64>],
    /// Each row's label.
    pub labels: &'a [bool],
    /// How much each row counts.
    pub weights: &'a [f64],
    /// Each row's logit before the trees.
    pub start: &'a [f64],
}

/// The gradient-boosted trees of `settings` on `rows`.
pub fn boost(rows: &BoostingRows, settings: &BoostingSettings) -> BoostedTrees {
    let count = rows.values.len();
    let features = rows.values.first().map_or(0, Vec::len);
    let cuts: Vec<Vec<f64>> = (0..features)
        .map(|feature| {
            let column: Vec<f64> = rows.values.iter().map(|row| row[feature]).collect();
            thresholds(column, settings.thresholds)
        })
        .collect();
    // A row's bin for a feature: how many of the feature's thresholds are at or below its value,
    // so that `value < cuts[j]` exactly when `bin <= j`.
    let bins: Vec<u16> = rows
        .values
        .iter()
        .flat_map(|row| {
            cuts.iter()
                .zip(row)
                .map(|(cuts, &value)| cuts.partition_point(|&cut| cut <= value) as u16)
        })
        .collect();
    let mut margin = rows.start.to_vec();
    let mut gradient = vec![0.0; count];
    let mut hessian = vec![0.0; count];
    let mut trees = Vec::with_capacity(settings.trees);
    for _ in 0..settings.trees {
        for row in 0..count {
            let probability = 1.0 / (1.0 + (-margin[row]).exp());
            let target = if rows.labels[row] { 1.0 } else { 0.0 };
            gradient[row] = rows.weights[row] * (probability - target);
            hessian[row] = rows.weights[row] * (probability * (1.0 - probability)).max(1e-12);
        }
        let mut grower = Grower {
            settings,
            cuts: &cuts,
            bins: &bins,
            features,
            gradient: &gradient,
            hessian: &hessian,
            nodes: Vec::new(),
        };
        let all: Vec<u32> = (0..count as u32).collect();
        grower.grow(all, 0, &mut margin);
        trees.push(RegressionTree {
            nodes: grower.nodes,
        });
    }
    BoostedTrees {
        fitted: *settings,
        trees,
    }
}

/// At most `most` thresholds for a feature with these values: the midpoints between its
/// distinct values when there are few, else distinct quantiles.
fn thresholds(mut values: Vec<f64>, most: usize) -> Vec<f64> {
    values.sort_by(f64::total_cmp);
    let mut distinct = values.clone();
    distinct.dedup();
    if distinct.len() <= most + 1 {
        return distinct
            .windows(2)
            .map(|pair| pair[0] + (pair[1] - pair[0]) / 2.0)
            .collect();
    }
    let mut cuts: Vec<f64> = (1..=most)
        .map(|step| values[step * values.len() / (most + 1)])
        .filter(|&cut| cut > values[0])
        .collect();
    cuts.dedup();
    cuts
}

/// Grows one tree, recording each leaf's value in the rows' margins as it goes.
struct Grower<'a> {
    settings: &'a BoostingSettings,
    cuts: &'a [Vec<f64>],
    bins: &'a [u16],
    features: usize,
    gradient: &'a [f64],
    hessian: &'a [f64],
    nodes: Vec<TreeNode>,
}

/// The best split of a node: the feature, the threshold's index, the rows' gain.
struct Split {
    feature: usize,
    cut: usize,
    gain: f64,
}

impl Grower<'_> {
    /// The node for `rows` at `depth`, and its subtree; returns its index.
    fn grow(&mut self, rows: Vec<u32>, depth: usize, margin: &mut [f64]) -> usize {
        let index = self.nodes.len();
        self.nodes.push(TreeNode::Leaf(0.0));
        let (sum_gradient, sum_hessian) = rows.iter().fold((0.0, 0.0), |(g, h), &row| {
            (
                g + self.gradient[row as usize],
                h + self.hessian[row as usize],
            )
        });
        let split = (depth < self.settings.depth
            && rows.len() >= 2 * self.settings.min_leaf_paragraphs.max(1))
        .then(|| self.best_split(&rows, sum_gradient, sum_hessian))
        .flatten();
        let Some(split) = split else {
            let value =
                -sum_gradient / (sum_hessian + self.settings.l2) * self.settings.learning_rate;
            for &row in &rows {
                margin[row as usize] += value;
            }
            self.nodes[index] = TreeNode::Leaf(value);
            return index;
        };
        let (left_rows, right_rows): (Vec<u32>, Vec<u32>) = rows.iter().partition(|&&row| {
            usize::from(self.bins[row as usize * self.features + split.feature]) <= split.cut
        });
        let left = self.grow(left_rows, depth + 1, margin);
        let right = self.grow(right_rows, depth + 1, margin);
        self.nodes[index] = TreeNode::Split {
            feature: split.feature,
            below: self.cuts[split.feature][split.cut],
            left,
            right,
        };
        index
    }

    /// The split of `rows` that lowers the regularised loss most, leaving each side
    /// `min_leaf_paragraphs`; none if no split lowers it.
    fn best_split(&self, rows: &[u32], sum_gradient: f64, sum_hessian: f64) -> Option<Split> {
        let l2 = self.settings.l2;
        let least = self.settings.min_leaf_paragraphs.max(1);
        let parent = sum_gradient * sum_gradient / (sum_hessian + l2);
        let mut best: Option<Split> = None;
        for feature in 0..self.features {
            let cuts = self.cuts[feature].len();
            if cuts == 0 {
                continue;
            }
            let mut histogram = vec![(0.0, 0.0, 0usize); cuts + 1];
            for &row in rows {
                let row = row as usize;
                let bin = &mut histogram[usize::from(self.bins[row * self.features + feature])];
                bin.0 += self.gradient[row];
                bin.1 += self.hessian[row];
                bin.2 += 1;
            }
            let (mut left_gradient, mut left_hessian, mut left_count) = (0.0, 0.0, 0);
            for (cut, bin) in histogram.iter().take(cuts).enumerate() {
                left_gradient += bin.0;
                left_hessian += bin.1;
                left_count += bin.2;
                let right_count = rows.len() - left_count;
                if left_count < least || right_count < least {
                    continue;
                }
                let right_gradient = sum_gradient - left_gradient;
                let right_hessian = sum_hessian - left_hessian;
                let gain = left_gradient * left_gradient / (left_hessian + l2)
                    + right_gradient * right_gradient / (right_hessian + l2)
                    - parent;
                if gain > 1e-9 && best.as_ref().is_none_or(|best| gain > best.gain) {
                    best = Some(Split { feature, cut, gain });
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(trees: usize, depth: usize) -> BoostingSettings {
        BoostingSettings {
            trees,
            depth,
            learning_rate: 0.3,
            min_leaf_paragraphs: 5,
            l2: 1.0,
            thresholds: 32,
        }
    }

    #[test]
    fn trees_learn_an_interaction_no_single_weight_can() {
        // Main text when exactly one of two features is high: no weight per feature says that;
        // depth-2 trees do (the cuts sit off centre so that the first split already gains).
        let mut values = Vec::new();
        let mut labels = Vec::new();
        for index in 0..400 {
            let a = f64::from(index % 20) / 20.0;
            let b = f64::from(index / 20) / 20.0;
            values.push(vec![a, b]);
            labels.push((a >= 0.3) != (b >= 0.6));
        }
        let weights = vec![1.0; values.len()];
        let start = vec![0.0; values.len()];
        let rows = BoostingRows {
            values: &values,
            labels: &labels,
            weights: &weights,
            start: &start,
        };
        let trees = boost(&rows, &settings(30, 2));
        assert!(trees.check(2).is_ok());
        let right = values
            .iter()
            .zip(&labels)
            .filter(|(row, label)| (trees.margin(|feature| row[feature]) > 0.0) == **label)
            .count();
        assert_eq!(right, values.len());
        assert_eq!(trees, boost(&rows, &settings(30, 2)), "deterministic");
    }

    #[test]
    fn rows_already_explained_by_the_start_get_no_correction() {
        let values: Vec<Vec<f64>> = (0..100).map(|index| vec![f64::from(index)]).collect();
        let labels: Vec<bool> = (0..100).map(|index| index < 50).collect();
        let weights = vec![1.0; 100];
        let start: Vec<f64> = labels
            .iter()
            .map(|&main| if main { 30.0 } else { -30.0 })
            .collect();
        let rows = BoostingRows {
            values: &values,
            labels: &labels,
            weights: &weights,
            start: &start,
        };
        let trees = boost(&rows, &settings(5, 3));
        for row in &values {
            assert!(trees.margin(|feature| row[feature]).abs() < 1e-6);
        }
    }

    #[test]
    fn a_feature_with_few_values_is_cut_between_them_and_one_with_many_at_quantiles() {
        assert_eq!(thresholds(vec![1.0, 0.0, 1.0, 2.0], 8), [0.5, 1.5]);
        let many: Vec<f64> = (0..1000).map(f64::from).collect();
        let cuts = thresholds(many, 9);
        assert_eq!(cuts.len(), 9);
        assert_eq!(cuts[0], 100.0);
        assert!(thresholds(vec![3.0; 10], 8).is_empty());
    }
}
