//! Evaluation against human-labelled pages: dataset loaders (one per format), gold-to-page
//! word alignment, and the metrics of Section 6.1 of the paper (template precision/recall/F1,
//! adjusted Rand index of segmentations).
//!
//! The flow an evaluation follows: [`load_dataset`] lists a set's pages with their [`Gold`];
//! for each page, the detector's words and [`page_truth`] give every word a gold
//! [`WordTruth`] (by aligning gold text to the page, see [`align`]); [`Counts`] tally
//! detected-vs-gold template words per page, summed for the micro average and averaged per
//! page for the macro average; [`adjusted_rand_index`] compares segmentations.
//!
//! Running the detector on a labelled page: [`PageText`] reads the words, leaves and links off
//! the rendered arena DOM, [`PageRuns`] runs PageLevel's variants (Basic, Smooth, Smooth over a
//! penalty sweep), [`PageRuns::evaluate`] scores each ([`score_page`]), Basic+Merge included
//! ([`merge`]); [`summary`] totals a dataset and [`report`] writes the CSV, the markdown table
//! in the paper's Table 1 layout, and the sweep plots.

pub mod align;
pub mod annotated;
pub mod datasets;
pub mod evaluate;
pub mod merge;
pub mod metrics;
pub mod output_scores;
pub mod page_text;
pub mod plot;
pub mod report;
pub mod run;
pub mod scoring;
pub mod summary;
pub mod truth;

use std::path::PathBuf;

use thiserror::Error;

pub use align::{align_gold_words, align_words, word_tokens};
pub use datasets::{
    BlockAnnotation, Dataset, DatasetFormat, DatasetSpec, Gold, LabelledBlock, LabelledPage,
    MainText, load_dataset,
};
pub use evaluate::{
    EvalOptions, PageEvaluation, PageRuns, Segmentation, SitePageText, SweepGrid,
    evaluate_site_method, page_gold,
};
pub use merge::{MERGE_DELTAS, merge_verdicts};
pub use metrics::{Counts, MacroAverage, Scores, adjusted_rand_index};
pub use output_scores::{MIN_GOLD_WORDS, OutputScores, TextReport, TextScore, TextTotals};
pub use page_text::{Leaf, PageText, PageWord};
pub use run::{EvalEvent, Evaluation, evaluate, write_report};
pub use scoring::{BlockLevel, PageGold, PageScores, Verdicts, score_page, segmentation_ari};
pub use summary::{
    DatasetReport, FailedPage, Mean, PrecisionRecall, SweepPoint, VariantReport, VariantTotals,
    best_merge_delta, sweep_points,
};
pub use truth::{GoldBlocks, L3sMapping, PageTruth, WordTruth, main_text_words, page_truth};

/// Why a dataset could not be loaded.
#[derive(Debug, Error)]
pub enum EvalError {
    #[error(
        "unknown dataset format `{name}`; use one of: l3s-gn1, cleaneval, cleanportaleval, dragnet, big9, kreuzer, native"
    )]
    UnknownFormat { name: String },
    #[error("dataset `{spec}` is not FORMAT:PATH (for example `big9:datasets/labeled/big9`)")]
    MalformedSpec { spec: String },
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} is not a {format} dataset: expected {expected}", path.display())]
    NotADataset {
        format: DatasetFormat,
        path: PathBuf,
        expected: &'static str,
    },
    #[error("{format} dataset at {} has no pages", path.display())]
    NoPages {
        format: DatasetFormat,
        path: PathBuf,
    },
    #[error("page {} has no gold file {}", page.display(), gold.display())]
    MissingGold { page: PathBuf, gold: PathBuf },
    #[error("{}: {reason}", path.display())]
    Malformed { path: PathBuf, reason: String },
}
