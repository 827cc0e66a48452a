//! On-disk cache of layouts, keyed by a hash of everything that decides a layout (page bytes,
//! URL, base href, web root, scripting, viewport, format version), so training and evaluation
//! never render the same page twice. Only the boxes are stored: the DOM is re-parsed from the
//! bytes, which is deterministic and ~100× cheaper than rendering.
//!
//! The cache directory is not trusted: an entry is used only when it is a regular file (not a
//! symbolic link, FIFO or device: a FIFO would hang the run, a link to `/dev/zero` exhaust its
//! memory) of at most [`MAX_ENTRY_BYTES`] that parses and whose every box is finite, of
//! non-negative size and within ±[`MAX_COORDINATE`] px. Anything else is a miss, and a regular
//! file that fails the checks is removed, so one damaged entry cannot fail its page on every run.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::layout::{Layout, LayoutBox, SNAPSHOT_FORMAT_VERSION};

/// Largest cache entry read: a page at the default element limit (300,000) takes about 12 MB.
pub const MAX_ENTRY_BYTES: u64 = 128 << 20;

/// Largest coordinate or size, CSS px, of a cached box: ~8,000 screens of 1280 × 1024.
pub const MAX_COORDINATE: f64 = 1e7;

/// A directory of cached layouts, one JSON file per key.
#[derive(Debug, Clone)]
pub struct LayoutCache {
    directory: PathBuf,
}

#[derive(Serialize, Deserialize)]
struct CacheEntry {
    format_version: u32,
    layout: Layout,
}

/// The cache key: a hex SHA-256 over the inputs, each length-prefixed so they cannot run together.
pub fn cache_key(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(SNAPSHOT_FORMAT_VERSION.to_le_bytes());
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

impl LayoutCache {
    /// A cache in `directory` (created on first store).
    pub fn new(directory: impl Into<PathBuf>) -> LayoutCache {
        LayoutCache {
            directory: directory.into(),
        }
    }

    /// The default location: `$PAGELEVEL_CACHE`, else `$XDG_CACHE_HOME/pagelevel`, else
    /// `~/.cache/pagelevel`.
    pub fn default_directory() -> PathBuf {
        if let Some(directory) = std::env::var_os("PAGELEVEL_CACHE") {
            return PathBuf::from(directory);
        }
        if let Some(directory) = std::env::var_os("XDG_CACHE_HOME") {
            return Path::new(&directory).join("pagelevel");
        }
        std::env::var_os("HOME")
            .map(|home| Path::new(&home).join(".cache").join("pagelevel"))
            .unwrap_or_else(|| std::env::temp_dir().join("pagelevel-cache"))
    }

    fn path(&self, key: &str) -> PathBuf {
        self.directory.join(&key[..2]).join(format!("{key}.json"))
    }

    /// The cached layout, if present, of this format version and plausible (see the module
    /// header); anything else is a miss, and a regular file that fails the checks is removed.
    pub fn load(&self, key: &str) -> Option<Layout> {
        let path = self.path(key);
        // Not `metadata`: a symbolic link is judged as a link, never followed.
        let metadata = fs::symlink_metadata(&path).ok()?;
        if !metadata.file_type().is_file() {
            return None;
        }
        let layout = read_entry(&path, metadata.len());
        if layout.is_none() {
            // A later store replaces it anyway; removing it now spares the next run the check.
            let _ = fs::remove_file(&path);
        }
        layout
    }

    /// Stores a layout; written to a temporary file and renamed, so an interrupted run never
    /// leaves a half-written entry behind.
    pub fn store(&self, key: &str, layout: &Layout) -> std::io::Result<()> {
        let path = self.path(key);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        let entry = CacheEntry {
            format_version: SNAPSHOT_FORMAT_VERSION,
            layout: layout.clone(),
        };
        let temporary = path.with_extension(format!("tmp{}", std::process::id()));
        fs::write(&temporary, serde_json::to_vec(&entry)?)?;
        fs::rename(temporary, path)
    }
}

/// The layout in the regular file at `path` (`length` bytes when it was looked at), if it is
/// small enough, parses, is of this format version and every box is plausible.
fn read_entry(path: &Path, length: u64) -> Option<Layout> {
    if length > MAX_ENTRY_BYTES {
        return None;
    }
    let mut bytes = Vec::with_capacity(length as usize);
    // `take` keeps the bound even if the file grew after it was looked at.
    fs::File::open(path)
        .ok()?
        .take(MAX_ENTRY_BYTES + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.len() as u64 > MAX_ENTRY_BYTES {
        return None;
    }
    let entry: CacheEntry = serde_json::from_slice(&bytes).ok()?;
    let layout = entry.layout;
    let plausible = entry.format_version == SNAPSHOT_FORMAT_VERSION
        && layout.boxes.iter().flatten().all(is_plausible)
        && layout.boxes.iter().any(Option::is_some)
        && [layout.page_width, layout.page_height]
            .iter()
            .all(|size| (0.0..=MAX_COORDINATE).contains(size))
        && layout
            .unpainted
            .iter()
            .all(|id| id.index() < layout.boxes.len());
    plausible.then_some(layout)
}

/// True for a box a browser can produce: finite, of non-negative size, within the coordinate
/// bound.
fn is_plausible(layout_box: &LayoutBox) -> bool {
    let within = |value: f64| (-MAX_COORDINATE..=MAX_COORDINATE).contains(&value);
    within(layout_box.x)
        && within(layout_box.y)
        && within(layout_box.width)
        && within(layout_box.height)
        && layout_box.width >= 0.0
        && layout_box.height >= 0.0
}
