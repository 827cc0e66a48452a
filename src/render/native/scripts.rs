//! Which writing systems (Unicode scripts) a page's text is in, so that the fonts to fall back
//! to for each are looked up once per process, not once per page or per change of script (the
//! font collection in `mod.rs` says why that costs).

use icu_properties::props::Script as UnicodeScript;
use icu_properties::{CodePointMapData, PropertyNamesShort};
use parley::fontique::Script;

/// The scripts of `text`'s non-ASCII characters, each once, in order of first use. ASCII is
/// Latin and common punctuation, which every page has; skipping it keeps this pass to a few
/// microseconds on an English page.
pub(super) fn non_ascii_scripts(text: &str) -> Vec<Script> {
    let scripts = const { CodePointMapData::<UnicodeScript>::new() };
    let names = const { PropertyNamesShort::<UnicodeScript>::new() };
    let mut seen: Vec<UnicodeScript> = Vec::new();
    let mut rest = text;
    while let Some(start) = first_non_ascii(rest.as_bytes()) {
        let mut chars = rest[start..].chars();
        let Some(character) = chars.next() else {
            break;
        };
        let script = scripts.get(character);
        if !seen.contains(&script) {
            seen.push(script);
        }
        rest = chars.as_str();
    }
    seen.into_iter()
        .filter_map(|script| names.get(script))
        .filter_map(|name| Script::parse(name).ok())
        .collect()
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
        non_ascii_scripts(text)
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
