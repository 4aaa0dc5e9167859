//! One timestamp format for everything stored: RFC 3339, UTC, milliseconds,
//! `Z` suffix. Because every stored time has this exact shape, the ledger can
//! compare and sort timestamps as plain strings, which keeps the time-range
//! indexes usable.

use chrono::{DateTime, SecondsFormat, Utc};

use crate::{Error, Result};

/// Formats a time the way the ledger stores it (`2026-11-21T10:00:00.123Z`).
pub fn format(time: DateTime<Utc>) -> String {
    time.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// The current time in the stored format.
pub fn now() -> String {
    format(Utc::now())
}

/// Reads an RFC 3339 time with any offset and returns it in the stored format.
pub fn normalize(input: &str) -> Option<String> {
    DateTime::parse_from_rfc3339(input.trim())
        .ok()
        .map(|t| format(t.with_timezone(&Utc)))
}

/// Reads a `--since`/`--until` value: a duration back from `now` (`30m`, `1h`,
/// `2d`, `1h30m`) or an absolute RFC 3339 time.
pub fn parse_time_bound(input: &str, now: DateTime<Utc>) -> Result<DateTime<Utc>> {
    let trimmed = input.trim();
    if let Ok(time) = DateTime::parse_from_rfc3339(trimmed) {
        return Ok(time.with_timezone(&Utc));
    }
    let invalid = || Error::InvalidTime {
        input: input.to_owned(),
    };
    let duration = humantime::parse_duration(trimmed).map_err(|_| invalid())?;
    let duration = chrono::Duration::from_std(duration).map_err(|_| invalid())?;
    now.checked_sub_signed(duration).ok_or_else(invalid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn normalizes_offsets_to_utc_millis() {
        assert_eq!(
            normalize("2026-11-21T12:00:00.5+02:00").as_deref(),
            Some("2026-11-21T10:00:00.500Z")
        );
        assert_eq!(normalize("yesterday"), None);
    }

    #[test]
    fn durations_count_back_from_now() {
        let now = Utc.with_ymd_and_hms(2026, 11, 21, 12, 0, 0).unwrap();
        let cases = [("1h", 11, 0), ("30m", 11, 30), ("1h30m", 10, 30)];
        for (input, hour, minute) in cases {
            let expected = Utc.with_ymd_and_hms(2026, 11, 21, hour, minute, 0).unwrap();
            assert_eq!(parse_time_bound(input, now).unwrap(), expected, "{input}");
        }
        let two_days = parse_time_bound("2d", now).unwrap();
        assert_eq!(
            two_days,
            Utc.with_ymd_and_hms(2026, 11, 19, 12, 0, 0).unwrap()
        );
    }

    #[test]
    fn absolute_times_and_garbage() {
        let now = Utc::now();
        let t = parse_time_bound("2026-01-02T03:04:05Z", now).unwrap();
        assert_eq!(format(t), "2026-01-02T03:04:05.000Z");
        let err = parse_time_bound("soon", now).unwrap_err();
        assert!(err.to_string().contains("soon"));
    }
}
