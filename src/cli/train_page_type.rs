//! `pagelevel train-page-type`: fits the page-type model on the development pages of labelled
//! sets whose pages carry a type (WCXB), laid out and scored as `score` would.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use pagelevel::eval::DatasetSpec;
use pagelevel::train::page_type::{fit_page_types, label_page_types};

use super::Outcome;
use super::browser::{BrowserArgs, ModelArgs};
use super::labelled_fit::{LabelledFit, write_model};
use super::scoring::ScoringArgs;

/// Fit the page-type model on the development pages of labelled sets with page types.
#[derive(Debug, Args)]
pub struct TrainPageTypeArgs {
    /// A labelled set as FORMAT:PATH whose page names start with their type (`wcxb:PATH`;
    /// repeatable). Only its development pages are read.
    #[arg(long = "dataset", required = true, value_name = "FORMAT:PATH")]
    datasets: Vec<DatasetSpec>,
    /// Where to write the model (JSON).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// L2 regularisation of the multinomial logistic regression; several (comma-separated)
    /// are tried and the one most accurate on held-out domains is kept.
    #[arg(long, value_delimiter = ',', default_value = "1,3,10,30")]
    alpha: Vec<f64>,
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

pub fn run(args: TrainPageTypeArgs) -> anyhow::Result<Outcome> {
    if let Some(bad) = args
        .alpha
        .iter()
        .find(|alpha| !(alpha.is_finite() && **alpha >= 0.0))
    {
        anyhow::bail!("--alpha must be finite numbers ≥ 0, got {bad}");
    }
    let LabelledFit {
        datasets,
        mut layout,
        model,
        params,
        mut progress,
    } = LabelledFit::prepare(
        &args.datasets,
        &args.out,
        &args.model,
        &args.scoring,
        &args.browser,
        args.quiet,
    )?;
    let started = Instant::now();
    let examples = label_page_types(
        &datasets,
        layout.as_mut(),
        &model,
        &params,
        &args.browser.limits(),
        &mut |page, outcome| progress.page_done(page, outcome.err().as_deref()),
    );
    progress.finish();
    let failed = progress.failed;
    let quiet = args.quiet;
    let fitted = fit_page_types(&examples, &args.alpha, &mut |alpha, accuracy| {
        if !quiet {
            eprintln!("alpha {alpha}: accuracy on held-out domains {accuracy:.3}");
        }
    })?;
    write_model(&args.out, &fitted)?;
    if !args.quiet {
        eprintln!(
            "fitted on {} pages in {:.1} s ({failed} failed); accuracy on held-out domains {:.3}",
            examples.len(),
            started.elapsed().as_secs_f64(),
            fitted.cross_validated_accuracy
        );
    }
    Ok(if failed > 0 {
        Outcome::SomeFailed
    } else {
        Outcome::Success
    })
}
