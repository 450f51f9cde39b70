//! The tree in caller storage: creation, validation, expansion, and read access.
use super::config::ChildInfo;
use super::node::{CHANCE, MAX_CAPACITY, NONE, Node, Proof};
use super::policy::Needs;
use crate::Error;
use crate::search::game::{Game, Knowledge, Prior, PriorSink};

/// An MCTS tree over a caller-provided node slice. The root is always node 0; the tree uses
/// `nodes[..len]` and never allocates.
///
/// The tree keeps no game state: every iteration replays the stored moves from a clone of the
/// root state handed to [`Mcts::search`]. That keeps a node at 40 bytes whatever the game;
/// [`Mcts::search_with_states`] trades separate caller storage for fewer replays.
#[derive(Debug)]
pub struct Mcts<'s, M> {
    pub(crate) nodes: &'s mut [Node<M>],
    pub(crate) len: u32,
    /// `Game::position_key` of the root, when the game gives one and the root was searched
    /// from that position (unknown after `advance` until the next search).
    pub(crate) root_key: Option<u64>,
}

/// The whole state of a tree besides its storage, `Copy` so that a caller (a C handle) can
/// keep it between searches: see [`Mcts::parts`] and [`Mcts::from_tree_parts`]. The default
/// is an empty tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeParts {
    /// Nodes in use ([`Mcts::len`]).
    pub len: u32,
    /// The root's position key ([`Mcts::root_key`]).
    pub root_key: Option<u64>,
}

impl<'s, M: Copy + PartialEq + Default> Mcts<'s, M> {
    /// An empty tree over `storage`. Any length is accepted; with no room for a root,
    /// `search` returns `Error::CapacityExhausted`. Slots beyond [`MAX_CAPACITY`] are unused.
    pub fn new(storage: &'s mut [Node<M>]) -> Self {
        Mcts {
            nodes: storage,
            len: 0,
            root_key: None,
        }
    }

    /// Re-attaches a tree that was detached with [`Mcts::len`] (for example by a C handle
    /// that keeps the buffer and the length between calls). The structure of `nodes[..len]`
    /// is checked in O(len): every child range lies inside the tree, after its parent, and
    /// points back to it (a few milliseconds per million nodes). Fails with `Error::InvalidLength` if `len` exceeds the storage and
    /// `Error::InvalidArgument` if the nodes do not form a tree.
    pub fn from_parts(storage: &'s mut [Node<M>], len: u32) -> Result<Self, Error> {
        let capacity = storage.len().min(MAX_CAPACITY);
        if len as usize > capacity {
            return Err(Error::InvalidLength);
        }
        let tree = Mcts {
            nodes: storage,
            len,
            root_key: None,
        };
        if tree.is_well_formed() {
            Ok(tree)
        } else {
            Err(Error::InvalidArgument)
        }
    }

    /// Re-attaches a tree detached with [`Mcts::parts`]: as [`Mcts::from_parts`], and the
    /// root's position key is restored too, so that the next search continues the tree only
    /// from the position it was grown from (and starts afresh from any other).
    pub fn from_tree_parts(storage: &'s mut [Node<M>], parts: TreeParts) -> Result<Self, Error> {
        let mut tree = Mcts::from_parts(storage, parts.len)?;
        tree.root_key = parts.root_key;
        Ok(tree)
    }

    /// What a caller keeps, besides the storage, to re-attach this tree later with
    /// [`Mcts::from_tree_parts`] and continue its search exactly.
    pub fn parts(&self) -> TreeParts {
        TreeParts {
            len: self.len,
            root_key: self.root_key,
        }
    }

    /// The key ([`Game::hash`], or the information-set key) of the position the root was
    /// last searched from; `None` before a search, after [`Mcts::advance`] or
    /// [`Mcts::clear`], and after [`Mcts::from_parts`].
    pub fn root_key(&self) -> Option<u64> {
        self.root_key
    }

    /// Every child block lies after its parent inside the tree and points back to it, and
    /// the blocks together hold every node but the root: then each non-root node belongs to
    /// exactly one block (a node's `parent` names one block only), so the nodes form a tree.
    /// One pass in storage order, reading each node and each block once: a handle re-attaches
    /// its tree on every call, so this cost is paid per call.
    fn is_well_formed(&self) -> bool {
        let Some(nodes) = self.nodes.get(..self.len as usize) else {
            return false;
        };
        let Some(root) = nodes.first() else {
            return true;
        };
        if root.parent != NONE {
            return false;
        }
        let mut in_blocks = 0u64;
        for (i, node) in nodes.iter().enumerate() {
            let i = i as u32;
            if node.is_marked() {
                return false;
            }
            if node.child_count == 0 {
                continue;
            }
            let end = u64::from(node.first_child) + u64::from(node.child_count);
            if !node.is_expanded() || node.first_child <= i || end > u64::from(self.len) {
                return false;
            }
            if nodes[node.children_usize()]
                .iter()
                .any(|child| child.parent != i)
            {
                return false;
            }
            in_blocks += u64::from(node.child_count);
        }
        in_blocks + 1 == u64::from(self.len)
    }

    /// Nodes in use (0 before the first search). Together with the storage this is the whole
    /// state of the tree.
    pub fn len(&self) -> u32 {
        self.len
    }

    /// No root yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Nodes the storage can hold.
    pub fn capacity(&self) -> u32 {
        self.nodes.len().min(MAX_CAPACITY) as u32
    }

    /// Forgets the tree; the next search starts from scratch. O(1).
    pub fn clear(&mut self) {
        self.len = 0;
        self.root_key = None;
    }

    /// The solver's verdict on the root, for the player to move there.
    pub fn root_proof(&self) -> Proof {
        self.nodes
            .first()
            .filter(|_| self.len > 0)
            .map_or(Proof::Unknown, |root| root.proof())
    }

    /// Simulations through the root.
    pub fn root_visits(&self) -> u32 {
        self.nodes
            .first()
            .filter(|_| self.len > 0)
            .map_or(0, |root| root.visits)
    }

    /// The root's children and their statistics, in the order the game generated them.
    pub fn root_children(&self) -> impl Iterator<Item = ChildInfo<M>> + '_ {
        let range = if self.len > 0 {
            self.nodes[0].children_usize()
        } else {
            0..0
        };
        self.nodes[range].iter().map(|child| ChildInfo {
            mv: child.mv,
            visits: child.visits,
            wins: child.wins,
            amaf_visits: child.amaf_visits,
            amaf_wins: child.amaf_wins,
            proof: child.proof(),
        })
    }

    /// Writes a fresh root for a position where `side` is to move.
    pub(crate) fn reset_root(&mut self, side: u8) {
        self.len = 0;
        if let Some(root) = self.nodes.first_mut() {
            *root = Node::fresh(M::default(), side, NONE, 0.5);
            self.len = 1;
        }
    }

    /// Creates all children of `index`, one per move of `state` (where `mover` is to move,
    /// or [`CHANCE`]), in one bump of `len`, with their priors from `knowledge` if
    /// `needs.prior` (the outcomes' weights for chance). Returns
    /// `false`, changing nothing, when the storage cannot hold them all.
    pub(crate) fn expand<G: Game<Move = M>, K: Knowledge<G> + ?Sized>(
        &mut self,
        index: u32,
        state: &G,
        mover: u8,
        moves: &[M],
        knowledge: &K,
        needs: Needs,
    ) -> bool {
        let first = self.len;
        let Ok(count) = u32::try_from(moves.len()) else {
            return false;
        };
        let Some(end) = first
            .checked_add(count)
            .filter(|&end| end <= self.capacity())
        else {
            return false;
        };
        let children = &mut self.nodes[first as usize..end as usize];
        for (slot, &mv) in children.iter_mut().zip(moves) {
            *slot = Node::fresh(mv, mover, index, 0.5);
        }
        if mover == CHANCE {
            for (child, &mv) in children.iter_mut().zip(moves) {
                child.prior = state.outcome_weight(mv);
            }
        } else if needs.prior || knowledge.weighs_priors() {
            knowledge.priors(state, moves, &mut ChildPriors(children));
        }
        self.nodes[index as usize].set_expanded(first, count);
        self.len = end;
        true
    }
}

/// New children receiving their priors: the value as H(d), the weight as that many
/// simulations (rounded to whole ones) with that mean.
struct ChildPriors<'a, M>(&'a mut [Node<M>]);

impl<M> PriorSink for ChildPriors<'_, M> {
    fn set(&mut self, index: usize, prior: Prior) {
        let Some(child) = self.0.get_mut(index) else {
            return;
        };
        child.prior = prior.value;
        // `as` saturates and sends NaN to 0: no prior can break the counts.
        let weight = libm::roundf(prior.weight) as u32;
        if weight > 0 {
            child.visits = weight;
            child.wins = prior.value * weight as f32;
        }
    }
}

impl<M: Copy> Node<M> {
    /// Children as a `usize` range for slicing.
    pub(crate) fn children_usize(&self) -> core::ops::Range<usize> {
        let range = self.children();
        range.start as usize..range.end as usize
    }
}
