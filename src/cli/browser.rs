//! Options several commands share — which Chromium, which layout cache, page limits, the
//! smoothing weight — and the model every scoring command loads, defined once.

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use pagelevel::model::TemplateModel;
use pagelevel::page::ParseLimits;
use pagelevel::render::{LayoutCache, RenderOptions};
use pagelevel::segment::NodeWeight;

/// The browser and its layout cache.
#[derive(Debug, Args)]
pub struct BrowserArgs {
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
}

impl BrowserArgs {
    /// Render options with this browser, cache and page limits, the rest at their defaults.
    pub fn render_options(&self) -> RenderOptions {
        RenderOptions {
            chromium: self.chromium.clone(),
            cache: (!self.no_cache).then(|| {
                LayoutCache::new(
                    self.cache_dir
                        .clone()
                        .unwrap_or_else(LayoutCache::default_directory),
                )
            }),
            limits: ParseLimits {
                max_bytes: self.max_bytes,
                max_elements: self.max_elements,
                max_depth: self.max_depth,
            },
            ..RenderOptions::default()
        }
    }
}

/// The model at `path`, or the one shipped with pagelevel.
pub fn load_model(path: Option<&Path>) -> anyhow::Result<TemplateModel> {
    Ok(match path {
        Some(path) => TemplateModel::load(path)?,
        None => TemplateModel::builtin()?,
    })
}

/// The smoothing weight of a node, as the `--weight` flag spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WeightArg {
    /// 1 + hidden nodes rolled in: the paper's weight.
    Count,
    /// The paper's weight × √(area / mean area): large boxes count more (the default).
    SqrtArea,
}

impl From<WeightArg> for NodeWeight {
    fn from(weight: WeightArg) -> NodeWeight {
        match weight {
            WeightArg::Count => NodeWeight::Count,
            WeightArg::SqrtArea => NodeWeight::SqrtArea,
        }
    }
}

/// Refuses a templateness threshold outside [0, 1].
pub fn check_threshold(threshold: f64) -> anyhow::Result<()> {
    if !(0.0..=1.0).contains(&threshold) {
        anyhow::bail!("--threshold must be between 0 and 1, got {threshold}");
    }
    Ok(())
}
