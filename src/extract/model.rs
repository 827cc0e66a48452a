//! The learned main-text model: a logistic regression over a paragraph's [`BlockFeatures`]
//! giving P(the paragraph is main text), fitted on human-labelled development pages
//! (`pagelevel train-main-text`, `src/train/main_text.rs`). Versioned JSON; the shipped one
//! (`models/main-text.json`) is compiled in.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use crate::model::card::{CARD_BEGIN, CARD_END};
use crate::page_type::PageType;

use super::blocks::{BLOCK_FEATURE_NAMES, BlockFeatures};
use super::trees::BoostedTrees;

/// The model file's format version.
pub const MAIN_TEXT_MODEL_VERSION: u32 = 1;

/// The shipped model's JSON.
const SHIPPED: &str = include_str!("../../models/main-text.json");

/// P(main text) of a paragraph from its standardised features.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MainTextModel {
    /// [`MAIN_TEXT_MODEL_VERSION`] of the writer.
    pub version: u32,
    /// The features' names, in order: any of this pagelevel's features (a file written before a
    /// feature was added keeps working); a file naming another feature is refused.
    pub features: Vec<String>,
    /// Per feature: the training mean subtracted before weighting.
    pub mean: Vec<f64>,
    /// Per feature: the training standard deviation divided by (1 where it was 0).
    pub scale: Vec<f64>,
    /// Per feature: the weight of the standardised value.
    pub weights: Vec<f64>,
    /// The intercept.
    pub intercept: f64,
    /// A paragraph is main text at or above this probability.
    pub cut: f64,
    /// Which likely paragraphs make the main text.
    #[serde(default)]
    pub selection: Selection,
    /// When the chosen container (with its strong siblings) holds less than this share of the
    /// page's likely words, the text is spread over the page (posts, cards, sections) and the
    /// main text is every paragraph at or above `spread_cut`. 0 (files before it): never.
    #[serde(default)]
    pub spread_share: f64,
    /// The probability a paragraph needs on a page whose likely text is spread.
    #[serde(default = "no_spread_cut")]
    pub spread_cut: f64,
    /// A paragraph at this share of the page's likeliest paragraph's probability is main text
    /// even below `cut` (never below [`LOWEST_CUT`]): the model ranks a page's paragraphs better
    /// than it sets their level, which varies from page to page. 0 (files before it): off.
    #[serde(default)]
    pub relative_cut: f64,
    /// How the model was trained, for its card.
    pub training: MainTextTraining,
    /// Models of their own for kinds of pages whose main text is not one article (a thread's
    /// posts, a listing's cards, a service page's sections): used instead of this one when the
    /// page is sure to be of one of their types. None in files written before them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub by_page_type: Vec<PageTypeMainText>,
    /// Trees whose values are added to the logit (`src/extract/trees.rs`): what one weight per
    /// feature cannot say. None in files written before them, and in the every-page model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boosted: Option<BoostedTrees>,
    /// Where each of `features` sits in [`BlockFeatures`] (derived on reading).
    #[serde(skip)]
    positions: Vec<usize>,
}

/// The least probability a relative cut ([`MainTextModel::relative_cut`]) comes down to.
pub const LOWEST_CUT: f64 = 0.1;

/// A main-text model for some page types.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageTypeMainText {
    /// The types it is for.
    pub page_types: Vec<PageType>,
    /// The model (its own `by_page_type` is empty).
    pub model: MainTextModel,
}

/// A model file without `spread_cut` never finds a page spread (`spread_share` 0).
fn no_spread_cut() -> f64 {
    1.0
}

/// Which of the paragraphs at or above the cut make the main text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Selection {
    /// Those inside the element (and its strong siblings) holding most likely words net of
    /// unlikely ones: one article, as a reader sees it.
    #[default]
    Container,
    /// All of them, wherever they sit: content spread over a page (threads, listings).
    Paragraphs,
}

/// Where a main-text model came from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MainTextTraining {
    /// The labelled sets (`FORMAT:name`) and how many development pages of each.
    pub sets: Vec<(String, usize)>,
    /// Paragraphs fitted on.
    pub paragraphs: usize,
    /// Of them, main text by the gold.
    pub main_paragraphs: usize,
    /// The layout engine the pages were laid out with.
    pub layout: String,
}

/// Why a main-text model file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum MainTextModelError {
    /// Not JSON of this shape.
    #[error("not a main-text model: {0}")]
    Json(#[from] serde_json::Error),
    /// Another version, other features, or values that are not finite.
    #[error("main-text model cannot be used: {0}")]
    Invalid(String),
}

impl MainTextModel {
    /// A model over the features at `columns` (indices into [`BlockFeatures`]), fitted with
    /// these standardisation values, weights and intercept (one per column); its cut 0.5,
    /// container selection, never spread (the fields are public: the trainer sets its own).
    pub fn over_features(
        columns: &[usize],
        mean: Vec<f64>,
        scale: Vec<f64>,
        weights: Vec<f64>,
        intercept: f64,
        training: MainTextTraining,
    ) -> MainTextModel {
        MainTextModel {
            version: MAIN_TEXT_MODEL_VERSION,
            features: columns
                .iter()
                .map(|&column| BLOCK_FEATURE_NAMES[column].to_string())
                .collect(),
            mean,
            scale,
            weights,
            intercept,
            cut: 0.5,
            selection: Selection::default(),
            spread_share: 0.0,
            spread_cut: no_spread_cut(),
            relative_cut: 0.0,
            training,
            by_page_type: Vec::new(),
            boosted: None,
            positions: columns.to_vec(),
        }
    }

    /// The model shipped with pagelevel.
    pub fn shipped() -> &'static MainTextModel {
        static MODEL: OnceLock<MainTextModel> = OnceLock::new();
        MODEL.get_or_init(|| {
            MainTextModel::from_json(SHIPPED).expect("the shipped main-text model is valid")
        })
    }

    /// Reads and checks a model file's JSON.
    pub fn from_json(json: &str) -> Result<MainTextModel, MainTextModelError> {
        let mut model: MainTextModel = serde_json::from_str(json)?;
        model.prepare()?;
        Ok(model)
    }

    /// Checks the model and its page types' models, and finds where their features sit.
    fn prepare(&mut self) -> Result<(), MainTextModelError> {
        self.validate()?;
        self.positions = feature_positions(&self.features)?;
        for typed in &mut self.by_page_type {
            if !typed.model.by_page_type.is_empty() {
                return Err(MainTextModelError::Invalid(
                    "a page type's model has page types of its own".to_string(),
                ));
            }
            typed.model.prepare()?;
        }
        Ok(())
    }

    /// The probability a paragraph needs on a page whose likeliest paragraph has `likeliest`,
    /// under the model's cut `cut`: `cut`, or less where [`MainTextModel::relative_cut`] is set.
    pub fn cut_on_page(&self, cut: f64, likeliest: f64) -> f64 {
        if self.relative_cut > 0.0 {
            cut.min(LOWEST_CUT.max(self.relative_cut * likeliest))
        } else {
            cut
        }
    }

    /// The model for a page of `page_type` (`None`: a page of no sure type): its type's own
    /// model when the file has one, else this one.
    pub fn for_page_type(&self, page_type: Option<PageType>) -> &MainTextModel {
        page_type
            .and_then(|page_type| {
                self.by_page_type
                    .iter()
                    .find(|typed| typed.page_types.contains(&page_type))
            })
            .map_or(self, |typed| &typed.model)
    }

    fn validate(&self) -> Result<(), MainTextModelError> {
        let invalid = |reason: String| Err(MainTextModelError::Invalid(reason));
        if self.version != MAIN_TEXT_MODEL_VERSION {
            return invalid(format!(
                "version {} (this pagelevel reads {MAIN_TEXT_MODEL_VERSION})",
                self.version
            ));
        }
        let count = self.features.len();
        for (name, values) in [
            ("mean", &self.mean),
            ("scale", &self.scale),
            ("weights", &self.weights),
        ] {
            if values.len() != count || values.iter().any(|value| !value.is_finite()) {
                return invalid(format!(
                    "`{name}` needs {count} finite numbers, one per feature"
                ));
            }
        }
        if self.scale.iter().any(|&scale| scale <= 0.0) {
            return invalid("`scale` must be positive".to_string());
        }
        if let Some(boosted) = &self.boosted {
            boosted
                .check(count)
                .map_err(|reason| MainTextModelError::Invalid(format!("`boosted`: {reason}")))?;
        }
        if !self.intercept.is_finite()
            || [
                self.cut,
                self.spread_share,
                self.spread_cut,
                self.relative_cut,
            ]
            .iter()
            .any(|value| !(0.0..=1.0).contains(value))
        {
            return invalid(
                "`intercept` must be finite and `cut`, `spread_share`, `spread_cut`, `relative_cut` in [0, 1]"
                    .to_string(),
            );
        }
        Ok(())
    }

    /// P(main text) of a paragraph with these features.
    pub fn probability(&self, features: &BlockFeatures) -> f64 {
        let logit = self.linear_logit(features)
            + self.boosted.as_ref().map_or(0.0, |boosted| {
                boosted.margin(|feature| features[self.positions[feature]])
            });
        1.0 / (1.0 + (-logit).exp())
    }

    /// The logistic regression's logit of a paragraph, before any trees.
    pub fn linear_logit(&self, features: &BlockFeatures) -> f64 {
        self.positions
            .iter()
            .map(|&position| features[position])
            .zip(&self.mean)
            .zip(&self.scale)
            .zip(&self.weights)
            .map(|(((value, mean), scale), weight)| (value - mean) / scale * weight)
            .sum::<f64>()
            + self.intercept
    }
}

/// Where each named feature sits in [`BlockFeatures`]; an unknown or repeated name is refused.
fn feature_positions(names: &[String]) -> Result<Vec<usize>, MainTextModelError> {
    let mut positions = Vec::with_capacity(names.len());
    for name in names {
        let position = BLOCK_FEATURE_NAMES
            .iter()
            .position(|known| known == name)
            .ok_or_else(|| {
                MainTextModelError::Invalid(format!(
                    "unknown feature `{name}` (this pagelevel's: {BLOCK_FEATURE_NAMES:?})"
                ))
            })?;
        if positions.contains(&position) {
            return Err(MainTextModelError::Invalid(format!(
                "feature `{name}` named twice"
            )));
        }
        positions.push(position);
    }
    Ok(positions)
}

impl MainTextModel {
    /// The generated block of the model's card (between the markers `pagelevel model-card`
    /// writes): its training data and every feature's weight, largest first.
    pub fn card_facts(&self, model_name: &str) -> String {
        use std::fmt::Write;
        let training = &self.training;
        let mut out = String::new();
        let _ = writeln!(out, "{CARD_BEGIN}");
        let _ = writeln!(
            out,
            "- **Model file:** `{model_name}`, main-text model version {}; {} features (`src/extract/blocks.rs`); a paragraph is main text at P ≥ {}, selection `{}`; a page whose container holds under {} of the likely words takes every paragraph at P ≥ {}.",
            self.version,
            self.features.len(),
            self.cut,
            match self.selection {
                Selection::Container => "container",
                Selection::Paragraphs => "paragraphs",
            },
            self.spread_share,
            self.spread_cut
        );
        let sets: Vec<String> = training
            .sets
            .iter()
            .map(|(set, pages)| format!("{set} {pages}"))
            .collect();
        let _ = writeln!(
            out,
            "- **Training data:** development pages of {} ({} pages), laid out by `{}`: {} paragraphs, {} of them main text ({:.1}%).",
            sets.join(", "),
            training.sets.iter().map(|(_, pages)| pages).sum::<usize>(),
            training.layout,
            training.paragraphs,
            training.main_paragraphs,
            100.0 * training.main_paragraphs as f64 / training.paragraphs.max(1) as f64
        );
        let _ = writeln!(
            out,
            "- **Weights** (of standardised features; positive: more likely main text), intercept {:.3}:",
            self.intercept
        );
        let _ = writeln!(out);
        let _ = writeln!(out, "| feature | weight | training mean | training sd |");
        let _ = writeln!(out, "|---|---:|---:|---:|");
        let mut order: Vec<usize> = (0..self.features.len()).collect();
        order.sort_by(|&a, &b| self.weights[b].abs().total_cmp(&self.weights[a].abs()));
        for index in order {
            let _ = writeln!(
                out,
                "| {} | {:.3} | {:.3} | {:.3} |",
                self.features[index], self.weights[index], self.mean[index], self.scale[index]
            );
        }
        for typed in &self.by_page_type {
            let names: Vec<&str> = typed.page_types.iter().map(|kind| kind.name()).collect();
            let model = &typed.model;
            let choice = match model.selection {
                Selection::Container => format!(
                    "main text is chosen as on every page (container, P ≥ {}), but every paragraph at P ≥ {} when the container holds under {} of the likely words",
                    model.cut, model.spread_cut, model.spread_share
                ),
                Selection::Paragraphs => format!(
                    "main text is every paragraph at P ≥ {} or at {} of the page's likeliest paragraph's P (not under {LOWEST_CUT})",
                    model.cut, model.relative_cut
                ),
            };
            let _ = writeln!(
                out,
                "- **{} pages** have a model of their own, used when the page is sure enough to be one: fitted on {} development pages ({} paragraphs, {:.1}% main text); {}; its largest weights: {}.{}",
                names.join(" and "),
                model
                    .training
                    .sets
                    .iter()
                    .map(|(_, pages)| pages)
                    .sum::<usize>(),
                model.training.paragraphs,
                100.0 * model.training.main_paragraphs as f64
                    / model.training.paragraphs.max(1) as f64,
                choice,
                model.largest_weights(5),
                model.boosted.as_ref().map_or(String::new(), |boosted| {
                    let fitted = boosted.fitted;
                    format!(
                        " Its logit is corrected by {} regression trees of depth {} (gradient boosting from the logistic answer, learning rate {}, at least {} paragraphs a leaf).",
                        boosted.trees.len(),
                        fitted.depth,
                        fitted.learning_rate,
                        fitted.min_leaf_paragraphs
                    )
                })
            );
        }
        let _ = writeln!(out, "{CARD_END}");
        out
    }

    /// The `count` largest weights, named, largest first.
    fn largest_weights(&self, count: usize) -> String {
        let mut order: Vec<usize> = (0..self.features.len()).collect();
        order.sort_by(|&a, &b| self.weights[b].abs().total_cmp(&self.weights[a].abs()));
        order
            .iter()
            .take(count)
            .map(|&index| format!("{} {:.2}", self.features[index], self.weights[index]))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::BLOCK_FEATURE_COUNT;

    #[test]
    fn the_shipped_model_reads_and_a_wrong_one_is_refused_with_its_reason() {
        let shipped = MainTextModel::shipped();
        let probability = shipped.probability(&[0.0; BLOCK_FEATURE_COUNT]);
        assert!((0.0..=1.0).contains(&probability));
        let mut other = shipped.clone();
        other.features[0] = "colour".to_string();
        let error = MainTextModel::from_json(&serde_json::to_string(&other).unwrap())
            .unwrap_err()
            .to_string();
        assert!(error.contains("colour"), "{error}");
        let error = MainTextModel::from_json("{}").unwrap_err().to_string();
        assert!(error.starts_with("not a main-text model"), "{error}");
        let mut twice = shipped.clone();
        twice.features[1] = twice.features[0].clone();
        let error = MainTextModel::from_json(&serde_json::to_string(&twice).unwrap())
            .unwrap_err()
            .to_string();
        assert!(error.contains("named twice"), "{error}");
    }

    #[test]
    fn a_sure_page_type_with_a_model_of_its_own_is_scored_by_it() {
        let shipped = MainTextModel::shipped();
        let mut every_page = shipped.clone();
        every_page.by_page_type.clear();
        let mut listings = every_page.clone();
        listings.intercept += 3.0;
        every_page.by_page_type.push(PageTypeMainText {
            page_types: vec![PageType::Listing, PageType::Collection],
            model: listings,
        });
        let read = MainTextModel::from_json(&serde_json::to_string(&every_page).unwrap()).unwrap();
        let features = [0.2; BLOCK_FEATURE_COUNT];
        let base = read.probability(&features);
        for (page_type, own) in [
            (Some(PageType::Collection), true),
            (Some(PageType::Listing), true),
            (Some(PageType::Article), false),
            (None, false),
        ] {
            let chosen = read.for_page_type(page_type).probability(&features);
            assert_eq!(chosen > base, own, "{page_type:?}");
        }
        // A page type's model has no page types of its own.
        let mut nested = read.clone();
        let inner = nested.clone();
        nested.by_page_type[0].model = inner;
        let error = MainTextModel::from_json(&serde_json::to_string(&nested).unwrap())
            .unwrap_err()
            .to_string();
        assert!(error.contains("page types of its own"), "{error}");
    }

    #[test]
    fn a_relative_cut_follows_the_page_down_to_its_floor_and_never_above_the_cut() {
        let mut model = MainTextModel::shipped().clone();
        model.relative_cut = 0.0;
        assert_eq!(model.cut_on_page(0.3, 0.5), 0.3);
        model.relative_cut = 0.3;
        assert!((model.cut_on_page(0.3, 0.5) - 0.15).abs() < 1e-12);
        assert_eq!(model.cut_on_page(0.3, 0.2), LOWEST_CUT);
        assert_eq!(model.cut_on_page(0.2, 0.99), 0.2);
    }

    #[test]
    fn a_model_file_written_before_features_were_added_reads_and_weighs_its_own() {
        let shipped = MainTextModel::shipped();
        let mut older = shipped.clone();
        let kept = shipped.features.len() - 2;
        for values in [&mut older.mean, &mut older.scale, &mut older.weights] {
            values.truncate(kept);
        }
        older.features.truncate(kept);
        let older = MainTextModel::from_json(&serde_json::to_string(&older).unwrap()).unwrap();
        let mut without_new = shipped.clone();
        without_new.weights[kept..]
            .iter_mut()
            .for_each(|weight| *weight = 0.0);
        let mut features = [0.3; BLOCK_FEATURE_COUNT];
        features[kept] = 5.0;
        assert_eq!(
            older.probability(&features),
            without_new.probability(&features)
        );
    }
}
