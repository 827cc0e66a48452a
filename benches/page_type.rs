//! Time of page typing per page — the page's facts and hashed words, and the model's guess — on
//! Readability's modern articles and WCXB's development pages of seven types, each scored once
//! with the native layout first (typing reads the segmentation and the first extraction). The
//! budget (issue 27): 0.5 ms a page. Each page is timed `RUNS` times and its median kept; the
//! second extraction a sure type asks for is timed too, on the pages that get one.
//!
//! Run: `cargo bench -p pagelevel --bench page_type`; `$DATASETS` is the labelled sets' folder
//! (default `../shared/datasets/labeled`).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;

use pagelevel::extract::ContentPolicy;
use pagelevel::model::{LayoutEngine, TemplateModel};
use pagelevel::page::{PageSource, html_files_under};
use pagelevel::page_type::{PageTypeModel, page_type_features};
use pagelevel::params::ValidParams;
use pagelevel::pipeline::{Scorer, extract_main_text};
use pagelevel::render::NativeLayout;
use pagelevel::text::paragraphs;

/// Timings per page, the median kept.
const RUNS: usize = 11;

/// WCXB pages read (every 5th of the first 500 by file name: all seven types).
const WCXB_PAGES: usize = 100;

fn main() {
    let datasets = std::env::var_os("DATASETS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets/labeled"),
        PathBuf::from,
    );
    let model = TemplateModel::builtin_for(LayoutEngine::Native).expect("the native model loads");
    let mut scorer = Scorer::new(model, NativeLayout::default(), ValidParams::default());
    let params = ValidParams::default();
    let readability: Vec<Vec<u8>> = html_files_under(&datasets.join("readability/pages"))
        .unwrap_or_default()
        .iter()
        .filter_map(|path| std::fs::read(path).ok())
        .collect();
    let wcxb: Vec<Vec<u8>> = gz_files(&datasets.join("wcxb-dev/html"))
        .iter()
        .step_by(5)
        .take(WCXB_PAGES)
        .filter_map(|path| read_page(path))
        .collect();
    for (set, pages) in [("readability", readability), ("wcxb-dev", wcxb)] {
        let mut typing: Vec<f64> = Vec::new();
        let mut again: Vec<f64> = Vec::new();
        for bytes in pages {
            let Ok(scored) = scorer.score(&PageSource::from_bytes(bytes, None, None)) else {
                continue;
            };
            let page = &scored.laid_out.page;
            typing.push(median_ms(|| {
                let features =
                    page_type_features(page, &scored.segmented.content_text, &scored.extracted);
                std::hint::black_box(PageTypeModel::shipped().guess(&features));
            }));
            if scored.page_type.content_policy() != ContentPolicy::default() {
                again.push(median_ms(|| {
                    let dom = &scored.laid_out.page.dom;
                    let page_paragraphs = paragraphs(dom, &scored.segmented.text_visible);
                    std::hint::black_box(extract_main_text(
                        &scored.laid_out,
                        &scored.segmented,
                        &page_paragraphs,
                        &params,
                    ));
                }));
            }
        }
        report(set, "page typing", &mut typing);
        report(set, "whole extraction of pages typed sure", &mut again);
    }
}

fn gz_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                .filter(|path| path.to_string_lossy().ends_with(".html.gz"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files.truncate(5 * WCXB_PAGES);
    files
}

fn read_page(path: &Path) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    let mut html = Vec::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_end(&mut html)
        .ok()?;
    Some(html)
}

fn median_ms(mut run: impl FnMut()) -> f64 {
    let mut times: Vec<f64> = (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            run();
            started.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times[RUNS / 2]
}

fn report(set: &str, what: &str, times: &mut [f64]) {
    if times.is_empty() {
        println!("{set}: {what}: no pages");
        return;
    }
    times.sort_by(f64::total_cmp);
    let at = |share: f64| times[((times.len() - 1) as f64 * share).round() as usize];
    println!(
        "{set}: {what}, {} pages, ms per page: median {:.3}, p95 {:.3}, max {:.3}",
        times.len(),
        at(0.5),
        at(0.95),
        at(1.0)
    );
}
