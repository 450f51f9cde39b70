//! The CNN's input: four 20×20 planes describing the hand as the player to act sees it.
//!
//! | plane | rows | content |
//! |---|---|---|
//! | 0 hole | 0–3 | the actor's hole cards, one cell per card: row = suit, column = rank (2..A) |
//! | | 4 | per rank, the number of hole cards of that rank / 2 (pairs) |
//! | 1 board | 0–3 | every dealt board card, as in plane 0 (so a 5×5 filter sees hole and board of one suit together) |
//! | | 4 | per rank, board cards of that rank / 4 |
//! | | 6–9, 11–14, 16–19 | the flop, the turn card, the river card by street |
//! | 2 betting | 5s+c | street s, class c: column = the action's place in the round (capped at 19), +1 when the actor played it, −1 when the opponent did |
//! | 3 chips | 0–3 | column block s (5 columns): chips the actor put in on street s (blinds count preflop) / pot |
//! | | 4–7 | the same for the opponent |
//! | | 8–11 | columns 0–9: chips to call / pot after calling; 10–19: pot / both stacks |
//! | | 12–15 | columns 0–9: 1 when the actor is the big blind (acts last preflop, first after); 10–19: the actor's chips behind / stack |
//! | | 16–19 | column block s: 1 on the street being played |
//!
//! Every value lies in [−1, 1]. The encoding reads only the actor's own cards, the board and
//! the betting, never the opponent's cards or the action to be predicted.
use super::history::for_each_step;
use crate::holdem::card::Card;
use crate::holdem::rules::{Chips, HandState, Position};

/// Planes of the input.
pub const PLANES: usize = 4;
/// Rows and columns of a plane.
pub const SIDE: usize = 20;

/// One plane.
pub type Plane = [[f32; SIDE]; SIDE];
/// The whole input.
pub type Planes = [Plane; PLANES];

/// Plane indices.
pub const HOLE_PLANE: usize = 0;
pub const BOARD_PLANE: usize = 1;
pub const BETTING_PLANE: usize = 2;
pub const CHIPS_PLANE: usize = 3;

/// The planes of `hand` for `actor` (normally the player to act), holding `hole`.
/// The hole-cards plane is the only one that depends on `hole`; see [`encode_public`].
pub fn encode(hand: &HandState, actor: Position, hole: [Card; 2]) -> Planes {
    let mut planes = encode_public(hand, actor);
    encode_hole(&mut planes[HOLE_PLANE], hole);
    planes
}

/// The hole-cards plane for `hole` (written into a zeroed plane).
pub fn encode_hole(plane: &mut Plane, hole: [Card; 2]) {
    for card in hole {
        let (suit, rank) = (usize::from(card.suit() & 3), usize::from(card.rank() % 13));
        plane[suit][rank] = 1.0;
        plane[4][rank] += 0.5;
    }
}

/// Every plane but the hole cards' (left zero): what all holdings of `actor` share.
pub fn encode_public(hand: &HandState, actor: Position) -> Planes {
    let mut planes = [[[0.0f32; SIDE]; SIDE]; PLANES];
    let actor = actor & 1;

    let board = &mut planes[BOARD_PLANE];
    for (index, card) in hand.board().iter().enumerate() {
        let (suit, rank) = (usize::from(card.suit() & 3), usize::from(card.rank() % 13));
        board[suit][rank] = 1.0;
        board[4][rank] += 0.25;
        let street_row = match index {
            0..=2 => 6,
            3 => 11,
            _ => 16,
        };
        board[street_row + suit][rank] = 1.0;
    }

    // The walk gives each round's starting chips; a round with no action yet starts now.
    let now = [hand.spent(0), hand.spent(1)];
    let mut round_start: [Option<[Chips; 2]>; 4] = [None; 4];
    let betting = &mut planes[BETTING_PLANE];
    for_each_step(hand, |step| {
        let row = 5 * step.street.index() + step.class.index();
        let column = step.index_in_round.min(SIDE - 1);
        betting[row][column] = if step.actor == actor { 1.0 } else { -1.0 };
        round_start[step.street.index()].get_or_insert(step.spent_before);
    });
    // Preflop counts the blinds too.
    round_start[0] = Some([0, 0]);
    let current = hand.street().index();
    let mut by_street = [[0 as Chips; 4]; 2];
    for s in 0..=current {
        let start = round_start[s].unwrap_or(now);
        let end = round_start[s + 1..=current]
            .iter()
            .find_map(|start| *start)
            .unwrap_or(now);
        for (position, chips) in by_street.iter_mut().enumerate() {
            chips[s] = end[position].saturating_sub(start[position]);
        }
    }

    let pot = hand.pot().max(1) as f32;
    let chips = &mut planes[CHIPS_PLANE];
    let opponent = 1 - actor;
    let streets = by_street[usize::from(actor)]
        .iter()
        .zip(&by_street[usize::from(opponent)]);
    for (s, (&mine, &theirs)) in streets.enumerate() {
        let (mine, theirs) = (mine as f32 / pot, theirs as f32 / pot);
        fill(chips, 0..4, 5 * s..5 * s + 5, mine.min(1.0));
        fill(chips, 4..8, 5 * s..5 * s + 5, theirs.min(1.0));
    }
    let to_call = hand.spent(opponent).saturating_sub(hand.spent(actor)) as f32;
    fill(chips, 8..12, 0..10, to_call / (pot + to_call));
    let stacks = hand.config().stacks();
    let total_stacks = (stacks[0] as f32 + stacks[1] as f32).max(1.0);
    fill(chips, 8..12, 10..20, (pot / total_stacks).min(1.0));
    if actor == 0 {
        fill(chips, 12..16, 0..10, 1.0);
    }
    let stack = hand.config().stack(actor).max(1) as f32;
    fill(chips, 12..16, 10..20, hand.behind(actor) as f32 / stack);
    fill(chips, 16..20, 5 * current..5 * current + 5, 1.0);
    planes
}

fn fill(
    plane: &mut Plane,
    rows: core::ops::Range<usize>,
    columns: core::ops::Range<usize>,
    value: f32,
) {
    for row in &mut plane[rows] {
        for cell in &mut row[columns.clone()] {
            *cell = value;
        }
    }
}
