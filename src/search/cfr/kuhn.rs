//! Kuhn poker (Kuhn 1950): three cards, one each, an ante of 1, one bet of 1. The smallest
//! poker with a known equilibrium: player 0's value is −1/18 chip.
use heapless::Vec;
use rand_xorshift::XorShiftRng;

use crate::search::game::{Game, Hidden, Ply, Turn, random_index};

/// Kuhn poker. Cards 0 = jack, 1 = queen, 2 = king. Player 0 passes (move 0) or bets (move 1),
/// then player 1, and after pass-bet player 0 again; a pass facing a bet folds; bet-call or
/// pass-pass goes to showdown. The deal is one chance turn whose outcome `DEAL + 3·card0 +
/// card1` deals both cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kuhn {
    cards: [u8; 2],
    dealt: bool,
    /// The actions so far, oldest first: at most 3 (pass, bet, call).
    history: Vec<u8, 3>,
}

impl Default for Kuhn {
    fn default() -> Self {
        Kuhn::new()
    }
}

impl Kuhn {
    /// Chips per utility unit: returns are `(chips + 2) / 4`, so their difference is chips / 2.
    pub const CHIPS_PER_UNIT: f64 = 2.0;
    /// Information sets of the game: 3 cards × 2 for each player.
    pub const INFOSETS: usize = 12;
    /// Actions at every information set: pass and bet.
    pub const ACTIONS: usize = 2;
    /// The first deal outcome code.
    pub const DEAL: u8 = 16;
    /// Move: pass (check, or fold facing a bet).
    pub const PASS: u8 = 0;
    /// Move: bet (or call a bet).
    pub const BET: u8 = 1;

    /// Before the deal.
    pub fn new() -> Kuhn {
        Kuhn {
            cards: [0, 0],
            dealt: false,
            history: Vec::new(),
        }
    }

    /// After the deal of `cards` (each below 3, different) and the actions `history`
    /// (at most 3 moves, each 0 or 1); `None` for anything else.
    pub fn after(cards: [u8; 2], history: &[u8]) -> Option<Kuhn> {
        let valid = cards[0] < 3 && cards[1] < 3 && cards[0] != cards[1];
        let mut state = Kuhn {
            cards,
            dealt: true,
            history: Vec::new(),
        };
        if !valid {
            return None;
        }
        for &action in history {
            if action > 1 || state.over() {
                return None;
            }
            state.history.push(action).ok()?;
        }
        Some(state)
    }

    /// Chips player 0 wins (negative: loses) at the end.
    pub fn net(&self) -> i8 {
        let showdown = |stake: i8| {
            if self.cards[0] > self.cards[1] {
                stake
            } else {
                -stake
            }
        };
        match self.history.as_slice() {
            [0, 0] => showdown(1),
            [1, 0] => 1,
            [1, 1] | [0, 1, 1] => showdown(2),
            [0, 1, 0] => -1,
            _ => 0,
        }
    }

    fn over(&self) -> bool {
        matches!(self.history.as_slice(), [0, 0] | [1, _] | [0, 1, _])
    }
}

impl Game for Kuhn {
    type Move = u8;
    // Six deals.
    type Moves = Vec<u8, 6>;
    // A deal and at most three actions.
    type Trace = Vec<Ply<u8>, 4>;

    fn turn(&self) -> Turn {
        if !self.dealt {
            Turn::Chance
        } else if self.over() {
            Turn::Over
        } else {
            Turn::Player(self.history.len() as u8 % 2)
        }
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        if !self.dealt {
            for (a, b) in [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)] {
                let _ = moves.push(Self::DEAL + 3 * a + b);
            }
        } else if !self.over() {
            let _ = moves.push(Self::PASS);
            let _ = moves.push(Self::BET);
        }
    }

    fn play(&mut self, mv: u8) {
        if self.dealt {
            if !self.over() {
                let _ = self.history.push(mv.min(1));
            }
        } else {
            let deal = mv.saturating_sub(Self::DEAL).min(8);
            self.cards = [deal / 3, deal % 3];
            self.dealt = true;
        }
    }

    fn returns(&self) -> [f32; 2] {
        let player0 = (f32::from(self.net()) + 2.0) / 4.0;
        [player0, 1.0 - player0]
    }

    fn hash(&self) -> u64 {
        self.info_key(0) ^ self.info_key(1).rotate_left(32)
    }
}

impl Hidden for Kuhn {
    /// The player's card and the actions (a leading 1 bit, then one bit per action).
    fn info_key(&self, player: u8) -> u64 {
        let card = self.cards[usize::from(player.min(1))];
        let actions = self
            .history
            .iter()
            .fold(1u64, |key, &a| key << 1 | u64::from(a));
        u64::from(self.dealt) << 40 | u64::from(card) << 32 | actions
    }

    fn determinize(&mut self, observer: u8, rng: &mut XorShiftRng) {
        let me = usize::from(observer.min(1));
        let unseen: Vec<u8, 2> = (0..3).filter(|&c| c != self.cards[me]).collect();
        if let Some(&card) = unseen.get(random_index(rng, unseen.len())) {
            self.cards[1 - me] = card;
        }
    }
}
