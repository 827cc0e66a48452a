//! Closed `<details>` as Chromium lays them out. Chromium (156) hides a closed details' content
//! with `content-visibility: hidden`, which skips painting but not measuring: every element in
//! it keeps a box where it would stand were the details open (below the summary, at the
//! details' width), while the details itself is only as tall as its summary and the page
//! continues below that. A details without a `<summary>` shows a default one ("Details").
//! Blitz hides the content with `display: none`, which leaves it without boxes.
//!
//! The copy to lay out wraps a closed details' content, all but its first `<summary>`, in one
//! element that [`CLOSED_DETAILS_CSS`] lays out as a zero-height block formatting context: its
//! content is laid out at full width below the summary and overflows it, taking no space. The
//! wrapper and an inserted default summary carry no id, so they report no box.

use crate::page::{Child, Dom, Element, NodeId, TextNode};

/// Tag of the wrapper; a name no author stylesheet styles.
const CONTENT_WRAPPER: &str = "pagelevel-details-content";

/// The user-agent rule that shows the wrapper. Blitz's own sheet hides every child of a closed
/// details but its first summary with `display: none !important`; this rule is more specific,
/// so it wins among the user agent's important rules (author CSS cannot override either).
pub(crate) const CLOSED_DETAILS_CSS: &str = "details:not([open]) > \
    pagelevel-details-content:not([open]):not(summary) { display: flow-root !important; \
    height: 0 !important; min-height: 0 !important; margin: 0 !important; \
    padding: 0 !important; border: 0 !important; }\n";

/// Wraps the content of every closed `<details>` of `dom` (the copy to lay out), giving those
/// without a summary Chromium's default one.
pub(crate) fn lay_out_closed_details_content(dom: &mut Dom) {
    let closed: Vec<NodeId> = dom
        .ids()
        .filter(|&id| dom.element(id).is_closed_details())
        .collect();
    for details in closed {
        let first_summary = dom
            .element_children(details)
            .find(|&child| dom.element(child).tag == "summary");
        let (summary, content): (Vec<Child>, Vec<Child>) = dom.elements[details.index()]
            .children
            .iter()
            .partition(|child| matches!(child, Child::Element(id) if Some(*id) == first_summary));
        let summary = match summary.first() {
            Some(&summary) => summary,
            None => Child::Element(append_default_summary(dom, details)),
        };
        let wrapper = append_element(dom, details, CONTENT_WRAPPER);
        dom.elements[wrapper.index()].children = content;
        dom.elements[details.index()].children = vec![summary, Child::Element(wrapper)];
    }
}

/// Chromium's summary for a details without one.
fn append_default_summary(dom: &mut Dom, details: NodeId) -> NodeId {
    let summary = append_element(dom, details, "summary");
    dom.texts.push(TextNode {
        parent: summary,
        text: "Details".into(),
    });
    let text = (dom.texts.len() - 1) as u32;
    dom.elements[summary.index()].children = vec![Child::Text(text)];
    summary
}

/// An element added after the page's own: its id is beyond the page's, so the serialized
/// copy's id attribute on it names no element of the page.
fn append_element(dom: &mut Dom, parent: NodeId, tag: &str) -> NodeId {
    let id = NodeId(dom.elements.len() as u32);
    dom.elements.push(Element {
        tag: tag.into(),
        parent: Some(parent),
        depth: dom.element(parent).depth + 1,
        attributes: Vec::new(),
        children: Vec::new(),
        subtree_end: NodeId(id.0 + 1),
        link: None,
        html_bytes: 0,
    });
    id
}
