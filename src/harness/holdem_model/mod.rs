//! `arbor holdem train-model` and `arbor holdem eval-model`: generate hand histories from a
//! population of bots, train and evaluate the opponent models of `crate::holdem::model`
//! (majority class, betting-sequence frequencies, the CNN, the online model), and write the
//! CNN's weights as a const table.
mod dataset;
mod evaluate;
mod export;
mod population;
mod train;

use std::time::Instant;

use super::args::{Command, Kind, Opt, SEED};
use super::{Args, Failure};
use crate::holdem::model::features::{HOLE_PLANE, encode_hole, encode_public};
use crate::holdem::model::observe_with_cnn;
use crate::holdem::model::{
    CnnModel, CnnWeights, FrequencyModel, MarginalModel, OnlineModel, WEIGHT_BYTES, legal_classes,
};
use crate::holdem::policy::{ActionClass, ActionModel};
use crate::holdem::range::Range;
use crate::holdem::{COMBOS, combo_cards};
use dataset::{Dataset, Decision};
use evaluate::{Score, score};
use population::{DEFAULT_HOLDOUT, DEFAULT_POPULATION, Member, parse_member, parse_population};

const HANDS: Opt = Opt::new(
    "hands",
    "N",
    Kind::Int {
        min: 1,
        max: 1_000_000,
    },
    "hands per match (every pair of the population plays one match)",
)
.or("300");
const POPULATION: Opt = Opt::new(
    "population",
    "LIST",
    Kind::Text,
    "training bots, specs separated by ';'",
)
.or(DEFAULT_POPULATION);
const HOLDOUT: Opt = Opt::new(
    "holdout",
    "SPEC",
    Kind::Text,
    "the bot kept out of training",
)
.or(DEFAULT_HOLDOUT);
const PROGRESS: Opt = Opt::new(
    "progress",
    "on|off",
    Kind::Choice(&["on", "off"]),
    "progress on stderr",
)
.or("on");
const STRENGTH: Opt = Opt::new(
    "prior-strength",
    "X",
    Kind::Real { min: 0.0, max: 1e6 },
    "the online model's prior, in observations",
)
.or("10");

pub const TRAIN: Command = Command {
    name: "holdem train-model",
    operands: "",
    about: "play every pair of the population (--hands each, deal seeds --seed, --seed+1, ...),\n\
            train the frequency model and the CNN on four hands in five, and report accuracy\n\
            and log-loss of the majority class, frequency, CNN and online models on the fifth\n\
            hands and on the held-out bot's decisions; --out writes the CNN as a Rust const\n\
            table (src/holdem/model/weights.rs)",
    options: &[
        HANDS,
        SEED.or("1"),
        Opt::new(
            "epochs",
            "N",
            Kind::Int { min: 1, max: 1_000 },
            "passes over the data",
        )
        .or("8"),
        Opt::new(
            "max-samples",
            "N",
            Kind::Int {
                min: 1,
                max: 100_000_000,
            },
            "training decisions used at most (evenly spread)",
        )
        .or("200000"),
        Opt::new(
            "learning-rate",
            "X",
            Kind::Real {
                min: 1e-6,
                max: 1.0,
            },
            "Adam's step size",
        )
        .or("0.003"),
        Opt::new(
            "dropout",
            "X",
            Kind::Real { min: 0.0, max: 0.9 },
            "dropout before the dense layer",
        )
        .or("0.25"),
        POPULATION,
        HOLDOUT,
        STRENGTH,
        Opt::new(
            "out",
            "FILE",
            Kind::Path,
            "write the weights' Rust source here",
        ),
        PROGRESS,
    ],
};

pub const EVAL: Command = Command {
    name: "holdem eval-model",
    operands: "",
    about: "evaluate the shipped CNN against the majority-class and frequency baselines (fitted\n\
            on four hands in five of freshly generated matches) on the fifth hands and on the\n\
            held-out bot, and time a prediction: the full network, the per-holding path a\n\
            range update uses, and the frequency model",
    options: &[
        HANDS,
        SEED.or("1001"),
        POPULATION,
        HOLDOUT,
        STRENGTH,
        PROGRESS,
    ],
};

pub fn run(command: &Command, args: Args) -> Result<(), Failure> {
    args.no_operands()?;
    let hands: u64 = args.need("hands")?;
    let seed: u64 = args.need("seed")?;
    let seed = u32::try_from(seed)
        .map_err(|_| Failure::Usage(format!("--seed {seed}: the deal seed is at most 2^32-1")))?;
    let mut population =
        parse_population(&args.need::<String>("population")?).map_err(Failure::Usage)?;
    let holdout_spec: String = args.need("holdout")?;
    let mut holdout = parse_member(&holdout_spec).map_err(Failure::Usage)?;
    let progress = args.need::<String>("progress")? == "on";
    let strength = args.need::<f64>("prior-strength")? as f32;

    let started = Instant::now();
    let data = dataset::generate(
        &mut population,
        &mut holdout,
        hands,
        seed,
        &mut |done, all| {
            if progress {
                note!("\rmatches {done}/{all}");
            }
        },
    );
    if progress {
        noteln!();
    }
    let bots_seen: std::collections::BTreeSet<usize> = data.train.iter().map(|d| d.bot).collect();
    outln!(
        "data      {} hands, {} training bots; decisions: {} train, {} held-out hands, {} held-out bot ({holdout_spec}); {:.1} s",
        data.hands.len(),
        bots_seen.len(),
        data.train.len(),
        data.held_out_hands.len(),
        data.held_out_bot.len(),
        started.elapsed().as_secs_f64()
    );
    if data.train.is_empty() || data.held_out_hands.is_empty() || data.held_out_bot.is_empty() {
        return Err(Failure::Job(
            "too few decisions to train and test on: raise --hands".to_owned(),
        ));
    }
    for (index, (spec, member)) in population.iter().enumerate() {
        if let Member::Style(style) = member {
            outln!("bot {index:>2}    {spec}: {style:?}");
        }
    }
    if let Member::Style(style) = &holdout {
        outln!("held out  {holdout_spec}: {style:?}");
    }

    let mut marginal = MarginalModel::new();
    let mut frequency = FrequencyModel::new();
    for decision in &data.train {
        marginal.observe(decision.class);
        frequency.observe(&data.before(decision), decision.class);
    }

    let trained;
    let weights: &CnnWeights = if command.name == TRAIN.name {
        trained = train_cnn(&args, &data, seed, progress)?;
        &trained
    } else {
        &crate::holdem::model::weights::SHIPPED_CNN
    };
    let cnn = CnnModel::new(weights);

    outln!("model size {WEIGHT_BYTES} bytes of weights");
    outln!(
        "{:<28} {:>9} {:>9}   {:>9} {:>9}",
        "model",
        "acc hands",
        "loss",
        "acc bot",
        "loss"
    );
    let line = |name: &str, hands: Score, bot: Score| {
        outln!(
            "{name:<28} {:>8.2}% {:>9.4}   {:>8.2}% {:>9.4}",
            100.0 * hands.accuracy(),
            hands.log_loss(),
            100.0 * bot.accuracy(),
            bot.log_loss()
        );
    };
    let models: [(&str, &dyn ActionModel); 3] = [
        ("majority (class frequencies)", &marginal),
        ("frequency (betting n-gram)", &frequency),
        ("cnn", &cnn),
    ];
    for (name, model) in models {
        line(
            name,
            score(model, &data, &data.held_out_hands),
            score(model, &data, &data.held_out_bot),
        );
    }
    // The online models watch one opponent: on the held-out bot's decisions in order,
    // each predicted before it is observed.
    let online_frequency = online_score(OnlineModel::new(frequency.clone(), strength), &data);
    let online_cnn = online_score(OnlineModel::new(cnn, strength), &data);
    outln!(
        "online, frequency prior      {:>9} {:>9}   {:>8.2}% {:>9.4}",
        "-",
        "-",
        100.0 * online_frequency.accuracy(),
        online_frequency.log_loss()
    );
    outln!(
        "online, cnn prior            {:>9} {:>9}   {:>8.2}% {:>9.4}",
        "-",
        "-",
        100.0 * online_cnn.accuracy(),
        online_cnn.log_loss()
    );
    if command.name == EVAL.name {
        time_predictions(&cnn, &frequency, &data);
    }
    let out = match command.name == TRAIN.name {
        true => args.get::<std::path::PathBuf>("out")?,
        false => None,
    };
    if let Some(path) = out {
        let summary = vec![format!(
            "Trained on {} decisions of {} hands; see docs/holdem-model.md for its scores.",
            data.train.len().min(args.need::<usize>("max-samples")?),
            data.hands.len()
        )];
        let command_line = format!(
            "arbor holdem train-model --hands {hands} --seed {seed} --epochs {} \
             --max-samples {} --learning-rate {} --dropout {} --out {}",
            args.need::<u64>("epochs")?,
            args.need::<u64>("max-samples")?,
            args.need::<f64>("learning-rate")?,
            args.need::<f64>("dropout")?,
            path.display()
        );
        let text = export::weights_source(weights, &command_line, &summary);
        std::fs::write(&path, text)
            .map_err(|error| Failure::Job(format!("cannot write {}: {error}", path.display())))?;
        outln!("wrote     {}", path.display());
    }
    Ok(())
}

fn online_score<P: ActionModel>(mut model: OnlineModel<P>, data: &Dataset) -> Score {
    let mut total = Score::default();
    for decision in &data.held_out_bot {
        let before = data.before(decision);
        total.add(&model.predict(&before), decision.class.index());
        model.observe_class(&before, decision.class);
    }
    total
}

fn train_cnn(
    args: &Args,
    data: &Dataset,
    seed: u32,
    progress: bool,
) -> Result<CnnWeights, Failure> {
    let max_samples: usize = args.need("max-samples")?;
    let stride = data.train.len().div_ceil(max_samples).max(1);
    let chosen: Vec<Decision> = data.train.iter().step_by(stride).copied().collect();
    let settings = train::Settings {
        epochs: args.need("epochs")?,
        batch: 32,
        learning_rate: args.need::<f64>("learning-rate")? as f32,
        dropout: args.need::<f64>("dropout")? as f32,
        seed: u64::from(seed),
    };
    let sample = |index: usize| {
        let decision = &chosen[index];
        let before = data.before(decision);
        let actor = before.to_act().unwrap_or(0);
        let mut planes = encode_public(&before, actor);
        if let Some(hole) = before.hole_cards(actor) {
            encode_hole(&mut planes[HOLE_PLANE], hole);
        }
        train::Sample {
            planes,
            legal: legal_classes(&before),
            label: decision.class.index(),
        }
    };
    let started = Instant::now();
    let weights = train::train(
        &train::initial_weights(u64::from(seed)),
        chosen.len(),
        &sample,
        settings,
        &mut |epoch, loss| {
            if progress {
                noteln!(
                    "epoch {epoch}: training loss {loss:.4} ({:.0} s)",
                    started.elapsed().as_secs_f64()
                );
            }
        },
    );
    outln!(
        "trained   {} samples x {} epochs in {:.1} s",
        chosen.len(),
        settings.epochs,
        started.elapsed().as_secs_f64()
    );
    Ok(weights)
}

/// Wall-clock time per prediction on the held-out hands' states.
fn time_predictions(cnn: &CnnModel<'_>, frequency: &FrequencyModel, data: &Dataset) {
    let states: Vec<_> = data
        .held_out_hands
        .iter()
        .take(2_000)
        .map(|d| data.before(d))
        .collect();
    let mut sink = 0.0f32;
    let started = Instant::now();
    for state in &states {
        sink += cnn.predict(state)[1];
    }
    let full = started.elapsed().as_nanos() as f64 / states.len().max(1) as f64;
    let started = Instant::now();
    for state in &states {
        sink += frequency.predict(state)[1];
    }
    let counted = started.elapsed().as_nanos() as f64 / states.len().max(1) as f64;
    // A range update: prepare once per state, then every holding.
    let sweeps = states.iter().take(50);
    let mut holdings = 0usize;
    let started = Instant::now();
    for state in sweeps {
        let Some(prepared) = cnn.prepare(state) else {
            continue;
        };
        for combo in 0..COMBOS {
            if let Some(cards) = combo_cards(combo) {
                sink += prepared.predict(cards)[1];
                holdings += 1;
            }
        }
    }
    let per_holding = started.elapsed().as_nanos() as f64 / holdings.max(1) as f64;
    outln!(
        "time      cnn {:.1} us a prediction (full network)",
        full / 1000.0
    );
    outln!(
        "time      cnn {:.1} us a holding in a range sweep (prepared; {:.2} ms for all {COMBOS})",
        per_holding / 1000.0,
        per_holding * COMBOS as f64 / 1e6
    );
    outln!(
        "time      frequency {:.2} us a prediction",
        counted / 1000.0
    );
    // Whole range updates of the player to act, the generic way and through the prepared
    // path.
    let updates: Vec<_> = states
        .iter()
        .filter(|s| s.to_act().is_some())
        .take(20)
        .collect();
    let started = Instant::now();
    for state in &updates {
        let mut range = Range::uniform();
        let actor = state.to_act().unwrap_or(0);
        range.observe(state, actor, ActionClass::Call, cnn);
        sink += range.weight(0);
    }
    let generic = started.elapsed().as_secs_f64() * 1e3 / updates.len().max(1) as f64;
    let started = Instant::now();
    for state in &updates {
        let mut range = Range::uniform();
        let actor = state.to_act().unwrap_or(0);
        observe_with_cnn(&mut range, state, actor, ActionClass::Call, cnn);
        sink += range.weight(0);
    }
    let prepared = started.elapsed().as_secs_f64() * 1e3 / updates.len().max(1) as f64;
    outln!(
        "time      range update {generic:.1} ms with Range::observe, {prepared:.1} ms with observe_with_cnn"
    );
    if sink.is_nan() {
        outln!("(a prediction was not a number)");
    }
}
