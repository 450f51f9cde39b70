//! One hand of hold'em as a game for arbor's searches ([`Game`], [`Hidden`]): the deal as
//! chance turns and the betting through an action abstraction.
//!
//! - **Chance.** Each card is one chance turn: position 0's two hole cards, position 1's, then
//!   each board card when the rules want it. The outcomes are the undealt cards, equally
//!   likely, so a chance turn lists at most 52 moves ([`Game::MAX_MOVES`]).
//! - **Betting.** Fold (when facing a bet), call or check, and raises to the sizes of an
//!   [`ActionAbstraction`] (by default the minimum raise, half the pot, the pot and all-in),
//!   each clamped to the legal range and listed once. After
//!   [`ActionAbstraction::max_raises_per_round`] raises in a round only fold and call remain,
//!   which keeps trees small.
//! - **Returns.** Chips won, scaled to [0, 1]: `0.5 + won / (2 · smaller stack)`, so the two
//!   add up to 1 (what MCTS needs), losing a whole stack is 0 and an even split 0.5.
//! - **Imperfect information.** [`Hidden::info_key`] hashes a player's own hole cards, the
//!   board and the betting; [`Hidden::determinize`] deals the opponent new hole cards from
//!   those the observer has not seen.
use rand_xorshift::XorShiftRng;

use super::card::Card;
use super::rules::{Action, Chips, HandState, HoldemConfig, Position, Street};
use crate::search::game::random_index;
use crate::search::{Game, Hidden, Ply, Turn};

/// The raise sizes a search considers. Sizes below the minimum raise or above the stack are
/// moved to the nearest legal size; equal sizes are listed once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActionAbstraction {
    /// Raise by exactly the minimum.
    pub min_raise: bool,
    /// Raises by these fractions of the pot, in percent (the pot after calling: a pot-sized
    /// raise is 100); 0 marks an unused slot.
    pub pot_percents: [u16; 4],
    /// Raise all-in.
    pub all_in: bool,
    /// Raises allowed per betting round inside the abstraction; after that, fold or call.
    pub max_raises_per_round: u8,
}

impl Default for ActionAbstraction {
    /// Minimum raise, half pot, pot, all-in; at most 4 raises a round.
    fn default() -> Self {
        ActionAbstraction {
            min_raise: true,
            pot_percents: [50, 100, 0, 0],
            all_in: true,
            max_raises_per_round: 4,
        }
    }
}

/// A move of [`HoldemGame`]: a betting action of the player to act, or a card a chance turn
/// deals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum HoldemMove {
    /// Fold.
    Fold,
    /// Call or check (the default move, which a search stores where none was played).
    #[default]
    Call,
    /// Raise to this total for the hand.
    RaiseTo(Chips),
    /// Deal this card (a chance outcome).
    Deal(Card),
}

/// One hand of heads-up no-limit hold'em for search: the rules' [`HandState`], the cards
/// still to deal as chance turns, and an [`ActionAbstraction`] for the raises.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HoldemGame {
    hand: HandState,
    abstraction: ActionAbstraction,
    /// The first hole card of the position being dealt, waiting for its second.
    half_dealt: Option<Card>,
    /// Whether chance turns deal missing hole cards (a hand from its start) or they are
    /// hidden, for a determinization to fill in (a player's view).
    deals_hole_cards: bool,
}

impl HoldemGame {
    /// A new hand under `config`, nothing dealt yet: the first four turns deal the hole
    /// cards (position 0's, then position 1's) as chance turns.
    pub fn new(config: HoldemConfig, abstraction: ActionAbstraction) -> HoldemGame {
        HoldemGame {
            hand: HandState::new(config),
            abstraction,
            half_dealt: None,
            deals_hole_cards: true,
        }
    }

    /// A game from a hand in progress, such as a player's view parsed from ACPC text. Hole
    /// cards it lacks are hidden, not dealt: [`Hidden::determinize`] fills them in (so search
    /// it with information-set MCTS; a showdown against unknown cards returns 0.5 each).
    /// Board cards still due are dealt by chance turns.
    pub fn from_hand(hand: HandState, abstraction: ActionAbstraction) -> HoldemGame {
        HoldemGame {
            hand,
            abstraction,
            half_dealt: None,
            deals_hole_cards: false,
        }
    }

    /// The hand.
    pub fn hand(&self) -> &HandState {
        &self.hand
    }

    /// The action abstraction.
    pub fn abstraction(&self) -> &ActionAbstraction {
        &self.abstraction
    }

    /// The position whose hole cards a chance turn deals next, if one lacks them and chance
    /// deals them.
    fn position_to_deal(&self) -> Option<Position> {
        if !self.deals_hole_cards {
            return None;
        }
        (0..2).find(|&position| self.hand.hole_cards(position).is_none())
    }

    /// Every card dealt, the waiting hole card included.
    fn dealt_mask(&self) -> u64 {
        self.hand.dealt_mask() | self.half_dealt.map_or(0, |card| 1 << card.byte())
    }

    /// Raises made in the current round, by both players.
    fn raises_this_round(&self) -> usize {
        self.hand
            .round_actions(self.hand.street())
            .filter(|action| matches!(action, Action::RaiseTo(_)))
            .count()
    }

    /// Adds the abstraction's raise sizes, legal and distinct, to `moves`.
    fn list_raises(&self, moves: &mut heapless::Vec<HoldemMove, MAX_MOVES>) {
        let Some((min, max)) = self.hand.raise_bounds() else {
            return;
        };
        if self.raises_this_round() >= usize::from(self.abstraction.max_raises_per_round) {
            return;
        }
        let Some(me) = self.hand.to_act() else {
            return;
        };
        let bet = u64::from(self.hand.current_bet());
        let pot_after_call = u64::from(self.hand.pot()) + bet - u64::from(self.hand.spent(me));
        let mut sizes: heapless::Vec<Chips, 6> = heapless::Vec::new();
        if self.abstraction.min_raise {
            let _ = sizes.push(min);
        }
        for &percent in &self.abstraction.pot_percents {
            if percent > 0 {
                let to = bet + pot_after_call * u64::from(percent) / 100;
                let _ = sizes.push(to.clamp(u64::from(min), u64::from(max)) as Chips);
            }
        }
        if self.abstraction.all_in {
            let _ = sizes.push(max);
        }
        sizes.sort_unstable();
        for (i, &to) in sizes.iter().enumerate() {
            if i == 0 || sizes[i - 1] != to {
                let _ = moves.push(HoldemMove::RaiseTo(to));
            }
        }
    }

    /// Deals `card`, or, when it is dealt already (a chance outcome stored in a search tree
    /// that a determinization has since given to a player), the next undealt card after it:
    /// `play` must accept any stored move, and this keeps it deterministic.
    fn deal(&mut self, card: Card) {
        let dealt = self.dealt_mask();
        let free = (0..52)
            .map(|step| (usize::from(card.byte()) + step) % 52)
            .find(|&byte| dealt >> byte & 1 == 0);
        let Some(card) = free.map(|byte| Card::ALL[byte]) else {
            return;
        };
        match (self.position_to_deal(), self.half_dealt) {
            (Some(_), None) => self.half_dealt = Some(card),
            (Some(position), Some(first)) => {
                if self.hand.deal_hole_cards(position, [first, card]).is_ok() {
                    self.half_dealt = None;
                }
            }
            (None, _) => {
                let _ = self.hand.deal_board_card(card);
            }
        }
    }
}

/// Most moves of a turn: a chance turn lists the undealt cards, at most 52 (before the first
/// card); a betting turn at most 2 + 6 (fold, call, minimum, four pot fractions, all-in).
const MAX_MOVES: usize = 52;

/// The plies AMAF follows: the 9 cards and, with the default abstraction, at most 4 rounds of
/// 4 raises and 2 other actions (33 plies in all). Longer simulations (deeper
/// abstractions) still count for the returns.
const MAX_TRACE: usize = 64;

impl Game for HoldemGame {
    type Move = HoldemMove;
    type Moves = heapless::Vec<HoldemMove, MAX_MOVES>;
    type Trace = heapless::Vec<Ply<HoldemMove>, MAX_TRACE>;

    fn turn(&self) -> Turn {
        if self.hand.is_over() {
            Turn::Over
        } else if self.position_to_deal().is_some() || self.hand.board_cards_due() > 0 {
            Turn::Chance
        } else {
            match self.hand.to_act() {
                Some(position) => Turn::Player(position),
                None => Turn::Over,
            }
        }
    }

    fn legal_moves(&self, moves: &mut Self::Moves) {
        moves.clear();
        match self.turn() {
            Turn::Over => {}
            Turn::Chance => {
                let dealt = self.dealt_mask();
                for card in Card::ALL {
                    if dealt >> card.byte() & 1 == 0 {
                        let _ = moves.push(HoldemMove::Deal(card));
                    }
                }
            }
            Turn::Player(_) => {
                if self.hand.can_fold() {
                    let _ = moves.push(HoldemMove::Fold);
                }
                let _ = moves.push(HoldemMove::Call);
                self.list_raises(moves);
            }
        }
    }

    fn play(&mut self, mv: HoldemMove) {
        let action = match mv {
            HoldemMove::Deal(card) => return self.deal(card),
            HoldemMove::Fold => Action::Fold,
            HoldemMove::Call => Action::Call,
            HoldemMove::RaiseTo(to) => Action::RaiseTo(to),
        };
        // A stored move the hand no longer allows (after a determinization) is a call, which
        // is always legal while someone is to act.
        if self.hand.apply(action).is_err() {
            let _ = self.hand.apply(Action::Call);
        }
    }

    /// Chips won scaled to [0, 1] (see the module doc); an even 0.5 each until the hand is
    /// over.
    fn returns(&self) -> [f32; 2] {
        let Ok([won, _]) = self.hand.payoffs() else {
            return [0.5, 0.5];
        };
        let [stack0, stack1] = self.hand.config().stacks();
        let scale = 2.0 * stack0.min(stack1) as f32;
        let first = 0.5 + won as f32 / scale;
        [first, 1.0 - first]
    }

    fn hash(&self) -> u64 {
        let mut key = Key::new();
        for position in 0..2 {
            key.add_hole(self.hand.hole_cards(position));
        }
        key.add(self.half_dealt.map_or(0xff, |card| u64::from(card.byte())));
        key.add_public(&self.hand);
        key.finish()
    }

    fn replays_exactly(&self) -> bool {
        true
    }
}

impl Hidden for HoldemGame {
    /// Own hole cards (and a waiting first hole card if it is the player's), the board and the
    /// betting.
    fn info_key(&self, player: u8) -> u64 {
        let mut key = Key::new();
        key.add(u64::from(player));
        key.add_hole(self.hand.hole_cards(player));
        let mine = self.position_to_deal() == Some(player);
        key.add(
            self.half_dealt
                .filter(|_| mine)
                .map_or(0xff, |card| u64::from(card.byte())),
        );
        key.add_public(&self.hand);
        key.finish()
    }

    /// Gives the opponent of `observer` new hole cards, drawn from the cards `observer` has
    /// not seen; the observer's own cards and the board stay. If the observer has no hole
    /// cards yet (chance is still dealing them), the opponent's are taken back for chance
    /// turns to deal again.
    fn determinize(&mut self, observer: u8, rng: &mut XorShiftRng) {
        let observer = observer.min(1);
        let opponent = 1 - observer;
        self.hand.forget_hole_cards(opponent);
        if self.position_to_deal() == Some(opponent) {
            self.half_dealt = None;
        }
        if self.hand.hole_cards(observer).is_none() {
            return;
        }
        let mut unseen: heapless::Vec<Card, 52> = heapless::Vec::new();
        for card in Card::ALL {
            if self.dealt_mask() >> card.byte() & 1 == 0 {
                let _ = unseen.push(card);
            }
        }
        if unseen.len() < 2 {
            return;
        }
        let first = unseen.swap_remove(random_index(rng, unseen.len()));
        let second = unseen[random_index(rng, unseen.len())];
        let _ = self.hand.deal_hole_cards(opponent, [first, second]);
    }
}

/// A 64-bit hash built by folding words in with a multiply-xorshift mixer (SplitMix64's
/// finaliser), so that every input bit reaches every output bit.
struct Key(u64);

impl Key {
    fn new() -> Key {
        Key(0x243f_6a88_85a3_08d3)
    }

    fn add(&mut self, word: u64) {
        let mut x = (self.0 ^ word).wrapping_add(0x9e37_79b9_7f4a_7c15);
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        self.0 = x ^ (x >> 31);
    }

    fn add_hole(&mut self, hole: Option<[Card; 2]>) {
        self.add(hole.map_or(0xffff, |[a, b]| {
            u64::from(a.byte()) << 8 | u64::from(b.byte())
        }));
    }

    /// What both players see: the board, the betting round by round.
    fn add_public(&mut self, hand: &HandState) {
        for card in hand.board() {
            self.add(u64::from(card.byte()));
        }
        for street in Street::ALL {
            self.add(0x5eed_0000 | street.index() as u64);
            for action in hand.round_actions(street) {
                self.add(match action {
                    Action::Fold => 1 << 40,
                    Action::Call => 2 << 40,
                    Action::RaiseTo(to) => 3 << 40 | u64::from(to),
                });
            }
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
