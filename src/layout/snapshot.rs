//! The versioned JSON snapshot written by `pagelevel render`, and [`SnapshotLayout`], which
//! scores a page from its saved snapshot with no browser: the page is parsed again from its
//! bytes (deterministic), so the snapshot carries only what parsing cannot give — the boxes —
//! plus each element's tag and size to prove it was made from this very page.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{
    LaidOut, LaidOutPage, Layout, LayoutBox, LayoutEngine, LayoutError, LayoutSource, Viewport,
};
use crate::page::{NodeId, Page, PageSource};

/// Version of the snapshot JSON and of the render cache entries; bump it when either changes.
/// 3: elements laid out but not painted (`visibility: hidden | collapse`) are listed.
pub const SNAPSHOT_FORMAT_VERSION: u32 = 3;

/// The `pagelevel render` output: nodes in document order.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Snapshot {
    /// [`SNAPSHOT_FORMAT_VERSION`] of the writer; a reader refuses another.
    pub format_version: u32,
    /// The page's URL (`file://` for saved pages), when known.
    pub url: Option<String>,
    /// The page's `<title>`.
    pub title: String,
    /// The character encoding the page was decoded with (e.g. `UTF-8`, `windows-1252`).
    pub encoding: String,
    /// The viewport the page was laid out in.
    pub viewport: Viewport,
    /// Width of the laid-out document, CSS px.
    pub page_width: f64,
    /// Height of the laid-out document, CSS px.
    pub page_height: f64,
    /// Milliseconds the layout took (0 when it came from the cache).
    pub render_ms: f64,
    /// The engine that laid the page out (Chromium for snapshots that do not say).
    #[serde(default = "LayoutEngine::unrecorded")]
    pub layout_engine: LayoutEngine,
    /// Every element in document order.
    pub nodes: Vec<SnapshotNode>,
}

/// One element of a snapshot.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SnapshotNode {
    /// The element's index in document order.
    pub id: NodeId,
    /// Its parent's id; `None` for `<html>`.
    pub parent: Option<NodeId>,
    /// Lower-case tag name.
    pub tag: String,
    /// `[x, y, width, height]` in page pixels, `null` without a layout box.
    #[serde(rename = "box")]
    pub layout_box: Option<LayoutBox>,
    /// True for an element laid out but not painted (`visibility: hidden | collapse`).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub unpainted: bool,
    /// Nesting depth (`<html>` is 0).
    pub depth: u32,
    /// Bytes of the element's serialized HTML, its subtree included.
    pub html_bytes: u64,
    /// The element's own text (not its descendants'), whitespace collapsed.
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub own_text: String,
    /// Resolved link target of `<a href>`/`<area href>`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub link: Option<String>,
}

impl LaidOutPage {
    /// The JSON snapshot of `pagelevel render`.
    pub fn snapshot(&self, layout_engine: LayoutEngine) -> Snapshot {
        let dom = &self.page.dom;
        Snapshot {
            format_version: SNAPSHOT_FORMAT_VERSION,
            url: self.page.url.as_ref().map(|url| url.to_string()),
            title: self.page.title.clone(),
            encoding: self.page.encoding.to_string(),
            viewport: self.layout.viewport,
            page_width: self.layout.page_width,
            page_height: self.layout.page_height,
            render_ms: self.layout_ms,
            layout_engine,
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

/// Boxes read from a snapshot of `pagelevel render`, for the page it was made from.
#[derive(Debug, Clone)]
pub struct SnapshotLayout {
    path: PathBuf,
    snapshot: Snapshot,
}

impl SnapshotLayout {
    /// Reads a snapshot file.
    pub fn read(path: &Path) -> Result<SnapshotLayout, LayoutError> {
        let fail = |cause: String| LayoutError::Snapshot {
            path: path.to_path_buf(),
            cause,
        };
        let bytes = std::fs::read(path).map_err(|error| fail(error.to_string()))?;
        let snapshot: Snapshot = serde_json::from_slice(&bytes)
            .map_err(|error| fail(format!("not a pagelevel snapshot: {error}")))?;
        if snapshot.format_version != SNAPSHOT_FORMAT_VERSION {
            return Err(fail(format!(
                "format {} is not this version's {SNAPSHOT_FORMAT_VERSION}; render the page again",
                snapshot.format_version
            )));
        }
        Ok(SnapshotLayout {
            path: path.to_path_buf(),
            snapshot,
        })
    }

    /// The engine that laid the snapshot's page out.
    pub fn engine(&self) -> LayoutEngine {
        self.snapshot.layout_engine
    }

    /// The first element where the snapshot and the parsed page disagree, if any.
    fn mismatch(&self, page: &Page) -> Option<String> {
        let nodes = &self.snapshot.nodes;
        if nodes.len() != page.dom.len() {
            return Some(format!(
                "it has {} elements, the page {}: it was made from another page",
                nodes.len(),
                page.dom.len()
            ));
        }
        nodes.iter().zip(&page.dom.elements).enumerate().find_map(|(index, (node, element))| {
            (node.id.index() != index || node.tag != element.tag || node.html_bytes != element.html_bytes)
                .then(|| format!(
                    "element {index} is <{}> of {} bytes there, <{}> of {} bytes in the page: it was made from another page",
                    node.tag, node.html_bytes, element.tag, element.html_bytes
                ))
        })
    }
}

impl LayoutSource for SnapshotLayout {
    fn lay_out(&mut self, page: &Page, _source: &PageSource) -> Result<LaidOut, LayoutError> {
        if let Some(cause) = self.mismatch(page) {
            return Err(LayoutError::Snapshot {
                path: self.path.clone(),
                cause,
            });
        }
        let snapshot = &self.snapshot;
        Ok(LaidOut {
            layout: Layout {
                boxes: snapshot.nodes.iter().map(|node| node.layout_box).collect(),
                unpainted: snapshot
                    .nodes
                    .iter()
                    .filter(|node| node.unpainted)
                    .map(|node| node.id)
                    .collect(),
                page_width: snapshot.page_width,
                page_height: snapshot.page_height,
                viewport: snapshot.viewport,
            },
            screenshot: None,
            from_cache: true,
            warning: None,
        })
    }
}
