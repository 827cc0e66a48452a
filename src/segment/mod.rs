//! Scoring one page end to end, with no site context (Chakrabarti et al., Sections 4–5): the
//! rendered page's features → the area-bucket classifier → small nodes hidden and rolled into
//! their parents → exact isotonic smoothing with γᵢ = c·A/Aᵢ → threshold → template or content
//! per node, sections (where a new smoothed value starts), and the content text.
//!
//! Elements without a layout box (`<head>`, `display: none`) take no part: they are not in the
//! smoothed tree, add no weight, and their text is never content. They still get the decision
//! of their nearest laid-out ancestor, so every node has an answer.

mod floor;
mod text;

use std::time::Instant;

use serde::Serialize;
use thiserror::Error;

use crate::features::{self, PageFeatures};
use crate::model::TemplateModel;
use crate::page::NodeId;
use crate::render::RenderedPage;
use crate::smooth::{
    Algorithm, Penalty, PenaltyError, SmoothError, SmoothingProblem, penalties, roll_up_hidden,
    smooth_with,
};

pub use floor::{ContentFloor, MIN_CONTENT_WORDS, WordsByTemplateness};
pub use text::{Paragraph, content_text, paragraphs, text_visibility, visible_text_chars};

/// Default templateness threshold: a node whose smoothed score reaches it is template. Chosen
/// with `pagelevel eval --sweep-penalty` on kreuzer, cleaneval, cleanportaleval and big9 by the
/// mean of Smooth's template-text, anchor-text, link and main-text F1 (0.25: 0.845, 0.3: 0.825,
/// 0.5: 0.706), with dragnet and l3s-gn1 held out (training/reports/eval/README.md). The models
/// are fitted on balanced classes, so 0.5 is not the natural cut: template nodes are the
/// minority on real pages.
pub const DEFAULT_THRESHOLD: f64 = 0.25;

/// How much each visible node's distance from its score counts in the smoothing objective.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum NodeWeight {
    /// The paper's: 1 + the hidden nodes rolled into the node. Many small, uncertain nodes then
    /// outvote the large block holding them and can lift a whole article above the threshold.
    Count,
    /// The paper's weight × √(area / mean visible area): large, reliably scored boxes count
    /// more, small ones less. Measured with `pagelevel eval` (t = 0.25, c = 0.01), Smooth's
    /// template-text F1 went from below Basic to at or above it on every shared set (dragnet
    /// 0.76 → 0.83, cleaneval 0.55 → 0.58, l3s-gn1 0.77 → 0.80) and Kreuzer's ARI 0.35 → 0.38.
    #[default]
    SqrtArea,
}

/// How a page is scored.
#[derive(Debug, Clone)]
pub struct SegmentOptions {
    pub threshold: f64,
    pub penalty: Penalty,
    pub weight: NodeWeight,
    /// False gives the paper's *Basic*: classifier scores thresholded, no smoothing.
    pub smooth: bool,
    /// Lower the threshold on a page that would otherwise keep less than
    /// [`MIN_CONTENT_WORDS`] words of running text ([`ContentFloor`]); smoothed runs only.
    pub content_floor: bool,
    pub algorithm: Algorithm,
}

impl Default for SegmentOptions {
    fn default() -> Self {
        SegmentOptions {
            threshold: DEFAULT_THRESHOLD,
            penalty: Penalty::default(),
            weight: NodeWeight::default(),
            smooth: true,
            content_floor: true,
            algorithm: Algorithm::Fast,
        }
    }
}

/// Why a page could not be scored.
#[derive(Debug, Error)]
pub enum SegmentError {
    #[error("the page has no laid-out root element")]
    NoLayout,
    #[error(transparent)]
    Penalty(#[from] PenaltyError),
    #[error(transparent)]
    Smooth(#[from] SmoothError),
}

/// The verdict on one element.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct NodeVerdict {
    /// Classifier P(template); `None` for hidden nodes (small or without a box).
    pub score: Option<f64>,
    /// Smoothed templateness; `None` for hidden nodes.
    pub smoothed: Option<f64>,
    pub template: bool,
    /// The root of the section the node belongs to.
    pub section: NodeId,
}

/// A section: a subtree where the smoothed value is constant (minus nested sections).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Section {
    pub id: NodeId,
    pub score: f64,
    pub template: bool,
    /// Visible characters of text belonging to this section (not to a nested one).
    pub text_chars: usize,
}

/// Milliseconds spent in each non-render stage.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct StageTimings {
    pub features_ms: f64,
    pub classify_ms: f64,
    pub smooth_ms: f64,
    pub segment_ms: f64,
}

/// A scored page.
#[derive(Debug, Clone)]
pub struct SegmentedPage {
    pub nodes: Vec<NodeVerdict>,
    pub sections: Vec<Section>,
    /// The smoothed templateness deciding each element: its own, or that of the visible node
    /// it is rolled into (0 for elements outside the laid-out tree).
    pub templateness: Vec<f64>,
    /// The threshold applied on this page: the configured one, or lower on a page that would
    /// otherwise keep less than [`MIN_CONTENT_WORDS`] words of running text ([`ContentFloor`]).
    pub threshold: f64,
    /// Whether each element's own text is seen by a reader ([`text_visibility`]).
    pub text_visible: Vec<bool>,
    /// The page's running text by templateness: the threshold it would apply for any
    /// configured one ([`ContentFloor::threshold_for`]).
    pub floor: ContentFloor,
    pub content_text: String,
    /// Share of the page's visible text characters that are template.
    pub template_text_share: f64,
    /// Objective value of the smoothing (0 for Basic).
    pub smoothing_cost: f64,
    pub timings: StageTimings,
}

/// Scores, smooths and segments one rendered page.
pub fn segment_page(
    rendered: &RenderedPage,
    model: &TemplateModel,
    options: &SegmentOptions,
) -> Result<SegmentedPage, SegmentError> {
    let started = Instant::now();
    let page_features = features::extract(rendered, model.hidden_area);
    let features_done = Instant::now();
    let mut scores = model.score(&page_features);
    let classify_done = Instant::now();

    let laid_out = LaidOutTree::of(rendered, &page_features)?;
    // The root takes part even when tiny; give it a score.
    let root = laid_out.original[0];
    if scores[root].is_none() {
        let area = page_features.area[root];
        scores[root] = Some(
            model
                .bucket_for(area)
                .probability(&page_features.rows[root]),
        );
    }
    let mut area: Vec<f64> = laid_out
        .original
        .iter()
        .map(|&i| page_features.area[i])
        .collect();
    // The root's box can be empty (a page whose body floats or is absolutely placed); the
    // penalties divide by the page's area, so the root stands for the whole laid-out page.
    let page_area = rendered.layout.page_width * rendered.layout.page_height;
    area[0] = area[0].max(page_area).max(1.0);
    let visible = roll_up_hidden(&laid_out.parent, &area, model.hidden_area)?;
    let visible_scores: Vec<f64> = visible
        .original
        .iter()
        .map(|&i| scores[laid_out.original[i]].unwrap_or(0.0).clamp(0.0, 1.0))
        .collect();
    let (smoothed, cost, section_starts) = if options.smooth {
        let gamma = penalties(&visible.parent, &visible.select(&area), options.penalty)?;
        let weight = node_weights(&visible.weight, &visible.select(&area), options.weight);
        let problem = SmoothingProblem::new(&visible.parent, visible_scores, weight, gamma)?;
        let smoothing = smooth_with(&problem, options.algorithm)?;
        (smoothing.smoothed, smoothing.cost, smoothing.sections)
    } else {
        // Basic: a section starts wherever the decision changes from the parent's.
        let decide = |score: f64| score >= options.threshold;
        let starts = (0..visible.len())
            .filter(|&v| {
                visible.parent[v]
                    .is_none_or(|p| decide(visible_scores[v]) != decide(visible_scores[p]))
            })
            .collect();
        (visible_scores, 0.0, starts)
    };
    let smooth_done = Instant::now();

    let dom = &rendered.page.dom;
    // Section root of every visible node: itself if it starts one, else its parent's.
    let mut is_start = vec![false; visible.len()];
    for &v in &section_starts {
        is_start[v] = true;
    }
    let mut section_of_visible = vec![0usize; visible.len()];
    for v in 0..visible.len() {
        section_of_visible[v] = match visible.parent[v] {
            Some(p) if !is_start[v] => section_of_visible[p],
            _ => v,
        };
    }
    let to_node = |v: usize| NodeId(laid_out.original[visible.original[v]] as u32);
    let visible_of = |id: NodeId| visible.representative[laid_out.representative[id.index()]];
    let templateness: Vec<f64> = dom.ids().map(|id| smoothed[visible_of(id)]).collect();
    let text_visible = text_visibility(rendered);
    let page_paragraphs = paragraphs(dom, &text_visible);
    let floor = ContentFloor::of_page(dom, &page_paragraphs, &templateness, &text_visible);
    let threshold = if options.smooth && options.content_floor {
        floor.threshold_for(options.threshold)
    } else {
        options.threshold
    };
    let mut nodes = Vec::with_capacity(dom.len());
    for id in dom.ids() {
        let laid_out_index = laid_out.representative[id.index()];
        let v = visible_of(id);
        let own = laid_out.original[laid_out_index] == id.index()
            && visible.original[v] == laid_out_index;
        nodes.push(NodeVerdict {
            score: if own { scores[id.index()] } else { None },
            smoothed: own.then_some(smoothed[v]),
            template: smoothed[v] >= threshold,
            section: to_node(section_of_visible[v]),
        });
    }
    let template: Vec<bool> = nodes.iter().map(|node| node.template).collect();
    let mut sections: Vec<Section> = section_starts
        .iter()
        .map(|&v| Section {
            id: to_node(v),
            score: smoothed[v],
            template: smoothed[v] >= threshold,
            text_chars: 0,
        })
        .collect();
    sections.sort_by_key(|section| section.id);
    let chars = visible_text_chars(dom, &text_visible);
    let mut template_chars = 0;
    let mut total_chars = 0;
    for (index, count) in chars.iter().enumerate() {
        if *count == 0 {
            continue;
        }
        total_chars += count;
        if template[index] {
            template_chars += count;
        }
        let section = nodes[index].section;
        if let Ok(position) = sections.binary_search_by_key(&section, |s| s.id) {
            sections[position].text_chars += count;
        }
    }
    let content_text = content_text(&page_paragraphs, &template);
    let segment_done = Instant::now();
    let ms = |from: Instant, to: Instant| (to - from).as_secs_f64() * 1000.0;
    Ok(SegmentedPage {
        nodes,
        sections,
        templateness,
        threshold,
        text_visible,
        floor,
        content_text,
        template_text_share: template_chars as f64 / total_chars.max(1) as f64,
        smoothing_cost: cost,
        timings: StageTimings {
            features_ms: ms(started, features_done),
            classify_ms: ms(features_done, classify_done),
            smooth_ms: ms(classify_done, smooth_done),
            segment_ms: ms(smooth_done, segment_done),
        },
    })
}

/// The smoothing weight of each visible node from its roll-up count and its area.
fn node_weights(count: &[f64], area: &[f64], weight: NodeWeight) -> Vec<f64> {
    match weight {
        NodeWeight::Count => count.to_vec(),
        NodeWeight::SqrtArea => {
            let mean_area = area.iter().sum::<f64>() / area.len().max(1) as f64;
            count
                .iter()
                .zip(area)
                .map(|(count, area)| count * (area / mean_area).sqrt().max(1e-6))
                .collect()
        }
    }
}

/// The tree of laid-out elements: elements with a box (and the root), each attached to its
/// nearest laid-out ancestor.
struct LaidOutTree {
    /// Parent among laid-out elements (`None` for the root).
    parent: Vec<Option<usize>>,
    /// DOM index of each laid-out element.
    original: Vec<usize>,
    /// For every DOM element, the laid-out element standing for it (itself or an ancestor).
    representative: Vec<usize>,
}

impl LaidOutTree {
    fn of(
        rendered: &RenderedPage,
        page_features: &PageFeatures,
    ) -> Result<LaidOutTree, SegmentError> {
        let dom = &rendered.page.dom;
        if dom.is_empty() || rendered.layout_box(NodeId(0)).is_none() {
            return Err(SegmentError::NoLayout);
        }
        let mut parent = Vec::new();
        let mut original = Vec::new();
        let mut representative = vec![0usize; dom.len()];
        for id in dom.ids() {
            let index = id.index();
            let above = dom.element(id).parent.map(|p| representative[p.index()]);
            let has_box = page_features.area[index] > 0.0 || rendered.layout_box(id).is_some();
            if index == 0 || has_box {
                representative[index] = original.len();
                parent.push(above);
                original.push(index);
            } else {
                representative[index] = above.unwrap_or(0);
            }
        }
        Ok(LaidOutTree {
            parent,
            original,
            representative,
        })
    }
}

#[cfg(test)]
mod tests;
