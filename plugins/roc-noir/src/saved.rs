//! The saved form of a game: readable, deterministic JSON. It holds everything, hidden
//! things included (the trapdoors, the piles' order): a save is never shown to players.
//!
//! Nodes are written as in action ids (`c3`, `entrance`, `black`, `treasure`), portraits as
//! number and copy letter (`7a`). Loading checks that the position makes sense, so a bad
//! save is refused instead of misbehaving later.

use serde::{Deserialize, Serialize};
use veillee_sdk::GameRng;

use crate::board::{self, NO, TILES, TREASURE};
use crate::{Ending, Exit, Phase, Portrait, RocNoir, Standoff, ENTRANCE, HELMETS, SEAT_IDS};

#[derive(Serialize, Deserialize)]
pub(crate) struct Saved {
    players: u8,
    assisted: bool,
    /// Corner rooms top-left, top-right, bottom-left, bottom-right: `entrance` or a colour.
    corners: Vec<String>,
    /// The trapdoor square of each tile, in reading order of the tiles.
    trapdoors: Vec<String>,
    /// Tiles (by index) whose trapdoor everyone has seen.
    revealed: Vec<u8>,
    /// Squares everyone knows are not trapdoors (besides the revealed tiles).
    safe: Vec<String>,
    /// Tiles (by index) whose trapdoor is shown this turn (memory mode).
    shown: Vec<u8>,
    /// Knights by id (`red-black`) with their node, in seat and helmet order.
    knights: Vec<(String, String)>,
    /// Per seat, the helmets whose knight has visited its own gallery.
    visited: Vec<Vec<String>>,
    ropes: Vec<u8>,
    /// Per seat, per helmet, the portraits on the rail.
    rails: Vec<Vec<Vec<String>>>,
    /// Per gallery (black, grey, white), the pile from the top.
    piles: Vec<Vec<String>>,
    /// Per gallery, how many of the top portraits nobody has seen.
    unknown: Vec<u8>,
    turn: u8,
    phase: Phase,
    die: Option<u8>,
    active: Option<String>,
    steps: u8,
    entered: Vec<String>,
    exit: Option<SavedExit>,
    gallery: String,
    fell: Option<(String, String)>,
    rolls: u32,
    /// The roll count at which the safety net next offers a draw (absent in saves of
    /// version 1.0.0: the first offer).
    #[serde(default = "first_draw_offer")]
    draw_offer_at: u32,
    /// How many players have accepted the draw on offer.
    #[serde(default)]
    draw_accepted: u8,
    /// RN-E3: the stand-off seen at the last end of a turn, `offered` or `played_on`
    /// (absent when none, and in saves before version 1.1.0).
    #[serde(default, skip_serializing_if = "Standoff::is_none")]
    standoff: Standoff,
    rng: GameRng,
    ending: Option<Ending>,
    /// House rule « trappe coûteuse » switched on (absent when off).
    #[serde(default, skip_serializing_if = "is_false")]
    costly_trapdoor: bool,
    /// House rule « le château fort enchanté »: the castle's quarter turns (0–3); absent
    /// when off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    castle_turns: Option<u8>,
    /// The nodes the moving knight stood on in this move since something was last learnt:
    /// what a bot does not step back onto (absent when empty, and in older saves).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    trail: Vec<String>,
}

fn is_false(on: &bool) -> bool {
    !*on
}

fn first_draw_offer() -> u32 {
    crate::DRAW_OFFER_ROLLS
}

#[derive(Serialize, Deserialize)]
struct SavedExit {
    to: String,
    jumped: bool,
}

fn colours(mask: u8) -> Vec<String> {
    (0..3)
        .filter(|g| mask & (1 << g) != 0)
        .map(|g| HELMETS[g].to_string())
        .collect()
}

fn colour_mask(list: &[String]) -> Result<u8, String> {
    list.iter().try_fold(0u8, |m, c| {
        let g = helmet(c)?;
        Ok(m | (1 << g))
    })
}

fn helmet(name: &str) -> Result<u8, String> {
    HELMETS
        .iter()
        .position(|&h| h == name)
        .map(|g| g as u8)
        .ok_or_else(|| format!("unknown colour `{name}`"))
}

fn tiles(mask: u32) -> Vec<u8> {
    (0..TILES as u8).filter(|t| mask & (1 << t) != 0).collect()
}

fn tile_mask(list: &[u8]) -> Result<u32, String> {
    list.iter().try_fold(0u32, |m, &t| {
        if (t as usize) < TILES {
            Ok(m | (1 << t))
        } else {
            Err(format!("no tile {t}"))
        }
    })
}

fn portrait(name: &str, count: u8) -> Result<Portrait, String> {
    let bad = || format!("unknown portrait `{name}`");
    let (num, copy) = name.split_at(name.len().saturating_sub(1));
    let n: u8 = num.parse().map_err(|_| bad())?;
    let c = match copy {
        "a" => 0,
        "b" => 1,
        _ => return Err(bad()),
    };
    if n == 0 || n > count {
        return Err(bad());
    }
    Ok((n - 1) * 2 + c)
}

impl From<RocNoir> for Saved {
    fn from(g: RocNoir) -> Self {
        let players = g.players as usize;
        Saved {
            players: g.players,
            assisted: g.assisted,
            corners: g
                .corners
                .iter()
                .map(|&c| {
                    if c == ENTRANCE {
                        "entrance".to_string()
                    } else {
                        HELMETS[c as usize].to_string()
                    }
                })
                .collect(),
            trapdoors: (0..TILES)
                .map(|t| board::square_name(board::tile_square(t, g.traps[t])))
                .collect(),
            revealed: tiles(g.revealed),
            safe: (0..TILES)
                .flat_map(|t| (0..4u8).map(move |p| (t, p)))
                .filter(|&(t, p)| g.revealed & (1 << t) == 0 && g.safe[t] & (1 << p) != 0)
                .map(|(t, p)| board::square_name(board::tile_square(t, p)))
                .collect(),
            shown: tiles(g.shown),
            knights: (0..players)
                .flat_map(|s| (0..3).map(move |h| (s, h)))
                .map(|(s, h)| {
                    (
                        format!("{}-{}", SEAT_IDS[s], HELMETS[h]),
                        g.node_name(g.pos[s][h]),
                    )
                })
                .collect(),
            visited: g.visited[..players].iter().map(|&m| colours(m)).collect(),
            ropes: g.ropes[..players].to_vec(),
            rails: g.rail[..players]
                .iter()
                .map(|seat| {
                    seat.iter()
                        .map(|slot| {
                            slot.iter()
                                .filter(|&&p| p != NO)
                                .map(|&p| crate::portrait_name(p))
                                .collect()
                        })
                        .collect()
                })
                .collect(),
            piles: g
                .piles
                .iter()
                .map(|pile| pile.iter().map(|&p| crate::portrait_name(p)).collect())
                .collect(),
            unknown: g.unknown.to_vec(),
            turn: g.turn,
            phase: g.phase,
            die: g.die,
            active: (g.active != NO).then(|| HELMETS[g.active as usize].to_string()),
            steps: g.steps,
            entered: colours(g.entered),
            exit: g.exit.map(|e| SavedExit {
                to: g.node_name(e.to),
                jumped: e.jumped,
            }),
            gallery: HELMETS[g.gallery as usize].to_string(),
            fell: g.fell.map(|(k, n)| {
                (
                    format!(
                        "{}-{}",
                        SEAT_IDS[(k / 3) as usize],
                        HELMETS[(k % 3) as usize]
                    ),
                    g.node_name(n),
                )
            }),
            rolls: g.rolls,
            draw_offer_at: g.draw_offer_at,
            draw_accepted: g.draw_accepted,
            standoff: g.standoff,
            rng: g.rng.clone(),
            ending: g.ending,
            costly_trapdoor: g.costly_trapdoor,
            castle_turns: g.castle_turns,
            trail: (0..TREASURE + 1)
                .filter(|&n| g.trail & (1u128 << n) != 0)
                .map(|n| g.node_name(n))
                .collect(),
        }
    }
}

impl TryFrom<Saved> for RocNoir {
    type Error = String;

    fn try_from(v: Saved) -> Result<Self, String> {
        if !(2..=4).contains(&v.players) {
            return Err(format!("{} players", v.players));
        }
        let players = v.players as usize;
        let mut corners = [0u8; 4];
        if v.corners.len() != 4 {
            return Err("four corner rooms expected".into());
        }
        for (i, c) in v.corners.iter().enumerate() {
            corners[i] = if c == "entrance" {
                ENTRANCE
            } else {
                helmet(c)?
            };
        }
        let mut sorted = corners;
        sorted.sort();
        if sorted != [0, 1, 2, ENTRANCE] {
            return Err("the corners must hold the entrance and the three galleries".into());
        }
        if v.trapdoors.len() != TILES {
            return Err(format!("{TILES} trapdoors expected"));
        }
        let mut traps = [0u8; TILES];
        for (t, name) in v.trapdoors.iter().enumerate() {
            let sq = board::parse_square(name).ok_or_else(|| format!("bad square `{name}`"))?;
            match board::tile_of(sq) {
                Some((tt, p)) if tt == t => traps[t] = p,
                _ => return Err(format!("`{name}` is not on tile {t}")),
            }
        }
        let mut g = RocNoir::with_layout(v.players, 0, v.assisted, corners, traps);
        g.revealed = tile_mask(&v.revealed)?;
        g.shown = tile_mask(&v.shown)?;
        if g.shown & !g.revealed != 0 {
            return Err("a shown trapdoor was not revealed".into());
        }
        for (t, &trap) in traps.iter().enumerate() {
            if g.revealed & (1 << t) != 0 {
                g.safe[t] = 0xf & !(1 << trap);
            }
        }
        for name in &v.safe {
            let sq = board::parse_square(name).ok_or_else(|| format!("bad square `{name}`"))?;
            let (t, p) = board::tile_of(sq).ok_or("a room is not a flagstone")?;
            if traps[t] == p {
                return Err(format!("`{name}` is a trapdoor, not safe"));
            }
            g.safe[t] |= 1 << p;
        }
        if v.knights.len() != players * 3 {
            return Err("three knights per player expected".into());
        }
        g.pos = [[NO; 3]; 4];
        for (id, at) in &v.knights {
            let (seat, h) = id
                .split_once('-')
                .ok_or_else(|| format!("bad knight `{id}`"))?;
            let s = SEAT_IDS[..players]
                .iter()
                .position(|&x| x == seat)
                .ok_or_else(|| format!("bad knight `{id}`"))?;
            let h = helmet(h)? as usize;
            let n = g.parse_node(at).ok_or_else(|| format!("bad node `{at}`"))?;
            if g.pos[s][h] != NO {
                return Err(format!("knight `{id}` twice"));
            }
            g.pos[s][h] = n;
        }
        for s in 0..players {
            for h in 0..3 {
                let n = g.pos[s][h];
                let shared = n == TREASURE || n == g.entrance();
                let others = (0..players)
                    .flat_map(|o| (0..3).map(move |k| (o, k)))
                    .filter(|&(o, k)| (o, k) != (s, h) && g.pos[o][k] == n)
                    .count();
                if !shared && others > 0 {
                    return Err(format!("two knights on `{}`", g.node_name(n)));
                }
            }
        }
        if v.visited.len() != players || v.ropes.len() != players || v.rails.len() != players {
            return Err("one entry per player expected".into());
        }
        for s in 0..players {
            g.visited[s] = colour_mask(&v.visited[s])?;
            if v.ropes[s] > crate::ROPES {
                return Err("too many ropes".into());
            }
            g.ropes[s] = v.ropes[s];
        }
        let count = v.players * 3;
        let mut seen = [false; 24];
        let mut take = |p: Portrait| -> Result<Portrait, String> {
            if std::mem::replace(&mut seen[p as usize], true) {
                return Err(format!("portrait {} twice", crate::portrait_name(p)));
            }
            Ok(p)
        };
        g.rail = [[[NO; 2]; 3]; 4];
        for s in 0..players {
            if v.rails[s].len() != 3 {
                return Err("three rail places per player expected".into());
            }
            for h in 0..3 {
                if v.rails[s][h].len() > 2 {
                    return Err("at most two portraits per knight".into());
                }
                for (i, name) in v.rails[s][h].iter().enumerate() {
                    g.rail[s][h][i] = take(portrait(name, count)?)?;
                }
            }
        }
        if v.piles.len() != 3 || v.unknown.len() != 3 {
            return Err("three piles expected".into());
        }
        for gal in 0..3 {
            g.piles[gal] = v.piles[gal]
                .iter()
                .map(|n| portrait(n, count).and_then(&mut take))
                .collect::<Result<_, _>>()?;
            if v.unknown[gal] as usize > g.piles[gal].len() {
                return Err("more unseen portraits than the pile holds".into());
            }
            g.unknown[gal] = v.unknown[gal];
        }
        if seen[..count as usize * 2].iter().any(|&s| !s) {
            return Err("a portrait is missing".into());
        }
        if v.turn >= v.players {
            return Err("bad turn".into());
        }
        g.turn = v.turn;
        g.phase = v.phase;
        if v.die.is_some_and(|f| f > 5) {
            return Err("bad die face".into());
        }
        g.die = v.die;
        g.active = match &v.active {
            Some(h) => helmet(h)?,
            None => NO,
        };
        let needs_active = matches!(v.phase, Phase::Move | Phase::Exchange | Phase::Brigand);
        if needs_active != (g.active != NO) {
            return Err("the moving knight does not match the phase".into());
        }
        g.steps = v.steps;
        g.entered = colour_mask(&v.entered)?;
        g.exit = match &v.exit {
            Some(e) => Some(Exit {
                to: g.parse_node(&e.to).ok_or("bad exit")?,
                jumped: e.jumped,
            }),
            None => None,
        };
        g.gallery = helmet(&v.gallery)?;
        g.fell = match &v.fell {
            Some((id, at)) => {
                let (seat, h) = id.split_once('-').ok_or("bad fallen knight")?;
                let s = SEAT_IDS[..players]
                    .iter()
                    .position(|&x| x == seat)
                    .ok_or("bad fallen knight")?;
                let n = board::parse_square(at).ok_or("bad trapdoor")?;
                Some((s as u8 * 3 + helmet(h)?, n))
            }
            None => None,
        };
        g.rolls = v.rolls;
        let all_accepted = matches!(v.ending, Some(Ending::DrawAgreed | Ending::StandoffAgreed));
        if v.draw_accepted > v.players
            || (v.draw_accepted == v.players) != all_accepted
            || (v.draw_accepted > 0 && v.phase != Phase::DrawOffer)
        {
            return Err("bad count of draw acceptances".into());
        }
        let offered = v.standoff == Standoff::Offered;
        if (offered && v.phase != Phase::DrawOffer)
            || (v.ending == Some(Ending::StandoffAgreed)) != (offered && all_accepted)
        {
            return Err("a stand-off's draw (RN-E3) only while it is on offer".into());
        }
        g.draw_offer_at = v.draw_offer_at;
        g.draw_accepted = v.draw_accepted;
        g.standoff = v.standoff;
        g.rng = v.rng;
        g.ending = v.ending;
        g.costly_trapdoor = v.costly_trapdoor;
        if v.castle_turns.is_some_and(|t| t > 3) {
            return Err("castle_turns counts quarter turns: 0 to 3".into());
        }
        g.castle_turns = v.castle_turns;
        for name in &v.trail {
            let n = g
                .parse_node(name)
                .ok_or_else(|| format!("bad node `{name}` on the trail"))?;
            g.trail |= 1u128 << n;
        }
        if g.trail != 0 && !needs_active {
            return Err("a trail outside a move".into());
        }
        Ok(g)
    }
}
