//! Seeded position generators for the chain tests: every position is a pure
//! function of its seed, so a failure names the seed that reproduces it.

use catena_core::board::{Bitboard, Move, MoveKind, Position};
use catena_core::rng::SplitMix64;

use super::oracle::{OGrid, XY};

/// One generated test case: a grid and the cell(s) a move put a piece on.
#[derive(Clone, Debug)]
pub struct Case {
    pub grid: OGrid,
    pub moved: Vec<XY>,
    /// How to make it again, for failure messages.
    pub origin: String,
}

/// A random occupied cell, if any.
pub fn random_occupied(rng: &mut SplitMix64, grid: &OGrid) -> Option<XY> {
    let cells = grid.occupied_cells();
    (!cells.is_empty()).then(|| cells[rng.below(cells.len())])
}

/// A width x height grid with each cell occupied with probability `percent`,
/// and a moved cell (occupied by force) chosen at random.
pub fn random_board(seed: u64, width: usize, height: usize, percent: u32) -> Case {
    let mut rng = SplitMix64::new(seed);
    let mut grid = OGrid::new(width, height);
    for cell in grid.clone().cells() {
        grid.set(cell, rng.percent(percent));
    }
    let moved = (rng.below(width), rng.below(height));
    grid.set(moved, true);
    Case {
        grid,
        moved: vec![moved],
        origin: format!("random_board(seed {seed}, {width}x{height}, {percent}%)"),
    }
}

/// A dense cluster: a blob of pieces (each cell of a random disc or rectangle
/// occupied with probability 70..95%) in a sparse field (0..15%), the moved
/// cell inside the blob.
pub fn dense_cluster(seed: u64, width: usize, height: usize) -> Case {
    let mut rng = SplitMix64::new(seed);
    let mut grid = OGrid::new(width, height);
    let cx = rng.below(width) as isize;
    let cy = rng.below(height) as isize;
    let rx = rng.range(1, width.div_ceil(2).max(1)) as isize;
    let ry = rng.range(1, height.div_ceil(2).max(1)) as isize;
    let disc = rng.percent(50);
    let dense = rng.range(70, 95) as u32;
    let sparse = rng.range(0, 15) as u32;
    let mut blob = Vec::new();
    for cell in grid.clone().cells() {
        let dx = cell.0 as isize - cx;
        let dy = cell.1 as isize - cy;
        let in_blob = if disc {
            dx * dx * ry * ry + dy * dy * rx * rx <= rx * rx * ry * ry
        } else {
            dx.abs() <= rx && dy.abs() <= ry
        };
        if in_blob {
            blob.push(cell);
        }
        grid.set(cell, rng.percent(if in_blob { dense } else { sparse }));
    }
    let moved = if blob.is_empty() {
        (cx as usize, cy as usize)
    } else {
        blob[rng.below(blob.len())]
    };
    grid.set(moved, true);
    Case {
        grid,
        moved: vec![moved],
        origin: format!("dense_cluster(seed {seed}, {width}x{height})"),
    }
}

/// A random rectangle of the grid, at least `span` + 1 cells a side where the
/// grid allows: its lower left and upper right corners.
struct Rectangle {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

impl Rectangle {
    fn random(rng: &mut SplitMix64, width: usize, height: usize, span: usize) -> Rectangle {
        let x0 = rng.below(width.saturating_sub(span).max(1));
        let y0 = rng.below(height.saturating_sub(span).max(1));
        let x1 = rng.range((x0 + span).min(width - 1), width - 1);
        let y1 = rng.range((y0 + span).min(height - 1), height - 1);
        Rectangle { x0, y0, x1, y1 }
    }

    fn on_border(&self, (x, y): XY) -> bool {
        (x >= self.x0 && x <= self.x1 && (y == self.y0 || y == self.y1))
            || (y >= self.y0 && y <= self.y1 && (x == self.x0 || x == self.x1))
    }

    fn is_corner(&self, (x, y): XY) -> bool {
        (x == self.x0 || x == self.x1) && (y == self.y0 || y == self.y1)
    }

    fn is_inside(&self, (x, y): XY) -> bool {
        x > self.x0 && x < self.x1 && y > self.y0 && y < self.y1
    }
}

/// A ring-like structure: the border of a random rectangle, with gaps, bumps,
/// diagonal corners and a few pieces inside; the kind of board where loops and
/// the rim rule matter.
pub fn ring(seed: u64, width: usize, height: usize) -> Case {
    let mut rng = SplitMix64::new(seed);
    let mut grid = OGrid::new(width, height);
    let rectangle = Rectangle::random(&mut rng, width, height, 2);
    let gap = rng.range(0, 12) as u32;
    let cut_corners = rng.percent(50);
    let mut ring_cells = Vec::new();
    for cell in grid.clone().cells() {
        let corner = rectangle.is_corner(cell);
        if rectangle.on_border(cell) && !(cut_corners && corner) && !rng.percent(gap) {
            grid.set(cell, true);
            ring_cells.push(cell);
        } else if rng.percent(12) {
            grid.set(cell, true);
        }
    }
    let moved = if ring_cells.is_empty() {
        (rectangle.x0, rectangle.y0)
    } else {
        ring_cells[rng.below(ring_cells.len())]
    };
    grid.set(moved, true);
    Case {
        grid,
        moved: vec![moved],
        origin: format!("ring(seed {seed}, {width}x{height})"),
    }
}

/// A piece deep inside a walled room: the border of a random rectangle is
/// solid, its inside filled at 20..50%, and the moved piece stands inside with
/// at least two pieces beside it. Loops through it can take in only part of
/// the room, the case the corridor search and its last resort exist for.
pub fn piece_in_a_room(seed: u64, width: usize, height: usize) -> Case {
    let mut rng = SplitMix64::new(seed);
    let mut grid = OGrid::new(width, height);
    let room = Rectangle::random(&mut rng, width, height, 4);
    let fill = rng.range(20, 50) as u32;
    for cell in grid.clone().cells() {
        let occupied = if room.on_border(cell) {
            true
        } else if room.is_inside(cell) {
            rng.percent(fill)
        } else {
            rng.percent(10)
        };
        grid.set(cell, occupied);
    }
    let inside: Vec<XY> = grid
        .clone()
        .cells()
        .filter(|&cell| room.is_inside(cell))
        .collect();
    let moved = inside[rng.below(inside.len())];
    grid.set(moved, true);
    let beside: Vec<XY> = grid
        .clone()
        .cells()
        .filter(|&(x, y)| x.abs_diff(moved.0) <= 1 && y.abs_diff(moved.1) <= 1 && (x, y) != moved)
        .collect();
    while beside.iter().filter(|&&cell| grid.get(cell)).count() < 2 {
        grid.set(beside[rng.below(beside.len())], true);
    }
    Case {
        grid,
        moved: vec![moved],
        origin: format!("piece_in_a_room(seed {seed}, {width}x{height})"),
    }
}

/// The cells of an 8x8 bitboard.
pub fn cells_of(bits: Bitboard) -> Vec<XY> {
    bits.into_iter()
        .map(|square| (square.file() as usize, square.rank() as usize))
        .collect()
}

/// One move of a game: the position before it, the move, the occupancy after
/// it and its landing squares (two for castling).
#[derive(Clone, Debug)]
pub struct GameMove {
    pub before: Position,
    pub mv: Move,
    pub occupied: Bitboard,
    pub landing: Bitboard,
}

/// A random legal game from the start position. Moves are drawn uniformly,
/// except that with probability `quiet_percent` a non-capture is preferred,
/// which keeps the board full longer (more like real games, more loops).
pub fn random_game(seed: u64, max_plies: usize, quiet_percent: u32) -> Vec<GameMove> {
    let mut rng = SplitMix64::new(seed);
    let mut position = Position::startpos();
    let mut moves = Vec::new();
    for _ in 0..max_plies {
        let legal = position.legal_moves();
        if legal.is_empty() || position.halfmove_clock() >= 100 || position.is_dead() {
            break;
        }
        let quiet: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&mv| {
                !position.occupied().contains(mv.to()) && mv.kind() != MoveKind::EnPassant
            })
            .collect();
        let mv = if !quiet.is_empty() && rng.percent(quiet_percent) {
            quiet[rng.below(quiet.len())]
        } else {
            legal[rng.below(legal.len())]
        };
        let child = position.after(mv);
        moves.push(GameMove {
            before: position.clone(),
            mv,
            occupied: child.occupied(),
            landing: position.landing_squares(mv),
        });
        position = child;
    }
    moves
}

/// A position for catena's FEN parser whose occupancy is `occupied`: two kings
/// (not adjacent) on occupied squares, every other piece black (so the side not
/// to move, Black, is never in check) except those near the white king, which
/// are white so White is in check by at most two pieces. Pawns only off the
/// back ranks. White to move. `None` if no such arrangement was found.
pub fn fen_for_occupancy(occupied: u64, seed: u64) -> Option<String> {
    let squares: Vec<usize> = (0..64).filter(|&s| occupied >> s & 1 != 0).collect();
    if squares.len() < 2 {
        return None;
    }
    let mut rng = SplitMix64::new(seed);
    for _attempt in 0..200 {
        let wk = squares[rng.below(squares.len())];
        let bk = squares[rng.below(squares.len())];
        let (wx, wy) = (wk % 8, wk / 8);
        let (bx, by) = (bk % 8, bk / 8);
        if wx.abs_diff(bx) <= 1 && wy.abs_diff(by) <= 1 {
            continue;
        }
        let mut board = [' '; 64];
        board[wk] = 'K';
        board[bk] = 'k';
        for &s in &squares {
            if s == wk || s == bk {
                continue;
            }
            let (x, y) = (s % 8, s / 8);
            let back_rank = y == 0 || y == 7;
            let kinds: &[char] = if back_rank {
                &['n', 'b', 'r', 'q']
            } else {
                &['p', 'p', 'n', 'b', 'r']
            };
            let mut piece = kinds[rng.below(kinds.len())];
            // Pieces close to the white king, or on its lines, turn white.
            let near = x.abs_diff(wx) <= 2 && y.abs_diff(wy) <= 2;
            let on_line = x == wx || y == wy || x.abs_diff(wx) == y.abs_diff(wy) || rng.percent(10);
            if near || on_line {
                piece = piece.to_ascii_uppercase();
            }
            board[s] = piece;
        }
        let mut fen = board_of(&board);
        fen.push_str(" w - - 0 1");
        if let Ok(position) = Position::from_fen(&fen)
            && position.occupied().0 == occupied
        {
            return Some(fen);
        }
    }
    None
}

/// The board field of a FEN for `squares`, a1 first, `' '` for empty.
pub fn board_of(squares: &[char]) -> String {
    squares
        .chunks(8)
        .rev()
        .map(|rank| {
            let mut text = String::new();
            let mut empty = 0;
            for &c in rank {
                if c == ' ' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(c);
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect::<Vec<_>>()
        .join("/")
}
