//! What rendering produces: the parsed page plus a layout box per element, and the versioned JSON
//! snapshot written by `pagelevel render`.

use serde::{Deserialize, Serialize};

use crate::page::{NodeId, Page};

/// Version of the snapshot JSON and of the render cache entries; bump it when either changes.
/// 3: elements laid out but not painted (`visibility: hidden | collapse`) are listed.
pub const SNAPSHOT_FORMAT_VERSION: u32 = 3;

/// Viewport every page is laid out in, as the paper's features assume one fixed screen.
pub const VIEWPORT: Viewport = Viewport {
    width: 1280,
    height: 1024,
};

/// Screenshots stop this far down a page: enough to judge a page's template, and a report
/// stays a few megabytes.
pub const SCREENSHOT_MAX_HEIGHT: f64 = 6000.0;

/// Width and height in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Viewport {
    pub width: u32,
    pub height: u32,
}

/// An element's border box in page coordinates (CSS pixels from the top-left of the document).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(into = "[f64; 4]", from = "[f64; 4]")]
pub struct LayoutBox {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl LayoutBox {
    /// Area in square CSS pixels.
    pub fn area(&self) -> f64 {
        self.width.max(0.0) * self.height.max(0.0)
    }
}

impl From<LayoutBox> for [f64; 4] {
    fn from(b: LayoutBox) -> Self {
        [b.x, b.y, b.width, b.height]
    }
}

impl From<[f64; 4]> for LayoutBox {
    fn from([x, y, width, height]: [f64; 4]) -> Self {
        LayoutBox {
            x,
            y,
            width,
            height,
        }
    }
}

/// Layout of one page: a box per element (by [`NodeId`]), `None` where the element has no layout
/// box (`display: none`, `<head>` content, elements the browser dropped).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Layout {
    pub boxes: Vec<Option<LayoutBox>>,
    /// Elements with a box that is not painted (`visibility: hidden | collapse`), sorted: they
    /// take their place in the layout, but their text is never seen.
    #[serde(default)]
    pub unpainted: Vec<NodeId>,
    /// Size of the whole laid-out document (scroll width and height).
    pub page_width: f64,
    pub page_height: f64,
    pub viewport: Viewport,
}

/// A page with its layout: the input of feature extraction.
#[derive(Debug, Clone)]
pub struct RenderedPage {
    pub page: Page,
    pub layout: Layout,
    /// Wall time spent in the browser for this page (0 when it came from the cache).
    pub render_ms: f64,
    /// Wall time spent decoding and parsing the page.
    pub parse_ms: f64,
    /// A JPEG screenshot of the page's top (at most [`SCREENSHOT_MAX_HEIGHT`] pixels), when asked.
    pub screenshot: Option<Vec<u8>>,
    pub from_cache: bool,
}

impl RenderedPage {
    /// The layout box of an element, if it has one.
    pub fn layout_box(&self, id: NodeId) -> Option<LayoutBox> {
        self.layout.boxes.get(id.index()).copied().flatten()
    }

    /// Whether an element with a box is painted (not `visibility: hidden | collapse`).
    pub fn is_painted(&self, id: NodeId) -> bool {
        self.layout.unpainted.binary_search(&id).is_err()
    }

    /// The JSON snapshot of `pagelevel render`.
    pub fn snapshot(&self) -> Snapshot {
        let dom = &self.page.dom;
        Snapshot {
            format_version: SNAPSHOT_FORMAT_VERSION,
            url: self.page.url.as_ref().map(|url| url.to_string()),
            title: self.page.title.clone(),
            encoding: self.page.encoding.to_string(),
            viewport: self.layout.viewport,
            page_width: self.layout.page_width,
            page_height: self.layout.page_height,
            render_ms: self.render_ms,
            nodes: dom
                .ids()
                .map(|id| {
                    let element = dom.element(id);
                    SnapshotNode {
                        id,
                        parent: element.parent,
                        tag: element.tag.clone(),
                        layout_box: self.layout_box(id),
                        unpainted: !self.is_painted(id),
                        depth: element.depth,
                        html_bytes: element.html_bytes,
                        own_text: dom.own_text(id),
                        link: element.link.clone(),
                    }
                })
                .collect(),
        }
    }
}

/// The `pagelevel render` output: nodes in document order.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Snapshot {
    pub format_version: u32,
    pub url: Option<String>,
    pub title: String,
    pub encoding: String,
    pub viewport: Viewport,
    pub page_width: f64,
    pub page_height: f64,
    pub render_ms: f64,
    pub nodes: Vec<SnapshotNode>,
}

/// One element of a snapshot.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SnapshotNode {
    pub id: NodeId,
    pub parent: Option<NodeId>,
    pub tag: String,
    /// `[x, y, width, height]` in page pixels, `null` without a layout box.
    #[serde(rename = "box")]
    pub layout_box: Option<LayoutBox>,
    /// True for an element laid out but not painted (`visibility: hidden | collapse`).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub unpainted: bool,
    pub depth: u32,
    pub html_bytes: u64,
    /// The element's own text (not its descendants'), whitespace collapsed.
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub own_text: String,
    /// Resolved link target of `<a href>`/`<area href>`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub link: Option<String>,
}

/// Pages laid out by hand, for tests of the stages after rendering.
#[cfg(test)]
pub(crate) mod by_hand {
    use super::{Layout, LayoutBox, RenderedPage, VIEWPORT};
    use crate::page::Page;

    /// `page` with a box for every element whose `id` (or, without one, tag) is named in
    /// `boxes` as `[x, y, width, height]`; the document is `width` × `height`.
    pub fn lay_out(
        page: Page,
        boxes: &[(&str, [f64; 4])],
        width: f64,
        height: f64,
    ) -> RenderedPage {
        let layout_boxes = page
            .dom
            .elements
            .iter()
            .map(|element| {
                let key = element.attribute("id").unwrap_or(element.tag.as_str());
                boxes
                    .iter()
                    .find(|(name, _)| *name == key)
                    .map(|(_, layout_box)| LayoutBox::from(*layout_box))
            })
            .collect();
        RenderedPage {
            page,
            layout: Layout {
                boxes: layout_boxes,
                unpainted: Vec::new(),
                page_width: width,
                page_height: height,
                viewport: VIEWPORT,
            },
            render_ms: 0.0,
            parse_ms: 0.0,
            screenshot: None,
            from_cache: false,
        }
    }
}
