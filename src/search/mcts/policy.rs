//! Selection policies: how a child is scored from its statistics. The child with the highest
//! score is descended into (ties broken at random by the search's generator).
use core::f64::consts::FRAC_1_SQRT_2;

use super::amaf::Amaf;
use super::node::Node;
use crate::search::game::{Game, MoveIndex};

/// Which optional statistics a policy reads, so the search computes only those.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// AMAF (RAVE) counts, updated in backpropagation.
    pub amaf: bool,
    /// The policy's per-child feature, [`Policy::observe`].
    pub feature: bool,
    /// The priors of the search's [`Knowledge`](crate::search::game::Knowledge), H(d).
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
    /// [`Policy::observe`] of the child's state (0 unless asked for).
    pub feature: f64,
    /// The prior value of the child's move, H(d) (0.5 unless asked for).
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

/// Children whose `ChildStats` are built for one `Policy::score_all` call by the default
/// [`Policy::score_children`].
const STATS_BATCH: usize = 16;

/// A selection policy for the game `G`. Scores may be infinite (try first) or NaN (never
/// chosen while another child scores a number).
pub trait Policy<G: Game> {
    /// Optional statistics this policy reads.
    fn needs(&self) -> Needs {
        Needs::default()
    }

    /// Score of one child; the highest is selected.
    fn score(&self, child: &ChildStats) -> f64;

    /// Scores of several children, `scores[i]` for `children[i]`, exactly as `score` gives
    /// them. A policy whose per-child cost is mostly overhead (an interpreted formula)
    /// overrides it to share that overhead.
    fn score_all(&self, children: &[ChildStats], scores: &mut [f64]) {
        for (child, score) in children.iter().zip(scores) {
            *score = self.score(child);
        }
    }

    /// Scores of `children`, some children of `parent` (`scores[i]` for `children[i]`, the
    /// two of the same length), exactly as `score` gives them. Selection calls this; the
    /// default builds [`ChildStats`] by batches for `score_all`. A policy that reads few
    /// statistics may override it to read them straight from the nodes.
    fn score_children(
        &self,
        parent: &Node<G::Move>,
        children: &[Node<G::Move>],
        scores: &mut [f64],
    ) {
        let mut stats = [ChildStats::default(); STATS_BATCH];
        for (children, scores) in children
            .chunks(STATS_BATCH)
            .zip(scores.chunks_mut(STATS_BATCH))
        {
            for (stat, child) in stats.iter_mut().zip(children) {
                *stat = child.stats(parent);
            }
            self.score_all(&stats[..children.len()], scores);
        }
    }

    /// A number describing `state` as the child its last move led to (for example its number
    /// of legal moves), read back as [`ChildStats::feature`]. Called once per node, on the
    /// state reached the first time a search descends into it, and only if
    /// [`Needs::feature`]; unvisited children are scored without it.
    fn observe(&self, _state: &G) -> f32 {
        0.0
    }

    /// Adds one simulation to the AMAF statistics of the path in `amaf`. Called only if
    /// [`Needs::amaf`]; a policy that reads AMAF and is implemented for a game with a
    /// [`MoveIndex`] calls [`Amaf::update`]. The default does nothing.
    fn update_amaf(&self, _amaf: Amaf<'_, '_, G>) {}
}

impl<G: Game, P: Policy<G> + ?Sized> Policy<G> for &P {
    fn needs(&self) -> Needs {
        (**self).needs()
    }

    fn score(&self, child: &ChildStats) -> f64 {
        (**self).score(child)
    }

    fn score_all(&self, children: &[ChildStats], scores: &mut [f64]) {
        (**self).score_all(children, scores)
    }

    fn score_children(
        &self,
        parent: &Node<G::Move>,
        children: &[Node<G::Move>],
        scores: &mut [f64],
    ) {
        (**self).score_children(parent, children, scores)
    }

    fn observe(&self, state: &G) -> f32 {
        (**self).observe(state)
    }

    fn update_amaf(&self, amaf: Amaf<'_, '_, G>) {
        (**self).update_amaf(amaf)
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

impl Ucb1 {
    /// The score of `child`: +∞ unvisited, else X̄ + C·√(2·ln N / n).
    pub fn score(&self, child: &ChildStats) -> f64 {
        if child.visits == 0 {
            return f64::INFINITY;
        }
        child.mean() + exploration(self.c, child.parent_visits, child.visits)
    }
}

impl<G: Game> Policy<G> for Ucb1 {
    fn score(&self, child: &ChildStats) -> f64 {
        Ucb1::score(self, child)
    }

    /// As `score`, with ln N taken once for children of the same parent.
    fn score_all(&self, children: &[ChildStats], scores: &mut [f64]) {
        let mut log = LogCache::default();
        for (child, score) in children.iter().zip(scores) {
            *score = if child.visits == 0 {
                f64::INFINITY
            } else {
                child.mean() + bonus(self.c, log.of(child.parent_visits), child.visits)
            };
        }
    }

    /// As `score_all`, read straight from the nodes (no `ChildStats` built per child), the
    /// same operations in the same order, so the same bits: ln N once, then per visited child
    /// one division for the mean and one for the bonus, and a square root.
    fn score_children(
        &self,
        parent: &Node<G::Move>,
        children: &[Node<G::Move>],
        scores: &mut [f64],
    ) {
        let mut log = LogCache::default();
        for (child, score) in children.iter().zip(scores) {
            let visits = child.visits();
            *score = if visits == 0 {
                f64::INFINITY
            } else {
                let mean = f64::from(child.wins()) / f64::from(visits);
                mean + bonus(self.c, log.of(parent.visits()), visits)
            };
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

impl<G: MoveIndex> Policy<G> for Rave {
    fn needs(&self) -> Needs {
        Needs {
            amaf: true,
            ..Needs::default()
        }
    }

    fn update_amaf(&self, amaf: Amaf<'_, '_, G>) {
        amaf.update();
    }

    fn score(&self, child: &ChildStats) -> f64 {
        Rave::score(self, child)
    }

    /// As `score`, read straight from the nodes, with ln N taken once (and only when C is not
    /// zero).
    fn score_children(
        &self,
        parent: &Node<G::Move>,
        children: &[Node<G::Move>],
        scores: &mut [f64],
    ) {
        let log_parent = if self.c == 0.0 {
            0.0
        } else {
            log_visits(parent.visits())
        };
        for (child, score) in children.iter().zip(scores) {
            *score = self.score_given_log(&child.stats(parent), log_parent);
        }
    }
}

impl Rave {
    /// The UCT-RAVE score of `child`.
    pub fn score(&self, child: &ChildStats) -> f64 {
        self.score_given_log(child, log_visits(child.parent_visits))
    }

    /// The score with ln N given.
    #[inline]
    fn score_given_log(&self, child: &ChildStats, log_parent: f64) -> f64 {
        if child.visits == 0 && (child.amaf_visits == 0 || self.c > 0.0) {
            return f64::INFINITY;
        }
        let beta = rave_beta(child.visits, child.amaf_visits, self.c1);
        let bonus = if child.visits == 0 {
            0.0
        } else if self.c == 0.0 {
            // C·√x with C = ±0 and a finite √x (ln N ≥ 0, n ≥ 1) is C itself: no root.
            self.c
        } else {
            bonus(self.c, log_parent, child.visits)
        };
        (1.0 - beta) * child.mean() + beta * child.amaf_mean() + bonus
    }
}

/// ln N of the last parent asked for: children of one parent share it.
#[derive(Default)]
struct LogCache(Option<(u32, f64)>);

impl LogCache {
    #[inline]
    fn of(&mut self, parent_visits: u32) -> f64 {
        match self.0 {
            Some((parent, value)) if parent == parent_visits => value,
            _ => {
                let value = log_visits(parent_visits);
                self.0 = Some((parent_visits, value));
                value
            }
        }
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

impl<G: MoveIndex> Policy<G> for MoGo {
    fn needs(&self) -> Needs {
        Needs {
            amaf: true,
            feature: false,
            prior: true,
        }
    }

    fn update_amaf(&self, amaf: Amaf<'_, '_, G>) {
        amaf.update();
    }

    fn score(&self, child: &ChildStats) -> f64 {
        MoGo::score(self, child)
    }

    /// As `score`, read straight from the nodes, with ln 2 taken once for all unvisited
    /// children (most of them).
    fn score_children(
        &self,
        parent: &Node<G::Move>,
        children: &[Node<G::Move>],
        scores: &mut [f64],
    ) {
        let log_unvisited = libm::log(2.0);
        for (child, score) in children.iter().zip(scores) {
            let stats = child.stats(parent);
            let log = if stats.visits == 0 {
                log_unvisited
            } else {
                libm::log(2.0 + f64::from(stats.visits))
            };
            *score = self.score_given_log(&stats, log);
        }
    }
}

impl MoGo {
    /// The MoGo score of `child` (Eq. 1).
    pub fn score(&self, child: &ChildStats) -> f64 {
        self.score_given_log(child, libm::log(2.0 + f64::from(child.visits)))
    }

    /// The score with ln(2 + n(d)) given.
    #[inline]
    fn score_given_log(&self, child: &ChildStats, log_visits: f64) -> f64 {
        let (alpha, beta, gamma) = self.weights(child.visits, child.amaf_visits);
        let unpruning = self.c / log_visits;
        alpha * child.mean() + beta * child.amaf_mean() + (gamma + unpruning) * child.prior
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

impl<G: MoveIndex> Policy<G> for Selection {
    fn needs(&self) -> Needs {
        match self {
            Selection::Ucb1(p) => Policy::<G>::needs(p),
            Selection::Rave(p) => Policy::<G>::needs(p),
            Selection::MoGo(p) => Policy::<G>::needs(p),
        }
    }

    fn score(&self, child: &ChildStats) -> f64 {
        match self {
            Selection::Ucb1(p) => p.score(child),
            Selection::Rave(p) => p.score(child),
            Selection::MoGo(p) => p.score(child),
        }
    }

    /// The chosen policy's own batch scoring: one dispatch per batch, not per child.
    fn score_children(
        &self,
        parent: &Node<G::Move>,
        children: &[Node<G::Move>],
        scores: &mut [f64],
    ) {
        match self {
            Selection::Ucb1(p) => Policy::<G>::score_children(p, parent, children, scores),
            Selection::Rave(p) => Policy::<G>::score_children(p, parent, children, scores),
            Selection::MoGo(p) => Policy::<G>::score_children(p, parent, children, scores),
        }
    }

    fn update_amaf(&self, amaf: Amaf<'_, '_, G>) {
        amaf.update();
    }
}
