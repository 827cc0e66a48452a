//! Stylesheets a Python caller holds for a page (a crawl's CSS responses, by absolute URL):
//! the `stylesheets=` argument of the scoring methods and of `label_site`, and
//! `linked_stylesheets`, which names the sheets a page links so a crawl job can look them up.

use std::collections::HashMap;
use std::sync::Arc;

use pagelevel::page::{
    ArchivedStylesheets, MAX_ARCHIVED_STYLESHEET_BYTES, Page, ParseLimits, linked_stylesheet_urls,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use url::Url;

/// CSS as Python gives it: bytes as served, or text.
#[derive(FromPyObject)]
pub(crate) enum Css {
    Bytes(Vec<u8>),
    Text(String),
}

impl Css {
    fn into_bytes(self) -> Vec<u8> {
        match self {
            Css::Bytes(bytes) => bytes,
            Css::Text(text) => text.into_bytes(),
        }
    }
}

/// One stylesheet: its CSS, or (CSS, the `Content-Type` it was served with).
#[derive(FromPyObject)]
pub(crate) enum Stylesheet {
    Typed(Css, Option<String>),
    Plain(Css),
}

/// `{absolute URL: stylesheet}` as the library's map, shared by the pages it is given with.
pub(crate) fn archived(
    stylesheets: Option<HashMap<String, Stylesheet>>,
) -> PyResult<Option<Arc<ArchivedStylesheets>>> {
    let Some(stylesheets) = stylesheets else {
        return Ok(None);
    };
    let mut archived = ArchivedStylesheets::new();
    // Sorted, so which sheets fit under the bound does not depend on the dict's order.
    let mut entries: Vec<(String, Stylesheet)> = stylesheets.into_iter().collect();
    entries.sort_by(|one, other| one.0.cmp(&other.0));
    for (url, sheet) in entries {
        let parsed = Url::parse(&url).map_err(|error| {
            PyValueError::new_err(format!("bad stylesheet URL {url:?}: {error}"))
        })?;
        let (css, content_type) = match sheet {
            Stylesheet::Typed(css, content_type) => (css.into_bytes(), content_type),
            Stylesheet::Plain(css) => (css.into_bytes(), None),
        };
        let bytes = css.len();
        if !archived.insert(&parsed, css, content_type)
            && archived.bytes() + bytes > MAX_ARCHIVED_STYLESHEET_BYTES
        {
            return Err(PyValueError::new_err(format!(
                "the stylesheets hold more than {} MiB of CSS: give a page (or a host) only \
                 the sheets it links",
                MAX_ARCHIVED_STYLESHEET_BYTES >> 20
            )));
        }
    }
    Ok(Some(Arc::new(archived)))
}

/// The absolute URLs of the stylesheets a page links (`<link rel=stylesheet>`, in document
/// order, each once), resolved against its `<base href>`, else `url`; sheets they `@import`
/// are not listed. Empty for a page that cannot be parsed.
#[pyfunction]
#[pyo3(signature = (html, url, *, charset = None))]
pub fn linked_stylesheets(
    html: Vec<u8>,
    url: &str,
    charset: Option<String>,
) -> PyResult<Vec<String>> {
    let url = Url::parse(url)
        .map_err(|error| PyValueError::new_err(format!("bad URL {url:?}: {error}")))?;
    let Ok(page) = Page::parse(
        &html,
        Some(url),
        charset.as_deref(),
        &ParseLimits::default(),
    ) else {
        return Ok(Vec::new());
    };
    Ok(linked_stylesheet_urls(&page)
        .into_iter()
        .map(String::from)
        .collect())
}
