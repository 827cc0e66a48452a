//! Reading text off a page, once for every stage that needs it: which text a person sees
//! ([`text_visibility`]), the paragraphs it forms ([`paragraphs`]: a new block-level element or
//! a `<br>` starts one), the content text — the visible text of non-template elements, one
//! paragraph per line pair — and the words every comparison of texts counts ([`word_tokens`]).

use std::collections::HashSet;

use crate::layout::LaidOutPage;
use crate::page::{Child, Dom, Element, NodeId};

/// The words of `text`: maximal runs of alphanumeric characters, lowercased.
pub fn word_tokens(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|token| !token.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Words of a text as the main text and the content floor count them: whitespace-separated
/// tokens holding a letter or digit. A separator between links (`,` `|` `·`) is no word —
/// counted, it halves a link list's link share.
pub fn count_words(text: &str) -> usize {
    text.split_whitespace()
        .filter(|token| token.chars().any(char::is_alphanumeric))
        .count()
}

/// Words ([`count_words`]) in each element's subtree, of the text nodes whose parent `counted`
/// accepts.
pub fn subtree_words(dom: &Dom, counted: impl Fn(NodeId) -> bool) -> Vec<usize> {
    let mut words = vec![0usize; dom.len()];
    for text in &dom.texts {
        if counted(text.parent) {
            words[text.parent.index()] += count_words(&text.text);
        }
    }
    for id in dom.ids().rev() {
        if let Some(parent) = dom.element(id).parent {
            words[parent.index()] += words[id.index()];
        }
    }
    words
}

/// Elements that start a new block of text (HTML's block-level and table/list boxes).
const BLOCK_ELEMENTS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "body",
    "caption",
    "dd",
    "details",
    "dialog",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figcaption",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "summary",
    "table",
    "td",
    "th",
    "tr",
    "ul",
    "br",
];

/// Whether an element of this tag starts a new block of text.
pub(crate) fn is_block_element(tag: &str) -> bool {
    BLOCK_ELEMENTS.contains(&tag)
}

/// Elements whose content a browser never shows as text on the page: an `<iframe>`'s children
/// are fallback markup for browsers without frames (often ad `<script>` code), `<object>` and
/// `<embed>` fallbacks show only when the plug-in fails, `<template>` is inert. `<noscript>` is
/// left to the layout: hidden while scripting is on (Chromium keeps it on; only script
/// *execution* is blocked, and native layout hides it the same way), its content has no boxes,
/// except where native layout shows what a page's scripts would (`render::native::reveal`).
const NEVER_SHOWN_CONTENT: &[&str] = &["iframe", "object", "embed", "template"];

/// Whether each element's own text is seen by a reader: the element has a layout box (so it is
/// not `display: none`) that is painted (not `visibility: hidden`), is not code or
/// styling ([`Dom::is_visible_text_parent`]), is not inside `NEVER_SHOWN_CONTENT` or an
/// `aria-hidden="true"` subtree (but for a closed panel, [`is_panel`]) or one named
/// screen-reader-only ([`is_screen_reader_only`]), and its box is not a
/// screen-reader-only sliver (at most 1 px wide or high) or placed entirely off the page ("Skip
/// to content" links).
pub fn text_visibility(rendered: &LaidOutPage) -> Vec<bool> {
    let dom = &rendered.page.dom;
    let controlled = controlled_ids(dom);
    // Whether an ancestor (or the element itself) hides everything below it.
    let mut hidden_below = vec![false; dom.len()];
    // Whether the element is in the content of a closed `<details>` (outside its summary).
    let mut in_closed_details = vec![false; dom.len()];
    let mut visible = vec![false; dom.len()];
    for id in dom.ids() {
        let element = dom.element(id);
        let inherited = element
            .parent
            .is_some_and(|parent| hidden_below[parent.index()]);
        let aria_hidden = element
            .attribute("aria-hidden")
            .is_some_and(|value| value.trim().eq_ignore_ascii_case("true"));
        in_closed_details[id.index()] = element.parent.is_some_and(|parent| {
            in_closed_details[parent.index()]
                || (dom.element(parent).is_closed_details() && element.tag != "summary")
        });
        let hides_itself = inherited
            || NEVER_SHOWN_CONTENT.contains(&element.tag.as_str())
            || is_screen_reader_only(element)
            || (in_closed_details[id.index()] && is_menu(element));
        // An `aria-hidden` element's own text stays (its descendants' goes): hiding it too cost
        // WCXB's cross-fitted development pages .8263 → .8254 (1310, 0695: the gold's text sits
        // in such elements; `training/reports/main-text/by-type/`).
        hidden_below[id.index()] = hides_itself || (aria_hidden && !is_panel(element, &controlled));
        let on_screen = rendered.layout_box(id).is_some_and(|b| {
            b.width > 1.0 && b.height > 1.0 && b.x + b.width > 0.0 && b.y + b.height > 0.0
        }) && rendered.is_painted(id);
        visible[id.index()] = on_screen && !hides_itself && dom.is_visible_text_parent(id);
    }
    visible
}

/// A menu (`role=menu`, `listbox` or `menubar`, or GitHub's `<details-menu>`): inside a closed
/// `<details>` it is a drop-down — a language picker's 700 names, a branch selector — that no
/// reader sees until they open it, and that is never the page's text once they do. A closed
/// details' other content (a question's answer, a product's specifications) is one click away
/// and stays, as a closed panel's does ([`is_panel`]). Cross-fitted WCXB development pages:
/// GitHub's trending listing (2909) .34 → .78 (its language filter was 1,000 of the main
/// text's 1,400 words).
fn is_menu(element: &Element) -> bool {
    element.tag == "details-menu"
        || matches!(
            element.attribute("role").map(str::trim),
            Some("menu" | "listbox" | "menubar")
        )
}

/// Class names of the utility every CSS framework defines to keep a label for screen readers
/// off the screen (a 1 px clipped box): Bootstrap 3–4 and Tailwind `sr-only`, Bootstrap 5 and
/// Drupal `visually-hidden`, WordPress `screen-reader-text`, Foundation `show-for-sr`, … With
/// the site's stylesheet laid out, such a box is a sliver and its text is already unseen; saved
/// pages often come without their stylesheets, and then only the name tells ("Regular price",
/// "Vendor:", "Unit price / per" beside every card of a shop's grid). Whole names only: Drupal
/// marks a field whose *label* is hidden `field--label-visually_hidden`, and that field is the
/// article's body.
const SCREEN_READER_ONLY: &[&str] = &[
    "sr-only",
    "sronly",
    "sr_only",
    "sr-only-focusable",
    "visually-hidden",
    "visuallyhidden",
    "visually_hidden",
    "visually-hidden-focusable",
    "screen-reader-text",
    "screen-reader-only",
    "screenreader",
    "screenreader-only",
    "show-for-sr",
    "element-invisible",
    "assistive-text",
    "a11y-hidden",
    "hidden-visually",
];

/// Whether the element's classes name it screen-reader-only ([`SCREEN_READER_ONLY`]), unless
/// one of them undoes that (Tailwind's `md:not-sr-only`: shown from a breakpoint on, and the
/// layout's viewport is a desktop's).
fn is_screen_reader_only(element: &Element) -> bool {
    let Some(classes) = element.attribute("class") else {
        return false;
    };
    let mut named = false;
    for class in classes.split_ascii_whitespace() {
        let class = class.to_ascii_lowercase();
        if class.contains("not-sr-only") {
            return false;
        }
        named |= SCREEN_READER_ONLY.contains(&class.as_str());
    }
    named
}

/// The ids other elements name in `aria-controls`: what a button, a tab or a toggle opens.
fn controlled_ids(dom: &Dom) -> HashSet<&str> {
    dom.ids()
        .filter_map(|id| dom.element(id).attribute("aria-controls"))
        .flat_map(str::split_ascii_whitespace)
        .collect()
}

/// A disclosure or tab panel — a region (`role=region`, `role=tabpanel`) or what a control
/// names in `aria-controls` — marked `aria-hidden="true"` while it is closed: one click shows
/// it, and its text is the page's (a product's description in a tab, its shipping terms in an
/// accordion). Where the layout hides it too (no box, `visibility: hidden`), it stays unseen.
/// Cross-fitted WCXB development run: product .562 → .570, service .785 → .788, all .8175 →
/// .8183; no other labelled set's main text or template text moved.
fn is_panel(element: &Element, controlled: &HashSet<&str>) -> bool {
    matches!(element.attribute("role"), Some("region" | "tabpanel"))
        || element
            .attribute("id")
            .is_some_and(|id| controlled.contains(id))
}

/// Visible non-whitespace characters of each element's own text.
pub fn visible_text_chars(dom: &Dom, visible: &[bool]) -> Vec<usize> {
    let mut chars = vec![0; dom.len()];
    for text in &dom.texts {
        if visible[text.parent.index()] {
            chars[text.parent.index()] += text.text.chars().filter(|c| !c.is_whitespace()).count();
        }
    }
    chars
}

/// A run of visible text between block boundaries, in document order.
#[derive(Debug, Clone, PartialEq)]
pub struct Paragraph<'a> {
    /// The block-level element the paragraph sits in (the innermost one open at its start).
    pub block: NodeId,
    /// The text pieces, each with the element whose own text it is.
    pub pieces: Vec<(NodeId, &'a str)>,
    /// Each piece's index in [`Dom::texts`]: which text nodes the paragraph is made of.
    pub text_nodes: Vec<u32>,
}

impl Paragraph<'_> {
    /// The paragraph's text from the pieces `keep` accepts, whitespace collapsed.
    pub fn text_where(&self, keep: impl Fn(NodeId) -> bool) -> String {
        let joined: String = self
            .pieces
            .iter()
            .filter(|(parent, _)| keep(*parent))
            .map(|(_, text)| *text)
            .collect();
        joined.split_whitespace().collect::<Vec<_>>().join(" ")
    }
}

/// The visible text of the page as paragraphs, in document order; paragraphs with no visible
/// non-whitespace text are left out.
pub fn paragraphs<'a>(dom: &'a Dom, visible: &[bool]) -> Vec<Paragraph<'a>> {
    let mut paragraphs = Vec::new();
    let mut current = Paragraph {
        block: NodeId(0),
        pieces: Vec::new(),
        text_nodes: Vec::new(),
    };
    // The block-level elements open at this point of the walk.
    let mut open_blocks: Vec<NodeId> = Vec::new();
    let mut finish = |current: &mut Paragraph<'a>, next_block: NodeId| {
        let finished = std::mem::replace(
            current,
            Paragraph {
                block: next_block,
                pieces: Vec::new(),
                text_nodes: Vec::new(),
            },
        );
        if finished
            .pieces
            .iter()
            .any(|(_, text)| text.chars().any(|c| !c.is_whitespace()))
        {
            paragraphs.push(finished);
        }
    };
    for piece in walk(dom) {
        match piece {
            Piece::BlockStart(id) => {
                open_blocks.push(id);
                finish(&mut current, id);
            }
            Piece::BlockEnd(id) => {
                open_blocks.pop();
                let enclosing = open_blocks.last().copied().unwrap_or(id);
                finish(&mut current, enclosing);
            }
            Piece::Text(parent, index, text) => {
                if visible[parent.index()] {
                    current.pieces.push((parent, text));
                    current.text_nodes.push(index);
                }
            }
        }
    }
    finish(&mut current, NodeId(0));
    paragraphs
}

/// The visible text of elements not marked template, in document order, one paragraph per
/// block of text (a block-level element's start or end, or a `<br>`, ends a paragraph; a blank
/// line separates paragraphs), whitespace collapsed within paragraphs.
pub fn content_text(paragraphs: &[Paragraph], template: &[bool]) -> String {
    paragraphs
        .iter()
        .map(|paragraph| paragraph.text_where(|parent| !template[parent.index()]))
        .filter(|text| !text.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// What a document-order walk meets: text, or where a block-level element starts or ends.
enum Piece<'a> {
    /// Text of an element, with its index in [`Dom::texts`].
    Text(NodeId, u32, &'a str),
    BlockStart(NodeId),
    BlockEnd(NodeId),
}

/// Document-order walk (explicit stack) yielding text and block boundaries.
fn walk(dom: &Dom) -> Vec<Piece<'_>> {
    let mut pieces = Vec::new();
    if dom.is_empty() {
        return pieces;
    }
    // (element, index of its next child)
    let mut stack: Vec<(NodeId, usize)> = vec![(NodeId(0), 0)];
    while let Some((id, next)) = stack.pop() {
        let element = dom.element(id);
        let is_block = is_block_element(&element.tag);
        if next == 0 && is_block {
            pieces.push(Piece::BlockStart(id));
        }
        match element.children.get(next) {
            Some(Child::Element(child)) => {
                stack.push((id, next + 1));
                stack.push((*child, 0));
            }
            Some(Child::Text(index)) => {
                stack.push((id, next + 1));
                pieces.push(Piece::Text(id, *index, &dom.texts[*index as usize].text));
            }
            None => {
                if is_block {
                    pieces.push(Piece::BlockEnd(id));
                }
            }
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_between_links_are_no_words() {
        assert_eq!(count_words("Home | News · Sport , Weather"), 4);
        assert_eq!(count_words("It rose 3 m."), 4);
        assert_eq!(count_words(" — "), 0);
    }
}
