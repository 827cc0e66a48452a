//! Replacing a file without ever leaving it half-written: the new contents go to a temporary
//! file beside the target and are renamed over it only once complete and synced. A run that
//! stops with an error, a full disk or a crash leaves the old file as it was — the model a
//! service loads, the output of yesterday's batch, the training rows of a crawl.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The temporary files of every [`StagedFile`] not yet committed or dropped, so that a process
/// stopped by a signal can remove them ([`remove_unfinished`]).
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes the temporary file of every staged file still being written: for a signal handler
/// about to end the process, which runs no destructors.
pub fn remove_unfinished() {
    if let Ok(files) = UNFINISHED.lock() {
        for file in files.iter() {
            let _ = std::fs::remove_file(file);
        }
    }
}

fn set_unfinished(path: &Path, unfinished: bool) {
    if let Ok(mut files) = UNFINISHED.lock() {
        files.retain(|file| file != path);
        if unfinished {
            files.push(path.to_path_buf());
        }
    }
}

/// A file being written in place of `target`. Write through it (it is a [`Write`]), then
/// [`commit`](StagedFile::commit); dropped without a commit, the temporary file is removed and
/// the target is untouched.
///
/// An existing target that is not a regular file (`/dev/stdout`, a pipe) is written directly —
/// there is nothing to rename over; a symbolic link is followed, so the file it names is
/// replaced, not the link; the replacement keeps the old file's permissions.
#[derive(Debug)]
pub struct StagedFile {
    /// The temporary file and the target it replaces; `None` when written in place.
    staged: Option<(PathBuf, PathBuf)>,
    file: File,
}

impl StagedFile {
    /// Starts writing a replacement for `target`.
    pub fn create(target: &Path) -> std::io::Result<StagedFile> {
        let existing = std::fs::metadata(target).ok();
        if existing
            .as_ref()
            .is_some_and(|metadata| !metadata.is_file())
        {
            let file = File::create(target)?;
            return Ok(StagedFile { staged: None, file });
        }
        let target = match &existing {
            Some(_) => std::fs::canonicalize(target)?,
            None => target.to_path_buf(),
        };
        let temporary = temporary_beside(&target);
        let file = File::create(&temporary)?;
        set_unfinished(&temporary, true);
        if let Some(metadata) = existing {
            let _ = file.set_permissions(metadata.permissions());
        }
        Ok(StagedFile {
            staged: Some((temporary, target)),
            file,
        })
    }

    /// Checks that a file can be created beside `target` (the directory exists and is
    /// writable), without touching `target`: for runs that take long before they write.
    pub fn check_writable(target: &Path) -> std::io::Result<()> {
        let probe = temporary_beside(target);
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&probe)
            .and_then(|_| std::fs::remove_file(&probe))
    }

    /// A second handle on the file being written, e.g. for a writer that owns its file.
    pub fn try_clone_file(&self) -> std::io::Result<File> {
        self.file.try_clone()
    }

    /// Makes the contents durable and puts them in place of the target.
    pub fn commit(mut self) -> std::io::Result<()> {
        self.file.flush()?;
        let Some((temporary, target)) = self.staged.take() else {
            return Ok(());
        };
        let result = self
            .file
            .sync_all()
            .and_then(|()| std::fs::rename(&temporary, &target));
        if result.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        set_unfinished(&temporary, false);
        result?;
        // The rename is durable once the directory is synced; a failure here loses nothing.
        if let Ok(directory) = File::open(directory_of(&target)) {
            let _ = directory.sync_all();
        }
        Ok(())
    }
}

impl Write for StagedFile {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.file.write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

impl Drop for StagedFile {
    fn drop(&mut self) {
        if let Some((temporary, _)) = &self.staged {
            let _ = std::fs::remove_file(temporary);
            set_unfinished(temporary, false);
        }
    }
}

fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// A file name beside `path` that no other process uses: `.NAME.pagelevel-PID.tmp`.
fn temporary_beside(path: &Path) -> PathBuf {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    directory_of(path).join(format!(".{name}.pagelevel-{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_staged_file_leaves_the_old_contents_and_no_temporary() {
        let directory = tempfile::tempdir().expect("temp dir");
        let target = directory.path().join("model.json");
        std::fs::write(&target, "old").expect("write");
        {
            let mut staged = StagedFile::create(&target).expect("create");
            staged
                .write_all(b"new, but never committed")
                .expect("write");
        }
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "old");
        assert_eq!(
            std::fs::read_dir(directory.path()).expect("list").count(),
            1
        );
    }

    #[test]
    fn a_committed_staged_file_replaces_the_target_through_a_symbolic_link() {
        let directory = tempfile::tempdir().expect("temp dir");
        let real = directory.path().join("real.csv");
        let link = directory.path().join("link.csv");
        std::fs::write(&real, "old").expect("write");
        std::os::unix::fs::symlink(&real, &link).expect("symlink");
        let mut staged = StagedFile::create(&link).expect("create");
        staged.write_all(b"new").expect("write");
        staged.commit().expect("commit");
        assert_eq!(std::fs::read_to_string(&real).expect("read"), "new");
        assert!(std::fs::symlink_metadata(&link).expect("link").is_symlink());
    }
}
