//! The answer of every delete that names what it removed.

use serde::Serialize;
use utoipa::ToSchema;

// What a delete removed.
#[derive(Serialize, ToSchema)]
pub struct Deleted {
    /// Always true.
    deleted: bool,
    id: String,
}

impl Deleted {
    pub fn new(id: String) -> Self {
        Self { deleted: true, id }
    }
}
