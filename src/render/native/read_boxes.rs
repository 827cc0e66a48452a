//! Reading Blitz's laid-out tree as Chromium's boxes: every box Blitz built, the inline
//! elements Parley flattened into their inline root's text (as tall as their font, not their
//! line), `<br>`s (`line_breaks`), table rows and row groups, and the document's scroll size.

use std::collections::HashMap;

use blitz_dom::{BaseDocument, LocalName, Node};
use blitz_traits::node_id::NodeId as BlitzNodeId;
use parley::{InlineBoxKind, PositionedLayoutItem};
use style::computed_values::visibility::T as Visibility;

use super::line_breaks::{TextOrigin, is_segment_break, line_break_boxes};
use crate::layout::{Layout, LayoutBox, Viewport};
use crate::page::{Dom, NodeId};
use crate::render::NODE_ID_ATTRIBUTE;

/// Walks the laid-out tree once: every box Blitz built, plus the inline elements Parley
/// flattened into their inline root's text (they have no box of their own). Walking the layout
/// tree, not the DOM, is what leaves elements under `display: none` (which Stylo never styles)
/// and inside replaced elements (`<select>` options) without a box, as in Chromium.
pub(super) fn read_layout(
    document: &BaseDocument,
    element_count: usize,
    viewport: Viewport,
) -> Layout {
    let mut reader = LayoutReader {
        document,
        id_attribute: LocalName::from(NODE_ID_ATTRIBUTE),
        boxes: vec![None; element_count],
        unpainted: Vec::new(),
    };
    let mut boxed = vec![document.root_element().id];
    while let Some(node_id) = boxed.pop() {
        let Some(node) = document.get_node(node_id) else {
            continue;
        };
        // Blitz keeps `display: none` elements (`<head>`, hidden menus) as empty layout children.
        let displayed = node
            .primary_styles()
            .is_none_or(|styles| !styles.clone_display().is_none());
        if !displayed {
            continue;
        }
        reader.record_box(node);
        if node.flags.is_inline_root() {
            reader.record_inline_descendants(node);
        }
        if let Some(children) = node.layout_children.borrow().as_ref() {
            boxed.extend(children.iter().rev().copied());
        }
    }
    let boxes = reader.boxes;
    let mut unpainted = reader.unpainted;
    unpainted.sort_unstable();
    let (page_width, scroll_height) = scroll_size(document, viewport);
    // Blitz's scroll height misses content under a root or body of fixed height (`height:
    // 100%` with the page overflowing it), which Chromium's `scrollHeight` counts.
    let content_bottom = boxes
        .iter()
        .flatten()
        .map(|layout_box| layout_box.y + layout_box.height)
        .fold(0.0, f64::max);
    let page_height = scroll_height.max(content_bottom);
    Layout {
        boxes,
        unpainted,
        page_width,
        page_height,
        viewport,
    }
}

struct LayoutReader<'a> {
    document: &'a BaseDocument,
    id_attribute: LocalName,
    boxes: Vec<Option<LayoutBox>>,
    unpainted: Vec<NodeId>,
}

impl LayoutReader<'_> {
    /// Records a box Blitz built (its border box in page coordinates: the viewport is never
    /// scrolled, so client coordinates are page coordinates).
    fn record_box(&mut self, node: &Node) {
        let layout_box = self
            .document
            .get_client_bounding_rect(node.id)
            .map(|rect| LayoutBox {
                x: rect.x,
                y: rect.y,
                width: rect.width,
                height: rect.height,
            });
        self.record(node, layout_box);
    }

    fn record(&mut self, node: &Node, layout_box: Option<LayoutBox>) {
        let (Some(id), Some(layout_box)) = (self.pagelevel_id(node), layout_box) else {
            return;
        };
        self.boxes[id.index()] = Some(layout_box);
        let painted = node
            .primary_styles()
            .is_none_or(|styles| styles.clone_visibility() == Visibility::Visible);
        if !painted {
            self.unpainted.push(id);
        }
    }

    /// Inline elements that are spans of an inline root's text; atomic inlines (inline-block,
    /// images) are the root's layout children and are walked as boxes.
    fn record_inline_descendants(&mut self, inline_root: &Node) {
        let document = self.document;
        let fragments = inline_boxes(document, inline_root);
        let mut pending: Vec<_> = inline_root.children.iter().rev().copied().collect();
        while let Some(child_id) = pending.pop() {
            let Some(child) = document.get_node(child_id) else {
                continue;
            };
            let Some(display) = child.primary_styles().map(|styles| styles.clone_display()) else {
                continue;
            };
            if display.is_contents() || child.is_non_atomic_inline() {
                if !display.is_contents() {
                    self.record(child, fragments.get(&child_id).copied());
                }
                pending.extend(child.children.iter().rev().copied());
            }
        }
    }

    /// The element's id in our DOM, from the attribute the serializer added.
    fn pagelevel_id(&self, node: &Node) -> Option<NodeId> {
        let index: u32 = node.attr(self.id_attribute.clone())?.parse().ok()?;
        ((index as usize) < self.boxes.len()).then_some(NodeId(index))
    }
}

/// The box of every inline element (and `<br>`, `line_breaks`) in one inline root, in one pass
/// over its text layout: as
/// Chromium's `getBoundingClientRect`, the union over lines of the element's glyph runs, each
/// as tall as its font's content area (rounded ascent + descent), not the line box Blitz's own
/// `inline_fragment_boxes` uses (30px instead of 17px for a link in a `line-height: 30px`
/// menu). One pass also keeps a root with thousands of links linear, where asking Blitz per
/// element re-reads every line of the root each time.
fn inline_boxes(document: &BaseDocument, inline_root: &Node) -> HashMap<BlitzNodeId, LayoutBox> {
    let mut boxes: HashMap<BlitzNodeId, LayoutBox> = HashMap::new();
    let Some(text) = inline_root
        .element_data()
        .and_then(|element| element.inline_layout_data.as_deref())
    else {
        return boxes;
    };
    let Some(root_box) = document.get_client_bounding_rect(inline_root.id) else {
        return boxes;
    };
    let root_layout = inline_root.unrounded_layout();
    let origin = TextOrigin {
        x: root_box.x + f64::from(root_layout.padding.left + root_layout.border.left),
        y: root_box.y
            + f64::from(root_layout.padding.top + root_layout.border.top + text.block_offset),
        scale: f64::from(text.layout.scale()),
    };
    let mut add = |start: BlitzNodeId, fragment: LayoutBox| {
        // The fragment belongs to every inline element between its node and the root.
        let mut current = Some(start);
        while let Some(id) = current.filter(|id| *id != inline_root.id) {
            boxes
                .entry(id)
                .and_modify(|existing| *existing = union(*existing, fragment))
                .or_insert(fragment);
            current = document.get_node(id).and_then(|node| node.parent);
        }
    };
    // Atomic inlines (images, inline-blocks) are placed after every line is read, once each
    // inline element's font is known.
    let mut fonts: HashMap<BlitzNodeId, (f32, f32)> = HashMap::new();
    let mut atomic_inlines = Vec::new();
    for line in text.layout.lines() {
        for item in line.items() {
            match item {
                PositionedLayoutItem::GlyphRun(glyph_run) => {
                    let metrics = glyph_run.run().font_metrics();
                    let fragment = origin.text_box(
                        glyph_run.offset(),
                        glyph_run.baseline(),
                        metrics.ascent,
                        metrics.descent,
                        glyph_run.advance(),
                    );
                    let brush = glyph_run.style().brush.id;
                    fonts
                        .entry(brush)
                        .or_insert((metrics.ascent, metrics.descent));
                    add(brush, fragment);
                }
                PositionedLayoutItem::InlineBox(inline_box) => {
                    atomic_inlines.push((inline_box, line.metrics().baseline));
                }
            }
        }
    }
    for (inline_box, baseline) in atomic_inlines {
        let box_id = BlitzNodeId::from_u64(inline_box.id);
        let Some(parent) = document.get_node(box_id).and_then(|node| node.parent) else {
            continue;
        };
        // The atomic box has its own layout box. Chromium's box of an inline element holding
        // one spans it across but is as tall as the element's own font on the line's
        // baseline (a link around a 69 px image is 17 px tall); a floated or positioned one
        // is out of the line and its box is where it stands.
        let fragment = match inline_box.kind {
            InlineBoxKind::InFlow => {
                let (ascent, descent) =
                    font_of(document, parent, inline_root, &fonts, text.layout.scale());
                origin.text_box(inline_box.x, baseline, ascent, descent, inline_box.width)
            }
            InlineBoxKind::OutOfFlow | InlineBoxKind::CustomOutOfFlow => LayoutBox {
                x: origin.x + f64::from(inline_box.x) / origin.scale,
                y: origin.y + f64::from(inline_box.y) / origin.scale,
                width: f64::from(inline_box.width) / origin.scale,
                height: f64::from(inline_box.height) / origin.scale,
            },
        };
        add(parent, fragment);
    }
    if text.text.contains(is_segment_break) {
        for (line_break, fragment) in line_break_boxes(document, inline_root, &text.layout, origin)
        {
            add(line_break, fragment);
        }
    }
    boxes
}

/// Ascent and descent (layout units) of the font of `element`, an inline element in
/// `inline_root`: of its own text or its nearest ancestor's in the root, else estimated from its
/// font size with Liberation's proportions (Chromium's default fonts here).
fn font_of(
    document: &BaseDocument,
    element: BlitzNodeId,
    inline_root: &Node,
    fonts: &HashMap<BlitzNodeId, (f32, f32)>,
    scale: f32,
) -> (f32, f32) {
    const ASCENT_EM: f32 = 0.9;
    const DESCENT_EM: f32 = 0.216;
    let mut current = Some(element);
    while let Some(id) = current {
        if let Some(font) = fonts.get(&id) {
            return *font;
        }
        if id == inline_root.id {
            break;
        }
        current = document.get_node(id).and_then(|node| node.parent);
    }
    let font_size = document
        .get_node(element)
        .and_then(|node| node.primary_styles())
        .map_or(16.0, |styles| styles.clone_font_size().computed_size().px());
    (
        ASCENT_EM * font_size * scale,
        DESCENT_EM * font_size * scale,
    )
}

/// Blitz lays table cells out directly under the table, so rows and row groups get no box of
/// their own; Chromium's are the union of their cells (and rows), which is what is given here.
pub(super) fn box_table_groups(dom: &Dom, boxes: &mut [Option<LayoutBox>]) {
    const TABLE_GROUPS: &[&str] = &["tr", "tbody", "thead", "tfoot"];
    // Children come after their parent in document order, so rows are done before groups.
    for id in dom.ids().rev() {
        if boxes[id.index()].is_some() || !TABLE_GROUPS.contains(&dom.element(id).tag.as_str()) {
            continue;
        }
        boxes[id.index()] = dom
            .element_children(id)
            .filter_map(|child| boxes[child.index()])
            .reduce(union);
    }
}

fn union(a: LayoutBox, b: LayoutBox) -> LayoutBox {
    let (left, top) = (a.x.min(b.x), a.y.min(b.y));
    let right = (a.x + a.width).max(b.x + b.width);
    let bottom = (a.y + a.height).max(b.y + b.height);
    LayoutBox {
        x: left,
        y: top,
        width: right - left,
        height: bottom - top,
    }
}

/// The document's scroll size, as Chromium's `max(root.scrollWidth, body.scrollWidth)` (and
/// height): never smaller than the viewport, since the root element's scroll area fills it.
fn scroll_size(document: &BaseDocument, viewport: Viewport) -> (f64, f64) {
    let root = document.root_element();
    let body = document.find_body_node().unwrap_or(root);
    let width = root.scroll_width().max(body.scroll_width()) as f64;
    let height = root.scroll_height().max(body.scroll_height()) as f64;
    (
        width.max(f64::from(viewport.width)),
        height.max(f64::from(viewport.height)),
    )
}
