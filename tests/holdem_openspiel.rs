//! arbor's hold'em rules against OpenSpiel's `universal_poker`, which embeds the ACPC
//! server's game logic: 100,000 hands, random and adversarial, generated with
//! arbor's rules (legal actions, raise bounds, chips at every decision; payoffs and ACPC text
//! at the end) and replayed by `tests/holdem_openspiel.py` in OpenSpiel (one process per core,
//! each on a contiguous part of the hands), which checks each
//! fact. On the way, every decision's MATCHSTATE view and every hand's STATE log line go
//! through arbor's ACPC parser and printer, which must give back the same hand and text.
//!
//! The test makes its own Python environment in `target/openspiel-venv` (kept for later runs;
//! `ARBOR_OPENSPIEL_VENV` names another place) and installs `open_spiel` and `numpy` from
//! PyPI. Without PyPI it prints `SKIPPED: …` and
//! passes, unless `ARBOR_REQUIRE_OPENSPIEL=1`, when it fails instead.
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use arbor::holdem::acpc::{LogLine, MatchState, write_betting, write_cards};
use arbor::holdem::{Action, Card, HandState, HoldemConfig};
use rand_core::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;

/// Hands generated; `ARBOR_OPENSPIEL_HANDS` overrides it for a quick look.
const HANDS: usize = 100_000;

fn hands() -> usize {
    std::env::var("ARBOR_OPENSPIEL_HANDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(HANDS)
}

/// How a generated player picks its actions: weights of fold (when legal), call, and the
/// kinds of raise, when legal.
#[derive(Clone, Copy, Debug)]
struct Style {
    fold: u32,
    call: u32,
    min_raise: u32,
    all_in: u32,
    random_raise: u32,
    /// Raises one chip inside either bound, or a pot-sized raise clamped to the bounds.
    near_bounds: u32,
}

const STYLES: [Style; 8] = [
    // Uniform-ish random, as ACPC's example player.
    Style {
        fold: 1,
        call: 8,
        min_raise: 0,
        all_in: 0,
        random_raise: 8,
        near_bounds: 0,
    },
    // Long raise wars of minimum raises.
    Style {
        fold: 0,
        call: 1,
        min_raise: 12,
        all_in: 0,
        random_raise: 0,
        near_bounds: 0,
    },
    // Shoves and calls.
    Style {
        fold: 1,
        call: 4,
        min_raise: 0,
        all_in: 4,
        random_raise: 0,
        near_bounds: 0,
    },
    // Exactly at and next to the bounds.
    Style {
        fold: 1,
        call: 3,
        min_raise: 3,
        all_in: 3,
        random_raise: 0,
        near_bounds: 6,
    },
    // Check or call down to the river.
    Style {
        fold: 0,
        call: 1,
        min_raise: 0,
        all_in: 0,
        random_raise: 0,
        near_bounds: 0,
    },
    // Folds whenever it can, raises otherwise.
    Style {
        fold: 8,
        call: 1,
        min_raise: 2,
        all_in: 1,
        random_raise: 2,
        near_bounds: 1,
    },
    // Everything mixed.
    Style {
        fold: 1,
        call: 4,
        min_raise: 3,
        all_in: 1,
        random_raise: 3,
        near_bounds: 3,
    },
    // Small raises first, then a large one: all-ins after long wars, for less than a min raise
    // where the stacks differ.
    Style {
        fold: 0,
        call: 2,
        min_raise: 6,
        all_in: 2,
        random_raise: 1,
        near_bounds: 2,
    },
];

fn uniform(rng: &mut XorShiftRng, n: u64) -> u64 {
    rng.next_u64() % n.max(1)
}

/// The action `style` picks in `state` (whose player is to act).
fn pick(state: &HandState, style: Style, rng: &mut XorShiftRng) -> Action {
    let fold = if state.can_fold() { style.fold } else { 0 };
    let bounds = state.raise_bounds();
    let raise = |w: u32| if bounds.is_some() { w } else { 0 };
    let weights = [
        fold,
        style.call,
        raise(style.min_raise),
        raise(style.all_in),
        raise(style.random_raise),
        raise(style.near_bounds),
    ];
    let total: u32 = weights.iter().sum();
    if total == 0 {
        return Action::Call;
    }
    let mut point = uniform(rng, u64::from(total)) as u32;
    let choice = weights
        .iter()
        .position(|&w| {
            if point < w {
                true
            } else {
                point -= w;
                false
            }
        })
        .unwrap_or(1);
    let (min, max) = bounds.unwrap_or((0, 0));
    match choice {
        0 => Action::Fold,
        1 => Action::Call,
        2 => Action::RaiseTo(min),
        3 => Action::RaiseTo(max),
        4 => Action::RaiseTo(min + uniform(rng, u64::from(max - min) + 1) as u32),
        _ => {
            let pot_raise = state.current_bet() + state.pot();
            let to = match uniform(rng, 3) {
                0 => min + 1,
                1 => max - 1,
                _ => pot_raise,
            };
            Action::RaiseTo(to.clamp(min, max))
        }
    }
}

/// Configurations: ACPC's game for most hands, and a few others (short and uneven stacks,
/// so that all-ins for less than a minimum raise and calls for less happen).
fn config_for(hand: usize) -> HoldemConfig {
    let other = [
        ([20_000, 20_000], 100, 50),
        ([1_000, 20_000], 100, 50),
        ([20_000, 730], 100, 50),
        ([5_000, 5_000], 200, 100),
        ([3_000, 2_999], 60, 60),
        ([400, 350], 100, 1),
    ];
    if hand % 4 != 3 {
        return HoldemConfig::ACPC;
    }
    let (stacks, big, small) = other[hand / 4 % other.len()];
    HoldemConfig::new(stacks, big, small).expect("a valid configuration")
}

/// One hand as a line of the exchange file (format in tests/holdem_openspiel.py).
fn play_hand(hand: usize, rng: &mut XorShiftRng, line: &mut String) {
    let config = config_for(hand);
    let mut deck: Vec<u8> = (0..52).collect();
    for i in 0..9 {
        let j = i + uniform(rng, (52 - i) as u64) as usize;
        deck.swap(i, j);
    }
    let cards: Vec<Card> = deck[..9]
        .iter()
        .map(|&b| Card::ALL[usize::from(b)])
        .collect();
    let styles = [
        STYLES[uniform(rng, STYLES.len() as u64) as usize],
        STYLES[uniform(rng, STYLES.len() as u64) as usize],
    ];
    let mut state = HandState::new(config);
    state.deal_hole_cards(0, [cards[0], cards[1]]).unwrap();
    state.deal_hole_cards(1, [cards[2], cards[3]]).unwrap();
    let mut board = cards[4..].iter();
    let [s0, s1] = config.stacks();
    write!(
        line,
        "{s0} {s1} {} {};",
        config.big_blind(),
        config.small_blind()
    )
    .unwrap();
    for card in &cards {
        write!(line, "{} ", card.byte()).unwrap();
    }
    line.push(';');
    while !state.is_over() {
        while state.board_cards_due() > 0 {
            state.deal_board_card(*board.next().unwrap()).unwrap();
        }
        let Some(player) = state.to_act() else {
            continue;
        };
        check_view(&state, player, hand);
        let action = pick(&state, styles[usize::from(player)], rng);
        let (min, max) = state.raise_bounds().unwrap_or((0, 0));
        let id = match action {
            Action::Fold => 0,
            Action::Call => 1,
            Action::RaiseTo(to) => to,
        };
        write!(
            line,
            "{player},{},{min},{max},{},{},{id} ",
            u8::from(state.can_fold()),
            state.spent(0),
            state.spent(1)
        )
        .unwrap();
        state.apply(action).unwrap();
    }
    check_log_line(&state, hand);
    let [p0, p1] = state.payoffs().unwrap();
    write!(line, ";{p0},{p1},").unwrap();
    write_betting(&state, line).unwrap();
    line.push(':');
    write_cards(&state, line).unwrap();
    line.push('\n');
}

/// The MATCHSTATE line `player` receives (its own hole cards only) parses to a hand with the
/// same player to act, raise bounds and chips, and prints back unchanged.
fn check_view(state: &HandState, player: u8, hand: usize) {
    let mut line = format!("MATCHSTATE:{player}:{hand}:");
    write_betting(state, &mut line).unwrap();
    line.push(':');
    let [a, b] = state.hole_cards(player).unwrap();
    let hidden = "";
    if player == 0 {
        write!(line, "{a}{b}|{hidden}").unwrap();
    } else {
        write!(line, "{hidden}|{a}{b}").unwrap();
    }
    for (i, card) in state.board().iter().enumerate() {
        if matches!(i, 0 | 3 | 4) {
            line.push('/');
        }
        write!(line, "{card}").unwrap();
    }
    let view = MatchState::parse(line.as_bytes(), *state.config())
        .unwrap_or_else(|error| panic!("{line}: {error}"));
    assert_eq!(view.to_string(), line);
    assert!(view.is_my_turn(), "{line}");
    assert_eq!(view.state.raise_bounds(), state.raise_bounds(), "{line}");
    assert_eq!(view.state.can_fold(), state.can_fold(), "{line}");
    assert_eq!(view.state.pot(), state.pot(), "{line}");
}

/// The dealer's log line of the finished hand parses back to the same hand and prints back
/// unchanged.
fn check_log_line(state: &HandState, hand: usize) {
    let [v0, v1] = state.payoffs().unwrap();
    let mut line = format!("STATE:{hand}:");
    write_betting(state, &mut line).unwrap();
    line.push(':');
    write_cards(state, &mut line).unwrap();
    write!(line, ":{v0}|{v1}:Alice|Bob").unwrap();
    let parsed =
        LogLine::parse(&line, *state.config()).unwrap_or_else(|error| panic!("{line}: {error}"));
    assert_eq!(&parsed.state, state, "{line}");
    assert_eq!(parsed.to_string(), line);
}

/// `target/`, where the venv and the exchange file live.
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

/// Skips the test (or fails it when OpenSpiel is required) with a reason.
fn skip(reason: &str) {
    if std::env::var("ARBOR_REQUIRE_OPENSPIEL").as_deref() == Ok("1") {
        panic!("ARBOR_REQUIRE_OPENSPIEL=1 but {reason}");
    }
    println!("SKIPPED: {reason} (set ARBOR_REQUIRE_OPENSPIEL=1 to fail instead)");
}

/// The venv's Python with `pyspiel` importable, made on first use; `Err` says why not.
fn openspiel_python() -> Result<PathBuf, String> {
    let venv = std::env::var_os("ARBOR_OPENSPIEL_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| target_dir().join("openspiel-venv"));
    let python = venv.join("bin").join("python");
    let imports = |python: &Path| {
        Command::new(python)
            .args(["-c", "import pyspiel, numpy"])
            .output()
            .is_ok_and(|out| out.status.success())
    };
    if imports(&python) {
        return Ok(python);
    }
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .output()
        .map_err(|e| format!("cannot run python3 to make a venv: {e}"))?;
    if !made.status.success() {
        return Err(format!(
            "python3 -m venv failed: {}",
            String::from_utf8_lossy(&made.stderr).trim()
        ));
    }
    let pip = Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--timeout",
            "30",
            "--retries",
            "2",
        ])
        .args(["open_spiel", "numpy"])
        .output()
        .map_err(|e| format!("cannot run pip: {e}"))?;
    if !pip.status.success() || !imports(&python) {
        let stderr = String::from_utf8_lossy(&pip.stderr);
        let last_line = stderr.lines().rev().find(|line| !line.trim().is_empty());
        return Err(format!(
            "pip could not install open_spiel and numpy from PyPI ({})",
            last_line.unwrap_or("no message").trim()
        ));
    }
    Ok(python)
}

#[test]
fn rules_agree_with_openspiel_universal_poker() {
    let python = match openspiel_python() {
        Ok(python) => python,
        Err(reason) => return skip(&reason),
    };
    let generated = Instant::now();
    let mut rng = XorShiftRng::seed_from_u64(0x5eed_1701);
    let hands = hands();
    let mut lines = Vec::with_capacity(hands);
    for hand in 0..hands {
        let mut line = String::new();
        play_hand(hand, &mut rng, &mut line);
        lines.push(line);
    }
    println!(
        "generated {hands} hands in {:.1} s",
        generated.elapsed().as_secs_f64()
    );

    // The replay is split into contiguous parts, one OpenSpiel process per core at once.
    let replayed = Instant::now();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/holdem_openspiel.py");
    let parts = std::thread::available_parallelism().map_or(1, |n| n.get().clamp(1, 4));
    let part_len = hands.div_ceil(parts).max(1);
    let mut running = Vec::new();
    for (part, chunk) in lines.chunks(part_len).enumerate() {
        let path = target_dir().join(format!("holdem_openspiel_hands.{part}.txt"));
        std::fs::write(&path, chunk.concat()).expect("write the hands file");
        let child = Command::new(&python)
            .arg(&script)
            .arg(&path)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run the OpenSpiel script");
        running.push((part * part_len, child));
    }
    for (first_line, child) in running {
        let out = child.wait_with_output().expect("the OpenSpiel script ends");
        let stdout = String::from_utf8_lossy(&out.stdout);
        println!(
            "OpenSpiel replay of hands {}..: {} after {:.1} s",
            first_line + 1,
            stdout.trim(),
            replayed.elapsed().as_secs_f64()
        );
        if let Some(rest) = stdout.trim().strip_prefix("MISMATCH ") {
            let number: usize = rest.split(':').next().unwrap().parse().unwrap();
            let number = first_line + number;
            panic!(
                "OpenSpiel disagrees on hand {number}: {rest}\nthe hand: {}",
                lines[number - 1]
            );
        }
        assert!(
            out.status.success() && stdout.starts_with("OK "),
            "the OpenSpiel script failed: {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
