//! The layout cache does not trust its directory: an implausible, oversized or special entry is a
//! miss (removed when it is a regular file), never a hang, a memory blow-up or a failed page.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use pagelevel::layout::{Layout, LayoutBox, VIEWPORT};
use pagelevel::render::{LayoutCache, cache_key};

fn layout() -> Layout {
    Layout {
        boxes: vec![
            Some(LayoutBox {
                x: 0.0,
                y: 0.0,
                width: 1280.0,
                height: 2000.0,
            }),
            None,
            Some(LayoutBox {
                x: -9999.0,
                y: 10.0,
                width: 100.0,
                height: 20.0,
            }),
        ],
        unpainted: Vec::new(),
        page_width: 1280.0,
        page_height: 2000.0,
        viewport: VIEWPORT,
    }
}

/// A cache with a valid entry stored under a fresh key; returns the entry's file.
fn stored(directory: &Path) -> (LayoutCache, String, PathBuf) {
    let cache = LayoutCache::new(directory);
    let key = cache_key(&[b"page"]);
    cache.store(&key, &layout()).expect("stores");
    let path = directory.join(&key[..2]).join(format!("{key}.json"));
    assert!(path.is_file());
    (cache, key, path)
}

/// Runs `load` on another thread, failing (not hanging) when it takes over five seconds.
fn load_within_seconds(cache: LayoutCache, key: String) -> Option<Layout> {
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(cache.load(&key));
    });
    receiver
        .recv_timeout(Duration::from_secs(5))
        .expect("the cache load returned within 5 s")
}

#[test]
fn a_valid_cache_entry_loads_back() {
    let directory = tempfile::tempdir().expect("temp dir");
    let (cache, key, _) = stored(directory.path());
    assert_eq!(cache.load(&key), Some(layout()));
}

#[test]
fn a_cache_entry_with_implausible_boxes_is_a_miss_and_is_removed() {
    let text_of = |layout: &Layout| {
        serde_json::json!({ "format_version": pagelevel::layout::SNAPSHOT_FORMAT_VERSION, "layout": layout })
            .to_string()
    };
    let mut huge = layout();
    huge.boxes[2] = Some(LayoutBox {
        x: 1e308,
        y: 0.0,
        width: 10.0,
        height: 10.0,
    });
    let mut negative = layout();
    negative.boxes[0] = Some(LayoutBox {
        x: 0.0,
        y: 0.0,
        width: -5.0,
        height: 10.0,
    });
    let mut boxless = layout();
    boxless.boxes = vec![None; 3];
    let with_null = text_of(&layout()).replacen("1280.0", "null", 1);
    for text in [
        text_of(&huge),
        text_of(&negative),
        text_of(&boxless),
        with_null,
    ] {
        let directory = tempfile::tempdir().expect("temp dir");
        let (cache, key, path) = stored(directory.path());
        std::fs::write(&path, &text).expect("write");
        assert_eq!(cache.load(&key), None, "{text}");
        assert!(!path.exists(), "the bad entry is removed: {text}");
    }
}

#[test]
fn an_oversized_cache_entry_is_a_miss_and_is_removed() {
    let directory = tempfile::tempdir().expect("temp dir");
    let (cache, key, path) = stored(directory.path());
    // Sparse: no disk is used, but the file claims 1 GiB.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .and_then(|file| file.set_len(1 << 30))
        .expect("grow");
    assert_eq!(load_within_seconds(cache, key), None);
    assert!(!path.exists());
}

#[test]
fn a_fifo_in_the_cache_is_a_miss_not_a_hang() {
    let directory = tempfile::tempdir().expect("temp dir");
    let (cache, key, path) = stored(directory.path());
    std::fs::remove_file(&path).expect("remove");
    let status = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .expect("mkfifo");
    assert!(status.success());
    assert_eq!(load_within_seconds(cache, key), None);
}

#[test]
fn a_symlink_in_the_cache_is_a_miss_even_to_an_endless_file() {
    let directory = tempfile::tempdir().expect("temp dir");
    let (cache, key, path) = stored(directory.path());
    std::fs::remove_file(&path).expect("remove");
    std::os::unix::fs::symlink("/dev/zero", &path).expect("symlink");
    assert_eq!(load_within_seconds(cache.clone(), key.clone()), None);

    // A link to a valid entry is refused too: only regular files are trusted.
    let elsewhere = tempfile::tempdir().expect("temp dir");
    let (_, _, valid) = stored(elsewhere.path());
    std::fs::remove_file(&path).expect("remove");
    std::os::unix::fs::symlink(&valid, &path).expect("symlink");
    assert_eq!(load_within_seconds(cache, key), None);
    assert!(valid.is_file(), "the link's target is left alone");
}
