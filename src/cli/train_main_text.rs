//! `pagelevel train-main-text`: fits the learned main-text model on the development pages of
//! human-labelled sets, laid out and scored as `score` would.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use pagelevel::eval::{DatasetSpec, load_dataset};
use pagelevel::staged::StagedFile;
use pagelevel::train::main_text::{MainTextFit, MainTextPage, fit_main_text, label_main_text};

use super::Outcome;
use super::browser::{BrowserArgs, ModelArgs};
use super::scoring::ScoringArgs;

/// Fit the main-text model on the development pages of labelled sets.
#[derive(Debug, Args)]
pub struct TrainMainTextArgs {
    /// A labelled set as FORMAT:PATH (repeatable; see `eval`). Only its development pages are
    /// read: the frozen test pages are never trained on.
    #[arg(long = "dataset", required = true, value_name = "FORMAT:PATH")]
    datasets: Vec<DatasetSpec>,
    /// Where to write the model (JSON; `--main-text-model FILE` of `score` and `eval` reads it).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// L2 regularisation of the logistic regression.
    #[arg(long, default_value_t = MainTextFit::default().alpha)]
    alpha: f64,
    /// The probability at which a paragraph is main text.
    #[arg(long, default_value_t = MainTextFit::default().cut)]
    cut: f64,
    #[command(flatten)]
    model: ModelArgs,
    #[command(flatten)]
    scoring: ScoringArgs,
    #[command(flatten)]
    browser: BrowserArgs,
    /// No progress bar or summary line.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: TrainMainTextArgs) -> anyhow::Result<Outcome> {
    if !(0.0..=1.0).contains(&args.cut) {
        anyhow::bail!("--cut must be between 0 and 1, got {}", args.cut);
    }
    if !(args.alpha.is_finite() && args.alpha >= 0.0) {
        anyhow::bail!("--alpha must be a finite number ≥ 0, got {}", args.alpha);
    }
    StagedFile::check_writable(&args.out)
        .with_context(|| format!("cannot write the model to {}", args.out.display()))?;
    let engine = args.browser.layout.engine();
    let model = args.model.load(engine)?;
    let params = args.scoring.params()?;
    let datasets = args
        .datasets
        .iter()
        .map(load_dataset)
        .collect::<Result<Vec<_>, _>>()?;
    let mut layout = args.browser.layout_source(args.browser.render_options())?;
    let bar = super::page_progress(
        datasets
            .iter()
            .map(|dataset| dataset.pages.len() as u64)
            .sum(),
        "{bar:40} {pos}/{len} pages ({per_sec}, eta {eta})",
        args.quiet,
    );
    let started = Instant::now();
    let mut failed = 0;
    let examples = label_main_text(
        &datasets,
        layout.as_mut(),
        &model,
        &params,
        &args.browser.limits(),
        &mut |page, outcome| {
            bar.inc(1);
            if let MainTextPage::Failed(reason) = outcome {
                failed += 1;
                bar.suspend(|| eprintln!("pagelevel: page {page} failed: {reason}"));
            }
        },
    );
    bar.finish_and_clear();
    let fit = MainTextFit {
        alpha: args.alpha,
        cut: args.cut,
        ..MainTextFit::default()
    };
    let fitted = fit_main_text(&examples, &fit, engine.name())?;
    let mut staged = StagedFile::create(&args.out)
        .with_context(|| format!("cannot write the model to {}", args.out.display()))?;
    let mut json = serde_json::to_string_pretty(&fitted)?;
    json.push('\n');
    staged.write_all(json.as_bytes())?;
    staged
        .commit()
        .with_context(|| format!("cannot write the model to {}", args.out.display()))?;
    if !args.quiet {
        eprintln!(
            "fitted on {} paragraphs ({} main text) of {} pages in {:.1} s; {failed} pages failed",
            fitted.training.paragraphs,
            fitted.training.main_paragraphs,
            fitted
                .training
                .sets
                .iter()
                .map(|(_, pages)| pages)
                .sum::<usize>(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(if failed > 0 {
        Outcome::SomeFailed
    } else {
        Outcome::Success
    })
}
