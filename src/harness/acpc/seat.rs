//! A seat at the dealer's table: an in-process bot, called directly (no text, no socket),
//! or an ACPC client over TCP, which gets every MATCHSTATE line and answers when it acts.
use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

use super::deadline::act_by;
use crate::harness::cluster::outside_the_run;
use crate::holdem::bots::{Baseline, BotView, HoldemBot};
use crate::holdem::rules::{Action, HandState, Position};

/// What a seat's player is, as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatSpec {
    /// An arbor bot spec, played in-process.
    Bot(String),
    /// A client the dealer starts: the command, split on whitespace, with `{port}` replaced
    /// by the seat's port.
    Command(String),
    /// A client started by someone else, which connects to the printed port.
    Port,
}

impl SeatSpec {
    /// `cmd:COMMAND`, `port`, or a bot spec.
    pub fn parse(text: &str) -> SeatSpec {
        if let Some(command) = text.strip_prefix("cmd:") {
            SeatSpec::Command(command.to_owned())
        } else if text == "port" {
            SeatSpec::Port
        } else {
            SeatSpec::Bot(text.to_owned())
        }
    }
}

/// Why a seat could not go on: the match stops with this as an `ERROR` line.
#[derive(Debug)]
pub enum SeatError {
    /// No action within the per-action limit (`--action-ms`).
    TimedOut {
        limit_ms: u64,
    },
    /// The seat's actions in one hand took longer than `--hand-ms` in all.
    OverHandLimit {
        limit_ms: u64,
        used_ms: u64,
    },
    /// No client connected and said its version within `--start-ms`.
    NotStarted {
        limit_ms: u64,
    },
    /// More invalid actions than `--max-invalid` allows.
    TooManyInvalid {
        cap: u32,
    },
    Closed,
    Io(std::io::Error),
    Handshake(String),
}

impl std::fmt::Display for SeatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SeatError::TimedOut { limit_ms } => write!(f, "no action within {limit_ms} ms"),
            SeatError::OverHandLimit { limit_ms, used_ms } => write!(
                f,
                "ran out of time in this hand: {used_ms} ms used, the limit is {limit_ms} ms \
                 a hand"
            ),
            SeatError::NotStarted { limit_ms } => write!(
                f,
                "no client connected and sent its version within {limit_ms} ms"
            ),
            SeatError::TooManyInvalid { cap } => write!(
                f,
                "invalid action: more than {cap} invalid actions (changed to call) since it \
                 was seated"
            ),
            SeatError::Closed => f.write_str("the client closed the connection"),
            SeatError::Io(e) => write!(f, "connection error: {e}"),
            SeatError::Handshake(why) => write!(f, "bad handshake: {why}"),
        }
    }
}

/// What came back when a seat was asked to act.
pub enum Answer {
    /// An in-process bot's action.
    Action(Action),
    /// A client's reply line (what follows the echoed state is checked by the dealer).
    Line(String),
}

/// An ACPC client over TCP.
pub struct Remote {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    /// The client process the dealer started, killed when the seat is dropped.
    child: Option<Child>,
    line: Vec<u8>,
}

impl Remote {
    /// Waits up to `wait` for a client on `listener` to connect and send its
    /// `VERSION:2.x.y` line (major 2, minor 0, as the reference dealer accepts); a write
    /// to it may block at most `write_limit` (the per-action limit).
    pub fn accept(
        listener: &TcpListener,
        child: Option<Child>,
        wait: Duration,
        write_limit: Duration,
    ) -> Result<Remote, SeatError> {
        listener.set_nonblocking(true).map_err(SeatError::Io)?;
        let deadline = Instant::now() + wait;
        let stream = loop {
            match listener.accept() {
                Ok((stream, _)) => break stream,
                Err(e) if e.kind() == ErrorKind::WouldBlock => {
                    if Instant::now() >= deadline {
                        return Err(SeatError::NotStarted {
                            limit_ms: wait.as_millis() as u64,
                        });
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
                Err(e) => return Err(SeatError::Io(e)),
            }
        };
        stream.set_nonblocking(false).map_err(SeatError::Io)?;
        let _ = stream.set_nodelay(true);
        // A client that stops reading cannot block the dealer past the time limit.
        stream
            .set_write_timeout(Some(write_limit))
            .map_err(SeatError::Io)?;
        let writer = stream.try_clone().map_err(SeatError::Io)?;
        let mut remote = Remote {
            reader: BufReader::new(stream),
            writer,
            child,
            line: Vec::new(),
        };
        let hello = remote.read_line(deadline).map_err(|e| match e {
            SeatError::TimedOut { .. } => SeatError::NotStarted {
                limit_ms: wait.as_millis() as u64,
            },
            e => e,
        })?;
        let version = hello.strip_prefix("VERSION:").ok_or_else(|| {
            SeatError::Handshake(format!("expected VERSION:2.0.0, got '{hello}'"))
        })?;
        let mut parts = version.split('.');
        let (major, minor) = (parts.next(), parts.next());
        if major != Some("2") || minor != Some("0") {
            return Err(SeatError::Handshake(format!(
                "unsupported protocol version '{version}' (this dealer speaks 2.0)"
            )));
        }
        Ok(remote)
    }

    fn send(&mut self, line: &str) -> Result<(), SeatError> {
        let mut bytes = Vec::with_capacity(line.len() + 2);
        bytes.extend_from_slice(line.as_bytes());
        bytes.extend_from_slice(b"\r\n");
        self.writer.write_all(&bytes).map_err(|e| match e.kind() {
            ErrorKind::BrokenPipe | ErrorKind::ConnectionReset => SeatError::Closed,
            ErrorKind::WouldBlock | ErrorKind::TimedOut => SeatError::TimedOut { limit_ms: 0 },
            _ => SeatError::Io(e),
        })
    }

    /// The next line (without its `\r\n`) before `deadline`.
    fn read_line(&mut self, deadline: Instant) -> Result<String, SeatError> {
        self.line.clear();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(SeatError::TimedOut { limit_ms: 0 });
            }
            self.reader
                .get_ref()
                .set_read_timeout(Some(left))
                .map_err(SeatError::Io)?;
            let available = match self.reader.fill_buf() {
                Ok([]) => return Err(SeatError::Closed),
                Ok(bytes) => bytes,
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    return Err(SeatError::TimedOut { limit_ms: 0 });
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == ErrorKind::ConnectionReset => return Err(SeatError::Closed),
                Err(e) => return Err(SeatError::Io(e)),
            };
            match available.iter().position(|&b| b == b'\n') {
                Some(end) => {
                    self.line.extend_from_slice(&available[..end]);
                    self.reader.consume(end + 1);
                    break;
                }
                None => {
                    let n = available.len();
                    self.line.extend_from_slice(available);
                    self.reader.consume(n);
                    // A client sending an endless line is cut off rather than filling memory.
                    if self.line.len() > 1 << 16 {
                        return Err(SeatError::Handshake("a line longer than 64 KB".into()));
                    }
                }
            }
        }
        while self.line.last().is_some_and(|&b| b == b'\r') {
            self.line.pop();
        }
        Ok(String::from_utf8_lossy(&self.line).into_owned())
    }
}

impl Drop for Remote {
    fn drop(&mut self) {
        let _ = self.writer.shutdown(std::net::Shutdown::Both);
        if let Some(child) = &mut self.child {
            // The client exits when the connection closes; one that does not is killed.
            let deadline = Instant::now() + Duration::from_millis(500);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Starts `command` (split on whitespace, `{port}` replaced) for a seat listening on `port`.
pub fn start_client(command: &str, port: u16) -> Result<Child, String> {
    let command = command.replace("{port}", &port.to_string());
    let mut words = command.split_whitespace();
    let program = words
        .next()
        .ok_or_else(|| "the client command is empty".to_owned())?;
    // A client is no rank of a distributed run, even when it is arbor built with MPI.
    outside_the_run(&mut Process::new(program))
        .args(words)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start client '{command}': {e}"))
}

/// One seat: who plays it and how to reach it.
// A seat's bot is made once per match; boxing it would only move the copy.
#[allow(clippy::large_enum_variant)]
pub enum Seat {
    Bot(Baseline),
    Remote(Remote),
}

impl Seat {
    /// Whether the seat needs MATCHSTATE text.
    pub fn is_remote(&self) -> bool {
        matches!(self, Seat::Remote(_))
    }

    /// Sends a state line to a remote seat (nothing for a bot).
    pub fn tell(&mut self, line: &str) -> Result<(), SeatError> {
        match self {
            Seat::Bot(_) => Ok(()),
            Seat::Remote(remote) => remote.send(line),
        }
    }

    /// Tells an in-process bot that the hand is over (`seen`: as `position` sees it); a
    /// client learns it from the final state line instead.
    pub fn hand_over(&mut self, seen: &HandState, position: Position) {
        if let Seat::Bot(bot) = self {
            bot.hand_over(seen, position);
        }
    }

    /// Asks the seat at `position` to act in `state`: a bot decides; a client (already told
    /// the state line) is read until `deadline`.
    pub fn ask(
        &mut self,
        state: &HandState,
        position: Position,
        hand: u64,
        deadline: Instant,
    ) -> Result<Answer, SeatError> {
        match self {
            Seat::Bot(bot) => {
                let view = BotView::from_state(state, position, hand);
                let seen = state.seen_by(position);
                // The dealer asks only the position to act, whose cards it dealt.
                Ok(Answer::Action(view.map_or(Action::Call, |v| {
                    act_by(bot, &v, &seen, deadline)
                })))
            }
            Seat::Remote(remote) => remote.read_line(deadline).map(Answer::Line),
        }
    }
}
