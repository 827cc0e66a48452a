//! Segmentation: a smoothed page → the threshold applied (lowered by the content floor where it
//! would leave no content) → template or content per element, the sections (where a new
//! smoothed value starts) with their text, and the content text. Text of elements without a
//! box is never content.

mod floor;

use serde::Serialize;

use crate::layout::LaidOutPage;
use crate::page::NodeId;
use crate::params::ValidParams;
use crate::smooth::SmoothedPage;
use crate::text::{
    Paragraph, content_text, paragraphs, subtree_words, text_visibility, visible_text_chars,
};

pub use floor::{ContentFloor, MIN_CONTENT_WORDS, WordsByTemplateness};

/// The verdict on one element.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct NodeVerdict {
    /// Classifier P(template); `None` for hidden nodes (small or without a box).
    pub score: Option<f64>,
    /// Smoothed templateness; `None` for hidden nodes.
    pub smoothed: Option<f64>,
    /// True when the element is template on this page: its templateness ≥ the page's
    /// threshold, unless the main text overrules it (`pipeline::main_text_overrules`).
    pub template: bool,
    /// The root of the section the node belongs to.
    pub section: NodeId,
    /// The root of the region (one of the page's few large blocks) the node belongs to.
    pub region: NodeId,
}

/// A section: a subtree where the smoothed value is constant (minus nested sections).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Section {
    /// The id of the section's root element.
    #[schemars(with = "u32")]
    pub id: NodeId,
    /// The section's smoothed templateness, in [0, 1].
    pub score: f64,
    /// True when the section is template on this page: `score` ≥ the page's threshold, unless
    /// the main text overrules it (`pipeline::main_text_overrules`).
    pub template: bool,
    /// Visible characters of text belonging to this section (not to a nested one).
    pub text_chars: usize,
    /// The id of the root element of the region holding the section (one of the page's few
    /// large blocks: header, content, a side column, footer).
    #[schemars(with = "u32")]
    pub region: NodeId,
}

/// A scored page.
#[derive(Debug, Clone)]
pub struct SegmentedPage {
    /// The verdict on every element, indexed by [`NodeId::index`].
    pub nodes: Vec<NodeVerdict>,
    /// The sections in document order.
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
    /// All visible text not marked template, paragraphs separated by blank lines.
    pub content_text: String,
    /// Share of the page's visible text characters that are template.
    pub template_text_share: f64,
    /// Objective value of the smoothing (0 for Basic).
    pub smoothing_cost: f64,
}

/// Applies the threshold to a smoothed page: verdicts, sections and the content text.
pub fn segment(
    laid_out: &LaidOutPage,
    smoothed: &SmoothedPage,
    params: &ValidParams,
) -> SegmentedPage {
    let dom = &laid_out.page.dom;
    let templateness = smoothed.templateness.clone();
    let text_visible = text_visibility(laid_out);
    let page_paragraphs = paragraphs(dom, &text_visible);
    let floor = ContentFloor::of_page(dom, &page_paragraphs, &templateness, &text_visible);
    let threshold = if params.smooth && params.content_floor {
        floor.threshold_for(params.threshold)
    } else {
        params.threshold
    };
    let mut nodes: Vec<NodeVerdict> = dom
        .ids()
        .map(|id| NodeVerdict {
            score: smoothed.scores[id.index()],
            smoothed: smoothed.own_smoothed[id.index()],
            template: templateness[id.index()] >= threshold,
            section: smoothed.section_of[id.index()],
            region: smoothed.region_of[id.index()],
        })
        .collect();
    let mut smoothed_sections = smoothed.sections.clone();
    judge_root_leftovers(
        laid_out,
        &mut nodes,
        &templateness,
        &mut smoothed_sections,
        threshold,
        &text_visible,
    );
    let template: Vec<bool> = nodes.iter().map(|node| node.template).collect();
    let mut sections: Vec<Section> = smoothed_sections
        .iter()
        .map(|&(id, score)| Section {
            id,
            score,
            template: score >= threshold,
            text_chars: 0,
            region: smoothed.region_of[id.index()],
        })
        .collect();
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
    SegmentedPage {
        nodes,
        sections,
        templateness,
        threshold,
        text_visible,
        floor,
        content_text,
        template_text_share: template_chars as f64 / total_chars.max(1) as f64,
        smoothing_cost: smoothed.cost,
    }
}

/// The segmented page with each of `verdicts`' elements given its verdict (`true`: template)
/// whatever its templateness: where the main-text model's choice overrules the segmentation (an
/// article's block smoothed just above the threshold is still the article; a related-stories
/// box smoothed just under it is not). A section whose overruled elements all agree takes
/// their verdict whole; in a section where they disagree, each run of elements with the other
/// verdict than the section's becomes a section of its own, so that a section keeps one
/// verdict. The content text and the template share follow.
pub fn with_overruled_verdicts(
    laid_out: &LaidOutPage,
    segmented: &mut SegmentedPage,
    page_paragraphs: &[Paragraph],
    verdicts: &[(NodeId, bool)],
) {
    let dom = &laid_out.page.dom;
    let position_of = |sections: &[Section], id: NodeId| {
        sections
            .binary_search_by_key(&id, |section| section.id)
            .expect("every node's section is a section")
    };
    // What the overruled elements of each section say: (any content, any template).
    let mut said = vec![(false, false); segmented.sections.len()];
    let mut overruled: Vec<Option<bool>> = vec![None; segmented.nodes.len()];
    for &(id, template) in verdicts {
        let Some(node) = segmented.nodes.get(id.index()) else {
            continue;
        };
        overruled[id.index()] = Some(template);
        let position = position_of(&segmented.sections, node.section);
        if template {
            said[position].1 = true;
        } else {
            said[position].0 = true;
        }
    }
    // An element the overrule names no verdict for (a list holding links, a wrapper) takes the
    // one its overruled descendants agree on, so that a run starts at the list, not at each item.
    let mut below = vec![(false, false); segmented.nodes.len()];
    for id in dom.ids().rev() {
        let mut flags = below[id.index()];
        match overruled[id.index()] {
            Some(true) => flags.1 = true,
            Some(false) => flags.0 = true,
            None => {}
        }
        if let Some(parent) = dom.element(id).parent
            && let Some(parent_flags) = below.get_mut(parent.index())
        {
            parent_flags.0 |= flags.0;
            parent_flags.1 |= flags.1;
        }
        if overruled[id.index()].is_none() && flags.0 != flags.1 {
            overruled[id.index()] = Some(flags.1);
        }
        // An element holding content is not template for its own few words (a kicker above
        // the article it wraps): it would make a template section as large as the article.
        if overruled[id.index()] == Some(true) && below[id.index()].0 {
            overruled[id.index()] = None;
        }
    }
    let before: Vec<bool> = segmented.nodes.iter().map(|node| node.template).collect();
    for (section, &(content, template)) in segmented.sections.iter_mut().zip(&said) {
        if content != template {
            section.template = template;
        }
    }
    let section_verdict: Vec<bool> = segmented
        .sections
        .iter()
        .map(|section| section.template)
        .collect();
    for (index, node) in segmented.nodes.iter_mut().enumerate() {
        let section_template = section_verdict[position_of(&segmented.sections, node.section)];
        node.template = overruled[index].unwrap_or(section_template);
    }
    if segmented
        .nodes
        .iter()
        .zip(&before)
        .all(|(node, &template)| node.template == template)
    {
        return;
    }
    // In a mixed section, each run of elements against its verdict (one whose parent is not
    // against it alike, and those under it) becomes a section of its own.
    let original_sections = segmented.sections.clone();
    for id in dom.ids() {
        let node = &segmented.nodes[id.index()];
        let template = node.template;
        let section = &original_sections[position_of(&original_sections, node.section)];
        if section.template == template {
            continue;
        }
        if id == section.id {
            // A mixed section's root keeps the section's verdict: a section has one.
            segmented.nodes[id.index()].template = section.template;
            continue;
        }
        let root = match dom.element(id).parent {
            Some(parent)
                if segmented.nodes[parent.index()].template == template
                    && segmented.nodes[parent.index()].section != section.id =>
            {
                segmented.nodes[parent.index()].section
            }
            _ => {
                segmented.sections.push(Section {
                    id,
                    score: segmented.templateness[id.index()],
                    template,
                    text_chars: 0,
                    region: segmented.nodes[id.index()].region,
                });
                id
            }
        };
        segmented.nodes[id.index()].section = root;
    }
    segmented.sections.sort_by_key(|section| section.id);
    let template: Vec<bool> = segmented.nodes.iter().map(|node| node.template).collect();
    let chars = visible_text_chars(dom, &segmented.text_visible);
    for section in &mut segmented.sections {
        section.text_chars = 0;
    }
    for (index, count) in chars.iter().enumerate() {
        let section = segmented.nodes[index].section;
        if let Ok(position) = segmented
            .sections
            .binary_search_by_key(&section, |section| section.id)
        {
            segmented.sections[position].text_chars += count;
        }
    }
    let total: usize = chars.iter().sum();
    let template_chars: usize = chars
        .iter()
        .zip(&template)
        .filter(|(_, template)| **template)
        .map(|(count, _)| count)
        .sum();
    segmented.template_text_share = template_chars as f64 / total.max(1) as f64;
    segmented.content_text = content_text(page_paragraphs, &template);
}

/// The root section's leftovers judged on their own: where the root section holds no running
/// text of its own (under [`MIN_CONTENT_WORDS`] words outside links), it holds what the
/// smoothing rolled into the page itself — a skip-link bar, a language bar, a cookie notice, a
/// stray link list — too small to pay for a section of their own, so they share the page root's
/// low templateness. An element of the root section below `<body>`, with no other section inside it,
/// whose own classifier score reaches the threshold becomes a section of its own at that score
/// (at least its old value, so no child falls below its parent): template, with everything
/// under it.
fn judge_root_leftovers(
    laid_out: &LaidOutPage,
    nodes: &mut [NodeVerdict],
    templateness: &[f64],
    sections: &mut Vec<(NodeId, f64)>,
    threshold: f64,
    text_visible: &[bool],
) {
    let dom = &laid_out.page.dom;
    let Some(root_section) = nodes.first().map(|node| node.section) else {
        return;
    };
    let is_candidate = |id: NodeId| {
        let node = nodes[id.index()];
        node.section == root_section
            && node.score.is_some_and(|score| score >= threshold)
            && LEFTOVER_CONTAINERS.contains(&dom.element(id).tag.as_str())
    };
    // Most pages have none: spare them the word counts below.
    if !dom.ids().any(is_candidate) {
        return;
    }
    // Whether an element is, or holds, an element of another section: such elements are not
    // leftovers.
    let mut holds_other_section = vec![false; dom.len()];
    for id in dom.ids().rev() {
        if nodes[id.index()].section != root_section {
            holds_other_section[id.index()] = true;
        }
        if holds_other_section[id.index()]
            && let Some(parent) = dom.element(id).parent
        {
            holds_other_section[parent.index()] = true;
        }
    }
    let in_link = dom.within_links();
    let words = SubtreeWords::of(dom, &in_link);
    let mut leftovers: Vec<(NodeId, f64)> = Vec::new();
    let mut id = NodeId(0);
    while id.index() < dom.len() {
        let element = dom.element(id);
        let is_leftover =
            is_candidate(id) && !holds_other_section[id.index()] && !words.holds_running_text(id);
        if is_leftover {
            let score = nodes[id.index()].score.unwrap_or(0.0);
            leftovers.push((id, score.max(templateness[id.index()])));
            id = element.subtree_end;
        } else {
            id = NodeId(id.0 + 1);
        }
    }
    // The content floor's promise holds: a page keeps at least a sentence of content (a page of
    // one short paragraph in its root section would otherwise lose it as a leftover).
    if leftovers.is_empty() {
        return;
    }
    let mut in_leftover = vec![false; dom.len()];
    for &(leftover, _) in &leftovers {
        in_leftover[leftover.index()..dom.element(leftover).subtree_end.index()].fill(true);
    }
    let kept_words: usize = dom
        .texts
        .iter()
        .filter(|text| {
            let parent = text.parent.index();
            text_visible[parent] && !nodes[parent].template && !in_leftover[parent]
        })
        .map(|text| crate::text::count_words(&text.text))
        .sum();
    if kept_words < floor::NO_CONTENT_BELOW {
        return;
    }
    for (leftover, value) in leftovers {
        for inside in leftover.0..dom.element(leftover).subtree_end.0 {
            let node = &mut nodes[inside as usize];
            node.section = leftover;
            node.template = true;
            node.smoothed = node.smoothed.map(|smoothed| smoothed.max(value));
        }
        let at = sections.partition_point(|(section, _)| *section < leftover);
        sections.insert(at, (leftover, value));
    }
}

/// The elements that can be leftovers: blocks that hold a bar, a notice or a list. Headings,
/// paragraphs, list items and inline elements are parts of whatever holds them (an article in
/// the root section keeps its short headings and its links).
const LEFTOVER_CONTAINERS: &[&str] = &[
    "div", "section", "aside", "nav", "header", "footer", "ul", "ol", "menu", "form", "table",
    "dl", "details",
];

/// A leftover longer than this many words, mostly not links, is running text: the classifier's
/// score alone does not make it template (article text sits at 0.25-0.4 on some sets).
const MAX_LEFTOVER_WORDS: usize = 30;

/// Words and link words of each element's subtree (all text, as the DOM holds it).
struct SubtreeWords {
    words: Vec<usize>,
    link_words: Vec<usize>,
}

impl SubtreeWords {
    fn of(dom: &crate::page::Dom, in_link: &[bool]) -> SubtreeWords {
        SubtreeWords {
            words: subtree_words(dom, |_| true),
            link_words: subtree_words(dom, |parent| in_link[parent.index()]),
        }
    }

    /// Whether `id`'s subtree holds running text: more than [`MAX_LEFTOVER_WORDS`] words,
    /// under half of them in links.
    fn holds_running_text(&self, id: NodeId) -> bool {
        let (words, link_words) = (self.words[id.index()], self.link_words[id.index()]);
        words > MAX_LEFTOVER_WORDS && link_words * 2 < words
    }
}

#[cfg(test)]
mod tests;
