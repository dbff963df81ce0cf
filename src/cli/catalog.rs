//! `armory catalog import|check|export|synth`, and the first-start import of the bundled catalog.

use std::path::{Path, PathBuf};

use clap::Subcommand;

use super::connect_and_migrate;
use crate::catalog::{check, export, import, load, synth};

#[derive(Subcommand)]
pub enum CatalogCommand {
    /// Validate PATH, then write what changed (one transaction) and record the change events.
    Import { path: PathBuf },
    /// Validate the data and run the plausibility rules; exit 1 when any rule is broken.
    Check {
        #[arg(default_value = "data")]
        path: PathBuf,
    },
    /// Write the stored catalog to DIR in the data-file format.
    Export { dir: PathBuf },
    /// Write a deterministic synthetic catalog (scale tests only; never into data/).
    Synth {
        #[arg(long)]
        firearms: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        dir: PathBuf,
    },
}

pub async fn run(command: CatalogCommand, database_url: &str) -> Result<(), String> {
    match command {
        CatalogCommand::Import { path } => {
            let catalog = load::load_dir(&path).map_err(|e| e.to_string())?;
            let db = connect_and_migrate(database_url).await?;
            let summary = import::import(&db, &catalog, true).await?;
            println!("{summary}");
            Ok(())
        }
        CatalogCommand::Check { path } => {
            let catalog = load::load_dir(&path).map_err(|e| e.to_string())?;
            let violations = check::check(&catalog);
            for violation in &violations {
                println!("{violation}");
            }
            match violations.len() {
                0 => {
                    println!("{} records checked: every rule holds", catalog.record_count());
                    Ok(())
                }
                n => Err(format!("{n} plausibility rule(s) broken")),
            }
        }
        CatalogCommand::Export { dir } => {
            let db = connect_and_migrate(database_url).await?;
            let mut conn = db.pool().acquire().await.map_err(|e| e.to_string())?;
            let catalog = crate::catalog::store::read_catalog(&mut conn).await.map_err(|e| e.to_string())?;
            let files = export::write_dir(&catalog, &dir)?;
            println!("{} records written to {} file(s) in {}", catalog.record_count(), files, dir.display());
            Ok(())
        }
        CatalogCommand::Synth { firearms, seed, dir } => {
            // Synthetic records must never mix with real ones (data/ above all).
            if std::fs::read_dir(&dir).is_ok_and(|mut entries| entries.next().is_some()) {
                return Err(format!(
                    "{} is not empty; synth writes only into a new or empty directory",
                    dir.display()
                ));
            }
            let catalog = synth::synthesize(firearms, seed);
            let files = export::write_dir(&catalog, &dir)?;
            println!(
                "{} synthetic records written to {} file(s) in {}",
                catalog.record_count(),
                files,
                dir.display()
            );
            Ok(())
        }
    }
}

/// `data/` beside the working directory, else the one in the source tree the binary was built from.
pub fn bundled_data_dir() -> PathBuf {
    let local = PathBuf::from("data");
    if local.is_dir() { local } else { Path::new(env!("CARGO_MANIFEST_DIR")).join("data") }
}
