//! `pagelevel render`: placeholder until rendering lands (issue 2).

use clap::Args;

#[derive(Debug, Args)]
pub struct RenderArgs {}

pub fn run(_args: RenderArgs) -> anyhow::Result<super::Outcome> {
    anyhow::bail!("render is being built")
}
