use super::*;
use crate::page::ParseLimits;

fn metadata_of(html: &str, url: Option<&str>) -> Metadata {
    let url = url.map(|url| Url::parse(url).expect("test URL"));
    let page =
        Page::parse(html.as_bytes(), url, Some("utf-8"), &ParseLimits::default()).expect("parses");
    page_metadata(&page)
}

const ENGLISH_TEXT: &str = "<p>The river rose by a metre before the evening came, and the \
    farmers moved their animals uphill while the rain went on falling over the valley.</p>";

#[test]
fn json_ld_wins_over_meta_tags_and_every_field_names_its_source() {
    let html = format!(
        r#"<html lang="en-GB"><head><title>Rain | The Daily</title>
        <meta property="og:title" content="OG rain">
        <meta name="author" content="Meta Author">
        <script type="application/ld+json">{{"@type": "NewsArticle", "headline": "Rain today",
          "author": {{"@type": "Person", "name": "Ann Lee"}}, "datePublished": "2021-03-05T10:00:00+01:00",
          "publisher": {{"name": "The Daily"}}, "image": "/rain.jpg"}}</script>
        <link rel="canonical" href="/news/rain"></head><body>{ENGLISH_TEXT}</body></html>"#
    );
    let metadata = metadata_of(&html, Some("https://daily.example/x?utm=1"));
    assert_eq!(metadata.title.as_deref(), Some("Rain today"));
    assert_eq!(metadata.author.as_deref(), Some("Ann Lee"));
    assert_eq!(
        metadata.published.as_deref(),
        Some("2021-03-05T10:00:00+01:00")
    );
    assert_eq!(metadata.language.as_deref(), Some("en"));
    assert_eq!(metadata.site_name.as_deref(), Some("The Daily"));
    assert_eq!(
        metadata.canonical_url.as_deref(),
        Some("https://daily.example/news/rain")
    );
    assert_eq!(
        metadata.image.as_deref(),
        Some("https://daily.example/rain.jpg")
    );
    let sources = &metadata.sources;
    assert_eq!(sources.title, Some(Source::JsonLd));
    assert_eq!(sources.language, Some(Source::HtmlLang));
    assert_eq!(sources.canonical_url, Some(Source::LinkCanonical));
    assert_eq!(sources.description, None);
    let json = serde_json::to_value(&metadata).expect("serializes");
    assert_eq!(json["sources"]["author"], "json-ld");
    assert_eq!(json["description"], serde_json::Value::Null);
    assert!(
        json["sources"].get("description").is_none(),
        "missing fields have no source"
    );
}

#[test]
fn opengraph_and_plain_meta_tags_fill_in_without_json_ld() {
    let html = r#"<head><title>x</title>
        <meta property="og:title" content="Rain today - The Daily">
        <meta property="og:site_name" content="The Daily">
        <meta property="og:description" content="  It   rained. ">
        <meta property="og:image" content="https://cdn.example/rain.jpg">
        <meta property="og:url" content="https://daily.example/rain">
        <meta property="og:locale" content="pt_BR">
        <meta property="article:author" content="https://facebook.com/ann">
        <meta name="author" content="By Ann Lee">
        <meta property="article:published_time" content="2021-03-05">
        <script type="application/ld+json">{"@type": "Article", "headline": </script></head>"#;
    let metadata = metadata_of(html, None);
    assert_eq!(
        metadata.title.as_deref(),
        Some("Rain today"),
        "site name cut"
    );
    assert_eq!(metadata.sources.title, Some(Source::OpenGraph));
    assert_eq!(
        metadata.author.as_deref(),
        Some("Ann Lee"),
        "a profile URL is no name"
    );
    assert_eq!(metadata.sources.author, Some(Source::Meta));
    assert_eq!(metadata.published.as_deref(), Some("2021-03-05"));
    assert_eq!(metadata.sources.published, Some(Source::ArticleMeta));
    assert_eq!(metadata.description.as_deref(), Some("It rained."));
    assert_eq!(metadata.language.as_deref(), Some("pt"));
    assert_eq!(metadata.sources.language, Some(Source::OpenGraph));
    assert_eq!(
        metadata.canonical_url.as_deref(),
        Some("https://daily.example/rain")
    );
    assert_eq!(
        metadata.image.as_deref(),
        Some("https://cdn.example/rain.jpg")
    );
}

#[test]
fn the_page_elements_are_the_last_resort() {
    let html = format!(
        "<title>Rain today | Unknown</title><body><h1>Rain today</h1>\
         <div class=byline>By <a rel=author href=/ann>Ann Lee</a></div>\
         <time datetime='2021-03-05T10:00'>5 March</time>{ENGLISH_TEXT}"
    );
    let metadata = metadata_of(&html, None);
    assert_eq!(
        metadata.title.as_deref(),
        Some("Rain today"),
        "the h1 says which part"
    );
    assert_eq!(metadata.sources.title, Some(Source::TitleElement));
    assert_eq!(metadata.author.as_deref(), Some("Ann Lee"));
    assert_eq!(metadata.sources.author, Some(Source::BylineElement));
    assert_eq!(metadata.published.as_deref(), Some("2021-03-05T10:00:00"));
    assert_eq!(metadata.sources.published, Some(Source::TimeElement));
    assert_eq!(metadata.language.as_deref(), Some("en"));
    assert_eq!(metadata.sources.language, Some(Source::Detected));
}

#[test]
fn a_page_without_metadata_has_none_and_no_sources() {
    let metadata = metadata_of("<p>Hi</p>", None);
    assert_eq!(metadata, Metadata::default());
}

#[test]
fn relative_urls_without_a_base_and_other_schemes_are_left_out() {
    let html = "<link rel=canonical href=/a><meta property=og:image content='javascript:alert(1)'>\
                <meta property=og:url content='data:text/html,x'>";
    let metadata = metadata_of(html, None);
    assert_eq!(metadata.canonical_url, None);
    assert_eq!(metadata.image, None);
    let metadata = metadata_of(
        "<base href='https://b.example/dir/'><link rel=canonical href=a>",
        None,
    );
    assert_eq!(
        metadata.canonical_url.as_deref(),
        Some("https://b.example/dir/a")
    );
}

#[test]
fn hostile_sizes_are_skipped_for_the_next_source() {
    let long = "word ".repeat(5_000);
    let html = format!(
        r#"<title>Short title</title><meta property="og:title" content="{long}">
        <script type="application/ld+json">{{"@type": "Article", "headline": "{long}",
          "author": [{authors}], "datePublished": "{long}"}}</script>
        <meta name="author" content="{long}">"#,
        authors = vec!["\"A\""; 100_000].join(",")
    );
    let metadata = metadata_of(&html, None);
    assert_eq!(metadata.title.as_deref(), Some("Short title"));
    assert_eq!(
        metadata.author.as_deref(),
        Some("A"),
        "repeated names are one name"
    );
    assert_eq!(metadata.published, None);
}

#[test]
fn bylines_lose_their_lead_word_but_names_starting_with_it_do_not() {
    assert_eq!(clean_author("By: Ann Lee").as_deref(), Some("Ann Lee"));
    assert_eq!(
        clean_author("Par Sébastien Farcis").as_deref(),
        Some("Sébastien Farcis")
    );
    assert_eq!(clean_author("Byron Lee").as_deref(), Some("Byron Lee"));
    assert_eq!(clean_author("@annlee"), None);
    assert_eq!(clean_author("By"), None);
}

#[test]
fn a_later_dublin_core_spelling_restates_an_earlier_one() {
    let html = r#"<meta name="DC.title" content="First title">
        <meta property="dc:title" content="Restated title">
        <meta name="DC.creator" content="First Author">
        <meta property="dc:creator" content="Restated Author">"#;
    let metadata = metadata_of(html, None);
    assert_eq!(metadata.title.as_deref(), Some("Restated title"));
    assert_eq!(metadata.author.as_deref(), Some("Restated Author"));
    assert_eq!(metadata.sources.author, Some(Source::DublinCore));
}

#[test]
fn repeated_dublin_core_creators_are_every_author() {
    let html = r#"<meta name="DC.Creator" content="Kooman, F.">
        <meta name="DC.Creator" content="Jong, Michiel de">"#;
    assert_eq!(
        metadata_of(html, None).author.as_deref(),
        Some("Kooman, F.; Jong, Michiel de"),
        "names with commas of their own are kept apart by semicolons"
    );
    let html = r#"<meta name="DC.creator" content="Ann Lee"><meta name="DC.creator" content="Bo Chen">
        <meta name="DC.creator" content="Ann Lee">"#;
    assert_eq!(
        metadata_of(html, None).author.as_deref(),
        Some("Ann Lee, Bo Chen")
    );
}

#[test]
fn a_byline_after_the_headline_wins_over_a_sidebar_byline_before_it() {
    let html = format!(
        "<title>Rain today</title><body>\
         <aside><ul class=comments><li><div class=byline>J</div>Great piece!</li></ul></aside>\
         <h1>Rain today</h1><div class=author-name>Ann Lee</div>{ENGLISH_TEXT}\
         <aside><p class=byline>By Teaser Author</p></aside>"
    );
    let metadata = metadata_of(&html, None);
    assert_eq!(metadata.author.as_deref(), Some("Ann Lee"));
    assert_eq!(metadata.sources.author, Some(Source::BylineElement));
    let without_headline = "<div class=byline>J</div><p class=byline>Ann Lee</p>";
    assert_eq!(
        metadata_of(without_headline, None).author.as_deref(),
        Some("J"),
        "without a headline the first byline stands"
    );
}

#[test]
fn a_camel_case_class_names_a_byline() {
    let html = "<div class=FeatureByline> By <b>Nathan Willis</b>\n March 25, 2015</div>\
                <div class=AuthorBio>Nathan writes.</div>";
    assert_eq!(
        metadata_of(html, None).author.as_deref(),
        Some("Nathan Willis")
    );
}

#[test]
fn a_date_after_the_name_is_no_part_of_the_byline() {
    assert_eq!(
        clean_author("Joe Wee Monday, February 29, 2016 @ 11:10 PM UTC").as_deref(),
        Some("Joe Wee")
    );
    assert_eq!(
        clean_author("By GILLIAN MOHNEY March 11, 2015 3:46 PM").as_deref(),
        Some("GILLIAN MOHNEY")
    );
    assert_eq!(
        clean_author("Ann Lee | 5 March 2021").as_deref(),
        Some("Ann Lee")
    );
    assert_eq!(
        clean_author("April Lee").as_deref(),
        Some("April Lee"),
        "a month's name opening the byline is a given name"
    );
    assert_eq!(
        clean_author("Theresa May").as_deref(),
        Some("Theresa May"),
        "a month's name without a date is a name"
    );
    assert_eq!(
        clean_author("March 11, 2015"),
        None,
        "a date alone is no name"
    );
    assert_eq!(
        clean_author("Last Updated: January 7, 2025"),
        None,
        "a labelled date is no name"
    );
}
