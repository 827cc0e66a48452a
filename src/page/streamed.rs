//! Streamed blocks put where the page's own script puts them: React's and Marko's.
//!
//! A React page rendered on the server as a stream (React 18+) sends a placeholder,
//! `<template id="B:n">`, where a part of the page goes, and that part later in the stream as
//! `<div hidden id="S:n">`, followed by a script (`$RC("B:n", "S:n")`) that moves the block's
//! children to the placeholder's place. Every reader's browser runs it as the page arrives;
//! pagelevel runs no scripts, so it makes the same move while building the DOM (issue 27,
//! item 4). Left alone, the text would be hidden at the end of `<body>`: missing from the
//! content, or, shown there, laid out below the footer.
//!
//! A segment streamed outside a Suspense boundary has the placeholder `<template id="P:n">`
//! instead, and `$RS("S:n", "P:n")` makes the same move; its number is the segment's own, so
//! where a `P:n` and a `B:n` both exist, `S:n` goes to the `P:n` (a blog whose whole article
//! came so, WCXB 4486: 32 words of a gold of 1,818 before).
//!
//! The fallback React shows until the block arrives (between the comments `<!--$?-->` and
//! `<!--/$-->` around the placeholder, usually an empty skeleton) stays: comments are not
//! kept in the tree.
//!
//! Marko (eBay's server renderer) streams the same way under other names: the placeholder is
//! any element with the id `af{name}ph{n}` (a `<span>` around a loading skeleton, or an empty
//! `<noscript>`), the block a `<div id="af{name}{n}" style="display:none">` near the end of
//! `<body>`, and the page's `$af{name}(n)` replaces the placeholder, skeleton and all, with the
//! block's children. On eBay's category pages every card of the grid arrives so (WCXB 0658:
//! 18 words of content text, all of them the header's, before the move).

use std::collections::HashMap;

use super::dom::inline_style_hides;
use super::sink::{DOCUMENT, Handle, RawData, RawNode, detach, link_before};

/// Moves the children of every `<div hidden id="S:n">` reachable from the document to the
/// place of its `<template id="P:n">` or `<template id="B:n">`, and of every `<div id="af{name}{n}">` to the place of
/// its `af{name}ph{n}`, and removes both. A block whose placeholder is missing,
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

/// The streamed blocks (their key, handle) in document order and the placeholders by key:
/// React's `S:n` and `B:n` or `P:n` share the key `n`, Marko's `af{name}{n}` and `af{name}ph{n}` the
/// key `af{name}ph{n}`.
fn streamed_blocks_and_placeholders(
    nodes: &[RawNode],
) -> (Vec<(String, Handle)>, HashMap<String, Handle>) {
    let mut blocks = Vec::new();
    let mut placeholders = HashMap::new();
    let mut segment_placeholders = HashMap::new();
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
                "template" if id.starts_with("B:") => {
                    placeholders.entry(id[2..].to_string()).or_insert(handle);
                }
                "template" if id.starts_with("P:") => {
                    segment_placeholders.insert(id[2..].to_string(), handle);
                }
                tag => match marko_id(id) {
                    // Marko names a block `af{name}{n}` (a `div` its inline style hides) and its
                    // placeholder `af{name}ph{n}`.
                    Some((name, number))
                        if tag == "div" && attribute("style").is_some_and(inline_style_hides) =>
                    {
                        blocks.push((format!("af{name}ph{number}"), handle));
                    }
                    Some((name, _)) if name.ends_with("ph") => {
                        placeholders.entry(id.to_string()).or_insert(handle);
                    }
                    _ => {}
                },
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
    // A segment's own placeholder is certain; a boundary's number only usually the segment's.
    placeholders.extend(segment_placeholders);
    (blocks, placeholders)
}

/// The name and number of an id shaped as Marko writes its streamed blocks' and placeholders'
/// ids: `af`, ASCII letters, then digits (`afbrwweb2`: `brwweb`, `2`; `afbrwwebph2`: `brwwebph`,
/// `2`).
fn marko_id(id: &str) -> Option<(&str, &str)> {
    let rest = id.strip_prefix("af")?;
    let (name, number) = rest.split_at(rest.find(|c: char| c.is_ascii_digit())?);
    (name.chars().all(|c| c.is_ascii_alphabetic()) && number.chars().all(|c| c.is_ascii_digit()))
        .then_some((name, number))
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
