//! Persona files: a goal and a formula in a small text format, read without allocation,
//! and the four personas bundled with the library.
//!
//! ```text
//! arbor-persona 1                 # format version; optional, and 1 when present
//! goal MaxS                       # MaxS | MinS | MaxM | MinM (default MaxS)
//! formula add(div(W, N), mul(0.5, sqrt(div(NP, N))))
//! bytecode 010a050603090000003f070603040200   # the binary form in hex, optional
//! infix W/N + 0.5*sqrt(NP/N)      # any other key is metadata, ignored
//! ```
//!
//! `#` starts a comment and blank lines are ignored; every other line is a key (letters,
//! digits, `-`, `_`), white space and a value. At least one of `formula` (the text form of
//! [`Program::parse`]) and `bytecode` (hex of [`Program::encode`]) must be present; when both
//! are, they must decode to the same program. A version, goal, formula or bytecode line may
//! appear only once. Errors name the line and the problem.
use core::fmt;

use super::agent::Goal;
use super::formula::Program;
use crate::Error;

/// The version this reader understands and [`Persona`]'s `Display` writes.
pub const PERSONA_VERSION: u32 = 1;

/// A persona: the goal its search rewards and the formula it selects moves with.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Persona {
    /// The reward of the search.
    pub goal: Goal,
    /// The selection formula.
    pub program: Program,
}

/// What is wrong in a persona file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PersonaProblem {
    /// The line is not `key value`.
    NotKeyValue,
    /// `arbor-persona` names a version other than 1.
    Version,
    /// The goal is not MaxS, MinS, MaxM or MinM.
    Goal,
    /// The formula text is invalid.
    Formula(Error),
    /// The bytecode is not hex or not a valid binary formula.
    Bytecode(Error),
    /// A key that may appear once appears again.
    Duplicate(&'static str),
    /// The formula and the bytecode are different programs.
    Mismatch,
    /// Neither a formula nor a bytecode line.
    NoFormula,
}

/// A persona file error: the 1-based line (0 for the file as a whole) and the problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PersonaError {
    /// The line, counting from 1 (0: not tied to one line).
    pub line: u32,
    /// The column of the problem, in bytes from 1 (0: the line as a whole). Not part of
    /// the `Display` text.
    pub column: u32,
    /// What is wrong.
    pub problem: PersonaProblem,
    /// For a formula that does not parse, what is wrong in it ("expected `,`"); empty
    /// otherwise. Not part of the `Display` text.
    pub detail: &'static str,
}

impl fmt::Display for PersonaProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PersonaProblem::NotKeyValue => f.write_str("expected `key value`"),
            PersonaProblem::Version => {
                write!(
                    f,
                    "unsupported format version (this reader knows {PERSONA_VERSION})"
                )
            }
            PersonaProblem::Goal => f.write_str("goal must be MaxS, MinS, MaxM or MinM"),
            PersonaProblem::Formula(error) => write!(f, "formula: {error}"),
            PersonaProblem::Bytecode(error) => write!(f, "bytecode: {error}"),
            PersonaProblem::Duplicate(key) => write!(f, "second `{key}` line"),
            PersonaProblem::Mismatch => f.write_str("formula and bytecode differ"),
            PersonaProblem::NoFormula => f.write_str("no formula or bytecode line"),
        }
    }
}

impl fmt::Display for PersonaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "persona: {}", self.problem)
        } else {
            write!(f, "persona line {}: {}", self.line, self.problem)
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for PersonaError {}

/// The personas bundled with the library, `(name, file text)`, in the order MaxS, MinS,
/// MaxM, MinM.
pub const SHIPPED_PERSONAS: [(&str, &str); 4] = [
    ("max-score", include_str!("personas/max-score.persona")),
    ("min-score", include_str!("personas/min-score.persona")),
    ("max-moves", include_str!("personas/max-moves.persona")),
    ("min-moves", include_str!("personas/min-moves.persona")),
];

/// The goal each of the four persona roles rewards, in the order of [`SHIPPED_PERSONAS`].
pub const PERSONA_GOALS: [Goal; 4] = [
    Goal::MaxScore,
    Goal::MinScore,
    Goal::MaxMoves,
    Goal::MinMoves,
];

/// The bundled personas, parsed, in the order of [`SHIPPED_PERSONAS`]. A test keeps every
/// bundled file valid, so the error is there only because parsing is fallible.
pub fn shipped() -> Result<[Persona; 4], PersonaError> {
    let mut personas = [Persona {
        goal: Goal::MaxScore,
        program: Program::sample(),
    }; 4];
    for (slot, (_, text)) in personas.iter_mut().zip(SHIPPED_PERSONAS) {
        *slot = Persona::parse(text)?;
    }
    Ok(personas)
}

/// A line's `(number, value)` for a key that may appear once.
type Once<'t> = Option<(u32, &'t str)>;

use super::level::column_in;

fn once<'t>(
    slot: &mut Once<'t>,
    key: &'static str,
    line: u32,
    value: &'t str,
) -> Result<(), PersonaError> {
    if slot.is_some() {
        return Err(PersonaError {
            line,
            column: 0,
            problem: PersonaProblem::Duplicate(key),
            detail: "",
        });
    }
    *slot = Some((line, value));
    Ok(())
}

fn is_key(word: &str) -> bool {
    !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl Persona {
    /// Reads a persona file (format in the module documentation).
    pub fn parse(text: &str) -> Result<Persona, PersonaError> {
        let mut version: Once = None;
        let mut goal: Once = None;
        let mut formula: Once = None;
        let mut bytecode: Once = None;
        for (index, raw) in text.lines().enumerate() {
            let line = u32::try_from(index + 1).unwrap_or(u32::MAX);
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let error = |problem| PersonaError {
                line,
                column: column_in(text, content),
                problem,
                detail: "",
            };
            let Some((key, value)) = content.split_once(|c: char| c.is_ascii_whitespace()) else {
                return Err(error(PersonaProblem::NotKeyValue));
            };
            if !is_key(key) {
                return Err(error(PersonaProblem::NotKeyValue));
            }
            let value = value.trim();
            match key {
                "arbor-persona" => once(&mut version, "arbor-persona", line, value)?,
                "goal" => once(&mut goal, "goal", line, value)?,
                "formula" => once(&mut formula, "formula", line, value)?,
                "bytecode" => once(&mut bytecode, "bytecode", line, value)?,
                _ => {}
            }
        }
        if let Some((line, value)) = version {
            if value.parse::<u32>() != Ok(PERSONA_VERSION) {
                return Err(PersonaError {
                    line,
                    column: column_in(text, value),
                    problem: PersonaProblem::Version,
                    detail: "",
                });
            }
        }
        let goal = match goal {
            None => Goal::MaxScore,
            Some((line, value)) => Goal::parse(value).ok_or(PersonaError {
                line,
                column: column_in(text, value),
                problem: PersonaProblem::Goal,
                detail: "",
            })?,
        };
        let from_text = match formula {
            None => None,
            Some((line, value)) => {
                Some(Program::parse_located(value).map_err(|e| PersonaError {
                    line,
                    column: column_in(text, value).saturating_add(e.offset as u32),
                    problem: PersonaProblem::Formula(e.error),
                    detail: e.message,
                })?)
            }
        };
        let from_bytes = match bytecode {
            None => None,
            Some((line, value)) => Some(Program::from_hex(value).map_err(|e| PersonaError {
                line,
                column: column_in(text, value),
                problem: PersonaProblem::Bytecode(e),
                detail: "",
            })?),
        };
        let program = match (from_text, from_bytes, formula, bytecode) {
            (Some(a), Some(b), Some((line_a, _)), Some((line_b, _))) => {
                if a != b {
                    return Err(PersonaError {
                        line: line_a.max(line_b),
                        column: 0,
                        problem: PersonaProblem::Mismatch,
                        detail: "",
                    });
                }
                a
            }
            (Some(program), _, _, _) | (None, Some(program), _, _) => program,
            (None, None, _, _) => {
                return Err(PersonaError {
                    line: 0,
                    column: 0,
                    problem: PersonaProblem::NoFormula,
                    detail: "",
                });
            }
        };
        Ok(Persona { goal, program })
    }
}

/// The file text: version, goal, formula and bytecode lines, which [`Persona::parse`] reads
/// back to the same persona.
impl fmt::Display for Persona {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "arbor-persona {PERSONA_VERSION}")?;
        writeln!(f, "goal {}", self.goal.name())?;
        writeln!(f, "formula {}", self.program)?;
        writeln!(f, "bytecode {}", self.program.hex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(text: &str) -> (u32, PersonaProblem) {
        let error = Persona::parse(text).unwrap_err();
        (error.line, error.problem)
    }

    #[test]
    fn reads_every_key_and_ignores_metadata_and_comments() {
        let text = "# evolved\n\narbor-persona 1\ngoal MinM   # the goal\n\
                    formula div(W, N)\nbytecode 0103050603\ninfix W / N\nfitness 3.25\n";
        let persona = Persona::parse(text).unwrap();
        assert_eq!(persona.goal, Goal::MinMoves);
        assert_eq!(persona.program.to_string(), "div(W, N)");
    }

    #[test]
    fn older_files_without_version_and_goal_default_to_max_score() {
        let persona = Persona::parse("formula add(W, N)\n").unwrap();
        assert_eq!(persona.goal, Goal::MaxScore);
        let from_bytes = Persona::parse("bytecode 0103050600\r\n").unwrap();
        assert_eq!(from_bytes.program, persona.program);
    }

    #[test]
    fn errors_name_the_line_and_the_problem() {
        use PersonaProblem::*;
        assert_eq!(
            problem("goal MaxS\nformula log(W)\n"),
            (2, Formula(Error::Parse))
        );
        assert_eq!(problem("arbor-persona 2\nformula W\n"), (1, Version));
        assert_eq!(problem("formula W\ngoal MaxX\n"), (2, Goal));
        assert_eq!(problem("formula W\nformula N\n"), (2, Duplicate("formula")));
        assert_eq!(problem("goal MinS\n# none\n"), (0, NoFormula));
        assert_eq!(problem("formula W\ndiv(W, N)\n"), (2, NotKeyValue));
        assert_eq!(problem("formula\n"), (1, NotKeyValue));
        assert_eq!(
            problem("formula W\nbytecode 010105\nbytecode 010105\n"),
            (3, Duplicate("bytecode"))
        );
        assert_eq!(problem("bytecode 01010\n"), (1, Bytecode(Error::Parse)));
        assert_eq!(problem("bytecode 0101zz\n"), (1, Bytecode(Error::Parse)));
        assert_eq!(
            problem("bytecode 010163\n"),
            (1, Bytecode(Error::InvalidArgument))
        );
        let long = "bytecode ".to_string() + &"00".repeat(crate::match3::MAX_ENCODED_LEN + 1);
        assert_eq!(problem(&long), (1, Bytecode(Error::InvalidLength)));
        // W against N: the later of the two lines is blamed.
        assert_eq!(
            problem("bytecode 010106\ngoal MaxS\nformula W\n"),
            (3, Mismatch)
        );
        let shown = Persona::parse("goal MaxS\nformula log(W)\n")
            .unwrap_err()
            .to_string();
        assert_eq!(
            shown,
            "persona line 2: formula: the text could not be parsed"
        );
    }

    #[test]
    fn display_writes_a_file_that_reads_back() {
        let program =
            Program::parse("sub(add(div(W, N), mul(0.25, sqrt(NP))), mul(0.01, M))").unwrap();
        let persona = Persona {
            goal: Goal::MinMoves,
            program,
        };
        let text = persona.to_string();
        assert!(
            text.starts_with("arbor-persona 1\ngoal MinM\nformula sub("),
            "{text}"
        );
        assert!(text.contains("\nbytecode 01"), "{text}");
        assert_eq!(Persona::parse(&text).unwrap(), persona);
    }

    #[test]
    fn shipped_personas_parse_and_match_their_names() {
        let personas = shipped().unwrap();
        let expected = [
            ("max-score", Goal::MaxScore),
            ("min-score", Goal::MinScore),
            ("max-moves", Goal::MaxMoves),
            ("min-moves", Goal::MinMoves),
        ];
        for (i, (name, goal)) in expected.into_iter().enumerate() {
            assert_eq!(SHIPPED_PERSONAS[i].0, name);
            assert_eq!(PERSONA_GOALS[i], goal);
            assert_eq!(personas[i].goal, goal, "{name}");
            // Each file states its bytecode, and the reader checked it against the formula.
            assert!(SHIPPED_PERSONAS[i].1.contains("\nbytecode "), "{name}");
            // Each was evolved at the paper's settings, and says by which command.
            let command = format!(
                "# command: arbor evolve --persona {name} --generations 100 --population 100 \
                 --games 50 --moves 20 --iterations 250 --seed 1 --goal-strategy on"
            );
            assert!(SHIPPED_PERSONAS[i].1.contains(&command), "{name}");
        }
    }
}
