//! The one trait a game implements.

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::{Action, Event, GameError, GameRng, Manifest, Scene, Seat, Setup, Status};

/// A board game, written in plain Rust.
///
/// The state is the value itself: it holds the board, whose turn it is and the random
/// generator ([`GameRng`]), so that the same [`Setup`] and the same moves always give the
/// same game. It must serialize deterministically (use `BTreeMap`, not `HashMap`).
///
/// Legal moves come in two forms. [`Game::moves`] returns your own compact move type: bots
/// and random playouts use it and never build a string. [`Game::describe`] turns one move
/// into an [`Action`] with its stable textual id, click path and label, for people and logs.
pub trait Game: Clone + Serialize + DeserializeOwned + 'static {
    /// A legal move, in whatever form is cheapest for you.
    type Move: Clone;

    /// What the launcher shows about the game.
    fn manifest() -> Manifest;

    /// A new game. The set-up has been checked against the manifest: the player count is in
    /// range and every option is present with a valid value.
    fn new(setup: &Setup) -> Result<Self, GameError>;

    /// Whose turn it is, or how the game ended.
    fn status(&self) -> Status;

    /// The legal moves of `seat` now; empty when the seat has nothing to do.
    /// A seat listed by [`Game::status`] must always have at least one move.
    fn moves(&self, seat: Seat) -> Vec<Self::Move>;

    /// [`Game::moves`] into a buffer the caller keeps: `out` is cleared, then holds the same
    /// moves in the same order. Random playouts and searches call this at every position with
    /// one buffer for the whole game, so override it when your move generation can push into
    /// `out` (and let `moves` call it): a playout then allocates nothing per move.
    fn moves_into(&self, seat: Seat, out: &mut Vec<Self::Move>) {
        *out = self.moves(seat);
    }

    /// The seats to act now, into `out` (cleared first) in the order of [`Game::status`]'s
    /// `seats`; `false` when the game is over (`out` is then empty and [`Game::status`] tells
    /// how it ended). Random playouts ask this at every position instead of building a
    /// [`Status`]: override it when `status` allocates (a `Vec` of seats, an outcome's texts)
    /// or generates moves. It must agree with `status` (the conformance kit checks it).
    fn seats_to_act(&self, out: &mut Vec<Seat>) -> bool {
        match self.status() {
            Status::ToAct { seats } => {
                *out = seats;
                true
            }
            Status::Finished { .. } => {
                out.clear();
                false
            }
        }
    }

    /// The move as an action: its stable id, click path and label.
    fn describe(&self, seat: Seat, mv: &Self::Move) -> Action;

    /// The move's stable id alone. Override it when building the whole [`Action`] is costly.
    fn move_id(&self, seat: Seat, mv: &Self::Move) -> String {
        self.describe(seat, mv).id
    }

    /// The move's key in a bot's search tree ([`crate::search::MoveKey`]): two moves of `seat`
    /// must get the same key exactly when their ids ([`Game::move_id`]) are equal, so that the
    /// same move in two re-drawn worlds is one edge. The default hashes the id, a `String` for
    /// every legal move at every node of the tree; when the move value alone names the move
    /// (its id is built from the value and nothing else, and two values never share an id),
    /// override it with [`crate::search::hash_move`], which allocates nothing.
    fn move_key(&self, seat: Seat, mv: &Self::Move) -> crate::search::MoveKey {
        crate::search::move_key(&self.move_id(seat, mv))
    }

    /// Plays a move returned by [`Game::moves`] for `seat`, recording what happened in `log`.
    fn play(&mut self, seat: Seat, mv: &Self::Move, log: &mut Log);

    /// What `viewer` may see (`None`: a spectator who sees only public information).
    /// Leave out everything that viewer must not know.
    fn view(&self, viewer: Option<Seat>) -> Scene;

    /// Re-draws everything `viewer` cannot see, at random but consistently with what that
    /// viewer knows (where the unseen cards could be, given the cards played). Used by the
    /// conformance kit's leak check and by bots that must not peek. Games without hidden
    /// information keep the default, which changes nothing.
    fn redraw_hidden(&mut self, viewer: Option<Seat>, rng: &mut GameRng) {
        let _ = (viewer, rng);
    }

    /// How good the game stands for `seat`, from 0 (lost) to 1 (won): what a bot's search
    /// reads where it stops playing a game out (see [`crate::search`]). Give partners in a
    /// team game the same value, and keep it cheap: it runs once per search iteration. It may
    /// read only what is in the state, hidden parts included, since a search only ever calls
    /// it on copies re-drawn for the bot's seat. The default knows nothing before the end
    /// (½) and gives the outcome after it ([`crate::search::status_value`]);
    /// [`crate::search::squash`] turns an advantage (material, points, distance) into a value.
    fn evaluate(&self, seat: Seat) -> f32 {
        crate::search::status_value(&self.status(), seat)
    }

    /// How many random moves a bot's search plays from where its tree ends before it asks
    /// [`Game::evaluate`] (see [`crate::search`]): `host` is the number the host asks for the
    /// bot's level (16 inside the plugin). The default keeps it. Answer fewer (0: the
    /// evaluation alone values the leaves) when random moves say less than the evaluation —
    /// when random play throws away what the search is weighing (Renard: random hens hand
    /// the fox a hen every few moves, so every move of the hens looked alike).
    fn bot_playout_moves(&self, host: u32) -> u32 {
        host
    }

    /// Whether a bot may choose `mv`, a legal move of `seat` here. Not a rule: people, random
    /// seats and [`Game::moves`] keep every legal move; a bot's search ([`crate::search`])
    /// leaves out the moves answered `false`, at every node of its tree, the root included
    /// (its random playouts do not ask). Use it to bound what the rules leave unbounded — a
    /// move that may go on for ever, where a bot could step back and forth and never end its
    /// turn. When it refuses every legal move the search keeps them all. It may read only
    /// what the seat to move can see. The default refuses nothing.
    fn bot_may_choose(&self, seat: Seat, mv: &Self::Move) -> bool {
        let _ = (seat, mv);
        true
    }

    /// Answers a read-only operation offered to variant scripts (`ctx.game.query`). Declare
    /// each one in [`Manifest::operations`] with [`crate::OperationKind::Query`]; the host
    /// only calls names declared there. Arguments and answer are plain JSON values (Lua tables
    /// on the script's side). Games without operations keep the default, which refuses.
    fn query(&self, name: &str, args: &serde_json::Value) -> Result<serde_json::Value, GameError> {
        let _ = args;
        Err(unknown_operation(name))
    }

    /// Performs a state-changing operation offered to variant scripts (`ctx.game.command`),
    /// declared in [`Manifest::operations`] with [`crate::OperationKind::Command`]. It must
    /// keep the game consistent (a command is not a move: it does not pass the turn unless
    /// it says so). On `Err` the game must be unchanged.
    fn command(
        &mut self,
        name: &str,
        args: &serde_json::Value,
    ) -> Result<serde_json::Value, GameError> {
        let _ = args;
        Err(unknown_operation(name))
    }
}

/// The error of an operation a game does not implement.
pub fn unknown_operation(name: &str) -> GameError {
    GameError::Operation {
        name: name.to_string(),
        reason: "this game does not implement it".into(),
    }
}

/// Where [`Game::play`] records events. Switched off during playouts, so that building event
/// texts costs nothing there.
#[derive(Debug, Default)]
pub struct Log {
    enabled: bool,
    events: Vec<Event>,
}

impl Log {
    /// A log that keeps events.
    pub fn recording() -> Self {
        Log {
            enabled: true,
            events: Vec::new(),
        }
    }

    /// A log that drops events without building them.
    pub fn off() -> Self {
        Log::default()
    }

    /// Records the event made by `event` (only called when the log is recording).
    pub fn record(&mut self, event: impl FnOnce() -> Event) {
        if self.enabled {
            self.events.push(event());
        }
    }

    /// The events recorded so far.
    pub fn into_events(self) -> Vec<Event> {
        self.events
    }
}

/// Implements [`Clone`] for a struct field by field, with a `clone_from` that forwards to
/// every field's own `clone_from`: a `Vec` keeps its memory and an `Option` clones in place.
/// A bot's search overwrites one kept world with the root at every iteration
/// ([`crate::search::SearchSpace::redraw_into`]), and a derived `Clone` would allocate every
/// `Vec` of the state anew each time. List every field: the macro destructures the struct
/// without `..`, so a field added later and forgotten here is a compile error.
///
/// ```
/// #[derive(Debug, PartialEq)]
/// struct Hand {
///     cards: Vec<u8>,
///     turn: u8,
/// }
/// veillee_sdk::clone_by_fields!(Hand { cards, turn });
///
/// let a = Hand { cards: vec![1, 2, 3], turn: 1 };
/// let mut b = Hand { cards: Vec::with_capacity(8), turn: 0 };
/// b.clone_from(&a);
/// assert_eq!(a, b);
/// assert_eq!(b.cards.capacity(), 8);
/// ```
#[macro_export]
macro_rules! clone_by_fields {
    ($ty:ident { $($field:ident),+ $(,)? }) => {
        impl ::core::clone::Clone for $ty {
            fn clone(&self) -> Self {
                let $ty { $($field),+ } = self;
                $ty { $($field: ::core::clone::Clone::clone($field)),+ }
            }

            fn clone_from(&mut self, source: &Self) {
                let $ty { $($field),+ } = self;
                $(::core::clone::Clone::clone_from($field, &source.$field);)+
            }
        }
    };
}
