//! The population of bots whose hands train and test the opponent models: the baselines
//! (`call`, `min-raise`, `all-in`, `random[:seed=S]`, `equity[:samples=N,seed=S]`) and
//! `style:seed=S`, an equity-threshold bot whose thresholds, bluff rate and bet sizes are
//! drawn from its seed, so that each seed is a different style of play. A population is a
//! list of specs, so that other bots (the expert bot's styles) join by adding a spec here.
use rand_core::Rng;
use rand_xorshift::XorShiftRng;

use crate::holdem::bots::{Baseline, BotView, HoldemBot, equity, parse_bot};
use crate::holdem::rules::{Action, HandState};
use crate::rng::stream_seed;
use crate::search::game::seeded_rng;

/// The training population when none is given.
pub const DEFAULT_POPULATION: &str = "call;min-raise;all-in;random:seed=3;equity:samples=200;\
     style:seed=1;style:seed=2;style:seed=3;style:seed=4;style:seed=5;style:seed=6;\
     style:seed=7;style:seed=8";

/// The bot held out of training when none is given.
pub const DEFAULT_HOLDOUT: &str = "style:seed=9";

/// Samples of the equity estimate preflop and on the flop (exact on the turn and river).
const STYLE_EQUITY_SAMPLES: u32 = 150;

/// A member of the population.
#[derive(Clone, Debug)]
// A seat's bot is made once per match; boxing it would only move the copy.
#[allow(clippy::large_enum_variant)]
pub enum Member {
    Baseline(Baseline),
    Style(StyleBot),
}

impl HoldemBot for Member {
    fn name(&self) -> &str {
        match self {
            Member::Baseline(bot) => bot.name(),
            Member::Style(bot) => bot.name(),
        }
    }
    fn act(&mut self, view: &BotView, seen: &HandState) -> Action {
        match self {
            Member::Baseline(bot) => bot.act(view, seen),
            Member::Style(bot) => bot.act(view, seen),
        }
    }
}

/// Reads one spec: `style:seed=S` or a baseline spec.
pub fn parse_member(spec: &str) -> Result<Member, String> {
    if let Some(options) = spec.strip_prefix("style") {
        let seed = match options {
            "" => 1,
            _ => options
                .strip_prefix(":seed=")
                .and_then(|s| s.parse::<u64>().ok())
                .ok_or_else(|| format!("'{spec}': a style bot is style[:seed=S]"))?,
        };
        return Ok(Member::Style(StyleBot::new(seed)));
    }
    parse_bot(spec)
        .map(Member::Baseline)
        .map_err(|error| format!("'{spec}': {error} (or style[:seed=S])"))
}

/// Reads a `;`-separated list of specs.
pub fn parse_population(list: &str) -> Result<Vec<(String, Member)>, String> {
    let specs: Vec<&str> = list
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if specs.len() < 2 {
        return Err(format!(
            "the population '{list}' needs at least two bots, separated by ';'"
        ));
    }
    specs
        .into_iter()
        .map(|spec| parse_member(spec).map(|bot| (spec.to_owned(), bot)))
        .collect()
}

/// An equity-threshold bot with a style drawn from its seed.
#[derive(Clone, Debug)]
pub struct StyleBot {
    seed: u64,
    /// Raise above this equity.
    pub raise_at: f64,
    /// Bet (when unbet) above this equity.
    pub bet_at: f64,
    /// Move all-in above this equity.
    pub shove_at: f64,
    /// The chance of betting or raising regardless of the cards.
    pub bluff: f64,
    /// Added to the equity when comparing it with the pot odds (loose when positive).
    pub looseness: f64,
    /// Raise size as a fraction of the pot after calling.
    pub raise_pot: f64,
    /// Bet size as a fraction of the pot.
    pub bet_pot: f64,
}

impl StyleBot {
    pub fn new(seed: u64) -> StyleBot {
        let mut rng = seeded_rng(stream_seed(seed, 0x0057_171e));
        let mut unit = |low: f64, high: f64| {
            low + (high - low) * (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
        };
        let raise_at = unit(0.55, 0.85);
        let bet_at = unit(0.45, 0.75);
        let shove_at = unit(0.82, 0.98);
        let bluff = unit(0.0, 0.25);
        let looseness = unit(-0.1, 0.15);
        let raise_pot = [0.5, 1.0, 2.0][(unit(0.0, 3.0) as usize).min(2)];
        let bet_pot = [0.33, 0.5, 1.0][(unit(0.0, 3.0) as usize).min(2)];
        StyleBot {
            seed,
            raise_at,
            bet_at,
            shove_at,
            bluff,
            looseness,
            raise_pot,
            bet_pot,
        }
    }

    fn rng(&self, view: &BotView) -> XorShiftRng {
        // One stream per decision, like the equity bot's.
        let situation = (u64::from(view.board_len) << 40)
            ^ (u64::from(view.committed[0]) << 20)
            ^ u64::from(view.committed[1]);
        seeded_rng(stream_seed(stream_seed(self.seed, view.hand), situation))
    }
}

impl HoldemBot for StyleBot {
    fn name(&self) -> &str {
        "style"
    }
    fn act(&mut self, view: &BotView, _seen: &HandState) -> Action {
        let mut rng = self.rng(view);
        let equity = equity(&view.hole, view.board(), STYLE_EQUITY_SAMPLES, &mut rng);
        let bluffing = ((rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64) < self.bluff;
        let pot = f64::from(view.pot());
        let to_call = f64::from(view.to_call());
        let bet = f64::from(view.current_bet());
        if let Some((_, high)) = view.raise_range {
            if equity > self.shove_at {
                return Action::RaiseTo(high);
            }
            let pot_after_call = pot + to_call;
            if equity > self.raise_at || (bluffing && to_call > 0.0) {
                return view.raise_or_call((bet + self.raise_pot * pot_after_call) as u32);
            }
            if to_call == 0.0 && (equity > self.bet_at || bluffing) {
                return view.raise_or_call((bet + self.bet_pot * pot) as u32);
            }
        }
        if to_call == 0.0 {
            return Action::Call;
        }
        let odds = to_call / (pot + to_call);
        if equity + self.looseness >= odds || !view.can_fold {
            Action::Call
        } else {
            Action::Fold
        }
    }
}
