//! Site-level template detection: the field's detectors that find a site's template by comparing
//! several of its pages. They label training data (instead of, or beside, SiteLevel) and serve as
//! baselines in evaluation; each method is one file citing its paper:
//!
//! - [`frequency`]: SiteLevel(θ) of Gibson et al. (2005) as used by Chakrabarti et al. (WWW 2007,
//!   Sections 3 and 5.1): subtrees whose normalized content occurs on at least θ of the pages.
//! - [`pagelets`]: Bar-Yossef & Rajagopalan (WWW 2002): link-defined pagelets whose shingles
//!   repeat across pages (local algorithm; the global one also asks for linked owner pages).
//! - [`rtdm`]: Vieira et al. (CIKM 2006): RTDM-TD restricted top-down tree mapping.
//! - [`msa`]: Geraci & Maggini (KDIR 2011): multiple alignment of token sequences.
//! - [`sample`]: Alarte et al. (2015): choose the pages to detect a template from, by finding a
//!   complete subdigraph among the key page's links.
//!
//! Every detector implements [`SiteTemplateDetector`]: pages of one site in, one
//! [`TemplateMarks`] per page out, in the same order. Marks are per element; an element's *own*
//! text (its direct text children) is template text when the element is marked, so the text
//! helpers on [`TemplateMarks`] give the same split for every method.

pub mod frequency;
pub mod msa;
pub mod pagelets;
pub mod rtdm;
pub mod sample;

mod marks;
mod site;
mod subtree;
#[cfg(test)]
mod tests;

pub use marks::{SiteSummary, TemplateMarks};
pub use site::{LoadedSite, PageFailure, SitePage, html_files, load_site};

use thiserror::Error;

use crate::page::Page;

/// A detector that finds the template shared by the pages of one site.
pub trait SiteTemplateDetector {
    /// The method's short name, as the CLI spells it (`frequency`, `pagelets`, `rtdm`, `msa`).
    fn name(&self) -> &'static str;

    /// Marks the template elements of every page; the result has one entry per page, in order.
    /// Pages must come from one site (one template); the order of `pages` never changes the
    /// result except where a method samples pages, and then only through its seed.
    fn detect(&self, pages: &[Page]) -> Result<Vec<TemplateMarks>, SiteLevelError>;
}

/// The site-level methods, for choosing one by name (CLI `--method`, `train --labeler`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// SiteLevel(θ) (Gibson et al. 2005): subtrees repeated on at least θ of the pages.
    Frequency,
    /// Bar-Yossef & Rajagopalan (WWW 2002): pagelets whose shingles repeat across pages.
    Pagelets,
    /// Vieira et al. (CIKM 2006): RTDM-TD top-down tree mapping.
    Rtdm,
    /// Geraci & Maggini (KDIR 2011): multiple alignment of token sequences.
    Msa,
}

impl Method {
    /// Every method, in the order they are documented.
    pub const ALL: [Method; 4] = [
        Method::Frequency,
        Method::Pagelets,
        Method::Rtdm,
        Method::Msa,
    ];

    /// The method's name as the CLI spells it.
    pub fn name(self) -> &'static str {
        match self {
            Method::Frequency => "frequency",
            Method::Pagelets => "pagelets",
            Method::Rtdm => "rtdm",
            Method::Msa => "msa",
        }
    }

    /// The detector with the paper's default parameters.
    pub fn detector(self) -> Box<dyn SiteTemplateDetector + Send + Sync> {
        match self {
            Method::Frequency => Box::new(frequency::Frequency::default()),
            Method::Pagelets => Box::new(pagelets::Pagelets::default()),
            Method::Rtdm => Box::new(rtdm::Rtdm::default()),
            Method::Msa => Box::new(msa::Msa::default()),
        }
    }
}

impl std::str::FromStr for Method {
    type Err = SiteLevelError;

    fn from_str(name: &str) -> Result<Method, SiteLevelError> {
        Method::ALL
            .into_iter()
            .find(|method| method.name() == name)
            .ok_or_else(|| SiteLevelError::UnknownMethod(name.to_owned()))
    }
}

/// Why site-level detection or loading a site failed.
#[derive(Debug, Error)]
pub enum SiteLevelError {
    /// A method was given fewer pages than it needs to see anything repeat.
    #[error("{method} needs at least {needed} pages of a site, got {got}")]
    TooFewPages {
        /// The method's name ([`SiteTemplateDetector::name`]).
        method: &'static str,
        /// The fewest pages it works with.
        needed: usize,
        /// How many it was given.
        got: usize,
    },
    /// A method name (CLI `--method`, `--labeler`) names no [`Method`]; holds the name given.
    #[error("unknown site-level method {0:?} (use frequency, pagelets, rtdm or msa)")]
    UnknownMethod(String),
    /// A detector's parameter is out of its range (e.g. θ outside (0, 1]); holds which and why.
    #[error("invalid parameter: {0}")]
    InvalidParameter(String),
    /// The site directory does not exist, is not a directory, or could not be listed.
    #[error("cannot read the site directory {path}: {source}")]
    SiteUnreadable {
        /// The site directory.
        path: std::path::PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The site directory holds no HTML file; holds the directory.
    #[error("{0} holds no HTML pages (files ending .html, .htm or .xhtml, or those with .gz)")]
    NoHtmlPages(std::path::PathBuf),
    /// Every HTML file of the site failed to read or parse.
    #[error("no page of {path} could be parsed (first failure: {first})")]
    NoParsablePages {
        /// The site directory.
        path: std::path::PathBuf,
        /// The first file's failure, `path: reason`.
        first: String,
    },
}

/// Fails with [`SiteLevelError::TooFewPages`] unless there are at least `needed` pages.
fn require_pages(
    method: &'static str,
    pages: &[Page],
    needed: usize,
) -> Result<(), SiteLevelError> {
    if pages.len() < needed {
        return Err(SiteLevelError::TooFewPages {
            method,
            needed,
            got: pages.len(),
        });
    }
    Ok(())
}

/// Pages made of the given `<body>` contents, for the detectors' unit tests.
#[cfg(test)]
pub(crate) fn test_site(bodies: &[&str]) -> Vec<Page> {
    bodies
        .iter()
        .map(|body| {
            let html = format!("<html><body>{body}</body></html>");
            Page::parse(html.as_bytes(), None, None, &Default::default()).expect("test page")
        })
        .collect()
}
