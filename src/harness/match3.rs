//! `arbor match3`: play many games of a level with an agent, replay a move list, and
//! calibrate the default number of colours.
use std::fmt::Write as _;
use std::time::Instant;

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use super::agent_storage::AgentStorage;
use super::args::{Command, Kind, Opt, SEED, THREADS, shown};
use super::cluster;
use super::cluster::tasks::run_tasks_on_ranks;
use super::cluster::wire::Wire;
use super::parallel::{Progress, default_threads};
use super::resources::write_file;
use super::{Args, Failure};
use crate::match3::{
    Agent, DEFAULT_MOVES, Goal, Level, Match3, Metrics, PRESETS, Persona, SearchConfig, Swap,
    game_seeds, play_game, preset,
};

const LEVEL: Opt = Opt::new(
    "level",
    "FILE|NAME",
    Kind::Path,
    "a level file or a bundled preset: board1, board2, board3 (default: the 7x7 default level)",
);
const GAMES: Kind = Kind::Int {
    min: 1,
    max: 1_000_000,
};
/// Iterations per move at most: beyond, one search tree outgrows any machine.
pub(super) const MAX_ITERATIONS: u64 = 1_000_000;
pub(super) const ITERATIONS: Opt = Opt::new(
    "iterations",
    "N",
    Kind::Int {
        min: 1,
        max: MAX_ITERATIONS,
    },
    "MCTS iterations per move",
)
.or("250");

pub const PLAY: Command = Command {
    name: "match3 play",
    operands: "",
    about: "play games of a Match-3 level; print mean/min/max score and the average available\n\
            moves (a persona file holds `goal MaxS` and `formula add(div(W, N), ...)`)",
    options: &[
        LEVEL,
        Opt::new(
            "agent",
            "AGENT",
            Kind::Path,
            "random | vanilla | persona:FILE",
        )
        .or("random"),
        Opt::new("games", "N", GAMES, "games").or("50"),
        SEED,
        ITERATIONS,
        Opt::new(
            "goal",
            "GOAL",
            Kind::Choice(&["MaxS", "MinS", "MaxM", "MinM"]),
            "the agent's goal (default: vanilla MaxS, a persona its own)",
        ),
        Opt::new(
            "colours",
            "N",
            Kind::Int { min: 0, max: 255 },
            "colours of a generated level",
        ),
        Opt::new(
            "moves",
            "N",
            Kind::Int { min: 1, max: 255 },
            "moves per game",
        ),
        Opt::new(
            "refills",
            "HOW",
            Kind::Choice(&["known", "sampled"]),
            "refills the search sees",
        )
        .or("known"),
        THREADS,
        Opt::new(
            "moves-out",
            "FILE",
            Kind::Path,
            "write each game's moves as CSV",
        ),
    ],
};

pub const REPLAY: Command = Command {
    name: "match3 replay",
    operands: "",
    about: "replay moves: `move <i> points <p> combos <c> score <s>` per move",
    options: &[
        LEVEL,
        Opt::new(
            "moves",
            "MOVES",
            Kind::Text,
            "the moves, like \"d4-d5,c3-c4\" (required)",
        ),
        Opt::new(
            "seed",
            "CHANCE_SEED",
            Kind::Int {
                min: 0,
                max: u64::MAX,
            },
            "the chance seed (default: the level's)",
        ),
    ],
};

pub const CALIBRATE: Command = Command {
    name: "match3 calibrate",
    operands: "",
    about: "the Random agent's mean score for 4 to 8 colours (README table)",
    options: &[
        Opt::new("games", "N", GAMES, "games per colour count").or("1000"),
        SEED,
        THREADS,
    ],
};

pub fn run(command: &Command, args: Args) -> Result<(), Failure> {
    args.no_operands()?;
    match command.name {
        "match3 play" => play(args),
        "match3 replay" => replay(args),
        _ => calibrate(args),
    }
}

/// A level from `--level`: a bundled preset's name or a file; the default 7x7 level
/// without the option.
fn load_level(args: &Args) -> Result<(String, Level), Failure> {
    match args.get::<PathBuf>("level")? {
        Some(name) => read_level(name.as_os_str()),
        None => Ok(("default".into(), Level::default())),
    }
}

/// A level by name: a bundled preset (`board1` …) or a file, whose name may be any bytes
/// the system allows. Returns its label and the level.
pub(super) fn read_level(name: &OsStr) -> Result<(String, Level), Failure> {
    let label = shown(name);
    let text = match name.to_str().and_then(preset) {
        Some(text) => text.to_owned(),
        None => std::fs::read_to_string(name).map_err(|e| {
            let presets: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
            Failure::Job(format!(
                "cannot read level '{label}': {e} (bundled presets: {})",
                presets.join(", ")
            ))
        })?,
    };
    let level = Level::parse(&text).map_err(|e| Failure::Job(format!("{label}: {e}")))?;
    Ok((label, level))
}

/// A persona file (format: `arbor::match3::Persona`).
pub(super) fn read_persona(path: &Path) -> Result<Persona, Failure> {
    let shown = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::Job(format!("cannot read persona '{shown}': {e}")))?;
    Persona::parse(&text).map_err(|e| Failure::Job(format!("{shown}: {e}")))
}

/// The FILE of `--agent persona:FILE`, whatever bytes it is made of.
fn persona_file(agent: &OsStr) -> Option<PathBuf> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let file = agent.as_bytes().strip_prefix(b"persona:")?;
        Some(PathBuf::from(OsStr::from_bytes(file)))
    }
    #[cfg(not(unix))]
    {
        agent.to_str()?.strip_prefix("persona:").map(PathBuf::from)
    }
}

/// One finished game.
struct Record {
    chance_seed: u64,
    metrics: Metrics,
    moves: Vec<Swap>,
    /// Legal moves available before each move.
    legal: Vec<u32>,
}

/// A game's metrics between ranks (`playtest` sends them too).
impl Wire for Metrics {
    fn put(&self, out: &mut Vec<u8>) {
        for field in [
            self.score,
            self.moves,
            self.combos,
            self.reshuffles,
            self.legal_sum,
        ] {
            field.put(out);
        }
    }

    fn take(input: &mut &[u8]) -> Result<Self, String> {
        Ok(Metrics {
            score: Wire::take(input)?,
            moves: Wire::take(input)?,
            combos: Wire::take(input)?,
            reshuffles: Wire::take(input)?,
            legal_sum: Wire::take(input)?,
        })
    }
}

/// A finished game between ranks, its moves as their byte codes.
impl Wire for Record {
    fn put(&self, out: &mut Vec<u8>) {
        self.chance_seed.put(out);
        self.metrics.put(out);
        let codes: Vec<u8> = self.moves.iter().map(|mv| mv.code()).collect();
        codes.put(out);
        self.legal.put(out);
    }

    fn take(input: &mut &[u8]) -> Result<Self, String> {
        let chance_seed = Wire::take(input)?;
        let metrics = Wire::take(input)?;
        let moves = Vec::<u8>::take(input)?
            .into_iter()
            .map(|code| {
                Swap::from_code(code)
                    .ok_or_else(|| format!("a game from another rank has move code {code}"))
            })
            .collect::<Result<_, _>>()?;
        Ok(Record {
            chance_seed,
            metrics,
            moves,
            legal: Wire::take(input)?,
        })
    }
}

/// Plays games `0..games` on all threads of every rank of the run (a collective in a
/// distributed run); the result depends only on the inputs.
fn play_many(
    level: &Level,
    agent: Agent<'_>,
    config: &SearchConfig,
    games: usize,
    seed: u64,
    threads: usize,
) -> Result<Vec<Record>, Failure> {
    let mut progress = Progress::new(games);
    let records = run_tasks_on_ranks(
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

fn play(args: Args) -> Result<(), Failure> {
    let (label, mut level) = load_level(&args)?;
    // A path kind: `persona:FILE` may name a file that is not UTF-8.
    let agent_word: OsString = args.need::<PathBuf>("agent")?.into_os_string();
    let agent_text = shown(&agent_word);
    let games: usize = args.need("games")?;
    let seed: u64 = args.need("seed")?;
    let iterations: u32 = args.need("iterations")?;
    let moves_out: Option<PathBuf> = args.get("moves-out")?;
    if let Some(colours) = args.get::<u8>("colours")? {
        level = level
            .with_colours(colours)
            .map_err(|e| Failure::Usage(format!("--colours: {e}")))?;
    }
    if let Some(moves) = args.get::<u8>("moves")? {
        level = level
            .with_moves(moves)
            .map_err(|e| Failure::Usage(format!("--moves: {e}")))?;
    }
    let threads = default_threads(args.get("threads")?);
    let sample_refills = args.need::<String>("refills")? == "sampled";
    // The option's choices are the goal's names, so the parse cannot fail.
    let goal = args
        .get::<String>("goal")?
        .and_then(|text| Goal::parse(&text));
    let persona;
    let agent = match agent_word.to_str() {
        Some("random") => Agent::Random,
        Some("vanilla") => Agent::Vanilla(goal.unwrap_or(Goal::MaxScore)),
        _ => match persona_file(&agent_word) {
            Some(path) => {
                persona = read_persona(&path)?;
                Agent::Persona(&persona.program, goal.unwrap_or(persona.goal))
            }
            None => {
                return Err(Failure::Usage(format!(
                    "--agent must be random, vanilla or persona:<file>, not '{agent_text}'"
                )));
            }
        },
    };
    let config = SearchConfig {
        iterations,
        sample_refills,
        ..SearchConfig::default()
    };
    if agent != Agent::Random {
        AgentStorage::check(iterations, threads.min(games))?;
    }
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
    let ranks = match cluster::size() {
        1 => String::new(),
        k => format!(" over {k} ranks"),
    };
    outln!(
        "time {elapsed:.2} s ({:.2} ms per game){ranks}",
        elapsed * 1000.0 / n
    );
    if let Some(path) = moves_out.filter(|_| cluster::is_root()) {
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
        write_file(&path, &csv)?;
        outln!(
            "moves written to {} (replay with --seed <chance_seed>)",
            path.display()
        );
    }
    Ok(())
}

fn replay(args: Args) -> Result<(), Failure> {
    let (_, level) = load_level(&args)?;
    let moves: String = args.need("moves")?;
    let seed = args.get::<u64>("seed")?.unwrap_or(level.seed());
    let moves: Vec<&str> = moves
        .split([',', ' '])
        .filter(|t| !t.trim().is_empty())
        .collect();
    if moves.is_empty() {
        return Err(Failure::Usage("--moves lists no moves".into()));
    }
    let mut game = Match3::new(&level, seed);
    for (i, text) in moves.into_iter().enumerate() {
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

fn calibrate(args: Args) -> Result<(), Failure> {
    let games: usize = args.need("games")?;
    let seed: u64 = args.need("seed")?;
    let threads = default_threads(args.get("threads")?);
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
        let persona = read_persona(&good).unwrap();
        assert_eq!(
            (persona.program.to_string().as_str(), persona.goal),
            ("div(W, N)", Goal::MinMoves)
        );
        let bad = dir.join("q.txt");
        std::fs::write(&bad, "goal MaxS\nformula log(W)\n").unwrap();
        assert!(matches!(read_persona(&bad), Err(Failure::Job(m)) if m.contains("line 2")));
        let missing = dir.join("absent.persona");
        assert!(
            matches!(read_persona(&missing), Err(Failure::Job(m)) if m.contains("cannot read"))
        );
        let args = Args::parse(&PLAY, vec!["--agent".into(), "greedy".into()]).unwrap();
        assert!(matches!(run(&PLAY, args), Err(Failure::Usage(m)) if m.contains("greedy")));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
