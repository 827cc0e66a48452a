//! With `--javascript`, a page's scripts run beside our measurement: they must not be able to
//! change the numbers. A page that replaces the DOM methods the box walk uses
//! (`getBoundingClientRect`, `getClientRects`, `getComputedStyle`, `querySelectorAll`, the
//! scroll sizes, `Date.now`) gets exactly the boxes of the same page without that script. Even
//! with scripts off a page can shadow properties by naming elements after them (`<img
//! name="body">` on `document`, `<input name="getAttribute">` on its form); that changes nothing
//! either. Nor can a page's scripts make one element's box land on another by swapping, copying
//! or renaming the attributes that join boxes to nodes. Needs Debian's `chromium`.

use pagelevel::layout::{LaidOutPage, Layout};
use pagelevel::page::PageSource;
use pagelevel::render::{RenderOptions, Renderer};

/// A page with a navigation bar, an article and a footer, ending in `script`.
fn page_ending_with(script: &str) -> String {
    let paragraphs: String = (0..12)
        .map(|index| format!("<p>Paragraph {index} of the article, long enough to wrap in a column of text that a reader reads.</p>"))
        .collect();
    format!(
        "<!DOCTYPE html><html><head><title>Measured</title></head><body>\
         <nav><a href=\"/\">Home</a> <a href=\"/a\">About</a></nav>\
         <main><h1>Headline</h1>{paragraphs}</main>\
         <footer>Footer text</footer><script>{script}</script></body></html>"
    )
}

/// Every replacement a page could make to forge its measurement: each element claims to cover
/// the whole page, nothing claims to be hidden, and the page claims to be huge.
const FORGERY: &str = r#"
const everything = () => new DOMRect(0, 0, 1280, 20000);
Element.prototype.getBoundingClientRect = everything;
Element.prototype.getClientRects = function () { return [everything()]; };
window.getComputedStyle = () => ({ visibility: "visible", getPropertyValue: () => "" });
const onlyBody = Document.prototype.querySelectorAll;
Document.prototype.querySelectorAll = function (selector) { return onlyBody.call(this, "body"); };
Object.defineProperty(Element.prototype, "scrollHeight", { get: () => 20000 });
Object.defineProperty(Element.prototype, "scrollWidth", { get: () => 1280 });
Object.defineProperty(window, "scrollY", { get: () => -500 });
Date.now = () => 0;
"#;

/// The same number of characters of a script that changes nothing, so the two pages differ
/// only in what their scripts do.
fn harmless_script() -> String {
    format!("/*{}*/", " ".repeat(FORGERY.len().saturating_sub(4)))
}

fn layout_of(renderer: &mut Renderer, html: String) -> Layout {
    let source = PageSource::from_bytes(html.into_bytes(), None, None);
    renderer.render(&source).expect("renders").layout
}

#[test]
fn a_page_that_replaces_the_dom_measuring_methods_gets_the_boxes_it_would_have_without() {
    let mut renderer = Renderer::new(RenderOptions {
        javascript: true,
        ..RenderOptions::default()
    })
    .expect("chromium is installed (run the README's test command)");
    let honest = layout_of(&mut renderer, page_ending_with(&harmless_script()));
    let forged = layout_of(&mut renderer, page_ending_with(FORGERY));
    let laid_out = honest.boxes.iter().flatten().count();
    assert!(
        laid_out > 10,
        "the honest page was laid out: {laid_out} boxes"
    );
    assert!(honest.page_height < 20000.0);
    assert_eq!(forged.page_height, honest.page_height);
    assert_eq!(forged.page_width, honest.page_width);
    assert_eq!(forged.unpainted, honest.unpainted);
    assert_eq!(forged.boxes, honest.boxes);
}

/// A page whose images and form fields carry `names`: `document` and forms expose named
/// elements as properties, shadowing the methods and attributes of the same name.
fn page_naming_elements(names: &[&str]) -> String {
    let images: String = names
        .iter()
        .map(|name| format!("<img name=\"{name}\" width=\"3000\" height=\"3000\">"))
        .collect();
    let fields: String = names
        .iter()
        .map(|name| format!("<input name=\"{name}\">"))
        .collect();
    format!(
        "<!DOCTYPE html><html><head><title>Named</title></head><body><h1>Headline</h1>\
         <p>Some text.</p><form>{fields}</form><div style=\"display: none\">{images}</div>\
         <p>More text.</p></body></html>"
    )
}

#[test]
fn elements_named_after_the_dom_methods_the_walk_uses_do_not_change_the_boxes() {
    let walk_names = [
        "querySelectorAll",
        "getAttribute",
        "getClientRects",
        "getBoundingClientRect",
        "documentElement",
        "body",
        "readyState",
        "scrollWidth",
        "scrollHeight",
    ];
    let plain_names = walk_names.map(|_| "plain");
    let mut renderer = Renderer::new(RenderOptions::default())
        .expect("chromium is installed (run the README's test command)");
    let plain = layout_of(&mut renderer, page_naming_elements(&plain_names));
    let named = layout_of(&mut renderer, page_naming_elements(&walk_names));
    assert!(
        plain.page_height < 3000.0,
        "the hidden images take no space"
    );
    assert_eq!(named.page_height, plain.page_height);
    assert_eq!(named.page_width, plain.page_width);
    assert_eq!(named.boxes, plain.boxes);
}

/// The element whose `id` attribute is `id`.
fn element_with_id(rendered: &LaidOutPage, id: &str) -> pagelevel::page::NodeId {
    let dom = &rendered.page.dom;
    dom.ids()
        .find(|&node| dom.element(node).attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("no element with id {id}"))
}

fn height_of(rendered: &LaidOutPage, id: pagelevel::page::NodeId) -> Option<f64> {
    rendered.layout_box(id).map(|laid_out| laid_out.height)
}

#[test]
fn a_page_that_swaps_the_ids_joining_boxes_to_nodes_still_gets_each_box_on_its_own_node() {
    let mut renderer = Renderer::new(RenderOptions {
        javascript: true,
        ..RenderOptions::default()
    })
    .expect("chromium is installed (run the README's test command)");
    let page = include_str!("fixtures/id-swap.html");
    let source = PageSource::from_bytes(page.as_bytes().to_vec(), None, None);
    let rendered = renderer.render(&source).expect("renders");
    let dom = &rendered.page.dom;
    let root = dom.first_with_tag("html").expect("html");
    let head = dom.first_with_tag("head").expect("head");
    let big = element_with_id(&rendered, "big");
    let small = element_with_id(&rendered, "small");
    let copied = element_with_id(&rendered, "copied");
    let root_height = height_of(&rendered, root);
    assert!(
        root_height.is_some_and(|height| height >= 3000.0),
        "the root keeps its box (the head's ids were swapped with it): {root_height:?}"
    );
    assert_eq!(height_of(&rendered, head), None, "the head has no box");
    let big_height = height_of(&rendered, big);
    assert!(
        big_height.is_some_and(|height| height >= 3000.0),
        "the big block's box is big: {big_height:?}"
    );
    let small_height = height_of(&rendered, small);
    assert!(
        small_height.is_some_and(|height| height < 100.0),
        "the small line's box is small: {small_height:?}"
    );
    let copied_height = height_of(&rendered, copied);
    assert!(
        copied_height.is_none_or(|height| height < 100.0),
        "a copy carrying the line's id does not lend it its box: {copied_height:?}"
    );
}
