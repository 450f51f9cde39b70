//! Tree reuse: after a move is played, its subtree becomes the tree.
//!
//! The subtree is compacted to the front of the storage, in place, keeping the relative order
//! of its nodes. Because every child block is allocated after its parent, a node's new index
//! is never larger than its old one, so one ascending pass can move nodes without clobbering
//! any node still to be moved; blocks of siblings stay contiguous because siblings live or die
//! together. Three O(len) passes, no extra memory: (1) mark the subtree, (2) store each live
//! node's new index in its `parent` field (free until pass 3 rewrites it), (3) move nodes,
//! rewriting `first_child` from that scratch value and the children's `parent` to the new
//! index. The alternative, keeping the old root index and never moving, is O(1) but leaves
//! the rest of the old tree as dead space until the storage fills.
use super::node::NONE;
use super::tree::Mcts;

impl<M: Copy + PartialEq + Default> Mcts<'_, M> {
    /// Makes the subtree under the root child `mv` the new tree, keeping its statistics, and
    /// returns `true`. If the root has no such child the tree is cleared and `false` is
    /// returned; either way the next [`Mcts::search`] must be given the position after `mv`.
    /// Call it once per ply played (yours and the opponent's). Costs O(nodes in use).
    pub fn advance(&mut self, mv: M) -> bool {
        if self.len == 0 {
            return false;
        }
        let range = self.nodes[0].children();
        let found = range
            .clone()
            .find(|&index| self.nodes[index as usize].mv == mv);
        match found {
            Some(index) => {
                self.compact(index);
                // The new root's position is known only once it is searched.
                self.root_key = None;
                true
            }
            None => {
                self.clear();
                false
            }
        }
    }

    /// Moves the subtree rooted at `new_root` to `nodes[0..]`.
    fn compact(&mut self, new_root: u32) {
        let (start, end) = (new_root as usize, self.len as usize);
        let nodes = &mut self.nodes[..end];

        // Pass 1: liveness. Parents come before children, so one ascending pass suffices.
        for i in start..end {
            let parent = nodes[i].parent;
            let live = i == start || (parent != NONE && nodes[parent as usize].is_marked());
            nodes[i].set_mark(live);
        }
        // Pass 2: new indices, in the same order.
        let live = nodes[start..].iter_mut().filter(|node| node.is_marked());
        for (next, node) in live.enumerate() {
            // At most `len` nodes, which fits in u32.
            node.parent = next as u32;
        }
        // Pass 3: move. Reads only slots at or after `i`, writes only slots at or before it.
        let mut write = 0u32;
        for i in start..end {
            let mut node = nodes[i];
            if !node.is_marked() {
                continue;
            }
            if node.child_count > 0 {
                let children = node.children_usize();
                node.first_child = nodes[children.start].parent;
                for child in &mut nodes[children] {
                    child.parent = write;
                }
            }
            if i == start {
                node.parent = NONE;
            }
            node.set_mark(false);
            nodes[write as usize] = node;
            write += 1;
        }
        self.len = write;
    }
}
