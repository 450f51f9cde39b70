//! `arbor acpc compare A.csv B.csv`: two dealer matches on the same deals against the same
//! opponent (the same seed, hands, duplicate and `--bot1`), paired deal by deal: bot A's
//! result minus bot B's, in mbb/hand with its 95% interval (the statistics are the
//! library's [`paired`](crate::holdem::paired)).
use std::fs;
use std::path::{Path, PathBuf};

use super::super::Failure;
use super::super::args::{Args, Command};
use super::dealer::Seating;
use super::report::{CSV_COLUMNS, Row, bot0_values, mbb};
use crate::holdem::paired::{Estimate, mean_and_interval, paired_difference};
use crate::holdem::rules::HoldemConfig;

pub const COMMAND: Command = Command {
    name: "acpc compare",
    operands: "A.csv B.csv",
    about: "pair two `acpc dealer --csv` matches played on the same deals (the same --seed,\n\
            --hands, --duplicate and --bot1): bot0 of A minus bot0 of B per duplicate pair\n\
            (per hand without duplicate), mbb/hand with a 95% interval, and each alone",
    options: &[],
};

/// A match's CSV: its settings line's fields and its rows.
struct Match {
    path: PathBuf,
    bot0: String,
    /// The settings that must agree for the deals to be the same: everything but bot0.
    deal_settings: Vec<String>,
    duplicate: bool,
    rows: Vec<Row>,
}

fn read(path: &Path) -> Result<Match, Failure> {
    let text = fs::read_to_string(path)
        .map_err(|e| Failure::Job(format!("cannot read {}: {e}", path.display())))?;
    parse(&text, path)
}

/// The match in `text`, the CSV read from `path`.
fn parse(text: &str, path: &Path) -> Result<Match, Failure> {
    let damaged = |why: String| Failure::Job(format!("{}: {why}", path.display()));
    let mut lines = text.lines();
    let settings = lines
        .next()
        .and_then(|line| line.strip_prefix("# arbor acpc dealer: "))
        .ok_or_else(|| damaged("not an `arbor acpc dealer --csv` file".into()))?;
    if lines.next() != Some(CSV_COLUMNS) {
        return Err(damaged("line 2 is not the column line".into()));
    }
    let words: Vec<&str> = settings.split(' ').collect();
    let value = |key: &str| {
        words
            .chunks(2)
            .find(|pair| pair[0] == key)
            .and_then(|pair| pair.get(1).copied())
    };
    let bot0 = value("bot0").ok_or_else(|| damaged("no bot0 in the settings".into()))?;
    let seating = if value("fixed-seats") == Some("on") {
        Seating::Fixed
    } else {
        Seating::Rotating
    };
    let deal_settings = words
        .chunks(2)
        .filter(|pair| !matches!(pair[0], "bot0" | "name0" | "name1"))
        .map(|pair| pair.join(" "))
        .collect();
    let mut rows = Vec::new();
    for (index, line) in lines.enumerate() {
        let row = Row::parse(line, seating)
            .map_err(|why| damaged(format!("line {}: {why}", index + 3)))?;
        rows.push(row);
    }
    Ok(Match {
        path: path.to_owned(),
        bot0: bot0.to_owned(),
        deal_settings,
        duplicate: value("duplicate") == Some("on"),
        rows,
    })
}

/// The hole cards of a dealer `STATE:` line (`STATE:hand:betting:cards:...`, the cards
/// before the first `/`).
fn hole_cards(state: &str) -> Option<&str> {
    let cards = state.split(':').nth(3)?;
    Some(cards.split('/').next().unwrap_or(cards))
}

/// Checks that `a` and `b` were dealt the same cards in the same hands.
fn same_deals(a: &Match, b: &Match) -> Result<(), Failure> {
    if a.deal_settings != b.deal_settings {
        return Err(Failure::Usage(format!(
            "{} and {} are not the same deals against the same opponent: settings '{}' and '{}'",
            a.path.display(),
            b.path.display(),
            a.deal_settings.join(" "),
            b.deal_settings.join(" ")
        )));
    }
    if a.rows.len() != b.rows.len() {
        return Err(Failure::Usage(format!(
            "{} has {} hands and {} has {}: finish both matches first",
            a.path.display(),
            a.rows.len(),
            b.path.display(),
            b.rows.len()
        )));
    }
    for (x, y) in a.rows.iter().zip(&b.rows) {
        if (x.half, x.hand) != (y.half, y.hand) || hole_cards(&x.state) != hole_cards(&y.state) {
            return Err(Failure::Usage(format!(
                "hand {} (half {}) was dealt differently: '{}' and '{}'",
                x.hand, x.half, x.state, y.state
            )));
        }
    }
    Ok(())
}

pub fn run(args: Args) -> Result<(), Failure> {
    let paths = args.operands();
    let [a, b] = paths else {
        return Err(Failure::Usage(
            "acpc compare takes two CSV files: A.csv B.csv".into(),
        ));
    };
    let (a, b) = (read(Path::new(a))?, read(Path::new(b))?);
    let [alone_a, alone_b, difference] = compare(&a, &b)?;
    let unit = if a.duplicate {
        "duplicate pairs"
    } else {
        "hands"
    };
    let line = |name: &str, e: Estimate| {
        format!(
            "{name} {:+.0} ± {:.0} mbb/hand (95%, over {} {unit})",
            e.mean, e.half_width, e.samples
        )
    };
    outln!("{}", line(&format!("a {}", a.bot0), alone_a));
    outln!("{}", line(&format!("b {}", b.bot0), alone_b));
    outln!(
        "{}",
        line(&format!("a-b {} minus {}", a.bot0, b.bot0), difference)
    );
    Ok(())
}

/// A's result, B's, and A's minus B's paired by deal, in mbb/hand.
fn compare(a: &Match, b: &Match) -> Result<[Estimate; 3], Failure> {
    same_deals(a, b)?;
    let big_blind = HoldemConfig::ACPC.big_blind();
    let in_mbb = |m: &Match| -> Vec<f64> {
        bot0_values(&m.rows, m.duplicate)
            .into_iter()
            .map(|chips| mbb(chips, big_blind))
            .collect()
    };
    let (values_a, values_b) = (in_mbb(a), in_mbb(b));
    let difference =
        paired_difference(&values_a, &values_b).map_err(|e| Failure::Job(e.to_string()))?;
    Ok([
        mean_and_interval(&values_a),
        mean_and_interval(&values_b),
        difference,
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-deal duplicate match of `bot0` against the all-in bot, bot0's chips by (half,
    /// hand), the cards `cards` in hand 1.
    fn log(bot0: &str, chips: [i64; 4], cards: &str) -> String {
        let hands: [(u8, u64, &str, &str); 4] = [
            (0, 0, "r20000f", "8s2h|Kd5c"),
            (0, 1, "r20000c", cards),
            (1, 0, "r20000f", "8s2h|Kd5c"),
            (1, 1, "r20000c", cards),
        ];
        let mut text = format!(
            "# arbor acpc dealer: bot0 {bot0} bot1 all-in name0 {bot0} name1 all-in hands 2 \
             seed 1 duplicate on\n{CSV_COLUMNS}\n"
        );
        for ((half, hand, betting, cards), chips) in hands.into_iter().zip(chips) {
            let position = Seating::Rotating.position_of(usize::from(half), hand);
            text.push_str(&format!(
                "{half},{hand},{half},{position},{chips},{},0,,,STATE:{hand}:{betting}:{cards}:0|0:x|y\n",
                -chips
            ));
        }
        text
    }

    #[test]
    fn two_matches_on_the_same_deals_pair_by_deal() {
        let path = Path::new("a.csv");
        // A wins 100 chips more than B in both seats of deal 0 and the same in deal 1.
        let a = parse(
            &log("a", [0, 20_000, 0, -20_000], "AsAh|KdKc/2c3c4d5s9h"),
            path,
        )
        .unwrap();
        let b = parse(
            &log("b", [-100, 20_000, -100, -20_000], "AsAh|KdKc/2c3c4d5s9h"),
            path,
        )
        .unwrap();
        let [alone_a, alone_b, difference] = compare(&a, &b).unwrap();
        // Per pair in mbb/hand: A 0 and 0, B -1,000 and 0.
        assert_eq!((alone_a.mean, alone_b.mean), (0.0, -500.0));
        assert_eq!(difference.mean, 500.0);
        assert_eq!(difference.samples, 2);
        // Other cards, or another opponent, are refused.
        let other = parse(&log("b", [0; 4], "QsQh|KdKc/2c3c4d5s9h"), path).unwrap();
        assert!(compare(&a, &other).is_err());
        let opponent = log("b", [0; 4], "AsAh|KdKc/2c3c4d5s9h").replace("bot1 all-in", "bot1 call");
        assert!(compare(&a, &parse(&opponent, path).unwrap()).is_err());
        assert!(parse("not a csv", path).is_err());
    }
}
