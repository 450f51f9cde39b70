//! `arbor play breakthrough`: a match between two players, colours alternating each game,
//! on all cores, with results that do not depend on the number of threads.
//!
//! Game `i` draws all its randomness from a generator seeded from `(seed, i)`, each worker
//! reuses one tree storage that every move clears before searching, and the shared task
//! runner ([`run_tasks_on_ranks`]) returns results in game order; so the games, and every
//! figure but the timings, are the same whatever `--threads` says, and under
//! `mpirun -np K` (the games spread over the ranks, the root prints and writes the CSV)
//! whatever K is.
//!
//! `--search-threads N` (or `threads=N` in one player's spec) has each move searched by N
//! root-parallel threads ([`Mcts::search_parallel`]), on top of the `--threads` workers that
//! play games side by side; the games still depend only on the seed and the players.
use std::time::Instant;

use std::path::PathBuf;

use super::args::{Command, Kind, Opt, SEED, THREADS};
use super::cluster;
use super::cluster::tasks::run_tasks_on_ranks;
use super::cluster::wire::Wire;
use super::parallel::{Progress, default_threads};
use super::resources::{bytes_of, check_memory, filled, write_file};
use super::{Args, Failure};
use crate::breakthrough::{Color, Player, PlayerKind, Position, Size};
use crate::rng::stream_seed;
use crate::search::mcts::{
    MAX_SEARCH_THREADS, Mcts, MoGo, Node, Rave, Selection, Ucb1, seeded_rng,
};

/// Nodes per worker tree at most (80 MB); beyond it a search runs with a full tree.
const MAX_NODES: usize = 2_000_000;

/// A player as given on the command line, with its text kept for display.
#[derive(Clone, Debug)]
struct Spec {
    text: String,
    player: Player,
}

/// Reads a search-thread count (`--search-threads`, a spec's `threads=`): 1 to
/// [`MAX_SEARCH_THREADS`].
fn parse_search_threads(value: &str) -> Option<usize> {
    value
        .parse()
        .ok()
        .filter(|n| (1..=MAX_SEARCH_THREADS).contains(n))
}

/// Reads `random`, `mcts:iterations=N`, `rave:…`, `mogo:…` with optional `c=`, `c1=`,
/// `c2=`, `solver=0|1`, `threads=N`; `search_threads` is the thread count unless the spec
/// gives its own.
fn parse_spec(text: &str, search_threads: usize) -> Result<Spec, Failure> {
    let bad = |why: &str| Failure::Usage(format!("player '{text}': {why}"));
    let (name, params) = text.split_once(':').unwrap_or((text, ""));
    let mut player = match name {
        "random" => Player::random(),
        "mcts" | "uct" => Player::uct(1000),
        "rave" => Player::rave(1000),
        "mogo" => Player::mogo(1000),
        _ => return Err(bad("expected random, mcts, rave or mogo")),
    };
    player.search_threads = search_threads;
    for param in params.split(',').filter(|p| !p.is_empty()) {
        let (key, value) = param
            .split_once('=')
            .ok_or_else(|| bad("parameters are key=value"))?;
        let number = |v: &str| -> Result<f64, Failure> {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .ok_or_else(|| bad(&format!("{key}: '{v}' is not a non-negative number")))
        };
        if player.kind == PlayerKind::Random {
            return Err(bad("the random player takes no parameters"));
        }
        match (key, &mut player.selection) {
            ("iterations", _) => {
                player.iterations = value
                    .parse()
                    .ok()
                    .filter(|&n| n >= 1)
                    .ok_or_else(|| bad("iterations must be a whole number, 1 or more"))?;
            }
            ("threads", _) => {
                player.search_threads = parse_search_threads(value).ok_or_else(|| {
                    bad(&format!(
                        "threads is a whole number from 1 to {MAX_SEARCH_THREADS}"
                    ))
                })?;
            }
            ("solver", _) => {
                player.config.solver = match value {
                    "0" => false,
                    "1" => true,
                    _ => return Err(bad("solver is 0 or 1")),
                }
            }
            ("c", Selection::Ucb1(Ucb1 { c })) => *c = number(value)?,
            ("c", Selection::Rave(Rave { c, .. })) => *c = number(value)?,
            ("c1", Selection::Rave(Rave { c1, .. })) => *c1 = number(value)?,
            ("c", Selection::MoGo(MoGo { c, .. })) => *c = number(value)?,
            ("c1", Selection::MoGo(MoGo { c1, .. })) => *c1 = number(value)?,
            ("c2", Selection::MoGo(MoGo { c2, .. })) => *c2 = number(value)?,
            _ => return Err(bad(&format!("unknown parameter '{key}' for {name}"))),
        }
    }
    Ok(Spec {
        text: text.to_owned(),
        player,
    })
}

/// One finished game, seen from the `--white` player ("A").
#[derive(Clone, Copy, Debug, Default)]
struct GameResult {
    a_color: Option<Color>,
    a_won: bool,
    plies: u32,
    /// Seconds spent choosing moves, by A and by B.
    think: [f64; 2],
    /// Moves chosen by A and by B.
    moves: [u32; 2],
    /// MCTS iterations run by A and by B.
    iterations: [u64; 2],
    /// Searches that filled their storage, by A and by B.
    full: [u32; 2],
}

/// A finished game's bytes between ranks.
impl Wire for GameResult {
    fn put(&self, out: &mut Vec<u8>) {
        self.a_color.map(|color| color as u8).put(out);
        self.a_won.put(out);
        self.plies.put(out);
        self.think.put(out);
        self.moves.put(out);
        self.iterations.put(out);
        self.full.put(out);
    }

    fn take(input: &mut &[u8]) -> Result<Self, String> {
        let a_color = match <Option<u8> as Wire>::take(input)? {
            None => None,
            Some(0) => Some(Color::White),
            Some(1) => Some(Color::Black),
            Some(other) => return Err(format!("a game from another rank has colour {other}")),
        };
        Ok(GameResult {
            a_color,
            a_won: Wire::take(input)?,
            plies: Wire::take(input)?,
            think: Wire::take(input)?,
            moves: Wire::take(input)?,
            iterations: Wire::take(input)?,
            full: Wire::take(input)?,
        })
    }
}

/// Plays game `index` of a match seeded `seed` in `storage`, which it clears first: the
/// result depends on the index, the seed and the players only.
fn play_game(
    index: usize,
    seed: u64,
    size: Size,
    players: [&Player; 2],
    storage: &mut [Node<crate::breakthrough::Move>],
) -> GameResult {
    let mut rng = seeded_rng(stream_seed(seed, index as u64));
    // Even games: A is White; odd games: A is Black.
    let a_color = if index.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    };
    let mut result = GameResult {
        a_color: Some(a_color),
        ..GameResult::default()
    };
    let mut tree = Mcts::new(storage);
    let mut position = Position::start(size);
    while !position.is_over() {
        let who = usize::from(position.side_to_move() != a_color);
        let begin = Instant::now();
        let (mv, stats) = players[who].choose(&position, &mut tree, &mut rng);
        result.think[who] += begin.elapsed().as_secs_f64();
        let Some(mv) = mv else { break };
        result.moves[who] += 1;
        result.iterations[who] += u64::from(stats.iterations);
        result.full[who] += u32::from(stats.storage_full);
        position.play(mv);
        result.plies += 1;
    }
    result.a_won = position.status().winner() == Some(a_color);
    result
}

/// Plays games `0..games` on `threads` workers of every rank, each with a tree of `nodes`
/// nodes, and returns their results in game order on every rank; `report(done)` is called
/// as in [`run_tasks_on_ranks`].
fn play_match(
    games: usize,
    seed: u64,
    size: Size,
    players: [&Player; 2],
    nodes: usize,
    threads: usize,
    report: impl FnMut(usize),
) -> Result<Vec<GameResult>, Failure> {
    run_tasks_on_ranks(
        games,
        threads,
        || filled(nodes, Node::default(), "a search tree"),
        |storage, index| Ok(play_game(index, seed, size, players, storage)),
        report,
    )
}

/// The Wilson score interval at 95% for `successes` out of `n`.
pub(super) fn wilson(successes: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let p = successes / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

pub const COMMAND: Command = Command {
    name: "play breakthrough",
    operands: "",
    about: "play a match, colours alternating each game (game 0: --white plays White); report\n\
            wins, draws and losses of the --white player, the win rate with a 95% interval,\n\
            and moves per second. SPEC: random | mcts:iterations=N | rave:iterations=N |\n\
            mogo:iterations=N, with optional ,c=X ,c1=X ,c2=X (policy constants) ,solver=0\n\
            ,threads=N (root-parallel search threads, 1 to 64)",
    options: &[
        Opt::new("size", "CxR", Kind::Text, "board size, columns x rows").or("8x8"),
        Opt::new("white", "SPEC", Kind::Text, "player A, White in even games")
            .or("mcts:iterations=1000"),
        Opt::new("black", "SPEC", Kind::Text, "player B").or("random"),
        Opt::new(
            "games",
            "N",
            Kind::Int {
                min: 1,
                max: 1_000_000,
            },
            "games",
        )
        .or("100"),
        SEED,
        THREADS,
        Opt::new(
            "search-threads",
            "N",
            Kind::Int {
                min: 1,
                max: MAX_SEARCH_THREADS as u64,
            },
            "root-parallel threads per search, both players",
        )
        .or("1"),
        Opt::new("csv", "FILE", Kind::Path, "write one line per game"),
    ],
};

pub fn run(args: Args) -> Result<(), Failure> {
    args.no_operands()?;
    let size: String = args.need("size")?;
    let size: Size = size
        .parse()
        .map_err(|e| Failure::Usage(format!("--size '{size}': {e}")))?;
    let search_threads: usize = args.need("search-threads")?;
    let a = parse_spec(&args.need::<String>("white")?, search_threads)?;
    let b = parse_spec(&args.need::<String>("black")?, search_threads)?;
    let games: usize = args.need("games")?;
    let seed: u64 = args.need("seed")?;
    let threads = default_threads(args.get("threads")?);
    let csv: Option<PathBuf> = args.get("csv")?;

    let nodes = a
        .player
        .nodes_needed()
        .max(b.player.nodes_needed())
        .clamp(1, MAX_NODES);
    let workers = threads.min(games);
    check_memory(
        bytes_of::<Node<crate::breakthrough::Move>>(nodes)
            .and_then(|b| b.checked_mul(workers as u64)),
        &format!("the search trees of {workers} thread(s)"),
    )?;
    outln!(
        "breakthrough {size}: A = {} vs B = {}, {games} games (A is White in even games), seed {seed}, {threads} threads",
        a.text,
        b.text
    );
    let begin = Instant::now();
    let mut progress = Progress::new(games);
    let results = play_match(
        games,
        seed,
        size,
        [&a.player, &b.player],
        nodes,
        threads,
        |done| progress.update(done),
    );
    progress.finish();
    let results = results?;
    let wall = begin.elapsed().as_secs_f64();

    let wins = results.iter().filter(|r| r.a_won).count();
    let losses = games - wins;
    let draws = 0; // Breakthrough has no draws; kept for the report's shape.
    let score = wins as f64 + 0.5 * draws as f64;
    let (low, high) = wilson(score, games as f64);
    let rate = if games == 0 {
        0.0
    } else {
        score / games as f64
    };
    let plies: u64 = results.iter().map(|r| u64::from(r.plies)).sum();
    let sum = |f: &dyn Fn(&GameResult) -> f64| results.iter().map(f).sum::<f64>();
    outln!("A wins {wins}, draws {draws}, losses {losses}");
    outln!(
        "A win rate {:.1}% (95% Wilson interval {:.1}%..{:.1}%)",
        100.0 * rate,
        100.0 * low,
        100.0 * high
    );
    let white_wins = results
        .iter()
        .filter(|r| r.a_won == (r.a_color == Some(Color::White)))
        .count();
    outln!(
        "White won {white_wins} of {games}; {:.1} plies per game",
        plies as f64 / games.max(1) as f64
    );
    let ranks = match cluster::size() {
        1 => String::new(),
        k => format!(" on each of {k} ranks"),
    };
    outln!(
        "{:.0} moves/s over the match ({plies} moves in {wall:.1} s wall clock, {threads} threads{ranks})",
        plies as f64 / wall
    );
    for (who, spec) in [(0, &a), (1, &b)] {
        let moves = sum(&|r| f64::from(r.moves[who]));
        let think = sum(&|r| r.think[who]);
        let iterations = sum(&|r| r.iterations[who] as f64);
        let full: u32 = results.iter().map(|r| r.full[who]).sum();
        let per_move = if moves > 0.0 { think / moves } else { 0.0 };
        // Iterations of all its search threads per second of its thinking time.
        let ips = if think > 0.0 { iterations / think } else { 0.0 };
        outln!(
            "{} = {}: {moves:.0} moves, {:.3} ms/move, {ips:.0} iterations/s over {} search threads, {full} searches filled their storage",
            ["A", "B"][who],
            spec.text,
            1000.0 * per_move,
            spec.player.search_threads
        );
    }
    if let Some(path) = csv.filter(|_| cluster::is_root()) {
        let mut text = String::from("game,a_color,winner,plies\n");
        for (i, r) in results.iter().enumerate() {
            let a_white = r.a_color == Some(Color::White);
            let winner = if r.a_won { "A" } else { "B" };
            text.push_str(&format!(
                "{i},{},{winner},{}\n",
                if a_white { "white" } else { "black" },
                r.plies
            ));
        }
        write_file(&path, &text)?;
        outln!("per-game results written to {}", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_reject_nonsense() {
        let s = parse_spec("mogo:iterations=500,c=0.5,c2=3", 1).unwrap();
        assert_eq!(s.player.kind, PlayerKind::MoGo);
        assert_eq!(s.player.iterations, 500);
        assert_eq!(
            s.player.selection,
            Selection::MoGo(MoGo {
                c: 0.5,
                c1: 0.01,
                c2: 3.0
            })
        );
        assert_eq!(
            parse_spec("random", 1).unwrap().player.kind,
            PlayerKind::Random
        );
        let s = parse_spec("mcts:iterations=10,solver=0", 1).unwrap();
        assert!(!s.player.config.solver);
        assert_eq!(s.player.search_threads, 1);
        // `--search-threads` sets the default; a spec's `threads=` wins over it.
        assert_eq!(parse_spec("mcts", 3).unwrap().player.search_threads, 3);
        let s = parse_spec("rave:threads=64", 3).unwrap();
        assert_eq!(s.player.search_threads, 64);
        for bad in [
            "alphabeta",
            "mcts:iterations=x",
            "mcts:c1=1",
            "rave:c2=1",
            "mcts:c=-1",
            "random:iterations=3",
            "mcts:iterations",
            "mcts:solver=2",
            "mcts:threads=0",
            "mcts:threads=65",
            "mcts:threads=-1",
            "mcts:threads=two",
            "random:threads=2",
        ] {
            assert!(parse_spec(bad, 1).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_game_result_crosses_between_ranks_unchanged() {
        use super::cluster::wire::{from_bytes, to_bytes};
        let result = GameResult {
            a_color: Some(Color::Black),
            a_won: true,
            plies: 41,
            think: [0.125, 3.5e-4],
            moves: [21, 20],
            iterations: [21_000, 0],
            full: [2, 0],
        };
        let back: GameResult = from_bytes(&to_bytes(&result)).unwrap();
        assert_eq!(format!("{back:?}"), format!("{result:?}"));
        let mut bad = to_bytes(&result);
        bad[1] = 2; // a colour that does not exist
        assert!(from_bytes::<GameResult>(&bad).is_err());
    }

    #[test]
    fn results_do_not_depend_on_threads_and_the_interval_is_sane() {
        let size = Size::new_checked(5, 5).unwrap();
        let (a, b) = (Player::uct(30), Player::random());
        let mut storage = vec![Node::default(); a.nodes_needed()];
        let one = play_game(3, 7, size, [&a, &b], &mut storage);
        // Storage left dirty by another game changes nothing.
        let _ = play_game(4, 7, size, [&b, &a], &mut storage);
        let again = play_game(3, 7, size, [&a, &b], &mut storage);
        assert_eq!((one.a_won, one.plies), (again.a_won, again.plies));
        assert_eq!(one.a_color, Some(Color::Black));
        // A whole match, game by game, on one thread and on three.
        let outcomes = |threads| {
            play_match(9, 7, size, [&a, &b], a.nodes_needed(), threads, |_| {})
                .unwrap()
                .iter()
                .map(|r| (r.a_color, r.a_won, r.plies, r.moves, r.iterations))
                .collect::<Vec<_>>()
        };
        let serial = outcomes(1);
        assert_eq!(serial.len(), 9);
        assert_eq!(
            serial[3],
            (one.a_color, one.a_won, one.plies, one.moves, one.iterations)
        );
        assert_eq!(outcomes(3), serial);
        let (low, high) = wilson(100.0, 200.0);
        assert!((low - 0.4314).abs() < 1e-3 && (high - 0.5686).abs() < 1e-3);
        assert_eq!(wilson(0.0, 0.0), (0.0, 1.0));
        let (low, high) = wilson(200.0, 200.0);
        assert!(low > 0.98 && high == 1.0);
    }
}
