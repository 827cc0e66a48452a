//! Regression trees that correct a main-text model's logit (gradient boosting from the logistic
//! regression's answer): a paragraph's features interact — a short linked paragraph is a post's
//! signature on one page and a card's title on another — which one weight per feature cannot
//! say. The trees are fitted by [`crate::train::boosting`]; this module reads, checks and
//! applies them.

use serde::{Deserialize, Serialize};

/// Trees whose leaf values, summed, are added to a model's logit.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BoostedTrees {
    /// How they were fitted, for the model's card.
    pub fitted: BoostingSettings,
    /// The trees, in the order they were fitted.
    pub trees: Vec<RegressionTree>,
}

/// The settings a [`BoostedTrees`] was fitted with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct BoostingSettings {
    /// How many trees.
    pub trees: usize,
    /// How deep each may grow.
    pub depth: usize,
    /// Each tree's leaf values are its Newton step times this.
    pub learning_rate: f64,
    /// A leaf needs at least this many paragraphs.
    pub min_leaf_paragraphs: usize,
    /// L2 regularisation of the leaf values.
    pub l2: f64,
    /// At most this many thresholds are tried per feature.
    pub thresholds: usize,
}

/// One tree: node 0 is the root; a split's children come after it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegressionTree {
    /// Its nodes, the root first.
    pub nodes: Vec<TreeNode>,
}

/// A node of a [`RegressionTree`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TreeNode {
    /// A paragraph goes left when its value of `feature` is below `below`, else right.
    Split {
        /// The feature's position among the model's features.
        feature: usize,
        /// The threshold.
        below: f64,
        /// The node for values below it.
        left: usize,
        /// The node for the others.
        right: usize,
    },
    /// What the tree adds to the logit.
    Leaf(f64),
}

impl BoostedTrees {
    /// What the trees add to the logit of a paragraph whose model features are `value(i)`.
    pub fn margin(&self, value: impl Fn(usize) -> f64) -> f64 {
        self.trees.iter().map(|tree| tree.value(&value)).sum()
    }

    /// Why these trees cannot be applied to a model of `feature_count` features, if they
    /// cannot: a feature out of range, a child that is not after its parent (a cycle), a value
    /// that is not finite.
    pub fn check(&self, feature_count: usize) -> Result<(), String> {
        for (index, tree) in self.trees.iter().enumerate() {
            tree.check(feature_count)
                .map_err(|reason| format!("tree {index}: {reason}"))?;
        }
        Ok(())
    }
}

impl RegressionTree {
    /// The leaf value a paragraph reaches.
    pub fn value(&self, value: &impl Fn(usize) -> f64) -> f64 {
        let mut at = 0;
        loop {
            match self.nodes[at] {
                TreeNode::Leaf(leaf) => return leaf,
                TreeNode::Split {
                    feature,
                    below,
                    left,
                    right,
                } => at = if value(feature) < below { left } else { right },
            }
        }
    }

    fn check(&self, feature_count: usize) -> Result<(), String> {
        if self.nodes.is_empty() {
            return Err("no nodes".to_string());
        }
        for (index, node) in self.nodes.iter().enumerate() {
            match *node {
                TreeNode::Leaf(value) if !value.is_finite() => {
                    return Err(format!("node {index}'s value is not finite"));
                }
                TreeNode::Leaf(_) => {}
                TreeNode::Split {
                    feature,
                    below,
                    left,
                    right,
                } => {
                    if feature >= feature_count {
                        return Err(format!(
                            "node {index} splits on feature {feature} of {feature_count}"
                        ));
                    }
                    if below.is_nan() {
                        return Err(format!("node {index}'s threshold is not a number"));
                    }
                    // Children after their parent: every walk ends, at a leaf.
                    let in_order = |child: usize| child > index && child < self.nodes.len();
                    if !in_order(left) || !in_order(right) {
                        return Err(format!("node {index}'s children are not after it"));
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stump(feature: usize, below: f64, left: f64, right: f64) -> RegressionTree {
        RegressionTree {
            nodes: vec![
                TreeNode::Split {
                    feature,
                    below,
                    left: 1,
                    right: 2,
                },
                TreeNode::Leaf(left),
                TreeNode::Leaf(right),
            ],
        }
    }

    #[test]
    fn a_paragraph_walks_each_tree_to_a_leaf_and_their_values_add() {
        let trees = BoostedTrees {
            fitted: BoostingSettings::default(),
            trees: vec![stump(0, 0.5, -1.0, 1.0), stump(1, 10.0, 0.25, -0.25)],
        };
        let features = [0.7, 3.0];
        assert_eq!(trees.margin(|index| features[index]), 1.25);
        let features = [0.5, 10.0];
        assert_eq!(trees.margin(|index| features[index]), 0.75);
        assert!(trees.check(2).is_ok());
    }

    #[test]
    fn trees_that_could_loop_or_read_past_the_features_are_refused() {
        let mut looping = stump(0, 0.5, 0.0, 0.0);
        looping.nodes[0] = TreeNode::Split {
            feature: 0,
            below: 0.5,
            left: 0,
            right: 2,
        };
        let unknown_feature = stump(5, 0.5, 0.0, 0.0);
        let infinite = stump(0, 0.5, f64::INFINITY, 0.0);
        for (tree, reason) in [
            (looping, "not after it"),
            (unknown_feature, "feature 5 of 2"),
            (infinite, "not finite"),
            (RegressionTree { nodes: Vec::new() }, "no nodes"),
        ] {
            let trees = BoostedTrees {
                fitted: BoostingSettings::default(),
                trees: vec![tree],
            };
            let error = trees.check(2).unwrap_err();
            assert!(error.contains(reason), "{error}");
        }
    }

    #[test]
    fn trees_read_back_from_json_as_written() {
        let trees = BoostedTrees {
            fitted: BoostingSettings::default(),
            trees: vec![stump(1, -0.5, 0.125, -2.0)],
        };
        let json = serde_json::to_string(&trees).unwrap();
        assert!(json.contains(r#"{"leaf":0.125}"#), "{json}");
        assert_eq!(serde_json::from_str::<BoostedTrees>(&json).unwrap(), trees);
    }
}
