//! The proof tool: checks a pattern's claim by exhaustive search of its restricted game
//! (see the parent module for the game and why a proof makes the pattern sound).
//!
//! The cells of a pattern are numbered `row * width + column` in a `u32` per content
//! (attacker pawns, defender pawns, walls). Every start is enumerated: each way the side
//! edges can cut the pattern, then each admitted content of each remaining cell. The search
//! from a start is a plain AND/OR search of at most `2 * moves` plies, which for claims of
//! up to three moves and patterns of a dozen cells runs in well under a second.

use super::{Cell, Pattern, Tempo};

/// A start of the restricted game where the claim fails, as bit sets over the pattern's
/// cells (`row * width + column`, row 0 on the goal rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// Cells holding attacker pawns.
    pub attackers: u32,
    /// Cells holding defender pawns.
    pub defenders: u32,
    /// Cells off the board.
    pub walls: u32,
}

/// The fixed frame of one search: the pattern's size, its walls, and which sides let
/// defender pawns in.
#[derive(Clone, Copy)]
struct Frame {
    width: u32,
    height: u32,
    walls: u32,
    /// Cells where a defender pawn may arrive from outside: the outer columns, rows 1 and
    /// below, on the sides that are not walls.
    entries: u32,
}

/// Proves `pattern`'s claim, or returns a start where it fails.
pub fn prove(pattern: &Pattern) -> Result<(), Counterexample> {
    let width = pattern.width();
    // `left` wall columns at the left end and `right` at the right end; at least one
    // column stays on the board.
    for left in 0..width {
        for right in 0..width - left {
            if !walls_admitted(pattern, left, right) {
                continue;
            }
            let frame = frame(pattern, left, right);
            check_contents(pattern, &frame)?;
        }
    }
    Ok(())
}

/// Whether every cell of the first `left` and last `right` columns admits a wall.
fn walls_admitted(pattern: &Pattern, left: usize, right: usize) -> bool {
    let width = pattern.width();
    (0..pattern.height()).all(|row| {
        (0..width)
            .filter(|&column| column < left || column >= width - right)
            .all(|column| pattern.cell(row, column).is_some_and(Cell::admits_wall))
    })
}

fn frame(pattern: &Pattern, left: usize, right: usize) -> Frame {
    let (width, height) = (pattern.width() as u32, pattern.height() as u32);
    let mut walls = 0u32;
    let mut entries = 0u32;
    for row in 0..height {
        for column in 0..width {
            let bit = 1u32 << (row * width + column);
            if (column as usize) < left || column as usize >= width as usize - right {
                walls |= bit;
            }
            let open_left = column == 0 && left == 0;
            let open_right = column == width - 1 && right == 0;
            if row > 0 && (open_left || open_right) {
                entries |= bit;
            }
        }
    }
    Frame {
        width,
        height,
        walls,
        entries: entries & !walls,
    }
}

/// Every content of the on-board cells that the types admit, each searched.
fn check_contents(pattern: &Pattern, frame: &Frame) -> Result<(), Counterexample> {
    // The choices of each cell: 0 attacker, 1 empty, 2 defender; a mixed-radix counter
    // walks all their combinations.
    let mut choices = [[0u8; 3]; super::MAX_CELLS];
    let mut counts = [0u8; super::MAX_CELLS];
    let cells = (frame.width * frame.height) as usize;
    for (index, (options, count)) in choices.iter_mut().zip(&mut counts).enumerate() {
        if index >= cells || frame.walls & (1 << index) != 0 {
            continue;
        }
        let row = index / frame.width as usize;
        let column = index % frame.width as usize;
        let Some(cell) = pattern.cell(row, column) else {
            continue;
        };
        // An attacker pawn on the goal rank means the game is over: not a start.
        if row > 0 {
            options[*count as usize] = 0;
            *count += 1;
        }
        if cell.admits_empty() {
            options[*count as usize] = 1;
            *count += 1;
        }
        if cell.admits_defender() {
            options[*count as usize] = 2;
            *count += 1;
        }
        if *count == 0 {
            return Ok(()); // only an attacker pawn on the goal rank: no start at all
        }
    }
    let mut digits = [0u8; super::MAX_CELLS];
    loop {
        let (mut attackers, mut defenders) = (0u32, 0u32);
        for index in 0..cells {
            if counts[index] == 0 {
                continue;
            }
            match choices[index][digits[index] as usize] {
                0 => attackers |= 1 << index,
                2 => defenders |= 1 << index,
                _ => {}
            }
        }
        let holds = match pattern.tempo() {
            Tempo::AttackerFirst => attacker_arrives(frame, attackers, defenders, pattern.moves()),
            Tempo::DefenderFirst => defence_fails(frame, attackers, defenders, pattern.moves()),
        };
        if !holds {
            return Err(Counterexample {
                attackers,
                defenders,
                walls: frame.walls,
            });
        }
        // Next combination.
        let mut index = 0;
        loop {
            if index == cells {
                return Ok(());
            }
            if counts[index] > 1 {
                digits[index] += 1;
                if digits[index] < counts[index] {
                    break;
                }
                digits[index] = 0;
            }
            index += 1;
        }
    }
}

/// The attacker to move reaches row 0 within `moves` moves against every defence.
fn attacker_arrives(frame: &Frame, attackers: u32, defenders: u32, moves: u8) -> bool {
    let width = frame.width;
    let mut pawns = attackers;
    while pawns != 0 {
        let from = pawns.trailing_zeros();
        pawns &= pawns - 1;
        let (row, column) = (from / width, from % width);
        if row == 0 {
            continue;
        }
        for step in [-1i32, 0, 1] {
            let to_column = column as i32 + step;
            if to_column < 0 || to_column >= width as i32 {
                continue;
            }
            let to = 1u32 << ((row - 1) * width + to_column as u32);
            // Never onto a wall or an own pawn; straight only onto an empty cell.
            if to & (frame.walls | attackers) != 0 || (step == 0 && to & defenders != 0) {
                continue;
            }
            if row == 1 {
                return true;
            }
            if moves > 1
                && defence_fails(
                    frame,
                    (attackers & !(1 << from)) | to,
                    defenders & !to,
                    moves - 1,
                )
            {
                return true;
            }
        }
    }
    false
}

/// Whatever the defender (to move) does, the attacker then arrives within `moves` moves.
fn defence_fails(frame: &Frame, attackers: u32, defenders: u32, moves: u8) -> bool {
    // A pass: a move elsewhere on the board.
    if !attacker_arrives(frame, attackers, defenders, moves) {
        return false;
    }
    let (width, height) = (frame.width, frame.height);
    let mut pawns = defenders;
    while pawns != 0 {
        let from = pawns.trailing_zeros();
        pawns &= pawns - 1;
        let (row, column) = (from / width, from % width);
        let rest = defenders & !(1 << from);
        let mut left_the_pattern = false;
        for step in [-1i32, 0, 1] {
            let to_column = column as i32 + step;
            if row + 1 >= height || to_column < 0 || to_column >= width as i32 {
                // Out of the pattern (one such move is enough: the pawn is forgotten).
                if !left_the_pattern {
                    left_the_pattern = true;
                    if !attacker_arrives(frame, attackers, rest, moves) {
                        return false;
                    }
                }
                continue;
            }
            let to = 1u32 << ((row + 1) * width + to_column as u32);
            if to & (frame.walls | defenders) != 0 || (step == 0 && to & attackers != 0) {
                continue;
            }
            if !attacker_arrives(frame, attackers & !to, rest | to, moves) {
                return false;
            }
        }
    }
    // A pawn from outside, diagonally onto an outer column.
    let mut entries = frame.entries & !defenders;
    while entries != 0 {
        let to = entries & entries.wrapping_neg();
        entries &= entries - 1;
        if !attacker_arrives(frame, attackers & !to, defenders | to, moves) {
            return false;
        }
    }
    true
}

/// Widens `pattern` cell by cell while the claim stays proved: free to passive or
/// crossable, passive and crossable to don't care, scanning until nothing more widens.
/// The result matches wherever `pattern` does (and more), so a proved seed only gains.
/// Returns `pattern` itself if it is not proved.
pub fn generalize(pattern: &Pattern) -> Pattern {
    let mut best = *pattern;
    if prove(&best).is_err() {
        return best;
    }
    let mut changed = true;
    while changed {
        changed = false;
        for row in 0..best.height() {
            for column in 0..best.width() {
                let wider: &[Cell] = match best.cell(row, column) {
                    Some(Cell::Free) => &[Cell::Passive, Cell::Crossable],
                    Some(Cell::Passive | Cell::Crossable) => &[Cell::DontCare],
                    _ => &[],
                };
                for &cell in wider {
                    let candidate = best.with_cell(row, column, cell);
                    if prove(&candidate).is_ok() && prove(&candidate.mirrored()).is_ok() {
                        best = candidate;
                        changed = true;
                        break;
                    }
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(moves: u8, tempo: Tempo, rows: &str) -> Pattern {
        Pattern::new(moves, tempo, rows).unwrap()
    }

    #[test]
    fn every_shipped_pattern_is_proved() {
        for (index, p) in super::super::PATTERNS.iter().enumerate() {
            assert_eq!(prove(p), Ok(()), "pattern {index}: {p:?}");
            assert_eq!(prove(&p.mirrored()), Ok(()), "mirror of pattern {index}");
        }
    }

    #[test]
    fn rejects_wrong_patterns() {
        // A runner two ranks out, the defender to move: a defender pawn that may stand on a
        // goal-rank corner (don't care) captures the runner after its first step, or
        // blocks it.
        let wrong = pattern(2, Tempo::DefenderFirst, "?p?/.../?A?");
        assert!(prove(&wrong).is_err());
        // The right version: no defender on the goal rank around it.
        assert_eq!(
            prove(&pattern(2, Tempo::DefenderFirst, "ppp/.../?A?")),
            Ok(())
        );
        // Too narrow: a defender pawn from outside the pattern attacks the runner's step.
        let wrong = pattern(2, Tempo::DefenderFirst, "p/./A");
        let counter = prove(&wrong).unwrap_err();
        assert_eq!(counter.walls, 0);
        // One move fewer than needed.
        assert!(prove(&pattern(1, Tempo::AttackerFirst, "ppp/.../?A?")).is_err());
        // A runner one step out whose defender may stand diagonally in front of it.
        assert!(prove(&pattern(1, Tempo::DefenderFirst, "x?p/?A?")).is_err());
    }

    #[test]
    fn walls_only_where_admitted() {
        // At the right board edge the passive column is a wall, and a runner on the edge
        // file still arrives; with a don't-care goal-rank corner a defender may capture it.
        assert_eq!(prove(&pattern(1, Tempo::DefenderFirst, "ppp/.Ap")), Ok(()));
        assert!(prove(&pattern(1, Tempo::DefenderFirst, "pp?/.Ap")).is_err());
        // A free cell never lies off the board: that start is not checked, so the runner
        // next to a free column is proved even though a wall would have changed nothing.
        assert_eq!(prove(&pattern(1, Tempo::DefenderFirst, "ppp/.A.")), Ok(()));
    }
}

/// The generalization tool, run by hand: `cargo test --lib widen_seeds -- --ignored
/// --nocapture` prints each seed widened; the results were copied into `set.rs`.
#[cfg(test)]
mod tool {
    use super::*;

    #[test]
    #[ignore = "a tool: prints widened patterns"]
    fn widen_seeds() {
        let seeds: &[(u8, Tempo, &str)] = &[
            (2, Tempo::DefenderFirst, "ppp/.../?A?"),
            (2, Tempo::DefenderFirst, "ppppp/..x../??A??"),
            (2, Tempo::DefenderFirst, "pppp/..../?AA?"),
            (2, Tempo::DefenderFirst, "pppp/..../.A.."),
            (2, Tempo::DefenderFirst, "ppppp/...../..A.."),
            (2, Tempo::DefenderFirst, "ppppp/.x.../..A.."),
            (2, Tempo::DefenderFirst, "ppppp/..x../.A.A."),
            (2, Tempo::DefenderFirst, "pppp/.xx./.AA."),
            (3, Tempo::AttackerFirst, "ppp/.../?A?"),
            (3, Tempo::AttackerFirst, "ppppp/..x../??A??"),
            (3, Tempo::AttackerFirst, "ppp/.../.A./???"),
            (3, Tempo::AttackerFirst, "ppp/.../.../.A."),
            (3, Tempo::AttackerFirst, "pppp/..../..../.A.."),
            (3, Tempo::AttackerFirst, "ppppp/...../...../..A.."),
            (3, Tempo::AttackerFirst, "pppp/..../.AA."),
            (3, Tempo::AttackerFirst, "pppp/.x../.AA."),
            (3, Tempo::AttackerFirst, "ppppp/..x../.A.A."),
            (3, Tempo::AttackerFirst, "ppppp/.xxx./..A.."),
            (3, Tempo::AttackerFirst, "ppp/.../.../?A?"),
            (3, Tempo::DefenderFirst, "ppppp/...../...../..A.."),
            (3, Tempo::DefenderFirst, "ppppp/...../...../.A.A."),
            (3, Tempo::DefenderFirst, "ppppp/...../..A../....."),
            (3, Tempo::DefenderFirst, "ppppp/...../.A.A./....."),
        ];
        for &(moves, tempo, rows) in seeds {
            let seed = Pattern::new(moves, tempo, rows).unwrap();
            let proved = prove(&seed).is_ok() && prove(&seed.mirrored()).is_ok();
            std::println!("{seed}  proved {proved}  widened {}", generalize(&seed));
        }
    }
}
