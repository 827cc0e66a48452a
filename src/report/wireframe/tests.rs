use super::text::{MIN_FONT_PX, TextExtent};
use super::*;
use crate::layout::by_hand;
use crate::page::{Page, ParseLimits};

/// `html` laid out by hand (boxes by id or tag, [x, y, width, height]) on a 1000 × 1000 page,
/// drawn at half size.
fn drawn(html: &str, boxes: &[(&str, [f64; 4])]) -> String {
    let page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).expect("parses");
    let boxes: Vec<(&str, [f64; 4])> = [
        ("html", [0.0, 0.0, 1000.0, 1000.0]),
        ("body", [0.0, 0.0, 1000.0, 1000.0]),
    ]
    .into_iter()
    .chain(boxes.iter().copied())
    .collect();
    wireframe(&by_hand::lay_out(page, &boxes, 1000.0, 1000.0), 1000.0, 0.5)
}

#[test]
fn a_paragraph_is_written_in_its_box_with_its_link_underlined() {
    let html = drawn(
        "<body><p>Read the <a href='/manual'>manual</a> first.</p></body>",
        &[
            ("p", [0.0, 100.0, 600.0, 40.0]),
            ("a", [70.0, 100.0, 60.0, 20.0]),
        ],
    );
    assert!(
        html.contains(
            r#"<div class="t" style="left:0.0px;top:50.0px;width:300.0px;height:20.0px;font-size:8.0px">Read the <u>manual</u> first.</div>"#
        ),
        "{html}"
    );
    assert!(
        html.contains(
            r#"<div class="b" style="left:0.0px;top:50.0px;width:300.0px;height:20.0px">"#
        ),
        "the paragraph's block is outlined: {html}"
    );
}

#[test]
fn a_menu_of_links_writes_each_link_in_its_own_box_and_outlines_it() {
    let html = drawn(
        "<body><ul><li><a id='home' href='/'>Home</a> <a id='about' href='/about'>About</a></li></ul></body>",
        &[
            ("ul", [0.0, 0.0, 1000.0, 30.0]),
            ("li", [0.0, 0.0, 1000.0, 30.0]),
            ("home", [10.0, 5.0, 80.0, 20.0]),
            ("about", [100.0, 5.0, 80.0, 20.0]),
        ],
    );
    assert!(
        html.contains(r#"style="left:5.0px;top:2.5px;width:40.0px;height:10.0px;font-size:8.0px"><u>Home</u></div>"#),
        "{html}"
    );
    assert!(
        html.contains(r#"style="left:50.0px;top:2.5px;width:40.0px;height:10.0px;font-size:8.0px"><u>About</u></div>"#),
        "{html}"
    );
    assert_eq!(html.matches(r#"<div class="ln""#).count(), 2, "{html}");
}

#[test]
fn text_between_two_blocks_is_written_in_the_strip_between_them() {
    let html = drawn(
        "<body><div id='box'><h2 id='head'>Title</h2>Loose words here<p id='after'>Next</p></div></body>",
        &[
            ("box", [0.0, 0.0, 800.0, 300.0]),
            ("head", [0.0, 0.0, 800.0, 40.0]),
            ("after", [0.0, 200.0, 800.0, 40.0]),
        ],
    );
    assert!(
        html.contains(r#"style="left:0.0px;top:20.0px;width:400.0px;height:80.0px;font-size:8.0px">Loose words here</div>"#),
        "{html}"
    );
    assert!(
        html.contains(r#"font-size:12.0px"><b>Title</b></div>"#),
        "a heading is bold and larger: {html}"
    );
}

#[test]
fn hostile_page_text_alt_text_and_values_are_escaped() {
    let html = drawn(
        r#"<body><p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; "quoted"</p>
        <img alt='"><script>alert(2)</script>'>
        <input value='</div><script>alert(3)</script>'></body>"#,
        &[
            ("p", [0.0, 0.0, 800.0, 40.0]),
            ("img", [0.0, 100.0, 200.0, 100.0]),
            ("input", [0.0, 300.0, 200.0, 30.0]),
        ],
    );
    assert!(!html.contains("<script"), "{html}");
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot;"),
        "{html}"
    );
    assert!(
        html.contains(r#"title="&lt;img&gt; &quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;">&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;</div>"#),
        "the alt text is written in the image's frame: {html}"
    );
    assert!(
        html.contains("&lt;/div&gt;&lt;script&gt;alert(3)"),
        "{html}"
    );
}

#[test]
fn preformatted_text_keeps_its_spaces_and_lines() {
    let html = drawn(
        "<body><pre>fn main() {\n    run();\n}</pre></body>",
        &[("pre", [0.0, 0.0, 800.0, 60.0])],
    );
    assert!(
        html.contains(r#"<div class="t pre""#)
            && html.contains(">fn main() {\n    run();\n}</div>"),
        "{html}"
    );
}

#[test]
fn nothing_below_the_shown_height_or_without_a_box_is_drawn() {
    let html = drawn(
        "<body><p id='seen'>Seen</p><p id='below'>Below</p><p>No box</p>\
         <div style='display:none'><img alt='hidden'></div></body>",
        &[
            ("seen", [0.0, 900.0, 800.0, 200.0]),
            ("below", [0.0, 1000.0, 800.0, 40.0]),
        ],
    );
    assert!(
        html.contains(r#"style="left:0.0px;top:450.0px;width:400.0px;height:50.0px">"#),
        "a block across the shown height is cut there: {html}"
    );
    for unseen in ["Below", "No box", "hidden"] {
        assert!(!html.contains(unseen), "{unseen}: {html}");
    }
}

#[test]
fn a_huge_page_draws_at_most_a_few_thousand_blocks() {
    let page = format!("<body>{}</body>", "<div></div>".repeat(30_000));
    let html = drawn(&page, &[("div", [0.0, 0.0, 10.0, 10.0])]);
    assert_eq!(html.matches(r#"<div class="b""#).count(), MAX_BLOCKS);
    assert!(html.len() < 1_000_000, "{} bytes", html.len());
}

#[test]
fn a_short_text_keeps_the_default_size_and_a_long_one_shrinks_until_it_fits() {
    let short = TextExtent::Wrapping { chars: 20 };
    assert_eq!(short.fitted_font(400.0, 40.0, 9.6), 9.6);
    let long = TextExtent::Wrapping { chars: 400 };
    let font = long.fitted_font(400.0, 40.0, 9.6);
    assert!((MIN_FONT_PX..9.6).contains(&font), "{font}");
    let huge = TextExtent::Wrapping { chars: 100_000 };
    assert_eq!(
        huge.fitted_font(400.0, 40.0, 9.6),
        MIN_FONT_PX,
        "then it is clipped"
    );
    // Code does not wrap: its lines and its longest line must fit.
    let code = TextExtent::Lines {
        lines: 3,
        longest: 50,
    };
    assert_eq!(code.fitted_font(400.0, 60.0, 9.6), 9.6);
    let wide_code = TextExtent::Lines {
        lines: 3,
        longest: 80,
    };
    let font = wide_code.fitted_font(400.0, 60.0, 9.6);
    assert!((font - 400.0 / (0.6 * 80.0)).abs() < 1e-9, "{font}");
}
