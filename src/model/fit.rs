//! Fitting the area-bucket models with linfa-logistic, and measuring them on held-out nodes.
//!
//! Bucket boundaries are the area quartiles of the training nodes. In each bucket, every site
//! may first be made to count alike (`SiteBalance::Equal`: no site gives more nodes than the
//! median site; off by default, see [`SiteBalance`]); then, where one class is rare, the other
//! class is subsampled to its size. Both are seeded subsampling because linfa-logistic takes no
//! sample weights. Each bucket is standardized on the
//! nodes it is fitted on. linfa-logistic's probabilities are those of the class it calls
//! positive, which it picks itself; the fitted coefficients are re-oriented here so that the
//! stored model always gives P(template).

use std::collections::BTreeMap;

use linfa::prelude::*;
use linfa_logistic::LogisticRegression;
use ndarray::{Array1, Array2};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

use super::{
    AreaBucket, BucketTraining, LayoutEngine, MODEL_FORMAT, MODEL_FORMAT_VERSION, Standardization,
    TemplateModel, TrainingSummary,
};
use crate::features::{FEATURE_COUNT, FEATURE_NAMES, FeatureRow};

/// One training example: a classified node's features and its site-level label.
#[derive(Debug, Clone)]
pub struct LabelledNode {
    /// The node's page-level features, in [`FEATURE_NAMES`] order.
    pub row: FeatureRow,
    /// The node's rendered area in px²; picks its bucket.
    pub area: f64,
    /// The site-level detector's label: true if the node is template.
    pub template: bool,
    /// Which site the node comes from (any number that is the same for all of a site's nodes),
    /// for site balancing.
    pub site: usize,
}

/// How much each training site counts in the fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SiteBalance {
    /// Every site counts alike: in each area bucket, a site gives at most as many nodes as the
    /// median site there (a seeded sample of them). Sites differ a hundredfold in classified
    /// nodes per page, so a fit on all nodes leans on the largest sites. Measured (issue 11,
    /// development pages): it raised held-out documentation AUC (0.675 → 0.700) but lowered
    /// Smooth template F1 on every human-labelled set (CleanEval text 0.60 → 0.47, Kreuzer
    /// 0.64 → 0.59): the median site is a small documentation site, and capping at it throws
    /// away most news and portal nodes. Kept as an option; balancing by domain is untried.
    Equal,
    /// Every node counts alike: sites weigh by their number of nodes (the shipped model).
    #[default]
    None,
}

impl SiteBalance {
    /// The name in model files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            SiteBalance::Equal => "equal",
            SiteBalance::None => "none",
        }
    }

    /// What model files written before the option was recorded were fitted with.
    pub(super) fn before_the_option() -> SiteBalance {
        SiteBalance::None
    }
}

/// How models are fitted.
#[derive(Debug, Clone)]
pub struct FitOptions {
    /// Number of area buckets, split at area quantiles of the training nodes (the paper: 4).
    /// Fewer result when quantiles coincide.
    pub buckets: usize,
    /// L2 regularization strength.
    pub alpha: f64,
    /// Iteration limit of linfa-logistic's optimizer, per bucket.
    pub max_iterations: u64,
    /// Most nodes per bucket used for fitting (a seeded sample beyond it).
    pub max_nodes_per_bucket: usize,
    /// Balance a bucket whose rarer class is below this share.
    pub balance_below: f64,
    /// Nodes below this area (px²) are hidden and not classified; the first bucket starts here,
    /// and the value is stored in the model.
    pub hidden_area: f64,
    /// Whether every site counts alike or every node does.
    pub site_balance: SiteBalance,
    /// Seed of the site-balancing and class-balancing subsamples.
    pub seed: u64,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            buckets: 4,
            alpha: 1.0,
            max_iterations: 200,
            max_nodes_per_bucket: 40_000,
            balance_below: 0.3,
            hidden_area: crate::features::DEFAULT_HIDDEN_AREA,
            site_balance: SiteBalance::default(),
            seed: 7,
        }
    }
}

/// Why fitting failed.
#[derive(Debug, thiserror::Error)]
pub enum FitError {
    /// [`fit_model`] was given no nodes at all.
    #[error("no labelled nodes to train on")]
    NoData,
    /// linfa-logistic failed on a bucket that had both classes.
    #[error("logistic regression failed in the bucket from {min_area} px²: {cause}")]
    Logistic {
        /// Lower area bound of the failing bucket, px².
        min_area: f64,
        /// linfa's error message.
        cause: String,
    },
}

/// Fits one model per area bucket.
pub fn fit_model(
    nodes: &[LabelledNode],
    options: &FitOptions,
    training: TrainingSummary,
) -> Result<TemplateModel, FitError> {
    if nodes.is_empty() {
        return Err(FitError::NoData);
    }
    let boundaries = area_boundaries(nodes, options.buckets, options.hidden_area);
    let mut rng = StdRng::seed_from_u64(options.seed);
    let mut buckets = Vec::new();
    for (index, min_area) in boundaries.iter().enumerate() {
        let max_area = boundaries.get(index + 1).copied();
        let members: Vec<&LabelledNode> = nodes
            .iter()
            .filter(|node| node.area >= *min_area || index == 0)
            .filter(|node| max_area.is_none_or(|max| node.area < max))
            .collect();
        buckets.push(fit_bucket(
            &members, *min_area, max_area, options, &mut rng,
        )?);
    }
    Ok(TemplateModel {
        // Nodes do not say which engine laid them out; `train` records the one it used.
        layout_engine: LayoutEngine::unrecorded(),
        format: MODEL_FORMAT.into(),
        format_version: MODEL_FORMAT_VERSION,
        feature_names: FEATURE_NAMES.iter().map(|name| name.to_string()).collect(),
        hidden_area: options.hidden_area,
        buckets,
        training,
    })
}

/// Lower area bounds of the buckets: the hidden-area threshold, then the area quantiles.
fn area_boundaries(nodes: &[LabelledNode], buckets: usize, hidden_area: f64) -> Vec<f64> {
    let mut areas: Vec<f64> = nodes.iter().map(|node| node.area).collect();
    areas.sort_by(f64::total_cmp);
    let mut boundaries = vec![hidden_area];
    for bucket in 1..buckets.max(1) {
        let quantile = areas[(areas.len() * bucket / buckets).min(areas.len() - 1)];
        if quantile > *boundaries.last().unwrap_or(&0.0) {
            boundaries.push(quantile);
        }
    }
    boundaries
}

fn fit_bucket(
    members: &[&LabelledNode],
    min_area: f64,
    max_area: Option<f64>,
    options: &FitOptions,
    rng: &mut StdRng,
) -> Result<AreaBucket, FitError> {
    let templates = members.iter().filter(|node| node.template).count();
    let training = BucketTraining {
        nodes: members.len(),
        template_share: templates as f64 / members.len().max(1) as f64,
    };
    let sample = match options.site_balance {
        SiteBalance::Equal => balanced_sample(&sites_balanced(members, rng), options, rng),
        SiteBalance::None => balanced_sample(members, options, rng),
    };
    let standardization = standardize(&sample);
    let has_both_classes = sample.iter().any(|n| n.template) && sample.iter().any(|n| !n.template);
    if !has_both_classes {
        // One class only: a constant model that predicts the bucket's share.
        let share = training.template_share.clamp(1e-3, 1.0 - 1e-3);
        return Ok(AreaBucket {
            min_area,
            max_area,
            standardization,
            coefficients: vec![0.0; FEATURE_COUNT],
            intercept: (share / (1.0 - share)).ln(),
            training,
        });
    }
    let mut records = Array2::<f64>::zeros((sample.len(), FEATURE_COUNT));
    for (row_index, node) in sample.iter().enumerate() {
        for (column, value) in node.row.iter().enumerate() {
            records[[row_index, column]] =
                (value - standardization.mean[column]) / standardization.scale[column];
        }
    }
    let targets: Array1<bool> = sample.iter().map(|node| node.template).collect();
    let dataset = Dataset::new(records, targets);
    let fitted = LogisticRegression::default()
        .alpha(options.alpha)
        .max_iterations(options.max_iterations)
        .fit(&dataset)
        .map_err(|error| FitError::Logistic {
            min_area,
            cause: error.to_string(),
        })?;
    // linfa-logistic reports P(its positive class); turn the model around if that is `false`.
    let sign = if fitted.labels().pos.class { 1.0 } else { -1.0 };
    Ok(AreaBucket {
        min_area,
        max_area,
        standardization,
        coefficients: fitted.params().iter().map(|w| sign * w).collect(),
        intercept: sign * fitted.intercept(),
        training,
    })
}

/// At most the median site's count of nodes from every site (a seeded sample of a larger site's
/// nodes), in site order; smaller sites keep all theirs.
pub(super) fn sites_balanced<'a>(
    members: &[&'a LabelledNode],
    rng: &mut StdRng,
) -> Vec<&'a LabelledNode> {
    let mut by_site: BTreeMap<usize, Vec<&LabelledNode>> = BTreeMap::new();
    for node in members {
        by_site.entry(node.site).or_default().push(node);
    }
    let mut counts: Vec<usize> = by_site.values().map(Vec::len).collect();
    counts.sort_unstable();
    let cap = counts.get(counts.len() / 2).copied().unwrap_or(0);
    by_site
        .into_values()
        .flat_map(|mut nodes| {
            nodes.shuffle(rng);
            nodes.truncate(cap);
            nodes
        })
        .collect()
}

/// A seeded sample of at most `max_nodes_per_bucket` nodes, with the majority class cut down to
/// the minority's size when the minority is rarer than `balance_below`.
fn balanced_sample<'a>(
    members: &[&'a LabelledNode],
    options: &FitOptions,
    rng: &mut StdRng,
) -> Vec<&'a LabelledNode> {
    let (mut positive, mut negative): (Vec<&LabelledNode>, Vec<&LabelledNode>) =
        members.iter().partition(|node| node.template);
    positive.shuffle(rng);
    negative.shuffle(rng);
    let minority = positive.len().min(negative.len());
    let share = minority as f64 / members.len().max(1) as f64;
    if minority > 0 && share < options.balance_below {
        positive.truncate(minority);
        negative.truncate(minority);
    }
    let half = options.max_nodes_per_bucket / 2;
    if positive.len() + negative.len() > options.max_nodes_per_bucket {
        let keep_positive = positive
            .len()
            .min(half.max(options.max_nodes_per_bucket - negative.len().min(half)));
        positive.truncate(keep_positive);
        negative.truncate(options.max_nodes_per_bucket - keep_positive);
    }
    positive.into_iter().chain(negative).collect()
}

fn standardize(sample: &[&LabelledNode]) -> Standardization {
    let count = sample.len().max(1) as f64;
    let mut mean = vec![0.0; FEATURE_COUNT];
    for node in sample {
        for (column, value) in node.row.iter().enumerate() {
            mean[column] += value / count;
        }
    }
    let mut variance = vec![0.0; FEATURE_COUNT];
    for node in sample {
        for (column, value) in node.row.iter().enumerate() {
            variance[column] += (value - mean[column]).powi(2) / count;
        }
    }
    let scale = variance
        .into_iter()
        .map(|v| if v.sqrt() > 1e-9 { v.sqrt() } else { 1.0 })
        .collect();
    Standardization { mean, scale }
}

/// How P(template) ≥ 0.5 agrees with the labels of a set of nodes.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct NodeMetrics {
    /// Number of scored nodes.
    pub nodes: usize,
    /// Share (0–1) of them labelled template.
    pub template_share: f64,
    /// Share (0–1) whose prediction (P(template) ≥ 0.5) matches the label.
    pub accuracy: f64,
    /// Of the nodes predicted template, the share labelled template (0 when none is predicted).
    pub precision: f64,
    /// Of the nodes labelled template, the share predicted template (0 when none is labelled).
    pub recall: f64,
    /// ROC AUC of P(template) against the labels (ties count half); NaN when only one class
    /// occurs.
    pub auc: f64,
}

impl NodeMetrics {
    /// Accuracy, template precision/recall and ROC AUC of (P(template), label) pairs.
    pub fn of(scored: &[(f64, bool)]) -> NodeMetrics {
        let (mut tp, mut fp, mut fn_, mut tn) = (0.0_f64, 0.0_f64, 0.0_f64, 0.0_f64);
        for (p, template) in scored {
            match (*p >= 0.5, *template) {
                (true, true) => tp += 1.0,
                (true, false) => fp += 1.0,
                (false, true) => fn_ += 1.0,
                (false, false) => tn += 1.0,
            }
        }
        let total = (tp + fp + fn_ + tn).max(1.0);
        NodeMetrics {
            nodes: scored.len(),
            template_share: (tp + fn_) / total,
            accuracy: (tp + tn) / total,
            precision: if tp + fp > 0.0 { tp / (tp + fp) } else { 0.0 },
            recall: if tp + fn_ > 0.0 { tp / (tp + fn_) } else { 0.0 },
            auc: roc_auc(scored),
        }
    }
}

/// How a bucket's model does on held-out nodes, at threshold 0.5: its bounds and its
/// [`NodeMetrics`], flat, because it is written as a row of `buckets.csv`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BucketMetrics {
    /// The bucket's lower area bound (inclusive), px².
    pub min_area: f64,
    /// Its upper area bound (exclusive), px²; `None` for the last, unbounded bucket.
    pub max_area: Option<f64>,
    /// Held-out nodes falling in the bucket.
    pub nodes: usize,
    /// Share (0–1) of them labelled template.
    pub template_share: f64,
    /// Share (0–1) predicted correctly at threshold 0.5.
    pub accuracy: f64,
    /// Template precision (0–1) at threshold 0.5; 0 when none is predicted template.
    pub precision: f64,
    /// Template recall (0–1) at threshold 0.5; 0 when none is labelled template.
    pub recall: f64,
    /// ROC AUC (0–1); NaN when the bucket's held-out nodes have only one label.
    pub auc: f64,
}

/// Per-bucket accuracy, template precision/recall and ROC AUC on `nodes`.
pub fn evaluate_model(model: &TemplateModel, nodes: &[LabelledNode]) -> Vec<BucketMetrics> {
    model
        .buckets
        .iter()
        .map(|bucket| {
            let in_bucket = nodes
                .iter()
                .filter(|node| std::ptr::eq(model.bucket_for(node.area), bucket));
            let metrics = NodeMetrics::of(&score_nodes(model, in_bucket));
            BucketMetrics {
                min_area: bucket.min_area,
                max_area: bucket.max_area,
                nodes: metrics.nodes,
                template_share: metrics.template_share,
                accuracy: metrics.accuracy,
                precision: metrics.precision,
                recall: metrics.recall,
                auc: metrics.auc,
            }
        })
        .collect()
}

/// (P(template), label) of every node.
pub fn score_nodes<'a>(
    model: &TemplateModel,
    nodes: impl IntoIterator<Item = &'a LabelledNode>,
) -> Vec<(f64, bool)> {
    nodes
        .into_iter()
        .map(|node| {
            (
                model.bucket_for(node.area).probability(&node.row),
                node.template,
            )
        })
        .collect()
}

/// Area under the ROC curve: the probability that a random template node outscores a random
/// non-template node (ties count half), from ranks.
pub fn roc_auc(scored: &[(f64, bool)]) -> f64 {
    let mut sorted: Vec<(f64, bool)> = scored.to_vec();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let positives = sorted.iter().filter(|(_, t)| *t).count() as f64;
    let negatives = sorted.len() as f64 - positives;
    if positives == 0.0 || negatives == 0.0 {
        return f64::NAN;
    }
    let mut rank_sum = 0.0;
    let mut start = 0;
    while start < sorted.len() {
        let mut end = start;
        while end < sorted.len() && sorted[end].0 == sorted[start].0 {
            end += 1;
        }
        let mean_rank = (start + end + 1) as f64 / 2.0;
        rank_sum += mean_rank * sorted[start..end].iter().filter(|(_, t)| *t).count() as f64;
        start = end;
    }
    (rank_sum - positives * (positives + 1.0) / 2.0) / (positives * negatives)
}
