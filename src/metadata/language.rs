//! A page's language as an ISO 639-1 code (`en`, `pt`, `zh`): what the page declares, reduced to
//! its primary subtag, else what its text reads as (whatlang's trigram and script detector).

use crate::page::Dom;

/// Characters of visible text given to the detector: whatlang's answer settles within a few
/// hundred characters, and reading more only costs time (0.03 ms a thousand characters).
const DETECTION_CHARS: usize = 1_000;

/// Fewest words of a text node given to the detector.
const MIN_RUN_WORDS: usize = 4;

/// Fewest characters of text a detected language is trusted on.
const MIN_DETECTION_CHARS: usize = 40;

/// The primary subtag of a declared language (`en-US` → `en`, `pt_BR` → `pt`, `EN` → `en`),
/// if it is a two- or three-letter code; a list (`en, fr` in `content-language`) gives its
/// first. `x-default`, `und`, `*` and the like declare nothing.
pub fn primary_subtag(declared: &str) -> Option<String> {
    let first = declared.split([',', ';']).next()?.trim();
    let primary = first.split(['-', '_']).next()?.to_ascii_lowercase();
    let is_code =
        (2..=3).contains(&primary.len()) && primary.bytes().all(|b| b.is_ascii_lowercase());
    (is_code && primary != "und" && primary != "mul" && primary != "zxx").then_some(primary)
}

/// The language the page's visible text is written in, when the detector is sure of it.
pub fn detect(dom: &Dom) -> Option<String> {
    let body = dom.first_with_tag("body")?;
    let mut text = String::new();
    for node in &dom.texts {
        if text.len() >= DETECTION_CHARS {
            break;
        }
        let words = node.text.split_whitespace();
        // Runs of a few words are sentences; single words are menus, buttons and names, which
        // read as any language.
        if dom.contains(body, node.parent)
            && dom.is_visible_text_parent(node.parent)
            && words.clone().count() >= MIN_RUN_WORDS
        {
            for word in words {
                text.push_str(word);
                text.push(' ');
            }
        }
    }
    if text.chars().count() < MIN_DETECTION_CHARS {
        return None;
    }
    let info = whatlang::detect(&text)?;
    info.is_reliable()
        .then(|| iso_639_1(info.lang()).to_string())
}

/// whatlang's ISO 639-3 language as ISO 639-1 (every language it knows has a two-letter code;
/// Mandarin is `zh`, Western Persian `fa`, Norwegian Bokmål `nb`).
fn iso_639_1(lang: whatlang::Lang) -> &'static str {
    use whatlang::Lang::*;
    match lang {
        Epo => "eo",
        Eng => "en",
        Rus => "ru",
        Cmn => "zh",
        Spa => "es",
        Por => "pt",
        Ita => "it",
        Ben => "bn",
        Fra => "fr",
        Deu => "de",
        Ukr => "uk",
        Kat => "ka",
        Ara => "ar",
        Hin => "hi",
        Jpn => "ja",
        Heb => "he",
        Yid => "yi",
        Pol => "pl",
        Amh => "am",
        Jav => "jv",
        Kor => "ko",
        Nob => "nb",
        Dan => "da",
        Swe => "sv",
        Fin => "fi",
        Tur => "tr",
        Nld => "nl",
        Hun => "hu",
        Ces => "cs",
        Ell => "el",
        Bul => "bg",
        Bel => "be",
        Mar => "mr",
        Kan => "kn",
        Ron => "ro",
        Slv => "sl",
        Hrv => "hr",
        Srp => "sr",
        Mkd => "mk",
        Lit => "lt",
        Lav => "lv",
        Est => "et",
        Tam => "ta",
        Vie => "vi",
        Urd => "ur",
        Tha => "th",
        Guj => "gu",
        Uzb => "uz",
        Pan => "pa",
        Aze => "az",
        Ind => "id",
        Tel => "te",
        Pes => "fa",
        Mal => "ml",
        Ori => "or",
        Mya => "my",
        Nep => "ne",
        Sin => "si",
        Khm => "km",
        Tuk => "tk",
        Aka => "ak",
        Zul => "zu",
        Sna => "sn",
        Afr => "af",
        Lat => "la",
        Slk => "sk",
        Cat => "ca",
        Tgl => "tl",
        Hye => "hy",
        Cym => "cy",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::test_dom as dom;

    #[test]
    fn a_declared_language_keeps_its_primary_subtag_only() {
        assert_eq!(primary_subtag("en-US").as_deref(), Some("en"));
        assert_eq!(primary_subtag("pt_BR").as_deref(), Some("pt"));
        assert_eq!(primary_subtag(" DE ").as_deref(), Some("de"));
        assert_eq!(primary_subtag("fr, en").as_deref(), Some("fr"));
        for nothing in ["", "und", "x-default", "*", "english language", "e1"] {
            assert_eq!(primary_subtag(nothing), None, "{nothing:?}");
        }
    }

    #[test]
    fn an_undeclared_language_is_detected_from_the_visible_text() {
        let german = dom(
            "<html><head><script>var english = 'this is not the page text at all';</script>\
             </head><body><p>Die Bundesregierung hat am Mittwoch beschlossen, dass die neuen \
             Regeln für den Datenschutz ab dem nächsten Jahr gelten sollen.</p></body></html>",
        );
        assert_eq!(detect(&german).as_deref(), Some("de"));
    }

    #[test]
    fn too_little_text_detects_nothing() {
        assert_eq!(detect(&dom("<p>Home</p>")), None);
        assert_eq!(detect(&dom("<title>t</title>")), None);
    }
}
