//! Turning a page's bytes into text. The encoding is taken, in order of authority, from a
//! byte-order mark; the transport charset (the HTTP `Content-Type` charset of a fetched page or
//! WARC record, or what a caller states); a `<meta charset>` or `http-equiv` Content-Type found
//! by the HTML standard's prescan of the first 1024 bytes ([`prescan`]); UTF-8 when the bytes
//! are UTF-8; a declaration later in the head; otherwise a guess from the bytes by `chardetng`
//! (Firefox's detector), with the page's top-level domain as a hint (a `.jp` page leans
//! Japanese, a `.ru` one Cyrillic), whose answer for Western or unclear text is windows-1252.
//! That is the HTML standard's encoding sniffing, with Firefox's detector as its "frequency
//! analysis" step.
//!
//! Departures, each measured on our datasets:
//! - A `<meta>` declaration is overruled when the bytes are UTF-8 and contain non-ASCII
//!   characters. Saved pages are often re-encoded to UTF-8 by the crawler while keeping their
//!   old declaration (L3S-GN1 has such pages: `charset=ISO-8859-1` over UTF-8 bytes, which would
//!   read as `Kosovoâ€™s`); legacy-encoded text that happens to be valid UTF-8 is vanishingly
//!   rare once it has any non-ASCII byte.
//! - Bytes that are UTF-8 but for a character cut off at the very end (a page truncated by a
//!   crawler's size limit) count as UTF-8: one broken character, not a whole page misread.
//! - A declaration past the first 1024 bytes still counts when it is in the head, as in
//!   Chromium (archived Big9 CNN pages declare ISO-8859-1 after an inserted script).
//! - A guess of a Latin encoding other than windows-1252 needs a few non-ASCII bytes to go on
//!   ([`MIN_NON_ASCII_FOR_A_LATIN_GUESS`]).

mod prescan;

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{
    Encoding, ISO_8859_2, ISO_8859_4, ISO_8859_13, UTF_8, WINDOWS_1250, WINDOWS_1252, WINDOWS_1254,
    WINDOWS_1257, WINDOWS_1258,
};
use url::{Host, Url};

/// How many leading bytes are searched for a `<meta charset>`, as in the HTML standard's prescan.
const PRESCAN_BYTES: usize = 1024;

/// The Latin-script encodings besides windows-1252 that `chardetng` may guess: they share the
/// ASCII letters and differ from windows-1252 in accented letters and symbols.
const LATIN_ENCODINGS: [&Encoding; 7] = [
    WINDOWS_1250,
    ISO_8859_2,
    WINDOWS_1254,
    WINDOWS_1257,
    ISO_8859_13,
    WINDOWS_1258,
    ISO_8859_4,
];

/// Below this many non-ASCII bytes on a page of a generic (or unknown) domain, a guess of
/// another Latin encoding is not taken: it rests on one or two symbols. Measured on our
/// datasets: English pages whose only non-ASCII bytes are `£`, `©`, `®` or `¹` were guessed
/// windows-1250 / ISO-8859-2 and would read `Ł500`, `Š`, `Ž`, `Unionš`; a page really in a
/// Central European encoding has accented letters in most sentences.
const MIN_NON_ASCII_FOR_A_LATIN_GUESS: usize = 8;

/// Text of a page and the encoding it was decoded from.
#[derive(Debug, Clone)]
pub struct DecodedText {
    /// The page as Unicode text; undecodable bytes become U+FFFD.
    pub text: String,
    /// The encoding's WHATWG name, e.g. `UTF-8`, `windows-1252`, `Shift_JIS`.
    pub encoding: &'static str,
    /// What decided the encoding.
    pub decided_by: EncodingEvidence,
}

/// What decided a page's encoding, from the most to the least authoritative.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncodingEvidence {
    /// A UTF-8 or UTF-16 byte-order mark at the start of the bytes.
    ByteOrderMark,
    /// The transport charset: the HTTP `Content-Type` charset, or the caller's statement.
    Transport,
    /// A `<meta charset>` or `http-equiv` Content-Type in the first 1024 bytes.
    Meta,
    /// No declaration in the first 1024 bytes, and the bytes are UTF-8 (plain ASCII included).
    Utf8,
    /// Bytes that are not UTF-8, declared by a `<meta>` later in the head (as Chromium
    /// honours one anywhere in the head).
    LateMeta,
    /// No declaration, and the bytes are not UTF-8: `chardetng`'s guess.
    Detected,
    /// No declaration, not UTF-8, and too few non-ASCII bytes to tell one Latin encoding from
    /// another: windows-1252, the web's most common legacy encoding.
    TooLittleToTell,
}

/// The WHATWG name of the encoding a charset label names (`latin1` → `windows-1252`,
/// `sjis` → `Shift_JIS`), or `None` for a label no browser knows. Use it to check a charset a
/// user gives before handing it on as a transport charset, which is otherwise ignored when
/// unknown (as browsers ignore an unknown HTTP charset).
pub fn charset_name(label: &str) -> Option<&'static str> {
    prescan::encoding_for(label.trim().as_bytes()).map(Encoding::name)
}

/// Decodes page bytes whose URL is unknown; `transport_charset` is the charset the page was
/// served or handed over with (HTTP `Content-Type`), if any. See [`decode_at`].
pub fn decode(bytes: &[u8], transport_charset: Option<&str>) -> DecodedText {
    decode_at(bytes, transport_charset, None)
}

/// Decodes the bytes of the page at `page_url`: BOM, then `transport_charset` (an unknown
/// label is ignored), then the `<meta>` prescan, then UTF-8, then a guess helped by the URL's
/// top-level domain.
pub fn decode_at(
    bytes: &[u8],
    transport_charset: Option<&str>,
    page_url: Option<&Url>,
) -> DecodedText {
    let (encoding, decided_by) = choose_encoding(bytes, transport_charset, page_url);
    // `decode` honours a BOM over the given encoding and strips it, as browsers do.
    let (text, used, _) = encoding.decode(bytes);
    DecodedText {
        text: text.into_owned(),
        encoding: used.name(),
        decided_by,
    }
}

fn choose_encoding(
    bytes: &[u8],
    transport_charset: Option<&str>,
    page_url: Option<&Url>,
) -> (&'static Encoding, EncodingEvidence) {
    if let Some((encoding, _)) = Encoding::for_bom(bytes) {
        return (encoding, EncodingEvidence::ByteOrderMark);
    }
    if let Some(encoding) =
        transport_charset.and_then(|label| prescan::encoding_for(label.trim().as_bytes()))
    {
        return (encoding, EncodingEvidence::Transport);
    }
    let is_utf8 = is_utf8_but_for_a_cut_end(bytes);
    if let Some(declared) = prescan::meta_charset(&bytes[..bytes.len().min(PRESCAN_BYTES)])
        && (declared == UTF_8 || !is_utf8 || bytes.is_ascii())
    {
        return (declared, EncodingEvidence::Meta);
    }
    if is_utf8 {
        return (UTF_8, EncodingEvidence::Utf8);
    }
    if let Some(declared) = prescan::meta_charset(prescan::head(bytes)) {
        return (declared, EncodingEvidence::LateMeta);
    }
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let tld = page_url.and_then(top_level_domain);
    let tld = tld.as_deref().map(str::as_bytes);
    // UTF-8 was ruled out above; ISO-2022-JP is 7-bit, so it is valid UTF-8 and never reaches
    // the detector either.
    let guess = detector.guess(tld, Utf8Detection::Deny);
    let non_ascii_bytes = bytes.iter().filter(|byte| !byte.is_ascii()).count();
    if LATIN_ENCODINGS.contains(&guess)
        && non_ascii_bytes < MIN_NON_ASCII_FOR_A_LATIN_GUESS
        && !EncodingDetector::tld_may_affect_guess(tld)
    {
        return (WINDOWS_1252, EncodingEvidence::TooLittleToTell);
    }
    (guess, EncodingEvidence::Detected)
}

/// True when the bytes are UTF-8, or would be but for an incomplete character at the end.
fn is_utf8_but_for_a_cut_end(bytes: &[u8]) -> bool {
    match std::str::from_utf8(bytes) {
        Ok(_) => true,
        // Cut inside a character, after at least one whole non-ASCII one: a legacy page whose
        // only non-ASCII byte is its last is not taken for UTF-8.
        Err(error) => error.error_len().is_none() && !bytes[..error.valid_up_to()].is_ascii(),
    }
}

/// The rightmost label of the URL's host name, lower-case ASCII (Punycode for an
/// internationalized one), as `chardetng` takes its hint; `None` for IP addresses, files and
/// anything `chardetng` would reject.
fn top_level_domain(url: &Url) -> Option<String> {
    let Some(Host::Domain(host)) = url.host() else {
        return None;
    };
    let label = host
        .trim_end_matches('.')
        .rsplit('.')
        .next()?
        .to_ascii_lowercase();
    let is_dns_label = !label.is_empty()
        && label
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-');
    is_dns_label.then_some(label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{EUC_KR, GB18030, SHIFT_JIS, WINDOWS_1251};

    /// Real prose in each language, long enough for a reader to take it as a paragraph.
    const JAPANESE: &str = "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。\
        何でも薄暗いじめじめした所でニャーニャー泣いていた事だけは記憶している。\
        吾輩はここで始めて人間というものを見た。";
    const CHINESE: &str = "我与父亲不相见已二年余了，我最不能忘记的是他的背影。那年冬天，\
        祖母死了，父亲的差使也交卸了，正是祸不单行的日子。我从北京到徐州，打算跟着父亲奔丧回家。";
    const RUSSIAN: &str = "Все счастливые семьи похожи друг на друга, каждая несчастливая семья \
        несчастлива по-своему. Все смешалось в доме Облонских. Жена узнала, что муж был в связи \
        с бывшею в их доме француженкою-гувернанткой.";
    const KOREAN: &str = "나 보기가 역겨워 가실 때에는 말없이 고이 보내 드리우리다. \
        영변에 약산 진달래꽃 아름 따다 가실 길에 뿌리우리다. \
        가시는 걸음 걸음 놓인 그 꽃을 사뿐히 즈려밟고 가시옵소서.";

    /// A page holding `text`, in `encoding`, with `head` (a declaration, or nothing) in its head.
    fn page_in(encoding: &'static Encoding, head: &str, text: &str) -> Vec<u8> {
        let html =
            format!("<html><head>{head}<title>t</title></head><body><p>{text}</p></body></html>");
        let (bytes, _, unmappable) = encoding.encode(&html);
        assert!(!unmappable, "{} holds the whole text", encoding.name());
        bytes.into_owned()
    }

    #[test]
    fn undeclared_east_asian_and_cyrillic_pages_are_detected_not_read_as_windows_1252() {
        for (encoding, text, expected) in [
            (SHIFT_JIS, JAPANESE, "Shift_JIS"),
            (GB18030, CHINESE, "GBK"),
            (WINDOWS_1251, RUSSIAN, "windows-1251"),
            (EUC_KR, KOREAN, "EUC-KR"),
        ] {
            let decoded = decode(&page_in(encoding, "", text), None);
            assert_eq!(decoded.encoding, expected, "{text}");
            assert_eq!(decoded.decided_by, EncodingEvidence::Detected);
            assert!(decoded.text.contains(text), "{expected}: {}", decoded.text);
        }
    }

    #[test]
    fn a_declaration_is_honoured_over_what_the_bytes_look_like() {
        // Russian bytes declared KOI8-R read as KOI8-R, as a browser would show them.
        let page = page_in(WINDOWS_1251, "<meta charset=koi8-r>", RUSSIAN);
        let decoded = decode(&page, None);
        assert_eq!(
            (decoded.encoding, decoded.decided_by),
            ("KOI8-R", EncodingEvidence::Meta)
        );
        let served = decode(&page_in(SHIFT_JIS, "", JAPANESE), Some("euc-jp"));
        assert_eq!(
            (served.encoding, served.decided_by),
            ("EUC-JP", EncodingEvidence::Transport)
        );
        let declared = decode(
            &page_in(SHIFT_JIS, "<meta charset=shift_jis>", JAPANESE),
            None,
        );
        assert!(declared.text.contains(JAPANESE));
    }

    #[test]
    fn a_declaration_later_in_the_head_counts_for_bytes_that_are_not_utf8() {
        // An archive's inserted script pushes the page's own declaration past 1024 bytes.
        let banner = format!("<script>{}</script>", "/* archive banner */ ".repeat(60));
        let late = page_in(
            WINDOWS_1251,
            &format!("{banner}<meta charset=windows-1251>"),
            RUSSIAN,
        );
        let decoded = decode(&late, None);
        assert_eq!(
            (decoded.encoding, decoded.decided_by),
            ("windows-1251", EncodingEvidence::LateMeta)
        );
        // A `<meta>` in the body, past the first 1024 bytes, is not the page's declaration.
        let body = format!(
            "{}<meta charset=koi8-r>{RUSSIAN}",
            "<p>filler</p>".repeat(80)
        );
        let in_body = page_in(WINDOWS_1251, "", &body);
        assert_eq!(decode(&in_body, None).encoding, "windows-1251");
    }

    #[test]
    fn one_or_two_symbols_on_an_english_page_keep_it_western() {
        // From CleanEval pages that the detector alone reads as Central European.
        for text in [
            "<option>Lawyer admits stealing \u{a3}500,000</option>",
            "<strong>\u{ae}<br> (702) 648-4500 ALL RIGHTS RESERVED<br> \u{a9} Copyright",
            "Union\u{b9}. Opponents point to it. <br><br> \u{b9}Testimony of Hon.",
        ] {
            let decoded = decode(&WINDOWS_1252.encode(text).0, None);
            assert_eq!(
                (decoded.encoding, decoded.decided_by),
                ("windows-1252", EncodingEvidence::TooLittleToTell)
            );
            assert_eq!(decoded.text, text);
        }
    }

    #[test]
    fn a_central_european_page_is_detected_as_such() {
        let polish = "Litwo! Ojczyzno moja! ty jeste\u{15b} jak zdrowie. Ile ci\u{119} trzeba \
            ceni\u{107}, ten tylko si\u{119} dowie, kto ci\u{119} straci\u{142}. Dzi\u{15b} \
            pi\u{119}kno\u{15b}\u{107} tw\u{105} w ca\u{142}ej ozdobie widz\u{119} i opisuj\u{119}.";
        let decoded = decode(&page_in(WINDOWS_1250, "", polish), None);
        assert_eq!(decoded.encoding, "windows-1250");
        assert!(decoded.text.contains(polish));
    }

    #[test]
    fn utf8_pages_are_read_as_utf8_whatever_their_language() {
        for text in [JAPANESE, CHINESE, RUSSIAN, KOREAN, "caf\u{e9} cr\u{e8}me"] {
            let decoded = decode(&page_in(UTF_8, "", text), None);
            assert_eq!(
                (decoded.encoding, decoded.decided_by),
                ("UTF-8", EncodingEvidence::Utf8)
            );
            assert!(decoded.text.contains(text));
        }
    }

    #[test]
    fn a_utf8_page_cut_inside_its_last_character_is_still_utf8() {
        let mut page = page_in(UTF_8, "", RUSSIAN);
        page.extend_from_slice(&"Ж".as_bytes()[..1]);
        let decoded = decode(&page, None);
        assert_eq!(decoded.encoding, "UTF-8");
        assert!(decoded.text.contains(RUSSIAN));
        // A legacy page whose only non-ASCII byte is its last is not UTF-8.
        assert_ne!(decode(b"<p>caf\xc3", None).encoding, "UTF-8");
    }

    #[test]
    fn the_top_level_domain_is_taken_from_the_host_name_only() {
        let tld = |url: &str| top_level_domain(&Url::parse(url).expect("test URL"));
        assert_eq!(tld("http://www.Example.CO.JP./a").as_deref(), Some("jp"));
        assert_eq!(tld("http://пример.рф/").as_deref(), Some("xn--p1ai"));
        assert_eq!(tld("http://127.0.0.1/"), None);
        assert_eq!(tld("file:///tmp/page.html"), None);
        assert_eq!(tld("foo://Example.Fr/").as_deref(), Some("fr"));
        assert_eq!(tld("foo://example.ÉTÉ/"), None);
    }

    #[test]
    fn unknown_charset_labels_are_named_as_such() {
        assert_eq!(charset_name(" Latin1 "), Some("windows-1252"));
        assert_eq!(charset_name("sjis"), Some("Shift_JIS"));
        assert_eq!(charset_name("no-such-charset"), None);
        assert_eq!(charset_name("iso-2022-kr"), None);
    }

    #[test]
    fn a_meta_charset_decides_when_there_is_no_bom_or_header() {
        let page = b"<html><head><meta charset=\"iso-8859-1\"></head><body>caf\xe9</body></html>";
        let decoded = decode(page, None);
        assert_eq!(decoded.encoding, "windows-1252");
        assert!(decoded.text.contains("café"));
    }

    #[test]
    fn a_latin1_declaration_over_utf8_bytes_is_read_as_utf8() {
        let page = "<meta charset=ISO-8859-1><p>Kosovo\u{2019}s future</p>".as_bytes();
        let decoded = decode(page, None);
        assert_eq!(decoded.encoding, "UTF-8");
        assert!(decoded.text.contains("Kosovo\u{2019}s"));
    }

    #[test]
    fn an_http_equiv_content_type_names_the_charset() {
        let page =
            b"<meta http-equiv='Content-Type' content='text/html; charset=Shift_JIS'>\x93\xfa";
        assert_eq!(decode(page, None).encoding, "Shift_JIS");
    }

    #[test]
    fn a_bom_overrides_the_header_and_the_meta_tag() {
        let page = b"\xef\xbb\xbf<meta charset=latin1>caf\xc3\xa9";
        let decoded = decode(page, Some("koi8-r"));
        assert_eq!(decoded.encoding, "UTF-8");
        assert!(decoded.text.ends_with("café"));
    }

    #[test]
    fn the_http_header_overrides_the_meta_tag() {
        assert_eq!(
            decode(b"<meta charset=utf-8>", Some("windows-1251")).encoding,
            "windows-1251"
        );
    }

    #[test]
    fn undeclared_invalid_utf8_falls_back_to_windows_1252() {
        let decoded = decode(b"<p>\x93quoted\x94</p>", None);
        assert_eq!(decoded.encoding, "windows-1252");
        assert!(decoded.text.contains('\u{201c}'));
    }

    #[test]
    fn a_meta_tag_declaring_utf16_is_read_as_utf8() {
        assert_eq!(
            decode(b"<meta charset=utf-16><p>x</p>", None).encoding,
            "UTF-8"
        );
    }
}
