//! Core in layers: the data types import no engine, and no module imports
//! its way back to itself.
//!
//! Every top-level module of `src/` (a file and the directory of its
//! children count as one) sits in one layer of [`LAYERS`]. A module may
//! import from its own layer or from the layers below it, never from a layer
//! above, and the imports inside a layer form no circle. Imports are read
//! from the source: `crate::…` and `super::…` paths (braced groups
//! included), outside comments and `#[cfg(test)]` modules, with names the
//! crate root re-exports followed to the module that defines them. Tests may
//! import anything.
//!
//! The checker is proved on planted mistakes below (an upward import, a
//! circle, a module missing from the table), and on the real tree by the
//! imports it must find.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, lowest first.
const LAYERS: &[(&str, &[&str])] = &[
    // Text and the names of things (and how a name list is written in
    // TypeScript): no settings, no engine.
    (
        "text",
        &["span", "sentence", "separator", "strategy", "typescript"],
    ),
    // The data types a split takes and gives, the errors, and the resources
    // they name (the embedders and their model files).
    (
        "data",
        &[
            "error",
            "unit",
            "presets",
            "embed",
            "resources",
            "config",
            "trace",
        ],
    ),
    // What is computed from a split's output, whatever engine made it.
    (
        "measures",
        &["stats", "check", "analysis", "export", "report"],
    ),
    // The engines, and the bookkeeping they share (`engine`).
    (
        "engines",
        &[
            "engine",
            "fixed",
            "recursive",
            "markdown",
            "semantic",
            "langchain",
            "semchunk",
            "chonkie",
            "chonkie_token",
            "chonkie_sentence",
            "llamaindex",
            "text_splitter",
        ],
    ),
    // The one place a strategy becomes its engine.
    ("compile", &["compile"]),
    // The crate root: `Splitter`, and the re-exports.
    ("root", &["lib"]),
];

/// Names under `crate::` that are not modules of this crate.
const EXTERNAL: &[&str] = &["tokens"];

/// A file's source with comments and `#[cfg(test)]` modules removed.
fn code(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut rest = source;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        // The item the attribute is on: skipped to its closing brace, or to
        // its semicolon when it has no body.
        let mut depth = 0usize;
        let mut end = after.len();
        for (i, c) in after.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = i + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out.lines()
        .map(|line| match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths of every `crate::` or `super::` reference in `code`, each as its
/// segments after the keyword (`["config", "Config"]`), with braced groups
/// expanded. `super` paths keep `"super"` as their first segment.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for keyword in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(keyword) {
            let at = from + i;
            from = at + keyword.len();
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let head = if keyword == "super::" {
                vec!["super".to_string()]
            } else {
                Vec::new()
            };
            expand(&code[from..], head, &mut out);
        }
    }
    out
}

/// Reads one path at the start of `text` (after `prefix`), expanding a braced
/// group into one path per member.
fn expand(text: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let text = text.trim_start();
    if let Some(group) = text.strip_prefix('{') {
        let mut depth = 0usize;
        let mut start = 0;
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    expand(&group[start..i], prefix.clone(), out);
                    return;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&group[start..i], prefix.clone(), out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        return;
    }
    let ident: String = text
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if ident.is_empty() {
        if !prefix.is_empty() {
            out.push(prefix);
        }
        return;
    }
    let mut path = prefix;
    path.push(ident.clone());
    match text[ident.len()..].strip_prefix("::") {
        Some(rest) => expand(rest, path, out),
        None => out.push(path),
    }
}

/// The module graph: which top-level modules each top-level module imports.
#[derive(Debug)]
struct Graph {
    edges: BTreeMap<String, BTreeSet<String>>,
    /// Files read.
    files: usize,
}

/// Builds the graph from `files`: paths relative to `src/` and their
/// sources. `lib.rs` declares the modules and names the re-exports.
fn graph(files: &BTreeMap<String, String>) -> Graph {
    let lib = files.get("lib.rs").expect("lib.rs");
    let lib_code = code(lib);
    // Modules the root declares, and the module each re-exported name comes from.
    let mut modules = BTreeSet::new();
    let mut reexports = BTreeMap::new();
    for statement in lib_code.split(';') {
        let statement = statement.trim();
        let words: Vec<&str> = statement.split_whitespace().collect();
        if let Some(name) = words.iter().position(|w| *w == "mod").map(|i| words[i + 1]) {
            if !statement.contains('{') {
                modules.insert(name.to_string());
            }
        }
        if let Some(rest) = statement
            .strip_prefix("pub use ")
            .filter(|r| !r.starts_with("crate::") && !r.starts_with("chunkscope_"))
        {
            let mut found = Vec::new();
            expand(rest, Vec::new(), &mut found);
            for path in found {
                if let (Some(module), Some(name)) = (path.first(), path.last()) {
                    reexports.insert(name.clone(), module.clone());
                }
            }
        }
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (file, source) in files {
        let unit = unit_of(file);
        let entry = edges.entry(unit.clone()).or_default();
        for path in paths(&code(source)) {
            let target = if path[0] == "super" {
                // `super` from a top-level file is the root; from deeper, the
                // same top-level module.
                if file.contains('/') {
                    continue;
                }
                match path.get(1) {
                    Some(next) if modules.contains(next) => next.clone(),
                    Some(next) => reexports
                        .get(next)
                        .cloned()
                        .unwrap_or_else(|| "lib".to_string()),
                    None => "lib".to_string(),
                }
            } else if modules.contains(&path[0]) {
                path[0].clone()
            } else if EXTERNAL.contains(&path[0].as_str()) {
                continue;
            } else {
                reexports
                    .get(&path[0])
                    .cloned()
                    .unwrap_or_else(|| "lib".to_string())
            };
            if target != unit {
                entry.insert(target);
            }
        }
    }
    Graph {
        edges,
        files: files.len(),
    }
}

/// `error/semantic.rs` and `error.rs` are both the module `error`.
fn unit_of(file: &str) -> String {
    let first = file.split('/').next().unwrap_or(file);
    first.trim_end_matches(".rs").to_string()
}

/// Every way `graph` breaks the layers, one message each; empty when none.
fn violations(graph: &Graph, layers: &[(&str, &[&str])]) -> Vec<String> {
    let layer_of = |unit: &str| layers.iter().position(|(_, units)| units.contains(&unit));
    let mut found = Vec::new();
    for (unit, targets) in &graph.edges {
        let Some(from) = layer_of(unit) else {
            found.push(format!(
                "module `{unit}` is in no layer: add it to the table"
            ));
            continue;
        };
        for target in targets {
            match layer_of(target) {
                Some(to) if to > from => found.push(format!(
                    "`{unit}` ({}) imports `{target}` ({}), a layer above it",
                    layers[from].0, layers[to].0
                )),
                Some(_) => {}
                None => found.push(format!(
                    "module `{target}` is in no layer: add it to the table"
                )),
            }
        }
    }
    if let Some(circle) = circle(&graph.edges) {
        found.push(format!("import circle: {}", circle.join(" → ")));
    }
    found.sort();
    found.dedup();
    found
}

/// One circle of imports, as the modules around it (the first repeated at
/// the end), or `None`.
fn circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        at: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        marks: &mut BTreeMap<String, Mark>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match marks.get(at) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let start = stack.iter().position(|u| u == at).expect("on the stack");
                let mut circle = stack[start..].to_vec();
                circle.push(at.to_string());
                return Some(circle);
            }
            None => {}
        }
        marks.insert(at.to_string(), Mark::Open);
        stack.push(at.to_string());
        for next in edges.get(at).into_iter().flatten() {
            if let Some(circle) = visit(next, edges, marks, stack) {
                return Some(circle);
            }
        }
        stack.pop();
        marks.insert(at.to_string(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    let mut stack = Vec::new();
    edges
        .keys()
        .find_map(|unit| visit(unit, edges, &mut marks, &mut stack))
}

fn read_tree(dir: &Path, base: &Path, out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            read_tree(&path, base, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = path
                .strip_prefix(base)
                .expect("under src/")
                .to_string_lossy()
                .replace('\\', "/");
            out.insert(name, std::fs::read_to_string(&path).expect("UTF-8 source"));
        }
    }
}

fn sources() -> BTreeMap<String, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = BTreeMap::new();
    read_tree(&src, &src, &mut files);
    files
}

#[test]
fn core_is_in_layers() {
    let graph = graph(&sources());
    let problems = violations(&graph, LAYERS);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_reader_sees_the_real_imports() {
    let files = sources();
    let graph = graph(&files);
    assert!(graph.files >= 35, "only {} files read", graph.files);
    let edges = |unit: &str| graph.edges.get(unit).cloned().unwrap_or_default();
    // Through a braced group (`use crate::{fixed, langchain, …}`).
    for engine in ["fixed", "langchain", "markdown", "recursive", "semantic"] {
        assert!(edges("compile").contains(engine), "compile → {engine}");
    }
    // Through a root re-export (`crate::Config` is `config`'s) and from a
    // child file (`error/semantic.rs` → `strategy`).
    assert!(edges("report").contains("config"));
    assert!(edges("error").contains("strategy"));
    // Every module of the tree is a node, and every node is in the table.
    let units: BTreeSet<String> = files.keys().map(|f| unit_of(f)).collect();
    let table: BTreeSet<String> = LAYERS
        .iter()
        .flat_map(|(_, units)| units.iter().map(|u| u.to_string()))
        .collect();
    assert_eq!(units, table);
}

fn planted(files: &[(&str, &str)]) -> Vec<String> {
    let files: BTreeMap<String, String> = files
        .iter()
        .map(|(name, source)| (name.to_string(), source.to_string()))
        .collect();
    violations(&graph(&files), LAYERS)
}

const LIB: &str = "mod config;\nmod error;\nmod recursive;\nmod engine;\n\
                   pub use config::{Config, Placement};\n";

#[test]
fn an_upward_import_is_found() {
    let problems = planted(&[
        ("lib.rs", LIB),
        ("config.rs", "use crate::{error::Error, recursive};\n"),
        ("error.rs", ""),
        ("recursive.rs", ""),
        ("engine.rs", ""),
    ]);
    assert_eq!(
        problems,
        ["`config` (data) imports `recursive` (engines), a layer above it"]
    );
}

#[test]
fn a_circle_is_found_and_tests_and_comments_are_not_imports() {
    let problems = planted(&[
        ("lib.rs", LIB),
        ("config.rs", "use crate::error::Error;\n"),
        (
            "error/semantic.rs",
            "// use crate::engine::Run;\nfn f() -> crate::Config { crate::Config::default() }\n",
        ),
        (
            "error.rs",
            "mod semantic;\n#[cfg(test)]\nmod tests { use crate::recursive; }\n",
        ),
        ("recursive.rs", ""),
        ("engine.rs", ""),
    ]);
    assert_eq!(problems, ["import circle: config → error → config"]);
}

#[test]
fn a_module_missing_from_the_table_is_found() {
    let problems = planted(&[
        ("lib.rs", "mod config;\nmod shiny;\n"),
        ("config.rs", "use crate::shiny::Thing;\n"),
        ("shiny.rs", ""),
    ]);
    assert_eq!(
        problems,
        ["module `shiny` is in no layer: add it to the table",]
    );
}
