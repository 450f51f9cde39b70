//! `arbor hand`: rank 5, 6 or 7 cards and show the best five.
use super::args::Command;
use super::{Args, Failure};
use crate::holdem::{Card, best_five};

pub const COMMAND: Command = Command {
    name: "hand",
    operands: "[CARD...]",
    about: "rank the best five of 5, 6 or 7 cards (e.g. As Kd Qh Jc Ts 2c 3d);\n\
            with no cards, ranks a built-in example hand",
    options: &[],
};

/// The hand ranked when no cards are given.
const EXAMPLE: [&str; 7] = ["As", "Kd", "Qh", "Jc", "Ts", "2c", "3d"];

pub fn run(args: Args) -> Result<(), Failure> {
    let mut words = args.operand_texts()?;
    if words.is_empty() {
        words = EXAMPLE.iter().map(|&text| text.to_owned()).collect();
    }
    let cards = words
        .iter()
        .map(|word| {
            Card::parse(word)
                .map_err(|_| Failure::Usage(format!("'{word}' is not a card (like As, Td, 2c)")))
        })
        .collect::<Result<Vec<Card>, Failure>>()?;
    let (five, rank) = best_five(&cards)
        .map_err(|error| Failure::Usage(format!("cannot rank these cards: {error}")))?;
    let five: Vec<String> = five.iter().map(Card::to_string).collect();
    outln!("cards    {}", words.join(" "));
    outln!("rank     {} of 7462", rank.get());
    outln!("category {}", rank.category());
    outln!("best     {}", five.join(" "));
    Ok(())
}
