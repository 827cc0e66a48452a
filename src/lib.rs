//! pagelevel: page-level template detection via isotonic smoothing (Chakrabarti, Kumar, Punera,
//! WWW 2007), with the field's site-level detectors as labellers and baselines.
//!
//! The pipeline, one module per stage (see ARCHITECTURE.md):
//! bytes → [`page`] (decode + parse → arena DOM) → [`render`] (Chromium → boxes) → [`features`]
//! → [`model`] (P(template) per node) → [`smooth`] (isotonic DP → sections) → [`segment`]
//! (template vs content) → [`extract`] (main text, comments) → [`output`] / [`report`].
//! [`pipeline::Scorer`] runs it for many pages.
//! [`sitelevel`] detectors label sites for [`train`]; [`fetch`] reads WARC files and crawls;
//! [`eval`] measures everything on human-labelled sets.
//!
//! ```no_run
//! use pagelevel::model::TemplateModel;
//! use pagelevel::pipeline::Scorer;
//! use pagelevel::render::{PageSource, RenderOptions};
//! use pagelevel::segment::SegmentOptions;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut scorer = Scorer::new(TemplateModel::builtin()?, RenderOptions::default(), SegmentOptions::default())?;
//! let scored = scorer.score(&PageSource::from_file("page.html".as_ref(), None)?)?;
//! println!("{}", scored.segmented.content_text); // everything not template
//! println!("{}", scored.extracted.main_text); // the article alone
//! # Ok(())
//! # }
//! ```

pub mod eval;
pub mod extract;
pub mod features;
pub mod fetch;
pub mod model;
pub mod output;
pub mod page;
pub mod pipeline;
pub mod render;
pub mod report;
pub mod segment;
pub mod sitelevel;
pub mod smooth;
pub mod train;
