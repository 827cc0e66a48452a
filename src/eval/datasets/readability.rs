//! Mozilla Readability's test pages (130 pages, 2013–2023, news in eight languages, blogs,
//! documentation, small behaviour fixtures): `pages/<name>.html` with `expected/<name>.html`, the
//! article Readability.js extracts, reviewed by its maintainers, and `metadata/<name>.json`.
//!
//! The gold main text is the visible text of the expected article (one extractor's output, not a
//! human annotation: it keeps captions and some bylines; see the dataset README). The pages are
//! UTF-8 and carry no URL, so links stay relative.

use std::path::Path;

use super::{
    DatasetFormat, Gold, LabelledPage, MainText, Split, file_stem, files_with_extension,
    read_bytes, require_folder, require_pair,
};
use crate::eval::EvalError;
use crate::page::{Page, ParseLimits};

/// Reads every `pages/*.html` under `root` with its `expected/` article; pages sorted by name.
pub fn load(root: &Path) -> Result<Vec<LabelledPage>, EvalError> {
    require_folder(
        &root.join("pages"),
        DatasetFormat::Readability,
        "pages/ and expected/ folders",
    )?;
    let mut pages = Vec::new();
    for html_path in files_with_extension(&root.join("pages"), "html")? {
        let name = file_stem(&html_path);
        let gold_path = root.join("expected").join(format!("{name}.html"));
        require_pair(&html_path, &gold_path)?;
        pages.push(LabelledPage {
            split: Split::Dev,
            name,
            html_path,
            url: None,
            base_href: None,
            site_group: None,
            gold: Gold::MainText(MainText {
                content: html_text(&gold_path)?,
                comments: None,
            }),
        });
    }
    Ok(pages)
}

/// The visible text of an HTML file (an expected article), blocks separated by spaces; an empty
/// article is empty text.
fn html_text(path: &Path) -> Result<String, EvalError> {
    let bytes = read_bytes(path)?;
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(String::new());
    }
    let page =
        Page::parse(&bytes, None, Some("utf-8"), &ParseLimits::default()).map_err(|error| {
            EvalError::Malformed {
                path: path.to_path_buf(),
                reason: format!("the expected article cannot be parsed: {error}"),
            }
        })?;
    Ok(page
        .dom
        .ids()
        .next()
        .map(|root| page.dom.text(root))
        .unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gold_is_the_expected_articles_visible_text() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("a.html");
        std::fs::write(
            &path,
            "<div id=readability-page-1><h2>Title</h2><script>var x;</script><p>One <b>two</b></p><p>three</p></div>",
        )
        .unwrap();
        assert_eq!(html_text(&path).unwrap(), "Title One two three");
    }
}
