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
    at.format(format_description!("[year]-[month]-[day] [hour]:[minute]:[second]")).expect("UTC formats")
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
    at.format(format_description!("[year]-[month]-[day]")).expect("UTC formats")
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
}
