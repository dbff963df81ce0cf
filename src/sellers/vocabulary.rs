//! The closed lists and bounds of an offer (../shared/spec/vocabularies.md: offer status and
//! target), published as enums and bounds in the OpenAPI description from these same constants.

/// At most this many offers in one `PUT /v1/vendor/offers`, which is also the most a shop holds.
pub const MAX_OFFERS: usize = 500;

/// A shop's own stock-keeping unit: 1 to this many characters, not only white space.
pub const MAX_SKU_CHARS: usize = 100;

/// The largest price in minor units: the largest integer a JSON number carries exactly in every
/// client (2^53 - 1).
pub const MAX_PRICE_MINOR: i64 = 9_007_199_254_740_991;

/// What an offer sells: a catalog record of one of these kinds.
pub const TARGET_TYPES: &[&str] = &["firearm", "attachment"];
pub const STOCK: &[&str] = &["in_stock", "out_of_stock", "preorder"];
pub const CONDITIONS: &[&str] = &["new", "used", "refurbished"];
/// Only published offers reach buyers.
pub const STATUSES: &[&str] = &["draft", "published"];

/// The currencies an offer may be priced in (ISO 4217). `priceMinor` counts the currency's minor
/// unit as ISO 4217 defines it: 1999 in USD is 19.99 dollars; in JPY or KRW, which have none, it
/// is 1999 yen or won. A code is added here, and nowhere else, when a shop needs it.
pub const CURRENCIES: &[&str] = &[
    "AED", "AUD", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "EUR", "GBP", "HKD", "HUF", "ILS", "INR", "JPY",
    "KRW", "MXN", "NOK", "NZD", "PLN", "SEK", "SGD", "TRY", "USD", "ZAR",
];

pub fn is_currency(code: &str) -> bool {
    CURRENCIES.contains(&code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn currencies_are_sorted_unique_iso_shaped_codes() {
        let codes = CURRENCIES;
        assert!(codes.windows(2).all(|pair| pair[0] < pair[1]), "sorted, no duplicate");
        assert!(codes.iter().all(|c| c.len() == 3 && c.bytes().all(|b| b.is_ascii_uppercase())));
        assert!(is_currency("EUR") && !is_currency("eur") && !is_currency("XXX"));
    }
}
