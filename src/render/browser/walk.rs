//! The scripts evaluated in the page: the box walk, and — when the page's own scripts run — the
//! record of which element carries which id, which the walk then trusts instead of the
//! attribute.
//!
//! Boxes are joined to our nodes by the `data-pagelevel-id` attribute of the tagged copy. Page
//! scripts share the DOM with the walk, even in its isolated world, so they could swap those
//! attributes between elements (or copy one onto an element of their own) and lend one node's
//! box to another. So with scripts on, a script added to every new document runs in the walk's
//! world before any page script ([`id_recorder_script`]) and watches the document with a
//! `MutationObserver`: an element's id is the one it carried when it entered the document.
//! The parser inserts elements with the attributes of the markup, and before each script it
//! runs it delivers the observers' records, so a later swap changes nothing recorded; a change
//! made between an insertion and that delivery (a custom element's callback runs right after its
//! insertion) is in the records with the attribute's old value, which is taken instead. The
//! record lives in the isolated world, where page scripts cannot reach it. An id that more than
//! one element entered with (a copy, or a page's own element with a copied attribute) joins no
//! box: which element is ours cannot be told, and a missing box is better than someone else's.

use std::time::Duration;

use serde::Deserialize;

use super::super::NODE_ID_ATTRIBUTE;
use crate::layout::{Layout, LayoutBox, Viewport};
use crate::page::NodeId;

/// The global (in the walk's isolated world only) that hands the walk each element with the
/// id it entered the document with.
const ID_RECORD: &str = "pagelevelIdsAtEntry";

/// What the in-page walk returns: flat `[id, x, y, width, height]` quintuples (`x = null` for no
/// box) and the document size.
#[derive(Deserialize)]
pub struct WalkResult {
    pub ready: bool,
    boxes: Vec<Option<f64>>,
    /// Ids of elements laid out but not painted (`visibility: hidden | collapse`).
    #[serde(default)]
    unpainted: Vec<u32>,
    width: f64,
    height: f64,
}

pub fn layout_from_walk(result: WalkResult, element_count: usize, viewport: Viewport) -> Layout {
    let mut boxes = vec![None; element_count];
    for quintuple in result.boxes.chunks_exact(5) {
        let (Some(id), Some(x), Some(y), Some(width), Some(height)) = (
            quintuple[0],
            quintuple[1],
            quintuple[2],
            quintuple[3],
            quintuple[4],
        ) else {
            continue;
        };
        if let Some(slot) = boxes.get_mut(id as usize) {
            *slot = Some(LayoutBox {
                x,
                y,
                width,
                height,
            });
        }
    }
    let mut unpainted: Vec<NodeId> = result
        .unpainted
        .into_iter()
        .filter(|&id| (id as usize) < element_count)
        .map(NodeId)
        .collect();
    unpainted.sort_unstable();
    Layout {
        boxes,
        unpainted,
        page_width: result.width,
        page_height: result.height,
        viewport,
    }
}

/// The in-page script: wait for this URL's load (bounded), then one pass over tagged elements:
/// those carrying the id attribute now when no page script runs, else those in the record of
/// [`id_recorder_script`] (an error when there is none).
pub fn walk_script(url: &str, load_budget: Duration, page_scripts: bool) -> String {
    let url = serde_json::to_string(url).unwrap_or_else(|_| "\"\"".into());
    let tagged = match page_scripts {
        false => format!(
            r#"Array.from(querySelectorAll.call(document, "[{NODE_ID_ATTRIBUTE}]"),
    element => [element, Number(getAttribute.call(element, "{NODE_ID_ATTRIBUTE}"))])"#
        ),
        true => format!(
            r#"(() => {{
    if (typeof globalThis.{ID_RECORD} !== "function") throw new Error("no record of the elements' ids");
    return globalThis.{ID_RECORD}();
  }})()"#
        ),
    };
    format!(
        r#"(async () => {{
  // Every DOM call goes through the prototypes: `document` and forms expose named elements as
  // properties (`<img name="body">`, `<input name="getAttribute">`) that shadow the methods and
  // attributes of the same name, but never on the prototypes.
  const getter = (prototype, name) => Object.getOwnPropertyDescriptor(prototype, name).get;
  const readyState = getter(Document.prototype, "readyState");
  const rootOf = getter(Document.prototype, "documentElement");
  const bodyOf = getter(Document.prototype, "body");
  const scrollWidth = getter(Element.prototype, "scrollWidth");
  const scrollHeight = getter(Element.prototype, "scrollHeight");
  const {{ querySelectorAll }} = Document.prototype;
  const {{ getAttribute, getClientRects, getBoundingClientRect }} = Element.prototype;
  if (location.href !== {url}) return {{ ready: false, boxes: [], width: 0, height: 0 }};
  const deadline = Date.now() + {budget};
  while (readyState.call(document) !== "complete" && Date.now() < deadline) {{
    await new Promise(resolve => setTimeout(resolve, 5));
  }}
  const boxes = [];
  const unpainted = [];
  const sx = window.scrollX, sy = window.scrollY;
  for (const [element, id] of {tagged}) {{
    if (getClientRects.call(element).length === 0) {{
      boxes.push(id, null, null, null, null);
      continue;
    }}
    // Laid out (it takes its space) but not painted: its text is never seen.
    if (getComputedStyle(element).visibility !== "visible") unpainted.push(id);
    const r = getBoundingClientRect.call(element);
    boxes.push(id, r.left + sx, r.top + sy, r.width, r.height);
  }}
  const root = rootOf.call(document);
  const body = bodyOf.call(document) || root;
  return {{
    ready: true,
    boxes,
    unpainted,
    width: Math.max(scrollWidth.call(root), scrollWidth.call(body)),
    height: Math.max(scrollHeight.call(root), scrollHeight.call(body)),
  }};
}})()"#,
        budget = load_budget.as_millis(),
    )
}

/// The script added to every new document (in the walk's isolated world, before any page
/// script) that records the id each element carried when it entered the document; see the
/// module's header for why that record holds.
pub fn id_recorder_script() -> String {
    format!(
        r#"(() => {{
  // Only the top document is measured.
  if (window !== window.top) return;
  const attribute = "{NODE_ID_ATTRIBUTE}";
  const {{ getAttribute }} = Element.prototype;
  const {{ querySelectorAll }} = Document.prototype;
  // Each element's id when it entered the document (null: it had none), and how many elements
  // entered carrying each id.
  const idAtEntry = new Map();
  const claims = new Map();
  const enter = (element, id) => {{
    if (idAtEntry.has(element)) return;
    idAtEntry.set(element, id);
    if (id !== null) claims.set(id, (claims.get(id) || 0) + 1);
  }};
  const read = mutations => {{
    // An attribute changed after its element entered had, at entry, the old value of its
    // first change.
    const atEntry = new Map();
    for (const mutation of mutations) {{
      if (mutation.type === "attributes" && !atEntry.has(mutation.target)) {{
        atEntry.set(mutation.target, mutation.oldValue);
      }}
    }}
    for (const mutation of mutations) {{
      if (mutation.type !== "childList") continue;
      for (const node of mutation.addedNodes) {{
        if (!(node instanceof Element)) continue;
        enter(node, atEntry.has(node) ? atEntry.get(node) : getAttribute.call(node, attribute));
      }}
    }}
  }};
  // Whatever the parser made before this script: no page script has run yet.
  for (const element of querySelectorAll.call(document, "*")) {{
    enter(element, getAttribute.call(element, attribute));
  }}
  const observer = new MutationObserver(read);
  observer.observe(document, {{
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: [attribute],
    attributeOldValue: true,
  }});
  globalThis.{ID_RECORD} = () => {{
    read(observer.takeRecords());
    const joined = [];
    for (const [element, id] of idAtEntry) {{
      if (id !== null && claims.get(id) === 1) joined.push([element, Number(id)]);
    }}
    return joined;
  }};
}})()"#
    )
}
