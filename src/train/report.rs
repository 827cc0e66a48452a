//! The training report: `sites.csv` (one row per site, with its domain and, if held out, its
//! metrics), `buckets.csv` (held-out metrics per area bucket) and `summary.md`, a short
//! human-readable account of the run with the held-out metrics per bucket and per domain.

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

/// The markdown summary: data, held-out metrics per bucket and per domain, sites, skipped sites.
pub fn summary_markdown(outcome: &TrainingOutcome) -> String {
    let model = &outcome.model;
    let training = &model.training;
    let mut text = String::new();
    let _ = writeln!(text, "# Training summary\n");
    let _ = writeln!(
        text,
        "Labeler `{}` (θ = {}), {} sites, {} pages, {} classified nodes, {:.1}% template; site balance `{}`; fitting took {:.1} s.\n",
        training.labeler,
        training.theta,
        outcome.sites.len(),
        training.pages,
        training.nodes,
        100.0 * training.template_share,
        training.site_balance.name(),
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
        "\n## Per domain\n\nThe same held-out metrics per `[domain]` of the sites list: held-out nodes pooled, and the mean of the held-out sites' own AUCs.\n\n| domain | sites | pages | classified nodes | held-out sites | held-out nodes | template share | accuracy | precision | recall | AUC | mean site AUC |\n|---|---|---|---|---|---|---|---|---|---|---|---|"
    );
    for domain in &outcome.domains {
        let held_out = match &domain.held_out {
            Some(m) => format!(
                "{} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3}",
                m.nodes, m.template_share, m.accuracy, m.precision, m.recall, m.auc
            ),
            None => "– | – | – | – | – | –".into(),
        };
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {} | {held_out} | {} |",
            domain.domain,
            domain.sites,
            domain.pages,
            domain.classified_nodes,
            domain.held_out_sites,
            domain
                .mean_site_auc
                .map_or("–".into(), |auc| format!("{auc:.3}"))
        );
    }
    let _ = writeln!(
        text,
        "\n## Sites\n\n| site | domain | pages | classified nodes | template share | render s | held out: AUC |\n|---|---|---|---|---|---|---|"
    );
    for site in &outcome.sites {
        let _ = writeln!(
            text,
            "| {} | {} | {} | {} | {:.3} | {:.1} | {} |",
            site.site,
            site.domain.as_deref().unwrap_or(""),
            site.pages,
            site.classified_nodes,
            site.template_share,
            site.render_seconds,
            site.held_out_auc
                .map_or(String::new(), |auc| format!("{auc:.3}"))
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
