//! Serializing the arena back to HTML, optionally tagging every element with its [`NodeId`] so
//! the browser's boxes can be joined to our DOM by id instead of by walk order (which breaks as
//! soon as the parser's repairs or a script change the tree).

use std::fmt::Write;

use super::dom::{Child, Dom, NodeId, RAW_TEXT_ELEMENTS, VOID_ELEMENTS};

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

/// Serializes the DOM as an HTML document (`<!DOCTYPE html>` first: standards mode).
pub fn serialize(dom: &Dom, options: &SerializeOptions) -> String {
    let mut html =
        String::with_capacity(dom.elements.first().map_or(0, |e| e.html_bytes as usize) + 64);
    html.push_str("<!DOCTYPE html>");
    if dom.is_empty() {
        return html;
    }
    let inject_base = options
        .base_href
        .filter(|_| dom.first_with_tag("base").is_none());
    // Explicit stack of (element, index of next child to write).
    let mut stack: Vec<(NodeId, usize)> = vec![(NodeId(0), 0)];
    open_tag(&mut html, dom, NodeId(0), options);
    while let Some((id, next_child)) = stack.pop() {
        let element = dom.element(id);
        if next_child == 0
            && element.tag == "head"
            && let Some(base) = inject_base
        {
            html.push_str("<base href=\"");
            escape_into(&mut html, base, true);
            html.push_str("\">");
        }
        match element.children.get(next_child) {
            Some(Child::Element(child)) => {
                stack.push((id, next_child + 1));
                open_tag(&mut html, dom, *child, options);
                stack.push((*child, 0));
            }
            Some(Child::Text(text)) => {
                stack.push((id, next_child + 1));
                let text = &dom.texts[*text as usize].text;
                if RAW_TEXT_ELEMENTS.contains(&element.tag.as_str()) {
                    html.push_str(text);
                } else {
                    escape_into(&mut html, text, false);
                }
            }
            None => {
                if !VOID_ELEMENTS.contains(&element.tag.as_str()) {
                    let _ = write!(html, "</{}>", element.tag);
                }
            }
        }
    }
    html
}

fn open_tag(html: &mut String, dom: &Dom, id: NodeId, options: &SerializeOptions) {
    let element = dom.element(id);
    html.push('<');
    html.push_str(&element.tag);
    for (name, value) in &element.attributes {
        if Some(name.as_str()) == options.node_id_attribute {
            continue;
        }
        // A `<meta http-equiv=refresh>` would navigate away from the page being measured.
        let is_refresh = element.tag == "meta"
            && name == "http-equiv"
            && value.trim().eq_ignore_ascii_case("refresh");
        if is_refresh && options.node_id_attribute.is_some() {
            continue;
        }
        let _ = write!(html, " {name}=\"");
        escape_into(html, value, true);
        html.push('"');
    }
    if let Some(attribute) = options.node_id_attribute {
        let _ = write!(html, " {attribute}=\"{}\"", id.0);
    }
    html.push('>');
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
