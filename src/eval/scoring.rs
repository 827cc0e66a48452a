//! One page's scores for one detector variant: template precision/recall over words of text,
//! words of anchor text and links (Section 6.1 of the paper), main-text extraction counts, the
//! adjusted Rand index of the segmentation, and Vieira et al.'s term-level counts.
//!
//! A variant is given as [`Verdicts`]: a template flag per leaf and per link, and optionally a
//! group per leaf (its section). Every detector — PageLevel Basic, Smooth, Basic+Merge, or a
//! site-level method's marks — is scored by the same code.

use std::collections::{BTreeSet, HashMap};

use crate::page::NodeId;

use super::metrics::{Counts, adjusted_rand_index};
use super::output_scores::aligned_counts;
use super::page_text::PageText;
use super::truth::{GoldBlocks, PageTruth, WordTruth};

/// What one variant decided on a page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdicts {
    /// One per [`PageText::leaves`].
    pub leaf_template: Vec<bool>,
    /// One per [`PageText::links`].
    pub link_template: Vec<bool>,
    /// The segment of each leaf (any label; only equality matters), when the variant segments.
    pub leaf_group: Option<Vec<u32>>,
    /// The region of each leaf (a coarser segmentation, scored against the gold's level-1
    /// blocks), when the variant has one; else its segments stand for its regions.
    pub leaf_region: Option<Vec<u32>>,
}

impl Verdicts {
    /// Verdicts from a flag per element (indexed by [`NodeId::index`]) and, optionally, the
    /// section root of every element.
    pub fn of_elements(text: &PageText, template: &[bool], section: Option<&[NodeId]>) -> Verdicts {
        let flag = |id: NodeId| template.get(id.index()).copied().unwrap_or(false);
        Verdicts {
            leaf_template: text.leaves.iter().map(|leaf| flag(leaf.element)).collect(),
            link_template: text.links.iter().map(|&link| flag(link)).collect(),
            leaf_group: section.map(|section| leaf_groups(text, section)),
            leaf_region: None,
        }
    }

    /// These verdicts with `region`, the region root of every element, as the leaves' regions.
    pub fn with_regions(mut self, text: &PageText, region: &[NodeId]) -> Verdicts {
        self.leaf_region = Some(leaf_groups(text, region));
        self
    }
}

/// The group root (`root`, per element) of every leaf's element, as its label.
fn leaf_groups(text: &PageText, root: &[NodeId]) -> Vec<u32> {
    text.leaves
        .iter()
        .map(|leaf| root.get(leaf.element.index()).map_or(u32::MAX, |id| id.0))
        .collect()
}

/// A page's gold, aligned to its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageGold {
    /// The gold verdict of each page word, and the gold blocks where the set has them.
    pub truth: PageTruth,
    /// The gold main text's words ([`super::main_text_words`]).
    pub main_text: Vec<String>,
    /// The gold comments' words, on pages whose set keeps comments apart.
    pub comments: Option<Vec<String>>,
}

/// Which gold segmentation a leaf is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockLevel {
    /// Level-1 blocks only.
    Top,
    /// Blocks of level 1 and 2: each leaf in its innermost such block.
    UpToLevel2,
}

/// One page's counts for one variant.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PageScores {
    /// Template detection over all words of text (positive class: template).
    pub text: Counts,
    /// Template detection over the words inside links only.
    pub anchor_text: Counts,
    /// Template detection over links, each gold template when most of its gold words are.
    pub links: Counts,
    /// Main-text extraction: the positive class is *content* (kept words vs gold main text).
    pub main_text: Counts,
    /// Vieira et al.'s term-level counts: distinct words of the detected template vs the gold's.
    pub terms: Counts,
    /// ARI against level-1 blocks, for pages with block gold and a segmenting variant.
    pub ari: Option<f64>,
    /// ARI against level-1 and level-2 blocks.
    pub ari_level2: Option<f64>,
}

/// Scores one variant on one page.
pub fn score_page(text: &PageText, gold: &PageGold, verdicts: &Verdicts) -> PageScores {
    let truth = &gold.truth.truth;
    let word_pairs = || {
        text.words.iter().zip(truth).filter_map(|(word, truth)| {
            truth
                .is_template()
                .map(|gold| (verdicts.leaf_template[word.leaf], gold, word))
        })
    };
    let text_counts = Counts::tally(word_pairs().map(|(detected, gold, _)| (detected, gold)));
    let anchor_text = Counts::tally(
        word_pairs()
            .filter(|(_, _, word)| word.link.is_some())
            .map(|(detected, gold, _)| (detected, gold)),
    );
    // Per link: (gold template words, gold non-template words).
    let mut link_votes = vec![(0usize, 0usize); text.links.len()];
    for (_, gold, word) in word_pairs() {
        if let Some(link) = word.link {
            let votes = &mut link_votes[link];
            if gold {
                votes.0 += 1;
            } else {
                votes.1 += 1;
            }
        }
    }
    let links = Counts::tally(
        link_votes
            .iter()
            .zip(&verdicts.link_template)
            .filter(|((template, content), _)| template + content > 0)
            .map(|(&(template, content), &detected)| (detected, template > content)),
    );
    let (ari, ari_level2) = match (&gold.truth.blocks, &verdicts.leaf_group) {
        (Some(blocks), Some(groups)) => (
            segmentation_ari(
                text,
                blocks,
                verdicts.leaf_region.as_deref().unwrap_or(groups),
                BlockLevel::Top,
            ),
            segmentation_ari(text, blocks, groups, BlockLevel::UpToLevel2),
        ),
        _ => (None, None),
    };
    PageScores {
        text: text_counts,
        anchor_text,
        links,
        main_text: main_text_counts(text, &gold.main_text, &verdicts.leaf_template),
        terms: term_counts(text, truth, &verdicts.leaf_template),
        ari,
        ari_level2,
    }
}

/// Kept words (leaves not template) against the gold main text, aligned as sequences: matched
/// kept words are true positives, unmatched kept words false positives, unmatched gold words
/// false negatives — the word-level measure of main-text extraction benchmarks.
fn main_text_counts(text: &PageText, gold_words: &[String], leaf_template: &[bool]) -> Counts {
    let kept: Vec<&str> = text
        .words
        .iter()
        .filter(|word| !leaf_template[word.leaf])
        .map(|word| word.text.as_str())
        .collect();
    aligned_counts(&kept, gold_words)
}

/// Vieira et al. (CIKM 2006) compare the *terms* of the detected template with the terms of the
/// real one: sets of distinct words, here those of template leaves vs those of gold template
/// words (unscored words take no part on either side).
fn term_counts(text: &PageText, truth: &[WordTruth], leaf_template: &[bool]) -> Counts {
    let mut detected = BTreeSet::new();
    let mut gold = BTreeSet::new();
    for (word, truth) in text.words.iter().zip(truth) {
        let Some(gold_template) = truth.is_template() else {
            continue;
        };
        if leaf_template[word.leaf] {
            detected.insert(word.text.as_str());
        }
        if gold_template {
            gold.insert(word.text.as_str());
        }
    }
    let common = detected.intersection(&gold).count() as u64;
    Counts {
        tp: common,
        fp: detected.len() as u64 - common,
        fn_: gold.len() as u64 - common,
    }
}

/// ARI between the detected grouping of leaves and the gold blocks (Section 6.1: each leaf in
/// the group of its closest segment root). A leaf's gold block is the most common block of its
/// aligned words; leaves with no aligned word take no part, and text outside every block forms
/// one group. `None` when fewer than two leaves take part.
pub fn segmentation_ari(
    text: &PageText,
    blocks: &[Option<GoldBlocks>],
    groups: &[u32],
    level: BlockLevel,
) -> Option<f64> {
    let mut votes: Vec<HashMap<Option<u32>, usize>> = vec![HashMap::new(); text.leaves.len()];
    for (word, block) in text.words.iter().zip(blocks) {
        if let Some(block) = block {
            let label = match level {
                BlockLevel::Top => block.top,
                BlockLevel::UpToLevel2 => block.upto_level2,
            };
            *votes[word.leaf].entry(label).or_default() += 1;
        }
    }
    let (detected, gold): (Vec<u32>, Vec<Option<u32>>) = votes
        .iter()
        .zip(groups)
        .filter_map(|(votes, &group)| {
            // Most votes, then the smallest label: deterministic.
            let gold = votes
                .iter()
                .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
                .map(|(label, _)| *label)?;
            Some((group, gold))
        })
        .unzip();
    (detected.len() >= 2).then(|| adjusted_rand_index(&detected, &gold))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::page_text::{Leaf, PageWord};

    use WordTruth::{NotTemplate as C, Template as T, Unscored as U};

    /// Leaves: 0 = "home about" (a link each), 1 = "story text here", 2 = "more" (link).
    fn page() -> PageText {
        let word = |text: &str, leaf, link| PageWord {
            text: text.into(),
            leaf,
            link,
        };
        PageText {
            words: vec![
                word("home", 0, Some(0)),
                word("about", 0, Some(1)),
                word("story", 1, None),
                word("text", 1, None),
                word("here", 1, None),
                word("more", 2, Some(2)),
            ],
            leaves: [2, 3, 1]
                .iter()
                .enumerate()
                .map(|(i, &words)| Leaf {
                    element: NodeId(i as u32 + 1),
                    words,
                })
                .collect(),
            links: vec![NodeId(10), NodeId(11), NodeId(12)],
        }
    }

    fn gold(truth: Vec<WordTruth>, main_text: &str) -> PageGold {
        PageGold {
            truth: PageTruth {
                truth,
                blocks: None,
            },
            main_text: main_text.split(' ').map(String::from).collect(),
            comments: None,
        }
    }

    #[test]
    fn text_anchor_text_and_links_are_tallied_from_leaf_and_link_verdicts() {
        let gold = gold(vec![T, T, C, C, C, C], "story text here more");
        // Leaf 0 (nav) template, leaf 2 ("more") wrongly template; link 1 missed as a link.
        let verdicts = Verdicts {
            leaf_template: vec![true, false, true],
            link_template: vec![true, false, true],
            leaf_group: None,
            leaf_region: None,
        };
        let scores = score_page(&page(), &gold, &verdicts);
        let counts = |tp, fp, fn_| Counts { tp, fp, fn_ };
        assert_eq!(scores.text, counts(2, 1, 0));
        assert_eq!(scores.anchor_text, counts(2, 1, 0));
        assert_eq!(scores.links, counts(1, 1, 1));
        assert_eq!(scores.main_text, counts(3, 0, 1));
        assert_eq!(scores.terms, counts(2, 1, 0));
        assert_eq!(scores.ari, None);
    }

    #[test]
    fn unscored_words_and_links_without_scored_words_are_left_out() {
        let gold = gold(vec![U, T, C, U, C, U], "story here");
        let verdicts = Verdicts {
            leaf_template: vec![true, true, true],
            link_template: vec![true, true, true],
            leaf_group: None,
            leaf_region: None,
        };
        let scores = score_page(&page(), &gold, &verdicts);
        assert_eq!(scores.text.tp + scores.text.fp + scores.text.fn_, 3);
        // Only link 1 ("about") has a scored word.
        assert_eq!(scores.links.tp + scores.links.fp + scores.links.fn_, 1);
    }

    #[test]
    fn a_link_is_template_when_most_of_its_words_are_and_ties_are_not_template() {
        let text = PageText {
            words: ["a", "b"]
                .iter()
                .map(|w| PageWord {
                    text: (*w).into(),
                    leaf: 0,
                    link: Some(0),
                })
                .collect(),
            leaves: vec![Leaf {
                element: NodeId(1),
                words: 2,
            }],
            links: vec![NodeId(1)],
        };
        let verdicts = Verdicts {
            leaf_template: vec![true],
            link_template: vec![true],
            leaf_group: None,
            leaf_region: None,
        };
        let tie = score_page(&text, &gold(vec![T, C], ""), &verdicts);
        assert_eq!(tie.links.fp, 1);
        let template = score_page(&text, &gold(vec![T, T], ""), &verdicts);
        assert_eq!(template.links.tp, 1);
    }

    #[test]
    fn ari_compares_sections_of_leaves_with_their_majority_gold_block() {
        let blocks = |top, level2| {
            Some(GoldBlocks {
                top: Some(top),
                upto_level2: Some(level2),
                innermost: Some(level2),
            })
        };
        // Gold: leaf 0 in block 0 (sub-block 1), leaves 1 and 2 in block 2 (sub-blocks 3, 4).
        let gold_blocks = vec![
            blocks(0, 1),
            blocks(0, 1),
            blocks(2, 3),
            None,
            blocks(2, 3),
            blocks(2, 4),
        ];
        let text = page();
        let same_as_top = segmentation_ari(&text, &gold_blocks, &[7, 9, 9], BlockLevel::Top);
        assert_eq!(same_as_top, Some(1.0));
        let same_as_level2 =
            segmentation_ari(&text, &gold_blocks, &[7, 9, 5], BlockLevel::UpToLevel2);
        assert_eq!(same_as_level2, Some(1.0));
        let one_section = segmentation_ari(&text, &gold_blocks, &[1, 1, 1], BlockLevel::Top);
        assert_eq!(one_section, Some(0.0));
    }

    #[test]
    fn element_verdicts_reach_leaves_links_and_sections() {
        let text = page();
        let mut template = vec![false; 13];
        template[1] = true;
        template[12] = true;
        let sections: Vec<NodeId> = (0..13).map(|i| NodeId(i / 2)).collect();
        let verdicts = Verdicts::of_elements(&text, &template, Some(&sections));
        assert_eq!(verdicts.leaf_template, [true, false, false]);
        assert_eq!(verdicts.link_template, [false, false, true]);
        assert_eq!(verdicts.leaf_group, Some(vec![0, 1, 1]));
    }
}
