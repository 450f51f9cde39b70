//! The rules, in one place: which moves exist, what a move does, who has won. Legal move
//! lists, `play`, perft and random playouts are all built from these functions.
//!
//! Moves are generated a whole direction at a time: shift the side's pawns one rank forward
//! (and one file sideways for the diagonals), then mask off what is not allowed. A move is
//! named by its direction and its destination bit; the source is the destination shifted
//! back.

use super::bits::{Counted, Kernel};
use super::{Bitboard, Color, Size, Status};

/// Directions, as indices into [`Targets::sets`].
pub(crate) const STRAIGHT: usize = 0;
/// Diagonally towards file a.
pub(crate) const LEFT: usize = 1;
/// Diagonally towards file h.
pub(crate) const RIGHT: usize = 2;

/// What one board size needs for move generation: its cells and each side's goal rank.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Geometry {
    pub(crate) board: u64,
    pub(crate) goal: [u64; 2],
}

impl Geometry {
    #[inline(always)]
    pub(crate) const fn new(size: Size) -> Geometry {
        Geometry {
            board: size.board_mask(),
            goal: [size.goal_mask(Color::White), size.goal_mask(Color::Black)],
        }
    }
}

/// All moves of the side to move, as one destination set per direction: bit `t` of
/// `sets[d]` is the move in direction `d` that lands on `t`. Every move appears exactly once.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Targets {
    pub(crate) sets: [u64; 3],
}

impl Targets {
    /// The moves of `side`, whose pawns are `own`, against `opp`, on `board`. The caller
    /// makes sure the game is not over (then there are no moves to speak of).
    #[inline(always)]
    pub(crate) const fn new(side: Color, own: u64, opp: u64, board: u64) -> Targets {
        let empty = board & !(own | opp);
        // A diagonal step may land on an empty cell or an enemy pawn, never on its own side.
        let open = board & !own;
        let pawns = Bitboard(own);
        Targets {
            sets: [
                pawns.forward(side).bits() & empty,
                pawns.forward_left(side).bits() & open,
                pawns.forward_right(side).bits() & open,
            ],
        }
    }

    /// The number of moves.
    #[inline(always)]
    pub(crate) const fn count(&self) -> u32 {
        self.sets[0].count_ones() + self.sets[1].count_ones() + self.sets[2].count_ones()
    }

    /// The three sets ready for [`total`] and [`pick`] with `kernel`.
    #[inline(always)]
    pub(crate) fn counted(&self, kernel: impl Kernel) -> [Counted; 3] {
        self.sets.map(|set| kernel.counted(set))
    }
}

/// The number of moves in the three sets of [`Targets::counted`].
#[inline(always)]
pub(crate) fn total(kernel: impl Kernel, counted: &[Counted; 3]) -> u32 {
    kernel.count(&counted[0]) + kernel.count(&counted[1]) + kernel.count(&counted[2])
}

/// The source square (as a bit) of the move of `side` in direction `dir` landing on `to`.
#[inline(always)]
pub(crate) const fn source(side: Color, dir: usize, to: u64) -> u64 {
    debug_assert!(dir <= RIGHT);
    let to = Bitboard(to);
    match dir {
        STRAIGHT => to.backward(side),
        LEFT => to.back_from_left(side),
        _ => to.back_from_right(side),
    }
    .bits()
}

/// Plays the move `from` → `to` for the side owning `own`; an enemy pawn on `to` is taken.
/// Returns whether that move won the game: a pawn reached `goal` (the mover's far rank) or
/// no enemy pawn is left.
#[inline(always)]
pub(crate) const fn apply(own: &mut u64, opp: &mut u64, from: u64, to: u64, goal: u64) -> bool {
    *own ^= from | to;
    *opp &= !to;
    to & goal != 0 || *opp == 0
}

/// Who has won in a position with these pawns. At most one side can have won in a valid
/// position (the game stops at the first win), so the order of the tests does not matter.
#[inline]
pub(crate) const fn status(geometry: &Geometry, white: u64, black: u64) -> Status {
    if white & geometry.goal[0] != 0 || black == 0 {
        Status::WhiteWon
    } else if black & geometry.goal[1] != 0 || white == 0 {
        Status::BlackWon
    } else {
        Status::Ongoing
    }
}

/// A move chosen for a random playout, as bits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Picked {
    pub(crate) from: u64,
    pub(crate) to: u64,
}

/// The `k`-th move of `side` (in the order straight, left, right, each by ascending
/// destination), from the sets of [`Targets::counted`], with `k < total(counted)`. The
/// direction is chosen by arithmetic rather than branches: in random playouts it is random,
/// so a branch would mispredict often.
#[inline(always)]
pub(crate) fn pick(kernel: impl Kernel, side: Color, counted: &[Counted; 3], k: u32) -> Picked {
    let straight = kernel.count(&counted[0]);
    let left = kernel.count(&counted[1]);
    let past_straight = k >= straight;
    let past_left = k >= straight + left;
    // All-ones masks select the direction's set and sums without an indexed load.
    let m1 = 0u64.wrapping_sub(u64::from(past_straight));
    let m2 = 0u64.wrapping_sub(u64::from(past_left));
    let set = Counted::blend(counted, m1, m2);
    let skipped = (u64::from(straight) & m1 & !m2) | (u64::from(straight + left) & m2);
    let to = kernel.select(&set, k - skipped as u32);
    let dir = usize::from(past_straight) + usize::from(past_left);
    Picked {
        from: source(side, dir, to),
        to,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_of_8x8_has_22_moves() {
        let size = Size::STANDARD;
        let g = Geometry::new(size);
        let t = Targets::new(
            Color::White,
            size.home_mask(Color::White),
            size.home_mask(Color::Black),
            g.board,
        );
        assert_eq!(t.sets[STRAIGHT], 0xFF << 16);
        assert_eq!(t.sets[LEFT], 0x7F << 16);
        assert_eq!(t.sets[RIGHT], 0xFE << 16);
        assert_eq!(t.count(), 22);
    }

    #[test]
    fn diagonals_do_not_wrap_around_the_edges() {
        // A white pawn on h2 of 8x8 and one on f2 of 6x5: no move may land on another rank's
        // a-file or off the right edge.
        let g = Geometry::new(Size::STANDARD);
        let t = Targets::new(Color::White, 1 << 15, 1 << 63, g.board);
        assert_eq!(t.sets, [1 << 23, 1 << 22, 0]);
        let g = Geometry::new(Size::new_checked(6, 5).unwrap());
        let t = Targets::new(Color::White, 1 << 13, 1 << 32, g.board);
        assert_eq!(t.sets, [1 << 21, 1 << 20, 0]);
        // A black pawn on a4 of 6x5 goes to a3 and b3 only.
        let t = Targets::new(Color::Black, 1 << 24, 1, g.board);
        assert_eq!(t.sets, [1 << 16, 0, 1 << 17]);
    }
}
