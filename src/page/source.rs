//! Where a page comes from: its bytes, its URL, and the directory its subresources may be
//! served from. The input of every layout source and of the scorer.

use std::path::{Path, PathBuf};

use url::Url;

/// A page to score: its bytes and where it lives.
#[derive(Debug, Clone)]
pub struct PageSource {
    /// The page as served or saved, not yet decoded.
    pub bytes: Vec<u8>,
    /// The page's URL, for resolving its links (not fetched).
    pub url: Option<Url>,
    /// HTTP charset, when the page was fetched.
    pub http_charset: Option<String>,
    /// Directory served as the page's web root: its files (CSS, images) may load.
    pub web_root: Option<PathBuf>,
    /// The page's path under the web root, e.g. `/docs/intro.html`.
    pub path_in_root: String,
    /// A `<base href>` to insert (relative to the page's served location) when the page has
    /// none, e.g. Kreuzer pages' `assets/<host>/<path>/`.
    pub base_href: Option<String>,
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
        })
    }
}

impl PageSource {
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
        }
    }
}
