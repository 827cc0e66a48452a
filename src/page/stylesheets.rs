//! Stylesheets archived with a page: a crawl's `text/css` responses, by absolute URL, that a
//! page's `<link rel=stylesheet>` and `@import`s load in place of any fetch. A URL the map
//! lacks is simply absent, as a sheet that failed to load: layout never reaches the network.
//!
//! A WARC holds no CSS unless the crawl archived it, and a page laid out unstyled is not the
//! page its readers see: a model trained on unstyled crawls lost 0.16–0.42 template F1
//! (`training/reports/spark/`). Both engines read the map: native layout through its
//! network provider (`render/native/web_root.rs`), Chromium through the gate
//! (`render/gate.rs`).

use std::collections::HashMap;

use url::Url;

use super::Page;

/// Most bytes of CSS one map holds: a host's stylesheets, never a crawl's. The largest sheet
/// in the shared datasets is 0.5 MB and the most any of their pages links is 27 sheets.
pub const MAX_ARCHIVED_STYLESHEET_BYTES: usize = 64 * 1024 * 1024;

/// One archived stylesheet: its bytes and the `Content-Type` it was served with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchivedStylesheet {
    /// The response body, as served (CSS decodes itself: `@charset`, else UTF-8).
    pub css: Vec<u8>,
    /// The HTTP `Content-Type`, if the archive recorded one.
    pub content_type: Option<String>,
}

impl ArchivedStylesheet {
    /// Whether a browser would apply it: served as `text/css`, or with no type at all.
    /// Chromium refuses a stylesheet of another type in a standards-mode page (the pages we
    /// lay out are), so an archived error page or script never styles one.
    pub fn is_css(&self) -> bool {
        self.content_type.as_deref().is_none_or(|content_type| {
            let essence = content_type.split(';').next().unwrap_or("").trim();
            essence.is_empty() || essence.eq_ignore_ascii_case("text/css")
        })
    }
}

/// Stylesheets by absolute URL (fragment ignored); the first capture of a URL is kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArchivedStylesheets {
    sheets: HashMap<String, ArchivedStylesheet>,
    bytes: usize,
}

impl ArchivedStylesheets {
    /// An empty map: every stylesheet absent.
    pub fn new() -> ArchivedStylesheets {
        ArchivedStylesheets::default()
    }

    /// Adds the stylesheet at `url`. Returns false, keeping the map as it was, when the URL is
    /// already there (a crawl's first capture wins) or the map would grow past
    /// [`MAX_ARCHIVED_STYLESHEET_BYTES`].
    pub fn insert(&mut self, url: &Url, css: Vec<u8>, content_type: Option<String>) -> bool {
        let key = key(url);
        if self.sheets.contains_key(&key) || self.bytes + css.len() > MAX_ARCHIVED_STYLESHEET_BYTES
        {
            return false;
        }
        self.bytes += css.len();
        self.sheets
            .insert(key, ArchivedStylesheet { css, content_type });
        true
    }

    /// The stylesheet archived at `url`, if any.
    pub fn get(&self, url: &Url) -> Option<&ArchivedStylesheet> {
        self.sheets.get(&key(url))
    }

    /// How many stylesheets the map holds.
    pub fn len(&self) -> usize {
        self.sheets.len()
    }

    /// Whether the map holds none.
    pub fn is_empty(&self) -> bool {
        self.sheets.is_empty()
    }

    /// Bytes of CSS the map holds.
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

fn key(url: &Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    url.into()
}

/// The absolute URLs of the stylesheets `page` links (`<link rel=stylesheet href>`, in
/// document order, each once), resolved against its `<base href>`, else its URL: what a crawl
/// job looks up to give a page its archived sheets. Sheets they `@import` are not listed.
pub fn linked_stylesheet_urls(page: &Page) -> Vec<Url> {
    let Some(base) = page.base_url() else {
        return Vec::new();
    };
    let mut urls: Vec<Url> = Vec::new();
    for element in page
        .dom
        .elements
        .iter()
        .filter(|element| element.is_stylesheet_link())
    {
        let Some(url) = element
            .attribute("href")
            .and_then(|href| base.join(href.trim()).ok())
            .filter(|url| matches!(url.scheme(), "http" | "https"))
        else {
            continue;
        };
        if !urls.contains(&url) {
            urls.push(url);
        }
    }
    urls
}
