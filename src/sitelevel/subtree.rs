//! Fingerprints of DOM subtrees, computed bottom-up in one reverse pass over the arena.
//!
//! **What is hashed.** An element's fingerprint covers, in order: its tag name; for `<a>` and
//! `<area>`, the resolved link target with any `#fragment` removed and a Wayback Machine prefix
//! (`https://web.archive.org/web/20130905123456/`, see [`normalized_link`]) removed — archived pages (Big9) rewrite every
//! link with the capture time, which would make one menu look different on every page; then each child in source
//! order — an element child by its own fingerprint, a text child by its visible text with
//! whitespace collapsed (case kept). Text that collapses to nothing is skipped, so indentation
//! between tags never matters. Text under `<script>`, `<style>`, `<noscript>`, `<template>`,
//! `<head>` and `<title>` is left out (no reader sees it), the elements themselves are kept.
//! Other attributes (`class`, `id`, `style`, `src`) are not hashed: generators number ids per
//! page and the template's *content* is what repeats.
//!
//! Hashes are 64-bit `std` SipHash values with fixed keys: stable within a run, only ever
//! compared for equality, never stored.

use std::hash::{DefaultHasher, Hash, Hasher};

use crate::page::{Child, Dom, collapse_whitespace};

/// Per element (indexed by `NodeId`): subtree fingerprint and what the subtree holds.
#[derive(Debug, Clone)]
pub(crate) struct SubtreeFacts {
    pub hash: Vec<u64>,
    /// Links (`<a>`/`<area>` with a target) in the subtree, the element included.
    pub links: Vec<u32>,
    /// True when the subtree has visible text with a letter or digit.
    pub has_words: Vec<bool>,
}

impl SubtreeFacts {
    pub(crate) fn of(dom: &Dom) -> SubtreeFacts {
        let count = dom.len();
        let mut facts = SubtreeFacts {
            hash: vec![0; count],
            links: vec![0; count],
            has_words: vec![false; count],
        };
        for id in dom.ids().rev() {
            let element = dom.element(id);
            let mut hasher = DefaultHasher::new();
            element.tag.hash(&mut hasher);
            let link = link_target(dom, id);
            link.hash(&mut hasher);
            let mut links = u32::from(link.is_some());
            let mut has_words = false;
            let visible = dom.is_visible_text_parent(id);
            for child in &element.children {
                match *child {
                    Child::Element(child) => {
                        1u8.hash(&mut hasher);
                        facts.hash[child.index()].hash(&mut hasher);
                        links += facts.links[child.index()];
                        has_words |= facts.has_words[child.index()];
                    }
                    Child::Text(index) if visible => {
                        let text = collapse_whitespace(&dom.texts[index as usize].text);
                        if !text.is_empty() {
                            2u8.hash(&mut hasher);
                            text.hash(&mut hasher);
                            has_words |= text.chars().any(char::is_alphanumeric);
                        }
                    }
                    Child::Text(_) => {}
                }
            }
            facts.hash[id.index()] = hasher.finish();
            facts.links[id.index()] = links;
            facts.has_words[id.index()] = has_words;
        }
        facts
    }
}

/// The link target of an `<a>`/`<area>` element, normalized by [`normalized_link`].
pub(crate) fn link_target(dom: &Dom, id: crate::page::NodeId) -> Option<&str> {
    dom.element(id).link.as_deref().map(normalized_link)
}

/// A link without its `#fragment` and without a Wayback Machine capture prefix: whatever
/// precedes `/web/<8–14 digit capture time>[mode]/http…` (any archive host, or none when the
/// saved page kept root-relative archive links) is dropped.
pub(crate) fn normalized_link(link: &str) -> &str {
    let link = link.split('#').next().unwrap_or(link);
    let mut rest = link;
    while let Some(start) = rest.find("/web/") {
        let capture = &rest[start + "/web/".len()..];
        let digits = capture.chars().take_while(char::is_ascii_digit).count();
        let mode = capture[digits..]
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || *c == '_')
            .count();
        let original = capture[digits + mode..].strip_prefix('/');
        match original {
            Some(original) if (8..=14).contains(&digits) && original.starts_with("http") => {
                return original;
            }
            _ => rest = capture,
        }
    }
    link
}

#[cfg(test)]
mod tests {
    use super::normalized_link;

    #[test]
    fn archived_links_are_known_by_their_original_target() {
        assert_eq!(
            normalized_link(
                "https://web.archive.org/web/20130905123456/http://edition.cnn.com/#top"
            ),
            "http://edition.cnn.com/"
        );
        assert_eq!(
            normalized_link("/web/20130905200114im_/http://i.cdn.com/a.png"),
            "http://i.cdn.com/a.png"
        );
        assert_eq!(normalized_link("/web/page.html#x"), "/web/page.html");
        assert_eq!(normalized_link("/web/2013/report"), "/web/2013/report");
    }
}
