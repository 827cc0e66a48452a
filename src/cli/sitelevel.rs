//! `pagelevel sitelevel`: runs one site-level detector over the pages of a saved site and tells,
//! per page, which elements are template — as JSON (`--json`) or a readable summary.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use clap::{Args, ValueEnum};
use serde::Serialize;

use pagelevel::page::ParseLimits;
use pagelevel::sitelevel::pagelets::Pagelets;
use pagelevel::sitelevel::{LoadedSite, Method, SiteSummary, TemplateMarks, load_site};

#[derive(Debug, Args)]
pub struct SitelevelArgs {
    /// The detector: frequency (SiteLevel θ = 0.10), pagelets (Bar-Yossef & Rajagopalan),
    /// rtdm (Vieira et al. RTDM-TD) or msa (Geraci & Maggini alignment).
    #[arg(long, value_enum)]
    method: MethodChoice,
    /// Directory of one saved site; every .html/.htm/.xhtml file under it is a page.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Write JSON: {"method", "pages": [{"file", "template_text", "content_text",
    /// "template_nodes": [xpaths]}], "failed": [{"file", "reason"}]}.
    #[arg(long)]
    json: bool,
    /// With --method pagelets: the global algorithm (a template's pages must be linked).
    #[arg(long)]
    global: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum MethodChoice {
    Frequency,
    Pagelets,
    Rtdm,
    Msa,
}

impl From<MethodChoice> for Method {
    fn from(choice: MethodChoice) -> Method {
        match choice {
            MethodChoice::Frequency => Method::Frequency,
            MethodChoice::Pagelets => Method::Pagelets,
            MethodChoice::Rtdm => Method::Rtdm,
            MethodChoice::Msa => Method::Msa,
        }
    }
}

#[derive(Debug, Serialize)]
struct SiteJson<'a> {
    method: &'a str,
    pages: Vec<PageJson>,
    failed: Vec<FailureJson>,
}

#[derive(Debug, Serialize)]
struct PageJson {
    file: String,
    template_text: String,
    content_text: String,
    /// XPaths of the topmost template elements, in document order.
    template_nodes: Vec<String>,
}

#[derive(Debug, Serialize)]
struct FailureJson {
    file: String,
    reason: String,
}

pub fn run(args: SitelevelArgs) -> anyhow::Result<super::Outcome> {
    let method = Method::from(args.method);
    if args.global && method != Method::Pagelets {
        anyhow::bail!("--global applies to --method pagelets only");
    }
    let site = load_site(&args.dir, &ParseLimits::default())?;
    for failure in &site.failures {
        eprintln!(
            "pagelevel: warning: skipped {}: {}",
            failure.path.display(),
            failure.reason
        );
    }
    let started = Instant::now();
    let detector = match method {
        Method::Pagelets if args.global => Box::new(Pagelets {
            global: true,
            ..Pagelets::default()
        }),
        _ => method.detector(),
    };
    let marks = detector
        .detect(&site.parsed_pages())
        .with_context(|| format!("detecting the template of {}", args.dir.display()))?;
    let elapsed = started.elapsed();
    let mut stdout = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut stdout, &site_json(method, &args.dir, &site, &marks))?;
        writeln!(stdout)?;
    } else {
        write_summary(&mut stdout, method, &args.dir, &site, &marks, elapsed)?;
    }
    Ok(if site.failures.is_empty() {
        super::Outcome::Success
    } else {
        super::Outcome::SomeFailed
    })
}

/// The file's path below the site directory (the full path if it is not below it).
fn relative(dir: &Path, path: &Path) -> String {
    path.strip_prefix(dir).unwrap_or(path).display().to_string()
}

fn site_json<'a>(
    method: Method,
    dir: &Path,
    site: &LoadedSite,
    marks: &[TemplateMarks],
) -> SiteJson<'a> {
    SiteJson {
        method: method.name(),
        pages: site
            .pages
            .iter()
            .zip(marks)
            .map(|(site_page, marks)| {
                let dom = &site_page.page.dom;
                PageJson {
                    file: relative(dir, &site_page.path),
                    template_text: marks.template_text(dom),
                    content_text: marks.content_text(dom),
                    template_nodes: marks
                        .template_roots(dom)
                        .into_iter()
                        .map(|id| dom.xpath(id))
                        .collect(),
                }
            })
            .collect(),
        failed: site
            .failures
            .iter()
            .map(|failure| FailureJson {
                file: relative(dir, &failure.path),
                reason: failure.reason.clone(),
            })
            .collect(),
    }
}

fn write_summary(
    out: &mut impl Write,
    method: Method,
    dir: &Path,
    site: &LoadedSite,
    marks: &[TemplateMarks],
    elapsed: std::time::Duration,
) -> std::io::Result<()> {
    let mut summary = SiteSummary::default();
    for (site_page, marks) in site.pages.iter().zip(marks) {
        let dom = &site_page.page.dom;
        summary.add_page(dom, marks);
        let template_words = marks.template_text(dom).split_whitespace().count();
        let content_words = marks.content_text(dom).split_whitespace().count();
        writeln!(
            out,
            "{}: {} of {} elements template; {} template words, {} content words",
            relative(dir, &site_page.path),
            marks.template_count(),
            dom.len(),
            template_words,
            content_words,
        )?;
        for root in marks.template_roots(dom) {
            writeln!(out, "    template {}", dom.xpath(root))?;
        }
    }
    writeln!(
        out,
        "{} ({}): {} pages, {} elements, template share {:.1}% of elements, {:.1}% of text; \
         {} pages skipped; detection took {:.2} s",
        dir.display(),
        method.name(),
        summary.pages,
        summary.elements,
        100.0 * summary.template_element_share(),
        100.0 * summary.template_text_share(),
        site.failures.len(),
        elapsed.as_secs_f64(),
    )
}
