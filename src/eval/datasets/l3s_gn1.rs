//! L3S-GN1 (Kohlschütter, Fankhauser & Nejdl, WSDM 2010): Google News articles whose text blocks
//! assessors classified, stored as `annotated/<uuid>.html` (the re-serialised page with
//! `<span class="x-nc-selN">` wrappers), `original/<uuid>.html` (the crawled bytes) and
//! `url-mapping.tsv` (`uuid  url`).
//!
//! The detector sees the original page; the gold is the annotated page's text in document order,
//! each block with the class of its innermost `x-nc-selN` element (spans nest), or no class when
//! no assessor selected it. Text in elements marked `x-nc-invisible` is not page text. The two
//! files differ in serialisation and encoding, so gold and page are matched by text
//! ([`crate::eval::truth`]), never by offsets.

use std::collections::HashMap;
use std::path::Path;

use super::{
    DatasetFormat, Gold, LabelledBlock, LabelledPage, Split, file_stem, files_with_extension,
    read_annotated_html, read_gold_text, require_folder,
};
use crate::eval::EvalError;
use crate::eval::annotated::{ElementMark, has_class, marked_text};

/// The assessors' classes, `x-nc-sel0` to `x-nc-sel5`, as the dataset's own Readme defines
/// them (4 is related content and 5 comments, not the other way round).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum L3sClass {
    /// `x-nc-sel0`: an assessor marked the block as not content (boilerplate).
    NotContent,
    /// `x-nc-sel1`: the article's headline.
    Headline,
    /// `x-nc-sel2`: the article's full text.
    FullText,
    /// Article text that is not full text, e.g. image captions.
    Supplemental,
    /// Links to other articles and the like.
    RelatedContent,
    /// User comments.
    Comments,
}

impl L3sClass {
    /// Every class, indexed by the `N` of `x-nc-selN`.
    pub const ALL: [L3sClass; 6] = [
        L3sClass::NotContent,
        L3sClass::Headline,
        L3sClass::FullText,
        L3sClass::Supplemental,
        L3sClass::RelatedContent,
        L3sClass::Comments,
    ];

    /// The class for the CSS class `x-nc-selN`.
    pub fn from_css_class(class: &str) -> Option<L3sClass> {
        let digit = class.strip_prefix("x-nc-sel")?;
        let index: usize = digit.parse().ok()?;
        L3sClass::ALL.get(index).copied()
    }
}

/// Reads every `annotated/*.html` page under `root` into gold text blocks; the detector's page
/// is `original/<uuid>.html`, its URL from `url-mapping.tsv` when present.
pub fn load(root: &Path) -> Result<Vec<LabelledPage>, EvalError> {
    let annotated = root.join("annotated");
    require_folder(
        &annotated,
        DatasetFormat::L3sGn1,
        "annotated/ and original/ folders",
    )?;
    let urls = read_url_mapping(&root.join("url-mapping.tsv"))?;
    let mut pages = Vec::new();
    for annotated_path in files_with_extension(&annotated, "html")? {
        let uuid = file_stem(&annotated_path);
        let html_path = root.join("original").join(format!("{uuid}.html"));
        let blocks = labelled_blocks(&read_annotated_html(&annotated_path)?);
        pages.push(LabelledPage {
            split: Split::Dev,
            url: urls.get(&uuid).cloned(),
            name: uuid,
            html_path,
            base_href: None,
            site_group: None,
            gold: Gold::TextBlocks(blocks),
        });
    }
    Ok(pages)
}

/// `uuid → url`; a missing mapping file means no URLs, not an error.
fn read_url_mapping(path: &Path) -> Result<HashMap<String, String>, EvalError> {
    if !path.is_file() {
        return Ok(HashMap::new());
    }
    Ok(read_gold_text(path)?
        .lines()
        .skip(1)
        .filter_map(|line| line.split_once('\t'))
        .map(|(uuid, url)| (uuid.trim().to_string(), url.trim().to_string()))
        .collect())
}

/// The text blocks of an annotated page, innermost class winning.
pub fn labelled_blocks(annotated_html: &str) -> Vec<LabelledBlock> {
    let runs = marked_text(annotated_html, |tag| {
        if has_class(tag, "x-nc-invisible") {
            return ElementMark::Hidden;
        }
        let class = super::super::annotated::attribute(tag, "class")
            .into_iter()
            .flat_map(str::split_ascii_whitespace)
            .find_map(L3sClass::from_css_class);
        class.map_or(ElementMark::Plain, ElementMark::Mark)
    });
    let mut blocks: Vec<LabelledBlock> = Vec::new();
    for run in runs {
        let class = run.marks.last().copied();
        match blocks.last_mut() {
            // Runs differ in their outer marks only; the innermost class is what counts.
            Some(last) if last.class == class => {
                last.text.push(' ');
                last.text.push_str(&run.text);
            }
            _ => blocks.push(LabelledBlock {
                text: run.text,
                class,
            }),
        }
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn css_classes_map_to_the_readme_classes() {
        assert_eq!(
            L3sClass::from_css_class("x-nc-sel4"),
            Some(L3sClass::RelatedContent)
        );
        assert_eq!(
            L3sClass::from_css_class("x-nc-sel5"),
            Some(L3sClass::Comments)
        );
        assert_eq!(L3sClass::from_css_class("x-nc-sel6"), None);
        assert_eq!(L3sClass::from_css_class("x-nc-invisible"), None);
    }

    #[test]
    fn the_innermost_selection_wins_and_unselected_text_has_no_class() {
        let html = r#"<body class="x-nc-linearized"><div>Home</div>
            <span class="x-nc-sel0"><a>Nav <span class="x-nc-sel2">Body text</span></a></span>
            <span class="x-nc-sel2"><p><span class="x-nc-sel2">more</span></p></span>
            <style class="x-nc-invisible">.x{}</style><label class="x-nc-invisible">hidden</label></body>"#;
        let blocks = labelled_blocks(html);
        let found: Vec<(&str, Option<L3sClass>)> =
            blocks.iter().map(|b| (b.text.as_str(), b.class)).collect();
        assert_eq!(
            found,
            [
                ("Home", None),
                ("Nav", Some(L3sClass::NotContent)),
                ("Body text more", Some(L3sClass::FullText)),
            ]
        );
    }
}
