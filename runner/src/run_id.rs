//! Run ids: `<UTC timestamp>-<6 hex digits>`, e.g. `20260101T120000Z-3fa9c2`.
//!
//! The timestamp makes `.a3s-test/runs/` sort by time; the suffix keeps two runs started in the
//! same second (two CI shards on one machine) apart. The suffix is 3 bytes from the OS's random
//! source (`getrandom`, as every token of the tool); without one, it is derived from the time and
//! the pid, which still separates two processes.

use time::OffsetDateTime;

/// A new run id for a run starting at `now`.
pub fn new_run_id(now: OffsetDateTime) -> String {
    let mut bytes = [0u8; 4];
    if getrandom::fill(&mut bytes[1..]).is_err() {
        let fallback = (now.unix_timestamp_nanos() as u32) ^ std::process::id().rotate_left(12);
        bytes = fallback.to_be_bytes();
    }
    let suffix = u32::from_be_bytes(bytes) & 0xff_ffff;
    let t = now.to_offset(time::UtcOffset::UTC);
    format!(
        "{:04}{:02}{:02}T{:02}{:02}{:02}Z-{suffix:06x}",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

/// RFC 3339 text of a time (UTC), for results.
pub fn rfc3339(t: OffsetDateTime) -> String {
    t.to_offset(time::UtcOffset::UTC)
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_else(|_| t.unix_timestamp().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_and_uniqueness() {
        let now = OffsetDateTime::from_unix_timestamp(1_767_268_800).unwrap();
        let a = new_run_id(now);
        let b = new_run_id(now);
        assert!(a.starts_with("20260101T120000Z-"), "{a}");
        assert_eq!(a.len(), "20260101T120000Z-".len() + 6);
        assert_ne!(a, b);
        assert_eq!(rfc3339(now), "2026-01-01T12:00:00Z");
    }
}
