//! Where a page comes from: its bytes, its URL, and the directory its subresources may be
//! served from. The input of every layout source and of the scorer.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use thiserror::Error;
use url::Url;

use super::{ArchivedStylesheets, charset_name};

/// A page to score: its bytes and where it lives.
#[derive(Debug, Clone)]
pub struct PageSource {
    /// The page as served or saved, not yet decoded.
    pub bytes: Vec<u8>,
    /// The page's URL, for resolving its links (not fetched).
    pub url: Option<Url>,
    /// The transport charset: the `charset` of the HTTP `Content-Type` the page was served
    /// with (WARC records and fetches set it), or the encoding a caller knows the bytes are in
    /// ([`PageSource::with_charset`]). Only a byte-order mark overrides it; it overrides the
    /// page's own `<meta charset>`. `None` lets the page's declaration decide, else UTF-8 or a
    /// guess from the bytes (see [`crate::page::decode_at`]). An unknown label here is
    /// ignored, as browsers ignore one in a header.
    pub http_charset: Option<String>,
    /// Directory served as the page's web root: its files (CSS, images) may load.
    pub web_root: Option<PathBuf>,
    /// The page's path under the web root, e.g. `/docs/intro.html`.
    pub path_in_root: String,
    /// A `<base href>` to insert (relative to the page's served location) when the page has
    /// none, e.g. Kreuzer pages' `assets/<host>/<path>/`.
    pub base_href: Option<String>,
    /// Stylesheets archived with the page (a crawl's CSS responses, by absolute URL), read
    /// in place of a fetch for its `<link rel=stylesheet>` and `@import` URLs, after any file
    /// of the web root; a URL missing from them stays unloaded. Shared by a host's pages.
    pub stylesheets: Option<Arc<ArchivedStylesheets>>,
}

impl PageSource {
    /// A saved page on disk; `web_root` defaults to the page's directory.
    pub fn from_file(path: &Path, web_root: Option<&Path>) -> std::io::Result<PageSource> {
        let bytes = std::fs::read(path)?;
        let absolute = path.canonicalize()?;
        let root = match web_root {
            Some(root) => root.canonicalize()?,
            None => absolute
                .parent()
                .map(Path::to_path_buf)
                .unwrap_or_else(|| PathBuf::from("/")),
        };
        let relative = absolute.strip_prefix(&root).unwrap_or(&absolute);
        let path_in_root = format!(
            "/{}",
            relative
                .components()
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/")
        );
        Ok(PageSource {
            bytes,
            url: Url::from_file_path(&absolute).ok(),
            http_charset: None,
            web_root: Some(root),
            path_in_root,
            base_href: None,
            stylesheets: None,
        })
    }
}

impl PageSource {
    /// The same page with its transport charset set to `label` (any WHATWG label:
    /// `"shift_jis"`, `"gbk"`, `"windows-1251"`, `"latin1"`…), for a caller who knows how the
    /// bytes are encoded; it overrides the page's `<meta charset>` and any charset already set.
    /// Fails on a label no browser knows, instead of ignoring it as a header's would be.
    pub fn with_charset(mut self, label: &str) -> Result<PageSource, UnknownCharset> {
        let name = charset_name(label).ok_or_else(|| UnknownCharset(label.to_string()))?;
        self.http_charset = Some(name.to_string());
        Ok(self)
    }

    /// A page known only by its bytes (fetched, or read from a WARC): nothing but the page
    /// itself is served to the browser, so its subresources stay blocked.
    pub fn from_bytes(
        bytes: Vec<u8>,
        url: Option<Url>,
        http_charset: Option<String>,
    ) -> PageSource {
        let path_in_root = url
            .as_ref()
            .map(|url| url.path().to_string())
            .filter(|path| path.starts_with('/'))
            .unwrap_or_else(|| "/page.html".to_string());
        PageSource {
            bytes,
            url,
            http_charset,
            web_root: None,
            path_in_root,
            base_href: None,
            stylesheets: None,
        }
    }

    /// The same page with `stylesheets` to load its linked and imported sheets from (see
    /// [`PageSource::stylesheets`]).
    pub fn with_stylesheets(mut self, stylesheets: Arc<ArchivedStylesheets>) -> PageSource {
        self.stylesheets = Some(stylesheets);
        self
    }
}

/// A charset label that names no encoding a browser knows.
#[derive(Debug, Error)]
#[error(
    "unknown charset {0:?}: give an encoding label such as utf-8, windows-1252, shift_jis, gbk, euc-kr or windows-1251"
)]
pub struct UnknownCharset(pub String);
