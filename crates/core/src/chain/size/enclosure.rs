//! The largest chain through one piece.
//!
//! A loop through the piece `s` is the boundary between a connected set of
//! faces `I` (inside) and the connected rest `X` (outside, with the infinite
//! face), where both meet at `s`. Shrinking `X` to a path of faces from the
//! infinite face to a face at `s` only lets `I` grow, so the largest chain is
//! the heaviest component, next to `s`, left over when a chordless path of
//! faces from the infinite face to `s` is taken out; a branch-and-bound over
//! such paths finds it.

use std::collections::HashSet;

use super::faces::Faces;
use crate::chain::flood_grid::largest_king_group;
use crate::chain::padded::Index;

/// The questions about loops through one piece.
pub(in crate::chain) struct Enclosures<'a> {
    faces: &'a Faces,
    /// Distinct faces around the piece.
    at_piece: Vec<usize>,
    min_enclosed: usize,
}

impl<'a> Enclosures<'a> {
    pub fn new(faces: &'a Faces, piece: Index, min_enclosed: u32) -> Self {
        Enclosures {
            faces,
            at_piece: faces.around(piece),
            min_enclosed: min_enclosed.max(1) as usize,
        }
    }

    fn is_at_piece(&self, face: usize) -> bool {
        self.at_piece.contains(&face)
    }

    /// The size of the largest king-connected group of empty squares in `set`.
    fn largest_group(&self, set: &[usize]) -> usize {
        let squares: Vec<Index> = set
            .iter()
            .flat_map(|&face| self.faces.empties[face].iter().copied())
            .collect();
        largest_king_group(self.faces.layout(), &squares)
    }

    /// The largest number of empty squares inside any chain through the piece
    /// (0 when there is none).
    pub fn largest_chain(&self) -> usize {
        let mut search = PathSearch {
            enclosures: self,
            on_path: vec![false; self.faces.count],
            touching_path: vec![0; self.faces.count],
            best: 0,
            tried: HashSet::new(),
        };
        let outer = self.faces.outer;
        search.enter(outer);
        if self.is_at_piece(outer) {
            search.score_leftovers();
            return search.best;
        }
        // Depth-first over chordless paths of faces, with an explicit stack:
        // a path may be as long as the board has faces.
        let mut frames = vec![(outer, search.candidates(outer))];
        while let Some((_, untried)) = frames.last_mut() {
            match untried.pop() {
                Some(face) => {
                    search.enter(face);
                    if self.is_at_piece(face) {
                        search.score_leftovers();
                        search.leave(face);
                    } else {
                        let next = search.candidates(face);
                        frames.push((face, next));
                    }
                }
                None => {
                    let (face, _) = frames.pop().expect("the loop saw a frame");
                    search.leave(face);
                }
            }
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
    /// (last face, faces still joined to the piece) of every path tried: two
    /// paths that leave the same faces behind have the same futures.
    tried: HashSet<(usize, Vec<u64>)>,
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

    /// The faces that may continue the path after `last`, most promising
    /// last; none when even the best completion cannot beat the best chain.
    fn candidates(&mut self, last: usize) -> Vec<usize> {
        let leftovers = self.leftovers();
        let leftover = leftovers
            .iter()
            .map(|(_, weight)| *weight)
            .max()
            .unwrap_or(0);
        // Faces cut off from the piece are lost for good, and the path cannot
        // pass through them to reach it.
        let mut joined = vec![0u64; self.enclosures.faces.count.div_ceil(64)];
        for &face in leftovers.iter().flat_map(|(members, _)| members) {
            joined[face / 64] |= 1 << (face % 64);
        }
        let is_joined = |face: usize| joined[face / 64] >> (face % 64) & 1 == 1;
        let distance = self.distances_to_piece();
        // The rest of the path leaves the leftover faces too.
        let still_to_lose = self.enclosures.faces.neighbours[last]
            .iter()
            .map(|&face| distance[face])
            .min()
            .unwrap_or(usize::MAX);
        if leftover.saturating_sub(still_to_lose) <= self.best {
            return Vec::new();
        }
        let mut next: Vec<usize> = self.enclosures.faces.neighbours[last]
            .iter()
            .copied()
            .filter(|&face| is_joined(face) && self.touching_path[face] == 1)
            .collect();
        if !self.tried.insert((last, joined)) {
            return Vec::new();
        }
        next.sort_by_key(|&face| std::cmp::Reverse(distance[face]));
        next
    }

    /// For every face off the path, the fewest empty squares a path of faces
    /// off the path from it to a face at the piece must cover (itself included).
    fn distances_to_piece(&self) -> Vec<usize> {
        let faces = self.enclosures.faces;
        let mut distance = vec![usize::MAX; faces.count];
        let mut queue = std::collections::BinaryHeap::new();
        for &face in &self.enclosures.at_piece {
            if !self.on_path[face] {
                distance[face] = faces.empties[face].len();
                queue.push(std::cmp::Reverse((distance[face], face)));
            }
        }
        while let Some(std::cmp::Reverse((cost, face))) = queue.pop() {
            if cost > distance[face] {
                continue;
            }
            for &other in &faces.neighbours[face] {
                let through = cost + faces.empties[other].len();
                if !self.on_path[other] && through < distance[other] {
                    distance[other] = through;
                    queue.push(std::cmp::Reverse((through, other)));
                }
            }
        }
        distance
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chain::Grid;

    #[test]
    fn a_ring_has_its_centre_in_a_bounded_face() {
        let grid = Grid::parse("3x3 xxx/x.x/xxx").unwrap();
        let group = super::super::faces::group_of(&grid, crate::chain::Cell::new(0, 0));
        let faces = Faces::of_group(&grid, &group);
        let centre = faces.layout().index(crate::chain::Cell::new(1, 1));
        let holding = (0..faces.count).find(|&face| faces.empties[face].contains(&centre));
        assert!(holding.is_some_and(|face| face != faces.outer));
    }
}
