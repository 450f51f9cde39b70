//! `arbor acpc dealer`: runs a match (one half, or two with the seats swapped), seats the
//! players of each half, checkpoints every hand to the CSV, writes the ACPC logs and prints
//! the results.
//!
//! The unit of work is a segment: hands of one half played by the same seated players, from
//! a fresh start of the players to the end of the half, or to the next multiple of
//! `--reset-every`. Players keep state from hand to hand (opponent models, statistics), so
//! only whole segments are independent; in a distributed run (`mpirun -np K`) each rank
//! plays whole segments and the root writes the files, so the match is the one-process match.
use std::fmt::Write as _;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::dealer::{Limits, SeatCounts, Seating, TableRules, play_hand};
use super::match_time::MatchTime;
use super::report::{self, Row};
use super::seat::{Remote, Seat, SeatSpec, start_client};
use super::transactions::Transactions;
use super::transcript::Transcript;
use crate::harness::cluster::{self, tasks::run_tasks_on_ranks};
use crate::harness::resources::write_file;
use crate::harness::{Args, Failure};
use crate::holdem::bots::parse_bot;
use crate::holdem::deal::Dealer;
use crate::holdem::rules::HoldemConfig;

/// The ACPC game every match here plays.
const GAME: &str = "holdem.nolimit.2p.reverse_blinds.game";
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
    /// Players start afresh every this many hands of a half (`--reset-every`).
    reset_every: Option<u64>,
    /// The limits per action and per hand, and on invalid actions.
    limits: Limits,
    /// Whether the button moves every hand (`--fixed-seats`).
    seating: Seating,
    /// How long a client has to connect and say its version (`--start-ms`).
    start: Duration,
    /// A bot's average time per hand over a half (`--match-ms-per-hand`).
    per_hand: Duration,
    config: HoldemConfig,
}

impl Match {
    fn halves(&self) -> u8 {
        if self.duplicate { 2 } else { 1 }
    }

    /// What a resumed CSV must have been started with (`reset-every` only when given, so
    /// that older CSVs still resume).
    fn settings_line(&self) -> String {
        let mut line = format!(
            "# arbor acpc dealer: bot0 {} bot1 {} name0 {} name1 {} hands {} seed {} duplicate {}",
            self.specs[0],
            self.specs[1],
            self.names[0],
            self.names[1],
            self.hands,
            self.seed,
            if self.duplicate { "on" } else { "off" }
        );
        if let Some(every) = self.reset_every {
            let _ = write!(line, " reset-every {every}");
        }
        if self.seating == Seating::Fixed {
            line.push_str(" fixed-seats on");
        }
        line
    }

    /// The segments left after `done` hands (in match order): each half from where it
    /// stands, cut at the multiples of `--reset-every`.
    fn segments(&self, done: u64) -> Vec<Segment> {
        let mut segments = Vec::new();
        for half in 0..self.halves() {
            let mut start = done
                .saturating_sub(u64::from(half) * self.hands)
                .min(self.hands);
            while start < self.hands {
                let end = self
                    .reset_every
                    .map_or(self.hands, |every| {
                        (start / every + 1).saturating_mul(every)
                    })
                    .min(self.hands);
                segments.push(Segment { half, start, end });
                start = end;
            }
        }
        segments
    }

    /// The bot (0 or 1) in `seat` during `half`.
    fn bot_in(seat: usize, half: u8) -> usize {
        seat ^ usize::from(half)
    }
}

/// Hands `start..end` of `half`, played by players seated afresh at `start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Segment {
    half: u8,
    start: u64,
    end: u64,
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
    let seats: Vec<SeatSpec> = specs.iter().map(|spec| SeatSpec::parse(spec)).collect();
    let reset_every: Option<u64> = args.get("reset-every")?;
    if seats.contains(&SeatSpec::Port) {
        if cluster::size() > 1 {
            return Err(Failure::Usage(
                "a `port` seat waits for one client on one port, so its hands cannot be \
                 spread over ranks: use cmd:COMMAND (each rank starts its own client) or run \
                 one process"
                    .into(),
            ));
        }
        if reset_every.is_some() {
            return Err(Failure::Usage(
                "--reset-every restarts the players, but a `port` seat's client connects only \
                 once: use cmd:COMMAND"
                    .into(),
            ));
        }
    }
    let action = Duration::from_millis(args.need("action-ms")?);
    let game = Match {
        names,
        hands: args.need("hands")?,
        seed: args.need::<u32>("seed")?,
        duplicate: args.need::<String>("duplicate")? == "on",
        reset_every,
        limits: Limits {
            action,
            hand: Duration::from_millis(args.need("hand-ms")?),
            invalid: args.get("max-invalid")?,
        },
        seating: if args.need::<String>("fixed-seats")? == "on" {
            Seating::Fixed
        } else {
            Seating::Rotating
        },
        start: args
            .get::<u64>("start-ms")?
            .map_or(action, Duration::from_millis),
        per_hand: Duration::from_millis(args.need("match-ms-per-hand")?),
        config: HoldemConfig::ACPC,
        specs,
    };
    let log: Option<PathBuf> = args.get("log")?;
    let csv: Option<PathBuf> = args.get("csv")?;
    let progress = args.need::<String>("progress")? == "on";
    let transcript_path: Option<PathBuf> = args.get("transcript")?;
    if transcript_path.is_some() && cluster::size() > 1 {
        return Err(Failure::Usage(
            "--transcript needs one process: the ranks of a distributed run play at once".into(),
        ));
    }
    let transactions_path: Option<PathBuf> = args.get("transactions")?;
    if transactions_path.is_some() && cluster::size() > 1 {
        return Err(Failure::Usage(
            "--transactions needs one process: the ranks of a distributed run play at once".into(),
        ));
    }
    let mut transcript = transcript_path
        .map(|path| Transcript::open(&path))
        .transpose()?;
    let hands = game.hands;
    let halves = game.halves();
    let order = |index: usize| {
        let half = index as u64 / hands;
        (half < u64::from(halves)).then_some((half as u8, index as u64 % hands))
    };
    // The root alone reads the CSV; the other ranks learn how many hands it holds.
    let mut rows = Vec::new();
    let already = cluster::from_root(|| {
        if let Some(path) = &csv {
            rows = report::resume(path, &game.settings_line(), game.seating, order)?;
        }
        Ok(rows.len() as u64)
    })?;
    if already > 0 {
        noteln!("resuming after {already} hands in the CSV");
    }
    // The transaction file goes on with the CSV: its actions of hands the CSV lacks are
    // played again first.
    let mut transactions = transactions_path
        .map(|path| {
            Transactions::open(&path, &game.settings_line(), csv.is_some(), |half, hand| {
                u64::from(half) * hands + hand < already
            })
        })
        .transpose()?;
    if let Some(pending) = transactions.as_ref().map(Transactions::pending)
        && pending > 0
    {
        noteln!("resuming {pending} actions from the transaction file");
    }
    // The resumed rows are the root's alone: what this run plays comes after these.
    let rows_before = rows.len();
    let mut match_time = MatchTime::new(game.per_hand, hands);
    for row in &rows {
        match_time.charge(row, &game.names)?;
    }
    let segments = game.segments(already);
    let total = hands * u64::from(halves);
    let started = Instant::now();
    let mut clock = Clock {
        started,
        already,
        total,
        last_note: started,
        progress,
    };
    let mut writer = CsvWriter {
        path: csv.filter(|_| cluster::is_root()),
        seating: game.seating,
        pending: String::new(),
        last_flush: started,
    };
    let mut results = Results {
        game: &game,
        log: log.filter(|_| cluster::is_root()),
        reported: 0,
    };
    results.report_finished(&rows, &segments, 0)?;
    if cluster::size() == 1 {
        for (index, segment) in segments.iter().enumerate() {
            let played = play_segment(
                &game,
                *segment,
                &mut |text| noteln!("WARNING: {text}"),
                transcript.as_mut(),
                transactions.as_mut(),
                &mut |row| {
                    match_time.charge(&row, &game.names)?;
                    writer.push(&row)?;
                    rows.push(row);
                    clock.tick(rows.len() as u64);
                    Ok(())
                },
            );
            writer.flush()?;
            played?;
            results.report_finished(&rows, &segments, index + 1)?;
        }
    } else {
        // Rounds of one segment per rank: the CSV grows in match order after each round.
        let ranks = cluster::size();
        for (round, chunk) in segments.chunks(ranks).enumerate() {
            let played = run_tasks_on_ranks(
                chunk.len(),
                1,
                || Ok(()),
                |(), i| played_segment(&game, chunk[i]),
                |_| {},
            )?;
            for (segment_rows, warnings) in played {
                for text in warnings {
                    noteln!("WARNING: {text}");
                }
                for row in segment_rows {
                    if let Err(failure) = match_time.charge(&row, &game.names) {
                        writer.flush()?;
                        return Err(failure);
                    }
                    writer.push(&row)?;
                    rows.push(row);
                }
            }
            writer.flush()?;
            clock.tick(rows.len() as u64);
            results.report_finished(
                &rows,
                &segments,
                (round * ranks + chunk.len()).min(segments.len()),
            )?;
        }
    }
    let played = (rows.len() - rows_before) as u64;
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

/// The halves' SCORE lines and logs, each given as soon as its last segment is played.
struct Results<'a> {
    game: &'a Match,
    log: Option<PathBuf>,
    /// Halves already reported.
    reported: u8,
}

impl Results<'_> {
    /// Reports every half that no segment after the first `finished` of `segments` plays.
    fn report_finished(
        &mut self,
        rows: &[Row],
        segments: &[Segment],
        finished: usize,
    ) -> Result<(), Failure> {
        while self.reported < self.game.halves()
            && segments[finished..]
                .iter()
                .all(|segment| segment.half > self.reported)
        {
            let half = self.reported;
            let half_rows: Vec<&Row> = rows.iter().filter(|r| r.half == half).collect();
            let score = score_line(self.game, half, &half_rows);
            outln!("{score}");
            if let Some(path) = &self.log {
                let path = if half == 0 {
                    path.clone()
                } else {
                    swapped_path(path)
                };
                write_file(&path, &log_text(self.game, &path, &half_rows, &score))?;
            }
            self.reported += 1;
        }
        Ok(())
    }
}

/// The CSV's rows not yet written (nothing on ranks other than the root, or without --csv),
/// written at least every [`CSV_FLUSH`] and whenever [`CsvWriter::flush`] is called.
struct CsvWriter {
    path: Option<PathBuf>,
    seating: Seating,
    pending: String,
    last_flush: Instant,
}

impl CsvWriter {
    fn push(&mut self, row: &Row) -> Result<(), Failure> {
        if self.path.is_none() {
            return Ok(());
        }
        self.pending.push_str(&row.csv(self.seating));
        if self.last_flush.elapsed() >= CSV_FLUSH {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), Failure> {
        if let Some(path) = &self.path
            && !self.pending.is_empty()
        {
            report::append(path, &self.pending)?;
        }
        self.pending.clear();
        self.last_flush = Instant::now();
        Ok(())
    }
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

/// Plays `segment` with players seated afresh, handing each hand's row to `on_row`, each
/// warning's text to `warn`, every message to `transcript` and every action to
/// `transactions`.
fn play_segment(
    game: &Match,
    segment: Segment,
    warn: &mut dyn FnMut(String),
    mut transcript: Option<&mut Transcript>,
    transactions: Option<&mut Transactions>,
    on_row: &mut dyn FnMut(Row) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let mut seats = seat_up(game, segment.half)?;
    if let Some(transcript) = transcript.as_deref_mut() {
        transcript.mark("STARTED");
    }
    let played = play_seated(
        game,
        segment,
        &mut seats,
        warn,
        transcript.as_deref_mut(),
        transactions,
        on_row,
    );
    match transcript {
        Some(transcript) => {
            if played.is_ok() {
                transcript.mark("FINISHED");
            }
            played.and(transcript.finish())
        }
        None => played,
    }
}

/// The hands of `segment` at the table of `seats`.
fn play_seated(
    game: &Match,
    segment: Segment,
    seats: &mut [Seat; 2],
    warn: &mut dyn FnMut(String),
    mut transcript: Option<&mut Transcript>,
    mut transactions: Option<&mut Transactions>,
    on_row: &mut dyn FnMut(Row) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let half = segment.half;
    let seat_names = [0, 1].map(|seat| game.names[Match::bot_in(seat, half)].clone());
    let mut dealer = Dealer::starting_at(game.seed, segment.start);
    let rules = TableRules {
        limits: game.limits,
        seating: game.seating,
    };
    // Invalid actions count from the seating on, as the reference counts them from its
    // start (a resumed reference match counts afresh too).
    let mut counts = SeatCounts::default();
    for hand in segment.start..segment.end {
        let deal = dealer.next_hand();
        if let Some(transactions) = transactions.as_deref_mut() {
            transactions.begin_hand(half, hand);
        }
        let played = play_hand(
            seats,
            &seat_names,
            game.config,
            &deal,
            hand,
            rules,
            &mut counts,
            warn,
            transcript.as_deref_mut(),
            transactions.as_deref_mut(),
        );
        if let Some(transactions) = transactions.as_deref_mut() {
            transactions.finish()?;
        }
        let record = played.map_err(|fault| {
            Failure::Job(format!(
                "ERROR: hand {hand}: seat {} ({}): {}",
                fault.seat, seat_names[fault.seat], fault.error
            ))
        })?;
        let bot0_seat = usize::from(half);
        let [ns0, ns1] = record.latency_ns;
        let latency_ns = if half == 0 { [ns0, ns1] } else { [ns1, ns0] };
        on_row(Row {
            half,
            hand,
            chips: [record.chips[bot0_seat], record.chips[1 - bot0_seat]],
            warnings: record.warnings,
            latency_ns,
            state: record.log_line,
        })?;
    }
    Ok(())
}

/// `segment`'s rows and warnings, played on this rank for the root.
fn played_segment(game: &Match, segment: Segment) -> Result<(Vec<Row>, Vec<String>), String> {
    let mut rows = Vec::new();
    let mut warnings = Vec::new();
    play_segment(
        game,
        segment,
        &mut |text| warnings.push(text),
        None,
        None,
        &mut |row| {
            rows.push(row);
            Ok(())
        },
    )
    .map_err(|(Failure::Usage(why) | Failure::Job(why))| why)?;
    Ok((rows, warnings))
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
                let remote = Remote::accept(listener, child, game.start, game.limits.action)
                    .map_err(|e| {
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
    let _ = writeln!(text, "#--t_response {}", game.limits.action.as_millis());
    let _ = writeln!(text, "#--t_hand {}", game.limits.hand.as_millis());
    let _ = writeln!(text, "#--t_per_hand {}", game.per_hand.as_millis());
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

#[cfg(test)]
mod tests {
    use super::*;

    fn game(hands: u64, duplicate: bool, reset_every: Option<u64>) -> Match {
        Match {
            specs: ["call".into(), "call".into()],
            names: ["a".into(), "b".into()],
            hands,
            seed: 1,
            duplicate,
            reset_every,
            limits: Limits {
                action: Duration::from_secs(1),
                hand: Duration::from_secs(1),
                invalid: None,
            },
            seating: Seating::Rotating,
            start: Duration::from_secs(1),
            per_hand: Duration::from_secs(1),
            config: HoldemConfig::ACPC,
        }
    }

    fn spans(segments: &[Segment]) -> Vec<(u8, u64, u64)> {
        segments.iter().map(|s| (s.half, s.start, s.end)).collect()
    }

    #[test]
    fn a_match_splits_into_halves_and_blocks_of_reset_every_hands() {
        assert_eq!(spans(&game(10, false, None).segments(0)), [(0, 0, 10)]);
        assert_eq!(
            spans(&game(10, true, None).segments(0)),
            [(0, 0, 10), (1, 0, 10)]
        );
        assert_eq!(
            spans(&game(10, true, Some(4)).segments(0)),
            [
                (0, 0, 4),
                (0, 4, 8),
                (0, 8, 10),
                (1, 0, 4),
                (1, 4, 8),
                (1, 8, 10)
            ]
        );
        // A resumed match starts its first segment where the CSV stops, and the blocks stay
        // aligned to the multiples of --reset-every.
        assert_eq!(
            spans(&game(10, true, Some(4)).segments(13)),
            [(1, 3, 4), (1, 4, 8), (1, 8, 10)]
        );
        assert_eq!(
            spans(&game(10, true, Some(4)).segments(10)),
            [(1, 0, 4), (1, 4, 8), (1, 8, 10)]
        );
        assert!(game(10, true, None).segments(20).is_empty());
        assert_eq!(spans(&game(3, false, Some(100)).segments(0)), [(0, 0, 3)]);
    }

    #[test]
    fn the_settings_line_names_reset_every_only_when_given() {
        assert!(
            !game(10, false, None)
                .settings_line()
                .contains("reset-every")
        );
        assert!(
            game(10, false, Some(5))
                .settings_line()
                .ends_with(" reset-every 5")
        );
    }
}
