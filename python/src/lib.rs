//! The Rust half of the `pagelevel` Python package (`pagelevel._pagelevel`): a `Scorer` class
//! over the library's [`pipeline::Scorer`], and the exception pages fail with. The Python half
//! (`pagelevel/__init__.py`) adds the one-call functions.
//!
//! A library scorer is `Send` but not `Sync`: it owns a layout source (Chromium, or Blitz's
//! state). So one Python `Scorer` keeps a pool of them, takes one per call and gives it back,
//! and scores with the GIL released: as many threads score at once as call at once, each on
//! its own library scorer, and a pool never holds more scorers than calls ever overlapped.

mod stylesheets;
mod training;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use pagelevel::layout::{LayoutEngine, LayoutSource};
use pagelevel::markdown::MarkdownOptions;
use pagelevel::model::TemplateModel;
use pagelevel::output::{main_markdown, page_line, page_output};
use pagelevel::page::{ArchivedStylesheets, PageSource, ParseLimits};
use pagelevel::params::{NodeWeight, ScoringParams, ValidParams};
use pagelevel::pipeline::{self, ScoreError, ScoredPage};
use pagelevel::render::{
    DEFAULT_LAYOUT_MEMORY_MIB, LAYOUT_MEMORY_MIB_RANGE, NativeLayout, RenderOptions, Renderer,
};
use pagelevel::smooth::{Algorithm, Penalty, PenaltyScheme};
use pyo3::create_exception;
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError, PyRuntimeError,
    PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use stylesheets::Stylesheet;
use url::Url;

create_exception!(
    pagelevel,
    PageError,
    PyValueError,
    "A page that cannot be scored: empty, binary, beyond the size limits, or its layout failed. \
     The message is the command line's."
);

/// A page as Python passes it: text (already decoded) or the bytes as served or saved.
#[derive(FromPyObject)]
enum Html<'py> {
    Text(String),
    Bytes(Bound<'py, PyBytes>),
}

/// Which engine lays pages out, as the `layout` argument names it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum LayoutChoice {
    Native,
    Chromium,
}

impl LayoutChoice {
    pub(crate) fn parse(name: &str) -> PyResult<LayoutChoice> {
        match name {
            "native" => Ok(LayoutChoice::Native),
            "chromium" => Ok(LayoutChoice::Chromium),
            other => Err(PyValueError::new_err(format!(
                "layout must be \"native\" or \"chromium\", got {other:?}"
            ))),
        }
    }

    pub(crate) fn engine(self) -> LayoutEngine {
        match self {
            LayoutChoice::Native => LayoutEngine::Native,
            LayoutChoice::Chromium => LayoutEngine::Chromium,
        }
    }

    /// A new engine of this kind; Chromium is started with `render`'s options, the native
    /// engine holds each layout to `layout_memory_mib`.
    pub(crate) fn layout_source(
        self,
        render: RenderOptions,
        layout_memory_mib: u64,
    ) -> PyResult<Box<dyn LayoutSource>> {
        Ok(match self {
            LayoutChoice::Native => {
                Box::new(NativeLayout::default().with_memory_budget(layout_memory_mib))
            }
            LayoutChoice::Chromium => Box::new(
                Renderer::new(render)
                    .map_err(|error| PyRuntimeError::new_err(error.to_string()))?,
            ),
        })
    }
}

/// What every library scorer of one pool is made from.
struct Recipe {
    model: TemplateModel,
    layout: LayoutChoice,
    render: RenderOptions,
    layout_memory_mib: u64,
    params: ValidParams,
}

impl Recipe {
    fn scorer(&self) -> PyResult<pipeline::Scorer> {
        let layout = self
            .layout
            .layout_source(self.render.clone(), self.layout_memory_mib)?;
        let scorer = pipeline::Scorer::new(self.model.clone(), layout, self.params.clone());
        Ok(scorer.with_limits(self.render.limits))
    }
}

/// Scores pages with one model and one layout engine, reusing its engines across calls.
///
/// Safe to share between threads: each call scores with the GIL released on an engine of its
/// own, so two threads score two pages at once.
#[pyclass(module = "pagelevel", frozen, subclass)]
struct Scorer {
    recipe: Recipe,
    /// Library scorers not in use; a call takes one (or makes one) and gives it back.
    idle: Mutex<Vec<pipeline::Scorer>>,
}

#[pymethods]
impl Scorer {
    #[new]
    #[pyo3(signature = (
        model = None, layout = "native", *, threshold = None, penalty_scale = None,
        penalty = "area", weight = "sqrt-area", smooth = true, content_floor = true,
        chromium = None, max_bytes = None, max_elements = None, max_depth = None,
        max_layout_memory = None, force = false,
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        model: Option<PathBuf>,
        layout: &str,
        threshold: Option<f64>,
        penalty_scale: Option<f64>,
        penalty: &str,
        weight: &str,
        smooth: bool,
        content_floor: bool,
        chromium: Option<PathBuf>,
        max_bytes: Option<usize>,
        max_elements: Option<usize>,
        max_depth: Option<u32>,
        max_layout_memory: Option<u64>,
        force: bool,
    ) -> PyResult<Scorer> {
        let layout = LayoutChoice::parse(layout)?;
        let defaults = ScoringParams::default();
        let params = ScoringParams {
            threshold: threshold.unwrap_or(defaults.threshold),
            penalty: Penalty {
                scheme: penalty_scheme(penalty)?,
                scale: penalty_scale.unwrap_or(defaults.penalty.scale),
            },
            weight: node_weight(weight)?,
            smooth,
            content_floor,
            algorithm: Algorithm::Fast,
            ..defaults
        }
        .check()
        .map_err(|error| PyValueError::new_err(error.to_string()))?;
        let limits = ParseLimits::default();
        let limits = ParseLimits {
            max_bytes: max_bytes.unwrap_or(limits.max_bytes),
            max_elements: max_elements.unwrap_or(limits.max_elements),
            max_depth: max_depth.unwrap_or(limits.max_depth),
        };
        let recipe = Recipe {
            model: load_model(model, layout.engine(), force)?,
            layout,
            render: RenderOptions {
                chromium,
                limits,
                ..RenderOptions::default()
            },
            layout_memory_mib: layout_memory_mib(max_layout_memory)?,
            params,
        };
        // One scorer now, so a missing Chromium is the constructor's error, not a page's.
        let first = recipe.scorer()?;
        Ok(Scorer {
            recipe,
            idle: Mutex::new(vec![first]),
        })
    }

    /// Everything about a page, as `pagelevel score --format json` writes it (a JSON string;
    /// `pagelevel.Scorer.score` parses it).
    #[pyo3(signature = (html = None, url = None, *, path = None, web_root = None, charset = None, stylesheets = None))]
    fn score_json(
        &self,
        py: Python<'_>,
        html: Option<Html<'_>>,
        url: Option<&str>,
        path: Option<PathBuf>,
        web_root: Option<PathBuf>,
        charset: Option<String>,
        stylesheets: Option<HashMap<String, Stylesheet>>,
    ) -> PyResult<String> {
        self.score_with(
            py,
            PageInput::new(html, url, path, web_root, charset, stylesheets)?,
            |scored| {
                serde_json::to_string(&page_output(&scored, MarkdownOptions::default()))
                    .unwrap_or_default()
            },
        )
    }

    /// A page's line as `pagelevel score --format jsonl` writes it: everything but the nodes
    /// (a JSON string; `pagelevel.Scorer.score(..., nodes=False)` parses it).
    #[pyo3(signature = (html = None, url = None, *, path = None, web_root = None, charset = None, stylesheets = None))]
    fn line_json(
        &self,
        py: Python<'_>,
        html: Option<Html<'_>>,
        url: Option<&str>,
        path: Option<PathBuf>,
        web_root: Option<PathBuf>,
        charset: Option<String>,
        stylesheets: Option<HashMap<String, Stylesheet>>,
    ) -> PyResult<String> {
        self.score_with(
            py,
            PageInput::new(html, url, path, web_root, charset, stylesheets)?,
            |scored| {
                serde_json::to_string(&page_line(&scored, MarkdownOptions::default()))
                    .unwrap_or_default()
            },
        )
    }

    /// The main text: the article or main body, headed by its headline, without comments.
    #[pyo3(signature = (html = None, url = None, *, path = None, web_root = None, charset = None, stylesheets = None))]
    fn extract(
        &self,
        py: Python<'_>,
        html: Option<Html<'_>>,
        url: Option<&str>,
        path: Option<PathBuf>,
        web_root: Option<PathBuf>,
        charset: Option<String>,
        stylesheets: Option<HashMap<String, Stylesheet>>,
    ) -> PyResult<String> {
        self.score_with(
            py,
            PageInput::new(html, url, path, web_root, charset, stylesheets)?,
            |scored| scored.extracted.main_text,
        )
    }

    /// The main text as Markdown (headings, lists, tables, quotes, code, emphasis), with link
    /// targets and pictures when asked.
    #[pyo3(signature = (html = None, url = None, *, path = None, web_root = None, charset = None, stylesheets = None, links = false, images = false))]
    #[allow(clippy::too_many_arguments)]
    fn markdown(
        &self,
        py: Python<'_>,
        html: Option<Html<'_>>,
        url: Option<&str>,
        path: Option<PathBuf>,
        web_root: Option<PathBuf>,
        charset: Option<String>,
        stylesheets: Option<HashMap<String, Stylesheet>>,
        links: bool,
        images: bool,
    ) -> PyResult<String> {
        let options = MarkdownOptions { links, images };
        self.score_with(
            py,
            PageInput::new(html, url, path, web_root, charset, stylesheets)?,
            |scored| main_markdown(&scored, options),
        )
    }

    /// The content text: all visible text not marked template.
    #[pyo3(signature = (html = None, url = None, *, path = None, web_root = None, charset = None, stylesheets = None))]
    fn content(
        &self,
        py: Python<'_>,
        html: Option<Html<'_>>,
        url: Option<&str>,
        path: Option<PathBuf>,
        web_root: Option<PathBuf>,
        charset: Option<String>,
        stylesheets: Option<HashMap<String, Stylesheet>>,
    ) -> PyResult<String> {
        self.score_with(
            py,
            PageInput::new(html, url, path, web_root, charset, stylesheets)?,
            |scored| scored.segmented.content_text,
        )
    }

    /// The layout engine's name: "native" or "chromium".
    #[getter]
    fn layout(&self) -> &'static str {
        self.recipe.layout.engine().name()
    }

    /// The configured threshold (a page may apply a lower one: see `threshold` in `score`).
    #[getter]
    fn threshold(&self) -> f64 {
        self.recipe.params.threshold
    }
}

impl Scorer {
    /// Scores one page with the GIL released and reads what `read` wants from it, there too.
    fn score_with<T: Send>(
        &self,
        py: Python<'_>,
        page: PageInput,
        read: impl FnOnce(ScoredPage) -> T + Send,
    ) -> PyResult<T> {
        let mut scorer = match self.take_idle() {
            Some(scorer) => scorer,
            None => self.recipe.scorer()?,
        };
        let result = py.detach(|| {
            let source = page.source()?;
            let scored = scorer.score(&source).map_err(Failure::Score)?;
            Ok(read(scored))
        });
        // A page's failure leaves its scorer usable (the pipeline's contract): it goes back.
        self.idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(scorer);
        result.map_err(Failure::into_py_err)
    }

    fn take_idle(&self) -> Option<pipeline::Scorer> {
        self.idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .pop()
    }
}

/// The page of one call, taken from its arguments while the GIL is held; a file is read
/// after the GIL is released.
enum PageInput {
    Ready(PageSource),
    File {
        path: PathBuf,
        web_root: Option<PathBuf>,
        url: Option<Url>,
        charset: Option<String>,
        stylesheets: Option<Arc<ArchivedStylesheets>>,
    },
}

impl PageInput {
    /// Text or bytes (with an optional URL), or a file; `charset` is the encoding the bytes
    /// were served with (an HTTP `Content-Type` charset, as a WARC record or a crawler has
    /// it), which wins over the page's own `<meta charset>` as in a browser; `stylesheets`
    /// (`{absolute URL: css}`) are what its stylesheet links and `@import`s load. A file's
    /// web root (default: its directory) is the folder its root-relative URLs (`/css/a.css`)
    /// are read from.
    fn new(
        html: Option<Html<'_>>,
        url: Option<&str>,
        path: Option<PathBuf>,
        web_root: Option<PathBuf>,
        charset: Option<String>,
        stylesheets: Option<HashMap<String, Stylesheet>>,
    ) -> PyResult<PageInput> {
        let stylesheets = stylesheets::archived(stylesheets)?;
        if let Some(name) = &charset
            && pagelevel::page::charset_name(name).is_none()
        {
            return Err(PyValueError::new_err(format!(
                "charset {name:?} is not an encoding name a browser knows"
            )));
        }
        let url = url
            .map(|url| {
                Url::parse(url)
                    .map_err(|error| PyValueError::new_err(format!("bad URL {url:?}: {error}")))
            })
            .transpose()?;
        if web_root.is_some() && path.is_none() {
            let message = "web_root= applies to a page given as path=";
            return Err(PyValueError::new_err(message));
        }
        let source = match (html, path) {
            (None, Some(path)) => {
                return Ok(PageInput::File {
                    path,
                    web_root,
                    url,
                    charset,
                    stylesheets,
                });
            }
            (Some(Html::Text(_)), None) if charset.is_some() => {
                let message = "charset= applies to bytes: a str is decoded already";
                return Err(PyValueError::new_err(message));
            }
            // Python text is decoded already: its UTF-8 bytes are read as UTF-8 whatever the
            // page's <meta charset> says.
            (Some(Html::Text(text)), None) => {
                PageSource::from_bytes(text.into_bytes(), url, Some("utf-8".to_string()))
            }
            (Some(Html::Bytes(bytes)), None) => {
                PageSource::from_bytes(bytes.as_bytes().to_vec(), url, charset)
            }
            (Some(_), Some(_)) => {
                let message = "give the page either as html or as path=, not both";
                return Err(PyValueError::new_err(message));
            }
            (None, None) => {
                let message = "no page: give its html (str or bytes) or path=";
                return Err(PyValueError::new_err(message));
            }
        };
        Ok(PageInput::Ready(match stylesheets {
            Some(sheets) => source.with_stylesheets(sheets),
            None => source,
        }))
    }

    /// The page's source; a file's web root (its directory unless given) is where its local
    /// CSS loads from.
    fn source(self) -> Result<PageSource, Failure> {
        let (path, web_root, url, charset, stylesheets) = match self {
            PageInput::Ready(source) => return Ok(source),
            PageInput::File {
                path,
                web_root,
                url,
                charset,
                stylesheets,
            } => (path, web_root, url, charset, stylesheets),
        };
        let mut source = match PageSource::from_file(&path, web_root.as_deref()) {
            Ok(source) => source,
            // The file reads but the root does not: name the root.
            Err(cause) if path.is_file() && web_root.is_some() => {
                let path = web_root.unwrap_or_default();
                return Err(Failure::Read { path, cause });
            }
            Err(cause) => return Err(Failure::Read { path, cause }),
        };
        if url.is_some() {
            source.url = url;
        }
        if charset.is_some() {
            source.http_charset = charset;
        }
        source.stylesheets = stylesheets;
        Ok(source)
    }
}

/// Why a call failed while the GIL was released.
enum Failure {
    Read {
        path: PathBuf,
        cause: std::io::Error,
    },
    Score(ScoreError),
}

impl Failure {
    fn into_py_err(self) -> PyErr {
        match self {
            Failure::Read { path, cause } => read_error(&path, cause),
            Failure::Score(error) => PageError::new_err(error.to_string()),
        }
    }
}

/// An unreadable file as the command line words it, with the matching `OSError` subclass.
fn read_error(path: &std::path::Path, error: std::io::Error) -> PyErr {
    let message = format!("cannot read {}: {error}", path.display());
    match error.kind() {
        std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(message),
        std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(message),
        std::io::ErrorKind::IsADirectory => PyIsADirectoryError::new_err(message),
        _ => PyOSError::new_err(message),
    }
}

/// The named model, or the one shipped for `engine`; another engine's model only when forced
/// (its coefficients were fitted to other boxes), as `pagelevel score --model` rules.
fn load_model(path: Option<PathBuf>, engine: LayoutEngine, force: bool) -> PyResult<TemplateModel> {
    let model = match &path {
        Some(path) => TemplateModel::load(path),
        None => TemplateModel::builtin_for(engine),
    }
    .map_err(|error| PyValueError::new_err(error.to_string()))?;
    if let (Some(path), false) = (&path, model.layout_engine == engine || force) {
        return Err(PyValueError::new_err(format!(
            "{} was trained on {} layouts; layout=\"{}\" gives boxes its coefficients were not \
             fitted to (use a model trained on {} layouts, or force=True)",
            path.display(),
            model.layout_engine.name(),
            engine.name(),
            engine.name()
        )));
    }
    Ok(model)
}

/// `max_layout_memory` in MiB, as `--max-layout-memory` accepts it.
fn layout_memory_mib(mebibytes: Option<u64>) -> PyResult<u64> {
    let mebibytes = mebibytes.unwrap_or(DEFAULT_LAYOUT_MEMORY_MIB);
    if LAYOUT_MEMORY_MIB_RANGE.contains(&mebibytes) {
        Ok(mebibytes)
    } else {
        Err(PyValueError::new_err(format!(
            "max_layout_memory must be from {} to {} MiB, got {mebibytes}",
            LAYOUT_MEMORY_MIB_RANGE.start(),
            LAYOUT_MEMORY_MIB_RANGE.end()
        )))
    }
}

fn penalty_scheme(name: &str) -> PyResult<PenaltyScheme> {
    match name {
        "area" => Ok(PenaltyScheme::PageArea),
        "count" => Ok(PenaltyScheme::SubtreeSize),
        "parent-area" => Ok(PenaltyScheme::ParentArea),
        other => Err(PyValueError::new_err(format!(
            "penalty must be \"area\", \"count\" or \"parent-area\", got {other:?}"
        ))),
    }
}

fn node_weight(name: &str) -> PyResult<NodeWeight> {
    match name {
        "sqrt-area" => Ok(NodeWeight::SqrtArea),
        "count" => Ok(NodeWeight::Count),
        other => Err(PyValueError::new_err(format!(
            "weight must be \"sqrt-area\" or \"count\", got {other:?}"
        ))),
    }
}

#[pymodule]
fn _pagelevel(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Scorer>()?;
    module.add("PageError", module.py().get_type::<PageError>())?;
    module.add_function(wrap_pyfunction!(stylesheets::linked_stylesheets, module)?)?;
    training::register(module)
}
