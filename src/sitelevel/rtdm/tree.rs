//! The labelled ordered trees RTDM-TD maps: a page's elements and visible text nodes in preorder.
//!
//! **Labels.** An element's label is its tag name (attributes are not part of it, as in the DOM
//! trees of Reis et al. and Vieira et al.); a text node's label is its visible text with
//! whitespace collapsed (case kept). Text under `<script>`, `<style>`, `<noscript>`,
//! `<template>`, `<head>` and `<title>` and text that collapses to nothing are left out.
//! **Identical subtrees** are found by a hash of the label and the children's hashes in order
//! (the "sets of equivalent subtrees" of the paper's `ident`, computed in one bottom-up pass).

use std::hash::{DefaultHasher, Hash, Hasher};

use crate::page::{Child, Dom, NodeId, collapse_whitespace};

/// Where a tree node came from in its page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Origin {
    Element(NodeId),
    Text,
}

/// One node of a [`LabeledTree`].
#[derive(Debug, Clone)]
pub(crate) struct TreeNode {
    pub label: u64,
    /// Children, as indices into the tree, in order.
    pub children: Vec<u32>,
    /// Hash of the whole subtree: equal for identical subtrees.
    pub subtree_hash: u64,
    /// Nodes in the subtree, this one included.
    pub size: u32,
    pub origin: Origin,
}

/// A rooted ordered labelled tree, nodes in preorder (index 0 is the root).
#[derive(Debug, Clone)]
pub(crate) struct LabeledTree {
    pub nodes: Vec<TreeNode>,
}

impl LabeledTree {
    /// The tree of a page, rooted at `<html>`; empty for an empty DOM.
    pub(crate) fn of_page(dom: &Dom) -> LabeledTree {
        let mut tree = LabeledTree { nodes: Vec::new() };
        if dom.is_empty() {
            return tree;
        }
        // Entries: the DOM child and the tree index of its parent.
        let mut stack: Vec<(Child, Option<u32>)> = vec![(Child::Element(NodeId(0)), None)];
        while let Some((child, parent)) = stack.pop() {
            let (label, origin) = match child {
                Child::Element(id) => {
                    let element = dom.element(id);
                    let index = tree.nodes.len() as u32;
                    for grandchild in element.children.iter().rev() {
                        stack.push((*grandchild, Some(index)));
                    }
                    (hash_of(&("element", &element.tag)), Origin::Element(id))
                }
                Child::Text(index) => {
                    let text = &dom.texts[index as usize];
                    if !dom.is_visible_text_parent(text.parent) {
                        continue;
                    }
                    let text = collapse_whitespace(&text.text);
                    if text.is_empty() {
                        continue;
                    }
                    (hash_of(&("text", text)), Origin::Text)
                }
            };
            let index = tree.nodes.len() as u32;
            tree.nodes.push(TreeNode {
                label,
                children: Vec::new(),
                subtree_hash: 0,
                size: 1,
                origin,
            });
            if let Some(parent) = parent {
                tree.nodes[parent as usize].children.push(index);
            }
        }
        tree.compute_subtrees();
        tree
    }

    /// The tree made of the `kept` nodes (a set closed under taking parents, the root in it),
    /// in the same order.
    pub(crate) fn restricted_to(&self, kept: &[bool]) -> LabeledTree {
        let mut new_index = vec![u32::MAX; self.nodes.len()];
        let mut tree = LabeledTree { nodes: Vec::new() };
        for (index, node) in self.nodes.iter().enumerate() {
            if !kept[index] {
                continue;
            }
            new_index[index] = tree.nodes.len() as u32;
            tree.nodes.push(TreeNode {
                label: node.label,
                children: Vec::new(),
                subtree_hash: 0,
                size: 1,
                origin: node.origin,
            });
        }
        for (index, node) in self.nodes.iter().enumerate() {
            if !kept[index] {
                continue;
            }
            let children = node
                .children
                .iter()
                .filter(|&&child| kept[child as usize])
                .map(|&child| new_index[child as usize])
                .collect();
            tree.nodes[new_index[index] as usize].children = children;
        }
        tree.compute_subtrees();
        tree
    }

    /// Subtree hashes and sizes, bottom-up (children follow their parent in preorder).
    fn compute_subtrees(&mut self) {
        for index in (0..self.nodes.len()).rev() {
            let mut hasher = DefaultHasher::new();
            self.nodes[index].label.hash(&mut hasher);
            let mut size = 1;
            for &child in &self.nodes[index].children {
                let child = &self.nodes[child as usize];
                child.subtree_hash.hash(&mut hasher);
                size += child.size;
            }
            self.nodes[index].subtree_hash = hasher.finish();
            self.nodes[index].size = size;
        }
    }

    /// The node and its descendants (a contiguous preorder range).
    pub(crate) fn subtree(&self, index: u32) -> std::ops::Range<usize> {
        let start = index as usize;
        start..start + self.nodes[start].size as usize
    }
}

fn hash_of(value: &impl Hash) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}
