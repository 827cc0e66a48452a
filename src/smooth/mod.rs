//! Exact regularized tree isotonic smoothing (Chakrabarti, Kumar, Punera, WWW 2007, Section 4):
//! turns noisy per-node templateness scores into monotone scores whose constant regions are the
//! page's sections.
//!
//! # The problem
//!
//! Tree nodes `i` have a parent `parent(i)` (one root has none), a classifier score
//! `x(i) ∈ [0, 1]`, a weight `w(i) > 0` (1 + the number of hidden small nodes rolled into `i`,
//! Section 5.3) and a penalty `γ(i) ≥ 0`. Find `y` with `y(i) ≥ y(parent(i))` for every non-root
//! node, minimizing
//!
//! ```text
//!     Σᵢ w(i)·|x(i) − y(i)|  +  Σ { γ(i) : i is the root, or y(i) ≠ y(parent(i)) }
//! ```
//!
//! The nodes where a new value starts (the root and every `i` with `y(i) ≠ y(parent(i))`) are
//! the *sections*: the page's segmentation. Some optimal `y` takes every value among the scores
//! `x` (the paper's Lemma 3; the median argument holds for weighted medians too), so both
//! algorithms search only the sorted distinct scores, the *candidates*.
//!
//! # The algorithms
//!
//! [`Algorithm::Paper`] is BuildError / IsotoneSmooth as published: an error and a decision per
//! node and candidate, O(n·m) memory and O(n·m·log m) time for n nodes and m candidates — kept
//! as the reference. [`Algorithm::Fast`] (the default) computes the same optimum with
//! piecewise-linear cost functions whose breakpoints grow only with the subtree (`fast.rs`
//! states how).
//!
//! Penalty functions and the hidden-node roll-up of Section 5.3 are in [`penalty`].

mod error;
mod fast;
pub mod generate;
mod json;
mod page;
mod paper;
pub mod penalty;
mod regions;
mod tree;

pub use error::{PenaltyError, SmoothError, TreeError};
pub use fast::FAST_MEMORY_LIMIT_BYTES;
pub use json::{ProblemJsonError, SmoothingJson};
pub use page::{NodeWeight, PageSmoothError, PageSmoothing, SmoothedPage, smooth_page};
pub use paper::PAPER_TABLE_LIMIT_BYTES;
pub use penalty::{Penalty, PenaltyScheme, VisibleTree, penalties, roll_up_hidden};
pub use regions::{
    MIN_REGION_AREA_SHARE, SKELETON_TILE_PENALTY_FACTOR, TILE_REFERENCE_HEIGHT, WRAPPER_AREA_SHARE,
    group_roots, least_tile_area, region_penalties,
};
pub use tree::RootedTree;

/// Which exact algorithm solves the problem; both return an optimum of the same cost.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Algorithm {
    /// Piecewise-linear cost functions merged up the tree: work ~ n × depth.
    #[default]
    Fast,
    /// The paper's BuildError / IsotoneSmooth with its n × m tables (the reference).
    Paper,
}

/// One regularized tree isotonic regression instance, validated.
#[derive(Debug, Clone)]
pub struct SmoothingProblem {
    tree: RootedTree,
    score: Vec<f64>,
    weight: Vec<f64>,
    penalty: Vec<f64>,
}

impl SmoothingProblem {
    /// Builds a problem from one entry per node: `parent` (`None` for the root), classifier
    /// `score` in [0, 1], `weight` > 0 and `penalty` ≥ 0. Parents may have any index.
    pub fn new(
        parent: &[Option<usize>],
        score: Vec<f64>,
        weight: Vec<f64>,
        penalty: Vec<f64>,
    ) -> Result<SmoothingProblem, SmoothError> {
        let len = parent.len();
        for (field, found) in [
            ("score", score.len()),
            ("weight", weight.len()),
            ("penalty", penalty.len()),
        ] {
            if found != len {
                return Err(SmoothError::LengthMismatch {
                    field,
                    expected: len,
                    found,
                });
            }
        }
        let tree = RootedTree::new(parent)?;
        if let Some((node, &value)) = score
            .iter()
            .enumerate()
            .find(|(_, x)| !(0.0..=1.0).contains(*x))
        {
            return Err(SmoothError::ScoreOutOfRange { node, value });
        }
        if let Some((node, &value)) = weight
            .iter()
            .enumerate()
            .find(|(_, w)| !(w.is_finite() && **w > 0.0))
        {
            return Err(SmoothError::InvalidWeight { node, value });
        }
        if let Some((node, &value)) = penalty
            .iter()
            .enumerate()
            .find(|(_, g)| !(g.is_finite() && **g >= 0.0))
        {
            return Err(SmoothError::InvalidPenalty { node, value });
        }
        Ok(SmoothingProblem {
            tree,
            score,
            weight,
            penalty,
        })
    }

    /// Like [`SmoothingProblem::new`] with every weight 1 (no hidden nodes).
    pub fn with_unit_weights(
        parent: &[Option<usize>],
        score: Vec<f64>,
        penalty: Vec<f64>,
    ) -> Result<SmoothingProblem, SmoothError> {
        let weight = vec![1.0; score.len()];
        SmoothingProblem::new(parent, score, weight, penalty)
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.tree.len()
    }

    /// Always false: a problem has at least its root.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The tree.
    pub fn tree(&self) -> &RootedTree {
        &self.tree
    }

    /// Classifier scores x.
    pub fn score(&self) -> &[f64] {
        &self.score
    }

    /// Node weights w.
    pub fn weight(&self) -> &[f64] {
        &self.weight
    }

    /// Section penalties γ.
    pub fn penalty(&self) -> &[f64] {
        &self.penalty
    }

    /// Whether `smoothed` never lets a child fall below its parent.
    pub fn is_isotone(&self, smoothed: &[f64]) -> bool {
        (0..self.len()).all(|i| {
            self.tree
                .parent(i)
                .is_none_or(|p| smoothed[i] >= smoothed[p])
        })
    }

    /// Nodes that start a section under `smoothed`, ascending: the root and every node whose
    /// value differs from its parent's.
    pub fn sections_of(&self, smoothed: &[f64]) -> Vec<usize> {
        (0..self.len())
            .filter(|&i| {
                self.tree
                    .parent(i)
                    .is_none_or(|p| smoothed[i] != smoothed[p])
            })
            .collect()
    }

    /// The objective: weighted L1 distance from the scores plus the penalty of every section.
    pub fn cost_of(&self, smoothed: &[f64]) -> f64 {
        let distance: f64 = (0..self.len())
            .map(|i| self.weight[i] * (self.score[i] - smoothed[i]).abs())
            .sum();
        let penalties: f64 = self
            .sections_of(smoothed)
            .iter()
            .map(|&i| self.penalty[i])
            .sum();
        distance + penalties
    }

    /// Sorted distinct scores and each node's position among them.
    fn candidates(&self) -> Candidates {
        let mut values = self.score.clone();
        values.sort_by(f64::total_cmp);
        values.dedup();
        let rank = self
            .score
            .iter()
            .map(|x| values.partition_point(|v| v < x) as u32)
            .collect();
        Candidates { values, rank }
    }

    fn smoothing_from_ranks(&self, candidates: &Candidates, ranks: &[u32]) -> Smoothing {
        let smoothed: Vec<f64> = ranks
            .iter()
            .map(|&r| candidates.values[r as usize])
            .collect();
        Smoothing {
            cost: self.cost_of(&smoothed),
            sections: self.sections_of(&smoothed),
            smoothed,
        }
    }
}

/// The values an optimal solution may take (Lemma 3): the distinct scores, ascending.
struct Candidates {
    values: Vec<f64>,
    /// `values[rank[i]] == score[i]`.
    rank: Vec<u32>,
}

/// An optimal smoothing.
#[derive(Debug, Clone, PartialEq)]
pub struct Smoothing {
    /// y: one value per node, never below the parent's.
    pub smoothed: Vec<f64>,
    /// The objective value of `smoothed`.
    pub cost: f64,
    /// Nodes that start a section, by ascending index.
    pub sections: Vec<usize>,
}

/// Solves `problem` exactly with the fast algorithm.
///
/// # Panics
///
/// When the problem is refused for its size ([`SmoothError::FastTooLarge`]: a tree so deep and
/// so large, such as a path of 10,000 nodes, that its cost functions would pass
/// [`FAST_MEMORY_LIMIT_BYTES`]); [`smooth_with`] returns that refusal as an error instead.
pub fn smooth(problem: &SmoothingProblem) -> Smoothing {
    smooth_with(problem, Algorithm::Fast).unwrap_or_else(|error| panic!("{error}"))
}

/// Solves `problem` exactly with the chosen algorithm. Both refuse problems beyond their memory
/// limits rather than attempt them: [`Algorithm::Paper`]'s table grows as nodes × candidates
/// ([`PAPER_TABLE_LIMIT_BYTES`]), [`Algorithm::Fast`]'s cost functions as nodes × depth
/// ([`FAST_MEMORY_LIMIT_BYTES`]).
pub fn smooth_with(
    problem: &SmoothingProblem,
    algorithm: Algorithm,
) -> Result<Smoothing, SmoothError> {
    let candidates = problem.candidates();
    let ranks = match algorithm {
        Algorithm::Fast => fast::solve(problem, &candidates)?,
        Algorithm::Paper => paper::solve(problem, &candidates)?,
    };
    Ok(problem.smoothing_from_ranks(&candidates, &ranks))
}
