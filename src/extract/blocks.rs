//! What the learned main-text model knows of each paragraph of a page: its smoothed
//! templateness and where that ranks on the page, its words and links, the region and block it
//! sits in, where its box lies on the page and relative to the headline, its neighbours, the
//! rules' choice, and whether the page's own structured data (JSON-LD `articleBody`,
//! `<article>`, `itemprop="articleBody"`) holds it — evidence, not the answer.

use std::collections::HashSet;

use super::repeats::Repeats;
use super::{ParagraphFacts, Region};
use crate::layout::{Layout, LayoutBox};
use crate::page::{Dom, NodeId};
use crate::text::word_tokens;

/// The features of one paragraph, in the order of [`BLOCK_FEATURE_NAMES`].
pub type BlockFeatures = [f64; BLOCK_FEATURE_COUNT];

/// How many features a paragraph has.
pub const BLOCK_FEATURE_COUNT: usize = 31;

/// The features' names, as the model file and its card list them.
pub const BLOCK_FEATURE_NAMES: [&str; BLOCK_FEATURE_COUNT] = [
    "templateness",
    "templateness_rank",
    "below_threshold",
    "log_words",
    "link_density",
    "region_boilerplate",
    "region_comment",
    "in_form",
    "heading",
    "list_item",
    "table_cell",
    "top",
    "center_x",
    "width",
    "log_words_per_line",
    "in_rules_main",
    "in_article_markup",
    "structured_data_overlap",
    "sentence_end",
    "previous_templateness",
    "next_templateness",
    "previous_link_density",
    "next_link_density",
    "below_headline",
    "has_headline",
    "long_without_sentences",
    "separated_list",
    "log_link_words",
    "log_repeats",
    "log_repeated_block_words",
    "repeated_share",
];

/// The features of the repeated block a paragraph sits in ([`super::repeats`]): the last of
/// [`BLOCK_FEATURE_NAMES`].
pub const REPEAT_FEATURES: [&str; 3] =
    ["log_repeats", "log_repeated_block_words", "repeated_share"];

/// A paragraph this long without a sentence end is not prose.
const LONG_PARAGRAPH_WORDS: usize = 20;

/// A paragraph this long with a separator every few words is a list of names, tags or links.
const LIST_WORDS: usize = 10;

/// A line of text is about this many CSS px high (16 px type, normal line height).
const LINE_HEIGHT_PX: f64 = 20.0;

/// The features of every paragraph in `facts`. `in_rules_main` marks the paragraphs the rules
/// chose; `threshold` is the page's.
pub(super) fn block_features(
    dom: &Dom,
    layout: &Layout,
    facts: &[ParagraphFacts],
    in_rules_main: &[bool],
    threshold: f64,
    title: &str,
) -> Vec<BlockFeatures> {
    let page_width = layout.page_width.max(1.0);
    let page_height = layout.page_height.max(1.0);
    let box_of = |id: NodeId| -> Option<LayoutBox> { layout.boxes.get(id.index()).copied()? };
    let in_article = dom.within(|element| {
        matches!(element.tag.as_str(), "article" | "main")
            || element
                .attribute("itemprop")
                .is_some_and(|value| value.eq_ignore_ascii_case("articleBody"))
    });
    let structured_words = structured_data_words(dom);
    let headline_top = headline(dom, title).and_then(box_of).map(|found| found.y);
    let total_words: usize = facts.iter().map(|facts| facts.words).sum();
    let mut by_templateness: Vec<(f64, usize)> = facts
        .iter()
        .map(|facts| (facts.templateness, facts.words))
        .collect();
    by_templateness.sort_by(|a, b| a.0.total_cmp(&b.0));
    // Words of the paragraphs before each position of the sorted list: a rank is one lookup.
    let words_before: Vec<usize> = std::iter::once(0)
        .chain(by_templateness.iter().scan(0, |sum, (_, words)| {
            *sum += words;
            Some(*sum)
        }))
        .collect();
    let rank = |templateness: f64| {
        let lower = by_templateness.partition_point(|(other, _)| *other < templateness);
        words_before[lower] as f64 / total_words.max(1) as f64
    };
    facts
        .iter()
        .enumerate()
        .map(|(index, paragraph)| {
            let block_box = box_of(paragraph.block).or_else(|| box_of(paragraph.anchor));
            let anchor_box = box_of(paragraph.anchor).or(block_box);
            let top = anchor_box.map_or(1.0, |found| (found.y / page_height).clamp(0.0, 1.0));
            let (center_x, width, words_per_line) = block_box.map_or((0.5, 0.0, 0.0), |found| {
                let lines = (found.height / LINE_HEIGHT_PX).max(1.0);
                (
                    ((found.x + found.width / 2.0) / page_width).clamp(0.0, 1.0),
                    (found.width / page_width).clamp(0.0, 1.0),
                    paragraph.words as f64 / lines,
                )
            });
            let block_tag = dom.element(paragraph.block).tag.as_str();
            let neighbour = |at: Option<usize>| at.and_then(|at| facts.get(at));
            let previous = neighbour(index.checked_sub(1));
            let next = neighbour(Some(index + 1));
            let below_headline = match (headline_top, anchor_box) {
                (Some(headline), Some(found)) => {
                    ((found.y - headline) / page_height).clamp(-1.0, 1.0)
                }
                _ => 0.0,
            };
            [
                paragraph.templateness,
                rank(paragraph.templateness),
                flag(paragraph.templateness < threshold),
                (1.0 + paragraph.words as f64).ln(),
                link_density(paragraph),
                flag(paragraph.region == Region::Boilerplate),
                flag(paragraph.region == Region::Comment),
                flag(paragraph.in_form),
                flag(matches!(block_tag, "h1" | "h2" | "h3" | "h4" | "h5" | "h6")),
                flag(matches!(block_tag, "li" | "dt" | "dd")),
                flag(matches!(block_tag, "td" | "th")),
                top,
                center_x,
                width,
                (1.0 + words_per_line).ln(),
                flag(in_rules_main[index]),
                flag(in_article[paragraph.anchor.index()]),
                structured_overlap(&paragraph.text, &structured_words),
                flag(ends_a_sentence(&paragraph.text)),
                previous.map_or(paragraph.templateness, |facts| facts.templateness),
                next.map_or(paragraph.templateness, |facts| facts.templateness),
                previous.map_or(0.0, link_density),
                next.map_or(0.0, link_density),
                below_headline,
                flag(headline_top.is_some()),
                // Flags, not ratios: a ratio's effect is not monotone (a caption "Getty." ends
                // a sentence every word), and the model is linear.
                flag(
                    paragraph.words >= LONG_PARAGRAPH_WORDS
                        && sentences_per_word(&paragraph.text, paragraph.words) < 0.01,
                ),
                flag(
                    paragraph.words >= LIST_WORDS
                        && separators_per_word(&paragraph.text, paragraph.words) >= 0.3,
                ),
                (1.0 + paragraph.link_words as f64).ln(),
                // The repetition facts: `add_repeat_features` when a model weighs them.
                0.0,
                0.0,
                0.0,
            ]
        })
        .collect()
}

/// Sets the [`REPEAT_FEATURES`] of every paragraph in `facts` (zero in what
/// [`block_features`] gives): only the page types' own models weigh them, so most pages never
/// pay for finding their repeated blocks.
pub(super) fn add_repeat_features(
    dom: &Dom,
    facts: &[ParagraphFacts],
    features: &mut [BlockFeatures],
) {
    let repeats = Repeats::new(dom);
    let total_words: usize = facts.iter().map(|facts| facts.words).sum();
    let first = BLOCK_FEATURE_COUNT - REPEAT_FEATURES.len();
    for (paragraph, features) in facts.iter().zip(features) {
        let repeat = repeats.around(dom, paragraph.anchor);
        features[first..].copy_from_slice(&[
            (repeat.siblings as f64).ln(),
            (1.0 + repeat.block_words as f64).ln(),
            (repeat.group_words as f64 / total_words.max(1) as f64).min(1.0)
                * flag(repeat.siblings > 1),
        ]);
    }
}

fn flag(value: bool) -> f64 {
    if value { 1.0 } else { 0.0 }
}

fn link_density(facts: &ParagraphFacts) -> f64 {
    facts.link_words as f64 / facts.words.max(1) as f64
}

/// Whether the text ends as a sentence does (also in CJK, and before a closing quote).
fn ends_a_sentence(text: &str) -> bool {
    text.trim_end()
        .trim_end_matches(['"', '\'', '”', '’', '»', ')'])
        .ends_with(['.', '!', '?', '…', '。', '！', '？', ':'])
}

/// Sentence ends (a terminator followed by a space or the end) per word, at most 1: running
/// text has one every 10–30 words, a list of names or tags none.
fn sentences_per_word(text: &str, words: usize) -> f64 {
    let mut ends = 0usize;
    let mut characters = text.chars().peekable();
    while let Some(character) = characters.next() {
        let is_terminator = matches!(character, '.' | '!' | '?' | '…' | '。' | '！' | '？');
        // Full-width terminators end a sentence without a following space.
        let full_width = matches!(character, '。' | '！' | '？');
        if is_terminator
            && (full_width
                || characters.peek().is_none_or(|next| {
                    next.is_whitespace() || matches!(next, '"' | '”' | '’' | '»' | ')')
                }))
        {
            ends += 1;
        }
    }
    (ends as f64 / words.max(1) as f64).min(1.0)
}

/// List separators (`,` `;` `|` `·` `•` `/` and their full-width forms) per word, at most 1: a
/// comma every few words is a list of names, tags or links, not prose.
fn separators_per_word(text: &str, words: usize) -> f64 {
    let separators = text
        .chars()
        .filter(|character| {
            matches!(
                character,
                ',' | ';' | '|' | '·' | '•' | '/' | '、' | '，' | '；'
            )
        })
        .count();
    (separators as f64 / words.max(1) as f64).min(1.0)
}

/// The page's headline: the first `<h1>` sharing a word with the title, else the first `<h1>`.
fn headline(dom: &Dom, title: &str) -> Option<NodeId> {
    let title_words: HashSet<String> = word_tokens(title).into_iter().collect();
    let headings: Vec<NodeId> = dom
        .ids()
        .filter(|&id| dom.element(id).tag == "h1")
        .collect();
    headings
        .iter()
        .copied()
        .find(|&id| {
            word_tokens(&dom.text(id))
                .iter()
                .any(|word| title_words.contains(word))
        })
        .or_else(|| headings.first().copied())
}

/// The words of the page's JSON-LD `articleBody`, `text` and `description` values.
fn structured_data_words(dom: &Dom) -> HashSet<String> {
    let mut words = HashSet::new();
    for value in json_ld(dom) {
        collect_body_text(&value, &mut words);
    }
    words
}

/// The page's JSON-LD blocks that parse (`<script type="application/ld+json">`).
pub(crate) fn json_ld(dom: &Dom) -> Vec<serde_json::Value> {
    dom.ids()
        .filter(|&id| {
            let element = dom.element(id);
            element.tag == "script"
                && element
                    .attribute("type")
                    .is_some_and(|kind| kind.to_ascii_lowercase().contains("ld+json"))
        })
        .filter_map(|id| serde_json::from_str(&dom.own_text(id)).ok())
        .collect()
}

/// Keys whose string values are the page's own text in schema.org data.
const BODY_KEYS: [&str; 3] = ["articleBody", "text", "description"];

fn collect_body_text(value: &serde_json::Value, words: &mut HashSet<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, inner) in map {
                match inner {
                    serde_json::Value::String(text) if BODY_KEYS.contains(&key.as_str()) => {
                        words.extend(word_tokens(text));
                    }
                    _ => collect_body_text(inner, words),
                }
            }
        }
        serde_json::Value::Array(items) => {
            for item in items {
                collect_body_text(item, words);
            }
        }
        _ => {}
    }
}

/// The share of the text's words that the structured data holds (0 without structured data).
fn structured_overlap(text: &str, structured: &HashSet<String>) -> f64 {
    if structured.is_empty() {
        return 0.0;
    }
    let words = word_tokens(text);
    let found = words
        .iter()
        .filter(|word| structured.contains(*word))
        .count();
    found as f64 / words.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_repetition_facts_are_the_last_features() {
        assert_eq!(
            BLOCK_FEATURE_NAMES[BLOCK_FEATURE_COUNT - REPEAT_FEATURES.len()..],
            REPEAT_FEATURES
        );
    }

    #[test]
    fn sentences_end_with_their_punctuation_in_any_script() {
        assert!(ends_a_sentence("It rained all night."));
        assert!(ends_a_sentence("He said “stay home.”"));
        assert!(ends_a_sentence("雨が降った。"));
        assert!(!ends_a_sentence("Read more"));
    }

    #[test]
    fn prose_has_sentences_and_a_list_of_names_has_separators() {
        let prose = "It rained all night. The river rose, and by dawn it was over the road.";
        let names = "KuroKitsune, Senpaku, jennyjenka, nicarose24, fixatro, Sky_King";
        assert!(sentences_per_word(prose, 15) > 0.1);
        assert_eq!(sentences_per_word(names, 6), 0.0);
        assert!(separators_per_word(names, 6) > 0.8);
        assert!(separators_per_word(prose, 15) < 0.1);
        // Version numbers and URLs are not sentence ends.
        assert_eq!(sentences_per_word("Firefox 3.6 at example.org", 4), 0.0);
        assert!(sentences_per_word("雨が降った。風も吹いた。", 1) == 1.0);
    }

    #[test]
    fn structured_data_text_is_read_from_nested_json_ld() {
        let mut words = HashSet::new();
        let value: serde_json::Value = serde_json::from_str(
            r#"{"@graph": [{"@type": "NewsArticle", "articleBody": "Storm floods valley", "headline": "x"}]}"#,
        )
        .unwrap();
        collect_body_text(&value, &mut words);
        assert!(words.contains("storm") && words.contains("valley"));
        assert!(!words.contains("x"));
        assert_eq!(structured_overlap("the storm came", &words), 1.0 / 3.0);
    }
}
