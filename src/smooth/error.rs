//! Errors of the smoothing stage: a malformed tree, values outside their domain, or a request the
//! reference algorithm cannot serve.

use thiserror::Error;

/// Why a parent array is not a rooted tree.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TreeError {
    /// The parent array has no entries at all.
    #[error("the tree has no nodes; a tree needs at least its root")]
    Empty,
    /// The parent array has more entries than node indices fit in a `u32`.
    #[error("the tree has {len} nodes; at most 4294967295 are supported")]
    TooManyNodes {
        /// Number of entries in the parent array.
        len: usize,
    },
    /// Every node has a parent, so none is marked as the root (`None` / `-1`).
    #[error("no root: every node has a parent (mark the root with parent -1)")]
    NoRoot,
    /// More than one node has no parent; reported at the second one found.
    #[error("two roots: nodes {first} and {second} both have no parent (exactly one may)")]
    SeveralRoots {
        /// Index of the first parentless node.
        first: usize,
        /// Index of the second parentless node.
        second: usize,
    },
    /// A node names a parent index past the end of the array.
    #[error("node {node} has parent {parent}, but there are only {len} nodes")]
    ParentOutOfRange {
        /// Index of the node with the bad parent.
        node: usize,
        /// The parent index it names.
        parent: usize,
        /// Number of nodes in the array (valid parents are `0..len`).
        len: usize,
    },
    /// Following parents from some node never reaches the root (a node is its own parent, or
    /// several nodes form a loop).
    #[error("node {node} is on a cycle of parents, so it does not descend from the root")]
    Cycle {
        /// Index of one node on the cycle.
        node: usize,
    },
}

/// Why a smoothing problem or its solution could not be made.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SmoothError {
    /// The parent array is not a rooted tree.
    #[error(transparent)]
    Tree(#[from] TreeError),
    /// A per-node array (score, weight or penalty) has a different length from `parent`.
    #[error("{field} has {found} entries but parent has {expected}; give one per node")]
    LengthMismatch {
        /// Name of the offending array: `"score"`, `"weight"` or `"penalty"`.
        field: &'static str,
        /// Number of nodes, i.e. the length of `parent`.
        expected: usize,
        /// Length of the offending array.
        found: usize,
    },
    /// A classifier score is outside [0, 1] (or NaN).
    #[error("score of node {node} is {value}; scores must lie in [0, 1]")]
    ScoreOutOfRange {
        /// Index of the first node with a bad score.
        node: usize,
        /// Its score.
        value: f64,
    },
    /// A weight is zero, negative, infinite or NaN.
    #[error("weight of node {node} is {value}; weights must be finite and greater than 0")]
    InvalidWeight {
        /// Index of the first node with a bad weight.
        node: usize,
        /// Its weight.
        value: f64,
    },
    /// A penalty γ is negative, infinite or NaN.
    #[error("penalty of node {node} is {value}; penalties must be finite and at least 0")]
    InvalidPenalty {
        /// Index of the first node with a bad penalty.
        node: usize,
        /// Its penalty γ.
        value: f64,
    },
    /// [`Algorithm::Paper`](super::Algorithm::Paper) was asked for a problem whose n × m
    /// decision table would exceed [`PAPER_TABLE_LIMIT_BYTES`](super::PAPER_TABLE_LIMIT_BYTES);
    /// the fast algorithm solves the same problem without the table.
    #[error(
        "the paper's algorithm would need {gib:.1} GiB for its table of {nodes} nodes × \
         {candidates} candidate values (limit {limit_gib:.1} GiB); use the fast algorithm"
    )]
    ReferenceTooLarge {
        /// Number of tree nodes n.
        nodes: usize,
        /// Number of candidate values m (the distinct scores).
        candidates: usize,
        /// Size the table would take, in GiB (4 bytes per node and candidate).
        gib: f64,
        /// The allowed table size, in GiB.
        limit_gib: f64,
    },
    /// [`Algorithm::Fast`](super::Algorithm::Fast) was asked for a problem whose cost functions
    /// would exceed [`FAST_MEMORY_LIMIT_BYTES`](super::FAST_MEMORY_LIMIT_BYTES): their knots grow
    /// as nodes × depth, so a very deep tree (a long chain of nested elements) is refused before
    /// anything is allocated.
    #[error(
        "smoothing a tree of {nodes} nodes, {depth} deep, with {candidates} distinct scores \
         would need about {gib:.1} GiB (limit {limit_gib:.1} GiB): the tree is too deep for \
         the exact algorithm (lower --max-depth to refuse such pages, or smooth a shallower tree)"
    )]
    FastTooLarge {
        /// Number of tree nodes n.
        nodes: usize,
        /// Depth of the deepest node (the root is at 0).
        depth: u32,
        /// Number of candidate values m (the distinct scores).
        candidates: usize,
        /// Memory the knots would take, in GiB (estimated, or counted when the estimate fell
        /// short).
        gib: f64,
        /// The allowed memory, in GiB.
        limit_gib: f64,
    },
}

/// Why penalties or the hidden-node roll-up could not be computed.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum PenaltyError {
    /// The parent array is not a rooted tree.
    #[error(transparent)]
    Tree(#[from] TreeError),
    /// The area array has a different length from `parent`.
    #[error("area has {found} entries but parent has {expected}; give one per node")]
    LengthMismatch {
        /// Number of nodes, i.e. the length of `parent`.
        expected: usize,
        /// Length of the area array.
        found: usize,
    },
    /// An area is negative, infinite or NaN.
    #[error("area of node {node} is {value}; areas must be finite and at least 0")]
    InvalidArea {
        /// Index of the first node with a bad area.
        node: usize,
        /// Its area in px².
        value: f64,
    },
    /// An area-based scheme ([`PenaltyScheme::PageArea`](super::PenaltyScheme::PageArea) or
    /// [`PenaltyScheme::ParentArea`](super::PenaltyScheme::ParentArea)) met a node of area 0,
    /// which it would divide by.
    #[error(
        "area of visible node {node} is {value}; area-based penalties divide by it, so visible \
         nodes need a positive area (raise the hidden-area threshold above 0)"
    )]
    ZeroArea {
        /// Index of the zero-area node.
        node: usize,
        /// Its area in px² (0).
        value: f64,
    },
    /// The penalty scale c is negative, infinite or NaN.
    #[error("penalty scale c is {value}; it must be finite and at least 0")]
    InvalidScale {
        /// The rejected scale c.
        value: f64,
    },
}
