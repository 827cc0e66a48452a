//! Serializing the arena back to HTML, optionally tagging every element with its [`NodeId`] so
//! the browser's boxes can be joined to our DOM by id instead of by walk order (which breaks as
//! soon as the parser's repairs or a script change the tree).
//!
//! The walk is shared: [`write_markup`] hands the copy's tags and text, in document order, to
//! any [`MarkupSink`]. [`serialize`] writes them as HTML for Chromium; native layout hands them
//! to the HTML tree builder as tokens, the same copy without writing and re-reading it.

use std::fmt::Write;

use super::dom::{Child, Dom, Element, NodeId, RAW_TEXT_ELEMENTS, VOID_ELEMENTS};

/// What to add while serializing.
#[derive(Debug, Clone, Default)]
pub struct SerializeOptions<'a> {
    /// When set, every element gets this attribute with its NodeId as value, and
    /// `<meta http-equiv=refresh>` loses its `http-equiv` (the copy is for measuring this page,
    /// not for following redirects).
    pub node_id_attribute: Option<&'a str>,
    /// When set, a `<base href>` with this URL is inserted first in `<head>` (unless the page has
    /// its own `<base>`), so relative links resolve where the page was saved.
    pub base_href: Option<&'a str>,
}

/// Receives a DOM copy's markup in document order from [`write_markup`]: each element's start
/// tag, its text and children, and its end tag (none for void elements).
pub trait MarkupSink {
    /// A start tag: the element's lower-case `tag`, its `attributes` (the page's own, less the
    /// ones the options drop) and, when the copy is tagged, the id to add as `attribute`.
    fn start_tag<'a>(
        &mut self,
        tag: &str,
        attributes: impl Iterator<Item = (&'a str, &'a str)>,
        tagged: Option<(&str, NodeId)>,
    );
    /// Text; `raw` inside elements whose text is not escaped (`<script>`, `<style>`…).
    fn text(&mut self, text: &str, raw: bool);
    /// An end tag.
    fn end_tag(&mut self, tag: &str);
}

/// Serializes the DOM as an HTML document (`<!DOCTYPE html>` first: standards mode).
pub fn serialize(dom: &Dom, options: &SerializeOptions) -> String {
    let mut html = HtmlWriter(String::with_capacity(
        dom.elements.first().map_or(0, |e| e.html_bytes as usize) + 64,
    ));
    html.0.push_str("<!DOCTYPE html>");
    write_markup(dom, options, &mut html);
    html.0
}

/// Hands the DOM's markup to `sink` in document order, as [`serialize`] writes it (after the
/// doctype): with `options`' id attributes and `<base>`, without a tagged copy's refresh.
pub fn write_markup(dom: &Dom, options: &SerializeOptions, sink: &mut impl MarkupSink) {
    if dom.is_empty() {
        return;
    }
    let inject_base = options
        .base_href
        .filter(|_| dom.first_with_tag("base").is_none());
    // Explicit stack of (element, index of next child to write).
    let mut stack: Vec<(NodeId, usize)> = vec![(NodeId(0), 0)];
    start_tag(sink, dom, NodeId(0), options);
    while let Some((id, next_child)) = stack.pop() {
        let element = dom.element(id);
        if next_child == 0
            && element.tag == "head"
            && let Some(base) = inject_base
        {
            sink.start_tag("base", std::iter::once(("href", base)), None);
        }
        match element.children.get(next_child) {
            Some(Child::Element(child)) => {
                stack.push((id, next_child + 1));
                start_tag(sink, dom, *child, options);
                stack.push((*child, 0));
            }
            Some(Child::Text(text)) => {
                stack.push((id, next_child + 1));
                let raw = RAW_TEXT_ELEMENTS.contains(&element.tag.as_str());
                sink.text(&dom.texts[*text as usize].text, raw);
            }
            None => {
                if !VOID_ELEMENTS.contains(&element.tag.as_str()) {
                    sink.end_tag(&element.tag);
                }
            }
        }
    }
}

fn start_tag(sink: &mut impl MarkupSink, dom: &Dom, id: NodeId, options: &SerializeOptions) {
    let element = dom.element(id);
    let attributes = element
        .attributes
        .iter()
        .filter(|(name, value)| kept_attribute(element, name, value, options))
        .map(|(name, value)| (name.as_str(), value.as_str()));
    let tagged = options.node_id_attribute.map(|attribute| (attribute, id));
    sink.start_tag(&element.tag, attributes, tagged);
}

/// False for the page's own id attribute (the copy's replaces it) and, in a tagged copy, a
/// `<meta http-equiv=refresh>`, which would navigate away from the page being measured.
fn kept_attribute(element: &Element, name: &str, value: &str, options: &SerializeOptions) -> bool {
    if Some(name) == options.node_id_attribute {
        return false;
    }
    let is_refresh = element.tag == "meta"
        && name == "http-equiv"
        && value.trim().eq_ignore_ascii_case("refresh");
    !(is_refresh && options.node_id_attribute.is_some())
}

/// Writes the markup as HTML.
struct HtmlWriter(String);

impl MarkupSink for HtmlWriter {
    fn start_tag<'a>(
        &mut self,
        tag: &str,
        attributes: impl Iterator<Item = (&'a str, &'a str)>,
        tagged: Option<(&str, NodeId)>,
    ) {
        let html = &mut self.0;
        html.push('<');
        html.push_str(tag);
        for (name, value) in attributes {
            let _ = write!(html, " {name}=\"");
            escape_into(html, value, true);
            html.push('"');
        }
        if let Some((attribute, id)) = tagged {
            let _ = write!(html, " {attribute}=\"{}\"", id.0);
        }
        html.push('>');
    }

    fn text(&mut self, text: &str, raw: bool) {
        if raw {
            self.0.push_str(text);
        } else {
            escape_into(&mut self.0, text, false);
        }
    }

    fn end_tag(&mut self, tag: &str) {
        let _ = write!(self.0, "</{tag}>");
    }
}

/// Escapes text or an attribute value as the HTML standard's serialization algorithm does.
fn escape_into(html: &mut String, text: &str, in_attribute: bool) {
    for character in text.chars() {
        match character {
            '&' => html.push_str("&amp;"),
            '\u{a0}' => html.push_str("&nbsp;"),
            '"' if in_attribute => html.push_str("&quot;"),
            '<' if !in_attribute => html.push_str("&lt;"),
            '>' if !in_attribute => html.push_str("&gt;"),
            _ => html.push(character),
        }
    }
}
