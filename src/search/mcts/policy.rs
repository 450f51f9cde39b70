//! Selection policies: how a child is scored from its statistics. The child with the highest
//! score is descended into (ties broken at random by the search's generator).
use core::f64::consts::FRAC_1_SQRT_2;

/// Which optional statistics a policy reads, so the search computes only those.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// AMAF (RAVE) counts, updated in backpropagation.
    pub amaf: bool,
    /// The game's per-child feature, `Game::feature`.
    pub feature: bool,
    /// The game's prior H(d), `Game::prior`.
    pub prior: bool,
}

/// What a policy sees of one child. Rewards are those of the player choosing the child.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ChildStats {
    /// Sum of the chooser's rewards over simulations through the child.
    pub wins: f64,
    /// Simulations through the child, n(d).
    pub visits: u32,
    /// Simulations through the parent.
    pub parent_visits: u32,
    /// Sum of rewards over AMAF simulations (the move played later by the same player).
    pub amaf_wins: f64,
    /// AMAF simulations (0 unless the policy asks for `Needs::amaf`).
    pub amaf_visits: u32,
    /// `Game::feature` of the child (0 unless asked for).
    pub feature: f64,
    /// `Game::prior` of the child, H(d) (0.5 unless asked for).
    pub prior: f64,
}

impl ChildStats {
    /// Mean reward p̂(d), 0 for an unvisited child.
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.wins / f64::from(self.visits)
        }
    }

    /// Mean AMAF reward p̂_rave(d), 0 without AMAF simulations.
    pub fn amaf_mean(&self) -> f64 {
        if self.amaf_visits == 0 {
            0.0
        } else {
            self.amaf_wins / f64::from(self.amaf_visits)
        }
    }
}

/// A selection policy. Scores may be infinite (try first) or NaN (never chosen while another
/// child scores a number).
pub trait Policy {
    /// Optional statistics this policy reads.
    fn needs(&self) -> Needs {
        Needs::default()
    }

    /// Score of one child; the highest is selected.
    fn score(&self, child: &ChildStats) -> f64;

    /// Scores of several children, `scores[i]` for `children[i]`, exactly as `score` gives
    /// them. Selection calls this; a policy whose per-child cost is mostly overhead (an
    /// interpreted formula) overrides it to share that overhead.
    fn score_all(&self, children: &[ChildStats], scores: &mut [f64]) {
        for (child, score) in children.iter().zip(scores) {
            *score = self.score(child);
        }
    }

    /// The formula this policy scores visited children with, unvisited ones scoring +∞ (as
    /// [`FormulaPolicy`] does). Selection then packs the nodes' statistics straight into the
    /// formula's batches instead of building `ChildStats`; `score` must agree with it.
    fn formula(&self) -> Option<&dyn Formula> {
        None
    }
}

impl<P: Policy + ?Sized> Policy for &P {
    fn needs(&self) -> Needs {
        (**self).needs()
    }

    fn score(&self, child: &ChildStats) -> f64 {
        (**self).score(child)
    }

    fn score_all(&self, children: &[ChildStats], scores: &mut [f64]) {
        (**self).score_all(children, scores)
    }

    fn formula(&self) -> Option<&dyn Formula> {
        (**self).formula()
    }
}

/// UCB1 as in Kocsis and Szepesvári and the Match-3 paper's Eq. 1:
/// X̄ + C·√(2·ln N / n), unvisited children first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ucb1 {
    /// Exploration constant C.
    pub c: f64,
}

impl Default for Ucb1 {
    /// C = 1/√2, the paper's value (then the bonus is √(ln N / n)).
    fn default() -> Self {
        Ucb1 { c: FRAC_1_SQRT_2 }
    }
}

/// ln N, the logarithm in the exploration term (N at least 1).
fn log_visits(parent_visits: u32) -> f64 {
    libm::log(f64::from(parent_visits.max(1)))
}

/// C·√(2·ln N / n) for a visited child, given ln N.
fn bonus(c: f64, log_parent: f64, visits: u32) -> f64 {
    c * libm::sqrt(2.0 * log_parent / f64::from(visits))
}

/// C·√(2·ln N / n) for a visited child.
fn exploration(c: f64, parent_visits: u32, visits: u32) -> f64 {
    bonus(c, log_visits(parent_visits), visits)
}

impl Policy for Ucb1 {
    fn score(&self, child: &ChildStats) -> f64 {
        if child.visits == 0 {
            return f64::INFINITY;
        }
        child.mean() + exploration(self.c, child.parent_visits, child.visits)
    }

    /// As `score`, with ln N taken once for children of the same parent.
    fn score_all(&self, children: &[ChildStats], scores: &mut [f64]) {
        let mut log: Option<(u32, f64)> = None;
        for (child, score) in children.iter().zip(scores) {
            if child.visits == 0 {
                *score = f64::INFINITY;
                continue;
            }
            let log_parent = match log {
                Some((parent, value)) if parent == child.parent_visits => value,
                _ => {
                    let value = log_visits(child.parent_visits);
                    log = Some((child.parent_visits, value));
                    value
                }
            };
            *score = child.mean() + bonus(self.c, log_parent, child.visits);
        }
    }
}

/// β of the MoGo paper's Eq. 2 (Gelly and Silver's RAVE weight):
/// r / (r + n + c1·n·r) with r AMAF simulations and n simulations; 0 when r is 0.
pub fn rave_beta(visits: u32, amaf_visits: u32, c1: f64) -> f64 {
    if amaf_visits == 0 {
        return 0.0;
    }
    let (n, r) = (f64::from(visits), f64::from(amaf_visits));
    let beta = r / (r + n + c1 * n * r);
    if beta.is_nan() {
        0.0
    } else {
        beta.clamp(0.0, 1.0)
    }
}

/// UCT-RAVE: (1 − β)·p̂ + β·p̂_rave + C·√(2·ln N / n), β from [`rave_beta`].
/// A child with no simulation at all scores +∞; a child known only through AMAF scores its
/// AMAF mean (or +∞ when C > 0, as UCB1 would).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rave {
    /// Exploration constant C.
    pub c: f64,
    /// c1 of Eq. 2: how fast AMAF's weight fades as real simulations accumulate.
    pub c1: f64,
}

impl Default for Rave {
    /// C = 0, as MoGo found once RAVE was in (paper, conclusion); c1 = 0.01, an untuned
    /// starting point (β falls to about 1/2 after 100 simulations).
    fn default() -> Self {
        Rave { c: 0.0, c1: 0.01 }
    }
}

impl Policy for Rave {
    fn needs(&self) -> Needs {
        Needs {
            amaf: true,
            ..Needs::default()
        }
    }

    fn score(&self, child: &ChildStats) -> f64 {
        if child.visits == 0 && (child.amaf_visits == 0 || self.c > 0.0) {
            return f64::INFINITY;
        }
        let beta = rave_beta(child.visits, child.amaf_visits, self.c1);
        let bonus = if child.visits == 0 {
            0.0
        } else {
            exploration(self.c, child.parent_visits, child.visits)
        };
        (1.0 - beta) * child.mean() + beta * child.amaf_mean() + bonus
    }
}

/// The MoGo score (Chaslot et al., Eq. 1–4):
/// α·p̂(d) + β·p̂_rave(d) + (γ + C / ln(2 + n(d)))·H(d), with
/// β = r / (r + n + c1·n·r) (Eq. 2), γ = c2 / r (Eq. 3), α = 1 − β − γ (Eq. 4),
/// r the AMAF simulations and n = n(d) the simulations of the child.
///
/// γ is capped at 1 (and is 1 when r = 0), and β at 1 − γ, so that α, β, γ stay a convex
/// combination: the paper reports its results "with α + β + γ = 1", and without the cap α
/// turns negative while r < c2, which would make the score prefer losing moves. There is no
/// forced first visit: unvisited moves are ordered by H(d) and the C term (progressive
/// unpruning), as in the paper.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoGo {
    /// C of Eq. 1, weight of the prior in the exploration term C / ln(2 + n(d)).
    pub c: f64,
    /// c1 of Eq. 2.
    pub c1: f64,
    /// c2 of Eq. 3.
    pub c2: f64,
}

impl Default for MoGo {
    /// Untuned starting points (the paper gives none: they depend on the game and were tuned
    /// by cross-entropy): C = 1, c1 = 0.01, c2 = 1.
    fn default() -> Self {
        MoGo {
            c: 1.0,
            c1: 0.01,
            c2: 1.0,
        }
    }
}

impl MoGo {
    /// (α, β, γ) for a child with `visits` simulations and `amaf_visits` AMAF simulations.
    pub fn weights(&self, visits: u32, amaf_visits: u32) -> (f64, f64, f64) {
        let gamma = if amaf_visits == 0 {
            1.0
        } else {
            self.c2 / f64::from(amaf_visits)
        };
        // Not `clamp`, which keeps a NaN c2: comparisons send it to 0.
        let gamma = if gamma >= 1.0 {
            1.0
        } else if gamma > 0.0 {
            gamma
        } else {
            0.0
        };
        let beta = rave_beta(visits, amaf_visits, self.c1).min(1.0 - gamma);
        (1.0 - beta - gamma, beta, gamma)
    }
}

impl Policy for MoGo {
    fn needs(&self) -> Needs {
        Needs {
            amaf: true,
            feature: false,
            prior: true,
        }
    }

    fn score(&self, child: &ChildStats) -> f64 {
        let (alpha, beta, gamma) = self.weights(child.visits, child.amaf_visits);
        let unpruning = self.c / libm::log(2.0 + f64::from(child.visits));
        alpha * child.mean() + beta * child.amaf_mean() + (gamma + unpruning) * child.prior
    }
}

/// A selection formula over the Match-3 persona variables (paper, section IV.C): child wins,
/// child visits, parent visits and the game's per-child feature (for example the child's
/// number of legal moves). Any `Fn(f64, f64, f64, f64) -> f64` is one; an evolved bytecode
/// program implements it directly.
pub trait Formula {
    /// The score of a visited child.
    fn eval(&self, wins: f64, visits: f64, parent_visits: f64, feature: f64) -> f64;

    /// `out[i]` = `eval` of lane `i` of `vars` (the lanes of wins, visits, parent visits
    /// and feature, in that order) for `i < len`, bit for bit; lanes from `len` on are
    /// ignored and their outputs unspecified. Selection fills the lanes straight from the
    /// nodes; a formula whose per-call cost is mostly overhead (an interpreted program)
    /// overrides this to pay it once per batch.
    fn eval_lanes(
        &self,
        vars: &[[f64; FORMULA_LANES]; 4],
        len: usize,
        out: &mut [f64; FORMULA_LANES],
    ) {
        for (lane, o) in out.iter_mut().enumerate().take(len) {
            *o = self.eval(vars[0][lane], vars[1][lane], vars[2][lane], vars[3][lane]);
        }
    }

    /// `out[i]` = `eval` of `vars[i]` = [wins, visits, parent visits, feature], bit for bit,
    /// by batches of [`Formula::eval_lanes`].
    fn eval_all(&self, vars: &[[f64; 4]], out: &mut [f64]) {
        for (rows, out) in vars
            .chunks(FORMULA_LANES)
            .zip(out.chunks_mut(FORMULA_LANES))
        {
            let mut lanes = [[0.0; FORMULA_LANES]; 4];
            for (lane, row) in rows.iter().enumerate() {
                for (variable, &value) in lanes.iter_mut().zip(row) {
                    variable[lane] = value;
                }
            }
            let mut values = [0.0; FORMULA_LANES];
            self.eval_lanes(&lanes, rows.len(), &mut values);
            for (o, &value) in out.iter_mut().zip(&values) {
                *o = value;
            }
        }
    }
}

/// Children a [`Formula`] scores side by side in one [`Formula::eval_lanes`] call.
pub const FORMULA_LANES: usize = 8;

impl<F: Fn(f64, f64, f64, f64) -> f64> Formula for F {
    fn eval(&self, wins: f64, visits: f64, parent_visits: f64, feature: f64) -> f64 {
        self(wins, visits, parent_visits, feature)
    }
}

/// Selection by a [`Formula`] in place of UCB1. Unvisited children come first (score +∞, as
/// under UCB1), so a formula never sees zero visits and never divides by them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FormulaPolicy<F>(pub F);

impl<F: Formula> Policy for FormulaPolicy<F> {
    fn needs(&self) -> Needs {
        Needs {
            feature: true,
            ..Needs::default()
        }
    }

    fn score(&self, child: &ChildStats) -> f64 {
        if child.visits == 0 {
            return f64::INFINITY;
        }
        self.0.eval(
            child.wins,
            f64::from(child.visits),
            f64::from(child.parent_visits),
            child.feature,
        )
    }

    fn formula(&self) -> Option<&dyn Formula> {
        Some(&self.0)
    }
}

/// The built-in policies as one `Copy` value, for configuration structs and the C ABI.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Selection {
    /// [`Ucb1`].
    Ucb1(Ucb1),
    /// [`Rave`].
    Rave(Rave),
    /// [`MoGo`].
    MoGo(MoGo),
}

impl Default for Selection {
    fn default() -> Self {
        Selection::Ucb1(Ucb1::default())
    }
}

impl Policy for Selection {
    fn needs(&self) -> Needs {
        match self {
            Selection::Ucb1(p) => p.needs(),
            Selection::Rave(p) => p.needs(),
            Selection::MoGo(p) => p.needs(),
        }
    }

    fn score(&self, child: &ChildStats) -> f64 {
        match self {
            Selection::Ucb1(p) => p.score(child),
            Selection::Rave(p) => p.score(child),
            Selection::MoGo(p) => p.score(child),
        }
    }
}
