//! Loaders for the human-labelled page sets, one file per format, all producing a [`Dataset`]
//! of [`LabelledPage`]s whose [`Gold`] says what people judged to be content or template.
//!
//! A dataset is named `FORMAT:PATH` ([`DatasetSpec`]), with `FORMAT` one of `l3s-gn1`,
//! `cleaneval`, `cleanportaleval`, `dragnet`, `big9`, `kreuzer`, `readability`, `wcxb`,
//! `native`, and `PATH` the
//! folder laid out as `shared/datasets/labeled/README.md` describes (for `native`, the manifest
//! file or its folder; see [`native`]). Loading reads every gold file, so a broken set fails at
//! once, naming the file; the pages' HTML is left for the caller to read.
//!
//! Gold text files come in mixed encodings; they are read by their BOM when they have one
//! (UTF-8, or UTF-16 for a few Dragnet files), else as UTF-8 when valid and as windows-1252 otherwise, which covers every non-UTF-8 gold file in the shared
//! sets (their non-ASCII bytes are smart quotes and dashes).

pub mod big9;
pub mod cleaneval;
pub mod dragnet;
pub mod kreuzer;
pub mod l3s_gn1;
pub mod native;
pub mod readability;
mod split;
pub mod wcxb;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

use super::EvalError;
use crate::page_type::PageType;

pub use kreuzer::{Block, BlockText};
pub use l3s_gn1::L3sClass;
pub use split::{Split, SplitChoice};

/// The label formats we read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DatasetFormat {
    /// `l3s-gn1`: Google News pages with assessor-classified text blocks ([`l3s_gn1`]).
    L3sGn1,
    /// `cleaneval`: CleanEval 2007 pages with cleaned gold text ([`cleaneval`]).
    CleanEval,
    /// `cleanportaleval`: CleanEval-style pages grouped by portal ([`cleaneval`]).
    CleanPortalEval,
    /// `dragnet`: pages with corrected article text and comments ([`dragnet`]).
    Dragnet,
    /// `big9`: 9 news sites × 4 years with main-article gold text ([`big9`]).
    Big9,
    /// `kreuzer`: pages with typed, nested blocks marked in the DOM ([`kreuzer`]).
    Kreuzer,
    /// `readability`: Mozilla Readability's modern test pages with their expected article
    /// ([`readability`]).
    Readability,
    /// `wcxb`: WCXB's 2025 pages of seven types with reviewed main content ([`wcxb`]).
    Wcxb,
    /// `native`: pagelevel's own JSON manifest, for your own pages ([`native`]).
    Native,
}

impl DatasetFormat {
    /// Every format, in the order error messages and help list them.
    pub const ALL: [DatasetFormat; 9] = [
        DatasetFormat::L3sGn1,
        DatasetFormat::CleanEval,
        DatasetFormat::CleanPortalEval,
        DatasetFormat::Dragnet,
        DatasetFormat::Big9,
        DatasetFormat::Kreuzer,
        DatasetFormat::Readability,
        DatasetFormat::Wcxb,
        DatasetFormat::Native,
    ];

    /// The name used in a `FORMAT:PATH` spec.
    pub fn name(self) -> &'static str {
        match self {
            DatasetFormat::L3sGn1 => "l3s-gn1",
            DatasetFormat::CleanEval => "cleaneval",
            DatasetFormat::CleanPortalEval => "cleanportaleval",
            DatasetFormat::Dragnet => "dragnet",
            DatasetFormat::Big9 => "big9",
            DatasetFormat::Kreuzer => "kreuzer",
            DatasetFormat::Readability => "readability",
            DatasetFormat::Wcxb => "wcxb",
            DatasetFormat::Native => "native",
        }
    }
}

impl fmt::Display for DatasetFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DatasetFormat {
    type Err = EvalError;
    fn from_str(name: &str) -> Result<Self, EvalError> {
        DatasetFormat::ALL
            .into_iter()
            .find(|format| format.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| EvalError::UnknownFormat {
                name: name.to_string(),
            })
    }
}

/// A dataset to load: its format and where it lives, written `FORMAT:PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatasetSpec {
    /// The `FORMAT` part: which loader reads the set.
    pub format: DatasetFormat,
    /// The `PATH` part: the set's folder (for `native`, the manifest or its folder).
    pub path: PathBuf,
}

impl FromStr for DatasetSpec {
    type Err = EvalError;
    fn from_str(spec: &str) -> Result<Self, EvalError> {
        let (format, path) = spec
            .split_once(':')
            .filter(|(_, path)| !path.is_empty())
            .ok_or_else(|| EvalError::MalformedSpec {
                spec: spec.to_string(),
            })?;
        Ok(DatasetSpec {
            format: format.parse()?,
            path: PathBuf::from(path),
        })
    }
}

impl fmt::Display for DatasetSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.format, self.path.display())
    }
}

/// A loaded dataset: its pages in a fixed order (sorted by name, or the set's own order).
#[derive(Debug, Clone)]
pub struct Dataset {
    /// The format it was loaded as.
    pub format: DatasetFormat,
    /// The path from the spec.
    pub root: PathBuf,
    /// Every page of the set (both parts of the split), never empty.
    pub pages: Vec<LabelledPage>,
}

/// One page and its human labels.
#[derive(Debug, Clone)]
pub struct LabelledPage {
    /// Unique within the dataset, e.g. `dev-12`, `bbc/2005-apple-1`.
    pub name: String,
    /// The page as a detector sees it.
    pub html_path: PathBuf,
    /// The page's original address, when the set records it.
    pub url: Option<String>,
    /// Where the page's relative links resolve, relative to the page's folder (Kreuzer pages:
    /// their copied stylesheets live under it; see the dataset README).
    pub base_href: Option<String>,
    /// Pages of one site template, for multi-page sets: `site-year` in Big9 (a site's template
    /// changes between years), the portal in CleanPortalEval.
    pub site_group: Option<String>,
    /// The human labels, in the set's own form.
    pub gold: Gold,
    /// The page's part of the frozen development / test split.
    pub split: Split,
}

impl LabelledPage {
    /// The page's type as its set labels it: WCXB names each page `<type>/<id>`. `None` for
    /// sets without page types.
    pub fn labelled_type(&self) -> Option<PageType> {
        self.name
            .split_once('/')
            .and_then(|(kind, _)| PageType::from_name(kind))
    }
}

/// What people labelled on a page.
#[derive(Debug, Clone, PartialEq)]
pub enum Gold {
    /// The content as text (CleanEval, CleanPortalEval, Dragnet, Big9, native text gold); page
    /// words that do not align to it are template.
    MainText(MainText),
    /// The page's text blocks in document order, each with the class people gave it (L3S-GN1).
    TextBlocks(Vec<LabelledBlock>),
    /// Typed, nested blocks marked on the page itself (Kreuzer et al.).
    Blocks(BlockAnnotation),
    /// Elements marked `data-pagelevel="template"` or `"content"` on the page itself (native).
    MarkedElements {
        /// The HTML file carrying the marks (the page itself).
        annotated_path: PathBuf,
    },
}

/// Gold main text; comments are kept apart because they are content for template detection
/// but not part of the article for main-text extraction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MainText {
    /// The gold content text (the article, for Dragnet and Big9), trimmed; CleanEval structure
    /// markers removed.
    pub content: String,
    /// User comments, when the gold separates them (Dragnet's marker line, native
    /// `comments_text`); `None` when the set has no comments for the page.
    pub comments: Option<String>,
}

/// An L3S-GN1 text block; `class` is `None` for text the assessors did not select (which the
/// dataset defines as not content).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelledBlock {
    /// The block's text as it appears in the annotated page.
    pub text: String,
    /// The class of the innermost `x-nc-selN` element around the block.
    pub class: Option<L3sClass>,
}

/// Where a Kreuzer page's block labels are, and which block types it has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockAnnotation {
    /// The labelled DOM (for Kreuzer, the page itself).
    pub annotated_path: PathBuf,
    /// Count of each `data-block-type` on the page, from the set's `meta.json`.
    pub block_types: BTreeMap<String, usize>,
}

/// Loads the dataset `spec` names.
pub fn load_dataset(spec: &DatasetSpec) -> Result<Dataset, EvalError> {
    let root = spec.path.clone();
    let mut pages = match spec.format {
        DatasetFormat::L3sGn1 => l3s_gn1::load(&root)?,
        DatasetFormat::CleanEval => cleaneval::load_cleaneval(&root)?,
        DatasetFormat::CleanPortalEval => cleaneval::load_cleanportaleval(&root)?,
        DatasetFormat::Dragnet => dragnet::load(&root)?,
        DatasetFormat::Big9 => big9::load(&root)?,
        DatasetFormat::Kreuzer => kreuzer::load(&root)?,
        DatasetFormat::Readability => readability::load(&root)?,
        DatasetFormat::Wcxb => wcxb::load(&root)?,
        DatasetFormat::Native => native::load(&root)?,
    };
    split::assign(spec.format, &root, &mut pages)?;
    if pages.is_empty() {
        return Err(EvalError::NoPages {
            format: spec.format,
            path: root,
        });
    }
    Ok(Dataset {
        format: spec.format,
        root,
        pages,
    })
}

pub(crate) fn read_bytes(path: &Path) -> Result<Vec<u8>, EvalError> {
    std::fs::read(path).map_err(|source| EvalError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// A gold text file: by its BOM if any, else UTF-8 if valid, else windows-1252; line ends
/// normalised.
pub(crate) fn read_gold_text(path: &Path) -> Result<String, EvalError> {
    Ok(decode_gold_text(&read_bytes(path)?))
}

fn decode_gold_text(bytes: &[u8]) -> String {
    // A BOM decides (five Dragnet gold files are UTF-16LE with a BOM).
    if let Some((encoding, bom_length)) = Encoding::for_bom(bytes) {
        let text = encoding.decode_without_bom_handling(&bytes[bom_length..]).0;
        return text.replace("\r\n", "\n").replace('\r', "\n");
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => WINDOWS_1252
            .decode_without_bom_handling(bytes)
            .0
            .into_owned(),
    };
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// An annotated HTML file: BOM, else valid UTF-8, else the charset its `<meta>` declares in the
/// first 1024 bytes (the HTML prescan window), else windows-1252.
pub(crate) fn read_annotated_html(path: &Path) -> Result<String, EvalError> {
    let bytes = read_bytes(path)?;
    if let Some((encoding, bom_length)) = Encoding::for_bom(&bytes) {
        return Ok(encoding
            .decode_without_bom_handling(&bytes[bom_length..])
            .0
            .into_owned());
    }
    if let Ok(text) = std::str::from_utf8(&bytes) {
        return Ok(text.to_string());
    }
    let encoding = declared_charset(&bytes[..bytes.len().min(1024)]).unwrap_or(WINDOWS_1252);
    // A page declaring UTF-8 that is not valid UTF-8 is most often windows-1252 in practice.
    let encoding = if encoding == UTF_8 {
        WINDOWS_1252
    } else {
        encoding
    };
    Ok(encoding.decode_without_bom_handling(&bytes).0.into_owned())
}

/// The encoding named by `charset=` in `head` (a lenient form of the HTML meta prescan).
fn declared_charset(head: &[u8]) -> Option<&'static Encoding> {
    let lowered = head.to_ascii_lowercase();
    let at = lowered
        .windows(8)
        .position(|window| window == b"charset=")?
        + 8;
    let value = &lowered[at..];
    let value = value
        .strip_prefix(b"\"")
        .or_else(|| value.strip_prefix(b"'"))
        .unwrap_or(value);
    let end = value
        .iter()
        .position(|&byte| {
            matches!(byte, b'"' | b'\'' | b';' | b'>' | b'/') || byte.is_ascii_whitespace()
        })
        .unwrap_or(value.len());
    Encoding::for_label(&value[..end])
}

/// Files in `folder` whose names end in `extension`, sorted by name.
pub(crate) fn files_with_extension(
    folder: &Path,
    extension: &str,
) -> Result<Vec<PathBuf>, EvalError> {
    let entries = std::fs::read_dir(folder).map_err(|source| EvalError::Read {
        path: folder.to_path_buf(),
        source,
    })?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|source| EvalError::Read {
                path: folder.to_path_buf(),
                source,
            })?
            .path();
        if path.extension().is_some_and(|found| found == extension) && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// The file name of `path` without its last extension.
pub(crate) fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The subfolders of `root` for which `holds_a_page` is true, sorted; fails with
/// [`EvalError::NotADataset`] unless `root` is a folder.
pub(crate) fn subfolders(
    root: &Path,
    format: DatasetFormat,
    expected: &'static str,
    holds_a_page: impl Fn(&Path) -> bool,
) -> Result<Vec<PathBuf>, EvalError> {
    require_folder(root, format, expected)?;
    let entries = std::fs::read_dir(root).map_err(|source| EvalError::Read {
        path: root.to_path_buf(),
        source,
    })?;
    let mut folders: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| holds_a_page(path))
        .collect();
    folders.sort();
    Ok(folders)
}

/// The last component of `path` (a folder name keeps its dots, unlike [`file_stem`]).
pub(crate) fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Fails with [`EvalError::MissingGold`] unless `gold` (the gold file of `page`) exists, and
/// with [`EvalError::MissingPage`] unless `page` (found from its gold file) does.
pub(crate) fn require_pair(page: &Path, gold: &Path) -> Result<(), EvalError> {
    if !gold.is_file() {
        return Err(EvalError::MissingGold {
            page: page.to_path_buf(),
            gold: gold.to_path_buf(),
        });
    }
    if !page.is_file() {
        return Err(EvalError::MissingPage {
            gold: gold.to_path_buf(),
            page: page.to_path_buf(),
        });
    }
    Ok(())
}

/// Fails with [`EvalError::NotADataset`] unless `path` is an existing folder.
pub(crate) fn require_folder(
    path: &Path,
    format: DatasetFormat,
    expected: &'static str,
) -> Result<(), EvalError> {
    if path.is_dir() {
        Ok(())
    } else {
        Err(EvalError::NotADataset {
            format,
            path: path.to_path_buf(),
            expected,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_name_a_format_and_a_path() {
        let spec: DatasetSpec = "big9:/data/labeled/big9".parse().unwrap();
        assert_eq!(spec.format, DatasetFormat::Big9);
        assert_eq!(spec.path, PathBuf::from("/data/labeled/big9"));
        assert_eq!(spec.to_string(), "big9:/data/labeled/big9");
        let windows: DatasetSpec = "native:C:\\labels".parse().unwrap();
        assert_eq!(windows.path, PathBuf::from("C:\\labels"));
    }

    #[test]
    fn a_spec_without_a_known_format_or_a_path_is_refused_with_the_choices() {
        let unknown = "webis:/x".parse::<DatasetSpec>().unwrap_err().to_string();
        assert!(
            unknown.contains("webis") && unknown.contains("l3s-gn1"),
            "{unknown}"
        );
        assert!(matches!(
            "big9".parse::<DatasetSpec>(),
            Err(EvalError::MalformedSpec { .. })
        ));
        assert!(matches!(
            "big9:".parse::<DatasetSpec>(),
            Err(EvalError::MalformedSpec { .. })
        ));
    }

    #[test]
    fn gold_text_is_utf8_when_valid_and_windows_1252_otherwise() {
        assert_eq!(decode_gold_text(b"\xEF\xBB\xBFcaf\xC3\xA9\r\n"), "café\n");
        assert_eq!(decode_gold_text(b"it\x92s \x93quoted\x94"), "it’s “quoted”");
    }

    #[test]
    fn gold_text_with_a_utf16_bom_is_read_as_utf16() {
        assert_eq!(decode_gold_text(b"\xFF\xFEP\x00a\x00\r\x00\n\x00"), "Pa\n");
        assert_eq!(decode_gold_text(b"\xFE\xFF\x00P\x00a"), "Pa");
    }

    #[test]
    fn declared_charsets_are_found_in_either_meta_form() {
        let http_equiv =
            br#"<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">"#;
        assert_eq!(declared_charset(http_equiv), Some(encoding_rs::SHIFT_JIS));
        assert_eq!(
            declared_charset(br#"<meta charset='koi8-r'/>"#),
            Some(encoding_rs::KOI8_R)
        );
        assert_eq!(declared_charset(b"<p>no declaration</p>"), None);
    }
}
