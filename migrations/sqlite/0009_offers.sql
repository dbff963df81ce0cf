-- Sellers' offers: each shop's priced links to a catalog record (a firearm or an attachment).
-- `sku` is the shop's own key, unique within the shop, so a full replacement keeps the id and the
-- click count of every offer whose sku survives. `clicks` is counted by the keyless outbound link.
CREATE TABLE offers (
    id              TEXT PRIMARY KEY,
    shop_id         TEXT NOT NULL REFERENCES shops (id),
    sku             TEXT NOT NULL,
    target_type     TEXT NOT NULL,
    target_id       TEXT NOT NULL,
    price_minor     INTEGER NOT NULL,
    currency        TEXT NOT NULL,
    url             TEXT NOT NULL,
    stock           TEXT NOT NULL,
    item_condition  TEXT NOT NULL,
    status          TEXT NOT NULL,
    clicks          INTEGER NOT NULL DEFAULT 0,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    UNIQUE (shop_id, sku)
);
-- The buyers' lists: one record's published offers.
CREATE INDEX offers_target ON offers (target_type, target_id, status);
