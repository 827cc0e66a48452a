//! Rendering: a parsed page is serialized with every element tagged by its NodeId, laid out in
//! headless Chromium behind the network gate, and measured in one in-page walk; the boxes are
//! joined back to our DOM by id. A [`Renderer`] keeps one browser for many pages, relaunches it
//! when it hangs (the page is reported failed, the batch goes on) or is lost (the page is tried
//! once more in a new browser), and caches layouts. No browser outlives the process
//! (`browser/process.rs`).
//!
//! The DevTools driver (headless_chrome, in `browser/`) is the `chromium` feature, on by
//! default. The main job (native layout) never runs it, and a cold build without it takes 16 %
//! less CPU and 20 % less wall time (`training/reports/build/`); without it,
//! `without_browser.rs` takes its place and [`Renderer::new`] refuses with
//! [`RenderError::NotBuiltIn`]. This file is the only one that looks at the feature.

#[cfg(feature = "chromium")]
mod browser;
#[cfg(not(feature = "chromium"))]
#[path = "without_browser.rs"]
mod browser;
mod cache;
mod chromium;
mod gate;
mod native;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use thiserror::Error;
use url::Url;

use crate::layout::{LaidOut, LaidOutPage, Layout, LayoutError, LayoutSource, VIEWPORT, Viewport};
use crate::page::{
    ArchivedStylesheets, Dom, Page, PageError, PageSource, ParseLimits, SerializeOptions,
    linked_stylesheet_urls, serialize,
};

pub use browser::stop_all_browsers;
pub use cache::{LayoutCache, cache_key};
pub use chromium::{chromium_identity, find_chromium};
pub use gate::Gate;
pub use native::{
    DEFAULT_LAYOUT_MEMORY_MIB, LAYOUT_MEMORY_MIB_RANGE, LayoutCost, LayoutStage,
    NATIVE_LAYOUT_BUDGET, NativeBudget, NativeLaidOut, NativeLayoutError, WithoutStylesheets,
    lay_out_native, lay_out_native_within, missing_layout_fonts,
};

/// The attribute that carries each element's NodeId into the layout engine (Chromium's page,
/// Blitz's document).
pub const NODE_ID_ATTRIBUTE: &str = "data-pagelevel-id";

/// Screenshots stop this far down a page: enough to judge a page's template, and a report
/// stays a few megabytes.
pub const SCREENSHOT_MAX_HEIGHT: f64 = 6000.0;

use browser::BrowserSession;
use gate::ServedPage;

/// Why a page could not be rendered.
#[derive(Debug, Error)]
pub enum RenderError {
    /// The page itself was refused before rendering (empty, binary, beyond the limits).
    #[error(transparent)]
    Page(#[from] PageError),
    /// No Chromium binary where one was looked for; says where.
    #[error("Chromium not found: {0}")]
    NoChromium(String),
    /// The browser process did not start or its DevTools connection failed.
    #[error("could not start Chromium: {0}")]
    Launch(String),
    /// The browser hung, crashed or refused this page; the next page gets a new browser.
    #[error("the browser failed on this page (it was restarted): {0}")]
    Browser(String),
    /// This pagelevel was built without the DevTools driver (the `chromium` feature).
    #[error(
        "this pagelevel was built without Chromium support (the `chromium` feature is off): \
         rebuild it with `cargo build --release --features chromium`, or use the default \
         native layout (--layout native)"
    )]
    NotBuiltIn,
    /// The loopback proxy every browser request goes through could not listen.
    #[error("could not start the local network gate: {0}")]
    Gate(std::io::Error),
}

/// How pages are rendered.
#[derive(Debug, Clone)]
pub struct RenderOptions {
    /// Chromium binary; found on the PATH when `None`.
    pub chromium: Option<PathBuf>,
    /// Run the page's own scripts (off by default: deterministic and safe).
    pub javascript: bool,
    /// Longest wait for a page's load event; after it the page is measured as it is.
    pub load_budget: Duration,
    /// Longest a single browser call may take before the browser is declared hung.
    pub call_timeout: Duration,
    /// The window pages are laid out in ([`VIEWPORT`] by default).
    pub viewport: Viewport,
    /// Layout cache; `None` renders every page afresh.
    pub cache: Option<LayoutCache>,
    /// Pages beyond these limits are refused before rendering.
    pub limits: ParseLimits,
    /// Take a screenshot of every page (for the HTML report); such pages bypass the cache.
    pub screenshot: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            chromium: None,
            javascript: false,
            load_budget: Duration::from_secs(3),
            call_timeout: Duration::from_secs(15),
            viewport: VIEWPORT,
            cache: None,
            limits: ParseLimits::default(),
            screenshot: false,
        }
    }
}

/// Renders pages with one reused browser.
pub struct Renderer {
    options: RenderOptions,
    chromium: PathBuf,
    /// The Chromium build, part of every cache key ([`chromium_identity`]).
    chromium_identity: String,
    gate: Gate,
    session: Option<BrowserSession>,
    browser_launches: u64,
}

impl Renderer {
    /// Finds Chromium and starts the network gate; the browser itself starts on first use.
    /// Without the `chromium` feature: [`RenderError::NotBuiltIn`], whatever is installed.
    pub fn new(options: RenderOptions) -> Result<Renderer, RenderError> {
        if cfg!(not(feature = "chromium")) {
            return Err(RenderError::NotBuiltIn);
        }
        let chromium = find_chromium(options.chromium.as_deref())?;
        let gate = Gate::start().map_err(RenderError::Gate)?;
        Ok(Renderer {
            options,
            chromium_identity: chromium_identity(&chromium),
            chromium,
            gate,
            session: None,
            browser_launches: 0,
        })
    }

    /// The network gate, to inspect how many requests it refused.
    pub fn gate(&self) -> &Gate {
        &self.gate
    }

    /// How many browsers this renderer started: the first, and one per relaunch after a hung
    /// or lost browser.
    pub fn browser_launches(&self) -> u64 {
        self.browser_launches
    }

    /// Parses and renders one page (or takes its layout from the cache).
    pub fn render(&mut self, source: &PageSource) -> Result<LaidOutPage, RenderError> {
        let parse_started = Instant::now();
        let page = Page::parse(
            &source.bytes,
            source.url.clone(),
            source.http_charset.as_deref(),
            &self.options.limits,
        )?;
        let parse_ms = parse_started.elapsed().as_secs_f64() * 1000.0;
        let started = Instant::now();
        let laid_out = self.render_parsed(&page, source)?;
        Ok(LaidOutPage {
            page,
            layout: laid_out.layout,
            layout_ms: if laid_out.from_cache {
                0.0
            } else {
                started.elapsed().as_secs_f64() * 1000.0
            },
            parse_ms,
            screenshot: laid_out.screenshot,
            from_cache: laid_out.from_cache,
            warning: laid_out.warning,
        })
    }

    /// Renders a parsed page (or takes its layout from the cache).
    pub fn render_parsed(
        &mut self,
        page: &Page,
        source: &PageSource,
    ) -> Result<LaidOut, RenderError> {
        let key = self.cache_key(source, page, page.encoding);
        // A screenshot needs the page in the browser, so such renders skip the cache.
        let cache = self
            .options
            .cache
            .as_ref()
            .filter(|_| !self.options.screenshot);
        if let Some(layout) = cache.and_then(|cache| cache.load(&key))
            && layout.boxes.len() == page.dom.len()
        {
            return Ok(LaidOut {
                layout,
                screenshot: None,
                from_cache: true,
                warning: None,
            });
        }
        let (layout, screenshot) = self.lay_out_in_browser(page, source)?;
        if let Some(cache) = &self.options.cache {
            // A cache that cannot be written only costs a re-render later.
            let _ = cache.store(&key, &layout);
        }
        Ok(LaidOut {
            layout,
            screenshot,
            from_cache: false,
            warning: None,
        })
    }

    fn cache_key(&self, source: &PageSource, page: &Page, encoding: &str) -> String {
        let url = source.url.as_ref().map(Url::as_str).unwrap_or("");
        let root = source
            .web_root
            .as_ref()
            .map(|root| root.to_string_lossy().into_owned())
            .unwrap_or_default();
        let viewport = format!(
            "{}x{}",
            self.options.viewport.width, self.options.viewport.height
        );
        // The archived sheets the page links (not those they import) are part of its input.
        let mut linked = Vec::new();
        if let Some(sheets) = &source.stylesheets {
            for url in linked_stylesheet_urls(page) {
                if let Some(sheet) = sheets.get(&url) {
                    linked.extend_from_slice(url.as_str().as_bytes());
                    linked.extend_from_slice(&sheet.css);
                }
            }
        }
        let javascript = [u8::from(self.options.javascript)];
        let mut parts: Vec<&[u8]> = vec![
            &source.bytes,
            url.as_bytes(),
            encoding.as_bytes(),
            root.as_bytes(),
            source.path_in_root.as_bytes(),
            source.base_href.as_deref().unwrap_or("").as_bytes(),
            &javascript,
            viewport.as_bytes(),
            self.chromium_identity.as_bytes(),
        ];
        // Keys of pages without archived sheets stay those of earlier caches.
        if !linked.is_empty() {
            parts.push(&linked);
        }
        cache_key(&parts)
    }

    fn lay_out_in_browser(
        &mut self,
        page: &Page,
        source: &PageSource,
    ) -> Result<(Layout, Option<Vec<u8>>), RenderError> {
        let host = self.gate.new_host();
        let archived = source.stylesheets.clone().zip(source.url.clone());
        let routed;
        let dom = match &archived {
            Some((sheets, _)) => {
                routed = link_archived_stylesheets(page, sheets, &host);
                &routed
            }
            None => &page.dom,
        };
        let html = serialize(
            dom,
            &SerializeOptions {
                node_id_attribute: Some(NODE_ID_ATTRIBUTE),
                base_href: source.base_href.as_deref(),
            },
        );
        let path = if source.path_in_root.starts_with('/') {
            source.path_in_root.clone()
        } else {
            format!("/{}", source.path_in_root)
        };
        let url = Url::parse(&format!("http://{host}/"))
            .and_then(|origin| origin.join(&path))
            .map_err(|error| RenderError::Browser(format!("bad page path {path}: {error}")))?;
        self.gate.publish(
            &host,
            ServedPage {
                page_path: url.path().to_string(),
                html: Arc::new(html.into_bytes()),
                web_root: source.web_root.clone(),
                stylesheets: archived,
                scripts_allowed: self.options.javascript,
            },
        );
        let (viewport, load_budget) = (self.options.viewport, self.options.load_budget);
        let (screenshot, page_scripts) = (self.options.screenshot, self.options.javascript);
        let measure = |session: &BrowserSession| {
            let layout = session.lay_out(
                url.as_str(),
                page.dom.len(),
                viewport,
                load_budget,
                page_scripts,
            )?;
            let picture = if screenshot {
                let height = layout.page_height.clamp(1.0, SCREENSHOT_MAX_HEIGHT);
                Some(session.screenshot(layout.page_width.max(1.0), height)?)
            } else {
                None
            };
            Ok((layout, picture))
        };
        let mut result = self.session().and_then(measure);
        if result.is_err() && self.session.as_ref().is_some_and(BrowserSession::is_lost) {
            // The browser was killed or crashed, or headless_chrome dropped a connection idle
            // for `call_timeout` (e.g. while a caller computed between pages): no fault of this
            // page, so a new browser tries it once more.
            self.session = None;
            result = self.session().and_then(measure);
        }
        self.gate.withdraw(&host);
        if result.is_err() {
            // The browser may be hung or dead: the next page gets a new one.
            self.session = None;
        }
        result
    }

    fn session(&mut self) -> Result<&BrowserSession, RenderError> {
        if self.session.is_none() {
            self.session = Some(BrowserSession::launch(
                &self.chromium,
                self.gate.address(),
                self.options.viewport,
                self.options.call_timeout,
            )?);
            self.browser_launches += 1;
        }
        self.session
            .as_ref()
            .ok_or_else(|| RenderError::Launch("the browser did not start".into()))
    }
}

/// The page's DOM with each stylesheet link whose sheet is archived pointed at where the gate
/// serves it on the page's `served_host` ([`gate::archived_stylesheet_url`]); the link keeps
/// its place and `media`, so the cascade is the page's.
fn link_archived_stylesheets(page: &Page, sheets: &ArchivedStylesheets, served_host: &str) -> Dom {
    let mut dom = page.dom.clone();
    let Some(base) = page.base_url() else {
        return dom;
    };
    for element in dom
        .elements
        .iter_mut()
        .filter(|element| element.is_stylesheet_link())
    {
        let served = element
            .attribute("href")
            .and_then(|href| base.join(href.trim()).ok())
            .filter(|url| sheets.get(url).is_some())
            .and_then(|url| gate::archived_stylesheet_url(&url, served_host));
        if let Some(served) = served {
            for (name, value) in &mut element.attributes {
                if name == "href" {
                    *value = served.to_string();
                }
            }
        }
    }
    dom
}

impl LayoutSource for Renderer {
    fn lay_out(&mut self, page: &Page, source: &PageSource) -> Result<LaidOut, LayoutError> {
        self.render_parsed(page, source)
            .map_err(|error| LayoutError::Engine(Box::new(error)))
    }
}

/// The native layout engine (Blitz, in-process) as a layout source: no browser process, no
/// network, the page's local CSS only; no screenshots and no page JavaScript.
#[derive(Debug, Clone, Copy)]
pub struct NativeLayout {
    viewport: Viewport,
    budget: NativeBudget,
}

impl Default for NativeLayout {
    fn default() -> Self {
        NativeLayout {
            viewport: VIEWPORT,
            budget: NativeBudget::default(),
        }
    }
}

impl NativeLayout {
    /// The native engine giving each page at most `budget` of wall time.
    pub fn with_budget(budget: Duration) -> NativeLayout {
        NativeLayout::default().with_time_budget(budget)
    }

    /// The same engine with another time budget per page.
    pub fn with_time_budget(mut self, budget: Duration) -> NativeLayout {
        self.budget.time = budget;
        self
    }

    /// The same engine with another memory budget per layout, in MiB (see [`NativeBudget`]).
    pub fn with_memory_budget(mut self, mebibytes: u64) -> NativeLayout {
        self.budget.memory_bytes = mebibytes.saturating_mul(1024 * 1024);
        self
    }
}

impl LayoutSource for NativeLayout {
    fn lay_out(&mut self, page: &Page, source: &PageSource) -> Result<LaidOut, LayoutError> {
        let laid_out = lay_out_native_within(page, source, self.viewport, &self.budget)
            .map_err(|error| LayoutError::Engine(Box::new(error)))?;
        Ok(LaidOut {
            layout: laid_out.layout,
            screenshot: None,
            from_cache: false,
            warning: laid_out
                .without_stylesheets
                .map(|degraded| degraded.to_string()),
        })
    }
}
