//! The proof-number rules every solver here shares: how a node's numbers follow from its
//! children's, and the thresholds df-pn gives the child it descends into. PNS, PN², PPN²
//! and both df-pns call these, so there is one copy of the rules (see the module notes of
//! [`super`] for the negamax convention).

use super::{INFINITY, MAX_FINITE, add};

/// A node's numbers gathered from its children, in move order, with what df-pn needs to
/// pick the child to search: the best child (smallest `dn`, the first on ties) and the
/// second-smallest `dn`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FromChildren {
    /// `min dn(child)`: the effort to prove the side to move wins.
    pub pn: u32,
    /// `sum pn(child)`, [`INFINITY`] once a child is a proved loss.
    pub dn: u32,
    /// Index of the best child (`usize::MAX` before any child).
    pub best: usize,
    /// The best child's `pn`.
    pub best_pn: u32,
    /// The second-smallest `dn` among the children read.
    pub second_dn: u32,
}

impl FromChildren {
    /// Nothing read yet.
    #[inline]
    pub(crate) const fn new() -> FromChildren {
        FromChildren {
            pn: INFINITY,
            dn: 0,
            best: usize::MAX,
            best_pn: 0,
            second_dn: INFINITY,
        }
    }

    /// Takes child `index`'s numbers into account. Returns `false` once the node is proved
    /// (the child is a proved loss for its side to move): the rest need not be read.
    #[inline]
    pub(crate) fn add(&mut self, index: usize, pn: u32, dn: u32) -> bool {
        self.dn = add(self.dn, pn);
        if self.best == usize::MAX || dn < self.pn {
            self.second_dn = self.pn;
            self.pn = dn;
            self.best = index;
            self.best_pn = pn;
        } else if dn < self.second_dn {
            self.second_dn = dn;
        }
        if dn == 0 {
            self.dn = INFINITY;
            return false;
        }
        true
    }

    /// All the children's numbers, gathered.
    #[inline]
    pub(crate) fn of(children: impl IntoIterator<Item = (u32, u32)>) -> FromChildren {
        let mut numbers = FromChildren::new();
        for (index, (pn, dn)) in children.into_iter().enumerate() {
            if !numbers.add(index, pn, dn) {
                break;
            }
        }
        numbers
    }

    /// [`FromChildren::of`] over numbers already in an array (the df-pns' frames keep
    /// their children's there): the same result, in about half the instructions, since
    /// the sum runs in 64 bits (no term can overflow it) and is capped once at the end,
    /// and the first child is taken before the loop.
    #[inline]
    pub(crate) fn of_slice(children: &[(u32, u32)]) -> FromChildren {
        let mut numbers = FromChildren::new();
        let Some((&(first_pn, first_dn), rest)) = children.split_first() else {
            return numbers;
        };
        numbers.pn = first_dn;
        numbers.best = 0;
        numbers.best_pn = first_pn;
        let mut sum = u64::from(first_pn);
        let mut largest = first_pn;
        if first_dn != 0 {
            for (i, &(pn, dn)) in rest.iter().enumerate() {
                sum += u64::from(pn);
                largest = largest.max(pn);
                if dn < numbers.pn {
                    numbers.second_dn = numbers.pn;
                    numbers.pn = dn;
                    numbers.best = i + 1;
                    numbers.best_pn = pn;
                } else if dn < numbers.second_dn {
                    numbers.second_dn = dn;
                }
                if dn == 0 {
                    break;
                }
            }
        }
        // A proved-loss child (dn 0, always the best then) or a proved-win one (pn
        // INFINITY) makes the sum infinite, as `add` would.
        numbers.dn = if numbers.pn == 0 || largest == INFINITY {
            INFINITY
        } else {
            sum.min(u64::from(MAX_FINITE)) as u32
        };
        numbers
    }

    /// The numbers of `count` children whose first ones a df-pn frame keeps in `kept`,
    /// the others read by `read(index)`: [`of_slice`](Self::of_slice) when all are kept.
    #[inline]
    pub(crate) fn of_kept(
        kept: &[(u32, u32)],
        count: usize,
        mut read: impl FnMut(usize) -> (u32, u32),
    ) -> FromChildren {
        match kept.get(..count) {
            Some(all) => FromChildren::of_slice(all),
            None => FromChildren::of((0..count).map(|i| match kept.get(i) {
                Some(&numbers) => numbers,
                None => read(i),
            })),
        }
    }

    /// The thresholds (`pn`, `dn`) of the best child when the node searches below its
    /// own thresholds `thpn`, `thdn`, with the 1+ε trick (ε in 1/1024ths): the child works
    /// until the node would reach `thdn` through its `pn` (the sum), or until its `dn`
    /// passes `second_dn * (1 + ε) + 1` or `thpn`.
    #[inline]
    pub(crate) fn child_thresholds(&self, thpn: u32, thdn: u32, epsilon_1024: u32) -> (u32, u32) {
        let child_thpn = if thdn == INFINITY {
            INFINITY
        } else {
            // dn - best_pn + child_pn < thdn  <=>  child_pn < thdn - (dn - best_pn)
            add(thdn - (self.dn - self.best_pn.min(self.dn)), 0)
        };
        let second = self.second_dn;
        let grown = if second >= MAX_FINITE {
            second
        } else {
            let extra = (second as u64 * epsilon_1024 as u64) >> 10;
            (second as u64 + extra + 1).min(MAX_FINITE as u64) as u32
        };
        (child_thpn, thpn.min(grown))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::{Rng, SeedableRng};
    use rand_xorshift::XorShiftRng;

    #[test]
    fn min_of_disproofs_sum_of_proofs_and_the_best_child() {
        let n = FromChildren::of([(3, 5), (2, 4), (7, 4), (1, 9)]);
        assert_eq!(
            (n.pn, n.dn, n.best, n.best_pn, n.second_dn),
            (4, 13, 1, 2, 4)
        );
        // A proved-loss child proves the node and stops the reading.
        let n = FromChildren::of([(3, 5), (INFINITY, 0), (1, 1)]);
        assert_eq!((n.pn, n.dn, n.best), (0, INFINITY, 1));
        // All children proved wins for their side: the node is lost.
        let n = FromChildren::of([(0, INFINITY), (0, INFINITY)]);
        assert_eq!((n.pn, n.dn), (INFINITY, 0));
        // Sums saturate below INFINITY.
        let n = FromChildren::of([(MAX_FINITE, 1), (5, 2)]);
        assert_eq!(n.dn, MAX_FINITE);
        // Thresholds: the best child may grow to twice the second plus one with ε = 1.
        let n = FromChildren::of([(2, 4), (3, 10)]);
        assert_eq!(FromChildren::of_slice(&[(2, 4), (3, 10)]), n);
        assert_eq!(n.child_thresholds(INFINITY, INFINITY, 1024), (INFINITY, 21));
        assert_eq!(n.child_thresholds(8, 20, 0), (17, 8));
    }

    #[test]
    fn the_array_form_gathers_exactly_what_the_rule_does() {
        // Numbers drawn from a small set that has every special value, so that ties,
        // proved children, saturation and empty lists all come up.
        let values = [
            0,
            1,
            2,
            3,
            7,
            MAX_FINITE / 2,
            MAX_FINITE - 1,
            MAX_FINITE,
            INFINITY,
        ];
        let mut rng = XorShiftRng::seed_from_u64(0x9E37_79B9_7F4A_7C15);
        let mut next = || rng.next_u64();
        for _ in 0..200_000 {
            let len = (next() % 12) as usize;
            let children: Vec<(u32, u32)> = (0..len)
                .map(|_| {
                    let r = next();
                    (values[(r % 9) as usize], values[((r >> 8) % 9) as usize])
                })
                .collect();
            assert_eq!(
                FromChildren::of_slice(&children),
                FromChildren::of(children.iter().copied()),
                "{children:?}"
            );
        }
    }
}
