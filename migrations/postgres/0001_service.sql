-- Service bookkeeping: one row per named counter (catalog revision and the like).
CREATE TABLE service_state (
    name  TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);
INSERT INTO service_state (name, value) VALUES ('catalog_revision', 0);
