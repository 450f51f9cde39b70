//! The turn re-solve's both-in leaves, valued at the river's start by checking down: for each
//! of the 48 river cards the showdown over the holdings that miss that card, each pair of
//! holdings weighted by one over the 44 rivers it leaves.
//!
//! The river cards of one rank that order the holdings alike (on a board where they make no
//! flush, the suit of the river never matters) share one row: the holdings that miss one of
//! them at least, sorted by rank once per re-solve into the caller's storage. A rainbow
//! board's 48 rivers make 13 rows; a river that completes a flush draw has a row of its own.
//! A pair of disjoint holdings counts in a row once per river of the row that misses both:
//! `rivers − shared(i) − shared(j)`, where `shared` is how many of the row's rivers a
//! holding holds, so the sweep keeps two running totals, the reach and the reach times its
//! shared rivers, and a row of one river only the first.
//!
//! A leaf's value for a holding `i` is the opponent's reach of the disjoint holdings below
//! it minus that above it, which is `below + at_most − all`: `below` and `at_most` come from
//! one sweep up each row with running totals per card (for a holding that ties no one they
//! are equal), and `all`, summed over the rivers, is 44 times the opponent's reach of the
//! holdings disjoint from `i` (every pair of disjoint holdings sees 44 rivers), so it is
//! subtracted once per leaf, not once per river.
//!
//! The value is linear in the opponent's reach and the same for every both-in leaf but for
//! the stake, so the walks value all their leaves in one batch ([`TurnShowdown::value_leaves`]):
//! one sweep of each row serves up to 20 leaves, the per-leaf arithmetic in lanes (a leaf's
//! lane does the same operations in the same order whatever the batch, so its value is the
//! same bit for bit as valued alone by [`Showdown::add_values`]).
// Lanes are indexed in step across several arrays.
#![allow(clippy::needless_range_loop)]

use heapless::Vec;

use super::{Holdings, Showdown, combo_bytes, hand_mask, live_holdings};
use crate::holdem::card::Card;
use crate::holdem::equity::COMBOS;
use crate::holdem::eval::rank7_unchecked;
use crate::holdem::rules::Street;

/// River cards of a turn re-solve: the 48 cards off a four-card board.
pub const TURN_RIVERS: usize = 48;

/// Holdings that miss a four-card board and a river card: C(47, 2).
pub const TURN_RIVER_HOLDINGS: usize = 1081;

/// Holdings that miss a four-card board: C(48, 2).
const TURN_HOLDINGS: usize = 1128;

/// Values of a turn re-solve's table of showdown orders: at most one row per river card, each
/// a header and the holdings in order, weakest first ([`TurnSolver::values_len`](super::TurnSolver)
/// counts them in). A row of `m` rivers holds at most 1,128 holdings, no more than the `m`
/// rows of 1,081 it replaces.
pub const TURN_TABLE_LEN: usize = TURN_RIVERS * (TURN_RIVER_HOLDINGS + 1);

/// River cards that can come for one pair of holdings on a four-card board: 52 − 4 − 2 − 2.
const PAIR_RIVERS: f32 = 44.0;

/// A table entry packs a holding, its two card bytes, whether the next entry of the row has
/// the same rank and how many of the row's river cards it holds:
/// `holding | low << 11 | high << 17 | ties_next << 23 | shared << 24`, stored as the bits of
/// an `f32`. Below 2²⁶ the bits are never a NaN (their exponent is at most 7), and the
/// entries are only copied, never computed with. A row's header packs its number of entries
/// and of river cards: `entries | rivers << 11`.
const HOLDING_BITS: u32 = 11;
const CARD_BITS: u32 = 6;
const TIES_NEXT: u32 = 1 << (HOLDING_BITS + 2 * CARD_BITS);
const SHARED_SHIFT: u32 = HOLDING_BITS + 2 * CARD_BITS + 1;
const _: () = assert!(COMBOS < 1 << HOLDING_BITS && TIES_NEXT == 1 << 23);
const _: () = assert!(TURN_HOLDINGS < 1 << HOLDING_BITS);

/// Most leaves valued in one sweep of the river orders: the default tree's 19 both-in leaves
/// in one sweep (with AVX two registers of 8 lanes and one of 4, with one decoding of each
/// entry instead of two sweeps' of 16 + 4).
const MAX_LANES: usize = 20;

/// The turn's both-in leaves, valued at the river's start by checking down; see the
/// [module documentation](self).
#[derive(Clone, Copy, Debug)]
pub struct TurnShowdown<'a> {
    /// The rows, one per class of river cards that order the holdings alike: each a header
    /// and its packed entries, weakest first.
    table: &'a [f32],
}

impl<'a> Showdown<'a> for TurnShowdown<'a> {
    const STREET: Street = Street::Turn;
    const TABLE_LEN: usize = TURN_TABLE_LEN;
    const BATCHED: bool = true;

    /// The holdings by index, and per class of river cards the holdings sorted by rank.
    fn prepare(board: &[Card], table: &'a mut [f32]) -> (Vec<(u16, u16), COMBOS>, Self) {
        let mut order = Vec::new();
        for index in live_holdings(board) {
            let _ = order.push((index, 0));
        }
        let dead = hand_mask(board);
        let mut used = 0;
        for rank in 0..13u8 {
            let mut rivers: Vec<Card, 4> = Vec::new();
            for suit in 0..4 {
                if let Ok(card) = Card::from_rank_suit(rank, suit) {
                    if dead & 1 << card.byte() == 0 {
                        let _ = rivers.push(card);
                    }
                }
            }
            let ranks = river_ranks(board, &order, &rivers);
            for class in river_classes(&ranks, rivers.len()) {
                let mask = rivers
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| class & 1 << k != 0)
                    .fold(0u64, |mask, (_, card)| mask | 1 << card.byte());
                let rest = table.get_mut(used..).unwrap_or_default();
                used += write_row(&order, &ranks, class, mask, rest);
            }
        }
        let table: &'a [f32] = table;
        (
            order,
            TurnShowdown {
                table: &table[..used],
            },
        )
    }

    fn add_values(&self, live: &[(u16, u16)], opponent: &Holdings, stake: f32, out: &mut Holdings) {
        let value = in_one_lane(opponent, |reach, value| {
            check_down_fastest(self.table, live, reach, value)
        });
        for (o, v) in out.iter_mut().zip(&value) {
            *o += stake * v[0];
        }
    }

    /// Up to 20 leaves a sweep, in lanes of a multiple of 4 (an SSE register): the default
    /// bets' tree has 19 both-in leaves, one sweep of 20 lanes.
    fn value_leaves(&self, live: &[(u16, u16)], rows: &mut [f32]) {
        self.in_batches::<false>(live, rows);
    }

    /// In `f32` lanes, as the sweeps count the compatible reach, so that a fold valued alone
    /// and in a batch ([`Showdown::fold_masses`]) give the same bits.
    fn fold_values(
        &self,
        live: &[(u16, u16)],
        opponent: &Holdings,
        payoff: f32,
        out: &mut Holdings,
    ) {
        let mass = in_one_lane(opponent, |reach, mass| compatible_masses(live, reach, mass));
        for (o, m) in out.iter_mut().zip(&mass) {
            *o = payoff * m[0];
        }
    }

    /// The folds in lanes, up to 20 a batch (the default tree has 18 to 20 on an unbet turn).
    fn fold_masses(&self, live: &[(u16, u16)], rows: &mut [f32]) {
        self.in_batches::<true>(live, rows);
    }
}

/// What `value` makes of the opponent's reach `opponent` in a batch of one lane.
fn in_one_lane(
    opponent: &Holdings,
    value: impl FnOnce(&[[f32; 1]; COMBOS], &mut [[f32; 1]; COMBOS]),
) -> [[f32; 1]; COMBOS] {
    let mut reach = [[0.0f32; 1]; COMBOS];
    for (lane, &r) in reach.iter_mut().zip(opponent) {
        lane[0] = r;
    }
    let mut values = [[0.0f32; 1]; COMBOS];
    value(&reach, &mut values);
    values
}

/// No rank: the holding holds the river card.
const HELD: u16 = u16::MAX;

/// The rank of each holding of `order` (by position) on each of `rivers`, [`HELD`] where the
/// holding holds the river.
fn river_ranks(board: &[Card], order: &[(u16, u16)], rivers: &[Card]) -> [[u16; COMBOS]; 4] {
    let mut seven = [0u8; 7];
    for (slot, card) in seven[2..6].iter_mut().zip(board) {
        *slot = card.byte();
    }
    let mut ranks = [[HELD; COMBOS]; 4];
    for (river, ranks) in rivers.iter().zip(ranks.iter_mut()) {
        seven[6] = river.byte();
        for (&(index, _), rank) in order.iter().zip(ranks.iter_mut()) {
            let [a, b] = combo_bytes(index);
            if a != usize::from(river.byte()) && b != usize::from(river.byte()) {
                seven[0] = a as u8;
                seven[1] = b as u8;
                *rank = rank7_unchecked(&seven);
            }
        }
    }
    ranks
}

/// The river cards of one rank (`count`, ranks by [`river_ranks`]) in classes, as bit sets
/// of their positions: a river joins a class when every holding that misses both it and a
/// member has the same rank with either (then one sorted row serves the whole class: on a
/// board without a flush the suits of the river never matter).
fn river_classes(ranks: &[[u16; COMBOS]; 4], count: usize) -> Vec<u8, 4> {
    let mut classes: Vec<u8, 4> = Vec::new();
    for river in 0..count {
        let joins = |class: u8| {
            (0..count)
                .filter(|&member| class & 1 << member != 0)
                .all(|member| {
                    ranks[river]
                        .iter()
                        .zip(&ranks[member])
                        .all(|(&r, &m)| r == HELD || m == HELD || r == m)
                })
        };
        match classes.iter().position(|&class| joins(class)) {
            Some(k) => classes[k] |= 1 << river,
            None => {
                let _ = classes.push(1 << river);
            }
        }
    }
    classes
}

/// Writes the row of the river class `class` (positions in `ranks`; `mask`, its cards) into
/// `out`: a header, then every holding that misses one of its rivers at least, by rank (under
/// any river it misses) then holding. Returns the values written (0 if `out` is too short,
/// which the table's size rules out).
fn write_row(
    order: &[(u16, u16)],
    ranks: &[[u16; COMBOS]; 4],
    class: u8,
    mask: u64,
    out: &mut [f32],
) -> usize {
    let rivers = class.count_ones();
    let mut codes: Vec<u32, TURN_HOLDINGS> = Vec::new();
    for (position, &(index, _)) in order.iter().enumerate() {
        let rank = (0..4usize)
            .filter(|&k| class & 1 << k != 0)
            .map(|k| ranks[k][position])
            .find(|&rank| rank != HELD);
        if let Some(rank) = rank {
            let _ = codes.push(u32::from(rank) << HOLDING_BITS | u32::from(index));
        }
    }
    // By rank, then holding: the river solver's order.
    codes.sort_unstable();
    let Some((header, row)) = out
        .get_mut(..=codes.len())
        .and_then(|o| o.split_first_mut())
    else {
        return 0;
    };
    *header = f32::from_bits(codes.len() as u32 | rivers << HOLDING_BITS);
    let rank = |k: usize| codes.get(k).map(|code| code >> HOLDING_BITS);
    for (k, slot) in row.iter_mut().enumerate() {
        let holding = (codes[k] & ((1 << HOLDING_BITS) - 1)) as u16;
        *slot = pack(holding, rank(k + 1) == rank(k), mask);
    }
    codes.len() + 1
}

impl TurnShowdown<'_> {
    /// Values the rows of both-in leaves (or with `FOLDS` of folds) in batches of lanes.
    fn in_batches<const FOLDS: bool>(&self, live: &[(u16, u16)], rows: &mut [f32]) {
        let mut rest = rows;
        while rest.len() >= COMBOS {
            let done = match rest.len() / COMBOS {
                ..=4 => self.value_batch::<4, FOLDS>(live, rest),
                5..=8 => self.value_batch::<8, FOLDS>(live, rest),
                9..=12 => self.value_batch::<12, FOLDS>(live, rest),
                13..=16 => self.value_batch::<16, FOLDS>(live, rest),
                _ => self.value_batch::<MAX_LANES, FOLDS>(live, rest),
            };
            rest = &mut rest[done * COMBOS..];
        }
    }

    /// Values the first (up to) `L` leaves of `rows` in one sweep (with `FOLDS`, folds: their
    /// compatible reach); returns how many. Not inlined: each lane count's two vectors of
    /// lanes (up to 170 KB) are on the stack one at a time.
    #[inline(never)]
    fn value_batch<const L: usize, const FOLDS: bool>(
        &self,
        live: &[(u16, u16)],
        rows: &mut [f32],
    ) -> usize {
        let mut reach = [[0.0f32; L]; COMBOS];
        let mut leaves = 0;
        for (lane, row) in rows.chunks_exact(COMBOS).take(L).enumerate() {
            for (holding, &r) in reach.iter_mut().zip(row) {
                holding[lane] = r;
            }
            leaves += 1;
        }
        let mut value = [[0.0f32; L]; COMBOS];
        if FOLDS {
            compatible_masses(live, &reach, &mut value);
        } else {
            check_down_fastest(self.table, live, &reach, &mut value);
        }
        for (lane, row) in rows.chunks_exact_mut(COMBOS).take(L).enumerate() {
            for (slot, holding) in row.iter_mut().zip(&value) {
                *slot = holding[lane];
            }
        }
        leaves
    }
}

/// A table entry for `holding`, which ties the next entry or not, in a row of the river
/// cards `rivers` (a mask by card byte).
fn pack(holding: u16, ties_next: bool, rivers: u64) -> f32 {
    let [a, b] = combo_bytes(holding);
    let shared = (rivers >> a & 1) + (rivers >> b & 1);
    let code = u32::from(holding)
        | (a as u32) << HOLDING_BITS
        | (b as u32) << (HOLDING_BITS + CARD_BITS)
        | if ties_next { TIES_NEXT } else { 0 }
        | (shared as u32) << SHARED_SHIFT;
    f32::from_bits(code)
}

/// A table entry decoded.
#[derive(Clone, Copy)]
struct Entry {
    holding: usize,
    /// The low and high card bytes.
    a: usize,
    b: usize,
    ties_next: bool,
    /// How many of the row's river cards the holding holds (0 to 2).
    shared: u32,
}

/// A table entry back into its parts.
#[inline(always)]
fn unpack(entry: f32) -> Entry {
    let code = entry.to_bits();
    let card = |shift: u32| ((code >> shift) & ((1 << CARD_BITS) - 1)) as usize;
    Entry {
        holding: (code & ((1 << HOLDING_BITS) - 1)) as usize,
        a: card(HOLDING_BITS),
        b: card(HOLDING_BITS + CARD_BITS),
        ties_next: code & TIES_NEXT != 0,
        shared: code >> SHARED_SHIFT,
    }
}

/// A row's header back into (entries, river cards).
fn unpack_header(header: f32) -> (usize, u32) {
    let code = header.to_bits();
    (
        (code & ((1 << HOLDING_BITS) - 1)) as usize,
        code >> HOLDING_BITS,
    )
}

/// [`check_down`] compiled for AVX (lanes of 8 `f32`) where the processor has it, asked once
/// per sweep (std caches the answer); the portable SSE2 copy otherwise. Each lane does the
/// same IEEE additions, subtractions and divisions in the same order either way (nothing is
/// fused), so both give the same bits (tested).
fn check_down_fastest<const L: usize>(
    table: &[f32],
    live: &[(u16, u16)],
    reach: &[[f32; L]; COMBOS],
    value: &mut [[f32; L]; COMBOS],
) {
    #[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "avx")))]
    if std::is_x86_feature_detected!("avx") {
        // SAFETY: `check_down_avx` needs AVX, and the processor was just asked for it.
        return unsafe { check_down_avx(table, live, reach, value) };
    }
    check_down(table, live, reach, value)
}

/// [`check_down`] compiled with AVX. The measured reason for the `unsafe` call: a turn
/// decision's sweeps take about half the instructions in lanes of 8 (docs/holdem-bot.md).
#[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "avx")))]
#[target_feature(enable = "avx")]
fn check_down_avx<const L: usize>(
    table: &[f32],
    live: &[(u16, u16)],
    reach: &[[f32; L]; COMBOS],
    value: &mut [[f32; L]; COMBOS],
) {
    check_down(table, live, reach, value)
}

/// Per lane (a leaf: the opponent's reach `reach[holding][lane]`), each live holding's
/// check-down value per chip of stake into `value[holding][lane]` (0 for the holdings the
/// board blocks): over the rows of `table`, the disjoint reach weaker minus the disjoint
/// reach stronger, each pair weighted by its rivers in the row, divided by 44. Always
/// inlined, so that `check_down_avx`'s copy is compiled with AVX.
#[inline(always)]
fn check_down<const L: usize>(
    table: &[f32],
    live: &[(u16, u16)],
    reach: &[[f32; L]; COMBOS],
    value: &mut [[f32; L]; COMBOS],
) {
    let mut plain = Sums::<L>::new();
    let mut weighted = Sums::<L>::new();
    let mut at = 0;
    while let Some(&header) = table.get(at) {
        let (entries, rivers) = unpack_header(header);
        let Some(row) = table.get(at + 1..at + 1 + entries) else {
            break;
        };
        at += 1 + entries;
        plain.clear();
        if rivers == 1 {
            sweep_row::<L, false>(row, rivers, reach, value, &mut plain, &mut weighted);
        } else {
            weighted.clear();
            sweep_row::<L, true>(row, rivers, reach, value, &mut plain, &mut weighted);
        }
    }
    // All disjoint holdings, on each of their 44 rivers: 44 × the compatible reach.
    count_live(live, reach, &mut plain);
    for &(holding, _) in live {
        let h = usize::from(holding);
        let compatible = compatible(&plain, holding, &reach[h]);
        let v = &mut value[h];
        for l in 0..L {
            v[l] = v[l] / PAIR_RIVERS - compatible[l];
        }
    }
}

/// Per lane, each live holding's compatible reach (the reach of the live holdings that share
/// no card with it) into `out` (0 for the holdings the board blocks).
fn compatible_masses<const L: usize>(
    live: &[(u16, u16)],
    reach: &[[f32; L]; COMBOS],
    out: &mut [[f32; L]; COMBOS],
) {
    let mut sums = Sums::<L>::new();
    count_live(live, reach, &mut sums);
    for &(holding, _) in live {
        let h = usize::from(holding);
        out[h] = compatible(&sums, holding, &reach[h]);
    }
}

/// Counts every live holding's reach into `sums` (cleared first).
#[inline(always)]
fn count_live<const L: usize>(live: &[(u16, u16)], reach: &[[f32; L]; COMBOS], sums: &mut Sums<L>) {
    sums.clear();
    for &(holding, _) in live {
        let [a, b] = combo_bytes(holding);
        let s = &reach[usize::from(holding)];
        for l in 0..L {
            sums.total[l] += s[l];
            sums.per_card[a][l] += s[l];
            sums.per_card[b][l] += s[l];
        }
    }
}

/// The counted reach of the holdings that share no card with `holding` (whose own reach,
/// taken off with each of its cards, is `s`).
#[inline(always)]
fn compatible<const L: usize>(sums: &Sums<L>, holding: u16, s: &[f32; L]) -> [f32; L] {
    let [a, b] = combo_bytes(holding);
    let mut out = [0.0; L];
    for l in 0..L {
        out[l] = sums.total[l] - sums.per_card[a][l] - sums.per_card[b][l] + s[l];
    }
    out
}

/// Running totals per lane of a sweep up a row: the reach counted so far, and each card's
/// share of it (card bytes fit in 6 bits: 64 rows, so a decoded card needs no bounds check).
struct Sums<const L: usize> {
    total: [f32; L],
    per_card: [[f32; L]; 64],
}

impl<const L: usize> Sums<L> {
    fn new() -> Self {
        Sums {
            total: [0.0; L],
            per_card: [[0.0; L]; 64],
        }
    }

    #[inline(always)]
    fn clear(&mut self) {
        self.total.fill(0.0);
        self.per_card.fill([0.0; L]);
    }
}

/// Adds each holding's part of one row to `value`. A row of `rivers` river cards weighs a
/// pair of disjoint holdings by the rivers that miss both: `rivers − shared` of the holding
/// valued minus `shared` of the other, so besides the reach (`plain`) the sweep counts the
/// reach times its shared rivers (`weighted`, `FOLDED` rows only). A holding's part is the
/// weighted reach below it plus that at most as strong (for a holding that ties no one they
/// are equal).
#[inline(always)]
fn sweep_row<const L: usize, const FOLDED: bool>(
    row: &[f32],
    rivers: u32,
    reach: &[[f32; L]; COMBOS],
    value: &mut [[f32; L]; COMBOS],
    plain: &mut Sums<L>,
    weighted: &mut Sums<L>,
) {
    // The totals in locals (registers), the per-card shares in the sums; the row starts
    // from cleared sums.
    let mut totals = [[0.0f32; L]; 2];
    let (plain, weighted) = (&mut plain.per_card, &mut weighted.per_card);
    let mut start = 0;
    while start < row.len() {
        let entry = unpack(row[start]);
        if !entry.ties_next {
            // Alone at its rank: below and at most as strong are the same.
            let (Some(s), Some(v)) = (reach.get(entry.holding), value.get_mut(entry.holding))
            else {
                start += 1;
                continue;
            };
            let below = counted::<L, FOLDED>(entry, rivers, &totals, plain, weighted);
            for l in 0..L {
                v[l] += below[l] + below[l];
            }
            count_in::<L, FOLDED>(entry, s, &mut totals, plain, weighted);
            start += 1;
            continue;
        }
        let mut end = start + 1;
        while end < row.len() && unpack(row[end - 1]).ties_next {
            end += 1;
        }
        let group = &row[start..end];
        // Below: before the group's own reach is counted.
        for &packed in group {
            let entry = unpack(packed);
            if let Some(v) = value.get_mut(entry.holding) {
                let below = counted::<L, FOLDED>(entry, rivers, &totals, plain, weighted);
                for l in 0..L {
                    v[l] += below[l];
                }
            }
        }
        for &packed in group {
            let entry = unpack(packed);
            if let Some(s) = reach.get(entry.holding) {
                count_in::<L, FOLDED>(entry, s, &mut totals, plain, weighted);
            }
        }
        // At most as strong: the group counted, the holding's own reach (taken off with its
        // cards) added back.
        for &packed in group {
            let entry = unpack(packed);
            if let (Some(s), Some(v)) = (reach.get(entry.holding), value.get_mut(entry.holding)) {
                let at_most = counted::<L, FOLDED>(entry, rivers, &totals, plain, weighted);
                if FOLDED {
                    let own = rivers as f32 - 2.0 * entry.shared as f32;
                    for l in 0..L {
                        v[l] += at_most[l] + own * s[l];
                    }
                } else {
                    for l in 0..L {
                        v[l] += at_most[l] + s[l];
                    }
                }
            }
        }
        start = end;
    }
}

/// The counted reach of the holdings disjoint from `entry`'s, each weighted by the row's
/// rivers that miss both (`FOLDED`; else the row has one river that misses every entry).
#[inline(always)]
fn counted<const L: usize, const FOLDED: bool>(
    entry: Entry,
    rivers: u32,
    [total, weighted_total]: &[[f32; L]; 2],
    plain: &[[f32; L]; 64],
    weighted: &[[f32; L]; 64],
) -> [f32; L] {
    let (pa, pb) = (&plain[entry.a], &plain[entry.b]);
    let mut out = [0.0; L];
    if FOLDED {
        let misses = rivers.saturating_sub(entry.shared) as f32;
        let (qa, qb) = (&weighted[entry.a], &weighted[entry.b]);
        for l in 0..L {
            let disjoint = total[l] - pa[l] - pb[l];
            out[l] = misses * disjoint - (weighted_total[l] - qa[l] - qb[l]);
        }
    } else {
        for l in 0..L {
            out[l] = total[l] - pa[l] - pb[l];
        }
    }
    out
}

/// Counts `entry`'s reach `s` into the running totals.
#[inline(always)]
fn count_in<const L: usize, const FOLDED: bool>(
    entry: Entry,
    s: &[f32; L],
    [total, weighted_total]: &mut [[f32; L]; 2],
    plain: &mut [[f32; L]; 64],
    weighted: &mut [[f32; L]; 64],
) {
    for l in 0..L {
        total[l] += s[l];
        plain[entry.a][l] += s[l];
        plain[entry.b][l] += s[l];
    }
    if FOLDED && entry.shared > 0 {
        let times = entry.shared as f32;
        for l in 0..L {
            let counted = times * s[l];
            weighted_total[l] += counted;
            weighted[entry.a][l] += counted;
            weighted[entry.b][l] += counted;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> std::vec::Vec<Card> {
        text.split_whitespace()
            .map(|card| Card::parse(card).unwrap())
            .collect()
    }

    /// The rows of a table: (entries, river cards) each.
    fn rows(showdown: &TurnShowdown) -> std::vec::Vec<(usize, u32)> {
        let mut rows = std::vec::Vec::new();
        let mut at = 0;
        while at < showdown.table.len() {
            let (entries, rivers) = unpack_header(showdown.table[at]);
            rows.push((entries, rivers));
            at += 1 + entries;
        }
        rows
    }

    /// A rainbow board's rivers share one row per rank; a river that makes three of a suit
    /// (a flush possible) has a row of its own.
    #[test]
    fn rivers_of_a_rank_share_a_row_where_no_flush_tells_them_apart() {
        let mut table = std::vec![0.0f32; TURN_TABLE_LEN];
        let (_, rainbow) = TurnShowdown::prepare(&board("Kh 8d 5c 2s"), &mut table);
        let rainbow = rows(&rainbow);
        assert_eq!(rainbow.len(), 13);
        assert_eq!(rainbow.iter().map(|&(_, r)| r).sum::<u32>(), 48);
        // Three or four rivers a row: every holding misses one of them at least.
        assert!(rainbow.iter().all(|&(entries, _)| entries == TURN_HOLDINGS));
        let mut table = std::vec![0.0f32; TURN_TABLE_LEN];
        let (_, two_spades) = TurnShowdown::prepare(&board("Ks 9h 9d 2s"), &mut table);
        let two_spades = rows(&two_spades);
        // 11 spade rivers alone, 13 rows of the other suits.
        assert_eq!(two_spades.len(), 24);
        assert_eq!(two_spades.iter().filter(|&&(_, r)| r == 1).count(), 12);
        assert_eq!(two_spades.iter().map(|&(_, r)| r).sum::<u32>(), 48);
        for (entries, rivers) in two_spades {
            let expected = match rivers {
                1 => TURN_RIVER_HOLDINGS,
                // The one holding of both rivers misses neither.
                2 => TURN_HOLDINGS - 1,
                _ => TURN_HOLDINGS,
            };
            assert_eq!(entries, expected);
        }
    }

    /// The AVX copy of the sweeps gives the portable copy's bits, for a lane count that
    /// fills two AVX registers and half of a third (where the processor has AVX).
    #[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "avx")))]
    #[test]
    fn the_avx_sweeps_equal_the_portable_ones_bit_for_bit() {
        use std::boxed::Box;
        if !std::is_x86_feature_detected!("avx") {
            std::eprintln!("skipped: this processor has no AVX, so only the portable sweeps run");
            return;
        }
        let board: std::vec::Vec<Card> = ["Ks", "9h", "9d", "2c"]
            .iter()
            .map(|text| Card::parse(text).unwrap())
            .collect();
        let mut table = std::vec![0.0f32; TURN_TABLE_LEN];
        let (live, showdown) = TurnShowdown::prepare(&board, &mut table);
        // Uneven reaches, some 0, from a linear congruential sequence.
        let mut reach = Box::new([[0.0f32; MAX_LANES]; COMBOS]);
        let mut state = 12_345u32;
        for (h, lanes) in reach.iter_mut().enumerate() {
            for (l, r) in lanes.iter_mut().enumerate() {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                if (h + l) % 7 != 0 {
                    *r = (state >> 8) as f32 / (1 << 24) as f32;
                }
            }
        }
        let mut portable = Box::new([[0.0f32; MAX_LANES]; COMBOS]);
        let mut avx = Box::new([[0.0f32; MAX_LANES]; COMBOS]);
        check_down(showdown.table, &live, &reach, &mut portable);
        // SAFETY: the processor has AVX (asked above).
        unsafe { check_down_avx(showdown.table, &live, &reach, &mut avx) };
        let mut nonzero = 0;
        for (p, a) in portable.iter().zip(avx.iter()) {
            for (p, a) in p.iter().zip(a) {
                assert_eq!(p.to_bits(), a.to_bits());
                nonzero += usize::from(*p != 0.0);
            }
        }
        assert!(nonzero > 1000 * MAX_LANES, "{nonzero}");
    }
}
