//! A small command-line reader: positional words and `--name value` options. Hand-written
//! because the harness needs little, and no argument-parsing crate earns its place yet.
use std::str::FromStr;

use super::Failure;

/// The arguments left to read.
pub struct Args {
    words: Vec<String>,
}

impl Args {
    pub fn new(words: Vec<String>) -> Args {
        Args { words }
    }

    /// Takes the first word that is not an option (does not start with `--`).
    pub fn next_positional(&mut self) -> Option<String> {
        let index = self.words.iter().position(|word| !word.starts_with("--"))?;
        Some(self.words.remove(index))
    }

    /// Takes every remaining word that is not an option.
    pub fn positionals(&mut self) -> Vec<String> {
        let (positional, options) = self
            .words
            .drain(..)
            .partition(|word| !word.starts_with("--"));
        self.words = options;
        positional
    }

    /// Takes `--name value` and parses the value; `None` when the option is absent.
    pub fn option<T: FromStr>(&mut self, name: &str) -> Result<Option<T>, Failure> {
        let flag = format!("--{name}");
        let Some(index) = self.words.iter().position(|word| *word == flag) else {
            return Ok(None);
        };
        if index + 1 >= self.words.len() {
            return Err(Failure::Usage(format!("{flag} needs a value")));
        }
        let value = self.words.remove(index + 1);
        self.words.remove(index);
        value
            .parse()
            .map(Some)
            .map_err(|_| Failure::Usage(format!("{flag}: cannot read '{value}'")))
    }

    /// Fails if anything is left unread, naming it.
    pub fn finish(self) -> Result<(), Failure> {
        match self.words.first() {
            None => Ok(()),
            Some(word) => Err(Failure::Usage(format!("unexpected argument '{word}'"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Args {
        Args::new(text.split_whitespace().map(str::to_owned).collect())
    }

    #[test]
    fn options_and_positionals() {
        let mut a = args("play --games 20 x --seed 7");
        assert_eq!(a.next_positional().as_deref(), Some("play"));
        assert_eq!(a.option::<u32>("games").unwrap(), Some(20));
        assert_eq!(a.option::<u64>("seed").unwrap(), Some(7));
        assert_eq!(a.option::<u64>("absent").unwrap(), None);
        assert_eq!(a.positionals(), vec!["x".to_owned()]);
        assert!(a.finish().is_ok());
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(
            matches!(args("--games").option::<u32>("games"), Err(Failure::Usage(m)) if m.contains("needs a value"))
        );
        assert!(
            matches!(args("--games x").option::<u32>("games"), Err(Failure::Usage(m)) if m.contains("'x'"))
        );
        assert!(
            matches!(args("--what 1").finish(), Err(Failure::Usage(m)) if m.contains("--what"))
        );
    }
}
