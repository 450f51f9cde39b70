//! The all-in equity of every hand class against every other, preflop: a 169 × 169 table
//! estimated by seeded Monte Carlo (`arbor holdem chart` writes it to
//! `data/preflop_equity.bin`; the library ships that file). Exact equity over all 1.7
//! million boards for each of the 14,365 class pairs (and their suit patterns) would take
//! hours here; 4,096 deals a pair give each entry within about ±0.016 (95%), far finer than
//! the chart's thresholds need.
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

use super::classes::{CLASSES, HandClass};
use super::range_equity::deal_and_score;
use crate::holdem::card::Card;
use crate::rng::stream_seed;

/// Entries in the table: row class × column class.
pub const ENTRIES: usize = CLASSES * CLASSES;
/// Bytes of the table file: one little-endian `u16` per entry.
pub const TABLE_FILE_BYTES: usize = ENTRIES * 2;
/// Deals per class pair of the shipped table.
pub const SHIPPED_SAMPLES: u32 = 4096;
/// Seed of the shipped table.
pub const SHIPPED_SEED: u64 = 1;

/// A class-against-class equity table in its file form: entry `row * 169 + column` is the
/// row class's share of the pot against the column class, times 65,535, as a little-endian
/// `u16`.
#[derive(Clone, Copy, Debug)]
pub struct EquityTable<'a>(pub &'a [u8; TABLE_FILE_BYTES]);

/// The shipped table.
pub const SHIPPED_TABLE: EquityTable<'static> =
    EquityTable(include_bytes!("data/preflop_equity.bin"));

impl EquityTable<'_> {
    /// Row class's equity against the column class.
    pub fn get(&self, hero: HandClass, villain: HandClass) -> f32 {
        let at = (hero.index() * CLASSES + villain.index()) * 2;
        f32::from(u16::from_le_bytes([self.0[at], self.0[at + 1]])) / 65_535.0
    }

    /// A class's equity against a range given as a weight per class (a weight multiplies
    /// the class's combos: weight 1 on every class is the uniform range). 0.5 when the range
    /// is empty. Card removal between the two hands is ignored.
    pub fn vs_classes(&self, hero: HandClass, range: &[f32; CLASSES]) -> f32 {
        let (mut won, mut total) = (0f32, 0f32);
        for villain in HandClass::all() {
            let weight = range[villain.index()] * villain.combos() as f32;
            won += weight * self.get(hero, villain);
            total += weight;
        }
        if total > 0.0 { won / total } else { 0.5 }
    }
}

/// [`EquityTable::get`] on the shipped table.
pub fn class_equity(hero: HandClass, villain: HandClass) -> f32 {
    SHIPPED_TABLE.get(hero, villain)
}

/// [`EquityTable::vs_classes`] on the shipped table.
pub fn equity_vs_classes(hero: HandClass, range: &[f32; CLASSES]) -> f32 {
    SHIPPED_TABLE.vs_classes(hero, range)
}

/// Fills `out` (entries as in the shipped file, each a `u16`) with `samples` deals per
/// class pair; pair `(row, column)` with row < column draws from its own stream of `seed`,
/// so the table does not depend on the order of the work. `progress` hears each finished
/// row. A pair's diagonal is 0.5 by symmetry.
pub fn generate(
    samples: u32,
    seed: u64,
    out: &mut [u16; ENTRIES],
    mut progress: impl FnMut(usize),
) {
    let samples = samples.max(1);
    for row in 0..CLASSES {
        out[row * CLASSES + row] = 32_768;
        for column in row + 1..CLASSES {
            let pair = (row * CLASSES + column) as u64;
            let mut rng = XorShiftRng::seed_from_u64(stream_seed(seed, pair));
            let (Some(hero), Some(villain)) =
                (HandClass::from_index(row), HandClass::from_index(column))
            else {
                continue;
            };
            let share = sample_pair(hero, villain, samples, &mut rng);
            let value = libm::round(share * 65_535.0) as u16;
            out[row * CLASSES + column] = value;
            out[column * CLASSES + row] = 65_535 - value;
        }
        progress(row);
    }
}

/// The table's file bytes.
pub fn to_bytes(table: &[u16; ENTRIES], out: &mut [u8; TABLE_FILE_BYTES]) {
    for (chunk, value) in out.chunks_exact_mut(2).zip(table) {
        chunk.copy_from_slice(&value.to_le_bytes());
    }
}

/// The row class's share of the pot over `samples` deals of a combo of each class (without
/// shared cards) and a board.
fn sample_pair(hero: HandClass, villain: HandClass, samples: u32, rng: &mut XorShiftRng) -> f64 {
    let mut hero_combos = [[Card::ALL[0]; 2]; 12];
    let mut villain_combos = [[Card::ALL[0]; 2]; 12];
    let hero_count = hero.combo_cards(&mut hero_combos);
    let villain_count = villain.combo_cards(&mut villain_combos);
    let mut points = 0u64;
    let mut dealt = 0u64;
    for _ in 0..samples {
        let [a, b] = hero_combos[below(rng, hero_count)];
        let [c, d] = villain_combos[below(rng, villain_count)];
        let mut used = 1u64 << a.byte() | 1 << b.byte();
        if used & (1 << c.byte() | 1 << d.byte()) != 0 {
            // Rejection keeps the villain's combos uniform among those compatible.
            continue;
        }
        used |= 1 << c.byte() | 1 << d.byte();
        let mine = [a.byte(), b.byte(), 0, 0, 0, 0, 0];
        points += deal_and_score(mine, 2, used, [c.byte(), d.byte()], rng);
        dealt += 2;
    }
    if dealt == 0 {
        0.5
    } else {
        points as f64 / dealt as f64
    }
}

/// A uniform draw in `0..n` (n ≥ 1) by multiply-shift.
fn below(rng: &mut XorShiftRng, n: usize) -> usize {
    ((u64::from(rng.next_u32()) * n as u64) >> 32) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::equity::hand_vs_hand;

    fn class(text: &str) -> HandClass {
        HandClass::parse(text).unwrap()
    }

    #[test]
    fn shipped_entries_agree_with_exact_equity() {
        let card = |t| Card::parse(t).unwrap();
        for (hero, villain, cards) in [
            ("AA", "KK", ["As", "Ah", "Kd", "Kc"]),
            ("AKo", "22", ["As", "Kh", "2d", "2c"]),
            ("72o", "T9s", ["7s", "2h", "Td", "9d"]),
        ] {
            let exact = hand_vs_hand(
                [card(cards[0]), card(cards[1])],
                [card(cards[2]), card(cards[3])],
                &[],
            )
            .unwrap()
            .equity() as f32;
            let table = class_equity(class(hero), class(villain));
            // One suit pattern against the class average, plus sampling error.
            assert!(
                (table - exact).abs() < 0.03,
                "{hero} {villain} {table} {exact}"
            );
            let back = class_equity(class(villain), class(hero));
            assert!((table + back - 1.0).abs() < 1e-4);
        }
        let uniform = [1.0f32; CLASSES];
        let aces = equity_vs_classes(class("AA"), &uniform);
        let worst = equity_vs_classes(class("32o"), &uniform);
        assert!((aces - 0.852).abs() < 0.01, "{aces}");
        assert!((worst - 0.323).abs() < 0.015, "{worst}");
    }

    #[test]
    fn generation_is_seeded_and_close_to_the_shipped_table() {
        let mut a = [0u16; ENTRIES];
        let mut b = [0u16; ENTRIES];
        let mut rows = 0;
        generate(64, 9, &mut a, |_| rows += 1);
        generate(64, 9, &mut b, |_| {});
        assert_eq!(rows, CLASSES);
        assert!(a == b);
        // A coarse table differs from the shipped one only by sampling error.
        let mut worst = 0f32;
        for hero in HandClass::all() {
            for villain in HandClass::all() {
                let coarse = f32::from(a[hero.index() * CLASSES + villain.index()]) / 65_535.0;
                worst = worst.max((coarse - class_equity(hero, villain)).abs());
            }
        }
        assert!(worst < 0.25, "{worst}");
    }
}
