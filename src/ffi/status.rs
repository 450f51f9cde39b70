//! `arbor_status`, its names, and the library version.
use core::ffi::c_char;

use crate::Error;

/// Result of every fallible C entry point. `ARBOR_OK` is 0; the other numbers are stable
/// and new codes are only ever appended.
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
    /// An output buffer is too small for the result.
    ARBOR_BUFFER_TOO_SMALL = 2,
    /// A length or count is outside the accepted range.
    ARBOR_INVALID_LENGTH = 3,
    /// A card byte is not in 0..=51.
    ARBOR_INVALID_CARD = 4,
    /// The same card appears twice.
    ARBOR_DUPLICATE_CARD = 5,
    /// Text could not be parsed.
    ARBOR_PARSE_ERROR = 6,
    /// An argument is outside its documented range.
    ARBOR_INVALID_ARGUMENT = 7,
    /// A move is not legal in the position.
    ARBOR_ILLEGAL_MOVE = 8,
    /// Caller-provided storage is exhausted.
    ARBOR_CAPACITY_EXHAUSTED = 9,
    /// Text is not valid UTF-8.
    ARBOR_INVALID_UTF8 = 10,
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

/// Returns a static, NUL-terminated English description of `status`, an `arbor_status` value.
///
/// The string is owned by the library and lives for the whole program; do not free it.
/// An unknown number (for example from a newer header) gives "unknown status".
#[unsafe(no_mangle)]
pub extern "C" fn arbor_status_str(status: u32) -> *const c_char {
    // Taken as a plain number: C may pass any value, and an out-of-range enum would be
    // undefined behaviour in Rust. In C, `arbor_status` is a typedef of uint32_t.
    status_text(status).as_ptr()
}

fn status_text(code: u32) -> &'static core::ffi::CStr {
    match code {
        0 => c"ok",
        1 => c"a required pointer is NULL",
        2 => c"the output buffer is too small",
        3 => c"a length or count is out of range",
        4 => c"a card is not in 0..=51",
        5 => c"the same card appears twice",
        6 => c"the text could not be parsed",
        7 => c"an argument is out of range",
        8 => c"the move is not legal in this position",
        9 => c"the caller-provided storage is exhausted",
        10 => c"the text is not valid UTF-8",
        _ => c"unknown status",
    }
}

/// Returns the library version as a static, NUL-terminated string such as "0.1.0".
///
/// The string is owned by the library; do not free it.
#[unsafe(no_mangle)]
pub extern "C" fn arbor_version() -> *const c_char {
    const VERSION: &core::ffi::CStr = match core::ffi::CStr::from_bytes_with_nul(
        concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes(),
    ) {
        Ok(text) => text,
        Err(_) => c"unknown",
    };
    VERSION.as_ptr()
}
