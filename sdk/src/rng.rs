//! The seeded random number generator that lives in a game's state.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

/// A small, fast, serializable generator. Keep it inside your game state: the same seed and
/// the same actions then always replay to the same game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRng(Pcg64Mcg);

impl GameRng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        GameRng(Pcg64Mcg::seed_from_u64(seed))
    }

    /// A uniform number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }

    /// Shuffles a slice in place.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        items.shuffle(&mut self.0);
    }

    /// One random item, `None` for an empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        (!items.is_empty()).then(|| &items[self.below(items.len())])
    }

    /// A fresh 64-bit value (to seed another generator).
    pub fn next_u64(&mut self) -> u64 {
        self.0.random()
    }
}

#[cfg(test)]
mod tests {
    use super::GameRng;

    #[test]
    fn same_seed_same_draws_even_after_a_save() {
        let mut a = GameRng::new(7);
        let draws: Vec<usize> = (0..5).map(|_| a.below(100)).collect();
        let mut b = GameRng::new(7);
        assert_eq!(draws, (0..5).map(|_| b.below(100)).collect::<Vec<_>>());
        let saved = serde_json::to_string(&a).unwrap();
        let mut restored: GameRng = serde_json::from_str(&saved).unwrap();
        assert_eq!(a.next_u64(), restored.next_u64());
    }
}
