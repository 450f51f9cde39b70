//! The command line of every subcommand, read and checked in one place. Each command
//! declares its options in a [`Command`] table (name, kind of value, default, help);
//! [`Args::parse`] refuses unknown options, options given twice, missing or empty values and
//! values out of their declared range before the command runs, and the same table prints
//! the command's `--help`. Hand-written because the harness needs little, and no
//! argument-parsing crate earns its place yet.
//!
//! Arguments arrive as OS strings: a path may be any bytes the system allows, while text
//! (a number, a card, a name) that is not UTF-8 is a usage error, never a panic.
use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::path::PathBuf;

use super::Failure;

/// What an option's value must be.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Int { min: u64, max: u64 },
    /// A finite number in `min..=max`.
    Real { min: f64, max: f64 },
    /// One of these words.
    Choice(&'static [&'static str]),
    /// A number of bytes, like `512M` or `4G`, in `min..=max` (the command checks what its
    /// job needs, and whether the machine has it).
    Bytes { min: u64, max: u64 },
    /// Text the command reads itself (a position, a player, a move list).
    Text,
    /// A file or directory: any name the system allows, UTF-8 or not.
    Path,
    /// A bare flag that takes no value (`--distributed`); [`Args::has`] reads it.
    Switch,
}

/// One `--name VALUE` option of a command.
#[derive(Clone, Copy, Debug)]
pub struct Opt {
    pub name: &'static str,
    /// The placeholder shown in the help (`N`, `FILE`).
    pub value: &'static str,
    pub kind: Kind,
    /// The value when the option is absent, read like a given one.
    pub default: Option<&'static str>,
    pub help: &'static str,
}

impl Opt {
    /// An option without a default.
    pub const fn new(
        name: &'static str,
        value: &'static str,
        kind: Kind,
        help: &'static str,
    ) -> Opt {
        Opt {
            name,
            value,
            kind,
            default: None,
            help,
        }
    }

    /// The same option with a default value.
    pub const fn or(self, default: &'static str) -> Opt {
        Opt {
            default: Some(default),
            ..self
        }
    }
}

/// The seed every command takes.
pub const SEED: Opt = Opt::new(
    "seed",
    "S",
    Kind::Int {
        min: 0,
        max: u64::MAX,
    },
    "random seed",
)
.or("1");

/// `--threads`: workers that play games side by side (default: every core).
pub const THREADS: Opt = Opt::new(
    "threads",
    "N",
    Kind::Int { min: 1, max: 1024 },
    "worker threads (default: one per core)",
);

/// A subcommand: its words, its operands, what it does, and its options.
#[derive(Debug)]
pub struct Command {
    /// The words that select it: `solve breakthrough`, `match3 play`.
    pub name: &'static str,
    /// Operands after the options in the synopsis (`[CARD...]`), or "".
    pub operands: &'static str,
    pub about: &'static str,
    pub options: &'static [Opt],
}

impl Command {
    fn option(&self, name: &str) -> Option<&Opt> {
        self.options.iter().find(|opt| opt.name == name)
    }

    /// The text of `arbor <command> --help`.
    pub fn help(&self) -> String {
        let mut text = format!("usage: arbor {}", self.name);
        if !self.options.is_empty() {
            text.push_str(" [options]");
        }
        if !self.operands.is_empty() {
            let _ = write!(text, " {}", self.operands);
        }
        let _ = write!(text, "\n\n{}\n", self.about);
        if !self.options.is_empty() {
            text.push_str("\noptions:\n");
        }
        for opt in self.options {
            let flag = match opt.kind {
                Kind::Switch => format!("--{}", opt.name),
                _ => format!("--{} {}", opt.name, opt.value),
            };
            let _ = write!(text, "  {flag:<22} {}", opt.help);
            let range = match opt.kind {
                Kind::Int { min, max } if max == u64::MAX => format!("{min} or more"),
                Kind::Int { min, max } => format!("{min} to {max}"),
                Kind::Bytes { min, max } => format!("{} to {}", bytes_text(min), bytes_text(max)),
                Kind::Real { min, max } => format!("{min} to {max}"),
                Kind::Choice(words) => words.join(" | "),
                Kind::Text | Kind::Path | Kind::Switch => String::new(),
            };
            let default = opt.default.map(|d| format!("default {d}"));
            let notes: Vec<String> = [Some(range).filter(|r| !r.is_empty()), default]
                .into_iter()
                .flatten()
                .collect();
            if !notes.is_empty() {
                let _ = write!(text, " ({})", notes.join("; "));
            }
            text.push('\n');
        }
        text
    }
}

/// A checked option value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(u64),
    Real(f64),
    Word(String),
    Path(OsString),
}

/// Converts a checked [`Value`] to the type a command wants.
pub trait FromValue: Sized {
    fn from_value(value: &Value) -> Option<Self>;
}

macro_rules! from_int {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(value: &Value) -> Option<Self> {
                match value {
                    Value::Int(n) => <$t>::try_from(*n).ok(),
                    _ => None,
                }
            }
        }
    )*};
}
from_int!(u8, u32, u64, usize);

impl FromValue for f64 {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Real(x) => Some(*x),
            _ => None,
        }
    }
}

impl FromValue for String {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Word(text) => Some(text.clone()),
            _ => None,
        }
    }
}

impl FromValue for PathBuf {
    fn from_value(value: &Value) -> Option<Self> {
        match value {
            Value::Path(path) => Some(PathBuf::from(path)),
            _ => None,
        }
    }
}

/// A command line read against its `Command`: the operands, and each option's checked value.
#[derive(Debug)]
pub struct Args {
    command: &'static Command,
    operands: Vec<OsString>,
    given: Vec<(&'static str, Value)>,
}

/// `true` for `--help` and `-h`.
pub fn is_help(word: &OsStr) -> bool {
    word == "--help" || word == "-h"
}

/// A word for a message: lossy where it is not UTF-8.
pub fn shown(word: &OsStr) -> String {
    word.to_string_lossy().into_owned()
}

impl Args {
    /// Reads `words` (what follows the command's name) against `command`.
    pub fn parse(command: &'static Command, words: Vec<OsString>) -> Result<Args, Failure> {
        let mut args = Args {
            command,
            operands: Vec::new(),
            given: Vec::new(),
        };
        let mut words = words.into_iter();
        while let Some(word) = words.next() {
            let Some(name) = word.to_str().and_then(|w| w.strip_prefix("--")) else {
                if word.as_encoded_bytes().starts_with(b"--") {
                    return Err(usage(format!("unknown option '{}'", shown(&word))));
                }
                args.operands.push(word);
                continue;
            };
            let opt = command.option(name).ok_or_else(|| {
                usage(format!("unknown option '--{name}' for '{}'", command.name))
            })?;
            if args.given.iter().any(|(given, _)| *given == opt.name) {
                return Err(usage(format!("--{name} given twice")));
            }
            if let Kind::Switch = opt.kind {
                args.given.push((opt.name, Value::Word("on".into())));
                continue;
            }
            // A value never starts with `--`: `--csv --games 3` lacks the file name.
            let value = words
                .next()
                .filter(|value| !value.as_encoded_bytes().starts_with(b"--"))
                .ok_or_else(|| usage(format!("--{name} needs a value ({})", opt.value)))?;
            let value = check(opt, &value)?;
            args.given.push((opt.name, value));
        }
        Ok(args)
    }

    /// The value of `--name`: as given, else its default, else `None`.
    pub fn get<T: FromValue>(&self, name: &str) -> Result<Option<T>, Failure> {
        let opt = self.command.option(name).ok_or_else(|| {
            Failure::Job(format!("internal: '{}' has no --{name}", self.command.name))
        })?;
        let value = match self.given.iter().find(|(given, _)| *given == name) {
            Some((_, value)) => value.clone(),
            None => match opt.default {
                Some(default) => check(opt, OsStr::new(default))?,
                None => return Ok(None),
            },
        };
        T::from_value(&value)
            .map(Some)
            .ok_or_else(|| Failure::Job(format!("internal: --{name} read as the wrong type")))
    }

    /// The value of `--name`, which the command cannot do without.
    pub fn need<T: FromValue>(&self, name: &str) -> Result<T, Failure> {
        self.get(name)?
            .ok_or_else(|| usage(format!("'{}' needs --{name}", self.command.name)))
    }

    /// Whether `--name` was given on the command line.
    pub fn has(&self, name: &str) -> bool {
        self.given.iter().any(|(given, _)| *given == name)
    }

    /// The operands, as the system gave them (for paths).
    pub fn operands(&self) -> &[OsString] {
        &self.operands
    }

    /// The operands as text; one that is not UTF-8 is a usage error.
    pub fn operand_texts(&self) -> Result<Vec<String>, Failure> {
        self.operands
            .iter()
            .map(|word| text(word, "argument"))
            .collect()
    }

    /// Refuses any operand: for commands that take none.
    pub fn no_operands(&self) -> Result<(), Failure> {
        match self.operands.first() {
            None => Ok(()),
            Some(word) => Err(usage(format!("unexpected argument '{}'", shown(word)))),
        }
    }
}

fn usage(message: String) -> Failure {
    Failure::Usage(message)
}

/// `word` as UTF-8 text, or a usage error naming `what`.
pub fn text(word: &OsStr, what: &str) -> Result<String, Failure> {
    word.to_str()
        .map(str::to_owned)
        .ok_or_else(|| usage(format!("{what} '{}' is not valid UTF-8 text", shown(word))))
}

/// Checks `word` as the value of `opt`.
fn check(opt: &Opt, word: &OsStr) -> Result<Value, Failure> {
    let flag = format!("--{}", opt.name);
    if word.is_empty() {
        return Err(usage(format!(
            "{flag} needs a value ({}), not ''",
            opt.value
        )));
    }
    if let Kind::Path = opt.kind {
        return Ok(Value::Path(word.to_owned()));
    }
    let word = text(word, &format!("{flag} value"))?;
    let out_of_range = |what: String| usage(format!("{flag} {word}: {what}"));
    match opt.kind {
        Kind::Int { min, max } => match word.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Value::Int(n)),
            Ok(_) => Err(out_of_range(range_text(min, max))),
            Err(_) if word.bytes().all(|b| b.is_ascii_digit()) => {
                Err(out_of_range(range_text(min, max)))
            }
            Err(_) => Err(out_of_range(format!(
                "not a whole number ({})",
                range_text(min, max)
            ))),
        },
        Kind::Real { min, max } => match word.parse::<f64>() {
            Ok(x) if x.is_finite() && (min..=max).contains(&x) => Ok(Value::Real(x)),
            Ok(x) if x.is_finite() => Err(out_of_range(format!("must be {min} to {max}"))),
            _ => Err(out_of_range(format!(
                "not a finite number (must be {min} to {max})"
            ))),
        },
        Kind::Choice(words) if words.contains(&word.as_str()) => Ok(Value::Word(word)),
        Kind::Choice(words) => Err(out_of_range(format!("must be {}", words.join(", ")))),
        Kind::Bytes { min, max } => match parse_bytes(&word) {
            Some(n) if (min..=max).contains(&n) => Ok(Value::Int(n)),
            Some(n) if n < min => Err(out_of_range(format!(
                "too small: at least {} ({min} bytes)",
                bytes_text(min)
            ))),
            Some(_) => Err(out_of_range(format!(
                "too large: at most {} ({max} bytes)",
                bytes_text(max)
            ))),
            None => Err(out_of_range("not a size (like 64M, 1G)".into())),
        },
        Kind::Text | Kind::Switch => Ok(Value::Word(word)),
        Kind::Path => Ok(Value::Path(word.into())),
    }
}

fn range_text(min: u64, max: u64) -> String {
    if max == u64::MAX {
        format!("must be a whole number, {min} or more")
    } else {
        format!("must be a whole number from {min} to {max}")
    }
}

/// `4G`, `512M`, `64K` or plain bytes; `None` when unreadable or past `u64`.
pub fn parse_bytes(text: &str) -> Option<u64> {
    let (digits, unit) = match text.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => text.split_at(i),
        None => (text, ""),
    };
    let n: u64 = digits.parse().ok()?;
    let scale: u64 = match unit {
        "" | "B" => 1,
        "K" | "k" | "KB" => 1 << 10,
        "M" | "m" | "MB" => 1 << 20,
        "G" | "g" | "GB" => 1 << 30,
        "T" | "t" | "TB" => 1 << 40,
        _ => return None,
    };
    n.checked_mul(scale)
}

/// Bytes in the largest whole unit: `64K`, `1G`, or plain bytes.
pub fn bytes_text(bytes: u64) -> String {
    for (unit, shift) in [("T", 40), ("G", 30), ("M", 20), ("K", 10)] {
        if bytes >= 1 << shift && bytes.is_multiple_of(1 << shift) {
            return format!("{}{unit}", bytes >> shift);
        }
    }
    bytes.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: Command = Command {
        name: "example",
        operands: "[WORD...]",
        about: "an example",
        options: &[
            Opt::new("games", "N", Kind::Int { min: 1, max: 1000 }, "games").or("50"),
            SEED,
            Opt::new(
                "epsilon",
                "X",
                Kind::Real {
                    min: 0.0,
                    max: 10.0,
                },
                "eps",
            ),
            Opt::new("mode", "M", Kind::Choice(&["on", "off"]), "mode"),
            Opt::new(
                "memory",
                "BYTES",
                Kind::Bytes {
                    min: 1024,
                    max: 1 << 30,
                },
                "memory",
            ),
            Opt::new("out", "FILE", Kind::Path, "file"),
            Opt::new("fast", "", Kind::Switch, "go fast"),
        ],
    };

    fn args(text: &str) -> Result<Args, Failure> {
        Args::parse(
            &EXAMPLE,
            text.split_whitespace().map(OsString::from).collect(),
        )
    }

    fn refused(text: &str, needle: &str) {
        match args(text) {
            Err(Failure::Usage(m)) => assert!(m.contains(needle), "{text}: {m}"),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn options_defaults_and_operands() {
        let a = args("x --games 20 y --memory 64K").unwrap();
        assert_eq!(a.get::<u32>("games").unwrap(), Some(20));
        assert_eq!(a.get::<u64>("seed").unwrap(), Some(1));
        assert_eq!(a.get::<u64>("memory").unwrap(), Some(65536));
        assert_eq!(a.get::<f64>("epsilon").unwrap(), None);
        assert!(a.need::<String>("mode").is_err());
        assert_eq!(a.operand_texts().unwrap(), ["x", "y"]);
        assert!(a.has("games") && !a.has("seed"));
        assert!(a.get::<u32>("nonexistent").is_err());
    }

    #[test]
    fn a_switch_takes_no_value() {
        let a = args("--fast --games 3 x").unwrap();
        assert!(a.has("fast"));
        assert_eq!(a.get::<u32>("games").unwrap(), Some(3));
        assert_eq!(a.operand_texts().unwrap(), ["x"]);
        assert!(!args("x").unwrap().has("fast"));
        refused("--fast --fast", "given twice");
        assert!(EXAMPLE.help().contains("  --fast "));
    }

    #[test]
    fn errors_name_the_problem() {
        refused("--games", "needs a value");
        refused("--out --games 3", "--out needs a value");
        refused("--games x", "not a whole number");
        refused("--games 0", "from 1 to 1000");
        refused("--games 99999999999999999999999", "from 1 to 1000");
        refused("--games -3", "not a whole number");
        refused("--games 3 --games 4", "given twice");
        refused("--what 1", "unknown option '--what'");
        refused("--epsilon nan", "finite");
        refused("--epsilon inf", "finite");
        refused("--epsilon -1", "0 to 10");
        refused("--mode maybe", "on, off");
        refused("--memory 64", "at least 1K");
        refused("--memory 100G", "at most 1G");
        refused("--memory lots", "not a size");
        assert!(matches!(
            Args::parse(&EXAMPLE, vec!["--mode".into(), "".into()]),
            Err(Failure::Usage(m)) if m.contains("not ''")
        ));
    }

    #[cfg(unix)]
    #[test]
    fn paths_may_be_any_bytes_and_text_must_be_utf8() {
        use std::os::unix::ffi::OsStringExt;
        let latin1 = OsString::from_vec(b"caf\xe9.txt".to_vec());
        let a = Args::parse(&EXAMPLE, vec!["--out".into(), latin1.clone()]).unwrap();
        assert_eq!(
            a.get::<PathBuf>("out").unwrap(),
            Some(PathBuf::from(&latin1))
        );
        assert!(matches!(
            Args::parse(&EXAMPLE, vec!["--mode".into(), latin1.clone()]),
            Err(Failure::Usage(m)) if m.contains("UTF-8")
        ));
        let a = Args::parse(&EXAMPLE, vec![latin1]).unwrap();
        assert!(matches!(a.operand_texts(), Err(Failure::Usage(m)) if m.contains("UTF-8")));
    }

    #[test]
    fn sizes_read_and_print() {
        assert_eq!(parse_bytes("4G"), Some(4 << 30));
        assert_eq!(parse_bytes("18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_bytes("18446744073709551615K"), None);
        assert_eq!(parse_bytes("1.5G"), None);
        assert_eq!(bytes_text(64 << 10), "64K");
        assert_eq!(bytes_text(1000), "1000");
    }

    #[test]
    fn the_help_lists_every_option_with_its_range() {
        let help = EXAMPLE.help();
        for opt in EXAMPLE.options {
            assert!(help.contains(&format!("--{} ", opt.name)), "{help}");
        }
        assert!(help.contains("1 to 1000; default 50"), "{help}");
        assert!(help.contains("on | off"), "{help}");
    }
}
