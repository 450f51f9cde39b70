//! Training the CNN: a hand-written forward and backward pass in f32 with dropout before
//! the dense layer and Adam, seeded and single-threaded, so the same data and seed give
//! the same weights bit for bit. Hand-written because the network is tiny (2,459
//! parameters): an ML crate would bring a large dependency tree to the build for a few
//! hundred lines of loops. The forward pass here scatters the sparse input (most of the
//! 1,600 cells are zero) instead of sliding the filters as the no_std inference does; a
//! test checks that the two agree.
use rand_core::Rng;

use crate::holdem::model::cnn::{
    CONV1_SIDE, CONV2_SIDE, CnnWeights, FILTERS1, FILTERS2, HIDDEN, KERNEL, PARAMETERS, POOLED_SIDE,
};
use crate::holdem::model::features::{PLANES, Planes};
use crate::holdem::model::softmax_legal;
use crate::holdem::policy::{ACTION_CLASSES, ClassProbabilities};
use crate::search::game::seeded_rng;

/// One training sample: the planes, the legal classes and the class played.
pub struct Sample {
    pub planes: Planes,
    pub legal: [bool; ACTION_CLASSES],
    pub label: usize,
}

/// The training settings.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub epochs: u32,
    pub batch: usize,
    pub learning_rate: f32,
    /// The chance of dropping each dense input in training.
    pub dropout: f32,
    pub seed: u64,
}

/// What the forward pass keeps for the backward pass.
struct Trace {
    conv1: [[[f32; CONV1_SIDE]; CONV1_SIDE]; FILTERS1],
    pooled: [[[f32; POOLED_SIDE]; POOLED_SIDE]; FILTERS1],
    /// Where each pooled value came from, as (row, column) in the first convolution.
    argmax: [[[(u8, u8); POOLED_SIDE]; POOLED_SIDE]; FILTERS1],
    conv2: [f32; HIDDEN],
    hidden: [f32; HIDDEN],
    mask: [f32; HIDDEN],
    probabilities: ClassProbabilities,
}

/// The parameters as one flat vector, in the order of [`CnnWeights`]' fields.
pub fn flatten(weights: &CnnWeights) -> Vec<f32> {
    let mut flat = Vec::with_capacity(PARAMETERS);
    flat.extend(weights.conv1.iter().flatten().flatten().flatten());
    flat.extend(&weights.conv1_bias);
    flat.extend(weights.conv2.iter().flatten().flatten().flatten());
    flat.extend(&weights.conv2_bias);
    flat.extend(weights.dense.iter().flatten());
    flat.extend(&weights.dense_bias);
    flat
}

/// The inverse of [`flatten`] (missing values stay 0).
pub fn unflatten(flat: &[f32]) -> CnnWeights {
    let mut weights = CnnWeights::ZERO;
    let mut values = flat.iter().copied();
    let slots = weights
        .conv1
        .iter_mut()
        .flatten()
        .flatten()
        .flatten()
        .chain(weights.conv1_bias.iter_mut())
        .chain(weights.conv2.iter_mut().flatten().flatten().flatten())
        .chain(weights.conv2_bias.iter_mut())
        .chain(weights.dense.iter_mut().flatten())
        .chain(weights.dense_bias.iter_mut());
    for slot in slots {
        *slot = values.next().unwrap_or(0.0);
    }
    weights
}

/// He-uniform initial weights, zero biases.
pub fn initial_weights(seed: u64) -> CnnWeights {
    let mut rng = seeded_rng(seed);
    let mut weights = CnnWeights::ZERO;
    let mut fill = |slots: &mut dyn Iterator<Item = &mut f32>, fan_in: usize| {
        let limit = (6.0 / fan_in as f32).sqrt();
        for slot in slots {
            let unit = (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
            *slot = (2.0 * unit - 1.0) * limit;
        }
    };
    fill(
        &mut weights.conv1.iter_mut().flatten().flatten().flatten(),
        PLANES * KERNEL * KERNEL,
    );
    fill(
        &mut weights.conv2.iter_mut().flatten().flatten().flatten(),
        FILTERS1 * KERNEL * KERNEL,
    );
    fill(&mut weights.dense.iter_mut().flatten(), HIDDEN);
    weights
}

/// The prediction of the training path, without dropout (for the agreement test).
#[cfg(test)]
pub fn predict(weights: &CnnWeights, sample: &Sample) -> ClassProbabilities {
    forward(weights, sample, None).probabilities
}

fn forward(weights: &CnnWeights, sample: &Sample, mask: Option<&[f32; HIDDEN]>) -> Trace {
    let mut conv1 = [[[0.0f32; CONV1_SIDE]; CONV1_SIDE]; FILTERS1];
    for (filter, maps) in conv1.iter_mut().enumerate() {
        for row in maps.iter_mut() {
            row.fill(weights.conv1_bias[filter]);
        }
    }
    // Scatter every non-zero input cell to the outputs whose window covers it.
    for (plane, cells) in sample.planes.iter().enumerate() {
        for (row, line) in cells.iter().enumerate() {
            for (column, &value) in line.iter().enumerate() {
                if value == 0.0 {
                    continue;
                }
                let ky_range = row.saturating_sub(CONV1_SIDE - 1)..=row.min(KERNEL - 1);
                let kx_range = column.saturating_sub(CONV1_SIDE - 1)..=column.min(KERNEL - 1);
                for (filter, maps) in conv1.iter_mut().enumerate() {
                    let kernel = &weights.conv1[filter][plane];
                    for ky in ky_range.clone() {
                        for kx in kx_range.clone() {
                            maps[row - ky][column - kx] += kernel[ky][kx] * value;
                        }
                    }
                }
            }
        }
    }
    let mut pooled = [[[0.0f32; POOLED_SIDE]; POOLED_SIDE]; FILTERS1];
    let mut argmax = [[[(0u8, 0u8); POOLED_SIDE]; POOLED_SIDE]; FILTERS1];
    for filter in 0..FILTERS1 {
        for y in 0..POOLED_SIDE {
            for x in 0..POOLED_SIDE {
                let mut best = (2 * y, 2 * x);
                for (dy, dx) in [(0, 1), (1, 0), (1, 1)] {
                    let (cy, cx) = (2 * y + dy, 2 * x + dx);
                    if conv1[filter][cy][cx] > conv1[filter][best.0][best.1] {
                        best = (cy, cx);
                    }
                }
                pooled[filter][y][x] = conv1[filter][best.0][best.1].max(0.0);
                argmax[filter][y][x] = (best.0 as u8, best.1 as u8);
            }
        }
    }
    let mut conv2 = [0.0f32; HIDDEN];
    let mut hidden = [0.0f32; HIDDEN];
    for filter in 0..FILTERS2 {
        for y in 0..CONV2_SIDE {
            for x in 0..CONV2_SIDE {
                let mut sum = weights.conv2_bias[filter];
                for (input, kernel) in pooled.iter().zip(&weights.conv2[filter]) {
                    for ky in 0..KERNEL {
                        for kx in 0..KERNEL {
                            sum += kernel[ky][kx] * input[y + ky][x + kx];
                        }
                    }
                }
                let at = (filter * CONV2_SIDE + y) * CONV2_SIDE + x;
                conv2[at] = sum;
                hidden[at] = sum.max(0.0) * mask.map_or(1.0, |m| m[at]);
            }
        }
    }
    let mut logits = weights.dense_bias;
    for (logit, row) in logits.iter_mut().zip(&weights.dense) {
        for (w, h) in row.iter().zip(&hidden) {
            *logit += w * h;
        }
    }
    Trace {
        conv1,
        pooled,
        argmax,
        conv2,
        hidden,
        mask: mask.copied().unwrap_or([1.0; HIDDEN]),
        probabilities: softmax_legal(logits, sample.legal),
    }
}

/// Adds the gradient of the cross-entropy of `sample` to `gradient`; returns the loss.
// The index loops spell out the chain rule with the same indices as the forward pass;
// iterator chains over four arrays at once would hide which weight meets which input.
#[allow(clippy::needless_range_loop)]
fn backward(
    weights: &CnnWeights,
    sample: &Sample,
    trace: &Trace,
    gradient: &mut CnnWeights,
) -> f32 {
    let p = trace.probabilities;
    let loss = -p[sample.label].max(1e-7).ln();
    let mut d_logits = p;
    d_logits[sample.label] -= 1.0;
    let mut d_hidden = [0.0f32; HIDDEN];
    for class in 0..ACTION_CLASSES {
        let d = d_logits[class];
        if d == 0.0 {
            continue;
        }
        gradient.dense_bias[class] += d;
        for i in 0..HIDDEN {
            gradient.dense[class][i] += d * trace.hidden[i];
            d_hidden[i] += d * weights.dense[class][i];
        }
    }
    let mut d_pooled = [[[0.0f32; POOLED_SIDE]; POOLED_SIDE]; FILTERS1];
    for filter in 0..FILTERS2 {
        for y in 0..CONV2_SIDE {
            for x in 0..CONV2_SIDE {
                let at = (filter * CONV2_SIDE + y) * CONV2_SIDE + x;
                if trace.conv2[at] <= 0.0 {
                    continue;
                }
                let d = d_hidden[at] * trace.mask[at];
                if d == 0.0 {
                    continue;
                }
                gradient.conv2_bias[filter] += d;
                for input in 0..FILTERS1 {
                    for ky in 0..KERNEL {
                        for kx in 0..KERNEL {
                            gradient.conv2[filter][input][ky][kx] +=
                                d * trace.pooled[input][y + ky][x + kx];
                            d_pooled[input][y + ky][x + kx] +=
                                d * weights.conv2[filter][input][ky][kx];
                        }
                    }
                }
            }
        }
    }
    for filter in 0..FILTERS1 {
        for y in 0..POOLED_SIDE {
            for x in 0..POOLED_SIDE {
                let d = d_pooled[filter][y][x];
                let (cy, cx) = trace.argmax[filter][y][x];
                let (cy, cx) = (usize::from(cy), usize::from(cx));
                if d == 0.0 || trace.conv1[filter][cy][cx] <= 0.0 {
                    continue;
                }
                gradient.conv1_bias[filter] += d;
                for plane in 0..PLANES {
                    for ky in 0..KERNEL {
                        for kx in 0..KERNEL {
                            gradient.conv1[filter][plane][ky][kx] +=
                                d * sample.planes[plane][cy + ky][cx + kx];
                        }
                    }
                }
            }
        }
    }
    loss
}

/// Adam's state.
struct Adam {
    first: Vec<f32>,
    second: Vec<f32>,
    steps: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn step(&mut self, params: &mut [f32], gradient: &[f32], learning_rate: f32) {
        self.steps += 1;
        let correction1 = 1.0 - Self::BETA1.powi(self.steps);
        let correction2 = 1.0 - Self::BETA2.powi(self.steps);
        for (((p, g), m), v) in params
            .iter_mut()
            .zip(gradient)
            .zip(&mut self.first)
            .zip(&mut self.second)
        {
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            let m_hat = *m / correction1;
            let v_hat = *v / correction2;
            *p -= learning_rate * m_hat / (v_hat.sqrt() + Self::EPSILON);
        }
    }
}

/// Trains from `initial` on the samples `sample(i)` for i in 0..count, shuffled each epoch;
/// `report` hears each epoch's mean training loss.
pub fn train(
    initial: &CnnWeights,
    count: usize,
    sample: &dyn Fn(usize) -> Sample,
    settings: Settings,
    report: &mut dyn FnMut(u32, f32),
) -> CnnWeights {
    let mut params = flatten(initial);
    let mut adam = Adam {
        first: vec![0.0; params.len()],
        second: vec![0.0; params.len()],
        steps: 0,
    };
    let mut rng = seeded_rng(settings.seed);
    let mut order: Vec<usize> = (0..count).collect();
    let batch = settings.batch.max(1);
    let keep = 1.0 - settings.dropout.clamp(0.0, 0.9);
    for epoch in 0..settings.epochs {
        // Fisher–Yates with the seeded generator.
        for i in (1..order.len()).rev() {
            let j = ((u64::from(rng.next_u32()) * (i as u64 + 1)) >> 32) as usize;
            order.swap(i, j);
        }
        let mut total_loss = 0.0f64;
        for chunk in order.chunks(batch) {
            let weights = unflatten(&params);
            let mut gradient = CnnWeights::ZERO;
            for &index in chunk {
                let sample = sample(index);
                let mut mask = [0.0f32; HIDDEN];
                for m in &mut mask {
                    let unit = (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
                    *m = if unit < keep { 1.0 / keep } else { 0.0 };
                }
                let trace = forward(&weights, &sample, Some(&mask));
                total_loss += f64::from(backward(&weights, &sample, &trace, &mut gradient));
            }
            let mut flat_gradient = flatten(&gradient);
            let scale = 1.0 / chunk.len() as f32;
            flat_gradient.iter_mut().for_each(|g| *g *= scale);
            adam.step(&mut params, &flat_gradient, settings.learning_rate);
        }
        report(epoch + 1, (total_loss / count.max(1) as f64) as f32);
    }
    unflatten(&params)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::holdem::Card;
    use crate::holdem::model::CnnModel;
    use crate::holdem::model::features::encode;
    use crate::holdem::model::legal_classes;
    use crate::holdem::policy::ActionModel;
    use crate::holdem::rules::{Action, HandState, HoldemConfig};

    fn hand(hole: [&str; 2], raise_first: bool) -> HandState {
        let mut hand = HandState::new(HoldemConfig::ACPC);
        let card = |t: &str| Card::parse(t).unwrap();
        hand.deal_hole_cards(1, hole.map(card)).unwrap();
        hand.deal_hole_cards(0, ["5c", "4d"].map(card)).unwrap();
        if raise_first {
            hand.apply(Action::RaiseTo(300)).unwrap();
        }
        hand
    }

    fn sample_of(hand: &HandState, label: usize) -> Sample {
        let actor = hand.to_act().unwrap();
        Sample {
            planes: encode(hand, actor, hand.hole_cards(actor).unwrap()),
            legal: legal_classes(hand),
            label,
        }
    }

    #[test]
    fn the_training_path_and_the_no_std_path_agree() {
        let weights = initial_weights(3);
        let model = CnnModel::new(&weights);
        for (hole, raised) in [
            (["As", "Ah"], false),
            (["7c", "2d"], false),
            (["Kh", "Qh"], true),
        ] {
            let state = hand(hole, raised);
            let sample = sample_of(&state, 1);
            let trained = predict(&weights, &sample);
            let inferred = model.predict(&state);
            for (a, b) in trained.iter().zip(&inferred) {
                assert!((a - b).abs() < 1e-5, "{trained:?} {inferred:?}");
            }
        }
        assert_eq!(unflatten(&flatten(&weights)), weights);
        assert_eq!(flatten(&weights).len(), PARAMETERS);
    }

    #[test]
    fn a_tiny_seeded_run_lowers_the_loss_and_repeats_exactly() {
        // Pairs raise, everything else calls: the cards decide the class.
        let holes = [
            ["As", "Ah"],
            ["7c", "7d"],
            ["2h", "2s"],
            ["Kc", "Kd"],
            ["As", "Kd"],
            ["7c", "2d"],
            ["9h", "4s"],
            ["Jc", "3d"],
        ];
        let samples: Vec<(HandState, usize)> = holes
            .iter()
            .map(|&hole| {
                let state = hand(hole, false);
                let pair = hole[0].as_bytes()[0] == hole[1].as_bytes()[0];
                (state, if pair { 3 } else { 1 })
            })
            .collect();
        let make = |i: usize| sample_of(&samples[i].0, samples[i].1);
        let settings = Settings {
            epochs: 60,
            batch: 4,
            learning_rate: 0.01,
            dropout: 0.0,
            seed: 11,
        };
        let mut losses = Vec::new();
        let trained = train(
            &initial_weights(1),
            samples.len(),
            &make,
            settings,
            &mut |_, loss| losses.push(loss),
        );
        assert!(losses[losses.len() - 1] < 0.5 * losses[0], "{losses:?}");
        let again = train(
            &initial_weights(1),
            samples.len(),
            &make,
            settings,
            &mut |_, _| {},
        );
        assert_eq!(flatten(&trained), flatten(&again));
        let model = CnnModel::new(&trained);
        assert!(model.predict(&samples[0].0)[3] > 0.5);
        assert!(model.predict(&samples[5].0)[1] > 0.5);
    }
}
