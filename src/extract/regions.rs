//! Which kind of region each element sits in, by the names page authors give regions: `class`
//! and `id` tokens ([`roles_in_block`](crate::features::vocabulary::roles_in_block)), HTML5
//! sectioning tags and ARIA landmark roles — the strong signals Readability and trafilatura rely
//! on.
//!
//! A name counts only on an element holding less than [`MAX_REGION_SHARE`] of the page's text:
//! wrappers of whole pages carry names like `comments-open` or `has-sidebar` (WordPress body
//! classes) that say nothing of the text inside them.

use crate::features::vocabulary::{RoleGroup, names_a_builder_panel, role_tokens, roles_of_tokens};

use super::named_blocks::{tokens_name_a_notice, tokens_name_a_tooltip};
use crate::page::{Dom, Element, NodeId};

/// The largest share of the page's words an element may hold for its name to count.
pub(super) const MAX_REGION_SHARE: f64 = 0.4;

/// The kind of region an element sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Region {
    /// Nothing names it otherwise: article text can be here.
    Plain,
    /// Navigation, header, footer, sidebar, sharing, related links or advertising.
    Boilerplate,
    /// User comments.
    Comment,
}

/// The region of every element: the innermost named region around it (itself included), or
/// [`Region::Plain`].
pub fn regions(dom: &Dom) -> Vec<Region> {
    named_regions(dom).region
}

/// Per element: its region, and whether it is, or sits inside, a cookie or consent notice or a
/// tooltip — what a page's names say of its parts, from one pass over them.
pub struct NamedRegions {
    /// [`regions`].
    pub region: Vec<Region>,
    /// In a cookie or consent notice ([`names_a_notice`](super::named_blocks::names_a_notice);
    /// a boilerplate region too).
    pub in_notice: Vec<bool>,
    /// In a tooltip or popover
    /// ([`tokens_name_a_tooltip`](super::named_blocks::tokens_name_a_tooltip)): shown on hover
    /// or click, not where it is laid out.
    pub in_tooltip: Vec<bool>,
}

/// [`NamedRegions`] of every element; a name counts only on an element holding less than
/// [`MAX_REGION_SHARE`] of the page's words.
pub fn named_regions(dom: &Dom) -> NamedRegions {
    let words = subtree_words(dom);
    let page_words = words.first().copied().unwrap_or(0).max(1) as f64;
    let mut region = vec![Region::Plain; dom.len()];
    let mut in_article = vec![false; dom.len()];
    let mut in_code = vec![false; dom.len()];
    let mut in_notice = vec![false; dom.len()];
    let mut in_tooltip = vec![false; dom.len()];
    let mut in_builder_panel = vec![false; dom.len()];
    let mut tokens: Vec<&str> = Vec::new();
    for id in dom.ids() {
        let element = dom.element(id);
        let parent = element.parent.map(NodeId::index);
        let inherited = parent.map_or(Region::Plain, |parent| region[parent]);
        in_article[id.index()] = matches!(element.tag.as_str(), "article" | "main")
            || parent.is_some_and(|parent| in_article[parent]);
        in_code[id.index()] = matches!(element.tag.as_str(), "pre" | "code")
            || parent.is_some_and(|parent| in_code[parent]);
        in_builder_panel[id.index()] = names_a_builder_panel(element.attribute("class"))
            || parent.is_some_and(|parent| in_builder_panel[parent]);
        let small_enough = (words[id.index()] as f64) < MAX_REGION_SHARE * page_words;
        // Inside code, class names are a highlighter's tokens (`hljs-comment`, Prism's
        // `token comment`), not regions: a post's code is not its readers' comments.
        let (notice, tooltip, named) = if in_code[id.index()] {
            (false, false, None)
        } else {
            // Each name is read once, for the notice and for the roles.
            tokens.clear();
            tokens.extend(element.attribute("class").into_iter().flat_map(role_tokens));
            let class_tokens = tokens.len();
            tokens.extend(element.attribute("id").into_iter().flat_map(role_tokens));
            let (class_part, id_part) = tokens.split_at(class_tokens);
            let tooltip = tokens_name_a_tooltip(&element.tag, &tokens);
            if tokens_name_a_notice(class_part.iter().copied())
                || tokens_name_a_notice(id_part.iter().copied())
            {
                (true, tooltip, Some(Region::Boilerplate))
            } else {
                let roles = roles_of_tokens(tokens.iter().copied(), in_builder_panel[id.index()]);
                (
                    false,
                    tooltip,
                    named_region(element, in_article[id.index()], &roles),
                )
            }
        };
        in_tooltip[id.index()] =
            parent.is_some_and(|parent| in_tooltip[parent]) || (tooltip && small_enough);
        in_notice[id.index()] =
            parent.is_some_and(|parent| in_notice[parent]) || (notice && small_enough);
        region[id.index()] = match named {
            Some(named) if small_enough => named,
            _ => inherited,
        };
    }
    NamedRegions {
        region,
        in_notice,
        in_tooltip,
    }
}

/// The region an element's own tag, landmark role or `class`/`id` (its `roles`) names, if any.
fn named_region(element: &Element, in_article: bool, roles: &[RoleGroup]) -> Option<Region> {
    match element.attribute("role").map(str::trim) {
        Some("navigation" | "banner" | "contentinfo" | "complementary" | "search") => {
            return Some(Region::Boilerplate);
        }
        Some("main" | "article") => return Some(Region::Plain),
        _ => {}
    }
    match element.tag.as_str() {
        "nav" | "footer" | "aside" | "menu" => return Some(Region::Boilerplate),
        "header" if !in_article => return Some(Region::Boilerplate),
        _ => {}
    }
    if roles.contains(&RoleGroup::Comment) {
        return Some(Region::Comment);
    }
    let boilerplate = roles.iter().any(|role| match role {
        RoleGroup::Navigation
        | RoleGroup::Footer
        | RoleGroup::Sidebar
        | RoleGroup::Share
        | RoleGroup::Related
        | RoleGroup::Advertising => true,
        // "article-header" heads the article; "site-header" is the masthead.
        RoleGroup::Header => !roles.contains(&RoleGroup::Content),
        RoleGroup::Comment | RoleGroup::Content => false,
    });
    boilerplate.then_some(Region::Boilerplate)
}

/// Words of text (outside code and styling) in each element's subtree.
pub(super) fn subtree_words(dom: &Dom) -> Vec<usize> {
    let mut words = vec![0usize; dom.len()];
    for text in &dom.texts {
        if dom.is_visible_text_parent(text.parent) {
            words[text.parent.index()] += text.text.split_whitespace().count();
        }
    }
    for id in dom.ids().rev() {
        if let Some(parent) = dom.element(id).parent {
            words[parent.index()] += words[id.index()];
        }
    }
    words
}
