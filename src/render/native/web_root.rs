//! Where a URL of the laid-out page lives on disk: the Chromium gate's rule (`gate::local_file`:
//! only files under the page's web root), on the page's own host; shared by stylesheets and
//! image sizes.

use std::path::{Path, PathBuf};

use url::Url;

use crate::render::gate::local_file;

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
