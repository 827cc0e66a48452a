use super::*;
use crate::page::{Page, ParseLimits};
use crate::segment::paragraphs;

const ARTICLE: &str = r#"<html><head><title>Storm floods the valley | Daily News</title></head><body>
<div class="site-header"><a href="/">Daily News</a></div>
<ul id="nav"><li><a href="/world">World</a></li><li><a href="/sport">Sport</a></li></ul>
<h1>Storm floods the valley</h1>
<div class="story">
  <p>The storm came in the night and the river rose over its banks before dawn.</p>
  <div class="share"><a href="/fb">Facebook</a> <a href="/tw">Twitter</a> Email</div>
  <p>Many homes were flooded, and help arrived from the neighbouring towns by noon.</p>
  <ul class="related"><li><a href="/x">Another story about rain</a></li></ul>
</div>
<div id="comments"><p>Terrible news, stay safe everyone in the valley tonight.</p>
<p><a href="/reply">Reply</a></p></div>
<div id="footer">Copyright Daily News, all rights reserved, since the year of its founding.</div>
</body></html>"#;

fn extract_from(html: &str, template_ids: &[&str]) -> Extracted {
    let page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap();
    let dom = &page.dom;
    let visible: Vec<bool> = dom.ids().map(|id| dom.is_visible_text_parent(id)).collect();
    let mut template = vec![false; dom.len()];
    for id in dom.ids() {
        if let Some(name) = dom.element(id).attribute("id")
            && template_ids.contains(&name)
        {
            for inside in dom.subtree(id) {
                template[inside.index()] = true;
            }
        }
    }
    extract(dom, &paragraphs(dom, &visible), &template, &page.title)
}

#[test]
fn main_text_is_the_article_with_its_headline_and_without_menus_sharing_or_related_links() {
    let extracted = extract_from(ARTICLE, &["nav"]);
    assert_eq!(
        extracted.main_text,
        "Storm floods the valley\n\n\
         The storm came in the night and the river rose over its banks before dawn.\n\n\
         Many homes were flooded, and help arrived from the neighbouring towns by noon."
    );
}

#[test]
fn comments_come_apart_from_the_main_text_without_their_reply_links() {
    let extracted = extract_from(ARTICLE, &["nav"]);
    assert_eq!(
        extracted.comments,
        "Terrible news, stay safe everyone in the valley tonight."
    );
    assert!(!extracted.main_text.contains("Terrible"));
}

#[test]
fn text_the_segmentation_calls_template_is_never_main_text() {
    let extracted = extract_from(ARTICLE, &["footer"]);
    assert!(!extracted.main_text.contains("Copyright"));
    let page_without_article = r#"<html><body><div id="nav"><p>Only a menu here, nothing else to read on the page.</p></div></body></html>"#;
    let nothing = extract_from(page_without_article, &["nav"]);
    assert_eq!(nothing, Extracted::default());
}

#[test]
fn a_whole_page_wrapper_named_like_comments_does_not_hide_the_article() {
    let wrapped = ARTICLE.replace("<body>", r#"<body><div class="single comments-open">"#);
    let extracted = extract_from(&wrapped, &["nav"]);
    assert!(extracted.main_text.contains("Many homes were flooded"));
}
