//! Card lists: a `<ul>`/`<ol>` of at least [`MIN_CARDS`] items, each holding a linked heading —
//! the teasers of other pages an article carries ("more stories"). On a listing they are the
//! content; on an article, they are not its text. A listicle's items have headings too, but
//! theirs lead to no other page.

use crate::page::{Child, Dom, NodeId};

/// Items a list needs to be a card list: fewer are a short list of points with sub-headings.
const MIN_CARDS: usize = 5;

/// Per element: whether it is, or sits inside, a card list.
pub fn within_card_lists(dom: &Dom) -> Vec<bool> {
    let has_heading = linked_headings_within(dom);
    let is_card_list = |id: NodeId| {
        let element = dom.element(id);
        if !matches!(element.tag.as_str(), "ul" | "ol") {
            return false;
        }
        let items: Vec<NodeId> = element
            .children
            .iter()
            .filter_map(|child| match child {
                Child::Element(child) if dom.element(*child).tag == "li" => Some(*child),
                _ => None,
            })
            .collect();
        items.len() >= MIN_CARDS && items.iter().all(|item| has_heading[item.index()])
    };
    let mut within = vec![false; dom.len()];
    for id in dom.ids() {
        within[id.index()] = dom
            .element(id)
            .parent
            .is_some_and(|parent| within[parent.index()])
            || is_card_list(id);
    }
    within
}

/// Per element: whether its subtree holds a heading (`h1`–`h6`) inside a link or holding one.
fn linked_headings_within(dom: &Dom) -> Vec<bool> {
    let in_link = dom.within_links();
    let mut holds_link = vec![false; dom.len()];
    let mut has = vec![false; dom.len()];
    // Children come after their parents in document order: walk backwards to pass it up.
    for id in dom.ids().rev() {
        let element = dom.element(id);
        if element.link.is_some() {
            holds_link[id.index()] = true;
        }
        if matches!(
            element.tag.as_str(),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6"
        ) && (in_link[id.index()] || holds_link[id.index()])
        {
            has[id.index()] = true;
        }
        if holds_link[id.index()]
            && let Some(parent) = element.parent
        {
            holds_link[parent.index()] = true;
        }
        if has[id.index()]
            && let Some(parent) = element.parent
        {
            has[parent.index()] = true;
        }
    }
    has
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::{Page, ParseLimits};

    fn card_lists_in(html: &str) -> usize {
        let page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap();
        let within = within_card_lists(&page.dom);
        page.dom
            .ids()
            .filter(|&id| page.dom.element(id).tag == "li" && within[id.index()])
            .count()
    }

    #[test]
    fn a_list_of_five_items_each_with_a_linked_heading_is_a_card_list() {
        let card = "<li><a href=/a><h3>Story</h3></a><p>Teaser</p></li>";
        assert_eq!(card_lists_in(&format!("<ul>{}</ul>", card.repeat(5))), 5);
        assert_eq!(card_lists_in(&format!("<ul>{}</ul>", card.repeat(4))), 0);
        let linking = "<li><h3><a href=/b>Story</a></h3></li>";
        assert_eq!(card_lists_in(&format!("<ul>{}</ul>", linking.repeat(5))), 5);
        let listicle = "<li><h3>Step</h3><p>What to do, at length.</p></li>";
        assert_eq!(
            card_lists_in(&format!("<ol>{}</ol>", listicle.repeat(5))),
            0
        );
        let plain = "<li>A point without a heading</li>";
        assert_eq!(
            card_lists_in(&format!("<ol>{}{plain}</ol>", card.repeat(5))),
            0
        );
    }
}
