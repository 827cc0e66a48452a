//! The frozen development / test split of the shared labelled sets. Every choice (thresholds,
//! features, weights, main-text rules) is made on development pages; test pages are reported
//! once per change and never tuned on. The split is a pure function of the set and the page
//! name, so it cannot drift (training/reports/split/README.md gives the reasons):
//!
//! - Dragnet: its own `split.tsv` (the `test` rows are test pages);
//! - CleanEval: the `final-*` pages (the shared task's final evaluation set);
//! - L3S-GN1, Kreuzer and Readability (no split of their own): every page whose name's FNV-1a
//!   hash is divisible by 3, about a third;
//! - WCXB (its development split; the benchmark's own test pages are not shared): every page
//!   whose domain's FNV-1a hash is divisible by 3, so that no site is on both sides (the host of
//!   the page's URL without `www.`; a page without a URL is development);
//! - CleanPortalEval, Big9 (whose pages the shipped model trains on) and native sets: all
//!   development.

use std::path::Path;
use std::str::FromStr;

use super::{DatasetFormat, LabelledPage, read_gold_text};
use crate::eval::EvalError;

/// Which part of the frozen split a page is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Split {
    /// Development: choices may be tuned on it.
    Dev,
    /// Frozen test: reported, never tuned on.
    Test,
}

/// Which pages an evaluation runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SplitChoice {
    /// Development pages only: where choices are made.
    #[default]
    Dev,
    /// The frozen test pages: reported once per change, never tuned on.
    Test,
    /// Every page, whatever its part.
    All,
}

impl SplitChoice {
    /// Whether a page in `split` is evaluated under this choice.
    pub fn keeps(self, split: Split) -> bool {
        match self {
            SplitChoice::Dev => split == Split::Dev,
            SplitChoice::Test => split == Split::Test,
            SplitChoice::All => true,
        }
    }
}

impl FromStr for SplitChoice {
    type Err = String;
    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "dev" => Ok(SplitChoice::Dev),
            "test" => Ok(SplitChoice::Test),
            "all" => Ok(SplitChoice::All),
            _ => Err(format!("unknown split `{name}`; use dev, test or all")),
        }
    }
}

/// Puts every page of a loaded set in its part of the split.
pub(super) fn assign(
    format: DatasetFormat,
    root: &Path,
    pages: &mut [LabelledPage],
) -> Result<(), EvalError> {
    let dragnet_test: Vec<String> = if format == DatasetFormat::Dragnet {
        dragnet_test_pages(root)?
    } else {
        Vec::new()
    };
    for page in pages {
        page.split = match format {
            DatasetFormat::Dragnet if dragnet_test.contains(&page.name) => Split::Test,
            DatasetFormat::CleanEval if page.name.starts_with("final") => Split::Test,
            DatasetFormat::L3sGn1 | DatasetFormat::Kreuzer | DatasetFormat::Readability
                if fnv1a(&page.name).is_multiple_of(3) =>
            {
                Split::Test
            }
            DatasetFormat::Wcxb
                if page_domain(page).is_some_and(|domain| fnv1a(&domain).is_multiple_of(3)) =>
            {
                Split::Test
            }
            _ => Split::Dev,
        };
    }
    Ok(())
}

/// Names of Dragnet's test pages from `split.tsv` (`name<TAB>split`); none without the file.
fn dragnet_test_pages(root: &Path) -> Result<Vec<String>, EvalError> {
    let path = root.join("split.tsv");
    if !path.is_file() {
        return Ok(Vec::new());
    }
    Ok(read_gold_text(&path)?
        .lines()
        .filter_map(|line| line.split_once('\t'))
        .filter(|(_, split)| split.trim() == "test")
        .map(|(name, _)| name.trim().to_string())
        .collect())
}

/// The host of a page's URL without a leading `www.`.
fn page_domain(page: &LabelledPage) -> Option<String> {
    let url = url::Url::parse(page.url.as_deref()?).ok()?;
    let host = url.host_str()?.to_ascii_lowercase();
    Some(host.strip_prefix("www.").unwrap_or(&host).to_string())
}

/// 64-bit FNV-1a: a fixed, documented hash (std's hasher may change between releases).
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_hash_is_fnv1a() {
        assert_eq!(fnv1a(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a("a"), 0xaf63_dc4c_8601_ec8c);
    }
}
