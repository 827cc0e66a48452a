//! The `sites.txt` list: one site per line — a saved site's directory (relative paths are taken
//! from the list's own folder), a WARC file, or an `http(s)://` URL to crawl — with `#` comments
//! and blank lines ignored.

use std::path::{Path, PathBuf};

use url::Url;

use super::TrainError;

/// Where a site's pages come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SiteSource {
    /// A saved site: every `.html`/`.htm` file under the directory.
    Directory(PathBuf),
    /// A WARC file (`.warc` or `.warc.gz`), records grouped by host.
    Warc(PathBuf),
    /// A live site, crawled politely.
    Crawl(Url),
}

impl SiteSource {
    /// A short name for reports: the directory or file name, or the host.
    pub fn name(&self) -> String {
        match self {
            SiteSource::Directory(path) | SiteSource::Warc(path) => path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string()),
            SiteSource::Crawl(url) => url.host_str().unwrap_or("site").to_string(),
        }
    }
}

/// Reads a sites list.
pub fn read_sites_file(path: &Path) -> Result<Vec<SiteSource>, TrainError> {
    let text = std::fs::read_to_string(path).map_err(|source| TrainError::SitesFile {
        path: path.to_path_buf(),
        cause: source.to_string(),
    })?;
    let base = path.parent().unwrap_or(Path::new("."));
    let mut sites = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let site = if line.starts_with("http://") || line.starts_with("https://") {
            SiteSource::Crawl(Url::parse(line).map_err(|error| TrainError::SitesFile {
                path: path.to_path_buf(),
                cause: format!("line {}: {line:?} is not a URL: {error}", number + 1),
            })?)
        } else {
            let location = base.join(line);
            let lower = line.to_ascii_lowercase();
            if lower.ends_with(".warc") || lower.ends_with(".warc.gz") {
                SiteSource::Warc(location)
            } else if location.is_dir() {
                SiteSource::Directory(location)
            } else {
                return Err(TrainError::SitesFile {
                    path: path.to_path_buf(),
                    cause: format!(
                        "line {}: {} is neither a directory, a .warc file nor a URL",
                        number + 1,
                        location.display()
                    ),
                });
            }
        };
        sites.push(site);
    }
    if sites.is_empty() {
        return Err(TrainError::SitesFile {
            path: path.to_path_buf(),
            cause: "it lists no sites".into(),
        });
    }
    Ok(sites)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sites_list_resolves_relative_directories_and_skips_comments() {
        let directory = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(directory.path().join("docs")).expect("mkdir");
        let list = directory.path().join("sites.txt");
        std::fs::write(
            &list,
            "# saved sites\ndocs\n\nhttps://example.org/\narchive.warc.gz\n",
        )
        .expect("write");
        let sites = read_sites_file(&list).expect("reads");
        assert_eq!(
            sites,
            [
                SiteSource::Directory(directory.path().join("docs")),
                SiteSource::Crawl(Url::parse("https://example.org/").expect("url")),
                SiteSource::Warc(directory.path().join("archive.warc.gz")),
            ]
        );
    }

    #[test]
    fn a_line_that_is_no_site_is_an_error_naming_the_line() {
        let directory = tempfile::tempdir().expect("temp dir");
        let list = directory.path().join("sites.txt");
        std::fs::write(&list, "missing-folder\n").expect("write");
        let error = read_sites_file(&list).unwrap_err();
        assert!(error.to_string().contains("line 1"), "{error}");
    }
}
