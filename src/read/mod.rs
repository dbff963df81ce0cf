//! The read model: everything a node needs to answer catalog reads from memory, built once per
//! snapshot (see `catalog::snapshot`): lookups by id, each firearm's list item and flat record
//! pre-rendered (its details are assembled from them on request and cached, `rendered::firearm_details`), the sort
//! orders and filter sets of the firearm list, and the full-text index.

pub mod aggregates;
pub mod arsenals;
pub mod content;
pub mod deferred;
pub mod error;
pub mod facts;
pub mod game;
pub mod held_stats;
pub mod in_place;
pub mod kept_assets;
pub mod list_index;
pub mod lookup;
pub mod meta;
pub mod orders;
pub mod persisted;
pub mod quality;
pub mod query;
pub mod rankings;
mod reads;
pub mod rendered;
pub mod resolve;
pub mod search;
pub mod similarity;
pub mod snapshot;
pub mod statistics;
pub mod text_index;
pub mod update;
pub mod views;

use serde_json::value::to_raw_value;
use std::collections::{BTreeSet, HashMap};

use self::orders::Orders;
use self::rendered::Rendered;
use self::rendered::firearm_forms::{FormTexts, Forms};
use self::search::SearchIndex;
use crate::catalog::game_stats::GameStats;
use crate::catalog::model::Catalog;
use crate::read::snapshot::RecordMeta;

#[derive(serde::Serialize, serde::Deserialize)]
pub struct ReadModel {
    /// Shared with the next snapshot when a patch keeps every firearm's position.
    firearm_at: std::sync::Arc<HashMap<String, usize>>,
    manufacturer_at: HashMap<String, usize>,
    caliber_at: HashMap<String, usize>,
    category_at: HashMap<String, usize>,
    ammunition_at: HashMap<String, usize>,
    /// Attachments (none until the compatibility engine's data arrives; offers already target them).
    attachment_at: HashMap<String, usize>,
    /// Per firearm (catalog order): its forms, live game stats and stored user ids.
    forms: Forms,
    /// Each manufacturer's full record and each category, as a firearm detail nests them.
    nested_manufacturers: Vec<String>,
    nested_categories: Vec<String>,
    /// Firearm details rendered on request, a bounded number kept.
    #[serde(skip)]
    details: rendered::firearm_details::DetailCache,
    stats: held_stats::HeldStats,
    user_ids: Vec<Vec<i64>>,
    /// Per firearm (catalog order): what the list filters test.
    facts: Vec<facts::Facts>,
    /// The firearm list's per-filter sets (its fast path).
    list: list_index::ListIndex,
    /// Parent firearm id → positions of its direct variants.
    variants: HashMap<String, Vec<usize>>,
    /// Counts, name orders and parent chains derived from the whole catalog.
    aggregates: aggregates::Aggregates,
    /// The statistics operations' figures (71 to 84); built after a patched snapshot is served
    /// (`deferred`), read through `Snapshot::statistics`.
    statistics: deferred::Deferred<statistics::Statistics>,
    /// Superlative rankings and power ratings (11, 18), deferred likewise (`Snapshot::rankings`).
    rankings: deferred::Deferred<rankings::Rankings>,
    /// When a firearm, manufacturer, cartridge or load last changed (the statistics summary's).
    last_change: Option<String>,
    /// Details of the other records (catalog order), Explorer's view then the full one.
    manufacturer_details: Vec<[Rendered; 2]>,
    caliber_details: Vec<[Rendered; 2]>,
    orders: Orders,
    /// Shared with the next snapshot when a patch leaves every indexed text as it was.
    #[serde(with = "search::persisted")]
    search: std::sync::Arc<SearchIndex>,
    /// The game analytics of the live stats (`game`), deferred likewise (`Snapshot::game`).
    game: deferred::Deferred<std::sync::Arc<game::GameAnalytics>>,
    /// The firearms packed for the similar-firearms operation, on its first request
    /// (`Snapshot::most_similar`); neither persisted nor patched.
    #[serde(skip, default = "deferred::Deferred::pending")]
    similarity: deferred::Deferred<similarity::Packed>,
    /// The free-text traits' distinct values, on the first request that matches them
    /// (`Snapshot::text_index`); neither persisted nor patched.
    #[serde(skip, default = "deferred::Deferred::pending")]
    text_index: deferred::Deferred<text_index::TextIndex>,
    /// Each country's adopters, on the first arsenal request (`Snapshot::arsenals`); neither
    /// persisted nor patched.
    #[serde(skip, default = "deferred::Deferred::pending")]
    arsenals: deferred::Deferred<arsenals::Arsenals>,
    /// Image id → the position of the firearm carrying it, on the first image event's payload
    /// (`Snapshot::image_owner`); neither persisted nor patched.
    #[serde(skip, default = "deferred::Deferred::pending")]
    image_owners: deferred::Deferred<HashMap<i64, u32>>,
    /// What every record lacks and how well it is sourced, on the first data-quality request
    /// (`Snapshot::quality`); neither persisted nor patched.
    #[serde(skip, default = "deferred::Deferred::pending")]
    quality: deferred::Deferred<quality::DataQuality>,
    /// The filter options' answer (8), rendered on its first request and served again: it
    /// depends on nothing but the snapshot (165 KB at 100,000 firearms); neither persisted nor
    /// patched.
    #[serde(skip, default = "deferred::Deferred::pending")]
    filter_options: deferred::Deferred<Rendered>,
    /// The by-era answers (78) of the decades the catalog has, by decade.
    #[serde(skip)]
    era_answers: rendered::kept_answers::KeptAnswers<i64>,
    /// Countries' arsenals as answered (operation 60), the first `ARSENALS_KEPT` asked for.
    #[serde(skip, default = "arsenal_answers")]
    arsenal_answers: rendered::kept_answers::KeptAnswers<[u8; 2]>,
    /// Tier lists as answered (operation 86), the first `TIER_LISTS_KEPT` asked for.
    #[serde(skip, default = "tier_list_answers")]
    tier_list_answers: rendered::kept_answers::KeptAnswers<TierListAsked>,
    /// Generated assets as drawn (`query::assets`), bounded by bytes.
    #[serde(skip)]
    assets: kept_assets::KeptAssets<query::assets::AssetKey>,
    /// Ammunition loads' list items as lists serve them, kept in `AMMUNITION_ITEMS_KEPT` slots by
    /// position (`http::catalog::ammunition`).
    #[serde(skip, default = "ammunition_items")]
    ammunition_items: rendered::kept_texts::KeptTexts,
}

/// What a tier list's answer depends on besides the snapshot: the dataset version (None: the
/// live stats), the category's position, the metric, the firearms listed per tier and the plan's
/// view of them.
pub type TierListAsked = (Option<String>, Option<usize>, game::Metric, usize, views::View);

/// How many tier lists a snapshot keeps answered: one is 80 KB at ten firearms a tier, up to
/// 400 KB at fifty.
const TIER_LISTS_KEPT: usize = 32;

fn tier_list_answers() -> rendered::kept_answers::KeptAnswers<TierListAsked> {
    rendered::kept_answers::KeptAnswers::at_most(TIER_LISTS_KEPT)
}

/// How many countries' arsenals a snapshot keeps answered: an answer is up to a few hundred KB at
/// 100,000 firearms (each adopter's firearm decoded from the packed table, `catalog::held`), and
/// a crawl of every country must not keep them all.
const ARSENALS_KEPT: usize = 32;

fn arsenal_answers() -> rendered::kept_answers::KeptAnswers<[u8; 2]> {
    rendered::kept_answers::KeptAnswers::at_most(ARSENALS_KEPT)
}

/// How many ammunition loads' list items a snapshot keeps: about 450 bytes each, 2 MB in all.
const AMMUNITION_ITEMS_KEPT: usize = 4096;

fn ammunition_items() -> rendered::kept_texts::KeptTexts {
    rendered::kept_texts::KeptTexts::new(AMMUNITION_ITEMS_KEPT)
}

/// The tables whose records' last change the statistics summary reports.
pub const LAST_CHANGE_TABLES: [&str; 4] = ["firearms", "manufacturers", "calibers", "ammunition"];

/// What the database adds to the catalog records.
pub struct Stored<'a> {
    pub meta: &'a (dyn Fn(&str, &str) -> RecordMeta + Sync),
    pub stats: HashMap<String, GameStats>,
    /// Firearm id → its users' stored ids, in the firearm's order.
    pub user_ids: HashMap<String, Vec<i64>>,
    /// When a firearm, manufacturer, cartridge or load last changed (`MetaTable::last_change`).
    pub last_change: Option<String>,
}

/// A read model being patched (`ReadModel::update`): its firearms not in `changed` are kept as
/// they were rendered.
#[derive(Clone, Copy)]
pub struct Previous<'a> {
    pub read: &'a ReadModel,
    /// Ids of the firearms created, changed or deleted since it was built.
    pub changed: &'a BTreeSet<String>,
    /// What its search index lacks to index the new catalog (`search::change`).
    pub search: &'a search::SearchChange,
    /// Whether every firearm kept its position (`Catalog::same_firearm_positions`).
    pub same_positions: bool,
}

impl Previous<'_> {
    /// The firearm's position in the previous read model, when it did not change since.
    fn kept_at(&self, id: &str) -> Option<usize> {
        if self.changed.contains(id) {
            return None;
        }
        self.read.firearm_at.get(id).copied()
    }
}

/// What rendering a firearm needs from the rest of the catalog.
struct Context<'a> {
    stored: &'a Stored<'a>,
    /// What the forms are compressed against.
    dictionary: &'a crate::compact::Dictionary,
    previous: Option<Previous<'a>>,
}

/// A firearm's served forms as text.
fn form_texts(stored: &Stored, firearm: &crate::catalog::model::Firearm, stats: &GameStats) -> FormTexts {
    let meta = (stored.meta)("firearms", &firearm.id);
    let flat = rendered::firearm_json::full_record(firearm, stats, &meta);
    FormTexts {
        item: to_raw_value(&rendered::firearm_json::list_item(&flat)).expect("a JSON value serialises"),
        full: serde_json::Value::Object(flat).to_string(),
        provenance: rendered::firearm_json::provenance(firearm, &meta).to_string(),
    }
}

impl<'a> Context<'a> {
    /// A writer for the forms of about `firearms` firearms.
    fn writer(&self, firearms: usize) -> rendered::firearm_forms::Writer<'a> {
        let previous = self.previous.map(|previous| &previous.read.forms);
        rendered::firearm_forms::Writer::new(self.dictionary, previous, firearms)
    }

    /// The firearm's forms into `forms`: kept from the previous read model when the firearm did
    /// not change since, else rendered now with its `stats`.
    fn write(
        &self,
        firearm: &crate::catalog::model::Firearm,
        stats: &GameStats,
        forms: &mut rendered::firearm_forms::Writer,
    ) {
        match self.previous.and_then(|previous| previous.kept_at(&firearm.id)) {
            Some(at) => forms.push_kept(at),
            None => forms.push_rendered(form_texts(self.stored, firearm, stats)),
        }
    }

    /// The firearm's forms rendered now, with its stats and users (`stored` holds those of the
    /// firearms a patch changed).
    fn rendered(
        &self,
        firearm: &crate::catalog::model::Firearm,
    ) -> (rendered::firearm_forms::FirearmForms, GameStats, Vec<i64>) {
        let stats = self.stored.stats.get(&firearm.id).copied().unwrap_or_default();
        let user_ids = self.stored.user_ids.get(&firearm.id).cloned().unwrap_or_default();
        (Forms::compress(self.dictionary, form_texts(self.stored, firearm, &stats)), stats, user_ids)
    }
}

/// Each firearm's game stats and users' stored ids by position (`ids`): taken out of `stored`,
/// so its maps by id are not held through the build (about 25 MB at 100,000 firearms beside the
/// forms being rendered), or, for a firearm a patch keeps, copied from the previous read model.
fn by_position(
    ids: &[String],
    stored: &mut Stored,
    previous: Option<Previous>,
) -> (held_stats::HeldStats, Vec<Vec<i64>>) {
    let (mut stats, mut user_ids) = (held_stats::HeldStats::default(), Vec::with_capacity(ids.len()));
    for id in ids {
        match previous.and_then(|previous| previous.kept_at(id).map(|at| (previous.read, at))) {
            Some((read, at)) => {
                stats.push(read.stats.get(at));
                user_ids.push(read.user_ids[at].clone());
            }
            None => {
                stats.push(stored.stats.remove(id).unwrap_or_default());
                user_ids.push(stored.user_ids.remove(id).unwrap_or_default());
            }
        }
    }
    (stored.stats, stored.user_ids) = Default::default();
    (stats, user_ids)
}

impl ReadModel {
    /// Build the read model of `catalog`, typed or packed (a node's build packs it as it is read):
    /// at 100,000 firearms this is most of the time a new revision takes to be served (`assemble`).
    pub fn build(catalog: &Catalog, stored: Stored) -> tantivy::Result<Self> {
        Self::assemble(catalog, stored, None)
    }

    /// The firearms passing `filters`: `window` of them in `sort` order, and how many pass, off
    /// the list's per-filter sets (`list_index`) rather than a walk over every record.
    pub fn select(
        &self,
        filters: &list_index::Filters,
        sort: (orders::Sort, bool),
        window: std::ops::Range<usize>,
    ) -> list_index::ListPage {
        self.list.select(&self.facts, &self.orders, filters, sort, window)
    }

    /// The read model of `catalog`, which differs from the one `previous` was built from only in
    /// its `changed` firearms and in records of other kinds: the unchanged firearms' rendered
    /// forms, stats and users are taken over (rendering is most of a build), the rest is built
    /// as `build` does. `stored` needs the stats and users of the changed firearms only.
    pub fn update(previous: Previous, catalog: &Catalog, stored: Stored) -> tantivy::Result<Self> {
        Self::assemble(catalog, stored, Some(previous))
    }

    /// Built in two phases, so that what each holds while it runs is not held beside the other's:
    /// the figures over the whole catalog (`whole_catalog`), then each firearm's forms record by
    /// record (`per_firearm`), with the search index written on a thread of its own beside both.
    /// A fresh build's catalog is packed
    /// (`snapshot::build` packs it as it is read) and is never held typed: each builder of the
    /// first phase takes the few fields it reads in one pass (`Held::column`), decoding each
    /// firearm as it goes: a typed copy of the firearms beside the forms being rendered and the
    /// index's writer would be most of a building node's peak (bench/README.md has the figures).
    fn assemble(catalog: &Catalog, mut stored: Stored, previous: Option<Previous>) -> tantivy::Result<Self> {
        let started = std::time::Instant::now();
        // Each firearm's id and parent, in one pass (a packed catalog decodes each firearm once).
        let (ids, parents): (Vec<String>, Vec<Option<String>>) =
            catalog.firearms.column(|f| (f.id.clone(), f.parent_firearm_id.clone())).into_iter().unzip();
        let (stats, user_ids) = by_position(&ids, &mut stored, previous);
        let firearm_at = match previous {
            Some(previous) if previous.same_positions => previous.read.firearm_at.clone(),
            _ => std::sync::Arc::new(positions(ids.into_iter())),
        };
        let ammunition_at = positions(catalog.ammunition.iter().map(|a| a.id.clone()));
        let references = References::build(catalog, &stored);
        let variants = variants(parents);
        // The search index is written beside the first phase, not the second: its writer's
        // memory then adds to the first phase's figures, not to the forms being rendered (the
        // peak of a building node).
        let (derived, game, forms, search) = std::thread::scope(|scope| {
            let search = scope.spawn(|| search_index(catalog, previous));
            let (derived, game) =
                whole_catalog(catalog, &stored, &references, (&firearm_at, &stats), previous);
            let figures_ms = started.elapsed().as_millis() as u64;
            let forms = per_firearm(catalog, &stored, &stats, previous);
            tracing::debug!(
                figures_ms,
                forms_ms = started.elapsed().as_millis() as u64,
                "figures and forms built"
            );
            (derived, game, forms, search.join().expect("indexing never panics"))
        });
        let search = search?;
        tracing::debug!(elapsed_ms = started.elapsed().as_millis() as u64, "read model built");
        let records = PerRecord { firearm_at, ammunition_at, forms, stats, user_ids, variants };
        Ok(Self::assembled(references, records, derived, (search, game), stored.last_change))
    }

    /// A read model from its parts; what is made on request starts empty.
    fn assembled(
        references: References,
        records: PerRecord,
        derived: Derived,
        (search, game): (
            std::sync::Arc<SearchIndex>,
            deferred::Deferred<std::sync::Arc<game::GameAnalytics>>,
        ),
        last_change: Option<String>,
    ) -> Self {
        let References {
            manufacturer_at,
            caliber_at,
            category_at,
            attachment_at,
            nested_manufacturers,
            nested_categories,
            manufacturer_details,
            caliber_details,
        } = references;
        let PerRecord { firearm_at, ammunition_at, forms, stats, user_ids, variants } = records;
        let Derived { orders, facts, list, aggregates, statistics, rankings } = derived;
        Self {
            firearm_at,
            manufacturer_at,
            caliber_at,
            category_at,
            ammunition_at,
            attachment_at,
            forms,
            nested_manufacturers,
            nested_categories,
            details: rendered::firearm_details::DetailCache::default(),
            similarity: deferred::Deferred::pending(),
            text_index: deferred::Deferred::pending(),
            arsenals: deferred::Deferred::pending(),
            image_owners: deferred::Deferred::pending(),
            quality: deferred::Deferred::pending(),
            filter_options: deferred::Deferred::pending(),
            era_answers: rendered::kept_answers::KeptAnswers::default(),
            arsenal_answers: arsenal_answers(),
            tier_list_answers: tier_list_answers(),
            ammunition_items: ammunition_items(),
            assets: kept_assets::KeptAssets::default(),
            stats,
            user_ids,
            facts,
            list,
            variants,
            aggregates,
            statistics,
            rankings,
            last_change,
            manufacturer_details,
            caliber_details,
            orders,
            search,
            game,
        }
    }
}

/// The parts of a read model made from the small tables (makers, categories, calibers,
/// attachments): made whole by a build and a patch alike, at any catalog size.
struct References {
    manufacturer_at: HashMap<String, usize>,
    caliber_at: HashMap<String, usize>,
    category_at: HashMap<String, usize>,
    attachment_at: HashMap<String, usize>,
    nested_manufacturers: Vec<String>,
    nested_categories: Vec<String>,
    manufacturer_details: Vec<[Rendered; 2]>,
    caliber_details: Vec<[Rendered; 2]>,
}

impl References {
    fn build(catalog: &Catalog, stored: &Stored) -> Self {
        let maker_meta: Vec<RecordMeta> =
            catalog.manufacturers.iter().map(|m| (stored.meta)("manufacturers", &m.id)).collect();
        let makers = || catalog.manufacturers.iter().zip(&maker_meta);
        Self {
            manufacturer_at: positions(catalog.manufacturers.iter().map(|m| &m.id)),
            caliber_at: positions(catalog.calibers.iter().map(|c| &c.id)),
            category_at: positions(catalog.categories.iter().map(|c| &c.id)),
            attachment_at: positions(catalog.attachments.iter().map(|a| &a.id)),
            nested_manufacturers: makers()
                .map(|(m, meta)| {
                    views::project(&views::with_meta(m, meta), views::MANUFACTURER_FULL).to_string()
                })
                .collect(),
            nested_categories: catalog.categories.iter().map(|c| serde_json::json!(c).to_string()).collect(),
            manufacturer_details: makers()
                .map(|(m, meta)| {
                    rendered::record_json::both_views(|view| {
                        rendered::record_json::manufacturer_detail(m, meta, view)
                    })
                })
                .collect(),
            caliber_details: catalog
                .calibers
                .iter()
                .map(|c| {
                    let meta = (stored.meta)("calibers", &c.id);
                    rendered::record_json::both_views(|view| {
                        rendered::record_json::caliber_detail(c, &meta, view)
                    })
                })
                .collect(),
        }
    }

    /// Where each maker, category and caliber is, as a firearm's facts point at them.
    fn positions(&self) -> facts::Positions<'_> {
        facts::Positions {
            manufacturer_at: &self.manufacturer_at,
            category_at: &self.category_at,
            caliber_at: &self.caliber_at,
        }
    }
}

/// The parts of a read model kept per firearm or load, by catalog position.
struct PerRecord {
    firearm_at: std::sync::Arc<HashMap<String, usize>>,
    ammunition_at: HashMap<String, usize>,
    forms: Forms,
    stats: held_stats::HeldStats,
    user_ids: Vec<Vec<i64>>,
    variants: HashMap<String, Vec<usize>>,
}

/// The game analytics of the live stats (`game`); `positions`: of firearms and categories by id.
pub fn game_analytics(
    catalog: &Catalog,
    stats: &held_stats::HeldStats,
    positions: (&HashMap<String, usize>, &HashMap<String, usize>),
    orders: &Orders,
) -> game::GameAnalytics {
    game::GameAnalytics::live(catalog, stats, positions, orders.name.known())
}

/// The first phase of `ReadModel::assemble`: the figures that read every record several times
/// over (orders, filter sets, aggregates and, unless a patch defers them, statistics, rankings and
/// game analytics), each builder reading the firearms in a pass of its own (a packed catalog
/// decodes each firearm as it is reached, `Held::column`).
fn whole_catalog(
    catalog: &Catalog,
    stored: &Stored,
    references: &References,
    (firearm_at, stats): (&HashMap<String, usize>, &held_stats::HeldStats),
    previous: Option<Previous>,
) -> (Derived, deferred::Deferred<std::sync::Arc<game::GameAnalytics>>) {
    // A patch serves its snapshot before the figures over the whole catalog (`deferred`).
    let defer = previous.is_some();
    // The previous orders seed the new ones when every firearm kept its position.
    let seed = previous.filter(|previous| previous.same_positions).map(|previous| &previous.read.orders);
    let derived = Derived::build(catalog, stored, &references.positions(), seed, defer);
    let game = if defer {
        deferred::Deferred::pending()
    } else {
        let positions = (firearm_at, &references.category_at);
        deferred::Deferred::ready(game_analytics(catalog, stats, positions, &derived.orders).into())
    };
    (derived, game)
}

/// Each parent's variants (positions, in catalog order), from each firearm's parent.
fn variants(parents: Vec<Option<String>>) -> HashMap<String, Vec<usize>> {
    let mut variants: HashMap<String, Vec<usize>> = HashMap::new();
    for (position, parent) in parents.into_iter().enumerate() {
        if let Some(parent) = parent {
            variants.entry(parent).or_default().push(position);
        }
    }
    variants
}

/// The second phase of `ReadModel::assemble`, record by record (a packed catalog decodes each
/// firearm as it is reached): the firearms' forms in two halves on two threads. A patched
/// snapshot renders almost nothing.
fn per_firearm(
    catalog: &Catalog,
    stored: &Stored,
    stats: &held_stats::HeldStats,
    previous: Option<Previous>,
) -> Forms {
    let firearms = &catalog.firearms;
    let dictionary = match previous {
        Some(previous) => previous.read.forms.dictionary_used().clone(),
        None => Forms::dictionary(firearms.len(), |at| form_texts(stored, &firearms.get(at), &stats.get(at))),
    };
    let context = Context { stored, dictionary: &dictionary, previous };
    let write = |positions: std::ops::Range<usize>| {
        let mut forms = context.writer(positions.len());
        positions.for_each(|at| context.write(&firearms.get(at), &stats.get(at), &mut forms));
        forms
    };
    std::thread::scope(|scope| {
        let (middle, write) = (firearms.len() / 2, &write);
        let second = scope.spawn(move || write(middle..firearms.len()));
        let mut forms = write(0..middle);
        forms.append(second.join().expect("rendering never panics"));
        forms.finish()
    })
}

/// The search index of `catalog`: the previous one kept or patched when it can be, else built.
fn search_index(
    catalog: &Catalog,
    previous: Option<Previous>,
) -> tantivy::Result<std::sync::Arc<SearchIndex>> {
    use search::SearchChange;
    let kept = match previous {
        Some(Previous { read, search: SearchChange::Same, .. }) => Some(read.search.clone()),
        Some(Previous { read, search: SearchChange::Documents(changed), .. }) => {
            let patched = read.search.patched(catalog, changed)?;
            if patched.is_none() {
                tracing::debug!(
                    firearms = changed.positions.len(),
                    "the search index would hold too many patched firearms: built whole"
                );
            }
            patched.map(std::sync::Arc::new)
        }
        _ => None,
    };
    match kept {
        Some(index) => Ok(index),
        None => SearchIndex::build(catalog).map(std::sync::Arc::new),
    }
}

/// The parts of a read model derived from the whole catalog rather than per firearm.
struct Derived {
    orders: Orders,
    facts: Vec<facts::Facts>,
    list: list_index::ListIndex,
    aggregates: aggregates::Aggregates,
    statistics: deferred::Deferred<statistics::Statistics>,
    rankings: deferred::Deferred<rankings::Rankings>,
}

impl Derived {
    /// `positions`: of makers, categories and calibers by id; `seed`: orders of the same firearms
    /// at the same positions to start the sorts from (`Orders::build_from`).
    /// With `defer`, the statistics and rankings are left to be built later (`deferred`).
    fn build(
        catalog: &Catalog,
        stored: &Stored,
        positions: &facts::Positions,
        seed: Option<&Orders>,
        defer: bool,
    ) -> Self {
        let facts::Positions { category_at, caliber_at, .. } = *positions;
        let mut timings = Timings::default();
        let orders = timings.time("orders", || Orders::build_from(catalog, caliber_at, seed));
        let facts = timings.time("facts", || facts::build(catalog, positions));
        let list = timings.time("list", || {
            list_index::ListIndex::build(
                &facts,
                &orders,
                catalog.manufacturers.len(),
                catalog.categories.len(),
                catalog.calibers.len(),
            )
        });
        let aggregates =
            timings.time("aggregates", || aggregates::Aggregates::build(catalog, caliber_at, category_at));
        let (statistics, rankings) = if defer {
            (deferred::Deferred::pending(), deferred::Deferred::pending())
        } else {
            let last_change = stored.last_change.clone();
            let statistics = timings.time("statistics", || {
                statistics::Statistics::build(catalog, &facts, &orders.name, last_change)
            });
            let rankings = timings.time("rankings", || {
                rankings::Rankings::build(catalog, caliber_at, category_at, &orders.name)
            });
            (deferred::Deferred::ready(statistics), deferred::Deferred::ready(rankings))
        };
        tracing::debug!(parts = %timings, "derived figures built");
        Self { orders, facts, list, aggregates, statistics, rankings }
    }
}

/// How long each part of a build took, for the debug log.
#[derive(Default)]
struct Timings(Vec<(&'static str, u128)>);

impl Timings {
    fn time<T>(&mut self, part: &'static str, build: impl FnOnce() -> T) -> T {
        let started = std::time::Instant::now();
        let built = build();
        self.0.push((part, started.elapsed().as_millis()));
        built
    }
}

impl std::fmt::Display for Timings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (part, ms)) in self.0.iter().enumerate() {
            write!(f, "{}{part} {ms} ms", if i == 0 { "" } else { ", " })?;
        }
        Ok(())
    }
}

fn positions<Id: Into<String>>(ids: impl Iterator<Item = Id>) -> HashMap<String, usize> {
    ids.enumerate().map(|(i, id)| (id.into(), i)).collect()
}

#[cfg(test)]
mod tests;
