//! The section view (`--format sections`): one JSON line per section of a page — its text, its
//! Markdown, its templateness and verdict, and its role where the page or the extraction names
//! one — so a pipeline can keep or drop parts of a page by its own rule.

use schemars::JsonSchema;
use serde::Serialize;

use crate::features::vocabulary::{RoleGroup, roles_of};
use crate::markdown::{MarkdownOptions, write_markdown};
use crate::page::{Dom, NodeId};
use crate::pipeline::ScoredPage;
use crate::text::{paragraphs, subtree_words};

/// What a section is for, where something says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SectionRole {
    /// Most of its words are the page's main text.
    Main,
    /// Most of its words are user comments.
    Comments,
    /// Menus, breadcrumbs, pagination (`<nav>`, `role="navigation"`, `class="menu"` …).
    Navigation,
    /// The page banner (`<header>`, `role="banner"`, `class="masthead"` …).
    Header,
    /// Footer and legal notes (`<footer>`, `role="contentinfo"` …).
    Footer,
    /// Side columns and widgets (`<aside>`, `role="complementary"`, `class="sidebar"` …).
    Sidebar,
    /// Search forms (`role="search"`).
    Search,
    /// Sharing and follow buttons.
    Sharing,
    /// Links to other pages' content (related, popular, teasers).
    Related,
    /// Advertisements and sponsored blocks.
    Advertising,
}

/// One line of `--format sections`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SectionLine {
    /// The page's path or URL, as given.
    pub page: String,
    /// The id of the section's root element (document order; `<html>` is 0).
    #[schemars(with = "u32")]
    pub section: NodeId,
    /// The id of the root element of the region holding the section: one of the page's few
    /// large blocks (header, content, a side column, footer); sections of one region share it.
    #[schemars(with = "u32")]
    pub region: NodeId,
    /// The root element's tag.
    pub tag: String,
    /// The root element's absolute XPath.
    pub xpath: String,
    /// The section's smoothed templateness, in [0, 1].
    pub templateness: f64,
    /// True when the section is template on this page: templateness ≥ the page's threshold,
    /// unless the main text overrules it (its elements content, the rest of an article page
    /// template).
    pub template: bool,
    /// What the section is for, where the extraction or the page's markup says; `null` else.
    pub role: Option<SectionRole>,
    /// Visible text of the section (not of sections nested in it), paragraphs separated by a
    /// blank line.
    pub text: String,
    /// The same text as Markdown.
    pub markdown: String,
}

/// A share of a section's words above which the main text (or comments) names its role.
const ROLE_WORD_SHARE: f64 = 0.5;

/// An element holding this share of the page's words or more names no role by its markup: a
/// `<body class="feature-footer-v2">` is not a footer (the rule of `extract`'s regions).
const MAX_NAMING_SHARE: f64 = 0.4;

/// The section lines of a scored page, in document order; sections without visible text are
/// left out.
pub fn section_lines(
    page_name: &str,
    scored: &ScoredPage,
    options: MarkdownOptions,
) -> Vec<SectionLine> {
    let page = &scored.laid_out.page;
    let dom = &page.dom;
    let segmented = &scored.segmented;
    let section_of = |parent: NodeId| segmented.nodes[parent.index()].section;
    let position = |section: NodeId| {
        segmented
            .sections
            .binary_search_by_key(&section, |candidate| candidate.id)
            .ok()
    };
    // Each section's visible text nodes, in document order.
    let mut text_nodes: Vec<Vec<u32>> = vec![Vec::new(); segmented.sections.len()];
    for (index, text) in dom.texts.iter().enumerate() {
        if segmented.text_visible[text.parent.index()]
            && let Some(at) = position(section_of(text.parent))
        {
            text_nodes[at].push(index as u32);
        }
    }
    let mut texts: Vec<Vec<String>> = vec![Vec::new(); segmented.sections.len()];
    for paragraph in paragraphs(dom, &segmented.text_visible) {
        // The sections this paragraph's pieces belong to: usually one.
        let mut sections_here: Vec<NodeId> = Vec::new();
        for &(parent, _) in &paragraph.pieces {
            let section = section_of(parent);
            if !sections_here.contains(&section) {
                sections_here.push(section);
            }
        }
        for section in sections_here {
            let text = paragraph.text_where(|parent| section_of(parent) == section);
            if let (Some(at), false) = (position(section), text.is_empty()) {
                texts[at].push(text);
            }
        }
    }
    let base = page.base_url();
    let extracted = &scored.extracted;
    let words = subtree_words(dom, |parent| segmented.text_visible[parent.index()]);
    let page_words = words.first().copied().unwrap_or(0);
    segmented
        .sections
        .iter()
        .zip(text_nodes)
        .zip(texts)
        .filter(|(_, texts)| !texts.is_empty())
        .map(|((section, nodes), texts)| {
            let share_of = |chosen: &[u32]| {
                let words =
                    |index: &u32| crate::text::count_words(&dom.texts[*index as usize].text);
                let all: usize = nodes.iter().map(words).sum();
                let kept: usize = nodes
                    .iter()
                    .filter(|index| chosen.binary_search(index).is_ok())
                    .map(words)
                    .sum();
                kept as f64 / all.max(1) as f64
            };
            let role = if share_of(&extracted.main_text_nodes) > ROLE_WORD_SHARE {
                Some(SectionRole::Main)
            } else if share_of(&extracted.comment_text_nodes) > ROLE_WORD_SHARE {
                Some(SectionRole::Comments)
            } else {
                named_role(dom, section.id, |id| {
                    (words[id.index()] as f64) < MAX_NAMING_SHARE * page_words as f64
                })
            };
            SectionLine {
                page: page_name.to_string(),
                section: section.id,
                region: segmented.nodes[section.id.index()].region,
                tag: dom.element(section.id).tag.clone(),
                xpath: dom.xpath(section.id),
                templateness: section.score,
                template: section.template,
                role,
                text: texts.join("\n\n"),
                markdown: write_markdown(dom, &nodes, &[], base.as_ref(), options),
            }
        })
        .collect()
}

/// The role the page's markup names for an element or its nearest named ancestor (ARIA
/// landmark roles, sectioning tags, then `class`/`id` tokens), among those `may_name` allows.
fn named_role(dom: &Dom, id: NodeId, may_name: impl Fn(NodeId) -> bool) -> Option<SectionRole> {
    let mut current = Some(id);
    while let Some(id) = current {
        let element = dom.element(id);
        if may_name(id)
            && let Some(role) = own_role(element)
        {
            return Some(role);
        }
        current = element.parent;
    }
    None
}

fn own_role(element: &crate::page::Element) -> Option<SectionRole> {
    let by_aria = match element.attribute("role").map(str::trim) {
        Some("navigation") => Some(SectionRole::Navigation),
        Some("banner") => Some(SectionRole::Header),
        Some("contentinfo") => Some(SectionRole::Footer),
        Some("complementary") => Some(SectionRole::Sidebar),
        Some("search") => Some(SectionRole::Search),
        _ => None,
    };
    let by_tag = || match element.tag.as_str() {
        "nav" | "menu" => Some(SectionRole::Navigation),
        "header" => Some(SectionRole::Header),
        "footer" => Some(SectionRole::Footer),
        "aside" => Some(SectionRole::Sidebar),
        _ => None,
    };
    let by_name = || {
        roles_of(element.attribute("class"), element.attribute("id"))
            .iter()
            .find_map(|role| match role {
                RoleGroup::Navigation => Some(SectionRole::Navigation),
                RoleGroup::Header => Some(SectionRole::Header),
                RoleGroup::Footer => Some(SectionRole::Footer),
                RoleGroup::Sidebar => Some(SectionRole::Sidebar),
                RoleGroup::Comment => Some(SectionRole::Comments),
                RoleGroup::Share => Some(SectionRole::Sharing),
                RoleGroup::Related => Some(SectionRole::Related),
                RoleGroup::Advertising => Some(SectionRole::Advertising),
                RoleGroup::Content => None,
            })
    };
    by_aria.or_else(by_tag).or_else(by_name)
}
