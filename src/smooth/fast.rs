//! The fast exact algorithm: the paper's dynamic program on piecewise-linear functions.
//!
//! For a node `v`, let `g_v(s)` be the optimal cost of `v`'s subtree when `y(v) = s`, not counting
//! `v`'s own section penalty, and `f_v(t)` the optimal cost of the subtree when the parent has
//! value `t`:
//!
//! ```text
//!     g_v(s) = w(v)·|x(v) − s| + Σ_{children u} f_u(s)
//!     f_v(t) = min( g_v(t),  γ(v) + min_{s ≥ t} g_v(s) )      (continue, or start a section)
//! ```
//!
//! The paper tabulates both at all m candidates for every node (n·m). Here each function lives
//! on the candidates but is stored by its *knots*: candidates where its slope (in the candidate
//! value) changes; between two knots it is linear. A knot of `g_v` comes from `x(v)` or from a
//! knot of a child's `f_u`, and `f_v` adds at most two knots where `g_v` crosses the level
//! `γ(v) + min_{s ≥ t} g_v(s)` — so a function has about as many knots as its subtree has
//! nodes. The suffix minimum needs no heap: on a linear piece the minimum is at an end, so one
//! backward pass over the knots gives it. Summing the children is a sort of their knots' slope
//! and value changes. Total work is O(Σ subtree sizes · log) = O(n · depth · log); on a path-like
//! tree that degrades to the paper's O(n²), never worse.
//!
//! The solution is recovered top-down from the stored `g_v` knots (with their suffix minima):
//! given the parent's value `t`, one binary search finds `g_v(t)` and the best larger value, so
//! no n × m decision table is kept. Memory is O(Σ knots) = O(n · depth).
//!
//! That is small for pages (300,000 elements of depth ~30: ~6 million knots, ~250 MB) but
//! quadratic on a path: a 20,000-node chain stores ~10⁸ knots (3.9 GB, a minute) and a
//! 100,000-node one cannot be allocated. So before anything is allocated the knots are
//! estimated — a node's function has about one knot per node of its subtree, never more than one
//! per candidate: Σ_v min(size(v) + 2, m) — and a problem whose estimate exceeds
//! [`FAST_MEMORY_LIMIT_BYTES`] is refused; the knots actually stored are held to the same limit.

use super::error::SmoothError;
use super::{Candidates, SmoothingProblem};

/// Most memory the fast algorithm may use for its knots: 2 GiB, room for a page of 300,000
/// elements nested ~100 deep on average. A problem estimated beyond it is refused before it is
/// attempted.
pub const FAST_MEMORY_LIMIT_BYTES: u64 = 2 << 30;

/// Bytes per stored knot, counted for the limit: a [`SubtreeKnot`] and as much again for the
/// growth of the vector holding them (and the transient child functions).
const BYTES_PER_KNOT: u64 = 2 * std::mem::size_of::<SubtreeKnot>() as u64;

/// The knots the limit allows.
const KNOT_LIMIT: u64 = FAST_MEMORY_LIMIT_BYTES / BYTES_PER_KNOT;

/// A corner of a piecewise-linear function over the candidates: from candidate `at` to the next
/// knot the function is `value + slope·(c − values[at])`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Knot {
    at: u32,
    value: f64,
    slope: f64,
}

/// A knot of `g_v` with the minimum of `g_v` over this and all later candidates, and where it is
/// reached (the leftmost such candidate).
#[derive(Debug, Clone, Copy)]
struct SubtreeKnot {
    knot: Knot,
    suffix_min: f64,
    suffix_argmin: u32,
}

/// A change applied at candidate `at` while summing functions: the value jumps by `value` (only
/// rounding corrections after the first knot) and the slope by `slope`.
#[derive(Debug, Clone, Copy)]
struct Change {
    at: u32,
    value: f64,
    slope: f64,
}

/// The refusal of a problem whose knots (estimated or stored) pass [`KNOT_LIMIT`].
fn too_large(problem: &SmoothingProblem, candidates: &Candidates, knots: u64) -> SmoothError {
    const GIB: f64 = (1u64 << 30) as f64;
    let tree = problem.tree();
    let mut depth = vec![0u32; problem.len()];
    for &node in &tree.preorder()[1..] {
        let v = node as usize;
        depth[v] = tree.parent(v).map_or(0, |parent| depth[parent] + 1);
    }
    SmoothError::FastTooLarge {
        nodes: problem.len(),
        depth: depth.iter().copied().max().unwrap_or(0),
        candidates: candidates.values.len(),
        gib: (knots * BYTES_PER_KNOT) as f64 / GIB,
        limit_gib: FAST_MEMORY_LIMIT_BYTES as f64 / GIB,
    }
}

/// The estimated knots of all `g_v`: Σ_v min(size(v) + 2, m).
fn estimated_knots(problem: &SmoothingProblem, candidates: &Candidates) -> u64 {
    let tree = problem.tree();
    let mut size = vec![1u64; problem.len()];
    let m = candidates.values.len() as u64;
    let mut knots = 0u64;
    for &node in tree.preorder().iter().rev() {
        let v = node as usize;
        knots = knots.saturating_add((size[v] + 2).min(m.max(1)));
        if let Some(parent) = tree.parent(v) {
            size[parent] += size[v];
        }
    }
    knots
}

/// Returns, for every node, the index of its smoothed value among the candidates; refuses a
/// problem whose knots would pass [`FAST_MEMORY_LIMIT_BYTES`].
pub(super) fn solve(
    problem: &SmoothingProblem,
    candidates: &Candidates,
) -> Result<Vec<u32>, SmoothError> {
    let estimate = estimated_knots(problem, candidates);
    if estimate > KNOT_LIMIT {
        return Err(too_large(problem, candidates, estimate));
    }
    let tree = problem.tree();
    let (x, w, gamma) = (problem.score(), problem.weight(), problem.penalty());
    let values = &candidates.values[..];
    let n = problem.len();

    // f_u of finished nodes, taken by the parent when it is processed.
    let mut cost_to_go: Vec<Vec<Knot>> = vec![Vec::new(); n];
    // g_v of every node, for the top-down recovery.
    let mut subtree_knots: Vec<SubtreeKnot> = Vec::new();
    let mut subtree_range = vec![0..0; n];
    let mut changes = Vec::new();
    let mut g = Vec::new();

    for &node in tree.preorder().iter().rev() {
        let v = node as usize;
        changes.clear();
        let rank = candidates.rank[v];
        changes.push(Change {
            at: 0,
            value: w[v] * (x[v] - values[0]),
            slope: -w[v],
        });
        changes.push(Change {
            at: rank,
            value: 0.0,
            slope: 2.0 * w[v],
        });
        for &child in tree.children(v) {
            let f = std::mem::take(&mut cost_to_go[child as usize]);
            push_changes(&f, values, &mut changes);
        }
        sum_changes(&mut changes, values, &mut g);

        let start = subtree_knots.len();
        // The estimate is not a proof: the knots actually stored are held to the limit too.
        if (start + g.len()) as u64 > KNOT_LIMIT {
            return Err(too_large(problem, candidates, (start + g.len()) as u64));
        }
        subtree_knots.extend(g.iter().map(|&knot| SubtreeKnot {
            knot,
            suffix_min: knot.value,
            suffix_argmin: knot.at,
        }));
        let stored = &mut subtree_knots[start..];
        for k in (0..stored.len().saturating_sub(1)).rev() {
            let later = stored[k + 1];
            // `<` keeps the leftmost minimum: the smallest value that is optimal.
            if later.suffix_min < stored[k].suffix_min {
                stored[k].suffix_min = later.suffix_min;
                stored[k].suffix_argmin = later.suffix_argmin;
            }
        }
        subtree_range[v] = start..start + stored.len();
        if tree.parent(v).is_some() {
            cost_to_go[v] = continue_or_start_section(stored, gamma[v], values);
        }
    }

    // Top-down: the root takes g's minimum; every other node continues its parent's value
    // unless a new section at the best larger value is cheaper by more than its penalty.
    let mut choice = vec![0u32; n];
    choice[tree.root()] = subtree_knots[subtree_range[tree.root()].start].suffix_argmin;
    for &node in &tree.preorder()[1..] {
        let v = node as usize;
        let parent = tree.parent(v).expect("only the root lacks a parent");
        let t = choice[parent];
        let knots = &subtree_knots[subtree_range[v].clone()];
        let piece = knots.partition_point(|k| k.knot.at <= t) - 1;
        let continued = evaluate(&knots[piece].knot, t, values);
        choice[v] = match knots.get(piece + 1) {
            Some(later) if continued > gamma[v] + later.suffix_min => later.suffix_argmin,
            _ => t,
        };
    }
    Ok(choice)
}

/// The changes that add the function with knots `f` to a sum.
fn push_changes(f: &[Knot], values: &[f64], changes: &mut Vec<Change>) {
    let mut previous: Option<&Knot> = None;
    for knot in f {
        let change = match previous {
            None => Change {
                at: knot.at,
                value: knot.value,
                slope: knot.slope,
            },
            Some(before) => Change {
                at: knot.at,
                value: knot.value - evaluate(before, knot.at, values),
                slope: knot.slope - before.slope,
            },
        };
        changes.push(change);
        previous = Some(knot);
    }
}

/// Sums `changes` (sorted here) into the knots of one function, always with a knot at the first
/// and the last candidate so that every linear piece has both ends stored.
fn sum_changes(changes: &mut [Change], values: &[f64], g: &mut Vec<Knot>) {
    // The changes arrive as one sorted run per child; the stable sort detects and merges runs,
    // which measured about twice as fast as the unstable sort here.
    changes.sort_by_key(|change| change.at);
    g.clear();
    let mut current = Knot {
        at: 0,
        value: 0.0,
        slope: 0.0,
    };
    let mut next = 0;
    while next < changes.len() {
        let at = changes[next].at;
        current.value = evaluate(&current, at, values);
        current.at = at;
        let (mut jump, mut bend) = (0.0, 0.0);
        while next < changes.len() && changes[next].at == at {
            jump += changes[next].value;
            bend += changes[next].slope;
            next += 1;
        }
        current.value += jump;
        current.slope += bend;
        if at == 0 || jump != 0.0 || bend != 0.0 {
            g.push(current);
        }
    }
    let last = (values.len() - 1) as u32;
    if g.last().is_none_or(|knot| knot.at != last) {
        g.push(Knot {
            at: last,
            value: evaluate(&current, last, values),
            slope: 0.0,
        });
    }
}

/// `f_v(t) = min(g_v(t), γ + min_{s ≥ t} g_v(s))` from the knots of `g_v`. On the piece from knot
/// `k` to knot `k + 1` the suffix minimum of `g_v` at `t` is `min(g_v(t), suffix_min[k + 1])`,
/// so `f_v` is `g_v` capped at the constant `level = γ + suffix_min[k + 1]`: at most two new
/// knots per piece, at the candidates on either side of the crossing.
fn continue_or_start_section(g: &[SubtreeKnot], gamma: f64, values: &[f64]) -> Vec<Knot> {
    let mut f = Vec::with_capacity(g.len() + 2);
    for pair in g.windows(2) {
        let (a, b) = (pair[0].knot, pair[1].knot);
        let level = gamma + pair[1].suffix_min;
        let piece = &values[a.at as usize..b.at as usize];
        let at_a = values[a.at as usize];
        let below = |c: f64| a.value + a.slope * (c - at_a) <= level;
        if a.value <= level && b.value <= level {
            push_knot(&mut f, a, values);
        } else if a.value >= level && b.value >= level {
            push_knot(&mut f, flat(a.at, level), values);
        } else if a.value < level {
            // Rising through the level: g up to candidate k, then the level.
            let k = a.at + piece.partition_point(|&c| below(c)) as u32 - 1;
            let at_k = evaluate(&a, k, values);
            push_knot(&mut f, a, values);
            let step = values[k as usize + 1] - values[k as usize];
            push_knot(&mut f, knot(k, at_k, (level - at_k) / step), values);
            if k + 1 < b.at {
                push_knot(&mut f, flat(k + 1, level), values);
            }
        } else {
            // Falling through the level: the level up to candidate k − 1, then g from k.
            let k = a.at + 1 + piece[1..].partition_point(|&c| !below(c)) as u32;
            let at_k = if k == b.at {
                b.value
            } else {
                evaluate(&a, k, values)
            };
            push_knot(&mut f, flat(a.at, level), values);
            let step = values[k as usize] - values[k as usize - 1];
            push_knot(&mut f, knot(k - 1, level, (at_k - level) / step), values);
            if k < b.at {
                push_knot(&mut f, knot(k, at_k, a.slope), values);
            }
        }
    }
    let end = g
        .last()
        .expect("a function has a knot at the first candidate")
        .knot;
    // At the last candidate no larger value exists: continuing is optimal.
    push_knot(&mut f, flat(end.at, end.value), values);
    f
}

fn knot(at: u32, value: f64, slope: f64) -> Knot {
    Knot { at, value, slope }
}

fn flat(at: u32, value: f64) -> Knot {
    knot(at, value, 0.0)
}

/// Appends `knot`, replacing a knot at the same candidate and dropping it when it only
/// continues the previous piece.
fn push_knot(f: &mut Vec<Knot>, knot: Knot, values: &[f64]) {
    if let Some(last) = f.last_mut() {
        if last.at == knot.at {
            *last = knot;
            return;
        }
        if last.slope == knot.slope && evaluate(last, knot.at, values) == knot.value {
            return;
        }
    }
    f.push(knot);
}

/// The linear piece starting at `knot`, evaluated at candidate `at`.
fn evaluate(knot: &Knot, at: u32, values: &[f64]) -> f64 {
    if knot.at == at {
        knot.value
    } else {
        knot.value + knot.slope * (values[at as usize] - values[knot.at as usize])
    }
}
