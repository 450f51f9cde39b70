//! One thread's storage for the Match-3 agents' searches: tree nodes and the states a search
//! keeps, allocated once per thread and lent to every game it plays.
use crate::match3::{Searched, Storage, Swap, nodes_for, states_for};
use crate::search::mcts::{CachedState, Node};

pub(super) struct AgentStorage<'l> {
    nodes: Vec<Node<Swap>>,
    states: Vec<CachedState<Searched<'l>>>,
}

impl<'l> AgentStorage<'l> {
    /// Storage with which no search of `iterations` iterations runs out of nodes or states;
    /// empty when `searches` is false (the Random agent).
    pub(super) fn new(iterations: u32, searches: bool) -> Self {
        if !searches {
            return AgentStorage {
                nodes: Vec::new(),
                states: Vec::new(),
            };
        }
        AgentStorage {
            nodes: vec![Node::default(); nodes_for(iterations)],
            states: vec![CachedState::default(); states_for(iterations)],
        }
    }

    /// The storage lent to one game.
    pub(super) fn lend(&mut self) -> Storage<'_, 'l> {
        Storage {
            nodes: &mut self.nodes,
            states: &mut self.states,
        }
    }
}
