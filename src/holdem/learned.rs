//! What a bot learns across hands (its opponent's statistics, an online model's counts), as
//! a block of [`LEARNED_BYTES`] bytes that a caller can keep anywhere (the C handle keeps it
//! in its buffer) and give back to a freshly made bot of the same spec.
//!
//! Layout, little-endian: the magic `ALRN`, the format version (u16), 0 (u16), the bytes of
//! payload (u32), a 32-bit FNV-1a hash of the bot's name (u32), the FNV-1a checksum of every
//! other byte of the block (u32), then the payload, then zeros to the end. The payload is
//! what the bot writes through [`HoldemBot::write_learned`]: its fields in a fixed order,
//! each a u32 or an f32. Reading checks everything: magic, version, name, length, checksum,
//! that the bot reads exactly the payload, and that each value is one the bot could have
//! learned (counts finite and not negative, hits within chances); a block that fails any of
//! these is refused, never misread.
use core::fmt;

use super::bots::HoldemBot;

/// Bytes of a learned block: room for the largest learner, the paper's bot with the online
/// opponent model (60 bytes of the expert bot's statistics, 640 of the model's counts and
/// expectations) and the 24 bytes of header, rounded up.
pub const LEARNED_BYTES: usize = 768;
/// The format version; a block of another version is refused. 2: the online model's 640
/// bytes are its counts and the prior's expectations over 16 situations (version 1 held
/// counts over 32 situations, which version 2 would misread).
pub const LEARNED_VERSION: u16 = 2;

const MAGIC: [u8; 4] = *b"ALRN";
const HEADER_BYTES: usize = 24;
/// Where the checksum is: the bytes it does not cover.
const CHECKSUM_AT: usize = 16;

/// Why a learned block was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LearnedError {
    /// Not a learned block (the magic is wrong).
    NotLearned,
    /// A block of another format version.
    WrongVersion,
    /// The block was written by another bot.
    WrongBot,
    /// A byte changed since it was written.
    Damaged,
    /// The payload does not have the bot's layout or holds a value the bot cannot have
    /// learned.
    BadPayload,
    /// What the bot learned does not fit in the block (a bug of the bot's layout).
    TooLarge,
}

impl fmt::Display for LearnedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LearnedError::NotLearned => "not a learned-state block",
            LearnedError::WrongVersion => "a learned-state block of another version",
            LearnedError::WrongBot => "a learned-state block of another bot",
            LearnedError::Damaged => "a damaged learned-state block (checksum mismatch)",
            LearnedError::BadPayload => "a learned-state block whose values are not the bot's",
            LearnedError::TooLarge => "what the bot learned does not fit in the block",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for LearnedError {}

/// Appends a bot's learned values to the payload.
pub struct LearnedWriter<'a> {
    payload: &'a mut [u8],
    at: usize,
    overflow: bool,
}

impl LearnedWriter<'_> {
    fn bytes(&mut self, value: [u8; 4]) {
        match self.payload.get_mut(self.at..self.at + 4) {
            Some(slot) => {
                slot.copy_from_slice(&value);
                self.at += 4;
            }
            None => self.overflow = true,
        }
    }

    /// Appends a count.
    pub fn u32(&mut self, value: u32) {
        self.bytes(value.to_le_bytes());
    }

    /// Appends a real value (bit for bit).
    pub fn f32(&mut self, value: f32) {
        self.bytes(value.to_le_bytes());
    }
}

/// Reads a bot's learned values back, in the order they were written.
pub struct LearnedReader<'a> {
    payload: &'a [u8],
    at: usize,
}

impl LearnedReader<'_> {
    fn bytes(&mut self) -> Result<[u8; 4], LearnedError> {
        let slot = self
            .payload
            .get(self.at..self.at + 4)
            .ok_or(LearnedError::BadPayload)?;
        self.at += 4;
        let mut out = [0u8; 4];
        out.copy_from_slice(slot);
        Ok(out)
    }

    /// The next count.
    pub fn u32(&mut self) -> Result<u32, LearnedError> {
        self.bytes().map(u32::from_le_bytes)
    }

    /// The next real value, which must be finite and not negative (every learned real is a
    /// count or a sum of probabilities).
    pub fn count(&mut self) -> Result<f32, LearnedError> {
        let value = f32::from_le_bytes(self.bytes()?);
        if value.is_finite() && value >= 0.0 {
            Ok(value)
        } else {
            Err(LearnedError::BadPayload)
        }
    }
}

/// Parts of a bot that learn (the opponent models of the staged bot): they write and read
/// their share of the payload. Parts that learn nothing keep the defaults.
pub trait LearnedPart {
    /// Appends what this part learned.
    fn write_learned(&self, out: &mut LearnedWriter<'_>) {
        let _ = out;
    }
    /// Reads back what [`LearnedPart::write_learned`] wrote, validating every value.
    fn read_learned(&mut self, input: &mut LearnedReader<'_>) -> Result<(), LearnedError> {
        let _ = input;
        Ok(())
    }
}

/// 32-bit FNV-1a over `parts` in order.
fn fnv1a(parts: &[&[u8]]) -> u32 {
    let mut hash = 0x811c_9dc5u32;
    for part in parts {
        for &byte in *part {
            hash ^= u32::from(byte);
            hash = hash.wrapping_mul(0x0100_0193);
        }
    }
    hash
}

/// The checksum of `block`: every byte but the checksum's own.
fn checksum(block: &[u8; LEARNED_BYTES]) -> u32 {
    fnv1a(&[&block[..CHECKSUM_AT], &block[CHECKSUM_AT + 4..]])
}

/// Writes what `bot` learned into `block`, sealed. Errors: [`LearnedError::TooLarge`] (the
/// block is then zeroed, which no reader accepts).
pub fn save_learned(
    bot: &dyn HoldemBot,
    block: &mut [u8; LEARNED_BYTES],
) -> Result<(), LearnedError> {
    block.fill(0);
    let (header, payload) = block.split_at_mut(HEADER_BYTES);
    let mut writer = LearnedWriter {
        payload,
        at: 0,
        overflow: false,
    };
    bot.write_learned(&mut writer);
    let (len, overflow) = (writer.at, writer.overflow);
    if overflow {
        block.fill(0);
        return Err(LearnedError::TooLarge);
    }
    header[..4].copy_from_slice(&MAGIC);
    header[4..6].copy_from_slice(&LEARNED_VERSION.to_le_bytes());
    header[8..12].copy_from_slice(&(len as u32).to_le_bytes());
    header[12..16].copy_from_slice(&fnv1a(&[bot.name().as_bytes()]).to_le_bytes());
    let sum = checksum(block);
    block[CHECKSUM_AT..CHECKSUM_AT + 4].copy_from_slice(&sum.to_le_bytes());
    Ok(())
}

/// Gives `bot` (freshly made from the spec of the bot that wrote `block`) what that bot had
/// learned. On an error `bot` may have read part of the block: make it afresh.
pub fn restore_learned(
    bot: &mut dyn HoldemBot,
    block: &[u8; LEARNED_BYTES],
) -> Result<(), LearnedError> {
    let word =
        |at: usize| u32::from_le_bytes([block[at], block[at + 1], block[at + 2], block[at + 3]]);
    if block[..4] != MAGIC {
        return Err(LearnedError::NotLearned);
    }
    if checksum(block) != word(CHECKSUM_AT) {
        return Err(LearnedError::Damaged);
    }
    if u16::from_le_bytes([block[4], block[5]]) != LEARNED_VERSION || block[6..8] != [0, 0] {
        return Err(LearnedError::WrongVersion);
    }
    if word(12) != fnv1a(&[bot.name().as_bytes()]) {
        return Err(LearnedError::WrongBot);
    }
    let len = word(8) as usize;
    let payload = block[HEADER_BYTES..]
        .get(..len)
        .ok_or(LearnedError::BadPayload)?;
    if block[HEADER_BYTES + len..].iter().any(|&byte| byte != 0) {
        return Err(LearnedError::BadPayload);
    }
    let mut reader = LearnedReader { payload, at: 0 };
    bot.read_learned(&mut reader)?;
    if reader.at != len {
        return Err(LearnedError::BadPayload);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::bots::parse_bot;

    #[test]
    fn a_fresh_bot_round_trips_and_damage_is_refused() {
        let mut block = [0u8; LEARNED_BYTES];
        let bot = parse_bot("expert:seed=1").unwrap();
        save_learned(&bot, &mut block).unwrap();
        let mut again = parse_bot("expert:seed=1").unwrap();
        restore_learned(&mut again, &block).unwrap();
        // Every single flipped bit anywhere is refused.
        for at in 0..LEARNED_BYTES {
            let mut damaged = block;
            damaged[at] ^= 1;
            assert!(restore_learned(&mut again, &damaged).is_err(), "byte {at}");
        }
        // Another bot's block, and zeros, are refused.
        let mut call = parse_bot("call").unwrap();
        assert_eq!(
            restore_learned(&mut call, &block),
            Err(LearnedError::WrongBot)
        );
        assert_eq!(
            restore_learned(&mut again, &[0; LEARNED_BYTES]),
            Err(LearnedError::NotLearned)
        );
        // A bot that learns nothing has an empty payload.
        save_learned(&call, &mut block).unwrap();
        restore_learned(&mut call, &block).unwrap();
        assert_eq!(block[8..12], [0; 4]);
    }

    /// The paper's bot with the online model keeps the expert bot's statistics and the
    /// model's counts: what a bot learned comes back bit for bit.
    #[cfg(feature = "std")]
    #[test]
    fn the_paper_bot_round_trips_its_statistics_and_counts() {
        let mut block = [0u8; LEARNED_BYTES];
        let mut staged = parse_bot("staged:opponent=online,seed=2").unwrap();
        let mut hand = crate::holdem::HandState::new(crate::holdem::HoldemConfig::ACPC);
        hand.apply(crate::holdem::Action::RaiseTo(300)).unwrap();
        hand.apply(crate::holdem::Action::Fold).unwrap();
        for _ in 0..3 {
            staged.hand_over(&hand, 0);
        }
        save_learned(&staged, &mut block).unwrap();
        assert_eq!(
            u32::from_le_bytes(block[8..12].try_into().unwrap()),
            60 + 640
        );
        let mut copy = parse_bot("staged:opponent=online,seed=2").unwrap();
        let mut fresh_block = [0u8; LEARNED_BYTES];
        save_learned(&copy, &mut fresh_block).unwrap();
        assert_ne!(block, fresh_block);
        restore_learned(&mut copy, &block).unwrap();
        let mut again = [0u8; LEARNED_BYTES];
        save_learned(&copy, &mut again).unwrap();
        assert_eq!(block, again);
        // The same name with another model is another layout: refused.
        let mut expert_model = parse_bot("staged:opponent=expert,seed=2").unwrap();
        assert_eq!(
            restore_learned(&mut expert_model, &block),
            Err(LearnedError::BadPayload)
        );
    }
}
