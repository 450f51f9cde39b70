//! The paper's bot assembled from arbor's parts: the expert bot (preflop chart, with a
//! style) before the flop, the staged search after it with the expert model at our own
//! nodes, and a choice of opponent model at the opponent's: the expert library again
//! (EXP+EXP), the shipped CNN (EXP+model), or the CNN as the prior of counts that adapt
//! during the match. With re-solve iterations the river is played by CFR (EXP+CFR).
#[cfg(not(feature = "std"))]
use super::bot::NoResolveStorage;
use super::bot::{StagedBot, StagedSettings};
use crate::holdem::equity::COMBOS;
use crate::holdem::expert::{ExpertBot, ExpertModel, Style};
use crate::holdem::learned::{LearnedError, LearnedPart, LearnedReader, LearnedWriter};
use crate::holdem::model::{CachingCnn, CnnModel, OnlineModel};
use crate::holdem::policy::{ActionModel, ClassProbabilities};
use crate::holdem::rules::{HandState, Position};

/// How much the online model's prior weighs, in observations of a situation.
pub const ONLINE_PRIOR_STRENGTH: f32 = 10.0;

/// The opponent models the paper's bot can play with.
// The core has no allocator to box the expert model's tables; one model is made per bot.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum OpponentModel {
    /// The expert library's rules, balanced style, judging hands against a uniform range.
    Expert(ExpertModel),
    /// The shipped CNN.
    Cnn(CachingCnn<'static>),
    /// Per-situation counts of the opponent's actions over the CNN as prior.
    Online(OnlineModel<CachingCnn<'static>>),
}

impl OpponentModel {
    /// The names [`OpponentModel::named`] takes.
    pub const NAMES: [&'static str; 3] = ["expert", "cnn", "online"];

    /// The model of this name.
    pub fn named(name: &str) -> Option<OpponentModel> {
        Some(match name {
            "expert" => OpponentModel::Expert(uniform_expert(Style::BALANCED)),
            "cnn" => OpponentModel::Cnn(shipped_cnn()),
            "online" => {
                OpponentModel::Online(OnlineModel::new(shipped_cnn(), ONLINE_PRIOR_STRENGTH))
            }
            _ => return None,
        })
    }
}

impl ActionModel for OpponentModel {
    fn predict(&self, hand: &HandState) -> ClassProbabilities {
        match self {
            OpponentModel::Expert(model) => model.predict(hand),
            OpponentModel::Cnn(model) => model.predict(hand),
            OpponentModel::Online(model) => model.predict(hand),
        }
    }

    fn observe_hand(&mut self, seen: &HandState, observer: Position) {
        match self {
            OpponentModel::Expert(model) => model.observe_hand(seen, observer),
            OpponentModel::Cnn(model) => model.observe_hand(seen, observer),
            OpponentModel::Online(model) => model.observe_hand(seen, observer),
        }
    }
}

/// The online model's counts; the other models learn nothing.
impl LearnedPart for OpponentModel {
    fn write_learned(&self, out: &mut LearnedWriter<'_>) {
        if let OpponentModel::Online(model) = self {
            model.write_learned(out);
        }
    }

    fn read_learned(&mut self, input: &mut LearnedReader<'_>) -> Result<(), LearnedError> {
        match self {
            OpponentModel::Online(model) => model.read_learned(input),
            _ => Ok(()),
        }
    }
}

/// The shipped CNN, asked about one situation's holdings in a row.
const fn shipped_cnn() -> CachingCnn<'static> {
    CachingCnn::new(CnnModel::shipped())
}

/// The expert model of `style` for any board, against a uniform range.
fn uniform_expert(style: Style) -> ExpertModel {
    ExpertModel::new(style, &[], &[1.0; COMBOS])
}

/// Where the river re-solver keeps its values: a growing vector with `std`, none without
/// (re-solving then needs [`StagedBot::with_storage`] and a caller slice).
#[cfg(feature = "std")]
pub type ResolveScratch = std::vec::Vec<f32>;
/// Where the river re-solver keeps its values: a growing vector with `std`, none without
/// (re-solving then needs [`StagedBot::with_storage`] and a caller slice).
#[cfg(not(feature = "std"))]
pub type ResolveScratch = NoResolveStorage;

/// The paper's bot.
pub type PaperBot = StagedBot<OpponentModel, ExpertModel, ResolveScratch, ExpertBot>;

/// The paper's bot with `settings`, playing `style` (preflop and at its own nodes) against
/// the model `opponent`.
pub fn paper_bot(settings: StagedSettings, style: Style, opponent: OpponentModel) -> PaperBot {
    StagedBot::with_storage(
        settings,
        opponent,
        uniform_expert(style),
        ResolveScratch::default(),
    )
    .with_preflop(ExpertBot::new(style, settings.seed))
}
