//! The layers of ARCHITECTURE.md, held: a top-level module names only modules of its own layer or
//! below, and only `http`, `app` and `cli` name the HTTP framework crates. Every source file is
//! parsed as Rust (`syn`): `use` trees with nested groups, and every path in code (`crate::x::y`
//! in an expression or a type), so an import cannot hide in a group or a fully written path.
//! Items under `#[cfg(test)]` are tests and held to neither rule. A fixture tree that breaks
//! each rule must fail. `python3 ../shared/tools/module_cycles.py src` shows the graph.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// Bottom to top; a module may import its own layer's neighbours listed here and any lower layer.
const LAYERS: &[&[&str]] = &[
    &[
        "allocator",
        "low_priority",
        "build_info",
        "clock",
        "compact",
        "error",
        "fast_hash",
        "metrics",
        "telemetry",
        "shutdown",
        "db",
        "xml",
    ],
    &["catalog"],
    &["assets"],
    &["access"],
    &["read"],
    &["accounts", "webhooks", "sellers", "mcp"],
    &["config"],
    &["http"],
    &["app", "cli"],
];

/// The HTTP framework crates: requests, responses, routers and middleware.
const HTTP_CRATES: &[&str] = &["axum", "hyper", "hyper_util", "tower", "tower_http", "utoipa_axum"];

/// The top-level modules that may name `HTTP_CRATES`.
const HTTP_MODULES: &[&str] = &["http", "app", "cli"];

/// Files outside `HTTP_MODULES` that may name an HTTP crate (file, crate), each with its reason
/// beside it. None is needed: the access decisions, the error table and the rendered answers are
/// plain Rust, and `http` applies them to requests.
const HTTP_EXCEPTIONS: &[(&str, &str)] = &[];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

/// What one file names: the first segment after `crate::` of every path, and every outside crate
/// a path starts with.
#[derive(Default)]
struct Names {
    modules: BTreeSet<String>,
    crates: BTreeSet<String>,
}

impl Names {
    fn path<'a>(&mut self, mut segments: impl Iterator<Item = &'a syn::Ident>) {
        let Some(first) = segments.next() else { return };
        match first.to_string().as_str() {
            "crate" => {
                if let Some(module) = segments.next() {
                    self.modules.insert(module.to_string());
                }
            }
            "self" | "super" | "Self" => {}
            name => {
                self.crates.insert(name.to_owned());
            }
        }
    }

    /// Every full path of a `use` tree, nested groups included.
    fn use_tree(&mut self, tree: &syn::UseTree, prefix: &mut Vec<syn::Ident>) {
        match tree {
            syn::UseTree::Path(path) => {
                prefix.push(path.ident.clone());
                self.use_tree(&path.tree, prefix);
                prefix.pop();
            }
            syn::UseTree::Group(group) => {
                for item in &group.items {
                    self.use_tree(item, prefix);
                }
            }
            syn::UseTree::Name(syn::UseName { ident })
            | syn::UseTree::Rename(syn::UseRename { ident, .. }) => {
                prefix.push(ident.clone());
                self.path(prefix.iter());
                prefix.pop();
            }
            syn::UseTree::Glob(_) => self.path(prefix.iter()),
        }
    }
}

fn is_cfg_test(attributes: &[syn::Attribute]) -> bool {
    attributes.iter().any(|attribute| {
        attribute.path().is_ident("cfg")
            && attribute.parse_args::<syn::Meta>().is_ok_and(|meta| meta.path().is_ident("test"))
    })
}

impl<'ast> Visit<'ast> for Names {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attributes = match item {
            syn::Item::Mod(item) => &item.attrs,
            syn::Item::Fn(item) => &item.attrs,
            syn::Item::Use(item) => &item.attrs,
            syn::Item::Impl(item) => &item.attrs,
            _ => &Vec::new(),
        };
        if is_cfg_test(attributes) {
            return;
        }
        if let syn::Item::Use(item) = item {
            // A leading `::` names an outside crate just the same.
            self.use_tree(&item.tree, &mut Vec::new());
            return;
        }
        syn::visit::visit_item(self, item);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.segments.len() > 1 {
            self.path(path.segments.iter().map(|segment| &segment.ident));
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        // A macro's own path (`tracing::error!`) is a path; its tokens are not parsed.
        self.visit_path(&mac.path);
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every breach of the two rules in the tree under `src`, as "file: what".
fn breaches(src: &Path) -> Vec<String> {
    let mut all = Vec::new();
    files(src, &mut all);
    all.sort();
    let mut found = Vec::new();
    for file in all {
        let relative = file.strip_prefix(src).unwrap().to_string_lossy().replace('\\', "/");
        let owner = relative.split('/').next().unwrap().trim_end_matches(".rs").to_owned();
        if owner == "main" || owner == "lib" {
            continue;
        }
        let own_layer =
            layer_of(&owner).unwrap_or_else(|| panic!("{owner} is in no layer of ARCHITECTURE.md"));
        let parsed = syn::parse_file(&std::fs::read_to_string(&file).unwrap())
            .unwrap_or_else(|e| panic!("{relative} does not parse: {e}"));
        let mut names = Names::default();
        names.visit_file(&parsed);
        for module in &names.modules {
            if let Some(layer) = layer_of(module)
                && *module != owner
                && layer > own_layer
            {
                found.push(format!("{relative}: imports {module}, a layer above"));
            }
        }
        for name in &names.crates {
            let excepted = HTTP_EXCEPTIONS.contains(&(relative.as_str(), name.as_str()));
            if HTTP_CRATES.contains(&name.as_str()) && !HTTP_MODULES.contains(&owner.as_str()) && !excepted {
                found.push(format!("{relative}: names {name} outside http"));
            }
        }
    }
    found
}

#[test]
fn no_module_imports_a_layer_above_its_own_nor_http_outside_http() {
    let found = breaches(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(found.is_empty(), "layer breaches:\n{}", found.join("\n"));
}

/// The fixture tree breaks each rule once in each way the parser must see through.
#[test]
fn the_fixture_tree_fails_on_every_breach() {
    let found = breaches(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/layers/src"));
    assert_eq!(
        found,
        [
            "catalog/grouped.rs: imports http, a layer above",
            "catalog/grouped.rs: imports read, a layer above",
            "read/framework.rs: names axum outside http",
            "read/framework.rs: names tower_http outside http",
            "read/inline.rs: imports accounts, a layer above",
        ]
    );
}
