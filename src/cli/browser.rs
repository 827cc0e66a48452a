//! Options several commands share — which Chromium, which layout cache, page limits — and the
//! model every scoring command loads, defined once.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, ValueEnum};
use pagelevel::layout::{DocumentOrderLayout, LayoutSource};
use pagelevel::model::{LayoutEngine, TemplateModel};
use pagelevel::page::ParseLimits;
use pagelevel::render::{
    DEFAULT_LAYOUT_MEMORY_MIB, LAYOUT_MEMORY_MIB_RANGE, LayoutCache, NativeLayout, RenderOptions,
    Renderer,
};

/// Which engine lays pages out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LayoutChoice {
    /// Blitz, in-process (the default): no browser, ~20× faster than Chromium at the same
    /// quality (training/reports/native/).
    Native,
    /// Headless Chromium behind the network gate: for pages that need their scripts
    /// (--javascript), screenshots, or fidelity checks; it has its own shipped model.
    Chromium,
    /// No layout: elements stacked in document order; what text, links and tags alone give
    /// (needs a model trained with --layout none).
    None,
}

/// The layout engine, the browser and its layout cache.
#[derive(Debug, Args)]
pub struct BrowserArgs {
    /// The layout engine.
    #[arg(long, value_enum, default_value_t = LayoutChoice::Native)]
    pub layout: LayoutChoice,
    /// Chromium binary (default: `$PAGELEVEL_CHROMIUM`, `chromium` on the PATH, /usr/bin/chromium).
    #[arg(long)]
    pub chromium: Option<PathBuf>,
    /// Layout cache directory (default: `$PAGELEVEL_CACHE` or ~/.cache/pagelevel).
    #[arg(long)]
    pub cache_dir: Option<PathBuf>,
    /// Render every page afresh, without reading or writing the layout cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Largest page accepted, in bytes.
    #[arg(long, default_value_t = ParseLimits::default().max_bytes)]
    pub max_bytes: usize,
    /// Most elements accepted in one page.
    #[arg(long, default_value_t = ParseLimits::default().max_elements)]
    pub max_elements: usize,
    /// Deepest element nesting accepted.
    #[arg(long, default_value_t = ParseLimits::default().max_depth)]
    pub max_depth: u32,
    /// Seconds a page's layout may take before the page fails as timed out: each browser call
    /// with Chromium (the browser is then restarted for the next page), the whole layout with
    /// --layout native.
    #[arg(long, value_name = "SECONDS", value_parser = layout_timeout,
          default_value_t = RenderOptions::default().call_timeout.as_secs_f64())]
    pub timeout: f64,
    /// Memory one native layout may take, in MiB, estimated before layout from the page's
    /// elements, text and stylesheets (--jobs N takes up to N times this): a page over it is
    /// laid out without its stylesheets (with a warning) or, if still over, fails.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_LAYOUT_MEMORY_MIB,
          value_parser = clap::value_parser!(u64).range(LAYOUT_MEMORY_MIB_RANGE))]
    pub max_layout_memory: u64,
}

/// Longest time option accepted: a day (a longer one is a typo, and could overflow a `Duration`).
const MAX_TIMEOUT_SECONDS: f64 = 86_400.0;

/// `--timeout`: a number of seconds from 1 (DevTools calls need that much on a loaded machine)
/// to a day.
fn layout_timeout(text: &str) -> Result<f64, String> {
    seconds_within(text, 1.0)
}

/// A number of seconds from 0 to a day, e.g. `render --load-budget`.
pub fn seconds_up_to_a_day(text: &str) -> Result<f64, String> {
    seconds_within(text, 0.0)
}

fn seconds_within(text: &str, least: f64) -> Result<f64, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("{text} is not a number of seconds"))?;
    if !(least..=MAX_TIMEOUT_SECONDS).contains(&seconds) {
        return Err(format!(
            "must be from {least} to {MAX_TIMEOUT_SECONDS} seconds; got {text}"
        ));
    }
    Ok(seconds)
}

impl BrowserArgs {
    /// The page size limits.
    pub fn limits(&self) -> ParseLimits {
        ParseLimits {
            max_bytes: self.max_bytes,
            max_elements: self.max_elements,
            max_depth: self.max_depth,
        }
    }

    /// The `--timeout`.
    fn timeout(&self) -> Duration {
        Duration::from_secs_f64(self.timeout)
    }

    /// Render options with this browser, cache, page limits and timeout, the rest at their
    /// defaults.
    pub fn render_options(&self) -> RenderOptions {
        RenderOptions {
            chromium: self.chromium.clone(),
            call_timeout: self.timeout(),
            cache: (!self.no_cache).then(|| {
                LayoutCache::new(
                    self.cache_dir
                        .clone()
                        .unwrap_or_else(LayoutCache::default_directory),
                )
            }),
            limits: self.limits(),
            ..RenderOptions::default()
        }
    }
}

/// Native layout without Chromium's fonts still works, but its boxes drift from the model's
/// training: say so once per run, naming the package that fixes it.
fn warn_once_about_missing_fonts() {
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| {
        let missing = pagelevel::render::missing_layout_fonts();
        if !missing.is_empty() {
            eprintln!(
                "pagelevel: warning: the fonts {} are not installed: native layout sets text in \
                 other fonts, so boxes differ from those the shipped model was trained on \
                 (install Debian's fonts-liberation and fonts-dejavu-core, as .ci/setup does)",
                missing.join(", ")
            );
        }
    });
}

impl LayoutChoice {
    /// The engine as a model records it.
    pub fn engine(self) -> LayoutEngine {
        match self {
            LayoutChoice::Chromium => LayoutEngine::Chromium,
            LayoutChoice::Native => LayoutEngine::Native,
            LayoutChoice::None => LayoutEngine::None,
        }
    }
}

impl BrowserArgs {
    /// The chosen layout engine; `render` adjusts the Chromium options (scripts, screenshots).
    pub fn layout_source(&self, render: RenderOptions) -> anyhow::Result<Box<dyn LayoutSource>> {
        match self.layout {
            LayoutChoice::Chromium => Ok(Box::new(Renderer::new(render)?)),
            LayoutChoice::Native | LayoutChoice::None if render.javascript => {
                anyhow::bail!(
                    "--javascript needs --layout chromium: the native engine runs no scripts"
                )
            }
            LayoutChoice::Native => {
                warn_once_about_missing_fonts();
                Ok(Box::new(
                    NativeLayout::with_budget(self.timeout())
                        .with_memory_budget(self.max_layout_memory),
                ))
            }
            LayoutChoice::None => Ok(Box::new(DocumentOrderLayout)),
        }
    }
}

/// The model a scoring command uses, and whether it may score another engine's layouts.
#[derive(Debug, Args)]
pub struct ModelArgs {
    /// Model file (default: the model shipped with pagelevel for the chosen --layout).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Score with a model trained on another layout engine's boxes.
    #[arg(long)]
    pub force: bool,
}

impl ModelArgs {
    /// The model for pages laid out by `layout`: the one named, or the shipped one trained
    /// on that engine; a model trained on another engine is refused unless forced.
    pub fn load(&self, engine: LayoutEngine) -> anyhow::Result<TemplateModel> {
        let Some(path) = &self.model else {
            return Ok(TemplateModel::builtin_for(engine)?);
        };
        let model = TemplateModel::load(path)?;
        if model.layout_engine != engine && !self.force {
            anyhow::bail!(
                "{} was trained on {} layouts; --layout {} gives boxes its coefficients were not \
                 fitted to (use a model trained with --layout {}, or --force)",
                path.display(),
                model.layout_engine.name(),
                engine.name(),
                engine.name()
            );
        }
        Ok(model)
    }
}

/// The model at `path`/// The model at `path`, or the one shipped with pagelevel.
pub fn load_model(path: Option<&Path>) -> anyhow::Result<TemplateModel> {
    Ok(match path {
        Some(path) => TemplateModel::load(path)?,
        None => TemplateModel::builtin()?,
    })
}
