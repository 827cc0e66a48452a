//! One evaluation run: labelled pages laid out, scored by the product's own pipeline stages,
//! measured against their gold, and summed into a [`DatasetReport`] per dataset (and label
//! mapping), with the per-page CSV rows. `pagelevel eval` only parses flags, shows progress
//! and prints.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::layout::LayoutSource;
use crate::model::TemplateModel;
use crate::page::{PageSource, ParseLimits};
use crate::pipeline::{ScoreError, lay_out_page};
use crate::sitelevel::Method;
use crate::text::text_visibility;

use super::datasets::{DatasetFormat, DatasetSpec, LabelledPage};
use super::evaluate::{
    EvalOptions, PageEvaluation, PageRuns, SitePageText, evaluate_site_method, page_gold,
};
use super::merge::MERGE_DELTAS;
use super::output_scores::{TextScore, TextTotals};
use super::page_text::PageText;
use super::report::{
    PAGE_CSV_HEADER, SWEEP_CSV_HEADER, dataset_label, markdown_summary, write_page_row,
    write_sweep_rows,
};
use super::scoring::PageScores;
use super::summary::{DatasetReport, FailedPage, VariantTotals, best_merge_delta, sweep_points};
use super::truth::L3sMapping;
use super::{Dataset, EvalError, plot};

/// What an evaluation run tells its caller while it works.
pub enum EvalEvent<'a> {
    /// Work on a dataset starts.
    Dataset(&'a DatasetSpec),
    /// A page was evaluated (or failed).
    PageDone,
    /// Something was skipped: a failed page, a site a site-level method could not run on.
    Warning(String),
}

/// The reports of a run and its per-page CSV.
pub struct Evaluation {
    /// One report per dataset and label mapping.
    pub reports: Vec<DatasetReport>,
    /// `pages.csv`: one row per page, variant and output text.
    pub page_rows: Vec<u8>,
}

/// The evaluated pages of a dataset under one label mapping (`None`: the set's only one).
type MappingRun = (Option<&'static str>, Vec<(String, PageEvaluation)>);

/// A dataset's evaluated pages, per label mapping.
struct DatasetRun {
    spec: DatasetSpec,
    mappings: Vec<MappingRun>,
    failed: Vec<FailedPage>,
    site_pages: BTreeMap<String, Vec<SitePageText>>,
    mean_sections: f64,
}

/// Evaluates every page of `datasets` laid out by `layout`.
pub fn evaluate(
    datasets: &[(DatasetSpec, Dataset)],
    model: &TemplateModel,
    options: &EvalOptions,
    layout: &mut dyn LayoutSource,
    limits: &ParseLimits,
    on_event: &mut dyn FnMut(EvalEvent),
) -> Result<Evaluation, EvalError> {
    let mut reports = Vec::new();
    let mut page_rows = csv::Writer::from_writer(Vec::new());
    page_rows.write_record(PAGE_CSV_HEADER).map_err(csv_error)?;
    for (spec, dataset) in datasets {
        on_event(EvalEvent::Dataset(spec));
        let run = evaluate_dataset(
            spec,
            &dataset.pages,
            model,
            options,
            layout,
            limits,
            on_event,
        );
        for failure in &run.failed {
            on_event(EvalEvent::Warning(format!(
                "{}: page {} failed: {}",
                spec, failure.page, failure.error
            )));
        }
        reports
            .extend(dataset_reports(&run, options, &mut page_rows, on_event).map_err(csv_error)?);
    }
    let page_rows = page_rows
        .into_inner()
        .map_err(|error| csv_error(error.into_error().into()))?;
    Ok(Evaluation { reports, page_rows })
}

fn csv_error(error: csv::Error) -> EvalError {
    EvalError::Malformed {
        path: PathBuf::from("pages.csv"),
        reason: error.to_string(),
    }
}

fn mappings(format: DatasetFormat) -> Vec<(Option<&'static str>, L3sMapping)> {
    match format {
        DatasetFormat::L3sGn1 => vec![
            (Some("standard"), L3sMapping::Standard),
            (Some("strict"), L3sMapping::Strict),
        ],
        _ => vec![(None, L3sMapping::Standard)],
    }
}

fn evaluate_dataset(
    spec: &DatasetSpec,
    pages: &[LabelledPage],
    model: &TemplateModel,
    options: &EvalOptions,
    layout: &mut dyn LayoutSource,
    limits: &ParseLimits,
    on_event: &mut dyn FnMut(EvalEvent),
) -> DatasetRun {
    let mappings = mappings(spec.format);
    let mut run = DatasetRun {
        spec: spec.clone(),
        mappings: mappings
            .iter()
            .map(|(name, _)| (*name, Vec::new()))
            .collect(),
        failed: Vec::new(),
        site_pages: BTreeMap::new(),
        mean_sections: 0.0,
    };
    let mut sections = 0usize;
    for page in pages {
        on_event(EvalEvent::PageDone);
        let result = (|| -> Result<(), PageEvalError> {
            let source = page_source(page)?;
            let rendered = lay_out_page(layout, &source, limits)?;
            // The words a reader sees, exactly as the product decides it.
            let visible = text_visibility(&rendered);
            let text = PageText::of(&rendered.page.dom, |id| visible[id.index()]);
            let runs = PageRuns::of(&rendered, model, options)?;
            let mut evaluations = Vec::new();
            for (index, (_, mapping)) in mappings.iter().enumerate() {
                let gold = page_gold(&text, &page.gold, *mapping)?;
                let mut evaluation = runs.evaluate(&text, &gold, options);
                for (_, directory) in &options.externals {
                    let output = external_text(directory, &spec.path, &page.html_path);
                    evaluation
                        .output
                        .external
                        .push(TextScore::of(&output, &gold.main_text));
                }
                evaluations.push(evaluation);
                if index == 0
                    && let Some(group) = &page.site_group
                {
                    run.site_pages
                        .entry(group.clone())
                        .or_default()
                        .push(SitePageText {
                            page: rendered.page.clone(),
                            text: text.clone(),
                            gold,
                        });
                }
            }
            sections += runs.smooth_sections;
            for ((_, pages), evaluation) in run.mappings.iter_mut().zip(evaluations) {
                pages.push((page.name.clone(), evaluation));
            }
            Ok(())
        })();
        if let Err(error) = result {
            run.failed.push(FailedPage {
                page: page.name.clone(),
                error: error.to_string(),
            });
        }
    }
    let evaluated = run.mappings.first().map_or(0, |(_, pages)| pages.len());
    run.mean_sections = sections as f64 / evaluated.max(1) as f64;
    run
}

/// Why one labelled page could not be evaluated.
#[derive(Debug, thiserror::Error)]
enum PageEvalError {
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Score(#[from] ScoreError),
    #[error(transparent)]
    Gold(#[from] EvalError),
}

/// Another extractor's output for a page: DIR/<dataset folder>/<HTML path within it>.txt; a
/// missing file is an empty output (the extractor gave nothing).
fn external_text(directory: &Path, dataset_root: &Path, html_path: &Path) -> String {
    let folder = dataset_root.file_name().unwrap_or_default();
    let relative = html_path.strip_prefix(dataset_root).unwrap_or(html_path);
    let mut path = directory.join(folder).join(relative).into_os_string();
    path.push(".txt");
    std::fs::read(&path)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_default()
}

/// How a labelled page is laid out: from its folder as web root, with the set's URL (for link
/// resolution) and `<base href>` (Kreuzer's copied assets).
fn page_source(page: &LabelledPage) -> Result<PageSource, PageEvalError> {
    labelled_page_source(page).map_err(|source| PageEvalError::Read {
        path: page.html_path.clone(),
        source,
    })
}

/// A labelled page as the detector reads it: its bytes (a `.gz` page expanded), its folder as
/// web root, the set's URL and `<base href>`.
pub fn labelled_page_source(page: &LabelledPage) -> std::io::Result<PageSource> {
    // A `.gz` page (WCXB's) is expanded by `from_file`.
    let mut source = PageSource::from_file(&page.html_path, None)?;
    if let Some(url) = page
        .url
        .as_deref()
        .and_then(|url| url::Url::parse(url).ok())
    {
        source.url = Some(url);
    }
    source.base_href = page.base_href.clone();
    Ok(source)
}

fn dataset_reports(
    run: &DatasetRun,
    options: &EvalOptions,
    page_rows: &mut csv::Writer<Vec<u8>>,
    on_event: &mut dyn FnMut(EvalEvent),
) -> csv::Result<Vec<DatasetReport>> {
    let externals = &options.externals;
    let dataset = run.spec.to_string();
    let mut reports = Vec::new();
    for (index, (mapping, pages)) in run.mappings.iter().enumerate() {
        let label = match mapping {
            Some(mapping) => format!("{dataset} ({mapping})"),
            None => dataset.clone(),
        };
        let evaluations: Vec<PageEvaluation> = pages
            .iter()
            .map(|(_, evaluation)| evaluation.clone())
            .collect();
        let delta_index = best_merge_delta(&evaluations);
        let merge_of = |evaluation: &PageEvaluation| {
            evaluation
                .merge
                .get(delta_index)
                .copied()
                .unwrap_or_default()
        };
        let mut variants = BTreeMap::new();
        variants.insert(
            "basic",
            VariantTotals::of(evaluations.iter().map(|e| &e.basic)).report(),
        );
        variants.insert(
            "smooth",
            VariantTotals::of(evaluations.iter().map(|e| &e.smooth)).report(),
        );
        let merged: Vec<PageScores> = evaluations.iter().map(merge_of).collect();
        variants.insert("merge", VariantTotals::of(&merged).report());
        for ((name, evaluation), merge) in pages.iter().zip(&merged) {
            write_page_row(page_rows, &label, name, "basic", &evaluation.basic)?;
            write_page_row(page_rows, &label, name, "smooth", &evaluation.smooth)?;
            write_page_row(page_rows, &label, name, "merge", merge)?;
            // The output texts, as rows whose main-text columns hold their word scores.
            let outputs = [
                ("pagelevel content_text", &evaluation.output.content),
                ("pagelevel main_text", &evaluation.output.main),
                (
                    "pagelevel main_text+comments",
                    &evaluation.output.main_and_comments,
                ),
            ];
            let external = externals
                .iter()
                .map(|(name, _)| name.as_str())
                .zip(&evaluation.output.external);
            for (output, score) in outputs.into_iter().chain(external) {
                let scores = PageScores {
                    main_text: score.counts,
                    ..PageScores::default()
                };
                write_page_row(page_rows, &label, name, output, &scores)?;
            }
        }
        let mut sitelevel = BTreeMap::new();
        if options.sitelevel && index == 0 && !run.site_pages.is_empty() {
            for method in Method::ALL {
                let mut totals = VariantTotals::default();
                for (group, site) in &run.site_pages {
                    match evaluate_site_method(method, site) {
                        Ok(scores) => scores.iter().for_each(|page| totals.add(page)),
                        Err(error) => on_event(EvalEvent::Warning(format!(
                            "{dataset}: site-level {} skipped site {group}: {error}",
                            method.name()
                        ))),
                    }
                }
                sitelevel.insert(method.name(), totals.report());
            }
        }
        let mut output = BTreeMap::new();
        let mut content = TextTotals::default();
        let mut main = TextTotals::default();
        let mut main_and_comments = TextTotals::default();
        let mut comments = TextTotals::default();
        let mut external = vec![TextTotals::default(); externals.len()];
        for evaluation in &evaluations {
            content.add(&evaluation.output.content);
            main.add(&evaluation.output.main);
            main_and_comments.add(&evaluation.output.main_and_comments);
            if let Some(page) = &evaluation.output.comments {
                comments.add(page);
            }
            for (totals, page) in external.iter_mut().zip(&evaluation.output.external) {
                totals.add(page);
            }
        }
        output.insert("pagelevel content_text".to_string(), content.report());
        output.insert("pagelevel main_text".to_string(), main.report());
        output.insert(
            "pagelevel main_text+comments".to_string(),
            main_and_comments.report(),
        );
        if comments.report().pages > 0 {
            // Against the gold comments, on the pages that have some.
            output.insert("pagelevel comments".to_string(), comments.report());
        }
        for ((name, _), totals) in externals.iter().zip(&external) {
            output.insert(name.clone(), totals.report());
        }
        reports.push(DatasetReport {
            dataset: dataset.clone(),
            output,
            mapping: *mapping,
            pages: pages.len(),
            failed: run.failed.clone(),
            threshold: options.params.threshold,
            penalty_scale: options.params.penalty.scale,
            merge_delta: MERGE_DELTAS[delta_index],
            variants,
            sitelevel,
            sweep: options
                .sweep
                .as_ref()
                .map(|grid| sweep_points(&evaluations, grid))
                .unwrap_or_default(),
            mean_sections: run.mean_sections,
        });
    }
    Ok(reports)
}

/// Writes `pages.csv`, `summary.md`, `summary.json` and, after a sweep, `sweep.csv` and its
/// figures into `directory`.
pub fn write_report(directory: &Path, evaluation: &Evaluation) -> std::io::Result<()> {
    let reports = &evaluation.reports[..];
    std::fs::create_dir_all(directory)?;
    let write = |name: &str, bytes: &[u8]| {
        let path = directory.join(name);
        std::fs::write(&path, bytes).map_err(|error| {
            std::io::Error::new(
                error.kind(),
                format!("cannot write {}: {error}", path.display()),
            )
        })
    };
    write("pages.csv", &evaluation.page_rows)?;
    write("summary.md", markdown_summary(reports).as_bytes())?;
    // The sweep goes to sweep.csv; the JSON keeps the reported point of every variant.
    let without_sweep: Vec<DatasetReport> = reports
        .iter()
        .map(|report| DatasetReport {
            sweep: Vec::new(),
            ..report.clone()
        })
        .collect();
    write("summary.json", &serde_json::to_vec_pretty(&without_sweep)?)?;
    if reports.iter().any(|report| !report.sweep.is_empty()) {
        let mut sweep = csv::Writer::from_writer(Vec::new());
        sweep.write_record(SWEEP_CSV_HEADER)?;
        for report in reports {
            write_sweep_rows(&mut sweep, &dataset_label(report), &report.sweep)?;
        }
        write(
            "sweep.csv",
            &sweep.into_inner().map_err(|error| error.into_error())?,
        )?;
        for figure in plot::sweep_figures(reports) {
            write(&format!("{}.svg", figure.name), figure.svg.as_bytes())?;
            plot::try_png(&directory.join(format!("{}.svg", figure.name)));
        }
    }
    Ok(())
}
