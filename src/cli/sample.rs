//! `pagelevel sample`: from a key page, finds the pages that share its template (Alarte et al.
//! 2015) — on a saved site (links resolved to files) or on the web (a polite same-host crawl).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;
use serde::Serialize;
use url::Url;

use pagelevel::sitelevel::sample::{
    DEFAULT_SIZE, DiskSource, HttpSource, PageSource, SampleResult, sample,
};

#[derive(Debug, Args)]
pub struct SampleArgs {
    /// The key page: a saved page's path, or an http(s) URL.
    #[arg(long, value_name = "PAGE")]
    key: String,
    /// Size n of the complete subdigraph to find (pages besides the key page).
    #[arg(long, default_value_t = DEFAULT_SIZE)]
    size: usize,
    /// Write JSON: {"pages": [paths or urls], "loads": n, "skipped": [{"page", "reason"}]}.
    #[arg(long)]
    json: bool,
    /// Web root of a saved site whose links are root-absolute (`/2021/07/`): such links are
    /// looked up below this directory.
    #[arg(long, value_name = "DIR")]
    site_root: Option<PathBuf>,
    /// Seconds between requests when crawling a URL (a longer robots.txt Crawl-delay wins).
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS")]
    delay: f64,
    /// Seconds before a request is given up when crawling a URL.
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS")]
    timeout: f64,
}

#[derive(Debug, Serialize)]
struct SampleJson {
    pages: Vec<String>,
    loads: usize,
    skipped: Vec<SkippedJson>,
}

#[derive(Debug, Serialize)]
struct SkippedJson {
    page: String,
    reason: String,
}

pub fn run(args: SampleArgs) -> anyhow::Result<super::Outcome> {
    let is_web = args.key.starts_with("http://") || args.key.starts_with("https://");
    let (key, mut source): (Url, Box<dyn PageSource>) = if is_web {
        let key = Url::parse(&args.key).with_context(|| format!("{} is not a URL", args.key))?;
        let delay = seconds(args.delay, "--delay")?;
        let timeout = seconds(args.timeout, "--timeout")?;
        (key, Box::new(HttpSource::new(delay, timeout)))
    } else {
        let path = PathBuf::from(&args.key);
        let absolute = std::fs::canonicalize(&path)
            .with_context(|| format!("cannot read the key page {}", path.display()))?;
        let key = Url::from_file_path(&absolute)
            .map_err(|()| anyhow::anyhow!("{} has no file URL", absolute.display()))?;
        let root = match &args.site_root {
            Some(root) => Some(
                std::fs::canonicalize(root)
                    .with_context(|| format!("cannot read the site root {}", root.display()))?,
            ),
            None => None,
        };
        (
            key,
            Box::new(DiskSource {
                root,
                ..DiskSource::default()
            }),
        )
    };
    let result = sample(&key, args.size, source.as_mut())?;
    for (url, reason) in &result.skipped {
        eprintln!("pagelevel: warning: skipped {}: {reason}", shown(url));
    }
    let mut stdout = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut stdout, &sample_json(&result))?;
        writeln!(stdout)?;
    } else {
        for url in &result.pages {
            writeln!(stdout, "{}", shown(url))?;
        }
        writeln!(
            stdout,
            "{} pages after {} loads ({} links could not be loaded)",
            result.pages.len(),
            result.loads,
            result.skipped.len()
        )?;
    }
    Ok(super::Outcome::Success)
}

fn seconds(value: f64, option: &str) -> anyhow::Result<Duration> {
    if !(value.is_finite() && value >= 0.0) {
        bail!("{option} must be a number of seconds, 0 or more; got {value}");
    }
    Ok(Duration::from_secs_f64(value))
}

/// A file URL as its path, a web URL as itself.
fn shown(url: &Url) -> String {
    match url.to_file_path() {
        Ok(path) if url.scheme() == "file" => path.display().to_string(),
        _ => url.to_string(),
    }
}

fn sample_json(result: &SampleResult) -> SampleJson {
    SampleJson {
        pages: result.pages.iter().map(shown).collect(),
        loads: result.loads,
        skipped: result
            .skipped
            .iter()
            .map(|(url, reason)| SkippedJson {
                page: shown(url),
                reason: reason.clone(),
            })
            .collect(),
    }
}
