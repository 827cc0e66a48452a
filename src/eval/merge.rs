//! PageLevel Basic+Merge (Section 6.1, Figure 1): the "naive" smoothing the paper compares
//! isotonic smoothing with. Leaves are taken in document order and a leaf joins its
//! predecessor's group when their classifier scores differ by less than δ; the best δ is found
//! by exhaustive search over [`MERGE_DELTAS`].
//!
//! The paper scores this variant only on segmentation. To give it a template decision too, a
//! group is template when the mean score of its words reaches the threshold.

use super::page_text::PageText;
use super::scoring::Verdicts;

/// The δ values searched (score differences on the 0–1 scale).
pub const MERGE_DELTAS: [f64; 8] = [0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5];

/// Basic+Merge verdicts from the Basic score of every element (indexed by element), with link
/// verdicts following the group of the link's first word (a link without words keeps its own
/// Basic decision).
pub fn merge_verdicts(
    text: &PageText,
    element_score: &[f64],
    delta: f64,
    threshold: f64,
) -> Verdicts {
    let score = |index: usize| element_score.get(index).copied().unwrap_or(0.0);
    let leaf_score: Vec<f64> = text
        .leaves
        .iter()
        .map(|leaf| score(leaf.element.index()))
        .collect();
    let mut leaf_group = Vec::with_capacity(leaf_score.len());
    // Per group: (sum of word-weighted scores, words).
    let mut group_mass: Vec<(f64, f64)> = Vec::new();
    for (index, (leaf, &value)) in text.leaves.iter().zip(&leaf_score).enumerate() {
        let joins = index > 0 && (value - leaf_score[index - 1]).abs() < delta;
        if !joins {
            group_mass.push((0.0, 0.0));
        }
        let group = group_mass.len() - 1;
        let weight = leaf.words.max(1) as f64;
        group_mass[group].0 += value * weight;
        group_mass[group].1 += weight;
        leaf_group.push(group as u32);
    }
    let group_template: Vec<bool> = group_mass
        .iter()
        .map(|&(mass, words)| mass / words >= threshold)
        .collect();
    let leaf_template: Vec<bool> = leaf_group
        .iter()
        .map(|&group| group_template[group as usize])
        .collect();
    let mut first_leaf_of_link = vec![None; text.links.len()];
    for word in &text.words {
        if let Some(link) = word.link {
            first_leaf_of_link[link].get_or_insert(word.leaf);
        }
    }
    let link_template = text
        .links
        .iter()
        .zip(&first_leaf_of_link)
        .map(|(link, leaf)| match leaf {
            Some(leaf) => leaf_template[*leaf],
            None => score(link.index()) >= threshold,
        })
        .collect();
    Verdicts {
        leaf_template,
        link_template,
        leaf_group: Some(leaf_group),
        leaf_region: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::page_text::{Leaf, PageWord};
    use crate::page::NodeId;

    fn page(leaf_words: &[usize]) -> PageText {
        let leaves: Vec<Leaf> = leaf_words
            .iter()
            .enumerate()
            .map(|(i, &words)| Leaf {
                element: NodeId(i as u32),
                words,
            })
            .collect();
        let words = leaves
            .iter()
            .enumerate()
            .flat_map(|(leaf, l)| {
                (0..l.words).map(move |_| PageWord {
                    text: "w".into(),
                    leaf,
                    link: (leaf == 0).then_some(0),
                })
            })
            .collect();
        PageText {
            words,
            leaves,
            links: vec![NodeId(0)],
        }
    }

    #[test]
    fn adjacent_leaves_merge_only_when_their_scores_differ_by_less_than_delta() {
        let scores = [0.9, 0.85, 0.3, 0.32, 0.8];
        let verdicts = merge_verdicts(&page(&[1, 1, 1, 1, 1]), &scores, 0.1, 0.5);
        assert_eq!(verdicts.leaf_group, Some(vec![0, 0, 1, 1, 2]));
        assert_eq!(verdicts.leaf_template, [true, true, false, false, true]);
        let singletons = merge_verdicts(&page(&[1, 1, 1, 1, 1]), &scores, 0.01, 0.5);
        assert_eq!(singletons.leaf_group, Some(vec![0, 1, 2, 3, 4]));
    }

    #[test]
    fn a_merged_group_is_template_when_its_word_weighted_mean_score_reaches_the_threshold() {
        // One group (δ large): (0.9·1 + 0.2·9) / 10 = 0.27 < 0.5, so even the nav leaf is content.
        let verdicts = merge_verdicts(&page(&[1, 9]), &[0.9, 0.2], 1.0, 0.5);
        assert_eq!(verdicts.leaf_template, [false, false]);
        assert_eq!(verdicts.link_template, [false]);
    }
}
