//! The metadata stage: a page's headline, author, publication date, language, site name,
//! canonical URL, description and image, each with the [`Source`] it came from.
//!
//! Every field is taken from the first source that gives a valid value, in an order fixed per
//! field: structured data first (JSON-LD, [`json_ld`]), then `<meta>` tags (Dublin Core for
//! title, author and description — deliberate catalogue metadata, where OpenGraph's is written
//! for sharing — then OpenGraph and `article:*`, Twitter, plain names, Highwire `citation_*`,
//! Parse.ly, microdata; [`tags`]), then what the page's elements show ([`nodes`]: `<title>`, `<h1>`, bylines,
//! `<time>`). The language is the exception: what the document itself declares (`<html lang>`)
//! comes first, and when nothing is declared it is detected from the text ([`language`]).
//! Values are the page's, so never trusted: whitespace collapsed, lengths bounded, dates parsed
//! ([`date`]), URLs made absolute and kept only when http(s); a value that fails is skipped
//! and the next source tried. Titles lose a site-name prefix or suffix ([`title`]).
//! Measured against Readability.js's expected metadata in `training/reports/metadata/`.

mod date;
mod json_ld;
mod language;
mod nodes;
mod tags;
mod title;
mod values;

use schemars::JsonSchema;
use serde::Serialize;
use url::Url;

use crate::page::{Page, collapse_whitespace};

pub use date::parse_date;
use json_ld::StructuredData;
pub use json_ld::decode_entities;
use nodes::{BylineKind, DateKind};
use tags::MetaTags;
use values::{
    MAX_DESCRIPTION_CHARS, MAX_SITE_NAME_CHARS, MAX_TITLE_CHARS, absolute_url, base_url, bounded,
    clean_author, host_names, join_names,
};

/// Where a metadata field came from: short, stable names (the output's `metadata.sources`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
pub enum Source {
    /// Schema.org JSON-LD (`<script type="application/ld+json">`).
    #[serde(rename = "json-ld")]
    JsonLd,
    /// OpenGraph `<meta property="og:…">`.
    #[serde(rename = "opengraph")]
    OpenGraph,
    /// OpenGraph's article properties (`article:published_time`, `article:author`).
    #[serde(rename = "article-meta")]
    ArticleMeta,
    /// Twitter card `<meta name="twitter:…">`.
    #[serde(rename = "twitter")]
    Twitter,
    /// A plain `<meta name=…>`: `author`, `description`, `date` and its variants,
    /// `application-name`, `language`.
    #[serde(rename = "meta")]
    Meta,
    /// Highwire Press `citation_*` tags (scholarly pages).
    #[serde(rename = "citation")]
    Citation,
    /// Dublin Core `dc.*` / `dcterms.*` tags.
    #[serde(rename = "dublin-core")]
    DublinCore,
    /// Parse.ly `parsely-*` tags.
    #[serde(rename = "parsely")]
    Parsely,
    /// Schema.org microdata (`itemprop` on a `<meta>` or an element).
    #[serde(rename = "microdata")]
    Microdata,
    /// The `lang` attribute of `<html>`.
    #[serde(rename = "html-lang")]
    HtmlLang,
    /// `<meta http-equiv="content-language">`.
    #[serde(rename = "content-language")]
    ContentLanguage,
    /// `<link rel="canonical">`.
    #[serde(rename = "link-canonical")]
    LinkCanonical,
    /// `<link rel="image_src">`.
    #[serde(rename = "link-image")]
    LinkImage,
    /// The `<title>` element.
    #[serde(rename = "title-element")]
    TitleElement,
    /// The page's only `<h1>`.
    #[serde(rename = "h1")]
    Heading,
    /// A byline element: a `rel=author` link or an element whose class or id names a byline or
    /// an author.
    #[serde(rename = "byline-element")]
    BylineElement,
    /// A `<time datetime>` element.
    #[serde(rename = "time-element")]
    TimeElement,
    /// Detected from the page's visible text (language only).
    #[serde(rename = "detected")]
    Detected,
}

/// Where each present field of [`Metadata`] came from; absent fields are left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct MetadataSources {
    /// Source of `title`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<Source>,
    /// Source of `author`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<Source>,
    /// Source of `published`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published: Option<Source>,
    /// Source of `language`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<Source>,
    /// Source of `site_name`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site_name: Option<Source>,
    /// Source of `canonical_url`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub canonical_url: Option<Source>,
    /// Source of `description`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<Source>,
    /// Source of `image`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<Source>,
}

/// What a page says about itself; `None` where no source gives a valid value.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Metadata {
    /// The headline, without a site-name prefix or suffix.
    pub title: Option<String>,
    /// The byline: the author's name, or names joined by ", " (by "; " when a name has a comma
    /// of its own: `Kooman, F.; Jong, Michiel de`), without "By" or a date after it.
    pub author: Option<String>,
    /// Publication date in ISO 8601: `2021-03-05`, or `2021-03-05T10:00:00+01:00` when the page
    /// gives a time (without an offset when it gives none).
    pub published: Option<String>,
    /// ISO 639-1 code of the page's language (`en`; the primary subtag of what it declares).
    pub language: Option<String>,
    /// The site's or publisher's name.
    pub site_name: Option<String>,
    /// The page's canonical URL, absolute.
    pub canonical_url: Option<String>,
    /// The page's summary as it gives it.
    pub description: Option<String>,
    /// The page's lead image, an absolute URL.
    pub image: Option<String>,
    /// Where each present field came from.
    pub sources: MetadataSources,
}

/// Candidate values of one field, best source first.
type Candidates<'a> = Vec<(Source, Option<&'a str>)>;

/// The metadata of a parsed page.
pub fn page_metadata(page: &Page) -> Metadata {
    let dom = &page.dom;
    let tags = MetaTags::read(dom);
    let json = json_ld::structured_data(dom);
    let headings = nodes::headings(dom);
    let heading_texts: Vec<String> = headings.iter().map(|(_, text)| text.clone()).collect();
    let base = base_url(page);
    let mut metadata = Metadata::default();
    let sources = &mut metadata.sources;

    (metadata.language, sources.language) =
        first_valid(language_candidates(page, &tags, &json), |v| {
            language::primary_subtag(v)
        });
    if metadata.language.is_none() {
        metadata.language = language::detect(dom);
        sources.language = metadata.language.as_ref().map(|_| Source::Detected);
    }

    let site_name_candidates: Candidates = vec![
        (Source::JsonLd, json.site_name.as_deref()),
        (Source::OpenGraph, tags.get("og:site_name")),
        (
            Source::DublinCore,
            tags.get("dc.publisher").or(tags.get("dcterms.publisher")),
        ),
        (Source::Citation, tags.get("citation_journal_title")),
        (Source::Meta, tags.get("application-name")),
    ];
    (metadata.site_name, sources.site_name) = first_valid(site_name_candidates.clone(), |v| {
        bounded(v, MAX_SITE_NAME_CHARS)
    });

    (metadata.canonical_url, sources.canonical_url) = first_valid(
        vec![
            (Source::LinkCanonical, tags.link("canonical")),
            (Source::OpenGraph, tags.get("og:url")),
            (Source::JsonLd, json.url.as_deref()),
        ],
        |v| absolute_url(v, base.as_ref()),
    );

    let mut site_names: Vec<String> = site_name_candidates
        .iter()
        .filter_map(|(_, name)| name.map(collapse_whitespace))
        .collect();
    let host = metadata
        .canonical_url
        .as_deref()
        .and_then(|u| Url::parse(u).ok())
        .or(page.url.clone());
    site_names.extend(
        host.as_ref()
            .and_then(Url::host_str)
            .map(host_names)
            .unwrap_or_default(),
    );
    let site_names: Vec<&str> = site_names.iter().map(String::as_str).collect();
    let page_headline = title::clean_title(&page.title, &site_names, &heading_texts);
    let candidates = title_candidates(page, &tags, &json, &heading_texts, &page_headline);
    let cleaned = |v: &str| {
        let title = bounded(v, MAX_TITLE_CHARS)?;
        Some(title::clean_title(&title, &site_names, &heading_texts))
    };
    // A site's name or bare host (`<meta name="DC.title" content="gnu.org">`) names the site, not
    // the page: a later source that says more wins; on a home page the site's name is the title.
    let names_the_site = |title: &str| {
        looks_like_a_host(title)
            || site_names
                .iter()
                .any(|name| title::comparable(name) == title::comparable(title))
    };
    (metadata.title, sources.title) = first_valid(candidates.clone(), |v| {
        cleaned(v).filter(|title| !names_the_site(title))
    });
    if metadata.title.is_none() {
        (metadata.title, sources.title) = first_valid(candidates, cleaned);
    }

    let citation_authors = join_names(tags.all("citation_author"));
    // `DC.creator` is repeated, one tag per creator (RFCs list each author).
    let dublin_core_creators = join_names(dublin_core_all(&tags, &["creator"]));
    let headline = nodes::headline(&headings, metadata.title.as_deref());
    let byline = nodes::byline(dom, headline);
    (metadata.author, sources.author) = first_valid(
        vec![
            (Source::JsonLd, json.author.as_deref()),
            (Source::DublinCore, Some(dublin_core_creators.as_str())),
            (Source::ArticleMeta, tags.get("article:author")),
            (Source::Meta, tags.get("author")),
            (Source::Citation, Some(citation_authors.as_str())),
            (Source::Parsely, tags.get("parsely-author")),
            (Source::Microdata, tags.get("itemprop:author")),
            match &byline {
                Some((text, BylineKind::Microdata)) => (Source::Microdata, Some(text.as_str())),
                Some((text, BylineKind::Element)) => (Source::BylineElement, Some(text.as_str())),
                None => (Source::BylineElement, None),
            },
        ],
        clean_author,
    );

    let shown_date = nodes::published(dom);
    let meta_date = [
        "date",
        "pubdate",
        "publishdate",
        "publish-date",
        "publish_date",
        "pub_date",
        "publication_date",
        "sailthru.date",
        "article.published",
        "original-publish-date",
    ]
    .iter()
    .find_map(|key| tags.get(key));
    (metadata.published, sources.published) = first_valid(
        vec![
            (Source::JsonLd, json.published.as_deref()),
            (
                Source::ArticleMeta,
                tags.get("article:published_time")
                    .or(tags.get("og:published_time")),
            ),
            (Source::Meta, meta_date),
            (
                Source::Citation,
                tags.get("citation_publication_date")
                    .or(tags.get("citation_date"))
                    .or(tags.get("citation_online_date")),
            ),
            (
                Source::DublinCore,
                dublin_core(&tags, &["date.issued", "issued", "created", "date"]),
            ),
            (Source::Parsely, tags.get("parsely-pub-date")),
            (Source::Microdata, tags.get("itemprop:datePublished")),
            (Source::JsonLd, json.created.as_deref()),
            match &shown_date {
                Some((text, DateKind::Microdata)) => (Source::Microdata, Some(text.as_str())),
                Some((text, DateKind::Time)) => (Source::TimeElement, Some(text.as_str())),
                None => (Source::TimeElement, None),
            },
        ],
        parse_date,
    );

    (metadata.description, sources.description) = first_valid(
        vec![
            (Source::JsonLd, json.description.as_deref()),
            (Source::DublinCore, dublin_core(&tags, &["description"])),
            (Source::OpenGraph, tags.get("og:description")),
            (Source::Twitter, tags.get("twitter:description")),
            (Source::Meta, tags.get("description")),
            (Source::Citation, tags.get("citation_abstract")),
        ],
        |v| bounded(v, MAX_DESCRIPTION_CHARS),
    );

    (metadata.image, sources.image) = first_valid(
        vec![
            (Source::JsonLd, json.image.as_deref()),
            (
                Source::OpenGraph,
                tags.get("og:image")
                    .or(tags.get("og:image:url"))
                    .or(tags.get("og:image:secure_url")),
            ),
            (
                Source::Twitter,
                tags.get("twitter:image").or(tags.get("twitter:image:src")),
            ),
            (Source::LinkImage, tags.link("image_src")),
            (Source::Microdata, tags.get("itemprop:image")),
        ],
        |v| absolute_url(v, base.as_ref()),
    );
    metadata
}

/// The declared languages, the document's own declaration first (`<html lang>`).
fn language_candidates<'a>(
    page: &'a Page,
    tags: &'a MetaTags,
    json: &'a StructuredData,
) -> Candidates<'a> {
    let root = page.dom.ids().next().map(|id| page.dom.element(id));
    vec![
        (
            Source::HtmlLang,
            root.and_then(|html| html.attribute("lang").or(html.attribute("xml:lang"))),
        ),
        (
            Source::ContentLanguage,
            tags.get("http-equiv:content-language"),
        ),
        (Source::OpenGraph, tags.get("og:locale")),
        (Source::JsonLd, json.language.as_deref()),
        (
            Source::Meta,
            tags.get("language").or(tags.get("content-language")),
        ),
        (Source::DublinCore, dublin_core(tags, &["language"])),
    ]
}

/// Headline sources: structured data, `<meta>` titles, then `<title>` and a lone `<h1>`.
fn title_candidates<'a>(
    page: &'a Page,
    tags: &'a MetaTags,
    json: &'a StructuredData,
    headings: &'a [String],
    page_headline: &str,
) -> Candidates<'a> {
    vec![
        (Source::JsonLd, json_ld_title(json, page_headline)),
        (Source::DublinCore, dublin_core(tags, &["title"])),
        (Source::OpenGraph, tags.get("og:title")),
        (Source::Twitter, tags.get("twitter:title")),
        (Source::Citation, tags.get("citation_title")),
        (Source::Parsely, tags.get("parsely-title")),
        (Source::Microdata, tags.get("itemprop:headline")),
        (Source::TitleElement, Some(page.title.as_str())),
        (
            Source::Heading,
            match headings {
                [only] => Some(only.as_str()),
                _ => None,
            },
        ),
    ]
}

/// JSON-LD's `headline`, or its `name` where the two differ and only the name is in the page's
/// headline as its `<title>` gives it, site name cut (Wikipedia's `headline` is a one-line
/// description; Readability.js decides alike).
fn json_ld_title<'a>(json: &'a StructuredData, page_headline: &str) -> Option<&'a str> {
    let in_title = |text: &str| title::comparable(page_headline).contains(&title::comparable(text));
    match (json.headline.as_deref(), json.name.as_deref()) {
        (Some(headline), Some(name)) if !in_title(headline) && in_title(name) => Some(name),
        (Some(headline), _) => Some(headline),
        (None, name) => name,
    }
}

/// The last Dublin Core tag of the first of `terms` the page has.
fn dublin_core<'a>(tags: &'a MetaTags, terms: &[&str]) -> Option<&'a str> {
    dublin_core_all(tags, terms).last().copied()
}

/// Every Dublin Core tag of the first of `terms` the page has, in the spelling (`dc.title`,
/// `dc:title`, `dcterms.title`, `dcterm:title`) it uses last: a later tag restates an earlier
/// one (`name="DC.creator"`, then `property="dc:creator"`), as Readability.js reads them.
fn dublin_core_all<'a>(tags: &'a MetaTags, terms: &[&str]) -> Vec<&'a str> {
    terms
        .iter()
        .find_map(|term| {
            let spellings: Vec<String> = ["dc.", "dc:", "dcterms.", "dcterms:", "dcterm:"]
                .iter()
                .map(|prefix| format!("{prefix}{term}"))
                .collect();
            tags.last_of(&spellings)
        })
        .map(|key| tags.all(key).collect())
        .unwrap_or_default()
}

/// Whether a text is a bare host name (`gnu.org`, `www.example.co.uk`).
fn looks_like_a_host(text: &str) -> bool {
    text.contains('.')
        && !text.starts_with('.')
        && !text.ends_with('.')
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || c == '.' || c == '-')
        && text.chars().any(char::is_alphabetic)
}

/// The first candidate `accept` turns into a value, with its source.
fn first_valid(
    candidates: Candidates,
    accept: impl Fn(&str) -> Option<String>,
) -> (Option<String>, Option<Source>) {
    candidates
        .into_iter()
        .find_map(|(source, value)| Some((accept(value?)?, source)))
        .map_or((None, None), |(value, source)| (Some(value), Some(source)))
}

/// The DOM of test markup (UTF-8, no URL), for the tests of every file here.
#[cfg(test)]
fn test_dom(html: &str) -> crate::page::Dom {
    let limits = crate::page::ParseLimits::default();
    Page::parse(html.as_bytes(), None, Some("utf-8"), &limits)
        .expect("test markup parses")
        .dom
}

#[cfg(test)]
mod tests;
