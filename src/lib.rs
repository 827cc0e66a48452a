//! pagelevel: page-level template detection via isotonic smoothing (Chakrabarti, Kumar, Punera,
//! WWW 2007), with the field's site-level detectors as labellers and baselines.
//!
//! The pipeline, one module per stage (see ARCHITECTURE.md):
//! bytes → [`page`] (decode + parse → arena DOM) → [`layout`] (boxes from a
//! [`layout::LayoutSource`]: Chromium in [`render`], a snapshot, or supplied) → [`features`] →
//! [`model`] (P(template) per node) → [`smooth`] (isotonic DP → sections) → [`segment`]
//! (template vs content) → [`extract`] (main text, comments) → [`output`] / [`report`];
//! [`metadata`] reads a page's title, author, date, language and site name.
//! [`pipeline`] holds the stage order; [`params`] how a page is scored; [`batch`] runs many
//! pages in order on worker threads.
//! [`sitelevel`] detectors label sites for [`train`]; [`fetch`] reads WARC files and crawls;
//! [`eval`] measures everything on human-labelled sets.
//!
//! Scoring a page whose layout the caller already has (here one box per element, as a
//! browser of the caller's would give) needs no browser:
//!
//! ```
//! use pagelevel::prelude::*;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let html = "<html><body><nav><a href='/'>Home</a> <a href='/news'>News</a></nav>\
//!     <article><h1>Rain</h1><p>It rained all day in the valley, and the river rose by a \
//!     metre before the evening came and the farmers moved their animals uphill.</p></article>\
//!     </body></html>";
//! let source = PageSource::from_bytes(html.into(), None, None);
//! let page = Page::parse(&source.bytes, None, None, &ParseLimits::default())?;
//! let boxes = page
//!     .dom
//!     .ids()
//!     .map(|id| Some(LayoutBox { x: 0.0, y: 40.0 * id.0 as f64, width: 1280.0, height: 400.0 }))
//!     .collect();
//! let layout = Layout { boxes, unpainted: Vec::new(), page_width: 1280.0, page_height: 1024.0, viewport: VIEWPORT };
//! let mut scorer = Scorer::new(TemplateModel::builtin()?, SuppliedLayout(layout), ValidParams::default());
//! let scored = scorer.score(&source)?;
//! assert!(scored.segmented.content_text.contains("the river rose"));
//! # Ok(())
//! # }
//! ```
//!
//! [`render::NativeLayout`] lays pages out itself, in-process (the default engine, with the
//! default model); [`render::Renderer`] does it in headless Chromium, with the model trained on
//! Chromium's layouts (its DevTools driver is the `chromium` feature, on by default; without it
//! `Renderer::new` returns [`render::RenderError::NotBuiltIn`]):
//!
//! ```no_run
//! use pagelevel::prelude::*;
//! use pagelevel::model::LayoutEngine;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut scorer = Scorer::new(TemplateModel::builtin()?, NativeLayout::default(), ValidParams::default());
//! let scored = scorer.score(&PageSource::from_file("page.html".as_ref(), None)?)?;
//! println!("{}", scored.segmented.content_text); // everything not template
//! println!("{}", scored.extracted.main_text); // the article alone
//!
//! let chromium = Renderer::new(RenderOptions::default())?;
//! let model = TemplateModel::builtin_for(LayoutEngine::Chromium)?;
//! let mut scorer = Scorer::new(model, chromium, ValidParams::default());
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

/// What a caller scoring pages needs, in one import.
pub mod prelude {
    pub use crate::batch::{PageInput, PlacementOptions, score_batch};
    pub use crate::layout::{
        LaidOutPage, Layout, LayoutBox, LayoutSource, SnapshotLayout, SuppliedLayout, VIEWPORT,
    };
    pub use crate::metadata::{Metadata, page_metadata};
    pub use crate::model::TemplateModel;
    pub use crate::page::{Page, PageSource, ParseLimits};
    pub use crate::params::{ScoringParams, ValidParams};
    pub use crate::pipeline::{ScoreError, ScoredPage, Scorer};
    pub use crate::render::{NativeLayout, RenderOptions, Renderer};
}

pub mod batch;
pub mod eval;
pub mod extract;
pub mod features;
pub mod fetch;
#[doc(hidden)]
pub mod fuzzing;
pub mod layout;
pub mod markdown;
pub mod metadata;
pub mod model;
pub mod output;
pub mod page;
pub mod page_type;
pub mod params;
pub mod pipeline;
pub mod render;
pub mod report;
pub mod segment;
pub mod sitelevel;
pub mod smooth;
pub mod staged;
pub mod text;
pub mod train;

pub use metadata::{Metadata, page_metadata};
