//! # veillee-sdk
//!
//! Write a board game once, in plain Rust, and run it in the Veillée launcher as a sandboxed
//! WebAssembly plugin. The same crate also builds natively, for fast rule tests and as a
//! benchmark baseline.
//!
//! You implement [`Game`] and write [`export_game!`] once. The guide in this crate's
//! README walks through a complete plugin.
//!
//! Nothing here knows about the host: no files, no clock, no randomness but the seed.

#![deny(missing_docs)]

pub mod abi;
mod action;
mod colour;
mod coords;
mod error;
mod game;
pub mod leaks;
mod manifest;
mod playout;
mod rng;
pub mod rules;
pub mod scene;
pub mod search;
mod setup;
mod status;
mod table;
pub mod testing;
mod text;

pub use action::{Action, Event, Private, Target};
pub use colour::Colour;
pub use coords::{move_path, Coords};
pub use error::GameError;
pub use game::{unknown_operation, Game, Log};
pub use manifest::{
    Choice, Manifest, OperationKind, OperationSpec, OptionKind, OptionSpec, PlayTime, SeatInfo,
};
pub use playout::{
    id_matches, random_playout, random_playout_until, MoveCondition, PlayoutResult, PlayoutStop,
    PlayoutWatch, WatchOn, WatchRule,
};
pub use rng::GameRng;
pub use rules::Rules;
pub use scene::{
    Board, Card, Cell, Die, DieFace, HexCoords, HexOrientation, Highlight, HighlightKind, Layout,
    Line, Piece, Scene, ScoreLine, Shape, Zone,
};
pub use setup::{OptionValue, Seat, Setup};
pub use status::{Outcome, Status};
pub use table::{GameTable, Handle, OperationCall};
pub use text::{text, Text, MAX_EVENTS_PER_MOVE, MAX_TEXT_CHARS};

/// The guide in README.md, compiled as doc-tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
