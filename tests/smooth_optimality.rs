//! Both smoothing algorithms are exact: on small random trees of every shape they reach the
//! brute-force optimum, and on larger trees they agree with each other.

use pagelevel::smooth::{
    Algorithm, Smoothing, SmoothingProblem, generate::dom_shaped_problem, smooth, smooth_with,
};
use proptest::prelude::*;

/// A random problem: parents drawn so the tree is valid, then nodes relabelled by a random
/// permutation so parents come in any order.
fn problem(max_nodes: usize) -> impl Strategy<Value = SmoothingProblem> {
    (1..=max_nodes)
        .prop_flat_map(|n| {
            let parents: Vec<_> = (1..n).map(|i| 0..i).collect();
            let score = prop_oneof![(0..=4u8).prop_map(|k| f64::from(k) / 4.0), 0.0..=1.0f64,];
            let weight = prop_oneof![Just(1.0), (1..=4u8).prop_map(f64::from), 0.1..5.0f64];
            let penalty = prop_oneof![
                Just(0.0),
                (0..=4u8).prop_map(|k| f64::from(k) / 8.0),
                0.0..1.0f64
            ];
            (
                parents,
                prop::collection::vec(score, n),
                prop::collection::vec(weight, n),
                prop::collection::vec(penalty, n),
                Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
            )
        })
        .prop_map(|(parents, score, weight, penalty, label)| {
            let mut parent = vec![None; label.len()];
            for (child, p) in parents.iter().enumerate() {
                parent[label[child + 1]] = Some(label[*p]);
            }
            let relabel = |values: Vec<f64>| {
                let mut out = vec![0.0; values.len()];
                for (i, v) in values.into_iter().enumerate() {
                    out[label[i]] = v;
                }
                out
            };
            let (score, weight, penalty) = (relabel(score), relabel(weight), relabel(penalty));
            SmoothingProblem::new(&parent, score, weight, penalty).expect("valid by construction")
        })
}

/// The optimum by enumerating every isotone assignment of distinct scores.
fn brute_force_cost(problem: &SmoothingProblem) -> f64 {
    let mut values = problem.score().to_vec();
    values.sort_by(f64::total_cmp);
    values.dedup();
    let order = problem.tree().preorder().to_vec();
    let mut y = vec![0.0; problem.len()];
    let mut best = f64::INFINITY;
    enumerate(problem, &values, &order, 0, &mut y, &mut best);
    best
}

fn enumerate(
    problem: &SmoothingProblem,
    values: &[f64],
    order: &[u32],
    next: usize,
    y: &mut Vec<f64>,
    best: &mut f64,
) {
    let Some(&node) = order.get(next) else {
        *best = best.min(problem.cost_of(y));
        return;
    };
    let node = node as usize;
    let floor = problem.tree().parent(node).map_or(0.0, |p| y[p]);
    for &value in values.iter().filter(|&&v| v >= floor) {
        y[node] = value;
        enumerate(problem, values, order, next + 1, y, best);
    }
}

fn assert_same_cost(found: f64, optimum: f64) {
    let gap = (found - optimum).abs() / optimum.abs().max(1.0);
    assert!(gap <= 1e-9, "cost {found} is not the optimum {optimum}");
}

fn assert_consistent(problem: &SmoothingProblem, smoothing: &Smoothing) {
    assert!(problem.is_isotone(&smoothing.smoothed));
    assert_eq!(smoothing.cost, problem.cost_of(&smoothing.smoothed));
    assert_eq!(smoothing.sections, problem.sections_of(&smoothing.smoothed));
    assert!(
        smoothing
            .smoothed
            .iter()
            .all(|y| problem.score().contains(y))
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn fast_smoothing_reaches_the_brute_force_optimum(problem in problem(7)) {
        let smoothing = smooth(&problem);
        assert_consistent(&problem, &smoothing);
        assert_same_cost(smoothing.cost, brute_force_cost(&problem));
    }

    #[test]
    fn paper_smoothing_reaches_the_brute_force_optimum(problem in problem(7)) {
        let smoothing = smooth_with(&problem, Algorithm::Paper).unwrap();
        assert_consistent(&problem, &smoothing);
        assert_same_cost(smoothing.cost, brute_force_cost(&problem));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn fast_and_paper_agree_on_random_trees_of_hundreds_of_nodes(problem in problem(300)) {
        let fast = smooth(&problem);
        let paper = smooth_with(&problem, Algorithm::Paper).unwrap();
        assert_consistent(&problem, &fast);
        assert_same_cost(fast.cost, paper.cost);
    }
}

#[test]
fn fast_and_paper_agree_on_dom_shaped_trees_of_thousands_of_nodes() {
    for (nodes, seed) in [(1500, 1), (3000, 7)] {
        let problem = dom_shaped_problem(nodes, seed);
        let fast = smooth(&problem);
        let paper = smooth_with(&problem, Algorithm::Paper).unwrap();
        assert_consistent(&problem, &fast);
        assert_same_cost(fast.cost, paper.cost);
    }
}

#[test]
fn fast_and_paper_agree_on_a_long_path_and_a_wide_star() {
    let n: usize = 600;
    let scores: Vec<f64> = (0..n).map(|i| ((i * 7919) % n) as f64 / n as f64).collect();
    let path: Vec<Option<usize>> = (0..n).map(|i| i.checked_sub(1)).collect();
    let star: Vec<Option<usize>> = (0..n).map(|i| (i > 0).then_some(0)).collect();
    for parent in [path, star] {
        let problem =
            SmoothingProblem::with_unit_weights(&parent, scores.clone(), vec![0.05; n]).unwrap();
        let fast = smooth(&problem);
        let paper = smooth_with(&problem, Algorithm::Paper).unwrap();
        assert_same_cost(fast.cost, paper.cost);
    }
}

#[test]
fn smoothing_never_lets_a_child_fall_below_its_parent() {
    let problem = dom_shaped_problem(2000, 3);
    let smoothing = smooth(&problem);
    assert!(problem.is_isotone(&smoothing.smoothed));
}

#[test]
fn zero_penalties_give_plain_isotonic_regression_with_no_cost_for_isotone_scores() {
    // Scores already isotone: nothing to fix and sections cost nothing.
    let parent = [None, Some(0), Some(0), Some(1)];
    let score = vec![0.1, 0.4, 0.3, 0.9];
    let problem =
        SmoothingProblem::with_unit_weights(&parent, score.clone(), vec![0.0; 4]).unwrap();
    let smoothing = smooth(&problem);
    assert_eq!(smoothing.smoothed, score);
    assert_eq!(smoothing.cost, 0.0);
}

#[test]
fn huge_penalties_give_one_section_at_the_weighted_median() {
    let parent = [Some(2), Some(2), None, Some(0)];
    let problem = SmoothingProblem::new(
        &parent,
        vec![0.2, 0.7, 0.6, 0.9],
        vec![1.0, 1.0, 3.0, 1.0],
        vec![100.0; 4],
    )
    .unwrap();
    let smoothing = smooth(&problem);
    assert_eq!(smoothing.smoothed, vec![0.6; 4]);
    assert_eq!(smoothing.sections, vec![2]);
}

#[test]
fn paper_refuses_tables_beyond_its_limit_instead_of_exhausting_memory() {
    let problem = dom_shaped_problem(60_000, 1);
    let error = smooth_with(&problem, Algorithm::Paper).unwrap_err();
    assert!(
        error.to_string().contains("use the fast algorithm"),
        "{error}"
    );
}
