//! Who is calling: a presented key turned into a `Caller`, or the 401 that says why not; the
//! narrower callers of /v1/me and /v1/vendor. `http::access` reads the key from the request and
//! hands the callers to handlers.

use std::sync::Arc;

use super::cache::{KeyCache, KeyEntry, ShopEntry};
use super::keys::digest_secret;
use super::plan::Plan;
use crate::error::{ApiError, Reason};

/// An authenticated caller, available to handlers as a request extension.
#[derive(Debug, Clone)]
pub struct Caller {
    /// Shared with the key cache's entry, so a handler's copy of the caller copies no text.
    pub key_id: Arc<str>,
    pub account_id: Option<Arc<str>>,
    /// The plan in force now: Explorer once a paid subscription has ended, and for ownerless keys.
    pub plan: Plan,
    pub suspended: bool,
    pub staff: bool,
    pub shops: Arc<[super::cache::ShopEntry]>,
}

impl Caller {
    /// Whose budget a request spends: the account's, or the key's own when no account owns it.
    pub fn subject(&self) -> std::borrow::Cow<'_, str> {
        match &self.account_id {
            Some(account) => (&**account).into(),
            None => ["key:", &self.key_id].concat().into(),
        }
    }
}

/// The caller a presented key stands for, or the 401 saying why it stands for none.
pub fn authenticate(key: &str, cache: &KeyCache, now: &str) -> Result<Caller, ApiError> {
    let entry = cache.get(&digest_secret(key)).filter(|entry| entry.status != "revoked");
    let Some(entry) = entry else {
        return Err(ApiError::new(Reason::KeyInvalid, "The API key is not valid."));
    };
    if entry.status == "disabled" {
        return Err(ApiError::new(Reason::KeyDisabled, "The API key is disabled by its owner."));
    }
    if entry.expires_at.as_deref().is_some_and(|expiry| expiry <= now) {
        return Err(ApiError::new(Reason::KeyExpired, "The API key is past its expiry date."));
    }
    caller_of(&entry, now)
}

fn caller_of(entry: &KeyEntry, now: &str) -> Result<Caller, ApiError> {
    let (plan, suspended, staff) = match (&entry.account_id, &entry.account) {
        (Some(_), None) => {
            return Err(ApiError::new(Reason::AccountNotFound, "The key's account no longer exists."));
        }
        (Some(_), Some(account)) => {
            let paid_ended = account.paid_until.as_deref().is_some_and(|end| end <= now);
            let plan = if paid_ended { Plan::Explorer } else { account.plan };
            (plan, account.status == "suspended", account.staff)
        }
        (None, _) => (Plan::Explorer, false, false),
    };
    Ok(Caller {
        key_id: entry.key_id.clone(),
        account_id: entry.account_id.clone(),
        plan,
        suspended,
        staff,
        shops: entry.shops.clone(),
    })
}

/// A caller acting for a user account, as every /v1/me operation needs (the gate has already
/// answered 403 KEY_NOT_LINKED_TO_ACCOUNT to a key no account owns).
#[derive(Debug, Clone)]
pub struct AccountCaller {
    pub account_id: String,
    pub caller: Caller,
}

/// A caller acting for the shops its key is linked to, as every /v1/vendor operation needs (the
/// gate has already answered 403 KEY_NOT_LINKED_TO_SHOP, and SHOP_UNDER_REVIEW to a write by a key
/// with no approved shop).
#[derive(Debug, Clone)]
pub struct ShopCaller {
    pub shop_ids: Vec<String>,
    pub caller: Caller,
}

/// 403 SHOP_UNDER_REVIEW: the answer to every write by a shop not yet approved.
pub fn shop_under_review() -> ApiError {
    ApiError::new(
        Reason::ShopUnderReview,
        "The shop is under review: it may read its offers but change none until approved.",
    )
}

impl ShopCaller {
    /// The shop a request acts for: the one `named` (another's, or an unknown one, is 404), or the
    /// key's only shop; a key acting for several must name one (400 naming `param`).
    pub fn act_for(&self, named: Option<&str>, param: &str) -> Result<&ShopEntry, ApiError> {
        let shops = &self.caller.shops;
        match (named, &shops[..]) {
            (Some(id), _) => {
                shops.iter().find(|shop| shop.shop_id == id).ok_or_else(|| ApiError::not_found("shop", id))
            }
            (None, [only]) => Ok(only),
            (None, _) => {
                let ids: Vec<&str> = shops.iter().map(|shop| shop.shop_id.as_str()).collect();
                Err(ApiError::invalid_parameter(
                    param,
                    format!("is required: this key acts for several shops ({})", ids.join(", ")),
                ))
            }
        }
    }

    /// The key's shop with this id, if it is one of them.
    pub fn shop(&self, id: &str) -> Option<&ShopEntry> {
        self.caller.shops.iter().find(|shop| shop.shop_id == id)
    }

    /// Writes need the shop approved: a shop under review may only read.
    pub fn may_write(shop: &ShopEntry) -> Result<(), ApiError> {
        if shop.approved { Ok(()) } else { Err(shop_under_review()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_whose_account_is_gone_is_account_not_found() {
        let entry = KeyEntry {
            key_id: "key_1".into(),
            status: "active".into(),
            expires_at: None,
            account_id: Some("acct_gone".into()),
            account: None,
            shops: [].into(),
        };
        assert_eq!(caller_of(&entry, "2026-01-01 00:00:00").unwrap_err().reason, Reason::AccountNotFound);
    }
}
