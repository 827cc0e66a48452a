//! The picture of a page drawn from its layout boxes, for a report without a screenshot (native
//! layout, a layout read from the cache or a snapshot): at the screenshot's scale and height,
//! every laid-out block outlined and lightly filled, images and form controls as frames (an
//! image's alt text in it), link boxes dashed blue, and the text a reader sees written in the
//! box it sits in — small, clipped, links blue and underlined — so a person can tell what is
//! where under the section outlines.
//! Where text goes is [`text`]'s job.
//!
//! Page text is hostile: every piece of it is escaped, and nothing from the page reaches a
//! `style` attribute but numbers. The drawing is bounded: at most a few thousand boxes, frames
//! and texts, each text cut to what its box can show.

#[cfg(test)]
mod tests;
mod text;

use std::fmt::Write as _;

use super::escape;
use crate::layout::{LaidOutPage, LayoutBox};
use crate::page::{Child, Dom, INLINE_ELEMENTS, NodeId};
use crate::text::text_visibility;
use text::{draw_texts, text_flows};

/// Elements drawn as a frame of their box: what they show is not text of the page.
const FRAMED: &[&str] = &[
    "img", "svg", "video", "audio", "canvas", "iframe", "embed", "object", "input", "textarea",
    "select", "progress", "meter",
];

/// Elements never drawn, nor anything inside them: a browser does not show them. `<noscript>`
/// is left to the layout, as in `text`: its content has boxes only where native layout showed
/// what the page's scripts would (`render::native::reveal`).
const NEVER_DRAWN: &[&str] = &["head", "script", "style", "template", "title"];

/// Elements whose text keeps its spaces and line breaks.
const PREFORMATTED: &[&str] = &["pre", "textarea", "listing", "xmp", "plaintext"];

/// A frame shows its element's tag (`video`, `iframe`) only when at least this wide (report px):
/// on icons it is clutter.
const MIN_TAG_LABEL_WIDTH: f64 = 40.0;

/// Elements whose text is bold by default (headings, table headers).
const BOLD: &[&str] = &["b", "strong", "h1", "h2", "h3", "h4", "h5", "h6", "th"];

/// At most this many of each kind are drawn, in document order (the rest of a huge page is left
/// blank): a page of 100 000 elements still gives a report of a few megabytes.
const MAX_BLOCKS: usize = 4000;
const MAX_FRAMES: usize = 1500;
const MAX_LINKS: usize = 1500;

/// Where the picture is drawn: the page's top `shown_height` CSS px at `scale`.
struct Canvas {
    scale: f64,
    shown_height: f64,
}

/// A box on the picture, report px.
struct Placed {
    left: f64,
    top: f64,
    width: f64,
    height: f64,
}

impl std::fmt::Display for Placed {
    /// As the declarations of a `style` attribute.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "left:{:.1}px;top:{:.1}px;width:{:.1}px;height:{:.1}px",
            self.left, self.top, self.width, self.height
        )
    }
}

impl Canvas {
    /// Where a box is drawn, cut at the shown height; `None` for boxes below it, off the page,
    /// or under `min_size` report px either way.
    fn place(&self, layout_box: LayoutBox, min_size: f64) -> Option<Placed> {
        let LayoutBox {
            x,
            y,
            width,
            height,
        } = layout_box;
        let finite = [x, y, width, height].iter().all(|n| n.is_finite());
        if !finite || y >= self.shown_height || x + width <= 0.0 || y + height <= 0.0 {
            return None;
        }
        let placed = Placed {
            left: x * self.scale,
            top: y * self.scale,
            width: width * self.scale,
            height: height.min(self.shown_height - y) * self.scale,
        };
        (placed.width >= min_size && placed.height >= min_size).then_some(placed)
    }
}

/// What each element is to the drawing, from one pass down and one pass up the tree.
struct Roles {
    /// Drawn at all: outside `NEVER_DRAWN` subtrees and the content of framed elements.
    drawn: Vec<bool>,
    /// Lays out as a block holding lines (not inline, and no inline element around blocks).
    block: Vec<bool>,
    /// Holds visible text somewhere in its subtree.
    has_text: Vec<bool>,
    /// Inside a link (`<a href>`).
    in_link: Vec<bool>,
    /// Inside a bold element or heading.
    bold: Vec<bool>,
    /// Inside an element that keeps spaces and line breaks (`<pre>`).
    preformatted: Vec<bool>,
    /// Font size relative to the default: a heading's, or its heading ancestor's.
    font_scale: Vec<f64>,
    /// Whether the element's own text is seen ([`text_visibility`]).
    visible_text: Vec<bool>,
}

fn heading_font_scale(tag: &str) -> Option<f64> {
    // The HTML standard's default sizes of h1 … h6.
    Some(match tag {
        "h1" => 2.0,
        "h2" => 1.5,
        "h3" => 1.17,
        "h4" => 1.0,
        "h5" => 0.83,
        "h6" => 0.67,
        _ => return None,
    })
}

impl Roles {
    fn of(rendered: &LaidOutPage) -> Roles {
        let dom = &rendered.page.dom;
        let visible_text = text_visibility(rendered);
        let in_link = dom.within_links();
        let bold = dom.within(|element| BOLD.contains(&element.tag.as_str()));
        let preformatted = dom.within(|element| PREFORMATTED.contains(&element.tag.as_str()));
        let mut drawn = vec![false; dom.len()];
        let mut font_scale = vec![1.0; dom.len()];
        for id in dom.ids() {
            let element = dom.element(id);
            let tag = element.tag.as_str();
            let parent_holds_drawing = element.parent.is_none_or(|parent| {
                drawn[parent.index()] && !FRAMED.contains(&dom.element(parent).tag.as_str())
            });
            drawn[id.index()] = parent_holds_drawing && !NEVER_DRAWN.contains(&tag);
            font_scale[id.index()] = heading_font_scale(tag).unwrap_or_else(|| {
                element
                    .parent
                    .map_or(1.0, |parent| font_scale[parent.index()])
            });
        }
        // Children come after their parents, so one reverse pass sums subtrees.
        let mut has_text = vec![false; dom.len()];
        let mut holds_block = vec![false; dom.len()];
        let mut block = vec![false; dom.len()];
        for id in dom.ids().rev() {
            let index = id.index();
            if !drawn[index] {
                continue;
            }
            let element = dom.element(id);
            let tag = element.tag.as_str();
            let inline = INLINE_ELEMENTS.contains(&tag) || FRAMED.contains(&tag) || tag == "br";
            block[index] = !inline || holds_block[index];
            has_text[index] |= visible_text[index] && has_own_words(dom, id);
            if let Some(parent) = element.parent {
                has_text[parent.index()] |= has_text[index];
                holds_block[parent.index()] |= block[index];
            }
        }
        Roles {
            drawn,
            block,
            has_text,
            in_link,
            bold,
            preformatted,
            font_scale,
            visible_text,
        }
    }
}

fn has_own_words(dom: &Dom, id: NodeId) -> bool {
    dom.element(id).children.iter().any(|child| match child {
        Child::Text(index) => !dom.texts[*index as usize].text.trim().is_empty(),
        Child::Element(_) => false,
    })
}

/// Draws `rendered` as a wireframe of its top `shown_height` CSS px at `scale`: the HTML of a
/// `div` (class `wireframe`) whose absolutely placed children are the drawing.
pub(super) fn wireframe(rendered: &LaidOutPage, shown_height: f64, scale: f64) -> String {
    let canvas = Canvas {
        scale,
        shown_height,
    };
    let roles = Roles::of(rendered);
    let (flows, text_hosts) = text_flows(rendered, &roles);
    let mut html = format!(
        r#"<div class="wireframe" style="height:{:.0}px">"#,
        shown_height * scale
    );
    draw_blocks(&mut html, rendered, &roles, &canvas);
    draw_texts(&mut html, &flows, &canvas);
    draw_frames(&mut html, rendered, &roles, &canvas);
    draw_links(&mut html, rendered, &roles, &text_hosts, &canvas);
    html.push_str("</div>");
    html
}

/// Blocks outlined and lightly filled (nested blocks look darker); a block with the same box
/// as its parent is not drawn again.
fn draw_blocks(html: &mut String, rendered: &LaidOutPage, roles: &Roles, canvas: &Canvas) {
    let dom = &rendered.page.dom;
    let mut drawn = 0;
    for id in dom.ids() {
        let element = dom.element(id);
        if drawn == MAX_BLOCKS {
            break;
        }
        if !roles.drawn[id.index()]
            || !roles.block[id.index()]
            || matches!(element.tag.as_str(), "html" | "body")
            || !rendered.is_painted(id)
        {
            continue;
        }
        let Some(layout_box) = rendered.layout_box(id) else {
            continue;
        };
        let parent_box = element
            .parent
            .and_then(|parent| rendered.layout_box(parent));
        if parent_box.is_some_and(|parent| same_box(parent, layout_box)) {
            continue;
        }
        if let Some(place) = canvas.place(layout_box, 2.0) {
            let _ = write!(html, r#"<div class="b" style="{place}"></div>"#);
            drawn += 1;
        }
    }
}

fn same_box(a: LayoutBox, b: LayoutBox) -> bool {
    (a.x - b.x).abs() < 0.5
        && (a.y - b.y).abs() < 0.5
        && (a.width - b.width).abs() < 0.5
        && (a.height - b.height).abs() < 0.5
}

/// Images, media and form controls as frames: an image's alt text, a control's value or
/// placeholder written in it; blue when inside a link.
fn draw_frames(html: &mut String, rendered: &LaidOutPage, roles: &Roles, canvas: &Canvas) {
    let dom = &rendered.page.dom;
    let mut drawn = 0;
    for id in dom.ids() {
        let element = dom.element(id);
        let tag = element.tag.as_str();
        if drawn == MAX_FRAMES {
            break;
        }
        if !roles.drawn[id.index()] || !FRAMED.contains(&tag) || !rendered.is_painted(id) {
            continue;
        }
        let Some(place) = rendered
            .layout_box(id)
            .and_then(|layout_box| canvas.place(layout_box, 2.0))
        else {
            continue;
        };
        let wide = place.width >= MIN_TAG_LABEL_WIDTH;
        let control = matches!(tag, "input" | "textarea" | "select");
        let label = match tag {
            "img" => element.attribute("alt").unwrap_or_default().to_string(),
            "input" => element
                .attribute("value")
                .filter(|value| !value.is_empty())
                .or(element.attribute("placeholder"))
                .unwrap_or_default()
                .to_string(),
            "textarea" => element
                .attribute("placeholder")
                .map(str::to_string)
                .unwrap_or_else(|| dom.own_text(id)),
            "select" => dom.text(id),
            _ if wide => tag.to_string(),
            _ => String::new(),
        };
        let label: String = label.split_whitespace().collect::<Vec<_>>().join(" ");
        let label: String = label.chars().take(200).collect();
        let class = match (control, roles.in_link[id.index()]) {
            (true, _) => "c",
            (false, true) => "f l",
            (false, false) => "f",
        };
        let _ = write!(
            html,
            r#"<div class="{class}" style="{place}" title="&lt;{tag}&gt; {label}">{label}</div>"#,
            tag = escape(tag),
            label = escape(&label),
        );
        drawn += 1;
    }
}

/// Dashed blue boxes of the links that hold their own text or hold no text (an image link); the
/// links inside a run of text are drawn blue within it instead.
fn draw_links(
    html: &mut String,
    rendered: &LaidOutPage,
    roles: &Roles,
    text_hosts: &[bool],
    canvas: &Canvas,
) {
    let dom = &rendered.page.dom;
    let mut drawn = 0;
    for id in dom.ids() {
        if drawn == MAX_LINKS {
            break;
        }
        let element = dom.element(id);
        let is_link = element.tag == "a" && element.attribute("href").is_some();
        // A link inside a run of text is drawn within it.
        let in_a_run = roles.has_text[id.index()] && !text_hosts[id.index()];
        if !is_link || !roles.drawn[id.index()] || in_a_run {
            continue;
        }
        if let Some(place) = rendered
            .layout_box(id)
            .and_then(|layout_box| canvas.place(layout_box, 3.0))
        {
            let _ = write!(html, r#"<div class="ln" style="{place}"></div>"#);
            drawn += 1;
        }
    }
}
