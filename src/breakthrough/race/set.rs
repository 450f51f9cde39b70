//! The shipped race patterns, for the attacker moving up the page: the first row is the
//! attacker's goal rank. Symbols: `A` attacker pawn, `.` free, `p` passive, `x` crossable,
//! `?` don't care (see the parent module). Mirror images are added when compiling, and
//! Black's patterns are these flipped, so each shape is written once.
//!
//! Every pattern here is proved by the checker in the tests (`prove::tests`).

use super::{Pattern, Tempo};

/// Compile-time parsing: a malformed entry stops the build.
const fn race(moves: u8, tempo: Tempo, rows: &str) -> Pattern {
    match Pattern::new(moves, tempo, rows) {
        Ok(pattern) => pattern,
        Err(_) => panic!("malformed race pattern"),
    }
}

use Tempo::{AttackerFirst as A, DefenderFirst as D};

/// The shipped set: seeds written by hand, then widened cell by cell with the checker
/// (`prove::generalize`) and copied here; each is proved again by the tests.
pub const PATTERNS: [Pattern; 18] = [
    // Two moves, the defender first: a runner two ranks out whose step cannot be stopped.
    // Straight ahead, no defender on the three goal cells above nor beside the runner.
    race(2, D, "ppp/ppp/?A?"),
    // Diagonally: the step cell is free, the goal cells that attack it hold no defender.
    race(2, D, "?p?p/p?.?/?A??"),
    race(2, D, "?p?p/p?p?/?A?x"),
    race(2, D, "??p?p/?p?p?/??A?x"),
    race(2, D, "??p?p/?p?px/??A??"),
    // Two runners side by side or one apart: the defender cannot cover both.
    race(2, D, "?p?p/??p?/?AA?"),
    race(2, D, "?p?p/p???/?AA?"),
    race(2, D, "?p?p?/?????/?A?A?"),
    // Three moves, the attacker first: a runner two ranks out with room to side-step.
    race(3, A, "p?p/?px/?A?"),
    race(3, A, "??p?p/????x/??A??"),
    race(3, A, "??p?p/?????/??A?x"),
    // Two runners.
    race(3, A, "???p/??p?/?AA?"),
    race(3, A, "???p?/?????/?A?A?"),
    // A runner three ranks out on an open file.
    race(3, A, "p?p/?p?/?Ax/???"),
    race(3, A, "ppp/ppp/?p?/?A?"),
    race(3, A, "?p?p/p?p?/?p??/?A?x"),
    // Three moves, the defender first: runners three or two ranks out.
    race(3, D, "??ppp/?pppp/?ppp?/??A?x"),
    race(3, D, "??ppp/?pppp/???p?/?A?A?"),
];

/// The harvesting tool, run by hand: `cargo test --lib harvest -- --ignored --nocapture`.
/// It plays random games on 5x5 and 6x5; where the distances allow a claim but no shipped
/// pattern matches, it cuts the window around each attacker pawn two ranks from its goal
/// (5 columns, 3 rows; walls past the edges become `p`, attacker pawns `A`, empty cells
/// `.`, defender pawns `x`), keeps the windows the checker proves, widens them and prints
/// the distinct results with how often they were found. (Tried: the 20 distinct patterns
/// it found three times or more, not covered by the set, changed df-pn's expansions by
/// -5% on 5x5, +11% on 4x5 and +7% on 3x7, so they are not shipped.)
#[cfg(test)]
mod harvest {
    use super::super::{MAX_WIDTH, Pattern, SHIPPED, Tempo, generalize, prove};
    use crate::breakthrough::{Bitboard, Color, MoveList, Position, Size};
    use rand_core::{Rng, SeedableRng};
    use std::collections::HashMap;
    use std::string::String;

    fn window(position: &Position, attacker: Color, file: i32, height: usize) -> String {
        let size = position.size();
        let rows = i32::from(size.rows());
        let mut text = String::new();
        for row in 0..height as i32 {
            if row > 0 {
                text.push('/');
            }
            for column in 0..MAX_WIDTH as i32 {
                let f = file - 2 + column;
                let rank = match attacker {
                    Color::White => rows - 1 - row,
                    Color::Black => row,
                };
                text.push(if f < 0 || f >= i32::from(size.columns()) {
                    'p'
                } else {
                    let bit = 1u64 << (rank * 8 + f);
                    if position.pawns(attacker) & bit != 0 {
                        'A'
                    } else if position.pawns(attacker.other()) & bit != 0 {
                        'x'
                    } else {
                        '.'
                    }
                });
            }
        }
        text
    }

    #[test]
    #[ignore = "a tool: prints harvested patterns"]
    fn harvest() {
        let mut rng = rand_xorshift::XorShiftRng::seed_from_u64(5);
        let mut found: HashMap<std::string::String, u32> = HashMap::new();
        let mut tried: HashMap<std::string::String, bool> = HashMap::new();
        for (columns, rows) in [(5u8, 5u8), (6, 5)] {
            for _ in 0..15000 {
                let mut position = Position::start(Size::new_checked(columns, rows).unwrap());
                while !position.is_over() {
                    let side = position.side_to_move();
                    let near = |c: Color| {
                        let p = position.pawns(c);
                        match c {
                            Color::White => u32::from(rows) - 1 - (63 - p.leading_zeros()) / 8,
                            Color::Black => p.trailing_zeros() / 8,
                        }
                    };
                    let claims = [
                        (side, Tempo::AttackerFirst, 3u8, near(side.other()) >= 3),
                        (side.other(), Tempo::DefenderFirst, 2u8, near(side) >= 3),
                    ];
                    for (attacker, tempo, moves, allowed) in claims {
                        if !allowed || SHIPPED.matches(&position, attacker, tempo, moves.into()) {
                            continue;
                        }
                        let two_out = match attacker {
                            Color::White => Bitboard::rank(rows - 3).bits(),
                            Color::Black => Bitboard::rank(2).bits(),
                        };
                        let mut runners = position.pawns(attacker) & two_out;
                        while runners != 0 {
                            let file = (runners.trailing_zeros() % 8) as i32;
                            runners &= runners - 1;
                            let text = window(&position, attacker, file, 3);
                            let key = std::format!("{moves}{tempo:?}{text}");
                            let proved = *tried.entry(key).or_insert_with(|| {
                                Pattern::new(moves, tempo, &text).is_ok_and(|p| {
                                    prove(&p).is_ok() && prove(&p.mirrored()).is_ok()
                                })
                            });
                            if proved {
                                let p = Pattern::new(moves, tempo, &text).unwrap();
                                let wide = generalize(&p);
                                *found.entry(std::format!("{wide}")).or_default() += 1;
                            }
                        }
                    }
                    let mut moves = MoveList::new();
                    position.legal_moves(&mut moves);
                    position.play(moves[rng.next_u32() as usize % moves.len()]);
                }
            }
        }
        let mut list: std::vec::Vec<_> = found.into_iter().collect();
        list.sort_by_key(|entry| core::cmp::Reverse(entry.1));
        std::println!("tried {} windows", tried.len());
        for (pattern, count) in list {
            std::println!("{count:6} {pattern}");
        }
    }
}
