//! Image boxes as Chromium draws them, without decoding images: a layout engine that does not
//! load an image sizes it from its `width`/`height` attributes alone, while Chromium sizes a
//! loaded image by its pixels and a failed one by its alt text or a 16×16 icon. An image-only
//! paragraph of a saved news page is 18px tall in Chromium and 0px without this, and those
//! differences add up down the page.
//!
//! The copy to lay out gets the attributes that make an attribute-sized image take Chromium's
//! box; author CSS still overrides them, as it overrides intrinsic sizes.

use std::path::Path;

use crate::page::{Dom, Element};
use url::Url;

use super::web_root::file_for_url;

/// Chromium's box for an image that did not load and has no alt text: its broken-image icon.
const BROKEN_ICON_PX: u32 = 16;

/// Alt text is drawn inline in the page's font; without shaping it here, Chromium's measured
/// average advance of the default 16px serif font (7.2px) stands in. The height is the line's
/// 18px less the 4px descent a replaced box sits above on the baseline, so the line it makes
/// is as tall as Chromium's line of alt text.
const ALT_TEXT_ADVANCE_PX: f64 = 7.2;
const ALT_TEXT_HEIGHT_PX: u32 = 14;

/// Gives the images of `dom` (the copy to lay out) Chromium's sizes as attributes. Images are
/// read (headers only) from the web root, as the gate would serve them.
pub(crate) fn give_images_chromium_sizes(dom: &mut Dom, base_url: &Url, web_root: Option<&Path>) {
    for element in &mut dom.elements {
        if element.tag != "img" {
            continue;
        }
        let Some((width, height)) = chromium_image_size(element, base_url, web_root) else {
            continue;
        };
        let attributes = &mut element.attributes;
        attributes.retain(|(name, _)| name != "width" && name != "height");
        attributes.push(("width".into(), width.to_string()));
        attributes.push(("height".into(), height.to_string()));
    }
}

/// The width and height attributes that give this image Chromium's box, when its own do not.
fn chromium_image_size(
    image: &Element,
    base_url: &Url,
    web_root: Option<&Path>,
) -> Option<(u32, u32)> {
    let width = image.attribute("width").and_then(pixels);
    let height = image.attribute("height").and_then(pixels);
    let loaded = image
        .attribute("src")
        .and_then(|src| base_url.join(src.trim()).ok())
        .zip(web_root)
        .and_then(|(url, root)| file_for_url(root, &url))
        .and_then(|file| imagesize::size(file).ok())
        .filter(|size| size.width > 0 && size.height > 0);
    if let Some(pixels) = loaded {
        let (natural_width, natural_height) = (pixels.width as f64, pixels.height as f64);
        return match (width, height) {
            (Some(_), Some(_)) => None,
            (Some(width), None) => Some((
                width,
                (width as f64 * natural_height / natural_width).round() as u32,
            )),
            (None, Some(height)) => Some((
                (height as f64 * natural_width / natural_height).round() as u32,
                height,
            )),
            (None, None) => Some((natural_width as u32, natural_height as u32)),
        };
    }
    match image.attribute("alt").map(str::trim) {
        // A failed image with alt text is drawn as that text, whatever size it was given.
        Some(alt) if !alt.is_empty() => {
            let advance = alt.chars().count() as f64 * ALT_TEXT_ADVANCE_PX;
            Some((advance.round().max(1.0) as u32, ALT_TEXT_HEIGHT_PX))
        }
        // Alt="" says the image is decoration: Chromium draws nothing (0×0) unless both sizes
        // are given, but the line holding it stays. Blitz drops a line whose only content is
        // 0px tall, so the box gets one pixel of height and keeps an area of 0.
        Some(_) if width.is_none() || height.is_none() => Some((0, 1)),
        Some(_) => None,
        None if width.is_none() && height.is_none() => Some((BROKEN_ICON_PX, BROKEN_ICON_PX)),
        None => None,
    }
}

/// A `width`/`height` attribute's pixels, as HTML's dimension parsing reads them (`120`,
/// `120px`); percentages are left to the layout engine.
fn pixels(value: &str) -> Option<u32> {
    let value = value.trim();
    let digits = value.split(|c: char| !c.is_ascii_digit()).next()?;
    let rest = &value[digits.len()..];
    if digits.is_empty() || rest.starts_with('%') {
        return None;
    }
    digits.parse().ok()
}
