//! Finding saved pages on disk: the one directory walk every command uses.

use std::path::{Path, PathBuf};

/// File name extensions taken as HTML pages.
const HTML_EXTENSIONS: &[&str] = &["html", "htm", "xhtml"];

/// Every HTML file under `directory` (recursively), sorted by path so runs are repeatable. A
/// symbolic link to a file counts as the file (a folder of links is how a subset of a set is
/// made without copying it); links to directories are not followed, so a link loop cannot
/// make the walk endless.
pub fn html_files_under(directory: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(directory).follow_links(false) {
        let entry = entry.map_err(std::io::Error::other)?;
        let is_file =
            entry.file_type().is_file() || (entry.path_is_symlink() && entry.path().is_file());
        if is_file && is_html_file(entry.path()) {
            files.push(entry.into_path());
        }
    }
    files.sort();
    Ok(files)
}

/// True for a file name ending in an HTML extension (any case), or in one followed by `.gz`
/// (a gzip-compressed page, expanded when read: [`super::PageSource::from_file`]).
pub fn is_html_file(path: &Path) -> bool {
    let has_html_extension = |path: &Path| {
        path.extension()
            .and_then(|extension| extension.to_str())
            .is_some_and(|extension| {
                HTML_EXTENSIONS
                    .iter()
                    .any(|html| extension.eq_ignore_ascii_case(html))
            })
    };
    let compressed = path
        .extension()
        .is_some_and(|extension| extension.eq_ignore_ascii_case("gz"));
    if compressed {
        path.file_stem()
            .is_some_and(|stem| has_html_extension(Path::new(stem)))
    } else {
        has_html_extension(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_files_are_told_by_their_extension_compressed_or_not() {
        for page in ["a.html", "b.HTM", "c.xhtml", "0001.html.gz", "d.HTML.GZ"] {
            assert!(is_html_file(Path::new(page)), "{page}");
        }
        for other in [
            "site.css",
            "archive.warc.gz",
            "notes.txt.gz",
            "html",
            "x.gz",
        ] {
            assert!(!is_html_file(Path::new(other)), "{other}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_page_is_a_page_and_a_link_to_a_folder_is_not_walked() {
        let root = std::env::temp_dir().join(format!("pagelevel-files-{}", std::process::id()));
        let pages = root.join("pages");
        std::fs::create_dir_all(&pages).unwrap();
        std::fs::write(root.join("page.html"), "<p>text</p>").unwrap();
        std::os::unix::fs::symlink(root.join("page.html"), pages.join("linked.html")).unwrap();
        std::os::unix::fs::symlink(root.join("missing.html"), pages.join("dangling.html")).unwrap();
        std::os::unix::fs::symlink(&pages, pages.join("loop")).unwrap();
        let found = html_files_under(&pages);
        std::fs::remove_dir_all(&root).unwrap();
        assert_eq!(found.unwrap(), vec![pages.join("linked.html")]);
    }
}
