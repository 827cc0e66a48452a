//! The native layout's contract, on small pages written to a temporary web root.

use std::path::{Path, PathBuf};

use pagelevel::layout::{Layout, VIEWPORT};
use pagelevel::page::PageSource;
use pagelevel::page::{NodeId, Page, ParseLimits};
use pagelevel::render::{
    NativeBudget, NativeLaidOut, NativeLayoutError, lay_out_native, lay_out_native_within,
};

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

    fn lay_out_within(
        &self,
        page_file: &str,
        budget: &NativeBudget,
    ) -> (Page, Result<NativeLaidOut, NativeLayoutError>) {
        let source = PageSource::from_file(&self.0.join(page_file), Some(&self.0)).unwrap();
        let page = Page::parse(
            &source.bytes,
            source.url.clone(),
            None,
            &ParseLimits::default(),
        )
        .unwrap();
        let laid_out = lay_out_native_within(&page, &source, VIEWPORT, budget);
        (page, laid_out)
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

/// Boxes Chromium 156 gave the elements of `page`, by `id` attribute (from `pagelevel render
/// --layout chromium`): native layout must come within `tolerance` px of each.
fn assert_chromium_boxes(page: &str, expected: &[(&str, [f64; 4])], tolerance: f64) {
    let root = WebRoot::with(
        &format!("chromium-boxes-{}", expected[0].0),
        &[("page.html", page)],
    );
    let (page, layout) = root.lay_out("page.html");
    for (id, chromium) in expected {
        let native = layout.boxes[element_with_id(&page, id).index()]
            .unwrap_or_else(|| panic!("#{id} has no box; Chromium's is {chromium:?}"));
        let native = [native.x, native.y, native.width, native.height];
        let off = native
            .iter()
            .zip(chromium)
            .any(|(native, chromium)| (native - chromium).abs() > tolerance);
        assert!(!off, "#{id}: native {native:?}, Chromium {chromium:?}");
    }
}

#[test]
fn line_breaks_get_a_zero_wide_box_where_their_line_ends() {
    assert_chromium_boxes(
        "<!DOCTYPE html><body><p>first line<br id=end-of-text>second line is here\
         <br id=end-of-second><br id=empty-line>after two</p>\
         <div style='line-height:30px'>x<br id=tall-line>y</div>\
         <p><br id=alone></p>\
         <p style='white-space:pre-line'>pre\nline<br id=after-preserved>z</p></body>",
        &[
            ("end-of-text", [61.77, 16.0, 0.0, 17.0]),
            ("end-of-second", [126.63, 34.0, 0.0, 17.0]),
            ("empty-line", [8.0, 52.0, 0.0, 17.0]),
            ("tall-line", [16.0, 110.0, 0.0, 17.0]),
            ("alone", [8.0, 180.0, 0.0, 17.0]),
            ("after-preserved", [32.0, 232.0, 0.0, 17.0]),
        ],
        1.0,
    );
}

#[test]
fn elements_inside_inline_svg_get_their_geometry_boxes() {
    assert_chromium_boxes(
        "<!DOCTYPE html><body><div><svg id=scaled width=100 height=50 viewBox='0 0 200 100'>\
         <g id=group transform='translate(10,10)'><rect id=rect x=0 y=0 width=50 height=20 />\
         <circle id=circle cx=100 cy=50 r=10 /></g>\
         <path id=path d='M10 80 L 190 90' stroke=black /></svg></div>\
         <svg width=24 height=24><use id=use href='#circle'/>\
         <line id=line x1=0 y1=0 x2=10 y2=20 /><polygon id=polygon points='1,1 5,9 9,1'/></svg>\
         </body>",
        &[
            ("scaled", [8.0, 8.0, 100.0, 50.0]),
            ("group", [13.0, 13.0, 55.0, 30.0]),
            ("rect", [13.0, 13.0, 25.0, 10.0]),
            ("circle", [58.0, 33.0, 10.0, 10.0]),
            ("path", [13.0, 48.0, 90.0, 5.0]),
            ("use", [98.0, 102.0, 20.0, 20.0]),
            ("line", [8.0, 62.0, 10.0, 20.0]),
            ("polygon", [9.0, 63.0, 8.0, 8.0]),
        ],
        0.5,
    );
}

#[test]
fn svg_definitions_get_no_box() {
    let root = WebRoot::with(
        "svg-defs",
        &[(
            "page.html",
            "<!DOCTYPE html><svg width=20 height=20><defs><linearGradient id=gradient>\
             <stop id=stop offset=0 /></linearGradient></defs><title id=title>t</title>\
             <rect id=shown width=5 height=5 /><rect id=hidden display=none width=5 height=5 />\
             </svg><svg style='display:none'><symbol id=icon><rect id=sprite width=9 height=9 />\
             </symbol></svg>",
        )],
    );
    let (page, layout) = root.lay_out("page.html");
    for id in ["gradient", "stop", "title", "hidden", "icon", "sprite"] {
        let boxed = layout.boxes[element_with_id(&page, id).index()];
        assert!(boxed.is_none(), "#{id} is not rendered but has {boxed:?}");
    }
    assert!(layout.boxes[element_with_id(&page, "shown").index()].is_some());
}

#[test]
fn a_closed_details_shows_its_summary_and_measures_its_content_where_it_would_open() {
    // Chromium lays the content of a closed details out below the summary (it is measured,
    // not painted) without making the details taller; a details without a summary gets
    // Chromium's default one.
    assert_chromium_boxes(
        "<!DOCTYPE html><body><details id=closed><summary id=summary>More</summary>\
         <p id=inside>hidden text</p><div id=also-inside>x</div></details>\
         <details id=open open><summary>Open</summary><p id=shown>visible</p></details>\
         <details id=no-summary><p id=inside-unnamed>no summary</p></details><p id=after>end</p>\
         </body>",
        &[
            ("closed", [8.0, 8.0, 1264.0, 18.0]),
            ("summary", [8.0, 8.0, 1264.0, 18.0]),
            ("inside", [8.0, 42.0, 1264.0, 18.0]),
            ("also-inside", [8.0, 76.0, 1264.0, 18.0]),
            ("open", [8.0, 26.0, 1264.0, 52.0]),
            ("shown", [8.0, 60.0, 1264.0, 18.0]),
            ("no-summary", [8.0, 94.0, 1264.0, 18.0]),
            ("inside-unnamed", [8.0, 128.0, 1264.0, 18.0]),
            ("after", [8.0, 128.0, 1264.0, 18.0]),
        ],
        0.5,
    );
}

#[test]
fn an_svg_takes_chromiums_natural_size_where_the_page_leaves_it_open() {
    // 300×150 without a viewBox; the viewBox's aspect ratio when CSS gives one dimension.
    assert_chromium_boxes(
        "<!DOCTYPE html><style>.icon{height:1em}</style><body>\
         <div><svg id=ratio class=icon viewBox='0 0 100 50'></svg></div>\
         <div><svg id=default></svg></div><div><svg id=narrow width=40></svg></div>\
         <div><svg id=sized width=40 viewBox='0 0 100 50'></svg></div></body>",
        &[
            ("ratio", [8.0, 8.0, 32.0, 16.0]),
            ("default", [8.0, 28.0, 300.0, 150.0]),
            ("narrow", [8.0, 182.0, 40.0, 150.0]),
            ("sized", [8.0, 336.0, 40.0, 20.0]),
        ],
        0.5,
    );
}

fn memory_budget(mebibytes: u64) -> NativeBudget {
    NativeBudget {
        memory_bytes: mebibytes * 1024 * 1024,
        ..NativeBudget::default()
    }
}

#[test]
fn a_page_over_the_memory_budget_is_laid_out_without_its_stylesheets_when_that_suffices() {
    // 3 MB of stylesheet (a comment: few rules) are estimated at far more than the page.
    let css = format!("#a {{ height: 123px }}\n/*{}*/", "x".repeat(3_000_000));
    let root = WebRoot::with(
        "memory-css",
        &[
            ("site.css", &css),
            (
                "page.html",
                "<!DOCTYPE html><link rel=stylesheet href=site.css><div id=a>text</div>",
            ),
        ],
    );
    let (page, laid_out) = root.lay_out_within("page.html", &memory_budget(64));
    let laid_out = laid_out.unwrap();
    let warning = laid_out
        .without_stylesheets
        .expect("laid out without its stylesheets")
        .to_string();
    assert!(
        warning.contains("over the layout memory budget of 64 MiB"),
        "{warning}"
    );
    let a = laid_out.layout.boxes[element_with_id(&page, "a").index()].unwrap();
    assert_eq!(a.height, 18.0, "the stylesheet did not apply");

    let (_, generous) = root.lay_out_within("page.html", &memory_budget(512));
    assert!(generous.unwrap().without_stylesheets.is_none());
}

#[test]
fn stylesheets_with_more_style_rules_than_style_in_bounded_time_are_not_applied() {
    let rules: String = (0..25_000)
        .map(|i| format!(".r{i} {{ color: red }}\n"))
        .collect();
    let root = WebRoot::with(
        "many-rules",
        &[(
            "page.html",
            &format!(
                "<!DOCTYPE html><style>#a {{ height: 123px }}\n{rules}</style><div id=a>x</div>"
            ),
        )],
    );
    let (page, laid_out) = root.lay_out_within("page.html", &NativeBudget::default());
    let laid_out = laid_out.unwrap();
    let warning = laid_out
        .without_stylesheets
        .expect("not styled")
        .to_string();
    assert!(warning.contains("25001 style rules"), "{warning}");
    let a = laid_out.layout.boxes[element_with_id(&page, "a").index()].unwrap();
    assert_eq!(a.height, 18.0);
}

#[test]
fn a_page_over_the_memory_budget_even_without_stylesheets_is_refused_naming_its_size() {
    let root = WebRoot::with(
        "memory-refused",
        &[(
            "page.html",
            &format!("<!DOCTYPE html><body>{}", "<div>x</div>".repeat(20_000)),
        )],
    );
    let (_, laid_out) = root.lay_out_within("page.html", &memory_budget(64));
    let error = laid_out.unwrap_err();
    assert!(
        matches!(error, NativeLayoutError::OverMemoryBudget { .. }),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.contains("20003 elements")
            && message.contains("over the layout memory budget of 64 MiB")
            && message.contains("--max-layout-memory"),
        "{message}"
    );
}

#[test]
fn imported_stylesheets_count_against_the_bound_on_style_rules() {
    // The estimate sees only linked sheets; the loader holds imports to what is left.
    let rules: String = (0..25_000)
        .map(|i| format!(".r{i} {{ color: red }}\n"))
        .collect();
    let root = WebRoot::with(
        "imported-rules",
        &[
            ("site.css", "@import 'many.css'; #a { height: 123px }"),
            ("many.css", &format!("#b {{ height: 77px }}\n{rules}")),
            (
                "page.html",
                "<!DOCTYPE html><link rel=stylesheet href=site.css><div id=a></div><div id=b></div>",
            ),
        ],
    );
    let (page, layout) = root.lay_out("page.html");
    let height = |id| {
        layout.boxes[element_with_id(&page, id).index()]
            .unwrap()
            .height
    };
    assert_eq!(height("a"), 123.0, "the linked sheet applies");
    assert_eq!(height("b"), 0.0, "the import over the bound does not");
}

#[test]
fn a_link_around_an_image_is_as_tall_as_its_font_not_the_image() {
    // A thumbnail link is a 92 × 17 box on the image's baseline in Chromium, under the area at
    // which elements are scored apart; the image keeps its own box.
    assert_chromium_boxes(
        "<!DOCTYPE html><body><div><a id=thumbnail href=#><img id=image width=92 height=69>\
         </a></div><p><a id=in-text href=#><img width=92 height=69></a> text</p>\
         <div style='line-height:40px'><a id=tall-line href=#><img width=50 height=60></a></div>\
         <div><a id=block-image href=#><img style='display:block' width=50 height=60></a></div>\
         </body>",
        &[
            ("thumbnail", [8.0, 63.0, 92.0, 17.0]),
            ("image", [8.0, 8.0, 92.0, 69.0]),
            ("in-text", [8.0, 152.0, 92.0, 17.0]),
            ("tall-line", [8.0, 232.0, 50.0, 17.0]),
            ("block-image", [8.0, 261.0, 1264.0, 60.0]),
        ],
        0.5,
    );
}

#[test]
fn margins_collapse_through_a_line_holding_only_an_empty_named_anchor() {
    // `<a name=top></a>` alone between blocks makes no line in Chromium: the body's and the
    // heading's margins collapse through it, and the anchor is a 0 × 0 box in its place.
    assert_chromium_boxes(
        "<!DOCTYPE html><body> <a id=anchor name=top></a> <h1 id=title>Title</h1><p>x</p>\
         <div>y</div> <a id=between name=mid></a> <p id=after>after</p></body>",
        &[
            ("anchor", [8.0, 21.44, 0.0, 0.0]),
            ("title", [8.0, 21.44, 1264.0, 37.0]),
            ("between", [8.0, 131.88, 0.0, 0.0]),
            ("after", [8.0, 147.88, 1264.0, 18.0]),
        ],
        0.5,
    );
}

/// Outside markers are not laid out (they take no room), but a marker the author places
/// `inside` with a type of their own still pushes its item's text to the right, as in Chromium.
#[test]
fn list_markers_take_room_only_where_the_author_puts_them_inside() {
    let root = WebRoot::with(
        "list-markers",
        &[(
            "page.html",
            "<!DOCTYPE html><body>\
             <ul><li id=outside-item><span id=outside-text>default</span></li></ul>\
             <ol style='list-style: decimal inside'><li id=inside-item>\
             <span id=inside-text>numbered</span></li></ol></body>",
        )],
    );
    let (page, layout) = root.lay_out("page.html");
    let left = |id: &str| layout.boxes[element_with_id(&page, id).index()].unwrap().x;
    assert!((left("outside-text") - left("outside-item")).abs() < 0.01);
    assert!(
        left("inside-text") > left("inside-item") + 8.0,
        "text at {}, item at {}",
        left("inside-text"),
        left("inside-item")
    );
}
