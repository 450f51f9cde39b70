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
