//! The workspace's module trees, and which file each name used comes from.

use std::collections::{BTreeMap, BTreeSet};

use super::scan::{Binding, FileScan, Namespace, Scope, UseLeaf, scan};

/// A crate: its name in paths (`catena_core`), its root file, and the crates
/// its paths may start with.
pub struct CrateRoot {
    pub name: String,
    pub root: String,
    pub externs: Vec<String>,
}

/// "File A uses a name defined in file B", with the names: `(A, B) -> names`.
pub type Uses = BTreeMap<(String, String), BTreeSet<String>>;

struct Module {
    krate: usize,
    parent: Option<usize>,
    file: usize,
    children: BTreeMap<String, usize>,
    definitions: BTreeMap<String, Namespace>,
    imports: Vec<UseLeaf>,
}

struct SourceFile {
    path: String,
    scan: FileScan,
    /// The modules in the file: its own (scope `[]`) and the inline ones.
    modules: BTreeMap<Scope, usize>,
}

/// What a path names.
#[derive(Clone, Debug)]
enum Target {
    Module(usize),
    /// An item defined in the module's file.
    Item(usize, String),
    /// A name the module neither defines nor imports, as far as the scan can
    /// tell (say, items `include!`d from generated code): taken to be defined
    /// in the module's file.
    Unknown(usize, String),
}

pub struct Workspace {
    crates: Vec<CrateRoot>,
    modules: Vec<Module>,
    files: Vec<SourceFile>,
}

/// Globs and re-exports can lead in circles; a longer chain is given up.
const MAX_DEPTH: usize = 24;

impl Workspace {
    /// The module trees of `crates`, reading files from `sources` (path -> text).
    pub fn load(
        crates: Vec<CrateRoot>,
        sources: &BTreeMap<String, String>,
    ) -> Result<Self, String> {
        let mut workspace = Workspace {
            crates: Vec::new(),
            modules: Vec::new(),
            files: Vec::new(),
        };
        for (krate, root) in crates.iter().enumerate() {
            let dir = parent_dir(&root.root);
            workspace.add_file(sources, krate, None, &root.root, &dir)?;
        }
        workspace.crates = crates;
        Ok(workspace)
    }

    /// Every file in the module trees.
    pub fn files(&self) -> BTreeSet<String> {
        self.files.iter().map(|file| file.path.clone()).collect()
    }

    /// Adds the file at `path` as a module under `parent` (name and module),
    /// and the files its `mod` declarations name, which live under `dir`.
    fn add_file(
        &mut self,
        sources: &BTreeMap<String, String>,
        krate: usize,
        parent: Option<(&str, usize)>,
        path: &str,
        dir: &str,
    ) -> Result<usize, String> {
        let text = sources.get(path).ok_or_else(|| format!("no file {path}"))?;
        let file = self.files.len();
        self.files.push(SourceFile {
            path: path.to_string(),
            scan: scan(text),
            modules: BTreeMap::new(),
        });
        let scopes = std::mem::take(&mut self.files[file].scan.scopes);
        for items in &scopes {
            let parent = match items.scope.split_last() {
                None => parent,
                Some((name, outer)) => Some((name.as_str(), self.files[file].modules[outer])),
            };
            let module = self.add_module(krate, parent, file);
            self.modules[module].imports = items.imports.clone();
            for (name, namespace) in &items.definitions {
                let known = self.modules[module].definitions.entry(name.clone());
                // A name in both namespaces (`struct Unit;`) keeps `Type`.
                known
                    .and_modify(|n| *n = (*n).min(*namespace))
                    .or_insert(*namespace);
            }
            self.files[file].modules.insert(items.scope.clone(), module);
        }
        for items in &scopes {
            let module = self.files[file].modules[&items.scope];
            let scope_dir = join(dir, &items.scope.join("/"));
            for (name, path_attribute) in &items.declared_mods {
                let child_path = match path_attribute {
                    Some(relative) if items.scope.is_empty() => join(&parent_dir(path), relative),
                    Some(relative) => join(&scope_dir, relative),
                    None => {
                        let flat = join(&scope_dir, &format!("{name}.rs"));
                        let nested = join(&scope_dir, &format!("{name}/mod.rs"));
                        if sources.contains_key(&flat) {
                            flat
                        } else {
                            nested
                        }
                    }
                };
                let child_dir = if child_path.ends_with("/mod.rs") {
                    parent_dir(&child_path)
                } else {
                    child_path.trim_end_matches(".rs").to_string()
                };
                self.add_file(
                    sources,
                    krate,
                    Some((name, module)),
                    &child_path,
                    &child_dir,
                )?;
            }
        }
        Ok(self.files[file].modules[&Vec::new()])
    }

    fn add_module(&mut self, krate: usize, parent: Option<(&str, usize)>, file: usize) -> usize {
        let module = self.modules.len();
        self.modules.push(Module {
            krate,
            parent: parent.map(|(_, id)| id),
            file,
            children: BTreeMap::new(),
            definitions: BTreeMap::new(),
            imports: Vec::new(),
        });
        if let Some((name, id)) = parent {
            self.modules[id].children.insert(name.to_string(), module);
        }
        module
    }

    /// The uses between files, and the names the scan could not place (as
    /// `file: path`), which count as defined in the module they were looked
    /// up in.
    pub fn uses(&self) -> (Uses, BTreeSet<String>) {
        let mut found = Found::default();
        for (index, file) in self.files.iter().enumerate() {
            for &module in file.modules.values() {
                for import in &self.modules[module].imports {
                    self.use_leaf(index, module, import, &mut found);
                }
            }
            for leaf in &file.scan.block_uses {
                self.use_leaf(index, file.modules[&leaf.scope], leaf, &mut found);
            }
            for path in &file.scan.paths {
                let module = file.modules[&path.scope];
                if let Some(target) = self.resolve(module, &path.segments, 0) {
                    found.add(self, index, &target, &path.segments);
                }
            }
        }
        (found.uses, found.unknown)
    }

    /// The uses one leaf of a `use` declaration makes: none for a module
    /// (the paths through it are uses), none for a re-export the file does not
    /// mention itself, and for a glob those of its names the file mentions.
    fn use_leaf(&self, file: usize, module: usize, leaf: &UseLeaf, found: &mut Found) {
        let mentioned = &self.files[file].scan.mentioned;
        match &leaf.binding {
            Binding::Name(name) if leaf.public && !mentioned.contains(name) => {}
            Binding::Name(_) => match self.resolve(module, &leaf.path, 0) {
                None | Some(Target::Module(_)) => {}
                Some(target) => found.add(self, file, &target, &leaf.path),
            },
            Binding::Glob => match self.resolve(module, &leaf.path, 0) {
                None => {}
                Some(Target::Module(glob)) => {
                    let local = &self.modules[module];
                    for name in mentioned {
                        if local.definitions.contains_key(name) || local.children.contains_key(name)
                        {
                            continue;
                        }
                        match self.lookup(glob, name, false, 0) {
                            None | Some(Target::Module(_)) => {}
                            Some(target) => {
                                found.add(self, file, &target, std::slice::from_ref(name))
                            }
                        }
                    }
                }
                Some(target) => found.add(self, file, &target, &leaf.path),
            },
        }
    }

    /// What `segments` names, seen from `module`; `None` for what lies outside
    /// the workspace (`std::…`, other crates) or is local (`Self::new`, a
    /// variable).
    fn resolve(&self, module: usize, segments: &[String], depth: usize) -> Option<Target> {
        let (first, rest) = segments.split_first()?;
        let mut target = self.resolve_first(module, first, !rest.is_empty(), depth)?;
        for (index, segment) in rest.iter().enumerate() {
            let Target::Module(current) = target else {
                break;
            };
            let opens_path = index + 1 < rest.len();
            target = match segment.as_str() {
                "self" => Target::Module(current),
                "super" => Target::Module(self.modules[current].parent?),
                _ => self
                    .lookup(current, segment, opens_path, depth)
                    .unwrap_or_else(|| Target::Unknown(current, segment.clone())),
            };
        }
        Some(target)
    }

    /// The first segment of a path: `crate`, `self`, `super`, a name in scope
    /// in `module` (or in a block of its file), or a crate's name.
    fn resolve_first(
        &self,
        module: usize,
        name: &str,
        opens_path: bool,
        depth: usize,
    ) -> Option<Target> {
        let krate = self.modules[module].krate;
        match name {
            "crate" => return Some(Target::Module(self.crate_root(krate))),
            "self" => return Some(Target::Module(module)),
            "super" => return self.modules[module].parent.map(Target::Module),
            _ => {}
        }
        if let Some(target) = self.lookup(module, name, opens_path, depth) {
            return Some(target);
        }
        let file = &self.files[self.modules[module].file];
        for leaf in &file.scan.block_uses {
            if leaf.binding == Binding::Name(name.to_string()) && depth < MAX_DEPTH {
                let context = file.modules[&leaf.scope];
                if let Some(target) = self.resolve(context, &leaf.path, depth + 1) {
                    return Some(target);
                }
            }
        }
        let extern_crate = self.crates[krate].externs.iter().any(|e| e == name);
        let root = self.crates.iter().position(|c| c.name == name);
        root.filter(|_| extern_crate)
            .map(|other| Target::Module(self.crate_root(other)))
    }

    fn crate_root(&self, krate: usize) -> usize {
        let root = self
            .modules
            .iter()
            .position(|m| m.krate == krate && m.parent.is_none());
        root.expect("every crate has a root module")
    }

    /// `name` in `module`: a child module, an item defined there, or what an
    /// import (named or glob) there brings in. Only types and modules when
    /// the name `opens_path`: in `search::MATE`, `search` is no function.
    fn lookup(&self, module: usize, name: &str, opens_path: bool, depth: usize) -> Option<Target> {
        if depth > MAX_DEPTH {
            return None;
        }
        let here = &self.modules[module];
        if let Some(&child) = here.children.get(name) {
            return Some(Target::Module(child));
        }
        if let Some(&namespace) = here.definitions.get(name)
            && (!opens_path || namespace == Namespace::Type)
        {
            return Some(Target::Item(module, name.to_string()));
        }
        let named = here
            .imports
            .iter()
            .filter(|i| i.binding == Binding::Name(name.to_string()));
        for import in named {
            if let Some(target) = self.resolve(module, &import.path, depth + 1) {
                return Some(target);
            }
        }
        let globs = here.imports.iter().filter(|i| i.binding == Binding::Glob);
        for import in globs {
            if let Some(Target::Module(glob)) = self.resolve(module, &import.path, depth + 1)
                && glob != module
                && let Some(target) = self.lookup(glob, name, opens_path, depth + 1)
            {
                return Some(target);
            }
        }
        None
    }
}

#[derive(Default)]
struct Found {
    uses: Uses,
    unknown: BTreeSet<String>,
}

impl Found {
    /// That `file` uses `target`, named by `path`; nothing for a file's use of
    /// itself.
    fn add(&mut self, workspace: &Workspace, file: usize, target: &Target, path: &[String]) {
        let from = &workspace.files[file].path;
        let (module, name) = match target {
            Target::Module(module) => (*module, path.last().cloned().unwrap_or_default()),
            Target::Item(module, name) => (*module, name.clone()),
            Target::Unknown(module, name) => {
                self.unknown.insert(format!("{from}: {}", path.join("::")));
                (*module, name.clone())
            }
        };
        let to = &workspace.files[workspace.modules[module].file].path;
        if from != to {
            let names = self.uses.entry((from.clone(), to.clone())).or_default();
            names.insert(name);
        }
    }
}

fn parent_dir(path: &str) -> String {
    path.rsplit_once('/')
        .map_or(String::new(), |(dir, _)| dir.to_string())
}

/// `dir/relative`, with `..` and `.` segments folded.
fn join(dir: &str, relative: &str) -> String {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    parts.join("/")
}
