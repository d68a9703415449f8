//! The rules: legal moves and their effects. Comments cite the spec's rule ids.

use veillee_sdk::{text, Event, Log};

use crate::board::{self, Node, NO, TREASURE};
use crate::{
    back, gallery_fr, number, Ending, Exit, Move, Phase, Portrait, RocNoir, Standoff,
    DRAW_REOFFER_ROLLS, HELMETS, HELMETS_FR, RING_FACE, SEAT_EN, SEAT_FR,
};

impl RocNoir {
    // -----------------------------------------------------------------------------------
    // Knowledge

    /// Whether the trapdoor of tile `t` could be at position `p` for someone who saw the
    /// whole game: not a square known to be safe, and not a square a knight stands on
    /// without a counterweight on the diagonal (it would have fallen, RN-P1/RN-P2).
    pub(crate) fn could_be_trap(&self, t: usize, p: u8) -> bool {
        if self.revealed & (1 << t) != 0 {
            return self.traps[t] == p;
        }
        if self.safe[t] & (1 << p) != 0 {
            return false;
        }
        !self.occupied(board::tile_square(t, p)) || self.held_shut(t, p)
    }

    /// Whether the trapdoor position `p` of tile `t` is held shut: a knight stands as a
    /// counterweight on the square diagonally opposite on the same tile (RN-P2).
    pub(crate) fn held_shut(&self, t: usize, p: u8) -> bool {
        self.occupied(board::tile_square(t, board::diagonal(p)))
    }

    /// Whether the rail slot of helmet `h` of seat `s` holds a pair (RN-E1).
    pub fn holds_pair(&self, s: u8, h: u8) -> bool {
        let [a, b] = self.rail[s as usize][h as usize];
        a != NO && b != NO && number(a) == number(b)
    }

    /// RN-G3: whether the player to move holds portraits from gallery `g` beside a knight
    /// still in play (a pair in the treasure room is out of the game).
    fn holds_from_gallery(&self, g: u8) -> bool {
        let s = self.turn;
        (0..3u8).any(|h| {
            !self.home(s, h)
                && self.rail[s as usize][h as usize]
                    .iter()
                    .any(|&p| p != NO && back(p) == g)
        })
    }

    /// RN-G3: the portraits from gallery `g` beside the moving knight, the ones it may slide
    /// under the pile (« 1 ou 2 portraits d'ancêtres du chevalier qui a pénétré »).
    fn exchangeable(&self, g: u8) -> Vec<Portrait> {
        self.rail[self.turn as usize][self.active as usize]
            .iter()
            .copied()
            .filter(|&p| p != NO && back(p) == g)
            .collect()
    }

    /// Whether a knight (seat, helmet) is in the treasure room.
    fn home(&self, s: u8, h: u8) -> bool {
        self.pos[s as usize][h as usize] == TREASURE
    }

    /// Whether the jump to `n` is the way back out of a gallery entered by a jump (RN-R3).
    pub(crate) fn exit_jump(&self, n: Node) -> bool {
        matches!(self.exit, Some(Exit { to, jumped: true }) if to == n)
    }

    /// Whether the jump to `n` costs nothing: only the jump back out of a gallery, and only
    /// when the player has no rope left to hand back (RN-R3, question 2 of the rulebook).
    pub(crate) fn free_jump(&self, n: Node) -> bool {
        self.exit_jump(n) && self.ropes[self.turn as usize] == 0
    }

    // -----------------------------------------------------------------------------------
    // Legal moves

    /// The legal moves of the seat to play.
    pub(crate) fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        match self.phase {
            Phase::Roll => {
                out.push(Move::Roll);
                self.pair_moves(out);
            }
            Phase::Choose => {
                // RN-T1: another knight instead of the one in the treasure room.
                for h in 0..3 {
                    if !self.home(self.turn, h) {
                        out.push(Move::Choose(h));
                    }
                }
            }
            Phase::Move => {
                self.move_moves(out);
                self.pair_moves(out);
            }
            Phase::Exchange => {
                // RN-G3: one or two of the entering knight's portraits from this gallery go
                // under the pile.
                let from = self.exchangeable(self.gallery);
                for &p in &from {
                    out.push(Move::Swap(p, NO));
                }
                if from.len() == 2 {
                    out.push(Move::Swap(from[0], from[1]));
                }
                out.push(Move::Keep);
            }
            Phase::Brigand => {
                self.rob_moves(out);
                out.push(Move::NoRob);
            }
            Phase::DrawOffer => {
                // RN-E3, or the safety net: a draw only if every player accepts.
                out.push(Move::AcceptDraw);
                out.push(Move::PlayOn);
            }
        }
    }

    /// Whether the moving knight may enter node `n` (rooms and occupancy, RN-B1, RN-G1,
    /// RN-G4, RN-E1).
    fn enterable(&self, n: Node) -> bool {
        let (s, h) = (self.turn, self.active);
        if n == TREASURE {
            return self.holds_pair(s, h); // RN-E1
        }
        if n == self.entrance() {
            return true; // any number of knights
        }
        if let Some(g) = self.gallery_of(n) {
            // RN-G1: own gallery first; RN-G4: each gallery once per move.
            let own_first = g == h || self.visited[s as usize] & (1 << h) != 0;
            return own_first && self.entered & (1 << g) == 0 && !self.occupied(n);
        }
        !self.occupied(n) // RN-B1: one knight per square
    }

    /// Steps, jumps and stopping (RN-T2, RN-R1, RN-G4).
    fn move_moves(&self, out: &mut Vec<Move>) {
        let (s, h) = (self.turn as usize, self.active as usize);
        let at = self.pos[s][h];
        if let Some(exit) = self.exit {
            // RN-G4 / RN-R3: the knight leaves the gallery by the square it came in by.
            if !self.occupied(exit.to) || exit.to == self.entrance() {
                out.push(if exit.jumped {
                    Move::Jump(exit.to)
                } else {
                    Move::Step(exit.to)
                });
            } else {
                // Interpretation: that square got occupied (a counterweight fall put a knight
                // there): the knight stays in the gallery.
                out.push(Move::Stop);
            }
            return;
        }
        // RN-T2: « aussi loin que vous voulez »: no limit on the steps of a move.
        for st in board::steps(at) {
            if self.enterable(st.to) {
                out.push(Move::Step(st.to));
            }
        }
        if self.ropes[s] > 0 {
            for j in board::jumps(at) {
                if self.enterable(j.to) {
                    out.push(Move::Jump(j.to));
                }
            }
        }
        out.push(Move::Stop);
    }

    /// RN-G5: a portrait number held beside two of the player's knights can be gathered
    /// into a pair beside either (knights in the treasure room keep their pair).
    fn pair_moves(&self, out: &mut Vec<Move>) {
        let s = self.turn;
        let rail = &self.rail[s as usize];
        for a in 0..3u8 {
            if self.home(s, a) {
                continue;
            }
            for b in (a + 1)..3u8 {
                if self.home(s, b) {
                    continue;
                }
                for &p in &rail[a as usize] {
                    if p == NO {
                        continue;
                    }
                    let n = number(p);
                    if rail[b as usize].iter().any(|&q| q != NO && number(q) == n) {
                        out.push(Move::Pair { n, to: a });
                        out.push(Move::Pair { n, to: b });
                    }
                }
            }
        }
    }

    /// RN-G6: the knight that stopped next to an opposing knight with a common portrait
    /// may take it, giving one of its other portraits — only if it arrived there in this
    /// move (« le propre chevalier doit être déplacé … sur une case à côté », « le chevalier
    /// qui arrive »): not after stopping at once, nor after falling on its first step.
    fn rob_moves(&self, out: &mut Vec<Move>) {
        if self.steps == 0 {
            return;
        }
        let (s, h) = (self.turn, self.active);
        let at = self.pos[s as usize][h as usize];
        let mine = self.rail[s as usize][h as usize];
        for st in board::steps(at) {
            if st.to == TREASURE {
                continue; // its pair can no longer be stolen (RN-E1)
            }
            for o in 0..self.players {
                if o == s {
                    continue;
                }
                for vh in 0..3u8 {
                    if self.pos[o as usize][vh as usize] != st.to {
                        continue;
                    }
                    let theirs = self.rail[o as usize][vh as usize];
                    for (i, &x) in mine.iter().enumerate() {
                        let give = mine[1 - i];
                        if x == NO || give == NO {
                            continue;
                        }
                        if theirs.iter().any(|&q| q != NO && number(q) == number(x)) {
                            out.push(Move::Rob {
                                victim: o * 3 + vh,
                                give,
                            });
                        }
                    }
                }
            }
        }
    }

    // -----------------------------------------------------------------------------------
    // Playing

    /// Plays a legal move.
    pub(crate) fn apply(&mut self, mv: Move, log: &mut Log) {
        match mv {
            Move::Roll => {
                self.roll(log);
                self.turn_the_castle(log);
            }
            Move::Choose(h) => {
                self.active = h;
                self.phase = Phase::Move;
                log.record(|| {
                    Event::new(text(
                        format!(
                            "{} déplace son chevalier {}",
                            SEAT_FR[self.turn as usize], HELMETS_FR[h as usize]
                        ),
                        format!(
                            "{} moves the {} knight",
                            SEAT_EN[self.turn as usize], HELMETS[h as usize]
                        ),
                    ))
                });
            }
            Move::Step(n) => {
                let fell_before = self.fell.is_some();
                self.go(n, None, log);
                self.charge_fall(fell_before, log);
            }
            Move::Jump(n) => {
                let from = self.pos[self.turn as usize][self.active as usize];
                let over = board::jumps(from).find(|j| j.to == n).map(|j| j.over);
                let fell_before = self.fell.is_some();
                self.go(n, over, log);
                self.charge_fall(fell_before, log);
            }
            Move::Stop => {
                log.record(|| {
                    Event::new(text(
                        format!("{} s'arrête", SEAT_FR[self.turn as usize]),
                        format!("{} stops", SEAT_EN[self.turn as usize]),
                    ))
                });
                self.end_move();
            }
            Move::Swap(a, b) => self.swap(a, b, log),
            Move::Keep => {
                self.phase = Phase::Move;
            }
            Move::Pair { n, to } => self.pair(n, to, log),
            Move::Rob { victim, give } => {
                self.rob(victim, give, log);
                self.next_turn();
            }
            Move::NoRob => self.next_turn(),
            Move::AcceptDraw => self.accept_draw(log),
            Move::PlayOn => self.play_on(log),
        }
    }

    /// House rule « trappe coûteuse » (command `costly_trapdoor`), after a step or jump:
    /// the first fall of a turn (RN-P1, RN-P2) costs the fallen knight's player a rope, if
    /// one is left (RN-R1) and the game goes on. A second fall in the same turn is free.
    fn charge_fall(&mut self, fell_before: bool, log: &mut Log) {
        let Some((knight, _)) = self.fell else {
            return;
        };
        let seat = (knight / 3) as usize;
        if !self.costly_trapdoor || fell_before || self.ending.is_some() || self.ropes[seat] == 0 {
            return;
        }
        self.ropes[seat] -= 1;
        let left = self.ropes[seat];
        log.record(|| {
            let player = seat + 1;
            Event::new(text(
                format!(
                    "Trappe coûteuse : le joueur {player} rend une corde (il lui en reste {left})"
                ),
                format!("Costly trapdoor: player {player} hands back a rope ({left} left)"),
            ))
        });
    }

    /// House rule « le château fort enchanté » (command `enchanted_castle`), after a roll
    /// (RN-T1) that shows the ring: the castle's picture turns a quarter turn clockwise.
    /// Squares, trapdoors, moves and rules stay the same.
    fn turn_the_castle(&mut self, log: &mut Log) {
        let Some(turns) = self.castle_turns.as_mut() else {
            return;
        };
        if self.die != Some(RING_FACE) {
            return;
        }
        *turns = (*turns + 1) % 4;
        let degrees = u32::from(*turns) * 90;
        log.record(|| {
            Event::new(text(
                format!(
                    "L'anneau ! Le château tourne d'un quart de tour (il est maintenant tourné \
                     de {degrees}°)"
                ),
                format!(
                    "The ring! The castle turns a quarter turn (it now stands turned {degrees}°)"
                ),
            ))
        });
    }

    /// RN-T1: rolls the knight die. A reveal: undo never crosses it.
    fn roll(&mut self, log: &mut Log) {
        let face = self.rng.below(6) as u8;
        self.die = Some(face);
        self.rolls += 1;
        self.shown = 0; // RN-P4: memory mode forgets at the start of a turn
        self.fell = None;
        let h = face / 2;
        log.record(|| {
            let ring = face == RING_FACE;
            Event::reveal(text(
                format!(
                    "{} lance le dé : casque {}{}",
                    SEAT_FR[self.turn as usize],
                    HELMETS_FR[h as usize],
                    if ring { " et l'anneau" } else { "" }
                ),
                format!(
                    "{} rolls the die: {} helmet{}",
                    SEAT_EN[self.turn as usize],
                    HELMETS[h as usize],
                    if ring { " with the ring" } else { "" }
                ),
            ))
        });
        if self.home(self.turn, h) {
            self.active = NO;
            self.phase = Phase::Choose;
        } else {
            self.active = h;
            self.phase = Phase::Move;
        }
    }

    /// One step or jump (`over`: the node jumped over) of the moving knight (RN-T2, RN-P,
    /// RN-R, RN-G). Every step onto a flagstone is a reveal.
    fn go(&mut self, to: Node, over: Option<Node>, log: &mut Log) {
        let (s, h) = (self.turn as usize, self.active as usize);
        let from = self.pos[s][h];
        if over.is_some() {
            // RN-R1: a rope per jump. RN-R3: the jump back out of a gallery is free only to
            // a player without a rope (the only jump legal without one).
            self.ropes[s] = self.ropes[s].saturating_sub(1);
        }
        self.exit = None;
        let me = self.turn * 3 + self.active;
        let mover = (self.turn, self.active);
        log.record(|| {
            let w = self.node_words(to);
            let (fr, en) = if over.is_some() {
                ("saute sur", "jumps to")
            } else {
                ("va sur", "steps to")
            };
            let who = knight_words(mover.0, mover.1);
            let t = text(
                format!("{} {fr} {}", who.fr, w.fr),
                format!("{} {en} {}", who.en, w.en),
            );
            if board::is_room(to) {
                Event::new(t)
            } else {
                Event::reveal(t)
            }
        });
        // Whether this step taught everyone something (`bot.rs`).
        let mut learnt = false;
        // RN-P1 / RN-R2: a trapdoor not held by a counterweight (RN-P2) sends the knight
        // back where it came from (the jump's start) and ends the move.
        if let Some((t, p)) = board::tile_of(to) {
            let held = self.held_shut(t, p);
            if self.traps[t] == p {
                if !held {
                    self.reveal(t);
                    self.fell = Some((me, to));
                    log.record(|| {
                        Event::reveal(text(
                            format!(
                                "Une trappe en {} ! Le chevalier retombe",
                                board::square_name(to)
                            ),
                            format!(
                                "A trapdoor on {}! The knight falls back",
                                board::square_name(to)
                            ),
                        ))
                    });
                    // RN-P3: knights beside the trapdoor stay where they are.
                    self.end_move();
                    return;
                }
            } else if !held {
                learnt |= self.safe[t] & (1 << p) == 0;
                self.safe[t] |= 1 << p;
            }
        }
        self.pos[s][h] = to;
        // Counts arrivals only (a fall above returned first): RN-G6 needs a knight that moved.
        self.steps = self.steps.saturating_add(1);
        // RN-P2: leaving a counterweight square drops the knight on the diagonal trapdoor
        // onto the square just left.
        if let Some((t, p)) = board::tile_of(from) {
            let d = board::diagonal(p);
            let diag = board::tile_square(t, d);
            if let Some((vs, vh)) = self.knight_on(diag) {
                if self.traps[t] == d {
                    learnt = true;
                    self.reveal(t);
                    self.pos[vs as usize][vh as usize] = from;
                    self.fell = Some((vs * 3 + vh, diag));
                    log.record(|| {
                        let who = knight_words(vs, vh);
                        Event::reveal(text(
                            format!(
                                "Le contrepoids part : {} tombe par la trappe en {} sur {}",
                                who.fr,
                                board::square_name(diag),
                                board::square_name(from)
                            ),
                            format!(
                                "The counterweight leaves: {} falls through the trapdoor on {} onto {}",
                                who.en,
                                board::square_name(diag),
                                board::square_name(from)
                            ),
                        ))
                    });
                } else {
                    // The knight on the diagonal did not fall: its square is safe.
                    learnt |= self.safe[t] & (1 << d) == 0;
                    self.safe[t] |= 1 << d;
                }
            }
        }
        if to == TREASURE {
            // RN-E1 / RN-E2.
            if (0..3).all(|k| self.home(self.turn, k)) {
                self.forget_trail();
                self.ending = Some(Ending::Won(self.turn));
            } else {
                self.next_turn();
            }
            return;
        }
        // Entering a gallery teaches something too (portraits, RN-G2/G3).
        self.stood_on(from, to, learnt || self.gallery_of(to).is_some());
        if let Some(g) = self.gallery_of(to) {
            self.enter_gallery(g, from, over.is_some(), log);
        }
    }

    /// RN-G1–G4: the knight enters gallery `g`.
    fn enter_gallery(&mut self, g: u8, from: Node, jumped: bool, log: &mut Log) {
        let s = self.turn as usize;
        self.entered |= 1 << g;
        if g == self.active {
            self.visited[s] |= 1 << g; // RN-G1
        }
        self.exit = Some(Exit { to: from, jumped });
        if self.holds_from_gallery(g) {
            // RN-G3: « Il ne tire alors pas des portraits supplémentaires mais les échange »,
            // with the entering knight's own portraits from this gallery, if it has any.
            if self.exchangeable(g).is_empty() {
                self.log_nothing_to_exchange(g, log);
            } else {
                self.gallery = g;
                self.phase = Phase::Exchange;
            }
        } else if self.rail[s][g as usize] == [NO, NO] {
            self.draw_two(g, log); // RN-G2
        }
        // Otherwise that colour's place is taken (by portraits from other galleries, or by
        // a pair in the treasure room): nothing happens.
    }

    /// RN-G2: draws the two top portraits of gallery `g` beside that gallery's colour.
    fn draw_two(&mut self, g: u8, log: &mut Log) {
        let s = self.turn as usize;
        let mut drawn = [NO; 2];
        for d in drawn.iter_mut() {
            if let Some(p) = self.draw(g) {
                *d = p;
            }
        }
        self.rail[s][g as usize] = drawn;
        log.record(|| {
            let list: Vec<String> = drawn
                .iter()
                .filter(|&&p| p != NO)
                .map(|&p| number(p).to_string())
                .collect();
            Event::reveal(text(
                format!(
                    "{} tire les portraits {} dans la galerie {}",
                    SEAT_FR[s],
                    list.join(", "),
                    gallery_fr(g)
                ),
                format!(
                    "{} draws portraits {} in the {} gallery",
                    SEAT_EN[s],
                    list.join(", "),
                    HELMETS[g as usize]
                ),
            ))
        });
    }

    /// RN-G3: the player holds portraits from gallery `g`, so does not draw, but the
    /// entering knight has none of them to exchange: says so, since nothing else shows it.
    fn log_nothing_to_exchange(&self, g: u8, log: &mut Log) {
        let (s, h) = (self.turn as usize, self.active as usize);
        log.record(|| {
            Event::new(text(
                format!(
                    "{} a déjà des portraits de la galerie {} : pas de tirage, et le chevalier {} \
                     n'en porte aucun à échanger",
                    SEAT_FR[s],
                    gallery_fr(g),
                    HELMETS_FR[h]
                ),
                format!(
                    "{} already holds portraits from the {} gallery: no draw, and the {} knight \
                     has none of them to exchange",
                    SEAT_EN[s], HELMETS[g as usize], HELMETS[h]
                ),
            ))
        });
    }

    /// Takes the top portrait of gallery `g`'s pile.
    fn draw(&mut self, g: u8) -> Option<Portrait> {
        let pile = &mut self.piles[g as usize];
        if pile.is_empty() {
            return None;
        }
        let unknown = &mut self.unknown[g as usize];
        *unknown = unknown.saturating_sub(1);
        Some(pile.remove(0))
    }

    /// RN-G3: slides `a` (and `b`) under the pile, then takes as many from the top.
    /// The portraits are the entering knight's, and the new ones go beside it.
    fn swap(&mut self, a: Portrait, b: Portrait, log: &mut Log) {
        let (s, g, h) = (self.turn as usize, self.gallery, self.active as usize);
        let slot = &mut self.rail[s][h];
        let mut gone = 0;
        for p in [a, b] {
            if p == NO {
                continue;
            }
            if let Some(i) = slot.iter().position(|&q| q == p) {
                slot[i] = NO;
                self.piles[g as usize].push(p);
                gone += 1;
            }
        }
        let mut taken = Vec::new();
        for _ in 0..gone {
            if let Some(p) = self.draw(g) {
                let slot = &mut self.rail[s][h];
                if let Some(i) = slot.iter().position(|&q| q == NO) {
                    slot[i] = p;
                }
                taken.push(p);
            }
        }
        self.phase = Phase::Move;
        log.record(|| {
            let list: Vec<String> = taken.iter().map(|&p| number(p).to_string()).collect();
            Event::reveal(text(
                format!("{} échange et tire {}", SEAT_FR[s], list.join(", ")),
                format!("{} exchanges and draws {}", SEAT_EN[s], list.join(", ")),
            ))
        });
    }

    /// RN-G5: gathers the pair of `n` beside knight `to`.
    fn pair(&mut self, n: u8, to: u8, log: &mut Log) {
        let s = self.turn as usize;
        let Some(from) = (0..3u8).find(|&k| {
            k != to
                && self.rail[s][k as usize]
                    .iter()
                    .any(|&p| p != NO && number(p) == n)
        }) else {
            return;
        };
        let (to_u, from_u) = (to as usize, from as usize);
        let i = self.rail[s][from_u]
            .iter()
            .position(|&p| p != NO && number(p) == n)
            .unwrap_or(0);
        // The receiver's other portrait (or nothing) goes to the giver.
        let j = self.rail[s][to_u]
            .iter()
            .position(|&p| p == NO || number(p) != n)
            .unwrap_or(1);
        let given = self.rail[s][from_u][i];
        self.rail[s][from_u][i] = self.rail[s][to_u][j];
        self.rail[s][to_u][j] = given;
        tidy(&mut self.rail[s][from_u]);
        self.learnt();
        log.record(|| {
            Event::new(text(
                format!(
                    "{} réunit la paire {n} chez son chevalier {}",
                    SEAT_FR[s], HELMETS_FR[to_u]
                ),
                format!(
                    "{} gathers the pair of {n} beside the {} knight",
                    SEAT_EN[s], HELMETS[to_u]
                ),
            ))
        });
    }

    /// RN-G6: the moving knight takes the victim's portrait of the common number and gives
    /// `give`.
    fn rob(&mut self, victim: u8, give: Portrait, log: &mut Log) {
        let (s, h) = (self.turn as usize, self.active as usize);
        let (vs, vh) = ((victim / 3) as usize, (victim % 3) as usize);
        let Some(mi) = self.rail[s][h].iter().position(|&p| p == give) else {
            return;
        };
        let x = self.rail[s][h][1 - mi];
        let Some(vi) = self.rail[vs][vh]
            .iter()
            .position(|&q| q != NO && number(q) == number(x))
        else {
            return;
        };
        let taken = self.rail[vs][vh][vi];
        self.rail[vs][vh][vi] = give;
        self.rail[s][h][mi] = taken;
        log.record(|| {
            Event::new(text(
                format!(
                    "Brigand ! {} prend le portrait {} à {} et donne le {}",
                    SEAT_FR[s],
                    number(taken),
                    SEAT_FR[vs],
                    number(give)
                ),
                format!(
                    "Brigand! {} takes portrait {} from {} and gives {}",
                    SEAT_EN[s],
                    number(taken),
                    SEAT_EN[vs],
                    number(give)
                ),
            ))
        });
    }

    /// A trapdoor becomes known to everyone (RN-P1, RN-P2).
    fn reveal(&mut self, t: usize) {
        self.revealed |= 1 << t;
        self.shown |= 1 << t;
        self.safe[t] = 0xf & !(1 << self.traps[t]);
    }

    /// The move is over (stop or fall): RN-G6 may follow, else the turn passes.
    fn end_move(&mut self) {
        self.exit = None;
        let mut robs = Vec::new();
        self.rob_moves(&mut robs);
        if robs.is_empty() {
            self.next_turn();
        } else {
            self.phase = Phase::Brigand;
        }
    }

    /// Clockwise to the next player.
    pub(crate) fn next_turn(&mut self) {
        self.turn = (self.turn + 1) % self.players;
        self.phase = Phase::Roll;
        self.active = NO;
        self.steps = 0;
        self.entered = 0;
        self.exit = None;
        self.forget_trail();
        // RN-E3: a stand-off is offered as a draw the first time it is seen; once refused,
        // only after the position stopped being one. A turn is the smallest step looked at:
        // only a robbery or a pair in hand ends a stand-off, and either ends a turn first.
        let standoff = self.is_standoff();
        let new_standoff = standoff && self.standoff == Standoff::None;
        if new_standoff {
            self.standoff = Standoff::Offered;
        } else if !standoff {
            self.standoff = Standoff::None;
        }
        if new_standoff || self.rolls >= self.draw_offer_at {
            // Before the next roll, every player is asked.
            self.phase = Phase::DrawOffer;
            self.draw_accepted = 0;
        }
    }

    /// The player asked accepts the draw on offer; when all have, the game is drawn.
    fn accept_draw(&mut self, log: &mut Log) {
        let s = self.to_act() as usize;
        log.record(|| {
            Event::new(text(
                format!("{} accepte la partie nulle", SEAT_FR[s]),
                format!("{} accepts the draw", SEAT_EN[s]),
            ))
        });
        self.draw_accepted += 1;
        if self.draw_accepted >= self.players {
            self.ending = Some(if self.standoff == Standoff::Offered {
                Ending::StandoffAgreed // RN-E3
            } else {
                Ending::DrawAgreed
            });
        }
    }

    /// The player asked refuses the draw: the player to roll rolls. A stand-off's draw
    /// (RN-E3) comes back only with a new stand-off; the safety net's, if its limit was
    /// reached, [`DRAW_REOFFER_ROLLS`] rolls later.
    fn play_on(&mut self, log: &mut Log) {
        let s = self.to_act() as usize;
        log.record(|| {
            Event::new(text(
                format!("{} veut continuer la partie", SEAT_FR[s]),
                format!("{} wants to play on", SEAT_EN[s]),
            ))
        });
        self.phase = Phase::Roll;
        self.draw_accepted = 0;
        if self.standoff == Standoff::Offered {
            self.standoff = Standoff::PlayedOn; // RN-E3
        }
        if self.rolls >= self.draw_offer_at {
            self.draw_offer_at = self.rolls.saturating_add(DRAW_REOFFER_ROLLS);
        }
    }
}

/// Keeps a slot's portraits first, the empty place last.
fn tidy(slot: &mut [Portrait; 2]) {
    if slot[0] == NO {
        slot.swap(0, 1);
    }
}

/// "Red's black knight", French and English.
pub(crate) fn knight_words(s: u8, h: u8) -> veillee_sdk::Text {
    text(
        format!(
            "le chevalier {} de {}",
            HELMETS_FR[h as usize], SEAT_FR[s as usize]
        ),
        format!("{}'s {} knight", SEAT_EN[s as usize], HELMETS[h as usize]),
    )
}
