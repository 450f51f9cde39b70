//! Heads-up no-limit Texas Hold'em: cards and the hand evaluator.
