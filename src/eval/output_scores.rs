//! The text the product hands users, scored as main-text extraction benchmarks score it: the
//! words of an output string (`content_text`, `main_text`, or another extractor's output for
//! the same page) aligned as a sequence against the gold main text's words. Matched output
//! words are true positives, unmatched output words false positives, unmatched gold words false
//! negatives. Per dataset: micro (summed counts) and macro (mean of per-page F1) averages, and
//! the count of pages with at least [`MIN_GOLD_WORDS`] gold words where the output is empty.

use serde::Serialize;

use super::align::align_words;
use super::metrics::{Counts, MacroAverage};
use super::summary::PrecisionRecall;
use crate::text::word_tokens;

/// Pages with at least this many gold words must never come out empty.
pub const MIN_GOLD_WORDS: usize = 50;

/// Output words aligned as a sequence against the gold words: matched output words are true
/// positives, unmatched output words false positives, unmatched gold words false negatives.
pub fn aligned_counts(output_words: &[&str], gold_words: &[String]) -> Counts {
    let gold: Vec<&str> = gold_words.iter().map(String::as_str).collect();
    let matched = align_words(output_words, &gold)
        .iter()
        .filter(|found| found.is_some())
        .count() as u64;
    Counts {
        tp: matched,
        fp: output_words.len() as u64 - matched,
        fn_: gold.len() as u64 - matched,
    }
}

/// One output text on one page.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TextScore {
    /// Output words aligned to gold words (tp), output words not aligned (fp), gold words
    /// missed (fn); the positive class is content.
    pub counts: Counts,
    /// Words in the output.
    pub words: usize,
}

impl TextScore {
    /// `output` against the gold main text's words.
    pub fn of(output: &str, gold_words: &[String]) -> TextScore {
        let tokens = word_tokens(output);
        let output_words: Vec<&str> = tokens.iter().map(String::as_str).collect();
        TextScore {
            counts: aligned_counts(&output_words, gold_words),
            words: output_words.len(),
        }
    }

    /// Gold words of the page.
    pub fn gold_words(&self) -> u64 {
        self.counts.tp + self.counts.fn_
    }

    /// Empty output on a page with enough gold text to expect some.
    pub fn is_empty_failure(&self) -> bool {
        self.words == 0 && self.gold_words() >= MIN_GOLD_WORDS as u64
    }
}

/// The product's outputs on one page, and other extractors' outputs for comparison.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OutputScores {
    /// `content_text`: everything not template.
    pub content: TextScore,
    /// `main_text`.
    pub main: TextScore,
    /// `main_text` followed by `comments`: the article with its discussion, what CleanEval's
    /// and Dragnet's gold keep.
    pub main_and_comments: TextScore,
    /// `comments` against the gold comments, on pages whose gold keeps them apart.
    pub comments: Option<TextScore>,
    /// Other extractors, in the order they were given.
    pub external: Vec<TextScore>,
}

/// Totals of one output over a dataset.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct TextTotals {
    micro: Counts,
    macro_average: MacroAverage,
    empty_failures: usize,
    pages: usize,
}

impl TextTotals {
    /// Adds one page's score of the output.
    pub fn add(&mut self, page: &TextScore) {
        self.micro += page.counts;
        self.macro_average.add_page(page.counts);
        self.empty_failures += usize::from(page.is_empty_failure());
        self.pages += 1;
    }

    /// Micro and macro precision/recall/F1 and the count of empty outputs.
    pub fn report(&self) -> TextReport {
        TextReport {
            micro: self.micro.scores().into(),
            macro_average: self.macro_average.scores().into(),
            empty_failures: self.empty_failures,
            pages: self.pages,
        }
    }
}

/// One output's scores over a dataset.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TextReport {
    /// From the word counts summed over pages.
    pub micro: PrecisionRecall,
    /// Means of the per-page scores (`macro` in JSON).
    #[serde(rename = "macro")]
    pub macro_average: PrecisionRecall,
    /// Pages with ≥ [`MIN_GOLD_WORDS`] gold words and an empty output.
    pub empty_failures: usize,
    /// Pages scored.
    pub pages: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        word_tokens(text)
    }

    #[test]
    fn output_words_are_aligned_in_order_against_the_gold() {
        let score = TextScore::of(
            "Home. The storm came; help arrived",
            &words("the storm came help arrived late"),
        );
        assert_eq!(
            score.counts,
            Counts {
                tp: 5,
                fp: 1,
                fn_: 1
            }
        );
        assert_eq!(score.words, 6);
        assert!(!score.is_empty_failure());
    }

    #[test]
    fn an_empty_output_on_a_page_with_enough_gold_is_a_failure_and_scores_f1_zero() {
        let gold: Vec<String> = (0..MIN_GOLD_WORDS).map(|i| format!("w{i}")).collect();
        let score = TextScore::of("", &gold);
        assert!(score.is_empty_failure());
        let mut totals = TextTotals::default();
        totals.add(&score);
        let report = totals.report();
        assert_eq!(report.macro_average.f1, Some(0.0));
        assert_eq!(report.empty_failures, 1);
        assert!(!TextScore::of("", &gold[..10]).is_empty_failure());
    }
}
