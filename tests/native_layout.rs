//! The native layout's contract, on small pages written to a temporary web root.

use std::path::{Path, PathBuf};

use pagelevel::layout::{Layout, VIEWPORT};
use pagelevel::page::PageSource;
use pagelevel::page::{NodeId, Page, ParseLimits};
use pagelevel::render::lay_out_native;

/// A fresh web root holding `files` (name, contents), removed when dropped.
struct WebRoot(PathBuf);

impl WebRoot {
    fn with(name: &str, files: &[(&str, &str)]) -> WebRoot {
        let root =
            std::env::temp_dir().join(format!("pagelevel-native-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (file, contents) in files {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, contents).unwrap();
        }
        WebRoot(root)
    }

    fn lay_out(&self, page_file: &str) -> (Page, Layout) {
        let source = PageSource::from_file(&self.0.join(page_file), Some(&self.0)).unwrap();
        let page = Page::parse(
            &source.bytes,
            source.url.clone(),
            None,
            &ParseLimits::default(),
        )
        .unwrap();
        let layout = lay_out_native(&page, &source, VIEWPORT).unwrap();
        (page, layout)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for WebRoot {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn first(page: &Page, tag: &str) -> NodeId {
    page.dom.first_with_tag(tag).unwrap()
}

fn element_with_id(page: &Page, id: &str) -> NodeId {
    page.dom
        .ids()
        .find(|&node| page.dom.element(node).attribute("id") == Some(id))
        .unwrap()
}

#[test]
fn boxes_are_border_boxes_in_page_coordinates() {
    let root = WebRoot::with(
        "border-box",
        &[(
            "page.html",
            "<!DOCTYPE html><body style='margin:10px'><div id=a style='height:100px'></div>\
             <div id=b style='margin-left:20px;padding:5px;border:2px solid;width:50px;height:30px'>\
             </div></body>",
        )],
    );
    let (page, layout) = root.lay_out("page.html");
    let b = layout.boxes[element_with_id(&page, "b").index()].unwrap();
    assert_eq!((b.x, b.y, b.width, b.height), (30.0, 110.0, 64.0, 44.0));
}

#[test]
fn elements_under_display_none_and_in_head_have_no_box() {
    let root = WebRoot::with(
        "display-none",
        &[(
            "page.html",
            "<!DOCTYPE html><head><title>t</title></head><body><div style='display:none'>\
             <p id=hidden>x</p></div><p id=shown>y</p></body>",
        )],
    );
    let (page, layout) = root.lay_out("page.html");
    assert!(layout.boxes[first(&page, "title").index()].is_none());
    assert!(layout.boxes[element_with_id(&page, "hidden").index()].is_none());
    assert!(layout.boxes[element_with_id(&page, "shown").index()].is_some());
}

#[test]
fn hidden_elements_keep_their_box_but_are_listed_unpainted() {
    let root = WebRoot::with(
        "unpainted",
        &[(
            "page.html",
            "<!DOCTYPE html><body><p id=ghost style='visibility:hidden'>x</p><p>y</p></body>",
        )],
    );
    let (page, layout) = root.lay_out("page.html");
    let ghost = element_with_id(&page, "ghost");
    assert!(layout.boxes[ghost.index()].is_some());
    assert_eq!(layout.unpainted, vec![ghost]);
}

#[test]
fn linked_and_imported_stylesheets_under_the_web_root_apply() {
    let root = WebRoot::with(
        "stylesheets",
        &[
            ("css/site.css", "@import 'more.css'; #a { height: 123px }"),
            ("css/more.css", "#b { height: 77px }"),
            (
                "docs/page.html",
                "<!DOCTYPE html><link rel=stylesheet href='../css/site.css'>\
                 <div id=a></div><div id=b></div>",
            ),
        ],
    );
    let (page, layout) = root.lay_out("docs/page.html");
    assert_eq!(
        layout.boxes[element_with_id(&page, "a").index()]
            .unwrap()
            .height,
        123.0
    );
    assert_eq!(
        layout.boxes[element_with_id(&page, "b").index()]
            .unwrap()
            .height,
        77.0
    );
}

#[test]
fn stylesheets_outside_the_web_root_are_never_read() {
    let outside = WebRoot::with("outside", &[("secret.css", "#a { height: 500px }")]);
    let site = WebRoot::with(
        "inside",
        &[(
            "page.html",
            &format!(
                "<!DOCTYPE html><link rel=stylesheet href='%2e%2e/{}/secret.css'>\
                 <link rel=stylesheet href='file://{}/secret.css'><div id=a></div>",
                outside.path().file_name().unwrap().to_string_lossy(),
                outside.path().display()
            ),
        )],
    );
    let (page, layout) = site.lay_out("page.html");
    assert_eq!(
        layout.boxes[element_with_id(&page, "a").index()]
            .unwrap()
            .height,
        0.0
    );
}

#[test]
fn print_stylesheets_do_not_apply_on_screen() {
    let root = WebRoot::with(
        "media",
        &[
            ("print.css", "#menu { display: none }"),
            ("narrow.css", "#menu { height: 999px }"),
            (
                "page.html",
                "<!DOCTYPE html><link rel=stylesheet media=print href=print.css>\
                 <link rel=stylesheet media='screen and (max-width: 600px)' href=narrow.css>\
                 <style media=print>#menu { height: 1px }</style>\
                 <div id=menu style='min-height:5px'>menu</div>",
            ),
        ],
    );
    let (page, layout) = root.lay_out("page.html");
    let menu = layout.boxes[element_with_id(&page, "menu").index()].unwrap();
    assert_eq!(menu.height, 18.0);
}

#[test]
fn an_image_that_did_not_load_takes_chromiums_box() {
    let root = WebRoot::with(
        "images",
        &[(
            "page.html",
            "<!DOCTYPE html><body><img id=alt src=missing.png alt='A photo'>\
             <img id=icon src=missing.png><img id=sized src=missing.png width=120 height=40>\
             </body>",
        )],
    );
    let (page, layout) = root.lay_out("page.html");
    let size = |id| {
        let b = layout.boxes[element_with_id(&page, id).index()].unwrap();
        (b.width, b.height)
    };
    assert!(size("alt").0 > 40.0, "alt text is drawn: {:?}", size("alt"));
    assert_eq!(size("icon"), (16.0, 16.0));
    assert_eq!(size("sized"), (120.0, 40.0));
}

#[test]
fn inline_elements_are_as_tall_as_their_text_not_their_line() {
    let root = WebRoot::with(
        "inline",
        &[(
            "page.html",
            "<!DOCTYPE html><body><p style='line-height:40px'><a id=link href=#>link</a></p></body>",
        )],
    );
    let (page, layout) = root.lay_out("page.html");
    let link = layout.boxes[element_with_id(&page, "link").index()].unwrap();
    assert_eq!(link.height, 17.0);
}

#[test]
fn table_rows_get_the_union_of_their_cells() {
    let root = WebRoot::with(
        "table",
        &[(
            "page.html",
            "<!DOCTYPE html><table><tbody><tr id=row><td>a</td><td>b</td></tr></tbody></table>",
        )],
    );
    let (page, layout) = root.lay_out("page.html");
    let row = layout.boxes[element_with_id(&page, "row").index()].unwrap();
    let body = layout.boxes[first(&page, "tbody").index()].unwrap();
    assert!(row.width > 0.0 && row.height > 0.0);
    assert_eq!(row, body);
}

#[test]
fn the_deepest_page_the_parser_accepts_does_not_overflow_the_stack() {
    let depth = 4_990;
    let html = format!(
        "<!DOCTYPE html><body>{}deep{}",
        "<div>".repeat(depth),
        "</div>".repeat(depth)
    );
    let root = WebRoot::with("deep", &[("page.html", &html)]);
    let (page, layout) = root.lay_out("page.html");
    assert_eq!(layout.boxes.iter().flatten().count(), page.dom.len() - 1);
}

#[test]
fn xhtml_pages_are_laid_out_as_html() {
    let root = WebRoot::with(
        "xhtml",
        &[(
            "page.html",
            "<text id=x>\n<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\">\
             <html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p id=p>unclosed<br></body></html>",
        )],
    );
    let (page, layout) = root.lay_out("page.html");
    assert!(layout.boxes[element_with_id(&page, "p").index()].is_some());
}

#[test]
fn urls_the_engine_cannot_resolve_do_not_cost_the_page() {
    let root = WebRoot::with(
        "bad-urls",
        &[(
            "page.html",
            "<!DOCTYPE html><link rel=stylesheet href='http://[bad'><body>\
             <img id=image src='http://[bad' alt=x><p id=p>text</p></body>",
        )],
    );
    let (page, layout) = root.lay_out("page.html");
    assert!(layout.boxes[element_with_id(&page, "p").index()].is_some());
    assert!(layout.boxes[element_with_id(&page, "image").index()].is_some());
}
