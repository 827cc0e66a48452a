//! `pagelevel render`: lays pages out (headless Chromium, or `--layout native`) and writes their
//! snapshots.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use pagelevel::batch::{PageInput, PlacementOptions, StdinPages, expand_inputs, page_source};
use pagelevel::layout::LayoutSource;
use pagelevel::pipeline::lay_out_page;
use pagelevel::render::RenderOptions;

use super::Outcome;
use super::browser::{BrowserArgs, seconds_up_to_a_day};

/// Render pages and write, per page, its elements in document order with their layout boxes.
#[derive(Debug, Args)]
pub struct RenderArgs {
    /// HTML files, or directories whose .html/.htm files are all rendered.
    #[arg(required = true)]
    pages: Vec<PathBuf>,
    /// Where to write the snapshot of a single page (default: standard output).
    #[arg(short, long, conflicts_with = "out_dir")]
    output: Option<PathBuf>,
    /// With several pages: write one snapshot per page into this directory, named by the page's
    /// path under its directory argument (`site/a/index.html` → `OUT/a/index.json`).
    #[arg(long)]
    out_dir: Option<PathBuf>,
    /// Directory served as the web root (root-absolute links resolve in it); default: each
    /// page's own directory.
    #[arg(long)]
    root: Option<PathBuf>,
    /// Insert `<base href=…>` when the page has none, e.g. a Kreuzer page's `base_href`.
    #[arg(long)]
    base_href: Option<String>,
    /// The page's original URL, used to resolve its links (nothing is fetched).
    #[arg(long)]
    url: Option<url::Url>,
    /// Run the page's own JavaScript (off by default: deterministic and safe).
    #[arg(long)]
    javascript: bool,
    /// Longest wait, in seconds, for a page's resources before it is measured as it is.
    #[arg(long, default_value_t = 3.0, value_name = "SECONDS", value_parser = seconds_up_to_a_day)]
    load_budget: f64,
    #[command(flatten)]
    browser: BrowserArgs,
    /// Print a line per page and a timing summary (median, p95) to standard error.
    #[arg(long)]
    timings: bool,
}

pub fn run(args: RenderArgs) -> anyhow::Result<Outcome> {
    let pages = snapshot_names(&args.pages, args.out_dir.is_some())?;
    if pages.len() > 1 && args.output.is_some() {
        anyhow::bail!(
            "--output takes one page; {} were given (use --out-dir)",
            pages.len()
        );
    }
    if let Some(directory) = &args.out_dir {
        prepare_out_dir(directory)?;
    }
    let options = RenderOptions {
        javascript: args.javascript,
        load_budget: Duration::from_secs_f64(args.load_budget),
        ..args.browser.render_options()
    };
    let mut layout = args.browser.layout_source(options)?;
    let single = pages.len() == 1;
    let mut render_times = Vec::new();
    let mut failed = 0;
    for (path, name) in &pages {
        match render_one(layout.as_mut(), path, name, &args) {
            Ok(render_ms) => {
                if let Some(ms) = render_ms {
                    render_times.push(ms);
                }
                if args.timings {
                    eprintln!("{}: {:.0} ms", path.display(), render_ms.unwrap_or(0.0));
                }
            }
            Err(error) if single => return Err(error),
            Err(error) => {
                failed += 1;
                eprintln!("pagelevel: error: {error:#}");
            }
        }
    }
    if args.timings {
        print_summary(pages.len(), failed, &mut render_times);
    }
    Ok(if failed > 0 {
        Outcome::SomeFailed
    } else {
        Outcome::Success
    })
}

/// Renders one page and writes its snapshot; returns the browser time (None when cached).
fn render_one(
    layout: &mut dyn LayoutSource,
    path: &Path,
    name: &Path,
    args: &RenderArgs,
) -> anyhow::Result<Option<f64>> {
    let placement = PlacementOptions {
        root: args.root.clone(),
        base_href: args.base_href.clone(),
        url: args.url.clone(),
    };
    let source = page_source(PageInput::File(path.to_path_buf()), &placement)?;
    let rendered = lay_out_page(layout, &source, &args.browser.limits())
        .with_context(|| format!("cannot render {}", path.display()))?;
    if let Some(nesting) = args.browser.layout.engine().nesting_beyond(&rendered.page) {
        eprintln!("pagelevel: warning: {}: {nesting}", path.display());
    }
    if let Some(warning) = &rendered.warning {
        eprintln!("pagelevel: warning: {}: {warning}", path.display());
    }
    let json = serde_json::to_string(&rendered.snapshot(args.browser.layout.engine()))?;
    match (&args.output, &args.out_dir) {
        (Some(output), _) => std::fs::write(output, json)
            .with_context(|| format!("cannot write {}", output.display()))?,
        (None, Some(directory)) => {
            let output = directory.join(name);
            if let Some(parent) = output.parent() {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("cannot create {}", parent.display()))?;
            }
            std::fs::write(&output, json)
                .with_context(|| format!("cannot write {}", output.display()))?;
        }
        (None, None) => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(json.as_bytes())?;
            stdout.write_all(b"\n")?;
        }
    }
    Ok((!rendered.from_cache).then_some(rendered.layout_ms))
}

/// Every page to render with the name of its snapshot under `--out-dir`: its path relative to
/// the directory argument it was found in (a file argument: its own name), with `.json` for its
/// extension. Pages whose names would still coincide (`a.html` and `a.htm`, or two directory
/// arguments holding the same path) are refused with `--out-dir` before anything is rendered,
/// since one snapshot would silently replace the other.
fn snapshot_names(
    arguments: &[PathBuf],
    to_directory: bool,
) -> anyhow::Result<Vec<(PathBuf, PathBuf)>> {
    let mut pages = Vec::new();
    let mut taken: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
    for argument in arguments {
        let expanded = expand_inputs(&[argument.display().to_string()], StdinPages::JsonLines)?;
        for input in expanded {
            let Ok(PageInput::File(path)) = input else {
                continue;
            };
            let relative = match argument.is_dir() {
                true => path.strip_prefix(argument).unwrap_or(&path).to_path_buf(),
                false => PathBuf::from(path.file_name().unwrap_or(path.as_os_str())),
            };
            let name = relative.with_extension("json");
            if let Some(earlier) = taken.insert(name.clone(), path.clone())
                && to_directory
            {
                anyhow::bail!(
                    "{} and {} would both be written to the snapshot {} under --out-dir; \
                     render them in separate runs",
                    earlier.display(),
                    path.display(),
                    name.display()
                );
            }
            pages.push((path, name));
        }
    }
    Ok(pages)
}

/// Creates `--out-dir` and proves a file can be written in it, before any page is rendered.
fn prepare_out_dir(directory: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(directory)
        .with_context(|| format!("cannot create the --out-dir {}", directory.display()))?;
    let probe = directory.join(format!(".pagelevel-probe-{}", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .with_context(|| format!("cannot write in the --out-dir {}", directory.display()))?;
    std::fs::remove_file(&probe).with_context(|| format!("cannot remove {}", probe.display()))
}

fn print_summary(pages: usize, failed: usize, render_times: &mut [f64]) {
    render_times.sort_by(f64::total_cmp);
    let quantile = |q: f64| {
        render_times
            .get(((render_times.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0.0)
    };
    eprintln!(
        "rendered {} of {pages} pages ({failed} failed, {} from cache); render time median {:.0} ms, p95 {:.0} ms",
        pages - failed,
        pages - failed - render_times.len(),
        quantile(0.5),
        quantile(0.95),
    );
}
