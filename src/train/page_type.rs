//! Fits the page-type model ([`crate::page_type`]) on the development pages of labelled sets
//! whose pages carry a type (WCXB: pages named `<type>/<id>`), laid out and scored as `score`
//! would, and measures it on held-out folds of those pages, split by domain.

use linfa::prelude::*;
use linfa_logistic::MultiLogisticRegression;
use ndarray::{Array1, Array2};

use crate::eval::datasets::{Dataset, Split};
use crate::eval::run::labelled_page_source;
use crate::layout::LayoutSource;
use crate::model::TemplateModel;
use crate::page::ParseLimits;
use crate::page_type::{
    PAGE_TYPE_MODEL_VERSION, PageType, PageTypeFeatures, PageTypeModel, WORD_BUCKETS, fact_names,
};
use crate::params::ValidParams;
use crate::pipeline::{lay_out_page, score_laid_out};

/// One labelled page.
#[derive(Debug, Clone, PartialEq)]
pub struct PageTypeExample {
    /// Its site's domain (folds never split a site).
    pub domain: String,
    /// Its type by the gold.
    pub page_type: PageType,
    /// What the model sees.
    pub features: PageTypeFeatures,
}

/// Folds of the cross-validation.
const FOLDS: u64 = 3;

/// The hashed words' weight against the standardised facts (a word vector has unit length):
/// chosen on held-out folds of WCXB's development pages (1, 3 and 10 tried).
const WORD_WEIGHT: f64 = 3.0;

/// The labelled development pages of `datasets` that carry a type (the part of the name before
/// `/`), laid out and scored; `on_page` hears of each page (`Err` with the reason it failed).
pub fn label_page_types(
    datasets: &[Dataset],
    layout: &mut dyn LayoutSource,
    model: &TemplateModel,
    params: &ValidParams,
    limits: &ParseLimits,
    on_page: &mut dyn FnMut(&str, Result<(), String>),
) -> Vec<PageTypeExample> {
    let mut examples = Vec::new();
    for dataset in datasets {
        for page in dataset.pages.iter().filter(|page| page.split == Split::Dev) {
            let Some(page_type) = page.labelled_type() else {
                continue;
            };
            let example = (|| -> Result<PageTypeExample, String> {
                let source = labelled_page_source(page).map_err(|error| error.to_string())?;
                let laid_out =
                    lay_out_page(layout, &source, limits).map_err(|error| error.to_string())?;
                let scored =
                    score_laid_out(laid_out, model, params).map_err(|error| error.to_string())?;
                Ok(PageTypeExample {
                    domain: domain_of(page.url.as_deref().unwrap_or(&page.name)),
                    page_type,
                    features: scored.page_type_features,
                })
            })();
            match example {
                Ok(example) => {
                    examples.push(example);
                    on_page(&page.name, Ok(()));
                }
                Err(reason) => on_page(&page.name, Err(reason)),
            }
        }
    }
    examples
}

fn domain_of(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|url| {
            url.host_str()
                .map(|host| host.trim_start_matches("www.").to_string())
        })
        .unwrap_or_else(|| url.to_string())
}

/// Why a page-type model could not be fitted.
#[derive(Debug, thiserror::Error)]
pub enum PageTypeFitError {
    /// Fewer than two types among the pages.
    #[error("the pages hold {0} page type(s): at least two are needed")]
    TooFewTypes(usize),
    /// The optimiser failed.
    #[error("the logistic regression failed: {0}")]
    Logistic(String),
}

/// Fits the model on every example with the regularisation of `alphas` whose fit is most
/// accurate on [`FOLDS`] held-out folds by domain (the first on a tie); `on_alpha` hears each
/// alpha's held-out accuracy.
pub fn fit_page_types(
    examples: &[PageTypeExample],
    alphas: &[f64],
    on_alpha: &mut dyn FnMut(f64, f64),
) -> Result<PageTypeModel, PageTypeFitError> {
    let mut best: Option<(f64, f64)> = None;
    for &alpha in alphas {
        let accuracy = held_out_accuracy(examples, alpha)?;
        on_alpha(alpha, accuracy);
        if best.is_none_or(|(_, best_accuracy)| accuracy > best_accuracy) {
            best = Some((alpha, accuracy));
        }
    }
    let (alpha, accuracy) = best.unwrap_or((1.0, 0.0));
    let everything: Vec<&PageTypeExample> = examples.iter().collect();
    fit(&everything, alpha, accuracy)
}

/// Accuracy of the fit with `alpha` on [`FOLDS`] folds by domain, each fold held out in turn.
fn held_out_accuracy(examples: &[PageTypeExample], alpha: f64) -> Result<f64, PageTypeFitError> {
    let fold_of = |example: &PageTypeExample| {
        // FNV-1a of the domain: the same site is always in the same fold.
        example
            .domain
            .bytes()
            .fold(0xcbf29ce484222325u64, |hash, byte| {
                (hash ^ u64::from(byte)).wrapping_mul(0x100000001b3)
            })
            % FOLDS
    };
    let mut correct = 0;
    let mut held_out = 0;
    for fold in 0..FOLDS {
        let (test, train): (Vec<&PageTypeExample>, Vec<&PageTypeExample>) = examples
            .iter()
            .partition(|example| fold_of(example) == fold);
        if test.is_empty() {
            continue;
        }
        let model = fit(&train, alpha, 0.0)?;
        held_out += test.len();
        correct += test
            .iter()
            .filter(|example| model.guess(&example.features).page_type == example.page_type)
            .count();
    }
    Ok(correct as f64 / held_out.max(1) as f64)
}

fn fit(
    examples: &[&PageTypeExample],
    alpha: f64,
    cross_validated_accuracy: f64,
) -> Result<PageTypeModel, PageTypeFitError> {
    let classes: Vec<PageType> = PageType::ALL
        .into_iter()
        .filter(|kind| examples.iter().any(|example| example.page_type == *kind))
        .collect();
    if classes.len() < 2 {
        return Err(PageTypeFitError::TooFewTypes(classes.len()));
    }
    let fact_count = fact_names().len();
    let feature_count = fact_count + WORD_BUCKETS;
    let count = examples.len() as f64;
    let mut mean = vec![0.0; feature_count];
    let mut scale = vec![1.0 / WORD_WEIGHT; feature_count];
    for example in examples {
        for (sum, value) in mean.iter_mut().zip(&example.features).take(fact_count) {
            *sum += value / count;
        }
    }
    for fact in 0..fact_count {
        let variance = examples
            .iter()
            .map(|example| (example.features[fact] - mean[fact]).powi(2) / count)
            .sum::<f64>();
        scale[fact] = if variance > 1e-12 {
            variance.sqrt()
        } else {
            1.0
        };
    }
    let mut records = Array2::<f64>::zeros((examples.len(), feature_count));
    for (row, example) in examples.iter().enumerate() {
        for column in 0..feature_count {
            records[[row, column]] = (example.features[column] - mean[column]) / scale[column];
        }
    }
    let targets: Array1<usize> = examples
        .iter()
        .map(|example| {
            classes
                .iter()
                .position(|kind| *kind == example.page_type)
                .expect("a class")
        })
        .collect();
    let fitted = MultiLogisticRegression::default()
        .alpha(alpha)
        .max_iterations(500)
        .fit(&linfa::Dataset::new(records, targets))
        .map_err(|error| PageTypeFitError::Logistic(error.to_string()))?;
    // The fitted classes are the class indices present, in order.
    let fitted_classes: Vec<PageType> = fitted
        .classes()
        .iter()
        .map(|&index| classes[index])
        .collect();
    let params = fitted.params();
    let weights: Vec<Vec<f64>> = (0..fitted_classes.len())
        .map(|class| {
            (0..feature_count)
                .map(|feature| params[[feature, class]])
                .collect()
        })
        .collect();
    let training_pages = fitted_classes
        .iter()
        .map(|kind| {
            (
                *kind,
                examples
                    .iter()
                    .filter(|example| example.page_type == *kind)
                    .count(),
            )
        })
        .collect();
    Ok(PageTypeModel {
        version: PAGE_TYPE_MODEL_VERSION,
        features: fact_names().iter().map(|name| name.to_string()).collect(),
        word_buckets: WORD_BUCKETS,
        classes: fitted_classes,
        mean,
        scale,
        weights,
        intercepts: fitted.intercept().to_vec(),
        training_pages,
        cross_validated_accuracy,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example(domain: &str, page_type: PageType, signal: f64) -> PageTypeExample {
        let mut features = vec![0.0; fact_names().len() + WORD_BUCKETS];
        features[match page_type {
            PageType::Product => 1,
            _ => 0,
        }] = signal;
        PageTypeExample {
            domain: domain.to_string(),
            page_type,
            features,
        }
    }

    #[test]
    fn a_separable_signal_is_learnt_and_measured_on_held_out_domains() {
        let examples: Vec<PageTypeExample> = (0..60)
            .map(|index| {
                let kind = if index % 2 == 0 {
                    PageType::Article
                } else {
                    PageType::Product
                };
                example(&format!("site{index}.example"), kind, 1.0)
            })
            .collect();
        let model = fit_page_types(&examples, &[0.1], &mut |_, _| {}).unwrap();
        assert_eq!(model.classes, [PageType::Article, PageType::Product]);
        assert!(
            model.cross_validated_accuracy > 0.95,
            "{}",
            model.cross_validated_accuracy
        );
        assert_eq!(
            model.guess(&examples[1].features).page_type,
            PageType::Product
        );
        let json = serde_json::to_string(&model).unwrap();
        assert_eq!(PageTypeModel::from_json(&json).unwrap(), model);
    }
}
