//! `arbor holdem chart` (regenerate the expert library's shipped data) and `arbor holdem
//! styles` (the styles table: VPIP, PFR, aggression factor and duplicate mbb/hand of each
//! style against a fixed opponent). Only options and printing live here; the work is in
//! `crate::holdem::expert`.
use std::path::PathBuf;
use std::time::Instant;

use super::args::{Command, Kind, Opt};
use super::{Args, Failure};
use crate::holdem::bots::{HoldemBot, parse_bot};
use crate::holdem::deal::Dealer;
use crate::holdem::expert::arena::play_hand;
use crate::holdem::expert::chart::CHART_FILE_BYTES;
use crate::holdem::expert::preflop_equity::{self, ENTRIES, EquityTable, TABLE_FILE_BYTES};
use crate::holdem::expert::{Chart, ExpertBot, PRESETS, Style, StyleStats};
use crate::holdem::paired::{Estimate, mean_and_interval};
use crate::holdem::rules::HoldemConfig;

pub const CHART: Command = Command {
    name: "holdem chart",
    operands: "",
    about: "regenerate the expert library's data: the 169 x 169 preflop class equity table\n\
            (seeded Monte Carlo, --samples deals per class pair) and the balanced style's\n\
            preflop chart derived from it; writes DIR/preflop_equity.bin and DIR/chart.bin\n\
            (the shipped files are src/holdem/expert/data/)",
    options: &[
        Opt::new(
            "out",
            "DIR",
            Kind::Path,
            "directory to write the two files to",
        ),
        Opt::new(
            "samples",
            "N",
            Kind::Int {
                min: 1,
                max: 1_000_000,
            },
            "deals per class pair",
        )
        .or("4096"),
        Opt::new(
            "seed",
            "S",
            Kind::Int {
                min: 0,
                max: u64::MAX,
            },
            "random seed",
        )
        .or("1"),
    ],
};

pub const STYLES: Command = Command {
    name: "holdem styles",
    operands: "",
    about: "play each style (expert bot) against --opponent in process, duplicate (every deal\n\
            twice, seats swapped), and print per style: hands, VPIP, PFR, aggression factor\n\
            (postflop bets and raises per call) and mbb/hand with a 95% interval",
    options: &[
        Opt::new(
            "hands",
            "N",
            Kind::Int {
                min: 1,
                max: 10_000_000,
            },
            "deals per style (each played twice)",
        )
        .or("5000"),
        Opt::new(
            "opponent",
            "SPEC",
            Kind::Text,
            "the fixed opponent (a bot spec)",
        )
        .or("equity"),
        Opt::new(
            "styles",
            "LIST",
            Kind::Text,
            "styles separated by commas (presets or L/A/B/R numbers; default: every preset)",
        ),
        Opt::new(
            "seed",
            "S",
            Kind::Int {
                min: 0,
                max: u32::MAX as u64,
            },
            "the deal's seed and the expert bot's",
        )
        .or("1"),
    ],
};

pub fn run(command: &Command, args: Args) -> Result<(), Failure> {
    args.no_operands()?;
    if command.name == CHART.name {
        chart(args)
    } else {
        styles(args)
    }
}

fn chart(args: Args) -> Result<(), Failure> {
    let out: PathBuf = args.need("out")?;
    let samples: u32 = args.need("samples")?;
    let seed: u64 = args.need("seed")?;
    let started = Instant::now();
    let mut table = vec![0u16; ENTRIES];
    let table: &mut [u16; ENTRIES] = table
        .as_mut_slice()
        .try_into()
        .map_err(|_| Failure::Job("table size".to_owned()))?;
    preflop_equity::generate(samples, seed, table, |row| {
        if row % 20 == 19 {
            noteln!("equity table: {} of 169 rows", row + 1);
        }
    });
    let mut bytes = vec![0u8; TABLE_FILE_BYTES];
    let bytes: &mut [u8; TABLE_FILE_BYTES] = bytes
        .as_mut_slice()
        .try_into()
        .map_err(|_| Failure::Job("table size".to_owned()))?;
    preflop_equity::to_bytes(table, bytes);
    let chart = Chart::derive_from(&EquityTable(bytes), &Style::BALANCED);
    let mut chart_bytes = [0u8; CHART_FILE_BYTES];
    chart.to_bytes(&mut chart_bytes);
    std::fs::create_dir_all(&out)
        .map_err(|e| Failure::Job(format!("cannot create {}: {e}", out.display())))?;
    for (name, data) in [
        ("preflop_equity.bin", &bytes[..]),
        ("chart.bin", &chart_bytes[..]),
    ] {
        let path = out.join(name);
        std::fs::write(&path, data)
            .map_err(|e| Failure::Job(format!("cannot write {}: {e}", path.display())))?;
    }
    outln!(
        "wrote {} and {} in {:.1} s",
        out.join("preflop_equity.bin").display(),
        out.join("chart.bin").display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn styles(args: Args) -> Result<(), Failure> {
    let hands: u64 = args.need("hands")?;
    let opponent: String = args.need("opponent")?;
    let seed: u32 = args.need("seed")?;
    parse_bot(&opponent).map_err(|e| Failure::Usage(format!("--opponent '{opponent}': {e}")))?;
    let styles: Vec<(String, Style)> = match args.get::<String>("styles")? {
        None => PRESETS
            .iter()
            .map(|(name, style)| (name.to_string(), *style))
            .collect(),
        Some(list) => list
            .split(',')
            .map(|text| {
                Style::parse(text)
                    .map(|style| (text.to_owned(), style))
                    .map_err(|e| Failure::Usage(format!("--styles '{text}': {e}")))
            })
            .collect::<Result<_, _>>()?,
    };
    outln!("style      hands   VPIP    PFR     AF   mbb/hand vs {opponent}");
    for (name, style) in styles {
        let started = Instant::now();
        let mut stats = StyleStats::default();
        let mut pair_chips = vec![0f64; hands as usize];
        for half in 0..2u64 {
            let mut expert = ExpertBot::new(style, u64::from(seed));
            let mut other = parse_bot(&opponent)
                .map_err(|e| Failure::Usage(format!("--opponent '{opponent}': {e}")))?;
            let mut dealer = Dealer::new(seed);
            for hand in 0..hands {
                let deal = dealer.next_hand();
                let position = ((hand + half) % 2) as u8;
                let finished = if position == 0 {
                    play_hand(
                        [&mut expert as &mut dyn HoldemBot, &mut other],
                        HoldemConfig::ACPC,
                        &deal,
                        hand,
                    )
                } else {
                    play_hand(
                        [&mut other as &mut dyn HoldemBot, &mut expert],
                        HoldemConfig::ACPC,
                        &deal,
                        hand,
                    )
                };
                let payoffs = finished
                    .payoffs()
                    .map_err(|e| Failure::Job(format!("hand {hand}: {e}")))?;
                pair_chips[hand as usize] += f64::from(payoffs[usize::from(position)]) / 2.0;
                stats.observe(&finished, position);
            }
        }
        let mbb: Vec<f64> = pair_chips
            .iter()
            .map(|chips| chips / f64::from(HoldemConfig::ACPC.big_blind()) * 1000.0)
            .collect();
        let Estimate {
            mean, half_width, ..
        } = mean_and_interval(&mbb);
        outln!(
            "{name:<10} {:>6} {:>5.1}% {:>5.1}% {:>6.2} {:>+9.0} ± {:.0}",
            stats.hands,
            stats.vpip() * 100.0,
            stats.pfr() * 100.0,
            stats.aggression_factor(),
            mean,
            half_width
        );
        noteln!(
            "{name}: {:.0} hands/s",
            stats.hands as f64 / started.elapsed().as_secs_f64().max(1e-9)
        );
    }
    Ok(())
}
