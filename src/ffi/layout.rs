//! The sizes of the ABI's structs as the linked library has them, for bindings that mirror
//! the structs and want to check their mirrors against the library rather than a header.
use core::mem::size_of;

use super::boundary::{Out, boundary};
use super::text::text_in;
use super::*;
use crate::Error;

/// Every struct of the header and its size in this library.
const STRUCTS: [(&str, usize); 21] = [
    ("arbor_breakthrough", size_of::<arbor_breakthrough>()),
    (
        "arbor_breakthrough_search_config",
        size_of::<arbor_breakthrough_search_config>(),
    ),
    (
        "arbor_breakthrough_search_stats",
        size_of::<arbor_breakthrough_search_stats>(),
    ),
    (
        "arbor_breakthrough_solve_result",
        size_of::<arbor_breakthrough_solve_result>(),
    ),
    ("arbor_go_decision", size_of::<arbor_go_decision>()),
    ("arbor_go_info", size_of::<arbor_go_info>()),
    ("arbor_go_score", size_of::<arbor_go_score>()),
    ("arbor_go_search_stats", size_of::<arbor_go_search_stats>()),
    ("arbor_holdem_dealer", size_of::<arbor_holdem_dealer>()),
    ("arbor_holdem_hand", size_of::<arbor_holdem_hand>()),
    ("arbor_holdem_info", size_of::<arbor_holdem_info>()),
    ("arbor_match3_game", size_of::<arbor_match3_game>()),
    ("arbor_match3_level", size_of::<arbor_match3_level>()),
    ("arbor_match3_metrics", size_of::<arbor_match3_metrics>()),
    ("arbor_match3_outcome", size_of::<arbor_match3_outcome>()),
    ("arbor_match3_persona", size_of::<arbor_match3_persona>()),
    (
        "arbor_match3_playtest_progress",
        size_of::<arbor_match3_playtest_progress>(),
    ),
    (
        "arbor_match3_playtest_report",
        size_of::<arbor_match3_playtest_report>(),
    ),
    ("arbor_parse_error", size_of::<arbor_parse_error>()),
    ("arbor_search_limits", size_of::<arbor_search_limits>()),
    ("arbor_search_progress", size_of::<arbor_search_progress>()),
];

/// Writes to `*out_bytes` the size in this library of the struct named by the text `name`
/// (for example "arbor_breakthrough"), so that a binding can check its mirror of the struct
/// against the library it loaded (the header's `ARBOR_…_BYTES` macros say the same at
/// compile time).
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_UTF8`, `ARBOR_INVALID_ARGUMENT` (no struct
/// of that name in this library).
///
/// # Safety
/// `name` must be NULL or valid for `len` reads; `out_bytes` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_struct_bytes(
    name: *const u8,
    len: usize,
    out_bytes: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_bytes) }?;
        // SAFETY: forwarded caller guarantee.
        let name = unsafe { text_in(name, len) }?;
        let (_, bytes) = STRUCTS
            .iter()
            .find(|(known, _)| *known == name)
            .ok_or(Error::InvalidArgument)?;
        out.write(*bytes);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table names every struct of the C ABI: each `pub struct arbor_…` in src/ffi.
    #[test]
    fn every_struct_of_the_abi_is_in_the_table() {
        let sources = [
            include_str!("breakthrough.rs"),
            include_str!("go.rs"),
            include_str!("go_search.rs"),
            include_str!("holdem.rs"),
            include_str!("holdem_bot.rs"),
            include_str!("holdem_hand.rs"),
            include_str!("match3.rs"),
            include_str!("mcts.rs"),
            include_str!("playtest.rs"),
            include_str!("search.rs"),
            include_str!("solve.rs"),
            include_str!("status.rs"),
            include_str!("text.rs"),
        ];
        let declared: Vec<&str> = sources
            .iter()
            .flat_map(|source| source.lines())
            .filter_map(|line| line.strip_prefix("pub struct "))
            .filter_map(|rest| rest.split([' ', '<', '{']).next())
            .filter(|name| name.starts_with("arbor_"))
            .collect();
        let mut listed: Vec<&str> = STRUCTS.iter().map(|(name, _)| *name).collect();
        let mut declared_sorted = declared.clone();
        declared_sorted.sort_unstable();
        listed.sort_unstable();
        assert_eq!(declared_sorted, listed);
    }

    #[test]
    fn a_size_is_reported_by_name_and_an_unknown_name_refused() {
        let mut bytes = 0usize;
        let name = b"arbor_breakthrough";
        // SAFETY: valid text and output.
        let status = unsafe { arbor_struct_bytes(name.as_ptr(), name.len(), &mut bytes) };
        assert_eq!(status, arbor_status::ARBOR_OK);
        assert_eq!(bytes, ARBOR_BREAKTHROUGH_BYTES);
        let unknown = b"arbor_nothing";
        // SAFETY: as above.
        let status = unsafe { arbor_struct_bytes(unknown.as_ptr(), unknown.len(), &mut bytes) };
        assert_eq!(status, arbor_status::ARBOR_INVALID_ARGUMENT);
    }
}
