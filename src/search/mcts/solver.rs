//! MCTS-Solver (Winands, Björnsson and Saito, 2008): game-theoretic values backed up the tree.
//!
//! A node's proof is seen by the player who moved into it. A parent whose side to move is `s`
//! takes, for `s`, the best of its children's proofs (all children are moves of `s`): it is
//! proven as soon as one child is a proven win for `s`, or once every child is proven. When
//! the parent was entered by the other player of a two-player game, the value is flipped
//! (constant-sum rewards). Draws are kept as a third value, so a proven draw is preferred
//! to a proven loss.
use super::node::{CHANCE, Proof};
use super::tree::Mcts;

impl<M: Copy + PartialEq + Default> Mcts<'_, M> {
    /// Tries to prove `index` from its children; returns whether it is now proven.
    pub(crate) fn try_prove(&mut self, index: u32) -> bool {
        let node = self.nodes[index as usize];
        if node.proof() != Proof::Unknown {
            return true;
        }
        let children = &self.nodes[node.children_usize()];
        let Some(first) = children.first() else {
            return false;
        };
        // A chance node's value is an expectation, not a proof.
        if first.mover == CHANCE {
            return false;
        }
        let side = first.mover;
        let mut best = Proof::Unknown;
        let mut all_known = true;
        for child in children {
            match child.proof() {
                Proof::Win => {
                    best = Proof::Win;
                    all_known = true;
                    break;
                }
                Proof::Unknown => all_known = false,
                proof => best = best.max(proof),
            }
        }
        if !all_known {
            return false;
        }
        let proof = if node.mover == side {
            best
        } else {
            best.flip()
        };
        self.nodes[index as usize].set_proof(proof);
        true
    }

    /// Marks a terminal node's proof from its mover's exact reward.
    pub(crate) fn prove_terminal(&mut self, index: u32, rewards: &[f32; 2]) -> bool {
        let node = &mut self.nodes[index as usize];
        if node.mover == CHANCE {
            return false;
        }
        let proof = Proof::from_reward(super::playout::reward_of(rewards, node.mover));
        node.set_proof(proof);
        proof != Proof::Unknown
    }
}
