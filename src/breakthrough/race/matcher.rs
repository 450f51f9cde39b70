//! Matching on bitboards: every pattern, at every file, compiled at build time into three
//! masks, so that one placement is checked with three ANDs.
//!
//! The masks live in one frame for both colours: pattern row `r` on rank `r + 1` (bit row
//! `r`), which is where Black's goal lies. To match White, the board is brought into that
//! frame first: shifted up so that White's goal rank is rank 8, then flipped vertically
//! (a byte swap), two operations per bitboard. Cells past file h are walls on every board
//! and must admit one, or the placement is dropped; cells past the last file of a narrower
//! board are caught at match time by the board mask.

use super::{Cell, MAX_HEIGHT, MAX_WIDTH, PATTERNS, Pattern, Tempo};
use crate::breakthrough::{Color, Position};

/// One pattern at one file, as masks in the common frame (bit `rank * 8 + file`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Placement {
    /// Cells that must hold an attacker pawn.
    attackers: u64,
    /// Cells that must not hold a defender pawn (on the board or not).
    no_defender: u64,
    /// Cells that must be on the board.
    on_board: u64,
}

/// Leftmost files a pattern can take: from `-(MAX_WIDTH - 1)` (all but one column past the
/// a-file) to 7.
const FILES: usize = 8 + MAX_WIDTH - 1;

/// A placement that never matches (a side never has 64 pawns): the slot of a file where
/// the pattern cannot sit.
const NEVER: Placement = Placement {
    attackers: u64::MAX,
    no_defender: 0,
    on_board: 0,
};

/// A pattern compiled: its claim and its placements by leftmost file, from which the set
/// lays out its candidates.
///
/// Its *anchor* is the first attacker pawn of its row nearest the goal; a match puts an
/// attacker pawn there, so only the placements under the attacker's pawns of that rank are
/// tried, usually one or two.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Compiled {
    moves: u8,
    tempo: Tempo,
    /// The anchor's row: a match needs an attacker pawn that close to the goal.
    nearest: u8,
    /// The anchor's column.
    anchor: u8,
    /// Slot `left + MAX_WIDTH - 1` for the leftmost file `left`, [`NEVER`] where unusable.
    placements: [Placement; FILES],
}

impl Compiled {
    const EMPTY: Compiled = Compiled {
        moves: 0,
        tempo: Tempo::AttackerFirst,
        nearest: 0,
        anchor: 0,
        placements: [NEVER; FILES],
    };

    const fn new(pattern: &Pattern) -> Compiled {
        let mut out = Compiled::EMPTY;
        out.moves = pattern.moves();
        out.tempo = pattern.tempo();
        out.nearest = MAX_HEIGHT as u8;
        let mut row = 0;
        while row < pattern.height() {
            let mut column = pattern.width();
            while column > 0 {
                column -= 1;
                if let Some(Cell::Occupied) = pattern.cell(row, column)
                    && (row as u8) <= out.nearest
                {
                    out.nearest = row as u8;
                    out.anchor = column as u8;
                }
            }
            row += 1;
        }
        let width = pattern.width() as i32;
        let mut left = 1 - width;
        while left <= 7 {
            let mut placement = Placement {
                attackers: 0,
                no_defender: 0,
                on_board: 0,
            };
            let mut usable = true;
            let mut row = 0;
            while row < pattern.height() {
                let mut column = 0;
                while column < pattern.width() {
                    let cell = match pattern.cell(row, column) {
                        Some(cell) => cell,
                        None => Cell::DontCare,
                    };
                    let file = left + column as i32;
                    if file < 0 || file > 7 {
                        usable &= cell.admits_wall();
                    } else {
                        let bit = 1u64 << (row as u32 * 8 + file as u32);
                        if matches!(cell, Cell::Occupied) {
                            placement.attackers |= bit;
                        }
                        if !cell.admits_defender() {
                            placement.no_defender |= bit;
                        }
                        if !cell.admits_wall() {
                            placement.on_board |= bit;
                        }
                    }
                    column += 1;
                }
                row += 1;
            }
            if usable && placement.attackers != 0 {
                out.placements[(left + MAX_WIDTH as i32 - 1) as usize] = placement;
            }
            left += 1;
        }
        out
    }
}

/// A board seen from one attacker, in the frame of the masks (the attacker's goal on
/// rank 1).
struct Frame {
    attackers: u64,
    defenders: u64,
    board: u64,
    /// Ranks from the attacker's most advanced pawn to its goal.
    nearest: u32,
}

impl Frame {
    #[inline]
    fn new(position: &Position, attacker: Color) -> Frame {
        let size = position.size();
        let view = |bits: u64| match attacker {
            Color::Black => bits,
            Color::White => (bits << (8 * (8 - u32::from(size.rows())))).swap_bytes(),
        };
        let attackers = view(position.pawns(attacker));
        Frame {
            attackers,
            defenders: view(position.pawns(attacker.other())),
            // Whole ranks from rank 1 up: the same in both frames.
            board: size.board_mask(),
            nearest: attackers.trailing_zeros() / 8,
        }
    }
}

/// One pattern at one anchor file, ready to test: its placement's masks cut to the four
/// rows a pattern can cover (bits 0..31 of the frame), and its claim's moves. 16 bytes, so
/// the candidates of one anchor sit on one or two cache lines.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    attackers: u32,
    no_defender: u32,
    on_board: u32,
    moves: u32,
}

impl Candidate {
    const NONE: Candidate = Candidate {
        attackers: 0,
        no_defender: 0,
        on_board: 0,
        moves: 0,
    };

    #[inline(always)]
    const fn matches(&self, frame: &Frame) -> bool {
        let (attackers, defenders, board) = (
            frame.attackers as u32,
            frame.defenders as u32,
            frame.board as u32,
        );
        attackers & self.attackers == self.attackers
            && defenders & self.no_defender == 0
            && self.on_board & !board == 0
    }
}

/// Files of the board: the anchor's file is one of them.
const ANCHOR_FILES: usize = 8;

/// A set of compiled patterns (each with its mirror image), fixed capacity `N`.
///
/// Every pattern is laid out at every file its anchor can take, as a [`Candidate`]; the
/// candidates are grouped by tempo, anchor row and anchor file, each group in ascending
/// order of moves, so a match tries one contiguous run per anchor pawn and stops at the
/// first candidate claiming more moves than allowed.
#[derive(Clone, Copy, Debug)]
pub struct CompiledSet<const N: usize> {
    /// The candidates, `ANCHOR_FILES` per pattern at most, flattened in group order.
    candidates: [[Candidate; ANCHOR_FILES]; N],
    /// Group (tempo, row, file) is `candidates[bounds[tempo][row][file]..][..bounds[tempo]
    /// [row][file + 1]]` of the flattened array.
    bounds: [[[u16; ANCHOR_FILES + 1]; MAX_HEIGHT]; 2],
    /// Patterns compiled (mirror images counted).
    len: usize,
    /// The fewest moves claimed by an attacker-first and a defender-first pattern (255 if
    /// none): below them the rule cannot fire, whatever the board.
    fewest: [u8; 2],
}

impl<const N: usize> CompiledSet<N> {
    /// Compiles `patterns` and their mirror images (a symmetric pattern once). Needs
    /// `N >= 2 * patterns.len()`; extra patterns beyond `N` (or beyond 256) are left out.
    pub const fn new(patterns: &[Pattern]) -> CompiledSet<N> {
        let mut compiled = [Compiled::EMPTY; N];
        let mut len = 0;
        let mut fewest = [u8::MAX; 2];
        let mut i = 0;
        while i < patterns.len() {
            let pattern = patterns[i];
            let mirror = pattern.mirrored();
            let mut side = 0;
            while side < 2 {
                let take = if side == 0 { pattern } else { mirror };
                let one = Compiled::new(&take);
                // A pattern without an attacker pawn (anchor row MAX_HEIGHT) could never
                // match; a symmetric pattern is taken once.
                let fresh = side == 0 || !same(&pattern, &mirror);
                if fresh
                    && len < N
                    && len <= u8::MAX as usize
                    && (one.nearest as usize) < MAX_HEIGHT
                {
                    compiled[len] = one;
                    len += 1;
                    let tempo = take.tempo() as usize;
                    if take.moves() < fewest[tempo] {
                        fewest[tempo] = take.moves();
                    }
                }
                side += 1;
            }
            i += 1;
        }
        let mut out = CompiledSet {
            candidates: [[Candidate::NONE; ANCHOR_FILES]; N],
            bounds: [[[0; ANCHOR_FILES + 1]; MAX_HEIGHT]; 2],
            len,
            fewest,
        };
        let mut next = 0usize;
        let mut tempo = 0;
        while tempo < 2 {
            let mut row = 0;
            while row < MAX_HEIGHT {
                let mut file = 0;
                while file < ANCHOR_FILES {
                    out.bounds[tempo][row][file] = next as u16;
                    let mut moves = 1;
                    while moves <= super::MAX_MOVES {
                        let mut k = 0;
                        while k < len {
                            let c = &compiled[k];
                            if c.tempo as usize == tempo
                                && c.nearest as usize == row
                                && c.moves == moves
                            {
                                // file - anchor + MAX_WIDTH - 1 lies in 0..FILES.
                                let slot = file + MAX_WIDTH - 1 - c.anchor as usize;
                                let p = c.placements[slot];
                                if p.attackers != NEVER.attackers {
                                    out.candidates[next / ANCHOR_FILES][next % ANCHOR_FILES] =
                                        Candidate {
                                            attackers: p.attackers as u32,
                                            no_defender: p.no_defender as u32,
                                            on_board: p.on_board as u32,
                                            moves: moves as u32,
                                        };
                                    next += 1;
                                }
                            }
                            k += 1;
                        }
                        moves += 1;
                    }
                    file += 1;
                }
                out.bounds[tempo][row][ANCHOR_FILES] = next as u16;
                row += 1;
            }
            tempo += 1;
        }
        out
    }

    /// Patterns compiled (mirror images counted).
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Whether the set is empty.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `attacker` matches a pattern with this `tempo` and at most `moves` moves.
    #[inline]
    pub fn matches(&self, position: &Position, attacker: Color, tempo: Tempo, moves: u32) -> bool {
        self.matches_in(&Frame::new(position, attacker), tempo, moves)
    }

    /// Whether the board matches a pattern with this `tempo` and at most `moves` moves:
    /// on each row from the attacker's most advanced pawn up to the deepest anchor, each
    /// pawn of that row is tried as the anchor of the candidates anchored there.
    #[inline]
    fn matches_in(&self, frame: &Frame, tempo: Tempo, moves: u32) -> bool {
        let candidates = self.candidates.as_flattened();
        let bounds = &self.bounds[tempo as usize];
        // `nearest` is 64 for a side without pawns: no row to try.
        let mut row = frame.nearest as usize;
        while row < MAX_HEIGHT {
            let mut anchors = (frame.attackers >> (8 * row)) & 0xFF;
            while anchors != 0 {
                let file = anchors.trailing_zeros() as usize;
                anchors &= anchors - 1;
                let group =
                    &candidates[usize::from(bounds[row][file])..usize::from(bounds[row][file + 1])];
                for candidate in group {
                    if candidate.moves > moves {
                        break;
                    }
                    if candidate.matches(frame) {
                        return true;
                    }
                }
            }
            row += 1;
        }
        false
    }

    /// The two-sided rule of the parent module: `Some(true)` if the side to move wins,
    /// `Some(false)` if it loses, `None` if no pattern decides. A position where someone
    /// has arrived gets `None` (every claim needs a distance of 2 or more).
    pub fn value(&self, position: &Position) -> Option<bool> {
        let side = position.side_to_move();
        let us = Frame::new(position, side);
        let them = Frame::new(position, side.other());
        // No pawn at all reads as distance 64 through `trailing_zeros`: such a side has
        // lost (or, as an attacker, matches nothing), so treat it as decided elsewhere.
        if us.attackers == 0 || them.attackers == 0 {
            return None;
        }
        let fewest = |tempo: Tempo| u32::from(self.fewest[tempo as usize]);
        // An attacker-first claim of n moves needs distance(them) >= n.
        if them.nearest >= fewest(Tempo::AttackerFirst)
            && us.nearest <= MAX_HEIGHT as u32
            && self.matches_in(&us, Tempo::AttackerFirst, them.nearest)
        {
            return Some(true);
        }
        // A defender-first claim of n moves by them needs distance(us) >= n + 1.
        if us.nearest > fewest(Tempo::DefenderFirst)
            && them.nearest <= MAX_HEIGHT as u32
            && self.matches_in(&them, Tempo::DefenderFirst, us.nearest - 1)
        {
            return Some(false);
        }
        None
    }
}

const fn same(a: &Pattern, b: &Pattern) -> bool {
    let mut row = 0;
    while row < a.height() {
        let mut column = 0;
        while column < a.width() {
            let (Some(x), Some(y)) = (a.cell(row, column), b.cell(row, column)) else {
                return false;
            };
            if x as u8 != y as u8 {
                return false;
            }
            column += 1;
        }
        row += 1;
    }
    true
}

/// Room for the shipped set and its mirror images.
const SHIPPED_CAPACITY: usize = 2 * PATTERNS.len();

/// The shipped patterns ([`PATTERNS`]) compiled, with their mirror images.
pub static SHIPPED: CompiledSet<SHIPPED_CAPACITY> = CompiledSet::new(&PATTERNS);

/// The two-sided rule with the shipped patterns (see [`CompiledSet::value`]).
#[inline]
pub fn race_value(position: &Position) -> Option<bool> {
    SHIPPED.value(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(text: &str) -> Position {
        text.parse().unwrap()
    }

    /// The obvious matcher: every placement, cell by cell, straight from Table 2.
    fn slow_matches(pattern: &Pattern, position: &Position, attacker: Color) -> bool {
        let size = position.size();
        let (columns, rows) = (i32::from(size.columns()), i32::from(size.rows()));
        (1 - pattern.width() as i32..columns).any(|left| {
            (0..pattern.height()).all(|row| {
                (0..pattern.width()).all(|column| {
                    let cell = pattern.cell(row, column).unwrap();
                    let file = left + column as i32;
                    let rank = match attacker {
                        Color::White => rows - 1 - row as i32,
                        Color::Black => row as i32,
                    };
                    if file < 0 || file >= columns {
                        return cell.admits_wall();
                    }
                    let bit = 1u64 << (rank * 8 + file);
                    if position.pawns(attacker) & bit != 0 {
                        true
                    } else if position.pawns(attacker.other()) & bit != 0 {
                        cell.admits_defender()
                    } else {
                        cell.admits_empty()
                    }
                })
            })
        })
    }

    #[test]
    fn masks_agree_with_the_cell_by_cell_rules() {
        use rand_core::{Rng, SeedableRng};
        let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(7);
        let mut hits = 0;
        for (columns, rows) in [(2u8, 4u8), (3, 7), (4, 5), (5, 5), (6, 5), (8, 8)] {
            let size = crate::breakthrough::Size::new_checked(columns, rows).unwrap();
            let board = size.board_mask();
            for _ in 0..3000 {
                // Sparse random pawns, so that patterns have a chance to match.
                let white = rng.next_u64() & rng.next_u64() & board;
                let black = rng.next_u64() & rng.next_u64() & board & !white;
                let Ok(p) = Position::from_bitboards(size, white, black, Color::White) else {
                    continue;
                };
                for pattern in PATTERNS.iter().flat_map(|p| [*p, p.mirrored()]) {
                    let set = CompiledSet::<1>::new(&[pattern]);
                    for attacker in [Color::White, Color::Black] {
                        let fast =
                            set.matches(&p, attacker, pattern.tempo(), u32::from(pattern.moves()));
                        let slow = slow_matches(&pattern, &p, attacker);
                        assert_eq!(fast, slow, "{pattern} {attacker:?} on {p}");
                        hits += u32::from(fast);
                    }
                }
            }
        }
        assert!(hits > 100, "only {hits} matches: the test says little");
    }

    #[test]
    fn distances() {
        let p = position("B..../...../..W../...../..... b");
        assert_eq!(Frame::new(&p, Color::White).nearest, 2);
        assert_eq!(Frame::new(&p, Color::Black).nearest, 4);
    }

    #[test]
    fn decides_a_race() {
        // Black to move; White's runner on c3 (two ranks out) has nothing in front of it,
        // and Black's pawns are all three ranks from rank 1: Black loses.
        let p = position("...../B...B/..W../...../..... b");
        assert_eq!(race_value(&p), Some(false));
        // With a black pawn two ranks from rank 1 the race is not decided statically.
        let p = position("...../B...B/B.W../...../..... b");
        assert_eq!(race_value(&p), None);
    }
}
