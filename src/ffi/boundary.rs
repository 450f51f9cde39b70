//! The checks every C entry point makes, written once: NULL pointers, lengths, alignment,
//! the magic and version of arbor's structs and buffers, and the conversion of the result
//! into an `arbor_status`.
//!
//! An entry point is written as
//!
//! ```ignore
//! pub unsafe extern "C" fn arbor_thing(input: *const T, out: *mut U) -> arbor_status {
//!     boundary(|| {
//!         let input = unsafe { read_in(input) }?;   // every check first,
//!         let out = unsafe { Out::new(out) }?;
//!         let value = core_call(input)?;            // then the core,
//!         out.write(value);                         // then the writes: none on error.
//!         Ok(())
//!     })
//! }
//! ```
//!
//! A function rather than a macro that generates whole entry points because cbindgen reads
//! the source as written and does not expand macros: the header must see every function.
use core::ffi::c_void;
use core::mem::{align_of, size_of};

use super::arbor_status;
use super::status::ARBOR_ABI_VERSION;
use crate::Error;

/// Runs the body of an entry point and turns its result into the status C sees.
#[inline(always)]
pub(super) fn boundary(body: impl FnOnce() -> Result<(), Error>) -> arbor_status {
    body().into()
}

/// `#[repr(C)]` types made only of integers and floats (and arrays of them), with no
/// padding: every bit pattern is a value, so one can be read from any bytes C passes.
///
/// # Safety
/// Implement only for such types.
pub(super) unsafe trait Plain: Copy {}

// SAFETY: integers: every bit pattern is a value.
unsafe impl Plain for u8 {}
// SAFETY: as above.
unsafe impl Plain for u16 {}
// SAFETY: as above.
unsafe impl Plain for u32 {}
// SAFETY: as above.
unsafe impl Plain for u64 {}
// SAFETY: as above (a NaN or infinity is a value the callee checks).
unsafe impl Plain for f32 {}
// SAFETY: as above.
unsafe impl Plain for i32 {}

/// Reads the value at `ptr`, which may be unaligned. Errors: `Error::NullPointer`.
///
/// # Safety
/// `ptr` must be NULL or valid for one read of `T`.
pub(super) unsafe fn read_in<T: Plain>(ptr: *const T) -> Result<T, Error> {
    if ptr.is_null() {
        return Err(Error::NullPointer);
    }
    // SAFETY: non-NULL and readable (the caller's contract); any bits are a `T` (`Plain`).
    Ok(unsafe { ptr.read_unaligned() })
}

/// A required output, checked for NULL before any work and written after all of it, so
/// that a failing call writes nothing.
pub(super) struct Out<T> {
    ptr: *mut T,
}

impl<T> Out<T> {
    /// Errors: `Error::NullPointer`.
    ///
    /// # Safety
    /// `ptr` must be NULL or valid for one (possibly unaligned) write of `T` until
    /// [`Out::write`] is called, within the same entry point.
    pub(super) unsafe fn new(ptr: *mut T) -> Result<Self, Error> {
        if ptr.is_null() {
            return Err(Error::NullPointer);
        }
        Ok(Out { ptr })
    }

    pub(super) fn write(self, value: T) {
        // SAFETY: non-NULL (checked in `new`) and writable by the contract of `new`.
        unsafe { self.ptr.write_unaligned(value) }
    }
}

/// An output the caller may leave out by passing NULL.
pub(super) struct OptionalOut<T> {
    ptr: *mut T,
}

impl<T> OptionalOut<T> {
    /// # Safety
    /// `ptr` must be NULL or valid for one (possibly unaligned) write of `T` until
    /// [`OptionalOut::write`] is called, within the same entry point.
    pub(super) unsafe fn new(ptr: *mut T) -> Self {
        OptionalOut { ptr }
    }

    pub(super) fn write(self, value: T) {
        if !self.ptr.is_null() {
            // SAFETY: non-NULL and writable by the contract of `new`.
            unsafe { self.ptr.write_unaligned(value) }
        }
    }
}

/// The `count` values at `ptr` as a slice. NULL is accepted as the empty slice when
/// `count` is 0. Errors: `Error::NullPointer`, `Error::InvalidLength` (more than
/// `isize::MAX` bytes), `Error::Misaligned` (`ptr` not aligned for `T`).
///
/// # Safety
/// `ptr` must be NULL or valid for `count` reads of `T` during `'a`, not written meanwhile.
pub(super) unsafe fn slice_in<'a, T: Plain>(ptr: *const T, count: usize) -> Result<&'a [T], Error> {
    if count == 0 {
        return Ok(&[]);
    }
    check_slice(ptr, count)?;
    // SAFETY: non-NULL, aligned, at most isize::MAX bytes (checked), readable for `count`
    // values (contract); any bits are a `T` (`Plain`).
    Ok(unsafe { core::slice::from_raw_parts(ptr, count) })
}

/// [`slice_in`] for writing.
///
/// # Safety
/// `ptr` must be NULL or valid for `count` writes of `T` during `'a`, used by nothing else.
pub(super) unsafe fn slice_out<'a, T: Plain>(
    ptr: *mut T,
    count: usize,
) -> Result<&'a mut [T], Error> {
    if count == 0 {
        return Ok(&mut []);
    }
    check_slice(ptr, count)?;
    // SAFETY: as in `slice_in`, and exclusive for `'a` (contract).
    Ok(unsafe { core::slice::from_raw_parts_mut(ptr, count) })
}

fn check_slice<T>(ptr: *const T, count: usize) -> Result<(), Error> {
    if ptr.is_null() {
        return Err(Error::NullPointer);
    }
    if count
        .checked_mul(size_of::<T>())
        .is_none_or(|bytes| bytes > isize::MAX as usize)
    {
        return Err(Error::InvalidLength);
    }
    if !(ptr as usize).is_multiple_of(align_of::<T>()) {
        return Err(Error::Misaligned);
    }
    Ok(())
}

/// Checks the `magic` and `version` fields that begin every struct arbor gives C to hold
/// and pass back: a wrong magic is `Error::NotInitialised` (never prepared by arbor, or
/// overwritten), a right magic with another version is `Error::WrongVersion`.
pub(super) fn check_version(magic: u32, version: u32, expected_magic: u32) -> Result<(), Error> {
    if magic != expected_magic {
        Err(Error::NotInitialised)
    } else if version != ARBOR_ABI_VERSION {
        Err(Error::WrongVersion)
    } else {
        Ok(())
    }
}

/// A four-letter tag as the `magic` number of a struct or buffer (little-endian).
pub(super) const fn magic(tag: &[u8; 4]) -> u32 {
    u32::from_le_bytes(*tag)
}

/// The 16 bytes that begin every caller buffer arbor prepares: what it is, which ABI made
/// it, and how many bytes it was prepared with.
#[repr(C)]
#[derive(Clone, Copy)]
pub(super) struct BufferHeader {
    magic: u32,
    version: u32,
    bytes: u64,
}

/// Bytes of [`BufferHeader`]; an area's own data follows it.
pub(super) const BUFFER_HEADER_BYTES: usize = size_of::<BufferHeader>();

/// Writes `*out_bytes` for a `…_bytes` sizing function: `bytes` if the size is valid and
/// fits, else `Error::InvalidArgument`.
///
/// # Safety
/// `out_bytes` must be NULL or valid for one write.
pub(super) unsafe fn report_bytes(
    bytes: Option<usize>,
    out_bytes: *mut usize,
) -> Result<(), Error> {
    // SAFETY: forwarded caller guarantee.
    let out = unsafe { Out::new(out_bytes) }?;
    let bytes = bytes
        .filter(|&bytes| bytes <= isize::MAX as usize)
        .ok_or(Error::InvalidArgument)?;
    out.write(bytes);
    Ok(())
}

/// Checks a caller buffer about to be prepared: non-NULL, aligned to `align`, at most
/// `isize::MAX` bytes and at least `min_len`. Returns its bytes after the header, to be
/// laid out by the area, and writes the header (the area's data must be valid before the
/// call returns). Errors: `Error::NullPointer`, `Error::Misaligned`, `Error::InvalidLength`,
/// `Error::BufferTooSmall`.
///
/// # Safety
/// `buf` must be NULL or valid for `len` writes during `'a`, used by nothing else.
pub(super) unsafe fn prepare_buffer<'a>(
    buf: *mut c_void,
    len: usize,
    align: usize,
    min_len: usize,
    magic: u32,
) -> Result<&'a mut [u8], Error> {
    check_buffer(buf, len, align)?;
    if len < BUFFER_HEADER_BYTES.max(min_len) {
        return Err(Error::BufferTooSmall);
    }
    let header = BufferHeader {
        magic,
        version: ARBOR_ABI_VERSION,
        bytes: len as u64,
    };
    // SAFETY: `buf` is non-NULL, aligned to `align` >= the header's alignment (asserted by
    // callers' ALIGN constants), valid for `len` >= BUFFER_HEADER_BYTES writes (contract
    // and the check above), and exclusively ours for 'a.
    unsafe {
        buf.cast::<BufferHeader>().write(header);
        Ok(core::slice::from_raw_parts_mut(
            buf.cast::<u8>().add(BUFFER_HEADER_BYTES),
            len - BUFFER_HEADER_BYTES,
        ))
    }
}

/// The checks of opening a caller buffer prepared by [`prepare_buffer`] with `magic`, by
/// plain reads of its header alone, so that no reference is formed over the buffer (a
/// handle's `_cancel` checks a buffer that another thread's call has open): those of
/// `prepare_buffer`, then the header's magic and version, and a length no shorter than
/// when it was prepared. Returns the bytes it was prepared with (header included, at most
/// `len`). Errors: `Error::NullPointer`, `Error::Misaligned`, `Error::InvalidLength`,
/// `Error::BufferTooSmall` (shorter than a header, or than when prepared),
/// `Error::NotInitialised` (also a header that says fewer bytes than itself: damaged),
/// `Error::WrongVersion`.
///
/// # Safety
/// `buf` must be NULL or valid for `len` reads.
pub(super) unsafe fn check_header(
    buf: *const c_void,
    len: usize,
    align: usize,
    magic: u32,
) -> Result<usize, Error> {
    check_buffer(buf, len, align)?;
    if len < BUFFER_HEADER_BYTES {
        return Err(Error::BufferTooSmall);
    }
    // SAFETY: non-NULL, aligned for the header, at least BUFFER_HEADER_BYTES readable bytes;
    // the header's fields are integers, valid for any bits. A copy: no reference is kept.
    let header = unsafe { buf.cast::<BufferHeader>().read() };
    check_version(header.magic, header.version, magic)?;
    if header.bytes > len as u64 {
        return Err(Error::BufferTooSmall);
    }
    if header.bytes < BUFFER_HEADER_BYTES as u64 {
        // `prepare_buffer` never writes this.
        return Err(Error::NotInitialised);
    }
    // At most `len`: fits.
    Ok(header.bytes as usize)
}

fn check_buffer(buf: *const c_void, len: usize, align: usize) -> Result<(), Error> {
    if buf.is_null() {
        return Err(Error::NullPointer);
    }
    if !(buf as usize).is_multiple_of(align.max(align_of::<BufferHeader>())) {
        return Err(Error::Misaligned);
    }
    if len > isize::MAX as usize {
        return Err(Error::InvalidLength);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[repr(C, align(8))]
    struct Aligned([u8; 64]);

    #[test]
    fn a_prepared_buffer_opens_and_a_foreign_one_does_not() {
        let mut storage = Aligned([0; 64]);
        let buf = storage.0.as_mut_ptr().cast::<c_void>();
        let tag = magic(b"TEST");
        // SAFETY: `storage` is 64 writable bytes, aligned to 8.
        unsafe {
            assert!(matches!(
                check_header(buf, 64, 8, tag),
                Err(Error::NotInitialised)
            ));
            assert_eq!(prepare_buffer(buf, 64, 8, 32, tag).unwrap().len(), 48);
            assert_eq!(check_header(buf, 64, 8, tag), Ok(64));
            assert!(matches!(
                check_header(buf, 32, 8, tag),
                Err(Error::BufferTooSmall)
            ));
            assert!(matches!(
                check_header(buf, 64, 8, magic(b"ELSE")),
                Err(Error::NotInitialised)
            ));
            assert!(matches!(
                check_header(buf.cast::<u8>().add(1).cast(), 60, 8, tag),
                Err(Error::Misaligned)
            ));
            assert!(matches!(
                prepare_buffer(buf, 16, 8, 32, tag),
                Err(Error::BufferTooSmall)
            ));
            assert!(matches!(
                prepare_buffer(core::ptr::null_mut(), 64, 8, 32, tag),
                Err(Error::NullPointer)
            ));
            // A header that says fewer bytes than itself: damaged.
            buf.cast::<u64>().add(1).write(8);
            assert!(matches!(
                check_header(buf, 64, 8, tag),
                Err(Error::NotInitialised)
            ));
            // Another version's header.
            buf.cast::<u32>().add(1).write(ARBOR_ABI_VERSION + 1);
            assert!(matches!(
                check_header(buf, 64, 8, tag),
                Err(Error::WrongVersion)
            ));
        }
    }

    #[test]
    fn slices_check_null_length_and_alignment() {
        let values = [1u16, 2, 3];
        // SAFETY: `values` is readable; the other pointers are rejected before any read.
        unsafe {
            assert_eq!(slice_in(values.as_ptr(), 3).unwrap(), &values);
            assert_eq!(
                slice_in::<u16>(core::ptr::null(), 0).unwrap(),
                &[] as &[u16]
            );
            assert!(matches!(
                slice_in::<u16>(core::ptr::null(), 1),
                Err(Error::NullPointer)
            ));
            let odd = values.as_ptr().cast::<u8>().add(1).cast::<u16>();
            assert!(matches!(slice_in(odd, 1), Err(Error::Misaligned)));
            assert!(matches!(
                slice_in(values.as_ptr(), usize::MAX / 2),
                Err(Error::InvalidLength)
            ));
        }
    }
}
