//! `arbor acpc dealer` and `arbor acpc play`: an ACPC 2.0.0 dealer for heads-up no-limit
//! hold'em (the reference dealer's cards, log and warnings; in-process bots or TCP clients;
//! duplicate matches; CSV results that a rerun resumes), an ACPC client for arbor's bots, and
//! `arbor acpc compare`, two matches' results paired by deal.
mod client;
mod compare;
mod deadline;
mod dealer;
mod match_time;
mod report;
mod run;
mod seat;
mod transactions;
mod transcript;

use super::args::{Command, Kind, Opt};

pub use client::run as run_play;
pub use compare::{COMMAND as COMPARE, run as run_compare};
pub use run::run as run_dealer;

pub const DEALER: Command = Command {
    name: "acpc dealer",
    operands: "",
    about: "deal a heads-up no-limit match (ACPC holdem.nolimit.2p.reverse_blinds: stacks\n\
            20000, blinds 100/50) on 127.0.0.1 with the reference dealer's cards for --seed;\n\
            seats rotate every hand (never with --fixed-seats on). A player is a bot spec\n\
            (call, min-raise, all-in, random[:seed=S], equity[:samples=N,seed=S],\n\
            expert[:style=STYLE,seed=S,exploit=P], staged[:style=STYLE,opponent=expert|cnn|online,\n\
            resolve=N,resolve-turn=N,...]: see `arbor help`) played in-process, `cmd:COMMAND`\n\
            (a client the dealer starts; `{port}` in it becomes the seat's port) or `port` (a\n\
            client that connects to the printed port). Invalid actions are corrected with a\n\
            WARNING line on stderr; a player over --action-ms, over --hand-ms in a hand, over\n\
            --match-ms-per-hand x hands in a half or over --max-invalid is an ERROR and exit\n\
            code 1.\n\
            --duplicate on plays every deal again with the seats swapped (log B in\n\
            <log>.swapped). Prints SCORE lines, bot0's mbb/hand with a 95% interval, latency\n\
            percentiles and speed; --csv keeps one row per hand and a rerun resumes it",
    options: &[
        Opt::new("bot0", "SPEC", Kind::Text, "player of seat 0 (bot0)"),
        Opt::new("bot1", "SPEC", Kind::Text, "player of seat 1 (bot1)"),
        Opt::new(
            "hands",
            "N",
            Kind::Int {
                min: 1,
                max: u32::MAX as u64,
            },
            "hands per half",
        )
        .or("1000"),
        Opt::new(
            "seed",
            "S",
            Kind::Int {
                min: 0,
                max: u32::MAX as u64,
            },
            "the deal's seed (the reference dealer's)",
        )
        .or("1"),
        Opt::new(
            "duplicate",
            "on|off",
            Kind::Choice(&["on", "off"]),
            "play each deal twice, seats swapped",
        )
        .or("off"),
        Opt::new(
            "reset-every",
            "N",
            Kind::Int {
                min: 1,
                max: u32::MAX as u64,
            },
            "start the players afresh every N hands of a half (blocks a distributed run \
             can share out; adaptive bots forget)",
        ),
        Opt::new(
            "log",
            "FILE",
            Kind::Path,
            "the ACPC log (STATE and SCORE lines)",
        ),
        Opt::new(
            "csv",
            "FILE",
            Kind::Path,
            "one row per hand; resumed when it exists",
        ),
        Opt::new(
            "action-ms",
            "MS",
            Kind::Int {
                min: 1,
                max: 86_400_000,
            },
            "time limit per action (and for a client to connect); the reference's --t_response",
        )
        .or("600000"),
        Opt::new(
            "hand-ms",
            "MS",
            Kind::Int {
                min: 1,
                max: 86_400_000,
            },
            "time limit for a player's actions in one hand, summed; the reference's --t_hand",
        )
        .or("600000"),
        Opt::new(
            "match-ms-per-hand",
            "MS",
            Kind::Int {
                min: 1,
                max: 86_400_000,
            },
            "a player's time over a half may average this much a hand (MS x hands in all); \
             the reference's --t_per_hand",
        )
        .or("7000"),
        Opt::new(
            "start-ms",
            "MS",
            Kind::Int {
                min: 1,
                max: 86_400_000,
            },
            "time for a client to connect and send its version (default: --action-ms); the \
             reference's --start_timeout",
        ),
        Opt::new(
            "fixed-seats",
            "on|off",
            Kind::Choice(&["on", "off"]),
            "keep the button: seat 0 is the big blind every hand; the reference's -f",
        )
        .or("off"),
        Opt::new(
            "max-invalid",
            "N",
            Kind::Int {
                min: 0,
                max: u32::MAX as u64,
            },
            "invalid actions (changed to call) a player may make since it was seated; one \
             more is an ERROR that ends the match, as in the reference (default: no cap)",
        ),
        Opt::new(
            "transactions",
            "FILE",
            Kind::Path,
            "write every action as it is taken (flushed at once); with --csv a rerun plays \
             the actions of the hands the CSV lacks again and goes on from there, mid-hand; \
             the reference's -T and -a",
        ),
        Opt::new(
            "transcript",
            "FILE|-",
            Kind::Path,
            "append every message sent (TO) and received (FROM) with its time, as the \
             reference dealer prints them; - for stderr",
        ),
        Opt::new("name0", "NAME", Kind::Text, "bot0's name in the log"),
        Opt::new("name1", "NAME", Kind::Text, "bot1's name in the log"),
        Opt::new(
            "progress",
            "on|off",
            Kind::Choice(&["on", "off"]),
            "progress and ETA on stderr",
        )
        .or("on"),
    ],
};

pub const PLAY: Command = Command {
    name: "acpc play",
    operands: "",
    about: "an ACPC 2.0.0 client: connect to a dealer, send VERSION:2.0.0, and answer every\n\
            MATCHSTATE where it is our turn with the bot's action, decided within\n\
            --action-ms; ends when the dealer closes the connection",
    options: &[
        Opt::new("host", "HOST", Kind::Text, "the dealer's address").or("127.0.0.1"),
        Opt::new(
            "port",
            "PORT",
            Kind::Int {
                min: 1,
                max: 65_535,
            },
            "the dealer's port for this seat",
        ),
        Opt::new("bot", "SPEC", Kind::Text, "the bot that plays").or("call"),
        Opt::new(
            "action-ms",
            "MS",
            Kind::Int {
                min: 1,
                max: 86_400_000,
            },
            "the dealer's time limit per action: a bot that searches stops at half of it, \
             counted from the state's arrival (the default keeps 14 actions a hand within \
             the reference's 7 s a hand)",
        )
        .or("1000"),
    ],
};
