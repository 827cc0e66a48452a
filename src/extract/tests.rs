use super::*;
use crate::page::{Page, ParseLimits};
use crate::text::paragraphs;

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

fn no_layout() -> crate::layout::Layout {
    crate::layout::Layout {
        boxes: Vec::new(),
        unpainted: Vec::new(),
        page_width: 1280.0,
        page_height: 1024.0,
        viewport: crate::layout::Viewport {
            width: 1280,
            height: 1024,
        },
    }
}

/// The facts of every paragraph of `dom`, all of it content (templateness 0.1) and visible.
fn content_facts(dom: &crate::page::Dom) -> Vec<ParagraphFacts> {
    let visible: Vec<bool> = dom.ids().map(|id| dom.is_visible_text_parent(id)).collect();
    page_facts(
        dom,
        &paragraphs(dom, &visible),
        &vec![0.1; dom.len()],
        &regions(dom),
    )
}

/// The texts the shipped model's one-block choice takes from `facts` when it finds every
/// paragraph of more than ten words likely (sentences) and every shorter one not (cells, items).
fn chosen_where_sentences_are_likely<'a>(
    dom: &crate::page::Dom,
    facts: &'a [ParagraphFacts],
) -> Vec<&'a str> {
    let probability: Vec<f64> = facts
        .iter()
        .map(|facts| if facts.words > 10 { 0.9 } else { 0.05 })
        .collect();
    let choice = choose_by_model(
        dom,
        facts,
        &probability,
        MainTextModel::shipped(),
        Spread::OneBlock,
        0.5,
        "",
    )
    .unwrap();
    choice
        .main
        .iter()
        .map(|&index| facts[index].text.as_str())
        .collect()
}

fn extract_from(html: &str, template_ids: &[&str]) -> Extracted {
    extract_under(html, template_ids, ContentPolicy::default())
}

/// An article's policy: card lists of other stories are not its text.
fn article_policy() -> ContentPolicy {
    ContentPolicy {
        without_card_lists: true,
        ..ContentPolicy::default()
    }
}

/// A likely listing's or collection's policy: its largest grid is main text whole.
fn likely_listing_policy() -> ContentPolicy {
    ContentPolicy {
        whole_grid: true,
        ..ContentPolicy::default()
    }
}

fn extract_under(html: &str, template_ids: &[&str], policy: ContentPolicy) -> Extracted {
    let page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap();
    let dom = &page.dom;
    let visible: Vec<bool> = dom.ids().map(|id| dom.is_visible_text_parent(id)).collect();
    let mut templateness = vec![0.1; dom.len()];
    for id in dom.ids() {
        if let Some(name) = dom.element(id).attribute("id")
            && template_ids.contains(&name)
        {
            for inside in dom.subtree(id) {
                templateness[inside.index()] = 0.9;
            }
        }
    }
    extract(
        dom,
        &no_layout(),
        &paragraphs(dom, &visible),
        &templateness,
        0.5,
        &page.title,
        None,
        &mut |_| policy,
    )
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
fn text_the_segmentation_calls_template_is_not_main_text_on_a_page_with_content() {
    let long_article = ARTICLE.replace(
        "<p>Many homes",
        &format!(
            "<p>{}</p><p>Many homes",
            "The water kept rising. ".repeat(12)
        ),
    );
    let extracted = extract_from(&long_article, &["footer"]);
    assert!(!extracted.main_text.contains("Copyright"));
    assert!(extracted.main_text.contains("Many homes"));
}

#[test]
fn a_page_called_all_template_still_has_its_least_template_like_running_text_as_main_text() {
    let page = r#"<html><head><title>Report</title></head><body>
        <div id="menu"><p>Home and about and contact and more pages of the site</p></div>
        <div id="article"><p>The report, long enough to be read, ran over fifty words of
        plain running text about the river, the town, the storm, the night, the rescue, the
        people, the water, the roads, the schools, the shops, the farms, the bridges, the
        fields, the hills, the woods, the help, the morning, the mayor, the cost, the future
        and the week to come.</p></div></body></html>"#;
    let page = Page::parse(page.as_bytes(), None, None, &ParseLimits::default()).unwrap();
    let dom = &page.dom;
    let visible = vec![true; dom.len()];
    let article = dom
        .ids()
        .find(|&id| dom.element(id).attribute("id") == Some("article"))
        .unwrap();
    // Everything above the threshold; the article less so than the rest.
    let templateness: Vec<f64> = dom
        .ids()
        .map(|id| if dom.contains(article, id) { 0.6 } else { 0.95 })
        .collect();
    let extracted = extract(
        dom,
        &no_layout(),
        &paragraphs(dom, &visible),
        &templateness,
        0.25,
        &page.title,
        None,
        &mut |_| ContentPolicy::default(),
    );
    assert!(extracted.main_text.starts_with("The report, long enough"));
    assert!(!extracted.main_text.contains("Home and about"));
}

#[test]
fn a_whole_page_wrapper_named_like_comments_does_not_hide_the_article() {
    let wrapped = ARTICLE.replace("<body>", r#"<body><div class="single comments-open">"#);
    let extracted = extract_from(&wrapped, &["nav"]);
    assert!(extracted.main_text.contains("Many homes were flooded"));
}

/// A product: its buy box, then a long block the model finds unlikely (delivery options), then
/// its description and a "you may also like" box of middling probability. One block holds the
/// buy box; a product gathers every paragraph as likely as the buy box's, and no middling one.
#[test]
fn a_product_gathers_every_block_as_likely_as_its_chosen_one() {
    let html = format!(
        r#"<html><head><title>Kettle</title></head><body>
        <div class="buy"><p>Gooseneck kettle: {}</p></div>
        <div class="delivery"><p>{}</p></div>
        <section class="description"><p>Description: {}</p></section>
        <div class="also"><p>You may also like: {}</p></div></body></html>"#,
        "a kettle for pour-over coffee with a thin steady spout ".repeat(4),
        "delivery in two days or collect it in store ".repeat(40),
        "the stopwatch in its base times the brew and the hold mode keeps it hot ".repeat(2),
        "a scale, a grinder and a dripper that other buyers chose ".repeat(2)
    );
    let page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap();
    let dom = &page.dom;
    let facts = content_facts(dom);
    let probability: Vec<f64> = facts
        .iter()
        .map(|facts| match facts.text.split(':').next() {
            Some("Gooseneck kettle") => 0.9,
            Some("Description") => 0.6,
            Some("You may also like") => 0.4,
            _ => 0.05,
        })
        .collect();
    let mut model = MainTextModel::shipped().clone();
    (model.cut, model.spread_cut, model.spread_share) = (0.5, 0.3, 0.0);
    let kept = |spread: Spread| -> Vec<String> {
        let choice = choose_by_model(dom, &facts, &probability, &model, spread, 0.5, "").unwrap();
        let mut kept: Vec<String> = choice
            .main
            .iter()
            .map(|&index| {
                facts[index]
                    .text
                    .split(':')
                    .next()
                    .unwrap_or("")
                    .to_string()
            })
            .collect();
        kept.dedup();
        kept
    };
    assert_eq!(kept(Spread::OneBlock), ["Gooseneck kettle"]);
    assert_eq!(kept(Spread::AsLikely), ["Gooseneck kettle", "Description"]);
    assert_eq!(
        kept(Spread::Likely),
        ["Gooseneck kettle", "Description", "You may also like"]
    );
}

/// A thread: three posts, each followed by a long block the model finds unlikely (a signature
/// and an advertisement). No one container holds most of the likely text.
#[test]
fn a_page_whose_likely_text_is_spread_takes_every_likely_paragraph() {
    let post = |n: usize| {
        format!(
            r#"<div class="post"><p>Post {n}: {}</p></div><div class="ad"><p>{}</p></div>"#,
            "the pump failed again after the update and I had to reset it twice ".repeat(2),
            "buy now ".repeat(100)
        )
    };
    let html = format!(
        "<html><head><title>Pump fails</title></head><body><div>{}{}{}</div></body></html>",
        post(1),
        post(2),
        post(3)
    );
    let page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap();
    let dom = &page.dom;
    let facts = content_facts(dom);
    let probability: Vec<f64> = facts
        .iter()
        .map(|facts| {
            if facts.text.starts_with("Post") {
                0.6
            } else {
                0.05
            }
        })
        .collect();
    let posts_in = |choice: &Choice| {
        choice
            .main
            .iter()
            .filter(|&&index| facts[index].text.starts_with("Post"))
            .count()
    };
    let mut model = MainTextModel::shipped().clone();
    model.spread_share = 0.0;
    let one_container =
        choose_by_model(dom, &facts, &probability, &model, Spread::OneBlock, 0.5, "").unwrap();
    assert_eq!(
        posts_in(&one_container),
        1,
        "the heaviest subtree is one post"
    );
    model.spread_share = 0.4;
    model.spread_cut = 0.3;
    let spread =
        choose_by_model(dom, &facts, &probability, &model, Spread::OneBlock, 0.5, "").unwrap();
    assert_eq!(posts_in(&spread), 3, "every post");
    assert_eq!(spread.main.len(), 3, "and no advertisement");
}

#[test]
fn a_data_table_the_main_text_reaches_into_is_taken_whole() {
    let html = r#"<html><body><div id="nav"><a href="/">Home</a></div><div class="story">
      <p>The council published the results of the vote on the new bridge this morning, and the
      margin was narrower than anyone in the town had expected it to be.</p>
      <table>
        <tr><th><a href="/d/north">North</a></th><td>1,204</td>
            <td>The northern district voted in favour by a wide margin after a long campaign.</td></tr>
        <tr><th><a href="/d/south">South</a></th><td>988</td><td>Against.</td></tr>
      </table>
      <p>The bridge will now go ahead, with work starting in the spring of next year.</p>
    </div></body></html>"#;
    let extracted = extract_from(html, &["nav"]);
    for cell in ["North", "1,204", "South", "988", "Against."] {
        assert!(
            extracted.main_text.contains(cell),
            "{cell} in {}",
            extracted.main_text
        );
    }
    assert!(!extracted.main_text.contains("Home"));
}

#[test]
fn a_data_table_in_the_articles_block_is_its_text_though_no_cell_reads_as_prose() {
    let html = r#"<html><body><div class="story">
      <p>The council published the results of the vote on the new bridge this morning, and the
      margin was narrower than anyone in the town had expected it to be.</p>
      <table>
        <tr><th>District</th><th>For</th><th>Against</th></tr>
        <tr><td><a href="/d/north">North</a></td><td>1,204</td><td>311</td></tr>
        <tr><td><a href="/d/south">South</a></td><td>988</td><td>1,017</td></tr>
      </table>
      <p>The bridge will now go ahead, with work starting in the spring of next year.</p>
    </div>
    <div class="sidebar"><table><tr><th>Most read</th><th>Views</th></tr>
      <tr><td>Fair opens</td><td>2,000</td></tr><tr><td>Rain</td><td>1,500</td></tr></table></div>
    </body></html>"#;
    let page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap();
    let dom = &page.dom;
    let facts = content_facts(dom);
    // The learned model finds the sentences likely and every cell of names and numbers not.
    let chosen = chosen_where_sentences_are_likely(dom, &facts);
    for cell in ["District", "For", "1,204", "311", "South", "1,017"] {
        assert!(chosen.contains(&cell), "{cell} in {chosen:?}");
    }
    assert!(
        !chosen.contains(&"Most read"),
        "a table outside the article's block stays out: {chosen:?}"
    );
}

#[test]
fn a_layout_table_is_not_taken_whole() {
    let html = r#"<html><body><table><tr><td><div id="nav"><a href="/a">Archive</a> <a href="/b">Blog</a></div></td>
      <td><p>The council published the results of the vote on the new bridge this morning, and
      the margin was narrower than anyone in the town had expected it to be.</p>
      <table><tr><td>inner</td><td>table</td></tr><tr><td>x</td><td>y</td></tr></table></td></tr>
      <tr><td><a href="/c">Contact</a></td><td>Footer words here.</td></tr></table></body></html>"#;
    let extracted = extract_from(html, &["nav"]);
    assert!(extracted.main_text.contains("The council published"));
    assert!(
        !extracted.main_text.contains("Contact"),
        "{}",
        extracted.main_text
    );
}

#[test]
fn an_article_drops_its_card_list_of_other_stories_only_beside_enough_text_of_its_own() {
    let card = "<li><a href=/other><h3>Another story worth a click today</h3></a>\
                <p>A teaser of another story, long enough to read as running text here.</p></li>";
    let page = |paragraphs: usize| {
        format!(
            "<html><head><title>The story</title></head><body><article><h1>The story</h1>{}\
             <ul>{}</ul></article></body></html>",
            "<p>The story itself goes on in plain sentences, one after another, telling what \
             happened and why it matters to the people it happened to.</p>"
                .repeat(paragraphs),
            card.repeat(6)
        )
    };
    let policy = article_policy();
    let long = page(8);
    assert!(
        extract_from(&long, &[])
            .main_text
            .contains("A teaser of another story")
    );
    let article = extract_under(&long, &[], policy);
    assert!(article.main_text.contains("The story itself goes on"));
    assert!(!article.main_text.contains("A teaser of another story"));
    // Under 150 words of its own: the cards may be the page's content after all.
    let short = extract_under(&page(2), &[], policy);
    assert!(short.main_text.contains("A teaser of another story"));
}

/// A product's own description, for the product pages' tests.
const KETTLE_DESCRIPTION: &str = "<p>A gooseneck kettle with a stopwatch, a hold mode of sixty \
    minutes and a temperature set to the degree, for pour-over coffee and tea alike.</p>\
    <p>Its spout pours a thin, steady stream; its base turns all the way round.</p>";

#[test]
fn a_products_reviews_are_not_its_main_text_when_its_description_stands_outside_them() {
    let page = |description: &str| {
        format!(
            "<html><head><title>Kettle</title></head><body><main><h1>Kettle</h1>{description}\
             <div class=\"product-reviews\"><h2>Reviews</h2>{}</div></main></body></html>",
            "<div class=\"review\"><p>I bought this kettle for my office and it boils water \
             quickly, quietly and without any trouble at all, five stars.</p></div>"
                .repeat(4)
        )
    };
    let product = ContentPolicy {
        without_reviews: true,
        ..ContentPolicy::default()
    };
    let described = page(KETTLE_DESCRIPTION);
    assert!(
        extract_from(&described, &[])
            .main_text
            .contains("five stars")
    );
    let main = extract_under(&described, &[], product).main_text;
    assert!(main.contains("A gooseneck kettle"), "{main}");
    assert!(!main.contains("five stars"), "{main}");
    // Hardly a word outside the reviews: they may be all the page says.
    let bare = extract_under(&page(""), &[], product).main_text;
    assert!(bare.contains("five stars"), "{bare}");
}

#[test]
fn a_tooltips_text_is_not_main_text_but_the_sentence_it_explains_is() {
    let html = "<html><head><title>Plans</title></head><body><main><h1>Plans</h1>\
        <p>Every plan comes with a universal certificate, so that visitors reach your site over \
        an encrypted connection from the first day, with nothing to configure.</p>\
        <div class=\"tooltip-content\"><p>A certificate proves to a browser that the site it \
        reached is the one it asked for, and encrypts what the two exchange.</p></div>\
        <p>Traffic is served from data centres in more than three hundred cities, near each \
        visitor, and attacks of any size are absorbed without extra charge.</p></main></body></html>";
    let main = extract_from(html, &[]).main_text;
    assert!(main.contains("Every plan comes"), "{main}");
    assert!(main.contains("Traffic is served"), "{main}");
    assert!(!main.contains("A certificate proves"), "{main}");
    // A theme's own tooltip element, its class split at the hyphen.
    let themed = html.replace(
        "<div class=\"tooltip-content\">",
        "<tool-tip><div class=\"tool-tip__content\">",
    );
    let themed = themed.replace(
        "two exchange.</p></div>",
        "two exchange.</p></div></tool-tip>",
    );
    let main = extract_from(&themed, &[]).main_text;
    assert!(main.contains("Every plan comes"), "{main}");
    assert!(!main.contains("A certificate proves"), "{main}");
}

#[test]
fn other_products_under_their_heading_are_not_a_products_main_text_but_its_headline_is() {
    let cards = "<div class=\"card\"><p>A stovetop kettle of brushed steel with a whistle \
         that sings when the water boils, two litres.</p><p>$39.00</p></div>"
        .repeat(4);
    let description = KETTLE_DESCRIPTION;
    let product = ContentPolicy {
        without_other_products: true,
        ..ContentPolicy::default()
    };
    let below = format!(
        "<html><head><title>Kettle</title></head><body><main><h1>Kettle</h1>{description}\
         <section><h2>You may also like</h2><div>{cards}</div></section></main></body></html>"
    );
    assert!(
        extract_from(&below, &[])
            .main_text
            .contains("brushed steel")
    );
    let main = extract_under(&below, &[], product).main_text;
    assert!(main.contains("A gooseneck kettle"), "{main}");
    assert!(!main.contains("brushed steel"), "{main}");
    // A heading of other products above the page's headline leads no block holding it (the
    // page's words outside that block, its cards here, would let the block go).
    let above = format!(
        "<html><head><title>Kettle</title></head><body><main><div><h3>Related products</h3>\
         <div><h1>Kettle</h1>{description}</div></div><div>{cards}</div></main></body></html>"
    );
    let main = extract_under(&above, &[], product).main_text;
    assert!(main.contains("A gooseneck kettle"), "{main}");
}

#[test]
fn a_section_heading_goes_with_the_text_it_heads_but_a_linked_teaser_title_does_not() {
    // "History [edit]" reads as a link list on its own (half its words are a link); the
    // teaser's title is all link.
    let html = r#"<html><head><title>Mozilla</title></head><body><div id="content">
<h1>Mozilla</h1>
<p>Mozilla is a free software community created in 1998 by members of Netscape.</p>
<h2>History <a href="/edit/1">edit</a></h2>
<h3>Origins <a href="/edit/2">edit</a></h3>
<p>On January 23, 1998, Netscape made two announcements about its source code.</p>
<h3><a href="/other">Another story</a></h3>
<p>Originally, Mozilla aimed to be a technology provider for other companies.</p>
</div></body></html>"#;
    let extracted = extract_from(html, &[]);
    assert_eq!(
        extracted.main_text,
        "Mozilla\n\n\
         Mozilla is a free software community created in 1998 by members of Netscape.\n\n\
         History edit\n\n\
         Origins edit\n\n\
         On January 23, 1998, Netscape made two announcements about its source code.\n\n\
         Originally, Mozilla aimed to be a technology provider for other companies."
    );
}

#[test]
fn a_posts_code_is_main_text_though_its_highlighter_names_tokens_comment() {
    let sentence = "<p>Git keeps every version of a project, and these few commands are the ones \
                    I reach for every single day when I work on my own projects.</p>";
    let html = format!(
        "<html><head><title>Git</title></head><body><article><h1>Git</h1>{}\
         <pre><code><span class=\"hljs-comment\"># initialize a repository here</span>\n\
         git init\n<span class=\"token comment\"># stage every change</span>\ngit add -A\n\
         git commit -m \"first\"</code></pre></article></body></html>",
        sentence.repeat(4)
    );
    let main = extract_from(&html, &[]).main_text;
    assert!(main.contains("Git keeps every version"), "{main}");
    assert!(main.contains("git add -A"), "{main}");
    assert!(main.contains("# initialize a repository here"), "{main}");
    assert!(extract_from(&html, &[]).comments.is_empty());
}

#[test]
fn a_page_whose_choice_is_next_to_nothing_beside_its_grid_takes_the_grid_whatever_its_type() {
    let page = |intro: &str| {
        format!(
            "<html><head><title>Kettles</title></head><body><main><h1>Kettles</h1>{intro}\
             <div id=\"grid\">{}</div></main></body></html>",
            (1..=6)
                .map(|n| format!(
                    "<div class=\"card\"><a href=\"/k{n}\">Gooseneck kettle number {n} in \
                     brushed steel</a><span>$4{n}.00</span></div>"
                ))
                .collect::<String>()
        )
    };
    let listing = likely_listing_policy();
    let article = article_policy();
    // The cards read as template (linked names): the model's choice is the title alone, and
    // whatever the page's type, its grid is the rest of its content (Amazon's best sellers
    // typed a product, WCXB 2922).
    let bare = page("");
    for policy in [listing, article, ContentPolicy::default()] {
        let main = extract_under(&bare, &["grid"], policy).main_text;
        assert!(
            main.contains("Kettles") && main.contains("number 1") && main.contains("number 6"),
            "{policy:?}: {main}"
        );
    }
    // A choice with words of its own is something: its grid is left to the model.
    let introduced = page(
        "<p>Our kettles are chosen for pour-over coffee and tea alike: each holds a litre, \
         heats in under five minutes, keeps its water warm for an hour and pours a thin, \
         steady stream from its spout.</p>",
    );
    for policy in [listing, article, ContentPolicy::default()] {
        let main = extract_under(&introduced, &["grid"], policy).main_text;
        assert!(
            main.contains("pour-over") && !main.contains("number 3"),
            "{policy:?}: {main}"
        );
    }
}

#[test]
fn a_short_introduction_brings_its_whole_grid_on_any_page_but_not_a_few_teasers() {
    // A coupon page: a title and a few lines above its coupons, each a linked offer and the
    // same small print (WCXB 0274, 2962): the cards read as template, the choice is the
    // introduction. Typed a listing or not (WCXB 4762, a shop's category typed an article).
    let coupon_page = |count: usize| {
        let coupons = (1..=count)
            .map(|n| {
                format!(
                    "<div class=\"coupon\"><h3><a href=\"/c{n}\">${n}0 off any electrical \
                     repair</a></h3><a href=\"/terms\">Must be presented before start of work; \
                     not valid with other offers.</a></div>"
                )
            })
            .collect::<String>();
        format!(
            "<html><head><title>Coupons</title></head><body><main><h1>Coupons</h1>\
             <p>We will match any competitor's pricing, as long as they use the same materials \
             and do the same work, licensed and insured like us.</p>\
             <div id=\"grid\">{coupons}</div></main></body></html>"
        )
    };
    let listing = likely_listing_policy();
    let article = article_policy();
    for policy in [listing, article, ContentPolicy::default()] {
        let main = extract_under(&coupon_page(8), &["grid"], policy).main_text;
        assert!(
            main.contains("match any competitor")
                && main.contains("$10 off")
                && main.contains("$80 off"),
            "{policy:?}: {main}"
        );
        assert_eq!(
            main.matches("Must be presented").count(),
            8,
            "{policy:?}: {main}"
        );
    }
    // A news item's few lines above four teaser boxes are the item: the boxes stay out.
    for policy in [article, ContentPolicy::default()] {
        let main = extract_under(&coupon_page(4), &["grid"], policy).main_text;
        assert!(
            main.contains("match any competitor") && !main.contains("$30 off"),
            "{policy:?}: {main}"
        );
    }
}

#[test]
fn an_elementor_pages_blocks_are_its_content_and_its_menu_widget_is_not() {
    // Elementor wraps every block in an `elementor-widget`: that names the builder's kind of
    // block, not a sidebar's widget, while `elementor-widget-nav-menu` is still a menu.
    let html = r#"<html><head><title>Trails</title></head><body>
<div class="elementor-widget elementor-widget-nav-menu"><div class="elementor-widget-container">
<a href="/">Home</a> <a href="/trails">Trails</a> <a href="/events">Events</a></div></div>
<div class="elementor-widget elementor-widget-heading"><div class="elementor-widget-container">
<h1>Trails</h1></div></div>
<div class="elementor-widget elementor-widget-text-editor"><div class="elementor-widget-container">
<p>The club builds and maintains the off-road trails of the city, and rides them every week of the year.</p>
</div></div>
<div class="elementor-widget elementor-widget-call-to-action"><div class="elementor-widget-container">
<h2>Anthills</h2><div class="elementor-cta__description">Difficulty: Intermediate to advanced. Length: five miles of twisting single track.</div>
</div></div></body></html>"#;
    let extracted = extract_from(html, &[]);
    assert!(
        extracted
            .main_text
            .contains("The club builds and maintains the off-road trails"),
        "{}",
        extracted.main_text
    );
    assert!(
        extracted.main_text.contains("Length: five miles"),
        "{}",
        extracted.main_text
    );
    assert!(
        !extracted.main_text.contains("Events"),
        "{}",
        extracted.main_text
    );
}

#[test]
fn a_siteorigin_pages_panels_are_its_content_but_a_sidebar_widget_is_not() {
    // SiteOrigin sets each block as `so-panel widget`, and inside it WordPress's own
    // `textwidget custom-html-widget`: the builder's kinds of block, not a sidebar's widgets
    // (WCXB 0226, an electrician's price guide, whose price table sat in such a block).
    let html = r#"<html><head><title>Prices</title></head><body><main>
<div class="so-panel widget widget_sow-editor"><div class="siteorigin-widget-tinymce textwidget">
<p>This guide gives the prices of our electricians' work in and around the city this year.</p></div></div>
<div class="so-panel widget widget_custom_html"><div class="textwidget custom-html-widget">
<p>Replacing a circuit breaker in the panel costs between eighty-nine and two hundred dollars.</p></div></div>
</main><div class="sidebar"><div class="widget widget_text"><div class="textwidget">
<p>Call us today for a free quote on any electrical work you need done at home.</p></div></div></div>
</body></html>"#;
    let extracted = extract_from(html, &[]);
    assert!(
        extracted.main_text.contains("Replacing a circuit breaker"),
        "{}",
        extracted.main_text
    );
    assert!(
        !extracted.main_text.contains("free quote"),
        "{}",
        extracted.main_text
    );
}

/// A thread of a question and three answers, each post in the same markup (`article > div.body >
/// p`); the answers are named replies, so each is a comment region.
const THREAD: &str = r#"<html><head><title>First telescope?</title></head><body>
<h1>First telescope?</h1>
<article class="topic"><div class="body"><p>Which telescope should a beginner buy first, and why that one over the others?</p></div></article>
<article class="reply"><div class="body"><p>Start with a small Dobsonian: it is cheap, steady and shows the planets and the brighter galaxies well from a garden.</p></div></article>
<article class="reply"><div class="body"><p>Binoculars first. Learn the sky with them for a season, then buy a telescope knowing what you want to look at.</p></div></article>
<article class="reply"><div class="body"><p>Whatever you buy, join a local club: members lend their instruments and show you how to set them up on a dark night.</p></div></article>
</body></html>"#;

#[test]
fn a_threads_answers_set_like_its_question_are_its_main_text() {
    let extracted = extract_from(THREAD, &[]);
    for post in [
        "Which telescope should a beginner buy first",
        "Start with a small Dobsonian",
        "Binoculars first.",
        "join a local club",
    ] {
        assert!(
            extracted.main_text.contains(post),
            "{post} missing: {extracted:?}"
        );
    }
    assert_eq!(extracted.comments, "");
}

#[test]
fn an_articles_comments_in_markup_of_their_own_stay_comments() {
    // The same answers under a question set as an article's text: the replies are comments.
    let article = THREAD.replace(
        r#"<article class="topic"><div class="body"><p>"#,
        r#"<article class="topic"><div class="entry-content"><p>"#,
    );
    let extracted = extract_from(&article, &[]);
    assert!(
        extracted
            .main_text
            .contains("Which telescope should a beginner buy first")
    );
    assert!(!extracted.main_text.contains("Dobsonian"), "{extracted:?}");
    assert!(extracted.comments.contains("Start with a small Dobsonian"));
    assert!(extracted.comments.contains("join a local club"));
}

#[test]
fn a_post_quoted_in_a_reply_is_read_once_but_a_paragraph_said_twice_in_place_stays() {
    // The second answer quotes the question in a `blockquote`: the same words in other markup.
    let quoting = THREAD.replace(
        r#"<article class="reply"><div class="body"><p>Binoculars first."#,
        r#"<article class="reply"><div class="body"><blockquote class="quote">Which telescope should a beginner buy first, and why that one over the others?</blockquote><p>Binoculars first."#,
    );
    let extracted = extract_from(&quoting, &[]);
    assert_eq!(
        extracted
            .main_text
            .matches("Which telescope should a beginner buy first")
            .count(),
        1,
        "{extracted:?}"
    );
    assert!(extracted.main_text.contains("Binoculars first."));
    // The same words twice in the same markup are the page's own (a refrain, a repeated notice).
    let said_twice = THREAD.replace(
        r#"<article class="reply"><div class="body"><p>Binoculars first."#,
        r#"<article class="reply"><div class="body"><p>Start with a small Dobsonian: it is cheap, steady and shows the planets and the brighter galaxies well from a garden.</p></div></article>
<article class="reply"><div class="body"><p>Binoculars first."#,
    );
    let extracted = extract_from(&said_twice, &[]);
    assert_eq!(
        extracted
            .main_text
            .matches("Start with a small Dobsonian")
            .count(),
        2,
        "{extracted:?}"
    );
}

#[test]
fn an_articles_bullet_points_and_short_lines_are_its_text_but_not_what_the_segmentation_calls_template()
 {
    let html = r#"<html><body><div class="story">
      <p>The recipe needs only a few things from the shop, and most kitchens have them all
      already waiting in the cupboard for a rainy afternoon like this one.</p>
      <ul><li>Two cups of flour</li><li>Three eggs</li><li>A pinch of salt</li></ul>
      <ol id="promoted"><li>Buy our pans today</li><li>Free delivery on orders</li></ol>
      <p>Serves four.</p>
      <p><a href="/c">Read our cookbook</a></p>
      <p>Mix everything in a large bowl, then leave the dough to rest for an hour before you
      roll it out thin on a floured table and cut it into strips.</p>
      <p>Boil the strips in salted water for three minutes, drain them well, and serve them
      at once with butter, cheese or whatever sauce the family likes best.</p>
      <ul><li><a href="/a">More recipes with eggs</a></li><li><a href="/b">Our best bread</a></li></ul>
    </div></body></html>"#;
    let page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap();
    let dom = &page.dom;
    let mut facts = content_facts(dom);
    let promoted = dom
        .ids()
        .find(|&id| dom.element(id).attribute("id") == Some("promoted"))
        .unwrap();
    for paragraph in &mut facts {
        if dom.contains(promoted, paragraph.anchor) {
            paragraph.templateness = 0.9;
        }
    }
    // The learned model finds the sentences likely and every short item not.
    let chosen = chosen_where_sentences_are_likely(dom, &facts);
    for item in [
        "Two cups of flour",
        "Three eggs",
        "A pinch of salt",
        "Serves four.",
    ] {
        assert!(chosen.contains(&item), "{item} in {chosen:?}");
    }
    for item in [
        "Buy our pans today",
        "Read our cookbook",
        "More recipes with eggs",
    ] {
        assert!(!chosen.contains(&item), "{item} not in {chosen:?}");
    }
    assert!(
        chosen.last().unwrap().starts_with("Boil the strips"),
        "{chosen:?}"
    );
}
