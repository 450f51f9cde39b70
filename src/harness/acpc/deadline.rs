//! An arbor bot's decision within a time limit, shared by the dealer's in-process seats
//! and `arbor acpc play`: the bot gets a stop at half of the time left, so that what it does
//! after its last poll and a loaded machine's scheduling (docs/holdem-search.md measures
//! both) still fit in the other half.
use std::time::Instant;

use crate::holdem::bots::{BotView, HoldemBot};
use crate::holdem::rules::{Action, HandState};
use crate::search::mcts::InstantDeadline;

/// `bot`'s action in `seen` (the hand as the acting position sees it; `view` its summary)
/// under a limit that ends at `deadline`: a bot that polls stops halfway through the time
/// left and answers with its best so far; one that does not poll answers as it would.
pub fn act_by(
    bot: &mut dyn HoldemBot,
    view: &BotView,
    seen: &HandState,
    deadline: Instant,
) -> Action {
    let now = Instant::now();
    let left = deadline.saturating_duration_since(now);
    let mut stop = InstantDeadline(now + left / 2);
    bot.act_until(view, seen, &mut stop)
}
