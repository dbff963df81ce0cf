//! The event types of the spec's Events section: the list deliveries are made of, and the same
//! list that validates subscriptions.

/// Sent to every endpoint subscribed to anything, whether or not it asked for it.
pub const RESYNCED: &str = "catalog.resynced";

/// The type of a test delivery (POST /v1/me/webhooks/{endpointId}/test); never subscribable.
pub const TEST: &str = "webhook.test";

pub const EVENT_TYPES: &[&str] = &[
    "firearm.created",
    "firearm.updated",
    "firearm.deleted",
    "firearm.variant.updated",
    "firearm.source.changed",
    "firearm.confidence.changed",
    "manufacturer.created",
    "manufacturer.updated",
    "manufacturer.deleted",
    "caliber.created",
    "caliber.updated",
    "caliber.deleted",
    "category.created",
    "category.updated",
    "category.deleted",
    "image.created",
    "image.deleted",
    RESYNCED,
];

pub fn is_event_type(text: &str) -> bool {
    EVENT_TYPES.contains(&text)
}

/// Whether an endpoint subscribed to `subscribed` receives an event of `event_type`.
pub fn receives(subscribed: &[String], event_type: &str) -> bool {
    if event_type == RESYNCED {
        return !subscribed.is_empty();
    }
    subscribed.iter().any(|s| s == event_type)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resynced_reaches_every_subscriber() {
        let one = vec!["firearm.updated".to_owned()];
        assert!(receives(&one, RESYNCED));
        assert!(receives(&one, "firearm.updated"));
        assert!(!receives(&one, "firearm.created"));
        assert!(!is_event_type(TEST));
        assert_eq!(EVENT_TYPES.len(), 18);
    }
}
