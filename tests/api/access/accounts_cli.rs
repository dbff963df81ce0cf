//! Accounts, API keys and shops as an operator sees them: the `armory accounts|keys|shops`
//! commands on a real database, and the demo accounts of a development server.

use std::process::Command;

use armory::access::keys::hash_secret;
use armory::access::plan::Plan;
use armory::accounts::{self, AccountError, KeyStatus};
use armory::db::Db;

use crate::support::{Backend, TestDatabase, postgres_configured};

const ARMORY: &str = env!("CARGO_BIN_EXE_armory");

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Run `armory ARGS --database-url URL`.
fn armory(database: &TestDatabase, args: &[&str]) -> Run {
    let output = Command::new(ARMORY)
        .args(args)
        .args(["--database-url", &database.url])
        .env_remove("ARMORY_DATABASE_URL")
        .env_remove("ARMORY_LOG_FORMAT")
        .output()
        .expect("the armory binary runs");
    Run {
        code: output.status.code(),
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr: String::from_utf8(output.stderr).unwrap(),
    }
}

/// Run a command that must succeed and print exactly one line on stdout; return that line.
fn one_line(database: &TestDatabase, args: &[&str]) -> String {
    let run = armory(database, args);
    assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?} prints one line: {:?}", run.stdout);
    lines[0].to_owned()
}

/// A failure is exit 1 with one line on stderr; returns that line.
fn fails(database: &TestDatabase, args: &[&str]) -> String {
    let run = armory(database, args);
    assert_eq!(run.code, Some(1), "{args:?} fails with exit 1: {}{}", run.stdout, run.stderr);
    assert_eq!(run.stderr.trim_end().lines().count(), 1, "{args:?}: {:?}", run.stderr);
    assert!(run.stdout.is_empty(), "{args:?}: {:?}", run.stdout);
    run.stderr.trim_end().to_owned()
}

fn is_lower_hex(text: &str, len: usize) -> bool {
    text.len() == len && text.chars().all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
}

fn is_id(text: &str, prefix: &str) -> bool {
    text.strip_prefix(prefix).is_some_and(|rest| is_lower_hex(rest, 16))
}

fn is_secret(text: &str) -> bool {
    text.strip_prefix("ak_").is_some_and(|rest| is_lower_hex(rest, 40))
}

async fn open(database: &TestDatabase) -> Db {
    let db = Db::connect(&database.url).await.unwrap();
    db.migrate().await.unwrap();
    db
}

async fn access_revision(db: &Db) -> i64 {
    let (value,): (i64,) = sqlx::query_as("SELECT value FROM service_state WHERE name = 'access_revision'")
        .fetch_one(db.pool())
        .await
        .unwrap();
    value
}

#[tokio::test]
async fn accounts_create_prints_the_id_alone_and_list_shows_it() {
    let database = TestDatabase::create(Backend::Sqlite).await;
    let id = one_line(&database, &["accounts", "create", "--email", "ops@example.com", "--plan", "builder"]);
    assert!(is_id(&id, "acct_"), "{id}");

    let list = armory(&database, &["accounts", "list"]);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    let row = list.stdout.lines().find(|line| line.starts_with(&id)).expect("the account is listed");
    assert!(row.contains("ops@example.com") && row.contains("builder") && row.contains("active"), "{row}");

    armory(&database, &["accounts", "set-plan", &id, "studio"]);
    armory(&database, &["accounts", "suspend", &id]);
    let db = open(&database).await;
    let rows = accounts::list_accounts(&db).await.unwrap();
    assert_eq!((rows[0].plan, rows[0].status.as_str()), (Plan::Studio, "suspended"));
    let revision = access_revision(&db).await;
    armory(&database, &["accounts", "unsuspend", &id]);
    assert_eq!(accounts::list_accounts(&db).await.unwrap()[0].status, "active");
    assert_eq!(access_revision(&db).await, revision + 1, "every change bumps the access revision");
}

#[tokio::test]
async fn account_mistakes_are_one_line_and_exit_1() {
    let database = TestDatabase::create(Backend::Sqlite).await;
    let error = fails(&database, &["accounts", "create", "--email", "a@example.com", "--plan", "gold"]);
    assert!(error.contains("'gold' is not a plan"), "{error}");
    let error = fails(&database, &["accounts", "create", "--email", "nobody", "--plan", "explorer"]);
    assert!(error.contains("'nobody'"), "{error}");

    one_line(&database, &["accounts", "create", "--email", "a@example.com", "--plan", "explorer"]);
    let error = fails(&database, &["accounts", "create", "--email", "a@example.com", "--plan", "studio"]);
    assert!(error.contains("a@example.com") && error.contains("already exists"), "{error}");

    let error = fails(&database, &["accounts", "set-plan", "acct_0000000000000000", "studio"]);
    assert!(error.contains("no account has the id 'acct_0000000000000000'"), "{error}");
    fails(&database, &["accounts", "suspend", "acct_0000000000000000"]);
    fails(&database, &["keys", "create", "--account", "acct_0000000000000000"]);
}

#[tokio::test]
async fn keys_create_prints_the_secret_alone_and_stores_only_its_hash() {
    let database = TestDatabase::create(Backend::Sqlite).await;
    let account =
        one_line(&database, &["accounts", "create", "--email", "k@example.com", "--plan", "studio"]);
    let secret = one_line(
        &database,
        &["keys", "create", "--account", &account, "--name", "ci", "--expires-at", "2031-02-03"],
    );
    assert!(is_secret(&secret), "{secret}");

    let db = open(&database).await;
    let (id, hash, prefix, status, expires_at): (String, String, String, String, Option<String>) =
        sqlx::query_as("SELECT id, key_hash, prefix, status, expires_at FROM api_keys WHERE account_id = $1")
            .bind(&account)
            .fetch_one(db.pool())
            .await
            .unwrap();
    assert!(is_id(&id, "key_"), "{id}");
    assert_eq!(hash, hash_secret(&secret));
    assert_eq!((prefix.as_str(), status.as_str()), (&secret[..10], "active"));
    assert_eq!(expires_at.as_deref(), Some("2031-02-03 00:00:00"));
    let (stored,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM api_keys WHERE key_hash = $1 OR prefix = $1")
            .bind(&secret)
            .fetch_one(db.pool())
            .await
            .unwrap();
    assert_eq!(stored, 0, "the secret itself is stored nowhere");

    let list = armory(&database, &["keys", "list", "--account", &account]);
    assert_eq!(list.code, Some(0), "{}", list.stderr);
    assert!(list.stdout.contains(&id) && list.stdout.contains(&secret[..10]), "{}", list.stdout);
    assert!(list.stdout.contains("ci") && list.stdout.contains("2031-02-03"), "{}", list.stdout);
    assert!(!list.stdout.contains(&secret) && !list.stdout.contains(&hash), "{}", list.stdout);

    // A key no account owns.
    let ownerless = one_line(&database, &["keys", "create"]);
    assert!(is_secret(&ownerless), "{ownerless}");
    let (owner,): (Option<String>,) = sqlx::query_as("SELECT account_id FROM api_keys WHERE key_hash = $1")
        .bind(hash_secret(&ownerless))
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(owner, None);

    let error = fails(&database, &["keys", "create", "--expires-at", "next week"]);
    assert!(error.contains("YYYY-MM-DD"), "{error}");
}

#[tokio::test]
async fn a_revoked_key_cannot_be_enabled_again() {
    let database = TestDatabase::create(Backend::Sqlite).await;
    let account =
        one_line(&database, &["accounts", "create", "--email", "r@example.com", "--plan", "builder"]);
    one_line(&database, &["keys", "create", "--account", &account]);
    let db = open(&database).await;
    let key = accounts::list_keys(&db, Some(&account)).await.unwrap().remove(0).id;

    for (command, expected) in [("disable", "disabled"), ("enable", "active"), ("revoke", "revoked")] {
        let run = armory(&database, &["keys", command, &key]);
        assert_eq!(run.code, Some(0), "{command}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "confirmations go to stderr: {:?}", run.stdout);
        assert_eq!(accounts::list_keys(&db, Some(&account)).await.unwrap()[0].status, expected);
    }
    let error = fails(&database, &["keys", "enable", &key]);
    assert!(error.contains("revoked"), "{error}");
    fails(&database, &["keys", "disable", &key]);
    assert_eq!(accounts::list_keys(&db, Some(&account)).await.unwrap()[0].status, "revoked");
    let error = fails(&database, &["keys", "revoke", "key_0000000000000000"]);
    assert!(error.contains("key_0000000000000000"), "{error}");
}

#[tokio::test]
async fn shops_are_created_approved_and_given_keys() {
    let database = TestDatabase::create(Backend::Sqlite).await;
    let account =
        one_line(&database, &["accounts", "create", "--email", "s@example.com", "--plan", "studio"]);
    one_line(&database, &["keys", "create", "--account", &account, "--name", "shop"]);
    let shop = one_line(&database, &["shops", "create", "--account", &account, "--name", "Range Supply"]);
    assert!(is_id(&shop, "shop_"), "{shop}");

    let db = open(&database).await;
    let approved = |db: Db, shop: String| async move {
        let (approved,): (i64,) = sqlx::query_as("SELECT approved FROM shops WHERE id = $1")
            .bind(shop)
            .fetch_one(db.pool())
            .await
            .unwrap();
        approved
    };
    assert_eq!(approved(db.clone(), shop.clone()).await, 0, "a new shop is under review");
    assert_eq!(armory(&database, &["shops", "approve", &shop]).code, Some(0));
    assert_eq!(approved(db.clone(), shop.clone()).await, 1);

    let key = accounts::list_keys(&db, Some(&account)).await.unwrap().remove(0).id;
    let run = armory(&database, &["shops", "add-key", &shop, &key]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert_eq!(
        armory(&database, &["shops", "add-key", &shop, &key]).code,
        Some(0),
        "linking twice is harmless"
    );
    let (linked,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM shop_keys WHERE shop_id = $1 AND key_id = $2")
            .bind(&shop)
            .bind(&key)
            .fetch_one(db.pool())
            .await
            .unwrap();
    assert_eq!(linked, 1);

    let approved_shop =
        one_line(&database, &["shops", "create", "--account", &account, "--name", "Second", "--approved"]);
    assert_eq!(approved(db.clone(), approved_shop).await, 1);

    // A key of another account, or of none, is not the shop's.
    let other = one_line(&database, &["accounts", "create", "--email", "o@example.com", "--plan", "studio"]);
    let (other_key, _) = accounts::create_key(&db, Some(&other), None, None).await.unwrap();
    let error = fails(&database, &["shops", "add-key", &shop, &other_key]);
    assert!(error.contains(&other_key), "{error}");
    fails(&database, &["shops", "approve", "shop_0000000000000000"]);
    fails(&database, &["shops", "create", "--account", "acct_0000000000000000", "--name", "X"]);
}

#[tokio::test]
async fn demo_accounts_are_seeded_once() {
    let database = TestDatabase::create(Backend::Sqlite).await;
    let db = open(&database).await;
    let demo = accounts::seed_demo_accounts(&db).await.unwrap().expect("an empty database is seeded");
    assert_eq!(demo.len(), 4);
    for ((plan, email, secret), expected) in demo.iter().zip(Plan::ALL) {
        assert_eq!(*plan, expected);
        assert_eq!(email, &format!("demo-{}@armory.local", plan.id()));
        assert!(is_secret(secret), "{secret}");
        let (key_plan,): (String,) = sqlx::query_as(
            "SELECT a.plan FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = $1",
        )
        .bind(hash_secret(secret))
        .fetch_one(db.pool())
        .await
        .unwrap();
        assert_eq!(key_plan, plan.id());
    }
    assert_eq!(accounts::list_accounts(&db).await.unwrap().len(), 4);
    assert!(accounts::seed_demo_accounts(&db).await.unwrap().is_none(), "accounts exist: nothing is seeded");
    assert_eq!(accounts::list_accounts(&db).await.unwrap().len(), 4);
}

#[tokio::test]
async fn a_development_server_prints_the_demo_keys_once() {
    let database = TestDatabase::create(Backend::Sqlite).await;
    let first = serve_until_listening(&database);
    let keys: Vec<&str> =
        first.iter().filter_map(|line| line.split_whitespace().find(|w| is_secret(w))).collect();
    assert_eq!(keys.len(), 4, "one key per plan: {first:?}");
    for plan in Plan::ALL {
        let email = format!("demo-{}@armory.local", plan.id());
        assert!(first.iter().any(|line| line.starts_with(plan.id()) && line.contains(&email)), "{first:?}");
    }
    let db = open(&database).await;
    for key in keys {
        let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM api_keys WHERE key_hash = $1")
            .bind(hash_secret(key))
            .fetch_one(db.pool())
            .await
            .unwrap();
        assert_eq!(count, 1, "the printed key works");
    }
    let second = serve_until_listening(&database);
    assert!(second.iter().all(|line| !line.contains("ak_")), "keys are shown only once: {second:?}");
}

/// Start `armory serve` in development, collect stdout until it is listening, then stop it.
fn serve_until_listening(database: &TestDatabase) -> Vec<String> {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    use std::time::Duration;

    let mut child = Command::new(ARMORY)
        .args(["serve", "--bind", "127.0.0.1:0", "--database-url", &database.url])
        .env("ARMORY_ENV", "development")
        .env_remove("ARMORY_DATABASE_URL")
        .env_remove("ARMORY_LOG_FORMAT")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (stdout, stderr) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let (listening_tx, listening_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.contains("listening on http://") {
                let _ = listening_tx.send(());
            }
        }
    });
    let reader = std::thread::spawn(move || BufReader::new(stdout).lines().map_while(Result::ok).collect());
    let listening = listening_rx.recv_timeout(Duration::from_secs(30));
    let _ = child.kill();
    let _ = child.wait();
    assert!(listening.is_ok(), "the server did not announce its address");
    reader.join().unwrap()
}

/// The library on each backend: create an account and a key, list them, change them.
async fn library_round_trip(backend: Backend) {
    let database = TestDatabase::create(backend).await;
    let db = open(&database).await;
    let before = access_revision(&db).await;
    let account = accounts::create_account(&db, "lib@example.com", Plan::Builder).await.unwrap();
    let (key, secret) = accounts::create_key(
        &db,
        Some(&account),
        Some("lib"),
        Some(accounts::parse_date("2030-01-01").unwrap()),
    )
    .await
    .unwrap();
    assert!(is_id(&key, "key_") && is_secret(&secret));

    let keys = accounts::list_keys(&db, Some(&account)).await.unwrap();
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0].id, key);
    assert_eq!(keys[0].prefix, &secret[..10]);
    assert_eq!(keys[0].name.as_deref(), Some("lib"));
    assert_eq!(keys[0].expires_at.as_deref(), Some("2030-01-01 00:00:00"));
    assert_eq!(keys[0].account_id.as_deref(), Some(account.as_str()));

    accounts::set_plan(&db, &account, Plan::Enterprise).await.unwrap();
    accounts::set_paid_until(&db, &account, Some(accounts::parse_date("2030-06-30").unwrap())).await.unwrap();
    accounts::set_staff(&db, &account, true).await.unwrap();
    let rows = accounts::list_accounts(&db).await.unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].plan, rows[0].staff), (Plan::Enterprise, true));
    assert_eq!(rows[0].paid_until.as_deref(), Some("2030-06-30 00:00:00"));

    accounts::set_key_status(&db, &key, KeyStatus::Revoked).await.unwrap();
    assert!(matches!(
        accounts::set_key_status(&db, &key, KeyStatus::Active).await,
        Err(AccountError::KeyRevoked(_))
    ));
    assert!(matches!(
        accounts::create_account(&db, "LIB@example.com", Plan::Studio).await,
        Err(AccountError::DuplicateEmail(_))
    ));
    assert!(matches!(
        accounts::create_key(&db, Some("acct_0000000000000000"), None, None).await,
        Err(AccountError::UnknownAccount(_))
    ));
    let shop = accounts::create_shop(&db, &account, "Lib Shop", false).await.unwrap();
    accounts::approve_shop(&db, &shop).await.unwrap();
    let (key2, _) = accounts::create_key(&db, Some(&account), None, None).await.unwrap();
    accounts::add_shop_key(&db, &shop, &key2).await.unwrap();

    // account, key, plan, paid until, staff, revoke, shop, approve, key2, link: ten changes.
    assert_eq!(access_revision(&db).await, before + 10);
    assert!(accounts::seed_demo_accounts(&db).await.unwrap().is_none());
    db.close().await;
}

#[tokio::test]
async fn the_library_works_on_sqlite() {
    library_round_trip(Backend::Sqlite).await;
}

#[tokio::test]
async fn the_library_works_on_postgres() {
    if !postgres_configured() {
        eprintln!("skipped: ARMORY_TEST_DATABASE_URL is not set");
        return;
    }
    library_round_trip(Backend::Postgres).await;
}

/// A CLI write while another process writes a large import into the same SQLite file waits for
/// the lock (BEGIN IMMEDIATE, busy timeout) instead of failing with "database is locked".
#[tokio::test]
async fn a_cli_write_during_an_import_succeeds() {
    let database = TestDatabase::create(Backend::Sqlite).await;
    assert_eq!(armory(&database, &["migrate"]).code, Some(0));
    let synthetic = std::env::temp_dir().join(format!("armory-synth-{}", uuid::Uuid::new_v4().simple()));
    let synth = Command::new(ARMORY)
        .args(["catalog", "synth", "--firearms", "3000", "--seed", "7"])
        .arg(&synthetic)
        .output()
        .unwrap();
    assert!(synth.status.success(), "{}", String::from_utf8_lossy(&synth.stderr));
    let import = Command::new(ARMORY)
        .args(["catalog", "import"])
        .arg(&synthetic)
        .args(["--database-url", &database.url])
        .env_remove("ARMORY_DATABASE_URL")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut created = 0;
    for n in 0..12 {
        let email = format!("busy-{n}@example.com");
        let run = armory(&database, &["accounts", "create", "--email", &email, "--plan", "builder"]);
        assert_eq!(run.code, Some(0), "write {n} during the import: {}", run.stderr);
        created += 1;
        std::thread::sleep(std::time::Duration::from_millis(150));
    }
    let imported = import.wait_with_output().unwrap();
    assert!(imported.status.success(), "{}", String::from_utf8_lossy(&imported.stderr));
    assert_eq!(created, 12);
    let _ = std::fs::remove_dir_all(&synthetic);
}
