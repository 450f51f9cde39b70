//! Backpropagation: visit counts, rewards, AMAF statistics and solver proofs, leaf to root.
use super::playout::{Ply, reward_of};
use super::tree::Mcts;

impl<M: Copy + PartialEq + Default> Mcts<'_, M> {
    /// Adds one simulation ending with `rewards` to every node from `leaf` (at `depth` plies
    /// below the root) up to the root. `trace[k]` is the ply played from depth k. With
    /// `proven`, the leaf has just been proven and ancestors are re-examined until one
    /// cannot be proven.
    pub(crate) fn backup(
        &mut self,
        leaf: u32,
        depth: u32,
        rewards: &[f32; 2],
        trace: &[Ply<M>],
        amaf: bool,
        mut proven: bool,
    ) {
        let mut index = leaf;
        let mut depth = depth as usize;
        loop {
            if proven && index != leaf {
                proven = self.try_prove(index);
            }
            let node = &mut self.nodes[index as usize];
            node.visits = node.visits.saturating_add(1);
            node.wins += reward_of(rewards, node.mover);
            let parent = node.parent;
            if amaf {
                self.update_amaf(index, trace.get(depth..).unwrap_or(&[]), rewards);
            }
            if parent == super::node::NONE {
                return;
            }
            index = parent;
            depth = depth.saturating_sub(1);
        }
    }

    /// AMAF: every child of `index` whose move its player (the side to move at `index`)
    /// played anywhere in `later` counts this simulation once. The cost is children × plies,
    /// paid only by policies that read AMAF.
    fn update_amaf(&mut self, index: u32, later: &[Ply<M>], rewards: &[f32; 2]) {
        let range = self.nodes[index as usize].children_usize();
        if range.is_empty() {
            return;
        }
        let side = self.nodes[range.start].mover;
        let reward = reward_of(rewards, side);
        for child in &mut self.nodes[range] {
            if later
                .iter()
                .any(|ply| ply.player == side && ply.mv == child.mv)
            {
                child.amaf_visits = child.amaf_visits.saturating_add(1);
                child.amaf_wins += reward;
            }
        }
    }
}
