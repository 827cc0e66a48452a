//! What a natively laid-out page may read: files under its web root, mapped from URLs by the
//! Chromium gate's rule (`gate::local_file`), on the page's own host — stylesheets and image
//! sizes — and the stylesheets archived with it (`PageSource::stylesheets`), by URL. Blitz's
//! only way to the outside is [`LocalStylesheets`], which reads nothing else.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use blitz_traits::net::{Bytes, NetHandler, NetProvider, Request};
use url::Url;

use crate::page::{ArchivedStylesheets, PageSource};
use crate::render::gate::local_file;

/// Host of the URL a page is laid out at. Like the gate's per-page hosts it is under the
/// reserved `.invalid` domain, so a URL naming it can only ever be read from the web root.
pub(crate) const PAGE_HOST: &str = "page.pagelevel.invalid";

/// Most stylesheet files one page may load (links and `@import`s together). Blitz bounds
/// `@import` depth (16) but not fan-out, so a sheet importing itself twice would otherwise
/// grow geometrically; the datasets' pages link at most 27.
const MAX_STYLESHEET_FILES: usize = 128;

/// The file under `web_root` that `url` names, if the URL is on the page's host and the file
/// exists; never a file outside the root.
pub(crate) fn file_for_url(web_root: &Path, url: &Url) -> Option<PathBuf> {
    if url.scheme() != "http" || url.host_str() != Some(PAGE_HOST) {
        return None;
    }
    local_file(web_root, url.path(), url.query())
}

/// How much stylesheet text one page may load from its web root, `@import`s included: what
/// its layout's memory budget and the bound on styling time leave (`estimate`).
#[derive(Debug, Clone, Copy)]
pub(super) struct StylesheetAllowance {
    pub bytes: usize,
    /// Style rules, counted as `{`.
    pub rules: usize,
}

/// Where a page's stylesheets come from: its web root's files, then the sheets archived with
/// it. Nothing else: a URL neither holds is a sheet that did not load.
#[derive(Clone, Default)]
pub(super) struct StylesheetSources {
    web_root: Option<PathBuf>,
    /// The archived sheets and the page's own URL, which URLs on [`PAGE_HOST`] stand for.
    archived: Option<(Arc<ArchivedStylesheets>, Url)>,
}

impl StylesheetSources {
    /// The sources `source` names (its web root, its archived sheets).
    pub fn of(source: &PageSource) -> StylesheetSources {
        StylesheetSources {
            web_root: source
                .web_root
                .as_deref()
                .and_then(|root| root.canonicalize().ok()),
            archived: source
                .stylesheets
                .clone()
                .zip(source.url.clone())
                .filter(|(_, url)| matches!(url.scheme(), "http" | "https")),
        }
    }

    /// No stylesheets at all (a page laid out without them).
    pub fn none() -> StylesheetSources {
        StylesheetSources::default()
    }

    /// The CSS `url` names, if a source holds it and it is CSS.
    pub fn read(&self, url: &Url) -> Option<Vec<u8>> {
        let bytes = self
            .read_from_web_root(url)
            .or_else(|| self.read_from_archive(url))?;
        looks_like_css(&bytes).then_some(bytes)
    }

    fn read_from_web_root(&self, url: &Url) -> Option<Vec<u8>> {
        let file = file_for_url(self.web_root.as_deref()?, url)?;
        if !may_be_stylesheet(&file) {
            return None;
        }
        std::fs::read(&file).ok()
    }

    fn read_from_archive(&self, url: &Url) -> Option<Vec<u8>> {
        let (sheets, page_url) = self.archived.as_ref()?;
        let url = archived_url(url, PAGE_HOST, page_url)?;
        let sheet = sheets.get(&url).filter(|sheet| sheet.is_css())?;
        Some(sheet.css.clone())
    }
}

/// The URL in the archive that `url`, requested by a page served on `served_host`, stands
/// for: on the served host, the same path and query on the page's own origin (the page was
/// served at its own path); elsewhere, itself.
pub(crate) fn archived_url(url: &Url, served_host: &str, page_url: &Url) -> Option<Url> {
    if url.host_str() != Some(served_host) {
        return Some(url.clone());
    }
    let mut on_origin = page_url.join(url.path()).ok()?;
    on_origin.set_query(url.query());
    Some(on_origin)
}

/// Blitz's only way to the outside: answers every request at once, with the stylesheet's
/// bytes when one of the page's [`StylesheetSources`] holds it and the page's allowance has
/// room for it, and with nothing otherwise. Answering every request matters: Blitz holds
/// layout back while a `<head>` stylesheet is pending.
pub(super) struct LocalStylesheets {
    sources: StylesheetSources,
    allowance: StylesheetAllowance,
    served: Mutex<Served>,
}

#[derive(Default)]
struct Served {
    files: usize,
    bytes: usize,
    rules: usize,
}

impl LocalStylesheets {
    pub fn new(sources: StylesheetSources, allowance: StylesheetAllowance) -> LocalStylesheets {
        LocalStylesheets {
            sources,
            allowance,
            served: Mutex::new(Served::default()),
        }
    }

    fn stylesheet(&self, url: &Url) -> Option<Vec<u8>> {
        let bytes = self.sources.read(url)?;
        let rules = bytes.iter().filter(|&&byte| byte == b'{').count();
        let mut served = self
            .served
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let fits = served.files < MAX_STYLESHEET_FILES
            && served.bytes + bytes.len() <= self.allowance.bytes
            && served.rules + rules <= self.allowance.rules;
        if fits {
            served.files += 1;
            served.bytes += bytes.len();
            served.rules += rules;
        }
        fits.then_some(bytes)
    }
}

impl NetProvider for LocalStylesheets {
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
