//! Evaluating one rendered, labelled page: the detector runs once per variant ([`PageRuns`]),
//! then every variant is scored against the page's gold ([`PageRuns::evaluate`]) — twice for
//! L3S-GN1, whose standard and strict label mappings share the runs.
//!
//! Thresholds are applied here rather than in the detector: the smoothing does not depend on the
//! threshold, so one smoothing per penalty serves the whole threshold grid of a sweep.

use crate::features;
use crate::layout::LaidOutPage;
use crate::model::TemplateModel;
use crate::page::{Dom, NodeId, Page};
use crate::params::{ScoringParams, ValidParams};
use crate::pipeline::{ScoreError, extract_main_text, main_text_overrules};
use crate::segment::{ContentFloor, SegmentedPage, segment};
use crate::sitelevel::{Method, SiteLevelError};
use crate::smooth::smooth_page;
use crate::text::paragraphs;

use super::EvalError;
use super::datasets::Gold;
use super::merge::{MERGE_DELTAS, merge_verdicts};
use super::output_scores::{OutputScores, TextScore};
use super::page_text::PageText;
use super::scoring::{PageGold, PageScores, Verdicts, score_page};
use super::truth::{L3sMapping, comment_words, main_text_words, page_truth};

/// What an evaluation runs.
#[derive(Debug, Clone)]
pub struct EvalOptions {
    /// Detector settings of the reported Smooth variant; its threshold also serves Basic and
    /// Basic+Merge.
    pub params: ValidParams,
    /// Penalty multipliers × thresholds to sweep (Figures 2 and 3); `None` for no sweep.
    pub sweep: Option<SweepGrid>,
    /// Other extractors' output texts to score as (name, directory), read from
    /// `directory/<dataset folder>/<page's HTML path within it>.txt`.
    pub externals: Vec<(String, std::path::PathBuf)>,
    /// Run the site-level methods on multi-page sets.
    pub sitelevel: bool,
}

/// The grid of a sweep.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepGrid {
    /// Factors multiplied into the penalty scale (the paper's x-axis).
    pub multipliers: Vec<f64>,
    /// Templateness thresholds (0–1) each smoothed run and Basic are cut at.
    pub thresholds: Vec<f64>,
}

impl Default for SweepGrid {
    fn default() -> Self {
        SweepGrid {
            multipliers: vec![0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0],
            thresholds: vec![0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7],
        }
    }
}

/// A detector run reduced to what scoring needs: a score and a section root per element.
#[derive(Debug, Clone, PartialEq)]
pub struct Segmentation {
    /// The (smoothed) templateness deciding each element: its own, or for elements the
    /// detector hides, that of the nearest ancestor it scored — the value its verdict follows.
    pub element_score: Vec<f64>,
    /// The section root of each element, indexed by [`NodeId::index`]; for Basic, the element
    /// that owns its score (every scored element a section of its own).
    pub section: Vec<NodeId>,
    /// The region root of each element, for a run that cuts regions as well as sections.
    pub region: Option<Vec<NodeId>>,
    /// The smoothed run's content floor: the threshold it applies on this page for a given
    /// configured one (`None` for Basic, which thresholds the classifier as the paper does).
    pub floor: Option<ContentFloor>,
}

impl Segmentation {
    /// The smoothed run's own sections, with the page's content floor when the run uses one.
    pub fn of(segmented: &SegmentedPage, dom: &Dom, content_floor: bool) -> Segmentation {
        let (element_score, _) = scores_and_owners(segmented, dom);
        Segmentation {
            floor: content_floor.then(|| segmented.floor.clone()),
            element_score,
            section: segmented.nodes.iter().map(|node| node.section).collect(),
            region: Some(segmented.nodes.iter().map(|node| node.region).collect()),
        }
    }

    /// Basic's segmentation as the paper reads it (Section 6.1, Figure 1: "almost every leaf is
    /// in a group of its own"): without smoothing every scored element is its own group, and an
    /// element the detector hides belongs to the scored ancestor whose score it takes.
    pub fn unsmoothed(segmented: &SegmentedPage, dom: &Dom) -> Segmentation {
        let (element_score, section) = scores_and_owners(segmented, dom);
        Segmentation {
            element_score,
            section,
            region: None,
            floor: None,
        }
    }

    /// Verdicts at `threshold` (lowered by the content floor, as the product does), with or
    /// without the sections.
    fn verdicts(&self, text: &PageText, threshold: f64, with_sections: bool) -> Verdicts {
        let threshold = self
            .floor
            .as_ref()
            .map_or(threshold, |floor| floor.threshold_for(threshold));
        let template: Vec<bool> = self
            .element_score
            .iter()
            .map(|&score| score >= threshold)
            .collect();
        let verdicts =
            Verdicts::of_elements(text, &template, with_sections.then_some(&self.section[..]));
        match (&self.region, with_sections) {
            (Some(region), true) => verdicts.with_regions(text, region),
            _ => verdicts,
        }
    }
}

/// Each element's deciding score and the element that owns it: itself when the detector scored
/// it, else its parent's owner (the nearest scored ancestor, whose value its verdict follows).
fn scores_and_owners(segmented: &SegmentedPage, dom: &Dom) -> (Vec<f64>, Vec<NodeId>) {
    let count = segmented.nodes.len();
    let mut score = Vec::with_capacity(count);
    let mut owner: Vec<NodeId> = Vec::with_capacity(count);
    for (index, node) in segmented.nodes.iter().enumerate() {
        let parent = dom
            .elements
            .get(index)
            .and_then(|element| element.parent)
            .filter(|parent| parent.index() < index);
        match (node.smoothed, parent) {
            (Some(value), _) => {
                score.push(value);
                owner.push(NodeId(index as u32));
            }
            (None, Some(parent)) => {
                score.push(score[parent.index()]);
                owner.push(owner[parent.index()]);
            }
            (None, None) => {
                score.push(0.0);
                owner.push(NodeId(index as u32));
            }
        }
    }
    (score, owner)
}

/// The detector's runs on one page: Basic, Smooth, and Smooth at every sweep multiplier.
#[derive(Debug, Clone)]
pub struct PageRuns {
    /// The classifier's scores unsmoothed (the paper's Basic).
    pub basic: Segmentation,
    /// Smoothed with the configured penalty: the reported variant and the product's run.
    pub smooth: Segmentation,
    /// Smoothed at each [`SweepGrid::multipliers`] factor of the penalty scale, in grid order;
    /// empty without a sweep.
    pub sweep: Vec<Segmentation>,
    /// Sections of the reported Smooth run.
    pub smooth_sections: usize,
    /// The texts the product outputs for the page (the reported Smooth run).
    pub texts: ProductTexts,
}

/// The texts `pagelevel score` outputs for a page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProductTexts {
    /// The text of every content section (`content_text`).
    pub content: String,
    /// The extracted main text (`main_text`): the article within the content.
    pub main: String,
    /// The extracted user comments; empty when none were found.
    pub comments: String,
}

/// One page's scores for every variant.
#[derive(Debug, Clone, PartialEq)]
pub struct PageEvaluation {
    /// Basic at the configured threshold, its sections one per scored element.
    pub basic: PageScores,
    /// Smooth at the configured threshold and penalty.
    pub smooth: PageScores,
    /// Basic+Merge, one per [`MERGE_DELTAS`].
    pub merge: Vec<PageScores>,
    /// Smooth over the sweep grid, multiplier-major; empty without a sweep.
    pub sweep_smooth: Vec<PageScores>,
    /// Basic at each sweep threshold.
    pub sweep_basic: Vec<PageScores>,
    /// Number of sections of the reported Smooth run.
    pub smooth_sections: usize,
    /// The product's output texts against the gold main text.
    pub output: OutputScores,
}

impl PageRuns {
    /// Runs the detector's variants on a rendered page.
    pub fn of(
        laid_out: &LaidOutPage,
        model: &TemplateModel,
        options: &EvalOptions,
    ) -> Result<PageRuns, ScoreError> {
        let dom = &laid_out.page.dom;
        // Features and scores do not depend on the variant: computed once.
        let page_features = features::extract(laid_out, model.hidden_area);
        let scores = model.score(&page_features);
        // The reported Smooth run is also what the product outputs: its texts are kept.
        let run = |smooth: bool, scale: f64| -> Result<(Segmentation, SegmentedPage), ScoreError> {
            let mut params: ScoringParams = options.params.clone().into_inner();
            params.smooth = smooth;
            params.penalty.scale = scale;
            let params = params.check()?;
            let smoothed = smooth_page(
                laid_out,
                &page_features,
                scores.clone(),
                model,
                &params.smoothing(),
            )?;
            let segmented = segment(laid_out, &smoothed, &params);
            let segmentation = if smooth {
                Segmentation::of(&segmented, dom, params.content_floor)
            } else {
                Segmentation::unsmoothed(&segmented, dom)
            };
            Ok((segmentation, segmented))
        };
        let scale = options.params.penalty.scale;
        let (basic, _) = run(false, scale)?;
        let (mut smooth, mut smoothed) = run(true, scale)?;
        let page_paragraphs = paragraphs(dom, &smoothed.text_visible);
        let (extracted, _, page_type) =
            extract_main_text(laid_out, &smoothed, &page_paragraphs, &options.params);
        // The product's verdicts: where the main text overrules the segmentation, at any threshold.
        let before: Vec<bool> = smoothed.nodes.iter().map(|node| node.template).collect();
        main_text_overrules(
            laid_out,
            &mut smoothed,
            &page_paragraphs,
            &extracted,
            &page_type,
        );
        for (index, node) in smoothed.nodes.iter().enumerate() {
            if node.template != before[index] {
                smooth.element_score[index] = if node.template { 1.0 } else { 0.0 };
            }
        }
        // Runs of overruled elements against their section's verdict became sections of their own.
        smooth.section = smoothed.nodes.iter().map(|node| node.section).collect();
        let texts = ProductTexts {
            content: smoothed.content_text,
            main: extracted.main_text,
            comments: extracted.comments,
        };
        let smooth_sections = smoothed.sections.len();
        let sweep = match &options.sweep {
            Some(grid) => grid
                .multipliers
                .iter()
                .map(|multiplier| run(true, scale * multiplier).map(|(runs, _)| runs))
                .collect::<Result<_, _>>()?,
            None => Vec::new(),
        };
        Ok(PageRuns {
            basic,
            smooth,
            sweep,
            smooth_sections,
            texts,
        })
    }

    /// Scores every variant against the page's gold.
    pub fn evaluate(
        &self,
        text: &PageText,
        gold: &PageGold,
        options: &EvalOptions,
    ) -> PageEvaluation {
        let threshold = options.params.threshold;
        let score = |verdicts: Verdicts| score_page(text, gold, &verdicts);
        let thresholds = options
            .sweep
            .as_ref()
            .map_or(&[][..], |grid| &grid.thresholds[..]);
        PageEvaluation {
            basic: score(self.basic.verdicts(text, threshold, true)),
            smooth: score(self.smooth.verdicts(text, threshold, true)),
            merge: MERGE_DELTAS
                .iter()
                .map(|&delta| {
                    score(merge_verdicts(
                        text,
                        &self.basic.element_score,
                        delta,
                        threshold,
                    ))
                })
                .collect(),
            sweep_smooth: self
                .sweep
                .iter()
                .flat_map(|run| {
                    thresholds
                        .iter()
                        .map(|&threshold| score(run.verdicts(text, threshold, true)))
                })
                .collect(),
            // Basic's sections depend on the threshold; only its detection is swept.
            sweep_basic: thresholds
                .iter()
                .map(|&threshold| score(self.basic.verdicts(text, threshold, false)))
                .collect(),
            smooth_sections: self.smooth_sections,
            output: OutputScores {
                content: TextScore::of(&self.texts.content, &gold.main_text),
                main: TextScore::of(&self.texts.main, &gold.main_text),
                main_and_comments: TextScore::of(
                    &format!("{}\n\n{}", self.texts.main, self.texts.comments),
                    &gold.main_text,
                ),
                comments: gold
                    .comments
                    .as_ref()
                    .map(|words| TextScore::of(&self.texts.comments, words)),
                external: Vec::new(),
            },
        }
    }
}

/// The gold of a page aligned to its words.
pub fn page_gold(text: &PageText, gold: &Gold, l3s: L3sMapping) -> Result<PageGold, EvalError> {
    Ok(PageGold {
        truth: page_truth(&text.word_texts(), gold, l3s)?,
        main_text: main_text_words(gold)?,
        comments: comment_words(gold),
    })
}

/// A page of a multi-page set, kept for the site-level methods.
#[derive(Debug, Clone)]
pub struct SitePageText {
    /// The parsed page, which the site-level methods read.
    pub page: Page,
    /// Its words, leaves and links, to score the methods' marks by.
    pub text: PageText,
    /// Its gold, aligned to those words.
    pub gold: PageGold,
}

/// Scores a site-level method on the pages of one site group (their marks against the same
/// gold, with the same word/link plumbing as PageLevel).
pub fn evaluate_site_method(
    method: Method,
    pages: &[SitePageText],
) -> Result<Vec<PageScores>, SiteLevelError> {
    let parsed: Vec<Page> = pages.iter().map(|page| page.page.clone()).collect();
    let marks = method.detector().detect(&parsed)?;
    Ok(pages
        .iter()
        .zip(&marks)
        .map(|(page, marks)| {
            let verdicts = Verdicts::of_elements(&page.text, marks.flags(), None);
            score_page(&page.text, &page.gold, &verdicts)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::truth::{GoldBlocks, PageTruth, WordTruth};
    use crate::page::ParseLimits;
    use crate::segment::NodeVerdict;

    /// `<html><head/><body><div nav><a>Home</a> <a>News</a></div><div main><p>Story text</p>
    /// <p>More <b>story</b></p></div></body></html>`: elements 0 html, 1 head, 2 body, 3 nav,
    /// 4 a, 5 a, 6 main, 7 p, 8 p, 9 b.
    fn page() -> Page {
        let html = r#"<html><head></head><body><div id="nav"><a href="/">Home</a> <a href="/n">News</a></div><div id="main"><p>Story text</p><p>More <b>story</b></p></div></body></html>"#;
        Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap()
    }

    /// Smoothed values of [`page`]'s elements: the links and the `<b>` are hidden, the nav is
    /// template and the main block content.
    const NAV_AND_MAIN: [Option<f64>; 10] = [
        Some(0.3),
        None,
        Some(0.3),
        Some(0.9),
        None,
        None,
        Some(0.1),
        Some(0.1),
        Some(0.1),
        None,
    ];

    /// Smoothed values per element (`None` = hidden) with section roots.
    fn segmented(smoothed: &[Option<f64>], sections: &[u32]) -> SegmentedPage {
        SegmentedPage {
            nodes: smoothed
                .iter()
                .zip(sections)
                .map(|(&smoothed, &section)| NodeVerdict {
                    score: smoothed,
                    smoothed,
                    template: smoothed.unwrap_or(0.0) >= 0.5,
                    section: NodeId(section),
                    region: NodeId(section),
                })
                .collect(),
            sections: Vec::new(),
            templateness: smoothed.iter().map(|value| value.unwrap_or(0.0)).collect(),
            threshold: 0.5,
            text_visible: vec![true; smoothed.len()],
            floor: ContentFloor::default(),
            content_text: String::new(),
            template_text_share: 0.0,
            smoothing_cost: 0.0,
        }
    }

    fn gold_blocks(text: &PageText) -> PageGold {
        // Gold: the nav block (words of leaves 0, 1) and the main block (leaves 2..).
        let blocks = text
            .words
            .iter()
            .map(|word| {
                let block = u32::from(word.leaf >= 2);
                Some(GoldBlocks {
                    top: Some(block),
                    upto_level2: Some(block),
                    innermost: Some(block),
                })
            })
            .collect();
        let truth = text
            .words
            .iter()
            .map(|word| {
                if word.leaf < 2 {
                    WordTruth::Template
                } else {
                    WordTruth::NotTemplate
                }
            })
            .collect();
        PageGold {
            truth: PageTruth {
                truth,
                blocks: Some(blocks),
            },
            main_text: vec!["story".into(), "text".into(), "more".into(), "story".into()],
            comments: None,
        }
    }

    #[test]
    fn hidden_elements_take_the_score_and_section_of_their_nearest_scored_ancestor() {
        let page = page();
        let dom = &page.dom;
        assert_eq!(dom.element(NodeId(9)).tag, "b");
        // The links and the <b> are hidden; the smoothing found two sections: nav and main.
        let smoothed = NAV_AND_MAIN;
        let run = segmented(&smoothed, &[0, 0, 0, 3, 3, 3, 0, 0, 0, 0]);
        let smooth = Segmentation::of(&run, dom, false);
        assert_eq!(smooth.element_score[4], 0.9);
        assert_eq!(smooth.element_score[9], 0.1);
        let basic = Segmentation::unsmoothed(&run, dom);
        assert_eq!(basic.section[4], NodeId(3));
        assert_eq!(basic.section[9], NodeId(8));
        assert_eq!(basic.section[7], NodeId(7));
    }

    #[test]
    fn smoothing_sections_that_match_the_gold_blocks_score_ari_one_and_basic_scores_less() {
        let page = page();
        let dom = &page.dom;
        let text = PageText::of(dom, |_| true);
        // Leaves: Home, News, Story text, More, story.
        assert_eq!(text.leaves.len(), 5);
        let gold = gold_blocks(&text);
        let smoothed = NAV_AND_MAIN;
        let run = segmented(&smoothed, &[0, 0, 0, 3, 3, 3, 6, 6, 6, 6]);
        let options = EvalOptions {
            params: ValidParams::default(),
            sweep: None,
            externals: Vec::new(),
            sitelevel: false,
        };
        let runs = PageRuns {
            basic: Segmentation::unsmoothed(&run, dom),
            smooth: Segmentation::of(&run, dom, false),
            sweep: Vec::new(),
            smooth_sections: 3,
            texts: ProductTexts::default(),
        };
        let evaluation = runs.evaluate(&text, &gold, &options);
        assert_eq!(evaluation.smooth.ari, Some(1.0));
        assert!(evaluation.basic.ari.unwrap() < 1.0);
        assert_eq!(evaluation.smooth.text.scores().f1, Some(1.0));
        assert_eq!(evaluation.smooth.links.scores().f1, Some(1.0));
        assert_eq!(evaluation.smooth.main_text.scores().f1, Some(1.0));
        // Merging leaves whose scores differ by < δ recovers the two blocks for every δ ≤ 0.8.
        assert_eq!(evaluation.merge[0].ari, Some(1.0));
        assert_eq!(evaluation.merge.len(), MERGE_DELTAS.len());
    }
}
