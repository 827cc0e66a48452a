// Present only so that Cargo resolves this crate's build-dependencies (see Cargo.toml).
fn main() {}
