//! Stylesheets archived with a page (a crawl's CSS responses, by URL) style it in both engines,
//! in place of any fetch: linked relatively, absolutely on another host, and `@import`ed; a
//! sheet the archive lacks is never fetched, and a print sheet does not apply on screen.

mod common;

use common::start_black_hole;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use pagelevel::layout::{Layout, VIEWPORT};
use pagelevel::page::{
    ArchivedStylesheet, ArchivedStylesheets, NodeId, Page, PageSource, ParseLimits,
    linked_stylesheet_urls,
};
use pagelevel::render::{RenderOptions, Renderer, lay_out_native};
use url::Url;

const PAGE_URL: &str = "https://shop.example/dir/page.html";

/// The page, linking a sheet beside it, one on a CDN, one on the black hole (not archived)
/// and a print sheet; and its archived sheets.
fn crawled_page(port: u16) -> (PageSource, Arc<ArchivedStylesheets>) {
    let html = format!(
        r#"<!DOCTYPE html><html><head>
        <link rel="stylesheet" href="style.css">
        <link rel="stylesheet" href="https://cdn.example/theme.css">
        <link rel="stylesheet" href="http://127.0.0.1:{port}/missing.css">
        <link rel="stylesheet" href="/print.css" media="print">
        </head><body><div id="nav">menu</div><div id="main">the text</div>
        <div id="side">more</div></body></html>"#
    );
    let mut sheets = ArchivedStylesheets::new();
    let css = "text/css; charset=utf-8".to_string();
    for (url, body) in [
        (
            "https://shop.example/dir/style.css",
            "@import \"more.css\";\n#nav { display: none }",
        ),
        (
            "https://shop.example/dir/more.css",
            "#side { width: 222px }",
        ),
        ("https://cdn.example/theme.css", "#main { width: 321px }"),
        ("https://shop.example/print.css", "#main { width: 100px }"),
    ] {
        sheets.insert(&Url::parse(url).unwrap(), body.into(), Some(css.clone()));
    }
    let source =
        PageSource::from_bytes(html.into_bytes(), Some(Url::parse(PAGE_URL).unwrap()), None);
    (source, Arc::new(sheets))
}

fn parsed(source: &PageSource) -> Page {
    Page::parse(
        &source.bytes,
        source.url.clone(),
        None,
        &ParseLimits::default(),
    )
    .unwrap()
}

fn element_with_id(page: &Page, id: &str) -> NodeId {
    page.dom
        .ids()
        .find(|&node| page.dom.element(node).attribute("id") == Some(id))
        .unwrap()
}

/// The archived sheets applied: `#nav` hidden, `#main` and `#side` at their widths, and not
/// the print sheet's width.
fn assert_styled(page: &Page, layout: &Layout, engine: &str) {
    let width = |id| layout.boxes[element_with_id(page, id).index()].map(|found| found.width);
    assert_eq!(width("nav"), None, "{engine}: #nav is display:none");
    assert_eq!(
        width("main"),
        Some(321.0),
        "{engine}: #main from the CDN's sheet"
    );
    assert_eq!(
        width("side"),
        Some(222.0),
        "{engine}: #side from the @import"
    );
}

fn assert_never_fetched(connections: &AtomicUsize) {
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        connections.load(Ordering::SeqCst),
        0,
        "a stylesheet was fetched"
    );
}

#[test]
fn native_layout_styles_a_page_with_its_archived_stylesheets_and_fetches_none() {
    let (port, connections) = start_black_hole();
    let (source, sheets) = crawled_page(port);
    let page = parsed(&source);
    let unstyled = lay_out_native(&page, &source, VIEWPORT).unwrap();
    let nav = element_with_id(&page, "nav");
    assert!(
        unstyled.boxes[nav.index()].is_some(),
        "without the archive #nav shows"
    );
    let source = source.with_stylesheets(sheets);
    let styled = lay_out_native(&page, &source, VIEWPORT).unwrap();
    assert_styled(&page, &styled, "native");
    assert_never_fetched(&connections);
}

#[test]
fn chromium_styles_a_page_with_its_archived_stylesheets_and_fetches_none() {
    let (port, connections) = start_black_hole();
    let (source, sheets) = crawled_page(port);
    let mut renderer = Renderer::new(RenderOptions::default())
        .expect("chromium is installed (run the README's test command)");
    let unstyled = renderer.render(&source).expect("renders");
    let nav = element_with_id(&unstyled.page, "nav");
    assert!(
        unstyled.layout_box(nav).is_some(),
        "without the archive #nav shows"
    );
    let styled = renderer
        .render(&source.with_stylesheets(sheets))
        .expect("renders");
    assert_styled(&styled.page, &styled.layout, "chromium");
    assert_never_fetched(&connections);
}

#[test]
fn the_first_capture_of_a_url_is_kept_and_fragments_do_not_count() {
    let mut sheets = ArchivedStylesheets::new();
    let url = Url::parse("https://a.example/s.css").unwrap();
    assert!(sheets.insert(&url, b"p{}".to_vec(), Some("text/css".into())));
    let again = Url::parse("https://a.example/s.css#x").unwrap();
    assert!(!sheets.insert(&again, b"div{}".to_vec(), None));
    assert_eq!(sheets.get(&again).unwrap().css, b"p{}");
    assert_eq!((sheets.len(), sheets.bytes()), (1, 3));
}

#[test]
fn only_css_or_untyped_responses_style_a_page() {
    let sheet = |content_type: Option<&str>| ArchivedStylesheet {
        css: Vec::new(),
        content_type: content_type.map(str::to_string),
    };
    assert!(sheet(None).is_css());
    assert!(sheet(Some("Text/CSS; charset=utf-8")).is_css());
    assert!(!sheet(Some("text/html")).is_css());
}

#[test]
fn linked_sheets_resolve_against_the_base_href_else_the_page_url() {
    let html = br#"<html><head><base href="https://cdn.example/theme/">
        <link rel="stylesheet" href="a.css"><link rel="alternate stylesheet" href="/b.css">
        <link rel=icon href=i.png><link rel=stylesheet href="a.css"></head><body></body></html>"#;
    let url = Url::parse("https://site.example/dir/page.html").unwrap();
    let page = Page::parse(html, Some(url.clone()), None, &ParseLimits::default()).unwrap();
    let urls: Vec<String> = linked_stylesheet_urls(&page)
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(
        urls,
        [
            "https://cdn.example/theme/a.css",
            "https://cdn.example/b.css"
        ]
    );
    let html = b"<link rel=stylesheet href=../s.css><p>x</p>";
    let page = Page::parse(html, Some(url.clone()), None, &ParseLimits::default()).unwrap();
    let urls: Vec<String> = linked_stylesheet_urls(&page)
        .into_iter()
        .map(String::from)
        .collect();
    assert_eq!(urls, ["https://site.example/s.css"]);
}
