//! The evaluation's files: a per-page CSV, a markdown summary in the layout of the paper's
//! Table 1 (rows Text / AT / Links per dataset, one column per variant) with ARI (Figure 1) and
//! main-text rows, and the sweep as CSV. Plots are in [`super::plot`].

use std::fmt::Write as _;
use std::io::Write;

use super::metrics::Counts;
use super::output_scores::MIN_GOLD_WORDS;
use super::scoring::PageScores;
use super::summary::{DatasetReport, PrecisionRecall, SweepPoint, VariantReport};

/// Column names of the per-page CSV.
pub const PAGE_CSV_HEADER: [&str; 22] = [
    "dataset",
    "page",
    "variant",
    "text_precision",
    "text_recall",
    "text_f1",
    "anchor_text_precision",
    "anchor_text_recall",
    "anchor_text_f1",
    "links_precision",
    "links_recall",
    "links_f1",
    "main_text_precision",
    "main_text_recall",
    "main_text_f1",
    "terms_f1",
    "ari",
    "ari_level2",
    "scored_words",
    // The main text's word counts, so that a set's micro F1 can be traced to its pages.
    "main_text_tp",
    "main_text_fp",
    "main_text_fn",
];

fn cell(value: Option<f64>) -> String {
    value.map(|v| format!("{v:.4}")).unwrap_or_default()
}

fn score_cells(counts: Counts) -> [String; 3] {
    let scores = counts.scores();
    [cell(scores.precision), cell(scores.recall), cell(scores.f1)]
}

/// One row of the per-page CSV.
pub fn write_page_row<W: Write>(
    writer: &mut csv::Writer<W>,
    dataset: &str,
    page: &str,
    variant: &str,
    scores: &PageScores,
) -> csv::Result<()> {
    let mut row = vec![dataset.to_string(), page.to_string(), variant.to_string()];
    for counts in [
        scores.text,
        scores.anchor_text,
        scores.links,
        scores.main_text,
    ] {
        row.extend(score_cells(counts));
    }
    row.push(cell(scores.terms.scores().f1));
    row.push(cell(scores.ari));
    row.push(cell(scores.ari_level2));
    let words = scores.text.tp + scores.text.fp + scores.text.fn_;
    row.push(words.to_string());
    let main = scores.main_text;
    row.extend([main.tp, main.fp, main.fn_].map(|count| count.to_string()));
    writer.write_record(&row)
}

/// Column names of the sweep CSV.
pub const SWEEP_CSV_HEADER: [&str; 10] = [
    "dataset",
    "variant",
    "penalty_multiplier",
    "threshold",
    "text_f1",
    "anchor_text_f1",
    "links_f1",
    "main_text_f1",
    "ari",
    "ari_level2",
];

/// The sweep rows of one dataset.
pub fn write_sweep_rows<W: Write>(
    writer: &mut csv::Writer<W>,
    dataset: &str,
    points: &[SweepPoint],
) -> csv::Result<()> {
    for point in points {
        let scores = &point.scores;
        writer.write_record([
            dataset.to_string(),
            point.variant.to_string(),
            point.multiplier.map(|m| m.to_string()).unwrap_or_default(),
            point.threshold.to_string(),
            cell(scores.text.f1),
            cell(scores.anchor_text.f1),
            cell(scores.links.f1),
            cell(scores.main_text.f1),
            cell(scores.ari),
            cell(scores.ari_level2),
        ])?;
    }
    Ok(())
}

fn short(value: Option<f64>) -> String {
    value.map_or_else(|| "–".to_string(), |v| format!("{v:.2}"))
}

fn prf(scores: &PrecisionRecall) -> String {
    format!(
        "{} / {} / **{}**",
        short(scores.precision),
        short(scores.recall),
        short(scores.f1)
    )
}

/// The dataset's display name: its spec, plus the label mapping when it has several.
pub fn dataset_label(report: &DatasetReport) -> String {
    match report.mapping {
        Some(mapping) => format!("{} ({mapping})", report.dataset),
        None => report.dataset.clone(),
    }
}

/// The markdown summary: Table 1 layout (F1 of the template class), then P / R / F1 in full,
/// then the site-level methods where evaluated.
pub fn markdown_summary(reports: &[DatasetReport]) -> String {
    const VARIANTS: [(&str, &str); 3] = [
        ("basic", "PageLevel Basic"),
        ("merge", "Basic+Merge"),
        ("smooth", "PageLevel Smooth"),
    ];
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## Template detection (F1 of the template class, micro-averaged) and segmentation\n"
    );
    let _ = writeln!(
        out,
        "| Dataset | pages | | {} |",
        VARIANTS.map(|(_, title)| title).join(" | ")
    );
    let _ = writeln!(out, "|---|---:|---|---:|---:|---:|");
    type Measure = fn(&VariantReport) -> Option<f64>;
    let rows: [(&str, Measure); 6] = [
        ("Text", |v| v.text.f1),
        ("AT", |v| v.anchor_text.f1),
        ("Links", |v| v.links.f1),
        ("ARI (level 1)", |v| v.ari),
        ("ARI (levels 1+2)", |v| v.ari_level2),
        ("Main text F1", |v| v.main_text.f1),
    ];
    for report in reports {
        for (index, (name, measure)) in rows.iter().enumerate() {
            let (label, pages) = if index == 0 {
                (dataset_label(report), report.pages.to_string())
            } else {
                (String::new(), String::new())
            };
            let values: Vec<String> = VARIANTS
                .iter()
                .map(|(key, _)| short(report.variants.get(key).and_then(measure)))
                .collect();
            let _ = writeln!(
                out,
                "| {label} | {pages} | {name} | {} |",
                values.join(" | ")
            );
        }
    }
    let _ = writeln!(
        out,
        "\n## Precision / recall / F1 (template class; main text: content class)\n"
    );
    let _ = writeln!(
        out,
        "| Dataset | variant | Text | AT | Links | Main text | ARI | failed |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---:|---:|");
    for report in reports {
        for (key, title) in VARIANTS {
            if let Some(v) = report.variants.get(key) {
                let title = if key == "merge" {
                    format!("{title} (δ = {})", report.merge_delta)
                } else {
                    title.to_string()
                };
                let _ = writeln!(
                    out,
                    "| {} | {title} | {} | {} | {} | {} | {} | {} |",
                    dataset_label(report),
                    prf(&v.text),
                    prf(&v.anchor_text),
                    prf(&v.links),
                    prf(&v.main_text),
                    short(v.ari),
                    report.failed.len()
                );
            }
        }
    }
    let _ = writeln!(
        out,
        "\n## Output texts against the gold main text (word F1; empty: pages with ≥ {MIN_GOLD_WORDS} gold words and no output)\n"
    );
    let _ = writeln!(
        out,
        "| Dataset | output | P / R / F1 (micro) | P / R / F1 (macro) | empty |"
    );
    let _ = writeln!(out, "|---|---|---|---|---:|");
    for report in reports {
        for (name, text) in &report.output {
            let _ = writeln!(
                out,
                "| {} | {name} | {} | {} | {} / {} |",
                dataset_label(report),
                prf(&text.micro),
                prf(&text.macro_average),
                text.empty_failures,
                text.pages
            );
        }
    }
    if reports.iter().any(|report| !report.sitelevel.is_empty()) {
        let _ = writeln!(
            out,
            "\n## Site-level methods vs PageLevel (pages grouped by site)\n"
        );
        let _ = writeln!(
            out,
            "| Dataset | method | Text P / R / F1 | Terms P / R / F1 (Vieira et al.) | Main text F1 |"
        );
        let _ = writeln!(out, "|---|---|---|---|---:|");
        for report in reports.iter().filter(|report| !report.sitelevel.is_empty()) {
            let pagelevel = VARIANTS
                .iter()
                .filter(|(key, _)| *key != "merge")
                .filter_map(|(key, title)| report.variants.get(key).map(|v| (*title, v)));
            let sitelevel = report.sitelevel.iter().map(|(name, v)| (*name, v));
            for (method, v) in sitelevel.chain(pagelevel) {
                let _ = writeln!(
                    out,
                    "| {} | {method} | {} | {} | {} |",
                    dataset_label(report),
                    prf(&v.text),
                    prf(&v.terms),
                    short(v.main_text.f1)
                );
            }
        }
    }
    out
}
