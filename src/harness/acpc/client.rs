//! `arbor acpc play`: an ACPC 2.0.0 client for arbor's bots. It reads the dealer's lines
//! (comments `#` and `;` ignored), and for every MATCHSTATE where its position acts, answers
//! with the line, `:` and the bot's action, decided within `--action-ms` of the line's
//! arrival (the same rule as the dealer's in-process seats: [`act_by`]).
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::deadline::act_by;

use crate::harness::{Args, Failure};
use crate::holdem::acpc::MatchState;
use crate::holdem::bots::{BotView, HoldemBot, parse_bot};
use crate::holdem::rules::HoldemConfig;

pub fn run(args: Args) -> Result<(), Failure> {
    args.no_operands()?;
    let host: String = args.need("host")?;
    let port: u16 = args.need::<u32>("port")? as u16;
    let spec: String = args.need("bot")?;
    let budget = Duration::from_millis(args.need("action-ms")?);
    let mut bot = parse_bot(&spec).map_err(|e| Failure::Usage(format!("--bot '{spec}': {e}")))?;
    let stream = TcpStream::connect((host.as_str(), port))
        .map_err(|e| Failure::Job(format!("cannot connect to {host}:{port}: {e}")))?;
    let _ = stream.set_nodelay(true);
    let mut writer = stream
        .try_clone()
        .map_err(|e| Failure::Job(format!("connection: {e}")))?;
    let lost = |e: std::io::Error| Failure::Job(format!("connection to {host}:{port}: {e}"));
    writer.write_all(b"VERSION:2.0.0\r\n").map_err(lost)?;
    let mut reader = BufReader::new(stream);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            // A dealer that resets the connection at the end of a match has ended it.
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return Ok(()),
            Err(e) => return Err(lost(e)),
        }
        // The dealer's clock for this action started when it sent the line.
        let received = Instant::now();
        while matches!(line.last(), Some(b'\n' | b'\r')) {
            line.pop();
        }
        if line.is_empty() || matches!(line[0], b'#' | b';') {
            continue;
        }
        let state = match MatchState::parse(&line, HoldemConfig::ACPC) {
            Ok(state) => state,
            Err(e) => {
                noteln!(
                    "arbor acpc play: ignoring '{}': {e}",
                    String::from_utf8_lossy(&line)
                );
                continue;
            }
        };
        if state.state.is_over() {
            bot.hand_over(&state.state, state.position);
            continue;
        }
        if !state.is_my_turn() {
            continue;
        }
        let hand = u64::from(state.hand_number);
        let Some(view) = BotView::from_state(&state.state, state.position, hand) else {
            noteln!("arbor acpc play: no hole cards in '{state}'");
            continue;
        };
        let action = act_by(&mut bot, &view, &state.state, received + budget);
        let mut reply = line.clone();
        reply.extend_from_slice(format!(":{action}\r\n").as_bytes());
        if let Err(e) = writer.write_all(&reply) {
            // The dealer closing while we answer is the end of the match.
            if matches!(
                e.kind(),
                std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset
            ) {
                return Ok(());
            }
            return Err(lost(e));
        }
    }
}
