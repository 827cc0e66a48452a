//! What a natively laid-out page may read: files under its web root, mapped from URLs by the
//! Chromium gate's rule (`gate::local_file`), on the page's own host — stylesheets for Blitz
//! (through [`WebRootStylesheets`], its only way to the outside) and image sizes.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use blitz_traits::net::{Bytes, NetHandler, NetProvider, Request};
use url::Url;

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

/// Blitz's only way to the outside: answers every request at once, with the file's bytes when
/// the URL names a stylesheet under the web root and the page's allowance has room for it, and
/// with nothing otherwise. Answering every request matters: Blitz holds layout back while a
/// `<head>` stylesheet is pending.
pub(super) struct WebRootStylesheets {
    web_root: Option<PathBuf>,
    allowance: StylesheetAllowance,
    served: Mutex<Served>,
}

#[derive(Default)]
struct Served {
    files: usize,
    bytes: usize,
    rules: usize,
}

impl WebRootStylesheets {
    pub fn new(web_root: Option<&Path>, allowance: StylesheetAllowance) -> WebRootStylesheets {
        WebRootStylesheets {
            web_root: web_root.and_then(|root| root.canonicalize().ok()),
            allowance,
            served: Mutex::new(Served::default()),
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
