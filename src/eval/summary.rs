//! Totals over a dataset: micro averages (summed counts), macro averages (mean of per-page
//! scores), mean ARI; the choice of Basic+Merge's δ; and the serializable report of a dataset
//! that `pagelevel eval --json` prints.

use std::collections::BTreeMap;

use serde::Serialize;

use super::evaluate::{PageEvaluation, SweepGrid};
use super::merge::MERGE_DELTAS;
use super::metrics::{Counts, MacroAverage, Scores};
use super::output_scores::TextReport;
use super::scoring::PageScores;

/// A mean over the pages where a value is defined.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Mean {
    sum: f64,
    count: u64,
}

impl Mean {
    /// Adds a page's value; `None` (undefined on that page) is skipped.
    pub fn add(&mut self, value: Option<f64>) {
        if let Some(value) = value {
            self.sum += value;
            self.count += 1;
        }
    }

    /// The mean, or `None` when no page had a value.
    pub fn value(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum / self.count as f64)
    }

    /// Number of pages that had a value.
    pub fn count(&self) -> u64 {
        self.count
    }
}

/// One variant's totals over the pages of a dataset.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct VariantTotals {
    /// Summed template counts over words of text (micro average).
    pub text: Counts,
    /// Summed template counts over anchor-text words.
    pub anchor_text: Counts,
    /// Summed template counts over links.
    pub links: Counts,
    /// Summed main-text counts (content as the positive class).
    pub main_text: Counts,
    /// Summed term-level template counts (Vieira et al.).
    pub terms: Counts,
    /// Per-page text scores, for the macro average.
    pub macro_text: MacroAverage,
    /// Per-page anchor-text scores, for the macro average.
    pub macro_anchor_text: MacroAverage,
    /// Per-page link scores, for the macro average.
    pub macro_links: MacroAverage,
    /// Per-page main-text scores, for the macro average.
    pub macro_main_text: MacroAverage,
    /// ARI against level-1 blocks, over pages with block gold.
    pub ari: Mean,
    /// ARI against level-1 and level-2 blocks, over pages with block gold.
    pub ari_level2: Mean,
}

impl VariantTotals {
    /// Adds one page's scores.
    pub fn add(&mut self, page: &PageScores) {
        self.text += page.text;
        self.anchor_text += page.anchor_text;
        self.links += page.links;
        self.main_text += page.main_text;
        self.terms += page.terms;
        self.macro_text.add_page(page.text);
        self.macro_anchor_text.add_page(page.anchor_text);
        self.macro_links.add_page(page.links);
        self.macro_main_text.add_page(page.main_text);
        self.ari.add(page.ari);
        self.ari_level2.add(page.ari_level2);
    }

    /// The totals of `pages`.
    pub fn of<'p>(pages: impl IntoIterator<Item = &'p PageScores>) -> VariantTotals {
        let mut totals = VariantTotals::default();
        pages.into_iter().for_each(|page| totals.add(page));
        totals
    }

    /// The micro and macro scores and mean ARIs of these totals.
    pub fn report(&self) -> VariantReport {
        VariantReport {
            text: self.text.scores().into(),
            anchor_text: self.anchor_text.scores().into(),
            links: self.links.scores().into(),
            ari: self.ari.value(),
            ari_level2: self.ari_level2.value(),
            ari_pages: self.ari.count(),
            main_text: self.main_text.scores().into(),
            terms: self.terms.scores().into(),
            macro_average: MacroReport {
                text: self.macro_text.scores().into(),
                anchor_text: self.macro_anchor_text.scores().into(),
                links: self.macro_links.scores().into(),
                main_text: self.macro_main_text.scores().into(),
            },
        }
    }
}

/// Precision, recall and F1, each `null` when undefined.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PrecisionRecall {
    /// Precision, 0–1; `null` when nothing was detected.
    pub precision: Option<f64>,
    /// Recall, 0–1; `null` when the gold has no positive word.
    pub recall: Option<f64>,
    /// F1, 0–1; `null` when there is neither a detection nor a gold positive.
    pub f1: Option<f64>,
}

impl From<Scores> for PrecisionRecall {
    fn from(scores: Scores) -> Self {
        PrecisionRecall {
            precision: scores.precision,
            recall: scores.recall,
            f1: scores.f1,
        }
    }
}

/// Macro averages (mean of per-page scores).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MacroReport {
    /// Template detection over words of text.
    pub text: PrecisionRecall,
    /// Template detection over anchor-text words.
    pub anchor_text: PrecisionRecall,
    /// Template detection over links.
    pub links: PrecisionRecall,
    /// Main-text extraction (content as the positive class).
    pub main_text: PrecisionRecall,
}

/// One variant on one dataset: micro averages of the template class, mean ARI, main text.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct VariantReport {
    /// Template detection over words of text (the paper's Table 1 "text").
    pub text: PrecisionRecall,
    /// Template detection over words inside links.
    pub anchor_text: PrecisionRecall,
    /// Template detection over links.
    pub links: PrecisionRecall,
    /// Mean ARI against level-1 blocks over pages with block gold; `null` without.
    pub ari: Option<f64>,
    /// Mean ARI against level-1 and level-2 blocks; `null` without block gold.
    pub ari_level2: Option<f64>,
    /// Pages the mean ARI is over.
    pub ari_pages: u64,
    /// Main-text extraction (content as the positive class).
    pub main_text: PrecisionRecall,
    /// Vieira et al.'s term-level template scores.
    pub terms: PrecisionRecall,
    /// The same measures as means of per-page scores (`macro` in JSON).
    #[serde(rename = "macro")]
    pub macro_average: MacroReport,
}

/// A page that could not be evaluated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FailedPage {
    /// The page's name within the dataset.
    pub page: String,
    /// Why it failed: unreadable HTML, a parse, render or scoring error, or unusable gold.
    pub error: String,
}

/// One point of a sweep.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SweepPoint {
    /// `basic` or `smooth`.
    pub variant: &'static str,
    /// Penalty multiplier (`null` for Basic).
    pub multiplier: Option<f64>,
    /// Templateness threshold (0–1) of this point.
    pub threshold: f64,
    /// The variant's scores over the dataset at this point.
    #[serde(flatten)]
    pub scores: VariantReport,
}

/// Everything reported about one dataset.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DatasetReport {
    /// The dataset's `FORMAT:PATH` spec.
    pub dataset: String,
    /// The gold label mapping when the set has several (L3S-GN1: `standard` or `strict`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mapping: Option<&'static str>,
    /// Pages evaluated.
    pub pages: usize,
    /// Pages that could not be evaluated, with the reason.
    pub failed: Vec<FailedPage>,
    /// The templateness threshold (0–1) of the reported variants.
    pub threshold: f64,
    /// The penalty scale c of the reported Smooth variant.
    pub penalty_scale: f64,
    /// The δ chosen for Basic+Merge.
    pub merge_delta: f64,
    /// `basic`, `smooth`, `merge`.
    pub variants: BTreeMap<&'static str, VariantReport>,
    /// Site-level methods on multi-page sets, by method name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub sitelevel: BTreeMap<&'static str, VariantReport>,
    /// Basic over thresholds, then Smooth over multipliers × thresholds; empty without a sweep.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sweep: Vec<SweepPoint>,
    /// Mean number of Smooth sections per page.
    pub mean_sections: f64,
    /// Output texts scored against the gold main text: `pagelevel content_text`,
    /// `pagelevel main_text`, and other extractors by name.
    pub output: BTreeMap<String, TextReport>,
}

/// The δ of Basic+Merge with the best mean ARI (the paper's exhaustive search), or, on sets
/// without block gold, the best text F1; ties go to the smaller δ. Returns its index in
/// [`MERGE_DELTAS`].
pub fn best_merge_delta(pages: &[PageEvaluation]) -> usize {
    let totals: Vec<VariantTotals> = (0..MERGE_DELTAS.len())
        .map(|index| VariantTotals::of(pages.iter().filter_map(|page| page.merge.get(index))))
        .collect();
    let quality = |totals: &VariantTotals| {
        totals
            .ari
            .value()
            .or(totals.text.scores().f1)
            .unwrap_or(f64::NEG_INFINITY)
    };
    let mut best = 0;
    for (index, candidate) in totals.iter().enumerate() {
        if quality(candidate) > quality(&totals[best]) {
            best = index;
        }
    }
    best
}

/// The sweep points of a dataset: Smooth over multipliers × thresholds, Basic over thresholds.
pub fn sweep_points(pages: &[PageEvaluation], grid: &SweepGrid) -> Vec<SweepPoint> {
    let mut points = Vec::new();
    for (t, &threshold) in grid.thresholds.iter().enumerate() {
        let totals = VariantTotals::of(pages.iter().filter_map(|page| page.sweep_basic.get(t)));
        points.push(SweepPoint {
            variant: "basic",
            multiplier: None,
            threshold,
            scores: totals.report(),
        });
    }
    for (m, &multiplier) in grid.multipliers.iter().enumerate() {
        for (t, &threshold) in grid.thresholds.iter().enumerate() {
            let index = m * grid.thresholds.len() + t;
            let totals =
                VariantTotals::of(pages.iter().filter_map(|page| page.sweep_smooth.get(index)));
            points.push(SweepPoint {
                variant: "smooth",
                multiplier: Some(multiplier),
                threshold,
                scores: totals.report(),
            });
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(merge_ari: [Option<f64>; 8]) -> PageEvaluation {
        PageEvaluation {
            basic: PageScores::default(),
            smooth: PageScores::default(),
            merge: merge_ari
                .iter()
                .map(|&ari| PageScores {
                    ari,
                    ..PageScores::default()
                })
                .collect(),
            sweep_smooth: Vec::new(),
            sweep_basic: Vec::new(),
            smooth_sections: 1,
            output: Default::default(),
        }
    }

    #[test]
    fn merge_delta_is_the_one_with_the_best_mean_ari() {
        let a = page([
            Some(0.1),
            Some(0.2),
            Some(0.6),
            Some(0.3),
            None,
            None,
            None,
            None,
        ]);
        let b = page([
            Some(0.1),
            Some(0.2),
            Some(0.4),
            Some(0.5),
            None,
            None,
            None,
            None,
        ]);
        assert_eq!(best_merge_delta(&[a, b]), 2);
    }

    #[test]
    fn variant_report_serializes_the_json_contract_keys() {
        let mut totals = VariantTotals::default();
        totals.add(&PageScores {
            text: Counts {
                tp: 1,
                fp: 1,
                fn_: 0,
            },
            ari: Some(0.5),
            ..PageScores::default()
        });
        let json = serde_json::to_value(totals.report()).unwrap();
        assert_eq!(json["text"]["precision"], 0.5);
        assert_eq!(json["ari"], 0.5);
        assert!(json["anchor_text"]["f1"].is_null());
        assert!(json["links"].get("recall").is_some());
    }
}
