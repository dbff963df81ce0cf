//! Answers rendered on their first request and kept for the snapshot's life, keyed by their
//! parameter: for a read that depends on nothing but the snapshot and one parameter whose values
//! the catalog bounds (a decade the catalog has firearms of), so the kept answers are bounded by
//! the data, not by what callers ask; where those values are many and an answer large (a
//! country's arsenal), at most a set number are kept (`at_most`). Neither persisted nor patched:
//! a new snapshot starts empty.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;

use crate::read::rendered::Rendered;

pub struct KeptAnswers<K> {
    answers: Mutex<HashMap<K, Rendered>>,
    /// Past this many, an answer is rendered and not kept (the first ones asked for stay).
    limit: usize,
}

impl<K> Default for KeptAnswers<K> {
    fn default() -> Self {
        Self::at_most(usize::MAX)
    }
}

impl<K> KeptAnswers<K> {
    /// Keeping at most `limit` answers.
    pub fn at_most(limit: usize) -> Self {
        Self { answers: Mutex::new(HashMap::new()), limit }
    }
}

impl<K: Hash + Eq> KeptAnswers<K> {
    /// The answer kept under `key`, or the one `render` makes, then kept. Rendered outside the
    /// lock: two first requests may both render (the same answer), neither waits on the other.
    pub fn get_or_render<E>(
        &self,
        key: K,
        render: impl FnOnce() -> Result<Rendered, E>,
    ) -> Result<Rendered, E> {
        if let Some(kept) = self.lock().get(&key) {
            return Ok(kept.clone());
        }
        let rendered = render()?;
        let mut answers = self.lock();
        if answers.len() < self.limit {
            answers.entry(key).or_insert_with(|| rendered.clone());
        }
        Ok(rendered)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<K, Rendered>> {
        // A panic while holding it cannot leave the map half changed (one insert).
        self.answers.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_is_rendered_once_per_key() {
        let kept = KeptAnswers::default();
        let first = kept.get_or_render(1990, || Ok::<_, ()>(Rendered::envelope("1"))).unwrap();
        let again = kept.get_or_render(1990, || -> Result<Rendered, ()> { unreachable!("kept") }).unwrap();
        assert_eq!((first.body.clone(), first.etag.clone()), (again.body, again.etag));
        let other = kept.get_or_render(2000, || Ok::<_, ()>(Rendered::envelope("2"))).unwrap();
        assert_eq!(other.data(), "2");
        assert_eq!(kept.get_or_render(2010, || Err("failed")).unwrap_err(), "failed");
        assert_eq!(kept.get_or_render(2010, || Ok::<_, ()>(Rendered::envelope("3"))).unwrap().data(), "3");
    }

    #[test]
    fn past_its_limit_an_answer_is_rendered_each_time_and_the_first_ones_stay() {
        let kept = KeptAnswers::at_most(1);
        kept.get_or_render("US", || Ok::<_, ()>(Rendered::envelope("us"))).unwrap();
        for round in 0..2 {
            let rendered = std::cell::Cell::new(false);
            let fr = kept.get_or_render("FR", || {
                rendered.set(true);
                Ok::<_, ()>(Rendered::envelope("fr"))
            });
            assert_eq!(fr.unwrap().data(), "fr");
            assert!(rendered.get(), "round {round}: not kept, so rendered again");
        }
        let us = kept.get_or_render("US", || -> Result<Rendered, ()> { unreachable!("kept") }).unwrap();
        assert_eq!(us.data(), "us");
    }
}
