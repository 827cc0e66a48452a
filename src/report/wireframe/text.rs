//! The text of the wireframe: where each run of visible text is written and at what size.
//!
//! Boxes say where elements are, not where each line of their text is, so text is flowed anew:
//! a run of text between two blocks is written in the strip of its block between them, unless
//! the run is made only of inline elements with boxes of their own (a menu's links, a
//! headline's link), which then each hold their own text. The font is the browser default (a
//! heading's larger) at the picture's scale, shrunk until the text fits its box; every piece of
//! page text is escaped.

use std::fmt::Write as _;

use super::{Canvas, FRAMED, Roles, escape};
use crate::layout::{LaidOutPage, LayoutBox};
use crate::page::{Child, Dom, NodeId};

/// At most this many texts are drawn, in document order.
const MAX_TEXTS: usize = 4000;

/// Characters of one text gathered at most, before it is cut to what its box shows.
const MAX_TEXT_CHARS: usize = 4000;

/// The browser's default font size, CSS px.
const DEFAULT_FONT_PX: f64 = 16.0;

/// Average glyph width of the report's sans-serif font (DejaVu Sans, Chromium's default on
/// Debian, measured on English text), in ems, and the line height drawn, in ems.
const GLYPH_WIDTH_EM: f64 = 0.56;
const MONOSPACE_GLYPH_WIDTH_EM: f64 = 0.6;
const LINE_HEIGHT_EM: f64 = 1.2;

/// Smallest font drawn, report px: smaller cannot be read; text that does not fit is clipped.
pub(super) const MIN_FONT_PX: f64 = 7.0;

/// A run of text between two blocks is drawn in the strip between them only when the strip is
/// at least this high (CSS px); otherwise (blocks side by side) in the whole block.
const MIN_STRIP_HEIGHT: f64 = 8.0;

/// A run of text to draw in one box.
pub(super) struct Flow<'a> {
    area: LayoutBox,
    font_scale: f64,
    preformatted: bool,
    pieces: Vec<Piece<'a>>,
}

enum Piece<'a> {
    Text {
        text: &'a str,
        link: bool,
        bold: bool,
    },
    LineBreak,
}

/// Whether an inline element's box can hold its own text: big enough to write in.
fn usable_box(layout_box: Option<LayoutBox>) -> Option<LayoutBox> {
    layout_box.filter(|b| b.width > 1.0 && b.height > 1.0)
}

/// The runs of visible text and the box each is drawn in, in document order of their hosts;
/// and which elements hold a run of their own.
pub(super) fn text_flows<'a>(
    rendered: &'a LaidOutPage,
    roles: &Roles,
) -> (Vec<Flow<'a>>, Vec<bool>) {
    let dom = &rendered.page.dom;
    let mut flows = Vec::new();
    let mut hosts = vec![false; dom.len()];
    if dom.is_empty() {
        return (flows, hosts);
    }
    let page_box = LayoutBox {
        x: 0.0,
        y: 0.0,
        width: rendered.layout.page_width,
        height: rendered.layout.page_height,
    };
    // Elements whose children's text is to be placed, with the box it is placed in; an explicit
    // stack, as pages can nest thousands of levels deep.
    let root = NodeId(0);
    let mut pending = vec![(root, rendered.layout_box(root).unwrap_or(page_box))];
    while let Some((host, area)) = pending.pop() {
        if flows.len() >= MAX_TEXTS {
            break;
        }
        hosts[host.index()] = true;
        let mut placing = RunPlacement {
            rendered,
            roles,
            host,
            flows: &mut flows,
            inner_hosts: Vec::new(),
        };
        let mut run: Vec<Child> = Vec::new();
        let mut strip_top = None;
        for child in &dom.element(host).children {
            let Child::Element(element) = *child else {
                run.push(*child);
                continue;
            };
            if !roles.drawn[element.index()] {
                continue;
            }
            if !roles.block[element.index()] {
                run.push(*child);
                continue;
            }
            let element_box = rendered.layout_box(element);
            placing.place(
                &run,
                strip_between(area, strip_top, element_box.map(|b| b.y)),
            );
            run.clear();
            if let Some(element_box) = element_box {
                strip_top = Some(element_box.y + element_box.height);
            }
            if roles.has_text[element.index()] {
                placing
                    .inner_hosts
                    .push((element, element_box.unwrap_or(area)));
            }
        }
        placing.place(&run, strip_between(area, strip_top, None));
        pending.extend(placing.inner_hosts.into_iter().rev());
    }
    (flows, hosts)
}

/// The part of `area` between the bottom of the block before a run and the top of the block
/// after it, or all of `area` when blocks sit side by side.
fn strip_between(area: LayoutBox, top: Option<f64>, bottom: Option<f64>) -> LayoutBox {
    let area_bottom = area.y + area.height;
    let top = top
        .filter(|&top| top > area.y && top < area_bottom)
        .unwrap_or(area.y);
    let bottom = bottom
        .filter(|&bottom| bottom > top && bottom < area_bottom)
        .unwrap_or(area_bottom);
    if bottom - top < MIN_STRIP_HEIGHT {
        return area;
    }
    LayoutBox {
        y: top,
        height: bottom - top,
        ..area
    }
}

/// Where the runs of one host's children go: flows, or inline elements that hold their own.
struct RunPlacement<'p, 'a> {
    rendered: &'a LaidOutPage,
    roles: &'p Roles,
    host: NodeId,
    flows: &'p mut Vec<Flow<'a>>,
    /// The host's children that hold text of their own, in document order, with their boxes.
    inner_hosts: Vec<(NodeId, LayoutBox)>,
}

impl RunPlacement<'_, '_> {
    /// Places one run of the host's children (text and inline elements between two blocks):
    /// in `strip` as one flow, or, when the run is only inline elements with boxes of their
    /// own, each of them as a host of its own text.
    fn place(&mut self, run: &[Child], strip: LayoutBox) {
        let (dom, roles, host) = (&self.rendered.page.dom, self.roles, self.host);
        let loose_text = roles.visible_text[host.index()]
            && run.iter().any(|child| match child {
                Child::Text(index) => !dom.texts[*index as usize].text.trim().is_empty(),
                Child::Element(_) => false,
            });
        let with_text: Vec<NodeId> = run
            .iter()
            .filter_map(|child| match child {
                Child::Element(id) if roles.has_text[id.index()] => Some(*id),
                _ => None,
            })
            .collect();
        if !loose_text && with_text.is_empty() {
            return;
        }
        let own_boxes: Option<Vec<(NodeId, LayoutBox)>> = with_text
            .iter()
            .map(|&id| usable_box(self.rendered.layout_box(id)).map(|b| (id, b)))
            .collect();
        match (loose_text, own_boxes) {
            (false, Some(own_boxes)) => self.inner_hosts.extend(own_boxes),
            _ => self.flows.push(Flow {
                area: strip,
                font_scale: roles.font_scale[host.index()],
                preformatted: roles.preformatted[host.index()],
                pieces: run_pieces(dom, roles, host, run),
            }),
        }
    }
}

/// The text of a run in document order, each piece with its style, `<br>` as line breaks.
fn run_pieces<'a>(dom: &'a Dom, roles: &Roles, host: NodeId, run: &[Child]) -> Vec<Piece<'a>> {
    let mut pieces = Vec::new();
    let mut chars = 0;
    // (element whose children are walked, the child to look at next)
    let mut stack: Vec<(NodeId, &[Child])> = vec![(host, run)];
    while let Some((parent, children)) = stack.pop() {
        let Some((child, rest)) = children.split_first() else {
            continue;
        };
        stack.push((parent, rest));
        match *child {
            Child::Text(index) if roles.visible_text[parent.index()] => {
                let text = dom.texts[index as usize].text.as_str();
                chars += text.len();
                pieces.push(Piece::Text {
                    text,
                    link: roles.in_link[parent.index()],
                    bold: roles.bold[parent.index()],
                });
                if chars > MAX_TEXT_CHARS {
                    break;
                }
            }
            Child::Text(_) => {}
            Child::Element(id) if roles.drawn[id.index()] => {
                if dom.element(id).tag == "br" {
                    pieces.push(Piece::LineBreak);
                } else if !FRAMED.contains(&dom.element(id).tag.as_str()) {
                    stack.push((id, &dom.element(id).children));
                }
            }
            Child::Element(_) => {}
        }
    }
    pieces
}

/// Each flow as a `div` of text fitted to its box.
pub(super) fn draw_texts(html: &mut String, flows: &[Flow], canvas: &Canvas) {
    for flow in flows {
        let Some(place) = canvas.place(flow.area, 3.0) else {
            continue;
        };
        let extent = TextExtent::of(&flow.pieces, flow.preformatted);
        if extent.is_empty() {
            continue;
        }
        let preferred = DEFAULT_FONT_PX * flow.font_scale * canvas.scale;
        let font = extent.fitted_font(place.width, place.height, preferred);
        let shown_chars = match extent {
            // What the box shows at that size (its last line maybe in part), with room for
            // short lines; the rest is not written.
            TextExtent::Wrapping { .. } => {
                let lines = (place.height / (LINE_HEIGHT_EM * font)).ceil().max(1.0);
                (lines * place.width / (GLYPH_WIDTH_EM * font) * 1.3) as usize + 8
            }
            TextExtent::Lines { .. } => MAX_TEXT_CHARS,
        };
        let _ = write!(
            html,
            r#"<div class="{}" style="{place};font-size:{font:.1}px">"#,
            if flow.preformatted { "t pre" } else { "t" }
        );
        write_pieces(html, &flow.pieces, shown_chars, flow.preformatted);
        html.push_str("</div>");
    }
}

/// How much room a text needs.
pub(super) enum TextExtent {
    /// Text that wraps: its characters, whitespace collapsed.
    Wrapping { chars: usize },
    /// Text that keeps its line breaks (`<pre>`): its lines and the longest one's characters.
    Lines { lines: usize, longest: usize },
}

impl TextExtent {
    fn of(pieces: &[Piece], preformatted: bool) -> TextExtent {
        if !preformatted {
            let chars = pieces
                .iter()
                .map(|piece| match piece {
                    Piece::Text { text, .. } => text
                        .split_whitespace()
                        .map(|word| word.chars().count() + 1)
                        .sum(),
                    Piece::LineBreak => 1,
                })
                .sum();
            return TextExtent::Wrapping { chars };
        }
        let (mut lines, mut longest, mut current) = (1, 0, 0);
        for piece in pieces {
            let text = match piece {
                Piece::Text { text, .. } => *text,
                Piece::LineBreak => "\n",
            };
            for c in text.chars() {
                if c == '\n' {
                    lines += 1;
                    current = 0;
                } else {
                    current += 1;
                    longest = longest.max(current);
                }
            }
        }
        TextExtent::Lines { lines, longest }
    }

    fn is_empty(&self) -> bool {
        match *self {
            TextExtent::Wrapping { chars } => chars == 0,
            TextExtent::Lines { longest, .. } => longest == 0,
        }
    }

    /// The font size (report px) at which the text fits a `width` × `height` box: `preferred`
    /// when it fits, smaller until it does, never under [`MIN_FONT_PX`] (then it is clipped).
    pub(super) fn fitted_font(&self, width: f64, height: f64, preferred: f64) -> f64 {
        let mut font = preferred.min(height / LINE_HEIGHT_EM);
        match *self {
            TextExtent::Wrapping { chars } => {
                while font > MIN_FONT_PX {
                    let per_line = (width / (GLYPH_WIDTH_EM * font)).max(1.0);
                    // Wrapped lines end short of the box: count 15% more characters.
                    let needed = (chars as f64 * 1.15 / per_line).ceil();
                    if needed * LINE_HEIGHT_EM * font <= height {
                        break;
                    }
                    font *= 0.9;
                }
            }
            TextExtent::Lines { lines, longest } => {
                font = font
                    .min(height / (LINE_HEIGHT_EM * lines as f64))
                    .min(width / (MONOSPACE_GLYPH_WIDTH_EM * longest as f64));
            }
        }
        font.max(MIN_FONT_PX)
    }
}

/// The pieces as escaped HTML, whitespace collapsed unless `preformatted`, links in `<u>`, bold
/// text in `<b>`; at most `limit` characters.
fn write_pieces(html: &mut String, pieces: &[Piece], limit: usize, preformatted: bool) {
    let mut written = 0;
    let mut after_space = true;
    for piece in pieces {
        if written >= limit {
            html.push('…');
            return;
        }
        match piece {
            Piece::LineBreak => {
                html.push_str("<br>");
                after_space = true;
            }
            Piece::Text { text, link, bold } => {
                let mut collapsed = String::new();
                for word_or_space in split_keeping_spaces(text) {
                    let space = word_or_space.starts_with(char::is_whitespace);
                    if preformatted || !space {
                        collapsed.push_str(word_or_space);
                    } else if !after_space {
                        collapsed.push(' ');
                    }
                    after_space = space;
                }
                let remaining = limit - written;
                let cut: String = collapsed.chars().take(remaining).collect();
                written += cut.chars().count();
                if cut.is_empty() {
                    continue;
                }
                let (open, close) = match (link, bold) {
                    (true, true) => ("<b><u>", "</u></b>"),
                    (true, false) => ("<u>", "</u>"),
                    (false, true) => ("<b>", "</b>"),
                    (false, false) => ("", ""),
                };
                let _ = write!(html, "{open}{}{close}", escape(&cut));
            }
        }
    }
}

/// `text` as alternating runs of whitespace and of other characters.
fn split_keeping_spaces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let first = rest.chars().next()?;
        let space = first.is_whitespace();
        let end = rest
            .char_indices()
            .find(|(_, c)| c.is_whitespace() != space)
            .map_or(rest.len(), |(index, _)| index);
        let (run, after) = rest.split_at(end);
        rest = after;
        Some(run)
    })
}
