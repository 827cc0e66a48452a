//! Labelling a site's pages for training from Python (`pagelevel.label_site`), so a crawl can
//! be labelled where it lies — one host per Spark task in `spark/label_hosts.py` — and fitted
//! with `pagelevel train --rows`. The rows are those `train --rows-out` writes for the same
//! pages: the sample, the site-level labels and the features come from the same library calls.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use pagelevel::page::PageSource;
use pagelevel::render::{DEFAULT_LAYOUT_MEMORY_MIB, RenderOptions};
use pagelevel::sitelevel::Method;
use pagelevel::train::{self, Silent, SitePages, TrainOptions, row_columns, site_rows};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use url::Url;

use crate::LayoutChoice;
use crate::stylesheets::Stylesheet;

create_exception!(
    pagelevel,
    SiteError,
    PyValueError,
    "A site that cannot be labelled: fewer usable pages than min_pages, or the site-level \
     detector failed. The message is the command line's."
);

/// One page as `label_site` takes it: (url, bytes as served, HTTP charset or None).
type ServedPage = (String, Vec<u8>, Option<String>);

/// The training rows of one host's pages: a seeded sample of `max_pages` of them (the same
/// sample whichever other hosts a job sees), laid out, labelled by the site-level detector and
/// turned into one tuple per classified node, in `TRAINING_COLUMNS` order. With `sampled`, the
/// pages are already the host's sample, in `host_sample`'s order, and are labelled as given.
/// `stylesheets` (`{absolute URL: css}`, a host's archived CSS) style every page that links them.
#[pyfunction]
#[pyo3(signature = (
    pages, *, host, name = None, layout = "native", max_pages = 200, min_pages = 10,
    theta = 0.1, labeler = "frequency", seed = 7, chromium = None, sampled = false,
    stylesheets = None,
))]
#[allow(clippy::too_many_arguments)]
pub fn label_site(
    py: Python<'_>,
    pages: Vec<ServedPage>,
    host: String,
    name: Option<String>,
    layout: &str,
    max_pages: usize,
    min_pages: usize,
    theta: f64,
    labeler: &str,
    seed: u64,
    chromium: Option<PathBuf>,
    sampled: bool,
    stylesheets: Option<HashMap<String, Stylesheet>>,
) -> PyResult<Vec<Py<PyTuple>>> {
    let stylesheets = crate::stylesheets::archived(stylesheets)?;
    let layout = LayoutChoice::parse(layout)?;
    let labeler: Method =
        labeler
            .parse()
            .map_err(|error: pagelevel::sitelevel::SiteLevelError| {
                PyValueError::new_err(error.to_string())
            })?;
    if !(theta > 0.0 && theta <= 1.0) {
        return Err(PyValueError::new_err(format!(
            "theta must be in (0, 1], got {theta}"
        )));
    }
    let options = TrainOptions {
        max_pages,
        min_pages,
        theta,
        labeler,
        seed,
        ..TrainOptions::default()
    };
    let mut sources = Vec::with_capacity(pages.len());
    for (url, bytes, charset) in pages {
        let parsed = Url::parse(&url)
            .map_err(|error| PyValueError::new_err(format!("bad URL {url:?}: {error}")))?;
        let source = PageSource::from_bytes(bytes, Some(parsed), charset);
        sources.push(match &stylesheets {
            Some(sheets) => source.with_stylesheets(Arc::clone(sheets)),
            None => source,
        });
    }
    let name = name.unwrap_or_else(|| host.clone());
    let site = if sampled {
        if sources.len() > max_pages {
            return Err(PyValueError::new_err(format!(
                "a sample of {} pages is larger than max_pages {max_pages}",
                sources.len()
            )));
        }
        SitePages {
            name,
            sources,
            unreadable: Vec::new(),
        }
    } else {
        train::host_site(name, &host, sources, &options)
    };
    let labelled = py.detach(|| -> PyResult<_> {
        let render = RenderOptions {
            chromium,
            ..RenderOptions::default()
        };
        let mut engine = layout.layout_source(render, DEFAULT_LAYOUT_MEMORY_MIB)?;
        train::label_site(engine.as_mut(), &site, &options, &mut Silent)
            .map_err(|error| SiteError::new_err(error.to_string()))
    })?;
    site_rows(&labelled, layout.engine())
        .map(|row| {
            let leading = (
                row.site,
                row.domain,
                row.layout.name(),
                row.page,
                row.node.area,
                row.node.template,
            );
            let leading = leading.into_pyobject(py)?;
            let features = PyTuple::new(py, row.node.row)?;
            Ok(leading
                .as_sequence()
                .concat(features.as_sequence())?
                .to_tuple()?
                .unbind())
        })
        .collect()
}

/// The sample `label_site` draws from a host's `count` pages (in archive order): the indices of
/// the pages kept, in sample order. Only the count is needed, so a crawl job can pick a host's
/// pages before it reads their bodies, then label them with `label_site(..., sampled=True)`.
#[pyfunction]
#[pyo3(signature = (count, *, host, max_pages = 200, seed = 7))]
pub fn host_sample(count: usize, host: &str, max_pages: usize, seed: u64) -> Vec<usize> {
    let options = TrainOptions {
        max_pages,
        seed,
        ..TrainOptions::default()
    };
    train::host_sample(host, count, &options)
}

/// Adds `label_site`, `host_sample`, `SiteError` and `TRAINING_COLUMNS` to the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(label_site, module)?)?;
    module.add_function(wrap_pyfunction!(host_sample, module)?)?;
    module.add("SiteError", module.py().get_type::<SiteError>())?;
    module.add("TRAINING_COLUMNS", row_columns())?;
    Ok(())
}
