//! `pagelevel eval`: PageLevel (Basic, Smooth, Basic+Merge) on human-labelled sets, scored as
//! Section 6.1 of the paper does (template F1 over text, anchor text and links; ARI of the
//! segmentation), with main-text F1, site-level baselines on multi-page sets, and the penalty
//! sweep of Figures 2 and 3.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use pagelevel::eval::datasets::SplitChoice;
use pagelevel::eval::report::markdown_summary;
use pagelevel::eval::{
    DatasetReport, DatasetSpec, EvalEvent, EvalOptions, SweepGrid, evaluate, load_dataset,
    write_report,
};

use super::Outcome;
use super::browser::{BrowserArgs, ModelArgs};
use super::scoring::ScoringArgs;

/// Evaluate PageLevel on labelled datasets.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// A labelled set as FORMAT:PATH (repeatable); FORMAT is one of l3s-gn1, cleaneval,
    /// cleanportaleval, dragnet, big9, kreuzer, readability, wcxb, native.
    #[arg(long = "dataset", required = true, value_name = "FORMAT:PATH")]
    datasets: Vec<DatasetSpec>,
    #[command(flatten)]
    model: ModelArgs,
    /// Write per-page CSV, summary markdown/JSON, sweep CSV and plots into this directory.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Print one JSON object per dataset instead of the markdown summary.
    #[arg(long)]
    json: bool,
    /// Which pages of the frozen split: dev (where choices are made), test (reported once per
    /// change, never tuned on) or all.
    #[arg(long, default_value = "dev")]
    split: SplitChoice,
    /// Score another extractor's output texts as NAME=DIR, read from
    /// DIR/<dataset folder>/<page's HTML path within it>.txt (repeatable).
    #[arg(long = "external", value_name = "NAME=DIR", value_parser = parse_external)]
    externals: Vec<(String, PathBuf)>,
    /// Evaluate only the first N pages of each dataset.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    #[command(flatten)]
    scoring: ScoringArgs,
    /// Sweep the penalty (Figures 2 and 3) and the threshold.
    #[arg(long)]
    sweep_penalty: bool,
    /// Penalty multipliers of the sweep.
    #[arg(long, value_delimiter = ',', default_values_t = SweepGrid::default().multipliers)]
    multipliers: Vec<f64>,
    /// Thresholds of the sweep.
    #[arg(long, value_delimiter = ',', default_values_t = SweepGrid::default().thresholds)]
    thresholds: Vec<f64>,
    /// Skip the site-level methods on multi-page sets.
    #[arg(long)]
    no_sitelevel: bool,
    #[command(flatten)]
    browser: BrowserArgs,
    /// No progress bar or timing line.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: EvalArgs) -> anyhow::Result<Outcome> {
    let model = args.model.load(args.browser.layout.engine())?;
    let options = EvalOptions {
        params: args.scoring.params()?,
        sweep: args.sweep_penalty.then(|| SweepGrid {
            multipliers: args.multipliers.clone(),
            thresholds: args.thresholds.clone(),
        }),
        externals: args.externals.clone(),
        sitelevel: !args.no_sitelevel,
    };
    let mut datasets = Vec::new();
    for spec in &args.datasets {
        let mut dataset = load_dataset(spec)?;
        dataset.pages.retain(|page| args.split.keeps(page.split));
        dataset.pages.truncate(args.limit.unwrap_or(usize::MAX));
        datasets.push((spec.clone(), dataset));
    }
    let mut layout = args.browser.layout_source(args.browser.render_options())?;
    let total: usize = datasets.iter().map(|(_, d)| d.pages.len()).sum();
    let bar = super::page_progress(
        total as u64,
        "{bar:40} {pos}/{len} pages ({per_sec}, eta {eta}) {msg}",
        args.quiet,
    );
    let started = Instant::now();
    let evaluation = evaluate(
        &datasets,
        &model,
        &options,
        layout.as_mut(),
        &args.browser.limits(),
        &mut |event| match event {
            EvalEvent::Dataset(spec) => bar.set_message(spec.format.name()),
            EvalEvent::PageDone => bar.inc(1),
            EvalEvent::Warning(message) => bar.suspend(|| eprintln!("pagelevel: {message}")),
        },
    )?;
    bar.finish_and_clear();
    let reports = &evaluation.reports;
    let failed: usize = reports.iter().map(|r| r.failed.len()).sum();
    let mut stdout = std::io::stdout().lock();
    if args.json {
        for report in reports {
            let compact = DatasetReport {
                sweep: Vec::new(),
                ..report.clone()
            };
            serde_json::to_writer(&mut stdout, &compact)?;
            stdout.write_all(b"\n")?;
        }
    } else {
        stdout.write_all(markdown_summary(reports).as_bytes())?;
    }
    stdout.flush()?;
    if let Some(directory) = &args.report {
        write_report(directory, &evaluation)?;
    }
    if !args.quiet {
        eprintln!(
            "evaluated {total} pages in {:.1} s; {failed} failed",
            started.elapsed().as_secs_f64()
        );
    }
    Ok(if failed > 0 {
        Outcome::SomeFailed
    } else {
        Outcome::Success
    })
}

/// `NAME=DIR` of `--external`.
fn parse_external(value: &str) -> Result<(String, PathBuf), String> {
    match value.split_once('=') {
        Some((name, directory)) if !name.is_empty() && !directory.is_empty() => {
            Ok((name.to_string(), PathBuf::from(directory)))
        }
        _ => Err(format!("`{value}` is not NAME=DIR")),
    }
}
