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
    match Second::of(at) {
        Some(second) => second.sql.as_str().to_owned(),
        None => format_sql_timestamp(at),
    }
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

/// The wall clock as time since the Unix epoch (zero for a clock set before it), without the
/// calendar date `OffsetDateTime::now_utc` works out.
pub fn since_epoch() -> std::time::Duration {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default()
}

/// One UTC second in the forms the request path needs: the key expiry compares the timestamp, the
/// daily allowance and usage count by the day.
#[derive(Clone, Copy, Debug)]
pub struct Second {
    pub unix_second: i64,
    /// `sql_timestamp`'s form.
    pub sql: Stamp<19>,
    /// `day`'s form.
    pub day: Stamp<10>,
}

thread_local! {
    /// The forms of the last second asked for on this thread. Formatting them was a few per cent
    /// of a firearm detail, and a busy node asks for the same second thousands of times.
    static LAST_SECOND: std::cell::Cell<Option<Second>> = const { std::cell::Cell::new(None) };
}

impl Second {
    /// The current second, from the system clock without the calendar date `now` builds (the
    /// request path asks for it several times a request).
    pub fn now() -> Self {
        Self::of_unix(since_epoch().as_secs() as i64)
    }

    /// The second `unix_second` seconds after the Unix epoch.
    pub fn of_unix(unix_second: i64) -> Self {
        if let Some(last) = LAST_SECOND.get()
            && last.unix_second == unix_second
        {
            return last;
        }
        let at = OffsetDateTime::from_unix_timestamp(unix_second).unwrap_or(OffsetDateTime::UNIX_EPOCH);
        let second =
            Self { unix_second, sql: Stamp::of(&format_sql_timestamp(at)), day: Stamp::of(&format_day(at)) };
        LAST_SECOND.set(Some(second));
        second
    }

    /// `at`'s second; none when `at` is not in UTC (its forms are written as given).
    pub fn of(at: OffsetDateTime) -> Option<Self> {
        at.offset().is_utc().then(|| Self::of_unix(at.unix_timestamp()))
    }

    /// Until just past the next UTC midnight, when a counter of this second's day is no longer
    /// needed.
    pub fn until_after_midnight(&self) -> Duration {
        Duration::from_secs((86_400 - self.unix_second.rem_euclid(86_400) + 60) as u64)
    }
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
    match Second::of(at) {
        Some(second) => second.day.as_str().to_owned(),
        None => format_day(at),
    }
}

/// Milliseconds since the Unix epoch (webhook schedules).
pub fn unix_millis_now() -> i64 {
    (now().unix_timestamp_nanos() / 1_000_000) as i64
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
        let second = Second::of(at).unwrap();
        assert_eq!((&*second.sql, &*second.day), ("2026-11-24 01:02:03", "2026-11-24"));
        assert_eq!(second.until_after_midnight(), Duration::from_secs(86_400 - 3723 + 60));
        let now = Second::now();
        assert_eq!(&*now.day, day(OffsetDateTime::from_unix_timestamp(now.unix_second).unwrap()));
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
