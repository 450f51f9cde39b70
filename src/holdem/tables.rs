//! The hand-rank tables, generated at build time by `table_gen.rs` (see there for how they
//! work). About 95 KB in all (`TABLE_BYTES`), read-only, usable from flash.
include!(concat!(env!("OUT_DIR"), "/hand_tables.rs"));

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

/// Total size in bytes of every table the evaluator reads.
pub const TABLE_BYTES: usize = core::mem::size_of_val(&CATEGORY_START)
    + core::mem::size_of_val(&CARD_BIT)
    + core::mem::size_of_val(&RANK_KEY)
    + core::mem::size_of_val(&CARD_KEY)
    + core::mem::size_of_val(&GROUP_DENSE)
    + core::mem::size_of_val(&LOW5)
    + core::mem::size_of_val(&MID5)
    + core::mem::size_of_val(&HIGH5)
    + core::mem::size_of_val(&LOW6)
    + core::mem::size_of_val(&MID6)
    + core::mem::size_of_val(&HIGH6)
    + core::mem::size_of_val(&LOW7)
    + core::mem::size_of_val(&MID7)
    + core::mem::size_of_val(&HIGH7);

// The budget, in its stricter reading: the build fails if the tables outgrow it.
const _: () = assert!(TABLE_BYTES <= 100_000);
