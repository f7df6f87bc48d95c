//! The chain's size and its smallest loop, asked for only once the verdict
//! ([`super::verdict`]) has found a chain (steps 5 and 6 of the method in
//! [`super`]).
//!
//! * [`faces`]: the drawing of a group of touching pieces as a plane graph,
//!   and its faces;
//! * [`enclosure`] (step 5): the largest chain through a piece, a
//!   branch-and-bound over corridors of faces;
//! * [`smallest`] (step 6): the chain with the fewest pieces, for display.
//!
//! These allocate as they go: they run once per chain formed, where the
//! verdict runs on every move.

pub(super) mod enclosure;
pub(super) mod faces;
pub(super) mod smallest;
