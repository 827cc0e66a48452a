//! Repeated blocks: the cards of a grid, the posts of a thread, the rows of a result list — a
//! run of siblings that share their tag and `class`. On a listing they are the content, on an
//! article they are a box of other stories, in a header they are menu items: repetition alone
//! says none of that, so the main-text model weighs it with the page's type, words and
//! templateness (issue 27: repetition inside one page is not template by itself).

use rustc_hash::FxHashMap;

use crate::page::{Dom, NodeId};
use crate::text::count_words;

/// How far above a paragraph's element a repeated block is looked for: a card's heading text
/// sits a few levels below the card (`li > a > div > h3`).
const LEVELS_UP: usize = 6;

/// The repeated block a paragraph sits in.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Repeat {
    /// Siblings sharing the block's tag and class, the block included (1: not repeated).
    pub siblings: usize,
    /// Words of the block.
    pub block_words: usize,
    /// Words of all the siblings sharing its tag and class.
    pub group_words: usize,
}

/// What a page's repeated blocks are, per element.
pub struct Repeats {
    /// Per element: how many of its siblings (itself included) share its tag and class.
    siblings: Vec<u32>,
    /// Per element: the words of its subtree.
    words: Vec<usize>,
    /// Per element: the words of its siblings sharing its tag and class, itself included.
    group_words: Vec<usize>,
}

impl Repeats {
    pub fn new(dom: &Dom) -> Repeats {
        let mut words = vec![0usize; dom.len()];
        for text in &dom.texts {
            if dom.is_visible_text_parent(text.parent) {
                words[text.parent.index()] += count_words(&text.text);
            }
        }
        // Children come after their parents: walking backwards passes the counts up.
        for id in dom.ids().rev() {
            if let Some(parent) = dom.element(id).parent {
                words[parent.index()] += words[id.index()];
            }
        }
        let mut siblings = vec![1u32; dom.len()];
        let mut group_words = words.clone();
        let mut groups: FxHashMap<(&str, &str), (u32, usize)> = FxHashMap::default();
        for id in dom.ids() {
            groups.clear();
            for child in dom.element_children(id) {
                let group = groups.entry(signature(dom, child)).or_default();
                group.0 += 1;
                group.1 += words[child.index()];
            }
            for child in dom.element_children(id) {
                let (count, total) = groups[&signature(dom, child)];
                siblings[child.index()] = count;
                group_words[child.index()] = total;
            }
        }
        Repeats {
            siblings,
            words,
            group_words,
        }
    }

    /// How many of `id`'s siblings (itself included) share its tag and class.
    pub fn siblings(&self, id: NodeId) -> usize {
        self.siblings[id.index()] as usize
    }

    /// The words of `id`'s subtree.
    pub fn words(&self, id: NodeId) -> usize {
        self.words[id.index()]
    }

    /// The words of `id` and of its siblings sharing its tag and class.
    pub fn group_words(&self, id: NodeId) -> usize {
        self.group_words[id.index()]
    }

    /// The largest repeated block at `id` or up to [`LEVELS_UP`] levels above it.
    pub fn around(&self, dom: &Dom, id: NodeId) -> Repeat {
        let mut found = Repeat {
            siblings: 1,
            block_words: self.words[id.index()],
            group_words: self.words[id.index()],
        };
        let mut current = Some(id);
        for _ in 0..=LEVELS_UP {
            let Some(at) = current else { break };
            let siblings = self.siblings[at.index()] as usize;
            if siblings > found.siblings {
                found = Repeat {
                    siblings,
                    block_words: self.words[at.index()],
                    group_words: self.group_words[at.index()],
                };
            }
            current = dom.element(at).parent;
        }
        found
    }
}

/// Whether two elements share their tag and class: blocks of one run.
pub fn share_tag_and_class(dom: &Dom, one: NodeId, other: NodeId) -> bool {
    signature(dom, one) == signature(dom, other)
}

fn signature(dom: &Dom, id: NodeId) -> (&str, &str) {
    let element = dom.element(id);
    (
        element.tag.as_str(),
        element.attribute("class").unwrap_or(""),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::{Page, ParseLimits};

    #[test]
    fn a_card_of_a_grid_knows_its_siblings_and_their_words() {
        let card =
            "<div class=card><a href=/p><h3>Blue kettle, steel</h3></a><span>$20</span></div>";
        let html = format!(
            "<main><h1>Kettles</h1><div class=grid>{}<div class=more>More</div></div></main>",
            card.repeat(4)
        );
        let page = Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).unwrap();
        let dom = &page.dom;
        let repeats = Repeats::new(dom);
        let heading = dom.ids().find(|&id| dom.element(id).tag == "h3").unwrap();
        let around = repeats.around(dom, heading);
        assert_eq!(around.siblings, 4);
        assert_eq!(around.block_words, 4);
        assert_eq!(around.group_words, 16);
        let headline = dom.first_with_tag("h1").unwrap();
        assert_eq!(repeats.around(dom, headline).siblings, 1);
    }
}
