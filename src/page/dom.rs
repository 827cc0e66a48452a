//! The arena DOM: elements in document order, indexed by [`NodeId`], with parent and child index
//! arrays instead of pointers. Document order makes every subtree a contiguous id range
//! (`id..subtree_end`), so bottom-up sums are one reverse pass and no walk needs recursion —
//! pages can be tens of thousands of elements and thousands of levels deep.

use serde::{Deserialize, Serialize};

use super::sink::{DOCUMENT, Handle, RawData, RawNode};

/// An element's index in document order; the `<html>` element is `NodeId(0)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The position of this element in document order.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A child of an element, in source order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Child {
    /// A child element.
    Element(NodeId),
    /// Index into [`Dom::texts`].
    Text(u32),
}

/// One element of the page.
#[derive(Debug, Clone)]
pub struct Element {
    /// Lower-case local name (`div`, `a`, `svg`).
    pub tag: String,
    /// The parent element; `None` for the root `<html>`.
    pub parent: Option<NodeId>,
    /// Number of element ancestors (`<html>` has depth 0).
    pub depth: u32,
    /// Attributes in source order, names lower-case (`xlink:href` keeps its prefix).
    pub attributes: Vec<(String, String)>,
    /// Child elements and text nodes, interleaved in source order.
    pub children: Vec<Child>,
    /// One past the last descendant's id: the subtree is `id..subtree_end`.
    pub subtree_end: NodeId,
    /// For `<a href>` and `<area href>`: the target, resolved against `<base href>` or the page URL.
    pub link: Option<String>,
    /// Length in bytes of this element's serialized HTML (the page's own attributes and text).
    pub html_bytes: u64,
}

impl Element {
    /// The value of an attribute, if present.
    pub fn attribute(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(attribute, _)| attribute == name)
            .map(|(_, value)| value.as_str())
    }

    /// Whether the element is a `<details>` without `open`: only its summary is shown.
    pub fn is_closed_details(&self) -> bool {
        self.tag == "details" && self.attribute("open").is_none()
    }

    /// Whether the element is a `<link rel=stylesheet>` (`alternate stylesheet` included).
    pub fn is_stylesheet_link(&self) -> bool {
        self.tag == "link"
            && self.attribute("rel").is_some_and(|rel| {
                rel.split_ascii_whitespace()
                    .any(|token| token.eq_ignore_ascii_case("stylesheet"))
            })
    }
}

/// A text node: its parent element and its characters as written (entities decoded).
#[derive(Debug, Clone)]
pub struct TextNode {
    /// The element the text sits directly in.
    pub parent: NodeId,
    /// The characters, entities decoded, whitespace as in the source.
    pub text: String,
}

/// A parsed page's element tree.
#[derive(Debug, Clone)]
pub struct Dom {
    /// Every element in document order, indexed by [`NodeId::index`].
    pub elements: Vec<Element>,
    /// Text nodes in document order.
    pub texts: Vec<TextNode>,
}

/// Elements that never have an end tag or children (HTML standard, "void elements").
pub(crate) const VOID_ELEMENTS: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr", "param", "keygen", "frame",
];

/// Phrasing elements: their text continues the surrounding block's text.
pub(crate) const INLINE_ELEMENTS: &[&str] = &[
    "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "dfn", "em", "font", "i", "kbd",
    "label", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time", "tt", "u",
    "var",
];

/// Elements whose text is serialized without escaping.
pub(crate) const RAW_TEXT_ELEMENTS: &[&str] = &[
    "script",
    "style",
    "xmp",
    "iframe",
    "noembed",
    "noframes",
    "plaintext",
];

impl Dom {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    /// True for a DOM without elements (never produced by parsing, which always adds `<html>`).
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// The element with this id.
    pub fn element(&self, id: NodeId) -> &Element {
        &self.elements[id.index()]
    }

    /// All element ids in document order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator + use<> {
        (0..self.elements.len() as u32).map(NodeId)
    }

    /// The element and all its descendants, in document order.
    pub fn subtree(&self, id: NodeId) -> impl Iterator<Item = NodeId> + use<> {
        (id.0..self.element(id).subtree_end.0).map(NodeId)
    }

    /// The element children of an element, in order.
    pub fn element_children(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        self.element(id)
            .children
            .iter()
            .filter_map(|child| match child {
                Child::Element(child) => Some(*child),
                Child::Text(_) => None,
            })
    }

    /// True when `ancestor` is `node` or one of its ancestors.
    pub fn contains(&self, ancestor: NodeId, node: NodeId) -> bool {
        ancestor <= node && node < self.element(ancestor).subtree_end
    }

    /// Whether each element is, or is inside, an element `matches` accepts (one pass: parents
    /// come before their children).
    pub fn within(&self, matches: impl Fn(&Element) -> bool) -> Vec<bool> {
        let mut within = vec![false; self.len()];
        for id in self.ids() {
            let element = self.element(id);
            within[id.index()] =
                matches(element) || element.parent.is_some_and(|parent| within[parent.index()]);
        }
        within
    }

    /// Whether each element is, or is inside, a link (`<a href>`).
    pub fn within_links(&self) -> Vec<bool> {
        self.within(|element| element.tag == "a" && element.attribute("href").is_some())
    }

    /// The first element with this tag, in document order.
    pub fn first_with_tag(&self, tag: &str) -> Option<NodeId> {
        self.ids().find(|&id| self.element(id).tag == tag)
    }

    /// Text of the element's own text children, joined, whitespace collapsed.
    pub fn own_text(&self, id: NodeId) -> String {
        let mut text = String::new();
        for child in &self.element(id).children {
            if let Child::Text(index) = child {
                text.push_str(&self.texts[*index as usize].text);
                text.push(' ');
            }
        }
        collapse_whitespace(&text)
    }

    /// All text inside the element, in document order, whitespace collapsed. Text of `<script>`,
    /// `<style>`, `<noscript>` and `<template>` is left out: a reader never sees it. Texts in
    /// different blocks are separated by a space (`<p>a</p><p>b</p>` reads "a b"); texts in one
    /// block run together as written (`wo<b>rd</b>` reads "word").
    pub fn text(&self, id: NodeId) -> String {
        let range = id..self.element(id).subtree_end;
        let mut text = String::new();
        let mut previous_block = None;
        for node in &self.texts {
            if range.contains(&node.parent) && self.is_visible_text_parent(node.parent) {
                let block = self.nearest_block(node.parent);
                if previous_block.is_some_and(|previous| previous != block) {
                    text.push(' ');
                }
                previous_block = Some(block);
                text.push_str(&node.text);
            }
        }
        collapse_whitespace(&text)
    }

    /// The nearest ancestor of `id` (not `id` itself) whose tag is `tag`.
    pub fn nearest_ancestor(&self, id: NodeId, tag: &str) -> Option<NodeId> {
        let mut current = self.element(id).parent;
        while let Some(ancestor) = current {
            if self.element(ancestor).tag == tag {
                return Some(ancestor);
            }
            current = self.element(ancestor).parent;
        }
        None
    }

    /// The nearest ancestor-or-self that is not an inline element.
    fn nearest_block(&self, id: NodeId) -> NodeId {
        let mut current = id;
        while INLINE_ELEMENTS.contains(&self.element(current).tag.as_str()) {
            match self.element(current).parent {
                Some(parent) => current = parent,
                None => break,
            }
        }
        current
    }

    /// False for elements whose text is code or styling, never read by a person (an
    /// `<iframe>`'s text children are fallback markup a browser never shows).
    pub fn is_visible_text_parent(&self, id: NodeId) -> bool {
        !matches!(
            self.element(id).tag.as_str(),
            "script" | "style" | "noscript" | "template" | "head" | "title" | "iframe"
        )
    }

    /// An XPath that selects this element alone, like `/html[1]/body[1]/div[3]`.
    pub fn xpath(&self, id: NodeId) -> String {
        let mut steps = Vec::new();
        let mut current = Some(id);
        while let Some(node) = current {
            let element = self.element(node);
            let position = match element.parent {
                Some(parent) => {
                    self.element_children(parent)
                        .take_while(|&sibling| sibling != node)
                        .filter(|&sibling| self.element(sibling).tag == element.tag)
                        .count()
                        + 1
                }
                None => 1,
            };
            steps.push(format!("{}[{}]", element.tag, position));
            current = element.parent;
        }
        steps.reverse();
        format!("/{}", steps.join("/"))
    }

    /// The XPath of every element, built top-down in one pass (same as [`Dom::xpath`] per id).
    pub fn xpaths(&self) -> Vec<String> {
        let mut paths: Vec<String> = Vec::with_capacity(self.len());
        let mut position = vec![1u32; self.len()];
        for id in self.ids() {
            let mut seen: Vec<(&str, u32)> = Vec::new();
            for child in self.element_children(id) {
                let tag = self.element(child).tag.as_str();
                let count = match seen.iter_mut().find(|(t, _)| *t == tag) {
                    Some((_, count)) => {
                        *count += 1;
                        *count
                    }
                    None => {
                        seen.push((tag, 1));
                        1
                    }
                };
                position[child.index()] = count;
            }
        }
        for id in self.ids() {
            let element = self.element(id);
            let step = format!("{}[{}]", element.tag, position[id.index()]);
            let path = match element.parent {
                Some(parent) => format!("{}/{step}", paths[parent.index()]),
                None => format!("/{step}"),
            };
            paths.push(path);
        }
        paths
    }

    /// Builds the arena from the sink's linked nodes by an explicit-stack preorder walk from the
    /// document's element child. `<template>` contents are inert and left out.
    pub(crate) fn from_raw(raw: &[RawNode]) -> Dom {
        let mut dom = Dom {
            elements: Vec::new(),
            texts: Vec::new(),
        };
        let Some(root) = first_element_child(raw, DOCUMENT) else {
            return dom;
        };
        // Each stack entry: the raw node and its parent's NodeId.
        let mut stack: Vec<(Handle, Option<NodeId>)> = vec![(root, None)];
        let mut open: Vec<NodeId> = Vec::new();
        while let Some((handle, parent)) = stack.pop() {
            // Close the elements whose subtrees ended before this node.
            while let Some(&top) = open.last() {
                if Some(top) == parent {
                    break;
                }
                dom.elements[top.index()].subtree_end = NodeId(dom.elements.len() as u32);
                open.pop();
            }
            match &raw[handle].data {
                RawData::Element { name, attrs, .. } => {
                    let id = NodeId(dom.elements.len() as u32);
                    let depth = parent.map_or(0, |parent| dom.element(parent).depth + 1);
                    dom.elements.push(Element {
                        tag: name.local.to_ascii_lowercase().to_string(),
                        parent,
                        depth,
                        attributes: attrs
                            .iter()
                            .map(|attribute| {
                                let local = attribute.name.local.to_string();
                                let name = match &attribute.name.prefix {
                                    Some(prefix) => format!("{prefix}:{local}"),
                                    None => local,
                                };
                                (name, attribute.value.to_string())
                            })
                            .collect(),
                        children: Vec::new(),
                        subtree_end: NodeId(id.0 + 1),
                        link: None,
                        html_bytes: 0,
                    });
                    if let Some(parent) = parent {
                        dom.elements[parent.index()]
                            .children
                            .push(Child::Element(id));
                    }
                    open.push(id);
                    let children: Vec<Handle> = children_of(raw, handle).collect();
                    for child in children.into_iter().rev() {
                        stack.push((child, Some(id)));
                    }
                }
                RawData::Text(text) => {
                    if let Some(parent) = parent {
                        let index = dom.texts.len() as u32;
                        dom.texts.push(TextNode {
                            parent,
                            text: text.to_string(),
                        });
                        dom.elements[parent.index()]
                            .children
                            .push(Child::Text(index));
                    }
                }
                RawData::Document | RawData::Other => {}
            }
        }
        let end = NodeId(dom.elements.len() as u32);
        for id in open {
            dom.elements[id.index()].subtree_end = end;
        }
        dom.compute_html_bytes();
        dom
    }

    /// Serialized size per element, summed bottom-up in one reverse pass (children have larger
    /// ids than their parents).
    fn compute_html_bytes(&mut self) {
        for index in (0..self.elements.len()).rev() {
            let element = &self.elements[index];
            let mut bytes = 2 + element.tag.len() as u64; // "<tag>"
            for (name, value) in &element.attributes {
                bytes += name.len() as u64 + value.len() as u64 + 4; // ` name="value"`
            }
            if !VOID_ELEMENTS.contains(&element.tag.as_str()) {
                bytes += 3 + element.tag.len() as u64; // "</tag>"
            }
            for child in &element.children {
                bytes += match child {
                    Child::Element(child) => self.elements[child.index()].html_bytes,
                    Child::Text(text) => self.texts[*text as usize].text.len() as u64,
                };
            }
            self.elements[index].html_bytes = bytes;
        }
    }
}

fn children_of(raw: &[RawNode], parent: Handle) -> impl Iterator<Item = Handle> + '_ {
    std::iter::successors(raw[parent].first_child, |&child| raw[child].next_sibling)
}

fn first_element_child(raw: &[RawNode], parent: Handle) -> Option<Handle> {
    children_of(raw, parent).find(|&child| matches!(raw[child].data, RawData::Element { .. }))
}

/// Whether an inline `style` attribute's value hides its element (`display: none`): an SVG
/// element so hidden draws nothing, a server-rendered block so hidden waits for a script.
pub fn inline_style_hides(style: &str) -> bool {
    style
        .split(';')
        .filter_map(|declaration| declaration.split_once(':'))
        .any(|(property, value)| {
            property.trim().eq_ignore_ascii_case("display")
                && value.trim().eq_ignore_ascii_case("none")
        })
}

/// Collapses runs of whitespace to one space and trims the ends, as rendered text reads.
pub fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
