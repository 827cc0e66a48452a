//! Finding saved pages on disk: the one directory walk every command uses.

use std::path::{Path, PathBuf};

/// File name extensions taken as HTML pages.
const HTML_EXTENSIONS: &[&str] = &["html", "htm", "xhtml"];

/// Every HTML file under `directory` (recursively, symbolic links not followed), sorted by
/// path so runs are repeatable.
pub fn html_files_under(directory: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(directory).follow_links(false) {
        let entry = entry.map_err(std::io::Error::other)?;
        if entry.file_type().is_file() && is_html_file(entry.path()) {
            files.push(entry.into_path());
        }
    }
    files.sort();
    Ok(files)
}

/// True for a file name ending in an HTML extension (any case).
pub fn is_html_file(path: &Path) -> bool {
    path.extension()
        .and_then(|extension| extension.to_str())
        .is_some_and(|extension| {
            HTML_EXTENSIONS
                .iter()
                .any(|html| extension.eq_ignore_ascii_case(html))
        })
}
