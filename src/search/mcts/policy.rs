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
        // 2·ln N, taken once the first visited child needs it (the same product `bonus`
        // forms for every child).
        let mut twice_log = None;
        for (child, score) in children.iter().zip(scores) {
            let visits = child.visits();
            *score = if visits == 0 {
                f64::INFINITY
            } else {
                let mean = f64::from(child.wins()) / f64::from(visits);
                let twice_log = *twice_log.get_or_insert_with(|| 2.0 * log_visits(parent.visits()));
                mean + self.c * libm::sqrt(twice_log / f64::from(visits))
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
        if self.c == 0.0 {
            // C = ±0, the default: no ln N, no root, no test of C per child.
            for (child, score) in children.iter().zip(scores) {
                *score = self.score_without_exploration(child);
            }
            return;
        }
        let log_parent = log_visits(parent.visits());
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

    /// `score_given_log` of `child` when C is ±0, read from the node: the same operations
    /// in the same order (C > 0 is false, the bonus of a visited child is C itself).
    #[inline]
    fn score_without_exploration<M: Copy>(&self, child: &Node<M>) -> f64 {
        let (visits, amaf_visits) = (child.visits(), child.amaf_visits());
        if visits == 0 && amaf_visits == 0 {
            return f64::INFINITY;
        }
        let beta = rave_beta(visits, amaf_visits, self.c1);
        let (mean, bonus) = if visits == 0 {
            (0.0, 0.0)
        } else {
            (f64::from(child.wins()) / f64::from(visits), self.c)
        };
        let amaf_mean = if amaf_visits == 0 {
            0.0
        } else {
            f64::from(child.amaf_wins()) / f64::from(amaf_visits)
        };
        (1.0 - beta) * mean + beta * amaf_mean + bonus
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

    /// As `score`, read straight from the nodes, with ln(2 + n) read from a table of the
    /// same values for n below 256.
    fn score_children(
        &self,
        parent: &Node<G::Move>,
        children: &[Node<G::Move>],
        scores: &mut [f64],
    ) {
        for (child, score) in children.iter().zip(scores) {
            let stats = child.stats(parent);
            *score = self.score_given_log(&stats, ln_2_plus(stats.visits));
        }
    }
}

/// `libm::log(2 + n)` for n below 256, bit for bit (a test checks every entry): the MoGo
/// score takes ln(2 + n(d)) for every child it scores, and most children have few visits.
#[rustfmt::skip]
const LN_2_PLUS: [u64; 256] = [
    0x3FE62E42FEFA39EF, 0x3FF193EA7AAD030A, 0x3FF62E42FEFA39EF, 0x3FF9C041F7ED8D33,
    0x3FFCAB0BFA2A2002, 0x3FFF2272AE325A57, 0x4000A2B23F3BAB73, 0x400193EA7AAD030B,
    0x40026BB1BBB55516, 0x40032EE3B77F374C, 0x4003E116BCD39E7D, 0x400485042B318C51,
    0x40051CCA16D7BBA8, 0x4005AA16394D481F, 0x40062E42FEFA39EF, 0x4006AA6BC1FA7F7A,
    0x40071F7B3A6B9186, 0x40078E360604B32C, 0x4007F7427B73E391, 0x40085B2E946FAEB1,
    0x4008BA74773DC5C8, 0x4009157DFDD1B3F0, 0x40096CA77C922CF9, 0x4009C041F7ED8D33,
    0x400A1094EAF01ACD, 0x400A5DDFB8038490, 0x400AA85AD6964A23, 0x400AF038CBCDFE1F,
    0x400B35A6F90BD69B, 0x400B78CE48912B5A, 0x400BB9D3BEB8C86B, 0x400BF8D8F4D5B8D1,
    0x400C35FC81B90DF6, 0x400C715A530FF3C5, 0x400CAB0BFA2A2002, 0x400CE328EE3AC7BD,
    0x400D19C6C5C341A8, 0x400D4EF968880DD6, 0x400D82D33B32720D, 0x400DB565458EAC4E,
    0x400DE6BF542E3D2D, 0x400E16F01614EC11, 0x400E460536FC5443, 0x400E740B76A3C9A4,
    0x400EA10EBD90426C, 0x400ECD1A2F90F0B6, 0x400EF8383C50BB74, 0x400F2272AE325A57,
    0x400F4BD2B7AC1BAF, 0x400F7460FF5100FF, 0x400F9C25AAAEA949, 0x400FC32868223CAB,
    0x400FE97077C2130C, 0x4010078259BAFEF3, 0x401019F5CB2A6C50, 0x40102C15A1AD9A59,
    0x40103DE4C5C6464D, 0x40104F65F9C72979, 0x4010609BDC65328B, 0x40107188EB126C0D,
    0x4010822F8427DCEB, 0x40109291E8E3181B, 0x4010A2B23F3BAB73, 0x4010B29293942975,
    0x4010C234DA4A23A6, 0x4010D19AF128112D, 0x4010E0C6A0BBCE39, 0x4010EFB99D941ABB,
    0x4010FE7589674121, 0x40110CFBF424D6C9, 0x40111B4E5CF4573F, 0x4011296E33222FE6,
    0x4011375CD6FCAB1C, 0x4011451B9AA2075C, 0x401152ABC2C0E812, 0x4011600E874C323C,
    0x40116D4514234E29, 0x40117A5089AFB173, 0x40118731FD788044, 0x401193EA7AAD030B,
    0x4011A07B02A69D65, 0x4011ACE48D62E482, 0x4011B92809F665D4, 0x4011C5465EF8A30A,
    0x4011D1406AE9BD46, 0x4011DD1704923FD2, 0x4011E8CAFB5D7160, 0x4011F45D17AE8AF6,
    0x4011FFCE1B312C10, 0x40120B1EC1255CBE, 0x4012164FBEA76874, 0x40122161C2F3D670,
    0x40122C5577A7BF99, 0x4012372B80FDBCE3, 0x401241E47E07A4F8, 0x40124C8108E54BF8,
    0x40125701B6F8746A, 0x4012616719161D2B, 0x40126BB1BBB55516, 0x401275E2271BBA31,
    0x40127FF8DF87C7BD, 0x401289F6655913EC, 0x401293DB35369BE2, 0x40129DA7C8333AA5,
    0x4012A75C93F06593, 0x4012B0FA0ABF475B, 0x4012BA809BC050C4, 0x4012C3F0B3015506,
    0x4012CD4AB99A4631, 0x4012D68F15C8A4A1, 0x4012DFBE2B09B38D, 0x4012E8D85A33835C,
    0x4012F1DE018CE197, 0x4012FACF7CE43D45, 0x401303AD25A58D8B, 0x40130C7752EF47AE,
    0x4013152E59A670B7, 0x40131DD28C89D653, 0x401326643C4479C9, 0x40132EE3B77F374C,
    0x401337514AF1B34B, 0x40133FAD417296E9, 0x401347F7E4072429, 0x4013503179F229E7,
    0x4013585A48C25F59, 0x4013607294602E42, 0x4013687A9F1AF2B1, 0x40137072A9B5B6CB,
    0x4013785AF37370B3, 0x40138033BA22C862, 0x401387FD3A296AE4, 0x40138FB7AE8EF02C,
    0x401397635107586B, 0x40139F0059FD2595, 0x4013A68F009B1577, 0x4013AE0F7AD5809D,
    0x4013B581FD7361F9, 0x4013BCE6BC170B12, 0x4013C43DE946885E, 0x4013CB87B673B91E,
    0x4013D2C454041E07, 0x4013D9F3F15861CE, 0x4013E116BCD39E7D, 0x4013E82CE3E2625C,
    0x4013EF3693017724, 0x4013F633F5C46DEE, 0x4013FD2536DBF25A, 0x4014040A801BE72D,
    0x40140AE3FA814E9A, 0x401411B1CE380053, 0x4014187422A02F50, 0x40141F2B1E53C142,
    0x401425D6E72B797A, 0x40142C77A243F8FA, 0x4014330D74029567, 0x40143998801A085C,
    0x40144018E98EF8B1, 0x4014468ED2BC5F18, 0x40144CFA5D57C782, 0x4014535BAA75708E,
    0x401459B2DA8C4A48, 0x401460000D79D57B, 0x401466436285E4A3, 0x40146C7CF8663FB5,
    0x401472ACED422BC0, 0x401478D35EB5D75F, 0x40147EF069D5AD12, 0x401485042B318C51,
    0x40148B0EBED7EA48, 0x401491104058DB1C, 0x40149708CAC90484, 0x40149CF878C47A87,
    0x4014A2DF64718710, 0x4014A8BDA7835D30, 0x4014AE935B3CB89E, 0x4014B46098726A3B,
    0x4014BA25778DD234, 0x4014BFE2108F4858, 0x4014C5967B10734E, 0x4014CB42CE468F2B,
    0x4014D0E72104A3FC, 0x4014D68389BDACD0, 0x4014DC181E86AFB2, 0x4014E1A4F518C72B,
    0x4014E72A22D31DAE, 0x4014ECA7BCBCDB63, 0x4014F21DD78706D7, 0x4014F78C878E58DE,
    0x4014FCF3E0DD0421, 0x40150253F72C70BA, 0x401507ACDDE6EC36, 0x40150CFEA8294E62,
    0x4015124968C49336, 0x4015178D323F6A38, 0x40151CCA16D7BBA8, 0x40152200288423C1,
    0x4015272F78F56469, 0x40152C581997CD86, 0x4015317A1B949C53, 0x401536958FD351F0,
    0x40153BAA86FB016F, 0x401540B9117395A5, 0x401545C13F670EFB, 0x40154AC320C2B974,
    0x40154FBEC5385B2A, 0x401554B43C3F5B7D, 0x401559A39515E320, 0x40155E8CDEC1F53C,
    0x40156370281281E3, 0x4015684D7FA071FB, 0x40156D24F3CFACD1, 0x401571F692D0178C,
    0x401576C26A9E8E99, 0x40157B888905D955, 0x40158048FB9F9802, 0x40158503CFD52C43,
    0x401589B912E09C44, 0x40158E68D1CD70A9, 0x4015931319798D6E, 0x401597B7F69605E5,
    0x40159C5775A7EBDF, 0x4015A0F1A3091A36, 0x4015A5868AE8FACB, 0x4015AA16394D481F,
    0x4015AEA0BA12CA9A, 0x4015B32618EE11AB, 0x4015B7A6616C28D5, 0x4015BC219EF348C3,
    0x4015C097DCC38483, 0x4015C50925F772FE, 0x4015C9758584D4C9, 0x4015CDDD063D365F,
    0x4015D23FB2CE8EEC, 0x4015D69D95C3DBA8, 0x4015DAF6B985B7F5, 0x4015DF4B285AF236,
    0x4015E39AEC691D91, 0x4015E7E60FB5209A, 0x4015EC2C9C23C107, 0x4015F06E9B7A2C7E,
    0x4015F4AC175E7E8A, 0x4015F8E5195843CD, 0x4015FD19AAD0FA89, 0x40160149D5149079,
    0x40160575A151DE27, 0x4016099D189B1FBF, 0x40160DC043E66B67, 0x401611DF2C0E2544,
    0x401615F9D9D17124, 0x40161A1055D4A1E2, 0x40161E22A8A1A697, 0x40162230DAA8759E,
    0x4016263AF43F7580, 0x40162A40FDA3E3CC, 0x40162E42FEFA39EF, 0x40163241004E9011,
];

/// ln(2 + n), the same bits as `libm::log(2.0 + f64::from(n))`: from [`LN_2_PLUS`] for small
/// n, else computed.
#[inline]
fn ln_2_plus(n: u32) -> f64 {
    match LN_2_PLUS.get(n as usize) {
        Some(&bits) => f64::from_bits(bits),
        None => libm::log(2.0 + f64::from(n)),
    }
}

impl MoGo {
    /// The MoGo score of `child` (Eq. 1).
    pub fn score(&self, child: &ChildStats) -> f64 {
        self.score_given_log(child, ln_2_plus(child.visits))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The table is `libm::log` itself, bit for bit, so MoGo scores (and trees) are unchanged.
    #[test]
    fn the_log_table_is_libm_log() {
        for n in 0..1000u32 {
            let want = libm::log(2.0 + f64::from(n));
            assert_eq!(ln_2_plus(n).to_bits(), want.to_bits(), "ln(2 + {n})");
        }
        assert_eq!(ln_2_plus(u32::MAX), libm::log(2.0 + f64::from(u32::MAX)));
    }
}
