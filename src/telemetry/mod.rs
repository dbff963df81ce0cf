//! Logging: `tracing` to stderr (stdout belongs to the command line's output), plain text or JSON
//! lines (`ARMORY_LOG_FORMAT=json`), level from `RUST_LOG` (default info, and only errors from sqlx:
//! its slow-acquire warnings would break the one-line output of the command line under load).
//! Lines are written by a thread of their own (`background`), never on a request's path; the
//! request log's line is written by hand (`access_line`), the busiest line being the costliest.

pub mod access_line;
mod background;

use std::sync::Once;

pub use background::flush;

use tracing_subscriber::EnvFilter;

tokio::task_local! {
    /// The request being served, scoped by the envelope (`http::edge::envelope`).
    pub static CURRENT_REQUEST: RequestScope;
}

/// What the layers of one request tell the envelope around them: the request id, so the panic
/// hook can name the request whose handler panicked, and the operation it ran, which labels its
/// metrics. A task-local rather than a response extension: the extension map was allocated for
/// every answer to carry one name.
pub struct RequestScope {
    pub id: String,
    operation: std::cell::Cell<&'static str>,
}

impl RequestScope {
    /// The operation is "unmatched" until one is named (no route matched).
    pub fn new(id: String) -> Self {
        Self { id, operation: std::cell::Cell::new("unmatched") }
    }

    pub fn operation(&self) -> &'static str {
        self.operation.get()
    }
}

/// Name the operation the current request runs; nothing outside a request's scope.
pub fn name_operation(name: &'static str) {
    let _ = CURRENT_REQUEST.try_with(|scope| scope.operation.set(name));
}

/// A new request id: a version 4 UUID from the thread's generator (seeded once from the operating
/// system), not `Uuid::new_v4`, which asks the kernel for 16 bytes on every request.
pub fn new_request_id() -> String {
    use rand::RngExt;
    let bytes: [u8; 16] = rand::rng().random();
    let uuid = uuid::Builder::from_random_bytes(bytes).into_uuid();
    // Encoded into a buffer rather than through `Display`, whose formatting machinery cost more
    // than drawing the random bytes.
    uuid.hyphenated().encode_lower(&mut uuid::Uuid::encode_buffer()).to_owned()
}

pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=error"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(background::BackgroundStderr)
        .with_ansi(ansi);
    let json = std::env::var("ARMORY_LOG_FORMAT").is_ok_and(|f| f.eq_ignore_ascii_case("json"));
    let installed = if json { builder.json().try_init() } else { builder.try_init() };
    if installed.is_ok() && !ansi {
        access_line::set_format(if json {
            access_line::LineFormat::Json
        } else {
            access_line::LineFormat::Text
        });
    }
}

/// Route panics inside a request through `tracing`, once, with the request id. Panics elsewhere
/// keep the default report.
pub fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let Ok(request_id) = CURRENT_REQUEST.try_with(|scope| scope.id.clone()) else {
                default_hook(info);
                return;
            };
            let message = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "non-string panic payload".to_owned());
            let location = info.location().map(|l| l.to_string()).unwrap_or_default();
            tracing::error!(request_id, panic = %message, %location, "handler panicked");
        }));
    });
}
