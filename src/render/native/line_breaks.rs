//! `<br>` boxes as Chromium gives them. Blitz turns a `<br>` into a newline of its inline root's
//! text and gives it no box; Chromium's `getBoundingClientRect` of a `<br>` is a zero-wide box
//! where that newline sits: at the end of the line it ends, as tall as the font's content area
//! (17 px for 16 px Liberation Serif, whatever the `line-height`). Without it, 2,729 of the
//! 3,997 elements only Chromium boxed on the fidelity pages were `<br>`s.
//!
//! Parley keeps every forced break as a zero-advance newline cluster at the end of its line,
//! but does not say which element it came from. The newlines of an inline root come, in text
//! order, from its `<br>`s and from segment breaks in text whose `white-space` preserves them;
//! walking the root's inline content in the order Blitz builds its text (`construct.rs`,
//! `build_inline_layout`) lists those sources, and the k-th source owns the k-th newline.
//! When the counts disagree (generated content with `\A`, say), the root's `<br>`s keep no box
//! rather than a wrong one.

use blitz_dom::{BaseDocument, Node, NodeData};
use blitz_traits::node_id::NodeId as BlitzNodeId;
use parley::Layout as TextLayout;
use style::computed_values::white_space_collapse::T as WhiteSpaceCollapse;

use crate::layout::LayoutBox;
use blitz_dom::node::TextBrush;

/// Where an inline root's text starts on the page, and its scale (layout units per CSS px).
#[derive(Debug, Clone, Copy)]
pub(super) struct TextOrigin {
    pub x: f64,
    pub y: f64,
    pub scale: f64,
}

impl TextOrigin {
    /// The box of a piece of text from `x` (layout units, the line's coordinates) `width` wide
    /// on a baseline, in a font of `ascent` and `descent` (layout units): as tall as the font's
    /// content area (rounded ascent + descent), as Chromium's boxes of inline elements are.
    pub fn text_box(
        &self,
        x: f32,
        baseline: f32,
        ascent: f32,
        descent: f32,
        width: f32,
    ) -> LayoutBox {
        let ascent = f64::from(ascent.abs()).round();
        let descent = f64::from(descent.abs()).round();
        LayoutBox {
            x: self.x + f64::from(x) / self.scale,
            y: self.y + (f64::from(baseline) - ascent) / self.scale,
            width: f64::from(width) / self.scale,
            height: (ascent + descent) / self.scale,
        }
    }
}

/// Characters Parley breaks lines at when white space is preserved (its `is_segment_break`).
pub(super) fn is_segment_break(character: char) -> bool {
    matches!(character, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// The box of every `<br>` in one inline root whose text holds a newline.
pub(super) fn line_break_boxes(
    document: &BaseDocument,
    inline_root: &Node,
    text: &TextLayout<TextBrush>,
    origin: TextOrigin,
) -> Vec<(BlitzNodeId, LayoutBox)> {
    let newlines = newline_boxes(text, origin);
    let sources = newline_sources(document, inline_root);
    if newlines.len() != sources.len() {
        return Vec::new();
    }
    sources
        .into_iter()
        .zip(newlines)
        .filter_map(|(source, newline)| Some((source?, newline)))
        .collect()
}

/// The zero-wide box of every newline cluster, in text order: where the line it ends stops,
/// on that line's baseline in the font it was shaped with.
fn newline_boxes(text: &TextLayout<TextBrush>, origin: TextOrigin) -> Vec<LayoutBox> {
    let mut newlines = Vec::new();
    for line in text.lines() {
        let baseline = line.metrics().baseline;
        for run in line.runs() {
            for cluster in run
                .clusters()
                .filter(|cluster| cluster.is_hard_line_break())
            {
                let x = cluster.visual_offset().unwrap_or(line.metrics().offset);
                let metrics = run.font_metrics();
                newlines.push(origin.text_box(x, baseline, metrics.ascent, metrics.descent, 0.0));
            }
        }
    }
    newlines
}

/// Where each newline of the root's text comes from, in the order Blitz builds the text: a
/// `<br>` (its node), or a preserved segment break of a text node (`None`).
fn newline_sources(document: &BaseDocument, inline_root: &Node) -> Vec<Option<BlitzNodeId>> {
    let mut sources = Vec::new();
    let mut pending = content_in_reverse(inline_root);
    while let Some(node_id) = pending.pop() {
        let Some(node) = document.get_node(node_id) else {
            continue;
        };
        match &node.data {
            NodeData::Text(text) if preserves_segment_breaks(document, node) => {
                let breaks = text.content.chars().filter(|c| is_segment_break(*c));
                sources.extend(breaks.map(|_| None));
            }
            NodeData::Element(element) | NodeData::AnonymousBlock(element) => {
                let Some(display) = node.primary_styles().map(|styles| styles.clone_display())
                else {
                    continue;
                };
                // As Blitz: `display: contents` adds its children (not its pseudo-elements);
                // a non-atomic inline adds itself; anything else is an atomic box or nothing.
                if display.is_contents() {
                    pending.extend(node.children.iter().rev().copied());
                } else if node.is_non_atomic_inline() {
                    if &*element.name.local == "br" {
                        sources.push(Some(node_id));
                    } else {
                        pending.extend(content_in_reverse(node));
                    }
                }
            }
            _ => {}
        }
    }
    sources
}

/// A node's `::before`, children and `::after`, last first (for a stack).
fn content_in_reverse(node: &Node) -> Vec<BlitzNodeId> {
    let mut content = Vec::with_capacity(node.children.len() + 2);
    content.extend(node.after());
    content.extend(node.children.iter().rev().copied());
    content.extend(node.before());
    content
}

/// Whether a text node's `white-space` keeps its segment breaks (all but `normal`/`nowrap`):
/// the text takes its nearest styled ancestor's style, as in Blitz's text builder.
fn preserves_segment_breaks(document: &BaseDocument, text: &Node) -> bool {
    let mut ancestor = text.parent.and_then(|id| document.get_node(id));
    while let Some(node) = ancestor {
        if let Some(styles) = node.primary_styles() {
            return styles.clone_white_space_collapse() != WhiteSpaceCollapse::Collapse;
        }
        ancestor = node.parent.and_then(|id| document.get_node(id));
    }
    false
}
