//! The error reasons of the contract, as one typed table: the 39 of decisions.md and those added
//! since (reasons are added, never renamed; docs/decisions.md says why each was).
//!
//! Every non-2xx answer names one of these. The table is the single source for the status, the
//! `error.code` family, and the summary and client action that the OpenAPI description publishes.

macro_rules! reasons {
    ($( $variant:ident => $status:literal, $code:literal, $summary:literal, $action:literal; )*) => {
        /// One situation a client can branch on (`error.reason`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Reason { $( $variant, )* }

        impl Reason {
            /// Every reason, in the order of the published table.
            pub const ALL: &'static [Reason] = &[ $( Reason::$variant, )* ];

            /// The Rust variant name; `identifier` derives the wire form from it.
            fn variant_name(self) -> &'static str {
                match self { $( Reason::$variant => stringify!($variant), )* }
            }

            fn row(self) -> (u16, &'static str, &'static str, &'static str) {
                match self { $( Reason::$variant => ($status, $code, $summary, $action), )* }
            }
        }
    };
}

reasons! {
    InvalidParameter => 400, "VALIDATION_ERROR", "A path, query or body field failed validation; details names each field.", "Correct the named fields.";
    InvalidJson => 400, "VALIDATION_ERROR", "The body is not valid JSON.", "Send a valid JSON body with Content-Type: application/json.";
    InvalidRequest => 400, "VALIDATION_ERROR", "Well-formed but refused by the endpoint; the message says what.", "Change the request as the message says.";
    AuthRequired => 401, "UNAUTHORIZED", "The endpoint needs a credential and none was sent.", "Send X-API-Key or Authorization: Bearer.";
    KeyMissing => 401, "UNAUTHORIZED", "A credential header was sent but carries no API key.", "Put the key in the header.";
    KeyInvalid => 401, "UNAUTHORIZED", "The key was never issued or has been deleted.", "Check the key or create a new one.";
    KeyDisabled => 401, "UNAUTHORIZED", "The key is switched off by its owner.", "Re-enable the key or use another.";
    KeyExpired => 401, "UNAUTHORIZED", "The key is past its expiry date.", "Create a new key.";
    SignInRequired => 401, "UNAUTHORIZED", "The endpoint needs a signed-in session.", "Sign in.";
    SessionExpired => 401, "UNAUTHORIZED", "The session is no longer valid.", "Sign in again.";
    AccountNotFound => 401, "UNAUTHORIZED", "The credential verified but its account no longer exists.", "Contact support.";
    LinkExpired => 401, "UNAUTHORIZED", "A one-time access link expired or was already used.", "Request a new link.";
    ProxyCredentialInvalid => 401, "UNAUTHORIZED", "A proxy or marketplace credential does not verify.", "Check the marketplace credential.";
    PlanRequired => 403, "FORBIDDEN", "The plan is below the endpoint's tier; details.requiredTier names the tier needed.", "Upgrade the plan.";
    AccountSuspended => 403, "FORBIDDEN", "The account is suspended.", "Contact support.";
    KeyNotLinkedToAccount => 403, "FORBIDDEN", "The key is valid but no user account owns it (/v1/me).", "Use a key that belongs to an account.";
    KeyNotLinkedToShop => 403, "FORBIDDEN", "The key is valid but no shop names it (/v1/vendor).", "Use a key attached to a shop.";
    ShopUnderReview => 403, "FORBIDDEN", "The shop exists but is not yet approved.", "Wait for approval.";
    NotOwner => 403, "FORBIDDEN", "The resource belongs to another account or shop.", "Do not retry.";
    PurchaseRequired => 403, "FORBIDDEN", "The download belongs to a product the account has not bought.", "Buy the product.";
    LimitReached => 403, "FORBIDDEN", "The plan's allowance for this kind of item is used up.", "Remove an item or upgrade the plan.";
    PaginationDepthExceeded => 403, "FORBIDDEN", "The plan does not page this deep.", "Narrow the filter or upgrade the plan.";
    AdminRequired => 403, "FORBIDDEN", "The endpoint is for staff only.", "Do not retry.";
    ReadOnlySession => 403, "FORBIDDEN", "An impersonation session may read but never change.", "Do not retry.";
    OriginBlocked => 403, "FORBIDDEN", "A browser request carried the service's own origin without its apps' signature.", "Call from your own origin.";
    ClientBlocked => 403, "FORBIDDEN", "The client, user agent or address is blocked.", "Contact support.";
    ActionNotAllowed => 403, "FORBIDDEN", "The action is not permitted on this resource.", "Do not retry unchanged.";
    ResourceNotFound => 404, "NOT_FOUND", "The path is right and no record has that id.", "Check the id.";
    RouteNotFound => 404, "NOT_FOUND", "No endpoint answers this method and path.", "Check the method and path against /openapi.json.";
    Conflict => 409, "CONFLICT", "The request conflicts with existing data, such as a slug already in use.", "Change the conflicting value.";
    FavoritesRequired => 409, "CONFLICT", "A collection of the account's favorites was asked for and the account has none.", "Add favorites first (POST /v1/me/favorites/{firearmId}) or send firearmIds.";
    PayloadTooLarge => 413, "PAYLOAD_TOO_LARGE", "The body is larger than accepted; error.maxBytes carries the limit.", "Send a smaller body.";
    RateLimited => 429, "RATE_LIMITED", "Too many requests this minute for the plan.", "Wait Retry-After seconds (60).";
    DailyCapExceeded => 429, "RATE_LIMITED", "The plan's daily allowance is used up; it resets at midnight UTC.", "Wait Retry-After seconds (3600) or upgrade.";
    McpDailyCapExceeded => 429, "RATE_LIMITED", "The plan's daily allowance of MCP calls is used up; resets at midnight UTC.", "Wait for the reset; direct calls still count against the plan.";
    PaginationBurst => 429, "RATE_LIMITED", "Too many sequential pages of one list in a short time.", "Slow down or narrow the query.";
    ReportRateLimited => 429, "RATE_LIMITED", "A data report for this section was already filed in the last 24 hours.", "Wait 24 hours.";
    InternalError => 500, "INTERNAL_ERROR", "Failure on the service side, logged against request_id.", "Retry with backoff; quote request_id to support.";
    DependencyUnavailable => 503, "SERVICE_UNAVAILABLE", "A dependency is temporarily unavailable.", "Retry after a short wait.";
    Maintenance => 503, "SERVICE_UNAVAILABLE", "The API is paused for maintenance; Retry-After is sent.", "Retry after Retry-After seconds.";
}

impl Reason {
    /// The HTTP status code.
    pub fn status(self) -> u16 {
        self.row().0
    }

    /// The stable family sent as `error.code`.
    pub fn code(self) -> &'static str {
        self.row().1
    }

    pub fn summary(self) -> &'static str {
        self.row().2
    }

    pub fn action(self) -> &'static str {
        self.row().3
    }

    /// The identifier sent as `error.reason` (SCREAMING_SNAKE_CASE of the variant name).
    pub fn identifier(self) -> String {
        let mut out = String::new();
        for (i, ch) in self.variant_name().char_indices() {
            if ch.is_ascii_uppercase() && i > 0 {
                out.push('_');
            }
            out.push(ch.to_ascii_uppercase());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_the_39_reasons_of_the_contract_and_the_added_one() {
        assert_eq!(Reason::ALL.len(), 40);
        assert_eq!(Reason::FavoritesRequired.identifier(), "FAVORITES_REQUIRED");
        assert_eq!(Reason::KeyNotLinkedToAccount.identifier(), "KEY_NOT_LINKED_TO_ACCOUNT");
        assert_eq!(Reason::McpDailyCapExceeded.identifier(), "MCP_DAILY_CAP_EXCEEDED");
        assert_eq!(Reason::PayloadTooLarge.status(), 413);
        assert_eq!(Reason::Maintenance.code(), "SERVICE_UNAVAILABLE");
    }

    #[test]
    fn identifiers_are_unique() {
        let mut ids: Vec<String> = Reason::ALL.iter().map(|r| r.identifier()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 40);
    }
}
