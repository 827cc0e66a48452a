//! Big9 (Utomo & Leu, Multimedia Systems 2019): 9 news sites × 4 years, `<site>/html/<stem>.html`
//! with `<site>/gold/<stem>.txt` main-article text, indexed by `pages.tsv`
//! (`site  stem  year  source_html  source_gold`).
//!
//! A site's template changes between years, so the site group is `<site>-<year>`. Many gold
//! files are windows-1252 (smart quotes), which `read_gold_text` handles.

use std::path::Path;

use super::{
    DatasetFormat, Gold, LabelledPage, MainText, Split, read_gold_text, require_folder,
    require_pair,
};
use crate::eval::EvalError;

/// Reads `pages.tsv` under `root` and each listed page's gold text; pages sorted by
/// `site/stem`, site group `site-year`.
pub fn load(root: &Path) -> Result<Vec<LabelledPage>, EvalError> {
    require_folder(root, DatasetFormat::Big9, "a folder with pages.tsv")?;
    let index_path = root.join("pages.tsv");
    let index = read_gold_text(&index_path)?;
    let mut pages = Vec::new();
    for (line_number, line) in index.lines().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        let [site, stem, year, ..] = fields[..] else {
            return Err(EvalError::Malformed {
                path: index_path,
                reason: format!(
                    "line {} has fewer than 3 tab-separated fields (site, stem, year)",
                    line_number + 1
                ),
            });
        };
        let html_path = root.join(site).join("html").join(format!("{stem}.html"));
        let gold_path = root.join(site).join("gold").join(format!("{stem}.txt"));
        require_pair(&html_path, &gold_path)?;
        pages.push(LabelledPage {
            split: Split::Dev,
            name: format!("{site}/{stem}"),
            html_path,
            url: None,
            base_href: None,
            site_group: Some(format!("{site}-{year}")),
            gold: Gold::MainText(MainText {
                content: read_gold_text(&gold_path)?.trim().to_string(),
                comments: None,
            }),
        });
    }
    pages.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(pages)
}
