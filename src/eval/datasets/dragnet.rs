//! Dragnet (Peters & Lecocq, WWW 2013 companion): `HTML/<name>.html` pages with
//! `Corrected/<name>.html.corrected.txt` gold text.
//!
//! The gold is the article as a person copied it from the page; when the page has user
//! comments, they follow a marker line matching `^!@#\$%\^&\*\(\)\s+COMMENTS\s*$` (the
//! dataset README: usually two spaces before `COMMENTS`, sometimes one, sometimes trailing
//! whitespace). One gold file in the shared subset (`271`) writes the marker `!@#$%^&**()`, so
//! the matcher accepts any run of the marker's punctuation that starts with `!@#$%^&`. Text
//! after the marker becomes [`MainText::comments`].

use std::path::Path;

use super::{
    DatasetFormat, Gold, LabelledPage, MainText, Split, file_stem, files_with_extension,
    read_gold_text, require_folder, require_pair,
};
use crate::eval::EvalError;

/// Reads every `HTML/*.html` page under `root` with its `Corrected/` gold, split into article
/// and comments; pages in the source's numeric order.
pub fn load(root: &Path) -> Result<Vec<LabelledPage>, EvalError> {
    require_folder(
        &root.join("HTML"),
        DatasetFormat::Dragnet,
        "HTML/ and Corrected/ folders",
    )?;
    let mut pages = Vec::new();
    for html_path in files_with_extension(&root.join("HTML"), "html")? {
        let name = file_stem(&html_path);
        let gold_path = root
            .join("Corrected")
            .join(format!("{name}.html.corrected.txt"));
        require_pair(&html_path, &gold_path)?;
        let (content, comments) = split_comments(&read_gold_text(&gold_path)?);
        pages.push(LabelledPage {
            split: Split::Dev,
            name,
            html_path,
            url: None,
            base_href: None,
            site_group: None,
            gold: Gold::MainText(MainText { content, comments }),
        });
    }
    // Natural order of the source (1, 2, …, 10), which the README's subset follows.
    pages.sort_by_cached_key(|page| (page.name.parse::<u64>().ok(), page.name.clone()));
    Ok(pages)
}

/// How every variant of the marker line starts.
const COMMENTS_MARKER_START: &str = "!@#$%^&";

/// Whether `line` is the comments marker: a run of the characters of `!@#$%^&*()` starting with
/// [`COMMENTS_MARKER_START`], at least one whitespace character, then `COMMENTS` and only
/// whitespace.
fn is_comments_marker(line: &str) -> bool {
    let Some((symbols, rest)) = line.split_once(char::is_whitespace) else {
        return false;
    };
    symbols.starts_with(COMMENTS_MARKER_START)
        && symbols.chars().all(|c| "!@#$%^&*()".contains(c))
        && rest.trim() == "COMMENTS"
}

/// The article and, if the gold has a comments marker, the comments after it.
pub fn split_comments(gold: &str) -> (String, Option<String>) {
    let mut article = Vec::new();
    let mut lines = gold.lines();
    for line in lines.by_ref() {
        if is_comments_marker(line) {
            let comments = lines.collect::<Vec<_>>().join("\n");
            return (
                article.join("\n").trim().to_string(),
                Some(comments.trim().to_string()),
            );
        }
        article.push(line);
    }
    (article.join("\n").trim().to_string(), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_follow_the_marker_line_in_its_variants() {
        for marker in [
            "!@#$%^&*()  COMMENTS",
            "!@#$%^&*() COMMENTS",
            "!@#$%^&*()  COMMENTS \t",
            "!@#$%^&**()  COMMENTS",
        ] {
            let gold = format!("Title\nBody.\n{marker}\nFirst!\nSecond.");
            let (article, comments) = split_comments(&gold);
            assert_eq!(article, "Title\nBody.");
            assert_eq!(
                comments.as_deref(),
                Some("First!\nSecond."),
                "marker {marker:?}"
            );
        }
    }

    #[test]
    fn lookalike_lines_are_article_text() {
        for line in [
            "!@#$%^&*()COMMENTS",
            "!@#$%^&*()  COMMENTS here",
            "x !@#$%^&*()  COMMENTS",
        ] {
            assert_eq!(split_comments(&format!("a\n{line}")).1, None, "{line:?}");
        }
    }
}
