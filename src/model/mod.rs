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

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::features::{FEATURE_COUNT, FEATURE_NAMES, FeatureRow, PageFeatures};
use crate::staged::StagedFile;

pub use fit::{
    BucketMetrics, FitOptions, LabelledNode, NodeMetrics, SiteBalance, evaluate_model, fit_model,
    score_nodes,
};

/// The `format` field of every model file.
pub const MODEL_FORMAT: &str = "pagelevel-model";
/// Version of the model file layout; bump it on any change a reader must know about.
pub const MODEL_FORMAT_VERSION: u32 = 1;

pub use crate::layout::LayoutEngine;

/// Largest magnitude of a coefficient, intercept, feature mean or scale a model file may hold.
/// Fitted models stay within ±100; beyond this a standardized dot product can overflow to ±∞
/// and the score of a node becomes NaN.
pub const MAX_MODEL_VALUE: f64 = 1e6;
/// Smallest standardization scale: fitting replaces scales at or below 1e-9 by 1.
pub const MIN_SCALE: f64 = 1e-9;
/// Largest `hidden_area`, px²: 10⁷ px² is about eight full 1280 × 1024 screens; a threshold
/// above it would hide every element of most pages.
pub const MAX_HIDDEN_AREA: f64 = 1e7;

/// The model shipped in `models/default.json`, compiled in so `score` works with no files: it
/// was trained on native (Blitz) layouts, the default engine.
const BUILTIN_MODEL: &str = include_str!("../../models/default.json");

/// The shipped model trained on Chromium layouts (`--layout chromium`).
const BUILTIN_CHROMIUM_MODEL: &str = include_str!("../../models/chromium.json");

/// Why a model could not be loaded.
#[derive(Debug, Error)]
pub enum ModelError {
    /// The model file could not be read from disk.
    #[error("cannot read model {path}")]
    Read {
        /// The model file as given.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// No model ships for this layout engine.
    #[error(
        "no model ships for --layout {engine}: train one with `pagelevel train --layout {engine}` \
         and pass it with --model"
    )]
    NoBuiltin {
        /// The engine's name.
        engine: &'static str,
    },
    /// The text is not JSON, lacks `"format": "pagelevel-model"`, has no area buckets, or holds
    /// values no fitted model has (see [`TemplateModel::from_json`]): the cause names the field
    /// and the bucket. Also returned by [`TemplateModel::save`] when serialization fails.
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
    #[error("cannot write model {path}")]
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
    #[serde(default = "LayoutEngine::unrecorded")]
    pub layout_engine: LayoutEngine,
}

impl TemplateModel {
    /// The model shipped with pagelevel for the default layout engine (native).
    pub fn builtin() -> Result<TemplateModel, ModelError> {
        TemplateModel::from_json(BUILTIN_MODEL, "<built-in model>")
    }

    /// The model shipped with pagelevel for pages laid out by `engine`.
    pub fn builtin_for(engine: LayoutEngine) -> Result<TemplateModel, ModelError> {
        match engine {
            LayoutEngine::Native => TemplateModel::builtin(),
            LayoutEngine::Chromium => {
                TemplateModel::from_json(BUILTIN_CHROMIUM_MODEL, "<built-in Chromium-layout model>")
            }
            LayoutEngine::None => Err(ModelError::NoBuiltin {
                engine: engine.name(),
            }),
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

    /// Parses and checks a model: format, version, feature names, bucket shapes, and values: no
    /// non-finite or absurd number (|value| > [`MAX_MODEL_VALUE`], a scale below [`MIN_SCALE`],
    /// `hidden_area` outside [0, [`MAX_HIDDEN_AREA`]]) and bucket ranges ascending without
    /// overlap.
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
        model.check_values().map_err(corrupt)?;
        Ok(model)
    }

    /// Refuses numbers no fitted model has, so that a damaged or hand-edited file fails at load
    /// naming the field, not later as a NaN score: vector lengths, non-finite or absurd (beyond
    /// [`MAX_MODEL_VALUE`]) coefficients, intercepts and means, scales outside
    /// [[`MIN_SCALE`], [`MAX_MODEL_VALUE`]], a `hidden_area` outside [0, [`MAX_HIDDEN_AREA`]],
    /// bucket ranges that are empty, descending, overlapping or unbounded before the last.
    fn check_values(&self) -> Result<(), String> {
        if !(self.hidden_area.is_finite() && (0.0..=MAX_HIDDEN_AREA).contains(&self.hidden_area)) {
            return Err(format!(
                "hidden_area is {}; it must be a number of px² from 0 to {MAX_HIDDEN_AREA:e}",
                self.hidden_area
            ));
        }
        let mut previous_end = 0.0;
        for (index, bucket) in self.buckets.iter().enumerate() {
            let at = format!("bucket {index} (from {} px²)", bucket.min_area);
            let last = index + 1 == self.buckets.len();
            if !(bucket.min_area.is_finite() && bucket.min_area >= previous_end) {
                return Err(format!(
                    "{at}: min_area {} is below the end of the bucket before ({previous_end}); \
                     buckets must be in ascending, non-overlapping area order",
                    bucket.min_area
                ));
            }
            match bucket.max_area {
                Some(max) if max.is_finite() && max > bucket.min_area => previous_end = max,
                Some(max) => {
                    return Err(format!(
                        "{at}: max_area {max} is not above min_area {}",
                        bucket.min_area
                    ));
                }
                None if last => {}
                None => {
                    return Err(format!(
                        "{at}: max_area is null (unbounded) but {} more bucket(s) follow; \
                         only the last bucket may be unbounded",
                        self.buckets.len() - index - 1
                    ));
                }
            }
            let vectors = [
                ("coefficients", &bucket.coefficients),
                ("standardization.mean", &bucket.standardization.mean),
                ("standardization.scale", &bucket.standardization.scale),
            ];
            for (field, values) in vectors {
                if values.len() != FEATURE_COUNT {
                    return Err(format!(
                        "{at}: {field} has {} values; it needs one per feature ({FEATURE_COUNT})",
                        values.len()
                    ));
                }
                let (low, high) = match field {
                    "standardization.scale" => (MIN_SCALE, MAX_MODEL_VALUE),
                    _ => (-MAX_MODEL_VALUE, MAX_MODEL_VALUE),
                };
                if let Some((feature, value)) = values
                    .iter()
                    .enumerate()
                    .find(|(_, value)| !(low..=high).contains(*value))
                {
                    return Err(format!(
                        "{at}: {field}[{feature}] (feature \"{}\") is {value:e}; it must lie in \
                         [{low:e}, {high:e}]",
                        FEATURE_NAMES[feature]
                    ));
                }
            }
            if !(-MAX_MODEL_VALUE..=MAX_MODEL_VALUE).contains(&bucket.intercept) {
                return Err(format!(
                    "{at}: intercept is {:e}; it must lie in [{:e}, {MAX_MODEL_VALUE:e}]",
                    bucket.intercept, -MAX_MODEL_VALUE
                ));
            }
        }
        Ok(())
    }

    /// Writes the model as pretty JSON. The file is written beside `path` under a temporary
    /// name, synced and renamed over `path`, so a failed write (a full disk, a killed run) never
    /// leaves half a model: `path` holds the old model or the new one. A symbolic link at `path`
    /// is followed: the file it names is replaced.
    pub fn save(&self, path: &Path) -> Result<(), ModelError> {
        let json = serde_json::to_string_pretty(self).map_err(|e| ModelError::Corrupt {
            path: path.display().to_string(),
            cause: e.to_string(),
        })?;
        let failed = |source| ModelError::Write {
            path: path.display().to_string(),
            source,
        };
        let mut staged = StagedFile::create(path).map_err(failed)?;
        staged
            .write_all(json.as_bytes())
            .and_then(|()| staged.write_all(b"\n"))
            .map_err(failed)?;
        staged.commit().map_err(failed)
    }

    /// Checks that `path` can be written (its directory exists and is writable) without touching
    /// it: training takes long, a bad `--out` must stop it before, not after.
    pub fn check_writable(path: &Path) -> Result<(), ModelError> {
        StagedFile::check_writable(path).map_err(|source| ModelError::Write {
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

/// The directory a file `path` is in (`.` for a bare file name).
#[cfg(test)]
mod tests;
