//! `arbor go match`: a referee for two GTP engines. It starts both engines afresh for each
//! game (so that a crash or a timeout never spills into the next game), keeps its own board
//! (positional superko, no suicide) and forfeits an engine that plays an illegal move,
//! crashes, answers nonsense or runs over the move time. Colours alternate: engine A (the
//! `--black` command) is Black in the odd games. Each game is appended to `games.csv` and
//! written as SGF; a rerun with the same options resumes after the games already there.
//! Under `mpirun -np K` the ranks play the games in rounds of one game each, and the root
//! alone reads and writes the files (docs/cluster-matches.md).
use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use super::args::{Command, Kind, Opt};
use super::cluster::tasks::run_tasks_on_ranks;
use super::cluster::wire::Wire;
use super::play::wilson;
use super::resources::write_file;
use super::{Args, Failure, cluster};
use crate::go::board::KOMI_LIMIT;
use crate::go::player::ownership;
use crate::go::sgf::{GameRecord, SgfMove, Text};
use crate::go::vertex::{GoMove, Vertex};
use crate::go::{Color, GoGame, MAX_SIZE, MIN_SIZE, Move};
use crate::search::game::seeded_rng;

pub const COMMAND: Command = Command {
    name: "go match",
    operands: "",
    about: "referee a match between two GTP engines (each command is split on whitespace,\n\
            `{game}` in it becomes the game's number, e.g. for `--seed {game}`); engine A is\n\
            --black, B is --white, and they swap colours every game; writes games.csv and\n\
            one SGF per game in --out, resumes from games.csv, and ends with\n\
            `result games <n> A wins <w> (<rate>%, 95% <low>%..<high>%) B wins ... draws <d>\n\
            disagreements <n>`. Under `mpirun -np K` each rank plays one game a round with its\n\
            own engines and the root writes the files: the same files as one process",
    options: &[
        Opt::new("black", "CMD", Kind::Text, "engine A, Black in game 1"),
        Opt::new("white", "CMD", Kind::Text, "engine B, White in game 1"),
        Opt::new(
            "games",
            "N",
            Kind::Int {
                min: 1,
                max: 1_000_000,
            },
            "games in the match (resumed games count)",
        ),
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
            "komi",
            "K",
            Kind::Real {
                min: -(KOMI_LIMIT as f64),
                max: KOMI_LIMIT as f64,
            },
            "komi",
        )
        .or("7.5"),
        Opt::new(
            "move-time",
            "S",
            Kind::Real {
                min: 0.001,
                max: 86_400.0,
            },
            "seconds an engine may take for a move before it loses by forfeit",
        )
        .or("60"),
        Opt::new(
            "max-moves",
            "M",
            Kind::Int {
                min: 1,
                max: 3 * 19 * 19,
            },
            "moves (passes included) after which the game is scored (default 3 x size x size)",
        ),
        Opt::new(
            "out",
            "DIR",
            Kind::Path,
            "directory of games.csv and the SGFs (default go-match-seed<S>)",
        ),
        Opt::new(
            "seed",
            "S",
            Kind::Int {
                min: 0,
                max: u64::MAX,
            },
            "seed of arbor's dead-stone judgement when the engines disagree on the score",
        )
        .or("1"),
    ],
};

/// Seconds allowed for a reply other than a move (setup, `name`, `final_score`): generous,
/// since GNU Go's scoring reads the whole board.
const SETUP_SECONDS: f64 = 60.0;
/// Light playouts of arbor's own dead-stone judgement.
const JUDGE_PLAYOUTS: u32 = 1000;
const CSV_HEADER: &str = "game,black,white,result,winner,moves,reason,black_score,white_score";

/// What the match was started with; a resumed match must be the same one.
struct Settings {
    commands: [String; 2],
    size: u8,
    komi: f64,
    move_time: f64,
    max_moves: usize,
    seed: u64,
}

impl Settings {
    fn text(&self) -> String {
        format!(
            "black {}\nwhite {}\nsize {}\nkomi {}\nmove-time {}\nmax-moves {}\nseed {}\n",
            self.commands[0],
            self.commands[1],
            self.size,
            self.komi,
            self.move_time,
            self.max_moves,
            self.seed
        )
    }
}

pub fn run(args: Args) -> Result<(), Failure> {
    args.no_operands()?;
    let black: String = args.need("black")?;
    let white: String = args.need("white")?;
    let games: usize = args.need("games")?;
    let size: u8 = args.need("size")?;
    let komi: f64 = args.need("komi")?;
    let move_time: f64 = args.need("move-time")?;
    let max_moves: Option<usize> = args.get("max-moves")?;
    let seed: u64 = args.need("seed")?;
    let out: Option<PathBuf> = args.get("out")?;
    for (flag, command) in [("--black", &black), ("--white", &white)] {
        if command.split_whitespace().next().is_none() {
            return Err(Failure::Usage(format!(
                "{flag}: the engine command is empty"
            )));
        }
    }
    let board_cap = 3 * usize::from(size) * usize::from(size);
    let settings = Settings {
        commands: [black, white],
        size,
        komi,
        move_time,
        max_moves: max_moves.unwrap_or(board_cap).min(board_cap),
        seed,
    };
    let dir = out.unwrap_or_else(|| PathBuf::from(format!("go-match-seed{seed}")));
    // The root alone reads and writes the files; the other ranks learn how many games are
    // done, so that every rank numbers the remaining games alike.
    let mut rows = Vec::new();
    let already = cluster::from_root(|| {
        fs::create_dir_all(&dir)
            .map_err(|e| Failure::Job(format!("cannot create {}: {e}", dir.display())))?;
        rows = resume(&dir, &settings)?;
        Ok(rows.len())
    })?;
    for (label, command) in ['A', 'B'].iter().zip(&settings.commands) {
        outln!("{label} = {command}");
    }
    if already > 0 {
        outln!("resuming after {already} games in {}", dir.display());
    }
    let remaining = games.saturating_sub(already);
    let start = Instant::now();
    let ranks = cluster::size();
    let mut done = 0;
    // Rounds of one game per rank: each game starts its own engines and sees only its number,
    // so where it is played does not change it, and games.csv grows in game order after
    // every round, ready to resume.
    while done < remaining {
        let first = already + done + 1;
        let round = ranks.min(remaining - done);
        let played = run_tasks_on_ranks(
            round,
            1,
            || Ok(()),
            |(), i| {
                play_game(&settings, first + i)
                    .map_err(|(Failure::Usage(why) | Failure::Job(why))| why)
            },
            |_| {},
        )?;
        for row in played {
            done += 1;
            let number = row.game;
            if cluster::is_root() {
                append_row(&dir, &row)?;
                write_file(&dir.join(format!("game-{number:04}.sgf")), &row.sgf)?;
            }
            // Progress is a line per game on stderr (games take seconds to minutes), so that
            // the result of each is seen as it comes and stdout keeps only the match's lines.
            let eta = start.elapsed().as_secs_f64() / done as f64 * (remaining - done) as f64;
            noteln!(
                "game {number}/{games}: {} (black) vs {} (white): {} ({}), ETA {eta:.0} s",
                row.black,
                row.white,
                row.result,
                row.reason
            );
            rows.push(row);
        }
    }
    summary(&rows);
    Ok(())
}

/// One game's line of games.csv (and its SGF, when just played).
struct Row {
    game: usize,
    black: char,
    white: char,
    result: String,
    /// `A`, `B`, or none for a draw.
    winner: Option<char>,
    moves: usize,
    reason: String,
    scores: [String; 2],
    sgf: String,
}

impl Row {
    fn csv(&self) -> String {
        let winner = self.winner.map(String::from).unwrap_or_default();
        format!(
            "{},{},{},{},{winner},{},{},{},{}\n",
            self.game,
            self.black,
            self.white,
            field(&self.result),
            self.moves,
            field(&self.reason),
            field(&self.scores[0]),
            field(&self.scores[1])
        )
    }
}

/// A game played on another rank travels to the root whole, its SGF included.
impl Wire for Row {
    fn put(&self, out: &mut Vec<u8>) {
        self.game.put(out);
        (self.black as u32).put(out);
        (self.white as u32).put(out);
        self.result.put(out);
        self.winner.map(|c| c as u32).put(out);
        self.moves.put(out);
        self.reason.put(out);
        self.scores[0].put(out);
        self.scores[1].put(out);
        self.sgf.put(out);
    }
    fn take(input: &mut &[u8]) -> Result<Self, String> {
        let letter = |code: u32| {
            char::from_u32(code)
                .ok_or_else(|| "a label from another rank is not a character".to_owned())
        };
        Ok(Row {
            game: usize::take(input)?,
            black: letter(u32::take(input)?)?,
            white: letter(u32::take(input)?)?,
            result: String::take(input)?,
            winner: <Option<u32> as Wire>::take(input)?
                .map(letter)
                .transpose()?,
            moves: usize::take(input)?,
            reason: String::take(input)?,
            scores: [String::take(input)?, String::take(input)?],
            sgf: String::take(input)?,
        })
    }
}

/// A CSV field without quoting: engines' replies may hold anything, so commas, quotes and
/// line breaks become spaces or semicolons.
fn field(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            ',' => ';',
            '"' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

/// Which engine (0: A, 1: B) plays Black in game `number` (1-based): A in the odd games.
fn black_engine(number: usize) -> usize {
    (number + 1) % 2
}

/// Reads the games already played in `dir`, after checking that they belong to this match.
fn resume(dir: &Path, settings: &Settings) -> Result<Vec<Row>, Failure> {
    let csv = dir.join("games.csv");
    let settings_path = dir.join("match.txt");
    let text = match fs::read(&csv) {
        Ok(bytes) => String::from_utf8(bytes)
            .map_err(|_| Failure::Job(format!("{} is damaged (not UTF-8)", csv.display())))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            write_file(&settings_path, &settings.text())?;
            return Ok(Vec::new());
        }
        Err(e) => return Err(Failure::Job(format!("cannot read {}: {e}", csv.display()))),
    };
    let saved = fs::read_to_string(&settings_path).unwrap_or_default();
    if saved != settings.text() {
        return Err(Failure::Job(format!(
            "{} holds games of another match ({} differs): choose another --out",
            dir.display(),
            settings_path.display()
        )));
    }
    let damaged = |line: usize, why: &str| {
        Failure::Job(format!(
            "{} is damaged at line {line} ({why}); fix or remove it to resume",
            csv.display()
        ))
    };
    let mut lines = text.lines();
    if lines.next() != Some(CSV_HEADER) {
        return Err(damaged(1, "not the games.csv header"));
    }
    if !text.ends_with('\n') {
        return Err(damaged(text.lines().count(), "the last line is cut short"));
    }
    let mut rows = Vec::new();
    for (index, line) in lines.enumerate() {
        let number = index + 1;
        let row = parse_row(line, number).map_err(|why| damaged(number + 1, why))?;
        rows.push(row);
    }
    Ok(rows)
}

fn parse_row(line: &str, number: usize) -> Result<Row, &'static str> {
    let fields: Vec<&str> = line.split(',').collect();
    let [
        game,
        black,
        white,
        result,
        winner,
        moves,
        reason,
        black_score,
        white_score,
    ] = fields.as_slice()
    else {
        return Err("not 9 fields");
    };
    if game.parse::<usize>() != Ok(number) {
        return Err("games out of order");
    }
    let labels = ['A', 'B'];
    let black_label = labels[black_engine(number)];
    let white_label = labels[1 - black_engine(number)];
    if *black != black_label.to_string() || *white != white_label.to_string() {
        return Err("colours do not alternate");
    }
    if parse_result(result).is_none() {
        return Err("unknown result");
    }
    let winner = match *winner {
        "" => None,
        "A" => Some('A'),
        "B" => Some('B'),
        _ => return Err("winner is not A, B or empty"),
    };
    let moves = moves.parse().map_err(|_| "moves is not a number")?;
    Ok(Row {
        game: number,
        black: black_label,
        white: white_label,
        result: result.to_string(),
        winner,
        moves,
        reason: reason.to_string(),
        scores: [black_score.to_string(), white_score.to_string()],
        sgf: String::new(),
    })
}

/// The winner of a result such as `B+3.5`, `W+R`, `B+F` (`None`: a draw, `0`).
fn parse_result(text: &str) -> Option<Option<Color>> {
    if text == "0" {
        return Some(None);
    }
    let color = match text.get(..2)? {
        "B+" => Color::Black,
        "W+" => Color::White,
        _ => return None,
    };
    let rest = &text[2..];
    let known = matches!(rest, "R" | "F") || rest.parse::<f32>().is_ok_and(|m| m > 0.0);
    known.then_some(Some(color))
}

fn append_row(dir: &Path, row: &Row) -> Result<(), Failure> {
    let path = dir.join("games.csv");
    let failed = |e: std::io::Error| Failure::Job(format!("cannot write {}: {e}", path.display()));
    let new = !path.exists();
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(failed)?;
    let mut text = String::new();
    if new {
        text.push_str(CSV_HEADER);
        text.push('\n');
    }
    text.push_str(&row.csv());
    // One write per game: a killed run leaves whole lines.
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(failed)
}

fn summary(rows: &[Row]) {
    let n = rows.len();
    let wins = |who: char| rows.iter().filter(|r| r.winner == Some(who)).count();
    let draws = rows.iter().filter(|r| r.winner.is_none()).count();
    let disagreements = rows
        .iter()
        .filter(|r| r.reason.contains("disagree"))
        .count();
    let mut line = format!("result games {n}");
    for who in ['A', 'B'] {
        // A draw is half a win for each side.
        let score = wins(who) as f64 + 0.5 * draws as f64;
        let (low, high) = wilson(score, n as f64);
        let _ = write!(
            line,
            " {who} wins {} ({:.1}%, 95% {:.1}%..{:.1}%)",
            wins(who),
            100.0 * score / n.max(1) as f64,
            100.0 * low,
            100.0 * high
        );
    }
    outln!("{line} draws {draws} disagreements {disagreements}");
}

/// Why an engine lost a game by forfeit (or gave no score).
enum Fault {
    TimedOut(f64),
    Exited,
    Malformed(String),
    Refused(String, String),
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::TimedOut(seconds) => write!(f, "no reply within {seconds} s"),
            Fault::Exited => f.write_str("exited or closed its output"),
            Fault::Malformed(line) => write!(f, "malformed reply '{}'", shorten(line)),
            Fault::Refused(command, message) => {
                write!(f, "refused '{command}': {}", shorten(message))
            }
        }
    }
}

fn shorten(text: &str) -> String {
    text.chars().take(60).collect()
}

/// A running GTP engine; killed when dropped.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Lines of its standard output, read by a thread so that a reply can time out.
    lines: Receiver<String>,
    name: String,
}

impl Engine {
    /// Starts `command` (split on whitespace) and asks its name.
    fn start(command: &str, flag: &str) -> Result<Engine, Failure> {
        let mut words = command.split_whitespace();
        let program = words.next().unwrap_or_default();
        // An engine is no rank of a distributed run, even when it is arbor built with MPI.
        let mut child = cluster::outside_the_run(&mut Process::new(program))
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Failure::Job(format!("cannot start {flag} engine '{command}': {e}")))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let (sender, lines) = channel();
        if let Some(stdout) = stdout {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut line = Vec::new();
                loop {
                    line.clear();
                    match reader.read_until(b'\n', &mut line) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {}
                    }
                    let text = String::from_utf8_lossy(&line);
                    let text = text.trim_end_matches(['\n', '\r']).to_owned();
                    if sender.send(text).is_err() {
                        return;
                    }
                }
            });
        }
        let mut engine = Engine {
            child,
            stdin,
            lines,
            name: String::new(),
        };
        engine.name = engine.ask("name", SETUP_SECONDS).map_err(|fault| {
            Failure::Job(format!(
                "{flag} engine '{command}' does not speak GTP: 'name' {fault}"
            ))
        })?;
        Ok(engine)
    }

    /// Sends one command and waits up to `seconds` for its reply; the reply's text on
    /// success (`= text`).
    fn ask(&mut self, command: &str, seconds: f64) -> Result<String, Fault> {
        let deadline = Instant::now() + Duration::from_secs_f64(seconds);
        let stdin = self.stdin.as_mut().ok_or(Fault::Exited)?;
        stdin
            .write_all(format!("{command}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .map_err(|_| Fault::Exited)?;
        let mut reply: Option<(bool, String)> = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => return Err(Fault::TimedOut(seconds)),
                Err(RecvTimeoutError::Disconnected) => return Err(Fault::Exited),
            };
            match &mut reply {
                // Blank lines before a reply are allowed; GTP ends a reply with one.
                None if line.trim().is_empty() => {}
                None => {
                    let success = match line.chars().next() {
                        Some('=') => true,
                        Some('?') => false,
                        _ => return Err(Fault::Malformed(line)),
                    };
                    // Skip the status character and an id we never sent.
                    let text = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
                    reply = Some((success, text.trim().to_owned()));
                }
                Some((success, text)) if line.trim().is_empty() => {
                    return if *success {
                        Ok(std::mem::take(text))
                    } else {
                        Err(Fault::Refused(command.to_owned(), std::mem::take(text)))
                    };
                }
                Some((_, text)) => {
                    text.push('\n');
                    text.push_str(line.trim());
                }
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = stdin.write_all(b"quit\n");
        }
        // A polite quit first; an engine that is still thinking (a timeout) is killed.
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn color_word(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn color_letter(color: Color) -> char {
    match color {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

/// How a game ended: the result text, the winner, why.
struct Ending {
    result: String,
    winner: Option<Color>,
    reason: String,
    scores: [String; 2],
}

impl Ending {
    fn forfeit(loser: Color, reason: String) -> Ending {
        let winner = loser.opponent();
        Ending {
            result: format!("{}+F", color_letter(winner)),
            winner: Some(winner),
            reason,
            scores: [String::new(), String::new()],
        }
    }
}

/// Plays game `number` between freshly started engines.
fn play_game(settings: &Settings, number: usize) -> Result<Row, Failure> {
    let black_index = black_engine(number);
    let labels = ['A', 'B'];
    let flags = ["--black", "--white"];
    // `{game}` in a command becomes the game's number: `gnugo --seed {game}` varies games.
    let start = |i: usize| {
        let command = settings.commands[i].replace("{game}", &number.to_string());
        Engine::start(&command, flags[i])
    };
    // Indexed by colour: Black's engine first.
    let mut engines = [start(black_index)?, start(1 - black_index)?];
    let label_of = [labels[black_index], labels[1 - black_index]];
    let mut game = GoGame::new(settings.size)
        .map_err(|e| Failure::Usage(format!("--size {}: {e}", settings.size)))?;
    game.set_komi(settings.komi as f32)
        .map_err(|e| Failure::Usage(format!("--komi: {e}")))?;
    let mut moves: Vec<SgfMove> = Vec::new();
    let ending = referee(
        settings,
        number,
        &mut engines,
        &label_of,
        &mut game,
        &mut moves,
    );
    let mut record = Box::new(
        GameRecord::new(settings.size, settings.komi as f32)
            .map_err(|e| Failure::Job(format!("game record: {e}")))?,
    );
    record.rules = text("Chinese");
    record.black_name = text(&engines[0].name);
    record.white_name = text(&engines[1].name);
    record.result = text(&ending.result);
    for played in &moves {
        // The record holds 3 x 19 x 19 moves, the most any game here plays.
        let _ = record.moves.push(*played);
    }
    let mut sgf = String::new();
    record
        .write_sgf(&mut sgf)
        .map_err(|_| Failure::Job(format!("game {number}: cannot write its SGF")))?;
    Ok(Row {
        game: number,
        black: label_of[0],
        white: label_of[1],
        result: ending.result,
        winner: ending.winner.map(|c| label_of[c.index()]),
        moves: moves.len(),
        reason: ending.reason,
        scores: ending.scores,
        sgf,
    })
}

/// An SGF text property: `value` cut to what the record holds, at a character boundary.
fn text(value: &str) -> Text {
    let mut out = Text::new();
    for c in value.chars() {
        if out.push(c).is_err() {
            break;
        }
    }
    out
}

/// Sets up both engines and plays the game out on `game`; the moves go to `moves`.
fn referee(
    settings: &Settings,
    number: usize,
    engines: &mut [Engine; 2],
    label_of: &[char; 2],
    game: &mut GoGame,
    moves: &mut Vec<SgfMove>,
) -> Ending {
    let who = |color: Color| format!("{} ({})", color_word(color), label_of[color.index()]);
    let setup = [
        format!("boardsize {}", settings.size),
        "clear_board".to_owned(),
        format!("komi {}", settings.komi),
    ];
    for color in [Color::Black, Color::White] {
        for command in &setup {
            if let Err(fault) = engines[color.index()].ask(command, SETUP_SECONDS) {
                return Ending::forfeit(color, format!("{} {fault}", who(color)));
            }
        }
    }
    let mut color = Color::Black;
    while !game.board().is_over() && moves.len() < settings.max_moves {
        let command = format!("genmove {}", color_word(color));
        let reply = match engines[color.index()].ask(&command, settings.move_time) {
            Ok(reply) => reply,
            Err(fault) => return Ending::forfeit(color, format!("{} {fault}", who(color))),
        };
        if reply.eq_ignore_ascii_case("resign") {
            let winner = color.opponent();
            return Ending {
                result: format!("{}+R", color_letter(winner)),
                winner: Some(winner),
                reason: format!("{} resigned", who(color)),
                scores: [String::new(), String::new()],
            };
        }
        let Ok(played) = GoMove::parse_gtp(reply.as_bytes(), settings.size) else {
            let reason = format!("{} answered '{}' to genmove", who(color), shorten(&reply));
            return Ending::forfeit(color, reason);
        };
        let mv = match played {
            GoMove::Pass => Some(Move::Pass),
            GoMove::Play(Vertex { col, row }) => game.board().point(col, row).map(Move::Play),
        };
        let legal = match mv {
            Some(mv) => game.try_play(mv).map_err(|e| e.to_string()),
            None => Err("off the board".to_owned()),
        };
        if let Err(why) = legal {
            let reason = format!("{} played illegal {played} ({why})", who(color));
            return Ending::forfeit(color, reason);
        }
        moves.push(SgfMove { color, mv: played });
        let other = color.opponent();
        let command = format!("play {} {played}", color_word(color));
        if let Err(fault) = engines[other.index()].ask(&command, SETUP_SECONDS) {
            return Ending::forfeit(other, format!("{} {fault}", who(other)));
        }
        color = other;
    }
    let capped = game.board().passes() < 2;
    let mut ending = score(settings, number, engines, game);
    if capped {
        ending.reason = format!("move cap {}; {}", moves.len(), ending.reason);
    }
    ending
}

/// Scores the final position: the engines' `final_score` when they agree, otherwise
/// arbor's area count with dead stones judged by ownership playouts.
fn score(settings: &Settings, number: usize, engines: &mut [Engine; 2], game: &GoGame) -> Ending {
    let mut scores = [String::new(), String::new()];
    let mut margins = [None, None];
    for (i, engine) in engines.iter_mut().enumerate() {
        match engine.ask("final_score", SETUP_SECONDS) {
            Ok(reply) => {
                margins[i] = parse_margin(&reply);
                scores[i] = reply;
            }
            Err(fault) => scores[i] = format!("({fault})"),
        }
    }
    let (margin, reason) = match margins {
        [Some(a), Some(b)] if (a - b).abs() < 1e-3 => (a, "both engines' final_score".to_owned()),
        _ => {
            let seed = settings.seed ^ (number as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let own = ownership(game.board(), JUDGE_PLAYOUTS, &mut seeded_rng(seed));
            let margin = own.score(game.board()).margin();
            let reason = format!(
                "engines disagree (black '{}'; white '{}'): arbor's count",
                shorten(&scores[0]),
                shorten(&scores[1])
            );
            (margin, reason)
        }
    };
    let (result, winner) = if margin > 0.0 {
        (format!("B+{margin}"), Some(Color::Black))
    } else if margin < 0.0 {
        (format!("W+{}", -margin), Some(Color::White))
    } else {
        ("0".to_owned(), None)
    };
    Ending {
        result,
        winner,
        reason,
        scores,
    }
}

/// Black's lead from a GTP score: `B+3.5` is 3.5, `W+2` is -2, `0` is 0.
fn parse_margin(text: &str) -> Option<f32> {
    let text = text.trim();
    if text == "0" {
        return Some(0.0);
    }
    let sign = match text.get(..2)?.to_ascii_uppercase().as_str() {
        "B+" => 1.0,
        "W+" => -1.0,
        _ => return None,
    };
    let margin: f32 = text[2..].parse().ok()?;
    (margin.is_finite() && margin >= 0.0).then_some(sign * margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_results_read() {
        assert_eq!(parse_margin("B+3.5"), Some(3.5));
        assert_eq!(parse_margin("W+0.5"), Some(-0.5));
        assert_eq!(parse_margin("0"), Some(0.0));
        for bad in ["", "B+", "X+1", "B+R", "W+-3", "B+inf", "é+1"] {
            assert_eq!(parse_margin(bad), None, "{bad}");
        }
        assert_eq!(parse_result("B+F"), Some(Some(Color::Black)));
        assert_eq!(parse_result("W+2.5"), Some(Some(Color::White)));
        assert_eq!(parse_result("0"), Some(None));
        assert_eq!(parse_result("B+0"), None);
        assert_eq!(parse_result("ü"), None);
    }

    #[test]
    fn engine_a_is_black_in_odd_games_and_fields_stay_one_column() {
        assert_eq!(black_engine(1), 0);
        assert_eq!(black_engine(2), 1);
        assert_eq!(field("a,b\"c\nd"), "a;b'c d");
    }

    #[test]
    fn a_game_crosses_between_ranks_unchanged() {
        use crate::harness::cluster::wire::{from_bytes, to_bytes};
        let row = Row {
            game: 3,
            black: 'A',
            white: 'B',
            result: "W+2.5".into(),
            winner: Some('B'),
            moves: 41,
            reason: "both engines' final_score".into(),
            scores: ["W+2.5".into(), "(no reply within 60 s)".into()],
            sgf: "(;GM[1]SZ[5];B[cc])".into(),
        };
        let back: Row = from_bytes(&to_bytes(&row)).unwrap();
        assert_eq!(back.csv(), row.csv());
        assert_eq!(back.sgf, row.sgf);
        assert_eq!((back.game, back.winner), (3, Some('B')));
    }
}
