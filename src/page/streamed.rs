//! React's streamed blocks put where the page's own script puts them.
//!
//! A React page rendered on the server as a stream (React 18+) sends a placeholder,
//! `<template id="B:n">`, where a part of the page goes, and that part later in the stream as
//! `<div hidden id="S:n">`, followed by a script (`$RC("B:n", "S:n")`) that moves the block's
//! children to the placeholder's place. Every reader's browser runs it as the page arrives;
//! pagelevel runs no scripts, so it makes the same move while building the DOM (issue 27,
//! item 4). Left alone, the text would be hidden at the end of `<body>`: missing from the
//! content, or, shown there, laid out below the footer.
//!
//! The fallback React shows until the block arrives (between the comments `<!--$?-->` and
//! `<!--/$-->` around the placeholder, usually an empty skeleton) stays: comments are not
//! kept in the tree.

use std::collections::HashMap;

use super::sink::{DOCUMENT, Handle, RawData, RawNode, detach, link_before};

/// Moves the children of every `<div hidden id="S:n">` reachable from the document to the
/// place of its `<template id="B:n">`, and removes both. A block whose placeholder is missing,
/// lies inside the block itself, or sits so deep that the moved block would reach beyond
/// `max_depth` levels is left as it is.
pub(crate) fn move_streamed_blocks(nodes: &mut [RawNode], max_depth: usize) {
    let (blocks, placeholders) = streamed_blocks_and_placeholders(nodes);
    for (key, block) in blocks {
        let Some(&placeholder) = placeholders.get(&key) else {
            continue;
        };
        if is_inside(nodes, placeholder, block)
            || depth(nodes, placeholder) + height(nodes, block) > max_depth
        {
            continue;
        }
        let mut child = nodes[block].first_child;
        while let Some(moved) = child {
            child = nodes[moved].next_sibling;
            link_before(nodes, placeholder, moved);
        }
        detach(nodes, placeholder);
        detach(nodes, block);
    }
}

/// The streamed blocks (`n`, handle) in document order and the placeholders by `n`.
fn streamed_blocks_and_placeholders(
    nodes: &[RawNode],
) -> (Vec<(String, Handle)>, HashMap<String, Handle>) {
    let mut blocks = Vec::new();
    let mut placeholders = HashMap::new();
    let mut stack = vec![DOCUMENT];
    while let Some(handle) = stack.pop() {
        if let RawData::Element { name, attrs, .. } = &nodes[handle].data {
            let attribute = |wanted: &str| {
                attrs
                    .iter()
                    .find(|attribute| &*attribute.name.local == wanted)
                    .map(|attribute| &*attribute.value)
            };
            let id = attribute("id").unwrap_or_default();
            match &*name.local {
                "div" if attribute("hidden").is_some() => {
                    if let Some(key) = id.strip_prefix("S:") {
                        blocks.push((key.to_string(), handle));
                    }
                }
                "template" => {
                    if let Some(key) = id.strip_prefix("B:") {
                        placeholders.entry(key.to_string()).or_insert(handle);
                    }
                }
                _ => {}
            }
        }
        // Children pushed last first, so they pop in document order.
        let mut children = Vec::new();
        let mut child = nodes[handle].first_child;
        while let Some(next) = child {
            children.push(next);
            child = nodes[next].next_sibling;
        }
        stack.extend(children.into_iter().rev());
    }
    (blocks, placeholders)
}

/// Whether `node` is `ancestor` or lies under it.
fn is_inside(nodes: &[RawNode], node: Handle, ancestor: Handle) -> bool {
    let mut current = Some(node);
    while let Some(handle) = current {
        if handle == ancestor {
            return true;
        }
        current = nodes[handle].parent;
    }
    false
}

/// Levels from the document to `node`.
fn depth(nodes: &[RawNode], node: Handle) -> usize {
    let mut levels = 0;
    let mut current = nodes[node].parent;
    while let Some(handle) = current {
        levels += 1;
        current = nodes[handle].parent;
    }
    levels
}

/// Levels of the deepest node under `node` below `node` itself.
fn height(nodes: &[RawNode], node: Handle) -> usize {
    let mut deepest = 0;
    let mut stack = vec![(node, 0)];
    while let Some((handle, level)) = stack.pop() {
        deepest = deepest.max(level);
        let mut child = nodes[handle].first_child;
        while let Some(next) = child {
            stack.push((next, level + 1));
            child = nodes[next].next_sibling;
        }
    }
    deepest
}
