//! No code: this crate's dependencies pin the features that builds with and without pagelevel's
//! `chromium` feature share (see its Cargo.toml).
