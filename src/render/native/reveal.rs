//! What a reader's browser shows within a second that a layout without scripts hides.
//!
//! Some pages hide their text until a script runs: an anti-flicker or anti-clickjacking style on
//! `<html>` or `<body>` (`html { display: none }`, `body { visibility: hidden !important }`,
//! AMP's boilerplate), server-rendered content kept in `<noscript>` (Discourse threads),
//! React's streamed blocks (`<div hidden id="S:0">`) whose placeholder is missing (the parse
//! moves the others into place: `page/streamed.rs`), and
//! containers faded in from `visibility: hidden` once web components are defined. The text is
//! in the HTML, and a reader sees it; laid out as served, such a page shows next to none of it
//! and comes out empty (issue 21; `training/reports/never-empty/`).
//!
//! Un-hiding everything on every page would show what is hidden on purpose (menus, modals,
//! cookie banners). So the rules are narrow: a page is laid out again only when its first layout
//! shows under a fifth of its text (and it has text: [`MIN_WORDS`]), and the second layout is
//! kept only when it shows more. What is revealed is then named precisely ([`Reveal`]); the one
//! broad rule, `visibility: hidden` lifted everywhere, applies only where one hidden element
//! holds most of the page's words (a fading wrapper, not a set of modals). The page's main
//! landmark (`<main>`, `role=main`) left `visibility: hidden` is revealed whatever the page
//! shows besides: no page hides its main content on purpose, it is a loading state that the
//! stylesheet a script loads lifts (Sweetwater's critical CSS: `.site-footer,main{visibility:
//! hidden}`).

use crate::layout::Layout;
use crate::page::{Dom, NodeId};

/// Words of text a page needs before its layout is judged: fewer is no page to reveal.
pub(super) const MIN_WORDS: usize = 50;

/// A layout showing under `1 / SHOWN_SHARE_DIVISOR` of the page's words hides the page.
const SHOWN_SHARE_DIVISOR: usize = 5;

/// What a second layout shows, as a user-agent sheet of `!important` rules (they win over every
/// author rule, `!important` ones included).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reveal {
    /// What scripts show on every page of the kind: the root and body (anti-flicker and
    /// anti-clickjacking styles), `<noscript>` (the page as served to readers without
    /// scripts) and React's streamed blocks, `hidden` until a script moves them into place.
    Scripted,
    /// [`Reveal::Scripted`], and nothing left `visibility: hidden` (a wrapper faded in once
    /// the page's web components are defined).
    ScriptedAndFaded,
    /// [`Reveal::Scripted`], and the main landmark visible (what it holds inherits that, unless
    /// it hides itself).
    ScriptedAndMain,
}

impl Reveal {
    /// The user-agent sheet of this reveal.
    pub(super) fn css(self) -> String {
        match self {
            Reveal::Scripted => SCRIPTED_CSS.to_string(),
            Reveal::ScriptedAndFaded => format!("{SCRIPTED_CSS}{FADED_CSS}"),
            Reveal::ScriptedAndMain => format!("{SCRIPTED_CSS}{MAIN_CSS}"),
        }
    }
}

const SCRIPTED_CSS: &str = "\
html, body { display: block !important; visibility: visible !important; }\n\
noscript, [hidden][id^=\"S:\"] { display: block !important; }\n";

const FADED_CSS: &str = "* { visibility: visible !important; }\n";

const MAIN_CSS: &str = "main, [role=\"main\"] { visibility: visible !important; }\n";

/// Share of the page's words one `visibility: hidden` element must hold for everything to be
/// faded in.
const FADED_SHARE: f64 = 0.5;

/// What to reveal on a page whose `layout` hides its text ([`hides_the_text`]); `None` when it
/// shows it.
pub(super) fn what_to_reveal(dom: &Dom, layout: &Layout) -> Option<Reveal> {
    let hides = hides_the_text(dom, layout);
    if layout.unpainted.is_empty() {
        // Most pages: nothing is left `visibility: hidden`, so no main landmark and no fading
        // wrapper is; the elements' words need no counting.
        return hides.then_some(Reveal::Scripted);
    }
    let unpainted = |id: NodeId| layout.unpainted.binary_search(&id).is_ok();
    // The outermost unpainted elements: where `visibility: hidden` was set.
    let hidden_here = |id: NodeId| unpainted(id) && !dom.element(id).parent.is_some_and(unpainted);
    let subtree_words = subtree_words(dom);
    let main_hidden = dom.ids().any(|id| {
        let element = dom.element(id);
        let main = element.tag == "main" || element.attribute("role") == Some("main");
        main && hidden_here(id) && subtree_words[id.index()] >= MIN_WORDS
    });
    if !hides && !main_hidden {
        return None;
    }
    let (words, _) = words_and_shown_words(dom, layout);
    let faded = hides
        && dom.ids().any(|id| {
            hidden_here(id) && subtree_words[id.index()] as f64 >= FADED_SHARE * words as f64
        });
    Some(if faded {
        Reveal::ScriptedAndFaded
    } else if main_hidden {
        Reveal::ScriptedAndMain
    } else {
        Reveal::Scripted
    })
}

/// Elements whose content no layout shows as page text (fallbacks, inert markup, the head).
const NEVER_TEXT: &[&str] = &["head", "template", "iframe", "object", "embed"];

/// Whether `layout` shows under a fifth of the words of `dom`'s text (counting `<noscript>` and
/// hidden elements), on a page of at least [`MIN_WORDS`] words.
fn hides_the_text(dom: &Dom, layout: &Layout) -> bool {
    let (words, shown) = words_and_shown_words(dom, layout);
    words >= MIN_WORDS && shown * SHOWN_SHARE_DIVISOR < words
}

/// The page's words, and how many of them `layout` shows: in an element with a painted box
/// larger than a sliver.
pub(super) fn words_and_shown_words(dom: &Dom, layout: &Layout) -> (usize, usize) {
    let mut excluded = vec![false; dom.len()];
    for id in dom.ids() {
        let element = dom.element(id);
        excluded[id.index()] = element
            .parent
            .is_some_and(|parent| excluded[parent.index()])
            || NEVER_TEXT.contains(&element.tag.as_str());
    }
    let shown_element = |id: NodeId| {
        layout
            .boxes
            .get(id.index())
            .copied()
            .flatten()
            .is_some_and(|b| b.width > 1.0 && b.height > 1.0)
            && layout.unpainted.binary_search(&id).is_err()
    };
    let (mut words, mut shown) = (0, 0);
    for text in &dom.texts {
        if excluded[text.parent.index()] || !dom.is_visible_text_parent(text.parent) {
            continue;
        }
        let count = text.text.split_whitespace().count();
        words += count;
        if shown_element(text.parent) {
            shown += count;
        }
    }
    (words, shown)
}

/// Words of the text in each element's subtree (as [`words_and_shown_words`] counts them).
fn subtree_words(dom: &Dom) -> Vec<usize> {
    let mut own = vec![0; dom.len()];
    for text in &dom.texts {
        if dom.is_visible_text_parent(text.parent) {
            own[text.parent.index()] += text.text.split_whitespace().count();
        }
    }
    // Descendants follow their ancestor in document order: one reverse pass adds them up.
    let mut total = own;
    for id in dom.ids().collect::<Vec<_>>().into_iter().rev() {
        if let Some(parent) = dom.element(id).parent {
            total[parent.index()] += total[id.index()];
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{LayoutBox, VIEWPORT};
    use crate::page::{Page, ParseLimits};

    fn page(html: &str) -> Page {
        Page::parse(html.as_bytes(), None, None, &ParseLimits::default()).expect("a page")
    }

    fn layout_boxing(page: &Page, boxed: impl Fn(&str) -> bool) -> Layout {
        let boxes = page
            .dom
            .ids()
            .map(|id| {
                boxed(&page.dom.element(id).tag).then_some(LayoutBox {
                    x: 0.0,
                    y: 0.0,
                    width: 100.0,
                    height: 20.0,
                })
            })
            .collect();
        Layout {
            boxes,
            unpainted: Vec::new(),
            page_width: 1280.0,
            page_height: 1024.0,
            viewport: VIEWPORT,
        }
    }

    fn sentence(words: usize) -> String {
        vec!["word"; words].join(" ")
    }

    #[test]
    fn a_page_showing_only_its_header_while_noscript_holds_the_posts_hides_its_text() {
        let page = page(&format!(
            "<body><header>Forum</header><noscript><p>{}</p></noscript></body>",
            sentence(200)
        ));
        let layout = layout_boxing(&page, |tag| matches!(tag, "html" | "body" | "header"));
        assert!(hides_the_text(&page.dom, &layout));
    }

    #[test]
    fn a_page_whose_hidden_menu_is_smaller_than_its_shown_article_does_not() {
        let page = page(&format!(
            "<body><nav hidden><a>{}</a></nav><article><p>{}</p></article></body>",
            sentence(300),
            sentence(100)
        ));
        let layout = layout_boxing(&page, |tag| tag != "nav" && tag != "a");
        assert!(!hides_the_text(&page.dom, &layout));
    }

    #[test]
    fn only_a_hidden_wrapper_of_most_of_the_text_is_faded_in_not_hidden_modals() {
        let wrapped = page(&format!(
            "<body><header>Site</header><main><p>{}</p></main></body>",
            sentence(200)
        ));
        let mut layout = layout_boxing(&wrapped, |_| true);
        layout.unpainted = wrapped.dom.ids().filter(|&id| id.index() >= 4).collect();
        assert_eq!(
            what_to_reveal(&wrapped.dom, &layout),
            Some(Reveal::ScriptedAndFaded)
        );
        let modals = page(&format!(
            "<body><header>Site</header><div>{0}</div><div>{0}</div><div>{0}</div></body>",
            sentence(60)
        ));
        let mut layout = layout_boxing(&modals, |_| true);
        layout.unpainted = modals.dom.ids().filter(|&id| id.index() >= 4).collect();
        assert_eq!(what_to_reveal(&modals.dom, &layout), Some(Reveal::Scripted));
    }

    #[test]
    fn a_main_landmark_left_hidden_is_revealed_however_much_else_shows() {
        let html = |main_words: usize| {
            format!(
                "<body><header>{}</header><main><p>{}</p></main></body>",
                sentence(400),
                sentence(main_words)
            )
        };
        let shop = page(&html(100));
        let main = shop
            .dom
            .ids()
            .find(|&id| shop.dom.element(id).tag == "main")
            .expect("a main element");
        let mut layout = layout_boxing(&shop, |_| true);
        layout.unpainted = shop.dom.ids().filter(|&id| id >= main).collect();
        assert!(!hides_the_text(&shop.dom, &layout));
        assert_eq!(
            what_to_reveal(&shop.dom, &layout),
            Some(Reveal::ScriptedAndMain)
        );
        // A shown main, or a hidden one with next to no text, is left as it is.
        layout.unpainted.clear();
        assert_eq!(what_to_reveal(&shop.dom, &layout), None);
        let empty_main = page(&html(3));
        let mut layout = layout_boxing(&empty_main, |_| true);
        layout.unpainted = empty_main.dom.ids().filter(|&id| id >= main).collect();
        assert_eq!(what_to_reveal(&empty_main.dom, &layout), None);
    }

    #[test]
    fn a_short_page_is_never_revealed() {
        let page = page(&format!(
            "<body><p hidden>{}</p></body>",
            sentence(MIN_WORDS - 1)
        ));
        let layout = layout_boxing(&page, |tag| tag != "p");
        assert!(!hides_the_text(&page.dom, &layout));
    }

    #[test]
    fn unpainted_text_is_not_shown() {
        let page = page(&format!("<body><p>{}</p></body>", sentence(100)));
        let mut layout = layout_boxing(&page, |_| true);
        layout.unpainted = page.dom.ids().collect();
        assert_eq!(words_and_shown_words(&page.dom, &layout), (100, 0));
        assert!(hides_the_text(&page.dom, &layout));
    }
}
