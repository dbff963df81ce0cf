//! `armory catalog import|check|export|synth`, and the first-start import of the bundled catalog.

use std::path::{Path, PathBuf};

use clap::Subcommand;

use super::{CliError, connect_and_migrate};
use crate::catalog::{check, content, export, import, load, synth, verify};

#[derive(Subcommand)]
pub enum CatalogCommand {
    /// Validate PATH, then write what changed (one transaction) and record the change events.
    /// Imported again, a folder has only the files whose bytes moved parsed (`import::import_dir`).
    Import { path: PathBuf },
    /// Validate the data (the content under PATH/content included) and run the rules: print the errors (exit 1 when there is any), then the
    /// warnings' counts (each warning with --warnings).
    Check {
        #[arg(default_value = "data")]
        path: PathBuf,
        /// The host list sources are checked against [default: PATH/hosts.toml].
        #[arg(long)]
        hosts: Option<PathBuf>,
        /// List every warning, not only the counts per rule.
        #[arg(long)]
        warnings: bool,
    },
    /// Write the stored catalog to DIR in the data-file format.
    Export { dir: PathBuf },
    /// Record that SOURCE was checked and states FIELDS of firearm ID: in its data file under
    /// --data (sources, verifiedFields, verifiedAt and, by the documented rule, dataConfidence),
    /// then import the folder so the provenance shows it.
    Verify {
        /// The firearm's id.
        id: String,
        /// The served field names the source states, comma-separated.
        #[arg(long, value_delimiter = ',', required = true)]
        fields: Vec<String>,
        /// The https page checked.
        #[arg(long)]
        source: String,
        /// The source's kind [default: the kind hosts.toml lists its host with].
        #[arg(long)]
        kind: Option<String>,
        /// The data folder holding the firearm.
        #[arg(long, default_value = "data")]
        data: PathBuf,
        /// The day of the check, YYYY-MM-DD [default: today, UTC].
        #[arg(long)]
        date: Option<String>,
    },
    /// Write a deterministic synthetic catalog (scale tests only; never into data/).
    Synth {
        #[arg(long)]
        firearms: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        dir: PathBuf,
    },
}

pub async fn run(command: CatalogCommand, database_url: &str) -> Result<(), CliError> {
    match command {
        CatalogCommand::Import { path } => {
            crate::allocator::keep_freed_memory();
            let db = connect_and_migrate(database_url).await?;
            let summary = import::import_dir(&db, &path, true).await?;
            println!("{summary}");
            Ok(())
        }
        CatalogCommand::Check { path, hosts, warnings } => {
            let mut catalog = load::load_dir(&path)?;
            // The changelog, blog and notices, and the image files, are checked as the import reads them.
            content::load_dir(&path)?;
            crate::catalog::image_files::read_into(&path, &mut catalog).map_err(CliError::invalid)?;
            let hosts = hosts.unwrap_or_else(|| path.join(load::HOST_LIST_FILE));
            let hosts = check::hosts::HostList::load(&hosts)?;
            let report = check::check(&catalog, &hosts);
            for error in &report.errors {
                println!("{error}");
            }
            if warnings {
                for warning in report.all_warnings() {
                    println!("warning: {warning}");
                }
            }
            println!("{}", report.summary());
            match report.errors.len() {
                0 => Ok(()),
                n => {
                    Err(CliError::invalid(format!("{n} error(s): the catalog breaks the rules listed above")))
                }
            }
        }
        CatalogCommand::Verify { id, fields, source, kind, data, date } => {
            let date = date.unwrap_or_else(|| crate::clock::day(crate::clock::now()));
            if time::Date::parse(&date, time::macros::format_description!("[year]-[month]-[day]")).is_err() {
                return Err(CliError::invalid(format!("--date: {date} is not a day, YYYY-MM-DD")));
            }
            let verification = verify::Verification { firearm_id: id, fields, source, kind, date };
            let verified = verify::verify(&data, &verification).map_err(CliError::invalid)?;
            let confidence = verified.data_confidence.map_or("none".to_owned(), |c| c.to_string());
            println!(
                "{}: verified {} (dataConfidence {confidence}) in {}",
                verification.firearm_id,
                verified.verified_fields.join(", "),
                verified.file.display()
            );
            let db = connect_and_migrate(database_url).await?;
            println!("{}", import::import_dir(&db, &data, false).await?);
            Ok(())
        }
        CatalogCommand::Export { dir } => {
            let db = connect_and_migrate(database_url).await?;
            let mut conn = db.pool().acquire().await?;
            let catalog = crate::catalog::store::read_catalog(&mut conn).await?;
            let files = export::write_dir(&catalog, &dir)?;
            println!("{} records written to {} file(s) in {}", catalog.record_count(), files, dir.display());
            Ok(())
        }
        CatalogCommand::Synth { firearms, seed, dir } => {
            // Synthetic records must never mix with real ones (data/ above all).
            if std::fs::read_dir(&dir).is_ok_and(|mut entries| entries.next().is_some()) {
                return Err(CliError::invalid(format!(
                    "{} is not empty; synth writes only into a new or empty directory",
                    dir.display()
                )));
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
