//! Whole-score time per page with the native layout on the shared news pages, one core: parse,
//! Blitz layout and every stage, as `pagelevel score` pays it. Criterion times a few pages
//! precisely (`benches/score.rs`); this times hundreds once each, because layout cost depends
//! on the page (its CSS, its size), and the distribution over pages (median, p95) is what a
//! crawl pays. Throughput with `--jobs 2` and peak memory are the process's, measured by
//! `training/reports/native/bench.sh` on the page list this prints with `--list`.
//!
//! Pages: the development pages of L3S-GN1 (2008 news), Dragnet and Big9, and Readability's
//! test pages (modern articles; no labels this bench needs, so no split).
//!
//! Run: `cargo bench -p pagelevel --bench pages [-- --runs N] [-- --list]`; `$DATASETS` is the
//! labelled sets' folder (default `../shared/datasets/labeled`). Each page is scored `--runs`
//! times (default 3) and its median kept, which damps other processes on a shared machine.
//! Wall time is what a caller waits; CPU time (the process's, so the layout thread's too) is
//! what the page costs, and barely moves when other processes compete for the cores.

use std::path::{Path, PathBuf};
use std::time::Instant;

use pagelevel::eval::datasets::{DatasetFormat, DatasetSpec, Split, load_dataset};
use pagelevel::model::{LayoutEngine, TemplateModel};
use pagelevel::page::PageSource;
use pagelevel::params::ValidParams;
use pagelevel::pipeline::{Scorer, StageTimings};
use pagelevel::render::NativeLayout;

/// A set of pages timed together.
struct PageSet {
    name: &'static str,
    pages: Vec<PathBuf>,
}

/// One page's times, medians over its runs.
struct PageTime {
    path: PathBuf,
    whole_ms: f64,
    whole_cpu_ms: f64,
    layout_ms: f64,
    /// Medians of each stage but layout, in `STAGES` order.
    stage_ms: [f64; STAGES.len()],
}

/// The stages besides layout, as `StageTimings` names them.
const STAGES: [&str; 6] = [
    "parse", "features", "classify", "smooth", "segment", "extract",
];

fn stage_times(timings: &StageTimings) -> [f64; STAGES.len()] {
    [
        timings.parse_ms,
        timings.features_ms,
        timings.classify_ms,
        timings.smooth_ms,
        timings.segment_ms,
        timings.extract_ms,
    ]
}

fn main() {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let runs = arguments
        .iter()
        .position(|argument| argument == "--runs")
        .and_then(|at| arguments.get(at + 1))
        .map(|runs| runs.parse::<usize>().expect("--runs takes a number"))
        .unwrap_or(3)
        .max(1);
    let datasets = std::env::var_os("DATASETS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets/labeled"),
        PathBuf::from,
    );
    let sets = page_sets(&datasets);
    if arguments.iter().any(|argument| argument == "--list") {
        for path in sets.iter().flat_map(|set| &set.pages) {
            println!("{}", path.display());
        }
        return;
    }
    let model = TemplateModel::builtin_for(LayoutEngine::Native).expect("the native model loads");
    let mut scorer = Scorer::new(model, NativeLayout::default(), ValidParams::default());
    // The first page pays the one-time costs (system font discovery, the UA stylesheets).
    let first = sets
        .iter()
        .flat_map(|set| &set.pages)
        .next()
        .expect("pages");
    let started = Instant::now();
    score(&mut scorer, first);
    println!(
        "first page (one-time setup included): {:.1} ms",
        ms_since(started)
    );
    println!("{runs} runs a page, the median kept; whole = parse + layout + every stage\n");
    println!(
        "| set | pages | whole median | whole p95 | whole max | CPU median | CPU p95 | layout median | rest median |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut every_page = Vec::new();
    for set in &sets {
        let times: Vec<PageTime> = set
            .pages
            .iter()
            .map(|path| time_page(&mut scorer, path, runs))
            .collect();
        print_row(set.name, &times);
        every_page.extend(times);
    }
    print_row("all", &every_page);
    println!("\nmedian of each stage but layout, all pages:");
    for (at, stage) in STAGES.iter().enumerate() {
        let mut times: Vec<f64> = every_page.iter().map(|page| page.stage_ms[at]).collect();
        println!(
            "  {stage}: {:.2} ms (p95 {:.2} ms)",
            median(&mut times),
            percentile(&mut times, 0.95)
        );
    }
    every_page.sort_by(|a, b| b.whole_ms.total_cmp(&a.whole_ms));
    println!("\nslowest pages:");
    for page in every_page.iter().take(5) {
        println!(
            "  {:.1} ms (layout {:.1} ms) {}",
            page.whole_ms,
            page.layout_ms,
            page.path.display()
        );
    }
}

/// The benchmark's pages: development pages of the labelled news sets, then Readability's.
fn page_sets(datasets: &Path) -> Vec<PageSet> {
    let labelled = [
        ("l3s-gn1", DatasetFormat::L3sGn1),
        ("dragnet", DatasetFormat::Dragnet),
        ("big9", DatasetFormat::Big9),
    ];
    let mut sets: Vec<PageSet> = labelled
        .into_iter()
        .map(|(name, format)| {
            let spec = DatasetSpec {
                format,
                path: datasets.join(name),
            };
            let dataset = load_dataset(&spec).unwrap_or_else(|error| panic!("{spec}: {error}"));
            PageSet {
                name,
                pages: dataset
                    .pages
                    .into_iter()
                    .filter(|page| page.split == Split::Dev)
                    .map(|page| page.html_path)
                    .collect(),
            }
        })
        .collect();
    let readability = datasets.join("readability/pages");
    let mut modern: Vec<PathBuf> = std::fs::read_dir(&readability)
        .unwrap_or_else(|error| panic!("{}: {error}", readability.display()))
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "html")
        })
        .collect();
    modern.sort();
    sets.push(PageSet {
        name: "readability",
        pages: modern,
    });
    sets
}

fn time_page(scorer: &mut Scorer, path: &Path, runs: usize) -> PageTime {
    let mut whole = Vec::with_capacity(runs);
    let mut whole_cpu = Vec::with_capacity(runs);
    let mut layout = Vec::with_capacity(runs);
    let mut stages: [Vec<f64>; STAGES.len()] = Default::default();
    for _ in 0..runs {
        let (started, cpu_started) = (Instant::now(), process_cpu_ms());
        let timings = score(scorer, path);
        whole.push(ms_since(started));
        whole_cpu.push(process_cpu_ms() - cpu_started);
        layout.push(timings.layout_ms);
        for (stage, ms) in stages.iter_mut().zip(stage_times(&timings)) {
            stage.push(ms);
        }
    }
    PageTime {
        path: path.to_path_buf(),
        whole_ms: median(&mut whole),
        whole_cpu_ms: median(&mut whole_cpu),
        layout_ms: median(&mut layout),
        stage_ms: stages.map(|mut times| median(&mut times)),
    }
}

/// Scores one page as `pagelevel score FILE` does; returns its stages' times. A page that
/// fails is timed all the same (it cost what it cost) and named.
fn score(scorer: &mut Scorer, path: &Path) -> StageTimings {
    let source = PageSource::from_file(path, None)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    match scorer.score(&source) {
        Ok(scored) => scored.timings,
        Err(error) => {
            eprintln!("{}: {error}", path.display());
            StageTimings::default()
        }
    }
}

fn print_row(name: &str, times: &[PageTime]) {
    let mut whole: Vec<f64> = times.iter().map(|time| time.whole_ms).collect();
    let mut cpu: Vec<f64> = times.iter().map(|time| time.whole_cpu_ms).collect();
    let mut layout: Vec<f64> = times.iter().map(|time| time.layout_ms).collect();
    let mut rest: Vec<f64> = times
        .iter()
        .map(|time| time.whole_ms - time.layout_ms)
        .collect();
    println!(
        "| {name} | {} | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} ms | {:.1} ms |",
        times.len(),
        median(&mut whole),
        percentile(&mut whole, 0.95),
        whole.iter().copied().fold(0.0, f64::max),
        median(&mut cpu),
        percentile(&mut cpu, 0.95),
        median(&mut layout),
        median(&mut rest),
    );
}

fn median(values: &mut [f64]) -> f64 {
    percentile(values, 0.5)
}

/// The nearest-rank percentile.
fn percentile(values: &mut [f64], share: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let rank = ((share * values.len() as f64).ceil() as usize).clamp(1, values.len());
    values[rank - 1]
}

fn ms_since(started: Instant) -> f64 {
    started.elapsed().as_secs_f64() * 1000.0
}

/// CPU time of the whole process so far (every thread's), in milliseconds.
fn process_cpu_ms() -> f64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for the call to fill; the clock always exists on Linux.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "the process CPU clock is readable");
    now.tv_sec as f64 * 1000.0 + now.tv_nsec as f64 / 1e6
}
