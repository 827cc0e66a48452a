//! The product's main job in one place: a page's bytes in, every node scored, smoothed and
//! segmented, the content separated. [`Scorer`] keeps one browser and one model for many pages.
//!
//! Stage order: parse → render (cached) → features → classify → hide small nodes → smooth →
//! threshold → sections and content text → main text and comments. A failure of one page is that page's error; the
//! scorer stays usable for the next.

use thiserror::Error;

use crate::extract::{Extracted, extract};
use crate::model::TemplateModel;
use crate::render::{PageSource, RenderError, RenderOptions, RenderedPage, Renderer};
use crate::segment::{SegmentError, SegmentOptions, SegmentedPage, paragraphs, segment_page};

/// Why a page could not be scored.
#[derive(Debug, Error)]
pub enum ScoreError {
    #[error(transparent)]
    Render(#[from] RenderError),
    #[error(transparent)]
    Segment(#[from] SegmentError),
}

/// A page with its layout, its verdicts and its main text.
#[derive(Debug, Clone)]
pub struct ScoredPage {
    pub rendered: RenderedPage,
    pub segmented: SegmentedPage,
    pub extracted: Extracted,
}

/// The main text and comments of a segmented page.
pub fn extract_main_text(rendered: &RenderedPage, segmented: &SegmentedPage) -> Extracted {
    let dom = &rendered.page.dom;
    extract(
        dom,
        &paragraphs(dom, &segmented.text_visible),
        &segmented.templateness,
        segmented.threshold,
        &rendered.page.title,
    )
}

/// Scores pages with one reused browser and one model.
pub struct Scorer {
    renderer: Renderer,
    model: TemplateModel,
    options: SegmentOptions,
}

impl Scorer {
    /// A scorer; the browser starts with the first page.
    pub fn new(
        model: TemplateModel,
        render: RenderOptions,
        options: SegmentOptions,
    ) -> Result<Scorer, RenderError> {
        Ok(Scorer {
            renderer: Renderer::new(render)?,
            model,
            options,
        })
    }

    /// Renders and scores one page.
    pub fn score(&mut self, source: &PageSource) -> Result<ScoredPage, ScoreError> {
        let rendered = self.renderer.render(source)?;
        let segmented = segment_page(&rendered, &self.model, &self.options)?;
        let extracted = extract_main_text(&rendered, &segmented);
        Ok(ScoredPage {
            rendered,
            segmented,
            extracted,
        })
    }

    /// The model in use.
    pub fn model(&self) -> &TemplateModel {
        &self.model
    }

    /// The renderer, e.g. to check how many requests its gate refused.
    pub fn renderer(&self) -> &Renderer {
        &self.renderer
    }
}
