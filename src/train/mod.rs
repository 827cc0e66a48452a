//! Training (Chakrabarti et al., Sections 5.1–5.2): render sampled pages of many sites, label
//! every node with a site-level detector (SiteLevel θ by default), compute page-level features,
//! and fit the area-bucket models. Whole sites are held out for validation — a site's template
//! seen in training would make validation on its other pages meaningless.
//!
//! Stages, in order: read `sites.txt` → per site: list and sample pages → render each (cached, so
//! an interrupted run resumes) → label the site → features of the classified nodes → fit on the
//! training sites and measure on the held-out ones (per area bucket, per `[domain]` of the sites
//! list, per site) → refit on all sites for the shipped model.

pub mod boosting;
pub mod main_text;
pub mod page_type;
mod report;
mod rows;
mod sites;

use std::path::PathBuf;
use std::sync::Arc;

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use serde::Serialize;
use thiserror::Error;

use crate::features;
use crate::fetch::{CrawlOptions, FetchedPage, crawl, group_by_host, read_warc_with_stylesheets};
use crate::layout::LayoutSource;
use crate::model::fit::FitError;
use crate::model::{
    BucketMetrics, FitOptions, LabelledNode, NodeMetrics, TemplateModel, TrainingSummary,
    evaluate_model, fit_model, score_nodes,
};
use crate::page::PageSource;
use crate::page::ParseLimits;
use crate::pipeline::lay_out_page;
use crate::render::RenderError;
use crate::sitelevel::{Method, SiteTemplateDetector, frequency::Frequency, html_files};

pub use report::write_report;
pub use rows::{ReadRows, TrainingRow, read_rows, row_columns, site_rows, write_rows};
pub use sites::{ListedSite, SiteSource, read_sites_file};

/// Why training failed.
#[derive(Debug, Error)]
pub enum TrainError {
    /// The sites list could not be read, or a line of it is neither an existing directory or
    /// WARC file nor a valid URL.
    #[error("cannot use the sites list {path}: {cause}")]
    SitesFile {
        /// The sites list file.
        path: PathBuf,
        /// What went wrong, with the offending line where there is one.
        cause: String,
    },
    /// One site could not be listed, crawled, rendered or labelled, or had fewer usable pages
    /// than `min_pages`; [`train`] skips such sites and only reports them.
    #[error("site {site}: {cause}")]
    Site {
        /// The site's report name ([`SiteSource::name`], `name:host` for WARC hosts).
        site: String,
        /// Why the site was given up.
        cause: String,
    },
    /// A training-rows file could not be read or written, or is not one.
    #[error("training rows {path}: {cause}")]
    Rows {
        /// The file (or directory) of rows.
        path: PathBuf,
        /// What went wrong, with the line where there is one.
        cause: String,
    },
    /// The browser could not be started or kept running.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// Fitting the area-bucket models failed (linfa-logistic gave up on a bucket).
    #[error(transparent)]
    Fit(#[from] FitError),
    /// Every site was skipped, so there are no labelled nodes to fit on.
    #[error("no site had at least {min_pages} usable pages; nothing to train on")]
    NoSites {
        /// The [`TrainOptions::min_pages`] no site reached.
        min_pages: usize,
    },
    /// A file of the training report could not be created or written.
    #[error("cannot write the report in {path}: {source}")]
    Report {
        /// The report directory.
        path: PathBuf,
        /// The I/O (or CSV) error.
        source: std::io::Error,
    },
}

/// How training runs.
#[derive(Debug, Clone)]
pub struct TrainOptions {
    /// Pages sampled per site (the paper: 200 random pages).
    pub max_pages: usize,
    /// Sites with fewer usable pages are skipped.
    pub min_pages: usize,
    /// SiteLevel θ: share of a site's pages a subtree must occur on.
    pub theta: f64,
    /// The site-level detector whose marks become the training labels ([`Method::Frequency`],
    /// SiteLevel, by default; `theta` applies only to it).
    pub labeler: Method,
    /// Every n-th site (in list order) is held out for validation.
    pub holdout_every: usize,
    /// Seed of every random choice (page sampling, crawl order), so a run can be repeated.
    pub seed: u64,
    /// How the area-bucket models are fitted (buckets, balancing, hidden-area threshold).
    pub fit: FitOptions,
    /// How `http(s)://` sites are crawled (delay, timeouts, fetch budget).
    pub crawl: CrawlOptions,
    /// Pages beyond these limits are skipped.
    pub limits: ParseLimits,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            max_pages: 200,
            min_pages: 10,
            theta: 0.10,
            labeler: Method::Frequency,
            holdout_every: 5,
            seed: 7,
            fit: FitOptions::default(),
            crawl: CrawlOptions::default(),
            limits: ParseLimits::default(),
        }
    }
}

/// One site's labelled nodes and its report line.
#[derive(Debug, Clone)]
pub struct LabelledSite {
    /// The site's line of the training report (held-out fields still unset).
    pub summary: SiteReport,
    /// Every rendered page of the site with its labelled nodes.
    pub pages: Vec<LabelledPage>,
}

impl LabelledSite {
    /// Every labelled node of every page, in page order.
    pub fn nodes(&self) -> impl Iterator<Item = &LabelledNode> {
        self.pages.iter().flat_map(|page| &page.nodes)
    }
}

/// One page's training rows.
#[derive(Debug, Clone)]
pub struct LabelledPage {
    /// The page's URL, or its path in the site's folder.
    pub name: String,
    /// Feature row, area and site-level label of every classified (visible) node, in document
    /// order.
    pub nodes: Vec<LabelledNode>,
}

/// Per-site numbers for the report.
#[derive(Debug, Clone, Serialize)]
pub struct SiteReport {
    /// The site's report name ([`SiteSource::name`], `name:host` for WARC hosts).
    pub site: String,
    /// Pages rendered successfully and used for labelling.
    pub pages: usize,
    /// Pages that could not be read or rendered, and were skipped.
    pub failed_pages: usize,
    /// DOM elements over all rendered pages.
    pub elements: usize,
    /// Nodes large enough to be classified (at least the hidden-area threshold), i.e. the
    /// training rows the site contributes.
    pub classified_nodes: usize,
    /// Share (0–1) of the classified nodes the site-level detector labelled template.
    pub template_share: f64,
    /// Wall time spent rendering the site's pages, in seconds (cache hits are fast).
    pub render_seconds: f64,
    /// Wall time of site-level labelling plus feature extraction, in seconds.
    pub label_seconds: f64,
    /// Whether the site was held out of the validation fit (see [`TrainOptions::holdout_every`]).
    pub held_out: bool,
    /// The `[domain]` heading of the sites list the site is under.
    pub domain: Option<String>,
    /// Metrics of the model fitted without the site, on its nodes (held-out sites only).
    pub held_out_accuracy: Option<f64>,
    /// Precision (0–1) of the template class at threshold 0.5 (held-out sites only).
    pub held_out_precision: Option<f64>,
    /// Recall (0–1) of the template class at threshold 0.5 (held-out sites only).
    pub held_out_recall: Option<f64>,
    /// ROC AUC (0–1) of P(template) against the labels (held-out sites only; NaN when the
    /// site's nodes all have one label).
    pub held_out_auc: Option<f64>,
}

impl SiteReport {
    /// A report line for a site whose nodes are still to be counted (see
    /// [`count_nodes`](SiteReport::count_nodes)), timings and held-out fields unset.
    pub fn new(site: String, pages: usize, failed_pages: usize, elements: usize) -> SiteReport {
        SiteReport {
            site,
            pages,
            failed_pages,
            elements,
            classified_nodes: 0,
            template_share: 0.0,
            render_seconds: 0.0,
            label_seconds: 0.0,
            held_out: false,
            domain: None,
            held_out_accuracy: None,
            held_out_precision: None,
            held_out_recall: None,
            held_out_auc: None,
        }
    }

    /// Sets the classified-node count and template share from the site's nodes.
    pub fn count_nodes<'a>(&mut self, nodes: impl Iterator<Item = &'a LabelledNode>) {
        let (mut count, mut template) = (0, 0);
        for node in nodes {
            count += 1;
            template += usize::from(node.template);
        }
        self.classified_nodes = count;
        self.template_share = template as f64 / count.max(1) as f64;
    }

    fn set_held_out_metrics(&mut self, metrics: &NodeMetrics) {
        self.held_out_accuracy = Some(metrics.accuracy);
        self.held_out_precision = Some(metrics.precision);
        self.held_out_recall = Some(metrics.recall);
        self.held_out_auc = Some(metrics.auc);
    }
}

/// The sites of one domain of the sites list, and how the model does on its held-out ones.
#[derive(Debug, Clone, Serialize)]
pub struct DomainReport {
    /// The `[domain]` heading; `untagged` for sites under none, `all` for the row of all sites.
    pub domain: String,
    /// Sites labelled in this domain (skipped sites not counted).
    pub sites: usize,
    /// Rendered pages over those sites.
    pub pages: usize,
    /// Classified nodes (training rows) over those sites.
    pub classified_nodes: usize,
    /// How many of those sites were held out for validation.
    pub held_out_sites: usize,
    /// Over the held-out sites' nodes pooled (the model fitted without them, threshold 0.5).
    pub held_out: Option<NodeMetrics>,
    /// The mean of the held-out sites' own AUCs: every site counts alike.
    pub mean_site_auc: Option<f64>,
}

/// What a training run produced.
#[derive(Debug, Clone)]
pub struct TrainingOutcome {
    /// The model refitted on all labelled sites: the one to ship.
    pub model: TemplateModel,
    /// One report line per labelled site, in list order.
    pub sites: Vec<SiteReport>,
    /// Sites given up on, as (site name, reason).
    pub skipped: Vec<(String, String)>,
    /// Metrics of the model fitted on training sites only, on the held-out sites.
    pub validation: Vec<BucketMetrics>,
    /// The same per domain of the sites list (in list order), then over all sites.
    pub domains: Vec<DomainReport>,
    /// Wall time of both fits (validation and final) and the held-out scoring, in seconds.
    pub fit_seconds: f64,
}

/// Progress callbacks, so the CLI can draw bars without the library knowing about terminals.
pub trait TrainProgress {
    /// A site's rendering starts: its name and the number of pages about to be rendered.
    fn site_started(&mut self, _site: &str, _pages: usize) {}
    /// One page of the current site was rendered (or failed and was skipped).
    fn page_done(&mut self) {}
    /// A line for the user, e.g. why a page or site was skipped.
    fn message(&mut self, _text: &str) {}
}

/// No progress output.
pub struct Silent;
impl TrainProgress for Silent {}

/// The pages of one site, ready to render.
#[derive(Debug, Clone)]
pub struct SitePages {
    /// The site's report name ([`SiteSource::name`], `name:host` for a WARC file's hosts).
    pub name: String,
    /// The sampled pages (at most [`TrainOptions::max_pages`]), bytes and URL each.
    pub sources: Vec<PageSource>,
    /// Pages that could not even be read, with the reason.
    pub unreadable: Vec<(String, String)>,
}

/// Expands a `sites.txt` entry into sites: a directory is one site; a WARC file is one site per
/// host; a URL is crawled politely. Each site keeps a seeded random sample of `max_pages` pages,
/// as the paper samples 200 random pages per site.
pub fn site_pages(site: &SiteSource, options: &TrainOptions) -> Result<Vec<SitePages>, TrainError> {
    let name = site.name();
    let site_error = |cause: String| TrainError::Site {
        site: name.clone(),
        cause,
    };
    let mut rng = StdRng::seed_from_u64(options.seed);
    match site {
        SiteSource::Directory(directory) => {
            let mut files = html_files(directory).map_err(|error| site_error(error.to_string()))?;
            files.shuffle(&mut rng);
            files.truncate(options.max_pages);
            files.sort();
            let mut sources = Vec::new();
            let mut unreadable = Vec::new();
            for file in files {
                match PageSource::from_file(&file, Some(directory)) {
                    Ok(source) => sources.push(source),
                    Err(error) => unreadable.push((file.display().to_string(), error.to_string())),
                }
            }
            Ok(vec![SitePages {
                name,
                sources,
                unreadable,
            }])
        }
        SiteSource::Warc(path) => {
            let (pages, stylesheets) =
                read_warc_with_stylesheets(path).map_err(|error| site_error(error.to_string()))?;
            // The file's stylesheets, shared by its pages: a page may link another host's.
            let stylesheets = (!stylesheets.is_empty()).then(|| Arc::new(stylesheets));
            Ok(group_by_host(pages)
                .into_iter()
                .map(|(host, pages)| {
                    let sources = pages
                        .into_iter()
                        .map(|page| {
                            let page: FetchedPage = page.into();
                            let source =
                                PageSource::from_bytes(page.bytes, Some(page.url), page.charset);
                            match &stylesheets {
                                Some(sheets) => source.with_stylesheets(Arc::clone(sheets)),
                                None => source,
                            }
                        })
                        .collect();
                    host_site(format!("{name}:{host}"), &host, sources, options)
                })
                .collect())
        }
        SiteSource::Crawl(url) => {
            let crawl_options = CrawlOptions {
                max_pages: options.max_pages,
                seed: options.seed,
                ..options.crawl.clone()
            };
            let pages = crawl(url, &crawl_options, &mut |_| {})
                .map_err(|error| site_error(error.to_string()))?;
            Ok(vec![SitePages {
                name,
                sources: pages
                    .into_iter()
                    .map(|page| PageSource::from_bytes(page.bytes, Some(page.url), page.charset))
                    .collect(),
                unreadable: Vec::new(),
            }])
        }
    }
}

/// One host's pages (in archive order) as a site: the sample [`host_sample`] draws.
pub fn host_site(
    name: String,
    host: &str,
    sources: Vec<PageSource>,
    options: &TrainOptions,
) -> SitePages {
    let mut pages: Vec<Option<PageSource>> = sources.into_iter().map(Some).collect();
    let sources = host_sample(host, pages.len(), options)
        .into_iter()
        .filter_map(|index| pages[index].take())
        .collect();
    SitePages {
        name,
        sources,
        unreadable: Vec::new(),
    }
}

/// The sample of a host with `count` pages in archive order: the indices of the pages kept, in
/// sample order, a seeded random sample of [`TrainOptions::max_pages`]. The seed is derived from
/// [`TrainOptions::seed`] and the host, so a host gets the same sample whichever other hosts,
/// files or Spark partitions it comes with; only the count is drawn from, never the pages, so a
/// crawl job can pick a host's sample before it reads a single body (`spark/label_hosts.py`).
pub fn host_sample(host: &str, count: usize, options: &TrainOptions) -> Vec<usize> {
    // FNV-1a: a fixed, documented hash, unlike std's, so samples stay the same across Rust
    // versions and in every process (Python, Spark executors).
    let host_hash = host.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    let mut rng = StdRng::seed_from_u64(options.seed ^ host_hash);
    // Shuffling indices permutes them exactly as shuffling the pages would: the shuffle only
    // swaps places, whatever they hold.
    let mut order: Vec<usize> = (0..count).collect();
    order.shuffle(&mut rng);
    order.truncate(options.max_pages);
    order
}

/// Renders and labels the pages of one site.
pub fn label_site(
    layout: &mut dyn LayoutSource,
    site: &SitePages,
    options: &TrainOptions,
    progress: &mut dyn TrainProgress,
) -> Result<LabelledSite, TrainError> {
    let name = site.name.clone();
    let site_error = |cause: String| TrainError::Site {
        site: name.clone(),
        cause,
    };
    progress.site_started(&name, site.sources.len());
    for (page, cause) in &site.unreadable {
        progress.message(&format!("skipping {page}: {cause}"));
    }
    let started = std::time::Instant::now();
    let mut rendered = Vec::new();
    let mut failed_pages = site.unreadable.len();
    for source in &site.sources {
        let page_name = source
            .url
            .as_ref()
            .map_or(source.path_in_root.clone(), |url| url.to_string());
        match lay_out_page(layout, source, &options.limits) {
            Ok(page) => rendered.push((page_name, page)),
            Err(cause) => {
                failed_pages += 1;
                progress.message(&format!("skipping {page_name}: {cause}"));
            }
        }
        progress.page_done();
    }
    let render_seconds = started.elapsed().as_secs_f64();
    if rendered.len() < options.min_pages {
        return Err(site_error(format!(
            "only {} usable pages, fewer than --min-pages {}",
            rendered.len(),
            options.min_pages
        )));
    }
    let started = std::time::Instant::now();
    let pages: Vec<crate::page::Page> = rendered.iter().map(|(_, r)| r.page.clone()).collect();
    let detector: Box<dyn SiteTemplateDetector> = match options.labeler {
        Method::Frequency => Box::new(Frequency {
            threshold: options.theta,
            ..Frequency::default()
        }),
        other => other.detector(),
    };
    let marks = detector
        .detect(&pages)
        .map_err(|error| site_error(error.to_string()))?;
    let mut labelled_pages = Vec::new();
    let mut elements = 0;
    for ((page_name, page), marks) in rendered.iter().zip(&marks) {
        elements += page.page.dom.len();
        let page_features = features::extract(page, options.fit.hidden_area);
        let nodes = page
            .page
            .dom
            .ids()
            .filter(|id| page_features.classified[id.index()])
            .map(|id| LabelledNode {
                row: page_features.rows[id.index()],
                area: page_features.area[id.index()],
                template: marks.is_template(id),
                site: 0,
            })
            .collect();
        labelled_pages.push(LabelledPage {
            name: page_name.clone(),
            nodes,
        });
    }
    let mut labelled = LabelledSite {
        summary: SiteReport::new(name, rendered.len(), failed_pages, elements),
        pages: labelled_pages,
    };
    labelled
        .summary
        .count_nodes(labelled.pages.iter().flat_map(|page| &page.nodes));
    labelled.summary.render_seconds = render_seconds;
    labelled.summary.label_seconds = started.elapsed().as_secs_f64();
    Ok(labelled)
}

/// The labelled sites of a sites list, and the sites given up on.
#[derive(Debug, Clone, Default)]
pub struct LabelledSites {
    /// Every site with at least [`TrainOptions::min_pages`] usable pages, in list order.
    pub sites: Vec<LabelledSite>,
    /// Sites given up on, as (site name, reason).
    pub skipped: Vec<(String, String)>,
}

/// Lays out and labels every site of a sites list; sites that fail are skipped and reported.
pub fn label_sites(
    layout: &mut dyn LayoutSource,
    sites: &[ListedSite],
    options: &TrainOptions,
    progress: &mut dyn TrainProgress,
) -> LabelledSites {
    let mut labelled = LabelledSites::default();
    for entry in sites {
        let expanded = match site_pages(&entry.source, options) {
            Ok(expanded) => expanded,
            Err(error) => {
                progress.message(&format!("skipping site: {error}"));
                labelled
                    .skipped
                    .push((entry.source.name(), error.to_string()));
                continue;
            }
        };
        for site in &expanded {
            match label_site(layout, site, options, progress) {
                Ok(mut site) => {
                    site.summary.domain = entry.domain.clone();
                    labelled.sites.push(site);
                }
                Err(error) => {
                    progress.message(&format!("skipping site: {error}"));
                    labelled
                        .skipped
                        .push((site.name.clone(), error.to_string()));
                }
            }
        }
    }
    labelled
}

/// Labels every site, fits on the training sites, validates on the held-out ones, and refits
/// the shipped model on all of them.
pub fn train(
    layout: &mut dyn LayoutSource,
    sites: &[ListedSite],
    options: &TrainOptions,
    progress: &mut dyn TrainProgress,
) -> Result<TrainingOutcome, TrainError> {
    fit_sites(label_sites(layout, sites, options, progress), options)
}

/// Fits on labelled sites (from [`label_sites`] or read back with [`read_rows`]): every
/// `holdout_every`-th site is held out to validate a model fitted without it, then the shipped
/// model is refitted on all of them.
pub fn fit_sites(
    labelled: LabelledSites,
    options: &TrainOptions,
) -> Result<TrainingOutcome, TrainError> {
    let LabelledSites {
        sites: mut labelled,
        skipped,
    } = labelled;
    if labelled.is_empty() {
        return Err(TrainError::NoSites {
            min_pages: options.min_pages,
        });
    }
    let every = options.holdout_every.max(2);
    for (index, site) in labelled.iter_mut().enumerate() {
        site.summary.held_out = is_held_out(index, every);
        for page in &mut site.pages {
            for node in &mut page.nodes {
                node.site = index;
            }
        }
    }
    let started = std::time::Instant::now();
    let gather = |held_out: Option<bool>| -> Vec<LabelledNode> {
        labelled
            .iter()
            .filter(|site| held_out.is_none_or(|h| site.summary.held_out == h))
            .flat_map(|site| site.nodes().cloned())
            .collect()
    };
    let (training_nodes, held_out_nodes) = (gather(Some(false)), gather(Some(true)));
    let summary = |nodes: &[LabelledNode], sites: Vec<String>| TrainingSummary {
        labeler: options.labeler.name().to_string(),
        theta: options.theta,
        sites,
        pages: labelled.iter().map(|site| site.summary.pages).sum(),
        nodes: nodes.len(),
        template_share: nodes.iter().filter(|n| n.template).count() as f64
            / nodes.len().max(1) as f64,
        site_balance: options.fit.site_balance,
        seed: options.seed,
    };
    // Each held-out site's (P(template), label) pairs under the model fitted without it.
    let mut held_out_scores: Vec<Option<ScoredNodes>> = vec![None; labelled.len()];
    let validation = if held_out_nodes.is_empty() || training_nodes.is_empty() {
        Vec::new()
    } else {
        let provisional = fit_model(
            &training_nodes,
            &options.fit,
            summary(&training_nodes, Vec::new()),
        )?;
        for (scores, site) in held_out_scores.iter_mut().zip(&labelled) {
            if site.summary.held_out {
                *scores = Some(score_nodes(&provisional, site.nodes()));
            }
        }
        evaluate_model(&provisional, &held_out_nodes)
    };
    let all_nodes = gather(None);
    let site_names = labelled
        .iter()
        .map(|site| site.summary.site.clone())
        .collect();
    let model = fit_model(&all_nodes, &options.fit, summary(&all_nodes, site_names))?;
    let mut site_reports: Vec<SiteReport> = labelled.into_iter().map(|site| site.summary).collect();
    for (report, scores) in site_reports.iter_mut().zip(&held_out_scores) {
        if let Some(scores) = scores {
            report.set_held_out_metrics(&NodeMetrics::of(scores));
        }
    }
    Ok(TrainingOutcome {
        model,
        domains: domain_reports(&site_reports, &held_out_scores),
        sites: site_reports,
        skipped,
        validation,
        fit_seconds: started.elapsed().as_secs_f64(),
    })
}

/// (P(template), label) of each of a site's nodes.
type ScoredNodes = Vec<(f64, bool)>;

/// One report per domain, in the order the sites list names them, then one over all sites.
fn domain_reports(
    sites: &[SiteReport],
    held_out_scores: &[Option<ScoredNodes>],
) -> Vec<DomainReport> {
    let domain_of = |site: &SiteReport| site.domain.as_deref().unwrap_or("untagged").to_string();
    let report = |domain: &str, in_domain: &dyn Fn(&SiteReport) -> bool| {
        let members: Vec<(&SiteReport, &Option<ScoredNodes>)> = sites
            .iter()
            .zip(held_out_scores)
            .filter(|(site, _)| in_domain(site))
            .collect();
        let pooled: Vec<(f64, bool)> = members
            .iter()
            .filter_map(|(_, scores)| scores.as_ref())
            .flatten()
            .copied()
            .collect();
        let site_aucs: Vec<f64> = members
            .iter()
            .filter_map(|(site, _)| site.held_out_auc)
            .filter(|auc| auc.is_finite())
            .collect();
        DomainReport {
            domain: domain.to_string(),
            sites: members.len(),
            pages: members.iter().map(|(site, _)| site.pages).sum(),
            classified_nodes: members.iter().map(|(site, _)| site.classified_nodes).sum(),
            held_out_sites: members.iter().filter(|(_, s)| s.is_some()).count(),
            held_out: (!pooled.is_empty()).then(|| NodeMetrics::of(&pooled)),
            mean_site_auc: (!site_aucs.is_empty())
                .then(|| site_aucs.iter().sum::<f64>() / site_aucs.len() as f64),
        }
    };
    let mut domains: Vec<String> = Vec::new();
    for site in sites {
        if !domains.contains(&domain_of(site)) {
            domains.push(domain_of(site));
        }
    }
    let mut reports: Vec<DomainReport> = domains
        .iter()
        .map(|domain| report(domain, &|site| domain_of(site) == *domain))
        .collect();
    reports.push(report("all", &|_| true));
    reports
}

/// Sites 1, 1+every, 1+2·every, … (0-based) are held out, so the first site always trains.
fn is_held_out(index: usize, every: usize) -> bool {
    index % every == every - 1
}
