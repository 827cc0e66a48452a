//! `pagelevel train`: label sites with a site-level detector and fit the page-level models.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, ValueEnum};
use indicatif::ProgressBar;
use pagelevel::fetch::CrawlOptions;
use pagelevel::model::{FitOptions, SiteBalance, TemplateModel};
use pagelevel::sitelevel::Method;
use pagelevel::staged::StagedFile;
use pagelevel::train::{
    TrainOptions, TrainProgress, fit_sites, label_sites, read_rows, read_sites_file, write_report,
    write_rows,
};

use super::Outcome;
use super::browser::BrowserArgs;

/// Train the page-level template classifier from site-level labels of many sites.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// The sites list: one saved-site directory (relative to the list), WARC file or URL per line;
    /// a `[domain]` line tags the sites below it for the per-domain report.
    #[arg(long, required_unless_present = "rows", conflicts_with = "rows")]
    sites: Option<PathBuf>,
    /// Fit from training rows instead of labelling sites: CSV files or directories of them, as
    /// written by `--rows-out` or `spark/label_hosts.py`. The model's layout engine is the rows'.
    #[arg(long, num_args = 1.., value_name = "FILE_OR_DIR")]
    rows: Vec<PathBuf>,
    /// Also write the labelled nodes as training rows (CSV), to fit again later with `--rows`.
    #[arg(long, value_name = "FILE", requires = "sites")]
    rows_out: Option<PathBuf>,
    /// Where to write the model (versioned JSON).
    #[arg(long)]
    out: PathBuf,
    /// Directory for the report: sites.csv, buckets.csv, summary.md.
    #[arg(long)]
    report: Option<PathBuf>,
    /// Pages sampled per site (seeded random sample).
    #[arg(long, default_value_t = 200)]
    max_pages: usize,
    /// Sites with fewer usable pages are skipped with a warning.
    #[arg(long, default_value_t = 10)]
    min_pages: usize,
    /// SiteLevel θ: share of a site's pages a subtree must occur on to be template.
    #[arg(long, default_value_t = 0.10)]
    theta: f64,
    /// The site-level detector that labels the training nodes.
    #[arg(long, default_value = "frequency")]
    labeler: Method,
    /// Every n-th site is held out for validation.
    #[arg(long, default_value_t = 5)]
    holdout_every: usize,
    /// Seed for page sampling and class balancing.
    #[arg(long, default_value_t = 7)]
    seed: u64,
    /// L2 regularization of the logistic models.
    #[arg(long, default_value_t = 1.0)]
    alpha: f64,
    /// How sites weigh in the fit: none (every node counts alike; the default, measured better on
    /// every labelled set) or equal (in each area bucket no site gives more nodes than the
    /// median site).
    #[arg(long, value_enum, default_value = "none")]
    site_balance: SiteBalanceArg,
    /// Seconds between two requests when crawling an http(s) site (robots.txt's Crawl-delay
    /// wins when longer).
    #[arg(long, default_value_t = 1.0)]
    crawl_delay: f64,
    /// Most requests made when crawling an http(s) site.
    #[arg(long, default_value_t = 1000)]
    max_fetches: usize,
    #[command(flatten)]
    browser: BrowserArgs,
    /// No progress bars.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum SiteBalanceArg {
    Equal,
    None,
}

impl From<SiteBalanceArg> for SiteBalance {
    fn from(balance: SiteBalanceArg) -> SiteBalance {
        match balance {
            SiteBalanceArg::Equal => SiteBalance::Equal,
            SiteBalanceArg::None => SiteBalance::None,
        }
    }
}

struct Bars {
    bar: ProgressBar,
}

impl TrainProgress for Bars {
    fn site_started(&mut self, site: &str, pages: usize) {
        self.bar.set_length(pages as u64);
        self.bar.set_position(0);
        self.bar.set_message(site.to_string());
    }

    fn page_done(&mut self) {
        self.bar.inc(1);
    }

    fn message(&mut self, text: &str) {
        self.bar.suspend(|| eprintln!("pagelevel: warning: {text}"));
    }
}

pub fn run(args: TrainArgs) -> anyhow::Result<Outcome> {
    // Training takes hours; an --out that cannot be written must stop it before, not after.
    TemplateModel::check_writable(&args.out)?;
    if let Some(rows_out) = &args.rows_out {
        StagedFile::check_writable(rows_out)
            .with_context(|| format!("cannot write {}", rows_out.display()))?;
    }
    let options = train_options(&args);
    let (labelled, engine) = match &args.sites {
        Some(sites) => {
            let sites = read_sites_file(sites)?;
            let mut layout = args.browser.layout_source(args.browser.render_options())?;
            let bar = super::page_progress(
                0,
                "{msg:32} {bar:30} {pos}/{len} pages ({per_sec})",
                args.quiet,
            );
            let mut progress = Bars { bar };
            let labelled = label_sites(layout.as_mut(), &sites, &options, &mut progress);
            progress.bar.finish_and_clear();
            let engine = args.browser.layout.engine();
            if let Some(rows_out) = &args.rows_out {
                write_rows(rows_out, &labelled.sites, engine)?;
            }
            (labelled, engine)
        }
        None => {
            let rows = read_rows(&args.rows)?;
            (rows.sites, rows.layout)
        }
    };
    let mut outcome = fit_sites(labelled, &options)?;
    outcome.model.layout_engine = engine;
    outcome.model.save(&args.out)?;
    if let Some(directory) = &args.report {
        write_report(&outcome, directory).with_context(|| "writing the training report")?;
    }
    if !args.quiet {
        eprintln!(
            "trained on {} sites ({} pages, {} nodes; {} skipped); model written to {}",
            outcome.sites.len(),
            outcome.model.training.pages,
            outcome.model.training.nodes,
            outcome.skipped.len(),
            args.out.display()
        );
    }
    Ok(Outcome::Success)
}

fn train_options(args: &TrainArgs) -> TrainOptions {
    TrainOptions {
        max_pages: args.max_pages,
        min_pages: args.min_pages,
        theta: args.theta,
        labeler: args.labeler,
        holdout_every: args.holdout_every,
        seed: args.seed,
        fit: FitOptions {
            alpha: args.alpha,
            site_balance: args.site_balance.into(),
            seed: args.seed,
            ..FitOptions::default()
        },
        crawl: CrawlOptions {
            delay: std::time::Duration::from_secs_f64(args.crawl_delay.max(0.0)),
            max_fetches: args.max_fetches,
            ..CrawlOptions::default()
        },
        limits: args.browser.limits(),
    }
}
