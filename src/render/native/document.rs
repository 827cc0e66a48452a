//! Blitz's document, built from our DOM copy: the copy's markup (`write_markup`, the walk
//! `serialize` writes for Chromium) handed to html5ever's tree builder as tokens, into Blitz's
//! own tree sink. The tree is the one Blitz's parser builds from the serialized copy — the tree
//! builder's repairs, SVG and MathML names and namespaces, `<template>` contents and
//! `<noscript>` are its own — without writing the HTML and tokenizing it again, which was 10%
//! of a page's instructions (`training/reports/native/`, "Speed").
//!
//! The tokens are those html5ever's tokenizer makes of the serialized copy: names lower-cased,
//! text and attribute values with line breaks normalized (`\r\n` and `\r` read as `\n`), a
//! doctype first (standards mode; the copy is never read as XHTML). They differ only where the
//! serialized copy did not read back as written: raw text in SVG or MathML (a `<style>` in an
//! `<svg>` is markup there, so `&amp;` or `<` in it were read again) and `<plaintext>` (whose
//! text swallowed the end tags after it); the tokens give the text our DOM holds.

use std::borrow::Cow;

use blitz_dom::{BaseDocument, DocumentConfig};
use blitz_html::DocumentHtmlParser;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    CharacterTokens, Doctype, DoctypeToken, EOFToken, EndTag, StartTag, Tag, Token, TokenSink,
};
use html5ever::tree_builder::{QuirksMode, TreeBuilder, TreeBuilderOpts};
use html5ever::{Attribute, LocalName, QualName, ns};

use crate::page::{Dom, MarkupSink, NodeId, SerializeOptions, write_markup};

/// Blitz's parser settings (`blitz_html`): scripting off, so `<noscript>` content is markup.
const TREE_BUILDER_OPTIONS: TreeBuilderOpts = TreeBuilderOpts {
    exact_errors: false,
    scripting_enabled: false,
    iframe_srcdoc: false,
    drop_doctype: true,
    quirks_mode: QuirksMode::NoQuirks,
};

/// Builds Blitz's document of the `copy` with `config`, as its parser would from
/// `serialize(copy, options)`.
pub(super) fn build_document(
    copy: &Dom,
    options: &SerializeOptions,
    config: DocumentConfig,
) -> BaseDocument {
    let mut document = BaseDocument::new(config);
    {
        // Dropping the mutator ends the build: `<style>` sheets are read then.
        let mut mutator = document.mutate();
        let tree_builder =
            TreeBuilder::new(DocumentHtmlParser::new(&mut mutator), TREE_BUILDER_OPTIONS);
        let mut tokens = Tokens {
            tree_builder: &tree_builder,
            tagged_attribute: options.node_id_attribute.map(LocalName::from),
        };
        tokens.send(DoctypeToken(Doctype {
            name: Some(StrTendril::from_slice("html")),
            ..Doctype::default()
        }));
        write_markup(copy, options, &mut tokens);
        tokens.send(EOFToken);
        tree_builder.end();
    }
    document
}

/// The tokenizer's side: markup in, tokens out to the tree builder.
struct Tokens<'a, Sink: TokenSink> {
    tree_builder: &'a Sink,
    /// The id attribute's name, interned once.
    tagged_attribute: Option<LocalName>,
}

impl<Sink: TokenSink> Tokens<'_, Sink> {
    fn send(&self, token: Token) {
        // What the tree builder asks of a tokenizer (raw text next, a script to run) is for
        // reading characters; these tokens are already read.
        let _ = self.tree_builder.process_token(token, 1);
    }
}

impl<Sink: TokenSink> MarkupSink for Tokens<'_, Sink> {
    fn start_tag<'a>(
        &mut self,
        tag: &str,
        attributes: impl Iterator<Item = (&'a str, &'a str)>,
        tagged: Option<(&str, NodeId)>,
    ) {
        let mut attrs: Vec<Attribute> = attributes
            .map(|(name, value)| Attribute {
                name: attribute_name(LocalName::from(lower_case(name))),
                value: StrTendril::from_slice(&as_read(value)),
            })
            .collect();
        if let (Some((_, id)), Some(name)) = (tagged, &self.tagged_attribute) {
            attrs.push(Attribute {
                name: attribute_name(name.clone()),
                value: StrTendril::from(id.0.to_string()),
            });
        }
        self.send(Token::TagToken(Tag {
            kind: StartTag,
            name: LocalName::from(lower_case(tag)),
            self_closing: false,
            attrs,
            had_duplicate_attributes: false,
        }));
    }

    fn text(&mut self, text: &str, _raw: bool) {
        if !text.is_empty() {
            self.send(CharacterTokens(StrTendril::from_slice(&as_read(text))));
        }
    }

    fn end_tag(&mut self, tag: &str) {
        self.send(Token::TagToken(Tag {
            kind: EndTag,
            name: LocalName::from(lower_case(tag)),
            self_closing: false,
            attrs: Vec::new(),
            had_duplicate_attributes: false,
        }));
    }
}

/// An attribute's name as the tokenizer gives it: no namespace (the tree builder adds SVG's,
/// MathML's and XLink's).
fn attribute_name(local: LocalName) -> QualName {
    QualName::new(None, ns!(), local)
}

/// The tokenizer lower-cases ASCII letters of tag and attribute names (our DOM keeps SVG's
/// `viewBox` as the tree builder adjusted it; it adjusts it again).
fn lower_case(name: &str) -> Cow<'_, str> {
    if name.bytes().any(|byte| byte.is_ascii_uppercase()) {
        Cow::Owned(name.to_ascii_lowercase())
    } else {
        Cow::Borrowed(name)
    }
}

/// Text as the tokenizer reads it back: a carriage return (only a character reference such as
/// `&#13;` leaves one in our DOM) is a line feed, `\r\n` one line feed.
fn as_read(text: &str) -> Cow<'_, str> {
    if text.contains('\r') {
        Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use std::fmt::Write;

    use blitz_dom::NodeData;
    use blitz_html::HtmlDocument;

    use super::*;
    use crate::page::{Page, ParseLimits, serialize};
    use crate::render::NODE_ID_ATTRIBUTE;

    const OPTIONS: SerializeOptions = SerializeOptions {
        node_id_attribute: Some(NODE_ID_ATTRIBUTE),
        base_href: Some("http://example.com/saved/"),
    };

    fn parsed(html: &str) -> Page {
        Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap()
    }

    /// Every node under the document: names with namespaces and prefixes, attributes, text.
    fn tree(document: &BaseDocument) -> String {
        let mut out = String::new();
        let mut pending = vec![(document.root_node().id, 0)];
        while let Some((id, depth)) = pending.pop() {
            let node = document.get_node(id).unwrap();
            let indent = "  ".repeat(depth);
            match &node.data {
                NodeData::Element(element) => {
                    let name = &element.name;
                    let _ = write!(
                        out,
                        "{indent}<{:?} {:?} {}",
                        name.prefix, name.ns, name.local
                    );
                    for attribute in element.attrs() {
                        let name = &attribute.name;
                        let _ = write!(
                            out,
                            " {:?}:{:?}:{}={:?}",
                            name.prefix, name.ns, name.local, attribute.value
                        );
                    }
                    out.push('\n');
                }
                NodeData::Text(text) => {
                    let _ = writeln!(out, "{indent}{:?}", text.content);
                }
                _ => {}
            }
            pending.extend(node.children.iter().rev().map(|&child| (child, depth + 1)));
        }
        out
    }

    /// A base URL, which Blitz needs to resolve a stylesheet's `href`.
    fn config() -> DocumentConfig {
        DocumentConfig {
            base_url: Some("http://example.com/".to_string()),
            ..DocumentConfig::default()
        }
    }

    fn built_from_tokens(page: &Page) -> String {
        tree(&build_document(&page.dom, &OPTIONS, config()))
    }

    fn parsed_from_serialized_copy(page: &Page) -> String {
        let html =
            serialize(&page.dom, &OPTIONS).replacen("<!DOCTYPE html>", "<!DOCTYPE html>\n", 1);
        tree(&HtmlDocument::from_html(&html, config()))
    }

    #[test]
    fn the_document_is_the_tree_blitz_parses_from_the_serialized_copy() {
        let pages = [
            // SVG and MathML: camel-cased names, namespaced attributes, integration points.
            r##"<!DOCTYPE html><body><svg viewBox="0 0 10 10" xmlns:xlink="http://www.w3.org/1999/xlink"><linearGradient id=g><stop offset=0></linearGradient><use xlink:href="#g" xml:lang=en></use><foreignObject><div>html <b>inside</b></div></foreignObject><text>x</text></svg><math definitionURL=u><mi><span>y</span></mi><annotation-xml encoding="text/html"><p>z</p></annotation-xml></math></body>"##,
            // <template> contents, <noscript> markup in the head and the body, refresh.
            r#"<!DOCTYPE html><head><meta http-equiv=Refresh content="0; url=x"><noscript><link rel=stylesheet href=a.css><p>out of the head</p></noscript></head><body><template><p>inert</p></template><noscript><img src=i.png alt=no></noscript>"#,
            // Leading newlines of <pre> and <textarea>, character references, comments.
            "<!DOCTYPE html><pre>\n\nfirst line</pre><textarea>\n\nt</textarea><p>a&amp;b&nbsp;c&#13;d\r\ne<!-- c -->f</p><p title=\"x&quot;&amp;&#13;\">q</p>",
            // Quirks mode (no doctype): a table in a paragraph, read back in standards mode.
            "<p>before<table><tr><td>cell</td></tr></table>after</p><form><div></form><form id=b>in</form></div>",
            // Repaired markup: misnested formatting, foster-parented content, tables.
            "<!DOCTYPE html><b><i>bold</b>italic</i><table>foster<tr><td>1<td>2</table><ul><li>a<li>b</ul><DIV CLASS=Up DATA-X=1>case</DIV>",
        ];
        for html in pages {
            let page = parsed(html);
            assert_eq!(
                built_from_tokens(&page),
                parsed_from_serialized_copy(&page),
                "{html}"
            );
        }
    }

    #[test]
    fn raw_text_in_svg_is_the_text_of_our_dom_not_markup_read_again() {
        // The serialized copy wrote `<` raw into the SVG <style>, where a parser reads it as a tag.
        let page = parsed("<!DOCTYPE html><svg><style>a&lt;b {}</style></svg>");
        let tree = built_from_tokens(&page);
        assert!(tree.contains("\"a<b {}\""), "{tree}");
    }

    /// The same over real pages: every 8th page of the shared Readability set (modern
    /// markup: SVG icons, `<template>`, `<noscript>`, React roots) and of Dragnet (2000s
    /// markup: tables, unclosed tags). The whole 2,354-file check was run once by hand when
    /// the document builder came in (`training/reports/native/README.md`, "Speed").
    #[test]
    fn shared_pages_give_the_tree_blitz_parses_from_the_serialized_copy() {
        let labelled =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets/labeled");
        let mut differing = Vec::new();
        let mut pages = 0;
        for folder in ["readability/pages", "dragnet/HTML"] {
            let mut files: Vec<_> = std::fs::read_dir(labelled.join(folder))
                .unwrap_or_else(|error| panic!("the shared set {folder}: {error}"))
                .map(|entry| entry.unwrap().path())
                .collect();
            files.sort();
            for path in files.iter().step_by(8) {
                let bytes = std::fs::read(path).unwrap();
                let Ok(page) = Page::parse(&bytes, None, None, &ParseLimits::default()) else {
                    continue;
                };
                pages += 1;
                if built_from_tokens(&page) != parsed_from_serialized_copy(&page) {
                    differing.push(path.display().to_string());
                }
            }
        }
        assert!(pages >= 20, "only {pages} pages read");
        assert!(
            differing.is_empty(),
            "{} of {pages}: {differing:#?}",
            differing.len()
        );
    }
}
