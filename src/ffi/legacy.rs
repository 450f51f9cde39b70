//! The pre-1.0 text helpers, kept only while the areas move to the 1.0 convention of
//! `boundary` and `text`; deleted when the last one has moved.
use core::ffi::c_char;
use core::fmt;

use super::arbor_status;
use crate::Error;

/// Reads `len` bytes of text at `text` as UTF-8. Errors: `Error::InvalidLength` (over
/// `isize::MAX`), `Error::InvalidUtf8`.
///
/// # Safety
/// `text` must be non-NULL (checked by the caller) and valid for `len` reads during `'a`.
pub(super) unsafe fn text_of<'a>(text: *const u8, len: usize) -> Result<&'a str, Error> {
    if len > isize::MAX as usize {
        return Err(Error::InvalidLength);
    }
    // SAFETY: the caller guarantees `len` readable bytes at the non-NULL `text`; `len` fits
    // in isize (checked above).
    let bytes = unsafe { core::slice::from_raw_parts(text, len) };
    core::str::from_utf8(bytes).map_err(|_| Error::InvalidUtf8)
}

/// The body every `*_parse` function of the ABI shares: checks `text` and `out` for NULL,
/// reads `len` bytes of UTF-8 at `text`, parses them, and writes `image` of the result to
/// `*out`. On a parse error `*out` is unchanged and the error's 1-based line goes to
/// `*out_line` unless that is NULL.
///
/// # Safety
/// `text` must be valid for `len` reads; `out` and `out_line` writable or NULL.
pub(super) unsafe fn parse_into<T, Image>(
    text: *const u8,
    len: usize,
    out: *mut Image,
    out_line: *mut u32,
    parse: impl FnOnce(&str) -> Result<T, u32>,
    image: impl FnOnce(&T) -> Image,
) -> arbor_status {
    if text.is_null() || out.is_null() {
        return arbor_status::ARBOR_NULL_POINTER;
    }
    // SAFETY: `text` is non-NULL and valid for `len` reads (caller's contract).
    let text = match unsafe { text_of(text, len) } {
        Ok(text) => text,
        Err(error) => return error.into(),
    };
    match parse(text) {
        Ok(value) => {
            // SAFETY: `out` is non-NULL and writable (caller's contract).
            unsafe { out.write_unaligned(image(&value)) };
            arbor_status::ARBOR_OK
        }
        Err(line) => {
            if !out_line.is_null() {
                // SAFETY: `out_line` is non-NULL and writable (caller's contract).
                unsafe { out_line.write_unaligned(line) };
            }
            arbor_status::ARBOR_PARSE_ERROR
        }
    }
}

/// The first bytes of the NUL-terminated string `text`, at most `N`, and how many there are.
/// Reading stops at the terminator, so a shorter string is never read past its end; a
/// longer one is cut at `N`, which callers with short formats treat as a parse error.
///
/// # Safety
/// `text` must be non-NULL and point to a NUL-terminated string.
pub(super) unsafe fn read_prefix<const N: usize>(text: *const c_char) -> ([u8; N], usize) {
    let mut bytes = [0u8; N];
    let mut len = 0;
    while len < N {
        // SAFETY: the string is NUL-terminated and reading stops at the terminator, so every
        // byte read lies inside it.
        let byte = unsafe { text.add(len).cast::<u8>().read() };
        if byte == 0 {
            break;
        }
        bytes[len] = byte;
        len += 1;
    }
    (bytes, len)
}

/// Writes `bytes` and a NUL into `buf`, which has room for `len` bytes; writes nothing and
/// returns `ARBOR_BUFFER_TOO_SMALL` unless all of it fits.
///
/// # Safety
/// `buf` must be non-NULL, valid for `len` writes, and not overlap `bytes`.
pub(super) unsafe fn write_bytes(bytes: &[u8], buf: *mut c_char, len: usize) -> arbor_status {
    if len <= bytes.len() {
        return arbor_status::ARBOR_BUFFER_TOO_SMALL;
    }
    // SAFETY: `buf` is valid for `len` > `bytes.len()` writes and does not overlap `bytes`.
    unsafe {
        core::ptr::copy_nonoverlapping(bytes.as_ptr(), buf.cast::<u8>(), bytes.len());
        buf.add(bytes.len()).write(0);
    }
    arbor_status::ARBOR_OK
}

/// [`write_bytes`] for the `Display` text of `value`, formatted first into a stack buffer
/// of `N` bytes (text longer than that is `ARBOR_BUFFER_TOO_SMALL`).
///
/// # Safety
/// `buf` must be non-NULL and valid for `len` writes.
pub(super) unsafe fn write_display<const N: usize>(
    value: impl fmt::Display,
    buf: *mut c_char,
    len: usize,
) -> arbor_status {
    let mut scratch = Cursor {
        buf: [0u8; N],
        len: 0,
    };
    if fmt::write(&mut scratch, format_args!("{value}")).is_err() {
        return arbor_status::ARBOR_BUFFER_TOO_SMALL;
    }
    // SAFETY: the caller's guarantee on `buf`; `scratch` is a separate stack object.
    unsafe { write_bytes(&scratch.buf[..scratch.len], buf, len) }
}

/// A `fmt::Write` into a fixed byte array that refuses to overflow.
struct Cursor<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> fmt::Write for Cursor<N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len.checked_add(s.len()).ok_or(fmt::Error)?;
        let slot = self.buf.get_mut(self.len..end).ok_or(fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}
