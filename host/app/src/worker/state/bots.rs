//! The bots: a seat's decision handed to the thinker thread and played when it comes back,
//! and the rules lab ("Test this rule") on a thread of its own.

use veillee_sdk::{Seat, Setup, Text};

use veillee_runtime::bot;
use veillee_runtime::store::model::BotLevel;
use veillee_runtime::table::{TableError, Turn};
use veillee_runtime::variants::library::{self, ScriptSource};

use crate::lab::{self, LabNote, LabState};
use crate::thinker::{Job, Thinker, Thought};
use crate::worker::protocol::{GameView, Reply};

use super::{said, Res, State};

/// A bot's decision under way.
pub(super) struct Thinking {
    pub(super) generation: u64,
    pub(super) seat: Seat,
    pub(super) level: BotLevel,
    /// Moves of that seat the house rules refused, with why.
    pub(super) refused: Vec<(String, Text)>,
}

impl State {
    /// The bot to act starts thinking, unless it already is: its move comes with the
    /// thinker's decision ([`State::thought`]).
    pub(super) fn bot(&mut self) -> Res<GameView> {
        let playing = self.playing()?;
        let turn = playing.table.turn().map_err(|e| e.text())?;
        if let (Turn::Bot(seat, level), None) = (turn, &playing.thinking) {
            self.think(seat, level, Vec::new())?;
        }
        self.view(Vec::new())
    }

    /// Starts the test of a house rule on its own thread.
    pub(super) fn test_rule(&mut self, game: &str, rule: ScriptSource, setup: Setup) -> Reply {
        let name = rule.file.clone();
        let plain = library::game_scripts(game, Some(&self.data.variants()));
        let state = match self
            .catalog()
            .and_then(|c| c.engine(game).map_err(|e| e.text()))
        {
            Ok(plugin) => {
                lab::spawn(plugin, plain, rule, setup, self.to_self.clone());
                LabState::Running(0, 2 * lab::LAB_GAMES)
            }
            Err(why) => LabState::Failed(why),
        };
        Reply::RuleTest(LabNote { rule: name, state })
    }

    /// Hands the game to the thinker for `seat`'s decision (started at the first).
    pub(super) fn think(
        &mut self,
        seat: Seat,
        level: BotLevel,
        refused: Vec<(String, Text)>,
    ) -> Res<()> {
        if self.playing()?.thinker.is_none() {
            let game = self.playing()?.table.meta().game.clone();
            let plugin = self
                .catalog()
                .and_then(|c| c.engine(&game).map_err(|e| e.text()))?;
            let scripts = self.playing()?.table.meta().variants.clone();
            let thinker = Thinker::spawn(plugin, scripts, self.to_self.clone());
            self.playing()?.thinker = Some(thinker);
        }
        let playing = self.playing()?;
        let meta = playing.table.meta();
        let seed = bot::decision_seed(meta.setup.seed, meta.moves, seat)
            .wrapping_add(refused.len() as u64);
        let players = meta.setup.players;
        let (engine, live) = playing.table.parts_mut();
        let state = engine.save(live.game).map_err(said)?;
        playing.asked += 1;
        let job = Job {
            generation: playing.asked,
            state,
            seat,
            players,
            level,
            seed,
            exclude: refused.iter().map(|(id, _)| id.clone()).collect(),
        };
        playing.thinking = Some(Thinking {
            generation: playing.asked,
            seat,
            level,
            refused,
        });
        let asked = playing.thinker.as_ref().is_some_and(|t| t.ask(job));
        if !asked {
            playing.thinking = None;
            return Err(Text::new(
                "Le robot ne peut pas réfléchir : son fil n'a pas pu démarrer.",
                "The bot cannot think: its thread could not be started.",
            ));
        }
        Ok(())
    }

    /// A bot's decision: played and saved by the table like a click, unless the game moved
    /// on since it was asked (then it is dropped). A move a house rule refuses is struck off
    /// and the bot thinks again; with none left the game stops here, saved.
    pub(super) fn thought(&mut self, thought: Thought) -> Vec<Reply> {
        let Some(playing) = self.playing.as_mut() else {
            return Vec::new();
        };
        let current = playing.thinking.as_ref().map(|t| t.generation);
        if current != Some(thought.generation) {
            return Vec::new();
        }
        let Some(Thinking {
            seat,
            level,
            refused,
            ..
        }) = playing.thinking.take()
        else {
            return Vec::new();
        };
        let who = playing.table.seat_name(seat);
        let chosen = match thought.result {
            Ok(Some(chosen)) => chosen,
            Ok(None) => {
                let reasons = |lang| {
                    let texts: Vec<&str> = refused.iter().map(|(_, why)| why.get(lang)).collect();
                    texts.join("; ")
                };
                return vec![Reply::GameFailed(Text::new(
                    format!(
                        "{who} ne peut pas jouer : les règles maison ont refusé tous ses coups ({}). La partie s'arrête ici ; elle reste enregistrée.",
                        reasons("fr")
                    ),
                    format!(
                        "{who} cannot move: the house rules refused every one of its moves ({}). The game stops here; it stays saved.",
                        reasons("en")
                    ),
                ))];
            }
            Err(e) => return vec![Reply::GameFailed(Text::same(e))],
        };
        match self.play(seat, &chosen.action.id) {
            Ok(log) => vec![self.reply_game(|s| s.view(log))],
            Err(TableError::Refused(reason)) => {
                let mut refused = refused;
                refused.push((chosen.action.id, reason));
                vec![self.reply_game(|s| {
                    s.think(seat, level, refused)?;
                    s.view(Vec::new())
                })]
            }
            Err(other) => vec![Reply::GameFailed(other.text())],
        }
    }
}
