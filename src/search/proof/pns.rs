//! Proof-number search (Allis) on a tree kept in caller-provided storage.
//!
//! Nodes live in a `&mut [Node<M>]` slice and refer to each other by `u32` index; the
//! children of a node are contiguous (first child + count), so an expansion is one bump of
//! a cursor. Every iteration descends from the root to a most-proving node (at each node,
//! the child with the smallest disproof number, the first one on ties), expands it, and
//! updates the numbers of its ancestors, stopping as soon as they no longer change.
//!
//! When the storage is full, the solver *collects*: the subtrees under solved nodes are
//! dropped (a solved node keeps its numbers, which is all its parent needs) and the live
//! nodes are slid down in index order, which keeps children contiguous and parents before
//! their children. If an expansion still does not fit, the search stops and answers
//! [`Outcome::Unknown`], leaving a consistent tree.

use super::numbers::FromChildren;
use super::{INFINITY, Outcome, Settling, Solvable, SolveStats, initial};

/// "No node": the parent of the root, the first child of a leaf.
const NONE: u32 = u32::MAX;

/// One node of the proof-number tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Node<M> {
    /// Proof number: effort to prove that the side to move here wins.
    pub pn: u32,
    /// Disproof number: effort to prove that the side to move here loses.
    pub dn: u32,
    parent: u32,
    first_child: u32,
    children: u16,
    /// The move that leads here from the parent.
    pub mv: M,
}

impl<M: Copy> Node<M> {
    /// A blank node, to fill storage before [`Pns::new`].
    pub const fn blank(mv: M) -> Node<M> {
        Node {
            pn: 0,
            dn: 0,
            parent: NONE,
            first_child: NONE,
            children: 0,
            mv,
        }
    }

    /// The index of the first child, if the node is expanded.
    pub fn first_child(&self) -> Option<usize> {
        (self.children > 0).then_some(self.first_child as usize)
    }

    /// The number of children (0 for a leaf).
    pub fn child_count(&self) -> usize {
        self.children as usize
    }

    /// `true` once the node is proved or disproved.
    #[inline]
    pub fn is_solved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// Options of a proof-number search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PnsConfig {
    /// Initial disproof numbers from the number of legal moves (the mobility heuristic).
    pub mobility: bool,
}

impl Default for PnsConfig {
    fn default() -> PnsConfig {
        PnsConfig { mobility: true }
    }
}

/// Why [`Pns::new`] refused its storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StorageTooSmall;

/// A proof-number search in progress.
pub struct Pns<'a, G: Solvable> {
    nodes: &'a mut [Node<G::Move>],
    used: u32,
    root: G,
    /// The node the search works below: the root, or while [settling](Pns::settle) the
    /// child of the root being solved; and its position.
    top: u32,
    top_position: G,
    config: PnsConfig,
    stats: SolveStats,
}

impl<'a, G: Solvable> Pns<'a, G> {
    /// Starts a search of `root` in `nodes`; needs at least one node. Storage beyond
    /// `u32::MAX - 1` nodes is not used.
    pub fn new(
        nodes: &'a mut [Node<G::Move>],
        root: G,
        config: PnsConfig,
    ) -> Result<Self, StorageTooSmall> {
        if nodes.is_empty() {
            return Err(StorageTooSmall);
        }
        let (pn, dn) = initial(&root, config.mobility);
        nodes[0] = Node {
            pn,
            dn,
            parent: NONE,
            first_child: NONE,
            children: 0,
            mv: G::Move::default(),
        };
        Ok(Pns {
            nodes,
            used: 1,
            root,
            top: 0,
            top_position: root,
            config,
            stats: SolveStats {
                touched: 1,
                peak_used: 1,
                ..SolveStats::default()
            },
        })
    }

    /// Storage capacity in nodes.
    fn capacity(&self) -> u32 {
        self.nodes.len().min(NONE as usize - 1) as u32
    }

    /// The root's proof and disproof numbers.
    pub fn root_numbers(&self) -> (u32, u32) {
        (self.nodes[0].pn, self.nodes[0].dn)
    }

    /// The outcome so far: `Unknown` until the root is solved.
    pub fn outcome(&self) -> Outcome {
        match self.root_numbers() {
            (0, _) => Outcome::Win,
            (_, 0) => Outcome::Loss,
            _ => Outcome::Unknown,
        }
    }

    /// The counters.
    pub fn stats(&self) -> SolveStats {
        self.stats
    }

    /// Nodes in use now.
    pub fn used(&self) -> u32 {
        self.used
    }

    /// The tree, root first.
    pub fn nodes(&self) -> &[Node<G::Move>] {
        &self.nodes[..self.used as usize]
    }

    /// A winning move of the root once it is proved a win: the first child whose side to
    /// move has lost (the first winning move in move order after [`settle`](Self::settle)).
    pub fn winning_move(&self) -> Option<G::Move> {
        let root = &self.nodes[0];
        if root.pn != 0 || root.children == 0 {
            return None;
        }
        let first = root.first_child as usize;
        self.nodes[first..first + root.children as usize]
            .iter()
            .find(|child| child.dn == 0)
            .map(|child| child.mv)
    }

    /// Whether the node the search works below (the root, or the child being settled) is
    /// solved.
    pub(crate) fn top_solved(&self) -> bool {
        self.nodes[self.top as usize].is_solved()
    }

    /// Settles a proved win (see [`Settling`]): the children of the root before its first
    /// winning child that the proof left open are solved one at a time, in move order, by
    /// `search` (which runs the search, now below that child, until the child is solved or
    /// storage runs out), until one is a win; [`winning_move`](Self::winning_move) is then
    /// the first winning move in move order. A root proved without children (a win in
    /// one, or static knowledge) is expanded first. A root not proved won is left alone.
    pub fn settle(&mut self, mut search: impl FnMut(&mut Self)) -> Settling {
        let before = self.stats;
        let mut settling = Settling::default();
        if self.outcome() != Outcome::Win
            || (self.nodes[0].children == 0 && !self.expand_proved_root())
        {
            settling.stats = self.stats.since(&before);
            return settling;
        }
        loop {
            match self.first_open_child() {
                Ok((index, position)) => {
                    self.top = index;
                    self.top_position = position;
                    settling.settled += 1;
                    search(self);
                    if !self.top_solved() {
                        break;
                    }
                }
                Err(found) => {
                    settling.first = found;
                    break;
                }
            }
        }
        self.top = 0;
        self.top_position = self.root;
        settling.stats = self.stats.since(&before);
        settling
    }

    /// The first child of the root, in move order, that is still open and comes before
    /// every winning child, with its position; `Err(true)` when a winning child comes
    /// first, `Err(false)` when every child is a losing move.
    fn first_open_child(&self) -> Result<(u32, G), bool> {
        let root = self.nodes[0];
        let first = root.first_child as usize;
        for (i, child) in self.nodes[first..first + root.children as usize]
            .iter()
            .enumerate()
        {
            if child.dn == 0 {
                return Err(true);
            }
            if child.pn != 0 {
                return Ok(((first + i) as u32, self.root.after(child.mv)));
            }
        }
        Err(false)
    }

    /// Gives a root proved without children its children (initial numbers), keeping its
    /// proof; `false` if it has no move or they do not fit.
    fn expand_proved_root(&mut self) -> bool {
        let root = self.root;
        let mut moves = G::Moves::default();
        root.proof_moves(&mut moves);
        if moves.is_empty() {
            return false;
        }
        if !self.make_room(moves.len(), &mut [0]) {
            self.stats.out_of_storage = true;
            return false;
        }
        let proved = (self.nodes[0].pn, self.nodes[0].dn);
        self.attach_children(0, &root, &moves, |_, child, mobility| {
            initial(child, mobility)
        });
        (self.nodes[0].pn, self.nodes[0].dn) = proved;
        true
    }

    /// Runs at most `expansions` iterations (descent, expansion, update); returns the
    /// outcome, `Unknown` if the root is still open (budget spent or storage exhausted:
    /// see [`SolveStats::out_of_storage`]).
    pub fn run(&mut self, expansions: u64) -> Outcome {
        for _ in 0..expansions {
            if self.top_solved() || self.stats.out_of_storage {
                break;
            }
            if !self.iterate() {
                self.stats.out_of_storage = true;
                break;
            }
        }
        self.outcome()
    }

    /// PN² (Allis; section 2.3 of the paper): like [`run`](Self::run), but before a
    /// most-proving leaf is expanded, a second-level proof-number search rooted at it runs
    /// in `second` for `second_budget(nodes in use in the main tree)` expansions, and the
    /// leaf's new children take the numbers of that search's root children. The main tree
    /// thus stays small while its numbers are better informed. `second` is reused for
    /// every leaf (at least one node; a larger one lets the budget be spent).
    pub fn run_pn2(
        &mut self,
        expansions: u64,
        second: &mut [Node<G::Move>],
        second_budget: impl Fn(u32) -> u64,
    ) -> Outcome {
        for _ in 0..expansions {
            if self.top_solved() || self.stats.out_of_storage {
                break;
            }
            let budget = second_budget(self.used);
            if !self.iterate_with(Some((&mut *second, budget))) {
                self.stats.out_of_storage = true;
                break;
            }
        }
        self.outcome()
    }

    /// One iteration; `false` if the expansion did not fit even after a collection.
    fn iterate(&mut self) -> bool {
        self.iterate_with(None)
    }

    /// One iteration, with an optional second-level search at the leaf.
    fn iterate_with(&mut self, second: Option<(&mut [Node<G::Move>], u64)>) -> bool {
        let (leaf, position) = self.most_proving();
        let mut moves = G::Moves::default();
        position.proof_moves(&mut moves);
        let count = moves.len();
        if count == 0 {
            self.set_lost(leaf);
            return true;
        }
        let mut kept = [leaf];
        if !self.make_room(count, &mut kept) {
            return false;
        }
        let leaf = kept[0];
        // Numbers of the children from a second-level search, when there is one and it
        // expanded its root (its children come in the same move order).
        let mut informed: Option<(&[Node<G::Move>], usize)> = None;
        if let Some((storage, budget)) = second
            && !storage.is_empty()
        {
            if let Ok(mut sub) = Pns::new(&mut *storage, position, self.config) {
                sub.run(budget);
                self.stats.touched += sub.stats.touched;
            }
            let storage: &[Node<G::Move>] = storage;
            let root = storage[0];
            if root.children as usize == count && root.first_child != NONE {
                informed = Some((storage, root.first_child as usize));
            }
        }
        self.attach_children(
            leaf,
            &position,
            &moves,
            |i, child, mobility| match informed {
                Some((nodes, first_sub)) => (nodes[first_sub + i].pn, nodes[first_sub + i].dn),
                None => initial(child, mobility),
            },
        );
        true
    }

    /// A node without moves that the game does not call over: the side to move cannot go
    /// on, so it has lost.
    fn set_lost(&mut self, leaf: u32) {
        self.nodes[leaf as usize].pn = INFINITY;
        self.nodes[leaf as usize].dn = 0;
        self.update(leaf);
    }

    /// Makes room for `count` new nodes, collecting solved subtrees if needed; `keep` holds
    /// node indices that are renumbered by a collection ([`NONE`] for nodes it freed).
    /// `false` if the nodes do not fit even then.
    fn make_room(&mut self, count: usize, keep: &mut [u32]) -> bool {
        if count > u16::MAX as usize {
            return false;
        }
        if (self.capacity() - self.used) < count as u32 {
            self.collect(keep);
            if (self.capacity() - self.used) < count as u32 {
                return false;
            }
        }
        true
    }

    /// Gives the leaf `leaf` (at `position`) the children `moves` (room made), with the
    /// numbers `numbers(index, child position, mobility)`, and updates its ancestors.
    fn attach_children(
        &mut self,
        leaf: u32,
        position: &G,
        moves: &[G::Move],
        mut numbers: impl FnMut(usize, &G, bool) -> (u32, u32),
    ) {
        let first = self.used;
        let count = moves.len();
        for (i, &mv) in moves.iter().enumerate() {
            let child = position.after(mv);
            let (pn, dn) = numbers(i, &child, self.config.mobility);
            self.nodes[first as usize + i] = Node {
                pn,
                dn,
                parent: leaf,
                first_child: NONE,
                children: 0,
                mv,
            };
        }
        self.used += count as u32;
        self.stats.peak_used = self.stats.peak_used.max(self.used as u64);
        self.stats.expanded += 1;
        self.stats.touched += count as u64;
        let node = &mut self.nodes[leaf as usize];
        node.first_child = first;
        node.children = count as u16;
        self.update(leaf);
    }

    /// Descends from the top (the root, or the child being settled) to a most-proving
    /// node, returning it and its position.
    fn most_proving(&self) -> (u32, G) {
        let mut index = self.top;
        let mut position = self.top_position;
        loop {
            let node = &self.nodes[index as usize];
            if node.children == 0 {
                return (index, position);
            }
            let first = node.first_child as usize;
            let mut best = first;
            for c in first + 1..first + node.children as usize {
                if self.nodes[c].dn < self.nodes[best].dn {
                    best = c;
                }
            }
            position = position.after(self.nodes[best].mv);
            index = best as u32;
        }
    }

    /// Recomputes the numbers of `index` from its children and walks up while they change.
    fn update(&mut self, mut index: u32) {
        loop {
            let node = self.nodes[index as usize];
            if node.children > 0 {
                if index == 0 && self.top != 0 {
                    // Settling: the root stays proved whatever its children say (static
                    // knowledge may have proved it).
                    return;
                }
                let first = node.first_child as usize;
                let children = &self.nodes[first..first + node.children as usize];
                let numbers = FromChildren::of(children.iter().map(|child| (child.pn, child.dn)));
                if (numbers.pn, numbers.dn) == (node.pn, node.dn) && index != 0 {
                    return;
                }
                let node = &mut self.nodes[index as usize];
                node.pn = numbers.pn;
                node.dn = numbers.dn;
            }
            if node.parent == NONE {
                return;
            }
            index = node.parent;
        }
    }

    /// Frees the subtrees of solved nodes and compacts the live nodes towards index 0.
    /// Renumbers the node indices in `keep` ([`NONE`] for those freed).
    fn collect(&mut self, keep: &mut [u32]) {
        self.stats.collections += 1;
        let settling = self.top != 0;
        let top = self.top;
        let mut cursor = 0u32;
        for i in 0..self.used {
            let node = self.nodes[i as usize];
            let live = i == 0 || node.parent != NONE;
            if i == top {
                self.top = cursor;
            }
            // Nodes are visited in index order and move down only, so an index already
            // renumbered (to at most the one visited) never matches a later one.
            let renumbered = if live { cursor } else { NONE };
            for kept in keep.iter_mut().filter(|kept| **kept == i) {
                *kept = renumbered;
            }
            if !live {
                self.mark_children_dead(&node);
                continue;
            }
            let new = cursor;
            cursor += 1;
            let mut moved = node;
            if i != 0 {
                let parent = &mut self.nodes[node.parent as usize];
                if parent.first_child == i {
                    parent.first_child = new;
                }
            }
            // While settling, the proved root keeps its children: they are what is settled.
            if node.is_solved() && !(settling && i == 0) {
                self.mark_children_dead(&node);
                moved.first_child = NONE;
                moved.children = 0;
            } else if node.children > 0 {
                let first = node.first_child as usize;
                for child in &mut self.nodes[first..first + node.children as usize] {
                    child.parent = new;
                }
            }
            self.nodes[new as usize] = moved;
        }
        self.used = cursor;
    }

    /// Marks the children of `node` as unreachable (their parent is `NONE`).
    fn mark_children_dead(&mut self, node: &Node<G::Move>) {
        if node.children > 0 {
            let first = node.first_child as usize;
            for child in &mut self.nodes[first..first + node.children as usize] {
                child.parent = NONE;
            }
        }
    }
}

/// What the parallel PN² server ([`super::ppn2`]) does with its tree besides PNS's own
/// iterations: hand leaves out as jobs and take the workers' results.
#[cfg(feature = "std")]
impl<G: Solvable> Pns<'_, G> {
    /// The first most-proving leaf below the top (the root, or the child being settled)
    /// that is not in `reserved`, with its position, found by backtracking over the
    /// children tied on the smallest `dn` (in move order); `None` when the top is solved
    /// or every most-proving leaf is reserved. For the parallel
    /// PN² server, which hands leaves out as jobs.
    pub(crate) fn most_proving_except(&self, reserved: &[u32]) -> Option<(u32, G)> {
        self.most_proving_below(self.top, self.top_position, reserved)
    }

    fn most_proving_below(&self, index: u32, position: G, reserved: &[u32]) -> Option<(u32, G)> {
        let node = &self.nodes[index as usize];
        if node.is_solved() {
            return None;
        }
        if node.children == 0 {
            return (!reserved.contains(&index)).then_some((index, position));
        }
        let first = node.first_child as usize;
        let children = &self.nodes[first..first + node.children as usize];
        let min = children.iter().map(|c| c.dn).min().unwrap_or(INFINITY);
        children
            .iter()
            .enumerate()
            .filter(|(_, c)| c.dn == min)
            .find_map(|(i, c)| {
                self.most_proving_below((first + i) as u32, position.after(c.mv), reserved)
            })
    }

    /// Sets the numbers of the leaf `leaf` (a worker's estimate or proof) and updates its
    /// ancestors; ignored for a node with children or already solved.
    pub(crate) fn set_leaf_numbers(&mut self, leaf: u32, pn: u32, dn: u32) {
        let Some(node) = self.nodes[..self.used as usize].get_mut(leaf as usize) else {
            return;
        };
        if node.children > 0 || node.is_solved() {
            return;
        }
        node.pn = pn;
        node.dn = dn;
        self.update(leaf);
    }

    /// Expands the leaf `reserved[slot]` at `position`, its children taking `numbers` (in
    /// move order; initial numbers if the count differs, when the worker did not expand
    /// it), and updates its ancestors. A collection renumbers every index in `reserved`
    /// ([`NONE`] for freed ones). `false`, with [`SolveStats::out_of_storage`] set, if the
    /// children do not fit.
    pub(crate) fn expand_reserved(
        &mut self,
        slot: usize,
        position: &G,
        numbers: &[(u32, u32)],
        reserved: &mut [u32],
    ) -> bool {
        let mut moves = G::Moves::default();
        position.proof_moves(&mut moves);
        let leaf = reserved[slot];
        if leaf == NONE || self.nodes[leaf as usize].children > 0 {
            return true;
        }
        if moves.is_empty() {
            self.set_lost(leaf);
            return true;
        }
        if !self.make_room(moves.len(), reserved) {
            self.stats.out_of_storage = true;
            return false;
        }
        let leaf = reserved[slot];
        if leaf == NONE {
            return true;
        }
        let informed = numbers.len() == moves.len();
        self.attach_children(leaf, position, &moves, |i, child, mobility| {
            if informed {
                numbers[i]
            } else {
                initial(child, mobility)
            }
        });
        true
    }

    /// Counts nodes touched elsewhere for this search (by PPN²'s workers).
    pub(crate) fn add_touched(&mut self, touched: u64) {
        self.stats.touched += touched;
    }
}
