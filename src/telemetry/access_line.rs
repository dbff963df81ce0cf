//! The request log's line, written by hand into the background writer's queue.
//!
//! One line per request is the service's busiest log: through `tracing-subscriber`'s formatter it
//! cost a firearm detail about a tenth of its time on a one-core node (the event's dispatch, a
//! field visitor per field, the RFC 3339 timestamp formatted from scratch, `fmt::write` for every
//! piece). Here the same line, byte for byte in both formats (text and JSON, `telemetry::init`),
//! is appended to one buffer: the second's timestamp is the clock's cached form, numbers are
//! written directly. The filter still decides: the line is written only when `RUST_LOG` enables
//! target `armory::access` at info. A terminal's coloured output, and a process whose subscriber
//! is not the service's, keep the ordinary `tracing` event.

use std::sync::OnceLock;

/// How `telemetry::init` set the service's subscriber up, when it did and without colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineFormat {
    Text,
    Json,
}

static FORMAT: OnceLock<LineFormat> = OnceLock::new();

/// Called once by `telemetry::init` after its subscriber is installed.
pub(super) fn set_format(format: LineFormat) {
    let _ = FORMAT.set(format);
}

/// What one request's line says.
pub struct RequestLine<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub status: u16,
    /// Logged in milliseconds with three decimals, the digits the formatter gives that many
    /// microseconds over a thousand.
    pub duration_micros: u64,
    pub request_id: &'a str,
}

/// Log `line` at info under target `armory::access`.
pub fn request(line: &RequestLine<'_>) {
    if !tracing::enabled!(target: "armory::access", tracing::Level::INFO) {
        return;
    }
    match FORMAT.get() {
        Some(&format) => super::background::send(render(line, format, Moment::now())),
        None => event(line),
    }
}

/// The line as an ordinary `tracing` event (the formatter's, which `render` writes by hand).
fn event(line: &RequestLine<'_>) {
    tracing::info!(
        target: "armory::access",
        method = %line.method,
        path = %line.path,
        status = line.status,
        duration_ms = line.duration_micros as f64 / 1000.0,
        request_id = line.request_id,
        "request"
    )
}

/// The line as `tracing-subscriber`'s formatter writes it, ending in a newline.
fn render(line: &RequestLine<'_>, format: LineFormat, at: Moment) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    match format {
        LineFormat::Text => {
            // Piece by piece rather than one `write!`: the formatting machinery was a third of the
            // line's cost, and the float formatting of the duration a tenth.
            write_timestamp(&mut out, at);
            out.extend_from_slice(b"  INFO armory::access: request method=");
            out.extend_from_slice(line.method.as_bytes());
            out.extend_from_slice(b" path=");
            out.extend_from_slice(line.path.as_bytes());
            out.extend_from_slice(b" status=");
            write_number(&mut out, line.status.into());
            out.extend_from_slice(b" duration_ms=");
            write_millis(&mut out, line.duration_micros);
            out.extend_from_slice(b" request_id=\"");
            out.extend_from_slice(line.request_id.as_bytes());
            out.push(b'"');
        }
        LineFormat::Json => {
            out.extend_from_slice(b"{\"timestamp\":\"");
            write_timestamp(&mut out, at);
            out.extend_from_slice(b"\",\"level\":\"INFO\",\"fields\":{\"message\":\"request\",\"method\":");
            json_string(&mut out, line.method);
            out.extend_from_slice(b",\"path\":");
            json_string(&mut out, line.path);
            out.extend_from_slice(b",\"status\":");
            write_number(&mut out, line.status.into());
            out.extend_from_slice(b",\"duration_ms\":");
            write_millis(&mut out, line.duration_micros);
            out.extend_from_slice(b",\"request_id\":");
            json_string(&mut out, line.request_id);
            out.extend_from_slice(b"},\"target\":\"armory::access\"}");
        }
    }
    out.push(b'\n');
    out
}

/// RFC 3339 in UTC with microseconds, as `tracing-subscriber`'s default timer writes it; the
/// second's part is the clock's cached form of that second.
#[cfg(test)]
fn timestamp(at: time::OffsetDateTime) -> String {
    let mut out = Vec::new();
    let moment = Moment { second: crate::clock::Second::of(at).expect("UTC"), micros: at.microsecond() };
    write_timestamp(&mut out, moment);
    String::from_utf8(out).expect("ASCII")
}

/// When a line is written: the second's cached forms and the microseconds into it (read from the
/// system clock, without the calendar date `clock::now` builds).
#[derive(Clone, Copy)]
struct Moment {
    second: crate::clock::Second,
    micros: u32,
}

impl Moment {
    fn now() -> Self {
        let since_epoch = crate::clock::since_epoch();
        let second = crate::clock::Second::of_unix(since_epoch.as_secs() as i64);
        Self { second, micros: since_epoch.subsec_micros() }
    }
}

/// `timestamp`'s text appended to `out`: 'YYYY-MM-DD HH:MM:SS' → 'YYYY-MM-DDTHH:MM:SS.ffffffZ'.
fn write_timestamp(out: &mut Vec<u8>, at: Moment) {
    let (day, time) = at.second.sql.split_at(10);
    out.extend_from_slice(day.as_bytes());
    out.push(b'T');
    out.extend_from_slice(&time.as_bytes()[1..]);
    out.push(b'.');
    let micros = at.micros;
    out.extend((0..6).rev().map(|place| b'0' + (micros / 10u32.pow(place) % 10) as u8));
    out.push(b'Z');
}

/// `micros` in milliseconds, as both formats write that many microseconds over a thousand as a
/// float: the whole part, a point, and the three decimals without their trailing zeros (`0` when
/// all are zero).
fn write_millis(out: &mut Vec<u8>, micros: u64) {
    write_number(out, micros / 1000);
    out.push(b'.');
    let thousandths = micros % 1000;
    let decimals = [thousandths / 100, thousandths / 10 % 10, thousandths % 10].map(|d| b'0' + d as u8);
    let kept = decimals.iter().rposition(|&d| d != b'0').map_or(1, |last| last + 1);
    out.extend_from_slice(&decimals[..kept]);
}

/// A number's decimal digits appended to `out`.
fn write_number(out: &mut Vec<u8>, mut number: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (number % 10) as u8;
        number /= 10;
        if number == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

fn json_string(out: &mut Vec<u8>, text: &str) {
    serde_json::to_writer(out, text).expect("a string serialises");
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use time::macros::datetime;
    use tracing_subscriber::fmt::MakeWriter;
    use tracing_subscriber::fmt::format::Writer;
    use tracing_subscriber::fmt::time::FormatTime;

    use super::*;

    const AT: time::OffsetDateTime = datetime!(2026-11-27 00:12:30.401344 UTC);

    /// The formatter's clock stopped at `AT`.
    struct Stopped;

    impl FormatTime for Stopped {
        fn format_time(&self, w: &mut Writer<'_>) -> std::fmt::Result {
            w.write_str(&timestamp(AT))
        }
    }

    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'a> MakeWriter<'a> for Captured {
        type Writer = Captured;
        fn make_writer(&'a self) -> Captured {
            self.clone()
        }
    }

    /// What `tracing-subscriber`, set up as `telemetry::init` sets it up, writes for `line`.
    fn formatted(line: &RequestLine<'_>, format: LineFormat) -> String {
        let captured = Captured::default();
        let builder =
            tracing_subscriber::fmt().with_writer(captured.clone()).with_timer(Stopped).with_ansi(false);
        let emit = || event(line);
        match format {
            LineFormat::Text => tracing::subscriber::with_default(builder.finish(), emit),
            LineFormat::Json => tracing::subscriber::with_default(builder.json().finish(), emit),
        }
        String::from_utf8(captured.0.lock().unwrap().clone()).unwrap()
    }

    fn rendered(line: &RequestLine<'_>, format: LineFormat) -> String {
        let at = Moment { second: crate::clock::Second::of(AT).unwrap(), micros: AT.microsecond() };
        String::from_utf8(render(line, format, at)).unwrap()
    }

    fn line(duration_micros: u64, path: &str) -> RequestLine<'_> {
        RequestLine {
            method: "GET",
            path,
            status: 200,
            duration_micros,
            request_id: "fa7cb127-8622-4b92-a746-aecb3541ddb4",
        }
    }

    #[test]
    fn the_line_is_the_one_the_formatter_writes_in_both_formats() {
        for format in [LineFormat::Text, LineFormat::Json] {
            for micros in [0, 1, 9, 10, 120, 999, 1000, 1001, 1010, 12_500, 250_000_000, 86_400_000_000] {
                for path in ["/v1/firearms/glock-17", "/v1/a\"b\\c", "/v1/%E2%82%AC"] {
                    let line = line(micros, path);
                    assert_eq!(
                        rendered(&line, format),
                        formatted(&line, format),
                        "{format:?} {micros} {path}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_text_line_reads_as_a_node_wrote_it() {
        // Copied from a node's log before the line was written by hand, the duration since rounded
        // to whole microseconds.
        let expected = "2026-11-27T00:12:30.401344Z  INFO armory::access: request method=GET \
                        path=/v1/firearms/glock-17 status=200 duration_ms=0.009 \
                        request_id=\"fa7cb127-8622-4b92-a746-aecb3541ddb4\"\n";
        assert_eq!(rendered(&line(9, "/v1/firearms/glock-17"), LineFormat::Text), expected);
        let json: serde_json::Value =
            serde_json::from_str(&rendered(&line(500, "/v1/a\"b"), LineFormat::Json)).unwrap();
        assert_eq!(json["fields"]["path"], "/v1/a\"b");
        assert_eq!(json["fields"]["status"], 200);
    }

    #[test]
    fn milliseconds_have_the_digits_of_both_formatters() {
        for micros in (0..3_000_000).step_by(7).chain([u64::from(u32::MAX) * 1000, 1 << 50]) {
            let mut out = Vec::new();
            write_millis(&mut out, micros);
            let millis = micros as f64 / 1000.0;
            let written = String::from_utf8(out).unwrap();
            assert_eq!(written, format!("{millis:?}"), "text, {micros} µs");
            assert_eq!(written, serde_json::to_string(&millis).unwrap(), "JSON, {micros} µs");
        }
    }

    #[test]
    fn a_whole_second_keeps_six_digits() {
        assert_eq!(timestamp(datetime!(2026-11-27 00:12:30 UTC)), "2026-11-27T00:12:30.000000Z");
    }
}
