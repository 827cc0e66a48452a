//! The page's `<meta>` and `<link>` elements as a lookup table: OpenGraph (`og:*`,
//! `article:*`), Twitter cards, `name=author|description|date`, Highwire (`citation_*`), Dublin
//! Core (`dc.*`, `dcterms.*`), Parse.ly (`parsely-*`), microdata (`itemprop`), `http-equiv`,
//! and `rel=canonical|image_src` links.

use crate::page::Dom;

/// Longest `content` read; a longer one is not a title, name or date.
const MAX_CONTENT_BYTES: usize = 4 * 1024;

/// `<meta>` and `<link>` values by key, in document order.
#[derive(Debug, Default)]
pub struct MetaTags {
    /// `(key, content)`: the key is a `name`, `property` or `http-equiv` value lower-cased
    /// (`og:title`, `description`, `http-equiv:content-language`), or `itemprop:` and the
    /// property (`itemprop:datePublished`); a space-separated list gives one entry per key.
    metas: Vec<(String, String)>,
    /// `(rel, href)` of `<link>` elements, rel tokens lower-cased, one entry per token.
    links: Vec<(String, String)>,
}

impl MetaTags {
    /// Every `<meta>` and `<link>` of the page, wherever they stand.
    pub fn read(dom: &Dom) -> MetaTags {
        let mut tags = MetaTags::default();
        for id in dom.ids() {
            let element = dom.element(id);
            match element.tag.as_str() {
                "meta" => {
                    let Some(content) =
                        element
                            .attribute("content")
                            .map(str::trim)
                            .filter(|content| {
                                !content.is_empty() && content.len() <= MAX_CONTENT_BYTES
                            })
                    else {
                        continue;
                    };
                    let mut keys: Vec<String> = Vec::new();
                    for attribute in ["name", "property"] {
                        if let Some(value) = element.attribute(attribute) {
                            keys.extend(value.split_whitespace().map(str::to_ascii_lowercase));
                        }
                    }
                    if let Some(value) = element.attribute("http-equiv") {
                        keys.push(format!("http-equiv:{}", value.trim().to_ascii_lowercase()));
                    }
                    if let Some(value) = element.attribute("itemprop") {
                        keys.extend(
                            value
                                .split_whitespace()
                                .map(|key| format!("itemprop:{key}")),
                        );
                    }
                    for key in keys {
                        tags.metas.push((key, content.to_string()));
                    }
                }
                "link" => {
                    let (Some(rel), Some(href)) =
                        (element.attribute("rel"), element.attribute("href"))
                    else {
                        continue;
                    };
                    let href = href.trim();
                    if href.is_empty() || href.len() > MAX_CONTENT_BYTES {
                        continue;
                    }
                    for token in rel.split_whitespace() {
                        tags.links
                            .push((token.to_ascii_lowercase(), href.to_string()));
                    }
                }
                _ => {}
            }
        }
        tags
    }

    /// The first content of a key (lower-case, except after `itemprop:`).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.metas
            .iter()
            .find(|(name, _)| name == key)
            .map(|(_, content)| content.as_str())
    }

    /// Every content of a key, in document order (`citation_author` is one tag per author).
    pub fn all(&self, key: &str) -> impl Iterator<Item = &str> {
        self.metas
            .iter()
            .filter(move |(name, _)| name == key)
            .map(|(_, content)| content.as_str())
    }

    /// Which of `keys` the page's last tag among them has (`dc:creator` after `dc.creator`).
    pub fn last_of(&self, keys: &[String]) -> Option<&str> {
        self.metas
            .iter()
            .rev()
            .find(|(name, _)| keys.contains(name))
            .map(|(name, _)| name.as_str())
    }

    /// The first `href` of a `<link>` with this `rel` token.
    pub fn link(&self, rel: &str) -> Option<&str> {
        self.links
            .iter()
            .find(|(token, _)| token == rel)
            .map(|(_, href)| href.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::test_dom;

    fn tags(html: &str) -> MetaTags {
        MetaTags::read(&test_dom(html))
    }

    #[test]
    fn keys_are_lower_cased_and_space_separated_properties_each_count() {
        let found = tags(
            "<meta property='OG:Title twitter:title' content=' Both '>\
             <meta name=citation_author content='A'><meta name=citation_author content='B'>\
             <meta http-equiv='Content-Language' content='de'><meta itemprop=datePublished content=2020-01-01>\
             <link rel='Canonical' href='/a'><meta name=description content=''>",
        );
        assert_eq!(found.get("og:title"), Some("Both"));
        assert_eq!(found.get("twitter:title"), Some("Both"));
        assert_eq!(found.all("citation_author").collect::<Vec<_>>(), ["A", "B"]);
        assert_eq!(found.get("http-equiv:content-language"), Some("de"));
        assert_eq!(found.get("itemprop:datePublished"), Some("2020-01-01"));
        assert_eq!(found.link("canonical"), Some("/a"));
        assert_eq!(found.get("description"), None, "empty content says nothing");
    }

    #[test]
    fn oversized_contents_are_ignored() {
        let html = format!(
            "<meta name=author content='{}'>",
            "a".repeat(MAX_CONTENT_BYTES + 1)
        );
        assert_eq!(tags(&html).get("author"), None);
    }
}
