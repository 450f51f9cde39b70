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
    /// The game is over: there is no move to choose or play.
    GameOver = 11,
    /// A struct or buffer was made by another version of arbor (C ABI only).
    WrongVersion = 12,
    /// A struct or buffer was not prepared by arbor, or was damaged since (C ABI only).
    NotInitialised = 13,
    /// A buffer is not aligned as its `ARBOR_…_ALIGN` says (C ABI only).
    Misaligned = 14,
    /// This build of arbor lacks what the call needs (threads or a clock without `std`).
    Unsupported = 15,
}

impl Error {
    /// The error with status number `code`, if there is one (0 is success, not an error).
    pub const fn from_code(code: u32) -> Option<Error> {
        Some(match code {
            1 => Error::NullPointer,
            2 => Error::BufferTooSmall,
            3 => Error::InvalidLength,
            4 => Error::InvalidCard,
            5 => Error::DuplicateCard,
            6 => Error::Parse,
            7 => Error::InvalidArgument,
            8 => Error::IllegalMove,
            9 => Error::CapacityExhausted,
            10 => Error::InvalidUtf8,
            11 => Error::GameOver,
            12 => Error::WrongVersion,
            13 => Error::NotInitialised,
            14 => Error::Misaligned,
            15 => Error::Unsupported,
            _ => return None,
        })
    }

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
            Error::GameOver => "the game is over",
            Error::WrongVersion => "made by another version of arbor",
            Error::NotInitialised => "not prepared by arbor, or damaged",
            Error::Misaligned => "the buffer is not aligned",
            Error::Unsupported => "not available in this build of arbor",
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
