use super::*;
use crate::features::{FEATURE_COUNT, Feature};
use crate::layout::{LayoutBox, by_hand};
use crate::model::{
    AreaBucket, BucketTraining, MODEL_FORMAT, MODEL_FORMAT_VERSION, Standardization, TemplateModel,
    TrainingSummary,
};
use crate::page::{Page, ParseLimits};
use crate::params::{NodeWeight, ScoringParams};
use crate::smooth::PageSmoothError;

/// Every stage after layout up to segmentation, as the scorer runs them.
fn segment_page(
    laid_out: &LaidOutPage,
    model: &TemplateModel,
    params: &ScoringParams,
) -> Result<SegmentedPage, PageSmoothError> {
    let params = params.clone().check().expect("valid parameters");
    let (_, smoothed, _) = crate::pipeline::smooth_laid_out(laid_out, model, &params)?;
    Ok(segment(laid_out, &smoothed, &params))
}

/// A one-bucket model: templateness rises with the share of text in anchors.
fn anchor_model() -> TemplateModel {
    let mut coefficients = vec![0.0; FEATURE_COUNT];
    coefficients[Feature::AnchorTextFraction as usize] = 8.0;
    TemplateModel {
        layout_engine: crate::model::LayoutEngine::Chromium,
        format: MODEL_FORMAT.into(),
        format_version: MODEL_FORMAT_VERSION,
        feature_names: crate::features::FEATURE_NAMES
            .iter()
            .map(|n| n.to_string())
            .collect(),
        hidden_area: 2000.0,
        buckets: vec![AreaBucket {
            min_area: 2000.0,
            max_area: None,
            standardization: Standardization {
                mean: vec![0.0; FEATURE_COUNT],
                scale: vec![1.0; FEATURE_COUNT],
            },
            coefficients,
            intercept: -4.0,
            training: BucketTraining::default(),
        }],
        training: TrainingSummary::default(),
    }
}

const PAGE: &str = r#"<html><body>
<div id="nav"><a href="/a">Home</a> <a href="/b">News</a> <a href="/c">Sport</a></div>
<div id="main"><h1 id="h">Big storm</h1><p id="p1">The storm came in the night.</p><p id="p2">Many <b>homes</b> flooded.<br>Help arrived.</p><span id="small">tiny</span></div>
<div id="gone" style="display:none">hidden text</div>
</body></html>"#;

fn rendered() -> LaidOutPage {
    let page = Page::parse(PAGE.as_bytes(), None, None, &ParseLimits::default()).expect("parses");
    let boxes: &[(&str, [f64; 4])] = &[
        ("html", [0.0, 0.0, 1000.0, 1000.0]),
        ("body", [0.0, 0.0, 1000.0, 1000.0]),
        ("nav", [0.0, 0.0, 1000.0, 50.0]),
        ("a", [0.0, 0.0, 60.0, 20.0]),
        ("main", [0.0, 100.0, 1000.0, 600.0]),
        ("h", [0.0, 100.0, 1000.0, 50.0]),
        ("p1", [0.0, 150.0, 1000.0, 50.0]),
        ("p2", [0.0, 200.0, 1000.0, 50.0]),
        ("b", [0.0, 200.0, 40.0, 20.0]),
        ("br", [0.0, 200.0, 0.0, 20.0]),
        ("small", [0.0, 300.0, 30.0, 20.0]),
    ];
    by_hand::lay_out(page, boxes, 1000.0, 1000.0)
}

fn node(rendered: &LaidOutPage, id: &str) -> usize {
    let dom = &rendered.page.dom;
    dom.ids()
        .find(|&n| dom.element(n).attribute("id") == Some(id))
        .expect("element")
        .index()
}

#[test]
fn the_link_list_is_template_and_the_article_is_content() {
    let rendered = rendered();
    let segmented =
        segment_page(&rendered, &anchor_model(), &ScoringParams::default()).expect("scores");
    assert!(segmented.nodes[node(&rendered, "nav")].template);
    assert!(!segmented.nodes[node(&rendered, "main")].template);
    assert_eq!(
        segmented.content_text,
        "Big storm\n\nThe storm came in the night.\n\nMany homes flooded.\n\nHelp arrived.\n\ntiny"
    );
}

#[test]
fn small_and_unboxed_nodes_are_hidden_but_still_get_a_verdict_and_a_section() {
    let rendered = rendered();
    let segmented =
        segment_page(&rendered, &anchor_model(), &ScoringParams::default()).expect("scores");
    let small = segmented.nodes[node(&rendered, "small")];
    assert_eq!(small.score, None);
    assert_eq!(small.smoothed, None);
    assert!(!small.template);
    let main = node(&rendered, "main");
    assert_eq!(small.section, segmented.nodes[main].section);
    let gone = segmented.nodes[node(&rendered, "gone")];
    assert_eq!(gone.score, None);
    assert!(!segmented.content_text.contains("hidden text"));
}

#[test]
fn smoothing_never_lets_a_child_fall_below_its_parent_and_sections_partition_the_nodes() {
    let rendered = rendered();
    let segmented =
        segment_page(&rendered, &anchor_model(), &ScoringParams::default()).expect("scores");
    let dom = &rendered.page.dom;
    for id in dom.ids() {
        let (Some(mine), Some(parent)) =
            (segmented.nodes[id.index()].smoothed, dom.element(id).parent)
        else {
            continue;
        };
        if let Some(parent_value) = segmented.nodes[parent.index()].smoothed {
            assert!(mine >= parent_value - 1e-12);
        }
        let section = segmented.nodes[id.index()].section;
        assert!(segmented.sections.iter().any(|s| s.id == section));
    }
    assert_eq!(segmented.sections[0].id, NodeId(0));
    let text: usize = segmented.sections.iter().map(|s| s.text_chars).sum();
    let visible = text_visibility(&rendered);
    assert_eq!(
        text,
        visible_text_chars(&rendered.page.dom, &visible)
            .iter()
            .sum::<usize>()
    );
}

#[test]
fn basic_thresholds_the_raw_scores() {
    let rendered = rendered();
    let options = ScoringParams {
        smooth: false,
        ..ScoringParams::default()
    };
    let segmented = segment_page(&rendered, &anchor_model(), &options).expect("scores");
    let nav = segmented.nodes[node(&rendered, "nav")];
    assert_eq!(nav.score, nav.smoothed);
    assert!(nav.template);
    assert!(segmented.template_text_share > 0.0 && segmented.template_text_share < 0.5);
}

#[test]
fn a_page_whose_root_box_is_empty_is_still_scored() {
    let mut rendered = rendered();
    rendered.layout.boxes[0] = Some(LayoutBox {
        x: 0.0,
        y: 0.0,
        width: 1000.0,
        height: 0.0,
    });
    let segmented =
        segment_page(&rendered, &anchor_model(), &ScoringParams::default()).expect("scores");
    assert!(segmented.nodes[node(&rendered, "nav")].template);
    assert_eq!(segmented.sections[0].id, NodeId(0));
}

/// An article block holding one long paragraph and `items` small, half-linked items.
fn article_with_items(items: usize) -> LaidOutPage {
    let item =
        r#"<div class="item">one two three four five <a href="/x">six seven eight nine</a></div>"#;
    let html = format!(
        r#"<html><body><div id="article"><p id="text">{}</p>{}</div></body></html>"#,
        "Long article text without links. ".repeat(30),
        item.repeat(items)
    );
    let page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).expect("parses");
    let mut rendered = by_hand::lay_out(
        page,
        &[
            ("html", [0.0, 0.0, 1000.0, 3400.0]),
            ("body", [0.0, 0.0, 1000.0, 3400.0]),
            ("article", [0.0, 0.0, 1000.0, 3400.0]),
            ("text", [0.0, 0.0, 1000.0, 3000.0]),
            ("a", [0.0, 0.0, 30.0, 20.0]),
        ],
        1000.0,
        3400.0,
    );
    // The items: 1000 × 40 px each, stacked under the paragraph.
    let dom = rendered.page.dom.clone();
    for (index, id) in dom
        .ids()
        .filter(|&id| dom.element(id).attribute("class") == Some("item"))
        .enumerate()
    {
        rendered.layout.boxes[id.index()] = Some(LayoutBox {
            x: 0.0,
            y: 3000.0 + 40.0 * index as f64,
            width: 1000.0,
            height: 40.0,
        });
    }
    rendered
}

#[test]
fn many_small_uncertain_items_no_longer_outvote_the_large_article_that_holds_them() {
    let rendered = article_with_items(8);
    let article = node(&rendered, "article");
    // The content floor would keep the article's text whatever the weights; this is about them.
    let count = ScoringParams {
        weight: NodeWeight::Count,
        content_floor: false,
        ..ScoringParams::default()
    };
    let by_count = segment_page(&rendered, &anchor_model(), &count).expect("scores");
    let by_area =
        segment_page(&rendered, &anchor_model(), &ScoringParams::default()).expect("scores");
    // Each item scores ≈ 0.39 (4 of 9 words in a link); the article (32 of 222 words in
    // links) ≈ 0.06 and its paragraph ≈ 0.02.
    assert!(
        by_count.nodes[article].template,
        "the paper's weights lift the article: {:?}",
        by_count.nodes[article]
    );
    assert!(
        !by_area.nodes[article].template,
        "area weights keep it content: {:?}",
        by_area.nodes[article]
    );
    assert!(!by_area.content_text.is_empty());
}

/// `html` laid out by hand on a 1000 × 1000 page, each element named in `boxes` (by `id`, else
/// tag) given its box.
fn laid_out_by_hand(html: &str, boxes: &[(&str, [f64; 4])]) -> LaidOutPage {
    let page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).expect("parses");
    by_hand::lay_out(page, boxes, 1000.0, 1000.0)
}

/// The texts of the paragraphs a reader sees on `rendered`.
fn shown_paragraphs(rendered: &LaidOutPage) -> Vec<String> {
    paragraphs(&rendered.page.dom, &text_visibility(rendered))
        .iter()
        .map(|paragraph| paragraph.text_where(|_| true))
        .collect()
}

#[test]
fn text_a_browser_never_shows_is_not_visible_text_and_a_closed_panel_is() {
    let html = r##"<html><body>
<p id="p">Shown text.</p>
<iframe id="f">&lt;SCRIPT src=ad.js&gt;&lt;/SCRIPT&gt; fallback</iframe>
<object id="o"><p id="of">Plug-in fallback</p></object>
<div id="aria" aria-hidden="true"><p id="ap">Decorative</p></div>
<button aria-controls="terms" aria-expanded="false">Shipping</button>
<div id="terms" aria-hidden="true"><p id="tp">Ships in two days.</p></div>
<div id="tab" role="tabpanel" aria-hidden="true"><p id="tabp">Specifications.</p></div>
<a id="skip" href="#main">Skip to main content</a>
<span id="off">Off the page</span>
<div id="menu">Dropdown menu item</div>
</body></html>"##;
    let boxes: &[(&str, [f64; 4])] = &[
        ("html", [0.0, 0.0, 1000.0, 1000.0]),
        ("body", [0.0, 0.0, 1000.0, 1000.0]),
        ("p", [0.0, 0.0, 1000.0, 50.0]),
        ("f", [0.0, 50.0, 300.0, 150.0]),
        ("o", [0.0, 200.0, 300.0, 150.0]),
        ("of", [0.0, 200.0, 300.0, 20.0]),
        ("aria", [0.0, 350.0, 300.0, 50.0]),
        ("ap", [0.0, 350.0, 300.0, 20.0]),
        ("terms", [0.0, 450.0, 300.0, 20.0]),
        ("tp", [0.0, 450.0, 300.0, 20.0]),
        ("tab", [0.0, 480.0, 300.0, 20.0]),
        ("tabp", [0.0, 480.0, 300.0, 20.0]),
        ("skip", [0.0, 0.0, 1.0, 1.0]),
        ("off", [-10000.0, 0.0, 200.0, 20.0]),
        ("menu", [0.0, 400.0, 300.0, 20.0]),
    ];
    let mut rendered = laid_out_by_hand(html, boxes);
    // `visibility: hidden`: laid out, not painted.
    rendered.layout.unpainted = vec![NodeId(node(&rendered, "menu") as u32)];
    let shown = shown_paragraphs(&rendered);
    // A closed accordion or tab panel (`aria-hidden` until opened, named by a control's
    // `aria-controls` or a panel by its role) is the page's text; decoration is not.
    assert_eq!(
        shown,
        ["Shown text.", "Ships in two days.", "Specifications."]
    );
}

#[test]
fn a_closed_details_menu_is_not_visible_text_and_its_other_content_is() {
    // GitHub's language filter: a closed `<details>` whose `<details-menu>` lists every
    // language; a closed FAQ entry beside it keeps its answer (one click shows it).
    let html = r##"<html><body>
<details id="lang"><summary id="ls">Language</summary>
<details-menu id="dm"><a id="l1" role="menuitemradio" href="/?l=ada">Ada</a></details-menu>
<div id="rm" role="menu"><a id="l2" href="/?l=apl">APL</a></div></details>
<details id="faq"><summary id="fs">Is it free?</summary><p id="fa">Yes, for everyone.</p></details>
<details id="open" open><summary id="os">Sort</summary><div id="om" role="menu">Newest</div></details>
</body></html>"##;
    let boxes: &[(&str, [f64; 4])] = &[
        ("html", [0.0, 0.0, 1000.0, 1000.0]),
        ("body", [0.0, 0.0, 1000.0, 1000.0]),
        ("lang", [0.0, 0.0, 300.0, 20.0]),
        ("ls", [0.0, 0.0, 300.0, 20.0]),
        ("dm", [0.0, 20.0, 300.0, 40.0]),
        ("l1", [0.0, 20.0, 300.0, 20.0]),
        ("rm", [0.0, 40.0, 300.0, 20.0]),
        ("l2", [0.0, 40.0, 300.0, 20.0]),
        ("faq", [0.0, 100.0, 300.0, 20.0]),
        ("fs", [0.0, 100.0, 300.0, 20.0]),
        ("fa", [0.0, 120.0, 300.0, 20.0]),
        ("open", [0.0, 200.0, 300.0, 40.0]),
        ("os", [0.0, 200.0, 300.0, 20.0]),
        ("om", [0.0, 220.0, 300.0, 20.0]),
    ];
    let shown = shown_paragraphs(&laid_out_by_hand(html, boxes));
    assert_eq!(
        shown,
        [
            "Language",
            "Is it free?",
            "Yes, for everyone.",
            "Sort",
            "Newest"
        ]
    );
}

#[test]
fn overruled_verdicts_flip_a_section_that_agrees_whole_and_split_one_that_does_not() {
    let rendered = rendered();
    let mut segmented =
        segment_page(&rendered, &anchor_model(), &ScoringParams::default()).expect("scores");
    let dom = &rendered.page.dom;
    let id = |name: &str| NodeId(node(&rendered, name) as u32);
    let links: Vec<NodeId> = dom.ids().filter(|&n| dom.element(n).tag == "a").collect();
    assert!(segmented.nodes[id("nav").index()].template);
    let sections_before = segmented.sections.len();
    // The navigation's links all said content; in the article, the small span said template.
    let mut verdicts: Vec<(NodeId, bool)> = links.iter().map(|&link| (link, false)).collect();
    verdicts.extend([(id("p1"), false), (id("p2"), false), (id("small"), true)]);
    let page_paragraphs = paragraphs(dom, &segmented.text_visible);
    with_overruled_verdicts(&rendered, &mut segmented, &page_paragraphs, &verdicts);
    let nav = &segmented.nodes[id("nav").index()];
    assert!(
        !nav.template,
        "the wrapper of links that all agree follows them"
    );
    let nav_section = segmented
        .sections
        .iter()
        .find(|section| section.id == nav.section)
        .expect("the navigation's section");
    assert!(!nav_section.template, "the section flipped whole");
    let small = &segmented.nodes[id("small").index()];
    assert!(small.template);
    assert_eq!(
        small.section,
        id("small"),
        "a run against its section is a section"
    );
    assert_eq!(segmented.sections.len(), sections_before + 1);
    assert!(!segmented.nodes[id("main").index()].template);
    for node in &segmented.nodes {
        let section = segmented
            .sections
            .iter()
            .find(|section| section.id == node.section)
            .expect("every node's section is listed");
        assert_eq!(node.template, section.template, "a section has one verdict");
    }
    assert_eq!(
        segmented.content_text,
        "Home News Sport\n\nBig storm\n\nThe storm came in the night.\n\nMany homes flooded.\n\nHelp arrived."
    );
    assert!(segmented.template_text_share > 0.0);
}

#[test]
fn a_label_named_for_screen_readers_is_not_visible_text_without_the_sites_stylesheet() {
    // A saved shop page without its stylesheet: every card's screen-reader labels are laid out
    // as text, and only their class names tell they are kept off the screen.
    let html = r##"<html><body>
<div id="card"><span id="vendor" class="visually-hidden">Vendor:</span> <span id="name">Sennheiser HD 600</span>
<span id="label" class="sr-only">Regular price</span> <span id="price">$499.95</span>
<span id="wp" class="Screen-Reader-Text">Posted on</span>
<span id="shown" class="sr-only md:not-sr-only">Shown from the desktop breakpoint</span>
<div id="field" class="field--label-visually_hidden">The article's body, whose label alone is hidden.</div></div>
</body></html>"##;
    let boxes: &[(&str, [f64; 4])] = &[
        ("html", [0.0, 0.0, 1000.0, 1000.0]),
        ("body", [0.0, 0.0, 1000.0, 1000.0]),
        ("card", [0.0, 0.0, 1000.0, 200.0]),
        ("vendor", [0.0, 0.0, 60.0, 20.0]),
        ("name", [60.0, 0.0, 200.0, 20.0]),
        ("label", [0.0, 20.0, 100.0, 20.0]),
        ("price", [100.0, 20.0, 60.0, 20.0]),
        ("wp", [0.0, 40.0, 80.0, 20.0]),
        ("shown", [0.0, 60.0, 300.0, 20.0]),
        ("field", [0.0, 80.0, 1000.0, 20.0]),
    ];
    let shown = shown_paragraphs(&laid_out_by_hand(html, boxes));
    assert_eq!(
        shown,
        [
            "Sennheiser HD 600 $499.95 Shown from the desktop breakpoint",
            "The article's body, whose label alone is hidden."
        ]
    );
}
