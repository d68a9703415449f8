//! # Le Château du roc noir
//!
//! A 2000 family game for two to four players: each player leads three knights (black,
//! grey and white helmets) through a castle of flagstones hiding one trapdoor per tile,
//! fetches pairs of ancestor portraits from the three galleries and brings all three
//! knights into the treasure room. The rules are `shared/rules/roc-noir.md`; comments cite
//! its rule ids (`RN-P2`). The geometry and the portrait backs are the spec's
//! reconstruction: see this crate's README.md.
//!
//! This is the first Veillée game with hidden information: the trapdoors and the order of
//! the portrait piles are never in a view (see `scene.rs`) and are re-drawn by
//! [`Game::redraw_hidden`] consistently with what everyone has seen.

pub mod board;
mod bot;
mod eval;
mod ops;
mod rules;
mod saved;
mod scene;
mod standoff;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};
use veillee_sdk::{
    text, Action, Choice, Colour, Game, GameError, GameRng, Log, Manifest, OptionKind, OptionSpec,
    Outcome, Scene, Seat, SeatInfo, Setup, Status, Target, Text,
};

use board::{Node, NO, ROOM, TILES, TREASURE};

/// Safety net, not part of the original rules (which do not guarantee that a game ends):
/// once this many die rolls have been made, every player in turn is asked to accept a draw
/// or to play on, before the next roll. Far more than a game played to win should need.
pub const DRAW_OFFER_ROLLS: u32 = 1500;
/// After a player chose to play on, the draw is offered again this many rolls later. Short,
/// so that random and bot games end well within the host's 20 000-action checks (four
/// random players all accept one offer in 16); a group that wants to play on refuses again.
pub const DRAW_REOFFER_ROLLS: u32 = 20;
/// Ropes each player starts with (RN-S).
pub const ROPES: u8 = 3;
/// The die face that also shows the ring (a black helmet face; reconstruction).
pub const RING_FACE: u8 = 0;
/// The id of the board in the scene.
pub const BOARD_ID: &str = "castle";

/// Helmet / gallery colours: 0 black, 1 grey, 2 white.
pub const HELMETS: [&str; 3] = ["black", "grey", "white"];
/// The same in French.
pub const HELMETS_FR: [&str; 3] = ["noir", "gris", "blanc"];
/// Seat colours (ids), in seat order.
pub const SEAT_IDS: [&str; 4] = ["red", "blue", "yellow", "green"];
/// The same in French.
pub const SEAT_FR: [&str; 4] = ["Rouge", "Bleu", "Jaune", "Vert"];
/// The same in English.
pub const SEAT_EN: [&str; 4] = ["Red", "Blue", "Yellow", "Green"];

/// What stands in a corner room: the entrance or a gallery.
pub const ENTRANCE: u8 = 3;

/// Where the turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// The player rolls the die (RN-T1), or first rearranges their rail (RN-G5).
    Roll,
    /// The die named a knight already in the treasure room: the player picks another (RN-T1).
    Choose,
    /// The knight moves step by step (RN-T2).
    Move,
    /// The knight entered a gallery of which the player holds portraits, and holds some
    /// itself: exchange one or two of its own, or none (RN-G3).
    Exchange,
    /// The move ended next to an opposing knight with a common portrait (RN-G6).
    Brigand,
    /// A draw is on offer: each player in turn accepts it or plays on. Either the position
    /// is a stand-off (RN-E3, [`Standoff::Offered`]) or the safety net's
    /// [`DRAW_OFFER_ROLLS`] rolls were made (not part of the original rules).
    DrawOffer,
}

/// A legal move: small, `Copy`, never a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Roll the knight die (`roll`).
    Roll,
    /// Move this knight (helmet 0–2) instead of the one in the treasure room (`knight-grey`).
    Choose(u8),
    /// Step to a neighbouring node (`step-c3`, `step-black`, `step-treasure`).
    Step(Node),
    /// Hand back a rope and jump to this node (`jump-c5`); also the way back out of a
    /// gallery entered by a jump, free only without a rope left (RN-R3).
    Jump(Node),
    /// End the move here (`stop`).
    Stop,
    /// Slide these portraits of the entering knight (one or two, [`NO`] for none) under the
    /// gallery's pile and take as many from its top (`swap-7`, `swap-4-7`, RN-G3).
    Swap(u8, u8),
    /// Keep the portraits (`keep`, RN-G3).
    Keep,
    /// Give the pair of portrait number `n` to knight `to` (`pair-7-grey`, RN-G5).
    Pair { n: u8, to: u8 },
    /// Rob the knight `victim` (seat × 3 + helmet), giving it the portrait `give`
    /// (`rob-blue-white-give-4`, RN-G6).
    Rob { victim: u8, give: u8 },
    /// Do not rob (`no-rob`).
    NoRob,
    /// Accept the draw on offer, at a stand-off (RN-E3) or at the safety net
    /// (`accept-draw`).
    AcceptDraw,
    /// Refuse it: the game goes on (`play-on`).
    PlayOn,
}

/// A portrait: `2 × (number − 1) + copy`; copy 0 has back `number mod 3`, copy 1 back
/// `(number + 1) mod 3` (RN-S, reconstruction).
pub type Portrait = u8;

/// A portrait's number (1–12).
pub fn number(p: Portrait) -> u8 {
    p / 2 + 1
}

/// The gallery named on a portrait's back (0 black, 1 grey, 2 white).
pub fn back(p: Portrait) -> u8 {
    (number(p) + p % 2) % 3
}

/// A portrait's name: its number and copy letter (`7a`).
pub fn portrait_name(p: Portrait) -> String {
    format!(
        "{}{}",
        number(p),
        if p.is_multiple_of(2) { 'a' } else { 'b' }
    )
}

/// How the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// This seat brought all three knights into the treasure room (RN-E2).
    Won(u8),
    /// Every player accepted the draw offered by the safety net ([`DRAW_OFFER_ROLLS`]).
    DrawAgreed,
    /// Every player accepted the draw offered at a stand-off (RN-E3).
    StandoffAgreed,
    /// Version 1.0.0 ended games silently at 1500 rolls; kept only so that those saved
    /// games still load. Never produced now.
    RollLimit,
}

/// RN-E3: what the game knows of a stand-off ([`RocNoir::is_standoff`]), as of the last end
/// of a turn. Public, like everything the check reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Standoff {
    /// The position was no stand-off (or has not been looked at since this version).
    #[default]
    None,
    /// A stand-off: the draw on offer is for it.
    Offered,
    /// A stand-off whose draw someone refused: no new offer until the position has stopped
    /// being a stand-off and become one again.
    PlayedOn,
}

impl Standoff {
    /// Whether nothing is known of a stand-off (what old saves hold; not saved).
    pub(crate) fn is_none(&self) -> bool {
        *self == Standoff::None
    }
}

/// The way back out of a gallery (RN-G4, RN-R3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exit {
    /// The node the knight came in from.
    pub to: Node,
    /// Whether it came in by a jump: it goes back by a jump, handing back a rope if the
    /// player still has one (RN-R3).
    pub jumped: bool,
}

/// A game of Le Château du roc noir: the whole state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "saved::Saved", try_from = "saved::Saved")]
pub struct RocNoir {
    /// Number of players (2–4).
    pub(crate) players: u8,
    /// Assisted mode: revealed trapdoors stay marked (RN-P4).
    pub(crate) assisted: bool,
    /// What stands in each corner room (0–2 a gallery of that colour, [`ENTRANCE`]).
    pub(crate) corners: [u8; 4],
    /// Per tile, the position (0–3) of its trapdoor (RN-B2). Hidden.
    pub(crate) traps: [u8; TILES],
    /// Tiles whose trapdoor everyone has seen (a bit per tile).
    pub(crate) revealed: u32,
    /// Per tile, the positions everyone knows are not the trapdoor (a bit per position).
    pub(crate) safe: [u8; TILES],
    /// Tiles whose trapdoor is shown now (memory mode: revealed this turn, RN-P4).
    pub(crate) shown: u32,
    /// Each knight's node, per seat and helmet.
    pub(crate) pos: [[Node; 3]; 4],
    /// Knights that have visited the gallery of their helmet (a bit per helmet, RN-G1).
    pub(crate) visited: [u8; 4],
    /// Ropes left per seat (RN-R1).
    pub(crate) ropes: [u8; 4],
    /// Each seat's rail: up to two portraits beside each helmet colour ([`NO`]: empty).
    pub(crate) rail: [[[Portrait; 2]; 3]; 4],
    /// The galleries' piles, top first. The order of the first `unknown[g]` is hidden.
    pub(crate) piles: [Vec<Portrait>; 3],
    /// How many of each pile's top portraits nobody has seen (the rest were slid under).
    pub(crate) unknown: [u8; 3],
    /// The seat to play.
    pub(crate) turn: u8,
    /// Where the turn stands.
    pub(crate) phase: Phase,
    /// The die's last face (0–5, faces 0–1 black, 2–3 grey, 4–5 white; [`RING_FACE`] shows
    /// the ring).
    pub(crate) die: Option<u8>,
    /// The moving knight's helmet ([`NO`] before it is known).
    pub(crate) active: u8,
    /// Steps and jumps of this move that arrived (a fall does not count), up to 255: zero
    /// means the knight has not moved (RN-G6). It limits nothing (RN-T2).
    pub(crate) steps: u8,
    /// Galleries entered in this move (a bit per colour, RN-G4).
    pub(crate) entered: u8,
    /// The way out of the gallery the moving knight is in.
    pub(crate) exit: Option<Exit>,
    /// The gallery being exchanged with (phase [`Phase::Exchange`]).
    pub(crate) gallery: u8,
    /// The last fall: the knight (seat × 3 + helmet) and the trapdoor square.
    pub(crate) fell: Option<(u8, Node)>,
    /// Die rolls so far.
    pub(crate) rolls: u32,
    /// The roll count at which the safety net next offers a draw.
    pub(crate) draw_offer_at: u32,
    /// How many players have accepted the draw on offer (they answer in turn, starting with
    /// the player to roll).
    pub(crate) draw_accepted: u8,
    /// RN-E3: the stand-off seen at the last end of a turn, offered or played on.
    pub(crate) standoff: Standoff,
    /// The seeded generator (die, and nothing else after set-up).
    pub(crate) rng: GameRng,
    /// How the game ended.
    pub(crate) ending: Option<Ending>,
    /// House rule « trappe coûteuse » (command `costly_trapdoor`): a fall costs a rope.
    pub(crate) costly_trapdoor: bool,
    /// House rule « le château fort enchanté » (command `enchanted_castle`): the quarter
    /// turns of the castle's picture, 0–3; `None` when the rule is off.
    pub(crate) castle_turns: Option<u8>,
    /// The nodes the moving knight stood on in this move since something was last learnt (a
    /// bit per node): what a bot does not step back onto ([`bot`]). Public: everyone saw the
    /// knight go there. Not a rule: it limits nothing for people (RN-T2).
    pub(crate) trail: u128,
}

impl RocNoir {
    /// A new game with the given layout and trapdoors (tests and set-up). `corners[r]` is
    /// what stands in corner room `r`; `traps[t]` the trapdoor's position on tile `t`.
    pub fn with_layout(
        players: u8,
        seed: u64,
        assisted: bool,
        corners: [u8; 4],
        traps: [u8; TILES],
    ) -> Self {
        let mut rng = GameRng::new(seed);
        // RN-S: pairs 1–6, 1–9 or 1–12; each pile holds the portraits with its back.
        let pairs = players * 3;
        let mut piles: [Vec<Portrait>; 3] = Default::default();
        for p in 0..pairs * 2 {
            piles[back(p) as usize].push(p);
        }
        for pile in &mut piles {
            rng.shuffle(pile);
        }
        let unknown = [0, 1, 2].map(|g| piles[g].len() as u8);
        let entrance = ROOM + corners.iter().position(|&c| c == ENTRANCE).unwrap_or(0) as u8;
        let mut pos = [[NO; 3]; 4];
        for seat in pos.iter_mut().take(players as usize) {
            *seat = [entrance; 3];
        }
        RocNoir {
            players,
            assisted,
            corners,
            traps,
            revealed: 0,
            safe: [0; TILES],
            shown: 0,
            pos,
            visited: [0; 4],
            ropes: [ROPES; 4],
            rail: [[[NO; 2]; 3]; 4],
            piles,
            unknown,
            turn: 0,
            phase: Phase::Roll,
            die: None,
            active: NO,
            steps: 0,
            entered: 0,
            exit: None,
            gallery: 0,
            fell: None,
            rolls: 0,
            draw_offer_at: DRAW_OFFER_ROLLS,
            draw_accepted: 0,
            standoff: Standoff::None,
            rng,
            ending: None,
            costly_trapdoor: false,
            castle_turns: None,
            trail: 0,
        }
    }

    /// The entrance's node.
    pub fn entrance(&self) -> Node {
        self.room_node(ENTRANCE)
    }

    /// The node of the corner room holding `what` (a gallery colour or [`ENTRANCE`]).
    pub fn room_node(&self, what: u8) -> Node {
        ROOM + self.corners.iter().position(|&c| c == what).unwrap_or(0) as u8
    }

    /// The gallery colour of a node, if it is a gallery.
    pub fn gallery_of(&self, n: Node) -> Option<u8> {
        (ROOM..TREASURE)
            .contains(&n)
            .then(|| self.corners[(n - ROOM) as usize])
            .filter(|&c| c < 3)
    }

    /// A node's name: `c3`, `entrance`, `black` (the black gallery), `treasure`.
    pub fn node_name(&self, n: Node) -> String {
        if n == TREASURE {
            "treasure".into()
        } else if n >= ROOM {
            match self.corners[(n - ROOM) as usize] {
                ENTRANCE => "entrance".into(),
                g => HELMETS[g as usize].into(),
            }
        } else {
            board::square_name(n)
        }
    }

    /// The node named by [`RocNoir::node_name`].
    pub fn parse_node(&self, name: &str) -> Option<Node> {
        match name {
            "treasure" => Some(TREASURE),
            "entrance" => Some(self.entrance()),
            _ => match HELMETS.iter().position(|&h| h == name) {
                Some(g) => Some(self.room_node(g as u8)),
                None => board::parse_square(name),
            },
        }
    }

    /// A node's name in words, French and English.
    pub fn node_words(&self, n: Node) -> Text {
        if n == TREASURE {
            text("la chambre du trésor", "the treasure room")
        } else if n >= ROOM {
            match self.corners[(n - ROOM) as usize] {
                ENTRANCE => text("l'entrée", "the entrance"),
                g => text(
                    format!("la galerie {}", gallery_fr(g)),
                    format!("the {} gallery", HELMETS[g as usize]),
                ),
            }
        } else {
            let s = board::square_name(n);
            text(s.clone(), s)
        }
    }

    /// Whose turn it is.
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The seat that has a decision to make: the player whose turn it is, or, while the
    /// game offers a draw (RN-E3 or the safety net), the next player to answer.
    pub fn to_act(&self) -> u8 {
        if self.phase == Phase::DrawOffer {
            (self.turn + self.draw_accepted) % self.players
        } else {
            self.turn
        }
    }

    /// Where the turn stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// How the game ended.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// Die rolls so far.
    pub fn rolls(&self) -> u32 {
        self.rolls
    }

    /// The die's last face (0–5), if rolled.
    pub fn die(&self) -> Option<u8> {
        self.die
    }

    /// Which seat's knight stands on a node (seat, helmet), the first found.
    pub(crate) fn knight_on(&self, n: Node) -> Option<(u8, u8)> {
        for s in 0..self.players {
            for h in 0..3 {
                if self.pos[s as usize][h as usize] == n {
                    return Some((s, h));
                }
            }
        }
        None
    }

    /// Whether a node holds a knight.
    pub(crate) fn occupied(&self, n: Node) -> bool {
        self.knight_on(n).is_some()
    }
}

/// The French adjective of a gallery colour (feminine).
pub fn gallery_fr(g: u8) -> &'static str {
    ["noire", "grise", "blanche"][g as usize]
}

/// Helmet colours as drawn.
pub fn helmet_colour(h: u8) -> Colour {
    match h {
        0 => Colour::rgb(30, 30, 30),
        1 => Colour::rgb(140, 140, 140),
        _ => Colour::rgb(240, 240, 235),
    }
}

/// Seat colours as drawn.
pub fn seat_colour(s: u8) -> Colour {
    match s {
        0 => Colour::rgb(200, 50, 40),
        1 => Colour::rgb(40, 90, 200),
        2 => Colour::rgb(230, 190, 30),
        _ => Colour::rgb(40, 150, 60),
    }
}

impl Game for RocNoir {
    type Move = Move;

    fn manifest() -> Manifest {
        Manifest {
            id: "roc-noir".into(),
            name: text(
                "Le Château du roc noir",
                "Le Château du roc noir (Blackrock Castle)",
            ),
            description: text(
                "Menez vos trois chevaliers à travers un château aux trappes cachées, trouvez \
                 des paires de portraits d'ancêtres dans les galeries et entrez tous trois dans \
                 la chambre du trésor. Jeu familial de Gunter Baars (2000).",
                "Lead your three knights through a castle of hidden trapdoors, fetch pairs of \
                 ancestor portraits from the galleries and bring all three into the treasure \
                 room. A family game by Gunter Baars (2000).",
            ),
            version: "1.1.0".into(),
            min_players: 2,
            max_players: 4,
            seats: (0..4)
                .map(|s| SeatInfo {
                    name: text(SEAT_FR[s], SEAT_EN[s]),
                    colour: seat_colour(s as u8),
                })
                .collect(),
            options: vec![OptionSpec {
                id: "mode".into(),
                label: text("Trappes révélées", "Revealed trapdoors"),
                kind: OptionKind::Choice {
                    choices: vec![
                        Choice {
                            id: "memory".into(),
                            label: text(
                                "De mémoire : visibles jusqu'au tour suivant",
                                "Memory: shown until the next turn",
                            ),
                        },
                        Choice {
                            id: "assisted".into(),
                            label: text("Assisté : restent marquées", "Assisted: stay marked"),
                        },
                    ],
                    default: "memory".into(),
                },
            }],
            hidden_information: true,
            operations: ops::specs(),
            rules: Some(veillee_sdk::Rules::new(
                include_str!("../rules/fr.md"),
                include_str!("../rules/en.md"),
            )),
            // The author's estimate for people who know the rules (no box to quote).
            play_time: Some(veillee_sdk::PlayTime::minutes(30, 60)),
        }
    }

    fn new(setup: &Setup) -> Result<Self, GameError> {
        if !(2..=4).contains(&setup.players) {
            return Err(GameError::InvalidSetup(format!(
                "Le Château du roc noir plays with 2–4 players, not {}",
                setup.players
            )));
        }
        let assisted = setup.choice("mode") == Some("assisted");
        // RN-B1, RN-B2: the rooms' corners and the trapdoors come from the seed, with a
        // generator of their own so that the game's generator only serves the die.
        let mut layout = GameRng::new(setup.seed ^ 0x005e_ed0f_b1ac_4c0c);
        let mut corners = [0, 1, 2, ENTRANCE];
        layout.shuffle(&mut corners);
        let traps = [0; TILES].map(|_| layout.below(4) as u8);
        Ok(RocNoir::with_layout(
            setup.players,
            setup.seed,
            assisted,
            corners,
            traps,
        ))
    }

    fn status(&self) -> Status {
        match self.ending {
            Some(Ending::Won(s)) => Status::Finished {
                outcome: Outcome::win(
                    s,
                    text(
                        "trois chevaliers dans la chambre du trésor",
                        "three knights in the treasure room",
                    ),
                ),
            },
            Some(Ending::DrawAgreed) => Status::Finished {
                outcome: Outcome::draw(text(
                    format!(
                        "partie nulle acceptée par tous après {} lancers (limite de sécurité)",
                        self.rolls
                    ),
                    format!(
                        "draw accepted by everyone after {} rolls (safety limit)",
                        self.rolls
                    ),
                )),
            },
            Some(Ending::StandoffAgreed) => Status::Finished {
                outcome: Outcome::draw(text(
                    format!(
                        "partie nulle acceptée par tous après {} lancers : impasse, plus \
                         personne ne peut compléter de paire sans compléter aussi celle de sa \
                         victime",
                        self.rolls
                    ),
                    format!(
                        "draw accepted by everyone after {} rolls: a stand-off, nobody can \
                         complete a pair any more without completing their victim's too",
                        self.rolls
                    ),
                )),
            },
            Some(Ending::RollLimit) => Status::Finished {
                outcome: Outcome::draw(text(
                    "limite de 1500 lancers atteinte (version 1.0.0)",
                    "1500-roll limit reached (version 1.0.0)",
                )),
            },
            None => Status::to_act(self.to_act()),
        }
    }

    fn seats_to_act(&self, out: &mut Vec<Seat>) -> bool {
        out.clear();
        if self.ending.is_some() {
            return false;
        }
        out.push(self.to_act());
        true
    }

    fn moves(&self, seat: Seat) -> Vec<Move> {
        let mut moves = Vec::with_capacity(16);
        self.moves_into(seat, &mut moves);
        moves
    }

    fn moves_into(&self, seat: Seat, out: &mut Vec<Move>) {
        out.clear();
        if self.ending.is_none() && seat == self.to_act() {
            self.legal_moves_into(out);
        }
    }

    fn describe(&self, seat: Seat, mv: &Move) -> Action {
        Action::new(
            self.move_id(seat, mv),
            self.label(seat, mv),
            self.path(seat, mv),
        )
    }

    fn evaluate(&self, seat: Seat) -> f32 {
        eval::evaluate(self, seat)
    }

    /// A bot never steps back onto a square its knight already stood on in this move unless
    /// something was learnt since (`bot.rs`): RN-T2 sets no limit to a move.
    fn bot_may_choose(&self, _seat: Seat, mv: &Move) -> bool {
        bot::may_choose(self, mv)
    }

    fn move_id(&self, _seat: Seat, mv: &Move) -> String {
        match *mv {
            Move::Roll => "roll".into(),
            Move::Choose(h) => format!("knight-{}", HELMETS[h as usize]),
            Move::Step(n) => format!("step-{}", self.node_name(n)),
            Move::Jump(n) => format!("jump-{}", self.node_name(n)),
            Move::Stop => "stop".into(),
            Move::Swap(a, b) if b == NO => format!("swap-{}", number(a)),
            Move::Swap(a, b) => format!("swap-{}-{}", number(a), number(b)),
            Move::Keep => "keep".into(),
            Move::Pair { n, to } => format!("pair-{n}-{}", HELMETS[to as usize]),
            Move::Rob { victim, give } => format!(
                "rob-{}-{}-give-{}",
                SEAT_IDS[(victim / 3) as usize],
                HELMETS[(victim % 3) as usize],
                number(give)
            ),
            Move::NoRob => "no-rob".into(),
            Move::AcceptDraw => "accept-draw".into(),
            Move::PlayOn => "play-on".into(),
        }
    }

    fn play(&mut self, seat: Seat, mv: &Move, log: &mut Log) {
        debug_assert_eq!(seat, self.to_act());
        self.apply(*mv, log);
    }

    fn view(&self, viewer: Option<Seat>) -> Scene {
        self.scene(viewer)
    }

    /// Read-only operations for variant scripts (`ops.rs`): the die's last face, the rolls.
    fn query(&self, name: &str, args: &serde_json::Value) -> Result<serde_json::Value, GameError> {
        ops::query(self, name, args)
    }

    /// Commands for variant scripts (`ops.rs`): a seat's ropes down or up.
    fn command(
        &mut self,
        name: &str,
        args: &serde_json::Value,
    ) -> Result<serde_json::Value, GameError> {
        ops::command(self, name, args)
    }

    /// Re-draws what nobody has seen (every viewer knows the same): the trapdoors of the
    /// tiles not yet revealed, among the squares not known to be safe; the unseen top of
    /// each pile; and the generator (the future die rolls).
    fn redraw_hidden(&mut self, _viewer: Option<Seat>, rng: &mut GameRng) {
        for t in 0..TILES {
            if self.revealed & (1 << t) != 0 {
                continue;
            }
            let candidates: Vec<u8> = (0..4u8).filter(|&p| self.could_be_trap(t, p)).collect();
            if let Some(&p) = rng.pick(&candidates) {
                self.traps[t] = p;
            }
        }
        for g in 0..3 {
            let k = self.unknown[g] as usize;
            // Sorted first: the re-draw depends only on what is known and the seed, not on
            // the true order (a bot's search sees the same worlds from the game or a copy).
            self.piles[g][..k].sort_unstable();
            rng.shuffle(&mut self.piles[g][..k]);
        }
        self.rng = GameRng::new(rng.next_u64());
    }
}

impl RocNoir {
    /// The click path of a move.
    fn path(&self, seat: Seat, mv: &Move) -> Vec<Target> {
        let s = seat as usize;
        let knight = |h: u8| Target::piece(scene::knight_id(seat, h));
        match *mv {
            Move::Roll
            | Move::Stop
            | Move::Keep
            | Move::NoRob
            | Move::AcceptDraw
            | Move::PlayOn => vec![],
            Move::Choose(h) => vec![knight(h)],
            Move::Step(n) | Move::Jump(n) => {
                let from = self.pos[s][self.active as usize];
                let at = if matches!(mv, Move::Step(_)) {
                    board::steps(from).find(|st| st.to == n).map(|st| st.at)
                } else {
                    board::jumps(from).find(|j| j.to == n).map(|j| j.at)
                };
                let (x, y) = at.unwrap_or((0, 0));
                vec![
                    knight(self.active),
                    Target::cell(BOARD_ID, x as u16, y as u16),
                ]
            }
            Move::Swap(a, b) => {
                // RN-G3: the entering knight's portraits.
                let h = self.active;
                let mut path = vec![Target::Card {
                    id: scene::rail_card_id(seat, h, a),
                }];
                if b != NO {
                    path.push(Target::Card {
                        id: scene::rail_card_id(seat, h, b),
                    });
                }
                path
            }
            Move::Pair { n, to } => {
                let giver = (0..3u8)
                    .find(|&h| {
                        h != to
                            && self.rail[s][h as usize]
                                .iter()
                                .any(|&p| p != NO && number(p) == n)
                    })
                    .unwrap_or(0);
                let card = self.rail[s][giver as usize]
                    .iter()
                    .copied()
                    .find(|&p| p != NO && number(p) == n)
                    .unwrap_or(0);
                vec![
                    Target::Card {
                        id: scene::rail_card_id(seat, giver, card),
                    },
                    knight(to),
                ]
            }
            Move::Rob { victim, give } => vec![
                Target::piece(scene::knight_id(victim / 3, victim % 3)),
                Target::Card {
                    id: scene::rail_card_id(seat, self.active, give),
                },
            ],
        }
    }

    /// A move in words.
    fn label(&self, seat: Seat, mv: &Move) -> Text {
        let _ = seat;
        match *mv {
            Move::Roll => text("Lancer le dé", "Roll the die"),
            Move::Choose(h) => text(
                format!("Déplacer le chevalier {}", HELMETS_FR[h as usize]),
                format!("Move the {} knight", HELMETS[h as usize]),
            ),
            Move::Step(n) => {
                let w = self.node_words(n);
                text(format!("Aller sur {}", w.fr), format!("Step to {}", w.en))
            }
            Move::Jump(n) => {
                let w = self.node_words(n);
                if self.free_jump(n) {
                    text(
                        format!("Ressortir en sautant vers {}, sans corde", w.fr),
                        format!("Jump back out to {}, without a rope", w.en),
                    )
                } else if self.exit_jump(n) {
                    text(
                        format!("Rendre une corde et ressortir en sautant vers {}", w.fr),
                        format!("Hand back a rope and jump back out to {}", w.en),
                    )
                } else {
                    text(
                        format!("Rendre une corde et sauter sur {}", w.fr),
                        format!("Hand back a rope and jump to {}", w.en),
                    )
                }
            }
            Move::Stop => text("S'arrêter ici", "Stop here"),
            Move::Swap(a, b) if b == NO => text(
                format!("Échanger le portrait {}", number(a)),
                format!("Exchange portrait {}", number(a)),
            ),
            Move::Swap(a, b) => text(
                format!("Échanger les portraits {} et {}", number(a), number(b)),
                format!("Exchange portraits {} and {}", number(a), number(b)),
            ),
            Move::Keep => text("Garder ses portraits", "Keep the portraits"),
            Move::Pair { n, to } => text(
                format!(
                    "Réunir la paire {n} chez le chevalier {}",
                    HELMETS_FR[to as usize]
                ),
                format!(
                    "Give the pair of {n} to the {} knight",
                    HELMETS[to as usize]
                ),
            ),
            Move::Rob { victim, give } => {
                let (vs, vh) = ((victim / 3) as usize, (victim % 3) as usize);
                text(
                    format!(
                        "Voler le chevalier {} de {} en lui donnant le portrait {}",
                        HELMETS_FR[vh],
                        SEAT_FR[vs],
                        number(give)
                    ),
                    format!(
                        "Rob {}'s {} knight, giving it portrait {}",
                        SEAT_EN[vs],
                        HELMETS[vh],
                        number(give)
                    ),
                )
            }
            Move::NoRob => text("Ne pas voler", "Do not rob"),
            Move::AcceptDraw => text("Accepter la partie nulle", "Accept the draw"),
            Move::PlayOn => text("Continuer la partie", "Play on"),
        }
    }
}

veillee_sdk::export_game!(RocNoir);
