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
    PAGE_TYPE_FEATURE_COUNT, PAGE_TYPE_FEATURE_NAMES, PAGE_TYPE_MODEL_VERSION, PageType,
    PageTypeFeatures, PageTypeModel,
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
            let Some(page_type) = page
                .name
                .split_once('/')
                .and_then(|(kind, _)| PageType::from_name(kind))
            else {
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

/// Fits the model on every example, after measuring the same fit on [`FOLDS`] folds by domain.
pub fn fit_page_types(
    examples: &[PageTypeExample],
    alpha: f64,
) -> Result<PageTypeModel, PageTypeFitError> {
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
    let accuracy = correct as f64 / held_out.max(1) as f64;
    let everything: Vec<&PageTypeExample> = examples.iter().collect();
    fit(&everything, alpha, accuracy)
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
    let count = examples.len() as f64;
    let mut mean = vec![0.0; PAGE_TYPE_FEATURE_COUNT];
    let mut scale = vec![0.0; PAGE_TYPE_FEATURE_COUNT];
    for example in examples {
        for (sum, value) in mean.iter_mut().zip(&example.features) {
            *sum += value / count;
        }
    }
    for example in examples {
        for ((sum, value), mean) in scale.iter_mut().zip(&example.features).zip(&mean) {
            *sum += (value - mean).powi(2) / count;
        }
    }
    for value in &mut scale {
        *value = if *value > 1e-12 { value.sqrt() } else { 1.0 };
    }
    let mut records = Array2::<f64>::zeros((examples.len(), PAGE_TYPE_FEATURE_COUNT));
    for (row, example) in examples.iter().enumerate() {
        for column in 0..PAGE_TYPE_FEATURE_COUNT {
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
            (0..PAGE_TYPE_FEATURE_COUNT)
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
        features: PAGE_TYPE_FEATURE_NAMES
            .iter()
            .map(|name| name.to_string())
            .collect(),
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
        let mut features = [0.0; PAGE_TYPE_FEATURE_COUNT];
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
        let model = fit_page_types(&examples, 0.1).unwrap();
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
