//! Options every rendering command shares — which Chromium, which layout cache — and the model
//! every scoring command loads, defined once.

use std::path::{Path, PathBuf};

use clap::Args;
use pagelevel::model::TemplateModel;
use pagelevel::render::{LayoutCache, RenderOptions};

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
}

impl BrowserArgs {
    /// Render options with this browser and cache, the rest at their defaults.
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

/// Refuses a templateness threshold outside [0, 1].
pub fn check_threshold(threshold: f64) -> anyhow::Result<()> {
    if !(0.0..=1.0).contains(&threshold) {
        anyhow::bail!("--threshold must be between 0 and 1, got {threshold}");
    }
    Ok(())
}
