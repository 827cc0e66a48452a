//! Metadata the page's own elements show a reader: its `<h1>` headings, its byline (microdata
//! `itemprop=author`, `rel=author` links, elements whose class or id names a byline or an
//! author) and its `<time datetime>` elements. Read only when the page's structured data and
//! `<meta>` tags say nothing.

use super::title::comparable;
use crate::page::{Dom, Element, NodeId, collapse_whitespace};

/// Headings looked at; a page with more `<h1>`s uses them for everything.
const MAX_HEADINGS: usize = 8;

/// Longest byline text: Readability's bound (a longer "author" element is a biography).
const MAX_BYLINE_CHARS: usize = 100;

/// Parts of a class or id naming a byline or an author (`byline`, `author-name`, `p-author`).
const BYLINE_WORDS: &[&str] = &["byline", "author", "authors", "writer"];

/// Parts of a class or id naming what surrounds an author but is not the name.
const NOT_BYLINE_WORDS: &[&str] = &[
    "avatar",
    "bio",
    "image",
    "img",
    "photo",
    "picture",
    "pic",
    "description",
    "about",
    "box",
    "follow",
    "social",
    "comment",
    "comments",
    "more",
    "links",
    "title",
    "label",
];

/// The page's first `<h1>` elements that hold text, with their whitespace-collapsed texts.
pub fn headings(dom: &Dom) -> Vec<(NodeId, String)> {
    dom.ids()
        .filter(|&id| dom.element(id).tag == "h1")
        .take(MAX_HEADINGS)
        .map(|id| (id, dom.text(id)))
        .filter(|(_, text)| !text.is_empty())
        .collect()
}

/// The article's headline element: the first `<h1>` that reads as the page's `title`, else the
/// page's only `<h1>`.
pub fn headline(headings: &[(NodeId, String)], title: Option<&str>) -> Option<NodeId> {
    let title = title.map(comparable);
    headings
        .iter()
        .find(|(_, text)| title.as_ref() == Some(&comparable(text)))
        .or(match headings {
            [only] => Some(only),
            _ => None,
        })
        .map(|(id, _)| *id)
}

/// Where a byline was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BylineKind {
    /// An element with `itemprop=author`.
    Microdata,
    /// A `rel=author` link or an element whose class or id names a byline.
    Element,
}

/// The text of the page's byline, as shown (`By Ann Lee`), and where it was found. A byline
/// after the article's `headline` (its `<h1>`, when the page has one) wins over one before it:
/// what comes first on many pages is a sidebar's or a teaser's (a commenter's name, a related
/// story's author), and an article's own byline follows its headline.
pub fn byline(dom: &Dom, headline: Option<NodeId>) -> Option<(String, BylineKind)> {
    let short_text = |id: NodeId| {
        let text = dom.text(id);
        (!text.is_empty() && text.chars().count() <= MAX_BYLINE_CHARS).then_some(text)
    };
    let in_head = dom.within(|element| element.tag == "head");
    let shown = |id: NodeId| {
        !in_head[id.index()] && !matches!(dom.element(id).tag.as_str(), "meta" | "link" | "script")
    };
    // Elements after the headline, then those before it: each looked at once, and lazily, for
    // `Dom::text` walks the page's texts.
    let split = headline.map_or(0, |headline| headline.index() + 1);
    let headline_first = || dom.ids().skip(split).chain(dom.ids().take(split));
    let microdata_name = headline_first()
        .filter(|&id| shown(id) && has_token(dom.element(id), "itemprop", "author"))
        .find_map(|id| {
            let name = dom
                .subtree(id)
                .find(|&inner| has_token(dom.element(inner), "itemprop", "name"));
            short_text(name.unwrap_or(id))
        });
    if let Some(text) = microdata_name {
        return Some((text, BylineKind::Microdata));
    }
    let is_byline = |id: NodeId| {
        let element = dom.element(id);
        shown(id) && (has_token(element, "rel", "author") || names_a_byline(element))
    };
    let outer = headline_first()
        .filter(|&id| is_byline(id))
        .find(|&id| short_text(id).is_some())?;
    // `<div class=author><a class=author-link>Ann Lee</a> Games Editor</div>`: the innermost
    // byline element holds the name alone.
    let inner = dom
        .subtree(outer)
        .skip(1)
        .filter(|&id| is_byline(id))
        .last()
        .filter(|&id| short_text(id).is_some());
    short_text(inner.unwrap_or(outer)).map(|text| (text, BylineKind::Element))
}

/// Whether a space-separated attribute holds a token (case-insensitive).
fn has_token(element: &Element, attribute: &str, token: &str) -> bool {
    element.attribute(attribute).is_some_and(|value| {
        value
            .split_whitespace()
            .any(|t| t.eq_ignore_ascii_case(token))
    })
}

/// Whether a class or id token is made of words that name a byline (`byline`, `post-author`)
/// and none that name its surroundings (`author-avatar`, `author-bio`).
fn names_a_byline(element: &Element) -> bool {
    ["class", "id"]
        .iter()
        .filter_map(|attribute| element.attribute(attribute))
        .flat_map(str::split_whitespace)
        // Most tokens hold no byline word at all: they are let go before being split.
        .filter(|token| {
            let token = token.to_ascii_lowercase();
            BYLINE_WORDS.iter().any(|word| token.contains(word))
        })
        .any(|token| {
            let words = class_words(token);
            words
                .iter()
                .any(|word| BYLINE_WORDS.contains(&word.as_str()))
                && !words
                    .iter()
                    .any(|word| NOT_BYLINE_WORDS.contains(&word.as_str()))
        })
}

/// The lower-cased words of a class or id token, split at `-`, `_` and camelCase humps
/// (`post-author`, `author_name`, `FeatureByline`).
fn class_words(token: &str) -> Vec<String> {
    let mut words = Vec::new();
    for part in token.split(['-', '_']) {
        let mut word = String::new();
        let mut previous_lower = false;
        for c in part.chars() {
            if c.is_uppercase() && previous_lower && !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            previous_lower = c.is_lowercase();
            word.extend(c.to_lowercase());
        }
        if !word.is_empty() {
            words.push(word);
        }
    }
    words
}

/// Where a published date was found among the elements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateKind {
    /// An element with `itemprop=datePublished` (its `datetime`, `content`, or text).
    Microdata,
    /// A `<time datetime>` element.
    Time,
}

/// The publication date the elements give, as written: microdata's `datePublished`, else the
/// first `<time>` with a `datetime` attribute (a `pubdate` one first).
pub fn published(dom: &Dom) -> Option<(String, DateKind)> {
    let value = |id: NodeId| {
        let element = dom.element(id);
        ["datetime", "content"]
            .iter()
            .find_map(|attribute| element.attribute(attribute))
            .map(collapse_whitespace)
            .or_else(|| Some(dom.text(id)))
            .filter(|text| !text.is_empty())
    };
    let microdata = dom
        .ids()
        .filter(|&id| {
            dom.element(id).tag != "meta" && has_token(dom.element(id), "itemprop", "datePublished")
        })
        .find_map(value);
    if let Some(date) = microdata {
        return Some((date, DateKind::Microdata));
    }
    let times: Vec<NodeId> = dom
        .ids()
        .filter(|&id| {
            dom.element(id).tag == "time" && dom.element(id).attribute("datetime").is_some()
        })
        .collect();
    times
        .iter()
        .find(|&&id| dom.element(id).attribute("pubdate").is_some())
        .or(times.first())
        .and_then(|&id| dom.element(id).attribute("datetime"))
        .map(|datetime| (collapse_whitespace(datetime), DateKind::Time))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::test_dom as dom;

    #[test]
    fn microdata_names_the_author_before_class_names_do() {
        let page = dom("<div class=byline>By Someone Else</div>\
             <span itemprop=author itemscope><img alt=''><span itemprop=name>Ann Lee</span></span>");
        assert_eq!(
            byline(&page, None),
            Some(("Ann Lee".into(), BylineKind::Microdata))
        );
    }

    #[test]
    fn a_byline_class_counts_but_an_author_biography_does_not() {
        let page = dom("<div class=author-bio>Ann writes about rain.</div>\
             <p class='meta post-author'>By Ann Lee</p>");
        assert_eq!(
            byline(&page, None),
            Some(("By Ann Lee".into(), BylineKind::Element))
        );
        let long = format!("<div class=byline>{}</div>", "word ".repeat(40));
        assert_eq!(byline(&dom(&long), None), None);
        let nested = dom("<div class=author><a class=author-link>Ann Lee</a> Games Editor</div>");
        assert_eq!(
            byline(&nested, None),
            Some(("Ann Lee".into(), BylineKind::Element))
        );
    }

    #[test]
    fn a_pubdate_time_wins_over_the_first_time() {
        let page = dom(
            "<time datetime=2020-01-01>then</time><time pubdate datetime=2021-03-05>now</time>",
        );
        assert_eq!(
            published(&page),
            Some(("2021-03-05".into(), DateKind::Time))
        );
        let page = dom("<span itemprop=datePublished content=2019-02-03>Feb 3</span>");
        assert_eq!(
            published(&page),
            Some(("2019-02-03".into(), DateKind::Microdata))
        );
    }

    #[test]
    fn headings_are_the_h1_texts() {
        let texts: Vec<String> = headings(&dom("<h1> Rain <b>today</b></h1><h2>x</h2><h1></h1>"))
            .into_iter()
            .map(|(_, text)| text)
            .collect();
        assert_eq!(texts, ["Rain today"]);
    }
}
