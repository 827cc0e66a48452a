//! Boxes inside inline `<svg>`, as Chromium's `getBoundingClientRect` gives them. Blitz lays an
//! `<svg>` out as one replaced box and nothing inside it; Chromium boxes every rendered SVG
//! element: its object bounding box (geometry, no stroke) in its user space, through its own
//! `transform`, its ancestors' transforms and each viewport's `viewBox` mapping, as the
//! page-axis-aligned bounding box of the result. Non-rendered elements (`<defs>`, gradients,
//! `<symbol>` outside a `<use>`, `<title>`, …) and everything under them get no box.
//!
//! The `<svg>` itself is sized by Blitz, which knows no natural size for it: Chromium's is
//! 300×150 without a `viewBox`, and with one, the `viewBox`'s aspect ratio (an `<svg>` sized
//! only by author CSS `height: 1em` is as wide as the ratio says). The copy to lay out states
//! both ([`give_svgs_natural_sizes`]). Chromium also stretches an `<svg>` with a `viewBox` and
//! no size at all to its container's width; Blitz leaves it 0×0, as an unstyled icon would be.
//!
//! Geometry is read from attributes (author CSS for SVG geometry is rare); text has no shaping
//! here, so a `<text>` is its characters at Chromium's average advance of its font size, and a
//! `<tspan>` shares its `<text>`'s box. These elements are small: their boxes matter for being
//! laid out at all, and as the parts of an icon, more than to the pixel.

use std::collections::HashMap;

use kurbo::{Affine, BezPath, Point, Rect, Shape};

use crate::layout::LayoutBox;
use crate::page::{Dom, Element, NodeId, inline_style_hides};

/// SVG elements that are never rendered where they stand (only referenced, or metadata).
const NOT_RENDERED: &[&str] = &[
    "defs",
    "symbol",
    "clippath",
    "mask",
    "pattern",
    "marker",
    "lineargradient",
    "radialgradient",
    "stop",
    "filter",
    "title",
    "desc",
    "metadata",
    "style",
    "script",
    "animate",
    "animatemotion",
    "animatetransform",
    "set",
    "view",
    "font",
    "font-face",
    "glyph",
    "missing-glyph",
    "cursor",
];

/// Containers: their box is the union of their children's.
const CONTAINERS: &[&str] = &["g", "a", "switch"];

/// Chromium's default font size, for `em` lengths and text without a `font-size`.
const DEFAULT_FONT_PX: f64 = 16.0;

/// Liberation Sans/Serif (Chromium's default fonts here): average advance, ascent and height
/// of the content area, per font-size unit, measured on Chromium's boxes of SVG text.
const TEXT_ADVANCE_EM: f64 = 0.55;
const TEXT_ASCENT_EM: f64 = 0.9;
const TEXT_HEIGHT_EM: f64 = 1.125;

/// `<use>` chains deeper than this are cycles or attacks; they get no box.
const MAX_USE_DEPTH: u32 = 16;

/// Chromium's natural size of an `<svg>` without a `viewBox`.
const DEFAULT_SVG_SIZE: (&str, &str) = ("300", "150");

/// Gives every outermost `<svg>` of `dom` (the copy to lay out) Chromium's natural size: the
/// 300×150 default as presentational attributes (author CSS overrides them, as it overrides a
/// natural size), or the `viewBox`'s aspect ratio first in its inline style (the page's own
/// declarations come after it, so they win).
pub(crate) fn give_svgs_natural_sizes(dom: &mut Dom) {
    let mut index = 0;
    while index < dom.elements.len() {
        let element = &mut dom.elements[index];
        let next = element.subtree_end.index();
        if element.tag != "svg" {
            index += 1;
            continue;
        }
        let has = |name: &str| element.attribute(name).is_some();
        let (has_width, has_height) = (has("width"), has("height"));
        if let Some(view) = viewbox(element) {
            let ratio = format!("aspect-ratio: {} / {};", view.width(), view.height());
            match element
                .attributes
                .iter_mut()
                .find(|(name, _)| name == "style")
            {
                Some((_, style)) => style.insert_str(0, &ratio),
                None => element.attributes.push(("style".into(), ratio)),
            }
        } else {
            if !has_width {
                element
                    .attributes
                    .push(("width".into(), DEFAULT_SVG_SIZE.0.into()));
            }
            if !has_height {
                element
                    .attributes
                    .push(("height".into(), DEFAULT_SVG_SIZE.1.into()));
            }
        }
        // An `<svg>` inside it is a nested viewport, sized by its own attributes.
        index = next;
    }
}

/// Gives every rendered element inside each laid-out outermost `<svg>` its page box.
pub(crate) fn box_svg_contents(dom: &Dom, boxes: &mut [Option<LayoutBox>]) {
    let mut geometry = SvgGeometry {
        dom,
        by_id: HashMap::new(),
        local_boxes: HashMap::new(),
    };
    let mut id = NodeId(0);
    while id.index() < dom.len() {
        let element = dom.element(id);
        if element.tag != "svg" {
            id = NodeId(id.0 + 1);
            continue;
        }
        if let Some(svg_box) = boxes[id.index()] {
            if geometry.by_id.is_empty() {
                geometry.index_ids();
            }
            let viewport = Rect::new(0.0, 0.0, svg_box.width, svg_box.height);
            let page = Affine::translate((svg_box.x, svg_box.y))
                * viewbox_transform(element, viewport.size());
            let size = viewbox_size(element).unwrap_or(viewport.size());
            for child in dom.element_children(id) {
                geometry.box_subtree(child, page, size, boxes);
            }
        }
        // Everything under an outermost `<svg>` is done (or has no box with it).
        id = element.subtree_end;
    }
}

struct SvgGeometry<'a> {
    dom: &'a Dom,
    /// Element ids (`id` attributes) for `<use href="#…">`.
    by_id: HashMap<&'a str, NodeId>,
    /// Each element's bounding box in its parent's user space (its own transform applied), or
    /// `None` when it has none; `<use>` targets are asked for many times.
    local_boxes: HashMap<NodeId, Option<Rect>>,
}

impl<'a> SvgGeometry<'a> {
    fn index_ids(&mut self) {
        for id in self.dom.ids() {
            if let Some(name) = self.dom.element(id).attribute("id") {
                self.by_id.entry(name).or_insert(id);
            }
        }
    }

    /// Boxes `id` and its descendants, `to_page` mapping their parent's user space to the page
    /// and `viewport` the nearest viewport's size in user units (for percentages).
    fn box_subtree(
        &mut self,
        id: NodeId,
        to_page: Affine,
        viewport: kurbo::Size,
        boxes: &mut [Option<LayoutBox>],
    ) {
        let element = self.dom.element(id);
        if !is_rendered(element) {
            return;
        }
        if let Some(local) = self.local_box(id, viewport, 0) {
            let page = to_page.transform_rect_bbox(local);
            boxes[id.index()] = Some(LayoutBox {
                x: page.x0,
                y: page.y0,
                width: page.width(),
                height: page.height(),
            });
        }
        let (inner, inner_viewport) = match element.tag.as_str() {
            "svg" => {
                let (x, y, size) = nested_viewport(element, viewport);
                let inner = to_page
                    * own_transform(element)
                    * Affine::translate((x, y))
                    * viewbox_transform(element, size);
                (inner, viewbox_size(element).unwrap_or(size))
            }
            tag if CONTAINERS.contains(&tag) => (to_page * own_transform(element), viewport),
            // Text children share the text's box; other elements have no rendered children.
            "text" => {
                let text_box = boxes[id.index()];
                for descendant in self.dom.subtree(id).skip(1) {
                    boxes[descendant.index()] = text_box;
                }
                return;
            }
            _ => return,
        };
        for child in self.dom.element_children(id) {
            self.box_subtree(child, inner, inner_viewport, boxes);
        }
    }

    /// The element's bounding box in its parent's user space, memoized.
    fn local_box(&mut self, id: NodeId, viewport: kurbo::Size, depth: u32) -> Option<Rect> {
        if let Some(known) = self.local_boxes.get(&id) {
            return *known;
        }
        // A cycle through `<use>` meets this entry again and finds no box.
        self.local_boxes.insert(id, None);
        let computed = self.compute_local_box(id, viewport, depth);
        self.local_boxes.insert(id, computed);
        computed
    }

    fn compute_local_box(&mut self, id: NodeId, viewport: kurbo::Size, depth: u32) -> Option<Rect> {
        let element = self.dom.element(id);
        if !is_rendered(element) && element.tag != "symbol" {
            return None;
        }
        let length = |name: &str, axis: Axis| length(element, name, axis, viewport);
        let shape = match element.tag.as_str() {
            "rect" | "image" | "foreignobject" => Some(Rect::new(
                length("x", Axis::X),
                length("y", Axis::Y),
                length("x", Axis::X) + length("width", Axis::X).max(0.0),
                length("y", Axis::Y) + length("height", Axis::Y).max(0.0),
            )),
            "circle" => {
                let (cx, cy) = (length("cx", Axis::X), length("cy", Axis::Y));
                let r = length("r", Axis::Diagonal).max(0.0);
                Some(Rect::new(cx - r, cy - r, cx + r, cy + r))
            }
            "ellipse" => {
                let (cx, cy) = (length("cx", Axis::X), length("cy", Axis::Y));
                let (rx, ry) = (
                    length("rx", Axis::X).max(0.0),
                    length("ry", Axis::Y).max(0.0),
                );
                Some(Rect::new(cx - rx, cy - ry, cx + rx, cy + ry))
            }
            "line" => Some(Rect::from_points(
                (length("x1", Axis::X), length("y1", Axis::Y)),
                (length("x2", Axis::X), length("y2", Axis::Y)),
            )),
            "polyline" | "polygon" => points_box(element.attribute("points").unwrap_or("")),
            "path" => BezPath::from_svg(element.attribute("d").unwrap_or(""))
                .ok()
                .filter(|path| !path.elements().is_empty())
                .map(|path| path.bounding_box())
                .or(Some(Rect::ZERO)),
            "text" => Some(text_box(self.dom, id, element, viewport)),
            "use" => return self.use_box(element, viewport, depth),
            "svg" | "symbol" => {
                let (x, y, size) = nested_viewport(element, viewport);
                let inner = Affine::translate((x, y)) * viewbox_transform(element, size);
                let inner_viewport = viewbox_size(element).unwrap_or(size);
                let content = self.children_box(id, inner_viewport, depth)?;
                Some(inner.transform_rect_bbox(content))
            }
            tag if CONTAINERS.contains(&tag) => {
                Some(self.children_box(id, viewport, depth).unwrap_or(Rect::ZERO))
            }
            _ => None,
        }?;
        Some(own_transform(element).transform_rect_bbox(shape))
    }

    /// The union of the children's boxes, in the element's own user space.
    fn children_box(&mut self, id: NodeId, viewport: kurbo::Size, depth: u32) -> Option<Rect> {
        let dom = self.dom;
        dom.element_children(id)
            .filter_map(|child| self.local_box(child, viewport, depth))
            .reduce(|a, b| a.union(b))
    }

    /// A `<use>`: its target's box, moved by the use's `x`/`y` (a `<symbol>` or `<svg>` target
    /// is a viewport the size of the use's `width`/`height`, 100% by default).
    fn use_box(&mut self, element: &Element, viewport: kurbo::Size, depth: u32) -> Option<Rect> {
        if depth >= MAX_USE_DEPTH {
            return None;
        }
        let reference = element
            .attribute("href")
            .or_else(|| element.attribute("xlink:href"))?
            .trim()
            .strip_prefix('#')?;
        let target_id = *self.by_id.get(reference)?;
        let target = self.dom.element(target_id);
        let (x, y) = (
            length(element, "x", Axis::X, viewport),
            length(element, "y", Axis::Y, viewport),
        );
        let target_box = if matches!(target.tag.as_str(), "symbol" | "svg") {
            let size = kurbo::Size::new(
                length_or(element, "width", Axis::X, viewport, viewport.width),
                length_or(element, "height", Axis::Y, viewport, viewport.height),
            );
            let inner_viewport = viewbox_size(target).unwrap_or(size);
            let content = self.children_box(target_id, inner_viewport, depth + 1)?;
            viewbox_transform(target, size).transform_rect_bbox(content)
        } else {
            self.local_box(target_id, viewport, depth + 1)?
        };
        let moved = Affine::translate((x, y)).transform_rect_bbox(target_box);
        Some(own_transform(element).transform_rect_bbox(moved))
    }
}

/// Whether the element is drawn where it stands: not a definition or metadata, not hidden by
/// its `display` attribute or inline style.
fn is_rendered(element: &Element) -> bool {
    if NOT_RENDERED.contains(&element.tag.as_str()) {
        return false;
    }
    let display_none = |value: &str| value.trim().eq_ignore_ascii_case("none");
    if element.attribute("display").is_some_and(display_none) {
        return false;
    }
    !element.attribute("style").is_some_and(inline_style_hides)
}

/// A text element: its characters at the average advance, on its first baseline, moved by
/// `text-anchor`.
fn text_box(dom: &Dom, id: NodeId, element: &Element, viewport: kurbo::Size) -> Rect {
    let font_size = font_size(dom, id);
    let first = |name: &str, axis: Axis| {
        element
            .attribute(name)
            .and_then(|list| list.split([' ', ',']).find(|value| !value.is_empty()))
            .and_then(|value| parse_length(value, axis, viewport))
            .unwrap_or(0.0)
    };
    let (x, baseline) = (first("x", Axis::X), first("y", Axis::Y));
    let texts: Vec<String> = dom
        .subtree(id)
        .map(|node| dom.own_text(node))
        .filter(|text| !text.is_empty())
        .collect();
    let characters = texts.join(" ").chars().count();
    let width = characters as f64 * TEXT_ADVANCE_EM * font_size;
    let start = match element.attribute("text-anchor").map(str::trim) {
        Some("middle") => x - width / 2.0,
        Some("end") => x - width,
        _ => x,
    };
    let top = baseline - TEXT_ASCENT_EM * font_size;
    Rect::new(start, top, start + width, top + TEXT_HEIGHT_EM * font_size)
}

/// The font size of an SVG text element: its own or its nearest ancestor's `font-size`
/// attribute or inline style, in px.
fn font_size(dom: &Dom, id: NodeId) -> f64 {
    let mut current = Some(id);
    while let Some(node) = current {
        let element = dom.element(node);
        let from_style = element.attribute("style").and_then(|style| {
            style.split(';').find_map(|declaration| {
                let (name, value) = declaration.split_once(':')?;
                name.trim()
                    .eq_ignore_ascii_case("font-size")
                    .then_some(value)
            })
        });
        let size = from_style
            .or_else(|| element.attribute("font-size"))
            .and_then(|value| parse_length(value, Axis::Y, kurbo::Size::ZERO));
        if let Some(size) = size.filter(|size| *size > 0.0) {
            return size;
        }
        if element.tag == "svg" {
            break;
        }
        current = element.parent;
    }
    DEFAULT_FONT_PX
}

fn points_box(points: &str) -> Option<Rect> {
    let numbers: Vec<f64> = points
        .split(|c: char| c.is_ascii_whitespace() || c == ',')
        .filter(|token| !token.is_empty())
        .map_while(|token| token.parse().ok())
        .collect();
    numbers
        .chunks_exact(2)
        .map(|pair| Rect::from_points((pair[0], pair[1]), (pair[0], pair[1])))
        .reduce(|a, b| a.union(b))
}

/// Which viewport dimension a percentage is of.
#[derive(Clone, Copy)]
enum Axis {
    X,
    Y,
    /// Radii: the normalized diagonal, √((w² + h²) / 2).
    Diagonal,
}

/// An attribute's length in user units, 0 when missing or unreadable.
fn length(element: &Element, name: &str, axis: Axis, viewport: kurbo::Size) -> f64 {
    length_or(element, name, axis, viewport, 0.0)
}

fn length_or(
    element: &Element,
    name: &str,
    axis: Axis,
    viewport: kurbo::Size,
    default: f64,
) -> f64 {
    element
        .attribute(name)
        .and_then(|value| parse_length(value, axis, viewport))
        .unwrap_or(default)
}

/// A CSS/SVG length: a number with an absolute unit, `em`, or a percentage of the viewport.
fn parse_length(value: &str, axis: Axis, viewport: kurbo::Size) -> Option<f64> {
    let value = value.trim();
    let number_end = value
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E')))
        .unwrap_or(value.len());
    // `1em`: the `e` of the unit is not an exponent.
    let number_end = if value[..number_end].ends_with(['e', 'E']) {
        number_end - 1
    } else {
        number_end
    };
    let number: f64 = value[..number_end].parse().ok()?;
    let scale = match value[number_end..].trim().to_ascii_lowercase().as_str() {
        "" | "px" => 1.0,
        "%" => {
            let reference = match axis {
                Axis::X => viewport.width,
                Axis::Y => viewport.height,
                Axis::Diagonal => {
                    (viewport.width.powi(2) + viewport.height.powi(2)).sqrt()
                        / std::f64::consts::SQRT_2
                }
            };
            reference / 100.0
        }
        "em" | "rem" => DEFAULT_FONT_PX,
        "pt" => 4.0 / 3.0,
        "pc" => 16.0,
        "in" => 96.0,
        "cm" => 96.0 / 2.54,
        "mm" => 96.0 / 25.4,
        _ => return None,
    };
    Some(number * scale).filter(|length| length.is_finite())
}

/// A nested `<svg>`'s (or `<symbol>`'s) position and size in its parent's user space.
fn nested_viewport(element: &Element, viewport: kurbo::Size) -> (f64, f64, kurbo::Size) {
    let size = kurbo::Size::new(
        length_or(element, "width", Axis::X, viewport, viewport.width),
        length_or(element, "height", Axis::Y, viewport, viewport.height),
    );
    (
        length(element, "x", Axis::X, viewport),
        length(element, "y", Axis::Y, viewport),
        size,
    )
}

/// The `viewBox` rectangle, when valid. The parser keeps SVG's camel-case attribute names
/// (`viewBox`, `preserveAspectRatio`), so these two are found whatever their case.
fn viewbox(element: &Element) -> Option<Rect> {
    let numbers: Vec<f64> = element
        .attributes
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("viewbox"))
        .map(|(_, value)| value.as_str())?
        .split(|c: char| c.is_ascii_whitespace() || c == ',')
        .filter(|token| !token.is_empty())
        .map(|token| token.parse().ok())
        .collect::<Option<_>>()?;
    let &[x, y, width, height] = numbers.as_slice() else {
        return None;
    };
    (width > 0.0 && height > 0.0).then(|| Rect::new(x, y, x + width, y + height))
}

fn viewbox_size(element: &Element) -> Option<kurbo::Size> {
    viewbox(element).map(|rect| rect.size())
}

/// The `viewBox` → viewport mapping with `preserveAspectRatio` (default `xMidYMid meet`).
fn viewbox_transform(element: &Element, viewport: kurbo::Size) -> Affine {
    let Some(view) = viewbox(element) else {
        return Affine::IDENTITY;
    };
    let (mut scale_x, mut scale_y) = (
        viewport.width / view.width(),
        viewport.height / view.height(),
    );
    let aspect = element
        .attributes
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case("preserveaspectratio"))
        .map_or("xMidYMid meet", |(_, value)| value.as_str())
        .trim()
        .to_ascii_lowercase();
    let mut parts = aspect.split_ascii_whitespace();
    let align = parts.next().unwrap_or("xmidymid");
    let (mut shift_x, mut shift_y) = (0.0, 0.0);
    if align != "none" {
        let scale = if parts.next() == Some("slice") {
            scale_x.max(scale_y)
        } else {
            scale_x.min(scale_y)
        };
        (scale_x, scale_y) = (scale, scale);
        // `xMin`/`xMid`/`xMax` (and `y…`) place the scaled view at the start, middle or end.
        let shift = |spare: f64, axis: &str| {
            if align.contains(&format!("{axis}mid")) {
                spare / 2.0
            } else if align.contains(&format!("{axis}max")) {
                spare
            } else {
                0.0
            }
        };
        shift_x = shift(viewport.width - view.width() * scale, "x");
        shift_y = shift(viewport.height - view.height() * scale, "y");
    }
    Affine::translate((shift_x, shift_y))
        * Affine::scale_non_uniform(scale_x, scale_y)
        * Affine::translate((-view.x0, -view.y0))
}

/// The element's `transform` attribute (a list of SVG transform functions); the identity when
/// missing or unreadable, as SVG ignores an invalid transform.
fn own_transform(element: &Element) -> Affine {
    element
        .attribute("transform")
        .and_then(parse_transform_list)
        .unwrap_or(Affine::IDENTITY)
}

fn parse_transform_list(list: &str) -> Option<Affine> {
    let mut transform = Affine::IDENTITY;
    let mut rest = list.trim();
    while !rest.is_empty() {
        let open = rest.find('(')?;
        let close = open + rest[open..].find(')')?;
        let name = rest[..open].trim().trim_start_matches(',').trim();
        let arguments: Vec<f64> = rest[open + 1..close]
            .split(|c: char| c.is_ascii_whitespace() || c == ',')
            .filter(|token| !token.is_empty())
            .map(|token| token.parse().ok())
            .collect::<Option<_>>()?;
        let next = match (name, arguments.as_slice()) {
            ("translate", [x]) => Affine::translate((*x, 0.0)),
            ("translate", [x, y]) => Affine::translate((*x, *y)),
            ("scale", [s]) => Affine::scale(*s),
            ("scale", [x, y]) => Affine::scale_non_uniform(*x, *y),
            ("rotate", [angle]) => Affine::rotate(angle.to_radians()),
            ("rotate", [angle, x, y]) => {
                Affine::rotate_about(angle.to_radians(), Point::new(*x, *y))
            }
            ("skewX", [angle]) => Affine::skew(angle.to_radians().tan(), 0.0),
            ("skewY", [angle]) => Affine::skew(0.0, angle.to_radians().tan()),
            ("matrix", [a, b, c, d, e, f]) => Affine::new([*a, *b, *c, *d, *e, *f]),
            _ => return None,
        };
        transform *= next;
        rest = rest[close + 1..].trim_start();
    }
    Some(transform)
}
