//! A dealer match's results: one CSV row per hand (the checkpoint a rerun resumes from), and
//! the summary: chips, mbb/hand with a 95% interval (over duplicate pairs in duplicate mode),
//! per-action latency percentiles, warnings.
use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::Path;

use super::super::Failure;
use super::super::cluster::wire::Wire;
use super::dealer::Seating;
use crate::holdem::paired::{Estimate, mean_and_interval};

/// The CSV's column line, after the settings line.
pub const CSV_COLUMNS: &str =
    "half,hand,bot0_seat,bot0_position,bot0_chips,bot1_chips,warnings,bot0_ns,bot1_ns,state";

/// One hand as the CSV keeps it. Bots are the match's `--bot0` and `--bot1`; in the second
/// half of a duplicate match bot0 sits in seat 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// 0, or 1 for the swapped half of a duplicate match.
    pub half: u8,
    pub hand: u64,
    /// Chips won by bot0 and bot1.
    pub chips: [i64; 2],
    pub warnings: u32,
    /// Each bot's time per action, nanoseconds.
    pub latency_ns: [Vec<u64>; 2],
    /// The dealer log's `STATE:` line.
    pub state: String,
}

impl Row {
    /// The seat bot0 holds in this row's half.
    pub fn bot0_seat(&self) -> u8 {
        self.half
    }

    /// The position bot0 holds in this row's hand (0: big blind) under `seating`.
    pub fn bot0_position(&self, seating: Seating) -> u8 {
        seating.position_of(usize::from(self.bot0_seat()), self.hand)
    }

    /// The CSV line of a match played with `seating`.
    pub fn csv(&self, seating: Seating) -> String {
        let times = |ns: &[u64]| {
            let words: Vec<String> = ns.iter().map(u64::to_string).collect();
            words.join(";")
        };
        format!(
            "{},{},{},{},{},{},{},{},{},{}\n",
            self.half,
            self.hand,
            self.bot0_seat(),
            self.bot0_position(seating),
            self.chips[0],
            self.chips[1],
            self.warnings,
            times(&self.latency_ns[0]),
            times(&self.latency_ns[1]),
            self.state
        )
    }

    pub(super) fn parse(line: &str, seating: Seating) -> Result<Row, &'static str> {
        let fields: Vec<&str> = line.splitn(10, ',').collect();
        let [
            half,
            hand,
            seat,
            position,
            chips0,
            chips1,
            warnings,
            ns0,
            ns1,
            state,
        ] = fields.as_slice()
        else {
            return Err("not 10 fields");
        };
        let half: u8 = half.parse().map_err(|_| "half is not a number")?;
        if half > 1 || seat.parse::<u8>() != Ok(half) {
            return Err("half or seat out of range");
        }
        let times = |text: &str| -> Result<Vec<u64>, &'static str> {
            text.split(';')
                .filter(|w| !w.is_empty())
                .map(|w| w.parse().map_err(|_| "a latency is not a number"))
                .collect()
        };
        let hand: u64 = hand.parse().map_err(|_| "hand is not a number")?;
        if position.parse::<u8>() != Ok(seating.position_of(usize::from(half), hand)) {
            return Err(match seating {
                Seating::Rotating => "bot0's position does not rotate with the hand",
                Seating::Fixed => "bot0's position is not its seat's (fixed seats)",
            });
        }
        if !state.starts_with("STATE:") {
            return Err("the state is not a STATE: line");
        }
        Ok(Row {
            half,
            hand,
            chips: [
                chips0.parse().map_err(|_| "chips are not a number")?,
                chips1.parse().map_err(|_| "chips are not a number")?,
            ],
            warnings: warnings.parse().map_err(|_| "warnings is not a number")?,
            latency_ns: [times(ns0)?, times(ns1)?],
            state: (*state).to_owned(),
        })
    }
}

/// A hand played on another rank travels to the root whole.
impl Wire for Row {
    fn put(&self, out: &mut Vec<u8>) {
        self.half.put(out);
        self.hand.put(out);
        self.chips.put(out);
        self.warnings.put(out);
        self.latency_ns[0].put(out);
        self.latency_ns[1].put(out);
        self.state.put(out);
    }
    fn take(input: &mut &[u8]) -> Result<Self, String> {
        Ok(Row {
            half: u8::take(input)?,
            hand: u64::take(input)?,
            chips: <[i64; 2]>::take(input)?,
            warnings: u32::take(input)?,
            latency_ns: [Vec::take(input)?, Vec::take(input)?],
            state: String::take(input)?,
        })
    }
}

/// Reads the rows of `path` if it exists, after checking that its settings line is
/// `settings` and that the rows are the match's hands in order (`order(i)` is the half and
/// hand of row `i`). A missing file is a new match: it is created with its two header lines.
pub fn resume(
    path: &Path,
    settings: &str,
    seating: Seating,
    order: impl Fn(usize) -> Option<(u8, u64)>,
) -> Result<Vec<Row>, Failure> {
    let text = match fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map_err(|_| Failure::Job(format!("{} is damaged (not UTF-8)", path.display())))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            append(path, &format!("{settings}\n{CSV_COLUMNS}\n"))?;
            return Ok(Vec::new());
        }
        Err(e) => return Err(Failure::Job(format!("cannot read {}: {e}", path.display()))),
    };
    let mut lines = text.lines();
    if lines.next() != Some(settings) {
        return Err(Failure::Job(format!(
            "{} holds another match (its first line is not '{settings}'): choose another --csv",
            path.display()
        )));
    }
    let damaged = |line: usize, why: &str| {
        Failure::Job(format!(
            "{} is damaged at line {line} ({why}); fix or remove it to resume",
            path.display()
        ))
    };
    if lines.next() != Some(CSV_COLUMNS) {
        return Err(damaged(2, "not the column line"));
    }
    let mut rows = Vec::new();
    let complete = text.ends_with('\n');
    let count = text.lines().count();
    for (index, line) in lines.enumerate() {
        let number = index + 3;
        // A run killed in the middle of a write leaves a last line without its newline:
        // that hand is played again.
        if number == count && !complete {
            break;
        }
        let row = Row::parse(line, seating).map_err(|why| damaged(number, why))?;
        if order(index) != Some((row.half, row.hand)) {
            return Err(damaged(number, "hands out of order"));
        }
        rows.push(row);
    }
    if !complete {
        // Everything up to the last line break: the whole lines read above.
        let kept = text.rfind('\n').map_or(0, |end| end + 1);
        write_prefix(path, text.get(..kept).unwrap_or_default())?;
    }
    Ok(rows)
}

fn write_prefix(path: &Path, text: &str) -> Result<(), Failure> {
    super::super::resources::write_file(path, text)
}

/// Appends `text` to `path` in one write, synced: a killed run leaves whole lines.
pub fn append(path: &Path, text: &str) -> Result<(), Failure> {
    let failed = |e: std::io::Error| Failure::Job(format!("cannot write {}: {e}", path.display()));
    let mut file = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(failed)?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_data())
        .map_err(failed)
}

/// The value at quantile `q` of sorted `values` (nearest rank), or 0 when empty.
pub fn percentile(sorted: &[u64], q: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// Milli-big-blinds per hand from chips per hand, with a big blind of `big_blind` chips.
pub fn mbb(chips_per_hand: f64, big_blind: u32) -> f64 {
    chips_per_hand / f64::from(big_blind) * 1000.0
}

/// bot0's value per duplicate pair (hand `h` of both halves), or per hand without duplicate.
pub fn bot0_values(rows: &[Row], duplicate: bool) -> Vec<f64> {
    if !duplicate {
        return rows.iter().map(|r| r.chips[0] as f64).collect();
    }
    let first: Vec<&Row> = rows.iter().filter(|r| r.half == 0).collect();
    let second = rows.iter().filter(|r| r.half == 1);
    first
        .iter()
        .zip(second)
        .map(|(a, b)| (a.chips[0] + b.chips[0]) as f64 / 2.0)
        .collect()
}

/// The summary lines.
pub fn summary(
    rows: &[Row],
    names: &[String; 2],
    duplicate: bool,
    big_blind: u32,
    speed: Option<f64>,
) -> String {
    let mut text = String::new();
    let chips = |bot: usize| rows.iter().map(|r| r.chips[bot]).sum::<i64>();
    let warnings: u64 = rows.iter().map(|r| u64::from(r.warnings)).sum();
    let values = bot0_values(rows, duplicate);
    let Estimate {
        mean,
        half_width: half,
        ..
    } = mean_and_interval(&values);
    let unit = if duplicate {
        "duplicate pairs"
    } else {
        "hands"
    };
    let _ = writeln!(
        text,
        "result hands {} bot0 {} chips {:+} bot1 {} chips {:+} warnings {warnings}",
        rows.len(),
        names[0],
        chips(0),
        names[1],
        chips(1)
    );
    let _ = writeln!(
        text,
        "result bot0 {:+.0} ± {:.0} mbb/hand (95%, over {} {unit})",
        mbb(mean, big_blind),
        mbb(half, big_blind),
        values.len()
    );
    for (bot, name) in names.iter().enumerate() {
        let mut all: Vec<u64> = rows
            .iter()
            .flat_map(|r| r.latency_ns[bot].iter().copied())
            .collect();
        all.sort_unstable();
        let ms = |ns: u64| ns as f64 / 1e6;
        let _ = writeln!(
            text,
            "latency bot{bot} {name} actions {} p50 {:.4} ms p99 {:.4} ms max {:.4} ms",
            all.len(),
            ms(percentile(&all, 0.5)),
            ms(percentile(&all, 0.99)),
            ms(all.last().copied().unwrap_or(0))
        );
    }
    if let Some(speed) = speed {
        let _ = writeln!(text, "speed {speed:.0} hands/s");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statistics() {
        let sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        assert_eq!(percentile(&sorted, 0.5), 5);
        assert_eq!(percentile(&sorted, 0.99), 10);
        assert_eq!(percentile(&[], 0.5), 0);
        assert_eq!(mbb(50.0, 100), 500.0);
    }

    #[test]
    fn rows_round_trip() {
        let row = Row {
            half: 1,
            hand: 7,
            chips: [-100, 100],
            warnings: 2,
            latency_ns: [vec![5, 6], vec![]],
            state: "STATE:7:f:Ah2c|Kd3s:-50|50:a|b".into(),
        };
        let text = row.csv(Seating::Rotating);
        // Hand 7 of the swapped half: bot0 sits in seat 1, the big blind when seats rotate.
        assert!(text.starts_with("1,7,1,0,"), "{text}");
        assert_eq!(
            Row::parse(text.trim_end(), Seating::Rotating),
            Ok(row.clone())
        );
        // With fixed seats bot0 keeps seat 1's position, and a row of the other seating
        // is refused.
        let fixed = row.csv(Seating::Fixed);
        assert!(fixed.starts_with("1,7,1,1,"), "{fixed}");
        assert_eq!(
            Row::parse(fixed.trim_end(), Seating::Fixed),
            Ok(row.clone())
        );
        assert!(Row::parse(fixed.trim_end(), Seating::Rotating).is_err());
        assert!(Row::parse(text.trim_end(), Seating::Fixed).is_err());
        assert!(Row::parse("1,2,3", Seating::Rotating).is_err());
        let bytes = crate::harness::cluster::wire::to_bytes(&row);
        assert_eq!(crate::harness::cluster::wire::from_bytes(&bytes), Ok(row));
    }
}
