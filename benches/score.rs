//! The non-render part of scoring one page — parse, then features, classify, smooth, segment,
//! extract — on real pages rendered once in setup (needs Chromium). Target: ≤ 10 ms median per typical page.
//!
//! `native_whole_score`: the whole score with `--layout native` (parse + Blitz + every stage).
//!
//! Run: `cargo bench --bench score`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use pagelevel::model::LayoutEngine;
use pagelevel::model::TemplateModel;
use pagelevel::page::{Page, PageSource, ParseLimits};
use pagelevel::params::ValidParams;
use pagelevel::pipeline::{Scorer, score_laid_out};
use pagelevel::render::{NativeLayout, RenderOptions, Renderer};

/// Real pages: a news article, a documentation page, a large forum page, the example page.
const PAGES: &[(&str, &str)] = &[
    (
        "news",
        "../shared/datasets/labeled/l3s-gn1/original/01ccc7c5-a1d1-46e1-a5f7-43310df16575.html",
    ),
    (
        "docs",
        "../shared/datasets/sites/python3-docs-sphinx/index.html",
    ),
    (
        "big-news",
        "../shared/datasets/labeled/cleaneval/input/dev-33.html",
    ),
    ("example", "datasets/example/gnu.org/index.html"),
];

fn scoring(criterion: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let model = TemplateModel::builtin().expect("the built-in model loads");
    let mut renderer = Renderer::new(RenderOptions::default()).expect("chromium");
    let params = ValidParams::default();
    let mut group = criterion.benchmark_group("non_render");
    for (name, relative) in PAGES {
        let path = root.join(relative);
        let source = PageSource::from_file(&path, None).expect("the page exists");
        let rendered = renderer.render(&source).expect("renders");
        eprintln!("{name}: {} elements", rendered.page.dom.len());
        group.bench_function(format!("{name}/parse"), |bench| {
            bench.iter(|| {
                Page::parse(
                    black_box(&source.bytes),
                    None,
                    None,
                    &ParseLimits::default(),
                )
            })
        });
        group.bench_function(format!("{name}/every stage after layout"), |bench| {
            bench.iter(|| score_laid_out(black_box(rendered.clone()), &model, &params))
        });
    }
    group.finish();
}

/// The whole score of a page with the native layout: parse, Blitz layout, every stage — what
/// `pagelevel score --layout native` costs per page, no browser. Target: median ≤ 25 ms.
fn native_scoring(criterion: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let model = TemplateModel::builtin_for(LayoutEngine::Native).expect("the native model loads");
    let mut scorer = Scorer::new(model, NativeLayout::default(), ValidParams::default());
    let mut group = criterion.benchmark_group("native_whole_score");
    for (name, relative) in PAGES {
        let source = PageSource::from_file(&root.join(relative), None).expect("the page exists");
        group.bench_function(*name, |bench| {
            bench.iter(|| scorer.score(black_box(&source)))
        });
    }
    group.finish();
}

criterion_group!(benches, scoring, native_scoring);
criterion_main!(benches);
