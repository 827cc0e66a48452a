//! `pagelevel eval`: PageLevel (Basic, Smooth, Basic+Merge) on human-labelled sets, scored as
//! Section 6.1 of the paper does (template F1 over text, anchor text and links; ARI of the
//! segmentation), with main-text F1, site-level baselines on multi-page sets, and the penalty
//! sweep of Figures 2 and 3.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use pagelevel::eval::datasets::SplitChoice;
use pagelevel::eval::report::{
    PAGE_CSV_HEADER, SWEEP_CSV_HEADER, markdown_summary, write_page_row, write_sweep_rows,
};
use pagelevel::eval::{
    DatasetFormat, DatasetReport, DatasetSpec, EvalOptions, FailedPage, L3sMapping, LabelledPage,
    PageEvaluation, PageRuns, PageScores, PageText, SitePageText, SweepGrid, TextScore, TextTotals,
    VariantTotals, best_merge_delta, evaluate_site_method, load_dataset, page_gold, plot,
    sweep_points,
};
use pagelevel::model::TemplateModel;
use pagelevel::render::{PageSource, Renderer};
use pagelevel::segment::{DEFAULT_THRESHOLD, SegmentOptions, text_visibility};
use pagelevel::sitelevel::Method;
use pagelevel::smooth::Penalty;

use super::Outcome;
use super::browser::{BrowserArgs, WeightArg, check_threshold, load_model};

/// Evaluate PageLevel on labelled datasets.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// A labelled set as FORMAT:PATH (repeatable); FORMAT is one of l3s-gn1, cleaneval,
    /// cleanportaleval, dragnet, big9, kreuzer, native.
    #[arg(long = "dataset", required = true, value_name = "FORMAT:PATH")]
    datasets: Vec<DatasetSpec>,
    /// Model file (default: the model shipped with pagelevel).
    #[arg(long)]
    model: Option<PathBuf>,
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
    /// Smoothed templateness at or above which a node is template.
    #[arg(long, default_value_t = DEFAULT_THRESHOLD)]
    threshold: f64,
    /// The penalty constant c of γᵢ = c·A/Aᵢ.
    #[arg(long, default_value_t = Penalty::default().scale)]
    penalty_scale: f64,
    /// How much each node's score counts in the smoothing.
    #[arg(long, value_enum, default_value = "sqrt-area")]
    weight: WeightArg,
    /// Sweep the penalty (Figures 2 and 3) and the threshold.
    #[arg(long)]
    sweep_penalty: bool,
    /// Penalty multipliers of the sweep.
    #[arg(long, value_delimiter = ',', default_values_t = SweepGrid::default().multipliers)]
    multipliers: Vec<f64>,
    /// Thresholds of the sweep.
    #[arg(long, value_delimiter = ',', default_values_t = SweepGrid::default().thresholds)]
    thresholds: Vec<f64>,
    /// Apply the threshold as configured even where it leaves a page without content (by
    /// default a page that has running text always keeps its least template-like part).
    #[arg(long)]
    no_content_floor: bool,
    /// Skip the site-level methods on multi-page sets.
    #[arg(long)]
    no_sitelevel: bool,
    #[command(flatten)]
    browser: BrowserArgs,
    /// No progress bar or timing line.
    #[arg(long, short)]
    quiet: bool,
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

pub fn run(args: EvalArgs) -> anyhow::Result<Outcome> {
    check_threshold(args.threshold)?;
    let model = load_model(args.model.as_deref())?;
    let options = EvalOptions {
        segment: SegmentOptions {
            threshold: args.threshold,
            penalty: Penalty {
                scale: args.penalty_scale,
                ..Penalty::default()
            },
            weight: args.weight.into(),
            content_floor: !args.no_content_floor,
            ..SegmentOptions::default()
        },
        sweep: args.sweep_penalty.then(|| SweepGrid {
            multipliers: args.multipliers.clone(),
            thresholds: args.thresholds.clone(),
        }),
    };
    let datasets = args
        .datasets
        .iter()
        .map(|spec| {
            let mut dataset = load_dataset(spec)?;
            dataset.pages.retain(|page| args.split.keeps(page.split));
            if let Some(limit) = args.limit {
                dataset.pages.truncate(limit);
            }
            Ok((spec.clone(), dataset))
        })
        .collect::<Result<Vec<_>, pagelevel::eval::EvalError>>()?;
    let mut renderer = Renderer::new(args.browser.render_options())?;
    let total: usize = datasets.iter().map(|(_, d)| d.pages.len()).sum();
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(total as u64).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} pages ({per_sec}, eta {eta}) {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        )
    };
    let started = Instant::now();
    let mut reports = Vec::new();
    let mut page_rows = csv::Writer::from_writer(Vec::new());
    page_rows.write_record(PAGE_CSV_HEADER)?;
    for (spec, dataset) in &datasets {
        bar.set_message(spec.format.name());
        let run = evaluate_dataset(
            spec,
            &dataset.pages,
            &model,
            &options,
            &args.externals,
            &mut renderer,
            &bar,
        );
        for failure in &run.failed {
            bar.suspend(|| {
                eprintln!(
                    "pagelevel: {}: page {} failed: {}",
                    spec, failure.page, failure.error
                )
            });
        }
        reports.extend(dataset_reports(
            &run,
            &options,
            &args.externals,
            !args.no_sitelevel,
            &mut page_rows,
            &bar,
        )?);
    }
    bar.finish_and_clear();
    let failed: usize = reports.iter().map(|r| r.failed.len()).sum();
    let mut stdout = std::io::stdout().lock();
    if args.json {
        for report in &reports {
            let compact = DatasetReport {
                sweep: Vec::new(),
                ..report.clone()
            };
            serde_json::to_writer(&mut stdout, &compact)?;
            stdout.write_all(b"\n")?;
        }
    } else {
        stdout.write_all(markdown_summary(&reports).as_bytes())?;
    }
    stdout.flush()?;
    if let Some(directory) = &args.report {
        write_report(directory, &reports, page_rows)?;
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
    externals: &[(String, PathBuf)],
    renderer: &mut Renderer,
    bar: &ProgressBar,
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
        bar.inc(1);
        let result = (|| -> anyhow::Result<()> {
            let source = page_source(page)?;
            let rendered = renderer.render(&source).context("cannot render")?;
            // The words a reader sees, exactly as the product decides it.
            let visible = text_visibility(&rendered);
            let text = PageText::of(&rendered.page.dom, |id| visible[id.index()]);
            let runs = PageRuns::of(&rendered, model, options).context("cannot score")?;
            let mut evaluations = Vec::new();
            for (index, (_, mapping)) in mappings.iter().enumerate() {
                let gold = page_gold(&text, &page.gold, *mapping)?;
                let mut evaluation = runs.evaluate(&text, &gold, options);
                for (_, directory) in externals {
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
                error: format!("{error:#}"),
            });
        }
    }
    let evaluated = run.mappings.first().map_or(0, |(_, pages)| pages.len());
    run.mean_sections = sections as f64 / evaluated.max(1) as f64;
    run
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

/// How a labelled page is rendered: from its folder as web root, with the set's URL (for link
/// resolution) and `<base href>` (Kreuzer's copied assets).
fn page_source(page: &LabelledPage) -> anyhow::Result<PageSource> {
    let mut source = PageSource::from_file(&page.html_path, None)
        .with_context(|| format!("cannot read {}", page.html_path.display()))?;
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
    externals: &[(String, PathBuf)],
    with_sitelevel: bool,
    page_rows: &mut csv::Writer<Vec<u8>>,
    bar: &ProgressBar,
) -> anyhow::Result<Vec<DatasetReport>> {
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
        if with_sitelevel && index == 0 && !run.site_pages.is_empty() {
            for method in Method::ALL {
                let mut totals = VariantTotals::default();
                for (group, site) in &run.site_pages {
                    match evaluate_site_method(method, site) {
                        Ok(scores) => scores.iter().for_each(|page| totals.add(page)),
                        Err(error) => bar.suspend(|| {
                            eprintln!(
                                "pagelevel: {dataset}: site-level {} skipped site {group}: {error}",
                                method.name()
                            )
                        }),
                    }
                }
                sitelevel.insert(method.name(), totals.report());
            }
        }
        let mut output = BTreeMap::new();
        let mut content = TextTotals::default();
        let mut main = TextTotals::default();
        let mut comments = TextTotals::default();
        let mut external = vec![TextTotals::default(); externals.len()];
        for evaluation in &evaluations {
            content.add(&evaluation.output.content);
            main.add(&evaluation.output.main);
            if let Some(page) = &evaluation.output.comments {
                comments.add(page);
            }
            for (totals, page) in external.iter_mut().zip(&evaluation.output.external) {
                totals.add(page);
            }
        }
        output.insert("pagelevel content_text".to_string(), content.report());
        output.insert("pagelevel main_text".to_string(), main.report());
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
            threshold: options.segment.threshold,
            penalty_scale: options.segment.penalty.scale,
            merge_delta: pagelevel::eval::MERGE_DELTAS[delta_index],
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

fn write_report(
    directory: &Path,
    reports: &[DatasetReport],
    page_rows: csv::Writer<Vec<u8>>,
) -> anyhow::Result<()> {
    std::fs::create_dir_all(directory)
        .with_context(|| format!("cannot create {}", directory.display()))?;
    let write = |name: &str, bytes: &[u8]| {
        let path = directory.join(name);
        std::fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))
    };
    write(
        "pages.csv",
        &page_rows
            .into_inner()
            .map_err(|error| anyhow::anyhow!("{error}"))?,
    )?;
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
            write_sweep_rows(
                &mut sweep,
                &pagelevel::eval::report::dataset_label(report),
                &report.sweep,
            )?;
        }
        write(
            "sweep.csv",
            &sweep
                .into_inner()
                .map_err(|error| anyhow::anyhow!("{error}"))?,
        )?;
        for figure in plot::sweep_figures(reports) {
            write(&format!("{}.svg", figure.name), figure.svg.as_bytes())?;
            plot::try_png(&directory.join(format!("{}.svg", figure.name)));
        }
    }
    Ok(())
}
