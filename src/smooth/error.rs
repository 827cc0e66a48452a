//! Errors of the smoothing stage: a malformed tree, values outside their domain, or a request the
//! reference algorithm cannot serve.

use thiserror::Error;

/// Why a parent array is not a rooted tree.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TreeError {
    #[error("the tree has no nodes; a tree needs at least its root")]
    Empty,
    #[error("the tree has {len} nodes; at most 4294967295 are supported")]
    TooManyNodes { len: usize },
    #[error("no root: every node has a parent (mark the root with parent -1)")]
    NoRoot,
    #[error("two roots: nodes {first} and {second} both have no parent (exactly one may)")]
    SeveralRoots { first: usize, second: usize },
    #[error("node {node} has parent {parent}, but there are only {len} nodes")]
    ParentOutOfRange {
        node: usize,
        parent: usize,
        len: usize,
    },
    #[error("node {node} is on a cycle of parents, so it does not descend from the root")]
    Cycle { node: usize },
}

/// Why a smoothing problem or its solution could not be made.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SmoothError {
    #[error(transparent)]
    Tree(#[from] TreeError),
    #[error("{field} has {found} entries but parent has {expected}; give one per node")]
    LengthMismatch {
        field: &'static str,
        expected: usize,
        found: usize,
    },
    #[error("score of node {node} is {value}; scores must lie in [0, 1]")]
    ScoreOutOfRange { node: usize, value: f64 },
    #[error("weight of node {node} is {value}; weights must be finite and greater than 0")]
    InvalidWeight { node: usize, value: f64 },
    #[error("penalty of node {node} is {value}; penalties must be finite and at least 0")]
    InvalidPenalty { node: usize, value: f64 },
    #[error(
        "the paper's algorithm would need {gib:.1} GiB for its table of {nodes} nodes × \
         {candidates} candidate values (limit {limit_gib:.1} GiB); use the fast algorithm"
    )]
    ReferenceTooLarge {
        nodes: usize,
        candidates: usize,
        gib: f64,
        limit_gib: f64,
    },
}

/// Why penalties or the hidden-node roll-up could not be computed.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum PenaltyError {
    #[error(transparent)]
    Tree(#[from] TreeError),
    #[error("area has {found} entries but parent has {expected}; give one per node")]
    LengthMismatch { expected: usize, found: usize },
    #[error("area of node {node} is {value}; areas must be finite and at least 0")]
    InvalidArea { node: usize, value: f64 },
    #[error(
        "area of visible node {node} is {value}; area-based penalties divide by it, so visible \
         nodes need a positive area (raise the hidden-area threshold above 0)"
    )]
    ZeroArea { node: usize, value: f64 },
    #[error("penalty scale c is {value}; it must be finite and at least 0")]
    InvalidScale { value: f64 },
}
