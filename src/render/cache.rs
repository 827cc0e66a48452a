//! On-disk cache of layouts, keyed by a hash of everything that decides a layout (page bytes,
//! URL, base href, web root, scripting, viewport, format version), so training and evaluation
//! never render the same page twice. Only the boxes are stored: the DOM is re-parsed from the
//! bytes, which is deterministic and ~100× cheaper than rendering.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::layout::{Layout, SNAPSHOT_FORMAT_VERSION};

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

    /// The cached layout, if present and of this format version; unreadable entries are misses.
    pub fn load(&self, key: &str) -> Option<Layout> {
        let bytes = fs::read(self.path(key)).ok()?;
        let entry: CacheEntry = serde_json::from_slice(&bytes).ok()?;
        (entry.format_version == SNAPSHOT_FORMAT_VERSION).then_some(entry.layout)
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
