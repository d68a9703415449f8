//! Why a benchmark could not measure: one error for the `bench` modes, each cause named.

use crate::catalog::CatalogError;
use crate::engine::{EngineError, PluginError};
use crate::session::SessionError;
use crate::store::StoreError;

/// What stopped a benchmark.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// What it needed is not there, or a measurement is not what it must be.
    #[error("{0}")]
    Failed(String),
    /// A plugin failed to load.
    #[error(transparent)]
    Plugin(#[from] PluginError),
    /// A game call failed.
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The catalog could not give a game.
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    /// A session failed.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The disk failed (a temporary folder).
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// An `Option` a benchmark needs: `None` says what is missing.
pub(crate) trait Missing<T> {
    fn missing(self, what: impl FnOnce() -> String) -> Result<T, BenchError>;
}

impl<T> Missing<T> for Option<T> {
    fn missing(self, what: impl FnOnce() -> String) -> Result<T, BenchError> {
        self.ok_or_else(|| BenchError::Failed(what()))
    }
}

/// Stops the benchmark with this message when the condition does not hold.
macro_rules! ensure {
    ($condition:expr, $($message:tt)+) => {
        if !$condition {
            return Err($crate::bench_error::BenchError::Failed(format!($($message)+)));
        }
    };
}
pub(crate) use ensure;
