//! The reference: Algorithms BuildError and IsotoneSmooth of Section 4, as published.
//!
//! `err(i, j)` is the optimal cost of the subtree of `i` when its parent has the `j`-th
//! candidate value, `val(i, j)` the candidate `i` then takes. Step 4 finds, for each `j`, the best
//! strictly larger candidate with a heap, as in the paper's complexity analysis: O(n·m·log m)
//! time for n nodes and m candidates, and an n × m `val` table.
//!
//! Where this differs from the printed pseudo-code, and why:
//! - distances are multiplied by the weight `w(i)` and the penalty is per node, `γ(i)`
//!   (Section 5.3 and the remark after equation 4);
//! - the root: step 4 as printed lets the root take only candidates strictly above some `j`,
//!   so it could never take the smallest score; the root instead takes the best of all
//!   candidates, which is what IsotoneSmooth's first line means;
//! - memory: a child's `err` row is added into its parent's running sum as soon as the child is
//!   done, so only `val` is kept for every node (the `err` rows are never read again).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::error::SmoothError;
use super::{Candidates, SmoothingProblem};

/// Largest `val` table (4 bytes per node and candidate) the reference will allocate: 8 GiB,
/// about 46,000 nodes with distinct scores. Beyond it the reference is refused, not attempted.
pub const PAPER_TABLE_LIMIT_BYTES: u64 = 8 << 30;

/// A candidate with the cost of starting a new section at it, ordered so that the
/// `BinaryHeap` (a max-heap) pops the cheapest, then the smallest candidate.
#[derive(Debug, Clone, Copy, PartialEq)]
struct NewSection {
    err: f64,
    at: u32,
}

impl Eq for NewSection {}

impl Ord for NewSection {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .err
            .total_cmp(&self.err)
            .then_with(|| other.at.cmp(&self.at))
    }
}

impl PartialOrd for NewSection {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Returns, for every node, the index of its smoothed value among the candidates.
pub(super) fn solve(
    problem: &SmoothingProblem,
    candidates: &Candidates,
) -> Result<Vec<u32>, SmoothError> {
    let tree = problem.tree();
    let (x, w, gamma) = (problem.score(), problem.weight(), problem.penalty());
    let values = &candidates.values;
    let (n, m) = (problem.len(), values.len());
    let bytes = (n as u64) * (m as u64) * 4;
    if bytes > PAPER_TABLE_LIMIT_BYTES {
        const GIB: f64 = (1u64 << 30) as f64;
        return Err(SmoothError::ReferenceTooLarge {
            nodes: n,
            candidates: m,
            gib: bytes as f64 / GIB,
            limit_gib: PAPER_TABLE_LIMIT_BYTES as f64 / GIB,
        });
    }

    let mut val = vec![0u32; n * m];
    // Σ over finished children of err(child, ·), kept only until the node itself is done.
    let mut children_err: Vec<Vec<f64>> = vec![Vec::new(); n];
    let mut err0 = vec![0.0f64; m];
    let mut heap = BinaryHeap::with_capacity(m);
    let mut root_choice = 0u32;

    // BuildError, children before parents.
    for &node in tree.preorder().iter().rev() {
        let i = node as usize;
        let val_row = &mut val[i * m..(i + 1) * m];
        let Some(parent) = tree.parent(i) else {
            let below = std::mem::take(&mut children_err[i]);
            for j in 0..m {
                err0[j] = w[i] * (x[i] - values[j]).abs() + below.get(j).copied().unwrap_or(0.0);
            }
            root_choice = argmin(&err0);
            continue;
        };
        if children_err[parent].is_empty() {
            children_err[parent] = vec![0.0; m];
        }
        if tree.children(i).is_empty() {
            // Step 1: a leaf either keeps its parent's value or starts its own section at x(i).
            let own = candidates.rank[i];
            let err = &mut children_err[parent];
            for j in 0..m {
                let distance = w[i] * (x[i] - values[j]);
                if distance > gamma[i] {
                    err[j] += gamma[i];
                    val_row[j] = own;
                } else {
                    err[j] += distance.abs();
                    val_row[j] = j as u32;
                }
            }
            continue;
        }
        // Step 3: cost with y(i) = x(j), paying for a new section.
        let below = std::mem::take(&mut children_err[i]);
        for j in 0..m {
            err0[j] = w[i] * (x[i] - values[j]).abs() + below[j] + gamma[i];
        }
        // Step 4: continue the parent's value, or start a section at the best larger value.
        heap.clear();
        heap.extend((0..m).map(|k| NewSection {
            err: err0[k],
            at: k as u32,
        }));
        let err = &mut children_err[parent];
        for j in 0..m {
            while heap.peek().is_some_and(|best| best.at as usize <= j) {
                heap.pop();
            }
            let continued = err0[j] - gamma[i];
            match heap.peek() {
                Some(best) if continued >= best.err => {
                    err[j] += best.err;
                    val_row[j] = best.at;
                }
                _ => {
                    err[j] += continued;
                    val_row[j] = j as u32;
                }
            }
        }
    }

    // IsotoneSmooth: parents before children, each following its parent's choice.
    let mut choice = vec![0u32; n];
    choice[tree.root()] = root_choice;
    for &node in &tree.preorder()[1..] {
        let i = node as usize;
        let parent = tree.parent(i).expect("only the root lacks a parent");
        choice[i] = val[i * m + choice[parent] as usize];
    }
    Ok(choice)
}

/// Index of the first smallest entry.
fn argmin(costs: &[f64]) -> u32 {
    let mut best = 0;
    for (k, cost) in costs.iter().enumerate() {
        if *cost < costs[best] {
            best = k;
        }
    }
    best as u32
}
