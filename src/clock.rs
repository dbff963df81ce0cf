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
    per_second(at, |forms| forms.sql.clone(), format_sql_timestamp)
}

fn format_sql_timestamp(at: OffsetDateTime) -> String {
    at.format(format_description!("[year]-[month]-[day] [hour]:[minute]:[second]")).expect("UTC formats")
}

fn format_day(at: OffsetDateTime) -> String {
    at.format(format_description!("[year]-[month]-[day]")).expect("UTC formats")
}

/// The second-resolution forms of one UTC second.
struct SecondForms {
    unix_second: i64,
    sql: String,
    day: String,
}

thread_local! {
    /// The forms of the last UTC second formatted on this thread. Every keyed request needs the
    /// timestamp (key expiry) and the day (the daily allowance, usage); formatting them was a few
    /// per cent of a firearm detail, and a busy node asks for the same second thousands of times.
    static LAST_SECOND: std::cell::RefCell<Option<SecondForms>> = const { std::cell::RefCell::new(None) };
}

/// `read` of the cached forms of `at`'s second, or `format(at)` when `at` is not UTC.
fn per_second(
    at: OffsetDateTime,
    read: impl FnOnce(&SecondForms) -> String,
    format: fn(OffsetDateTime) -> String,
) -> String {
    if !at.offset().is_utc() {
        return format(at);
    }
    let unix_second = at.unix_timestamp();
    LAST_SECOND.with_borrow_mut(|last| {
        if last.as_ref().is_none_or(|forms| forms.unix_second != unix_second) {
            *last = Some(SecondForms { unix_second, sql: format_sql_timestamp(at), day: format_day(at) });
        }
        read(last.as_ref().expect("just filled"))
    })
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
    per_second(at, |forms| forms.day.clone(), format_day)
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
