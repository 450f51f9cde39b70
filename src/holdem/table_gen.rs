//! Builds the hand-rank tables. Compiled only into `build.rs` (through `#[path]`), which
//! writes the tables as Rust source into `OUT_DIR`; the library includes that file, so
//! nothing is computed at start-up.
//!
//! # How a hand is ranked
//!
//! Flushes aside, a hand's rank depends only on how many cards it has of each rank. The
//! ranks are split into three groups, low to high: 2–6, 7–T, J–A. Each card adds its
//! rank's base-5 digit to one of three group fields (counts never exceed 4, so digits never
//! carry), so the sum of seven card keys holds the three group keys. The rank is then read
//! by a three-level automaton: the low group's key selects a row of the middle table, the
//! middle group's key a row of the high table, and the high group's key the rank.
//!
//! Rows are shared between equivalent states (Myhill–Nerode minimisation): two prefixes
//! that lead to the same ranks for every completion get one row. Reading the low ranks
//! first is what makes this pay: low cards mostly stop mattering once the high cards are
//! known, so 49,205 seven-card rank multisets fold into 11,081 final entries.
//!
//! Flushes are ranked from the flush suit's rank mask: a straight flush from its top card,
//! otherwise the top five ranks as a five-card high-card hand moved up to the flush band.

use std::collections::HashMap;
use std::fmt::Write as _;

/// Ranks in the low group (2..=6), then four in each of the other two.
pub const LOW_RANKS: usize = 5;
pub const GROUP_RANKS: usize = 4;
/// Bit offsets of the three group fields and of the suit counters in a card key.
pub const MID_SHIFT: u32 = 12;
pub const HIGH_SHIFT: u32 = 22;
pub const SUIT_SHIFT: u32 = 32;
/// The bit a byte above 51 adds to a key, out of every field's way: seven such bytes still
/// leave it nonzero, so one test on the summed key finds any byte out of range.
pub const BAD_CARD_SHIFT: u32 = 56;

type Counts = [u8; 13];

/// The category (0 = high card … 8 = straight flush) and tie-break ranks of a five-card
/// hand, comparable as a tuple.
fn five_card_strength(counts: &Counts, flush: bool) -> (u8, Vec<u8>) {
    let mut groups: Vec<(u8, u8)> = (0..13u8)
        .filter(|&r| counts[r as usize] > 0)
        .map(|r| (counts[r as usize], r))
        .collect();
    groups.sort_by(|a, b| b.cmp(a));
    let mask: u32 = (0..13)
        .filter(|&r| counts[r] > 0)
        .fold(0, |m, r| m | 1 << r);
    let straight_top = if groups.len() == 5 {
        straight_top(mask)
    } else {
        None
    };
    let tie_break: Vec<u8> = groups.iter().map(|g| g.1).collect();
    match (flush, straight_top) {
        (true, Some(top)) => return (8, vec![top]),
        (false, Some(top)) => return (4, vec![top]),
        (true, None) => return (5, tie_break),
        _ => {}
    }
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    let category = match shape.as_slice() {
        [4, 1] => 7,
        [3, 2] => 6,
        [3, 1, 1] => 3,
        [2, 2, 1] => 2,
        [2, 1, 1, 1] => 1,
        [1, 1, 1, 1, 1] => 0,
        other => panic!("not a five-card hand: {other:?}"),
    };
    (category, tie_break)
}

/// The top rank of the best straight inside a rank mask (3 = the 5-high wheel).
fn straight_top(mask: u32) -> Option<u8> {
    (4..13u8)
        .rev()
        .find(|&top| (mask >> (top - 4)) & 0x1f == 0x1f)
        .or(if mask & 0x100f == 0x100f {
            Some(3)
        } else {
            None
        })
}

/// All rank multisets of exactly `size` cards (at most four of a rank) over ranks `lo..hi`.
fn multisets(lo: usize, hi: usize, max_size: usize, exact: bool) -> Vec<Counts> {
    fn walk(
        rank: usize,
        hi: usize,
        left: usize,
        exact: bool,
        cur: &mut Counts,
        out: &mut Vec<Counts>,
    ) {
        if rank == hi {
            if !exact || left == 0 {
                out.push(*cur);
            }
            return;
        }
        for count in 0..=left.min(4) {
            cur[rank] = count as u8;
            walk(rank + 1, hi, left - count, exact, cur, out);
        }
        cur[rank] = 0;
    }
    let mut out = Vec::new();
    walk(lo, hi, max_size, exact, &mut [0; 13], &mut out);
    out
}

fn size(counts: &Counts) -> usize {
    counts.iter().map(|&c| c as usize).sum()
}

/// The base-5 key of the ranks `lo..hi` of a multiset.
fn group_key(counts: &Counts, lo: usize, hi: usize) -> usize {
    (lo..hi)
        .rev()
        .fold(0, |key, r| key * 5 + counts[r] as usize)
}

/// Every rank class 1..=7462 in order, with the non-flush five-card multisets' ranks.
pub struct FiveCardClasses {
    /// Rank of each non-flush five-card rank multiset.
    pub non_flush: HashMap<Counts, u16>,
    /// First rank of each category, high card to straight flush.
    pub category_starts: [u16; 9],
}

pub fn five_card_classes() -> FiveCardClasses {
    let mut all: Vec<((u8, Vec<u8>), Counts, bool)> = Vec::new();
    for counts in multisets(0, 13, 5, true) {
        all.push((five_card_strength(&counts, false), counts, false));
        if counts.iter().all(|&c| c <= 1) {
            all.push((five_card_strength(&counts, true), counts, true));
        }
    }
    all.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(all.len(), 7462, "five-card classes");
    let mut non_flush = HashMap::new();
    let mut category_starts = [0u16; 9];
    for (index, (strength, counts, flush)) in all.iter().enumerate() {
        let rank = index as u16 + 1;
        if category_starts[strength.0 as usize] == 0 {
            category_starts[strength.0 as usize] = rank;
        }
        if !flush {
            non_flush.insert(*counts, rank);
        }
    }
    FiveCardClasses {
        non_flush,
        category_starts,
    }
}

/// Rank of every non-flush multiset of `n` cards (best five of n), for n = 5, 6, 7.
fn ranks_of_size(classes: &FiveCardClasses, n: usize) -> HashMap<Counts, u16> {
    let mut by_size = classes.non_flush.clone();
    for current in 6..=n {
        let mut next = HashMap::new();
        for counts in multisets(0, 13, current, true) {
            let best = (0..13)
                .filter(|&r| counts[r] > 0)
                .map(|r| {
                    let mut smaller = counts;
                    smaller[r] -= 1;
                    by_size[&smaller]
                })
                .max()
                .expect("a hand has cards");
            next.insert(counts, best);
        }
        by_size = next;
    }
    by_size
}

/// The dense order of four-rank group multisets: by size, then key, so that the groups
/// of at most s cards form a prefix.
pub struct GroupOrder {
    /// Base-5 key -> dense index.
    pub dense: Vec<u16>,
    /// First dense index of each size 0..=8.
    pub size_start: [u16; 9],
}

pub fn group_order() -> GroupOrder {
    let mut groups = multisets(0, GROUP_RANKS, 7, false);
    groups.sort_by_key(|g| (size(g), group_key(g, 0, GROUP_RANKS)));
    let mut dense = vec![0u16; 5usize.pow(GROUP_RANKS as u32)];
    let mut size_start = [groups.len() as u16; 9];
    for (index, g) in groups.iter().enumerate().rev() {
        dense[group_key(g, 0, GROUP_RANKS)] = index as u16;
        size_start[size(g)] = index as u16;
    }
    GroupOrder { dense, size_start }
}

/// The three automaton tables for hands of `n` cards.
pub struct Automaton {
    pub low: Vec<u16>,
    pub mid: Vec<u16>,
    pub high: Vec<u16>,
}

/// Rows laid out one after the other, shortest completions first, so that the rows at the
/// end of the table are those whose dense indices reach furthest: the padding that keeps
/// any index in bounds stays small. `rows` holds each distinct row with the dense index
/// its first entry stands for; the result gives each row its offset in the table, such
/// that offset + dense index lands in the row.
fn lay_out(rows: &[(Vec<u16>, usize)], largest_dense: usize) -> (Vec<u16>, Vec<u16>) {
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by_key(|&row| rows[row].1 + rows[row].0.len());
    let mut starts = vec![0i64; rows.len()];
    let mut at = 0i64;
    for &row in &order {
        starts[row] = at - rows[row].1 as i64;
        at += rows[row].0.len() as i64;
    }
    // Zeros in front where a row's offset would be negative, and behind so that any dense
    // index from any row stays in the table (garbage input to a fast path reads a 0).
    let front = (-starts.iter().copied().min().unwrap_or(0)).max(0);
    let offsets: Vec<u16> = starts
        .iter()
        .map(|&start| u16::try_from(start + front).expect("a table offset fits in 16 bits"))
        .collect();
    let mut table = vec![0u16; front as usize];
    for &row in &order {
        table.extend_from_slice(&rows[row].0);
    }
    let reach = offsets
        .iter()
        .map(|&o| o as usize + largest_dense + 1)
        .max();
    table.resize(table.len().max(reach.unwrap_or(0)), 0);
    (table, offsets)
}

pub fn automaton(classes: &FiveCardClasses, order: &GroupOrder, n: usize) -> Automaton {
    let ranks = ranks_of_size(classes, n);
    let (mid_lo, high_lo) = (LOW_RANKS, LOW_RANKS + GROUP_RANKS);
    let mid_groups = multisets(mid_lo, high_lo, n, false);
    let high_groups = multisets(high_lo, 13, n, false);
    let dense = |g: &Counts, lo: usize| order.dense[group_key(g, lo, lo + GROUP_RANKS)] as usize;
    let largest_dense = *order.dense.iter().max().expect("groups exist") as usize;

    // Level 3: a row per distinct (low+mid prefix) behaviour, holding the rank of every
    // high-group completion of exactly the missing size, in dense order.
    let mut high_rows: Vec<(Vec<u16>, usize)> = Vec::new();
    let mut high_row_ids: HashMap<Vec<u16>, usize> = HashMap::new();
    let mut prefix_row: HashMap<Counts, usize> = HashMap::new();
    for prefix in multisets(0, high_lo, n, false) {
        let missing = n - size(&prefix);
        let (start, end) = (
            order.size_start[missing] as usize,
            order.size_start[missing + 1] as usize,
        );
        let mut row = vec![0u16; end - start];
        for g in high_groups.iter().filter(|g| size(g) == missing) {
            let mut hand = prefix;
            hand[high_lo..].copy_from_slice(&g[high_lo..]);
            row[dense(g, high_lo) - start] = ranks[&hand];
        }
        let id = *high_row_ids.entry(row.clone()).or_insert_with(|| {
            high_rows.push((row, start));
            high_rows.len() - 1
        });
        prefix_row.insert(prefix, id);
    }
    let (high, high_offsets) = lay_out(&high_rows, largest_dense);

    // Level 2: a row per distinct low-group behaviour, over mid-group completions of at
    // most the missing size (a prefix of the dense order).
    let mut mid_rows: Vec<(Vec<u16>, usize)> = Vec::new();
    let mut mid_row_ids: HashMap<Vec<u16>, usize> = HashMap::new();
    let low_len = multisets(0, LOW_RANKS, n, false)
        .iter()
        .map(|g| group_key(g, 0, LOW_RANKS) + 1)
        .max()
        .unwrap_or(1);
    let mut low_row = vec![None; low_len];
    for low_group in multisets(0, LOW_RANKS, n, false) {
        let missing = n - size(&low_group);
        let end = order.size_start[missing + 1] as usize;
        let mut row = vec![0u16; end];
        for g in mid_groups.iter().filter(|g| size(g) <= missing) {
            let mut prefix = low_group;
            prefix[mid_lo..high_lo].copy_from_slice(&g[mid_lo..high_lo]);
            row[dense(g, mid_lo)] = high_offsets[prefix_row[&prefix]];
        }
        let id = *mid_row_ids.entry(row.clone()).or_insert_with(|| {
            mid_rows.push((row, 0));
            mid_rows.len() - 1
        });
        low_row[group_key(&low_group, 0, LOW_RANKS)] = Some(id);
    }
    let (mid, mid_offsets) = lay_out(&mid_rows, largest_dense);
    // Keys that are no multiset of at most n cards read row 0, as before.
    let low = low_row
        .iter()
        .map(|id| id.map_or(0, |id| mid_offsets[id]))
        .collect();
    Automaton { low, mid, high }
}

/// The key a card of `rank` adds: its base-5 digit in its group's field.
pub fn rank_key(rank: usize) -> u64 {
    if rank < LOW_RANKS {
        5u64.pow(rank as u32)
    } else if rank < LOW_RANKS + GROUP_RANKS {
        5u64.pow((rank - LOW_RANKS) as u32) << MID_SHIFT
    } else {
        5u64.pow((rank - LOW_RANKS - GROUP_RANKS) as u32) << HIGH_SHIFT
    }
}

fn write_table(
    out: &mut String,
    doc: &str,
    name: &str,
    ty: &str,
    values: &[impl std::fmt::Display],
) {
    // Small tables are consts so const fns can read them; big ones are statics, stored once.
    let kind = if values.len() <= 16 {
        "const"
    } else {
        "static"
    };
    write_table_as(out, kind, doc, name, ty, values);
}

/// A table of the seven-card path, a const: `tables.rs` stores it once, in the one static
/// that holds all of them (`SEVEN_CARD`).
fn write_seven_card_table(
    out: &mut String,
    doc: &str,
    name: &str,
    ty: &str,
    values: &[impl std::fmt::Display],
) {
    // A large const is copied wherever it is used by value; these are used once.
    out.push_str("#[allow(clippy::large_const_arrays)]\n");
    write_table_as(out, "const", doc, name, ty, values);
}

fn write_table_as(
    out: &mut String,
    kind: &str,
    doc: &str,
    name: &str,
    ty: &str,
    values: &[impl std::fmt::Display],
) {
    writeln!(out, "/// {doc}").unwrap();
    writeln!(
        out,
        "pub(crate) {kind} {name}: [{ty}; {}] = [",
        values.len()
    )
    .unwrap();
    for chunk in values.chunks(16) {
        let line: Vec<String> = chunk.iter().map(|v| v.to_string()).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
}

/// The whole generated source file.
pub fn generate() -> String {
    let classes = five_card_classes();
    let order = group_order();
    let mut out =
        String::from("// Generated by build.rs from src/holdem/table_gen.rs. Do not edit.\n\n");
    out.push_str(
        "/// Bit offsets of the mid and high group fields and of the suit counters in a key.\n",
    );
    writeln!(out, "pub(crate) const MID_SHIFT: u32 = {MID_SHIFT};").unwrap();
    writeln!(out, "pub(crate) const HIGH_SHIFT: u32 = {HIGH_SHIFT};").unwrap();
    writeln!(out, "pub(crate) const SUIT_SHIFT: u32 = {SUIT_SHIFT};").unwrap();
    out.push_str("/// The bit offset of the bad-card count a byte above 51 adds to a key.\n");
    writeln!(
        out,
        "pub(crate) const BAD_CARD_SHIFT: u32 = {BAD_CARD_SHIFT};\n"
    )
    .unwrap();
    let starts: Vec<u16> = classes.category_starts.to_vec();
    write_table(
        &mut out,
        "First rank of each category, high card to straight flush.",
        "CATEGORY_START",
        "u16",
        &starts,
    );
    let keys: Vec<u64> = (0..13).map(rank_key).collect();
    write_table(
        &mut out,
        "Key each rank adds to a hand (its group digit).",
        "RANK_KEY",
        "u64",
        &keys,
    );
    // Card byte = rank * 4 + suit; one entry per possible byte so the fast path indexes with
    // a raw byte: no mask, no bounds check. Bytes 52..=255 only count themselves as bad.
    let card_keys: Vec<u64> = (0..256)
        .map(|card| {
            if card < 52 {
                rank_key(card / 4) + (1u64 << (SUIT_SHIFT + 4 * (card % 4) as u32))
            } else {
                1u64 << BAD_CARD_SHIFT
            }
        })
        .collect();
    write_seven_card_table(
        &mut out,
        "Key each card adds: its rank digit plus one in its suit counter (a bad byte: one in the bad-card count).",
        "CARD_KEY",
        "u64",
        &card_keys,
    );
    // Padded to 1024 (the field's 10-bit range) so a masked field needs no bounds check.
    let mut dense = order.dense.clone();
    dense.resize(1024, 0);
    write_seven_card_table(
        &mut out,
        "Dense index of a four-rank group's base-5 key.",
        "GROUP_DENSE",
        "u16",
        &dense,
    );
    for n in 5..=7 {
        let mut table = automaton(&classes, &order, n);
        let write = if n == 7 {
            // The seven-card hot path masks the 12-bit low field instead of checking bounds.
            table.low.resize(1 << MID_SHIFT, 0);
            write_seven_card_table
        } else {
            write_table
        };
        write(
            &mut out,
            &format!("{n}-card automaton, low group (2-6) key -> mid row."),
            &format!("LOW{n}"),
            "u16",
            &table.low,
        );
        write(
            &mut out,
            &format!("{n}-card automaton, mid rows (7-T) -> high row."),
            &format!("MID{n}"),
            "u16",
            &table.mid,
        );
        write(
            &mut out,
            &format!("{n}-card automaton, high rows (J-A) -> hand rank."),
            &format!("HIGH{n}"),
            "u16",
            &table.high,
        );
    }
    out
}
