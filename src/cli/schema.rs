//! `pagelevel schema`: the JSON Schema of `score`'s JSON or JSONL output, generated from the
//! output types, so a consumer can validate what it reads.

use std::io::Write;

use clap::{Args, ValueEnum};
use pagelevel::output::{OutputFormat, output_schema};

use super::Outcome;

/// Which output the schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SchemaOf {
    /// `score --format json`: one page with every element.
    Json,
    /// `score --format jsonl`: one line per page.
    Jsonl,
    /// `score --format sections`: one line per section.
    Sections,
}

/// Print the JSON Schema of `score`'s output.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The output format described.
    #[arg(long, value_enum, default_value_t = SchemaOf::Json)]
    format: SchemaOf,
}

pub fn run(args: SchemaArgs) -> anyhow::Result<Outcome> {
    let schema = output_schema(match args.format {
        SchemaOf::Json => OutputFormat::Json,
        SchemaOf::Jsonl => OutputFormat::Jsonl,
        SchemaOf::Sections => OutputFormat::Sections,
    });
    std::io::stdout().lock().write_all(schema.as_bytes())?;
    Ok(Outcome::Success)
}
