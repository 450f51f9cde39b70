//! The statistics of duplicate matches: a mean with its 95% interval, and the paired
//! difference of two bots' results on the same deals.
//!
//! Two duplicate matches with the same seed deal the same cards, so bot A's and bot B's
//! results against the same opponent can be paired deal by deal. Much of each result is the
//! cards' luck, which both share; the difference of the pair cancels it, so its interval is
//! far narrower than either result's (and the two results' own intervals say nothing about
//! whether one bot beats the other). Allocation-free: the values are the caller's slices.

/// A mean and the half-width of its 95% normal interval (1.96 sample standard deviations
/// over √n), over `samples` values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    /// Infinite with fewer than two values (no spread to measure); 0 with none.
    pub half_width: f64,
    pub samples: usize,
}

impl Estimate {
    /// The interval's low end.
    pub fn low(&self) -> f64 {
        self.mean - self.half_width
    }

    /// The interval's high end.
    pub fn high(&self) -> f64 {
        self.mean + self.half_width
    }
}

/// The mean of `values` with its 95% interval (0 ± 0 when empty).
pub fn mean_and_interval(values: &[f64]) -> Estimate {
    estimate(values.len(), || values.iter().copied())
}

/// Why two result lists cannot be paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairingError {
    /// The two matches have different numbers of deals.
    Lengths { a: usize, b: usize },
}

impl core::fmt::Display for PairingError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PairingError::Lengths { a, b } => {
                write!(
                    f,
                    "the matches have {a} and {b} deals: pairing needs the same deals"
                )
            }
        }
    }
}

/// The mean of `a[i] − b[i]` over the deals `i`, with its 95% interval: how much more bot A
/// won than bot B on the same deals (`a` and `b` in the same unit, one value per deal or
/// duplicate pair, deal `i` the same in both).
pub fn paired_difference(a: &[f64], b: &[f64]) -> Result<Estimate, PairingError> {
    if a.len() != b.len() {
        return Err(PairingError::Lengths {
            a: a.len(),
            b: b.len(),
        });
    }
    Ok(estimate(a.len(), || a.iter().zip(b).map(|(x, y)| x - y)))
}

/// Two passes over `values()` (`n` of them): the mean, then the spread about it.
fn estimate<I: Iterator<Item = f64>>(n: usize, values: impl Fn() -> I) -> Estimate {
    if n == 0 {
        return Estimate {
            mean: 0.0,
            half_width: 0.0,
            samples: 0,
        };
    }
    let count = n as f64;
    let mean = values().sum::<f64>() / count;
    let half_width = if n < 2 {
        f64::INFINITY
    } else {
        let variance = values().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (count - 1.0);
        1.96 * libm::sqrt(variance) / libm::sqrt(count)
    };
    Estimate {
        mean,
        half_width,
        samples: n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mean_has_its_normal_interval() {
        let estimate = mean_and_interval(&[1.0, 3.0]);
        assert_eq!(estimate.mean, 2.0);
        // Sample sd √2, over √2 values: 1.96.
        assert!((estimate.half_width - 1.96).abs() < 1e-12);
        assert_eq!(mean_and_interval(&[]).samples, 0);
        assert_eq!(mean_and_interval(&[5.0]).half_width, f64::INFINITY);
    }

    #[test]
    fn the_difference_cancels_what_the_deals_share() {
        // Each bot's result swings by the deal's luck (±1,000); B wins 10 less on every deal.
        let a = [1_010.0, -990.0, 1_030.0, -970.0];
        let b = [1_000.0, -1_000.0, 1_000.0, -1_000.0];
        let alone = mean_and_interval(&a);
        assert!(alone.half_width > 1_000.0);
        let difference = paired_difference(&a, &b).unwrap();
        assert_eq!(difference.mean, 20.0);
        // Differences 10, 10, 30, 30: sd √(400/3), far below either result's spread.
        let sd = (4.0f64 * 100.0 / 3.0).sqrt();
        assert!((difference.half_width - 1.96 * sd / 2.0).abs() < 1e-9);
        assert!(difference.low() > 0.0);
        assert_eq!(
            paired_difference(&a, &b[..3]),
            Err(PairingError::Lengths { a: 4, b: 3 })
        );
    }
}
