//! Time of the metadata stage (`page_metadata`) per page, on Readability's test pages (modern
//! articles, most with JSON-LD and OpenGraph) and the L3S-GN1 news pages: the stage runs on
//! every scored page, so its budget is a small share of a page's ~10 ms (issue 22: under
//! 0.2 ms). Parsing is outside the timing. Each page is timed `RUNS` times and its median kept.
//!
//! Run: `cargo bench -p pagelevel --bench metadata`; `$DATASETS` is the labelled sets' folder
//! (default `../shared/datasets/labeled`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use pagelevel::page::{Page, ParseLimits, html_files_under};
use pagelevel::page_metadata;

/// Timings per page, the median kept.
const RUNS: usize = 21;

fn main() {
    let datasets = std::env::var_os("DATASETS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets/labeled"),
        PathBuf::from,
    );
    for set in ["readability/pages", "l3s-gn1/original"] {
        let mut times: Vec<f64> = Vec::new();
        for path in html_files_under(&datasets.join(set)).unwrap_or_default() {
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let Ok(page) = Page::parse(&bytes, None, None, &ParseLimits::default()) else {
                continue;
            };
            let mut runs: Vec<f64> = (0..RUNS)
                .map(|_| {
                    let started = Instant::now();
                    std::hint::black_box(page_metadata(&page));
                    started.elapsed().as_secs_f64() * 1000.0
                })
                .collect();
            runs.sort_by(f64::total_cmp);
            times.push(runs[RUNS / 2]);
        }
        if times.is_empty() {
            println!("{set}: no pages under {}", datasets.display());
            continue;
        }
        times.sort_by(f64::total_cmp);
        let at = |share: f64| times[((times.len() - 1) as f64 * share).round() as usize];
        let mean = times.iter().sum::<f64>() / times.len() as f64;
        println!(
            "{set}: {} pages, metadata ms per page: mean {mean:.3}, median {:.3}, p95 {:.3}, max {:.3}",
            times.len(),
            at(0.5),
            at(0.95),
            at(1.0),
        );
    }
}
