// `sqlx::migrate!` embeds the migration files at compile time; without this, adding a migration
// does not rebuild the crate and the binary silently keeps the old list.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
