//! C ABI of Match-3 personas and the playtest report: read a persona file into a plain
//! struct (its goal and binary formula feed `arbor_match3_agent_move` directly), load a
//! bundled persona, and run the six agents of the paper's Table II on a level in a caller's
//! tree buffer.
use core::ffi::{c_char, c_void};

use super::arbor_status;
use super::boundary::{OptionalOut, Out, Plain, boundary, magic, report_bytes};
use super::match3::{
    ARBOR_MATCH3_LEVEL_IMAGE_BYTES, OpenHandle, arbor_match3_level, bytes_with_nodes, image_of,
    level_of, open_with_tree, read_level, tree_nodes, tree_storage,
};
use super::search::{
    ARBOR_STOP_DONE, ARBOR_STOP_STEP, CallStop, HANDLE_HEAD_BYTES, HandleKind, cancel_handle,
    handle_state, prepare_handle,
};
use super::text::{ParseFailure, TextOut, arbor_parse_error, text_in};
use crate::Error;
use crate::match3::{
    Level, MAX_ENCODED_LEN, Persona, PlaytestAgent, PlaytestRun, Report, SHIPPED_PERSONAS,
    SearchConfig, Storage, shipped,
};

/// Most bytes of a formula's binary form (64 instructions, all constants).
pub const ARBOR_MATCH3_FORMULA_MAX_BYTES: usize = 322;
/// Entries of each array of `arbor_match3_playtest_report`: MaxS, MinS, MaxM, MinM,
/// Vanilla, Random.
pub const ARBOR_MATCH3_PLAYTEST_AGENTS: usize = 6;
/// Bundled personas of `arbor_match3_persona_shipped`.
pub const ARBOR_MATCH3_SHIPPED_PERSONAS: usize = 4;
/// Bytes that hold any `arbor_match3_playtest_agent_format` name and its NUL.
pub const ARBOR_MATCH3_AGENT_NAME_MAX: usize = 8;

const _: () = assert!(MAX_ENCODED_LEN == ARBOR_MATCH3_FORMULA_MAX_BYTES);
const _: () = assert!(PlaytestAgent::ALL.len() == ARBOR_MATCH3_PLAYTEST_AGENTS);
const _: () = assert!(SHIPPED_PERSONAS.len() == ARBOR_MATCH3_SHIPPED_PERSONAS);

pub(super) const PERSONA_MAGIC: u32 = magic(b"M3PE");

/// A persona: the goal its search rewards and its formula in binary form. Pass `goal`,
/// `formula` and `formula_len` to `arbor_match3_agent_move` with
/// `ARBOR_MATCH3_AGENT_PERSONA`. Filled by `arbor_match3_persona_parse` or
/// `arbor_match3_persona_shipped`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct arbor_match3_persona {
    /// Written by arbor.
    pub magic: u32,
    /// `ARBOR_ABI_VERSION` of the library that filled it.
    pub version: u32,
    /// 0 MaxS, 1 MinS, 2 MaxM, 3 MinM.
    pub goal: u32,
    /// Bytes of `formula` in use.
    pub formula_len: u32,
    /// The formula in the binary form of `arbor_match3_formula_parse`; bytes past
    /// `formula_len` are zero.
    pub formula: [u8; ARBOR_MATCH3_FORMULA_MAX_BYTES],
    /// Written as zero.
    pub reserved: [u8; 2],
}

/// Bytes of `arbor_match3_persona`.
pub const ARBOR_MATCH3_PERSONA_BYTES: usize = 340;
const _: () = assert!(core::mem::size_of::<arbor_match3_persona>() == ARBOR_MATCH3_PERSONA_BYTES);

// SAFETY: `#[repr(C)]`, integers and byte arrays, no padding (16 + 322 + 2 = 340, asserted).
unsafe impl Plain for arbor_match3_persona {}

/// The report of `arbor_match3_playtest`: per agent, in the order MaxS, MinS, MaxM, MinM
/// (the bundled personas), Vanilla MCTS, Random (`arbor_match3_playtest_agent_format`
/// names them), one entry of each array.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct arbor_match3_playtest_report {
    /// Mean final score.
    pub mean_score: [f64; ARBOR_MATCH3_PLAYTEST_AGENTS],
    /// Mean over games of the average legal moves available before each move.
    pub mean_available: [f64; ARBOR_MATCH3_PLAYTEST_AGENTS],
    /// Games played.
    pub games: [u32; ARBOR_MATCH3_PLAYTEST_AGENTS],
    /// Lowest final score.
    pub min_score: [u32; ARBOR_MATCH3_PLAYTEST_AGENTS],
    /// Highest final score.
    pub max_score: [u32; ARBOR_MATCH3_PLAYTEST_AGENTS],
}

/// Bytes of `arbor_match3_playtest_report`.
pub const ARBOR_MATCH3_PLAYTEST_REPORT_BYTES: usize = 168;
const _: () = assert!(
    core::mem::size_of::<arbor_match3_playtest_report>() == ARBOR_MATCH3_PLAYTEST_REPORT_BYTES
);

/// The C report of a core report.
pub(super) fn report_of(report: &Report) -> arbor_match3_playtest_report {
    let mut out = arbor_match3_playtest_report::default();
    for (i, summary) in report.agents.iter().enumerate() {
        out.mean_score[i] = summary.mean_score();
        out.mean_available[i] = summary.mean_available();
        out.games[i] = summary.games;
        out.min_score[i] = summary.min_score;
        out.max_score[i] = summary.max_score;
    }
    out
}

fn persona_struct(persona: &Persona) -> Result<arbor_match3_persona, Error> {
    let mut image = arbor_match3_persona {
        magic: PERSONA_MAGIC,
        version: super::ARBOR_ABI_VERSION,
        goal: persona.goal as u32,
        formula_len: 0,
        formula: [0; ARBOR_MATCH3_FORMULA_MAX_BYTES],
        reserved: [0; 2],
    };
    // The array holds the longest program, so this does not fail.
    image.formula_len = persona.program.encode(&mut image.formula)? as u32;
    Ok(image)
}

/// Parses a persona file from text in (the format of docs/match3.md: `goal`, `formula`
/// and/or `bytecode` lines) into `*out_persona`.
///
/// arbor reads `text` during the call only. On `ARBOR_PARSE_ERROR`, `*out_error` (if not
/// NULL) receives the line (0 when no single line is at fault, such as a file without a
/// formula), the column (0 when the line as a whole is) and the message.
///
/// Errors: `ARBOR_NULL_POINTER` (`out_persona`, or `text` with `len` > 0),
/// `ARBOR_INVALID_LENGTH`, `ARBOR_INVALID_UTF8`, `ARBOR_PARSE_ERROR`.
///
/// # Safety
/// `text` must be NULL or valid for `len` reads; `out_persona` and `out_error` writable or
/// NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_persona_parse(
    text: *const u8,
    len: usize,
    out_persona: *mut arbor_match3_persona,
    out_error: *mut arbor_parse_error,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let (text, out, out_error) = unsafe {
            (
                text_in(text, len)?,
                Out::new(out_persona)?,
                OptionalOut::new(out_error),
            )
        };
        let persona = Persona::parse(text).map_err(|error| {
            ParseFailure {
                line: error.line,
                column: error.column,
                message: PersonaMessage(error),
            }
            .report(out_error)
        })?;
        out.write(persona_struct(&persona)?);
        Ok(())
    })
}

/// The message of a persona error: the problem, and for a formula what is wrong in it.
struct PersonaMessage(crate::match3::PersonaError);

impl core::fmt::Display for PersonaMessage {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.0.problem {
            crate::match3::PersonaProblem::Formula(_) if !self.0.detail.is_empty() => {
                write!(f, "formula: {}", self.0.detail)
            }
            problem => write!(f, "{problem}"),
        }
    }
}

/// Loads bundled persona `index` into `*out_persona`: 0 max-score (MaxS), 1 min-score
/// (MinS), 2 max-moves (MaxM), 3 min-moves (MinM); the goal equals the index.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_INVALID_ARGUMENT` (index out of range).
///
/// # Safety
/// `out_persona` must be writable or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_persona_shipped(
    index: u32,
    out_persona: *mut arbor_match3_persona,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { Out::new(out_persona) }?;
        let (_, text) = SHIPPED_PERSONAS
            .get(index as usize)
            .ok_or(Error::InvalidArgument)?;
        let persona = Persona::parse(text).map_err(|_| Error::InvalidArgument)?;
        out.write(persona_struct(&persona)?);
        Ok(())
    })
}

/// Writes the name of playtest agent `index` ("MaxS", "MinS", "MaxM", "MinM", "Vanilla",
/// "Random" for 0 to 5) as text out; `ARBOR_MATCH3_AGENT_NAME_MAX` bytes always suffice.
///
/// Errors: `ARBOR_NULL_POINTER` (`buf` NULL with `len` > 0), `ARBOR_INVALID_ARGUMENT`
/// (index out of range), `ARBOR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes; `out_len` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_playtest_agent_format(
    index: u32,
    buf: *mut c_char,
    len: usize,
    out_len: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let out = unsafe { TextOut::new(buf, len, out_len) }?;
        let agent = PlaytestAgent::ALL
            .get(index as usize)
            .ok_or(Error::InvalidArgument)?;
        out.write(agent.name())
    })
}

/// The playtest's search settings for `iterations`, checked. Errors:
/// `Error::InvalidArgument` ("out of range": 0 games, or iterations above
/// `ARBOR_MATCH3_MAX_ITERATIONS`).
pub(super) fn playtest_config(
    level: &Level,
    games: u32,
    iterations: u32,
) -> Result<(SearchConfig, usize), Error> {
    let nodes = tree_nodes(level, iterations).ok_or(Error::InvalidArgument)?;
    if games == 0 {
        return Err(Error::InvalidArgument);
    }
    Ok((
        SearchConfig {
            iterations,
            ..SearchConfig::default()
        },
        nodes,
    ))
}

/// Plays the paper's Table II on a level: `games` games with each of the bundled MaxS,
/// MinS, MaxM and MinM personas, Vanilla MCTS and Random, one after the other on the
/// calling thread, and writes the summary to `*out_report`.
///
/// Game g uses the same chance seed for every agent, derived from the level's seed, `seed`
/// and g, so the report equals the `arbor playtest` command's for the same level, games,
/// seed and iterations. `iterations`: per move (the paper uses 250), at most
/// `ARBOR_MATCH3_MAX_ITERATIONS`. `tree`/`tree_bytes`: a scratch buffer for the search tree,
/// used during the call only, aligned to `ARBOR_MATCH3_TREE_ALIGN` and of at least
/// `arbor_match3_tree_bytes(level, iterations)` bytes (the storage no search can exhaust, so
/// the report does not depend on the buffer). The call plays 6 × `games` whole games, five
/// of them searching every move: at 250 iterations a 20-move game on 7x7 takes about 10 ms
/// on one core of the machine the benchmarks ran on. For a playtest in steps that can be
/// cancelled, see `arbor_match3_playtest_init`.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_NOT_INITIALISED` / `ARBOR_WRONG_VERSION` (level),
/// `ARBOR_INVALID_ARGUMENT` (`games` 0 or `iterations` out of range, damaged level),
/// `ARBOR_MISALIGNED`, `ARBOR_BUFFER_TOO_SMALL` (`tree_bytes` below the size above).
///
/// # Safety
/// `level` readable; `tree` valid for `tree_bytes` reads and writes and not used by
/// anything else during the call; `out_report` writable.
#[unsafe(no_mangle)]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn arbor_match3_playtest(
    level: *const arbor_match3_level,
    games: u32,
    seed: u64,
    iterations: u32,
    tree: *mut c_void,
    tree_bytes: usize,
    out_report: *mut arbor_match3_playtest_report,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let (level, out) = unsafe { (read_level(level)?, Out::new(out_report)?) };
        let (config, nodes) = playtest_config(&level, games, iterations)?;
        // SAFETY: forwarded caller guarantee.
        let storage = unsafe { tree_storage(tree, tree_bytes, nodes) }?;
        let personas = shipped().map_err(|_| Error::InvalidArgument)?;
        // The C ABI lends tree nodes only, so the searches replay their moves.
        let mut storage = Storage::nodes_only(storage);
        let mut run = PlaytestRun::new(games, seed)?;
        while run.step(&level, &personas, &config, &mut storage)? {}
        out.write(report_of(&run.report));
        Ok(())
    })
}

// ---------------------------------------------------------------------------------------
// The playtest in steps: a handle in a caller buffer.
// ---------------------------------------------------------------------------------------

/// Alignment of a playtest handle buffer (`malloc` satisfies it).
pub const ARBOR_MATCH3_PLAYTEST_ALIGN: usize = 8;
/// Stack, in bytes, that `arbor_match3_playtest` and every `arbor_match3_playtest_*` call (and the persona calls) needs at most, for embedded targets sizing their stacks.
/// Measured with `.ci/stack.sh` (x86-64, gcc 12, the no_std and std libraries): 49,608 bytes, including
/// the calling C frames; the limit leaves room for other compilers and targets, and CI
/// fails if a call needs more.
pub const ARBOR_MATCH3_PLAYTEST_STACK_BYTES: usize = 65536;

const PLAYTEST_MAGIC: u32 = magic(b"M3PT");

/// Where a stepped playtest stands after `arbor_match3_playtest_step`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct arbor_match3_playtest_progress {
    /// Games played so far, over all agents.
    pub games_done: u32,
    /// Games of the whole playtest: 6 × games per agent.
    pub games_total: u32,
    /// `ARBOR_STOP_STEP` (the call played a game), `ARBOR_STOP_CANCELLED` (it gave the
    /// game up: the next step plays it again, to the same result) or `ARBOR_STOP_DONE`
    /// (every game was already played).
    pub stop_reason: u32,
    /// Written as zero.
    pub reserved: u32,
}

/// Bytes of `arbor_match3_playtest_progress`.
pub const ARBOR_MATCH3_PLAYTEST_PROGRESS_BYTES: usize = 16;
const _: () = assert!(
    core::mem::size_of::<arbor_match3_playtest_progress>() == ARBOR_MATCH3_PLAYTEST_PROGRESS_BYTES
);

/// A playtest handle after its buffer header and cancel flag; the tree's nodes follow.
#[repr(C)]
#[derive(Clone, Copy)]
struct PlaytestState {
    /// The core's run: integers and floats only, so any bytes are a value (a damaged one
    /// is refused by `check_run`, never misread as something unsafe).
    run: PlaytestRun,
    iterations: u32,
    level: [u8; ARBOR_MATCH3_LEVEL_IMAGE_BYTES],
}

/// Bytes of a playtest handle before its nodes: the head of every handle (search.rs), then
/// the state, rounded up to 8.
const PLAYTEST_HEAD_BYTES: usize =
    HANDLE_HEAD_BYTES + core::mem::size_of::<PlaytestState>().next_multiple_of(8);
const _: () = assert!(core::mem::align_of::<PlaytestState>() <= 8);
const PLAYTEST: HandleKind = HandleKind {
    magic: PLAYTEST_MAGIC,
    align: ARBOR_MATCH3_PLAYTEST_ALIGN,
    min_len: PLAYTEST_HEAD_BYTES,
};

type OpenPlaytest<'a> = OpenHandle<'a, PlaytestState>;

/// Opens a playtest handle. Errors: those of `open_handle` (search.rs).
///
/// # Safety
/// As `open_with_tree` (match3.rs).
unsafe fn open_playtest<'a>(buf: *mut c_void, len: usize) -> Result<OpenPlaytest<'a>, Error> {
    // SAFETY: forwarded caller guarantee; every field of `PlaytestState` is an integer, a
    // float or an array of them, so any bytes are a value; aligned to at most 8 (asserted).
    unsafe { open_with_tree(buf, len, &PLAYTEST) }
}

/// The level and settings of an opened playtest, checked against its tree. Errors:
/// `Error::NotInitialised` (damaged).
fn check_run(open: &OpenPlaytest<'_>) -> Result<(Level, SearchConfig), Error> {
    let level = level_of(&open.state.level).map_err(|_| Error::NotInitialised)?;
    let run = &open.state.run;
    let (config, nodes) = playtest_config(&level, run.games, open.state.iterations)
        .map_err(|_| Error::NotInitialised)?;
    if run.next_agent as usize > ARBOR_MATCH3_PLAYTEST_AGENTS
        || run.next_game >= run.games
        || open.nodes.len() < nodes
    {
        return Err(Error::NotInitialised);
    }
    Ok((level, config))
}

fn playtest_progress(run: &PlaytestRun, stop_reason: u32) -> arbor_match3_playtest_progress {
    arbor_match3_playtest_progress {
        games_done: run.played(),
        games_total: run
            .games
            .saturating_mul(ARBOR_MATCH3_PLAYTEST_AGENTS as u32),
        stop_reason,
        reserved: 0,
    }
}

/// Writes to `*out_bytes` the size of a playtest handle buffer for `*level` and
/// `iterations` per move: the handle and the tree of `arbor_match3_tree_bytes` (no search
/// can exhaust it, so the report does not depend on the buffer). Align it to
/// `ARBOR_MATCH3_PLAYTEST_ALIGN`.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`,
/// `ARBOR_INVALID_ARGUMENT` (damaged level, `iterations` above
/// `ARBOR_MATCH3_MAX_ITERATIONS`).
///
/// # Safety
/// `level` readable and `out_bytes` writable, or NULL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_playtest_bytes(
    level: *const arbor_match3_level,
    iterations: u32,
    out_bytes: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let level = unsafe { read_level(level) }?;
        let bytes = tree_nodes(&level, iterations)
            .and_then(|nodes| bytes_with_nodes(PLAYTEST_HEAD_BYTES, nodes));
        // SAFETY: forwarded caller guarantee.
        unsafe { report_bytes(bytes, out_bytes) }
    })
}

/// Prepares the playtest handle in `buf` (`len` bytes, sized by
/// `arbor_match3_playtest_bytes`) for the playtest `arbor_match3_playtest` runs with the
/// same arguments: each `arbor_match3_playtest_step` plays one of its 6 × `games` games, in
/// the same order, and `arbor_match3_playtest_result` then gives the same report, field for
/// field. The handle copies the level.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_NOT_INITIALISED` / `ARBOR_WRONG_VERSION` (level),
/// `ARBOR_INVALID_ARGUMENT` (`games` 0, `iterations` out of range, damaged level),
/// `ARBOR_MISALIGNED`, `ARBOR_BUFFER_TOO_SMALL` (below `arbor_match3_playtest_bytes`).
///
/// # Safety
/// `buf` NULL or valid for `len` writes and not used by anything else during the call;
/// `level` readable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_playtest_init(
    buf: *mut c_void,
    len: usize,
    level: *const arbor_match3_level,
    games: u32,
    seed: u64,
    iterations: u32,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let level = unsafe { read_level(level) }?;
        let (_, nodes) = playtest_config(&level, games, iterations)?;
        let min = bytes_with_nodes(PLAYTEST_HEAD_BYTES, nodes).ok_or(Error::InvalidArgument)?;
        let run = PlaytestRun::new(games, seed)?;
        // SAFETY: forwarded caller guarantee.
        let own = unsafe { prepare_handle(buf, len, &PLAYTEST, min) }?;
        // SAFETY: as in `open_playtest`; `own` starts 8-aligned.
        let (slot, _) = unsafe { handle_state::<PlaytestState>(own) }?;
        *slot = PlaytestState {
            run,
            iterations,
            level: image_of(&level),
        };
        Ok(())
    })
}

/// Plays the next game of the playtest in `buf` and writes where it stands to
/// `*out_progress`. `arbor_match3_playtest_cancel` makes it give the game up (within one
/// search iteration) with `ARBOR_STOP_CANCELLED`; the next step plays that game again,
/// to the same result. When every game has been played, it plays none and says
/// `ARBOR_STOP_DONE`.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_NOT_INITIALISED` / `ARBOR_WRONG_VERSION` (`buf`
/// not prepared by `arbor_match3_playtest_init`, or damaged since: its level, settings or
/// progress refused), `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH` (`len` above
/// `PTRDIFF_MAX`), `ARBOR_BUFFER_TOO_SMALL` (`len` below the prepared length). On error
/// the playtest is unchanged.
///
/// # Safety
/// `buf` NULL or valid for `len` reads and writes and used by nothing else during the call
/// but `arbor_match3_playtest_cancel`; `out_progress` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_playtest_step(
    buf: *mut c_void,
    len: usize,
    out_progress: *mut arbor_match3_playtest_progress,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let (open, out) = unsafe { (open_playtest(buf, len)?, Out::new(out_progress)?) };
        let (level, config) = check_run(&open)?;
        let personas = shipped().map_err(|_| Error::InvalidArgument)?;
        let OpenPlaytest {
            cancel,
            state: stored,
            nodes,
        } = open;
        let mut state = *stored;
        if state.run.is_done() {
            out.write(playtest_progress(&state.run, ARBOR_STOP_DONE));
            return Ok(());
        }
        let stop = CallStop::cancel_only(cancel);
        let mut storage = Storage::nodes_only(nodes);
        let played = state
            .run
            .step_until(&level, &personas, &config, &mut storage, &stop)?;
        let reason = match played {
            Some(_) => ARBOR_STOP_STEP,
            None => stop.finish(),
        };
        *stored = state;
        out.write(playtest_progress(&state.run, reason));
        Ok(())
    })
}

/// Writes the report of the games played so far to `*out_report`; once every game is
/// played, it equals `arbor_match3_playtest`'s with the same arguments, field for field.
///
/// Errors: those of `arbor_match3_playtest_step` for `buf`, `ARBOR_NULL_POINTER`.
///
/// # Safety
/// As `arbor_match3_playtest_step`; `out_report` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_playtest_result(
    buf: *mut c_void,
    len: usize,
    out_report: *mut arbor_match3_playtest_report,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let (open, out) = unsafe { (open_playtest(buf, len)?, Out::new(out_report)?) };
        check_run(&open)?;
        out.write(report_of(&open.state.run.report));
        Ok(())
    })
}

/// Asks the playtest step running on the handle in `buf` to give its game up: it returns
/// within one search iteration with `ARBOR_STOP_CANCELLED`. If no step is running, the next
/// one stops at once; the step that stops for a cancel clears it. The one function that may
/// be called while another thread uses the handle.
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`,
/// `ARBOR_BUFFER_TOO_SMALL`, `ARBOR_NOT_INITIALISED` (not prepared by
/// `arbor_match3_playtest_init`, or its header damaged), `ARBOR_WRONG_VERSION`.
///
/// # Safety
/// `buf` NULL or valid for `len` reads and writes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_match3_playtest_cancel(
    buf: *mut c_void,
    len: usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        unsafe { cancel_handle(buf, len, &PLAYTEST) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match3::{Goal, playtest, playtest_nodes, preset, states_for};
    use crate::search::mcts::{CachedState, Node};

    #[repr(C, align(8))]
    #[derive(Clone, Copy)]
    struct Block([u8; 64]);

    fn level_struct(text: &str) -> arbor_match3_level {
        let mut level = core::mem::MaybeUninit::<arbor_match3_level>::uninit();
        // SAFETY: `text` is readable for its length; `level` writable.
        let status = unsafe {
            super::super::arbor_match3_level_parse(
                text.as_ptr(),
                text.len(),
                level.as_mut_ptr(),
                core::ptr::null_mut(),
            )
        };
        assert_eq!(status, arbor_status::ARBOR_OK);
        // SAFETY: written on success.
        unsafe { level.assume_init() }
    }

    #[test]
    fn the_c_report_equals_the_core_playtest_with_the_tight_tree() {
        let text = preset("board2").unwrap();
        let config = SearchConfig {
            iterations: 12,
            ..SearchConfig::default()
        };
        let level = Level::parse(text).unwrap();
        // The core with the storage of every board size and kept states.
        let mut nodes = vec![Node::default(); playtest_nodes(&config).unwrap()];
        let mut states = vec![CachedState::default(); states_for(config.iterations)];
        let mut storage = Storage {
            nodes: &mut nodes,
            states: &mut states,
        };
        let core = playtest(&level, &shipped().unwrap(), 3, 11, &config, &mut storage).unwrap();

        // The C ABI with exactly `arbor_match3_tree_bytes`, nodes only.
        let c_level = level_struct(text);
        let mut bytes = 0usize;
        // SAFETY: valid pointers.
        let status = unsafe { super::super::arbor_match3_tree_bytes(&c_level, 12, &mut bytes) };
        assert_eq!(status, arbor_status::ARBOR_OK);
        let mut buffer = vec![Block([0; 64]); bytes.div_ceil(64)];
        let mut report = arbor_match3_playtest_report::default();
        // SAFETY: every pointer is valid for the stated sizes.
        let status = unsafe {
            arbor_match3_playtest(
                &c_level,
                3,
                11,
                12,
                buffer.as_mut_ptr().cast(),
                bytes,
                &mut report,
            )
        };
        assert_eq!(status, arbor_status::ARBOR_OK);
        assert_eq!(report, report_of(&core));
        for agent in PlaytestAgent::ALL {
            let (i, s) = (agent.index(), core.summary(agent));
            assert_eq!(report.mean_score[i].to_bits(), s.mean_score().to_bits());
            assert_eq!(report.games[i], 3);
        }
        // One byte short of the documented size.
        // SAFETY: as above.
        let status = unsafe {
            arbor_match3_playtest(
                &c_level,
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
    fn persona_structs_carry_the_goal_and_the_binary_formula() {
        for (index, goal) in crate::match3::PERSONA_GOALS.into_iter().enumerate() {
            let mut image = core::mem::MaybeUninit::<arbor_match3_persona>::uninit();
            // SAFETY: `image` is writable.
            let status = unsafe { arbor_match3_persona_shipped(index as u32, image.as_mut_ptr()) };
            assert_eq!(status, arbor_status::ARBOR_OK);
            // SAFETY: written on success.
            let image = unsafe { image.assume_init() };
            assert_eq!(Goal::from_code(image.goal), Some(goal));
            assert_eq!((image.magic, image.version), (PERSONA_MAGIC, 1));
            let persona = Persona::parse(SHIPPED_PERSONAS[index].1).unwrap();
            let decoded =
                crate::match3::Program::decode(&image.formula[..image.formula_len as usize]);
            assert_eq!(decoded, Ok(persona.program));
        }
    }
}
