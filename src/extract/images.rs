//! The images of the main text: pictures a reader sees among the article's paragraphs (a lead
//! photo between the headline and the body, figures inside it), not icons, avatars or the
//! pictures of teasers and navigation.

use crate::layout::Layout;
use crate::page::{Dom, NodeId};

use super::regions::Region;

/// Smaller images are icons, avatars, share buttons and tracking pixels, not pictures.
const MIN_PICTURE_SIDE_PX: f64 = 50.0;

/// The `<img>` elements of the main text: pictures by their size ([`is_picture_sized`]), content
/// on this page (templateness under `threshold`), in no named region, and in document order from
/// the first text node of the main text to the end of the element holding its last.
pub(super) fn main_images(
    dom: &Dom,
    layout: &Layout,
    main_text_nodes: &[u32],
    templateness: &[f64],
    threshold: f64,
    region: &[Region],
) -> Vec<NodeId> {
    let (Some(&first), Some(&last)) = (main_text_nodes.first(), main_text_nodes.last()) else {
        return Vec::new();
    };
    let start = dom.texts[first as usize].parent;
    let end = dom.element(dom.texts[last as usize].parent).subtree_end;
    let pictures: Vec<NodeId> = (start.0..end.0)
        .map(NodeId)
        .filter(|&id| {
            dom.element(id).tag == "img"
                && templateness[id.index()] < threshold
                && region[id.index()] == Region::Plain
                && is_picture_sized(dom, layout, id)
        })
        .collect();
    without_lazy_placeholders(dom, pictures)
}

/// A lazy-loading page shows a placeholder (a blurred thumbnail, or no source at all) and keeps
/// the picture itself in `<noscript>` for readers without scripts: where a `<noscript>` picture
/// is kept, the other pictures of the block holding that `<noscript>` are its placeholders.
fn without_lazy_placeholders(dom: &Dom, pictures: Vec<NodeId>) -> Vec<NodeId> {
    let noscript_of = |id: NodeId| dom.nearest_ancestor(id, "noscript");
    let holders: Vec<NodeId> = pictures
        .iter()
        .filter_map(|&picture| noscript_of(picture))
        .filter_map(|noscript| dom.element(noscript).parent)
        .collect();
    if holders.is_empty() {
        return pictures;
    }
    pictures
        .into_iter()
        .filter(|&picture| {
            noscript_of(picture).is_some()
                || !holders.iter().any(|&holder| dom.contains(holder, picture))
        })
        .collect()
}

/// Whether an image is big enough to be a picture: its `width`/`height` attributes when it has
/// them, else its box when that is at least [`MIN_PICTURE_SIDE_PX`] a side. An image from
/// another host that says nothing of its size counts too: layout never loads it (no network), so
/// its box is its alt text's line, not the picture.
fn is_picture_sized(dom: &Dom, layout: &Layout, id: NodeId) -> bool {
    let element = dom.element(id);
    let side = |name: &str| {
        element
            .attribute(name)
            .and_then(|value| value.trim().trim_end_matches("px").parse::<f64>().ok())
    };
    if let (Some(width), Some(height)) = (side("width"), side("height")) {
        return width >= MIN_PICTURE_SIDE_PX && height >= MIN_PICTURE_SIDE_PX;
    }
    let laid_out_big = layout
        .boxes
        .get(id.index())
        .copied()
        .flatten()
        .is_some_and(|b| b.width >= MIN_PICTURE_SIDE_PX && b.height >= MIN_PICTURE_SIDE_PX);
    let never_loaded = element.attribute("src").is_some_and(|src| {
        let src = src.trim();
        src.starts_with("http://") || src.starts_with("https://") || src.starts_with("//")
    });
    laid_out_big || never_loaded
}
