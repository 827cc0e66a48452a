//! The segmentation set of Kreuzer, Hage & Feelders (ICWE 2015): `<page>/index.blocks.html`, a
//! rendered and re-serialised DOM on which volunteers marked blocks with `data-block="1"`
//! (top level) or `"2"` (nested) and `data-block-type="<Type>"`, plus `<page>/meta.json`
//! (`url`, `base_href`, `block_types`). The labelled file is also the page a detector sees.
//!
//! Block types split into template ([`TEMPLATE_BLOCK_TYPES`]) and content
//! ([`CONTENT_BLOCK_TYPES`]); `Image`, `Video` and `Table` take the side of the block around
//! them (a logo image in a header is template, a photo in an article is content).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::{
    BlockAnnotation, DatasetFormat, Gold, LabelledPage, Split, file_name, read_annotated_html,
    read_gold_text, subfolders,
};
use crate::eval::EvalError;
use crate::eval::annotated::{ElementMark, attribute, marked_text};

/// Block types that are the site's template.
pub const TEMPLATE_BLOCK_TYPES: &[&str] = &[
    "Header",
    "Footer",
    "Menu",
    "LinkList",
    "Ad",
    "Logo",
    "Searchbar",
    "Sidebar",
];

/// Block types that are the page's own content.
pub const CONTENT_BLOCK_TYPES: &[&str] = &["Article", "Content", "Title", "Author", "Comments"];

/// One labelled block around a piece of text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// Position of the block's element in document order among all blocks of the page: a
    /// cluster label for segmentation metrics.
    pub id: u32,
    /// 1 for a top-level block, 2 for a nested one, 0 when the attribute is empty.
    pub level: u8,
    /// The `data-block-type` value, e.g. `Menu`.
    pub block_type: String,
}

/// A run of page text with the blocks around it, outermost first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockText {
    /// The text, as read from the labelled page.
    pub text: String,
    /// Every labelled block containing the text, outermost first; empty for unlabelled text.
    pub blocks: Vec<Block>,
}

#[derive(Deserialize)]
struct PageMeta {
    url: Option<String>,
    base_href: Option<String>,
    #[serde(default)]
    block_types: BTreeMap<String, usize>,
}

/// Reads every page folder under `root` that holds `index.blocks.html`, with its `meta.json`
/// (URL, base href, counts of block types); the block marks are read later, from the page.
pub fn load(root: &Path) -> Result<Vec<LabelledPage>, EvalError> {
    let folders = subfolders(
        root,
        DatasetFormat::Kreuzer,
        "one folder per page with index.blocks.html",
        |folder| folder.join("index.blocks.html").is_file(),
    )?;
    let mut pages = Vec::new();
    for folder in folders {
        let meta_path = folder.join("meta.json");
        let meta: PageMeta =
            serde_json::from_str(&read_gold_text(&meta_path)?).map_err(|error| {
                EvalError::Malformed {
                    path: meta_path.clone(),
                    reason: error.to_string(),
                }
            })?;
        let html_path = folder.join("index.blocks.html");
        pages.push(LabelledPage {
            split: Split::Dev,
            name: file_name(&folder),
            url: meta.url,
            base_href: meta.base_href,
            site_group: None,
            gold: Gold::Blocks(BlockAnnotation {
                annotated_path: html_path.clone(),
                block_types: meta.block_types,
            }),
            html_path,
        });
    }
    Ok(pages)
}

impl BlockAnnotation {
    /// The page's block types that are template.
    pub fn template_types(&self) -> Vec<&str> {
        self.block_types
            .keys()
            .map(String::as_str)
            .filter(|block_type| TEMPLATE_BLOCK_TYPES.contains(block_type))
            .collect()
    }

    /// Reads the labelled page and returns its text with the blocks around each run.
    pub fn read_blocks(&self) -> Result<Vec<BlockText>, EvalError> {
        Ok(block_texts(&read_annotated_html(&self.annotated_path)?))
    }
}

/// The text of a block-labelled page with the blocks around each run.
pub fn block_texts(html: &str) -> Vec<BlockText> {
    let mut next_id = 0;
    marked_text(html, |tag| {
        let Some(level) = attribute(tag, "data-block") else {
            return ElementMark::Plain;
        };
        let block = Block {
            id: next_id,
            level: level.trim().parse().unwrap_or(0),
            block_type: attribute(tag, "data-block-type")
                .unwrap_or_default()
                .to_string(),
        };
        next_id += 1;
        ElementMark::Mark(block)
    })
    .into_iter()
    .map(|run| BlockText {
        text: run.text,
        blocks: run.marks,
    })
    .collect()
}

/// Whether text inside `blocks` (outermost first) is template: the innermost block of a
/// template or content type decides; `None` when no enclosing block has such a type.
pub fn is_template(blocks: &[Block]) -> Option<bool> {
    blocks.iter().rev().find_map(|block| {
        let block_type = block.block_type.as_str();
        if TEMPLATE_BLOCK_TYPES.contains(&block_type) {
            Some(true)
        } else if CONTENT_BLOCK_TYPES.contains(&block_type) {
            Some(false)
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_knows_its_nested_blocks_and_the_innermost_decisive_type_wins() {
        let html = r#"<body><div data-block="1" data-block-type="Header"><img data-block="2" data-block-type="Logo">
            <ul data-block="2" data-block-type="Menu"><li>Home</li></ul></div>
            <div data-block="1" data-block-type="Article"><h1>Title</h1>
            <div data-block="2" data-block-type="Image">Caption</div>
            <div data-block="2" data-block-type="LinkList">Related</div></div><p>Outside</p></body>"#;
        let texts = block_texts(html);
        let summary: Vec<(&str, Vec<u32>, Option<bool>)> = texts
            .iter()
            .map(|t| {
                (
                    t.text.as_str(),
                    t.blocks.iter().map(|b| b.id).collect(),
                    is_template(&t.blocks),
                )
            })
            .collect();
        assert_eq!(
            summary,
            [
                ("Home", vec![0, 2], Some(true)),
                ("Title", vec![3], Some(false)),
                ("Caption", vec![3, 4], Some(false)),
                ("Related", vec![3, 5], Some(true)),
                ("Outside", vec![], None),
            ]
        );
        assert_eq!(texts[0].blocks[1].level, 2);
    }
}
