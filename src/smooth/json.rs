//! The JSON form of a smoothing problem and its solution, as `pagelevel smooth` reads and
//! writes them: `{"parent": [-1, 0, …], "score": […], "weight": […] (optional, default 1),
//! "penalty": […]}` in, `{"smoothed": […], "cost": c, "sections": […]}` out.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{SmoothError, Smoothing, SmoothingProblem};

/// Why a JSON smoothing problem was refused.
#[derive(Debug, Error)]
pub enum ProblemJsonError {
    /// Not JSON of the expected shape.
    #[error(
        "not a smoothing problem ({0}): expected JSON {{\"parent\": [...], \"score\": [...], \
         \"weight\": [...] (optional), \"penalty\": [...]}}"
    )]
    Shape(serde_json::Error),
    /// A parent index below -1.
    #[error("parent of node {node} is {parent}; use -1 for the root and a node index otherwise")]
    Parent {
        /// The node.
        node: usize,
        /// Its parent as given.
        parent: i64,
    },
    /// The arrays do not form a valid problem (lengths, a cycle, values out of range).
    #[error("not a valid smoothing problem: {0}")]
    Invalid(#[from] SmoothError),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProblemJson {
    parent: Vec<i64>,
    score: Vec<f64>,
    #[serde(default)]
    weight: Option<Vec<f64>>,
    penalty: Vec<f64>,
}

/// The solution as `pagelevel smooth` writes it.
#[derive(Debug, Serialize)]
pub struct SmoothingJson<'a> {
    /// The smoothed value of every node.
    pub smoothed: &'a [f64],
    /// The objective's value at the optimum.
    pub cost: f64,
    /// The nodes where a new value starts (the root first).
    pub sections: &'a [usize],
}

impl<'a> From<&'a Smoothing> for SmoothingJson<'a> {
    fn from(smoothing: &'a Smoothing) -> SmoothingJson<'a> {
        SmoothingJson {
            smoothed: &smoothing.smoothed,
            cost: smoothing.cost,
            sections: &smoothing.sections,
        }
    }
}

impl SmoothingProblem {
    /// Reads a problem from its JSON form (weights default to 1).
    pub fn from_json(bytes: &[u8]) -> Result<SmoothingProblem, ProblemJsonError> {
        let json: ProblemJson = serde_json::from_slice(bytes).map_err(ProblemJsonError::Shape)?;
        let parent = json
            .parent
            .iter()
            .enumerate()
            .map(|(node, &parent)| match parent {
                -1 => Ok(None),
                parent if parent >= 0 => Ok(Some(parent as usize)),
                parent => Err(ProblemJsonError::Parent { node, parent }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let weight = json.weight.unwrap_or_else(|| vec![1.0; json.score.len()]);
        Ok(SmoothingProblem::new(
            &parent,
            json.score,
            weight,
            json.penalty,
        )?)
    }
}
