//! The staged search (section 2 of the paper; notes section 6): from the flop on, the value
//! of each of our abstract actions is its expected chips over the opponent's range, the
//! board cards still to come and the betting below, to the end of the hand.
//!
//! - Opponent holdings: every holding of the [`Range`] that does not collide with our cards
//!   or the board, weighted by the range (normalised).
//! - Root: our legal actions among the five classes' representatives (fold, check/call, half
//!   pot, pot, all-in; [`ActionClass::representative`]), deduplicated. The root is the real
//!   [`HandState`], so a bet we face is its real size: off-tree amounts need no translation
//!   there.
//! - Opponent nodes: the expectation over the opponent model's class probabilities for each
//!   holding (the model sees that holding, never our cards), each class played as its
//!   representative; classes that end up on the same action are merged.
//! - Our nodes below the root: the own model's most likely class (argmax, ties to the more
//!   passive), played as its representative. One child per node keeps the tree small; the
//!   model sees our real cards.
//! - Raises: at most [`SearchConfig::max_raises_per_round`] raises per round in the tree
//!   (real ones included); beyond it a raise class counts as a call.
//! - Chance: each board card enumerated ([`ChanceMode::Exact`]) or a seeded sample of
//!   cards at each deal ([`ChanceMode::Sampled`]); each holding averages over the cards it
//!   does not hold. The sample depends on the seed and the cards dealt so far only, so all
//!   root actions see the same cards.
//! - Showdown: each river board ranks our hand and every live holding once
//!   (`rank7_unchecked`); every showdown below shares the ranks.
//!
//! The walk is vectorised: one walk of the betting tree per board carries a vector of
//! values over all holdings, so the cost is (tree nodes × live holdings), not a walk per
//! holding. Nothing is allocated; the walk keeps its vectors on the stack, about 37 KB per
//! opponent node and 16 KB per chance node on the current path (under 0.6 MB at the deepest
//! flop line with the default raise cap).
mod walk;

pub mod bot;
pub mod buckets;
pub mod models;
pub mod paper;
pub mod tracking;

use core::fmt;

use crate::holdem::equity::{COMBOS, combo_cards};
use crate::holdem::policy::{ACTION_CLASSES, ActionClass, ActionModel};
use crate::holdem::range::Range;
use crate::holdem::rules::{Action, HandState, Position, Street};
use crate::search::mcts::{Never, Stop};
pub use bot::{NoResolveStorage, ResolveStorage, StagedBot, StagedSettings};
pub use paper::{OpponentModel, PaperBot, ResolveScratch, paper_bot};
pub use tracking::{opponent_range, opponent_range_until};
pub use walk::WalkStats;
use walk::{PerHolding, Showdown, Walk};

/// How the board cards still to come are dealt in the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChanceMode {
    /// Every card at every deal: the exact expectimax (turn and river; from the flop it is
    /// about 45 times the turn's cost per betting line).
    Exact,
    /// `cards_per_deal` distinct cards (at least 3) drawn at each deal, seeded.
    Sampled { cards_per_deal: u8 },
}

/// The settings of one search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    pub chance: ChanceMode,
    /// The most raises per betting round in the tree below the root, counting the real
    /// raises of the round.
    pub max_raises_per_round: u8,
    /// An opponent branch whose reach-weighted probability is below this share of the
    /// node's reach is dropped, its probability spread over the other branches (0 keeps
    /// every branch: the exact expectimax under the model).
    pub min_branch_probability: f32,
    /// Seeds the sampled deals.
    pub seed: u64,
}

impl SearchConfig {
    /// Exact chance, two raises a round, every branch kept.
    pub const EXACT: SearchConfig = SearchConfig {
        chance: ChanceMode::Exact,
        max_raises_per_round: 2,
        min_branch_probability: 0.0,
        seed: 0,
    };
}

/// Why a search could not run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// It is not `me` to act (or nobody is).
    NotOurTurn,
    /// Preflop is not searched (the preflop policy decides).
    Preflop,
    /// Our hole cards are not in the hand.
    HoleCardsUnknown,
    /// No opponent holding is left with positive weight.
    EmptyRange,
    /// A sampled deal needs at least 3 cards (so every holding keeps one).
    TooFewSamples,
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SearchError::NotOurTurn => "it is not the searching player's turn",
            SearchError::Preflop => "preflop is not searched",
            SearchError::HoleCardsUnknown => "the searching player's hole cards are not dealt",
            SearchError::EmptyRange => "the opponent's range has no holding left",
            SearchError::TooFewSamples => "a sampled deal needs at least 3 cards",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for SearchError {}

/// One root action and its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootValue {
    pub action: Action,
    /// The first class whose representative the action is.
    pub class: ActionClass,
    /// Expected chips back relative to our stack now (folding is 0).
    pub value: f32,
}

/// The result of a search: every root action's value and the best.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The root actions whose values were measured, in the order call, fold, small raise,
    /// big raise, all-in (all of them unless the search was stopped).
    pub values: heapless::Vec<RootValue, ACTION_CLASSES>,
    /// The best action (the first of equal values, in the order call, fold, small raise, big
    /// raise, all-in: the passive one on a tie). When a stop left no root action measured, it
    /// is the own model's choice (see [`search_until`]) and its value is NaN.
    pub best: RootValue,
    pub stats: WalkStats,
    /// Whether the stop cut the search short (some root actions are then not in `values`).
    pub stopped: bool,
}

/// Searches `hand` for `me` (who must be to act, with hole cards dealt, after preflop):
/// the opponent's holdings weighted by `range`, its actions by `opponent`, our later
/// actions by `own`.
pub fn search(
    hand: &HandState,
    me: Position,
    range: &Range,
    opponent: &dyn ActionModel,
    own: &dyn ActionModel,
    config: SearchConfig,
) -> Result<SearchResult, SearchError> {
    search_until(hand, me, range, opponent, own, config, &mut Never)
}

/// [`search`] that asks `stop` before every opponent node, every 64 opponent-model
/// predictions and every card dealt in the tree (the `u32` it is given counts the polls so
/// far) and, once it says stop, answers from what is done.
///
/// What is done is counted in whole root actions. The root actions are measured one after
/// the other, the own model's choice at the root (the expert's action, the same rule that
/// plays our nodes below the root) first, then the others in the passive-first order; a
/// root action cut short is dropped whole. So the answer is always the best of exact
/// values measured under the same deals: every prefix compares like with like, and the
/// search departs from the expert only for an action it measured as better. Partial deals
/// are not averaged in: on a card prefix each holding would average over different cards
/// per root action (the tree deals at every line's end of round), so a cut walk would
/// compare actions on unequal samples. When no root action is finished the answer is the
/// expert's action itself, with a NaN value. Never stopped, the values, the best action and
/// the counters (except `polls`) are those of [`search`]: the order of the root walks
/// changes no value, each walk being independent.
pub fn search_until(
    hand: &HandState,
    me: Position,
    range: &Range,
    opponent: &dyn ActionModel,
    own: &dyn ActionModel,
    config: SearchConfig,
    stop: &mut dyn Stop,
) -> Result<SearchResult, SearchError> {
    if hand.to_act() != Some(me) {
        return Err(SearchError::NotOurTurn);
    }
    if hand.street() == Street::Preflop {
        return Err(SearchError::Preflop);
    }
    if hand.hole_cards(me).is_none() {
        return Err(SearchError::HoleCardsUnknown);
    }
    if matches!(config.chance, ChanceMode::Sampled { cards_per_deal } if cards_per_deal < 3) {
        return Err(SearchError::TooFewSamples);
    }
    let mut root = hand.clone();
    root.forget_hole_cards(1 - me);
    let reach = normalised_reach(&root, range).ok_or(SearchError::EmptyRange)?;
    let showdown = if root.board().len() == 5 {
        Showdown::new(&root, me, &reach)
    } else {
        None
    };
    let mut walk = Walk {
        me,
        opponent,
        own,
        config,
        root_spent: root.spent(me),
        stats: WalkStats::default(),
        stop,
        stopped: false,
    };
    // Passive first, so that a tie keeps the passive action.
    let order = [
        ActionClass::Call,
        ActionClass::Fold,
        ActionClass::SmallRaise,
        ActionClass::BigRaise,
        ActionClass::AllIn,
    ];
    // The distinct root actions, in that order (one that does not apply is skipped below).
    let mut candidates = heapless::Vec::<(ActionClass, Action), ACTION_CLASSES>::new();
    for class in order {
        let Some(action) = class.representative(&root) else {
            continue;
        };
        if candidates.iter().any(|&(_, known)| known == action) {
            continue;
        }
        // At most five distinct actions: the push cannot fail.
        let _ = candidates.push((class, action));
    }
    let (expert_class, expert_action) = walk.own_choice(&root);
    let expert = candidates
        .iter()
        .position(|&(_, action)| action == expert_action);
    let mut measured = [None::<f32>; ACTION_CLASSES];
    let mut out = [0.0f32; COMBOS];
    let rest = (0..candidates.len()).filter(|&slot| Some(slot) != expert);
    for slot in expert.into_iter().chain(rest) {
        let (_, action) = candidates[slot];
        let mut child = root.clone();
        if child.apply(action).is_err() {
            continue;
        }
        walk.value(&child, &reach, showdown.as_ref(), &mut out);
        if walk.stopped {
            break;
        }
        measured[slot] = Some(reach.iter().zip(&out).map(|(w, v)| w * v).sum());
    }
    let mut values = heapless::Vec::<RootValue, ACTION_CLASSES>::new();
    for (&(class, action), value) in candidates.iter().zip(measured) {
        if let Some(value) = value {
            let _ = values.push(RootValue {
                action,
                class,
                value,
            });
        }
    }
    let stopped = walk.stopped;
    let mut best = match values.first() {
        Some(&first) => first,
        None if stopped => RootValue {
            action: expert_action,
            class: expert_class,
            value: f32::NAN,
        },
        None => return Err(SearchError::NotOurTurn),
    };
    for candidate in &values {
        if candidate.value > best.value {
            best = *candidate;
        }
    }
    Ok(SearchResult {
        values,
        best,
        stats: walk.stats,
        stopped,
    })
}

/// The own model's choice for `me` at `hand` under `config`'s raise cap: the action a
/// search cut short before it measured anything plays (see [`search_until`]).
pub fn expert_choice(
    hand: &HandState,
    me: Position,
    own: &dyn ActionModel,
    config: SearchConfig,
) -> Action {
    let walk = Walk {
        me,
        opponent: own,
        own,
        config,
        root_spent: hand.spent(me),
        stats: WalkStats::default(),
        stop: &mut Never,
        stopped: false,
    };
    walk.own_choice(hand).1
}

/// The range's weights over the holdings that do not collide with the cards dealt in
/// `hand`, scaled to sum to 1; `None` when none is left.
fn normalised_reach(hand: &HandState, range: &Range) -> Option<PerHolding> {
    let dead = hand.dealt_mask();
    let mut reach = [0.0f32; COMBOS];
    let mut total = 0.0f32;
    for (index, slot) in reach.iter_mut().enumerate() {
        let weight = range.weight(index);
        let Some([a, b]) = combo_cards(index) else {
            continue;
        };
        if weight.is_finite() && weight > 0.0 && dead & (1 << a.byte() | 1 << b.byte()) == 0 {
            *slot = weight;
            total += weight;
        }
    }
    if !(total > 0.0 && total.is_finite()) {
        return None;
    }
    for slot in &mut reach {
        *slot /= total;
    }
    Some(reach)
}

#[cfg(test)]
mod tests;
