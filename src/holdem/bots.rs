//! Baseline heads-up no-limit bots: always-call, min-raise, all-in, the ACPC example
//! player's random mix, and an equity bot; and a parser for their `NAME[:key=value,...]`
//! specs.
//!
//! A bot sees a [`BotView`]: plain numbers and cards that a dealer fills from its own state
//! and a client fills from a parsed MATCHSTATE line, so the same bot plays in-process, as an
//! ACPC client, or (later) behind the C ABI. Bots allocate nothing, and every random draw
//! comes from a `rand_xorshift` generator reseeded at the start of each hand from the bot's
//! seed and the hand number: a bot's decisions depend only on its seed and what it has seen
//! of the current hand, so an interrupted match resumes exactly and an in-process match and
//! a match over TCP produce the same log.
use core::fmt;

use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

use super::Card;
use super::eval::rank7_unchecked;
use super::expert::{ExpertBot, Style, StyleError};
use super::learned::{LearnedError, LearnedReader, LearnedWriter};
pub use super::rules::Action;
use super::rules::{HandState, Position};
use super::search::{OpponentModel, StagedSettings};
#[cfg(feature = "std")]
use super::search::{PaperBot, paper_bot};
use crate::rng::stream_seed;
use crate::search::mcts::{Never, Stop};

/// What a bot knows when it must act: its cards, the public cards, the chips in the pot and
/// the legal range of actions. Positions are ACPC's: 0 is the big blind, 1 the small blind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotView {
    /// The hand's number in the match (bots reseed their randomness from it).
    pub hand: u64,
    /// The acting bot's position, 0 or 1.
    pub position: u8,
    pub hole: [Card; 2],
    /// The public cards; only the first `board_len` (0, 3, 4 or 5) are dealt.
    pub board: [Card; 5],
    pub board_len: u8,
    /// Chips each position has put in the pot this hand, blinds included.
    pub committed: [u32; 2],
    /// Whether folding is legal (only when facing a bet).
    pub can_fold: bool,
    /// The legal raise-to totals (minimum, maximum), or `None` when no raise is possible.
    pub raise_range: Option<(u32, u32)>,
}

impl BotView {
    /// The view of `position` in hand number `hand`, or `None` when `position` is not to act
    /// or its hole cards are unknown.
    pub fn from_state(state: &HandState, position: Position, hand: u64) -> Option<BotView> {
        if state.to_act() != Some(position) {
            return None;
        }
        let hole = state.hole_cards(position)?;
        let mut board = [hole[0]; 5];
        let dealt = state.board();
        for (slot, card) in board.iter_mut().zip(dealt) {
            *slot = *card;
        }
        Some(BotView {
            hand,
            position,
            hole,
            board,
            board_len: dealt.len().min(5) as u8,
            committed: [state.spent(0), state.spent(1)],
            can_fold: state.can_fold(),
            raise_range: state.raise_bounds(),
        })
    }

    /// The dealt public cards.
    pub fn board(&self) -> &[Card] {
        let len = usize::from(self.board_len).min(self.board.len());
        &self.board[..len]
    }

    /// All chips in the pot.
    pub fn pot(&self) -> u32 {
        self.committed[0].saturating_add(self.committed[1])
    }

    /// Chips the acting bot must add to call (0: it may check).
    pub fn to_call(&self) -> u32 {
        let mine = self.committed[usize::from(self.position & 1)];
        let theirs = self.committed[usize::from(!self.position & 1)];
        theirs.saturating_sub(mine)
    }

    /// The highest total either position has put in: what a raise-to must exceed.
    pub fn current_bet(&self) -> u32 {
        self.committed[0].max(self.committed[1])
    }

    /// `raise_to` brought into the legal range, or a call when no raise is legal.
    pub fn raise_or_call(&self, raise_to: u32) -> Action {
        match self.raise_range {
            Some((low, high)) => Action::RaiseTo(raise_to.clamp(low, high)),
            None => Action::Call,
        }
    }
}

/// A bot that plays heads-up no-limit. The dealer calls `act` only when it is the bot's
/// turn; the action must be legal (the baselines' always are).
pub trait HoldemBot {
    /// A short name for logs (no spaces, `:` or `|`).
    fn name(&self) -> &str;
    /// The bot's action in the situation `view`. `seen` is the whole hand as the bot sees
    /// it (the betting so far, its own hole cards, the opponent's unknown), for bots that
    /// read the history; `view` is its summary.
    fn act(&mut self, view: &BotView, seen: &HandState) -> Action;
    /// [`act`](HoldemBot::act) under a budget: a bot that searches asks `stop` as it goes
    /// (a deadline, a cancel: the core's [`Stop`]) and, once it says stop, answers at once
    /// with the best action it has (always a legal one). Whether it was cut short is for the
    /// stop to tell (a stop that fired knows it did). Bots that decide in a few microseconds
    /// ignore the stop: the default is `act`. A stop that never fires gives `act`'s action.
    fn act_until(&mut self, view: &BotView, seen: &HandState, stop: &mut dyn Stop) -> Action {
        let _ = stop;
        self.act(view, seen)
    }
    /// The hand is over: `seen` is its end as `position` sees it (the opponent's hole cards
    /// only after a showdown). Bots that learn from their opponent override it.
    fn hand_over(&mut self, seen: &HandState, position: Position) {
        let _ = (seen, position);
    }
    /// Appends what the bot learned in [`hand_over`](HoldemBot::hand_over) to a learned
    /// block's payload (see [`save_learned`](super::learned::save_learned)); bots that learn
    /// override it and [`read_learned`](HoldemBot::read_learned).
    fn write_learned(&self, out: &mut LearnedWriter<'_>) {
        let _ = out;
    }
    /// Reads back, into a bot made afresh from the same spec, what
    /// [`write_learned`](HoldemBot::write_learned) wrote, refusing values the bot could not
    /// have learned.
    fn read_learned(&mut self, input: &mut LearnedReader<'_>) -> Result<(), LearnedError> {
        let _ = input;
        Ok(())
    }
}

/// A generator for one hand: from the bot's seed and the hand's number only.
fn hand_rng(seed: u64, hand: u64) -> XorShiftRng {
    XorShiftRng::seed_from_u64(stream_seed(seed, hand))
}

/// A uniform draw in `0..n` (n > 0) by the multiply-shift method: one 64-bit draw, bias
/// below 2⁻³² for the sizes here, the same on every platform.
fn below(rng: &mut XorShiftRng, n: u32) -> u32 {
    ((u64::from(rng.next_u32()) * u64::from(n)) >> 32) as u32
}

/// A uniform draw in [0, 1) with 53 bits.
fn unit(rng: &mut XorShiftRng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// Calls (or checks) every time.
#[derive(Clone, Debug, Default)]
pub struct AlwaysCall;

impl HoldemBot for AlwaysCall {
    fn name(&self) -> &str {
        "call"
    }
    fn act(&mut self, _view: &BotView, _seen: &HandState) -> Action {
        Action::Call
    }
}

/// Raises the minimum whenever a raise is legal, otherwise calls.
#[derive(Clone, Debug, Default)]
pub struct MinRaise;

impl HoldemBot for MinRaise {
    fn name(&self) -> &str {
        "min-raise"
    }
    fn act(&mut self, view: &BotView, _seen: &HandState) -> Action {
        view.raise_or_call(0)
    }
}

/// Raises all in whenever a raise is legal, otherwise calls.
#[derive(Clone, Debug, Default)]
pub struct AllIn;

impl HoldemBot for AllIn {
    fn name(&self) -> &str {
        "all-in"
    }
    fn act(&mut self, view: &BotView, _seen: &HandState) -> Action {
        view.raise_or_call(u32::MAX)
    }
}

/// The ACPC example player's mix: fold 0.06, call 0.47, raise 0.47 to a raise-to drawn
/// uniformly from the legal range. Where fold is illegal (nothing to call) or no raise is
/// possible, the illegal action's weight is dropped and the others are renormalised (so
/// unbet: call 0.5, raise 0.5; no raise: fold 0.06/0.53, call 0.47/0.53), rather than
/// turned into a call, which would make the bot call more than the mix says.
#[derive(Clone, Debug)]
pub struct RandomBot {
    seed: u64,
    rng: XorShiftRng,
    hand: Option<u64>,
}

/// The example player's weights: fold, call, raise.
pub const RANDOM_WEIGHTS: [f64; 3] = [0.06, 0.47, 0.47];

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            seed,
            rng: hand_rng(seed, 0),
            hand: None,
        }
    }
}

impl HoldemBot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }
    fn act(&mut self, view: &BotView, _seen: &HandState) -> Action {
        if self.hand != Some(view.hand) {
            self.rng = hand_rng(self.seed, view.hand);
            self.hand = Some(view.hand);
        }
        let fold = if view.can_fold {
            RANDOM_WEIGHTS[0]
        } else {
            0.0
        };
        let raise = if view.raise_range.is_some() {
            RANDOM_WEIGHTS[2]
        } else {
            0.0
        };
        let total = fold + RANDOM_WEIGHTS[1] + raise;
        let draw = unit(&mut self.rng) * total;
        if draw < fold {
            Action::Fold
        } else if draw < fold + RANDOM_WEIGHTS[1] {
            Action::Call
        } else {
            match view.raise_range {
                Some((low, high)) => {
                    let span = high.saturating_sub(low).saturating_add(1);
                    Action::RaiseTo(low + below(&mut self.rng, span))
                }
                None => Action::Call,
            }
        }
    }
}

/// Samples of the equity bot's Monte Carlo estimate preflop and on the flop, by default.
pub const DEFAULT_EQUITY_SAMPLES: u32 = 5_000;

/// Plays by its equity against a uniformly random opponent hand: exact on the turn and the
/// river (every unseen river card and opponent hand), sampled preflop and on the flop.
/// Equity above 0.75: raise the size of the pot (call, then raise by the pot after the
/// call). Above 0.6 with nothing to call: bet half the pot. Otherwise check when free, call
/// when the equity reaches the pot odds (to_call / (pot + to_call)), fold below them.
#[derive(Clone, Debug)]
pub struct EquityBot {
    seed: u64,
    samples: u32,
}

impl EquityBot {
    /// Raise the pot above this equity.
    pub const RAISE_ABOVE: f64 = 0.75;
    /// Bet half the pot above this equity when unbet.
    pub const BET_ABOVE: f64 = 0.6;

    /// A bot sampling `samples` (at least 1) deals preflop and on the flop.
    pub fn new(seed: u64, samples: u32) -> EquityBot {
        EquityBot {
            seed,
            samples: samples.max(1),
        }
    }

    /// The decision for a view with equity `equity`.
    pub fn decide(view: &BotView, equity: f64) -> Action {
        let pot = view.pot();
        let to_call = view.to_call();
        if equity > Self::RAISE_ABOVE && view.raise_range.is_some() {
            let pot_after_call = pot.saturating_add(to_call);
            return view.raise_or_call(view.current_bet().saturating_add(pot_after_call));
        }
        if equity > Self::BET_ABOVE && to_call == 0 && view.raise_range.is_some() {
            return view.raise_or_call(view.current_bet().saturating_add(pot / 2));
        }
        if to_call == 0 {
            return Action::Call;
        }
        let odds = f64::from(to_call) / (f64::from(pot) + f64::from(to_call));
        if equity >= odds || !view.can_fold {
            Action::Call
        } else {
            Action::Fold
        }
    }
}

impl HoldemBot for EquityBot {
    fn name(&self) -> &str {
        "equity"
    }
    fn act(&mut self, view: &BotView, seen: &HandState) -> Action {
        self.act_until(view, seen, &mut Never)
    }

    /// Preflop and on the flop the sampling polls `stop` every [`EQUITY_POLL_EVERY`] deals
    /// and, stopped, decides on the deals drawn so far (at least that many); the turn and
    /// river are exact and bounded (0.25 ms), so they do not poll.
    fn act_until(&mut self, view: &BotView, _seen: &HandState, stop: &mut dyn Stop) -> Action {
        // Each decision draws from its own stream (hand, position, public cards, chips), so
        // it does not depend on the decisions before it.
        let situation = (u64::from(view.board_len) << 40)
            ^ (u64::from(view.committed[0]) << 20)
            ^ u64::from(view.committed[1]);
        let mut rng = hand_rng(stream_seed(self.seed, view.hand), situation);
        let equity = equity_until(&view.hole, view.board(), self.samples, &mut rng, stop);
        Self::decide(view, equity)
    }
}

/// Deals the sampled equity draws between two polls of its stop: about 15 us of work, so a
/// stop is honoured that soon, while the poll (a clock read for a deadline) stays under 1% of
/// the time.
pub const EQUITY_POLL_EVERY: u32 = 256;

/// The share of the pot `hole` wins against a uniformly random opponent hand (ties count
/// half), given the public cards `board` (0 to 5 cards): exact with 4 or 5 board cards,
/// otherwise estimated from `samples` random deals of the opponent's cards and the rest of
/// the board. The exact case enumerates directly rather than calling
/// [`crate::holdem::equity::hand_vs_range`] (which agrees, see the tests): against one
/// uniform range the direct loop measured about 9 times faster on the turn here (0.25 ms
/// against 2.2 ms a decision). Cards must be distinct; duplicates give a meaningless number, not a panic.
pub fn equity(hole: &[Card; 2], board: &[Card], samples: u32, rng: &mut XorShiftRng) -> f64 {
    equity_until(hole, board, samples, rng, &mut Never)
}

/// [`equity`] under a stop: with 3 or fewer board cards the sampling asks `stop` after every
/// [`EQUITY_POLL_EVERY`] deals and, once it says stop, estimates from the deals drawn (at
/// least [`EQUITY_POLL_EVERY`], or `samples` if fewer). A stop that never fires gives
/// [`equity`]'s number bit for bit: the deals are the same, only the count can end early.
pub fn equity_until(
    hole: &[Card; 2],
    board: &[Card],
    samples: u32,
    rng: &mut XorShiftRng,
    stop: &mut dyn Stop,
) -> f64 {
    let board = &board[..board.len().min(5)];
    let mut unseen = [0u8; 52];
    let mut unseen_len = 0;
    let known = hole
        .iter()
        .chain(board)
        .fold(0u64, |m, c| m | 1 << c.byte());
    for byte in 0..52u8 {
        if known & (1 << byte) == 0 {
            unseen[unseen_len] = byte;
            unseen_len += 1;
        }
    }
    let unseen = &unseen[..unseen_len];
    let mut cards = [0u8; 7];
    cards[0] = hole[0].byte();
    cards[1] = hole[1].byte();
    for (slot, card) in cards[2..].iter_mut().zip(board) {
        *slot = card.byte();
    }
    let (won, total) = match board.len() {
        5 => against_every_hand(&cards, unseen),
        4 => {
            let (mut won, mut total) = (0u64, 0u64);
            for (i, &river) in unseen.iter().enumerate() {
                let mut rest = [0u8; 52];
                let mut rest_len = 0;
                for (j, &card) in unseen.iter().enumerate() {
                    if j != i {
                        rest[rest_len] = card;
                        rest_len += 1;
                    }
                }
                cards[6] = river;
                let (w, t) = against_every_hand(&cards, &rest[..rest_len]);
                won += w;
                total += t;
            }
            (won, total)
        }
        _ => sampled(&cards, board.len(), unseen, samples, rng, stop),
    };
    if total == 0 {
        0.5
    } else {
        won as f64 / total as f64
    }
}

/// Twice the pots won (2 a win, 1 a tie) and twice the hands, against every opponent hand
/// from `unseen`, with the full board in `cards[2..]`.
fn against_every_hand(cards: &[u8; 7], unseen: &[u8]) -> (u64, u64) {
    let mine = rank7_unchecked(cards);
    let mut theirs = *cards;
    let (mut won, mut total) = (0u64, 0u64);
    for (i, &a) in unseen.iter().enumerate() {
        theirs[0] = a;
        for &b in &unseen[i + 1..] {
            theirs[1] = b;
            won += score(mine, rank7_unchecked(&theirs));
            total += 2;
        }
    }
    (won, total)
}

fn score(mine: u16, theirs: u16) -> u64 {
    match mine.cmp(&theirs) {
        core::cmp::Ordering::Greater => 2,
        core::cmp::Ordering::Equal => 1,
        core::cmp::Ordering::Less => 0,
    }
}

/// [`against_every_hand`] estimated from `samples` deals of the opponent's two cards and the
/// missing board cards, drawn without replacement from `unseen`; fewer when `stop` says
/// stop at one of its polls (every [`EQUITY_POLL_EVERY`] deals).
fn sampled(
    cards: &[u8; 7],
    board_len: usize,
    unseen: &[u8],
    samples: u32,
    rng: &mut XorShiftRng,
    stop: &mut dyn Stop,
) -> (u64, u64) {
    let mut deck = [0u8; 52];
    deck[..unseen.len()].copy_from_slice(unseen);
    let deck = &mut deck[..unseen.len()];
    let missing = 5 - board_len;
    let (mut won, mut total) = (0u64, 0u64);
    for done in 0..samples {
        if done > 0 && done % EQUITY_POLL_EVERY == 0 && stop.stop(done) {
            break;
        }
        // A partial Fisher-Yates shuffle: the first 2 + missing cards are a uniform draw
        // (at least 45 cards are unseen with 3 or fewer on the board).
        let draws = 2 + missing;
        for i in 0..draws {
            let j = i + below(rng, (deck.len() - i) as u32) as usize;
            deck.swap(i, j);
        }
        let mut mine = *cards;
        for (k, &card) in deck[2..draws].iter().enumerate() {
            mine[2 + board_len + k] = card;
        }
        let mut theirs = mine;
        theirs[0] = deck[0];
        theirs[1] = deck[1];
        won += score(rank7_unchecked(&mine), rank7_unchecked(&theirs));
        total += 2;
    }
    (won, total)
}

/// Any of the baseline bots, chosen at run time from a spec.
// The core has no allocator to box the big bots (their tables of 1,326 holdings); a bot is
// made once per seat, so the size costs one copy.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Baseline {
    Call(AlwaysCall),
    MinRaise(MinRaise),
    AllIn(AllIn),
    Random(RandomBot),
    Equity(EquityBot),
    /// The expert library alone: the preflop chart and the postflop rules.
    Expert(ExpertBot),
    /// The paper's bot: the expert bot preflop, the staged search from the flop on. Boxed:
    /// its models and tables take tens of kilobytes, which a spec-made bot should not put on
    /// every caller's stack; so it needs the `std` feature (a `no_std` caller builds it with
    /// [`paper_bot`](super::search::paper_bot) in its own storage).
    #[cfg(feature = "std")]
    Staged(std::boxed::Box<PaperBot>),
}

impl HoldemBot for Baseline {
    fn name(&self) -> &str {
        match self {
            Baseline::Call(bot) => bot.name(),
            Baseline::MinRaise(bot) => bot.name(),
            Baseline::AllIn(bot) => bot.name(),
            Baseline::Random(bot) => bot.name(),
            Baseline::Equity(bot) => bot.name(),
            Baseline::Expert(bot) => bot.name(),
            #[cfg(feature = "std")]
            Baseline::Staged(bot) => bot.name(),
        }
    }
    fn act(&mut self, view: &BotView, seen: &HandState) -> Action {
        match self {
            Baseline::Call(bot) => bot.act(view, seen),
            Baseline::MinRaise(bot) => bot.act(view, seen),
            Baseline::AllIn(bot) => bot.act(view, seen),
            Baseline::Random(bot) => bot.act(view, seen),
            Baseline::Equity(bot) => bot.act(view, seen),
            Baseline::Expert(bot) => bot.act(view, seen),
            #[cfg(feature = "std")]
            Baseline::Staged(bot) => bot.act(view, seen),
        }
    }
    fn act_until(&mut self, view: &BotView, seen: &HandState, stop: &mut dyn Stop) -> Action {
        match self {
            Baseline::Equity(bot) => bot.act_until(view, seen, stop),
            Baseline::Expert(bot) => bot.act_until(view, seen, stop),
            #[cfg(feature = "std")]
            Baseline::Staged(bot) => bot.act_until(view, seen, stop),
            _ => {
                let _ = stop;
                self.act(view, seen)
            }
        }
    }
    fn hand_over(&mut self, seen: &HandState, position: Position) {
        match self {
            Baseline::Expert(bot) => bot.hand_over(seen, position),
            #[cfg(feature = "std")]
            Baseline::Staged(bot) => bot.hand_over(seen, position),
            _ => {}
        }
    }
    fn write_learned(&self, out: &mut LearnedWriter<'_>) {
        match self {
            Baseline::Expert(bot) => bot.write_learned(out),
            #[cfg(feature = "std")]
            Baseline::Staged(bot) => bot.write_learned(out),
            _ => {}
        }
    }
    fn read_learned(&mut self, input: &mut LearnedReader<'_>) -> Result<(), LearnedError> {
        match self {
            Baseline::Expert(bot) => bot.read_learned(input),
            #[cfg(feature = "std")]
            Baseline::Staged(bot) => bot.read_learned(input),
            _ => Ok(()),
        }
    }
}

/// The bot names a spec may start with.
pub const BOT_NAMES: [&str; 7] = [
    "call",
    "min-raise",
    "all-in",
    "random",
    "equity",
    "expert",
    "staged",
];

/// Why a bot spec was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecError<'a> {
    /// The name is not one of [`BOT_NAMES`].
    UnknownBot(&'a str),
    /// An option is not `key=value`.
    NotKeyValue(&'a str),
    /// The bot takes no option of this name.
    UnknownOption { bot: &'a str, key: &'a str },
    /// The value is not a whole number in range.
    BadNumber { key: &'a str, value: &'a str },
    /// The style is not a preset nor four numbers in 0..=1.
    BadStyle { value: &'a str, error: StyleError },
    /// The bot needs arbor's `std` feature.
    NeedsStd(&'a str),
    /// The value is not one of the names the option takes.
    BadChoice {
        key: &'a str,
        value: &'a str,
        expected: &'static str,
    },
}

impl fmt::Display for SpecError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::UnknownBot(name) => write!(
                f,
                "unknown bot '{name}' (expected call, min-raise, all-in, random, equity, expert \
                 or staged)"
            ),
            SpecError::NotKeyValue(option) => {
                write!(f, "option '{option}' is not key=value")
            }
            SpecError::UnknownOption { bot, key } => {
                let known = match *bot {
                    "random" => "seed",
                    "equity" => "seed, samples",
                    "expert" => "style, seed",
                    "staged" => {
                        "style, seed, opponent, model-rounds, model-buckets, resolve, \
                         resolve-turn, samples, raises, flop-raises, exact-turn"
                    }
                    _ => "none",
                };
                write!(f, "{bot} has no option '{key}' (options: {known})")
            }
            SpecError::BadNumber { key, value } => {
                write!(f, "{key}={value}: not a whole number in range")
            }
            SpecError::BadStyle { value, error } => write!(f, "style={value}: {error}"),
            SpecError::NeedsStd(bot) => write!(
                f,
                "the {bot} bot needs arbor's std feature (its models are allocated)"
            ),
            SpecError::BadChoice {
                key,
                value,
                expected,
            } => write!(f, "{key}={value}: expected {expected}"),
        }
    }
}

/// Reads a spec `NAME[:key=value,...]`: `call` (also `always-call`), `min-raise`, `all-in`,
/// `random[:seed=S]`, `equity[:samples=N,seed=S]` (samples 1 to 10,000,000, default
/// [`DEFAULT_EQUITY_SAMPLES`]; seeds default to 1), `expert[:style=STYLE,seed=S,exploit=P]` (a
/// [`Style::parse`] text, default balanced; `exploit` 50 to 100 plays the best response to an
/// opponent seen to be card-blind, all in from P% equity, 0 the default: off), `staged[:style=STYLE,seed=S,opponent=M,
/// resolve=N,resolve-turn=N,samples=N,raises=R,flop-raises=F,exact-turn=B]`: the expert bot of
/// that style
/// preflop and the staged search after, with the expert model at its own nodes and at the
/// opponent's `expert` (default), `cnn` or `online` (the CNN adapting during the match);
/// `resolve` CFR iterations re-solve the river (0, the default, to 10,000), `resolve-turn`
/// the turn, depth-limited, its leaves valued by checking the river down (0, the default,
/// to 10,000; a re-solve the deadline cuts short leaves the turn to the search); the staged bot
/// needs the `std` feature; `model-rounds` betting rounds from the current one use the
/// opponent model at the opponent's nodes (1 to 4, default 4: all); `model-buckets` asks it
/// once per bucket of holdings of that many strength levels at those nodes (0, the
/// default: every holding); the search options as
/// [`StagedSettings::set`] reads them.
///
/// ```
/// use arbor::holdem::bots::{parse_bot, HoldemBot};
/// assert_eq!(parse_bot("equity:samples=300").unwrap().name(), "equity");
/// assert!(parse_bot("random:sead=3").is_err());
/// ```
pub fn parse_bot(spec: &str) -> Result<Baseline, SpecError<'_>> {
    let (name, options) = spec.split_once(':').unwrap_or((spec, ""));
    let mut seed = 1u64;
    let mut samples = DEFAULT_EQUITY_SAMPLES;
    let mut staged = StagedSettings::default();
    let mut style = Style::BALANCED;
    let mut opponent = "expert";
    let mut exploit = 0u8;
    for option in options.split(',').filter(|o| !o.is_empty()) {
        let (key, value) = option
            .split_once('=')
            .ok_or(SpecError::NotKeyValue(option))?;
        let number = value
            .parse::<u64>()
            .map_err(|_| SpecError::BadNumber { key, value });
        match (name, key) {
            ("random" | "equity" | "expert" | "staged", "seed") => seed = number?,
            ("expert" | "staged", "style") => {
                style =
                    Style::parse(value).map_err(|error| SpecError::BadStyle { value, error })?;
            }
            ("staged", "opponent") => {
                opponent = OpponentModel::NAMES
                    .into_iter()
                    .find(|name| *name == value)
                    .ok_or(SpecError::BadChoice {
                        key,
                        value,
                        expected: "expert, cnn or online",
                    })?;
            }
            ("staged", "resolve" | "resolve-turn") => {
                let iterations = number
                    .ok()
                    .filter(|n| *n <= 10_000)
                    .ok_or(SpecError::BadNumber { key, value })?
                    as u16;
                if key == "resolve" {
                    staged.river_resolve_iterations = iterations;
                } else {
                    staged.turn_resolve_iterations = iterations;
                }
            }
            ("staged", _) if staged.set(key, value) => {}
            (
                "staged",
                "samples" | "raises" | "flop-raises" | "exact-turn" | "model-rounds"
                | "model-buckets",
            ) => {
                return Err(SpecError::BadNumber { key, value });
            }
            ("expert", "exploit") => {
                exploit = number
                    .ok()
                    .filter(|n| *n == 0 || (50..=100).contains(n))
                    .ok_or(SpecError::BadNumber { key, value })? as u8;
            }
            ("equity", "samples") => {
                samples = number
                    .ok()
                    .filter(|n| (1..=10_000_000).contains(n))
                    .ok_or(SpecError::BadNumber { key, value })? as u32;
            }
            _ if BOT_NAMES.contains(&name) || name == "always-call" => {
                return Err(SpecError::UnknownOption { bot: name, key });
            }
            _ => return Err(SpecError::UnknownBot(name)),
        }
    }
    Ok(match name {
        "call" | "always-call" => Baseline::Call(AlwaysCall),
        "min-raise" => Baseline::MinRaise(MinRaise),
        "all-in" => Baseline::AllIn(AllIn),
        "random" => Baseline::Random(RandomBot::new(seed)),
        "equity" => Baseline::Equity(EquityBot::new(seed, samples)),
        "expert" => Baseline::Expert(ExpertBot::new(style, seed).with_exploit(exploit)),
        #[cfg(feature = "std")]
        "staged" => Baseline::Staged(
            boxed_paper_bot(StagedSettings { seed, ..staged }, style, opponent)
                .ok_or(SpecError::UnknownBot(name))?,
        ),
        #[cfg(not(feature = "std"))]
        "staged" => {
            let _ = (staged, opponent);
            return Err(SpecError::NeedsStd(name));
        }
        _ => return Err(SpecError::UnknownBot(name)),
    })
}

/// The paper's bot on the heap. Not inlined, so that `parse_bot`'s frame, which every bot
/// spec passes through, does not reserve room for the bot's models.
#[cfg(feature = "std")]
#[inline(never)]
fn boxed_paper_bot(
    settings: StagedSettings,
    style: Style,
    opponent: &str,
) -> Option<std::boxed::Box<PaperBot>> {
    let opponent = OpponentModel::named(opponent)?;
    Some(std::boxed::Box::new(paper_bot(settings, style, opponent)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::rules::HoldemConfig;
    use crate::search::mcts::PollCounter;

    /// A hand for bots that read only their view.
    fn unseen() -> HandState {
        HandState::new(HoldemConfig::ACPC)
    }

    fn cards<const N: usize>(text: &str) -> [Card; N] {
        let mut out = [Card::ALL[0]; N];
        for (slot, word) in out.iter_mut().zip(text.split_whitespace()) {
            *slot = Card::parse(word).unwrap();
        }
        out
    }

    fn view(board: &str, board_len: u8, committed: [u32; 2], position: u8) -> BotView {
        let to_call = committed[1 - usize::from(position)] > committed[usize::from(position)];
        BotView {
            hand: 7,
            position,
            hole: cards("As Ad"),
            board: cards(board),
            board_len,
            committed,
            can_fold: to_call,
            raise_range: Some((committed[0].max(committed[1]) + 100, 20_000)),
        }
    }

    #[test]
    fn equity_on_the_river_is_exact() {
        let mut rng = hand_rng(1, 1);
        // The nuts (a royal flush on board plays for both: every hand ties).
        let royal = cards::<5>("Ts Js Qs Ks As");
        let e = equity(&cards("2c 3d"), &royal, 10, &mut rng);
        assert_eq!(e, 0.5);
        // Quads of aces with a king kicker beat every hand but the straight flush draws
        // absent here: 990 hands, none better.
        let board = cards::<5>("Ac Ah 7d 8c 2s");
        let e = equity(&cards("As Ad"), &board, 10, &mut rng);
        assert_eq!(e, 1.0);
    }

    #[test]
    fn sampled_equity_stopped_at_a_poll_is_the_equity_of_the_deals_drawn() {
        let flop = cards::<3>("Ks 9d 4c");
        for (board, fire_at) in [(&flop[..], 1u32), (&flop[..], 3), (&[][..], 2)] {
            let mut stop = PollCounter { polls: 0, fire_at };
            let stopped = equity_until(
                &cards("As Ad"),
                board,
                10_000_000,
                &mut hand_rng(4, 4),
                &mut stop,
            );
            assert_eq!(stop.polls, fire_at);
            // The same deals in the same order: the first fire_at x 256.
            let drawn = equity(
                &cards("As Ad"),
                board,
                fire_at * EQUITY_POLL_EVERY,
                &mut hand_rng(4, 4),
            );
            assert_eq!(stopped.to_bits(), drawn.to_bits());
        }
        // A stop that never fires is the whole count; the exact streets never poll.
        let mut silent = PollCounter {
            polls: 0,
            fire_at: u32::MAX,
        };
        let all = equity_until(
            &cards("As Ad"),
            &flop,
            2000,
            &mut hand_rng(4, 4),
            &mut silent,
        );
        assert_eq!(silent.polls, (2000 - 1) / EQUITY_POLL_EVERY);
        assert_eq!(
            all.to_bits(),
            equity(&cards("As Ad"), &flop, 2000, &mut hand_rng(4, 4)).to_bits()
        );
        let turn = cards::<4>("Ks 9d 4c 2h");
        let mut never = PollCounter {
            polls: 0,
            fire_at: 1,
        };
        equity_until(&cards("As Ad"), &turn, 1, &mut hand_rng(4, 4), &mut never);
        assert_eq!(never.polls, 0);
    }

    #[test]
    fn the_equity_bot_answers_at_its_stop_and_as_act_without_one() {
        let mut slow = EquityBot::new(3, 10_000_000);
        let mut fast = EquityBot::new(3, 2 * EQUITY_POLL_EVERY);
        let mut quick = EquityBot::new(3, DEFAULT_EQUITY_SAMPLES);
        let preflop = view("", 0, [100, 50], 1);
        let flop = view("Ks 9d 4c", 3, [200, 200], 0);
        for v in [&preflop, &flop] {
            // Stopped at its second poll, the slow bot decides on 512 deals: the fast bot's.
            let mut stop = PollCounter {
                polls: 0,
                fire_at: 2,
            };
            let action = slow.act_until(v, &unseen(), &mut stop);
            assert_eq!(stop.polls, 2);
            assert_eq!(action, fast.act(v, &unseen()));
            // Through the dispatch of spec-made bots too.
            let mut spec = parse_bot("equity:samples=10000000,seed=3").unwrap();
            let mut stop = PollCounter {
                polls: 0,
                fire_at: 2,
            };
            assert_eq!(spec.act_until(v, &unseen(), &mut stop), action);
            assert_eq!(stop.polls, 2);
            // A stop that never fires changes nothing.
            assert_eq!(
                quick.act_until(v, &unseen(), &mut Never),
                quick.clone().act(v, &unseen())
            );
        }
    }

    #[test]
    fn turn_equity_is_exact_and_flop_sampling_is_seeded() {
        let mut rng = hand_rng(1, 1);
        let board = cards::<4>("Ks 9d 4c 2h");
        let turn = equity(&cards("As Ad"), &board, 1, &mut rng);
        assert!(turn > 0.85 && turn < 0.95, "{turn}");
        let flop = cards::<3>("Ks 9d 4c");
        let a = equity(&cards("As Ad"), &flop, 2000, &mut hand_rng(5, 5));
        let b = equity(&cards("As Ad"), &flop, 2000, &mut hand_rng(5, 5));
        assert_eq!(a, b);
        assert!((a - turn).abs() < 0.05, "{a} {turn}");
        // Preflop aces win about 85% against a random hand.
        let pre = equity(&cards("As Ad"), &[], 20_000, &mut rng);
        assert!((pre - 0.852).abs() < 0.01, "{pre}");
    }

    #[test]
    fn exact_equity_agrees_with_the_range_sweep() {
        // crate::holdem::equity is an independent exact method (sorted sweeps over a
        // range); against a uniform range it must give the same number on turns and rivers.
        let uniform = [1.0f32; crate::holdem::equity::COMBOS];
        let mut dealer = crate::holdem::deal::Dealer::new(17);
        let mut rng = hand_rng(1, 1);
        for _ in 0..20 {
            let deal = dealer.next_hand();
            for len in [4, 5] {
                let board = &deal.board[..len];
                let ours = equity(&deal.holes[0], board, 1, &mut rng);
                let sweep = crate::holdem::equity::hand_vs_range(deal.holes[0], &uniform, board)
                    .unwrap()
                    .equity();
                assert!((ours - sweep).abs() < 1e-12, "{ours} {sweep}");
            }
        }
    }

    #[test]
    fn the_equity_rules() {
        // Facing nothing on the flop: above 0.75 raises the pot, above 0.6 bets half.
        let v = view("Ks 9d 4c", 3, [300, 300], 0);
        assert_eq!(EquityBot::decide(&v, 0.8), Action::RaiseTo(300 + 600));
        assert_eq!(EquityBot::decide(&v, 0.7), Action::RaiseTo(300 + 300));
        assert_eq!(EquityBot::decide(&v, 0.3), Action::Call);
        // Facing a 600 bet into 600: pot odds 600 / 1800 = 1/3.
        let v = view("Ks 9d 4c", 3, [300, 900], 0);
        assert_eq!(EquityBot::decide(&v, 0.34), Action::Call);
        assert_eq!(EquityBot::decide(&v, 0.32), Action::Fold);
        assert_eq!(EquityBot::decide(&v, 0.7), Action::Call);
        // Pot raise: call 600 (pot 1800), raise by 1800 to 2700.
        assert_eq!(EquityBot::decide(&v, 0.9), Action::RaiseTo(2700));
        let mut capped = v;
        capped.raise_range = Some((1500, 2000));
        assert_eq!(EquityBot::decide(&capped, 0.9), Action::RaiseTo(2000));
        capped.raise_range = None;
        assert_eq!(EquityBot::decide(&capped, 0.9), Action::Call);
    }

    #[test]
    fn random_follows_the_mix_and_renormalises() {
        let mut bot = RandomBot::new(3);
        let mut counts = [0u32; 3];
        let facing = view("", 0, [100, 300], 0);
        for hand in 0..20_000 {
            let action = bot.act(&BotView { hand, ..facing }, &unseen());
            match action {
                Action::Fold => counts[0] += 1,
                Action::Call => counts[1] += 1,
                Action::RaiseTo(n) => {
                    assert!((400..=20_000).contains(&n));
                    counts[2] += 1;
                }
            }
        }
        assert!(
            (counts[0] as f64 / 20_000.0 - 0.06).abs() < 0.01,
            "{counts:?}"
        );
        assert!(
            (counts[1] as f64 / 20_000.0 - 0.47).abs() < 0.02,
            "{counts:?}"
        );
        let unbet = view("", 0, [100, 100], 0);
        for hand in 0..2_000 {
            assert_ne!(bot.act(&BotView { hand, ..unbet }, &unseen()), Action::Fold);
        }
        // The same seed and hand give the same decisions.
        let mut again = RandomBot::new(3);
        let mut first = RandomBot::new(3);
        for hand in [5, 9, 5] {
            let v = BotView { hand, ..facing };
            assert_eq!(first.act(&v, &unseen()), again.act(&v, &unseen()));
        }
    }

    #[test]
    fn the_simple_bots() {
        let v = view("", 0, [100, 300], 0);
        assert_eq!(AlwaysCall.act(&v, &unseen()), Action::Call);
        assert_eq!(MinRaise.act(&v, &unseen()), Action::RaiseTo(400));
        assert_eq!(AllIn.act(&v, &unseen()), Action::RaiseTo(20_000));
        let none = BotView {
            raise_range: None,
            ..v
        };
        assert_eq!(MinRaise.act(&none, &unseen()), Action::Call);
        assert_eq!(AllIn.act(&none, &unseen()), Action::Call);
    }

    #[test]
    fn specs_parse_with_clear_errors() {
        assert_eq!(parse_bot("call").unwrap().name(), "call");
        assert_eq!(parse_bot("always-call").unwrap().name(), "call");
        assert_eq!(parse_bot("random:seed=9").unwrap().name(), "random");
        assert!(matches!(
            parse_bot("equity:samples=300,seed=2"),
            Ok(Baseline::Equity(EquityBot {
                seed: 2,
                samples: 300
            }))
        ));
        assert_eq!(
            parse_bot("bluff").err(),
            Some(SpecError::UnknownBot("bluff"))
        );
        assert_eq!(
            parse_bot("call:seed=1").err(),
            Some(SpecError::UnknownOption {
                bot: "call",
                key: "seed"
            })
        );
        assert_eq!(
            parse_bot("random:seed").err(),
            Some(SpecError::NotKeyValue("seed"))
        );
        assert!(matches!(
            parse_bot("equity:samples=0"),
            Err(SpecError::BadNumber { .. })
        ));
        assert!(matches!(
            parse_bot("random:seed=-1"),
            Err(SpecError::BadNumber { .. })
        ));
        #[cfg(feature = "std")]
        assert!(matches!(
            parse_bot("staged:samples=8,seed=3,raises=1,exact-turn=0"),
            Ok(Baseline::Staged(bot)) if *bot.settings() == StagedSettings {
                seed: 3,
                flop_samples: 8,
                exact_turn: false,
                max_raises_per_round: 1,
                ..StagedSettings::default()
            }
        ));
        assert!(matches!(
            parse_bot("staged:samples=2"),
            Err(SpecError::BadNumber { .. })
        ));
        #[cfg(feature = "std")]
        assert!(matches!(
            parse_bot("staged:opponent=online,resolve=50,style=rock"),
            Ok(Baseline::Staged(bot)) if bot.settings().river_resolve_iterations == 50
                && bot.settings().turn_resolve_iterations == 0
        ));
        #[cfg(feature = "std")]
        assert!(matches!(
            parse_bot("staged:resolve=40,resolve-turn=20"),
            Ok(Baseline::Staged(bot)) if bot.settings().river_resolve_iterations == 40
                && bot.settings().turn_resolve_iterations == 20
        ));
        assert!(matches!(
            parse_bot("staged:resolve-turn=10001"),
            Err(SpecError::BadNumber {
                key: "resolve-turn",
                ..
            })
        ));
        assert!(matches!(
            parse_bot("staged:opponent=gpt"),
            Err(SpecError::BadChoice { .. })
        ));
        #[cfg(not(feature = "std"))]
        assert!(matches!(
            parse_bot("staged"),
            Err(SpecError::NeedsStd("staged"))
        ));
        assert_eq!(
            parse_bot("expert:style=maniac,seed=4").unwrap().name(),
            "expert"
        );
        assert!(matches!(
            parse_bot("expert:style=2/0/0/0"),
            Err(SpecError::BadStyle { .. })
        ));
        let message = parse_bot("x:y=1").unwrap_err().to_string();
        assert!(message.contains("unknown bot 'x'"), "{message}");
    }
}
