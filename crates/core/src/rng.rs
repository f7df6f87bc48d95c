//! SplitMix64 (Sebastiano Vigna's): a tiny generator seeded with any value,
//! and the only one in the repository. The trainer's first weights and
//! shuffles, the match's opening order, the Zobrist keys, the build script's
//! magic factors (it includes this file by path), and the seeded positions of
//! the tests and benches all draw from it, so that every run depends only on
//! its inputs and its seed.
//!
//! Neighbouring seeds give unrelated streams: every output passes through the
//! finaliser, so seeds 0, 1, 2 ... are as good as any.

#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

/// SplitMix64's finaliser: a bijection of 64-bit words whose every output
/// bit depends on every input bit, for keys built from several words.
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// Uniform in `0..n` (n > 0), by remainder: biased by less than n / 2^64.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `low..=high`.
    pub fn range(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high - low + 1)
    }

    /// True with probability `percent` / 100.
    pub fn percent(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    /// Uniform in `-bound..bound`.
    pub fn uniform(&mut self, bound: f32) -> f32 {
        ((self.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * bound
    }
}
