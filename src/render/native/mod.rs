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
//! `@import` files found under the page's web root, mapped the way the Chromium gate maps URLs,
//! or archived with the page (`PageSource::stylesheets`, a crawl's CSS by URL). Nothing ever
//! reaches the network: Blitz fetches through a `NetProvider`, and ours (`web_root`) only
//! reads those two. Images are not decoded; `image_boxes` gives
//! them Chromium's sizes.
//!
//! Bounds: a layout's memory is estimated before it starts and held to a budget (`estimate`,
//! `budget`), and a layout past its time budget stops at the end of its current stage
//! (`stages`), so no page's work outlives its call (but freeing a finished page's document, on
//! the layout thread before its next page: `layout_thread`).
//!
//! What calls Blitz lives in this file and in `document` (Blitz's tree, built from our copy),
//! `stages` (the stages of `resolve`), `read_boxes` and `line_breaks` (its laid-out tree and
//! Parley's lines) and `web_root` (the `NetProvider`), so moving to a newer Blitz changes those (and drops `stylesheet_media` once Blitz honours
//! `media`). The other modules state what Chromium does that Blitz does not, in
//! Blitz-independent terms (a DOM copy, a UA stylesheet, boxes computed from the DOM).

use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use crate::layout::{Layout, Viewport};
use crate::page::PageSource;
use crate::page::{Dom, Page, SerializeOptions};
use crate::render::NODE_ID_ATTRIBUTE;
use blitz_dom::{
    BULLET_FONT, BaseDocument, DocumentConfig, FontContext, StyleThreading, UserAgentStylesheet,
};
use blitz_traits::shell::{ColorScheme, Viewport as BlitzViewport};
use parley::fontique::{
    Blob, Collection, CollectionOptions, FontInfoOverride, GenericFamily, Script, SourceCache,
    SourceKind,
};
use thiserror::Error;
use url::Url;

mod budget;
mod chromium_ua;
mod closed_details;
mod closed_panels;
mod document;
mod estimate;
mod image_boxes;
mod layout_thread;
mod line_breaks;
mod read_boxes;
mod reveal;
mod scripts;
mod stages;
mod stylesheet_media;
mod svg_boxes;
mod web_root;

pub use budget::{NATIVE_LAYOUT_BUDGET, NativeBudget, NativeLaidOut, WithoutStylesheets};
pub use estimate::{DEFAULT_LAYOUT_MEMORY_MIB, LAYOUT_MEMORY_MIB_RANGE, LayoutCost};
pub use stages::LayoutStage;
pub(crate) use web_root::archived_url;

use budget::Answer;
use chromium_ua::chromium_compat_css;
use closed_details::lay_out_closed_details_content;
use closed_panels::lay_out_closed_panels;
use document::build_document;
use estimate::{LayoutPlan, drop_stylesheets, plan};
use image_boxes::give_images_chromium_sizes;
use layout_thread::run_on_layout_thread;
use read_boxes::{box_table_groups, read_layout};
use reveal::{Reveal, what_to_reveal, words_and_shown_words};
use scripts::page_scripts;
use stages::{StopSignal, Stopped, resolve_in_stages};
use stylesheet_media::move_media_into_css;
use svg_boxes::{box_svg_contents, give_svgs_natural_sizes};
use web_root::{LocalStylesheets, PAGE_HOST, StylesheetSources};

/// Why a page could not be laid out natively.
#[derive(Debug, Error)]
pub enum NativeLayoutError {
    /// Blitz panicked; the message is the panic's.
    #[error(
        "the layout engine (Blitz) panicked on this page: {0}; the page has no layout \
         (render it with Chromium instead, and keep the page as a regression case)"
    )]
    EnginePanicked(String),
    /// The page took longer than its budget ([`NATIVE_LAYOUT_BUDGET`] by default); the layout
    /// was stopped at the end of the stage it was in, and nothing of it is left running.
    #[error(
        "the layout engine (Blitz) took longer than {} s on this page and was stopped at the \
         end of its {} stage, after {:.1} s (render it with Chromium instead, and keep the page \
         as a regression case)",
        budget.as_secs_f64(),
        stopped_after.name(),
        stopped_at.as_secs_f64()
    )]
    TimedOut {
        /// The page's budget.
        budget: Duration,
        /// The stage that was running when the budget ran out.
        stopped_after: LayoutStage,
        /// When the layout had stopped, from its start.
        stopped_at: Duration,
    },
    /// Even without its stylesheets, laying the page out would exceed the memory budget.
    #[error(
        "laying this page out would take about {} MiB ({} elements, {} KB of text) even \
         without its stylesheets, over the layout memory budget of {} MiB (raise \
         --max-layout-memory, or lay it out with --layout chromium)",
        cost.without_stylesheets().memory_bytes() / (1024 * 1024),
        cost.elements,
        cost.text_bytes / 1000,
        budget_bytes / (1024 * 1024)
    )]
    OverMemoryBudget {
        /// What the page would cost.
        cost: LayoutCost,
        /// The memory budget, bytes.
        budget_bytes: u64,
    },
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
/// Bounds: the page's size was capped by [`Page::parse`] (`ParseLimits`); the default
/// [`NativeBudget`] applies (see [`lay_out_native_within`]).
pub fn lay_out_native(
    page: &Page,
    source: &PageSource,
    viewport: Viewport,
) -> Result<Layout, NativeLayoutError> {
    lay_out_native_within(page, source, viewport, &NativeBudget::default())
        .map(|laid_out| laid_out.layout)
}

/// [`lay_out_native`] within a budget of the page's own. Memory: a page whose estimated layout
/// exceeds `budget.memory_bytes` is laid out without its stylesheets when that brings it under
/// (the result says so), and refused with [`NativeLayoutError::OverMemoryBudget`] otherwise.
/// Time: Blitz runs on the caller's layout thread (`layout_thread`), so a panic is this page's
/// error; past `budget.time` the
/// layout stops at the end of its current stage and the page fails with
/// [`NativeLayoutError::TimedOut`], nothing of it left running.
///
/// A page whose layout shows under a fifth of its text, or leaves its main landmark hidden,
/// until scripts would show it, is laid out again with what those scripts reveal (`reveal`),
/// in what is left of the time budget, and that layout kept when it shows more.
pub fn lay_out_native_within(
    page: &Page,
    source: &PageSource,
    viewport: Viewport,
    budget: &NativeBudget,
) -> Result<NativeLaidOut, NativeLayoutError> {
    let started = Instant::now();
    let as_served = lay_out_pass(page, source, viewport, budget, None)?;
    let Some(reveal) = what_to_reveal(&page.dom, &as_served.layout) else {
        return Ok(as_served);
    };
    let left = NativeBudget {
        time: budget.time.saturating_sub(started.elapsed()),
        ..*budget
    };
    match lay_out_pass(page, source, viewport, &left, Some(reveal)) {
        Ok(revealed)
            if words_and_shown_words(&page.dom, &revealed.layout).1
                > words_and_shown_words(&page.dom, &as_served.layout).1 =>
        {
            Ok(revealed)
        }
        _ => Ok(as_served),
    }
}

/// One layout of the page: as served, or with what its scripts would reveal.
fn lay_out_pass(
    page: &Page,
    source: &PageSource,
    viewport: Viewport,
    budget: &NativeBudget,
    reveal: Option<Reveal>,
) -> Result<NativeLaidOut, NativeLayoutError> {
    if page.dom.is_empty() {
        return Err(NativeLayoutError::EmptyPage);
    }
    let base_url = document_base_url(page, source);
    let sources = StylesheetSources::of(source);
    let cost = LayoutCost::of(page, &base_url, &sources);
    let without_stylesheets = match plan(cost, budget.memory_bytes) {
        LayoutPlan::Full => None,
        LayoutPlan::WithoutStylesheets => Some(WithoutStylesheets {
            cost,
            budget_bytes: budget.memory_bytes,
        }),
        LayoutPlan::Refused => {
            return Err(NativeLayoutError::OverMemoryBudget {
                cost,
                budget_bytes: budget.memory_bytes,
            });
        }
    };
    // The copy is adjusted where Blitz and Chromium would otherwise differ before layout.
    let mut copy = page.dom.clone();
    if without_stylesheets.is_some() {
        drop_stylesheets(&mut copy);
    }
    give_images_chromium_sizes(&mut copy, &base_url, source.web_root.as_deref());
    move_media_into_css(&mut copy);
    drop_unresolvable_urls(&mut copy, &base_url);
    lay_out_closed_details_content(&mut copy);
    lay_out_closed_panels(&mut copy);
    give_svgs_natural_sizes(&mut copy);
    // Blitz's own copy of the page is built from ours, tagged with our ids (`document`).
    let base_href = source.base_href.clone();
    let stylesheets = PageStylesheets {
        linked: Arc::new(LocalStylesheets::new(
            if without_stylesheets.is_none() {
                sources
            } else {
                StylesheetSources::none()
            },
            cost.stylesheet_allowance(budget.memory_bytes),
        )),
        reveal,
    };
    let element_count = page.dom.len();
    let started = Instant::now();
    let answer = run_on_layout_thread(
        move |stop, reply| {
            match lay_out_copy(
                &copy,
                base_href.as_deref(),
                base_url,
                stylesheets,
                element_count,
                viewport,
                stop,
            ) {
                Ok((layout, document)) => {
                    // Freeing Blitz's document is no part of the answer (`layout_thread`).
                    reply.send(Ok(layout));
                    drop(document);
                }
                Err(stopped) => reply.send(Err(stopped)),
            }
        },
        budget.time,
    )?;
    let mut layout = match answer {
        Answer::InTime(Ok(Ok(layout))) => layout,
        Answer::InTime(Err(payload)) | Answer::Late(Err(payload)) => {
            return Err(NativeLayoutError::EnginePanicked(panic_message(
                payload.as_ref(),
            )));
        }
        Answer::Late(Ok(stopped)) | Answer::InTime(Ok(stopped)) => {
            return Err(NativeLayoutError::TimedOut {
                budget: budget.time,
                // A layout that finished after its budget had run out was in its last stage.
                stopped_after: stopped.err().map_or(LayoutStage::LayingOut, |at| at.after),
                stopped_at: started.elapsed(),
            });
        }
        Answer::Lost => {
            return Err(NativeLayoutError::EnginePanicked(
                "the layout thread ended without a result".into(),
            ));
        }
    };
    box_table_groups(&page.dom, &mut layout.boxes);
    box_svg_contents(&page.dom, &mut layout.boxes);
    Ok(NativeLaidOut {
        layout,
        without_stylesheets,
    })
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

/// The sheets a page is styled with besides its own `<style>`s: its linked and imported ones
/// (from the web root and the archived sheets only) and, with the user agent's, what its
/// scripts would reveal.
struct PageStylesheets {
    linked: Arc<LocalStylesheets>,
    reveal: Option<Reveal>,
}

/// Builds Blitz's document of the copy, styles and lays it out, and reads its boxes (the
/// document is returned to be freed after the answer), unless `stop` is asked for first.
fn lay_out_copy(
    copy: &Dom,
    base_href: Option<&str>,
    base_url: Url,
    stylesheets: PageStylesheets,
    element_count: usize,
    viewport: Viewport,
    stop: &StopSignal,
) -> Result<(Layout, BaseDocument), Stopped> {
    let options = SerializeOptions {
        node_id_attribute: Some(NODE_ID_ATTRIBUTE),
        base_href,
    };
    let fonts = fonts_for_page(page_scripts(copy, &options));
    let mut document = build_document(
        copy,
        &options,
        DocumentConfig {
            viewport: Some(BlitzViewport::new(
                viewport.width,
                viewport.height,
                1.0,
                ColorScheme::Light,
            )),
            base_url: Some(base_url.to_string()),
            net_provider: Some(stylesheets.linked),
            font_ctx: Some(fonts),
            ua_stylesheets: [
                UserAgentStylesheet::default_sheet(),
                CHROMIUM_COMPAT.clone(),
            ]
            .into_iter()
            .chain(
                stylesheets
                    .reveal
                    .map(|reveal| REVEAL[reveal as usize].clone()),
            )
            .collect(),
            // One page per thread: callers parallelise over pages, and Stylo's shared pool
            // panics when two documents resolve on it at once.
            style_threading: StyleThreading::Sequential,
            ..DocumentConfig::default()
        },
    );
    resolve_in_stages(&mut document, stop)?;
    let layout = read_layout(&document, element_count, viewport);
    Ok((layout, document))
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

/// Chromium's user-agent behaviour that Blitz's own sheet lacks (see [`chromium_compat_css`]).
static CHROMIUM_COMPAT: LazyLock<UserAgentStylesheet> =
    LazyLock::new(|| UserAgentStylesheet::parse(&chromium_compat_css()));

/// What a page's scripts would show (see [`reveal`]), in the order of [`Reveal`]'s variants.
static REVEAL: LazyLock<[UserAgentStylesheet; 3]> = LazyLock::new(|| {
    [
        Reveal::Scripted,
        Reveal::ScriptedAndFaded,
        Reveal::ScriptedAndMain,
    ]
    .map(|reveal| UserAgentStylesheet::parse(&reveal.css()))
});

/// Discovering system fonts and registering aliases costs milliseconds; each page gets a clone
/// of the finished collection.
static CHROMIUM_FONTS: LazyLock<Mutex<FontContext>> =
    LazyLock::new(|| Mutex::new(chromium_fonts()));

/// A copy of the shared font collection for one page, after filling in the fallback fonts of
/// every script of the page (`scripts`, [`page_scripts`]) that the collection had not met yet.
///
/// Parley asks the collection for a script's fallback fonts at every change of script in a
/// text (a list marker, or digits between words, are `Zyyy`; Japanese alternates `Hani`,
/// `Hira` and `Kana`), keyed by script and the page's `lang`. Fontique keeps the system's
/// answer only for a script alone or for the few languages it tracks per script; for any other
/// (`lang="en"` on a Latin page) it asked fontconfig again at every change, ~0.3 ms a time:
/// 21% of all instructions on the benchmark pages, and 0.25 M instructions per list marker.
/// An untracked language gets the script's own answer, so asking once here for the script
/// alone fills the entry every later copy finds: no font changes, only who asks and how often.
fn fonts_for_page(scripts: Vec<Script>) -> FontContext {
    let mut fonts = CHROMIUM_FONTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    for script in scripts.into_iter().chain(ASCII_SCRIPTS) {
        // Asking is what fills the entry (a lookup once it is there).
        let _ = fonts.collection.fallback_families(script).count();
    }
    fonts.clone()
}

/// The scripts of ASCII text, which [`page_scripts`] leaves out: Latin letters, and
/// digits, spaces and punctuation (`Zyyy`, as are list markers).
const ASCII_SCRIPTS: [Script; 2] = [Script::from_bytes(*b"Latn"), Script::COMMON];

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

/// The font families native layout sets text in as Chromium on Linux does
/// ([`CHROMIUM_GENERIC_FAMILIES`]) that this machine lacks. Without them fontconfig's defaults
/// (DejaVu, ~12% wider) move every line break, so boxes differ from those the shipped model was
/// trained on; Debian's `fonts-liberation` and `fonts-dejavu-core` provide them.
pub fn missing_layout_fonts() -> Vec<&'static str> {
    let mut fonts = CHROMIUM_FONTS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let mut missing: Vec<&'static str> = CHROMIUM_GENERIC_FAMILIES
        .iter()
        .map(|(_, family)| *family)
        .filter(|family| fonts.collection.family_id(family).is_none())
        .collect();
    missing.dedup();
    missing
}

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
