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
    let list_of = outermost_lists(dom, parts);
    let mut lists: BTreeMap<NodeId, List> = BTreeMap::new();
    for (index, paragraph) in facts.iter().enumerate() {
        let Some(list) = list_of[paragraph.anchor.index()] else {
            continue;
        };
        // Every item counts, chosen or not: they are all of the list's words.
        let entry = lists.entry(list).or_default();
        entry.items += 1;
        entry.words += paragraph.words;
        entry.link_words += paragraph.link_words;
        entry.weighted_templateness += paragraph.templateness * paragraph.words as f64;
        entry.all_between &= in_block_between(paragraph);
        if !chosen[index] {
            entry.unchosen.push(index);
        }
    }
    for (index, paragraph) in facts.iter().enumerate() {
        if !chosen[index]
            && in_block_between(paragraph)
            && !paragraph.is_link_list()
            && paragraph.templateness < threshold
            && parts
                .iter()
                .any(|&part| dom.contains(part, paragraph.anchor))
        {
            main.push(index);
        }
    }
    for list in lists.into_values() {
        if list.items >= MIN_ITEMS
            && list.all_between
            && (list.link_words as f64) < LINK_LIST_SHARE * list.words as f64
            && list.weighted_templateness < threshold * list.words as f64
        {
            main.extend(list.unchosen);
        }
    }
    main.sort_unstable();
    main.dedup();
    main
}

/// What decides whether a list is taken whole.
#[derive(Debug)]
struct List {
    items: usize,
    words: usize,
    link_words: usize,
    weighted_templateness: f64,
    /// Whether every item sits between the chosen paragraphs, in no named region, form or card
    /// list.
    all_between: bool,
    unchosen: Vec<usize>,
}

impl Default for List {
    fn default() -> Self {
        List {
            items: 0,
            words: 0,
            link_words: 0,
            weighted_templateness: 0.0,
            all_between: true,
            unchosen: Vec::new(),
        }
    }
}

/// Per element: the outermost `<ul>` or `<ol>` holding it below the part (of `parts`) it sits
/// in; `None` outside the parts. One pass over the parts' subtrees (parents come first).
fn outermost_lists(dom: &Dom, parts: &[NodeId]) -> Vec<Option<NodeId>> {
    let mut list_of: Vec<Option<NodeId>> = vec![None; dom.len()];
    for &part in parts {
        for id in dom.subtree(part).skip(1) {
            let inherited = dom
                .element(id)
                .parent
                .and_then(|parent| list_of[parent.index()]);
            list_of[id.index()] = inherited
                .or_else(|| matches!(dom.element(id).tag.as_str(), "ul" | "ol").then_some(id));
        }
    }
    list_of
}
