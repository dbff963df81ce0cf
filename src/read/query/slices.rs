//! Firearms that share one trait, by name, paged, as list items in the caller's plan view: a
//! feature, an action type, a material (of one component or any), a designer, a conflict. Free
//! text (feature, material, designer, conflict) matches case-insensitively anywhere in the
//! firearm's value; the action type is a closed list.

use crate::access::paging::Paging;
use crate::catalog::vocabulary::ACTION_TYPES;
use crate::read::error::QueryError;
use crate::read::query::firearm_pages::{ItemForm, in_category, page_from, page_of};
use crate::read::rendered::Rendered;
use crate::read::snapshot::Snapshot;
use crate::read::statistics::frequency::COMPONENTS;
use crate::read::text_index::{Interned, Marks};
use crate::read::views::View;

/// The firearms with a feature containing `feature`, within `category` when given (404 naming
/// `category` for an unknown one).
pub fn by_feature(
    snapshot: &Snapshot,
    feature: &str,
    category: Option<&str>,
    paging: &Paging,
    view: View,
) -> Result<Rendered, QueryError> {
    let features = holding(&snapshot.text_index().features, feature);
    slice(snapshot, paging, view, category, features)
}

/// The firearms of the action type `action` (one of `ACTION_TYPES`).
pub fn by_action(
    snapshot: &Snapshot,
    action: &str,
    paging: &Paging,
    view: View,
) -> Result<Rendered, QueryError> {
    let Some(kind) = ACTION_TYPES.iter().position(|known| *known == action) else {
        return Err(QueryError::Invalid {
            field: "action",
            reason: format!("'{action}' is not an action type"),
        });
    };
    let positions = &snapshot.rankings().by_action[kind];
    Ok(page_of(snapshot, paging, positions, ItemForm::Plan(view)))
}

/// The firearms whose frame, slide, barrel or stock material (or only `component`'s, one of
/// `COMPONENTS`) contains `material`.
pub fn by_material(
    snapshot: &Snapshot,
    material: &str,
    component: Option<&str>,
    paging: &Paging,
    view: View,
) -> Result<Rendered, QueryError> {
    let components: Vec<_> = COMPONENTS
        .iter()
        .zip(&snapshot.text_index().materials)
        .filter(|((name, _), _)| component.is_none_or(|c| c == *name))
        .map(|(_, materials)| holding(materials, material))
        .collect();
    slice(snapshot, paging, view, None, |marks| components.into_iter().for_each(|mark| mark(marks)))
}

/// The firearms whose designer contains `designer`.
pub fn by_designer(
    snapshot: &Snapshot,
    designer: &str,
    paging: &Paging,
    view: View,
) -> Result<Rendered, QueryError> {
    let designers = holding(&snapshot.text_index().designers, designer);
    slice(snapshot, paging, view, None, designers)
}

/// The firearms used in a conflict whose name contains `conflict`.
pub fn by_conflict(
    snapshot: &Snapshot,
    conflict: &str,
    paging: &Paging,
    view: View,
) -> Result<Rendered, QueryError> {
    let conflicts = holding(&snapshot.text_index().conflict_names, conflict);
    slice(snapshot, paging, view, None, conflicts)
}

/// The firearms `mark` marks (and in `category`), by name, as one page of list items: the name
/// order is walked only as far as the page.
fn slice(
    snapshot: &Snapshot,
    paging: &Paging,
    view: View,
    category: Option<&str>,
    mark: impl FnOnce(&mut Marks),
) -> Result<Rendered, QueryError> {
    let category = snapshot.category_filter("category", category)?;
    let mut marks = Marks::new(snapshot.catalog.firearms.len());
    mark(&mut marks);
    let total = match category {
        None => marks.count(),
        Some(_) => marks.iter().filter(|&at| in_category(snapshot, at, category)).count(),
    };
    let page: Vec<usize> = snapshot
        .read
        .orders
        .name
        .iter(false)
        .filter(|&at| marks.holds(at) && in_category(snapshot, at, category))
        .skip(paging.offset())
        .take(paging.per_page as usize)
        .collect();
    Ok(page_from(snapshot, paging, &page, total, ItemForm::Plan(view)))
}

/// Marks the firearms holding a value of `values` that contains `text` (any case).
fn holding<'a>(values: &'a Interned, text: &str) -> impl FnOnce(&mut Marks) + use<'a> {
    let needle = text.to_lowercase();
    move |marks| values.mark_containing(&needle, marks)
}
