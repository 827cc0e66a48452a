//! Choosing the pages to detect a template from: Alarte, Insa, Silva & Tamarit, "Automatic
//! Detection of Webpages that Share the Same Web Template" (2015), Section 3.
//!
//! **Problem.** Given a key page, find `n` pages (default 3) that are pairwise mutually linked —
//! an `n`-complete subdigraph (n-CS) of the site's link graph, typically the pages a shared menu
//! points to — while loading as few pages as possible. The result is the key page and the CS.
//!
//! **Link order (Algorithm 1).** The key page's links to its own host (fragments removed,
//! self-links and repeats dropped) are ordered by *hyperlink distance* (Definition 2) from the
//! key page's directory to the link's directory — same directory first, then subdirectories
//! (nearest first), then directories outside (nearest first) — and within equal distance by
//! *DOM distance* (Definition 3): each next link is the one farthest in the DOM tree from the
//! links already chosen at that distance (ties: document order), so the sample spans different
//! pagelets.
//!
//! **Search (Algorithm 2).** Links are loaded in that order; each loaded page contributes its
//! links to the other reachable links. After each load, the largest CS that contains the new
//! link is searched among the loaded links (a clique of mutual links, searched up to size `n`);
//! the first `n`-CS ends the search, otherwise the largest CS found is returned. A link whose
//! page cannot be loaded is skipped. A directory link (`…/`) and its `index.html` are one page.

mod source;

pub use source::{DiskSource, HttpSource, PageSource};

use std::collections::{BTreeMap, BTreeSet};

use thiserror::Error;
use url::Url;

use crate::page::{Dom, NodeId, Page};

/// The CS size the paper finds the best balance of precision and loads (Section 4).
pub const DEFAULT_SIZE: usize = 3;

/// The chosen pages: the key page first, then the CS in link order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SampleResult {
    /// The key page, then the CS members (fewer than `size` when no full CS was found).
    pub pages: Vec<Url>,
    /// Pages loaded, the key page included.
    pub loads: usize,
    /// Links that could not be loaded, with the reason.
    pub skipped: Vec<(Url, String)>,
}

/// Why a sample could not be taken.
#[derive(Debug, Error)]
pub enum SampleError {
    /// The key page itself could not be loaded, so there are no links to sample from.
    #[error("cannot load the key page {url}: {reason}")]
    KeyPage {
        /// The key page's URL.
        url: String,
        /// The [`PageSource`]'s error sentence.
        reason: String,
    },
    /// [`sample`] was asked for a CS of size 0.
    #[error("the complete-subdigraph size must be at least 1")]
    ZeroSize,
}

/// A link of the key page: where it goes, its identity, and its first `<a>` element.
#[derive(Debug, Clone)]
struct KeyLink {
    url: Url,
    node: NodeId,
}

/// Finds the key page and an `size`-CS of pages sharing its template (see the module doc).
pub fn sample(
    key: &Url,
    size: usize,
    source: &mut dyn PageSource,
) -> Result<SampleResult, SampleError> {
    if size == 0 {
        return Err(SampleError::ZeroSize);
    }
    let key_page = source.load(key).map_err(|reason| SampleError::KeyPage {
        url: key.to_string(),
        reason,
    })?;
    let key_url = key_page.url.clone().unwrap_or_else(|| key.clone());
    let links = sorted_links(
        &key_url,
        &key_page.dom,
        key_links(&key_url, &key_page, source),
    );
    let reachable: BTreeMap<String, usize> = links
        .iter()
        .enumerate()
        .map(|(index, link)| (page_identity(&link.url), index))
        .collect();
    let mut result = SampleResult {
        pages: vec![key.clone()],
        loads: 1,
        skipped: Vec::new(),
    };
    // out[i]: indices of reachable links page i links to; loaded: indices processed, in order.
    let mut out: Vec<BTreeSet<usize>> = vec![BTreeSet::new(); links.len()];
    let mut loaded: Vec<usize> = Vec::new();
    let mut best: Vec<usize> = Vec::new();
    for (index, link) in links.iter().enumerate() {
        let page = match source.load(&link.url) {
            Ok(page) => page,
            Err(reason) => {
                result.skipped.push((link.url.clone(), reason));
                continue;
            }
        };
        result.loads += 1;
        let base = page.url.clone().unwrap_or_else(|| link.url.clone());
        out[index] = key_links(&base, &page, source)
            .iter()
            .filter_map(|target| reachable.get(&page_identity(&target.url)).copied())
            .filter(|&target| target != index)
            .collect();
        loaded.push(index);
        let mutual = |a: usize, b: usize| out[a].contains(&b) && out[b].contains(&a);
        let candidates: Vec<usize> = loaded
            .iter()
            .copied()
            .filter(|&other| other != index && mutual(index, other))
            .collect();
        let mut clique = vec![index];
        let largest = largest_clique(&candidates, size - 1, &mutual, &mut clique);
        if largest.len() > best.len() {
            best = largest;
        }
        if best.len() == size {
            break;
        }
    }
    best.sort_unstable();
    result
        .pages
        .extend(best.into_iter().map(|index| links[index].url.clone()));
    Ok(result)
}

/// The largest clique extending `clique` with at most `room` more of `candidates`.
fn largest_clique(
    candidates: &[usize],
    room: usize,
    mutual: &dyn Fn(usize, usize) -> bool,
    clique: &mut Vec<usize>,
) -> Vec<usize> {
    let mut best = clique.clone();
    if room == 0 {
        return best;
    }
    for (position, &candidate) in candidates.iter().enumerate() {
        if clique.iter().all(|&member| mutual(member, candidate)) {
            clique.push(candidate);
            let found = largest_clique(&candidates[position + 1..], room - 1, mutual, clique);
            clique.pop();
            if found.len() > best.len() {
                best = found;
                if best.len() == clique.len() + room {
                    break;
                }
            }
        }
    }
    best
}

/// A page's distinct same-host links in document order (first element of each), without
/// fragments, self-links, or non-page schemes.
fn key_links(page_url: &Url, page: &Page, source: &dyn PageSource) -> Vec<KeyLink> {
    let own = page_identity(page_url);
    let mut seen = BTreeSet::new();
    let mut links = Vec::new();
    for id in page.dom.ids() {
        let Some(href) = page.dom.element(id).link.as_deref() else {
            continue;
        };
        let Ok(mut url) = page_url.join(href) else {
            continue;
        };
        url.set_fragment(None);
        let url = source.canonical(&url);
        let same_site = url.scheme() == page_url.scheme() && url.host_str() == page_url.host_str();
        let is_page = matches!(url.scheme(), "http" | "https" | "file");
        let identity = page_identity(&url);
        if same_site && is_page && identity != own && seen.insert(identity) {
            links.push(KeyLink { url, node: id });
        }
    }
    links
}

/// A URL as a page identity: no fragment, and a directory means its `index.html`.
fn page_identity(url: &Url) -> String {
    crate::sitelevel::pagelets::page_key(url.as_str())
}

/// The directory words of a URL: host, then each directory of the path (the file name dropped).
fn hyperlink(url: &Url) -> Vec<String> {
    let mut words = vec![url.host_str().unwrap_or_default().to_owned()];
    let path = url.path();
    let directory = &path[..path.rfind('/').map_or(0, |slash| slash + 1)];
    words.extend(
        directory
            .split('/')
            .filter(|word| !word.is_empty())
            .map(str::to_owned),
    );
    words
}

/// Definition 2: distance from the directory `from` to the directory `to`.
fn hyperlink_distance(from: &[String], to: &[String]) -> i64 {
    let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
    if common == from.len() {
        // `to` is `from` itself (0) or below it (+ the extra depth).
        (to.len() - common) as i64
    } else {
        // `to` is above `from`, or in a sibling branch: minus the part of `from` left behind.
        -((from.len() - common) as i64)
    }
}

/// Algorithm 1: link relevance classes, each ordered by DOM relevance.
fn sorted_links(key_url: &Url, dom: &Dom, links: Vec<KeyLink>) -> Vec<KeyLink> {
    let key_directory = hyperlink(key_url);
    let mut classes: BTreeMap<(u8, i64), Vec<KeyLink>> = BTreeMap::new();
    for link in links {
        let distance = hyperlink_distance(&key_directory, &hyperlink(&link.url));
        let rank = if distance >= 0 {
            (0, distance)
        } else {
            (1, -distance)
        };
        classes.entry(rank).or_default().push(link);
    }
    classes
        .into_values()
        .flat_map(|class| order_by_dom_spread(dom, class))
        .collect()
}

/// Greedy DOM relevance: next is the link farthest from those already chosen (document order
/// on ties, and for the first).
fn order_by_dom_spread(dom: &Dom, mut links: Vec<KeyLink>) -> Vec<KeyLink> {
    let mut ordered = Vec::with_capacity(links.len());
    let mut nearest = vec![u32::MAX; links.len()];
    while !links.is_empty() {
        let mut pick = 0;
        for candidate in 1..links.len() {
            if nearest[candidate] > nearest[pick] {
                pick = candidate;
            }
        }
        let chosen = links.remove(pick);
        nearest.remove(pick);
        for (link, distance) in links.iter().zip(nearest.iter_mut()) {
            *distance = (*distance).min(dom_distance(dom, chosen.node, link.node));
        }
        ordered.push(chosen);
    }
    ordered
}

/// Definition 3: steps from each node up to their deepest common ancestor, summed.
fn dom_distance(dom: &Dom, a: NodeId, b: NodeId) -> u32 {
    let (mut a, mut b) = (a, b);
    let mut steps = 0;
    while a != b {
        let (deeper, other) = if dom.element(a).depth >= dom.element(b).depth {
            (&mut a, b)
        } else {
            (&mut b, a)
        };
        match dom.element(*deeper).parent {
            Some(parent) => *deeper = parent,
            None => return steps + dom.element(other).depth + 1,
        }
        steps += 1;
    }
    steps
}

#[cfg(test)]
mod tests;
