//! SiteLevel(θ): the frequency detector of Gibson, Punera & Tomkins (WWW 2005) as Chakrabarti,
//! Kumar & Punera use it to label training pages (WWW 2007, Sections 3 and 5.1).
//!
//! **Problem.** Given the pages of one site, mark as template every DOM subtree whose content
//! occurs on at least θ of the pages (default θ = 0.10), and every internal element with more
//! than 85% of its HTML bytes inside template elements.
//!
//! **What is hashed:** the normalized subtree content of `sitelevel::subtree` — tag names, visible
//! text with whitespace collapsed, link targets without fragments, in document order; other
//! attributes are ignored. A hash is counted once per page however often it repeats there.
//!
//! **Minimum substance.** Only subtrees with some visible word (a letter or digit) or at least
//! one link are counted. An empty `<div>`, a `<br>`, `<p></p>` or a spacer image occurs on every
//! page of every site, template or not, so its frequency says nothing about it; counted, each
//! would be "template" and drag its neighbourhood with it through the 85% rule. Such a subtree
//! is template only as part of a larger frequent subtree, or through the 85% rule.
//!
//! **Threshold.** A subtree is frequent on `max(2, ⌈θ·pages⌉)` pages: one page alone never shows
//! a repetition. Descendants of a frequent subtree are template too (they occur wherever it
//! does; this also covers trivial descendants). The 85% rule is applied bottom-up, so a parent
//! can become template through children that became template by the same rule; it marks only
//! the element itself (its own text), not its non-template children.

use std::collections::HashMap;

use rayon::prelude::*;

use super::subtree::SubtreeFacts;
use super::{SiteLevelError, SiteTemplateDetector, TemplateMarks, require_pages};
use crate::page::{Child, Dom, Page};

/// SiteLevel(θ) parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frequency {
    /// Share of the site's pages a subtree must occur on to be template (θ).
    pub threshold: f64,
    /// An internal element with more than this share of its HTML bytes inside template
    /// elements is template too.
    pub internal_share: f64,
}

impl Default for Frequency {
    fn default() -> Self {
        Frequency {
            threshold: 0.10,
            internal_share: 0.85,
        }
    }
}

impl Frequency {
    /// Pages a subtree must occur on, for a site of `pages` pages.
    pub fn min_pages(&self, pages: usize) -> usize {
        ((self.threshold * pages as f64).ceil() as usize).max(2)
    }
}

impl SiteTemplateDetector for Frequency {
    fn name(&self) -> &'static str {
        "frequency"
    }

    fn detect(&self, pages: &[Page]) -> Result<Vec<TemplateMarks>, SiteLevelError> {
        if !(self.threshold > 0.0 && self.threshold <= 1.0) {
            return Err(SiteLevelError::InvalidParameter(format!(
                "the frequency threshold θ must be in (0, 1], got {}",
                self.threshold
            )));
        }
        require_pages(self.name(), pages, 2)?;
        let facts: Vec<SubtreeFacts> = pages
            .par_iter()
            .map(|page| SubtreeFacts::of(&page.dom))
            .collect();
        let mut pages_with: HashMap<u64, usize> = HashMap::new();
        for (page, facts) in pages.iter().zip(&facts) {
            let mut seen: Vec<u64> = page
                .dom
                .ids()
                .filter(|id| is_substantive(facts, id.index()))
                .map(|id| facts.hash[id.index()])
                .collect();
            seen.sort_unstable();
            seen.dedup();
            for hash in seen {
                *pages_with.entry(hash).or_default() += 1;
            }
        }
        let min_pages = self.min_pages(pages.len());
        Ok(pages
            .iter()
            .zip(&facts)
            .map(|(page, facts)| {
                let frequent = |index: usize| {
                    is_substantive(facts, index)
                        && pages_with.get(&facts.hash[index]).copied().unwrap_or(0) >= min_pages
                };
                self.mark_page(&page.dom, frequent)
            })
            .collect())
    }
}

impl Frequency {
    /// Marks frequent subtrees with their descendants, then applies the internal-share rule.
    fn mark_page(&self, dom: &Dom, frequent: impl Fn(usize) -> bool) -> TemplateMarks {
        let mut template = vec![false; dom.len()];
        for id in dom.ids() {
            let inherited = dom
                .element(id)
                .parent
                .is_some_and(|parent| template[parent.index()]);
            template[id.index()] = inherited || frequent(id.index());
        }
        let mut template_bytes = vec![0u64; dom.len()];
        for id in dom.ids().rev() {
            let element = dom.element(id);
            if template[id.index()] {
                template_bytes[id.index()] = element.html_bytes;
                continue;
            }
            let inside: u64 = element
                .children
                .iter()
                .filter_map(|child| match child {
                    Child::Element(child) => Some(template_bytes[child.index()]),
                    Child::Text(_) => None,
                })
                .sum();
            let has_element_children = dom.element_children(id).next().is_some();
            if has_element_children
                && inside as f64 > self.internal_share * element.html_bytes as f64
            {
                template[id.index()] = true;
                template_bytes[id.index()] = element.html_bytes;
            } else {
                template_bytes[id.index()] = inside;
            }
        }
        TemplateMarks::from_flags(template)
    }
}

fn is_substantive(facts: &SubtreeFacts, index: usize) -> bool {
    facts.has_words[index] || facts.links[index] > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::NodeId;

    use crate::sitelevel::test_site as site;

    #[test]
    fn a_menu_on_every_page_is_template_and_the_articles_are_not() {
        let pages = site(&[
            "<ul><li><a href='/'>Home</a></li></ul><p>First article text</p>",
            "<ul><li><a href='/'>Home</a></li></ul><p>Second article text</p>",
            "<ul><li><a href='/'>Home</a></li></ul><p>Third article text</p>",
        ]);
        let marks = Frequency::default().detect(&pages).expect("detect");
        for (page, marks) in pages.iter().zip(&marks) {
            assert_eq!(marks.template_text(&page.dom), "Home");
            assert!(marks.content_text(&page.dom).ends_with("article text"));
        }
    }

    #[test]
    fn empty_elements_on_every_page_are_not_template_on_their_own() {
        let pages = site(&["<div></div><br><p>One</p>", "<div></div><br><p>Two</p>"]);
        let marks = Frequency::default().detect(&pages).expect("detect");
        assert_eq!(marks[0].template_count(), 0);
    }

    #[test]
    fn a_parent_mostly_made_of_template_is_template() {
        let nav = "<ul><li><a href='/a'>Alpha section</a></li><li><a href='/b'>Beta section</a></li></ul>";
        let pages = site(&[
            &format!("<div>{nav}x</div><p>One</p>"),
            &format!("<div>{nav}y</div><p>Two</p>"),
        ]);
        let marks = Frequency::default().detect(&pages).expect("detect");
        let div = NodeId(3);
        assert_eq!(pages[0].dom.element(div).tag, "div");
        assert!(marks[0].is_template(div));
        assert_eq!(
            marks[0].template_text(&pages[0].dom),
            "Alpha section Beta section x"
        );
    }

    #[test]
    fn one_page_is_too_few() {
        let pages = site(&["<p>alone</p>"]);
        assert!(matches!(
            Frequency::default().detect(&pages),
            Err(SiteLevelError::TooFewPages { got: 1, .. })
        ));
    }
}
