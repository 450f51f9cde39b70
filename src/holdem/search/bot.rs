//! The staged-search bot: preflop by a preflop policy (the equity bot until the expert
//! chart lands), from the flop on by [`search`](super::search) over the opponent's range,
//! tracked by Bayes under the opponent model; optionally, on the river, by re-solving the
//! river with CFR from both players' ranges
//! ([`RiverSolver`](crate::holdem::resolve::RiverSolver): the EXP+CFR variant), and on the
//! turn by a depth-limited re-solve of the turn
//! ([`TurnSolver`](crate::holdem::resolve::TurnSolver)).
use super::buckets::{Bucketed, MAX_STRENGTH_LEVELS};
use super::models::StrengthModel;
use super::{ChanceMode, SearchConfig, expert_choice, opponent_range_until, search_until};
use crate::holdem::bots::{BotView, DEFAULT_EQUITY_SAMPLES, EquityBot, HoldemBot};
use crate::holdem::learned::{LearnedError, LearnedPart, LearnedReader, LearnedWriter};
use crate::holdem::policy::ActionModel;
use crate::holdem::range::Range;
use crate::holdem::resolve::{BetAbstraction, Resolver, RiverShowdown, Showdown, TurnShowdown};
use crate::holdem::rules::{Action, HandState, Position, Street};
use crate::rng::stream_seed;
use crate::search::game::seeded_rng;
use crate::search::mcts::{Never, Stop};

/// Where the re-solvers keep their regrets, strategy sums (and on the turn the river orders):
/// a slice of at least the length asked for, or `None` when there is no room (the bot then
/// searches instead).
pub trait ResolveStorage {
    /// At least `len` values.
    fn values(&mut self, len: usize) -> Option<&mut [f32]>;
}

/// No storage: the bot never re-solves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoResolveStorage;

impl ResolveStorage for NoResolveStorage {
    fn values(&mut self, _len: usize) -> Option<&mut [f32]> {
        None
    }
}

impl ResolveStorage for &mut [f32] {
    fn values(&mut self, len: usize) -> Option<&mut [f32]> {
        self.get_mut(..len)
    }
}

/// Grows to what each re-solve needs (a river tree with the default bets needs about
/// 150,000 values, 0.6 MB; a turn tree more, with a row of 1,326 per both-in leaf and the
/// river orders' 51,888 values).
#[cfg(any(feature = "std", test))]
impl ResolveStorage for std::vec::Vec<f32> {
    fn values(&mut self, len: usize) -> Option<&mut [f32]> {
        if self.len() < len {
            self.resize(len, 0.0);
        }
        self.get_mut(..len)
    }
}

/// The staged bot's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StagedSettings {
    /// Seeds the sampled deals and the preflop policy.
    pub seed: u64,
    /// Cards drawn at each deal when searching from the flop (3..=48).
    pub flop_samples: u8,
    /// Whether the turn's river card is enumerated (else sampled like the flop's).
    pub exact_turn: bool,
    /// The most raises per round in the tree when searching from the turn or the river.
    pub max_raises_per_round: u8,
    /// The most raises per round in the tree when searching from the flop, whose tree spans
    /// three rounds (a smaller cap keeps it within the time budget).
    pub flop_max_raises_per_round: u8,
    /// Opponent branches below this reach-weighted probability are dropped.
    pub min_branch_probability: f32,
    /// CFR+ iterations of a river re-solve (0: the river is searched like the turn). A
    /// re-solve with the default bets costs about 1.6 ms an iteration.
    pub river_resolve_iterations: u16,
    /// CFR+ iterations of a depth-limited turn re-solve (0: the turn is searched). A
    /// re-solve stopped before all its iterations (a deadline) leaves the decision to the
    /// search.
    pub turn_resolve_iterations: u16,
    /// Betting rounds, from the current one, whose opponent nodes the opponent model plays
    /// (1 to 4); later rounds' opponent nodes are played by our own model, the expert
    /// library, which is cheap where a network is not.
    pub opponent_model_rounds: u8,
    /// At the search's opponent nodes played by the opponent model, holdings are bucketed by
    /// strength into this many levels (each split by flush draws) and the model is asked
    /// once per bucket ([`Bucketed`]); 0 asks it about every holding. Range tracking always
    /// asks about every holding.
    pub model_bucket_levels: u8,
}

impl Default for StagedSettings {
    fn default() -> Self {
        StagedSettings {
            seed: 1,
            flop_samples: 4,
            exact_turn: true,
            max_raises_per_round: 1,
            flop_max_raises_per_round: 1,
            min_branch_probability: 0.02,
            river_resolve_iterations: 0,
            turn_resolve_iterations: 0,
            opponent_model_rounds: 4,
            model_bucket_levels: 0,
        }
    }
}

impl StagedSettings {
    /// Sets the option `key` of a bot spec from `value`: `samples` (cards per deal from the
    /// flop, 3 to 48), `raises` and `flop-raises` (0 to 8), `exact-turn` (0 or 1),
    /// `model-rounds` (1 to 4), `model-buckets` (0 to [`MAX_STRENGTH_LEVELS`]). `false`
    /// for another key or a value out of range, with nothing changed.
    pub fn set(&mut self, key: &str, value: &str) -> bool {
        let Ok(number) = value.parse::<u8>() else {
            return false;
        };
        match key {
            "samples" if (3..=48).contains(&number) => self.flop_samples = number,
            "raises" if number <= 8 => self.max_raises_per_round = number,
            "flop-raises" if number <= 8 => self.flop_max_raises_per_round = number,
            "exact-turn" if number <= 1 => self.exact_turn = number == 1,
            "model-rounds" if (1..=4).contains(&number) => self.opponent_model_rounds = number,
            "model-buckets" if number <= MAX_STRENGTH_LEVELS => self.model_bucket_levels = number,
            _ => return false,
        }
        true
    }

    /// The search settings for `street` (not preflop).
    pub fn config(&self, street: Street, seed: u64) -> SearchConfig {
        let sampled = ChanceMode::Sampled {
            cards_per_deal: self.flop_samples.max(3),
        };
        let chance = match street {
            Street::Turn if self.exact_turn => ChanceMode::Exact,
            Street::River => ChanceMode::Exact,
            _ => sampled,
        };
        SearchConfig {
            chance,
            max_raises_per_round: if street == Street::Flop {
                self.flop_max_raises_per_round
            } else {
                self.max_raises_per_round
            },
            min_branch_probability: self.min_branch_probability,
            seed,
        }
    }
}

/// Plays preflop by a preflop bot (the equity bot by default), then by the staged search with `Opponent` as the model
/// of the opponent's actions (for its nodes and its range) and `Own` as our policy below the
/// root. The defaults are the stand-in [`StrengthModel`] for both. With
/// [`StagedSettings::river_resolve_iterations`] and room in `Storage`, the river is
/// re-solved by CFR from the two ranges instead (ours by Bayes under `Own`, as the opponent
/// would track it); with [`StagedSettings::turn_resolve_iterations`], the turn likewise, its
/// leaves valued by checking the river down. `Preflop` plays before the flop, and wherever the search cannot
/// decide.
#[derive(Clone, Debug)]
pub struct StagedBot<
    Opponent = StrengthModel,
    Own = StrengthModel,
    Storage = NoResolveStorage,
    Preflop = EquityBot,
> {
    settings: StagedSettings,
    opponent: Opponent,
    own: Own,
    preflop: Preflop,
    storage: Storage,
}

impl StagedBot {
    /// The bot with the stand-in models.
    pub fn new(settings: StagedSettings) -> StagedBot {
        StagedBot::with_models(settings, StrengthModel::default(), StrengthModel::default())
    }
}

impl<Opponent: ActionModel, Own: ActionModel> StagedBot<Opponent, Own> {
    /// The bot with these models.
    pub fn with_models(settings: StagedSettings, opponent: Opponent, own: Own) -> Self {
        StagedBot::with_storage(settings, opponent, own, NoResolveStorage)
    }
}

impl<Opponent: ActionModel, Own: ActionModel, Storage: ResolveStorage>
    StagedBot<Opponent, Own, Storage>
{
    /// The bot with these models and storage for river re-solves, playing preflop by the
    /// equity bot.
    pub fn with_storage(
        settings: StagedSettings,
        opponent: Opponent,
        own: Own,
        storage: Storage,
    ) -> Self {
        StagedBot {
            settings,
            opponent,
            own,
            preflop: EquityBot::new(settings.seed, DEFAULT_EQUITY_SAMPLES),
            storage,
        }
    }

    /// The same bot playing preflop (and where the search cannot decide) by `preflop`.
    pub fn with_preflop<P: HoldemBot>(self, preflop: P) -> StagedBot<Opponent, Own, Storage, P> {
        StagedBot {
            settings: self.settings,
            opponent: self.opponent,
            own: self.own,
            preflop,
            storage: self.storage,
        }
    }
}

impl<Opponent: ActionModel, Own: ActionModel, Storage: ResolveStorage, Preflop: HoldemBot>
    StagedBot<Opponent, Own, Storage, Preflop>
{
    /// The settings.
    pub fn settings(&self) -> &StagedSettings {
        &self.settings
    }

    /// The action by a CFR re-solve of the river or the turn, or `None` when re-solving is
    /// off on this street, there is no room, or the spot cannot be re-solved (the bot then
    /// searches).
    fn resolve(
        &mut self,
        view: &BotView,
        seen: &HandState,
        their_range: &Range,
        seed: u64,
        stop: &mut dyn Stop,
    ) -> Option<Action> {
        let iterations = match seen.street() {
            Street::River => self.settings.river_resolve_iterations,
            Street::Turn => self.settings.turn_resolve_iterations,
            _ => 0,
        };
        if iterations == 0 {
            return None;
        }
        let me = view.position;
        // Our range as the opponent would track it: our actions under our own policy.
        let mut hidden = seen.clone();
        hidden.forget_hole_cards(me);
        let own_range = opponent_range_until(&hidden, 1 - me, &self.own, stop)?;
        let mut ranges = [&own_range, their_range];
        if me == 1 {
            ranges.swap(0, 1);
        }
        let bets = BetAbstraction::default();
        let iterations = u32::from(iterations);
        let storage = &mut self.storage;
        if seen.street() == Street::River {
            // A stopped river re-solve plays the average of the iterations it finished; with
            // none, the search answers (from the same, fired, stop: the expert's action).
            let run = Run::new(iterations, 1, view, seen, seed);
            return resolved_action::<RiverShowdown>(storage, ranges, &bets, run, stop);
        }
        // A turn re-solve costs about 11 million instructions an iteration: one cut short by the
        // deadline leaves the decision to the search.
        let run = Run::new(iterations, iterations, view, seen, seed);
        resolved_action::<TurnShowdown>(storage, ranges, &bets, run, stop)
    }
}

/// How to run a re-solve and draw from it: `iterations` under the stop, at least `needed` of
/// them for an answer, the draw for our holding seeded by `seed`.
struct Run<'a> {
    iterations: u32,
    needed: u32,
    view: &'a BotView,
    seen: &'a HandState,
    seed: u64,
}

impl<'a> Run<'a> {
    fn new(
        iterations: u32,
        needed: u32,
        view: &'a BotView,
        seen: &'a HandState,
        seed: u64,
    ) -> Self {
        Run {
            iterations,
            needed,
            view,
            seen,
            seed,
        }
    }

    /// Solves and draws the action for our holding, or `None` when fewer than `needed`
    /// iterations ran.
    fn play<'v, S: Showdown<'v>>(
        &self,
        solver: &mut Resolver<'v, S>,
        stop: &mut dyn Stop,
    ) -> Option<Action> {
        if solver.solve_until(self.iterations, stop) < self.needed {
            return None;
        }
        let action = solver
            .choose(self.view.hole, &mut seeded_rng(self.seed))
            .ok()?;
        self.seen.is_legal(action).then_some(action)
    }
}

/// Makes a re-solver over `storage` and plays `run` from it. Not inlined, one copy per
/// street: the caller's frame holds no solver (each keeps tens of kilobytes of vectors), so
/// the bot's stack needs one at a time.
#[inline(never)]
fn resolved_action<'v, S: Showdown<'v>>(
    storage: &'v mut impl ResolveStorage,
    ranges: [&Range; 2],
    bets: &BetAbstraction,
    run: Run<'_>,
    stop: &mut dyn Stop,
) -> Option<Action> {
    let values = storage.values(Resolver::<S>::values_len(run.seen, bets).ok()?)?;
    // Borrowed where it was made: a move would copy the solver's vectors in this frame.
    match Resolver::<S>::new(run.seen, ranges, bets, values) {
        Ok(ref mut solver) => run.play(solver, stop),
        Err(_) => None,
    }
}

impl<
    Opponent: ActionModel + LearnedPart,
    Own: ActionModel,
    Storage: ResolveStorage,
    Preflop: HoldemBot,
> HoldemBot for StagedBot<Opponent, Own, Storage, Preflop>
{
    fn name(&self) -> &str {
        "staged"
    }

    // Not inlined into a caller that dispatches among bots (`Baseline`): the search's vectors
    // would make every bot's call reserve its stack.
    #[inline(never)]
    fn act(&mut self, view: &BotView, seen: &HandState) -> Action {
        self.act_until(view, seen, &mut Never)
    }

    /// The re-solve stops between CFR+ iterations and the search between opponent nodes
    /// and cards ([`search_until`]: the best of the root actions measured, the expert's
    /// first); preflop (and wherever the search cannot decide) the preflop bot decides
    /// under the same stop (the equity bot's sampling polls it; the expert bot's chart rule
    /// is a bounded computation, docs/holdem-bot.md).
    #[inline(never)]
    fn act_until(&mut self, view: &BotView, seen: &HandState, stop: &mut dyn Stop) -> Action {
        let me = view.position;
        // The search needs the hand itself; a view that does not match it (a caller that
        // passes only the summary) falls back to the preflop policy.
        let consistent = seen.to_act() == Some(me) && seen.hole_cards(me) == Some(view.hole);
        if seen.street() == Street::Preflop || !consistent {
            return self.preflop.act_until(view, seen, stop);
        }
        // Each decision's samples depend on the hand and the situation only.
        let situation = (seen.action_count() as u64) << 8 | u64::from(view.board_len);
        let seed = stream_seed(stream_seed(self.settings.seed, view.hand), situation);
        let config = self.settings.config(seen.street(), seed);
        // Stopped while tracking the range: no search can run, the expert's action is played.
        let Some(range) = opponent_range_until(seen, me, &self.opponent, stop) else {
            let action = expert_choice(seen, me, &self.own, config);
            return if seen.is_legal(action) {
                action
            } else {
                self.preflop.act_until(view, seen, stop)
            };
        };
        if let Some(action) = self.resolve(view, seen, &range, seed, stop) {
            return action;
        }
        let bucketed;
        let near: &dyn ActionModel = match self.settings.model_bucket_levels {
            0 => &self.opponent,
            levels => {
                bucketed = Bucketed::new(&self.opponent, levels);
                &bucketed
            }
        };
        let opponent = NearRounds {
            near,
            far: &self.own,
            last_board_len: Street::ALL
                .get(seen.street().index() + usize::from(self.settings.opponent_model_rounds) - 1)
                .map_or(5, |street| street.board_cards()),
        };
        match search_until(seen, me, &range, &opponent, &self.own, config, stop) {
            Ok(result) if seen.is_legal(result.best.action) => result.best.action,
            _ => self.preflop.act_until(view, seen, stop),
        }
    }

    fn hand_over(&mut self, seen: &HandState, position: Position) {
        self.preflop.hand_over(seen, position);
        self.opponent.observe_hand(seen, position);
    }

    /// What the preflop bot learned, then what the opponent model learned: the two parts
    /// `hand_over` teaches.
    fn write_learned(&self, out: &mut LearnedWriter<'_>) {
        self.preflop.write_learned(out);
        self.opponent.write_learned(out);
    }

    fn read_learned(&mut self, input: &mut LearnedReader<'_>) -> Result<(), LearnedError> {
        self.preflop.read_learned(input)?;
        self.opponent.read_learned(input)
    }
}

/// `near` for the hands whose board has at most `last_board_len` cards, `far` after.
struct NearRounds<'a> {
    near: &'a dyn ActionModel,
    far: &'a dyn ActionModel,
    last_board_len: usize,
}

impl ActionModel for NearRounds<'_> {
    fn predict(&self, hand: &HandState) -> crate::holdem::policy::ClassProbabilities {
        if hand.board().len() <= self.last_board_len {
            self.near.predict(hand)
        } else {
            self.far.predict(hand)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::bots::AlwaysCall;
    use crate::holdem::deal::Dealer;
    use crate::holdem::rules::HoldemConfig;
    use crate::holdem::search::opponent_range;

    /// Plays `hands` hands of the staged bot (position 0) against `other`, checking that
    /// every action is legal; returns the staged bot's actions after preflop.
    fn play(bot: &mut StagedBot, other: &mut dyn HoldemBot, hands: u64) -> Vec<Action> {
        let mut dealer = Dealer::new(11);
        let mut postflop = Vec::new();
        for number in 0..hands {
            let deal = dealer.next_hand();
            let mut hand = HandState::new(HoldemConfig::ACPC);
            hand.deal_hole_cards(0, deal.holes[0]).unwrap();
            hand.deal_hole_cards(1, deal.holes[1]).unwrap();
            while !hand.is_over() {
                if hand.board_cards_due() > 0 {
                    let next = deal.board[hand.board().len()];
                    hand.deal_board_card(next).unwrap();
                    continue;
                }
                let actor = hand.to_act().unwrap();
                let view = BotView::from_state(&hand, actor, number).unwrap();
                let seen = hand.seen_by(actor);
                let action = if actor == 0 {
                    let action = bot.act(&view, &seen);
                    if hand.street() != Street::Preflop {
                        postflop.push(action);
                    }
                    action
                } else {
                    other.act(&view, &seen)
                };
                hand.apply(action).unwrap();
            }
        }
        postflop
    }

    #[test]
    fn plays_legal_actions_and_searches_after_the_flop() {
        let settings = StagedSettings {
            flop_samples: 3,
            exact_turn: false,
            ..StagedSettings::default()
        };
        let mut bot = StagedBot::new(settings);
        let postflop = play(&mut bot, &mut AlwaysCall, 6);
        assert!(!postflop.is_empty());
        // The same seed plays the same way.
        let again = play(&mut StagedBot::new(settings), &mut AlwaysCall, 6);
        assert_eq!(postflop, again);
    }

    #[test]
    fn re_solves_the_river_only_with_iterations_and_room() {
        let card = |text: &str| crate::holdem::card::Card::parse(text).unwrap();
        let mut hand = HandState::new(HoldemConfig::ACPC);
        hand.deal_hole_cards(0, [card("Ah"), card("Ad")]).unwrap();
        hand.deal_hole_cards(1, [card("7c"), card("2d")]).unwrap();
        hand.apply(Action::Call).unwrap();
        hand.apply(Action::Call).unwrap();
        for board in ["As", "Kd", "9c", "4h", "3s"] {
            while hand.board_cards_due() == 0 {
                hand.apply(Action::Call).unwrap();
            }
            hand.deal_board_card(card(board)).unwrap();
        }
        let seen = hand.seen_by(0);
        let view = BotView::from_state(&seen, 0, 5).unwrap();
        let range = opponent_range(&seen, 0, &StrengthModel::default());
        let settings = StagedSettings {
            river_resolve_iterations: 20,
            ..StagedSettings::default()
        };
        let mut storage = [0.0f32; 0];
        let mut bot = StagedBot::with_storage(
            settings,
            StrengthModel::default(),
            StrengthModel::default(),
            &mut storage[..],
        );
        // No room in an empty slice: the bot falls back to the search.
        assert_eq!(bot.resolve(&view, &seen, &range, 1, &mut Never), None);
        let mut bot = StagedBot::with_storage(
            settings,
            StrengthModel::default(),
            StrengthModel::default(),
            Vec::new(),
        );
        let action = bot.resolve(&view, &seen, &range, 1, &mut Never).unwrap();
        assert!(seen.is_legal(action));
        // Trip aces never give up the pot: the re-solve checks or bets, it never folds.
        assert_ne!(action, Action::Fold);
        let played = bot.act(&view, &seen);
        assert!(seen.is_legal(played) && played != Action::Fold);
        // The same seed re-solves to the same action.
        assert_eq!(
            bot.resolve(&view, &seen, &range, 1, &mut Never),
            Some(action)
        );
        let off = StagedSettings::default();
        let mut bot = StagedBot::with_storage(
            off,
            StrengthModel::default(),
            StrengthModel::default(),
            Vec::new(),
        );
        assert_eq!(bot.resolve(&view, &seen, &range, 1, &mut Never), None);
    }

    /// Position 0 holds `hole`, position 1 `7c 2d`; everyone checks until `board` is dealt.
    fn checked_until(hole: [&str; 2], board: &[&str]) -> HandState {
        let card = |text: &str| crate::holdem::card::Card::parse(text).unwrap();
        let mut hand = HandState::new(HoldemConfig::ACPC);
        hand.deal_hole_cards(0, [card(hole[0]), card(hole[1])])
            .unwrap();
        hand.deal_hole_cards(1, [card("7c"), card("2d")]).unwrap();
        hand.apply(Action::Call).unwrap();
        hand.apply(Action::Call).unwrap();
        for text in board {
            while hand.board_cards_due() == 0 {
                hand.apply(Action::Call).unwrap();
            }
            hand.deal_board_card(card(text)).unwrap();
        }
        hand
    }

    #[test]
    fn re_solves_the_turn_with_its_option_and_no_other_street() {
        let turn_only = StagedSettings {
            turn_resolve_iterations: 4,
            flop_samples: 3,
            ..StagedSettings::default()
        };
        let off = StagedSettings {
            flop_samples: 3,
            ..StagedSettings::default()
        };
        let with_room = |settings| {
            StagedBot::with_storage(
                settings,
                StrengthModel::default(),
                StrengthModel::default(),
                Vec::new(),
            )
        };
        let hand = checked_until(["Ah", "Kh"], &["Qh", "9h", "4c", "2s"]);
        let seen = hand.seen_by(0);
        let view = BotView::from_state(&seen, 0, 7).unwrap();
        let range = opponent_range(&seen, 0, &StrengthModel::default());
        let mut bot = with_room(turn_only);
        let action = bot
            .resolve(&view, &seen, &range, 1, &mut Never)
            .expect("the turn is re-solved");
        assert!(seen.is_legal(action), "{action:?}");
        // The nut flush draw with two overs never folds to no bet.
        assert_ne!(action, Action::Fold);
        assert_eq!(
            bot.resolve(&view, &seen, &range, 1, &mut Never),
            Some(action)
        );
        assert!(seen.is_legal(bot.act(&view, &seen)));
        // Without the option, or without room, the turn is searched.
        assert_eq!(
            with_room(off).resolve(&view, &seen, &range, 1, &mut Never),
            None
        );
        let mut no_room = StagedBot::new(turn_only);
        assert_eq!(no_room.resolve(&view, &seen, &range, 1, &mut Never), None);
        // A re-solve stopped before its last iteration leaves the decision to the search.
        let mut polls = 0u32;
        let mut counting = |_: u32| {
            polls += 1;
            false
        };
        assert!(
            bot.resolve(&view, &seen, &range, 1, &mut counting)
                .is_some()
        );
        let mut asked = 0u32;
        let mut at_last = |_: u32| {
            asked += 1;
            asked >= polls
        };
        assert_eq!(bot.resolve(&view, &seen, &range, 1, &mut at_last), None);
        // On the flop and the river the option changes nothing.
        for board in [&["Qh", "9h", "4c"][..], &["Qh", "9h", "4c", "2s", "Td"][..]] {
            let hand = checked_until(["Ah", "Kh"], board);
            let seen = hand.seen_by(0);
            let view = BotView::from_state(&seen, 0, 7).unwrap();
            let range = opponent_range(&seen, 0, &StrengthModel::default());
            let mut bot = with_room(turn_only);
            assert_eq!(bot.resolve(&view, &seen, &range, 1, &mut Never), None);
            assert_eq!(bot.act(&view, &seen), with_room(off).act(&view, &seen));
        }
    }

    #[test]
    fn a_budget_cuts_the_decision_short_and_a_loose_one_changes_nothing() {
        let card = |text: &str| crate::holdem::card::Card::parse(text).unwrap();
        let mut hand = HandState::new(HoldemConfig::ACPC);
        hand.deal_hole_cards(0, [card("Ah"), card("Kh")]).unwrap();
        hand.deal_hole_cards(1, [card("7c"), card("2d")]).unwrap();
        hand.apply(Action::Call).unwrap();
        hand.apply(Action::Call).unwrap();
        for board in ["Kd", "7s", "2h"] {
            hand.deal_board_card(card(board)).unwrap();
        }
        assert_eq!(hand.to_act(), Some(0));
        let seen = hand.seen_by(0);
        let view = BotView::from_state(&seen, 0, 3).unwrap();
        let settings = StagedSettings {
            flop_samples: 3,
            ..StagedSettings::default()
        };
        let planned = StagedBot::new(settings).act(&view, &seen);
        let mut polls = 0u32;
        let mut counting = |_: u32| {
            polls += 1;
            false
        };
        let loose = StagedBot::new(settings).act_until(&view, &seen, &mut counting);
        assert_eq!(loose, planned);
        assert!(polls > 4, "the search polls as it goes: {polls}");
        for k in [0, 1, polls / 2] {
            let mut asked = 0u32;
            let mut after_k = |_: u32| {
                asked += 1;
                asked > k
            };
            let cut = StagedBot::new(settings).act_until(&view, &seen, &mut after_k);
            assert!(seen.is_legal(cut), "{cut:?}");
            assert_eq!(asked, k + 1, "stops polling once stopped");
        }
    }

    #[test]
    fn the_opponent_model_plays_only_its_rounds() {
        use crate::holdem::search::models::{CallModel, UniformModel};
        let near = CallModel;
        let far = UniformModel;
        // The flop's round only: boards of 3 cards get `near`, 4 and 5 `far`.
        let flop_only = NearRounds {
            near: &near,
            far: &far,
            last_board_len: 3,
        };
        let card = |text: &str| crate::holdem::card::Card::parse(text).unwrap();
        let mut hand = HandState::new(HoldemConfig::ACPC);
        hand.apply(Action::Call).unwrap();
        hand.apply(Action::Call).unwrap();
        for board in ["As", "Kd", "9c"] {
            hand.deal_board_card(card(board)).unwrap();
        }
        assert_eq!(flop_only.predict(&hand), near.predict(&hand));
        hand.apply(Action::Call).unwrap();
        hand.apply(Action::Call).unwrap();
        hand.deal_board_card(card("4h")).unwrap();
        assert_eq!(flop_only.predict(&hand), far.predict(&hand));
        assert_ne!(near.predict(&hand), far.predict(&hand));
        let mut settings = StagedSettings::default();
        assert!(settings.set("model-rounds", "1"));
        assert_eq!(settings.opponent_model_rounds, 1);
        assert!(!settings.set("model-rounds", "0"));
        assert!(!settings.set("model-rounds", "5"));
        assert!(settings.set("model-buckets", "24"));
        assert_eq!(settings.model_bucket_levels, 24);
        assert!(settings.set("model-buckets", "0"));
        assert!(!settings.set("model-buckets", "65"));
        assert!(!settings.set("model-buckets", "-1"));
        assert_eq!(settings.model_bucket_levels, 0);
    }
}
