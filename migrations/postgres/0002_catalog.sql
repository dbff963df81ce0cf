-- The catalog. Every table keeps the record as the data files hold it (`record`, JSON) beside its
-- typed columns: the columns serve SQL queries and inspection, `record` is what the read path and
-- `catalog export` load back. `version` is a content hash of the served fields; `version` and
-- `updated_at` move only when it changes. Times are 'YYYY-MM-DD HH:MM:SS' UTC.
-- References are DEFERRABLE INITIALLY DEFERRED: the import writes a whole catalog in one
-- transaction, in any order, and the references are checked at commit.

CREATE TABLE categories (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    description TEXT,
    record      TEXT NOT NULL,
    version     TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

CREATE TABLE manufacturers (
    id               TEXT PRIMARY KEY,
    name             TEXT NOT NULL,
    country_code     TEXT,
    founded_year     BIGINT,
    website          TEXT,
    logo_url         TEXT,
    description      TEXT,
    data_confidence  DOUBLE PRECISION,
    sources          TEXT,
    source_kinds     TEXT,
    best_source_kind TEXT,
    verified_at      TEXT,
    verified_fields  TEXT,
    record           TEXT NOT NULL,
    version          TEXT NOT NULL,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);

CREATE TABLE calibers (
    id                          TEXT PRIMARY KEY,
    name                        TEXT NOT NULL,
    aliases                     TEXT,
    nato_designation            TEXT,
    bullet_diameter_mm          DOUBLE PRECISION,
    neck_diameter_mm            DOUBLE PRECISION,
    base_diameter_mm            DOUBLE PRECISION,
    case_length_mm              DOUBLE PRECISION,
    overall_length_mm           DOUBLE PRECISION,
    max_pressure_mpa            DOUBLE PRECISION,
    max_pressure_psi            DOUBLE PRECISION,
    typical_bullet_weight_g     DOUBLE PRECISION,
    typical_muzzle_velocity_mps DOUBLE PRECISION,
    typical_muzzle_energy_j     DOUBLE PRECISION,
    primer_type                 TEXT,
    cartridge_type              TEXT,
    parent_cartridge_id         TEXT REFERENCES calibers (id) DEFERRABLE INITIALLY DEFERRED,
    designer                    TEXT,
    year_introduced             BIGINT,
    description                 TEXT,
    spec_source                 TEXT,
    data_confidence             DOUBLE PRECISION,
    sources                     TEXT,
    source_kinds                TEXT,
    best_source_kind            TEXT,
    verified_at                 TEXT,
    verified_fields             TEXT,
    record                      TEXT NOT NULL,
    version                     TEXT NOT NULL,
    created_at                  TEXT NOT NULL,
    updated_at                  TEXT NOT NULL
);

CREATE TABLE interfaces (
    id               TEXT PRIMARY KEY,
    name             TEXT NOT NULL,
    kind             TEXT,
    standard_body    TEXT,
    description      TEXT,
    data_confidence  DOUBLE PRECISION,
    sources          TEXT,
    source_kinds     TEXT,
    best_source_kind TEXT,
    verified_at      TEXT,
    verified_fields  TEXT,
    record           TEXT NOT NULL,
    version          TEXT NOT NULL,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);

CREATE TABLE platforms (
    id               TEXT PRIMARY KEY,
    name             TEXT NOT NULL,
    description      TEXT,
    data_confidence  DOUBLE PRECISION,
    sources          TEXT,
    source_kinds     TEXT,
    best_source_kind TEXT,
    verified_at      TEXT,
    verified_fields  TEXT,
    record           TEXT NOT NULL,
    version          TEXT NOT NULL,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);

CREATE TABLE platform_interfaces (
    platform_id  TEXT NOT NULL REFERENCES platforms (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    interface_id TEXT NOT NULL REFERENCES interfaces (id) DEFERRABLE INITIALLY DEFERRED,
    PRIMARY KEY (platform_id, interface_id)
);

CREATE TABLE firearms (
    id                  TEXT PRIMARY KEY,
    name                TEXT NOT NULL,
    manufacturer_id     TEXT NOT NULL REFERENCES manufacturers (id) DEFERRABLE INITIALLY DEFERRED,
    category_id         TEXT NOT NULL REFERENCES categories (id) DEFERRABLE INITIALLY DEFERRED,
    parent_firearm_id   TEXT REFERENCES firearms (id) DEFERRABLE INITIALLY DEFERRED,
    variant_type        TEXT,
    year_introduced     BIGINT,
    year_discontinued   BIGINT,
    status              TEXT,
    country_of_origin   TEXT,
    designer            TEXT,
    weight_empty_g      DOUBLE PRECISION,
    weight_loaded_g     DOUBLE PRECISION,
    overall_length_mm   DOUBLE PRECISION,
    barrel_length_mm    DOUBLE PRECISION,
    height_mm           DOUBLE PRECISION,
    width_mm            DOUBLE PRECISION,
    sight_radius_mm     DOUBLE PRECISION,
    folded_length_mm    DOUBLE PRECISION,
    action_type         TEXT,
    firing_mechanism    TEXT,
    trigger_type        TEXT,
    magazine_type       TEXT,
    trigger_pull_n      DOUBLE PRECISION,
    magazine_capacity   BIGINT,
    muzzle_velocity_mps DOUBLE PRECISION,
    muzzle_energy_j     DOUBLE PRECISION,
    effective_range_m   DOUBLE PRECISION,
    max_range_m         DOUBLE PRECISION,
    rate_of_fire_rpm    BIGINT,
    barrel_rifling      TEXT,
    rifling_twist_mm    DOUBLE PRECISION,
    number_of_grooves   BIGINT,
    frame_material      TEXT,
    slide_material      TEXT,
    barrel_material     TEXT,
    stock_material      TEXT,
    finish              TEXT,
    safety_mechanisms   TEXT,
    features            TEXT,
    feed_systems        TEXT,
    alternate_names     TEXT,
    firing_modes        TEXT,
    conflicts           TEXT,
    production_numbers  TEXT,
    description         TEXT,
    notes               TEXT,
    lore                TEXT,
    platform_id         TEXT REFERENCES platforms (id) DEFERRABLE INITIALLY DEFERRED,
    data_confidence     DOUBLE PRECISION,
    sources             TEXT,
    source_kinds        TEXT,
    best_source_kind    TEXT,
    verified_at         TEXT,
    verified_fields     TEXT,
    record              TEXT NOT NULL,
    version             TEXT NOT NULL,
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL
);
CREATE INDEX firearms_manufacturer ON firearms (manufacturer_id);
CREATE INDEX firearms_category ON firearms (category_id);
CREATE INDEX firearms_parent ON firearms (parent_firearm_id);

CREATE TABLE firearm_calibers (
    firearm_id TEXT NOT NULL REFERENCES firearms (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    caliber_id TEXT NOT NULL REFERENCES calibers (id) DEFERRABLE INITIALLY DEFERRED,
    is_primary BIGINT NOT NULL,
    position   BIGINT NOT NULL,
    PRIMARY KEY (firearm_id, caliber_id)
);
CREATE INDEX firearm_calibers_caliber ON firearm_calibers (caliber_id);

CREATE TABLE firearm_users (
    id           BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    firearm_id   TEXT NOT NULL REFERENCES firearms (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    position     BIGINT NOT NULL,
    user_name    TEXT NOT NULL,
    user_type    TEXT,
    country_code TEXT,
    designation  TEXT,
    adopted_year BIGINT
);
CREATE INDEX firearm_users_firearm ON firearm_users (firearm_id);

CREATE TABLE images (
    id         BIGINT PRIMARY KEY,
    firearm_id TEXT NOT NULL REFERENCES firearms (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    url        TEXT NOT NULL,
    type       TEXT,
    source     TEXT,
    license    TEXT,
    alt_text   TEXT,
    width_px   BIGINT,
    height_px  BIGINT
);
CREATE INDEX images_firearm ON images (firearm_id);

CREATE TABLE firearm_interfaces (
    firearm_id   TEXT NOT NULL REFERENCES firearms (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    interface_id TEXT NOT NULL REFERENCES interfaces (id) DEFERRABLE INITIALLY DEFERRED,
    PRIMARY KEY (firearm_id, interface_id)
);

CREATE TABLE ammunition (
    id                      TEXT PRIMARY KEY,
    name                    TEXT NOT NULL,
    caliber_id              TEXT NOT NULL REFERENCES calibers (id) DEFERRABLE INITIALLY DEFERRED,
    manufacturer_id         TEXT REFERENCES manufacturers (id) DEFERRABLE INITIALLY DEFERRED,
    product_line            TEXT,
    bullet_weight_g         DOUBLE PRECISION,
    bullet_type             TEXT,
    muzzle_velocity_mps     DOUBLE PRECISION,
    muzzle_energy_j         DOUBLE PRECISION,
    ballistic_coefficient_g1 DOUBLE PRECISION,
    test_barrel_length_mm   DOUBLE PRECISION,
    is_common               BIGINT,
    description             TEXT,
    data_confidence         DOUBLE PRECISION,
    sources                 TEXT,
    source_kinds            TEXT,
    best_source_kind        TEXT,
    verified_at             TEXT,
    verified_fields         TEXT,
    record                  TEXT NOT NULL,
    version                 TEXT NOT NULL,
    created_at              TEXT NOT NULL,
    updated_at              TEXT NOT NULL
);
CREATE INDEX ammunition_caliber ON ammunition (caliber_id);

CREATE TABLE attachments (
    id               TEXT PRIMARY KEY,
    name             TEXT NOT NULL,
    vendor           TEXT,
    kind             TEXT,
    weight_g         DOUBLE PRECISION,
    length_mm        DOUBLE PRECISION,
    description      TEXT,
    data_confidence  DOUBLE PRECISION,
    sources          TEXT,
    source_kinds     TEXT,
    best_source_kind TEXT,
    verified_at      TEXT,
    verified_fields  TEXT,
    record           TEXT NOT NULL,
    version          TEXT NOT NULL,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);

CREATE TABLE attachment_interfaces (
    attachment_id TEXT NOT NULL REFERENCES attachments (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    interface_id  TEXT NOT NULL REFERENCES interfaces (id) DEFERRABLE INITIALLY DEFERRED,
    PRIMARY KEY (attachment_id, interface_id)
);

-- The outbox: change events recorded in the import's transaction, read by the webhook fan-out.
CREATE TABLE catalog_events (
    seq         BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
    id          TEXT NOT NULL UNIQUE,
    type        TEXT NOT NULL,
    resource    TEXT,
    resource_id TEXT,
    revision    BIGINT NOT NULL,
    created_at  TEXT NOT NULL
);
