//! Command-line interface: one file per subcommand, each a thin client of the library.

mod browser;
mod eval;
mod labelled_fit;
mod model_card;
mod render;
mod sample;
mod schema;
mod score;
mod scoring;
pub mod signals;
mod sitelevel;
mod smooth;
mod train;
mod train_main_text;
mod train_page_type;

use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};

/// Finds the template (navigation, headers, footers, sidebars, ads, link lists) of a single web
/// page and separates it from the page's content.
#[derive(Debug, Parser)]
#[command(name = "pagelevel", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Lay out a page (native by default, or in headless Chromium) and write its DOM with a
    /// layout box per element.
    Render(render::RenderArgs),
    /// Score pages: every node's templateness, the page's sections, its content text.
    Score(score::ScoreArgs),
    /// Exact regularized tree isotonic smoothing of per-node scores (JSON in, JSON out).
    Smooth(smooth::SmoothArgs),
    /// Label sites with a site-level detector and fit the page-level template classifier.
    Train(train::TrainArgs),
    /// Fit the learned main-text model on the development pages of labelled sets.
    TrainMainText(train_main_text::TrainMainTextArgs),
    /// Fit the page-type model on the development pages of labelled sets with page types.
    TrainPageType(train_page_type::TrainPageTypeArgs),
    /// Find the template shared by the pages of a saved site with a site-level method.
    Sitelevel(sitelevel::SitelevelArgs),
    /// From a key page, find the pages sharing its template: a complete subdigraph of links.
    Sample(sample::SampleArgs),
    /// Evaluate PageLevel on human-labelled sets: template F1 (text, anchor text, links), ARI
    /// of the segmentation, main-text F1, site-level baselines, the penalty sweep.
    Eval(eval::EvalArgs),
    /// Print the numbers of a model's card, generated from the model file.
    ModelCard(model_card::ModelCardArgs),
    /// Print the JSON Schema of `score`'s JSON or JSONL output.
    Schema(schema::SchemaArgs),
}

/// How a command ended when it did not end in an error.
pub enum Outcome {
    /// Everything asked for was done.
    Success,
    /// The command ran, but some inputs failed or a quality check did not pass (exit code 1).
    SomeFailed,
}

/// Runs the chosen subcommand.
pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    match cli.command {
        Command::Render(args) => render::run(args),
        Command::Score(args) => score::run(args),
        Command::Smooth(args) => smooth::run(args),
        Command::Train(args) => train::run(args),
        Command::TrainMainText(args) => train_main_text::run(args),
        Command::TrainPageType(args) => train_page_type::run(args),
        Command::Sitelevel(args) => sitelevel::run(args),
        Command::Sample(args) => sample::run(args),
        Command::Eval(args) => eval::run(args),
        Command::ModelCard(args) => model_card::run(args),
        Command::Schema(args) => schema::run(args),
    }
}

/// A progress bar of `pages` pages drawn with `template` (indicatif's syntax), or a hidden one.
pub fn page_progress(pages: u64, template: &str, hidden: bool) -> ProgressBar {
    if hidden {
        return ProgressBar::hidden();
    }
    let style =
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
    ProgressBar::new(pages).with_style(style)
}
