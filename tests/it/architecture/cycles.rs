//! The circles in a graph of uses: its strongly connected components of more
//! than one file (Tarjan's algorithm).

use std::collections::{BTreeMap, BTreeSet};

use super::resolve::Uses;

/// Each circle's files, sorted; the circles in the order of their first file.
pub fn circles(uses: &Uses) -> Vec<Vec<String>> {
    let mut graph: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in uses.keys() {
        graph.entry(from).or_default().push(to);
        graph.entry(to).or_default();
    }
    let mut tarjan = Tarjan::default();
    for &node in graph.keys() {
        if !tarjan.index.contains_key(node) {
            tarjan.visit(&graph, node);
        }
    }
    let mut circles: Vec<Vec<String>> = tarjan
        .components
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let sorted: BTreeSet<String> = component.into_iter().map(str::to_string).collect();
            sorted.into_iter().collect()
        })
        .collect();
    circles.sort();
    circles
}

/// A circle as text: its files, then each use between them and its names.
pub fn describe(circle: &[String], uses: &Uses) -> String {
    let mut text = format!(
        "a circle of {} files: {}\n",
        circle.len(),
        circle.join(", ")
    );
    for ((from, to), names) in uses {
        if circle.contains(from) && circle.contains(to) {
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            text += &format!("  {from} -> {to}: {}\n", names.join(", "));
        }
    }
    text
}

#[derive(Default)]
struct Tarjan<'a> {
    index: BTreeMap<&'a str, usize>,
    low: BTreeMap<&'a str, usize>,
    stack: Vec<&'a str>,
    on_stack: BTreeSet<&'a str>,
    components: Vec<Vec<&'a str>>,
}

impl<'a> Tarjan<'a> {
    fn visit(&mut self, graph: &BTreeMap<&'a str, Vec<&'a str>>, node: &'a str) {
        let index = self.index.len();
        self.index.insert(node, index);
        self.low.insert(node, index);
        self.stack.push(node);
        self.on_stack.insert(node);
        for &next in &graph[node] {
            if !self.index.contains_key(next) {
                self.visit(graph, next);
                let low = self.low[node].min(self.low[next]);
                self.low.insert(node, low);
            } else if self.on_stack.contains(next) {
                let low = self.low[node].min(self.index[next]);
                self.low.insert(node, low);
            }
        }
        if self.low[node] == index {
            let mut component = Vec::new();
            while let Some(member) = self.stack.pop() {
                self.on_stack.remove(member);
                component.push(member);
                if member == node {
                    break;
                }
            }
            self.components.push(component);
        }
    }
}
