//! How long scripts may keep a game going: the one place for the bounds on *sequences* of
//! hook calls. Each call alone is bounded by [`crate::VariantLimits`] (instructions, time,
//! memory); a script could still ask question after question, each answer followed by
//! another, or keep undoing what would end the game, and every command that plays, checks
//! or simulates the game would then run until killed.
//!
//! When a bound is reached the game **stops**: it is over, with no winner and a reason
//! naming the scripts and the bound ([`stopped_by_questions`], [`stopped_by_moves`]), kept
//! by the engine beside the game as `ctx.game.end_game` keeps its outcome, so it is saved
//! with the session and a replay stops at the same move. It does not go on under the plain
//! rules, as after a script's error: the position is one the rule shaped (a move half
//! played, piles refilled), and the players chose to play with that rule, so a game that
//! quietly turned into another would be the surprise. They read why it stopped, in the log
//! and on resuming, and start again without the rule.

use veillee_sdk::{text, Text};

/// Questions (`ctx.choose`, or one `ctx.choose_all` for all its seats) the scripts may ask
/// in one move, from the move to the last hook it sets off. Castel's cards ask a handful
/// for one card at most (the Conseiller's two, then those of the card it puts into play), a
/// shipped house rule one. Sixty-four leaves room for any honest rule, and each answer
/// re-runs its hook with every answer so far, so the cost of a move grows with the square of
/// this number: 64 keeps the worst move near two thousand hook runs, a fraction of a second.
pub const MAX_QUESTIONS_PER_MOVE: u32 = 64;

/// Moves a game with scripts may last. Games do not declare a length, so this is a fixed
/// cap, far beyond what the built-in games allow by their own rules: Siège's longest game is
/// 1,801 plies (200 quiet plies before each capture), Castel and Bâtisseurs offer a draw
/// after 600 turns and 150 rounds and every 100 turns or 25 rounds after that, and a
/// game at the table lasts a few hundred moves. The longest are random games of Le Château
/// du roc noir, whose draw every player must accept: with the enchanted castle for four
/// random players, 5,924 moves on average and 8,260 at most over 40 games. It stays below
/// the 20,000 moves within which the conformance kit requires every game to end, so that a
/// game stopped here is reported as stopped by its rules, not as a game that does not end.
/// Answers to questions are not moves (they are bounded by [`MAX_QUESTIONS_PER_MOVE`]);
/// moves a playout plays inside the plugin count.
pub const MAX_MOVES_WITH_SCRIPTS: u32 = 15_000;

/// Why a game stopped when a script asked one question too many in one move: the script
/// (its name and file) and the bound.
pub fn stopped_by_questions(name: &Text, file: &str) -> Text {
    text(
        format!(
            "Partie arrêtée : la règle « {} » ({file}) a posé {MAX_QUESTIONS_PER_MOVE} questions \
             dans un même coup sans le finir, le plus qu'une règle puisse poser. La partie reste \
             enregistrée ; recommencez-la sans cette règle.",
            name.fr
        ),
        format!(
            "Game stopped: the rule “{}” ({file}) asked {MAX_QUESTIONS_PER_MOVE} questions in \
             one move without finishing it, the most a rule may ask. The game stays saved; \
             start it again without this rule.",
            name.en
        ),
    )
}

/// Why a game stopped after [`MAX_MOVES_WITH_SCRIPTS`] moves: the scripts in play (names
/// and files; the engine cannot tell which of them kept it going) and the bound.
pub fn stopped_by_moves(scripts: &[(&Text, &str)]) -> Text {
    let named = |fr: bool| {
        scripts
            .iter()
            .map(|(name, file)| match fr {
                true => format!("« {} » ({file})", name.fr),
                false => format!("“{}” ({file})", name.en),
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    text(
        format!(
            "Partie arrêtée après {MAX_MOVES_WITH_SCRIPTS} coups, le plus qu'une partie avec \
             des règles de scripts puisse durer (aucun jeu intégré n'en demande autant) : les \
             règles {} la font durer. La partie reste enregistrée ; recommencez-la sans elles.",
            named(true)
        ),
        format!(
            "Game stopped after {MAX_MOVES_WITH_SCRIPTS} moves, the most a game with scripted \
             rules may last (no built-in game needs as many): the rules {} keep it going. The \
             game stays saved; start it again without them.",
            named(false)
        ),
    )
}
