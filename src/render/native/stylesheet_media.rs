//! Blitz applies `<link rel=stylesheet media=…>` and `<style media=…>` whatever their media, so a
//! print sheet that hides the header and menus applies on screen. The copy Blitz lays out states
//! the media in CSS instead, where Stylo evaluates it at the viewport: a linked sheet becomes
//! `<style>@import url(…) media;</style>` (same URL resolution, against the document's base),
//! and a style element's rules move inside `@media`. Remove this when Blitz honours the attribute.

use crate::page::{Child, Dom, TextNode};

/// Rewrites every stylesheet with a `media` attribute in `dom` (the copy to lay out).
pub(crate) fn move_media_into_css(dom: &mut Dom) {
    for index in 0..dom.elements.len() {
        let element = &dom.elements[index];
        let Some(media) = element
            .attribute("media")
            .map(str::trim)
            .filter(|media| !media.is_empty() && !media.eq_ignore_ascii_case("all"))
            .map(str::to_string)
        else {
            continue;
        };
        if element.is_stylesheet_link() {
            let Some(href) = element.attribute("href").map(css_string) else {
                continue;
            };
            let import = format!("@import url({href}) {media};");
            let element = &mut dom.elements[index];
            element.tag = "style".into();
            element.attributes.clear();
            dom.texts.push(TextNode {
                parent: crate::page::NodeId(index as u32),
                text: import,
            });
            let text = (dom.texts.len() - 1) as u32;
            dom.elements[index].children = vec![Child::Text(text)];
        } else if element.tag == "style" {
            // `@import` must come first in a sheet, so a sheet with imports keeps its rules as
            // they are rather than becoming invalid inside `@media`.
            let texts: Vec<u32> = element
                .children
                .iter()
                .filter_map(|child| match child {
                    Child::Text(text) => Some(*text),
                    Child::Element(_) => None,
                })
                .collect();
            if texts
                .iter()
                .any(|&text| dom.texts[text as usize].text.contains("@import"))
            {
                continue;
            }
            if let (Some(&first), Some(&last)) = (texts.first(), texts.last()) {
                dom.texts[first as usize]
                    .text
                    .insert_str(0, &format!("@media {media} {{\n"));
                dom.texts[last as usize].text.push_str("\n}");
                dom.elements[index]
                    .attributes
                    .retain(|(name, _)| name != "media");
            }
        }
    }
}

/// A URL as a quoted CSS string.
fn css_string(url: &str) -> String {
    let escaped = url
        .trim()
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "");
    format!("\"{escaped}\"")
}
