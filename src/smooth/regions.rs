//! Regions: the page's few large blocks (header, content, a side column, footer), cut by the
//! same isotonic model as the sections, solved a second time with dearer cuts.
//!
//! The sections split a page where templateness changes, down to a box of links in a portal's
//! column; people who mark up a page's blocks draw three to five (Kreuzer's level 1), and one
//! penalty cannot serve both: raised tenfold it matches their blocks better but splits less
//! where their inner blocks lie (`training/reports/sections/README.md`). So a page gets both: the
//! sections as the paper cuts them, and regions from a second solve in which a cut may only start
//! at a *tile* — a box covering at least [`MIN_REGION_AREA_SHARE`] of the page that does not fill
//! its parent (a wrapper filling [`WRAPPER_AREA_SHARE`] of its parent's box is the same block to
//! a reader). A tile of the page's *skeleton* — whose parent is the root or a wrapper the root
//! reaches through wrappers only: the page's bands and columns — costs what a section does
//! ([`SKELETON_TILE_PENALTY_FACTOR`]); a tile inside them [`REGION_PENALTY_FACTOR`] times as much.

/// How many times a section's penalty a region inside the skeleton costs. Kreuzer development
/// pages, level-1 ARI (the sections alone: .423): with every tile at this factor (tiles of 2 %,
/// wrappers at 0.9) 5× / 7× / 10× / 14× / 20×: .486 / .497 / .497 / .491 / .462; with skeleton
/// tiles at 1×, 7× / 10× / 14× / 20×: .529 / .531 / .524 / .511; inner tiles never: .374–.400.
pub const REGION_PENALTY_FACTOR: f64 = 10.0;

/// How many times a section's penalty a region at a tile of the page's skeleton costs. Kreuzer
/// development pages, level-1 ARI (inner tiles at 10×) at 0.3 / 0.5 / 1 / 2 / 3 / 10: .532 /
/// .532 / .531 / .529 / .527 / .504: a plateau; 1 prices a band or a column as a section.
pub const SKELETON_TILE_PENALTY_FACTOR: f64 = 1.0;

/// The least share of the page's area a region's box covers. Kreuzer development pages, level-1
/// ARI at 0.5 % / 2 % / 5 % (every tile at 10×, wrappers at 0.9): .483 / .497 / .457; at 1 % / 2 %
/// / 3 % with wrappers at 0.8: .494 / .508 / .488; with the skeleton's tiles at 1× (wrappers at
/// 0.85 / 0.8): .518 / .531 / .508 and .527 / .538 / .515.
pub const MIN_REGION_AREA_SHARE: f64 = 0.02;

/// A box covering this share of its parent's box wraps it: the same block to a reader, so no
/// region starts there. Kreuzer development pages, level-1 ARI (2 %), every tile at 10×, at 0.6 /
/// 0.7 / 0.75 / 0.8 / 0.85 / 0.9 / 0.95 / never: .468 / .490 / .496 / .508 / .504 / .497 / .498 /
/// .485; with the skeleton's tiles at 1×, at 0.7 / 0.75 / 0.8 / 0.85 / 0.9 / 0.95: .527 / .531 /
/// .538 / .531 / .524 / .520. The peak of both sweeps.
pub const WRAPPER_AREA_SHARE: f64 = 0.8;

/// The penalty of every node of the tree given by `parent` (parents before children) in the
/// regions' solve: `gamma` (the sections' penalties) times [`SKELETON_TILE_PENALTY_FACTOR`] at
/// the skeleton's tiles and [`REGION_PENALTY_FACTOR`] at other tiles and the root, and at every
/// other node one no region can pay back (more than every node's whole weight, the most a cut
/// can save, plus every penalty): the exact "never".
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
    let fills = |node: usize, above: usize| area[node] >= WRAPPER_AREA_SHARE * area[above];
    // The root and the wrappers it reaches through wrappers only: what the skeleton hangs from.
    let mut on_spine = vec![false; parent.len()];
    for node in 0..parent.len() {
        on_spine[node] = parent[node].is_none_or(|above| on_spine[above] && fills(node, above));
    }
    (0..parent.len())
        .map(|node| match parent[node] {
            None => REGION_PENALTY_FACTOR * gamma[node],
            Some(above) => {
                let is_tile =
                    area[node] >= MIN_REGION_AREA_SHARE * page_area && !fills(node, above);
                match (is_tile, on_spine[above]) {
                    (true, true) => SKELETON_TILE_PENALTY_FACTOR * gamma[node],
                    (true, false) => REGION_PENALTY_FACTOR * gamma[node],
                    (false, _) => never,
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
    /// that holds the content column (3); in the content, a small box of links (4) and a
    /// teaser box (5).
    fn page() -> (Vec<Option<usize>>, Vec<f64>) {
        let parent = vec![None, Some(0), Some(0), Some(2), Some(3), Some(3)];
        let area = vec![100.0, 20.0, 95.0, 60.0, 1.5, 10.0];
        (parent, area)
    }

    /// The paper's penalties, γ = c·A/Aᵢ with c = 0.01.
    fn section_penalties(area: &[f64]) -> Vec<f64> {
        area.iter().map(|area| 0.01 * 100.0 / area).collect()
    }

    #[test]
    fn regions_start_at_the_skeletons_tiles_dearer_inside_them_never_elsewhere() {
        let (parent, area) = page();
        let gamma = section_penalties(&area);
        let penalty = region_penalties(&parent, &area, &[1.0; 6], &gamma);
        let expected = |node: usize, factor: f64| {
            assert!(
                (penalty[node] - factor * gamma[node]).abs() < 1e-12,
                "node {node}: {} against {factor} × {}",
                penalty[node],
                gamma[node]
            );
        };
        expected(0, REGION_PENALTY_FACTOR);
        expected(1, SKELETON_TILE_PENALTY_FACTOR);
        expected(3, SKELETON_TILE_PENALTY_FACTOR);
        expected(5, REGION_PENALTY_FACTOR);
        let never = 1.0 + 6.0;
        assert!(penalty[2] > never, "a wrapper: {}", penalty[2]);
        assert!(
            penalty[4] > never,
            "a box under 2 % of the page: {}",
            penalty[4]
        );
    }

    #[test]
    fn a_box_of_links_in_the_content_is_a_section_but_not_a_region() {
        let (parent, area) = page();
        // Header and links template-like, the rest not.
        let scores = vec![0.2, 0.9, 0.2, 0.1, 0.9, 0.15];
        let weight = vec![1.0; 6];
        let gamma = section_penalties(&area);
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
        assert!(regions.sections.contains(&1), "{:?}", regions.sections);
        assert!(!regions.sections.contains(&4), "{:?}", regions.sections);
        let roots = group_roots(&parent, &regions.sections);
        assert_eq!((roots[1], roots[4]), (1, roots[3]));
    }
}
