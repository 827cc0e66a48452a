//! Content on every page. The classifier was trained on SiteLevel labels of sites whose
//! templates are large, so on some article pages every region scores above the fixed threshold
//! — the article included, though it is the *least* template-like region of its page. A page
//! that has running text always has content: when the configured threshold would keep fewer
//! than [`MIN_CONTENT_WORDS`] words of running text, the page's threshold drops just below the
//! lowest templateness that does keep them. The decision is then relative to the page as well
//! as absolute; the scores and sections themselves are unchanged.

use crate::page::Dom;

/// Words of running text a page keeps as content when it has that many.
pub const MIN_CONTENT_WORDS: usize = 50;

/// A page keeping fewer running words than this as content has, in effect, none: less than a
/// sentence. Pages keeping more are left alone — a short article is still content, and
/// lowering the threshold there flips whole regions that people labelled template.
const NO_CONTENT_BELOW: usize = 10;

/// Words of running text (visible text outside links) of each element's own text.
pub fn running_words(dom: &Dom, text_visible: &[bool]) -> Vec<usize> {
    let mut in_link = vec![false; dom.len()];
    for id in dom.ids() {
        let element = dom.element(id);
        in_link[id.index()] = (element.tag == "a" && element.attribute("href").is_some())
            || element.parent.is_some_and(|parent| in_link[parent.index()]);
    }
    let mut words = vec![0; dom.len()];
    for text in &dom.texts {
        let parent = text.parent.index();
        if text_visible[parent] && !in_link[parent] {
            words[parent] += text.text.split_whitespace().count();
        }
    }
    words
}

/// Running-text words by the templateness that decides them, to place a page's threshold.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ContentFloor {
    /// (templateness, words) of every element with running text, by templateness.
    words_by_templateness: Vec<(f64, usize)>,
    total_words: usize,
}

impl ContentFloor {
    /// From each element's deciding templateness and running words.
    pub fn of(templateness: &[f64], running_words: &[usize]) -> ContentFloor {
        let mut words_by_templateness: Vec<(f64, usize)> = templateness
            .iter()
            .zip(running_words)
            .filter(|(_, words)| **words > 0)
            .map(|(&templateness, &words)| (templateness, words))
            .collect();
        words_by_templateness.sort_by(|a, b| a.0.total_cmp(&b.0));
        let total_words = words_by_templateness.iter().map(|(_, words)| words).sum();
        ContentFloor {
            words_by_templateness,
            total_words,
        }
    }

    /// The threshold to apply on this page given the configured one: unchanged when it keeps
    /// at least [`MIN_CONTENT_WORDS`] running words (or all of them on a shorter page), else
    /// just above the lowest templateness at which that many are kept.
    pub fn threshold_for(&self, threshold: f64) -> f64 {
        let needed = MIN_CONTENT_WORDS;
        let kept: usize = self
            .words_by_templateness
            .iter()
            .take_while(|(templateness, _)| *templateness < threshold)
            .map(|(_, words)| words)
            .sum();
        if self.total_words < needed || kept >= NO_CONTENT_BELOW {
            return threshold;
        }
        let mut cumulative = 0;
        for &(templateness, words) in &self.words_by_templateness {
            cumulative += words;
            if cumulative >= needed {
                return templateness.next_up();
            }
        }
        threshold
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_with_content_keeps_the_configured_threshold() {
        let floor = ContentFloor::of(&[0.1, 0.9], &[60, 100]);
        assert_eq!(floor.threshold_for(0.25), 0.25);
    }

    #[test]
    fn a_page_called_all_template_keeps_its_least_template_like_running_text() {
        // Article (0.6, 80 words) below a menu (0.95) and a footer (0.97).
        let floor = ContentFloor::of(&[0.95, 0.6, 0.97, 0.3], &[30, 80, 10, 0]);
        let threshold = floor.threshold_for(0.25);
        assert!(threshold > 0.6 && threshold < 0.95, "{threshold}");
    }

    #[test]
    fn the_floor_gathers_regions_until_it_has_enough_words() {
        let floor = ContentFloor::of(&[0.7, 0.8, 0.9], &[20, 40, 100]);
        let threshold = floor.threshold_for(0.25);
        assert!(threshold > 0.8 && threshold < 0.9, "{threshold}");
    }

    #[test]
    fn a_page_with_less_running_text_than_the_floor_is_left_as_scored() {
        let floor = ContentFloor::of(&[0.7, 0.8], &[5, 7]);
        assert_eq!(floor.threshold_for(0.25), 0.25);
        assert_eq!(ContentFloor::of(&[0.7], &[0]).threshold_for(0.25), 0.25);
    }

    #[test]
    fn a_page_keeping_a_short_article_is_left_as_scored() {
        let floor = ContentFloor::of(&[0.1, 0.9], &[20, 400]);
        assert_eq!(floor.threshold_for(0.25), 0.25);
    }
}
