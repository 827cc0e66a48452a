//! Native layout: a page laid out in-process by Blitz (Stylo for CSS, Taffy for boxes, Parley for
//! text) instead of headless Chromium, producing the same [`Layout`] the browser walk produces.
//!
//! The contract is Chromium's: one border box per element in page coordinates
//! (`getBoundingClientRect` plus scroll offsets), `None` for elements with no box (`display: none`
//! and everything under it, `display: contents`, `<head>` content), the elements laid out but not
//! painted, and the document's scroll size. Boxes are joined to our DOM by the
//! `data-pagelevel-id` attribute of the serialized copy, as in the browser path.
//!
//! Only the page's own CSS applies: inline styles, `<style>`, and `<link rel=stylesheet>` /
//! `@import` files found under the page's web root, mapped the way the Chromium gate maps URLs.
//! Nothing ever reaches the network: Blitz fetches through a [`NetProvider`], and ours only reads
//! stylesheets from disk. Images are not decoded; `image_boxes` gives them Chromium's sizes.
//!
//! Everything that calls Blitz lives in this file, so moving to a newer Blitz changes this file
//! (and drops `stylesheet_media` once Blitz honours `media`). The other modules state what
//! Chromium does that Blitz does not, in Blitz-independent terms (a DOM copy, a UA stylesheet).

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex, mpsc};
use std::time::Duration;

use crate::layout::{Layout, LayoutBox, Viewport};
use crate::page::PageSource;
use crate::page::{Dom, NodeId, Page, SerializeOptions, serialize};
use crate::render::NODE_ID_ATTRIBUTE;
use blitz_dom::{
    BULLET_FONT, BaseDocument, DocumentConfig, FontContext, LocalName, Node, StyleThreading,
    UserAgentStylesheet,
};
use blitz_html::HtmlDocument;
use blitz_traits::net::{Bytes, NetHandler, NetProvider, Request};
use blitz_traits::node_id::NodeId as BlitzNodeId;
use blitz_traits::shell::{ColorScheme, Viewport as BlitzViewport};
use parley::PositionedLayoutItem;
use parley::fontique::{
    Blob, Collection, CollectionOptions, FontInfoOverride, GenericFamily, SourceCache, SourceKind,
};
use style::computed_values::visibility::T as Visibility;
use thiserror::Error;
use url::Url;

mod chromium_ua;
mod closed_details;
mod image_boxes;
mod line_breaks;
mod stylesheet_media;
mod svg_boxes;
mod web_root;

use chromium_ua::chromium_compat_css;
use closed_details::lay_out_closed_details_content;
use image_boxes::give_images_chromium_sizes;
use line_breaks::{TextOrigin, is_segment_break, line_break_boxes};
use stylesheet_media::move_media_into_css;
use svg_boxes::{box_svg_contents, give_svgs_natural_sizes};
use web_root::{PAGE_HOST, file_for_url};

/// Most stylesheet files one page may load (links and `@import`s together). Blitz bounds
/// `@import` depth (16) but not fan-out, so a sheet importing itself twice would otherwise
/// grow geometrically; the datasets' pages link at most 27.
const MAX_STYLESHEET_FILES: usize = 128;

/// Most stylesheet bytes one page may load: 32× the largest sheet in the datasets (0.5 MB),
/// so a runaway import chain costs a bounded amount of parsing.
const MAX_STYLESHEET_BYTES: usize = 16 * 1024 * 1024;

/// Blitz recurses once per nesting level (style, box construction, Taffy), about 2.5 KiB of
/// stack per level: an 8 MiB main-thread stack overflows between 3,000 and 4,000 nested
/// `<div>`s, and a stack overflow aborts the process rather than panicking. `ParseLimits`
/// allows 5,000 levels, so layout runs on a thread with room for several times that; the
/// memory is reserved, and only touched by deep pages.
const LAYOUT_STACK_BYTES: usize = 256 * 1024 * 1024;

/// Longest wait for one page's layout by default, as the Chromium renderer's call timeout. The
/// largest page `ParseLimits` accepts (300,000 elements) took 4.5 s; only an engine bug takes
/// this.
pub const NATIVE_LAYOUT_BUDGET: Duration = Duration::from_secs(15);

/// Why a page could not be laid out natively.
#[derive(Debug, Error)]
pub enum NativeLayoutError {
    /// Blitz panicked; the message is the panic's.
    #[error(
        "the layout engine (Blitz) panicked on this page: {0}; the page has no layout \
         (render it with Chromium instead, and keep the page as a regression case)"
    )]
    EnginePanicked(String),
    /// The page took longer than its budget ([`NATIVE_LAYOUT_BUDGET`] by default).
    #[error(
        "the layout engine (Blitz) timed out after {} s on this page and was left to finish in \
         the background (render it with Chromium instead, and keep the page as a regression case)",
        .0.as_secs_f64()
    )]
    TimedOut(Duration),
    /// The operating system refused the layout thread.
    #[error("could not start a layout thread: {0}")]
    Thread(std::io::Error),
    /// The parsed page has no element.
    #[error("the page has no elements to lay out")]
    EmptyPage,
}

/// Lays a parsed page out at `viewport` with its local CSS, as the Chromium renderer would.
/// `source` says where the page lives: its web root (where stylesheets may be read), its path
/// under the root, and an optional `<base href>` to assume.
///
/// Bounds: the page's size was capped by [`Page::parse`] (`ParseLimits`); Blitz runs on its own
/// thread, so a panic is this page's error and a page over [`NATIVE_LAYOUT_BUDGET`] returns
/// [`NativeLayoutError::TimedOut`] (Blitz cannot be cancelled: its thread finishes in the
/// background, costing one core meanwhile).
pub fn lay_out_native(
    page: &Page,
    source: &PageSource,
    viewport: Viewport,
) -> Result<Layout, NativeLayoutError> {
    lay_out_native_within(page, source, viewport, NATIVE_LAYOUT_BUDGET)
}

/// [`lay_out_native`] with a budget of its own for the page.
pub fn lay_out_native_within(
    page: &Page,
    source: &PageSource,
    viewport: Viewport,
    budget: Duration,
) -> Result<Layout, NativeLayoutError> {
    if page.dom.is_empty() {
        return Err(NativeLayoutError::EmptyPage);
    }
    let base_url = document_base_url(page, source);
    // The copy is adjusted where Blitz and Chromium would otherwise differ before layout.
    let mut copy = page.dom.clone();
    give_images_chromium_sizes(&mut copy, &base_url, source.web_root.as_deref());
    move_media_into_css(&mut copy);
    drop_unresolvable_urls(&mut copy, &base_url);
    lay_out_closed_details_content(&mut copy);
    give_svgs_natural_sizes(&mut copy);
    let html = serialize(
        &copy,
        &SerializeOptions {
            node_id_attribute: Some(NODE_ID_ATTRIBUTE),
            base_href: source.base_href.as_deref(),
        },
    );
    // Blitz sniffs for XHTML in the first line and in the root tag and then parses as XML,
    // which turns a tag-soup page into nothing. Our copy is always HTML; a line break after
    // the doctype keeps `<html xmlns="…xhtml">` (common in saved pages) out of that line.
    let html = html.replacen("<!DOCTYPE html>", "<!DOCTYPE html>\n", 1);
    let stylesheets = Arc::new(WebRootStylesheets::new(source.web_root.as_deref()));
    let element_count = page.dom.len();
    let (sender, receiver) = mpsc::channel();
    std::thread::Builder::new()
        .name("blitz-layout".into())
        .stack_size(LAYOUT_STACK_BYTES)
        .spawn(move || {
            let layout = catch_unwind(AssertUnwindSafe(|| {
                lay_out_html(&html, base_url, stylesheets, element_count, viewport)
            }));
            // The caller may have stopped waiting; then nobody needs this page any more.
            let _ = sender.send(layout);
        })
        .map_err(NativeLayoutError::Thread)?;
    let mut layout = match receiver.recv_timeout(budget) {
        Ok(Ok(layout)) => layout,
        Ok(Err(payload)) => {
            return Err(NativeLayoutError::EnginePanicked(panic_message(
                payload.as_ref(),
            )));
        }
        Err(_) => return Err(NativeLayoutError::TimedOut(budget)),
    };
    box_table_groups(&page.dom, &mut layout.boxes);
    box_svg_contents(&page.dom, &mut layout.boxes);
    Ok(layout)
}

/// Blitz panics on a stylesheet `href` or image `src` it cannot resolve (`http://[`), where
/// Chromium just fails that one load; the copy goes without such URLs (an image's box was
/// already given by `image_boxes`).
fn drop_unresolvable_urls(dom: &mut Dom, base_url: &Url) {
    for element in &mut dom.elements {
        let url_attribute = match element.tag.as_str() {
            "link" => "href",
            "img" => "src",
            _ => continue,
        };
        element
            .attributes
            .retain(|(name, value)| name != url_attribute || base_url.join(value.trim()).is_ok());
    }
}

/// Parses, styles and lays out the tagged copy with Blitz and reads its boxes.
fn lay_out_html(
    html: &str,
    base_url: Url,
    stylesheets: Arc<WebRootStylesheets>,
    element_count: usize,
    viewport: Viewport,
) -> Layout {
    let fonts = CHROMIUM_FONTS
        .lock()
        .map(|fonts| fonts.clone())
        .unwrap_or_else(|poisoned| poisoned.into_inner().clone());
    let mut document = HtmlDocument::from_html(
        html,
        DocumentConfig {
            viewport: Some(BlitzViewport::new(
                viewport.width,
                viewport.height,
                1.0,
                ColorScheme::Light,
            )),
            base_url: Some(base_url.to_string()),
            net_provider: Some(stylesheets),
            font_ctx: Some(fonts),
            ua_stylesheets: vec![
                UserAgentStylesheet::default_sheet(),
                CHROMIUM_COMPAT.clone(),
            ],
            // One page per thread: callers parallelise over pages, and Stylo's shared pool
            // panics when two documents resolve on it at once.
            style_threading: StyleThreading::Sequential,
            ..DocumentConfig::default()
        },
    );
    // Stylesheets were answered synchronously during parsing, so one resolve sees them all.
    document.resolve(0.0);
    read_layout(&document, element_count, viewport)
}

/// The URL relative references resolve against, as Chromium sees the page through the gate:
/// the page served at its path on its own host, then its `<base href>` (or the one the source
/// asks to insert). Blitz ignores `<base>` and panics on a URL it cannot join to, so the base
/// is computed here and always hierarchical.
fn document_base_url(page: &Page, source: &PageSource) -> Url {
    let path = if source.path_in_root.starts_with('/') {
        source.path_in_root.clone()
    } else {
        format!("/{}", source.path_in_root)
    };
    let origin = Url::parse(&format!("http://{PAGE_HOST}/")).expect("a constant, valid URL");
    let served = origin.join(&path).unwrap_or(origin);
    let base_href = page
        .dom
        .ids()
        .map(|id| page.dom.element(id))
        .find(|element| element.tag == "base" && element.attribute("href").is_some())
        .and_then(|element| element.attribute("href"))
        .or(source.base_href.as_deref());
    base_href
        .and_then(|href| served.join(href.trim()).ok())
        .filter(|base| !base.cannot_be_a_base())
        .unwrap_or(served)
}

/// Walks the laid-out tree once: every box Blitz built, plus the inline elements Parley
/// flattened into their inline root's text (they have no box of their own). Walking the layout
/// tree, not the DOM, is what leaves elements under `display: none` (which Stylo never styles)
/// and inside replaced elements (`<select>` options) without a box, as in Chromium.
fn read_layout(document: &BaseDocument, element_count: usize, viewport: Viewport) -> Layout {
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

/// The box of every inline element in one inline root, in one pass over its text layout: as
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
    for line in text.layout.lines() {
        for item in line.items() {
            match item {
                PositionedLayoutItem::GlyphRun(glyph_run) => {
                    let fragment = origin.text_box(
                        glyph_run.offset(),
                        glyph_run.baseline(),
                        glyph_run.run().font_metrics(),
                        glyph_run.advance(),
                    );
                    add(glyph_run.style().brush.id, fragment);
                }
                PositionedLayoutItem::InlineBox(inline_box) => {
                    let fragment = LayoutBox {
                        x: origin.x + f64::from(inline_box.x) / origin.scale,
                        y: origin.y + f64::from(inline_box.y) / origin.scale,
                        width: f64::from(inline_box.width) / origin.scale,
                        height: f64::from(inline_box.height) / origin.scale,
                    };
                    // The atomic box has its own layout box; its inline ancestors contain it.
                    let box_id = BlitzNodeId::from_u64(inline_box.id);
                    if let Some(parent) = document.get_node(box_id).and_then(|node| node.parent) {
                        add(parent, fragment);
                    }
                }
            }
        }
    }
    if text.text.contains(is_segment_break) {
        for (line_break, fragment) in line_break_boxes(document, inline_root, &text.layout, origin)
        {
            add(line_break, fragment);
        }
    }
    boxes
}

/// Blitz lays table cells out directly under the table, so rows and row groups get no box of
/// their own; Chromium's are the union of their cells (and rows), which is what is given here.
fn box_table_groups(dom: &Dom, boxes: &mut [Option<LayoutBox>]) {
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

/// Chromium's user-agent behaviour that Blitz's own sheet lacks (see [`chromium_compat_css`]).
static CHROMIUM_COMPAT: LazyLock<UserAgentStylesheet> =
    LazyLock::new(|| UserAgentStylesheet::parse(&chromium_compat_css()));

/// Discovering system fonts and registering aliases costs milliseconds; each page gets a clone
/// of the finished collection.
static CHROMIUM_FONTS: LazyLock<Mutex<FontContext>> =
    LazyLock::new(|| Mutex::new(chromium_fonts()));

/// Which installed family Chromium on Linux uses for a generic family (its default font
/// settings, resolved through fontconfig): fontconfig's own generic defaults differ (DejaVu),
/// and DejaVu Sans sets text ~12% wider than Liberation Sans, which moves every line break.
const CHROMIUM_GENERIC_FAMILIES: &[(GenericFamily, &str)] = &[
    (GenericFamily::Serif, "Liberation Serif"),
    (GenericFamily::SansSerif, "Liberation Sans"),
    (GenericFamily::SystemUi, "Liberation Sans"),
    (GenericFamily::Monospace, "DejaVu Sans Mono"),
];

/// Web-font names that fontconfig answers with a metric-compatible installed family, which
/// Chromium accepts as that font. Fontique only knows installed names, so the installed
/// family is registered again under each alias.
const METRIC_ALIASES: &[(&str, &str)] = &[
    ("Arial", "Liberation Sans"),
    ("Helvetica", "Liberation Sans"),
    ("Times New Roman", "Liberation Serif"),
    ("Times", "Liberation Serif"),
    ("Courier New", "Liberation Mono"),
    ("Courier", "Liberation Mono"),
];

fn chromium_fonts() -> FontContext {
    let mut collection = Collection::new(CollectionOptions {
        shared: false,
        system_fonts: true,
    });
    // Blitz draws list markers with its own bullet font; supplying a font context skips
    // Blitz's registration of it.
    collection.register_fonts(Blob::new(Arc::new(BULLET_FONT)), None);
    for (generic, family) in CHROMIUM_GENERIC_FAMILIES {
        if let Some(id) = collection.family_id(family) {
            collection.set_generic_families(*generic, std::iter::once(id));
        }
    }
    for (alias, family) in METRIC_ALIASES {
        if collection.family_id(alias).is_some() {
            continue;
        }
        let Some(installed) = collection.family_by_name(family) else {
            continue;
        };
        for font in installed.fonts() {
            let SourceKind::Path(path) = &font.source().kind else {
                continue;
            };
            let Ok(bytes) = std::fs::read(path) else {
                continue;
            };
            let info = FontInfoOverride {
                family_name: Some(alias),
                ..FontInfoOverride::default()
            };
            collection.register_fonts(Blob::new(Arc::new(bytes)), Some(info));
        }
    }
    FontContext {
        collection,
        source_cache: SourceCache::new_shared(),
    }
}

fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|message| (*message).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_string())
}

/// Blitz's only way to the outside: answers every request at once, with the file's bytes when
/// the URL names a stylesheet under the web root and with nothing otherwise. Answering every
/// request matters: Blitz holds layout back while a `<head>` stylesheet is pending.
struct WebRootStylesheets {
    web_root: Option<PathBuf>,
    files_served: AtomicUsize,
    bytes_served: AtomicUsize,
}

impl WebRootStylesheets {
    fn new(web_root: Option<&Path>) -> WebRootStylesheets {
        WebRootStylesheets {
            web_root: web_root.and_then(|root| root.canonicalize().ok()),
            files_served: AtomicUsize::new(0),
            bytes_served: AtomicUsize::new(0),
        }
    }

    fn stylesheet(&self, url: &Url) -> Option<Vec<u8>> {
        let file = file_for_url(self.web_root.as_deref()?, url)?;
        if !may_be_stylesheet(&file) {
            return None;
        }
        let bytes = std::fs::read(&file).ok()?;
        if !looks_like_css(&bytes) {
            return None;
        }
        let files = self.files_served.fetch_add(1, Ordering::Relaxed) + 1;
        let total = self.bytes_served.fetch_add(bytes.len(), Ordering::Relaxed) + bytes.len();
        (files <= MAX_STYLESHEET_FILES && total <= MAX_STYLESHEET_BYTES).then_some(bytes)
    }
}

impl NetProvider for WebRootStylesheets {
    fn fetch(&self, _document_id: usize, request: Request, handler: Box<dyn NetHandler>) {
        let bytes = self.stylesheet(&request.url).unwrap_or_default();
        handler.bytes(request.url.to_string(), Bytes::from(bytes));
    }
}

/// Requests do not say what they are for, so files whose names say they are something else
/// (images, fonts, scripts, documents) are refused by name: Blitz would decode images and
/// fonts we do not want to pay for.
fn may_be_stylesheet(file: &Path) -> bool {
    const OTHER_KINDS: &[&str] = &[
        "png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "bmp", "ico", "woff", "woff2", "ttf",
        "otf", "eot", "js", "mjs", "json", "html", "htm", "xhtml", "xml", "pdf",
    ];
    let name = file
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("");
    // wget keeps a query in saved names (`style.css?v=2`): the real extension is before it.
    let before_query = name.split('?').next().unwrap_or(name);
    let extension = Path::new(before_query)
        .extension()
        .and_then(|extension| extension.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    !OTHER_KINDS.contains(&extension.as_str())
}

/// CSS is text that does not start with markup; this refuses unnamed images and error pages.
fn looks_like_css(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    !text.contains('\0')
        && !text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with('<')
}
