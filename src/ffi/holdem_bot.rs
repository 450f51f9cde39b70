//! C ABI of a Hold'em bot kept in a caller buffer: a handle made once from a bot spec and a
//! seed, asked for decisions hand after hand, told when hands end.
//!
//! `arbor_holdem_bot_bytes` sizes the buffer, `arbor_holdem_bot_init` prepares it (the spec
//! is parsed once, so a bad spec is refused there with its reason), `arbor_holdem_bot_decide`
//! chooses the action of the position to act in an `arbor_holdem_hand` under an
//! `arbor_search_limits`, `arbor_holdem_bot_hand_over` tells the bot a hand ended, and
//! `arbor_holdem_bot_cancel` may be called from another thread. (`arbor_holdem_bot_act` of
//! holdem_hand.rs is the stateless call that takes the spec each time; the handle's call is
//! `_decide` because C has one name per function.)
//!
//! The handle stores the spec's text with the seed written into it and what the bot learned,
//! not a bot: each call rebuilds the bot from that text (parsing a spec and making a bot is
//! cheap next to a decision, and no core bot type has to be laid out in C memory) and gives
//! it back what it learned. A bot's randomness comes from its seed and the hand's number
//! only, and what a bot learns across hands (`HoldemBot::hand_over`: the expert bot's
//! statistics of its opponent, the online opponent model's counts) is kept in the handle as
//! the core's learned block (holdem/learned.rs: fixed size, versioned, checksummed), written
//! by `_hand_over` and read back by every call; so a rebuilt bot decides as a kept one would.
//!
//! Layout of the buffer (8-aligned, `ARBOR_HOLDEM_BOT_BYTES`): the 24 bytes every handle
//! begins with (search.rs: the buffer header with magic `HEBT`, then the cancel flag), then
//! the [`State`]: the seed, the counts of decisions and hands seen, the stored spec's length
//! and its bytes, and the learned block. A damaged state (a length past the array, text that
//! is not UTF-8 or no longer a bot spec, a learned block that fails its checks or is another
//! bot's) is refused with `ARBOR_NOT_INITIALISED`, never misread.
use core::ffi::c_void;
use core::mem::size_of;

use super::arbor_status;
use super::boundary::{OptionalOut, Out, boundary, read_in, report_bytes};
use super::holdem_hand::{arbor_holdem_hand, encode, read_hand};
use super::search::{
    ARBOR_STOP_CANCELLED, ARBOR_STOP_DEADLINE, ARBOR_STOP_DONE, ARBOR_STOP_ITERATIONS, CallStop,
    HANDLE_HEAD_BYTES, HandleKind, arbor_search_limits, arbor_search_progress, cancel_handle,
    check_limits, handle_state, open_handle, prepare_handle,
};
use super::text::{ParseFailure, arbor_parse_error, text_in};
use crate::Error;
use crate::holdem::bots::{Baseline, BotView, HoldemBot, SpecError, parse_bot};
use crate::holdem::learned::{LEARNED_BYTES, restore_learned, save_learned};
use crate::holdem::rules::{Action, HandState};

/// Longest bot spec `arbor_holdem_bot_init` accepts, in bytes.
pub const ARBOR_HOLDEM_BOT_SPEC_MAX: usize = 256;
/// Alignment of a bot handle buffer, in bytes (`malloc` and `alignas(8)` satisfy it).
pub const ARBOR_HOLDEM_BOT_ALIGN: usize = 8;
/// Bytes of a bot handle buffer (`arbor_holdem_bot_bytes` reports the same).
pub const ARBOR_HOLDEM_BOT_BYTES: usize = 1112;
const _: () = assert!(ARBOR_HOLDEM_BOT_BYTES == HANDLE_HEAD_BYTES + STATE_BYTES);
/// Bytes of what the bot learned across hands, kept at the end of a bot handle: the last
/// `ARBOR_HOLDEM_BOT_LEARNED_BYTES` bytes of the buffer. Versioned and checksummed; a caller
/// may save them (an opponent profile) and copy them into a handle of the same spec later;
/// damaged or another bot's bytes make every call refuse the handle with
/// `ARBOR_NOT_INITIALISED`.
pub const ARBOR_HOLDEM_BOT_LEARNED_BYTES: usize = 768;
const _: () = assert!(ARBOR_HOLDEM_BOT_LEARNED_BYTES == LEARNED_BYTES);
/// Stack, in bytes, that every `arbor_holdem_bot_*` call needs at most, for embedded targets
/// sizing their stacks. Measured with `.ci/stack.sh` (x86-64, gcc 12): 475,720 bytes with
/// the std library's `staged` bot deciding on a flop and re-solving a river (the search and the
/// re-solvers keep vectors over the 1,326 holdings on the stack), 103,736 with the no_std
/// library's expert bot (the staged bot needs std), including the calling C frames; the limit
/// leaves room for other compilers and targets, and CI fails if a call needs more.
pub const ARBOR_HOLDEM_BOT_STACK_BYTES: usize = 524288;

const HANDLE_MAGIC: u32 = super::boundary::magic(b"HEBT");

/// The spec's room in the handle: the longest spec and `,seed=` with a 20-digit seed,
/// rounded up to 8.
const STORED_SPEC_MAX: usize = (ARBOR_HOLDEM_BOT_SPEC_MAX + 26).next_multiple_of(8);

/// The handle's state, after the head every handle has. Plain numbers only, so any bytes
/// are a `State`; the spec is checked when a handle is opened ([`open`]).
#[repr(C)]
#[derive(Clone, Copy)]
struct State {
    /// The seed given to `_init` (written into the spec when the bot takes one).
    seed: u64,
    /// Decisions made (`_decide` calls that wrote an action).
    decisions: u64,
    /// Hands the bot was told of (`_hand_over`).
    hands_seen: u64,
    /// Bytes of `spec` in use.
    spec_len: u32,
    reserved: u32,
    /// The spec the bot is rebuilt from, UTF-8.
    spec: [u8; STORED_SPEC_MAX],
    /// What the bot learned, sealed by `save_learned`; last, so that it is the buffer's end.
    learned: [u8; LEARNED_BYTES],
}

const STATE_BYTES: usize = 32 + STORED_SPEC_MAX + LEARNED_BYTES;
const _: () = assert!(size_of::<State>() == STATE_BYTES);
const _: () = assert!(STATE_BYTES.is_multiple_of(8));

const HANDLE: HandleKind = HandleKind {
    magic: HANDLE_MAGIC,
    align: ARBOR_HOLDEM_BOT_ALIGN,
    min_len: ARBOR_HOLDEM_BOT_BYTES,
};

/// A spec under construction in a fixed array.
struct SpecText {
    bytes: [u8; STORED_SPEC_MAX],
    len: usize,
}

impl SpecText {
    fn push(&mut self, text: &[u8]) -> Result<(), Error> {
        let end = self.len + text.len();
        let slot = self
            .bytes
            .get_mut(self.len..end)
            .ok_or(Error::InvalidLength)?;
        slot.copy_from_slice(text);
        self.len = end;
        Ok(())
    }

    fn push_decimal(&mut self, mut value: u64) -> Result<(), Error> {
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (value % 10) as u8;
            value /= 10;
            if value == 0 {
                break;
            }
        }
        self.push(&digits[at..])
    }

    fn as_str(&self) -> &str {
        // Built from a `&str` split at ASCII separators and ASCII digits.
        core::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

/// `spec` without its `seed=` options, and with `seed=SEED` appended when `with_seed`.
fn spec_with_seed(spec: &str, seed: u64, with_seed: bool) -> Result<SpecText, Error> {
    let mut out = SpecText {
        bytes: [0; STORED_SPEC_MAX],
        len: 0,
    };
    let (name, options) = spec.split_once(':').unwrap_or((spec, ""));
    out.push(name.as_bytes())?;
    let mut separator: &[u8] = b":";
    let kept = options
        .split(',')
        .filter(|option| !option.is_empty() && option.split('=').next() != Some("seed"));
    for option in kept {
        out.push(separator)?;
        out.push(option.as_bytes())?;
        separator = b",";
    }
    if with_seed {
        out.push(separator)?;
        out.push(b"seed=")?;
        out.push_decimal(seed)?;
    }
    Ok(out)
}

/// The spec a handle stores for the caller's `spec` and `seed`: the seed replaces any
/// `seed=` of the spec when the bot takes a seed. Errors: the spec's own, as a parse failure
/// written to `out_error`.
fn stored_spec(
    spec: &str,
    seed: u64,
    out_error: OptionalOut<arbor_parse_error>,
) -> Result<SpecText, Error> {
    let report = |error: SpecError<'_>, out_error| {
        ParseFailure {
            line: 1,
            column: 0,
            message: error,
        }
        .report(out_error)
    };
    let seeded = spec_with_seed(spec, seed, true)?;
    match parse_bot(seeded.as_str()) {
        Ok(_) => Ok(seeded),
        Err(SpecError::UnknownOption { key: "seed", .. }) => {
            // A bot without randomness: it takes no seed.
            let plain = spec_with_seed(spec, seed, false)?;
            match parse_bot(plain.as_str()) {
                Ok(_) => Ok(plain),
                Err(error) => Err(report(error, out_error)),
            }
        }
        Err(_) => match parse_bot(spec) {
            // The caller's own text says what is wrong in the caller's words.
            Err(error) => Err(report(error, out_error)),
            Ok(_) => Err(Error::InvalidArgument),
        },
    }
}

/// An opened handle: its cancel flag, its state and the bot rebuilt from it.
struct Opened<'a> {
    cancel: &'a core::sync::atomic::AtomicU32,
    state: &'a mut State,
    bot: Baseline,
}

/// Opens the handle in `buf` and rebuilds its bot. Errors: the buffer errors of
/// `open_handle`, `Error::NotInitialised` (a damaged state).
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads and writes during `'a`, used by no other call
/// but `_cancel`.
unsafe fn open<'a>(buf: *mut c_void, len: usize) -> Result<Opened<'a>, Error> {
    // SAFETY: forwarded caller guarantee.
    let (cancel, own) = unsafe { open_handle(buf, len, &HANDLE) }?;
    // SAFETY: `State` is plain numbers and a byte array, valid for any bytes, aligned to 8,
    // and `own` starts 8-aligned.
    let (state, _) = unsafe { handle_state::<State>(own) }?;
    let spec = state
        .spec
        .get(..state.spec_len as usize)
        .ok_or(Error::NotInitialised)?;
    let spec = core::str::from_utf8(spec).map_err(|_| Error::NotInitialised)?;
    let mut bot = parse_bot(spec).map_err(|_| Error::NotInitialised)?;
    restore_learned(&mut bot, &state.learned).map_err(|_| Error::NotInitialised)?;
    Ok(Opened { cancel, state, bot })
}

/// Writes the bytes of a bot handle, `ARBOR_HOLDEM_BOT_BYTES`, to `*out_bytes`.
///
/// Errors: `ARBOR_NULL_POINTER`.
///
/// # Safety
/// `out_bytes` must be NULL or valid for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_bot_bytes(out_bytes: *mut usize) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        unsafe { report_bytes(Some(ARBOR_HOLDEM_BOT_BYTES), out_bytes) }
    })
}

/// Prepares the caller's buffer `buf` of `len` bytes (aligned to `ARBOR_HOLDEM_BOT_ALIGN`, at
/// least `ARBOR_HOLDEM_BOT_BYTES`) as a bot handle playing the bot named by `spec` (as for
/// `arbor_holdem_bot_act`: `call`, `min-raise`, `all-in`, `random`, `equity[:samples=N]`,
/// `staged[:...]`, and whatever names the linked library's bots know), with all randomness
/// from `seed`: a `seed=` option of the spec is replaced by `seed` (bots without randomness
/// take none). The spec is parsed here, once; its text is kept in the handle. The cancel
/// flag is clear, no decision made, no hand seen.
///
/// Errors (nothing prepared; `*out_error` written on `ARBOR_PARSE_ERROR`):
/// `ARBOR_NULL_POINTER` (`buf`, `spec` with a length), `ARBOR_MISALIGNED`,
/// `ARBOR_INVALID_LENGTH` (`len` or `spec_len` too large: a spec over
/// `ARBOR_HOLDEM_BOT_SPEC_MAX` bytes), `ARBOR_BUFFER_TOO_SMALL`, `ARBOR_INVALID_UTF8`,
/// `ARBOR_PARSE_ERROR` (an unknown bot or option, a bad number, with the reason).
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes, used by nothing else during the call, not
/// even `_cancel`; `spec` NULL or valid for `spec_len` reads; `out_error` NULL or valid for
/// one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_bot_init(
    buf: *mut c_void,
    len: usize,
    spec: *const u8,
    spec_len: usize,
    seed: u64,
    out_error: *mut arbor_parse_error,
) -> arbor_status {
    boundary(|| {
        if spec_len > ARBOR_HOLDEM_BOT_SPEC_MAX {
            return Err(Error::InvalidLength);
        }
        // SAFETY: forwarded caller guarantee.
        let spec = unsafe { text_in(spec, spec_len) }?;
        // SAFETY: forwarded caller guarantee.
        let out_error = unsafe { OptionalOut::new(out_error) };
        let stored = stored_spec(spec, seed, out_error)?;
        let bot = parse_bot(stored.as_str()).map_err(|_| Error::InvalidArgument)?;
        let mut learned = [0u8; LEARNED_BYTES];
        save_learned(&bot, &mut learned).map_err(|_| Error::InvalidArgument)?;
        // SAFETY: forwarded caller guarantee (exclusive use of `len` writable bytes).
        let own = unsafe { prepare_handle(buf, len, &HANDLE, ARBOR_HOLDEM_BOT_BYTES) }?;
        own.fill(0);
        // SAFETY: as in `open`.
        let (state, _) = unsafe { handle_state::<State>(own) }?;
        *state = State {
            seed,
            decisions: 0,
            hands_seen: 0,
            spec_len: stored.len as u32,
            reserved: 0,
            spec: stored.bytes,
            learned,
        };
        Ok(())
    })
}

/// The cheapest legal action: a check when there is nothing to call, else a fold.
fn fallback(state: &HandState) -> Action {
    if state.check(Action::Fold).is_ok() {
        Action::Fold
    } else {
        Action::Call
    }
}

/// Chooses the handle's bot's action for the position to act in `hand`, from what that
/// position sees (its hole cards, the board, the chips), and writes its action code
/// (`ARBOR_HOLDEM_FOLD`, `_CALL` or a raise-to) to `*out_action`, and to `*out_progress`
/// (if not NULL) the stop reason and the action as `best_move` (the other fields 0). The bot's
/// randomness comes from the handle's seed and `hand->hand_number`, so set a new number for
/// each hand: the same handle, seed and hand give the same action.
///
/// The budget: a cancel (`arbor_holdem_bot_cancel`, also one made before this call) or a
/// deadline of `limits` already passed when the call starts stops it before the bot thinks:
/// it writes the cheapest legal action (a check, else a fold) with `ARBOR_STOP_CANCELLED` or
/// `ARBOR_STOP_DEADLINE` (a cancel is consumed). Otherwise the bot decides, and a bot that
/// searches (`staged`) polls the cancel flag and the deadline as it goes (before every
/// opponent node and card of its tree, and every CFR+ iteration of a river re-solve): cut
/// short, it writes the best action found so far (the best of the root actions it finished
/// measuring, or the expert's own choice when none; the re-solve's average strategy of the
/// iterations done) with `ARBOR_STOP_CANCELLED` or `ARBOR_STOP_DEADLINE`; not cut short, with
/// `ARBOR_STOP_DONE`, the very action it plays without a budget. So the deadline bounds the
/// call: it returns within a poll interval of it (docs/holdem-search.md gives the measured
/// overrun), plus the preflop bot's and the range tracking's time, which do not poll (a few
/// milliseconds). The search's size is still set by the spec's options (samples, raises);
/// `max_iterations` is not used.
///
/// Errors (nothing written): `ARBOR_NULL_POINTER` (`buf`, `hand`, `limits`, `out_action`),
/// the buffer errors (`ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`, `ARBOR_BUFFER_TOO_SMALL`,
/// `ARBOR_NOT_INITIALISED` (also a damaged handle), `ARBOR_WRONG_VERSION`), the same for
/// `limits` not filled by `arbor_search_limits_init`, `ARBOR_UNSUPPORTED` (a deadline
/// without a clock in a `no_std` build), `ARBOR_GAME_OVER` (the hand is over),
/// `ARBOR_ILLEGAL_MOVE` (nobody is to act: betting is over or board cards are due),
/// `ARBOR_INVALID_ARGUMENT` (the hole cards of the position to act are unknown, or a damaged
/// hand).
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads and writes, used by no other call during this
/// one except `arbor_holdem_bot_cancel`; `hand` NULL or valid for one read of
/// `arbor_holdem_hand`; `limits` NULL or readable, its `now_us` NULL or callable with its
/// `ctx`; `out_action` NULL or valid for one write; `out_progress` may be NULL, else valid
/// for one write.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_bot_decide(
    buf: *mut c_void,
    len: usize,
    hand: *const arbor_holdem_hand,
    limits: *const arbor_search_limits,
    out_action: *mut u32,
    out_progress: *mut arbor_search_progress,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantees.
        let out = unsafe { Out::new(out_action) }?;
        // SAFETY: as above.
        let out_progress = unsafe { OptionalOut::new(out_progress) };
        // SAFETY: as above.
        let limits = unsafe { read_in(limits) }?;
        check_limits(&limits)?;
        // SAFETY: as above.
        let (held, state) = unsafe { read_hand(hand) }?;
        // SAFETY: as above.
        let Opened {
            cancel,
            state: handle,
            mut bot,
        } = unsafe { open(buf, len) }?;
        if state.is_over() {
            return Err(Error::GameOver);
        }
        let position = state.to_act().ok_or(Error::IllegalMove)?;
        let view = BotView::from_state(&state, position, u64::from(held.hand_number))
            .ok_or(Error::InvalidArgument)?;
        let stop = CallStop::new(&limits, cancel)?;
        let (action, stop_reason) = if stop.poll() {
            (fallback(&state), stop.finish())
        } else {
            let action = bot.act_until(&view, &state.seen_by(position), &mut &stop);
            // The bots only play legal actions; a refusal here would be a bug, reported
            // rather than handed to the caller.
            state.check(action).map_err(|_| Error::InvalidArgument)?;
            handle.decisions = handle.decisions.saturating_add(1);
            let why = match stop.finish() {
                ARBOR_STOP_ITERATIONS => ARBOR_STOP_DONE,
                cut_short => cut_short,
            };
            (action, why)
        };
        debug_assert!(matches!(
            stop_reason,
            ARBOR_STOP_DONE | ARBOR_STOP_CANCELLED | ARBOR_STOP_DEADLINE
        ));
        out.write(encode(action));
        out_progress.write(arbor_search_progress {
            stop_reason,
            best_move: encode(action),
            ..arbor_search_progress::default()
        });
        Ok(())
    })
}

/// Tells the handle's bot that `hand`, which is over, ended; the bot saw it as `position`
/// (0 or 1; it is shown what that position saw, and the opponent's cards only if the hand
/// showed them). The handle counts it, and keeps what the bot learned from it (the expert
/// bot's statistics of its opponent, the online opponent model's counts) for the next calls:
/// a handle told of N hands decides as a bot kept in memory through the same N hands.
///
/// Errors (the handle unchanged): `ARBOR_NULL_POINTER`, the buffer errors (see `_decide`),
/// `ARBOR_INVALID_ARGUMENT` (`position` not 0 or 1, a damaged hand), `ARBOR_ILLEGAL_MOVE`
/// (the hand is not over).
///
/// # Safety
/// As `arbor_holdem_bot_decide` for `buf` and `hand`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_bot_hand_over(
    buf: *mut c_void,
    len: usize,
    hand: *const arbor_holdem_hand,
    position: u32,
) -> arbor_status {
    boundary(|| {
        let position = u8::try_from(position)
            .ok()
            .filter(|&position| position <= 1)
            .ok_or(Error::InvalidArgument)?;
        // SAFETY: forwarded caller guarantee.
        let (_, state) = unsafe { read_hand(hand) }?;
        // SAFETY: forwarded caller guarantee.
        let Opened {
            state: handle,
            mut bot,
            ..
        } = unsafe { open(buf, len) }?;
        if !state.is_over() {
            return Err(Error::IllegalMove);
        }
        bot.hand_over(&state.seen_by(position), position);
        // Sealed into a copy first, so a failure leaves the handle as it was.
        let mut learned = [0u8; LEARNED_BYTES];
        save_learned(&bot, &mut learned).map_err(|_| Error::InvalidArgument)?;
        handle.learned = learned;
        handle.hands_seen = handle.hands_seen.saturating_add(1);
        Ok(())
    })
}

/// Asks the handle's bot to stop: the next `arbor_holdem_bot_decide` answers at once with the
/// cheapest legal action and `ARBOR_STOP_CANCELLED`, which clears the request; the one
/// running, if its bot searches, stops at its next poll with the best action found so far
/// and `ARBOR_STOP_CANCELLED` (a bot that does not search finishes its decision, and the
/// request then waits for the next call). The one call that may overlap others on
/// the handle, from any thread (not its `_init` nor its freeing).
///
/// Errors: `ARBOR_NULL_POINTER`, `ARBOR_MISALIGNED`, `ARBOR_INVALID_LENGTH`,
/// `ARBOR_BUFFER_TOO_SMALL`, `ARBOR_NOT_INITIALISED`, `ARBOR_WRONG_VERSION`.
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads and writes (prepared by `_init`, or any
/// bytes, which are refused).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_holdem_bot_cancel(buf: *mut c_void, len: usize) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        unsafe { cancel_handle(buf, len, &HANDLE) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ffi::holdem_hand::decode;
    use crate::ffi::{
        ARBOR_HOLDEM_CALL, ARBOR_HOLDEM_FOLD, arbor_holdem_hand_apply,
        arbor_holdem_hand_deal_board, arbor_holdem_hand_deal_hole, arbor_holdem_hand_info,
        arbor_holdem_hand_init, arbor_holdem_info, arbor_search_limits_init,
    };

    fn handle(spec: &str, seed: u64) -> Result<Vec<u64>, (arbor_status, String)> {
        let mut buf = vec![0u64; ARBOR_HOLDEM_BOT_BYTES / 8];
        let mut error = core::mem::MaybeUninit::<arbor_parse_error>::uninit();
        // SAFETY: every pointer is valid for its length.
        let status = unsafe {
            arbor_holdem_bot_init(
                buf.as_mut_ptr().cast(),
                ARBOR_HOLDEM_BOT_BYTES,
                spec.as_ptr(),
                spec.len(),
                seed,
                error.as_mut_ptr(),
            )
        };
        if status == arbor_status::ARBOR_OK {
            return Ok(buf);
        }
        let message = if status == arbor_status::ARBOR_PARSE_ERROR {
            // SAFETY: written on a parse error.
            let error = unsafe { error.assume_init() };
            String::from_utf8(error.message[..error.message_len as usize].to_vec()).unwrap()
        } else {
            String::new()
        };
        Err((status, message))
    }

    fn stored(buf: &[u64]) -> String {
        let bytes: Vec<u8> = buf.iter().flat_map(|w| w.to_ne_bytes()).collect();
        let state = &bytes[HANDLE_HEAD_BYTES..];
        let len = u32::from_ne_bytes(state[24..28].try_into().unwrap()) as usize;
        String::from_utf8(state[32..32 + len].to_vec()).unwrap()
    }

    fn limits() -> arbor_search_limits {
        let mut limits = core::mem::MaybeUninit::uninit();
        // SAFETY: writable.
        unsafe {
            assert_eq!(
                arbor_search_limits_init(0, limits.as_mut_ptr()),
                arbor_status::ARBOR_OK
            );
            limits.assume_init()
        }
    }

    fn info(hand: &arbor_holdem_hand) -> arbor_holdem_info {
        let mut info = arbor_holdem_info::default();
        // SAFETY: valid pointers.
        let status = unsafe { arbor_holdem_hand_info(hand, &mut info) };
        assert_eq!(status, arbor_status::ARBOR_OK);
        info
    }

    fn decide(buf: &mut [u64], hand: &arbor_holdem_hand) -> (arbor_status, u32, u32) {
        let mut action = 7777;
        let mut progress = arbor_search_progress::default();
        // SAFETY: every pointer is valid.
        let status = unsafe {
            arbor_holdem_bot_decide(
                buf.as_mut_ptr().cast(),
                buf.len() * 8,
                hand,
                &limits(),
                &mut action,
                &mut progress,
            )
        };
        (status, action, progress.stop_reason)
    }

    /// Hand number `number` of 20,000-chip stacks and blinds 100/50, nothing dealt.
    fn new_hand(number: u32) -> arbor_holdem_hand {
        let mut hand = core::mem::MaybeUninit::uninit();
        // SAFETY: writable.
        let mut hand = unsafe {
            assert_eq!(
                arbor_holdem_hand_init(20_000, 20_000, 100, 50, hand.as_mut_ptr()),
                arbor_status::ARBOR_OK
            );
            hand.assume_init()
        };
        hand.hand_number = number;
        hand
    }

    /// A whole hand dealt from a fixed deck, each position played by its handle; the actions.
    fn play_hand(bots: [&mut Vec<u64>; 2], number: u32) -> Vec<u32> {
        let mut hand = new_hand(number);
        let deck: [u8; 9] = [51, 47, 12, 13, 30, 22, 5, 40, 33];
        // SAFETY: valid pointers.
        unsafe {
            assert_eq!(
                arbor_holdem_hand_deal_hole(&mut hand, 0, deck.as_ptr(), 2),
                arbor_status::ARBOR_OK
            );
            assert_eq!(
                arbor_holdem_hand_deal_hole(&mut hand, 1, deck[2..].as_ptr(), 2),
                arbor_status::ARBOR_OK
            );
        }
        let [first, second] = bots;
        let mut next_card = 4;
        let mut actions = Vec::new();
        loop {
            let now = info(&hand);
            if now.over == 1 {
                break;
            }
            if now.board_cards_due > 0 {
                // SAFETY: valid pointer.
                let status = unsafe { arbor_holdem_hand_deal_board(&mut hand, deck[next_card]) };
                assert_eq!(status, arbor_status::ARBOR_OK);
                next_card += 1;
                continue;
            }
            let bot = if now.to_act == 0 {
                &mut *first
            } else {
                &mut *second
            };
            let (status, action, reason) = decide(bot, &hand);
            assert_eq!((status, reason), (arbor_status::ARBOR_OK, ARBOR_STOP_DONE));
            // SAFETY: valid pointer.
            let applied = unsafe { arbor_holdem_hand_apply(&mut hand, action) };
            assert_eq!(applied, arbor_status::ARBOR_OK, "legal action {action}");
            actions.push(action);
        }
        assert_eq!(decide(first, &hand).0, arbor_status::ARBOR_GAME_OVER);
        for (position, bot) in [(0u32, first), (1, second)] {
            // SAFETY: valid pointers.
            let status = unsafe {
                arbor_holdem_bot_hand_over(bot.as_mut_ptr().cast(), bot.len() * 8, &hand, position)
            };
            assert_eq!(status, arbor_status::ARBOR_OK);
        }
        actions
    }

    /// A hand of 20,000-chip stacks in which position 1 holds 7c 2d and position 0 `hole`
    /// (card bytes), with `actions` (codes) applied; also the same hand as a `HandState`.
    fn shove_hand(number: u32, hole: [u8; 2], actions: &[u32]) -> (arbor_holdem_hand, HandState) {
        let mut hand = new_hand(number);
        let theirs = [20u8, 1];
        let mut state = HandState::new(crate::holdem::HoldemConfig::ACPC);
        let card = |byte: u8| crate::holdem::Card::ALL[usize::from(byte)];
        state.deal_hole_cards(0, hole.map(card)).unwrap();
        state.deal_hole_cards(1, theirs.map(card)).unwrap();
        // SAFETY: valid pointers.
        unsafe {
            assert_eq!(
                arbor_holdem_hand_deal_hole(&mut hand, 0, hole.as_ptr(), 2),
                arbor_status::ARBOR_OK
            );
            assert_eq!(
                arbor_holdem_hand_deal_hole(&mut hand, 1, theirs.as_ptr(), 2),
                arbor_status::ARBOR_OK
            );
        }
        for &code in actions {
            // SAFETY: valid pointer.
            let status = unsafe { arbor_holdem_hand_apply(&mut hand, code) };
            assert_eq!(status, arbor_status::ARBOR_OK);
            state.apply(decode(code)).unwrap();
        }
        (hand, state)
    }

    fn hand_over(buf: &mut [u64], hand: &arbor_holdem_hand, position: u32) -> arbor_status {
        // SAFETY: valid pointers.
        unsafe {
            arbor_holdem_bot_hand_over(buf.as_mut_ptr().cast(), buf.len() * 8, hand, position)
        }
    }

    /// The learned block's first byte in a handle buffer.
    const LEARNED_AT: usize = ARBOR_HOLDEM_BOT_BYTES - LEARNED_BYTES;

    #[test]
    fn a_handle_keeps_what_its_bot_learned_and_refuses_a_damaged_block() {
        use crate::holdem::expert::{ExpertBot, Style};
        let mut kept = handle("expert", 3).unwrap();
        let mut fresh = handle("expert", 3).unwrap();
        let mut in_process = ExpertBot::new(Style::BALANCED, 3);
        // K9 offsuit facing a shove: folded against the chart's shoving range.
        let king_nine = [44u8, 29];
        let (spot, spot_state) = shove_hand(100, king_nine, &[20_000]);
        let view = BotView::from_state(&spot_state, 0, 100).unwrap();
        let before = decide(&mut fresh, &spot).1;
        assert_eq!(before, ARBOR_HOLDEM_FOLD);
        assert_eq!(in_process.act(&view, &spot_state.seen_by(0)), Action::Fold);
        // Forty hands in which the opponent shoves and we fold: it shoves anything.
        for number in 0..40 {
            let (over, over_state) = shove_hand(number, [8, 13], &[20_000, ARBOR_HOLDEM_FOLD]);
            assert_eq!(hand_over(&mut kept, &over, 0), arbor_status::ARBOR_OK);
            in_process.hand_over(&over_state.seen_by(0), 0);
        }
        let learned = in_process.act(&view, &spot_state.seen_by(0));
        let (status, action, _) = decide(&mut kept, &spot);
        assert_eq!(status, arbor_status::ARBOR_OK);
        assert_eq!(
            action,
            encode(learned),
            "the handle decides as the kept bot"
        );
        assert_ne!(action, before, "what it learned changes the decision");
        // The fresh handle, told nothing, still folds; a decision teaches nothing.
        assert_eq!(decide(&mut fresh, &spot).1, ARBOR_HOLDEM_FOLD);
        assert_eq!(decide(&mut kept, &spot).1, action);
        // A flipped byte anywhere in the learned block is refused, and so is another bot's.
        let bytes_of =
            |buf: &Vec<u64>| -> Vec<u8> { buf.iter().flat_map(|w| w.to_ne_bytes()).collect() };
        let words_of = |bytes: &[u8]| -> Vec<u64> {
            bytes
                .chunks(8)
                .map(|c| u64::from_ne_bytes(c.try_into().unwrap()))
                .collect()
        };
        for at in [LEARNED_AT, LEARNED_AT + 30, ARBOR_HOLDEM_BOT_BYTES - 1] {
            let mut bytes = bytes_of(&kept);
            bytes[at] ^= 0x10;
            let mut damaged = words_of(&bytes);
            assert_eq!(
                decide(&mut damaged, &spot).0,
                arbor_status::ARBOR_NOT_INITIALISED
            );
            assert_eq!(
                hand_over(&mut damaged, &spot, 0),
                arbor_status::ARBOR_NOT_INITIALISED
            );
        }
        let mut call = bytes_of(&handle("call", 3).unwrap());
        call[LEARNED_AT..].copy_from_slice(&bytes_of(&kept)[LEARNED_AT..]);
        assert_eq!(
            decide(&mut words_of(&call), &spot).0,
            arbor_status::ARBOR_NOT_INITIALISED
        );
    }

    #[test]
    fn the_seed_argument_replaces_the_specs_and_seedless_bots_take_none() {
        assert_eq!(
            stored(&handle("equity:seed=3,samples=50", 9).unwrap()),
            "equity:samples=50,seed=9"
        );
        assert_eq!(stored(&handle("random", 4).unwrap()), "random:seed=4");
        assert_eq!(stored(&handle("call", 4).unwrap()), "call");
        assert_eq!(stored(&handle("call:seed=2", 4).unwrap()), "call");
        assert_eq!(
            stored(&handle("expert:style=rock", u64::MAX).unwrap()),
            "expert:style=rock,seed=18446744073709551615"
        );
        let (status, message) = handle("genius:seed=1", 1).unwrap_err();
        assert_eq!(status, arbor_status::ARBOR_PARSE_ERROR);
        assert!(message.starts_with("unknown bot 'genius'"), "{message}");
        let (status, message) = handle("equity:samples=0", 1).unwrap_err();
        assert_eq!(status, arbor_status::ARBOR_PARSE_ERROR);
        assert!(message.starts_with("samples=0"), "{message}");
        let long = format!("equity:{}", "samples=5,".repeat(30));
        assert_eq!(
            handle(&long, 1).unwrap_err().0,
            arbor_status::ARBOR_INVALID_LENGTH
        );
    }

    #[test]
    fn two_handles_play_whole_hands_and_the_same_seed_plays_the_same() {
        let play = |seed: u64| {
            let mut random = handle("random", seed).unwrap();
            let mut equity = handle("equity:samples=200", seed).unwrap();
            let mut all = Vec::new();
            for number in 0..6 {
                all.push(play_hand([&mut random, &mut equity], number));
            }
            (all, random)
        };
        let (first, random) = play(5);
        let (again, _) = play(5);
        let (other, _) = play(6);
        assert_eq!(first, again);
        assert_ne!(first, other, "another seed plays other hands");
        let bytes: Vec<u8> = random.iter().flat_map(|w| w.to_ne_bytes()).collect();
        let state = &bytes[HANDLE_HEAD_BYTES..];
        let hands_seen = u64::from_ne_bytes(state[16..24].try_into().unwrap());
        assert_eq!(hands_seen, 6);
    }

    #[test]
    fn a_cancel_answers_with_the_cheapest_action_and_is_consumed() {
        let mut bot = handle("min-raise", 1).unwrap();
        let mut hand = core::mem::MaybeUninit::uninit();
        // SAFETY: valid pointers.
        let mut hand = unsafe {
            arbor_holdem_hand_init(20_000, 20_000, 100, 50, hand.as_mut_ptr());
            hand.assume_init()
        };
        // SAFETY: valid pointers.
        unsafe {
            arbor_holdem_hand_deal_hole(&mut hand, 0, [0u8, 1].as_ptr(), 2);
            arbor_holdem_hand_deal_hole(&mut hand, 1, [2u8, 3].as_ptr(), 2);
            assert_eq!(
                arbor_holdem_bot_cancel(bot.as_mut_ptr().cast(), ARBOR_HOLDEM_BOT_BYTES),
                arbor_status::ARBOR_OK
            );
        }
        // The small blind faces the big blind: folding is the cheapest.
        assert_eq!(
            decide(&mut bot, &hand),
            (arbor_status::ARBOR_OK, 0, ARBOR_STOP_CANCELLED)
        );
        assert_eq!(
            decide(&mut bot, &hand),
            (arbor_status::ARBOR_OK, 200, ARBOR_STOP_DONE)
        );
    }

    /// A clock that moves on 10 microseconds each time it is read.
    unsafe extern "C" fn ticking(ctx: *mut c_void) -> u64 {
        // SAFETY: the test passes a `u64` it owns.
        let now = unsafe { &mut *ctx.cast::<u64>() };
        *now += 10;
        *now
    }

    #[test]
    fn a_deadline_passed_at_the_start_answers_with_a_check_when_it_is_free() {
        let mut bot = handle("min-raise", 1).unwrap();
        let mut hand = core::mem::MaybeUninit::uninit();
        // SAFETY: valid pointers.
        let mut hand = unsafe {
            arbor_holdem_hand_init(20_000, 20_000, 100, 50, hand.as_mut_ptr());
            hand.assume_init()
        };
        // SAFETY: valid pointers.
        unsafe {
            arbor_holdem_hand_deal_hole(&mut hand, 0, [0u8, 1].as_ptr(), 2);
            arbor_holdem_hand_deal_hole(&mut hand, 1, [2u8, 3].as_ptr(), 2);
            // The small blind calls: the big blind may check.
            arbor_holdem_hand_apply(&mut hand, ARBOR_HOLDEM_CALL);
        }
        let mut clock = 0u64;
        let mut limits = limits();
        limits.deadline_us = 5;
        limits.now_us = Some(ticking);
        limits.ctx = (&raw mut clock).cast();
        let mut action = 7777;
        let mut progress = arbor_search_progress::default();
        // SAFETY: every pointer is valid; the clock is called on this thread.
        let status = unsafe {
            arbor_holdem_bot_decide(
                bot.as_mut_ptr().cast(),
                ARBOR_HOLDEM_BOT_BYTES,
                &hand,
                &limits,
                &mut action,
                &mut progress,
            )
        };
        assert_eq!(
            (status, action, progress.stop_reason, progress.best_move),
            (arbor_status::ARBOR_OK, 1, ARBOR_STOP_DEADLINE, 1)
        );
        // Without the deadline the bot itself decides: a minimum raise.
        assert_eq!(
            decide(&mut bot, &hand),
            (arbor_status::ARBOR_OK, 200, ARBOR_STOP_DONE)
        );
    }

    #[test]
    fn bad_buffers_and_hands_are_refused() {
        let mut bot = handle("call", 1).unwrap();
        let mut hand = core::mem::MaybeUninit::uninit();
        // SAFETY: valid pointers.
        let hand = unsafe {
            arbor_holdem_hand_init(20_000, 20_000, 100, 50, hand.as_mut_ptr());
            hand.assume_init()
        };
        // Nobody's hole cards are known.
        assert_eq!(
            decide(&mut bot, &hand).0,
            arbor_status::ARBOR_INVALID_ARGUMENT
        );
        // SAFETY: valid pointers.
        unsafe {
            assert_eq!(
                arbor_holdem_bot_hand_over(bot.as_mut_ptr().cast(), 8 * bot.len(), &hand, 0),
                arbor_status::ARBOR_ILLEGAL_MOVE
            );
            assert_eq!(
                arbor_holdem_bot_hand_over(bot.as_mut_ptr().cast(), 8 * bot.len(), &hand, 2),
                arbor_status::ARBOR_INVALID_ARGUMENT
            );
            let mut action = 0;
            assert_eq!(
                arbor_holdem_bot_decide(
                    bot.as_mut_ptr().cast(),
                    8 * bot.len(),
                    &hand,
                    core::ptr::null(),
                    &mut action,
                    core::ptr::null_mut()
                ),
                arbor_status::ARBOR_NULL_POINTER
            );
        }
        let mut damaged = bot.clone();
        // The stored spec's length past its array.
        damaged[(HANDLE_HEAD_BYTES + 24) / 8] = 0xFFFF;
        assert_eq!(
            decide(&mut damaged, &hand).0,
            arbor_status::ARBOR_NOT_INITIALISED
        );
        let mut foreign = vec![0u64; bot.len()];
        assert_eq!(
            decide(&mut foreign, &hand).0,
            arbor_status::ARBOR_NOT_INITIALISED
        );
        let mut small = vec![0u64; 4];
        let spec = b"call";
        let mut bytes = 0usize;
        // SAFETY: valid pointers.
        unsafe {
            assert_eq!(
                arbor_holdem_bot_init(
                    small.as_mut_ptr().cast(),
                    32,
                    spec.as_ptr(),
                    spec.len(),
                    1,
                    core::ptr::null_mut()
                ),
                arbor_status::ARBOR_BUFFER_TOO_SMALL
            );
            assert_eq!(arbor_holdem_bot_bytes(&mut bytes), arbor_status::ARBOR_OK);
        }
        assert_eq!(bytes, ARBOR_HOLDEM_BOT_BYTES);
    }
}
