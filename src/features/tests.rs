use super::*;
use crate::layout::by_hand;
use crate::page::{Page, ParseLimits};

/// A page laid out by hand on a 1000 × 2000 document.
fn rendered(html: &str, boxes: &[(&str, [f64; 4])]) -> LaidOutPage {
    let url = url::Url::parse("https://news.example.com/story.html").ok();
    let page = Page::parse(html.as_bytes(), url, None, &ParseLimits::default()).expect("parses");
    by_hand::lay_out(page, boxes, 1000.0, 2000.0)
}

fn value(features: &PageFeatures, rendered: &LaidOutPage, id: &str, feature: Feature) -> f64 {
    let dom = &rendered.page.dom;
    let node = dom
        .ids()
        .find(|&n| dom.element(n).attribute("id") == Some(id))
        .expect("element");
    features.rows[node.index()][feature as usize]
}

const PAGE: &str = r#"<html><head><title>Storm floods the valley</title></head><body>
<ul id="menu" class="mainNav"><li><a href="/">Home</a></li><li><a href="/world">World</a></li><li><a href="https://other.org/">Partner</a></li></ul>
<div id="story"><p id="para">The storm floods the valley. Residents left their homes on Sunday.</p></div>
<p id="tiny">x</p>
</body></html>"#;

fn page() -> LaidOutPage {
    rendered(
        PAGE,
        &[
            ("html", [0.0, 0.0, 1000.0, 2000.0]),
            ("body", [0.0, 0.0, 1000.0, 2000.0]),
            ("menu", [0.0, 0.0, 200.0, 600.0]),
            ("li", [0.0, 0.0, 200.0, 20.0]),
            ("a", [0.0, 0.0, 100.0, 20.0]),
            ("story", [250.0, 100.0, 500.0, 800.0]),
            ("para", [250.0, 100.0, 500.0, 100.0]),
            ("tiny", [250.0, 950.0, 10.0, 10.0]),
        ],
    )
}

#[test]
fn feature_names_are_unique_and_match_the_row_length() {
    let unique: HashSet<&str> = FEATURE_NAMES.iter().copied().collect();
    assert_eq!(unique.len(), FEATURE_COUNT);
}

#[test]
fn a_link_list_has_links_per_word_and_all_its_text_in_anchors() {
    let page = page();
    let features = extract(&page, DEFAULT_HIDDEN_AREA);
    assert_eq!(
        value(&features, &page, "menu", Feature::AnchorTextFraction),
        1.0
    );
    assert!((value(&features, &page, "menu", Feature::LinksPerWord) - 3.0 / 4.0).abs() < 1e-9);
    // "/" and "/world" stay on news.example.com; the partner link leaves the site.
    assert!(
        (value(&features, &page, "menu", Feature::IntraSiteLinkFraction) - 2.0 / 3.0).abs() < 1e-9
    );
    assert_eq!(
        value(&features, &page, "menu", Feature::RoleNavigation),
        1.0
    );
    assert_eq!(value(&features, &page, "menu", Feature::TagList), 1.0);
}

#[test]
fn article_text_shares_words_with_the_title_and_ends_sentences() {
    let page = page();
    let features = extract(&page, DEFAULT_HIDDEN_AREA);
    assert_eq!(
        value(&features, &page, "story", Feature::AnchorTextFraction),
        0.0
    );
    assert_eq!(
        value(&features, &page, "story", Feature::SentenceEndFraction),
        1.0
    );
    // storm, floods, valley of 11 words ("the" is a stop word in the title).
    assert!((value(&features, &page, "story", Feature::TitleOverlap) - 3.0 / 11.0).abs() < 1e-9);
    assert_eq!(
        value(&features, &page, "para", Feature::InheritedNavigation),
        0.0
    );
}

#[test]
fn layout_features_measure_closeness_to_the_margins() {
    let page = page();
    let features = extract(&page, DEFAULT_HIDDEN_AREA);
    assert_eq!(value(&features, &page, "menu", Feature::LeftMargin), 0.0);
    assert!((value(&features, &page, "menu", Feature::RightMargin) - 0.8).abs() < 1e-9);
    assert!((value(&features, &page, "story", Feature::AreaShare) - 0.2).abs() < 1e-9);
}

#[test]
fn small_and_unboxed_nodes_are_not_classified() {
    let page = page();
    let features = extract(&page, DEFAULT_HIDDEN_AREA);
    let dom = &page.page.dom;
    let tiny = dom
        .ids()
        .find(|&n| dom.element(n).attribute("id") == Some("tiny"))
        .expect("tiny");
    assert!(
        !features.classified[tiny.index()],
        "100 px² is under the 2000 px² threshold"
    );
    let head = dom.first_with_tag("head").expect("head");
    assert!(!features.classified[head.index()]);
    let story = dom
        .ids()
        .find(|&n| dom.element(n).attribute("id") == Some("story"))
        .expect("story");
    assert!(features.classified[story.index()]);
}

#[test]
fn the_article_holds_most_of_the_page_words_and_starts_after_the_menu() {
    let page = page();
    let features = extract(&page, DEFAULT_HIDDEN_AREA);
    // Page words: 3 in the menu, 11 in the story, 1 in the tiny paragraph.
    assert!((value(&features, &page, "story", Feature::PageWordShare) - 11.0 / 15.0).abs() < 1e-9);
    assert_eq!(
        value(&features, &page, "menu", Feature::TextStartPosition),
        0.0
    );
    assert!(
        (value(&features, &page, "story", Feature::TextStartPosition) - 3.0 / 15.0).abs() < 1e-9
    );
    assert!(
        (value(&features, &page, "story", Feature::TextEndPosition) - 14.0 / 15.0).abs() < 1e-9
    );
    assert_eq!(
        value(&features, &page, "para", Feature::ParentWordShare),
        1.0
    );
    assert_eq!(value(&features, &page, "menu", Feature::PageLinkShare), 1.0);
}
