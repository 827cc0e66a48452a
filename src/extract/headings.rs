//! Section headings go with the text they head. The model weighs each paragraph alone, so a
//! short section heading can be dropped above a section it keeps — Wikipedia's `History[edit]`
//! reads as a link list. A reader of the main text, and of its Markdown, wants it.
//!
//! The converse (dropping a kept heading whose section keeps no text) was tried and not kept:
//! on listings a card's heading is the content and its blurb is not (WCXB development listings
//! .569 → .547), and Markdown headings gained no precision on Readability's pages.

use crate::page::Dom;

use super::{ParagraphFacts, Region};

/// The heading level of a paragraph's block, 1–6; `None` when it is no heading.
fn heading_level(dom: &Dom, facts: &ParagraphFacts) -> Option<u8> {
    match dom.element(facts.block).tag.as_str() {
        "h1" => Some(1),
        "h2" => Some(2),
        "h3" => Some(3),
        "h4" => Some(4),
        "h5" => Some(5),
        "h6" => Some(6),
        _ => None,
    }
}

/// The chosen paragraphs (indices into `facts`, document order) with the headings that lead
/// into chosen text: a heading just before a chosen paragraph, or before a chosen heading of a
/// deeper level, in the same region, not all link (a teaser's title).
pub(super) fn with_section_headings(
    dom: &Dom,
    facts: &[ParagraphFacts],
    main: Vec<usize>,
) -> Vec<usize> {
    if main.is_empty() {
        return main;
    }
    let level: Vec<Option<u8>> = facts
        .iter()
        .map(|facts| heading_level(dom, facts))
        .collect();
    let mut chosen = vec![false; facts.len()];
    for &index in &main {
        chosen[index] = true;
    }
    // Backwards, so that a chain of headings ("Software", then "Firefox", then its text) is
    // added from the text up.
    for index in (0..facts.len().saturating_sub(1)).rev() {
        let next = index + 1;
        let Some(own_level) = level[index] else {
            continue;
        };
        let here = &facts[index];
        let leads_into_chosen = chosen[next]
            && level[next].is_none_or(|next_level| next_level > own_level)
            && here.region == facts[next].region;
        // A heading that is all link is a teaser's title, not a section's.
        if !chosen[index]
            && leads_into_chosen
            && here.region != Region::Comment
            && here.link_words < here.words
        {
            chosen[index] = true;
        }
    }
    (0..facts.len()).filter(|&index| chosen[index]).collect()
}
