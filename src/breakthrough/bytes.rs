//! A position as a fixed 19 bytes, for messages between processes (the MPI transport of
//! parallel PN² sends a job's position this way): both bitboards little-endian, the board's
//! columns and rows, the side to move. Decoding checks everything
//! [`Position::from_bitboards`] checks, so bytes from elsewhere never make an invalid
//! position.
use super::{Color, InvalidPosition, Position, Size};

/// Why bytes are not a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecodeError {
    /// Not exactly [`Position::BYTES`] bytes.
    Length,
    /// The board size is outside 2x4 to 8x8.
    Size,
    /// The side to move is neither 0 (White) nor 1 (Black).
    Turn,
    /// The pawns do not make a valid position.
    Position(InvalidPosition),
}

impl core::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            DecodeError::Length => write!(f, "a position is {} bytes", Position::BYTES),
            DecodeError::Size => write!(f, "the board size is not one of 2x4 to 8x8"),
            DecodeError::Turn => write!(f, "the side to move is not 0 or 1"),
            DecodeError::Position(invalid) => write!(f, "{}", invalid.message()),
        }
    }
}

impl Position {
    /// The length of [`Position::to_bytes`].
    pub const BYTES: usize = 19;

    /// This position in [`Position::BYTES`] bytes.
    pub fn to_bytes(&self) -> [u8; Position::BYTES] {
        let mut bytes = [0; Position::BYTES];
        bytes[..8].copy_from_slice(&self.pawns(Color::White).to_le_bytes());
        bytes[8..16].copy_from_slice(&self.pawns(Color::Black).to_le_bytes());
        bytes[16] = self.size().columns();
        bytes[17] = self.size().rows();
        bytes[18] = self.side_to_move() as u8;
        bytes
    }

    /// The position that [`Position::to_bytes`] gave `bytes`, or why they are not one.
    pub fn from_bytes(bytes: &[u8]) -> Result<Position, DecodeError> {
        let bytes: &[u8; Position::BYTES] = bytes.try_into().map_err(|_| DecodeError::Length)?;
        let word = |at: usize| {
            let mut word = [0; 8];
            word.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(word)
        };
        let size = Size::new_checked(bytes[16], bytes[17]).map_err(|_| DecodeError::Size)?;
        let turn = match bytes[18] {
            0 => Color::White,
            1 => Color::Black,
            _ => return Err(DecodeError::Turn),
        };
        Position::from_bitboards(size, word(0), word(8), turn).map_err(DecodeError::Position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_along_a_game_come_back_from_their_bytes() {
        let mut position: Position = "BBBBB/BBBBB/...../WWWWW/WWWWW w".parse().unwrap();
        for ply in 0..12 {
            let bytes = position.to_bytes();
            let back = Position::from_bytes(&bytes).unwrap();
            assert_eq!(back, position, "ply {ply}");
            assert_eq!(back.hash(), position.hash());
            let mut moves = Default::default();
            position.legal_moves(&mut moves);
            let moves: &[_] = AsRef::as_ref(&moves);
            if moves.is_empty() {
                break;
            }
            position.play(moves[ply % moves.len()]);
        }
    }

    #[test]
    fn bad_bytes_are_refused() {
        let start: Position = "BBB/BBB/.../WWW/WWW b".parse().unwrap();
        let good = start.to_bytes();
        assert_eq!(Position::from_bytes(&good[..18]), Err(DecodeError::Length));
        let mut bad = good;
        bad[16] = 9;
        assert_eq!(Position::from_bytes(&bad), Err(DecodeError::Size));
        let mut bad = good;
        bad[18] = 2;
        assert_eq!(Position::from_bytes(&bad), Err(DecodeError::Turn));
        let mut bad = good;
        bad[0] |= 1 << 7; // h1: off a three-column board
        assert_eq!(
            Position::from_bytes(&bad),
            Err(DecodeError::Position(InvalidPosition::OffBoard))
        );
        let mut bad = good;
        bad[8] = bad[0]; // black pawns on white's cells
        assert!(matches!(
            Position::from_bytes(&bad),
            Err(DecodeError::Position(_))
        ));
    }
}
