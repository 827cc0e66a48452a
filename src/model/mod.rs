//! The page-level classifier: four logistic regression models, one per node-area bucket
//! (Chakrabarti et al., Section 5.2: feature distributions differ with the level of a node in the
//! tree, which area approximates). The model file is versioned JSON holding the feature names,
//! per-bucket standardization and coefficients, the bucket boundaries and what it was trained on;
//! a file whose version or feature list does not match this build is refused, not guessed at.
//!
//! Scoring needs no linfa: it is a standardized dot product and a logistic function per node,
//! oriented so that the output is always P(template).

pub mod card;
pub(crate) mod fit;

use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::features::{FEATURE_COUNT, FEATURE_NAMES, FeatureRow, PageFeatures};

pub use fit::{
    BucketMetrics, FitOptions, LabelledNode, NodeMetrics, SiteBalance, evaluate_model, fit_model,
    score_nodes,
};

/// The `format` field of every model file.
pub const MODEL_FORMAT: &str = "pagelevel-model";
/// Version of the model file layout; bump it on any change a reader must know about.
pub const MODEL_FORMAT_VERSION: u32 = 1;

/// The model shipped in `models/default.json`, compiled in so `score` works with no files.
pub use crate::layout::LayoutEngine;

const BUILTIN_MODEL: &str = include_str!("../../models/default.json");

/// The shipped model trained on native (Blitz) layouts.
const BUILTIN_NATIVE_MODEL: &str = include_str!("../../models/native.json");

/// Why a model could not be loaded.
#[derive(Debug, Error)]
pub enum ModelError {
    /// The model file could not be read from disk.
    #[error("cannot read model {path}: {source}")]
    Read {
        /// The model file as given.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The text is not JSON, lacks `"format": "pagelevel-model"`, has no area buckets, or a
    /// bucket's coefficients or standardization have the wrong length or non-finite values.
    /// Also returned by [`TemplateModel::save`] when serialization fails.
    #[error("model {path} is not a valid pagelevel model file: {cause}")]
    Corrupt {
        /// The model file, or `<built-in model>`.
        path: String,
        /// What is wrong with it.
        cause: String,
    },
    /// The file's `format_version` is not [`MODEL_FORMAT_VERSION`].
    #[error(
        "model {path} has format version {found}; this pagelevel reads version {MODEL_FORMAT_VERSION} (retrain it, or use a matching pagelevel)"
    )]
    Version {
        /// The model file, or `<built-in model>`.
        path: String,
        /// The version the file declares (0 when the field is missing).
        found: u32,
    },
    /// The file's `feature_names` differ from this build's [`FEATURE_NAMES`], so its
    /// coefficients would be applied to the wrong features.
    #[error("model {path} was trained on other features ({cause}); retrain it with this pagelevel")]
    Features {
        /// The model file, or `<built-in model>`.
        path: String,
        /// The first differing feature name, or the differing count.
        cause: String,
    },
    /// The model file could not be written.
    #[error("cannot write model {path}: {source}")]
    Write {
        /// The destination file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// Mean and scale of each feature, for standardizing rows before the dot product.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Standardization {
    /// Mean of each feature over the bucket's fitting sample, in [`FEATURE_NAMES`] order.
    pub mean: Vec<f64>,
    /// Standard deviation of each feature over that sample (1 where it is ~0, so constant
    /// features stay finite); always positive.
    pub scale: Vec<f64>,
}

/// What a bucket's model was trained on.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct BucketTraining {
    /// Labelled nodes whose area fell in the bucket, before any subsampling.
    pub nodes: usize,
    /// Share (0–1) of those nodes labelled template.
    pub template_share: f64,
}

/// The logistic model for nodes whose area is in `[min_area, max_area)`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct AreaBucket {
    /// Lower bound (inclusive), px²; the first bucket starts at the hidden-area threshold.
    pub min_area: f64,
    /// Upper bound (exclusive); `null` in JSON for the last, unbounded bucket.
    pub max_area: Option<f64>,
    /// How each feature is centred and scaled before the dot product.
    pub standardization: Standardization,
    /// Coefficients on standardized features, oriented towards P(template).
    pub coefficients: Vec<f64>,
    /// The logit added to the dot product; alone (zero coefficients) it is the log-odds of the
    /// bucket's template share, as in a one-class bucket.
    pub intercept: f64,
    /// How many nodes the bucket was fitted on and their template share.
    pub training: BucketTraining,
}

impl AreaBucket {
    /// P(template) of one feature row.
    pub fn probability(&self, row: &FeatureRow) -> f64 {
        let mut z = self.intercept;
        for (index, value) in row.iter().enumerate() {
            z += self.coefficients[index] * (value - self.standardization.mean[index])
                / self.standardization.scale[index];
        }
        1.0 / (1.0 + (-z).exp())
    }
}

/// Where the training labels came from and how much data there was.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Default)]
pub struct TrainingSummary {
    /// Name of the site-level detector that produced the labels (e.g. `frequency`).
    pub labeler: String,
    /// SiteLevel θ: share (0–1) of a site's pages a subtree must occur on to count as template.
    pub theta: f64,
    /// Names of the training sites (empty for the provisional, validation-only model).
    pub sites: Vec<String>,
    /// Rendered pages over all labelled sites.
    pub pages: usize,
    /// Labelled (classified) nodes the model was fitted on.
    pub nodes: usize,
    /// Share (0–1) of those nodes labelled template.
    pub template_share: f64,
    /// How sites were weighed against each other (models written before the option: `none`).
    #[serde(default = "SiteBalance::before_the_option")]
    pub site_balance: SiteBalance,
    /// Seed of page sampling and of the fitting subsamples.
    pub seed: u64,
}

/// A trained page-level template classifier.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TemplateModel {
    /// Always [`MODEL_FORMAT`]; identifies the file as a pagelevel model.
    pub format: String,
    /// The layout version, [`MODEL_FORMAT_VERSION`] for files this build reads.
    pub format_version: u32,
    /// The features the coefficients apply to, in order; must equal [`FEATURE_NAMES`].
    pub feature_names: Vec<String>,
    /// Nodes below this area (px²) are hidden: not classified.
    pub hidden_area: f64,
    /// The per-area models in ascending `min_area` order, never empty.
    pub buckets: Vec<AreaBucket>,
    /// Where the labels came from and how much data there was.
    pub training: TrainingSummary,
    /// The layout engine whose boxes the model's features were computed from (Chromium for
    /// models written before engines were recorded).
    #[serde(default)]
    pub layout_engine: LayoutEngine,
}

impl TemplateModel {
    /// The model shipped with pagelevel.
    pub fn builtin() -> Result<TemplateModel, ModelError> {
        TemplateModel::from_json(BUILTIN_MODEL, "<built-in model>")
    }

    /// The model shipped with pagelevel for pages laid out by `engine`.
    pub fn builtin_for(engine: LayoutEngine) -> Result<TemplateModel, ModelError> {
        match engine {
            LayoutEngine::Chromium => TemplateModel::builtin(),
            LayoutEngine::Native => {
                TemplateModel::from_json(BUILTIN_NATIVE_MODEL, "<built-in native-layout model>")
            }
        }
    }

    /// Reads a model file.
    pub fn load(path: &Path) -> Result<TemplateModel, ModelError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| ModelError::Read {
            path: name.clone(),
            source,
        })?;
        TemplateModel::from_json(&text, &name)
    }

    /// Parses and checks a model: format, version, feature names, bucket shapes.
    pub fn from_json(text: &str, name: &str) -> Result<TemplateModel, ModelError> {
        let corrupt = |cause: String| ModelError::Corrupt {
            path: name.to_string(),
            cause,
        };
        let header: serde_json::Value =
            serde_json::from_str(text).map_err(|e| corrupt(e.to_string()))?;
        if header.get("format").and_then(|f| f.as_str()) != Some(MODEL_FORMAT) {
            return Err(corrupt(format!(
                "the \"format\" field is not \"{MODEL_FORMAT}\""
            )));
        }
        let version = header
            .get("format_version")
            .and_then(|v| v.as_u64())
            .unwrap_or(0) as u32;
        if version != MODEL_FORMAT_VERSION {
            return Err(ModelError::Version {
                path: name.to_string(),
                found: version,
            });
        }
        let model: TemplateModel =
            serde_json::from_value(header).map_err(|e| corrupt(e.to_string()))?;
        if model.feature_names != FEATURE_NAMES {
            let cause = match model
                .feature_names
                .iter()
                .zip(FEATURE_NAMES)
                .position(|(found, expected)| found != expected)
            {
                Some(index) => format!(
                    "feature {index} is \"{}\", expected \"{}\"",
                    model.feature_names[index], FEATURE_NAMES[index]
                ),
                None => format!(
                    "{} features, expected {FEATURE_COUNT}",
                    model.feature_names.len()
                ),
            };
            return Err(ModelError::Features {
                path: name.to_string(),
                cause,
            });
        }
        if model.buckets.is_empty() {
            return Err(corrupt("it has no area buckets".into()));
        }
        for bucket in &model.buckets {
            let shapes_match = bucket.coefficients.len() == FEATURE_COUNT
                && bucket.standardization.mean.len() == FEATURE_COUNT
                && bucket.standardization.scale.len() == FEATURE_COUNT;
            let finite = bucket
                .coefficients
                .iter()
                .chain(&bucket.standardization.mean)
                .all(|v| v.is_finite())
                && bucket
                    .standardization
                    .scale
                    .iter()
                    .all(|s| s.is_finite() && *s > 0.0)
                && bucket.intercept.is_finite();
            if !shapes_match || !finite {
                return Err(corrupt(format!(
                    "the bucket from {} px² has malformed coefficients or standardization",
                    bucket.min_area
                )));
            }
        }
        Ok(model)
    }

    /// Writes the model as pretty JSON.
    pub fn save(&self, path: &Path) -> Result<(), ModelError> {
        let json = serde_json::to_string_pretty(self).map_err(|e| ModelError::Corrupt {
            path: path.display().to_string(),
            cause: e.to_string(),
        })?;
        std::fs::write(path, json + "\n").map_err(|source| ModelError::Write {
            path: path.display().to_string(),
            source,
        })
    }

    /// The bucket whose area range holds `area`.
    pub fn bucket_for(&self, area: f64) -> &AreaBucket {
        self.buckets
            .iter()
            .find(|bucket| bucket.max_area.is_none_or(|max| area < max))
            .unwrap_or_else(|| &self.buckets[self.buckets.len() - 1])
    }

    /// P(template) of every classified node; `None` for hidden nodes.
    pub fn score(&self, features: &PageFeatures) -> Vec<Option<f64>> {
        features
            .rows
            .iter()
            .zip(&features.area)
            .zip(&features.classified)
            .map(|((row, area), classified)| {
                classified.then(|| self.bucket_for(*area).probability(row))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
