//! Chains (docs/rules.md, section 2): loops of pieces through the piece that just moved,
//! surrounding a king-connected group of at least `MinEnclosed` empty squares.
//!
//! The method, exact and without recursion on the board (`docs/chains.md`
//! gives it with pictures, and draws this module's files):
//! 1. the move screen ([`verdict::screen`]) settles, for all the moves of a
//!    position at once, the moves whose square cuts nothing new off the edge;
//! 2. a flood fill from the edge rejects a board whose pieces cut off no
//!    group of `MinEnclosed` empty squares ([`flood_bits`] on bitboards,
//!    [`flood_grid`] on any grid, run in `verdict::workspace`): almost
//!    every move of a game ends there; on the chess board a moved piece
//!    with fewer than two neighbours ends the test before it, being on no
//!    loop;
//! 3. every loop through the moved piece lies in one 2-connected block of the
//!    pieces' king graph ([`verdict::blocks_bits`], [`verdict::blocks_grid`]);
//!    a piece on a block's outer border surrounds all the block cuts off, and
//!    a piece deep inside may have any one face of the block's drawing
//!    ([`size::faces`]) inside;
//! 4. a group spread over several faces is inside a loop through the piece
//!    exactly when a corridor of faces leads from the outer face to the piece
//!    around it (Menger's theorem on the dual, [`verdict::corridor`],
//!    [`verdict::surround`]);
//! 5. the chain size, asked for only when a chain is formed, is a
//!    branch-and-bound over such corridors ([`size::enclosure`]); verdicts
//!    past the rejection are remembered per thread by board
//!    ([`verdict::memo`]);
//! 6. for display, the loop with the fewest pieces is found by iterative
//!    deepening ([`size::smallest`]); on large grids the rejection and the
//!    rest race on two threads ([`verdict::race`]).
//!
//! The files follow the method: `verdict` answers whether a move forms a
//! chain (steps 1 to 4, with the memory and the race that run them), `size`
//! how large it is and which loop shows it (steps 5 and 6), and the floods of
//! step 2, which both use, stand beside the boards (`grid`, `padded`) as
//! twins, `flood_bits` on the chess board's bitboards and `flood_grid` on
//! any grid, as the blocks of step 3 are twins in `verdict`.

mod flood_bits;
mod flood_grid;
mod grid;
mod padded;
mod size;
mod verdict;

pub use grid::{Cell, Grid, GridError, MAX_SIDE};
pub use verdict::race::{PARALLEL_FROM_CELLS, Parallelism, RACE_FROM_CELLS};
pub use verdict::screen::MoveScreen;

use std::sync::atomic::AtomicBool;

use arrayvec::ArrayVec;

use crate::board::attacks::king_attacks;
use crate::board::{Bitboard, Square};
use padded::Index;
use size::enclosure::Enclosures;
use size::faces::{Faces, group_of};
use size::smallest;
use verdict::blocks_bits::Want;
use verdict::workspace::{PIECE, Workspace, with_grid, with_workspace};
use verdict::{blocks_bits, memo, race, surround};

/// A chain formed by a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    /// The most empty squares inside any chain through the moved piece(s).
    pub size: u32,
    /// A chain with the fewest pieces, in order around the loop.
    pub smallest: Vec<Cell>,
    /// The empty squares inside `smallest`, bottom row first.
    pub enclosed: Vec<Cell>,
}

/// Whether the move that put pieces on `landing` formed a chain.
///
/// ```
/// use catena_core::board::{Position, Square};
/// use catena_core::chain;
/// // 1.c3 e5 2.d3: b2-c3-d3-e2-d1-c1 surrounds c2 and d2.
/// let position =
///     Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/8/2PP4/PP2PPPP/RNBQKBNR b KQkq - 0 2").unwrap();
/// let d3: Square = "d3".parse().unwrap();
/// assert!(chain::forms_chain(position.occupied(), d3.bitboard(), 2));
/// assert_eq!(chain::chain_size(position.occupied(), d3.bitboard(), 2), 2);
/// assert!(!chain::forms_chain(position.occupied(), d3.bitboard(), 3));
/// ```
pub fn forms_chain(occupied: Bitboard, landing: Bitboard, min_enclosed: u32) -> bool {
    forms_chain_with(occupied, landing, min_enclosed, Memo::Use)
}

/// Whether a chain test consults and fills the per-thread memo of verdicts.
/// A caller that seldom meets a board twice skips it: there the lookup is
/// mostly a cache miss that saves nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Memo {
    Use,
    Skip,
}

/// [`forms_chain`], with or without the memo of verdicts.
pub(crate) fn forms_chain_with(
    occupied: Bitboard,
    landing: Bitboard,
    min_enclosed: u32,
    memo: Memo,
) -> bool {
    // A loop through a piece leaves it by two neighbours: a piece with
    // fewer is on none, and most moves into the open end here.
    let on_loops: Bitboard = (landing & occupied)
        .into_iter()
        .filter(|&piece| (king_attacks(piece) & occupied).has_several())
        .collect();
    if on_loops.is_empty() {
        return false;
    }
    let decide = || {
        on_loops.into_iter().any(|piece| {
            let verdict = blocks_bits::chains_through(occupied, piece, min_enclosed, Want::Whether);
            verdict.forms_chain()
                || verdict
                    .inner
                    .iter()
                    .any(|&block| inner_block_surrounds(occupied, block, piece, min_enclosed))
        })
    };
    // The block test floods from the edge over the piece's group itself; the
    // whole board's flood goes first only to spare the memo a lookup (most
    // likely a cache miss) where nothing is cut off.
    match memo {
        Memo::Use if !flood_bits::may_enclose(occupied, min_enclosed) => false,
        Memo::Use => memo::remembered(occupied, landing, min_enclosed, decide),
        Memo::Skip => decide(),
    }
}

/// Whether a loop of `block` through `piece`, which lies deep inside it,
/// surrounds a group of `min_enclosed` empty squares: the corridor search,
/// sequential on the chess board.
fn inner_block_surrounds(
    occupied: Bitboard,
    block: Bitboard,
    piece: Square,
    min_enclosed: u32,
) -> bool {
    with_workspace(|workspace| {
        let drawing = &mut workspace.drawing;
        drawing.load_board(occupied, block);
        let layout = drawing.layout;
        let members: ArrayVec<Index, 64> = block
            .into_iter()
            .map(|square| layout.index(Cell::from(square)))
            .collect();
        let piece = layout.index(Cell::from(piece));
        let never = AtomicBool::new(false);
        surround::surrounds_a_group(
            drawing,
            layout.window(&members),
            piece,
            min_enclosed,
            false,
            &never,
        )
    })
}

/// The cheap exact test the engine runs first: whether the pieces cut a
/// king-connected group of `min_enclosed` empty squares off the board's edge
/// anywhere. When they do not, no move forms a chain.
pub fn cuts_off_a_group(occupied: Bitboard, min_enclosed: u32) -> bool {
    flood_bits::may_enclose(occupied, min_enclosed)
}

/// The empty squares the men `occupied` cut off from the board's edge: the
/// pockets a loop can surround (the flood fill of [`cuts_off_a_group`]).
///
/// ```
/// use catena_core::board::Position;
/// use catena_core::chain;
/// // After 1.c3 e5 2.d3, c2 and d2.
/// let position =
///     Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/8/2PP4/PP2PPPP/RNBQKBNR b KQkq - 0 2").unwrap();
/// let names: Vec<String> = chain::pockets(position.occupied()).into_iter().map(|square| square.to_string()).collect();
/// assert_eq!(names, ["c2", "d2"]);
/// ```
pub fn pockets(occupied: Bitboard) -> Bitboard {
    !occupied - flood_bits::escaping_squares(occupied)
}

/// The chain size of the move that put pieces on `landing`: the most empty
/// squares inside any chain through them, 0 when it formed none.
pub fn chain_size(occupied: Bitboard, landing: Bitboard, min_enclosed: u32) -> u32 {
    if !flood_bits::may_enclose(occupied, min_enclosed) {
        return 0;
    }
    (landing & occupied)
        .into_iter()
        .map(|piece| {
            let verdict = blocks_bits::chains_through(occupied, piece, min_enclosed, Want::Size);
            if verdict.inside_one_face
                || verdict
                    .inner
                    .iter()
                    .any(|&block| inner_block_surrounds(occupied, block, piece, min_enclosed))
            {
                let grid = Grid::from_bitboard(occupied);
                largest_chain(&grid, Cell::from(piece), min_enclosed)
            } else {
                verdict.largest_on_border
            }
        })
        .max()
        .unwrap_or(0)
}

fn cells(squares: Bitboard) -> Vec<Cell> {
    squares.into_iter().map(Cell::from).collect()
}

/// [`forms_chain`] on any grid.
pub fn grid_forms_chain(grid: &Grid, moved: &[Cell], min_enclosed: u32) -> bool {
    grid_forms_chain_with(grid, moved, min_enclosed, Parallelism::Auto)
}

/// [`grid_forms_chain`], choosing how it runs ([`Parallelism`]): the cheap
/// rejection, and the blocks through each moved piece ([`verdict::blocks_grid`]) with,
/// for each block that cuts off enough empty cells, the corridor search.
pub fn grid_forms_chain_with(
    grid: &Grid,
    moved: &[Cell],
    min_enclosed: u32,
    parallelism: Parallelism,
) -> bool {
    let cut_off = |workspace: &mut Workspace, stop: &AtomicBool| {
        workspace.drawing.cuts_off_a_group(min_enclosed, stop)
    };
    let surrounds = |workspace: &mut Workspace, stop: &AtomicBool| {
        surrounds_through(workspace, grid, moved, min_enclosed, parallelism, stop)
    };
    if parallelism.races(grid.width() * grid.height()) {
        return race::both(grid, cut_off, surrounds);
    }
    let never = AtomicBool::new(false);
    with_grid(grid, |workspace| {
        cut_off(workspace, &never) && surrounds(workspace, &never)
    })
}

/// Whether a chain through one of the `moved` pieces of the grid loaded in
/// `workspace` surrounds a group of `min_enclosed` empty cells, without the
/// cheap rejection; false once `stop` is raised.
fn surrounds_through(
    workspace: &mut Workspace,
    grid: &Grid,
    moved: &[Cell],
    min_enclosed: u32,
    parallelism: Parallelism,
    stop: &AtomicBool,
) -> bool {
    let Workspace { drawing, blocks } = workspace;
    moved
        .iter()
        .filter(|&&piece| grid.is_occupied(piece))
        .any(|&piece| {
            let layout = drawing.layout;
            let piece = layout.index(piece);
            blocks.find(layout, |cell| drawing.kind[cell] & PIECE != 0, piece);
            blocks.iter().filter(|block| block.len() >= 4).any(|block| {
                drawing.mark_block(block);
                let window = layout.window(block);
                let in_bands = parallelism.in_bands(window.area());
                surround::surrounds_a_group(drawing, window, piece, min_enclosed, in_bands, stop)
            })
        })
}

/// [`chain_size`] on any grid.
pub fn grid_chain_size(grid: &Grid, moved: &[Cell], min_enclosed: u32) -> u32 {
    moved
        .iter()
        .filter(|&&piece| grid_forms_chain(grid, &[piece], min_enclosed))
        .map(|&piece| largest_chain(grid, piece, min_enclosed))
        .max()
        .unwrap_or(0)
}

/// The largest chain through `piece`, which forms one: the branch-and-bound
/// over the faces of its group's drawing.
fn largest_chain(grid: &Grid, piece: Cell, min_enclosed: u32) -> u32 {
    let group = group_of(grid, piece);
    let faces = Faces::of_group(grid, &group);
    let enclosures = Enclosures::new(&faces, faces.layout().index(piece), min_enclosed);
    enclosures.largest_chain() as u32
}

/// Everything about the chain formed through `moved`, or `None` when there is none.
pub fn analyse(grid: &Grid, moved: &[Cell], min_enclosed: u32) -> Option<Chain> {
    let size = grid_chain_size(grid, moved, min_enclosed);
    if size == 0 {
        return None;
    }
    let (smallest, enclosed) = moved
        .iter()
        .filter(|&&piece| grid_forms_chain(grid, &[piece], min_enclosed))
        .filter_map(|&piece| smallest::smallest_loop(grid, piece, min_enclosed))
        .min_by_key(|(loop_cells, _)| loop_cells.len())?;
    Some(Chain {
        size,
        smallest,
        enclosed,
    })
}

/// [`analyse`] for a chess position's occupancy.
pub fn analyse_board(occupied: Bitboard, landing: Bitboard, min_enclosed: u32) -> Option<Chain> {
    analyse(
        &Grid::from_bitboard(occupied),
        &cells(landing),
        min_enclosed,
    )
}

/// Back from a cell of the chess board to its square.
pub fn square_of(cell: Cell) -> Square {
    Square::new(cell.x as u8, cell.y as u8)
}
