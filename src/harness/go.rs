//! `arbor go playouts`: playouts from the empty board on one thread, for the playout
//! statistics and speed of issue 16. Ends with one line scripts read:
//! `result playouts <n> stones <mean> black <rate>% speed <n> playouts/s`.
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::args::{Command, Kind, Opt, SEED};
use super::{Args, Failure};
use crate::go::board::KOMI_LIMIT;
use crate::go::sgf::GameRecord;
use crate::go::{
    Board, Color, DEFAULT_KOMI, GoGame, LightPlayouts, MAX_SIZE, MIN_SIZE, MogoPlayouts, MogoPolicy,
};
use crate::search::game::seeded_rng;

pub const PLAYOUTS: Command = Command {
    name: "go playouts",
    operands: "",
    about: "play N playouts from the empty board (or an SGF's position) on one thread; ends with\n\
            `result playouts <n> stones <mean stones placed> black <win rate>% speed <n> playouts/s`",
    options: &[
        Opt::new(
            "size",
            "N",
            Kind::Int {
                min: MIN_SIZE as u64,
                max: MAX_SIZE as u64,
            },
            "board size",
        )
        .or("9"),
        Opt::new(
            "policy",
            "POLICY",
            Kind::Choice(&["light", "mogo"]),
            "playout policy: light (uniform, no own-eye filling) or mogo (MoGo's rules, issue 16)",
        )
        .or("light"),
        Opt::new(
            "count",
            "N",
            Kind::Int {
                min: 1,
                max: 1_000_000_000,
            },
            "playouts",
        )
        .or("10000"),
        SEED,
        Opt::new(
            "komi",
            "K",
            Kind::Real {
                min: -(KOMI_LIMIT as f64),
                max: KOMI_LIMIT as f64,
            },
            "komi (default 7.5, or the SGF's)",
        ),
        Opt::new(
            "sgf",
            "FILE",
            Kind::Path,
            "start every playout from the position at the end of this game record's main line\n\
             (its size, komi and setup stones; --size must then be absent)",
        ),
    ],
};

pub fn run(command: &Command, args: Args) -> Result<(), Failure> {
    match command.name {
        "go playouts" => playouts(args),
        other => Err(Failure::Job(format!("internal: no such command '{other}'"))),
    }
}

fn playouts(args: Args) -> Result<(), Failure> {
    args.no_operands()?;
    let size: u8 = args.need("size")?;
    let policy: String = args.need("policy")?;
    let count: u64 = args.need("count")?;
    let seed: u64 = args.need("seed")?;
    let komi: Option<f64> = args.get("komi")?;
    let mogo = match policy.as_str() {
        "light" => None,
        "mogo" => Some(MogoPolicy::default()),
        other => return Err(Failure::Usage(format!("--policy {other}: unknown policy"))),
    };
    let mut board = match args.get::<PathBuf>("sgf")? {
        Some(path) => {
            if args.has("size") {
                return Err(Failure::Usage(
                    "--sgf gives the board size: --size must be absent".to_owned(),
                ));
            }
            position_of(&path)?
        }
        None => {
            let mut board =
                Board::new(size).map_err(|e| Failure::Usage(format!("--size {size}: {e}")))?;
            board
                .set_komi(DEFAULT_KOMI)
                .map_err(|e| Failure::Usage(format!("--komi: {e}")))?;
            board
        }
    };
    if let Some(komi) = komi {
        board
            .set_komi(komi as f32)
            .map_err(|e| Failure::Usage(format!("--komi: {e}")))?;
    }
    // Both run on a scratch board reset from the start, as the benchmarks do (a clone per
    // playout copies a 19x19 board's arrays: 6% of a 9x9 MoGo playout's instructions).
    let mut runs = match mogo {
        Some(policy) => Runs::Mogo(MogoPlayouts::new(&board, policy)),
        None => Runs::Light(LightPlayouts::new(&board)),
    };
    let mut rng = seeded_rng(seed);
    let (mut stones, mut black_wins) = (0u64, 0u64);
    let start = Instant::now();
    for _ in 0..count {
        let playout = match &mut runs {
            Runs::Light(runs) => runs.run(&mut rng),
            Runs::Mogo(runs) => runs.run(&mut rng),
        };
        stones += u64::from(playout.stones_placed);
        black_wins += u64::from(playout.winner == Color::Black);
    }
    let seconds = start.elapsed().as_secs_f64();
    let speed = if seconds > 0.0 {
        (count as f64 / seconds).round() as u64
    } else {
        0
    };
    outln!(
        "result playouts {count} stones {:.2} black {:.2}% speed {speed} playouts/s",
        stones as f64 / count as f64,
        100.0 * black_wins as f64 / count as f64
    );
    Ok(())
}

/// The playouts `arbor go playouts` runs: one policy's, from one start board.
enum Runs {
    Light(LightPlayouts),
    Mogo(MogoPlayouts),
}

/// The position at the end of the main line of the SGF file at `path`.
fn position_of(path: &Path) -> Result<Board, Failure> {
    let shown = path.display();
    let text =
        std::fs::read(path).map_err(|e| Failure::Job(format!("cannot read {shown}: {e}")))?;
    let record = GameRecord::parse_sgf(&text).map_err(|e| Failure::Job(format!("{shown}: {e}")))?;
    let game = GoGame::from_record(&record).map_err(|e| Failure::Job(format!("{shown}: {e}")))?;
    if game.board().is_over() {
        return Err(Failure::Job(format!(
            "{shown}: the game is over (two passes): no playout can start there"
        )));
    }
    Ok(game.board().clone())
}
