//! The attachments list item, for the description only.

use utoipa::ToSchema;

/// An attachment in the list of GET /v1/attachments.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct AttachmentItem {
    id: String,
    name: String,
    vendor: Option<String>,
    kind: Option<String>,
    /// Ids of the interface standards it mounts to.
    interfaces: Vec<String>,
    weight_g: Option<f64>,
    length_mm: Option<f64>,
}
