//! `pagelevel train-main-text`: fits the learned main-text model on the development pages of
//! human-labelled sets, laid out and scored as `score` would.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use pagelevel::eval::DatasetSpec;
use pagelevel::train::main_text::{
    MainTextFit, MainTextPage, fit_main_text, label_main_text, write_main_text_rows,
};

use super::Outcome;
use super::browser::{BrowserArgs, ModelArgs};
use super::labelled_fit::{LabelledFit, write_model};
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
    /// Below this share of the page's likely words in the chosen container (a thread, a
    /// listing), every paragraph at or above --spread-cut is main content (0: never).
    #[arg(long, default_value_t = MainTextFit::default().spread_share)]
    spread_share: f64,
    /// The probability a paragraph needs on a page whose likely text is spread.
    #[arg(long, default_value_t = MainTextFit::default().spread_cut)]
    spread_cut: f64,
    /// Also write the labelled paragraphs (page, type, words, words in the gold, label,
    /// features) as CSV, to fit and compare other models on them.
    #[arg(long, value_name = "FILE")]
    rows_out: Option<PathBuf>,
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
    for (flag, value) in [
        ("--cut", args.cut),
        ("--spread-share", args.spread_share),
        ("--spread-cut", args.spread_cut),
    ] {
        if !(0.0..=1.0).contains(&value) {
            anyhow::bail!("{flag} must be between 0 and 1, got {value}");
        }
    }
    if !(args.alpha.is_finite() && args.alpha >= 0.0) {
        anyhow::bail!("--alpha must be a finite number ≥ 0, got {}", args.alpha);
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
    let examples = label_main_text(
        &datasets,
        layout.as_mut(),
        &model,
        &params,
        &args.browser.limits(),
        &mut |page, outcome| {
            let failure = match outcome {
                MainTextPage::Failed(reason) => Some(reason),
                _ => None,
            };
            progress.page_done(page, failure.as_deref());
        },
    );
    progress.finish();
    let failed = progress.failed;
    if let Some(path) = &args.rows_out {
        let file = std::fs::File::create(path)
            .map_err(|error| anyhow::anyhow!("cannot write {}: {error}", path.display()))?;
        write_main_text_rows(&examples, std::io::BufWriter::new(file))
            .map_err(|error| anyhow::anyhow!("cannot write {}: {error}", path.display()))?;
    }
    let fit = MainTextFit {
        alpha: args.alpha,
        cut: args.cut,
        spread_share: args.spread_share,
        spread_cut: args.spread_cut,
        ..MainTextFit::default()
    };
    let fitted = fit_main_text(&examples, &fit, args.browser.layout.engine().name())?;
    write_model(&args.out, &fitted)?;
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
