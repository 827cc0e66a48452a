//! The words a page names itself with — its URL's path, its title, description, headings,
//! buttons and navigation — hashed into a fixed number of buckets, so that a linear model can
//! learn "cart", "docs", "thread" or "pricing" without a vocabulary file.

use crate::page::{Child, Dom, NodeId, Page};

use super::facts::page_url;

/// Buckets of the hashed words.
pub const WORD_BUCKETS: usize = 1024;

/// Words read from headings, buttons and navigation, at most (long menus say enough early).
const MAX_HEADING_WORDS: usize = 300;

/// The page's hashed words: 1 / √n in each of the n buckets its words fall in (a unit vector),
/// else 0. A word's bucket depends on where it was read (`u_docs` and `t_docs` differ).
pub fn word_buckets(page: &Page) -> Vec<f64> {
    let mut hit = vec![false; WORD_BUCKETS];
    let mut mark = |place: &str, text: &str| {
        for word in words(text) {
            hit[bucket(place, &word)] = true;
        }
    };
    if let Some(url) = page_url(page) {
        mark("u", url.path());
    }
    mark("t", &page.title);
    let dom = &page.dom;
    if let Some(description) = dom.ids().find_map(|id| {
        let element = dom.element(id);
        (element.tag == "meta"
            && element
                .attribute("name")
                .is_some_and(|name| name.eq_ignore_ascii_case("description")))
        .then(|| element.attribute("content"))
        .flatten()
    }) {
        mark("d", description);
    }
    let mut heading_words = 0;
    for id in dom.ids() {
        if heading_words >= MAX_HEADING_WORDS {
            break;
        }
        let tag = dom.element(id).tag.as_str();
        let is_named_place = matches!(tag, "h1" | "h2" | "h3" | "button" | "nav");
        let inside_one = dom
            .element(id)
            .parent
            .is_some_and(|parent| is_heading_place(dom, parent));
        if is_named_place && !inside_one {
            let text = subtree_text(dom, id);
            for word in words(&text).take(MAX_HEADING_WORDS - heading_words) {
                hit[bucket("h", &word)] = true;
                heading_words += 1;
            }
        }
    }
    let count = hit.iter().filter(|&&on| on).count();
    let value = if count > 0 {
        1.0 / (count as f64).sqrt()
    } else {
        0.0
    };
    hit.into_iter()
        .map(|on| if on { value } else { 0.0 })
        .collect()
}

/// Whether an element is, or sits inside, a heading, button or navigation (read once, from the
/// outermost).
fn is_heading_place(dom: &Dom, id: NodeId) -> bool {
    let mut at = Some(id);
    while let Some(current) = at {
        let element = dom.element(current);
        if matches!(element.tag.as_str(), "h1" | "h2" | "h3" | "button" | "nav") {
            return true;
        }
        at = element.parent;
    }
    false
}

/// The text of an element's subtree, in document order.
fn subtree_text(dom: &Dom, id: NodeId) -> String {
    let mut text = String::new();
    let mut stack = vec![id];
    while let Some(current) = stack.pop() {
        for child in dom.element(current).children.iter().rev() {
            match child {
                Child::Element(child) => stack.push(*child),
                Child::Text(index) => {
                    text.push_str(&dom.texts[*index as usize].text);
                    text.push(' ');
                }
            }
        }
    }
    text
}

/// Lower-case runs of letters.
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphabetic())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
}

/// The bucket of a word read at `place`: FNV-1a of `place_word`.
fn bucket(place: &str, word: &str) -> usize {
    let hash = place
        .bytes()
        .chain(std::iter::once(b'_'))
        .chain(word.bytes())
        .fold(0xcbf29ce484222325u64, |hash, byte| {
            (hash ^ u64::from(byte)).wrapping_mul(0x100000001b3)
        });
    (hash % WORD_BUCKETS as u64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lower_case_letter_runs_and_places_hash_apart() {
        let found: Vec<String> = words("/docs/API-reference_v2").collect();
        assert_eq!(found, ["docs", "api", "reference", "v"]);
        assert_ne!(bucket("u", "docs"), bucket("t", "docs"));
        assert_eq!(bucket("u", "docs"), bucket("u", "docs"));
    }
}
