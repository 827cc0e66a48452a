//! Which writing systems (Unicode scripts) a page's text is in, so that the fonts to fall back
//! to for each are looked up once per process, not once per page or per change of script (the
//! font collection in `mod.rs` says why that costs).

use icu_properties::props::Script as UnicodeScript;
use icu_properties::{CodePointMapData, PropertyNamesShort};
use parley::fontique::Script;

use crate::page::{Dom, MarkupSink, NodeId, SerializeOptions, write_markup};

/// The scripts of the non-ASCII characters of a page's copy as Blitz reads it (`write_markup`
/// with `options`: names, attribute values and text, in document order), each once, in order of
/// first use. ASCII is Latin and common punctuation, which every page has; skipping it keeps
/// this pass to a few microseconds on an English page.
pub(super) fn page_scripts(copy: &Dom, options: &SerializeOptions) -> Vec<Script> {
    let mut seen = ScriptsSeen::default();
    write_markup(copy, options, &mut seen);
    seen.scripts()
}

/// The scripts met so far, in order of first use.
#[derive(Default)]
struct ScriptsSeen(Vec<UnicodeScript>);

impl ScriptsSeen {
    fn add(&mut self, text: &str) {
        let scripts = const { CodePointMapData::<UnicodeScript>::new() };
        let mut rest = text;
        while let Some(start) = first_non_ascii(rest.as_bytes()) {
            let mut chars = rest[start..].chars();
            let Some(character) = chars.next() else {
                break;
            };
            let script = scripts.get(character);
            if !self.0.contains(&script) {
                self.0.push(script);
            }
            rest = chars.as_str();
        }
    }

    fn scripts(self) -> Vec<Script> {
        let names = const { PropertyNamesShort::<UnicodeScript>::new() };
        self.0
            .into_iter()
            .filter_map(|script| names.get(script))
            .filter_map(|name| Script::parse(name).ok())
            .collect()
    }
}

impl MarkupSink for ScriptsSeen {
    fn start_tag<'a>(
        &mut self,
        tag: &str,
        attributes: impl Iterator<Item = (&'a str, &'a str)>,
        _tagged: Option<(&str, NodeId)>,
    ) {
        self.add(tag);
        for (name, value) in attributes {
            self.add(name);
            self.add(value);
        }
    }

    fn text(&mut self, text: &str, _raw: bool) {
        self.add(text);
    }

    fn end_tag(&mut self, _tag: &str) {}
}

/// Where the first non-ASCII byte is: a word at a time through ASCII (`<[u8]>::is_ascii`),
/// which a byte-by-byte search made 1% of a page's layout.
fn first_non_ascii(bytes: &[u8]) -> Option<usize> {
    const CHUNK: usize = 64;
    let mut offset = 0;
    for chunk in bytes.chunks(CHUNK) {
        if !chunk.is_ascii() {
            return chunk
                .iter()
                .position(|byte| !byte.is_ascii())
                .map(|position| offset + position);
        }
        offset += chunk.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<String> {
        let mut seen = ScriptsSeen::default();
        seen.add(text);
        seen.scripts()
            .iter()
            .map(|script| script.as_str().to_string())
            .collect()
    }

    #[test]
    fn ascii_text_has_no_script_to_look_up() {
        assert!(names("Plain news, 2008: 12 pages & more").is_empty());
    }

    #[test]
    fn each_script_is_named_once_in_order_of_first_use() {
        assert_eq!(
            names("Москва — 東京 と 大阪, Москва • café"),
            ["Cyrl", "Zyyy", "Hani", "Hira", "Latn"]
        );
    }
}
