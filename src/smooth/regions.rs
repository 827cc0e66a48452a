//! Regions: the page's few large blocks (header, content, a side column, footer), cut by the
//! same isotonic model as the sections, solved a second time with dearer cuts.
//!
//! The sections split a page where templateness changes, down to a box of links in a portal's
//! column; people who mark up a page's blocks draw three to five (Kreuzer's level 1), and one
//! penalty cannot serve both: raised tenfold it matches their blocks better but splits less
//! where their inner blocks lie (`training/reports/sections/README.md`). So a page gets both: the
//! sections as the paper cuts them, and regions from a second solve in which a cut costs
//! [`REGION_PENALTY_FACTOR`] times as much and may only start at a *tile* — a box covering at
//! least [`MIN_REGION_AREA_SHARE`] of the page that does not fill its parent (a wrapper filling
//! [`WRAPPER_AREA_SHARE`] of its parent's box is the same block to a reader).

/// How many times a section's penalty a region's costs. Kreuzer development pages, level-1 ARI
/// of the regions (tiles of 2 %, wrappers at 0.9) at 5× / 7× / 10× / 14× / 20×: .486 / .497 /
/// .497 / .491 / .462 (the sections alone: .423).
pub const REGION_PENALTY_FACTOR: f64 = 10.0;

/// The least share of the page's area a region's box covers. Kreuzer development pages, level-1
/// ARI at 0.5 % / 2 % / 5 % (10×, wrappers at 0.9): .483 / .497 / .457; at 1 % / 2 % / 3 % with
/// wrappers at 0.8: .494 / .508 / .488.
pub const MIN_REGION_AREA_SHARE: f64 = 0.02;

/// A box covering this share of its parent's box wraps it: the same block to a reader, so no
/// region starts there. Kreuzer development pages, level-1 ARI (10×, 2 %) at 0.6 / 0.7 / 0.75 /
/// 0.8 / 0.85 / 0.9 / 0.95 / never: .468 / .490 / .496 / .508 / .504 / .497 / .498 / .485; the
/// middle of the plateau.
pub const WRAPPER_AREA_SHARE: f64 = 0.85;

/// The penalty of every node of the tree given by `parent` in the regions' solve: `gamma` (the
/// sections' penalties) times [`REGION_PENALTY_FACTOR`] at tiles, and at every other node but the
/// root one no region can pay back (more than every node's whole weight, the most a cut can
/// save, plus every penalty): the exact "never".
pub fn region_penalties(
    parent: &[Option<usize>],
    area: &[f64],
    weight: &[f64],
    gamma: &[f64],
) -> Vec<f64> {
    let page_area = parent
        .iter()
        .position(Option::is_none)
        .map_or(0.0, |root| area[root]);
    let never = 1.0
        + weight.iter().sum::<f64>()
        + REGION_PENALTY_FACTOR * gamma.iter().filter(|gamma| gamma.is_finite()).sum::<f64>();
    (0..parent.len())
        .map(|node| match parent[node] {
            None => REGION_PENALTY_FACTOR * gamma[node],
            Some(above) => {
                let is_tile = area[node] >= MIN_REGION_AREA_SHARE * page_area
                    && area[node] < WRAPPER_AREA_SHARE * area[above];
                if is_tile {
                    REGION_PENALTY_FACTOR * gamma[node]
                } else {
                    never
                }
            }
        })
        .collect()
}

/// The group root of every node of the tree given by `parent` (parents before children): the
/// nearest node at or above it that `starts` a group.
pub fn group_roots(parent: &[Option<usize>], starts: &[usize]) -> Vec<usize> {
    let mut is_start = vec![false; parent.len()];
    for &node in starts {
        is_start[node] = true;
    }
    let mut root = vec![0usize; parent.len()];
    for node in 0..parent.len() {
        root[node] = match parent[node] {
            Some(above) if !is_start[node] => root[above],
            _ => node,
        };
    }
    root
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smooth::{SmoothingProblem, smooth};

    /// A page (root 0, area 100) holding a header band (1) and a wrapper (2) filling most of it
    /// that holds the content (3) and a small box of links (4) inside the content.
    fn page() -> (Vec<Option<usize>>, Vec<f64>) {
        let parent = vec![None, Some(0), Some(0), Some(2), Some(3)];
        let area = vec![100.0, 20.0, 95.0, 60.0, 1.5];
        (parent, area)
    }

    #[test]
    fn regions_start_only_at_tiles_and_cost_more_than_sections() {
        let (parent, area) = page();
        let gamma = vec![0.01, 0.1, 0.011, 0.017, 1.0];
        let weight = vec![1.0; 5];
        let penalty = region_penalties(&parent, &area, &weight, &gamma);
        assert!((penalty[0] - 0.1).abs() < 1e-12, "the root: {}", penalty[0]);
        assert!((penalty[1] - 1.0).abs() < 1e-12, "a tile: {}", penalty[1]);
        assert!(
            penalty[2] > 5.0,
            "a wrapper never starts one: {}",
            penalty[2]
        );
        assert!((penalty[3] - 0.17).abs() < 1e-12, "a tile inside a wrapper");
        assert!(
            penalty[4] > 5.0,
            "a box under 2 % of the page never starts one"
        );
    }

    #[test]
    fn a_box_of_links_in_the_content_is_a_section_but_not_a_region() {
        let (parent, area) = page();
        // Header and links template-like, the content not.
        let scores = vec![0.2, 0.9, 0.2, 0.1, 0.9];
        let weight = vec![1.0; 5];
        let gamma: Vec<f64> = area.iter().map(|area| 0.01 * 100.0 / area).collect();
        let sections = smooth(
            &SmoothingProblem::new(&parent, scores.clone(), weight.clone(), gamma.clone())
                .expect("problem"),
        );
        assert!(sections.sections.contains(&4), "{:?}", sections.sections);
        let regions = smooth(
            &SmoothingProblem::new(
                &parent,
                scores,
                weight.clone(),
                region_penalties(&parent, &area, &weight, &gamma),
            )
            .expect("problem"),
        );
        assert_eq!(regions.sections, vec![0, 1]);
        assert_eq!(group_roots(&parent, &regions.sections), vec![0, 1, 0, 0, 0]);
    }
}
