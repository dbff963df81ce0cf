-- The catalog epoch: a random number drawn with every new catalog revision, so a persisted
-- snapshot (`read::persisted`) is reused only for the catalog it was built from, even when a
-- restored database or another one sharing the snapshot folder reaches the same revision number.
INSERT INTO service_state (name, value) VALUES ('catalog_epoch', abs(random()));
