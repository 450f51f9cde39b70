//! `arbor match3`: play many games of a level with an agent, replay a move list, and
//! calibrate the default number of colours.
use std::fmt::Write as _;
use std::time::Instant;

use super::agent_storage::AgentStorage;
use super::parallel::{Progress, default_threads, run_tasks};
use super::{Args, Failure};
use crate::match3::{
    Agent, DEFAULT_MOVES, Goal, Level, Match3, Metrics, PRESETS, Persona, SearchConfig, Swap,
    game_seeds, play_game, preset,
};

pub fn run(mut args: Args) -> Result<(), Failure> {
    match args.next_positional().as_deref() {
        Some("play") => play(args),
        Some("replay") => replay(args),
        Some("calibrate") => calibrate(args),
        Some(other) => Err(Failure::Usage(format!("unknown match3 command '{other}'"))),
        None => Err(Failure::Usage(
            "match3 needs play, replay or calibrate".into(),
        )),
    }
}

/// A level from `--level`: a bundled preset's name or a file; the default 7x7 level
/// without the option.
fn load_level(args: &mut Args) -> Result<(String, Level), Failure> {
    match args.option::<String>("level")? {
        Some(name) => read_level(&name),
        None => Ok(("default".into(), Level::default())),
    }
}

/// A level by name: a bundled preset (`board1` …) or a file. Returns its label and the level.
pub(super) fn read_level(name: &str) -> Result<(String, Level), Failure> {
    let text = match preset(name) {
        Some(text) => text.to_owned(),
        None => std::fs::read_to_string(name).map_err(|e| {
            let presets: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
            Failure::Job(format!(
                "cannot read level '{name}': {e} (bundled presets: {})",
                presets.join(", ")
            ))
        })?,
    };
    let level = Level::parse(&text).map_err(|e| Failure::Job(format!("{name}: {e}")))?;
    Ok((name.to_owned(), level))
}

/// A persona file (format: `arbor::match3::Persona`).
pub(super) fn read_persona(path: &str) -> Result<Persona, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::Job(format!("cannot read persona '{path}': {e}")))?;
    Persona::parse(&text).map_err(|e| Failure::Job(format!("{path}: {e}")))
}

/// One finished game.
struct Record {
    chance_seed: u64,
    metrics: Metrics,
    moves: Vec<Swap>,
    /// Legal moves available before each move.
    legal: Vec<u32>,
}

/// Plays games `0..games` on all threads; the result depends only on the inputs.
fn play_many(
    level: &Level,
    agent: Agent<'_>,
    config: &SearchConfig,
    games: usize,
    seed: u64,
    threads: usize,
) -> Result<Vec<Record>, Failure> {
    let mut progress = Progress::new(games);
    let records = run_tasks(
        games,
        threads,
        || AgentStorage::new(config.iterations, agent != Agent::Random),
        |storage, g| {
            let (chance_seed, agent_seed) = game_seeds(level.seed(), seed, g as u64);
            let mut moves = Vec::new();
            let mut legal = Vec::new();
            let metrics = play_game(
                level,
                chance_seed,
                agent,
                config,
                &mut storage.lend(),
                agent_seed,
                |mv, outcome| {
                    moves.push(mv);
                    legal.push(outcome.legal_before);
                },
            )
            .map_err(|e| format!("game {g}: {e}"))?;
            Ok(Record {
                chance_seed,
                metrics,
                moves,
                legal,
            })
        },
        |done| progress.update(done),
    );
    progress.finish();
    records
}

fn play(mut args: Args) -> Result<(), Failure> {
    let (label, mut level) = load_level(&mut args)?;
    let agent_text = args
        .option::<String>("agent")?
        .unwrap_or_else(|| "random".into());
    let games = args.option::<usize>("games")?.unwrap_or(50);
    let seed = args.option::<u64>("seed")?.unwrap_or(1);
    let iterations = args.option::<u32>("iterations")?.unwrap_or(250);
    let moves_out = args.option::<String>("moves-out")?;
    let goal_override = args.option::<String>("goal")?;
    let sample_refills = args.option::<String>("refills")?;
    if let Some(colours) = args.option::<u8>("colours")? {
        level = level
            .with_colours(colours)
            .map_err(|e| Failure::Usage(format!("--colours: {e}")))?;
    }
    if let Some(moves) = args.option::<u8>("moves")? {
        level = level
            .with_moves(moves)
            .map_err(|e| Failure::Usage(format!("--moves: {e}")))?;
    }
    let threads = default_threads(args.option("threads")?);
    args.finish()?;
    let sample_refills = match sample_refills.as_deref() {
        None | Some("known") => false,
        Some("sampled") => true,
        Some(other) => {
            return Err(Failure::Usage(format!(
                "--refills must be known or sampled, not '{other}'"
            )));
        }
    };
    let goal = match goal_override {
        None => None,
        Some(text) => Some(
            Goal::parse(&text)
                .ok_or_else(|| Failure::Usage("--goal must be MaxS, MinS, MaxM or MinM".into()))?,
        ),
    };
    let persona;
    let agent = match agent_text.as_str() {
        "random" => Agent::Random,
        "vanilla" => Agent::Vanilla(goal.unwrap_or(Goal::MaxScore)),
        other => match other.strip_prefix("persona:") {
            Some(path) => {
                persona = read_persona(path)?;
                Agent::Persona(&persona.program, goal.unwrap_or(persona.goal))
            }
            None => {
                return Err(Failure::Usage(format!(
                    "--agent must be random, vanilla or persona:<file>, not '{other}'"
                )));
            }
        },
    };
    let config = SearchConfig {
        iterations,
        sample_refills,
        ..SearchConfig::default()
    };
    let start = Instant::now();
    let records = play_many(&level, agent, &config, games, seed, threads)?;
    let elapsed = start.elapsed().as_secs_f64();
    let n = records.len().max(1) as f64;
    let scores: Vec<u32> = records.iter().map(|r| r.metrics.score).collect();
    let mean = scores.iter().map(|&s| f64::from(s)).sum::<f64>() / n;
    let available = records
        .iter()
        .map(|r| r.metrics.average_available())
        .sum::<f64>()
        / n;
    let combos = records
        .iter()
        .map(|r| f64::from(r.metrics.combos))
        .sum::<f64>()
        / n;
    let reshuffles: u32 = records.iter().map(|r| r.metrics.reshuffles).sum();
    outln!(
        "level {label}  agent {agent_text}  games {games}  seed {seed}  threads {threads}  moves {}",
        level.moves()
    );
    outln!(
        "score mean {mean:.1} min {} max {}",
        scores.iter().min().unwrap_or(&0),
        scores.iter().max().unwrap_or(&0)
    );
    outln!("available moves mean {available:.2}");
    outln!("combos per game {combos:.2}  reshuffles {reshuffles}");
    outln!(
        "time {elapsed:.2} s ({:.2} ms per game)",
        elapsed * 1000.0 / n
    );
    if let Some(path) = moves_out {
        let mut csv = String::from(
            "game,chance_seed,score,moves_played,combos,reshuffles,average_available,moves,legal_before_each\n",
        );
        for (g, r) in records.iter().enumerate() {
            let moves: Vec<String> = r.moves.iter().map(Swap::to_string).collect();
            let legal: Vec<String> = r.legal.iter().map(u32::to_string).collect();
            let _ = writeln!(
                csv,
                "{g},{},{},{},{},{},{:.3},\"{}\",\"{}\"",
                r.chance_seed,
                r.metrics.score,
                r.metrics.moves,
                r.metrics.combos,
                r.metrics.reshuffles,
                r.metrics.average_available(),
                moves.join(","),
                legal.join(" ")
            );
        }
        std::fs::write(&path, csv)
            .map_err(|e| Failure::Job(format!("cannot write '{path}': {e}")))?;
        outln!("moves written to {path} (replay with --seed <chance_seed>)");
    }
    Ok(())
}

fn replay(mut args: Args) -> Result<(), Failure> {
    let (_, level) = load_level(&mut args)?;
    let moves = args
        .option::<String>("moves")?
        .ok_or_else(|| Failure::Usage("replay needs --moves \"d4-d5,c3-c4,...\"".into()))?;
    let seed = args.option::<u64>("seed")?.unwrap_or(level.seed());
    args.finish()?;
    let mut game = Match3::new(&level, seed);
    for (i, text) in moves
        .split([',', ' '])
        .filter(|t| !t.trim().is_empty())
        .enumerate()
    {
        let swap = Swap::parse(text)
            .map_err(|_| Failure::Usage(format!("move {}: '{text}' is not like d4-d5", i + 1)))?;
        let outcome = game.try_play(swap).map_err(|_| {
            Failure::Job(format!(
                "move {}: {swap} is not legal here (game over: {})\n{}",
                i + 1,
                game.is_over(),
                game.board()
            ))
        })?;
        outln!(
            "move {} points {} combos {} score {}",
            i + 1,
            outcome.points,
            outcome.combos,
            game.score()
        );
    }
    Ok(())
}

fn calibrate(mut args: Args) -> Result<(), Failure> {
    let games = args.option::<usize>("games")?.unwrap_or(1000);
    let seed = args.option::<u64>("seed")?.unwrap_or(1);
    let threads = default_threads(args.option("threads")?);
    args.finish()?;
    outln!("Random agent, {games} games of {DEFAULT_MOVES} moves on a generated 7x7 board");
    outln!("| colours | mean score | min | max | average available moves |");
    outln!("|---|---|---|---|---|");
    for colours in 4..=8 {
        let level = Level::generated(7, 7, colours, DEFAULT_MOVES, 0)
            .map_err(|e| Failure::Job(e.to_string()))?;
        let records = play_many(
            &level,
            Agent::Random,
            &SearchConfig::default(),
            games,
            seed,
            threads,
        )?;
        let n = records.len().max(1) as f64;
        let mean = records
            .iter()
            .map(|r| f64::from(r.metrics.score))
            .sum::<f64>()
            / n;
        let available = records
            .iter()
            .map(|r| r.metrics.average_available())
            .sum::<f64>()
            / n;
        let min = records.iter().map(|r| r.metrics.score).min().unwrap_or(0);
        let max = records.iter().map(|r| r.metrics.score).max().unwrap_or(0);
        outln!("| {colours} | {mean:.0} | {min} | {max} | {available:.2} |");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_do_not_depend_on_the_thread_count() {
        let level = Level::default();
        let config = SearchConfig {
            iterations: 30,
            ..SearchConfig::default()
        };
        let agent = Agent::Vanilla(Goal::MaxScore);
        let one = play_many(&level, agent, &config, 6, 3, 1).unwrap();
        let three = play_many(&level, agent, &config, 6, 3, 3).unwrap();
        for (a, b) in one.iter().zip(&three) {
            assert_eq!(
                (a.chance_seed, a.metrics, &a.moves),
                (b.chance_seed, b.metrics, &b.moves)
            );
        }
        // Games differ from one another.
        assert_ne!(one[0].moves, one[1].moves);
    }

    #[test]
    fn persona_files_and_bad_agents_are_reported() {
        let dir = std::env::temp_dir().join(format!("arbor-m3-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("p.txt");
        std::fs::write(&good, "# a persona\ngoal MinM\nformula div(W, N)\n").unwrap();
        let persona = read_persona(good.to_str().unwrap()).unwrap();
        assert_eq!(
            (persona.program.to_string().as_str(), persona.goal),
            ("div(W, N)", Goal::MinMoves)
        );
        let bad = dir.join("q.txt");
        std::fs::write(&bad, "goal MaxS\nformula log(W)\n").unwrap();
        assert!(
            matches!(read_persona(bad.to_str().unwrap()), Err(Failure::Job(m)) if m.contains("line 2"))
        );
        let missing = dir.join("absent.persona");
        assert!(
            matches!(read_persona(missing.to_str().unwrap()), Err(Failure::Job(m)) if m.contains("cannot read"))
        );
        let args = Args::new(
            ["play", "--agent", "greedy"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
        );
        assert!(matches!(run(args), Err(Failure::Usage(m)) if m.contains("greedy")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
