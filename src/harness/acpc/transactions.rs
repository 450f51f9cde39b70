//! The dealer's transaction file (`--transactions FILE`, the reference dealer's `-T`): a
//! line per action as the dealer takes it, written and flushed at once, so that a match
//! stopped in the middle of a hand (or before its last hands reached the CSV) resumes
//! exactly there. On a rerun with the same options the actions recorded for the hands
//! missing from the CSV are played again without asking anyone (no message is sent for
//! them, as the reference does), with the times they took; the seats are asked from the
//! first action not recorded.
//!
//! The file: the match's settings line (the CSV's first line), then `HALF HAND ACTION NS`
//! per action: the half (0, or 1 when swapped), the hand, the action as the player gave it
//! (`f`, `c`, `r<to>`, or `?` for a reply whose action could not be read: the table
//! corrects it again when replayed) and its time in nanoseconds.
use std::collections::{BTreeMap, VecDeque};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

use crate::harness::Failure;
use crate::harness::resources::write_file;
use crate::holdem::rules::{Action, Chips};

/// One recorded action: as the player gave it (`None`: unreadable) and its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recorded {
    pub action: Option<Action>,
    pub ns: u64,
}

pub struct Transactions {
    file: File,
    path: String,
    /// The first write error, reported by [`Transactions::finish`].
    failed: Option<std::io::Error>,
    /// The actions to play again, by half and hand, in order.
    replay: BTreeMap<(u8, u64), VecDeque<Recorded>>,
    /// The hand being played.
    current: (u8, u64),
}

impl Transactions {
    /// Opens `path` for the match of `settings`. With `resume`, a file of this match is
    /// read back: the actions of hands for which `done` is false are kept to be played
    /// again, and new lines are appended; a file of another match is refused. Without
    /// `resume` the file is started afresh.
    pub fn open(
        path: &Path,
        settings: &str,
        resume: bool,
        done: impl Fn(u8, u64) -> bool,
    ) -> Result<Transactions, Failure> {
        let shown = path.display().to_string();
        let mut replay: BTreeMap<(u8, u64), VecDeque<Recorded>> = BTreeMap::new();
        let existing = if resume {
            match std::fs::read(path) {
                Ok(bytes) => Some(
                    String::from_utf8(bytes)
                        .map_err(|_| Failure::Job(format!("{shown} is damaged (not UTF-8)")))?,
                ),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(Failure::Job(format!("cannot read {shown}: {e}"))),
            }
        } else {
            None
        };
        match existing {
            Some(text) => {
                let mut lines = text.lines();
                if lines.next() != Some(settings) {
                    return Err(Failure::Job(format!(
                        "{shown} holds another match (its first line is not '{settings}'): \
                         choose another --transactions"
                    )));
                }
                let count = text.lines().count();
                let complete = text.ends_with('\n');
                let mut last = (0u8, 0u64);
                for (index, line) in lines.enumerate() {
                    let number = index + 2;
                    // A line cut by a crash is dropped: that action is asked for again.
                    if number == count && !complete {
                        break;
                    }
                    let (key, recorded) = parse_line(line).ok_or_else(|| {
                        Failure::Job(format!(
                            "{shown} is damaged at line {number}; fix or remove it to resume"
                        ))
                    })?;
                    if key < last {
                        return Err(Failure::Job(format!(
                            "{shown} is damaged at line {number} (hands out of order)"
                        )));
                    }
                    last = key;
                    if !done(key.0, key.1) {
                        replay.entry(key).or_default().push_back(recorded);
                    }
                }
                if !complete {
                    let kept = text.rfind('\n').map_or(0, |end| end + 1);
                    write_file(path, text.get(..kept).unwrap_or_default())?;
                }
            }
            None => write_file(path, &format!("{settings}\n"))?,
        }
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| Failure::Job(format!("cannot open {shown}: {e}")))?;
        Ok(Transactions {
            file,
            path: shown,
            failed: None,
            replay,
            current: (0, 0),
        })
    }

    /// How many recorded actions wait to be played again.
    pub fn pending(&self) -> usize {
        self.replay.values().map(VecDeque::len).sum()
    }

    /// The hand `hand` of `half` starts.
    pub fn begin_hand(&mut self, half: u8, hand: u64) {
        self.current = (half, hand);
    }

    /// The next recorded action of the current hand, if one is left to play again.
    pub fn next_recorded(&mut self) -> Option<Recorded> {
        let queue = self.replay.get_mut(&self.current)?;
        let next = queue.pop_front();
        if queue.is_empty() {
            self.replay.remove(&self.current);
        }
        next
    }

    /// Records an action of the current hand, flushed at once.
    pub fn record(&mut self, action: Option<Action>, ns: u64) {
        if self.failed.is_some() {
            return;
        }
        let action = action.map_or_else(|| "?".to_owned(), |a| a.to_string());
        let line = format!("{} {} {action} {ns}\n", self.current.0, self.current.1);
        if let Err(e) = self
            .file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
        {
            self.failed = Some(e);
        }
    }

    /// The first write error since the last call, if any.
    pub fn finish(&mut self) -> Result<(), Failure> {
        match self.failed.take() {
            Some(e) => Err(Failure::Job(format!("cannot write {}: {e}", self.path))),
            None => Ok(()),
        }
    }
}

/// `HALF HAND ACTION NS`.
fn parse_line(line: &str) -> Option<((u8, u64), Recorded)> {
    let mut words = line.split(' ');
    let half: u8 = words.next()?.parse().ok().filter(|h| *h <= 1)?;
    let hand: u64 = words.next()?.parse().ok()?;
    let action = match words.next()? {
        "?" => None,
        "f" => Some(Action::Fold),
        "c" => Some(Action::Call),
        word => Some(Action::RaiseTo(
            word.strip_prefix('r')?.parse::<Chips>().ok()?,
        )),
    };
    let ns: u64 = words.next()?.parse().ok()?;
    if words.next().is_some() {
        return None;
    }
    Some(((half, hand), Recorded { action, ns }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_back_and_bad_ones_are_refused() {
        assert_eq!(
            parse_line("1 12 r300 2500"),
            Some((
                (1, 12),
                Recorded {
                    action: Some(Action::RaiseTo(300)),
                    ns: 2500
                }
            ))
        );
        assert_eq!(parse_line("0 0 ? 7").map(|(_, r)| r.action), Some(None));
        for bad in [
            "",
            "2 0 c 1",
            "0 0 x 1",
            "0 0 r 1",
            "0 0 c",
            "0 0 c 1 2",
            "0 -1 c 1",
        ] {
            assert_eq!(parse_line(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_file_resumes_the_hands_not_done_and_drops_a_cut_line() {
        let dir = std::env::temp_dir().join(format!("arbor-tlog-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.tlog");
        let mut fresh = Transactions::open(&path, "# settings", false, |_, _| false).unwrap();
        fresh.begin_hand(0, 0);
        fresh.record(Some(Action::Call), 10);
        fresh.record(Some(Action::Fold), 20);
        fresh.begin_hand(0, 1);
        fresh.record(None, 30);
        fresh.finish().unwrap();
        drop(fresh);
        // A crash in the middle of a line.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"0 1 r2").unwrap();
        drop(file);
        let mut resumed = Transactions::open(&path, "# settings", true, |half, hand| {
            (half, hand) < (0, 1)
        })
        .unwrap();
        assert_eq!(resumed.pending(), 1);
        resumed.begin_hand(0, 1);
        assert_eq!(
            resumed.next_recorded(),
            Some(Recorded {
                action: None,
                ns: 30
            })
        );
        assert_eq!(resumed.next_recorded(), None);
        resumed.record(Some(Action::RaiseTo(250)), 40);
        drop(resumed);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "# settings\n0 0 c 10\n0 0 f 20\n0 1 ? 30\n0 1 r250 40\n"
        );
        // Another match's file is refused, and without resuming the file starts afresh.
        assert!(Transactions::open(&path, "# other", true, |_, _| false).is_err());
        drop(Transactions::open(&path, "# other", false, |_, _| false).unwrap());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "# other\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
