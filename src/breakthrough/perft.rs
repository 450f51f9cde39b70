//! Perft: counting the positions reached after exactly `d` plies, the standard check that
//! move generation follows the rules.

use core::ops::AddAssign;

use super::rules::{self, Geometry, Targets};
use super::{Color, Move, MoveList, Position};

/// What [`Position::perft_stats`] counts at the last ply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PerftStats {
    /// Positions reached after exactly `depth` plies (games that ended earlier stop there).
    pub nodes: u64,
    /// How many of the last-ply moves captured.
    pub captures: u64,
    /// How many of the positions reached are won by the side that just moved.
    pub ended: u64,
}

impl AddAssign for PerftStats {
    fn add_assign(&mut self, other: PerftStats) {
        self.nodes += other.nodes;
        self.captures += other.captures;
        self.ended += other.ended;
    }
}

impl Position {
    /// The number of positions reached after exactly `depth` plies. A game that ends is not
    /// continued: it counts at the ply where it ended and at no later one. `perft(0)` is 1.
    pub fn perft(&self, depth: u32) -> u64 {
        self.perft_with::<false>(depth).nodes
    }

    /// [`perft`](Self::perft) with the captures and won games among the last ply's moves,
    /// as published perft tables list them.
    pub fn perft_stats(&self, depth: u32) -> PerftStats {
        self.perft_with::<true>(depth)
    }

    /// Calls `each` with every legal move and the perft of depth `depth - 1` below it (the
    /// "divide" that locates a wrong count). Nothing is called at depth 0.
    pub fn perft_divide(&self, depth: u32, mut each: impl FnMut(Move, u64)) {
        if depth == 0 {
            return;
        }
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        for &mv in &moves {
            let mut child = *self;
            child.play(mv);
            each(mv, child.perft(depth - 1));
        }
    }

    fn perft_with<const STATS: bool>(&self, depth: u32) -> PerftStats {
        let mut stats = PerftStats::default();
        if depth == 0 {
            stats.nodes = 1;
            stats.ended = u64::from(self.is_over());
        } else if !self.is_over() {
            let (own, opp) = self.sides();
            let geometry = Geometry::new(self.size());
            count::<STATS>(self.side_to_move(), own, opp, &geometry, depth, &mut stats);
        }
        stats
    }
}

/// Adds the perft of `depth >= 1` below an ongoing position to `out`. The last ply is counted
/// in bulk from the destination sets, without playing its moves.
fn count<const STATS: bool>(
    side: Color,
    own: u64,
    opp: u64,
    geometry: &Geometry,
    depth: u32,
    out: &mut PerftStats,
) {
    let targets = Targets::new(side, own, opp, geometry.board);
    let goal = geometry.goal[side.index()];
    let [straight, left, right] = targets.sets;
    if depth <= 1 {
        out.nodes += u64::from(targets.count());
        if STATS {
            out.captures += u64::from((left & opp).count_ones() + (right & opp).count_ones());
            // A move wins if it reaches the goal or takes the last enemy pawn.
            let last = if opp.count_ones() == 1 { opp } else { 0 };
            let wins = (straight & goal).count_ones()
                + (left & (goal | last)).count_ones()
                + (right & (goal | last)).count_ones();
            out.ended += u64::from(wins);
        }
        return;
    }
    for (dir, &set) in targets.sets.iter().enumerate() {
        let mut rest = set;
        while rest != 0 {
            let to = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let (mut mine, mut theirs) = (own, opp);
            let won = rules::apply(
                &mut mine,
                &mut theirs,
                rules::source(side, dir, to),
                to,
                goal,
            );
            if !won {
                count::<STATS>(side.other(), theirs, mine, geometry, depth - 1, out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::breakthrough::Size;

    fn start(columns: u8, rows: u8) -> Position {
        Position::start(Size::new_checked(columns, rows).unwrap())
    }

    /// Reference perft counts from the start (computed by two independent generators that
    /// agree): size, then perft(1), perft(2), …
    const PERFT: &[(u8, u8, &[u64])] = &[
        (4, 5, &[10, 90, 848, 7794, 75378, 705244]),
        (5, 5, &[13, 156, 1924, 23084, 289828, 3538840]),
        (6, 5, &[16, 240, 3666, 54448, 839494, 12626046]),
        (8, 8, &[22, 484, 11132, 256036, 6182818]),
    ];

    /// Counts too slow for debug builds: size, depth, nodes.
    const PERFT_DEEP: &[(u8, u8, u32, u64)] = &[
        (4, 5, 7, 6571132),
        (5, 5, 7, 43719470),
        (6, 5, 7, 193407966),
        (8, 8, 6, 149264638),
    ];

    /// Ended games at ply d: size, depth, count.
    const ENDED: &[(u8, u8, u32, u64)] = &[
        (4, 5, 5, 1750),
        (4, 5, 6, 19516),
        (5, 5, 5, 4628),
        (5, 5, 6, 65752),
        (6, 5, 5, 9702),
        (6, 5, 6, 166608),
        (8, 8, 5, 0),
    ];

    /// Captures among the ply-d moves: size, depth, count.
    const CAPTURES: &[(u8, u8, u32, u64)] = &[
        (5, 5, 2, 22),
        (5, 5, 3, 398),
        (5, 5, 4, 6162),
        (5, 5, 5, 83192),
        (5, 5, 6, 1131028),
        (8, 8, 5, 934),
    ];

    #[test]
    fn perft_from_the_start_matches_the_reference() {
        for &(columns, rows, counts) in PERFT {
            let p = start(columns, rows);
            assert_eq!(p.perft(0), 1);
            for (d, &expected) in counts.iter().enumerate() {
                let depth = d as u32 + 1;
                assert_eq!(p.perft(depth), expected, "{columns}x{rows} depth {depth}");
            }
        }
    }

    #[test]
    fn ended_games_and_captures_match_the_reference() {
        for &(columns, rows, depth, expected) in ENDED {
            let stats = start(columns, rows).perft_stats(depth);
            assert_eq!(stats.ended, expected, "{columns}x{rows} depth {depth}");
        }
        for &(columns, rows, depth, expected) in CAPTURES {
            let stats = start(columns, rows).perft_stats(depth);
            assert_eq!(stats.captures, expected, "{columns}x{rows} depth {depth}");
        }
        // 8x8: nobody can win before ply 11.
        assert_eq!(start(8, 8).perft_stats(4).ended, 0);
    }

    #[test]
    fn deep_perft_matches_the_reference() {
        for &(columns, rows, depth, expected) in PERFT_DEEP {
            assert_eq!(
                start(columns, rows).perft(depth),
                expected,
                "{columns}x{rows} {depth}"
            );
        }
        assert_eq!(start(4, 5).perft_stats(7).ended, 329376);
    }

    /// Perft by the public API only (legal_moves, play, status), without bulk counting.
    fn perft_by_playing(p: &Position, depth: u32) -> PerftStats {
        let mut stats = PerftStats::default();
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        for &mv in &moves {
            let mut child = *p;
            child.play(mv);
            assert_eq!(child.hash(), child.hash_from_scratch());
            if depth == 1 {
                stats.nodes += 1;
                stats.captures += u64::from(mv.is_capture());
                stats.ended += u64::from(child.is_over());
            } else if !child.is_over() {
                stats += perft_by_playing(&child, depth - 1);
            }
        }
        stats
    }

    #[test]
    fn bulk_counting_agrees_with_playing_every_move() {
        for (columns, rows, depth) in [(2, 4, 6), (3, 6, 5), (4, 5, 5), (7, 4, 4), (8, 6, 3)] {
            let p = start(columns, rows);
            assert_eq!(
                p.perft_stats(depth),
                perft_by_playing(&p, depth),
                "{columns}x{rows}"
            );
        }
        let p: Position = "..B./B.../.W../W... b".parse().unwrap();
        for depth in 1..=4 {
            assert_eq!(p.perft_stats(depth), perft_by_playing(&p, depth));
        }
    }

    #[test]
    fn divide_sums_to_perft() {
        let p = start(6, 5);
        let mut total = 0;
        let mut moves = 0;
        p.perft_divide(3, |_, n| {
            total += n;
            moves += 1;
        });
        assert_eq!((moves, total), (16, 3666));
    }

    #[test]
    fn ended_games_are_not_continued() {
        // Black has just won: nothing below.
        let p: Position = "..../..../..../B... w".parse().unwrap();
        assert_eq!(p.perft(0), 1);
        assert_eq!(p.perft_stats(0).ended, 1);
        assert_eq!(p.perft(1), 0);
        assert_eq!(p.perft(3), 0);
        // White wins at once by b3-b4, b3-c4 or b3xa4 (the goal rank and the last black
        // pawn at once), or plays on with a1-a2 or a1-b2.
        let p: Position = "B.../.W../..../W... w".parse().unwrap();
        let stats = p.perft_stats(1);
        assert_eq!((stats.nodes, stats.captures, stats.ended), (5, 1, 3));
    }
}
