//! The one clock: every timestamp the service stores or serves is UTC and formatted here, so the
//! forms (the spec's `YYYY-MM-DD HH:MM:SS`, ISO 8601 with milliseconds, the UTC day) never drift
//! apart between modules.

use std::time::Duration;

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;

pub fn now() -> OffsetDateTime {
    OffsetDateTime::now_utc()
}

/// 'YYYY-MM-DD HH:MM:SS' UTC, the spec's createdAt / updatedAt form (and how instants are stored).
pub fn sql_timestamp(at: OffsetDateTime) -> String {
    second_stamp(at).as_str().to_owned()
}

/// `sql_timestamp` without an allocation, for the request path.
pub fn second_stamp(at: OffsetDateTime) -> Stamp<19> {
    per_second(at, |forms| forms.sql).unwrap_or_else(|| Stamp::of(&format_sql_timestamp(at)))
}

fn format_sql_timestamp(at: OffsetDateTime) -> String {
    at.format(format_description!("[year]-[month]-[day] [hour]:[minute]:[second]")).expect("UTC formats")
}

fn format_day(at: OffsetDateTime) -> String {
    at.format(format_description!("[year]-[month]-[day]")).expect("UTC formats")
}

/// A timestamp form of fixed width, held by value: the request path reads the cached forms of the
/// current second without allocating (the ASCII digits and separators of `format_*`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Stamp<const N: usize>([u8; N]);

impl<const N: usize> Stamp<N> {
    fn of(form: &str) -> Self {
        let mut bytes = [b'0'; N];
        // A year past 9999 is wider than the form; such an instant never reaches the service.
        let width = form.len().min(N);
        bytes[..width].copy_from_slice(&form.as_bytes()[..width]);
        Self(bytes)
    }

    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.0).expect("formed from a str of ASCII")
    }
}

impl<const N: usize> std::ops::Deref for Stamp<N> {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl<const N: usize> std::fmt::Debug for Stamp<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_str().fmt(f)
    }
}

/// The second-resolution forms of one UTC second.
#[derive(Clone, Copy)]
struct SecondForms {
    unix_second: i64,
    sql: Stamp<19>,
    day: Stamp<10>,
}

thread_local! {
    /// The forms of the last UTC second formatted on this thread. Every keyed request needs the
    /// timestamp (key expiry) and the day (the daily allowance, usage); formatting them was a few
    /// per cent of a firearm detail, and a busy node asks for the same second thousands of times.
    static LAST_SECOND: std::cell::Cell<Option<SecondForms>> = const { std::cell::Cell::new(None) };
}

/// `read` of the cached forms of `at`'s second; none when `at` is not UTC (formatted as given).
fn per_second<T>(at: OffsetDateTime, read: impl FnOnce(&SecondForms) -> T) -> Option<T> {
    if !at.offset().is_utc() {
        return None;
    }
    let unix_second = at.unix_timestamp();
    let forms = match LAST_SECOND.get() {
        Some(forms) if forms.unix_second == unix_second => forms,
        _ => {
            let forms = SecondForms {
                unix_second,
                sql: Stamp::of(&format_sql_timestamp(at)),
                day: Stamp::of(&format_day(at)),
            };
            LAST_SECOND.set(Some(forms));
            forms
        }
    };
    Some(read(&forms))
}

/// `sql_timestamp` of now.
pub fn sql_now() -> String {
    sql_timestamp(now())
}

/// ISO 8601 UTC with milliseconds, the webhook created_at form.
pub fn iso_millis_now() -> String {
    now()
        .format(format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"))
        .expect("UTC formats")
}

/// RFC 3339, the health probe's timestamp.
pub fn rfc3339_now() -> String {
    now().format(&Rfc3339).unwrap_or_default()
}

/// The UTC day, 'YYYY-MM-DD': the daily allowance and usage are counted per day.
pub fn day(at: OffsetDateTime) -> String {
    day_stamp(at).as_str().to_owned()
}

/// `day` without an allocation, for the request path.
pub fn day_stamp(at: OffsetDateTime) -> Stamp<10> {
    per_second(at, |forms| forms.day).unwrap_or_else(|| Stamp::of(&format_day(at)))
}

/// Milliseconds since the Unix epoch (webhook schedules).
pub fn unix_millis_now() -> i64 {
    (now().unix_timestamp_nanos() / 1_000_000) as i64
}

/// Until just past the next UTC midnight, when a day's counter is no longer needed.
pub fn until_after_midnight(at: OffsetDateTime) -> Duration {
    let seconds_into_day = i64::from(at.hour()) * 3600 + i64::from(at.minute()) * 60 + i64::from(at.second());
    Duration::from_secs((86_400 - seconds_into_day + 60) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn forms() {
        let at = datetime!(2026-11-24 01:02:03 UTC);
        assert_eq!(sql_timestamp(at), "2026-11-24 01:02:03");
        assert_eq!(day(at), "2026-11-24");
        assert_eq!(until_after_midnight(at), Duration::from_secs(86_400 - 3723 + 60));
    }

    #[test]
    fn the_cached_second_follows_the_instant_asked_for() {
        let seconds = [
            datetime!(2026-11-24 23:59:59.1 UTC),
            datetime!(2026-11-24 23:59:59.9 UTC),
            datetime!(2026-11-25 00:00:00 UTC),
            datetime!(2026-11-24 23:59:59 UTC),
        ];
        for at in seconds {
            assert_eq!(sql_timestamp(at), format_sql_timestamp(at));
            assert_eq!(day(at), format_day(at));
        }
        // Not UTC: formatted as given, never from the cache of the same instant in UTC.
        let east = datetime!(2026-11-25 01:00:00 +01:00);
        assert_eq!(day(datetime!(2026-11-25 00:00:00 UTC)), "2026-11-25");
        assert_eq!(sql_timestamp(east), "2026-11-25 01:00:00");
    }
}
