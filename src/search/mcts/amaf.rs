//! AMAF ("all moves as first") statistics by move index, for RAVE and the MoGo score.
//!
//! After a simulation, every child of every node on its path whose move the child's player
//! (the side to move at that node) played at a later ply of the simulation counts the
//! simulation once. Walking the path from the leaf to the root while marking the plies of the
//! simulation from its end backwards in a table indexed by (player, move index), each node
//! finds, when it is reached, exactly the plies at or below its depth marked: one pass over
//! the plies plus one look-up per child, instead of comparing every child with every later
//! ply.
use super::node::{CHANCE, NONE, Node};
use super::playout::reward_of;
use crate::search::game::{Game, MoveIndex, Ply, Table};

/// One simulation's AMAF update, handed to [`Policy::update_amaf`](super::Policy::update_amaf):
/// the tree, the leaf the simulation reached and its depth, the plies played from the root
/// (`trace[k]` from depth k), and the returns.
pub struct Amaf<'t, 's, G: Game> {
    pub(crate) nodes: &'t mut [Node<G::Move>],
    pub(crate) leaf: u32,
    pub(crate) depth: u32,
    pub(crate) trace: &'s [Ply<G::Move>],
    pub(crate) rewards: &'s [f32; 2],
}

impl<G: MoveIndex> Amaf<'_, '_, G> {
    /// Adds the simulation to the AMAF statistics of the children of every node from the leaf
    /// up to the root.
    pub fn update(self) {
        let space = G::MOVE_SPACE;
        let mut played = G::PlayerMoveTable::zeroed();
        let played = played.as_mut();
        let Amaf {
            nodes,
            leaf,
            depth,
            trace,
            rewards,
        } = self;
        // Plies from `marked` on are in the table.
        let mut marked = trace.len();
        let mut index = leaf;
        let mut depth = depth as usize;
        loop {
            for ply in trace.get(depth..marked).unwrap_or(&[]) {
                if ply.player == CHANCE {
                    continue;
                }
                let slot = usize::from(ply.player.min(1)) * space + G::move_index(ply.mv);
                if let Some(flag) = played.get_mut(slot) {
                    *flag = 1;
                }
            }
            marked = marked.min(depth);
            let node = &nodes[index as usize];
            let parent = node.parent;
            let range = node.children_usize();
            let chosen = nodes
                .get(range.start)
                .filter(|first| !range.is_empty() && first.mover != CHANCE);
            if let Some(first) = chosen {
                let side = first.mover;
                let offset = usize::from(side.min(1)) * space;
                let reward = reward_of(rewards, side);
                for child in &mut nodes[range] {
                    let slot = offset + G::move_index(child.mv);
                    if played.get(slot).is_some_and(|&flag| flag != 0) {
                        child.amaf_visits = child.amaf_visits.saturating_add(1);
                        child.amaf_wins += reward;
                    }
                }
            }
            if parent == NONE {
                return;
            }
            index = parent;
            depth = depth.saturating_sub(1);
        }
    }
}
