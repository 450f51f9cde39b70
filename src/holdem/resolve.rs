//! Depth-limited re-solving of a heads-up no-limit river or turn: CFR+ on the public betting
//! tree of the rest of the round, with vectors over the 1,326 holdings (range-vs-range form)
//! instead of one walk per deal.
//!
//! The caller gives the hand so far (on the river, or on the turn, someone to act), both
//! players' ranges and a bet abstraction (pot fractions, all-in, a cap on raises).
//! [`RiverSolver::new`] (or [`TurnSolver::new`]) builds the public tree of the abstract actions
//! from the real state (so the pot, stacks and the raise rules are the hand's),
//! [`Resolver::solve`] runs CFR+ iterations (regret matching+, alternating updates, the
//! average weighted by the iteration), and [`Resolver::strategy`] gives the player to act its
//! average strategy for its real holding; [`Resolver::choose`] draws an action from it with a
//! seeded generator.
//!
//! Terminal values cost O(holdings), not O(holdings²): a fold is worth the opponent's reach
//! of the holdings that share no card with one's own (the total, minus each card's share,
//! plus the holding itself, counted twice); a showdown sweeps the holdings in order of
//! strength with running totals per card. The regrets and average strategies, two rows of
//! 1,326 `f32` per action of each decision node, live in caller storage
//! ([`RiverSolver::values_len`], [`TurnSolver::values_len`]); walks keep their vectors on the
//! stack (about 75 KB per level of the tree, at most `max_raises + 2` levels).
//!
//! The turn re-solve is depth-limited: its tree is the turn's betting only. Where the turn's
//! betting ends with both players in (the round closed with the chips matched, or an all-in
//! called), the leaf's value is the check-down value at the river's start: the expectation,
//! over the river cards, of the pot split by the showdown on that river, with no river
//! betting ([`TurnShowdown`]). For an all-in that is the exact value (the river runs out); for
//! a round that closed with chips behind it ignores the river's betting, which favours the
//! holding that the river's betting would punish (a drawing hand gets its full equity and is
//! never bluffed off it, a made hand is never paid more on the river). Those leaves cost a
//! sweep of 48 river orders each, so before each walk the turn re-solve gathers the
//! opponent's reach at every such leaf (it depends on the opponent's strategy only) and
//! values them all in one batch, into rows of the caller storage that the walk then reads.
// The vector maths walks several parallel arrays over the holdings at once: one index reads
// clearer than zipping three or four iterators.
#![allow(clippy::needless_range_loop)]

use heapless::Vec;
use rand_xorshift::XorShiftRng;

use super::card::Card;
use super::equity::{COMBOS, combo_cards, combo_index};
use super::eval::rank7_unchecked;
use super::range::Range;
use super::rules::{Action, Chips, HandState, Position, Street};
use crate::search::game::random_index;
use crate::search::mcts::{Never, Stop};

mod turn;
pub use turn::{TURN_RIVER_HOLDINGS, TURN_RIVERS, TURN_TABLE_LEN, TurnShowdown};

/// Most nodes of a re-solved tree: two pot fractions, all-in and two raises take about 60.
pub const MAX_NODES: usize = 512;

/// Most actions at a node: fold, call, and up to four raise sizes.
pub const MAX_CHOICES: usize = 6;

/// Most pot fractions in a [`BetAbstraction`].
pub const MAX_FRACTIONS: usize = 3;

/// The raise sizes the re-solver considers.
#[derive(Clone, Debug, PartialEq)]
pub struct BetAbstraction {
    /// Raise sizes as fractions of the pot after calling (1.0: a pot-sized bet or raise).
    pub pot_fractions: Vec<f32, MAX_FRACTIONS>,
    /// Whether all-in is also an action.
    pub all_in: bool,
    /// Most bets and raises in the re-solved part of the round.
    pub max_raises: u8,
}

impl Default for BetAbstraction {
    /// Half pot, pot and all-in, at most two raises.
    fn default() -> Self {
        BetAbstraction {
            pot_fractions: Vec::from_slice(&[0.5, 1.0]).unwrap_or_default(),
            all_in: true,
            max_raises: 2,
        }
    }
}

/// Why a re-solve could not be set up or answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// The hand is not on the river with a player to act and all five board cards dealt.
    NotOnRiver,
    /// The hand is not on the turn with a player to act and four board cards dealt.
    NotOnTurn,
    /// The abstraction's tree has more than [`MAX_NODES`] nodes.
    TreeTooLarge { limit: usize },
    /// The caller storage holds fewer values than [`RiverSolver::values_len`] asks for.
    Storage { needed: usize, given: usize },
    /// This position's range has no holding left once the board's cards are removed.
    EmptyRange(Position),
    /// A pot fraction is not a positive finite number.
    BadFraction,
    /// The holding asked about shares a card with the board or repeats a card.
    BadHolding,
}

impl core::fmt::Display for ResolveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            ResolveError::NotOnRiver => {
                f.write_str("the hand is not on the river with a player to act")
            }
            ResolveError::NotOnTurn => {
                f.write_str("the hand is not on the turn with a player to act")
            }
            ResolveError::TreeTooLarge { limit } => write!(
                f,
                "the bet abstraction makes a tree of more than {limit} nodes: use fewer sizes or raises"
            ),
            ResolveError::Storage { needed, given } => {
                write!(f, "storage of {given} values is too small: {needed} needed")
            }
            ResolveError::EmptyRange(position) => write!(
                f,
                "position {position}'s range is empty once the board's cards are removed"
            ),
            ResolveError::BadFraction => f.write_str("pot fractions must be positive and finite"),
            ResolveError::BadHolding => {
                f.write_str("the holding repeats a card or shares one with the board")
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Fold {
        folder: Position,
    },
    /// The betting of the re-solved round ended with both players in: a showdown on the
    /// river, the river's start on the turn.
    Showdown,
    Decision {
        player: Position,
    },
}

/// A node of the public tree: its children are contiguous.
#[derive(Clone, Copy, Debug)]
struct Node {
    kind: Kind,
    spent: [Chips; 2],
    /// The action that led here from the parent.
    action: Action,
    first_child: u16,
    children: u8,
    /// Where this decision's rows start in the caller storage: `children` rows of regrets,
    /// then `children` rows of strategy sums, each [`COMBOS`] long.
    offset: usize,
    /// A both-in leaf's number among the tree's both-in leaves, or a fold's among its folds
    /// (its row of values, where the leaves are valued in a batch).
    leaf: u16,
}

/// A vector over the holdings.
type Holdings = [f32; COMBOS];

/// How a re-solved tree values the leaves where both players are still in: [`RiverShowdown`]
/// or [`TurnShowdown`].
pub trait Showdown<'a>: Sized {
    /// The street the re-solve starts on.
    const STREET: Street;

    /// Values of storage after the tree's rows that [`Showdown::prepare`] takes.
    const TABLE_LEN: usize;

    /// Whether the walks value their both-in leaves all at once before each walk
    /// ([`Showdown::value_leaves`], a row of storage per leaf) instead of one at a time.
    const BATCHED: bool;

    /// The holdings that miss `board`, with their ranks where the river is dealt, and the
    /// leaf valuer, over `table` ([`Showdown::TABLE_LEN`] values).
    fn prepare(board: &[Card], table: &'a mut [f32]) -> (Vec<(u16, u16), COMBOS>, Self);

    /// Adds to `out`, per holding, `stake ×` its wins minus its losses against the opponent's
    /// reach `opponent` of the holdings that share no card with it; `live` are the holdings
    /// that miss the board, weakest first where the river is dealt.
    fn add_values(&self, live: &[(u16, u16)], opponent: &Holdings, stake: f32, out: &mut Holdings);

    /// Sets `out`, per holding, to `payoff ×` the opponent's reach `opponent` of the
    /// holdings that share no card with it (a fold's value; 0 for the holdings the board
    /// blocks): by default in `f64` running totals, as the river has always valued folds.
    fn fold_values(
        &self,
        live: &[(u16, u16)],
        opponent: &Holdings,
        payoff: f32,
        out: &mut Holdings,
    ) {
        out.fill(0.0);
        compatible_mass(live, opponent, out);
        for &(index, _) in live {
            out[usize::from(index)] *= payoff;
        }
    }

    /// Replaces each row of `rows` (the opponent's reach at a fold) by the values
    /// [`Showdown::fold_values`] gives for a payoff of one chip (batched walks only).
    fn fold_masses(&self, live: &[(u16, u16)], rows: &mut [f32]) {
        row_by_row(rows, |reach, value| {
            self.fold_values(live, reach, 1.0, value)
        });
    }

    /// Replaces each row of `rows` ([`COMBOS`] values: the opponent's reach at a both-in
    /// leaf) by that leaf's values per holding for a stake of one chip, as
    /// [`Showdown::add_values`] would give them.
    fn value_leaves(&self, live: &[(u16, u16)], rows: &mut [f32]) {
        row_by_row(rows, |reach, value| {
            self.add_values(live, reach, 1.0, value)
        });
    }
}

/// Replaces each row of `rows` (an opponent's reach) by what `value` makes of it, into
/// zeroed values.
fn row_by_row(rows: &mut [f32], mut value: impl FnMut(&Holdings, &mut Holdings)) {
    for row in rows.chunks_exact_mut(COMBOS) {
        let mut reach = [0.0f32; COMBOS];
        reach.copy_from_slice(row);
        let mut values = [0.0f32; COMBOS];
        value(&reach, &mut values);
        row.copy_from_slice(&values);
    }
}

/// The river's showdown: one sweep over the holdings in order of strength each way.
#[derive(Clone, Copy, Debug, Default)]
pub struct RiverShowdown;

impl Showdown<'_> for RiverShowdown {
    const STREET: Street = Street::River;
    const TABLE_LEN: usize = 0;
    /// A river leaf is one sweep: each is valued where the walk reaches it.
    const BATCHED: bool = false;

    /// The holdings weakest first.
    fn prepare(board: &[Card], _: &mut [f32]) -> (Vec<(u16, u16), COMBOS>, Self) {
        let mut seven = [0u8; 7];
        for (slot, card) in seven[2..].iter_mut().zip(board) {
            *slot = card.byte();
        }
        let mut order = Vec::new();
        for index in live_holdings(board) {
            let [a, b] = combo_bytes(index);
            seven[0] = a as u8;
            seven[1] = b as u8;
            let _ = order.push((index, rank7_unchecked(&seven)));
        }
        order.sort_unstable_by_key(|&(index, rank)| (rank, index));
        (order, RiverShowdown)
    }

    fn add_values(&self, live: &[(u16, u16)], opponent: &Holdings, stake: f32, out: &mut Holdings) {
        // Wins: the opponent's reach strictly weaker, sweeping up; losses sweeping down.
        sweep(live.len(), |k| live[k], opponent, out, stake, false);
        sweep(live.len(), |k| live[k], opponent, out, -stake, true);
    }
}

/// Adds `sign ×` the opponent's reach of the holdings strictly weaker (`downward`: stronger)
/// than each holding and sharing no card with it, over the `len` holdings `at(0..len)`
/// (holding, rank), weakest first.
fn sweep(
    len: usize,
    at: impl Fn(usize) -> (u16, u16),
    opponent: &Holdings,
    out: &mut Holdings,
    sign: f32,
    downward: bool,
) {
    let mut per_card = [0.0f64; 52];
    let mut total = 0.0f64;
    let at = |k: usize| if downward { at(len - 1 - k) } else { at(k) };
    let mut start = 0;
    while start < len {
        let rank = at(start).1;
        let mut end = start;
        while end < len && at(end).1 == rank {
            end += 1;
        }
        for k in start..end {
            let (index, _) = at(k);
            let [a, b] = combo_bytes(index);
            let open = total - per_card[a] - per_card[b];
            out[usize::from(index)] += sign * open as f32;
        }
        for k in start..end {
            let (index, _) = at(k);
            let reach = f64::from(opponent[usize::from(index)]);
            let [a, b] = combo_bytes(index);
            per_card[a] += reach;
            per_card[b] += reach;
            total += reach;
        }
        start = end;
    }
}

/// The re-solver of one spot; see the [module documentation](self). `S` values the leaves
/// where both players are in: [`RiverSolver`] and [`TurnSolver`].
pub struct Resolver<'a, S> {
    nodes: Vec<Node, MAX_NODES>,
    /// The tree's rows, then (batched) a row of values per both-in leaf.
    values: &'a mut [f32],
    /// Where the both-in leaves' rows start in `values`.
    tree_rows: usize,
    /// Where the folds' rows start in `values` (after the both-in leaves').
    fold_rows: usize,
    /// Each position's range, normalised, 0 on holdings that share a card with the board.
    ranges: [Holdings; 2],
    /// The holdings that miss the board, with their showdown ranks, weakest first (on the
    /// turn, by holding, ranks 0).
    order: Vec<(u16, u16), COMBOS>,
    showdown: S,
    iterations: u32,
    /// Whether the walks run their AVX copy: std builds for x86-64 without AVX ask the
    /// processor once per solver (std caches the answer); others have one copy.
    #[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "avx")))]
    avx: bool,
}

/// The re-solver of a river spot.
pub type RiverSolver<'a> = Resolver<'a, RiverShowdown>;

/// The depth-limited re-solver of a turn spot, its leaves valued by checking down the river.
pub type TurnSolver<'a> = Resolver<'a, TurnShowdown<'a>>;

impl<'a, S: Showdown<'a>> Resolver<'a, S> {
    /// Values (`f32`) of storage the re-solve of `hand` under `bets` needs: the tree's rows
    /// (and on the turn the [`TURN_TABLE_LEN`] values of the river orders).
    pub fn values_len(hand: &HandState, bets: &BetAbstraction) -> Result<usize, ResolveError> {
        let (_, rows, counts) = build_tree(hand, bets, S::STREET)?;
        Ok(rows + Self::leaf_rows(counts.leaves + counts.folds) + S::TABLE_LEN)
    }

    /// Values of the rows of `leaves` leaves (both-in leaves and folds) valued in a batch.
    fn leaf_rows(leaves: usize) -> usize {
        if S::BATCHED { leaves * COMBOS } else { 0 }
    }

    /// A re-solver of `hand` (on the river, or on the turn for [`TurnSolver`], a player to
    /// act) with the players' ranges by position and the raise sizes of `bets`, over `values`
    /// ([`Resolver::values_len`] long at least). Clears the tree's rows (and on the turn
    /// sorts the holdings by their showdown on each river card into the rest).
    pub fn new(
        hand: &HandState,
        ranges: [&Range; 2],
        bets: &BetAbstraction,
        values: &'a mut [f32],
    ) -> Result<Self, ResolveError> {
        let (nodes, rows, counts) = build_tree(hand, bets, S::STREET)?;
        let walk_rows = rows + Self::leaf_rows(counts.leaves + counts.folds);
        check_len(values, walk_rows + S::TABLE_LEN)?;
        let (values, table) = values.split_at_mut(walk_rows);
        values.fill(0.0);
        let (order, showdown) = S::prepare(hand.board(), &mut table[..S::TABLE_LEN]);
        Ok(Resolver {
            nodes,
            values,
            tree_rows: rows,
            fold_rows: rows + Self::leaf_rows(counts.leaves),
            ranges: live_ranges(ranges, &order)?,
            order,
            showdown,
            iterations: 0,
            #[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "avx")))]
            avx: std::is_x86_feature_detected!("avx"),
        })
    }

    /// Iterations run so far.
    pub fn iterations(&self) -> u32 {
        self.iterations
    }

    /// Nodes of the public tree.
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Runs `iterations` CFR+ iterations (each updates both players).
    pub fn solve(&mut self, iterations: u32) {
        self.solve_until(iterations, &mut Never);
    }

    /// [`Resolver::solve`] that asks `stop` before each iteration (with the iterations of
    /// this call done so far) and ends there when it says stop; returns the iterations run.
    /// An iteration is never cut in half, so the average strategy stays that of whole
    /// iterations (CFR+'s average is weighted by the iteration number, so a stopped solve is
    /// the solve of fewer iterations, bit for bit).
    pub fn solve_until(&mut self, iterations: u32, stop: &mut dyn Stop) -> u32 {
        for done in 0..iterations {
            if stop.stop(done) {
                return done;
            }
            self.iterations += 1;
            let weight = self.iterations as f32;
            for player in 0..2u8 {
                let own = self.ranges[usize::from(player)];
                let opponent = self.ranges[usize::from(1 - player)];
                if S::BATCHED {
                    self.value_leaves(player, &opponent);
                }
                let mut out = [0.0; COMBOS];
                self.walk(0, player, &own, &opponent, weight, &mut out);
            }
        }
        iterations
    }

    /// One CFR+ walk for `traverser` below `node`: its counterfactual value per holding into
    /// `out`, given its own reach `own` and the opponent's `opponent`. Runs the AVX copy
    /// where the processor has it: the same IEEE operations in the same order in wider
    /// registers (nothing fused), so the same bits (tested).
    fn walk(
        &mut self,
        node: usize,
        traverser: Position,
        own: &Holdings,
        opponent: &Holdings,
        weight: f32,
        out: &mut Holdings,
    ) {
        #[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "avx")))]
        if self.avx {
            // SAFETY: `avx` is set only where the processor said it has AVX.
            return unsafe { self.walk_avx(node, traverser, own, opponent, weight, out) };
        }
        self.walk_portable(node, traverser, own, opponent, weight, out)
    }

    /// [`Resolver::walk`] for plain x86-64 (SSE2) and other targets. Not inlined, nor the AVX
    /// copy: the dispatching frame holds no vectors, so a level of the walk costs one frame
    /// of vectors on the stack.
    #[inline(never)]
    fn walk_portable(
        &mut self,
        node: usize,
        traverser: Position,
        own: &Holdings,
        opponent: &Holdings,
        weight: f32,
        out: &mut Holdings,
    ) {
        self.walk_lanes(node, traverser, own, opponent, weight, out)
    }

    /// [`Resolver::walk`] compiled with AVX. The measured reason for the `unsafe` call: the
    /// walks' vector loops take fewer instructions in lanes of 8 (docs/holdem-bot.md).
    #[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "avx")))]
    #[target_feature(enable = "avx")]
    #[inline(never)]
    fn walk_avx(
        &mut self,
        node: usize,
        traverser: Position,
        own: &Holdings,
        opponent: &Holdings,
        weight: f32,
        out: &mut Holdings,
    ) {
        self.walk_lanes(node, traverser, own, opponent, weight, out)
    }

    /// The body of [`Resolver::walk`], inlined into each copy.
    #[inline(always)]
    fn walk_lanes(
        &mut self,
        node: usize,
        traverser: Position,
        own: &Holdings,
        opponent: &Holdings,
        weight: f32,
        out: &mut Holdings,
    ) {
        let Node {
            kind,
            first_child,
            children,
            offset,
            ..
        } = self.nodes[node];
        let player = match kind {
            Kind::Decision { player } => player,
            Kind::Showdown if S::BATCHED => return self.valued_leaf(node, out),
            Kind::Fold { folder } if S::BATCHED => {
                return self.valued_fold(node, folder, traverser, out);
            }
            _ => return self.terminal(node, traverser, opponent, out),
        };
        let n = usize::from(children);
        let first = usize::from(first_child);
        out.fill(0.0);
        // Regret matching+ one action at a time (its row is read before its walk changes
        // it), so that the frame holds three vectors, not two per action.
        let totals = self.regret_totals(offset, n);
        let mut strategy = [0.0f32; COMBOS];
        let mut reach = [0.0f32; COMBOS];
        let mut value = [0.0f32; COMBOS];
        if player != traverser {
            for a in 0..n {
                self.current_row(offset, n, a, &totals, &mut strategy);
                for h in 0..COMBOS {
                    reach[h] = opponent[h] * strategy[h];
                }
                self.walk(first + a, traverser, own, &reach, weight, &mut value);
                for h in 0..COMBOS {
                    out[h] += value[h];
                }
            }
            return;
        }
        for a in 0..n {
            self.current_row(offset, n, a, &totals, &mut strategy);
            for h in 0..COMBOS {
                reach[h] = own[h] * strategy[h];
            }
            self.walk(first + a, traverser, &reach, opponent, weight, &mut value);
            for h in 0..COMBOS {
                out[h] += strategy[h] * value[h];
            }
            // The action's value parked in its regret row until `out` is known: the same
            // `(regret + value) - out` as one expression.
            let regrets = offset + a * COMBOS;
            for (regret, &v) in self.values[regrets..regrets + COMBOS]
                .iter_mut()
                .zip(&value)
            {
                *regret += v;
            }
            let sums = offset + (n + a) * COMBOS;
            for (h, sum) in self.values[sums..sums + COMBOS].iter_mut().enumerate() {
                *sum += weight * own[h] * strategy[h];
            }
        }
        for a in 0..n {
            let regrets = offset + a * COMBOS;
            for (regret, &o) in self.values[regrets..regrets + COMBOS].iter_mut().zip(&*out) {
                *regret = (*regret - o).max(0.0);
            }
        }
    }

    /// Values the both-in leaves for `traverser`'s next walk: the opponent's reach at each
    /// (from the root's `opponent` and the opponent's current strategies, which the walk
    /// does not change) into the leaf's row, then all rows at once.
    fn value_leaves(&mut self, traverser: Position, opponent: &Holdings) {
        self.gather_leaf_reach(0, traverser, opponent);
        let (rows, folds) =
            self.values[self.tree_rows..].split_at_mut(self.fold_rows - self.tree_rows);
        self.showdown.value_leaves(&self.order, rows);
        self.showdown.fold_masses(&self.order, folds);
    }

    /// The opponent's reach at each both-in leaf below `node`, into the leaf's row (with AVX
    /// where the processor has it, as [`Resolver::walk`]).
    fn gather_leaf_reach(&mut self, node: usize, traverser: Position, opponent: &Holdings) {
        #[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "avx")))]
        if self.avx {
            // SAFETY: `avx` is set only where the processor said it has AVX.
            return unsafe { self.gather_leaf_reach_avx(node, traverser, opponent) };
        }
        self.gather_leaf_reach_portable(node, traverser, opponent)
    }

    /// [`Resolver::gather_leaf_reach`] without AVX (not inlined, as [`Resolver::walk_portable`]).
    #[inline(never)]
    fn gather_leaf_reach_portable(
        &mut self,
        node: usize,
        traverser: Position,
        opponent: &Holdings,
    ) {
        self.gather_leaf_reach_lanes(node, traverser, opponent)
    }

    /// [`Resolver::gather_leaf_reach`] compiled with AVX.
    #[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "avx")))]
    #[target_feature(enable = "avx")]
    #[inline(never)]
    fn gather_leaf_reach_avx(&mut self, node: usize, traverser: Position, opponent: &Holdings) {
        self.gather_leaf_reach_lanes(node, traverser, opponent)
    }

    /// The body of [`Resolver::gather_leaf_reach`], inlined into each copy.
    #[inline(always)]
    fn gather_leaf_reach_lanes(&mut self, node: usize, traverser: Position, opponent: &Holdings) {
        let Node {
            kind,
            first_child,
            children,
            offset,
            leaf,
            ..
        } = self.nodes[node];
        let first = usize::from(first_child);
        let n = usize::from(children);
        match kind {
            Kind::Showdown => {
                let row = self.tree_rows + usize::from(leaf) * COMBOS;
                self.values[row..row + COMBOS].copy_from_slice(opponent);
            }
            Kind::Fold { .. } => {
                let row = self.fold_rows + usize::from(leaf) * COMBOS;
                self.values[row..row + COMBOS].copy_from_slice(opponent);
            }
            Kind::Decision { player } if player == traverser => {
                for a in 0..n {
                    self.gather_leaf_reach(first + a, traverser, opponent);
                }
            }
            Kind::Decision { .. } => {
                let totals = self.regret_totals(offset, n);
                let mut strategy = [0.0f32; COMBOS];
                let mut reach = [0.0f32; COMBOS];
                for a in 0..n {
                    self.current_row(offset, n, a, &totals, &mut strategy);
                    for h in 0..COMBOS {
                        reach[h] = opponent[h] * strategy[h];
                    }
                    self.gather_leaf_reach(first + a, traverser, &reach);
                }
            }
        }
    }

    /// A both-in leaf's values from its row, valued before the walk.
    #[inline(always)]
    fn valued_leaf(&self, node: usize, out: &mut Holdings) {
        let Node { spent, leaf, .. } = self.nodes[node];
        let stake = spent[0].min(spent[1]) as f32;
        let row = self.tree_rows + usize::from(leaf) * COMBOS;
        for (o, &v) in out.iter_mut().zip(&self.values[row..row + COMBOS]) {
            *o = stake * v;
        }
    }

    /// A fold's values for `traverser` from its row, valued before the walk: the same bits
    /// as [`Resolver::terminal`] gives it.
    #[inline(always)]
    fn valued_fold(&self, node: usize, folder: Position, traverser: Position, out: &mut Holdings) {
        let Node { spent, leaf, .. } = self.nodes[node];
        let payoff = fold_payoff(spent, folder, traverser);
        let row = self.fold_rows + usize::from(leaf) * COMBOS;
        for (o, &v) in out.iter_mut().zip(&self.values[row..row + COMBOS]) {
            *o = payoff * v;
        }
    }

    /// Per holding, the sum of the positive regrets of the decision whose rows start at
    /// `offset`, `n` actions ([`regret_totals`]).
    #[inline(always)]
    fn regret_totals(&self, offset: usize, n: usize) -> Holdings {
        regret_totals(&self.values[offset..offset + n * COMBOS], n)
    }

    /// Regret matching+'s probability of action `a` per holding at that decision, given its
    /// [`Resolver::regret_totals`]: the same bits as [`Resolver::current`]'s row `a`.
    #[inline(always)]
    fn current_row(
        &self,
        offset: usize,
        n: usize,
        a: usize,
        totals: &Holdings,
        out: &mut Holdings,
    ) {
        let row = &self.values[offset + a * COMBOS..offset + (a + 1) * COMBOS];
        strategy_row(row, totals, n, out);
    }

    /// Regret matching+ at the decision whose rows start at `offset`, `n` actions.
    fn current(&self, offset: usize, n: usize, sigma: &mut [Holdings; MAX_CHOICES]) {
        let rows = &self.values[offset..offset + n * COMBOS];
        normalise_rows(rows, n, sigma);
    }

    /// The average strategy at a decision, into `sigma`; where a holding has no strategy
    /// sum (it never reached the node), its current strategy.
    fn average(&self, offset: usize, n: usize, sigma: &mut [Holdings; MAX_CHOICES]) {
        let rows = &self.values[offset + n * COMBOS..offset + 2 * n * COMBOS];
        normalise_rows(rows, n, sigma);
        let mut current = [[0.0f32; COMBOS]; MAX_CHOICES];
        self.current(offset, n, &mut current);
        for h in 0..COMBOS {
            let total: f32 = (0..n).map(|a| rows[a * COMBOS + h]).sum();
            if total <= 0.0 {
                for a in 0..n {
                    sigma[a][h] = current[a][h];
                }
            }
        }
    }

    /// The value per holding of `traverser` at a terminal node against the opponent's reach.
    fn terminal(&self, node: usize, traverser: Position, opponent: &Holdings, out: &mut Holdings) {
        let Node { kind, spent, .. } = self.nodes[node];
        match kind {
            Kind::Fold { folder } => {
                let payoff = fold_payoff(spent, folder, traverser);
                self.showdown
                    .fold_values(&self.order, opponent, payoff, out);
            }
            Kind::Showdown => {
                let stake = spent[0].min(spent[1]) as f32;
                out.fill(0.0);
                self.showdown.add_values(&self.order, opponent, stake, out);
            }
            Kind::Decision { .. } => out.fill(0.0),
        }
    }

    /// A best response's value per holding of `responder` below `node` against the other
    /// player's average strategy, given that player's reach `opponent`; with `respond`
    /// false, the value of `responder`'s own average strategy instead.
    fn best_response(
        &self,
        node: usize,
        responder: Position,
        respond: bool,
        opponent: &Holdings,
        out: &mut Holdings,
    ) {
        let Node {
            kind,
            first_child,
            children,
            offset,
            ..
        } = self.nodes[node];
        let player = match kind {
            Kind::Decision { player } => player,
            _ => return self.terminal(node, responder, opponent, out),
        };
        let n = usize::from(children);
        let first = usize::from(first_child);
        let mut value = [0.0f32; COMBOS];
        let mut sigma = [[0.0f32; COMBOS]; MAX_CHOICES];
        if player != responder || !respond {
            self.average(offset, n, &mut sigma);
        }
        if player == responder {
            out.fill(if respond { f32::NEG_INFINITY } else { 0.0 });
            for a in 0..n {
                self.best_response(first + a, responder, respond, opponent, &mut value);
                for h in 0..COMBOS {
                    out[h] = if respond {
                        out[h].max(value[h])
                    } else {
                        out[h] + sigma[a][h] * value[h]
                    };
                }
            }
            return;
        }
        out.fill(0.0);
        let mut reach = [0.0f32; COMBOS];
        for (a, strategy) in sigma.iter().take(n).enumerate() {
            for h in 0..COMBOS {
                reach[h] = opponent[h] * strategy[h];
            }
            self.best_response(first + a, responder, respond, &reach, &mut value);
            for h in 0..COMBOS {
                out[h] += value[h];
            }
        }
    }

    /// `player`'s value in chips per hand (its holdings weighted by its range, each pair of
    /// holdings that share no card by both ranges) of the best response to the other's
    /// average strategy, or with `respond` false of its own average strategy.
    fn value_per_hand(&self, player: Position, respond: bool) -> f64 {
        let me = usize::from(player);
        let mut values = [0.0f32; COMBOS];
        self.best_response(0, player, respond, &self.ranges[1 - me], &mut values);
        let mut ones = [0.0f32; COMBOS];
        // The joint mass of compatible holding pairs: the fold formula with payoff 1.
        let mut mass = 0.0f64;
        let mut value = 0.0f64;
        compatible_mass(&self.order, &self.ranges[1 - me], &mut ones);
        for h in 0..COMBOS {
            mass += f64::from(self.ranges[me][h]) * f64::from(ones[h]);
            value += f64::from(self.ranges[me][h]) * f64::from(values[h]);
        }
        if mass > 0.0 { value / mass } else { 0.0 }
    }

    /// The exploitability of the average strategies in chips per hand (the mean of the two
    /// best responses' gains), each player's holdings weighted by its range.
    pub fn exploitability(&self) -> f64 {
        (self.value_per_hand(0, true) + self.value_per_hand(1, true)) / 2.0
    }

    /// Position 0's value in chips per hand when both play their average strategies (the
    /// chips it wins from here on, net of what it put in before; the game's value once the
    /// strategies have converged).
    pub fn value(&self) -> f64 {
        self.value_per_hand(0, false)
    }

    /// The average strategy of the player to act for its `holding`: each abstract action
    /// (as a real action of the hand) with its probability.
    pub fn strategy(
        &self,
        holding: [Card; 2],
    ) -> Result<Vec<(Action, f32), MAX_CHOICES>, ResolveError> {
        let index = combo_index(holding[0], holding[1]).ok_or(ResolveError::BadHolding)?;
        if !self.order.iter().any(|&(i, _)| usize::from(i) == index) {
            return Err(ResolveError::BadHolding);
        }
        let root = self.nodes[0];
        let n = usize::from(root.children);
        let mut sigma = [[0.0f32; COMBOS]; MAX_CHOICES];
        self.average(root.offset, n, &mut sigma);
        let mut out = Vec::new();
        for a in 0..n {
            let action = self.nodes[usize::from(root.first_child) + a].action;
            let _ = out.push((action, sigma[a][index]));
        }
        Ok(out)
    }

    /// An action for `holding` drawn from [`Resolver::strategy`] with one draw from `rng`.
    pub fn choose(
        &self,
        holding: [Card; 2],
        rng: &mut XorShiftRng,
    ) -> Result<Action, ResolveError> {
        let strategy = self.strategy(holding)?;
        let mut point = random_index(rng, 1 << 24) as f32 / (1u32 << 24) as f32;
        for &(action, p) in &strategy {
            point -= p;
            if point < 0.0 {
                return Ok(action);
            }
        }
        strategy
            .last()
            .map(|&(action, _)| action)
            .ok_or(wrong_street(S::STREET))
    }
}

/// The opponent's reach of the holdings of `live` sharing no card with each of them, into
/// `out` (in `f64` running totals).
fn compatible_mass(live: &[(u16, u16)], opponent: &Holdings, out: &mut Holdings) {
    let mut per_card = [0.0f64; 52];
    let mut total = 0.0f64;
    for &(index, _) in live {
        let reach = f64::from(opponent[usize::from(index)]);
        let [a, b] = combo_bytes(index);
        per_card[a] += reach;
        per_card[b] += reach;
        total += reach;
    }
    for &(index, _) in live {
        let i = usize::from(index);
        let [a, b] = combo_bytes(index);
        out[i] = (total - per_card[a] - per_card[b] + f64::from(opponent[i])) as f32;
    }
}

/// What a fold pays `traverser`: the folder's chips in, lost or won.
fn fold_payoff(spent: [Chips; 2], folder: Position, traverser: Position) -> f32 {
    let me = usize::from(traverser);
    if folder == traverser {
        -(spent[me] as f32)
    } else {
        spent[1 - me] as f32
    }
}

/// The error of a hand not on `street`.
fn wrong_street(street: Street) -> ResolveError {
    match street {
        Street::River => ResolveError::NotOnRiver,
        _ => ResolveError::NotOnTurn,
    }
}

/// `Ok` when `values` holds `needed` values at least.
fn check_len(values: &[f32], needed: usize) -> Result<(), ResolveError> {
    if values.len() < needed {
        return Err(ResolveError::Storage {
            needed,
            given: values.len(),
        });
    }
    Ok(())
}

/// The holdings that share no card with `board`, by index.
fn live_holdings(board: &[Card]) -> impl Iterator<Item = u16> {
    let dead = hand_mask(board);
    (0..COMBOS).filter_map(move |index| {
        let cards = combo_cards(index)?;
        (hand_mask(&cards) & dead == 0).then_some(index as u16)
    })
}

/// The two ranges on the holdings of `live`, each normalised to sum 1.
fn live_ranges(ranges: [&Range; 2], live: &[(u16, u16)]) -> Result<[Holdings; 2], ResolveError> {
    let mut normalised = [[0.0f32; COMBOS]; 2];
    for &(index, _) in live {
        let index = usize::from(index);
        for (position, range) in ranges.iter().enumerate() {
            normalised[position][index] = range.weight(index);
        }
    }
    for (position, range) in normalised.iter_mut().enumerate() {
        let total: f32 = range.iter().sum();
        if !(total > 0.0 && total.is_finite()) {
            return Err(ResolveError::EmptyRange(position as Position));
        }
        range.iter_mut().for_each(|w| *w /= total);
    }
    Ok(normalised)
}

/// Regret-matching rows (`n` rows of [`COMBOS`], non-negative parts) into probabilities per
/// holding; uniform where a holding's row sums to 0. Row by row over all the holdings (so the
/// loops run in SIMD lanes), each holding's total adds its actions in order from -0.0, as
/// `Iterator::sum` does: the same bits as summing holding by holding.
fn normalise_rows(rows: &[f32], n: usize, sigma: &mut [Holdings; MAX_CHOICES]) {
    let total = regret_totals(rows, n);
    for (row, strategy) in rows.chunks_exact(COMBOS).zip(sigma.iter_mut()).take(n) {
        strategy_row(row, &total, n, strategy);
    }
}

/// Per holding, the sum of the first `n` rows' non-negative parts, added in row order from
/// -0.0. Always inlined, so that the walks' AVX copies run it in their lanes.
#[inline(always)]
fn regret_totals(rows: &[f32], n: usize) -> Holdings {
    let mut total = [-0.0f32; COMBOS];
    for row in rows.chunks_exact(COMBOS).take(n) {
        for (t, &r) in total.iter_mut().zip(row) {
            *t += r.max(0.0);
        }
    }
    total
}

/// One row of [`normalise_rows`]: `row`'s non-negative part over `total`, or uniform over
/// `n` actions where the total is 0. Always inlined (as [`regret_totals`]).
#[inline(always)]
fn strategy_row(row: &[f32], total: &Holdings, n: usize, strategy: &mut Holdings) {
    let uniform = 1.0 / n as f32;
    for h in 0..COMBOS {
        strategy[h] = if total[h] > 0.0 {
            row[h].max(0.0) / total[h]
        } else {
            uniform
        };
    }
}

/// The card bytes of a holding, as indices.
fn combo_bytes(index: u16) -> [usize; 2] {
    match combo_cards(usize::from(index)) {
        Some([a, b]) => [usize::from(a.byte()), usize::from(b.byte())],
        None => [0, 0],
    }
}

fn hand_mask(cards: &[Card]) -> u64 {
    cards.iter().fold(0, |mask, card| mask | 1 << card.byte())
}

/// The public tree of `hand` (on `street`, its board dealt, a player to act) under `bets`,
/// the storage its decisions need and its number of both-in leaves.
fn build_tree(
    hand: &HandState,
    bets: &BetAbstraction,
    street: Street,
) -> Result<(Vec<Node, MAX_NODES>, usize, TreeCounts), ResolveError> {
    let wrong = wrong_street(street);
    let player = hand.to_act().ok_or(wrong)?;
    if hand.street() != street || hand.board().len() != street.board_cards() || hand.is_over() {
        return Err(wrong);
    }
    if bets
        .pot_fractions
        .iter()
        .any(|f| !(f.is_finite() && *f > 0.0))
    {
        return Err(ResolveError::BadFraction);
    }
    let mut nodes = Vec::new();
    let root = Node {
        kind: Kind::Decision { player },
        spent: [hand.spent(0), hand.spent(1)],
        action: Action::Call,
        first_child: 0,
        children: 0,
        offset: 0,
        leaf: 0,
    };
    let full = ResolveError::TreeTooLarge { limit: MAX_NODES };
    nodes.push(root).map_err(|_| full)?;
    let mut counts = TreeCounts::default();
    expand(&mut nodes, 0, hand, bets, 0, &mut counts)?;
    Ok((nodes, counts.rows, counts))
}

/// What [`expand`] has laid out so far: storage rows of the decisions, both-in leaves, folds.
#[derive(Default)]
struct TreeCounts {
    rows: usize,
    leaves: usize,
    folds: usize,
}

/// Adds the children of decision `index` (the state `state`, `raises` raises so far) and
/// their subtrees, counting their storage and leaves into `counts`.
fn expand(
    nodes: &mut Vec<Node, MAX_NODES>,
    index: usize,
    state: &HandState,
    bets: &BetAbstraction,
    raises: u8,
    counts: &mut TreeCounts,
) -> Result<(), ResolveError> {
    let full = ResolveError::TreeTooLarge { limit: MAX_NODES };
    let mut actions: Vec<Action, MAX_CHOICES> = Vec::new();
    if state.can_fold() {
        let _ = actions.push(Action::Fold);
    }
    let _ = actions.push(Action::Call);
    let bounds = state.raise_bounds().filter(|_| raises < bets.max_raises);
    if let Some((min, max)) = bounds {
        let bet = state.current_bet();
        let me = state.to_act().unwrap_or(0);
        let pot_after_call = state.pot() + (bet - state.spent(me));
        let mut sizes: Vec<Chips, MAX_CHOICES> = Vec::new();
        for &fraction in &bets.pot_fractions {
            let to = f64::from(bet) + f64::from(fraction) * f64::from(pot_after_call);
            let to = (libm::round(to) as Chips).clamp(min, max);
            let _ = sizes.push(to);
        }
        if bets.all_in {
            let _ = sizes.push(max);
        }
        sizes.sort_unstable();
        for (k, &to) in sizes.iter().enumerate() {
            if k == 0 || sizes[k - 1] != to {
                actions.push(Action::RaiseTo(to)).map_err(|_| full)?;
            }
        }
    }
    let first = nodes.len();
    let mut states: Vec<(HandState, u8), MAX_CHOICES> = Vec::new();
    for &action in &actions {
        let mut child = state.clone();
        // Every action was chosen legal above; one the rules refuse is left out.
        if child.apply(action).is_err() {
            continue;
        }
        let kind = match (child.folded(), child.to_act()) {
            (Some(folder), _) => Kind::Fold { folder },
            (None, Some(player)) if !child.is_over() => Kind::Decision { player },
            _ => Kind::Showdown,
        };
        let leaf = match kind {
            Kind::Fold { .. } => counts.folds,
            _ => counts.leaves,
        } as u16;
        counts.leaves += usize::from(kind == Kind::Showdown);
        counts.folds += usize::from(matches!(kind, Kind::Fold { .. }));
        let node = Node {
            kind,
            spent: [child.spent(0), child.spent(1)],
            action,
            first_child: 0,
            children: 0,
            offset: 0,
            leaf,
        };
        nodes.push(node).map_err(|_| full)?;
        let raised = u8::from(matches!(action, Action::RaiseTo(_)));
        let _ = states.push((child, raises + raised));
    }
    let n = nodes.len() - first;
    nodes[index].first_child = first as u16;
    nodes[index].children = n as u8;
    nodes[index].offset = counts.rows;
    counts.rows += 2 * n * COMBOS;
    for (k, (child, raises)) in states.iter().enumerate() {
        if matches!(nodes[first + k].kind, Kind::Decision { .. }) {
            expand(nodes, first + k, child, bets, *raises, counts)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::rules::HoldemConfig;
    use crate::search::game::seeded_rng;

    fn cards(text: &str) -> std::vec::Vec<Card> {
        text.split_whitespace()
            .map(|t| Card::parse(t).unwrap())
            .collect()
    }

    /// Checked down to the river of `board` (five cards): pot 200, position 0 to act.
    fn river(board: &str) -> HandState {
        let mut hand = HandState::new(HoldemConfig::ACPC);
        let board = cards(board);
        hand.apply(Action::Call).unwrap();
        hand.apply(Action::Call).unwrap();
        for (street, count) in [(0, 3), (3, 1), (4, 1)] {
            for card in &board[street..street + count] {
                hand.deal_board_card(*card).unwrap();
            }
            if street < 4 {
                hand.apply(Action::Call).unwrap();
                hand.apply(Action::Call).unwrap();
            }
        }
        hand
    }

    fn range(holdings: &[&str]) -> Range {
        let mut weights = [0.0; COMBOS];
        for text in holdings {
            let c = cards(text);
            weights[combo_index(c[0], c[1]).unwrap()] = 1.0;
        }
        Range::from_weights(weights)
    }

    const BOARD: &str = "Kh 8d 5c 2s 3h";
    const SETS: [&str; 3] = ["Kc Kd", "Kc Ks", "Kd Ks"];
    const AIR: [&str; 3] = ["Jc Tc", "Jd Td", "Js Ts"];
    const CATCHERS: [&str; 6] = ["Ac 8c", "Ad 8c", "As 8h", "Ah 8s", "Ac 8h", "Ad 8s"];

    fn bet_probability(solver: &RiverSolver, holding: &str) -> f32 {
        let c = cards(holding);
        let strategy = solver.strategy([c[0], c[1]]).unwrap();
        strategy
            .iter()
            .filter(|(a, _)| matches!(a, Action::RaiseTo(_)))
            .map(|&(_, p)| p)
            .sum()
    }

    #[test]
    fn a_polarized_range_bets_its_nuts_and_bluffs_some_air() {
        let hand = river(BOARD);
        let hero = range(&[&SETS[..], &AIR[..]].concat());
        let villain = range(&CATCHERS);
        // Pot-sized bets only: the bluff-catcher needs a third of the pot, so a balanced
        // range bets one bluff for two value bets, and the air bets half the time.
        let bets = BetAbstraction {
            pot_fractions: Vec::from_slice(&[1.0]).unwrap(),
            all_in: false,
            max_raises: 2,
        };
        let mut values = std::vec![0.0; RiverSolver::values_len(&hand, &bets).unwrap()];
        let mut solver = RiverSolver::new(&hand, [&hero, &villain], &bets, &mut values).unwrap();
        let mut seen = std::vec::Vec::new();
        for iterations in [10, 90, 900] {
            solver.solve(iterations);
            seen.push(solver.exploitability());
        }
        assert!(seen[1] < seen[0] && seen[2] < seen[1], "{seen:?}");
        // Below 1% of the 200-chip pot after 1,000 iterations.
        assert!(seen[2] < 2.0, "{seen:?}");
        let nuts = bet_probability(&solver, SETS[0]);
        let air = bet_probability(&solver, AIR[0]);
        assert!(nuts > 0.95, "nuts bet {nuts}");
        assert!((air - 0.5).abs() < 0.1, "air bet {air}");
        let mut rng = seeded_rng(1);
        let c = cards(SETS[0]);
        let action = solver.choose([c[0], c[1]], &mut rng).unwrap();
        assert!(matches!(action, Action::RaiseTo(_)), "{action:?}");
    }

    #[test]
    fn a_stopped_solve_is_the_solve_of_the_iterations_it_ran() {
        let hand = river(BOARD);
        let hero = range(&[&SETS[..], &AIR[..]].concat());
        let villain = range(&CATCHERS);
        let bets = BetAbstraction::default();
        let len = RiverSolver::values_len(&hand, &bets).unwrap();
        let strategy_after = |stop: &mut dyn Stop, asked: u32| {
            let mut values = std::vec![0.0; len];
            let mut solver =
                RiverSolver::new(&hand, [&hero, &villain], &bets, &mut values).unwrap();
            let ran = solver.solve_until(asked, stop);
            assert_eq!(ran, solver.iterations());
            let c = cards(AIR[0]);
            let strategy = solver.strategy([c[0], c[1]]).unwrap();
            let bits: std::vec::Vec<_> = strategy.iter().map(|(a, p)| (*a, p.to_bits())).collect();
            (ran, bits)
        };
        let (ran, fifteen) = strategy_after(&mut Never, 15);
        assert_eq!(ran, 15);
        // Stopped after 15 of 40: bit for bit the solve of 15.
        let (ran, stopped) = strategy_after(&mut |done: u32| done >= 15, 40);
        assert_eq!(ran, 15);
        assert_eq!(stopped, fifteen);
        // A stop that never fires runs them all; one that fires at once runs none.
        assert_eq!(strategy_after(&mut |_: u32| false, 40).0, 40);
        assert_eq!(strategy_after(&mut |_: u32| true, 40).0, 0);
    }

    #[test]
    fn the_nuts_never_folds_to_a_bet() {
        let mut hand = river(BOARD);
        hand.apply(Action::RaiseTo(300)).unwrap(); // position 0 bets the pot
        let hero = range(&[&SETS[..], &CATCHERS[..]].concat()); // position 1, to act
        let villain = range(&[&SETS[..], &AIR[..]].concat());
        let bets = BetAbstraction::default();
        let mut values = std::vec![0.0; RiverSolver::values_len(&hand, &bets).unwrap()];
        let mut solver = RiverSolver::new(&hand, [&villain, &hero], &bets, &mut values).unwrap();
        solver.solve(500);
        let c = cards(SETS[1]);
        let strategy = solver.strategy([c[0], c[1]]).unwrap();
        let fold = strategy
            .iter()
            .find(|(a, _)| *a == Action::Fold)
            .map(|&(_, p)| p);
        assert!(fold.is_some_and(|p| p < 1e-3), "{strategy:?}");
    }

    /// The O(holdings) fold and showdown values equal the O(holdings²) sums over every pair
    /// of holdings that share no card, for a random opponent reach.
    #[test]
    fn terminal_values_match_the_sum_over_pairs() {
        use rand_core::Rng;
        let hand = river(BOARD);
        let bets = BetAbstraction::default();
        let any = Range::uniform();
        let mut values = std::vec![0.0; RiverSolver::values_len(&hand, &bets).unwrap()];
        let solver = RiverSolver::new(&hand, [&any, &any], &bets, &mut values).unwrap();
        let mut rng = seeded_rng(3);
        let mut reach = [0.0f32; COMBOS];
        for &(index, _) in &solver.order {
            reach[usize::from(index)] = (rng.next_u32() % 1000) as f32 / 1000.0;
        }
        let find = |wanted: fn(Kind) -> bool| {
            (0..solver.nodes.len())
                .find(|&i| wanted(solver.nodes[i].kind))
                .unwrap()
        };
        let fold = find(|k| matches!(k, Kind::Fold { .. }));
        let showdown = find(|k| matches!(k, Kind::Showdown));
        for (node, traverser) in [(fold, 0), (fold, 1), (showdown, 0), (showdown, 1)] {
            let mut fast = [0.0f32; COMBOS];
            solver.terminal(node, traverser, &reach, &mut fast);
            let Node { kind, spent, .. } = solver.nodes[node];
            let me = usize::from(traverser);
            for &(mine, my_rank) in &solver.order {
                let [a, b] = combo_bytes(mine);
                let mut slow = 0.0f64;
                for &(theirs, their_rank) in &solver.order {
                    let [c, d] = combo_bytes(theirs);
                    if a == c || a == d || b == c || b == d {
                        continue;
                    }
                    let payoff = match kind {
                        Kind::Fold { folder } if folder == traverser => -f64::from(spent[me]),
                        Kind::Fold { .. } => f64::from(spent[1 - me]),
                        _ => {
                            let stake = f64::from(spent[0].min(spent[1]));
                            match my_rank.cmp(&their_rank) {
                                core::cmp::Ordering::Greater => stake,
                                core::cmp::Ordering::Less => -stake,
                                core::cmp::Ordering::Equal => 0.0,
                            }
                        }
                    };
                    slow += payoff * f64::from(reach[usize::from(theirs)]);
                }
                let got = f64::from(fast[usize::from(mine)]);
                assert!(
                    (got - slow).abs() <= 1e-4 * slow.abs().max(1.0) + 0.05,
                    "node {node} player {traverser} holding {mine}: {got} vs {slow}"
                );
            }
        }
    }

    #[test]
    fn bad_spots_are_errors() {
        let hand = HandState::new(HoldemConfig::ACPC);
        let bets = BetAbstraction::default();
        assert_eq!(
            RiverSolver::values_len(&hand, &bets),
            Err(ResolveError::NotOnRiver)
        );
        let hand = river(BOARD);
        let mut small = [0.0f32; 10];
        let any = Range::uniform();
        assert!(matches!(
            RiverSolver::new(&hand, [&any, &any], &bets, &mut small),
            Err(ResolveError::Storage { .. })
        ));
        let mut values = std::vec![0.0; RiverSolver::values_len(&hand, &bets).unwrap()];
        let empty = range(&["Kh 8d"]); // blocked by the board
        assert!(matches!(
            RiverSolver::new(&hand, [&any, &empty], &bets, &mut values),
            Err(ResolveError::EmptyRange(1))
        ));
        let solver = RiverSolver::new(&hand, [&any, &any], &bets, &mut values).unwrap();
        let c = cards("Kh As");
        assert_eq!(solver.strategy([c[0], c[1]]), Err(ResolveError::BadHolding));
        let mut wild = BetAbstraction::default();
        wild.pot_fractions[0] = f32::NAN;
        assert_eq!(
            RiverSolver::values_len(&hand, &wild),
            Err(ResolveError::BadFraction)
        );
    }

    /// Checked down to the turn of `board` (four cards): pot 200, position 0 to act.
    fn turn(board: &str) -> HandState {
        let mut hand = HandState::new(HoldemConfig::ACPC);
        let board = cards(board);
        hand.apply(Action::Call).unwrap();
        hand.apply(Action::Call).unwrap();
        for card in &board[..3] {
            hand.deal_board_card(*card).unwrap();
        }
        hand.apply(Action::Call).unwrap();
        hand.apply(Action::Call).unwrap();
        hand.deal_board_card(board[3]).unwrap();
        hand
    }

    const TURN_BOARD: &str = "Kh 8d 5c 2s";

    /// The equity of `mine` against `theirs` on `board` (four cards), enumerating the 44
    /// rivers: wins plus half the ties.
    fn river_equity(board: &str, mine: &str, theirs: &str) -> f64 {
        let board = cards(board);
        let (mine, theirs) = (cards(mine), cards(theirs));
        let dead: std::vec::Vec<Card> = board.iter().chain(&mine).chain(&theirs).copied().collect();
        let mut rivers = 0;
        let mut equity = 0.0;
        for river in Card::ALL {
            if dead.contains(&river) {
                continue;
            }
            rivers += 1;
            let rank = |hole: &[Card]| {
                let mut seven = [0u8; 7];
                for (slot, card) in seven
                    .iter_mut()
                    .zip(hole.iter().chain(&board).chain([&river]))
                {
                    *slot = card.byte();
                }
                rank7_unchecked(&seven)
            };
            equity += match rank(&mine).cmp(&rank(&theirs)) {
                core::cmp::Ordering::Greater => 1.0,
                core::cmp::Ordering::Equal => 0.5,
                core::cmp::Ordering::Less => 0.0,
            };
        }
        assert_eq!(rivers, 44);
        equity / 44.0
    }

    /// Position 0 holds one hand and may check or bet the pot once; position 1 holds one of
    /// two hands (it knows position 0's) and may call or fold, or bet the pot after a check.
    /// Position 0 picks its bet probability and its calling frequency `q` after a check and
    /// a bet; position 1 answers each hand with its best pure reply. The game's value is
    /// max(bet's value, the best `q`'s value after a check), and the check's value is concave
    /// and piecewise linear in `q`, so its maximum is at 0, 1 or where a hand of position 1
    /// is indifferent.
    #[test]
    fn a_turn_re_solve_converges_to_the_value_from_river_equities() {
        let hand = turn(TURN_BOARD);
        let mine = "Ac Kc";
        let theirs = ["8h 8c", "9c 7c"];
        let bets = BetAbstraction {
            pot_fractions: Vec::from_slice(&[1.0]).unwrap(),
            all_in: false,
            max_raises: 1,
        };
        // Spent 100 each; a pot bet raises to 300.
        let show = |e: f64, stake: f64| stake * (2.0 * e - 1.0);
        let equities: std::vec::Vec<f64> = theirs
            .iter()
            .map(|t| river_equity(TURN_BOARD, mine, t))
            .collect();
        assert!(equities[0] < 0.1 && equities[1] > 0.8, "{equities:?}");
        let bet: f64 = equities
            .iter()
            .map(|&e| 0.5 * f64::min(100.0, show(e, 300.0)))
            .sum();
        let after_check = |q: f64| -> f64 {
            equities
                .iter()
                .map(|&e| 0.5 * f64::min(show(e, 100.0), q * show(e, 300.0) - (1.0 - q) * 100.0))
                .sum()
        };
        let mut best = after_check(0.0).max(after_check(1.0));
        for &e in &equities {
            let q = (show(e, 100.0) + 100.0) / (show(e, 300.0) + 100.0);
            if (0.0..=1.0).contains(&q) {
                best = best.max(after_check(q));
            }
        }
        let expected = bet.max(best);
        let mut values = std::vec![0.0; TurnSolver::values_len(&hand, &bets).unwrap()];
        let mut solver = TurnSolver::new(
            &hand,
            [&range(&[mine]), &range(&theirs)],
            &bets,
            &mut values,
        )
        .unwrap();
        solver.solve(400);
        let value = solver.value();
        assert!(
            (value - expected).abs() < 0.5,
            "solver {value} against {expected} (bet {bet}, check {best})"
        );
        assert!(solver.exploitability() < 0.5, "{}", solver.exploitability());
    }

    /// The turn's leaf values (fold, and the check-down over the 44 rivers of each pair of
    /// holdings) equal the sums over every pair and every river, for a random opponent reach:
    /// on a rainbow board (every river's row shared with the other suits of its rank), a
    /// paired board with a flush draw and a board with a flush (some rivers alone in their
    /// rows).
    #[test]
    fn turn_leaf_values_match_the_sum_over_pairs_and_rivers() {
        for board in [TURN_BOARD, "Ks 9h 9d 2s", "Ah Th 6h 3c"] {
            turn_leaf_values_match_the_sums_on(board);
        }
    }

    fn turn_leaf_values_match_the_sums_on(board_text: &str) {
        use rand_core::Rng;
        let hand = turn(board_text);
        let board = cards(board_text);
        let mut rng = seeded_rng(5);
        let bets = BetAbstraction::default();
        let any = Range::uniform();
        let mut values = std::vec![0.0; TurnSolver::values_len(&hand, &bets).unwrap()];
        let solver = TurnSolver::new(&hand, [&any, &any], &bets, &mut values).unwrap();
        let mut reach = [0.0f32; COMBOS];
        for &(index, _) in &solver.order {
            reach[usize::from(index)] = (rng.next_u32() % 1000) as f32 / 1000.0;
        }
        // Ranks by river card byte and holding.
        let mut ranks = std::vec![[0u16; COMBOS]; 52];
        for river in Card::ALL {
            if board.contains(&river) {
                continue;
            }
            for &(index, _) in &solver.order {
                let [a, b] = combo_bytes(index);
                let mut seven = [a as u8, b as u8, 0, 0, 0, 0, river.byte()];
                for (slot, card) in seven[2..6].iter_mut().zip(&board) {
                    *slot = card.byte();
                }
                ranks[usize::from(river.byte())][usize::from(index)] = rank7_unchecked(&seven);
            }
        }
        // The first fold and the first both-in leaf, for each player.
        let fold = solver
            .nodes
            .iter()
            .position(|n| matches!(n.kind, Kind::Fold { .. }));
        let both_in = solver.nodes.iter().position(|n| n.kind == Kind::Showdown);
        let leaves = [fold.unwrap(), both_in.unwrap()];
        for (node, traverser) in leaves.into_iter().flat_map(|l| [(l, 0u8), (l, 1)]) {
            let Node { kind, spent, .. } = solver.nodes[node];
            let mut fast = [0.0f32; COMBOS];
            solver.terminal(node, traverser, &reach, &mut fast);
            let (me, stake) = (usize::from(traverser), f64::from(spent[0].min(spent[1])));
            // Every fifth holding keeps the test quick; the sums cover all the opponent's.
            for &(mine, _) in solver.order.iter().step_by(5) {
                let [a, b] = combo_bytes(mine);
                let mut slow = 0.0f64;
                for &(theirs, _) in &solver.order {
                    let theirs_cards = combo_bytes(theirs);
                    if theirs_cards.iter().any(|x| *x == a || *x == b) {
                        continue;
                    }
                    let [c, d] = theirs_cards;
                    let weight = f64::from(reach[usize::from(theirs)]);
                    let payoff = match kind {
                        Kind::Fold { folder } if folder == traverser => -f64::from(spent[me]),
                        Kind::Fold { .. } => f64::from(spent[1 - me]),
                        _ => {
                            let mut sum = 0.0;
                            for river in Card::ALL {
                                let r = usize::from(river.byte());
                                if board.contains(&river) || [a, b, c, d].contains(&r) {
                                    continue;
                                }
                                let (x, y) =
                                    (ranks[r][usize::from(mine)], ranks[r][usize::from(theirs)]);
                                sum += match x.cmp(&y) {
                                    core::cmp::Ordering::Greater => stake,
                                    core::cmp::Ordering::Less => -stake,
                                    core::cmp::Ordering::Equal => 0.0,
                                };
                            }
                            sum / 44.0
                        }
                    };
                    slow += payoff * weight;
                }
                let got = f64::from(fast[usize::from(mine)]);
                assert!(
                    (got - slow).abs() <= 1e-4 * slow.abs().max(1.0) + 0.05,
                    "node {node} player {traverser} holding {mine}: {got} vs {slow}"
                );
            }
        }
    }

    /// The batched leaf values (in sweeps of 16, 12, 8 and 4 lanes) are each leaf's values
    /// valued alone, bit for bit.
    #[test]
    fn batched_turn_leaves_equal_the_leaves_valued_alone() {
        use rand_core::Rng;
        let hand = turn(TURN_BOARD);
        let bets = BetAbstraction::default();
        let any = Range::uniform();
        let mut values = std::vec![0.0; TurnSolver::values_len(&hand, &bets).unwrap()];
        let solver = TurnSolver::new(&hand, [&any, &any], &bets, &mut values).unwrap();
        let mut rng = seeded_rng(7);
        // 21 leaves: a sweep of 20 lanes and one of 4 (1 used); 15: one of 16; 10: one of 12;
        // 3: one of 4.
        for leaves in [21, 15, 10, 3] {
            let mut rows = std::vec![0.0f32; leaves * COMBOS];
            for row in rows.chunks_exact_mut(COMBOS) {
                for &(index, _) in &solver.order {
                    row[usize::from(index)] = (rng.next_u32() % 1000) as f32 / 1000.0;
                }
            }
            let reaches = rows.clone();
            solver.showdown.value_leaves(&solver.order, &mut rows);
            for (reach, batched) in reaches.chunks_exact(COMBOS).zip(rows.chunks_exact(COMBOS)) {
                let mut opponent = [0.0f32; COMBOS];
                opponent.copy_from_slice(reach);
                let mut alone = [0.0f32; COMBOS];
                solver
                    .showdown
                    .add_values(&solver.order, &opponent, 1.0, &mut alone);
                assert_eq!(&alone[..], batched);
                assert!(alone.iter().any(|&v| v != 0.0));
            }
        }
    }

    /// The turn's leaves valued one at a time, as the walk reaches them.
    struct OneAtATime<'a>(TurnShowdown<'a>);

    impl<'a> Showdown<'a> for OneAtATime<'a> {
        const STREET: Street = Street::Turn;
        const TABLE_LEN: usize = TURN_TABLE_LEN;
        const BATCHED: bool = false;

        fn prepare(board: &[Card], table: &'a mut [f32]) -> (Vec<(u16, u16), COMBOS>, Self) {
            let (order, showdown) = TurnShowdown::prepare(board, table);
            (order, OneAtATime(showdown))
        }

        fn add_values(
            &self,
            live: &[(u16, u16)],
            opponent: &Holdings,
            stake: f32,
            out: &mut Holdings,
        ) {
            self.0.add_values(live, opponent, stake, out);
        }

        fn fold_values(
            &self,
            live: &[(u16, u16)],
            opponent: &Holdings,
            payoff: f32,
            out: &mut Holdings,
        ) {
            self.0.fold_values(live, opponent, payoff, out);
        }
    }

    /// Valuing the both-in leaves in a batch before each walk changes nothing: the same
    /// strategies for every holding, bit for bit, as valuing each where the walk reaches it.
    #[test]
    fn a_turn_re_solve_with_batched_leaves_is_the_walk_valuing_each_leaf() {
        let hand = turn(TURN_BOARD);
        let (hero, villain) = turn_ranges();
        let bets = BetAbstraction::default();
        let mut values = std::vec![0.0; TurnSolver::values_len(&hand, &bets).unwrap()];
        let mut batched = TurnSolver::new(&hand, [&hero, &villain], &bets, &mut values).unwrap();
        // An unbet turn under the default bets has 19 both-in leaves, a row each, and a
        // row per fold.
        let folds = batched
            .nodes
            .iter()
            .filter(|n| matches!(n.kind, Kind::Fold { .. }))
            .count();
        assert_eq!(batched.fold_rows - batched.tree_rows, 19 * COMBOS);
        assert_eq!(batched.values.len() - batched.fold_rows, folds * COMBOS);
        let len = Resolver::<OneAtATime>::values_len(&hand, &bets).unwrap();
        assert_eq!(
            len + (19 + folds) * COMBOS,
            batched.values.len() + TURN_TABLE_LEN
        );
        let mut plain_values = std::vec![0.0; len];
        let mut plain =
            Resolver::<OneAtATime>::new(&hand, [&hero, &villain], &bets, &mut plain_values)
                .unwrap();
        batched.solve(8);
        plain.solve(8);
        let bits =
            |values: &[f32]| -> std::vec::Vec<u32> { values.iter().map(|v| v.to_bits()).collect() };
        assert_eq!(
            bits(&batched.values[..batched.tree_rows]),
            bits(&plain.values[..plain.tree_rows])
        );
        assert_eq!(batched.value().to_bits(), plain.value().to_bits());
    }

    /// Position 0: sets, a flush draw and air; position 1: top pairs and a straight draw.
    fn turn_ranges() -> (Range, Range) {
        let hero = range(&[
            "Kc Kd", "8h 8c", "Ah Qh", "Jh 9h", "Jc Tc", "Qs Js", "7d 6d",
        ]);
        let villain = range(&["Ac Kd", "Ad Ks", "Qd Kc", "Ks Jd", "7c 6c", "As 4s"]);
        (hero, villain)
    }

    #[test]
    fn the_turn_strategy_gets_less_exploitable_with_iterations() {
        let hand = turn(TURN_BOARD);
        let (hero, villain) = turn_ranges();
        // Pot-sized bets, two raises, no all-in.
        let bets = BetAbstraction {
            all_in: false,
            pot_fractions: Vec::from_slice(&[1.0]).unwrap(),
            ..BetAbstraction::default()
        };
        let mut values = std::vec![0.0; TurnSolver::values_len(&hand, &bets).unwrap()];
        let mut solver = TurnSolver::new(&hand, [&hero, &villain], &bets, &mut values).unwrap();
        let seen: std::vec::Vec<f64> = [5, 20, 75]
            .iter()
            .map(|&iterations| {
                solver.solve(iterations);
                solver.exploitability()
            })
            .collect();
        assert!(seen.windows(2).all(|w| w[1] < w[0]), "{seen:?}");
        // Below 1% of the 200-chip pot after 100 iterations.
        assert!(seen[2] < 2.0, "{seen:?}");
    }

    /// Same inputs, same strategy bit for bit; a stopped solve is the solve of the
    /// iterations it ran.
    #[test]
    fn turn_re_solves_are_deterministic() {
        let hand = turn(TURN_BOARD);
        let (hero, villain) = turn_ranges();
        let bets = BetAbstraction::default();
        let len = TurnSolver::values_len(&hand, &bets).unwrap();
        let run = |stop: &mut dyn Stop, asked: u32| {
            let mut values = std::vec![f32::NAN; len];
            let mut solver = TurnSolver::new(&hand, [&hero, &villain], &bets, &mut values).unwrap();
            let ran = solver.solve_until(asked, stop);
            let mut bits = std::vec::Vec::new();
            for holding in ["Kc Kd", "Jc Tc", "7d 6d"] {
                let c = cards(holding);
                for (action, p) in solver.strategy([c[0], c[1]]).unwrap() {
                    bits.push((action, p.to_bits()));
                }
            }
            let c = cards("Jh 9h");
            let chosen = solver.choose([c[0], c[1]], &mut seeded_rng(9)).unwrap();
            let value = solver.value().to_bits();
            (ran, bits, chosen, value)
        };
        let first = run(&mut Never, 12);
        assert_eq!(first.0, 12);
        assert_eq!(run(&mut Never, 12), first);
        let stopped = run(&mut |done: u32| done >= 12, 30);
        assert_eq!(stopped, first);
        assert_ne!(run(&mut Never, 13).1, first.1);
    }

    /// 64-bit FNV-1a over the bits of `values`.
    fn bits_hash(values: &[f32]) -> u64 {
        values.iter().fold(0xcbf2_9ce4_8422_2325, |hash, v| {
            v.to_bits().to_le_bytes().iter().fold(hash, |h, &byte| {
                (h ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3)
            })
        })
    }

    /// The turn re-solve's regrets, strategy sums and last leaf values after 20 iterations,
    /// pinned bit for bit (a speed-up must leave them unchanged): narrow ranges on a rainbow
    /// board, and both ranges uniform on a paired board with a flush draw (many ties).
    #[test]
    fn turn_re_solves_keep_their_pinned_bits() {
        let bets = BetAbstraction::default();
        let (hero, villain) = turn_ranges();
        let any = Range::uniform();
        let spots = [
            (TURN_BOARD, [&hero, &villain]),
            ("Ks 9h 9d 2s", [&any, &any]),
        ];
        let hashes: std::vec::Vec<u64> = spots
            .iter()
            .map(|(board, ranges)| {
                let hand = turn(board);
                let mut values = std::vec![0.0; TurnSolver::values_len(&hand, &bets).unwrap()];
                let mut solver = TurnSolver::new(&hand, *ranges, &bets, &mut values).unwrap();
                solver.solve(20);
                bits_hash(solver.values)
            })
            .collect();
        assert_eq!(
            hashes,
            [0xb365_8668_8ed6_6231, 0xafcd_096b_d1e9_1dd8],
            "{hashes:x?}"
        );
    }

    /// Batched leaf values of random reaches on a paired board with a flush draw, pinned.
    #[test]
    fn turn_leaf_values_keep_their_pinned_bits() {
        use rand_core::Rng;
        let hand = turn("Ks 9h 9d 2s");
        let bets = BetAbstraction::default();
        let any = Range::uniform();
        let mut values = std::vec![0.0; TurnSolver::values_len(&hand, &bets).unwrap()];
        let solver = TurnSolver::new(&hand, [&any, &any], &bets, &mut values).unwrap();
        let mut rng = seeded_rng(11);
        let mut rows = std::vec![0.0f32; 19 * COMBOS];
        for row in rows.chunks_exact_mut(COMBOS) {
            for &(index, _) in &solver.order {
                row[usize::from(index)] = (rng.next_u32() % 1000) as f32 / 1000.0;
            }
        }
        solver.showdown.value_leaves(&solver.order, &mut rows);
        let hash = bits_hash(&rows);
        assert_eq!(hash, 0xb368_0773_1801_bc0f, "{hash:#x}");
    }

    /// The walks' AVX copy leaves every regret, strategy sum and leaf row where the portable
    /// copy does, bit for bit, on the turn and on the river (where the processor has AVX).
    #[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "avx")))]
    #[test]
    fn the_avx_walks_equal_the_portable_ones_bit_for_bit() {
        if !std::is_x86_feature_detected!("avx") {
            std::eprintln!("skipped: this processor has no AVX, so only the portable walks run");
            return;
        }
        let bets = BetAbstraction::default();
        let (hero, villain) = turn_ranges();
        let turn_spot = turn(TURN_BOARD);
        let solve_turn = |avx: bool| {
            let mut values = std::vec![0.0; TurnSolver::values_len(&turn_spot, &bets).unwrap()];
            let mut solver =
                TurnSolver::new(&turn_spot, [&hero, &villain], &bets, &mut values).unwrap();
            solver.avx = avx;
            solver.solve(10);
            bits_hash(solver.values)
        };
        assert_eq!(solve_turn(true), solve_turn(false));
        let river_spot = river(BOARD);
        let (nuts, catchers) = (range(&[&SETS[..], &AIR[..]].concat()), range(&CATCHERS));
        let solve_river = |avx: bool| {
            let mut values = std::vec![0.0; RiverSolver::values_len(&river_spot, &bets).unwrap()];
            let mut solver =
                RiverSolver::new(&river_spot, [&nuts, &catchers], &bets, &mut values).unwrap();
            solver.avx = avx;
            solver.solve(30);
            bits_hash(solver.values)
        };
        assert_eq!(solve_river(true), solve_river(false));
    }

    #[test]
    fn bad_turn_spots_are_errors() {
        let bets = BetAbstraction::default();
        let any = Range::uniform();
        // A river board, a flop, preflop.
        let river = river(BOARD);
        assert_eq!(
            TurnSolver::values_len(&river, &bets),
            Err(ResolveError::NotOnTurn)
        );
        let mut flop = HandState::new(HoldemConfig::ACPC);
        flop.apply(Action::Call).unwrap();
        flop.apply(Action::Call).unwrap();
        for card in cards("Kh 8d 5c") {
            flop.deal_board_card(card).unwrap();
        }
        let mut values = std::vec![0.0; 400_000];
        for hand in [&river, &flop, &HandState::new(HoldemConfig::ACPC)] {
            assert!(matches!(
                TurnSolver::new(hand, [&any, &any], &bets, &mut values),
                Err(ResolveError::NotOnTurn)
            ));
        }
        // The turn card not dealt yet: betting over, no one to act.
        let mut due = flop.clone();
        due.apply(Action::Call).unwrap();
        due.apply(Action::Call).unwrap();
        assert_eq!(
            TurnSolver::values_len(&due, &bets),
            Err(ResolveError::NotOnTurn)
        );
        let hand = turn(TURN_BOARD);
        let len = TurnSolver::values_len(&hand, &bets).unwrap();
        assert!(len > TURN_TABLE_LEN);
        let mut short = std::vec![0.0; len - 1];
        assert_eq!(
            TurnSolver::new(&hand, [&any, &any], &bets, &mut short).err(),
            Some(ResolveError::Storage {
                needed: len,
                given: len - 1
            })
        );
        let blocked = range(&["Kh 8d"]);
        let none = Range::from_weights([0.0; COMBOS]);
        let mut values = std::vec![0.0; len];
        for (ranges, position) in [([&blocked, &any], 0), ([&any, &none], 1)] {
            assert_eq!(
                TurnSolver::new(&hand, ranges, &bets, &mut values).err(),
                Some(ResolveError::EmptyRange(position))
            );
        }
        let mut wild = BetAbstraction::default();
        wild.pot_fractions[1] = -1.0;
        assert_eq!(
            TurnSolver::values_len(&hand, &wild),
            Err(ResolveError::BadFraction)
        );
        let solver = TurnSolver::new(&hand, [&any, &any], &bets, &mut values).unwrap();
        for holding in ["Kh As", "As As"] {
            let c = cards(holding);
            assert_eq!(solver.strategy([c[0], c[1]]), Err(ResolveError::BadHolding));
        }
    }
}
