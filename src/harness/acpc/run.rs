//! `arbor acpc dealer`: runs a match (one half, or two with the seats swapped), seats the
//! players of each half, checkpoints every hand to the CSV, writes the ACPC logs and prints
//! the results.
use std::fmt::Write as _;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::dealer::play_hand;
use super::report::{self, Row};
use super::seat::{Remote, Seat, SeatSpec, start_client};
use crate::harness::resources::write_file;
use crate::harness::{Args, Failure};
use crate::holdem::bots::parse_bot;
use crate::holdem::deal::Dealer;
use crate::holdem::rules::HoldemConfig;

/// The ACPC game every match here plays.
const GAME: &str = "holdem.nolimit.2p.reverse_blinds.game";
/// The reference dealer's limits per hand and per hand on average, written in the log's
/// header as it does; this dealer enforces only the per-action limit.
const T_HAND_MS: u64 = 600_000;
const T_PER_HAND_MS: u64 = 7_000;
/// Pending CSV rows are written at least this often (and at the end, and before an error).
const CSV_FLUSH: Duration = Duration::from_secs(1);
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// A match as given on the command line.
struct Match {
    specs: [String; 2],
    /// bot0's and bot1's names in the log.
    names: [String; 2],
    hands: u64,
    seed: u32,
    duplicate: bool,
    limit: Duration,
    config: HoldemConfig,
}

impl Match {
    fn halves(&self) -> u8 {
        if self.duplicate { 2 } else { 1 }
    }

    /// What a resumed CSV must have been started with.
    fn settings_line(&self) -> String {
        format!(
            "# arbor acpc dealer: bot0 {} bot1 {} name0 {} name1 {} hands {} seed {} duplicate {}",
            self.specs[0],
            self.specs[1],
            self.names[0],
            self.names[1],
            self.hands,
            self.seed,
            if self.duplicate { "on" } else { "off" }
        )
    }

    /// The bot (0 or 1) in `seat` during `half`.
    fn bot_in(seat: usize, half: u8) -> usize {
        seat ^ usize::from(half)
    }
}

/// A name the log can hold: no spaces, `:`, `|` or `,` (the CSV keeps the log line).
fn log_name(text: &str) -> String {
    let name: String = text
        .chars()
        .map(|c| {
            if c.is_whitespace() || matches!(c, ':' | '|' | ',') || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    if name.is_empty() {
        "_".to_owned()
    } else {
        name
    }
}

pub fn run(args: Args) -> Result<(), Failure> {
    args.no_operands()?;
    let specs: [String; 2] = [args.need("bot0")?, args.need("bot1")?];
    for (flag, spec) in ["--bot0", "--bot1"].iter().zip(&specs) {
        match SeatSpec::parse(spec) {
            SeatSpec::Bot(text) => {
                parse_bot(&text).map_err(|e| Failure::Usage(format!("{flag} '{text}': {e}")))?;
            }
            SeatSpec::Command(command) if command.split_whitespace().next().is_none() => {
                return Err(Failure::Usage(format!(
                    "{flag}: the client command is empty"
                )));
            }
            _ => {}
        }
    }
    let names = [
        log_name(
            &args
                .get::<String>("name0")?
                .unwrap_or_else(|| specs[0].clone()),
        ),
        log_name(
            &args
                .get::<String>("name1")?
                .unwrap_or_else(|| specs[1].clone()),
        ),
    ];
    let game = Match {
        names,
        hands: args.need("hands")?,
        seed: args.need::<u32>("seed")?,
        duplicate: args.need::<String>("duplicate")? == "on",
        limit: Duration::from_millis(args.need("action-ms")?),
        config: HoldemConfig::ACPC,
        specs,
    };
    let log: Option<PathBuf> = args.get("log")?;
    let csv: Option<PathBuf> = args.get("csv")?;
    let progress = args.need::<String>("progress")? == "on";
    let hands = game.hands;
    let halves = game.halves();
    let order = |index: usize| {
        let half = index as u64 / hands;
        (half < u64::from(halves)).then_some((half as u8, index as u64 % hands))
    };
    let mut rows = match &csv {
        Some(path) => report::resume(path, &game.settings_line(), order)?,
        None => Vec::new(),
    };
    if !rows.is_empty() {
        noteln!("resuming after {} hands in the CSV", rows.len());
    }
    let total = hands * u64::from(halves);
    let already = rows.len() as u64;
    let started = Instant::now();
    for half in 0..halves {
        let done_in_half = rows.iter().filter(|r| r.half == half).count() as u64;
        if done_in_half < hands {
            let mut clock = Clock {
                started,
                already,
                total,
                last_note: started,
                progress,
            };
            play_half(
                &game,
                half,
                done_in_half,
                &mut rows,
                csv.as_deref(),
                &mut clock,
            )?;
        }
        let half_rows: Vec<&Row> = rows.iter().filter(|r| r.half == half).collect();
        let score = score_line(&game, half, &half_rows);
        outln!("{score}");
        if let Some(path) = &log {
            let path = if half == 0 {
                path.clone()
            } else {
                swapped_path(path)
            };
            write_file(&path, &log_text(&game, &path, &half_rows, &score))?;
        }
    }
    let played = rows.len() as u64 - already;
    let seconds = started.elapsed().as_secs_f64();
    let speed = (played > 0 && seconds > 0.0).then(|| played as f64 / seconds);
    out!(
        "{}",
        report::summary(
            &rows,
            &game.names,
            game.duplicate,
            game.config.big_blind(),
            speed
        )
    );
    Ok(())
}

/// Progress over the whole match.
struct Clock {
    started: Instant,
    /// Hands done before this run.
    already: u64,
    total: u64,
    last_note: Instant,
    progress: bool,
}

impl Clock {
    fn tick(&mut self, done: u64) {
        if !self.progress || self.last_note.elapsed() < PROGRESS_EVERY {
            return;
        }
        self.last_note = Instant::now();
        let played = done.saturating_sub(self.already).max(1);
        let rate = played as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
        let eta = self.total.saturating_sub(done) as f64 / rate;
        noteln!(
            "hand {done}/{} ({rate:.0} hands/s, ETA {eta:.0} s)",
            self.total
        );
    }
}

/// Plays hands `start..` of `half`, appending to `rows` (and the CSV).
fn play_half(
    game: &Match,
    half: u8,
    start: u64,
    rows: &mut Vec<Row>,
    csv: Option<&Path>,
    clock: &mut Clock,
) -> Result<(), Failure> {
    let seat_names = [0, 1].map(|seat| game.names[Match::bot_in(seat, half)].clone());
    let mut seats = seat_up(game, half)?;
    let mut dealer = Dealer::starting_at(game.seed, start);
    let mut pending = String::new();
    let mut last_flush = Instant::now();
    let flush = |pending: &mut String| -> Result<(), Failure> {
        if let Some(path) = csv
            && !pending.is_empty()
        {
            report::append(path, pending)?;
        }
        pending.clear();
        Ok(())
    };
    for hand in start..game.hands {
        let deal = dealer.next_hand();
        let mut warn = |text: String| noteln!("WARNING: {text}");
        let played = play_hand(
            &mut seats,
            &seat_names,
            game.config,
            &deal,
            hand,
            game.limit,
            &mut warn,
        );
        let record = match played {
            Ok(record) => record,
            Err(fault) => {
                flush(&mut pending)?;
                return Err(Failure::Job(format!(
                    "ERROR: hand {hand}: seat {} ({}): {}",
                    fault.seat, seat_names[fault.seat], fault.error
                )));
            }
        };
        let bot0_seat = usize::from(half);
        let [ns0, ns1] = record.latency_ns;
        let latency_ns = if half == 0 { [ns0, ns1] } else { [ns1, ns0] };
        let row = Row {
            half,
            hand,
            chips: [record.chips[bot0_seat], record.chips[1 - bot0_seat]],
            warnings: record.warnings,
            latency_ns,
            state: record.log_line,
        };
        if csv.is_some() {
            pending.push_str(&row.csv());
            if last_flush.elapsed() >= CSV_FLUSH {
                flush(&mut pending)?;
                last_flush = Instant::now();
            }
        }
        rows.push(row);
        clock.tick(rows.len() as u64);
    }
    flush(&mut pending)
}

/// The seats of `half`: bots built afresh (as a restarted client would be), clients started
/// or awaited on ephemeral ports of 127.0.0.1, printed on one line as the reference dealer
/// does (`-` for an in-process seat).
fn seat_up(game: &Match, half: u8) -> Result<[Seat; 2], Failure> {
    let specs = [0, 1].map(|seat| SeatSpec::parse(&game.specs[Match::bot_in(seat, half)]));
    let mut listeners: [Option<TcpListener>; 2] = [None, None];
    let mut ports = [String::from("-"), String::from("-")];
    for (seat, spec) in specs.iter().enumerate() {
        if !matches!(spec, SeatSpec::Bot(_)) {
            let listener = TcpListener::bind(("127.0.0.1", 0))
                .map_err(|e| Failure::Job(format!("cannot listen on 127.0.0.1: {e}")))?;
            let port = listener
                .local_addr()
                .map_err(|e| Failure::Job(format!("cannot read the port: {e}")))?
                .port();
            ports[seat] = port.to_string();
            listeners[seat] = Some(listener);
        }
    }
    if listeners.iter().any(Option::is_some) {
        outln!("{} {}", ports[0], ports[1]);
    }
    let mut seats = Vec::with_capacity(2);
    for (seat, spec) in specs.iter().enumerate() {
        let made = match (spec, &listeners[seat]) {
            (SeatSpec::Bot(text), _) => parse_bot(text)
                .map(Seat::Bot)
                .map_err(|e| Failure::Usage(format!("'{text}': {e}")))?,
            (spec, Some(listener)) => {
                let child = match spec {
                    SeatSpec::Command(command) => {
                        let port = listener.local_addr().map(|a| a.port()).unwrap_or(0);
                        Some(start_client(command, port).map_err(Failure::Job)?)
                    }
                    _ => None,
                };
                let remote = Remote::accept(listener, child, game.limit).map_err(|e| {
                    Failure::Job(format!("ERROR: seat {seat} ({}): {e}", ports[seat]))
                })?;
                Seat::Remote(remote)
            }
            (_, None) => {
                return Err(Failure::Job(
                    "internal: a client seat without a port".into(),
                ));
            }
        };
        seats.push(made);
    }
    let [a, b]: [Seat; 2] = seats
        .try_into()
        .map_err(|_| Failure::Job("internal: not two seats".into()))?;
    Ok([a, b])
}

/// `SCORE:<seat0>|<seat1>:<name0>|<name1>` for one half, by seat.
fn score_line(game: &Match, half: u8, rows: &[&Row]) -> String {
    let mut by_seat = [0i64; 2];
    for row in rows {
        by_seat[usize::from(half)] += row.chips[0];
        by_seat[1 - usize::from(half)] += row.chips[1];
    }
    let names = [0, 1].map(|seat| game.names[Match::bot_in(seat, half)].as_str());
    let score = crate::holdem::acpc::Score {
        values: by_seat,
        names,
    };
    score.to_string()
}

/// The ACPC log of one half: the header, a `STATE:` line per hand, the `SCORE:` line.
fn log_text(game: &Match, path: &Path, rows: &[&Row], score: &str) -> String {
    let name = path
        .file_stem()
        .map(|s| log_name(&s.to_string_lossy()))
        .unwrap_or_else(|| "match".to_owned());
    let mut text = String::with_capacity(rows.len() * 80 + 200);
    let _ = writeln!(
        text,
        "# name/game/hands/seed {name} {GAME} {} {}",
        game.hands, game.seed
    );
    let _ = writeln!(text, "#--t_response {}", game.limit.as_millis());
    let _ = writeln!(text, "#--t_hand {T_HAND_MS}");
    let _ = writeln!(text, "#--t_per_hand {T_PER_HAND_MS}");
    for row in rows {
        text.push_str(&row.state);
        text.push('\n');
    }
    text.push_str(score);
    text.push('\n');
    text
}

/// Where the swapped half's log goes: `m.log` → `m.swapped.log`.
fn swapped_path(path: &Path) -> PathBuf {
    let stem = path.file_stem().map(|s| s.to_owned()).unwrap_or_default();
    let mut name = stem;
    name.push(".swapped");
    if let Some(ext) = path.extension() {
        name.push(".");
        name.push(ext);
    }
    path.with_file_name(name)
}
