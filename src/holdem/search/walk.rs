//! One walk of the betting tree below a root action, with a value per opponent holding: the
//! vectorised expectimax of [`super::search`].
//!
//! Every vector is indexed by [`combo_index`](crate::holdem::equity::combo_index) and holds,
//! for the opponent holding that index, the chips we get back relative to our stack at the
//! root (folding at the root is 0). `reach` is the probability weight of each holding at a
//! node (the range times the model's probabilities of the opponent's actions on the way):
//! holdings with reach 0 are skipped, so their entries are left 0 and must not be read.
use core::cmp::Ordering;

use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

use super::models::restrict_to_legal;
use super::{ChanceMode, SearchConfig};
use crate::holdem::card::Card;
use crate::holdem::equity::{COMBOS, combo_cards};
use crate::holdem::eval::rank7_unchecked;
use crate::holdem::policy::{ACTION_CLASSES, ActionClass, ActionModel, ClassProbabilities};
use crate::holdem::rules::{Action, Chips, HandState, Position};
use crate::rng::stream_seed;
use crate::search::mcts::Stop;

/// Opponent-model predictions between two polls of the stop inside an opponent node (a
/// fraction of a millisecond with the expert model, whose predictions cost microseconds).
const POLL_EVERY: u64 = 64;

/// A vector of values or weights over the opponent's holdings.
pub(crate) type PerHolding = [f32; COMBOS];

/// Our rank and every live opponent holding's rank on one complete board, computed once per
/// river board and shared by all showdowns below it.
pub(crate) struct Showdown {
    mine: u16,
    theirs: [u16; COMBOS],
}

impl Showdown {
    /// The ranks for the holdings with positive `reach`. `hand` has five board cards and our
    /// hole cards; `None` otherwise.
    pub(crate) fn new(hand: &HandState, me: Position, reach: &PerHolding) -> Option<Showdown> {
        let board = hand.board();
        let [a, b] = hand.hole_cards(me)?;
        let mut seven = [0u8; 7];
        seven[0] = a.byte();
        seven[1] = b.byte();
        if board.len() != 5 {
            return None;
        }
        for (slot, card) in seven[2..].iter_mut().zip(board) {
            *slot = card.byte();
        }
        let mine = rank7_unchecked(&seven);
        let mut theirs = [0u16; COMBOS];
        for (index, rank) in theirs.iter_mut().enumerate() {
            if reach[index] > 0.0 {
                if let Some([c, d]) = combo_cards(index) {
                    // Holdings with reach never collide with the dealt cards (the walk
                    // zeroes those), so the seven cards are distinct.
                    seven[0] = c.byte();
                    seven[1] = d.byte();
                    *rank = rank7_unchecked(&seven);
                }
            }
        }
        Some(Showdown { mine, theirs })
    }
}

/// The bit set of combo `index`'s cards.
fn combo_mask(index: usize) -> u64 {
    combo_cards(index).map_or(u64::MAX, |[a, b]| 1 << a.byte() | 1 << b.byte())
}

/// Counters of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkStats {
    /// Tree nodes visited (each for a whole vector of holdings).
    pub nodes: u64,
    /// Calls of the opponent model (one per node and live holding).
    pub opponent_predictions: u64,
    /// Showdown boards whose holdings were ranked.
    pub boards: u64,
    /// Times the stop was asked (before every opponent node, every 64 opponent-model
    /// predictions and every card dealt).
    pub polls: u64,
}

/// The state of one search: who we are, the models, the settings, the counters.
pub(crate) struct Walk<'a> {
    pub me: Position,
    pub opponent: &'a dyn ActionModel,
    pub own: &'a dyn ActionModel,
    pub config: SearchConfig,
    /// What we had put in at the root: values are relative to it.
    pub root_spent: Chips,
    pub stats: WalkStats,
    /// Asked before every opponent node and every card dealt; once it says stop, the walk
    /// unwinds without finishing its vectors (their values are then meaningless).
    pub stop: &'a mut dyn Stop,
    /// Whether the stop fired.
    pub stopped: bool,
}

impl Walk<'_> {
    /// Asks the stop (with the polls made so far) unless it already fired; `true` to stop.
    fn should_stop(&mut self) -> bool {
        if !self.stopped {
            let polls = u32::try_from(self.stats.polls).unwrap_or(u32::MAX);
            self.stats.polls += 1;
            self.stopped = self.stop.stop(polls);
        }
        self.stopped
    }

    /// Writes into `out` the value of `hand` for every holding with positive `reach`.
    pub(crate) fn value(
        &mut self,
        hand: &HandState,
        reach: &PerHolding,
        showdown: Option<&Showdown>,
        out: &mut PerHolding,
    ) {
        out.fill(0.0);
        if self.stopped {
            return;
        }
        self.stats.nodes += 1;
        let back = self.root_spent as f32;
        if let Some(folder) = hand.folded() {
            let result = if folder == self.me {
                -(hand.spent(self.me) as f32)
            } else {
                hand.spent(1 - self.me) as f32
            };
            fill_live(out, reach, result + back);
            return;
        }
        if hand.board_cards_due() > 0 {
            self.chance(hand, reach, out);
            return;
        }
        if hand.is_over() {
            let Some(showdown) = showdown else {
                // Unreachable: a complete board always comes with its showdown ranks. Count
                // the hand as a split rather than panic.
                fill_live(out, reach, back);
                return;
            };
            let stake = hand.spent(0).min(hand.spent(1)) as f32;
            for index in 0..COMBOS {
                if reach[index] > 0.0 {
                    let result = match showdown.mine.cmp(&showdown.theirs[index]) {
                        Ordering::Greater => stake,
                        Ordering::Less => -stake,
                        Ordering::Equal => 0.0,
                    };
                    out[index] = result + back;
                }
            }
            return;
        }
        match hand.to_act() {
            Some(actor) if actor == self.me => self.own_node(hand, reach, showdown, out),
            Some(_) => self.opponent_node(hand, reach, showdown, out),
            None => fill_live(out, reach, back),
        }
    }

    /// Whether the search may raise again in the current round of `hand`.
    fn raise_allowed(&self, hand: &HandState) -> bool {
        let raises = hand
            .round_actions(hand.street())
            .filter(|action| matches!(action, Action::RaiseTo(_)))
            .count();
        hand.raise_bounds().is_some() && raises < usize::from(self.config.max_raises_per_round)
    }

    /// The own model's most likely class in `hand` (ties to the more passive, raises capped as
    /// in the tree) and the action that represents it (a call when it has none).
    pub(crate) fn own_choice(&self, hand: &HandState) -> (ActionClass, Action) {
        let raise_allowed = self.raise_allowed(hand);
        let probabilities = capped(hand, raise_allowed, self.own.predict(hand));
        let mut best = ActionClass::Call;
        for class in ActionClass::ALL {
            if probabilities[class.index()] > probabilities[best.index()] {
                best = class;
            }
        }
        (best, best.representative(hand).unwrap_or(Action::Call))
    }

    /// Our node below the root: the own model's most likely class (ties to the more
    /// passive), played as its representative.
    fn own_node(
        &mut self,
        hand: &HandState,
        reach: &PerHolding,
        showdown: Option<&Showdown>,
        out: &mut PerHolding,
    ) {
        let (_, action) = self.own_choice(hand);
        let mut child = hand.clone();
        if child.apply(action).is_err() && child.apply(Action::Call).is_err() {
            fill_live(out, reach, self.root_spent as f32);
            return;
        }
        self.value(&child, reach, showdown, out);
    }

    /// The opponent's node: the expectation over its classes, with each holding's own
    /// probabilities, each class played as its representative.
    fn opponent_node(
        &mut self,
        hand: &HandState,
        reach: &PerHolding,
        showdown: Option<&Showdown>,
        out: &mut PerHolding,
    ) {
        if self.should_stop() {
            return;
        }
        let opponent = 1 - self.me;
        // The model sees the opponent's hypothetical cards, never ours.
        let mut view = hand.clone();
        view.forget_hole_cards(self.me);
        // The distinct actions the classes stand for; `slot_of[class]` is the action's slot.
        let mut actions = [Action::Call; ACTION_CLASSES];
        let mut slot_of = [0usize; ACTION_CLASSES];
        let mut slots = 0usize;
        for class in ActionClass::ALL {
            let action = class.representative(hand).unwrap_or(Action::Call);
            let slot = actions[..slots]
                .iter()
                .position(|&known| known == action)
                .unwrap_or_else(|| {
                    actions[slots] = action;
                    slots += 1;
                    slots - 1
                });
            slot_of[class.index()] = slot;
        }
        let raise_allowed = self.raise_allowed(hand);
        // Each live holding's probability of each action slot, and the reach-weighted mass.
        let mut probabilities = [[0.0f32; ACTION_CLASSES]; COMBOS];
        let mut mass = [0.0f32; ACTION_CLASSES];
        let mut live = 0.0f32;
        for index in 0..COMBOS {
            if reach[index] <= 0.0 {
                continue;
            }
            let Some(cards) = combo_cards(index) else {
                continue;
            };
            if view.deal_hole_cards(opponent, cards).is_err() {
                continue;
            }
            // A node's predictions take milliseconds with the expert model: the stop is
            // asked again every `POLL_EVERY` of them.
            if self.stats.opponent_predictions % POLL_EVERY == POLL_EVERY - 1 && self.should_stop()
            {
                return;
            }
            let predicted = self.opponent.predict(&view);
            view.forget_hole_cards(opponent);
            self.stats.opponent_predictions += 1;
            let p = capped(hand, raise_allowed, predicted);
            for class in ActionClass::ALL {
                probabilities[index][slot_of[class.index()]] += p[class.index()];
            }
            for slot in 0..slots {
                mass[slot] += reach[index] * probabilities[index][slot];
            }
            live += reach[index];
        }
        // Branches below the threshold are dropped and their probability spread over the
        // rest, holding by holding; the call branch always stays.
        let call_slot = slot_of[ActionClass::Call.index()];
        let mut kept = [false; ACTION_CLASSES];
        for slot in 0..slots {
            kept[slot] = slot == call_slot
                || (mass[slot] > 0.0 && mass[slot] >= self.config.min_branch_probability * live);
        }
        for row in probabilities.iter_mut() {
            let total: f32 = (0..slots).filter(|&s| kept[s]).map(|s| row[s]).sum();
            for slot in 0..slots {
                row[slot] = if !kept[slot] {
                    0.0
                } else if total > 0.0 {
                    row[slot] / total
                } else if slot == call_slot {
                    1.0
                } else {
                    0.0
                };
            }
        }
        let mut child_reach = [0.0f32; COMBOS];
        let mut child_out = [0.0f32; COMBOS];
        for slot in 0..slots {
            if !kept[slot] {
                continue;
            }
            let mut any = false;
            for index in 0..COMBOS {
                child_reach[index] = reach[index] * probabilities[index][slot];
                any |= child_reach[index] > 0.0;
            }
            if !any {
                continue;
            }
            let mut child = hand.clone();
            if child.apply(actions[slot]).is_err() {
                continue;
            }
            self.value(&child, &child_reach, showdown, &mut child_out);
            for index in 0..COMBOS {
                if child_reach[index] > 0.0 {
                    out[index] += probabilities[index][slot] * child_out[index];
                }
            }
        }
    }

    /// A chance node: the next board card, every one (exact) or a seeded sample, averaged
    /// for each holding over the cards it does not hold.
    fn chance(&mut self, hand: &HandState, reach: &PerHolding, out: &mut PerHolding) {
        let dealt = hand.dealt_mask();
        let mut deck = [Card::ALL[0]; 52];
        let mut deck_len = 0usize;
        for card in Card::ALL {
            if dealt & 1 << card.byte() == 0 {
                deck[deck_len] = card;
                deck_len += 1;
            }
        }
        let draws = match self.config.chance {
            ChanceMode::Exact => deck_len,
            ChanceMode::Sampled { cards_per_deal } => {
                // The sample depends on the seed and the cards dealt so far only, so every
                // line of betting sees the same cards (common random numbers).
                let mut rng = XorShiftRng::seed_from_u64(stream_seed(self.config.seed, dealt));
                let draws = usize::from(cards_per_deal).min(deck_len);
                for i in 0..draws {
                    let span = (deck_len - i) as u64;
                    let j = i + ((u64::from(rng.next_u32()) * span) >> 32) as usize;
                    deck.swap(i, j);
                }
                draws
            }
        };
        let mut counts = [0u8; COMBOS];
        let mut child_reach = [0.0f32; COMBOS];
        let mut child_out = [0.0f32; COMBOS];
        for &card in &deck[..draws] {
            if self.should_stop() {
                return;
            }
            let bit = 1u64 << card.byte();
            let mut any = false;
            for index in 0..COMBOS {
                let live = reach[index] > 0.0 && combo_mask(index) & bit == 0;
                child_reach[index] = if live { reach[index] } else { 0.0 };
                any |= live;
            }
            if !any {
                continue;
            }
            let mut child = hand.clone();
            if child.deal_board_card(card).is_err() {
                continue;
            }
            let showdown = if child.board().len() == 5 {
                self.stats.boards += 1;
                Showdown::new(&child, self.me, &child_reach)
            } else {
                None
            };
            self.value(&child, &child_reach, showdown.as_ref(), &mut child_out);
            for index in 0..COMBOS {
                if child_reach[index] > 0.0 {
                    out[index] += child_out[index];
                    counts[index] = counts[index].saturating_add(1);
                }
            }
        }
        for index in 0..COMBOS {
            if counts[index] > 0 {
                out[index] /= f32::from(counts[index]);
            }
        }
    }
}

/// The probabilities restricted to what is legal, with raises counted as calls when the
/// search allows no more raises in the round.
fn capped(
    hand: &HandState,
    raise_allowed: bool,
    probabilities: ClassProbabilities,
) -> ClassProbabilities {
    let mut p = restrict_to_legal(hand, probabilities);
    if !raise_allowed {
        for class in [
            ActionClass::SmallRaise,
            ActionClass::BigRaise,
            ActionClass::AllIn,
        ] {
            p[ActionClass::Call.index()] += p[class.index()];
            p[class.index()] = 0.0;
        }
    }
    p
}

/// `value` for every holding with positive reach.
fn fill_live(out: &mut PerHolding, reach: &PerHolding, value: f32) {
    for (slot, &weight) in out.iter_mut().zip(reach) {
        if weight > 0.0 {
            *slot = value;
        }
    }
}
