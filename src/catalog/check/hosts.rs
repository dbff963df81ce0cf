//! The published host list (`data/hosts.toml`): every host a source may cite, with its kind, and
//! the known mirrors, which may never be cited (see data/README.md, "Hosts").
//!
//! Hosts are matched exactly after normalising both sides: lower case, no trailing dot, one leading
//! `www.` removed. A subdomain is a host of its own (`de.wikipedia.org` is not `en.wikipedia.org`).

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use reqwest::Url;
use serde::Deserialize;

use crate::catalog::vocabulary::SOURCE_KINDS;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HostsFile {
    #[serde(default)]
    hosts: Vec<HostRow>,
    #[serde(default)]
    mirrors: Vec<MirrorRow>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HostRow {
    host: String,
    kind: String,
    #[allow(dead_code)]
    note: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct MirrorRow {
    host: String,
    /// The original: a listed host, or what the mirror copies when that is not one site.
    mirror_of: String,
    #[allow(dead_code)]
    note: Option<String>,
}

/// What the list says about one host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listed {
    /// A citable host and the kind its sources must have.
    Kind(String),
    /// A known copy of another site's pages: never cited, cite the original.
    Mirror { of: String },
}

/// Why a host list file was not taken.
#[derive(Debug, thiserror::Error)]
pub enum HostListError {
    #[error("cannot read the host list {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("the host list {}: {source}", path.display())]
    Invalid { path: PathBuf, source: HostListProblems },
}

/// What is wrong in a host list's text.
#[derive(Debug, thiserror::Error)]
pub enum HostListProblems {
    /// Not TOML, or a key the list does not have.
    #[error("{}", .0.message())]
    Syntax(toml::de::Error),
    /// Entries refused, each named.
    #[error("{}", .0.join("; "))]
    Entries(Vec<String>),
}

/// The host list, keyed by normalised host.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HostList {
    hosts: HashMap<String, Listed>,
}

impl HostList {
    /// Read and validate a host list file.
    pub fn load(path: &Path) -> Result<Self, HostListError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| HostListError::Read { path: path.to_owned(), source })?;
        Self::parse(&text).map_err(|source| HostListError::Invalid { path: path.to_owned(), source })
    }

    /// Parse and validate a host list: known kinds, bare host names, no host listed twice.
    pub fn parse(text: &str) -> Result<Self, HostListProblems> {
        let file: HostsFile = toml::from_str(text).map_err(HostListProblems::Syntax)?;
        let mut list = HostList::default();
        let mut problems = Vec::new();
        let rows = file.hosts.into_iter().map(|r| (r.host, Listed::Kind(r.kind)));
        let mirrors = file.mirrors.into_iter().map(|r| (r.host, Listed::Mirror { of: r.mirror_of }));
        for (host, listed) in rows.chain(mirrors) {
            if let Listed::Kind(kind) = &listed
                && !SOURCE_KINDS.contains(&kind.as_str())
            {
                problems.push(format!("{host}: kind '{kind}' is not one of {}", SOURCE_KINDS.join(", ")));
            }
            let bare = !host.is_empty()
                && host.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-.".contains(&b));
            if !bare {
                problems.push(format!("'{host}' is not a bare lower-case host name"));
            }
            if list.hosts.insert(normalise(&host), listed).is_some() {
                problems.push(format!("{host} is listed twice (hosts match without a leading www.)"));
            }
        }
        if problems.is_empty() { Ok(list) } else { Err(HostListProblems::Entries(problems)) }
    }

    /// What the list says about `host` (any case, with or without `www.`), or None when unlisted.
    pub fn get(&self, host: &str) -> Option<&Listed> {
        self.hosts.get(&normalise(host))
    }

    pub fn len(&self) -> usize {
        self.hosts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.hosts.is_empty()
    }
}

impl fmt::Display for Listed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Listed::Kind(kind) => write!(f, "{kind}"),
            Listed::Mirror { of } => write!(f, "a mirror of {of}"),
        }
    }
}

/// The host a URL names, lower case, or None when it is not an absolute URL with a host.
pub fn host_of(url: &str) -> Option<String> {
    Url::parse(url.trim()).ok()?.host_str().map(str::to_ascii_lowercase)
}

/// The form hosts are compared in: lower case, no trailing dot, one leading `www.` removed.
pub fn normalise(host: &str) -> String {
    let host = host.trim().trim_end_matches('.').to_ascii_lowercase();
    match host.strip_prefix("www.") {
        Some(rest) if !rest.is_empty() => rest.to_owned(),
        _ => host,
    }
}
