//! pagelevel: page-level template detection via isotonic smoothing (Chakrabarti, Kumar, Punera,
//! WWW 2007), with the field's site-level detectors as labellers and baselines.
//!
//! The pipeline, one module per stage (see ARCHITECTURE.md):
//! bytes → [`page`] (decode + parse → arena DOM) → [`render`] (Chromium → boxes) → features →
//! model → [`smooth`] (isotonic DP → sections) → template vs content.

pub mod eval;
pub mod page;
pub mod features;
pub mod model;
pub mod render;
pub mod sitelevel;
pub mod smooth;
pub mod segment;
pub mod pipeline;
pub mod output;
pub mod report;
pub mod train;
pub mod fetch;
