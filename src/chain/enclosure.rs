//! Which empty squares a loop through one piece can surround.
//!
//! A loop through the piece `s` is the boundary between a connected set of
//! faces `I` (inside) and the connected rest `X` (outside, with the infinite
//! face), where both meet at `s`. Shrinking `X` to a path of faces from the
//! infinite face to a face at `s` only lets `I` grow, so:
//!
//! * faces `T` (connected) can all be surrounded by a loop through `s` exactly
//!   when, with `T` merged into one face `t`, two paths of faces that share no
//!   face lead from the infinite face and from `t` to two faces at `s`
//!   (Menger: a unit-capacity flow of 2);
//! * the largest chain is the heaviest component, next to `s`, left over when a
//!   chordless path of faces from the infinite face to `s` is taken out; a
//!   branch-and-bound over such paths finds it.

use std::collections::HashSet;

use super::faces::{Faces, Padded};

/// The questions about loops through one piece.
pub(super) struct Enclosures<'a> {
    faces: &'a Faces,
    /// Distinct faces around the piece.
    at_piece: Vec<usize>,
    min_enclosed: usize,
}

impl<'a> Enclosures<'a> {
    pub fn new(faces: &'a Faces, piece: Padded, min_enclosed: u32) -> Self {
        Enclosures {
            faces,
            at_piece: faces.around(piece),
            min_enclosed: min_enclosed.max(1) as usize,
        }
    }

    fn is_at_piece(&self, face: usize) -> bool {
        self.at_piece.contains(&face)
    }

    /// Whether some loop through the piece surrounds enough touching empty squares.
    pub fn forms_chain(&self) -> bool {
        if self.at_piece.len() < 2 {
            return false;
        }
        // Faces that can be surrounded one at a time; any set that can be
        // surrounded together is made of them.
        let singles: Vec<usize> = (0..self.faces.count)
            .filter(|&face| !self.faces.empties[face].is_empty())
            .filter(|&face| self.can_surround(&[face]))
            .collect();
        let mut seen: HashSet<Vec<usize>> = HashSet::new();
        let mut queue: Vec<Vec<usize>> = singles.iter().map(|&face| vec![face]).collect();
        while let Some(set) = queue.pop() {
            if self.largest_group(&set) >= self.min_enclosed {
                return true;
            }
            // Grow only across squares that touch diagonally: a larger group
            // needs a square of another face next to one already counted.
            for face in self.linked_faces(&set) {
                if !singles.contains(&face) {
                    continue;
                }
                let mut grown = set.clone();
                grown.push(face);
                grown.sort_unstable();
                if seen.insert(grown.clone()) && self.can_surround(&grown) {
                    queue.push(grown);
                }
            }
        }
        false
    }

    /// Faces outside `set` holding an empty square king-adjacent to an empty
    /// square of `set`.
    fn linked_faces(&self, set: &[usize]) -> Vec<usize> {
        let stride = self.faces.stride();
        let mut linked = Vec::new();
        for &face in set {
            for &square in &self.faces.empties[face] {
                for neighbour in padded_king_neighbours(stride, square) {
                    let other = self.faces.face_of(neighbour);
                    if other != usize::MAX
                        && !set.contains(&other)
                        && !linked.contains(&other)
                        && self.faces.empties[other].contains(&neighbour)
                    {
                        linked.push(other);
                    }
                }
            }
        }
        linked
    }

    /// The size of the largest king-connected group of empty squares in `set`.
    fn largest_group(&self, set: &[usize]) -> usize {
        let squares: Vec<Padded> = set
            .iter()
            .flat_map(|&face| self.faces.empties[face].iter().copied())
            .collect();
        largest_king_group(self.faces.stride(), &squares)
    }

    /// Whether one loop through the piece can have all of `targets` (connected
    /// faces) inside: two face-disjoint paths, from the infinite face and from
    /// the merged targets, to two different faces at the piece.
    fn can_surround(&self, targets: &[usize]) -> bool {
        let merged = targets[0];
        let node = |face: usize| {
            if targets.contains(&face) {
                merged
            } else {
                face
            }
        };
        let mut flow = UnitFlow::new(2 * self.faces.count + 2);
        let (source, sink) = (2 * self.faces.count, 2 * self.faces.count + 1);
        let (entry, exit) = (|face: usize| 2 * face, |face: usize| 2 * face + 1);
        flow.add(entry(merged), exit(merged));
        for face in 0..self.faces.count {
            if targets.contains(&face) {
                continue;
            }
            flow.add(entry(face), exit(face));
            for &other in &self.faces.neighbours[face] {
                if node(other) != face {
                    flow.add(exit(face), entry(node(other)));
                }
            }
        }
        for &face in targets {
            for &other in &self.faces.neighbours[face] {
                if node(other) != merged {
                    flow.add(exit(merged), entry(node(other)));
                }
            }
        }
        flow.add(source, entry(self.faces.outer));
        flow.add(source, entry(merged));
        let mut ends: Vec<usize> = self.at_piece.iter().map(|&face| node(face)).collect();
        ends.sort_unstable();
        ends.dedup();
        for face in ends {
            flow.add(exit(face), sink);
        }
        flow.reaches(source, sink, 2)
    }

    /// The largest number of empty squares inside any chain through the piece
    /// (0 when there is none).
    pub fn largest_chain(&self) -> usize {
        let mut search = PathSearch {
            enclosures: self,
            on_path: vec![false; self.faces.count],
            touching_path: vec![0; self.faces.count],
            best: 0,
        };
        let outer = self.faces.outer;
        search.enter(outer);
        if self.is_at_piece(outer) {
            search.score_leftovers();
        } else {
            search.extend(outer);
        }
        search.best
    }

    /// Total empty squares and largest group in the component of faces not on
    /// the path that contains `start`, marking it in `seen`.
    fn component(&self, start: usize, blocked: &[bool], seen: &mut [bool]) -> Vec<usize> {
        let mut members = vec![start];
        seen[start] = true;
        let mut next = 0;
        while next < members.len() {
            let face = members[next];
            next += 1;
            for &other in &self.faces.neighbours[face] {
                if !blocked[other] && !seen[other] {
                    seen[other] = true;
                    members.push(other);
                }
            }
        }
        members
    }

    fn weight(&self, faces: &[usize]) -> usize {
        faces
            .iter()
            .map(|&face| self.faces.empties[face].len())
            .sum()
    }
}

struct PathSearch<'s, 'a> {
    enclosures: &'s Enclosures<'a>,
    on_path: Vec<bool>,
    /// How many faces of the path share an edge with each face.
    touching_path: Vec<usize>,
    best: usize,
}

impl PathSearch<'_, '_> {
    fn enter(&mut self, face: usize) {
        self.on_path[face] = true;
        for &other in &self.enclosures.faces.neighbours[face] {
            self.touching_path[other] += 1;
        }
    }

    fn leave(&mut self, face: usize) {
        self.on_path[face] = false;
        for &other in &self.enclosures.faces.neighbours[face] {
            self.touching_path[other] -= 1;
        }
    }

    /// Components left next to the piece: (faces, empty squares).
    fn leftovers(&self) -> Vec<(Vec<usize>, usize)> {
        let enclosures = self.enclosures;
        let mut seen = vec![false; enclosures.faces.count];
        let mut found = Vec::new();
        for &face in &enclosures.at_piece {
            if self.on_path[face] || seen[face] {
                continue;
            }
            let members = enclosures.component(face, &self.on_path, &mut seen);
            let weight = enclosures.weight(&members);
            found.push((members, weight));
        }
        found
    }

    fn score_leftovers(&mut self) {
        for (members, weight) in self.leftovers() {
            if weight > self.best
                && self.enclosures.largest_group(&members) >= self.enclosures.min_enclosed
            {
                self.best = weight;
            }
        }
    }

    fn extend(&mut self, last: usize) {
        let bound = self
            .leftovers()
            .iter()
            .map(|(_, weight)| *weight)
            .max()
            .unwrap_or(0);
        if bound <= self.best {
            return;
        }
        let faces = self.enclosures.faces;
        let mut next: Vec<usize> = faces.neighbours[last]
            .iter()
            .copied()
            .filter(|&face| !self.on_path[face] && self.touching_path[face] == 1)
            .collect();
        // Through empty-free faces first: they cost nothing.
        next.sort_by_key(|&face| faces.empties[face].len());
        for face in next {
            self.enter(face);
            if self.enclosures.is_at_piece(face) {
                self.score_leftovers();
            } else {
                self.extend(face);
            }
            self.leave(face);
        }
    }
}

/// The up to eight neighbours of a padded cell (the padding ring keeps them in range).
pub(super) fn padded_king_neighbours(stride: usize, index: Padded) -> impl Iterator<Item = Padded> {
    [
        index - stride - 1,
        index - stride,
        index - stride + 1,
        index - 1,
        index + 1,
        index + stride - 1,
        index + stride,
        index + stride + 1,
    ]
    .into_iter()
}

/// The size of the largest king-connected group among `squares`.
pub(super) fn largest_king_group(stride: usize, squares: &[Padded]) -> usize {
    let mut visited = vec![false; squares.len()];
    let mut largest = 0;
    for start in 0..squares.len() {
        if visited[start] {
            continue;
        }
        visited[start] = true;
        let mut stack = vec![start];
        let mut size = 0;
        while let Some(at) = stack.pop() {
            size += 1;
            for neighbour in padded_king_neighbours(stride, squares[at]) {
                if let Some(other) = squares.iter().position(|&square| square == neighbour)
                    && !visited[other]
                {
                    visited[other] = true;
                    stack.push(other);
                }
            }
        }
        largest = largest.max(size);
    }
    largest
}

/// A unit-capacity flow network, enough to count disjoint paths.
struct UnitFlow {
    /// Arcs as (head, residual capacity); arc `i ^ 1` is the reverse of arc `i`.
    arcs: Vec<(usize, u8)>,
    leaving: Vec<Vec<usize>>,
}

impl UnitFlow {
    fn new(nodes: usize) -> UnitFlow {
        UnitFlow {
            arcs: Vec::new(),
            leaving: vec![Vec::new(); nodes],
        }
    }

    fn add(&mut self, from: usize, to: usize) {
        self.leaving[from].push(self.arcs.len());
        self.arcs.push((to, 1));
        self.leaving[to].push(self.arcs.len());
        self.arcs.push((from, 0));
    }

    /// Whether `wanted` units can flow from `source` to `sink`.
    fn reaches(&mut self, source: usize, sink: usize, wanted: usize) -> bool {
        for _ in 0..wanted {
            let mut arc_into = vec![usize::MAX; self.leaving.len()];
            let mut queue = vec![source];
            let mut reached = false;
            let mut next = 0;
            while next < queue.len() && !reached {
                let node = queue[next];
                next += 1;
                for &arc in &self.leaving[node] {
                    let (head, capacity) = self.arcs[arc];
                    if capacity > 0 && head != source && arc_into[head] == usize::MAX {
                        arc_into[head] = arc;
                        reached |= head == sink;
                        queue.push(head);
                    }
                }
            }
            if !reached {
                return false;
            }
            let mut node = sink;
            while node != source {
                let arc = arc_into[node];
                self.arcs[arc].1 -= 1;
                self.arcs[arc ^ 1].1 += 1;
                node = self.arcs[arc ^ 1].0;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::Grid;

    #[test]
    fn unit_flow_counts_disjoint_paths() {
        // 0 -> 1 -> 3 and 0 -> 2 -> 3: two paths; a third would need a third arc.
        let mut flow = UnitFlow::new(4);
        for (from, to) in [(0, 1), (0, 2), (1, 3), (2, 3)] {
            flow.add(from, to);
        }
        assert!(flow.reaches(0, 3, 2));
        assert!(!flow.reaches(0, 3, 1));
    }

    #[test]
    fn a_ring_has_its_centre_in_a_bounded_face() {
        let grid = Grid::parse("3x3 xxx/x.x/xxx").unwrap();
        let group = super::super::faces::group_of(&grid, super::super::Cell::new(0, 0));
        let faces = Faces::of_group(&grid, &group);
        let centre = super::super::faces::pad(faces.stride(), super::super::Cell::new(1, 1));
        assert_ne!(faces.face_of(centre), faces.outer);
    }
}
