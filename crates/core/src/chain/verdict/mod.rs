//! The verdict: whether a move forms a chain, exactly (steps 1 to 4 of the
//! method in [`super`]).
//!
//! * [`screen`] (step 1): all the moves of a position at once;
//! * step 2, the cheap rejection, is the floods of [`super::flood_bits`] on
//!   the chess board and of [`super::flood_grid`] on any grid (run in
//!   [`workspace`]);
//! * [`blocks_bits`] and [`blocks_grid`] (step 3): the 2-connected blocks
//!   through the moved piece, on bitboards and on any grid; on bitboards, a
//!   group within one face settles a piece deep inside a block;
//! * [`surround`] and [`corridor`] (step 4): a group over several faces, by
//!   corridors of faces;
//! * how it runs: [`workspace`] (the arrays, kept per thread), [`memo`]
//!   (verdicts remembered per thread by board), [`race`] (the rejection and
//!   the rest on two threads on large grids).

pub(super) mod blocks_bits;
pub(super) mod blocks_grid;
pub(super) mod corridor;
pub(super) mod memo;
pub(super) mod race;
pub(super) mod screen;
pub(super) mod surround;
pub(super) mod workspace;
