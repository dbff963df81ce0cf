//! /v1/firearms: the catalog's firearms, answered from the snapshot's read model.
//!
//! One file per operation or close pair: `list` and `search` page firearm list items; `detail`
//! serves the pre-rendered detail; `game_meta` and `game_profile` the game analytics of the
//! firearms (the rest of them are in `http::game`); `variants`, `images`, `game_stats`, `adoption` (users and the
//! adoption map), `dimensions`, `family_tree` and `similar` are the per-firearm sub-resources;
//! `offers` the sellers' published offers (from the database);
//! `facets` the filter options and action types; `random` one drawn firearm; `resolve` free text
//! to ids; `compare` several details at once; `rankings` the superlatives, head-to-head, power
//! rating and timeline; `slices` the firearms sharing a feature, action, material, designer or
//! conflict. Each answers through `read::query`.

pub mod adoption;
pub mod assets;
pub mod compare;
pub mod detail;
pub mod dimensions;
pub mod facets;
pub mod family_tree;
pub mod game_meta;
pub mod game_profile;
pub mod game_stats;
pub mod images;
pub mod list;
pub mod media;
pub mod offers;
pub mod popular;
pub mod random;
pub mod rankings;
pub mod resolve;
pub mod search;
pub mod similar;
pub mod slices;
pub mod variants;
