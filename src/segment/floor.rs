//! Content on every page. The classifier was trained on SiteLevel labels of sites whose
//! templates are large, so on some article pages every region scores above the fixed threshold
//! — the article included, though it is the *least* template-like region of its page. A page
//! that has running text always has content: when the configured threshold would keep less
//! than a sentence, the page's threshold drops just above the lowest templateness that keeps a
//! paragraph of running text ([`ContentFloor::threshold_for`]). The decision is then relative to the page as well
//! as absolute; the scores and sections themselves are unchanged.

use crate::page::Dom;
use crate::text::{Paragraph, count_words};

/// A page with at least this many words of running text has an article-sized text to keep.
pub const MIN_CONTENT_WORDS: usize = 50;

/// How much running text the floor keeps: a paragraph. It keeps everything at or below the
/// templateness where it finds them, so the least template-like region comes whole; measured
/// on development pages, 20, 35 and 50 words differ by ≤ 0.01 in every F1 but 50 flips more
/// text that people labelled template (a short blog post's sidebar, Dragnet 344).
const FLOOR_RUNNING_WORDS: usize = 20;

/// A page keeping fewer visible words than this as content has, in effect, none: less than a
/// sentence. Pages keeping more are left alone — a short article is still content, and
/// lowering the threshold there flips whole regions that people labelled template.
pub(crate) const NO_CONTENT_BELOW: usize = 10;

/// A paragraph shorter than this is a label, a menu item or a caption, not running text.
const SENTENCE_WORDS: usize = 8;

/// Words of running text of each element's own text: visible words outside links, in
/// paragraphs of at least [`SENTENCE_WORDS`] words that are mostly not link text. Menus of
/// short unlinked items ("Our Church", "Meet the Staff") are not running text.
fn running_words(dom: &Dom, paragraphs: &[Paragraph]) -> Vec<usize> {
    let in_link = dom.within_links();
    let mut running = vec![0; dom.len()];
    for paragraph in paragraphs {
        let words = |linked: bool| -> usize {
            paragraph
                .pieces
                .iter()
                .filter(|(parent, _)| in_link[parent.index()] == linked)
                .map(|(_, text)| count_words(text))
                .sum()
        };
        let (plain, linked) = (words(false), words(true));
        if plain + linked < SENTENCE_WORDS || linked >= plain {
            continue;
        }
        for (parent, text) in &paragraph.pieces {
            if !in_link[parent.index()] {
                running[parent.index()] += count_words(text);
            }
        }
    }
    running
}

/// Words sorted by the templateness that decides them: how many a threshold keeps, and the
/// lowest threshold that keeps a given number. The content floor and the main text's
/// page-relative cut (`extract`) both place a page's threshold this way.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WordsByTemplateness {
    /// (templateness, words), by templateness.
    sorted: Vec<(f64, usize)>,
    total: usize,
}

impl WordsByTemplateness {
    /// From (templateness, words) pairs in any order; pairs without words are dropped.
    pub fn new(pairs: impl IntoIterator<Item = (f64, usize)>) -> Self {
        let mut sorted: Vec<(f64, usize)> =
            pairs.into_iter().filter(|(_, words)| *words > 0).collect();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        WordsByTemplateness {
            total: sorted.iter().map(|(_, words)| words).sum(),
            sorted,
        }
    }

    /// Words of running text on the page.
    pub fn total(&self) -> usize {
        self.total
    }

    /// Words whose templateness is below `threshold` (content at that threshold).
    pub fn kept_below(&self, threshold: f64) -> usize {
        self.sorted
            .iter()
            .take_while(|(templateness, _)| *templateness < threshold)
            .map(|(_, words)| words)
            .sum()
    }

    /// The lowest threshold that keeps at least `needed` words (just above the templateness
    /// where they are reached); `None` when there are fewer words than that.
    pub fn threshold_keeping(&self, needed: usize) -> Option<f64> {
        let mut cumulative = 0;
        self.sorted.iter().find_map(|&(templateness, words)| {
            cumulative += words;
            (cumulative >= needed).then(|| templateness.next_up())
        })
    }
}

/// A page's words by templateness, to place its threshold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ContentFloor {
    running: WordsByTemplateness,
    visible: WordsByTemplateness,
}

impl ContentFloor {
    /// A page's floor from its DOM, its visible paragraphs ([`super::paragraphs`]), each
    /// element's deciding templateness and text visibility.
    pub fn of_page(
        dom: &Dom,
        paragraphs: &[Paragraph],
        templateness: &[f64],
        text_visible: &[bool],
    ) -> ContentFloor {
        let mut visible_words = vec![0; dom.len()];
        for text in &dom.texts {
            if text_visible[text.parent.index()] {
                visible_words[text.parent.index()] += count_words(&text.text);
            }
        }
        ContentFloor::of(
            templateness,
            &running_words(dom, paragraphs),
            &visible_words,
        )
    }

    /// From each element's deciding templateness, running words and visible words.
    pub fn of(templateness: &[f64], running_words: &[usize], visible_words: &[usize]) -> Self {
        let by_templateness = |words: &[usize]| {
            WordsByTemplateness::new(templateness.iter().copied().zip(words.iter().copied()))
        };
        ContentFloor {
            running: by_templateness(running_words),
            visible: by_templateness(visible_words),
        }
    }

    /// The threshold to apply on this page given the configured one: unchanged when the page
    /// keeps some content (at least `NO_CONTENT_BELOW` (10) words of running text, or of
    /// visible text on a page with less than [`MIN_CONTENT_WORDS`] of running text); else just above the
    /// lowest templateness at which `FLOOR_RUNNING_WORDS` (20) running words are kept, or, on a
    /// page with less than [`MIN_CONTENT_WORDS`] of running text, `NO_CONTENT_BELOW` (10) visible
    /// words.
    pub fn threshold_for(&self, threshold: f64) -> f64 {
        let has_running_text = self.running.total() >= MIN_CONTENT_WORDS;
        // On a page with running text, what counts as kept content is running text: share
        // buttons and labels ("Share", "Tweet", "Email this") are visible words, not content.
        let kept = if has_running_text {
            &self.running
        } else {
            &self.visible
        };
        if kept.kept_below(threshold) >= NO_CONTENT_BELOW {
            return threshold;
        }
        // Running text when the page has enough of it; else a sentence's worth of any text.
        let lowered = if has_running_text {
            self.running.threshold_keeping(FLOOR_RUNNING_WORDS)
        } else {
            self.visible.threshold_keeping(NO_CONTENT_BELOW)
        };
        lowered.map_or(threshold, |lowered| threshold.max(lowered))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_with_content_keeps_the_configured_threshold() {
        let floor = ContentFloor::of(&[0.1, 0.9], &[60, 100], &[60, 100]);
        assert_eq!(floor.threshold_for(0.25), 0.25);
    }

    #[test]
    fn a_page_called_all_template_keeps_its_least_template_like_running_text() {
        // Article (0.6, 80 words) below a menu (0.95) and a footer (0.97).
        let floor = ContentFloor::of(&[0.95, 0.6, 0.97, 0.3], &[30, 80, 10, 0], &[30, 80, 10, 2]);
        let threshold = floor.threshold_for(0.25);
        assert!(threshold > 0.6 && threshold < 0.95, "{threshold}");
    }

    #[test]
    fn the_floor_gathers_regions_until_it_has_enough_words() {
        let floor = ContentFloor::of(&[0.7, 0.8, 0.9], &[8, 40, 100], &[8, 40, 100]);
        let threshold = floor.threshold_for(0.25);
        assert!(threshold > 0.8 && threshold < 0.9, "{threshold}");
    }

    #[test]
    fn a_page_with_little_running_text_keeps_a_sentence_of_its_least_template_like_text() {
        let floor = ContentFloor::of(&[0.7, 0.8, 0.9], &[5, 0, 0], &[5, 7, 30]);
        let threshold = floor.threshold_for(0.25);
        assert!(threshold > 0.8 && threshold < 0.9, "{threshold}");
    }

    #[test]
    fn a_page_keeping_a_short_article_is_left_as_scored() {
        let floor = ContentFloor::of(&[0.1, 0.9], &[15, 400], &[20, 400]);
        assert_eq!(floor.threshold_for(0.25), 0.25);
    }

    #[test]
    fn share_buttons_kept_as_content_do_not_stand_in_for_the_article() {
        // "Share Tweet Email Print ..." (20 visible words, no running text) under the
        // threshold; the article (400 running words) just above it.
        let floor = ContentFloor::of(&[0.1, 0.45, 0.9], &[0, 400, 0], &[20, 400, 60]);
        let threshold = floor.threshold_for(0.25);
        assert!(threshold > 0.45 && threshold < 0.9, "{threshold}");
    }
}
