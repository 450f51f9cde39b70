//! `arbor playtest`: the paper's Table II for one or more levels. The six agents (the four
//! personas, Vanilla MCTS, Random) play the same games of each level; the command prints a
//! table per level, a difficulty summary, and a ranking of the levels from easiest to
//! hardest, and can write the tables as CSV.
use std::fmt::Write as _;
use std::time::Instant;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::agent_storage::AgentStorage;
use super::args::{Command, Kind, Opt, SEED, THREADS};
use super::cluster;
use super::cluster::tasks::run_tasks_on_ranks;
use super::match3::{ITERATIONS, read_level, read_persona};
use super::parallel::{Progress, default_threads};
use super::resources::write_file;
use super::{Args, Failure};
use crate::match3::{
    Level, PERSONA_GOALS, PRESETS, Persona, PlaytestAgent, Report, SHIPPED_PERSONAS, SearchConfig,
    playtest_game, playtest_nodes, shipped,
};

/// One level's result.
struct LevelReport {
    label: String,
    level: Level,
    report: Report,
}

pub const COMMAND: Command = Command {
    name: "playtest",
    operands: "[LEVEL...]",
    about: "the paper's Table II per level (files or board1/board2/board3; default: all three\n\
            presets): the MaxS, MinS, MaxM, MinM personas, Vanilla MCTS and Random play the\n\
            same games; prints mean/min/max score and mean available moves per agent, a\n\
            difficulty summary, and the levels ranked easiest first by Vanilla mean score\n\
            (ties by MaxS)",
    options: &[
        Opt::new(
            "games",
            "N",
            Kind::Int {
                min: 1,
                max: 1_000_000,
            },
            "games per agent and level",
        )
        .or("50"),
        SEED,
        ITERATIONS,
        THREADS,
        Opt::new("csv", "FILE", Kind::Path, "write the tables as CSV"),
        Opt::new(
            "personas",
            "DIR",
            Kind::Path,
            "read DIR/{max-score,min-score,max-moves,min-moves}.persona, not the bundled ones",
        ),
    ],
};

pub fn run(args: Args) -> Result<(), Failure> {
    let games: u32 = args.need("games")?;
    let seed: u64 = args.need("seed")?;
    let iterations: u32 = args.need("iterations")?;
    let csv_path: Option<PathBuf> = args.get("csv")?;
    let persona_dir: Option<PathBuf> = args.get("personas")?;
    let threads = default_threads(args.get("threads")?);
    let config = SearchConfig {
        iterations,
        ..SearchConfig::default()
    };
    // Only to reject a tree size that does not fit; each thread's storage is sized below.
    playtest_nodes(&config)
        .ok_or_else(|| Failure::Usage(format!("--iterations {iterations} is too large")))?;
    let mut names: Vec<OsString> = args.operands().to_vec();
    if names.is_empty() {
        names = PRESETS
            .iter()
            .map(|(name, _)| OsString::from(name))
            .collect();
    }
    let levels = names
        .iter()
        .map(|name| read_level(name))
        .collect::<Result<Vec<_>, _>>()?;
    let (personas, persona_source) = match &persona_dir {
        None => (
            shipped().map_err(|e| Failure::Job(format!("bundled persona: {e}")))?,
            "bundled".to_string(),
        ),
        Some(dir) => (read_personas(dir)?, format!("from {}", dir.display())),
    };

    let start = Instant::now();
    let per_level = PlaytestAgent::ALL.len() * games as usize;
    let total = levels.len() * per_level;
    AgentStorage::check(iterations, threads.min(total))?;
    let mut progress = Progress::new(total);
    // Spread over the ranks of a distributed run (`mpirun -np K`); the same table on any K.
    let metrics = run_tasks_on_ranks(
        total,
        threads,
        || AgentStorage::new(config.iterations, true),
        |storage, task| {
            let (label, level) = &levels[task / per_level];
            let agent = PlaytestAgent::ALL[task % per_level / games as usize];
            let game = (task % games as usize) as u32;
            playtest_game(
                level,
                &personas,
                agent,
                game,
                seed,
                &config,
                &mut storage.lend(),
            )
            .map_err(|e| format!("{label}, {} game {game}: {e}", agent.name()))
        },
        |done| progress.update(done),
    );
    progress.finish();
    let metrics = metrics?;
    let elapsed = start.elapsed().as_secs_f64();
    // Each agent's games are added in game order: the bits do not depend on the threads.
    let mut played = metrics.iter();
    let results: Vec<LevelReport> = levels
        .into_iter()
        .map(|(label, level)| {
            let mut report = Report::default();
            for agent in PlaytestAgent::ALL {
                for m in played.by_ref().take(games as usize) {
                    report.add(agent, m);
                }
            }
            LevelReport {
                label,
                level,
                report,
            }
        })
        .collect();

    outln!(
        "playtest: {} level(s), {games} games per agent, seed {seed}, {iterations} iterations \
         per move, personas {persona_source}",
        results.len()
    );
    for result in &results {
        out!("{}", level_table(result));
    }
    out!("{}", ranking(&results));
    if let Some(path) = csv_path.filter(|_| cluster::is_root()) {
        write_file(&path, &csv(&results))?;
        outln!("table written to {}", path.display());
    }
    match cluster::size() {
        1 => outln!("time {elapsed:.1} s on {threads} thread(s)"),
        ranks => outln!("time {elapsed:.1} s on {threads} thread(s) on each of {ranks} ranks"),
    }
    Ok(())
}

/// `<dir>/max-score.persona` … `<dir>/min-moves.persona`, each checked for its goal.
fn read_personas(dir: &Path) -> Result<[Persona; 4], Failure> {
    let personas = SHIPPED_PERSONAS
        .iter()
        .zip(PERSONA_GOALS)
        .map(|((name, _), goal)| {
            let path = dir.join(format!("{name}.persona"));
            let persona = read_persona(&path)?;
            if persona.goal != goal {
                return Err(Failure::Job(format!(
                    "{}: goal {} where {name} needs {}",
                    path.display(),
                    persona.goal.name(),
                    goal.name()
                )));
            }
            Ok(persona)
        })
        .collect::<Result<Vec<_>, _>>()?;
    personas
        .try_into()
        .map_err(|_| Failure::Job("expected four personas".into()))
}

/// The Table II rows of one level and its difficulty summary.
fn level_table(result: &LevelReport) -> String {
    let level = &result.level;
    let report = &result.report;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nlevel {} ({}x{}, {} colours, {} moves)",
        result.label,
        level.width(),
        level.height(),
        level.colours(),
        level.moves()
    );
    let _ = writeln!(
        out,
        "| agent | mean score | min | max | mean available moves |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|");
    for agent in PlaytestAgent::ALL {
        let s = report.summary(agent);
        let _ = writeln!(
            out,
            "| {} | {:.1} | {} | {} | {:.2} |",
            agent.name(),
            s.mean_score(),
            s.min_score,
            s.max_score,
            s.mean_available()
        );
    }
    let mean = |agent| report.summary(agent).mean_score();
    let moves = |agent| report.summary(agent).mean_available();
    let _ = writeln!(
        out,
        "difficulty: expected score {:.1} (MinS) to {:.1} (MaxS); Vanilla {:.1}, Random {:.1}; \
         available moves {:.2} (MinM) to {:.2} (MaxM)",
        mean(PlaytestAgent::MinScore),
        mean(PlaytestAgent::MaxScore),
        mean(PlaytestAgent::Vanilla),
        mean(PlaytestAgent::Random),
        moves(PlaytestAgent::MinMoves),
        moves(PlaytestAgent::MaxMoves)
    );
    out
}

/// The levels from easiest to hardest: a higher Vanilla mean score is easier (Vanilla is the
/// strong, goal-neutral player), ties broken by the MaxS mean, then by the order given.
fn ranking(results: &[LevelReport]) -> String {
    let mut order: Vec<&LevelReport> = results.iter().collect();
    let key = |r: &LevelReport| {
        (
            r.report.summary(PlaytestAgent::Vanilla).mean_score(),
            r.report.summary(PlaytestAgent::MaxScore).mean_score(),
        )
    };
    order.sort_by(|a, b| {
        let (a, b) = (key(a), key(b));
        b.0.total_cmp(&a.0).then(b.1.total_cmp(&a.1))
    });
    let mut out = String::from(
        "\nranking, easiest first (higher Vanilla mean score is easier; ties by MaxS mean):\n",
    );
    for (i, r) in order.iter().enumerate() {
        let (vanilla, max_score) = key(r);
        let _ = writeln!(
            out,
            "{}. {}  Vanilla {vanilla:.1}  MaxS {max_score:.1}",
            i + 1,
            r.label
        );
    }
    out
}

/// One row per level and agent, with a header.
fn csv(results: &[LevelReport]) -> String {
    let mut out =
        String::from("level,agent,games,mean_score,min_score,max_score,mean_available_moves\n");
    for result in results {
        for agent in PlaytestAgent::ALL {
            let s = result.report.summary(agent);
            let _ = writeln!(
                out,
                "{},{},{},{:.3},{},{},{:.4}",
                csv_field(&result.label),
                agent.name(),
                s.games,
                s.mean_score(),
                s.min_score,
                s.max_score,
                s.mean_available()
            );
        }
    }
    out
}

/// A CSV field, quoted when it holds a comma, quote or line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::parallel::run_tasks;
    use crate::match3::{Level, Storage, playtest, preset};
    use crate::search::mcts::Node;

    /// The threaded runner's table equals the core's sequential `playtest`, bit for bit.
    #[test]
    fn threaded_run_matches_the_sequential_core() {
        let level = Level::parse(preset("board3").unwrap()).unwrap();
        let personas = shipped().unwrap();
        let config = SearchConfig {
            iterations: 15,
            ..SearchConfig::default()
        };
        let mut nodes = vec![Node::default(); playtest_nodes(&config).unwrap()];
        let mut replaying = Storage::nodes_only(&mut nodes);
        let sequential = playtest(&level, &personas, 4, 9, &config, &mut replaying).unwrap();
        let per_level = 6 * 4;
        let metrics = run_tasks(
            per_level,
            3,
            || AgentStorage::new(config.iterations, true),
            |storage, task| {
                let agent = PlaytestAgent::ALL[task / 4];
                playtest_game(
                    &level,
                    &personas,
                    agent,
                    (task % 4) as u32,
                    9,
                    &config,
                    &mut storage.lend(),
                )
                .map_err(|e| e.to_string())
            },
            |_| {},
        )
        .unwrap();
        let mut threaded = Report::default();
        for (job, m) in metrics.iter().enumerate() {
            threaded.add(PlaytestAgent::ALL[job / 4], m);
        }
        for agent in PlaytestAgent::ALL {
            let (a, b) = (sequential.summary(agent), threaded.summary(agent));
            assert_eq!(a, b, "{}", agent.name());
            assert_eq!(a.available_sum.to_bits(), b.available_sum.to_bits());
        }
    }

    #[test]
    fn ranking_puts_the_higher_vanilla_mean_first_and_breaks_ties_by_max_score() {
        let level = Level::default();
        let with = |vanilla: u32, max_score: u32, label: &str| {
            let mut report = Report::default();
            let metrics = |score| crate::match3::Metrics {
                score,
                moves: 20,
                ..Default::default()
            };
            report.add(PlaytestAgent::Vanilla, &metrics(vanilla));
            report.add(PlaytestAgent::MaxScore, &metrics(max_score));
            LevelReport {
                label: label.into(),
                level: level.clone(),
                report,
            }
        };
        let text = ranking(&[
            with(4000, 7000, "hard"),
            with(6000, 6500, "tie-low"),
            with(6000, 7000, "tie-high"),
        ]);
        let order: Vec<&str> = text
            .lines()
            .skip(2)
            .map(|l| l.split_whitespace().nth(1).unwrap())
            .collect();
        assert_eq!(order, ["tie-high", "tie-low", "hard"]);
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"x\", y"), "\"say \"\"x\"\", y\"");
    }
}
