//! `pagelevel smooth`: exact regularized tree isotonic smoothing of per-node scores, JSON in and
//! JSON out, or (`--bench`) a timing of both algorithms on a generated DOM-shaped tree.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clap::Args;

use super::scoring::AlgorithmArg;

use pagelevel::smooth::{
    Algorithm, Smoothing, SmoothingJson, SmoothingProblem, generate, smooth_with,
};

#[derive(Debug, Args)]
pub struct SmoothArgs {
    /// JSON problem: {"parent": [-1, 0, …], "score": […], "weight": […] (optional, default 1),
    /// "penalty": […]}; standard input when absent.
    #[arg(long, value_name = "FILE")]
    input: Option<PathBuf>,
    /// fast (default), or paper: the published dynamic program, kept as the reference (its
    /// memory grows as nodes × distinct scores).
    #[arg(long, value_enum)]
    algorithm: Option<AlgorithmArg>,
    /// Time the algorithms on a generated DOM-shaped tree instead of reading a problem: both
    /// and their time ratio, or only the one given with --algorithm.
    #[arg(long, conflicts_with = "input")]
    bench: bool,
    /// Nodes of the generated tree (with --bench).
    #[arg(long, default_value_t = 3000, requires = "bench")]
    nodes: usize,
    /// Seed of the generated tree (with --bench).
    #[arg(long, default_value_t = 1, requires = "bench")]
    seed: u64,
    /// Timed runs per algorithm; the median is reported (with --bench).
    #[arg(long, default_value_t = 5, requires = "bench")]
    runs: usize,
}

pub fn run(args: SmoothArgs) -> anyhow::Result<super::Outcome> {
    if args.bench {
        return bench(&args);
    }
    let source = args
        .input
        .as_ref()
        .map_or_else(|| "standard input".to_owned(), |p| p.display().to_string());
    let problem = read_problem(args.input.as_ref(), &source)?;
    let algorithm = args.algorithm.map_or(Algorithm::Fast, Algorithm::from);
    let smoothing =
        smooth_with(&problem, algorithm).with_context(|| format!("cannot smooth {source}"))?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer(&mut out, &SmoothingJson::from(&smoothing))?;
    writeln!(out)?;
    out.flush()?;
    Ok(super::Outcome::Success)
}

fn read_problem(input: Option<&PathBuf>, source: &str) -> anyhow::Result<SmoothingProblem> {
    let bytes = match input {
        Some(path) => std::fs::read(path).with_context(|| format!("cannot read {source}"))?,
        None => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .with_context(|| format!("cannot read {source}"))?;
            bytes
        }
    };
    SmoothingProblem::from_json(&bytes).with_context(|| format!("{source} is refused"))
}

fn bench(args: &SmoothArgs) -> anyhow::Result<super::Outcome> {
    if args.runs == 0 {
        bail!("--runs must be at least 1");
    }
    let problem = generate::dom_shaped_problem(args.nodes, args.seed);
    let tree = problem.tree();
    let depth = tree.depths().into_iter().max().unwrap_or(0);
    let fan_out = (0..tree.len())
        .map(|i| tree.children(i).len())
        .max()
        .unwrap_or(0);
    let mut distinct = problem.score().to_vec();
    distinct.sort_by(f64::total_cmp);
    distinct.dedup();
    println!(
        "tree: {} nodes, depth {depth}, widest fan-out {fan_out}, {} distinct scores \
         (DOM-shaped, seed {})",
        problem.len(),
        distinct.len(),
        args.seed
    );
    let algorithms = match args.algorithm {
        Some(choice) => vec![Algorithm::from(choice)],
        None => vec![Algorithm::Fast, Algorithm::Paper],
    };
    let mut results = Vec::new();
    for algorithm in algorithms {
        let (time, smoothing) = median_time(&problem, algorithm, args.runs)?;
        println!(
            "{:<5}  {:>10.3} ms  cost {:.9}  {} sections  (median of {} runs)",
            name(algorithm),
            time.as_secs_f64() * 1e3,
            smoothing.cost,
            smoothing.sections.len(),
            args.runs
        );
        results.push((time, smoothing));
    }
    if let [(fast_time, fast), (paper_time, paper)] = &results[..] {
        println!(
            "paper / fast time ratio: {:.1}",
            paper_time.as_secs_f64() / fast_time.as_secs_f64().max(1e-9)
        );
        let gap = (fast.cost - paper.cost).abs() / paper.cost.abs().max(1.0);
        if gap > 1e-9 {
            eprintln!(
                "pagelevel: the optima differ: fast cost {}, paper cost {} (relative gap {gap:e})",
                fast.cost, paper.cost
            );
            return Ok(super::Outcome::SomeFailed);
        }
    }
    Ok(super::Outcome::Success)
}

fn median_time(
    problem: &SmoothingProblem,
    algorithm: Algorithm,
    runs: usize,
) -> anyhow::Result<(Duration, Smoothing)> {
    let mut times = Vec::with_capacity(runs);
    let mut smoothing = None;
    for _ in 0..runs {
        let start = Instant::now();
        let result = smooth_with(problem, algorithm)?;
        times.push(start.elapsed());
        smoothing = Some(result);
    }
    times.sort();
    let smoothing = smoothing.context("at least one run")?;
    Ok((times[times.len() / 2], smoothing))
}

fn name(algorithm: Algorithm) -> &'static str {
    match algorithm {
        Algorithm::Fast => "fast",
        Algorithm::Paper => "paper",
    }
}
