//! Match-3, the game of the procedural-personas paper (Mugrai et al., sections III–IV):
//! a fast forward model on bitboards, level files, and the Random, Vanilla MCTS and persona
//! agents. No allocation anywhere; the MCTS tree lives in caller storage.
//!
//! - [`Board`]: one `u64` per colour; lines, groups and legal swaps by shifts and masks.
//! - [`Match3`]: a game on a [`Level`]: swaps, cascades with growing multipliers, refills
//!   from the level's fall lists then a seeded stream, deterministic reshuffles, metrics.
//! - [`Level`]: the text format, with three bundled presets ([`PRESETS`]).
//! - [`Program`]: persona formulas as validated bytecode, with text and binary forms.
//! - [`Agent`], [`choose`], [`play_game`]: the agents.
//! - [`Persona`]: persona files (goal and formula), and the four bundled ones ([`shipped`]).
//! - [`playtest`]: the six agents of the paper's Table II on a level, as a [`Report`].
//!
//! Scoring: a group of k cells (lines of one colour sharing a cell: an L, T or cross) scores
//! k × (20 + 10·(k − 3)), times the multiplier, which is 1 for the move's own match and
//! grows by 1 for each cascade step. Power-ups are not implemented (the paper leaves them
//! out); [`Rules::power_ups`] reserves the option.
//!
//! ```
//! use arbor::match3::{Level, Match3, Swap};
//!
//! let level = Level::parse("size 3x3\ncolours 3\ngrid\nABC\nBAA\nCBC\n").unwrap();
//! let mut game = Match3::start(&level);
//! // Swapping b3 and b2 makes no line: illegal, and nothing changes.
//! assert!(game.try_play(Swap::parse("b3-b2").unwrap()).is_err());
//! // Swapping a3 and a2 brings the A down next to the two A of row 2.
//! let outcome = game.try_play(Swap::parse("a3-a2").unwrap()).unwrap();
//! assert!(outcome.points >= 60);
//! ```

mod agent;
mod board;
mod formula;
mod game;
mod level;
mod op;
mod persona;
mod playtest;
mod policy;
mod registers;

#[cfg(test)]
mod tests;

pub use agent::{
    Agent, AgentProgress, Goal, PAPER_ITERATIONS, SearchConfig, Searched, Storage, choose,
    choose_until, nodes_for, nodes_for_level, paper_config, play_game, random_move, search_move,
    search_move_until, states_for,
};
pub use board::{
    Board, MAX_COLOURS, MAX_SIDE, MIN_COLOURS, MIN_SIDE, Swap, group_points, parse_cell,
};
pub use formula::{FORMULA_VERSION, FormulaError, MAX_ENCODED_LEN, Program};
pub use game::{MAX_MOVES, Match3, Metrics, Moves, Outcome, Rules};
pub(crate) use level::LEVEL_BYTES;
pub use level::{DEFAULT_COLOURS, DEFAULT_MOVES, Level, LevelError, MAX_FALL, PRESETS, preset};
pub use op::{MAX_INSTRUCTIONS, Op, protected_div, protected_sqrt};
pub use persona::{
    PERSONA_GOALS, PERSONA_VERSION, Persona, PersonaError, PersonaProblem, SHIPPED_PERSONAS,
    shipped,
};
pub use playtest::{
    AgentSummary, PlaytestAgent, PlaytestRun, Report, game_seeds, playtest, playtest_game,
    playtest_nodes,
};
pub use policy::{FORMULA_LANES, Formula, FormulaPolicy};
