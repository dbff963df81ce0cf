//! The layers of ARCHITECTURE.md, held: a top-level module names only modules of its own layer or
//! below (`crate::x` paths and `use crate::{x, ...}` groups, unit tests aside), so no import runs
//! upward and no cycle can form. `python3 ../shared/tools/module_cycles.py src` shows the graph.

use std::collections::BTreeSet;
use std::path::Path;

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
    ],
    &["catalog"],
    &["access"],
    &["read"],
    &["accounts", "webhooks", "sellers"],
    &["config"],
    &["http"],
    &["app", "cli"],
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

fn imports(text: &str) -> BTreeSet<String> {
    let code: String =
        text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    let code = code.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + 7..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for item in group.split(',') {
                let name: String =
                    item.trim().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                found.insert(name);
            }
        } else {
            found.insert(rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect());
        }
    }
    found
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_module_imports_a_layer_above_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut upward = Vec::new();
    for file in all {
        let relative = file.strip_prefix(&src).unwrap();
        let owner = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_owned();
        if owner == "main" || owner == "lib" {
            continue;
        }
        let own_layer =
            layer_of(&owner).unwrap_or_else(|| panic!("{owner} is in no layer of ARCHITECTURE.md"));
        for target in imports(&std::fs::read_to_string(&file).unwrap()) {
            if let Some(target_layer) = layer_of(&target)
                && target != owner
                && target_layer > own_layer
            {
                upward.push(format!("{} imports {target}", relative.display()));
            }
        }
    }
    assert!(upward.is_empty(), "imports that run up a layer:\n{}", upward.join("\n"));
}
