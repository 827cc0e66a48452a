//! Reading text off a rendered page: which text a person sees (text whose element has a layout
//! box), and the content text — the visible text of non-template elements — with a paragraph
//! break wherever a new block-level element begins.

use crate::page::{Child, Dom, NodeId};
use crate::render::RenderedPage;

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

/// Visible non-whitespace characters of each element's own text (0 without a layout box).
pub fn visible_text_chars(rendered: &RenderedPage) -> Vec<usize> {
    let dom = &rendered.page.dom;
    let mut chars = vec![0; dom.len()];
    for text in &dom.texts {
        if rendered.layout_box(text.parent).is_some() {
            chars[text.parent.index()] += text.text.chars().filter(|c| !c.is_whitespace()).count();
        }
    }
    chars
}

/// The visible text of elements not marked template, in document order, one paragraph per
/// block of text (a block-level element's start or end, or a `<br>`, ends a paragraph; a blank
/// line separates paragraphs), whitespace collapsed within paragraphs.
pub fn content_text(rendered: &RenderedPage, template: &[bool]) -> String {
    let dom = &rendered.page.dom;
    let mut paragraphs: Vec<String> = vec![String::new()];
    for piece in walk(dom) {
        match piece {
            Piece::Break => {
                if paragraphs.last().is_some_and(|p| !p.trim().is_empty()) {
                    paragraphs.push(String::new());
                }
            }
            Piece::Text(parent, text) => {
                if template[parent.index()] || rendered.layout_box(parent).is_none() {
                    continue;
                }
                if let Some(paragraph) = paragraphs.last_mut() {
                    paragraph.push_str(text);
                }
            }
        }
    }
    paragraphs
        .iter()
        .map(|paragraph| paragraph.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|paragraph| !paragraph.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// What a document-order walk meets: text, or a paragraph boundary.
enum Piece<'a> {
    Text(NodeId, &'a str),
    Break,
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
        let is_block = BLOCK_ELEMENTS.contains(&element.tag.as_str());
        if next == 0 && is_block {
            pieces.push(Piece::Break);
        }
        match element.children.get(next) {
            Some(Child::Element(child)) => {
                stack.push((id, next + 1));
                stack.push((*child, 0));
            }
            Some(Child::Text(index)) => {
                stack.push((id, next + 1));
                pieces.push(Piece::Text(id, &dom.texts[*index as usize].text));
            }
            None => {
                if is_block {
                    pieces.push(Piece::Break);
                }
            }
        }
    }
    pieces
}
