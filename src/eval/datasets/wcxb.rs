//! WCXB (Foley, *WCXB: A Multi-Type Web Content Extraction Benchmark*, 2026), its development
//! split: 1,497 pages crawled in 2025 of seven types (article, service, product, collection,
//! forum, listing, documentation), `html/<id>.html.gz` with `ground-truth/<id>.json`.
//!
//! The gold is the reviewed `ground_truth.main_content` (plain text; a thread's every post, a
//! listing's every card, a service page's every section). A page is named `<type>/<id>` so that
//! reports can be read by type (`category` in the files is the benchmark's `collection`). A
//! ground truth with no or an empty `main_content` is an empty gold text: the benchmark scores
//! such a page 1 only when the output is empty too.

use std::path::Path;

use serde::Deserialize;

use super::{
    DatasetFormat, Gold, LabelledPage, MainText, Split, file_stem, files_with_extension,
    read_gold_text, require_folder, require_pair,
};
use crate::eval::EvalError;

#[derive(Deserialize)]
struct GroundTruthFile {
    url: Option<String>,
    #[serde(rename = "_internal")]
    internal: Option<Internal>,
    ground_truth: GroundTruth,
}

#[derive(Deserialize)]
struct Internal {
    page_type: Option<PageType>,
}

#[derive(Deserialize)]
struct PageType {
    primary: Option<String>,
}

#[derive(Deserialize)]
struct GroundTruth {
    main_content: Option<String>,
}

/// Reads every `ground-truth/*.json` under `root` with its `html/<id>.html.gz` page; pages
/// sorted by id.
pub fn load(root: &Path) -> Result<Vec<LabelledPage>, EvalError> {
    require_folder(
        &root.join("ground-truth"),
        DatasetFormat::Wcxb,
        "html/ and ground-truth/ folders",
    )?;
    let mut pages = Vec::new();
    for gold_path in files_with_extension(&root.join("ground-truth"), "json")? {
        let id = file_stem(&gold_path);
        let html_path = root.join("html").join(format!("{id}.html.gz"));
        require_pair(&html_path, &gold_path)?;
        let gold: GroundTruthFile =
            serde_json::from_str(&read_gold_text(&gold_path)?).map_err(|error| {
                EvalError::Malformed {
                    path: gold_path.clone(),
                    reason: format!("not a WCXB ground-truth file: {error}"),
                }
            })?;
        let page_type = gold
            .internal
            .and_then(|internal| internal.page_type?.primary)
            .map(|kind| match kind.as_str() {
                "category" => "collection".to_string(),
                _ => kind,
            })
            .unwrap_or_else(|| "unknown".to_string());
        pages.push(LabelledPage {
            split: Split::Dev,
            name: format!("{page_type}/{id}"),
            html_path,
            url: gold.url,
            base_href: None,
            site_group: None,
            gold: Gold::MainText(MainText {
                content: gold
                    .ground_truth
                    .main_content
                    .unwrap_or_default()
                    .trim()
                    .to_string(),
                comments: None,
            }),
        });
    }
    Ok(pages)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_named_by_type_and_read_their_gold_text() {
        let folder = tempfile::tempdir().unwrap();
        let root = folder.path();
        std::fs::create_dir_all(root.join("html")).unwrap();
        std::fs::create_dir_all(root.join("ground-truth")).unwrap();
        std::fs::write(root.join("html/0007.html.gz"), b"").unwrap();
        std::fs::write(
            root.join("ground-truth/0007.json"),
            r#"{"url": "https://www.example.com/a", "_internal": {"page_type": {"primary": "category"}},
                "ground_truth": {"main_content": " Items\n\nOne ", "title": null}}"#,
        )
        .unwrap();
        let pages = load(root).unwrap();
        assert_eq!(pages[0].name, "collection/0007");
        assert_eq!(pages[0].url.as_deref(), Some("https://www.example.com/a"));
        assert_eq!(
            pages[0].gold,
            Gold::MainText(MainText {
                content: "Items\n\nOne".to_string(),
                comments: None
            })
        );
        std::fs::write(root.join("ground-truth/0007.json"), "{}").unwrap();
        let error = load(root).unwrap_err().to_string();
        assert!(
            error.contains("0007.json") && error.contains("WCXB"),
            "{error}"
        );
        std::fs::remove_file(root.join("html/0007.html.gz")).unwrap();
        let error = load(root).unwrap_err().to_string();
        assert!(
            error.contains("has no page") && error.contains("0007.html.gz"),
            "the missing file is the page, not the gold: {error}"
        );
    }
}
