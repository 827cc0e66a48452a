//! Smoothing time on DOM-shaped trees: the fast algorithm from 1k to 100k nodes, the paper's
//! reference where its n × m table still fits (`cargo bench --bench smooth`).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pagelevel::smooth::{Algorithm, generate::dom_shaped_problem, smooth_with};

fn smoothing(c: &mut Criterion) {
    let mut group = c.benchmark_group("smooth");
    group.sample_size(10);
    for (nodes, algorithms) in [
        (1_000, &[Algorithm::Fast, Algorithm::Paper][..]),
        (3_000, &[Algorithm::Fast, Algorithm::Paper]),
        (5_000, &[Algorithm::Fast, Algorithm::Paper]),
        (20_000, &[Algorithm::Fast]),
        (100_000, &[Algorithm::Fast]),
    ] {
        let problem = dom_shaped_problem(nodes, 1);
        for &algorithm in algorithms {
            let name = format!("{algorithm:?}").to_lowercase();
            group.bench_with_input(BenchmarkId::new(name, nodes), &problem, |b, problem| {
                b.iter(|| smooth_with(black_box(problem), algorithm).expect("fits in memory"))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, smoothing);
criterion_main!(benches);
