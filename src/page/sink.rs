//! The html5ever tree sink: the parser builds into a flat vector of linked nodes (indices, no
//! reference counting), which `dom` then flattens into the document-order arena. The sink also
//! keeps the parse budget: it counts elements and tracks nesting depth so a hostile page can be
//! stopped between input chunks instead of driving the tree builder's quadratic scope checks.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use html5ever::interface::ElemName;
use html5ever::interface::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::{Attribute, LocalName, Namespace, QualName};

pub(crate) type Handle = usize;

/// An element's name handed to the tree builder by value: the nodes live in a `RefCell`, so a
/// borrowed `&QualName` cannot outlive the call. Atoms are reference-counted, cloning is cheap.
#[derive(Debug)]
pub(crate) struct ElementName {
    namespace: Namespace,
    local: LocalName,
}

impl ElemName for ElementName {
    fn ns(&self) -> &Namespace {
        &self.namespace
    }

    fn local_name(&self) -> &LocalName {
        &self.local
    }
}

pub(crate) const DOCUMENT: Handle = 0;

pub(crate) enum RawData {
    Document,
    Element {
        name: QualName,
        attrs: Vec<Attribute>,
        template_contents: Option<Handle>,
        mathml_annotation_xml_integration_point: bool,
    },
    Text(StrTendril),
    /// Comments, doctypes and processing instructions: kept in the tree so sibling links stay
    /// right, dropped when the arena is built.
    Other,
}

pub(crate) struct RawNode {
    pub parent: Option<Handle>,
    pub first_child: Option<Handle>,
    last_child: Option<Handle>,
    previous_sibling: Option<Handle>,
    pub next_sibling: Option<Handle>,
    depth: u32,
    pub data: RawData,
}

/// Size of what has been built so far, read by the parse loop between chunks.
#[derive(Default)]
pub(crate) struct Budget {
    pub elements: Cell<usize>,
    pub max_depth: Cell<u32>,
}

pub(crate) struct ArenaSink<'budget> {
    pub nodes: RefCell<Vec<RawNode>>,
    budget: &'budget Budget,
}

impl<'budget> ArenaSink<'budget> {
    pub fn new(budget: &'budget Budget) -> Self {
        let document = RawNode {
            parent: None,
            first_child: None,
            last_child: None,
            previous_sibling: None,
            next_sibling: None,
            depth: 0,
            data: RawData::Document,
        };
        ArenaSink {
            nodes: RefCell::new(vec![document]),
            budget,
        }
    }

    fn new_node(&self, data: RawData) -> Handle {
        let mut nodes = self.nodes.borrow_mut();
        nodes.push(RawNode {
            parent: None,
            first_child: None,
            last_child: None,
            previous_sibling: None,
            next_sibling: None,
            depth: 0,
            data,
        });
        nodes.len() - 1
    }

    fn note_depth(&self, nodes: &mut [RawNode], child: Handle, parent: Handle) {
        let depth = nodes[parent].depth + 1;
        nodes[child].depth = depth;
        if depth > self.budget.max_depth.get() {
            self.budget.max_depth.set(depth);
        }
    }

    fn append_child(&self, parent: Handle, child: Handle) {
        let mut nodes = self.nodes.borrow_mut();
        detach(&mut nodes, child);
        nodes[child].parent = Some(parent);
        match nodes[parent].last_child {
            Some(last) => {
                nodes[child].previous_sibling = Some(last);
                nodes[last].next_sibling = Some(child);
            }
            None => nodes[parent].first_child = Some(child),
        }
        nodes[parent].last_child = Some(child);
        self.note_depth(&mut nodes, child, parent);
    }

    fn insert_before(&self, sibling: Handle, new_node: Handle) {
        let mut nodes = self.nodes.borrow_mut();
        link_before(&mut nodes, sibling, new_node);
        if let Some(parent) = nodes[sibling].parent {
            self.note_depth(&mut nodes, new_node, parent);
        }
    }

    /// Appends text to an adjacent text node when there is one, as the DOM merges them.
    fn merge_text(&self, neighbour: Option<Handle>, text: &StrTendril) -> bool {
        let mut nodes = self.nodes.borrow_mut();
        if let Some(RawData::Text(existing)) = neighbour.map(|handle| &mut nodes[handle].data) {
            existing.push_tendril(text);
            return true;
        }
        false
    }
}

/// Takes `node` out of its parent's children (it keeps its own).
pub(crate) fn detach(nodes: &mut [RawNode], node: Handle) {
    let parent = nodes[node].parent.take();
    let previous = nodes[node].previous_sibling.take();
    let next = nodes[node].next_sibling.take();
    match next {
        Some(next) => nodes[next].previous_sibling = previous,
        None => {
            if let Some(parent) = parent {
                nodes[parent].last_child = previous;
            }
        }
    }
    match previous {
        Some(previous) => nodes[previous].next_sibling = next,
        None => {
            if let Some(parent) = parent {
                nodes[parent].first_child = next;
            }
        }
    }
}

/// Moves `new_node` (with its children) to just before `sibling`.
pub(crate) fn link_before(nodes: &mut [RawNode], sibling: Handle, new_node: Handle) {
    detach(nodes, new_node);
    let parent = nodes[sibling].parent;
    nodes[new_node].parent = parent;
    nodes[new_node].next_sibling = Some(sibling);
    match nodes[sibling].previous_sibling {
        Some(previous) => {
            nodes[new_node].previous_sibling = Some(previous);
            nodes[previous].next_sibling = Some(new_node);
        }
        None => {
            if let Some(parent) = parent {
                nodes[parent].first_child = Some(new_node);
            }
        }
    }
    nodes[sibling].previous_sibling = Some(new_node);
}

impl TreeSink for ArenaSink<'_> {
    type Handle = Handle;
    type Output = Vec<RawNode>;
    type ElemName<'a>
        = ElementName
    where
        Self: 'a;

    fn finish(self) -> Vec<RawNode> {
        self.nodes.into_inner()
    }

    fn parse_error(&self, _message: Cow<'static, str>) {}

    fn get_document(&self) -> Handle {
        DOCUMENT
    }

    fn elem_name(&self, target: &Handle) -> ElementName {
        match &self.nodes.borrow()[*target].data {
            RawData::Element { name, .. } => ElementName {
                namespace: name.ns.clone(),
                local: name.local.clone(),
            },
            // The tree builder only asks for names of elements it created.
            _ => ElementName {
                namespace: html5ever::ns!(html),
                local: html5ever::local_name!(""),
            },
        }
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> Handle {
        let template_contents = flags.template.then(|| self.new_node(RawData::Document));
        self.budget.elements.set(self.budget.elements.get() + 1);
        self.new_node(RawData::Element {
            name,
            attrs,
            template_contents,
            mathml_annotation_xml_integration_point: flags.mathml_annotation_xml_integration_point,
        })
    }

    fn create_comment(&self, _text: StrTendril) -> Handle {
        self.new_node(RawData::Other)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Handle {
        self.new_node(RawData::Other)
    }

    fn append(&self, parent: &Handle, child: NodeOrText<Handle>) {
        match child {
            NodeOrText::AppendNode(node) => self.append_child(*parent, node),
            NodeOrText::AppendText(text) => {
                let last = self.nodes.borrow()[*parent].last_child;
                if !self.merge_text(last, &text) {
                    let node = self.new_node(RawData::Text(text));
                    self.append_child(*parent, node);
                }
            }
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &Handle,
        previous_element: &Handle,
        child: NodeOrText<Handle>,
    ) {
        if self.nodes.borrow()[*element].parent.is_some() {
            self.append_before_sibling(element, child);
        } else {
            self.append(previous_element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {
        let node = self.new_node(RawData::Other);
        self.append_child(DOCUMENT, node);
    }

    fn get_template_contents(&self, target: &Handle) -> Handle {
        match &self.nodes.borrow()[*target].data {
            RawData::Element {
                template_contents: Some(contents),
                ..
            } => *contents,
            _ => *target,
        }
    }

    fn same_node(&self, x: &Handle, y: &Handle) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &Handle, child: NodeOrText<Handle>) {
        match child {
            NodeOrText::AppendNode(node) => self.insert_before(*sibling, node),
            NodeOrText::AppendText(text) => {
                let previous = self.nodes.borrow()[*sibling].previous_sibling;
                if !self.merge_text(previous, &text) {
                    let node = self.new_node(RawData::Text(text));
                    self.insert_before(*sibling, node);
                }
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &Handle, new_attrs: Vec<Attribute>) {
        if let RawData::Element { attrs, .. } = &mut self.nodes.borrow_mut()[*target].data {
            for attr in new_attrs {
                if !attrs.iter().any(|existing| existing.name == attr.name) {
                    attrs.push(attr);
                }
            }
        }
    }

    fn remove_from_parent(&self, target: &Handle) {
        detach(&mut self.nodes.borrow_mut(), *target);
    }

    fn reparent_children(&self, node: &Handle, new_parent: &Handle) {
        let mut next = self.nodes.borrow()[*node].first_child;
        while let Some(child) = next {
            next = self.nodes.borrow()[child].next_sibling;
            self.append_child(*new_parent, child);
        }
    }

    fn is_mathml_annotation_xml_integration_point(&self, handle: &Handle) -> bool {
        matches!(
            self.nodes.borrow()[*handle].data,
            RawData::Element {
                mathml_annotation_xml_integration_point: true,
                ..
            }
        )
    }
}
