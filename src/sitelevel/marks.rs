//! The result of site-level detection for one page: a template flag per element, and the page's
//! text split into template and content by those flags.
//!
//! **Text semantics (the same for every method).** A text node belongs to its parent element:
//! it is template text when the parent is marked. Only text a reader sees counts
//! ([`Dom::is_visible_text_parent`]). Text nodes are joined with one space and whitespace is
//! collapsed, so words of neighbouring nodes never run together (a `<li>Home</li><li>About</li>`
//! menu gives `Home About`).

use crate::page::{Dom, NodeId, collapse_whitespace};

/// Which elements of one page are template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateMarks {
    template: Vec<bool>,
}

impl TemplateMarks {
    /// No element is template.
    pub fn none(dom: &Dom) -> TemplateMarks {
        TemplateMarks {
            template: vec![false; dom.len()],
        }
    }

    /// Marks from a flag per element (indexed by [`NodeId`]).
    pub fn from_flags(template: Vec<bool>) -> TemplateMarks {
        TemplateMarks { template }
    }

    /// The flag per element, indexed by [`NodeId::index`].
    pub fn flags(&self) -> &[bool] {
        &self.template
    }

    /// True when the element is template. Ids outside the page are not template.
    pub fn is_template(&self, id: NodeId) -> bool {
        self.template.get(id.index()).copied().unwrap_or(false)
    }

    /// Marks or unmarks one element.
    pub fn set(&mut self, id: NodeId, template: bool) {
        if let Some(flag) = self.template.get_mut(id.index()) {
            *flag = template;
        }
    }

    /// Number of marked elements.
    pub fn template_count(&self) -> usize {
        self.template.iter().filter(|&&flag| flag).count()
    }

    /// The topmost wholly template elements: marked with every descendant marked, under a
    /// parent that is not. These are the template's blocks, listed instead of every marked
    /// element to keep reports short (an element marked for its own text alone, like a
    /// `<body>` the template frames, is not one); in document order.
    pub fn template_roots(&self, dom: &Dom) -> Vec<NodeId> {
        let mut whole = vec![false; dom.len()];
        for id in dom.ids().rev() {
            whole[id.index()] =
                self.is_template(id) && dom.element_children(id).all(|child| whole[child.index()]);
        }
        dom.ids()
            .filter(|&id| whole[id.index()])
            .filter(|&id| {
                dom.element(id)
                    .parent
                    .is_none_or(|parent| !whole[parent.index()])
            })
            .collect()
    }

    /// The page's visible template text (see the module doc).
    pub fn template_text(&self, dom: &Dom) -> String {
        self.text_where(dom, true)
    }

    /// The page's visible content (non-template) text.
    pub fn content_text(&self, dom: &Dom) -> String {
        self.text_where(dom, false)
    }

    fn text_where(&self, dom: &Dom, template: bool) -> String {
        let mut text = String::new();
        for node in &dom.texts {
            if self.is_template(node.parent) == template && dom.is_visible_text_parent(node.parent)
            {
                text.push_str(&node.text);
                text.push(' ');
            }
        }
        collapse_whitespace(&text)
    }
}

/// Totals over a site, for the per-site report: pages, elements, and how much is template.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SiteSummary {
    /// Pages added.
    pub pages: usize,
    /// Elements over those pages.
    pub elements: usize,
    /// Of those, elements marked template.
    pub template_elements: usize,
    /// Visible text characters (whitespace collapsed), all and template.
    pub text_chars: usize,
    /// Of those, characters of the marked elements' own text.
    pub template_text_chars: usize,
}

impl SiteSummary {
    /// Adds one page's counts.
    pub fn add_page(&mut self, dom: &Dom, marks: &TemplateMarks) {
        self.pages += 1;
        self.elements += dom.len();
        self.template_elements += marks.template_count();
        let template = marks.template_text(dom).chars().count();
        let content = marks.content_text(dom).chars().count();
        self.template_text_chars += template;
        self.text_chars += template + content;
    }

    /// Share of elements marked template (0 for an empty site).
    pub fn template_element_share(&self) -> f64 {
        share(self.template_elements, self.elements)
    }

    /// Share of visible text characters that are template (0 for a site without text).
    pub fn template_text_share(&self) -> f64 {
        share(self.template_text_chars, self.text_chars)
    }
}

fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}
