use super::*;
use crate::page::{Page, ParseLimits};

/// The Markdown of every text node and image of `html` (a page chosen whole).
fn markdown_of(html: &str, options: MarkdownOptions) -> String {
    let url = Url::parse("https://news.example/2024/story.html").unwrap();
    let page = Page::parse(
        html.as_bytes(),
        Some(url.clone()),
        None,
        &ParseLimits::default(),
    )
    .unwrap();
    let dom = &page.dom;
    let text_nodes: Vec<u32> = (0..dom.texts.len() as u32)
        .filter(|&index| dom.is_visible_text_parent(dom.texts[index as usize].parent))
        .collect();
    let images: Vec<NodeId> = dom
        .ids()
        .filter(|&id| dom.element(id).tag == "img")
        .collect();
    write_markdown(dom, &text_nodes, &images, Some(&url), options)
}

fn markdown(html: &str) -> String {
    markdown_of(html, MarkdownOptions::default())
}

#[test]
fn headings_keep_their_level_and_paragraphs_are_separated_by_blank_lines() {
    assert_eq!(
        markdown("<h1>Title</h1><p>First  para\ngraph.</p><h3>Sub</h3><div>Second.</div>"),
        "# Title\n\nFirst para graph.\n\n### Sub\n\nSecond."
    );
}

#[test]
fn nested_and_ordered_lists_are_indented_under_their_items() {
    assert_eq!(
        markdown(
            "<ul><li>one<ul><li>one.a</li></ul></li><li>two</li></ul><ol start=3><li>c</li><li>d</li></ol>"
        ),
        "- one\n  - one.a\n- two\n\n3. c\n4. d"
    );
}

#[test]
fn emphasis_hugs_its_text_and_keeps_the_spaces_outside() {
    assert_eq!(
        markdown(
            "<p>a<strong> bold </strong>and <em>it</em>, <b><strong>twice</strong></b> <code>x*y</code></p>"
        ),
        "a **bold** and *it*, **twice** `x*y`"
    );
}

#[test]
fn literal_markup_characters_stay_text() {
    assert_eq!(
        markdown("<p># not a heading</p><p>2 * 3 = 6 | [x] _y_</p><p>- not a list</p>"),
        "\\# not a heading\n\n2 \\* 3 = 6 \\| \\[x\\] \\_y\\_\n\n\\- not a list"
    );
}

#[test]
fn a_data_table_becomes_a_pipe_table() {
    let html = "<table><tr><th>City</th><th>People</th></tr><tr><td>Oslo</td><td>709|000</td></tr>\
                <tr><td>Bergen</td><td></td></tr></table>";
    assert_eq!(
        markdown(html),
        "| City | People |\n| --- | --- |\n| Oslo | 709\\|000 |\n| Bergen |  |"
    );
}

#[test]
fn a_table_with_merged_cells_falls_back_to_text_rows() {
    let html = "<table><tr><td colspan=2>Results</td></tr><tr><td>a</td><td>1</td></tr></table>";
    assert_eq!(markdown(html), "Results\n\na | 1");
}

#[test]
fn a_layout_table_gives_its_content_as_blocks() {
    let html = "<table><tr><td><h2>Story</h2><p>Body text.</p></td><td><ul><li>x</li></ul></td></tr></table>";
    assert_eq!(markdown(html), "## Story\n\nBody text.\n\n- x");
}

#[test]
fn quotes_and_code_blocks_keep_their_content() {
    let html = "<blockquote><p>Said one.</p><p>Said two.</p></blockquote>\
                <pre><code class=\"language-rust\">fn main() {\n    let a = [1];\n}\n</code></pre>";
    assert_eq!(
        markdown(html),
        "> Said one.\n>\n> Said two.\n\n```rust\nfn main() {\n    let a = [1];\n}\n```"
    );
}

#[test]
fn a_code_block_holding_fences_gets_a_longer_fence() {
    assert_eq!(
        markdown("<pre>```\nx\n```</pre>"),
        "````\n```\nx\n```\n````"
    );
}

#[test]
fn line_breaks_are_hard_breaks_inside_a_paragraph() {
    assert_eq!(
        markdown("<p><br>Line one<br>Line two<br></p>"),
        "Line one\\\nLine two"
    );
}

#[test]
fn links_and_images_are_written_only_when_asked_with_absolute_urls() {
    let html = "<p>See <a href=\"/a b\">the report</a> <a href=\"javascript:x()\">here</a>.</p>\
                <p><img src=\"data:x\" data-src=\"img/1.png\" alt=\"A [chart]\"></p>";
    assert_eq!(markdown(html), "See the report here.");
    let options = MarkdownOptions {
        links: true,
        images: true,
    };
    assert_eq!(
        markdown_of(html, options),
        "See [the report](https://news.example/a%20b) here.\n\n\
         ![A \\[chart\\]](https://news.example/2024/img/1.png)"
    );
}

#[test]
fn a_link_around_blocks_leaves_the_blocks() {
    let html = "<a href=\"/p\"><h3>Card title</h3><p>Card text.</p></a>";
    let options = MarkdownOptions {
        links: true,
        images: false,
    };
    assert_eq!(markdown_of(html, options), "### Card title\n\nCard text.");
}

#[test]
fn only_the_chosen_text_is_written() {
    let html = "<nav><ul><li>Home</li></ul></nav><article><h1>Kept</h1><p>Body.</p></article>";
    let page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap();
    let dom = &page.dom;
    let chosen: Vec<u32> = (0..dom.texts.len() as u32)
        .filter(|&index| dom.texts[index as usize].text != "Home")
        .collect();
    assert_eq!(
        write_markdown(dom, &chosen, &[], None, MarkdownOptions::default()),
        "# Kept\n\nBody."
    );
}

#[test]
fn a_very_deep_page_does_not_exhaust_the_stack() {
    let depth = 4_000;
    let html = format!(
        "{}<p>deep</p>{}",
        "<div>".repeat(depth),
        "</div>".repeat(depth)
    );
    assert_eq!(markdown(&html), "deep");
}

#[test]
fn a_code_block_is_written_whole_when_some_of_it_is_chosen() {
    let html = "<pre><span>(func</span><br> (nop)<br><span>)</span>)</pre><p>after</p>";
    let page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap();
    let dom = &page.dom;
    let first = (0..dom.texts.len() as u32)
        .find(|&index| dom.texts[index as usize].text == "(func")
        .unwrap();
    assert_eq!(
        write_markdown(dom, &[first], &[], None, MarkdownOptions::default()),
        "```\n(func\n (nop)\n))\n```"
    );
}

#[test]
fn a_list_number_stays_one_markdown_reads_as_a_number() {
    assert_eq!(
        markdown("<ol start=\"999999999999\"><li>a</li></ol><ol start=\"-3\"><li>b</li></ol>"),
        "1. a\n\n1. b"
    );
    assert_eq!(
        markdown("<ol start=\"999999999\"><li>a</li><li>b</li></ol>"),
        "999999999. a\n999999999. b"
    );
}
