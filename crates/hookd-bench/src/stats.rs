//! Summaries of timing samples: the median and p99 every figure is judged on.
//!
//! One definition for every measurement, so "p99" means the same thing
//! everywhere: the nearest-rank percentile (the smallest sample that at least
//! 99 % of samples do not exceed), which is always an observed value and never
//! an interpolation between two of them.

use std::time::Duration;

use serde::Serialize;

/// Order statistics of a set of durations, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Summary {
    /// Number of samples.
    pub n: usize,
    /// Fastest sample.
    pub min_ms: f64,
    /// Median (mean of the two middle samples when `n` is even).
    pub median_ms: f64,
    /// 99th percentile, nearest rank.
    pub p99_ms: f64,
    /// Slowest sample.
    pub max_ms: f64,
    /// Arithmetic mean, for context only: one stall skews it.
    pub mean_ms: f64,
}

impl Summary {
    /// Summarises `samples`; `None` when there are none.
    pub fn of(samples: &[Duration]) -> Option<Self> {
        if samples.is_empty() {
            return None;
        }
        let mut sorted = samples.to_vec();
        sorted.sort_unstable();
        let n = sorted.len();
        let median = if n % 2 == 1 {
            ms(sorted[n / 2])
        } else {
            (ms(sorted[n / 2 - 1]) + ms(sorted[n / 2])) / 2.0
        };
        let total: f64 = sorted.iter().copied().map(ms).sum();
        Some(Self {
            n,
            min_ms: ms(sorted[0]),
            median_ms: median,
            p99_ms: ms(sorted[nearest_rank(n, 0.99)]),
            max_ms: ms(sorted[n - 1]),
            mean_ms: total / n as f64,
        })
    }
}

/// Index of the nearest-rank `p` percentile in a sorted slice of length `n > 0`.
fn nearest_rank(n: usize, p: f64) -> usize {
    // ceil(p * n) is the 1-based rank; the float is exact enough for n < 2^50.
    let rank = (p * n as f64).ceil() as usize;
    rank.clamp(1, n) - 1
}

/// A duration in milliseconds, as a float.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn millis(values: &[u64]) -> Vec<Duration> {
        values.iter().copied().map(Duration::from_millis).collect()
    }

    #[test]
    fn empty_has_no_summary() {
        assert_eq!(Summary::of(&[]), None);
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(Summary::of(&millis(&[3, 1, 2])).unwrap().median_ms, 2.0);
        assert_eq!(Summary::of(&millis(&[4, 1, 3, 2])).unwrap().median_ms, 2.5);
    }

    #[test]
    fn p99_is_an_observed_sample() {
        let samples: Vec<u64> = (1..=100).collect();
        let s = Summary::of(&millis(&samples)).unwrap();
        assert_eq!(s.p99_ms, 99.0);
        assert_eq!(s.min_ms, 1.0);
        assert_eq!(s.max_ms, 100.0);
        let samples: Vec<u64> = (1..=1000).collect();
        assert_eq!(Summary::of(&millis(&samples)).unwrap().p99_ms, 990.0);
        // With fewer than 100 samples p99 is the maximum.
        assert_eq!(Summary::of(&millis(&[5, 1, 9])).unwrap().p99_ms, 9.0);
        assert_eq!(Summary::of(&millis(&[7])).unwrap().p99_ms, 7.0);
    }
}
