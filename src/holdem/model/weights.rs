//! Placeholder: replaced by `arbor holdem-model train --out src/holdem/model/weights.rs`.
use super::cnn::CnnWeights;

pub const SHIPPED_CNN: CnnWeights = CnnWeights::ZERO;
