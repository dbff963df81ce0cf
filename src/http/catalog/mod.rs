//! The catalog reads (operations 3 to 92 that exist so far), answered from the in-memory snapshot
//! (frozen game-stats versions from the database; sellers' offers, in `offers`, from the database
//! too, so a shop's change shows at once).

pub mod ammunition;
pub mod attachments;
pub mod calibers;
pub mod categories;
pub mod countries;
pub mod firearms;
pub mod game_stats_versions;
pub mod manufacturer_history;
pub mod manufacturers;
pub mod offers;
