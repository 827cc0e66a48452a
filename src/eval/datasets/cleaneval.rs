//! CleanEval 2007 and CleanPortalEval: `input/<stem>.html` pages with `gold/<stem>.txt` cleaned
//! text (Baroni et al., LREC 2008; Endrédy & Novák, Polibits 2013).
//!
//! A gold file starts with a `URL: <address>` line, then the content with a structure marker
//! (`<h>` heading, `<p>` paragraph, `<l>` list item) at the start of each segment. The markers
//! are not page text, so they are removed; the URL becomes the page's address. The organisers
//! wrapped each input page in `<text id="URL" …>…</text>`; an HTML parser ignores the unknown
//! element, so the page is left as it is.

use std::path::Path;

use super::{
    DatasetFormat, Gold, LabelledPage, MainText, Split, file_name, file_stem, files_with_extension,
    read_gold_text, require_folder, require_pair, subfolders,
};
use crate::eval::EvalError;

/// CleanEval: `input/` and `gold/` under `root`.
pub fn load_cleaneval(root: &Path) -> Result<Vec<LabelledPage>, EvalError> {
    require_folder(
        &root.join("input"),
        DatasetFormat::CleanEval,
        "an input/ folder beside gold/",
    )?;
    load_pairs(root, None)
}

/// CleanPortalEval: one folder per portal, each laid out like CleanEval; the portal is the
/// page's site group.
pub fn load_cleanportaleval(root: &Path) -> Result<Vec<LabelledPage>, EvalError> {
    let portals = subfolders(
        root,
        DatasetFormat::CleanPortalEval,
        "one folder per portal",
        |folder| folder.join("input").is_dir(),
    )?;
    let mut pages = Vec::new();
    for portal in portals {
        let site = file_name(&portal);
        pages.extend(load_pairs(&portal, Some(&site))?);
    }
    Ok(pages)
}

fn load_pairs(folder: &Path, site: Option<&str>) -> Result<Vec<LabelledPage>, EvalError> {
    let mut pages = Vec::new();
    for html_path in files_with_extension(&folder.join("input"), "html")? {
        let stem = file_stem(&html_path);
        let gold_path = folder.join("gold").join(format!("{stem}.txt"));
        require_pair(&html_path, &gold_path)?;
        let (url, content) = parse_cleaneval_gold(&read_gold_text(&gold_path)?);
        pages.push(LabelledPage {
            split: Split::Dev,
            name: match site {
                Some(site) => format!("{site}/{stem}"),
                None => stem,
            },
            html_path,
            url,
            base_href: None,
            site_group: site.map(str::to_string),
            gold: Gold::MainText(MainText {
                content,
                comments: None,
            }),
        });
    }
    Ok(pages)
}

/// The address from the `URL:` line (if the file starts with one) and the content without
/// structure markers.
pub fn parse_cleaneval_gold(text: &str) -> (Option<String>, String) {
    let trimmed = text.trim_start();
    let (url, body) = match trimmed.strip_prefix("URL:") {
        Some(rest) => {
            let (line, body) = rest.split_once('\n').unwrap_or((rest, ""));
            (
                Some(line.trim().to_string()).filter(|url| !url.is_empty()),
                body,
            )
        }
        None => (None, trimmed),
    };
    let content = body
        .lines()
        .map(strip_structure_marker)
        .collect::<Vec<_>>()
        .join("\n");
    (url, content.trim().to_string())
}

fn strip_structure_marker(line: &str) -> &str {
    let start = line.trim_start();
    ["<h>", "<p>", "<l>"]
        .iter()
        .find_map(|marker| start.strip_prefix(marker))
        .unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_line_and_structure_markers_are_not_content() {
        let gold = "URL: http://example.org/a\n\n<h>   Your Home Will Sell\n<l>     * Fast\n<p>If you feel\nit's <p>time\n";
        let (url, content) = parse_cleaneval_gold(gold);
        assert_eq!(url.as_deref(), Some("http://example.org/a"));
        assert_eq!(
            content,
            "Your Home Will Sell\n     * Fast\nIf you feel\nit's <p>time"
        );
    }

    #[test]
    fn gold_without_a_url_line_keeps_all_its_text() {
        assert_eq!(
            parse_cleaneval_gold("<p>Only text"),
            (None, "Only text".to_string())
        );
    }
}
