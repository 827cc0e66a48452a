//! The training report: `sites.csv` (one row per site), `buckets.csv` (held-out metrics per area
//! bucket) and `summary.md`, a short human-readable account of the run.

use std::fmt::Write as _;
use std::path::Path;

use super::{TrainError, TrainingOutcome};

/// Writes the report files into `directory` (created if missing).
pub fn write_report(outcome: &TrainingOutcome, directory: &Path) -> Result<(), TrainError> {
    let failed = |source: std::io::Error| TrainError::Report {
        path: directory.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(directory).map_err(failed)?;
    let csv_error = |error: csv::Error| failed(std::io::Error::other(error.to_string()));

    let mut sites = csv::Writer::from_path(directory.join("sites.csv")).map_err(csv_error)?;
    for site in &outcome.sites {
        sites.serialize(site).map_err(csv_error)?;
    }
    sites.flush().map_err(failed)?;

    let mut buckets = csv::Writer::from_path(directory.join("buckets.csv")).map_err(csv_error)?;
    for bucket in &outcome.validation {
        buckets.serialize(bucket).map_err(csv_error)?;
    }
    buckets.flush().map_err(failed)?;

    std::fs::write(directory.join("summary.md"), summary_markdown(outcome)).map_err(failed)
}

/// The markdown summary: data, held-out metrics per bucket, skipped sites.
pub fn summary_markdown(outcome: &TrainingOutcome) -> String {
    let model = &outcome.model;
    let training = &model.training;
    let mut text = String::new();
    let _ = writeln!(text, "# Training summary\n");
    let _ = writeln!(
        text,
        "Labeler `{}` (θ = {}), {} sites, {} pages, {} classified nodes, {:.1}% template; fitting took {:.1} s.\n",
        training.labeler,
        training.theta,
        outcome.sites.len(),
        training.pages,
        training.nodes,
        100.0 * training.template_share,
        outcome.fit_seconds
    );
    let held_out: Vec<&str> = outcome
        .sites
        .iter()
        .filter(|site| site.held_out)
        .map(|site| site.site.as_str())
        .collect();
    let _ = writeln!(
        text,
        "## Held-out sites ({})\n\n{}\n",
        held_out.len(),
        held_out.join(", ")
    );
    let _ = writeln!(
        text,
        "Metrics of the model fitted without them, at threshold 0.5:\n\n| area bucket (px²) | nodes | template share | accuracy | precision | recall | AUC |\n|---|---|---|---|---|---|---|"
    );
    for bucket in &outcome.validation {
        let range = match bucket.max_area {
            Some(max) => format!("{:.0} – {:.0}", bucket.min_area, max),
            None => format!("≥ {:.0}", bucket.min_area),
        };
        let _ = writeln!(
            text,
            "| {range} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            bucket.nodes,
            bucket.template_share,
            bucket.accuracy,
            bucket.precision,
            bucket.recall,
            bucket.auc
        );
    }
    let _ = writeln!(
        text,
        "\n## Sites\n\n| site | pages | classified nodes | template share | render s | held out |\n|---|---|---|---|---|---|"
    );
    for site in &outcome.sites {
        let _ = writeln!(
            text,
            "| {} | {} | {} | {:.3} | {:.1} | {} |",
            site.site,
            site.pages,
            site.classified_nodes,
            site.template_share,
            site.render_seconds,
            if site.held_out { "yes" } else { "" }
        );
    }
    if !outcome.skipped.is_empty() {
        let _ = writeln!(text, "\n## Skipped\n");
        for (site, reason) in &outcome.skipped {
            let _ = writeln!(text, "- {site}: {reason}");
        }
    }
    text
}
