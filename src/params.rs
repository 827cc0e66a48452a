//! How a page is scored, defined once: [`ScoringParams`] holds every knob with its default and
//! why; [`ScoringParams::check`] turns it into [`ValidParams`], the only form the stages accept
//! (the linfa pattern: parameters are checked once, not by every stage that reads them). The
//! command-line flags take their defaults from here.

use std::ops::Deref;
use std::sync::Arc;

use thiserror::Error;

use crate::extract::MainTextModel;
use crate::page_type::PageTypeModel;
pub use crate::smooth::NodeWeight;
use crate::smooth::{Algorithm, PageSmoothing, Penalty};

/// Default templateness threshold: a node whose smoothed score reaches it is template. Chosen
/// with `pagelevel eval --sweep-penalty` on kreuzer, cleaneval, cleanportaleval and big9 by the
/// mean of Smooth's template-text, anchor-text, link and main-text F1 (0.25: 0.845, 0.3: 0.825,
/// 0.5: 0.706), with dragnet and l3s-gn1 held out (training/reports/eval/README.md). The models
/// are fitted on balanced classes, so 0.5 is not the natural cut: template nodes are the
/// minority on real pages.
pub const DEFAULT_THRESHOLD: f64 = 0.25;

/// How a page is scored after layout. Build one (start from `default()`), then
/// [`check`](ScoringParams::check) it.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoringParams {
    /// Smoothed templateness at or above which a node is template, in [0, 1].
    pub threshold: f64,
    /// The section penalty γ of the smoothing (scheme and scale c ≥ 0).
    pub penalty: Penalty,
    /// How much each node's score counts in the smoothing.
    pub weight: NodeWeight,
    /// False gives the paper's *Basic*: classifier scores thresholded, no smoothing.
    pub smooth: bool,
    /// Lower the threshold on a page that would otherwise keep less than
    /// [`MIN_CONTENT_WORDS`](crate::segment::MIN_CONTENT_WORDS) words of running text
    /// ([`ContentFloor`](crate::segment::ContentFloor)); smoothed runs only.
    pub content_floor: bool,
    /// Which exact smoothing algorithm runs (same optimum; `Paper` is the slow reference).
    pub algorithm: Algorithm,
    /// How the main text is chosen among the content.
    pub main_text: MainTextChoice,
    /// Which model tells the page's type (and so which policy its main text follows).
    pub page_type: PageTypeChoice,
}

/// How the main text is chosen: by the learned main-text model (the shipped one by default), or
/// by the rules it was learned beside (`extract` names both).
#[derive(Debug, Clone, Default, PartialEq)]
pub enum MainTextChoice {
    /// The model shipped with pagelevel (`models/main-text.json`).
    #[default]
    Shipped,
    /// A model file of the caller's (`pagelevel train-main-text`).
    Model(Arc<MainTextModel>),
    /// The rules alone: the maximum-weight subtree of article-like paragraphs.
    Rules,
}

impl MainTextChoice {
    /// The model to choose with; `None` for the rules.
    pub fn model(&self) -> Option<&MainTextModel> {
        match self {
            MainTextChoice::Shipped => Some(MainTextModel::shipped()),
            MainTextChoice::Model(model) => Some(model),
            MainTextChoice::Rules => None,
        }
    }
}

/// Which page-type model types a page: the shipped one, or one of the caller's (`pagelevel
/// train-page-type`), e.g. fitted without the pages it is evaluated on.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum PageTypeChoice {
    /// The model shipped with pagelevel (`models/page-type.json`).
    #[default]
    Shipped,
    /// A model file of the caller's.
    Model(Arc<PageTypeModel>),
}

impl PageTypeChoice {
    /// The model to type pages with.
    pub fn model(&self) -> &PageTypeModel {
        match self {
            PageTypeChoice::Shipped => PageTypeModel::shipped(),
            PageTypeChoice::Model(model) => model,
        }
    }
}

impl Default for ScoringParams {
    fn default() -> Self {
        ScoringParams {
            threshold: DEFAULT_THRESHOLD,
            penalty: Penalty::default(),
            weight: NodeWeight::default(),
            smooth: true,
            content_floor: true,
            algorithm: Algorithm::Fast,
            main_text: MainTextChoice::Shipped,
            page_type: PageTypeChoice::Shipped,
        }
    }
}

/// Why parameters were refused.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ParamsError {
    /// The threshold is not a number in [0, 1].
    #[error("the threshold must be between 0 and 1, got {0}")]
    Threshold(f64),
    /// The penalty scale is negative or not finite.
    #[error("the penalty scale must be a finite number ≥ 0, got {0}")]
    PenaltyScale(f64),
}

impl ScoringParams {
    /// What the smoothing stage does with these parameters.
    pub fn smoothing(&self) -> PageSmoothing {
        match self.smooth {
            true => PageSmoothing::Smooth {
                penalty: self.penalty,
                weight: self.weight,
                algorithm: self.algorithm,
            },
            false => PageSmoothing::Basic {
                threshold: self.threshold,
            },
        }
    }

    /// Checks every value once; the stages then trust them.
    pub fn check(self) -> Result<ValidParams, ParamsError> {
        if !(0.0..=1.0).contains(&self.threshold) {
            return Err(ParamsError::Threshold(self.threshold));
        }
        let scale = self.penalty.scale;
        if !(scale.is_finite() && scale >= 0.0) {
            return Err(ParamsError::PenaltyScale(scale));
        }
        Ok(ValidParams(self))
    }
}

/// Checked [`ScoringParams`]: the only form the scoring stages accept.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ValidParams(ScoringParams);

impl Deref for ValidParams {
    type Target = ScoringParams;

    fn deref(&self) -> &ScoringParams {
        &self.0
    }
}

impl ValidParams {
    /// The parameters, to change some and check them again.
    pub fn into_inner(self) -> ScoringParams {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_values_are_refused_with_their_value() {
        let threshold = ScoringParams {
            threshold: 1.5,
            ..ScoringParams::default()
        };
        assert_eq!(threshold.check(), Err(ParamsError::Threshold(1.5)));
        let nan = ScoringParams {
            threshold: f64::NAN,
            ..ScoringParams::default()
        };
        assert!(nan.check().is_err());
        let mut negative = ScoringParams::default();
        negative.penalty.scale = -0.1;
        assert_eq!(negative.check(), Err(ParamsError::PenaltyScale(-0.1)));
    }

    #[test]
    fn the_defaults_are_valid() {
        assert_eq!(
            *ScoringParams::default().check().expect("valid"),
            ScoringParams::default()
        );
    }
}
