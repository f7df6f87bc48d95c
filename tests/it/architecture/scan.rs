//! What one source file says, read from its tokens: the modules it holds
//! (itself and any inline `mod name { … }`), the items each defines, its
//! `mod` declarations and `use` declarations, and the paths in its code.

use std::collections::BTreeSet;

use super::tokens::{Token, past_group, tokens_without_tests};

/// A module path relative to the file's own module: `[]` is the file itself,
/// `["inner"]` an inline `mod inner { … }` in it.
pub type Scope = Vec<String>;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Namespace {
    /// `struct`, `enum`, `union`, `trait`, `type`: may open a longer path.
    Type,
    /// `fn`, `const`, `static`.
    Value,
    Macro,
}

#[derive(Debug, Default)]
pub struct ScopeItems {
    pub scope: Scope,
    /// The items defined here: name and namespace.
    pub definitions: Vec<(String, Namespace)>,
    /// `mod name;` declarations: name and `#[path]`, if any.
    pub declared_mods: Vec<(String, Option<String>)>,
    /// The `use` declarations at the module's top level (names others can reach).
    pub imports: Vec<UseLeaf>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Binding {
    Name(String),
    Glob,
}

/// One path a `use` declaration names: `use a::{b, c as d, e::*}` has three.
#[derive(Clone, Debug)]
pub struct UseLeaf {
    pub scope: Scope,
    pub path: Vec<String>,
    pub binding: Binding,
    /// `pub use` (of any visibility): a re-export, not a use by itself.
    pub public: bool,
}

/// A path of two or more segments in code, such as `crate::search::MATE`.
#[derive(Clone, Debug)]
pub struct CodePath {
    pub scope: Scope,
    pub segments: Vec<String>,
}

#[derive(Debug, Default)]
pub struct FileScan {
    /// The file's own module first, then its inline modules.
    pub scopes: Vec<ScopeItems>,
    /// `use` declarations inside function bodies and other blocks.
    pub block_uses: Vec<UseLeaf>,
    pub paths: Vec<CodePath>,
    /// Every identifier outside `use` declarations.
    pub mentioned: BTreeSet<String>,
}

const DEFINING_KEYWORDS: [(&str, Namespace); 8] = [
    ("fn", Namespace::Value),
    ("const", Namespace::Value),
    ("static", Namespace::Value),
    ("struct", Namespace::Type),
    ("enum", Namespace::Type),
    ("union", Namespace::Type),
    ("trait", Namespace::Type),
    ("type", Namespace::Type),
];

/// An open module while scanning: its index in `scopes`, and the brace depth
/// of its body.
struct Open {
    index: usize,
    depth: usize,
}

pub fn scan(source: &str) -> FileScan {
    let tokens = tokens_without_tests(source);
    let mut file = FileScan {
        scopes: vec![ScopeItems::default()],
        ..FileScan::default()
    };
    let mut open = vec![Open { index: 0, depth: 0 }];
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        let current = open.last().expect("the file's own module stays open");
        let top_level = depth == current.depth;
        let scope = file.scopes[current.index].scope.clone();
        match &tokens[i] {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                // The end of an inline module's body closes the module.
                if depth == current.depth && open.len() > 1 {
                    open.pop();
                }
                depth -= 1;
            }
            Token::Ident(word) if word == "use" => {
                let (leaves, end) = use_declaration(&tokens, i, &scope);
                if top_level {
                    file.scopes[current.index].imports.extend(leaves);
                } else {
                    file.block_uses.extend(leaves);
                }
                i = end;
                continue;
            }
            Token::Ident(word) if word == "mod" && top_level => {
                if let Some(Token::Ident(name)) = tokens.get(i + 1) {
                    if tokens.get(i + 2).is_some_and(|t| t.is_punct('{')) {
                        let mut inner = scope.clone();
                        inner.push(name.clone());
                        file.scopes.push(ScopeItems {
                            scope: inner,
                            ..ScopeItems::default()
                        });
                        depth += 1;
                        open.push(Open {
                            index: file.scopes.len() - 1,
                            depth,
                        });
                        i += 3;
                        continue;
                    }
                    let path = path_attribute(&tokens, i);
                    file.scopes[current.index]
                        .declared_mods
                        .push((name.clone(), path));
                }
            }
            Token::Ident(word) if word == "in" && tokens[..i].ends_with(&pub_open()) => {
                // `pub(in crate::chain)` names a module, it uses none.
                while tokens.get(i + 1).is_some_and(|t| !t.is_punct(')')) {
                    i += 1;
                }
            }
            Token::Ident(word) => {
                file.mentioned.insert(word.clone());
                if top_level && let Some(definition) = definition(&tokens, i) {
                    file.scopes[current.index].definitions.push(definition);
                }
                if !tokens[..i].last().is_some_and(|t| *t == Token::PathSep) {
                    let segments = path_segments(&tokens, i);
                    if segments.len() > 1 {
                        file.paths.push(CodePath { scope, segments });
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    file
}

/// The item a defining keyword at `i` names: `fn name`, `struct Name`, …,
/// `macro_rules! name`.
fn definition(tokens: &[Token], i: usize) -> Option<(String, Namespace)> {
    let Token::Ident(word) = &tokens[i] else {
        return None;
    };
    let name_at = |j: usize| match tokens.get(j) {
        Some(Token::Ident(name)) => Some(name.clone()),
        _ => None,
    };
    if word == "macro_rules" && tokens.get(i + 1).is_some_and(|t| t.is_punct('!')) {
        return name_at(i + 2).map(|name| (name, Namespace::Macro));
    }
    let (_, namespace) = DEFINING_KEYWORDS
        .iter()
        .find(|(keyword, _)| keyword == word)?;
    let previous = i.checked_sub(1).map(|j| &tokens[j]);
    // `a.union(b)`, and `<const N: usize>` in generics, define nothing.
    if previous.is_some_and(|t| t.is_punct('.') || t.is_punct('<') || t.is_punct(',')) {
        return None;
    }
    let mut name = name_at(i + 1)?;
    if name == "mut" {
        name = name_at(i + 2)?;
    }
    // `const fn`, `const unsafe fn`: the `fn` names the item.
    let modifiers = ["fn", "unsafe", "async", "extern"];
    (!modifiers.contains(&name.as_str())).then_some((name, *namespace))
}

/// The `"…"` of a `#[path = "…"]` among the attributes before the `mod` at `i`.
fn path_attribute(tokens: &[Token], i: usize) -> Option<String> {
    let mut j = i;
    // Back over a visibility: `pub`, `pub(crate)`, `pub(in a::b)`.
    if j > 0 && tokens[j - 1].is_punct(')') {
        while j > 0 && !tokens[j - 1].is_punct('(') {
            j -= 1;
        }
        j -= 1;
    }
    if j > 0 && tokens[j - 1].is_ident("pub") {
        j -= 1;
    }
    // Back over the attributes, looking at each `#[path = "…"]`.
    while j > 0 && tokens[j - 1].is_punct(']') {
        let mut open = j - 1;
        while open > 0 && !tokens[open].is_punct('[') {
            open -= 1;
        }
        if let [
            Token::Ident(name),
            Token::Punct('='),
            Token::Str(path),
            Token::Punct(']'),
        ] = &tokens[open + 1..j]
            && name == "path"
        {
            return Some(path.clone());
        }
        j = open.saturating_sub(1);
    }
    None
}

/// `a::b::c` from its first identifier at `i`, up to anything else (`::<`,
/// `(`, `!`, …).
fn path_segments(tokens: &[Token], mut i: usize) -> Vec<String> {
    let mut segments = Vec::new();
    while let Some(Token::Ident(name)) = tokens.get(i) {
        segments.push(name.clone());
        if tokens.get(i + 1) != Some(&Token::PathSep) {
            break;
        }
        i += 2;
    }
    segments
}

/// The leaves of the `use` declaration at `i`, and the index past its `;`.
fn use_declaration(tokens: &[Token], i: usize, scope: &Scope) -> (Vec<UseLeaf>, usize) {
    let public = is_public(tokens, i);
    let mut leaves = Vec::new();
    let mut j = i + 1;
    use_tree(tokens, &mut j, &[], &mut |path, binding| {
        leaves.push(UseLeaf {
            scope: scope.clone(),
            path,
            binding,
            public,
        })
    });
    while j < tokens.len() && !tokens[j].is_punct(';') {
        j += 1;
    }
    (leaves, j + 1)
}

/// `pub(`, as in `pub(in crate::chain)`.
fn pub_open() -> [Token; 2] {
    [Token::Ident("pub".into()), Token::Punct('(')]
}

/// Whether the keyword at `i` follows `pub` or `pub(…)`.
fn is_public(tokens: &[Token], i: usize) -> bool {
    let mut j = i;
    if j > 0 && tokens[j - 1].is_punct(')') {
        while j > 0 && !tokens[j - 1].is_punct('(') {
            j -= 1;
        }
        j = j.saturating_sub(1);
    }
    j > 0 && tokens[j - 1].is_ident("pub")
}

/// One use tree at `*i` under `prefix`: `a::b`, `a::b as c`, `a::*`,
/// `a::{…}`, or `self` inside braces; each leaf goes to `leaf`.
fn use_tree(
    tokens: &[Token],
    i: &mut usize,
    prefix: &[String],
    leaf: &mut dyn FnMut(Vec<String>, Binding),
) {
    let mut path = prefix.to_vec();
    if tokens.get(*i) == Some(&Token::PathSep) {
        *i += 1;
    }
    loop {
        match tokens.get(*i) {
            Some(Token::Ident(name)) => {
                *i += 1;
                let braced_self = name == "self" && !path.is_empty();
                if !braced_self {
                    path.push(name.clone());
                }
                if tokens.get(*i) == Some(&Token::PathSep) && !braced_self {
                    *i += 1;
                    continue;
                }
                let mut binding = path.last().cloned().unwrap_or_default();
                if tokens.get(*i).is_some_and(|t| t.is_ident("as"))
                    && let Some(Token::Ident(alias)) = tokens.get(*i + 1)
                {
                    binding = alias.clone();
                    *i += 2;
                }
                leaf(path, Binding::Name(binding));
            }
            Some(Token::Punct('*')) => {
                *i += 1;
                leaf(path, Binding::Glob);
            }
            Some(Token::Punct('{')) => {
                let end = past_group(tokens, *i);
                *i += 1;
                let close = end - 1;
                while *i < close {
                    use_tree(tokens, i, &path, leaf);
                    // Past the `,` (over anything unexpected before it).
                    while *i < close && !tokens[*i].is_punct(',') {
                        *i += 1;
                    }
                    if *i < close {
                        *i += 1;
                    }
                }
                *i = end;
            }
            _ => {}
        }
        return;
    }
}
