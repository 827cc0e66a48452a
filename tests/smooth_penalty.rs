//! Section 5.3: penalty functions and the roll-up of hidden small nodes.

use pagelevel::smooth::{
    Penalty, PenaltyError, PenaltyScheme, SmoothingProblem, TreeError, penalties, roll_up_hidden,
    smooth,
};

/// root 0 (area 100) ─ 1 (area 50) ─ 3 (area 10)
///                   └ 2 (area 25)
const PARENT: [Option<usize>; 4] = [None, Some(0), Some(0), Some(1)];
const AREA: [f64; 4] = [100.0, 50.0, 25.0, 10.0];

fn close(found: &[f64], expected: &[f64]) -> bool {
    found.len() == expected.len()
        && found
            .iter()
            .zip(expected)
            .all(|(a, b)| (a - b).abs() < 1e-12)
}

#[test]
fn default_penalty_is_a_hundredth_of_page_area_over_node_area() {
    let gamma = penalties(&PARENT, &AREA, Penalty::default()).unwrap();
    assert!(close(&gamma, &[0.01, 0.02, 0.04, 0.1]), "{gamma:?}");
}

#[test]
fn subtree_size_penalty_is_scale_times_tree_size_over_subtree_size() {
    let penalty = Penalty {
        scheme: PenaltyScheme::SubtreeSize,
        scale: 1.0,
    };
    let gamma = penalties(&PARENT, &AREA, penalty).unwrap();
    assert!(close(&gamma, &[1.0, 2.0, 4.0, 4.0]), "{gamma:?}");
}

#[test]
fn parent_area_penalty_is_scale_times_parent_area_over_node_area_and_scale_at_the_root() {
    let penalty = Penalty {
        scheme: PenaltyScheme::ParentArea,
        scale: 0.5,
    };
    let gamma = penalties(&PARENT, &AREA, penalty).unwrap();
    assert!(close(&gamma, &[0.5, 1.0, 2.0, 2.5]), "{gamma:?}");
}

#[test]
fn area_penalties_refuse_a_zero_area_node_naming_it() {
    let error = penalties(&PARENT, &[100.0, 0.0, 25.0, 10.0], Penalty::default()).unwrap_err();
    assert_eq!(
        error,
        PenaltyError::ZeroArea {
            node: 1,
            value: 0.0
        }
    );
}

#[test]
fn penalties_refuse_a_parent_array_with_two_roots() {
    let error = penalties(&[None, None], &[1.0, 1.0], Penalty::default()).unwrap_err();
    assert_eq!(
        error,
        PenaltyError::Tree(TreeError::SeveralRoots {
            first: 0,
            second: 1
        })
    );
}

#[test]
fn hidden_nodes_add_their_count_to_the_nearest_visible_ancestor() {
    // 0 (big) ─ 1 (small) ─ 2 (small)
    //         └ 3 (big) ─ 4 (small)
    let parent = [None, Some(0), Some(1), Some(0), Some(3)];
    let area = [1e6, 100.0, 50.0, 5000.0, 10.0];
    let visible = roll_up_hidden(&parent, &area, 2000.0).unwrap();
    assert_eq!(visible.original, vec![0, 3]);
    assert_eq!(visible.parent, vec![None, Some(0)]);
    assert_eq!(visible.weight, vec![3.0, 2.0]);
    assert_eq!(visible.representative, vec![0, 0, 0, 1, 1]);
}

#[test]
fn a_visible_node_under_a_hidden_wrapper_attaches_to_the_nearest_visible_ancestor() {
    // A zero-area wrapper (node 2, listed before its parent) holding a large box (node 0).
    let parent = [Some(2), None, Some(1)];
    let area = [9000.0, 1e6, 0.0];
    let visible = roll_up_hidden(&parent, &area, 2000.0).unwrap();
    assert_eq!(visible.original, vec![0, 1]);
    assert_eq!(visible.parent, vec![Some(1), None]);
    assert_eq!(visible.weight, vec![1.0, 2.0]);
    assert_eq!(visible.spread(&[0.9, 0.1]), vec![0.9, 0.1, 0.1]);
}

#[test]
fn the_root_stays_visible_however_small() {
    let visible = roll_up_hidden(&[None, Some(0)], &[10.0, 5.0], 2000.0).unwrap();
    assert_eq!(visible.original, vec![0]);
    assert_eq!(visible.weight, vec![2.0]);
}

#[test]
fn rolled_up_trees_with_area_penalties_smooth_end_to_end() {
    let parent = [None, Some(0), Some(1), Some(0), Some(3), Some(3)];
    let area = [1e6, 4e5, 100.0, 3e5, 5e4, 50.0];
    let score = [0.2, 0.9, 0.1, 0.3, 0.35, 0.8];
    let visible = roll_up_hidden(&parent, &area, 2000.0).unwrap();
    let gamma = penalties(&parent, &area, Penalty::default()).unwrap();
    let problem = SmoothingProblem::new(
        &visible.parent,
        visible.select(&score),
        visible.weight.clone(),
        visible.select(&gamma),
    )
    .unwrap();
    let smoothing = smooth(&problem);
    let per_node = visible.spread(&smoothing.smoothed);
    assert_eq!(per_node.len(), parent.len());
    assert_eq!(
        per_node[2], per_node[1],
        "a hidden node follows its visible parent"
    );
}
