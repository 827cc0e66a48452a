//! Buyers' reviews on a product page: what they say of the product, not its name, description
//! and specifications, which are the page's content. WCXB's product gold keeps them out: 45 of
//! its 119 development product pages carry blocks named `review`/`reviews` (≥ 30 words), and
//! a fifth of their words occur in the gold at all.

use crate::features::vocabulary::role_tokens;
use crate::page::Dom;

use super::regions::{MAX_REGION_SHARE, subtree_words};

/// Per element: whether it is, or sits inside, a block whose `class` or `id` names reviews.
/// As with every named region, the name counts only on an element holding less than
/// [`MAX_REGION_SHARE`] of the page's words (a page wrapper named `has-reviews` is not one).
pub fn within_reviews(dom: &Dom) -> Vec<bool> {
    let words = subtree_words(dom);
    let page_words = words.first().copied().unwrap_or(0).max(1) as f64;
    let names_reviews = |value: Option<&str>| {
        value.is_some_and(|value| {
            role_tokens(value).any(|token| {
                token.eq_ignore_ascii_case("review") || token.eq_ignore_ascii_case("reviews")
            })
        })
    };
    let mut within = vec![false; dom.len()];
    for id in dom.ids() {
        let element = dom.element(id);
        within[id.index()] = element.parent.is_some_and(|parent| within[parent.index()])
            || ((words[id.index()] as f64) < MAX_REGION_SHARE * page_words
                && (names_reviews(element.attribute("class"))
                    || names_reviews(element.attribute("id"))));
    }
    within
}
