//! The CNN opponent model's inference, in fixed arrays: the planes of [`super::features`]
//! → 5×5 convolution (6 filters, 20→16) → ReLU → 2×2 max-pool (16→8) → 5×5 convolution
//! (8 filters, 8→4) → ReLU → dense (128 → 5) → softmax over the legal classes. Dropout
//! acts only in training (in the harness), so inference has none.
//!
//! The first convolution is linear in its input, and only the hole-cards plane changes
//! between the holdings of one range update: [`CnnModel::prepare`] convolves the public
//! planes once and [`Prepared::predict`] adds the few hole-card cells per holding, which is
//! what `Range::observe`-style sweeps over 1,326 holdings should use.
use core::cell::RefCell;

use super::features::{HOLE_PLANE, PLANES, Planes, SIDE, encode_hole, encode_public};
use super::legal_classes;
use crate::holdem::card::Card;
use crate::holdem::policy::{ACTION_CLASSES, ActionModel, ClassProbabilities};
use crate::holdem::rules::{HandState, Position};

/// Filter size of both convolutions.
pub const KERNEL: usize = 5;
/// Filters of the first convolution.
pub const FILTERS1: usize = 6;
/// Side of the first convolution's output.
pub const CONV1_SIDE: usize = SIDE - KERNEL + 1;
/// Side after max-pooling.
pub const POOLED_SIDE: usize = CONV1_SIDE / 2;
/// Filters of the second convolution.
pub const FILTERS2: usize = 8;
/// Side of the second convolution's output.
pub const CONV2_SIDE: usize = POOLED_SIDE - KERNEL + 1;
/// Inputs of the dense layer.
pub const HIDDEN: usize = FILTERS2 * CONV2_SIDE * CONV2_SIDE;

/// A 5×5 filter over `N` input planes.
pub type Filter<const N: usize> = [[[f32; KERNEL]; KERNEL]; N];

/// Every parameter of the network.
#[derive(Clone, Debug, PartialEq)]
pub struct CnnWeights {
    pub conv1: [Filter<PLANES>; FILTERS1],
    pub conv1_bias: [f32; FILTERS1],
    pub conv2: [Filter<FILTERS1>; FILTERS2],
    pub conv2_bias: [f32; FILTERS2],
    /// Rows by class; columns index the second convolution's output as
    /// `(filter * CONV2_SIDE + row) * CONV2_SIDE + column`.
    pub dense: [[f32; HIDDEN]; ACTION_CLASSES],
    pub dense_bias: [f32; ACTION_CLASSES],
}

/// Parameters in [`CnnWeights`].
pub const PARAMETERS: usize = FILTERS1 * (PLANES * KERNEL * KERNEL + 1)
    + FILTERS2 * (FILTERS1 * KERNEL * KERNEL + 1)
    + ACTION_CLASSES * (HIDDEN + 1);

/// Size of the weights in bytes (f32 each).
pub const WEIGHT_BYTES: usize = PARAMETERS * 4;

impl CnnWeights {
    /// All zero (a network that predicts the uniform distribution over legal classes).
    pub const ZERO: CnnWeights = CnnWeights {
        conv1: [[[[0.0; KERNEL]; KERNEL]; PLANES]; FILTERS1],
        conv1_bias: [0.0; FILTERS1],
        conv2: [[[[0.0; KERNEL]; KERNEL]; FILTERS1]; FILTERS2],
        conv2_bias: [0.0; FILTERS2],
        dense: [[0.0; HIDDEN]; ACTION_CLASSES],
        dense_bias: [0.0; ACTION_CLASSES],
    };
}

/// The first convolution's pre-activations.
pub type Conv1Out = [[[f32; CONV1_SIDE]; CONV1_SIDE]; FILTERS1];

/// The CNN as an [`ActionModel`].
#[derive(Clone, Copy, Debug)]
pub struct CnnModel<'a> {
    weights: &'a CnnWeights,
}

/// The first convolution of the public planes of one hand, ready for many holdings.
#[derive(Clone, Debug)]
pub struct Prepared<'a> {
    weights: &'a CnnWeights,
    public: Conv1Out,
    legal: [bool; ACTION_CLASSES],
}

impl<'a> CnnModel<'a> {
    pub const fn new(weights: &'a CnnWeights) -> CnnModel<'a> {
        CnnModel { weights }
    }

    /// The shipped network ([`super::weights::SHIPPED_CNN`]).
    pub const fn shipped() -> CnnModel<'static> {
        CnnModel {
            weights: &super::weights::SHIPPED_CNN,
        }
    }

    pub const fn weights(&self) -> &'a CnnWeights {
        self.weights
    }

    /// The probabilities for planes already encoded, masked to `legal`.
    pub fn predict_planes(
        &self,
        planes: &Planes,
        legal: [bool; ACTION_CLASSES],
    ) -> ClassProbabilities {
        let conv1 = conv1(self.weights, planes);
        head(self.weights, &conv1, legal)
    }

    /// The public part of the first convolution for the player to act in `hand`; `None`
    /// when nobody is to act.
    pub fn prepare(&self, hand: &HandState) -> Option<Prepared<'a>> {
        let actor = hand.to_act()?;
        Some(self.prepare_for(hand, actor))
    }

    fn prepare_for(&self, hand: &HandState, actor: Position) -> Prepared<'a> {
        let planes = encode_public(hand, actor);
        Prepared {
            weights: self.weights,
            public: conv1(self.weights, &planes),
            legal: legal_classes(hand),
        }
    }
}

impl Prepared<'_> {
    /// The probabilities when the actor holds `hole`: the public convolution plus the
    /// hole-card cells' share, then the rest of the network.
    pub fn predict(&self, hole: [Card; 2]) -> ClassProbabilities {
        let mut plane = [[0.0f32; SIDE]; SIDE];
        encode_hole(&mut plane, hole);
        let mut out = self.public;
        // Only rows 0..5 of the hole plane hold anything; each cell reaches the outputs
        // whose 5×5 window covers it.
        for (row, cells) in plane.iter().enumerate().take(5) {
            for (column, &value) in cells.iter().enumerate() {
                if value == 0.0 {
                    continue;
                }
                for (filter, maps) in out.iter_mut().enumerate() {
                    let kernel = &self.weights.conv1[filter][HOLE_PLANE];
                    for (ky, kernel_row) in kernel.iter().enumerate() {
                        let Some(y) = row.checked_sub(ky).filter(|&y| y < CONV1_SIDE) else {
                            continue;
                        };
                        for (kx, &w) in kernel_row.iter().enumerate() {
                            if let Some(x) = column.checked_sub(kx).filter(|&x| x < CONV1_SIDE) {
                                maps[y][x] += w * value;
                            }
                        }
                    }
                }
            }
        }
        head(self.weights, &out, self.legal)
    }
}

impl ActionModel for CnnModel<'_> {
    fn predict(&self, hand: &HandState) -> ClassProbabilities {
        let Some(actor) = hand.to_act() else {
            return [0.0; ACTION_CLASSES];
        };
        let Some(hole) = hand.hole_cards(actor) else {
            // Without the actor's cards the model has nothing to condition on: uniform.
            return super::uniform_legal(legal_classes(hand));
        };
        self.prepare_for(hand, actor).predict(hole)
    }
}

/// The CNN that keeps the public part of the first convolution of the last situation it was
/// asked about, so that asking about every holding of one situation in a row (a range
/// update, an opponent node of a search) costs the per-holding part only.
#[derive(Clone, Debug)]
pub struct CachingCnn<'a> {
    model: CnnModel<'a>,
    /// The last situation (its hole cards ignored) and its prepared convolution.
    last: RefCell<Option<(HandState, Prepared<'a>)>>,
}

impl<'a> CachingCnn<'a> {
    pub const fn new(model: CnnModel<'a>) -> CachingCnn<'a> {
        CachingCnn {
            model,
            last: RefCell::new(None),
        }
    }
}

impl ActionModel for CachingCnn<'_> {
    fn predict(&self, hand: &HandState) -> ClassProbabilities {
        let Some(actor) = hand.to_act() else {
            return [0.0; ACTION_CLASSES];
        };
        let Some(hole) = hand.hole_cards(actor) else {
            return self.model.predict(hand);
        };
        let mut last = self.last.borrow_mut();
        match &*last {
            // The public planes never read hole cards, so any situation equal apart from
            // them shares the prepared convolution (cloning and comparing whole states per
            // holding cost more than the comparison of the actions played).
            Some((situation, prepared)) if situation.same_but_hole_cards(hand) => {
                prepared.predict(hole)
            }
            _ => {
                let prepared = self.model.prepare_for(hand, actor);
                let probabilities = prepared.predict(hole);
                *last = Some((hand.clone(), prepared));
                probabilities
            }
        }
    }
}

/// The first convolution (with bias, before the ReLU).
fn conv1(weights: &CnnWeights, planes: &Planes) -> Conv1Out {
    let mut out = [[[0.0f32; CONV1_SIDE]; CONV1_SIDE]; FILTERS1];
    for (filter, maps) in out.iter_mut().enumerate() {
        for row in maps.iter_mut() {
            row.fill(weights.conv1_bias[filter]);
        }
        for (plane, kernel) in planes.iter().zip(&weights.conv1[filter]) {
            for (y, out_row) in maps.iter_mut().enumerate() {
                for (ky, kernel_row) in kernel.iter().enumerate() {
                    let input = &plane[y + ky];
                    for (kx, &w) in kernel_row.iter().enumerate() {
                        for (x, cell) in out_row.iter_mut().enumerate() {
                            *cell += w * input[x + kx];
                        }
                    }
                }
            }
        }
    }
    out
}

/// ReLU, pooling, the second convolution, the dense layer and the masked softmax.
fn head(
    weights: &CnnWeights,
    conv1: &Conv1Out,
    legal: [bool; ACTION_CLASSES],
) -> ClassProbabilities {
    let mut pooled = [[[0.0f32; POOLED_SIDE]; POOLED_SIDE]; FILTERS1];
    for (maps, source) in pooled.iter_mut().zip(conv1) {
        for (y, row) in maps.iter_mut().enumerate() {
            for (x, cell) in row.iter_mut().enumerate() {
                let a = source[2 * y][2 * x].max(source[2 * y][2 * x + 1]);
                let b = source[2 * y + 1][2 * x].max(source[2 * y + 1][2 * x + 1]);
                // ReLU after the max equals the max after ReLU.
                *cell = a.max(b).max(0.0);
            }
        }
    }
    // Weight by weight over the 4×4 outputs: fixed-size inner loops the compiler unrolls.
    let mut hidden = [0.0f32; HIDDEN];
    for (filter, kernels) in weights.conv2.iter().enumerate() {
        let mut out = [[weights.conv2_bias[filter]; CONV2_SIDE]; CONV2_SIDE];
        for (input, kernel) in pooled.iter().zip(kernels) {
            for (ky, kernel_row) in kernel.iter().enumerate() {
                for (kx, &w) in kernel_row.iter().enumerate() {
                    for (out_row, input_row) in out.iter_mut().zip(&input[ky..]) {
                        for (cell, &value) in out_row.iter_mut().zip(&input_row[kx..]) {
                            *cell += w * value;
                        }
                    }
                }
            }
        }
        let at = filter * CONV2_SIDE * CONV2_SIDE;
        for (slot, &value) in hidden[at..].iter_mut().zip(out.iter().flatten()) {
            *slot = value.max(0.0);
        }
    }
    let mut logits = weights.dense_bias;
    for (logit, row) in logits.iter_mut().zip(&weights.dense) {
        *logit += row.iter().zip(&hidden).map(|(w, h)| w * h).sum::<f32>();
    }
    super::softmax_legal(logits, legal)
}
