use super::*;

fn parse(html: &str) -> Page {
    let url = Url::parse("https://example.org/dir/page.html").ok();
    Page::parse(html.as_bytes(), url, None, &ParseLimits::default()).expect("page parses")
}

#[test]
fn elements_are_numbered_in_document_order_with_parents_and_depths() {
    let page = parse("<html><body><div id=a><p>one</p></div><p>two</p></body></html>");
    let tags: Vec<&str> = page.dom.elements.iter().map(|e| e.tag.as_str()).collect();
    assert_eq!(tags, ["html", "head", "body", "div", "p", "p"]);
    let first_p = page.dom.element(NodeId(4));
    assert_eq!(first_p.parent, Some(NodeId(3)));
    assert_eq!(first_p.depth, 3);
    assert_eq!(page.dom.element(NodeId(3)).attribute("id"), Some("a"));
}

#[test]
fn a_subtree_is_a_contiguous_id_range() {
    let page = parse("<body><div><p>a<b>b</b></p><p>c</p></div><span>d</span></body>");
    let div = page.dom.first_with_tag("div").expect("div");
    let tags: Vec<&str> = page
        .dom
        .subtree(div)
        .map(|id| page.dom.element(id).tag.as_str())
        .collect();
    assert_eq!(tags, ["div", "p", "b", "p"]);
    assert_eq!(page.dom.text(div), "ab c");
}

#[test]
fn links_resolve_against_the_base_href_before_the_page_url() {
    let page = parse(
        "<head><base href='/other/'></head><body><a href='x.html'>x</a><a href='https://a.test/'>a</a></body>",
    );
    let links: Vec<&str> = page
        .dom
        .elements
        .iter()
        .filter_map(|e| e.link.as_deref())
        .collect();
    assert_eq!(
        links,
        ["https://example.org/other/x.html", "https://a.test/"]
    );
}

#[test]
fn links_resolve_against_the_page_url_without_a_base() {
    let page = parse("<a href='../up.html'>up</a>");
    let link = page.dom.elements.iter().find_map(|e| e.link.clone());
    assert_eq!(link.as_deref(), Some("https://example.org/up.html"));
}

#[test]
fn broken_markup_is_repaired_not_rejected() {
    let page = parse("<table><tr><td>cell<p>para</td></tr></table><div><span>open");
    assert!(page.dom.first_with_tag("td").is_some());
    assert_eq!(page.dom.text(NodeId(0)), "cell para open");
}

#[test]
fn the_title_is_read_and_script_text_is_not_page_text() {
    let page = parse("<title> My  Page </title><script>var x=1;</script><p>Hello</p>");
    assert_eq!(page.title, "My Page");
    assert_eq!(page.dom.text(NodeId(0)), "Hello");
}

#[test]
fn own_text_is_only_the_direct_text_children() {
    let page = parse("<div>before <b>bold</b> after</div>");
    let div = page.dom.first_with_tag("div").expect("div");
    assert_eq!(page.dom.own_text(div), "before after");
}

#[test]
fn html_bytes_of_a_parent_include_its_children() {
    let page = parse("<div class=x><p>hello</p></div>");
    let div = page.dom.first_with_tag("div").expect("div");
    let p = page.dom.first_with_tag("p").expect("p");
    assert_eq!(page.dom.element(p).html_bytes, "<p>hello</p>".len() as u64);
    assert_eq!(
        page.dom.element(div).html_bytes,
        "<div class=\"x\"><p>hello</p></div>".len() as u64
    );
}

#[test]
fn xpaths_count_same_tag_siblings() {
    let page = parse("<body><p>a</p><div></div><p>b</p></body>");
    let last_p = page
        .dom
        .ids()
        .rev()
        .find(|&id| page.dom.element(id).tag == "p")
        .expect("p");
    assert_eq!(page.dom.xpath(last_p), "/html[1]/body[1]/p[2]");
    let all = page.dom.xpaths();
    for id in page.dom.ids() {
        assert_eq!(all[id.index()], page.dom.xpath(id));
    }
}

#[test]
fn serializing_with_node_ids_tags_every_element_and_reparses_to_the_same_tree() {
    let page =
        parse("<body><div a='\"q\"'>x &amp; y<br><script>if (a < b) {}</script></div></body>");
    let html = serialize(
        &page.dom,
        &SerializeOptions {
            node_id_attribute: Some("data-pl"),
            base_href: Some("file:///saved/"),
        },
    );
    assert!(html.contains("<base href=\"file:///saved/\">"));
    assert!(html.contains("if (a < b) {}"));
    let again =
        Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).expect("reparses");
    // The injected <base> is the one extra element.
    assert_eq!(again.dom.len(), page.dom.len() + 1);
    for element in again.dom.elements.iter().filter(|e| e.tag != "base") {
        let id: u32 = element
            .attribute("data-pl")
            .expect("tagged")
            .parse()
            .expect("number");
        assert_eq!(page.dom.element(NodeId(id)).tag, element.tag);
    }
    assert_eq!(again.dom.text(NodeId(0)), page.dom.text(NodeId(0)));
}

#[test]
fn deep_nesting_is_parsed_without_recursion() {
    let html = "<div>".repeat(4_000) + "deep" + &"</div>".repeat(4_000);
    let page = parse(&html);
    assert_eq!(page.dom.len(), 3 + 4_000);
    assert_eq!(page.dom.element(NodeId(4_002)).depth, 4_001);
    assert!(serialize(&page.dom, &SerializeOptions::default()).contains("deep"));
}

#[test]
fn nesting_beyond_the_limit_is_a_clear_error_not_a_hang() {
    let html = "<div>".repeat(100_000);
    let started = std::time::Instant::now();
    let error = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap_err();
    assert!(
        matches!(error, PageError::TooDeep { limit: 5_000 }),
        "{error}"
    );
    assert!(started.elapsed().as_secs() < 5);
}

#[test]
fn too_many_bytes_empty_and_binary_inputs_are_rejected_with_the_cause() {
    let limits = ParseLimits {
        max_bytes: 10,
        ..ParseLimits::default()
    };
    let too_large = Page::parse(b"<p>0123456789</p>", None, None, &limits).unwrap_err();
    assert!(too_large.to_string().contains("over the limit of 10 bytes"));
    assert!(matches!(
        Page::parse(b"", None, None, &ParseLimits::default()),
        Err(PageError::Empty)
    ));
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
    assert!(matches!(
        Page::parse(png, None, None, &ParseLimits::default()),
        Err(PageError::Binary(_))
    ));
    // Binary bytes without a NUL early on (a body of random bytes served as text/html): the
    // control bytes give them away; a page with one stray control byte is still a page.
    let no_nul: Vec<u8> = (0..4096u32)
        .map(|at| (at.wrapping_mul(2_654_435_761) >> 24) as u8)
        .map(|byte| byte.max(1))
        .collect();
    assert!(matches!(
        Page::parse(&no_nul, None, None, &ParseLimits::default()),
        Err(PageError::Binary(_))
    ));
    let stray = b"<title>A\x08B</title><p>Text with a stray backspace.</p>";
    assert!(Page::parse(stray, None, None, &ParseLimits::default()).is_ok());
}

#[test]
fn a_meta_refresh_is_neutralized_in_the_tagged_copy_only() {
    let page =
        parse("<head><meta http-equiv='Refresh' content='0; url=other.html'></head><p>x</p>");
    let tagged = serialize(
        &page.dom,
        &SerializeOptions {
            node_id_attribute: Some("data-pl"),
            base_href: None,
        },
    );
    assert!(!tagged.to_ascii_lowercase().contains("http-equiv"));
    assert!(tagged.contains("content=\"0; url=other.html\""));
    let plain = serialize(&page.dom, &SerializeOptions::default());
    assert!(plain.contains("http-equiv=\"Refresh\""));
}

#[test]
fn an_unclosed_title_ends_at_its_first_line_and_the_page_keeps_its_body() {
    let html = "<html><head><title>Golfer wins title(The Times)ntById(\"font\");\nobj.x = 1;\n</head><body><p>The article text.</p></body></html>";
    let page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap();
    assert_eq!(page.title, "Golfer wins title(The Times)ntById(\"font\");");
    let paragraph = page.dom.first_with_tag("p").expect("the body is parsed");
    assert_eq!(page.dom.text(paragraph), "The article text.");
}

#[test]
fn the_url_top_level_domain_settles_a_short_undeclared_page() {
    // Three Cyrillic letters in windows-1251 are as likely Western bytes, until the page is
    // known to come from a .ru host.
    let bytes = encoding_rs::WINDOWS_1251.encode("<p>Мир</p>").0;
    let parse_at = |url: Option<&str>| {
        let url = url.map(|url| Url::parse(url).expect("test URL"));
        Page::parse(&bytes, url, None, &ParseLimits::default()).expect("parses")
    };
    let russian = parse_at(Some("http://news.example.ru/today.html"));
    assert_eq!(russian.encoding, "windows-1251");
    assert_eq!(russian.dom.text(NodeId(0)), "Мир");
    assert_eq!(parse_at(None).encoding, "windows-1252");
}

#[test]
fn a_charset_the_caller_states_overrides_the_page_declaration_and_unknown_ones_are_refused() {
    let bytes = encoding_rs::WINDOWS_1251
        .encode("<meta charset=utf-8><p>Мир</p>")
        .0;
    let source = PageSource::from_bytes(bytes.into_owned(), None, None)
        .with_charset("cp1251")
        .expect("cp1251 is a known label");
    assert_eq!(source.http_charset.as_deref(), Some("windows-1251"));
    let page = Page::parse(
        &source.bytes,
        None,
        source.http_charset.as_deref(),
        &ParseLimits::default(),
    )
    .expect("parses");
    assert_eq!(page.dom.text(NodeId(0)), "Мир");
    let refused = PageSource::from_bytes(Vec::new(), None, None)
        .with_charset("klingon-8")
        .unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("unknown charset \"klingon-8\"")
    );
}

/// The ids of the page's elements, in document order.
fn element_ids(page: &Page) -> Vec<&str> {
    page.dom
        .elements
        .iter()
        .filter_map(|element| element.attribute("id"))
        .collect()
}

#[test]
fn a_streamed_react_block_takes_its_placeholders_place_as_the_pages_script_puts_it() {
    let page = parse(
        "<body><main><h1>Kettle</h1><template id='B:0'></template><p>Loading</p></main>\
         <footer>Shop</footer><div hidden id='S:0'><p>Boils in four minutes.</p><ul><li>1.7 l</li></ul></div>\
         <div hidden id='S:9'><p>No placeholder</p></div></body>",
    );
    let main = page.dom.first_with_tag("main").expect("main");
    assert_eq!(
        page.dom.text(main),
        "Kettle Boils in four minutes. 1.7 l Loading"
    );
    let tags: Vec<&str> = page
        .dom
        .subtree(main)
        .map(|id| page.dom.element(id).tag.as_str())
        .collect();
    assert_eq!(tags, ["main", "h1", "p", "ul", "li", "p"]);
    assert!(page.dom.first_with_tag("template").is_none());
    let ids = element_ids(&page);
    assert_eq!(
        ids,
        ["S:9"],
        "a block without its placeholder stays hidden where it was"
    );
}

#[test]
fn a_streamed_block_holding_its_own_placeholder_is_left_as_served() {
    let page =
        parse("<body><div hidden id='S:1'><template id='B:1'></template><p>x</p></div></body>");
    let div = page.dom.first_with_tag("div").expect("the block stays");
    assert_eq!(page.dom.element(div).attribute("id"), Some("S:1"));
    assert_eq!(page.dom.text(div), "x");
}

#[test]
fn a_streamed_marko_block_replaces_its_placeholder_and_its_skeleton() {
    // eBay's category pages (WCXB 0658): the grid's placeholder is a span around a loading
    // skeleton, or an empty noscript; the cards come hidden at the end of <body>, and
    // `$afbrwweb(n)` puts them where the placeholder was.
    let page = parse(
        "<body><main><h1>Art</h1><span id=afbrwwebph2><div class=loader>Loading</div></span>\
         <noscript id=afbrwwebph3></noscript></main><footer>Help</footer>\
         <div id=afbrwweb2 style=display:none><ul><li>Print, $12.95</li><li>Poster, $9</li></ul></div>\
         <div id=afbrwweb3 style='display: none'><p>More prints</p></div>\
         <div id=afbrwweb7 style=display:none><p>No placeholder</p></div>\
         <div id=afbrwweb4><p>Shown, not a block</p></div></body>",
    );
    let main = page.dom.first_with_tag("main").expect("main");
    assert_eq!(
        page.dom.text(main),
        "Art Print, $12.95 Poster, $9 More prints"
    );
    let ids = element_ids(&page);
    assert_eq!(
        ids,
        ["afbrwweb7", "afbrwweb4"],
        "unpaired blocks stay where they were"
    );
}

#[test]
fn a_streamed_react_segment_takes_its_own_placeholders_place_before_a_boundarys() {
    // A segment streamed outside a Suspense boundary (`$RS("S:2", "P:2")`): its placeholder is
    // `P:2`, and a boundary's `B:2` elsewhere is not its place.
    let page = parse(
        "<body><main><template id='P:2'></template></main><aside><template id='B:2'></template>\
         </aside><div hidden id='S:2'><p>The whole post.</p></div></body>",
    );
    let main = page.dom.first_with_tag("main").expect("main");
    assert_eq!(page.dom.text(main), "The whole post.");
    let aside = page.dom.first_with_tag("aside").expect("aside");
    assert_eq!(page.dom.text(aside), "");
}
