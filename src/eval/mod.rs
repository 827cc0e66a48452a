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

pub use align::{align_gold_words, align_words};
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
    /// The `FORMAT` part of a dataset spec names no known format.
    #[error(
        "unknown dataset format `{name}`; use one of: l3s-gn1, cleaneval, cleanportaleval, dragnet, big9, kreuzer, readability, wcxb, native"
    )]
    UnknownFormat {
        /// The format name as given.
        name: String,
    },
    /// A dataset spec has no `:` or nothing after it.
    #[error("dataset `{spec}` is not FORMAT:PATH (for example `big9:datasets/labeled/big9`)")]
    MalformedSpec {
        /// The spec as given.
        spec: String,
    },
    /// A dataset file or folder could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file or folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The path is not laid out as the format requires (e.g. a Dragnet path with no `HTML/`).
    #[error("{} is not a {format} dataset: expected {expected}", path.display())]
    NotADataset {
        /// The format the path was loaded as.
        format: DatasetFormat,
        /// The path checked (the root, or the folder inside it the format requires).
        path: PathBuf,
        /// What the format expects to find there, e.g. `HTML/ and Corrected/ folders`.
        expected: &'static str,
    },
    /// The dataset was laid out correctly but held no pages.
    #[error("{format} dataset at {} has no pages", path.display())]
    NoPages {
        /// The format it was loaded as.
        format: DatasetFormat,
        /// The dataset's root.
        path: PathBuf,
    },
    /// A page has no gold file beside it where the format puts one.
    #[error("page {} has no gold file {}", page.display(), gold.display())]
    MissingGold {
        /// The page's HTML file.
        page: PathBuf,
        /// The gold file that should exist.
        gold: PathBuf,
    },
    /// A gold file has no page where the format puts one (WCXB: `html/<id>.html.gz`).
    #[error("gold file {} has no page {}", gold.display(), page.display())]
    MissingPage {
        /// The gold file.
        gold: PathBuf,
        /// The page file that should exist.
        page: PathBuf,
    },
    /// A dataset file (index, manifest, `meta.json`) could not be parsed, or the evaluation's
    /// own `pages.csv` could not be written.
    #[error("{}: {reason}", path.display())]
    Malformed {
        /// The offending file.
        path: PathBuf,
        /// What is wrong with it (line number where known).
        reason: String,
    },
}
