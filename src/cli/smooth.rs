//! `pagelevel smooth`: placeholder until the smoothing module lands (issue 3).

use clap::Args;

#[derive(Debug, Args)]
pub struct SmoothArgs {}

pub fn run(_args: SmoothArgs) -> anyhow::Result<super::Outcome> {
    anyhow::bail!("smooth is being built")
}
