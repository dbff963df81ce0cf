//! Valid arguments for every documented GET operation, found in the live catalog snapshot (and,
//! for frozen game-stats versions and shared collections, in the database) rather than hard-coded
//! ids, and the required query parameters of the operations that have some.

use std::borrow::Cow;

use crate::http::AppState;

/// The records the self-check asks about; `None` where the catalog has none, so the operations
/// that need one are skipped with the reason (`missing`).
#[derive(Debug, Clone, Default)]
pub struct Arguments {
    /// A firearm with a caliber (with an image and users, when one has them).
    pub firearm: Option<Firearm>,
    /// A second firearm, for the comparisons.
    pub other_firearm: Option<String>,
    /// A second caliber, for the caliber comparison.
    pub other_caliber: Option<String>,
    /// A firearm the service can draw (the chosen one when it can be): its generated assets.
    pub drawable_firearm: Option<String>,
    /// A stored image of a firearm: (firearm id, image id).
    pub image: Option<(String, String)>,
    /// An ammunition load, of the firearm's caliber when there is one (one whose cartridge can be
    /// drawn, when there is one).
    pub ammunition: Option<String>,
    /// An attachment (its offers).
    pub attachment: Option<String>,
    /// The newest frozen game-stats version's label.
    pub game_version: Option<String>,
    /// The newest shared collection's share id.
    pub share_id: Option<String>,
    /// The newest changelog entry's id.
    pub changelog_entry: Option<String>,
    /// The newest published blog post's slug.
    pub blog_post: Option<String>,
}

/// The chosen firearm and the records it names.
#[derive(Debug, Clone)]
pub struct Firearm {
    pub id: String,
    pub name: String,
    pub manufacturer: String,
    pub category: String,
    pub caliber: String,
    /// A country that has firearms: an adopter's, else the country of origin.
    pub country: Option<String>,
    pub action: Option<String>,
    pub decade: Option<String>,
}

impl Arguments {
    /// The arguments the current snapshot and the database offer. A database that does not answer
    /// leaves its arguments out (their operations are skipped, with the reason).
    pub async fn find(state: &AppState) -> Self {
        let snapshot = state.catalog.current();
        let catalog = &snapshot.catalog;
        // A firearm with a caliber, preferring one with an image and users (its sub-resources then
        // answer with data); the first with all three ends the search.
        let mut chosen = None;
        let mut best = 0;
        for f in catalog.firearms.iter().filter(|f| !f.calibers.is_empty()) {
            let score = 1 + usize::from(!f.images.is_empty()) * 2 + usize::from(!f.users.is_empty());
            if score > best {
                best = score;
                chosen = Some(f);
                if best == 4 {
                    break;
                }
            }
        }
        let firearm = chosen.as_deref().map(|f| {
            let caliber = f.calibers.iter().find(|c| c.is_primary).unwrap_or(&f.calibers[0]);
            Firearm {
                id: f.id.clone(),
                name: f.name.clone(),
                manufacturer: f.manufacturer_id.clone(),
                category: f.category_id.clone(),
                caliber: caliber.caliber_id.clone(),
                country: f
                    .users
                    .iter()
                    .find_map(|user| user.country_code)
                    .or(f.country_of_origin)
                    .map(|code| code.as_str().to_owned()),
                action: f.action_type.map(|action| action.as_str().to_owned()),
                decade: f.year_introduced.map(|year| format!("{}s", year - year.rem_euclid(10))),
            }
        });
        let chosen_id = firearm.as_ref().map(|f| f.id.as_str());
        let chosen_caliber = firearm.as_ref().map(|f| f.caliber.as_str());
        let other_firearm =
            catalog.firearms.iter().map(|f| f.id.clone()).find(|id| Some(id.as_str()) != chosen_id);
        let other_caliber =
            catalog.calibers.iter().map(|c| c.id.clone()).find(|id| Some(id.as_str()) != chosen_caliber);
        let drawable_firearm = chosen
            .as_deref()
            .filter(|f| crate::assets::figures::drawable(f))
            .map(|f| f.id.clone())
            .or_else(|| {
                catalog.firearms.iter().find(|f| crate::assets::figures::drawable(f)).map(|f| f.id.clone())
            });
        let image = catalog
            .firearms
            .iter()
            .find_map(|f| f.images.first().map(|image| (f.id.clone(), image.id.to_string())));
        let drawable_cartridge = |caliber_id: &str| {
            snapshot
                .caliber(caliber_id)
                .is_ok_and(|(_, caliber)| crate::assets::bullet::size(caliber).is_some())
        };
        let loads = || catalog.ammunition.iter();
        let ammunition = loads()
            .find(|a| Some(a.caliber_id.as_str()) == chosen_caliber && drawable_cartridge(&a.caliber_id))
            .or_else(|| loads().find(|a| drawable_cartridge(&a.caliber_id)))
            .or_else(|| loads().find(|a| Some(a.caliber_id.as_str()) == chosen_caliber))
            .or_else(|| loads().next())
            .map(|a| a.id.clone());
        let attachment = catalog.attachments.first().map(|a| a.id.clone());
        let game_version = match crate::catalog::stats_versions::versions(&state.db).await {
            Ok(versions) => versions.into_iter().next().map(|v| v.version),
            Err(e) => {
                tracing::warn!(error = %e, "the self-check found no game-stats versions");
                None
            }
        };
        let share_id = crate::accounts::collections::newest_share_id(&state.db).await.unwrap_or_else(|e| {
            tracing::warn!(error = %e, "the self-check found no shared collection");
            None
        });
        let content = state.content.current();
        let changelog_entry = content.changelog.first().map(|entry| entry.id.clone());
        let blog_post = content.blog.first().map(|post| post.post.id.clone());
        Self {
            firearm,
            drawable_firearm,
            image,
            other_firearm,
            other_caliber,
            ammunition,
            attachment,
            game_version,
            share_id,
            changelog_entry,
            blog_post,
        }
    }

    /// The path of `template` with every parameter filled, or why it cannot be.
    pub fn path(&self, template: &str) -> Result<String, String> {
        let mut path = String::with_capacity(template.len() + 32);
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            let close = rest[open..].find('}').map_or(rest.len(), |at| open + at);
            path.push_str(&rest[..open]);
            let name = &rest[open + 1..close.min(rest.len())];
            path.push_str(&self.parameter(template, name)?);
            rest = rest.get(close + 1..).unwrap_or_default();
        }
        path.push_str(rest);
        Ok(path)
    }

    /// One path parameter of `template`: the record the path's first segment names.
    fn parameter(&self, template: &str, name: &str) -> Result<String, String> {
        let area = template.trim_start_matches("/v1/").split('/').next().unwrap_or_default();
        let firearm = self.firearm.as_ref();
        let draws = ["/silhouette", "/model", "/media", "/media/{selector}"]
            .iter()
            .any(|end| template.ends_with(end));
        let found = match (name, area) {
            ("id", "firearms") if template.ends_with("/images/{imageId}") => {
                return self.image.as_ref().map(|i| i.0.clone()).ok_or_else(|| missing("imageId", area));
            }
            ("imageId", _) => self.image.as_ref().map(|i| i.1.clone()),
            ("id", "firearms") if draws => self.drawable_firearm.clone(),
            ("selector", _) => Some("silhouette".to_owned()),
            ("id", "firearms") | ("id", "game-stats") | ("firearmId", _) => firearm.map(|f| f.id.clone()),
            ("id", "manufacturers") => firearm.map(|f| f.manufacturer.clone()),
            ("id", "calibers") => firearm.map(|f| f.caliber.clone()),
            ("id", "ammunition") => self.ammunition.clone(),
            ("id", "attachments") => self.attachment.clone(),
            ("slug", "categories") => firearm.map(|f| f.category.clone()),
            ("code", "countries") => firearm.and_then(|f| f.country.clone()),
            ("version", _) => self.game_version.clone(),
            ("shareId", _) => self.share_id.clone(),
            ("id", "changelog") => self.changelog_entry.clone(),
            ("slug", "blog") => self.blog_post.clone(),
            _ => return Err(format!("no sample value for the path parameter {{{name}}}")),
        };
        found.map(|value| encode(&value).into_owned()).ok_or_else(|| missing(name, area))
    }

    /// The required query parameters of `method template`, as a query string starting with `?`
    /// (empty when it has none), or why they cannot be filled.
    pub fn required_query(&self, method: &str, template: &str) -> Result<String, String> {
        let firearm = self.firearm.as_ref();
        let firearm_id = || firearm.map(|f| f.id.as_str()).ok_or_else(|| missing("id", "firearms"));
        let two_firearms = || -> Result<(&str, &str), String> {
            let other = self.other_firearm.as_deref().ok_or("the catalog holds only one firearm")?;
            Ok((firearm_id()?, other))
        };
        let query: Cow<'static, str> = match (method, template) {
            ("get", "/v1/firearms/compare") => {
                let (a, b) = two_firearms()?;
                format!("ids={a},{b}").into()
            }
            ("get", "/v1/calibers/compare") => {
                let caliber = firearm.map(|f| f.caliber.as_str()).ok_or_else(|| missing("id", "calibers"))?;
                let other = self.other_caliber.as_deref().ok_or("the catalog holds only one caliber")?;
                format!("ids={caliber},{other}").into()
            }
            ("get", "/v1/firearms/search") | ("get", "/v1/firearms/resolve") => {
                let name = firearm.map(|f| f.name.as_str()).ok_or_else(|| missing("id", "firearms"))?;
                format!("q={}", encode(name)).into()
            }
            ("get", "/v1/stats/by-era") => {
                let decade = firearm.and_then(|f| f.decade.clone()).unwrap_or_else(|| "1940s".to_owned());
                format!("decade={decade}").into()
            }
            ("get", "/v1/firearms/top") => "stat=heaviest".into(),
            ("get", "/v1/data/gaps/records") => "resource=firearms&field=weightEmptyG".into(),
            ("get", "/v1/firearms/head-to-head") | ("get", "/v1/game/matchups") => {
                let (a, b) = two_firearms()?;
                format!("a={a}&b={b}").into()
            }
            ("get", "/v1/firearms/by-feature") => "feature=rail".into(),
            ("get", "/v1/firearms/by-action") => {
                let action =
                    firearm.and_then(|f| f.action.as_deref()).unwrap_or("gas_operated_rotating_bolt");
                format!("action={}", encode(action)).into()
            }
            ("get", "/v1/firearms/by-material") => "material=polymer".into(),
            ("get", "/v1/firearms/by-designer") => "designer=kalashnikov".into(),
            ("get", "/v1/firearms/by-conflict") => "conflict=world%20war".into(),
            ("get", "/v1/stats/adoption/by-country") => {
                let code = firearm.and_then(|f| f.country.as_deref()).unwrap_or("US");
                format!("code={}", encode(code)).into()
            }
            ("get", "/v1/stats/adoption/by-type") => "type=military".into(),
            ("get", "/v1/game/role-roster") => "role=all-rounder".into(),
            ("get", "/v1/game/stat-distribution") => "stat=gameDamage".into(),
            _ => "".into(),
        };
        Ok(if query.is_empty() { String::new() } else { format!("?{query}") })
    }
}

/// Why an argument is missing: the record kind the path or query needs.
fn missing(name: &str, area: &str) -> String {
    match (name, area) {
        ("version", _) => "no frozen game-stats version exists (armory game-stats freeze)".to_owned(),
        ("shareId", _) => "no shared collection exists".to_owned(),
        (_, "changelog") => "the changelog has no entry".to_owned(),
        (_, "blog") => "no blog post is published".to_owned(),
        ("id", "ammunition") => "the catalog holds no ammunition load".to_owned(),
        ("id", "attachments") => "the catalog holds no attachment".to_owned(),
        ("imageId", _) => "the catalog holds no stored image".to_owned(),
        ("code", _) => "the chosen firearm names no country".to_owned(),
        _ => "the catalog holds no firearm with a caliber".to_owned(),
    }
}

/// `text` percent-encoded for a path segment or a query value.
pub fn encode(text: &str) -> Cow<'_, str> {
    if text.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b)) {
        return text.into();
    }
    form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>().replace('+', "%20").into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arguments() -> Arguments {
        Arguments {
            firearm: Some(Firearm {
                id: "glock-17".into(),
                name: "Glock 17".into(),
                manufacturer: "glock".into(),
                category: "pistols".into(),
                caliber: "9x19mm-parabellum".into(),
                country: Some("AT".into()),
                action: None,
                decade: Some("1980s".into()),
            }),
            other_firearm: Some("ak-47".into()),
            ..Arguments::default()
        }
    }

    #[test]
    fn paths_are_filled_from_the_records_their_area_names() {
        let args = arguments();
        assert_eq!(args.path("/v1/manufacturers/{id}/firearms").unwrap(), "/v1/manufacturers/glock/firearms");
        assert_eq!(args.path("/v1/countries/{code}/arsenal").unwrap(), "/v1/countries/AT/arsenal");
        assert_eq!(args.path("/v1/firearms/{id}").unwrap(), "/v1/firearms/glock-17");
        assert_eq!(args.path("/health").unwrap(), "/health");
        let skipped = args.path("/v1/game-stats/versions/{version}/firearms/{id}").unwrap_err();
        assert!(skipped.contains("no frozen game-stats version"), "{skipped}");
    }

    #[test]
    fn required_queries_name_the_chosen_records_encoded() {
        let args = arguments();
        assert_eq!(args.required_query("get", "/v1/firearms/search").unwrap(), "?q=Glock%2017");
        assert_eq!(args.required_query("get", "/v1/game/matchups").unwrap(), "?a=glock-17&b=ak-47");
        assert_eq!(args.required_query("get", "/v1/stats/by-era").unwrap(), "?decade=1980s");
        assert_eq!(args.required_query("get", "/v1/firearms").unwrap(), "");
    }
}
