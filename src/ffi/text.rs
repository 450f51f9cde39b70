//! Text across the C boundary, one way for every function: text in as UTF-8 bytes with a
//! length, text out into a caller buffer that reports the length it needs, and parse errors
//! with a line, a column and a message.
use core::ffi::c_char;
use core::fmt;

use super::boundary::{OptionalOut, slice_in};
use crate::Error;

/// Reads `len` bytes of UTF-8 at `text`; NULL is the empty text when `len` is 0.
/// Errors: `Error::NullPointer`, `Error::InvalidLength` (over `isize::MAX`),
/// `Error::InvalidUtf8`.
///
/// # Safety
/// `text` must be NULL or valid for `len` reads during `'a`, not written meanwhile.
pub(super) unsafe fn text_in<'a>(text: *const u8, len: usize) -> Result<&'a str, Error> {
    // SAFETY: forwarded caller guarantee.
    let bytes = unsafe { slice_in(text, len) }?;
    core::str::from_utf8(bytes).map_err(|_| Error::InvalidUtf8)
}

/// A caller's text buffer: `len` bytes at `buf`, and where to report the text's length.
pub(super) struct TextOut {
    buf: *mut c_char,
    len: usize,
    out_len: OptionalOut<usize>,
}

impl TextOut {
    /// Errors: `Error::NullPointer` (`buf` NULL while `len` > 0), `Error::InvalidLength`.
    ///
    /// # Safety
    /// `buf` must be NULL or valid for `len` writes, and `out_len` NULL or valid for one
    /// write, until [`TextOut::write`] is called within the same entry point.
    pub(super) unsafe fn new(
        buf: *mut c_char,
        len: usize,
        out_len: *mut usize,
    ) -> Result<Self, Error> {
        if buf.is_null() && len > 0 {
            return Err(Error::NullPointer);
        }
        if len > isize::MAX as usize {
            return Err(Error::InvalidLength);
        }
        Ok(TextOut {
            buf,
            len,
            // SAFETY: forwarded caller guarantee.
            out_len: unsafe { OptionalOut::new(out_len) },
        })
    }

    /// Reports `text.len()` (without the NUL), then writes `text` and a NUL if both fit,
    /// else nothing and `Error::BufferTooSmall`.
    pub(super) fn write(self, text: &str) -> Result<(), Error> {
        self.out_len.write(text.len());
        if self.len <= text.len() {
            return Err(Error::BufferTooSmall);
        }
        // SAFETY: `buf` is non-NULL (len > 0) and valid for `len` > text.len() writes (the
        // contract of `new`); `text` is arbor's own, so the two do not overlap.
        unsafe {
            core::ptr::copy_nonoverlapping(text.as_ptr(), self.buf.cast::<u8>(), text.len());
            self.buf.add(text.len()).write(0);
        }
        Ok(())
    }

    /// [`TextOut::write`] of the `Display` text of `value`, formatted first on the stack in
    /// `N` bytes (callers pick `N` above their longest text).
    pub(super) fn write_display<const N: usize>(
        self,
        value: impl fmt::Display,
    ) -> Result<(), Error> {
        let mut scratch = Cursor {
            buf: [0u8; N],
            len: 0,
        };
        fmt::write(&mut scratch, format_args!("{value}")).map_err(|_| Error::CapacityExhausted)?;
        // The cursor holds only whole `str`s, so its bytes are UTF-8.
        let text =
            core::str::from_utf8(&scratch.buf[..scratch.len]).map_err(|_| Error::InvalidUtf8)?;
        self.write(text)
    }
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

/// Bytes of `arbor_parse_error.message`, NUL included; a longer message is cut at a
/// character boundary.
pub const ARBOR_PARSE_MESSAGE_MAX: usize = 120;

/// Where and why a text could not be parsed, written by every `…_parse` function that
/// returns `ARBOR_PARSE_ERROR` when its `out_error` is not NULL (and left alone otherwise).
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct arbor_parse_error {
    /// 1-based line of the problem, or 0 when it concerns the whole text (a missing part).
    pub line: u32,
    /// 1-based column (in bytes) of the problem, or 0 when it concerns the whole line.
    pub column: u32,
    /// Bytes of `message` before its NUL.
    pub message_len: u32,
    /// Written as zero.
    pub reserved: u32,
    /// What is wrong, in English, NUL-terminated UTF-8, such as "a board has 2 to 8 columns".
    pub message: [u8; ARBOR_PARSE_MESSAGE_MAX],
}

/// Bytes of `arbor_parse_error`.
pub const ARBOR_PARSE_ERROR_BYTES: usize = 136;
const _: () = assert!(core::mem::size_of::<arbor_parse_error>() == ARBOR_PARSE_ERROR_BYTES);

/// A parse failure as the core reports it, before it crosses the boundary.
pub(super) struct ParseFailure<D: fmt::Display> {
    pub line: u32,
    pub column: u32,
    pub message: D,
}

impl<D: fmt::Display> ParseFailure<D> {
    /// Writes the failure to `out` (if the caller asked for it) and returns `Error::Parse`.
    pub(super) fn report(self, out: OptionalOut<arbor_parse_error>) -> Error {
        let mut cursor = Cursor {
            buf: [0u8; ARBOR_PARSE_MESSAGE_MAX],
            len: 0,
        };
        // A message too long for the field is cut: the cursor keeps whole pieces only, so
        // cut further to a character boundary of what it kept, leaving room for the NUL.
        let _ = fmt::write(
            &mut Truncating(&mut cursor),
            format_args!("{}", self.message),
        );
        let mut error = arbor_parse_error {
            line: self.line,
            column: self.column,
            message_len: cursor.len as u32,
            reserved: 0,
            message: cursor.buf,
        };
        error.message[cursor.len..].fill(0);
        out.write(error);
        Error::Parse
    }
}

/// Writes as much of each piece as fits before the last byte, cut at a character boundary,
/// with every NUL (a message may quote the caller's text, where NUL is a character) written
/// as `?`, so that the message is one C string of `message_len` bytes.
struct Truncating<'c, const N: usize>(&'c mut Cursor<N>);

impl<const N: usize> fmt::Write for Truncating<'_, N> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let mut pieces = s.split('\0');
        if let Some(first) = pieces.next() {
            self.write_piece(first)?;
        }
        for piece in pieces {
            self.write_piece("?")?;
            self.write_piece(piece)?;
        }
        Ok(())
    }
}

impl<const N: usize> Truncating<'_, N> {
    fn write_piece(&mut self, s: &str) -> fmt::Result {
        let room = (N - 1).saturating_sub(self.0.len);
        let mut cut = s.len().min(room);
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        fmt::Write::write_str(self.0, &s[..cut])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_out_reports_the_length_it_needs_and_writes_all_or_nothing() {
        let mut buf = [b'x' as c_char; 8];
        let mut needed = 0usize;
        // SAFETY: `buf` and `needed` are writable for the lengths given.
        unsafe {
            let out = TextOut::new(buf.as_mut_ptr(), 3, &mut needed).unwrap();
            assert_eq!(out.write("abcd"), Err(Error::BufferTooSmall));
            assert_eq!(needed, 4);
            assert!(buf.iter().all(|&b| b == b'x' as c_char));
            let out = TextOut::new(buf.as_mut_ptr(), 5, &mut needed).unwrap();
            assert_eq!(out.write("abcd"), Ok(()));
            assert_eq!(&buf[..5], &[97, 98, 99, 100, 0]);
            let query = TextOut::new(core::ptr::null_mut(), 0, &mut needed).unwrap();
            assert_eq!(query.write("hello"), Err(Error::BufferTooSmall));
            assert_eq!(needed, 5);
            assert!(TextOut::new(core::ptr::null_mut(), 1, &mut needed).is_err());
        }
    }

    #[test]
    fn a_long_parse_message_is_cut_at_a_character_boundary() {
        let mut error = core::mem::MaybeUninit::<arbor_parse_error>::uninit();
        let long = "é".repeat(100); // 200 bytes
        let failure = ParseFailure {
            line: 3,
            column: 7,
            message: long.as_str(),
        };
        // SAFETY: `error` is writable.
        let out = unsafe { OptionalOut::new(error.as_mut_ptr()) };
        assert_eq!(failure.report(out), Error::Parse);
        // SAFETY: `report` wrote it.
        let error = unsafe { error.assume_init() };
        assert_eq!((error.line, error.column), (3, 7));
        assert_eq!(error.message_len, 118);
        let text = core::str::from_utf8(&error.message[..118]).unwrap();
        assert!(text.chars().all(|c| c == 'é'));
        assert_eq!(error.message[118], 0);
    }

    #[test]
    fn a_nul_quoted_in_a_parse_message_is_written_as_a_question_mark() {
        let mut error = core::mem::MaybeUninit::<arbor_parse_error>::uninit();
        let failure = ParseFailure {
            line: 1,
            column: 0,
            message: "unknown bot 'a\0b'",
        };
        // SAFETY: `error` is writable.
        let out = unsafe { OptionalOut::new(error.as_mut_ptr()) };
        assert_eq!(failure.report(out), Error::Parse);
        // SAFETY: `report` wrote it.
        let error = unsafe { error.assume_init() };
        assert_eq!(
            &error.message[..error.message_len as usize],
            b"unknown bot 'a?b'"
        );
        assert_eq!(error.message[error.message_len as usize], 0);
    }

    #[test]
    fn text_in_takes_null_as_empty_only_with_length_zero() {
        // SAFETY: NULL with length 0 reads nothing; the slice is readable.
        unsafe {
            assert_eq!(text_in(core::ptr::null(), 0), Ok(""));
            assert_eq!(text_in(core::ptr::null(), 1), Err(Error::NullPointer));
            assert_eq!(text_in(b"ok".as_ptr(), 2), Ok("ok"));
            assert_eq!(text_in([0xffu8].as_ptr(), 1), Err(Error::InvalidUtf8));
        }
    }
}
