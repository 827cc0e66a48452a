//! The images of the main text: pictures a reader sees among the article's paragraphs (a lead
//! photo between the headline and the body, figures inside it), not icons, avatars or the
//! pictures of teasers and navigation.

use crate::layout::Layout;
use crate::page::{Dom, NodeId};

use super::regions::Region;

/// Smaller images are icons, avatars, share buttons and tracking pixels, not pictures.
const MIN_PICTURE_SIDE_PX: f64 = 50.0;

/// The `<img>` elements of the main text: laid out at least [`MIN_PICTURE_SIDE_PX`] on each side,
/// content on this page (templateness under `threshold`), in no named region, and in document
/// order from the first text node of the main text to the end of the element holding its last.
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
    (start.0..end.0)
        .map(NodeId)
        .filter(|&id| {
            dom.element(id).tag == "img"
                && templateness[id.index()] < threshold
                && region[id.index()] == Region::Plain
                && layout
                    .boxes
                    .get(id.index())
                    .copied()
                    .flatten()
                    .is_some_and(|b| {
                        b.width >= MIN_PICTURE_SIDE_PX && b.height >= MIN_PICTURE_SIDE_PX
                    })
        })
        .collect()
}
