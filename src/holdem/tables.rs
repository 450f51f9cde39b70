//! The hand-rank tables, generated at build time by `table_gen.rs` (see there for how they
//! work). About 98.6 KB in all (`TABLE_BYTES`), read-only, usable from flash.
include!(concat!(env!("OUT_DIR"), "/hand_tables.rs"));

/// The tables of the seven-card path, in one static so that a call addresses them all from
/// one register: position-independent code loads each static's address with an instruction
/// of its own, five a call with five statics (a loop keeps them in registers, a C call
/// cannot). `repr(C)` with a `u64` table first and one last: at most six bytes of padding,
/// before the last (counted in [`TABLE_BYTES`]).
#[repr(C)]
pub(crate) struct SevenCardTables {
    /// [`CARD_KEY`].
    pub(crate) card_key: [u64; CARD_KEY.len()],
    /// [`GROUP_DENSE`].
    pub(crate) group_dense: [u16; GROUP_DENSE.len()],
    /// [`LOW7`], [`MID7`] and [`HIGH7`].
    pub(crate) low: [u16; LOW7.len()],
    pub(crate) mid: [u16; MID7.len()],
    pub(crate) high: [u16; HIGH7.len()],
    /// [`CARD_KEY`] plus [`SUIT_START`], for a hand's first card: the starting value then
    /// costs no instruction of its own (a C call has no loop to keep it in a register).
    pub(crate) first_card_key: [u64; CARD_KEY.len()],
}

/// The one copy of the seven-card tables: the generated consts are read at run time only here.
pub(crate) static SEVEN_CARD: SevenCardTables = SevenCardTables {
    card_key: CARD_KEY,
    group_dense: GROUP_DENSE,
    low: LOW7,
    mid: MID7,
    high: HIGH7,
    first_card_key: plus_start(CARD_KEY),
};

/// Suit counters start at 3 so that a fifth card of a suit sets the counter's top bit.
pub(crate) const SUIT_START: u64 = 0x3333 << SUIT_SHIFT;

/// `keys` with [`SUIT_START`] added to each.
const fn plus_start<const N: usize>(keys: [u64; N]) -> [u64; N] {
    let mut started = keys;
    let mut card = 0;
    while card < N {
        started[card] = keys[card].wrapping_add(SUIT_START);
        card += 1;
    }
    started
}

/// One bit per card byte for the checked path: bit `card` for a card, bit 63 for any byte
/// above 51. Built by const evaluation.
pub(crate) static CARD_BIT: [u64; 256] = {
    let mut bits = [1u64 << 63; 256];
    let mut card = 0;
    while card < 52 {
        bits[card] = 1 << card;
        card += 1;
    }
    bits
};

/// The bit `16 * suit + rank` of a card (0 for bytes 52..=63): OR-ed over a hand, the
/// suits' rank masks side by side. The flush path reads it with the byte masked to 6 bits.
pub(crate) static SUIT_RANK_BIT: [u64; 64] = {
    let mut bits = [0u64; 64];
    let mut card = 0;
    while card < 52 {
        bits[card] = 1 << (16 * (card % 4) + card / 4);
        card += 1;
    }
    bits
};

/// The sum of the rank keys of a set of ranks, given as a bit mask of ranks `first..`
/// (`count` of them): the flush path turns a suit's rank mask into an automaton key with
/// three reads.
const fn mask_keys<const N: usize>(first: usize) -> [u64; N] {
    let mut keys = [0u64; N];
    let mut mask = 0;
    while mask < N {
        let mut rank = 0;
        while rank < N.trailing_zeros() as usize {
            if mask >> rank & 1 == 1 {
                keys[mask] += RANK_KEY[first + rank];
            }
            rank += 1;
        }
        mask += 1;
    }
    keys
}

/// Keys of the masks of ranks 2..=6, 7..=T and J..=A.
pub(crate) static LOW_MASK_KEY: [u64; 32] = mask_keys::<32>(0);
pub(crate) static MID_MASK_KEY: [u64; 16] = mask_keys::<16>(5);
pub(crate) static HIGH_MASK_KEY: [u64; 16] = mask_keys::<16>(9);

/// The largest value of a table.
pub(crate) const fn largest(table: &[u16]) -> u16 {
    let mut largest = 0;
    let mut index = 0;
    while index < table.len() {
        if table[index] > largest {
            largest = table[index];
        }
        index += 1;
    }
    largest
}

// The final tables hold ranks (0 for none), which `HandRank::from_table` relies on.
const _: () =
    assert!(largest(&HIGH5) <= 7462 && largest(&HIGH6) <= 7462 && largest(&HIGH7) <= 7462);

/// Total size in bytes of every table the evaluator reads.
pub const TABLE_BYTES: usize = core::mem::size_of_val(&CATEGORY_START)
    + core::mem::size_of_val(&CARD_BIT)
    + core::mem::size_of_val(&RANK_KEY)
    + core::mem::size_of_val(&SUIT_RANK_BIT)
    + core::mem::size_of_val(&LOW_MASK_KEY)
    + core::mem::size_of_val(&MID_MASK_KEY)
    + core::mem::size_of_val(&HIGH_MASK_KEY)
    + core::mem::size_of_val(&LOW5)
    + core::mem::size_of_val(&MID5)
    + core::mem::size_of_val(&HIGH5)
    + core::mem::size_of_val(&LOW6)
    + core::mem::size_of_val(&MID6)
    + core::mem::size_of_val(&HIGH6)
    + core::mem::size_of::<SevenCardTables>();

// The budget, in its stricter reading: the build fails if the tables outgrow it.
const _: () = assert!(TABLE_BYTES <= 100_000);
