//! The lists of an article's block: the main-text model weighs each list item as a paragraph,
//! and an item is short and seldom ends like a sentence, so an article kept its prose and lost
//! its bullet points (Readability's development pages: list items recall .747). A list set
//! between the article's own paragraphs, which the segmentation keeps as content, is the
//! article's whole.

use std::collections::BTreeMap;

use crate::page::{Dom, NodeId};

use super::{ParagraphFacts, Region};

/// Items a list needs to be taken whole: one item alone is a line of its own, which the model
/// weighs as any paragraph.
const MIN_ITEMS: usize = 2;

/// `main` with every paragraph of each list (`<ul>`, `<ol>`) inside the chosen block (`parts`)
/// that sits between its first and last chosen paragraph, in no named region and no form, that
/// is mostly not link text, whose words the segmentation keeps as content (templateness under
/// `threshold`), and that is no card list (`in_card_list`) — in document order.
///
/// Only content by the segmentation's verdict: a list the segmentation calls template stays
/// out, so the main text's overrule never turns template into content on its account (taking
/// such lists too cost CleanEval's test template text .6494 → .6277 in the eighth session's
/// try: its annotators call an article's sponsored and related lists boilerplate).
pub(super) fn with_lists_of_the_block(
    dom: &Dom,
    facts: &[ParagraphFacts],
    parts: &[NodeId],
    in_card_list: &[bool],
    threshold: f64,
    mut main: Vec<usize>,
) -> Vec<usize> {
    let (Some(first), Some(last)) = (
        main.iter().map(|&index| facts[index].anchor).min(),
        main.iter().map(|&index| facts[index].anchor).max(),
    ) else {
        return main;
    };
    let mut by_list: BTreeMap<NodeId, Vec<usize>> = BTreeMap::new();
    for (index, paragraph) in facts.iter().enumerate() {
        let Some(&part) = parts
            .iter()
            .find(|&&part| dom.contains(part, paragraph.anchor))
        else {
            continue;
        };
        if let Some(list) = outermost_list(dom, paragraph.anchor, part) {
            by_list.entry(list).or_default().push(index);
        }
    }
    let mut chosen = vec![false; facts.len()];
    for &index in &main {
        chosen[index] = true;
    }
    for (list, items) in by_list {
        let words: usize = items.iter().map(|&index| facts[index].words).sum();
        let link_words: usize = items.iter().map(|&index| facts[index].link_words).sum();
        let weighted_templateness: f64 = items
            .iter()
            .map(|&index| facts[index].templateness * facts[index].words as f64)
            .sum();
        let takes = items.len() >= MIN_ITEMS
            && list > first
            && items.iter().all(|&index| {
                let item = &facts[index];
                item.anchor < last && item.region == Region::Plain && !item.in_form
            })
            && !in_card_list[list.index()]
            && (link_words as f64) < super::LINK_LIST_SHARE * words as f64
            && weighted_templateness < threshold * words as f64
            && items.iter().any(|&index| !chosen[index]);
        if takes {
            main.extend(items.iter().filter(|&&index| !chosen[index]));
        }
    }
    main.sort_unstable();
    main.dedup();
    main
}

/// The outermost `<ul>` or `<ol>` holding `element` below `part`.
fn outermost_list(dom: &Dom, element: NodeId, part: NodeId) -> Option<NodeId> {
    let mut outermost = None;
    let mut at = Some(element);
    while let Some(here) = at {
        if here == part {
            break;
        }
        let element = dom.element(here);
        if matches!(element.tag.as_str(), "ul" | "ol") {
            outermost = Some(here);
        }
        at = element.parent;
    }
    outermost
}
