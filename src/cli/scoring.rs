//! The scoring flags `score` and `eval` share, with their defaults taken from
//! [`ScoringParams::default`] so a default is written once.

use std::sync::Arc;

use anyhow::Context;
use clap::{Args, ValueEnum};
use pagelevel::extract::MainTextModel;
use pagelevel::page_type::PageTypeModel;
use pagelevel::params::{
    DEFAULT_THRESHOLD, MainTextChoice, NodeWeight, PageTypeChoice, ParamsError, ScoringParams,
    ValidParams,
};
use pagelevel::smooth::{Algorithm, Penalty, PenaltyScheme};

/// How a page is scored after layout.
#[derive(Debug, Args)]
pub struct ScoringArgs {
    /// Smoothed templateness at or above which a node is template.
    #[arg(long, default_value_t = DEFAULT_THRESHOLD)]
    threshold: f64,
    /// The penalty constant c: larger gives fewer, larger sections.
    #[arg(long, default_value_t = Penalty::default().scale)]
    penalty_scale: f64,
    /// The penalty function.
    #[arg(long, value_enum, default_value_t = PenaltyArg::Area)]
    penalty: PenaltyArg,
    /// How much each node's score counts in the smoothing.
    #[arg(long, value_enum, default_value_t = WeightArg::SqrtArea)]
    weight: WeightArg,
    /// Apply the threshold as configured even where it leaves a page without content (by
    /// default a page that has running text always keeps its least template-like part).
    #[arg(long)]
    no_content_floor: bool,
    /// No smoothing: threshold the classifier's scores (the paper's "Basic").
    #[arg(long)]
    no_smooth: bool,
    /// Smoothing algorithm (both exact; `paper` is the slow reference).
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Fast)]
    algorithm: AlgorithmArg,
    /// How the main text is chosen: `shipped` (the learned main-text model shipped with
    /// pagelevel), `rules` (the rules alone), or a model file from `train-main-text`.
    #[arg(long, value_name = "shipped|rules|FILE", default_value = "shipped")]
    main_text_model: String,
    /// How the page's type is told: `shipped` (the page-type model shipped with pagelevel) or a
    /// model file from `train-page-type`.
    #[arg(long, value_name = "shipped|FILE", default_value = "shipped")]
    page_type_model: String,
}

impl ScoringArgs {
    fn main_text_choice(&self) -> anyhow::Result<MainTextChoice> {
        Ok(match self.main_text_model.as_str() {
            "shipped" => MainTextChoice::Shipped,
            "rules" => MainTextChoice::Rules,
            file => MainTextChoice::Model(model_file(file, "main-text", MainTextModel::from_json)?),
        })
    }

    fn page_type_choice(&self) -> anyhow::Result<PageTypeChoice> {
        Ok(match self.page_type_model.as_str() {
            "shipped" => PageTypeChoice::Shipped,
            file => PageTypeChoice::Model(model_file(file, "page-type", PageTypeModel::from_json)?),
        })
    }

    /// The checked parameters these flags give.
    pub fn params(&self) -> anyhow::Result<ValidParams> {
        let params = ScoringParams {
            threshold: self.threshold,
            penalty: Penalty {
                scheme: match self.penalty {
                    PenaltyArg::Area => PenaltyScheme::PageArea,
                    PenaltyArg::Count => PenaltyScheme::SubtreeSize,
                    PenaltyArg::ParentArea => PenaltyScheme::ParentArea,
                },
                scale: self.penalty_scale,
            },
            weight: match self.weight {
                WeightArg::Count => NodeWeight::Count,
                WeightArg::SqrtArea => NodeWeight::SqrtArea,
            },
            smooth: !self.no_smooth,
            content_floor: !self.no_content_floor,
            algorithm: self.algorithm.into(),
            main_text: self.main_text_choice()?,
            page_type: self.page_type_choice()?,
        };
        // Name the flag, not the field: the user typed the flag.
        params.check().map_err(|error| match error {
            ParamsError::Threshold(value) => {
                anyhow::anyhow!("--threshold must be between 0 and 1, got {value}")
            }
            ParamsError::PenaltyScale(value) => {
                anyhow::anyhow!("--penalty-scale must be a finite number ≥ 0, got {value}")
            }
        })
    }
}

/// A model file of the caller's, read and checked by `from_json`; an error names the kind of
/// model, the file and the cause.
fn model_file<Model, Error>(
    file: &str,
    kind: &str,
    from_json: impl FnOnce(&str) -> Result<Model, Error>,
) -> anyhow::Result<Arc<Model>>
where
    Error: std::error::Error + Send + Sync + 'static,
{
    let json = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read the {kind} model {file}"))?;
    let model = from_json(&json).with_context(|| format!("cannot use the {kind} model {file}"))?;
    Ok(Arc::new(model))
}

/// Which penalty function γ the smoothing uses (Section 5.3 of the paper).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PenaltyArg {
    /// γᵢ = c·A/Aᵢ (page area over node area): the paper's choice.
    Area,
    /// γᵢ = c·N/Nᵢ (node count over subtree size).
    Count,
    /// γᵢ = c·A_parent/Aᵢ.
    ParentArea,
}

/// The smoothing weight of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum WeightArg {
    /// 1 + hidden nodes rolled in: the paper's weight.
    Count,
    /// The paper's weight × √(area / mean area): large boxes count more (the default).
    SqrtArea,
}

/// The exact smoothing algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AlgorithmArg {
    /// Piecewise-linear cost functions: work ~ n × depth.
    Fast,
    /// The paper's BuildError / IsotoneSmooth tables (the reference).
    Paper,
}

impl From<AlgorithmArg> for Algorithm {
    fn from(choice: AlgorithmArg) -> Algorithm {
        match choice {
            AlgorithmArg::Fast => Algorithm::Fast,
            AlgorithmArg::Paper => Algorithm::Paper,
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[derive(Debug, Parser)]
    struct Flags {
        #[command(flatten)]
        scoring: ScoringArgs,
    }

    #[test]
    fn no_flags_give_the_library_defaults() {
        let flags = Flags::parse_from(["pagelevel"]);
        assert_eq!(
            *flags.scoring.params().expect("valid"),
            ScoringParams::default()
        );
    }
}
