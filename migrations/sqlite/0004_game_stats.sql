-- Live game stats, derived from the specifications by every import (src/catalog/game_stats.rs),
-- and the frozen dataset versions made by `armory game-stats freeze`.

CREATE TABLE firearm_game_stats (
    firearm_id          TEXT PRIMARY KEY REFERENCES firearms (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    game_damage         INTEGER,
    game_accuracy       INTEGER,
    game_range          INTEGER,
    game_fire_rate      INTEGER,
    game_mobility       INTEGER,
    game_recoil_control INTEGER,
    game_reload_speed   INTEGER,
    game_concealment    INTEGER
);

CREATE TABLE game_stats_versions (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    version       TEXT NOT NULL UNIQUE,
    description   TEXT,
    firearm_count INTEGER NOT NULL,
    created_at    TEXT NOT NULL
);

-- A frozen copy: no reference to firearms, so a later import (or a deleted firearm) leaves it as it was.
CREATE TABLE game_stats_entries (
    version_id          INTEGER NOT NULL REFERENCES game_stats_versions (id) ON DELETE CASCADE,
    firearm_id          TEXT NOT NULL,
    firearm_name        TEXT NOT NULL,
    game_damage         INTEGER,
    game_accuracy       INTEGER,
    game_range          INTEGER,
    game_fire_rate      INTEGER,
    game_mobility       INTEGER,
    game_recoil_control INTEGER,
    game_reload_speed   INTEGER,
    game_concealment    INTEGER,
    PRIMARY KEY (version_id, firearm_id)
);
