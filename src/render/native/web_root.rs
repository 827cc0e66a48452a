//! Where a URL of the laid-out page lives on disk: the Chromium gate's rule (only files under the
//! page's web root, on the page's own host), shared by stylesheets and image sizes. In pagelevel
//! this is `render/gate.rs`'s `local_file`, which would become `pub(crate)`.

use std::path::{Path, PathBuf};

use url::Url;

/// Host of the URL a page is laid out at. Like the gate's per-page hosts it is under the
/// reserved `.invalid` domain, so a URL naming it can only ever be read from the web root.
pub(crate) const PAGE_HOST: &str = "page.pagelevel.invalid";

/// The file under `web_root` that `url` names, if the URL is on the page's host and the file
/// exists; never a file outside the root.
pub(crate) fn file_for_url(web_root: &Path, url: &Url) -> Option<PathBuf> {
    if url.scheme() != "http" || url.host_str() != Some(PAGE_HOST) {
        return None;
    }
    local_file(web_root, url.path(), url.query())
}

/// Maps a URL path (and query) to a file under the (canonical) web root. wget-saved sites keep
/// a query in the file name (`style.css?v=2`), so that name is tried first.
fn local_file(web_root: &Path, path: &str, query: Option<&str>) -> Option<PathBuf> {
    let decoded = percent_decode(path);
    let relative = decoded.trim_start_matches('/');
    let mut candidates = Vec::new();
    if let Some(query) = query {
        candidates.push(format!("{relative}?{}", percent_decode(query)));
    }
    candidates.push(relative.to_string());
    candidates.into_iter().find_map(|candidate| {
        let file = web_root.join(candidate).canonicalize().ok()?;
        (file.starts_with(web_root) && file.is_file()).then_some(file)
    })
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        let hex = bytes
            .get(index + 1..index + 3)
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match (bytes[index], hex) {
            (b'%', Some(byte)) => {
                decoded.push(byte);
                index += 3;
            }
            (byte, _) => {
                decoded.push(byte);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&decoded).into_owned()
}
