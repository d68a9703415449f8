//! Positions from text diagrams, for tests and tools.

use crate::board::{self, NONE};
use crate::ChateauNoir;

impl ChateauNoir {
    /// A position from a diagram, for tests and tools: ten lines for rows 1 to 10, ten
    /// squares each for columns `a`–`j` (spaces between squares and a leading row number are
    /// allowed). A square is its map letter (`W B X g r u y`, checked against the board) or
    /// `.` when empty, or a piece: captains `G R U Y` (Green, Red, blUe, Yellow) and soldiers
    /// `1 2 3 4` (of the same armies). Soldiers take the numbers 1–8 in reading order.
    ///
    /// The result is the start of `active`'s first turn of round 1 (turn 1), with no start of
    /// turn processed (no château or siege test), no points and no alliance.
    pub fn from_diagram(
        diagram: &str,
        players: u8,
        teams: bool,
        active: u8,
    ) -> Result<ChateauNoir, String> {
        let lines: Vec<String> = diagram
            .lines()
            .map(|line| {
                let mut tokens: Vec<&str> = line.split_whitespace().collect();
                if tokens.len() > 1 && tokens[0].parse::<u8>().is_ok() {
                    tokens.remove(0);
                }
                tokens.concat()
            })
            // Empty lines and a column header (`a b c … j`) are skipped.
            .filter(|l| !l.is_empty() && l != "abcdefghij")
            .collect();
        if lines.len() != 10 || lines.iter().any(|l| l.chars().count() != 10) {
            return Err("a diagram is 10 lines (rows 1 to 10) of 10 squares (a to j)".into());
        }
        if !(2..=4).contains(&players) || (players < 4 && !teams) || active > 3 {
            return Err("2–4 players (2 and 3 play in teams), active army 0–3".into());
        }
        let mut game = ChateauNoir::blank(players, teams, 0);
        game.round = 1;
        let mut soldiers = [0u8; 4];
        for (r, line) in lines.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                let s = board::sq(c as u8, r as u8);
                let p = match ch {
                    'G' | 'R' | 'U' | 'Y' => {
                        let army = "GRUY".find(ch).unwrap_or(0) as u8;
                        board::captain(army)
                    }
                    '1'..='4' => {
                        let army = ch as u8 - b'1';
                        soldiers[army as usize] += 1;
                        if soldiers[army as usize] > 8 {
                            return Err(format!("more than 8 soldiers `{ch}`"));
                        }
                        board::captain(army) + soldiers[army as usize]
                    }
                    '.' => continue,
                    letter => {
                        let expected = board::MAP[r].as_bytes()[c] as char;
                        if letter != expected {
                            return Err(format!(
                                "{} is `{expected}` on the map, not `{letter}`",
                                board::name(s)
                            ));
                        }
                        continue;
                    }
                };
                if game.pos[p as usize] != NONE {
                    return Err(format!("two captains `{ch}`"));
                }
                game.pos[p as usize] = s;
                game.board[s as usize] = p + 1;
            }
        }
        if !game.playable(active) {
            return Err("the army to move has no piece".into());
        }
        game.active = active;
        Ok(game)
    }
}
