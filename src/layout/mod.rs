//! The layout stage: a box per element of a parsed page. Where boxes come from is a
//! [`LayoutSource`]: headless Chromium ([`crate::render::Renderer`]), a snapshot saved by
//! `pagelevel render` ([`SnapshotLayout`]), or boxes a caller supplies ([`SuppliedLayout`]).
//! Everything after this stage reads only a [`LaidOutPage`], never the source.

mod snapshot;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::page::{NodeId, Page, PageSource};

pub use snapshot::{SNAPSHOT_FORMAT_VERSION, Snapshot, SnapshotLayout, SnapshotNode};

/// A layout engine, as models and snapshots record it: features of boxes from another engine
/// are not what a model's coefficients were fitted to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LayoutEngine {
    /// Headless Chromium (`render::Renderer`).
    Chromium,
    /// Blitz in-process (`render::NativeLayout`).
    Native,
    /// No layout at all ([`DocumentOrderLayout`]): the floor that measures what layout adds.
    None,
}

impl LayoutEngine {
    /// The engine of a model or snapshot file that does not name one: such files were written
    /// before native layout existed, so by Chromium.
    pub fn unrecorded() -> LayoutEngine {
        LayoutEngine::Chromium
    }

    /// The engine a [`name`](LayoutEngine::name) names, if any.
    pub fn from_name(name: &str) -> Option<LayoutEngine> {
        [
            LayoutEngine::Chromium,
            LayoutEngine::Native,
            LayoutEngine::None,
        ]
        .into_iter()
        .find(|engine| engine.name() == name)
    }

    /// The engine's name as the `--layout` flag spells it.
    pub fn name(self) -> &'static str {
        match self {
            LayoutEngine::Chromium => "chromium",
            LayoutEngine::Native => "native",
            LayoutEngine::None => "none",
        }
    }
}

/// The deepest element level Chromium's HTML parser nests as the markup says (`<html>` is level
/// 0): Blink's `kMaximumHTMLParserDOMTreeDepth`. Measured with `pagelevel render`: a `<p>` at
/// level 512 keeps its place and its box; one at level 513 is attached beside its parent, which
/// is left empty with a zero-height box.
pub const CHROMIUM_MAX_NESTING: u32 = 512;

impl LayoutEngine {
    /// The deepest element level the engine nests as the markup says, when it has a limit.
    /// Only Chromium does ([`CHROMIUM_MAX_NESTING`]); our parser (html5ever), Blitz and the
    /// document-order layout nest to any depth the parse limits allow.
    pub fn max_nesting(self) -> Option<u32> {
        match self {
            LayoutEngine::Chromium => Some(CHROMIUM_MAX_NESTING),
            LayoutEngine::Native | LayoutEngine::None => None,
        }
    }

    /// Whether `page` nests deeper than this engine does, and by how much: its boxes below that
    /// level do not belong to the elements our DOM has there, so the caller should be told.
    pub fn nesting_beyond(self, page: &Page) -> Option<NestingBeyondEngine> {
        let limit = self.max_nesting()?;
        let depth = page
            .dom
            .elements
            .iter()
            .map(|element| element.depth)
            .max()?;
        (depth > limit).then(|| NestingBeyondEngine {
            engine: self,
            depth,
            limit,
            elements_beyond: page
                .dom
                .elements
                .iter()
                .filter(|element| element.depth > limit)
                .count(),
        })
    }
}

/// A page whose elements nest deeper than its layout engine nests them
/// ([`LayoutEngine::nesting_beyond`]). Its display is the warning to show, naming the cause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NestingBeyondEngine {
    /// The engine that laid the page out.
    pub engine: LayoutEngine,
    /// The level of the page's deepest element (`<html>` is level 0).
    pub depth: u32,
    /// The deepest level the engine nests ([`LayoutEngine::max_nesting`]).
    pub limit: u32,
    /// How many elements lie deeper than `limit`.
    pub elements_beyond: usize,
}

impl std::fmt::Display for NestingBeyondEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "elements nest {} levels deep, and {}'s HTML parser nests at most {}: its {} deeper \
             elements were laid out beside their parents, which get empty, zero-height boxes, so \
             their text is scored apart from its containers (--layout native has no such limit)",
            self.depth,
            self.engine.name(),
            self.limit,
            self.elements_beyond
        )
    }
}

/// Where a page's boxes come from.
pub trait LayoutSource: Send {
    /// Lays out a parsed page; `source` says where the page lives (URL, web root, base href),
    /// for the stylesheets and images it may load.
    fn lay_out(&mut self, page: &Page, source: &PageSource) -> Result<LaidOut, LayoutError>;
}

impl LayoutSource for Box<dyn LayoutSource> {
    fn lay_out(&mut self, page: &Page, source: &PageSource) -> Result<LaidOut, LayoutError> {
        (**self).lay_out(page, source)
    }
}

/// No layout: every element a full-width band of the same height, stacked in document order,
/// and elements no browser shows (`<head>` and its content) without a box. Features then carry
/// only text, links, tags, roles and document position — the floor that says what real boxes
/// add (`--layout none`).
#[derive(Debug, Clone, Copy, Default)]
pub struct DocumentOrderLayout;

/// Height of each element's band: its area (1280 × 20 px²) is above the hidden-node area, so
/// every element is classified.
const BAND_HEIGHT: f64 = 20.0;

impl LayoutSource for DocumentOrderLayout {
    fn lay_out(&mut self, page: &Page, _source: &PageSource) -> Result<LaidOut, LayoutError> {
        let dom = &page.dom;
        let unseen = [
            "head", "script", "style", "template", "noscript", "title", "meta", "link",
        ];
        let mut hidden = vec![false; dom.len()];
        let width = f64::from(VIEWPORT.width);
        let boxes = dom
            .ids()
            .map(|id| {
                let element = dom.element(id);
                let inherited = element.parent.is_some_and(|parent| hidden[parent.index()]);
                hidden[id.index()] = inherited || unseen.contains(&element.tag.as_str());
                (!hidden[id.index()]).then(|| LayoutBox {
                    x: 0.0,
                    y: BAND_HEIGHT * f64::from(id.0),
                    width,
                    height: BAND_HEIGHT,
                })
            })
            .collect();
        Ok(LaidOut {
            layout: Layout {
                boxes,
                unpainted: Vec::new(),
                page_width: width,
                page_height: BAND_HEIGHT * (dom.len() as f64 + 1.0),
                viewport: VIEWPORT,
            },
            screenshot: None,
            from_cache: false,
            warning: None,
        })
    }
}

/// What a [`LayoutSource`] returns for one page.
#[derive(Debug, Clone)]
pub struct LaidOut {
    /// The boxes, one per element of the page.
    pub layout: Layout,
    /// A JPEG screenshot of the page's top, when the source is a browser asked for one.
    pub screenshot: Option<Vec<u8>>,
    /// True when the boxes were read from a cache, not computed for this call.
    pub from_cache: bool,
    /// Why the boxes are not the engine's full layout of the page (the native engine laid it
    /// out without its stylesheets to stay within its memory budget): a warning to show.
    pub warning: Option<String>,
}

/// Why a page could not be laid out.
#[derive(Debug, Error)]
pub enum LayoutError {
    /// The engine failed on this page (the browser, or the native engine).
    #[error(transparent)]
    Engine(Box<dyn std::error::Error + Send + Sync>),
    /// A saved snapshot cannot be read, or was made from another page.
    #[error("snapshot {path}: {cause}")]
    Snapshot {
        /// The snapshot file.
        path: PathBuf,
        /// What is wrong with it.
        cause: String,
    },
    /// Supplied boxes do not match the page.
    #[error("the supplied layout has {boxes} boxes for a page of {elements} elements")]
    WrongSize {
        /// Boxes supplied.
        boxes: usize,
        /// Elements of the parsed page.
        elements: usize,
    },
}

/// Boxes a caller computed, e.g. in its own browser: one [`Layout`] for the next page scored.
#[derive(Debug, Clone)]
pub struct SuppliedLayout(pub Layout);

impl LayoutSource for SuppliedLayout {
    fn lay_out(&mut self, page: &Page, _source: &PageSource) -> Result<LaidOut, LayoutError> {
        if self.0.boxes.len() != page.dom.len() {
            return Err(LayoutError::WrongSize {
                boxes: self.0.boxes.len(),
                elements: page.dom.len(),
            });
        }
        Ok(LaidOut {
            layout: self.0.clone(),
            screenshot: None,
            from_cache: false,
            warning: None,
        })
    }
}

/// Viewport every page is laid out in, as the paper's features assume one fixed screen.
pub const VIEWPORT: Viewport = Viewport {
    width: 1280,
    height: 1024,
};

/// Width and height in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Viewport {
    /// Width in CSS px.
    pub width: u32,
    /// Height in CSS px.
    pub height: u32,
}

/// An element's border box in page coordinates (CSS pixels from the top-left of the document).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(into = "[f64; 4]", from = "[f64; 4]")]
pub struct LayoutBox {
    /// Left edge, CSS px from the document's left.
    pub x: f64,
    /// Top edge, CSS px from the document's top.
    pub y: f64,
    /// Width in CSS px.
    pub width: f64,
    /// Height in CSS px.
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
    /// One entry per element, indexed by [`NodeId::index`].
    pub boxes: Vec<Option<LayoutBox>>,
    /// Elements with a box that is not painted (`visibility: hidden | collapse`), sorted: they
    /// take their place in the layout, but their text is never seen.
    #[serde(default)]
    pub unpainted: Vec<NodeId>,
    /// Size of the whole laid-out document (scroll width and height).
    pub page_width: f64,
    /// Height of the whole laid-out document, CSS px.
    pub page_height: f64,
    /// The viewport the page was laid out in.
    pub viewport: Viewport,
}

/// A page with its layout: the input of feature extraction, whichever [`LayoutSource`] laid it out.
#[derive(Debug, Clone)]
pub struct LaidOutPage {
    /// The parsed page.
    pub page: Page,
    /// Its boxes, one per element of `page.dom`.
    pub layout: Layout,
    /// Wall time spent laying the page out (0 when it came from the cache).
    pub layout_ms: f64,
    /// Wall time spent decoding and parsing the page.
    pub parse_ms: f64,
    /// A JPEG screenshot of the page's top, when asked of a browser.
    pub screenshot: Option<Vec<u8>>,
    /// True when the boxes were read from a cache or a snapshot, not computed now.
    pub from_cache: bool,
    /// Why the boxes are not the engine's full layout of the page ([`LaidOut::warning`]).
    pub warning: Option<String>,
}

impl LaidOutPage {
    /// The layout box of an element, if it has one.
    pub fn layout_box(&self, id: NodeId) -> Option<LayoutBox> {
        self.layout.boxes.get(id.index()).copied().flatten()
    }

    /// Whether an element with a box is painted (not `visibility: hidden | collapse`).
    pub fn is_painted(&self, id: NodeId) -> bool {
        self.layout.unpainted.binary_search(&id).is_err()
    }
}

/// Pages laid out by hand, for tests of the stages after rendering.
#[cfg(test)]
pub(crate) mod by_hand {
    use super::{LaidOutPage, Layout, LayoutBox, VIEWPORT};
    use crate::page::Page;

    /// `page` with a box for every element whose `id` (or, without one, tag) is named in
    /// `boxes` as `[x, y, width, height]`; the document is `width` × `height`.
    pub fn lay_out(page: Page, boxes: &[(&str, [f64; 4])], width: f64, height: f64) -> LaidOutPage {
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
        LaidOutPage {
            page,
            layout: Layout {
                boxes: layout_boxes,
                unpainted: Vec::new(),
                page_width: width,
                page_height: height,
                viewport: VIEWPORT,
            },
            layout_ms: 0.0,
            parse_ms: 0.0,
            screenshot: None,
            from_cache: false,
            warning: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::ParseLimits;

    /// A page whose `<p>` is `levels` `<div>`s below `<body>` (so at level `levels + 2`).
    fn nested(levels: usize) -> Page {
        let html = format!(
            "<html><body>{}<p>deep text</p>{}</body></html>",
            "<div>".repeat(levels),
            "</div>".repeat(levels)
        );
        Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).expect("parses")
    }

    #[test]
    fn only_chromium_flags_a_page_nested_deeper_than_its_parser_nests() {
        let deep = nested(600);
        assert_eq!(
            LayoutEngine::Chromium.nesting_beyond(&deep),
            Some(NestingBeyondEngine {
                engine: LayoutEngine::Chromium,
                depth: 602,
                limit: 512,
                // The divs at levels 513..=601 and the paragraph.
                elements_beyond: 90,
            })
        );
        assert_eq!(LayoutEngine::Native.nesting_beyond(&deep), None);
        assert_eq!(LayoutEngine::None.nesting_beyond(&deep), None);
        assert_eq!(LayoutEngine::Chromium.nesting_beyond(&nested(510)), None);
    }
}
