//! What the commands that fit a model on labelled sets share (`train-main-text`,
//! `train-page-type`): the sets loaded, a layout source, the template model and scoring
//! parameters to score pages with, a progress bar over the pages, and the model written whole
//! or not at all.

use std::io::Write;
use std::path::Path;

use anyhow::Context;
use indicatif::ProgressBar;
use pagelevel::eval::{Dataset, DatasetSpec, load_dataset};
use pagelevel::layout::LayoutSource;
use pagelevel::model::TemplateModel;
use pagelevel::params::ValidParams;
use pagelevel::staged::StagedFile;
use serde::Serialize;

use super::browser::{BrowserArgs, ModelArgs};
use super::scoring::ScoringArgs;

/// Everything a fit on labelled pages scores them with.
pub struct LabelledFit {
    pub datasets: Vec<Dataset>,
    pub layout: Box<dyn LayoutSource>,
    pub model: TemplateModel,
    pub params: ValidParams,
    pub progress: PageProgress,
}

/// One step a page of every set, and the pages that failed (each named on standard error).
pub struct PageProgress {
    bar: ProgressBar,
    pub failed: usize,
}

impl PageProgress {
    /// One more page done; `failure` is why it could not be used.
    pub fn page_done(&mut self, page: &str, failure: Option<&str>) {
        self.bar.inc(1);
        if let Some(reason) = failure {
            self.failed += 1;
            self.bar
                .suspend(|| eprintln!("pagelevel: page {page} failed: {reason}"));
        }
    }

    /// Every page done: the bar goes.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl LabelledFit {
    /// Checks that `out` can be written, then loads the sets and makes the layout source.
    pub fn prepare(
        specs: &[DatasetSpec],
        out: &Path,
        model: &ModelArgs,
        scoring: &ScoringArgs,
        browser: &BrowserArgs,
        quiet: bool,
    ) -> anyhow::Result<LabelledFit> {
        StagedFile::check_writable(out)
            .with_context(|| format!("cannot write the model to {}", out.display()))?;
        let model = model.load(browser.layout.engine())?;
        let params = scoring.params()?;
        let datasets = specs
            .iter()
            .map(load_dataset)
            .collect::<Result<Vec<_>, _>>()?;
        let layout = browser.layout_source(browser.render_options())?;
        let bar = super::page_progress(
            datasets
                .iter()
                .map(|dataset| dataset.pages.len() as u64)
                .sum(),
            "{bar:40} {pos}/{len} pages ({per_sec}, eta {eta})",
            quiet,
        );
        Ok(LabelledFit {
            datasets,
            layout,
            model,
            params,
            progress: PageProgress { bar, failed: 0 },
        })
    }
}

/// Writes a fitted model as pretty JSON, whole or not at all.
pub fn write_model(out: &Path, fitted: &impl Serialize) -> anyhow::Result<()> {
    let mut staged = StagedFile::create(out)
        .with_context(|| format!("cannot write the model to {}", out.display()))?;
    let mut json = serde_json::to_string_pretty(fitted)?;
    json.push('\n');
    staged.write_all(json.as_bytes())?;
    staged
        .commit()
        .with_context(|| format!("cannot write the model to {}", out.display()))
}
