//! The fast smoothing algorithm refuses, before allocating, a tree whose cost functions would not
//! fit its memory limit (a long chain), and still solves page-sized trees.

use std::time::Instant;

use pagelevel::smooth::generate::dom_shaped_problem;
use pagelevel::smooth::{
    Algorithm, FAST_MEMORY_LIMIT_BYTES, SmoothError, SmoothingProblem, smooth_with,
};

/// A path of `n` nodes with distinct scores: the fast algorithm's worst case (n²/2 knots).
fn chain(n: usize) -> SmoothingProblem {
    let parent: Vec<Option<usize>> = (0..n).map(|i| i.checked_sub(1)).collect();
    let score = (0..n).map(|i| ((i * 7919) % n) as f64 / n as f64).collect();
    SmoothingProblem::with_unit_weights(&parent, score, vec![0.1; n]).expect("valid problem")
}

#[test]
fn a_100000_node_chain_is_refused_at_once_naming_its_size_and_the_limit() {
    let started = Instant::now();
    let error = smooth_with(&chain(100_000), Algorithm::Fast).expect_err("refused");
    assert!(
        started.elapsed().as_secs_f64() < 5.0,
        "refused before the work, took {:?}",
        started.elapsed()
    );
    match &error {
        SmoothError::FastTooLarge {
            nodes,
            depth,
            limit_gib,
            ..
        } => {
            assert_eq!((*nodes, *depth), (100_000, 99_999));
            assert_eq!(
                *limit_gib,
                FAST_MEMORY_LIMIT_BYTES as f64 / (1u64 << 30) as f64
            );
        }
        other => panic!("unexpected error {other}"),
    }
    let message = error.to_string();
    assert!(
        message.contains("100000 nodes") && message.contains("limit 2.0 GiB"),
        "{message}"
    );
}

#[test]
fn a_20000_node_chain_is_refused_instead_of_taking_a_minute() {
    let started = Instant::now();
    let result = smooth_with(&chain(20_000), Algorithm::Fast);
    assert!(matches!(result, Err(SmoothError::FastTooLarge { .. })));
    assert!(started.elapsed().as_secs_f64() < 5.0);
}

#[test]
fn a_page_sized_tree_of_300000_nodes_is_still_smoothed() {
    let problem = dom_shaped_problem(300_000, 1);
    let smoothing = smooth_with(&problem, Algorithm::Fast).expect("smoothed");
    assert!(problem.is_isotone(&smoothing.smoothed));
    // A chain within the limit is solved too.
    let chain = chain(3_000);
    let fast = smooth_with(&chain, Algorithm::Fast).expect("smoothed");
    let paper = smooth_with(&chain, Algorithm::Paper).expect("smoothed");
    assert!((fast.cost - paper.cost).abs() <= 1e-9 * paper.cost.max(1.0));
}
