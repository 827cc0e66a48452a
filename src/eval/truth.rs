//! Gold labels on the detector's words: whatever form a dataset's labels take, each page word
//! ends up [`WordTruth::Template`], [`WordTruth::NotTemplate`] or [`WordTruth::Unscored`].
//!
//! The gold is turned into a word sequence with a truth per word, aligned to the page's words
//! ([`align_words`]), and each matched page word takes its gold word's truth. Unmatched page
//! words are template for gold main text (the gold lists all content, so what is not in it is
//! boilerplate), and unscored for labelled text (L3S, Kreuzer, marked pages: the gold holds all
//! the page's text, so a page word missing from it is a difference in text extraction, not a
//! label).
//!
//! Label mapping (the dataset README's summary):
//! - main text (CleanEval, CleanPortalEval, Dragnet, Big9, native text): content and comments
//!   are not template;
//! - L3S-GN1 [`L3sMapping::Standard`]: unselected text, `NotContent` and `RelatedContent` are
//!   template; headline, full text, supplemental and comments (page-specific) are not.
//!   [`L3sMapping::Strict`]: only `NotContent` (class 0) is template, every other class is not,
//!   and unselected text is unscored — what the assessors explicitly called boilerplate;
//! - Kreuzer: the innermost block of a template or content type decides
//!   ([`kreuzer::is_template`]); text in no such block is unscored;
//! - native marked pages: the innermost `data-pagelevel` mark decides; unmarked text is content.

use super::EvalError;
use super::align::align_words;
use super::annotated::{ElementMark, attribute, marked_text};
use super::datasets::native::MARK_ATTRIBUTE;
use super::datasets::{Gold, L3sClass, kreuzer, read_annotated_html};
use crate::text::word_tokens;

/// The gold label of one page word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WordTruth {
    /// The gold calls the word template (boilerplate).
    Template,
    /// The gold calls the word content.
    NotTemplate,
    /// The gold says nothing about this word; leave it out of the counts.
    Unscored,
}

impl WordTruth {
    /// `Some(is template)` for scored words, for [`crate::eval::Counts::tally`].
    pub fn is_template(self) -> Option<bool> {
        match self {
            WordTruth::Template => Some(true),
            WordTruth::NotTemplate => Some(false),
            WordTruth::Unscored => None,
        }
    }
}

/// How L3S-GN1 classes map to template (see the module doc).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum L3sMapping {
    /// Unselected text, `NotContent` and `RelatedContent` are template; the rest is content.
    #[default]
    Standard,
    /// Only `NotContent` is template; unselected text is unscored.
    Strict,
}

impl L3sMapping {
    /// The gold label of a word in a block of class `class` (`None`: not selected).
    pub fn truth(self, class: Option<L3sClass>) -> WordTruth {
        match (self, class) {
            (L3sMapping::Standard, None) => WordTruth::Template,
            (L3sMapping::Strict, None) => WordTruth::Unscored,
            (_, Some(L3sClass::NotContent)) => WordTruth::Template,
            (L3sMapping::Standard, Some(L3sClass::RelatedContent)) => WordTruth::Template,
            (_, Some(_)) => WordTruth::NotTemplate,
        }
    }
}

/// The blocks around a page word, for segmentation metrics (Kreuzer pages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GoldBlocks {
    /// The innermost level-1 block: the flat segmentation the set's README prescribes ("every
    /// text node assigned to its innermost block"). On 21 of Kreuzer's 138 pages annotators
    /// nested level-1 blocks (a `Content` container holding the `Header` and `Footer`); the
    /// outermost one made such a page a single block, on which every segmentation scores 0.
    pub top: Option<u32>,
    /// The innermost block of level 1 or 2: the two-level segmentation.
    pub upto_level2: Option<u32>,
    /// The innermost block: the finer segmentation.
    pub innermost: Option<u32>,
}

/// Gold labels of one page's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageTruth {
    /// One per page word.
    pub truth: Vec<WordTruth>,
    /// For block-labelled gold, one per page word: the blocks around it, or `None` when the word
    /// did not align to the gold. `None` as a whole for gold without blocks.
    pub blocks: Option<Vec<Option<GoldBlocks>>>,
}

struct GoldWord {
    word: String,
    truth: WordTruth,
    blocks: Option<GoldBlocks>,
}

/// The gold labels of `page_words` (as [`word_tokens`] makes them). Reads the annotated file
/// for [`Gold::Blocks`] and [`Gold::MarkedElements`].
pub fn page_truth(
    page_words: &[&str],
    gold: &Gold,
    l3s: L3sMapping,
) -> Result<PageTruth, EvalError> {
    let (gold_words, unmatched) = match gold {
        Gold::MainText(main) => {
            let text = [Some(main.content.as_str()), main.comments.as_deref()];
            let words = text
                .into_iter()
                .flatten()
                .flat_map(word_tokens)
                .map(|word| GoldWord {
                    word,
                    truth: WordTruth::NotTemplate,
                    blocks: None,
                });
            (words.collect(), WordTruth::Template)
        }
        Gold::TextBlocks(blocks) => {
            let words = blocks.iter().flat_map(|block| {
                let truth = l3s.truth(block.class);
                word_tokens(&block.text)
                    .into_iter()
                    .map(move |word| GoldWord {
                        word,
                        truth,
                        blocks: None,
                    })
            });
            (words.collect(), WordTruth::Unscored)
        }
        Gold::Blocks(annotation) => (
            block_gold_words(&annotation.read_blocks()?),
            WordTruth::Unscored,
        ),
        Gold::MarkedElements { annotated_path } => (
            marked_gold_words(&read_annotated_html(annotated_path)?),
            WordTruth::Unscored,
        ),
    };
    let gold_refs: Vec<&str> = gold_words.iter().map(|gold| gold.word.as_str()).collect();
    let matches = align_words(page_words, &gold_refs);
    let truth = matches
        .iter()
        .map(|matched| matched.map_or(unmatched, |index| gold_words[index].truth))
        .collect();
    let blocks = matches!(gold, Gold::Blocks(_)).then(|| {
        matches
            .iter()
            .map(|matched| matched.and_then(|index| gold_words[index].blocks))
            .collect()
    });
    Ok(PageTruth { truth, blocks })
}

/// The gold main text as words, for main-text extraction scores: what a main-text extractor
/// should output. Comments are left out (they are content for template detection but not part
/// of the article, the convention of Dragnet and L3S); for L3S-GN1 that leaves headline, full
/// text and supplemental; for block or element labels, the words labelled not template.
pub fn main_text_words(gold: &Gold) -> Result<Vec<String>, EvalError> {
    Ok(match gold {
        Gold::MainText(main) => word_tokens(&main.content),
        Gold::TextBlocks(blocks) => blocks
            .iter()
            .filter(|block| {
                matches!(
                    block.class,
                    Some(L3sClass::Headline | L3sClass::FullText | L3sClass::Supplemental)
                )
            })
            .flat_map(|block| word_tokens(&block.text))
            .collect(),
        Gold::Blocks(annotation) => content_words(block_gold_words(&annotation.read_blocks()?)),
        Gold::MarkedElements { annotated_path } => {
            content_words(marked_gold_words(&read_annotated_html(annotated_path)?))
        }
    })
}

/// The words of the gold user comments, for sets that keep them apart (Dragnet); `None` when the
/// page's gold has no comments.
pub fn comment_words(gold: &Gold) -> Option<Vec<String>> {
    match gold {
        Gold::MainText(main) => main
            .comments
            .as_deref()
            .map(word_tokens)
            .filter(|words| !words.is_empty()),
        _ => None,
    }
}

fn content_words(words: Vec<GoldWord>) -> Vec<String> {
    words
        .into_iter()
        .filter(|gold| gold.truth == WordTruth::NotTemplate)
        .map(|gold| gold.word)
        .collect()
}

fn block_gold_words(texts: &[kreuzer::BlockText]) -> Vec<GoldWord> {
    texts
        .iter()
        .flat_map(|text| {
            let truth = match kreuzer::is_template(&text.blocks) {
                Some(true) => WordTruth::Template,
                Some(false) => WordTruth::NotTemplate,
                None => WordTruth::Unscored,
            };
            let blocks = GoldBlocks {
                top: text
                    .blocks
                    .iter()
                    .rev()
                    .find(|block| block.level == 1)
                    .map(|block| block.id),
                upto_level2: text
                    .blocks
                    .iter()
                    .rev()
                    .find(|block| (1..=2).contains(&block.level))
                    .map(|block| block.id),
                innermost: text.blocks.last().map(|block| block.id),
            };
            word_tokens(&text.text)
                .into_iter()
                .map(move |word| GoldWord {
                    word,
                    truth,
                    blocks: Some(blocks),
                })
        })
        .collect()
}

fn marked_gold_words(html: &str) -> Vec<GoldWord> {
    let runs = marked_text(html, |tag| match attribute(tag, MARK_ATTRIBUTE) {
        Some(value) if value.trim().eq_ignore_ascii_case("template") => {
            ElementMark::Mark(WordTruth::Template)
        }
        Some(value) if value.trim().eq_ignore_ascii_case("content") => {
            ElementMark::Mark(WordTruth::NotTemplate)
        }
        _ => ElementMark::Plain,
    });
    runs.into_iter()
        .flat_map(|run| {
            let truth = run.marks.last().copied().unwrap_or(WordTruth::NotTemplate);
            word_tokens(&run.text)
                .into_iter()
                .map(move |word| GoldWord {
                    word,
                    truth,
                    blocks: None,
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{LabelledBlock, MainText};

    fn words(text: &str) -> Vec<String> {
        word_tokens(text)
    }

    fn truth_of(page: &str, gold: &Gold, l3s: L3sMapping) -> Vec<WordTruth> {
        let page = words(page);
        let page: Vec<&str> = page.iter().map(String::as_str).collect();
        page_truth(&page, gold, l3s).unwrap().truth
    }

    use WordTruth::{NotTemplate as C, Template as T, Unscored as U};

    #[test]
    fn a_word_in_nested_level_one_blocks_belongs_to_the_innermost_at_level_one() {
        let block = |id, level, block_type: &str| kreuzer::Block {
            id,
            level,
            block_type: block_type.into(),
        };
        let texts = [
            kreuzer::BlockText {
                text: "Site name".into(),
                blocks: vec![block(0, 1, "Content"), block(1, 1, "Header")],
            },
            kreuzer::BlockText {
                text: "Story text".into(),
                blocks: vec![block(0, 1, "Content"), block(2, 2, "Article")],
            },
        ];
        let blocks: Vec<GoldBlocks> = block_gold_words(&texts)
            .iter()
            .map(|word| word.blocks.unwrap())
            .collect();
        let top: Vec<_> = blocks.iter().map(|b| b.top).collect();
        assert_eq!(top, [Some(1), Some(1), Some(0), Some(0)]);
        let upto_level2: Vec<_> = blocks.iter().map(|b| b.upto_level2).collect();
        assert_eq!(upto_level2, [Some(1), Some(1), Some(2), Some(2)]);
    }

    #[test]
    fn words_missing_from_gold_main_text_are_template_and_comments_are_content() {
        let gold = Gold::MainText(MainText {
            content: "Rates rise".into(),
            comments: Some("Great post".into()),
        });
        let truth = truth_of(
            "Home | Rates rise. Comments: Great post. About us",
            &gold,
            L3sMapping::Standard,
        );
        assert_eq!(truth, [T, C, C, T, C, C, T, T]);
    }

    #[test]
    fn l3s_strict_mapping_only_trusts_explicit_not_content() {
        let gold = Gold::TextBlocks(vec![
            LabelledBlock {
                text: "Menu".into(),
                class: None,
            },
            LabelledBlock {
                text: "Share".into(),
                class: Some(L3sClass::NotContent),
            },
            LabelledBlock {
                text: "Story".into(),
                class: Some(L3sClass::FullText),
            },
            LabelledBlock {
                text: "More news".into(),
                class: Some(L3sClass::RelatedContent),
            },
        ]);
        let page = "Menu Share Story More news Extra";
        assert_eq!(
            truth_of(page, &gold, L3sMapping::Standard),
            [T, T, C, T, T, U]
        );
        assert_eq!(
            truth_of(page, &gold, L3sMapping::Strict),
            [U, T, C, C, C, U]
        );
    }
}
