//! arbor's C ABI, version 1. The lines of this comment up to the blank one below are also
//! the comment at the top of `include/arbor.h`.
//!
//! CONVENTIONS (every function follows them)
//!
//! Status: every function that can fail returns `arbor_status` (0 is `ARBOR_OK`) and writes
//! its outputs only on success: on error, nothing the caller passed is changed, except the
//! optional `out_len` of text out and `out_error` of a parse. `arbor_status_format` names
//! a status. Statuses are `[[nodiscard]]` in C++17 and C23.
//!
//! Text in: `const uint8_t *text, size_t len`, UTF-8, not NUL-terminated (a NUL byte is a
//! character). NULL with `len` 0 is the empty text.
//!
//! Text out: `char *buf, size_t len, size_t *out_len`. The text's length without its NUL
//! goes to `*out_len` (if not NULL), also when the buffer is too small; the text and a NUL
//! are written only if both fit, else `ARBOR_BUFFER_TOO_SMALL` and nothing. `buf` may be
//! NULL with `len` 0 to ask for the length. `ARBOR_…_TEXT_MAX` macros always suffice.
//! Functions that write text end in `_format`, functions that read it in `_parse`.
//!
//! Parse errors: every `_parse` function takes an optional `arbor_parse_error *out_error`
//! and on `ARBOR_PARSE_ERROR` writes the line, the column and a message there.
//!
//! Caller buffers (search trees, solver tables, handles): sized by `arbor_…_bytes(…,
//! size_t *out_bytes)`, which returns a status, aligned to the area's `ARBOR_…_ALIGN`
//! macro (`malloc` and `alignas` satisfy every one), prepared by the area's `_init`
//! function. arbor keeps no pointer to a buffer after a call returns and allocates
//! nothing; the caller frees it. A buffer begins with a magic number and the ABI version:
//! one not prepared by arbor is refused with `ARBOR_NOT_INITIALISED`, one made by another
//! version with `ARBOR_WRONG_VERSION`, a misaligned one with `ARBOR_MISALIGNED`.
//!
//! Structs: fixed-width integer and float fields only, no hidden padding (explicit
//! `reserved` fields, written as zero), no arrays of structs, sizes given by `ARBOR_…_BYTES`
//! macros and checked at compile time on both sides. Structs arbor fills for the caller to
//! keep and pass back (positions, levels, games, personas, settings) begin with `magic`
//! and `version` fields and are refused like foreign buffers; they may be copied with
//! `memcpy` and saved to disk: a saved one from another version is refused, never misread.
//!
//! Threads: every function is reentrant and may be called from any thread. Calls that use
//! the same buffer or struct must not overlap, except `arbor_…_cancel`, which may be called
//! from any thread while another call uses its handle (not while the handle is being
//! prepared by `_init` or freed). Functions that take a thread count start that many threads
//! and join them before returning. Nothing panics or aborts across this boundary.
//!
//! Versions: `ARBOR_VERSION_MAJOR/MINOR/PATCH` and `ARBOR_ABI_VERSION` in this header, and
//! `arbor_version()`, `arbor_abi_version()` and `arbor_build_info()` for the library linked.
//!
//! Stack: each area's section gives the worst case its calls need, measured.
//!
//! Each file below covers one area and stays thin: it checks the caller's pointers and
//! sizes through `boundary`, converts, and calls the core.

mod boundary;
mod breakthrough;
mod go;
mod go_search;
mod holdem;
mod holdem_bot;
mod holdem_hand;
mod layout;
mod match3;
mod mcts;
mod playtest;
mod search;
mod solve;
mod status;
mod text;

pub use breakthrough::*;
pub use go::*;
pub use go_search::*;
pub use holdem::*;
pub use holdem_bot::*;
pub use holdem_hand::*;
pub use layout::*;
pub use match3::*;
pub use mcts::*;
pub use playtest::*;
pub use search::*;
pub use solve::*;
pub use status::*;
pub use text::{ARBOR_PARSE_ERROR_BYTES, ARBOR_PARSE_MESSAGE_MAX, arbor_parse_error};
