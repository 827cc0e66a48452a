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
    /// A saved page on disk; `web_root` defaults to the page's directory. A gzip-compressed
    /// file (`page.html.gz`, as WCXB and many crawl dumps store pages; told by its magic bytes,
    /// not its name) is expanded, to at most [`MAX_GUNZIPPED_BYTES`].
    pub fn from_file(path: &Path, web_root: Option<&Path>) -> std::io::Result<PageSource> {
        let mut bytes = std::fs::read(path)?;
        if bytes.starts_with(&GZIP_MAGIC) {
            bytes = gunzip(&bytes)?;
        }
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

/// The first bytes of every gzip stream (RFC 1952: ID1, ID2, deflate).
const GZIP_MAGIC: [u8; 3] = [0x1f, 0x8b, 0x08];

/// The largest page a gzip-compressed file may expand to: past the parser's own byte limit, so
/// that an oversized page fails there with its usual message, and a small file expanding to
/// gigabytes (a gzip bomb) stops here.
pub const MAX_GUNZIPPED_BYTES: u64 = 64 * 1024 * 1024;

/// A gzip-compressed page, expanded to at most [`MAX_GUNZIPPED_BYTES`]; a corrupt one is an
/// error that says so.
fn gunzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut expanded = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .take(MAX_GUNZIPPED_BYTES)
        .read_to_end(&mut expanded)
        .map_err(|error| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("a gzip-compressed file that does not expand: {error}"),
            )
        })?;
    Ok(expanded)
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
