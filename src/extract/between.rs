//! What the segmentation keeps between an article's chosen paragraphs. The main-text model
//! weighs each paragraph alone, and a list item or a short line is short and seldom ends like
//! a sentence, so an article kept its prose and lost its bullet points (Readability's
//! development pages: list-item recall .747) and the short lines between its paragraphs. On an
//! article the main text overrules the segmentation both ways (`pipeline::main_text_overrules`),
//! so what the model left out became template though the segmentation had kept it as content.
//!
//! Only content by the segmentation's verdict (templateness under the page's threshold) is
//! taken: a list or line the segmentation calls template stays out, so no template verdict
//! turns content on its account — taking such lists too cost CleanEval's test template text
//! .6494 → .6277 in the eighth session's try (its annotators call an article's sponsored and
//! related lists boilerplate).

use std::collections::BTreeMap;

use crate::page::{Dom, NodeId};

use super::{LINK_LIST_SHARE, ParagraphFacts, Region, cards};

/// Items a list needs to be taken whole: one item alone is a line of its own.
const MIN_ITEMS: usize = 2;

/// `main` (a one-block choice) with what the chosen block (`parts`) holds between its first and
/// last chosen paragraph, in no named region, form or card list, as content by
/// the segmentation (templateness under `threshold`), in document order:
/// - every paragraph that is not a link list (a short line, a list item, a caption);
/// - every paragraph of each list (`<ul>`, `<ol>`) mostly not link text, its items weighed
///   together: a list of references, or of links with a blurb each, is the article's although
///   some of its items are mostly link.
pub(super) fn with_what_lies_between(
    dom: &Dom,
    facts: &[ParagraphFacts],
    parts: &[NodeId],
    threshold: f64,
    mut main: Vec<usize>,
) -> Vec<usize> {
    let (Some(first), Some(last)) = (
        main.iter().map(|&index| facts[index].anchor).min(),
        main.iter().map(|&index| facts[index].anchor).max(),
    ) else {
        return main;
    };
    let mut chosen = vec![false; facts.len()];
    for &index in &main {
        chosen[index] = true;
    }
    let between = |paragraph: &ParagraphFacts| {
        paragraph.anchor > first
            && paragraph.anchor < last
            && paragraph.region == Region::Plain
            && !paragraph.in_form
    };
    // Most articles' chosen paragraphs leave nothing between them: the card lists (a walk of
    // the whole page) are found only when something is.
    if !facts
        .iter()
        .enumerate()
        .any(|(index, paragraph)| !chosen[index] && between(paragraph))
    {
        return main;
    }
    let in_card_list = cards::within_card_lists(dom);
    let in_block_between =
        |paragraph: &ParagraphFacts| between(paragraph) && !in_card_list[paragraph.anchor.index()];
    let mut by_list: BTreeMap<NodeId, Vec<usize>> = BTreeMap::new();
    for (index, paragraph) in facts.iter().enumerate() {
        if chosen[index] || !in_block_between(paragraph) {
            continue;
        }
        let Some(&part) = parts
            .iter()
            .find(|&&part| dom.contains(part, paragraph.anchor))
        else {
            continue;
        };
        if !paragraph.is_link_list() && paragraph.templateness < threshold {
            main.push(index);
        }
        if let Some(list) = outermost_list(dom, paragraph.anchor, part) {
            by_list.entry(list).or_default().push(index);
        }
    }
    for (list, items) in by_list {
        // The list's chosen items count too: they are of its words.
        let every_item: Vec<&ParagraphFacts> = facts
            .iter()
            .filter(|paragraph| dom.contains(list, paragraph.anchor))
            .collect();
        let words: usize = every_item.iter().map(|item| item.words).sum();
        let link_words: usize = every_item.iter().map(|item| item.link_words).sum();
        let weighted_templateness: f64 = every_item
            .iter()
            .map(|item| item.templateness * item.words as f64)
            .sum();
        if every_item.len() >= MIN_ITEMS
            && every_item.iter().all(|&item| in_block_between(item))
            && (link_words as f64) < LINK_LIST_SHARE * words as f64
            && weighted_templateness < threshold * words as f64
        {
            main.extend(items);
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
