//! One tree node, and the size arithmetic a C caller needs to hand over a buffer.
use core::mem::{align_of, size_of};

use super::policy::ChildStats;

/// Index meaning "no node" (the root's parent). Node indices are therefore `0..u32::MAX`.
pub(crate) const NONE: u32 = u32::MAX;

/// The `mover` of a chance outcome's node: nobody chose it.
pub(crate) const CHANCE: u8 = u8::MAX;

/// The largest usable capacity: indices are `u32` and `u32::MAX` is reserved for "none".
///
/// cbindgen:ignore
pub const MAX_CAPACITY: usize = u32::MAX as usize;

// Bits of `Node::flags`. The proof lives in the low two bits so that a node stays 40 bytes
// with a 2-byte move.
const PROOF_MASK: u8 = 0b0011;
const EXPANDED: u8 = 0b0100;
const MARK: u8 = 0b1000;

/// What the MCTS-Solver has proven about a node, seen by the player who made the move into
/// it (for the root: by the player to move there).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Proof {
    /// Not proven.
    #[default]
    Unknown = 0,
    /// A forced loss: reward 0 with best play by both sides.
    Loss = 1,
    /// A forced draw: reward exactly 0.5.
    Draw = 2,
    /// A forced win: reward 1.
    Win = 3,
}

impl Proof {
    /// The exact reward of a proven node, or `None` when it is not proven.
    pub const fn reward(self) -> Option<f32> {
        match self {
            Proof::Unknown => None,
            Proof::Loss => Some(0.0),
            Proof::Draw => Some(0.5),
            Proof::Win => Some(1.0),
        }
    }

    /// The same result seen by the other player of a two-player constant-sum game.
    pub(crate) const fn flip(self) -> Self {
        match self {
            Proof::Loss => Proof::Win,
            Proof::Win => Proof::Loss,
            other => other,
        }
    }

    /// A terminal reward is a proof only when it is exactly a loss, a draw or a win;
    /// fractional rewards (a score) cannot be compared as game-theoretic values.
    pub(crate) fn from_reward(reward: f32) -> Self {
        if reward == 0.0 {
            Proof::Loss
        } else if reward == 0.5 {
            Proof::Draw
        } else if reward == 1.0 {
            Proof::Win
        } else {
            Proof::Unknown
        }
    }

    const fn from_bits(bits: u8) -> Self {
        match bits & PROOF_MASK {
            1 => Proof::Loss,
            2 => Proof::Draw,
            3 => Proof::Win,
            _ => Proof::Unknown,
        }
    }
}

/// One node of an MCTS tree. Callers only allocate them (`[Node::default(); N]`, or a C
/// buffer of [`storage_bytes`]); the search owns their contents.
///
/// 40 bytes for a 2-byte move. Statistics are `f32` to keep nodes small: sums of 0 / 0.5 / 1
/// rewards stay exact up to 2^23 visits, far beyond a per-move budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node<M> {
    /// Simulations through this node.
    pub(crate) visits: u32,
    /// Sum of the rewards of the player who moved into this node.
    pub(crate) wins: f32,
    /// AMAF simulations: this node's move was played later by the same player.
    pub(crate) amaf_visits: u32,
    /// Sum of that player's rewards over those AMAF simulations.
    pub(crate) amaf_wins: f32,
    pub(crate) parent: u32,
    /// Children are `first_child .. first_child + child_count`, always after the node itself.
    pub(crate) first_child: u32,
    pub(crate) child_count: u32,
    /// The policy's feature of this node's state ([`Policy::observe`](super::Policy::observe)).
    pub(crate) feature: f32,
    /// The prior value H(d) of this node's move, read by the MoGo score.
    pub(crate) prior: f32,
    /// Player who made `mv` (the root: the player to move at the root; [`CHANCE`] for a
    /// chance outcome, whose `prior` then holds its weight).
    pub(crate) mover: u8,
    pub(crate) flags: u8,
    pub(crate) mv: M,
}

impl<M: Copy> Node<M> {
    /// A blank node; `placeholder` is never played. `const` so that a `static` pool can be
    /// built without running code.
    pub const fn blank(placeholder: M) -> Self {
        Node {
            visits: 0,
            wins: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
            parent: NONE,
            first_child: NONE,
            child_count: 0,
            feature: 0.0,
            prior: 0.5,
            mover: 0,
            flags: 0,
            mv: placeholder,
        }
    }

    pub(crate) const fn fresh(mv: M, mover: u8, parent: u32, prior: f32) -> Self {
        let mut node = Self::blank(mv);
        node.mover = mover;
        node.parent = parent;
        node.prior = prior;
        node
    }

    pub(crate) const fn proof(&self) -> Proof {
        Proof::from_bits(self.flags)
    }

    /// `proof() == Proof::Loss`, one mask and compare (selection asks it of every child).
    #[inline]
    pub(crate) const fn is_proven_loss(&self) -> bool {
        self.flags & PROOF_MASK == Proof::Loss as u8
    }

    pub(crate) fn set_proof(&mut self, proof: Proof) {
        self.flags = (self.flags & !PROOF_MASK) | proof as u8;
    }

    /// Children have been created (none for a terminal node).
    pub(crate) const fn is_expanded(&self) -> bool {
        self.flags & EXPANDED != 0
    }

    pub(crate) fn set_expanded(&mut self, first_child: u32, child_count: u32) {
        self.first_child = first_child;
        self.child_count = child_count;
        self.flags |= EXPANDED;
    }

    /// Liveness mark used only while compacting for tree reuse.
    pub(crate) const fn is_marked(&self) -> bool {
        self.flags & MARK != 0
    }

    pub(crate) fn set_mark(&mut self, marked: bool) {
        if marked {
            self.flags |= MARK;
        } else {
            self.flags &= !MARK;
        }
    }

    /// Children as an index range; empty for a leaf.
    pub(crate) const fn children(&self) -> core::ops::Range<u32> {
        if self.child_count == 0 {
            0..0
        } else {
            self.first_child..self.first_child.saturating_add(self.child_count)
        }
    }
}

/// Read access for policies outside the crate (selection reads these straight from the
/// nodes, see [`Policy::score_children`](super::Policy::score_children)).
impl<M: Copy> Node<M> {
    /// Simulations through this node.
    #[inline]
    pub const fn visits(&self) -> u32 {
        self.visits
    }

    /// Sum of the rewards of the player who moved into this node.
    #[inline]
    pub const fn wins(&self) -> f32 {
        self.wins
    }

    /// AMAF simulations of this node's move.
    #[inline]
    pub const fn amaf_visits(&self) -> u32 {
        self.amaf_visits
    }

    /// Sum of rewards over those AMAF simulations.
    #[inline]
    pub const fn amaf_wins(&self) -> f32 {
        self.amaf_wins
    }

    /// The policy's feature of this node's state ([`Policy::observe`](super::Policy::observe)).
    #[inline]
    pub const fn feature(&self) -> f32 {
        self.feature
    }

    /// The prior value of this node's move, H(d).
    #[inline]
    pub const fn prior(&self) -> f32 {
        self.prior
    }

    /// The move into this node.
    #[inline]
    pub const fn mv(&self) -> M {
        self.mv
    }

    /// What a policy sees of this node as a child of `parent`.
    #[inline]
    pub fn stats(&self, parent: &Node<M>) -> ChildStats {
        ChildStats {
            wins: f64::from(self.wins),
            visits: self.visits,
            parent_visits: parent.visits,
            amaf_wins: f64::from(self.amaf_wins),
            amaf_visits: self.amaf_visits,
            feature: f64::from(self.feature),
            prior: f64::from(self.prior),
        }
    }
}

impl<M: Copy + Default> Default for Node<M> {
    fn default() -> Self {
        Self::blank(M::default())
    }
}

/// Bytes of one node for a move type `M`.
pub const fn node_size<M>() -> usize {
    size_of::<Node<M>>()
}

/// Required alignment of a node buffer for a move type `M`. A byte buffer handed over by C
/// must start at a multiple of this (`malloc` and `alignas(max_align_t)` satisfy it).
pub const fn node_align<M>() -> usize {
    align_of::<Node<M>>()
}

/// Bytes needed for `capacity` nodes of move type `M`, or `None` if that overflows `usize`
/// or exceeds [`MAX_CAPACITY`]. A C handle adds its header to this.
pub const fn storage_bytes<M>(capacity: usize) -> Option<usize> {
    if capacity > MAX_CAPACITY {
        return None;
    }
    capacity.checked_mul(size_of::<Node<M>>())
}

/// How many nodes fit in `bytes` bytes (the inverse of [`storage_bytes`], rounding down).
pub const fn capacity_for_bytes<M>(bytes: usize) -> usize {
    let capacity = bytes / size_of::<Node<M>>();
    if capacity > MAX_CAPACITY {
        MAX_CAPACITY
    } else {
        capacity
    }
}
