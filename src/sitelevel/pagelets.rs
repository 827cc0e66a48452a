//! Pagelet templates: Bar-Yossef & Rajagopalan, "Template Detection via Data Mining and its
//! Applications" (WWW 2002), Sections 2–3.
//!
//! **Pagelets (Definition 2, Figure 3).** An element is a pagelet when none of its element
//! children holds at least `k` links (k = 3) and no ancestor is a pagelet; a breadth-first walk
//! from `<html>` splits every element that has such a child. Links are `<a>`/`<area>` elements
//! with a target.
//!
//! **Shingles (Broder et al., as the paper uses them).** A pagelet's content is its token
//! sequence: the words of its visible text (maximal alphanumeric runs, lowercased) and, for each
//! link, its target without `#fragment`, in document order. Its shingle is a hash of the
//! [`SKETCH_SIZE`] smallest hashes of its `w`-token windows (w = [`WINDOW`]; a pagelet shorter
//! than one window is one window), so pagelets that differ in a few tokens usually still share
//! the shingle. Pagelets without any token (an empty `<head>`) are never template.
//!
//! **Templates.** Duplicate pages (equal whole-page shingles) are dropped first: a duplicate
//! counts as the page it duplicates, so it never makes a pagelet repeat, and its pagelets are
//! marked like those of the page it duplicates. The *local* algorithm (Figure 4, the paper's choice for small sets)
//! makes every shingle whose pagelets sit on at least two pages a template. The *global*
//! algorithm (Figure 5) keeps only the pagelets whose owner pages are in a non-singleton
//! connected component of the undirected link graph between the group's pages. A template
//! pagelet is marked with all its descendants.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::hash::{DefaultHasher, Hash, Hasher};

use super::subtree::{SubtreeFacts, link_target};
use super::{SiteLevelError, SiteTemplateDetector, TemplateMarks, require_pages};
use crate::page::{Child, Dom, NodeId, Page};
use crate::text::word_tokens;

/// Tokens per shingle window (Broder et al. use word windows of a few words).
pub const WINDOW: usize = 4;
/// Smallest window hashes kept per pagelet; their hash is the pagelet's shingle.
pub const SKETCH_SIZE: usize = 8;

/// Parameters of the pagelet detector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pagelets {
    /// A child with at least this many links splits its parent (the paper's k = 3).
    pub k: u32,
    /// Use the global algorithm (owner pages must be linked) instead of the local one.
    pub global: bool,
}

impl Default for Pagelets {
    fn default() -> Self {
        Pagelets {
            k: 3,
            global: false,
        }
    }
}

/// One pagelet: its page, its root element, its shingle.
#[derive(Debug, Clone, Copy)]
struct Pagelet {
    page: usize,
    root: NodeId,
    shingle: u64,
}

impl SiteTemplateDetector for Pagelets {
    fn name(&self) -> &'static str {
        "pagelets"
    }

    fn detect(&self, pages: &[Page]) -> Result<Vec<TemplateMarks>, SiteLevelError> {
        if self.k == 0 {
            return Err(SiteLevelError::InvalidParameter(
                "the pagelet link count k must be at least 1".to_owned(),
            ));
        }
        require_pages(self.name(), pages, 2)?;
        let original = duplicate_of(pages);
        let mut pagelets = Vec::new();
        for (index, page) in pages.iter().enumerate() {
            let facts = SubtreeFacts::of(&page.dom);
            for root in partition(&page.dom, &facts, self.k) {
                if let Some(shingle) = shingle(&content_tokens(&page.dom, root)) {
                    pagelets.push(Pagelet {
                        page: index,
                        root,
                        shingle,
                    });
                }
            }
        }
        // BTreeMap: groups are visited in shingle order, so results never depend on hashing.
        let mut groups: BTreeMap<u64, Vec<Pagelet>> = BTreeMap::new();
        for pagelet in pagelets {
            groups.entry(pagelet.shingle).or_default().push(pagelet);
        }
        let links = if self.global {
            Some(link_graph(pages))
        } else {
            None
        };
        let mut template: Vec<Vec<bool>> = pages
            .iter()
            .map(|page| vec![false; page.dom.len()])
            .collect();
        for group in groups.values() {
            // A duplicate page counts as the page it duplicates, so it never adds an owner.
            let mut owners: Vec<usize> =
                group.iter().map(|pagelet| original[pagelet.page]).collect();
            owners.sort_unstable();
            owners.dedup();
            if owners.len() < 2 {
                continue;
            }
            let kept = match &links {
                Some(links) => linked_owners(&owners, links),
                None => owners,
            };
            for pagelet in group {
                if kept.binary_search(&original[pagelet.page]).is_ok() {
                    for id in pages[pagelet.page].dom.subtree(pagelet.root) {
                        template[pagelet.page][id.index()] = true;
                    }
                }
            }
        }
        Ok(template
            .into_iter()
            .map(TemplateMarks::from_flags)
            .collect())
    }
}

/// The pagelet roots of a page, in breadth-first order (Figure 3).
fn partition(dom: &Dom, facts: &SubtreeFacts, k: u32) -> Vec<NodeId> {
    let mut pagelets = Vec::new();
    if dom.is_empty() {
        return pagelets;
    }
    let mut queue = VecDeque::from([NodeId(0)]);
    while let Some(node) = queue.pop_front() {
        let splits = dom
            .element_children(node)
            .any(|child| facts.links[child.index()] >= k);
        if splits {
            queue.extend(dom.element_children(node));
        } else {
            pagelets.push(node);
        }
    }
    pagelets
}

/// The pagelet's words and link targets, in document order.
fn content_tokens(dom: &Dom, root: NodeId) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut stack = vec![Child::Element(root)];
    while let Some(child) = stack.pop() {
        match child {
            Child::Element(id) => {
                if let Some(target) = link_target(dom, id) {
                    tokens.push(format!("→{target}"));
                }
                stack.extend(dom.element(id).children.iter().rev().copied());
            }
            Child::Text(index) => {
                let text = &dom.texts[index as usize];
                if dom.is_visible_text_parent(text.parent) {
                    tokens.extend(word_tokens(&text.text));
                }
            }
        }
    }
    tokens
}

/// The shingle of a token sequence; `None` for an empty one.
fn shingle(tokens: &[String]) -> Option<u64> {
    if tokens.is_empty() {
        return None;
    }
    let window = WINDOW.min(tokens.len());
    let mut hashes: Vec<u64> = tokens
        .windows(window)
        .map(|window| {
            let mut hasher = DefaultHasher::new();
            window.hash(&mut hasher);
            hasher.finish()
        })
        .collect();
    hashes.sort_unstable();
    hashes.dedup();
    hashes.truncate(SKETCH_SIZE);
    let mut hasher = DefaultHasher::new();
    hashes.hash(&mut hasher);
    Some(hasher.finish())
}

/// For each page, the index of the first page with the same whole-page shingle (itself if none).
fn duplicate_of(pages: &[Page]) -> Vec<usize> {
    let mut first: HashMap<u64, usize> = HashMap::new();
    pages
        .iter()
        .enumerate()
        .map(|(index, page)| {
            match (!page.dom.is_empty())
                .then(|| shingle(&content_tokens(&page.dom, NodeId(0))))
                .flatten()
            {
                Some(page_shingle) => *first.entry(page_shingle).or_insert(index),
                None => index,
            }
        })
        .collect()
}

/// Undirected adjacency between pages: a link from one page's document to the other's URL.
fn link_graph(pages: &[Page]) -> Vec<Vec<usize>> {
    let by_url: HashMap<String, usize> = pages
        .iter()
        .enumerate()
        .filter_map(|(index, page)| Some((page_key(page.url.as_ref()?.as_str()), index)))
        .collect();
    let mut adjacent = vec![Vec::new(); pages.len()];
    for (from, page) in pages.iter().enumerate() {
        for id in page.dom.ids() {
            let Some(target) = link_target(&page.dom, id) else {
                continue;
            };
            if let Some(&to) = by_url.get(&page_key(target))
                && to != from
            {
                adjacent[from].push(to);
                adjacent[to].push(from);
            }
        }
    }
    for neighbours in &mut adjacent {
        neighbours.sort_unstable();
        neighbours.dedup();
    }
    adjacent
}

/// A link target as a page identity: no fragment, and a directory means its `index.html`.
pub(crate) fn page_key(target: &str) -> String {
    let target = target.split('#').next().unwrap_or(target);
    if target.ends_with('/') {
        format!("{target}index.html")
    } else {
        target.to_owned()
    }
}

/// The owners that share a connected component with another owner, following links between
/// owners only (Figure 5, step 5). Sorted.
fn linked_owners(owners: &[usize], links: &[Vec<usize>]) -> Vec<usize> {
    let mut component = vec![usize::MAX; owners.len()];
    let mut kept = Vec::new();
    for start in 0..owners.len() {
        if component[start] != usize::MAX {
            continue;
        }
        component[start] = start;
        let mut members = vec![owners[start]];
        let mut queue = VecDeque::from([owners[start]]);
        while let Some(page) = queue.pop_front() {
            for neighbour in &links[page] {
                if let Ok(position) = owners.binary_search(neighbour)
                    && component[position] == usize::MAX
                {
                    component[position] = start;
                    members.push(*neighbour);
                    queue.push_back(*neighbour);
                }
            }
        }
        if members.len() > 1 {
            kept.extend(members);
        }
    }
    kept.sort_unstable();
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::ParseLimits;

    fn page(url: &str, body: &str) -> Page {
        let html = format!("<html><body>{body}</body></html>");
        let url = url::Url::parse(url).ok();
        Page::parse(html.as_bytes(), url, None, &ParseLimits::default()).expect("test page")
    }

    const NAV: &str = "<ul><li><a href='/a.html'>A</a></li><li><a href='/b.html'>B</a></li>\
                       <li><a href='/c.html'>C</a></li></ul>";

    #[test]
    fn a_page_is_split_where_a_child_holds_k_links() {
        let page = page("http://x/a.html", &format!("{NAV}<p>text</p>"));
        let facts = SubtreeFacts::of(&page.dom);
        let tags: Vec<&str> = partition(&page.dom, &facts, 3)
            .into_iter()
            .map(|id| page.dom.element(id).tag.as_str())
            .collect();
        assert_eq!(tags, ["head", "ul", "p"]);
    }

    #[test]
    fn a_pagelet_repeated_on_two_pages_is_template() {
        let pages = [
            page("http://x/a.html", &format!("{NAV}<p>first page story</p>")),
            page("http://x/b.html", &format!("{NAV}<p>second page story</p>")),
        ];
        let marks = Pagelets::default().detect(&pages).expect("detect");
        assert_eq!(marks[0].template_text(&pages[0].dom), "A B C");
        assert_eq!(marks[1].content_text(&pages[1].dom), "second page story");
    }

    #[test]
    fn the_global_algorithm_needs_the_owner_pages_to_be_linked() {
        let unlinked = "<ul><li><a href='/x1'>X</a></li><li><a href='/x2'>Y</a></li>\
                        <li><a href='/x3'>Z</a></li></ul>";
        let pages = [
            page("http://x/p.html", &format!("{unlinked}<p>one story</p>")),
            page("http://x/q.html", &format!("{unlinked}<p>two story</p>")),
        ];
        let global = Pagelets {
            global: true,
            ..Pagelets::default()
        };
        let marks = global.detect(&pages).expect("detect");
        assert_eq!(marks[0].template_count(), 0);
        let linked = [
            page("http://x/a.html", &format!("{NAV}<p>one story</p>")),
            page("http://x/b.html", &format!("{NAV}<p>two story</p>")),
        ];
        let marks = global.detect(&linked).expect("detect");
        assert_eq!(marks[0].template_text(&linked[0].dom), "A B C");
    }

    #[test]
    fn duplicate_pages_do_not_make_each_other_template() {
        let pages = [
            page("http://x/a.html", "<p>same words here</p>"),
            page("http://x/b.html", "<p>same words here</p>"),
        ];
        let marks = Pagelets::default().detect(&pages).expect("detect");
        assert_eq!(marks[0].template_count(), 0);
        assert_eq!(marks[1].template_count(), 0);
    }
}
