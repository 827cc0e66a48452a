//! Fitting the main-text model (`pagelevel train-main-text`): every paragraph of human-labelled
//! development pages, laid out and scored by the product's own stages, is labelled main text
//! when most of its words align to the page's gold main text; a logistic regression (linfa) over
//! the paragraphs' [`BlockFeatures`] is fitted, long paragraphs weighing more (the measure users
//! read is word F1), and written as a [`MainTextModel`].
//!
//! Only development pages are read: the frozen test pages measure the model, never train it.

use linfa::prelude::*;
use linfa_logistic::LogisticRegression;
use ndarray::{Array1, Array2};

use crate::eval::datasets::{Dataset, DatasetFormat, Split};
use crate::eval::run::labelled_page_source;
use crate::eval::{align_words, main_text_words};
use crate::extract::{
    BLOCK_FEATURE_COUNT, BlockFeatures, MainTextModel, MainTextTraining, paragraph_rows,
};
use crate::layout::LayoutSource;
use crate::model::TemplateModel;
use crate::page::ParseLimits;
use crate::params::ValidParams;
use crate::pipeline::{lay_out_page, score_laid_out};
use crate::text::{paragraphs, word_tokens};

/// A paragraph is main text when at least this share of its words align to the gold.
const MAIN_WORD_SHARE: f64 = 0.5;

/// One labelled paragraph.
#[derive(Debug, Clone, PartialEq)]
pub struct MainTextExample {
    /// The set it comes from.
    pub set: DatasetFormat,
    /// The page's name in its set.
    pub page: String,
    /// Its words.
    pub words: usize,
    /// What the model sees.
    pub features: BlockFeatures,
    /// Whether the gold holds it.
    pub is_main: bool,
}

/// What happened to one page.
pub enum MainTextPage {
    /// Laid out and labelled: this many paragraphs.
    Labelled(usize),
    /// Could not be scored (its reason).
    Failed(String),
}

/// Labels the paragraphs of every development page of `datasets`, laid out by `layout` and
/// scored with `model` and `params`. Test pages are skipped whatever the caller loaded.
pub fn label_main_text(
    datasets: &[Dataset],
    layout: &mut dyn LayoutSource,
    model: &TemplateModel,
    params: &ValidParams,
    limits: &ParseLimits,
    on_page: &mut dyn FnMut(&str, MainTextPage),
) -> Vec<MainTextExample> {
    let mut examples = Vec::new();
    for dataset in datasets {
        for page in dataset.pages.iter().filter(|page| page.split == Split::Dev) {
            let labelled = (|| -> Result<Vec<MainTextExample>, String> {
                let source = labelled_page_source(page).map_err(|error| error.to_string())?;
                let laid_out =
                    lay_out_page(layout, &source, limits).map_err(|error| error.to_string())?;
                let gold = main_text_words(&page.gold).map_err(|error| error.to_string())?;
                let scored =
                    score_laid_out(laid_out, model, params).map_err(|error| error.to_string())?;
                let dom = &scored.laid_out.page.dom;
                let rows = paragraph_rows(
                    dom,
                    &scored.laid_out.layout,
                    &paragraphs(dom, &scored.segmented.text_visible),
                    &scored.segmented.templateness,
                    scored.segmented.threshold,
                    &scored.laid_out.page.title,
                );
                Ok(label_rows(rows, &gold)
                    .into_iter()
                    .map(|(words, features, is_main)| MainTextExample {
                        set: dataset.format,
                        page: page.name.clone(),
                        words,
                        features,
                        is_main,
                    })
                    .collect())
            })();
            match labelled {
                Ok(labelled) => {
                    on_page(&page.name, MainTextPage::Labelled(labelled.len()));
                    examples.extend(labelled);
                }
                Err(reason) => on_page(&page.name, MainTextPage::Failed(reason)),
            }
        }
    }
    examples
}

/// Each paragraph's words, features and whether most of its words align to the gold words (the
/// page's paragraphs aligned as one sequence, as the main-text measure aligns an output).
fn label_rows(
    rows: Vec<(String, BlockFeatures)>,
    gold: &[String],
) -> Vec<(usize, BlockFeatures, bool)> {
    let tokens: Vec<Vec<String>> = rows.iter().map(|(text, _)| word_tokens(text)).collect();
    let page_words: Vec<&str> = tokens.iter().flatten().map(String::as_str).collect();
    let gold_words: Vec<&str> = gold.iter().map(String::as_str).collect();
    let matched = align_words(&page_words, &gold_words);
    let mut at = 0;
    rows.into_iter()
        .zip(&tokens)
        .map(|((_, features), words)| {
            let aligned = matched[at..at + words.len()]
                .iter()
                .filter(|found| found.is_some())
                .count();
            at += words.len();
            let is_main =
                !words.is_empty() && aligned as f64 >= MAIN_WORD_SHARE * words.len() as f64;
            (words.len(), features, is_main)
        })
        .collect()
}

/// How the model is fitted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MainTextFit {
    /// L2 regularisation of the logistic regression.
    pub alpha: f64,
    /// Iterations of its optimiser.
    pub max_iterations: u64,
    /// The probability at which a paragraph is main text.
    pub cut: f64,
}

impl Default for MainTextFit {
    fn default() -> Self {
        MainTextFit {
            alpha: 1.0,
            max_iterations: 300,
            cut: 0.5,
        }
    }
}

/// Why a main-text model could not be fitted.
#[derive(Debug, thiserror::Error)]
pub enum MainTextFitError {
    /// Nothing to learn from.
    #[error("the pages gave {0} paragraphs of main text and {1} of other text: both are needed")]
    OneClass(usize, usize),
    /// The optimiser failed.
    #[error("the logistic regression failed: {0}")]
    Logistic(String),
}

/// How many times a paragraph of `words` words counts: one, and one more per 25 words up to
/// 200, so that the fit weighs text roughly as word F1 does without letting one long paragraph
/// outweigh a page.
fn copies(words: usize) -> usize {
    1 + words.min(200) / 25
}

/// Fits the model on `examples`.
pub fn fit_main_text(
    examples: &[MainTextExample],
    fit: &MainTextFit,
    layout: &str,
) -> Result<MainTextModel, MainTextFitError> {
    let main = examples.iter().filter(|example| example.is_main).count();
    if main == 0 || main == examples.len() {
        return Err(MainTextFitError::OneClass(main, examples.len() - main));
    }
    let weighted: Vec<&MainTextExample> = examples
        .iter()
        .flat_map(|example| std::iter::repeat_n(example, copies(example.words)))
        .collect();
    let count = weighted.len() as f64;
    let mut mean = vec![0.0; BLOCK_FEATURE_COUNT];
    let mut scale = vec![0.0; BLOCK_FEATURE_COUNT];
    for example in &weighted {
        for (sum, value) in mean.iter_mut().zip(&example.features) {
            *sum += value / count;
        }
    }
    for example in &weighted {
        for ((sum, value), mean) in scale.iter_mut().zip(&example.features).zip(&mean) {
            *sum += (value - mean).powi(2) / count;
        }
    }
    for value in &mut scale {
        *value = if *value > 1e-12 { value.sqrt() } else { 1.0 };
    }
    let mut records = Array2::<f64>::zeros((weighted.len(), BLOCK_FEATURE_COUNT));
    for (row, example) in weighted.iter().enumerate() {
        for column in 0..BLOCK_FEATURE_COUNT {
            records[[row, column]] = (example.features[column] - mean[column]) / scale[column];
        }
    }
    let targets: Array1<bool> = weighted.iter().map(|example| example.is_main).collect();
    let fitted = LogisticRegression::default()
        .alpha(fit.alpha)
        .max_iterations(fit.max_iterations)
        .fit(&linfa::Dataset::new(records, targets))
        .map_err(|error| MainTextFitError::Logistic(error.to_string()))?;
    // linfa-logistic reports P(its positive class); turn the model around if that is `false`.
    let sign = if fitted.labels().pos.class { 1.0 } else { -1.0 };
    let mut sets: Vec<(String, usize)> = Vec::new();
    let mut last_page: Option<(DatasetFormat, &str)> = None;
    for example in examples {
        if last_page != Some((example.set, example.page.as_str())) {
            last_page = Some((example.set, example.page.as_str()));
            match sets.last_mut() {
                Some((name, pages)) if name == example.set.name() => *pages += 1,
                _ => sets.push((example.set.name().to_string(), 1)),
            }
        }
    }
    Ok(MainTextModel::over_all_features(
        mean,
        scale,
        fitted.params().iter().map(|weight| sign * weight).collect(),
        sign * fitted.intercept(),
        fit.cut,
        MainTextTraining {
            sets,
            paragraphs: examples.len(),
            main_paragraphs: main,
            layout: layout.to_string(),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paragraph_is_main_text_when_most_of_its_words_align_to_the_gold() {
        let rows = vec![
            ("Home News Sport".to_string(), [0.0; BLOCK_FEATURE_COUNT]),
            ("The river rose".to_string(), [0.0; BLOCK_FEATURE_COUNT]),
            (
                "before dawn, they said".to_string(),
                [0.0; BLOCK_FEATURE_COUNT],
            ),
        ];
        let gold = word_tokens("The river rose before dawn");
        let labels: Vec<bool> = label_rows(rows, &gold)
            .into_iter()
            .map(|(_, _, is_main)| is_main)
            .collect();
        assert_eq!(labels, [false, true, true]);
    }

    #[test]
    fn a_fit_separates_what_the_features_separate() {
        let example = |value: f64, is_main: bool| {
            let mut features = [0.0; BLOCK_FEATURE_COUNT];
            features[0] = value;
            MainTextExample {
                set: DatasetFormat::Dragnet,
                page: "1".to_string(),
                words: 10,
                features,
                is_main,
            }
        };
        let examples: Vec<MainTextExample> = (0..40)
            .map(|index| example(index as f64 / 40.0, index < 20))
            .collect();
        let model = fit_main_text(&examples, &MainTextFit::default(), "native").unwrap();
        let low = model.probability(&example(0.1, true).features);
        let high = model.probability(&example(0.9, false).features);
        assert!(low > 0.5 && high < 0.5, "{low} {high}");
        assert_eq!(model.training.sets, [("dragnet".to_string(), 1)]);
        assert!(matches!(
            fit_main_text(&examples[..10], &MainTextFit::default(), "native"),
            Err(MainTextFitError::OneClass(10, 0))
        ));
    }
}
