//! C ABI of Match-3 personas and the playtest report: read a persona file into a plain
//! struct (its goal and binary formula feed `arbor_match3_agent_move` directly), load a
//! bundled persona, and run the six agents of the paper's Table II on a level in a caller's
//! tree buffer.
use core::ffi::{c_char, c_void};

use super::arbor_status;
use super::legacy::{parse_into, text_of};
use super::match3::tree_storage;
use crate::match3::{
    Level, MAX_ENCODED_LEN, Persona, PlaytestAgent, SHIPPED_PERSONAS, SearchConfig, Storage,
    playtest, shipped,
};

/// Most bytes of a formula's binary form (64 instructions, all constants).
pub const ARBOR_MATCH3_FORMULA_MAX_BYTES: usize = 322;
/// Rows of `arbor_match3_playtest_report`: MaxS, MinS, MaxM, MinM, Vanilla, Random.
pub const ARBOR_MATCH3_PLAYTEST_AGENTS: usize = 6;
/// Bundled personas of `arbor_match3_persona_shipped`.
pub const ARBOR_MATCH3_SHIPPED_PERSONAS: usize = 4;

const _: () = assert!(MAX_ENCODED_LEN == ARBOR_MATCH3_FORMULA_MAX_BYTES);
const _: () = assert!(PlaytestAgent::ALL.len() == ARBOR_MATCH3_PLAYTEST_AGENTS);
const _: () = assert!(SHIPPED_PERSONAS.len() == ARBOR_MATCH3_SHIPPED_PERSONAS);

/// A persona: the goal its search rewards and its formula in binary form. Pass `goal`,
/// `formula` and `formula_len` to `arbor_match3_agent_move` with
/// `ARBOR_MATCH3_AGENT_PERSONA`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct arbor_match3_persona {
    /// 0 MaxS, 1 MinS, 2 MaxM, 3 MinM.
    pub goal: u32,
    /// Bytes of `formula` in use.
    pub formula_len: usize,
    /// The formula in the binary form of `arbor_match3_formula_compile`; bytes past
    /// `formula_len` are zero.
    pub formula: [u8; ARBOR_MATCH3_FORMULA_MAX_BYTES],
}

/// One agent's games in a playtest report.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct arbor_match3_playtest_row {
    /// Games played.
    pub games: u32,
    /// Lowest final score.
    pub min_score: u32,
    /// Highest final score.
    pub max_score: u32,
    /// Written as zero by arbor: an explicit field where padding would be, so a report holds
    /// no uninitialised bytes and two reports compare with `memcmp`.
    pub reserved: u32,
    /// Mean final score.
    pub mean_score: f64,
    /// Mean over games of the average legal moves available before each move.
    pub mean_available: f64,
}

/// The report of `arbor_match3_playtest`: one row per agent, in the order MaxS, MinS,
/// MaxM, MinM (the bundled personas), Vanilla MCTS, Random
/// (`arbor_match3_playtest_agent_name` names them).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct arbor_match3_playtest_report {
    /// The six rows.
    pub rows: [arbor_match3_playtest_row; ARBOR_MATCH3_PLAYTEST_AGENTS],
}

fn persona_image(persona: &Persona) -> arbor_match3_persona {
    let mut image = arbor_match3_persona {
        goal: persona.goal as u32,
        formula_len: 0,
        formula: [0; ARBOR_MATCH3_FORMULA_MAX_BYTES],
    };
    // The buffer holds the longest program, so encoding cannot fail; 0 bytes would be
    // refused by `arbor_match3_agent_move`, never misread.
    image.formula_len = persona.program.encode(&mut image.formula).unwrap_or(0);
    image
}

/// Parses a persona file from `len` bytes of UTF-8 text (the format of the README: `goal`,
/// `formula` and/or `bytecode` lines; no NUL needed) into `*out_persona`.
///
/// arbor reads `text` during the call only. On error `*out_persona` is unchanged and, if
/// `out_line` is not NULL, `*out_line` receives the 1-based line of the problem (0 when no
/// single line is at fault, such as a file without a formula; unchanged on other errors).
/// Errors: `ARBOR_NULL_POINTER` (`text` or `out_persona`), `ARBOR_INVALID_LENGTH`,
/// `ARBOR_INVALID_UTF8`, `ARBOR_PARSE_ERROR`.
///
/// # Safety
/// `text` must be valid for `len` reads; `out_persona` and `out_line` writable or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_persona_parse(
    text: *const u8,
    len: usize,
    out_persona: *mut arbor_match3_persona,
    out_line: *mut u32,
) -> arbor_status {
    // SAFETY: the caller's contract is `parse_into`'s.
    unsafe {
        parse_into(
            text,
            len,
            out_persona,
            out_line,
            |text| Persona::parse(text).map_err(|error| error.line),
            persona_image,
        )
    }
}

/// Loads bundled persona `index` into `*out_persona`: 0 max-score (MaxS), 1 min-score
/// (MinS), 2 max-moves (MaxM), 3 min-moves (MinM); the goal equals the index.
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (index out of range).
///
/// # Safety
/// `out_persona` must be writable or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_persona_shipped(
    index: u32,
    out_persona: *mut arbor_match3_persona,
) -> arbor_status {
    if out_persona.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    let Some((_, text)) = SHIPPED_PERSONAS.get(index as usize) else {
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    };
    // SAFETY: `text` is a static string, `out_persona` non-NULL and writable.
    unsafe {
        arbor_match3_persona_parse(
            text.as_ptr(),
            text.len(),
            out_persona,
            core::ptr::null_mut(),
        )
    }
}

/// The name of playtest report row `index` ("MaxS", "MinS", "MaxM", "MinM", "Vanilla",
/// "Random" for 0 to 5): a static NUL-terminated string owned by the library, or NULL for
/// an index out of range.
#[unsafe(no_mangle)]
pub extern "C" fn arbor_match3_playtest_agent_name(index: u32) -> *const c_char {
    let name: &core::ffi::CStr = match PlaytestAgent::ALL.get(index as usize) {
        Some(PlaytestAgent::MaxScore) => c"MaxS",
        Some(PlaytestAgent::MinScore) => c"MinS",
        Some(PlaytestAgent::MaxMoves) => c"MaxM",
        Some(PlaytestAgent::MinMoves) => c"MinM",
        Some(PlaytestAgent::Vanilla) => c"Vanilla",
        Some(PlaytestAgent::Random) => c"Random",
        None => return core::ptr::null(),
    };
    name.as_ptr()
}

/// Plays the paper's Table II on a level: `games` games with each of the bundled MaxS,
/// MinS, MaxM and MinM personas, Vanilla MCTS and Random, one after the other on the
/// calling thread, and writes the summary to `*out_report`.
///
/// `level_text`/`level_len`: the level file (UTF-8, no NUL needed). Game g uses the same
/// chance seed for every agent, derived from the level's seed, `seed` and g, so the report
/// equals the `arbor playtest` command's for the same level, games, seed and iterations.
/// `iterations`: per move (the paper uses 250). `tree`/`tree_bytes`: a caller buffer for the
/// search tree, used during the call only, aligned to `arbor_match3_tree_align()` and of at
/// least `arbor_match3_tree_bytes(1 + 112 * iterations)` bytes (the storage no search can
/// exhaust, so the report does not depend on the buffer). The call plays 6 × `games` whole
/// games, five of them searching every move: at 250 iterations a 20-move game on 7x7 takes
/// about 10 ms on one core of the machine the README's benchmarks ran on.
/// Errors: `ARBOR_NULL_POINTER` (`level_text`, `tree` or `out_report`),
/// `ARBOR_INVALID_ARGUMENT` (`games` is 0, misaligned `tree`), `ARBOR_INVALID_LENGTH`
/// (`level_len`, or `iterations` so large that the tree size overflows),
/// `ARBOR_INVALID_UTF8`, `ARBOR_PARSE_ERROR` (malformed level; `arbor_match3_level_parse`
/// tells the line), `ARBOR_BUFFER_TOO_SMALL` (`tree_bytes` below the size above). On error
/// `*out_report` is unchanged.
///
/// # Safety
/// `level_text` valid for `level_len` reads; `tree` valid for `tree_bytes` reads and writes
/// and not used by anything else during the call; `out_report` writable.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn arbor_match3_playtest(
    level_text: *const u8,
    level_len: usize,
    games: u32,
    seed: u64,
    iterations: u32,
    tree: *mut c_void,
    tree_bytes: usize,
    out_report: *mut arbor_match3_playtest_report,
) -> arbor_status {
    if level_text.is_null() || tree.is_null() || out_report.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    if games == 0 {
        return arbor_status::ARBOR_INVALID_ARGUMENT;
    }
    // SAFETY: `level_text` is non-NULL and valid for `level_len` reads (caller's contract).
    let text = match unsafe { text_of(level_text, level_len) } {
        Ok(text) => text,
        Err(error) => return error.into(),
    };
    let Ok(level) = Level::parse(text) else {
        return arbor_status::ARBOR_PARSE_ERROR;
    };
    let config = SearchConfig {
        iterations,
        ..SearchConfig::default()
    };
    if crate::match3::playtest_nodes(&config).is_none() {
        return arbor_status::ARBOR_INVALID_LENGTH;
    }
    // SAFETY: `tree` is non-NULL; the caller's contract covers `tree_bytes`.
    let storage = match unsafe { tree_storage(tree, tree_bytes) } {
        Ok(storage) => storage,
        Err(error) => return error.into(),
    };
    let report = shipped()
        .map_err(|_| crate::Error::InvalidArgument)
        .and_then(|personas| {
            // The C ABI lends tree nodes only, so the searches replay their moves.
            let mut storage = Storage::nodes_only(storage);
            playtest(&level, &personas, games, seed, &config, &mut storage)
        });
    let report = match report {
        Ok(report) => report,
        Err(error) => return error.into(),
    };
    let mut out = arbor_match3_playtest_report::default();
    for (row, summary) in out.rows.iter_mut().zip(&report.agents) {
        *row = arbor_match3_playtest_row {
            games: summary.games,
            min_score: summary.min_score,
            max_score: summary.max_score,
            reserved: 0,
            mean_score: summary.mean_score(),
            mean_available: summary.mean_available(),
        };
    }
    // SAFETY: `out_report` is non-NULL and writable (caller's contract).
    unsafe { out_report.write_unaligned(out) };
    arbor_status::ARBOR_OK
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match3::{Goal, PlaytestAgent, playtest_nodes, preset, states_for};
    use crate::search::mcts::{CachedState, Node};

    #[test]
    fn the_c_report_equals_the_core_playtest() {
        let text = preset("board2").unwrap();
        let config = SearchConfig {
            iterations: 12,
            ..SearchConfig::default()
        };
        let nodes = playtest_nodes(&config).unwrap();
        let mut nodes_in_rust = vec![Node::default(); nodes];
        let mut states = vec![CachedState::default(); states_for(config.iterations)];
        let level = Level::parse(text).unwrap();
        // The core keeps states, the C ABI replays: the same report all the same.
        let mut storage = Storage {
            nodes: &mut nodes_in_rust,
            states: &mut states,
        };
        let core = playtest(&level, &shipped().unwrap(), 3, 11, &config, &mut storage).unwrap();
        let mut buffer = vec![Node::<crate::match3::Swap>::default(); nodes];
        let mut report = arbor_match3_playtest_report::default();
        let bytes = nodes * core::mem::size_of::<Node<crate::match3::Swap>>();
        // SAFETY: every pointer is valid for the stated sizes.
        let status = unsafe {
            arbor_match3_playtest(
                text.as_ptr(),
                text.len(),
                3,
                11,
                12,
                buffer.as_mut_ptr().cast(),
                bytes,
                &mut report,
            )
        };
        assert_eq!(status, arbor_status::ARBOR_OK);
        for agent in PlaytestAgent::ALL {
            let (row, s) = (report.rows[agent.index()], core.summary(agent));
            assert_eq!(
                (row.games, row.min_score, row.max_score),
                (s.games, s.min_score, s.max_score)
            );
            assert_eq!(row.mean_score.to_bits(), s.mean_score().to_bits());
            assert_eq!(row.mean_available.to_bits(), s.mean_available().to_bits());
            // SAFETY: the name is a static NUL-terminated string.
            let name = unsafe {
                core::ffi::CStr::from_ptr(arbor_match3_playtest_agent_name(agent.index() as u32))
            };
            assert_eq!(name.to_str(), Ok(agent.name()));
        }
        // One byte short of the documented size.
        // SAFETY: as above.
        let status = unsafe {
            arbor_match3_playtest(
                text.as_ptr(),
                text.len(),
                3,
                11,
                12,
                buffer.as_mut_ptr().cast(),
                bytes - 1,
                &mut report,
            )
        };
        assert_eq!(status, arbor_status::ARBOR_BUFFER_TOO_SMALL);
    }

    #[test]
    fn persona_images_carry_the_goal_and_the_binary_formula() {
        for (index, goal) in crate::match3::PERSONA_GOALS.into_iter().enumerate() {
            let mut image = arbor_match3_persona {
                goal: 99,
                formula_len: 0,
                formula: [0; ARBOR_MATCH3_FORMULA_MAX_BYTES],
            };
            // SAFETY: `image` is writable.
            let status = unsafe { arbor_match3_persona_shipped(index as u32, &mut image) };
            assert_eq!(status, arbor_status::ARBOR_OK);
            assert_eq!(Goal::from_code(image.goal), Some(goal));
            let persona = Persona::parse(SHIPPED_PERSONAS[index].1).unwrap();
            let decoded = crate::match3::Program::decode(&image.formula[..image.formula_len]);
            assert_eq!(decoded, Ok(persona.program));
        }
    }
}
