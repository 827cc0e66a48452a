//! Section penalties and hidden small nodes (Section 5.3).
//!
//! A good penalty makes tiny sections hard (their scores are unreliable), sections near the root
//! easy (their value constrains a whole subtree), and a child that fills most of its parent hard
//! to split off. The paper tried γᵢ = c·N/Nᵢ, c·A/Aᵢ and c·A_parent(i)/Aᵢ and settled on
//! 0.01·A/Aᵢ, our default. Nodes smaller than 2000 px² are *hidden*: neither classified nor
//! smoothed, each adds 1 to the weight of the nearest visible node above it.
//!
//! Everything here takes plain per-node arrays (a parent index, an area), so the scoring
//! pipeline can call it on any DOM representation.

use super::RootedTree;
use super::error::PenaltyError;

/// The constant c the paper settled on.
pub const DEFAULT_PENALTY_SCALE: f64 = 0.01;

/// Nodes with a smaller area (px²) are hidden (Section 5.3).
pub const DEFAULT_MIN_VISIBLE_AREA: f64 = 2000.0;

/// Which of the paper's penalty functions to use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PenaltyScheme {
    /// γᵢ = c·A/Aᵢ with A the page's (root's) area: small nodes pay more. The paper's choice.
    #[default]
    PageArea,
    /// γᵢ = c·N/Nᵢ with Nᵢ the number of nodes in i's subtree and N in the tree.
    SubtreeSize,
    /// γᵢ = c·A_parent(i)/Aᵢ, the paper's attempt at its third desideratum (a child filling
    /// most of its parent should not split off easily). The root, having no parent, pays c.
    ParentArea,
}

/// A penalty function: a scheme and its scale c.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Penalty {
    /// How γᵢ depends on the node (page area, subtree size or parent area over its own).
    pub scheme: PenaltyScheme,
    /// The constant c multiplying every γᵢ (≥ 0; the paper's 0.01 by default). Larger c means
    /// fewer, larger sections.
    pub scale: f64,
}

impl Default for Penalty {
    fn default() -> Self {
        Penalty {
            scheme: PenaltyScheme::PageArea,
            scale: DEFAULT_PENALTY_SCALE,
        }
    }
}

/// The penalty γᵢ of every node of the tree given by `parent` (`None` for the root), with
/// `area[i]` the rendered area of node i in px². Area-based schemes need a positive area at
/// every node; compute penalties on a [`VisibleTree`] or select them with [`VisibleTree::select`]
/// so that zero-area hidden nodes never divide.
pub fn penalties(
    parent: &[Option<usize>],
    area: &[f64],
    penalty: Penalty,
) -> Result<Vec<f64>, PenaltyError> {
    let tree = RootedTree::new(parent)?;
    check_areas(area, tree.len())?;
    let c = penalty.scale;
    if !(c.is_finite() && c >= 0.0) {
        return Err(PenaltyError::InvalidScale { value: c });
    }
    let per_area = |node: usize, numerator: f64| {
        if area[node] > 0.0 {
            Ok(c * numerator / area[node])
        } else {
            Err(PenaltyError::ZeroArea {
                node,
                value: area[node],
            })
        }
    };
    let page_area = area[tree.root()];
    match penalty.scheme {
        PenaltyScheme::PageArea => (0..tree.len())
            .map(|node| per_area(node, page_area))
            .collect(),
        PenaltyScheme::ParentArea => (0..tree.len())
            .map(|node| match tree.parent(node) {
                Some(p) => per_area(node, area[p]),
                None => Ok(c),
            })
            .collect(),
        PenaltyScheme::SubtreeSize => {
            let total = tree.len() as f64;
            Ok(tree
                .subtree_sizes()
                .iter()
                .map(|&size| c * total / f64::from(size))
                .collect())
        }
    }
}

/// The tree the smoother sees once hidden nodes are rolled up, with maps back to the original
/// nodes.
#[derive(Debug, Clone, PartialEq)]
pub struct VisibleTree {
    /// Parent of each visible node, as an index among visible nodes (`None` for the root).
    pub parent: Vec<Option<usize>>,
    /// 1 + the number of hidden nodes rolled into each visible node.
    pub weight: Vec<f64>,
    /// Original index of each visible node, ascending.
    pub original: Vec<usize>,
    /// For every original node, the visible node standing for it: itself if visible, else its
    /// nearest visible ancestor.
    pub representative: Vec<usize>,
}

impl VisibleTree {
    /// Number of visible nodes.
    pub fn len(&self) -> usize {
        self.original.len()
    }

    /// Always false: the root is always visible.
    pub fn is_empty(&self) -> bool {
        self.original.is_empty()
    }

    /// The entries of a per-original-node array that belong to visible nodes, in visible order.
    pub fn select<T: Copy>(&self, per_node: &[T]) -> Vec<T> {
        self.original.iter().map(|&i| per_node[i]).collect()
    }

    /// A per-original-node array from a per-visible-node one: a hidden node gets the value of
    /// the visible node it was rolled into (its smoothed score, its section).
    pub fn spread<T: Copy>(&self, per_visible: &[T]) -> Vec<T> {
        self.representative
            .iter()
            .map(|&v| per_visible[v])
            .collect()
    }
}

/// Hides every node whose `area` is below `min_visible_area` (the root excepted) and rolls each
/// into the nearest visible ancestor's weight. A visible node below a hidden one is kept and
/// attached to its nearest visible ancestor: zero-area wrappers (floats, `display: contents`)
/// often hold the large boxes of a page, and hiding them with their subtree would lose those.
pub fn roll_up_hidden(
    parent: &[Option<usize>],
    area: &[f64],
    min_visible_area: f64,
) -> Result<VisibleTree, PenaltyError> {
    let tree = RootedTree::new(parent)?;
    check_areas(area, tree.len())?;
    let visible: Vec<bool> = (0..tree.len())
        .map(|node| node == tree.root() || area[node] >= min_visible_area)
        .collect();
    let original: Vec<usize> = (0..tree.len()).filter(|&node| visible[node]).collect();
    let mut compact = vec![usize::MAX; tree.len()];
    for (index, &node) in original.iter().enumerate() {
        compact[node] = index;
    }

    let mut representative = vec![0; tree.len()];
    let mut visible_parent = vec![None; original.len()];
    let mut weight = vec![1.0; original.len()];
    for &node in tree.preorder() {
        let node = node as usize;
        let above = tree.parent(node).map(|p| representative[p]);
        if visible[node] {
            representative[node] = compact[node];
            visible_parent[compact[node]] = above;
        } else {
            let above = above.expect("the root is always visible");
            representative[node] = above;
            weight[above] += 1.0;
        }
    }
    Ok(VisibleTree {
        parent: visible_parent,
        weight,
        original,
        representative,
    })
}

fn check_areas(area: &[f64], len: usize) -> Result<(), PenaltyError> {
    if area.len() != len {
        return Err(PenaltyError::LengthMismatch {
            expected: len,
            found: area.len(),
        });
    }
    match area
        .iter()
        .enumerate()
        .find(|(_, a)| !(a.is_finite() && **a >= 0.0))
    {
        Some((node, &value)) => Err(PenaltyError::InvalidArea { node, value }),
        None => Ok(()),
    }
}
