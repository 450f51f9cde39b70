//! The dealer's transcript (`--transcript FILE|-`): every message the dealer sends a seat
//! (`TO`) and every line it gets back (`FROM`), with the time, in the ACPC reference
//! dealer's line form: `TO 1 at 1700000000.123456 MATCHSTATE:0:0::Ah2c|`. As the reference
//! does, seats count from 1 here (`TO 1` is seat 0) and the time is Unix seconds with six
//! digits of microseconds. In-process bots appear as clients would: the states they would
//! be sent and the reply `state:action` a client would give.
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::harness::Failure;

/// Where the lines go.
enum Sink {
    /// Standard error, line by line, where the reference dealer writes them.
    Stderr,
    /// A file, appended to (a resumed match continues its transcript).
    File(BufWriter<File>),
}

pub struct Transcript {
    sink: Sink,
    /// The first write error, reported by [`Transcript::finish`] (a transcript that cannot
    /// be written stops the match there, not in the middle of a hand).
    failed: Option<std::io::Error>,
    path: String,
}

impl Transcript {
    /// `-` for standard error, else a file opened for appending.
    pub fn open(path: &Path) -> Result<Transcript, Failure> {
        let shown = path.display().to_string();
        let sink = if path == Path::new("-") {
            Sink::Stderr
        } else {
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| Failure::Job(format!("cannot open the transcript {shown}: {e}")))?;
            Sink::File(BufWriter::new(file))
        };
        Ok(Transcript {
            sink,
            failed: None,
            path: shown,
        })
    }

    /// `message` sent to `seat`.
    pub fn sent(&mut self, seat: usize, message: &str) {
        self.line(format_args!("TO {} at {} {message}", seat + 1, now()));
    }

    /// `line` received from `seat`.
    pub fn received(&mut self, seat: usize, line: &str) {
        self.line(format_args!("FROM {} at {} {line}", seat + 1, now()));
    }

    /// The players were seated (`STARTED`) or the match (or its `--reset-every` block) is
    /// over (`FINISHED`).
    pub fn mark(&mut self, what: &str) {
        self.line(format_args!("{what} at {}", now()));
    }

    fn line(&mut self, text: std::fmt::Arguments) {
        match &mut self.sink {
            Sink::Stderr => noteln!("{text}"),
            Sink::File(file) => {
                if self.failed.is_none()
                    && let Err(e) = writeln!(file, "{text}")
                {
                    self.failed = Some(e);
                }
            }
        }
    }

    /// Writes what is buffered; the first error met since the last call, if any.
    pub fn finish(&mut self) -> Result<(), Failure> {
        if let Sink::File(file) = &mut self.sink
            && self.failed.is_none()
            && let Err(e) = file.flush()
        {
            self.failed = Some(e);
        }
        match self.failed.take() {
            Some(e) => Err(Failure::Job(format!(
                "cannot write the transcript {}: {e}",
                self.path
            ))),
            None => Ok(()),
        }
    }
}

/// Unix time as the reference prints it: seconds, a dot, six digits of microseconds.
fn now() -> String {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    format!("{}.{:06}", since.as_secs(), since.subsec_micros())
}
