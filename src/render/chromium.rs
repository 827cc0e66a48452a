//! The Chromium installed on this machine: where its binary is, and which build it is (part of
//! every layout cache key). Plain files and environment variables: no browser is started here,
//! so this is compiled with or without the DevTools driver (`eval`'s plots use it too).

use std::path::{Path, PathBuf};

use super::RenderError;

/// Where Debian installs Chromium.
const DEBIAN_CHROMIUM: &str = "/usr/bin/chromium";

/// Finds the Chromium binary: an explicit path, `$PAGELEVEL_CHROMIUM`, then `chromium` or
/// `chromium-browser` on the PATH, then Debian's location.
pub fn find_chromium(explicit: Option<&Path>) -> Result<PathBuf, RenderError> {
    if let Some(path) = explicit {
        return if path.is_file() {
            Ok(path.to_path_buf())
        } else {
            Err(RenderError::NoChromium(format!(
                "{} does not exist",
                path.display()
            )))
        };
    }
    if let Some(path) = std::env::var_os("PAGELEVEL_CHROMIUM").map(PathBuf::from) {
        return if path.is_file() {
            Ok(path)
        } else {
            Err(RenderError::NoChromium(format!(
                "$PAGELEVEL_CHROMIUM names {}, which does not exist",
                path.display()
            )))
        };
    }
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .flat_map(|dir| [dir.join("chromium"), dir.join("chromium-browser")])
        .find(|candidate| candidate.is_file());
    on_path
        .or_else(|| Some(PathBuf::from(DEBIAN_CHROMIUM)).filter(|path| path.is_file()))
        .ok_or_else(|| {
            RenderError::NoChromium(
                "no chromium on the PATH or at /usr/bin/chromium (install it: apt-get install -y chromium)"
                    .into(),
            )
        })
}

/// What identifies the Chromium build at `chromium` for the layout cache key: its resolved path,
/// size and modification time. A new Chromium lays some pages out differently, so its layouts
/// must not be taken from an older one's entries; a package upgrade replaces the file (Debian's
/// `/usr/bin/chromium` wrapper script included, whose time is the package's build time). When
/// the file cannot be inspected the identity is the path alone.
pub fn chromium_identity(chromium: &Path) -> String {
    let resolved = std::fs::canonicalize(chromium).unwrap_or_else(|_| chromium.to_path_buf());
    let Ok(metadata) = std::fs::metadata(&resolved) else {
        return resolved.display().to_string();
    };
    let modified = metadata
        .modified()
        .ok()
        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_nanos());
    format!("{}\n{}\n{modified}", resolved.display(), metadata.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chromium_identity_changes_when_the_binary_is_replaced() {
        let directory = tempfile::tempdir().expect("temp dir");
        let binary = directory.path().join("chromium");
        std::fs::write(&binary, "version 1").expect("write");
        let first = chromium_identity(&binary);
        assert_eq!(chromium_identity(&binary), first, "stable while unchanged");
        std::fs::write(&binary, "version 2 longer").expect("write");
        assert_ne!(chromium_identity(&binary), first);
        let link = directory.path().join("link");
        std::os::unix::fs::symlink(&binary, &link).expect("symlink");
        assert_eq!(chromium_identity(&link), chromium_identity(&binary));
    }
}
