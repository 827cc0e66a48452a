//! `pagelevel score`: the main job — pages in, every node scored, smoothed and segmented, the
//! content separated, in the chosen output format.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use pagelevel::fetch::{CrawlOptions, FetchedPage, fetch_page, read_warc};
use pagelevel::output::{page_line, page_output, write_csv_rows};
use pagelevel::pipeline::{ScoredPage, Scorer};
use pagelevel::render::{PageSource, RenderOptions};
use pagelevel::report::html_report;
use pagelevel::segment::{DEFAULT_THRESHOLD, SegmentOptions};
use pagelevel::smooth::{Algorithm, Penalty, PenaltyScheme};

use super::Outcome;
use super::browser::{BrowserArgs, WeightArg, check_threshold, load_model};
use super::render::collect_pages;

/// How results are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// Everything about one page: nodes, sections, content text, timings (default for one page).
    Json,
    /// One line per page: url, content text, template share, sections (default for batches).
    Jsonl,
    /// One row per node.
    Csv,
    /// The content text alone (everything not template), paragraphs separated by blank lines.
    Text,
    /// The main text alone (the article or main body, without comments), paragraphs separated
    /// by blank lines.
    Main,
}

/// Which penalty function γ the smoothing uses (Section 5.3 of the paper).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PenaltyArg {
    /// γᵢ = c·A/Aᵢ (page area over node area): the paper's choice.
    Area,
    /// γᵢ = c·N/Nᵢ (node count over subtree size).
    Count,
    /// γᵢ = c·A_parent/Aᵢ.
    ParentArea,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum AlgorithmArg {
    Fast,
    Paper,
}

/// Score pages: find each page's template and separate its content.
#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// Pages: HTML files, directories (every .html/.htm under them), WARC files (.warc,
    /// .warc.gz: every HTML response) or http(s) URLs (fetched once, then rendered from the
    /// fetched bytes with every other request blocked).
    #[arg(required = true)]
    pages: Vec<String>,
    /// Model file (default: the model shipped with pagelevel).
    #[arg(long)]
    model: Option<PathBuf>,
    /// Smoothed templateness at or above which a node is template.
    #[arg(long, default_value_t = DEFAULT_THRESHOLD)]
    threshold: f64,
    /// The penalty constant c: larger gives fewer, larger sections.
    #[arg(long, default_value_t = 0.01)]
    penalty_scale: f64,
    /// How much each node's score counts in the smoothing.
    #[arg(long, value_enum, default_value = "sqrt-area")]
    weight: WeightArg,
    /// The penalty function.
    #[arg(long, value_enum, default_value = "area")]
    penalty: PenaltyArg,
    /// Apply the threshold as configured even where it leaves a page without content (by
    /// default a page that has running text always keeps its least template-like part).
    #[arg(long)]
    no_content_floor: bool,
    /// No smoothing: threshold the classifier's scores (the paper's "Basic").
    #[arg(long)]
    no_smooth: bool,
    /// Smoothing algorithm (both exact; `paper` is the slow reference).
    #[arg(long, value_enum, default_value = "fast")]
    algorithm: AlgorithmArg,
    /// Output format (default: json for one page, jsonl for several).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Write the output here instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Write an HTML report: a screenshot with the sections outlined, and the content text. With
    /// several pages, a directory with one report per page.
    #[arg(long)]
    report: Option<PathBuf>,
    /// Run the page's own JavaScript (off by default: deterministic and safe).
    #[arg(long)]
    javascript: bool,
    /// Directory served as the web root; default: each page's own directory.
    #[arg(long)]
    root: Option<PathBuf>,
    /// Insert `<base href=…>` when the page has none.
    #[arg(long)]
    base_href: Option<String>,
    /// The page's original URL, used for its links (nothing is fetched).
    #[arg(long)]
    url: Option<url::Url>,
    #[command(flatten)]
    browser: BrowserArgs,
    /// Pages scored in parallel, each worker with its own browser (2 suits a 2-core machine).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// No progress bar or summary.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: ScoreArgs) -> anyhow::Result<Outcome> {
    let pages = collect_inputs(&args.pages)?;
    let model = load_model(args.model.as_deref())?;
    check_threshold(args.threshold)?;
    let segment = SegmentOptions {
        threshold: args.threshold,
        penalty: Penalty {
            scheme: match args.penalty {
                PenaltyArg::Area => PenaltyScheme::PageArea,
                PenaltyArg::Count => PenaltyScheme::SubtreeSize,
                PenaltyArg::ParentArea => PenaltyScheme::ParentArea,
            },
            scale: args.penalty_scale,
        },
        weight: args.weight.into(),
        smooth: !args.no_smooth,
        content_floor: !args.no_content_floor,
        algorithm: match args.algorithm {
            AlgorithmArg::Fast => Algorithm::Fast,
            AlgorithmArg::Paper => Algorithm::Paper,
        },
    };
    let render = RenderOptions {
        javascript: args.javascript,
        screenshot: args.report.is_some(),
        ..args.browser.render_options()
    };
    let jobs = args.jobs.clamp(1, pages.len().max(1));
    let mut scorers = Vec::with_capacity(jobs);
    for _ in 0..jobs {
        scorers.push(Scorer::new(model.clone(), render.clone(), segment.clone())?);
    }
    let single = pages.len() == 1;
    let format = args
        .format
        .unwrap_or(if single { Format::Json } else { Format::Jsonl });
    let mut sink: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    };
    let mut csv_writer = (format == Format::Csv).then(|| csv::Writer::from_writer(Vec::new()));
    if let (Some(directory), false) = (&args.report, single) {
        std::fs::create_dir_all(directory)
            .with_context(|| format!("cannot create {}", directory.display()))?;
    }
    let bar = if args.quiet || single {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(pages.len() as u64).with_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} pages ({per_sec}, eta {eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        )
    };
    let started = Instant::now();
    let mut failed = 0;
    score_in_order(&pages, scorers, &args, |index, result| {
        let path = &pages[index];
        bar.inc(1);
        let scored = match result {
            Ok(scored) => scored,
            Err(error) if single => return Err(error),
            Err(error) => {
                failed += 1;
                bar.suspend(|| eprintln!("pagelevel: error: {error:#}"));
                return Ok(());
            }
        };
        let name = path.name();
        match format {
            Format::Json => {
                serde_json::to_writer(&mut sink, &page_output(&scored))?;
                sink.write_all(b"\n")?;
            }
            Format::Jsonl => {
                serde_json::to_writer(&mut sink, &page_line(&scored))?;
                sink.write_all(b"\n")?;
            }
            Format::Text => {
                sink.write_all(scored.segmented.content_text.as_bytes())?;
                sink.write_all(b"\n")?;
            }
            Format::Main => {
                sink.write_all(scored.extracted.main_text.as_bytes())?;
                sink.write_all(b"\n")?;
            }
            Format::Csv => {
                if let Some(writer) = csv_writer.as_mut() {
                    write_csv_rows(writer, &name, &scored)?;
                }
            }
        }
        if let Some(report) = &args.report {
            let target = if single {
                report.clone()
            } else {
                report_path(report, index, &name)
            };
            std::fs::write(&target, html_report(&scored, &name))
                .with_context(|| format!("cannot write the report {}", target.display()))?;
        }
        Ok(())
    })?;
    if let Some(writer) = csv_writer {
        let bytes = writer
            .into_inner()
            .map_err(|error| anyhow::anyhow!("{error}"))?;
        sink.write_all(&bytes)?;
    }
    sink.flush()?;
    bar.finish_and_clear();
    if !args.quiet && !single {
        let seconds = started.elapsed().as_secs_f64();
        eprintln!(
            "scored {} of {} pages in {seconds:.1} s ({:.2} pages/s); {failed} failed",
            pages.len() - failed,
            pages.len(),
            (pages.len() - failed) as f64 / seconds.max(1e-9)
        );
    }
    Ok(if failed > 0 {
        Outcome::SomeFailed
    } else {
        Outcome::Success
    })
}

/// Scores the pages with one worker per scorer and hands the results to `emit` in page order.
fn score_in_order(
    pages: &[PageInput],
    mut scorers: Vec<Scorer>,
    args: &ScoreArgs,
    mut emit: impl FnMut(usize, anyhow::Result<ScoredPage>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    if scorers.len() == 1 {
        let scorer = &mut scorers[0];
        for (index, path) in pages.iter().enumerate() {
            emit(index, score_one(scorer, path, args))?;
        }
        return Ok(());
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for mut scorer in scorers {
            let (sender, next) = (sender.clone(), &next);
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(path) = pages.get(index) else { break };
                    if sender
                        .send((index, score_one(&mut scorer, path, args)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Results arrive in any order; hold them until their turn.
        let mut waiting = std::collections::BTreeMap::new();
        let mut turn = 0;
        for (index, result) in receiver {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&turn) {
                emit(turn, result)?;
                turn += 1;
            }
        }
        Ok(())
    })
}

/// One page to score, as the user named it.
enum PageInput {
    File(PathBuf),
    Url(url::Url),
    /// A page read from a WARC file.
    Archived(FetchedPage),
}

impl PageInput {
    fn name(&self) -> String {
        match self {
            PageInput::File(path) => path.display().to_string(),
            PageInput::Url(url) => url.to_string(),
            PageInput::Archived(page) => page.url.to_string(),
        }
    }
}

/// Expands the command line into pages: URLs, WARC records, directories' HTML files, files.
fn collect_inputs(arguments: &[String]) -> anyhow::Result<Vec<PageInput>> {
    let mut inputs = Vec::new();
    for argument in arguments {
        if argument.starts_with("http://") || argument.starts_with("https://") {
            let url = url::Url::parse(argument)
                .with_context(|| format!("{argument} is not a valid URL"))?;
            inputs.push(PageInput::Url(url));
            continue;
        }
        let lower = argument.to_ascii_lowercase();
        if lower.ends_with(".warc") || lower.ends_with(".warc.gz") {
            let pages = read_warc(Path::new(argument))?;
            if pages.is_empty() {
                anyhow::bail!("{argument} holds no HTML responses");
            }
            inputs.extend(
                pages
                    .into_iter()
                    .map(|page| PageInput::Archived(page.into())),
            );
            continue;
        }
        let files = collect_pages(&[PathBuf::from(argument)])?;
        inputs.extend(files.into_iter().map(PageInput::File));
    }
    Ok(inputs)
}

fn score_one(
    scorer: &mut Scorer,
    input: &PageInput,
    args: &ScoreArgs,
) -> anyhow::Result<ScoredPage> {
    let mut source = match input {
        PageInput::File(path) => PageSource::from_file(path, args.root.as_deref())
            .with_context(|| format!("cannot read {}", path.display()))?,
        PageInput::Url(url) => {
            let page = fetch_page(url, &CrawlOptions::default())
                .with_context(|| format!("cannot fetch {url}"))?;
            PageSource::from_bytes(page.bytes, Some(page.url), page.charset)
        }
        PageInput::Archived(page) => PageSource::from_bytes(
            page.bytes.clone(),
            Some(page.url.clone()),
            page.charset.clone(),
        ),
    };
    if args.base_href.is_some() {
        source.base_href = args.base_href.clone();
    }
    if let Some(url) = &args.url {
        source.url = Some(url.clone());
    }
    scorer
        .score(&source)
        .with_context(|| format!("cannot score {}", input.name()))
}

/// `DIR/<number>-<file stem>.html` for a page's report in a batch (numbered: two pages may
/// share a name).
fn report_path(directory: &Path, index: usize, name: &str) -> PathBuf {
    let stem: String = Path::new(name.trim_end_matches('/'))
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    directory.join(format!("{:04}-{stem}.html", index + 1))
}
