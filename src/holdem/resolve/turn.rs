//! The turn re-solve's both-in leaves, valued at the river's start by checking down: for each
//! of the 48 river cards the showdown over the holdings that miss that card, each pair of
//! holdings weighted by one over the 44 rivers it leaves.
//!
//! Per river the holdings are sorted by rank once per re-solve, into the caller's storage.
//! A leaf's value for a holding `i` on a river is the opponent's reach of the disjoint
//! holdings below it minus that above it, which is `below + at_most − all`: `below` and
//! `at_most` come from one sweep up the river's order with running totals per card (for a
//! holding that ties no one they are equal), and `all`, summed over the rivers, is 44 times
//! the opponent's reach of the holdings disjoint from `i` (every pair of disjoint holdings
//! sees 44 rivers), so it is subtracted once per leaf, not once per river.
//!
//! The value is linear in the opponent's reach and the same for every both-in leaf but for
//! the stake, so the walks value all their leaves in one batch ([`TurnShowdown::value_leaves`]):
//! one sweep of each river's order serves up to 16 leaves, the per-leaf arithmetic in lanes
//! (a leaf's lane does the same operations in the same order whatever the batch, so its value
//! is the same bit for bit as valued alone by [`Showdown::add_values`]).
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

/// Values of a turn re-solve's table of showdown orders: one row per river card, each the
/// holdings that miss the board and that card, weakest first
/// ([`TurnSolver::values_len`](super::TurnSolver) counts them in).
pub const TURN_TABLE_LEN: usize = TURN_RIVERS * TURN_RIVER_HOLDINGS;

/// River cards that can come for one pair of holdings on a four-card board: 52 − 4 − 2 − 2.
const PAIR_RIVERS: f32 = 44.0;

/// A table entry packs a holding, its two card bytes and whether the next entry of the row
/// has the same rank: `holding | low << 11 | high << 17 | ties_next << 23`, stored as the
/// bits of an `f32`. Below 2²⁴ the bits are never a NaN (their exponent is 0 or 1), and the
/// entries are only copied, never computed with.
const HOLDING_BITS: u32 = 11;
const CARD_BITS: u32 = 6;
const TIES_NEXT: u32 = 1 << (HOLDING_BITS + 2 * CARD_BITS);
const _: () = assert!(COMBOS < 1 << HOLDING_BITS && TIES_NEXT == 1 << 23);

/// Most leaves valued in one sweep of the river orders: the default tree's 19 both-in leaves
/// in one sweep (with AVX two registers of 8 lanes and one of 4, with one decoding of each
/// entry instead of two sweeps' of 16 + 4).
const MAX_LANES: usize = 20;

/// The turn's both-in leaves, valued at the river's start by checking down; see the
/// [module documentation](self).
#[derive(Clone, Copy, Debug)]
pub struct TurnShowdown<'a> {
    /// [`TURN_RIVERS`] rows of [`TURN_RIVER_HOLDINGS`] packed entries, weakest first.
    table: &'a [f32],
}

impl<'a> Showdown<'a> for TurnShowdown<'a> {
    const STREET: Street = Street::Turn;
    const TABLE_LEN: usize = TURN_TABLE_LEN;
    const BATCHED: bool = true;

    /// The holdings by index, and per river card the holdings that miss it sorted by rank.
    fn prepare(board: &[Card], table: &'a mut [f32]) -> (Vec<(u16, u16), COMBOS>, Self) {
        let mut seven = [0u8; 7];
        for (slot, card) in seven[2..6].iter_mut().zip(board) {
            *slot = card.byte();
        }
        let mut order = Vec::new();
        for index in live_holdings(board) {
            let _ = order.push((index, 0));
        }
        let dead = hand_mask(board);
        let rivers = Card::ALL.iter().filter(|c| dead & 1 << c.byte() == 0);
        for (river, row) in rivers.zip(table.chunks_exact_mut(TURN_RIVER_HOLDINGS)) {
            seven[6] = river.byte();
            let mut codes: Vec<u32, TURN_RIVER_HOLDINGS> = Vec::new();
            for &(index, _) in &order {
                let [a, b] = combo_bytes(index);
                if a == usize::from(river.byte()) || b == usize::from(river.byte()) {
                    continue;
                }
                seven[0] = a as u8;
                seven[1] = b as u8;
                let rank = u32::from(rank7_unchecked(&seven));
                let _ = codes.push(rank << HOLDING_BITS | u32::from(index));
            }
            // By rank, then holding: the river solver's order.
            codes.sort_unstable();
            let rank = |k: usize| codes.get(k).map(|code| code >> HOLDING_BITS);
            for (k, slot) in row.iter_mut().enumerate().take(codes.len()) {
                let holding = (codes[k] & ((1 << HOLDING_BITS) - 1)) as u16;
                *slot = pack(holding, rank(k + 1) == rank(k));
            }
        }
        (order, TurnShowdown { table })
    }

    fn add_values(&self, live: &[(u16, u16)], opponent: &Holdings, stake: f32, out: &mut Holdings) {
        let mut reach = [[0.0f32; 1]; COMBOS];
        for (lane, &r) in reach.iter_mut().zip(opponent) {
            lane[0] = r;
        }
        let mut value = [[0.0f32; 1]; COMBOS];
        check_down_fastest(self.table, live, &reach, &mut value);
        for (o, v) in out.iter_mut().zip(&value) {
            *o += stake * v[0];
        }
    }

    /// Up to 20 leaves a sweep, in lanes of a multiple of 4 (an SSE register): the default
    /// bets' tree has 19 both-in leaves, one sweep of 20 lanes.
    fn value_leaves(&self, live: &[(u16, u16)], rows: &mut [f32]) {
        let mut rest = rows;
        while rest.len() >= COMBOS {
            let done = match rest.len() / COMBOS {
                ..=4 => self.value_batch::<4>(live, rest),
                5..=8 => self.value_batch::<8>(live, rest),
                9..=12 => self.value_batch::<12>(live, rest),
                13..=16 => self.value_batch::<16>(live, rest),
                _ => self.value_batch::<MAX_LANES>(live, rest),
            };
            rest = &mut rest[done * COMBOS..];
        }
    }
}

impl TurnShowdown<'_> {
    /// Values the first (up to) `L` leaves of `rows` in one sweep; returns how many.
    /// Not inlined: each lane count's two vectors of lanes (up to 170 KB) are on the stack
    /// one at a time.
    #[inline(never)]
    fn value_batch<const L: usize>(&self, live: &[(u16, u16)], rows: &mut [f32]) -> usize {
        let mut reach = [[0.0f32; L]; COMBOS];
        let mut leaves = 0;
        for (lane, row) in rows.chunks_exact(COMBOS).take(L).enumerate() {
            for (holding, &r) in reach.iter_mut().zip(row) {
                holding[lane] = r;
            }
            leaves += 1;
        }
        let mut value = [[0.0f32; L]; COMBOS];
        check_down_fastest(self.table, live, &reach, &mut value);
        for (lane, row) in rows.chunks_exact_mut(COMBOS).take(L).enumerate() {
            for (slot, holding) in row.iter_mut().zip(&value) {
                *slot = holding[lane];
            }
        }
        leaves
    }
}

/// A table entry for `holding`, which ties the next entry or not.
fn pack(holding: u16, ties_next: bool) -> f32 {
    let [a, b] = combo_bytes(holding);
    let code = u32::from(holding)
        | (a as u32) << HOLDING_BITS
        | (b as u32) << (HOLDING_BITS + CARD_BITS)
        | if ties_next { TIES_NEXT } else { 0 };
    f32::from_bits(code)
}

/// A table entry back into (holding, low card byte, high card byte, ties the next entry).
fn unpack(entry: f32) -> (usize, usize, usize, bool) {
    let code = entry.to_bits();
    let card = |shift: u32| ((code >> shift) & ((1 << CARD_BITS) - 1)) as usize;
    (
        (code & ((1 << HOLDING_BITS) - 1)) as usize,
        card(HOLDING_BITS),
        card(HOLDING_BITS + CARD_BITS),
        code & TIES_NEXT != 0,
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
/// board blocks): over the rivers of `table`, the disjoint reach weaker minus the disjoint
/// reach stronger, divided by 44. Always inlined, so that `check_down_avx`'s copy is
/// compiled with AVX.
#[inline(always)]
fn check_down<const L: usize>(
    table: &[f32],
    live: &[(u16, u16)],
    reach: &[[f32; L]; COMBOS],
    value: &mut [[f32; L]; COMBOS],
) {
    // Card bytes fit in 6 bits: 64 rows, so a decoded card needs no bounds check.
    let mut per_card = [[0.0f32; L]; 64];
    for row in table.chunks_exact(TURN_RIVER_HOLDINGS) {
        let mut total = [0.0f32; L];
        per_card.fill([0.0; L]);
        let mut start = 0;
        while start < row.len() {
            let (holding, a, b, ties_next) = unpack(row[start]);
            if !ties_next {
                // Alone at its rank: `below` and `at_most` are the same.
                let (Some(s), Some(v)) = (reach.get(holding), value.get_mut(holding)) else {
                    start += 1;
                    continue;
                };
                let (pa, pb) = (per_card[a], per_card[b]);
                for l in 0..L {
                    let below = total[l] - pa[l] - pb[l];
                    v[l] += below + below;
                    total[l] += s[l];
                }
                for l in 0..L {
                    per_card[a][l] = pa[l] + s[l];
                    per_card[b][l] = pb[l] + s[l];
                }
                start += 1;
                continue;
            }
            let mut end = start + 1;
            while end < row.len() && unpack(row[end - 1]).3 {
                end += 1;
            }
            let group = &row[start..end];
            // Below: before the group's own reach is counted.
            for &entry in group {
                let (holding, a, b, _) = unpack(entry);
                if let Some(v) = value.get_mut(holding) {
                    for l in 0..L {
                        v[l] += total[l] - per_card[a][l] - per_card[b][l];
                    }
                }
            }
            for &entry in group {
                let (holding, a, b, _) = unpack(entry);
                if let Some(s) = reach.get(holding) {
                    for l in 0..L {
                        total[l] += s[l];
                        per_card[a][l] += s[l];
                        per_card[b][l] += s[l];
                    }
                }
            }
            // At most as strong: the group counted, the holding's own reach (taken off
            // twice with its cards) added back.
            for &entry in group {
                let (holding, a, b, _) = unpack(entry);
                if let (Some(s), Some(v)) = (reach.get(holding), value.get_mut(holding)) {
                    for l in 0..L {
                        v[l] += total[l] - per_card[a][l] - per_card[b][l] + s[l];
                    }
                }
            }
            start = end;
        }
    }
    // All disjoint holdings, on each of their 44 rivers: 44 × the compatible reach.
    let mut total = [0.0f32; L];
    per_card.fill([0.0; L]);
    for &(holding, _) in live {
        let [a, b] = combo_bytes(holding);
        let s = reach[usize::from(holding)];
        for l in 0..L {
            total[l] += s[l];
            per_card[a][l] += s[l];
            per_card[b][l] += s[l];
        }
    }
    for &(holding, _) in live {
        let [a, b] = combo_bytes(holding);
        let (s, v) = (
            reach[usize::from(holding)],
            &mut value[usize::from(holding)],
        );
        for l in 0..L {
            let compatible = total[l] - per_card[a][l] - per_card[b][l] + s[l];
            v[l] = v[l] / PAIR_RIVERS - compatible;
        }
    }
}

#[cfg(all(
    test,
    feature = "std",
    target_arch = "x86_64",
    not(target_feature = "avx")
))]
mod tests {
    use super::*;
    use std::boxed::Box;

    /// The AVX copy of the sweeps gives the portable copy's bits, for a lane count that
    /// fills two AVX registers and half of a third (where the processor has AVX).
    #[test]
    fn the_avx_sweeps_equal_the_portable_ones_bit_for_bit() {
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
