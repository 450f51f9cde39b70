//! The Go search player: MCTS with RAVE on the search core, over a tree in caller storage,
//! with tree reuse between moves, resignation, and a final-position judgement from playout
//! ownership so that it does not pass into a loss. no_std and allocation-free: the caller
//! hands over the node storage and a stop (a deadline, a cancel flag, or none).
//!
//! # The game and the tree state
//!
//! [`Player`] keeps the real game: the board, the hash of every position for positional
//! superko, and the record of moves (with their colours, as GTP may play either colour) for
//! undo. The search does not run on [`super::GoGame`], which carries that history and would
//! copy 8.7 KB of hashes on every iteration; it runs on [`TreeState`], a board and a borrowed
//! slice of the real game's hashes. Tree moves are checked for positional superko against
//! the real game's positions (not against positions reached inside the tree: cycles below
//! the root are cut by simple ko only); playouts use simple ko, as the fast engines do.
//!
//! The tree does not list moves that fill one's own eye (the light playout's eye test): no
//! engine wants them, and late in a game they are the moves that kill one's own groups when
//! the search looks for anything but a pass.
//!
//! # Knowledge
//!
//! [`Player::genmove_with`] takes any [`Knowledge`] for [`TreeState`] (priors, playout
//! policy); [`Player::genmove`] uses the configuration's ([`GoKnowledge`]): light or MoGo
//! playouts ([`Playouts`]), and the [`GoPriors`] or none. [`PlayerConfig::mogo`] is MoGo's
//! player: MoGo playouts, the priors, and MoGo's score.

use rand_xorshift::XorShiftRng;

use super::Color;
use super::board::{Board, CELLS, Move, PlayError, Point, Score, SetupError};
use super::game::{
    GoMoves, MAX_GAME_TURNS, RecordError, area_returns, check_with_history, list_moves,
    record_start, recorded_move, resumes, turn_on,
};
use super::mogo::{MogoConfig, MogoPolicy};
use super::prior::GoPriors;
use super::sgf::{GameRecord, SgfMove};
use super::status::Statuses;
use super::vertex::{GoMove, Vertex};
use crate::Error;
use crate::search::game::PriorSink;
use crate::search::game::seeded_rng;
use crate::search::mcts::{
    Config, FinalMove, Mcts, MoGo, Node, PlayoutPolicy, Rave, RootSummary, Selection, Stop,
};
use crate::search::{Game, Knowledge, MoveIndex, Ply, Turn};

/// The default resignation threshold: resign when the best move wins less than this.
pub const DEFAULT_RESIGN: f32 = 0.1;
/// [`PlayerConfig::mogo`]'s expansion threshold, equivalent visits included: a move with the
/// even prior alone (14) is expanded after 6 real visits (Pachi expands after 8, Fuego after
/// 3), one with more knowledge sooner. Tuned against GNU Go level 10 on 9x9 at 3,000 playouts
/// a move (docs/go.md, "Tuning"): 20 won clearly more games than the first choice, 40.
pub const MOGO_EXPAND_THRESHOLD: u32 = 20;
/// [`PlayerConfig::mogo`]'s MoGo score, tuned against GNU Go level 10 on 9x9 (docs/go.md,
/// "Tuning"): c1 = 1/3000 (Pachi's RAVE equivalence on 9x9, against the search core's
/// untuned 0.01) and C = 0: the priors already enter as equivalent simulations, and the
/// C/ln(2+n) bonus on top cost strength at every budget measured (C = 1 outweighed real
/// results for thousands of visits; C = 0.1 still lost to C = 0 in self-play at 500 playouts
/// and against GNU Go at 3,000 and 10,000). `--mogo-c` sets it back; c2 = 1 untuned.
pub const MOGO_SCORE: MoGo = MoGo {
    c: 0.0,
    c1: 1.0 / 3000.0,
    c2: 1.0,
};
/// Light playouts for an ownership estimate (final score, dead stones, the pass judgement).
pub const DEFAULT_OWNERSHIP_PLAYOUTS: u32 = 400;

/// A position the search works on: a board and the real game's positions for superko.
#[derive(Clone, Debug)]
pub struct TreeState<'h> {
    board: Board,
    history: &'h [u64],
}

impl<'h> TreeState<'h> {
    /// The state of `board`, with `history` the stone hashes of the positions of the game
    /// so far (moves that repeat one are not listed).
    pub fn new(board: Board, history: &'h [u64]) -> TreeState<'h> {
        TreeState { board, history }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whether the tree lists `point` for the player to move: legal under simple ko, not a
    /// repeat of a position of the real game, not filling the mover's own eye.
    fn listed(&self, point: Point) -> bool {
        let board = &self.board;
        board.check(Move::Play(point)).is_ok()
            && !board.is_own_eye(point.index(), board.to_move())
            && !self.history.contains(&board.position_hash_after(point))
    }
}

impl Game for TreeState<'_> {
    type Move = Move;
    type Moves = GoMoves;
    /// The longest game.
    type Trace = heapless::Vec<Ply<Move>, MAX_GAME_TURNS>;

    #[inline]
    fn turn(&self) -> Turn {
        turn_on(&self.board)
    }

    /// The listed points (see [`TreeState`]) in increasing point order, then the pass.
    fn legal_moves(&self, moves: &mut Self::Moves) {
        list_moves(&self.board, moves, |point| self.listed(point));
    }

    fn play(&mut self, mv: Move) {
        self.board.play(mv);
    }

    /// The area score as it stands (every stone alive) against the komi.
    fn returns(&self) -> [f32; 2] {
        area_returns(&self.board)
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.board.hash()
    }

    /// The light playout move, under simple ko.
    fn play_random_move(&mut self, rng: &mut XorShiftRng) -> Option<Move> {
        if self.board.is_over() {
            return None;
        }
        Some(self.board.play_light_move(rng))
    }

    fn replays_exactly(&self) -> bool {
        true
    }
}

impl MoveIndex for TreeState<'_> {
    /// A point's index in the padded array, the pass at 0 (a border cell).
    const MOVE_SPACE: usize = CELLS;
    type PlayerMoveTable = [u8; 2 * CELLS];

    #[inline]
    fn move_index(mv: Move) -> usize {
        match mv {
            Move::Pass => 0,
            Move::Play(point) => point.index(),
        }
    }
}

/// MCTS playouts in the tree state with the MoGo policy, played straight on the board
/// under simple ko (as the light playouts are).
impl Knowledge<TreeState<'_>> for MogoPolicy {
    fn playout_move(&self, state: &TreeState<'_>, moves: &[Move], rng: &mut XorShiftRng) -> usize {
        let mut board = state.board.clone();
        let mv = self.play(&mut board, rng);
        // A move the tree does not list (a superko repeat) falls back to the pass, last.
        moves
            .iter()
            .position(|&m| m == mv)
            .unwrap_or(moves.len().saturating_sub(1))
    }

    fn play_playout_move(&self, state: &mut TreeState<'_>, rng: &mut XorShiftRng) -> Option<Move> {
        if state.board.is_over() {
            return None;
        }
        Some(self.play(&mut state.board, rng))
    }
}

/// The priors of [`GoPriors`] for the tree's listed moves; light playouts.
impl Knowledge<TreeState<'_>> for GoPriors {
    fn priors(&self, state: &TreeState<'_>, moves: &[Move], out: &mut impl PriorSink) {
        self.write(&state.board, moves, out);
    }

    fn weighs_priors(&self) -> bool {
        true
    }
}

/// The playout policy of the player's playouts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Playouts {
    /// Uniform over the points that do not fill one's own eye ([`Board::play_light_move`]).
    Light,
    /// MoGo's sequence-like policy ([`MogoPolicy`]).
    Mogo(MogoConfig),
}

/// The player's knowledge: its playout policy and its priors, from a [`PlayerConfig`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GoKnowledge {
    /// MoGo playouts, or light ones when `None`.
    pub mogo: Option<MogoPolicy>,
    /// The priors, or none.
    pub priors: Option<GoPriors>,
}

impl GoKnowledge {
    /// The knowledge `config` asks for.
    pub fn of(config: &PlayerConfig) -> GoKnowledge {
        GoKnowledge {
            mogo: match config.playouts {
                Playouts::Light => None,
                Playouts::Mogo(c) => Some(MogoPolicy::new(c)),
            },
            priors: config.priors,
        }
    }
}

impl Knowledge<TreeState<'_>> for GoKnowledge {
    fn priors(&self, state: &TreeState<'_>, moves: &[Move], out: &mut impl PriorSink) {
        if let Some(priors) = &self.priors {
            priors.write(&state.board, moves, out);
        }
    }

    fn weighs_priors(&self) -> bool {
        self.priors.is_some()
    }

    fn playout_move(&self, state: &TreeState<'_>, moves: &[Move], rng: &mut XorShiftRng) -> usize {
        match &self.mogo {
            Some(policy) => policy.playout_move(state, moves, rng),
            None => crate::search::game::random_index(rng, moves.len()),
        }
    }

    fn play_playout_move(&self, state: &mut TreeState<'_>, rng: &mut XorShiftRng) -> Option<Move> {
        match &self.mogo {
            Some(policy) => policy.play_playout_move(state, rng),
            None => state.play_random_move(rng),
        }
    }
}

/// How the player searches and when it gives up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerConfig {
    /// The selection score: UCT-RAVE (C and c1) or MoGo's score with H(d) and C / ln(2 + n).
    pub selection: Selection,
    /// The playout policy.
    pub playouts: Playouts,
    /// The priors of the tree's moves (H(d) and equivalent simulations), or none.
    pub priors: Option<GoPriors>,
    /// Visits a leaf needs before it is expanded (saves storage: a 9x9 expansion makes up
    /// to 82 nodes).
    pub expand_threshold: u32,
    /// Search threads (root parallelism; 1 keeps the tree between moves).
    pub threads: usize,
    /// Resign when the best move's win rate is below this (0 never resigns).
    pub resign: f32,
    /// Never resign before this many turns of the game.
    pub resign_after: u16,
    /// Light playouts for the ownership estimate.
    pub ownership_playouts: u32,
    /// The seed of the player's generator.
    pub seed: u64,
}

impl PlayerConfig {
    /// The defaults for a `size` board: RAVE with C = 0 and c1 = 0.01, light playouts, no
    /// priors, expansion after 2 visits, one thread, resignation below 10% after
    /// `size * size / 4` turns (20 on 9x9), 400 ownership playouts, seed 1.
    pub fn for_size(size: u8) -> PlayerConfig {
        PlayerConfig {
            selection: Selection::Rave(Rave::default()),
            playouts: Playouts::Light,
            priors: None,
            expand_threshold: 2,
            threads: 1,
            resign: DEFAULT_RESIGN,
            resign_after: u16::from(size) * u16::from(size) / 4,
            ownership_playouts: DEFAULT_OWNERSHIP_PLAYOUTS,
            seed: 1,
        }
    }

    /// [`PlayerConfig::for_size`] with MoGo's knowledge: MoGo playouts, the [`GoPriors`],
    /// and MoGo's score ([`MOGO_SCORE`]). The expansion threshold
    /// ([`MOGO_EXPAND_THRESHOLD`]) counts the priors' equivalent simulations too (the search
    /// core enters them as visits).
    pub fn mogo(size: u8) -> PlayerConfig {
        PlayerConfig {
            expand_threshold: MOGO_EXPAND_THRESHOLD,
            selection: Selection::MoGo(MOGO_SCORE),
            playouts: Playouts::Mogo(MogoConfig::default()),
            priors: Some(GoPriors::default()),
            ..PlayerConfig::for_size(size)
        }
    }

    fn search_config(&self) -> Config {
        Config {
            expand_threshold: self.expand_threshold,
            playout_cutoff: u32::MAX,
            playout: PlayoutPolicy::Game,
            final_move: FinalMove::MostVisited,
            // Go's terminal scores count every stone alive: proofs from them would be
            // proofs about a naive count, so the solver stays off.
            solver: false,
        }
    }
}

impl Default for PlayerConfig {
    fn default() -> Self {
        PlayerConfig::for_size(9)
    }
}

/// What [`Player::genmove`] decided.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// The move played, or `None` for a resignation (nothing is played).
    pub mv: Option<Move>,
    /// The search's win rate of its best move for the player who moved, in [0, 1].
    pub win_rate: f32,
    /// Iterations the search ran for this move.
    pub iterations: u32,
    /// Nodes in the tree after the search.
    pub nodes: u32,
    /// The search's own choice was replaced (a pass into a loss refused, or a pass taken
    /// because the position is won).
    pub judged: bool,
}

/// What [`Player::judge`] makes of a search: the move to play, or a resignation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The move to play (the search's own move when `resign` is set).
    pub mv: Move,
    /// The player should resign (and play nothing).
    pub resign: bool,
    /// The search's own move was replaced (a pass into a loss refused, or a pass taken
    /// because the position is won).
    pub judged: bool,
}

/// What one [`Player::search_with`] did and where the search stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Searched {
    /// The move the search would play now, its visits and win rate for the player to move,
    /// the root's visits.
    pub summary: RootSummary<Move>,
    /// Iterations of this call.
    pub iterations: u32,
    /// Nodes in the tree after it.
    pub nodes: u32,
    /// The storage was full: the tree stopped growing (the search went on refining it).
    pub storage_full: bool,
}

/// Who owns each point at the end of light playouts from a position.
#[derive(Clone, Debug)]
pub struct Ownership {
    /// Playouts in which Black owned the point (by index in the padded array).
    black: [u16; CELLS],
    /// Playouts in which White owned it.
    white: [u16; CELLS],
    playouts: u16,
}

impl Ownership {
    /// The share of playouts in which `color` owned `point`, in [0, 1].
    pub fn share(&self, point: Point, color: Color) -> f32 {
        if self.playouts == 0 {
            return 0.0;
        }
        let counts = match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        };
        let n = counts.get(point.index()).copied().unwrap_or(0);
        f32::from(n) / f32::from(self.playouts)
    }

    /// The colour that owns `point` in more than half of the playouts.
    pub fn owner(&self, point: Point) -> Option<Color> {
        if self.share(point, Color::Black) > 0.5 {
            Some(Color::Black)
        } else if self.share(point, Color::White) > 0.5 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The area score of `board` with every point given to its owner (a stone owned by the
    /// other colour is dead, a point owned by neither counts for no one).
    pub fn score(&self, board: &Board) -> Score {
        area_score(board, |point| self.owner(point))
    }

    /// Whether the stone on `point` of `board` is dead: its point is owned by the other
    /// colour. `false` for an empty point.
    pub fn is_dead(&self, board: &Board, point: Point) -> bool {
        match board.color_at(point) {
            Some(color) => self.owner(point) == Some(color.opponent()),
            None => false,
        }
    }
}

/// The area score of `board` with each point counted for `owner`'s colour (or for no one).
pub(crate) fn area_score(board: &Board, owner: impl Fn(Point) -> Option<Color>) -> Score {
    let (mut black, mut white) = (0u16, 0u16);
    for point in points(board) {
        match owner(point) {
            Some(Color::Black) => black += 1,
            Some(Color::White) => white += 1,
            None => {}
        }
    }
    Score {
        black,
        white,
        komi: board.komi(),
    }
}

/// Every point of `board`, row by row from A1.
pub fn points(board: &Board) -> impl Iterator<Item = Point> + '_ {
    let size = board.size();
    (0..size).flat_map(move |row| (0..size).filter_map(move |col| board.point(col, row)))
}

/// The owner of `point` on a board at the end of a light playout: the stone's colour, or
/// for an empty point the colour of all its neighbours on the board (none if mixed).
fn final_owner(board: &Board, point: Point) -> Option<Color> {
    if let Some(color) = board.color_at(point) {
        return Some(color);
    }
    let mut owner = None;
    for n in board.neighbours(point) {
        match (board.color_at(n), owner) {
            (None, _) => return None,
            (Some(color), None) => owner = Some(color),
            (Some(color), Some(seen)) if color != seen => return None,
            _ => {}
        }
    }
    owner
}

/// Estimates ownership with `playouts` light playouts from `board` (at most 65,535).
pub fn ownership(board: &Board, playouts: u32, rng: &mut XorShiftRng) -> Ownership {
    let playouts = playouts.min(u32::from(u16::MAX)) as u16;
    let mut own = Ownership {
        black: [0; CELLS],
        white: [0; CELLS],
        playouts,
    };
    for _ in 0..playouts {
        let mut end = board.clone();
        end.resume();
        while !end.is_over() {
            end.play_light_move(rng);
        }
        for point in points(&end) {
            let i = point.index();
            match final_owner(&end, point) {
                Some(Color::Black) => own.black[i] += 1,
                Some(Color::White) => own.white[i] += 1,
                None => {}
            }
        }
    }
    own
}

/// One move of the record: who played what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    pub color: Color,
    pub mv: Move,
}

/// A Go player: the game so far and a search tree in caller storage. See the module text.
pub struct Player<'s> {
    /// The position the game started from (an empty board with the komi).
    start: Board,
    board: Board,
    /// Stone hashes of every position so far, the start included.
    history: heapless::Vec<u64, { MAX_GAME_TURNS + 1 }>,
    record: heapless::Vec<Played, MAX_GAME_TURNS>,
    tree: Mcts<'s, Move>,
    rng: XorShiftRng,
    config: PlayerConfig,
}

impl<'s> Player<'s> {
    /// A player on an empty `size` board (5..=19), komi 7.5, searching in `storage`.
    pub fn new(
        storage: &'s mut [Node<Move>],
        size: u8,
        config: PlayerConfig,
    ) -> Result<Player<'s>, SetupError> {
        Ok(Player::with_start(storage, Board::new(size)?, config))
    }

    /// A player whose game starts from `board` (a set-up position: its stones, size, komi
    /// and player to move), searching in `storage`. Infallible: the board is already valid.
    pub fn with_start(
        storage: &'s mut [Node<Move>],
        board: Board,
        config: PlayerConfig,
    ) -> Player<'s> {
        let mut player = Player {
            start: board.clone(),
            board,
            history: heapless::Vec::new(),
            record: heapless::Vec::new(),
            tree: Mcts::new(storage),
            rng: seeded_rng(config.seed),
            config,
        };
        player.restart();
        player
    }

    /// The board as it stands.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The moves played so far.
    pub fn record(&self) -> &[Played] {
        &self.record
    }

    /// The settings.
    pub fn config(&self) -> &PlayerConfig {
        &self.config
    }

    /// Changes the settings (the generator is kept).
    pub fn set_config(&mut self, config: PlayerConfig) {
        self.config = config;
    }

    /// Nodes the tree uses now.
    pub fn tree_len(&self) -> u32 {
        self.tree.len()
    }

    /// Empties the board (same size and komi) and forgets the tree.
    pub fn clear(&mut self) {
        self.board = self.start.clone();
        self.restart();
    }

    fn restart(&mut self) {
        self.record.clear();
        self.history.clear();
        let _ = self.history.push(self.board.position_hash());
        self.tree.clear();
    }

    /// A new empty board of `size` (5..=19), keeping the komi; unchanged on error.
    pub fn set_size(&mut self, size: u8) -> Result<(), SetupError> {
        let mut board = Board::new(size)?;
        board.set_komi(self.start.komi())?;
        self.start = board.clone();
        self.board = board;
        self.restart();
        Ok(())
    }

    /// Sets the komi of the game (the moves are kept); unchanged on error.
    pub fn set_komi(&mut self, komi: f32) -> Result<(), SetupError> {
        self.start.set_komi(komi)?;
        self.board.set_komi(komi)?;
        // The tree's values were for the other komi.
        self.tree.clear();
        Ok(())
    }

    /// Starts the game again from `board` (a set-up position: its stones, size, komi and
    /// player to move), forgetting the moves and the tree; `undo` goes back to it.
    pub fn set_start(&mut self, board: Board) {
        self.start = board.clone();
        self.board = board;
        self.restart();
    }

    /// The position the game started from (an empty board, or the one of
    /// [`Player::set_start`]).
    pub fn start(&self) -> &Board {
        &self.start
    }

    /// The prisoners each colour has taken so far, Black's first: the opponent's stones
    /// placed (set up or played) that are no longer on the board.
    pub fn captures(&self) -> [u16; 2] {
        let mut placed = self.start.stone_counts();
        for played in &self.record {
            if let Move::Play(_) = played.mv {
                placed[played.color.index()] += 1;
            }
        }
        let now = self.board.stone_counts();
        [placed[1] - now[1], placed[0] - now[0]]
    }

    /// Replaces the game by the one of `record`: a board of its size and komi with its setup
    /// stones, then its moves, each checked as [`Player::play`] checks it (superko
    /// included). On error the player is unchanged and the error says which stone or move
    /// was refused.
    pub fn load_record(&mut self, record: &GameRecord) -> Result<(), RecordError> {
        let board = record_start(record)?;
        let mut loaded = Player {
            start: board.clone(),
            board,
            history: heapless::Vec::new(),
            record: heapless::Vec::new(),
            tree: Mcts::new(&mut []),
            rng: self.rng.clone(),
            config: self.config,
        };
        loaded.restart();
        for (index, played) in record.moves.iter().enumerate() {
            recorded_move(&loaded.board, played)
                .and_then(|mv| loaded.play(played.color, mv))
                .map_err(|error| RecordError::Move { index, error })?;
        }
        self.start = loaded.start;
        self.board = loaded.board;
        self.history = loaded.history;
        self.record = loaded.record;
        self.tree.clear();
        Ok(())
    }

    /// Writes the game into `record` (cleared first: its text properties end up empty): the
    /// size and komi, the stones of the start position as setup (row by row from A1), and
    /// the moves played.
    pub fn write_record(&self, record: &mut GameRecord) {
        let size = self.start.size();
        *record = GameRecord {
            size,
            komi: self.start.komi(),
            ..GameRecord::default()
        };
        let vertex = |point: Point| {
            self.start
                .coords(point)
                .and_then(|(col, row)| Vertex::on_board(col, row, size))
        };
        for point in points(&self.start) {
            let (Some(color), Some(v)) = (self.start.color_at(point), vertex(point)) else {
                continue;
            };
            // At most every point: the capacity.
            let _ = match color {
                Color::Black => record.black_setup.push(v),
                Color::White => record.white_setup.push(v),
            };
        }
        for played in &self.record {
            let mv = match played.mv {
                Move::Pass => Some(GoMove::Pass),
                Move::Play(point) => vertex(point).map(GoMove::Play),
            };
            if let Some(mv) = mv {
                // As many moves as the record holds: the capacity.
                let _ = record.moves.push(SgfMove {
                    color: played.color,
                    mv,
                });
            }
        }
    }

    /// The search tree.
    pub fn tree(&self) -> &Mcts<'s, Move> {
        &self.tree
    }

    /// Puts `tree` in place of the player's tree and returns the one it had: for a caller
    /// that keeps a tree apart between calls (a C handle) and re-attaches it after
    /// replaying the game.
    pub fn replace_tree(&mut self, tree: Mcts<'s, Move>) -> Mcts<'s, Move> {
        core::mem::replace(&mut self.tree, tree)
    }

    /// The player's generator (searches and ownership estimates draw from it).
    pub fn rng(&self) -> &XorShiftRng {
        &self.rng
    }

    /// Replaces the player's generator.
    pub fn set_rng(&mut self, rng: XorShiftRng) {
        self.rng = rng;
    }

    /// Whether `color` may play `mv` now (positional superko included); the reason if not.
    /// A stone after two passes is checked as the game resumed ([`resumes`]).
    pub fn check(&self, color: Color, mv: Move) -> Result<(), PlayError> {
        // The board as `color` would move on it: a copy (8.7 KB) only for the other colour.
        let other;
        let board = if color == self.board.to_move() {
            &self.board
        } else {
            let mut board = self.board.clone();
            board.set_to_move(color);
            other = board;
            &other
        };
        check_with_history(board, &self.history, mv)
    }

    /// Plays `mv` for `color` (either colour may move, as GTP allows), or refuses it and
    /// changes nothing. The tree keeps the subtree under the move. A stone after two passes
    /// resumes the game ([`resumes`]: the game-length cap stays final), and the tree is
    /// cleared then.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), PlayError> {
        self.check(color, mv)?;
        if self.record.is_full() {
            return Err(PlayError::GameOver);
        }
        if color != self.board.to_move() {
            self.board.set_to_move(color);
            self.tree.clear();
        }
        if resumes(&self.board, mv) {
            self.board.resume();
            self.tree.clear();
        }
        self.board.play(mv);
        let _ = self.history.push(self.board.position_hash());
        let _ = self.record.push(Played { color, mv });
        if !self.tree.is_empty() {
            self.tree.advance(mv);
        }
        Ok(())
    }

    /// Takes back the last move, restoring the exact position and history; `false` when
    /// there is none.
    pub fn undo(&mut self) -> bool {
        if self.record.pop().is_none() {
            return false;
        }
        let record = self.record.clone();
        self.board = self.start.clone();
        self.restart();
        for played in record {
            // Each move was legal when first played from the same positions.
            let _ = self.play(played.color, played.mv);
        }
        self.tree.clear();
        true
    }

    /// The ownership estimate of the current position.
    pub fn ownership(&mut self) -> Ownership {
        ownership(&self.board, self.config.ownership_playouts, &mut self.rng)
    }

    /// The status of every stone of the current position (alive, dead or seki: see
    /// [`Statuses`]) with the ownership estimate it was judged from.
    pub fn statuses(&mut self) -> (Statuses, Ownership) {
        let own = self.ownership();
        (Statuses::judge(&self.board, &own), own)
    }

    /// The final area score of the current position: dead stones estimated by ownership,
    /// seki stones counted and their shared liberties not ([`Statuses::score`]).
    pub fn final_score(&mut self) -> Score {
        let (statuses, own) = self.statuses();
        statuses.score(&self.board, &own)
    }

    /// [`Player::genmove_with`] with the knowledge of the configuration ([`GoKnowledge::of`]).
    pub fn genmove<S>(
        &mut self,
        color: Color,
        max_iterations: u32,
        stop: S,
    ) -> Result<Decision, Error>
    where
        S: Stop + Clone + Send,
    {
        let knowledge = GoKnowledge::of(&self.config);
        self.genmove_with(color, max_iterations, stop, &knowledge)
    }

    /// Chooses a move for `color` with at most `max_iterations` iterations (per thread)
    /// until `stop` says so, and plays it (unless it resigns). The search continues the
    /// tree kept from earlier moves when it is still the tree of this position.
    ///
    /// Passes at once, without searching, when [`Player::passes_won`] says so; otherwise
    /// searches and plays what [`Player::judge`] makes of the search (a resignation plays
    /// nothing). A finished game answers a pass and plays nothing. Fails only when the
    /// storage cannot hold a root.
    pub fn genmove_with<S, K>(
        &mut self,
        color: Color,
        max_iterations: u32,
        stop: S,
        knowledge: &K,
    ) -> Result<Decision, Error>
    where
        S: Stop + Clone + Send,
        K: for<'h> Knowledge<TreeState<'h>> + Sync,
    {
        let mut decision = Decision {
            mv: Some(Move::Pass),
            win_rate: 0.5,
            iterations: 0,
            nodes: self.tree.len(),
            judged: false,
        };
        if self.board.is_over() {
            return Ok(decision);
        }
        if color != self.board.to_move() {
            self.board.set_to_move(color);
            self.tree.clear();
        }
        if self.passes_won() {
            decision.judged = true;
            self.play(color, Move::Pass)
                .map_err(|_| Error::InvalidArgument)?;
            return Ok(decision);
        }

        let searched = self.search_with(max_iterations, stop, knowledge)?;
        decision.iterations = searched.iterations;
        decision.nodes = searched.nodes;
        decision.win_rate = searched.summary.best_value;
        let judgement = self.judge(&searched.summary);
        decision.judged = judgement.judged;
        if judgement.resign {
            decision.mv = None;
            return Ok(decision);
        }
        let mut mv = judgement.mv;
        // The search lists only legal moves; a refusal would be a bug, so pass then.
        if self.play(color, mv).is_err() {
            mv = Move::Pass;
            let _ = self.play(color, mv);
        }
        decision.mv = Some(mv);
        Ok(decision)
    }

    /// Whether the player to move should pass at once, before any search: the opponent has
    /// just passed and the ownership count ([`Player::final_score`]) says the player to
    /// move wins. Draws the ownership playouts from the player's generator when the last
    /// move was a pass.
    pub fn passes_won(&mut self) -> bool {
        let color = self.board.to_move();
        self.board.turns() > 0 && self.board.last_move() == Move::Pass && self.wins(color)
    }

    /// What the player to move makes of a search whose root stands at `summary`
    /// ([`Searched::summary`], or [`Player::summary`] for a tree grown over several calls):
    /// the judgement of [`Player::genmove_with`], in one place for every caller (GTP, the C
    /// ABI's `arbor_go_search_decide`).
    ///
    /// - Resign when the root has visits, the best move wins less than the resignation
    ///   threshold ([`PlayerConfig::resign`]) and the game is at least
    ///   [`PlayerConfig::resign_after`] turns old.
    /// - Otherwise play the search's move (a pass without one), except a pass when the
    ///   ownership count says the player to move does not win: then the most visited other
    ///   move of the root, if the tree lists one (`judged`).
    ///
    /// Plays nothing; draws ownership playouts from the player's generator only when the
    /// search's move is a pass.
    pub fn judge(&mut self, summary: &RootSummary<Move>) -> Judgement {
        let mv = summary.best.unwrap_or(Move::Pass);
        if summary.root_visits > 0
            && summary.best_value < self.config.resign
            && self.board.turns() >= self.config.resign_after
        {
            return Judgement {
                mv,
                resign: true,
                judged: false,
            };
        }
        let color = self.board.to_move();
        if mv == Move::Pass && !self.wins(color) {
            // The most visited move that is not the pass, if the tree lists one.
            let other = self
                .tree
                .root_children()
                .filter(|child| child.mv != Move::Pass)
                .max_by_key(|child| child.visits)
                .map(|child| child.mv);
            if let Some(other) = other {
                return Judgement {
                    mv: other,
                    resign: false,
                    judged: true,
                };
            }
        }
        Judgement {
            mv,
            resign: false,
            judged: false,
        }
    }

    /// [`Player::genmove_with`]'s choice for the player to move now, from the tree as it
    /// stands, without searching or playing: a pass in a finished game, a pass when
    /// [`Player::passes_won`], else [`Player::judge`] of the tree's [`Player::summary`].
    /// For a caller that grows the tree over several calls ([`Player::search_with`]) and
    /// then decides.
    pub fn decide(&mut self) -> Judgement {
        let pass = Judgement {
            mv: Move::Pass,
            resign: false,
            judged: false,
        };
        if self.board.is_over() {
            return pass;
        }
        if self.passes_won() {
            return Judgement {
                judged: true,
                ..pass
            };
        }
        let summary = self.summary();
        self.judge(&summary)
    }

    /// Grows the tree from the current position for the player to move, with at most
    /// `max_iterations` iterations (per thread) until `stop` says so, and plays nothing: the
    /// anytime search under [`Player::genmove_with`] (which then judges passes and
    /// resignation), for callers that spread a search over several calls. One thread
    /// continues the tree kept from earlier calls and moves while it is still the tree of
    /// this position, so `k` calls of `n` iterations grow the tree of one call of `k · n`.
    /// Fails only when the storage cannot hold a root.
    pub fn search_with<S, K>(
        &mut self,
        max_iterations: u32,
        stop: S,
        knowledge: &K,
    ) -> Result<Searched, Error>
    where
        S: Stop + Clone + Send,
        K: for<'h> Knowledge<TreeState<'h>> + Sync,
    {
        let config = self.config.search_config();
        let policy = self.config.selection;
        if self.board.is_over() {
            return Ok(Searched {
                summary: self.tree.root_summary::<TreeState<'_>, _>(&policy, &config),
                iterations: 0,
                nodes: self.tree.len(),
                storage_full: false,
            });
        }
        let state = TreeState::new(self.board.clone(), &self.history);
        let result = self.tree.search_on_threads_until(
            &state,
            &policy,
            knowledge,
            &config,
            max_iterations,
            self.config.threads,
            stop,
            &mut self.rng,
        )?;
        let mut summary = self.tree.root_summary::<TreeState<'_>, _>(&policy, &config);
        summary.best = result.best.or(summary.best);
        Ok(Searched {
            summary,
            iterations: result.stats.iterations,
            nodes: result.stats.nodes_used,
            storage_full: result.stats.storage_full,
        })
    }

    /// [`Player::search_with`] with the knowledge of the configuration.
    pub fn search<S>(&mut self, max_iterations: u32, stop: S) -> Result<Searched, Error>
    where
        S: Stop + Clone + Send,
    {
        let knowledge = GoKnowledge::of(&self.config);
        self.search_with(max_iterations, stop, &knowledge)
    }

    /// Where the search stands for the current position without searching: the tree's best
    /// move, its visits and win rate (`None` before the root has children).
    pub fn summary(&self) -> RootSummary<Move> {
        let config = self.config.search_config();
        self.tree
            .root_summary::<TreeState<'_>, _>(&self.config.selection, &config)
    }

    /// Whether `color` wins the current position counted with ownership.
    fn wins(&mut self, color: Color) -> bool {
        self.final_score().winner() == Some(color)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mcts::Never;

    fn storage() -> std::vec::Vec<Node<Move>> {
        std::vec![Node::default(); 50_000]
    }

    fn at(board: &Board, text: &str) -> Move {
        let v = text.parse::<crate::go::vertex::Vertex>().unwrap();
        Move::Play(board.point(v.col, v.row).unwrap())
    }

    #[test]
    fn the_same_seed_plays_the_same_moves() {
        let (mut a, mut b) = (storage(), storage());
        let mut one = Player::new(&mut a, 9, PlayerConfig::default()).unwrap();
        let mut two = Player::new(&mut b, 9, PlayerConfig::default()).unwrap();
        for turn in 0..6 {
            let color = if turn % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let x = one.genmove(color, 300, Never).unwrap();
            let y = two.genmove(color, 300, Never).unwrap();
            assert_eq!(x, y);
            assert!(x.mv.is_some());
        }
        assert_eq!(one.board(), two.board());
    }

    #[test]
    fn mogo_knowledge_plays_the_same_legal_moves_for_the_same_seed() {
        let (mut a, mut b) = (storage(), storage());
        let config = PlayerConfig::mogo(9);
        let mut one = Player::new(&mut a, 9, config).unwrap();
        let mut two = Player::new(&mut b, 9, config).unwrap();
        for turn in 0..6 {
            let color = if turn % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let x = one.genmove(color, 300, Never).unwrap();
            let y = two.genmove(color, 300, Never).unwrap();
            assert_eq!(x, y);
            assert!(matches!(x.mv, Some(Move::Play(_))), "{x:?}");
        }
        assert_eq!(one.board(), two.board());
        // The listed-move form of the MoGo playout agrees with the played one.
        let policy = MogoPolicy::default();
        let state = TreeState::new(one.board().clone(), &one.history);
        let mut moves = <TreeState<'_> as Game>::Moves::default();
        state.legal_moves(&mut moves);
        let i = policy.playout_move(&state, &moves, &mut seeded_rng(8));
        let mut played = state.clone();
        let mv = policy.play_playout_move(&mut played, &mut seeded_rng(8));
        assert_eq!(Some(moves[i]), mv);
    }

    #[test]
    fn undo_restores_the_position_and_its_history() {
        let mut nodes = storage();
        let mut player = Player::new(&mut nodes, 9, PlayerConfig::default()).unwrap();
        let before = player.board().clone();
        let history = player.history.clone();
        let e5 = at(player.board(), "E5");
        player.play(Color::Black, e5).unwrap();
        player.genmove(Color::White, 100, Never).unwrap();
        assert!(player.undo());
        assert!(player.undo());
        assert_eq!(player.board(), &before);
        assert_eq!(player.history, history);
        assert!(!player.undo());
    }

    #[test]
    fn the_tree_is_kept_after_both_moves() {
        let mut nodes = storage();
        let mut player = Player::new(&mut nodes, 9, PlayerConfig::default()).unwrap();
        let decision = player.genmove(Color::Black, 2000, Never).unwrap();
        assert!(decision.nodes > 1);
        // Some reply of White's is in the tree: the most visited one.
        assert!(player.tree_len() > 1);
        let reply = player
            .tree
            .root_children()
            .max_by_key(|c| c.visits)
            .unwrap()
            .mv;
        player.play(Color::White, reply).unwrap();
        assert!(
            player.tree_len() > 1,
            "the subtree under White's reply is kept"
        );
    }

    #[test]
    fn a_won_position_after_a_pass_is_passed_and_a_lost_one_is_not() {
        // Black owns the whole board but for a white stone that is dead.
        let mut nodes = storage();
        let mut player = Player::new(&mut nodes, 5, PlayerConfig::for_size(5)).unwrap();
        for v in ["B1", "B2", "B3", "B4", "B5"] {
            let mv = at(player.board(), v);
            player.play(Color::Black, mv).unwrap();
        }
        let d4 = at(player.board(), "D4");
        player.play(Color::White, d4).unwrap();
        player.play(Color::White, Move::Pass).unwrap();
        let decision = player.genmove(Color::Black, 200, Never).unwrap();
        assert_eq!(decision.mv, Some(Move::Pass));
        assert!(player.final_score().winner() == Some(Color::Black));
    }

    #[test]
    fn a_stone_after_two_passes_resumes_and_genmove_at_a_finished_game_passes() {
        let mut nodes = storage();
        let mut player = Player::new(&mut nodes, 5, PlayerConfig::for_size(5)).unwrap();
        player.play(Color::Black, Move::Pass).unwrap();
        player.play(Color::White, Move::Pass).unwrap();
        assert!(player.board().is_over());
        let decision = player.genmove(Color::Black, 50, Never).unwrap();
        assert_eq!(decision.mv, Some(Move::Pass));
        assert_eq!(player.record().len(), 2, "nothing played");
        assert_eq!(
            player.decide(),
            Judgement {
                mv: Move::Pass,
                resign: false,
                judged: false
            }
        );
        assert_eq!(
            player.play(Color::Black, Move::Pass),
            Err(PlayError::GameOver)
        );
        // Either colour may resume, as GTP lets either colour play.
        let c3 = at(player.board(), "C3");
        assert_eq!(player.check(Color::White, c3), Ok(()));
        player.play(Color::White, c3).unwrap();
        assert!(!player.board().is_over());
        assert_eq!(player.board().passes(), 0);
        assert!(
            player
                .genmove(Color::Black, 50, Never)
                .unwrap()
                .mv
                .is_some()
        );
        assert_eq!(player.record().len(), 4);
        // Undo goes back to the finished game.
        assert!(player.undo());
        assert!(player.undo());
        assert!(player.board().is_over());
    }

    /// `decide` on a tree grown by `search` is what `genmove` plays after the same search:
    /// the judgement is one function.
    #[test]
    fn decide_after_a_search_is_what_genmove_plays() {
        let (mut a, mut b) = (storage(), storage());
        let config = PlayerConfig::for_size(5);
        let mut searched = Player::new(&mut a, 5, config).unwrap();
        let mut generated = Player::new(&mut b, 5, config).unwrap();
        for turn in 0..8 {
            let color = if turn % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            searched.search(200, Never).unwrap();
            let judgement = searched.decide();
            let decision = generated.genmove(color, 200, Never).unwrap();
            assert_eq!(decision.judged, judgement.judged);
            assert_eq!(decision.mv, (!judgement.resign).then_some(judgement.mv));
            let Some(mv) = decision.mv else { break };
            searched.play(color, mv).unwrap();
            if mv == Move::Pass {
                // After a pass, genmove's count comes before its search, decide's after.
                break;
            }
        }
        // A won position after the opponent's pass: a pass, judged, before any search.
        let mut nodes = storage();
        let mut won = Player::new(&mut nodes, 5, PlayerConfig::for_size(5)).unwrap();
        for v in ["B1", "B2", "B3", "B4", "B5"] {
            let mv = at(won.board(), v);
            won.play(Color::Black, mv).unwrap();
        }
        won.play(Color::White, Move::Pass).unwrap();
        assert_eq!(
            won.decide(),
            Judgement {
                mv: Move::Pass,
                resign: false,
                judged: true
            }
        );
        // A hopeless komi: resign once the opening is over.
        won.set_komi(100.5).unwrap();
        won.set_config(PlayerConfig {
            resign_after: 0,
            ..PlayerConfig::for_size(5)
        });
        let e5 = at(won.board(), "E5");
        won.play(Color::Black, e5).unwrap();
        won.play(Color::White, Move::Pass).unwrap();
        won.search(200, Never).unwrap();
        assert!(won.decide().resign);
    }

    #[test]
    fn resigns_a_hopeless_game_only_after_the_opening() {
        let mut nodes = storage();
        let config = PlayerConfig {
            resign_after: 0,
            ..PlayerConfig::for_size(5)
        };
        let mut player = Player::new(&mut nodes, 5, config).unwrap();
        // A komi no black play can overcome.
        player.set_komi(100.5).unwrap();
        let decision = player.genmove(Color::Black, 200, Never).unwrap();
        assert_eq!(decision.mv, None);
        let config = PlayerConfig {
            resign_after: 10,
            ..config
        };
        player.set_config(config);
        let decision = player.genmove(Color::Black, 200, Never).unwrap();
        assert!(decision.mv.is_some());
    }

    #[test]
    fn superko_is_refused() {
        let mut nodes = storage();
        let mut player = Player::new(&mut nodes, 5, PlayerConfig::for_size(5)).unwrap();
        // A ko: Black takes, then White's retake would repeat the position at once.
        let moves = [
            (Color::Black, "B2"),
            (Color::White, "C2"),
            (Color::Black, "A3"),
            (Color::White, "D3"),
            (Color::Black, "B4"),
            (Color::White, "C4"),
            (Color::Black, "C3"),
            (Color::White, "B3"),
        ];
        for (color, v) in moves {
            let mv = at(player.board(), v);
            player.play(color, mv).unwrap();
        }
        // Black's immediate retake on C3 is a simple ko.
        let c3 = at(player.board(), "C3");
        assert_eq!(player.play(Color::Black, c3), Err(PlayError::Ko));
        // After a black pass, Black to move again (as GTP allows): the ko point is gone, but
        // the retake would bring back the position after Black's C3: superko.
        player.play(Color::Black, Move::Pass).unwrap();
        assert_eq!(player.play(Color::Black, c3), Err(PlayError::Superko));
    }

    #[test]
    fn a_record_loads_and_writes_back_with_setup_captures_and_refusals() {
        let mut nodes = storage();
        let mut player = Player::new(&mut nodes, 9, PlayerConfig::default()).unwrap();
        // Black captures a white stone on A1 after a setup stone on B1.
        let sgf = b"(;SZ[7]KM[6.5]AB[bg];W[ag];B[af];W[];B[])";
        let record = GameRecord::parse_sgf(sgf).unwrap();
        player.load_record(&record).unwrap();
        assert_eq!(player.board().size(), 7);
        assert_eq!(player.board().komi(), 6.5);
        assert_eq!(player.captures(), [1, 0]);
        assert!(player.board().is_over());
        let mut written = GameRecord::default();
        player.write_record(&mut written);
        assert_eq!(written.moves, record.moves);
        assert_eq!(written.black_setup, record.black_setup);
        let mut again = Player::new(&mut [], 5, PlayerConfig::default()).unwrap();
        again.load_record(&written).unwrap();
        assert_eq!(again.board(), player.board());

        // A move on an occupied point: refused, the player unchanged.
        let bad = GameRecord::parse_sgf(b"(;SZ[9];B[aa];W[aa])").unwrap();
        let error = player.load_record(&bad).unwrap_err();
        assert_eq!(
            error,
            RecordError::Move {
                index: 1,
                error: PlayError::Occupied
            }
        );
        assert_eq!(error.to_string(), "move 2: the point is occupied");
        assert_eq!(again.board(), player.board());
    }

    #[test]
    fn searches_in_steps_grow_the_tree_of_one_search() {
        let (mut a, mut b) = (storage(), storage());
        let mut steps = Player::new(&mut a, 9, PlayerConfig::mogo(9)).unwrap();
        let mut once = Player::new(&mut b, 9, PlayerConfig::mogo(9)).unwrap();
        let mut last = None;
        for _ in 0..3 {
            last = Some(steps.search(100, Never).unwrap());
        }
        let one = once.search(300, Never).unwrap();
        let last = last.unwrap();
        assert_eq!(last.summary, one.summary);
        assert_eq!(steps.tree_len(), once.tree_len());
        assert_eq!(steps.summary(), one.summary);
        assert!(steps.record().is_empty(), "a search plays nothing");
    }
}
