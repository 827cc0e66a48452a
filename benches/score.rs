//! The non-render part of scoring one page — parse, then features, classify, smooth, segment,
//! extract — on real pages rendered once in setup (needs Chromium). Target: ≤ 10 ms median per typical page.
//!
//! Run: `cargo bench --bench score`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group, criterion_main};
use pagelevel::model::TemplateModel;
use pagelevel::page::{Page, PageSource, ParseLimits};
use pagelevel::params::ValidParams;
use pagelevel::pipeline::score_laid_out;
use pagelevel::render::{RenderOptions, Renderer};

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

criterion_group!(benches, scoring);
criterion_main!(benches);
