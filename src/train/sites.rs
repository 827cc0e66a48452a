//! The `sites.txt` list: one site per line — a saved site's directory (relative paths are taken
//! from the list's own folder), a WARC file, or an `http(s)://` URL to crawl — with `#` comments
//! and blank lines ignored. A `[domain]` heading line (`[documentation]`, `[news/portal]`) tags
//! the sites below it, so the training report can give held-out metrics per kind of site.

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
    /// A short name for reports: the directory or file name, or the host. A directory with a
    /// generic name (`html`, `public`, …, as in `big9/bbc/html`) is named `parent/name`.
    pub fn name(&self) -> String {
        const GENERIC: &[&str] = &["html", "htdocs", "public", "www", "site", "pages", "input"];
        match self {
            SiteSource::Directory(path) | SiteSource::Warc(path) => {
                let name = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
                match (name(path), path.parent().and_then(name)) {
                    (Some(last), Some(parent)) if GENERIC.contains(&last.as_str()) => {
                        format!("{parent}/{last}")
                    }
                    (Some(last), _) => last,
                    (None, _) => path.display().to_string(),
                }
            }
            SiteSource::Crawl(url) => url.host_str().unwrap_or("site").to_string(),
        }
    }
}

/// One entry of a sites list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedSite {
    /// Where the site's pages come from: the line of the list.
    pub source: SiteSource,
    /// The `[domain]` heading the site is listed under, if any.
    pub domain: Option<String>,
}

/// Reads a sites list.
pub fn read_sites_file(path: &Path) -> Result<Vec<ListedSite>, TrainError> {
    let text = std::fs::read_to_string(path).map_err(|source| TrainError::SitesFile {
        path: path.to_path_buf(),
        cause: source.to_string(),
    })?;
    let base = path.parent().unwrap_or(Path::new("."));
    let mut sites = Vec::new();
    let mut domain = None;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(heading) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            domain = Some(heading.trim().to_string()).filter(|name| !name.is_empty());
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
        sites.push(ListedSite {
            source: site,
            domain: domain.clone(),
        });
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
    fn a_domain_heading_tags_the_sites_below_it() {
        let directory = tempfile::tempdir().expect("temp dir");
        let list = directory.path().join("sites.txt");
        std::fs::write(
            &list,
            "https://a.example/\n[documentation]\nhttps://b.example/\n# news\n[news/portal]\nhttps://c.example/\nhttps://d.example/\n",
        )
        .expect("write");
        let domains: Vec<Option<String>> = read_sites_file(&list)
            .expect("reads")
            .into_iter()
            .map(|site| site.domain)
            .collect();
        let tag = |name: &str| Some(name.to_string());
        assert_eq!(
            domains,
            [
                None,
                tag("documentation"),
                tag("news/portal"),
                tag("news/portal")
            ]
        );
    }

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
        let sites: Vec<SiteSource> = read_sites_file(&list)
            .expect("reads")
            .into_iter()
            .map(|site| site.source)
            .collect();
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
    fn a_generic_folder_name_is_qualified_by_its_parent() {
        let site = SiteSource::Directory(PathBuf::from("/data/big9/bbc/html"));
        assert_eq!(site.name(), "bbc/html");
        assert_eq!(
            SiteSource::Directory(PathBuf::from("/data/sites/flask-docs")).name(),
            "flask-docs"
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
