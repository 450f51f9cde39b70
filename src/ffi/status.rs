//! `arbor_status` and its text, the library's version, ABI version and build information.
use core::ffi::c_char;

use super::boundary::boundary;
use super::text::TextOut;
use crate::Error;

/// Result of every fallible C entry point. `ARBOR_OK` is 0; the other numbers are those of
/// the core's `Error` and never change; new codes are only ever appended.
///
/// The type and its constants use C naming because this is how C clients see them; Rust
/// code uses [`Error`].
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum arbor_status {
    /// Success.
    ARBOR_OK = 0,
    /// A required pointer was NULL.
    ARBOR_NULL_POINTER = 1,
    /// An output buffer is too small for the result (text: `*out_len` says what is needed).
    ARBOR_BUFFER_TOO_SMALL = 2,
    /// A length or count is outside the accepted range.
    ARBOR_INVALID_LENGTH = 3,
    /// A card byte is not in 0..=51.
    ARBOR_INVALID_CARD = 4,
    /// The same card appears twice.
    ARBOR_DUPLICATE_CARD = 5,
    /// Text could not be parsed (`arbor_parse_error` says where and why).
    ARBOR_PARSE_ERROR = 6,
    /// An argument is outside its documented range.
    ARBOR_INVALID_ARGUMENT = 7,
    /// A move is not legal in the position.
    ARBOR_ILLEGAL_MOVE = 8,
    /// Caller-provided storage is exhausted.
    ARBOR_CAPACITY_EXHAUSTED = 9,
    /// Text is not valid UTF-8.
    ARBOR_INVALID_UTF8 = 10,
    /// The game is over: there is no move to choose or play.
    ARBOR_GAME_OVER = 11,
    /// A struct or buffer was made by another version of arbor.
    ARBOR_WRONG_VERSION = 12,
    /// A struct or buffer was not prepared by arbor, or was damaged since.
    ARBOR_NOT_INITIALISED = 13,
    /// A buffer is not aligned as its `ARBOR_…_ALIGN` macro says.
    ARBOR_MISALIGNED = 14,
    /// This build lacks what the call needs (threads or a clock without the `std` feature).
    ARBOR_UNSUPPORTED = 15,
}

impl From<Error> for arbor_status {
    fn from(error: Error) -> Self {
        match error {
            Error::NullPointer => arbor_status::ARBOR_NULL_POINTER,
            Error::BufferTooSmall => arbor_status::ARBOR_BUFFER_TOO_SMALL,
            Error::InvalidLength => arbor_status::ARBOR_INVALID_LENGTH,
            Error::InvalidCard => arbor_status::ARBOR_INVALID_CARD,
            Error::DuplicateCard => arbor_status::ARBOR_DUPLICATE_CARD,
            Error::Parse => arbor_status::ARBOR_PARSE_ERROR,
            Error::InvalidArgument => arbor_status::ARBOR_INVALID_ARGUMENT,
            Error::IllegalMove => arbor_status::ARBOR_ILLEGAL_MOVE,
            Error::CapacityExhausted => arbor_status::ARBOR_CAPACITY_EXHAUSTED,
            Error::InvalidUtf8 => arbor_status::ARBOR_INVALID_UTF8,
            Error::GameOver => arbor_status::ARBOR_GAME_OVER,
            Error::WrongVersion => arbor_status::ARBOR_WRONG_VERSION,
            Error::NotInitialised => arbor_status::ARBOR_NOT_INITIALISED,
            Error::Misaligned => arbor_status::ARBOR_MISALIGNED,
            Error::Unsupported => arbor_status::ARBOR_UNSUPPORTED,
        }
    }
}

impl<T> From<Result<T, Error>> for arbor_status {
    fn from(result: Result<T, Error>) -> Self {
        match result {
            Ok(_) => arbor_status::ARBOR_OK,
            Err(error) => error.into(),
        }
    }
}

/// The English description of a status number, "unknown status" for a number this version
/// does not know (for example one from a newer header).
const fn status_message(code: u32) -> &'static str {
    match Error::from_code(code) {
        Some(error) => error.message(),
        None if code == 0 => "ok",
        None => "unknown status",
    }
}

/// Writes the English description of `status` (an `arbor_status` value, taken as a plain
/// number so that any value is safe) as text out: "ok", "the move is not legal in this
/// position", …, or "unknown status". `ARBOR_STATUS_TEXT_MAX` bytes always suffice.
///
/// Errors: `ARBOR_NULL_POINTER` (`buf` NULL with `len` > 0), `ARBOR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes; `out_len` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_status_format(
    status: u32,
    buf: *mut c_char,
    len: usize,
    out_len: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { TextOut::new(buf, len, out_len) }?;
        out.write(status_message(status))
    })
}

/// Bytes that hold any `arbor_status_format` text and its NUL.
pub const ARBOR_STATUS_TEXT_MAX: usize = 48;
const _: () = assert!(longest_status_message() < ARBOR_STATUS_TEXT_MAX);

const fn longest_status_message() -> usize {
    let mut longest = 0;
    let mut code = 0;
    while code < 64 {
        let length = status_message(code).len();
        if length > longest {
            longest = length;
        }
        code += 1;
    }
    longest
}

/// Major version of this library (`ARBOR_VERSION_MAJOR` of the header it was built with).
pub const ARBOR_VERSION_MAJOR: u32 = 1;
/// Minor version: features added without breaking the ABI.
pub const ARBOR_VERSION_MINOR: u32 = 0;
/// Patch version: fixes only.
pub const ARBOR_VERSION_PATCH: u32 = 0;
/// The ABI version: the number in `libarbor.so.N`, and the `version` field of every struct
/// and caller buffer arbor prepares. It changes only when the ABI breaks.
pub const ARBOR_ABI_VERSION: u32 = 1;

const _: () = assert!(
    const_parse(env!("CARGO_PKG_VERSION_MAJOR")) == ARBOR_VERSION_MAJOR
        && const_parse(env!("CARGO_PKG_VERSION_MINOR")) == ARBOR_VERSION_MINOR
        && const_parse(env!("CARGO_PKG_VERSION_PATCH")) == ARBOR_VERSION_PATCH
        && ARBOR_ABI_VERSION == ARBOR_VERSION_MAJOR,
    "the version constants must match Cargo.toml"
);

const fn const_parse(digits: &str) -> u32 {
    let bytes = digits.as_bytes();
    let mut value = 0;
    let mut i = 0;
    while i < bytes.len() {
        value = value * 10 + (bytes[i] - b'0') as u32;
        i += 1;
    }
    value
}

/// The library's version as `major * 10000 + minor * 100 + patch` (10000 for 1.0.0), to
/// compare with `ARBOR_VERSION_NUMBER` of the header a program was compiled with. Never fails.
#[unsafe(no_mangle)]
pub extern "C" fn arbor_version() -> u32 {
    ARBOR_VERSION_NUMBER
}

/// `ARBOR_VERSION_MAJOR * 10000 + ARBOR_VERSION_MINOR * 100 + ARBOR_VERSION_PATCH`.
pub const ARBOR_VERSION_NUMBER: u32 =
    ARBOR_VERSION_MAJOR * 10000 + ARBOR_VERSION_MINOR * 100 + ARBOR_VERSION_PATCH;

/// The library's ABI version (`ARBOR_ABI_VERSION` of the header it was built with). A
/// program should refuse to run when it differs from its own `ARBOR_ABI_VERSION`. Never fails.
#[unsafe(no_mangle)]
pub extern "C" fn arbor_abi_version() -> u32 {
    ARBOR_ABI_VERSION
}

/// Writes one line describing this build as text out, for bug reports, such as
/// `arbor 1.0.0 abi 1 target x86_64-unknown-linux-gnu features std commit 0123abc`
/// (`commit unknown` when built outside git). `ARBOR_BUILD_INFO_MAX` bytes always suffice.
///
/// Errors: `ARBOR_NULL_POINTER` (`buf` NULL with `len` > 0), `ARBOR_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes; `out_len` NULL or writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn arbor_build_info(
    buf: *mut c_char,
    len: usize,
    out_len: *mut usize,
) -> arbor_status {
    boundary(|| {
        // SAFETY: forwarded caller guarantee.
        let out = unsafe { TextOut::new(buf, len, out_len) }?;
        out.write(BUILD_INFO)
    })
}

const BUILD_INFO: &str = concat!(
    "arbor ",
    env!("CARGO_PKG_VERSION"),
    " abi 1 target ",
    env!("ARBOR_TARGET"),
    " features ",
    env!("ARBOR_FEATURES"),
    " commit ",
    env!("ARBOR_COMMIT"),
);

/// Bytes that hold the `arbor_build_info` line and its NUL.
pub const ARBOR_BUILD_INFO_MAX: usize = 256;
const _: () = assert!(BUILD_INFO.len() < ARBOR_BUILD_INFO_MAX);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_has_its_own_message() {
        for code in 1..=15 {
            let message = status_message(code);
            assert_ne!(message, "unknown status", "{code}");
            for other in (code + 1)..=15 {
                assert_ne!(message, status_message(other));
            }
        }
        assert_eq!(status_message(16), "unknown status");
        assert_eq!(status_message(u32::MAX), "unknown status");
    }

    #[test]
    fn error_numbers_are_the_status_numbers() {
        for code in 1..=15 {
            let error = Error::from_code(code).unwrap();
            assert_eq!(arbor_status::from(error) as u32, code);
        }
        assert!(Error::from_code(0).is_none());
        assert!(Error::from_code(16).is_none());
    }
}
