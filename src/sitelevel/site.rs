//! A saved site on disk: every HTML file under a directory, parsed with its `file://` URL so
//! that links between the saved pages resolve to the files. A page that cannot be read or
//! parsed is kept as a [`PageFailure`] (reported, not fatal); only a directory without any
//! usable page is an error.

use std::fs;
use std::path::{Path, PathBuf};

use url::Url;

use super::SiteLevelError;
use crate::page::{Page, PageSource, ParseLimits, html_files_under};

/// One parsed page of a saved site.
#[derive(Debug, Clone)]
pub struct SitePage {
    /// The file, as found under the site directory.
    pub path: PathBuf,
    /// The parsed page, its URL the file's `file://` URL.
    pub page: Page,
}

/// A page that could not be used, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageFailure {
    /// The file that failed.
    pub path: PathBuf,
    /// Why: the read or parse error (e.g. a parse limit exceeded).
    pub reason: String,
}

/// The parsed pages of a site, in path order, and the files that failed.
#[derive(Debug, Clone)]
pub struct LoadedSite {
    /// The pages that parsed, in path order; never empty.
    pub pages: Vec<SitePage>,
    /// The files that could not be read or parsed, in path order.
    pub failures: Vec<PageFailure>,
}

impl LoadedSite {
    /// The parsed pages alone, in path order (what detectors take).
    pub fn parsed_pages(&self) -> Vec<Page> {
        self.pages
            .iter()
            .map(|site_page| site_page.page.clone())
            .collect()
    }
}

/// Every HTML file under `dir` (recursively), sorted by path so runs are reproducible.
pub fn html_files(dir: &Path) -> Result<Vec<PathBuf>, SiteLevelError> {
    let unreadable = |path: &Path, source| SiteLevelError::SiteUnreadable {
        path: path.to_path_buf(),
        source,
    };
    let metadata = fs::metadata(dir).map_err(|source| unreadable(dir, source))?;
    if !metadata.is_dir() {
        return Err(unreadable(
            dir,
            std::io::Error::other("it is not a directory"),
        ));
    }
    html_files_under(dir).map_err(|source| unreadable(dir, source))
}

/// Reads and parses every HTML page under `dir`. Errors only when the directory cannot be
/// read, holds no HTML file, or no page parses; single bad pages land in `failures`.
pub fn load_site(dir: &Path, limits: &ParseLimits) -> Result<LoadedSite, SiteLevelError> {
    let files = html_files(dir)?;
    if files.is_empty() {
        return Err(SiteLevelError::NoHtmlPages(dir.to_path_buf()));
    }
    let mut site = LoadedSite {
        pages: Vec::new(),
        failures: Vec::new(),
    };
    for path in files {
        match load_page(&path, limits) {
            Ok(page) => site.pages.push(SitePage { path, page }),
            Err(reason) => site.failures.push(PageFailure { path, reason }),
        }
    }
    if site.pages.is_empty() {
        let first = site
            .failures
            .first()
            .map(|failure| format!("{}: {}", failure.path.display(), failure.reason))
            .unwrap_or_default();
        return Err(SiteLevelError::NoParsablePages {
            path: dir.to_path_buf(),
            first,
        });
    }
    Ok(site)
}

/// Reads and parses one saved page; the error is a sentence naming the cause.
pub(crate) fn load_page(path: &Path, limits: &ParseLimits) -> Result<Page, String> {
    // Through `PageSource::from_file`: a gzip-compressed page is expanded.
    let bytes = PageSource::from_file(path, None)
        .map_err(|error| format!("cannot read it: {error}"))?
        .bytes;
    let url = file_url(path);
    Page::parse(&bytes, url, None, limits).map_err(|error| error.to_string())
}

/// The `file://` URL of a path (made absolute), so relative links resolve to files.
pub(crate) fn file_url(path: &Path) -> Option<Url> {
    let absolute = fs::canonicalize(path).ok()?;
    Url::from_file_path(absolute).ok()
}
