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

use super::boosting::{BoostingRows, boost};
use crate::eval::datasets::{Dataset, DatasetFormat, Split};
use crate::eval::run::labelled_page_source;
use crate::eval::{align_words, main_text_words};
use crate::extract::{
    BLOCK_FEATURE_COUNT, BLOCK_FEATURE_NAMES, BlockFeatures, BoostedTrees, BoostingSettings,
    MainTextModel, MainTextTraining, PageTypeMainText, REPEAT_FEATURES, Selection, paragraph_rows,
};
use crate::layout::LayoutSource;
use crate::model::TemplateModel;
use crate::page::ParseLimits;
use crate::page_type::{PageType, PageTypeGuess};
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
    /// Its words found in the gold (aligned as the main-text measure aligns an output).
    pub aligned_words: usize,
    /// The words of its page's gold main text.
    pub gold_words: usize,
    /// Its page's type, as `score` guesses it.
    pub page_type: PageTypeGuess,
    /// Its page's type, as the set labels it (WCXB's), if it does.
    pub labelled_type: Option<PageType>,
}

impl MainTextExample {
    /// Whether its set labels its page as one of `page_types`.
    fn labelled_as(&self, page_types: &[PageType]) -> bool {
        self.labelled_type
            .is_some_and(|labelled| page_types.contains(&labelled))
    }
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
                    .map(|row| MainTextExample {
                        set: dataset.format,
                        page: page.name.clone(),
                        words: row.words,
                        features: row.features,
                        is_main: row.is_main,
                        aligned_words: row.aligned_words,
                        gold_words: gold.len(),
                        page_type: scored.page_type,
                        labelled_type: page.labelled_type(),
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

/// One paragraph against the gold.
struct LabelledRow {
    words: usize,
    features: BlockFeatures,
    aligned_words: usize,
    is_main: bool,
}

/// Each paragraph's words, features and how many of them align to the gold words (the page's
/// paragraphs aligned as one sequence, as the main-text measure aligns an output): main text
/// when most do.
fn label_rows(rows: Vec<(String, BlockFeatures)>, gold: &[String]) -> Vec<LabelledRow> {
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
            LabelledRow {
                words: words.len(),
                features,
                aligned_words: aligned,
                is_main: !words.is_empty()
                    && aligned as f64 >= MAIN_WORD_SHARE * words.len() as f64,
            }
        })
        .collect()
}

/// Writes `examples` as CSV, one row per paragraph: where it comes from, its page's type, its
/// words, those found in the gold, the gold's words, its label and its features by name — to fit
/// and compare other models on the same paragraphs.
pub fn write_main_text_rows(
    examples: &[MainTextExample],
    out: impl std::io::Write,
) -> csv::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    let mut header = vec![
        "set",
        "page",
        "page_type",
        "page_type_probability",
        "words",
        "aligned_words",
        "gold_words",
        "is_main",
    ];
    header.extend(BLOCK_FEATURE_NAMES);
    writer.write_record(&header)?;
    for example in examples {
        let mut record = vec![
            example.set.name().to_string(),
            example.page.clone(),
            example.page_type.page_type.name().to_string(),
            example.page_type.probability.to_string(),
            example.words.to_string(),
            example.aligned_words.to_string(),
            example.gold_words.to_string(),
            u8::from(example.is_main).to_string(),
        ];
        record.extend(example.features.iter().map(f64::to_string));
        writer.write_record(&record)?;
    }
    writer.flush()?;
    Ok(())
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
    /// Below this share of the likely words in the container, a page's text is spread.
    pub spread_share: f64,
    /// The probability a paragraph needs on such a page.
    pub spread_cut: f64,
    /// The trees that correct the page types' own models ([`OWN_MODELS`]); none at 0 trees.
    pub boosting: BoostingSettings,
}

impl Default for MainTextFit {
    fn default() -> Self {
        MainTextFit {
            alpha: 1.0,
            max_iterations: 300,
            cut: 0.5,
            // Chosen on the development split (training/reports/main-text/README.md): shares
            // 0.4–0.6 and cuts 0.25–0.35 tried; 0.4 / 0.3 is the one that keeps every article
            // set within 0.005 while lifting WCXB's threads, listings and services.
            spread_share: 0.4,
            spread_cut: 0.3,
            boosting: OWN_MODEL_BOOSTING,
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

/// Page types whose main text gets a model of its own, and the types each is fitted on:
/// threads; listings and collections together (both are grids or lists of items, and apart
/// each had too few pages); service pages. Chosen on WCXB's development pages in three folds by
/// domain (`training/reports/main-text/by-type.md`): per-page word F1 of every paragraph at
/// P ≥ 0.3, forum .658 → .770, listing .645 → .651 (.669 pooled), collection .528 → .551
/// (pooled), service .779 → .795, against the every-page model; products lost (.538 → .492)
/// and keep it.
const OWN_MODELS: [&[PageType]; 3] = [
    &[PageType::Forum],
    &[PageType::Listing, PageType::Collection],
    &[PageType::Service],
];

/// Page types whose main text is one block, as an article's, chosen by the every-page model
/// with trees fitted on every page ([`OWN_MODEL_BOOSTING`], started from its logistic answer):
/// products and documentation. Simulated on every set's development pages in three folds
/// (WCXB's by domain; every paragraph at P ≥ 0.3), the trees lifted products .531 → .553 and
/// documentation .905 → .914, but moved the article sets both ways (Dragnet −.005, L3S-GN1
/// −.010, Big9 +.021, Readability +.009): articles keep the linear model. In the product
/// (development split, page types at p ≥ 0.85): product .548 → .563, documentation .895 →
/// .905, Readability micro +.0032, the other sets within .0003.
const EVERY_PAGE_MODEL_WITH_TREES: [PageType; 2] = [PageType::Product, PageType::Documentation];

/// The probability a paragraph needs to be main text under a page type's own model: every
/// paragraph that likely, wherever it sits. Chosen with [`OWN_MODELS`]: 0.3 beat 0.4 and 0.5
/// on every type.
const OWN_MODEL_CUT: f64 = 0.3;

/// Under a page type's own model, a paragraph at this share of the page's likeliest
/// paragraph's probability is main text too (down to 0.1). Chosen with [`OWN_MODELS`] (the
/// simulation's last table): 0.3 against none and 0.5 — collection .550 → .560, forum .770 →
/// .779, listing .669 → .674, service .795 → .801. In the product (dev): collection .520 →
/// .526, forum .723 → .728, listing .570 → .569, all .8087 → .8095.
const OWN_MODEL_RELATIVE_CUT: f64 = 0.3;

/// The trees that correct the page types' own models. Chosen on WCXB's development pages in
/// three folds by domain (`training/reports/main-text/by-type/boosting.py`), every paragraph at
/// P ≥ 0.3: the logistic own models .550 / .770 / .669 / .795 (collection, forum, listing,
/// service); 100 trees of depth 4 started from them .566 / .784 / .683 / .810; 50 of depth 3
/// .566 / .776 / .688 / .803. scikit-learn's defaults (leaves of 20 paragraphs, 255
/// thresholds) kept. Products keep the every-page model: trees of their own did not help
/// them (.495–.505 against .538).
const OWN_MODEL_BOOSTING: BoostingSettings = BoostingSettings {
    trees: 100,
    depth: 4,
    learning_rate: 0.1,
    min_leaf_paragraphs: 20,
    l2: 1.0,
    thresholds: 255,
};

/// Fits the model on `examples`, and a model of their own for the page types of
/// [`OWN_MODELS`] on the examples of pages labelled with those types (skipped where there are
/// none, or one class). Only the page types' models weigh [`REPEAT_FEATURES`]: on articles
/// they made the choice of container unsteady (development split, the every-page model with
/// them: Dragnet macro F1 .912 → .890, Readability .958 → .953), on threads and listings
/// repetition is what the content is made of.
pub fn fit_main_text(
    examples: &[MainTextExample],
    fit: &MainTextFit,
    layout: &str,
) -> Result<MainTextModel, MainTextFitError> {
    let every: Vec<&MainTextExample> = examples.iter().collect();
    let all_columns: Vec<usize> = (0..BLOCK_FEATURE_COUNT).collect();
    let without_repeats: Vec<usize> = all_columns
        .iter()
        .copied()
        .filter(|&column| !REPEAT_FEATURES.contains(&BLOCK_FEATURE_NAMES[column]))
        .collect();
    let mut model = fit_one(&every, &without_repeats, fit, layout)?;
    model.cut = fit.cut;
    model.spread_share = fit.spread_share;
    model.spread_cut = fit.spread_cut;
    // Only where the sets label products or documentation: articles alone have no use for it.
    let labels_one_block_types = examples
        .iter()
        .any(|example| example.labelled_as(&EVERY_PAGE_MODEL_WITH_TREES));
    if fit.boosting.trees > 0 && labels_one_block_types {
        let mut corrected = model.clone();
        corrected.boosted = Some(boost_from_logistic(
            &model,
            &every,
            &without_repeats,
            &fit.boosting,
        ));
        model.by_page_type.push(PageTypeMainText {
            page_types: EVERY_PAGE_MODEL_WITH_TREES.to_vec(),
            model: corrected,
        });
    }
    for page_types in OWN_MODELS {
        let of_types: Vec<&MainTextExample> = examples
            .iter()
            .filter(|example| example.labelled_as(page_types))
            .collect();
        let Ok(mut typed) = fit_one(&of_types, &all_columns, fit, layout) else {
            continue;
        };
        typed.cut = OWN_MODEL_CUT;
        typed.selection = Selection::Paragraphs;
        typed.spread_cut = OWN_MODEL_CUT;
        typed.relative_cut = OWN_MODEL_RELATIVE_CUT;
        if fit.boosting.trees > 0 {
            typed.boosted = Some(boost_from_logistic(
                &typed,
                &of_types,
                &all_columns,
                &fit.boosting,
            ));
        }
        model.by_page_type.push(PageTypeMainText {
            page_types: page_types.to_vec(),
            model: typed,
        });
    }
    Ok(model)
}

/// Gradient-boosted trees that correct `model`'s logit on `examples` (its features at
/// `columns`), each example counted [`copies`] times as in the logistic fit.
///
/// Started from the logistic answer, not from the prior: in the simulation (three folds by
/// domain) trees alone did a little better on threads (.805 against .784) and listings (.692
/// against .683), but in the product they took a CleanEval page typed as a thread apart
/// (dev-33 .96 → .83, CleanEval micro .9451 → .9276); started from the logistic answer the
/// linear model still speaks on pages unlike the training pages (CleanEval .9447).
fn boost_from_logistic(
    model: &MainTextModel,
    examples: &[&MainTextExample],
    columns: &[usize],
    settings: &BoostingSettings,
) -> BoostedTrees {
    let values: Vec<Vec<f64>> = examples
        .iter()
        .map(|example| {
            columns
                .iter()
                .map(|&column| example.features[column])
                .collect()
        })
        .collect();
    let labels: Vec<bool> = examples.iter().map(|example| example.is_main).collect();
    let weights: Vec<f64> = examples
        .iter()
        .map(|example| copies(example.words) as f64)
        .collect();
    let start: Vec<f64> = examples
        .iter()
        .map(|example| model.linear_logit(&example.features))
        .collect();
    boost(
        &BoostingRows {
            values: &values,
            labels: &labels,
            weights: &weights,
            start: &start,
        },
        settings,
    )
}

/// One logistic regression on `examples` over the features at `columns` (indices into
/// [`BlockFeatures`]), each example counted [`copies`] times.
fn fit_one(
    examples: &[&MainTextExample],
    columns: &[usize],
    fit: &MainTextFit,
    layout: &str,
) -> Result<MainTextModel, MainTextFitError> {
    let main = examples.iter().filter(|example| example.is_main).count();
    if main == 0 || main == examples.len() {
        return Err(MainTextFitError::OneClass(main, examples.len() - main));
    }
    let weighted: Vec<&MainTextExample> = examples
        .iter()
        .flat_map(|&example| std::iter::repeat_n(example, copies(example.words)))
        .collect();
    let count = weighted.len() as f64;
    let value = |example: &MainTextExample, column: usize| example.features[columns[column]];
    let mut mean = vec![0.0; columns.len()];
    let mut scale = vec![0.0; columns.len()];
    for example in &weighted {
        for (column, sum) in mean.iter_mut().enumerate() {
            *sum += value(example, column) / count;
        }
    }
    for example in &weighted {
        for (column, sum) in scale.iter_mut().enumerate() {
            *sum += (value(example, column) - mean[column]).powi(2) / count;
        }
    }
    for value in &mut scale {
        *value = if *value > 1e-12 { value.sqrt() } else { 1.0 };
    }
    let mut records = Array2::<f64>::zeros((weighted.len(), columns.len()));
    for (row, example) in weighted.iter().enumerate() {
        for column in 0..columns.len() {
            records[[row, column]] = (value(example, column) - mean[column]) / scale[column];
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
    Ok(MainTextModel::over_features(
        columns,
        mean,
        scale,
        fitted.params().iter().map(|weight| sign * weight).collect(),
        sign * fitted.intercept(),
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
            .map(|row| row.is_main)
            .collect();
        assert_eq!(labels, [false, true, true]);
    }

    #[test]
    fn threads_and_listings_get_models_of_their_own_that_weigh_repetition() {
        let repeats = BLOCK_FEATURE_NAMES
            .iter()
            .position(|name| *name == "log_repeats")
            .expect("a repeat feature");
        let example = |index: usize, labelled_type: Option<PageType>| {
            let mut features = [0.0; BLOCK_FEATURE_COUNT];
            features[0] = (index % 7) as f64;
            features[repeats] = (index % 5) as f64;
            MainTextExample {
                set: DatasetFormat::Wcxb,
                page: format!("{}/{index}", labelled_type.map_or("x", PageType::name)),
                words: 10,
                features,
                is_main: index.is_multiple_of(2),
                aligned_words: 0,
                gold_words: 100,
                page_type: PageTypeGuess {
                    page_type: PageType::Article,
                    probability: 1.0,
                },
                labelled_type,
            }
        };
        let examples: Vec<MainTextExample> = (0..60)
            .map(|index| example(index, None))
            .chain((0..40).map(|index| example(index, Some(PageType::Forum))))
            .chain((0..40).map(|index| example(index, Some(PageType::Collection))))
            .chain((0..40).map(|index| example(index, Some(PageType::Product))))
            .collect();
        let model = fit_main_text(&examples, &MainTextFit::default(), "native").unwrap();
        assert!(!model.features.iter().any(|name| name == "log_repeats"));
        let typed: Vec<&[PageType]> = model
            .by_page_type
            .iter()
            .map(|typed| typed.page_types.as_slice())
            .collect();
        // No service pages among the examples: no service model.
        assert_eq!(
            typed,
            [
                &EVERY_PAGE_MODEL_WITH_TREES[..],
                &[PageType::Forum][..],
                &[PageType::Listing, PageType::Collection][..]
            ]
        );
        // Products and documentation: the every-page model, its choice, and trees.
        let (one_block, own) = model.by_page_type.split_first().expect("typed models");
        assert_eq!(one_block.model.features, model.features);
        assert_eq!(one_block.model.weights, model.weights);
        assert_eq!(one_block.model.selection, Selection::Container);
        assert!(one_block.model.boosted.is_some());
        for typed in own {
            assert!(
                typed
                    .model
                    .features
                    .iter()
                    .any(|name| name == "log_repeats")
            );
            assert_eq!(typed.model.selection, Selection::Paragraphs);
            assert_eq!(typed.model.cut, OWN_MODEL_CUT);
            assert_eq!(typed.model.training.paragraphs, 40);
            let boosted = typed.model.boosted.as_ref().expect("trees");
            assert_eq!(boosted.trees.len(), OWN_MODEL_BOOSTING.trees);
        }
        assert!(model.boosted.is_none(), "the every-page model stays linear");
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
                aligned_words: if is_main { 10 } else { 0 },
                gold_words: 200,
                page_type: PageTypeGuess {
                    page_type: crate::page_type::PageType::Article,
                    probability: 1.0,
                },
                labelled_type: None,
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
