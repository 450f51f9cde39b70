//! `arbor gtp go`: a Go engine speaking GTP 2 on standard input and output, for Go GUIs
//! (Sabaki, GoGui) and for matches against other engines. The protocol itself is the
//! library's ([`crate::go::gtp`]); this file reads lines, writes each reply and flushes it.
use std::io::BufRead;
use std::time::Instant;

use super::args::{Command, Kind, Opt, SEED};
use super::{Args, Failure};
use crate::go::board::KOMI_LIMIT;
use crate::go::gtp::{DEFAULT_PLAYOUTS, Engine, Limits, Status};
use crate::go::mogo::MogoConfig;
use crate::go::player::{Player, PlayerConfig, Playouts};
use crate::go::prior::{Closeness, GoPriors};
use crate::go::{MAX_SIZE, MIN_SIZE, Move};
use crate::search::mcts::{MAX_SEARCH_THREADS, Node, Selection};

pub const COMMAND: Command = Command {
    name: "gtp go",
    operands: "",
    about: "play Go over GTP 2 on stdin/stdout (for Go GUIs and engine matches); MCTS with\n\
            MoGo's playouts and priors (or RAVE and light playouts), the tree kept between moves, time from\n\
            time_settings/time_left, ownership playouts for the final score and dead stones",
    options: &[
        Opt::new(
            "playouts",
            "N",
            Kind::Int {
                min: 1,
                max: u32::MAX as u64,
            },
            "search iterations per move and thread (default 1000 when --time is not given)",
        ),
        Opt::new(
            "time",
            "S",
            Kind::Real {
                min: 0.001,
                max: 86_400.0,
            },
            "seconds per move (time_settings/time_left may lower it)",
        ),
        Opt::new(
            "threads",
            "T",
            Kind::Int {
                min: 1,
                max: MAX_SEARCH_THREADS as u64,
            },
            "search threads (root parallelism; with 1 the tree is kept between moves)",
        )
        .or("1"),
        SEED,
        Opt::new(
            "size",
            "N",
            Kind::Int {
                min: MIN_SIZE as u64,
                max: MAX_SIZE as u64,
            },
            "board size until boardsize changes it",
        )
        .or("9"),
        Opt::new(
            "komi",
            "K",
            Kind::Real {
                min: -(KOMI_LIMIT as f64),
                max: KOMI_LIMIT as f64,
            },
            "komi until komi changes it",
        )
        .or("7.5"),
        Opt::new(
            "resign",
            "R",
            Kind::Real { min: 0.0, max: 1.0 },
            "resign when the best move's win rate is below R (0: never)",
        )
        .or("0.1"),
        Opt::new(
            "nodes",
            "N",
            Kind::Int {
                min: 1_000,
                max: 100_000_000,
            },
            "tree nodes (40 bytes each; 10,000 playouts a move on 9x9 grow about 0.8 M); a full\n\
             tree stops growing and keeps searching",
        )
        .or("4000000"),
        Opt::new(
            "policy",
            "P",
            Kind::Choice(&["light", "mogo"]),
            "playout policy: light (uniform, no own-eye fills) or mogo (MoGo's save atari,\n\
             nakade, fill board, 3x3 patterns, capture)",
        )
        .or("mogo"),
        Opt::new(
            "priors",
            "on|off",
            Kind::Choice(&["on", "off"]),
            "on: MoGo's score with the Go priors H(d) as equivalent simulations;\n\
             off: UCT-RAVE without priors",
        )
        .or("on"),
        Opt::new(
            "mogo-c",
            "C",
            Kind::Real { min: 0.0, max: 1e6 },
            "C of MoGo's score, the weight of the prior in C/ln(2+n)·H (default: the player's)",
        ),
        Opt::new(
            "c1",
            "X",
            Kind::Real { min: 0.0, max: 1e6 },
            "c1 of MoGo's score and of UCT-RAVE: RAVE's weight r/(r+n+c1·n·r) (default: the player's)",
        ),
        Opt::new(
            "c2",
            "X",
            Kind::Real { min: 0.0, max: 1e6 },
            "c2 of MoGo's score: the prior's weight c2/r while AMAF data is scarce (default: the player's)",
        ),
        Opt::new(
            "expand",
            "N",
            Kind::Int {
                min: 1,
                max: u32::MAX as u64,
            },
            "visits (priors' equivalent ones included) before a leaf is expanded (default: the player's)",
        ),
        Opt::new(
            "prior-scale",
            "X",
            Kind::Real {
                min: 0.0,
                max: 100.0,
            },
            "multiplies every prior's weight in equivalent simulations",
        )
        .or("1"),
        Opt::new(
            "ladders",
            "on|off",
            Kind::Choice(&["on", "off"]),
            "off: the priors do not read ladders (for the ablation)",
        )
        .or("on"),
        Opt::new(
            "snapbacks",
            "on|off",
            Kind::Choice(&["on", "off"]),
            "off: a self-atari that ataris with a snapback is avoided like any other",
        )
        .or("on"),
        Opt::new(
            "closeness",
            "manhattan|cfg",
            Kind::Choice(&["manhattan", "cfg"]),
            "how the priors count the distance to the last move: on the grid, or in the\n\
             common-fate graph (a string is one point) (default: the player's)",
        ),
        Opt::new(
            "near",
            "W1,W2,W3",
            Kind::Text,
            "the priors' weights of distance 1, 2, 3 to the last move (default: the player's)",
        ),
        Opt::new(
            "rave",
            "on|off",
            Kind::Choice(&["on", "off"]),
            "off: no RAVE term (beta = 0, as with c1 infinite; for the ablation)",
        )
        .or("on"),
        Opt::new(
            "rules-off",
            "LIST",
            Kind::Text,
            "MoGo playout rules to switch off, comma-separated: save-atari, nakade, fill-board,\n\
             patterns, approach, capture (for ablations)",
        ),
    ],
};

pub fn run(args: Args) -> Result<(), Failure> {
    args.no_operands()?;
    let playouts: Option<u32> = args.get("playouts")?;
    let time: Option<f64> = args.get("time")?;
    let threads: usize = args.need("threads")?;
    let seed: u64 = args.need("seed")?;
    let size: u8 = args.need("size")?;
    let komi: f64 = args.need("komi")?;
    let resign: f64 = args.need("resign")?;
    let nodes: usize = args.need("nodes")?;
    let policy: String = args.need("policy")?;
    let priors: String = args.need("priors")?;
    if playouts.is_some() && time.is_some() {
        return Err(Failure::Usage(
            "give --playouts or --time, not both".to_owned(),
        ));
    }
    let limits = Limits {
        playouts: match (playouts, time) {
            (None, None) => Some(DEFAULT_PLAYOUTS),
            _ => playouts,
        },
        move_time_us: time.map(|s| (s * 1e6) as u64),
    };
    let mogo = PlayerConfig::mogo(size);
    let light = PlayerConfig::for_size(size);
    let (selection, prior, expand_threshold) = if priors == "on" {
        (mogo.selection, mogo.priors, mogo.expand_threshold)
    } else {
        (light.selection, None, light.expand_threshold)
    };
    let playouts = if policy == "mogo" {
        let mut rules = match mogo.playouts {
            Playouts::Mogo(rules) => rules,
            Playouts::Light => MogoConfig::default(),
        };
        if let Some(list) = args.get::<String>("rules-off")? {
            switch_off(&mut rules, &list)?;
        }
        Playouts::Mogo(rules)
    } else {
        if args.get::<String>("rules-off")?.is_some() {
            return Err(Failure::Usage("--rules-off needs --policy mogo".to_owned()));
        }
        Playouts::Light
    };
    let selection = tuned_selection(selection, &args)?;
    let prior_scale: f64 = args.need("prior-scale")?;
    let ladders = args.need::<String>("ladders")? == "on";
    let snapbacks = args.need::<String>("snapbacks")? == "on";
    let closeness = match args.get::<String>("closeness")?.as_deref() {
        Some("cfg") => Some(Closeness::CommonFate),
        Some(_) => Some(Closeness::Manhattan),
        None => None,
    };
    let near = args
        .get::<String>("near")?
        .map(|t| near_weights(&t))
        .transpose()?;
    if prior.is_none() && (closeness.is_some() || near.is_some()) {
        return Err(Failure::Usage(
            "--closeness and --near need --priors on".to_owned(),
        ));
    }
    let prior = prior.map(|p| {
        let p = GoPriors {
            ladders,
            snapbacks,
            closeness: closeness.unwrap_or(p.closeness),
            near: near.unwrap_or(p.near),
            ..p
        };
        p.scaled(prior_scale as f32)
    });
    let expand_threshold: u32 = args.get("expand")?.unwrap_or(expand_threshold);
    let config = PlayerConfig {
        selection,
        playouts,
        priors: prior,
        expand_threshold,
        threads,
        seed,
        resign: resign as f32,
        ..PlayerConfig::for_size(size)
    };
    let mut storage = vec![Node::<Move>::default(); nodes];
    let mut player = Player::new(&mut storage, size, config)
        .map_err(|e| Failure::Usage(format!("--size {size}: {e}")))?;
    player
        .set_komi(komi as f32)
        .map_err(|e| Failure::Usage(format!("--komi: {e}")))?;
    let start = Instant::now();
    let clock = move || start.elapsed().as_micros() as u64;
    let mut engine = Engine::new(player, limits, clock);

    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut line = Vec::new();
    let mut reply = String::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(e) => return Err(Failure::Job(format!("cannot read standard input: {e}"))),
        }
        reply.clear();
        let text = String::from_utf8_lossy(&line);
        // Writing to a String cannot fail.
        let status = engine.execute(&text, &mut reply).unwrap_or(Status::Replied);
        if status == Status::Silent {
            continue;
        }
        out!("{reply}");
        super::flush_stdout();
        // A log line per move on stderr, which GUIs show in their engine log.
        if let Some(searched) = engine.take_searched() {
            let d = searched.decision;
            let seconds = searched.micros as f64 / 1e6;
            let speed = if seconds > 0.0 {
                f64::from(d.iterations) / seconds
            } else {
                0.0
            };
            noteln!(
                "genmove: {} iterations in {seconds:.3} s ({speed:.0}/s), {} nodes, win rate {:.1}%{}",
                d.iterations,
                d.nodes,
                100.0 * d.win_rate,
                if d.judged {
                    ", pass judged by ownership"
                } else {
                    ""
                }
            );
        }
        if status == Status::Quit {
            return Ok(());
        }
    }
}

/// The selection with `--mogo-c`, `--c1`, `--c2` and `--rave` applied (all but `--c1` belong
/// to MoGo's score only: UCT-RAVE without RAVE and with C = 0 would never try a move).
fn tuned_selection(selection: Selection, args: &Args) -> Result<Selection, Failure> {
    let c: Option<f64> = args.get("mogo-c")?;
    let c1: Option<f64> = args.get("c1")?;
    let c2: Option<f64> = args.get("c2")?;
    let rave_off = args.need::<String>("rave")? == "off";
    if rave_off && c1.is_some() {
        return Err(Failure::Usage(
            "--c1 weighs RAVE: it cannot go with --rave off".to_owned(),
        ));
    }
    // An infinite c1 makes beta = r / (r + n + c1·n·r) zero (its NaN at n = 0 is read as 0).
    let c1 = if rave_off { Some(f64::INFINITY) } else { c1 };
    Ok(match selection {
        Selection::MoGo(mut mogo) => {
            mogo.c = c.unwrap_or(mogo.c);
            mogo.c1 = c1.unwrap_or(mogo.c1);
            mogo.c2 = c2.unwrap_or(mogo.c2);
            Selection::MoGo(mogo)
        }
        Selection::Rave(mut rave) => {
            if c.is_some() || c2.is_some() || rave_off {
                return Err(Failure::Usage(
                    "--mogo-c, --c2 and --rave off need --priors on (MoGo's score)".to_owned(),
                ));
            }
            rave.c1 = c1.unwrap_or(rave.c1);
            Selection::Rave(rave)
        }
        other => other,
    })
}

/// Three weights in equivalent simulations, comma-separated.
fn near_weights(text: &str) -> Result<[f32; 3], Failure> {
    let bad = || {
        Failure::Usage(format!(
            "--near: '{text}' is not three weights from 0 to 1000 (W1,W2,W3)"
        ))
    };
    let mut weights = [0f32; 3];
    let mut parts = text.split(',');
    for w in &mut weights {
        let x: f32 = parts
            .next()
            .ok_or_else(bad)?
            .trim()
            .parse()
            .map_err(|_| bad())?;
        if !(0.0..=1000.0).contains(&x) {
            return Err(bad());
        }
        *w = x;
    }
    if parts.next().is_some() {
        return Err(bad());
    }
    Ok(weights)
}

/// Switches off the MoGo playout rules named in `list` (comma-separated).
fn switch_off(rules: &mut MogoConfig, list: &str) -> Result<(), Failure> {
    for name in list.split(',').map(str::trim) {
        match name {
            "save-atari" => rules.save_atari = false,
            "nakade" => rules.nakade = false,
            "fill-board" => rules.fill_board = false,
            "patterns" => rules.patterns = false,
            "approach" => rules.approach = false,
            "capture" => rules.capture = false,
            _ => {
                return Err(Failure::Usage(format!(
                    "--rules-off: unknown rule '{name}' (save-atari, nakade, fill-board, patterns, approach, capture)"
                )));
            }
        }
    }
    Ok(())
}
