//! RTDM-TD template detection and removal: Vieira, da Silva, Pinto, Moura, Cavalcanti & Freire,
//! "A Fast and Robust Method for Web Page Template Detection and Removal" (CIKM 2006),
//! Sections 3–5.
//!
//! **Problem.** A template is a subtree common to the DOM trees of a site's pages, spanning from
//! the root. *FindTemplate* (Figure 5) picks two pages, extracts their common subtree with
//! *ExtractSubTree* (Figure 6: `mapping.rs`'s RTDM-TD, then retrieveTemplate), and then for each
//! further sample page keeps the template when the page contains it (*Match*: the mapping keeps
//! every template node) and otherwise re-extracts the common subtree of template and page; at
//! most [`Rtdm::max_pages`] pages are examined, in a seeded random order. *Removal* maps the
//! final template onto every page of the site and marks the page nodes it keeps.
//!
//! **Pages outside the template.** FindTemplate assumes every page carries the template; one
//! redirect stub or frame page among the samples shrinks the template to almost nothing (we saw
//! it on the shared WordPress, Sphinx and javadoc sites). With [`Rtdm::min_kept_share`] > 0
//! (default 0.5) two guards apply: pages with fewer nodes than a quarter of the site's median are
//! not sampled, and a sample page whose extraction would keep less than that share of the
//! current template is skipped instead of extracted. `min_kept_share = 0` is the paper's
//! algorithm exactly. Every page still gets the final template removed.
//!
//! **What is compared:** the labelled trees of `tree.rs` — tag names for elements (no attributes)
//! and whitespace-collapsed visible text for text nodes; identical subtrees by hash.
//!
//! **Marks.** An element is template when the mapping keeps it and keeps every visible text
//! node directly inside it, so its own text (the only text [`TemplateMarks`] gives it) is
//! template text. The common smallest subtree of ExtractSubTree is the set of kept nodes itself:
//! retrieveTemplate only keeps nodes whose parents it keeps.

mod mapping;
mod tree;

use rayon::prelude::*;

use super::{SiteLevelError, SiteTemplateDetector, TemplateMarks, require_pages};
use crate::page::Page;
use mapping::{map_trees, mapped_nodes};
use tree::{LabeledTree, Origin};

/// RTDM-TD parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rtdm {
    /// Pages FindTemplate examines (MaxPages). The paper finds "a few dozen" enough and F above
    /// 0.95 with fewer than 25 pages on nine of ten sites (Figure 7).
    pub max_pages: usize,
    /// Seed of the random page order (RandomPick).
    pub seed: u64,
    /// A sample page whose extraction keeps less than this share of the current template is
    /// taken as outside the template and skipped; 0 disables both guards (see the module doc).
    pub min_kept_share: f64,
}

impl Default for Rtdm {
    fn default() -> Self {
        Rtdm {
            max_pages: 24,
            seed: 0x5eed,
            min_kept_share: 0.5,
        }
    }
}

impl SiteTemplateDetector for Rtdm {
    fn name(&self) -> &'static str {
        "rtdm"
    }

    fn detect(&self, pages: &[Page]) -> Result<Vec<TemplateMarks>, SiteLevelError> {
        if self.max_pages < 2 {
            return Err(SiteLevelError::InvalidParameter(format!(
                "RTDM-TD needs MaxPages of at least 2, got {}",
                self.max_pages
            )));
        }
        require_pages(self.name(), pages, 2)?;
        let trees: Vec<LabeledTree> = pages
            .par_iter()
            .map(|page| LabeledTree::of_page(&page.dom))
            .collect();
        let mut order = seeded_order(pages.len(), self.seed);
        if self.min_kept_share > 0.0 {
            let mut sizes: Vec<usize> = trees.iter().map(|tree| tree.nodes.len()).collect();
            sizes.sort_unstable();
            let median = sizes[sizes.len() / 2];
            let sampled: Vec<usize> = order
                .iter()
                .copied()
                .filter(|&page| trees[page].nodes.len() * STUB_DIVISOR >= median)
                .collect();
            if sampled.len() >= 2 {
                order = sampled;
            }
        }
        order.truncate(self.max_pages);
        let template = self.find_template(&trees, &order);
        Ok(pages
            .par_iter()
            .zip(&trees)
            .map(|(page, tree)| remove_template(page, &template, tree))
            .collect())
    }
}

/// Pages with fewer nodes than the site's median divided by this are not sampled.
const STUB_DIVISOR: usize = 4;

impl Rtdm {
    /// FindTemplate over the sample pages, in the given order (at least two).
    fn find_template(&self, trees: &[LabeledTree], sample: &[usize]) -> LabeledTree {
        let mut template = extract_subtree(&trees[sample[0]], &trees[sample[1]]);
        for &page in &sample[2..] {
            if matches_page(&template, &trees[page]) {
                continue;
            }
            let extracted = extract_subtree(&template, &trees[page]);
            let kept = extracted.nodes.len() as f64 / template.nodes.len().max(1) as f64;
            if kept >= self.min_kept_share {
                template = extracted;
            }
        }
        template
    }
}

/// ExtractSubTree: the nodes of `left` that the mapping onto `right` keeps, as a tree.
fn extract_subtree(left: &LabeledTree, right: &LabeledTree) -> LabeledTree {
    match map_trees(left, right) {
        Some(pair) => left.restricted_to(&mapped_nodes(&pair, left, right).0),
        None => LabeledTree { nodes: Vec::new() },
    }
}

/// Match: the page contains the whole template.
fn matches_page(template: &LabeledTree, page: &LabeledTree) -> bool {
    map_trees(template, page).is_some_and(|pair| {
        mapped_nodes(&pair, template, page)
            .0
            .iter()
            .all(|&kept| kept)
    })
}

/// Marks the page elements the template maps onto (see the module doc).
fn remove_template(page: &Page, template: &LabeledTree, tree: &LabeledTree) -> TemplateMarks {
    let mut marks = TemplateMarks::none(&page.dom);
    let Some(pair) = map_trees(template, tree) else {
        return marks;
    };
    let kept = mapped_nodes(&pair, template, tree).1;
    for (index, node) in tree.nodes.iter().enumerate() {
        if let Origin::Element(id) = node.origin {
            let own_text_kept = node.children.iter().all(|&child| {
                kept[child as usize] || tree.nodes[child as usize].origin != Origin::Text
            });
            marks.set(id, kept[index] && own_text_kept);
        }
    }
    marks
}

/// A permutation of `0..count` from a seeded SplitMix64 generator (Fisher–Yates).
pub(crate) fn seeded_order(count: usize, seed: u64) -> Vec<usize> {
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut order: Vec<usize> = (0..count).collect();
    for i in (1..count).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::sitelevel::test_site as site;

    #[test]
    fn the_common_subtree_from_the_root_is_the_template() {
        let pages = site(&[
            "<div id=nav><a href=/>Home</a> <a href=/b>Blog</a></div><div><p>Alpha story</p></div>",
            "<div id=nav><a href=/>Home</a> <a href=/b>Blog</a></div><div><p>Beta story</p><p>More</p></div>",
            "<div id=nav><a href=/>Home</a> <a href=/b>Blog</a></div><div><h1>Gamma</h1></div>",
        ]);
        let marks = Rtdm::default().detect(&pages).expect("detect");
        for (page, marks) in pages.iter().zip(&marks) {
            assert_eq!(marks.template_text(&page.dom), "Home Blog");
        }
        assert_eq!(marks[1].content_text(&pages[1].dom), "Beta story More");
    }

    #[test]
    fn a_page_with_another_root_structure_shares_nothing_below_the_root() {
        let pages = site(&["<p>one</p>", "<table><tr><td>two</td></tr></table>"]);
        let marks = Rtdm::default().detect(&pages).expect("detect");
        assert_eq!(marks[0].template_text(&pages[0].dom), "");
        assert_eq!(marks[1].content_text(&pages[1].dom), "two");
    }

    #[test]
    fn the_seeded_order_is_a_permutation() {
        let mut order = seeded_order(30, 7);
        order.sort_unstable();
        assert_eq!(order, (0..30).collect::<Vec<_>>());
    }
}
