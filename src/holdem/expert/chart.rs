//! The preflop chart: for each hand class and each situation, an action class and a raise
//! size. Derived from the class-against-class equity table ([`super::preflop_equity`]): a
//! situation implies the opponent's range (the strongest share of hands that would have
//! acted so) and nominal bet sizes; a hand calls when its equity against that range, times
//! a realisation factor, pays the pot odds, and raises when its equity is high enough.
//! The style moves both thresholds. `arbor holdem chart` writes the balanced style's chart
//! to `data/chart.bin`, which the library ships; other styles derive theirs at start-up
//! (169 × 169 multiply-adds per situation, no allocation).
use super::classes::{CLASSES, HandClass};
use super::preflop_equity::{EquityTable, SHIPPED_TABLE};
use super::style::Style;
use crate::holdem::policy::ActionClass;
use crate::holdem::rules::{Action, HandState};

/// The betting situation of a preflop decision, by what the player to act faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Situation {
    /// The small blind, first to act.
    SbOpen = 0,
    /// The big blind after the small blind called (limped).
    BbVsLimp = 1,
    /// The first raise, to at most 3 big blinds.
    VsRaiseSmall = 2,
    /// The first raise, to at most 6 big blinds.
    VsRaiseMedium = 3,
    /// The first raise, larger (short of all-in).
    VsRaiseBig = 4,
    /// A re-raise (the second raise) to at most 3.5 times the bet it raised.
    Vs3BetSmall = 5,
    /// A larger re-raise.
    Vs3BetBig = 6,
    /// A third or later raise, short of all-in.
    Vs4Bet = 7,
    /// Any all-in.
    VsAllIn = 8,
}

/// How many [`Situation`]s there are.
pub const SITUATIONS: usize = 9;

/// Stack depth: the smaller starting stack, in big blinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Depth {
    /// At least [`SHORT_BELOW_BB`] big blinds.
    Deep = 0,
    /// Fewer: every raise is all-in.
    Short = 1,
}

/// Stacks below this many big blinds play the short chart.
pub const SHORT_BELOW_BB: u32 = 40;
/// Chart cells: classes × situations × depths.
pub const CELLS: usize = CLASSES * SITUATIONS * 2;
/// Bytes of the chart file: per cell, the action class and the size.
pub const CHART_FILE_BYTES: usize = CELLS * 2;

/// Nominal numbers of a situation, in big blinds: what the player must call, the pot once it
/// calls, the share of hands the opponent acts so with, and the raise-to as tenths of the
/// current bet (0: all-in).
struct Nominal {
    to_call: f32,
    pot_after_call: f32,
    range_share: f32,
    raise_tenths: u8,
}

const fn nominal(to_call: f32, pot_after_call: f32, range_share: f32, raise_tenths: u8) -> Nominal {
    Nominal {
        to_call,
        pot_after_call,
        range_share,
        raise_tenths,
    }
}

/// By situation, deep stacks (200 big blinds, ACPC). Ranges: the big blind defends with
/// everything, a limp is most hands, each raise tightens.
const NOMINAL: [Nominal; SITUATIONS] = [
    nominal(0.5, 2.0, 1.0, 25),
    nominal(0.0, 2.0, 0.85, 40),
    nominal(1.5, 5.0, 0.65, 30),
    nominal(3.5, 9.0, 0.4, 30),
    nominal(9.0, 20.0, 0.25, 0),
    nominal(5.0, 15.0, 0.25, 25),
    nominal(12.5, 30.0, 0.15, 0),
    nominal(12.5, 40.0, 0.08, 0),
    nominal(198.0, 400.0, 0.12, 0),
];

/// One cell of the chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChartAction {
    pub class: ActionClass,
    /// For a raise short of all-in: raise to this many tenths of the current bet.
    pub raise_tenths: u8,
}

impl ChartAction {
    const FOLD: ChartAction = ChartAction {
        class: ActionClass::Fold,
        raise_tenths: 0,
    };

    /// The legal action it means for the player to act in `hand`: the raise clamped to the
    /// legal range (a call when no raise is legal), a check for a fold when nothing is due.
    pub fn to_action(self, hand: &HandState) -> Action {
        let Some((low, high)) = hand.raise_bounds() else {
            return if self.class == ActionClass::Fold && hand.can_fold() {
                Action::Fold
            } else {
                Action::Call
            };
        };
        match self.class {
            ActionClass::Fold if hand.can_fold() => Action::Fold,
            ActionClass::Fold | ActionClass::Call => Action::Call,
            ActionClass::AllIn => Action::RaiseTo(high),
            _ => {
                let to = u64::from(hand.current_bet()) * u64::from(self.raise_tenths) / 10;
                Action::RaiseTo((to.min(u64::from(high)) as u32).clamp(low, high))
            }
        }
    }
}

/// The situation and depth of the player to act in `hand`, `None` after the preflop round
/// or when nobody is to act.
pub fn situation(hand: &HandState) -> Option<(Situation, Depth)> {
    let actor = hand.to_act()?;
    if hand.street() != crate::holdem::rules::Street::Preflop {
        return None;
    }
    let config = hand.config();
    let big_blind = config.big_blind().max(1);
    let depth = if config.stack(0).min(config.stack(1)) / big_blind < SHORT_BELOW_BB {
        Depth::Short
    } else {
        Depth::Deep
    };
    let opponent = actor ^ 1;
    if hand.behind(opponent) == 0 {
        return Some((Situation::VsAllIn, depth));
    }
    let mut raises = 0;
    let mut last_bet = big_blind;
    let mut previous_bet = big_blind;
    for action in hand.actions() {
        if let Action::RaiseTo(to) = action {
            raises += 1;
            previous_bet = last_bet;
            last_bet = to;
        }
    }
    let situation = match raises {
        0 if hand.action_count() == 0 => Situation::SbOpen,
        0 => Situation::BbVsLimp,
        1 if last_bet <= 3 * big_blind => Situation::VsRaiseSmall,
        1 if last_bet <= 6 * big_blind => Situation::VsRaiseMedium,
        1 => Situation::VsRaiseBig,
        2 if u64::from(last_bet) * 2 <= u64::from(previous_bet) * 7 => Situation::Vs3BetSmall,
        2 => Situation::Vs3BetBig,
        _ => Situation::Vs4Bet,
    };
    Some((situation, depth))
}

/// The opponent's implied range for a situation: the strongest `share` of all combos, by
/// equity against a uniform range (a partial weight on the class at the boundary).
pub fn top_range(share: f32, out: &mut [f32; CLASSES]) {
    fill_strongest_first(&SHIPPED_ORDER, share, out);
}

fn top_range_in(table: &EquityTable<'_>, share: f32, out: &mut [f32; CLASSES]) {
    fill_strongest_first(&strength_order_in(table), share, out);
}

/// Gives the classes of `order` (strongest first) their full weight until `share` of the
/// 1,326 combos is taken, the boundary class a partial weight, the rest 0.
fn fill_strongest_first(order: &[u8; CLASSES], share: f32, out: &mut [f32; CLASSES]) {
    let mut left = share.clamp(0.0, 1.0) * 1326.0;
    for &index in order {
        let combos = HandClass::from_index(index as usize).map_or(1.0, |c| c.combos() as f32);
        let weight = (left / combos).clamp(0.0, 1.0);
        out[index as usize] = weight;
        left -= weight * combos;
    }
}

/// The classes by index, strongest first (equity against a uniform range in `table`).
fn strength_order_in(table: &EquityTable<'_>) -> [u8; CLASSES] {
    let strength = strengths_in(table);
    let mut order = [0u8; CLASSES];
    for (slot, index) in order.iter_mut().zip(0u8..) {
        *slot = index;
    }
    order.sort_unstable_by(|a, b| strength[*b as usize].total_cmp(&strength[*a as usize]));
    order
}

/// Each class's equity against a uniform range.
pub fn strengths() -> [f32; CLASSES] {
    SHIPPED_STRENGTHS
}

fn strengths_in(table: &EquityTable<'_>) -> [f32; CLASSES] {
    let uniform = [1.0f32; CLASSES];
    let mut out = [0f32; CLASSES];
    for class in HandClass::all() {
        out[class.index()] = table.vs_classes(class, &uniform);
    }
    out
}

// The shipped table is constant, so are its strengths and their order: computed once, by the
// compiler, instead of at every preflop decision (they were 95% of its cost). The `const fn`s
// repeat `strengths_in` and `strength_order_in` operation for operation (IEEE arithmetic, the
// same order of the sums), and the tests check both give the same bits.

/// [`strengths`] of the shipped table, computed at compile time.
const SHIPPED_STRENGTHS: [f32; CLASSES] = const_strengths(&SHIPPED_TABLE);
/// [`strength_order_in`] of the shipped table, computed at compile time.
const SHIPPED_ORDER: [u8; CLASSES] = const_strength_order(&SHIPPED_STRENGTHS);

/// [`EquityTable::vs_classes`] against the uniform range for every class, as a `const fn`.
const fn const_strengths(table: &EquityTable<'_>) -> [f32; CLASSES] {
    let mut out = [0f32; CLASSES];
    let mut hero = 0;
    while hero < CLASSES {
        let (mut won, mut total) = (0f32, 0f32);
        let mut villain = 0;
        while villain < CLASSES {
            let combos = match HandClass::from_index(villain) {
                Some(class) => class.combos() as f32,
                None => 0.0,
            };
            let at = (hero * CLASSES + villain) * 2;
            let equity = u16::from_le_bytes([table.0[at], table.0[at + 1]]) as f32 / 65_535.0;
            let weight = 1.0 * combos;
            won += weight * equity;
            total += weight;
            villain += 1;
        }
        out[hero] = if total > 0.0 { won / total } else { 0.5 };
        hero += 1;
    }
    out
}

/// The class indices sorted by `strength`, strongest first, with `f32::total_cmp`'s order:
/// an insertion sort, which a `const fn` can run.
const fn const_strength_order(strength: &[f32; CLASSES]) -> [u8; CLASSES] {
    let mut order = [0u8; CLASSES];
    let mut next = 0;
    while next < CLASSES {
        let key = total_order_key(strength[next]);
        let mut at = next;
        while at > 0 && total_order_key(strength[order[at - 1] as usize]) < key {
            order[at] = order[at - 1];
            at -= 1;
        }
        order[at] = next as u8;
        next += 1;
    }
    order
}

/// An integer that orders floats as `f32::total_cmp` does (the same bit trick).
const fn total_order_key(value: f32) -> i32 {
    let bits = value.to_bits() as i32;
    bits ^ (((bits >> 31) as u32) >> 1) as i32
}

/// The decision for `class` in `situation` against an opponent range of the strongest
/// `range_share` of hands, for `style`.
pub fn decide(
    class: HandClass,
    situation: Situation,
    depth: Depth,
    style: &Style,
    range_share: f32,
) -> ChartAction {
    decide_with_odds(class, situation, depth, style, range_share, None)
}

/// [`decide`] with the real price instead of the situation's nominal one: `odds` is (chips
/// to call, pot after calling, chips left behind after calling), in any unit. A call that
/// leaves less behind than the pot is judged as an all-in call (its equity is realised).
pub fn decide_with_odds(
    class: HandClass,
    situation: Situation,
    depth: Depth,
    style: &Style,
    range_share: f32,
    odds: Option<(f32, f32, f32)>,
) -> ChartAction {
    let mut range = [0f32; CLASSES];
    top_range(range_share, &mut range);
    decide_against(&SHIPPED_TABLE, class, situation, depth, style, &range, odds)
}

fn decide_against(
    table: &EquityTable<'_>,
    class: HandClass,
    situation: Situation,
    depth: Depth,
    style: &Style,
    range: &[f32; CLASSES],
    odds: Option<(f32, f32, f32)>,
) -> ChartAction {
    let base = &NOMINAL[situation as usize];
    let n = match odds {
        Some((to_call, pot_after_call, _)) if pot_after_call > 0.0 => {
            nominal(to_call, pot_after_call, base.range_share, base.raise_tenths)
        }
        _ => nominal(
            base.to_call,
            base.pot_after_call,
            base.range_share,
            base.raise_tenths,
        ),
    };
    let equity = table.vs_classes(class, range);
    let loose = style.looseness - 0.5;
    let aggressive = style.aggression - 0.5;
    let committed = matches!(odds, Some((_, pot, behind)) if behind < pot);
    let all_in_pot = situation == Situation::VsAllIn || committed;
    // Equity is realised in full only when no betting is left; otherwise being out of
    // position and facing later bets costs some. Loose players credit themselves more.
    let realise = if all_in_pot {
        1.0 + 0.15 * (style.risk - 0.5) + 0.1 * loose
    } else {
        0.85 + 0.8 * loose
    };
    let pays = equity * realise * n.pot_after_call >= n.to_call;
    let first_in = situation == Situation::SbOpen;
    let raise_at = if first_in { 0.52 } else { 0.58 } - 0.16 * aggressive;
    let raise = ChartAction {
        class: if n.raise_tenths == 0 || depth == Depth::Short {
            ActionClass::AllIn
        } else if n.raise_tenths <= 25 {
            ActionClass::SmallRaise
        } else {
            ActionClass::BigRaise
        },
        raise_tenths: if depth == Depth::Short {
            0
        } else {
            n.raise_tenths
        },
    };
    if !all_in_pot && equity >= raise_at {
        // A deep all-in shove needs a very strong hand or a taste for risk.
        if raise.class == ActionClass::AllIn
            && depth == Depth::Deep
            && equity < 0.62 - 0.1 * (style.risk - 0.5)
        {
            return if pays { call() } else { ChartAction::FOLD };
        }
        return raise;
    }
    if pays || n.to_call == 0.0 {
        call()
    } else {
        ChartAction::FOLD
    }
}

const fn call() -> ChartAction {
    ChartAction {
        class: ActionClass::Call,
        raise_tenths: 0,
    }
}

/// A whole chart: a cell per (depth, situation, class).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chart {
    cells: [ChartAction; CELLS],
}

const fn cell(class: HandClass, situation: Situation, depth: Depth) -> usize {
    (depth as usize * SITUATIONS + situation as usize) * CLASSES + class.index()
}

const SITUATION_LIST: [Situation; SITUATIONS] = [
    Situation::SbOpen,
    Situation::BbVsLimp,
    Situation::VsRaiseSmall,
    Situation::VsRaiseMedium,
    Situation::VsRaiseBig,
    Situation::Vs3BetSmall,
    Situation::Vs3BetBig,
    Situation::Vs4Bet,
    Situation::VsAllIn,
];

impl Situation {
    /// Every situation in index order.
    pub const ALL: [Situation; SITUATIONS] = SITUATION_LIST;

    /// The share of hands the opponent is assumed to hold here.
    pub fn nominal_range_share(self) -> f32 {
        NOMINAL[self as usize].range_share
    }
}

static SHIPPED: &[u8; CHART_FILE_BYTES] = include_bytes!("data/chart.bin");

impl Chart {
    /// The chart of `style` against the nominal ranges, from the shipped equity table.
    pub fn derive(style: &Style) -> Chart {
        Chart::derive_from(&SHIPPED_TABLE, style)
    }

    /// The chart of `style` from the equity table `table` (what `arbor holdem chart` does
    /// with the table it has just generated).
    pub fn derive_from(table: &EquityTable<'_>, style: &Style) -> Chart {
        let mut cells = [ChartAction::FOLD; CELLS];
        let mut range = [0f32; CLASSES];
        for situation in Situation::ALL {
            top_range_in(table, situation.nominal_range_share(), &mut range);
            for depth in [Depth::Deep, Depth::Short] {
                for class in HandClass::all() {
                    cells[cell(class, situation, depth)] =
                        decide_against(table, class, situation, depth, style, &range, None);
                }
            }
        }
        Chart { cells }
    }

    /// The shipped chart (the balanced style's); a byte that is not an action class reads
    /// as a fold.
    pub fn shipped() -> Chart {
        let mut cells = [ChartAction::FOLD; CELLS];
        for (slot, bytes) in cells.iter_mut().zip(SHIPPED.chunks_exact(2)) {
            if let Some(class) = ActionClass::ALL.get(usize::from(bytes[0])) {
                *slot = ChartAction {
                    class: *class,
                    raise_tenths: bytes[1],
                };
            }
        }
        Chart { cells }
    }

    /// One cell of the shipped chart, read straight from its bytes.
    pub fn shipped_cell(class: HandClass, situation: Situation, depth: Depth) -> ChartAction {
        let at = cell(class, situation, depth) * 2;
        match ActionClass::ALL.get(usize::from(SHIPPED[at])) {
            Some(action) => ChartAction {
                class: *action,
                raise_tenths: SHIPPED[at + 1],
            },
            None => ChartAction::FOLD,
        }
    }

    /// The chart's file bytes.
    pub fn to_bytes(&self, out: &mut [u8; CHART_FILE_BYTES]) {
        for (bytes, cell) in out.chunks_exact_mut(2).zip(&self.cells) {
            bytes[0] = cell.class as u8;
            bytes[1] = cell.raise_tenths;
        }
    }

    /// The cell of `class` in `situation` at `depth`.
    pub fn get(&self, class: HandClass, situation: Situation, depth: Depth) -> ChartAction {
        self.cells[cell(class, situation, depth)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::rules::HoldemConfig;

    fn class(text: &str) -> HandClass {
        HandClass::parse(text).unwrap()
    }

    #[test]
    fn the_shipped_chart_is_what_the_generator_derives() {
        // The generator derives it from the shipped equity table; regenerating that table
        // takes seconds (`arbor holdem chart`) and is compared in the CLI test.
        assert_eq!(Chart::shipped(), Chart::derive(&Style::BALANCED));
    }

    #[test]
    fn the_chart_makes_poker_sense() {
        let chart = Chart::shipped();
        let deep = Depth::Deep;
        for situation in Situation::ALL {
            // Aces never fold; the worst hand folds to every raise.
            assert_ne!(
                chart.get(class("AA"), situation, deep).class,
                ActionClass::Fold
            );
        }
        assert!(
            chart
                .get(class("AA"), Situation::SbOpen, deep)
                .class
                .is_raise()
        );
        assert_eq!(
            chart.get(class("72o"), Situation::Vs3BetBig, deep).class,
            ActionClass::Fold
        );
        assert_eq!(
            chart.get(class("72o"), Situation::VsAllIn, deep).class,
            ActionClass::Fold
        );
        // Checking is free: the big blind never folds to a limp.
        for c in HandClass::all() {
            assert_ne!(
                chart.get(c, Situation::BbVsLimp, deep).class,
                ActionClass::Fold
            );
        }
        // A rock plays fewer hands first in than a maniac.
        let played = |chart: &Chart| {
            HandClass::all()
                .filter(|c| {
                    chart.get(*c, Situation::VsRaiseMedium, deep).class != ActionClass::Fold
                })
                .count()
        };
        let rock = Chart::derive(&Style::parse("rock").unwrap());
        let maniac = Chart::derive(&Style::parse("maniac").unwrap());
        assert!(played(&rock) < played(&chart) && played(&chart) < played(&maniac));
    }

    #[test]
    fn situations_are_read_from_the_betting() {
        let mut hand = HandState::new(HoldemConfig::ACPC);
        assert_eq!(situation(&hand), Some((Situation::SbOpen, Depth::Deep)));
        hand.apply(Action::RaiseTo(250)).unwrap();
        assert_eq!(situation(&hand).unwrap().0, Situation::VsRaiseSmall);
        hand.apply(Action::RaiseTo(750)).unwrap();
        assert_eq!(situation(&hand).unwrap().0, Situation::Vs3BetSmall);
        hand.apply(Action::RaiseTo(2000)).unwrap();
        assert_eq!(situation(&hand).unwrap().0, Situation::Vs4Bet);
        hand.apply(Action::RaiseTo(20_000)).unwrap();
        assert_eq!(situation(&hand).unwrap().0, Situation::VsAllIn);
        let mut limp = HandState::new(HoldemConfig::ACPC);
        limp.apply(Action::Call).unwrap();
        assert_eq!(situation(&limp).unwrap().0, Situation::BbVsLimp);
        let short = HoldemConfig::new([2_000, 2_000], 100, 50).unwrap();
        assert_eq!(situation(&HandState::new(short)).unwrap().1, Depth::Short);
        // The chart's sizes become legal actions.
        let mut open = HandState::new(HoldemConfig::ACPC);
        let action = Chart::shipped()
            .get(class("AA"), Situation::SbOpen, Depth::Deep)
            .to_action(&open);
        assert_eq!(action, Action::RaiseTo(250));
        assert!(open.apply(action).is_ok());
    }

    #[test]
    fn the_compile_time_strengths_and_order_are_the_computed_ones() {
        let computed = strengths_in(&SHIPPED_TABLE);
        for (cached, computed) in SHIPPED_STRENGTHS.iter().zip(&computed) {
            assert_eq!(cached.to_bits(), computed.to_bits());
        }
        // No two classes tie, so any correct sort gives this order.
        let order = strength_order_in(&SHIPPED_TABLE);
        assert_eq!(SHIPPED_ORDER, order);
        for pair in order.windows(2) {
            assert!(computed[pair[0] as usize] > computed[pair[1] as usize]);
        }
        // So every implied range, bit for bit, on a fine grid of shares and beyond [0, 1].
        let (mut cached, mut recomputed) = ([0f32; CLASSES], [0f32; CLASSES]);
        for step in -20..=1020 {
            let share = step as f32 / 1000.0;
            top_range(share, &mut cached);
            top_range_in(&SHIPPED_TABLE, share, &mut recomputed);
            let same = cached
                .iter()
                .zip(&recomputed)
                .all(|(a, b)| a.to_bits() == b.to_bits());
            assert!(same, "share {share}");
        }
    }

    #[test]
    fn top_ranges_hold_their_share() {
        let mut range = [0f32; CLASSES];
        for share in [0.05f32, 0.3, 1.0] {
            top_range(share, &mut range);
            let combos: f32 = HandClass::all()
                .map(|c| range[c.index()] * c.combos() as f32)
                .sum();
            assert!((combos - share * 1326.0).abs() < 0.5, "{share} {combos}");
        }
        top_range(0.02, &mut range);
        assert_eq!(range[class("AA").index()], 1.0);
        assert_eq!(range[class("72o").index()], 0.0);
    }
}
