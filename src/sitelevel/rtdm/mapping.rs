//! RTDM-TD (Vieira et al., Figure 3) and retrieveTemplate (Figure 4): the minimum-cost
//! restricted top-down mapping between two trees, kept as the nodes it maps unchanged.
//!
//! **Costs.** Deleting, inserting or replacing a node costs 1. Children of two mapped nodes are
//! aligned like strings: a child pair with identical subtrees costs 0 (`ident`); a pair with
//! equal labels but different subtrees costs the mapping of their children (the recursive call);
//! a pair with different labels is a replacement, which in a *restricted* mapping also deletes
//! and inserts everything below the pair. Skipping a child deletes (or inserts) its subtree.
//!
//! **Two fixes to the printed pseudocode,** whose lines 22–30 cannot be meant literally: the
//! same-label case only allows the recursive step (the printed `S` would be a free replacement),
//! and a replacement adds to `M[i−1, j−1]` (the printed line 30 drops it).
//!
//! **Ties** prefer the mapping that keeps nodes (identical, then recursed), then deletion,
//! insertion and replacement, so the template is as large as the optimum allows; the
//! traceback runs from the last cell, as retrieveTemplate does.
//!
//! **Memory.** Instead of keeping every cell's backtracking matrix, each call traces its own
//! matrix back at once and keeps only the recursive results on the chosen path.
//!
//! **Depth.** Recursion stops at [`MAX_DEPTH`] levels; deeper same-label pairs count as
//! identical or replaced, which bounds the stack on hostile pages.

use super::tree::LabeledTree;

/// Deepest level the mapping recurses to.
pub(crate) const MAX_DEPTH: usize = 256;

/// How two mapped nodes relate.
#[derive(Debug, Clone)]
pub(crate) enum PairKind {
    /// Identical subtrees: every node below is mapped unchanged.
    Identical,
    /// Equal labels, different subtrees: the mapping of their children.
    Recursed(Vec<MappedPair>),
}

/// Two nodes (left tree, right tree) the mapping keeps.
#[derive(Debug, Clone)]
pub(crate) struct MappedPair {
    pub left: u32,
    pub right: u32,
    pub kind: PairKind,
}

/// The mapping of two trees' roots: `None` when the roots' labels differ (nothing is common).
pub(crate) fn map_trees(left: &LabeledTree, right: &LabeledTree) -> Option<MappedPair> {
    let (left_root, right_root) = (left.nodes.first()?, right.nodes.first()?);
    if left_root.label != right_root.label {
        return None;
    }
    let kind = if left_root.subtree_hash == right_root.subtree_hash {
        PairKind::Identical
    } else {
        PairKind::Recursed(map_children(left, 0, right, 0, 0).1)
    };
    Some(MappedPair {
        left: 0,
        right: 0,
        kind,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Identical,
    Recursed,
    Delete,
    Insert,
    Replace,
}

/// Aligns the children of `a` (left) and `b` (right): the cost and the kept pairs, in order.
fn map_children(
    left: &LabeledTree,
    a: u32,
    right: &LabeledTree,
    b: u32,
    depth: usize,
) -> (u32, Vec<MappedPair>) {
    let xs = &left.nodes[a as usize].children;
    let ys = &right.nodes[b as usize].children;
    let (m, n) = (xs.len(), ys.len());
    let width = n + 1;
    let size_x = |i: usize| left.nodes[xs[i - 1] as usize].size;
    let size_y = |j: usize| right.nodes[ys[j - 1] as usize].size;
    let mut cost = vec![0u32; (m + 1) * width];
    let mut step = vec![Step::Delete; (m + 1) * width];
    let mut recursed: Vec<(usize, Vec<MappedPair>)> = Vec::new();
    for i in 1..=m {
        cost[i * width] = cost[(i - 1) * width] + size_x(i);
        step[i * width] = Step::Delete;
    }
    for j in 1..=n {
        cost[j] = cost[j - 1] + size_y(j);
        step[j] = Step::Insert;
    }
    for i in 1..=m {
        let x = &left.nodes[xs[i - 1] as usize];
        for j in 1..=n {
            let y = &right.nodes[ys[j - 1] as usize];
            let diagonal = cost[(i - 1) * width + j - 1];
            let (mut best, mut best_step) = if x.subtree_hash == y.subtree_hash {
                (diagonal, Step::Identical)
            } else if x.label == y.label && depth < MAX_DEPTH {
                let (below, pairs) = map_children(left, xs[i - 1], right, ys[j - 1], depth + 1);
                recursed.push((i * width + j, pairs));
                (diagonal + below, Step::Recursed)
            } else {
                let replace = u32::from(x.label != y.label);
                (
                    diagonal + replace + (x.size - 1) + (y.size - 1),
                    Step::Replace,
                )
            };
            let delete = cost[(i - 1) * width + j] + x.size;
            let insert = cost[i * width + j - 1] + y.size;
            if delete < best {
                (best, best_step) = (delete, Step::Delete);
            }
            if insert < best {
                (best, best_step) = (insert, Step::Insert);
            }
            cost[i * width + j] = best;
            step[i * width + j] = best_step;
        }
    }
    let mut pairs = Vec::new();
    let (mut i, mut j) = (m, n);
    while i > 0 && j > 0 {
        let cell = i * width + j;
        match step[cell] {
            Step::Delete => i -= 1,
            Step::Insert => j -= 1,
            Step::Replace => (i, j) = (i - 1, j - 1),
            Step::Identical | Step::Recursed => {
                let kind = if step[cell] == Step::Identical {
                    PairKind::Identical
                } else {
                    let position = recursed
                        .binary_search_by_key(&cell, |(cell, _)| *cell)
                        .expect("every recursed cell has its result");
                    PairKind::Recursed(std::mem::take(&mut recursed[position].1))
                };
                pairs.push(MappedPair {
                    left: xs[i - 1],
                    right: ys[j - 1],
                    kind,
                });
                (i, j) = (i - 1, j - 1);
            }
        }
    }
    pairs.reverse();
    (cost[m * width + n], pairs)
}

/// Which nodes of each tree the mapping keeps (retrieveTemplate, for both sides at once).
pub(crate) fn mapped_nodes(
    pair: &MappedPair,
    left: &LabeledTree,
    right: &LabeledTree,
) -> (Vec<bool>, Vec<bool>) {
    let mut left_kept = vec![false; left.nodes.len()];
    let mut right_kept = vec![false; right.nodes.len()];
    let mut pending = vec![pair];
    while let Some(pair) = pending.pop() {
        match &pair.kind {
            PairKind::Identical => {
                left_kept[left.subtree(pair.left)].fill(true);
                right_kept[right.subtree(pair.right)].fill(true);
            }
            PairKind::Recursed(children) => {
                left_kept[pair.left as usize] = true;
                right_kept[pair.right as usize] = true;
                pending.extend(children);
            }
        }
    }
    (left_kept, right_kept)
}
