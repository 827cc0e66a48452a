//! Regions: the page's few large blocks (header, navigation band, content column, side column,
//! footer), cut by the same isotonic model as the sections in a second solve.
//!
//! The sections split a page where templateness changes, down to a box of links in a portal's
//! column; people who mark up a page's blocks draw three to five (Kreuzer's level 1), and one
//! penalty cannot serve both (`training/reports/sections/README.md`). So a page gets both: the
//! sections as the paper cuts them, and regions from a second solve with the same scores and
//! weights in which a cut may start only at a tile of the page's *skeleton*. Going down from the
//! root through *wrappers* — a box filling [`WRAPPER_AREA_SHARE`] of its parent's, or its parent's
//! only box: the same block to a reader — gives the page's spine; the boxes hanging from the spine
//! that are no wrappers and cover at least [`MIN_REGION_AREA_SHARE`] of the page are its bands and
//! columns, the skeleton's tiles. A cut there costs [`SKELETON_TILE_PENALTY_FACTOR`] times the
//! section's penalty; anywhere else, more than any cut can save.

/// How many times a section's penalty a region costs at a tile of the skeleton. Kreuzer
/// development pages, level-1 ARI (the sections alone: .423), wrappers at 0.8, at 0.2 / 0.5 / 1 /
/// 2: .665 / .665 / .652 / .648; wrappers at 0.9, at 0.3 / 0.5 / 1: .685 / .685 / .671. Cheaper
/// than a section: a band or a column is where people see a block start.
pub const SKELETON_TILE_PENALTY_FACTOR: f64 = 0.5;

/// The least share of the page's area a region's box covers. Kreuzer development pages, level-1
/// ARI (wrappers at 0.8) at 1 % / 2 % / 4 %: .661 / .665 / .622.
pub const MIN_REGION_AREA_SHARE: f64 = 0.02;

/// A long page's tiles are measured against its top this many px: 2 % of a 28,000 px product page
/// is a 560 px band, so its header and footer would be no tiles (WCXB 0595). Kreuzer development
/// pages (an earlier form of the rule), level-1 ARI at 2,000 / 3,000 / 5,000 / 8,000 px / the
/// whole page: .535 / .535 / .537 / .537 / .538 (few of its pages are long).
pub const TILE_REFERENCE_HEIGHT: f64 = 5000.0;

/// The least area of a tile on a page `page_width` wide whose root covers `page_area`.
pub fn least_tile_area(page_area: f64, page_width: f64) -> f64 {
    MIN_REGION_AREA_SHARE * page_area.min(page_width * TILE_REFERENCE_HEIGHT)
}

/// A box covering this share of its parent's box wraps it. Kreuzer development pages, level-1
/// ARI at 0.7 / 0.8 / 0.85 / 0.9 / 0.95 / 0.98: .655 / .665 / .665 / .685 / .686 / .656.
pub const WRAPPER_AREA_SHARE: f64 = 0.9;

/// The penalty of every node of the tree given by `parent` (parents before children) in the
/// regions' solve: `gamma` (the sections' penalties) at the root, `gamma` times
/// [`SKELETON_TILE_PENALTY_FACTOR`] at the skeleton's tiles (boxes of at least `least_tile_area`,
/// see [`least_tile_area`]), and at every other node one no cut can pay back (more than every
/// node's whole weight, the most a cut can save, plus every penalty): the exact "never".
pub fn region_penalties(
    parent: &[Option<usize>],
    area: &[f64],
    weight: &[f64],
    gamma: &[f64],
    least_tile_area: f64,
) -> Vec<f64> {
    let never = 1.0
        + weight.iter().sum::<f64>()
        + gamma.iter().filter(|gamma| gamma.is_finite()).sum::<f64>();
    let mut children = vec![0usize; parent.len()];
    for above in parent.iter().flatten() {
        children[*above] += 1;
    }
    // A wrapper: a box filling its parent's, or its parent's only box (a `<body>` under a root
    // widened by an overflowing picture).
    let wraps = |node: usize, above: usize| {
        children[above] == 1 || area[node] >= WRAPPER_AREA_SHARE * area[above]
    };
    let mut on_spine = vec![false; parent.len()];
    for node in 0..parent.len() {
        on_spine[node] = parent[node].is_none_or(|above| on_spine[above] && wraps(node, above));
    }
    (0..parent.len())
        .map(|node| match parent[node] {
            None => gamma[node],
            Some(above) => {
                let skeleton_tile =
                    on_spine[above] && !wraps(node, above) && area[node] >= least_tile_area;
                if skeleton_tile {
                    SKELETON_TILE_PENALTY_FACTOR * gamma[node]
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

    /// A page (root 0, area 100) holding a header band (1), and a wrapper (2) filling most of it
    /// that holds the content column (3) and a side column (6); in the content, a small box of
    /// links (4) and a teaser box (5).
    fn page() -> (Vec<Option<usize>>, Vec<f64>) {
        let parent = vec![None, Some(0), Some(0), Some(2), Some(3), Some(3), Some(2)];
        let area = vec![100.0, 20.0, 95.0, 60.0, 1.5, 10.0, 25.0];
        (parent, area)
    }

    /// The paper's penalties, γ = c·A/Aᵢ with c = 0.01.
    fn section_penalties(area: &[f64]) -> Vec<f64> {
        area.iter().map(|area| 0.01 * 100.0 / area).collect()
    }

    #[test]
    fn regions_start_only_at_the_bands_and_columns_hanging_from_the_pages_spine() {
        let (parent, area) = page();
        let gamma = section_penalties(&area);
        let penalty = region_penalties(
            &parent,
            &area,
            &[1.0; 7],
            &gamma,
            least_tile_area(100.0, 10.0),
        );
        for tile in [1, 3, 6] {
            assert!(
                (penalty[tile] - SKELETON_TILE_PENALTY_FACTOR * gamma[tile]).abs() < 1e-12,
                "node {tile}: {}",
                penalty[tile]
            );
        }
        let never = 1.0 + 7.0;
        for other in [2, 4, 5] {
            assert!(penalty[other] > never, "node {other}: {}", penalty[other]);
        }
        // An only child wraps its parent whatever its share of it.
        let penalty = region_penalties(
            &[None, Some(0)],
            &[100.0, 50.0],
            &[1.0; 2],
            &[0.01, 0.02],
            1.0,
        );
        assert!(penalty[1] > 3.0, "{penalty:?}");
    }

    #[test]
    fn a_box_of_links_in_the_content_is_a_section_but_not_a_region() {
        let (parent, area) = page();
        // Header, links and side column template-like, the rest not.
        let scores = vec![0.2, 0.9, 0.2, 0.1, 0.9, 0.15, 0.8];
        let weight = vec![1.0; 7];
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
                region_penalties(&parent, &area, &weight, &gamma, 2.0),
            )
            .expect("problem"),
        );
        assert_eq!(regions.sections, vec![0, 1, 6]);
        assert_eq!(
            group_roots(&parent, &regions.sections),
            vec![0, 1, 0, 0, 0, 0, 6]
        );
    }
}
