//! Backpropagation: visit counts, rewards and solver proofs, leaf to root (AMAF statistics
//! are the policy's, see [`super::amaf`]).
use super::playout::reward_of;
use super::tree::Mcts;

impl<M: Copy + PartialEq + Default> Mcts<'_, M> {
    /// Adds one simulation ending with `rewards` to every node from `leaf` up to the root.
    /// With `proven`, the leaf has just been proven and ancestors are re-examined until one
    /// cannot be proven.
    pub(crate) fn backup(&mut self, leaf: u32, rewards: &[f32; 2], mut proven: bool) {
        let mut index = leaf;
        loop {
            if proven && index != leaf {
                proven = self.try_prove(index);
            }
            let node = &mut self.nodes[index as usize];
            node.visits = node.visits.saturating_add(1);
            node.wins += reward_of(rewards, node.mover);
            if node.parent == super::node::NONE {
                return;
            }
            index = node.parent;
        }
    }
}
