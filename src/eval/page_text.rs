//! The page as the evaluation sees it: the words a reader sees, the leaves (text nodes) they sit
//! in, and the links, all taken from the arena DOM the detector scored — so a word's detected
//! label is exactly the verdict on the element that holds it.
//!
//! - **Words** come from text nodes whose parent element has a layout box (visible text), in
//!   document order, split by [`word_tokens`]. A word belongs to its text node's *leaf*, and its
//!   detected label is its parent element's verdict.
//! - **Anchor-text words** are words with an `<a href>` ancestor (or parent).
//! - **Links** are `<a href>` elements with a layout box; a link's detected label is its own
//!   verdict. Its gold label is the majority of its words' gold labels (ties count as not
//!   template, the cautious side) and it is unscored when none of its words is scored: the
//!   labelled sets label text, not elements, so a link is judged by the text people saw in it.

use crate::page::{Dom, NodeId};

use crate::text::word_tokens;

/// One visible word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageWord {
    /// Lower-cased, as [`word_tokens`] makes it.
    pub text: String,
    /// Index into [`PageText::leaves`].
    pub leaf: usize,
    /// Index into [`PageText::links`] of the link around the word, if any.
    pub link: Option<usize>,
}

/// A visible text node: the unit the paper's segmentation metric groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leaf {
    /// The text node's parent element, whose verdict the leaf takes.
    pub element: NodeId,
    /// Number of words in the leaf (leaves without words are not listed).
    pub words: usize,
}

/// The words, leaves and links of one page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PageText {
    /// Every visible word, in document order.
    pub words: Vec<PageWord>,
    /// Visible text nodes holding at least one word, in document order.
    pub leaves: Vec<Leaf>,
    /// `<a href>` elements with a layout box, in document order.
    pub links: Vec<NodeId>,
}

impl PageText {
    /// The visible text of `dom`, where `laid_out` tells which elements have a layout box.
    pub fn of(dom: &Dom, laid_out: impl Fn(NodeId) -> bool) -> PageText {
        let mut text = PageText::default();
        // The nearest enclosing link of every element; parents come before children.
        let mut enclosing_link: Vec<Option<usize>> = vec![None; dom.len()];
        for id in dom.ids() {
            let element = dom.element(id);
            let inherited = element
                .parent
                .and_then(|parent| enclosing_link[parent.index()]);
            enclosing_link[id.index()] =
                if element.tag == "a" && element.attribute("href").is_some() && laid_out(id) {
                    text.links.push(id);
                    Some(text.links.len() - 1)
                } else {
                    inherited
                };
        }
        for node in &dom.texts {
            let parent = node.parent;
            if !laid_out(parent) || !dom.is_visible_text_parent(parent) {
                continue;
            }
            let words = word_tokens(&node.text);
            if words.is_empty() {
                continue;
            }
            let leaf = text.leaves.len();
            text.leaves.push(Leaf {
                element: parent,
                words: words.len(),
            });
            let link = enclosing_link[parent.index()];
            text.words.extend(words.into_iter().map(|word| PageWord {
                text: word,
                leaf,
                link,
            }));
        }
        text
    }

    /// The words as string slices, for alignment.
    pub fn word_texts(&self) -> Vec<&str> {
        self.words.iter().map(|word| word.text.as_str()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::{Page, ParseLimits};

    fn parse(html: &str) -> Page {
        Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap()
    }

    #[test]
    fn words_are_visible_text_in_document_order_with_their_leaf_and_link() {
        let page = parse(
            r#"<html><head><title>T</title></head><body><p>Hello <a href="/x">big <b>world</b></a></p>
               <div id="hidden">secret</div><a>no href</a><script>var x;</script></body></html>"#,
        );
        let dom = &page.dom;
        let hidden = dom
            .ids()
            .find(|&id| dom.element(id).attribute("id") == Some("hidden"))
            .unwrap();
        let text = PageText::of(dom, |id| id != hidden);
        let words: Vec<(&str, usize, Option<usize>)> = text
            .words
            .iter()
            .map(|word| (word.text.as_str(), word.leaf, word.link))
            .collect();
        assert_eq!(
            words,
            [
                ("hello", 0, None),
                ("big", 1, Some(0)),
                ("world", 2, Some(0)),
                ("no", 3, None),
                ("href", 3, None)
            ]
        );
        assert_eq!(text.links.len(), 1);
        assert_eq!(dom.element(text.links[0]).tag, "a");
        assert_eq!(dom.element(text.leaves[2].element).tag, "b");
    }
}
