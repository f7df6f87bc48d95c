//! Where a search's nodes and cut-offs go: counts kept only in a build with
//! `--features tree-stats`, for `catena bench sscc` to print. Without the
//! feature every count compiles to nothing.
//!
//! docs/sscc-search.md ("Where the tree goes") reads them: in SSCC most
//! nodes lie below several switches, and a chain's stay almost never cuts.

use std::fmt;

/// A child searched by the main search, by what its action is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Child {
    /// A chain's move followed by a switch.
    Switch,
    /// A chain's move without the switch (searched after the switch).
    ChainStay,
    /// A move that closes no chain, or whose switch the run does not allow.
    Plain,
}

/// Something the search counts.
#[derive(Clone, Copy, Debug)]
pub enum Event {
    /// A main-search node with `switches` switches on the line from the root.
    Node { switches: u32 },
    /// A quiescence node; `below_switch` if the line from the root has one.
    Quiescence { below_switch: bool },
    /// A child about to be searched.
    Searched(Child),
    /// A child whose value reached beta.
    Cutoff(Child),
    /// A chain-closing move's switch evaluated by the stand pat.
    StandPatSwitch,
}

/// Whether this build counts (`--features tree-stats`).
pub const ENABLED: bool = cfg!(feature = "tree-stats");

/// Node counts by switches on the line: none, one, two, three or more.
const NODE_BUCKETS: usize = 4;
const COUNTS: usize = NODE_BUCKETS + 2 + 3 + 3 + 1;

impl Event {
    fn index(self) -> usize {
        match self {
            Event::Node { switches } => (switches as usize).min(NODE_BUCKETS - 1),
            Event::Quiescence { below_switch } => NODE_BUCKETS + usize::from(below_switch),
            Event::Searched(child) => NODE_BUCKETS + 2 + child as usize,
            Event::Cutoff(child) => NODE_BUCKETS + 5 + child as usize,
            Event::StandPatSwitch => COUNTS - 1,
        }
    }
}

#[cfg(feature = "tree-stats")]
static TALLY: [std::sync::atomic::AtomicU64; COUNTS] =
    [const { std::sync::atomic::AtomicU64::new(0) }; COUNTS];

/// Counts `event` (nothing without the feature).
#[inline(always)]
pub fn count(event: Event) {
    #[cfg(feature = "tree-stats")]
    TALLY[event.index()].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    #[cfg(not(feature = "tree-stats"))]
    let _ = event;
}

/// The counts since the last call, or `None` in a build without the feature.
pub fn take() -> Option<TreeStats> {
    #[cfg(feature = "tree-stats")]
    {
        let counts =
            std::array::from_fn(|i| TALLY[i].swap(0, std::sync::atomic::Ordering::Relaxed));
        Some(TreeStats { counts })
    }
    #[cfg(not(feature = "tree-stats"))]
    None
}

/// Counts of [`Event`]s, added up over searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeStats {
    counts: [u64; COUNTS],
}

impl TreeStats {
    pub fn get(&self, event: Event) -> u64 {
        self.counts[event.index()]
    }

    pub fn add(&mut self, other: &TreeStats) {
        for (sum, count) in self.counts.iter_mut().zip(other.counts) {
            *sum += count;
        }
    }
}

impl fmt::Display for TreeStats {
    /// Three lines: the nodes by switches above them, the children searched
    /// and their cut-offs by kind, the stand pat's switches.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let nodes: Vec<u64> = (0..NODE_BUCKETS as u32)
            .map(|switches| self.get(Event::Node { switches }))
            .collect();
        let total = nodes.iter().sum::<u64>().max(1);
        let share = |count: u64| 100.0 * count as f64 / total as f64;
        writeln!(
            f,
            "nodes {total}, by switches above: 0 {:.1}%, 1 {:.1}%, 2 {:.1}%, 3+ {:.1}%; \
             quiescence {} ({} below a switch)",
            share(nodes[0]),
            share(nodes[1]),
            share(nodes[2]),
            share(nodes[3]),
            self.get(Event::Quiescence {
                below_switch: false
            }) + self.get(Event::Quiescence { below_switch: true }),
            self.get(Event::Quiescence { below_switch: true }),
        )?;
        let kinds = [
            ("switches", Child::Switch),
            ("chain stays", Child::ChainStay),
            ("plain moves", Child::Plain),
        ];
        let children: Vec<String> = kinds
            .iter()
            .map(|&(name, child)| {
                format!(
                    "{name} {} ({} cut off)",
                    self.get(Event::Searched(child)),
                    self.get(Event::Cutoff(child))
                )
            })
            .collect();
        writeln!(f, "children searched: {}", children.join(", "))?;
        write!(
            f,
            "stand pat switches evaluated {}",
            self.get(Event::StandPatSwitch)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_has_its_own_count() {
        let mut events = vec![
            Event::Quiescence {
                below_switch: false,
            },
            Event::Quiescence { below_switch: true },
            Event::StandPatSwitch,
        ];
        for switches in 0..NODE_BUCKETS as u32 {
            events.push(Event::Node { switches });
        }
        for child in [Child::Switch, Child::ChainStay, Child::Plain] {
            events.push(Event::Searched(child));
            events.push(Event::Cutoff(child));
        }
        let mut indices: Vec<usize> = events.iter().map(|event| event.index()).collect();
        indices.sort_unstable();
        assert_eq!(indices, (0..COUNTS).collect::<Vec<_>>());
        assert_eq!(Event::Node { switches: 9 }.index(), NODE_BUCKETS - 1);
    }
}
