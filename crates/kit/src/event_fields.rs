//! Reading the ids and times an event's payload names, alike in every consumer: a field
//! that is not what it should be skips the fact (logged with the event's id) instead of
//! failing the consumer, which would retry an event that can never apply.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use crate::events::Event;

impl Event {
    /// The id in `value` (the payload's field `field`), or `None`, logged, when it is none.
    pub fn id_field(&self, field: &str, value: &str) -> Option<Uuid> {
        let parsed = Uuid::parse_str(value.trim()).ok();
        if parsed.is_none() {
            tracing::warn!(event_id = %self.id, field, "event names no valid id, skipped");
        }
        parsed
    }

    /// An optional id: empty is none; what is not an id is none as well (logged).
    pub fn opt_id_field(&self, field: &str, value: &str) -> Option<Uuid> {
        if value.trim().is_empty() {
            None
        } else {
            self.id_field(field, value)
        }
    }

    /// The time in `value` (RFC 3339), else the event's own time, else now: a time is
    /// needed to place the fact, and the event's is the closest one known.
    pub fn time_field(&self, value: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(value)
            .or_else(|_| DateTime::parse_from_rfc3339(&self.time))
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_else(|_| Utc::now())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(time: &str) -> Event {
        Event {
            id: Uuid::now_v7(),
            event_type: "t".into(),
            source: "s".into(),
            time: time.into(),
            key: String::new(),
            data: Vec::new(),
            traceparent: None,
        }
    }

    #[test]
    fn ids_are_read_or_skipped() {
        let e = event("2026-01-02T03:04:05Z");
        let id = Uuid::now_v7();
        assert_eq!(e.id_field("book_id", &format!(" {id} ")), Some(id));
        assert_eq!(e.id_field("book_id", "not an id"), None);
        assert_eq!(e.opt_id_field("publisher", ""), None);
        assert_eq!(e.opt_id_field("publisher", &id.to_string()), Some(id));
    }

    #[test]
    fn a_missing_time_is_the_events_own() {
        let e = event("2026-01-02T03:04:05Z");
        assert_eq!(e.time_field("").to_rfc3339(), "2026-01-02T03:04:05+00:00");
        assert_eq!(
            e.time_field("2025-05-05T00:00:00Z").to_rfc3339(),
            "2025-05-05T00:00:00+00:00"
        );
    }
}
