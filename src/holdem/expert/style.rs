//! A playing style: four numbers that move the expert library's thresholds, so that a
//! studio can field opponents that feel different. A plain `#[repr(C)]` struct of `f32`s,
//! ready for the C ABI.
use core::fmt;

/// How a bot plays. Every field is in 0..=1; 0.5 is neutral for looseness, aggression and
/// risk.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// How many hands it plays: raises the equity it credits itself with when deciding to
    /// call (0 very tight, 1 very loose).
    pub looseness: f32,
    /// How often it bets and raises rather than checks and calls (0 passive, 1 aggressive).
    pub aggression: f32,
    /// The chance of betting or raising with a weak hand (or a draw) where a bet is possible.
    pub bluff: f32,
    /// Appetite for big pots: all-in sizes and calls of big bets (0 careful, 1 reckless).
    pub risk: f32,
}

/// The named presets, in the order of the usage text and the styles table.
pub const PRESETS: [(&str, Style); 6] = [
    ("balanced", Style::BALANCED),
    ("tag", Style::new_const(0.35, 0.75, 0.12, 0.5)),
    ("lag", Style::new_const(0.75, 0.8, 0.3, 0.6)),
    ("rock", Style::new_const(0.1, 0.2, 0.02, 0.2)),
    ("station", Style::new_const(0.95, 0.1, 0.02, 0.5)),
    ("maniac", Style::new_const(1.0, 1.0, 0.6, 0.95)),
];

/// Why a style was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StyleError {
    /// Not a preset name nor four numbers.
    UnknownPreset,
    /// One of the four numbers is not a number.
    NotANumber,
    /// A number is outside 0..=1 (or NaN).
    OutOfRange,
}

impl fmt::Display for StyleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StyleError::UnknownPreset => {
                "unknown style (expected balanced, tag, lag, rock, station, maniac, or \
                 LOOSENESS/AGGRESSION/BLUFF/RISK with four numbers in 0..1)"
            }
            StyleError::NotANumber => "a style number is not a number",
            StyleError::OutOfRange => "style numbers must be between 0 and 1",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for StyleError {}

impl Default for Style {
    fn default() -> Self {
        Style::BALANCED
    }
}

impl Style {
    /// The default: the style the shipped preflop chart is derived for.
    pub const BALANCED: Style = Style::new_const(0.5, 0.5, 0.1, 0.5);

    const fn new_const(looseness: f32, aggression: f32, bluff: f32, risk: f32) -> Style {
        Style {
            looseness,
            aggression,
            bluff,
            risk,
        }
    }

    /// A style from its four numbers, each in 0..=1.
    pub fn new(
        looseness: f32,
        aggression: f32,
        bluff: f32,
        risk: f32,
    ) -> Result<Style, StyleError> {
        Style::new_const(looseness, aggression, bluff, risk).validated()
    }

    /// The style itself if every field is in 0..=1 (a C caller's struct, say).
    pub fn validated(self) -> Result<Style, StyleError> {
        let fields = [self.looseness, self.aggression, self.bluff, self.risk];
        if fields.iter().all(|x| (0.0..=1.0).contains(x)) {
            Ok(self)
        } else {
            Err(StyleError::OutOfRange)
        }
    }

    /// A preset name (`tag`) or four numbers `LOOSENESS/AGGRESSION/BLUFF/RISK`
    /// (`0.7/0.9/0.3/0.5`).
    pub fn parse(text: &str) -> Result<Style, StyleError> {
        if let Some((_, style)) = PRESETS.iter().find(|(name, _)| *name == text) {
            return Ok(*style);
        }
        let mut numbers = [0f32; 4];
        let mut parts = text.split('/');
        for slot in &mut numbers {
            let part = parts.next().ok_or(StyleError::UnknownPreset)?;
            *slot = part.trim().parse().map_err(|_| {
                if part.chars().any(|c| c.is_ascii_digit()) {
                    StyleError::NotANumber
                } else {
                    StyleError::UnknownPreset
                }
            })?;
        }
        if parts.next().is_some() {
            return Err(StyleError::UnknownPreset);
        }
        Style::new(numbers[0], numbers[1], numbers[2], numbers[3])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_numbers_parse_and_absurd_values_are_refused() {
        assert_eq!(Style::parse("balanced"), Ok(Style::BALANCED));
        for (name, style) in PRESETS {
            assert_eq!(Style::parse(name), Ok(style));
            assert_eq!(style.validated(), Ok(style));
        }
        assert_eq!(
            Style::parse("0.7/0.9/0.3/0.5"),
            Ok(Style::new(0.7, 0.9, 0.3, 0.5).unwrap())
        );
        assert_eq!(Style::parse("shark"), Err(StyleError::UnknownPreset));
        assert_eq!(Style::parse("0.7/0.9/0.3"), Err(StyleError::UnknownPreset));
        assert_eq!(
            Style::parse("0.7/0.9/0.3/0.5/1"),
            Err(StyleError::UnknownPreset)
        );
        assert_eq!(Style::parse("0.7/x9/0.3/0.5"), Err(StyleError::NotANumber));
        assert_eq!(Style::parse("1.5/0.5/0.3/0.5"), Err(StyleError::OutOfRange));
        assert_eq!(Style::parse("NaN/0.5/0.3/0.5"), Err(StyleError::OutOfRange));
        assert_eq!(Style::new(0.5, -0.1, 0.0, 0.0), Err(StyleError::OutOfRange));
    }
}
