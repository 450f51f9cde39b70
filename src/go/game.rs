//! A real game of Go: a [`Board`] with the history of its positions for positional superko,
//! and the search core's [`Game`] interface on it.
//!
//! Moves chosen by the tree (from [`Game::legal_moves`]) obey positional superko; playout
//! moves ([`Game::play_random_move`]) are the light policy's, under simple ko only, as the
//! fast engines do.

use core::fmt;

use rand_xorshift::XorShiftRng;

use super::Color;
use super::board::{Board, MAX_POINTS, Move, PlayError, Point, SetupError};
use super::sgf::{GameRecord, SgfMove};
use super::vertex::GoMove;
use crate::search::{Game, MoveIndex, Ply, Turn};

/// The longest game: `3 * 19 * 19` turns, the game-length cap of the largest board.
pub const MAX_GAME_TURNS: usize = 3 * MAX_POINTS;

/// A game of Go from its start: the board and the hash of every position so far.
#[derive(Clone, Debug)]
pub struct GoGame {
    board: Board,
    /// Position hashes (stones only), the start included: one more than the turns played.
    history: heapless::Vec<u64, { MAX_GAME_TURNS + 1 }>,
}

impl GoGame {
    /// A new game on an empty `size` x `size` board (5 to 19), Black to move, komi 7.5.
    pub fn new(size: u8) -> Result<GoGame, SetupError> {
        Ok(GoGame::from_board(Board::new(size)?))
    }

    /// A game that starts from `board` (a set-up position): its history begins there.
    pub fn from_board(board: Board) -> GoGame {
        let mut history = heapless::Vec::new();
        let _ = history.push(board.position_hash());
        GoGame { board, history }
    }

    /// The board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Sets the komi (finite, within ±1000); unchanged on error.
    pub fn set_komi(&mut self, komi: f32) -> Result<(), SetupError> {
        self.board.set_komi(komi)
    }

    /// Whether the player to move may play `mv` under positional superko; the reason if not.
    /// A stone after two passes is checked as the game resumed ([`resumes`]). Changes nothing.
    pub fn check(&self, mv: Move) -> Result<(), PlayError> {
        check_with_history(&self.board, &self.history, mv)
    }

    /// Plays `mv` for the player to move, or refuses it (occupied, suicide, ko, superko, off
    /// the board, game over) and changes nothing. A stone after two passes resumes the game
    /// ([`resumes`]).
    pub fn try_play(&mut self, mv: Move) -> Result<(), PlayError> {
        self.check(mv)?;
        if resumes(&self.board, mv) {
            self.board.resume();
        }
        self.record(mv);
        Ok(())
    }

    /// The game a record holds: its size, komi and setup stones, then its main line played
    /// move by move under positional superko. A move recorded out of turn (a handicap game
    /// starting with White, a record with two moves of one colour) gives the turn to its
    /// colour first, as SGF readers do. The first stone or move that cannot be placed is
    /// reported with its place in the record.
    pub fn from_record(record: &GameRecord) -> Result<GoGame, RecordError> {
        let mut game = GoGame::from_board(record_start(record)?);
        for (index, played) in record.moves.iter().enumerate() {
            recorded_move(&game.board, played)
                .and_then(|mv| {
                    game.board.set_to_move(played.color);
                    game.try_play(mv)
                })
                .map_err(|error| RecordError::Move { index, error })?;
        }
        Ok(game)
    }

    /// Lets a playout policy play one move straight on the board (simple ko, as playouts
    /// use) and records the position it reached; returns the move `play` made.
    pub(crate) fn play_on_board(&mut self, play: impl FnOnce(&mut Board) -> Move) -> Move {
        let mv = play(&mut self.board);
        let _ = self.history.push(self.board.position_hash());
        mv
    }

    /// Plays `mv` (checked by the board for simple ko only) and records the position.
    fn record(&mut self, mv: Move) {
        self.board.play_unchecked(mv);
        // The history holds one entry per turn up to the cap, which ends the game.
        let _ = self.history.push(self.board.position_hash());
    }
}

/// Why a [`GameRecord`] cannot be replayed ([`GoGame::from_record`],
/// [`Player::load_record`](super::player::Player::load_record)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The size or komi (index 0), or the setup stone at `index` (Black's first).
    Setup { index: usize, error: SetupError },
    /// The move at `index` (from 0) is not legal where it is played.
    Move { index: usize, error: PlayError },
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Setup { error, .. }
                if matches!(error, SetupError::Size | SetupError::Komi) =>
            {
                write!(f, "{error}")
            }
            RecordError::Setup { index, error } => write!(f, "setup stone {}: {error}", index + 1),
            RecordError::Move { index, error } => write!(f, "move {}: {error}", index + 1),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for RecordError {}

/// Whether playing `mv` on `board` resumes a finished game: the one rule of a real game
/// (GTP, the C ABI, SGF records) for a move after two passes. A stone played after two
/// passes in a row resumes the game (the count of passes is cleared, as
/// [`Board::resume`] does, and the stone is then checked as usual), as GTP GUIs and GNU Go's
/// cleanup phase expect; a third pass is refused, and a game at the length cap
/// ([`Board::max_turns`]) stays over. Playouts and the search tree never resume: for them
/// two passes end the game.
pub fn resumes(board: &Board, mv: Move) -> bool {
    matches!(mv, Move::Play(_)) && board.passes() >= 2 && board.turns() < board.max_turns()
}

/// Whether the player to move on `board` may play `mv` in a real game whose positions so
/// far (stone hashes) are `history`: legal under simple ko, and not a repeat of a position
/// of `history` (positional superko); a stone after two passes is checked as the game
/// resumed ([`resumes`]). The reason if not.
pub(crate) fn check_with_history(
    board: &Board,
    history: &[u64],
    mv: Move,
) -> Result<(), PlayError> {
    let resumed;
    let board = if resumes(board, mv) {
        // A copy (8.7 KB) only for the rare stone after two passes.
        let mut copy = board.clone();
        copy.resume();
        resumed = copy;
        &resumed
    } else {
        board
    };
    board.check(mv)?;
    if let Move::Play(point) = mv {
        if history.contains(&board.position_hash_after(point)) {
            return Err(PlayError::Superko);
        }
    }
    Ok(())
}

/// The board a record starts from: its size, komi and setup stones (Black's first).
pub fn record_start(record: &GameRecord) -> Result<Board, RecordError> {
    let setup = |index| move |error| RecordError::Setup { index, error };
    let mut board = Board::new(record.size).map_err(setup(0))?;
    board.set_komi(record.komi).map_err(setup(0))?;
    for (index, (color, vertex)) in record.setup_stones().enumerate() {
        board
            .point(vertex.col, vertex.row)
            .ok_or(SetupError::OffBoard)
            .and_then(|point| board.set_stone(point, color))
            .map_err(setup(index))?;
    }
    Ok(board)
}

/// The move a record's `played` is on `board`.
pub(crate) fn recorded_move(board: &Board, played: &SgfMove) -> Result<Move, PlayError> {
    match played.mv {
        GoMove::Pass => Ok(Move::Pass),
        GoMove::Play(vertex) => board
            .point(vertex.col, vertex.row)
            .map(Move::Play)
            .ok_or(PlayError::OffBoard),
    }
}

/// Every point and a pass: the move list of a Go state.
pub type GoMoves = heapless::Vec<Move, { MAX_POINTS + 1 }>;

/// Whose turn it is on `board`: the player to move, or the end.
#[inline]
pub(crate) fn turn_on(board: &Board) -> Turn {
    if board.is_over() {
        Turn::Over
    } else {
        Turn::Player(board.to_move().index() as u8)
    }
}

/// Lists the empty points of `board` that `keep` accepts, in increasing point order, then the
/// pass; nothing once the game is over. The move list of every Go state the search sees.
pub(crate) fn list_moves(board: &Board, moves: &mut GoMoves, keep: impl Fn(Point) -> bool) {
    moves.clear();
    if board.is_over() {
        return;
    }
    let mut points = [Move::Pass; MAX_POINTS];
    let mut count = 0;
    for point in board.empty_points() {
        if keep(point) {
            points[count] = Move::Play(point);
            count += 1;
        }
    }
    let listed = &mut points[..count];
    listed.sort_unstable_by_key(|mv| match mv {
        Move::Play(p) => p.index(),
        Move::Pass => usize::MAX,
    });
    // At most every point and the pass: the capacity.
    let _ = moves.extend_from_slice(listed);
    let _ = moves.push(Move::Pass);
}

/// The area score of `board` as it stands (every stone alive) against the komi: 1 for the
/// side ahead, 0 for the other, 0.5 each for a draw (an integral komi).
pub(crate) fn area_returns(board: &Board) -> [f32; 2] {
    match board.score().winner() {
        Some(Color::Black) => [1.0, 0.0],
        Some(Color::White) => [0.0, 1.0],
        None => [0.5, 0.5],
    }
}

impl Game for GoGame {
    type Move = Move;
    type Moves = GoMoves;
    /// The longest game.
    type Trace = heapless::Vec<Ply<Move>, MAX_GAME_TURNS>;

    #[inline]
    fn turn(&self) -> Turn {
        turn_on(&self.board)
    }

    /// The points where a stone is legal under positional superko, in increasing point
    /// order, then the pass. Empty once the game is over.
    fn legal_moves(&self, moves: &mut Self::Moves) {
        list_moves(&self.board, moves, |point| {
            self.check(Move::Play(point)).is_ok()
        });
    }

    /// Plays `mv` if it is legal under superko; anything else is ignored.
    fn play(&mut self, mv: Move) {
        let _ = self.try_play(mv);
    }

    /// The area score of the position as it stands against the komi: 1 for the side ahead,
    /// 0 for the other, 0.5 each for a draw (an integral komi).
    fn returns(&self) -> [f32; 2] {
        area_returns(&self.board)
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.board.hash()
    }

    /// The light playout move (uniform over legal points that do not fill the mover's own
    /// eye, simple ko, a pass when nothing else is playable), drawn straight from the board.
    /// Not a uniform pick over `legal_moves`: playouts follow the light policy by design.
    fn play_random_move(&mut self, rng: &mut XorShiftRng) -> Option<Move> {
        if self.board.is_over() {
            return None;
        }
        let mv = self.board.play_light_move(rng);
        let _ = self.history.push(self.board.position_hash());
        Some(mv)
    }

    /// Moves are deterministic: the same moves always reach the same state.
    fn replays_exactly(&self) -> bool {
        true
    }
}

impl MoveIndex for GoGame {
    /// A point's index in the padded array (below 421), the pass at 0 (a border cell).
    const MOVE_SPACE: usize = super::board::CELLS;
    type PlayerMoveTable = [u8; 2 * super::board::CELLS];

    #[inline]
    fn move_index(mv: Move) -> usize {
        match mv {
            Move::Pass => 0,
            Move::Play(point) => point.index(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mcts::{Config, Mcts, Node, Rave, seeded_rng};

    /// White to move can capture four black stones at C3 (two strings with one liberty each);
    /// MCTS with RAVE over the game's moves, playing light playouts, finds it.
    #[test]
    fn mcts_with_light_playouts_finds_a_big_capture() {
        let mut board = super::super::diagram::parse(
            "   A B C D E
              5 . . O . .
              4 . O X O .
              3 O X . X O
              2 . O X O .
              1 . . O . .",
        )
        .unwrap();
        board.set_to_move(Color::White);
        let game = GoGame::from_board(board);
        let mut nodes = vec![Node::default(); 200_000];
        let mut tree = Mcts::new(&mut nodes);
        let found = tree
            .search(
                &game,
                &Rave::default(),
                &(),
                &Config::default(),
                20_000,
                &mut seeded_rng(3),
            )
            .unwrap();
        let c3 = game.board().point(2, 2).unwrap();
        assert_eq!(found.best, Some(Move::Play(c3)));
    }

    #[test]
    fn a_record_replays_its_setup_and_moves_and_names_the_first_bad_move() {
        let text = b"(;FF[4]SZ[9]KM[6.5]AB[aa][ba]AW[ca][ab];W[bb];B[ee];W[tt];B[ba])";
        let record = GameRecord::parse_sgf(text).unwrap();
        let game = GoGame::from_record(&record).unwrap();
        let board = game.board();
        let color = |col, row| board.color_at(board.point(col, row).unwrap());
        assert_eq!(board.komi(), 6.5);
        // White moved first (out of turn) and B8 took A9 and B9; Black then played B9 again.
        assert_eq!(color(0, 8), None);
        assert_eq!(color(1, 8), Some(Color::Black));
        assert_eq!(color(1, 7), Some(Color::White));
        assert_eq!(color(4, 4), Some(Color::Black));
        assert_eq!(board.to_move(), Color::White);
        assert_eq!(game.history.len(), 5);

        let occupied = GameRecord::parse_sgf(b"(;SZ[9];B[ee];W[ee])").unwrap();
        assert_eq!(
            GoGame::from_record(&occupied).unwrap_err(),
            RecordError::Move {
                index: 1,
                error: PlayError::Occupied
            }
        );
        // A stone after two passes resumes the game; a third pass does not.
        let resumed = GameRecord::parse_sgf(b"(;SZ[9];B[];W[];B[ee])").unwrap();
        let game = GoGame::from_record(&resumed).unwrap();
        assert!(!game.board().is_over());
        assert_eq!(game.board().passes(), 0);
        let third_pass = GameRecord::parse_sgf(b"(;SZ[9];B[];W[];B[])").unwrap();
        assert_eq!(
            GoGame::from_record(&third_pass).unwrap_err().to_string(),
            "move 3: the game is over"
        );
        let dead_setup = GameRecord::parse_sgf(b"(;SZ[9]AB[aa]AW[ba][ab])").unwrap();
        assert_eq!(
            GoGame::from_record(&dead_setup).unwrap_err(),
            RecordError::Setup {
                index: 2,
                error: SetupError::NoLiberties
            }
        );
    }

    #[test]
    fn a_stone_resumes_a_game_two_passes_ended_but_not_a_game_at_the_length_cap() {
        let mut game = GoGame::new(5).unwrap();
        game.try_play(Move::Pass).unwrap();
        game.try_play(Move::Pass).unwrap();
        assert!(game.board().is_over());
        assert_eq!(game.check(Move::Pass), Err(PlayError::GameOver));
        let c3 = Move::Play(game.board().point(2, 2).unwrap());
        assert!(resumes(game.board(), c3));
        assert_eq!(game.check(c3), Ok(()));
        game.try_play(c3).unwrap();
        assert!(!game.board().is_over());
        assert_eq!(game.board().passes(), 0);
        assert_eq!(game.board().to_move(), Color::White);
        // The same stone again: occupied, whatever the passes.
        assert_eq!(game.check(c3), Err(PlayError::Occupied));

        // A game at the length cap stays over, passes or not.
        let mut board = Board::new(5).unwrap();
        let mut rng = seeded_rng(1);
        while board.turns() < board.max_turns() {
            if board.passes() >= 2 {
                board.resume();
            }
            board.play_light_move(&mut rng);
        }
        let capped = GoGame::from_board(board);
        let empty = Move::Play(capped.board().empty_points().next().unwrap());
        assert!(!resumes(capped.board(), empty));
        assert_eq!(capped.check(empty), Err(PlayError::GameOver));
    }

    #[test]
    fn legal_moves_are_the_empty_points_and_the_pass_in_order() {
        let game = GoGame::new(5).unwrap();
        let mut moves = <GoGame as Game>::Moves::default();
        game.legal_moves(&mut moves);
        assert_eq!(moves.len(), 26);
        assert_eq!(moves[25], Move::Pass);
        assert!(
            moves[..25]
                .windows(2)
                .all(|w| GoGame::move_index(w[0]) < GoGame::move_index(w[1]))
        );
        assert!(
            moves
                .iter()
                .all(|&mv| GoGame::move_index(mv) < GoGame::MOVE_SPACE)
        );
    }
}
