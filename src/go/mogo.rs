//! MoGo's sequence-like playout policy (Wang and Gelly 2007; Gelly and Silver's MoGo with the
//! expert knowledge of Chaslot et al., Algorithms 1-4), as the MoGo implementation notes
//! (section 3) read it. For the player to move `me`, with `last` the opponent's last move (the
//! local rules are skipped after a pass), the move is the first rule that gives a candidate:
//!
//! 1. **save atari**: a string of `me` next to `last` in atari: its liberty when that gives it
//!    2 liberties or more, or the liberty of an opponent string in atari that touches it;
//! 2. **nakade**: an empty neighbour of `last` in an eye space of exactly 3 points bordered by
//!    the opponent only: its centre (the vital point of a straight or bent three);
//! 3. **fill board**: up to `fill_board_tries` random points of the board; the first empty one
//!    whose 8 neighbours are empty points is played;
//! 4. **patterns**: the empty points among the 8 around `last` where a MoGo 3x3 pattern
//!    matches; one is drawn, and when it is a self-atari, with probability
//!    `approach_probability` the **approach move** replaces it: the one liberty the string
//!    would keep (the connecting or outside-liberty move), when that is no self-atari itself;
//! 5. **capture**: the liberty of an opponent string in atari anywhere on the board;
//! 6. **random**: the light rule ([`Board::play_light_move`]): uniform over legal points that do
//!    not fill an own eye; a pass when there is none.
//!
//! Every rule draws uniformly among its candidates. Every candidate must be legal under simple
//! ko and must not fill the mover's own eye (the light playout's eye rule), so a pass is played
//! only when nothing else is playable.
//!
//! The hot path reads only the board's incremental strings and the cells around `last`; the
//! capture rule is the only one that walks the board, and only when the local rules found
//! nothing.
//!
//! ```
//! use arbor::go::{Board, MogoConfig, MogoPolicy, mogo_playout};
//! use arbor::search::game::seeded_rng;
//!
//! let policy = MogoPolicy::new(MogoConfig::default());
//! let playout = mogo_playout(&Board::new(9).unwrap(), &policy, &mut seeded_rng(1));
//! assert!(playout.stones_placed > 40);
//! ```

use rand_core::Rng;
use rand_xorshift::XorShiftRng;

use super::Color;
use super::board::{Board, EMPTY, Move, Point};
use super::game::GoGame;
use super::patterns::is_mogo_pattern;
use super::playout::Playout;
use super::tactics::{self, Candidates};
use crate::search::game::{Knowledge, random_index};

/// Which rules of the MoGo policy are on, and their parameters. [`Default`] is the paper's
/// full policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MogoConfig {
    /// Rule 1, save atari.
    pub save_atari: bool,
    /// Rule 2, nakade.
    pub nakade: bool,
    /// Rule 3, fill board.
    pub fill_board: bool,
    /// Random points fill board draws per move (0 turns the rule off too).
    pub fill_board_tries: u8,
    /// Rule 4, the 3x3 patterns around the last move.
    pub patterns: bool,
    /// The approach-move refinement of the pattern rule (3.6).
    pub approach: bool,
    /// The chance that a self-atari pattern move is replaced by its approach move.
    pub approach_probability: f32,
    /// Rule 5, capture anywhere.
    pub capture: bool,
}

impl MogoConfig {
    /// The default number of fill-board tries.
    ///
    /// The paper gives none; the notes read 1 to 10 on 9x9. A try costs one random draw and
    /// a look at 9 cells, far less than a move, so the cost does not decide it. What does is
    /// the rule's reach: on an empty 9x9 board 49 of the 81 points qualify, and the rule
    /// should stop firing once the board is broken up rather than crowd out the patterns. With
    /// 4 tries it fires nearly always while a quarter of the points still qualify
    /// (1 - 0.75^4 = 68%) and rarely once a tenth do (34%), which spreads the first stones
    /// over the board in the opening and leaves the middle game to the local rules. Untuned
    /// (no strength matches were run for this choice).
    pub const DEFAULT_FILL_BOARD_TRIES: u8 = 4;

    /// Every rule off: the light policy.
    pub const LIGHT: MogoConfig = MogoConfig {
        save_atari: false,
        nakade: false,
        fill_board: false,
        fill_board_tries: 0,
        patterns: false,
        approach: false,
        approach_probability: 0.0,
        capture: false,
    };
}

impl Default for MogoConfig {
    /// The full policy: every rule on, [`MogoConfig::DEFAULT_FILL_BOARD_TRIES`] fill-board
    /// tries, approach moves half of the time (the paper's 1/2).
    fn default() -> Self {
        MogoConfig {
            save_atari: true,
            nakade: true,
            fill_board: true,
            fill_board_tries: MogoConfig::DEFAULT_FILL_BOARD_TRIES,
            patterns: true,
            approach: true,
            approach_probability: 0.5,
            capture: true,
        }
    }
}

/// The rule that chose a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    SaveAtari,
    Nakade,
    FillBoard,
    Pattern,
    /// A self-atari pattern move replaced by its approach move.
    Approach,
    Capture,
    Random,
    /// The random rule found nothing.
    Pass,
}

/// The MoGo playout policy for a [`MogoConfig`]. See the module text.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MogoPolicy {
    config: MogoConfig,
    /// `approach_probability` as a threshold for a 32-bit draw (2^32 is always).
    approach_threshold: u64,
}

impl Default for MogoPolicy {
    fn default() -> Self {
        MogoPolicy::new(MogoConfig::default())
    }
}

impl MogoPolicy {
    /// The policy for `config`. A probability outside [0, 1] is clamped, NaN is 0.
    pub fn new(config: MogoConfig) -> Self {
        let p = if config.approach_probability.is_nan() {
            0.0
        } else {
            config.approach_probability.clamp(0.0, 1.0)
        };
        MogoPolicy {
            config,
            approach_threshold: (f64::from(p) * 4_294_967_296.0) as u64,
        }
    }

    /// The configuration.
    pub fn config(&self) -> &MogoConfig {
        &self.config
    }

    /// Plays the policy's move for the player to move and returns it. A board whose game is
    /// over is left as it is (and a pass returned).
    #[inline]
    pub fn play(&self, board: &mut Board, rng: &mut XorShiftRng) -> Move {
        self.play_traced(board, rng).0
    }

    /// [`MogoPolicy::play`] that also tells which rule chose the move.
    pub fn play_traced(&self, board: &mut Board, rng: &mut XorShiftRng) -> (Move, Rule) {
        if board.is_over() {
            return (Move::Pass, Rule::Pass);
        }
        if let Some((p, rule)) = self.rule_move(board, rng) {
            // Every candidate is an empty point of the board, legal under simple ko.
            let mv = Move::Play(point_of(p));
            board.play_unchecked(mv);
            return (mv, rule);
        }
        match board.play_light_move(rng) {
            Move::Pass => (Move::Pass, Rule::Pass),
            mv => (mv, Rule::Random),
        }
    }

    /// The move of the first rule (1-5) that has a candidate, as a padded-array index.
    #[inline]
    fn rule_move(&self, board: &Board, rng: &mut XorShiftRng) -> Option<(usize, Rule)> {
        let c = &self.config;
        let me = board.to_move();
        let ko = board.ko_index();
        // Empty, legal under simple ko, and not an own eye.
        let playable = |p: usize| {
            board.cell(p) == EMPTY
                && p != ko
                && !board.is_own_eye(p, me)
                && board.is_legal_at(p, me)
        };
        let last = match board.last_move() {
            Move::Play(point) if board.cell(point.index()) != EMPTY => Some(point.index()),
            _ => None,
        };

        if let (true, Some(last)) = (c.save_atari, last) {
            let mut found = Candidates::new();
            tactics::save_atari(board, last, me, &mut found);
            found.retain(playable);
            if let Some(p) = found.pick(rng) {
                return Some((p, Rule::SaveAtari));
            }
        }

        if let (true, Some(last)) = (c.nakade, last) {
            let mut found = Candidates::new();
            for x in tactics::around(board, last) {
                if board.cell(x) == EMPTY
                    && let Some(centre) = tactics::nakade_centre(board, x, me)
                {
                    found.push(centre);
                }
            }
            found.retain(playable);
            if let Some(p) = found.pick(rng) {
                return Some((p, Rule::Nakade));
            }
        }

        if c.fill_board {
            let size = usize::from(board.size());
            let points = size * size;
            for _ in 0..c.fill_board_tries {
                let i = random_index(rng, points);
                let Some(point) = board.point((i % size) as u8, (i / size) as u8) else {
                    continue;
                };
                let p = point.index();
                if tactics::is_empty_3x3(board, p) && p != ko {
                    return Some((p, Rule::FillBoard));
                }
            }
        }

        if let (true, Some(last)) = (c.patterns, last) {
            let mut found = Candidates::new();
            for q in tactics::window(board, last) {
                if board.cell(q) == EMPTY
                    && is_mogo_pattern(tactics::pattern_code(board, q, me))
                    && playable(q)
                {
                    found.push(q);
                }
            }
            if let Some(m) = found.pick(rng) {
                if c.approach
                    && let Some(a) = tactics::approach_move(board, m, me)
                    && playable(a)
                    && u64::from(rng.next_u32()) < self.approach_threshold
                {
                    return Some((a, Rule::Approach));
                }
                return Some((m, Rule::Pattern));
            }
        }

        if c.capture {
            let enemy = me.opponent();
            let (count, _) = tactics::count_captures(board, enemy, None, playable);
            if count > 0 {
                let k = random_index(rng, count);
                if let (_, Some(p)) = tactics::count_captures(board, enemy, Some(k), playable) {
                    return Some((p, Rule::Capture));
                }
            }
        }
        None
    }
}

/// The point of a padded-array index the board gave us.
#[inline(always)]
fn point_of(p: usize) -> Point {
    Board::point_at(p)
}

/// Plays a MoGo playout on a copy of `board` with `policy` and returns who won and how many
/// stones were placed, exactly as [`super::light_playout`] does for the light policy: until
/// two passes or the game-length cap, scored by stones plus empty points whose neighbours are
/// all one colour. A board whose game is over is scored as it stands.
pub fn mogo_playout(board: &Board, policy: &MogoPolicy, rng: &mut XorShiftRng) -> Playout {
    let mut board = board.clone();
    let mut stones_placed = 0;
    while !board.is_over() {
        if let Move::Play(_) = policy.play(&mut board, rng) {
            stones_placed += 1;
        }
    }
    let winner = if board.playout_score().margin() > 0.0 {
        Color::Black
    } else {
        Color::White
    };
    Playout {
        winner,
        stones_placed,
    }
}

/// MCTS playouts for Go with the MoGo policy: moves are played straight on the game's board
/// under simple ko (as the light playouts of [`GoGame`] are), with the position recorded.
impl Knowledge<GoGame> for MogoPolicy {
    fn playout_move(&self, state: &GoGame, moves: &[Move], rng: &mut XorShiftRng) -> usize {
        let mut board = state.board().clone();
        let mv = self.play(&mut board, rng);
        // A move the superko list refuses falls back to the pass, listed last.
        moves
            .iter()
            .position(|&m| m == mv)
            .unwrap_or(moves.len().saturating_sub(1))
    }

    fn play_playout_move(&self, state: &mut GoGame, rng: &mut XorShiftRng) -> Option<Move> {
        if state.board().is_over() {
            return None;
        }
        Some(state.play_on_board(|board| self.play(board, rng)))
    }
}
