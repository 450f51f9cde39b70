//! One thread's storage for the Match-3 agents' searches: tree nodes and the states a search
//! keeps, allocated once per thread and lent to every game it plays.
use super::Failure;
use super::resources::{bytes_of, check_memory, filled};
use crate::match3::{Searched, Storage, Swap, nodes_for, states_for};
use crate::search::mcts::{CachedState, Node};

pub(super) struct AgentStorage<'l> {
    nodes: Vec<Node<Swap>>,
    states: Vec<CachedState<Searched<'l>>>,
}

impl<'l> AgentStorage<'l> {
    /// The bytes [`AgentStorage::new`] takes for `iterations`, or `None` past `u64`.
    pub(super) fn bytes(iterations: u32) -> Option<u64> {
        bytes_of::<Node<Swap>>(nodes_for(iterations))?.checked_add(bytes_of::<
            CachedState<Searched<'l>>,
        >(states_for(
            iterations,
        ))?)
    }

    /// Storage with which no search of `iterations` iterations runs out of nodes or states;
    /// empty when `searches` is false (the Random agent). A message when it cannot be
    /// allocated.
    pub(super) fn new(iterations: u32, searches: bool) -> Result<Self, String> {
        if !searches {
            return Ok(AgentStorage {
                nodes: Vec::new(),
                states: Vec::new(),
            });
        }
        Ok(AgentStorage {
            nodes: filled(nodes_for(iterations), Node::default(), "the search tree")?,
            states: filled(
                states_for(iterations),
                CachedState::default(),
                "search states",
            )?,
        })
    }

    /// Refuses `threads` storages for `iterations` when the machine cannot hold them.
    pub(super) fn check(iterations: u32, threads: usize) -> Result<(), Failure> {
        let total = Self::bytes(iterations).and_then(|b| b.checked_mul(threads as u64));
        check_memory(
            total,
            &format!("the search trees of {threads} thread(s) at {iterations} iterations"),
        )
    }

    /// The storage lent to one game.
    pub(super) fn lend(&mut self) -> Storage<'_, 'l> {
        Storage {
            nodes: &mut self.nodes,
            states: &mut self.states,
        }
    }
}
