//! Leduc Hold'em (Southey et al. 2005): six cards (jack, queen, king in two suits), one
//! private card each, one public card, two betting rounds. The standard test game a step up
//! from Kuhn poker.
use heapless::Vec;
use rand_xorshift::XorShiftRng;

use crate::search::game::{Game, Hidden, Ply, Turn, random_index};

/// No public card yet.
const NO_CARD: u8 = u8::MAX;

/// Leduc Hold'em. Cards 0..6, rank `card / 2` (0 = jack, 1 = queen, 2 = king). Each player
/// antes 1; in each round player 0 acts first; a raise is 2 chips in the first round and 4 in
/// the second, at most 2 raises a round. Moves: [`Leduc::FOLD`] (only facing a raise),
/// [`Leduc::CALL`] (check or call), [`Leduc::RAISE`]. A pair with the public card wins the
/// showdown, else the higher rank; equal ranks split. Two chance turns: the private deal
/// (outcome `DEAL + 6·card0 + card1`) and the public card (`PUBLIC + card`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leduc {
    private: [u8; 2],
    public: u8,
    dealt: bool,
    /// Chips each player has put in.
    contributed: [u8; 2],
    round: u8,
    raises: u8,
    /// Actions in this round so far.
    acted: u8,
    to_move: u8,
    folded: Option<u8>,
    /// Every action so far: at most 4 a round (check, raise, raise, call).
    history: Vec<u8, 8>,
}

impl Default for Leduc {
    fn default() -> Self {
        Leduc::new()
    }
}

impl Leduc {
    /// Chips per utility unit: returns are `(chips + 13) / 26`, 13 chips being the most one
    /// player can put in (1 + 2·2 + 2·4).
    pub const CHIPS_PER_UNIT: f64 = 13.0;
    /// Information sets of both players where one is to move, 144 each, cards told apart by
    /// rank only (the suits never matter, so this loses nothing): the standard 288.
    pub const INFOSETS: usize = 288;
    /// Most actions at an information set: fold, call, raise.
    pub const ACTIONS: usize = 3;
    /// Move: fold.
    pub const FOLD: u8 = 0;
    /// Move: check or call.
    pub const CALL: u8 = 1;
    /// Move: raise.
    pub const RAISE: u8 = 2;
    /// The first private-deal outcome code.
    pub const DEAL: u8 = 16;
    /// The first public-card outcome code.
    pub const PUBLIC: u8 = 64;

    /// Before the deal.
    pub fn new() -> Leduc {
        Leduc {
            private: [0, 0],
            public: NO_CARD,
            dealt: false,
            contributed: [1, 1],
            round: 0,
            raises: 0,
            acted: 0,
            to_move: 0,
            folded: None,
            history: Vec::new(),
        }
    }

    /// Chips player 0 wins (negative: loses) at the end.
    pub fn net(&self) -> i32 {
        let [mine, theirs] = self.contributed.map(i32::from);
        match self.folded {
            Some(0) => -mine,
            Some(_) => theirs,
            None => match self.strength(0).cmp(&self.strength(1)) {
                core::cmp::Ordering::Greater => theirs,
                core::cmp::Ordering::Less => -mine,
                core::cmp::Ordering::Equal => 0,
            },
        }
    }

    /// Showdown strength of `player`: a pair beats any rank.
    fn strength(&self, player: usize) -> u8 {
        let rank = self.private[player] / 2;
        if self.public != NO_CARD && rank == self.public / 2 {
            10
        } else {
            rank
        }
    }

    fn over(&self) -> bool {
        self.folded.is_some() || self.round > 1
    }

    fn facing_raise(&self) -> bool {
        self.contributed[0] != self.contributed[1]
    }

    /// Ends the betting round: the public card comes next, or the showdown.
    fn end_round(&mut self) {
        self.round += 1;
        self.raises = 0;
        self.acted = 0;
        self.to_move = 0;
    }
}

impl Game for Leduc {
    type Move = u8;
    // The private deal has the most outcomes: 6 · 5 ordered pairs of cards.
    type Moves = Vec<u8, 30>;
    // Two deals and at most 8 actions.
    type Trace = Vec<Ply<u8>, 10>;

    fn turn(&self) -> Turn {
        if self.over() {
            Turn::Over
        } else if !self.dealt || (self.round == 1 && self.public == NO_CARD) {
            Turn::Chance
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        match self.turn() {
            Turn::Over => {}
            Turn::Chance if !self.dealt => {
                for a in 0..6 {
                    for b in (0..6).filter(|&b| b != a) {
                        let _ = moves.push(Self::DEAL + 6 * a + b);
                    }
                }
            }
            Turn::Chance => {
                for card in (0..6).filter(|&c| !self.private.contains(&c)) {
                    let _ = moves.push(Self::PUBLIC + card);
                }
            }
            Turn::Player(_) => {
                if self.facing_raise() {
                    let _ = moves.push(Self::FOLD);
                }
                let _ = moves.push(Self::CALL);
                if self.raises < 2 {
                    let _ = moves.push(Self::RAISE);
                }
            }
        }
    }

    fn play(&mut self, mv: u8) {
        match self.turn() {
            Turn::Over => {}
            Turn::Chance if !self.dealt => {
                let deal = mv.saturating_sub(Self::DEAL).min(35);
                self.private = [deal / 6, deal % 6];
                self.dealt = true;
            }
            Turn::Chance => self.public = mv.saturating_sub(Self::PUBLIC).min(5),
            Turn::Player(player) => {
                let me = usize::from(player);
                let _ = self.history.push(mv.min(Self::RAISE));
                self.acted += 1;
                match mv {
                    Self::FOLD if self.facing_raise() => self.folded = Some(player),
                    Self::RAISE if self.raises < 2 => {
                        let bet = if self.round == 0 { 2 } else { 4 };
                        self.contributed[me] = self.contributed[1 - me] + bet;
                        self.raises += 1;
                        self.to_move ^= 1;
                    }
                    _ => {
                        let called = self.facing_raise();
                        self.contributed[me] = self.contributed[1 - me];
                        if called || self.acted >= 2 {
                            self.end_round();
                        } else {
                            self.to_move ^= 1;
                        }
                    }
                }
            }
        }
    }

    fn returns(&self) -> [f32; 2] {
        let player0 = (self.net() as f32 + 13.0) / 26.0;
        [player0, 1.0 - player0]
    }

    fn hash(&self) -> u64 {
        self.info_key(0) ^ self.info_key(1).rotate_left(32)
    }
}

impl Hidden for Leduc {
    /// The player's rank, the public rank (plus 1; 0 before it is dealt) and the actions
    /// (base 4 digits of action + 1, so that every sequence has its own number).
    fn info_key(&self, player: u8) -> u64 {
        let rank = self.private[usize::from(player.min(1))] / 2;
        let public = if self.public == NO_CARD {
            0
        } else {
            self.public / 2 + 1
        };
        let actions = self
            .history
            .iter()
            .fold(0u64, |key, &a| key * 4 + u64::from(a) + 1);
        actions << 5 | u64::from(self.dealt) << 4 | u64::from(public) << 2 | u64::from(rank)
    }

    fn determinize(&mut self, observer: u8, rng: &mut XorShiftRng) {
        let me = usize::from(observer.min(1));
        let unseen: Vec<u8, 5> = (0..6)
            .filter(|&c| c != self.private[me] && c != self.public)
            .collect();
        if let Some(&card) = unseen.get(random_index(rng, unseen.len())) {
            self.private[1 - me] = card;
        }
    }
}
