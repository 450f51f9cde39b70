//! The one error type of the core. Each variant has a stable number that the C ABI's
//! `arbor_status` reuses, so a Rust error and a C status always mean the same thing.
use core::fmt;

/// What went wrong. The discriminants are the C status codes and never change; new
/// variants get new numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum Error {
    /// A required pointer was NULL (C ABI only).
    NullPointer = 1,
    /// An output buffer is too small for the result.
    BufferTooSmall = 2,
    /// A length or count is outside the accepted range.
    InvalidLength = 3,
    /// A card byte is not in 0..=51.
    InvalidCard = 4,
    /// The same card appears twice.
    DuplicateCard = 5,
    /// Text could not be parsed.
    Parse = 6,
    /// An argument is outside its documented range.
    InvalidArgument = 7,
    /// A move is not legal in the position.
    IllegalMove = 8,
    /// Caller-provided storage is exhausted.
    CapacityExhausted = 9,
    /// Text is not valid UTF-8 (C ABI only).
    InvalidUtf8 = 10,
}

impl Error {
    /// A short, static description.
    pub const fn message(self) -> &'static str {
        match self {
            Error::NullPointer => "a required pointer is NULL",
            Error::BufferTooSmall => "the output buffer is too small",
            Error::InvalidLength => "a length or count is out of range",
            Error::InvalidCard => "a card is not in 0..=51",
            Error::DuplicateCard => "the same card appears twice",
            Error::Parse => "the text could not be parsed",
            Error::InvalidArgument => "an argument is out of range",
            Error::IllegalMove => "the move is not legal in this position",
            Error::CapacityExhausted => "the caller-provided storage is exhausted",
            Error::InvalidUtf8 => "the text is not valid UTF-8",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
