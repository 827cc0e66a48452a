//! Blocks a product page heads as other products — "You may also like", "Frequently bought
//! together", "Customers also viewed" —: each card in them is a product's name, price and rating,
//! as likely to the model as the page's own, and none of them is this product's content. WCXB's
//! product gold leaves them out; their class names rarely say what they are (`css-1x2y3z`,
//! `carousel`), their heading does.
//!
//! Only under a product's policy. Development split, WCXB cross-fitted: products .6537 →
//! .6540 (0588, 2990 up; none down), no other set moved. On every page type it also cost a
//! service page whose gold keeps its "Related products" (0702, Azure's) and, before the
//! headline guard, a shop category whose "Related Products" heads its whole column (4061).

use crate::page::{Dom, NodeId};

use super::ParagraphFacts;
use super::regions::subtree_words;

/// Words a heading of other products has at most: a longer line is a sentence that mentions
/// them.
const MAX_HEADING_WORDS: usize = 8;

/// The largest share of the page's words a block of other products may hold: a bundle of
/// "Frequently bought together" lays out every bundled product's description (WCXB 2990: 1,704
/// of the page's words), beyond a named region's share; a page's wrapper holds all of them.
const MAX_BLOCK_SHARE: f64 = 0.9;

/// How shops head other products (lower case; a heading starting with one of them counts).
const OTHER_PRODUCTS: &[&str] = &[
    "you may also like",
    "you might also like",
    "you may be interested in",
    "you might be interested in",
    "related products",
    "related items",
    "similar products",
    "similar items",
    "frequently bought together",
    "customers also bought",
    "customers also viewed",
    "customers who bought",
    "customers who viewed",
    "people also bought",
    "people also viewed",
    "people who viewed",
    "recently viewed",
    "recommended for you",
    "recommended products",
    "complete the look",
    "shop the look",
    "more items to explore",
    "sponsored products",
];

/// Per element: whether it is, or sits inside, a block led by a heading of other products —
/// the largest ancestor of the heading whose first paragraph the heading is, holding less than
/// [`MAX_BLOCK_SHARE`] of the page's words and no other headline.
pub(super) fn within_other_products(dom: &Dom, facts: &[ParagraphFacts]) -> Vec<bool> {
    let mut within = vec![false; dom.len()];
    let mut words = None;
    for (index, heading) in facts.iter().enumerate() {
        if !heads_other_products(&heading.text, heading.words) {
            continue;
        }
        let words = words.get_or_insert_with(|| subtree_words(dom));
        let page_words = words.first().copied().unwrap_or(0).max(1) as f64;
        let previous = index.checked_sub(1).map(|previous| facts[previous].anchor);
        let mut block = heading.anchor;
        while let Some(parent) = dom.element(block).parent {
            let leads = previous.is_none_or(|previous| !dom.contains(parent, previous));
            if !leads
                || words[parent.index()] as f64 >= MAX_BLOCK_SHARE * page_words
                || holds_another_headline(dom, parent, heading.anchor)
            {
                break;
            }
            block = parent;
        }
        for id in dom.subtree(block) {
            within[id.index()] = true;
        }
    }
    within
}

/// Whether `block` holds an `<h1>` that is not in `heading`: the page's own headline, which the
/// other products' heading may come before (WCXB 4061: "Related Products" above a category's
/// name and introduction).
fn holds_another_headline(dom: &Dom, block: NodeId, heading: NodeId) -> bool {
    dom.subtree(block)
        .any(|id| dom.element(id).tag == "h1" && !dom.contains(heading, id))
}

/// Whether a paragraph's text (of `words` words) heads other products.
fn heads_other_products(text: &str, words: usize) -> bool {
    if words == 0 || words > MAX_HEADING_WORDS {
        return false;
    }
    let lower = text.to_lowercase();
    OTHER_PRODUCTS
        .iter()
        .any(|heading| lower.starts_with(heading))
}
