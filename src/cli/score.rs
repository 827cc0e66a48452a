//! `pagelevel score`: the main job — pages in, every node scored, smoothed and segmented, the
//! content separated, in the chosen output format.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clap::{Args, ValueEnum};
use pagelevel::batch::{PlacementOptions, StdinPages, expand_inputs, score_batch};
use pagelevel::layout::{LayoutSource, SnapshotLayout};
use pagelevel::markdown::MarkdownOptions;
use pagelevel::output::{MarkdownOutput, OutputFormat, OutputWriter};
use pagelevel::pipeline::Scorer;
use pagelevel::render::RenderOptions;
use pagelevel::report::{batch_report_path, html_report};
use pagelevel::staged::StagedFile;

use super::Outcome;
use super::browser::{BrowserArgs, ModelArgs};
use super::scoring::ScoringArgs;

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
    /// The main text followed by the page's user comments: the article with its discussion,
    /// what CleanEval-style gold keeps.
    MainAndComments,
    /// The main text as Markdown: headings, lists, tables, quotes, code blocks, emphasis (see
    /// --links, --images, --comments).
    Markdown,
    /// One JSON line per section: its text, Markdown, templateness, verdict and role (main,
    /// comments, navigation, footer …), to keep or drop parts of pages by your own rule.
    Sections,
}

/// `--links`, `--images` and `--comments` shape Markdown: refused with a format that writes none,
/// rather than ignored.
fn check_markdown_flags(args: &ScoreArgs) -> anyhow::Result<()> {
    let format = args.format;
    let writes_markdown = matches!(
        format,
        None | Some(Format::Json | Format::Jsonl | Format::Markdown | Format::Sections)
    );
    if (args.links || args.images) && !writes_markdown {
        anyhow::bail!(
            "--links and --images shape the Markdown (--format markdown, sections, json or jsonl: \
             `main_markdown`); this format writes no Markdown"
        );
    }
    if args.comments && format != Some(Format::Markdown) {
        anyhow::bail!(
            "--comments adds the comments to --format markdown; JSON and JSONL carry them in \
             `comments`, and --format main-and-comments prints them after the main text"
        );
    }
    Ok(())
}

/// Score pages: find each page's template and separate its content.
#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// Pages: HTML files, directories (every .html/.htm under them), WARC files (.warc,
    /// .warc.gz: every HTML response, streamed, laid out with the stylesheets the file
    /// archives), http(s) URLs (fetched once, then rendered
    /// from the fetched bytes with every other request blocked), or `-`: standard input, one
    /// JSON object per line, `{"url": "…" (optional), "html": "…"}`.
    #[arg(required = true)]
    pages: Vec<String>,
    /// With `-`: standard input is one raw HTML page, not JSON lines.
    #[arg(long)]
    stdin_html: bool,
    /// Write only these top-level fields (comma-separated; JSON and JSONL), e.g.
    /// `url,main_text,template_text_share`; `pagelevel schema` lists them.
    #[arg(long, value_delimiter = ',', value_name = "FIELD,…")]
    output_fields: Option<Vec<String>>,
    #[command(flatten)]
    model: ModelArgs,
    #[command(flatten)]
    scoring: ScoringArgs,
    /// Take the layout from this snapshot of `pagelevel render` (made from the same page)
    /// instead of rendering: no browser is started.
    #[arg(long, value_name = "SNAPSHOT.json")]
    snapshot: Option<PathBuf>,
    /// Output format (default: json for one page, jsonl for several).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Markdown keeps link targets: `[text](url)`.
    #[arg(long)]
    links: bool,
    /// Markdown keeps the main text's pictures: `![alt](absolute url)`.
    #[arg(long)]
    images: bool,
    /// `--format markdown`: the user comments follow the main text under a "Comments" heading.
    #[arg(long)]
    comments: bool,
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
    check_markdown_flags(&args)?;
    let stdin = match args.stdin_html {
        true => StdinPages::Html,
        false => StdinPages::JsonLines,
    };
    let pages = expand_inputs(&args.pages, stdin)?;
    let single = pages.known_count == Some(1) || (args.stdin_html && args.pages.len() == 1);
    if args.snapshot.is_some() && !single {
        anyhow::bail!("--snapshot holds the layout of one page; several pages were given");
    }
    let snapshot = args
        .snapshot
        .as_deref()
        .map(SnapshotLayout::read)
        .transpose()?;
    // A snapshot's boxes are its engine's: the model must be that engine's too.
    let engine = snapshot
        .as_ref()
        .map_or(args.browser.layout.engine(), SnapshotLayout::engine);
    let model = args.model.load(engine)?;
    let params = args.scoring.params()?;
    let jobs = args
        .jobs
        .clamp(1, pages.known_count.unwrap_or(usize::MAX).max(1));
    let mut scorers = Vec::with_capacity(jobs);
    for _ in 0..jobs {
        let layout: Box<dyn LayoutSource> = match &snapshot {
            Some(snapshot) => Box::new(snapshot.clone()),
            None => layout_source(&args)?,
        };
        let scorer = Scorer::new(model.clone(), layout, params.clone());
        scorers.push(scorer.with_limits(args.browser.limits()));
    }
    let format = match args
        .format
        .unwrap_or(if single { Format::Json } else { Format::Jsonl })
    {
        Format::Json => OutputFormat::Json,
        Format::Jsonl => OutputFormat::Jsonl,
        Format::Csv => OutputFormat::Csv,
        Format::Text => OutputFormat::Text,
        Format::Main => OutputFormat::Main,
        Format::MainAndComments => OutputFormat::MainAndComments,
        Format::Markdown => OutputFormat::Markdown,
        Format::Sections => OutputFormat::Sections,
    };
    let markdown = MarkdownOutput {
        options: MarkdownOptions {
            links: args.links,
            images: args.images,
        },
        comments: args.comments,
    };
    // `-o FILE` is written beside FILE and renamed over it when the run finished (also when some
    // pages of a batch failed); dropped without a commit, FILE stays as it was.
    let mut staged = None;
    let sink: Box<dyn Write> = match &args.output {
        Some(path) => {
            let cannot = || format!("cannot create {}", path.display());
            let output = StagedFile::create(path).with_context(cannot)?;
            let file = output.try_clone_file().with_context(cannot)?;
            staged = Some((output, path));
            Box::new(std::io::BufWriter::new(file))
        }
        None => Box::new(std::io::stdout().lock()),
    };
    let mut writer = OutputWriter::new(format, sink).with_markdown(markdown);
    if let Some(fields) = &args.output_fields {
        writer = writer.with_fields(fields).map_err(anyhow::Error::msg)?;
    }
    if let (Some(directory), false) = (&args.report, single) {
        std::fs::create_dir_all(directory)
            .with_context(|| format!("cannot create {}", directory.display()))?;
    }
    let template = match pages.known_count {
        Some(_) => "{bar:40} {pos}/{len} pages ({per_sec}, eta {eta})",
        None => "{pos} pages ({per_sec})",
    };
    let count = pages.known_count.unwrap_or(0) as u64;
    let bar = super::page_progress(count, template, args.quiet || single);
    let (started, mut total) = (Instant::now(), 0);
    let placement = PlacementOptions {
        root: args.root.clone(),
        base_href: args.base_href.clone(),
        url: args.url.clone(),
    };
    let mut failed = 0;
    for page in score_batch(pages, scorers, placement) {
        bar.inc(1);
        total += 1;
        let scored = match page.result {
            Ok(scored) => scored,
            Err(error) if single => return Err(error.into()),
            Err(error) => {
                failed += 1;
                bar.suspend(|| eprintln!("pagelevel: error: {:#}", anyhow::Error::from(error)));
                continue;
            }
        };
        if let Some(nesting) = engine.nesting_beyond(&scored.laid_out.page) {
            bar.suspend(|| eprintln!("pagelevel: warning: {}: {nesting}", page.name));
        }
        if let Some(warning) = &scored.laid_out.warning {
            bar.suspend(|| eprintln!("pagelevel: warning: {}: {warning}", page.name));
        }
        writer.write(&page.name, &scored)?;
        if let Some(report) = &args.report {
            let target = match single {
                true => report.clone(),
                false => batch_report_path(report, page.index, &page.name),
            };
            std::fs::write(&target, html_report(&scored, &page.name))
                .with_context(|| format!("cannot write the report {}", target.display()))?;
        }
    }
    writer.flush()?;
    drop(writer);
    if let Some((staged, path)) = staged {
        staged
            .commit()
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    bar.finish_and_clear();
    if !args.quiet && !single {
        let seconds = started.elapsed().as_secs_f64();
        let scored = total - failed;
        eprintln!(
            "scored {scored} of {total} pages in {seconds:.1} s ({:.2} pages/s); {failed} failed",
            scored as f64 / seconds.max(1e-9)
        );
    }
    Ok(if failed > 0 {
        Outcome::SomeFailed
    } else {
        Outcome::Success
    })
}

/// The chosen layout engine, with Chromium set up for this command.
fn layout_source(args: &ScoreArgs) -> anyhow::Result<Box<dyn LayoutSource>> {
    let render = RenderOptions {
        javascript: args.javascript,
        screenshot: args.report.is_some(),
        ..args.browser.render_options()
    };
    args.browser.layout_source(render)
}
