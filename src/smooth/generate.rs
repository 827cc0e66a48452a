//! Seeded random smoothing problems shaped like rendered DOM trees, for benchmarks and
//! `pagelevel smooth --bench`: depth capped at [`MAX_DEPTH`] (mean depth about 15–20), sibling
//! runs, and list containers with up to several hundred children, scores that drift from parent to child, areas that shrink with
//! depth, and the paper's default penalty 0.01·A/Aᵢ.
//!
//! The generator is a SplitMix64 of a few lines rather than a `rand` dependency of the library:
//! only reproducibility from a seed is needed, not statistical quality.

use super::SmoothingProblem;
use super::penalty::{Penalty, penalties};

/// Deepest level generated; real pages rarely nest visible boxes deeper.
pub const MAX_DEPTH: u32 = 32;

/// A DOM-shaped problem with `nodes` nodes (at least 1), the same for the same `seed`.
pub fn dom_shaped_problem(nodes: usize, seed: u64) -> SmoothingProblem {
    let nodes = nodes.max(1);
    let mut rng = SplitMix64(seed);
    let mut parent: Vec<Option<usize>> = vec![None];
    let mut depth = vec![0u32];
    let mut area = vec![1280.0 * 5000.0];
    let mut logit = vec![rng.normal()];
    let mut weight = vec![1.0];
    // Children a node still accepts as a list container (a <ul>, a table body): most nodes
    // none, one in fifty a heavy-tailed number up to a few hundred.
    let mut list_room = vec![0u32];
    for node in 1..nodes {
        let last = node - 1;
        let draw = rng.unit();
        let mut p = if draw < 0.3 {
            // Nest inside the node just opened.
            last
        } else if draw < 0.75 || node < 2 {
            // A sibling of the node just opened.
            parent[last].unwrap_or(0)
        } else if draw < 0.9 {
            // Close elements up to the nearest enclosing list and add an item to it.
            let mut list = last;
            while list_room[list] == 0 && list != 0 {
                list = parent[list].unwrap_or(0);
            }
            if list_room[list] > 0 {
                list
            } else {
                parent[last].unwrap_or(0)
            }
        } else {
            // Join the parent of a random node: preferential attachment.
            parent[1 + rng.below(node - 1)].unwrap_or(0)
        };
        while depth[p] + 1 >= MAX_DEPTH {
            p = parent[p].unwrap_or(0);
        }
        list_room[p] = list_room[p].saturating_sub(1);
        list_room.push(if rng.unit() < 0.02 {
            (10.0 / (1.0 - rng.unit()).powf(1.2)).min(600.0) as u32
        } else {
            0
        });
        parent.push(Some(p));
        depth.push(depth[p] + 1);
        area.push(area[p] * (0.35 + 0.6 * rng.unit()));
        logit.push(0.8 * logit[p] + rng.normal());
        weight.push(1.0 + (rng.unit().powi(4) * 6.0).floor());
    }
    let score = logit.iter().map(|l| 1.0 / (1.0 + (-l).exp())).collect();
    let penalty = penalties(&parent, &area, Penalty::default())
        .expect("generated areas are positive and the tree is valid");
    SmoothingProblem::new(&parent, score, weight, penalty)
        .expect("generated problems are valid by construction")
}

/// SplitMix64 (Steele, Lea, Flood 2014): a seeded 64-bit generator.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n.
    fn below(&mut self, n: usize) -> usize {
        ((self.unit() * n as f64) as usize).min(n - 1)
    }

    /// Roughly standard normal (Irwin–Hall with 4 terms), enough for drifting scores.
    fn normal(&mut self) -> f64 {
        ((0..4).map(|_| self.unit()).sum::<f64>() - 2.0) * 3f64.sqrt()
    }
}
