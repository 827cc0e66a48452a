//! pagelevel's own label format, for evaluating on your own pages.
//!
//! A dataset is a JSON manifest, `labels.json` (the spec's path may name the file or the folder
//! holding it); every path in it is relative to the manifest's folder:
//!
//! ```json
//! {
//!   "version": 1,
//!   "pages": [
//!     { "html": "pages/article.html", "url": "https://news.example.org/2024/05/rates",
//!       "site": "news.example.org", "content_text": "gold/article.txt" },
//!     { "html": "pages/recipe.html", "marked": true }
//!   ]
//! }
//! ```
//!
//! Each page names its saved HTML (`html`), optionally its address (`url`), the template it
//! shares with other pages (`site`, any string; pages with the same value are one site group)
//! and a `name` (default: the HTML file's name without extension). Its labels come in one of two
//! forms, whichever is easier to produce:
//!
//! - `"content_text": "<file>"`: a UTF-8 (or windows-1252) text file with the page's content —
//!   select the article in a browser and paste it. Page words that do not align to this text
//!   are template. An optional `"comments_text"` holds user comments (content too, but kept
//!   apart as Dragnet does).
//! - `"marked": true`: the HTML file itself carries `data-pagelevel="template"` on template
//!   elements (add it in the browser's inspector, then save the page, or in an editor).
//!   `data-pagelevel="content"` inside a template element marks content again; the innermost
//!   mark wins, and unmarked text is content.
//!
//! Unknown fields are refused, so that a misspelt `conten_text` does not silently drop labels.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{Gold, LabelledPage, MainText, Split, file_stem, read_gold_text};
use crate::eval::EvalError;

/// The manifest file name looked up when the spec names a folder.
pub const MANIFEST_FILE_NAME: &str = "labels.json";

/// The manifest version this build reads.
pub const MANIFEST_VERSION: u32 = 1;

/// The attribute that marks elements in `"marked": true` pages.
pub const MARK_ATTRIBUTE: &str = "data-pagelevel";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    version: u32,
    pages: Vec<ManifestPage>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ManifestPage {
    html: PathBuf,
    name: Option<String>,
    url: Option<String>,
    site: Option<String>,
    content_text: Option<PathBuf>,
    comments_text: Option<PathBuf>,
    #[serde(default)]
    marked: bool,
}

/// Reads the manifest at `path` (or `labels.json` in it, if a folder) and each page's text gold;
/// `marked` pages are read later, from the page.
pub fn load(path: &Path) -> Result<Vec<LabelledPage>, EvalError> {
    let manifest_path = if path.is_dir() {
        path.join(MANIFEST_FILE_NAME)
    } else {
        path.to_path_buf()
    };
    let folder = manifest_path.parent().unwrap_or(Path::new("."));
    let malformed = |reason: String| EvalError::Malformed {
        path: manifest_path.clone(),
        reason,
    };
    let manifest: Manifest = serde_json::from_str(&read_gold_text(&manifest_path)?)
        .map_err(|error| malformed(error.to_string()))?;
    if manifest.version != MANIFEST_VERSION {
        return Err(malformed(format!(
            "manifest version {} is not supported; this pagelevel reads version {MANIFEST_VERSION}",
            manifest.version
        )));
    }
    let mut pages = Vec::with_capacity(manifest.pages.len());
    for entry in manifest.pages {
        let html_path = folder.join(&entry.html);
        let name = entry.name.unwrap_or_else(|| file_stem(&entry.html));
        let gold = match (entry.content_text, entry.marked) {
            (Some(content_path), false) => Gold::MainText(MainText {
                content: read_gold_text(&folder.join(content_path))?
                    .trim()
                    .to_string(),
                comments: match entry.comments_text {
                    Some(comments_path) => Some(
                        read_gold_text(&folder.join(comments_path))?
                            .trim()
                            .to_string(),
                    ),
                    None => None,
                },
            }),
            (None, true) => Gold::MarkedElements {
                annotated_path: html_path.clone(),
            },
            (Some(_), true) | (None, false) => {
                return Err(malformed(format!(
                    "page `{name}` needs exactly one of \"content_text\": \"<file>\" or \"marked\": true"
                )));
            }
        };
        if !html_path.is_file() {
            return Err(malformed(format!(
                "page `{name}`: no HTML file at {}",
                html_path.display()
            )));
        }
        pages.push(LabelledPage {
            split: Split::Dev,
            name,
            html_path,
            url: entry.url,
            base_href: None,
            site_group: entry.site,
            gold,
        });
    }
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_manifest(json: &str) -> Result<Vec<LabelledPage>, EvalError> {
        let folder = tempfile::tempdir().unwrap();
        std::fs::write(folder.path().join("page.html"), "<p>Hello</p>").unwrap();
        std::fs::write(folder.path().join("page.txt"), "Hello").unwrap();
        std::fs::write(folder.path().join(MANIFEST_FILE_NAME), json).unwrap();
        load(folder.path())
    }

    fn error_of(json: &str) -> String {
        load_manifest(json).unwrap_err().to_string()
    }

    #[test]
    fn a_page_takes_its_name_from_its_html_file_and_its_gold_from_the_text_file() {
        let pages = load_manifest(
            r#"{"version":1,"pages":[{"html":"page.html","content_text":"page.txt"}]}"#,
        )
        .unwrap();
        assert_eq!(pages[0].name, "page");
        assert!(matches!(&pages[0].gold, Gold::MainText(main) if main.content == "Hello"));
    }

    #[test]
    fn a_page_needs_exactly_one_form_of_labels() {
        let both = r#"{"version":1,"pages":[{"html":"page.html","content_text":"page.txt","marked":true}]}"#;
        assert!(error_of(both).contains("exactly one of"));
        let neither = r#"{"version":1,"pages":[{"html":"page.html"}]}"#;
        assert!(error_of(neither).contains("exactly one of"));
    }

    #[test]
    fn misspelt_fields_and_future_versions_are_refused_with_the_reason() {
        let misspelt = r#"{"version":1,"pages":[{"html":"page.html","conten_text":"page.txt"}]}"#;
        assert!(error_of(misspelt).contains("conten_text"));
        let future = r#"{"version":2,"pages":[]}"#;
        assert!(error_of(future).contains("reads version 1"));
    }
}
