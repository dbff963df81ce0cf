//! The service's content, read without a key: the changelog and its Atom feed (122 to 124), the
//! blog (125, 126) and the notices (127), answered by `read::query::content`.

pub mod blog;
pub mod changelog;
pub mod notices;
